//! Who asks and who answers each hook of a ruleset, for `sandtable hooks RULESET`, `:hooks`
//! and the hook tables of the docs.
//!
//! What a hook is comes from its declaration in `ruleset.yaml`; where the rules ask it is
//! read from the syntax tree of the ruleset's scripts (each `ask`, `allowed` or `notify`
//! naming it in a string), and who answers it from the functions of the package's abilities
//! and of the house rules given, so that the table is always what the scripts do.

use std::path::{Path, PathBuf};

use rhai::{AST, Expr};

use crate::error::{Error, read_script};
use crate::game::declared::{HookDecl, HookKind};
use crate::game::project::Project;
use crate::game::ruleset::Ruleset;
use crate::script::engine::{self, Budget, Limits};
use crate::script::error::Sources;

/// One hook of a ruleset, with who asks and who answers it.
#[derive(Clone, Debug, serde::Serialize)]
pub struct HookRow {
    /// Its name: `defend_dice`.
    pub name: String,
    /// Its declaration.
    #[serde(flatten)]
    pub decl: HookDecl,
    /// The parameters of the function that answers it: `["dice", "info"]`.
    pub params: Vec<String>,
    /// Where the rules ask it: `rules.rhai:240 (melee)`.
    pub asked_in: Vec<String>,
    /// The abilities of the package that answer it.
    pub abilities: Vec<String>,
    /// The house rules given that answer it.
    pub house_rules: Vec<String>,
}

/// Where a script names a hook (or any other identifier) in a string given to `ask`,
/// `allowed`, `notify` or a function of its own that may pass it on: (the name, the function
/// it is in, line).
pub fn asked_in(
    ast: &AST,
    scripted: &std::collections::BTreeSet<String>,
) -> Vec<(String, String, usize)> {
    // Each named function's span, to say which one a call is in (closures are functions of
    // their own, inside the one that writes them, so they are left out).
    type Place = (usize, usize);
    let spans: Vec<(String, Place, Place)> = ast
        .iter_fn_def()
        .filter(|f| !f.name.contains('$'))
        .map(|f| {
            let at = |p: rhai::Position| (p.line().unwrap_or(0), p.position().unwrap_or(0));
            (
                f.name.to_string(),
                at(f.body.start_position()),
                at(f.body.end_position()),
            )
        })
        .collect();
    let mut found = Vec::new();
    ast.walk(&mut |path| {
        // A hook is asked by its name in a string: `ask("defend_dice", ...)`, or a name passed
        // on to a helper that asks it (`_blast(..., "grenade_damage")`).
        // A string given to `ask`, `allowed` or `notify` first, or to a function of the
        // scripts themselves (which may pass it on to them).
        let given = path.len() >= 2
            && matches!(&path[path.len() - 2],
                rhai::ASTNode::Expr(Expr::FnCall(call, _))
                    if call.namespace.is_empty()
                        && (matches!(call.name.as_str(), "ask" | "allowed" | "notify")
                            || scripted.contains(call.name.as_str())));
        if let Some(rhai::ASTNode::Expr(Expr::StringConstant(hook, pos))) = path.last()
            && given
            && crate::game::declared::is_identifier(hook)
        {
            let here = (pos.line().unwrap_or(0), pos.position().unwrap_or(0));
            let function = spans
                .iter()
                .filter(|(_, start, end)| *start <= here && here <= *end)
                .max_by_key(|(_, start, _)| *start)
                .map_or_else(String::new, |(name, ..)| name.clone());
            found.push((hook.to_string(), function, here.0));
        }
        true
    });
    found.sort_by(|a, b| (a.2, &a.0).cmp(&(b.2, &b.0)));
    found.dedup();
    found
}

/// The hooks of `ruleset`, in the order `ruleset.yaml` lists them (alphabetical), with where its
/// scripts ask each, and which of its abilities and of `house_rules` answer each.
pub fn hook_table(
    project: &Project,
    ruleset: &Ruleset,
    house_rules: &[PathBuf],
) -> Result<Vec<HookRow>, Error> {
    let budget = Budget::default();
    let engine = engine::sandboxed(&Limits::default(), &budget, Vec::new(), Default::default());
    let mut sources = Sources::default();
    let shown = |p: &Path| {
        p.strip_prefix(&ruleset.dir)
            .or_else(|_| p.strip_prefix(project.root()))
            .unwrap_or(p)
            .display()
            .to_string()
    };
    let mut compile = |path: &Path| -> Result<AST, Error> {
        let text = read_script(path)?;
        sources.compile(&engine, &budget, &shown(path), &text)
    };
    let mut rows: Vec<HookRow> = ruleset
        .file
        .hooks
        .iter()
        .map(|(name, decl)| HookRow {
            name: name.clone(),
            decl: decl.clone(),
            params: decl.params(),
            asked_in: Vec::new(),
            abilities: Vec::new(),
            house_rules: Vec::new(),
        })
        .collect();
    let scripts = ruleset
        .script_paths()
        .into_iter()
        .map(|path| compile(&path).map(|ast| (path, ast)))
        .collect::<Result<Vec<_>, _>>()?;
    let scripted = scripts
        .iter()
        .flat_map(|(_, ast)| ast.iter_functions().map(|f| f.name.to_string()))
        .collect();
    for (path, ast) in &scripts {
        for (hook, function, line) in asked_in(ast, &scripted) {
            if let Some(row) = rows.iter_mut().find(|r| r.name == hook) {
                row.asked_in
                    .push(format!("{}:{line} ({function})", shown(path)));
            }
        }
    }
    let answers = |ast: &AST, row: &HookRow| {
        ast.iter_functions()
            .any(|f| f.name == row.name && f.params.len() == row.decl.kind.arity())
    };
    for (name, path) in &ruleset.abilities {
        let ast = compile(path)?;
        for row in rows.iter_mut().filter(|r| answers(&ast, r)) {
            row.abilities.push(name.clone());
        }
    }
    for path in house_rules {
        let ast = compile(path)?;
        let name = crate::game::scenario::house_rule_name(path);
        for row in rows.iter_mut().filter(|r| answers(&ast, r)) {
            row.house_rules.push(name.clone());
        }
    }
    Ok(rows)
}

/// The table as text for the terminal: a paragraph a hook.
pub fn render_text(rows: &[HookRow]) -> String {
    let mut out = String::new();
    for r in rows {
        out.push_str(&format!(
            "{} ({}): {}\n",
            r.name,
            r.decl.kind.asked_with(),
            r.decl.means
        ));
        out.push_str(&format!(
            "  fn {}({}){}\n",
            r.name,
            r.params.join(", "),
            answer(&r.decl)
        ));
        out.push_str(&format!("  info: {}\n", info_fields(&r.decl, "`")));
        out.push_str(&format!("  asked in: {}\n", or_none(&r.asked_in)));
        out.push_str(&format!(
            "  answered by: {}\n",
            answerers(r).unwrap_or_else(|| "no ability or house rule".into())
        ));
    }
    out.trim_end().to_string()
}

/// The table in Markdown, for a ruleset's page in the docs.
pub fn render_markdown(rows: &[HookRow]) -> String {
    let mut out = String::from(
        "| hook | the function | what it means | `info` | asked in | answered by |\n|---|---|---|---|---|---|\n",
    );
    for r in rows {
        out.push_str(&format!(
            "| `{}` | `fn {}({})`{} | {} | {} | {} | {} |\n",
            r.name,
            r.name,
            r.params.join(", "),
            answer(&r.decl),
            r.decl.means.replace('|', "\\|"),
            info_fields(&r.decl, "`").replace('|', "\\|"),
            r.asked_in
                .iter()
                .map(|a| format!("`{a}`"))
                .collect::<Vec<_>>()
                .join(", "),
            answerers(r).unwrap_or_else(|| "—".into()),
        ));
    }
    out
}

/// What the answer must be: ` -> a whole number`, ` -> true or false`, or nothing.
fn answer(decl: &HookDecl) -> String {
    match (decl.kind, decl.answer) {
        (HookKind::Ask, Some(kind)) => format!(" -> {}", kind.described()),
        (HookKind::Ask, None) => " -> any value".into(),
        (HookKind::Allowed, _) => " -> true or false".into(),
        (HookKind::Notify, _) => String::new(),
    }
}

/// `unit` and the declared fields with what each is.
fn info_fields(decl: &HookDecl, tick: &str) -> String {
    std::iter::once(format!("{tick}unit{tick} (the unit asked about)"))
        .chain(
            decl.info
                .iter()
                .filter(|(f, _)| f.as_str() != crate::game::declared::INFO_UNIT)
                .map(|(f, m)| format!("{tick}{f}{tick} ({m})")),
        )
        .collect::<Vec<_>>()
        .join(", ")
}

fn or_none(items: &[String]) -> String {
    if items.is_empty() {
        "nowhere in the rule scripts (an ability or a house rule may ask it)".into()
    } else {
        items.join(", ")
    }
}

fn answerers(r: &HookRow) -> Option<String> {
    let mut parts = Vec::new();
    if !r.abilities.is_empty() {
        parts.push(format!("abilities {}", r.abilities.join(", ")));
    }
    if !r.house_rules.is_empty() {
        parts.push(format!("house rules {}", r.house_rules.join(", ")));
    }
    (!parts.is_empty()).then(|| parts.join("; "))
}
