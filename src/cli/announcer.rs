//! Telling the player of an edit at once, while the prompt waits for a line.
//!
//! A thread watches the game's files ([`Watcher`]) and, within a second of a save, prints
//! above the prompt through rustyline's `ExternalPrinter`: that the new rules take effect
//! from the next line, or why they fail (it builds a throwaway game of its own from the
//! files, as a reload does, and drops it), or that the scenario changed. It never touches
//! the game: scripts are not `Send`, and rules change only between actions, so the reload
//! itself stays with the prompt, before the next action (`play::hot_reload`).

use std::path::{Path, PathBuf};
use std::sync::mpsc::{self, Receiver, Sender, TryRecvError};
use std::time::Duration;

use rustyline::ExternalPrinter;

use super::watch::Watcher;
use crate::error::Error;
use crate::game::project::Project;
use crate::game::scenario::Scenario;
use crate::script::engine::Limits;
use crate::session::Session;

/// How often the thread looks at the files (a change also waits [`super::watch::SETTLE`]).
const POLL: Duration = Duration::from_millis(200);

/// The thread that announces edits; it ends when this is dropped.
pub struct Announcer {
    follow: Sender<(Rules, Watcher)>,
    following: Rules,
}

/// What the thread needs to know of the game: the files to watch, and how to build the
/// rules from them.
#[derive(Clone)]
struct Rules {
    project: Project,
    scenario: PathBuf,
    house_rules: Vec<PathBuf>,
    watched: Vec<PathBuf>,
    limits: Limits,
}

impl Rules {
    fn of(session: &Session) -> Rules {
        Rules {
            project: session.project().clone(),
            scenario: session.scenario().path.clone(),
            house_rules: session.house_rules().to_vec(),
            watched: session.script_paths(),
            limits: session.limits().clone(),
        }
    }

    /// Whether these are the same files (what a new game or a house rule changes).
    fn same_files(&self, other: &Rules) -> bool {
        self.project.root() == other.project.root()
            && self.scenario == other.scenario
            && self.house_rules == other.house_rules
            && self.watched == other.watched
    }
}

impl Announcer {
    /// Starts watching the files of `session`'s game, printing through `printer`.
    pub fn start(printer: impl ExternalPrinter + Send + 'static, session: &Session) -> Announcer {
        let following = Rules::of(session);
        let (follow, follows) = mpsc::channel();
        // The files are read now, before the prompt shows, not when the thread gets going:
        // an edit made in between would otherwise go unseen.
        let watching = (following.clone(), Watcher::new(following.watched.clone()));
        std::thread::spawn(move || announce(printer, watching, follows));
        Announcer { follow, following }
    }

    /// Watches the files of `session`'s game from now on, if they are not those watched
    /// already (after `:load`, `:open`, `:with`, a reload).
    pub fn follow(&mut self, session: &Session) {
        let rules = Rules::of(session);
        if !rules.same_files(&self.following) {
            self.following = rules.clone();
            let watcher = Watcher::new(rules.watched.clone());
            let _ = self.follow.send((rules, watcher));
        }
    }
}

/// The thread: watch, and say what changed, until the [`Announcer`] is dropped.
fn announce(
    mut printer: impl ExternalPrinter,
    (mut rules, mut watcher): (Rules, Watcher),
    follows: Receiver<(Rules, Watcher)>,
) {
    loop {
        loop {
            match follows.try_recv() {
                Ok(new) => (rules, watcher) = new,
                Err(TryRecvError::Empty) => break,
                Err(TryRecvError::Disconnected) => return,
            }
        }
        let changed = watcher.changes();
        if !changed.is_empty() && printer.print(notice(&rules, changed)).is_err() {
            return;
        }
        std::thread::sleep(POLL);
    }
}

/// What to say of changed files: the scenario is a new game, left to `:load`; the rules
/// are checked by building them.
fn notice(rules: &Rules, mut changed: Vec<PathBuf>) -> String {
    let mut out = String::new();
    if let Some(i) = changed.iter().position(|p| same_file(p, &rules.scenario)) {
        changed.remove(i);
        let scenario = rules.scenario.display().to_string();
        let scenario = super::printable::printable(&scenario);
        out.push_str(&format!(
            "{scenario} changed: `:load {scenario}` starts a game of it\n"
        ));
    }
    if changed.is_empty() {
        return out;
    }
    let root = rules.project.root();
    let names: Vec<String> = changed
        .iter()
        .map(|p| p.strip_prefix(root).unwrap_or(p).display().to_string())
        .collect();
    let names = names.join(", ");
    let names = super::printable::printable(&names);
    match check(rules) {
        Ok(()) => out.push_str(&format!(
            "{names} changed: the new rules take effect from your next line\n"
        )),
        Err(e) => {
            out.push_str(&format!(
                "warning: {names} changed, but the old rules stay in force:\n"
            ));
            out.push_str(&super::render_error(&e));
        }
    }
    out
}

/// Builds the rules from the files, as a reload does, in a throwaway game.
fn check(rules: &Rules) -> Result<(), Error> {
    let mut scenario = Scenario::load(&rules.project, &rules.scenario)?;
    scenario.house_rules = rules.house_rules.clone();
    Session::with_limits(&rules.project, scenario, 0, rules.limits.clone()).map(drop)
}

fn same_file(a: &Path, b: &Path) -> bool {
    a == b || std::fs::canonicalize(a).is_ok_and(|a| std::fs::canonicalize(b).is_ok_and(|b| a == b))
}
