//! The orders of *Soldiers in Time 5.1* (freeware skirmish rules) as they bear on fire:
//! Independent Fire's standing order (5.2), what a failed activation check leaves a man (5.2),
//! and whom a leader's group order reaches (1.2, 5.2), as played by
//! `scripts/rulesets/soldiers_in_time/rules.rhai` and `shooting.rhai`. Each test is named after
//! the rule or the symptom it guards; the deck is stacked so every card is known.

use crate::common;

use common::game::{after, transcript};
use common::sint::{
    game, in_unit, order_and_reveal, section_game, sergeant_and_rifleman_against, warrior_at,
};

// Guards 5.2 Independent Fire: "Soldiers under Independent Fire orders do not have to roll for
// an activation check until the leader either dies or gives different orders": the sergeant
// giving the same order again flips no card (a 9♥ would fail his 8), and pte_1 keeps his
// standing order. (Broke when the same order again wiped the men's standing order and forced a
// new check: the computer gave it every turn, `battle scenarios/sint_trench_raid.yaml --seed 4`.)
#[test]
fn the_same_independent_fire_order_again_keeps_the_standing_order_without_a_card() {
    let b = vec![
        in_unit("sgt", "sergeant", 10.0, 4.0, ""),
        in_unit("pte_1", "rifleman", 12.0, 4.0, ", tags: [independent_fire]"),
    ];
    let g = game(&b, &warrior_at(12.0, 14.0), &["9H"; 10]);
    let out = g.play_ok(
        1,
        &format!(
            "{}print(unit(\"pte_1\").has_tag(\"independent_fire\"))\n",
            order_and_reveal("sgt independent_fire")
        ),
    );
    let told = after(&out, "reveal sgt");
    assert!(
        told.starts_with("sgt's order: independent fire for 2 figures (sgt, pte_1)\n  pte_1 fires at will already: the order stands, no card for him\n  sgt gives no different order: no card is flipped, and he fires at will with his men\n"),
        "{}",
        transcript(&out)
    );
    assert!(!told.contains("activation check"), "{}", transcript(&out));
    assert!(
        !told.contains("loses the tag `independent_fire`"),
        "{}",
        transcript(&out)
    );
    assert!(
        after(&out, "print(unit(\"pte_1\").has_tag(\"independent_fire\"))").starts_with("true\n"),
        "{}",
        transcript(&out)
    );
}

// Guards 5.2 Independent Fire's standing order for the men who have it, while a man new to the
// unit's range still needs the leader's card: the 9♥ fails the sergeant's 8 for pte_2, and
// pte_1 fires at will all the same.
#[test]
fn independent_fire_again_checks_only_for_the_men_not_yet_under_it() {
    let b = vec![
        in_unit("sgt", "sergeant", 10.0, 4.0, ""),
        in_unit("pte_1", "rifleman", 12.0, 4.0, ", tags: [independent_fire]"),
        in_unit("pte_2", "rifleman", 8.0, 4.0, ""),
    ];
    let g = game(&b, &warrior_at(12.0, 14.0), &["9H"; 10]);
    let out = g.play_ok(1, &order_and_reveal("sgt independent_fire"));
    let told = after(&out, "reveal sgt");
    assert!(
        told.contains("  sgt activation check: card 9♥ against 8: fails (9 is over 8)\n"),
        "{}",
        transcript(&out)
    );
    assert!(told.contains("  pte_2 is tagged `failed`\n"), "{told}");
    assert!(!told.contains("pte_1 is tagged `failed`"), "{told}");
    assert!(!told.contains("pte_1 loses the tag"), "{told}");
}

// Guards 5.2 "When the Activation Check is successful, the figure can execute one turn of
// action": a man whose check failed does not fire, and the refusal says that his check failed
// and when. (Broke when it said "has no order to fire".)
#[test]
fn a_man_whose_activation_check_failed_is_told_so_when_he_would_fire() {
    let g = sergeant_and_rifleman_against(12.0, 14.0, &["9H"; 10]);
    let out = g.play_refused(
        1,
        &format!(
            "{}set_phase(\"shooting\")\nshoot pte_1 warrior\n",
            order_and_reveal("pte_1 fire")
        ),
        &["pte_1 failed his activation check (movement: men, artillery and mixed units, turn 1): he does not carry out his order, and does not fire this turn"],
    );
    assert!(
        !out.stderr.contains("has no order to fire"),
        "{}",
        out.stderr
    );
    // A man of a unit whose leader's card failed is told it was his leader's.
    let g = sergeant_and_rifleman_against(12.0, 14.0, &["9H"; 10]);
    g.play_refused(
        1,
        &format!(
            "{}set_phase(\"shooting\")\nshoot pte_1 warrior\n",
            order_and_reveal("sgt volley_fire")
        ),
        &["pte_1 failed sgt's activation check for his unit (movement: men, artillery and mixed units, turn 1)"],
    );
}

// Guards 1.2 "Any figure or group that is within the 3 inch command range of the leader can be
// given direct orders by him" and 5.2 "only the ones near the leader can be moved": a group
// order says, when it is written, which men of the unit it reaches and which are beyond his
// command range. (Broke when an order that reached 1 of 2 men said nothing until revealed.)
#[test]
fn a_group_order_says_when_written_which_men_it_reaches_and_which_are_out_of_range() {
    let out = section_game(&["5H"]).play_ok(1, "order sgt forward_march\n");
    assert_eq!(
        after(&out, "order sgt forward_march"),
        "The British write an order for sgt: it reaches pte_1 (1 of 2 in his unit); pte_2 is beyond his command range (3\")\n",
        "{}",
        transcript(&out)
    );
    // An order of his own says nothing of his men.
    let out = section_game(&["5H"]).play_ok(1, "order sgt hold\n");
    assert_eq!(
        after(&out, "order sgt hold"),
        "The British write an order for sgt\n"
    );
}
