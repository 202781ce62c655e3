//! Messages a wargamer reads: each says what is wrong in a plain sentence, at the file, line
//! and column where there is one, and never shows sandtable's or a library's internals.

mod common;

use common::{Workspace, sandtable};

/// A small scenario of the Playmobil rules: three legionaries and three Vikings.
const SCENARIO: &str = "\
name: Test
ruleset: playmobil
table: { width: 36, depth: 24 }
sides:
  - id: romans
    edge: south
    units:
      - { id: legionary, type: heavy_infantry, count: 3, at: [14, 6] }
  - id: vikings
    edge: north
    units:
      - { id: viking, type: heavy_infantry, count: 3, at: [22, 18], facing: 180 }
";

// Rhai's own `sort` with a comparer ignored what the comparer threw and sorted on: the
// batch printed the array and succeeded.
#[test]
fn a_comparer_that_throws_stops_sort() {
    let ws = Workspace::new();
    let script = ws.write(
        "sort.rhai",
        "let a = [3, 1, 2];\na.sort(|x, y| throw \"boom\");\nprint(`sorted ${a}`);\n",
    );
    let out = ws.sandtable(&["run", script.to_str().unwrap(), "--seed", "1"], None);
    out.expect_code(1).stderr_has(&["boom"]);
    assert!(!out.stdout.contains("sorted"), "{}", out.stdout);
}

// `--jokers` took only 0 to 2 without saying so in `--help`, and refused 3 with clap's
// "3 is not in 0..=2".
#[test]
fn jokers_say_their_range() {
    let help = sandtable(&["odds", "--help"], None);
    help.expect_code(0);
    assert!(help.out().contains("0, 1 or 2"), "{}", help.stdout);
    sandtable(&["odds", "card<=5", "--jokers", "3"], None)
        .expect_code(2)
        .stderr_has(&["a deck holds 0, 1 or 2 jokers, not `3`"]);
}

// `128d2` has exactly 2^128 outcomes; the refusal said "more than 2^128".
#[test]
fn exactly_two_to_the_128_outcomes_is_refused_truthfully() {
    let out = sandtable(&["odds", "128d2"], None);
    out.expect_code(1).stderr_has(&["2^128 or more"]);
    assert!(!out.stderr.contains("more than 2^128"), "{}", out.stderr);
}

// A script's bad dice expression was quoted whole in the error: 830 KB of stderr for a
// 400,000-character expression.
#[test]
fn a_huge_dice_expression_is_quoted_by_a_window() {
    let ws = Workspace::new();
    let script = ws.write(
        "big.rhai",
        "let e = \"\";\nfor i in 0..100000 { e += \"1d6+\"; }\ne += \"x\";\nroll(e);\n",
    );
    let out = ws.sandtable(&["run", script.to_str().unwrap(), "--seed", "1"], None);
    out.expect_code(1)
        .stderr_has(&["bad dice expression `…6+1d6+", "(character 1001 of 400001)"]);
    assert!(
        out.stderr.len() < 5_000,
        "{} bytes of stderr",
        out.stderr.len()
    );
}
