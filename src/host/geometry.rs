//! Table geometry: points, bearings, bases on the table, arcs and the segment maths behind
//! contact, cones and line of sight.
//!
//! Conventions, shared by every module that builds on this one:
//! - distances are inches (`f64`); [`ft`] converts feet;
//! - the table's x grows east (right) and y grows north (towards the far edge);
//! - bearings and facings are degrees clockwise from north (+y): facing 0 looks along +y,
//!   facing 90 along +x (east);
//! - boundaries count: a point on an edge is inside, segments that touch intersect;
//! - a measured distance meets a limit with [`MEASURE_TOLERANCE`] of slack ([`at_most`],
//!   [`at_least`]), and bases touch within [`CONTACT_TOLERANCE`];
//! - nothing here panics: non-finite input makes predicates false and distances NaN, and
//!   angle helpers treat a non-finite angle as 0.

use serde::{Deserialize, Serialize};
use std::fmt;

pub use crate::limits::{MAX_COORDINATE, MAX_SIZE};

/// Inches in a foot, for rules that measure in feet.
pub const INCHES_PER_FOOT: f64 = 12.0;

/// Gap between bases, in inches, at or below which they count as in contact: hand-placed
/// figures rarely touch exactly.
pub const CONTACT_TOLERANCE: f64 = 0.05;

/// Slack for boundary tests, so rounding in rotations does not push a point off an edge.
const EPS: f64 = 1e-9;

/// Slack, in inches, with which a measured distance meets a limit ([`at_most`],
/// [`at_least`]): moves and scatters leave rounding dust, and a figure standing exactly 2
/// inches away must count as within 2 inches. Far finer than [`CONTACT_TOLERANCE`], which
/// allows for bases placed by hand; coarser than any rounding a table's numbers can carry.
pub const MEASURE_TOLERANCE: f64 = 1e-4;

/// Whether a measured `x` is at most `limit`, allowing [`MEASURE_TOLERANCE`]: "within 2
/// inches" holds at 2.00001 inches, not at 2.001. False when either is NaN.
pub fn at_most(x: f64, limit: f64) -> bool {
    x <= limit + MEASURE_TOLERANCE
}

/// Whether a measured `x` is at least `limit`, allowing [`MEASURE_TOLERANCE`]: a gap of
/// 1.99999 inches is 2 inches wide. False when either is NaN.
pub fn at_least(x: f64, limit: f64) -> bool {
    x >= limit - MEASURE_TOLERANCE
}

/// Converts feet to inches.
pub fn ft(feet: f64) -> f64 {
    feet * INCHES_PER_FOOT
}

/// A point on the table, in inches. Serialises as `[x, y]`.
#[derive(Clone, Copy, Debug, PartialEq, Default, Serialize, Deserialize)]
#[serde(from = "[f64; 2]", into = "[f64; 2]")]
pub struct Point {
    /// Inches east of the table's west edge.
    pub x: f64,
    /// Inches north of the table's south edge.
    pub y: f64,
}

impl Point {
    /// The point `(x, y)`.
    pub const fn new(x: f64, y: f64) -> Self {
        Point { x, y }
    }

    /// Whether both coordinates are finite (not NaN or infinite).
    pub fn is_finite(self) -> bool {
        self.x.is_finite() && self.y.is_finite()
    }

    /// Whether the point is finite and within [`MAX_COORDINATE`] inches of the table's corner
    /// each way: a place the table can hold, off the table or not.
    pub fn within_reach(self) -> bool {
        self.is_finite() && self.x.abs() <= MAX_COORDINATE && self.y.abs() <= MAX_COORDINATE
    }

    /// Straight-line distance to `other`, in inches.
    pub fn distance(self, other: Point) -> f64 {
        (other.x - self.x).hypot(other.y - self.y)
    }

    /// Bearing from this point to `other`, degrees clockwise from north in [0, 360).
    /// 0 when the points are equal or not finite.
    pub fn bearing_to(self, other: Point) -> f64 {
        let (dx, dy) = (other.x - self.x, other.y - self.y);
        if dx == 0.0 && dy == 0.0 {
            return 0.0;
        }
        // atan2(east, north) measures clockwise from north, as facings do.
        normalize_degrees(dx.atan2(dy).to_degrees())
    }

    /// The point `distance` inches away along `bearing`.
    pub fn offset(self, bearing: f64, distance: f64) -> Point {
        let (sin, cos) = bearing.to_radians().sin_cos();
        Point::new(self.x + distance * sin, self.y + distance * cos)
    }

    pub(crate) fn plus(self, v: Point) -> Point {
        Point::new(self.x + v.x, self.y + v.y)
    }

    pub(crate) fn minus(self, v: Point) -> Point {
        Point::new(self.x - v.x, self.y - v.y)
    }

    pub(crate) fn scaled(self, k: f64) -> Point {
        Point::new(self.x * k, self.y * k)
    }

    pub(crate) fn dot(self, v: Point) -> f64 {
        self.x * v.x + self.y * v.y
    }

    /// z of the 3d cross product: positive when `v` turns anticlockwise from `self`.
    pub(crate) fn cross(self, v: Point) -> f64 {
        self.x * v.y - self.y * v.x
    }
}

impl From<[f64; 2]> for Point {
    fn from([x, y]: [f64; 2]) -> Self {
        Point::new(x, y)
    }
}

impl From<Point> for [f64; 2] {
    fn from(p: Point) -> Self {
        [p.x, p.y]
    }
}

impl fmt::Display for Point {
    /// `(x, y)` with at most 2 decimals and no trailing zeros, e.g. `(3, 4.5)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({}, {})", short(self.x), short(self.y))
    }
}

/// A number with at most 2 decimals, trailing zeros trimmed, and no `-0`: `4.5`, `0.33`.
pub fn short(v: f64) -> String {
    let s = format!("{v:.2}");
    let s = if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.')
    } else {
        &s
    };
    if s == "-0" { "0".into() } else { s.into() }
}

/// `d` degrees brought into [0, 360). Non-finite input gives 0.
pub fn normalize_degrees(d: f64) -> f64 {
    if !d.is_finite() {
        return 0.0;
    }
    let r = d.rem_euclid(360.0);
    // rem_euclid rounds a tiny negative angle up to exactly 360.
    if r >= 360.0 { 0.0 } else { r }
}

/// The bearing of a compass word: `north` 0, `east` 90, `south` 180, `west` 270 (lowercase);
/// `None` for any other word.
pub fn compass_bearing(word: &str) -> Option<f64> {
    match word {
        "north" => Some(0.0),
        "east" => Some(90.0),
        "south" => Some(180.0),
        "west" => Some(270.0),
        _ => None,
    }
}

/// How far `bearing` lies from `facing`, in (-180, 180]: positive is clockwise (to the
/// right of the facing), negative anticlockwise. Non-finite input gives 0.
pub fn angle_off(facing: f64, bearing: f64) -> f64 {
    let d = normalize_degrees(bearing - facing);
    if d > 180.0 { d - 360.0 } else { d }
}

/// The shape and size of a figure's base, in inches.
///
/// Serialises as `{ round: diameter }` or `{ width: w, depth: d }`; deserialising
/// validates the sizes.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "BaseSpec", into = "BaseSpec")]
pub enum Base {
    /// A round base.
    Round {
        /// Across the base.
        diameter: f64,
    },
    /// A rectangular base.
    Rect {
        /// Frontage: across the facing.
        width: f64,
        /// Along the facing, front to back.
        depth: f64,
    },
}

impl Base {
    /// The base made smaller by `margin` on every side (never below nothing): two bases
    /// overlap, rather than just touch, when their shrunken selves still meet.
    pub fn shrunk(&self, margin: f64) -> Base {
        match *self {
            Base::Round { diameter } => Base::Round {
                diameter: (diameter - 2.0 * margin).max(0.0),
            },
            Base::Rect { width, depth } => Base::Rect {
                width: (width - 2.0 * margin).max(0.0),
                depth: (depth - 2.0 * margin).max(0.0),
            },
        }
    }

    /// Its smallest size: a round base's diameter, a rectangle's width or depth.
    pub fn least_size(&self) -> f64 {
        match *self {
            Base::Round { diameter } => diameter,
            Base::Rect { width, depth } => width.min(depth),
        }
    }

    /// Checks that every size is finite and positive.
    pub fn validate(&self) -> Result<(), ShapeError> {
        match *self {
            Base::Round { diameter } => positive("round base diameter", diameter),
            Base::Rect { width, depth } => {
                positive("base width", width)?;
                positive("base depth", depth)
            }
        }
    }

    fn is_finite(&self) -> bool {
        match *self {
            Base::Round { diameter } => diameter.is_finite(),
            Base::Rect { width, depth } => width.is_finite() && depth.is_finite(),
        }
    }
}

/// Why a base, a terrain feature or a grid cannot be laid on the table.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ShapeError {
    /// A size that is not a finite, positive number of inches.
    #[error("{what} must be a positive number of inches, got {value}")]
    NotPositive {
        /// What the size is of: `base width`.
        what: &'static str,
        /// The size given.
        value: f64,
    },
    /// A point with a coordinate that is not finite.
    #[error("{what} must be finite, got ({}, {})", point.x, point.y)]
    NotFinite {
        /// What the point is: `polygon point`.
        what: &'static str,
        /// The point given.
        point: Point,
    },
    /// A point further than [`MAX_COORDINATE`] inches from the table's corner.
    #[error("{what} must be within {MAX_COORDINATE} inches of the table's corner, got ({}, {})", number(point.x), number(point.y))]
    OutOfReach {
        /// What the point is: `polygon point`.
        what: &'static str,
        /// The point given.
        point: Point,
    },
    /// A size larger than [`MAX_SIZE`] inches.
    #[error("{what} must be at most {MAX_SIZE} inches, got {}", number(*value))]
    TooBig {
        /// What the size is of: `base width`.
        what: &'static str,
        /// The size given.
        value: f64,
    },
    /// A polygon or line with too few points.
    #[error("{what} needs at least {needed} points, got {got}")]
    TooFewPoints {
        /// `polygon` or `line`.
        what: &'static str,
        /// How many it needs.
        needed: usize,
        /// How many it has.
        got: usize,
    },
    /// A polygon whose points lie on one line.
    #[error("polygon has no area: its points lie on one line")]
    NoArea,
    /// A grid without a column or a row.
    #[error("a grid needs at least one column and row, got {columns} by {rows}")]
    EmptyGrid {
        /// Its columns.
        columns: u32,
        /// Its rows.
        rows: u32,
    },
    /// A grid with more columns or rows than an area can number.
    #[error("a grid can have at most {} columns and rows", i32::MAX)]
    GridTooLarge,
    /// A slope that is not gentle, steep or rocky.
    #[error("unknown slope `{0}`: expected gentle, steep or rocky")]
    UnknownSlope(String),
    /// A terrain kind the host does not know.
    #[error("unknown terrain kind `{kind}`: expected one of {expected}")]
    UnknownKind {
        /// The kind given.
        kind: String,
        /// The kinds there are.
        expected: String,
    },
    /// A slope given to terrain that is not a hill.
    #[error("only hills have a slope, but {kind} was given slope `{slope}`")]
    SlopeOffHill {
        /// The kind given.
        kind: String,
        /// The slope given.
        slope: String,
    },
}

impl From<ShapeError> for String {
    fn from(e: ShapeError) -> String {
        e.to_string()
    }
}

/// Ok when `value` is a finite, positive size; otherwise an error naming `what`.
pub(crate) fn positive(what: &'static str, value: f64) -> Result<(), ShapeError> {
    if !(value.is_finite() && value > 0.0) {
        Err(ShapeError::NotPositive { what, value })
    } else if value > MAX_SIZE {
        Err(ShapeError::TooBig { what, value })
    } else {
        Ok(())
    }
}

/// A number as a player reads it: a huge one in exponent form (`1e308`), not 309 digits.
pub fn number(x: f64) -> String {
    if x.is_finite() && x.abs() >= 1e9 {
        format!("{x:e}")
    } else {
        x.to_string()
    }
}

/// Checks that a point is one the table can hold (see [`Point::within_reach`]).
pub fn check_point(what: &'static str, point: Point) -> Result<(), ShapeError> {
    if !point.is_finite() {
        Err(ShapeError::NotFinite { what, point })
    } else if !point.within_reach() {
        Err(ShapeError::OutOfReach { what, point })
    } else {
        Ok(())
    }
}

/// What a scenario or a ruleset may write for a point, for editors (see `game::schema`): two
/// numbers, each within [`MAX_COORDINATE`] of the table's corner, which is what
/// [`check_point`] lets through.
impl schemars::JsonSchema for Point {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Point".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "description": "A point `[x, y]` in inches: x east of the table's west edge, y north of its south edge.",
            "type": "array",
            "items": { "type": "number", "minimum": -MAX_COORDINATE, "maximum": MAX_COORDINATE },
            "minItems": 2,
            "maxItems": 2,
        })
    }
}

/// A base as a scenario or a ruleset writes it, for editors: `{ round: D }` or
/// `{ width: W, depth: D }`, each size more than 0 and at most [`MAX_SIZE`], as
/// [`Base::validate`] wants.
impl schemars::JsonSchema for Base {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Base".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        let size = |what: &str| {
            schemars::json_schema!({
                "description": what,
                "type": "number",
                "exclusiveMinimum": 0,
                "maximum": MAX_SIZE,
            })
        };
        schemars::json_schema!({
            "description": "A base, in inches: `{ round: D }` for a round base of diameter D, or `{ width: W, depth: D }` for a rectangle W wide (across its facing) and D deep.",
            "oneOf": [
                {
                    "type": "object",
                    "properties": { "round": size("Across the base, in inches.") },
                    "required": ["round"],
                    "additionalProperties": false,
                },
                {
                    "type": "object",
                    "properties": {
                        "width": size("Frontage, across the facing, in inches."),
                        "depth": size("Front to back, along the facing, in inches."),
                    },
                    "required": ["width", "depth"],
                    "additionalProperties": false,
                },
            ],
        })
    }
}

/// The serialised form of a [`Base`]: exactly one of `round`, or `width` with `depth`.
#[derive(Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct BaseSpec {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    round: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    width: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    depth: Option<f64>,
}

impl TryFrom<BaseSpec> for Base {
    type Error = String;

    fn try_from(spec: BaseSpec) -> Result<Self, Self::Error> {
        let base = match (spec.round, spec.width, spec.depth) {
            (Some(diameter), None, None) => Base::Round { diameter },
            (None, Some(width), Some(depth)) => Base::Rect { width, depth },
            (Some(_), _, _) => {
                return Err("a round base takes only `round`, not `width` or `depth`".into());
            }
            _ => return Err("a base needs `round: diameter`, or `width` and `depth`".into()),
        };
        base.validate()?;
        Ok(base)
    }
}

impl From<Base> for BaseSpec {
    fn from(base: Base) -> Self {
        match base {
            Base::Round { diameter } => BaseSpec {
                round: Some(diameter),
                width: None,
                depth: None,
            },
            Base::Rect { width, depth } => BaseSpec {
                round: None,
                width: Some(width),
                depth: Some(depth),
            },
        }
    }
}

/// A base placed on the table: centred on `pos`, its front towards `facing`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Footprint {
    /// Centre of the base.
    pub pos: Point,
    /// Degrees clockwise from north that the front faces.
    pub facing: f64,
    /// Shape and size.
    pub base: Base,
}

impl Footprint {
    /// A `base` centred on `pos`, facing `facing`.
    pub fn new(pos: Point, facing: f64, base: Base) -> Self {
        Footprint { pos, facing, base }
    }

    /// The corners of a rectangular base, clockwise from front-left (front-left,
    /// front-right, rear-right, rear-left); None for a round base.
    pub fn corners(&self) -> Option<[Point; 4]> {
        match self.base {
            Base::Rect { width, depth } => Some(self.rect_corners(width, depth)),
            Base::Round { .. } => None,
        }
    }

    fn rect_corners(&self, width: f64, depth: f64) -> [Point; 4] {
        let (sin, cos) = self.facing.to_radians().sin_cos();
        let (hw, hd) = (width / 2.0, depth / 2.0);
        // forward is (sin, cos); right is forward turned a quarter clockwise: (cos, -sin)
        let at = |across: f64, along: f64| {
            Point::new(
                self.pos.x + across * cos + along * sin,
                self.pos.y - across * sin + along * cos,
            )
        };
        [at(-hw, hd), at(hw, hd), at(hw, -hd), at(-hw, -hd)]
    }

    /// `p` in the base's own frame: (inches right of centre, inches ahead of centre).
    fn local(&self, p: Point) -> (f64, f64) {
        let (sin, cos) = self.facing.to_radians().sin_cos();
        let d = p.minus(self.pos);
        (d.x * cos - d.y * sin, d.x * sin + d.y * cos)
    }

    fn is_finite(&self) -> bool {
        self.pos.is_finite() && self.facing.is_finite() && self.base.is_finite()
    }

    /// Whether `p` lies on or inside the base.
    pub fn contains(&self, p: Point) -> bool {
        self.distance_to_point(p) <= EPS
    }

    /// Distance from the base's edge to `p`, 0 when `p` is inside; NaN for non-finite input.
    pub fn distance_to_point(&self, p: Point) -> f64 {
        if !self.is_finite() || !p.is_finite() {
            return f64::NAN;
        }
        match self.base {
            Base::Round { diameter } => gap(self.pos.distance(p), diameter / 2.0),
            Base::Rect { width, depth } => {
                let (across, along) = self.local(p);
                let out_side = gap(across.abs(), width / 2.0);
                let out_front = gap(along.abs(), depth / 2.0);
                out_side.hypot(out_front)
            }
        }
    }

    /// Edge-to-edge distance between two bases, 0 when they touch or overlap; NaN for
    /// non-finite input. Exact for every pair of round and rectangular bases.
    pub fn edge_distance(&self, other: &Footprint) -> f64 {
        if !self.is_finite() || !other.is_finite() {
            return f64::NAN;
        }
        match (self.base, other.base) {
            (Base::Round { diameter }, _) => gap(other.distance_to_point(self.pos), diameter / 2.0),
            (_, Base::Round { diameter }) => gap(self.distance_to_point(other.pos), diameter / 2.0),
            (
                Base::Rect { width, depth },
                Base::Rect {
                    width: other_width,
                    depth: other_depth,
                },
            ) => polygon_distance(
                &self.rect_corners(width, depth),
                &other.rect_corners(other_width, other_depth),
            ),
        }
    }

    /// Whether the bases are within `tolerance` inches of each other, edge to edge.
    /// Pass [`CONTACT_TOLERANCE`] unless the rules say otherwise.
    pub fn in_contact(&self, other: &Footprint, tolerance: f64) -> bool {
        self.edge_distance(other) <= tolerance
    }

    /// Distance from the base's edge to the segment `a`-`b`, 0 when the segment touches or
    /// crosses the base; NaN for non-finite input. How wide a berth a path gives the base.
    pub fn distance_to_segment(&self, a: Point, b: Point) -> f64 {
        if !self.is_finite() || !a.is_finite() || !b.is_finite() {
            return f64::NAN;
        }
        match self.base {
            Base::Round { diameter } => gap(point_segment_distance(self.pos, a, b), diameter / 2.0),
            Base::Rect { width, depth } => {
                let corners = self.rect_corners(width, depth);
                if segment_intersects_polygon(a, b, &corners) {
                    return 0.0;
                }
                edges(&corners)
                    .map(|(p, q)| segment_segment_distance(a, b, p, q))
                    .fold(f64::INFINITY, f64::min)
            }
        }
    }

    /// The same base made smaller by `margin` on every side (see [`Base::shrunk`]).
    pub fn shrunk(&self, margin: f64) -> Footprint {
        Footprint {
            base: self.base.shrunk(margin),
            ..*self
        }
    }

    /// Whether the two bases overlap rather than merely touch: they do when both, made
    /// smaller by [`CONTACT_TOLERANCE`] on every side, still meet. So bases in contact
    /// (within the tolerance) do not overlap, and neither do bases that overlap by less than
    /// twice the tolerance: hand-placed figures rarely touch exactly. False for non-finite
    /// input.
    pub fn overlaps(&self, other: &Footprint) -> bool {
        self.shrunk(CONTACT_TOLERANCE)
            .edge_distance(&other.shrunk(CONTACT_TOLERANCE))
            <= 0.0
    }

    /// How far two bases overlap, in inches: twice the most by which both can be made smaller
    /// on every side and still meet; 0 when they do not meet. For two round bases it is the
    /// sum of their radii less the distance between their centres; a base wholly inside a
    /// bigger one overlaps it by its own smallest size.
    pub fn overlap(&self, other: &Footprint) -> f64 {
        let meets = |m: f64| self.shrunk(m).edge_distance(&other.shrunk(m)) <= 0.0;
        if let (Base::Round { diameter: a }, Base::Round { diameter: b }) = (self.base, other.base)
        {
            return ((a + b) / 2.0 - self.pos.distance(other.pos)).max(0.0);
        }
        if !meets(0.0) {
            return 0.0;
        }
        // Past half the smaller base's smallest size it is gone: a point or a line.
        let most = self.base.least_size().min(other.base.least_size()) / 2.0;
        if meets(most) {
            return 2.0 * most;
        }
        let (mut lo, mut hi) = (0.0, most);
        for _ in 0..48 {
            let mid = (lo + hi) / 2.0;
            if meets(mid) { lo = mid } else { hi = mid }
        }
        2.0 * lo
    }

    /// The smallest box, with sides running north and east, that holds the base: its
    /// south-west and north-east corners.
    pub fn bounds(&self) -> (Point, Point) {
        match self.base {
            Base::Round { diameter } => {
                let r = Point::new(diameter / 2.0, diameter / 2.0);
                (self.pos.minus(r), self.pos.plus(r))
            }
            Base::Rect { width, depth } => {
                let c = self.rect_corners(width, depth);
                let (mut lo, mut hi) = (c[0], c[0]);
                for p in &c[1..] {
                    lo = Point::new(lo.x.min(p.x), lo.y.min(p.y));
                    hi = Point::new(hi.x.max(p.x), hi.y.max(p.y));
                }
                (lo, hi)
            }
        }
    }

    /// What a quick test of separation needs of the base (see [`Extent::apart`]).
    pub fn extent(&self) -> Extent {
        let (sin, cos) = self.facing.to_radians().sin_cos();
        let axes = [Point::new(cos, -sin), Point::new(sin, cos)];
        match self.base {
            Base::Round { diameter } => Extent {
                centre: self.pos,
                axes,
                half: [diameter / 2.0; 2],
                round: true,
            },
            Base::Rect { width, depth } => Extent {
                centre: self.pos,
                axes,
                half: [width / 2.0, depth / 2.0],
                round: false,
            },
        }
    }

    /// Whether the segment `a`-`b` touches the base: a unit in the way of a line of sight.
    pub fn intersects_segment(&self, a: Point, b: Point) -> bool {
        if !self.is_finite() {
            return false;
        }
        match self.base {
            Base::Round { diameter } => {
                segment_circle_distance(a, b, self.pos) <= diameter / 2.0 + EPS
            }
            Base::Rect { width, depth } => {
                segment_intersects_polygon(a, b, &self.rect_corners(width, depth))
            }
        }
    }
}

/// A base reduced to what a quick test of separation needs: its centre, its two axes (right
/// and forward) and how far it reaches along each; a round base reaches its radius every way.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Extent {
    centre: Point,
    axes: [Point; 2],
    half: [f64; 2],
    round: bool,
}

impl Extent {
    /// How far the base reaches from its centre along the unit vector `axis`.
    fn reach(&self, axis: Point) -> f64 {
        if self.round {
            self.half[0]
        } else {
            self.half[0] * self.axes[0].dot(axis).abs()
                + self.half[1] * self.axes[1].dot(axis).abs()
        }
    }

    /// Whether the two bases lie more than `gap` apart along some line (an axis of a
    /// rectangular base, or the line between two round bases' centres), so that they cannot
    /// meet: a quick test to make before an exact one, never true of bases that meet. For
    /// two rectangles it is exact (no such line: they meet); with a round base it may miss
    /// a gap at a corner.
    pub fn apart(&self, other: &Extent, gap: f64) -> bool {
        let d = other.centre.minus(self.centre);
        if self.round && other.round {
            return d.dot(d).sqrt() > self.half[0] + other.half[0] + gap;
        }
        [self, other]
            .into_iter()
            .filter(|e| !e.round)
            .flat_map(|e| e.axes)
            .any(|axis| d.dot(axis).abs() > self.reach(axis) + other.reach(axis) + gap)
    }
}

/// How far beyond `reach` a `distance` goes, never below 0.
fn gap(distance: f64, reach: f64) -> f64 {
    (distance - reach).max(0.0)
}

/// Distance between two polygons' areas, 0 when they touch or overlap.
fn polygon_distance(a: &[Point], b: &[Point]) -> f64 {
    // one polygon wholly inside the other crosses no edge, so test containment first
    let inside = |p: &[Point], q: &[Point]| p.iter().any(|&v| point_in_polygon(v, q));
    if inside(a, b) || inside(b, a) {
        return 0.0;
    }
    edges(a)
        .flat_map(|(a1, a2)| edges(b).map(move |(b1, b2)| segment_segment_distance(a1, a2, b1, b2)))
        .fold(f64::INFINITY, f64::min)
}

/// A polygon's edges, the last one closing back to the first point.
pub(crate) fn edges(polygon: &[Point]) -> impl Iterator<Item = (Point, Point)> + '_ {
    polygon
        .iter()
        .zip(polygon.iter().cycle().skip(1))
        .map(|(&a, &b)| (a, b))
}

/// Whether `target` lies within `half_angle` degrees either side of `facing`, seen from
/// `from`. Inclusive, with 1e-9 degrees of slack; a target at `from` is in arc. False for
/// non-finite input or a negative half angle.
pub fn in_arc(facing: f64, from: Point, target: Point, half_angle: f64) -> bool {
    let finite = facing.is_finite() && from.is_finite() && target.is_finite();
    if !finite || half_angle.is_nan() || half_angle < 0.0 {
        return false;
    }
    if from == target {
        return true;
    }
    angle_off(facing, from.bearing_to(target)).abs() <= half_angle + EPS
}

/// Whether `target` lies in the cone from `apex` along `direction`: within `range` inches
/// and `half_angle` degrees either side (a grapeshot template, say 8 inches and 45 degrees).
pub fn in_cone(apex: Point, direction: f64, range: f64, half_angle: f64, target: Point) -> bool {
    apex.distance(target) <= range + EPS && in_arc(direction, apex, target, half_angle)
}

/// Where something lands after scattering `distance` inches along `bearing` from `from`.
/// The scatter primitive: the caller rolls the bearing and distance.
pub fn scatter(from: Point, bearing: f64, distance: f64) -> Point {
    from.offset(bearing, distance)
}

/// Whether segments `a1`-`a2` and `b1`-`b2` meet: crossing, touching at a point, or
/// overlapping along a line all count.
pub fn segments_intersect(a1: Point, a2: Point, b1: Point, b2: Point) -> bool {
    segment_segment_distance(a1, a2, b1, b2) <= EPS
}

/// Shortest distance from `p` to the segment `a`-`b`.
pub fn point_segment_distance(p: Point, a: Point, b: Point) -> f64 {
    let ab = b.minus(a);
    let len2 = ab.dot(ab);
    if len2 == 0.0 {
        return p.distance(a);
    }
    // the nearest point is the projection of p, held within the segment
    let t = (p.minus(a).dot(ab) / len2).clamp(0.0, 1.0);
    p.distance(a.plus(ab.scaled(t)))
}

/// Shortest distance between segments `a1`-`a2` and `b1`-`b2`: 0 when they meet, NaN for
/// non-finite input.
pub fn segment_segment_distance(a1: Point, a2: Point, b1: Point, b2: Point) -> f64 {
    if ![a1, a2, b1, b2].iter().all(|p| p.is_finite()) {
        return f64::NAN;
    }
    if segments_cross(a1, a2, b1, b2) {
        return 0.0;
    }
    // segments that do not cross are nearest at an endpoint of one of them
    point_segment_distance(a1, b1, b2)
        .min(point_segment_distance(a2, b1, b2))
        .min(point_segment_distance(b1, a1, a2))
        .min(point_segment_distance(b2, a1, a2))
}

/// Proper crossing: each segment has one end strictly either side of the other's line.
fn segments_cross(a1: Point, a2: Point, b1: Point, b2: Point) -> bool {
    let (a, b) = (a2.minus(a1), b2.minus(b1));
    let opposite = |s: f64, t: f64| (s < 0.0 && t > 0.0) || (s > 0.0 && t < 0.0);
    opposite(a.cross(b1.minus(a1)), a.cross(b2.minus(a1)))
        && opposite(b.cross(a1.minus(b1)), b.cross(a2.minus(b1)))
}

/// Whether `p` is inside `polygon` (points in order, either way round); its boundary
/// counts as inside. False for fewer than 3 points or a non-finite `p`.
pub fn point_in_polygon(p: Point, polygon: &[Point]) -> bool {
    if polygon.len() < 3 || !p.is_finite() {
        return false;
    }
    if edges(polygon).any(|(a, b)| point_segment_distance(p, a, b) <= EPS) {
        return true;
    }
    // even-odd rule on a ray running east from p
    edges(polygon)
        .filter(|&(a, b)| crosses_east_ray(p, a, b))
        .count()
        % 2
        == 1
}

/// Whether edge `a`-`b` crosses the ray running east from `p`.
fn crosses_east_ray(p: Point, a: Point, b: Point) -> bool {
    // half-open in y, so a vertex on the ray is counted once
    if (a.y > p.y) == (b.y > p.y) {
        return false;
    }
    let x = a.x + (p.y - a.y) / (b.y - a.y) * (b.x - a.x);
    x > p.x
}

/// Whether the segment `a`-`b` touches `polygon`: crosses or touches an edge, or lies
/// inside. False for fewer than 3 points.
pub fn segment_intersects_polygon(a: Point, b: Point, polygon: &[Point]) -> bool {
    if polygon.len() < 3 {
        return false;
    }
    point_in_polygon(a, polygon) || edges(polygon).any(|(p, q)| segments_intersect(a, b, p, q))
}

/// Closest approach of the segment `a`-`b` to `centre`: the segment touches a circle
/// there when this is at most the radius.
pub fn segment_circle_distance(a: Point, b: Point, centre: Point) -> f64 {
    point_segment_distance(centre, a, b)
}

#[cfg(test)]
mod tests;
