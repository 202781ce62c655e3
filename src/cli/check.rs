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
use crate::script::functions::HouseRuleFunctions;
use crate::session::Session;
use crate::session::command::said;

/// Checks every file under the given paths. Exit status 1 if any has a problem. A house rule
/// (a `.rhai` file outside the rulesets' packages) is checked in `scenario`, or in a scenario
/// of the ruleset its functions belong to.
pub fn check(common: &Common, paths: &[PathBuf], scenario: Option<&Path>) -> Result<u8, Error> {
    let project = Project::locate(common.project.as_deref())?;

    let mut files = Vec::new();
    let mut outside = Vec::new();
    for p in paths {
        // From the current folder, then the project, or a scenario's bare name.
        let p = match project.find_scenario(p) {
            Ok(p) => p,
            // Not found: a usage error. Found but refused (a link out of the project): why.
            Err(Error::Io { .. }) => {
                return Err(Error::Usage(format!(
                    "`{}` does not exist, here or in the project `{}`",
                    p.display(),
                    project.root().display()
                )));
            }
            Err(refused) => return Err(refused),
        };
        project.hold_named(&p)?;
        let found = crate::game::project::walk_rule_files(&p);
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
        match check_file(&project, file, scenario) {
            Ok(what) if common.json => {
                let mut line = json!({ "file": file.display().to_string(), "ok": true });
                line["kind"] = json!(what.kind());
                line[what.counted()] = json!(what.count());
                if let Checked::HouseRule {
                    ruleset,
                    scenario,
                    functions,
                } = &what
                {
                    line["ruleset"] = json!(ruleset);
                    line["scenario"] = json!(scenario);
                    line["hooks"] = json!(functions.hooks);
                    line["verbs"] = json!(functions.verbs);
                    line["replaces"] = json!(
                        functions
                            .replaces
                            .iter()
                            .map(|r| json!({ "function": r.of.name, "of": r.of.source }))
                            .collect::<Vec<_>>()
                    );
                }
                outln!("{line}");
            }
            Ok(what) => outln!("ok   {} ({what})", file.display()),
            Err((e, what)) => {
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
                    match what {
                        Some(what) => outln!("FAIL {} ({what})", file.display()),
                        None => outln!("FAIL {}", file.display()),
                    }
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
    /// A scenario, with how many units it sets out, and what each of its house rules does.
    Scenario {
        units: usize,
        house_rules: Vec<(String, HouseRuleFunctions)>,
    },
    /// A house rule, checked in a scenario of `ruleset`: its hooks, replacements and verbs.
    HouseRule {
        ruleset: String,
        scenario: String,
        functions: HouseRuleFunctions,
    },
}

impl Checked {
    fn kind(&self) -> &'static str {
        match self {
            Checked::Script { .. } => "script",
            Checked::Ruleset { .. } => "ruleset",
            Checked::Scenario { .. } => "scenario",
            Checked::HouseRule { .. } => "house_rule",
        }
    }

    /// The name of what was counted, as a JSON field.
    fn counted(&self) -> &'static str {
        match self {
            Checked::Script { .. } => "functions",
            Checked::Ruleset { .. } => "troop_types",
            Checked::Scenario { .. } => "units",
            Checked::HouseRule { .. } => "functions",
        }
    }

    fn count(&self) -> usize {
        match self {
            Checked::Script { functions: n }
            | Checked::Ruleset { troop_types: n, .. }
            | Checked::Scenario { units: n, .. } => *n,
            Checked::HouseRule { functions, .. } => {
                functions.hooks.len() + functions.replaces.len() + functions.verbs.len()
            }
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
            } => {
                let plural = |n: usize, one: &str, many: &str| {
                    format!("{n} {}", if n == 1 { one } else { many })
                };
                write!(
                    f,
                    "ruleset, {}, {}, {}",
                    plural(troop_types, "troop type", "troop types"),
                    plural(scripts, "script", "scripts"),
                    plural(abilities, "ability", "abilities")
                )
            }
            Checked::Scenario {
                units: n,
                ref house_rules,
            } => {
                write!(f, "scenario, {n} unit{}", if n == 1 { "" } else { "s" })?;
                for (name, functions) in house_rules {
                    write!(f, "; house rule `{name}`: {}", said(functions))?;
                }
                Ok(())
            }
            Checked::HouseRule {
                ref ruleset,
                ref scenario,
                ref functions,
            } => write!(
                f,
                "house rule of {ruleset}, checked in {scenario}: {}",
                said(functions)
            ),
        }
    }
}

/// Checks one file: what it turned out to be, or its problems with, for a house rule, what it
/// was checked as.
fn check_file(
    project: &Project,
    file: &Path,
    scenario: Option<&Path>,
) -> Result<Checked, (Error, Option<String>)> {
    check_file_as(project, file, scenario).map_err(|e| match e {
        Failed::Plain(e) => (e, None),
        Failed::As(e, what) => (e, Some(what)),
    })
}

/// A file's problems, and what it was checked as when that is worth saying.
enum Failed {
    Plain(Error),
    As(Error, String),
}

impl From<Error> for Failed {
    fn from(e: Error) -> Failed {
        Failed::Plain(e)
    }
}

fn check_file_as(
    project: &Project,
    file: &Path,
    scenario: Option<&Path>,
) -> Result<Checked, Failed> {
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
        // A script of a ruleset's package, or a shared one, is checked with its package; any
        // other is a house rule.
        if in_a_package(project, file) {
            return Ok(Checked::Script {
                functions: ast.iter_functions().count(),
            });
        }
        return check_house_rule(project, file, &ast, scenario);
    }
    if file.file_name().is_some_and(|n| n == "ruleset.yaml") {
        // Absolute, so that `check ruleset.yaml` inside the ruleset's folder knows its name;
        // as written, so that a link does not take the name from where it leads.
        let file = crate::game::confine::as_written(file).unwrap_or_else(|| file.to_path_buf());
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
        let troop_types = ruleset.file.troops.len();
        let scripts = ruleset.file.scripts.len();
        let abilities = Session::check_package(&project, ruleset)?;
        return Ok(Checked::Ruleset {
            troop_types,
            scripts,
            abilities,
        });
    }
    let scenario = Scenario::load(project, file)?;
    let units = scenario.battlefield.units().len();
    // Starting a session compiles the ruleset and the house rules and runs its setup.
    let session = Session::new(project, scenario, 0)?;
    Ok(Checked::Scenario {
        units,
        house_rules: session.house_rule_functions(),
    })
}

/// Whether a script belongs to a package of the project (a ruleset's, or the shared folder),
/// rather than being a house rule.
fn in_a_package(project: &Project, file: &Path) -> bool {
    let real = |p: &Path| std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf());
    real(file).starts_with(real(&project.scripts_dir()))
}

/// Checks a house rule in a game: of `scenario` if given, else of a scenario of the ruleset
/// whose hooks and functions it names most (the default scenario's on a tie).
fn check_house_rule(
    project: &Project,
    file: &Path,
    ast: &rhai::AST,
    scenario: Option<&Path>,
) -> Result<Checked, Failed> {
    let scenario_path = match scenario {
        Some(s) => project.find_scenario(s)?,
        None => scenario_for(project, ast)?,
    };
    let mut scenario = Scenario::load(project, &scenario_path)?;
    scenario.house_rules = vec![file.to_path_buf()];
    let ruleset = scenario.ruleset.id.clone();
    let shown = scenario_path
        .strip_prefix(project.root())
        .unwrap_or(&scenario_path)
        .display()
        .to_string();
    let session = Session::new(project, scenario, 0).map_err(|e| {
        Failed::As(
            e,
            format!(
                "house rule of {ruleset}, checked in {shown}; `--scenario` checks it in another"
            ),
        )
    })?;
    let functions = session
        .house_rule_functions()
        .into_iter()
        .next()
        .map(|(_, f)| f)
        .unwrap_or_default();
    Ok(Checked::HouseRule {
        ruleset,
        scenario: shown,
        functions,
    })
}

/// The scenario to check a house rule in when none is named: one of the ruleset whose hooks
/// and functions (by name and parameters) the house rule defines or calls most, the default scenario
/// if it is of that ruleset (or no ruleset stands out), else the first of that ruleset.
fn scenario_for(project: &Project, ast: &rhai::AST) -> Result<PathBuf, Error> {
    let defined: Vec<(String, usize)> = ast
        .iter_functions()
        .map(|f| (f.name.to_string(), f.params.len()))
        .collect();
    // The functions it calls: a ruleset's own helpers it calls (`check_turn`) are hers.
    let mut called: Vec<(String, usize)> = Vec::new();
    ast.walk(&mut |path| {
        if let Some(rhai::ASTNode::Expr(rhai::Expr::FnCall(call, _))) = path.last()
            && call.namespace.is_empty()
        {
            called.push((call.name.to_string(), call.args.len()));
        }
        true
    });
    let budget = Budget::default();
    let engine = engine::sandboxed(&Limits::default(), &budget, Vec::new(), Default::default());
    let mut best: Option<(usize, String)> = None;
    for id in project.rulesets() {
        let Ok(ruleset) = Ruleset::load(project, &id) else {
            continue;
        };
        let mut names: std::collections::BTreeSet<(String, usize)> = ruleset
            .file
            .hooks
            .iter()
            .map(|(h, d)| (h.clone(), d.kind.arity()))
            .collect();
        for path in ruleset.script_paths() {
            let Ok(text) = read_script(&path) else {
                continue;
            };
            let Ok(ast) = Sources::default().compile(&engine, &budget, "", &text) else {
                continue;
            };
            names.extend(
                ast.iter_functions()
                    .map(|f| (f.name.to_string(), f.params.len())),
            );
        }
        let score = defined
            .iter()
            .chain(&called)
            .filter(|d| names.contains(d))
            .count();
        if score > 0 && best.as_ref().is_none_or(|(b, _)| score > *b) {
            best = Some((score, id));
        }
    }
    let default = project.default_scenario();
    let Some((_, id)) = best else {
        return Ok(default);
    };
    let of_ruleset = |path: &Path| Scenario::load(project, path).is_ok_and(|s| s.ruleset.id == id);
    if of_ruleset(&default) {
        return Ok(default);
    }
    project
        .scenarios()
        .into_iter()
        .find(|p| of_ruleset(p))
        .ok_or_else(|| {
            Error::other(
                format!("no scenario of the ruleset `{id}` to check the house rule in"),
                Some("name one: `sandtable check HOUSE_RULE.rhai --scenario SCENARIO`".into()),
            )
        })
}

#[cfg(test)]
mod tests {
    use super::Checked;

    // Guards the counts of `check`'s report against "1 units" and "1 scripts": one of a
    // thing is singular.
    #[test]
    fn one_of_a_thing_is_counted_in_the_singular() {
        let scenario = Checked::Scenario {
            units: 1,
            house_rules: Vec::new(),
        };
        assert_eq!(scenario.to_string(), "scenario, 1 unit");
        let ruleset = Checked::Ruleset {
            troop_types: 1,
            scripts: 1,
            abilities: 1,
        };
        assert_eq!(
            ruleset.to_string(),
            "ruleset, 1 troop type, 1 script, 1 ability"
        );
    }
}
