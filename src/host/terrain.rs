//! Terrain features on the table: what they are, where they lie, which a path crosses and
//! which block line of sight.
//!
//! Conventions follow [`crate::host::geometry`]: inches, x east, y north. Boundaries count as
//! inside. A [`Line`](Shape::Line) is everything within half its width of its polyline, so
//! its ends are rounded. Line of sight is blocked only by a feature that neither end is
//! in: a figure inside a wood sees out and is seen. Non-finite input never panics; it
//! makes predicates false and distances None.
//!
//! A [`Feature`] serialises as `{ name, kind, slope?, shape, blocks_sight? }`, with `kind`
//! and `slope` as snake_case strings (see [`TerrainKind::parse`]) and `blocks_sight`
//! defaulting to the kind's default.

use crate::host::geometry::{
    Point, ShapeError, edges, point_in_polygon, point_segment_distance, positive,
};
use serde::{Deserialize, Serialize};

/// Slack on segment parameters, so a path through a vertex meets both edges.
const EPS: f64 = 1e-9;

/// How steep a hill is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Slope {
    /// Easy going.
    Gentle,
    /// Hard going.
    Steep,
    /// Broken ground.
    Rocky,
}

impl Slope {
    /// Every slope, in order.
    pub const ALL: [Slope; 3] = [Slope::Gentle, Slope::Steep, Slope::Rocky];

    /// The lowercase name: `gentle`, `steep` or `rocky`.
    pub fn name(self) -> &'static str {
        match self {
            Slope::Gentle => "gentle",
            Slope::Steep => "steep",
            Slope::Rocky => "rocky",
        }
    }

    /// The slope called `name`.
    pub fn parse(name: &str) -> Result<Slope, ShapeError> {
        Slope::ALL
            .into_iter()
            .find(|s| s.name() == name)
            .ok_or_else(|| ShapeError::UnknownSlope(name.to_string()))
    }
}

/// What a terrain feature is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TerrainKind {
    /// Woods.
    Woods,
    /// A hill of the given slope.
    Hill(Slope),
    /// Buildings.
    Town,
    /// A road.
    Road,
    /// A stream.
    Stream,
    /// A wall, hedge or fence.
    LinearObstacle,
    /// Earthworks or a redoubt.
    Fortification,
}

/// Every kind's name, in declaration order, for error messages and the scenario schema.
pub const KIND_NAMES: [&str; 7] = [
    "woods",
    "hill",
    "town",
    "road",
    "stream",
    "linear_obstacle",
    "fortification",
];

impl TerrainKind {
    /// The snake_case name; a hill's slope is left to [`TerrainKind::slope`].
    pub fn name(&self) -> &'static str {
        match self {
            TerrainKind::Woods => "woods",
            TerrainKind::Hill(_) => "hill",
            TerrainKind::Town => "town",
            TerrainKind::Road => "road",
            TerrainKind::Stream => "stream",
            TerrainKind::LinearObstacle => "linear_obstacle",
            TerrainKind::Fortification => "fortification",
        }
    }

    /// A hill's slope; None for every other kind.
    pub fn slope(&self) -> Option<Slope> {
        match self {
            TerrainKind::Hill(slope) => Some(*slope),
            _ => None,
        }
    }

    /// The kind named `kind`, with `slope` for hills (gentle when absent). A slope on any
    /// other kind is an error, as is an unknown name.
    pub fn parse(kind: &str, slope: Option<&str>) -> Result<TerrainKind, ShapeError> {
        let parsed = match kind {
            "woods" => TerrainKind::Woods,
            "hill" => {
                return Ok(TerrainKind::Hill(
                    slope.map_or(Ok(Slope::Gentle), Slope::parse)?,
                ));
            }
            "town" => TerrainKind::Town,
            "road" => TerrainKind::Road,
            "stream" => TerrainKind::Stream,
            "linear_obstacle" => TerrainKind::LinearObstacle,
            "fortification" => TerrainKind::Fortification,
            _ => {
                return Err(ShapeError::UnknownKind {
                    kind: kind.to_string(),
                    expected: KIND_NAMES.join(", "),
                });
            }
        };
        match slope {
            Some(slope) => Err(ShapeError::SlopeOffHill {
                kind: kind.to_string(),
                slope: slope.to_string(),
            }),
            None => Ok(parsed),
        }
    }

    /// Whether this kind blocks line of sight unless a feature says otherwise: woods,
    /// towns, fortifications and hills of every slope do; roads, streams and linear
    /// obstacles do not.
    pub fn blocks_sight_by_default(&self) -> bool {
        match self {
            TerrainKind::Woods
            | TerrainKind::Hill(_)
            | TerrainKind::Town
            | TerrainKind::Fortification => true,
            TerrainKind::Road | TerrainKind::Stream | TerrainKind::LinearObstacle => false,
        }
    }
}

/// Where a feature lies on the table, in inches.
///
/// Serialises in snake_case: `{ polygon: [[x, y], ...] }`, `{ rect: { x, y, width, depth } }`,
/// `{ circle: { centre, radius } }`, `{ line: { points, width } }`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Shape {
    /// A polygon, its points in order either way round; it closes back to the first.
    Polygon(Vec<Point>),
    /// An axis-aligned rectangle.
    Rect {
        /// West edge.
        x: f64,
        /// South edge.
        y: f64,
        /// East-west size.
        width: f64,
        /// North-south size.
        depth: f64,
    },
    /// A circle.
    Circle {
        /// Centre.
        centre: Point,
        /// Radius.
        radius: f64,
    },
    /// A polyline with a width, for roads, streams and walls: everything within half the
    /// width of the line, so the ends are rounded.
    Line {
        /// The line's points in order.
        points: Vec<Point>,
        /// Full width across the line.
        width: f64,
    },
}

impl Shape {
    /// Whether `p` lies inside or on the edge of the shape. False for a non-finite `p` or
    /// a shape with too few points.
    pub fn contains(&self, p: Point) -> bool {
        if !p.is_finite() {
            return false;
        }
        match self {
            Shape::Polygon(points) => point_in_polygon(p, points),
            Shape::Rect { x, y, width, depth } => {
                (*x..=x + width).contains(&p.x) && (*y..=y + depth).contains(&p.y)
            }
            Shape::Circle { centre, radius } => p.distance(*centre) <= *radius,
            Shape::Line { points, width } => {
                polyline(points).any(|(a, b)| point_segment_distance(p, a, b) <= width / 2.0)
            }
        }
    }

    /// Whether the segment `a`-`b` touches or enters the shape; agrees with
    /// [`Shape::entry_distance`].
    pub fn crossed_by(&self, a: Point, b: Point) -> bool {
        self.entry_distance(a, b).is_some()
    }

    /// How far from `a` along the segment `a`-`b` it first touches the shape: 0 when `a`
    /// is inside, None when it never does. Computed exactly from the geometry.
    pub fn entry_distance(&self, a: Point, b: Point) -> Option<f64> {
        if !a.is_finite() || !b.is_finite() {
            return None;
        }
        let t = match self {
            Shape::Polygon(points) => polygon_entry(a, b, points),
            Shape::Rect { x, y, width, depth } => {
                polygon_entry(a, b, &rect_corners(*x, *y, *width, *depth))
            }
            Shape::Circle { centre, radius } => circle_entry(a, b, *centre, *radius),
            Shape::Line { points, width } => line_entry(a, b, points, width / 2.0),
        }?;
        Some(t * a.distance(b))
    }

    /// Checks the shape is usable: a polygon needs 3 points and some area, a line 2
    /// points, every coordinate finite and every size positive.
    pub fn validate(&self) -> Result<(), ShapeError> {
        match self {
            Shape::Polygon(points) => validate_polygon(points),
            Shape::Rect { x, y, width, depth } => {
                finite_point("rect corner", Point::new(*x, *y))?;
                positive("rect width", *width)?;
                positive("rect depth", *depth)
            }
            Shape::Circle { centre, radius } => {
                finite_point("circle centre", *centre)?;
                positive("circle radius", *radius)
            }
            Shape::Line { points, width } => {
                enough_points("line", points, 2)?;
                points
                    .iter()
                    .try_for_each(|&p| finite_point("line point", p))?;
                positive("line width", *width)
            }
        }
    }
}

fn validate_polygon(points: &[Point]) -> Result<(), ShapeError> {
    enough_points("polygon", points, 3)?;
    points
        .iter()
        .try_for_each(|&p| finite_point("polygon point", p))?;
    // shoelace: twice the signed area, zero when every point is on one line
    let twice_area: f64 = edges(points).map(|(a, b)| a.cross(b)).sum();
    if twice_area == 0.0 {
        return Err(ShapeError::NoArea);
    }
    Ok(())
}

fn enough_points(what: &'static str, points: &[Point], needed: usize) -> Result<(), ShapeError> {
    if points.len() < needed {
        return Err(ShapeError::TooFewPoints {
            what,
            needed,
            got: points.len(),
        });
    }
    Ok(())
}

fn finite_point(what: &'static str, point: Point) -> Result<(), ShapeError> {
    crate::host::geometry::check_point(what, point)
}

/// The consecutive segments of a polyline (none for fewer than 2 points).
fn polyline(points: &[Point]) -> impl Iterator<Item = (Point, Point)> + '_ {
    points
        .iter()
        .zip(points.iter().skip(1))
        .map(|(&a, &b)| (a, b))
}

fn rect_corners(x: f64, y: f64, width: f64, depth: f64) -> [Point; 4] {
    [
        Point::new(x, y),
        Point::new(x + width, y),
        Point::new(x + width, y + depth),
        Point::new(x, y + depth),
    ]
}

/// The smallest of some fractions along a segment.
fn earliest(ts: impl Iterator<Item = f64>) -> Option<f64> {
    ts.min_by(f64::total_cmp)
}

/// Fraction along `a`-`b` where it first touches `polygon`: 0 when `a` is inside.
fn polygon_entry(a: Point, b: Point, polygon: &[Point]) -> Option<f64> {
    if polygon.len() < 3 {
        return None;
    }
    if point_in_polygon(a, polygon) {
        return Some(0.0);
    }
    // from outside, the first touch is on an edge
    earliest(edges(polygon).filter_map(|(p, q)| segment_entry(a, b, p, q)))
}

/// Fraction along `a`-`b` where it first meets the segment `p`-`q`.
fn segment_entry(a: Point, b: Point, p: Point, q: Point) -> Option<f64> {
    let (r, s, ap) = (b.minus(a), q.minus(p), p.minus(a));
    let denom = r.cross(s);
    if denom == 0.0 {
        return collinear_entry(a, r, p, q);
    }
    // solve a + t r = p + u s
    let t = ap.cross(s) / denom;
    let u = ap.cross(r) / denom;
    (within_unit(t) && within_unit(u)).then_some(t.clamp(0.0, 1.0))
}

/// For a segment from `a` along `r` parallel to `p`-`q`: where their overlap starts.
fn collinear_entry(a: Point, r: Point, p: Point, q: Point) -> Option<f64> {
    let len2 = r.dot(r);
    if len2 == 0.0 || p.minus(a).cross(r) != 0.0 {
        return None; // a point, or parallel on different lines
    }
    let tp = p.minus(a).dot(r) / len2;
    let tq = q.minus(a).dot(r) / len2;
    let start = tp.min(tq).max(0.0);
    (start <= tp.max(tq).min(1.0)).then_some(start)
}

fn within_unit(t: f64) -> bool {
    (-EPS..=1.0 + EPS).contains(&t)
}

/// Fraction along `a`-`b` where it first touches the disc: 0 when `a` is inside.
fn circle_entry(a: Point, b: Point, centre: Point, radius: f64) -> Option<f64> {
    let (r, m) = (b.minus(a), a.minus(centre));
    // |m + t r|^2 = radius^2 as qa t^2 + qb t + qc = 0
    let qc = m.dot(m) - radius * radius;
    if qc <= 0.0 {
        return Some(0.0);
    }
    let (qa, qb) = (r.dot(r), 2.0 * r.dot(m));
    let disc = qb * qb - 4.0 * qa * qc;
    if qa == 0.0 || disc.is_nan() || disc < 0.0 {
        return None;
    }
    // a is outside, so the smaller root is the way in
    let t = (-qb - disc.sqrt()) / (2.0 * qa);
    within_unit(t).then_some(t.clamp(0.0, 1.0))
}

/// Fraction along `a`-`b` where it first comes within `half` of the polyline.
fn line_entry(a: Point, b: Point, points: &[Point], half: f64) -> Option<f64> {
    earliest(polyline(points).filter_map(|(p, q)| stadium_entry(a, b, p, q, half)))
}

/// Entry into the points within `half` of `p`-`q`: a band along it plus a disc at each end.
fn stadium_entry(a: Point, b: Point, p: Point, q: Point, half: f64) -> Option<f64> {
    let band = band_corners(p, q, half).and_then(|c| polygon_entry(a, b, &c));
    let caps = [circle_entry(a, b, p, half), circle_entry(a, b, q, half)];
    earliest(caps.into_iter().chain([band]).flatten())
}

/// The rectangle `half` either side of `p`-`q`; None when the segment has no length.
fn band_corners(p: Point, q: Point, half: f64) -> Option<[Point; 4]> {
    let d = q.minus(p);
    let len = d.x.hypot(d.y);
    if len == 0.0 || !len.is_finite() {
        return None;
    }
    let n = Point::new(-d.y, d.x).scaled(half / len);
    Some([p.plus(n), q.plus(n), q.minus(n), p.minus(n)])
}

/// A named terrain feature on the table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "FeatureSpec", into = "FeatureSpec")]
pub struct Feature {
    /// Name for messages, e.g. `Hougoumont woods`.
    pub name: String,
    /// What it is.
    pub kind: TerrainKind,
    /// Where it lies.
    pub shape: Shape,
    /// Whether it blocks line of sight.
    pub blocks_sight: bool,
}

impl Feature {
    /// A feature that blocks sight as its kind does by default.
    pub fn new(name: impl Into<String>, kind: TerrainKind, shape: Shape) -> Self {
        let blocks_sight = kind.blocks_sight_by_default();
        Feature {
            name: name.into(),
            kind,
            shape,
            blocks_sight,
        }
    }

    /// Whether `p` is in the feature.
    pub fn contains(&self, p: Point) -> bool {
        self.shape.contains(p)
    }
}

/// The serialised form of a [`Feature`]: kind and slope as names, sight optional.
#[derive(Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct FeatureSpec {
    name: String,
    kind: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    slope: Option<String>,
    shape: Shape,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    blocks_sight: Option<bool>,
}

impl TryFrom<FeatureSpec> for Feature {
    type Error = String;

    fn try_from(spec: FeatureSpec) -> Result<Self, Self::Error> {
        let name = spec.name;
        let kind = TerrainKind::parse(&spec.kind, spec.slope.as_deref())
            .map_err(|e| format!("terrain `{name}`: {e}"))?;
        spec.shape
            .validate()
            .map_err(|e| format!("terrain `{name}`: {e}"))?;
        let blocks_sight = spec
            .blocks_sight
            .unwrap_or_else(|| kind.blocks_sight_by_default());
        Ok(Feature {
            name,
            kind,
            shape: spec.shape,
            blocks_sight,
        })
    }
}

impl From<Feature> for FeatureSpec {
    fn from(f: Feature) -> Self {
        // only write blocks_sight when it overrides the kind's default
        let blocks_sight =
            (f.blocks_sight != f.kind.blocks_sight_by_default()).then_some(f.blocks_sight);
        FeatureSpec {
            name: f.name,
            kind: f.kind.name().into(),
            slope: f.kind.slope().map(|s| s.name().into()),
            shape: f.shape,
            blocks_sight,
        }
    }
}

/// Every terrain feature on the table, referred to by index. Serialises as the list.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Terrain {
    /// The features, in the order they were listed.
    pub features: Vec<Feature>,
}

impl Terrain {
    /// Indices of the features containing `p`, in list order.
    pub fn at(&self, p: Point) -> Vec<usize> {
        self.features
            .iter()
            .enumerate()
            .filter(|(_, f)| f.contains(p))
            .map(|(i, _)| i)
            .collect()
    }

    /// Indices of the features the path `a`-`b` touches, nearest entry first (ties in list
    /// order).
    pub fn crossed_by(&self, a: Point, b: Point) -> Vec<usize> {
        let mut hits: Vec<(f64, usize)> = self
            .features
            .iter()
            .enumerate()
            .filter_map(|(i, f)| f.shape.entry_distance(a, b).map(|d| (d, i)))
            .collect();
        hits.sort_by(|x, y| x.0.total_cmp(&y.0).then(x.1.cmp(&y.1)));
        hits.into_iter().map(|(_, i)| i).collect()
    }

    /// The first feature along `a`-`b` that blocks line of sight between them: one that
    /// blocks sight, is crossed, and contains neither `a` nor `b` (so a figure inside a
    /// wood sees out and is seen). None when the view is clear.
    pub fn sight_blocker(&self, a: Point, b: Point) -> Option<usize> {
        self.crossed_by(a, b).into_iter().find(|&i| {
            self.features
                .get(i)
                .is_some_and(|f| f.blocks_sight && !f.contains(a) && !f.contains(b))
        })
    }

    /// The path `a`-`b` cut into `ceil(length × per_inch)` equal steps (at least one; none for
    /// a path of no length), each looked at in its middle: how many middles lie in a feature
    /// that `matches`, and those features, in the order the path meets them (several at one
    /// middle in list order). Each middle is worked out as `a + (b - a) × t` with
    /// `t = (i + 0.5) / steps`. The caller bounds the steps (the scripts' `sample_path` by
    /// `MAX_PATH_STEPS`).
    pub fn sample_path(
        &self,
        a: Point,
        b: Point,
        per_inch: f64,
        matches: impl Fn(&Feature) -> bool,
    ) -> PathSample {
        let length = a.distance(b);
        let mut sample = PathSample {
            steps: 0,
            step: 0.0,
            inside: 0,
            features: Vec::new(),
        };
        if length.is_nan() || length <= 0.0 || !per_inch.is_finite() || per_inch <= 0.0 {
            return sample;
        }
        let steps = ((length * per_inch).ceil() as i64).max(1);
        sample.steps = steps;
        sample.step = length / steps as f64;
        for i in 0..steps {
            let t = (i as f64 + 0.5) / steps as f64;
            let p = Point::new(a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t);
            let mut inside = false;
            for (idx, f) in self.features.iter().enumerate() {
                if matches(f) && f.contains(p) {
                    inside = true;
                    if !sample.features.contains(&idx) {
                        sample.features.push(idx);
                    }
                }
            }
            if inside {
                sample.inside += 1;
            }
        }
        sample
    }
}

/// What [`Terrain::sample_path`] found along a path.
#[derive(Clone, Debug, PartialEq)]
pub struct PathSample {
    /// How many steps the path was cut into.
    pub steps: i64,
    /// The length of each step, in inches.
    pub step: f64,
    /// How many steps have their middle in a matching feature.
    pub inside: i64,
    /// The matching features met, by index, in the order the path meets them.
    pub features: Vec<usize>,
}

#[cfg(test)]
mod tests;
