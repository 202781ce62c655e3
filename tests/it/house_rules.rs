//! House rules as hooks on every number: a house rule answers the hooks the ruleset asks,
//! for every unit, after the unit's abilities; it comes in with `--with` on every command
//! that plays, and with `:with` / `:without` at the prompt.

use crate::common;

use common::game::{Game, Units};

/// The house rule of examples/house_rules/vikings_in_wood.rhai.
const WOOD_RULE: &str = include_str!("../../examples/house_rules/vikings_in_wood.rhai");

/// A legionary on open ground facing a Viking at the edge of a wood, 2 inches away.
fn wood_game() -> Game {
    let romans: Units = &["{ id: legionary, type: heavy_infantry, at: [10, 18] }"];
    let vikings: Units = &["{ id: viking, type: heavy_infantry, at: [10, 20], facing: 180 }"];
    let game = Game::with(
        Some("romans"),
        romans,
        vikings,
        "terrain:\n  - { kind: woods, name: the dark wood, polygon: [[0, 20], [20, 20], [20, 36], [0, 36]] }\n",
    );
    game.write("vikings_in_wood.rhai", WOOD_RULE);
    game
}

// Guards the wood rule: `defend_dice` in a house rule of its own adds a die to the
// Viking in the wood, and `:explain` names the house rule.
#[test]
fn wood_rule_adds_a_defend_die_and_explain_names_it() {
    let game = wood_game();
    let out = game.sandtable(
        &[
            "play",
            "game.yaml",
            "--seed",
            "2",
            "--with",
            "vikings_in_wood.rhai",
        ],
        Some("melee legionary viking\n:explain\n"),
    );
    out.expect_code(0);
    out.stdout_has(&[
        "viking defends with 3 dice",
        "defend_dice for viking: 2 (heavy infantry) +1 vikings_in_wood = 3\n",
    ]);
}

// Guards that the exact odds of an action change as the hand count says: one attack die
// against the highest of two defend dice wins 91/216 (ties to the attacker); against three,
// the sum of a^3 over 6^4, 441/1296 = 49/144.
#[test]
fn odds_of_an_action_with_the_wood_rule_change_exactly() {
    let game = wood_game();
    let args = [
        "odds",
        "--action",
        "melee legionary viking",
        "--scenario",
        "game.yaml",
    ];
    let plain = game.sandtable(&args, None);
    plain.expect_code(0);
    plain.stdout_has(&["91/216", "viking removed"]);
    let mut with = args.to_vec();
    with.extend(["--with", "vikings_in_wood.rhai"]);
    let ruled = game.sandtable(&with, None);
    ruled.expect_code(0);
    ruled.stdout_has(&["49/144", "viking removed"]);
}

// Guards `odds --action ... --as SIDE`: the side not to play may ask too.
#[test]
fn odds_of_an_action_as_the_side_not_to_play() {
    let game = wood_game();
    let args = [
        "odds",
        "--action",
        "melee viking legionary",
        "--scenario",
        "game.yaml",
    ];
    let refused = game.sandtable(&args, None);
    refused
        .expect_code(1)
        .stderr_has(&["this turn belongs to Rome"]);
    let mut as_vikings = args.to_vec();
    as_vikings.extend(["--as", "vikings"]);
    let out = game.sandtable(&as_vikings, None);
    out.expect_code(0);
    out.stdout_has(&["91/216", "legionary removed"]);
    let prompt = game.play_ok(1, ":odds as vikings melee viking legionary\n");
    prompt.stdout_has(&["91/216", "legionary removed"]);
}

// Guards `:with`, `:without` and `:rules` at the prompt, and that putting a house rule in
// force and taking it out are each one step of `:undo` and `:redo`.
#[test]
fn with_and_without_at_the_prompt_are_undoable() {
    let game = wood_game();
    let out = game.play_ok(
        2,
        &format!(
            ":with {}\n:rules\nmelee legionary viking\n:undo 2\n:rules\n\
             :redo 2\n:explain\n:without vikings_in_wood\n:rules\n",
            game.file("vikings_in_wood.rhai")
        ),
    );
    let text = out.stdout.clone();
    let in_force = "house rules in force, in the order they apply:\n  vikings_in_wood";
    let parts: Vec<&str> = text.split("> :rules\n").collect();
    assert_eq!(parts.len(), 4, "{text}");
    assert!(parts[1].contains(in_force), "{text}");
    assert!(parts[2].contains("no house rules in force"), "{text}");
    assert!(parts[3].contains("no house rules in force"), "{text}");
    out.stdout_has(&[
        "house rule vikings_in_wood in force\n",
        "2 actions undone",
        "2 actions redone",
        "defend_dice for viking: 2 (heavy infantry) +1 vikings_in_wood = 3\n",
        "house rule vikings_in_wood no longer in force\n",
    ]);
}

// Guards `battle --with` and `sim --with`: the house rule comes along.
#[test]
fn battle_and_sim_take_a_house_rule() {
    let game = wood_game();
    let battle = game.sandtable(
        &[
            "battle",
            "game.yaml",
            "--seed",
            "3",
            "--explain",
            "--with",
            "vikings_in_wood.rhai",
        ],
        None,
    );
    battle.expect_code(0);
    battle.stdout_has(&["+1 vikings_in_wood"]);
    let sim = game.sandtable(
        &[
            "sim",
            "game.yaml",
            "--runs",
            "20",
            "--seed",
            "3",
            "--with",
            "vikings_in_wood.rhai",
        ],
        None,
    );
    sim.expect_code(0);
    sim.stdout_has(&["vikings_in_wood.rhai"]);
}

// Guards that `--with` is refused where it means nothing.
#[test]
fn with_is_refused_where_it_means_nothing() {
    let game = wood_game();
    game.sandtable(&["roll", "1d6", "--with", "vikings_in_wood.rhai"], None)
        .expect_code(2)
        .stderr_has(&["unexpected argument '--with'"]);
}

// Guards `:help`: closures compile to functions named `anon$<hash>`, which are no verbs (the
// hash changed every run, so the same seed gave other output).
#[test]
fn help_lists_no_closures() {
    let game = wood_game();
    game.write(
        "closure.rhai",
        "fn pick(side) { units(side).filter(|u| u.in_play) }\n",
    );
    let out = game.sandtable(
        &["play", "game.yaml", "--seed", "1", "--with", "closure.rhai"],
        Some(":help\n"),
    );
    out.expect_code(0);
    out.stdout_has(&["pick side"]);
    out.stdout_lacks("anon$");
}

// Guards that who wins a tie is a hook: ties to the defender leave the attacker's one die
// beating the best of two only when higher, sum((a - 1)^2, a = 1..6) / 216 = 55/216.
#[test]
fn melee_won_is_a_hook_a_house_rule_answers() {
    let game = wood_game();
    game.write(
        "ties_to_defender.rhai",
        "fn melee_won(won, info) {\n    if info.attack_die == info.defend_die { false } else { won }\n}\n",
    );
    let out = game.sandtable(
        &[
            "odds",
            "--action",
            "melee legionary viking",
            "--scenario",
            "game.yaml",
            "--with",
            "ties_to_defender.rhai",
        ],
        None,
    );
    out.expect_code(0);
    out.stdout_has(&["55/216", "viking removed"]);
}

// Guards the example pair: ambush_in_the_wood.yaml with vikings_in_wood.rhai gives the odds
// the house rule's comment states.
#[test]
fn the_example_ambush_gives_the_odds_its_house_rule_states() {
    let scenario = common::project_file("examples/house_rules/ambush_in_the_wood.yaml");
    let rule = common::project_file("examples/house_rules/vikings_in_wood.rhai");
    let args = [
        "odds",
        "--action",
        "melee legionary_1 viking_5",
        "--scenario",
        scenario.as_str(),
    ];
    let plain = common::sandtable(&args, None);
    plain.expect_code(0);
    plain.stdout_has(&["91/216", "viking_5 removed"]);
    let mut with = args.to_vec();
    with.extend(["--with", rule.as_str()]);
    let ruled = common::sandtable(&with, None);
    ruled.expect_code(0);
    ruled.stdout_has(&["49/144", "viking_5 removed"]);
    assert!(WOOD_RULE.contains("91/216") && WOOD_RULE.contains("49/144"));
}

// Guards that `:explain` names a house rule only where it changed the number: answering
// for every unit, the wood rule left a legionary's dice alone and was shown as `+0`.
#[test]
fn explain_names_a_house_rule_only_where_it_changed_the_number() {
    let game = wood_game();
    let out = game.sandtable(
        &[
            "play",
            "game.yaml",
            "--seed",
            "2",
            "--with",
            "vikings_in_wood.rhai",
        ],
        Some("end_turn\nmelee viking legionary\n:explain\n"),
    );
    out.expect_code(0);
    out.stdout_has(&["defend_dice for legionary: 2 (heavy infantry) = 2\n"]);
    out.stdout_lacks("+0");
}
