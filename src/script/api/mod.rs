//! The host API: every name scripts can call, registered on a session's engine, one module
//! per domain as rhai's own `packages/` are:
//!
//! - [`dice`]: dice rolls;
//! - [`cards`]: playing cards and decks;
//! - [`measure`]: points, distances, arcs, line of sight and terrain;
//! - [`grid`]: grid areas;
//! - [`units`]: finding units, the unit handle scripts hold, new units;
//! - [`abilities`]: reaching the abilities' hooks, and their uses;
//! - [`game`]: turns, sides, the ruleset's data, and trying a verb;
//! - [`log`]: where scripts' printing goes.
//!
//! Each domain's module doc lists every name it registers: that is the one list in code, and
//! a test below holds each list to what its `register` does. `docs/api.md` is the reference
//! for script writers, and a session test checks that it names every registered function.
//!
//! This module keeps what the domains share: the handles scripts hold, host errors and
//! refusals, reading script arguments, and showing a value at the prompt.
//!
//! Every function that reads the game or the generator is registered as volatile (with
//! `volatile!`), and every change goes through [`GameState`], which logs it.

pub mod abilities;
pub mod cards;
pub mod dice;
pub mod game;
pub mod grid;
pub mod log;
pub mod measure;
pub mod units;

use std::cell::RefCell;
use std::rc::Rc;

use rhai::{Array, Dynamic, Engine, EvalAltResult, Position};

use crate::game::ruleset::Ruleset;
use crate::game::state::GameState;
use crate::host::geometry::Point;
use crate::host::unit::{Stat, Unit};

pub use crate::script::value::{
    DeckRef, HostError, Shared, UnitRef, host_error, host_error_with_help, show,
};
pub use cards::{CardSource, MAX_DECK, ManualCards};
pub use dice::{DiceAsker, DiceSource, FaceFeed, ManualDice};

type Res<T> = Result<T, Box<EvalAltResult>>;

/// The session's abilities, shared with the dispatcher functions (filled once the engine
/// that compiles them exists).
pub type SharedAbilities = Rc<RefCell<crate::script::hooks::Abilities>>;

/// Registers the whole host API on `engine`, bound to `state` and `ruleset`.
pub fn register(
    engine: &mut Engine,
    state: &Shared,
    ruleset: &Ruleset,
    abilities: &SharedAbilities,
    manual: &ManualDice,
    cards: &ManualCards,
    budget: &crate::script::engine::Budget,
) {
    abilities::register(engine, state, abilities);
    log::register(engine, state);
    dice::register(engine, state, manual, budget);
    cards::register(engine, state, cards, budget);
    measure::register(engine, state);
    grid::register(engine, state);
    units::register(engine, state, ruleset);
    game::register(engine, state, ruleset);
}

/// Registers a function that must run at every call: the optimiser never folds it into a
/// constant.
macro_rules! volatile {
    ($engine:expr, $name:expr, $f:expr) => {
        rhai::FuncRegistration::new($name)
            .in_global_namespace()
            .with_volatility(true)
            .register_into_engine($engine, $f);
    };
}
use volatile;

/// A number from a script, INT or FLOAT.
pub fn number(v: &Dynamic, what: &str) -> Res<f64> {
    if let Ok(i) = v.as_int() {
        return Ok(i as f64);
    }
    if let Ok(f) = v.as_float() {
        if f.is_finite() {
            return Ok(f);
        }
        return Err(host_error(format!("{what} must be a finite number")));
    }
    Err(host_error(format!(
        "{what} must be a number, not {}",
        v.type_name()
    )))
}

/// A unit's stat as a script value.
fn stat_to_dynamic(s: &Stat) -> Dynamic {
    match s {
        Stat::Bool(b) => Dynamic::from_bool(*b),
        Stat::Int(i) => Dynamic::from_int(*i),
        Stat::Float(f) => Dynamic::from_float(*f),
        Stat::Text(t) => Dynamic::from(t.clone()),
        Stat::List(items) => Dynamic::from_array(items.iter().map(stat_to_dynamic).collect()),
    }
}

/// Strings as a script array.
fn strings<'a>(items: impl IntoIterator<Item = &'a String>) -> Array {
    items
        .into_iter()
        .map(|s| Dynamic::from(s.clone()))
        .collect()
}

/// Units, by index, as a script array of handles.
fn unit_array(idx: impl IntoIterator<Item = usize>) -> Array {
    idx.into_iter().map(|i| Dynamic::from(UnitRef(i))).collect()
}

/// Where a script argument stands: a point, a unit, or `[x, y]`.
fn place(state: &GameState, v: &Dynamic) -> Res<Point> {
    if let Some(p) = v.read_lock::<Point>() {
        return Ok(*p);
    }
    if let Some(u) = v.read_lock::<UnitRef>() {
        return Ok(state.unit(u.0).map_err(host_error)?.pos);
    }
    if let Some(a) = v.read_lock::<Array>()
        && a.len() == 2
    {
        return Ok(Point::new(number(&a[0], "x")?, number(&a[1], "y")?));
    }
    Err(host_error(format!(
        "expected a point or a unit, not {}",
        v.type_name()
    )))
}

/// `f` of the unit a handle names, or a host error when it names none.
fn with_unit<T>(st: &Shared, u: UnitRef, f: impl FnOnce(&Unit) -> T) -> Res<T> {
    let s = st.borrow();
    Ok(f(s.unit(u.0).map_err(host_error)?))
}

/// A refusal by the rules, shown to the player as a plain message (like `throw`).
fn refusal(message: String) -> Box<EvalAltResult> {
    EvalAltResult::ErrorRuntime(message.into(), Position::NONE).into()
}

/// Whether an error is the rules refusing (a `throw`, however deep in calls), not a bug.
fn is_refusal(e: &EvalAltResult) -> bool {
    match e {
        EvalAltResult::ErrorRuntime(v, _) => !v.is::<HostError>(),
        EvalAltResult::ErrorInFunctionCall(_, _, inner, _) => is_refusal(inner),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::*;
    use crate::game::project::Project;
    use crate::game::scenario::Scenario;
    use crate::script::engine::Budget;

    /// What a domain's `register` needs.
    struct Fixture {
        state: Shared,
        ruleset: Ruleset,
        abilities: SharedAbilities,
        manual: ManualDice,
        cards: ManualCards,
        budget: Budget,
    }

    fn fixture() -> Fixture {
        let project = Project::at(env!("CARGO_MANIFEST_DIR")).unwrap();
        let scenario = Scenario::load(&project, &project.default_scenario()).unwrap();
        Fixture {
            state: Rc::new(RefCell::new(GameState::new(&scenario, 1))),
            ruleset: scenario.ruleset,
            abilities: Rc::default(),
            manual: Rc::default(),
            cards: Rc::default(),
            budget: Budget::default(),
        }
    }

    /// Each domain: its file's text (whose module doc is its list) and its `register`.
    type Domain = (&'static str, &'static str, fn(&mut Engine, &Fixture));

    fn domains() -> [Domain; 8] {
        [
            ("abilities.rs", include_str!("abilities.rs"), |e, f| {
                abilities::register(e, &f.state, &f.abilities)
            }),
            ("cards.rs", include_str!("cards.rs"), |e, f| {
                cards::register(e, &f.state, &f.cards, &f.budget)
            }),
            ("dice.rs", include_str!("dice.rs"), |e, f| {
                dice::register(e, &f.state, &f.manual, &f.budget)
            }),
            ("game.rs", include_str!("game.rs"), |e, f| {
                game::register(e, &f.state, &f.ruleset)
            }),
            ("grid.rs", include_str!("grid.rs"), |e, f| {
                grid::register(e, &f.state)
            }),
            ("log.rs", include_str!("log.rs"), |e, f| {
                log::register(e, &f.state)
            }),
            ("measure.rs", include_str!("measure.rs"), |e, f| {
                measure::register(e, &f.state)
            }),
            ("units.rs", include_str!("units.rs"), |e, f| {
                units::register(e, &f.state, &f.ruleset)
            }),
        ]
    }

    /// Rhai's own functions that the host routes rather than registers.
    const ROUTED: [&str; 2] = ["print", "debug"];

    /// The name of each function an engine has, as a module doc lists it: a property by its
    /// name, an operator as itself, the indexer as `u[name]`.
    fn registered(engine: &Engine) -> BTreeSet<String> {
        engine
            .gen_fn_signatures(false)
            .iter()
            .map(|sig| {
                let name = sig.split('(').next().unwrap_or_default();
                let name = name.trim_start_matches("fn ");
                if name.starts_with("index$") {
                    return "u[name]".to_string();
                }
                let name = name.trim_start_matches("get$").trim_start_matches("set$");
                name.to_string()
            })
            .collect()
    }

    /// The names a module doc lists after `Registers:`, each as written between backticks,
    /// without its arguments.
    fn listed(source: &str) -> BTreeSet<String> {
        let doc: Vec<&str> = source
            .lines()
            .map_while(|l| l.strip_prefix("//!"))
            .skip_while(|l| l.trim() != "Registers:")
            .collect();
        let doc = doc.join(" ");
        doc.split('`')
            .skip(1)
            .step_by(2)
            .map(|span| {
                let ident = span.split('(').next().unwrap_or_default();
                if ident.chars().all(|c| c.is_alphanumeric() || c == '_') {
                    ident.to_string()
                } else {
                    span.to_string()
                }
            })
            .collect()
    }

    /// A name as it is called: a lowercase identifier (not a type, operator or indexer).
    fn is_function(name: &str) -> bool {
        name.starts_with(|c: char| c.is_ascii_lowercase() || c == '_')
            && name.chars().all(|c| c.is_alphanumeric() || c == '_')
    }

    /// Each domain's module doc lists exactly the names its `register` gives scripts, so it
    /// can be the one list of them in code.
    #[test]
    fn each_domain_doc_lists_what_it_registers() {
        let f = fixture();
        let mut wrong = Vec::new();
        for (file, source, register) in domains() {
            let mut engine = Engine::new_raw();
            register(&mut engine, &f);
            let has = registered(&engine);
            let list = listed(source);
            for name in has.difference(&list) {
                wrong.push(format!(
                    "{file} registers `{name}` but its doc does not list it"
                ));
            }
            let routed = |name: &str| file == "log.rs" && ROUTED.contains(&name);
            for name in list.iter().filter(|n| is_function(n)) {
                if !has.contains(name) && !routed(name) {
                    wrong.push(format!("{file} lists `{name}` but does not register it"));
                }
            }
        }
        assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    }

    /// The domains registered one by one give all that `register` does, so the test above
    /// sees every name. (Signatures are compared by count: their text names a type as its
    /// domain registers it, which another domain alone does not.)
    #[test]
    fn register_is_the_domains_together() {
        let f = fixture();
        let (mut names, mut count) = (BTreeSet::new(), 0);
        for (_, _, register) in domains() {
            let mut engine = Engine::new_raw();
            register(&mut engine, &f);
            names.extend(registered(&engine));
            count += engine.gen_fn_signatures(false).len();
        }
        let mut engine = Engine::new_raw();
        super::register(
            &mut engine,
            &f.state,
            &f.ruleset,
            &f.abilities,
            &f.manual,
            &f.cards,
            &f.budget,
        );
        assert_eq!(registered(&engine), names);
        assert_eq!(engine.gen_fn_signatures(false).len(), count);
    }
}
