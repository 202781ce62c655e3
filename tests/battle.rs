//! `sandtable battle`: whole battles auto-played with the ruleset's policy.

mod common;

use common::game::{Game, legionary, viking};
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

/// A far-apart legionary and Viking, with a house rule loaded after the ruleset.
fn game_with_rule(rule: &str) -> Game {
    let romans = legionary("legionary_1", 10.0, 2.0, "");
    let vikings = viking("viking_1", 40.0, 34.0, "");
    let game = Game::with(
        Some("vikings"),
        &[romans.as_str()],
        &[vikings.as_str()],
        "house_rules: [rule.rhai]\n",
    );
    game.write("rule.rhai", rule);
    game
}

// Guards that a battle whose `end_turn` never moves the turn on stops with an error, instead
// of playing (and logging) for ever.
#[test]
fn battle_whose_end_turn_never_moves_on_is_an_error() {
    let game = game_with_rule("fn victory() { () }\nfn end_turn() { }\n");
    game.sandtable(&["battle", "game.yaml", "--seed", "1"], None)
        .expect_code(1)
        .stderr_has(&[
            "the battle has not ended after 2002 plays, and it is only turn 1",
            "`end_turn` must pass play to the next side",
        ]);
}

// Guards that `victory()` names the winner by a side's id: a name, or a map without
// `winner`, is an error rather than a battle everyone loses or a silent draw.
#[test]
fn victory_must_name_a_side_by_its_id() {
    let named = game_with_rule("fn victory() { #{ winner: \"Rome\", reason: \"by name\" } }\n");
    named
        .sandtable(&["battle", "game.yaml", "--seed", "1"], None)
        .expect_code(1)
        .stderr_has(&[
            "`victory()` named `Rome` the winner, which is not a side's id",
            "the sides are romans, vikings",
        ]);
    let unnamed = game_with_rule("fn victory() { #{ winer: \"romans\", reason: \"typo\" } }\n");
    unnamed
        .sandtable(&["battle", "game.yaml", "--seed", "1"], None)
        .expect_code(1)
        .stderr_has(&["`victory()` gave a map without `winner`"]);
}

// Guards that a bug in `victory()` (a hook, not a verb) points at the script that defines
// it, not at a nameless source.
#[test]
fn bug_in_victory_points_at_its_script() {
    let game = game_with_rule("fn victory() {\n    let x = [1];\n    x[5]\n}\n");
    let out = game.sandtable(&["battle", "game.yaml", "--seed", "1"], None);
    out.expect_code(1)
        .stderr_has(&["Array index 5 out of bounds", "rule.rhai:3:7]"]);
}
