//! Which script defines each function, and what the functions of an ability or a house rule
//! are, so that a function that would silently change nothing, or silently change everything,
//! is told at load.
//!
//! - A ruleset's scripts share one set of functions (they are merged, private ones included),
//!   so two of them defining one name with one number of parameters is an error naming both
//!   places ([`RulesetFunctions::add`]).
//! - A house rule's function is, by its name ([`sort_house_rule`]):
//!   - a **hook** when a hook of the ruleset has its name: then it must take the hook's
//!     parameters;
//!   - a **replacement** when a function of the ruleset has its name and parameters: allowed,
//!     and said by `check`, `:rules` and `:explain` ("replaces `melee` of `rules.rhai`");
//!   - a **verb** otherwise, unless its name is close to a hook's or a ruleset function's, or
//!     is a ruleset function's with other parameters: those are refused with a did-you-mean,
//!     unless its doc comment starts with `Verb:` (`/// Verb: roll a defender's die`), which
//!     says a new verb is meant.
//! - An ability's public functions (other than `meta`) are all hooks ([`check_ability`]);
//!   its helpers are `private fn`.

use std::collections::{BTreeMap, BTreeSet};

use rhai::{AST, FnAccess, Position};

use crate::error::Error;
use crate::game::declared::{HookDecl, HookKind};
use crate::host::suggest::did_you_mean;
use crate::script::error::Sources;

/// Where a script function is defined.
#[derive(Clone, Debug, PartialEq)]
pub struct Definition {
    /// Its name.
    pub name: String,
    /// Its parameters.
    pub params: Vec<String>,
    /// The script that defines it, as its diagnostics name it.
    pub source: String,
    /// Where its name is written.
    pub position: Position,
    /// Whether it is `private`.
    pub private: bool,
}

impl Definition {
    /// `rules.rhai, line 12`.
    pub fn place(&self) -> String {
        match self.position.line() {
            Some(line) => format!("{}, line {line}", self.source),
            None => self.source.clone(),
        }
    }

    /// `fn melee(attacker, defender)`.
    pub fn signature(&self) -> String {
        format!("fn {}({})", self.name, self.params.join(", "))
    }
}

/// The functions one script defines, with their places (closures, which Rhai names
/// `anon$...`, left out).
pub fn definitions(sources: &Sources, source: &str, ast: &AST) -> Vec<Definition> {
    let text = sources.get(source).unwrap_or_default();
    let mut defs = ast
        .iter_fn_def()
        .filter(|f| !f.name.contains('$'))
        .map(|f| Definition {
            name: f.name.to_string(),
            params: f.params.iter().map(|p| p.to_string()).collect(),
            source: source.to_string(),
            position: name_position(text, &f.name, f.body.start_position()),
            private: f.access == FnAccess::Private,
        })
        .collect::<Vec<_>>();
    // In the order they are written, so that problems are told top to bottom.
    defs.sort_by_key(|d| (d.position.line(), d.position.position()));
    defs
}

/// Where `fn NAME` is written before the body that starts at `body` (the body's own place if
/// it cannot be found).
fn name_position(text: &str, name: &str, body: Position) -> Position {
    let (Some(line), Some(col)) = (body.line(), body.position()) else {
        return body;
    };
    let end = crate::error::line_col_to_byte(text, line, col).min(text.len());
    let before = &text[..end];
    let Some(at) = before.rfind(&format!("fn {name}")).map(|i| i + 3) else {
        return body;
    };
    let line = before[..at].matches('\n').count() + 1;
    let column = before[..at]
        .rsplit('\n')
        .next()
        .map_or(0, |l| l.chars().count())
        + 1;
    match (u16::try_from(line), u16::try_from(column)) {
        (Ok(l), Ok(c)) => Position::new(l, c),
        _ => body,
    }
}

/// Whether a function's doc comment says it is a new verb: its first line starts with
/// `Verb:`.
fn says_verb(ast: &AST, name: &str, arity: usize) -> bool {
    ast.iter_functions()
        .find(|f| f.name == name && f.params.len() == arity)
        .and_then(|f| {
            f.comments
                .iter()
                .flat_map(|c| c.lines())
                .map(|l| {
                    l.trim()
                        .trim_start_matches("///")
                        .trim_start_matches("/**")
                        .trim()
                })
                .find(|l| !l.is_empty())
                .map(|l| l.to_lowercase().starts_with("verb:"))
        })
        .unwrap_or(false)
}

/// The functions of a ruleset's scripts, by name and number of parameters, each defined once.
#[derive(Clone, Debug, Default)]
pub struct RulesetFunctions {
    defined: BTreeMap<(String, usize), Definition>,
}

impl RulesetFunctions {
    /// Adds the functions of one of the ruleset's scripts, in load order. A name and number of
    /// parameters an earlier script defines is an error naming both places: the scripts share
    /// one set of functions, so the later would silently replace the earlier everywhere.
    pub fn add(
        &mut self,
        sources: &Sources,
        ruleset: &str,
        source: &str,
        ast: &AST,
    ) -> Result<(), Error> {
        let mut problems = Vec::new();
        for def in definitions(sources, source, ast) {
            let key = (def.name.clone(), def.params.len());
            if let Some(first) = self.defined.get(&key) {
                problems.push(
                    sources.diagnostic(
                        source,
                        def.position,
                        format!(
                            "`{}` is defined twice in the ruleset `{ruleset}`: in {}, and here",
                            def.signature(),
                            first.place()
                        ),
                        Some(
                            "every script of a ruleset shares one set of functions, private ones \
                         too: keep one, or rename one"
                                .into(),
                        ),
                    ),
                );
                continue;
            }
            self.defined.insert(key, def);
        }
        several(problems, source)
    }

    /// The function of this name and number of parameters.
    pub fn get(&self, name: &str, arity: usize) -> Option<&Definition> {
        self.defined.get(&(name.to_string(), arity))
    }

    /// The functions of this name, whatever their parameters.
    pub fn named<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a Definition> + 'a {
        self.defined
            .range((name.to_string(), 0)..=(name.to_string(), usize::MAX))
            .map(|(_, d)| d)
    }

    /// Every function, by name and number of parameters.
    pub fn all(&self) -> impl Iterator<Item = &Definition> {
        self.defined.values()
    }
}

/// A ruleset function a house rule replaces.
#[derive(Clone, Debug, PartialEq)]
pub struct Replacement {
    /// The house rule's function.
    pub by: Definition,
    /// The ruleset's function it replaces.
    pub of: Definition,
}

impl std::fmt::Display for Replacement {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "replaces `{}` of `{}`", self.of.name, self.of.source)
    }
}

/// What a house rule's functions are.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct HouseRuleFunctions {
    /// The hooks it answers.
    pub hooks: BTreeSet<String>,
    /// The ruleset functions it replaces.
    pub replaces: Vec<Replacement>,
    /// The verbs it adds.
    pub verbs: Vec<String>,
}

/// Sorts a house rule's functions into hooks, replacements and verbs (see the module's doc),
/// refusing a hook with the wrong parameters and a function whose name is close to a hook's
/// or a ruleset function's, or is a ruleset function's with other parameters.
pub fn sort_house_rule(
    ruleset: &RulesetFunctions,
    ruleset_name: &str,
    hooks: &BTreeMap<String, HookDecl>,
    sources: &Sources,
    source: &str,
    ast: &AST,
) -> Result<HouseRuleFunctions, Error> {
    let mut sorted = HouseRuleFunctions::default();
    let mut problems = Vec::new();
    let verb_help = |name: &str| {
        format!("If `{name}` is a new verb, start its doc comment with `/// Verb:` to say so.")
    };
    for def in definitions(sources, source, ast) {
        let arity = def.params.len();
        if let Some(hook) = hooks.get(&def.name) {
            match hook_arity_problem(&def, hook) {
                Some((message, help)) => {
                    problems.push(sources.diagnostic(source, def.position, message, Some(help)))
                }
                None => {
                    sorted.hooks.insert(def.name.clone());
                }
            }
            continue;
        }
        if let Some(of) = ruleset.get(&def.name, arity) {
            sorted.replaces.push(Replacement {
                by: def.clone(),
                of: of.clone(),
            });
            continue;
        }
        if def.private {
            continue;
        }
        if says_verb(ast, &def.name, arity) {
            sorted.verbs.push(def.name.clone());
            continue;
        }
        if let Some(other) = ruleset.named(&def.name).next() {
            problems.push(sources.diagnostic(
                source,
                def.position,
                format!(
                    "`{}` takes {}, but the ruleset's `{}` ({}) takes {}: it would replace nothing",
                    def.signature(),
                    parameters(arity),
                    other.signature(),
                    other.place(),
                    parameters(other.params.len())
                ),
                Some(format!(
                    "give it the parameters of `{}` to replace it. {}",
                    other.name,
                    verb_help(&def.name)
                )),
            ));
            continue;
        }
        if let Some(hook) = did_you_mean(&def.name, hooks.keys().map(String::as_str)) {
            problems.push(sources.diagnostic(
                source,
                def.position,
                format!(
                    "`{}` is not a hook of {ruleset_name}, so it would change nothing in play",
                    def.name
                ),
                Some(format!(
                    "did you mean the hook `{hook}` (`fn {hook}({})`)? {}",
                    hooks[hook].params().join(", "),
                    verb_help(&def.name)
                )),
            ));
            continue;
        }
        let public: Vec<&str> = ruleset
            .all()
            .filter(|d| !d.private)
            .map(|d| d.name.as_str())
            .collect();
        if let Some(close) = did_you_mean(&def.name, public.iter().copied()) {
            let of = ruleset.named(close).next().map(Definition::place);
            problems.push(sources.diagnostic(
                source,
                def.position,
                format!(
                    "`{}` is neither a hook nor a function of {ruleset_name}, so it would be a new verb",
                    def.name
                ),
                Some(format!(
                    "did you mean to replace `{close}`{}? {}",
                    of.map(|p| format!(" ({p})")).unwrap_or_default(),
                    verb_help(&def.name)
                )),
            ));
            continue;
        }
        sorted.verbs.push(def.name.clone());
    }
    several(problems, source).map(|()| sorted)
}

/// Checks an ability's functions: each public one but `meta` is a hook of the ruleset, with
/// the hook's parameters.
pub fn check_ability(
    ruleset_name: &str,
    hooks: &BTreeMap<String, HookDecl>,
    sources: &Sources,
    source: &str,
    ast: &AST,
) -> Result<(), Error> {
    let mut problems = Vec::new();
    for def in definitions(sources, source, ast) {
        if def.private || def.name == "meta" {
            continue;
        }
        match hooks.get(&def.name) {
            Some(hook) => {
                if let Some((message, help)) = hook_arity_problem(&def, hook) {
                    problems.push(sources.diagnostic(source, def.position, message, Some(help)));
                }
            }
            None => {
                let help = match did_you_mean(&def.name, hooks.keys().map(String::as_str)) {
                    Some(hook) => format!("did you mean the hook `{hook}`?"),
                    None => "an ability's public functions are the hooks it answers: make a \
                             helper `private fn`"
                        .into(),
                };
                problems.push(sources.diagnostic(
                    source,
                    def.position,
                    format!(
                        "`{}` is not a hook of {ruleset_name}, so the rules never ask it",
                        def.name
                    ),
                    Some(help),
                ));
            }
        }
    }
    several(problems, source)
}

/// Why a function named like a hook cannot answer it: its parameters are not the hook's.
fn hook_arity_problem(def: &Definition, hook: &HookDecl) -> Option<(String, String)> {
    let want = hook.kind.arity();
    (def.params.len() != want).then(|| {
        let how = match hook.kind {
            HookKind::Ask => {
                "an `ask` hook gets the value so far and `info`, and gives back the new value"
            }
            HookKind::Allowed => "an `allowed` hook gets `info` and answers true or false",
            HookKind::Notify => "a `notify` hook gets `info`",
        };
        (
            format!(
                "the hook `{}` takes {}, but this `{}` takes {}",
                def.name,
                parameters(want),
                def.signature(),
                def.params.len()
            ),
            format!(
                "write `fn {}({})`: {how}",
                def.name,
                hook.params().join(", ")
            ),
        )
    })
}

/// `1 parameter`, `2 parameters`.
fn parameters(n: usize) -> String {
    format!("{n} parameter{}", if n == 1 { "" } else { "s" })
}

/// No problem, one, or several at once.
fn several(mut problems: Vec<Error>, source: &str) -> Result<(), Error> {
    match problems.len() {
        0 => Ok(()),
        1 => Err(problems.remove(0)),
        n => Err(Error::Several {
            message: format!("{n} problems in {source}"),
            problems,
        }),
    }
}
