//! What a replay or resume checks against the project it runs in: the files a journal names,
//! found there or refused, and the fingerprints it recorded, compared with the files now.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use super::fingerprint::matches;
use super::{Fingerprints, Header, absolute};
use crate::error::Error;
use crate::game::confine::{self, Refused};
use crate::game::project::Project;
use crate::game::save::SavedGame;
use crate::session::{RecordedOpen, Session};

/// Finds the files a journal names in the project a replay runs in, refusing any other, and
/// compares the files the replayed session reads with the fingerprints its journal recorded,
/// warning (on standard error, as JSON with `json`) of each file that differs, once.
pub struct Check {
    pub(super) json: bool,
    /// The journal.
    pub(super) path: PathBuf,
    /// The project folder, absolute, that names are relative to.
    pub(super) root: PathBuf,
    pub(super) warned: BTreeSet<String>,
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
                Ok(file) => std::fs::read(file).ok(),
                Err(Refused::Missing(_)) => None,
                Err(_) => continue,
            };
            if now.is_some_and(|bytes| matches(print, &bytes)) || !self.warned.insert(path.clone())
            {
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
            super::super::report_warning(&message, self.json);
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
