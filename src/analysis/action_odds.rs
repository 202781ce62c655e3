//! The odds of a rules action: the real ruleset and ability scripts played over every outcome
//! of every die they roll and every card they draw, each branch weighted by its probability.
//!
//! The action is played again and again on a throwaway copy of the game
//! ([`Session::hypothetically`]). Dice faces come from an odometer over the dice the scripts
//! ask for: the first play rolls all ones, each next play turns the last die that can still
//! turn and drops the dice after it, so a branch that rolls fewer dice (a reroll not taken) is
//! walked once, with its own weight. A card drawn from a shuffled pile of n cards is one more
//! wheel of n positions: position k takes the k-th card of the pile as it stands (the pile's
//! order is hidden, so each card left is as likely as another), and draws nest as dice do. A
//! branch's weight is the product of `1/sides` over its wheels. Branches are grouped by what
//! the action did to the units (who was removed, who moved and how far, who took hits, who
//! gained or lost a status).
//!
//! Shuffles and reshuffles inside the action draw nothing from the generator during the walk:
//! every card drawn after them is a wheel over the pile as it then stands, which is what a
//! fair shuffle gives, so they stay exact. A pile made in a known order and never shuffled
//! (a new deck, a scenario's unshuffled deck) is drawn from the top, as at the table.
//!
//! When the tree has more branches than the budget, when the scripts look at a shuffled
//! pile's order (`peek`), or when they draw on the generator for something other than dice
//! and cards (scatter), exact enumeration is impossible or too slow: the action is then
//! played `runs` times on seeded streams and the result is a Monte Carlo estimate with a 95%
//! interval. Each run shuffles every shuffled pile again from its own stream before it plays,
//! so its cards are as fresh as its dice.

use std::cell::{Cell, RefCell};
use std::collections::BTreeMap;
use std::rc::Rc;

use crate::error::Error;
use crate::host::odds::Fraction;
use crate::host::rng::GameRng;
use crate::host::unit::Unit;
use crate::session::Session;
use crate::session::line::Parsed;

/// The chance of one outcome.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Chance {
    /// Worked out over every branch.
    Exact(Fraction),
    /// Estimated: the share of runs, and the half-width of its 95% interval.
    Estimate {
        /// The share of runs.
        p: f64,
        /// The half-width of the 95% interval.
        plus_minus: f64,
    },
}

impl Chance {
    /// The probability as a float.
    pub fn value(&self) -> f64 {
        match self {
            Chance::Exact(f) => f.value(),
            Chance::Estimate { p, .. } => *p,
        }
    }
}

/// What an action can lead to, and how likely each result is.
#[derive(Debug, Clone, PartialEq)]
pub struct ActionOdds {
    /// Each result with its chance, the likeliest first: what changed, less the changes
    /// every result shares (`no other change` when that is all).
    pub outcomes: Vec<(String, Chance)>,
    /// The changes found in every result (`viking_1 attacked`), said once; empty when
    /// there is only one result.
    pub always: Vec<String>,
    /// How many branches were played (exact) or runs made (estimate).
    pub plays: u64,
    /// Why the answer is an estimate, when it is one.
    pub estimated_because: Option<String>,
    /// The seed of an estimate's runs, to repeat it (`--seed`).
    pub seed: Option<u64>,
    /// Whether the exact walk drew cards (its branches are of the dice and cards).
    pub drew_cards: bool,
}

pub use crate::limits::MAX_BRANCH_DICE;

/// The limits of an odds calculation.
#[derive(Debug, Clone, Copy)]
pub struct OddsBudget {
    /// The most branches walked exactly.
    pub branches: u64,
    /// Monte Carlo runs when the branches are too many.
    pub runs: u64,
    /// The seed of the Monte Carlo runs.
    pub seed: u64,
}

impl OddsBudget {
    /// The usual limits, with estimates seeded by the game's seed (so `--seed` repeats them).
    pub fn for_game(session: &Session) -> OddsBudget {
        OddsBudget {
            seed: session.state().rng.seed(),
            ..Default::default()
        }
    }
}

impl Default for OddsBudget {
    fn default() -> Self {
        OddsBudget {
            branches: crate::limits::MAX_BRANCHES,
            runs: crate::limits::ESTIMATE_RUNS,
            seed: 1,
        }
    }
}

/// As [`action_odds`], as if it were `side`'s turn (the game as it stands, but that side to
/// play), so that either side may ask; `None` is the side whose turn it is.
pub fn action_odds_as(
    session: &mut Session,
    line: &str,
    budget: OddsBudget,
    side: Option<&str>,
) -> Result<ActionOdds, Error> {
    let Some(side) = side else {
        return action_odds(session, line, budget);
    };
    session.hypothetically(|s| {
        s.set_active_side(side)?;
        action_odds(s, line, budget)
    })
}

/// Works out the odds of `line` (an action such as `melee viking_1 legionary_2`) in the game
/// as it stands, leaving the game unchanged.
pub fn action_odds(
    session: &mut Session,
    line: &str,
    budget: OddsBudget,
) -> Result<ActionOdds, Error> {
    let parsed = Parsed::parse(session, "<odds>", line)?;
    if !parsed.is_action() {
        return Err(Error::other(
            format!("`{}` is not an action", line.trim()),
            Some("give a verb of the ruleset and its arguments (`:help` lists the verbs)".into()),
        ));
    }
    if far_too_many_branches(session, &parsed, &budget) {
        return estimate(
            session,
            &parsed,
            budget,
            GiveUp::FarTooManyBranches(budget.branches),
        );
    }
    match exact(session, &parsed, budget.branches)? {
        Ok(odds) => Ok(odds),
        Err(why) => estimate(session, &parsed, budget, why),
    }
}

/// Seeded probe runs made before an exact walk ([`far_too_many_branches`]).
pub const PROBES: u64 = 31;

/// How many times the budget of branches a probe must find to count as far over it.
pub const PROBE_MARGIN: u128 = 1000;

/// How many of the probes must be far over the budget to skip the exact walk.
pub const PROBES_FAR: usize = 3;

/// Whether the action's tree of dice and cards is far too big to walk, judged before walking
/// it, so that the walk does not play its whole budget of branches only to give up. Each of
/// [`PROBES`] seeded runs takes one path, every face and every card of the pile equally
/// likely, and multiplies the choices it meets. Over random paths the mean of that product is
/// the number of branches (Knuth's estimator), so for a tree within the budget one run's
/// product passes [`PROBE_MARGIN`] times the budget with a chance under one in
/// [`PROBE_MARGIN`] (Markov's inequality), and [`PROBES_FAR`] of the runs do so with a chance
/// under one in 200,000: a walk that could end exact is all but never skipped. Trees of dice
/// and cards are heavy-tailed (a chain of morale checks multiplies a path by 52 a card), so
/// the test counts runs far over rather than averaging them. The runs are seeded like the
/// estimate's, so the answer repeats.
fn far_too_many_branches(session: &mut Session, line: &Parsed, budget: &OddsBudget) -> bool {
    let far = PROBE_MARGIN * u128::from(budget.branches);
    let far_runs = (0..PROBES)
        .map(|run| {
            let product: Rc<Cell<u128>> = Rc::new(Cell::new(1));
            let mut rng = GameRng::for_run(budget.seed, run);
            let counted = product.clone();
            // Whatever the run comes to, its path is as long as it went.
            let _ = play_choosing(session, line, move |choices: u32| {
                counted.set(counted.get().saturating_mul(u128::from(choices.max(1))));
                rng.die(choices)
            });
            product.get()
        })
        .filter(|&product| product > far)
        .count();
    far_runs >= PROBES_FAR
}

/// What a play of the line with every die and card chosen came to.
struct Fed {
    result: Result<Vec<String>, Error>,
    /// Whether it drew a card.
    drew: bool,
    /// Whether the scripts drew on the generator for more than dice and cards.
    used_rng: bool,
    /// Whether they looked at a shuffled pile's order.
    peeked: bool,
}

/// Plays `line` hypothetically, each die and each card chosen by `choose` in the order the
/// scripts ask (given a die's sides or the cards in the pile, a choice from 1).
fn play_choosing(
    session: &mut Session,
    line: &Parsed,
    choose: impl FnMut(u32) -> u32 + 'static,
) -> Fed {
    let feed: Rc<RefCell<crate::script::api::FaceFeed>> = Rc::new(RefCell::new(Box::new(choose)));
    let (dice, cards) = (feed.clone(), feed);
    let drew: Rc<Cell<bool>> = Rc::default();
    let drawn = drew.clone();
    let (result, used_rng, peeked) = session.hypothetically(|s| {
        s.set_face_feed(Some(Box::new(move |sides| (dice.borrow_mut())(sides))));
        s.set_card_feed(Some(Box::new(move |n| {
            drawn.set(true);
            (cards.borrow_mut())(n)
        })));
        let before = s.state().rng.word_pos();
        let result = play(s, line);
        (result, s.state().rng.word_pos() != before, s.cards_peeked())
    });
    Fed {
        result,
        drew: drew.get(),
        used_rng,
        peeked,
    }
}

/// Why the exact walk over every outcome of the dice gave way to an estimate.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GiveUp {
    /// A branch rolls dice without end.
    #[error(
        "a branch rolls more than {MAX_BRANCH_DICE} dice (a reroll or an explosion that can go on)"
    )]
    EndlessDice,
    /// The scripts scatter, or draw other numbers from the generator.
    #[error("the scripts draw on the generator for more than dice and cards (scatter)")]
    MoreThanDice,
    /// The scripts look at a shuffled pile's order.
    #[error("the scripts look at the order of a shuffled pile (`peek`)")]
    PeekedAtCards,
    /// A branch's weight does not fit a fraction.
    #[error("a branch rolls too many dice to weigh exactly")]
    TooManyDice,
    /// The sum of the chances does not fit a fraction.
    #[error("the chances do not fit exact fractions")]
    NotExact,
    /// More branches than the budget.
    #[error("the action has more than {0} branches of dice")]
    TooManyBranches(u64),
    /// Far more branches than the budget, seen before walking them
    /// ([`far_too_many_branches`]).
    #[error(
        "the action has far more than {0} branches of dice and cards (seen in {PROBES} trial runs)"
    )]
    FarTooManyBranches(u64),
}

/// `Ok(Err(why))` when the exact walk has to give up.
fn exact(
    session: &mut Session,
    line: &Parsed,
    budget: u64,
) -> Result<Result<ActionOdds, GiveUp>, Error> {
    let path: Rc<RefCell<Vec<(u32, u32)>>> = Rc::default();
    let pos: Rc<Cell<usize>> = Rc::default();
    let too_many_dice: Rc<Cell<bool>> = Rc::default();
    let drew_cards: Rc<Cell<bool>> = Rc::default();
    let mut totals: BTreeMap<Vec<String>, Fraction> = BTreeMap::new();
    // The first refusal met, given as the error if every branch is refused alike.
    let mut refusal: Option<Error> = None;
    let mut plays = 0u64;
    loop {
        pos.set(0);
        let wheel = {
            let path = path.clone();
            let pos = pos.clone();
            let too_many_dice = too_many_dice.clone();
            // One odometer for dice and cards alike, in the order the scripts ask.
            move |sides: u32| {
                let mut p = path.borrow_mut();
                let i = pos.get();
                pos.set(i + 1);
                if i >= MAX_BRANCH_DICE {
                    // Give up on this walk, but let the script finish quickly: alternating
                    // faces end any "roll again while it shows X" loop.
                    too_many_dice.set(true);
                    return if i.is_multiple_of(2) { 1 } else { sides };
                }
                if i == p.len() {
                    p.push((1, sides));
                } else if p[i].1 != sides {
                    // Cannot happen with deterministic scripts; restart this die if it does.
                    p.truncate(i);
                    p.push((1, sides));
                }
                p[i].0
            }
        };
        let Fed {
            result,
            drew,
            used_rng,
            peeked,
        } = play_choosing(session, line, wheel);
        if drew {
            drew_cards.set(true);
        }
        if too_many_dice.get() {
            return Ok(Err(GiveUp::EndlessDice));
        }
        let outcome = match result {
            Ok(outcome) => outcome,
            // Refused after some dice were rolled: a result, perhaps on some dice only (a
            // roll the rules check).
            Err(e @ Error::Rules { .. }) if pos.get() > 0 => {
                let label = vec![format!("refused: {e}")];
                refusal.get_or_insert(e);
                label
            }
            // Refused before any die (so whatever the dice), or a bug: no odds to give.
            Err(e) => return Err(e),
        };
        if used_rng {
            return Ok(Err(GiveUp::MoreThanDice));
        }
        if peeked {
            return Ok(Err(GiveUp::PeekedAtCards));
        }
        plays += 1;
        // This branch's dice are the path up to where it stopped.
        let mut p = path.borrow_mut();
        p.truncate(pos.get());
        // Its weight: 1 over the product of its dice's sides.
        let Some(den) = p
            .iter()
            .try_fold(1u128, |d, &(_, sides)| d.checked_mul(u128::from(sides)))
        else {
            return Ok(Err(GiveUp::TooManyDice));
        };
        let weight = Fraction::new(1, den);
        let slot = totals.entry(outcome).or_insert(Fraction::new(0, 1));
        match slot.checked_add(weight) {
            Some(sum) => *slot = sum,
            None => return Ok(Err(GiveUp::NotExact)),
        }
        // Turn the odometer.
        while let Some(&(face, sides)) = p.last() {
            if face < sides {
                p.last_mut().expect("not empty").0 += 1;
                break;
            }
            p.pop();
        }
        if p.is_empty() {
            break;
        }
        if plays >= budget {
            return Ok(Err(GiveUp::TooManyBranches(budget)));
        }
    }
    if let Some(e) = refused_whatever_the_dice(totals.len(), refusal) {
        return Err(e);
    }
    let outcomes = totals
        .into_iter()
        .map(|(k, f)| (k, Chance::Exact(f)))
        .collect();
    let mut odds = ActionOdds::new(outcomes, plays, None, None);
    odds.drew_cards = drew_cards.get();
    Ok(Ok(odds))
}

/// The refusal to report as the answer when the one result is a refusal: every branch (or
/// run) was refused alike, so the action cannot be taken whatever the dice.
fn refused_whatever_the_dice(results: usize, refusal: Option<Error>) -> Option<Error> {
    refusal.filter(|_| results == 1)
}

fn estimate(
    session: &mut Session,
    line: &Parsed,
    budget: OddsBudget,
    why: GiveUp,
) -> Result<ActionOdds, Error> {
    let mut counts: BTreeMap<Vec<String>, u64> = BTreeMap::new();
    let mut refusal: Option<Error> = None;
    let runs = budget.runs.max(1);
    for run in 0..runs {
        let outcome = session.hypothetically(|s| {
            s.set_rng(GameRng::for_run(budget.seed, run));
            // Fresh cards as well as fresh dice: a shuffled pile's order in memory is the
            // game's own, the same every run.
            s.reshuffle_hidden_piles();
            play(s, line)
        });
        let outcome = match outcome {
            Ok(outcome) => outcome,
            Err(e @ Error::Rules { .. }) => {
                let label = vec![format!("refused: {e}")];
                refusal.get_or_insert(e);
                label
            }
            // A bug in a script (or one that runs away) would fail run after run.
            Err(e) => return Err(e),
        };
        *counts.entry(outcome).or_insert(0) += 1;
    }
    if let Some(e) = refused_whatever_the_dice(counts.len(), refusal) {
        return Err(e);
    }
    let outcomes = counts
        .into_iter()
        .map(|(k, c)| {
            let (p, plus_minus) = crate::host::odds::share_with_interval(c, runs);
            (k, Chance::Estimate { p, plus_minus })
        })
        .collect();
    Ok(ActionOdds::new(
        outcomes,
        runs,
        Some(why.to_string()),
        Some(budget.seed),
    ))
}

/// Plays the line and says what it did to the units.
fn play(session: &mut Session, line: &Parsed) -> Result<Vec<String>, Error> {
    let before: Vec<Unit> = session.state().battlefield.units().to_vec();
    let _ = session.perform(line)?;
    let state = session.state();
    let after = state.battlefield.units();
    Ok(describe(&before, after))
}

/// What changed, unit by unit: `legionary_2 removed`, `viking_1 moved 1"`, `viking_1 +1
/// hits`, `viking_1 shaken`, `viking_1 no longer shaken`; empty when nothing did. A move is
/// told by how far the unit ended from where it stood (to a hundredth of an inch, as the
/// narration tells it), not which way: a loser giving ground straight back or aslant has
/// given the same ground. A turn on the spot (to face a target) is not told.
pub fn describe(before: &[Unit], after: &[Unit]) -> Vec<String> {
    use crate::game::event::{inches, trim_number};
    let mut parts = Vec::new();
    for (b, a) in before.iter().zip(after) {
        if b.in_play && !a.in_play {
            parts.push(format!("{} removed", a.id));
            continue;
        }
        let moved = a.pos.distance(b.pos);
        if trim_number(moved) != "0" {
            parts.push(format!("{} moved {}", a.id, inches(moved)));
        }
        if a.hits != b.hits {
            parts.push(format!("{} {:+} hits", a.id, a.hits - b.hits));
        }
        if a.stands != b.stands {
            parts.push(format!("{} {:+} stands", a.id, a.stands - b.stands));
        }
        // Tags starting with `_` are the scripts' own bookkeeping, not a state of the unit.
        let shown = |t: &&String| !t.starts_with('_');
        for tag in a.tags.difference(&b.tags).filter(shown) {
            parts.push(format!("{} {tag}", a.id));
        }
        for tag in b.tags.difference(&a.tags).filter(shown) {
            parts.push(format!("{} no longer {tag}", a.id));
        }
    }
    for a in after.iter().skip(before.len()) {
        parts.push(format!("{} arrives", a.id));
    }
    parts
}

/// A bar of `share` (0 to 1) of `width` blocks, for charts in the terminal.
pub fn bar(share: f64, width: usize) -> String {
    "█".repeat((share.clamp(0.0, 1.0) * width as f64).round() as usize)
}

impl ActionOdds {
    /// Labels the results, stating once the changes they all share, likeliest first.
    fn new(
        results: Vec<(Vec<String>, Chance)>,
        plays: u64,
        estimated_because: Option<String>,
        seed: Option<u64>,
    ) -> ActionOdds {
        let always: Vec<String> = match results.split_first() {
            Some(((first, _), rest)) if !rest.is_empty() => first
                .iter()
                .filter(|c| rest.iter().all(|(r, _)| r.contains(c)))
                .cloned()
                .collect(),
            _ => Vec::new(),
        };
        let mut outcomes: Vec<(String, Chance)> = results
            .into_iter()
            .map(|(changes, chance)| {
                let own: Vec<String> = changes
                    .into_iter()
                    .filter(|c| !always.contains(c))
                    .collect();
                let label = match (own.is_empty(), always.is_empty()) {
                    (false, _) => own.join(", "),
                    (true, true) => "no change".to_string(),
                    (true, false) => "no other change".to_string(),
                };
                (label, chance)
            })
            .collect();
        outcomes.sort_by(|a, b| b.1.value().total_cmp(&a.1.value()).then(a.0.cmp(&b.0)));
        ActionOdds {
            outcomes,
            always,
            plays,
            estimated_because,
            seed,
            drew_cards: false,
        }
    }

    /// The odds as text: one line per result with its chance and a bar.
    pub fn render(&self, line: &str) -> String {
        let mut out = match &self.estimated_because {
            // One branch: no dice are rolled (or only dice with one face).
            None if self.plays == 1 => format!("odds of `{line}`: certain, no dice decide it\n"),
            None => format!(
                "odds of `{line}`: exact, over {} branches of the dice{}\n",
                self.plays,
                if self.drew_cards { " and cards" } else { "" }
            ),
            Some(why) => format!(
                "odds of `{line}`: estimated from {} runs on seed {}, because {why}\n",
                self.plays,
                self.seed.unwrap_or_default()
            ),
        };
        if !self.always.is_empty() {
            out.push_str(&format!("  in every result: {}\n", self.always.join(", ")));
        }
        let cells: Vec<(String, &String, f64)> = self
            .outcomes
            .iter()
            .map(|(what, chance)| {
                let cell = match chance {
                    Chance::Exact(f) => format!("{f}  {:>7.2}%", f.value() * 100.0),
                    Chance::Estimate { p, plus_minus } => {
                        format!("{:>6.2}% ± {:.2}", p * 100.0, plus_minus * 100.0)
                    }
                };
                (cell, what, chance.value())
            })
            .collect();
        let w = cells.iter().map(|c| c.0.chars().count()).max().unwrap_or(0);
        for (cell, what, p) in cells {
            let bar = bar(p, 30);
            out.push_str(&format!("  {cell:>w$}  {bar:<30}  {what}\n"));
        }
        out.pop();
        out
    }

    /// The odds as one JSON object.
    pub fn to_json(&self, line: &str) -> serde_json::Value {
        let outcomes: Vec<_> = self
            .outcomes
            .iter()
            .map(|(what, chance)| match chance {
                Chance::Exact(f) => serde_json::json!({
                    "outcome": what, "fraction": f.to_string(), "probability": f.value()
                }),
                Chance::Estimate { p, plus_minus } => serde_json::json!({
                    "outcome": what, "probability": p, "plus_minus_95": plus_minus
                }),
            })
            .collect();
        serde_json::json!({
            "action": line,
            "exact": self.estimated_because.is_none(),
            "plays": self.plays,
            "estimated_because": self.estimated_because,
            "seed": self.seed,
            "in_every_outcome": self.always,
            "outcomes": outcomes,
        })
    }
}
