//! The rules of *Soldiers in Time 5.1* (freeware skirmish rules) for the deck, the checks,
//! leaders and command range, colours, the turn's phases, orders and the rally phase, as
//! implemented in `scripts/rulesets/soldiers_in_time/rules.rhai` and `morale.rhai`. Each test is
//! named after the clause it guards (CLAUSES.md lists them).
//!
//! Every test stacks the deck (`decks: { cards: { cards: [...], shuffle: false } }`), so the
//! cards come in a known order and each check's result is certain; the narration of the check
//! is asserted exactly.

mod common;

use common::game::{after, transcript};
use common::sint::{brit, game, game_with, zulu};

/// A sergeant (leader, experience 8) with two riflemen (experience 6): `pte_1` 1" from him,
/// `pte_2` 10" away; and one Zulu far to the north.
fn section() -> Vec<String> {
    vec![
        brit("sgt", "sergeant", 10.0, 4.0, ", groups: { unit: first }"),
        brit("pte_1", "rifleman", 12.0, 4.0, ", groups: { unit: first }"),
        brit("pte_2", "rifleman", 22.0, 4.0, ", groups: { unit: first }"),
    ]
}

fn one_zulu() -> Vec<String> {
    vec![zulu("warrior", "zulu", 10.0, 20.0, "")]
}

fn refs(v: &[String]) -> Vec<&str> {
    v.iter().map(String::as_str).collect()
}

// Guards 5 "Setup": "the players need to decide if they are red or black": the first side
// listed plays red unless the scenario chooses.
#[test]
fn the_first_side_plays_red_unless_the_scenario_chooses() {
    let (b, z) = (section(), one_zulu());
    let out = game(&refs(&b), &refs(&z), &[]).play_ok(1, "print(game_stat(\"colour_zulus\"))\n");
    out.stdout_has(&["The British play red, The Zulus black\n", "black\n"]);
    let chosen = game_with(
        &refs(&b),
        &refs(&z),
        &[],
        "data: { red_side: zulus }\n",
    );
    chosen
        .play_ok(1, "")
        .stdout_has(&["The British play black, The Zulus red\n"]);
}

// Guards 5 "Flip a playing card for each sub phase to see which side will move first": the
// side whose colour the card shows goes first, and the other side after it.
#[test]
fn the_flipped_cards_colour_decides_who_moves_first_in_a_sub_phase() {
    let (b, z) = (section(), one_zulu());
    // Command: the British, then the Zulus write orders. Movement of men: a black card.
    let out = game(&refs(&b), &refs(&z), &["2S"]).play_ok(1, "end_turn\nend_turn\nprint(active_side())\n");
    out.stdout_has(&[
        "movement: men, artillery and mixed units: card 2♠ is black: The Zulus (black) go first\n",
        "zulus\n",
    ]);
    let out = game(&refs(&b), &refs(&z), &["9D"]).play_ok(1, "end_turn\nend_turn\nprint(active_side())\n");
    out.stdout_has(&["card 9♦ is red: The British (red) go first\n", "british\n"]);
}

// Guards 5.2 "passing if the card is a face card or is a number equal to or lower then their
// experience number": a 6 passes experience 6, a 7 fails it.
#[test]
fn activation_passes_on_a_card_at_or_under_experience() {
    let (b, z) = (section(), one_zulu());
    let lines = "order pte_1 move\nend_turn\nend_turn\nreveal pte_1\n";
    let out = game(&refs(&b), &refs(&z), &["2H", "6S"]).play_ok(1, lines);
    assert_eq!(
        after(&out, "reveal pte_1"),
        "pte_1's order: move\n  drew 6♠ from the cards deck\n  discarded 6♠ to the cards deck\n  pte_1 activation check: card 6♠ against 6: passes (6 is at or under 6)\n  pte_1 is tagged `activated`\n"
    );
    let out = game(&refs(&b), &refs(&z), &["2H", "7S"]).play_ok(1, lines);
    assert!(
        after(&out, "reveal pte_1").contains("card 7♠ against 6: fails (7 is over 6)"),
        "{}",
        transcript(&out)
    );
}

// Guards the face-card rule (3, 5.2; issue: "face cards count only for a figure within 3
// inches of a leader"): a King passes pte_1's check 1" from his sergeant and fails pte_2's,
// 10" away.
#[test]
fn a_face_card_passes_only_within_a_leaders_command_range() {
    let (b, z) = (section(), one_zulu());
    let out = game(&refs(&b), &refs(&z), &["KS", "KH"]).play_ok(
        1,
        "_morale(unit(\"pte_1\"), \"a test\")\n_morale(unit(\"pte_2\"), \"a test\")\n",
    );
    out.stdout_has(&[
        "  pte_1 morale check: card K♠, a face card, against 6: passes (sgt is within command range)\n",
        "  pte_2 morale check: card K♥, a face card, against 6: fails (no leader within command range)\n",
    ]);
}

// Guards 5.2 "A face card automatically causes the leader to pass the activation check" and "A
// leader always fails on an Ace".
#[test]
fn a_leader_passes_on_any_face_card_and_always_fails_on_an_ace() {
    let (b, z) = (section(), one_zulu());
    let lines = "order sgt forward_march\nend_turn\nend_turn\nreveal sgt\n";
    let out = game(&refs(&b), &refs(&z), &["2H", "QC"]).play_ok(1, lines);
    assert!(
        after(&out, "reveal sgt").contains("sgt activation check: card Q♣, a face card, against 8: passes (a leader passes on a face card)"),
        "{}",
        transcript(&out)
    );
    let out = game(&refs(&b), &refs(&z), &["2H", "AC"]).play_ok(1, lines);
    assert!(
        after(&out, "reveal sgt").contains("sgt activation check: card A♣ against 8: fails (a leader always fails on an Ace)"),
        "{}",
        transcript(&out)
    );
}
