//! `sandtable battle SCENARIO`: auto-plays one whole battle with the ruleset's policy and
//! narrates it turn by turn, until the ruleset's `victory` hook names a result.

use std::path::PathBuf;

use super::{Common, flush_events, start_session};
use crate::error::Error;
use crate::session::{MAX_TURNS, Outcome, Session};

/// Plays a battle to its end.
pub fn battle(common: &Common, scenario: PathBuf, explain: bool) -> Result<u8, Error> {
    let (_project, mut session) = start_session(common, Some(scenario))?;
    flush_events(&mut session, common.json);
    let json = common.json;
    let outcome = session.play_battle(MAX_TURNS, |session| {
        flush_events(session, json);
        if explain && !json {
            for line in session.explain() {
                outln!("  [explain] {line}");
            }
        }
    })?;
    outln!("{}", result(&session, &outcome, json));
    Ok(0)
}

/// The line that tells a battle's result: `victory to The King's men on turn 7 (shooting):
/// ...`, or a JSON `result` event; with the phase it ended in, for rules that keep phases.
pub fn result(session: &Session, outcome: &Outcome, json: bool) -> String {
    let state = session.state();
    if json {
        let mut result = serde_json::json!({ "event": "result", "winner": outcome.winner, "reason": outcome.reason, "turn": outcome.turn });
        if !state.phase.is_empty() {
            result["phase"] = state.phase.clone().into();
        }
        return result.to_string();
    }
    let name = |id: &str| {
        state
            .sides
            .iter()
            .find(|s| s.id == id)
            .map_or(id.to_string(), |s| s.name.clone())
    };
    let when = if state.phase.is_empty() {
        format!("turn {}", outcome.turn)
    } else {
        format!("turn {} ({})", outcome.turn, state.phase_name())
    };
    match &outcome.winner {
        Some(w) => format!("victory to {} on {when}: {}", name(w), outcome.reason),
        None => format!("a draw on {when}: {}", outcome.reason),
    }
}
