//! The game: turns, sides, the ruleset's data, lines for the log, and trying a verb.
//!
//! Registers:
//!
//! - `turn()`, `active_side()`, `first_side()` and `set_turn(turn, side)`;
//! - `phase()` and `set_phase(name)`: the phase of the turn;
//! - `game_stat(name)`, `has_game_stat(name)` and `set_game_stat(name, value)`: facts of the
//!   whole game the rules keep (`()` removes one);
//! - `sides()`, `side_name(id)`, `side_edge(id)`, `bearing_to_edge(id)` and
//!   `bearing_from_edge(id)`;
//! - `say(text)`, `names(list)`, `names(list, last)`, `join(list, sep)` and `seed()`;
//! - `data()`, `data(key)` and `troop(name)`: the ruleset's data and troop chart;
//! - `attempt(verb, args)`: runs a verb, undoing it when the rules refuse.

use rhai::{Array, Dynamic, Engine, FLOAT, INT, ImmutableString, Map, NativeCallContext};

use super::{Res, Shared, host_error, is_refusal, stat_to_dynamic, strings, volatile};
use crate::game::ruleset::Ruleset;
use crate::game::scenario::Edge;
use crate::host::geometry::normalize_degrees;

/// Registers the game functions, the sides and `attempt`.
pub(super) fn register(engine: &mut Engine, state: &Shared, ruleset: &Ruleset) {
    register_attempt(engine, state);
    register_sides(engine, state);

    let st = state.clone();
    volatile!(engine, "turn", move || -> INT { st.borrow().turn });
    let st = state.clone();
    volatile!(engine, "active_side", move || -> String {
        st.borrow().active_side.clone()
    });
    let st = state.clone();
    volatile!(engine, "first_side", move || -> String {
        let s = st.borrow();
        s.first_side
            .clone()
            .unwrap_or_else(|| s.active_side.clone())
    });
    let st = state.clone();
    volatile!(engine, "set_turn", move |turn: INT,
                                        side: &str|
          -> Res<()> {
        st.borrow_mut().set_turn(turn, side).map_err(host_error)
    });
    let st = state.clone();
    volatile!(engine, "phase", move || -> String {
        st.borrow().phase.clone()
    });
    let st = state.clone();
    volatile!(engine, "set_phase", move |name: &str| -> Res<()> {
        st.borrow_mut().set_phase(name).map_err(host_error)
    });
    let st = state.clone();
    volatile!(engine, "game_stat", move |name: &str| -> Dynamic {
        st.borrow()
            .game_stats
            .get(name)
            .map_or(Dynamic::UNIT, stat_to_dynamic)
    });
    let st = state.clone();
    volatile!(engine, "has_game_stat", move |name: &str| -> bool {
        st.borrow().game_stats.contains_key(name)
    });
    let st = state.clone();
    volatile!(engine, "set_game_stat", move |name: &str,
                                             value: Dynamic|
          -> Res<()> {
        let stat = if value.is_unit() {
            None
        } else {
            Some(super::units::dynamic_to_stat(&value).map_err(|_| {
                host_error(format!(
                    "a game stat must be a bool, number, string or () to remove it, not {}",
                    value.type_name()
                ))
            })?)
        };
        st.borrow_mut()
            .set_game_stat(name, stat)
            .map_err(host_error)
    });
    let st = state.clone();
    volatile!(engine, "say", move |text: &str| {
        st.borrow_mut().say(text)
    });
    register_words(engine);
    let st = state.clone();
    volatile!(engine, "seed", move || -> INT {
        st.borrow().rng.seed() as INT
    });

    let data = rhai::serde::to_dynamic(&ruleset.file.data).unwrap_or(Dynamic::UNIT);
    let whole = data.clone();
    volatile!(engine, "data", move || -> Dynamic { whole.clone() });
    volatile!(engine, "data", move |key: &str| -> Res<Dynamic> {
        data.read_lock::<Map>()
            .and_then(|m| m.get(key).cloned())
            .ok_or_else(|| host_error(format!("the ruleset's data has no `{key}`")))
    });
    let troops: std::collections::BTreeMap<String, Dynamic> = ruleset
        .file
        .troops
        .iter()
        .map(|(k, t)| {
            let mut m: Map = t
                .stats
                .iter()
                .map(|(k, v)| (k.into(), stat_to_dynamic(v)))
                .collect();
            m.insert("name".into(), t.name.clone().into());
            (k.clone(), m.into())
        })
        .collect();
    volatile!(engine, "troop", move |name: &str| -> Res<Dynamic> {
        troops.get(name).cloned().ok_or_else(|| {
            host_error(format!(
                "unknown troop type `{name}`{}",
                crate::host::suggest::suggestion_suffix(name, troops.keys().map(String::as_str))
            ))
        })
    });
}

fn register_attempt(engine: &mut Engine, state: &Shared) {
    // `attempt(verb, args)`: for policies. Runs a verb; if the rules refuse, undoes whatever
    // it had changed and answers false. Bugs and sandbox limits still stop everything.
    let st = state.clone();
    volatile!(engine, "attempt", move |ctx: NativeCallContext,
                                       verb: &str,
                                       args: Array|
          -> Res<bool> {
        let mark = st.borrow().mark();
        match ctx.call_fn::<Dynamic>(verb, args) {
            Ok(_) => Ok(true),
            Err(e) if is_refusal(&e) => {
                st.borrow_mut().rollback(mark);
                Ok(false)
            }
            Err(e) => Err(e),
        }
    });
}

/// An item of a list as a message shows it: a string as it is, anything else as
/// `` `${item}` `` writes it (a unit as its id).
fn item_text(ctx: &NativeCallContext, item: &Dynamic) -> String {
    if let Some(s) = item.read_lock::<ImmutableString>() {
        return s.to_string();
    }
    ctx.call_fn::<ImmutableString>("to_string", (item.clone(),))
        .map(|s| s.to_string())
        .unwrap_or_else(|_| item.to_string())
}

/// Items in words, "a, b and c", with `last` (and, or) before the last one.
fn in_words(items: &[String], last: &str) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., end] => format!("{} {last} {end}", init.join(", ")),
    }
}

/// `names` and `join`: lists of units, words or numbers, in words for a message.
fn register_words(engine: &mut Engine) {
    let texts = |ctx: &NativeCallContext, list: &Array| -> Vec<String> {
        list.iter().map(|item| item_text(ctx, item)).collect()
    };
    volatile!(engine, "names", move |ctx: NativeCallContext,
                                     list: Array|
          -> String {
        in_words(&texts(&ctx, &list), "and")
    });
    volatile!(engine, "names", move |ctx: NativeCallContext,
                                     list: Array,
                                     last: &str|
          -> String {
        in_words(&texts(&ctx, &list), last)
    });
    volatile!(engine, "join", move |ctx: NativeCallContext,
                                    list: Array,
                                    sep: &str|
          -> String {
        texts(&ctx, &list).join(sep)
    });
}

fn register_sides(engine: &mut Engine, state: &Shared) {
    let st = state.clone();
    volatile!(engine, "sides", move || -> Array {
        strings(st.borrow().sides.iter().map(|s| &s.id))
    });
    let st = state.clone();
    volatile!(engine, "side_name", move |id: &str| -> Res<String> {
        let s = st.borrow();
        s.sides
            .iter()
            .find(|side| side.id == id)
            .map(|side| side.name.clone())
            .ok_or_else(|| host_error(format!("unknown side `{id}`")))
    });
    let st = state.clone();
    volatile!(engine, "side_edge", move |id: &str| -> Res<String> {
        let s = st.borrow();
        s.sides
            .iter()
            .find(|side| side.id == id)
            .map(|side| format!("{:?}", side.edge).to_lowercase())
            .ok_or_else(|| host_error(format!("unknown side `{id}`")))
    });
    let edge_of = |st: &Shared, id: &str| -> Res<Edge> {
        st.borrow()
            .sides
            .iter()
            .find(|side| side.id == id)
            .map(|side| side.edge)
            .ok_or_else(|| host_error(format!("unknown side `{id}`")))
    };
    let st = state.clone();
    volatile!(engine, "bearing_to_edge", move |id: &str| -> Res<FLOAT> {
        Ok(edge_of(&st, id)?.bearing())
    });
    let st = state.clone();
    volatile!(engine, "bearing_from_edge", move |id: &str| -> Res<FLOAT> {
        Ok(normalize_degrees(edge_of(&st, id)?.bearing() + 180.0))
    });
}

#[cfg(test)]
mod tests {
    use super::in_words;

    fn words(items: &[&str], last: &str) -> String {
        let items: Vec<String> = items.iter().map(|s| s.to_string()).collect();
        in_words(&items, last)
    }

    #[test]
    fn a_list_in_words_puts_the_last_word_before_the_last_item() {
        assert_eq!(words(&[], "and"), "");
        assert_eq!(words(&["a"], "and"), "a");
        assert_eq!(words(&["a", "b"], "and"), "a and b");
        assert_eq!(words(&["a", "b", "c"], "and"), "a, b and c");
        assert_eq!(words(&["a", "b", "c"], "or"), "a, b or c");
    }
}
