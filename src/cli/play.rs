//! `sandtable play`: the prompt. On a terminal it uses rustyline (history in the user's data
//! folder, Ctrl-C cancels a line, Ctrl-D leaves); with piped input it reads lines plainly and
//! echoes each one, so a transcript reads like the game.

use std::io::{BufRead, IsTerminal};
use std::path::PathBuf;

use rustyline::DefaultEditor;
use rustyline::error::ReadlineError;

use super::{Common, flush_events, render_error, start_session};
use crate::command::{self, Reply};
use crate::error::Error;
use crate::session::Session;

/// Plays a scenario at the prompt. Returns 1 if a piped game hit an error, else 0.
pub fn play(common: &Common, scenario: Option<PathBuf>) -> Result<u8, Error> {
    let (_project, mut session) = start_session(common, scenario)?;
    flush_events(&mut session, common.json);
    if std::io::stdin().is_terminal() {
        interactive(&mut session, common.json)
    } else {
        piped(&mut session, common.json)
    }
}

/// Carries out one (possibly multi-line) entry and shows what happened.
/// Returns `None` to quit, else whether it succeeded.
fn carry_out(session: &mut Session, origin: &str, entry: &str, json: bool) -> Option<bool> {
    let result = command::run_line(session, origin, entry);
    flush_events(session, json);
    match result {
        Ok(Reply::Quit) => None,
        Ok(Reply::Done) => Some(true),
        Ok(Reply::Text(text)) => {
            if !json {
                outln!("{text}");
            }
            Some(true)
        }
        Err(e) => {
            super::write_err(&render_error(&e));
            Some(false)
        }
    }
}

fn prompt(session: &Session, continuing: bool) -> String {
    if continuing {
        return "... ".into();
    }
    let state = session.state();
    format!("turn {} · {} > ", state.turn, state.active_side)
}

fn history_file() -> Option<PathBuf> {
    let base = std::env::var_os("XDG_DATA_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".local/share")))?;
    let dir = base.join("sandtable");
    std::fs::create_dir_all(&dir).ok()?;
    Some(dir.join("history"))
}

fn interactive(session: &mut Session, json: bool) -> Result<u8, Error> {
    let mut editor = DefaultEditor::new()
        .map_err(|e| Error::other(format!("cannot start the prompt: {e}"), None))?;
    let history = history_file();
    if let Some(h) = &history {
        let _ = editor.load_history(h);
    }
    outln!(
        "{} - type :help for the verbs, :quit to leave",
        session.scenario().name
    );
    let mut entry = String::new();
    let mut number = 0;
    loop {
        match editor.readline(&prompt(session, !entry.is_empty())) {
            Ok(line) => {
                entry.push_str(&line);
                entry.push('\n');
                if command::needs_more(&entry) {
                    continue;
                }
                let text = std::mem::take(&mut entry);
                let _ = editor.add_history_entry(text.trim_end());
                number += 1;
                if carry_out(
                    session,
                    &format!("prompt line {number}"),
                    text.trim_end(),
                    json,
                )
                .is_none()
                {
                    break;
                }
            }
            Err(ReadlineError::Interrupted) => entry.clear(),
            Err(ReadlineError::Eof) => break,
            Err(e) => return Err(Error::other(format!("the prompt failed: {e}"), None)),
        }
    }
    if let Some(h) = &history {
        let _ = editor.save_history(h);
    }
    Ok(0)
}

fn piped(session: &mut Session, json: bool) -> Result<u8, Error> {
    let mut failed = false;
    let mut entry = String::new();
    let mut start_line = 0;
    for (i, line) in std::io::stdin().lock().lines().enumerate() {
        let line =
            line.map_err(|e| Error::other(format!("cannot read standard input: {e}"), None))?;
        if entry.is_empty() {
            start_line = i + 1;
        }
        entry.push_str(&line);
        entry.push('\n');
        if command::needs_more(&entry) {
            continue;
        }
        let text = std::mem::take(&mut entry);
        let text = text.trim_end();
        if !json && !text.trim().is_empty() {
            outln!("> {text}");
        }
        match carry_out(session, &format!("stdin line {start_line}"), text, json) {
            None => break,
            Some(ok) => failed |= !ok,
        }
    }
    if !entry.trim().is_empty() {
        super::write_err(
            "error: the input ended inside an unfinished entry (an unclosed bracket?)\n",
        );
        failed = true;
    }
    Ok(u8::from(failed))
}
