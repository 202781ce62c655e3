//! The host API: every name scripts can call, registered on a session's engine, one module
//! per domain as rhai's own `packages/` are (each domain in [`DOMAINS`]):
//!
//! - [`dice`]: dice rolls;
//! - [`cards`]: playing cards and decks;
//! - [`measure`]: points, distances, bearings, arcs and cones;
//! - [`terrain`]: terrain and line of sight;
//! - [`grid`]: grid areas;
//! - [`units`]: finding units, the unit handle scripts hold, new units;
//! - [`abilities`]: reaching the abilities' hooks, and their uses;
//! - [`game`]: turns, sides, the ruleset's data, and trying a verb;
//! - [`log`]: where scripts' printing goes.
//!
//! Each function is registered with `host!` ([`crate::script::metadata`]), which puts its
//! parameters' names and types and its doc into Rhai's metadata: the reference
//! (`docs/api.md`, made by [`reference`]), `:help` and editors' definitions are generated
//! from there, and a test below holds every registered function to having them.
//!
//! This module keeps what the domains share: the handles scripts hold, host errors and
//! refusals, reading script arguments, and showing a value at the prompt.
//!
//! Every function is registered as volatile, and every change goes through [`GameState`],
//! which logs it.

pub mod abilities;
pub mod cards;
pub mod dice;
pub mod game;
pub mod grid;
pub mod log;
pub mod measure;
pub mod reference;
pub mod terrain;
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

/// What the domains' `register`s are given: the game they act on and the session's
/// sources of abilities, dice and cards.
pub struct Host<'a> {
    /// The game.
    pub state: &'a Shared,
    /// The ruleset (its troop chart and data).
    pub ruleset: &'a Ruleset,
    /// The session's abilities.
    pub abilities: &'a SharedAbilities,
    /// Where manual dice come from.
    pub manual: &'a ManualDice,
    /// Where drawn cards come from.
    pub cards: &'a ManualCards,
    /// The time budget real dice and cards extend.
    pub budget: &'a crate::script::engine::Budget,
}

/// One domain of the API: its name (the reference's `{{api NAME}}`) and its `register`.
pub type Domain = (&'static str, fn(&mut Engine, &Host));

/// Every domain, in the order they are registered.
pub const DOMAINS: [Domain; 9] = [
    ("abilities", |e, h| {
        abilities::register(e, h.state, h.abilities)
    }),
    ("log", |e, h| log::register(e, h.state)),
    ("dice", |e, h| {
        dice::register(e, h.state, h.manual, h.budget)
    }),
    ("cards", |e, h| {
        cards::register(e, h.state, h.cards, h.budget)
    }),
    ("measure", |e, h| measure::register(e, h.state)),
    ("terrain", |e, h| terrain::register(e, h.state)),
    ("grid", |e, h| grid::register(e, h.state)),
    ("units", |e, h| units::register(e, h.state, h.ruleset)),
    ("game", |e, h| game::register(e, h.state, h.ruleset)),
];

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
    let host = Host {
        state,
        ruleset,
        abilities,
        manual,
        cards,
        budget,
    };
    for (_, register) in DOMAINS {
        register(engine, &host);
    }
}

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
    use super::*;
    use crate::game::project::Project;
    use crate::game::scenario::Scenario;
    use crate::script::engine::Budget;
    use crate::script::metadata::{Kind, TYPES, functions, types};

    /// The whole API on a raw engine (with the sandbox's comparers), in the default scenario.
    fn engine() -> Engine {
        let project = Project::at(env!("CARGO_MANIFEST_DIR")).unwrap();
        let scenario = Scenario::load(&project, &project.default_scenario()).unwrap();
        let state: Shared = Rc::new(RefCell::new(GameState::new(&scenario, 1)));
        let mut engine = crate::script::engine::raw();
        crate::script::engine::register_comparers(&mut engine);
        register(
            &mut engine,
            &state,
            &scenario.ruleset,
            &Rc::default(),
            &Rc::default(),
            &Rc::default(),
            &Budget::default(),
        );
        engine
    }

    /// Every name scripts can call is registered with a doc comment and with named
    /// parameters whose types are of the reference's vocabulary, so that the reference,
    /// `:help` and editors' definitions, all made from the metadata, miss nothing.
    #[test]
    fn every_registered_function_has_a_doc_and_named_typed_parameters() {
        let all = functions(&engine());
        assert!(all.len() > 150, "only {} functions registered", all.len());
        let mut wrong = Vec::new();
        for f in &all {
            let sig = f.signature();
            if f.doc.trim().is_empty() {
                wrong.push(format!("`{sig}` has no doc comment"));
            }
            for p in &f.params {
                if p.name == "_" || !p.name.chars().all(|c| c.is_alphanumeric() || c == '_') {
                    wrong.push(format!("`{sig}` has a parameter without a name"));
                }
                if !TYPES.contains(&p.ty.as_str()) {
                    wrong.push(format!(
                        "`{sig}`: `{}` is not a type of the vocabulary",
                        p.ty
                    ));
                }
            }
            if !TYPES.contains(&f.returns.as_str()) {
                wrong.push(format!(
                    "`{sig}` returns `{}`, not a type of the vocabulary",
                    f.returns
                ));
            }
            if f.kind != Kind::Function && f.owner().is_none() {
                wrong.push(format!("`{sig}` belongs to no type"));
            }
        }
        assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    }

    /// Every type scripts see has its doc.
    #[test]
    fn every_type_has_a_doc() {
        let all = types(&engine());
        let names: Vec<&str> = all.iter().map(|t| t.name.as_str()).collect();
        assert_eq!(names, ["Card", "Deck", "Point", "Roll", "Unit"]);
        for t in &all {
            assert!(!t.doc.is_empty(), "`{}` has no doc", t.name);
        }
    }

    /// The metadata keeps a method apart from a function, and types in the vocabulary (not
    /// Rhai's `i64`).
    #[test]
    fn the_metadata_reads_back_as_registered() {
        let all = functions(&engine());
        let find = |sig: &str| all.iter().any(|f| f.signature() == sig);
        for sig in [
            "roll(expr: string) -> Roll",
            "point(x: number, y: number) -> Point",
            "u.stat(name: string) -> any",
            "u.hits -> INT",
            "u.hits = value: INT",
            "u[name: string] -> any",
            "(p: Point) + (q: Point) -> Point",
            "dk.draw(n: INT) -> array",
            "set_turn(turn: INT, side: string) -> ()",
        ] {
            assert!(find(sig), "no `{sig}` among the registered signatures");
        }
    }
}
