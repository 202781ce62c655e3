//! `sandtable battle`: whole battles auto-played with the ruleset's policy.

use crate::common;

use common::game::{Game, legionary, roman_unit, transcript, viking, viking_unit};
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

// Guards that a battle whose `end_turn` never says who plays next stops with an error at
// once, instead of playing (and logging) for ever.
#[test]
fn battle_whose_end_turn_never_moves_on_is_an_error() {
    let game = game_with_rule("fn victory() { () }\nfn end_turn() { }\n");
    game.sandtable(&["battle", "game.yaml", "--seed", "1"], None)
        .expect_code(1)
        .stderr_has(&[
            "the ruleset's `end_turn` did not say who plays next (turn 1, `vikings` to play)",
            "`end_turn` must pass play on with `set_turn(turn, side)` or `set_phase(name)`",
        ]);
}

// A phased ruleset passes through `end_turn` once a phase: the battle loop once capped plays
// at (turns + 1) x sides, which such a ruleset reached in a third of its turns.
#[test]
fn a_battle_in_phases_plays_to_its_end() {
    let game = game_with_rule(
        r#"fn end_turn() {
    let p = phase();
    if p == "movement" { set_phase("shooting"); return; }
    if p == "shooting" { set_phase("melee"); return; }
    set_phase("movement");
    let other = if active_side() == "romans" { "vikings" } else { "romans" };
    if other == first_side() { set_turn(turn() + 1, other); } else { set_turn(turn(), other); }
}
fn play_turn(side) { }
"#,
    );
    let out = game.sandtable(&["battle", "game.yaml", "--seed", "1"], None);
    out.expect_code(0)
        .stdout_has(&["phase: shooting", "phase: melee", "turn 15: romans to play"]);
    let json = game.sandtable(&["battle", "game.yaml", "--seed", "1", "--json"], None);
    json.expect_code(0).stdout_has(&[
        r#"{"event":"phase","phase":"shooting"}"#,
        r#""turn":16"#,
        r#""phase":"movement""#,
    ]);
}

// An `end_turn` going round its phases without ever starting a new turn is stopped by the
// plays one turn may take (`MAX_STEPS_PER_TURN`).
#[test]
fn battle_whose_phases_never_end_the_turn_is_an_error() {
    let game = game_with_rule(
        "fn victory() { () }\nfn play_turn(side) { }\nfn end_turn() { set_phase(if phase() == \"a\" { \"b\" } else { \"a\" }); }\n",
    );
    game.sandtable(&["battle", "game.yaml", "--seed", "1"], None)
        .expect_code(1)
        .stderr_has(&[
            "the battle is still in turn 1 after 1000 plays in it",
            "`end_turn` must start a new turn once every side has played every phase",
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
    out.expect_code(1).stderr_has(&[
        "there is no item 5: the array has 1 item, from 0 to 0",
        "rule.rhai:3:7]",
    ]);
}

// ---------------------------------------------------------------------------------------------
// Victory: "any rules not specified here, all players should agree upon before play begins".
// The ruleset's default (`data.victory`): a side that has lost two thirds of its figures is
// broken and loses; after 15 turns the larger share standing wins; a scenario may agree on
// other numbers (`data: { victory: ... }`).
// ---------------------------------------------------------------------------------------------

/// Three light infantrymen a side, far apart, Rome to play, with `extra` before `sides:`.
fn three_a_side(extra: &str) -> Game {
    let romans: Vec<String> = (1..=3)
        .map(|i| roman_unit(&format!("r{i}"), "light_infantry", 10.0 * i as f64, 2.0, ""))
        .collect();
    let vikings: Vec<String> = (1..=3)
        .map(|i| {
            viking_unit(
                &format!("v{i}"),
                "light_infantry",
                10.0 * i as f64,
                34.0,
                "",
            )
        })
        .collect();
    let r: Vec<&str> = romans.iter().map(String::as_str).collect();
    let v: Vec<&str> = vikings.iter().map(String::as_str).collect();
    Game::with(Some("romans"), &r, &v, extra)
}

/// A prompt line printing what `victory()` says: `no result`, `WINNER: REASON` or
/// `draw: REASON`.
const ASK_VICTORY: &str = "let v = victory(); print(if v == () { \"no result\" } else if v.winner == () { \"draw: \" + v.reason } else { v.winner + \": \" + v.reason })\n";

/// The answers of every [`ASK_VICTORY`] in the order asked.
fn victories(out: &common::Output) -> Vec<String> {
    transcript(out)
        .split(&format!("> {ASK_VICTORY}"))
        .skip(1)
        .map(|after| after.lines().next().unwrap_or_default().to_string())
        .collect()
}

// Guards the default "a side that has lost two thirds of its figures is broken and loses":
// one man lost of three is not enough, two (exactly two thirds) is; both broken is a draw.
#[test]
fn side_that_has_lost_two_thirds_is_broken() {
    let out = three_a_side("").play_ok(
        1,
        &format!(
            "{ASK_VICTORY}unit(\"r1\").remove(\"test\")\n{ASK_VICTORY}unit(\"r2\").remove(\"test\")\n{ASK_VICTORY}\
             unit(\"v1\").remove(\"test\")\nunit(\"v2\").remove(\"test\")\n{ASK_VICTORY}"
        ),
    );
    assert_eq!(
        victories(&out),
        [
            "no result",
            "no result",
            "vikings: Rome broke",
            "draw: both sides are broken"
        ]
    );
}

// Guards the default "after 15 turns the larger share standing wins", and that the players
// may agree on another number in the scenario (`data: { victory: { max_turns: 5 } }`).
#[test]
fn after_15_turns_the_larger_share_standing_wins() {
    let turn = "end_turn\nend_turn\n";
    let lines = |turns: usize| {
        format!(
            "unit(\"r1\").remove(\"test\")\n{}{ASK_VICTORY}{turn}{ASK_VICTORY}",
            turn.repeat(turns - 1)
        )
    };
    let out = three_a_side("").play_ok(1, &lines(15));
    out.stdout_has(&["turn 15: romans to play\n", "turn 16: romans to play\n"]);
    assert_eq!(
        victories(&out),
        [
            "no result",
            "vikings: after 15 turns it holds more of its men"
        ]
    );
    let agreed = three_a_side("data: { victory: { max_turns: 5 } }\n").play_ok(1, &lines(5));
    assert_eq!(
        victories(&agreed),
        [
            "no result",
            "vikings: after 5 turns it holds more of its men"
        ]
    );
}

// Guards the narration against bookkeeping (issue 20: `viking_1 prize_x: none -> 24`): every
// change a shipped battle tells is of a stat its ruleset declares for players, or one of a
// unit's own numbers, never a script's private note about where a prize lies.
#[test]
fn battles_narrate_no_bookkeeping() {
    use sandtable::game::project::Project;
    use sandtable::game::ruleset::Ruleset;

    let project = Project::at(common::project()).expect("the project");
    let own = ["hits", "stands", "name", "side", "troop", "facing"];
    for scenario in std::fs::read_dir(common::project().join("scenarios")).expect("scenarios") {
        let path = scenario.expect("an entry").path();
        let text = std::fs::read_to_string(&path).expect("a scenario");
        let id = text
            .lines()
            .find_map(|l| l.strip_prefix("ruleset:"))
            .map(|r| r.trim().trim_matches('"').to_string())
            .expect("a ruleset line");
        let ruleset = Ruleset::load(&project, &id).expect("the ruleset");
        for seed in ["1", "2", "3"] {
            let out = sandtable(
                &[
                    "battle",
                    &path.display().to_string(),
                    "--seed",
                    seed,
                    "--json",
                ],
                None,
            );
            out.expect_code(0);
            for line in out.stdout.lines() {
                let event: serde_json::Value = serde_json::from_str(line).expect("JSON");
                if event["event"] != "change" {
                    continue;
                }
                let what = event["what"].as_str().expect("a name");
                assert!(
                    own.contains(&what) || ruleset.file.stats.contains_key(what),
                    "{} seed {seed} narrates `{what}`, which its ruleset does not declare: {line}",
                    path.display()
                );
            }
        }
    }
}
