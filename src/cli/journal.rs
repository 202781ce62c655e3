//! Session journals: every `play` session writes, as it goes, the seed, where it started, a
//! fingerprint of each script and each line entered, one JSON object a line, flushed at once.
//! `play --resume` continues a session that crashed or was killed by replaying its lines;
//! `sandtable replay JOURNAL` reproduces a session and warns when a script has changed.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::error::{Error, read_file};
use crate::session::Session;

/// The journal format's version.
pub const FORMAT: u32 = 1;

/// The lines of a journal: each line entered, with the dice typed in for it.
pub type Lines = Vec<(String, Vec<String>)>;

/// The first line of a journal: how to start the same session again.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Header {
    /// The format.
    pub journal: u32,
    /// The project folder.
    pub project: PathBuf,
    /// The scenario started from, or
    pub scenario: Option<PathBuf>,
    /// the save opened.
    pub open: Option<PathBuf>,
    /// The seed.
    pub seed: u64,
    /// A fingerprint of each script and data file, by path.
    pub scripts: BTreeMap<String, String>,
    /// The house rules in force at the start (the scenario's and `--with`'s), in order.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub house_rules: Option<Vec<PathBuf>>,
}

/// One line of a journal after the header: a line entered, or dice typed in for it.
#[derive(Serialize, Deserialize)]
struct Entry {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    line: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    dice: Option<String>,
}

/// A journal being written.
pub struct Journal {
    file: Option<std::fs::File>,
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

/// Fingerprints of the files a session's rules come from.
pub fn scripts_of(session: &Session) -> BTreeMap<String, String> {
    let mut files = Vec::new();
    for root in session.script_paths() {
        files.extend(crate::game::project::rule_files(&root));
    }
    files.push(session.scenario().path.clone());
    files
        .into_iter()
        .filter_map(|p| {
            Some((
                p.display().to_string(),
                fingerprint(&std::fs::read(&p).ok()?),
            ))
        })
        .collect()
}

impl Journal {
    /// Starts a journal for a session (silently none if the data folder cannot be written:
    /// a game is never refused for want of a journal).
    pub fn start(session: &Session, scenario: Option<PathBuf>, open: Option<PathBuf>) -> Journal {
        let header = Header {
            journal: FORMAT,
            project: session.project().root().to_path_buf(),
            scenario: scenario.map(|p| absolute(&p)),
            open: open.map(|p| absolute(&p)),
            seed: session.state().rng.seed(),
            scripts: scripts_of(session),
            house_rules: Some(session.house_rules().iter().map(|p| absolute(p)).collect()),
        };
        let stamp = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_millis());
        let Some(dir) = folder() else {
            return Journal { file: None };
        };
        let path = dir.join(format!("session-{stamp}-{}.jsonl", std::process::id()));
        let file = std::fs::create_dir_all(&dir)
            .ok()
            .and_then(|()| std::fs::File::create(&path).ok());
        let mut journal = Journal { file };
        if let Ok(text) = serde_json::to_string(&header) {
            journal.write(&text);
        }
        journal
    }

    /// Continues writing an existing journal.
    pub fn append(path: &Path) -> Journal {
        let file = std::fs::OpenOptions::new().append(true).open(path).ok();
        Journal { file }
    }

    fn write(&mut self, text: &str) {
        if let Some(f) = &mut self.file
            && (writeln!(f, "{text}").is_err() || f.flush().is_err())
        {
            self.file = None;
        }
    }

    /// Records a line entered, before it runs (so a crash in it still has it).
    pub fn record(&mut self, line: &str) {
        let entry = Entry {
            line: Some(line.to_string()),
            dice: None,
        };
        if let Ok(text) = serde_json::to_string(&entry) {
            self.write(&text);
        }
    }

    /// Records dice typed in by the players (`:dice manual`) for the line under way.
    pub fn record_dice(&mut self, answer: &str) {
        let entry = Entry {
            line: None,
            dice: Some(answer.to_string()),
        };
        if let Ok(text) = serde_json::to_string(&entry) {
            self.write(&text);
        }
    }
}

fn absolute(p: &Path) -> PathBuf {
    std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf())
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

/// Reads a journal: its header and the lines entered, each with the dice typed in for it.
pub fn read(path: &Path) -> Result<(Header, Lines), Error> {
    let text = read_file(path)?;
    let mut lines = text.lines();
    let bad = |what: &str| {
        Error::other(
            format!("`{}` is not a sandtable journal: {what}", path.display()),
            Some("journals are written by `sandtable play` in the data folder".into()),
        )
    };
    let header: Header = serde_json::from_str(lines.next().ok_or_else(|| bad("it is empty"))?)
        .map_err(|e| bad(&e.to_string()))?;
    let mut entries: Vec<(String, Vec<String>)> = Vec::new();
    for line in lines {
        // A session killed while writing may leave half a line at the end: it was never run.
        match serde_json::from_str::<Entry>(line) {
            Ok(Entry { line: Some(l), .. }) => entries.push((l, Vec::new())),
            Ok(Entry { dice: Some(d), .. }) => {
                if let Some(last) = entries.last_mut() {
                    last.1.push(d);
                }
            }
            _ => break,
        }
    }
    Ok((header, entries))
}

/// Starts the session a journal describes, warning (on standard error, as JSON with `json`)
/// of scripts changed since it was written.
pub fn start_session(header: &Header, json: bool) -> Result<Session, Error> {
    let project = crate::game::project::Project::at(&header.project)?;
    let session = match (&header.open, &header.scenario) {
        (Some(save), _) => Session::open(&project, save)?,
        (None, scenario) => {
            let path = scenario
                .clone()
                .unwrap_or_else(|| project.default_scenario());
            let mut scenario = crate::game::scenario::Scenario::load(&project, &path)?;
            if let Some(rules) = &header.house_rules {
                scenario.house_rules = rules.clone();
            }
            Session::new(&project, scenario, header.seed)?
        }
    };
    let now = scripts_of(&session);
    for (path, print) in &header.scripts {
        if now.get(path) != Some(print) {
            super::report_warning(
                &format!(
                    "{path} has changed since the journal was written; the game may go differently"
                ),
                json,
            );
        }
    }
    Ok(session)
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
}
