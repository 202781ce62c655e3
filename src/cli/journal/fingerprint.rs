//! Fingerprints of the files a session's rules come from, as a journal records them.

use std::path::{Path, PathBuf};

use super::{Fingerprints, absolute, name_of};
use crate::session::Session;

/// A file's fingerprint: SHA-256 of its bytes, in hex (64 digits). Journals come from
/// strangers, so a file made to match a recorded fingerprint must be out of reach.
pub(super) fn fingerprint(bytes: &[u8]) -> String {
    use sha2::{Digest, Sha256};
    use std::fmt::Write;
    Sha256::digest(bytes)
        .iter()
        .fold(String::with_capacity(64), |mut hex, b| {
            let _ = write!(hex, "{b:02x}");
            hex
        })
}

/// FNV-1a, 64 bits, in hex (16 digits): the fingerprint journals before format 5 recorded,
/// still used to compare a file with one of theirs.
fn legacy(bytes: &[u8]) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in bytes {
        h ^= u64::from(*b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    format!("{h:016x}")
}

/// Whether `bytes` are the file fingerprinted `recorded`: by SHA-256, or, for a 16-digit
/// fingerprint (a journal before format 5), by its FNV-1a.
pub(super) fn matches(recorded: &str, bytes: &[u8]) -> bool {
    if recorded.len() == 16 {
        legacy(bytes) == recorded
    } else {
        fingerprint(bytes) == recorded
    }
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
