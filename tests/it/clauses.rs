//! A ruleset's clause list (`scripts/rulesets/NAME/CLAUSES.md`) must be true to itself and to
//! the tests: every clause numbered in order with its four fields and at least one test,
//! every test it names a real `#[test]` in that file, and the totals and the two lists at its end the sums of its
//! entries. A clause list that drifts from the tests guards nothing.

use crate::common;

use std::collections::BTreeSet;
use std::path::Path;

/// One clause of a clause list, as written.
struct Clause {
    id: String,
    test: String,
    status: String,
}

impl Clause {
    fn guarded(&self) -> bool {
        !self.test.starts_with("none yet")
    }

    fn kind(&self) -> &str {
        self.status.split(':').next().unwrap_or_default().trim()
    }
}

/// The clause heading's id, `P-07` in `**P-07** One move a turn`.
fn clause_id(line: &str) -> Option<String> {
    let rest = line.strip_prefix("**")?;
    let (id, _) = rest.split_once("**")?;
    let (prefix, number) = id.split_once('-')?;
    let well_formed = !prefix.is_empty()
        && prefix.chars().all(|c| c.is_ascii_uppercase())
        && number.len() >= 2
        && number.chars().all(|c| c.is_ascii_digit());
    well_formed.then(|| id.to_string())
}

fn field<'a>(line: &'a str, name: &str) -> Option<&'a str> {
    line.strip_prefix(&format!("- **{name}**: "))
}

fn parse(text: &str) -> Vec<Clause> {
    let mut clauses: Vec<Clause> = Vec::new();
    let mut fields: Vec<(&str, String)> = Vec::new();
    let mut id: Option<String> = None;
    let mut finish = |id: Option<String>, fields: &mut Vec<(&str, String)>| {
        if let Some(id) = id {
            let get = |name: &str| {
                let found: Vec<&String> = fields
                    .iter()
                    .filter(|(n, _)| *n == name)
                    .map(|(_, v)| v)
                    .collect();
                assert_eq!(found.len(), 1, "{id} has {} `{name}` fields", found.len());
                found[0].clone()
            };
            get("where it lives");
            get("reading");
            clauses.push(Clause {
                test: get("test"),
                status: get("status"),
                id,
            });
        }
        fields.clear();
    };
    for line in text.lines() {
        if let Some(new) = clause_id(line) {
            finish(id.replace(new), &mut fields);
        } else if line.starts_with("## ") {
            finish(id.take(), &mut fields);
        } else if id.is_some() {
            for name in ["where it lives", "test", "reading", "status"] {
                if let Some(value) = field(line, name) {
                    fields.push((name, value.to_string()));
                }
            }
        }
    }
    finish(id, &mut fields);
    clauses
}

/// Every `tests/FILE.rs::name` a field names.
fn test_references(text: &str) -> Vec<(String, String)> {
    let mut found = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find("tests/") {
        rest = &rest[at + "tests/".len()..];
        let Some((file, after)) = rest.split_once(".rs::") else {
            continue;
        };
        if file.contains(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '/')) {
            continue;
        }
        let name: String = after
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        found.push((format!("tests/{file}.rs"), name));
    }
    found
}

/// Whether `source` holds a function `name` marked `#[test]`.
fn has_test(source: &str, name: &str) -> bool {
    let signature = format!("fn {name}(");
    source.match_indices(&signature).any(|(at, _)| {
        // The attributes right above the function's line.
        let before = &source[..source[..at].rfind('\n').unwrap_or(0)];
        let head: Vec<&str> = before
            .lines()
            .rev()
            .take_while(|l| l.trim_start().starts_with("#[") || l.trim_start().starts_with("//"))
            .collect();
        head.iter().any(|l| l.trim() == "#[test]")
    })
}

/// The numbers of the totals paragraph, in the order they are written.
fn totals(text: &str) -> Vec<usize> {
    let line = text
        .split("**Totals**:")
        .nth(1)
        .expect("a **Totals** paragraph")
        .split("\n\n")
        .next()
        .unwrap_or_default();
    line.split(|c: char| !c.is_ascii_digit())
        .filter(|w| !w.is_empty())
        .map(|w| w.parse().expect("a number"))
        .collect()
}

/// The clause ids written in the section headed `heading`, up to the next heading.
fn listed(text: &str, heading: &str) -> BTreeSet<String> {
    let section = text
        .split(&format!("## {heading}\n"))
        .nth(1)
        .unwrap_or_else(|| panic!("a section `## {heading}`"))
        .split("\n## ")
        .next()
        .unwrap_or_default();
    let mut ids = BTreeSet::new();
    for word in section.split(|c: char| !(c.is_ascii_alphanumeric() || c == '-')) {
        if let Some((prefix, number)) = word.split_once('-')
            && !prefix.is_empty()
            && prefix.chars().all(|c| c.is_ascii_uppercase())
            && !number.is_empty()
            && number.chars().all(|c| c.is_ascii_digit())
        {
            ids.insert(word.to_string());
        }
    }
    ids
}

fn check(root: &Path, path: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(path).expect("the clause list");
    let clauses = parse(&text);
    let mut wrong = Vec::new();
    let name = path.display();
    assert!(!clauses.is_empty(), "{name} lists no clause");

    // Numbered from 1, in order, once each.
    for (i, clause) in clauses.iter().enumerate() {
        let number: usize = clause.id.split_once('-').unwrap().1.parse().unwrap();
        if number != i + 1 {
            wrong.push(format!("{name}: {} is clause number {}", clause.id, i + 1));
        }
    }

    for clause in &clauses {
        if !["played as written", "default", "differs"].contains(&clause.kind()) {
            wrong.push(format!(
                "{name}: {} has status `{}`",
                clause.id, clause.status
            ));
        }
        if clause.kind() == "differs" && !clause.status.contains(':') {
            wrong.push(format!("{name}: {} differs without saying how", clause.id));
        }
        // "A test per clause, named after it."
        if !clause.guarded() {
            wrong.push(format!("{name}: {} has no test yet", clause.id));
        }
        let references = test_references(&clause.test);
        if clause.guarded() && references.is_empty() {
            wrong.push(format!(
                "{name}: {} names no test: `{}`",
                clause.id, clause.test
            ));
        }
        for (file, test) in references {
            let source = std::fs::read_to_string(root.join(&file)).unwrap_or_default();
            if !has_test(&source, &test) {
                wrong.push(format!(
                    "{name}: {} names {file}::{test}, no such test",
                    clause.id
                ));
            }
        }
    }

    let count = |f: &dyn Fn(&Clause) -> bool| clauses.iter().filter(|c| f(c)).count();
    let expected = vec![
        clauses.len(),
        count(&|c| c.guarded()),
        count(&|c| !c.guarded()),
        count(&|c| c.kind() == "played as written"),
        count(&|c| c.kind() == "default"),
        count(&|c| c.kind() == "differs"),
    ];
    let written = totals(&text);
    if written != expected {
        wrong.push(format!(
            "{name}: the totals say {written:?} (clauses, tested, untested, as written, default, differ), the entries {expected:?}"
        ));
    }

    let ids = |f: &dyn Fn(&Clause) -> bool| -> BTreeSet<String> {
        clauses
            .iter()
            .filter(|c| f(c))
            .map(|c| c.id.clone())
            .collect()
    };
    let differ = ids(&|c| c.kind() == "differs");
    let listed_differ = listed(&text, "The clauses that differ");
    if differ != listed_differ {
        wrong.push(format!(
            "{name}: the clauses that differ are {differ:?}, the list at the end says {listed_differ:?}"
        ));
    }
    let untested = ids(&|c| !c.guarded());
    let listed_untested = listed(&text, "The clauses no test guards yet");
    if untested != listed_untested {
        wrong.push(format!(
            "{name}: the clauses without a test are {untested:?}, the list at the end says {listed_untested:?}"
        ));
    }
    wrong
}

#[test]
fn every_clause_list_agrees_with_its_entries_and_the_tests() {
    let root = common::project();
    let mut lists = Vec::new();
    for entry in std::fs::read_dir(root.join("scripts/rulesets")).expect("the rulesets") {
        let path = entry.expect("a ruleset").path().join("CLAUSES.md");
        if path.is_file() {
            lists.push(path);
        }
    }
    assert!(!lists.is_empty(), "no ruleset has a CLAUSES.md");
    let wrong: Vec<String> = lists.iter().flat_map(|l| check(&root, l)).collect();
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

// The checker itself, on a small clause list with one mistake of each kind.
#[test]
fn clause_list_checker_finds_each_kind_of_mistake() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    std::fs::create_dir_all(dir.path().join("tests")).unwrap();
    std::fs::write(
        dir.path().join("tests/t.rs"),
        "#[test]\nfn real() {}\nfn helper() {}\n",
    )
    .unwrap();
    let list = dir.path().join("CLAUSES.md");
    let text = "**Totals**: 3 clauses; 2 guarded by a test, 1 with none yet; 1 played as written, 1 played with a default, and 1 that differ from the book.\n\n\
## I\n\n\
**X-01** One\n> \"words\"\n\n- **where it lives**: a\n- **test**: tests/t.rs::real\n- **reading**: —\n- **status**: played as written\n\n\
**X-03** Two\n> \"words\"\n\n- **where it lives**: a\n- **test**: tests/t.rs::helper, tests/t.rs::gone\n- **reading**: —\n- **status**: maybe\n\n\
**X-04** Three\n> \"words\"\n\n- **where it lives**: a\n- **test**: none yet\n- **reading**: —\n- **status**: differs\n\n\
## The clauses that differ\n\n| X-01 | no |\n\n\
## The clauses no test guards yet\n\nX-04.\n";
    std::fs::write(&list, text).unwrap();
    let wrong = check(dir.path(), &list).join("\n");
    for mistake in [
        "X-03 is clause number 2",
        "X-04 is clause number 3",
        "X-03 has status `maybe`",
        "X-04 differs without saying how",
        "X-03 names tests/t.rs::helper, no such test",
        "X-03 names tests/t.rs::gone, no such test",
        "the totals say",
        "the clauses that differ are {\"X-04\"}",
        "X-04 has no test yet",
    ] {
        assert!(wrong.contains(mistake), "missed `{mistake}` in:\n{wrong}");
    }
    assert!(!wrong.contains("X-01 names"), "{wrong}");
    assert!(!wrong.contains("X-01 has no test"), "{wrong}");
    assert!(!wrong.contains("without a test are"), "{wrong}");
}
