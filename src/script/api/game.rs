//! The game: turns, sides, the ruleset's data, lines for the log, and trying a verb.

use rhai::{Array, Dynamic, Engine, FLOAT, INT, ImmutableString, Map, NativeCallContext};

use super::{Res, Shared, host_error, is_refusal, stat_to_dynamic, strings};
use crate::game::ruleset::Ruleset;
use crate::game::scenario::Edge;
use crate::host::geometry::normalize_degrees;
use crate::script::metadata::host;

/// Registers the game functions, the sides and `attempt`.
pub(super) fn register(engine: &mut Engine, state: &Shared, ruleset: &Ruleset) {
    register_attempt(engine, state);
    register_sides(engine, state);
    register_words(engine);

    let st = state.clone();
    host!(engine,
        /// The turn number, 0 before the first turn. When the scenario names a side `first`, the
        /// game starts with turn 1 and that side to play; otherwise the ruleset's `setup` hook
        /// decides.
        ///
        /// ```rhai
        /// print(`${turn()} ${active_side()} ${first_side()}`);
        /// set_turn(turn() + 1, "romans");
        /// print(`${turn()} ${active_side()} ${first_side()}`);
        /// ```
        ///
        /// prints:
        ///
        /// ```text
        /// 1 vikings vikings
        /// turn 2: romans to play
        /// 2 romans vikings
        /// ```
        fn turn() -> INT,
        move || -> INT { st.borrow().turn }
    );
    let st = state.clone();
    host!(engine,
        /// The id of the side to play.
        fn active_side() -> string,
        move || -> String {
            st.borrow().active_side.clone()
        }
    );
    let st = state.clone();
    host!(engine,
        /// The side that played first: the side of the first `set_turn` of the game (or the active
        /// side when there has been none).
        fn first_side() -> string,
        move || -> String {
            let s = st.borrow();
            s.first_side
                .clone()
                .unwrap_or_else(|| s.active_side.clone())
        }
    );
    let st = state.clone();
    host!(engine,
        /// Sets the turn number and the side to play, and logs `turn 2: romans to play`, even when
        /// nothing changes. Raises ``unknown side `ID` ``. In `battle` and `sim`, `end_turn` must
        /// call `set_turn` or `set_phase` to say who plays next (see [writing a
        /// ruleset](writing-a-ruleset.md)).
        fn set_turn(turn: INT, side: string) -> (),
        move |turn: INT, side: &str| -> Res<()> {
            st.borrow_mut().set_turn(turn, side).map_err(host_error)
        }
    );
    let st = state.clone();
    host!(engine,
        /// The phase of the turn the rules are in, `""` before any: the host keeps it, saves it and
        /// undoes it, and the prompt shows it (`turn 1 · shooting · british > `); what the phases
        /// are and their order is the ruleset's. A ruleset may give its phases names for the table
        /// in `ruleset.yaml` (`phases: { move_men: men move }`): the prompt and the log then show
        /// the name (`phase: men move`), while `phase()` gives the id.
        ///
        /// ```rhai
        /// print(`[${phase()}]`);
        /// set_phase("movement");
        /// print(`turn ${turn()}, ${phase()}, ${active_side()} to play`);
        /// ```
        ///
        /// prints:
        ///
        /// ```text
        /// []
        /// phase: movement
        /// turn 1, movement, vikings to play
        /// ```
        fn phase() -> string,
        move || -> String {
            st.borrow().phase.clone()
        }
    );
    let st = state.clone();
    host!(engine,
        /// Sets the phase and logs `phase: shooting` (`phase: (none)` for `""`), even when nothing
        /// changes; it leaves the turn and the side to play as they are. Raises `a name has at most
        /// 200 characters`.
        fn set_phase(name: string) -> (),
        move |name: &str| -> Res<()> {
            st.borrow_mut().set_phase(name).map_err(host_error)
        }
    );
    let st = state.clone();
    host!(engine,
        /// A fact of the whole game rather than of one unit (which colour each side chose, which
        /// side moves first in this phase, a side's losses so far): a bool, `INT`, `FLOAT` or
        /// string, or `()` for a stat the game does not have. Game stats take the same values as a
        /// unit's stats (a bool, a finite number from -1,000,000,000 to 1,000,000,000, or a string;
        /// a name of at most 200 characters) and are saved, undone with the action and checked when
        /// a save is opened, like a unit's. A name starting with `_` is a private note, as for a
        /// unit's stat: kept, saved and undone, but not narrated.
        ///
        /// ```rhai
        /// print(type_of(game_stat("first_to_move")));
        /// set_game_stat("first_to_move", "vikings");
        /// set_game_stat("losses_romans", 2);
        /// set_game_stat("_drawn_this_phase", true);
        /// print(has_game_stat("losses_romans"));
        /// print(game_stat("first_to_move"));
        /// set_game_stat("first_to_move", ());
        /// print(has_game_stat("first_to_move"));
        /// ```
        ///
        /// prints:
        ///
        /// ```text
        /// ()
        ///   game first_to_move: none -> vikings
        ///   game losses_romans: none -> 2
        /// true
        /// vikings
        ///   game first_to_move: vikings -> none
        /// false
        /// ```
        fn game_stat(name: string) -> any,
        move |name: &str| -> Dynamic {
            st.borrow()
                .game_stats
                .get(name)
                .map_or(Dynamic::UNIT, stat_to_dynamic)
        }
    );
    let st = state.clone();
    host!(engine,
        /// Whether the game has a stat of that name.
        fn has_game_stat(name: string) -> bool,
        move |name: &str| -> bool {
            st.borrow().game_stats.contains_key(name)
        }
    );
    let st = state.clone();
    host!(engine,
        /// Sets a game stat to a bool, number or string, or removes it with `()`. Logs `game
        /// losses_british: 2 -> 3` (`none -> ...` for a new stat, `... -> none` when `()` removes
        /// it); setting a stat to what it is logs nothing, and so does a private one (`_`). Raises
        /// `a game stat must be a bool, number, string or () to remove it, not array`, ``stat
        /// `NAME` must be a finite number``, and `a name has at most 200 characters`.
        fn set_game_stat(name: string, value: any) -> (),
        move |name: &str, value: Dynamic| -> Res<()> {
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
        }
    );
    let st = state.clone();
    host!(engine,
        /// Narrates: the text goes to the log as it is. Rules use it to tell the players what
        /// happened. A line keeps at most 65,536 characters: a longer one is cut there and ends
        /// with `…`.
        ///
        /// ```rhai
        /// say("The horns sound.");
        /// ```
        ///
        /// prints:
        ///
        /// ```text
        /// The horns sound.
        /// ```
        fn say(text: string) -> (),
        move |text: &str| {
            st.borrow_mut().say(text)
        }
    );
    let st = state.clone();
    host!(engine,
        /// The seed of this game, as printed on the first line of every run. Seeds run from 0 to
        /// 9223372036854775807 (the largest `INT`), so `seed()` is never negative; `--seed` refuses
        /// a larger number.
        fn seed() -> INT,
        move || -> INT {
            st.borrow().rng.seed() as INT
        }
    );

    let data = rhai::serde::to_dynamic(&ruleset.file.data).unwrap_or(Dynamic::UNIT);
    let whole = data.clone();
    host!(engine,
        /// The `data:` table of the ruleset's `ruleset.yaml`: the numbers its rules use, kept where
        /// a house-ruler can change them. A copy: changing the map changes nothing in the game.
        /// Reading a key a map lacks with `.` raises ``the map has no property `KEY` ``.
        ///
        /// ```rhai
        /// print(data().len() > 5);
        /// print(data().rear_beyond);
        /// ```
        ///
        /// prints:
        ///
        /// ```text
        /// true
        /// 90
        /// ```
        fn data() -> map,
        move || -> Dynamic { whole.clone() }
    );
    host!(engine,
        /// One entry of the ruleset's `data:` table, a copy. Raises ``the ruleset's data has no
        /// `KEY` `` when there is none. Rules should read their numbers this way, so that a house
        /// rule can change one of them (see [house rules](house-rules.md#changing-numbers)).
        ///
        /// ```rhai
        /// print(data("melee_reach"));
        /// print(data("victory"));
        /// ```
        ///
        /// prints:
        ///
        /// ```text
        /// 2
        /// #{"broken_at": 0.6667, "max_turns": 15}
        /// ```
        fn data(key: string) -> any,
        move |key: &str| -> Res<Dynamic> {
            data.read_lock::<Map>()
                .and_then(|m| m.get(key).cloned())
                .ok_or_else(|| host_error(format!("the ruleset's data has no `{key}`")))
        }
    );
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
    host!(engine,
        /// One troop type of the ruleset's troop chart: its stats plus its `name`, a copy. Raises
        /// ``unknown troop type `TYPE` `` with a did-you-mean.
        ///
        /// ```rhai
        /// print(troop("heavy_infantry"));
        /// print(troop("light_cavalry").move);
        /// ```
        ///
        /// prints:
        ///
        /// ```text
        /// #{"attack": 1, "class": "infantry", "defend": 2, "move": 6, "name": "Heavy infantry", "shield": true}
        /// 18
        /// ```
        fn troop(name: string) -> map,
        move |name: &str| -> Res<Dynamic> {
            troops.get(name).cloned().ok_or_else(|| {
                host_error(format!(
                    "unknown troop type `{name}`{}",
                    crate::host::suggest::suggestion_suffix(name, troops.keys().map(String::as_str))
                ))
            })
        }
    );
}

fn register_attempt(engine: &mut Engine, state: &Shared) {
    // `attempt(verb, args)`: for policies. Runs a verb; if the rules refuse, undoes whatever
    // it had changed and answers false. Bugs and sandbox limits still stop everything.
    let st = state.clone();
    host!(engine,
        /// Runs a script function (a verb) with the arguments and answers `true`; when the rules
        /// refuse (a `throw` anywhere inside), undoes everything the call changed (game, dice, log)
        /// and answers `false`. Other errors (a script bug, a sandbox limit) still stop the action.
        /// Policies use it to try actions without ever breaking a rule:
        ///
        /// ```rhai
        /// if !attempt("melee", [unit("viking_1"), unit("legionary_3")]) {
        ///     print("out of reach: nothing changed");
        /// }
        /// ```
        ///
        /// prints:
        ///
        /// ```text
        /// out of reach: nothing changed
        /// ```
        fn attempt(verb: string, args: array) -> bool,
        move |ctx: NativeCallContext, verb: &str, args: Array| -> Res<bool> {
            let mark = st.borrow().mark();
            match ctx.call_fn::<Dynamic>(verb, args) {
                Ok(_) => Ok(true),
                Err(e) if is_refusal(&e) => {
                    st.borrow_mut().rollback(mark);
                    Ok(false)
                }
                Err(e) => Err(e),
            }
        }
    );
}

fn register_sides(engine: &mut Engine, state: &Shared) {
    let st = state.clone();
    host!(engine,
        /// The side ids, in the scenario's order, as an array of strings.
        ///
        /// ```rhai
        /// print(sides());
        /// print(side_name("romans"));
        /// ```
        ///
        /// prints:
        ///
        /// ```text
        /// ["romans", "vikings"]
        /// Rome
        /// ```
        fn sides() -> array,
        move || -> Array {
            strings(st.borrow().sides.iter().map(|s| &s.id))
        }
    );
    let st = state.clone();
    host!(engine,
        /// A side's display name: `side_name("romans")` is `"Rome"`. Raises ``unknown side `ID` ``.
        fn side_name(id: string) -> string,
        move |id: &str| -> Res<String> {
            let s = st.borrow();
            s.sides
                .iter()
                .find(|side| side.id == id)
                .map(|side| side.name.clone())
                .ok_or_else(|| host_error(format!("unknown side `{id}`")))
        }
    );
    let st = state.clone();
    host!(engine,
        /// The table edge a side set up on: `"north"`, `"south"`, `"east"` or `"west"` (routing
        /// figures run for it). Raises ``unknown side `ID` ``.
        fn side_edge(id: string) -> string,
        move |id: &str| -> Res<String> {
            let s = st.borrow();
            s.sides
                .iter()
                .find(|side| side.id == id)
                .map(|side| format!("{:?}", side.edge).to_lowercase())
                .ok_or_else(|| host_error(format!("unknown side `{id}`")))
        }
    );
    let edge_of = |st: &Shared, id: &str| -> Res<Edge> {
        st.borrow()
            .sides
            .iter()
            .find(|side| side.id == id)
            .map(|side| side.edge)
            .ok_or_else(|| host_error(format!("unknown side `{id}`")))
    };
    let st = state.clone();
    host!(engine,
        /// The bearing straight towards a side's own edge: `180.0` for a side on the south
        /// edge, the way its routing figures run. Raises ``unknown side `ID` ``.
        ///
        /// ```rhai
        /// print(`${bearing_to_edge("romans")} ${bearing_from_edge("romans")}`);
        /// ```
        ///
        /// prints:
        ///
        /// ```text
        /// 180.0 0.0
        /// ```
        fn bearing_to_edge(id: string) -> FLOAT,
        move |id: &str| -> Res<FLOAT> { Ok(edge_of(&st, id)?.bearing()) }
    );
    let st = state.clone();
    host!(engine,
        /// The bearing straight away from a side's own edge, towards the far one: the way a
        /// side set up on that edge faces the enemy. Raises ``unknown side `ID` ``.
        fn bearing_from_edge(id: string) -> FLOAT,
        move |id: &str| -> Res<FLOAT> {
            Ok(normalize_degrees(edge_of(&st, id)?.bearing() + 180.0))
        }
    );
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
    host!(engine,
        /// A list in words for a message: commas between the items and `and` before the last
        /// one. An item shows as `` `${item}` `` shows it: a unit as its id, a string as it is.
        /// `""` for an empty list.
        ///
        /// ```rhai
        /// let men = [unit("jarl"), unit("viking_1"), unit("viking_2")];
        /// say(`${names(men)} charge`);
        /// say(names(["testudo"]));
        /// ```
        ///
        /// prints:
        ///
        /// ```text
        /// jarl, viking_1 and viking_2 charge
        /// testudo
        /// ```
        fn names(list: array) -> string,
        move |ctx: NativeCallContext, list: Array| -> String {
            in_words(&texts(&ctx, &list), "and")
        }
    );
    host!(engine,
        /// A list in words, as `names(list)`, with `last` (`or`, say) before the last item.
        ///
        /// ```rhai
        /// say(`move, run ${names(["hold", "fire"], "or")}`);
        /// ```
        ///
        /// prints:
        ///
        /// ```text
        /// move, run hold or fire
        /// ```
        fn names(list: array, last: string) -> string,
        move |ctx: NativeCallContext, list: Array, last: &str| -> String {
            in_words(&texts(&ctx, &list), last)
        }
    );
    host!(engine,
        /// The items of a list with `sep` between every two, each as `` `${item}` `` shows it.
        ///
        /// ```rhai
        /// say(join([unit("jarl"), unit("viking_1"), unit("viking_2")], ", "));
        /// ```
        ///
        /// prints:
        ///
        /// ```text
        /// jarl, viking_1, viking_2
        /// ```
        fn join(list: array, sep: string) -> string,
        move |ctx: NativeCallContext, list: Array, sep: &str| -> String {
            texts(&ctx, &list).join(sep)
        }
    );
}

#[cfg(test)]
mod words_tests {
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
