//! A ruleset's data: its troop chart and tables, read from `scripts/rulesets/<name>/ruleset.yaml`.
//!
//! The logic of a ruleset lives in its scripts; everything a house-ruler might want to change
//! without touching logic (move allowances, dice, ranges, defaults for rulebook gaps) lives
//! here. Scripts read it with `troop(type)` and `data()`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde::{Deserialize, Serialize};

use crate::error::{Error, read_file_within};
use crate::game::confine::{self, Refused};
use crate::game::declared::{self, HookDecl, StatDecl};
use crate::game::project::Project;
use crate::game::yaml;
use crate::host::geometry::Base;
use crate::host::unit::Stat;
use crate::limits::MAX_NAME;
use serde_saphyr::Spanned;

/// One troop type of the chart.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TroopType {
    /// Display name: `Heavy infantry`.
    pub name: String,
    /// Its base, when it differs from the ruleset's default.
    #[serde(default)]
    pub base: Option<Base>,
    /// Its stats: move, dice, ranges, class, ...
    #[serde(default)]
    pub stats: BTreeMap<String, Stat>,
    /// Abilities every unit of this type has (Charge for cavalry), before any the scenario
    /// gives.
    #[serde(default)]
    pub abilities: Vec<String>,
}

/// A sandtable ruleset's data, `ruleset.yaml`: its scripts, troop chart, tables and hooks
/// (see docs/writing-a-ruleset.md).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RulesetFile {
    /// The rulebook's title.
    pub name: String,
    /// A line or two about it.
    #[serde(default)]
    pub description: String,
    /// The rule scripts, loaded in this order (later ones may replace earlier functions).
    #[schemars(inner(pattern(crate::game::confine::PLAIN_PATTERN)))]
    pub scripts: Vec<String>,
    /// The base a troop type gets unless it names its own.
    pub default_base: Base,
    /// Free-form tables and settings the scripts read with `data()`.
    #[serde(default)]
    pub data: BTreeMap<String, serde_json::Value>,
    /// The troop chart.
    pub troops: BTreeMap<String, TroopType>,
    /// Abilities borrowed from `scripts/shared/abilities/`, by name; the ruleset's own are
    /// the scripts in its `abilities/` folder.
    #[serde(default)]
    pub shared_abilities: Vec<String>,
    /// The fields its abilities may declare in `meta()` beyond the host's own (`name`,
    /// `activation`, `uses`, ...), which its scripts read with `ability_meta(name)`; any
    /// other field is an error, so that a misspelt one does not pass unnoticed.
    #[serde(default)]
    pub ability_fields: Vec<String>,
    /// Every stat its units may carry, with its kind, range and default (see
    /// [`crate::game::declared`]): the troop chart, scenarios, saves and scripts are held to
    /// it.
    #[serde(default)]
    #[schemars(extend("propertyNames" = { "pattern": declared::DECLARABLE_STAT }))]
    pub stats: BTreeMap<String, StatDecl>,
    /// The hooks its scripts ask through (`ask`, `allowed`, `notify`), each with how it is
    /// asked, the fields of its `info` and what it means: every number a house rule may
    /// change. Asking for another is an error, so the list is the whole truth; a house rule's
    /// function of one of these names is a hook.
    #[serde(default)]
    #[schemars(extend("propertyNames" = { "pattern": declared::IDENTIFIER }))]
    pub hooks: BTreeMap<String, HookDecl>,
    /// Words its verbs take as arguments (an order, a kind of shot): typed at the prompt,
    /// such a word is a word, however close it is to a unit's id.
    #[serde(default)]
    pub words: Vec<String>,
    /// What its phases are called at the table, by the id its scripts give `set_phase`
    /// (`move_men: men move`): the prompt and the log show the name. A phase not listed
    /// shows its id.
    #[serde(default)]
    #[schemars(schema_with = "phase_names")]
    pub phases: BTreeMap<String, String>,
    /// What the front ends know of some of its verbs beyond their scripts, by verb name: the
    /// words a parameter takes, and whether a verb is written in secret (see [`VerbDecl`]).
    /// Each must be a verb of its scripts, each parameter one of the verb's.
    #[serde(default)]
    #[schemars(extend("propertyNames" = { "pattern": declared::IDENTIFIER }))]
    pub verbs: BTreeMap<String, VerbDecl>,
    /// The tag its scripts give a figure the enemy cannot see (`hidden`): at one keyboard,
    /// `:units` and `:map` do not show such a figure to the other sides' eyes (`play --as
    /// SIDE`, `:as SIDE`). None: every figure is seen.
    #[serde(default)]
    pub hidden_tag: Option<String>,
    /// The unit counters of the host it uses (`hits`, `stands`), each with its word for it,
    /// as `:show` names them (`hits: wounds`). None declared: `:show` gives both, in the
    /// host's words; `{}`: neither, for rules whose figures carry their harm in stats.
    #[serde(default)]
    pub counters: Option<BTreeMap<Counter, String>>,
}

/// A counter every unit has in the host, which a ruleset may use and name.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum Counter {
    /// `u.hits`.
    Hits,
    /// `u.stands`.
    Stands,
}

/// What a ruleset declares of one of its verbs (`verbs:` in `ruleset.yaml`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct VerbDecl {
    /// The words a parameter takes, by the parameter's name (`what: [ball, grape]`): the prompt
    /// completes them with Tab, refuses another at the word with a did-you-mean, and takes
    /// each as a word however close it is to a unit's id.
    #[serde(default)]
    pub words: BTreeMap<String, Vec<String>>,
    /// Written in secret (the book's secret orders): at the prompt the line's arguments are
    /// not shown as they are typed, nor kept in the history, and what the verb tells is not
    /// shown either: only this text (`order written`).
    #[serde(default)]
    pub secret: Option<String>,
}

/// A ruleset's `phases`: each name 1 to [`MAX_NAME`] characters, not all spaces.
fn phase_names(_: &mut SchemaGenerator) -> Schema {
    json_schema!({
        "type": "object",
        "additionalProperties": { "type": "string", "pattern": "\\S", "maxLength": MAX_NAME },
    })
}

/// A loaded ruleset: its id, folder and data.
#[derive(Clone, Debug)]
pub struct Ruleset {
    /// The folder name under `scripts/rulesets/`: `playmobil`.
    pub id: String,
    /// Its folder.
    pub dir: PathBuf,
    /// Its data.
    pub file: RulesetFile,
    /// Its abilities by name, and the script of each: its own `abilities/` folder, then the
    /// shared ones it names.
    pub abilities: BTreeMap<String, PathBuf>,
}

impl Ruleset {
    /// Loads `scripts/rulesets/<id>/ruleset.yaml`.
    ///
    /// Every folder and file of the package is a file of the project (`Project::folder`,
    /// `Project::file`): the package's folder, its `ruleset.yaml`, its `abilities/` and
    /// `scripts/shared/abilities/` may not be links that lead out of the project.
    pub fn load(project: &Project, id: &str) -> Result<Self, Error> {
        let package = Path::new("scripts/rulesets").join(id);
        if project.folder(&package)?.is_none() {
            return Err(Error::other(
                format!(
                    "there is no ruleset `{id}` in `{}`",
                    project.root().display()
                ),
                Some("`sandtable list` shows the rulesets at hand".into()),
            ));
        }
        let dir = project.ruleset_dir(id);
        let path = project.file(&package.join("ruleset.yaml"))?;
        let text = read_file_within(
            &path,
            "a `ruleset.yaml`",
            crate::limits::MAX_SCENARIO_BYTES,
            "MAX_SCENARIO_BYTES",
        )?;
        let name = path.display().to_string();
        let file: RulesetFile = yaml::parse(&name, &text)?;
        for (troop, spec) in &file.troops {
            if let Some(base) = &spec.base {
                base.validate().map_err(|e| {
                    Error::other(format!("{}: troop `{troop}`: {e}", path.display()), None)
                })?;
            }
        }
        check_declarations(&name, &text, &file)?;
        for (id, name) in &file.phases {
            if name.trim().is_empty() || name.chars().count() > MAX_NAME {
                return Err(Error::other(
                    format!(
                        "{}: phase `{id}`: its name must be 1 to {MAX_NAME} characters",
                        path.display()
                    ),
                    None,
                ));
            }
        }
        let mut abilities = BTreeMap::new();
        let own = dir.join("abilities");
        // The package's files stay inside it, as a scenario's house rules stay inside its
        // folder: a link out of it is refused, never read.
        let confined = |folder: &Path, rel: &str| match confine::inside(folder, Path::new(rel)) {
            Err(Refused::Outside { file, .. }) => Err(Error::other(
                format!(
                    "{}: `{}` is a link that leads outside `{}`; it was not read",
                    path.display(),
                    file.display(),
                    folder.display()
                ),
                Some("copy the file into the package instead of linking to it".into()),
            )),
            other => Ok(other.is_ok()),
        };
        if project.folder(&package.join("abilities"))?.is_some() {
            for name in crate::game::project::script_names(&own) {
                confined(&own, &format!("{name}.rhai"))?;
                abilities.insert(name.clone(), own.join(format!("{name}.rhai")));
            }
        }
        let shared = project.shared_abilities_dir();
        let shared_there = file.shared_abilities.is_empty()
            || project
                .folder(Path::new("scripts/shared/abilities"))?
                .is_some();
        for name in &file.shared_abilities {
            let script = shared.join(format!("{name}.rhai"));
            if !shared_there || !confined(&shared, &format!("{name}.rhai"))? {
                return Err(Error::other(
                    format!("{}: shared ability `{name}` does not exist", path.display()),
                    Some(format!(
                        "the shared abilities are the scripts in {}",
                        shared.display()
                    )),
                ));
            }
            abilities.entry(name.clone()).or_insert(script);
        }
        let known: Vec<String> = abilities.keys().cloned().collect();
        for (troop, spec) in &file.troops {
            for a in &spec.abilities {
                if !known.contains(a) {
                    return Err(Error::other(
                        format!(
                            "{}: troop `{troop}` has unknown ability `{a}`",
                            path.display()
                        ),
                        crate::host::suggest::did_you_mean(a, known.iter().map(String::as_str))
                            .map(|s| format!("did you mean `{s}`?")),
                    ));
                }
            }
        }
        for script in &file.scripts {
            if !confined(&dir, script)? {
                return Err(Error::other(
                    format!("{}: script `{script}` does not exist", path.display()),
                    Some(format!(
                        "create {} or remove it from `scripts`",
                        dir.join(script).display()
                    )),
                ));
            }
        }
        Ok(Ruleset {
            id: id.to_string(),
            dir,
            file,
            abilities,
        })
    }

    /// The paths of the rule scripts, in load order.
    pub fn script_paths(&self) -> Vec<PathBuf> {
        self.file.scripts.iter().map(|s| self.dir.join(s)).collect()
    }

    /// The names of the abilities units of this ruleset may have.
    pub fn ability_names(&self) -> Vec<String> {
        self.abilities.keys().cloned().collect()
    }

    /// A troop type by name.
    pub fn troop(&self, name: &str) -> Option<&TroopType> {
        self.file.troops.get(name)
    }

    /// The base of a troop type.
    pub fn base_of(&self, troop: &TroopType) -> Base {
        troop.base.unwrap_or(self.file.default_base)
    }

    /// Checks a unit's stat against the ruleset's declarations: `Err(message, help)` names
    /// an undeclared stat with a did-you-mean, or says what a declared one must be. A
    /// private note (`_name`) is the rules' own and always passes.
    pub fn check_stat(&self, name: &str, value: &Stat) -> Result<(), (String, Option<String>)> {
        declared::check_stat(&self.file.stats, name, value)
    }

    /// The declaration of a stat, or why there is none (an undeclared name, with a
    /// did-you-mean and the declared ones).
    pub fn stat_decl(&self, name: &str) -> Result<&StatDecl, (String, Option<String>)> {
        declared::stat_decl(&self.file.stats, name)
    }
}

/// Checks what the ruleset declares (its stats and hooks make sense) and holds its troop
/// chart to its stats, each problem at its line of `ruleset.yaml`.
fn check_declarations(name: &str, text: &str, file: &RulesetFile) -> Result<(), Error> {
    // The file is read again for places only when there is a problem to show.
    let places = std::cell::OnceCell::new();
    let places = || places.get_or_init(|| Places::read(text));
    let mut problems = Vec::new();
    for (stat, decl) in &file.stats {
        let at = || places().declaration("stats", stat);
        if declared::is_private(stat) || !declared::is_identifier(stat) {
            problems.push(at().error(
                name,
                text,
                format!("the stat `{stat}` cannot be declared: a stat's name is letters, digits and `_`, and a name starting with `_` is the rules' private note"),
                "this stat",
                None,
            ));
        } else if let Err(e) = decl.validate() {
            problems.push(at().error(name, text, format!("stat `{stat}`: {e}"), "this stat", None));
        }
    }
    for (hook, decl) in &file.hooks {
        let at = || places().declaration("hooks", hook);
        if !declared::is_identifier(hook) {
            problems.push(at().error(
                name,
                text,
                format!("the hook `{hook}` cannot be declared: a hook's name is a function's name, letters, digits and `_`"),
                "this hook",
                None,
            ));
        } else if let Err(e) = decl.validate() {
            problems.push(at().error(name, text, format!("hook `{hook}`: {e}"), "this hook", None));
        }
    }
    for (troop, spec) in &file.troops {
        for (stat, value) in &spec.stats {
            if let Err((message, help)) = declared::check_stat(&file.stats, stat, value) {
                problems.push(places().troop_stat(troop, stat).error(
                    name,
                    text,
                    format!("troop `{troop}`: {message}"),
                    "this stat",
                    help,
                ));
            }
        }
    }
    match problems.len() {
        0 => Ok(()),
        1 => Err(problems.remove(0)),
        n => Err(Error::Several {
            message: format!("{n} problems in {name}"),
            problems,
        }),
    }
}

/// Where things are in a `ruleset.yaml`, read again only when a problem must be shown: the
/// file's types keep no positions, so a second, lenient reading finds them.
struct Places {
    file: Option<SpannedFile>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct SpannedFile {
    stats: BTreeMap<String, Spanned<serde::de::IgnoredAny>>,
    hooks: BTreeMap<String, Spanned<serde::de::IgnoredAny>>,
    troops: BTreeMap<String, SpannedTroop>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct SpannedTroop {
    stats: BTreeMap<String, Spanned<serde::de::IgnoredAny>>,
}

/// A place in the file: a key and where its value starts, or nowhere known.
struct Place {
    key: String,
    value: Option<usize>,
}

impl Places {
    fn read(text: &str) -> Places {
        Places {
            file: serde_saphyr::from_str::<SpannedFile>(text).ok(),
        }
    }

    /// The key `key` of the section `section` (`stats`, `hooks`).
    fn declaration(&self, section: &str, key: &str) -> Place {
        let spanned = self.file.as_ref().and_then(|f| match section {
            "stats" => f.stats.get(key),
            _ => f.hooks.get(key),
        });
        Place::of(key, spanned)
    }

    /// The stat `stat` of the troop type `troop`.
    fn troop_stat(&self, troop: &str, stat: &str) -> Place {
        let spanned = self
            .file
            .as_ref()
            .and_then(|f| f.troops.get(troop))
            .and_then(|t| t.stats.get(stat));
        Place::of(stat, spanned)
    }
}

impl Place {
    fn of<T>(key: &str, value: Option<&Spanned<T>>) -> Place {
        Place {
            key: key.to_string(),
            value: value.and_then(|v| v.referenced.span().byte_offset().map(|b| b as usize)),
        }
    }

    /// An error labelling the key (found back from its value: `defnd` in `defnd: 2`).
    fn error(
        &self,
        name: &str,
        text: &str,
        message: String,
        label: &str,
        help: Option<String>,
    ) -> Error {
        let Some(value) = self.value.filter(|v| *v <= text.len()) else {
            return Error::other(format!("{name}: {message}"), help);
        };
        let range = match text[..value].rfind(self.key.as_str()) {
            Some(i) => i..i + self.key.len(),
            None => value..(value + 1).min(text.len()),
        };
        crate::error::YamlDiagnostic::new(name, text, range, message, label, help).into()
    }
}
