//! Measurement: points on the table, distances, bearings, arcs and cones, in inches.
//! Functions that take a place accept a `Point`, a `Unit` or `[x, y]`. Terrain and line of
//! sight are [`super::terrain`].

use rhai::{Array, Dynamic, Engine, FLOAT};

use super::{Res, Shared, UnitRef, host_error, number, place, unit_array};
use crate::host::geometry::{self, Point};
use crate::script::metadata::{host, host_type};

host_type!(
    /// A point on the table, in inches: a plain value. `print(p)` gives `(3, 4.5)`, with at
    /// most two decimals. Anywhere this page says *place*, you may also write `[x, y]`.
    ///
    /// ```rhai
    /// let p = point(3, 4);
    /// p.x = 6;
    /// print(p);
    /// print(p + point(1, 1));
    /// print(`${p.x} ${p == point(6, 4)}`);
    /// ```
    ///
    /// prints:
    ///
    /// ```text
    /// (6, 4)
    /// (7, 5)
    /// 6.0 true
    /// ```
    Point as Point
);

/// Registers the `Point` type and the measurement functions.
pub(super) fn register(engine: &mut Engine, state: &Shared) {
    register_points(engine);
    register_measures(engine);
    register_measurement(engine, state);
}

/// The functions that measure no place but compare or name bearings and measures.
fn register_measures(engine: &mut Engine) {
    host!(engine,
        /// Whether a measure is at most a limit, with 0.0001 inch of slack for rounding, as
        /// `within` allows: the dust that moves and scatters leave. Rules write it for a measure
        /// that is not the gap between two things: a move against its allowance (`if
        /// !at_most(distance(u, to), allowance) { throw ... }`), a range band. Raises `a
        /// measure must be a number, not ...`.
        ///
        /// ```rhai
        /// print(at_most(2.00001, 2));
        /// print(at_most(2.001, 2));
        /// print(at_most(distance([0, 0], [1.2, 1.6]), 2));
        /// ```
        ///
        /// prints:
        ///
        /// ```text
        /// true
        /// false
        /// true
        /// ```
        fn at_most(x: number, limit: number) -> bool,
        |x: Dynamic, limit: Dynamic| -> Res<bool> {
            Ok(geometry::at_most(number(&x, "a measure")?, number(&limit, "a limit")?))
        }
    );
    host!(engine,
        /// Whether a measure is at least a limit, with the same 0.0001 inch of slack as
        /// `at_most`: a berth wide enough to pass (`at_least(distance_to_path(e, from, to),
        /// 1)`). Raises `a measure must be a number, not ...`.
        ///
        /// ```rhai
        /// print(at_least(1.99999, 2));
        /// print(at_least(1.9, 2));
        /// ```
        ///
        /// prints:
        ///
        /// ```text
        /// true
        /// false
        /// ```
        fn at_least(x: number, limit: number) -> bool,
        |x: Dynamic, limit: Dynamic| -> Res<bool> {
            Ok(geometry::at_least(number(&x, "a measure")?, number(&limit, "a limit")?))
        }
    );
    host!(engine,
        /// How far bearing `to` lies from bearing `from`, in (-180, 180]: positive clockwise,
        /// as `angle_off` measures from a unit's facing. `angle_between(way, bearing(u,
        /// e)).abs() <= 90` asks whether `e` lies ahead of a figure going `way`. Logs nothing.
        ///
        /// ```rhai
        /// print(angle_between(350, 10));
        /// print(angle_between(90, 270));
        /// print(angle_between(0, 200));
        /// ```
        ///
        /// prints:
        ///
        /// ```text
        /// 20.0
        /// 180.0
        /// -160.0
        /// ```
        fn angle_between(from: number, to: number) -> FLOAT,
        |from: Dynamic, to: Dynamic| -> Res<FLOAT> {
            Ok(geometry::angle_off(number(&from, "a bearing")?, number(&to, "a bearing")?))
        }
    );
    host!(engine,
        /// The bearing of a compass word: `north` 0, `east` 90, `south` 180, `west` 270
        /// (lowercase), `()` for any other word, so a verb can take `face viking_1 west`.
        ///
        /// ```rhai
        /// print(compass("west"));
        /// print(compass("up") == ());
        /// ```
        ///
        /// prints:
        ///
        /// ```text
        /// 270.0
        /// true
        /// ```
        fn compass(word: string) -> any,
        |word: &str| -> Dynamic {
            geometry::compass_bearing(word).map_or(Dynamic::UNIT, Dynamic::from_float)
        }
    );
}

fn register_points(engine: &mut Engine) {
    engine.build_type::<Point>();
    host!(engine,
        /// Feet to inches: `ft(1)` is `12.0`, `ft(1.5)` is `18.0`. Raises `a length in feet
        /// must be a number, not ...`.
        fn ft(feet: number) -> FLOAT,
        |feet: Dynamic| -> Res<FLOAT> { Ok(geometry::ft(number(&feet, "a length in feet")?)) }
    );
    host!(engine,
        /// The point `x` inches east of the west edge and `y` inches north of the south
        /// edge. Raises `x must be a number, not ...` (or `y`), and `x must be a finite
        /// number`.
        fn point(x: number, y: number) -> Point,
        |x: Dynamic, y: Dynamic| -> Res<Point> {
            Ok(Point::new(number(&x, "x")?, number(&y, "y")?))
        }
    );
    host!(engine,
        /// Its x coordinate, inches east of the west edge.
        get (p: Point) x -> FLOAT,
        |p: &mut Point| p.x
    );
    host!(engine,
        /// Its y coordinate, inches north of the south edge.
        get (p: Point) y -> FLOAT,
        |p: &mut Point| p.y
    );
    host!(engine,
        /// Moves the point east or west: `p.x = 6`.
        set (p: Point) x(value: number),
        |p: &mut Point, v: Dynamic| -> Res<()> {
            p.x = number(&v, "x")?;
            Ok(())
        }
    );
    host!(engine,
        /// Moves the point north or south: `p.y = 6`.
        set (p: Point) y(value: number),
        |p: &mut Point, v: Dynamic| -> Res<()> {
            p.y = number(&v, "y")?;
            Ok(())
        }
    );
    host!(engine,
        /// `(p.x + q.x, p.y + q.y)`.
        op (p: Point) + (q: Point) -> Point,
        |a: Point, b: Point| Point::new(a.x + b.x, a.y + b.y)
    );
    host!(engine,
        /// `(p.x - q.x, p.y - q.y)`.
        op (p: Point) - (q: Point) -> Point,
        |a: Point, b: Point| Point::new(a.x - b.x, a.y - b.y)
    );
    host!(engine,
        /// Whether two points are exactly the same.
        op (p: Point) == (q: Point) -> bool,
        |a: Point, b: Point| a == b
    );
    host!(engine,
        /// Whether two points differ at all.
        op (p: Point) != (q: Point) -> bool,
        |a: Point, b: Point| a != b
    );
    host!(engine,
        /// `(x, y)`, with at most two decimals: what `print` and `` `${p}` `` give.
        fn (p: Point) to_string() -> string,
        |p: &mut Point| p.to_string()
    );
    host!(engine,
        /// `(x, y)`, as `to_string` (what `debug` gives).
        fn (p: Point) to_debug() -> string,
        |p: &mut Point| p.to_string()
    );
    host!(engine,
        /// The point `distance` inches from `from` along `bearing`. The script rolls the
        /// bearing and the distance; `scatter` does the trigonometry. `from` must be a
        /// `Point` (use `u.pos` for a unit). Logs nothing.
        ///
        /// ```rhai
        /// print(scatter(point(10, 10), 90, 3));
        /// let lands = scatter(point(10, 10), d(12) * 30, d(6));
        /// print(lands);
        /// ```
        ///
        /// prints:
        ///
        /// ```text
        /// (13, 10)
        ///   1d12: [5] = 5
        ///   1d6: [1] = 1
        /// (10.5, 9.13)
        /// ```
        fn scatter(from: Point, bearing: number, distance: number) -> Point,
        |p: Point, bearing: Dynamic, distance: Dynamic| -> Res<Point> {
            Ok(geometry::scatter(
                p,
                number(&bearing, "a bearing")?,
                number(&distance, "a distance")?,
            ))
        }
    );
}

fn register_measurement(engine: &mut Engine, state: &Shared) {
    let st = state.clone();
    host!(engine,
        /// The distance between two places, centre to centre, in inches. Logs nothing.
        /// Raises `expected a point or a unit, not ...`.
        ///
        /// ```rhai
        /// let v = unit("viking_1");
        /// let l = unit("legionary_1");
        /// print(distance(v, l));
        /// print(edge_distance(v, l));
        /// print(distance([0, 0], point(3, 4)));
        /// ```
        ///
        /// prints:
        ///
        /// ```text
        /// 1.8000000000000007
        /// 0.6000000000000006
        /// 5.0
        /// ```
        fn distance(a: place, b: place) -> FLOAT,
        move |a: Dynamic, b: Dynamic| -> Res<FLOAT> {
            let s = st.borrow();
            Ok(place(&s, &a)?.distance(place(&s, &b)?))
        }
    );
    let st = state.clone();
    host!(engine,
        /// The distance between the edges of the two units' bases (round or rectangular,
        /// turned to their facings), 0 when they touch or overlap. Logs nothing.
        fn edge_distance(a: Unit, b: Unit) -> FLOAT,
        move |a: UnitRef, b: UnitRef| -> FLOAT { st.borrow().battlefield.edge_distance(a.0, b.0) }
    );
    let st = state.clone();
    host!(engine,
        /// The distance between the edges of `other`'s base and `u`'s base were `u` standing
        /// at `at` with its present facing: how far `other` is from a place `u` stood, or may
        /// stand. It logs nothing and moves no one. Rules use it to measure from where a
        /// figure was (the Playmobil ruleset measures a kill chain's next blow from where the
        /// killer stood when he killed).
        ///
        /// ```rhai
        /// let v = unit("viking_1");
        /// let l = unit("legionary_1");
        /// print(edge_distance_at(v, point(17, 20), l));
        /// print(edge_distance_at(v, v, l) == edge_distance(v, l));
        /// ```
        ///
        /// prints:
        ///
        /// ```text
        /// 2.3
        /// true
        /// ```
        fn edge_distance_at(u: Unit, at: place, other: Unit) -> FLOAT,
        move |u: UnitRef, at: Dynamic, other: UnitRef| -> Res<FLOAT> {
            let s = st.borrow();
            let at = place(&s, &at)?;
            Ok(s.battlefield.edge_distance_at(u.0, at, other.0))
        }
    );
    let st = state.clone();
    host!(engine,
        /// How wide a berth the straight path from `from` to `to` gives the unit: the
        /// distance from the edge of its base (round or rectangular, turned to its facing) to
        /// the nearest point of the path, 0 when the path touches or crosses the base. A path
        /// ends where it ends: a base beyond `to` is measured from `to`. Logs nothing. Rules
        /// use it to ask whether a gap between two bases is wide enough to pass through.
        ///
        /// ```rhai
        /// let l = unit("legionary_1");
        /// print(distance_to_path(l, [10, 14.5], [30, 14.5]));
        /// print(distance_to_path(l, [17, 10], [17, 12]));
        /// print(distance_to_path(l, point(10, 16.5), point(30, 16.5)));
        /// ```
        ///
        /// prints:
        ///
        /// ```text
        /// 1.4
        /// 3.9
        /// 0.0
        /// ```
        fn distance_to_path(u: Unit, from: place, to: place) -> FLOAT,
        move |u: UnitRef, from: Dynamic, to: Dynamic| -> Res<FLOAT> {
            let s = st.borrow();
            let unit = s.unit(u.0).map_err(host_error)?;
            Ok(unit
                .footprint()
                .distance_to_segment(place(&s, &from)?, place(&s, &to)?))
        }
    );
    let st = state.clone();
    host!(engine,
        /// Whether the bases touch: at most 0.05 inches apart edge to edge (figures placed by
        /// hand rarely touch exactly).
        ///
        /// ```rhai
        /// let v = unit("viking_1");
        /// print(in_contact(v, unit("legionary_1")));
        /// v.move_to(17, 17.7);
        /// print(in_contact(v, unit("legionary_1")));
        /// ```
        ///
        /// prints:
        ///
        /// ```text
        /// false
        ///   viking_1 moves 0.6" from (17, 18.3) to (17, 17.7)
        /// true
        /// ```
        fn in_contact(a: Unit, b: Unit) -> bool,
        move |a: UnitRef, b: UnitRef| -> bool { st.borrow().battlefield.in_contact(a.0, b.0) }
    );
    let st = state.clone();
    host!(engine,
        /// Whether `a` and `b` are at most `inches` apart, measured from the edge of a unit's
        /// base: base edge to base edge between two units, base edge to the place between a
        /// unit and a place, centre to centre between two places. It allows 0.0001 inch for
        /// rounding (as `at_most` does), so a figure exactly 2 inches away is within 2 inches
        /// and one 2.001 inches away is not. It is the test for "within reach":
        /// `within(attacker, defender, data("melee_reach"))`. `units_within` and
        /// `enemies_within` measure the same way: `within(u, v, r)` is true just when `v` is in
        /// `units_within(u, r)`. Logs nothing; raises `a distance must be a number, not ...`.
        ///
        /// ```rhai
        /// let v = unit("viking_1");
        /// let l = unit("legionary_1");
        /// print(edge_distance(v, l));
        /// print(within(v, l, 0.6));
        /// print(within(v, l, 0.5));
        /// print(within(v, point(17, 21), 1));
        /// print(within([0, 0], [3, 4], 5));
        /// ```
        ///
        /// prints:
        ///
        /// ```text
        /// 0.6000000000000006
        /// true
        /// false
        /// false
        /// true
        /// ```
        fn within(a: place, b: place, inches: number) -> bool,
        move |a: Dynamic, b: Dynamic, inches: Dynamic| -> Res<bool> {
            let s = st.borrow();
            let inches = number(&inches, "a distance")?;
            let gap = match (a.read_lock::<UnitRef>(), b.read_lock::<UnitRef>()) {
                (Some(a), Some(b)) => s.battlefield.edge_distance(a.0, b.0),
                (Some(u), None) | (None, Some(u)) => {
                    let other = if a.is::<UnitRef>() { &b } else { &a };
                    let p = place(&s, other)?;
                    s.unit(u.0)
                        .map_err(host_error)?
                        .footprint()
                        .distance_to_point(p)
                }
                (None, None) => place(&s, &a)?.distance(place(&s, &b)?),
            };
            Ok(geometry::at_most(gap, inches))
        }
    );
    let st = state.clone();
    host!(engine,
        /// The direction from one place to another, in degrees clockwise from north, in
        /// [0, 360); 0 when the two are the same place.
        ///
        /// ```rhai
        /// let l = unit("legionary_1");
        /// print(bearing(l, unit("viking_1")));
        /// print(bearing(point(0, 0), point(1, 1)));
        /// ```
        ///
        /// prints:
        ///
        /// ```text
        /// 0.0
        /// 45.0
        /// ```
        fn bearing(from: place, to: place) -> FLOAT,
        move |a: Dynamic, b: Dynamic| -> Res<FLOAT> {
            let s = st.borrow();
            Ok(place(&s, &a)?.bearing_to(place(&s, &b)?))
        }
    );
    let st = state.clone();
    host!(engine,
        /// How far `target` lies from the way `u` faces, in (-180, 180]: positive to the
        /// unit's right, negative to its left, 180 right behind it.
        ///
        /// ```rhai
        /// let l = unit("legionary_1");
        /// print(angle_off(l, point(20, 16.5)));
        /// print(angle_off(l, point(10, 16.5)));
        /// ```
        ///
        /// prints:
        ///
        /// ```text
        /// 90.0
        /// -90.0
        /// ```
        fn angle_off(u: Unit, target: place) -> FLOAT,
        move |u: UnitRef, target: Dynamic| -> Res<FLOAT> {
            let s = st.borrow();
            let unit = s.unit(u.0).map_err(host_error)?;
            Ok(geometry::angle_off(
                unit.facing,
                unit.pos.bearing_to(place(&s, &target)?),
            ))
        }
    );
    let st = state.clone();
    host!(engine,
        /// Whether `target` lies within `half_angle` degrees either side of the way `u`
        /// faces, seen from its centre. The edge counts as inside. With 90 it is the unit's
        /// front half; the Playmobil rules use `!in_arc(defender, attacker, 90)` for an
        /// attack from the rear.
        ///
        /// ```rhai
        /// let l = unit("legionary_1");
        /// print(in_arc(l, unit("viking_1"), 90));
        /// print(in_arc(l, unit("archer_1"), 90));
        /// ```
        ///
        /// prints:
        ///
        /// ```text
        /// true
        /// false
        /// ```
        fn in_arc(u: Unit, target: place, half_angle: number) -> bool,
        move |u: UnitRef, target: Dynamic, half_angle: Dynamic| -> Res<bool> {
            let s = st.borrow();
            let unit = s.unit(u.0).map_err(host_error)?;
            Ok(geometry::in_arc(
                unit.facing,
                unit.pos,
                place(&s, &target)?,
                number(&half_angle, "a half-angle")?,
            ))
        }
    );
    let st = state.clone();
    host!(engine,
        /// Whether `target` lies in a cone (a grapeshot template, a breath weapon) from
        /// `apex` along `direction`, `range` inches long and `half_angle` degrees either
        /// side. A place at the apex counts as inside.
        ///
        /// ```rhai
        /// let l = unit("legionary_1");
        /// print(in_cone(l, 0, 12, 45, unit("viking_1")));
        /// ```
        ///
        /// prints:
        ///
        /// ```text
        /// true
        /// ```
        fn in_cone(apex: place, direction: number, range: number, half_angle: number, target: place) -> bool,
        move |apex: Dynamic, direction: Dynamic, range: Dynamic, half_angle: Dynamic, target: Dynamic| -> Res<bool> {
            let s = st.borrow();
            Ok(geometry::in_cone(
                place(&s, &apex)?,
                number(&direction, "a direction")?,
                number(&range, "a range")?,
                number(&half_angle, "a half-angle")?,
                place(&s, &target)?,
            ))
        }
    );
    let st = state.clone();
    host!(engine,
        /// The units in play whose centre lies in the cone `in_cone` describes, in scenario
        /// order, as an array of `Unit`. A unit standing at the apex counts as inside.
        ///
        /// ```rhai
        /// let l = unit("legionary_1");
        /// print(units_in_cone(l, 0, 3, 45));
        /// ```
        ///
        /// prints:
        ///
        /// ```text
        /// [legionary_1 (Legionary), viking_1 (Viking warrior)]
        /// ```
        fn units_in_cone(apex: place, direction: number, range: number, half_angle: number) -> array,
        move |apex: Dynamic, direction: Dynamic, range: Dynamic, half_angle: Dynamic| -> Res<Array> {
            let s = st.borrow();
            Ok(unit_array(s.battlefield.in_cone(
                place(&s, &apex)?,
                number(&direction, "a direction")?,
                number(&range, "a range")?,
                number(&half_angle, "a half-angle")?,
            )))
        }
    );
    let st = state.clone();
    host!(engine,
        /// Whether a place is on the table; the edges count as on.
        ///
        /// ```rhai
        /// print(`${table_width()} x ${table_depth()}`);
        /// print(on_table(point(48, 36)));
        /// print(on_table([48.1, 10]));
        /// ```
        ///
        /// prints:
        ///
        /// ```text
        /// 48.0 x 36.0
        /// true
        /// false
        /// ```
        fn on_table(p: place) -> bool,
        move |p: Dynamic| -> Res<bool> {
            let s = st.borrow();
            Ok(s.battlefield.on_table(place(&s, &p)?))
        }
    );
    let st = state.clone();
    host!(engine,
        /// The table's width in inches, west to east.
        fn table_width() -> FLOAT,
        move || -> FLOAT { st.borrow().battlefield.width }
    );
    let st = state.clone();
    host!(engine,
        /// The table's depth in inches, south to north.
        fn table_depth() -> FLOAT,
        move || -> FLOAT { st.borrow().battlefield.depth }
    );
}
