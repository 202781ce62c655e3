//! Unit tests of `dice`.

use super::*;

// A script's bad expression was quoted whole: 400 KB of message for a 400,000-character
// expression.
#[test]
fn an_error_quotes_a_long_expression_by_a_window() {
    let short = "1d6+2x";
    let e = DiceExpr::parse(short).unwrap_err();
    assert_eq!(e.excerpt(short), "`1d6+2x`");
    let long = format!("{}x", "1d6+".repeat(100));
    let e = DiceExpr::parse(&long).unwrap_err();
    let quoted = e.excerpt(&long);
    assert!(quoted.starts_with("`…"), "{quoted}");
    assert!(quoted.ends_with("+x` (character 401 of 401)"), "{quoted}");
    assert!(
        quoted.chars().count() < 2 * EXCERPT_CONTEXT + 40,
        "{quoted}"
    );
    let huge = "1d6+".repeat(100_000);
    let e = DiceExpr::parse(&huge).unwrap_err();
    assert!(e.excerpt(&huge).len() < 200, "{}", e.excerpt(&huge));
}

fn parse(src: &str) -> DiceExpr {
    DiceExpr::parse(src).unwrap_or_else(|e| panic!("`{src}` should parse: {e}"))
}

fn err(src: &str) -> DiceError {
    match DiceExpr::parse(src) {
        Ok(e) => panic!("`{src}` should not parse, got `{e}`"),
        Err(e) => e,
    }
}

/// Rolls `src` with the dice given in order, so results can be worked out by hand.
fn scripted(src: &str, faces: &[u32]) -> Roll {
    let mut faces = faces.iter().copied();
    let roll = parse(src)
        .roll_with(&mut |_| faces.next().expect("script ran out of dice"))
        .unwrap();
    assert_eq!(faces.next(), None, "script has unused dice");
    roll
}

fn constant(src: &str) -> i64 {
    let expr = parse(src);
    assert!(expr.is_constant());
    expr.roll(&mut GameRng::new(0)).unwrap().total
}

fn group(count: u32, sides: u32) -> DiceGroupSpec {
    DiceGroupSpec {
        count,
        sides,
        explode: None,
        keep: None,
        target: None,
    }
}

// --- parsing and the normalised text -----------------------------------------------------

#[test]
fn parse_normalises_spacing_case_and_defaults() {
    let cases = [
        (" 4D6 K3 + 1 ", "4d6kh3+1"),
        ("d6", "1d6"),
        ("d%", "1d100"),
        ("D%!", "1d100!"),
        ("3d6>=4kl2!", "3d6!kl2>=4"),
        ("2d6!100", "2d6!"),
        ("2d6!0", "2d6!0"),
        ("2d6 ! 5", "2d6!5"),
        ("4d6KL1", "4d6kl1"),
        ("5d6 < 3", "5d6<3"),
        ("5d6<=3", "5d6<=3"),
        ("5d6>3", "5d6>3"),
        ("5d6=3", "5d6=3"),
        ("0d6", "0d6"),
        ("3 d6", "3d6"),
    ];
    for (src, want) in cases {
        assert_eq!(parse(src).to_string(), want, "normalising `{src}`");
    }
}

#[test]
fn parse_builds_the_expected_tree() {
    let n = |v| Box::new(Node::Number(v));
    let keep3 = DiceGroupSpec {
        keep: Some(Keep::Highest(3)),
        ..group(4, 6)
    };
    assert_eq!(
        parse("4d6kh3+1").node(),
        &Node::Add(Box::new(Node::Dice(keep3)), n(1))
    );
    assert_eq!(
        parse("-2*3").node(),
        &Node::Mul(Box::new(Node::Neg(n(2))), n(3))
    );
    assert_eq!(
        parse("1-2-3").node(),
        &Node::Sub(Box::new(Node::Sub(n(1), n(2))), n(3))
    );
    let all = DiceGroupSpec {
        explode: Some(2),
        keep: Some(Keep::Lowest(1)),
        target: Some(Target {
            cmp: Cmp::Le,
            value: 3,
        }),
        ..group(1, 100)
    };
    assert_eq!(parse("d%<=3kl1!2").node(), &Node::Dice(all));
}

#[test]
fn arithmetic_follows_precedence() {
    assert_eq!(constant("2+3*4"), 14);
    assert_eq!(constant("(2+3)*4"), 20);
    assert_eq!(constant("1-2-3"), -4);
    assert_eq!(constant("-2*3"), -6);
    assert_eq!(constant("--5"), 5);
    assert_eq!(constant("10-(2-3)"), 11);
    assert_eq!(constant("2*-3"), -6);
}

#[test]
fn display_keeps_only_needed_parentheses() {
    let cases = [
        ("1-(2+3)", "1-(2+3)"),
        ("(1-2)+3", "1-2+3"),
        ("2*(3*4)", "2*(3*4)"),
        ("(2*3)*4", "2*3*4"),
        ("-(2*3)", "-(2*3)"),
        ("-(2+d6)", "-(2+1d6)"),
        ("((7))", "7"),
        ("-(-1)", "--1"),
        ("(1+2)*(3-d4)", "(1+2)*(3-1d4)"),
    ];
    for (src, want) in cases {
        assert_eq!(parse(src).to_string(), want, "normalising `{src}`");
    }
}

#[test]
fn normalised_text_parses_back_to_the_same_tree() {
    for src in [
        "4d6kh3+1",
        "1-(2+3)*-d8!3kl1",
        "2*(3*4)",
        "--(1d6>=4)",
        "(d%+d20)*(2-d6!0)",
        "1000000000*10000d1000000",
    ] {
        let expr = parse(src);
        assert_eq!(parse(&expr.to_string()), expr, "round trip of `{src}`");
    }
}

#[test]
fn dice_count_and_is_constant() {
    assert_eq!(parse("3d6+2d8kh1").dice_count(), 5);
    assert_eq!(parse("d6").dice_count(), 1);
    assert!(parse("2+3").is_constant());
    assert!(parse("0d6+1").is_constant());
    assert!(!parse("d6").is_constant());
}

#[test]
fn target_hits_each_comparison() {
    let t = |cmp| Target { cmp, value: 4 };
    assert_eq!([3, 4, 5].map(|v| t(Cmp::Ge).hits(v)), [false, true, true]);
    assert_eq!([3, 4, 5].map(|v| t(Cmp::Le).hits(v)), [true, true, false]);
    assert_eq!([3, 4, 5].map(|v| t(Cmp::Gt).hits(v)), [false, false, true]);
    assert_eq!([3, 4, 5].map(|v| t(Cmp::Lt).hits(v)), [true, false, false]);
    assert_eq!([3, 4, 5].map(|v| t(Cmp::Eq).hits(v)), [false, true, false]);
}

// --- errors ------------------------------------------------------------------------------

#[test]
fn missing_sides_points_at_end_of_input() {
    let e = err("3d");
    assert_eq!(
        e.message,
        "expected a number of sides after `d`, found end of input"
    );
    assert_eq!((e.offset, e.len), (2, 1));
    assert_eq!(e.byte_range("3d"), 2..2);
    let e = err("d");
    assert_eq!((e.offset, e.len), (1, 1));
    let e = err("2dk3");
    assert_eq!(e.message, "expected a number of sides after `d`, found `k`");
    assert_eq!(e.offset, 2);
}

#[test]
fn unicode_times_sign_is_an_unexpected_character() {
    let e = err("3d6×2");
    assert_eq!(e.message, "unexpected character `×`");
    assert_eq!((e.offset, e.len), (3, 1));
    assert_eq!(e.help.as_deref(), Some("multiply with `*`, e.g. `2*d6`"));
    // `×` is two bytes in UTF-8.
    assert_eq!(e.byte_range("3d6×2"), 3..5);
    assert_eq!(e.to_string(), e.message);
}

#[test]
fn keeping_more_dice_than_rolled_is_an_error_with_a_fix() {
    let e = err("2d6kh3");
    assert_eq!(
        e.message,
        "keep 3 of 2 dice: cannot keep more dice than are rolled"
    );
    assert_eq!(e.help.as_deref(), Some("write 2d6kh2 or roll more dice"));
    assert_eq!((e.offset, e.len), (3, 3));
    assert_eq!(
        err("2d6!kl3").help.as_deref(),
        Some("write 2d6!kl2 or roll more dice")
    );
    assert_eq!(err("0d6k1").help.as_deref(), Some("roll at least one die"));
    let e = err("2d6 k0");
    assert_eq!(e.message, "cannot keep 0 dice: keep at least 1");
    assert_eq!((e.offset, e.len), (4, 2));
    assert!(DiceExpr::parse("2d6kh2").is_ok());
}

#[test]
fn too_many_dice_is_an_error_at_the_group_that_crosses_the_limit() {
    let e = err("20000d6");
    assert_eq!(
        e.message,
        "too many dice: 20000 (at most 10000 in one roll)"
    );
    assert_eq!((e.offset, e.len), (0, 7));
    let e = err("5000d6+5000d6+1d6");
    assert_eq!(
        e.message,
        "too many dice: 10001 (at most 10000 in one roll)"
    );
    assert_eq!((e.offset, e.len), (14, 3));
    assert_eq!(parse("5000d6+5000d6").dice_count(), 10_000);
}

#[test]
fn sides_must_be_between_one_and_a_million() {
    let e = err("d0");
    assert_eq!(e.message, "a die must have 1 to 1000000 sides, found 0");
    assert_eq!((e.offset, e.len), (1, 1));
    let e = err("0d0");
    assert_eq!(e.offset, 2);
    assert_eq!(err("1d1000001").offset, 2);
    assert_eq!(parse("1d1000000").to_string(), "1d1000000");
}

#[test]
fn numbers_above_a_billion_are_errors() {
    let e = err("99999999999999999999d6");
    assert_eq!(
        e.message,
        "number `99999999999999999999` is too large (at most 1000000000)"
    );
    assert_eq!((e.offset, e.len), (0, 20));
    assert_eq!(err("1+1000000001").offset, 2);
    assert_eq!(constant("1000000000"), 1_000_000_000);
    assert_eq!(constant("0000000000007"), 7);
}

#[test]
fn expressions_longer_than_the_limit_are_errors() {
    let ok = "1+".repeat(499) + "10";
    assert_eq!(ok.chars().count(), 1000);
    assert_eq!(constant(&ok), 509);
    let long = ok + "0";
    let e = err(&long);
    assert_eq!(
        e.message,
        "expression too long: 1001 characters (at most 1000)"
    );
    assert_eq!((e.offset, e.len), (1000, 1));
}

#[test]
fn nesting_deeper_than_64_is_an_error() {
    let ok = format!("{}1{}", "(".repeat(64), ")".repeat(64));
    assert_eq!(constant(&ok), 1);
    let deep = format!("{}1{}", "(".repeat(65), ")".repeat(65));
    let e = err(&deep);
    assert_eq!(e.message, "too many nested parentheses (at most 64)");
    assert_eq!((e.offset, e.len), (64, 1));
    // Ten thousand is caught by the length limit before any parsing.
    let e = err(&"(".repeat(10_000));
    assert_eq!(e.offset, MAX_EXPR_LEN);
}

#[test]
fn long_runs_of_minus_and_plus_do_not_overflow_the_stack() {
    // The deepest trees a 1000-character expression allows, on a test thread's 2 MB stack.
    let minus = "-".repeat(999) + "1";
    assert_eq!(constant(&minus), -1);
    let expr = parse(&minus);
    assert_eq!(expr.to_string(), minus);
    assert_eq!(expr.clone(), expr);
    assert!(format!("{expr:?}").starts_with("DiceExpr"));
    let sum = "1+".repeat(499) + "d6";
    let roll = parse(&sum).roll(&mut GameRng::new(1)).unwrap();
    assert!((500..=505).contains(&roll.total));
    assert!(roll.to_string().ends_with(&format!(" = {}", roll.total)));
}

#[test]
fn each_modifier_may_appear_once_per_group() {
    let e = err("1d6!!");
    assert_eq!(
        e.message,
        "a dice group can explode only once: found a second `!`"
    );
    assert_eq!(e.offset, 4);
    let e = err("2d6kh1kl1");
    assert_eq!(
        e.message,
        "a dice group can have only one keep modifier: found a second `k`"
    );
    assert_eq!(e.offset, 6);
    let e = err("5d6>=5<2");
    assert_eq!(
        e.message,
        "a dice group can have only one success target: found a second `<`"
    );
    assert_eq!(e.offset, 6);
}

#[test]
fn fractional_numbers_are_errors() {
    let e = err("5d6>=4.5");
    assert_eq!(e.message, "expected a whole number, found `4.5`");
    assert_eq!((e.offset, e.len), (5, 3));
    assert_eq!(err("2,5d6").message, "expected a whole number, found `2,5`");
}

#[test]
fn empty_input_expects_something_at_the_end() {
    let e = err("");
    assert_eq!(e.message, "nothing written: write dice such as `3d6`");
    assert_eq!((e.offset, e.len), (0, 1));
    assert_eq!(e.byte_range(""), 0..0);
    let e = err("   ");
    assert_eq!(e.offset, 3);
    let e = err("1+");
    assert_eq!(e.offset, 2);
}

#[test]
fn leftover_tokens_and_unbalanced_parentheses_are_errors() {
    let e = err("3 4");
    assert_eq!(
        e.message,
        "expected `+`, `-`, `*` or end of input, found `4`"
    );
    assert_eq!(e.offset, 2);
    let e = err("1d6)");
    assert_eq!(e.message, "unmatched `)`");
    assert_eq!(e.offset, 3);
    let e = err("(1d6");
    assert_eq!(e.message, "expected `)`, found end of input");
    assert_eq!(e.offset, 4);
    assert_eq!(e.help.as_deref(), Some("close the `(` at character 1"));
    let e = err("3!");
    assert_eq!(e.offset, 1);
    assert!(e.help.unwrap().contains("follow a dice group"));
    let e = err("1d6kh");
    assert_eq!(
        e.message,
        "expected how many dice to keep after `kh`, found end of input"
    );
    let e = err("1d6>=");
    assert_eq!(
        e.message,
        "expected a target number after `>=`, found end of input"
    );
    let e = err("1d6h2");
    assert_eq!(e.message, "unexpected `h`");
    assert_eq!(e.offset, 3);
    let e = err("+3");
    assert_eq!(e.help.as_deref(), Some("a leading `+` is not needed"));
    let e = err("1d6>=-1");
    assert_eq!(e.message, "expected a target number after `>=`, found `-`");
}

#[test]
fn error_messages_are_lowercase() {
    for src in [
        "", "d", "Q", "1d6)", "(", "2d6kh3", "20000d6", "1.5", "d0", "1d6!!",
    ] {
        let e = err(src);
        let first = e.message.chars().next().unwrap();
        assert!(!first.is_uppercase(), "`{src}`: {}", e.message);
    }
}

#[test]
fn byte_range_converts_character_offsets() {
    let src = "é×+x";
    let e = err(src);
    // `é` is 2 bytes and `×` 2 bytes: character 0 is bytes 0..2.
    assert_eq!((e.offset, e.len), (0, 1));
    assert_eq!(e.byte_range(src), 0..2);
    let e = DiceError::new("m".into(), 1, 2);
    assert_eq!(e.byte_range(src), 2..5);
    let e = DiceError::new("m".into(), 9, 1);
    assert_eq!(e.byte_range(src), 6..6);
}

// --- rolling, with dice worked out by hand -----------------------------------------------

#[test]
fn sum_plus_constant_displays_dice_then_total() {
    let roll = scripted("3d6+1", &[4, 2, 6]);
    assert_eq!(roll.to_string(), "[4, 2, 6] + 1 = 13");
    assert_eq!(roll.total, 13);
    assert_eq!(roll.expr, "3d6+1");
    assert_eq!(roll.groups[0].spec, "3d6");
    assert_eq!(roll.groups[0].value, 12);
}

#[test]
fn keep_highest_marks_dropped_dice() {
    let roll = scripted("4d6kh3", &[5, 3, 1, 6]);
    assert_eq!(roll.to_string(), "[5, 3, ~1, 6] = 14");
    assert_eq!(roll.kept_values(), vec![5, 3, 6]);
    assert_eq!(roll.all_values(), vec![5, 3, 1, 6]);
    assert_eq!(roll.highest(), Some(6));
    assert_eq!(roll.lowest(), Some(3));
    assert_eq!(roll.dice_count(), 4);
    assert_eq!(roll.successes(), 0);
}

#[test]
fn keep_ties_go_to_the_die_rolled_first() {
    assert_eq!(scripted("3d6kl2", &[4, 4, 4]).to_string(), "[4, 4, ~4] = 8");
    assert_eq!(
        scripted("3d6kh1", &[6, 6, 2]).to_string(),
        "[6, ~6, ~2] = 6"
    );
    assert_eq!(scripted("3d6k2", &[1, 5, 3]).to_string(), "[~1, 5, 3] = 8");
}

#[test]
fn exploding_die_is_followed_by_its_bonus_die() {
    let roll = scripted("3d6!", &[6, 2, 3, 1]);
    assert_eq!(roll.to_string(), "[6!, 2, 3, 1] = 12");
    let dice = &roll.groups[0].dice;
    assert!(dice[0].exploded && !dice[0].bonus);
    assert!(!dice[1].exploded && dice[1].bonus);
    assert!(!dice[2].bonus);
    assert_eq!(roll.dice_count(), 4);
}

#[test]
fn explosion_cap_stops_the_chain() {
    let roll = scripted("1d6!2", &[6, 6, 6]);
    // The third 6 is at the cap, so it causes nothing and is not marked.
    assert_eq!(roll.to_string(), "[6!, 6!, 6] = 18");
    assert_eq!(scripted("1d6!0", &[6]).to_string(), "[6] = 6");
    assert_eq!(scripted("2d6", &[6, 6]).to_string(), "[6, 6] = 12");
}

#[test]
fn success_counting_marks_hits() {
    let roll = scripted("5d6>=5", &[5, 2, 6, 1, 3]);
    assert_eq!(roll.to_string(), "[5*, 2, 6*, 1, 3] = 2");
    assert_eq!(roll.successes(), 2);
    assert_eq!(roll.groups[0].dice[1].success, Some(false));
    assert_eq!(scripted("3d6=1", &[1, 2, 1]).total, 2);
    assert_eq!(scripted("3d6<3", &[1, 2, 3]).total, 2);
}

#[test]
fn modifiers_apply_explode_then_keep_then_count() {
    // Written in the "wrong" order on purpose. Dice: 6 explodes into 1, then 5.
    // Keep the highest two of [6, 1, 5]: 6 and 5. Both are >= 5: two successes.
    let roll = scripted("2d6>=5kh2!", &[6, 1, 5]);
    assert_eq!(roll.expr, "2d6!kh2>=5");
    assert_eq!(roll.to_string(), "[6!*, ~1, 5*] = 2");
    // A dropped die is not judged.
    assert_eq!(roll.groups[0].dice[1].success, None);
    assert_eq!(roll.successes(), 2);
}

#[test]
fn operators_and_constants_appear_in_the_roll_line() {
    assert_eq!(
        scripted("2*(1d6+1)-1d4", &[3, 2]).to_string(),
        "2 * ([3] + 1) - [2] = 6"
    );
    assert_eq!(scripted("-1d6", &[4]).to_string(), "-[4] = -4");
    assert_eq!(scripted("1d6--2", &[1]).to_string(), "[1] - -2 = 3");
    assert_eq!(scripted("d%", &[42]).to_string(), "[42] = 42");
    assert_eq!(scripted("2+3", &[]).to_string(), "2 + 3 = 5");
    assert_eq!(scripted("0d6+1", &[]).to_string(), "[] + 1 = 1");
}

#[test]
fn successes_add_up_over_groups_and_ignore_plain_groups() {
    let roll = scripted("2d6>=4+1d6+2d6=6", &[4, 1, 6, 6, 6]);
    assert_eq!(roll.successes(), 1 + 2);
    assert_eq!(roll.total, 1 + 6 + 2);
    assert_eq!(roll.highest(), Some(6));
    assert_eq!(roll.lowest(), Some(1));
}

#[test]
fn mismatched_roll_still_displays_everything() {
    let mut roll = scripted("1d6+1d6", &[3, 4]);
    roll.groups.pop();
    roll.total = 3;
    assert_eq!(roll.to_string(), "1d6+1d6: [3] = 3");
    roll.expr = "((((".into();
    assert_eq!(roll.to_string(), "((((: [3] = 3");
}

#[test]
fn d1_explodes_up_to_the_cap() {
    let mut rng = GameRng::new(1);
    let roll = roll("1d1!", &mut rng).unwrap();
    assert_eq!(roll.dice_count(), 101);
    assert_eq!(roll.total, 101);
    let roll = roll_str("1d1!3");
    assert_eq!(roll.to_string(), "[1!, 1!, 1!, 1] = 4");
}

fn roll_str(src: &str) -> Roll {
    roll(src, &mut GameRng::new(9)).unwrap()
}

#[test]
fn explosions_past_the_dice_limit_are_an_error() {
    // 990 dice, each a chain of 101: 99,990 dice, just inside the limit.
    assert_eq!(roll_str("990d1!").dice_count(), 99_990);
    let e = roll("1+1000d1!", &mut GameRng::new(1)).unwrap_err();
    assert_eq!(
        e.message,
        "too many dice: explosions took the roll past 100000 dice"
    );
    assert_eq!((e.offset, e.len), (2, 7));
}

#[test]
fn overflow_is_an_error_not_a_panic() {
    assert_eq!(constant("1000000000*1000000000"), 1_000_000_000_000_000_000);
    let e = roll("1000000000*1000000000*10", &mut GameRng::new(1)).unwrap_err();
    assert!(
        e.message.starts_with("arithmetic overflow"),
        "{}",
        e.message
    );
    assert_eq!((e.offset, e.len), (0, 24));
    let e = roll(
        "-1000000000*1000000000*10-1000000000*1000000000*10",
        &mut GameRng::new(1),
    );
    assert!(e.is_err());
}

#[test]
fn hand_built_trees_are_checked_when_rolled() {
    let mut rng = GameRng::new(1);
    let bad_sides = DiceExpr::from(Node::Dice(group(1, 0)));
    assert_eq!(
        bad_sides.roll(&mut rng).unwrap_err().message,
        "a die must have 1 to 1000000 sides, found 0"
    );
    let bad_keep = DiceExpr::from(Node::Dice(DiceGroupSpec {
        keep: Some(Keep::Highest(5)),
        ..group(2, 6)
    }));
    assert!(bad_keep.roll(&mut rng).is_err());
    let too_many = DiceExpr::from(Node::Dice(group(u32::MAX, 6)));
    assert_eq!(
        too_many.roll(&mut rng).unwrap_err().message,
        "too many dice: 4294967295 (at most 10000 in one roll)"
    );
    let min = DiceExpr::from(Node::Neg(Box::new(Node::Number(i64::MIN))));
    assert!(min.roll(&mut rng).is_err());
    let fine = DiceExpr::from(Node::Add(
        Box::new(Node::Dice(group(2, 1))),
        Box::new(Node::Number(-3)),
    ));
    assert_eq!(fine.to_string(), "2d1+-3");
    assert_eq!(fine.roll(&mut rng).unwrap().total, -1);
}

// --- the real generator ------------------------------------------------------------------

#[test]
fn same_seed_gives_the_same_roll() {
    let expr = parse("10d6!kh5+d20-d%");
    let a = expr.roll(&mut GameRng::new(42)).unwrap();
    let b = expr.roll(&mut GameRng::new(42)).unwrap();
    assert_eq!(a, b);
    let c = expr.roll(&mut GameRng::new(43)).unwrap();
    assert_ne!(a.all_values(), c.all_values());
}

#[test]
fn rolled_dice_stay_within_their_sides() {
    let mut rng = GameRng::new(11);
    let expr = parse("20d7!+10d1+5d3kl2");
    for _ in 0..500 {
        let roll = expr.roll(&mut rng).unwrap();
        for g in &roll.groups {
            assert!(g.dice.iter().all(|d| (1..=g.sides).contains(&d.value)));
        }
        assert_eq!(roll.groups[2].dice.iter().filter(|d| d.kept).count(), 2);
    }
}

/// Mean total of `n` seeded rolls.
fn mean(src: &str, n: u32) -> f64 {
    let expr = parse(src);
    let mut rng = GameRng::new(2024);
    let sum: i64 = (0..n).map(|_| expr.roll(&mut rng).unwrap().total).sum();
    sum as f64 / f64::from(n)
}

#[test]
fn d6_faces_come_up_evenly() {
    let expr = parse("1d6");
    let mut rng = GameRng::new(77);
    let mut counts = [0u32; 6];
    for _ in 0..60_000 {
        counts[expr.roll(&mut rng).unwrap().total as usize - 1] += 1;
    }
    // Expected 10,000 each; one standard deviation is about 91.
    for c in counts {
        assert!((9_500..10_500).contains(&c), "counts {counts:?}");
    }
}

#[test]
fn means_match_the_known_values() {
    // Exact means: 3d6 10.5; 4d6kh3 1231/1296*10 + ... = 12.2446; 5d6>=5 5/3;
    // exploding d6 3.5 * 6/5 = 4.2 (less a negligible amount for the cap).
    let cases = [
        ("3d6", 10.5, 0.1),
        ("4d6kh3", 12.2446, 0.1),
        ("5d6>=5", 5.0 / 3.0, 0.05),
        ("1d6!", 4.2, 0.1),
        ("2d6kl1", 2.5278, 0.05),
    ];
    for (src, want, tolerance) in cases {
        let got = mean(src, 60_000);
        assert!(
            (got - want).abs() < tolerance,
            "{src}: mean {got}, want {want}"
        );
    }
}

// --- weird input -------------------------------------------------------------------------

/// Parses, and if that works rolls and displays; checks every error points into `src`.
fn survive(src: &str, rng: &mut GameRng) {
    match DiceExpr::parse(src) {
        Err(e) => {
            let chars = src.chars().count();
            assert!(e.len >= 1, "`{src}`: {e:?}");
            assert!(e.offset <= chars, "`{src}`: {e:?}");
            assert!(src.get(e.byte_range(src)).is_some(), "`{src}`: {e:?}");
            assert!(!e.message.is_empty());
        }
        Ok(expr) => {
            let text = expr.to_string();
            if text.chars().count() <= MAX_EXPR_LEN {
                assert_eq!(parse(&text), expr, "round trip of `{src}` via `{text}`");
            }
            if let Ok(roll) = expr.roll(rng) {
                let line = roll.to_string();
                assert!(
                    line.ends_with(&format!("= {}", roll.total)),
                    "`{src}`: {line}"
                );
                assert!(!line.contains(':'), "`{src}` fell back: {line}");
            }
        }
    }
}

#[test]
fn weird_strings_never_panic() {
    let mut rng = GameRng::new(5);
    let deep = "(".repeat(10_000);
    let deep_closed = format!("{}1{}", "(".repeat(300), ")".repeat(300));
    let weird = [
        "",
        " ",
        "   ",
        "\t\n",
        "d",
        "D",
        "0d6",
        "d0",
        "99999999999999999999d6",
        "3d6×2",
        "1d1!",
        "%",
        "d%%",
        "!",
        "k",
        "kh",
        "1d6kh",
        "1d6k",
        "((",
        "))",
        "()",
        "(1",
        "1)",
        "1++1",
        "1**2",
        "--",
        "-",
        "1d6!!!",
        "d6d6",
        "1dd6",
        "6d",
        "1d6>=",
        ">=5",
        "1d6>==5",
        "1d6=>5",
        "2.5",
        ".5",
        "5.",
        "1,",
        "é",
        "🎲",
        "\u{0}",
        "\u{202e}3d6",
        "3d6 ×",
        "1d6 kh 1",
        "d%!0kl1>=50",
        "10000d1000000",
        "1000000000d1",
        "0d6kh1",
        "2d6kh0",
        "1d1!1000000000",
        "-(((-1)))",
        "1d6!kh1!",
        "1 d 6",
        "1d 6",
        "d-6",
        "d+6",
        "4294967296d6",
        "1d4294967296",
        "٣d6",
        "３d6",
        "1d6>=٣",
        "d６",
        &deep,
        &deep_closed,
    ];
    for src in weird {
        survive(src, &mut rng);
    }
}

#[test]
fn random_strings_never_panic_and_round_trip() {
    let alphabet: Vec<char> = "0123456789dDkKhHlL!%+-*()<>= ×x.,1166".chars().collect();
    let mut rng = GameRng::new(99);
    let mut parsed = 0;
    for _ in 0..4_000 {
        let len = rng.below(16) as usize;
        let src: String = (0..len)
            .map(|_| alphabet[rng.below(alphabet.len() as u64) as usize])
            .collect();
        if DiceExpr::parse(&src).is_ok() {
            parsed += 1;
        }
        survive(&src, &mut rng);
    }
    // Enough of them parse for the round trip to have been exercised.
    assert!(parsed > 100, "only {parsed} parsed");
}
