//! The layering of `src/`, checked by reading the source (see `ARCHITECTURE.md`).
//!
//! The layers, lowest first: `limits` (constants only), `memory` (what the program holds), `error` (which every layer may use), `host`, `game`, `script`,
//! `session`, `analysis`, `cli`. A file may name, through a `crate::` path, only its own
//! layer, `error`, or a layer below its own; `lib.rs` and `main.rs`, which tie the layers
//! together, are exempt. Besides:
//! - `host/` and `game/` use no Rhai: the crate `rhai` is never named in their code;
//! - no module cycles: no module names, through `crate::` paths, one that names it back,
//!   directly or round a loop (modules taken as `crate::a::b`, so `script::api::dice` is
//!   `script::api`);
//! - no ruleset word (`playmobil`, `viking`, `melee`, ...) in `src/`: the host knows no
//!   rulebook.
//!
//! Comments are not code here, and nor are items under `#[cfg(test)]` (unit tests may use a
//! higher layer or a ruleset's unit ids); string literals are not code for the paths and
//! for `rhai`, but are for the ruleset words (they are what a player reads). `super::` paths
//! stay within a layer, so they are not followed. Each checker takes files in memory, so the
//! tests at the bottom show that each one does fail on a breach.
//!
//! Known breaches are listed, each with its reason, in the `*_EXCEPTIONS` constants below.
//! An exception that no longer matches anything fails the test too, so that the list only
//! shrinks as breaches are fixed.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The layers, lowest first. `limits` is below them all, then `memory`, then `error`.
const LAYERS: &[&str] = &[
    "limits", "memory", "error", "host", "game", "script", "session", "analysis", "cli",
];

/// Files that tie the layers together, and may name any of them.
const EXEMPT: &[&str] = &["lib.rs", "main.rs"];

/// The layers whose code never names the `rhai` crate.
const WITHOUT_RHAI: &[&str] = &["host", "game"];

/// Words of a ruleset that have no place in the host, matched in any case, inside longer
/// words too (`viking_1`, `Melee`).
const RULESET_WORDS: &[&str] = &[
    "playmobil",
    "testudo",
    "berserker",
    "legionary",
    "viking",
    "melee",
];

/// Known breaches of the layering, tolerated with a reason: (file under `src/`, the
/// `crate::` path it names, why). None at present; a fix must remove its entry here.
const LAYER_EXCEPTIONS: &[(&str, &str, &str)] = &[];

/// Known uses that close module cycles, tolerated with a reason: (module, the module it uses,
/// why). The check leaves these uses out of the graph and finds no cycle in the rest; a fix
/// must remove its entry here. None at present: the values the API and the dispatcher share
/// live in `script::value`, below both.
const CYCLE_EXCEPTIONS: &[(&str, &str, &str)] = &[];

/// Known ruleset words in `src/` outside tests and comments, tolerated with a reason: (file
/// under `src/`, word, why). Each is an example or a default taken from the rulebook the
/// program ships with (the Playmobil Melee Combat rules, whose default scenario is Romans
/// against Vikings), not a rule the host applies. A fix must remove its entry here.
const RULESET_WORD_EXCEPTIONS: &[(&str, &str, &str)] = &[
    (
        "game/project.rs",
        "viking",
        "`DEFAULT_SCENARIO` is `scenarios/romans_vs_vikings.yaml`, the default scenario DESIGN.md names",
    ),
    (
        "session/command.rs",
        "viking",
        "the meta commands' help and usage errors give examples from the default scenario \
         (`:show viking_1`, `:odds melee viking_1 legionary_1`, `:with house/vikings_in_wood.rhai`), \
         and so does the `:help` footer",
    ),
    (
        "session/command.rs",
        "legionary",
        "the help of `:odds` gives an example from the default scenario",
    ),
    (
        "session/command.rs",
        "melee",
        "the help of `:odds` gives an example with the default ruleset's verb",
    ),
    (
        "script/error.rs",
        "viking",
        "the help for assigning to a unit's property gives an example with the default scenario",
    ),
];

/// A source file: its path under `src/` (with `/`), and its text.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct SourceFile {
    path: String,
    text: String,
}

/// A breach: where, and what.
#[derive(Clone, Debug, PartialEq)]
struct Breach {
    /// The file under `src/`.
    file: String,
    /// The line, from 1.
    line: usize,
    /// What it names: a `crate::` path, `rhai`, a ruleset word.
    name: String,
    /// Why it is wrong.
    message: String,
}

impl std::fmt::Display for Breach {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "src/{}:{}: {}", self.file, self.line, self.message)
    }
}

/// Every `.rs` file under `src/`, sorted by path.
fn read_src() -> Vec<SourceFile> {
    fn walk(root: &Path, dir: &Path, out: &mut Vec<SourceFile>) {
        let entries = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
        for entry in entries {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(root, &path, out);
            } else if path.extension().is_some_and(|e| e == "rs")
                // A module's unit tests in a file of their own, `#[cfg(test)] mod tests;`,
                // are test items as a whole, like those kept in the module's own file.
                && path.file_name().is_none_or(|n| n != "tests.rs")
            {
                let rel = path.strip_prefix(root).unwrap();
                let rel: Vec<String> = rel
                    .components()
                    .map(|c| c.as_os_str().to_string_lossy().into_owned())
                    .collect();
                out.push(SourceFile {
                    path: rel.join("/"),
                    text: std::fs::read_to_string(&path).unwrap(),
                });
            }
        }
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    walk(&root, &root, &mut files);
    files.sort();
    files
}

/// A file's lines without comments or `#[cfg(test)]` items, each still at its place: `code`
/// with the insides of string and character literals blanked, `text` with them kept.
struct Stripped {
    code: Vec<String>,
    text: Vec<String>,
}

fn is_ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// Removes comments and `#[cfg(test)]` items from Rust source; see [`Stripped`].
fn strip(src: &str) -> Stripped {
    let c: Vec<char> = src.chars().collect();
    let (mut code, mut text) = (String::new(), String::new());
    // A literal's character: kept in `text`, a blank in `code` (line breaks in both).
    let literal = |code: &mut String, text: &mut String, x: char| {
        text.push(x);
        code.push(if x == '\n' { '\n' } else { ' ' });
    };
    let mut i = 0;
    while i < c.len() {
        let ch = c[i];
        let next = c.get(i + 1).copied();
        let after_ident = i > 0 && is_ident(c[i - 1]);
        if ch == '/' && next == Some('/') {
            while i < c.len() && c[i] != '\n' {
                i += 1;
            }
        } else if ch == '/' && next == Some('*') {
            let mut depth = 0;
            while i < c.len() {
                if c[i] == '/' && c.get(i + 1) == Some(&'*') {
                    depth += 1;
                    i += 2;
                } else if c[i] == '*' && c.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    if c[i] == '\n' {
                        code.push('\n');
                        text.push('\n');
                    }
                    i += 1;
                }
            }
        } else if !after_ident && let Some(end) = raw_string_end(&c, i) {
            // r"...", r#"..."#, br"...": the quotes and hashes are kept in both.
            let open = c[i..].iter().position(|&x| x == '"').unwrap() + i;
            let hashes = open - i - usize::from(ch == 'b') - 1;
            for &x in &c[i..=open] {
                code.push(x);
                text.push(x);
            }
            for &x in &c[open + 1..end - hashes - 1] {
                literal(&mut code, &mut text, x);
            }
            for &x in &c[end - hashes - 1..end] {
                code.push(x);
                text.push(x);
            }
            i = end;
        } else if ch == '"' {
            code.push('"');
            text.push('"');
            i += 1;
            while i < c.len() && c[i] != '"' {
                if c[i] == '\\' && i + 1 < c.len() {
                    literal(&mut code, &mut text, '\\');
                    i += 1;
                }
                literal(&mut code, &mut text, c[i]);
                i += 1;
            }
            if i < c.len() {
                code.push('"');
                text.push('"');
                i += 1;
            }
        } else if ch == '\'' && (next == Some('\\') || c.get(i + 2) == Some(&'\'')) {
            // A character literal ('x', '"', '\'', '\u{7f}'); a lifetime ('a) is left as code.
            let close = c[i + 2..]
                .iter()
                .skip(usize::from(next == Some('\\')))
                .position(|&x| x == '\'')
                .map_or(c.len() - 1, |p| p + i + 2 + usize::from(next == Some('\\')));
            code.push('\'');
            text.push('\'');
            for &x in &c[i + 1..close] {
                literal(&mut code, &mut text, x);
            }
            code.push('\'');
            text.push('\'');
            i = close + 1;
        } else {
            code.push(ch);
            text.push(ch);
            i += 1;
        }
    }
    let mut code: Vec<String> = code.split('\n').map(str::to_string).collect();
    let mut text: Vec<String> = text.split('\n').map(str::to_string).collect();
    for range in test_items(&code) {
        for line in range {
            code[line].clear();
            text[line].clear();
        }
    }
    Stripped { code, text }
}

/// Where the raw string starting at `c[i]` ends (just past its last `#` or quote), if one
/// starts there.
fn raw_string_end(c: &[char], i: usize) -> Option<usize> {
    let mut j = match (c[i], c.get(i + 1)) {
        ('r', _) => i + 1,
        ('b', Some('r')) => i + 2,
        _ => return None,
    };
    let mut hashes = 0;
    while c.get(j) == Some(&'#') {
        hashes += 1;
        j += 1;
    }
    if c.get(j) != Some(&'"') {
        return None; // an identifier, or a raw identifier (`r#type`)
    }
    j += 1;
    while j < c.len() {
        if c[j] == '"' && (1..=hashes).all(|h| c.get(j + h) == Some(&'#')) {
            return Some(j + 1 + hashes);
        }
        j += 1;
    }
    None // never closed: not valid Rust, so read on as code
}

const CFG_TEST: &str = "#[cfg(test)]";

/// The line ranges (from 0) of the items under `#[cfg(test)]`: from the attribute to the
/// `;` or the closing brace that ends the item after it. `code` has no comments or literals.
fn test_items(code: &[String]) -> Vec<std::ops::RangeInclusive<usize>> {
    let mut ranges = Vec::new();
    let mut line = 0;
    while line < code.len() {
        let Some(at) = code[line].find(CFG_TEST) else {
            line += 1;
            continue;
        };
        let attribute = at + CFG_TEST.len();
        let mut depth = 0usize;
        let mut end = code.len() - 1;
        'item: for (l, text) in code.iter().enumerate().skip(line) {
            let from = if l == line { attribute } else { 0 };
            for ch in text[from..].chars() {
                match ch {
                    '(' | '[' | '{' => depth += 1,
                    ')' | ']' => depth = depth.saturating_sub(1),
                    '}' => {
                        depth = depth.saturating_sub(1);
                        if depth == 0 {
                            end = l;
                            break 'item;
                        }
                    }
                    ';' if depth == 0 => {
                        end = l;
                        break 'item;
                    }
                    _ => {}
                }
            }
        }
        ranges.push(line..=end);
        line = end + 1;
    }
    ranges
}

/// The `crate::` paths a line of code names, each as its segments after `crate`
/// (`crate::game::state::Mark` gives `["game", "state", "Mark"]`).
fn crate_paths(line: &str) -> Vec<Vec<String>> {
    let mut paths = Vec::new();
    let mut from = 0;
    while let Some(found) = line[from..].find("crate::") {
        let start = from + found;
        from = start + "crate::".len();
        if line[..start].chars().next_back().is_some_and(is_ident) {
            continue; // `foocrate::`, not a path from the crate's root
        }
        let mut segments = Vec::new();
        let mut rest = &line[from..];
        loop {
            let len = rest.find(|c: char| !is_ident(c)).unwrap_or(rest.len());
            if len == 0 {
                break;
            }
            segments.push(rest[..len].to_string());
            rest = &rest[len..];
            match rest.strip_prefix("::") {
                Some(more) => rest = more,
                None => break,
            }
        }
        if !segments.is_empty() {
            paths.push(segments);
        }
    }
    paths
}

/// The module a file is: `host/dice.rs` is `["host", "dice"]`, `host/mod.rs` is `["host"]`.
fn module_of(path: &str) -> Vec<String> {
    let mut segments: Vec<String> = path
        .trim_end_matches(".rs")
        .split('/')
        .map(str::to_string)
        .collect();
    if segments.last().is_some_and(|s| s == "mod") {
        segments.pop();
    }
    segments
}

fn layer_rank(name: &str) -> Option<usize> {
    LAYERS.iter().position(|&l| l == name)
}

/// Every `crate::` path that names a layer above the file's own (or no layer at all).
fn layer_breaches(files: &[SourceFile]) -> Vec<Breach> {
    let mut breaches = Vec::new();
    for file in files.iter().filter(|f| !EXEMPT.contains(&f.path.as_str())) {
        let own = module_of(&file.path)[0].clone();
        let Some(rank) = layer_rank(&own) else {
            breaches.push(Breach {
                file: file.path.clone(),
                line: 1,
                name: own.clone(),
                message: format!(
                    "`{own}` is not a layer; add it to LAYERS in tests/it/layers.rs and to ARCHITECTURE.md"
                ),
            });
            continue;
        };
        for (n, line) in strip(&file.text).code.iter().enumerate() {
            for path in crate_paths(line) {
                let top = path[0].as_str();
                let allowed = top == "error" || layer_rank(top).is_some_and(|r| r <= rank);
                if !allowed {
                    let name = format!("crate::{}", path.join("::"));
                    breaches.push(Breach {
                        file: file.path.clone(),
                        line: n + 1,
                        message: match layer_rank(top) {
                            Some(_) => format!(
                                "`{name}`: the layer `{own}` may not use the layer `{top}` above it"
                            ),
                            None => format!("`{name}`: `{top}` is no layer"),
                        },
                        name,
                    });
                }
            }
        }
    }
    breaches
}

/// Every mention of the `rhai` crate in the code of `host/` and `game/`.
fn rhai_breaches(files: &[SourceFile]) -> Vec<Breach> {
    let mut breaches = Vec::new();
    for file in files {
        let own = module_of(&file.path)[0].clone();
        if !WITHOUT_RHAI.contains(&own.as_str()) {
            continue;
        }
        for (n, line) in strip(&file.text).code.iter().enumerate() {
            if line.split(|c: char| !is_ident(c)).any(|w| w == "rhai") {
                breaches.push(Breach {
                    file: file.path.clone(),
                    line: n + 1,
                    name: "rhai".into(),
                    message: format!("`{}`: the layer `{own}` uses no Rhai", line.trim()),
                });
            }
        }
    }
    breaches
}

/// Every ruleset word in the code and string literals of `src/` (outside tests and
/// comments).
fn ruleset_word_breaches(files: &[SourceFile]) -> Vec<Breach> {
    let mut breaches = Vec::new();
    for file in files {
        for (n, line) in strip(&file.text).text.iter().enumerate() {
            let lower = line.to_lowercase();
            for word in RULESET_WORDS.iter().filter(|w| lower.contains(**w)) {
                breaches.push(Breach {
                    file: file.path.clone(),
                    line: n + 1,
                    name: word.to_string(),
                    message: format!("`{word}` in `{}`: the host knows no rulebook", line.trim()),
                });
            }
        }
    }
    breaches
}

/// An edge of the module graph: the line that makes a module use another.
#[derive(Clone, Debug)]
struct Use {
    file: String,
    line: usize,
    path: String,
}

/// For each module, the modules it uses, each with the first line that does.
type Graph = BTreeMap<String, BTreeMap<String, Use>>;

/// The module graph, at the grain of `crate::a::b`: for each module, the modules it names
/// through `crate::` paths, and the first line that names each.
fn module_graph(files: &[SourceFile]) -> Graph {
    let grain = |segments: &[String]| segments[..segments.len().min(2)].join("::");
    let modules: BTreeSet<String> = files.iter().map(|f| grain(&module_of(&f.path))).collect();
    let mut graph = Graph::new();
    for file in files.iter().filter(|f| !EXEMPT.contains(&f.path.as_str())) {
        let from = grain(&module_of(&file.path));
        let edges = graph.entry(from.clone()).or_default();
        for (n, line) in strip(&file.text).code.iter().enumerate() {
            for path in crate_paths(line) {
                // The longest prefix that is a module: `crate::session::Session` is in
                // `session`, `crate::host::rng::GameRng` in `host::rng`.
                let Some(to) = (1..=path.len().min(2))
                    .rev()
                    .map(|k| grain(&path[..k]))
                    .find(|m| modules.contains(m))
                else {
                    continue;
                };
                if to != from {
                    edges.entry(to).or_insert_with(|| Use {
                        file: file.path.clone(),
                        line: n + 1,
                        path: format!("crate::{}", path.join("::")),
                    });
                }
            }
        }
    }
    graph
}

/// The module cycles: each a set of modules that reach one another (a strongly connected
/// component of more than one module), sorted, with the uses that close it.
fn module_cycles(files: &[SourceFile]) -> Vec<(Vec<String>, Vec<Use>)> {
    cycles(&module_graph(files))
}

/// The cycles of a module graph; see [`module_cycles`].
fn cycles(graph: &Graph) -> Vec<(Vec<String>, Vec<Use>)> {
    let nodes: Vec<&String> = graph
        .keys()
        .chain(graph.values().flat_map(|e| e.keys()))
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    let reach = |from: &String| -> BTreeSet<String> {
        let mut seen = BTreeSet::new();
        let mut stack = vec![from.clone()];
        while let Some(m) = stack.pop() {
            for next in graph.get(&m).into_iter().flat_map(|e| e.keys()) {
                if seen.insert(next.clone()) {
                    stack.push(next.clone());
                }
            }
        }
        seen
    };
    let reaches: BTreeMap<&String, BTreeSet<String>> =
        nodes.iter().map(|&n| (n, reach(n))).collect();
    let mut cycles = Vec::new();
    let mut placed = BTreeSet::new();
    for &n in &nodes {
        if placed.contains(n) || !reaches[n].contains(n) {
            continue;
        }
        let members: Vec<String> = nodes
            .iter()
            .filter(|&&m| reaches[n].contains(m) && reaches[m].contains(n))
            .map(|&m| m.clone())
            .collect();
        let uses = members
            .iter()
            .flat_map(|m| graph.get(m).into_iter().flatten())
            .filter(|(to, _)| members.contains(to))
            .map(|(_, u)| u.clone())
            .collect();
        placed.extend(members.iter().cloned());
        cycles.push((members, uses));
    }
    cycles
}

/// Drops the breaches an exception covers, and names the exceptions nothing matched (a fixed
/// breach whose exception should go).
fn without_exceptions<'a>(
    breaches: Vec<Breach>,
    exceptions: &'a [(&'a str, &'a str, &'a str)],
) -> (Vec<Breach>, Vec<&'a (&'a str, &'a str, &'a str)>) {
    let covered = |b: &Breach, e: &(&str, &str, &str)| b.file == e.0 && b.name == e.1;
    let stale = exceptions
        .iter()
        .filter(|e| !breaches.iter().any(|b| covered(b, e)))
        .collect();
    let left = breaches
        .into_iter()
        .filter(|b| !exceptions.iter().any(|e| covered(b, e)))
        .collect();
    (left, stale)
}

#[track_caller]
fn assert_none(what: &str, breaches: &[Breach], stale: &[&(&str, &str, &str)]) {
    let list = |b: &[Breach]| b.iter().map(|b| format!("  {b}\n")).collect::<String>();
    assert!(
        breaches.is_empty(),
        "{what}:\n{}(see ARCHITECTURE.md; fix the file, or as a last resort add an exception, with its reason, in tests/it/layers.rs)",
        list(breaches)
    );
    assert!(
        stale.is_empty(),
        "exceptions for {what} that no longer match anything; remove them from tests/it/layers.rs: {stale:?}"
    );
}

/// The source was found: a wrong folder would make every check pass on nothing.
#[test]
fn src_is_read() {
    let files = read_src();
    assert!(
        files.iter().any(|f| f.path == "host/mod.rs"),
        "no src/host/mod.rs"
    );
    assert!(files.len() > 20, "only {} files under src/", files.len());
    let paths: usize = files
        .iter()
        .map(|f| {
            strip(&f.text)
                .code
                .iter()
                .map(|l| crate_paths(l).len())
                .sum::<usize>()
        })
        .sum();
    assert!(paths > 50, "only {paths} `crate::` paths under src/");
    for layer in LAYERS {
        assert!(
            files.iter().any(|f| module_of(&f.path)[0] == *layer),
            "no module of the layer `{layer}` under src/"
        );
    }
}

/// Each file names only its own layer, `error`, and the layers below.
#[test]
fn each_layer_uses_only_the_layers_below() {
    let (breaches, stale) = without_exceptions(layer_breaches(&read_src()), LAYER_EXCEPTIONS);
    assert_none("paths to a higher layer", &breaches, &stale);
}

/// `host/` and `game/` are plain Rust: the scripting engine is the layer above them.
#[test]
fn host_and_game_use_no_rhai() {
    let breaches = rhai_breaches(&read_src());
    assert_none("Rhai in host/ or game/", &breaches, &[]);
}

/// No module names a module that names it back, directly or round a loop.
#[test]
fn no_module_cycles() {
    let mut graph = module_graph(&read_src());
    // Known breaches: the uses listed in CYCLE_EXCEPTIONS, each with its reason, are left out
    // of the graph (two uses in src/script/ close cycles there).
    let mut stale = Vec::new();
    for exception @ (from, to, _) in CYCLE_EXCEPTIONS {
        if graph
            .get_mut(*from)
            .and_then(|uses| uses.remove(*to))
            .is_none()
        {
            stale.push(exception);
        }
    }
    let left: Vec<String> = cycles(&graph)
        .iter()
        .map(|(members, uses)| {
            let uses: String = uses
                .iter()
                .map(|u| format!("\n    src/{}:{}: `{}`", u.file, u.line, u.path))
                .collect();
            format!("  a cycle between {}, through:{uses}\n", members.join(", "))
        })
        .collect();
    assert!(
        left.is_empty(),
        "module cycles:\n{}(see ARCHITECTURE.md; break the cycle, or as a last resort add the use that closes it, with its reason, to CYCLE_EXCEPTIONS in tests/it/layers.rs)",
        left.concat()
    );
    assert!(
        stale.is_empty(),
        "cycle exceptions for uses that are gone; remove them from tests/it/layers.rs: {stale:?}"
    );
}

/// The host knows no rulebook: no ruleset's words in `src/` outside tests and comments.
#[test]
fn no_ruleset_words_in_src() {
    // Known breaches: the examples and the default scenario listed in
    // RULESET_WORD_EXCEPTIONS, each with its reason.
    let (breaches, stale) =
        without_exceptions(ruleset_word_breaches(&read_src()), RULESET_WORD_EXCEPTIONS);
    assert_none("ruleset words in src/", &breaches, &stale);
}

// The checkers themselves, on files in memory: each fails on a breach, and ignores what is
// not one.

fn fake(files: &[(&str, &str)]) -> Vec<SourceFile> {
    files
        .iter()
        .map(|(path, text)| SourceFile {
            path: path.to_string(),
            text: text.to_string(),
        })
        .collect()
}

#[test]
fn a_host_file_using_the_command_line_is_a_breach() {
    let files = fake(&[(
        "host/dice.rs",
        "use crate::host::rng::GameRng;\nuse crate::error::Error;\nuse crate::cli::command::run_line;\n",
    )]);
    let breaches = layer_breaches(&files);
    assert_eq!(breaches.len(), 1, "{breaches:?}");
    assert_eq!(
        breaches[0].to_string(),
        "src/host/dice.rs:3: `crate::cli::command::run_line`: the layer `host` may not use the layer `cli` above it"
    );
}

#[test]
fn inline_paths_and_macro_paths_are_checked_too() {
    let files = fake(&[(
        "game/state.rs",
        "fn f() {\n    let s = crate::session::Session::new();\n    $crate::script::x!();\n}\n",
    )]);
    let names: Vec<String> = layer_breaches(&files).into_iter().map(|b| b.name).collect();
    assert_eq!(names, ["crate::session::Session::new", "crate::script::x"]);
}

#[test]
fn lower_layers_super_comments_strings_and_tests_are_no_breach() {
    let files = fake(&[
        (
            "cli/play.rs",
            "use crate::session::line::Parsed;\nuse crate::analysis::sim;\nuse super::command;\n",
        ),
        (
            "host/unit.rs",
            concat!(
                "//! See [`crate::cli::command`].\n",
                "use super::geometry::Point; // not crate::cli\n",
                "/* crate::cli::main() */\n",
                "const S: &str = \"crate::cli::main\";\n",
                "const R: &str = r#\"crate::cli \"quoted\" \"#;\n",
                "const Q: char = '\"';\n",
                "fn f<'a>(x: &'a str) -> &'a str { x }\n",
                "impl Unit {\n",
                "    #[cfg(test)]\n",
                "    fn figure() -> Self { crate::cli::main() }\n",
                "    fn label(&self) -> &str { crate::host::geometry::x() }\n",
                "}\n",
                "#[cfg(test)]\n",
                "mod tests {\n",
                "    use crate::cli::command::render;\n",
                "}\n",
            ),
        ),
        ("lib.rs", "pub use crate::cli::main;\n"),
    ]);
    let breaches = layer_breaches(&files);
    assert!(breaches.is_empty(), "{breaches:?}");
    // The code after a test-only item is still read.
    let code = strip(&files[1].text).code;
    assert_eq!(crate_paths(&code[10]), [["host", "geometry", "x"]]);
    assert!(
        code[9].is_empty(),
        "the test-only item was read: {:?}",
        code[9]
    );
}

#[test]
fn a_file_outside_the_layers_is_a_breach() {
    let files = fake(&[("render/svg.rs", "fn f() {}\n")]);
    assert_eq!(layer_breaches(&files)[0].name, "render");
}

#[test]
fn rhai_in_game_is_a_breach_but_not_a_script_file_name() {
    let files = fake(&[
        (
            "game/ruleset.rs",
            "// Rules are rhai scripts.\nlet p = format!(\"{name}.rhai\");\nuse rhai::Dynamic;\n",
        ),
        ("script/engine.rs", "use rhai::Engine;\n"),
    ]);
    let breaches = rhai_breaches(&files);
    assert_eq!(breaches.len(), 1, "{breaches:?}");
    assert_eq!(
        (breaches[0].file.as_str(), breaches[0].line),
        ("game/ruleset.rs", 3)
    );
}

#[test]
fn modules_that_use_each_other_are_a_cycle() {
    let files = fake(&[
        (
            "game/state.rs",
            "use crate::game::event::Event;\nuse crate::host::rng::GameRng;\n",
        ),
        ("game/event.rs", "use crate::game::scenario::Scenario;\n"),
        (
            "game/scenario.rs",
            "fn f() { crate::game::state::GameState::new(); }\n",
        ),
        ("host/rng.rs", "use crate::error::Error;\n"),
        // A domain of the API and the API's mod.rs are one module at this grain.
        ("script/api/mod.rs", "use crate::script::api::dice::x;\n"),
        ("script/api/dice.rs", "use crate::script::api::Shared;\n"),
    ]);
    let cycles = module_cycles(&files);
    assert_eq!(cycles.len(), 1, "{cycles:?}");
    assert_eq!(
        cycles[0].0,
        ["game::event", "game::scenario", "game::state"]
    );
    assert_eq!(cycles[0].1.len(), 3);
}

#[test]
fn a_ruleset_word_in_code_is_a_breach_in_any_case() {
    let files = fake(&[(
        "session/command.rs",
        concat!(
            "// melee viking_1 legionary_1\n",
            "const HELP: &str = \"e.g. `:show Viking_1`\";\n",
            "fn melee_reach() {}\n",
            "#[cfg(test)]\n",
            "mod tests { const T: &str = \"testudo\"; }\n",
        ),
    )]);
    let found: Vec<(usize, String)> = ruleset_word_breaches(&files)
        .into_iter()
        .map(|b| (b.line, b.name))
        .collect();
    assert_eq!(found, [(2, "viking".to_string()), (3, "melee".to_string())]);
}

#[test]
fn exceptions_cover_their_breaches_and_stale_ones_are_named() {
    let files = fake(&[(
        "game/project.rs",
        "const S: &str = \"romans_vs_vikings.yaml\";\n",
    )]);
    let exceptions = [
        ("game/project.rs", "viking", "the default scenario"),
        ("game/project.rs", "melee", "fixed since"),
    ];
    let (left, stale) = without_exceptions(ruleset_word_breaches(&files), &exceptions);
    assert!(left.is_empty(), "{left:?}");
    assert_eq!(stale, [&exceptions[1]]);
}
