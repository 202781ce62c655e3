//! What a journal holds, line by line, and how it is read back: the header, the entries after
//! it, and the first damaged line if any.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::{FORMAT, Fingerprints};
use crate::error::{Error, Recorded, read_file_within};
use crate::game::save::SavedGame;

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
pub(super) struct Entry {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) line: Option<String>,
    /// An answer typed when the rules asked: dice (`:dice manual`) or cards (`:cards manual`);
    /// the name stays `dice` so that older journals read the same.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) dice: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) reload: Option<Vec<PathBuf>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) scripts: Option<Fingerprints>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) opened: Option<Box<SavedGame>>,
    /// A `:save` that wrote its file.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) saved: Option<bool>,
    /// A `:save` that failed, and the error it was told with.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) not_saved: Option<Recorded>,
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

/// A journal's text, refused before it is read when larger than
/// [`crate::limits::MAX_JOURNAL_BYTES`].
pub(super) fn read_journal(path: &Path) -> Result<String, Error> {
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

/// Where a record goes that belongs before the line it follows in the journal (an `:open`'s
/// game, a `:save`'s outcome): before the last line read, so that a replay has it when that
/// line runs.
fn before_last_line(items: &[Item]) -> usize {
    items
        .iter()
        .rposition(|i| matches!(i, Item::Line(..)))
        .unwrap_or(items.len())
}
