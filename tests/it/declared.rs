//! Rules that say when they are wrong: what a ruleset declares (its stats and hooks) holds its
//! troop chart, scenarios, saves and scripts to it, and a house rule's functions are sorted
//! into hooks, replacements and verbs, so that a misspelt name is told at load, at its line,
//! with a did-you-mean, and never plays silently as nothing.

use crate::common;

use common::game::{Game, Units, legionary, viking};

const ROMANS: Units = &["{ id: legionary, type: heavy_infantry, at: [10, 18] }"];
const VIKINGS: Units = &["{ id: viking, type: heavy_infantry, at: [10, 20], facing: 180 }"];

const RULESET: &str = "scripts/rulesets/playmobil/ruleset.yaml";

fn game() -> Game {
    Game::first("vikings", ROMANS, VIKINGS)
}

/// The commands that load house rules, each with `--with RULE`.
fn every_command_with(game: &Game, rule: &str, what: &[&str]) {
    for args in [
        vec!["play", "game.yaml", "--with", rule],
        vec!["battle", "game.yaml", "--seed", "1", "--with", rule],
        vec!["sim", "game.yaml", "--runs", "2", "--with", rule],
        vec!["check", rule],
    ] {
        let out = game.sandtable(&args, Some(":quit\n"));
        assert_ne!(out.code, 0, "`{}` took the house rule", args.join(" "));
        out.stderr_has(what);
    }
}

// Finding 1: `fn defend_die(dice, info)` passed `check` ("ok, 1 function"), changed nothing in
// play and became a verb. A function close to a hook's name is refused everywhere house rules
// come in, with the hook it is close to.
#[test]
fn a_misspelt_hook_in_a_house_rule_is_refused_with_the_hook_it_is_close_to() {
    let game = game();
    game.write("stout.rhai", "fn defend_die(dice, info) { dice + 1 }\n");
    every_command_with(
        &game,
        "stout.rhai",
        &[
            "`defend_die` is not a hook of Playmobil Melee Combat, so it would change nothing in play",
            "stout.rhai:1:4",
            "did you mean the hook `defend_dice` (`fn defend_dice(dice, info)`)?",
        ],
    );
    let at_prompt = game.play(
        1,
        &format!(":with {}\n:help defend_die\n", game.file("stout.rhai")),
    );
    at_prompt.stderr_has(&[
        "did you mean the hook `defend_dice`",
        "no verb or host function `defend_die`",
    ]);
}

// A house rule may say that a name close to a hook's is a new verb meant as such.
#[test]
fn a_verb_close_to_a_hooks_name_is_taken_when_its_doc_says_it_is_a_verb() {
    let game = game();
    game.write(
        "dice_at_table.rhai",
        "/// Verb: roll a defender's die at the table: `defend_die viking`.\nfn defend_die(figure) { roll(\"1d6\", `${figure}'s die`); }\n",
    );
    let out = game.sandtable(&["check", "dice_at_table.rhai"], None);
    out.expect_code(0)
        .stdout_has(&["ok   dice_at_table.rhai (house rule of playmobil, checked in scenarios/romans_vs_vikings.yaml: verb `defend_die`)"]);
    let played = game.sandtable(
        &[
            "play",
            "game.yaml",
            "--seed",
            "1",
            "--with",
            "dice_at_table.rhai",
        ],
        Some("defend_die viking\n"),
    );
    played.expect_code(0).stdout_has(&["viking's die: 1d6"]);
}

// A function named like a hook must take the hook's parameters, or it would fail when asked.
#[test]
fn a_house_rule_hook_with_the_wrong_parameters_is_refused() {
    let game = game();
    game.write("one.rhai", "fn defend_dice(dice) { dice + 1 }\n");
    let out = game.sandtable(&["check", "one.rhai"], None);
    out.expect_code(1).stderr_has(&[
        "the hook `defend_dice` takes 2 parameters, but this `fn defend_dice(dice)` takes 1",
        "write `fn defend_dice(dice, info)`",
    ]);
}

// A function of the ruleset's name with other parameters replaces nothing: refused.
#[test]
fn a_house_rule_function_named_like_a_rule_with_other_parameters_is_refused() {
    let game = game();
    game.write(
        "melee.rhai",
        "fn melee(attacker) { say(\"no\"); }\nfn mele(a, d) { 1 }\n",
    );
    let out = game.sandtable(&["check", "melee.rhai"], None);
    out.expect_code(1).stderr_has(&[
        "`fn melee(attacker)` takes 1 parameter, but the ruleset's `fn melee(attacker, defender)` (scripts/rulesets/playmobil/rules.rhai, line",
        "it would replace nothing",
        "`mele` is neither a hook nor a function of Playmobil Melee Combat, so it would be a new verb",
        "did you mean to replace `melee`",
    ]);
}

// A house rule may replace a ruleset function, and `check`, `:rules` and `:explain` say so.
#[test]
fn a_replacement_is_said_by_check_rules_and_explain() {
    let game = game();
    game.write(
        "gentle.rhai",
        "private fn attacker_wins(attack_die, defend_die) { attack_die > defend_die }\n",
    );
    let checked = game.sandtable(&["check", "gentle.rhai"], None);
    checked
        .expect_code(0)
        .stdout_has(&["replaces `attacker_wins` of `scripts/rulesets/playmobil/rules.rhai`"]);
    let out = game.sandtable(
        &["play", "game.yaml", "--seed", "1", "--with", "gentle.rhai"],
        Some(":rules\nmelee viking legionary\n:explain\n"),
    );
    out.expect_code(0).stdout_has(&[
        "  gentle (gentle.rhai): replaces `attacker_wins` of `scripts/rulesets/playmobil/rules.rhai`\n",
        "\nhouse rule `gentle` replaces `attacker_wins` of `scripts/rulesets/playmobil/rules.rhai`\n",
    ]);
}

// Finding 2: a `fmt` added to Playmobil's `policy.rhai` silently rewrote every message of
// `rules.rhai`. Two scripts of one ruleset defining one name and arity is an error naming both.
#[test]
fn a_function_defined_in_two_scripts_of_a_ruleset_is_an_error_naming_both() {
    let game = Game::own_project("vikings", ROMANS, VIKINGS);
    game.edit(
        "scripts/rulesets/playmobil/policy.rhai",
        "\n",
        "\nprivate fn fmt(x) { \"?\" }\n",
    );
    let out = game.check();
    out.expect_code(1).stderr_has(&[
        "`fn fmt(x)` is defined twice in the ruleset `playmobil`: in",
        "rules.rhai, line 7, and here",
        "policy.rhai:2:12",
        "every script of a ruleset shares one set of functions, private ones too",
    ]);
}

// Finding 3: a misspelt stat in the troop chart was taken and played "defends with  dice".
#[test]
fn a_misspelt_stat_in_the_troop_chart_is_refused_at_its_line() {
    let game = Game::own_project("vikings", ROMANS, VIKINGS);
    game.edit(
        RULESET,
        "stats: { class: infantry, move: 6, attack: 1, defend: 2, shield: true }",
        "stats: { class: infantry, move: 6, attack: 1, defnd: 2, shield: true }",
    );
    let out = game.check();
    out.expect_code(1).stderr_has(&[
        "troop `heavy_infantry`: unknown stat `defnd`",
        "ruleset.yaml:",
        "defnd: 2",
        "did you mean `defend`?",
    ]);
}

// Finding 3: `defend: lots` passed `check` and failed in the middle of a game at
// `rules.rhai:19`; it is refused at its line of the YAML.
#[test]
fn a_stat_of_the_wrong_kind_in_the_troop_chart_is_refused_at_its_yaml_line() {
    let game = Game::own_project("vikings", ROMANS, VIKINGS);
    game.edit(
        RULESET,
        "stats: { class: infantry, move: 6, attack: 1, defend: 2, shield: true }",
        "stats: { class: infantry, move: 6, attack: 1, defend: lots, shield: true }",
    );
    for args in [vec!["check", "game.yaml"], vec!["check", RULESET]] {
        let out = game.sandtable(&args, None);
        out.expect_code(1).stderr_has(&[
            "troop `heavy_infantry`: stat `defend` must be a whole number from 0 to 100, not `lots`",
            "defend: lots",
        ]);
        assert!(!out.stderr.contains("rules.rhai"), "{}", out.stderr);
    }
}

// Finding 3: `unit(..).stat("defnd")` gave nothing; reading a stat nobody declares is an error
// naming the declared ones.
#[test]
fn reading_an_undeclared_stat_is_an_error_naming_the_stat_it_is_close_to() {
    let out = game().play(
        1,
        "unit(\"viking\").stat(\"defnd\")\nunit(\"viking\").has_stat(\"sheild\")\n",
    );
    out.expect_code(1).stderr_has(&[
        "unknown stat `defnd`",
        "did you mean `defend`?",
        "unknown stat `sheild`",
        "did you mean `shield`?",
    ]);
}

// A script setting a stat to a value of another kind than declared is refused there.
#[test]
fn setting_a_stat_to_another_kind_is_refused() {
    let out = game().play(1, "unit(\"viking\").set_stat(\"defend\", \"lots\")\n");
    out.expect_code(1).stderr_has(&[
        "stat `defend` must be a whole number from 0 to 100, not `lots`",
        "stdin line 1",
    ]);
}

// A scenario's unit may override only declared stats, of their declared kinds.
#[test]
fn a_scenario_stat_undeclared_or_of_another_kind_is_refused_at_its_line() {
    let game = Game::first(
        "vikings",
        &[&legionary(
            "legionary",
            10.0,
            18.0,
            ", stats: { defend: lots }",
        )],
        &[&viking("viking", 10.0, 20.0, ", stats: { attak: 2 }")],
    );
    let out = game.check();
    out.expect_code(1).stderr_has(&[
        "`legionary`: stat `defend` must be a whole number from 0 to 100, not `lots`",
        "`viking`: unknown stat `attak`",
        "did you mean `attack`?",
    ]);
}

// A scenario's `data:` must give each key the kind of value the ruleset's data has.
#[test]
fn scenario_data_of_another_kind_than_the_rulesets_is_refused() {
    let game = Game::with(
        Some("vikings"),
        ROMANS,
        VIKINGS,
        "data: { melee_reach: lots }\n",
    );
    let out = game.check();
    out.expect_code(1).stderr_has(&[
        "`data` sets `melee_reach` to a text, but the ruleset's `melee_reach` is a number",
        "game.yaml:",
    ]);
}

// A hook's answer must be of its declared kind: a house rule giving a text for dice is told
// at once, naming it.
#[test]
fn a_hook_answering_another_kind_is_refused_naming_who_answered() {
    let game = game();
    game.write("words.rhai", "fn defend_dice(dice, info) { \"many\" }\n");
    let out = game.sandtable(
        &["play", "game.yaml", "--seed", "1", "--with", "words.rhai"],
        Some("melee viking legionary\n"),
    );
    out.expect_code(1).stderr_has(&[
        "hook `defend_dice` of house rule `words` must answer a whole number, not the text \"many\"",
    ]);
}

// An ability's public functions are hooks: one that is no hook would never be asked.
#[test]
fn an_abilitys_function_that_is_no_hook_is_refused() {
    let stout = "fn meta() {\n    #{ name: \"Stout\", activation: \"always\" }\n}\n\nfn defend_die(dice, info) { dice + 1 }\n";
    let game = Game::with_abilities(
        "vikings",
        &[&legionary("legionary", 10.0, 18.0, ", abilities: [stout]")],
        VIKINGS,
        &[("stout", stout)],
    );
    let out = game.check();
    out.expect_code(1).stderr_has(&[
        "`defend_die` is not a hook of Playmobil Melee Combat, so the rules never ask it",
        "did you mean the hook `defend_dice`?",
    ]);
}

// Finding 7, in part: serde's own names never reach a player.
#[test]
fn a_deck_of_no_kind_and_a_number_that_is_not_finite_are_told_in_words() {
    let deck = Game::with(
        Some("vikings"),
        ROMANS,
        VIKINGS,
        "decks:\n  cards: { cards: 5 }\n",
    );
    let out = deck.check();
    out.expect_code(1).stderr_has(&[
        "expected `standard` or a list of cards such as [A♠, 10♥, K♦] here, not the number `5`",
    ]);
    assert!(!out.stderr.contains("untagged"), "{}", out.stderr);
    let nan = Game::with(
        Some("vikings"),
        ROMANS,
        VIKINGS,
        "data: { melee_reach: .nan }\n",
    );
    let out = nan.check();
    out.expect_code(1)
        .stderr_has(&["`.nan` is not a number a game can hold: give a finite number"]);
    assert!(!out.stderr.contains("policy"), "{}", out.stderr);
    let stat = Game::first(
        "vikings",
        &[&legionary(
            "legionary",
            10.0,
            18.0,
            ", stats: { defend: { a: 1 } }",
        )],
        VIKINGS,
    );
    let out = stat.check();
    out.expect_code(1).stderr_has(&[
        "expected a stat: a number, a word, `true` or `false`, or a list of words and numbers here, not a map",
    ]);
    assert!(!out.stderr.contains("untagged"), "{}", out.stderr);
}

// Finding 6: `:explain` names a hook as a house rule writes it (`melee_reach`, not `melee
// reach`), and `:hooks` lists every hook with its function, `info` and who answers it.
#[test]
fn explain_names_hooks_as_written_and_hooks_lists_them_with_who_answers() {
    let game = game();
    game.write("stout.rhai", "fn defend_dice(dice, info) { dice + 1 }\n");
    let out = game.sandtable(
        &["play", "game.yaml", "--seed", "1", "--with", "stout.rhai"],
        Some("melee viking legionary\n:explain\n:hooks\n"),
    );
    out.expect_code(0).stdout_has(&[
        "\nmelee_reach for viking: 2 (heavy infantry) = 2\n",
        "defend_dice for legionary: 2 (heavy infantry) +1 stout = 3\n",
        "defend_dice (ask): the defend dice of info.unit against info.attacker",
        "  fn defend_dice(dice, info) -> a whole number\n",
        "  answered by: abilities egyptian_chariot, elite, samurai, shield_wall, spearmen, testudo; house rules stout\n",
    ]);
    let listed = common::sandtable(&["hooks", "soldiers_in_time"], None);
    listed.expect_code(0).stdout_has(&[
        "on_killed (notify): info.unit has been killed\n  fn on_killed(info)\n",
        "on_routed (notify): info.unit has routed\n",
        "  asked in: movement.rhai:",
    ]);
}

// Finding 4: `dise` for `dice` inside a hook, or `info.unit.stats("defend")`, passed `check`
// and failed only when the hook first ran, with no did-you-mean. The static pass finds both
// at load and in `check`, each at its line.
#[test]
fn a_misspelt_variable_or_method_in_a_hook_is_found_at_load_with_a_did_you_mean() {
    let game = game();
    game.write(
        "typos.rhai",
        "fn defend_dice(dice, info) { dise + 1 }\nfn attack_dice(dice, info) { info.unit.stats(\"defend\") }\n",
    );
    for args in [
        vec!["check", "typos.rhai"],
        vec!["play", "game.yaml", "--with", "typos.rhai"],
    ] {
        let out = game.sandtable(&args, Some(":quit\n"));
        out.expect_code(1).stderr_has(&[
            "the variable `dise` is not defined",
            "typos.rhai:1:30",
            "did you mean `dice`?",
            "a unit has no method `stats`",
            "typos.rhai:2:40",
            "did you mean `stat`?",
        ]);
    }
}

// Finding 5: `move viking_1 17 abc` was blamed on `rules.rhai:188` (`point(x, y)`); the word
// typed is refused, as typed, before anything runs.
#[test]
fn a_verb_argument_of_the_wrong_kind_is_refused_at_the_word_typed() {
    let out = game().play(1, "move viking 17 abc\nmelee viking nobody\n");
    out.expect_code(1).stderr_has(&[
        "`move` needs a number for `y`, and `abc` is not one",
        "stdin line 1:1:16",
        "usage: move figure x y",
        "unknown unit `nobody`: `melee` needs a unit for `defender`",
    ]);
    assert!(!out.stderr.contains("rules.rhai"), "{}", out.stderr);
}

// Finding 7: a limit broken inside a house rule's replacement of a ruleset function was
// blamed on the ruleset's file with no position; it is told at the house rule's line.
#[test]
fn a_limit_broken_in_a_house_rules_replacement_is_told_at_its_line() {
    let game = game();
    game.write(
        "greedy.rhai",
        "private fn attacker_wins(attack_die, defend_die) {\n    let s = \"x\";\n    loop { s += s; }\n}\n",
    );
    let out = game.sandtable(
        &["play", "game.yaml", "--seed", "1", "--with", "greedy.rhai"],
        Some("melee viking legionary\n"),
    );
    out.expect_code(1).stderr_has(&[
        "a string grew past the limit of 1048576 bytes (in `attacker_wins`)",
        "greedy.rhai:3:",
    ]);
    assert!(!out.stderr.contains("rules.rhai"), "{}", out.stderr);
    game.write(
        "endless.rhai",
        "private fn attacker_wins(attack_die, defend_die) {\n    let n = 0;\n    loop { n += 1; }\n}\n",
    );
    let out = game.sandtable(
        &["play", "game.yaml", "--seed", "1", "--with", "endless.rhai"],
        Some("melee viking legionary\n"),
    );
    out.expect_code(1)
        .stderr_has(&["(in `attacker_wins`)", "endless.rhai:3:"]);
    assert!(!out.stderr.contains("rules.rhai"), "{}", out.stderr);
}

// Guards what `verbs:` in ruleset.yaml declares: a verb the scripts do not have, or a
// parameter the verb does not take, would give words to nothing; each is refused at load.
#[test]
fn a_verb_declared_in_the_ruleset_must_be_one_of_its_verbs() {
    let game = Game::own_project("vikings", ROMANS, VIKINGS);
    game.edit(
        RULESET,
        "\nstats:",
        "\nverbs: { meele: { words: { attacker: [a] } } }\nstats:",
    );
    game.check().expect_code(1).stderr_has(&[
        "declares `meele`, which is no verb of its scripts",
        "did you mean `melee`?",
    ]);
    let game = Game::own_project("vikings", ROMANS, VIKINGS);
    game.edit(
        RULESET,
        "\nstats:",
        "\nverbs: { melee: { words: { atacker: [a] } } }\nstats:",
    );
    game.check().expect_code(1).stderr_has(&[
        "gives words for `atacker`, which is no parameter of `melee`",
        "did you mean `attacker`?",
    ]);
}
