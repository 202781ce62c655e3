//! The scripting API reference, `docs/api.md`, made from the engine's metadata: the template
//! `reference.md` holds the prose that is about no one function (conventions, the dice
//! expression language, how cards are written, the sandbox), and each `{{api DOMAIN}}` in it
//! becomes what that domain registers, read back with [`functions`] and [`types`]; the
//! contents (`{{contents}}`) and the index (`{{index}}`) are made from the result. So the
//! reference lists exactly what scripts can call, and no list of functions is kept by hand.

use std::collections::{BTreeMap, HashMap};

use rhai::Engine;

use super::{DOMAINS, Host};
use crate::game::scenario::Scenario;
use crate::game::state::GameState;
use crate::script::metadata::{FnDoc, Kind, TypeDoc, functions, summary, types};

/// The template: the reference's prose, with the places the generated parts go.
pub const TEMPLATE: &str = include_str!("reference.md");

/// Each domain's name and an engine with only what it registers (plus `arrays`, the
/// sandbox's comparers), bound to a game of `scenario`.
fn domain_engines(scenario: &Scenario) -> HashMap<&'static str, Engine> {
    let state: super::Shared =
        std::rc::Rc::new(std::cell::RefCell::new(GameState::new(scenario, 1)));
    let (abilities, manual, cards) = (Default::default(), Default::default(), Default::default());
    let budget = Default::default();
    let host = Host {
        state: &state,
        ruleset: &scenario.ruleset,
        abilities: &abilities,
        manual: &manual,
        cards: &cards,
        budget: &budget,
    };
    let mut engines: HashMap<&'static str, Engine> = DOMAINS
        .iter()
        .map(|(name, register)| {
            let mut engine = crate::script::engine::raw();
            register(&mut engine, &host);
            (*name, engine)
        })
        .collect();
    let mut arrays = crate::script::engine::raw();
    crate::script::engine::register_comparers(&mut arrays);
    engines.insert("arrays", arrays);
    engines
}

/// The reference, `docs/api.md`, for the API registered in a game of `scenario` (the
/// ruleset matters to no signature or doc: any scenario gives the same text).
pub fn reference(scenario: &Scenario) -> String {
    let engines = domain_engines(scenario);
    let mut w = Writer::default();
    let mut fence = false;
    for line in TEMPLATE.lines() {
        if line.starts_with("```") {
            fence = !fence;
        }
        if !fence
            && let Some(domain) = line
                .strip_prefix("{{api ")
                .and_then(|l| l.strip_suffix("}}"))
        {
            match engines.get(domain.trim()) {
                Some(engine) => w.domain(engine),
                None => w.line(&format!("(no domain `{domain}`)")),
            }
            continue;
        }
        if !fence && line.starts_with('#') {
            let level = line.chars().take_while(|&c| c == '#').count();
            w.heading(level, line[level..].trim());
            continue;
        }
        w.line(line);
    }
    let contents = w.contents();
    let index = w.index();
    let mut text = w
        .out
        .replace("{{contents}}", &contents)
        .replace("{{index}}", &index);
    while text.contains("\n\n\n") {
        text = text.replace("\n\n\n", "\n\n");
    }
    format!("{}\n", text.trim())
}

/// The reference as it is written: its text, the headings' anchors, and what the contents
/// and the index will list.
#[derive(Default)]
struct Writer {
    out: String,
    /// How often each anchor was used (GitHub numbers repeats: `card`, `card-1`).
    slugs: HashMap<String, usize>,
    /// Each `##` section: its title, anchor and `###` titles.
    sections: Vec<(String, String, Vec<String>)>,
    /// Each name's kinds, with the title and anchor of the heading it is under.
    names: BTreeMap<String, Vec<(String, String, String)>>,
}

impl Writer {
    fn line(&mut self, line: &str) {
        self.out.push_str(line);
        self.out.push('\n');
    }

    /// Writes a heading and answers its anchor, as GitHub makes it.
    fn heading(&mut self, level: usize, title: &str) -> String {
        let base: String = title
            .to_lowercase()
            .chars()
            .filter_map(|c| match c {
                ' ' | '-' => Some('-'),
                c if c.is_alphanumeric() || c == '_' => Some(c),
                _ => None,
            })
            .collect();
        let n = self.slugs.entry(base.clone()).or_insert(0);
        let anchor = if *n == 0 {
            base.clone()
        } else {
            format!("{base}-{n}")
        };
        *n += 1;
        self.line("");
        self.line(&format!("{} {title}", "#".repeat(level)));
        self.line("");
        match level {
            2 => self
                .sections
                .push((title.to_string(), anchor.clone(), Vec::new())),
            3 => {
                if let Some(section) = self.sections.last_mut() {
                    section.2.push(title.to_string());
                }
            }
            _ => {}
        }
        anchor
    }

    fn name(&mut self, name: &str, kind: String, title: &str, anchor: &str) {
        let entry = (kind, title.to_string(), anchor.to_string());
        let kinds = self.names.entry(name.to_string()).or_default();
        if !kinds.contains(&entry) {
            kinds.push(entry);
        }
    }

    /// What a domain registers: its functions by name, then each of its types with its
    /// properties, operators and methods.
    fn domain(&mut self, engine: &Engine) {
        let all = functions(engine);
        let own_types = types(engine);
        let is_type = |name: &str| own_types.iter().any(|t| t.name == name);
        let mut free: BTreeMap<&str, Vec<&FnDoc>> = BTreeMap::new();
        for f in &all {
            if f.owner().is_none_or(|o| !is_type(o)) {
                free.entry(f.name.as_str()).or_default().push(f);
            }
        }
        for (name, sigs) in free {
            let title = format!("`{name}`");
            let anchor = self.heading(3, &title);
            self.signatures(&sigs);
            for f in &sigs {
                let kind = match f.owner() {
                    Some(owner) => format!("{owner} method"),
                    None => "function".to_string(),
                };
                self.name(name, kind, &title, &anchor);
            }
        }
        for t in &own_types {
            let members: Vec<&FnDoc> = all
                .iter()
                .filter(|f| f.owner() == Some(t.name.as_str()))
                .collect();
            self.custom_type(t, &members);
        }
    }

    /// A signature block, then each distinct doc.
    fn signatures(&mut self, sigs: &[&FnDoc]) {
        self.line("```text");
        for f in sigs {
            self.line(&f.signature());
        }
        self.line("```");
        let mut seen: Vec<&str> = Vec::new();
        for f in sigs {
            if !seen.contains(&f.doc.as_str()) {
                seen.push(&f.doc);
                self.line("");
                self.line(&f.doc);
            }
        }
    }

    fn custom_type(&mut self, t: &TypeDoc, members: &[&FnDoc]) {
        let title = format!("`{}`", t.name);
        let anchor = self.heading(3, &title);
        self.name(&t.name, "type".into(), &title, &anchor);
        self.line(&t.doc);
        let cell = |text: &str| summary(text).replace('|', "\\|");
        let getters: Vec<&&FnDoc> = members.iter().filter(|f| f.kind == Kind::Getter).collect();
        if !getters.is_empty() {
            self.line("");
            self.line("| property | type | can set to | what it is |");
            self.line("|---|---|---|---|");
            for g in getters {
                let setter = members
                    .iter()
                    .find(|f| f.kind == Kind::Setter && f.name == g.name);
                let recv = g.params.first().map_or("_", |p| p.name.as_str());
                let (set_to, what) = match setter {
                    Some(s) => (
                        format!("`{}`", s.params.get(1).map_or("?", |p| p.ty.as_str())),
                        format!("{} {}", cell(&g.doc), cell(&s.doc)),
                    ),
                    None => (String::new(), cell(&g.doc)),
                };
                self.line(&format!(
                    "| `{recv}.{}` | `{}` | {set_to} | {what} |",
                    g.name, g.returns
                ));
                let kind = if setter.is_some() {
                    format!("{} property (settable)", t.name)
                } else {
                    format!("{} property", t.name)
                };
                self.name(&g.name, kind, &title, &anchor);
            }
        }
        let operators: Vec<&&FnDoc> = members
            .iter()
            .filter(|f| f.kind == Kind::Operator)
            .collect();
        if !operators.is_empty() {
            self.line("");
            self.line("| operator | returns | what it is |");
            self.line("|---|---|---|");
            for o in operators {
                let (a, b) = (
                    o.params.first().map_or("a", |p| p.name.as_str()),
                    o.params.get(1).map_or("b", |p| p.name.as_str()),
                );
                self.line(&format!(
                    "| `{a} {} {b}` | `{}` | {} |",
                    o.name,
                    o.returns,
                    cell(&o.doc)
                ));
                self.name(&o.name, format!("{} operator", t.name), &title, &anchor);
            }
        }
        let mut methods: BTreeMap<&str, Vec<&FnDoc>> = BTreeMap::new();
        for f in members {
            if matches!(f.kind, Kind::Method | Kind::Indexer) {
                methods.entry(f.name.as_str()).or_default().push(f);
            }
        }
        for (name, sigs) in methods {
            let recv = sigs[0].params.first().map_or("_", |p| p.name.as_str());
            let title = if name == "[]" {
                let key = sigs[0].params.get(1).map_or("key", |p| p.name.as_str());
                format!("`{recv}[{key}]`")
            } else {
                format!("`{recv}.{name}`")
            };
            let anchor = self.heading(4, &title);
            self.signatures(&sigs);
            let kind = if name == "[]" { "indexer" } else { "method" };
            let shown = if name == "[]" { "u[name]" } else { name };
            self.name(shown, format!("{} {kind}", t.name), &title, &anchor);
        }
    }

    /// The contents: each section, with the headings under it.
    fn contents(&self) -> String {
        self.sections
            .iter()
            .map(|(title, anchor, subs)| {
                if subs.is_empty() {
                    format!("- [{title}](#{anchor})")
                } else {
                    format!("- [{title}](#{anchor}): {}", subs.join(", "))
                }
            })
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// The index: every name, with what it is and where.
    fn index(&self) -> String {
        let mut rows = vec![
            "| name | kind | section |".to_string(),
            "|---|---|---|".to_string(),
        ];
        for (name, kinds) in &self.names {
            let mut kind: Vec<&str> = Vec::new();
            let mut links: Vec<String> = Vec::new();
            for (k, title, anchor) in kinds {
                if !kind.contains(&k.as_str()) {
                    kind.push(k);
                }
                let link = format!("[{title}](#{anchor})");
                if !links.contains(&link) {
                    links.push(link);
                }
            }
            rows.push(format!(
                "| `{name}` | {} | {} |",
                kind.join(", "),
                links.join(", ")
            ));
        }
        rows.join("\n")
    }
}
