//! The host API: every name scripts can call, registered on a session's engine.
//!
//! Scripts see these types (custom types with getters, setters and methods):
//! `Unit` (a handle on a unit of this game), `Roll`, `Card`, `Deck` (a handle on one of the
//! game's decks) and `Point`; and these functions, grouped as in `docs/api.md`:
//!
//! - dice: `roll`, `d`;
//! - cards: `card`, `deck`, `new_deck`, and the `Deck` and `Card` methods;
//! - measurement: `ft`, `point`, `distance`, `edge_distance`, `in_contact`, `bearing`,
//!   `angle_off`, `in_arc`, `in_cone`, `units_in_cone`, `scatter`, `line_of_sight`,
//!   `sight_blocker`, `terrain_at`, `path_crosses`, `on_table`, `table_width`, `table_depth`;
//! - grid areas: `area_of`, `area_centre`, `area_distance`, `adjacent`, `area_aspect`;
//! - units: `unit`, `units`, `all_units`, `units_tagged`, `units_in_group`, `units_within`,
//!   `nearest_enemy`, `enemies`, `enemies_within`, `sides`, `side_name`, and the `Unit` properties and methods;
//! - abilities: `ask`, `allowed`, `notify` (the hook dispatcher, see `abilities.rs`),
//!   `use_ability`, `end_ability`, `ability_active`, `uses_left`, `has_ability`;
//! - the game: `turn`, `active_side`, `set_turn`, `say`, `data`, `troop`, `seed`, and `print`
//!   and `debug`, which write to the event log.
//!
//! Every function that reads the game or the generator is registered as volatile, and every
//! change goes through [`GameState`], which logs it.

use std::cell::RefCell;
use std::rc::Rc;

use rhai::{
    Array, Dynamic, Engine, EvalAltResult, FLOAT, FuncRegistration, INT, ImmutableString, Map,
    NativeCallContext, Position,
};

use crate::game::ruleset::Ruleset;
use crate::game::state::GameState;
use crate::host::cards::{Card, Colour, Deck, Suit};
use crate::host::dice::Roll;
use crate::host::geometry::{self, Point};
use crate::host::grid::{self, Area};
use crate::host::unit::{Stat, Unit};

/// The game state shared between the session and the functions registered on its engine.
pub type Shared = Rc<RefCell<GameState>>;

/// The session's abilities, shared with the dispatcher functions (filled once the engine
/// that compiles them exists).
pub type SharedAbilities = Rc<RefCell<crate::script::hooks::Abilities>>;

type Res<T> = Result<T, Box<EvalAltResult>>;

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

macro_rules! volatile {
    ($engine:expr, $name:expr, $f:expr) => {
        FuncRegistration::new($name)
            .in_global_namespace()
            .with_volatility(true)
            .register_into_engine($engine, $f);
    };
}

/// The most cards a script may put in one deck: host calls must stay cheap, since the time
/// budget is checked between them.
pub const MAX_DECK: usize = 1_000;

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

fn count(v: INT, what: &str) -> Res<usize> {
    usize::try_from(v).map_err(|_| host_error(format!("{what} must not be negative, got {v}")))
}

fn stat_to_dynamic(s: &Stat) -> Dynamic {
    match s {
        Stat::Bool(b) => Dynamic::from_bool(*b),
        Stat::Int(i) => Dynamic::from_int(*i),
        Stat::Float(f) => Dynamic::from_float(*f),
        Stat::Text(t) => Dynamic::from(t.clone()),
    }
}

fn dynamic_to_stat(v: &Dynamic) -> Res<Stat> {
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

fn strings<'a>(items: impl IntoIterator<Item = &'a String>) -> Array {
    items
        .into_iter()
        .map(|s| Dynamic::from(s.clone()))
        .collect()
}

fn unit_array(idx: impl IntoIterator<Item = usize>) -> Array {
    idx.into_iter().map(|i| Dynamic::from(UnitRef(i))).collect()
}

fn suit_name(s: Suit) -> &'static str {
    match s {
        Suit::Spades => "spades",
        Suit::Hearts => "hearts",
        Suit::Diamonds => "diamonds",
        Suit::Clubs => "clubs",
    }
}

fn colour_name(c: Colour) -> &'static str {
    match c {
        Colour::Red => "red",
        Colour::Black => "black",
    }
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

/// Registers the whole host API on `engine`, bound to `state` and `ruleset`.
pub fn register(
    engine: &mut Engine,
    state: &Shared,
    ruleset: &Ruleset,
    abilities: &SharedAbilities,
    manual: &ManualDice,
    budget: &crate::script::engine::Budget,
) {
    register_abilities(engine, state, abilities);
    register_attempt(engine, state);
    register_log(engine, state);
    register_dice(engine, state, manual, budget);
    register_cards(engine, state);
    register_points(engine);
    register_measurement(engine, state);
    register_grid(engine, state);
    register_units(engine, state);
    register_game(engine, state, ruleset);
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

fn register_abilities(engine: &mut Engine, state: &Shared, abilities: &SharedAbilities) {
    let (st, ab) = (state.clone(), abilities.clone());
    volatile!(engine, "ask", move |ctx: NativeCallContext,
                                   hook: &str,
                                   u: UnitRef,
                                   value: Dynamic,
                                   info: Map|
          -> Res<Dynamic> {
        ab.borrow().ask(ctx.engine(), &st, hook, u.0, value, info)
    });
    let (st, ab) = (state.clone(), abilities.clone());
    volatile!(engine, "allowed", move |ctx: NativeCallContext,
                                       hook: &str,
                                       u: UnitRef,
                                       info: Map|
          -> Res<bool> {
        ab.borrow().allowed(ctx.engine(), &st, hook, u.0, info)
    });
    let (st, ab) = (state.clone(), abilities.clone());
    volatile!(engine, "notify", move |ctx: NativeCallContext,
                                      hook: &str,
                                      u: UnitRef,
                                      info: Map|
          -> Res<()> {
        ab.borrow().notify(ctx.engine(), &st, hook, u.0, info)
    });

    // The checks every ability function makes: the unit has it, and it is loaded.
    fn lookup(
        st: &Shared,
        ab: &SharedAbilities,
        u: UnitRef,
        name: &str,
    ) -> Res<(crate::game::ability::AbilityMeta, String)> {
        let s = st.borrow();
        let unit = s.unit(u.0).map_err(host_error)?;
        if !unit.abilities.iter().any(|a| a == name) {
            let has = if unit.abilities.is_empty() {
                "none".to_string()
            } else {
                unit.abilities.join(", ")
            };
            return Err(refusal(format!(
                "{} has no ability `{name}` (its abilities: {has})",
                unit.id
            )));
        }
        let abilities = ab.borrow();
        let loaded = abilities
            .list
            .get(name)
            .ok_or_else(|| host_error(format!("ability `{name}` is not loaded")))?;
        Ok((loaded.meta.clone(), unit.id.clone()))
    }
    let (st, ab) = (state.clone(), abilities.clone());
    volatile!(engine, "use_ability", move |u: UnitRef,
                                           name: &str|
          -> Res<()> {
        let (meta, id) = lookup(&st, &ab, u, name)?;
        let mut s = st.borrow_mut();
        let before = s.ability_use(u.0, name);
        meta.check_use(&before, s.clock())
            .map_err(|why| refusal(format!("{id}: {why}")))?;
        let after = meta.used(&before, s.clock());
        let left = match meta.uses_left(&after) {
            Some(0) => ", no uses left".to_string(),
            Some(n) => format!(", {n} use{} left", if n == 1 { "" } else { "s" }),
            None => String::new(),
        };
        let lasts = match meta.lasts {
            Some(1) => " for a turn".to_string(),
            Some(n) => format!(" for {n} turns"),
            None => String::new(),
        };
        let what = format!("{} in force{lasts}{left}", meta.name);
        s.set_ability_use(u.0, name, after, &what);
        Ok(())
    });
    let (st, ab) = (state.clone(), abilities.clone());
    volatile!(engine, "end_ability", move |u: UnitRef,
                                           name: &str|
          -> Res<()> {
        let (meta, _) = lookup(&st, &ab, u, name)?;
        let mut s = st.borrow_mut();
        let before = s.ability_use(u.0, name);
        if meta.is_active(&before, s.clock())
            && meta.activation != crate::game::ability::Activation::Always
        {
            let after = crate::game::ability::AbilityUse {
                active: false,
                until: None,
                ..before
            };
            s.set_ability_use(u.0, name, after, &format!("{} ends", meta.name));
        }
        Ok(())
    });
    let (st, ab) = (state.clone(), abilities.clone());
    volatile!(engine, "ability_active", move |u: UnitRef,
                                              name: &str|
          -> Res<bool> {
        let (meta, _) = lookup(&st, &ab, u, name)?;
        let s = st.borrow();
        Ok(meta.is_active(&s.ability_use(u.0, name), s.clock()))
    });
    let (st, ab) = (state.clone(), abilities.clone());
    volatile!(engine, "uses_left", move |u: UnitRef,
                                         name: &str|
          -> Res<Dynamic> {
        let (meta, _) = lookup(&st, &ab, u, name)?;
        let s = st.borrow();
        Ok(meta
            .uses_left(&s.ability_use(u.0, name))
            .map_or(Dynamic::UNIT, |n| Dynamic::from_int(INT::from(n))))
    });
    let ab = abilities.clone();
    volatile!(engine, "ability_meta", move |name: &str| -> Res<Dynamic> {
        let abilities = ab.borrow();
        // A misspelt ability typed by a player: refused in the player's terms.
        let loaded = abilities.list.get(name).ok_or_else(|| {
            refusal(format!(
                "no ability `{name}` is loaded in this game{}",
                crate::host::suggest::suggestion_suffix(
                    name,
                    abilities.list.keys().map(String::as_str)
                )
            ))
        })?;
        rhai::serde::to_dynamic(&loaded.meta)
    });
    let (st, ab) = (state.clone(), abilities.clone());
    volatile!(engine, "ability_ready", move |u: UnitRef,
                                             name: &str|
          -> Res<bool> {
        let (meta, _) = lookup(&st, &ab, u, name)?;
        let s = st.borrow();
        Ok(meta.check_use(&s.ability_use(u.0, name), s.clock()).is_ok())
    });
    let st = state.clone();
    volatile!(engine, "has_ability", move |u: UnitRef,
                                           name: &str|
          -> Res<bool> {
        with_unit(&st, u, |unit| unit.abilities.iter().any(|a| a == name))
    });
}

fn register_log(engine: &mut Engine, state: &Shared) {
    let st = state.clone();
    engine.on_print(move |text| {
        st.borrow_mut().emit(crate::game::event::Event::Print {
            text: crate::game::state::clip(text.into()),
        });
    });
    let st = state.clone();
    engine.on_debug(move |text, _source, _pos| {
        st.borrow_mut().emit(crate::game::event::Event::Debug {
            text: crate::game::state::clip(text.into()),
        });
    });
}

/// Where manual dice come from: the front end's way to ask the players for a roll they made
/// with real dice (`:dice manual`). It gets a prompt and gives the line typed, or none at the
/// end of input.
pub type ManualDice = Rc<RefCell<Option<DiceSource>>>;

/// Where the faces of dice come from when not from the generator.
pub enum DiceSource {
    /// The players type them in.
    Ask(DiceAsker),
    /// A program gives them: given the sides of a die, its face (exact odds walk every
    /// outcome this way).
    Faces(FaceFeed),
}

/// Gives the face of a die of the given sides, from 1 to sides.
pub type FaceFeed = Box<dyn FnMut(u32) -> u32>;

/// Asks the players for a roll: given a prompt, the line typed, or none at the end of input.
pub type DiceAsker = Box<dyn FnMut(&str) -> Option<String>>;

/// Parsed dice expressions by text: scripts roll the same few expressions over and over, and
/// parsing costs more than rolling.
#[derive(Clone, Default)]
struct DiceCache {
    parsed: Rc<RefCell<std::collections::HashMap<String, crate::host::dice::DiceExpr>>>,
    manual: ManualDice,
    budget: crate::script::engine::Budget,
}

impl DiceCache {
    /// Most distinct expressions kept; a script building endless new ones just re-parses.
    const CAPACITY: usize = 1024;

    fn roll(&self, state: &Shared, text: &str, why: Option<&str>) -> Res<Roll> {
        let bad = |e: crate::host::dice::DiceError| {
            host_error_with_help(format!("bad dice expression `{text}`: {e}"), e.help.clone())
        };
        let mut cache = self.parsed.borrow_mut();
        if !cache.contains_key(text) {
            let expr = crate::host::dice::DiceExpr::parse(text).map_err(bad)?;
            if cache.len() >= Self::CAPACITY {
                cache.clear();
            }
            cache.insert(text.to_string(), expr);
        }
        let expr = &cache[text];
        let mut manual = self.manual.borrow_mut();
        let ask = match manual.as_mut() {
            None => return state.borrow_mut().roll(expr, why).map_err(bad),
            Some(DiceSource::Faces(feed)) => {
                return state.borrow_mut().roll_given(expr, why, feed).map_err(bad);
            }
            Some(DiceSource::Ask(ask)) => ask,
        };
        // Real dice: ask for each die (several may be typed at once), checking each value.
        let started = std::time::Instant::now();
        let mut typed: std::collections::VecDeque<u32> = std::collections::VecDeque::new();
        let mut ended = false;
        let mut note = String::new();
        let what = why.map_or_else(|| text.to_string(), |w| format!("{text} for {w}"));
        let mut face = |sides: u32| -> u32 {
            loop {
                if let Some(v) = typed.front().copied() {
                    if (1..=sides).contains(&v) {
                        typed.pop_front();
                        return v;
                    }
                    typed.clear();
                }
                if ended {
                    return 1;
                }
                let prompt =
                    format!("{note}roll {what}: a d{sides} (or all the dice, space-separated): ");
                note.clear();
                match ask(&prompt) {
                    None => ended = true,
                    Some(line) => {
                        let values: Option<Vec<u32>> =
                            line.split_whitespace().map(|w| w.parse().ok()).collect();
                        match values {
                            Some(v)
                                if !v.is_empty() && v.iter().all(|x| (1..=sides).contains(x)) =>
                            {
                                typed.extend(v)
                            }
                            _ => {
                                note = format!(
                                    "`{}` is not a roll of d{sides}s (whole numbers from 1 to {sides}); ",
                                    line.trim()
                                )
                            }
                        }
                    }
                }
            }
        };
        let roll = state
            .borrow_mut()
            .roll_given(expr, why, &mut face)
            .map_err(bad);
        self.budget.extend(started.elapsed());
        if ended {
            return Err(host_error("the input ended before the dice were given"));
        }
        roll
    }
}

fn register_dice(
    engine: &mut Engine,
    state: &Shared,
    manual: &ManualDice,
    budget: &crate::script::engine::Budget,
) {
    engine.register_type_with_name::<Roll>("Roll");
    let cache = DiceCache {
        manual: manual.clone(),
        budget: budget.clone(),
        ..DiceCache::default()
    };
    let (st, c) = (state.clone(), cache.clone());
    volatile!(engine, "roll", move |expr: &str| -> Res<Roll> {
        c.roll(&st, expr, None)
    });
    let (st, c) = (state.clone(), cache.clone());
    volatile!(engine, "roll", move |expr: &str, why: &str| -> Res<Roll> {
        c.roll(&st, expr, Some(why))
    });
    let st = state.clone();
    volatile!(engine, "d", move |sides: INT| -> Res<INT> {
        if !(1..=crate::host::dice::MAX_SIDES as INT).contains(&sides) {
            return Err(host_error(format!(
                "a die has 1 to {} sides, not {sides}",
                crate::host::dice::MAX_SIDES
            )));
        }
        Ok(cache.roll(&st, &format!("1d{sides}"), None)?.total)
    });
    engine
        .register_get("total", |r: &mut Roll| r.total)
        .register_get("dice", |r: &mut Roll| -> Array {
            r.kept_values()
                .into_iter()
                .map(|v| Dynamic::from_int(INT::from(v)))
                .collect()
        })
        .register_get("all_dice", |r: &mut Roll| -> Array {
            r.all_values()
                .into_iter()
                .map(|v| Dynamic::from_int(INT::from(v)))
                .collect()
        })
        .register_get("highest", |r: &mut Roll| -> INT {
            r.highest().map_or(0, INT::from)
        })
        .register_get("lowest", |r: &mut Roll| -> INT {
            r.lowest().map_or(0, INT::from)
        })
        .register_get("successes", |r: &mut Roll| r.successes())
        .register_get("expr", |r: &mut Roll| r.expr.clone())
        .register_fn("to_string", |r: &mut Roll| format!("{}: {r}", r.expr))
        .register_fn("to_debug", |r: &mut Roll| format!("{}: {r}", r.expr));
}

fn register_cards(engine: &mut Engine, state: &Shared) {
    engine.register_type_with_name::<Card>("Card");
    engine.register_type_with_name::<DeckRef>("Deck");
    engine
        .register_fn("card", |text: &str| -> Res<Card> {
            Card::parse(text).map_err(|e| host_error(e.to_string()))
        })
        .register_get("rank", |c: &mut Card| INT::from(c.rank()))
        .register_get("suit", |c: &mut Card| {
            c.suit().map_or("", suit_name).to_string()
        })
        .register_get("colour", |c: &mut Card| colour_name(c.colour()).to_string())
        .register_get("is_face", |c: &mut Card| c.is_face())
        .register_get("is_joker", |c: &mut Card| c.is_joker())
        .register_get("is_ace", |c: &mut Card| c.is_ace())
        .register_get("is_red", |c: &mut Card| c.colour() == Colour::Red)
        .register_get("is_black", |c: &mut Card| c.colour() == Colour::Black)
        .register_get("name", |c: &mut Card| match c.suit() {
            Some(s) => format!("{} of {}", c.rank_name(), suit_name(s)),
            None => format!("{} joker", colour_name(c.colour())),
        })
        .register_fn("to_string", |c: &mut Card| c.to_string())
        .register_fn("to_debug", |c: &mut Card| c.to_string())
        .register_fn("==", |a: Card, b: Card| a == b)
        .register_fn("!=", |a: Card, b: Card| a != b);

    let st = state.clone();
    volatile!(engine, "deck", move |name: &str| -> Res<DeckRef> {
        st.borrow().deck(name).map_err(host_error)?;
        Ok(DeckRef(name.into()))
    });
    let st = state.clone();
    volatile!(engine, "new_deck", move |name: &str,
                                        kind: &str|
          -> Res<DeckRef> {
        // A card is at most 6 characters with its separator: a longer list is over the limit.
        if kind.len() > MAX_DECK * 8 {
            return Err(host_error(format!("a deck holds at most {MAX_DECK} cards")));
        }
        let deck = match kind {
            "standard" => Deck::standard(name, false),
            "standard+jokers" => Deck::standard(name, true),
            list => Deck::parse_list(name, list).map_err(|e| host_error(e.to_string()))?,
        };
        if deck.len() > MAX_DECK {
            return Err(host_error(format!("a deck holds at most {MAX_DECK} cards")));
        }
        st.borrow_mut().add_deck(deck);
        Ok(DeckRef(name.into()))
    });
    let st = state.clone();
    volatile!(engine, "new_deck", move |name: &str,
                                        cards: Array|
          -> Res<DeckRef> {
        if cards.len() > MAX_DECK {
            return Err(host_error(format!("a deck holds at most {MAX_DECK} cards")));
        }
        let mut list = Vec::new();
        for c in cards {
            let card = if let Some(card) = c.clone().try_cast::<Card>() {
                card
            } else {
                Card::parse(&c.to_string()).map_err(|e| host_error(e.to_string()))?
            };
            list.push(card);
        }
        st.borrow_mut().add_deck(Deck::from_cards(name, list));
        Ok(DeckRef(name.into()))
    });

    let st = state.clone();
    volatile!(engine, "draw", move |d: &mut DeckRef| -> Res<Card> {
        let mut cards = st.borrow_mut().draw(&d.0, 1).map_err(host_error)?;
        cards.pop().ok_or_else(|| host_error("no card drawn"))
    });
    let st = state.clone();
    volatile!(engine, "draw", move |d: &mut DeckRef,
                                    n: INT|
          -> Res<Array> {
        let n = count(n, "the number of cards")?;
        let cards = st.borrow_mut().draw(&d.0, n).map_err(host_error)?;
        Ok(cards.into_iter().map(Dynamic::from).collect())
    });
    let st = state.clone();
    volatile!(engine, "peek", move |d: &mut DeckRef| -> Res<Dynamic> {
        let state = st.borrow();
        Ok(state
            .deck(&d.0)
            .map_err(host_error)?
            .peek()
            .map_or(Dynamic::UNIT, Dynamic::from))
    });
    let st = state.clone();
    volatile!(engine, "peek", move |d: &mut DeckRef,
                                    n: INT|
          -> Res<Array> {
        let n = count(n, "the number of cards")?;
        let state = st.borrow();
        Ok(state
            .deck(&d.0)
            .map_err(host_error)?
            .peek_n(n)
            .into_iter()
            .map(Dynamic::from)
            .collect())
    });
    let st = state.clone();
    volatile!(engine, "discard", move |d: &mut DeckRef,
                                       card: Card|
          -> Res<()> {
        st.borrow_mut().discard(&d.0, card).map_err(host_error)
    });
    let st = state.clone();
    volatile!(engine, "shuffle", move |d: &mut DeckRef| -> Res<()> {
        st.borrow_mut().shuffle(&d.0).map_err(host_error)
    });
    let st = state.clone();
    volatile!(engine, "reshuffle", move |d: &mut DeckRef| -> Res<()> {
        st.borrow_mut().reshuffle(&d.0).map_err(host_error)
    });
    let st = state.clone();
    engine.register_get("count", move |d: &mut DeckRef| -> Res<INT> {
        Ok(st.borrow().deck(&d.0).map_err(host_error)?.len() as INT)
    });
    let st = state.clone();
    engine.register_get("discards", move |d: &mut DeckRef| -> Res<INT> {
        Ok(st.borrow().deck(&d.0).map_err(host_error)?.discard_count() as INT)
    });
    engine
        .register_get("name", |d: &mut DeckRef| d.0.clone())
        .register_fn("to_string", |d: &mut DeckRef| format!("deck {}", d.0))
        .register_fn("to_debug", |d: &mut DeckRef| format!("deck {}", d.0));
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
    volatile!(engine, "in_contact", move |a: UnitRef,
                                          b: UnitRef|
          -> bool {
        st.borrow().battlefield.in_contact(a.0, b.0)
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

fn area_value(a: Area) -> Dynamic {
    let arr: Array = vec![
        Dynamic::from_int(INT::from(a.col)),
        Dynamic::from_int(INT::from(a.row)),
    ];
    arr.into()
}

/// An area from a script: `[col, row]` or a unit (the area it stands in).
fn area_arg(state: &GameState, v: &Dynamic) -> Res<Area> {
    if let Some(u) = v.read_lock::<UnitRef>() {
        let grid = state
            .battlefield
            .grid
            .as_ref()
            .ok_or_else(|| host_error("this scenario has no grid: add `grid:` to use areas"))?;
        let pos = state.unit(u.0).map_err(host_error)?.pos;
        return grid
            .area_of(pos)
            .ok_or_else(|| host_error("that unit stands off the grid"));
    }
    if let Some(a) = v.read_lock::<Array>()
        && a.len() == 2
        && let (Ok(col), Ok(row)) = (a[0].as_int(), a[1].as_int())
    {
        let col = i32::try_from(col).map_err(|_| host_error("area column out of range"))?;
        let row = i32::try_from(row).map_err(|_| host_error("area row out of range"))?;
        return Ok(Area { col, row });
    }
    Err(host_error(format!(
        "expected an area [col, row] or a unit, not {}",
        v.type_name()
    )))
}

fn register_grid(engine: &mut Engine, state: &Shared) {
    let st = state.clone();
    volatile!(engine, "area_of", move |p: Dynamic| -> Res<Dynamic> {
        let s = st.borrow();
        let grid = s
            .battlefield
            .grid
            .as_ref()
            .ok_or_else(|| host_error("this scenario has no grid"))?;
        Ok(grid
            .area_of(place(&s, &p)?)
            .map_or(Dynamic::UNIT, area_value))
    });
    let st = state.clone();
    volatile!(engine, "area_centre", move |col: INT,
                                           row: INT|
          -> Res<Point> {
        let s = st.borrow();
        let grid = s
            .battlefield
            .grid
            .as_ref()
            .ok_or_else(|| host_error("this scenario has no grid"))?;
        let area = Area {
            col: i32::try_from(col).map_err(|_| host_error("area column out of range"))?,
            row: i32::try_from(row).map_err(|_| host_error("area row out of range"))?,
        };
        Ok(grid.centre(area))
    });
    let st = state.clone();
    volatile!(engine, "area_distance", move |a: Dynamic,
                                             b: Dynamic|
          -> Res<INT> {
        let s = st.borrow();
        Ok(INT::from(grid::area_distance(
            area_arg(&s, &a)?,
            area_arg(&s, &b)?,
        )))
    });
    let st = state.clone();
    volatile!(engine, "adjacent", move |a: Dynamic,
                                        b: Dynamic|
          -> Res<bool> {
        let s = st.borrow();
        Ok(grid::adjacent(area_arg(&s, &a)?, area_arg(&s, &b)?))
    });
    let st = state.clone();
    volatile!(engine, "area_aspect", move |u: UnitRef,
                                           other: Dynamic|
          -> Res<Dynamic> {
        let s = st.borrow();
        let from = area_arg(&s, &Dynamic::from(u))?;
        let facing = s.unit(u.0).map_err(host_error)?.facing;
        let other = area_arg(&s, &other)?;
        Ok(grid::aspect(from, facing, other).map_or(Dynamic::UNIT, |a| a.to_string().into()))
    });
}

fn with_unit<T>(st: &Shared, u: UnitRef, f: impl FnOnce(&Unit) -> T) -> Res<T> {
    let s = st.borrow();
    Ok(f(s.unit(u.0).map_err(host_error)?))
}

fn register_units(engine: &mut Engine, state: &Shared) {
    engine.register_type_with_name::<UnitRef>("Unit");

    let st = state.clone();
    volatile!(engine, "unit", move |id: &str| -> Res<UnitRef> {
        st.borrow()
            .battlefield
            .resolve(id)
            .map(UnitRef)
            .map_err(host_error)
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
    getter!("stats", |u| {
        let m: Map = u
            .stats
            .iter()
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
}

fn register_game(engine: &mut Engine, state: &Shared, ruleset: &Ruleset) {
    // `new_unit(id, troop, side, at)` (`spawn` is a Rhai keyword): a new figure of a troop type from the ruleset's chart.
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
    volatile!(engine, "say", move |text: &str| {
        st.borrow_mut().say(text)
    });
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
