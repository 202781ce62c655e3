//! Monte Carlo: many battles auto-played with the ruleset's policy, tallied as they finish.
//!
//! Run `i` plays on its own stream, [`GameRng::for_run`]`(seed, i)`, from the scenario's
//! start: its decks shuffled, its set-up (a preparation roll, say) and the battle all draw
//! from that stream, so a run's result does not depend on which thread plays it. Tallies
//! are whole-number sums, added in any order to the same totals: the report is identical for
//! any thread count. Nothing is kept per battle, so memory stays flat as the runs grow.
//!
//! With house rules, every run is played twice on the same stream, with and without them: a
//! paired comparison, whose difference has a far narrower interval than two separate samples.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use crate::error::Error;
use crate::game::project::Project;
use crate::game::scenario::Scenario;
use crate::host::rng::GameRng;
use crate::limits::SCRIPT_THREAD_STACK;
use crate::session::{MAX_TURNS, Session};

/// What is tallied over the runs of one variant.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Tally {
    /// Battles played.
    pub runs: u64,
    /// Wins by side id.
    pub wins: BTreeMap<String, u64>,
    /// Battles without a winner.
    pub draws: u64,
    /// The sum of the turns taken.
    pub turns: u64,
    /// Units still in play at the end, summed, by side id.
    pub survivors: BTreeMap<String, u64>,
    /// Units still in play at the end, summed, by troop type.
    pub survivors_by_troop: BTreeMap<String, u64>,
    /// Battles that ended in a script error, with the first message.
    pub errors: u64,
    /// The error of the lowest-numbered run that failed: `(run, message)`.
    pub first_error: Option<(u64, String)>,
}

impl Tally {
    fn merge(&mut self, other: Tally) {
        self.runs += other.runs;
        for (k, v) in other.wins {
            *self.wins.entry(k).or_default() += v;
        }
        self.draws += other.draws;
        self.turns += other.turns;
        for (k, v) in other.survivors {
            *self.survivors.entry(k).or_default() += v;
        }
        for (k, v) in other.survivors_by_troop {
            *self.survivors_by_troop.entry(k).or_default() += v;
        }
        self.errors += other.errors;
        // The lowest run's error, whichever thread met it: the same for any thread count.
        if let Some((run, e)) = other.first_error
            && self.first_error.as_ref().is_none_or(|(r, _)| run < *r)
        {
            self.first_error = Some((run, e));
        }
    }

    /// Battles that came to an end (a win or a draw), not stopped by a script error: the
    /// means of turns and survivors are over these, since a failed battle has no end to count.
    pub fn finished(&self) -> u64 {
        self.runs - self.errors
    }

    /// `sum` spread over the finished battles; `None` when none finished.
    fn per_finished_battle(&self, sum: u64) -> Option<f64> {
        let n = self.finished();
        (n > 0).then(|| sum as f64 / n as f64)
    }

    /// The mean number of turns a finished battle took (`None`: no battle finished).
    pub fn turns_mean(&self) -> Option<f64> {
        self.per_finished_battle(self.turns)
    }

    /// The mean number of a side's units in play at the end of a finished battle.
    pub fn survivors_mean(&self, side: &str) -> Option<f64> {
        self.per_finished_battle(self.survivors.get(side).copied().unwrap_or(0))
    }

    /// The mean number of each troop type in play at the end of a finished battle (none
    /// when no battle finished).
    pub fn survivors_by_troop_mean(&self) -> impl Iterator<Item = (&str, f64)> + '_ {
        self.survivors_by_troop.iter().filter_map(|(troop, &n)| {
            self.per_finished_battle(n)
                .map(|mean| (troop.as_str(), mean))
        })
    }

    /// A side's win rate and the half-width of its 95% interval.
    pub fn win_rate(&self, side: &str) -> (f64, f64) {
        crate::host::odds::share_with_interval(self.wins.get(side).copied().unwrap_or(0), self.runs)
    }

    /// The first error as the report shows it: `run 17: ...`.
    pub fn first_error_text(&self) -> Option<String> {
        self.first_error
            .as_ref()
            .map(|(run, e)| format!("run {run}: {e}"))
    }

    /// Battles a side lost: another side won (draws and battles that ended in an error are
    /// neither won nor lost).
    pub fn losses(&self, side: &str) -> u64 {
        self.wins
            .iter()
            .filter(|(s, _)| s.as_str() != side)
            .map(|(_, w)| w)
            .sum()
    }

    /// A side's loss rate and the half-width of its 95% interval.
    pub fn loss_rate(&self, side: &str) -> (f64, f64) {
        crate::host::odds::share_with_interval(self.losses(side), self.runs)
    }

    /// The draw rate and the half-width of its 95% interval.
    pub fn draw_rate(&self) -> (f64, f64) {
        crate::host::odds::share_with_interval(self.draws, self.runs)
    }
}

/// The paired difference of one side's wins between a house rule and the plain rules, over
/// the runs whose two battles both finished (a battle stopped by a script error has no
/// winner to compare).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Paired {
    /// The sum over runs of (win with the rule) - (win without), each -1, 0 or 1.
    pub sum: i64,
    /// The sum of the squares of those differences.
    pub sum_sq: u64,
    /// Runs compared.
    pub runs: u64,
    /// Of those, the runs the side won without the rule.
    pub won_before: u64,
}

impl Paired {
    fn merge(&mut self, other: &Paired) {
        self.sum += other.sum;
        self.sum_sq += other.sum_sq;
        self.runs += other.runs;
        self.won_before += other.won_before;
    }

    fn record(&mut self, won_before: bool, won_after: bool) {
        let difference = i64::from(won_after) - i64::from(won_before);
        self.merge(&Paired {
            sum: difference,
            sum_sq: (difference * difference) as u64,
            runs: 1,
            won_before: u64::from(won_before),
        });
    }

    /// The side's win rates without and with the rule, over the runs compared.
    pub fn win_rates(&self) -> (f64, f64) {
        let n = self.runs.max(1) as f64;
        let before = self.won_before as f64;
        (before / n, (before + self.sum as f64) / n)
    }

    /// The mean difference and the half-width of its 95% interval.
    pub fn difference(&self) -> (f64, f64) {
        let n = self.runs.max(1) as f64;
        let mean = self.sum as f64 / n;
        if self.runs < 2 {
            return (mean, f64::NAN);
        }
        let var = (self.sum_sq as f64 - n * mean * mean) / (n - 1.0);
        (mean, 1.96 * (var.max(0.0) / n).sqrt())
    }
}

/// How a report names a house rule: its file name (`ties_to_defender.rhai`).
pub fn rule_label(path: &std::path::Path) -> String {
    path.file_name().map_or_else(
        || path.display().to_string(),
        |f| f.to_string_lossy().into_owned(),
    )
}

/// One variant's tally and its paired differences by side.
type VariantTally = (Tally, BTreeMap<String, Paired>);

/// The result of a simulation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Report {
    /// The sides, in the scenario's order: (id, name).
    pub sides: Vec<(String, String)>,
    /// The plain rules.
    pub base: Tally,
    /// Each house rule: its file, its tally and its paired difference per side.
    pub variants: Vec<(PathBuf, Tally, BTreeMap<String, Paired>)>,
}

/// Plays `runs` battles of `scenario` from `seed` on `threads` threads, and again with each
/// house rule in `with`.
pub fn simulate(
    project: &Project,
    scenario: &Scenario,
    runs: u64,
    seed: u64,
    threads: usize,
    with: &[PathBuf],
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Report, Error> {
    let mut variants = vec![scenario.clone()];
    for rule in with {
        let mut s = scenario.clone();
        s.add_house_rule(rule)?;
        variants.push(s);
    }
    // No more threads than runs: each compiles the scripts, which costs more than a battle.
    let threads = threads
        .clamp(1, 256)
        .min(usize::try_from(runs).unwrap_or(usize::MAX).max(1));
    // Workers take the next block of runs as they finish one, so a thread held up by long
    // battles does not hold up the rest; blocks are small enough to share the work evenly.
    let block = (runs / (threads as u64 * 32)).clamp(1, 64);
    let queue = Queue {
        next: AtomicU64::new(0),
        runs,
        block,
        stop: AtomicBool::new(false),
    };
    let done = AtomicU64::new(0);
    let results: Vec<Result<Vec<VariantTally>, Error>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|_| {
                let (variants, queue, done) = (&variants, &queue, &done);
                // The stack a script's nested calls need, which a thread's default lacks.
                std::thread::Builder::new()
                    .stack_size(SCRIPT_THREAD_STACK)
                    .spawn_scoped(scope, move || {
                        worker(project, variants, seed, queue, &|| {
                            progress(done.fetch_add(1, Ordering::Relaxed) + 1)
                        })
                    })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| match h {
                Ok(h) => h.join().expect("a simulation thread panicked"),
                Err(e) => Err(Error::Other {
                    message: format!("cannot start a simulation thread: {e}"),
                    help: Some("try fewer `--threads`".to_string()),
                }),
            })
            .collect()
    });
    let mut tallies: Vec<VariantTally> = vec![Default::default(); variants.len()];
    // Of the threads that stopped, the one that stopped at the lowest run speaks (a thread
    // that could not start has no run, and speaks first).
    let stopped_at = |e: &Error| match e {
        Error::SimStopped { run, .. } => *run,
        _ => 0,
    };
    let mut ok = Vec::new();
    let mut first_error: Option<Error> = None;
    for r in results {
        match r {
            Ok(t) => ok.push(t),
            Err(e) => {
                if first_error
                    .as_ref()
                    .is_none_or(|f| stopped_at(&e) < stopped_at(f))
                {
                    first_error = Some(e);
                }
            }
        }
    }
    if let Some(e) = first_error {
        return Err(e);
    }
    for r in ok {
        for (i, (tally, paired)) in r.into_iter().enumerate() {
            tallies[i].0.merge(tally);
            for (side, p) in paired {
                tallies[i].1.entry(side).or_default().merge(&p);
            }
        }
    }
    let mut tallies = tallies.into_iter();
    let base = tallies.next().expect("the plain rules").0;
    Ok(Report {
        sides: scenario
            .sides
            .iter()
            .map(|s| (s.id.clone(), s.name.clone()))
            .collect(),
        base,
        variants: with
            .iter()
            .cloned()
            .zip(tallies)
            .map(|(p, (t, d))| (p, t, d))
            .collect(),
    })
}

/// The runs still to play, handed out a block at a time.
struct Queue {
    next: AtomicU64,
    runs: u64,
    block: u64,
    /// Set when a worker meets a script that runs away: the others take no more runs.
    stop: AtomicBool,
}

impl Queue {
    /// The next block of runs, or `None` when all are taken (or the simulation stops).
    fn take(&self) -> Option<std::ops::Range<u64>> {
        if self.stop.load(Ordering::Relaxed) {
            return None;
        }
        let start = self.next.fetch_add(self.block, Ordering::Relaxed);
        (start < self.runs).then(|| start..(start + self.block).min(self.runs))
    }
}

/// Plays blocks of runs from `queue`, every variant of each.
fn worker(
    project: &Project,
    variants: &[Scenario],
    seed: u64,
    queue: &Queue,
    tick: &dyn Fn(),
) -> Result<Vec<VariantTally>, Error> {
    let mut sessions = Vec::new();
    for v in variants {
        let session = Session::new(project, v.clone(), seed)?;
        session.check_auto_play()?;
        sessions.push(session);
    }
    let sides: Vec<String> = variants[0].sides.iter().map(|s| s.id.clone()).collect();
    let mut out: Vec<VariantTally> = vec![Default::default(); variants.len()];
    for run in std::iter::from_fn(|| queue.take()).flatten() {
        // The plain rules' winner, `None` when their battle failed.
        let mut base_winner: Option<Option<String>> = None;
        for (i, session) in sessions.iter_mut().enumerate() {
            let tally = &mut out[i].0;
            tally.runs += 1;
            let played = session
                .start_over(seed, GameRng::for_run(seed, run))
                .and_then(|()| {
                    session.play_battle(MAX_TURNS, |s| {
                        s.take_events();
                    })
                });
            let winner: Option<Option<String>> = match played {
                Ok(outcome) => {
                    tally.turns += outcome.turn.max(0) as u64;
                    match &outcome.winner {
                        Some(w) => *tally.wins.entry(w.clone()).or_default() += 1,
                        None => tally.draws += 1,
                    }
                    let state = session.state();
                    for u in state.battlefield.units().iter().filter(|u| u.in_play) {
                        *tally.survivors.entry(u.side.clone()).or_default() += 1;
                        *tally.survivors_by_troop.entry(u.troop.clone()).or_default() += 1;
                    }
                    Some(outcome.winner)
                }
                // A script that runs out of its time or operations would do so battle after
                // battle, a time budget each: stop the whole simulation with its diagnostic.
                Err(e) if e.is_runaway() => {
                    queue.stop.store(true, Ordering::Relaxed);
                    let variant = match variants[i].house_rules.last() {
                        Some(rule) if i > 0 => format!("playing with `{}`", rule_label(rule)),
                        _ => "playing the scenario's rules".to_string(),
                    };
                    return Err(Error::SimStopped {
                        run,
                        variant,
                        cause: Box::new(e),
                    });
                }
                Err(e) => {
                    tally.errors += 1;
                    if tally.first_error.is_none() {
                        tally.first_error = Some((run, e.one_line()));
                    }
                    None
                }
            };
            if i == 0 {
                base_winner = winner;
            } else if let (Some(before), Some(after)) = (&base_winner, &winner) {
                for side in &sides {
                    out[i].1.entry(side.clone()).or_default().record(
                        before.as_deref() == Some(side.as_str()),
                        after.as_deref() == Some(side.as_str()),
                    );
                }
            }
        }
        tick();
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paired_difference_arithmetic() {
        // Differences: +1, +1, 0, -1 over 4 runs: mean 0.25, sample variance
        // (3 - 4 * 0.0625) / 3 = 0.91667, half-width 1.96 * sqrt(0.91667 / 4).
        let p = Paired {
            sum: 1,
            sum_sq: 3,
            runs: 4,
            won_before: 1,
        };
        assert_eq!(p.win_rates(), (0.25, 0.5));
        let (mean, pm) = p.difference();
        assert!((mean - 0.25).abs() < 1e-12);
        assert!((pm - 1.96 * (0.916_666_666_666_666_6f64 / 4.0).sqrt()).abs() < 1e-12);
    }

    #[test]
    fn losses_are_the_other_sides_wins() {
        let mut t = Tally {
            runs: 10,
            draws: 2,
            errors: 1,
            ..Default::default()
        };
        t.wins.insert("a".into(), 4);
        t.wins.insert("b".into(), 3);
        assert_eq!(t.losses("a"), 3);
        assert_eq!(t.losses("b"), 4);
        assert_eq!(t.loss_rate("a").0, 0.3);
        assert_eq!(t.draw_rate().0, 0.2);
    }

    #[test]
    fn means_are_over_the_battles_that_finished() {
        // Four runs, one of which failed: the three that finished took 2, 3 and 4 turns and
        // left 6 legionaries standing between them.
        let mut t = Tally {
            runs: 4,
            errors: 1,
            turns: 9,
            ..Default::default()
        };
        t.survivors.insert("romans".into(), 6);
        t.survivors_by_troop.insert("heavy_infantry".into(), 6);
        assert_eq!(t.finished(), 3);
        assert_eq!(t.turns_mean(), Some(3.0));
        assert_eq!(t.survivors_mean("romans"), Some(2.0));
        assert_eq!(t.survivors_mean("vikings"), Some(0.0));
        assert_eq!(
            t.survivors_by_troop_mean().collect::<Vec<_>>(),
            [("heavy_infantry", 2.0)]
        );
        // No battle finished: no mean to speak of.
        let failed = Tally {
            runs: 2,
            errors: 2,
            ..Default::default()
        };
        assert_eq!(failed.turns_mean(), None);
        assert_eq!(failed.survivors_mean("romans"), None);
    }

    #[test]
    fn win_rate_interval_is_the_normal_approximation() {
        let mut t = Tally {
            runs: 100,
            ..Default::default()
        };
        t.wins.insert("a".into(), 50);
        let (p, pm) = t.win_rate("a");
        assert_eq!(p, 0.5);
        assert!((pm - 0.098).abs() < 1e-12);
    }
}
