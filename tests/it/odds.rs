//! `sandtable odds`: exact distributions of dice, contests and card checks through the real
//! binary, checked against values worked by hand.

use crate::common;

use common::sandtable;

fn json(args: &[&str]) -> serde_json::Value {
    let mut all = vec!["--json", "odds"];
    all.extend_from_slice(args);
    let out = sandtable(&all, None);
    out.expect_code(0);
    serde_json::from_str(out.stdout.trim()).expect("one JSON object")
}

fn outcome(v: &serde_json::Value, value: i64) -> String {
    v["outcomes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o["value"] == value)
        .map(|o| o["fraction"].as_str().unwrap().to_string())
        .unwrap_or_default()
}

#[test]
fn contest_1d6_vs_1d6_gives_the_attacker_7_in_12() {
    let v = json(&["1d6 vs 1d6"]);
    assert_eq!(v["attacker_wins"]["fraction"], "7/12");
    assert_eq!(v["defender_wins"]["fraction"], "5/12");
}

#[test]
fn contest_3d6_vs_2d6_gives_the_attacker_5593_in_7776() {
    // Written as separate words, the way people type it.
    let v = json(&["3d6", "vs", "2d6"]);
    assert_eq!(v["attacker_wins"]["fraction"], "5593/7776");
}

#[test]
fn success_pool_5d6_at_least_5_gives_exactly_two_80_in_243() {
    assert_eq!(outcome(&json(&["5d6>=5"]), 2), "80/243");
}

#[test]
fn card_of_6_or_less_with_face_cards_passing_is_9_in_13() {
    assert_eq!(outcome(&json(&["card<=6"]), 1), "9/13");
    assert_eq!(outcome(&json(&["card<=6", "--faces", "fail"]), 1), "6/13");
    // Two jokers that fail: 36 of 54.
    assert_eq!(outcome(&json(&["card<=6", "--jokers", "2"]), 1), "2/3");
}

#[test]
fn contest_by_total_counts_ties_for_the_attacker() {
    // 1d6+1 vs 1d6: the attacker loses only when the defender rolls higher than 1 more.
    let v = json(&["1d6+1 vs 1d6", "--by", "total"]);
    assert_eq!(v["defender_wins"]["fraction"], "5/18");
}

#[test]
fn text_output_shows_fractions_percentages_mean_and_bars() {
    let out = sandtable(&["odds", "2d6"], None);
    out.expect_code(0).stdout_has(&[
        "2d6: total, mean 7.0000, from 2 to 12",
        "1/6",
        "16.67%",
        "████████████████████████████████████████",
    ]);
}

// Guards the wording of a contest: the ties are a share of all rolls, not of the
// attacker's wins ("of which ties 24.77%" read as a quarter of the wins), so the attacker's
// line splits into its two parts and the heading says what every figure is a share of; the
// example in docs/odds.md is this output (replayed by tests/it/docs.rs).
#[test]
fn contest_text_splits_the_attackers_wins_into_shares_of_all_rolls() {
    let out = sandtable(&["odds", "3d6 vs 2d6"], None);
    out.expect_code(0);
    common::assert_golden("odds_3d6_vs_2d6", &out.stdout);
    let total = sandtable(&["odds", "1d6+1 vs 1d6", "--by", "total"], None);
    total
        .expect_code(0)
        .stdout_has(&["  by a higher total ", "  by a tie "]);
}

#[test]
fn big_pools_answer_exactly() {
    let v = json(&["20d6 vs 20d6"]);
    let p = v["attacker_wins"]["probability"].as_f64().unwrap();
    assert!((0.97..0.98).contains(&p), "{p}");
    assert_eq!(
        outcome(&json(&["30d10kh3"]), 3),
        "1/1000000000000000000000000000000"
    );
}

#[test]
fn bad_expressions_are_diagnostics_not_panics() {
    sandtable(&["odds", "3d6 vs 2x6"], None)
        .expect_code(1)
        .no_panic()
        .stderr_has(&["unexpected character `x`", "3d6 vs 2x6"]);
    sandtable(&["odds", "2d6+1 vs 2d6"], None)
        .expect_code(1)
        .stderr_has(&["--by total"]);
    sandtable(&["odds", "3d6!"], None)
        .expect_code(1)
        .stderr_has(&["too many outcomes", "3d6!3"]);
    sandtable(&["odds", "card<=x"], None)
        .expect_code(1)
        .stderr_has(&["not a card check"]);
}

// Playmobil: a Viking warrior (1 die) attacks a legionary (2 dice); highest die wins, ties to
// the attacker, so the Viking wins with probability sum(a^2)/216 = 91/216.
#[test]
fn melee_action_odds_match_the_hand_worked_91_in_216() {
    let out = sandtable(
        &[
            "--json",
            "odds",
            "--action",
            "melee viking_1 legionary_1",
            "--scenario",
            &common::project_file("scenarios/romans_vs_vikings.yaml"),
        ],
        None,
    );
    out.expect_code(0);
    let v: serde_json::Value = serde_json::from_str(out.stdout.trim()).unwrap();
    assert_eq!(v["exact"], true);
    let removed = v["outcomes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|o| {
            o["outcome"]
                .as_str()
                .unwrap()
                .contains("legionary_1 removed")
        })
        .expect("an outcome where the legionary falls");
    assert_eq!(removed["fraction"], "91/216");
    // Attacking happens whatever the dice: said once, not in each result.
    assert_eq!(
        v["in_every_outcome"],
        serde_json::json!(["viking_1 attacked"])
    );
    assert_eq!(removed["outcome"], "legionary_1 removed, viking_1 may step");
}

#[test]
fn odds_at_the_prompt_leave_the_game_unchanged() {
    let out = sandtable(
        &["play", "--seed", "3"],
        Some(":odds melee viking_1 legionary_1\n:units vikings\n:undo\n"),
    );
    out.expect_code(0)
        .stdout_has(&["exact, over 216 branches", "91/216", "nothing to be undone"]);
}

#[test]
fn action_odds_fall_back_to_monte_carlo_within_the_interval() {
    use sandtable::analysis::action_odds::{OddsBudget, action_odds};
    let project = sandtable::game::project::Project::at(env!("CARGO_MANIFEST_DIR")).unwrap();
    let scenario =
        sandtable::game::scenario::Scenario::load(&project, &project.default_scenario()).unwrap();
    let mut session = sandtable::session::Session::new(&project, scenario, 3).unwrap();
    let line = "melee viking_1 legionary_1";
    let events_before = session.state().log.len();
    let budget = OddsBudget {
        branches: 10,
        runs: 4_000,
        seed: 9,
    };
    let odds = action_odds(&mut session, line, budget).unwrap();
    assert!(
        odds.estimated_because
            .as_deref()
            .unwrap()
            .contains("more than 10 branches")
    );
    let (_, chance) = odds
        .outcomes
        .iter()
        .find(|(what, _)| what.contains("legionary_1 removed"))
        .unwrap();
    let sandtable::analysis::action_odds::Chance::Estimate { p, plus_minus } = *chance else {
        panic!("expected an estimate")
    };
    let exact = 91.0 / 216.0;
    // Within a generous 4 standard errors (the 95% half-width is 1.96).
    assert!(
        (p - exact).abs() < plus_minus * 2.05,
        "{p} ± {plus_minus} vs {exact}"
    );
    // The game is as it was.
    assert_eq!(session.state().log.len(), events_before);
}

// An action no die decides is certain, and says so rather than counting one branch.
#[test]
fn action_without_dice_is_certain() {
    sandtable(&["odds", "--action", "move viking_1 17 19"], None)
        .expect_code(0)
        .stdout_has(&[
            "odds of `move viking_1 17 19`: certain, no dice decide it",
            "1/1",
            "viking_1 moved",
        ]);
}

// A rule that refuses on some dice only gives a `refused` result; a bug on some dice is an
// error, not a result: the odds would be of a broken rule.
#[test]
fn action_odds_stop_at_a_bug_that_some_dice_reach() {
    let ws = common::Workspace::new();
    let scenario = std::fs::read_to_string(common::project_file(
        "examples/house_rules/romans_vs_vikings_ties_to_defender.yaml",
    ))
    .unwrap()
    .replace("ties_to_defender.rhai", "buggy.rhai");
    ws.write("game.yaml", &scenario);
    ws.write(
        "buggy.rhai",
        "private fn attacker_wins(a, d) { if a == 6 { return no_such_rule(a); } a >= d }\n",
    );
    ws.sandtable(
        &[
            "odds",
            "--action",
            "melee viking_1 legionary_1",
            "--scenario",
            "game.yaml",
        ],
        None,
    )
    .expect_code(1)
    .stderr_has(&["no_such_rule"]);
}

/// A session of the default scenario with one house rule (`private fn attacker_wins(a, d)`
/// and whatever else `rule` says) loaded after the ruleset.
fn session_with_rule(rule: &str) -> (common::Workspace, sandtable::session::Session) {
    let ws = common::Workspace::new();
    let path = ws.write("rule.rhai", rule);
    let project = sandtable::game::project::Project::at(env!("CARGO_MANIFEST_DIR")).unwrap();
    let mut scenario =
        sandtable::game::scenario::Scenario::load(&project, &project.default_scenario()).unwrap();
    scenario.house_rules.push(path);
    let session = sandtable::session::Session::new(&project, scenario, 3).unwrap();
    (ws, session)
}

fn exact_chance(odds: &sandtable::analysis::action_odds::ActionOdds, what: &str) -> String {
    let (_, chance) = odds
        .outcomes
        .iter()
        .find(|(w, _)| w.contains(what))
        .unwrap_or_else(|| panic!("no result with `{what}` in {odds:?}"));
    match chance {
        sandtable::analysis::action_odds::Chance::Exact(f) => f.to_string(),
        other => panic!("expected exact odds, got {other:?}"),
    }
}

// A rule that refuses on a roll of 1 refuses on the walk's very first branch (every die a
// 1): that is a result on some dice, not a refusal whatever the dice.
#[test]
fn action_refused_on_a_roll_of_one_is_a_result_with_its_chance() {
    let (_ws, mut session) = session_with_rule(
        "private fn attacker_wins(a, d) { if a == 1 { throw \"viking_1 fumbles\"; } a >= d }\n",
    );
    let odds = sandtable::analysis::action_odds::action_odds(
        &mut session,
        "melee viking_1 legionary_1",
        Default::default(),
    )
    .unwrap();
    assert_eq!(exact_chance(&odds, "refused: viking_1 fumbles"), "1/6");
    // The Viking's die shows 2 to 6 and beats the best of two: sum(a^2, a = 2..6) / 216.
    assert_eq!(exact_chance(&odds, "legionary_1 removed"), "5/12");
}

// Refused on every branch alike: the refusal itself is the answer, as it is for an action
// refused before any die is rolled.
#[test]
fn action_refused_whatever_the_dice_is_the_refusal() {
    let (_ws, mut session) =
        session_with_rule("private fn attacker_wins(a, d) { throw \"no fighting today\"; }\n");
    let e = sandtable::analysis::action_odds::action_odds(
        &mut session,
        "melee viking_1 legionary_1",
        Default::default(),
    )
    .unwrap_err();
    assert!(e.to_string().contains("no fighting today"), "{e}");
}

// "Roll again on a 1" could go on for ever on the walk's all-ones branch: past a hundred
// dice in one branch the walk gives way to a seeded estimate, instead of stopping on the
// sandbox's limits as a broken rule would.
#[test]
fn action_with_an_open_reroll_falls_back_to_an_estimate() {
    let (_ws, mut session) = session_with_rule(
        "private fn attacker_wins(a, d) { while roll(\"1d6\", \"again\").total == 1 {} a >= d }\n",
    );
    let budget = sandtable::analysis::action_odds::OddsBudget {
        runs: 200,
        ..Default::default()
    };
    let odds = sandtable::analysis::action_odds::action_odds(
        &mut session,
        "melee viking_1 legionary_1",
        budget,
    )
    .unwrap();
    let why = odds.estimated_because.as_deref().expect("an estimate");
    assert!(why.contains("more than 100 dice"), "{why}");
    assert_eq!(odds.seed, Some(budget.seed));
    assert_eq!(odds.plays, 200);
}

// An option where it means nothing is bad usage, not silently ignored: `--by` is for
// contests, `--faces` and `--jokers` for card checks.
#[test]
fn options_that_mean_nothing_here_are_refused() {
    sandtable(&["odds", "2d6", "--by", "total"], None)
        .expect_code(2)
        .stderr_has(&["`--by` is for a contest"]);
    sandtable(&["odds", "3d6 vs 2d6", "--jokers", "1"], None)
        .expect_code(2)
        .stderr_has(&["`--jokers` is for a card check"]);
    sandtable(
        &["odds", "--action", "move viking_1 17 19", "--faces", "fail"],
        None,
    )
    .expect_code(2)
    .stderr_has(&["`--faces` is for a card check"]);
    // Where they belong, they are taken.
    sandtable(
        &["odds", "card<=6", "--faces", "fail", "--jokers", "2"],
        None,
    )
    .expect_code(0)
    // Ace to 6 of each suit pass: 24 of 54 cards.
    .stdout_has(&["4/9"]);
}

// ---- Cards in exact odds -----------------------------------------------------------------

/// Verbs that flip cards from the `orders` deck, tagging `viking_1` with what they found.
const FLIPS: &str = r#"
/// Passes on a 6 or less, or a face card.
fn flip_check() {
    let c = deck("orders").draw();
    if c.rank <= 6 || c.is_face { unit("viking_1").tag("passed"); }
}
/// Flips the top card face up onto the discards: a 6 or less, or a face card?
fn flip_face_up() {
    let c = deck("orders").flip();
    if c.rank <= 6 || c.is_face { unit("viking_1").tag("passed"); }
}
/// Two cards, without putting the first back: both red?
fn flip_two() {
    let cards = [deck("orders").draw(), deck("orders").draw()];
    if cards[0].is_red && cards[1].is_red { unit("viking_1").tag("both red"); }
}
/// Reshuffles the discards when the pile is empty, then draws: an ace?
fn flip_or_reshuffle() {
    let d = deck("orders");
    if d.count == 0 { d.reshuffle(); }
    if d.draw().is_ace { unit("viking_1").tag("ace"); }
}
/// Looks at the top card first.
fn peek_then_flip() {
    let d = deck("orders");
    if d.peek().is_ace { unit("viking_1").tag("saw an ace"); }
    d.draw();
}
"#;

fn card_odds(session: &mut sandtable::session::Session, line: &str) -> ActionOdds {
    sandtable::analysis::action_odds::action_odds(session, line, Default::default()).unwrap()
}

use sandtable::analysis::action_odds::ActionOdds;

// Soldiers in Time decides activations by flipping a card "from the deck as it stands": a card
// drawn during the exact walk is a wheel over the pile's cards, so a full deck gives 36/52.
// (The walk gave up to an estimate on any card.)
#[test]
fn a_card_from_a_full_deck_passing_on_six_or_less_or_a_face_is_9_in_13() {
    let (_ws, mut session) = session_with_rule(FLIPS);
    let _ = session
        .eval("t", "new_deck(\"orders\", \"standard\").shuffle();")
        .unwrap();
    let odds = card_odds(&mut session, "flip_check");
    assert_eq!(odds.estimated_because, None);
    assert_eq!(exact_chance(&odds, "viking_1 passed"), "9/13");
    assert_eq!(odds.plays, 52);
    assert!(
        odds.render("flip_check")
            .contains("exact, over 52 branches of the dice and cards")
    );
}

// A flip (draw and discard in one) walks the pile as a draw does: 9/13 again, and the walk
// leaves the deck as it was, every card in the pile and none on the discards.
#[test]
fn a_flipped_card_is_a_wheel_over_the_pile_and_lands_on_the_discards() {
    let (_ws, mut session) = session_with_rule(FLIPS);
    let _ = session
        .eval("t", "new_deck(\"orders\", \"standard\").shuffle();")
        .unwrap();
    let odds = card_odds(&mut session, "flip_face_up");
    assert_eq!(odds.estimated_because, None);
    assert_eq!(exact_chance(&odds, "viking_1 passed"), "9/13");
    assert_eq!(odds.plays, 52);
    let counts = |session: &sandtable::session::Session| {
        let deck = &session.state().decks["orders"];
        (deck.len(), deck.discard_count())
    };
    assert_eq!(counts(&session), (52, 0));
    let _ = session.eval("t", "flip_face_up();").unwrap();
    assert_eq!(counts(&session), (51, 1));
}

// The deck as it stands: with A to 10 of spades drawn, 42 cards are left, of which the three
// spade faces and 9 of each other suit pass: 30/42 = 5/7.
#[test]
fn a_card_after_ten_known_cards_are_drawn_is_worked_from_the_42_left() {
    let (_ws, mut session) = session_with_rule(FLIPS);
    let _ = session
        .eval(
            "t",
            "let d = new_deck(\"orders\", \"standard\"); d.draw(10); d.shuffle();",
        )
        .unwrap();
    let odds = card_odds(&mut session, "flip_check");
    assert_eq!(exact_chance(&odds, "viking_1 passed"), "5/7");
    assert_eq!(odds.plays, 42);
}

// Two cards without replacement: 26/52 x 25/51 = 25/102 that both are red.
#[test]
fn two_cards_drawn_without_replacement_give_the_hand_worked_fraction() {
    let (_ws, mut session) = session_with_rule(FLIPS);
    let _ = session
        .eval("t", "new_deck(\"orders\", \"standard\").shuffle();")
        .unwrap();
    let odds = card_odds(&mut session, "flip_two");
    assert_eq!(exact_chance(&odds, "viking_1 both red"), "25/102");
    assert_eq!(odds.plays, 52 * 51);
}

// A script that reshuffles the discards into an empty pile stays exact: the shuffle draws
// nothing from the generator during the walk, and the draw after it is a wheel over the pile
// as it then stands. With A, 2 and 3 of spades all discarded, an ace is 1 in 3.
#[test]
fn a_draw_from_an_empty_pile_the_script_reshuffles_stays_exact() {
    let (_ws, mut session) = session_with_rule(FLIPS);
    let _ = session
        .eval(
            "t",
            "let d = new_deck(\"orders\", \"AS 2S 3S\"); for c in d.draw(3) { d.discard(c); } d.shuffle();",
        )
        .unwrap();
    let odds = card_odds(&mut session, "flip_or_reshuffle");
    assert_eq!(odds.estimated_because, None);
    assert_eq!(exact_chance(&odds, "viking_1 ace"), "1/3");
    // The game is as it was: the pile still empty, the three cards still discarded.
    let state = session.state();
    assert_eq!(
        (
            state.decks["orders"].len(),
            state.decks["orders"].discard_count()
        ),
        (0, 3)
    );
}

// A deck in a known order (made, never shuffled) is drawn from the top, as at the table: the
// first card of a new deck is the ace of spades, for certain.
#[test]
fn a_deck_never_shuffled_is_drawn_from_the_top() {
    let (_ws, mut session) = session_with_rule(FLIPS);
    let _ = session
        .eval("t", "new_deck(\"orders\", \"standard\");")
        .unwrap();
    let odds = card_odds(&mut session, "flip_or_reshuffle");
    assert_eq!(exact_chance(&odds, "viking_1 ace"), "1/1");
}

// An estimate's runs draw cards at random from a shuffled pile, as its dice are fresh: each run
// once drew the card on top of the game's own pile, so every run came out the same (100%, one
// result) whatever the odds. Nine cards in thirteen pass.
#[test]
fn an_estimates_runs_draw_fresh_cards_from_a_shuffled_pile() {
    let (_ws, mut session) = session_with_rule(FLIPS);
    let _ = session
        .eval("t", "new_deck(\"orders\", \"standard\").shuffle();")
        .unwrap();
    let pile = session.state().decks["orders"].clone();
    let budget = sandtable::analysis::action_odds::OddsBudget {
        branches: 10,
        runs: 400,
        seed: 2,
    };
    let odds =
        sandtable::analysis::action_odds::action_odds(&mut session, "flip_check", budget).unwrap();
    assert!(odds.estimated_because.is_some(), "{odds:?}");
    assert_eq!(odds.outcomes.len(), 2, "{odds:?}");
    let (_, chance) = odds
        .outcomes
        .iter()
        .find(|(what, _)| what.contains("viking_1 passed"))
        .unwrap();
    let sandtable::analysis::action_odds::Chance::Estimate { p, plus_minus } = *chance else {
        panic!("expected an estimate")
    };
    let exact = 9.0 / 13.0;
    assert!(
        (p - exact).abs() < plus_minus * 2.05,
        "{p} ± {plus_minus} vs {exact}"
    );
    // The game's own pile is as it was.
    assert_eq!(session.state().decks["orders"], pile);
}

// A script that looks at a shuffled pile's order knows more than the walk can: an estimate.
#[test]
fn peeking_at_a_shuffled_pile_gives_an_estimate() {
    let (_ws, mut session) = session_with_rule(FLIPS);
    let _ = session
        .eval("t", "new_deck(\"orders\", \"standard\").shuffle();")
        .unwrap();
    let budget = sandtable::analysis::action_odds::OddsBudget {
        runs: 100,
        ..Default::default()
    };
    let odds =
        sandtable::analysis::action_odds::action_odds(&mut session, "peek_then_flip", budget)
            .unwrap();
    let why = odds.estimated_because.as_deref().expect("an estimate");
    assert_eq!(
        why,
        "the scripts look at the order of a shuffled pile (`peek`)"
    );
}

// `sandtable odds --action` says exact for an action that flips a card.
#[test]
fn odds_of_an_action_that_flips_a_card_are_exact_on_the_command_line() {
    let ws = common::Workspace::new();
    ws.write(
        "rule.rhai",
        &format!("new_deck(\"orders\", \"standard\").shuffle();\n{FLIPS}"),
    );
    ws.sandtable(
        &[
            "--json",
            "odds",
            "--action",
            "flip_check",
            "--with",
            "rule.rhai",
        ],
        None,
    )
    .expect_code(0)
    .stdout_has(&[r#""exact":true"#, r#""fraction":"9/13""#]);
}

/// Whether `sides^count` equally likely outcomes fit in 128 bits.
fn outcomes_fit(count: u32, sides: u32) -> bool {
    u128::from(sides).checked_pow(count).is_some()
}

// `126d2kh2` (2^126 outcomes) and `49d6kh39` to `kh48` were refused as "2^128 or more": the
// counting overflowed on its way, multiplying ways that could no longer happen. Over a grid
// of pools and keeps, a pool whose outcomes fit answers (or is refused for the work it would
// take), and one whose outcomes do not fit is refused for that.
#[test]
fn keeps_on_big_pools_are_refused_only_for_the_true_reason() {
    use sandtable::host::dice::DiceExpr;
    use sandtable::host::odds::{self, OddsError};
    let mut answered = 0;
    for (sides, counts) in [
        (1u32, vec![200u32]),
        (2, vec![60, 100, 120, 126, 127, 128, 130]),
        (3, vec![60, 80, 81]),
        (6, vec![30, 45, 49, 50]),
        (10, vec![30, 38, 39]),
        (20, vec![20, 29, 30]),
    ] {
        for count in counts {
            let step = (count / 12).max(1);
            for keep in (1..count).step_by(step as usize).chain([count - 1]) {
                for kind in ["kh", "kl"] {
                    let text = format!("{count}d{sides}{kind}{keep}");
                    let expr = DiceExpr::parse(&text).unwrap();
                    let got = odds::distribution(expr.node());
                    match (outcomes_fit(count, sides), &got) {
                        (true, Ok(d)) => {
                            answered += 1;
                            assert_eq!(
                                d.range(),
                                (i64::from(keep), i64::from(keep * sides)),
                                "{text}"
                            );
                            let whole = u128::from(sides).pow(count);
                            assert_eq!(whole % d.denominator(), 0, "{text}");
                        }
                        (true, Err(OddsError::TooMuchWork)) | (false, Err(OddsError::Overflow)) => {
                        }
                        (fits, other) => panic!(
                            "`{text}` ({} outcomes fit in 128 bits): {other:?}",
                            if fits { "its" } else { "not its" }
                        ),
                    }
                }
            }
        }
    }
    assert!(answered > 100, "{answered}");
}

// The mean was summed in floating point, a rounding at every value: `127d2` gave
// 190.49999999999997. It is worked as an exact fraction and rounded once.
#[test]
fn the_mean_is_the_exact_fraction_rounded_once() {
    for (expr, mean) in [("127d2", 190.5), ("49d6", 171.5), ("126d2kh2", 4.0)] {
        let v = json(&[expr]);
        assert_eq!(v["mean"].as_f64(), Some(mean), "{expr}: {}", v["mean"]);
    }
}

// `odds 3d6 vs` said "unexpected character `v`". Each way an odds expression can stop short
// says what is missing, in a player's words.
#[test]
fn an_incomplete_odds_expression_says_what_is_missing() {
    for (expr, says) in [
        ("3d6 vs", "`vs` needs a second pool after it"),
        ("3d6 VS ", "`vs` needs a second pool after it"),
        ("vs 2d6", "`vs` needs a pool before it"),
        ("3d6 vs 2d6 vs 1d6", "one `vs`"),
        ("3d6+", "ends after `+`: it needs a number or dice after it"),
        (
            "3d6 -",
            "ends after `-`: it needs a number or dice after it",
        ),
        ("2*", "ends after `*`: it needs a number or dice after it"),
        ("(", "ends after `(`: it needs a number or dice after it"),
        ("(3d6", "expected `)`"),
        ("3d", "sides after `d`"),
        ("3d6kh", "how many dice to keep"),
        ("3d6>=", "target number"),
        (
            "card<=",
            "`card<=` needs the number a card must be at or under",
        ),
        ("3cards", "`3cards` needs `<=` and the number"),
        ("card", "`card` needs `<=` and the number"),
    ] {
        let out = sandtable(&["odds", expr], None);
        out.expect_code(1).no_panic().stderr_has(&[says]);
        assert!(
            !out.stderr.contains("unexpected character `v`")
                && !out.stderr.contains("unexpected character `V`"),
            "{expr}: {}",
            out.stderr
        );
    }
    // `vs` needs no spaces round it: no dice expression holds a `v`.
    assert_eq!(
        json(&["3d6vs2d6"])["attacker_wins"],
        json(&["3d6 vs 2d6"])["attacker_wins"]
    );
    // Nothing at all is no dice expression.
    let e = sandtable::host::dice::DiceExpr::parse("").unwrap_err();
    assert!(e.message.contains("nothing written"), "{}", e.message);
}

// `odds --action` started only from a scenario, so a Soldiers in Time check, which comes
// after orders and phases, could not be asked from the command line. `--open SAVE` starts
// from a game saved with `:save`, and gives the odds the prompt's `:odds` gives there.
#[test]
fn action_odds_start_from_a_saved_game_with_open() {
    let ws = common::Workspace::new();
    let scenario = common::project_file("scenarios/sint_edgehill_lane.yaml");
    let to_the_check =
        "order astley forward_march\nend_turn\nend_turn\nend_turn\nend_turn\nend_turn\n";
    let out = ws.sandtable(
        &["--seed", "1", "play", &scenario],
        Some(&format!(
            "{to_the_check}:odds reveal astley\n:save g.json\n"
        )),
    );
    out.expect_code(0).stdout_has(&["saved to g.json"]);
    let at_the_prompt = out
        .stdout
        .lines()
        .skip_while(|l| !l.contains("odds of `reveal astley`"))
        .take_while(|l| !l.starts_with('>'))
        .map(|l| l.trim_start_matches("> ").to_string())
        .collect::<Vec<_>>();
    assert!(at_the_prompt.len() > 2, "{}", out.stdout);
    let asked = ws.sandtable(
        &["odds", "--action", "reveal astley", "--open", "g.json"],
        None,
    );
    asked
        .expect_code(0)
        .stdout_has(&["astley activated", "21/25"]);
    let printed: Vec<&str> = asked.stdout.lines().collect();
    assert_eq!(
        printed,
        at_the_prompt.iter().map(String::as_str).collect::<Vec<_>>()
    );
    // A save knows its scenario and its house rules: neither is given with it.
    ws.sandtable(
        &[
            "odds",
            "--action",
            "reveal astley",
            "--open",
            "g.json",
            "--scenario",
            &scenario,
        ],
        None,
    )
    .expect_code(2);
    ws.sandtable(
        &[
            "odds",
            "--action",
            "reveal astley",
            "--open",
            "g.json",
            "--with",
            "x.rhai",
        ],
        None,
    )
    .expect_code(2)
    .stderr_has(&["`odds --with` means nothing with `--open`"]);
}

// `:odds` called a fight whose loser gives ground "no change": only hits, stands, tags and
// removals were compared. A unit that moved or turned says so. A rifleman fights a Zulu with
// a known 5♥ on top of the deck: every save and morale check passes, so every fight but a tie
// (the rifleman's d10 one more than the Zulu's, who parries +1: 9 in 100) sends its loser back
// 1", and only the ties change nothing.
#[test]
fn odds_of_a_fight_say_the_loser_gave_ground() {
    use common::sint::{brit, game, zulu};
    let pte = brit("pte", "rifleman", 10.0, 10.0, "");
    let warrior = zulu("warrior", "zulu", 10.0, 11.0, "");
    let out = game(&[pte], &[warrior], &["5H"])
        .play_ok(1, "set_phase(\"melee\")\n:odds fight pte warrior\n");
    let printed = common::game::after(&out, ":odds fight pte warrior");
    assert!(printed.contains(": exact, over "), "{printed}");
    assert_eq!(
        common::game::chance_at_prompt(&printed, "no change"),
        "9/100",
        "{printed}"
    );
    assert!(printed.contains("warrior moved 1\""), "{printed}");
    assert!(printed.contains("pte moved 1\""), "{printed}");
}

// docs/odds.md did not list the limits that apply to odds. Its table of limits is the
// program's: each named row's value is the constant's, every limit of the dice and odds part
// of `src/limits.rs` has a row, and the numbers the prose quotes are the constants too.
#[test]
fn the_limits_in_docs_odds_md_are_the_programs() {
    use sandtable::analysis::action_odds::{PROBE_MARGIN, PROBES, PROBES_FAR};
    use sandtable::host::dice::DEFAULT_EXPLODE_CAP;
    use sandtable::limits::*;
    let docs = std::fs::read_to_string(common::project().join("docs/odds.md")).unwrap();
    let constants: Vec<(&str, u128)> = vec![
        ("MAX_DICE", u128::from(MAX_DICE)),
        ("MAX_TOTAL_DICE", MAX_TOTAL_DICE as u128),
        ("MAX_SIDES", u128::from(MAX_SIDES)),
        ("MAX_NUMBER", MAX_NUMBER as u128),
        ("MAX_EXPR_LEN", MAX_EXPR_LEN as u128),
        ("MAX_NESTING", MAX_NESTING as u128),
        ("DEFAULT_EXPLODE_CAP", u128::from(DEFAULT_EXPLODE_CAP)),
        ("MAX_VALUES", MAX_VALUES as u128),
        ("MAX_WORK", u128::from(MAX_WORK)),
        ("MAX_BRANCH_DICE", MAX_BRANCH_DICE as u128),
        ("MAX_BRANCHES", u128::from(MAX_BRANCHES)),
        ("ESTIMATE_RUNS", u128::from(ESTIMATE_RUNS)),
    ];
    let table = docs
        .split("## Limits")
        .nth(1)
        .and_then(|rest| rest.split("\n## ").next())
        .expect("a section `## Limits` in docs/odds.md");
    let mut rows = 0;
    for line in table
        .lines()
        .filter(|l| l.starts_with("| ") && l.contains('`'))
    {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        let (value, name) = (cells[2], cells[3].trim_matches('`'));
        let Some(&(_, n)) = constants.iter().find(|(c, _)| *c == name) else {
            panic!("docs/odds.md names `{name}`, which the test does not know: {line}");
        };
        assert_eq!(value, common::with_commas(n), "docs/odds.md: {line}");
        rows += 1;
    }
    assert_eq!(rows, constants.len(), "one row a limit:\n{table}");
    // Every limit of the dice and odds part of src/limits.rs is in the table.
    let limits = std::fs::read_to_string(common::project().join("src/limits.rs")).unwrap();
    let part = limits
        .split("// ---- Dice and odds")
        .nth(1)
        .and_then(|rest| rest.split("// ---- ").next())
        .expect("a part for dice and odds in src/limits.rs");
    for line in part.lines().filter(|l| l.starts_with("pub const ")) {
        let name = line["pub const ".len()..].split(':').next().unwrap();
        assert!(
            table.contains(&format!("`{name}`")),
            "`{name}` (src/limits.rs) is not in the limits of docs/odds.md"
        );
    }
    // The numbers the prose quotes.
    for said in [
        format!(
            "more dice than a roll may ({})",
            common::with_commas(MAX_TOTAL_DICE as u128)
        ),
        format!(
            "more than {} steps",
            common::with_commas(u128::from(MAX_WORK))
        ),
        format!(
            "more than {} branches, when one branch rolls more than {MAX_BRANCH_DICE} dice",
            common::with_commas(u128::from(MAX_BRANCHES))
        ),
        format!(
            "action {} times on seeded streams",
            common::with_commas(u128::from(ESTIMATE_RUNS))
        ),
        format!("`!` alone means {DEFAULT_EXPLODE_CAP}"),
        format!("makes {PROBES} seeded trial runs"),
        format!(
            "When {PROBES_FAR} of them find more than {}",
            common::with_commas(PROBE_MARGIN)
        ),
        format!("far more than {MAX_BRANCHES} branches of dice and cards (seen in {PROBES} trial"),
        format!(
            "playing {} branches first",
            common::with_commas(u128::from(MAX_BRANCHES))
        ),
        format!("under one in {}", common::with_commas(PROBE_MARGIN)),
    ] {
        let prose = docs.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(prose.contains(&said), "docs/odds.md does not say {said:?}");
    }
}
