//! Session journals: every `play` session writes, as it goes, the seed, where it started, a
//! fingerprint of each script and each line entered, one JSON object a line, flushed at once.
//! When the session reads its scripts again (a hot reload, `:reload`, `:with`, ...), or a
//! script imports a module for the first time, the journal says so where it happened, with
//! the fingerprints of the files then.
//! `play --resume` continues a session that crashed or was killed by replaying its lines;
//! `sandtable replay JOURNAL` reproduces a session and warns when a script has changed.
//!
//! A journal is shared between strangers like a save, so it names files as a save does:
//! relative to the project ([`name_of`]: the real path, symlinks resolved, relative to the
//! project folder; absolute only for a file outside it). The project, not the journal's
//! folder: journals are written in the data folder, away from the games, and the project
//! (its `scripts/` and `scenarios/`) is what both players have, so a group swaps a project
//! folder, or a scenario to put in theirs, with the journal, and replays it there.
//!
//! A replay or resume reads only files of the project it runs in (found as usual:
//! `--project`, `SANDTABLE_HOME`, the current folder and its parents), by the rule of
//! `game::confine`: a name that is absolute, climbs with `..` or leads out through a symlink
//! is refused unread, naming the journal, its line and the path. An absolute name lying
//! inside the project is taken (journals of format 2 and before named every file so): a
//! player's own journals still replay, a stranger's naming `/etc/passwd` does not. The game
//! a session opened (`play --open`, `:open`) is recorded in the journal as it was opened, so
//! that a replay opens that game, not whatever the file holds by then. So is how each
//! `:save` went: a replay fails where the session failed to save (a folder, a FIFO, a link),
//! with the error told then, and so does not open, at a later `:open` of that name, a game
//! the session never saved there.

use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::error::{Error, Recorded, read_file_within};
use crate::game::confine::{self, Refused};
use crate::game::project::Project;
use crate::game::save::SavedGame;
use crate::session::{RecordedOpen, Session};

/// The journal format's version: 2 added hot reloads and the scripts read mid-session; 3
/// names files relative to the project and records the games opened; 4 records how each
/// `:save` went.
pub const FORMAT: u32 = 4;

/// Fingerprints of files, by name ([`name_of`]).
pub type Fingerprints = BTreeMap<String, String>;

/// What a journal holds after its header, in order.
#[derive(Clone, Debug, PartialEq)]
pub enum Item {
    /// A line entered, with the dice and cards typed in for it (one queue of answers).
    Line(String, Vec<String>),
    /// The game the next line (an `:open`) opened, as it was opened, and the journal's line
    /// that records it (it follows the `:open` in the journal, and precedes it here).
    Opened {
        /// The journal's line.
        line: usize,
        /// The game.
        save: Box<SavedGame>,
    },
    /// How the next line (a `:save`) went when it was played: saved (`None`), or the error
    /// it failed with; and the journal's line that records it (it follows the `:save` in the
    /// journal, and precedes it here). A `:save` with none (a journal before format 4, or a
    /// session killed while saving) is taken as saved.
    Saved {
        /// The journal's line.
        line: usize,
        /// The error, if the save failed.
        failed: Option<Recorded>,
    },
    /// A hot reload before the next line: the files noticed changed, as its notice named
    /// them (the scenario by its absolute path).
    Reload(Vec<PathBuf>),
    /// Scripts the session read (all of them again, after a reload or a change of house
    /// rules; or the modules imported for the first time), with their fingerprints then, and
    /// the journal's line that says so.
    Read {
        /// The journal's line (the header is line 1).
        line: usize,
        /// The fingerprints.
        scripts: Fingerprints,
    },
}

/// The first line of a journal: how to start the same session again.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Header {
    /// The format.
    pub journal: u32,
    /// The project folder, absolute (format 2 and before; a replay uses the project it runs
    /// in, and format 3 no longer writes it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub project: Option<PathBuf>,
    /// The scenario started from (by its name, [`name_of`]), or
    pub scenario: Option<PathBuf>,
    /// the save opened: in format 2 and before, its absolute path, read again by a replay;
    /// in format 3, only its name as the player gave it, shown again by a replay, and
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub open: Option<PathBuf>,
    /// the game opened, as it was opened (format 3).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub opened: Option<Box<SavedGame>>,
    /// The seed.
    pub seed: u64,
    /// A fingerprint of each script and data file, by name ([`name_of`]; an absolute path in
    /// format 1).
    pub scripts: Fingerprints,
    /// The house rules in force at the start (the scenario's and `--with`'s), in order.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub house_rules: Option<Vec<PathBuf>>,
}

/// One line of a journal after the header: a line entered, dice typed in for it, a hot
/// reload, or the scripts read again.
#[derive(Default, Serialize, Deserialize)]
struct Entry {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    line: Option<String>,
    /// An answer typed when the rules asked: dice (`:dice manual`) or cards (`:cards manual`);
    /// the name stays `dice` so that older journals read the same.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    dice: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    reload: Option<Vec<PathBuf>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    scripts: Option<Fingerprints>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    opened: Option<Box<SavedGame>>,
    /// A `:save` that wrote its file.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    saved: Option<bool>,
    /// A `:save` that failed, and the error it was told with.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    not_saved: Option<Recorded>,
}

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

/// The folder journals go in.
pub fn folder() -> Option<PathBuf> {
    Some(super::data_dir::data_dir()?.join("journals"))
}

/// FNV-1a: a stable fingerprint of a file's bytes (not for security, for noticing edits).
fn fingerprint(bytes: &[u8]) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in bytes {
        h ^= u64::from(*b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    format!("{h:016x}")
}

/// Fingerprints of the files a session's rules come from: its scripts, the scenario, and the
/// modules imported so far.
pub fn scripts_of(session: &Session) -> Fingerprints {
    let mut files = Vec::new();
    for root in session.script_paths() {
        files.extend(crate::game::project::rule_files(&root));
    }
    files.push(session.scenario().path.clone());
    files.extend(session.imported());
    fingerprints(files, &absolute(session.project().root()))
}

/// Fingerprints of files, by name (a file that cannot be read has none); `root`: the
/// project folder, absolute.
fn fingerprints(files: impl IntoIterator<Item = PathBuf>, root: &Path) -> Fingerprints {
    files
        .into_iter()
        .filter_map(|p| Some((name_of(&p, root), fingerprint(&std::fs::read(&p).ok()?))))
        .collect()
}

/// How a journal names a file: by its real path, relative to the project folder `root`
/// (absolute) when inside it, else absolute; the same name whichever folder the session was
/// played in, and whichever way the file was named to it.
pub fn name_of(path: &Path, root: &Path) -> String {
    let real = absolute(path);
    real.strip_prefix(root)
        .unwrap_or(&real)
        .display()
        .to_string()
}

/// A damaged line in a journal: its number (the header is line 1) and what is wrong with it.
#[derive(Clone, Debug, PartialEq)]
pub struct Damaged {
    /// The line.
    pub line: usize,
    /// What is wrong, in words.
    pub what: String,
}

impl Damaged {
    /// What a replay of the journal `path` says when it stops at the damaged line.
    pub fn stopped(&self, path: &Path) -> String {
        format!(
            "line {} of the journal `{}` is damaged ({}): the session stops there, as far as line {}",
            self.line,
            path.display(),
            self.what,
            self.line - 1
        )
    }
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
            super::report_warning(
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
            super::report_warning(
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
        super::report_warning(
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
            super::report_warning(
                "no journal is kept: there is no data folder (set SANDTABLE_DATA to one); the game goes on, but it cannot be resumed or replayed past this point",
                json,
            );
            return journal;
        };
        if let Err(e) = std::fs::create_dir_all(&dir) {
            super::report_warning(
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
                super::report_warning(
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

/// A path's real path (symlinks resolved), or, for a file that is not there, the path made
/// absolute.
fn absolute(p: &Path) -> PathBuf {
    std::fs::canonicalize(p)
        .or_else(|_| std::path::absolute(p))
        .unwrap_or_else(|_| p.to_path_buf())
}

/// The most recent journal, if any.
pub fn latest() -> Option<PathBuf> {
    let mut journals: Vec<PathBuf> = std::fs::read_dir(folder()?)
        .ok()?
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "jsonl"))
        .collect();
    journals.sort_by_key(|p| std::fs::metadata(p).and_then(|m| m.modified()).ok());
    journals.pop()
}

/// A journal's text, refused before it is read when larger than
/// [`crate::limits::MAX_JOURNAL_BYTES`].
fn read_journal(path: &Path) -> Result<String, Error> {
    let max = crate::limits::MAX_JOURNAL_BYTES;
    read_file_within(path, "a journal", max, "MAX_JOURNAL_BYTES")
}

/// Reads a journal: its header and what follows (the lines entered, each with the dice typed
/// in for it, and the reloads), up to the first damaged line if any, which is given too.
/// A last line cut short without its newline is not damage: a session killed while writing
/// it leaves one, and it was never run.
pub fn read(path: &Path) -> Result<(Header, Vec<Item>, Option<Damaged>), Error> {
    let text = read_journal(path)?;
    let mut lines = text.lines();
    let bad = |what: &str| {
        Error::other(
            format!("`{}` is not a sandtable journal: {what}", path.display()),
            Some("journals are written by `sandtable play` in the data folder".into()),
        )
    };
    let header: Header = serde_json::from_str(lines.next().ok_or_else(|| bad("it is empty"))?)
        .map_err(|e| {
            bad(&format!(
                "its first line is garbled at character {}",
                e.column()
            ))
        })?;
    if header.journal > FORMAT {
        return Err(Error::other(
            format!(
                "`{}` was written by a newer sandtable (journal format {})",
                path.display(),
                header.journal
            ),
            Some(format!("this one reads formats up to {FORMAT}")),
        ));
    }
    let mut items: Vec<Item> = Vec::new();
    let count = text.lines().count();
    let mut damaged = None;
    for (i, line) in lines.enumerate() {
        let number = i + 2;
        let parsed = serde_json::from_str::<Entry>(line);
        if parsed.is_err() && number == count && !text.ends_with('\n') {
            break;
        }
        match parsed {
            Ok(Entry { line: Some(l), .. }) => items.push(Item::Line(l, Vec::new())),
            Ok(Entry { dice: Some(d), .. }) => {
                if let Some(Item::Line(_, dice)) = items.last_mut() {
                    dice.push(d);
                }
            }
            Ok(Entry {
                reload: Some(changed),
                ..
            }) => items.push(Item::Reload(changed)),
            Ok(Entry {
                scripts: Some(scripts),
                ..
            }) => items.push(Item::Read {
                line: number,
                scripts,
            }),
            // Before the `:open` it follows, so that a replay has it when the line runs.
            Ok(Entry {
                opened: Some(save), ..
            }) => {
                let at = before_last_line(&items);
                items.insert(at, Item::Opened { line: number, save });
            }
            // Likewise before the `:save` it follows.
            Ok(Entry {
                saved: Some(true), ..
            }) => {
                let at = before_last_line(&items);
                items.insert(
                    at,
                    Item::Saved {
                        line: number,
                        failed: None,
                    },
                );
            }
            Ok(Entry {
                not_saved: Some(error),
                ..
            }) => {
                let at = before_last_line(&items);
                items.insert(
                    at,
                    Item::Saved {
                        line: number,
                        failed: Some(error),
                    },
                );
            }
            Ok(_) => {
                damaged = Some(Damaged {
                    line: number,
                    what: "it holds no line, dice, reload, scripts, game opened or save".into(),
                });
                break;
            }
            Err(e) => {
                let what = if e.is_data() {
                    "it is not a journal entry".to_string()
                } else if e.is_eof() {
                    "it is cut short".to_string()
                } else {
                    format!("it is garbled at character {}", e.column())
                };
                damaged = Some(Damaged { line: number, what });
                break;
            }
        }
    }
    Ok((header, items, damaged))
}

/// Finds the files a journal names in the project a replay runs in, refusing any other, and
/// compares the files the replayed session reads with the fingerprints its journal recorded,
/// warning (on standard error, as JSON with `json`) of each file that differs, once.
pub struct Check {
    json: bool,
    /// The journal.
    path: PathBuf,
    /// The project folder, absolute, that names are relative to.
    root: PathBuf,
    warned: BTreeSet<String>,
}

impl Check {
    /// A check of the files the journal at `path` names, in `project`, with nothing warned
    /// of yet.
    pub fn new(path: &Path, project: &Project, json: bool) -> Check {
        Check {
            json,
            path: path.to_path_buf(),
            root: absolute(project.root()),
            warned: BTreeSet::new(),
        }
    }

    /// The file a journal's name stands for, if it is in the project (see the module docs).
    fn in_project(&self, name: &Path) -> Result<PathBuf, Refused> {
        let rel = if name.is_absolute() {
            confine::relative_to(name, &self.root)
                .ok_or_else(|| Refused::NotPlain(name.to_path_buf()))?
        } else {
            name.to_path_buf()
        };
        confine::inside(&self.root, &rel)?;
        Ok(self.root.join(rel))
    }

    /// The file `name` stands for, named at the journal's line `line` (1: its header) as
    /// `what` (`the scenario`); a name that is not of a file in the project is refused,
    /// unread, naming the journal, the line and the path.
    pub fn file(&self, name: &Path, line: usize, what: &str) -> Result<PathBuf, Error> {
        self.in_project(name).map_err(|refused| {
            let root = self.root.display();
            let why = match refused {
                Refused::NotPlain(_) => format!("a path outside the project `{root}`"),
                Refused::Outside { .. } => {
                    format!("a link that leads outside the project `{root}`")
                }
                Refused::Missing(_) => format!("which is not in the project `{root}`"),
                Refused::NotAFile { kind, .. } | Refused::NotAFolder { kind, .. } => {
                    format!("which is {kind}, not a file")
                }
            };
            Error::NotRead(Box::new(Error::other(
                format!(
                    "line {line} of the journal `{}` names {what} `{}`, {why}; it was not read",
                    self.path.display(),
                    name.display()
                ),
                Some(
                    "a journal reads only files of the project it is replayed in: replay it in the project it was played in (or give that folder with `--project`), with its scenario and house rules inside it"
                        .into(),
                ),
            )))
        })
    }

    /// The game a journal's line `line` recorded as opened, with its files found in the
    /// project.
    pub fn recorded(&self, line: usize, save: SavedGame) -> Result<RecordedOpen, Error> {
        let scenario = self.file(&save.scenario, line, "the scenario")?;
        let house_rules = match &save.house_rules {
            Some(rules) => Some(
                rules
                    .iter()
                    .map(|r| self.file(r, line, "the house rule"))
                    .collect::<Result<Vec<_>, _>>()?,
            ),
            None => None,
        };
        Ok(RecordedOpen {
            save,
            scenario,
            house_rules,
        })
    }

    /// Warns of each file whose fingerprint now is not the one recorded, at the journal's
    /// `line` (`None`: in its header). Only files of the project are read: one named outside
    /// it is passed over.
    pub fn compare(&mut self, recorded: &Fingerprints, line: Option<usize>) {
        for (path, print) in recorded {
            let now = match self.in_project(Path::new(path)) {
                Ok(file) => std::fs::read(file).ok().map(|bytes| fingerprint(&bytes)),
                Err(Refused::Missing(_)) => None,
                Err(_) => continue,
            };
            if now.as_ref() == Some(print) || !self.warned.insert(path.clone()) {
                continue;
            }
            let message = match line {
                None => format!(
                    "{path} has changed since the journal was written; the game may go differently"
                ),
                Some(n) => format!(
                    "{path} has changed since the session read it (journal line {n}); the game may go differently from there"
                ),
            };
            super::report_warning(&message, self.json);
        }
    }
}

/// Starts the session a journal describes, in `project`, with the files `check` finds there,
/// warning through it of scripts changed since the journal was written.
pub fn start_session(
    header: &Header,
    project: &Project,
    check: &mut Check,
) -> Result<Session, Error> {
    let session = if let Some(save) = &header.opened {
        let recorded = check.recorded(1, (**save).clone())?;
        Session::open_recorded(project, &check.path, recorded)?
    } else if let Some(save) = &header.open {
        Session::open(project, &check.file(save, 1, "the save")?)?
    } else {
        let path = match &header.scenario {
            Some(scenario) => check.file(scenario, 1, "the scenario")?,
            None => project.default_scenario(),
        };
        let mut scenario = crate::game::scenario::Scenario::load(project, &path)?;
        if let Some(rules) = &header.house_rules {
            scenario.house_rules = rules
                .iter()
                .map(|r| check.file(r, 1, "the house rule"))
                .collect::<Result<Vec<_>, _>>()?;
        }
        Session::new(project, scenario, header.seed)?
    };
    check.compare(&header.scripts, None);
    Ok(session)
}

/// Where a record goes that belongs before the line it follows in the journal (an `:open`'s
/// game, a `:save`'s outcome): before the last line read, so that a replay has it when that
/// line runs.
fn before_last_line(items: &[Item]) -> usize {
    items
        .iter()
        .rposition(|i| matches!(i, Item::Line(..)))
        .unwrap_or(items.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fingerprints_differ_for_different_bytes() {
        assert_eq!(fingerprint(b"fn a() { 1 }"), fingerprint(b"fn a() { 1 }"));
        assert_ne!(fingerprint(b"fn a() { 1 }"), fingerprint(b"fn a() { 2 }"));
        assert_eq!(fingerprint(b""), "cbf29ce484222325");
    }

    #[test]
    fn files_are_named_alike_however_they_were_named() {
        let project = tempfile::tempdir().unwrap();
        let root = absolute(project.path());
        std::fs::create_dir(root.join("scenarios")).unwrap();
        std::fs::write(root.join("scenarios/x.yaml"), "").unwrap();
        let inside = root.join("scenarios/../scenarios/x.yaml");
        assert_eq!(name_of(&inside, &root), "scenarios/x.yaml");
        let elsewhere = tempfile::tempdir().unwrap();
        let outside = absolute(elsewhere.path()).join("rule.rhai");
        std::fs::write(&outside, "").unwrap();
        let name = name_of(&outside, &root);
        assert_eq!(name, outside.display().to_string());
    }

    #[test]
    fn reloads_and_readings_are_read_in_order_with_their_lines() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("j.jsonl");
        let header =
            r#"{"journal":2,"project":"/p","scenario":null,"open":null,"seed":3,"scripts":{}}"#;
        let rest = [
            r#"{"line":":dice manual"}"#,
            r#"{"reload":["rules.rhai"]}"#,
            r#"{"scripts":{"rules.rhai":"00"}}"#,
            r#"{"line":"roll 1d6"}"#,
            r#"{"dice":"4"}"#,
            r#"{"line":"half a li"#,
        ];
        // Without a newline at the end: a session killed while writing its last line.
        std::fs::write(&path, format!("{header}\n{}", rest.join("\n"))).unwrap();
        let (_, items, damaged) = read(&path).unwrap();
        assert_eq!(damaged, None);
        assert_eq!(
            items,
            vec![
                Item::Line(":dice manual".into(), vec![]),
                Item::Reload(vec![PathBuf::from("rules.rhai")]),
                Item::Read {
                    line: 4,
                    scripts: [("rules.rhai".to_string(), "00".to_string())].into(),
                },
                Item::Line("roll 1d6".into(), vec!["4".into()]),
            ]
        );
        // The same half line in the middle is damage, named with its line.
        std::fs::write(&path, format!("{header}\n{}\n", rest.join("\n"))).unwrap();
        let (_, items, damaged) = read(&path).unwrap();
        assert_eq!(items.len(), 4);
        assert_eq!(
            damaged,
            Some(Damaged {
                line: 7,
                what: "it is cut short".into()
            })
        );
        std::fs::write(&path, format!("{header}\n{{\"nothing\":1}}\n")).unwrap();
        let (_, _, damaged) = read(&path).unwrap();
        assert_eq!(damaged.map(|d| d.line), Some(2));
        std::fs::write(&path, format!("{header}\n{{\"line\" 1}}\n{}\n", rest[0])).unwrap();
        let (_, _, damaged) = read(&path).unwrap();
        assert_eq!(
            damaged.map(|d| d.what),
            Some("it is garbled at character 9".into())
        );
        // A newer format.
        let newer = header.replace(":2,", &format!(":{},", FORMAT + 1));
        std::fs::write(&path, newer).unwrap();
        assert!(read(&path).is_err());
    }
}
