//! A line carried out with its odds answered: [`run_line`] is the session's
//! [`crate::session::command::run_line_as`], with the [`Reply::Odds`] a `:odds` line asks
//! for reckoned here and given as [`Reply::Text`]. Front ends call this one, so a reply they
//! get is never [`Reply::Odds`].

use crate::analysis::action_odds;
use crate::error::Error;
use crate::session::Session;
use crate::session::command::{self, Mode, Reply};

/// Carries out one line, played. `origin` names where it came from (`<prompt>`, `game.txt:3`).
pub fn run_line(session: &mut Session, origin: &str, line: &str) -> Result<Reply, Error> {
    run_line_as(session, origin, line, Mode::Play)
}

/// Carries out one line, played or replayed, and answers its odds if it asks for them.
pub fn run_line_as(
    session: &mut Session,
    origin: &str,
    line: &str,
    mode: Mode,
) -> Result<Reply, Error> {
    match command::run_line_as(session, origin, line, mode)? {
        Reply::Odds { action, side } => {
            let budget = action_odds::OddsBudget::for_game(session);
            let odds = action_odds::action_odds_as(session, &action, budget, side.as_deref())?;
            Ok(Reply::Text(odds.render(action.trim())))
        }
        reply => Ok(reply),
    }
}
