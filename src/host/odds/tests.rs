//! Unit tests of `odds`.

use super::*;

// `128d2` has exactly 2^128 outcomes, one too many for a `u128`; the error said "more
// than 2^128".
#[test]
fn exactly_two_to_the_128_outcomes_is_refused_truthfully() {
    let dist = |text: &str| distribution(DiceExpr::parse(text).unwrap().node());
    assert!(dist("127d2").is_ok());
    let e = dist("128d2").unwrap_err();
    assert_eq!(e, OddsError::Overflow);
    let said = e.to_string();
    assert!(!said.contains("more than 2^128"), "{said}");
    assert!(said.contains("2^128 or more"), "{said}");
}
use crate::host::dice::DiceExpr;

fn dist(src: &str) -> Dist {
    distribution(DiceExpr::parse(src).unwrap().node()).unwrap()
}

fn spec(src: &str) -> DiceGroupSpec {
    match DiceExpr::parse(src).unwrap().node() {
        Node::Dice(s) => s.clone(),
        other => panic!("not a group: {other:?}"),
    }
}

/// Every outcome listed one by one (an odometer over the faces each roll asks for), to
/// check the counting methods against.
fn brute(src: &str) -> Dist {
    let expr = DiceExpr::parse(src).unwrap();
    let mut pairs = Vec::new();
    // path[i] = (face chosen, sides) for the i-th die asked for.
    let mut path: Vec<(u32, u32)> = Vec::new();
    loop {
        let mut i = 0;
        let mut face = |sides: u32| {
            if i == path.len() {
                path.push((1, sides));
            }
            i += 1;
            path[i - 1].0
        };
        pairs.push((expr.roll_with(&mut face).unwrap().total, 1));
        while let Some(&(f, s)) = path.last() {
            if f < s {
                path.last_mut().unwrap().0 += 1;
                break;
            }
            path.pop();
        }
        if path.is_empty() {
            break;
        }
    }
    Dist::from_counts(pairs).unwrap()
}

#[test]
fn two_d6_is_the_triangle() {
    let d = dist("2d6");
    assert_eq!(d.prob(7), Fraction::new(1, 6));
    assert_eq!(d.prob(2), Fraction::new(1, 36));
    assert!((d.mean() - 7.0).abs() < 1e-12);
}

// Where the exact sum and the denominator are small enough to be exact in an `f64`, one
// division is the correctly rounded mean; the mean must be that, sign and all.
#[test]
fn the_mean_is_rounded_once_from_the_exact_fraction() {
    for src in [
        "2d6kh1",
        "1d6-1d7*3",
        "-(3d5)",
        "1d3",
        "4d6kl2-7",
        "1d7*1d9-30",
        "0",
    ] {
        let d = dist(src);
        let sum: i128 = d.iter().map(|(v, c)| i128::from(v) * c as i128).sum();
        let once = sum as f64 / d.denominator() as f64;
        assert_eq!(d.mean().to_bits(), once.to_bits(), "{src}");
    }
    assert_eq!(ratio_to_f64(0, 1, 3), 1.0 / 3.0);
    assert_eq!(ratio_to_f64(-1, 2, 3), -1.0 / 3.0);
    assert_eq!(ratio_to_f64(0, 1, u128::MAX), 1.0 / u128::MAX as f64);
    assert_eq!(ratio_to_f64(190, 1 << 126, 1 << 127), 190.5);
}

#[test]
fn success_pool_5d6_at_least_5_gives_exactly_two_80_in_243() {
    assert_eq!(dist("5d6>=5").prob(2), Fraction::new(80, 243));
}

#[test]
fn keep_highest_matches_listing_every_outcome() {
    for src in ["4d6kh3", "3d6kl1", "5d4kh2", "4d6kh3>=5", "3d8kl2"] {
        assert_eq!(dist(src), brute(src), "{src}");
    }
}

#[test]
fn arithmetic_matches_listing_every_outcome() {
    for src in ["2d6-1d4", "2d4*1d3", "-(1d6)+3", "3d6>=4"] {
        assert_eq!(dist(src), brute(src), "{src}");
    }
}

#[test]
fn exploding_to_a_stated_depth_is_exact() {
    // 1d6!1: 1-5 at 1/6 each, then 6+1..6+6 at 1/36 each.
    let d = dist("1d6!1");
    assert_eq!(d.prob(3), Fraction::new(1, 6));
    assert_eq!(d.prob(6), Fraction::new(0, 1));
    assert_eq!(d.prob(12), Fraction::new(1, 36));
    assert!((d.mean() - (3.5 + 3.5 / 6.0)).abs() < 1e-12);
    // Successes: a 6 is a success and explodes into another die.
    let s = dist("1d6!1>=6");
    assert_eq!(s.prob(2), Fraction::new(1, 36));
    assert_eq!(s.prob(1), Fraction::new(5, 36));
}

#[test]
fn contest_1d6_vs_1d6_is_7_in_12_to_the_attacker() {
    let c = compare(
        &highest_die(&spec("1d6")).unwrap(),
        &highest_die(&spec("1d6")).unwrap(),
    )
    .unwrap();
    assert_eq!(c.attacker_wins(), Fraction::new(7, 12));
    assert_eq!(c.defender_higher, Fraction::new(5, 12));
}

#[test]
fn contest_3d6_vs_2d6_is_5593_in_7776() {
    let c = compare(
        &highest_die(&spec("3d6")).unwrap(),
        &highest_die(&spec("2d6")).unwrap(),
    )
    .unwrap();
    assert_eq!(c.attacker_wins(), Fraction::new(5593, 7776));
}

#[test]
fn big_pools_count_without_listing() {
    let a = highest_die(&spec("20d6")).unwrap();
    let c = compare(&a, &a).unwrap();
    let total = c.attacker_wins().checked_add(c.defender_higher).unwrap();
    assert_eq!(total, Fraction::new(1, 1));
    let k = dist("30d10kh3");
    assert_eq!(k.range(), (3, 30));
    assert_eq!(k.prob(3), Fraction::new(1, 10u128.pow(30)));
}

#[test]
fn card_of_6_or_less_with_faces_passing_is_9_in_13() {
    let check = CardCheck {
        at_most: 6,
        draws: 1,
        jokers: 0,
        faces: FaceCards::Pass,
    };
    assert_eq!(card_check(&check).unwrap().prob(1), Fraction::new(9, 13));
    let fail = CardCheck {
        faces: FaceCards::Fail,
        ..check
    };
    assert_eq!(card_check(&fail).unwrap().prob(1), Fraction::new(6, 13));
}

#[test]
fn cards_are_drawn_without_replacement() {
    // Two cards, both red-suited aces-to-sixes... simpler: both pass with faces failing:
    // 24 passing cards of 52, P(both) = 24*23 / (52*51).
    let check = CardCheck {
        at_most: 6,
        draws: 2,
        jokers: 0,
        faces: FaceCards::Fail,
    };
    assert_eq!(
        card_check(&check).unwrap().prob(2),
        Fraction::new(24 * 23, 52 * 51)
    );
}

#[test]
fn overflow_is_an_error_not_a_wrong_answer() {
    let e = distribution(DiceExpr::parse("60d6").unwrap().node()).unwrap_err();
    assert_eq!(e, OddsError::Overflow);
}

fn error(src: &str) -> OddsError {
    distribution(DiceExpr::parse(src).unwrap().node()).unwrap_err()
}

#[test]
fn a_value_past_64_bits_is_an_error_not_a_wrong_answer() {
    // 10^27 wrapped round to a negative number before.
    assert_eq!(
        error("1000000000*1000000000*1000000000"),
        OddsError::ValueOverflow
    );
    assert_eq!(
        error("1000000000*1000000000*10-1d6"),
        OddsError::ValueOverflow
    );
    // Within 64 bits all is well.
    assert_eq!(
        dist("1000000000*1000000000").range(),
        (10i64.pow(18), 10i64.pow(18))
    );
}

#[test]
fn counting_that_would_take_too_long_is_refused_up_front() {
    // Each of these took seconds to minutes, or for ever, before.
    assert_eq!(error("2d10000"), OddsError::TooMuchWork);
    assert_eq!(error("3d10000kh2"), OddsError::TooMuchWork);
    assert!(matches!(
        error("1d1!1000000000"),
        OddsError::Unsupported(m) if m.contains("at most 100000")
    ));
    // Large but reasonable ones still answer.
    assert_eq!(dist("2d1000").prob(2000), Fraction::new(1, 1_000_000));
    assert_eq!(dist("3d300kh2").range(), (2, 600));
    assert_eq!(dist("1d1!50000").range(), (50_001, 50_001));
}

#[test]
fn at_least_sums_from_each_value_up() {
    let d = dist("2d6");
    let at_least = d.at_least();
    assert_eq!(at_least.first(), Some(&(2, Fraction::new(1, 1))));
    assert_eq!(at_least[5], (7, Fraction::new(7, 12)));
    assert_eq!(at_least.last(), Some(&(12, Fraction::new(1, 36))));
    for (v, f) in at_least {
        assert_eq!(f, d.prob_where(|x| x >= v));
    }
}

#[test]
fn keeping_every_die_keeps_the_highest_too() {
    assert_eq!(highest_die(&spec("3d6kl3")), highest_die(&spec("3d6")));
    assert!(highest_die(&spec("3d6kl2")).is_err());
}

#[test]
fn no_dice_have_a_highest_die_of_nothing() {
    // As a figure with no dice scores 0 in Playmobil: any die beats it.
    assert_eq!(highest_die(&spec("0d6")).unwrap(), Dist::point(0));
    let c = compare(
        &highest_die(&spec("0d6")).unwrap(),
        &highest_die(&spec("1d6")).unwrap(),
    )
    .unwrap();
    assert_eq!(c.defender_higher, Fraction::new(1, 1));
}
