//! Terrain and line of sight: the scenario's terrain features at a place or along a path,
//! and whether one place can see another. Functions that take a place accept a `Point`, a
//! `Unit` or `[x, y]`.

use std::rc::Rc;

use rhai::{Array, Dynamic, Engine, Map};

use super::{Res, Shared, UnitRef, host_error, number, place};
use crate::game::state::GameState;
use crate::limits::MAX_PATH_STEPS;
use crate::script::metadata::host;

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

/// Registers the terrain and line of sight functions.
pub(super) fn register(engine: &mut Engine, state: &Shared) {
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
    host!(engine,
        /// Whether `a` can see `b` along a straight line. A feature that blocks sight blocks
        /// the line unless `a` or `b` stands inside it: a figure in a wood sees out and is
        /// seen. Units do not block it (see `line_of_sight(a, b, units_block)`).
        fn line_of_sight(a: place, b: place) -> bool,
        move |a: Dynamic, b: Dynamic| -> Res<bool> {
            Ok(f(a, b, false)? == crate::host::battlefield::Sight::Clear)
        }
    );
    let f = sight.clone();
    host!(engine,
        /// Whether `a` can see `b`, as `line_of_sight(a, b)`; with `units_block` set to
        /// `true`, the base of any unit in play on the line blocks it too, except `a` and `b`
        /// themselves when they are units.
        fn line_of_sight(a: place, b: place, units_block: bool) -> bool,
        move |a: Dynamic, b: Dynamic, units_block: bool| -> Res<bool> {
            Ok(f(a, b, units_block)? == crate::host::battlefield::Sight::Clear)
        }
    );
    let st = state.clone();
    let f = sight;
    host!(engine,
        /// What blocks the line from `a` to `b`: the name of a terrain feature (a string), a
        /// `Unit` (when `units_block`), or `()` when the view is clear. Terrain is checked
        /// first.
        ///
        /// ```rhai
        /// let a = unit("archer_1");
        /// let v = unit("viking_1");
        /// print(line_of_sight(a, v));
        /// print(line_of_sight(a, v, true));
        /// print(sight_blocker(a, v, true));
        /// print(sight_blocker(point(32, 8), point(48, 8), false));
        /// print(line_of_sight(point(5, 20), point(5, 35)));
        /// ```
        ///
        /// prints:
        ///
        /// ```text
        /// true
        /// false
        /// legionary_1
        /// the low rise
        /// true
        /// ```
        ///
        /// (The last line: `(5, 35)` is inside the dark wood, so the wood does not hide it.)
        fn sight_blocker(a: place, b: place, units_block: bool) -> any,
        move |a: Dynamic, b: Dynamic, units_block: bool| -> Res<Dynamic> {
            Ok(match f(a, b, units_block)? {
                crate::host::battlefield::Sight::Clear => Dynamic::UNIT,
                crate::host::battlefield::Sight::Terrain(i) => {
                    st.borrow().battlefield.terrain.features[i].name.clone().into()
                }
                crate::host::battlefield::Sight::Unit(i) => Dynamic::from(UnitRef(i)),
            })
        }
    );
    let st = state.clone();
    host!(engine,
        /// The features at a place (its edge counts), in the scenario's order, as an array of
        /// [feature maps](#terrain-and-line-of-sight).
        ///
        /// ```rhai
        /// print(terrain_at(point(5, 30)));
        /// for f in terrain_at(point(40, 8)) {
        ///     print(`${f.name} is a ${f.slope} ${f.kind}`);
        /// }
        /// print(terrain_at(point(30, 5)));
        /// ```
        ///
        /// prints:
        ///
        /// ```text
        /// [#{"blocks_sight": true, "kind": "woods", "name": "the dark wood", "slope": ()}]
        /// the low rise is a gentle hill
        /// []
        /// ```
        fn terrain_at(p: place) -> array,
        move |p: Dynamic| -> Res<Array> {
            let s = st.borrow();
            let p = place(&s, &p)?;
            Ok(s.battlefield
                .terrain
                .at(p)
                .into_iter()
                .map(|i| feature_map(&s, i))
                .collect())
        }
    );
    let st = state.clone();
    host!(engine,
        /// Whether a place (a unit: its centre) lies in a terrain feature of a kind
        /// (`"woods"`, `"hill"`, ...; its edge counts). The question a house rule keyed on
        /// terrain asks.
        ///
        /// ```rhai
        /// print(in_terrain(point(5, 30), "woods"));
        /// print(in_terrain(point(30, 5), "woods"));
        /// ```
        ///
        /// prints:
        ///
        /// ```text
        /// true
        /// false
        /// ```
        fn in_terrain(p: place, kind: string) -> bool,
        move |p: Dynamic, kind: &str| -> Res<bool> {
            let s = st.borrow();
            let p = place(&s, &p)?;
            let features = &s.battlefield.terrain.features;
            Ok(s.battlefield
                .terrain
                .at(p)
                .into_iter()
                .any(|i| features[i].kind.name() == kind))
        }
    );
    let st = state.clone();
    host!(engine,
        /// The features the straight path from `a` to `b` touches, the nearest first, as an
        /// array of [feature maps](#terrain-and-line-of-sight). Use it for "crosses a
        /// stream" or "moves through woods".
        ///
        /// ```rhai
        /// for f in path_crosses(point(2, 20), point(45, 20)) { print(f.name); }
        /// ```
        ///
        /// prints:
        ///
        /// ```text
        /// the Roman road
        /// ```
        fn path_crosses(a: place, b: place) -> array,
        move |a: Dynamic, b: Dynamic| -> Res<Array> {
            let s = st.borrow();
            let (a, b) = (place(&s, &a)?, place(&s, &b)?);
            Ok(s.battlefield
                .terrain
                .crossed_by(a, b)
                .into_iter()
                .map(|i| feature_map(&s, i))
                .collect())
        }
    );
    let st = state.clone();
    host!(engine,
        /// The straight path from `from` to `to` cut into `ceil(length × per_inch)` equal
        /// steps (at least one; none when `from` is `to`), each looked at in its middle: how
        /// much of it lies in terrain of some `kinds` (an array of strings), each a feature's
        /// kind (`"woods"`) or a hill's slope (`"steep"`). Answers `#{ steps, step, inside,
        /// names }`: how many steps, the length of each, how many middles lie in such
        /// terrain (a middle in two features counts once), and the names of those features
        /// in the order the path meets them. It asks in one call what a loop of `point` and
        /// `terrain_at` over the path would (the middle of step `i` is `from + (to - from) ×
        /// (i + 0.5) / steps`), for rules that slow a move in rough ground. A path is cut
        /// into at most 100,000 steps (`a path may be looked at in at most 100000 steps`).
        ///
        /// ```rhai
        /// let s = sample_path(point(10, 30), point(20, 30), 10, ["woods", "steep"]);
        /// print(s);
        /// print(`${s.inside * s.step}" of the way in woods`);
        /// ```
        ///
        /// prints:
        ///
        /// ```text
        /// #{"inside": 40, "names": ["the dark wood"], "step": 0.1, "steps": 100}
        /// 4.0" of the way in woods
        /// ```
        fn sample_path(from: place, to: place, per_inch: number, kinds: array) -> map,
        move |from: Dynamic, to: Dynamic, per_inch: Dynamic, kinds: Array| -> Res<Map> {
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
        }
    );
}
