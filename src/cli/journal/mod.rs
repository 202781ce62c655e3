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
//!
//! By concept: [`format`] is what a journal holds and how it is read, [`writer`] the
//! [`Journal`] a session writes, [`check`] what a replay checks against the project it runs
//! in, [`fingerprint`] how a file is fingerprinted.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

mod check;
mod fingerprint;
mod format;
mod writer;

#[cfg(test)]
mod tests;

pub use check::{Check, start_session};
pub use format::{Header, Item, read};
pub use writer::Journal;

/// The journal format's version: 2 added hot reloads and the scripts read mid-session; 3
/// names files relative to the project and records the games opened; 4 records how each
/// `:save` went; 5 fingerprints files with SHA-256 (16-digit FNV-1a before, still compared).
pub const FORMAT: u32 = 5;

/// Fingerprints of files, by name ([`name_of`]).
pub type Fingerprints = BTreeMap<String, String>;

/// The folder journals go in.
pub fn folder() -> Option<PathBuf> {
    Some(super::data_dir::data_dir()?.join("journals"))
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

/// A path's real path (symlinks resolved), or, for a file that is not there, the path made
/// absolute.
pub(super) fn absolute(p: &Path) -> PathBuf {
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
