//! What the documentation must say, and must not.

mod common;

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
// sandtable loads as it declares itself: its three files, made as the guide says, check as
// the guide shows, and its seeded turn plays as shown. (A guide whose ruleset declared no
// stats would teach one that no longer loads.)
#[test]
fn the_guides_whole_ruleset_checks_and_plays_as_it_shows() {
    let guide = std::fs::read_to_string(common::project().join("docs/writing-a-ruleset.md"))
        .expect("the guide");
    let ws = common::Workspace::new();
    let mut made = 0;
    let mut rest = guide.as_str();
    while let Some(at) = rest.find("\n`my-project/") {
        rest = &rest[at + 2..];
        let name = &rest[..rest.find('`').expect("the file name's closing backtick")];
        let body = &rest[rest.find("```").expect("the file's block")..];
        let body = &body[body.find('\n').expect("the block's first line") + 1..];
        let body = &body[..body.find("```").expect("the block's end")];
        ws.write(name, body);
        made += 1;
    }
    assert_eq!(made, 3, "the guide makes three files");
    let shown = |start: &str| {
        let text = &guide[guide.find(start).expect("the shown run")..];
        let text = &text[text.find('\n').expect("the command's line") + 1..];
        text[..text.find("```").expect("the run's end")].to_string()
    };
    let run = |args: &[&str], stdin: Option<&str>| {
        common::run_program(common::BINARY, ws.path(), args, stdin)
    };
    let check = run(
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
    assert_eq!(
        check.stdout,
        shown("$ sandtable check --project my-project my-project/scenarios my-project/scripts")
    );
    let played = run(
        &[
            "play",
            "my-project/scenarios/farmyard.yaml",
            "--project",
            "my-project",
            "--seed",
            "1",
        ],
        Some("shoot ann bob\n"),
    );
    played.expect_code(0);
    let turn =
        shown("$ sandtable play my-project/scenarios/farmyard.yaml --project my-project --seed 1");
    assert!(
        turn.starts_with(&played.stdout),
        "the guide shows\n{turn}\nbut the turn plays\n{}",
        played.stdout
    );
}

// Guards that the guide to house rules shows `sandtable hooks` as it prints: each line of its
// excerpt is a line of the command's output.
#[test]
fn the_house_rules_guide_shows_sandtable_hooks_as_it_prints() {
    let guide =
        std::fs::read_to_string(common::project().join("docs/house-rules.md")).expect("the guide");
    let start = guide
        .find("$ sandtable hooks playmobil\n")
        .expect("the guide shows `sandtable hooks playmobil`");
    let shown = &guide[start..];
    let shown = &shown[..shown.find("```").expect("the excerpt's end")];
    let out = common::sandtable(&["hooks", "playmobil"], None);
    out.expect_code(0);
    let printed: Vec<&str> = out.stdout.lines().collect();
    for line in shown.lines().skip(1).filter(|l| *l != "...") {
        assert!(
            printed.contains(&line),
            "`sandtable hooks playmobil` does not print the guide's line\n{line}\n--- it prints ---\n{}",
            out.stdout
        );
    }
}
