//! `sandtable battle SCENARIO`: auto-plays one whole battle with the ruleset's policy and
//! narrates it turn by turn, until the ruleset's `victory` hook names a result.

use std::path::PathBuf;

use super::{Common, flush_events, start_session};
use crate::error::Error;
use crate::session::{END_TURN, PLAY_TURN, Session};

/// A battle that has not ended after this many turns is reported as an error in the rules:
/// a victory condition that can never be met.
pub const MAX_TURNS: i64 = 1_000;

/// Plays a battle to its end.
pub fn battle(common: &Common, scenario: PathBuf, explain: bool) -> Result<u8, Error> {
    let (_project, mut session) = start_session(common, Some(scenario))?;
    if !session.verbs().contains_key(PLAY_TURN) {
        return Err(Error::other(
            format!(
                "the ruleset `{}` has no policy",
                session.scenario().ruleset.id
            ),
            Some(format!(
                "define `fn {PLAY_TURN}(side)` in its scripts (see docs/writing-a-ruleset.md)"
            )),
        ));
    }
    flush_events(&mut session, common.json);
    let outcome = loop {
        if let Some(outcome) = session.victory()? {
            break outcome;
        }
        let turn = session.state().turn;
        if turn > MAX_TURNS {
            return Err(Error::other(
                format!("the battle has not ended after {MAX_TURNS} turns"),
                Some("the ruleset's `victory` can never be met in this scenario".into()),
            ));
        }
        let side = session.state().active_side.clone();
        step(
            &mut session,
            PLAY_TURN,
            vec![side.into()],
            common.json,
            explain,
        )?;
        step(&mut session, END_TURN, Vec::new(), common.json, explain)?;
    };
    if common.json {
        outln!(
            "{}",
            serde_json::json!({ "event": "result", "winner": outcome.winner, "reason": outcome.reason, "turn": outcome.turn })
        );
    } else {
        let name = |id: &str| {
            let state = session.state();
            state
                .sides
                .iter()
                .find(|s| s.id == id)
                .map_or(id.to_string(), |s| s.name.clone())
        };
        match &outcome.winner {
            Some(w) => outln!(
                "victory to {} on turn {}: {}",
                name(w),
                outcome.turn,
                outcome.reason
            ),
            None => outln!("a draw on turn {}: {}", outcome.turn, outcome.reason),
        }
    }
    Ok(0)
}

fn step(
    session: &mut Session,
    verb: &str,
    args: Vec<rhai::Dynamic>,
    json: bool,
    explain: bool,
) -> Result<(), Error> {
    let result = session.call(verb, args);
    flush_events(session, json);
    if explain && !json {
        for line in session.explain() {
            outln!("  [explain] {line}");
        }
    }
    result.map(|_| ())
}
