//! Files shared between strangers (scenarios, house rules, saves, journals) and the files
//! sandtable writes: nothing outside the allowed folders is read, no file but the one named
//! is written or left behind, and no file makes the program panic or hang.

mod common;

use std::path::{Path, PathBuf};

use common::Workspace;

const SEED: &str = "7";

/// The journals in a workspace's data folder (`.data`, as the helpers set it), oldest first.
fn journals(ws: &Workspace) -> Vec<PathBuf> {
    let mut all: Vec<PathBuf> = std::fs::read_dir(ws.path().join(".data/journals"))
        .map(|d| d.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    all.sort();
    all
}

/// The default scenario's text.
fn default_scenario() -> String {
    std::fs::read_to_string(common::project_file("scenarios/romans_vs_vikings.yaml"))
        .expect("the default scenario")
}

/// A scenario whose third line has a mistake past column 70,000.
fn wide_scenario() -> String {
    format!(
        "name: wide\nruleset: playmobil\ndescription: \"{}\" junk: [\n",
        "a".repeat(70_000)
    )
}

// Guards the YAML error past column 65,535: miette panicked drawing its label ("Formatting
// argument out of range") in `check`, `play`, `:load` (killing the session) and `replay`.
#[test]
fn yaml_error_far_along_a_line_is_reported_without_a_panic() {
    let ws = Workspace::new();
    ws.write("wide.yaml", &wide_scenario());
    let expect = [
        "invalid trailing content after double-quoted scalar",
        "[wide.yaml:3:70017]",
    ];
    let out = ws.sandtable(&["check", "wide.yaml"], None);
    out.expect_code(1).stderr_has(&expect);
    assert!(
        out.stderr.len() < 4_000,
        "the whole line is shown:\n{}",
        out.stderr
    );
    ws.sandtable(&["play", "wide.yaml"], None)
        .expect_code(1)
        .stderr_has(&expect);
    let out = ws.sandtable(
        &["play", "--seed", SEED],
        Some(":load wide.yaml\nroll 1d6\n"),
    );
    // A piped session goes on after an error, and ends with status 1 for it.
    out.expect_code(1)
        .stderr_has(&expect)
        .stdout_has(&["> roll 1d6\n  1d6: ["]);
    let journal = journals(&ws).pop().expect("a journal");
    let replayed = ws.sandtable(&["replay", journal.to_str().expect("utf-8")], None);
    replayed.expect_code(1).stderr_has(&expect);
    assert_eq!(replayed.stdout, out.stdout);
    let json = ws.sandtable(&["--json", "check", "wide.yaml"], None);
    json.expect_code(1);
    assert!(
        json.stderr
            .contains(r#""file":"wide.yaml","line":3,"column":70017"#),
        "{}",
        json.stderr
    );
}
