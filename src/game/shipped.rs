//! The rulesets and scenarios shipped in the binary (packed by `build.rs` from the clone's
//! `scripts/` and `scenarios/`), so that an installed `sandtable` plays them with no clone
//! at hand.
//!
//! They are unpacked into the data folder, `shipped/VERSION-FINGERPRINT/`, and read from
//! there as any project's files are: through the same confinement of paths and the same
//! limits ([`crate::game::confine`], `docs/security.md`), and every message names a file the
//! player can open. Nothing here reads a shipped file for the game: the game reads the
//! unpacked folder, so there is one way in for every file, shipped or not.
//!
//! Unpacking writes a fresh folder beside the final one and renames it into place, so two
//! sandtables starting at once never see half of it. At each start the files are compared
//! with the binary's, and one that differs (edited, removed, replaced by a link) is written
//! again, through a temporary file renamed over it: the shipped project is always what the
//! binary ships. A project of the player's own takes precedence over it
//! ([`crate::game::project::Project::locate`]).

use std::path::{Path, PathBuf};

use crate::error::Error;

include!(concat!(env!("OUT_DIR"), "/shipped.rs"));

/// The shipped files: each path from the project folder (with `/`) and its bytes, sorted.
pub fn files() -> &'static [(&'static str, &'static [u8])] {
    FILES
}

/// A fingerprint of the shipped files (SHA-256 over every path and its bytes, each ended by a
/// nul), in hex: a binary built from other files unpacks into a folder of its own.
pub fn fingerprint() -> String {
    use sha2::{Digest, Sha256};
    use std::fmt::Write;
    let mut hash = Sha256::new();
    for (path, bytes) in FILES {
        hash.update(path.as_bytes());
        hash.update([0]);
        hash.update(bytes);
        hash.update([0]);
    }
    hash.finalize().iter().fold(String::new(), |mut hex, b| {
        let _ = write!(hex, "{b:02x}");
        hex
    })
}

/// The folder, under the data folder, that the shipped files are unpacked into.
pub fn folder_in(data: &Path) -> PathBuf {
    data.join("shipped").join(format!(
        "{}-{}",
        env!("CARGO_PKG_VERSION"),
        &fingerprint()[..12]
    ))
}

/// Unpacks the shipped files under the data folder `data` (or checks and mends them if they
/// are there already) and returns the folder: a project.
pub fn unpack(data: &Path) -> Result<PathBuf, Error> {
    let dest = folder_in(data);
    if dest.is_dir() {
        mend(&dest)?;
        return Ok(dest);
    }
    let parent = folder_of(&dest);
    std::fs::create_dir_all(&parent).map_err(|reason| write_error(&parent, reason))?;
    // Removed when dropped, whatever happens below (after the rename, nothing is left).
    let staging = tempfile::Builder::new()
        .prefix(".unpacking-")
        .tempdir_in(&parent)
        .map_err(|reason| write_error(&parent, reason))?;
    for (rel, bytes) in FILES {
        let path = staging.path().join(rel);
        let folder = folder_of(&path);
        std::fs::create_dir_all(&folder).map_err(|reason| write_error(&folder, reason))?;
        std::fs::write(&path, bytes).map_err(|reason| write_error(&path, reason))?;
    }
    match std::fs::rename(staging.path(), &dest) {
        Ok(()) => Ok(dest),
        // Another sandtable unpacked it first: use (and check) that one.
        Err(_) if dest.is_dir() => {
            mend(&dest)?;
            Ok(dest)
        }
        Err(reason) => Err(write_error(&dest, reason)),
    }
}

/// Writes again every shipped file under `dest` that is not a regular file with the bytes
/// the binary ships.
fn mend(dest: &Path) -> Result<(), Error> {
    for (rel, bytes) in FILES {
        let path = dest.join(rel);
        let intact = std::fs::symlink_metadata(&path).is_ok_and(|m| m.is_file())
            && std::fs::read(&path).is_ok_and(|b| b == *bytes);
        if !intact {
            write_over(&path, bytes)?;
        }
    }
    Ok(())
}

/// Writes `bytes` to `path` through a temporary file beside it, renamed over it.
fn write_over(path: &Path, bytes: &[u8]) -> Result<(), Error> {
    use std::io::Write;
    let folder = folder_of(path);
    std::fs::create_dir_all(&folder).map_err(|reason| write_error(&folder, reason))?;
    let mut tmp = tempfile::Builder::new()
        .prefix(".mending-")
        .tempfile_in(&folder)
        .map_err(|reason| write_error(path, reason))?;
    tmp.write_all(bytes)
        .map_err(|reason| write_error(path, reason))?;
    tmp.persist(path).map_err(|e| write_error(path, e.error))?;
    Ok(())
}

/// The folder a file is in (every path here has one: they are all under the data folder).
fn folder_of(path: &Path) -> PathBuf {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

fn write_error(path: &Path, reason: std::io::Error) -> Error {
    Error::Io {
        action: "write",
        path: path.to_path_buf(),
        reason,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_binary_ships_every_ruleset_and_scenario_of_the_clone() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let on_disk = crate::game::project::rule_files(&root.join("scenarios"));
        assert!(!on_disk.is_empty());
        for path in on_disk
            .iter()
            .chain(&crate::game::project::rule_files(&root.join("scripts")))
        {
            let rel = path
                .strip_prefix(root)
                .unwrap()
                .to_str()
                .unwrap()
                .replace('\\', "/");
            let shipped = FILES.iter().find(|(p, _)| *p == rel);
            assert!(shipped.is_some(), "`{rel}` is not shipped");
        }
    }

    #[test]
    fn unpacking_writes_the_files_once_and_mends_what_was_changed() {
        let data = tempfile::tempdir().unwrap();
        let dest = unpack(data.path()).unwrap();
        let (rel, bytes) = FILES[0];
        assert_eq!(std::fs::read(dest.join(rel)).unwrap(), bytes);
        std::fs::write(dest.join(rel), "changed").unwrap();
        let (other, _) = FILES[1];
        std::fs::remove_file(dest.join(other)).unwrap();
        assert_eq!(unpack(data.path()).unwrap(), dest);
        assert_eq!(std::fs::read(dest.join(rel)).unwrap(), bytes);
        assert!(dest.join(other).is_file());
        // Nothing but the one folder is left beside it.
        let beside: Vec<_> = std::fs::read_dir(folder_of(&dest))
            .unwrap()
            .flatten()
            .collect();
        assert_eq!(beside.len(), 1);
    }
}
