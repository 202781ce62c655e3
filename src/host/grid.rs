//! Square grids for area-based rules (The Tin Army's, for one): which area a point is in,
//! area centres, neighbours, distances in areas, and which side of a unit an adjacent area
//! lies on.
//!
//! Conventions follow [`crate::host::geometry`]: inches, x east, y north, facings in degrees
//! clockwise from north. Column 0 is at the west edge and row 0 at the south edge, so
//! columns grow east and rows grow north. Distances in areas are Chebyshev: a diagonal
//! step counts 1, like an orthogonal one.

use crate::host::geometry::{Point, ShapeError, angle_off, positive};
use serde::{Deserialize, Serialize};
use std::fmt;

/// Slack for angles exactly on a front or rear boundary.
const EPS: f64 = 1e-9;

/// A table divided into square areas.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Grid {
    /// Areas west to east.
    pub columns: u32,
    /// Areas south to north.
    pub rows: u32,
    /// Side of one square area, in inches.
    pub area: f64,
}

/// One square of a [`Grid`], by column (from the west) and row (from the south).
/// Serialises as `[col, row]`; it may name a square off the grid.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(from = "[i32; 2]", into = "[i32; 2]")]
pub struct Area {
    /// Column, 0 at the west edge.
    pub col: i32,
    /// Row, 0 at the south edge.
    pub row: i32,
}

impl Area {
    /// The area in column `col`, row `row`.
    pub const fn new(col: i32, row: i32) -> Self {
        Area { col, row }
    }
}

impl From<[i32; 2]> for Area {
    fn from([col, row]: [i32; 2]) -> Self {
        Area::new(col, row)
    }
}

impl From<Area> for [i32; 2] {
    fn from(a: Area) -> Self {
        [a.col, a.row]
    }
}

impl fmt::Display for Area {
    /// `(col, row)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({}, {})", self.col, self.row)
    }
}

/// Steps to the 8 neighbours, clockwise from north: N, NE, E, SE, S, SW, W, NW.
const NEIGHBOUR_STEPS: [(i32, i32); 8] = [
    (0, 1),
    (1, 1),
    (1, 0),
    (1, -1),
    (0, -1),
    (-1, -1),
    (-1, 0),
    (-1, 1),
];

impl Grid {
    /// Checks there is at least one column and row, no more than an [`Area`] can number,
    /// and the area size is positive.
    pub fn validate(&self) -> Result<(), ShapeError> {
        if self.columns == 0 || self.rows == 0 {
            return Err(ShapeError::EmptyGrid {
                columns: self.columns,
                rows: self.rows,
            });
        }
        if i32::try_from(self.columns.max(self.rows)).is_err() {
            return Err(ShapeError::GridTooLarge);
        }
        positive("grid area", self.area)
    }

    /// East-west size of the grid, in inches.
    pub fn width(&self) -> f64 {
        f64::from(self.columns) * self.area
    }

    /// North-south size of the grid, in inches.
    pub fn depth(&self) -> f64 {
        f64::from(self.rows) * self.area
    }

    /// The area holding `p`; None off the grid, for a non-finite point or an invalid grid.
    /// A point on a shared boundary belongs to the area north or east of it, except on
    /// the table's far (north and east) edges, which belong to the last row and column.
    pub fn area_of(&self, p: Point) -> Option<Area> {
        if self.validate().is_err() {
            return None;
        }
        let col = square_index(p.x, self.area, self.columns)?;
        let row = square_index(p.y, self.area, self.rows)?;
        Some(Area::new(col, row))
    }

    /// The centre of `a`, in inches; also defined for areas off the grid.
    pub fn centre(&self, a: Area) -> Point {
        let mid = |i: i32| (f64::from(i) + 0.5) * self.area;
        Point::new(mid(a.col), mid(a.row))
    }

    /// Whether `a` is on the grid.
    pub fn contains(&self, a: Area) -> bool {
        let within = |i: i32, count: u32| i >= 0 && i64::from(i) < i64::from(count);
        within(a.col, self.columns) && within(a.row, self.rows)
    }

    /// The areas around `a` that are on the grid, clockwise from north:
    /// N, NE, E, SE, S, SW, W, NW.
    pub fn neighbours(&self, a: Area) -> Vec<Area> {
        NEIGHBOUR_STEPS
            .iter()
            .filter_map(|&(dc, dr)| Some(Area::new(a.col.checked_add(dc)?, a.row.checked_add(dr)?)))
            .filter(|&n| self.contains(n))
            .collect()
    }
}

/// Which of `count` squares of side `side` the coordinate `v` falls in: a boundary goes to
/// the higher square, the far edge to the last one.
fn square_index(v: f64, side: f64, count: u32) -> Option<i32> {
    let far = side * f64::from(count);
    if !(0.0..=far).contains(&v) {
        return None;
    }
    // the cast saturates; min keeps the far edge in the last square
    let i = ((v / side).floor() as u64).min(u64::from(count.saturating_sub(1)));
    i32::try_from(i).ok()
}

/// Distance between areas in steps, diagonal steps counting 1 (Chebyshev distance): the
/// larger of the column and row differences.
pub fn area_distance(a: Area, b: Area) -> u32 {
    a.col.abs_diff(b.col).max(a.row.abs_diff(b.row))
}

/// Whether the areas touch at an edge or a corner: 1 step apart.
pub fn adjacent(a: Area, b: Area) -> bool {
    area_distance(a, b) == 1
}

/// Whether the areas share an edge: one column or one row apart, not both.
pub fn orthogonally_adjacent(a: Area, b: Area) -> bool {
    let (dc, dr) = (a.col.abs_diff(b.col), a.row.abs_diff(b.row));
    (dc == 1 && dr == 0) || (dc == 0 && dr == 1)
}

/// Which side of a unit something lies on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Aspect {
    /// Ahead.
    Front,
    /// To either side.
    Flank,
    /// Behind.
    Rear,
}

impl fmt::Display for Aspect {
    /// `front`, `flank` or `rear`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Aspect::Front => "front",
            Aspect::Flank => "flank",
            Aspect::Rear => "rear",
        })
    }
}

/// Which side of a unit in `from`, facing `facing`, the adjacent area `other` lies on,
/// judged by the bearing between area centres: within 45 degrees of the facing is front
/// (so a diagonal area ahead counts as front), 135 or more is rear, and between is flank.
/// None when `other` is not adjacent or the facing is not finite.
pub fn aspect(from: Area, facing: f64, other: Area) -> Option<Aspect> {
    if !adjacent(from, other) || !facing.is_finite() {
        return None;
    }
    // adjacent areas differ by at most 1, so these cannot overflow
    let step = Point::new(
        f64::from(other.col - from.col),
        f64::from(other.row - from.row),
    );
    let off = angle_off(facing, Point::default().bearing_to(step)).abs();
    Some(if off <= 45.0 + EPS {
        Aspect::Front
    } else if off >= 135.0 - EPS {
        Aspect::Rear
    } else {
        Aspect::Flank
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::de::value::{Error as DeError, SeqDeserializer};

    /// 6 by 4 areas of 12 inches: a 6 by 4 foot table.
    fn tin_army() -> Grid {
        Grid {
            columns: 6,
            rows: 4,
            area: 12.0,
        }
    }

    fn a(col: i32, row: i32) -> Area {
        Area::new(col, row)
    }

    fn p(x: f64, y: f64) -> Point {
        Point::new(x, y)
    }

    #[test]
    fn validate_accepts_a_six_by_four_table() {
        assert_eq!(tin_army().validate(), Ok(()));
    }

    #[test]
    fn validate_rejects_empty_grids_and_bad_areas() {
        let empty = Grid {
            columns: 0,
            ..tin_army()
        };
        assert_eq!(
            empty.validate().map_err(|e| e.to_string()),
            Err("a grid needs at least one column and row, got 0 by 4".into())
        );
        let negative = Grid {
            area: -12.0,
            ..tin_army()
        };
        assert_eq!(
            negative.validate().map_err(|e| e.to_string()),
            Err("grid area must be a positive number of inches, got -12".into())
        );
        let nan = Grid {
            area: f64::NAN,
            ..tin_army()
        };
        assert!(nan.validate().is_err());
        let huge = Grid {
            rows: u32::MAX,
            ..tin_army()
        };
        assert!(huge.validate().unwrap_err().to_string().contains("at most"));
    }

    #[test]
    fn width_and_depth_of_six_by_four_foot_squares() {
        assert_eq!(tin_army().width(), 72.0);
        assert_eq!(tin_army().depth(), 48.0);
    }

    #[test]
    fn area_of_counts_columns_east_and_rows_north() {
        let g = tin_army();
        assert_eq!(g.area_of(p(0.0, 0.0)), Some(a(0, 0)));
        assert_eq!(g.area_of(p(13.0, 25.0)), Some(a(1, 2)));
        assert_eq!(g.area_of(p(71.9, 47.9)), Some(a(5, 3)));
    }

    #[test]
    fn area_of_gives_shared_boundaries_to_the_north_and_east() {
        let g = tin_army();
        assert_eq!(g.area_of(p(12.0, 12.0)), Some(a(1, 1)));
        assert_eq!(g.area_of(p(24.0, 5.0)), Some(a(2, 0)));
    }

    #[test]
    fn area_of_keeps_the_far_edges_on_the_grid() {
        let g = tin_army();
        assert_eq!(g.area_of(p(72.0, 48.0)), Some(a(5, 3)));
        assert_eq!(g.area_of(p(72.0, 30.0)), Some(a(5, 2)));
    }

    #[test]
    fn area_of_is_none_off_the_grid_or_for_nan() {
        let g = tin_army();
        assert_eq!(g.area_of(p(72.1, 0.0)), None);
        assert_eq!(g.area_of(p(-0.1, 0.0)), None);
        assert_eq!(g.area_of(p(0.0, 48.1)), None);
        assert_eq!(g.area_of(p(f64::NAN, 0.0)), None);
        let broken = Grid {
            area: 0.0,
            ..tin_army()
        };
        assert_eq!(broken.area_of(p(1.0, 1.0)), None);
    }

    #[test]
    fn centre_is_half_an_area_in() {
        assert_eq!(tin_army().centre(a(1, 2)), p(18.0, 30.0));
        assert_eq!(tin_army().centre(a(0, 0)), p(6.0, 6.0));
        let g = tin_army();
        assert_eq!(g.area_of(g.centre(a(4, 3))), Some(a(4, 3)));
    }

    #[test]
    fn contains_only_areas_on_the_grid() {
        let g = tin_army();
        assert!(g.contains(a(0, 0)));
        assert!(g.contains(a(5, 3)));
        assert!(!g.contains(a(6, 3)));
        assert!(!g.contains(a(5, 4)));
        assert!(!g.contains(a(-1, 0)));
    }

    #[test]
    fn neighbours_run_clockwise_from_north() {
        let expected = vec![
            a(2, 3),
            a(3, 3),
            a(3, 2),
            a(3, 1),
            a(2, 1),
            a(1, 1),
            a(1, 2),
            a(1, 3),
        ];
        assert_eq!(tin_army().neighbours(a(2, 2)), expected);
    }

    #[test]
    fn neighbours_of_a_corner_stay_on_the_grid() {
        assert_eq!(
            tin_army().neighbours(a(0, 0)),
            vec![a(0, 1), a(1, 1), a(1, 0)]
        );
        assert_eq!(
            tin_army().neighbours(a(5, 3)),
            vec![a(5, 2), a(4, 2), a(4, 3)]
        );
        assert_eq!(tin_army().neighbours(a(i32::MAX, 0)), Vec::<Area>::new());
    }

    #[test]
    fn area_distance_counts_diagonal_steps_as_one() {
        assert_eq!(area_distance(a(0, 0), a(3, 1)), 3);
        assert_eq!(area_distance(a(2, 2), a(3, 3)), 1);
        assert_eq!(area_distance(a(2, 2), a(2, 2)), 0);
        assert_eq!(area_distance(a(1, 5), a(4, 0)), 5);
        assert_eq!(area_distance(a(i32::MIN, 0), a(i32::MAX, 0)), u32::MAX);
    }

    #[test]
    fn adjacent_includes_diagonals_and_orthogonal_does_not() {
        assert!(adjacent(a(2, 2), a(3, 3)));
        assert!(adjacent(a(2, 2), a(2, 1)));
        assert!(!adjacent(a(2, 2), a(2, 2)));
        assert!(!adjacent(a(2, 2), a(4, 2)));
        assert!(orthogonally_adjacent(a(2, 2), a(2, 1)));
        assert!(orthogonally_adjacent(a(2, 2), a(3, 2)));
        assert!(!orthogonally_adjacent(a(2, 2), a(3, 3)));
        assert!(!orthogonally_adjacent(a(2, 2), a(2, 2)));
    }

    #[test]
    fn aspect_facing_north_puts_both_forward_diagonals_in_front() {
        let from = a(2, 2);
        assert_eq!(aspect(from, 0.0, a(2, 3)), Some(Aspect::Front));
        assert_eq!(aspect(from, 0.0, a(3, 3)), Some(Aspect::Front));
        assert_eq!(aspect(from, 0.0, a(1, 3)), Some(Aspect::Front));
        assert_eq!(aspect(from, 0.0, a(3, 2)), Some(Aspect::Flank));
        assert_eq!(aspect(from, 0.0, a(1, 2)), Some(Aspect::Flank));
        assert_eq!(aspect(from, 0.0, a(3, 1)), Some(Aspect::Rear));
        assert_eq!(aspect(from, 0.0, a(2, 1)), Some(Aspect::Rear));
    }

    #[test]
    fn aspect_facing_east_turns_with_the_unit() {
        let from = a(2, 2);
        assert_eq!(aspect(from, 90.0, a(3, 2)), Some(Aspect::Front));
        assert_eq!(aspect(from, 90.0, a(2, 3)), Some(Aspect::Flank));
        assert_eq!(aspect(from, 90.0, a(1, 2)), Some(Aspect::Rear));
    }

    #[test]
    fn aspect_facing_north_east_splits_the_eight_neighbours_3_2_3() {
        // off facing: N 45, NE 0, E 45 front; SE 90, NW 90 flank; S 135, SW 180, W 135 rear
        let from = a(2, 2);
        let sides: Vec<_> = tin_army()
            .neighbours(from)
            .into_iter()
            .map(|n| aspect(from, 45.0, n).map(|s| s.to_string()))
            .collect();
        let expected = [
            "front", "front", "front", "flank", "rear", "rear", "rear", "flank",
        ];
        assert_eq!(sides, expected.map(|s| Some(s.to_string())));
    }

    #[test]
    fn aspect_is_none_unless_adjacent() {
        assert_eq!(aspect(a(2, 2), 0.0, a(2, 4)), None);
        assert_eq!(aspect(a(2, 2), 0.0, a(2, 2)), None);
        assert_eq!(aspect(a(2, 2), f64::NAN, a(2, 3)), None);
    }

    #[test]
    fn area_displays_and_serialises_as_col_row() {
        assert_eq!(a(3, -1).to_string(), "(3, -1)");
        let seq = SeqDeserializer::<_, DeError>::new([4, 2].into_iter());
        assert_eq!(Area::deserialize(seq), Ok(a(4, 2)));
        assert_eq!(<[i32; 2]>::from(a(4, 2)), [4, 2]);
    }

    #[test]
    fn aspect_displays_lowercase() {
        assert_eq!(Aspect::Front.to_string(), "front");
        assert_eq!(Aspect::Flank.to_string(), "flank");
        assert_eq!(Aspect::Rear.to_string(), "rear");
    }

    #[test]
    fn areas_order_by_column_then_row() {
        let mut areas = vec![a(1, 0), a(0, 2), a(0, 1)];
        areas.sort();
        assert_eq!(areas, vec![a(0, 1), a(0, 2), a(1, 0)]);
    }
}
