//! Units: finding the game's units, the `Unit` handle scripts hold (its properties and
//! methods read and change the unit in the game, which logs every change), and new units.
//!
//! Registers:
//!
//! - `unit(id)`, `to_unit(x)` (a unit, or the player told in words why `x` is none),
//!   `units()`, `units(side)`, `units_without(side, stat, value)`, `all_units()`,
//!   `units_tagged(tag)`,
//!   `units_in_group(kind, name)`, `units_within(centre, radius)`, `overlapping_at(u, at)`,
//!   `nearest_enemy(u)`, `enemies_within(u, radius)` and `enemies(u)`;
//! - the type `Unit`, with the properties `id`, `name`, `side`, `troop`, `x`, `y`, `pos`,
//!   `facing`, `hits`, `stands`, `in_play`, `tags`, `abilities`, `label`, `groups` and
//!   `stats` (`name`, `side`, `pos`, `facing`, `hits` and `stands` settable), and a stat read
//!   as `u[name]`;
//! - the `Unit` methods `stat`, `has_stat`, `set_stat`, `has_tag`, `tag`, `untag`,
//!   `untag_all`, `group`, `comrades`, `group_size`, `set_group`, `leave_group`,
//!   `move_to(place)`, `move_to(x, y)`, `face`, `face_towards`, `remove`, `restore` and
//!   `is_enemy`, the operators `==` and `!=`, and `to_string` and `to_debug`;
//! - `new_unit(id, troop, side, at)`: a new figure of a troop type from the ruleset's chart.

use rhai::{Array, Dynamic, Engine, INT, ImmutableString, Map};

use super::{
    Res, Shared, UnitRef, host_error, number, place, refusal, stat_to_dynamic, strings, unit_array,
    volatile, with_unit,
};
use crate::game::ruleset::Ruleset;
use crate::host::battlefield::ResolveError;
use crate::host::geometry::Point;
use crate::host::unit::{Stat, Unit};

/// A script value as a unit's stat.
pub(super) fn dynamic_to_stat(v: &Dynamic) -> Res<Stat> {
    if let Ok(b) = v.as_bool() {
        Ok(Stat::Bool(b))
    } else if let Ok(i) = v.as_int() {
        Ok(Stat::Int(i))
    } else if let Ok(f) = v.as_float() {
        Ok(Stat::Float(f))
    } else if let Some(s) = v.read_lock::<ImmutableString>() {
        Ok(Stat::Text(s.to_string()))
    } else {
        Err(host_error(format!(
            "a stat must be a bool, number or string, not {}",
            v.type_name()
        )))
    }
}

/// Whether a unit's stat is the script value `v`, as `==` in a script has it (a whole number
/// and a float of the same value are equal; values of other types never are).
fn stat_is(s: &Stat, v: &Dynamic) -> bool {
    match s {
        Stat::Bool(b) => v.as_bool().is_ok_and(|x| x == *b),
        Stat::Int(i) => {
            v.as_int().is_ok_and(|x| x == *i) || v.as_float().is_ok_and(|x| x == *i as f64)
        }
        Stat::Float(f) => {
            v.as_float().is_ok_and(|x| x == *f) || v.as_int().is_ok_and(|x| x as f64 == *f)
        }
        Stat::Text(t) => v
            .read_lock::<ImmutableString>()
            .is_some_and(|x| x.as_str() == t),
    }
}

/// Registers the unit functions, the `Unit` type and `new_unit`.
pub(super) fn register(engine: &mut Engine, state: &Shared, ruleset: &Ruleset) {
    engine.register_type_with_name::<UnitRef>("Unit");

    let st = state.clone();
    volatile!(engine, "unit", move |id: &str| -> Res<UnitRef> {
        st.borrow()
            .battlefield
            .resolve(id)
            .map(UnitRef)
            .map_err(host_error)
    });
    // Words typed where a unit belongs arrive as strings when they name none: the rules
    // refuse them (as `throw` does) in the player's terms, with the id meant where one is
    // close.
    volatile!(engine, "to_unit", |u: UnitRef| u);
    let st = state.clone();
    volatile!(engine, "to_unit", move |x: Dynamic| -> Res<UnitRef> {
        if let Some(u) = x.read_lock::<UnitRef>() {
            return Ok(*u);
        }
        let text = match x.read_lock::<ImmutableString>() {
            Some(s) => s.to_string(),
            None => x.to_string(),
        };
        st.borrow()
            .battlefield
            .resolve(&text)
            .map(UnitRef)
            .map_err(|e| match e {
                ResolveError::Unknown {
                    suggestion: None, ..
                } => refusal(format!("{}: `:units` lists the units", e.message())),
                e => refusal(e.to_string()),
            })
    });
    let st = state.clone();
    volatile!(engine, "units", move || -> Array {
        unit_array(st.borrow().battlefield.in_play())
    });
    let st = state.clone();
    volatile!(engine, "units", move |side: &str| -> Array {
        unit_array(st.borrow().battlefield.by_side(side))
    });
    let st = state.clone();
    volatile!(engine, "units_without", move |side: &str,
                                             stat: &str,
                                             value: Dynamic|
          -> Array {
        let s = st.borrow();
        let units = s.battlefield.units();
        unit_array(
            s.battlefield
                .by_side(side)
                .filter(|&i| !units[i].stat(stat).is_some_and(|v| stat_is(v, &value))),
        )
    });
    let st = state.clone();
    volatile!(engine, "all_units", move || -> Array {
        unit_array(0..st.borrow().battlefield.units().len())
    });
    let st = state.clone();
    volatile!(engine, "units_tagged", move |tag: &str| -> Array {
        unit_array(st.borrow().battlefield.with_tag(tag))
    });
    let st = state.clone();
    volatile!(engine, "units_in_group", move |kind: &str,
                                              name: &str|
          -> Array {
        unit_array(st.borrow().battlefield.in_group(kind, name))
    });
    let st = state.clone();
    volatile!(engine, "units_within", move |centre: Dynamic,
                                            radius: Dynamic|
          -> Res<Array> {
        let s = st.borrow();
        let radius = number(&radius, "a radius")?;
        if let Some(u) = centre.read_lock::<UnitRef>() {
            return Ok(unit_array(s.battlefield.within_of(u.0, radius)));
        }
        Ok(unit_array(
            s.battlefield.within(place(&s, &centre)?, radius),
        ))
    });
    let st = state.clone();
    volatile!(engine, "overlapping_at", move |u: UnitRef,
                                              at: Dynamic|
          -> Res<Array> {
        let s = st.borrow();
        let at = place(&s, &at)?;
        Ok(unit_array(s.battlefield.overlapping_at(u.0, at)))
    });
    let st = state.clone();
    volatile!(engine, "nearest_enemy", move |u: UnitRef| -> Dynamic {
        st.borrow()
            .battlefield
            .nearest_enemy(u.0)
            .map_or(Dynamic::UNIT, |i| Dynamic::from(UnitRef(i)))
    });
    let st = state.clone();
    volatile!(engine, "enemies_within", move |u: UnitRef,
                                              radius: Dynamic|
          -> Res<Array> {
        let radius = number(&radius, "a radius")?;
        Ok(unit_array(
            st.borrow().battlefield.enemies_within(u.0, radius),
        ))
    });
    let st = state.clone();
    volatile!(engine, "enemies", move |u: UnitRef| -> Res<Array> {
        let s = st.borrow();
        let side = s.unit(u.0).map_err(host_error)?.side.clone();
        Ok(unit_array(
            s.battlefield
                .in_play()
                .filter(|&i| s.battlefield.units()[i].side != side),
        ))
    });

    macro_rules! getter {
        ($name:literal, |$u:ident| $body:expr) => {{
            let st = state.clone();
            engine.register_get($name, move |r: &mut UnitRef| -> Res<_> {
                with_unit(&st, *r, |$u| $body)
            });
        }};
    }
    getter!("id", |u| u.id.clone());
    getter!("name", |u| u.name.clone());
    getter!("side", |u| u.side.clone());
    getter!("troop", |u| u.troop.clone());
    getter!("x", |u| u.pos.x);
    getter!("y", |u| u.pos.y);
    getter!("pos", |u| u.pos);
    getter!("facing", |u| u.facing);
    getter!("hits", |u| u.hits);
    getter!("stands", |u| u.stands);
    getter!("in_play", |u| u.in_play);
    // Private notes (tags starting with `_`) stay out of the list; `has_tag` sees them.
    getter!("tags", |u| strings(
        u.tags.iter().filter(|t| !t.starts_with('_'))
    ));
    getter!("abilities", |u| strings(&u.abilities));
    getter!("label", |u| u.label());
    getter!("groups", |u| {
        let m: Map = u
            .groups
            .iter()
            .map(|(k, v)| (k.into(), v.clone().into()))
            .collect();
        m
    });
    // Private notes (stats starting with `_`) stay out of the map; `stat` reads them.
    getter!("stats", |u| {
        let m: Map = u
            .stats
            .iter()
            .filter(|(k, _)| !k.starts_with('_'))
            .map(|(k, v)| (k.into(), stat_to_dynamic(v)))
            .collect();
        m
    });

    macro_rules! setter {
        ($name:literal, |$s:ident, $i:ident, $v:ident : $t:ty| $body:expr) => {{
            let st = state.clone();
            engine.register_set($name, move |r: &mut UnitRef, $v: $t| -> Res<()> {
                let mut $s = st.borrow_mut();
                let $i = r.0;
                $body.map_err(host_error)
            });
        }};
    }
    setter!("name", |s, i, v: ImmutableString| s.set_name(i, &v));
    setter!("side", |s, i, v: ImmutableString| s.set_side(i, &v));
    setter!("hits", |s, i, v: INT| s.set_hits(i, v));
    setter!("stands", |s, i, v: INT| s.set_stands(i, v));
    setter!("pos", |s, i, v: Point| s.move_unit(i, v));
    {
        let st = state.clone();
        engine.register_set("facing", move |r: &mut UnitRef, v: Dynamic| -> Res<()> {
            let deg = number(&v, "a facing")?;
            st.borrow_mut().face(r.0, deg).map_err(host_error)
        });
    }

    let st = state.clone();
    volatile!(engine, "stat", move |r: &mut UnitRef,
                                    name: &str|
          -> Res<Dynamic> {
        with_unit(&st, *r, |u| {
            u.stat(name).map_or(Dynamic::UNIT, stat_to_dynamic)
        })
    });
    // `u["attack"]` and `u.attack` read a stat; unlike `u.stat("attack")`, a stat the unit
    // lacks is an error, so a misspelt property does not quietly read as `()`.
    let st = state.clone();
    engine.register_indexer_get(move |r: &mut UnitRef, name: &str| -> Res<Dynamic> {
        let s = st.borrow();
        let u = s.unit(r.0).map_err(host_error)?;
        u.stat(name).map(stat_to_dynamic).ok_or_else(|| {
            host_error(format!(
                "`{}` has no stat or property `{name}`{}",
                u.id,
                crate::host::suggest::suggestion_suffix(name, u.stats.keys().map(String::as_str))
            ))
        })
    });
    let st = state.clone();
    volatile!(engine, "has_stat", move |r: &mut UnitRef,
                                        name: &str|
          -> Res<bool> {
        with_unit(&st, *r, |u| u.stats.contains_key(name))
    });
    let st = state.clone();
    volatile!(engine, "set_stat", move |r: &mut UnitRef,
                                        name: &str,
                                        value: Dynamic|
          -> Res<()> {
        let stat = dynamic_to_stat(&value)?;
        st.borrow_mut()
            .set_stat(r.0, name, stat)
            .map_err(host_error)
    });
    let st = state.clone();
    volatile!(engine, "has_tag", move |r: &mut UnitRef,
                                       tag: &str|
          -> Res<bool> {
        with_unit(&st, *r, |u| u.has_tag(tag))
    });
    let st = state.clone();
    volatile!(engine, "tag", move |r: &mut UnitRef,
                                   tag: &str|
          -> Res<()> {
        st.borrow_mut().set_tag(r.0, tag, true).map_err(host_error)
    });
    let st = state.clone();
    volatile!(engine, "untag", move |r: &mut UnitRef,
                                     tag: &str|
          -> Res<()> {
        st.borrow_mut().set_tag(r.0, tag, false).map_err(host_error)
    });
    let st = state.clone();
    volatile!(engine, "untag_all", move |r: &mut UnitRef,
                                         prefix: &str|
          -> Res<()> {
        let mut s = st.borrow_mut();
        let tags: Vec<String> = s
            .unit(r.0)
            .map_err(host_error)?
            .tags
            .iter()
            .filter(|t| t.starts_with(prefix))
            .cloned()
            .collect();
        for t in tags {
            s.set_tag(r.0, &t, false).map_err(host_error)?;
        }
        Ok(())
    });
    let st = state.clone();
    volatile!(engine, "group", move |r: &mut UnitRef,
                                     kind: &str|
          -> Res<Dynamic> {
        with_unit(&st, *r, |u| {
            u.groups
                .get(kind)
                .map_or(Dynamic::UNIT, |g| g.clone().into())
        })
    });
    let st = state.clone();
    volatile!(engine, "comrades", move |r: &mut UnitRef,
                                        kind: &str|
          -> Array {
        unit_array(st.borrow().battlefield.comrades(r.0, kind, false))
    });
    let st = state.clone();
    volatile!(engine, "group_size", move |r: &mut UnitRef,
                                          kind: &str|
          -> INT {
        st.borrow().battlefield.comrades(r.0, kind, true).len() as INT
    });
    let st = state.clone();
    volatile!(engine, "set_group", move |r: &mut UnitRef,
                                         kind: &str,
                                         name: &str|
          -> Res<()> {
        st.borrow_mut()
            .set_group(r.0, kind, Some(name))
            .map_err(host_error)
    });
    let st = state.clone();
    volatile!(engine, "leave_group", move |r: &mut UnitRef,
                                           kind: &str|
          -> Res<()> {
        st.borrow_mut()
            .set_group(r.0, kind, None)
            .map_err(host_error)
    });
    let st = state.clone();
    volatile!(engine, "move_to", move |r: &mut UnitRef,
                                       to: Dynamic|
          -> Res<()> {
        let mut s = st.borrow_mut();
        let to = place(&s, &to)?;
        s.move_unit(r.0, to).map_err(host_error)
    });
    let st = state.clone();
    volatile!(engine, "move_to", move |r: &mut UnitRef,
                                       x: Dynamic,
                                       y: Dynamic|
          -> Res<()> {
        let to = Point::new(number(&x, "x")?, number(&y, "y")?);
        st.borrow_mut().move_unit(r.0, to).map_err(host_error)
    });
    let st = state.clone();
    volatile!(engine, "face", move |r: &mut UnitRef,
                                    deg: Dynamic|
          -> Res<()> {
        let deg = number(&deg, "a facing")?;
        st.borrow_mut().face(r.0, deg).map_err(host_error)
    });
    let st = state.clone();
    volatile!(engine, "face_towards", move |r: &mut UnitRef,
                                            target: Dynamic|
          -> Res<()> {
        let mut s = st.borrow_mut();
        let to = place(&s, &target)?;
        let from = s.unit(r.0).map_err(host_error)?.pos;
        if from == to {
            return Ok(());
        }
        s.face(r.0, from.bearing_to(to)).map_err(host_error)
    });
    let st = state.clone();
    volatile!(engine, "remove", move |r: &mut UnitRef,
                                      reason: &str|
          -> Res<()> {
        st.borrow_mut().remove(r.0, reason).map_err(host_error)
    });
    let st = state.clone();
    volatile!(engine, "restore", move |r: &mut UnitRef| -> Res<()> {
        st.borrow_mut().restore(r.0).map_err(host_error)
    });
    let st = state.clone();
    volatile!(engine, "is_enemy", move |a: &mut UnitRef,
                                        b: UnitRef|
          -> Res<bool> {
        let s = st.borrow();
        Ok(s.unit(a.0).map_err(host_error)?.side != s.unit(b.0).map_err(host_error)?.side)
    });
    let st = state.clone();
    engine.register_fn("to_string", move |r: &mut UnitRef| -> String {
        st.borrow()
            .unit(r.0)
            .map(|u| u.id.clone())
            .unwrap_or_else(|_| "<gone>".into())
    });
    let st = state.clone();
    engine.register_fn("to_debug", move |r: &mut UnitRef| -> String {
        st.borrow()
            .unit(r.0)
            .map(|u| u.label())
            .unwrap_or_else(|_| "<gone>".into())
    });
    engine
        .register_fn("==", |a: UnitRef, b: UnitRef| a == b)
        .register_fn("!=", |a: UnitRef, b: UnitRef| a != b);

    register_new_unit(engine, state, ruleset);
}

fn register_new_unit(engine: &mut Engine, state: &Shared, ruleset: &Ruleset) {
    // `new_unit(id, troop, side, at)` (`spawn` is a Rhai keyword): a new figure of a troop
    // type from the ruleset's chart.
    let st = state.clone();
    let chart = ruleset.clone();
    volatile!(engine, "new_unit", move |id: &str,
                                        troop: &str,
                                        side: &str,
                                        at: Dynamic|
          -> Res<UnitRef> {
        let spec = chart.troop(troop).ok_or_else(|| {
            host_error(format!(
                "unknown troop type `{troop}`{}",
                crate::host::suggest::suggestion_suffix(
                    troop,
                    chart.file.troops.keys().map(String::as_str)
                )
            ))
        })?;
        if id.is_empty() || !id.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
            return Err(host_error(format!("`{id}` is not a usable unit id")));
        }
        let mut s = st.borrow_mut();
        let pos = place(&s, &at)?;
        let unit = Unit {
            id: id.to_string(),
            name: spec.name.clone(),
            side: side.to_string(),
            troop: troop.to_string(),
            pos,
            facing: 0.0,
            base: chart.base_of(spec),
            stats: spec.stats.clone(),
            hits: 0,
            stands: 1,
            tags: Default::default(),
            abilities: spec.abilities.clone(),
            groups: Default::default(),
            in_play: true,
        };
        s.spawn(unit).map(UnitRef).map_err(host_error)
    });
}
