//! `sandtable check PATH...`: validates scenarios and ruleset data and compiles scripts,
//! reporting every problem rather than stopping at the first.
//!
//! It prints a line a file (`ok   PATH (what it is)` or `FAIL PATH`, the diagnostic on
//! standard error) and a count; with `--json`, a JSON object a file (`file`, `ok`, `kind`
//! and what was counted, or `problems`) and one for the count (`files`, `problems`), the
//! diagnostics as JSON lines on standard error.

use std::path::{Path, PathBuf};

use serde_json::json;

use super::{Common, report_error};
use crate::error::{Error, read_script};
use crate::game::project::Project;
use crate::game::ruleset::Ruleset;
use crate::game::scenario::Scenario;
use crate::script::engine::{self, Budget, Limits};
use crate::script::error::Sources;
use crate::session::Session;

/// Checks every file under the given paths. Exit status 1 if any has a problem.
pub fn check(common: &Common, paths: &[PathBuf]) -> Result<u8, Error> {
    let project = Project::locate(common.project.as_deref())?;
    let mut files = Vec::new();
    let mut outside = Vec::new();
    for p in paths {
        if !p.exists() {
            return Err(Error::Usage(format!("`{}` does not exist", p.display())));
        }
        let found = crate::game::project::walk_rule_files(p);
        files.extend(found.files);
        outside.extend(found.outside);
    }
    files.sort();
    outside.sort();
    let mut problems = 0;
    // Links out of the folders checked: named, never read (what they lead to may be anyone's).
    for file in &outside {
        problems += 1;
        let e = Error::other(
            format!(
                "`{}` is a link that leads outside the folder checked; it was not read",
                file.display()
            ),
            Some("copy the file into the folder instead of linking to it".into()),
        );
        if common.json {
            outln!(
                "{}",
                json!({ "file": file.display().to_string(), "ok": false, "problems": 1 })
            );
        } else {
            outln!("FAIL {}", file.display());
        }
        report_error(&e, common.json);
    }
    for file in &files {
        match check_file(&project, file) {
            Ok(what) if common.json => {
                let mut line = json!({ "file": file.display().to_string(), "ok": true });
                line["kind"] = json!(what.kind());
                line[what.counted()] = json!(what.count());
                outln!("{line}");
            }
            Ok(what) => outln!("ok   {} ({what})", file.display()),
            Err(e) => {
                let found = match &e {
                    Error::Several { problems, .. } => problems.len(),
                    _ => 1,
                };
                problems += found;
                if common.json {
                    outln!(
                        "{}",
                        json!({ "file": file.display().to_string(), "ok": false, "problems": found })
                    );
                } else {
                    outln!("FAIL {}", file.display());
                }
                report_error(&e, common.json);
            }
        }
    }
    let checked = files.len() + outside.len();
    if common.json {
        outln!("{}", json!({ "files": checked, "problems": problems }));
    } else {
        outln!(
            "{} file{} checked, {} problem{}",
            checked,
            if checked == 1 { "" } else { "s" },
            problems,
            if problems == 1 { "" } else { "s" }
        );
    }
    Ok(u8::from(problems > 0))
}

/// Checks a ruleset's package as a whole: every rule script compiles, and every ability (its
/// own and the shared ones it borrows) compiles and declares itself well. Gives how many
/// abilities it has.
fn check_package(project: &Project, ruleset: &Ruleset) -> Result<usize, Error> {
    let budget = Budget::default();
    let engine = engine::sandboxed(&Limits::default(), &budget, Vec::new(), Default::default());
    let mut sources = Sources::default();
    let mut problems = Vec::new();
    for path in ruleset.script_paths() {
        let compiled = read_script(&path)
            .and_then(|text| sources.compile(&engine, &budget, &path.display().to_string(), &text));
        if let Err(e) = compiled {
            problems.push(e);
        }
    }
    let names: std::collections::BTreeSet<String> = ruleset.abilities.keys().cloned().collect();
    for name in &names {
        let one = std::collections::BTreeSet::from([name.clone()]);
        if let Err(e) = crate::script::hooks::Abilities::load(
            &engine,
            &budget,
            project,
            ruleset,
            &one,
            &mut sources,
        ) {
            problems.push(e);
        }
    }
    match problems.len() {
        0 => Ok(names.len()),
        1 => Err(problems.remove(0)),
        n => Err(Error::Several {
            message: format!("{n} problems in the ruleset `{}`", ruleset.id),
            problems,
        }),
    }
}

/// What a file that passed turned out to be.
enum Checked {
    /// A script, with how many functions it defines.
    Script { functions: usize },
    /// A ruleset's package, with how many troop types its chart has, and its scripts and
    /// abilities.
    Ruleset {
        troop_types: usize,
        scripts: usize,
        abilities: usize,
    },
    /// A scenario, with how many units it sets out.
    Scenario { units: usize },
}

impl Checked {
    fn kind(&self) -> &'static str {
        match self {
            Checked::Script { .. } => "script",
            Checked::Ruleset { .. } => "ruleset",
            Checked::Scenario { .. } => "scenario",
        }
    }

    /// The name of what was counted, as a JSON field.
    fn counted(&self) -> &'static str {
        match self {
            Checked::Script { .. } => "functions",
            Checked::Ruleset { .. } => "troop_types",
            Checked::Scenario { .. } => "units",
        }
    }

    fn count(&self) -> usize {
        match *self {
            Checked::Script { functions: n }
            | Checked::Ruleset { troop_types: n, .. }
            | Checked::Scenario { units: n } => n,
        }
    }
}

impl std::fmt::Display for Checked {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            Checked::Script { functions: n } => {
                write!(f, "script, {n} function{}", if n == 1 { "" } else { "s" })
            }
            Checked::Ruleset {
                troop_types,
                scripts,
                abilities,
            } => write!(
                f,
                "ruleset, {troop_types} troop types, {scripts} scripts, {abilities} abilities"
            ),
            Checked::Scenario { units: n } => write!(f, "scenario, {n} units"),
        }
    }
}

fn check_file(project: &Project, file: &Path) -> Result<Checked, Error> {
    let ext = file
        .extension()
        .and_then(|e| e.to_str())
        .unwrap_or_default();
    if ext == "rhai" {
        let text = read_script(file)?;
        let name = file.display().to_string();
        let budget = Budget::default();
        let engine = engine::sandboxed(&Limits::default(), &budget, Vec::new(), Default::default());
        let ast = Sources::default().compile(&engine, &budget, &name, &text)?;
        return Ok(Checked::Script {
            functions: ast.iter_functions().count(),
        });
    }
    if file.file_name().is_some_and(|n| n == "ruleset.yaml") {
        // Absolute, so that `check ruleset.yaml` inside the ruleset's folder knows its name.
        let file = std::fs::canonicalize(file).unwrap_or_else(|_| file.to_path_buf());
        let dir = crate::game::project::folder_of(&file);
        let id = dir.file_name().and_then(|n| n.to_str()).unwrap_or_default();
        let project = Project::at(
            dir.parent()
                .and_then(Path::parent)
                .and_then(Path::parent)
                .unwrap_or(Path::new(".")),
        )
        .unwrap_or_else(|_| project.clone());
        let ruleset = Ruleset::load(&project, id)?;
        let abilities = check_package(&project, &ruleset)?;
        return Ok(Checked::Ruleset {
            troop_types: ruleset.file.troops.len(),
            scripts: ruleset.file.scripts.len(),
            abilities,
        });
    }
    let scenario = Scenario::load(project, file)?;
    let units = scenario.battlefield.units().len();
    // Starting a session compiles the ruleset and the house rules and runs its setup.
    Session::new(project, scenario, 0)?;
    Ok(Checked::Scenario { units })
}
