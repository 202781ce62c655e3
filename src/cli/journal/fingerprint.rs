//! Fingerprints of the files a session's rules come from, as a journal records them.

use std::path::{Path, PathBuf};

use super::{Fingerprints, absolute, name_of};
use crate::session::Session;

/// FNV-1a: a stable fingerprint of a file's bytes (not for security, for noticing edits).
pub(super) fn fingerprint(bytes: &[u8]) -> String {
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
pub(super) fn fingerprints(files: impl IntoIterator<Item = PathBuf>, root: &Path) -> Fingerprints {
    files
        .into_iter()
        .filter_map(|p| Some((name_of(&p, root), fingerprint(&std::fs::read(&p).ok()?))))
        .collect()
}
