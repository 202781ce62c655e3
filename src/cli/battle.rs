//! `sandtable battle SCENARIO`: auto-plays one whole battle with the ruleset's policy and
//! narrates it turn by turn, until the ruleset's `victory` hook names a result.

use std::path::PathBuf;

use super::{Common, flush_events, start_session};
use crate::error::Error;
use crate::session::MAX_TURNS;

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
    if common.json {
        outln!(
            "{}",
            serde_json::json!({ "event": "result", "winner": outcome.winner, "reason": outcome.reason, "turn": outcome.turn })
        );
    } else {
        let state = session.state();
        let name = |id: &str| {
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
