//! Where sandtable finds its rulesets, abilities and scenarios.
//!
//! A project is a folder holding `scripts/` (with a package per ruleset in
//! `rulesets/<name>/`, and `shared/abilities/` for abilities a ruleset borrows by name) and
//! `scenarios/`. The command line finds it from `--project`, then the
//! `SANDTABLE_HOME` environment variable, then the current folder and its parents (the first
//! that holds `scripts/rulesets/`), and else takes the rulesets and scenarios shipped in the
//! binary ([`crate::game::shipped`]), so an installed `sandtable` needs no clone and a project
//! of the player's own takes precedence over what is shipped.
//!
//! A scenario the player names ([`Project::find_scenario`]) is a path from the current folder,
//! then from the project, or the bare name of one of the project's scenarios
//! (`scenarios/NAME.yaml`).

use std::path::{Path, PathBuf};

use crate::error::Error;
use crate::game::confine::{self, Refused};

/// The default scenario, relative to the project root.
pub const DEFAULT_SCENARIO: &str = "scenarios/romans_vs_vikings.yaml";

/// A project folder.
#[derive(Clone, Debug)]
pub struct Project {
    root: PathBuf,
    /// Whether it is the project shipped in the binary, unpacked in the data folder.
    shipped: bool,
}

impl Project {
    /// A project rooted at `root` (which must hold `scripts/`).
    pub fn at(root: impl Into<PathBuf>) -> Result<Self, Error> {
        let root = root.into();
        if !root.join("scripts").is_dir() {
            return Err(Error::other(
                format!("`{}` holds no `scripts` folder", root.display()),
                Some("point --project (or SANDTABLE_HOME) at a sandtable project folder".into()),
            ));
        }
        let project = Project {
            root,
            shipped: false,
        };
        // Its folders are its own: `scripts/` (and the folders the rulesets and scenarios
        // are in) linked in from elsewhere would make every package a stranger's.
        for folder in ["scripts", "scripts/rulesets", "scenarios"] {
            project.folder(Path::new(folder))?;
        }
        Ok(project)
    }

    /// The rulesets and scenarios shipped in the binary, unpacked under the data folder
    /// `data` ([`crate::game::shipped`]).
    pub fn shipped_in(data: &Path) -> Result<Self, Error> {
        let root = crate::game::shipped::unpack(data)?;
        Ok(Project {
            shipped: true,
            ..Project::at(root)?
        })
    }

    /// Whether this is the project shipped in the binary.
    pub fn is_shipped(&self) -> bool {
        self.shipped
    }

    /// Finds the project as described in the module docs.
    pub fn locate(explicit: Option<&Path>) -> Result<Self, Error> {
        if let Some(path) = explicit {
            return Project::at(path);
        }
        if let Some(home) = std::env::var_os("SANDTABLE_HOME") {
            return Project::at(PathBuf::from(home));
        }
        if let Ok(cwd) = std::env::current_dir() {
            for dir in cwd.ancestors() {
                if dir.join("scripts/rulesets").is_dir() {
                    return Project::at(dir);
                }
            }
        }
        match crate::game::data_dir::data_dir() {
            Some(data) => Project::shipped_in(&data),
            None => Err(Error::other(
                "no project here, and no data folder to unpack the shipped rulesets and scenarios into (there is no home folder)",
                Some("give a project folder with `--project DIR`, or a data folder with `SANDTABLE_DATA`".into()),
            )),
        }
    }

    /// The scenario file a player names (`play`, `battle`, `:load`, ...): the path from the
    /// current folder if there is anything there, else from the project; a bare name
    /// (`NAME` or `NAME.yaml`) is also looked up among the project's scenarios. Whatever is
    /// found is read as any file the player names (a folder is refused when read).
    pub fn find_scenario(&self, typed: &Path) -> Result<PathBuf, Error> {
        let there = |p: &Path| std::fs::symlink_metadata(p).is_ok();
        if there(typed) {
            return Ok(typed.to_path_buf());
        }
        if typed.is_relative() {
            let in_project = self.root.join(typed);
            if there(&in_project) {
                return Ok(in_project);
            }
            if let Some(name) = bare_name(typed) {
                let dir = Path::new("scenarios");
                let named = if has_yaml_extension(name) {
                    vec![dir.join(name)]
                } else {
                    vec![
                        dir.join(format!("{name}.yaml")),
                        dir.join(format!("{name}.yml")),
                    ]
                };
                // The project's own scenarios are files of the project: a link out of it
                // is refused, not followed.
                for rel in named {
                    match confine::inside(&self.root, &rel) {
                        Ok(_) => return Ok(self.root.join(rel)),
                        Err(refused @ Refused::Outside { .. }) => {
                            return Err(self.refused(refused));
                        }
                        Err(_) => {}
                    }
                }
            }
        }
        let here = std::env::current_dir()
            .map(|d| format!(" (`{}`)", d.display()))
            .unwrap_or_default();
        let whose = if self.shipped {
            "the shipped project"
        } else {
            "the project"
        };
        let names: Vec<String> = self
            .scenarios()
            .iter()
            .filter_map(|p| Some(p.file_stem()?.to_str()?.to_owned()))
            .collect();
        let stem = typed
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or_default();
        let hint = match crate::host::suggest::did_you_mean(stem, names.iter().map(String::as_str))
        {
            Some(s) => format!("did you mean `{s}`? `sandtable list` shows the scenarios at hand"),
            None => "`sandtable list` shows the scenarios at hand".into(),
        };
        // An error of reading, so that it names the file (`--json`'s `file`) as any other.
        Err(Error::Io {
            action: "read",
            path: typed.to_path_buf(),
            reason: std::io::Error::new(
                std::io::ErrorKind::NotFound,
                format!(
                    "there is no such file in the current folder{here}, nor in {whose} `{}`, nor among its scenarios ({hint})",
                    self.root.display()
                ),
            ),
        })
    }

    /// `scenarios/`.
    pub fn scenarios_dir(&self) -> PathBuf {
        self.root.join("scenarios")
    }

    /// The project's scenario files (`scenarios/*.yaml` and `*.yml`, not below), sorted;
    /// each a file of the project by [`confine::inside`] (a link out is left out, unread).
    pub fn scenarios(&self) -> Vec<PathBuf> {
        let dir = Path::new("scenarios");
        if confine::folder_inside(&self.root, dir).is_err() {
            return Vec::new();
        }
        names_in(&self.root.join(dir), |name| {
            has_yaml_extension(name) && confine::inside(&self.root, &dir.join(name)).is_ok()
        })
        .into_iter()
        .map(|name| self.scenarios_dir().join(name))
        .collect()
    }

    /// The project folder.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// `scripts/`.
    pub fn scripts_dir(&self) -> PathBuf {
        self.root.join("scripts")
    }

    /// `scripts/rulesets/<name>/`.
    pub fn ruleset_dir(&self, name: &str) -> PathBuf {
        self.scripts_dir().join("rulesets").join(name)
    }

    /// `scripts/shared/abilities/`: abilities that several rulesets may borrow, each by
    /// naming it in its `shared_abilities`.
    pub fn shared_abilities_dir(&self) -> PathBuf {
        self.scripts_dir().join("shared").join("abilities")
    }

    /// The default scenario's path.
    pub fn default_scenario(&self) -> PathBuf {
        self.root.join(DEFAULT_SCENARIO)
    }

    /// The names of the rulesets: folders under `scripts/rulesets/` with a `ruleset.yaml`,
    /// and links there that lead out of the project (listed, so that loading one says why it
    /// is refused; nothing behind such a link is looked at).
    pub fn rulesets(&self) -> Vec<String> {
        let rulesets = Path::new("scripts/rulesets");
        if confine::folder_inside(&self.root, rulesets).is_err() {
            return Vec::new();
        }
        names_in(&self.root.join(rulesets), |name| {
            let yaml = rulesets.join(name).join("ruleset.yaml");
            matches!(
                confine::inside(&self.root, &yaml),
                Ok(_) | Err(Refused::Outside { .. })
            )
        })
    }

    /// The folder `rel` names in the project (`scripts/rulesets/NAME`), held to
    /// [`confine::folder_inside`]: `None` if there is none, an error if it is a link that
    /// leads out of the project or not a folder.
    pub fn folder(&self, rel: &Path) -> Result<Option<PathBuf>, Error> {
        match confine::folder_inside(&self.root, rel) {
            Ok(_) => Ok(Some(self.root.join(rel))),
            Err(Refused::Missing(_)) => Ok(None),
            Err(refused) => Err(self.refused(refused)),
        }
    }

    /// The file `rel` names in the project (`scripts/rulesets/NAME/ruleset.yaml`), held to
    /// [`confine::inside`] under the project folder, every folder on its way included: the
    /// path to read (as named, for messages), or why it may not be read.
    pub fn file(&self, rel: &Path) -> Result<PathBuf, Error> {
        match confine::inside(&self.root, rel) {
            Ok(_) => Ok(self.root.join(rel)),
            Err(refused) => Err(self.refused(refused)),
        }
    }

    /// Refuses a path the player names (`check PATH`) that lies in the project as written
    /// but leads out of it through a link on its way ([`confine::under`]); a path elsewhere
    /// is theirs to name.
    pub fn hold_named(&self, path: &Path) -> Result<(), Error> {
        match confine::under(path, &self.root).map(|rel| confine::path_inside(&self.root, &rel)) {
            Some(Err(refused @ Refused::Outside { .. })) => Err(self.refused(refused)),
            _ => Ok(()),
        }
    }

    /// Why a path in the project was refused, as an error that names it.
    fn refused(&self, refused: Refused) -> Error {
        match refused {
            Refused::Outside { file, .. } => Error::other(
                format!(
                    "`{}` is a link that leads outside the project `{}`; it was not read",
                    file.display(),
                    self.root.display()
                ),
                Some("copy what it links to into the project instead of linking to it".into()),
            ),
            Refused::Missing(path) => Error::Io {
                action: "read",
                path,
                reason: std::io::Error::from(std::io::ErrorKind::NotFound),
            },
            other => Error::other(other.to_string(), None),
        }
    }
}

/// A path of one plain name (`edgehill`, `edgehill.yaml`), as a string.
fn bare_name(path: &Path) -> Option<&str> {
    let mut parts = path.components();
    match (parts.next(), parts.next()) {
        (Some(std::path::Component::Normal(name)), None) => name.to_str(),
        _ => None,
    }
}

fn has_yaml_extension(name: &str) -> bool {
    name.ends_with(".yaml") || name.ends_with(".yml")
}

/// The names of the `.rhai` scripts directly in a folder, without `.rhai`, sorted.
pub fn script_names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| {
            let path = e.path();
            (path.extension()? == "rhai").then(|| path.file_stem()?.to_str().map(str::to_owned))?
        })
        .collect();
    names.sort();
    names
}

/// The scripts and data files (`.rhai`, `.yaml`, `.yml`) at or under a path, in sorted
/// order: what `check` checks, a journal fingerprints and the watcher watches. Symlinks that
/// lead out of `path` are left out (see [`walk_rule_files`]).
pub fn rule_files(path: &Path) -> Vec<PathBuf> {
    walk_rule_files(path).files
}

/// What a walk of a folder found.
#[derive(Debug, Default, PartialEq)]
pub struct RuleFiles {
    /// The scripts and data files, in sorted order.
    pub files: Vec<PathBuf>,
    /// Scripts and data files that are symlinks leading out of the folder walked: never read.
    pub outside: Vec<PathBuf>,
}

/// The scripts and data files at or under `path` (a file named itself is taken as it is).
///
/// The walk never follows a symlink to a folder: a loop of links cannot make it go round,
/// and a linked folder is either inside the walked one (walked anyway, under its real name)
/// or outside it (not to be read). Not following is simpler and surer than remembering the
/// folders seen, and costs nothing a ruleset needs. A symlink to a file is taken only if
/// its real path stays inside `path` (`game::confine`, the rule imports follow).
pub fn walk_rule_files(path: &Path) -> RuleFiles {
    let mut found = RuleFiles::default();
    if path.is_dir() {
        walk(path, Path::new(""), &mut found);
    } else if is_rule_file(path) {
        found.files.push(path.to_path_buf());
    }
    found
}

fn is_rule_file(path: &Path) -> bool {
    matches!(
        path.extension().and_then(|e| e.to_str()),
        Some("yaml" | "yml" | "rhai")
    )
}

/// Walks the folder `root/rel`.
fn walk(root: &Path, rel: &Path, found: &mut RuleFiles) {
    let mut entries: Vec<(PathBuf, std::fs::FileType)> = std::fs::read_dir(root.join(rel))
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| Some((rel.join(e.file_name()), e.file_type().ok()?)))
        .collect();
    entries.sort_by(|a, b| a.0.cmp(&b.0));
    for (rel, kind) in entries {
        let path = root.join(&rel);
        if kind.is_dir() {
            walk(root, &rel, found);
        } else if is_rule_file(&path) && !kind.is_symlink() {
            found.files.push(path);
        } else if is_rule_file(&path) {
            match crate::game::confine::inside(root, &rel) {
                Ok(_) => found.files.push(path),
                Err(crate::game::confine::Refused::Outside { .. }) => found.outside.push(path),
                // A link to a folder or to nothing: nothing to read.
                Err(_) => {}
            }
        }
    }
}

/// The folder a file is in; `.` for a bare file name (whose `parent()` is the empty path,
/// which no file system call accepts).
pub fn folder_of(path: &Path) -> PathBuf {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// The names in a folder that `keep` keeps, sorted.
fn names_in(dir: &Path, keep: impl Fn(&str) -> bool) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| e.file_name().to_str().map(str::to_owned))
        .filter(|name| keep(name))
        .collect();
    names.sort();
    names
}
