//! `sandtable battle`: whole battles auto-played with the ruleset's policy.

mod common;

use common::{project_file, sandtable};

// Guards that a battle is played to the end and says who won and why.
#[test]
fn battle_is_played_to_a_result() {
    let scenario = project_file("scenarios/romans_vs_vikings.yaml");
    let out = sandtable(&["battle", &scenario, "--seed", "3"], None);
    out.expect_code(0);
    let last = out.stdout.lines().last().expect("a last line");
    assert!(
        last.starts_with("victory to ") || last.starts_with("a draw on turn "),
        "{last}"
    );
    out.stdout_has(&["turn 1: vikings to play\n", " attacks "]);
}

// Guards determinism: the same seed gives the same battle, byte for byte; another seed
// gives another battle.
#[test]
fn same_seed_same_battle() {
    let scenario = project_file("scenarios/romans_vs_vikings.yaml");
    let a = sandtable(&["battle", &scenario, "--seed", "11"], None);
    let b = sandtable(&["battle", &scenario, "--seed", "11"], None);
    let c = sandtable(&["battle", &scenario, "--seed", "12"], None);
    assert_eq!(a.stdout, b.stdout);
    assert_ne!(a.stdout, c.stdout);
}

// Guards `--json`: one JSON object per line, ending with the result.
#[test]
fn battle_json_ends_with_the_result() {
    let scenario = project_file("scenarios/romans_vs_vikings.yaml");
    let out = sandtable(&["battle", &scenario, "--seed", "3", "--json"], None);
    out.expect_code(0);
    let lines: Vec<serde_json::Value> = out
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON object per line"))
        .collect();
    let last = lines.last().expect("events");
    assert_eq!(last["event"], "result");
    assert!(last["reason"].as_str().is_some_and(|r| !r.is_empty()));
    assert!(lines.iter().any(|e| e["event"] == "roll"));
}

// Guards that the policy plays only by the rules: every attack it makes is narrated by the
// ruleset's verbs, and no refusal reaches the player.
#[test]
fn policy_actions_are_never_refused() {
    let scenario = project_file("scenarios/romans_vs_vikings.yaml");
    for seed in ["1", "2", "5"] {
        let out = sandtable(&["battle", &scenario, "--seed", seed], None);
        out.expect_code(0);
        assert!(out.stderr.is_empty(), "seed {seed}: {}", out.stderr);
    }
}
