//! What the battle benchmarks share: one battle played from the set-up game as `sim` plays
//! each run.

use sandtable::host::rng::GameRng;
use sandtable::session::{MAX_TURNS, Outcome, Session};

/// Starts the game over from the scenario's set-up on run `run`'s stream of `seed` (as `sim`
/// starts each run), then plays it to its victory with the ruleset's policy, taking and
/// dropping the events as `sim` does.
pub fn play_run(session: &mut Session, seed: u64, run: u64) -> Outcome {
    session
        .start_over(seed, GameRng::for_run(seed, run))
        .unwrap();
    session
        .play_battle(MAX_TURNS, |s| drop(s.take_events()))
        .unwrap()
}
