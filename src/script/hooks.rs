//! Ability scripts and the hook dispatcher.
//!
//! Each ability is one script of its ruleset's package,
//! `scripts/rulesets/<ruleset>/abilities/<name>.rhai` (or a shared one the ruleset borrows from
//! `scripts/shared/abilities/`), compiled on its own (so two
//! abilities may both define `defend_dice`). It declares itself in `meta()` and implements
//! only the hooks it needs. Rules never call abilities directly: they ask the dispatcher,
//! through the script functions registered in `api.rs`:
//!
//! - `ask(hook, unit, value, info)`: a number (or any value) a rule needs, e.g.
//!   `ask("defend_dice", defender, 2, #{attacker: a})`. Each active ability of `unit` that
//!   defines `hook(value, info)` gets the value so far and returns the new one.
//! - `allowed(hook, unit, info)`: a permission, e.g. `allowed("can_die", u, #{...})`. Each
//!   active ability that defines `hook(info)` answers; any `false` forbids.
//! - `notify(hook, unit, info)`: a reaction, e.g. `notify("on_kill", u, #{victim: v})`.
//!
//! The order is documented and deterministic: first the unit's abilities that list the hook
//! in `first` (they give a base, such as "2 attacking and 2 defending die"), then its other
//! abilities, each group in the order the scenario gives them, then the house rules in the
//! order they were loaded. `info` always carries `unit`. Every `ask` and every refusal is
//! recorded in the trace that `explain` shows.

use std::cell::Cell;
use std::collections::{BTreeMap, BTreeSet};

use rhai::{AST, CallFnOptions, Dynamic, Engine, EvalAltResult, Map, Position, Scope};

use crate::error::{Error, read_script};
use crate::game::ability::AbilityMeta;
use crate::game::declared::{HookDecl, HookKind, Kind};
use crate::game::project::Project;
use crate::game::ruleset::Ruleset;
use crate::script::engine::Budget;
use crate::script::error::Sources;
use crate::script::value::{HostError, Shared, UnitRef};

pub use crate::limits::MAX_HOOK_DEPTH;

/// One ability script, compiled.
pub struct LoadedAbility {
    /// Its name: the script's file name without `.rhai`.
    pub id: String,
    /// What it declares about itself.
    pub meta: AbilityMeta,
    /// Its functions.
    pub ast: AST,
    /// The hooks it implements (its public functions other than `meta`).
    pub hooks: BTreeSet<String>,
}

/// The abilities of a session, by name.
#[derive(Default)]
pub struct Abilities {
    /// The loaded abilities.
    pub list: BTreeMap<String, LoadedAbility>,
    /// The house rules' hooks, in the order the house rules were loaded.
    pub house_rules: Vec<HouseRuleHooks>,
    /// The hooks the ruleset declares, with their shapes: the rules may ask only these, each
    /// as it is declared.
    pub declared: BTreeMap<String, HookDecl>,
    depth: Cell<usize>,
}

impl Abilities {
    /// Loads the named abilities of a ruleset (from its package, or shared ones it borrows).
    pub fn load(
        engine: &Engine,
        budget: &Budget,
        project: &Project,
        ruleset: &Ruleset,
        names: &BTreeSet<String>,
        sources: &mut Sources,
    ) -> Result<Abilities, Error> {
        let mut list = BTreeMap::new();
        for id in names {
            let path = ruleset.abilities.get(id).ok_or_else(|| {
                Error::other(
                    format!("the ruleset `{}` has no ability `{id}`", ruleset.id),
                    Some(format!(
                        "its abilities are: {}",
                        ruleset.ability_names().join(", ")
                    )),
                )
            })?;
            let text = read_script(path)?;
            let source = path
                .strip_prefix(project.root())
                .unwrap_or(path)
                .display()
                .to_string();
            let ast = sources.compile(engine, budget, &source, &text)?;
            crate::script::functions::check_ability(
                &ruleset.file.name,
                &ruleset.file.hooks,
                sources,
                &source,
                &ast,
            )?;
            let meta: Dynamic = engine
                .call_fn_with_options(
                    CallFnOptions::new().eval_ast(false),
                    &mut Scope::new(),
                    &ast,
                    "meta",
                    (),
                )
                .map_err(|e| {
                    Error::other(
                        format!(
                            "ability `{id}`: its `meta()` failed: {}",
                            crate::script::error::in_words(&e)
                        ),
                        Some(format!("{source} must define `fn meta()` returning a map (see docs/abilities.md)")),
                    )
                })?;
            if !meta.is_map() {
                return Err(Error::other(
                    format!(
                        "ability `{id}`: bad `meta()`: it gave {}, expecting Map",
                        meta.type_name()
                    ),
                    Some("it needs `name` and `activation` (always, chosen or triggered); see docs/abilities.md".into()),
                ));
            }
            let meta: AbilityMeta = rhai::serde::from_dynamic(&meta).map_err(|e| {
                Error::other(
                    format!("ability `{id}`: bad `meta()`: {e}"),
                    Some("it needs `name` and `activation` (always, chosen or triggered); see docs/abilities.md".into()),
                )
            })?;
            if let Some(field) = meta
                .extra
                .keys()
                .find(|k| !ruleset.file.ability_fields.contains(k))
            {
                let mut fields: Vec<&str> = AbilityMeta::FIELDS.to_vec();
                fields.extend(ruleset.file.ability_fields.iter().map(String::as_str));
                return Err(Error::other(
                    format!("ability `{id}`: bad `meta()`: unknown field `{field}`"),
                    Some(format!(
                        "it needs `name` and `activation` (always, chosen or triggered); \
                         the fields are: {}{}",
                        fields.join(", "),
                        crate::host::suggest::did_you_mean(field, fields.iter().copied())
                            .map(|s| format!(" (did you mean `{s}`?)"))
                            .unwrap_or_default()
                    )),
                ));
            }
            let hooks = ast
                .iter_functions()
                .filter(|f| f.name != "meta" && f.access != rhai::FnAccess::Private)
                .map(|f| f.name.to_string())
                .collect();
            list.insert(
                id.clone(),
                LoadedAbility {
                    id: id.clone(),
                    meta,
                    ast,
                    hooks,
                },
            );
        }
        Ok(Abilities {
            list,
            house_rules: Vec::new(),
            declared: ruleset.file.hooks.clone(),
            depth: Cell::new(0),
        })
    }

    /// The declaration of `hook`, which the rules ask with `kind` giving `info`: asking for a
    /// hook the ruleset does not declare, asking it another way than declared, or giving it
    /// a field of `info` it does not declare is an error in the rules.
    fn declaration(
        &self,
        hook: &str,
        kind: HookKind,
        info: &Map,
    ) -> Result<&HookDecl, Box<EvalAltResult>> {
        let Some(decl) = self.declared.get(hook) else {
            return Err(host(format!(
                "the rules ask for hook `{hook}`, which the ruleset's `hooks` does not declare{}",
                crate::host::suggest::suggestion_suffix(
                    hook,
                    self.declared.keys().map(String::as_str)
                )
            )));
        };
        if decl.kind != kind {
            return Err(host(format!(
                "the rules ask hook `{hook}` with `{}`, but it is declared `kind: {}`: ask it with `{}`",
                kind.asked_with(),
                decl.kind.asked_with(),
                decl.kind.asked_with()
            )));
        }
        if let Some(field) = info.keys().find(|f| !decl.has_field(f)) {
            return Err(host(format!(
                "the rules give hook `{hook}` the field `{field}` in `info`, which its declaration does not list{}",
                crate::host::suggest::suggestion_suffix(field, decl.info_fields())
            )));
        }
        Ok(decl)
    }

    /// Who answers `hook` for a unit, in order: its abilities in force that implement it, in
    /// the order the unit has them, then the house rules that implement it, in the order they
    /// were loaded.
    fn answering<'a>(
        &'a self,
        state: &Shared,
        idx: usize,
        hook: &str,
    ) -> Result<Vec<Answerer<'a>>, Box<EvalAltResult>> {
        let s = state.borrow();
        let unit = s.unit(idx).map_err(host)?;
        let mut abilities: Vec<&LoadedAbility> = unit
            .abilities
            .iter()
            .filter_map(|name| self.list.get(name))
            .filter(|a| a.hooks.contains(hook))
            .filter(|a| a.meta.is_active(&s.ability_use(idx, &a.id), s.clock()))
            .collect();
        // Those that give a base (`first`) before those that add to it; each group in the
        // unit's order (a stable sort).
        abilities.sort_by_key(|a| !a.meta.first.iter().any(|h| h == hook));
        let abilities = abilities.into_iter().map(|a| Answerer {
            id: &a.id,
            kind: "ability",
            ast: &a.ast,
            overrides: a.meta.overrides.iter().any(|h| h == hook),
        });
        let house_rules = self
            .house_rules
            .iter()
            .filter(|r| r.hooks.contains(hook))
            .map(|r| Answerer {
                id: &r.id,
                kind: "house rule",
                ast: &r.ast,
                overrides: false,
            });
        Ok(abilities.chain(house_rules).collect())
    }

    /// Calls one hook, naming who answers and the hook if it fails.
    fn call(
        &self,
        engine: &Engine,
        who: &Answerer,
        hook: &str,
        args: Vec<Dynamic>,
    ) -> Result<Dynamic, Box<EvalAltResult>> {
        if self.depth.get() >= MAX_HOOK_DEPTH {
            return Err(host(format!(
                "abilities asked each other more than {MAX_HOOK_DEPTH} deep (hook `{hook}` of `{}`)",
                who.id
            )));
        }
        self.depth.set(self.depth.get() + 1);
        let result = engine.call_fn_with_options::<Dynamic>(
            CallFnOptions::new().eval_ast(false).rewind_scope(true),
            &mut Scope::new(),
            who.ast,
            hook,
            args,
        );
        self.depth.set(self.depth.get() - 1);
        result.map_err(|e| {
            let source = who.ast.source().unwrap_or_default().to_string();
            Box::new(EvalAltResult::ErrorInFunctionCall(
                format!("{hook}` of {} `{}", who.kind, who.id),
                source,
                e,
                Position::NONE,
            ))
        })
    }

    /// `ask`: runs the number hooks and records the trace line.
    pub fn ask(
        &self,
        engine: &Engine,
        state: &Shared,
        hook: &str,
        idx: usize,
        base: Dynamic,
        info: Map,
    ) -> Result<Dynamic, Box<EvalAltResult>> {
        let decl = self.declaration(hook, HookKind::Ask, &info)?;
        let info = with_unit(info, idx);
        let mut value = base.clone();
        let mut parts = Vec::new();
        for who in self.answering(state, idx, hook)? {
            let new = self.call(engine, &who, hook, vec![value.clone(), info.clone().into()])?;
            if let Some(kind) = decl.answer
                && !answers_as(&new, kind)
            {
                return Err(host(format!(
                    "hook `{hook}` of {} `{}` must answer {}, not {}",
                    who.kind,
                    who.id,
                    kind.described(),
                    shown_type(&new)
                )));
            }
            // An answer that leaves the value as it was (a house rule about other units)
            // is no change to show.
            if !unchanged(&value, &new) {
                parts.push(describe(&value, &new, &who));
            }
            value = new;
        }
        let mut s = state.borrow_mut();
        let unit = s.unit(idx).map_err(host)?;
        let line = format!(
            "{} for {}: {} ({}){} = {}",
            hook,
            unit.id,
            crate::script::value::show(&s, &base),
            unit.troop.replace('_', " "),
            parts.iter().map(|p| format!(" {p}")).collect::<String>(),
            crate::script::value::show(&s, &value)
        );
        s.trace.push(line);
        Ok(value)
    }

    /// `allowed`: runs the permission hooks; any `false` forbids.
    pub fn allowed(
        &self,
        engine: &Engine,
        state: &Shared,
        hook: &str,
        idx: usize,
        info: Map,
    ) -> Result<bool, Box<EvalAltResult>> {
        self.declaration(hook, HookKind::Allowed, &info)?;
        let info = with_unit(info, idx);
        let mut allowed = true;
        for who in self.answering(state, idx, hook)? {
            let answer = self.call(engine, &who, hook, vec![info.clone().into()])?;
            let yes = answer.as_bool().map_err(|t| {
                host(format!(
                    "hook `{hook}` of {} `{}` must answer true or false, not {t}",
                    who.kind, who.id
                ))
            })?;
            if !yes {
                allowed = false;
                let mut s = state.borrow_mut();
                let unit = s.unit(idx).map(|u| u.id.clone()).unwrap_or_default();
                s.trace
                    .push(format!("{} for {unit}: no, by {}", hook, who.id));
            }
        }
        Ok(allowed)
    }

    /// `notify`: runs the reaction hooks.
    pub fn notify(
        &self,
        engine: &Engine,
        state: &Shared,
        hook: &str,
        idx: usize,
        info: Map,
    ) -> Result<(), Box<EvalAltResult>> {
        self.declaration(hook, HookKind::Notify, &info)?;
        let info = with_unit(info, idx);
        for who in self.answering(state, idx, hook)? {
            let _ = self.call(engine, &who, hook, vec![info.clone().into()])?;
        }
        Ok(())
    }
}

/// An ability or a house rule that answers a hook.
struct Answerer<'a> {
    /// Its name, as `explain` shows it.
    id: &'a str,
    /// `ability` or `house rule`, for errors.
    kind: &'static str,
    /// Its functions.
    ast: &'a AST,
    /// Whether its answer replaces the value rather than adjusting it.
    overrides: bool,
}

/// A house rule's hooks: its functions named after a hook the ruleset declares. They apply to
/// every unit, after the unit's abilities.
pub struct HouseRuleHooks {
    /// Its name: the script's file name without `.rhai`.
    pub id: String,
    /// Its functions.
    pub ast: AST,
    /// The hooks it implements.
    pub hooks: BTreeSet<String>,
    /// What its functions are: the hooks, the ruleset functions it replaces, the verbs.
    pub functions: crate::script::functions::HouseRuleFunctions,
}

fn with_unit(mut info: Map, idx: usize) -> Map {
    info.insert("unit".into(), Dynamic::from(UnitRef(idx)));
    info
}

fn host(message: impl Into<String>) -> Box<EvalAltResult> {
    EvalAltResult::ErrorRuntime(Dynamic::from(HostError::new(message)), Position::NONE).into()
}

/// Whether a hook's answer is of the declared kind (a whole number where a number is asked
/// for is one; a dice expression is a text that parses).
fn answers_as(value: &Dynamic, kind: Kind) -> bool {
    match kind {
        Kind::Whole => value.is_int(),
        Kind::Number => value.is_int() || value.is_float(),
        Kind::Dice => value
            .read_lock::<rhai::ImmutableString>()
            .is_some_and(|t| crate::host::dice::DiceExpr::parse(&t).is_ok()),
        Kind::Text => value.is_string(),
        Kind::List => value.is_array(),
        Kind::YesNo => value.is_bool(),
    }
}

/// The kind of a script value in a house-ruler's words, for an error.
fn shown_type(value: &Dynamic) -> String {
    if value.is_unit() {
        "nothing (`()`): does its last line end in `;`?".into()
    } else if value.is_int() {
        format!("the whole number {value}")
    } else if value.is_float() {
        format!("the number {value}")
    } else if value.is_bool() {
        format!("`{value}`")
    } else if value.is_string() {
        format!("the text \"{value}\"")
    } else {
        format!("a value of type {}", value.type_name())
    }
}

/// Whether a hook gave back the value it was given.
fn unchanged(old: &Dynamic, new: &Dynamic) -> bool {
    old.type_name() == new.type_name() && old.to_string() == new.to_string()
}

/// How one ability or house rule changed a value, for the trace: `+1 testudo`, `set to 45 by
/// testudo`.
fn describe(old: &Dynamic, new: &Dynamic, who: &Answerer) -> String {
    if who.overrides {
        return format!("set to {new} by {}", who.id);
    }
    let as_number = |v: &Dynamic| v.as_int().map(|i| i as f64).or_else(|_| v.as_float());
    match (as_number(old), as_number(new)) {
        (Ok(a), Ok(b)) => {
            let delta = b - a;
            let shown = if delta.fract() == 0.0 {
                format!("{}", delta.abs() as i64)
            } else {
                format!("{}", delta.abs())
            };
            format!("{}{shown} {}", if delta < 0.0 { "-" } else { "+" }, who.id)
        }
        _ => format!("changed by {}", who.id),
    }
}
