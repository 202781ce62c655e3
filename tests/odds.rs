//! `sandtable odds`: exact distributions of dice, contests and card checks through the real
//! binary, checked against values worked by hand.

mod common;

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
