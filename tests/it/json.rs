//! `--json`: every command prints JSON lines on standard output, and its errors as JSON lines
//! (`{"error": {...}}`) on standard error, so a tool reading them never meets plain text.

use crate::common;

use common::{Output, Workspace, json_lines, project_file, sandtable};
use serde_json::Value;

/// The error objects of a run's standard error, panicking on a line that is not one.
#[track_caller]
fn errors(out: &Output) -> Vec<Value> {
    let lines = json_lines(&out.stderr);
    for line in &lines {
        assert!(
            line["error"]["message"].is_string() || line["warning"]["message"].is_string(),
            "not an error or a warning: {line}"
        );
    }
    lines
        .into_iter()
        .filter_map(|l| l.get("error").cloned())
        .collect()
}

/// The one error of a run that failed with `code`, its standard output all JSON lines.
#[track_caller]
fn the_error(out: &Output, code: i32) -> Value {
    out.expect_code(code);
    json_lines(&out.stdout);
    let errors = errors(out);
    assert_eq!(errors.len(), 1, "{}", out.stderr);
    errors[0].clone()
}

// Guards `check --json`: a JSON line a file and one for the count (it printed `ok   ...`).
#[test]
fn check_with_json_prints_a_line_a_file_and_the_count() {
    let scenario = project_file("scenarios/romans_vs_vikings.yaml");
    let out = sandtable(&["check", &scenario, "--json"], None);
    out.expect_code(0);
    assert_eq!(out.stderr, "");
    let lines = json_lines(&out.stdout);
    assert_eq!(
        lines,
        vec![
            serde_json::json!({ "file": scenario, "ok": true, "kind": "scenario", "units": 20 }),
            serde_json::json!({ "files": 1, "problems": 0 }),
        ]
    );
}

// Guards `check --json` on a broken file: `ok: false` on standard output, and the problem as
// a JSON error pointing at its file, line and column on standard error.
#[test]
fn check_with_json_gives_each_problem_as_a_json_error() {
    let ws = Workspace::new();
    ws.write("broken.rhai", "fn ok() { 1 }\nlet x = ;\n");
    let out = ws.sandtable(&["check", "broken.rhai", "--json"], None);
    out.expect_code(1);
    assert_eq!(
        json_lines(&out.stdout),
        vec![
            serde_json::json!({ "file": "broken.rhai", "ok": false, "problems": 1 }),
            serde_json::json!({ "files": 1, "problems": 1 }),
        ]
    );
    let errors = errors(&out);
    assert_eq!(errors.len(), 1, "{}", out.stderr);
    let e = &errors[0];
    assert_eq!(e["code"], "sandtable::script");
    assert_eq!(e["file"], "broken.rhai");
    assert_eq!(
        (e["line"].as_u64(), e["column"].as_u64()),
        (Some(2), Some(9))
    );
    assert!(
        e["message"].as_str().unwrap().contains("syntax error"),
        "{e}"
    );
}

// Guards that a bad dice expression is a JSON error with its place and help.
#[test]
fn roll_with_json_gives_a_bad_expression_as_a_json_error() {
    let out = sandtable(&["roll", "3x6", "--json"], None);
    let e = the_error(&out, 1);
    assert_eq!(e["code"], "sandtable::dice");
    assert_eq!(
        e["message"],
        "bad dice expression: unexpected character `x`"
    );
    assert_eq!(e["help"], "multiply with `*`, e.g. `2*d6`");
    assert_eq!(
        (e["line"].as_u64(), e["column"].as_u64()),
        (Some(1), Some(2))
    );
}

// Guards that every command's failure is a JSON error with --json (they were miette reports).
#[test]
fn every_command_fails_with_a_json_error() {
    let cases: &[(&[&str], i32, &str)] = &[
        (&["odds", "3x6"], 1, "sandtable::dice"),
        (&["odds", "--action", "nonsense"], 1, "sandtable::command"),
        (&["sim", "nope.yaml", "--runs", "2"], 1, "sandtable::io"),
        (&["battle", "nope.yaml"], 1, "sandtable::io"),
        (&["run", "nope.txt"], 1, "sandtable::io"),
        (&["play", "nope.yaml"], 1, "sandtable::io"),
        (&["replay", "nope.jsonl"], 1, "sandtable::io"),
        (&["check", "nope.yaml"], 2, "sandtable::usage"),
        (&["render", "x.yaml", "-o", "x.svg"], 1, "sandtable::error"),
    ];
    for (args, code, error) in cases {
        let mut all = args.to_vec();
        all.push("--json");
        let out = sandtable(&all, None);
        let e = the_error(&out, *code);
        assert_eq!(e["code"], *error, "{args:?}: {e}");
    }
    let e = the_error(
        &sandtable(&["sim", "nope.yaml", "--runs", "2", "--json"], None),
        1,
    );
    assert_eq!(e["file"], "nope.yaml");
}

// Guards that a command line clap refuses is a JSON usage error too, when --json is given.
#[test]
fn bad_usage_with_json_is_a_json_error() {
    for args in [
        &["roll", "--json"][..],
        &["--json", "roll", "2d6", "--seed", "x"],
        &["--json", "bogus"],
    ] {
        let e = the_error(&sandtable(args, None), 2);
        assert_eq!(e["code"], "sandtable::usage", "{args:?}");
        assert!(!e["message"].as_str().unwrap().is_empty(), "{e}");
    }
    // Without --json, clap's own text.
    let out = sandtable(&["bogus"], None);
    out.expect_code(2)
        .stderr_has(&["error: unrecognized subcommand 'bogus'"]);
}

// Guards a batch and a piped game with --json: events on standard output, and the failing
// line's error and the game's warnings as JSON lines on standard error.
#[test]
fn run_and_play_with_json_give_errors_as_json() {
    let lines = "roll 1d6\nmelee viking_1 nobody\n";
    let batch = sandtable(&["run", "-", "--seed", "1", "--json"], Some(lines));
    let e = the_error(&batch, 1);
    // `nobody` is refused as it is typed: `melee` needs a unit there.
    assert_eq!(e["code"], "sandtable::command");

    let game = sandtable(
        &["play", "--seed", "1", "--json"],
        Some(&format!("{lines}roll 3x6\n(1 +\n")),
    );
    game.expect_code(1);
    json_lines(&game.stdout);
    let codes: Vec<Value> = errors(&game).iter().map(|e| e["code"].clone()).collect();
    assert_eq!(
        codes,
        ["sandtable::command", "sandtable::dice", "sandtable::error"]
    );
}
