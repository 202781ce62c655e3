//! Dice: rolls of dice expressions from the game's generator, or from the players' real dice
//! or a program when a [`DiceSource`] is set, and the `Roll` they give.
//!
//! Registers:
//!
//! - `roll(expr)` and `roll(expr, why)`: a roll of a dice expression, logged;
//! - `d(sides)`: one die's face;
//! - the type `Roll`, with the properties `total`, `dice`, `all_dice`, `highest`, `lowest`,
//!   `successes` and `expr`, and `to_string` and `to_debug`.

use std::cell::RefCell;
use std::rc::Rc;

use rhai::{Array, Dynamic, Engine, INT};

use super::{Res, Shared, host_error, host_error_with_help};
use crate::host::dice::Roll;
use crate::script::metadata::{host, host_type};

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
            host_error_with_help(
                format!("bad dice expression {}: {e}", e.excerpt(text)),
                e.help.clone(),
            )
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
        // The dice written and not yet given: an answer is one die, or all of these.
        let written = expr.dice_count();
        let mut given: u64 = 0;
        let mut face = |sides: u32| -> u32 {
            loop {
                if let Some(v) = typed.front().copied() {
                    if (1..=sides).contains(&v) {
                        typed.pop_front();
                        given += 1;
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
                let left = written.saturating_sub(given).max(1);
                match ask(&prompt) {
                    None => ended = true,
                    Some(line) => {
                        let values: Option<Vec<u32>> =
                            line.split_whitespace().map(|w| w.parse().ok()).collect();
                        match values {
                            Some(v)
                                if v.len() > 1
                                    && v.len() as u64 != left
                                    && v.iter().all(|x| (1..=sides).contains(x)) =>
                            {
                                note = if left == 1 {
                                    format!(
                                        "`{}` is {} dice, and 1 was asked for; ",
                                        line.trim(),
                                        v.len()
                                    )
                                } else {
                                    format!(
                                        "`{}` is {} dice, and {left} were asked for (type one, or all {left}); ",
                                        line.trim(),
                                        v.len()
                                    )
                                }
                            }
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

host_type!(
    /// The result of one roll of a dice expression: a plain value, kept as it was rolled.
    /// `print(r)`, `` `${r}` `` and `r.to_string()` give `EXPR: DICE = TOTAL`, as in the log.
    ///
    /// ```rhai
    /// let r = roll("5d6>=3", "hits");
    /// print(r.successes);
    /// print(r.dice);
    /// print(r.highest);
    /// let k = roll("4d6kh3");
    /// print(`${k.dice} of ${k.all_dice}`);
    /// print(k);
    /// ```
    ///
    /// prints:
    ///
    /// ```text
    ///   hits: 5d6>=3 [3*, 1, 4*, 2, 2] = 2
    /// 2
    /// [3, 1, 4, 2, 2]
    /// 4
    ///   4d6kh3: [5, 3, ~1, 6] = 14
    /// [5, 3, 6] of [5, 3, 1, 6]
    /// 4d6kh3: [5, 3, ~1, 6] = 14
    /// ```
    ///
    /// `dice` leaves out the dropped 1; the log marks it with `~`.
    Roll as Roll
);

/// Registers the dice functions and the `Roll` type.
pub(super) fn register(
    engine: &mut Engine,
    state: &Shared,
    manual: &ManualDice,
    budget: &crate::script::engine::Budget,
) {
    engine.build_type::<Roll>();
    let cache = DiceCache {
        manual: manual.clone(),
        budget: budget.clone(),
        ..DiceCache::default()
    };
    let (st, c) = (state.clone(), cache.clone());
    host!(engine,
        /// Rolls a [dice expression](#the-dice-expression-language) and logs the roll. Raises
        /// ``bad dice expression `EXPR`: ...`` when the expression does not parse or breaks a
        /// limit; an expression longer than 60 characters is quoted as the 30 characters
        /// either side of the mistake, with where it is (``bad dice expression
        /// `…1d6+1d6+x` (character 4001 of 4001): ...``).
        ///
        /// ```rhai
        /// let r = roll("3d6+1");
        /// let k = roll("4d6kh3", "strength");
        /// print(`${r.total} ${k.total}`);
        /// ```
        ///
        /// prints:
        ///
        /// ```text
        ///   3d6+1: [3, 1, 4] + 1 = 9
        ///   strength: 4d6kh3 [2, ~2, 5, 3] = 10
        /// 9 10
        /// ```
        ///
        /// Build expressions from numbers with string interpolation: ``roll(`${n}d6`)``.
        /// `0d6` is allowed and is worth 0, so `n` may be 0.
        fn roll(expr: string) -> Roll,
        move |expr: &str| -> Res<Roll> { c.roll(&st, expr, None) }
    );
    let (st, c) = (state.clone(), cache.clone());
    host!(engine,
        /// Rolls a [dice expression](#the-dice-expression-language) as `roll(expr)` does,
        /// and logs the roll with `why` in front of it: `strength: 4d6kh3 [2, ~2, 5, 3] = 10`.
        fn roll(expr: string, why: string) -> Roll,
        move |expr: &str, why: &str| -> Res<Roll> { c.roll(&st, expr, Some(why)) }
    );
    let st = state.clone();
    host!(engine,
        /// Rolls one die with `sides` sides (1 to 1,000,000) and returns its face. Logs it
        /// like `roll("1dN")`. Raises `a die has 1 to 1000000 sides, not N`.
        ///
        /// ```rhai
        /// if d(6) >= 4 { say("the bridge holds"); }
        /// ```
        ///
        /// prints:
        ///
        /// ```text
        ///   1d6: [3] = 3
        /// ```
        fn d(sides: INT) -> INT,
        move |sides: INT| -> Res<INT> {
            if !(1..=crate::host::dice::MAX_SIDES as INT).contains(&sides) {
                return Err(host_error(format!(
                    "a die has 1 to {} sides, not {sides}",
                    crate::host::dice::MAX_SIDES
                )));
            }
            Ok(cache.roll(&st, &format!("1d{sides}"), None)?.total)
        }
    );
    host!(engine,
        /// The value of the whole expression.
        get (r: Roll) total -> INT,
        |r: &mut Roll| r.total
    );
    host!(engine,
        /// The kept dice of every group, in the order rolled.
        get (r: Roll) dice -> array,
        |r: &mut Roll| -> Array {
            r.kept_values()
                .into_iter()
                .map(|v| Dynamic::from_int(INT::from(v)))
                .collect()
        }
    );
    host!(engine,
        /// Every die rolled, kept or dropped, bonus dice included.
        get (r: Roll) all_dice -> array,
        |r: &mut Roll| -> Array {
            r.all_values()
                .into_iter()
                .map(|v| Dynamic::from_int(INT::from(v)))
                .collect()
        }
    );
    host!(engine,
        /// The highest kept die (0 if no die was kept).
        get (r: Roll) highest -> INT,
        |r: &mut Roll| -> INT { r.highest().map_or(0, INT::from) }
    );
    host!(engine,
        /// The lowest kept die (0 if no die was kept).
        get (r: Roll) lowest -> INT,
        |r: &mut Roll| -> INT { r.lowest().map_or(0, INT::from) }
    );
    host!(engine,
        /// Kept dice that met a success target such as `>=5`, over all groups (0 when no
        /// group has a target).
        get (r: Roll) successes -> INT,
        |r: &mut Roll| r.successes()
    );
    host!(engine,
        /// The expression, normalised: `d6` becomes `1d6`, `4D6 K3` becomes `4d6kh3`.
        get (r: Roll) expr -> string,
        |r: &mut Roll| r.expr.clone()
    );
    host!(engine,
        /// The roll as the log shows it: `EXPR: DICE = TOTAL` (what `print` and `` `${r}` ``
        /// give).
        fn (r: Roll) to_string() -> string,
        |r: &mut Roll| format!("{}: {r}", r.expr)
    );
    host!(engine,
        /// The roll as the log shows it, as `to_string` (what `debug` gives).
        fn (r: Roll) to_debug() -> string,
        |r: &mut Roll| format!("{}: {r}", r.expr)
    );
}
