//! The walk over a script's syntax tree: scopes as Rhai keeps them, light type inference, and
//! every check of the pass (see the parent module's doc).
//!
//! Rhai exports its statements and expressions under `internals`, but not the type that
//! holds a function's body; a body is reached through [`AST::walk`] over an AST holding that
//! one function, whose top statements are the body's. (`AST::clone_functions_only_filtered`
//! cannot make that AST: in rhai 1.27 its filter is skipped when the new module is empty, so
//! it keeps every function.)

use std::collections::{BTreeMap, BTreeSet};

use rhai::{
    AST, ASTFlags, ASTNode, Dynamic, Expr, FnCallExpr, ImmutableString, Position, ScriptFuncDef,
    Shared, Stmt, StmtBlock,
};

use super::known::{Known, Ty, arities_in_words, closest};
use super::{Declared, Finding, FindingKind, HookKind, HookShape};

/// What the walk knows of a value.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Inf {
    /// Nothing.
    Unknown,
    /// Its type.
    Ty(Ty),
    /// The ruleset's data, at this path of keys (`data("siege").wall`: `["siege", "wall"]`).
    Data(Vec<String>),
    /// The `info` map a hook implementation is given, by the hook's name.
    Info(String),
}

impl Inf {
    fn ty(&self) -> Ty {
        match self {
            Inf::Ty(t) => t.clone(),
            _ => Ty::Any,
        }
    }
}

/// A variable in scope.
#[derive(Clone, Debug)]
struct Var {
    name: ImmutableString,
    inf: Inf,
    /// Which parameter of the function walked it is, if it is one.
    param: Option<usize>,
}

/// The scripts seen together: their functions, and the map keys that hold functions (called
/// as methods, `m.key(..)`).
pub(super) struct Namespace<'s> {
    scripts: Vec<&'s AST>,
    /// Script functions by name, with their arities.
    pub functions: BTreeMap<String, BTreeSet<usize>>,
    /// Map keys that hold a function somewhere in the scripts, gathered when first needed
    /// (only a method call nothing else answers needs them).
    map_methods: std::cell::OnceCell<BTreeSet<String>>,
}

impl<'s> Namespace<'s> {
    pub fn of(scripts: &[&'s AST]) -> Namespace<'s> {
        let mut functions: BTreeMap<String, BTreeSet<usize>> = BTreeMap::new();
        for ast in scripts {
            for f in ast.iter_functions() {
                functions
                    .entry(f.name.to_string())
                    .or_default()
                    .insert(f.params.len());
            }
        }
        Namespace {
            scripts: scripts.to_vec(),
            functions,
            map_methods: Default::default(),
        }
    }

    fn has(&self, name: &str, arity: usize) -> bool {
        self.functions.get(name).is_some_and(|a| a.contains(&arity))
    }

    /// Whether a map in the scripts has a key `name` holding a function.
    fn is_map_method(&self, name: &str) -> bool {
        self.map_methods
            .get_or_init(|| {
                let mut keys = BTreeSet::new();
                for ast in &self.scripts {
                    ast.walk(&mut |path: &[ASTNode]| {
                        if let Some(ASTNode::Expr(Expr::Map(m, _))) = path.last() {
                            for (key, value) in &m.0 {
                                if holds_function(value) {
                                    keys.insert(key.name.to_string());
                                }
                            }
                        }
                        true
                    });
                }
                keys
            })
            .contains(name)
    }
}

/// Whether an expression may give a function (a closure, `Fn(..)`, a variable).
fn holds_function(e: &Expr) -> bool {
    match e {
        Expr::DynamicConstant(d, _) => d.is_fnptr(),
        Expr::Stmt(_) | Expr::Variable(..) => true,
        Expr::FnCall(c, _) => c.name == "Fn" || c.name == "curry",
        _ => false,
    }
}

/// The body of a script function, reached through [`AST::walk`] (see the module doc): `each`
/// is given each of its top statements in order.
pub(super) fn each_body_statement(def: &Shared<ScriptFuncDef>, each: &mut dyn FnMut(&Stmt)) {
    let mut lib = rhai::Module::new();
    lib.set_script_fn(def.clone());
    let one = AST::new(std::iter::empty(), lib);
    one.walk(&mut |path: &[ASTNode]| {
        if let [ASTNode::Stmt(s)] = path {
            each(s);
        }
        true
    });
}

/// The uses of a function's parameters that say what they must be.
#[derive(Clone, Debug, Default)]
pub(super) struct Uses {
    /// For each parameter, the types its direct uses expect.
    pub expected: Vec<Vec<Ty>>,
    /// For each parameter, the script functions it is passed to: (name, arity, position).
    pub passed: Vec<Vec<(String, usize, usize)>>,
    /// The parameters whose type the function asks (`type_of(p)`): they may be of several.
    pub asked: BTreeSet<usize>,
}

/// One walk over scripts of one namespace.
pub(super) struct Walker<'a> {
    known: &'a Known,
    declared: &'a Declared,
    space: &'a Namespace<'a>,
    /// The source of the script walked.
    source: String,
    vars: Vec<Var>,
    frames: Vec<usize>,
    /// Inside a function (else at a script's top level).
    in_function: bool,
    /// The top levels' variables, kept from script to script.
    top: Vec<Var>,
    /// What was said already in this function (one finding a name).
    said: BTreeSet<String>,
    pub findings: Vec<Finding>,
    /// The uses of the parameters of the function walked, when asked for.
    pub uses: Option<Uses>,
    /// A position whose variables in scope are wanted, and what they were there.
    pub probe: Option<(Position, Option<Vec<String>>)>,
    /// The scripts' own stats (`_name`) named in the scripts, each read or set.
    pub private: Vec<StatUse>,
    /// Whether a stat is set by a name the script computes (`u.set_stat(name, v)`).
    pub computed_writes: bool,
}

/// A private stat named in a script.
#[derive(Clone, Debug)]
pub(super) struct StatUse {
    pub name: String,
    pub set: bool,
    pub source: String,
    pub position: Position,
}

/// How a chain goes on: `.` or `[ ]`.
#[derive(Clone, Copy, PartialEq)]
enum Via {
    Dot,
    Index,
}

impl<'a> Walker<'a> {
    pub fn new(known: &'a Known, declared: &'a Declared, space: &'a Namespace<'a>) -> Walker<'a> {
        Walker {
            known,
            declared,
            space,
            source: String::new(),
            vars: Vec::new(),
            frames: Vec::new(),
            in_function: false,
            top: Vec::new(),
            said: BTreeSet::new(),
            findings: Vec::new(),
            uses: None,
            probe: None,
            private: Vec::new(),
            computed_writes: false,
        }
    }

    /// Walks a script's top level, its variables staying for the next script's.
    pub fn top_level(&mut self, ast: &AST) {
        self.source = ast.source().unwrap_or_default().to_string();
        self.in_function = false;
        self.vars = std::mem::take(&mut self.top);
        self.frames.clear();
        self.said.clear();
        for s in ast.statements() {
            self.stmt(s);
        }
        self.top = std::mem::take(&mut self.vars);
    }

    /// Walks one function of a script; `hook` is the hook it implements, if it does.
    pub fn function(&mut self, ast: &AST, def: &Shared<ScriptFuncDef>, hook: Option<&str>) {
        self.source = ast.source().unwrap_or_default().to_string();
        self.in_function = true;
        self.frames.clear();
        self.said.clear();
        let info_at = hook.and_then(|h| {
            let shape = self.declared.hooks.get(h)?;
            info_param(shape, def.params.len())
        });
        self.vars = def
            .params
            .iter()
            .enumerate()
            .map(|(i, p)| Var {
                name: p.clone(),
                inf: match (info_at, hook) {
                    (Some(at), Some(h)) if at == i => Inf::Info(h.to_string()),
                    _ => Inf::Unknown,
                },
                param: Some(i),
            })
            .collect();
        if let Some(uses) = &mut self.uses {
            uses.expected = vec![Vec::new(); def.params.len()];
            uses.passed = vec![Vec::new(); def.params.len()];
            uses.asked.clear();
        }
        each_body_statement(def, &mut |s| self.stmt(s));
    }

    // ---- scopes -------------------------------------------------------------------------

    fn push(&mut self) {
        self.frames.push(self.vars.len());
    }

    fn pop(&mut self) {
        if let Some(n) = self.frames.pop() {
            self.vars.truncate(n);
        }
    }

    fn declare(&mut self, name: &ImmutableString, inf: Inf) {
        self.vars.push(Var {
            name: name.clone(),
            inf,
            param: None,
        });
    }

    fn lookup(&self, name: &str) -> Option<&Var> {
        self.vars.iter().rev().find(|v| v.name == name)
    }

    fn block(&mut self, block: &StmtBlock) {
        self.push();
        for s in block.statements() {
            self.stmt(s);
        }
        self.pop();
    }

    fn say(&mut self, kind: FindingKind, pos: Position, message: String, help: Option<String>) {
        if !self.said.insert(message.clone()) {
            return;
        }
        self.findings.push(Finding {
            kind,
            source: self.source.clone(),
            position: pos,
            message,
            help,
        });
    }

    // ---- statements ---------------------------------------------------------------------

    fn stmt(&mut self, s: &Stmt) {
        match s {
            Stmt::Noop(_) | Stmt::Export(..) | Stmt::Share(_) => {}
            Stmt::If(x, _) => {
                self.expr(&x.expr);
                self.block(&x.body);
                self.block(&x.branch);
            }
            Stmt::Switch(x, _) => {
                self.expr(&x.0);
                for case in &x.1.expressions {
                    self.expr(&case.lhs);
                    self.push();
                    self.expr(&case.rhs);
                    self.pop();
                }
            }
            Stmt::While(x, _) => {
                self.expr(&x.expr);
                self.block(&x.body);
            }
            Stmt::Do(x, ..) => {
                self.block(&x.body);
                self.expr(&x.expr);
            }
            Stmt::For(x, _) => {
                let (var, counter, flow) = &**x;
                self.expr(&flow.expr);
                self.push();
                self.declare(&var.name, Inf::Unknown);
                if let Some(c) = counter {
                    self.declare(&c.name, Inf::Ty(Ty::Int));
                }
                for s in flow.body.statements() {
                    self.stmt(s);
                }
                self.pop();
            }
            Stmt::Var(x, ..) => {
                let inf = self.expr(&x.1);
                self.declare(&x.0.name, inf);
            }
            Stmt::Assignment(x) => {
                let (_, bin) = &**x;
                let inf = self.expr(&bin.rhs);
                self.assign(&bin.lhs, inf);
            }
            Stmt::FnCall(call, pos) => {
                self.call(call, *pos, None);
            }
            Stmt::Block(b) => self.block(b),
            Stmt::TryCatch(x, _) => {
                self.block(&x.body);
                self.push();
                if let Expr::Variable(v, ..) = &x.expr {
                    self.declare(&v.1, Inf::Unknown);
                }
                for s in x.branch.statements() {
                    self.stmt(s);
                }
                self.pop();
            }
            Stmt::Expr(e) => {
                self.expr(e);
            }
            Stmt::BreakLoop(e, ..) | Stmt::Return(e, ..) => {
                if let Some(e) = e {
                    self.expr(e);
                }
            }
            Stmt::Import(x, _) => {
                self.expr(&x.0);
            }
            _ => {}
        }
    }

    /// `lhs = value`: a variable must exist to be assigned; a chain is walked as one that
    /// sets its last step.
    fn assign(&mut self, lhs: &Expr, value: Inf) {
        match lhs {
            Expr::Variable(v, _, pos) if v.2.is_empty() => {
                let name = v.1.as_str();
                if let Some(i) = self.vars.iter().rposition(|var| var.name == name) {
                    if self.vars[i].inf != value {
                        self.vars[i].inf = Inf::Unknown;
                    }
                } else {
                    self.undefined(name, *pos);
                }
            }
            Expr::Dot(x, flags, _) => {
                let root = self.expr(&x.lhs);
                let brk = flags.intersects(ASTFlags::BREAK);
                self.chain_from(root, Some(&x.lhs), &x.rhs, Via::Dot, brk, true);
            }
            Expr::Index(x, flags, _) => {
                let root = self.expr(&x.lhs);
                self.chain(
                    root,
                    &x.rhs,
                    Via::Index,
                    flags.intersects(ASTFlags::BREAK),
                    true,
                );
            }
            other => {
                self.expr(other);
            }
        }
    }

    // ---- expressions --------------------------------------------------------------------

    fn expr(&mut self, e: &Expr) -> Inf {
        match e {
            Expr::DynamicConstant(d, _) => Inf::Ty(type_of_constant(d)),
            Expr::BoolConstant(..) => Inf::Ty(Ty::Bool),
            Expr::IntegerConstant(..) => Inf::Ty(Ty::Int),
            Expr::FloatConstant(..) => Inf::Ty(Ty::Float),
            Expr::CharConstant(..) => Inf::Ty(Ty::Char),
            Expr::StringConstant(..) => Inf::Ty(Ty::Str),
            Expr::Unit(_) => Inf::Ty(Ty::Nothing),
            Expr::InterpolatedString(parts, _) => {
                for p in parts {
                    self.expr(p);
                }
                Inf::Ty(Ty::Str)
            }
            Expr::Array(items, _) => {
                for i in items {
                    self.expr(i);
                }
                Inf::Ty(Ty::Array)
            }
            Expr::Map(m, _) => {
                for (_, v) in &m.0 {
                    self.expr(v);
                }
                Inf::Ty(Ty::Map)
            }
            Expr::Variable(v, _, pos) => {
                if !v.2.is_empty() {
                    // `m::x`, `global::X`: namespaced, not checked.
                    return Inf::Unknown;
                }
                self.variable(&v.1, *pos)
            }
            Expr::ThisPtr(_) => Inf::Unknown,
            Expr::Property(..) => Inf::Unknown,
            Expr::MethodCall(call, pos) => self.call(call, *pos, Some((Inf::Unknown, None))),
            Expr::Stmt(block) => {
                // A closure that captures variables: `{ Share(..); curry(Fn, ..) }`.
                let closure = matches!(block.statements().first(), Some(Stmt::Share(_)));
                self.block(block);
                if closure {
                    Inf::Ty(Ty::Fn)
                } else {
                    Inf::Unknown
                }
            }
            Expr::FnCall(call, pos) => self.call(call, *pos, None),
            Expr::Dot(x, flags, _) => {
                let root = self.expr(&x.lhs);
                let brk = flags.intersects(ASTFlags::BREAK);
                self.chain_from(root, Some(&x.lhs), &x.rhs, Via::Dot, brk, false)
            }
            Expr::Index(x, flags, _) => {
                let root = self.expr(&x.lhs);
                self.chain(
                    root,
                    &x.rhs,
                    Via::Index,
                    flags.intersects(ASTFlags::BREAK),
                    false,
                )
            }
            Expr::And(x, _) | Expr::Or(x, _) => {
                for e in x.iter() {
                    self.expr(e);
                }
                Inf::Ty(Ty::Bool)
            }
            Expr::Coalesce(x, _) => {
                for e in x.iter() {
                    self.expr(e);
                }
                Inf::Unknown
            }
            _ => Inf::Unknown,
        }
    }

    /// A variable read.
    fn variable(&mut self, name: &str, pos: Position) -> Inf {
        if let Some((at, names)) = &mut self.probe
            && *at == pos
            && names.is_none()
        {
            *names = Some(self.vars.iter().map(|v| v.name.to_string()).collect());
        }
        if let Some(v) = self.lookup(name) {
            return v.inf.clone();
        }
        // A script function's name read as a variable is a pointer to it.
        if self.space.functions.contains_key(name) {
            return Inf::Ty(Ty::Fn);
        }
        self.undefined(name, pos);
        Inf::Unknown
    }

    fn undefined(&mut self, name: &str, pos: Position) {
        let near =
            crate::host::suggest::did_you_mean(name, self.vars.iter().map(|v| v.name.as_str()));
        let on_top = self.in_function && self.top.iter().any(|v| v.name == name);
        let (message, help) = if on_top {
            (
                format!(
                    "the variable `{name}` is not defined in this function: a function sees only its parameters and its own variables, not the script's top level"
                ),
                Some(format!(
                    "pass it as a parameter, or make it a `const` at the top and read it as `global::{name}`"
                )),
            )
        } else {
            (
                format!("the variable `{name}` is not defined"),
                Some(match near {
                    Some(n) => format!("did you mean `{n}`?"),
                    None => format!("give it a value first: `let {name} = ...`"),
                }),
            )
        };
        self.say(FindingKind::UnknownVariable, pos, message, help);
    }

    /// A chain after its root: `root.rest` (`via` Dot) or `root[rest]` (`via` Index); `brk`
    /// when the chain ends at `rest`, `setting` when it is the left of an assignment.
    fn chain(&mut self, t: Inf, e: &Expr, via: Via, brk: bool, setting: bool) -> Inf {
        self.chain_from(t, None, e, via, brk, setting)
    }

    /// As [`Walker::chain`], `root` being the expression `t` is of when this is the chain's
    /// first step.
    fn chain_from(
        &mut self,
        t: Inf,
        root: Option<&Expr>,
        e: &Expr,
        via: Via,
        brk: bool,
        setting: bool,
    ) -> Inf {
        match via {
            Via::Dot => match e {
                Expr::Property(p, pos) => {
                    if let Some(r) = root {
                        self.property_on_param(r, &p.2);
                    }
                    self.property(&t, &p.2, *pos, setting)
                }
                Expr::MethodCall(call, pos) => self.call(call, *pos, Some((t, root))),
                Expr::Dot(x, flags, _) => {
                    let next = self.chain_from(t, root, &x.lhs, Via::Dot, true, false);
                    self.chain(
                        next,
                        &x.rhs,
                        Via::Dot,
                        flags.intersects(ASTFlags::BREAK),
                        setting,
                    )
                }
                Expr::Index(x, flags, _) => {
                    let next = self.chain_from(t, root, &x.lhs, Via::Dot, true, false);
                    self.chain(
                        next,
                        &x.rhs,
                        Via::Index,
                        flags.intersects(ASTFlags::BREAK),
                        setting,
                    )
                }
                other => {
                    self.expr(other);
                    Inf::Unknown
                }
            },
            Via::Index if brk => self.index(&t, e, setting),
            Via::Index => match e {
                Expr::Dot(x, flags, _) => {
                    let next = self.index(&t, &x.lhs, false);
                    self.chain(
                        next,
                        &x.rhs,
                        Via::Dot,
                        flags.intersects(ASTFlags::BREAK),
                        setting,
                    )
                }
                Expr::Index(x, flags, _) => {
                    let next = self.index(&t, &x.lhs, false);
                    self.chain(
                        next,
                        &x.rhs,
                        Via::Index,
                        flags.intersects(ASTFlags::BREAK),
                        setting,
                    )
                }
                other => self.index(&t, other, setting),
            },
        }
    }

    /// `t.name`.
    fn property(&mut self, t: &Inf, name: &str, pos: Position, setting: bool) -> Inf {
        match t {
            Inf::Info(hook) => self.info_field(hook, name, pos, setting),
            Inf::Data(path) => self.data_key(path, name, pos, setting),
            Inf::Ty(ty) if self.known.is_host(ty) => match self.known.property(ty, name) {
                Some(p) if setting && !p.set => {
                    self.say(
                        FindingKind::UnknownProperty,
                        pos,
                        format!(
                            "the property `{name}` of {} can be read but not set",
                            ty.in_words()
                        ),
                        Some(format!(
                            "the properties of {} that can be set are: {}",
                            ty.in_words(),
                            self.settable(ty).join(", ")
                        )),
                    );
                    Inf::Unknown
                }
                Some(p) => Inf::Ty(p.ty.clone()),
                // A unit's stat is read as a property too (`u.defend`), through its indexer.
                None if self.known.indexed_by_name(ty) => {
                    self.stat_as_property(ty, name, pos, setting);
                    Inf::Unknown
                }
                None => {
                    let (message, help) = unknown_property(self.known, ty, name);
                    self.say(FindingKind::UnknownProperty, pos, message, help);
                    Inf::Unknown
                }
            },
            Inf::Ty(ty) => self
                .known
                .property(ty, name)
                .map_or(Inf::Unknown, |p| Inf::Ty(p.ty.clone())),
            Inf::Unknown => Inf::Unknown,
        }
    }

    /// `u.name` on a type whose indexer reads its stats: a stat, if it is no property.
    fn stat_as_property(&mut self, ty: &Ty, name: &str, pos: Position, setting: bool) {
        if setting {
            self.say(
                FindingKind::UnknownProperty,
                pos,
                format!("{} has no property `{name}` to set", ty.in_words()),
                Some(format!(
                    "a stat is set with `set_stat`: `u.set_stat(\"{name}\", value)`"
                )),
            );
            return;
        }
        let stats = &self.declared.stats;
        if name.starts_with('_') || stats.is_empty() || stats.contains(name) {
            self.stat(name, pos, false);
            return;
        }
        self.say(
            FindingKind::UnknownProperty,
            pos,
            format!("{} has no property or stat `{name}`", ty.in_words()),
            unit_name_help(self.known, ty, stats.iter().map(String::as_str), name),
        );
    }

    fn settable(&self, ty: &Ty) -> Vec<String> {
        self.known
            .properties_of(ty)
            .into_iter()
            .filter(|p| self.known.property(ty, p).is_some_and(|p| p.set))
            .map(|p| format!("`{p}`"))
            .collect()
    }

    /// `t[e]`.
    fn index(&mut self, t: &Inf, e: &Expr, setting: bool) -> Inf {
        self.expr(e);
        let key = match e {
            Expr::StringConstant(s, _) => Some(s.as_str()),
            _ => None,
        };
        match (t, key) {
            (Inf::Info(hook), Some(k)) => self.info_field(hook, k, e.position(), setting),
            (Inf::Data(path), Some(k)) => self.data_key(path, k, e.position(), setting),
            (Inf::Ty(ty), Some(k)) if self.known.indexed_by_name(ty) && ty == &unit_ty() => {
                if setting {
                    self.say(
                        FindingKind::UnknownStat,
                        e.position(),
                        format!("a stat of {} cannot be set with `[]`", ty.in_words()),
                        Some(format!("set it with `u.set_stat(\"{k}\", value)`")),
                    );
                } else {
                    self.stat(k, e.position(), false);
                }
                Inf::Unknown
            }
            _ => Inf::Unknown,
        }
    }

    /// `info.name` in a hook implementation.
    fn info_field(&mut self, hook: &str, name: &str, pos: Position, setting: bool) -> Inf {
        if name == "unit" {
            return Inf::Ty(unit_ty());
        }
        let Some(fields) = self
            .declared
            .hooks
            .get(hook)
            .and_then(|h| h.fields.as_ref())
        else {
            return Inf::Unknown;
        };
        if let Some(t) = fields.get(name) {
            return Inf::Ty(t.clone());
        }
        if !setting {
            let (message, help) = unknown_field(hook, name, fields);
            self.say(FindingKind::UnknownInfoField, pos, message, help);
        }
        Inf::Unknown
    }

    /// `key` of the ruleset's data at `path`.
    fn data_key(&mut self, path: &[String], key: &str, pos: Position, setting: bool) -> Inf {
        let Some(serde_json::Value::Object(here)) = data_at(&self.declared.data, path) else {
            return Inf::Unknown;
        };
        let mut longer = path.to_vec();
        longer.push(key.to_string());
        if here.contains_key(key) {
            return Inf::Data(longer);
        }
        if !setting {
            let near = crate::host::suggest::did_you_mean(key, here.keys().map(String::as_str));
            let within = if path.is_empty() {
                String::new()
            } else {
                format!(" under `{}`", path.join("."))
            };
            self.say(
                FindingKind::UnknownData,
                pos,
                format!("the ruleset's data has no `{}`", longer.join(".")),
                Some(match near {
                    Some(n) => format!("did you mean `{n}`?"),
                    None => format!(
                        "the keys{within} are: {}",
                        here.keys()
                            .map(|k| format!("`{k}`"))
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                }),
            );
        }
        Inf::Unknown
    }

    /// A stat named in the script: it must be declared, unless it is the scripts' own.
    fn stat(&mut self, name: &str, pos: Position, set: bool) {
        if name.starts_with('_') {
            self.private.push(StatUse {
                name: name.to_string(),
                set,
                source: self.source.clone(),
                position: pos,
            });
        }
        let stats = &self.declared.stats;
        if stats.is_empty() || name.starts_with('_') || stats.contains(name) {
            return;
        }
        let near = crate::host::suggest::did_you_mean(name, stats.iter().map(String::as_str));
        self.say(
            FindingKind::UnknownStat,
            pos,
            format!("the stat `{name}` is not declared in the ruleset"),
            Some(match near {
                Some(n) => format!("did you mean `{n}`?"),
                None => "declare it under `stats:` in ruleset.yaml, or name it with a leading `_` if it is the scripts' own note".into(),
            }),
        );
    }

    // ---- calls --------------------------------------------------------------------------

    /// A call `f(args)`, or a method call `object.f(args)` when `object` is given (what is
    /// known of it, and its expression when it is a plain variable).
    fn call(
        &mut self,
        call: &FnCallExpr,
        pos: Position,
        object: Option<(Inf, Option<&Expr>)>,
    ) -> Inf {
        let args: Vec<Inf> = call.args.iter().map(|a| self.expr(a)).collect();
        let name = call.name.as_str();
        if call.is_qualified()
            || call.is_operator_call()
            || !name.starts_with(|c: char| c.is_alphabetic() || c == '_')
        {
            return Inf::Unknown;
        }
        let n = args.len();
        let method = object.is_some();
        let object_expr = object.as_ref().and_then(|(_, e)| *e);
        let object_inf = object.map(|(o, _)| o);
        let script = self.space.has(name, n);
        let host_arity = n + usize::from(method);
        let host = self.known.has(name, host_arity);
        // The object and the arguments as the host function takes them.
        let mut all: Vec<Inf> = Vec::with_capacity(host_arity);
        all.extend(object_inf.clone());
        all.extend(args.iter().cloned());
        let mut exprs: Vec<Option<&Expr>> = Vec::with_capacity(host_arity);
        if method {
            exprs.push(None);
        }
        exprs.extend(call.args.iter().map(Some));

        if script {
            self.track_script_call(name, n, &call.args);
            return Inf::Unknown;
        }
        if !host {
            if method
                && self.space.is_map_method(name)
                && !matches!(&object_inf, Some(Inf::Ty(t)) if self.known.is_host(t))
            {
                return Inf::Unknown;
            }
            self.unknown_call(name, Some(n), method, object_inf.as_ref(), pos);
            return Inf::Unknown;
        }
        if let Some(Inf::Ty(on)) = &object_inf
            && self.known.is_host(on)
            && self.known.methods(on, name, n).next().is_none()
            && !self.known.signatures(name).is_empty()
        {
            let (message, help) = no_method(self.known, on, name, n);
            self.say(FindingKind::UnknownFunction, pos, message, help);
            return Inf::Unknown;
        }
        if name == "type_of" && self.uses.is_some() {
            let asked = object_expr
                .or(call.args.first())
                .and_then(|e| self.param_of(e));
            if let (Some(p), Some(uses)) = (asked, &mut self.uses) {
                uses.asked.insert(p);
            }
        }
        self.track_host_call(name, &all, &call.args, method);
        if let Some(p) = object_expr.and_then(|o| self.param_of(o))
            && self.uses.is_some()
            && let Some(t) = self.agreed(name, host_arity, 0)
        {
            self.expect(p, t);
        }
        self.domain(name, &all, &exprs, pos);
        match name {
            "Fn" => {
                if let Some(Expr::StringConstant(f, p)) = call.args.first()
                    && !self.space.functions.contains_key(f.as_str())
                    && !self.known.has_name(f)
                {
                    self.unknown_call(f, None, false, None, *p);
                }
                return Inf::Ty(Ty::Fn);
            }
            "curry" => return Inf::Ty(Ty::Fn),
            "type_of" => return Inf::Ty(Ty::Str),
            "is_def_var" | "is_def_fn" | "is_shared" => return Inf::Ty(Ty::Bool),
            "data" => {
                return match call.args.first() {
                    None => Inf::Data(Vec::new()),
                    Some(Expr::StringConstant(k, p)) => self.data_key(&[], k, *p, false),
                    Some(_) => Inf::Unknown,
                };
            }
            _ => {}
        }
        self.result_of(name, &all)
    }

    /// What a host function gives for these arguments, when its signatures agree.
    fn result_of(&self, name: &str, args: &[Inf]) -> Inf {
        let mut rets = self
            .known
            .signatures(name)
            .iter()
            .filter(|s| {
                s.params.len() == args.len()
                    && s.params.iter().zip(args).all(|(p, a)| a.ty().fits(p))
            })
            .map(|s| &s.ret);
        match rets.next() {
            Some(first) if rets.all(|r| r == first) && *first != Ty::Any => Inf::Ty(first.clone()),
            _ => Inf::Unknown,
        }
    }

    /// A call nothing answers.
    /// `n`: the number of arguments given (besides a method's object), if it counts.
    fn unknown_call(
        &mut self,
        name: &str,
        n: Option<usize>,
        method: bool,
        on: Option<&Inf>,
        pos: Position,
    ) {
        if let Some(Inf::Ty(t)) = on
            && self.known.is_host(t)
        {
            let (message, help) = no_method(self.known, t, name, n.unwrap_or(0));
            self.say(FindingKind::UnknownFunction, pos, message, help);
            return;
        }
        // A variable holding a function is called with `.call`.
        if !method && self.lookup(name).is_some() {
            self.say(
                FindingKind::UnknownFunction,
                pos,
                format!("`{name}` is a variable, not a function"),
                Some(format!(
                    "a function kept in a variable is called with `call`: `{name}.call(...)`"
                )),
            );
            return;
        }
        if name == "eval" {
            self.say(
                FindingKind::UnknownFunction,
                pos,
                "`eval` is switched off: a script may not run code from a string, however it is called".into(),
                Some("call a function by name instead; see \"The sandbox\" in docs/api.md".into()),
            );
            return;
        }
        let arity = n.map(|n| n + usize::from(method));
        let (message, help) =
            function_in_words(self.known, &self.space.functions, name, arity, method);
        self.say(FindingKind::UnknownFunction, pos, message, help);
    }

    /// The checks that know the host API's meaning: stats, hooks.
    fn domain(&mut self, name: &str, all: &[Inf], exprs: &[Option<&Expr>], pos: Position) {
        let literal = |i: usize| match exprs.get(i).copied().flatten() {
            Some(Expr::StringConstant(s, p)) => Some((s.to_string(), *p)),
            _ => None,
        };
        match (name, all.len()) {
            ("stat" | "has_stat", 2) | ("set_stat", 3) => {
                if !all[0].ty().fits(&unit_ty()) {
                    return;
                }
                match literal(1) {
                    Some((stat, p)) => self.stat(&stat, p, name == "set_stat"),
                    None if name == "set_stat" => self.computed_writes = true,
                    None => {}
                }
            }
            ("units_without", 3) => {
                if let Some((stat, p)) = literal(1) {
                    self.stat(&stat, p, false);
                }
            }
            ("ask", 4) | ("allowed", 3) | ("notify", 3) => {
                let Some((hook, p)) = literal(0) else {
                    return;
                };
                let kind = match name {
                    "ask" => HookKind::Ask,
                    "allowed" => HookKind::Allowed,
                    _ => HookKind::Notify,
                };
                let info = exprs.get(all.len() - 1).copied().flatten();
                let _ = pos;
                self.hook_call(&hook, kind, info, p);
            }
            _ => {}
        }
    }

    /// `ask`, `allowed` or `notify` of a hook named in the script.
    fn hook_call(&mut self, hook: &str, kind: HookKind, info: Option<&Expr>, pos: Position) {
        let hooks = &self.declared.hooks;
        if hooks.is_empty() {
            return;
        }
        let Some(shape) = hooks.get(hook) else {
            let near = crate::host::suggest::did_you_mean(hook, hooks.keys().map(String::as_str));
            self.say(
                FindingKind::UnknownHook,
                pos,
                format!(
                    "the rules {} the hook `{hook}`, which the ruleset does not declare",
                    super::verb_of(kind)
                ),
                Some(match near {
                    Some(n) => format!("did you mean `{n}`?"),
                    None => "declare it under `hooks:` in ruleset.yaml".into(),
                }),
            );
            return;
        };
        if let Some(declared) = shape.kind
            && declared != kind
        {
            self.say(
                FindingKind::WrongHookKind,
                pos,
                format!(
                    "the hook `{hook}` is declared as `{}`, but the rules {} it with `{}`",
                    declared.asked_with(),
                    super::verb_of(kind),
                    kind.asked_with()
                ),
                Some(format!("use `{}`", super::call_of(declared, hook))),
            );
        }
        if let (Some(Expr::Map(m, _)), Some(fields)) = (info, &shape.fields) {
            for (key, _) in &m.0 {
                let k = key.name.as_str();
                if k != "unit" && !fields.contains_key(k) {
                    let (message, help) = unknown_field(hook, k, fields);
                    self.say(FindingKind::UnknownInfoField, key.pos, message, help);
                }
            }
        }
    }

    // ---- what parameters must be --------------------------------------------------------

    /// The parameter a plain variable expression is, if it is one.
    fn param_of(&self, e: &Expr) -> Option<usize> {
        match e {
            Expr::Variable(v, _, _) if v.2.is_empty() => self.lookup(&v.1).and_then(|v| v.param),
            _ => None,
        }
    }

    fn expect(&mut self, param: usize, ty: Ty) {
        if let Some(uses) = &mut self.uses
            && let Some(e) = uses.expected.get_mut(param)
        {
            e.push(ty);
        }
    }

    fn track_script_call(&mut self, name: &str, n: usize, args: &[Expr]) {
        if self.uses.is_none() {
            return;
        }
        for (i, a) in args.iter().enumerate() {
            if let Some(p) = self.param_of(a)
                && let Some(uses) = &mut self.uses
            {
                uses.passed[p].push((name.to_string(), n, i));
            }
        }
    }

    fn track_host_call(&mut self, name: &str, all: &[Inf], args: &[Expr], method: bool) {
        if self.uses.is_none() {
            return;
        }
        let offset = usize::from(method);
        for (i, a) in args.iter().enumerate() {
            if let Some(p) = self.param_of(a)
                && let Some(t) = self.agreed(name, all.len(), i + offset)
            {
                self.expect(p, t);
            }
        }
    }

    /// The type every signature of `name` with `arity` parameters gives its parameter `at`,
    /// if they agree and it says something.
    fn agreed(&self, name: &str, arity: usize, at: usize) -> Option<Ty> {
        let mut types = self
            .known
            .signatures(name)
            .iter()
            .filter(|s| s.params.len() == arity)
            .map(|s| &s.params[at]);
        let first = types.next()?.clone();
        let numeric = |t: &Ty| matches!(t, Ty::Int | Ty::Float | Ty::Number);
        let mut agreed = first;
        for t in types {
            if *t == agreed {
                continue;
            }
            if numeric(t) && numeric(&agreed) {
                agreed = Ty::Number;
            } else {
                return None;
            }
        }
        (agreed != Ty::Any).then_some(agreed)
    }

    /// A property read on a parameter says its type when only one host type has it.
    fn property_on_param(&mut self, object: &Expr, name: &str) {
        if self.uses.is_none() {
            return;
        }
        if let Some(p) = self.param_of(object)
            && let [only] = self.known.types_with_property(name).as_slice()
        {
            let t = (*only).clone();
            self.expect(p, t);
        }
    }
}

/// The `Unit` type.
pub(super) fn unit_ty() -> Ty {
    Ty::Host("Unit".into())
}

/// The type of a constant the parser made (a closure without captures is a function pointer).
fn type_of_constant(d: &Dynamic) -> Ty {
    if d.is_fnptr() {
        Ty::Fn
    } else if d.is_array() {
        Ty::Array
    } else if d.is_map() {
        Ty::Map
    } else if d.is_string() {
        Ty::Str
    } else if d.is_int() {
        Ty::Int
    } else if d.is_float() {
        Ty::Float
    } else if d.is_bool() {
        Ty::Bool
    } else {
        Ty::Any
    }
}

/// Which parameter of a hook implementation is `info`.
fn info_param(shape: &HookShape, params: usize) -> Option<usize> {
    match (shape.kind, params) {
        (Some(HookKind::Ask), 2) => Some(1),
        (Some(HookKind::Allowed | HookKind::Notify), 1) => Some(0),
        (None, 2) => Some(1),
        (None, 1) => Some(0),
        _ => None,
    }
}

/// The ruleset's data at a path of keys.
fn data_at<'v>(data: &'v serde_json::Value, path: &[String]) -> Option<&'v serde_json::Value> {
    let mut here = data;
    for key in path {
        here = here.as_object()?.get(key)?;
    }
    Some(here)
}

/// A field a hook's `info` does not have.
fn unknown_field(
    hook: &str,
    name: &str,
    fields: &BTreeMap<String, Ty>,
) -> (String, Option<String>) {
    let mut all: Vec<&str> = vec!["unit"];
    all.extend(fields.keys().map(String::as_str).filter(|f| *f != "unit"));
    let near = crate::host::suggest::did_you_mean(name, all.iter().copied());
    (
        format!("the hook `{hook}` gives no `{name}` in `info`"),
        Some(match near {
            Some(n) => format!("did you mean `{n}`? its fields are: {}", all.join(", ")),
            None => format!("its fields are: {}", all.join(", ")),
        }),
    )
}

/// The help for a name read from a value whose indexer reads its stats (a unit's), that is
/// neither one of its properties nor one of `stats`.
pub(super) fn unit_name_help<'s>(
    known: &Known,
    ty: &Ty,
    stats: impl Iterator<Item = &'s str>,
    name: &str,
) -> Option<String> {
    let stats: Vec<&str> = stats.collect();
    let props = known.properties_of(ty);
    let methods: Vec<&str> = known.method_names(ty).collect();
    if methods.contains(&name) {
        return Some(format!("`{name}` is a method: call it, `x.{name}(...)`"));
    }
    let near = crate::host::suggest::did_you_mean(
        name,
        props.iter().chain(&stats).chain(&methods).copied(),
    )?;
    Some(if stats.contains(&near) && !props.contains(&near) {
        format!("did you mean the stat `{near}`?")
    } else if methods.contains(&near) && !props.contains(&near) {
        format!("did you mean the method `{near}`, `x.{near}(...)`?")
    } else {
        format!("did you mean `{near}`?")
    })
}

/// A property a host type does not have, in words.
pub(super) fn unknown_property(known: &Known, ty: &Ty, name: &str) -> (String, Option<String>) {
    let props = known.properties_of(ty);
    let methods: Vec<&str> = known.method_names(ty).collect();
    let help = if methods.contains(&name) {
        Some(format!("`{name}` is a method: call it, `x.{name}(...)`"))
    } else {
        closest(name, props.iter().copied(), methods.iter().copied()).map(|n| {
            if props.contains(&n) {
                format!("did you mean `{n}`?")
            } else {
                format!("did you mean the method `{n}`, `x.{n}(...)`?")
            }
        })
    }
    .or_else(|| {
        Some(format!(
            "the properties of {} are: {}",
            ty.in_words(),
            props
                .iter()
                .map(|p| format!("`{p}`"))
                .collect::<Vec<_>>()
                .join(", ")
        ))
    });
    (format!("{} has no property `{name}`", ty.in_words()), help)
}

/// A method a host type does not have, in words.
pub(super) fn no_method(known: &Known, ty: &Ty, name: &str, n: usize) -> (String, Option<String>) {
    let methods: Vec<&str> = known.method_names(ty).collect();
    let props = known.properties_of(ty);
    let help = if props.contains(&name) && !methods.contains(&name) {
        let near = crate::host::suggest::did_you_mean(name, methods.iter().copied());
        Some(match near {
            Some(m) => format!(
                "did you mean `{m}`? (`{name}` is a property, read without brackets: `x.{name}`)"
            ),
            None => format!("`{name}` is a property, read without brackets: `x.{name}`"),
        })
    } else if methods.contains(&name) {
        let arities: BTreeSet<usize> = known
            .signatures(name)
            .iter()
            .filter(|s| s.params.first().is_some_and(|p| p == ty))
            .map(|s| s.params.len() - 1)
            .collect();
        Some(format!("`{name}` takes {}", arities_in_words(&arities)))
    } else {
        closest(name, methods.iter().copied(), props.iter().copied()).map(|m| {
            if methods.contains(&m) {
                format!("did you mean `{m}`?")
            } else {
                format!("did you mean the property `{m}`, read without brackets?")
            }
        })
    };
    let message = if methods.contains(&name) {
        format!(
            "the method `{name}` of {} does not take {}",
            ty.in_words(),
            arities_in_words(&BTreeSet::from([n]))
        )
    } else {
        format!("{} has no method `{name}`", ty.in_words())
    };
    (message, help)
}

/// A call of a name nothing defines with that arity (`None`: any), in words; `method` when it
/// was called as one (the arity counting its object).
pub(super) fn function_in_words(
    known: &Known,
    scripts: &BTreeMap<String, BTreeSet<usize>>,
    name: &str,
    arity: Option<usize>,
    method: bool,
) -> (String, Option<String>) {
    // The arities that exist, as the call would count them.
    let mut arities: BTreeSet<usize> = known
        .arities(name)
        .into_iter()
        .flatten()
        .map(|a| if method { a.saturating_sub(1) } else { a })
        .collect();
    if let Some(a) = scripts.get(name) {
        arities.extend(a.iter().copied());
    }
    let given = arity.map(|a| if method { a.saturating_sub(1) } else { a });
    if let Some(given) = given
        && arities.contains(&given)
    {
        // Defined with that arity: the arguments are of the wrong kinds.
        return (format!("`{name}` cannot take these arguments"), None);
    }
    if let Some(given) = given
        && !arities.is_empty()
    {
        return (
            format!(
                "`{name}` does not take {}",
                arities_in_words(&BTreeSet::from([given]))
            ),
            Some(format!("`{name}` takes {}", arities_in_words(&arities))),
        );
    }
    let script_names = scripts
        .keys()
        .map(String::as_str)
        .filter(|n| !n.contains('$'));
    let same: Vec<&str> = match arity {
        Some(a) => known
            .names_with_arity(a)
            .chain(script_names.clone().filter(|n| scripts[*n].contains(&a)))
            .collect(),
        None => Vec::new(),
    };
    let all: Vec<&str> = known
        .names()
        .chain(script_names)
        .filter(|n| *n != name)
        .collect();
    let same: Vec<&str> = same.into_iter().filter(|n| *n != name).collect();
    let near = closest(name, same.iter().copied(), all.iter().copied());
    (
        format!("there is no function `{name}`"),
        Some(match near {
            Some(n) => format!("did you mean `{n}`?"),
            None => "check the name: docs/api.md lists the host's functions".into(),
        }),
    )
}
