//! Budgets that must hold against a hostile file: a script's size and compile time, what the
//! prompt keeps, the units of a scenario, the output of `odds`, what one action records, a
//! saved game's values and the numbers the table holds (`src/limits.rs` lists every limit).
//! Each case says what broke before.

use crate::common;

use std::time::Duration;

use common::{Output, Workspace};

/// How long a hostile file may take before the budget counts as failing: twice the longest a
/// call or a compile may take by the clock (2 s of processor time, at most 10 s by the clock
/// on a busy machine), which leaves room for a loaded debug build.
const QUICK: Duration =
    sandtable::limits::TIME_BUDGET.saturating_mul(2 * sandtable::limits::WALL_CLOCK_FACTOR);

#[track_caller]
fn quick(out: &Output, what: &str) {
    assert!(
        out.elapsed < QUICK,
        "{what} took {:?}, more than {QUICK:?}\n{}",
        out.elapsed,
        out.stderr
    );
}

// ---- Scripts: size and compile time ------------------------------------------------------

// A house rule of 11 MB was accepted, read whole and compiled.
#[test]
fn a_house_rule_over_the_script_size_limit_is_refused() {
    let ws = Workspace::new();
    let big = format!("let x = 1;\n{}", "x;".repeat(600_000));
    ws.write("big.rhai", &big);
    for args in [
        &["run", "-", "--with", "big.rhai"][..],
        &["check", "big.rhai"][..],
    ] {
        let out = ws.sandtable(args, Some("roll 1d6\n"));
        out.expect_code(1).stderr_has(&[
            "`big.rhai` is 1200011 bytes long, and a script may have at most 1048576 bytes (1 MiB)",
            "split it into smaller scripts",
        ]);
        quick(&out, "a script over the size limit");
    }
}

// A prompt entry has the same limit as a file.
#[test]
fn a_batch_script_over_the_script_size_limit_is_refused() {
    let ws = Workspace::new();
    ws.write("big.rhai", &"1;".repeat(600_000));
    let out = ws.sandtable(&["run", "big.rhai"], None);
    out.expect_code(1)
        .stderr_has(&["a script may have at most 1048576 bytes (1 MiB)"]);
}

// 400,000 variable references (800 KB) took 56 s to compile in a release build, and `check`
// then said ok: Rhai's optimiser removes each pure statement from the middle of a vector, so
// its time grows with the square of the statements (150,000 took 6 s). Without it they take
// well under a second even in a debug build (0.6 s for the whole `check`), so they compile
// within the 2-second budget with room to spare on a busy machine; with it, they run past it.
#[test]
fn a_script_of_many_statements_compiles_within_the_budget() {
    let ws = Workspace::new();
    ws.write(
        "refs.rhai",
        &format!("let x = 1;\n{}", "x;".repeat(150_000)),
    );
    ws.sandtable(&["check", "refs.rhai"], None).expect_code(0);
}

// 9,000 variables and 250,000 references to them took 24 s to compile (the parser looks each
// name up in a list); nothing stopped it.
#[test]
fn a_script_that_compiles_slowly_is_stopped_by_the_time_budget() {
    let ws = Workspace::new();
    let lets: String = (0..9_000).map(|i| format!("let v{i} = 1;\n")).collect();
    ws.write("slow.rhai", &format!("{lets}{}", "v1;".repeat(250_000)));
    for args in [&["check", "slow.rhai"][..], &["run", "slow.rhai"][..]] {
        let out = ws.sandtable(args, None);
        out.expect_code(1).stderr_has(&[
            "compiling the script took more than the time budget of 2 seconds of processor time (or 10 by the clock), and stopped here",
            "slow.rhai:",
        ]);
        quick(&out, "a script that compiles slowly");
    }
}

// ---- The prompt ---------------------------------------------------------------------------

// The prompt kept every function ever typed: 12,000 one-line functions took 19.5 s and a few
// large entries 693 MB, after which every line took 0.2 s.
#[test]
fn the_prompt_keeps_at_most_its_limit_of_functions() {
    let ws = Workspace::new();
    let many: String = (0..1001).map(|i| format!("fn f{i}() {{ {i} }} ")).collect();
    let lines = format!("fn kept() {{ 7 }}\n{many}\nprint(kept())\n");
    let out = ws.sandtable(&["play", "--seed", "1"], Some(&lines));
    out.stderr_has(&[
        "the prompt keeps at most 1000 functions, and this would make 1002",
        "define a function again with the same name and number of parameters to replace it",
    ]);
    // The entry was refused whole, and the game went on.
    out.stdout_has(&["7"]);
    quick(&out, "1001 functions");
}

// Defining a function again replaces it and takes no new place.
#[test]
fn a_function_defined_again_at_the_prompt_replaces_the_old_one() {
    let ws = Workspace::new();
    let mut lines: String = (0..1200).map(|i| format!("fn f() {{ {i} }}\n")).collect();
    lines.push_str("print(`f is ${f()}`)\n");
    ws.write("game.txt", &lines);
    let out = ws.sandtable(&["run", "game.txt"], None);
    out.expect_code(0).stdout_has(&["f is 1199"]);
}

// Large entries piled up without limit.
#[test]
fn the_functions_kept_at_the_prompt_are_bounded_in_size() {
    let ws = Workspace::new();
    let body = format!(
        "fn big{{}}() {{ let s = \"{}\"; s.len() }}\n",
        "x".repeat(600_000)
    );
    let lines = format!("{}{}", body.replace("{}", "1"), body.replace("{}", "2"));
    let out = ws.sandtable(&["play", "--seed", "1"], Some(&lines));
    out.stderr_has(&[
        "the entries that define the functions kept at the prompt may add up to 1048576 bytes (1 MiB)",
    ]);
}

// ---- Scenarios ----------------------------------------------------------------------------

/// A scenario with `units` as the first side's unit entries.
fn scenario(units: &str) -> String {
    format!(
        "name: test\nruleset: playmobil\ntable: {{ width: 48, depth: 36 }}\nsides:\n  - id: a\n    edge: south\n    units:\n{units}  - id: b\n    edge: north\n    units:\n      - {{ id: v, type: heavy_infantry, at: [10, 30] }}\n"
    )
}

// 1,000 entries of `count: 1000` made a million units: 12 s and 2.1 GB under `check`.
#[test]
fn a_scenario_has_at_most_its_limit_of_units() {
    let ws = Workspace::new();
    let entries: String = (0..1000)
        .map(|i| {
            format!("      - {{ id: r{i}, type: heavy_infantry, count: 1000, at: [1, 1], spacing: 0.001 }}\n")
        })
        .collect();
    ws.write("many.yaml", &scenario(&entries));
    let out = ws.sandtable(&["check", "many.yaml"], None);
    out.expect_code(1).stderr_has(&[
        "a scenario has at most 5000 units, and this entry makes `r5_1`, one more",
        "many.yaml:13:15",
        "make fewer units, or split the battle into smaller scenarios",
    ]);
    // Said once, not for every entry after it; and the units, heaped 0.001" apart, are not
    // also said to overlap: the count is checked first, and past it overlap is not.
    assert!(
        out.stdout.contains("1 file checked, 1 problem"),
        "{}",
        out.stdout
    );
    quick(&out, "a scenario of a million units");
}

// A base of 1e308 inches and hits of 2^63 - 1 were accepted.
#[test]
fn a_scenario_with_numbers_the_table_cannot_hold_is_refused() {
    let ws = Workspace::new();
    for (unit, needle) in [
        (
            "{ id: r, type: heavy_infantry, at: [1, 1], base: { round: 1e308 } }",
            "round base diameter must be at most 10000 inches, got 1e308",
        ),
        (
            "{ id: r, type: heavy_infantry, at: [1, 1], hits: 9223372036854775807 }",
            "`r`: hits must be from -1000000000 to 1000000000, got 9223372036854775807",
        ),
        (
            "{ id: r, type: heavy_infantry, at: [1, 1], stats: { attack: 1e300 } }",
            "`r`: stat `attack` must be from -1000000000 to 1000000000, got 1e300",
        ),
    ] {
        ws.write("bad.yaml", &scenario(&format!("      - {unit}\n")));
        let out = ws.sandtable(&["check", "bad.yaml"], None);
        out.expect_code(1).stderr_has(&[needle, "bad.yaml:8:"]);
    }
}

// ---- Scripts: what the table holds, what an action records -------------------------------

// A script could move a unit to 1e308 or set a stat to NaN.
#[test]
fn a_script_cannot_put_on_the_table_what_it_cannot_hold() {
    let ws = Workspace::new();
    for (line, needle) in [
        (
            "unit(\"viking_1\").move_to(1e308, 1.0)",
            "a move's destination must be within 1000000 inches of the table's corner, got (1e308, 1)",
        ),
        (
            "unit(\"viking_1\").set_stat(\"attack\", 0.0 / 0.0)",
            "stat `attack` must be a finite number, got NaN",
        ),
        (
            "let u = unit(\"viking_1\"); u.hits = 4611686018427387904",
            "hits must be from -1000000000 to 1000000000, got 4611686018427387904",
        ),
    ] {
        let out = ws.sandtable(&["run", "-", "--seed", "1"], Some(&format!("{line}\n")));
        out.expect_code(1).stderr_has(&[needle]);
    }
}

// ---- Saves --------------------------------------------------------------------------------

// A saved game was trusted: an unknown side or troop type, two units with one id, a malformed
// id, `defend: "lots"` or turn -1 were accepted and failed later with strange errors.
#[test]
fn a_save_is_checked_like_a_scenario_at_line_and_column() {
    let ws = Workspace::new();
    ws.write(
        "rv.yaml",
        &std::fs::read_to_string(common::project_file("scenarios/romans_vs_vikings.yaml")).unwrap(),
    );
    ws.sandtable(
        &["run", "-", "--scenario", "rv.yaml", "--seed", "1"],
        Some("roll 1d6\n:save g.json\n"),
    )
    .expect_code(0);
    let good = std::fs::read_to_string(ws.path().join("g.json")).unwrap();
    let first = |text: &str, from: &str, to: &str| {
        assert!(text.contains(from), "the save has no {from}");
        text.replacen(from, to, 1)
    };
    for (bad, needles) in [
        (
            first(&good, "\"side\": \"vikings\"", "\"side\": \"vikingz\""),
            &["`viking_1`: unknown side `vikingz`", "bad.json:"][..],
        ),
        (
            first(
                &good,
                "\"troop\": \"heavy_infantry\"",
                "\"troop\": \"tank\"",
            ),
            &["`legionary_1`: unknown troop type `tank`", "bad.json:18:16"][..],
        ),
        (
            first(&good, "\"id\": \"legionary_2\"", "\"id\": \"legionary_1\""),
            &["two units have the id `legionary_1`", "bad.json:46:13"][..],
        ),
        (
            first(&good, "\"id\": \"legionary_2\"", "\"id\": \"legionary 2!\""),
            &["`legionary 2!` is not a usable unit id", "bad.json:46:13"][..],
        ),
        (
            first(&good, "\"defend\": 2", "\"defend\": \"lots\""),
            &["stat `defend` must be a whole number from 0 to 100, not `lots`"][..],
        ),
        (
            first(&good, "\"turn\": 1", "\"turn\": -1"),
            &["the turn must be a number from 1, got -1", "bad.json:9:11"][..],
        ),
        (
            first(&good, "\"turn\": 1", "\"turn\": 1,,"),
            &["`bad.json` is not a sandtable save", "bad.json:9:"][..],
        ),
    ] {
        ws.write("bad.json", &bad);
        let out = ws.sandtable(&["play", "--open", "bad.json"], Some(""));
        out.expect_code(1).stderr_has(needles);
    }
}

// The game's own stats (a side's colour, its losses) and its phase are saved, come back on
// opening, and are checked like a unit's: a number the table cannot hold is refused at its
// line and column.
#[test]
fn game_stats_and_the_phase_are_saved_and_checked_on_open() {
    let ws = Workspace::new();
    ws.write(
        "rv.yaml",
        &std::fs::read_to_string(common::project_file("scenarios/romans_vs_vikings.yaml")).unwrap(),
    );
    ws.sandtable(
        &["run", "-", "--scenario", "rv.yaml", "--seed", "1"],
        Some("set_game_stat(\"colour_romans\", \"red\")\nset_game_stat(\"losses\", 2)\nset_phase(\"melee\")\n:save g.json\n"),
    )
    .expect_code(0);
    let good = std::fs::read_to_string(ws.path().join("g.json")).unwrap();
    let out = ws.sandtable(
        &["play", "--open", "g.json"],
        Some("print(`${game_stat(\"colour_romans\")} ${game_stat(\"losses\")}`)\n"),
    );
    out.expect_code(0)
        .stdout_has(&["opened g.json: turn 1, melee, vikings to play", "red 2"]);
    assert!(good.contains("\"losses\": 2"), "{good}");
    ws.write(
        "bad.json",
        &good.replacen("\"losses\": 2", "\"losses\": 1e300", 1),
    );
    let line = good
        .lines()
        .position(|l| l.contains("\"losses\": 2"))
        .unwrap()
        + 1;
    let at = format!("bad.json:{line}:");
    ws.sandtable(&["play", "--open", "bad.json"], Some(""))
        .expect_code(1)
        .stderr_has(&[
            "game stat `losses` must be from -1000000000 to 1000000000, got 1e300",
            at.as_str(),
        ]);
}

// Guards the memory of values no store of the game counts: a batch keeping 1,000 variables
// of 917 KiB each held 1.7 GB, past the 1 GB no shared file may drive sandtable to. The
// binary counts what it holds and stops the line that takes it past `MAX_MEMORY_BYTES`,
// naming the limit.
#[test]
fn variables_kept_line_after_line_are_stopped_at_the_programs_memory_limit() {
    let ws = Workspace::new();
    let mut lines = String::from("let s = \"abcdefg\"; for i in 0..17 { s += s; }\n");
    for i in 0..1000 {
        lines.push_str(&format!("let v{i} = s + \"{i}\";\n"));
    }
    lines.push_str("print(\"still-\" + 42)\n");
    ws.write("vars.lines", &lines);
    let out = common::sandtable_in(ws.path(), &["run", "vars.lines", "--seed", "1"], None);
    out.expect_code(1).stderr_has(&[
        &format!(
            "the program holds more than {} MiB (`MAX_MEMORY_BYTES`)",
            sandtable::limits::MAX_MEMORY_BYTES >> 20
        ),
        "vars.lines:",
    ]);
    assert!(
        !out.stdout.contains("still-42"),
        "the batch went on:\n{}",
        out.stdout
    );
}
