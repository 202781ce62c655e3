//! The battlefield: the table (or grid), its terrain and the units on it, with the queries
//! rules ask ("who is within 2 inches?", "nearest enemy", "can A see B?").
//!
//! Units keep their place in the list for the whole game, even when removed from play, so an
//! index is a stable handle for a unit; ids map to indices.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use crate::host::geometry::{self, CONTACT_TOLERANCE, Point};
use crate::host::grid::Grid;
use crate::host::suggest;
use crate::host::terrain::Terrain;
use crate::host::unit::Unit;

/// A unit added with an id the battlefield already has.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("two units have the id `{0}`")]
pub struct DuplicateId(pub String);

/// Why a unit's id (or a prefix of it) names no one unit.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ResolveError {
    /// No unit has that id or an id starting with it.
    #[error("unknown unit `{text}`{}", suggestion.as_ref().map(|s| format!("; did you mean `{s}`?")).unwrap_or_default())]
    Unknown {
        /// What was written.
        text: String,
        /// The closest id, if one is close.
        suggestion: Option<String>,
    },
    /// Several units' ids start with it.
    #[error("`{text}` could be any of {} units: {}", candidates.len(), shown(candidates))]
    Ambiguous {
        /// What was written.
        text: String,
        /// The ids it could be, in scenario order.
        candidates: Vec<String>,
    },
}

impl ResolveError {
    /// The error without its suggestion, for a diagnostic that gives the suggestion as help.
    pub fn message(&self) -> String {
        match self {
            ResolveError::Unknown { text, .. } => format!("unknown unit `{text}`"),
            ResolveError::Ambiguous { .. } => self.to_string(),
        }
    }

    /// How to fix it, where known.
    pub fn help(&self) -> Option<String> {
        match self {
            ResolveError::Unknown { suggestion, .. } => {
                suggestion.as_ref().map(|s| format!("did you mean `{s}`?"))
            }
            ResolveError::Ambiguous { .. } => Some("write more of the id".into()),
        }
    }
}

impl From<ResolveError> for String {
    fn from(e: ResolveError) -> String {
        e.to_string()
    }
}

/// The first six ids, and `...` if there are more.
fn shown(ids: &[String]) -> String {
    let mut out = ids.iter().take(6).cloned().collect::<Vec<_>>().join(", ");
    if ids.len() > 6 {
        out.push_str(", ...");
    }
    out
}

/// What blocks a line of sight.
#[derive(Clone, Debug, PartialEq)]
pub enum Sight {
    /// Nothing in the way.
    Clear,
    /// A terrain feature, by index.
    Terrain(usize),
    /// Another unit, by index.
    Unit(usize),
}

/// The table and everything on it.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Battlefield {
    /// Table width (west to east), inches.
    pub width: f64,
    /// Table depth (south to north), inches.
    pub depth: f64,
    /// The grid of areas, for area-based rules.
    pub grid: Option<Grid>,
    /// Terrain features.
    pub terrain: Terrain,
    units: Vec<Unit>,
    #[serde(skip)]
    index: HashMap<String, usize>,
}

impl Battlefield {
    /// An empty table of the given size in inches.
    pub fn new(width: f64, depth: f64) -> Self {
        Battlefield {
            width,
            depth,
            ..Battlefield::default()
        }
    }

    /// Adds a unit; ids must be unique.
    pub fn add_unit(&mut self, unit: Unit) -> Result<usize, DuplicateId> {
        if self.index.contains_key(&unit.id) {
            return Err(DuplicateId(unit.id));
        }
        let idx = self.units.len();
        self.index.insert(unit.id.clone(), idx);
        self.units.push(unit);
        Ok(idx)
    }

    /// Replaces every unit (opening a saved game).
    pub fn set_units(&mut self, units: Vec<Unit>) {
        self.units = units;
        self.reindex();
    }

    /// Takes back the unit added last (undoing [`Battlefield::add_unit`]).
    pub fn remove_last(&mut self) -> Option<Unit> {
        let unit = self.units.pop()?;
        self.index.remove(&unit.id);
        Some(unit)
    }

    /// Rebuilds the id index (after deserialising).
    pub fn reindex(&mut self) {
        self.index = self
            .units
            .iter()
            .enumerate()
            .map(|(i, u)| (u.id.clone(), i))
            .collect();
    }

    /// Every unit, in play or not, in scenario order.
    pub fn units(&self) -> &[Unit] {
        &self.units
    }

    /// The unit at an index.
    pub fn get(&self, idx: usize) -> Option<&Unit> {
        self.units.get(idx)
    }

    /// The unit at an index, to change it (the session logs the change).
    pub fn get_mut(&mut self, idx: usize) -> Option<&mut Unit> {
        self.units.get_mut(idx)
    }

    /// The index of the unit with this id.
    pub fn index_of(&self, id: &str) -> Option<usize> {
        self.index.get(id).copied()
    }

    /// The unit with this id.
    pub fn unit(&self, id: &str) -> Option<&Unit> {
        self.index_of(id).map(|i| &self.units[i])
    }

    /// Finds a unit by id or by an unambiguous prefix of one; the error says what went wrong
    /// and suggests the closest id.
    pub fn resolve(&self, text: &str) -> Result<usize, ResolveError> {
        if let Some(i) = self.index_of(text) {
            return Ok(i);
        }
        let matches: Vec<usize> = (0..self.units.len())
            .filter(|&i| self.units[i].id.starts_with(text))
            .collect();
        match matches.as_slice() {
            [one] if !text.is_empty() => Ok(*one),
            [] | [_] => Err(ResolveError::Unknown {
                text: text.to_string(),
                suggestion: suggest::did_you_mean(text, self.units.iter().map(|u| u.id.as_str()))
                    .map(str::to_string),
            }),
            many => Err(ResolveError::Ambiguous {
                text: text.to_string(),
                candidates: many.iter().map(|&i| self.units[i].id.clone()).collect(),
            }),
        }
    }

    /// Indices of units in play, in scenario order.
    pub fn in_play(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.units.len()).filter(|&i| self.units[i].in_play)
    }

    /// Units in play on a side.
    pub fn by_side<'a>(&'a self, side: &'a str) -> impl Iterator<Item = usize> + 'a {
        self.in_play().filter(move |&i| self.units[i].side == side)
    }

    /// Units in play carrying a tag.
    pub fn with_tag<'a>(&'a self, tag: &'a str) -> impl Iterator<Item = usize> + 'a {
        self.in_play().filter(move |&i| self.units[i].has_tag(tag))
    }

    /// Units in play in a group, e.g. `("brigade", "north")`.
    pub fn in_group<'a>(
        &'a self,
        kind: &'a str,
        name: &'a str,
    ) -> impl Iterator<Item = usize> + 'a {
        self.in_play()
            .filter(move |&i| self.units[i].groups.get(kind).is_some_and(|g| g == name))
    }

    /// Units in play whose base comes within `radius` inches of `point` (as
    /// [`geometry::at_most`] has it: rounding dust past the radius is within).
    pub fn within(&self, point: Point, radius: f64) -> Vec<usize> {
        self.in_play()
            .filter(|&i| {
                geometry::at_most(self.units[i].footprint().distance_to_point(point), radius)
            })
            .collect()
    }

    /// Units in play other than `of` whose bases would overlap its base (not merely touch)
    /// if it stood at `at` with the same facing: where a figure may not be moved.
    pub fn overlapping_at(&self, of: usize, at: Point) -> Vec<usize> {
        let Some(me) = self.units.get(of) else {
            return Vec::new();
        };
        let mine = geometry::Footprint {
            pos: at,
            ..me.footprint()
        };
        self.in_play()
            .filter(|&i| i != of && mine.overlaps(&self.units[i].footprint()))
            .collect()
    }

    /// Every unit in play whose base overlaps (not merely touches: see
    /// [`geometry::Footprint::overlaps`]) the base of a unit in play listed before it, with
    /// the first such unit: `(later, earlier)` pairs, in the order of the units.
    ///
    /// Quick for thousands of units: each base is filed in the cells of a grid as large as
    /// the largest base that its bounding box covers (four at most), and measured only
    /// against the bases filed in those cells before it, in their order, stopping at the
    /// first that overlaps it. Spaced units meet a few neighbours each; a pile of units on
    /// one spot stops at once; and long thin bases side by side, whose boxes all meet, are
    /// told apart by a quick test along their axes before the exact one.
    pub fn first_overlaps(&self) -> Vec<(usize, usize)> {
        struct Placed {
            unit: usize,
            base: geometry::Footprint,
            extent: geometry::Extent,
            lo: Point,
            hi: Point,
        }
        let placed: Vec<Placed> = self
            .in_play()
            .filter_map(|unit| {
                let base = self.units[unit].footprint();
                let shrunk = base.shrunk(CONTACT_TOLERANCE);
                let (lo, hi) = shrunk.bounds();
                (lo.is_finite() && hi.is_finite()).then(|| Placed {
                    unit,
                    base,
                    extent: shrunk.extent(),
                    lo,
                    hi,
                })
            })
            .collect();
        // Never below a millionth of an inch, so that no cell number overflows.
        let cell = placed
            .iter()
            .map(|p| (p.hi.x - p.lo.x).max(p.hi.y - p.lo.y))
            .fold(1e-6, f64::max);
        let cells_of = |lo: Point, hi: Point| {
            let at = |v: f64| (v / cell).floor() as i64;
            let (x0, x1, y0, y1) = (at(lo.x), at(hi.x), at(lo.y), at(hi.y));
            // A box no larger than a cell covers two cells each way at most (three, were
            // rounding to push an edge over).
            (x0..=x1.min(x0.saturating_add(2)))
                .flat_map(move |x| (y0..=y1.min(y0.saturating_add(2))).map(move |y| (x, y)))
        };
        // Two shrunken bases that meet have boxes that meet and no line between them.
        let may_meet = |a: &Placed, b: &Placed| {
            a.lo.x <= b.hi.x
                && b.lo.x <= a.hi.x
                && a.lo.y <= b.hi.y
                && b.lo.y <= a.hi.y
                && !a.extent.apart(&b.extent, 1e-6)
        };
        let mut grid: HashMap<(i64, i64), Vec<usize>> = HashMap::new();
        let mut found = Vec::new();
        for (k, this) in placed.iter().enumerate() {
            let mut first: Option<usize> = None;
            for c in cells_of(this.lo, this.hi) {
                let filed = grid.entry(c).or_default();
                for &j in filed.iter() {
                    if first.is_some_and(|f| j >= f) {
                        break;
                    }
                    let other = &placed[j];
                    if may_meet(this, other) && this.base.overlaps(&other.base) {
                        first = Some(j);
                        break;
                    }
                }
                filed.push(k);
            }
            if let Some(j) = first {
                found.push((this.unit, placed[j].unit));
            }
        }
        found
    }

    /// Units in play other than `of` whose base edge is within `radius` of its base edge (as
    /// [`geometry::at_most`] has it).
    pub fn within_of(&self, of: usize, radius: f64) -> Vec<usize> {
        let Some(me) = self.units.get(of) else {
            return Vec::new();
        };
        let fp = me.footprint();
        self.in_play()
            .filter(|&i| {
                i != of && geometry::at_most(fp.edge_distance(&self.units[i].footprint()), radius)
            })
            .collect()
    }

    /// Enemies in play (units of other sides) whose base edge is within `radius` of `of`'s (as
    /// [`geometry::at_most`] has it), nearest first (ties in scenario order).
    pub fn enemies_within(&self, of: usize, radius: f64) -> Vec<usize> {
        let Some(me) = self.units.get(of) else {
            return Vec::new();
        };
        let fp = me.footprint();
        let mut found: Vec<(f64, usize)> = self
            .in_play()
            .filter(|&i| self.units[i].side != me.side)
            .map(|i| (fp.edge_distance(&self.units[i].footprint()), i))
            .filter(|&(d, _)| geometry::at_most(d, radius))
            .collect();
        // A stable sort keeps scenario order among equal distances.
        found.sort_by(|a, b| a.0.total_cmp(&b.0));
        found.into_iter().map(|(_, i)| i).collect()
    }

    /// The units of `of`'s side that share its group of `kind` (itself included), removed ones
    /// too when `removed` is set; just `of` when it is in no such group.
    pub fn comrades(&self, of: usize, kind: &str, removed: bool) -> Vec<usize> {
        let Some(me) = self.units.get(of) else {
            return Vec::new();
        };
        let Some(group) = me.groups.get(kind) else {
            return if me.in_play || removed {
                vec![of]
            } else {
                Vec::new()
            };
        };
        (0..self.units.len())
            .filter(|&i| {
                let u = &self.units[i];
                (removed || u.in_play)
                    && u.side == me.side
                    && u.groups.get(kind).is_some_and(|g| g == group)
            })
            .collect()
    }

    /// Base edge to base edge distance between two units.
    pub fn edge_distance(&self, a: usize, b: usize) -> f64 {
        match (self.units.get(a), self.units.get(b)) {
            (Some(a), Some(b)) => a.footprint().edge_distance(&b.footprint()),
            _ => f64::INFINITY,
        }
    }

    /// Base edge to base edge distance from `b` to `a`'s base were `a` standing at `at` with
    /// its present facing: how far `b` is from a place `a` stood (or may stand).
    pub fn edge_distance_at(&self, a: usize, at: Point, b: usize) -> f64 {
        match (self.units.get(a), self.units.get(b)) {
            (Some(a), Some(b)) => geometry::Footprint {
                pos: at,
                ..a.footprint()
            }
            .edge_distance(&b.footprint()),
            _ => f64::INFINITY,
        }
    }

    /// Whether two units' bases touch.
    pub fn in_contact(&self, a: usize, b: usize) -> bool {
        self.edge_distance(a, b) <= CONTACT_TOLERANCE
    }

    /// The nearest enemy in play (base edge to base edge); ties go to the first listed.
    pub fn nearest_enemy(&self, of: usize) -> Option<usize> {
        let me = self.units.get(of)?;
        let fp = me.footprint();
        let mut best: Option<(f64, usize)> = None;
        for i in self.in_play() {
            if self.units[i].side == me.side {
                continue;
            }
            let d = fp.edge_distance(&self.units[i].footprint());
            if best.is_none_or(|(bd, _)| d < bd) {
                best = Some((d, i));
            }
        }
        best.map(|(_, i)| i)
    }

    /// Units in play whose centre lies in a cone (grapeshot, breath weapons, ...).
    pub fn in_cone(&self, apex: Point, direction: f64, range: f64, half_angle: f64) -> Vec<usize> {
        self.in_play()
            .filter(|&i| geometry::in_cone(apex, direction, range, half_angle, self.units[i].pos))
            .collect()
    }

    /// What, if anything, blocks the line of sight between two points. Terrain always counts;
    /// units in play count when `units_block` is set, except those in `ignore` (the looker
    /// and its target).
    pub fn sight(&self, from: Point, to: Point, units_block: bool, ignore: &[usize]) -> Sight {
        if let Some(f) = self.terrain.sight_blocker(from, to) {
            return Sight::Terrain(f);
        }
        if units_block {
            for i in self.in_play() {
                if !ignore.contains(&i) && self.units[i].footprint().intersects_segment(from, to) {
                    return Sight::Unit(i);
                }
            }
        }
        Sight::Clear
    }

    /// Whether a point lies on the table.
    pub fn on_table(&self, p: Point) -> bool {
        (0.0..=self.width).contains(&p.x) && (0.0..=self.depth).contains(&p.y)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::host::terrain::{Feature, Shape, TerrainKind};

    fn figure(id: &str, side: &str, x: f64, y: f64) -> Unit {
        Unit::figure(id, side, x, y)
    }

    fn field() -> Battlefield {
        let mut b = Battlefield::new(48.0, 36.0);
        b.add_unit(figure("roman_1", "romans", 10.0, 10.0)).unwrap();
        b.add_unit(figure("roman_2", "romans", 12.0, 10.0)).unwrap();
        b.add_unit(figure("viking_1", "vikings", 10.0, 13.0))
            .unwrap();
        b.add_unit(figure("viking_2", "vikings", 20.0, 20.0))
            .unwrap();
        b
    }

    #[test]
    fn duplicate_ids_are_refused() {
        let mut b = field();
        assert!(b.add_unit(figure("roman_1", "romans", 0.0, 0.0)).is_err());
    }

    #[test]
    fn resolve_accepts_prefixes_and_suggests() {
        let b = field();
        assert_eq!(b.resolve("viking_1"), Ok(2));
        assert_eq!(b.resolve("viking_2"), Ok(3));
        assert_eq!(
            b.resolve("vik").unwrap_err().to_string(),
            "`vik` could be any of 2 units: viking_1, viking_2"
        );
        assert_eq!(
            b.resolve("vikng_1").unwrap_err(),
            ResolveError::Unknown {
                text: "vikng_1".into(),
                suggestion: Some("viking_1".into())
            }
        );
        assert_eq!(
            b.resolve("vikng_1").unwrap_err().to_string(),
            "unknown unit `vikng_1`; did you mean `viking_1`?"
        );
    }

    #[test]
    fn radius_queries_allow_rounding_dust_only() {
        let b = field();
        // roman_1 and viking_1 stand 2 inches apart edge to edge.
        let dust = geometry::MEASURE_TOLERANCE / 2.0;
        assert_eq!(b.enemies_within(0, 2.0 - dust), vec![2]);
        assert_eq!(b.within_of(0, 2.0 - dust), vec![1, 2]);
        assert!(b.enemies_within(0, 1.999).is_empty());
        assert_eq!(b.within_of(0, 1.999), vec![1]);
        assert_eq!(b.within(Point::new(10.0, 12.0), 1.5 - dust), vec![0, 2]);
        assert_eq!(b.within(Point::new(10.0, 12.0), 1.499), vec![2]);
    }

    #[test]
    fn nearest_enemy_measures_edge_to_edge() {
        let b = field();
        assert_eq!(b.nearest_enemy(0), Some(2));
        // roman_1 (10,10) to viking_1 (10,13): 3 inches centre to centre, 2 edge to edge.
        assert!((b.edge_distance(0, 2) - 2.0).abs() < 1e-9);
        assert!(!b.in_contact(0, 2));
        assert!(!b.in_contact(0, 1));
    }

    #[test]
    fn edge_distance_at_measures_from_another_place() {
        let b = field();
        // roman_1 (10,10) to viking_1 (10,13) is 2 inches edge to edge; were roman_1 at
        // (10, 8) it would be 4, and where it stands, as `edge_distance` says.
        assert!((b.edge_distance_at(0, Point::new(10.0, 8.0), 2) - 4.0).abs() < 1e-9);
        assert!((b.edge_distance_at(0, Point::new(10.0, 10.0), 2) - 2.0).abs() < 1e-9);
        assert_eq!(
            b.edge_distance_at(0, Point::new(0.0, 0.0), 99),
            f64::INFINITY
        );
    }

    #[test]
    fn bases_may_touch_but_not_overlap() {
        let b = field();
        // roman_1's 1-inch base at (10, 10); roman_2 at (12, 10).
        assert!(
            b.overlapping_at(0, Point::new(11.0, 10.0)).is_empty(),
            "touching is fine"
        );
        assert_eq!(b.overlapping_at(0, Point::new(11.5, 10.0)), vec![1]);
        assert_eq!(b.overlapping_at(0, Point::new(10.0, 12.5)), vec![2]);
        assert!(b.overlapping_at(0, Point::new(30.0, 30.0)).is_empty());
    }

    #[test]
    fn first_overlaps_names_each_overlapping_unit_once() {
        let mut b = field();
        assert!(b.first_overlaps().is_empty(), "spaced, or touching");
        // Half onto roman_1 (1-inch bases).
        b.add_unit(figure("pile_1", "vikings", 10.5, 10.0)).unwrap();
        // A pile on one spot: each names the first of them.
        for n in 2..=4 {
            b.add_unit(figure(&format!("pile_{n}"), "vikings", 30.0, 30.0))
                .unwrap();
        }
        // Touching roman_2, to the east.
        b.add_unit(figure("touch", "romans", 13.0, 10.0)).unwrap();
        assert_eq!(b.first_overlaps(), vec![(4, 0), (6, 5), (7, 5)]);
        // A unit out of play is not in the way.
        b.get_mut(0).unwrap().in_play = false;
        assert_eq!(b.first_overlaps(), vec![(6, 5), (7, 5)]);
    }

    #[test]
    fn first_overlaps_agrees_with_every_pair() {
        // Bases of many sizes and shapes scattered by a fixed rule, some overlapping: the
        // grid must find exactly what measuring every pair finds.
        let mut b = Battlefield::new(100.0, 100.0);
        let mut x = 7u64;
        let mut next = |m: f64| {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (x >> 11) as f64 / (1u64 << 53) as f64 * m
        };
        for n in 0..300 {
            let mut u = figure(&format!("u{n}"), "a", next(100.0), next(100.0));
            u.facing = next(360.0);
            u.base = if n % 3 == 0 {
                geometry::Base::Round {
                    diameter: 0.2 + next(4.0),
                }
            } else {
                geometry::Base::Rect {
                    width: 0.2 + next(6.0),
                    depth: 0.2 + next(2.0),
                }
            };
            b.add_unit(u).unwrap();
        }
        let all: Vec<(usize, usize)> = (0..b.units().len())
            .filter_map(|i| {
                (0..i)
                    .find(|&j| b.units()[i].footprint().overlaps(&b.units()[j].footprint()))
                    .map(|j| (i, j))
            })
            .collect();
        assert!(all.len() > 10, "the test must have overlaps: {}", all.len());
        assert_eq!(b.first_overlaps(), all);
    }

    #[test]
    fn queries_by_side_tag_group_and_range() {
        let mut b = field();
        b.get_mut(1).unwrap().tags.insert("shaken".into());
        b.get_mut(0)
            .unwrap()
            .groups
            .insert("formation".into(), "cohort".into());
        assert_eq!(b.by_side("romans").collect::<Vec<_>>(), vec![0, 1]);
        assert_eq!(b.with_tag("shaken").collect::<Vec<_>>(), vec![1]);
        assert_eq!(
            b.in_group("formation", "cohort").collect::<Vec<_>>(),
            vec![0]
        );
        assert_eq!(b.within(Point::new(10.0, 11.5), 1.0), vec![0, 2]);
        assert_eq!(b.within_of(0, 2.0), vec![1, 2]);
        b.get_mut(2).unwrap().in_play = false;
        assert_eq!(b.nearest_enemy(0), Some(3));
    }

    #[test]
    fn enemies_within_are_nearest_first_and_in_play() {
        let mut b = field();
        b.add_unit(figure("viking_3", "vikings", 10.0, 11.5))
            .unwrap();
        // From roman_1 (10, 10): viking_3 0.5 inch edge to edge, viking_1 2, viking_2 far.
        assert_eq!(b.enemies_within(0, 2.0), vec![4, 2]);
        assert_eq!(b.enemies_within(0, 1.0), vec![4]);
        b.get_mut(4).unwrap().in_play = false;
        assert_eq!(b.enemies_within(0, 2.0), vec![2]);
        assert!(b.enemies_within(9, 2.0).is_empty());
    }

    #[test]
    fn comrades_share_side_and_group() {
        let mut b = field();
        for i in [0, 1, 2] {
            b.get_mut(i)
                .unwrap()
                .groups
                .insert("formation".into(), "wall".into());
        }
        // viking_1 has a formation of the same name on the other side: not a comrade.
        assert_eq!(b.comrades(0, "formation", false), vec![0, 1]);
        b.get_mut(1).unwrap().in_play = false;
        assert_eq!(b.comrades(0, "formation", false), vec![0]);
        assert_eq!(b.comrades(0, "formation", true), vec![0, 1]);
        // No group: a group of one.
        assert_eq!(b.comrades(3, "formation", false), vec![3]);
        assert_eq!(b.comrades(1, "brigade", false), Vec::<usize>::new());
        assert_eq!(b.comrades(1, "brigade", true), vec![1]);
    }

    #[test]
    fn sight_blocked_by_wood_and_on_request_by_units() {
        let mut b = field();
        let from = Point::new(10.0, 10.0);
        let to = Point::new(10.0, 13.0);
        assert_eq!(b.sight(from, to, true, &[0, 2]), Sight::Clear);
        b.add_unit(figure("roman_3", "romans", 10.0, 11.5)).unwrap();
        assert_eq!(b.sight(from, to, false, &[0, 2]), Sight::Clear);
        assert_eq!(b.sight(from, to, true, &[0, 2]), Sight::Unit(4));
        b.terrain.features.push(Feature::new(
            "copse",
            TerrainKind::Woods,
            Shape::Rect {
                x: 8.0,
                y: 11.0,
                width: 4.0,
                depth: 0.8,
            },
        ));
        assert_eq!(b.sight(from, to, false, &[]), Sight::Terrain(0));
    }
}
