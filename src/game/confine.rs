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
//! The rule holds for every component of the path, not only its end: each folder on the way
//! (`scripts/rulesets/NAME`, its `abilities/`) is looked at in turn, and one that is a link
//! must lead to a real path still inside the folder, so a package cannot borrow a folder from
//! anywhere by linking it in. [`folder_inside`] is the same rule for a folder the program
//! lists, [`inside`] for a file it reads.
//!
//! A path the player names on the command line or at the prompt (a scenario, a save, a batch
//! file, a journal) is theirs to choose, anywhere; the rule holds it to the one thing
//! that still matters: it is a regular file (or a link to one), never a folder, a FIFO or a
//! device that would block or never end. That check is `error::read_file` (below every layer,
//! so that each can read a file), re-exported here as [`read_file`] and [`read_script`]: what
//! such a file names in turn is confined again.
//!
//! The folder walks (`project::rule_files`) keep the same rule for what they find: they
//! never follow a symlink to a folder, and take a symlinked file only if it stays inside.

use std::path::{Component, Path, PathBuf};

pub use crate::error::{kind_of, read_file, read_script};

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
    /// A file, a device, a FIFO where a folder was looked for.
    #[error("`{}` is {kind}, not a folder", .folder.display())]
    NotAFolder {
        /// The folder as named, under the folder it must stay in.
        folder: PathBuf,
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
/// every component stays inside the folder's real path ([`reach`]) and it is a regular file;
/// else why not.
pub fn inside(folder: &Path, rel: &Path) -> Result<PathBuf, Refused> {
    let (named, real) = reach(folder, rel)?;
    match std::fs::metadata(&real) {
        Ok(m) if m.is_file() => Ok(real),
        Ok(m) => Err(Refused::NotAFile {
            file: named,
            kind: kind_of(&m.file_type()),
        }),
        Err(_) => Err(Refused::Missing(named)),
    }
}

/// The real path of the folder `rel` names under `root`, by the rule of [`inside`]: a plain
/// relative path, every component inside `root`'s real path, and a folder at the end. A
/// package's folder linked in from elsewhere (`scripts/rulesets/evil -> /etc`) is
/// [`Refused::Outside`], and nothing in it is listed or read.
pub fn folder_inside(root: &Path, rel: &Path) -> Result<PathBuf, Refused> {
    let (named, real) = reach(root, rel)?;
    match std::fs::metadata(&real) {
        Ok(m) if m.is_dir() => Ok(real),
        Ok(m) => Err(Refused::NotAFolder {
            folder: named,
            kind: kind_of(&m.file_type()),
        }),
        Err(_) => Err(Refused::Missing(named)),
    }
}

/// The real path of whatever `rel` names under `folder` (a file or a folder), by the rule of
/// [`inside`].
pub fn path_inside(folder: &Path, rel: &Path) -> Result<PathBuf, Refused> {
    reach(folder, rel).map(|(_, real)| real)
}

/// `path` relative to `root`, if `path` as written (made absolute from the current folder,
/// `.` and `..` taken as written, no link followed) lies under `root` as written: so a path
/// into the project is held to the project's rule even where a link on it leads elsewhere.
pub fn under(path: &Path, root: &Path) -> Option<PathBuf> {
    let rel = as_written(path)?
        .strip_prefix(as_written(root)?)
        .ok()?
        .to_path_buf();
    is_plain(&rel).then_some(rel)
}

/// `path` made absolute, with `.` and `..` taken away as written (no link followed).
pub fn as_written(path: &Path) -> Option<PathBuf> {
    let mut out = PathBuf::new();
    for part in std::path::absolute(path).ok()?.components() {
        match part {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    Some(out)
}

/// `rel` under `folder` as named, and its real path, if `rel` is plain and each of its
/// components in turn (`a`, `a/b`, `a/b/c`) has a real path inside the folder's: a link on
/// the way that leads out is refused even where a later link would lead back in, so nothing
/// outside is ever looked into. [`Refused::Outside`] names the first link that leads out.
fn reach(folder: &Path, rel: &Path) -> Result<(PathBuf, PathBuf), Refused> {
    if !is_plain(rel) {
        return Err(Refused::NotPlain(rel.to_path_buf()));
    }
    let named = folder.join(rel);
    let root = folder
        .canonicalize()
        .map_err(|_| Refused::Missing(named.clone()))?;
    let mut step = folder.to_path_buf();
    let mut real = root.clone();
    for part in rel.components() {
        step.push(part);
        let meta = std::fs::symlink_metadata(&step).map_err(|_| Refused::Missing(named.clone()))?;
        if !meta.is_symlink() {
            real.push(part);
            continue;
        }
        real = step
            .canonicalize()
            .map_err(|_| Refused::Missing(named.clone()))?;
        if !real.starts_with(&root) {
            return Err(Refused::Outside {
                file: step,
                folder: folder.to_path_buf(),
            });
        }
    }
    Ok((named, real))
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
        // Folders: a linked folder out is refused, naming the link; one within is kept; a
        // link out that a later link leads back in is refused all the same.
        std::fs::create_dir(dir.path().join("pkg")).unwrap();
        link(Path::new("pkg"), "alias");
        assert!(folder_inside(dir.path(), Path::new("alias")).is_ok());
        assert!(matches!(
            folder_inside(dir.path(), Path::new("far")),
            Err(Refused::Outside { file, .. }) if file == dir.path().join("far")
        ));
        assert!(matches!(
            folder_inside(dir.path(), Path::new("real.rhai")),
            Err(Refused::NotAFolder { kind: "a file", .. })
        ));
        std::os::unix::fs::symlink(dir.path().join("pkg"), outside.path().join("back")).unwrap();
        assert!(matches!(
            folder_inside(dir.path(), Path::new("far/back")),
            Err(Refused::Outside { file, .. }) if file == dir.path().join("far")
        ));
        assert_eq!(
            under(&dir.path().join("pkg/../far/x"), dir.path()),
            Some(PathBuf::from("far/x"))
        );
        assert_eq!(under(outside.path(), dir.path()), None);
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
