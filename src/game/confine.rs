//! Paths that shared files name, kept inside the folders they may name.
//!
//! Scenarios, house rules, saves and scripts are shared between strangers, so a path one of
//! them names (a house rule, an import, a save's scenario) is untrusted. One rule serves
//! them all, the one imports always had: the path is relative and made of plain names (no
//! `..`, no root, no drive), it is looked up under an allowed folder, and its real path
//! (every symlink resolved) must still lie inside that folder's real path. A symlink that
//! leads out is refused, naming the file; its target is never opened, so nothing of it can
//! reach a diagnostic.
//!
//! The folder walks (`project::rule_files`) keep the same rule for what they find: they
//! never follow a symlink to a folder, and take a symlinked file only if it stays inside.

use std::path::{Component, Path, PathBuf};

pub use crate::error::kind_of;

/// Why a path a shared file names may not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Refused {
    /// An absolute path, one with `..` or `.`, or nothing.
    #[error("`{}` is not a plain relative path inside its folder", .0.display())]
    NotPlain(PathBuf),
    /// No such file (or a symlink to nothing).
    #[error("`{}` does not exist", .0.display())]
    Missing(PathBuf),
    /// A symlink (the file itself or a folder on its way) that leads out of the folder.
    #[error("`{}` is a link that leads outside `{}`", .file.display(), .folder.display())]
    Outside {
        /// The file as named, under its folder.
        file: PathBuf,
        /// The folder it must stay in.
        folder: PathBuf,
    },
    /// A folder, a device, a FIFO: not a file that can be read.
    #[error("`{}` is {kind}, not a file", .file.display())]
    NotAFile {
        /// The file as named, under its folder.
        file: PathBuf,
        /// What it is instead, in words ([`kind_of`]).
        kind: &'static str,
    },
}

/// Whether `rel` is a relative path of plain names (`house/rule.rhai`).
pub fn is_plain(rel: &Path) -> bool {
    !rel.as_os_str().is_empty() && rel.components().all(|c| matches!(c, Component::Normal(_)))
}

/// The paths [`is_plain`] lets through, as a regular expression (ECMA-262, for the schemas
/// editors check files against): not empty, not absolute, not starting with `.`, without a
/// `..`.
pub const PLAIN_PATTERN: &str = r"^(?!/)(?!\.(?:/|$))(?!(?:.*/)?\.\.(?:/|$)).+$";

/// The real path of the file `rel` names under `folder`, if it is a plain relative path whose
/// real path stays inside the folder's and is a regular file; else why not.
pub fn inside(folder: &Path, rel: &Path) -> Result<PathBuf, Refused> {
    if !is_plain(rel) {
        return Err(Refused::NotPlain(rel.to_path_buf()));
    }
    let named = folder.join(rel);
    let root = folder
        .canonicalize()
        .map_err(|_| Refused::Missing(named.clone()))?;
    let real = named
        .canonicalize()
        .map_err(|_| Refused::Missing(named.clone()))?;
    if !real.starts_with(&root) {
        return Err(Refused::Outside {
            file: named,
            folder: folder.to_path_buf(),
        });
    }
    match std::fs::metadata(&real) {
        Ok(m) if m.is_file() => {}
        Ok(m) => {
            return Err(Refused::NotAFile {
                file: named,
                kind: kind_of(&m.file_type()),
            });
        }
        Err(_) => return Err(Refused::Missing(named)),
    }
    Ok(real)
}

/// `path` relative to `folder`, if its real path lies inside the folder's real path (for a
/// file that is not there yet, its folder's real path is used).
pub fn relative_to(path: &Path, folder: &Path) -> Option<PathBuf> {
    let root = folder.canonicalize().ok()?;
    let real = real_path(path)?;
    let rel = real.strip_prefix(&root).ok()?.to_path_buf();
    is_plain(&rel).then_some(rel)
}

/// A path with every symlink resolved; for a file not there, its folder's real path joined
/// with its name.
fn real_path(path: &Path) -> Option<PathBuf> {
    path.canonicalize().ok().or_else(|| {
        let folder = match path.parent() {
            Some(p) if !p.as_os_str().is_empty() => p,
            _ => Path::new("."),
        };
        Some(folder.canonicalize().ok()?.join(path.file_name()?))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_paths_inside_are_found_and_escapes_refused() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("house")).unwrap();
        std::fs::write(dir.path().join("house/rule.rhai"), "").unwrap();
        let found = inside(dir.path(), Path::new("house/rule.rhai")).unwrap();
        assert!(found.ends_with("house/rule.rhai"));
        for bad in [
            "../x.rhai",
            "/etc/passwd",
            "house/../house/rule.rhai",
            "./a",
            "",
        ] {
            assert!(
                matches!(
                    inside(dir.path(), Path::new(bad)),
                    Err(Refused::NotPlain(_))
                ),
                "{bad}"
            );
        }
        assert!(matches!(
            inside(dir.path(), Path::new("nope.rhai")),
            Err(Refused::Missing(_))
        ));
        assert!(matches!(
            inside(dir.path(), Path::new("house")),
            Err(Refused::NotAFile {
                kind: "a folder",
                ..
            })
        ));
    }

    #[cfg(unix)]
    #[test]
    fn symlinks_out_are_refused_and_symlinks_within_kept() {
        let outside = tempfile::tempdir().unwrap();
        std::fs::write(outside.path().join("secret.rhai"), "42").unwrap();
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("real.rhai"), "1").unwrap();
        let link = |target: &Path, name: &str| {
            std::os::unix::fs::symlink(target, dir.path().join(name)).unwrap();
        };
        link(&outside.path().join("secret.rhai"), "out.rhai");
        link(outside.path(), "far");
        link(Path::new("real.rhai"), "near.rhai");
        assert!(matches!(
            inside(dir.path(), Path::new("out.rhai")),
            Err(Refused::Outside { .. })
        ));
        assert!(matches!(
            inside(dir.path(), Path::new("far/secret.rhai")),
            Err(Refused::Outside { .. })
        ));
        assert!(inside(dir.path(), Path::new("near.rhai")).is_ok());
        assert_eq!(
            relative_to(&dir.path().join("real.rhai"), dir.path()),
            Some(PathBuf::from("real.rhai"))
        );
        assert_eq!(
            relative_to(&outside.path().join("secret.rhai"), dir.path()),
            None
        );
    }
}
