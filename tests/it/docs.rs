//! What the documentation must say, and must not.

use crate::common;

use std::path::{Path, PathBuf};

/// Every text file under `path` (or `path` itself), at any depth.
fn files(path: &Path) -> Vec<PathBuf> {
    if path.is_file() {
        return vec![path.to_path_buf()];
    }
    let mut all = Vec::new();
    for entry in std::fs::read_dir(path).into_iter().flatten().flatten() {
        all.extend(files(&entry.path()));
    }
    all
}

// Guards that the rulebooks are cited by title and author: the folder their texts are kept
// in beside the repository is not part of it, so a path into it (or a rulebook's file number
// there) means nothing to a reader of the repository.
#[test]
fn rulebooks_are_cited_by_title_not_by_a_folder_outside_the_repository() {
    // Assembled, so that this file does not find itself.
    let forbidden = [concat!("seeds", "/"), concat!("rulebook ", "00")];
    let mut found = Vec::new();
    for top in [
        "README.md",
        "CHANGELOG.md",
        "docs",
        "scripts",
        "src",
        "tests",
        "examples",
        "benches",
        "scenarios",
    ] {
        for file in files(&common::project().join(top)) {
            let Ok(text) = std::fs::read_to_string(&file) else {
                continue;
            };
            for (n, line) in text.lines().enumerate() {
                if forbidden.iter().any(|f| line.contains(f)) {
                    found.push(format!("{}:{}: {line}", file.display(), n + 1));
                }
            }
        }
    }
    assert!(found.is_empty(), "{}", found.join("\n"));
}

// Guards the README's installation notes: how to install the command, and the minimum Rust
// version, the one Cargo.toml declares.
#[test]
fn readme_says_how_to_install_and_the_minimum_rust_version() {
    let readme = std::fs::read_to_string(common::project_file("README.md")).expect("README");
    let manifest = std::fs::read_to_string(common::project_file("Cargo.toml")).expect("manifest");
    let version = manifest
        .lines()
        .find_map(|l| l.strip_prefix("rust-version = "))
        .expect("a rust-version in Cargo.toml")
        .trim_matches('"');
    assert!(readme.contains("cargo install --path ."), "no install step");
    assert!(
        readme.contains(&format!("Rust {version} or later")),
        "the README does not say `Rust {version} or later`"
    );
}

// Guards the worked example of docs/abilities.md: it showed a Testudo whose arrow immunity
// was another formula than the script's. The listing is now the script itself, less its
// `//!` header.
#[test]
fn the_testudo_of_the_abilities_guide_is_the_script() {
    let guide = std::fs::read_to_string(common::project_file("docs/abilities.md"))
        .expect("the abilities guide");
    let script = std::fs::read_to_string(common::project_file(
        "scripts/rulesets/playmobil/abilities/testudo.rhai",
    ))
    .expect("the Testudo");
    let body: String = script
        .lines()
        .skip_while(|l| l.starts_with("//!") || l.is_empty())
        .map(|l| format!("{l}\n"))
        .collect();
    let start = guide
        .find("`scripts/rulesets/playmobil/abilities/testudo.rhai`:\n\n```rhai\n")
        .expect("the listing's heading");
    let listing = &guide[start..];
    let listing = &listing[listing.find("```rhai\n").expect("a listing") + 8..];
    let listing = &listing[..listing.find("```").expect("its end")];
    assert_eq!(listing, body);
}

// Guards docs/security.md against naming tests that do not exist: each limit there names
// the test that guards it (`tests/FILE.rs` `test_name`, or `hostile/CASE` for a case of the
// hostile corpus), and a renamed or removed test would leave the limit unguarded unseen.
#[test]
fn every_test_the_security_page_names_exists() {
    let root = common::project();
    let page = std::fs::read_to_string(root.join("docs/security.md")).expect("docs/security.md");
    let mut missing = Vec::new();
    let mut checked = 0;
    for line in page.lines() {
        // The names in backticks, in order, each with the text just before it.
        let pieces: Vec<&str> = line.split('`').collect();
        // Where the names that follow belong: a source file, or the corpus.
        let mut context: Option<String> = None;
        for i in (1..pieces.len()).step_by(2) {
            let (before, name) = (pieces[i - 1], pieces[i]);
            // A list goes on only through ", " or the space after its file.
            if ![", ", " "].contains(&before) {
                context = None;
            }
            if (name.starts_with("tests/") || name.starts_with("src/")) && name.ends_with(".rs") {
                if !root.join(name).is_file() {
                    missing.push(format!("{name} (no such file)"));
                }
                context = Some(name.to_string());
                continue;
            }
            let (file, name) = match name.strip_prefix("hostile/") {
                Some(case) => {
                    context = Some("hostile".to_string());
                    ("hostile".to_string(), case)
                }
                None => match &context {
                    Some(file) => (file.clone(), name),
                    None => continue,
                },
            };
            if !name
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
            {
                // `loop_*`, a family of cases, or `NAME`, a placeholder.
                continue;
            }
            checked += 1;
            let exists = if file == "hostile" {
                ["rhai", "lines"]
                    .iter()
                    .any(|ext| root.join(format!("tests/hostile/{name}.{ext}")).is_file())
            } else {
                std::fs::read_to_string(root.join(&file))
                    .is_ok_and(|text| text.contains(&format!("fn {name}(")))
            };
            if !exists {
                missing.push(format!("{file}: {name}"));
            }
        }
    }
    assert!(
        checked > 50,
        "only {checked} tests found named in docs/security.md"
    );
    assert!(
        missing.is_empty(),
        "docs/security.md names tests that do not exist:\n{}",
        missing.join("\n")
    );
}

// Guards that a ruleset's page lists its hooks as they are: the table between the markers is
// what `sandtable hooks NAME --markdown` prints from the ruleset's declarations and scripts
// (the Soldiers in Time table once lacked `on_killed` and `on_routed`).
#[test]
fn each_rulesets_hook_table_is_what_sandtable_hooks_prints() {
    for name in ["playmobil", "soldiers_in_time"] {
        let page = common::project().join(format!("docs/rulesets/{name}.md"));
        let text = std::fs::read_to_string(&page).expect("the ruleset's page");
        let begin = text
            .find("<!-- the hooks:")
            .and_then(|i| text[i..].find('\n').map(|j| i + j + 1))
            .unwrap_or_else(|| panic!("{} has no hook table's opening marker", page.display()));
        let end = text
            .find("\n<!-- end of the hooks -->")
            .unwrap_or_else(|| panic!("{} has no hook table's closing marker", page.display()));
        let out = common::sandtable(&["hooks", name, "--markdown"], None);
        out.expect_code(0);
        assert_eq!(
            &text[begin..end],
            out.stdout.trim_end(),
            "the hook table of {} is not what `sandtable hooks {name} --markdown` prints: put \
             its output between the markers",
            page.display()
        );
    }
}

// Guards that the whole ruleset of the guide to writing one (Bare Skirmish) is a ruleset
// sandtable loads as it declares itself: its three files, made as the guide says, check
// without a problem. (A guide whose ruleset declared no stats would teach one that no longer
// loads.) What its runs print is replayed with the other transcripts, below.
#[test]
fn the_guides_whole_ruleset_checks() {
    let guide = std::fs::read_to_string(common::project().join("docs/writing-a-ruleset.md"))
        .expect("the guide");
    let ws = common::Workspace::new();
    let files = common::transcript::shown_files(&guide);
    for (name, body) in &files {
        ws.write(name, body);
    }
    assert_eq!(files.len(), 3, "the guide makes three files");
    let check = common::run_program(
        common::BINARY,
        ws.path(),
        &[
            "check",
            "--project",
            "my-project",
            "my-project/scenarios",
            "my-project/scripts",
        ],
        None,
    );
    check.expect_code(0);
}

/// The documents whose transcripts are replayed: the README and every page under `docs/`.
fn documents() -> Vec<String> {
    let root = common::project();
    let mut all = vec!["README.md".to_string()];
    for file in files(&root.join("docs")) {
        if file.extension().is_some_and(|e| e == "md") {
            let rel = file.strip_prefix(&root).expect("a file of the project");
            all.push(rel.display().to_string());
        }
    }
    all.sort();
    all
}

// Guards every transcript the documentation shows against drifting from the program: each
// block marked `<!-- replay -->` is run again, and must show what the program prints
// (docs/testing.md). `UPDATE_GOLDEN=1` rewrites the blocks in place instead, so that a rule
// change that alters a seeded run is carried into the docs with one command, in the diff.
#[test]
fn every_replayed_transcript_in_the_docs_is_what_the_program_prints() {
    let update = std::env::var_os("UPDATE_GOLDEN").is_some_and(|v| v == "1");
    let mut failures = Vec::new();
    let mut replayed = 0;
    for doc in documents() {
        let (rewritten, differ, count) = common::transcript::replay_document(&doc);
        replayed += count;
        if update && !differ.is_empty() {
            std::fs::write(common::project().join(&doc), rewritten).expect("the document");
            continue;
        }
        for (line, shown, printed) in differ {
            failures.push(format!(
                "{doc}:{line}: the block shows\n{shown}--- but the program prints ---\n{printed}"
            ));
        }
    }
    assert!(replayed >= 10, "only {replayed} blocks are replayed");
    assert!(
        failures.is_empty(),
        "{}\n(run `UPDATE_GOLDEN=1 cargo test --test it docs::replayed` to rewrite the blocks, and \
         look at the diff)",
        failures.join("\n\n")
    );
}

/// Documents whose transcripts are not marked yet: other work changes them as this is
/// written. Mark their blocks and empty the list.
const NOT_YET_MARKED: &[&str] = &["docs/rulesets/playmobil.md"];

// Guards that no transcript escapes the replay: a block that shows a line typed at the
// prompt (`turn 1 · vikings > ...`, `> ...`) or a command of sandtable (`$ sandtable ...`)
// is marked `<!-- replay -->`, or `<!-- not replayed: WHY -->` where it cannot be (a
// terminal's own behaviour, an edit of a file, an example of an error shape).
#[test]
fn every_transcript_in_the_docs_is_replayed_or_says_why_not() {
    let mut unmarked = Vec::new();
    for doc in documents() {
        // docs/api.md is made from the code's doc comments, its examples checked by
        // tests/it/api_docs.rs.
        if NOT_YET_MARKED.contains(&doc.as_str()) || doc == "docs/api.md" {
            continue;
        }
        let text = std::fs::read_to_string(common::project().join(&doc)).expect("the document");
        for (body, line, before) in common::transcript::fenced_blocks(&text) {
            let body = &text[body];
            let transcript = body.lines().any(|l| {
                l.starts_with("> ")
                    || l.starts_with("$ sandtable")
                    || (l.starts_with("$ ") && l.contains("| sandtable"))
                    || (l.starts_with("turn ") && l.contains(" · ") && l.contains(" > "))
            });
            let before = before.trim();
            if transcript
                && !before.starts_with(common::transcript::MARKER)
                && !before.starts_with(common::transcript::NOT_REPLAYED)
            {
                unmarked.push(format!(
                    "{doc}:{line}: {}",
                    body.lines().next().unwrap_or("")
                ));
            }
        }
    }
    assert!(
        unmarked.is_empty(),
        "transcripts neither replayed nor said not to be (docs/testing.md):\n{}",
        unmarked.join("\n")
    );
}

/// The README.
fn readme() -> String {
    std::fs::read_to_string(common::project_file("README.md")).expect("README")
}

// Guards that the README's first game can be played again: its prose says the seed its
// replayed transcript is played with.
#[test]
fn the_readmes_first_game_says_its_seed() {
    let text = readme();
    let block = common::transcript::blocks(&text)
        .into_iter()
        .next()
        .expect("the README replays its first game");
    let command = block.command.as_deref().expect("the first game's command");
    let seed = command
        .split_whitespace()
        .skip_while(|w| *w != "--seed")
        .nth(1)
        .expect("the first game is seeded");
    // The paragraph that introduces the block.
    let before = &text[..block.body.start];
    let before = &before[..before
        .rfind(common::transcript::MARKER)
        .expect("the block's marker")];
    let paragraph = &before[before.trim_end().rfind("\n\n").unwrap_or(0)..];
    assert!(
        paragraph.contains(&format!("--seed {seed}")),
        "the README's first game does not say its seed ({seed}):{paragraph}"
    );
}

// Guards that the README names as shipped only the rulebooks that ship: every title in
// italics in its opening section is that of a ruleset under scripts/rulesets (Tiny Soldiers
// and The Tin Army were once said to "follow", as if they came with it).
#[test]
fn the_readme_names_as_shipped_only_rulesets_that_ship() {
    let text = readme();
    let opening = &text[..text.find("\n## ").expect("a first section")];
    let mut shipped = Vec::new();
    for entry in std::fs::read_dir(common::project().join("scripts/rulesets"))
        .expect("the rulesets")
        .flatten()
    {
        let Ok(yaml) = std::fs::read_to_string(entry.path().join("ruleset.yaml")) else {
            continue;
        };
        let name = yaml
            .lines()
            .find_map(|l| l.strip_prefix("name: "))
            .expect("a ruleset's name");
        shipped.push(name.trim().trim_matches('"').to_string());
    }
    // Titles in italics: `*` after a space or a line's start, a capital, up to the next `*`.
    let mut titles = Vec::new();
    let mut rest = opening;
    while let Some(at) = rest.find('*') {
        let after = &rest[at + 1..];
        let starts = at == 0 || rest[..at].ends_with([' ', '\n', '(']);
        match after.find('*') {
            Some(end) if starts && after.starts_with(|c: char| c.is_ascii_uppercase()) => {
                titles.push(&after[..end]);
                rest = &after[end + 1..];
            }
            _ => rest = after,
        }
    }
    assert!(!titles.is_empty(), "the README names no rulebook");
    for title in &titles {
        assert!(
            shipped.iter().any(|name| title.contains(name.as_str())),
            "the README names *{title}*, which is none of the rulesets that ship ({})",
            shipped.join(", ")
        );
    }
    for name in &shipped {
        assert!(
            titles.iter().any(|t| t.contains(name.as_str())),
            "the README does not name {name}"
        );
    }
}

// Guards the README's table of commands: a row for each command `sandtable --help` lists,
// and none that promises a later issue (the `render` row did).
#[test]
fn the_readmes_command_table_has_every_command_and_promises_nothing() {
    let text = readme();
    let help = common::sandtable(&["--help"], None);
    help.expect_code(0);
    let commands: Vec<&str> = help
        .stdout
        .lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|c| *c != "help")
        .collect();
    assert!(
        commands.len() > 5,
        "no commands in `--help`: {}",
        help.stdout
    );
    let rows: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("| `sandtable"))
        .collect();
    for command in commands {
        assert!(
            rows.iter()
                .any(|r| r.starts_with(&format!("| `sandtable {command}"))),
            "the README's table has no row for `sandtable {command}`"
        );
    }
    for row in rows {
        assert!(!row.contains("later issue"), "the README promises: {row}");
    }
}

// Guards the prompt guide's hot reload: the message it shows is what `:reload` prints on the
// default scenario (it once counted 30 verbs where there were 21).
#[test]
fn the_prompt_guides_reload_message_is_what_reload_prints() {
    let guide = std::fs::read_to_string(common::project_file("docs/prompt.md")).expect("guide");
    let out = common::sandtable(&["play", "--seed", "1"], Some(":reload\n"));
    out.expect_code(0);
    let printed = out
        .stdout
        .lines()
        .find(|l| l.starts_with("reloaded the scripts:"))
        .expect("`:reload` says what it reloaded");
    let mut shown = 0;
    for line in guide.lines() {
        if let Some(at) = line.find("reloaded the scripts:") {
            shown += 1;
            assert_eq!(&line[at..], printed, "docs/prompt.md shows\n{line}");
        }
    }
    assert!(shown > 0, "docs/prompt.md shows no reload");
}

// Guards the limits the README and the prompt guide state in their prose: each is the
// number in `src/limits.rs` (docs/security.md lists every one, with its test).
#[test]
fn the_limits_the_readme_and_the_prompt_guide_state_are_the_programs() {
    use sandtable::limits::*;
    let mib = |bytes: usize| format!("{} MiB", bytes >> 20);
    let stated = [
        (
            "README.md",
            format!(
                "At most {} dice in one roll",
                common::with_commas(MAX_DICE.into())
            ),
        ),
        (
            "README.md",
            format!("1 to {}\nsides", common::with_commas(MAX_SIDES.into())),
        ),
        (
            "README.md",
            format!(
                "at most {} changes and log entries",
                common::with_commas((MAX_RECORDS_PER_ACTION as u64) as u128)
            ),
        ),
        (
            "README.md",
            format!("at most {} of log text", mib(MAX_LOG_BYTES_PER_ACTION)),
        ),
        (
            "docs/prompt.md",
            format!(
                "One entry is at most {} ({} bytes)",
                mib(MAX_SCRIPT_BYTES),
                common::with_commas((MAX_SCRIPT_BYTES as u64) as u128)
            ),
        ),
        (
            "docs/prompt.md",
            format!(
                "keeps at most {} functions, and the entries that define them add up to at most {}",
                common::with_commas((MAX_PROMPT_FUNCTIONS as u64) as u128),
                mib(MAX_PROMPT_FUNCTION_BYTES)
            ),
        ),
        (
            "docs/prompt.md",
            format!(
                "prompt keeps at most {MAX_PROMPT_FUNCTIONS} functions, and this would make {}",
                MAX_PROMPT_FUNCTIONS + 1
            ),
        ),
    ];
    for (doc, phrase) in stated {
        let text = std::fs::read_to_string(common::project_file(doc)).expect("the document");
        assert!(
            text.contains(&phrase),
            "{doc} does not say `{phrase}`, as src/limits.rs has it"
        );
    }
}

// Guards the count in the abilities guide's "three sentences of the rulebook, three hooks":
// the Testudo answers that many hooks (every function but `meta`).
#[test]
fn the_abilities_guide_counts_the_testudos_hooks() {
    let guide = std::fs::read_to_string(common::project_file("docs/abilities.md")).expect("guide");
    let script = std::fs::read_to_string(common::project_file(
        "scripts/rulesets/playmobil/abilities/testudo.rhai",
    ))
    .expect("the Testudo");
    let hooks = script
        .lines()
        .filter(|l| l.starts_with("fn ") && !l.starts_with("fn meta("))
        .count();
    let words = ["none", "one", "two", "three", "four", "five", "six"];
    let word = words.get(hooks).expect("a small number of hooks");
    let capital = format!("{}{}", word[..1].to_uppercase(), &word[1..]);
    assert!(
        guide.contains(&format!(
            "{capital} sentences of the rulebook, {word} hooks"
        )),
        "docs/abilities.md does not say the Testudo answers {word} hooks"
    );
}

/// A constant's value as `src/limits.rs` writes it.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Limit {
    Number(f64),
    Seconds(f64),
}

/// Reads `pub const NAME: TYPE = EXPR;` from `src/limits.rs`, in order, each with its value:
/// EXPR is numbers (`100_000`, `100_000.0`), earlier constants, `Duration::from_secs(N)` or
/// `from_millis(N)`, brackets, and `<<`, `*`, `/`, `+`, `-`.
fn limits_of(source: &str) -> Result<Vec<(String, Limit)>, String> {
    let mut out: Vec<(String, Limit)> = Vec::new();
    let mut rest = source;
    while let Some(at) = rest.find("\npub const ") {
        rest = &rest[at + "\npub const ".len()..];
        let end = rest.find(';').ok_or("a `pub const` without `;`")?;
        let (decl, expr) = rest[..end]
            .split_once('=')
            .ok_or("a `pub const` without `=`")?;
        let name = decl.split(':').next().unwrap_or("").trim().to_string();
        let tokens = tokenize(expr);
        let mut pos = 0;
        let value = expression(&tokens, &mut pos, &out, 0)
            .map_err(|e| format!("`{name}`: {e} in `{}`", expr.trim()))?;
        if pos != tokens.len() {
            return Err(format!("`{name}`: cannot read `{}`", expr.trim()));
        }
        out.push((name, value));
    }
    Ok(out)
}

fn tokenize(expr: &str) -> Vec<String> {
    let mut tokens = Vec::new();
    let mut chars = expr.chars().peekable();
    while let Some(&c) = chars.peek() {
        if c.is_whitespace() {
            chars.next();
        } else if c.is_alphanumeric() || c == '_' || c == '.' || c == ':' {
            let mut t = String::new();
            while let Some(&c) = chars.peek() {
                if c.is_alphanumeric() || c == '_' || c == '.' || c == ':' {
                    t.push(c);
                    chars.next();
                } else {
                    break;
                }
            }
            tokens.push(t);
        } else if c == '<' {
            chars.next();
            chars.next();
            tokens.push("<<".into());
        } else {
            tokens.push(c.to_string());
            chars.next();
        }
    }
    tokens
}

/// An expression of operators binding at least as tightly as `level` (0: `+ -`, 1: `<<`,
/// 2: `* /`), Rust's order.
fn expression(
    t: &[String],
    pos: &mut usize,
    known: &[(String, Limit)],
    level: u8,
) -> Result<Limit, String> {
    if level > 2 {
        return atom(t, pos, known);
    }
    let ops: &[&str] = match level {
        0 => &["+", "-"],
        1 => &["<<"],
        _ => &["*", "/"],
    };
    // `<<` binds less tightly than `+` in Rust; the constants never mix them.
    let mut left = expression(t, pos, known, level + 1)?;
    while let Some(op) = t.get(*pos).filter(|o| ops.contains(&o.as_str())) {
        let op = op.clone();
        *pos += 1;
        let right = expression(t, pos, known, level + 1)?;
        let (Limit::Number(a), Limit::Number(b)) = (left, right) else {
            return Err("arithmetic on a duration".into());
        };
        left = Limit::Number(match op.as_str() {
            "+" => a + b,
            "-" => a - b,
            "<<" => a * 2f64.powf(b),
            "*" => a * b,
            _ => a / b,
        });
    }
    Ok(left)
}

fn atom(t: &[String], pos: &mut usize, known: &[(String, Limit)]) -> Result<Limit, String> {
    let token = t.get(*pos).ok_or("an expression ends too soon")?.clone();
    *pos += 1;
    if token == "(" {
        let v = expression(t, pos, known, 0)?;
        return (t.get(*pos).map(String::as_str) == Some(")"))
            .then(|| *pos += 1)
            .map(|()| v)
            .ok_or_else(|| "a bracket not closed".to_string());
    }
    if let Some(unit) = token.strip_prefix("Duration::from_") {
        let per = match unit {
            "secs" => 1.0,
            "millis" => 1e-3,
            _ => return Err(format!("unknown `{token}`")),
        };
        let inner = atom(t, pos, known)?;
        let Limit::Number(n) = inner else {
            return Err("a duration of a duration".into());
        };
        return Ok(Limit::Seconds(n * per));
    }
    let digits: String = token.chars().filter(|c| *c != '_').collect();
    // A typed literal (`1_000u64`, `2.5f64`) loses its suffix.
    let number = digits
        .find(|c: char| c.is_alphabetic())
        .map_or(digits.as_str(), |i| &digits[..i]);
    if let Ok(n) = number.parse::<f64>() {
        return Ok(Limit::Number(n));
    }
    known
        .iter()
        .find(|(name, _)| *name == token)
        .map(|(_, v)| *v)
        .ok_or(format!("unknown `{token}`"))
}

/// The numbers a page writes outside backticks, each with where it ends and its value: digits
/// with commas between groups of three (`1,048,576`), a decimal part, and a unit that scales
/// it (`1 MiB`, `64 KiB`) or makes it a duration (`2 seconds`, `10s`).
fn numbers_written(text: &str) -> Vec<(usize, Limit)> {
    let mut out = Vec::new();
    let bytes = text.as_bytes();
    // As Markdown has it, a run of backticks opens a code span that only a run of the same
    // length closes (``` `` a `b` `` ``` is one span).
    let mut code: Option<usize> = None;
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        if c == b'`' {
            let run = bytes[i..].iter().take_while(|b| **b == b'`').count();
            match code {
                None => code = Some(run),
                Some(open) if open == run => code = None,
                Some(_) => {}
            }
            i += run;
            continue;
        }
        let starts = c.is_ascii_digit() && (i == 0 || !bytes[i - 1].is_ascii_alphanumeric());
        if code.is_some() || !starts {
            i += 1;
            continue;
        }
        let mut j = i;
        let mut digits = String::new();
        // Digits, then `,ddd` groups (a comma followed by other than three digits ends it).
        while j < bytes.len() && bytes[j].is_ascii_digit() {
            digits.push(bytes[j] as char);
            j += 1;
        }
        while j + 3 < bytes.len()
            && bytes[j] == b','
            && bytes[j + 1..j + 4].iter().all(u8::is_ascii_digit)
            && bytes.get(j + 4).is_none_or(|b| !b.is_ascii_digit())
        {
            digits.push_str(&text[j + 1..j + 4]);
            j += 4;
        }
        if bytes.get(j) == Some(&b'.') && bytes.get(j + 1).is_some_and(u8::is_ascii_digit) {
            digits.push('.');
            j += 1;
            while j < bytes.len() && bytes[j].is_ascii_digit() {
                digits.push(bytes[j] as char);
                j += 1;
            }
        }
        let n: f64 = digits.parse().expect("digits");
        let after = &text[j..];
        let value = if after.starts_with(" MiB") {
            Limit::Number(n * f64::from(1 << 20))
        } else if after.starts_with(" KiB") {
            Limit::Number(n * 1024.0)
        } else if after.starts_with(" GiB") {
            Limit::Number(n * f64::from(1 << 30))
        } else if after.starts_with(" minute") {
            Limit::Seconds(n * 60.0)
        } else if after.starts_with(" second")
            || after.starts_with("s ")
            || after.starts_with("s)")
            || after.starts_with("s,")
        {
            Limit::Seconds(n)
        } else {
            Limit::Number(n)
        };
        out.push((j, value));
        i = j;
    }
    out
}

/// Where the rows of a page's tables name a constant of `names` as `` `NAME` ``: (line number,
/// name, the number written last before it in its cell, after any other constant it names).
fn limits_on_page<'a>(page: &str, names: &[&'a str]) -> Vec<(usize, &'a str, Option<Limit>)> {
    let mut out = Vec::new();
    for (n, line) in page.lines().enumerate() {
        if !line.starts_with('|') {
            continue;
        }
        for cell in line.split(" | ") {
            let mut from = 0;
            loop {
                let found = names
                    .iter()
                    .filter_map(|name| {
                        cell[from..]
                            .find(&format!("`{name}`"))
                            .map(|at| (from + at, *name))
                    })
                    .min();
                let Some((at, name)) = found else {
                    break;
                };
                // Read from the cell's start, so that a code span open at `from` is known.
                let before = numbers_written(&cell[..at])
                    .into_iter()
                    .rev()
                    .find(|(end, _)| *end > from)
                    .map(|(_, v)| v);
                out.push((n + 1, name, before));
                from = at + name.len() + 2;
            }
        }
    }
    out
}

// Guards docs/security.md's promise that it lists every limit with its number: each
// constant of `src/limits.rs`, read from the source so that a new one is found, is named in a
// row of the page's tables as `` `NAME` ``, and the number written last before the name is
// its value (`1 MiB`, `1,048,576`, `2 seconds`). A limit missing from the page, or a number
// on it that is not the constant's, fails.
#[test]
fn the_security_page_lists_every_limit_of_limits_rs_with_its_number() {
    let root = common::project();
    let source = std::fs::read_to_string(root.join("src/limits.rs")).expect("src/limits.rs");
    let page = std::fs::read_to_string(root.join("docs/security.md")).expect("docs/security.md");
    let limits = limits_of(&source).expect("the constants of src/limits.rs");
    // The reading of the source is checked against the constants the program has.
    use sandtable::limits as l;
    for (name, want) in [
        (
            "MAX_SCRIPT_BYTES",
            Limit::Number(l::MAX_SCRIPT_BYTES as f64),
        ),
        ("TIME_BUDGET", Limit::Seconds(l::TIME_BUDGET.as_secs_f64())),
        (
            "MAX_LOG_BYTES_PER_ACTION",
            Limit::Number(l::MAX_LOG_BYTES_PER_ACTION as f64),
        ),
        ("MAX_TEXT", Limit::Number(l::MAX_TEXT as f64)),
        ("MAX_PATH_STEPS", Limit::Number(l::MAX_PATH_STEPS)),
        ("MAX_OPERATIONS", Limit::Number(l::MAX_OPERATIONS as f64)),
    ] {
        let read = limits.iter().find(|(n, _)| n == name).map(|(_, v)| *v);
        assert_eq!(read, Some(want), "`{name}` read from src/limits.rs");
    }
    let names: Vec<&str> = limits.iter().map(|(n, _)| n.as_str()).collect();
    let shown = limits_on_page(&page, &names);
    let mut problems = Vec::new();
    for (name, value) in &limits {
        let rows: Vec<_> = shown.iter().filter(|(_, n, _)| n == name).collect();
        if !rows.iter().any(|(_, _, v)| v.is_some()) {
            problems.push(format!(
                "`{name}` ({value:?}) is not in a table of the page with its number before it"
            ));
        }
        for (line, _, written) in rows {
            if let Some(written) = written
                && written != value
            {
                problems.push(format!(
                    "line {line}: `{name}` is written {written:?}, but src/limits.rs has {value:?}"
                ));
            }
        }
    }
    assert!(
        problems.is_empty(),
        "docs/security.md and src/limits.rs disagree:\n{}",
        problems.join("\n")
    );
}

// Guards the reading of the test above: it must see through the ways numbers are written, so
// that it cannot pass for want of reading them.
#[test]
fn the_limits_page_check_reads_numbers_as_the_page_writes_them() {
    let limits = limits_of(
        "\npub const A: usize = 1 << 20;\npub const B: usize = 64 << 20;\npub const C: Duration = Duration::from_secs(2);\npub const D: f64 = 100_000.0;\npub const E: usize = 64 * 1024;\npub const F: usize = (A) * 2;\n",
    )
    .expect("the constants");
    let n = Limit::Number;
    assert_eq!(
        limits,
        [
            ("A".into(), n(1048576.0)),
            ("B".into(), n(67108864.0)),
            ("C".into(), Limit::Seconds(2.0)),
            ("D".into(), n(100000.0)),
            ("E".into(), n(65536.0)),
            ("F".into(), n(2097152.0)),
        ]
    );
    let written = |s: &str| {
        numbers_written(s)
            .into_iter()
            .map(|(_, v)| v)
            .collect::<Vec<_>>()
    };
    assert_eq!(
        written("1 MiB, 1,048,576 bytes, 10 seconds, 2s of time, 1,00 and `5000`, 7.5"),
        [
            n(1048576.0),
            n(1048576.0),
            Limit::Seconds(10.0),
            Limit::Seconds(2.0),
            n(1.0),
            n(0.0),
            n(7.5)
        ]
    );
    let page = "| a | 1,000 (`A`), then 64 MiB (`B`) |\n| b | 3 (`A`) | `B` |\nprose 9 (`A`)\n";
    assert_eq!(
        limits_on_page(page, &["A", "B"]),
        [
            (1, "A", Some(n(1000.0))),
            (1, "B", Some(n(67108864.0))),
            (2, "A", Some(n(3.0))),
            (2, "B", None),
        ]
    );
}
