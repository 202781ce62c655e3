//! Budgets that must hold against a hostile file: a script's size and compile time, what the
//! prompt keeps, the units of a scenario, the output of `odds`, what one action records, a
//! saved game's values and the numbers the table holds (`src/limits.rs` lists every limit).
//! Each case says what broke before.

mod common;

use std::time::Duration;

use common::{Output, Workspace};

/// How long a hostile file may take before the budget counts as failing (the time budget is
/// 2 s; this leaves room for a loaded debug build).
const QUICK: Duration = Duration::from_secs(15);

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
// well under a second even in a debug build.
#[test]
fn a_script_of_many_statements_compiles_within_the_budget() {
    let ws = Workspace::new();
    ws.write("refs.rhai", &format!("let x = 1;\n{}", "x;".repeat(150_000)));
    let out = ws.sandtable(&["check", "refs.rhai"], None);
    out.expect_code(0);
    assert!(
        out.elapsed < Duration::from_secs(4),
        "compiling 150,000 statements took {:?}",
        out.elapsed
    );
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
            "compiling the script took more than the time budget of 2 seconds, and stopped here",
            "slow.rhai:",
        ]);
        quick(&out, "a script that compiles slowly");
    }
}
