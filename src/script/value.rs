//! The values the host and the scripts pass each other, below the host API and the hook
//! dispatcher so that both can use them: the shared game state, handles on units and
//! decks, host errors, and how the prompt shows a value.

use std::cell::RefCell;
use std::rc::Rc;

use rhai::{Array, Dynamic, EvalAltResult, ImmutableString, Map, Position};

use crate::game::state::GameState;
use crate::host::cards::Card;
use crate::host::dice::Roll;
use crate::host::geometry::Point;
use crate::host::unit::Unit;

/// The game state shared between the session and the functions registered on its engine.
pub type Shared = Rc<RefCell<GameState>>;

/// A handle on a unit of the game; scripts see it as `Unit`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UnitRef(pub usize);

/// A handle on one of the game's decks; scripts see it as `Deck`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeckRef(pub ImmutableString);

/// An error raised by a host function: a script bug (a bad argument, a missing deck), as
/// opposed to a rule refusing an action with `throw`.
#[derive(Clone, Debug)]
pub struct HostError {
    /// What went wrong.
    pub message: String,
    /// How to fix it, where known.
    pub help: Option<String>,
}

impl HostError {
    /// An error without a hint.
    pub fn new(message: impl Into<String>) -> Self {
        HostError {
            message: message.into(),
            help: None,
        }
    }
}

/// Builds a host error value for Rhai.
pub fn host_error(message: impl Into<String>) -> Box<EvalAltResult> {
    EvalAltResult::ErrorRuntime(Dynamic::from(HostError::new(message)), Position::NONE).into()
}

/// Builds a host error value with a hint.
pub fn host_error_with_help(
    message: impl Into<String>,
    help: Option<String>,
) -> Box<EvalAltResult> {
    let e = HostError {
        message: message.into(),
        help,
    };
    EvalAltResult::ErrorRuntime(Dynamic::from(e), Position::NONE).into()
}

/// A script value as the prompt shows it: host values as their players read them (`Dynamic`'s
/// own display would show Rust type names), arrays and maps item by item.
pub fn show(state: &GameState, v: &Dynamic) -> String {
    show_depth(state, v, 0)
}

fn show_depth(state: &GameState, v: &Dynamic, depth: usize) -> String {
    if depth > 16 {
        return "...".into();
    }
    if let Some(u) = v.read_lock::<UnitRef>() {
        return state
            .unit(u.0)
            .map_or_else(|_| "<gone>".into(), Unit::label);
    }
    if let Some(r) = v.read_lock::<Roll>() {
        return format!("{}: {}", r.expr, *r);
    }
    if let Some(p) = v.read_lock::<Point>() {
        return p.to_string();
    }
    if let Some(c) = v.read_lock::<Card>() {
        return c.to_string();
    }
    if let Some(d) = v.read_lock::<DeckRef>() {
        return format!("deck {}", d.0);
    }
    if let Some(s) = v.read_lock::<ImmutableString>() {
        return format!("{:?}", s.as_str());
    }
    if let Some(a) = v.read_lock::<Array>() {
        let items: Vec<String> = a.iter().map(|x| show_depth(state, x, depth + 1)).collect();
        return format!("[{}]", items.join(", "));
    }
    if v.is_unit() {
        return "()".into();
    }
    if let Some(m) = v.read_lock::<Map>() {
        let items: Vec<String> = m
            .iter()
            .map(|(k, x)| format!("{k}: {}", show_depth(state, x, depth + 1)))
            .collect();
        return format!("#{{{}}}", items.join(", "));
    }
    v.to_string()
}
