//! Watching the scripts a game uses, so that an edit takes effect at once (hot reload).
//!
//! The watcher compares each file's size and modification time with what it saw last: that
//! notices plain saves and editors that save by writing a new file and renaming it over the
//! old one, needs no platform notification service, and costs a few file-system calls.
//! `changes` reports files that changed and then stayed unchanged for a short settling time
//! (the debounce), so a save in several writes is one change.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::{Duration, Instant, SystemTime};

/// How long a changed file must stay unchanged before it counts.
pub const SETTLE: Duration = Duration::from_millis(100);

/// The `.rhai` and `.yaml` files under some folders, and some single files of any kind, with
/// what was last seen of them.
pub struct Watcher {
    roots: Vec<PathBuf>,
    seen: BTreeMap<PathBuf, Option<(u64, SystemTime)>>,
}

impl Watcher {
    /// Watches the `.rhai` and `.yaml` files under these folders, and these files whatever
    /// their kind (a batch file of prompt lines, `game.txt`, is watched too).
    pub fn new(roots: Vec<PathBuf>) -> Self {
        let mut w = Watcher {
            roots,
            seen: BTreeMap::new(),
        };
        w.seen = w.scan();
        w
    }

    fn scan(&self) -> BTreeMap<PathBuf, Option<(u64, SystemTime)>> {
        let mut files = BTreeMap::new();
        for root in &self.roots {
            let under = if root.is_dir() {
                crate::game::project::rule_files(root)
            } else {
                // A file named on its own; watched even while it is missing (an editor
                // saving it by rename), so that its return is a change.
                vec![root.clone()]
            };
            for file in under {
                let meta = std::fs::metadata(&file).ok();
                let seen = meta.and_then(|m| Some((m.len(), m.modified().ok()?)));
                files.insert(file, seen);
            }
        }
        files
    }

    /// Watches `roots` from now on, if they are not those watched already (a game loaded,
    /// opened, or given a house rule); what changed before is forgotten.
    pub fn follow(&mut self, roots: Vec<PathBuf>) {
        if roots != self.roots {
            *self = Watcher::new(roots);
        }
    }

    /// The files that changed (or appeared, or went) since the last call, once settled.
    pub fn changes(&mut self) -> Vec<PathBuf> {
        let now = self.scan();
        let mut changed: Vec<PathBuf> = now
            .iter()
            .filter(|(p, v)| self.seen.get(*p) != Some(v))
            .map(|(p, _)| p.clone())
            .chain(self.seen.keys().filter(|p| !now.contains_key(*p)).cloned())
            .collect();
        if changed.is_empty() {
            return changed;
        }
        // Let a save in several writes finish.
        let deadline = Instant::now() + Duration::from_secs(2);
        let mut last = now;
        loop {
            std::thread::sleep(SETTLE);
            let again = self.scan();
            if again == last || Instant::now() > deadline {
                self.seen = again;
                break;
            }
            last = again;
        }
        changed.sort();
        changed.dedup();
        changed
    }

    /// Blocks until something changes; returns what did.
    pub fn wait(&mut self) -> Vec<PathBuf> {
        loop {
            let changed = self.changes();
            if !changed.is_empty() {
                return changed;
            }
            std::thread::sleep(SETTLE);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_edit_and_a_rename_over_are_changes() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("rule.rhai");
        std::fs::write(&file, "fn a() { 1 }").unwrap();
        let mut w = Watcher::new(vec![dir.path().to_path_buf()]);
        assert!(w.changes().is_empty());
        std::fs::write(&file, "fn a() { 22 }").unwrap();
        assert_eq!(w.changes(), vec![file.clone()]);
        // An editor's save: a new file renamed over the old one.
        let tmp = dir.path().join("rule.rhai.swp");
        std::fs::write(&tmp, "fn a() { 333 }").unwrap();
        std::fs::rename(&tmp, &file).unwrap();
        assert_eq!(w.changes(), vec![file]);
        assert!(w.changes().is_empty());
    }

    #[test]
    fn a_file_named_on_its_own_is_watched_whatever_its_kind() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("game.txt");
        std::fs::write(&file, "roll 1d6\n").unwrap();
        let mut w = Watcher::new(vec![file.clone()]);
        assert!(w.changes().is_empty());
        std::fs::write(&file, "roll 1d6\nroll 2d6\n").unwrap();
        assert_eq!(w.changes(), vec![file]);
    }

    // Guards the watcher against a symlink loop in a watched folder: its walk went round
    // the loop (exponentially with two links), so hot reload hung.
    #[cfg(unix)]
    #[test]
    fn a_symlink_loop_in_a_watched_folder_is_not_followed() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("rule.rhai");
        std::fs::write(&file, "fn a() { 1 }").unwrap();
        std::os::unix::fs::symlink("..", dir.path().join("up")).unwrap();
        std::os::unix::fs::symlink(".", dir.path().join("again")).unwrap();
        let started = Instant::now();
        let mut w = Watcher::new(vec![dir.path().to_path_buf()]);
        assert_eq!(w.seen.keys().collect::<Vec<_>>(), vec![&file]);
        assert!(w.changes().is_empty());
        assert!(started.elapsed() < Duration::from_secs(2));
    }
}
