//! Measurement: points on the table, distances, bearings and arcs, line of sight and
//! terrain, in inches. Functions that take a place accept a `Point`, a `Unit` or `[x, y]`.
//!
//! Registers:
//!
//! - `ft(feet)`: a length in feet, in inches;
//! - `point(x, y)` and the type `Point`, with the properties `x` and `y` (settable), the
//!   operators `+`, `-`, `==` and `!=`, `to_string` and `to_debug`, and `scatter(p, bearing,
//!   distance)`;
//! - `distance(a, b)`, `edge_distance(a, b)`, `edge_distance_at(u, at, other)`,
//!   `distance_to_path(u, from, to)`, `in_contact(a, b)`, `within(a, b, inches)`,
//!   `at_most(x, limit)` and `at_least(x, limit)` (a measure against a limit, with the host's
//!   one tolerance), `bearing(a, b)`, `compass(word)`, `angle_between(from, to)`,
//!   `angle_off(u, target)`, `in_arc(u, target, half_angle)`,
//!   `in_cone(apex, direction, range, half_angle, target)` and
//!   `units_in_cone(apex, direction, range, half_angle)`;
//! - `line_of_sight(a, b)`, `line_of_sight(a, b, units_block)` and
//!   `sight_blocker(a, b, units_block)`;
//! - `terrain_at(p)`, `in_terrain(p, kind)`, `path_crosses(a, b)` and
//!   `sample_path(from, to, per_inch, kinds)`;
//! - `on_table(p)`, `table_width()` and `table_depth()`.

use std::rc::Rc;

use rhai::{Array, Dynamic, Engine, FLOAT, INT, Map};

use super::{Res, Shared, UnitRef, host_error, number, place, unit_array, volatile};
use crate::game::state::GameState;
use crate::host::geometry::{self, Point};
use crate::limits::MAX_PATH_STEPS;

/// Registers the `Point` type and the measurement functions.
pub(super) fn register(engine: &mut Engine, state: &Shared) {
    register_points(engine);
    register_measures(engine);
    register_measurement(engine, state);
}

fn register_points(engine: &mut Engine) {
    engine.register_type_with_name::<Point>("Point");
    engine
        .register_fn("ft", |feet: Dynamic| -> Res<FLOAT> {
            Ok(geometry::ft(number(&feet, "a length in feet")?))
        })
        .register_fn("point", |x: Dynamic, y: Dynamic| -> Res<Point> {
            Ok(Point::new(number(&x, "x")?, number(&y, "y")?))
        })
        .register_get("x", |p: &mut Point| p.x)
        .register_get("y", |p: &mut Point| p.y)
        .register_set("x", |p: &mut Point, v: Dynamic| -> Res<()> {
            p.x = number(&v, "x")?;
            Ok(())
        })
        .register_set("y", |p: &mut Point, v: Dynamic| -> Res<()> {
            p.y = number(&v, "y")?;
            Ok(())
        })
        .register_fn("+", |a: Point, b: Point| Point::new(a.x + b.x, a.y + b.y))
        .register_fn("-", |a: Point, b: Point| Point::new(a.x - b.x, a.y - b.y))
        .register_fn("==", |a: Point, b: Point| a == b)
        .register_fn("!=", |a: Point, b: Point| a != b)
        .register_fn("to_string", |p: &mut Point| p.to_string())
        .register_fn("to_debug", |p: &mut Point| p.to_string())
        .register_fn(
            "scatter",
            |p: Point, bearing: Dynamic, distance: Dynamic| -> Res<Point> {
                Ok(geometry::scatter(
                    p,
                    number(&bearing, "a bearing")?,
                    number(&distance, "a distance")?,
                ))
            },
        );
}

/// Registers `f` of two numbers under `name`: for each pair of `INT` and `FLOAT`, which rhai
/// finds at once (rules call these in their inner loops, and a function of `Dynamic`s is
/// looked for again in every verb's call), and for any other values, refused in words
/// (`what` names the two).
fn register_numbers<T: rhai::Variant + Clone>(
    engine: &mut Engine,
    name: &'static str,
    what: [&'static str; 2],
    f: fn(f64, f64) -> T,
) {
    engine
        .register_fn(name, move |a: FLOAT, b: FLOAT| f(a, b))
        .register_fn(name, move |a: FLOAT, b: INT| f(a, b as f64))
        .register_fn(name, move |a: INT, b: FLOAT| f(a as f64, b))
        .register_fn(name, move |a: INT, b: INT| f(a as f64, b as f64))
        .register_fn(name, move |a: Dynamic, b: Dynamic| -> Res<T> {
            Ok(f(number(&a, what[0])?, number(&b, what[1])?))
        });
}

/// The functions that measure no place but compare or name bearings and measures.
fn register_measures(engine: &mut Engine) {
    register_numbers(
        engine,
        "at_most",
        ["a measure", "a limit"],
        geometry::at_most,
    );
    register_numbers(
        engine,
        "at_least",
        ["a measure", "a limit"],
        geometry::at_least,
    );
    register_numbers(
        engine,
        "angle_between",
        ["a bearing", "a bearing"],
        geometry::angle_off,
    );
    engine.register_fn("compass", |word: &str| -> Dynamic {
        geometry::compass_bearing(word).map_or(Dynamic::UNIT, Dynamic::from_float)
    });
}

fn feature_map(state: &GameState, idx: usize) -> Dynamic {
    let f = &state.battlefield.terrain.features[idx];
    let mut m = Map::new();
    m.insert("name".into(), f.name.clone().into());
    m.insert("kind".into(), f.kind.name().into());
    m.insert(
        "slope".into(),
        match &f.kind {
            crate::host::terrain::TerrainKind::Hill(s) => format!("{s:?}").to_lowercase().into(),
            _ => Dynamic::UNIT,
        },
    );
    m.insert("blocks_sight".into(), f.blocks_sight.into());
    m.into()
}

fn register_measurement(engine: &mut Engine, state: &Shared) {
    let st = state.clone();
    volatile!(engine, "distance", move |a: Dynamic,
                                        b: Dynamic|
          -> Res<FLOAT> {
        let s = st.borrow();
        Ok(place(&s, &a)?.distance(place(&s, &b)?))
    });
    let st = state.clone();
    volatile!(engine, "edge_distance", move |a: UnitRef,
                                             b: UnitRef|
          -> FLOAT {
        st.borrow().battlefield.edge_distance(a.0, b.0)
    });
    let st = state.clone();
    volatile!(engine, "edge_distance_at", move |u: UnitRef,
                                                at: Dynamic,
                                                other: UnitRef|
          -> Res<FLOAT> {
        let s = st.borrow();
        let at = place(&s, &at)?;
        Ok(s.battlefield.edge_distance_at(u.0, at, other.0))
    });
    let st = state.clone();
    volatile!(engine, "distance_to_path", move |u: UnitRef,
                                                from: Dynamic,
                                                to: Dynamic|
          -> Res<FLOAT> {
        let s = st.borrow();
        let unit = s.unit(u.0).map_err(host_error)?;
        Ok(unit
            .footprint()
            .distance_to_segment(place(&s, &from)?, place(&s, &to)?))
    });
    let st = state.clone();
    volatile!(engine, "in_contact", move |a: UnitRef,
                                          b: UnitRef|
          -> bool {
        st.borrow().battlefield.in_contact(a.0, b.0)
    });
    // Two units and a number, as rules ask it in their inner loops, found at once; then any
    // places.
    let st = state.clone();
    volatile!(engine, "within", move |a: UnitRef,
                                      b: UnitRef,
                                      inches: INT|
          -> bool {
        geometry::at_most(
            st.borrow().battlefield.edge_distance(a.0, b.0),
            inches as f64,
        )
    });
    let st = state.clone();
    volatile!(engine, "within", move |a: UnitRef,
                                      b: UnitRef,
                                      inches: FLOAT|
          -> bool {
        geometry::at_most(st.borrow().battlefield.edge_distance(a.0, b.0), inches)
    });
    let st = state.clone();
    volatile!(engine, "within", move |a: Dynamic,
                                      b: Dynamic,
                                      inches: Dynamic|
          -> Res<bool> {
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
    });
    let st = state.clone();
    volatile!(engine, "bearing", move |a: Dynamic,
                                       b: Dynamic|
          -> Res<FLOAT> {
        let s = st.borrow();
        Ok(place(&s, &a)?.bearing_to(place(&s, &b)?))
    });
    let st = state.clone();
    volatile!(engine, "angle_off", move |u: UnitRef,
                                         target: Dynamic|
          -> Res<FLOAT> {
        let s = st.borrow();
        let unit = s.unit(u.0).map_err(host_error)?;
        Ok(geometry::angle_off(
            unit.facing,
            unit.pos.bearing_to(place(&s, &target)?),
        ))
    });
    let st = state.clone();
    volatile!(engine, "in_arc", move |u: UnitRef,
                                      target: Dynamic,
                                      half_angle: Dynamic|
          -> Res<bool> {
        let s = st.borrow();
        let unit = s.unit(u.0).map_err(host_error)?;
        Ok(geometry::in_arc(
            unit.facing,
            unit.pos,
            place(&s, &target)?,
            number(&half_angle, "a half-angle")?,
        ))
    });
    let st = state.clone();
    volatile!(engine, "in_cone", move |apex: Dynamic,
                                       direction: Dynamic,
                                       range: Dynamic,
                                       half_angle: Dynamic,
                                       target: Dynamic|
          -> Res<bool> {
        let s = st.borrow();
        Ok(geometry::in_cone(
            place(&s, &apex)?,
            number(&direction, "a direction")?,
            number(&range, "a range")?,
            number(&half_angle, "a half-angle")?,
            place(&s, &target)?,
        ))
    });
    let st = state.clone();
    volatile!(engine, "units_in_cone", move |apex: Dynamic,
                                             direction: Dynamic,
                                             range: Dynamic,
                                             half_angle: Dynamic|
          -> Res<Array> {
        let s = st.borrow();
        Ok(unit_array(s.battlefield.in_cone(
            place(&s, &apex)?,
            number(&direction, "a direction")?,
            number(&range, "a range")?,
            number(&half_angle, "a half-angle")?,
        )))
    });
    let st = state.clone();
    let sight =
        move |a: Dynamic, b: Dynamic, units_block: bool| -> Res<crate::host::battlefield::Sight> {
            let s = st.borrow();
            let ignore: Vec<usize> = [&a, &b]
                .iter()
                .filter_map(|v| v.read_lock::<UnitRef>().map(|u| u.0))
                .collect();
            Ok(s.battlefield
                .sight(place(&s, &a)?, place(&s, &b)?, units_block, &ignore))
        };
    let sight = Rc::new(sight);
    let f = sight.clone();
    volatile!(engine, "line_of_sight", move |a: Dynamic,
                                             b: Dynamic|
          -> Res<bool> {
        Ok(f(a, b, false)? == crate::host::battlefield::Sight::Clear)
    });
    let f = sight.clone();
    volatile!(engine, "line_of_sight", move |a: Dynamic,
                                             b: Dynamic,
                                             units_block: bool|
          -> Res<bool> {
        Ok(f(a, b, units_block)? == crate::host::battlefield::Sight::Clear)
    });
    let st = state.clone();
    let f = sight;
    volatile!(engine, "sight_blocker", move |a: Dynamic,
                                             b: Dynamic,
                                             units_block: bool|
          -> Res<Dynamic> {
        Ok(match f(a, b, units_block)? {
            crate::host::battlefield::Sight::Clear => Dynamic::UNIT,
            crate::host::battlefield::Sight::Terrain(i) => st.borrow().battlefield.terrain.features
                [i]
                .name
                .clone()
                .into(),
            crate::host::battlefield::Sight::Unit(i) => Dynamic::from(UnitRef(i)),
        })
    });
    let st = state.clone();
    volatile!(engine, "terrain_at", move |p: Dynamic| -> Res<Array> {
        let s = st.borrow();
        let p = place(&s, &p)?;
        Ok(s.battlefield
            .terrain
            .at(p)
            .into_iter()
            .map(|i| feature_map(&s, i))
            .collect())
    });
    let st = state.clone();
    volatile!(engine, "in_terrain", move |p: Dynamic,
                                          kind: &str|
          -> Res<bool> {
        let s = st.borrow();
        let p = place(&s, &p)?;
        let features = &s.battlefield.terrain.features;
        Ok(s.battlefield
            .terrain
            .at(p)
            .into_iter()
            .any(|i| features[i].kind.name() == kind))
    });
    let st = state.clone();
    volatile!(engine, "path_crosses", move |a: Dynamic,
                                            b: Dynamic|
          -> Res<Array> {
        let s = st.borrow();
        let (a, b) = (place(&s, &a)?, place(&s, &b)?);
        Ok(s.battlefield
            .terrain
            .crossed_by(a, b)
            .into_iter()
            .map(|i| feature_map(&s, i))
            .collect())
    });
    let st = state.clone();
    volatile!(engine, "sample_path", move |from: Dynamic,
                                           to: Dynamic,
                                           per_inch: Dynamic,
                                           kinds: Array|
          -> Res<Map> {
        let s = st.borrow();
        let (from, to) = (place(&s, &from)?, place(&s, &to)?);
        let per_inch = number(&per_inch, "the steps per inch")?;
        if (from.distance(to) * per_inch).ceil() > MAX_PATH_STEPS {
            return Err(host_error(format!(
                "a path may be looked at in at most {MAX_PATH_STEPS} steps"
            )));
        }
        let kinds: Vec<String> = kinds.iter().map(|k| k.to_string()).collect();
        let terrain = &s.battlefield.terrain;
        let sample = terrain.sample_path(from, to, per_inch, |f| {
            kinds.iter().any(|k| {
                k == f.kind.name() || f.kind.slope().is_some_and(|slope| k == slope.name())
            })
        });
        let mut names: Array = Vec::new();
        for i in sample.features {
            let name: Dynamic = terrain.features[i].name.clone().into();
            if !names.iter().any(|n| n.to_string() == name.to_string()) {
                names.push(name);
            }
        }
        let mut m = Map::new();
        m.insert("steps".into(), sample.steps.into());
        m.insert("step".into(), sample.step.into());
        m.insert("inside".into(), sample.inside.into());
        m.insert("names".into(), names.into());
        Ok(m)
    });
    let st = state.clone();
    volatile!(engine, "on_table", move |p: Dynamic| -> Res<bool> {
        let s = st.borrow();
        Ok(s.battlefield.on_table(place(&s, &p)?))
    });
    let st = state.clone();
    volatile!(engine, "table_width", move || -> FLOAT {
        st.borrow().battlefield.width
    });
    let st = state.clone();
    volatile!(engine, "table_depth", move || -> FLOAT {
        st.borrow().battlefield.depth
    });
}
