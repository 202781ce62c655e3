//! The static pass over scripts: what would fail only when it first runs, found when the
//! scripts are loaded and by `check`, each with its file, line and a did-you-mean.
//!
//! It reads Rhai's own syntax tree (`internals`) and the engine's metadata ([`Known`]), and
//! walks each script keeping scopes as Rhai does: a function sees its parameters and its own
//! variables (and `this`), not the top level's (`global::X` reads a top-level constant); a
//! script's top level sees the top levels of the scripts loaded before it; `let`, `const`,
//! `for (x, i)`, `catch (e)` and blocks open and close names; a closure's captured variables
//! must exist where the closure is written. It finds:
//!
//! - a call `f(a, b)` or a method call `x.f(a)` (the object counted) that neither the host,
//!   nor Rhai's packages or keyword functions, nor a script of the set defines with that
//!   arity, and `Fn("f")` of no function; a name defined with other arities says which;
//! - a variable read or assigned that is not defined there (each one, not only the first);
//! - a property or a method that a host type does not have, where the syntax tree shows the
//!   value is of that type: types are inferred lightly, from the host functions' results and
//!   the properties' types in the metadata (`unit(..)` is a `Unit`, `x.pos` a `Point`), from a
//!   hook implementation's `info.unit`, and from variables given such a value with `let`;
//!   a map's fields are not properties and are not checked, except:
//! - in a hook implementation, `info.FIELD` that the hook does not declare;
//! - `data("key")` and `data().key` chains whose keys the ruleset's data does not have;
//! - `ask`, `allowed` and `notify` of a hook the ruleset does not declare, or declares as
//!   another kind, or with an `info` map written out that has a field the hook does not
//!   declare;
//! - a stat named as a string (`.stat("x")`, `.has_stat("x")`, `.set_stat("x", v)`, `u["x"]`,
//!   `units_without(side, "x", v)`) that the ruleset does not declare; a name starting with
//!   `_` is the scripts' own note and needs no declaration, but one read and never set in
//!   any script of the pass is told, with the private stats that are set as did-you-means.
//!
//! Not checked: calls and variables through a namespace (`m::f()` of an `import`,
//! `global::X`), operators, the types of arguments (only names and arities), the fields of
//! maps other than `info` and the data, and a stat named by a computed string. A variable
//! holding a function is no function (`let f = |x| ..; f(1)` fails in Rhai): it is called
//! with `f.call(1)`, and the pass says so.
//!
//! It also reads what a verb's parameters must be, from their uses ([`verb_params`]), and
//! gives the did-you-means of errors at run time ([`runtime_help`]).

mod known;
mod walk;

use std::collections::{BTreeMap, BTreeSet};

use rhai::{AST, Position};

pub use known::{KEYWORDS, Known, Property, Sig, Ty};

use walk::{Namespace, StatUse, Walker};

pub use crate::game::declared::HookKind;

/// What the rules do with a hook, as a verb of a sentence.
fn verb_of(kind: HookKind) -> &'static str {
    match kind {
        HookKind::Ask => "ask for",
        HookKind::Allowed => "ask permission of",
        HookKind::Notify => "notify",
    }
}

/// How the rules call a hook.
fn call_of(kind: HookKind, hook: &str) -> String {
    match kind {
        HookKind::Ask => format!("ask(\"{hook}\", unit, value, info)"),
        HookKind::Allowed => format!("allowed(\"{hook}\", unit, info)"),
        HookKind::Notify => format!("notify(\"{hook}\", unit, info)"),
    }
}

/// What a ruleset declares of one hook. A part left `None` is not checked.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct HookShape {
    /// How it is asked.
    pub kind: Option<HookKind>,
    /// The fields of its `info`, with their types (`unit` is always there, a `Unit`).
    pub fields: Option<BTreeMap<String, Ty>>,
}

/// What a ruleset declares (mapped from its `ruleset.yaml`). Empty parts are not checked: a
/// ruleset that declares no hooks may ask any, one that declares no stats may read any.
#[derive(Clone, Debug, Default)]
pub struct Declared {
    /// Its hooks, by name.
    pub hooks: BTreeMap<String, HookShape>,
    /// The stats its troop types may carry.
    pub stats: BTreeSet<String>,
    /// Its `data:` map (`Null`: not checked).
    pub data: serde_json::Value,
}

impl Declared {
    /// What a ruleset's `ruleset.yaml` declares: its hooks with their kinds and `info` fields
    /// (`unit` a `Unit`, the others of any type), its stats and its data.
    pub fn of(ruleset: &crate::game::ruleset::Ruleset) -> Declared {
        Declared {
            hooks: ruleset
                .file
                .hooks
                .iter()
                .map(|(name, decl)| {
                    let fields = decl
                        .info_fields()
                        .map(|f| {
                            let ty = if f == crate::game::declared::INFO_UNIT {
                                Ty::Host("Unit".into())
                            } else {
                                Ty::Any
                            };
                            (f.to_string(), ty)
                        })
                        .collect();
                    (
                        name.clone(),
                        HookShape {
                            kind: Some(decl.kind),
                            fields: Some(fields),
                        },
                    )
                })
                .collect(),
            stats: ruleset.file.stats.keys().cloned().collect(),
            data: serde_json::to_value(&ruleset.file.data).unwrap_or(serde_json::Value::Null),
        }
    }
}

/// What kind of mistake a finding is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum FindingKind {
    /// A function called that nothing defines with that arity.
    UnknownFunction,
    /// A variable used where it is not defined.
    UnknownVariable,
    /// A property a host type does not have (or cannot set).
    UnknownProperty,
    /// A field of a hook's `info` the hook does not declare.
    UnknownInfoField,
    /// A key the ruleset's data does not have.
    UnknownData,
    /// A hook the ruleset does not declare.
    UnknownHook,
    /// A hook asked in another way than it is declared.
    WrongHookKind,
    /// A stat the ruleset does not declare.
    UnknownStat,
    /// A private stat (`_name`) read but never set.
    PrivateStatNeverSet,
}

/// One mistake in a script.
#[derive(Clone, Debug, PartialEq)]
pub struct Finding {
    /// What kind of mistake.
    pub kind: FindingKind,
    /// The script, by its source name (`AST::source()`).
    pub source: String,
    /// Where in it.
    pub position: Position,
    /// What is wrong, in a house-ruler's words.
    pub message: String,
    /// How to put it right, with a did-you-mean where one is known.
    pub help: Option<String>,
}

impl std::fmt::Display for Finding {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.source)?;
        if let (Some(l), Some(c)) = (self.position.line(), self.position.position()) {
            write!(f, ":{l}:{c}")?;
        }
        write!(f, ": {}", self.message)?;
        if let Some(h) = &self.help {
            write!(f, " ({h})")?;
        }
        Ok(())
    }
}

/// Checks scripts that share one namespace (a ruleset's scripts and the house rules loaded
/// over them see each other's functions; an ability script sees only its own and the
/// host's), in the order they are loaded. `hooks_here`: whether the scripts' functions named
/// like a declared hook are its implementations (abilities and house rules), whose
/// `info.FIELD` is then checked against the hook's fields.
pub fn check(
    known: &Known,
    declared: &Declared,
    scripts: &[&AST],
    hooks_here: bool,
) -> Vec<Finding> {
    let mut pass = Pass::new(known, declared);
    pass.check(scripts, hooks_here);
    pass.finish()
}

/// Several namespaces checked in one pass, so that the scripts' own stats are followed
/// across all of them (an ability may set what the rules read).
pub struct Pass<'a> {
    known: &'a Known,
    declared: &'a Declared,
    findings: Vec<Finding>,
    private: Vec<StatUse>,
    computed_writes: bool,
    /// The scripts checked, in the order they were given.
    order: Vec<String>,
}

impl<'a> Pass<'a> {
    /// A pass with what the engine defines and what the ruleset declares.
    pub fn new(known: &'a Known, declared: &'a Declared) -> Pass<'a> {
        Pass {
            known,
            declared,
            findings: Vec::new(),
            private: Vec::new(),
            computed_writes: false,
            order: Vec::new(),
        }
    }

    /// Checks scripts of one namespace (see [`check`]).
    pub fn check(&mut self, scripts: &[&AST], hooks_here: bool) {
        self.check_over(&[], scripts, hooks_here);
    }

    /// Checks `scripts` loaded over `beneath` (house rules over a ruleset's scripts): they
    /// see the functions and top-level variables of `beneath`, which are not checked again.
    pub fn check_over(&mut self, beneath: &[&AST], scripts: &[&AST], hooks_here: bool) {
        let all: Vec<&AST> = beneath.iter().chain(scripts).copied().collect();
        let space = Namespace::of(&all);
        let mut walker = Walker::new(self.known, self.declared, &space);
        for ast in beneath {
            walker.top_level(ast);
        }
        walker.findings.clear();
        walker.private.clear();
        for ast in scripts {
            self.order
                .push(ast.source().unwrap_or_default().to_string());
            walker.top_level(ast);
        }
        for ast in scripts {
            for def in ast.iter_fn_def() {
                let hook = (hooks_here && self.declared.hooks.contains_key(def.name.as_str()))
                    .then_some(def.name.as_str());
                walker.function(ast, def, hook);
            }
        }
        self.findings.append(&mut walker.findings);
        self.private.append(&mut walker.private);
        self.computed_writes |= walker.computed_writes;
    }

    /// The findings, script by script in the order they were checked, each script's in the
    /// order of its lines.
    pub fn finish(mut self) -> Vec<Finding> {
        if !self.computed_writes {
            let set: BTreeSet<&str> = self
                .private
                .iter()
                .filter(|u| u.set)
                .map(|u| u.name.as_str())
                .collect();
            let mut told = BTreeSet::new();
            for read in self.private.iter().filter(|u| !u.set) {
                if set.contains(read.name.as_str()) || !told.insert(read.name.as_str()) {
                    continue;
                }
                let near = crate::host::suggest::did_you_mean(&read.name, set.iter().copied());
                self.findings.push(Finding {
                    kind: FindingKind::PrivateStatNeverSet,
                    source: read.source.clone(),
                    position: read.position,
                    message: format!(
                        "the stat `{}` is read here, but no script sets it",
                        read.name
                    ),
                    help: Some(match near {
                        Some(n) => format!("did you mean `{n}`?"),
                        None => format!(
                            "set it with `u.set_stat(\"{}\", value)` before it is read",
                            read.name
                        ),
                    }),
                });
            }
        }
        let order = &self.order;
        self.findings.sort_by_key(|f| {
            let script = order
                .iter()
                .position(|s| *s == f.source)
                .unwrap_or(usize::MAX);
            let p = f.position;
            (script, p.line().unwrap_or(0), p.position().unwrap_or(0))
        });
        self.findings
    }
}

/// What a verb's parameter must be, for the prompt to refuse a word before the verb runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ParamKind {
    /// A unit (its id at the prompt).
    Unit,
    /// A number.
    Number,
    /// A string.
    Text,
    /// Anything (nothing says, or its uses disagree).
    Any,
}

/// How deep [`verb_params`] follows a parameter passed on to another script function.
const PARAM_DEPTH: usize = 4;

/// What each parameter of the public script function `verb` must be, from its direct uses:
/// passed to a host function whose parameter is typed, used with a method or property only
/// one host type has, or passed to another script function whose parameter is known
/// (followed [`PARAM_DEPTH`] deep). Uses that disagree, or none, give [`ParamKind::Any`],
/// and so does a parameter whose type the function asks (`type_of(p)`: it takes several).
/// `None` when the scripts define no such function.
pub fn verb_params(known: &Known, scripts: &[&AST], verb: &str) -> Option<Vec<ParamKind>> {
    let space = Namespace::of(scripts);
    let declared = Declared::default();
    let mut found = None;
    for ast in scripts {
        for def in ast.iter_fn_def() {
            if def.name == verb && def.access != rhai::FnAccess::Private {
                found = Some((*ast, def.params.len()));
            }
        }
    }
    let (_, arity) = found?;
    let mut memo = BTreeMap::new();
    let types = param_types(
        known,
        &declared,
        &space,
        scripts,
        verb,
        arity,
        PARAM_DEPTH,
        &mut memo,
    )?;
    Some(types.iter().map(kind_of).collect())
}

/// What each parameter of a script function must be (see [`verb_params`]), as types.
#[allow(clippy::too_many_arguments)]
fn param_types(
    known: &Known,
    declared: &Declared,
    space: &Namespace,
    scripts: &[&AST],
    name: &str,
    arity: usize,
    depth: usize,
    memo: &mut BTreeMap<(String, usize), Vec<Ty>>,
) -> Option<Vec<Ty>> {
    let key = (name.to_string(), arity);
    if let Some(t) = memo.get(&key) {
        return Some(t.clone());
    }
    // While it is worked out (a function that calls itself), nothing is known of it.
    memo.insert(key.clone(), vec![Ty::Any; arity]);
    let (ast, def) = scripts.iter().rev().find_map(|ast| {
        ast.iter_fn_def()
            .find(|d| d.name == name && d.params.len() == arity)
            .map(|d| (*ast, d.clone()))
    })?;
    let mut walker = Walker::new(known, declared, space);
    walker.uses = Some(walk::Uses::default());
    walker.function(ast, &def, None);
    let uses = walker.uses.take().unwrap_or_default();
    let mut types = Vec::with_capacity(arity);
    for p in 0..arity {
        // A parameter whose type the function asks may be of more than one.
        if uses.asked.contains(&p) {
            types.push(Ty::Any);
            continue;
        }
        let mut expected: Vec<Ty> = uses.expected.get(p).cloned().unwrap_or_default();
        if depth > 0 {
            for (f, n, at) in uses.passed.get(p).into_iter().flatten() {
                if let Some(t) =
                    param_types(known, declared, space, scripts, f, *n, depth - 1, memo)
                    && let Some(t) = t.get(*at)
                    && *t != Ty::Any
                {
                    expected.push(t.clone());
                }
            }
        }
        types.push(agree(&expected));
    }
    memo.insert(key, types.clone());
    Some(types)
}

/// The one type uses agree on (numbers of both kinds agree on a number), or `Any`.
fn agree(types: &[Ty]) -> Ty {
    let kinds: BTreeSet<ParamKind> = types
        .iter()
        .map(kind_of)
        .filter(|k| *k != ParamKind::Any)
        .collect();
    match kinds.iter().collect::<Vec<_>>().as_slice() {
        [ParamKind::Unit] => walk::unit_ty(),
        [ParamKind::Number] => Ty::Number,
        [ParamKind::Text] => Ty::Str,
        _ => Ty::Any,
    }
}

impl PartialOrd for ParamKind {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for ParamKind {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        (*self as u8).cmp(&(*other as u8))
    }
}

fn kind_of(t: &Ty) -> ParamKind {
    match t {
        Ty::Int | Ty::Float | Ty::Number => ParamKind::Number,
        Ty::Str => ParamKind::Text,
        Ty::Host(h) if h == "Unit" => ParamKind::Unit,
        _ => ParamKind::Any,
    }
}

// ---- run time ----------------------------------------------------------------------------

/// The names in scope at a position of a script (its parameters and variables there), as
/// the pass keeps them; `None` if nothing is read at that position.
pub fn variables_at(ast: &AST, at: Position) -> Option<Vec<String>> {
    let known = Known::default();
    let declared = Declared::default();
    let space = Namespace::of(&[ast]);
    let mut walker = Walker::new(&known, &declared, &space);
    walker.probe = Some((at, None));
    walker.top_level(ast);
    for def in ast.iter_fn_def() {
        if walker.probe.as_ref().is_some_and(|(_, n)| n.is_some()) {
            break;
        }
        walker.function(ast, def, None);
    }
    walker.probe.and_then(|(_, names)| names)
}

/// What the scripts a session has compiled define, for the did-you-means of run time.
pub struct Defined<'a> {
    /// The engine's functions.
    pub known: &'a Known,
    /// The scripts' functions, with their arities (none known: an empty set).
    pub functions: &'a BTreeMap<String, BTreeSet<usize>>,
}

/// What a run-time error of an unknown function, variable or property needs for its help.
pub enum Unknown<'a> {
    /// A function `name` called with arguments of these types (as Rhai names them).
    Function { name: &'a str, args: &'a [String] },
    /// A variable, with the names in scope where it was read.
    Variable {
        name: &'a str,
        in_scope: &'a [String],
    },
    /// A property of a host type (by the name it is registered with).
    Property { on: &'a str, name: &'a str },
}

/// The help for a run-time error of something unknown: the same did-you-mean as the pass.
pub fn runtime_help(defined: &Defined<'_>, unknown: Unknown) -> Option<String> {
    match unknown {
        Unknown::Function { name, args } => {
            let first = args.first().map(|a| Ty::named(a.trim()));
            if let Some(on) = &first
                && defined.known.is_host(on)
                && !defined.known.has(name, args.len())
                && !defined.functions.contains_key(name)
            {
                let (_, help) = walk::no_method(defined.known, on, name, args.len() - 1);
                if help.is_some() {
                    return help;
                }
            }
            let (_, help) = walk::function_in_words(
                defined.known,
                defined.functions,
                name,
                Some(args.len()),
                false,
            );
            help.filter(|h| !h.starts_with("check the name"))
        }
        Unknown::Variable { name, in_scope } => {
            crate::host::suggest::did_you_mean(name, in_scope.iter().map(String::as_str))
                .map(|n| format!("did you mean `{n}`?"))
        }
        Unknown::Property { on, name } => {
            let ty = Ty::named(on);
            if !defined.known.is_host(&ty) {
                return None;
            }
            walk::unknown_property(defined.known, &ty, name).1
        }
    }
}

/// The help for a name read from a unit (`u.name`, `u["name"]`) that is neither one of its
/// properties nor one of `stats` (the unit's): the same did-you-mean as the pass gives.
pub fn unit_name_help<'s>(
    known: &Known,
    stats: impl Iterator<Item = &'s str>,
    name: &str,
) -> Option<String> {
    walk::unit_name_help(known, &walk::unit_ty(), stats, name)
}

#[cfg(test)]
mod tests {
    // The pass's checks, each on scripts compiled by the real sandboxed engine with the real
    // host API registered, as a session has it.

    use std::cell::RefCell;
    use std::collections::{BTreeMap, BTreeSet};
    use std::rc::Rc;
    use std::sync::OnceLock;

    use rhai::{AST, Engine, FuncRegistration};

    use super::*;
    use crate::game::project::Project;
    use crate::game::scenario::Scenario;
    use crate::game::state::GameState;
    use crate::script::api;
    use crate::script::engine::{self, Budget, Limits};

    /// The session's engine: sandboxed, with the whole host API.
    fn session_engine() -> Engine {
        let project = Project::at(env!("CARGO_MANIFEST_DIR")).unwrap();
        let scenario = Scenario::load(&project, &project.default_scenario()).unwrap();
        let state: api::Shared = Rc::new(RefCell::new(GameState::new(&scenario, 1)));
        let budget = Budget::default();
        let mut engine = engine::sandboxed(&Limits::default(), &budget, vec![], Default::default());
        api::register(
            &mut engine,
            &state,
            &scenario.ruleset,
            &Rc::default(),
            &Rc::default(),
            &Rc::default(),
            &budget,
        );
        engine
    }

    /// What the session's engine defines, read once.
    fn known() -> &'static Known {
        static KNOWN: OnceLock<Known> = OnceLock::new();
        KNOWN.get_or_init(|| Known::of(&session_engine()))
    }

    fn compile(name: &str, text: &str) -> AST {
        let engine = engine::sandboxed(
            &Limits::default(),
            &Budget::default(),
            vec![],
            Default::default(),
        );
        let mut ast = engine
            .compile(text)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        ast.set_source(name);
        ast
    }

    /// A ruleset's declarations for the tests: two hooks with their fields, three stats, data.
    fn declared() -> Declared {
        let fields = |f: &[(&str, Ty)]| {
            Some(
                f.iter()
                    .map(|(n, t)| (n.to_string(), t.clone()))
                    .collect::<BTreeMap<_, _>>(),
            )
        };
        let unit = Ty::Host("Unit".into());
        Declared {
            hooks: BTreeMap::from([
                (
                    "defend_dice".to_string(),
                    HookShape {
                        kind: Some(HookKind::Ask),
                        fields: fields(&[("attacker", unit.clone()), ("cause", Ty::Str)]),
                    },
                ),
                (
                    "can_die".to_string(),
                    HookShape {
                        kind: Some(HookKind::Allowed),
                        fields: fields(&[("attacker", unit)]),
                    },
                ),
            ]),
            stats: ["attack", "defend", "move"].map(String::from).into(),
            data: serde_json::json!({
                "melee_reach": 2,
                "artillery": { "range": 48, "hits": { "light": 1 } },
            }),
        }
    }

    /// The findings of one script checked alone.
    fn lint(text: &str, hooks_here: bool) -> Vec<Finding> {
        let ast = compile("test.rhai", text);
        check(known(), &declared(), &[&ast], hooks_here)
    }

    /// The findings as `line: message (help)`.
    fn said(findings: &[Finding]) -> Vec<String> {
        findings
            .iter()
            .map(|f| {
                format!(
                    "{}: {}{}",
                    f.position.line().unwrap_or(0),
                    f.message,
                    f.help
                        .as_ref()
                        .map(|h| format!(" ({h})"))
                        .unwrap_or_default()
                )
            })
            .collect()
    }

    #[track_caller]
    fn assert_clean(text: &str, hooks_here: bool) {
        let found = lint(text, hooks_here);
        assert!(found.is_empty(), "{:#?}", said(&found));
    }

    #[track_caller]
    fn assert_one(text: &str, hooks_here: bool, kind: FindingKind, expected: &str) {
        let found = lint(text, hooks_here);
        assert_eq!(said(&found), vec![expected.to_string()], "{found:#?}");
        assert_eq!(found[0].kind, kind);
    }

    // ---- types ---------------------------------------------------------------------------------

    /// Both vocabularies of the metadata read as one: Rust's types today, the documented words
    /// once the host registers its functions with parameter information.
    #[test]
    fn types_are_read_in_both_vocabularies() {
        let e = session_engine();
        let read = |t: &str| Ty::read(&e, t);
        assert_eq!(read("i64"), Ty::Int);
        assert_eq!(read("INT"), Ty::Int);
        assert_eq!(read("FLOAT"), Ty::Float);
        assert_eq!(read("number"), Ty::Number);
        assert_eq!(read("&str"), Ty::Str);
        assert_eq!(read("string"), Ty::Str);
        assert_eq!(read("types::dynamic::Dynamic"), Ty::Any);
        assert_eq!(read("any"), Ty::Any);
        assert_eq!(read("&mut Unit"), Ty::Host("Unit".into()));
        assert_eq!(
            read("sandtable::script::value::UnitRef"),
            Ty::Host("Unit".into())
        );
        assert_eq!(read("place"), Ty::Place);
        assert_eq!(read("()"), Ty::Nothing);
        assert_eq!(
            read(
                "core::result::Result<sandtable::host::geometry::Point, alloc::boxed::Box<rhai::types::error::EvalAltResult>>"
            ),
            Ty::Host("Point".into())
        );
        assert_eq!(
            read(
                "core::result::Result<alloc::vec::Vec<rhai::types::dynamic::Dynamic>, alloc::boxed::Box<rhai::types::error::EvalAltResult>>"
            ),
            Ty::Array
        );
        assert_eq!(read("RhaiResultOf<INT >"), Ty::Int);
    }

    /// The host's types and their properties come from the metadata.
    #[test]
    fn the_host_types_are_known_with_their_properties() {
        let k = known();
        let hosts: BTreeSet<&str> = k.host_types().collect();
        assert_eq!(
            hosts,
            BTreeSet::from(["Card", "Deck", "Point", "Roll", "Unit"])
        );
        let unit = Ty::Host("Unit".into());
        assert_eq!(
            k.property(&unit, "pos").map(|p| &p.ty),
            Some(&Ty::Host("Point".into()))
        );
        assert!(k.property(&unit, "hits").is_some_and(|p| p.set));
        assert!(k.property(&unit, "troop").is_some_and(|p| !p.set));
        assert!(k.indexed_by_name(&unit));
        assert!(k.has("roll", 1) && k.has("roll", 2) && !k.has("roll", 3));
        assert!(k.has("type_of", 1) && k.has("call", 4));
    }

    // ---- functions ------------------------------------------------------------------------------

    #[test]
    fn a_misspelt_host_function_is_told_with_the_right_one() {
        assert_one(
            "fn attack(u) {\n  let r = rol(\"2d6\");\n}",
            false,
            FindingKind::UnknownFunction,
            "2: there is no function `rol` (did you mean `roll`?)",
        );
    }

    #[test]
    fn a_function_called_with_the_wrong_number_of_arguments_says_what_it_takes() {
        assert_one(
            "fn f() { point(1, 2, 3) }",
            false,
            FindingKind::UnknownFunction,
            "1: `point` does not take 3 arguments (`point` takes 2 arguments)",
        );
        assert_one(
            "fn f() { units(1, 2) }",
            false,
            FindingKind::UnknownFunction,
            "1: `units` does not take 2 arguments (`units` takes 0 or 1 arguments)",
        );
    }

    /// Found by a new user: `info.unit.stats("defend")` passed `check`.
    #[test]
    fn a_property_called_as_a_method_is_told_with_the_method_meant() {
        assert_one(
            "fn defend_dice(dice, info) {\n  dice + info.unit.stats(\"defend\")\n}",
            true,
            FindingKind::UnknownFunction,
            "2: a unit has no method `stats` (did you mean `stat`? (`stats` is a property, read without brackets: `x.stats`))",
        );
    }

    #[test]
    fn functions_of_the_other_scripts_of_the_set_are_defined() {
        let a = compile("a.rhai", "fn helper(x) { x + 1 }");
        let b = compile("b.rhai", "fn verb(u) { helper(2) + helper(1, 2) }");
        let found = check(known(), &declared(), &[&a, &b], false);
        assert_eq!(
            said(&found),
            ["1: `helper` does not take 2 arguments (`helper` takes 1 argument)"]
        );
        assert_eq!(found[0].source, "b.rhai");
        // An ability sees only its own functions.
        let found = check(known(), &declared(), &[&b], false);
        assert_eq!(found.len(), 1, "{:?}", said(&found));
    }

    #[test]
    fn script_functions_called_as_methods_take_this() {
        assert_clean(
            "fn bump(n) { this + n }\nfn f() { let x = 1; x.bump(2) }",
            false,
        );
        assert_one(
            "fn bump(n) { this + n }\nfn f() { let x = 1; x.bump(2, 3) }",
            false,
            FindingKind::UnknownFunction,
            "2: `bump` does not take 2 arguments (`bump` takes 1 argument)",
        );
    }

    #[test]
    fn closures_and_function_pointers_are_called_with_call() {
        assert_clean(
            "fn f(xs) {\n  let add = |x| x + 1;\n  add.call(1);\n  call(add, 2);\n  xs.map(|x| x * 2);\n  let g = Fn(\"f\");\n  g.call(xs)\n}",
            false,
        );
        // Rhai does not call a variable as a function: `f(1)` is `Function not found`.
        assert_one(
            "fn f() {\n  let add = |x| x + 1;\n  add(1)\n}",
            false,
            FindingKind::UnknownFunction,
            "3: `add` is a variable, not a function (a function kept in a variable is called with `call`: `add.call(...)`)",
        );
        assert_one(
            "fn f() { Fn(\"nothing_here\") }",
            false,
            FindingKind::UnknownFunction,
            "1: there is no function `nothing_here` (check the name: docs/api.md lists the host's functions)",
        );
    }

    #[test]
    fn eval_reached_through_a_function_pointer_is_switched_off() {
        assert_one(
            "fn f() { let e = Fn(\"eval\"); e.call(\"1\") }",
            false,
            FindingKind::UnknownFunction,
            "1: `eval` is switched off: a script may not run code from a string, however it is called (call a function by name instead; see \"The sandbox\" in docs/api.md)",
        );
    }

    #[test]
    fn a_function_kept_in_a_map_is_called_as_a_method() {
        assert_clean(
            "fn f() { let m = #{ v: 1, twice: |x| x * 2 }; m.twice(2) }",
            false,
        );
    }

    #[test]
    fn operators_and_namespaced_calls_are_not_checked() {
        assert_clean(
            "fn f(a, b) { a + b * 2 - -a }\nfn g() { m::anything(1) }",
            false,
        );
    }

    // ---- variables ------------------------------------------------------------------------------

    /// Found by a new user: `dise` for `dice` inside a hook passed `check`.
    #[test]
    fn a_misspelt_variable_is_told_with_the_one_in_scope() {
        assert_one(
            "fn defend_dice(dice, info) {\n  dise + 1\n}",
            true,
            FindingKind::UnknownVariable,
            "2: the variable `dise` is not defined (did you mean `dice`?)",
        );
    }

    /// Rhai's strict mode stops at the first; the pass tells each.
    #[test]
    fn every_undefined_variable_is_told() {
        let found = lint("fn f(a) {\n  b + 1;\n  a + c;\n  b\n}", false);
        assert_eq!(
            said(&found),
            [
                "2: the variable `b` is not defined (give it a value first: `let b = ...`)",
                "3: the variable `c` is not defined (give it a value first: `let c = ...`)",
            ]
        );
    }

    #[test]
    fn scopes_are_kept_as_rhai_keeps_them() {
        assert_clean(
            "fn f(xs) {\n  let total = 0;\n  for (x, i) in xs { total += x * i; }\n  try { throw 1; } catch (e) { total += e; }\n  { let inner = 1; total += inner; }\n  const K = 2;\n  let m = #{ k: K };\n  if total > 0 { let t = total; t } else { m.k }\n}\nfn g() { this.x }",
            false,
        );
        let found = lint(
            "fn f(xs) {\n  for x in xs { }\n  x;\n  { let inner = 1; }\n  inner;\n  try { } catch (e) { }\n  e\n}",
            false,
        );
        let names: Vec<&str> = found.iter().map(|f| &f.message[..]).collect();
        assert_eq!(
            names,
            [
                "the variable `x` is not defined",
                "the variable `inner` is not defined",
                "the variable `e` is not defined",
            ]
        );
    }

    #[test]
    fn a_function_does_not_see_the_top_level() {
        assert_one(
            "let bonus = 1;\nconst LIMIT = 2;\nfn f() { global::LIMIT }\nfn g() { bonus }",
            false,
            FindingKind::UnknownVariable,
            "4: the variable `bonus` is not defined in this function: a function sees only its parameters and its own variables, not the script's top level (pass it as a parameter, or make it a `const` at the top and read it as `global::bonus`)",
        );
        // A later script's top level sees an earlier one's.
        let a = compile("a.rhai", "let bonus = 1;");
        let b = compile("b.rhai", "let more = bonus + 1;");
        assert!(check(known(), &declared(), &[&a, &b], false).is_empty());
    }

    #[test]
    fn a_closure_captures_only_what_exists_where_it_is_written() {
        assert_one(
            "fn f() {\n  let y = 1;\n  let c = |x| x + y +\n    w;\n  c.call(1)\n}",
            false,
            FindingKind::UnknownVariable,
            "4: the variable `w` is not defined (give it a value first: `let w = ...`)",
        );
    }

    #[test]
    fn assigning_an_undefined_variable_is_told() {
        assert_one(
            "fn f() { let count = 1; cuont = 2; }",
            false,
            FindingKind::UnknownVariable,
            "1: the variable `cuont` is not defined (did you mean `count`?)",
        );
    }

    #[test]
    fn a_script_function_read_as_a_variable_is_a_pointer_to_it() {
        assert_clean("fn double(x) { x * 2 }\nfn f(xs) { xs.map(double) }", false);
    }

    // ---- properties -----------------------------------------------------------------------------

    #[test]
    fn a_property_no_host_type_has_is_told_with_the_one_meant() {
        // A unit's stats are read as properties too.
        assert_one(
            "fn f() {\n  let u = unit(\"viking_1\");\n  u.hitz + u.defend\n}",
            false,
            FindingKind::UnknownProperty,
            "3: a unit has no property or stat `hitz` (did you mean `hits`?)",
        );
        assert_one(
            "fn f() { unit(\"a\").defnd }",
            false,
            FindingKind::UnknownProperty,
            "1: a unit has no property or stat `defnd` (did you mean the stat `defend`?)",
        );
        assert_one(
            "fn f() { let u = unit(\"a\"); u.defend = 2; }",
            false,
            FindingKind::UnknownProperty,
            "1: a unit has no property `defend` to set (a stat is set with `set_stat`: `u.set_stat(\"defend\", value)`)",
        );
        assert_one(
            "fn f() { roll(\"2d6\").totl }",
            false,
            FindingKind::UnknownProperty,
            "1: a roll has no property `totl` (did you mean `total`?)",
        );
        assert_one(
            "fn f() { unit(\"a\").pos.z }",
            false,
            FindingKind::UnknownProperty,
            "1: a point has no property `z` (the properties of a point are: `x`, `y`)",
        );
        assert_one(
            "fn f() { let u = unit(\"a\"); u.troop = \"x\"; }",
            false,
            FindingKind::UnknownProperty,
            "1: the property `troop` of a unit can be read but not set (the properties of a unit that can be set are: `facing`, `hits`, `name`, `pos`, `side`, `stands`)",
        );
    }

    #[test]
    fn a_map_s_fields_are_not_properties() {
        assert_clean(
            "fn f(info) {\n  let m = #{ a: 1 };\n  m.foo;\n  info.attacker.anything;\n  unit(\"a\").stats.whatever\n}",
            false,
        );
    }

    #[test]
    fn a_variable_given_another_type_later_is_not_typed() {
        assert_clean(
            "fn f() { let u = unit(\"a\"); u = #{ hitz: 1 }; u.hitz }",
            false,
        );
    }

    // ---- hooks ----------------------------------------------------------------------------------

    #[test]
    fn a_hook_implementation_s_info_has_the_declared_fields() {
        assert_one(
            "fn defend_dice(dice, info) {\n  if info.attackr.hits > 1 { dice + 1 } else { dice }\n}",
            true,
            FindingKind::UnknownInfoField,
            "2: the hook `defend_dice` gives no `attackr` in `info` (did you mean `attacker`? its fields are: unit, attacker, cause)",
        );
        // `info.unit` is a unit, and so is a field declared one.
        assert_one(
            "fn can_die(info) { info.unit.hitz + info.attacker.hitz }",
            true,
            FindingKind::UnknownProperty,
            "1: a unit has no property or stat `hitz` (did you mean `hits`?)",
        );
        // In the rules themselves, a function named like a hook is not its implementation.
        assert_clean("fn defend_dice(dice, info) { info.anything }", false);
    }

    #[test]
    fn asking_a_hook_is_held_to_its_declaration() {
        assert_one(
            "fn f(u) { ask(\"defnd_dice\", u, 2, #{}) }",
            false,
            FindingKind::UnknownHook,
            "1: the rules ask for the hook `defnd_dice`, which the ruleset does not declare (did you mean `defend_dice`?)",
        );
        assert_one(
            "fn f(u) { ask(\"can_die\", u, true, #{}) }",
            false,
            FindingKind::WrongHookKind,
            "1: the hook `can_die` is declared as `allowed`, but the rules ask for it with `ask` (use `allowed(\"can_die\", unit, info)`)",
        );
        assert_one(
            "fn f(u, a) {\n  ask(\"defend_dice\", u, 2, #{ attacker: a,\n    cuase: \"melee\" })\n}",
            false,
            FindingKind::UnknownInfoField,
            "3: the hook `defend_dice` gives no `cuase` in `info` (did you mean `cause`? its fields are: unit, attacker, cause)",
        );
        assert_clean(
            "fn f(u, a) { allowed(\"can_die\", u, #{ attacker: a, unit: u }) }",
            false,
        );
    }

    // ---- data and stats -------------------------------------------------------------------------

    #[test]
    fn the_ruleset_s_data_has_the_keys_read() {
        assert_one(
            "fn f() { data(\"artillery\").rnage }",
            false,
            FindingKind::UnknownData,
            "1: the ruleset's data has no `artillery.rnage` (did you mean `range`?)",
        );
        assert_one(
            "fn f() {\n  let a = data(\"artillery\");\n  a.hits[\"heavy\"]\n}",
            false,
            FindingKind::UnknownData,
            "3: the ruleset's data has no `artillery.hits.heavy` (the keys under `artillery.hits` are: `light`)",
        );
        assert_one(
            "fn f() { data().melee_rech }",
            false,
            FindingKind::UnknownData,
            "1: the ruleset's data has no `melee_rech` (did you mean `melee_reach`?)",
        );
        assert_one(
            "fn f() { data(\"nothing\") }",
            false,
            FindingKind::UnknownData,
            "1: the ruleset's data has no `nothing` (the keys are: `artillery`, `melee_reach`)",
        );
        assert_clean(
            "fn f(k) { data(\"artillery\").hits.light + data(k) + data()[k] }",
            false,
        );
    }

    #[test]
    fn a_stat_named_must_be_declared() {
        assert_one(
            "fn f(u) { u.stat(\"defnd\") }",
            false,
            FindingKind::UnknownStat,
            "1: the stat `defnd` is not declared in the ruleset (did you mean `defend`?)",
        );
        assert_one(
            "fn f() { unit(\"a\")[\"atack\"] }",
            false,
            FindingKind::UnknownStat,
            "1: the stat `atack` is not declared in the ruleset (did you mean `attack`?)",
        );
        assert_one(
            "fn f(u) { u.set_stat(\"mvoe\", 1); u.has_stat(\"move\") }",
            false,
            FindingKind::UnknownStat,
            "1: the stat `mvoe` is not declared in the ruleset (did you mean `move`?)",
        );
        // A map indexed by a name is no unit.
        assert_clean(
            "fn f(m) { let x = #{}; x[\"anything\"] + m[\"other\"] }",
            false,
        );
    }

    #[test]
    fn a_private_stat_read_and_never_set_is_told() {
        assert_one(
            "fn f(u) {\n  u.set_stat(\"_charged\", true);\n  u.stat(\"_charged\") || u.stat(\"_chargd\")\n}",
            false,
            FindingKind::PrivateStatNeverSet,
            "3: the stat `_chargd` is read here, but no script sets it (did you mean `_charged`?)",
        );
        // Set by another namespace of the same pass (an ability), it is set.
        let rules = compile("rules.rhai", "fn f(u) { u.stat(\"_charged\") }");
        let ability = compile(
            "charge.rhai",
            "fn on_kill(info) { info.unit.set_stat(\"_charged\", 1) }",
        );
        let (k, d) = (known(), declared());
        let mut pass = Pass::new(k, &d);
        pass.check(&[&rules], false);
        pass.check(&[&ability], true);
        assert!(pass.finish().is_empty());
    }

    // ---- what verbs' parameters must be ----------------------------------------------------------

    /// A host with `point` registered in the documented vocabulary, as the API will be.
    fn vocabulary_known() -> Known {
        let mut e = session_engine();
        FuncRegistration::new("point")
            .with_params_info(["x: number", "y: number", "Point"])
            .register_into_engine(&mut e, |x: rhai::Dynamic, y: rhai::Dynamic| {
                let _ = (x, y);
                crate::host::geometry::Point::new(0.0, 0.0)
            });
        FuncRegistration::new("say_to")
            .with_params_info(["u: Unit", "text: string", "()"])
            .register_into_engine(&mut e, |_: api::UnitRef, _: rhai::ImmutableString| {});
        Known::of(&e)
    }

    #[test]
    fn a_verb_s_parameters_are_read_from_their_uses() {
        let k = vocabulary_known();
        let rules = compile(
            "rules.rhai",
            "/// Moves a figure.\nfn move(figure, x, y) { figure.move_to(point(x, y)) }\nfn walk(who, a, b, c) { move(who, a, b); say_to(who, c) }\nfn hidden(u) { u.hits }\nfn anything(v) { v }",
        );
        use ParamKind::*;
        assert_eq!(
            verb_params(&k, &[&rules], "move"),
            Some(vec![Unit, Number, Number])
        );
        assert_eq!(
            verb_params(&k, &[&rules], "walk"),
            Some(vec![Unit, Number, Number, Text])
        );
        assert_eq!(verb_params(&k, &[&rules], "hidden"), Some(vec![Unit]));
        assert_eq!(verb_params(&k, &[&rules], "anything"), Some(vec![Any]));
        assert_eq!(verb_params(&k, &[&rules], "nothing"), None);
        // The real API says `point` takes numbers too.
        assert_eq!(
            verb_params(known(), &[&rules], "move"),
            Some(vec![Unit, Number, Number])
        );
    }

    #[test]
    fn uses_that_disagree_give_any() {
        let k = vocabulary_known();
        let rules = compile("rules.rhai", "fn f(v) { say_to(v, \"a\"); point(v, 1) }");
        assert_eq!(verb_params(&k, &[&rules], "f"), Some(vec![ParamKind::Any]));
    }

    // Soldiers in Time's `fire GUN AT` takes a figure or the word `X,Y`, told apart with
    // `type_of`: its `at` read as a unit would refuse `fire cannon_1 12,18`.
    #[test]
    fn a_parameter_whose_type_is_asked_is_any() {
        let rules = compile(
            "rules.rhai",
            "fn _place(at) { switch type_of(at) { \"Unit\" => at.pos, _ => at } }\nfn fire(gun, at) { gun.has_tag(\"x\"); _place(at) }",
        );
        assert_eq!(
            verb_params(known(), &[&rules], "fire"),
            Some(vec![ParamKind::Unit, ParamKind::Any])
        );
    }

    // ---- run time -------------------------------------------------------------------------------

    #[test]
    fn the_variables_at_a_position_are_those_in_scope_there() {
        let ast = compile(
            "a.rhai",
            "fn f(a) {\n  let b = 1;\n  { let c = 2; }\n  zz\n}",
        );
        let names = variables_at(&ast, rhai::Position::new(4, 3));
        assert_eq!(names, Some(vec!["a".to_string(), "b".to_string()]));
    }

    // ---- the shipped rulesets -------------------------------------------------------------------

    /// A shipped ruleset compiled: its scripts, and each ability apart.
    fn shipped(id: &str) -> (crate::game::ruleset::Ruleset, Vec<AST>, Vec<AST>) {
        let project = Project::at(env!("CARGO_MANIFEST_DIR")).unwrap();
        let ruleset = crate::game::ruleset::Ruleset::load(&project, id).unwrap();
        let read = |p: &std::path::Path| {
            let name = p
                .strip_prefix(project.root())
                .unwrap()
                .display()
                .to_string();
            compile(&name, &std::fs::read_to_string(p).unwrap())
        };
        let scripts: Vec<AST> = ruleset.script_paths().iter().map(|p| read(p)).collect();
        let abilities: Vec<AST> = ruleset.abilities.values().map(|p| read(p)).collect();
        (ruleset, scripts, abilities)
    }

    /// The pass over a shipped ruleset: its scripts in one namespace, each ability in its own.
    fn lint_compiled(declared: &Declared, scripts: &[AST], abilities: &[AST]) -> Vec<Finding> {
        let mut pass = Pass::new(known(), declared);
        pass.check(&scripts.iter().collect::<Vec<_>>(), false);
        for a in abilities {
            pass.check(&[a], true);
        }
        pass.finish()
    }

    fn lint_shipped(id: &str) -> Vec<Finding> {
        let (ruleset, scripts, abilities) = shipped(id);
        lint_compiled(&Declared::of(&ruleset), &scripts, &abilities)
    }

    // The pass over the shipped rulesets, with all they declare (hooks with their kinds and
    // fields, stats, data), finds nothing wrong: a false finding there is a fault of the pass.
    #[test]
    fn the_shipped_rulesets_have_no_findings() {
        for id in ["playmobil", "soldiers_in_time"] {
            let found = lint_shipped(id);
            assert!(
                found.is_empty(),
                "{id}:\n{}",
                found
                    .iter()
                    .map(|f| f.to_string())
                    .collect::<Vec<_>>()
                    .join("\n")
            );
        }
    }
}
