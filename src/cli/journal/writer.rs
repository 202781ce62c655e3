//! The journal a `play` session writes as it goes, one JSON object a line, flushed at once.

use std::collections::BTreeSet;
use std::io::Write;
use std::path::{Path, PathBuf};

use super::fingerprint::{fingerprints, scripts_of};
use super::format::{Entry, Header, read_journal};
use super::{FORMAT, absolute, folder, name_of};
use crate::error::{Error, Recorded};
use crate::game::save::SavedGame;
use crate::session::Session;

/// A journal being written. If it cannot be written (no data folder, a full disk, a folder
/// made read-only), the game goes on without it, and the players are warned once, at once.
pub struct Journal {
    file: Option<std::fs::File>,
    /// Where it is written.
    path: PathBuf,
    /// Warnings as JSON lines.
    json: bool,
    /// The reading of the scripts fingerprinted last ([`Session::reading`]).
    reading: u64,
    /// The files fingerprinted since.
    known: BTreeSet<String>,
}

impl Journal {
    /// Starts a journal for a session, started from `scenario` or from the save `open` (as
    /// the player named it). A game is never refused for want of a journal: if the data
    /// folder cannot be written, the players are warned and the game goes on.
    pub fn start(
        session: &Session,
        scenario: Option<PathBuf>,
        open: Option<PathBuf>,
        json: bool,
    ) -> Journal {
        let opened = open.is_some();
        let root = absolute(session.project().root());
        let named = |p: &Path| PathBuf::from(name_of(p, &root));
        let header = Header {
            journal: FORMAT,
            project: None,
            scenario: scenario.filter(|_| !opened).map(|p| named(&p)),
            open,
            opened: opened.then(|| Box::new(opened_game(session))),
            seed: session.state().rng.seed(),
            scripts: scripts_of(session),
            house_rules: Some(session.house_rules().iter().map(|p| named(p)).collect()),
        };
        let stamp = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_millis());
        let reading = session.reading();
        let known = header.scripts.keys().cloned().collect();
        let Some(dir) = folder() else {
            super::super::report_warning(
                "no journal is kept: there is no data folder (set SANDTABLE_DATA to one); the game goes on, but it cannot be resumed or replayed",
                json,
            );
            return Journal {
                file: None,
                path: PathBuf::new(),
                json,
                reading,
                known,
            };
        };
        let path = dir.join(format!("session-{stamp}-{}.jsonl", std::process::id()));
        if let Err(e) = std::fs::create_dir_all(&dir) {
            super::super::report_warning(
                &format!(
                    "no journal is kept: the folder `{}` cannot be made ({}); the game goes on, but it cannot be resumed or replayed",
                    dir.display(),
                    crate::error::io_reason(&e)
                ),
                json,
            );
        }
        let file = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&path);
        let mut journal = Journal {
            file: None,
            path,
            json,
            reading,
            known,
        };
        match file {
            Ok(f) => journal.file = Some(f),
            Err(_) if !dir.is_dir() => {}
            Err(e) => journal.cannot_write(&e),
        }
        if let Ok(text) = serde_json::to_string(&header) {
            journal.write(&text);
        }
        journal
    }

    /// Warns that the journal cannot be written (once: the journal is then dropped).
    fn cannot_write(&mut self, reason: &std::io::Error) {
        self.file = None;
        super::super::report_warning(
            &format!(
                "the journal `{}` cannot be written ({}): the game goes on, but it cannot be resumed or replayed past this point",
                self.path.display(),
                crate::error::io_reason(reason)
            ),
            self.json,
        );
    }

    /// Starts a new journal for a session resumed from `old` as far as its line `keep`
    /// (the lines before a damaged one): those lines are copied into it, so that the lines
    /// played from now on follow them, and `old` is left as it was.
    ///
    /// The journals' folder is made if it is not there (a journal resumed into another data
    /// folder); if no journal can be kept, the players are told why, once, and the game goes
    /// on.
    pub fn continue_from(old: &Path, keep: usize, session: &Session, json: bool) -> Journal {
        let mut journal = Journal::append(Path::new(""), session, json);
        let Some(dir) = folder() else {
            super::super::report_warning(
                "no journal is kept: there is no data folder (set SANDTABLE_DATA to one); the game goes on, but it cannot be resumed or replayed past this point",
                json,
            );
            return journal;
        };
        if let Err(e) = std::fs::create_dir_all(&dir) {
            super::super::report_warning(
                &format!(
                    "no journal is kept: the folder `{}` cannot be made ({}); the game goes on, but it cannot be resumed or replayed past this point",
                    dir.display(),
                    crate::error::io_reason(&e)
                ),
                json,
            );
            return journal;
        }
        let stamp = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_millis());
        journal.path = dir.join(format!("session-{stamp}-{}.jsonl", std::process::id()));
        let text = match read_journal(old) {
            Ok(text) => text,
            Err(e) => {
                super::super::report_warning(
                    &format!(
                        "no journal is kept: the journal resumed cannot be read again to copy it ({}); the game goes on, but it cannot be resumed or replayed past this point",
                        e.one_line()
                    ),
                    json,
                );
                return journal;
            }
        };
        match std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&journal.path)
        {
            Ok(f) => journal.file = Some(f),
            Err(e) => {
                journal.cannot_write(&e);
                return journal;
            }
        }
        for line in text.lines().take(keep) {
            journal.write(line);
        }
        journal
    }

    /// Where the journal is written.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Continues writing an existing journal, for `session` (replayed from it).
    pub fn append(path: &Path, session: &Session, json: bool) -> Journal {
        let mut journal = Journal {
            file: None,
            path: path.to_path_buf(),
            json,
            reading: session.reading(),
            known: scripts_of(session).into_keys().collect(),
        };
        if path.as_os_str().is_empty() {
            return journal;
        }
        match std::fs::OpenOptions::new().append(true).open(path) {
            Ok(f) => journal.file = Some(f),
            Err(e) => journal.cannot_write(&e),
        }
        journal
    }

    fn entry(&mut self, entry: &Entry) {
        if let Ok(text) = serde_json::to_string(entry) {
            self.write(&text);
        }
    }

    fn write(&mut self, text: &str) {
        if let Some(f) = &mut self.file
            && let Err(e) = writeln!(f, "{text}").and_then(|()| f.flush())
        {
            self.cannot_write(&e);
        }
    }

    /// Records a line entered, before it runs (so a crash in it still has it).
    pub fn record(&mut self, line: &str) {
        self.entry(&Entry {
            line: Some(line.to_string()),
            ..Entry::default()
        });
    }

    /// Records the game a line (`:open`) has just opened, as it was opened, so that a replay
    /// opens the same game whatever the file holds by then.
    pub fn record_opened(&mut self, session: &Session) {
        self.entry(&Entry {
            opened: Some(Box::new(opened_game(session))),
            ..Entry::default()
        });
    }

    /// Records how a `:save` line went, just after it: saved, or `failed` with an error, so
    /// that a replay fails where the session did.
    pub fn record_saved(&mut self, failed: Option<&Error>) {
        self.entry(&Entry {
            saved: failed.is_none().then_some(true),
            not_saved: failed.map(Recorded::of),
            ..Entry::default()
        });
    }

    /// Records dice or cards typed in by the players (`:dice manual`, `:cards manual`) for the
    /// line under way: one queue of answers, in the order the rules asked.
    pub fn record_dice(&mut self, answer: &str) {
        self.entry(&Entry {
            dice: Some(answer.to_string()),
            ..Entry::default()
        });
    }

    /// Records a hot reload, before it happens: the files noticed changed, named as its
    /// notice names them (relative to the project folder when inside it, else as the session
    /// knows them), so that a replay shows the same; and the scenario by its name
    /// ([`name_of`]), so that a replay knows it from any folder.
    pub fn record_reload(&mut self, changed: &[PathBuf], session: &Session) {
        let scenario = absolute(&session.scenario().path);
        let root = session.project().root();
        let real_root = absolute(root);
        let named = changed
            .iter()
            .map(|p| match absolute(p) {
                real if real == scenario => PathBuf::from(name_of(&real, &real_root)),
                _ => p.strip_prefix(root).unwrap_or(p).to_path_buf(),
            })
            .collect();
        self.entry(&Entry {
            reload: Some(named),
            ..Entry::default()
        });
    }

    /// Records, after a line or a hot reload, the fingerprints of the scripts if the session
    /// has read them again since the last time (a reload, `:with`, `:without`, the undoing of
    /// either, `:load`, `:open`), else of the modules imported for the first time, so that a
    /// replay can say which file is not as it was then.
    pub fn note(&mut self, session: &Session) {
        if self.file.is_none() {
            return;
        }
        let scripts = if session.reading() == self.reading {
            let root = absolute(session.project().root());
            let new = session
                .imported()
                .into_iter()
                .filter(|p| !self.known.contains(&name_of(p, &root)));
            fingerprints(new, &root)
        } else {
            self.reading = session.reading();
            self.known.clear();
            scripts_of(session)
        };
        if scripts.is_empty() {
            return;
        }
        self.known.extend(scripts.keys().cloned());
        self.entry(&Entry {
            scripts: Some(scripts),
            ..Entry::default()
        });
    }
}

/// A session's game as a save naming its files as a journal does ([`name_of`]).
fn opened_game(session: &Session) -> SavedGame {
    let root = absolute(session.project().root());
    let named = |p: &Path| PathBuf::from(name_of(p, &root));
    let mut save = SavedGame::of(
        &session.scenario().path,
        session.house_rules(),
        &session.state(),
    );
    save.scenario = named(&save.scenario);
    save.house_rules = save
        .house_rules
        .map(|rules| rules.iter().map(|p| named(p)).collect());
    save
}
