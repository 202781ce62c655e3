//! The special abilities (*Rules for Playmobil Melee Combat*, freeware hobby rules, section IV,
//! and the cavalry's Charge) as the `playmobil` ruleset uses them through the host's
//! dispatcher: Roman Testudo, Viking Berserker and Charge; the uses, rests and durations the
//! host keeps; ability scripts that are broken; and `explain`. One test per rule, each on a small scenario written for it and
//! played through the real binary.
//!
//! Most tests here do not depend on the dice: the number of dice a figure rolls is narrated
//! before the roll, and a figure with no dice has a highest die of 0, so a figure without
//! attacking dice always misses and one without defending dice always loses (the narration
//! says `no dice, so 0`). Where an outcome does depend on the dice, the test uses a seed
//! chosen once by hand and says why that seed shows the rule.

use crate::common;

use common::Output;
use common::game::{
    Game, after, after_last, chance, chance_at_prompt, legionary, roman_unit, transcript, viking,
    viking_unit,
};

/// A legionary of the formation `first_century` with the Testudo.
fn testudo_legionary(id: &str, x: f64, y: f64) -> String {
    legionary(
        id,
        x,
        y,
        ", groups: { formation: first_century }, abilities: [testudo]",
    )
}

/// The point `d` inches from `(x, y)` on the bearing `degrees` (0 north, 90 east).
fn towards(x: f64, y: f64, degrees: f64, d: f64) -> (f64, f64) {
    let r = degrees.to_radians();
    (x + d * r.sin(), y + d * r.cos())
}

// ---------------------------------------------------------------------------------------------
// Roman Testudo: "The individual legionnaires also gain +1 defending die. However, the unit's
// flanking area is expanded and an attack to their flanks can occur if the attacking unit is
// past 45 degrees to either side of the legionnaires facing position."
// ---------------------------------------------------------------------------------------------

// Guards "+1 defending die": a heavy infantryman in testudo defends with 3 dice, and
// `:explain` says the testudo added the die.
#[test]
fn testudo_gives_one_more_defending_die() {
    let game = Game::first(
        "romans",
        &[&testudo_legionary("legionary", 10.0, 10.0)],
        &[&viking("viking", 10.0, 12.0, "")],
    );
    let out = game.play_ok(
        1,
        "activate legionary testudo\nend_turn\nmelee viking legionary\n:explain\n",
    );
    assert_eq!(
        after(&out, "activate legionary testudo"),
        "  legionary: Roman Testudo in force\n"
    );
    // Seed 1 only fixes the dice shown; the number of dice is the rule.
    assert_eq!(
        after(&out, "melee viking legionary"),
        "\
viking (Heavy infantry) attacks legionary (Heavy infantry)
  viking is tagged `attacked`
  viking attacks with 1 die: 1d6kh1 [3] = 3
  legionary defends with 3 dice: 3d6kh1 [~1, 4, ~2] = 4
legionary wins 4 to 3: viking is blocked until your next turn
  viking is tagged `blocked`
"
    );
    assert_eq!(
        after(&out, ":explain"),
        "\
melee_reach for viking: 2 (heavy infantry) = 2
rear_beyond for legionary: 90 (heavy infantry) set to 45 by testudo = 45
attack_dice for viking: 1 (heavy infantry) = 1
defend_dice for legionary: 2 (heavy infantry) +1 testudo = 3
melee_won for viking: false (heavy infantry) = false
misses_allowed for viking: 1 (heavy infantry) = 1
"
    );
}

// Guards the control for the testudo's die: the same legionary without it defends with 2.
#[test]
fn legionary_without_testudo_defends_with_two_dice() {
    let game = Game::first(
        "vikings",
        &[&testudo_legionary("legionary", 10.0, 10.0)],
        &[&viking("viking", 10.0, 12.0, "")],
    );
    let out = game.play_ok(1, "melee viking legionary\n:explain\n");
    out.stdout_has(&["\n  legionary defends with 2 dice: 2d6kh1 ["]);
    out.stdout_has(&["\ndefend_dice for legionary: 2 (heavy infantry) = 2\n"]);
    out.stdout_lacks("testudo");
}

// Guards "when Legionnaires form the testudo": the whole formation (the same `formation`
// group, with the ability) takes it up together; a figure of the formation without the
// ability and a figure of another formation do not.
#[test]
fn testudo_is_taken_up_by_the_whole_formation() {
    let game = Game::first(
        "romans",
        &[
            &testudo_legionary("legionary", 10.0, 10.0),
            &testudo_legionary("legionary_2", 14.0, 10.0),
            &legionary(
                "recruit",
                18.0,
                10.0,
                ", groups: { formation: first_century }",
            ),
            &legionary(
                "veteran",
                22.0,
                10.0,
                ", groups: { formation: second_century }, abilities: [testudo]",
            ),
        ],
        &[
            &viking("viking", 14.0, 12.0, ""),
            &viking("viking_2", 18.0, 12.0, ""),
            &viking("viking_3", 22.0, 12.0, ""),
        ],
    );
    let out = game.play_ok(
        1,
        "activate legionary testudo\nprint(ability_active(unit(\"veteran\"), \"testudo\"))\nend_turn\n\
         melee viking legionary_2\nmelee viking_2 recruit\nmelee viking_3 veteran\n",
    );
    assert_eq!(
        after(&out, "activate legionary testudo"),
        "  legionary: Roman Testudo in force\n  legionary_2: Roman Testudo in force\n"
    );
    assert_eq!(
        after(
            &out,
            "print(ability_active(unit(\"veteran\"), \"testudo\"))"
        ),
        "false\n"
    );
    out.stdout_has(&[
        "\n  legionary_2 defends with 3 dice: ",
        "\n  recruit defends with 2 dice: ",
        "\n  veteran defends with 2 dice: ",
    ]);
}

// Guards "an attack to their flanks can occur if the attacking unit is past 45 degrees": from
// 60 degrees off its front a legionary in testudo is attacked from the rear and defends with
// 1 die, while without the testudo 60 degrees is its front and it keeps its 2 dice.
#[test]
fn testudo_widens_the_flanks_to_45_degrees() {
    for bearing in [60.0, -60.0] {
        let (x, y) = towards(10.0, 10.0, bearing, 2.5);
        let game = Game::first(
            "romans",
            &[&testudo_legionary("legionary", 10.0, 10.0)],
            &[&viking("viking", x, y, "")],
        );
        let without = game.play_ok(1, "end_turn\nmelee viking legionary\n");
        let t = after(&without, "melee viking legionary");
        assert!(
            t.starts_with("viking (Heavy infantry) attacks legionary (Heavy infantry)\n"),
            "from {bearing} degrees:\n{t}"
        );
        assert!(
            t.contains("\n  legionary defends with 2 dice: "),
            "from {bearing} degrees:\n{t}"
        );

        let with = game.play_ok(
            1,
            "activate legionary testudo\nend_turn\nmelee viking legionary\n:explain\n",
        );
        let t = after(&with, "melee viking legionary");
        assert!(
            t.starts_with(
                "viking (Heavy infantry) attacks legionary (Heavy infantry) from the rear\n"
            ),
            "from {bearing} degrees:\n{t}"
        );
        assert!(
            t.contains("\n  legionary defends with 1 die: "),
            "from {bearing} degrees:\n{t}"
        );
        let explain = after(&with, ":explain");
        assert!(
            explain.starts_with(
                "melee_reach for viking: 2 (heavy infantry) = 2\n\
                 rear_beyond for legionary: 90 (heavy infantry) set to 45 by testudo = 45\n"
            ),
            "{explain}"
        );
        // From the rear the rules ask for no defend dice: 1 die, whatever the abilities.
        assert!(!explain.contains("defend dice"), "{explain}");
    }
}

// Guards that the testudo's front is still the 45 degrees either side: from 30 degrees off
// its front a legionary in testudo faces the attack and defends with 3 dice.
#[test]
fn testudo_front_covers_45_degrees_either_side() {
    for bearing in [30.0, -30.0] {
        let (x, y) = towards(10.0, 10.0, bearing, 2.5);
        let game = Game::first(
            "romans",
            &[&testudo_legionary("legionary", 10.0, 10.0)],
            &[&viking("viking", x, y, "")],
        );
        let out = game.play_ok(
            1,
            "activate legionary testudo\nend_turn\nmelee viking legionary\n",
        );
        let t = after(&out, "melee viking legionary");
        assert!(
            t.starts_with("viking (Heavy infantry) attacks legionary (Heavy infantry)\n"),
            "from {bearing} degrees:\n{t}"
        );
        assert!(
            t.contains("\n  legionary defends with 3 dice: "),
            "from {bearing} degrees:\n{t}"
        );
    }
}

// Guards `deactivate`: the testudo ends for the whole formation, and the legionaries defend
// with their own 2 dice again.
#[test]
fn deactivate_ends_the_testudo_for_the_formation() {
    let game = Game::first(
        "romans",
        &[
            &testudo_legionary("legionary", 10.0, 10.0),
            &testudo_legionary("legionary_2", 14.0, 10.0),
        ],
        &[&viking("viking", 14.0, 12.0, "")],
    );
    let out = game.play_ok(
        1,
        "activate legionary testudo\ndeactivate legionary testudo\n\
         print(ability_active(unit(\"legionary_2\"), \"testudo\"))\nend_turn\nmelee viking legionary_2\n",
    );
    assert_eq!(
        after(&out, "deactivate legionary testudo"),
        "  legionary: Roman Testudo ends\n  legionary_2: Roman Testudo ends\n"
    );
    assert_eq!(
        after(
            &out,
            "print(ability_active(unit(\"legionary_2\"), \"testudo\"))"
        ),
        "false\n"
    );
    out.stdout_has(&["\n  legionary_2 defends with 2 dice: "]);
}

// Guards that a testudo in force cannot be formed again, by the figure that formed it or by
// another of its formation.
#[test]
fn testudo_cannot_be_activated_twice() {
    let game = Game::first(
        "romans",
        &[
            &testudo_legionary("legionary", 10.0, 10.0),
            &testudo_legionary("legionary_2", 14.0, 10.0),
        ],
        &[&viking("viking", 14.0, 30.0, "")],
    );
    let out = game.play_refused(
        1,
        "activate legionary testudo\nactivate legionary testudo\nactivate legionary_2 testudo\n",
        &[
            "legionary: Roman Testudo is already in force",
            "legionary_2: Roman Testudo is already in force",
        ],
    );
    assert_eq!(
        out.stdout.matches("Roman Testudo in force").count(),
        2,
        "{}",
        out.stdout
    );
}

// Guards that only the side to play may form its testudo.
#[test]
fn testudo_is_activated_only_on_its_sides_turn() {
    let game = Game::first(
        "vikings",
        &[&testudo_legionary("legionary", 10.0, 10.0)],
        &[&viking("viking", 14.0, 30.0, "")],
    );
    let out = game.play_refused(
        1,
        "activate legionary testudo\n",
        &["legionary fights for Rome; this turn belongs to The Vikings"],
    );
    out.stdout_lacks("in force");
}

// Guards "When Legionnaires form the testudo": `check` rejects a scenario that gives the
// testudo to light infantry, naming the unit and the ability.
#[test]
fn check_rejects_testudo_on_a_troop_that_may_not_have_it() {
    let game = Game::first(
        "romans",
        &["{ id: velite, type: light_infantry, at: [10, 10], abilities: [testudo] }"],
        &[&viking("viking", 14.0, 30.0, "")],
    );
    let out = game.check();
    out.expect_code(1).stderr_has(&[
        "`velite` is light infantry and may not have Roman Testudo (`testudo`)",
        "Roman Testudo is for: heavy_infantry",
    ]);
    out.stdout_has(&["FAIL game.yaml\n"]);
}

// Guards the control: the same scenario with heavy infantry checks clean.
#[test]
fn check_accepts_testudo_on_heavy_infantry() {
    let game = Game::first(
        "romans",
        &[&testudo_legionary("legionary", 10.0, 10.0)],
        &[&viking("viking", 14.0, 30.0, "")],
    );
    let out = game.check();
    out.expect_code(0);
    out.stdout_has(&["ok   game.yaml (scenario, 2 units)\n"]);
}

// Guards that a formation is one side's: a Roman taking up the testudo gives it to his own
// formation only, not to enemy figures whose formation happens to have the same name (Romans
// against rebel Romans, both with a `first_century`).
#[test]
fn testudo_is_taken_up_by_the_users_own_formation_only() {
    let game = Game::first(
        "romans",
        &[&testudo_legionary("legionary", 10.0, 10.0)],
        &[&viking(
            "rebel",
            10.0,
            12.0,
            ", groups: { formation: first_century }, abilities: [testudo]",
        )],
    );
    let out = game.play_ok(
        1,
        "activate legionary testudo\nprint(ability_active(unit(\"rebel\"), \"testudo\"))\n",
    );
    assert_eq!(
        after(&out, "activate legionary testudo"),
        "  legionary: Roman Testudo in force\n"
    );
    assert_eq!(
        after(&out, "print(ability_active(unit(\"rebel\"), \"testudo\"))"),
        "false\n"
    );
}

/// A Roman legionary in testudo at (10, 20) facing north, an archer of the Vikings 8" in front
/// of him (`front_archer`, facing him) and one 8" behind him facing away (`rear_archer`).
fn testudo_under_arrows(testudo: bool) -> Game {
    let abilities = if testudo {
        ", abilities: [testudo]"
    } else {
        ""
    };
    Game::first(
        "romans",
        &[&legionary(
            "legionary",
            10.0,
            20.0,
            &format!(", groups: {{ formation: first_century }}{abilities}"),
        )],
        &[
            "{ id: front_archer, type: infantry_archer, at: [10, 28], facing: 180 }",
            "{ id: rear_archer, type: infantry_archer, at: [10, 12], facing: 180 }",
        ],
    )
}

// Guards "the formation can suffer no casualties from arrows if the archer is facing the
// formation": an arrow that hits a testudo from the front does no harm.
#[test]
fn testudo_suffers_no_casualties_from_arrows_in_front() {
    // Seed 3: the archer's die (4) beats the best of the legionary's dice (2), first with
    // the testudo's 3 dice and in the control with his own 2.
    let out = testudo_under_arrows(true).play_ok(
        3,
        "activate legionary testudo\nend_turn\nshoot front_archer legionary\nprint(unit(\"legionary\").in_play)\n",
    );
    assert_eq!(
        after(&out, "shoot front_archer legionary"),
        "\
front_archer (Infantry archer) shoots at legionary (Heavy infantry)
  front_archer is tagged `shot 1`
  front_archer is tagged `attacked`
  front_archer shoots with 1 die: 1d6kh1 [4] = 4
  legionary defends with 3 dice: 3d6kh1 [~1, 2, ~1] = 2
front_archer hits 4 to 2, but legionary takes no harm
  front_archer is blocked until your next turn
  front_archer is tagged `blocked`
"
    );
    assert_eq!(after(&out, "print(unit(\"legionary\").in_play)"), "true\n");
    let control =
        testudo_under_arrows(false).play_ok(3, "end_turn\nshoot front_archer legionary\n");
    control.stdout_has(&["front_archer hits 4 to 2: legionary is killed\n"]);
}

// Guards that the testudo's protection from arrows holds only "if the archer is facing the
// formation": an archer standing behind the legionary and facing away from him, shooting him
// in the back, is neither faced by the formation nor facing it, so his hit kills.
#[test]
fn testudo_is_not_proof_against_arrows_in_the_back() {
    // Seed 1: the archer's die (3) beats the legionary's one die in the back (1), which
    // kills a legionary out of testudo.
    let control = testudo_under_arrows(false).play_ok(1, "end_turn\nshoot rear_archer legionary\n");
    control.stdout_has(&["rear_archer hits 3 to 1: legionary is killed\n"]);
    let out = testudo_under_arrows(true).play_ok(
        1,
        "activate legionary testudo\nend_turn\nshoot rear_archer legionary\n",
    );
    out.stdout_has(&[
        "rear_archer (Infantry archer) shoots at legionary (Heavy infantry) in the back\n",
        "rear_archer hits 3 to 1: legionary is killed\n",
    ]);
}

// ---------------------------------------------------------------------------------------------
// Viking Berserker: "When a Viking goes bezerk he cannot be killed that turn. Also, if he does
// not kill a man he can continue attacking him until he has attacked him 3 times without
// success. This special ability can only be used once in a battle (per Viking)."
// ---------------------------------------------------------------------------------------------

/// Ulf the berserker, a heavy infantryman of the Vikings with no dice of his own (so every
/// attack of his misses and every attack on him wins), facing south at (10, 12).
fn ulf() -> String {
    viking(
        "ulf",
        10.0,
        12.0,
        ", abilities: [berserker], stats: { attack: 0, defend: 0 }",
    )
}

// Guards "he cannot be killed that turn": the attacker wins, but the berserker stays in play.
#[test]
fn berserker_cannot_be_killed_the_turn_he_goes_berserk() {
    let game = Game::first(
        "vikings",
        &[&legionary("legionary", 10.0, 10.0, "")],
        &[&ulf()],
    );
    let out = game.play_ok(
        1,
        "activate ulf berserker\nend_turn\nmelee legionary ulf\n:explain\nprint(unit(\"ulf\").in_play)\n",
    );
    assert_eq!(
        after(&out, "activate ulf berserker"),
        "  ulf: Viking Berserker in force for a turn, no uses left\n"
    );
    // Ulf has no dice: the legionary wins whatever the seed; seed 1 fixes the 3.
    assert_eq!(
        after(&out, "melee legionary ulf"),
        "\
legionary (Heavy infantry) attacks ulf (Heavy infantry)
  legionary is tagged `attacked`
  legionary attacks with 1 die: 1d6kh1 [3] = 3
  ulf defends with 0 dice: no dice, so 0
legionary wins 3 to 0, but ulf cannot be killed: legionary is blocked until your next turn
  legionary is tagged `blocked`
"
    );
    assert!(
        after(&out, ":explain").ends_with("\ncan_die for ulf: no, by berserker\n"),
        "{}",
        out.stdout
    );
    assert_eq!(after(&out, "print(unit(\"ulf\").in_play)"), "true\n");
    out.stdout_lacks("is removed");
}

// Guards the control: without going berserk, the same attack kills him.
#[test]
fn berserker_who_has_not_gone_berserk_can_be_killed() {
    let game = Game::first(
        "romans",
        &[&legionary("legionary", 10.0, 10.0, "")],
        &[&ulf()],
    );
    let out = game.play_ok(1, "melee legionary ulf\n");
    out.stdout_has(&[
        "legionary wins 3 to 0: ulf is killed\n  ulf is removed: killed by legionary\n  legionary is tagged `may step`\n",
    ]);
}

// Guards "that turn": in the next turn the berserker can be killed again.
#[test]
fn berserker_lasts_only_his_turn() {
    let game = Game::first(
        "vikings",
        &[&legionary("legionary", 10.0, 10.0, "")],
        &[&ulf()],
    );
    let out = game.play_ok(
        1,
        "activate ulf berserker\nend_turn\nend_turn\nprint(ability_active(unit(\"ulf\"), \"berserker\"))\n\
         end_turn\nmelee legionary ulf\n",
    );
    assert_eq!(
        after(&out, "print(ability_active(unit(\"ulf\"), \"berserker\"))"),
        "false\n"
    );
    // Ulf has no dice: the legionary wins whatever the seed.
    let t = after(&out, "melee legionary ulf");
    assert!(
        t.ends_with(" to 0: ulf is killed\n  ulf is removed: killed by legionary\n  legionary is tagged `may step`\n"),
        "{t}"
    );
}

// Guards that the berserker's turn covers the enemy's reply whichever side moves first: when
// Rome moves first, a Viking who goes berserk in turn 1 faces Rome's attacks in turn 2, and
// he "cannot be killed" there as he could not when the Vikings move first. (The host counts
// `lasts: 1` in game turns, which end when play returns to the side that moved first; so a
// berserker of the side that moves second is never protected from anything.)
#[test]
fn berserker_protection_does_not_depend_on_who_moves_first() {
    let game = Game::first(
        "romans",
        &[&legionary("legionary", 10.0, 10.0, "")],
        &[&ulf()],
    );
    let out = game.play_ok(
        1,
        "end_turn\nactivate ulf berserker\nend_turn\nmelee legionary ulf\n",
    );
    let t = after(&out, "melee legionary ulf");
    assert!(t.contains(", but ulf cannot be killed: "), "{t}");
}

// Guards "if he does not kill a man he can continue attacking him until he has attacked him 3
// times without success": after one and two misses he attacks again; the third blocks him.
#[test]
fn berserker_attacks_the_same_man_until_three_failures() {
    let game = Game::first(
        "vikings",
        &[&legionary("legionary", 10.0, 10.0, "")],
        &[&ulf()],
    );
    let out = game.play_refused(
        1,
        "activate ulf berserker\nmelee ulf legionary\nmelee ulf legionary\n:explain\nmelee ulf legionary\n\
         melee ulf legionary\n",
        &["ulf was blocked and cannot attack again until your next turn"],
    );
    // Ulf has no dice: every attack misses whatever the seed; seed 1 fixes the dice shown.
    let t = transcript(&out);
    let misses: Vec<&str> = t
        .lines()
        .filter(|l| l.starts_with("legionary wins "))
        .collect();
    assert_eq!(
        misses,
        [
            "legionary wins 3 to 0: ulf has missed him 1 of 3 times and may attack him again",
            "legionary wins 4 to 0: ulf has missed him 2 of 3 times and may attack him again",
            "legionary wins 5 to 0: ulf is blocked until your next turn",
        ],
        "{t}"
    );
    assert_eq!(
        t.matches("ulf (Heavy infantry) attacks legionary").count(),
        3,
        "{t}"
    );
    assert!(
        after(&out, ":explain")
            .contains("\nmisses_allowed for ulf: 1 (heavy infantry) set to 3 by berserker = 3\n"),
        "{t}"
    );
}

// Guards the control: a Viking who has not gone berserk is blocked by his first miss.
#[test]
fn without_berserker_one_miss_blocks() {
    let game = Game::first(
        "vikings",
        &[&legionary("legionary", 10.0, 10.0, "")],
        &[&ulf()],
    );
    let out = game.play_refused(
        1,
        "melee ulf legionary\nmelee ulf legionary\n",
        &["ulf was blocked and cannot attack again until your next turn"],
    );
    out.stdout_has(&["legionary wins 3 to 0: ulf is blocked until your next turn\n"]);
    out.stdout_lacks("has missed him");
}

// Guards "he can continue attacking him": after a miss the berserker may attack only the man
// he missed, not another.
#[test]
fn berserker_after_a_miss_may_attack_only_the_same_man() {
    let game = Game::first(
        "vikings",
        &[
            &legionary("legionary", 10.0, 10.0, ""),
            &legionary("other", 12.0, 10.5, ""),
        ],
        &[&ulf()],
    );
    let out = game.play_refused(
        1,
        "activate ulf berserker\nmelee ulf legionary\nmelee ulf other\nmelee ulf legionary\n",
        &["ulf is still fighting legionary and may attack only him this turn"],
    );
    assert_eq!(after(&out, "melee ulf other"), "");
    out.stdout_has(&["ulf has missed him 2 of 3 times and may attack him again\n"]);
}

// Guards "this special ability can only be used once in a battle (per Viking)": Ulf cannot go
// berserk again in a later turn, but another berserker still can.
#[test]
fn berserker_is_used_once_a_battle_per_viking() {
    let game = Game::first(
        "vikings",
        &[&legionary("legionary", 10.0, 10.0, "")],
        &[
            &ulf(),
            &viking("ragnar", 20.0, 20.0, ", abilities: [berserker]"),
        ],
    );
    let out = game.play_refused(
        1,
        "activate ulf berserker\nend_turn\nend_turn\nactivate ulf berserker\nactivate ragnar berserker\n",
        &["ulf: Viking Berserker is spent: it can be used once a battle"],
    );
    // The second `activate ulf berserker` changed nothing.
    assert_eq!(
        out.stdout.matches("ulf: Viking Berserker in force").count(),
        1,
        "{}",
        out.stdout
    );
    assert_eq!(
        after(&out, "activate ragnar berserker"),
        "  ragnar: Viking Berserker in force for a turn, no uses left\n"
    );
}

// Guards "so long as they continue killing opponents": a man whose winning attack did not
// kill (the berserker "cannot be killed") has stopped killing, so he cannot attack again this
// turn, neither the berserker nor another man.
#[test]
fn attacker_who_fails_to_kill_a_berserker_cannot_attack_again() {
    let game = Game::first(
        "vikings",
        &[&legionary("legionary", 10.0, 10.0, "")],
        &[
            &ulf(),
            &viking("viking", 12.0, 11.0, ", stats: { defend: 0 }"),
        ],
    );
    let out = game.play(
        1,
        "activate ulf berserker\nend_turn\nmelee legionary ulf\nmelee legionary viking\n",
    );
    out.expect_code(1);
    out.stdout_has(&[", but ulf cannot be killed: "]);
    assert_eq!(after(&out, "melee legionary viking"), "", "{}", out.stdout);
}

// ---------------------------------------------------------------------------------------------
// Charge: "Cavalry can move 2 feet per turn and gain +1 attacking die. Note that this ability
// can only be used if the cavalry attacks enemy units at the end of its 2 foot move, the
// special ability cannot be used to retreat/move in any other direction or if the cavalry is
// already engaged in battle. This ability can also only be used once every 3 turns."
// ---------------------------------------------------------------------------------------------

/// A light cavalryman of Rome at (10, 5) facing north: his 3.5" horse reaches from y 3.25 to
/// 6.75.
fn eques() -> String {
    "{ id: eques, type: light_cavalry, at: [10, 5], facing: 0 }".to_string()
}

/// A Viking north of the eques with his base's edge `gap` inches from the horse's nose, and
/// no defending dice (so any attack on him kills).
fn target(id: &str, gap: f64) -> String {
    viking(id, 10.0, 6.75 + gap + 0.6, ", stats: { defend: 0 }")
}

// Guards "Cavalry can move 2 feet per turn and gain +1 attacking die": a charge rides 21.5"
// (more than the 18" move) and attacks with 2 dice.
#[test]
fn charge_moves_up_to_24_inches_and_attacks_with_one_more_die() {
    let game = Game::first("romans", &[&eques()], &[&target("viking", 22.0)]);
    let out = game.play_refused(
        1,
        "move eques 10 26.5\ncharge eques viking\n:explain\n",
        &["eques moves at most 18\" a turn; (10, 26.5) is 21.5\" away"],
    );
    // The viking has no dice: the charge kills him whatever the seed; seed 1 fixes the 3.
    assert_eq!(
        after(&out, "charge eques viking"),
        "  eques: Charge in force for a turn
  eques moves 21.5\" from (10, 5) to (10, 26.5)
  eques is tagged `moved`
eques (Light cavalry) attacks viking (Heavy infantry)
  eques is tagged `attacked`
  eques attacks with 2 dice: 2d6kh1 [3, ~1] = 3
  viking defends with 0 dice: no dice, so 0
eques wins 3 to 0: viking is killed
  viking is removed: killed by eques
  eques is tagged `may step`
"
    );
    assert_eq!(
        after(&out, ":explain"),
        "\
move_allowance for eques: 18 (light cavalry) set to 24 by charge = 24
melee_reach for eques: 2 (light cavalry) = 2
rear_beyond for viking: 90 (heavy infantry) = 90
attack_dice for eques: 1 (light cavalry) +1 charge = 2
defend_dice for viking: 0 (heavy infantry) = 0
melee_won for eques: true (light cavalry) = true
"
    );
}

// Guards the control: the same horseman attacking without charging rolls 1 die.
#[test]
fn melee_without_a_charge_attacks_with_the_troops_dice() {
    let game = Game::first("romans", &[&eques()], &[&target("viking", 1.0)]);
    let out = game.play_ok(1, "melee eques viking\n");
    out.stdout_has(&["\n  eques attacks with 1 die: 1d6kh1 ["]);
    out.stdout_lacks("Charge");
}

// Guards "attacks enemy units at the end of its 2 foot move": a target more than 24" and the
// 2" of melee reach away is refused, and the refusal spends nothing (a charge at a target
// 25" away then rides the full 24" and attacks from 1" away).
#[test]
fn charge_reaches_at_most_24_inches_and_the_melee_reach() {
    let game = Game::first(
        "romans",
        &[&eques()],
        &[
            &viking("far", 10.0, 6.75 + 26.5 + 0.6, ""),
            &target("viking", 25.0),
        ],
    );
    let out = game.play(1, "charge eques far\ncharge eques viking\n");
    out.expect_code(1)
        .stderr_has(&["far is 26.5\" away: a charge moves 24\" and then reaches 2\""]);
    assert_eq!(after(&out, "charge eques far"), "");
    let t = after(&out, "charge eques viking");
    assert!(
        t.starts_with(
            "  eques: Charge in force for a turn\n  eques moves 24\" from (10, 5) to (10, 29)\n"
        ),
        "{t}"
    );
    assert!(t.contains("\n  eques attacks with 2 dice: "), "{t}");
}

// Guards "or if the cavalry is already engaged in battle": an enemy within 2" forbids the
// charge.
#[test]
fn charge_is_refused_when_already_engaged() {
    let game = Game::first(
        "romans",
        &[&eques()],
        &[&target("viking", 12.0), &viking("near", 13.0, 5.0, "")],
    );
    let out = game.play_refused(
        1,
        "charge eques viking\nprint(ability_active(unit(\"eques\"), \"charge\"))\n",
        &["eques is already engaged with near and cannot charge"],
    );
    assert_eq!(after(&out, "charge eques viking"), "");
    assert_eq!(
        after(&out, "print(ability_active(unit(\"eques\"), \"charge\"))"),
        "false\n"
    );
}

// Guards "can only be used if the cavalry attacks enemy units at the end of its 2 foot move":
// a horseman who has moved this turn cannot charge.
#[test]
fn charge_is_refused_after_moving() {
    let game = Game::first("romans", &[&eques()], &[&target("viking", 12.0)]);
    let out = game.play_refused(
        1,
        "move eques 10 6\ncharge eques viking\n",
        &["eques has already moved or attacked this turn (or is dismounting) and cannot charge"],
    );
    assert_eq!(after(&out, "charge eques viking"), "");
}

// Guards "this ability can also only be used once every 3 turns": a charge on turn 1 rests
// through turns 2 and 3 and may ride again on turn 4.
#[test]
fn charge_is_used_once_every_3_turns() {
    let game = Game::first(
        "romans",
        &[&eques()],
        // After the first charge the eques stands at (10, 26.5) facing north; `second` is 6"
        // in front of his horse's nose then.
        &[
            &target("viking", 22.0),
            &viking(
                "second",
                10.0,
                26.5 + 1.75 + 6.0 + 0.6,
                ", stats: { defend: 0 }",
            ),
        ],
    );
    let out = game.play(
        1,
        "charge eques viking\nend_turn\nend_turn\ncharge eques second\nend_turn\nend_turn\n\
         charge eques second\nend_turn\nend_turn\nprint(turn())\ncharge eques second\n",
    );
    out.expect_code(1);
    let refusal = "eques: Charge must rest 2 turns between uses: it can be used again on turn 4";
    assert_eq!(out.err().matches(refusal).count(), 2, "{}", out.stderr);
    assert_eq!(after(&out, "print(turn())"), "4\n");
    let played = transcript(&out);
    let last = played
        .rsplit("> charge eques second\n")
        .next()
        .unwrap_or_default();
    assert!(
        last.starts_with("  eques: Charge in force for a turn\n  eques moves 5.5\" "),
        "{last}"
    );
    assert!(last.contains("eques wins "), "{last}");
}

// Guards "only cavalry": a figure without the Charge ability cannot charge.
#[test]
fn figure_without_the_charge_ability_cannot_charge() {
    let game = Game::first(
        "romans",
        &[&legionary("legionary", 10.0, 5.0, "")],
        &[&target("viking", 10.0)],
    );
    let out = game.play_refused(
        1,
        "charge legionary viking\n",
        &["legionary cannot charge: only cavalry with the Charge ability can"],
    );
    assert_eq!(after(&out, "charge legionary viking"), "");
}

// Guards that the Charge is triggered by a charge, not chosen: `activate` refuses it.
#[test]
fn charge_is_not_chosen_with_activate() {
    let game = Game::first("romans", &[&eques()], &[&target("viking", 10.0)]);
    let out = game.play_refused(
        1,
        "activate eques charge\n",
        &["Charge is not chosen by the player: the rules use it when it applies"],
    );
    out.stdout_lacks("in force");
}

// Guards that a horseman charges a target in reach however he stood: one standing side-on to
// his target (facing east, the target north) turns to it and rides at it like one facing it.
#[test]
fn rider_standing_side_on_charges_a_target_in_reach() {
    let game = Game::first(
        "romans",
        &["{ id: eques, type: light_cavalry, at: [10, 5], facing: 90 }"],
        &[&target("viking", 22.0)],
    );
    let out = game.play_ok(1, "charge eques viking\n");
    let t = after(&out, "charge eques viking");
    assert!(
        t.contains("\neques (Light cavalry) attacks viking (Heavy infantry)\n"),
        "{t}"
    );
    assert!(t.contains("eques wins "), "{t}");
}

// ---------------------------------------------------------------------------------------------
// The host keeps the uses: scripts ask it, and it refuses what the ability's metadata forbids.
// ---------------------------------------------------------------------------------------------

// Guards that the host, not the script, keeps the berserker's one use: `uses_left` and
// `ability_active` report it truthfully, and `use_ability` on the spent ability is refused
// even after the script ends the use itself.
#[test]
fn host_refuses_a_spent_ability_to_scripts() {
    let game = Game::first(
        "vikings",
        &[&legionary("legionary", 10.0, 10.0, "")],
        &[&ulf()],
    );
    let out = game.script(
        1,
        r#"let u = unit("ulf");
print(`uses left ${uses_left(u, "berserker")}, active ${ability_active(u, "berserker")}`);
use_ability(u, "berserker");
print(`uses left ${uses_left(u, "berserker")}, active ${ability_active(u, "berserker")}`);
end_ability(u, "berserker");
print(`uses left ${uses_left(u, "berserker")}, active ${ability_active(u, "berserker")}`);
try { use_ability(u, "berserker"); } catch (e) { print(`refused: ${e}`); }
print(`uses left ${uses_left(u, "berserker")}, active ${ability_active(u, "berserker")}`);
"#,
    );
    out.expect_code(0);
    assert_eq!(
        transcript_of_script(&out),
        "\
uses left 1, active false
  ulf: Viking Berserker in force for a turn, no uses left
uses left 0, active true
  ulf: Viking Berserker ends
uses left 0, active false
refused: ulf: Viking Berserker is spent: it can be used once a battle
uses left 0, active false
"
    );
}

/// What a `.rhai` run printed after the set-up lines (seed, scenario, first turn).
fn transcript_of_script(out: &Output) -> String {
    out.stdout
        .lines()
        .skip(3)
        .map(|l| format!("{l}\n"))
        .collect()
}

// Guards that the host keeps the Charge's rest: unlimited uses (`uses_left` is `()`), but
// ending the charge early does not let a script use it again before turn 4.
#[test]
fn host_refuses_a_resting_ability_to_scripts() {
    let game = Game::first("romans", &[&eques()], &[&target("viking", 10.0)]);
    let out = game.script(
        1,
        r#"let u = unit("eques");
print(`unlimited ${uses_left(u, "charge") == ()}`);
use_ability(u, "charge");
print(`active ${ability_active(u, "charge")}`);
end_ability(u, "charge");
print(`active ${ability_active(u, "charge")}`);
try { use_ability(u, "charge"); } catch (e) { print(`refused: ${e}`); }
"#,
    );
    out.expect_code(0);
    assert_eq!(
        transcript_of_script(&out),
        "\
unlimited true
  eques: Charge in force for a turn
active true
  eques: Charge ends
active false
refused: eques: Charge must rest 2 turns between uses: it can be used again on turn 4
"
    );
}

// Guards that an action that fails spends nothing: a use made by a line that then fails is
// rolled back with it, and the berserker can still go berserk.
#[test]
fn failed_action_spends_no_use() {
    let game = Game::first(
        "vikings",
        &[&legionary("legionary", 10.0, 10.0, "")],
        &[&ulf()],
    );
    let out = game.play_refused(
        1,
        "use_ability(unit(\"ulf\"), \"berserker\"); throw \"changed my mind\"\n\
         print(uses_left(unit(\"ulf\"), \"berserker\"))\nactivate ulf berserker\n",
        &["changed my mind"],
    );
    assert_eq!(
        after(&out, "print(uses_left(unit(\"ulf\"), \"berserker\"))"),
        "1\n"
    );
    assert_eq!(
        after(&out, "activate ulf berserker"),
        "  ulf: Viking Berserker in force for a turn, no uses left\n"
    );
}

// Guards that a script cannot use an ability its unit does not have.
#[test]
fn host_refuses_an_ability_the_unit_lacks() {
    let game = Game::first(
        "vikings",
        &[&legionary("legionary", 10.0, 10.0, "")],
        &[&ulf()],
    );
    let out = game.play_refused(
        1,
        "use_ability(unit(\"legionary\"), \"berserker\")\nprint(uses_left(unit(\"ulf\"), \"berserker\"))\n",
        &["legionary has no ability `berserker` (its abilities: none)"],
    );
    assert_eq!(
        after(&out, "print(uses_left(unit(\"ulf\"), \"berserker\"))"),
        "1\n"
    );
}

// Guards that a player naming an ability that is not in the game is refused in the players'
// terms, as a rule refusing an action, not as a bug in the rules' script.
#[test]
fn activate_of_an_unknown_ability_is_refused_in_the_players_terms() {
    let game = Game::first(
        "romans",
        &[&testudo_legionary("legionary", 10.0, 10.0)],
        &[&viking("viking", 14.0, 30.0, "")],
    );
    let out = game.play_refused(
        1,
        "activate legionary testudoo\n",
        &["sandtable::rules", "`testudoo`"],
    );
    assert!(!out.stderr.contains("rules.rhai"), "{}", out.stderr);
}

// ---------------------------------------------------------------------------------------------
// Broken ability scripts: the action fails with a diagnostic naming the ability and the hook,
// in bounded time, and leaves the game as it was.
// ---------------------------------------------------------------------------------------------

/// An always-on ability whose `can_die` hook runs `body` (asked once a melee attacker has
/// won, after both rolls).
fn can_die_ability(body: &str) -> String {
    format!(
        "fn meta() {{\n    #{{ name: \"Broken Shield\", activation: \"always\" }}\n}}\n\nfn can_die(info) {{\n    {body}\n}}\n"
    )
}

/// A game where `legionary` has the ability `name` and no dice (so a Viking's attack on him
/// reaches `can_die`), and `other`, without it and without dice, 10" along the line.
fn broken_game(name: &str, script: &str) -> Game {
    Game::with_abilities(
        "vikings",
        &[
            &legionary(
                "legionary",
                10.0,
                10.0,
                &format!(", abilities: [{name}], stats: {{ defend: 0 }}"),
            ),
            &legionary("other", 20.0, 10.0, ", stats: { defend: 0 }"),
        ],
        &[
            &viking("viking", 10.0, 12.0, ""),
            &viking("viking_2", 20.0, 12.0, ""),
        ],
        &[(name, script)],
    )
}

/// The lines every broken-ability test plays: the melee that reaches the broken hook, then
/// checks that nothing changed and that the game goes on.
const AFTER_A_BROKEN_HOOK: &str = "melee viking legionary\nprint(unit(\"legionary\").in_play)\n\
     print(unit(\"viking\").tags)\nmelee viking_2 other\n";

/// Checks that the failed melee left the game as before: nothing printed for it, the
/// defender in play, the attacker untagged; and that the next melee rolls the same dice as it
/// would have had the failed one never happened.
#[track_caller]
fn game_is_as_before(game: &Game, out: &Output) {
    assert_eq!(after(out, "melee viking legionary"), "", "{}", out.stdout);
    assert_eq!(after(out, "print(unit(\"legionary\").in_play)"), "true\n");
    assert_eq!(after(out, "print(unit(\"viking\").tags)"), "[]\n");
    let fresh = game.play_ok(1, "melee viking_2 other\n");
    let next = after(out, "melee viking_2 other");
    assert_eq!(next, after(&fresh, "melee viking_2 other"));
    assert!(next.contains("\nviking_2 wins "), "{next}");
}

// Guards that a hook with a runtime error fails the action with a diagnostic naming the
// ability and the hook, at its line, and leaves the game as it was. (An undefined variable,
// once this test's error, is now found when the ability is loaded.)
#[test]
fn ability_hook_with_a_runtime_error_fails_the_action_cleanly() {
    let game = broken_game(
        "broken",
        &can_die_ability("let a = [1];\n    a[info.unit.hits + 5]"),
    );
    let out = game.play(1, AFTER_A_BROKEN_HOOK);
    out.expect_code(1).stderr_has(&[
        "(in `can_die` of ability `broken`",
        "[scripts/rulesets/playmobil/abilities/broken.rhai:7:",
    ]);
    game_is_as_before(&game, &out);
}

// Guards that an undefined variable in a hook is found when the ability is loaded, at its
// line, with the hook's parameters as the did-you-mean.
#[test]
fn ability_hook_with_an_undefined_variable_is_refused_at_load() {
    let game = broken_game("broken", &can_die_ability("inf.unit.hits == 0"));
    let out = game.check();
    out.expect_code(1).stderr_has(&[
        "the variable `inf` is not defined",
        "[scripts/rulesets/playmobil/abilities/broken.rhai:6:5]",
        "did you mean `info`?",
    ]);
}

// Guards that a hook that never ends is stopped within a few seconds, with a diagnostic
// naming the ability and the hook, and leaves the game as it was.
#[test]
fn ability_hook_that_never_ends_is_stopped_cleanly() {
    let game = broken_game("endless", &can_die_ability("loop {}"));
    let out = game.play(1, AFTER_A_BROKEN_HOOK);
    out.expect_code(1).stderr_has(&[
        "(in `can_die` of ability `endless`",
        "look for a loop that never ends",
    ]);
    // Twice the longest a call may take by the clock on a busy machine (10 s).
    let hang =
        sandtable::limits::TIME_BUDGET.saturating_mul(2 * sandtable::limits::WALL_CLOCK_FACTOR);
    assert!(out.elapsed < hang, "took {:?}", out.elapsed);
    game_is_as_before(&game, &out);
}

// Guards that the diagnostic of a hook that never ends names the ability, its hook and its
// file, and does not point at a wrong line: Rhai gives no position for a script stopped by
// the sandbox's limits, and a label at 1:1 (the ability's `fn meta()`) would mislead.
#[test]
fn endless_hook_diagnostic_names_the_hook_and_file() {
    let game = broken_game("endless", &can_die_ability("loop {}"));
    let out = game.play(1, "melee viking legionary\n");
    out.expect_code(1).stderr_has(&[
        "(in `can_die` of ability `endless`)",
        "abilities/endless.rhai",
        "look for a loop that never ends",
    ]);
    assert!(!out.stderr.contains("endless.rhai:1:1"), "{}", out.stderr);
}

// Guards that hooks asking their own ability endlessly are stopped at the nesting limit.
#[test]
fn abilities_asking_themselves_are_stopped_8_deep() {
    let echo = "fn meta() {\n    #{ name: \"Echo\", activation: \"always\" }\n}\n\n\
                fn defend_dice(dice, info) {\n    ask(\"defend_dice\", info.unit, dice, info)\n}\n";
    let game = broken_game("echo", echo);
    let out = game.play(1, AFTER_A_BROKEN_HOOK);
    out.expect_code(1).stderr_has(&[
        "abilities asked each other more than 8 deep (hook `defend_dice` of `echo`)",
        "(in `defend_dice` of ability `echo`",
    ]);
    game_is_as_before(&game, &out);
}

// Guards that the nesting count is the action's: after one action fails at the limit, hooks
// may again nest up to it (a unit whose ability nests 3 deep still defends).
#[test]
fn nesting_limit_is_counted_afresh_for_each_action() {
    // The depth is the figure's `javelins`; how deep it has gone, a private note.
    let nest = "fn meta() {\n    #{ name: \"Nest\", activation: \"always\" }\n}\n\n\
                fn defend_dice(dice, info) {\n    let n = info.unit.stat(\"_n\");\n    let n = if n == () { 0 } else { n };\n    \
                if n < info.unit.stat(\"javelins\") { info.unit.set_stat(\"_n\", n + 1); ask(\"defend_dice\", info.unit, dice, #{}) } else { dice + 1 }\n}\n";
    let game = Game::with_abilities(
        "vikings",
        &[
            &legionary(
                "deep",
                10.0,
                10.0,
                ", abilities: [nest], stats: { javelins: 20 }",
            ),
            &legionary(
                "shallow",
                20.0,
                10.0,
                ", abilities: [nest], stats: { javelins: 3 }",
            ),
        ],
        &[
            &viking("viking", 10.0, 12.0, ""),
            &viking("viking_2", 20.0, 12.0, ""),
        ],
        &[("nest", nest)],
    );
    let out = game.play(1, "melee viking deep\nmelee viking_2 shallow\n");
    out.expect_code(1)
        .stderr_has(&["abilities asked each other more than 8 deep"]);
    assert_eq!(after(&out, "melee viking deep"), "");
    out.stdout_has(&["\n  shallow defends with 3 dice: "]);
}

/// A scenario whose legionary has the ability `name`, checked in a project where the ability's
/// script is `script`.
fn check_with_ability(name: &str, script: &str) -> Output {
    let game = Game::with_abilities(
        "romans",
        &[&legionary(
            "legionary",
            10.0,
            10.0,
            &format!(", abilities: [{name}]"),
        )],
        &[&viking("viking", 10.0, 30.0, "")],
        &[(name, script)],
    );
    let out = game.check();
    out.expect_code(1);
    out.stdout_has(&["FAIL game.yaml\n"]);
    out
}

// Guards that an ability without `meta()` makes `check` of a scenario using it fail, saying
// what is missing.
#[test]
fn ability_without_meta_fails_check() {
    let out = check_with_ability("nometa", "fn defend_dice(dice, info) {\n    dice + 1\n}\n");
    out.stderr_has(&[
        "ability `nometa`: its `meta()` failed: there is no function `meta` that takes no arguments",
        "scripts/rulesets/playmobil/abilities/nometa.rhai must define `fn meta()` returning a map",
    ]);
}

// Guards that a malformed `meta()` makes `check` fail with a clear message: an unknown
// activation, a misspelt field, a missing name, and a value that is not a map.
#[test]
fn ability_with_malformed_meta_fails_check() {
    let cases = [
        (
            "#{ name: \"Bad\", activation: \"sometimes\" }",
            "ability `bad`: bad `meta()`: ",
            "unknown variant `sometimes`, expected one of `always`, `chosen`, `triggered`",
        ),
        (
            "#{ name: \"Bad\", activation: \"chosen\", usses: 1 }",
            "ability `bad`: bad `meta()`: ",
            "unknown field `usses`",
        ),
        (
            "#{ activation: \"chosen\" }",
            "ability `bad`: bad `meta()`: ",
            "missing field `name`",
        ),
        ("42", "ability `bad`: bad `meta()`: ", "expecting Map"),
    ];
    for (meta, message, why) in cases {
        let out = check_with_ability("bad", &format!("fn meta() {{\n    {meta}\n}}\n"));
        out.stderr_has(&[
            message,
            why,
            "it needs `name` and `activation` (always, chosen or triggered)",
        ]);
    }
}

// Guards the control for the checks above: a well-formed ability in the same project checks
// clean.
#[test]
fn well_formed_ability_checks_clean() {
    let game = Game::with_abilities(
        "romans",
        &[&legionary("legionary", 10.0, 10.0, ", abilities: [good]")],
        &[&viking("viking", 10.0, 30.0, "")],
        &[(
            "good",
            "fn meta() {\n    #{ name: \"Good\", activation: \"always\" }\n}\n",
        )],
    );
    game.check().expect_code(0);
}

// ---------------------------------------------------------------------------------------------
// Explain: who changed what in the last action.
// ---------------------------------------------------------------------------------------------

// Guards `run --explain`: after each action, its trace as `  [explain] ...` lines.
#[test]
fn run_explain_prints_the_trace_after_each_action() {
    let game = Game::first(
        "romans",
        &[&testudo_legionary("legionary", 10.0, 10.0)],
        &[&viking("viking", 10.0, 12.0, "")],
    );
    let lines = "activate legionary testudo\nend_turn\nmelee viking legionary\n";
    let out = game.run_lines(1, lines, true);
    out.expect_code(0);
    assert_eq!(
        after(&out, "melee viking legionary"),
        "\
viking (Heavy infantry) attacks legionary (Heavy infantry)
  viking is tagged `attacked`
  viking attacks with 1 die: 1d6kh1 [3] = 3
  legionary defends with 3 dice: 3d6kh1 [~1, 4, ~2] = 4
legionary wins 4 to 3: viking is blocked until your next turn
  viking is tagged `blocked`
  [explain] melee_reach for viking: 2 (heavy infantry) = 2
  [explain] rear_beyond for legionary: 90 (heavy infantry) set to 45 by testudo = 45
  [explain] attack_dice for viking: 1 (heavy infantry) = 1
  [explain] defend_dice for legionary: 2 (heavy infantry) +1 testudo = 3
  [explain] melee_won for viking: false (heavy infantry) = false
  [explain] misses_allowed for viking: 1 (heavy infantry) = 1
"
    );
    // An action that asks for no numbers explains nothing.
    assert_eq!(
        after(&out, "activate legionary testudo"),
        "  legionary: Roman Testudo in force\n"
    );
    // Without the flag, the same run prints no trace.
    let plain = game.run_lines(1, lines, false);
    plain.expect_code(0);
    assert!(!plain.stdout.contains("[explain]"), "{}", plain.stdout);
}

// Guards `:explain` at the prompt after a melee: the attack dice and defend dice lines.
#[test]
fn prompt_explain_lists_the_dice_of_the_last_melee() {
    let game = Game::first(
        "vikings",
        &[&legionary("legionary", 10.0, 10.0, "")],
        &[&viking("viking", 10.0, 12.0, ", stats: { attack: 3 }")],
    );
    let out = game.play_ok(1, ":explain\nmelee viking legionary\n:explain\n");
    // Before any action there is nothing to explain.
    assert_eq!(
        after(&out, ":explain"),
        "the last action asked the rules for no numbers\n"
    );
    // Seed 1: the Viking's three dice win (4 to 2), so the rules ask nothing about misses.
    out.stdout_has(&["\nviking wins 4 to 2: legionary is killed\n"]);
    assert_eq!(
        after_last(&out, ":explain"),
        "\
melee_reach for viking: 2 (heavy infantry) = 2
rear_beyond for legionary: 90 (heavy infantry) = 90
attack_dice for viking: 3 (heavy infantry) = 3
defend_dice for legionary: 2 (heavy infantry) = 2
melee_won for viking: true (heavy infantry) = true
"
    );
}

/// Greek spearmen in shield wall and a Samurai spearman, each with a Persian horseman in
/// front of him; the Persians play first.
const SPEARS_AGAINST_HORSE: &str = "\
name: Spears against horse
ruleset: playmobil
first: persians
table: { width: 48, depth: 36 }
sides:
  - id: greeks
    edge: south
    units:
      - { id: hoplite, type: heavy_spearmen, at: [10, 10], groups: { formation: phalanx }, abilities: [shield_wall] }
      - { id: kenji, type: light_spearmen, at: [30, 10], abilities: [samurai] }
  - id: persians
    edge: north
    units:
      - { id: rider, type: light_cavalry, at: [10, 13.5], facing: 180 }
      - { id: rider_2, type: light_cavalry, at: [30, 13.5], facing: 180 }
";

// Guards Hoplite Shield Wall: "+1 defending die, and against cavalry gain +1 attacking and
// +1 defending die when facing the attack" is the spearmen's own bonus said again, not a
// second one: a heavy spearman in shield wall defends against a horseman with 2 +1 +1 = 4
// dice (it was 5). One attack die beats the best of four sum(a^4)/6^5 = 2275/7776.
#[test]
fn shield_wall_adds_one_die_and_the_spearmen_their_own_against_horse() {
    let out = common::play_scenario(
        SPEARS_AGAINST_HORSE,
        "1",
        "end_turn\nactivate hoplite shield_wall\nend_turn\n:odds melee rider hoplite\n\
         melee rider hoplite\n:explain\n",
    );
    out.expect_code(0).stdout_has(&[
        "2275/7776",
        "defend_dice for hoplite: 2 (heavy spearmen) +1 spearmen +1 shield_wall = 4\n",
    ]);
}

// Guards Samurai Code of Honor with the spearmen's bonus: "2 attacking and 2 defending die"
// is a base the spearmen's +1 against horse adds to (2 + 1 = 3 dice), where it used to come
// last and erase the +1. One attack die beats the best of three 441/1296 = 49/144.
#[test]
fn samurai_spearmen_keep_their_bonus_against_horse() {
    let out = common::play_scenario(
        SPEARS_AGAINST_HORSE,
        "1",
        ":odds melee rider_2 kenji\nmelee rider_2 kenji\n:explain\n",
    );
    out.expect_code(0).stdout_has(&[
        "49/144",
        "defend_dice for kenji: 1 (light spearmen) set to 2 by samurai +1 spearmen = 3\n",
    ]);
}

// Guards "Against cavalry or war elephants, spearmen gain +1 attacking and +1 defending die,
// but only if facing the attack" for an arrow: a shot is an attack ("1 attacking die
// (archery)"), and a mounted archer is cavalry, so a spearman facing him defends with 2 dice.
// He defended with 1, the bonus given in melee only.
#[test]
fn a_spearman_facing_a_mounted_archers_arrow_has_his_die_against_horse() {
    let game = Game::first(
        "romans",
        &[&roman_unit("rider", "mounted_archer", 10.0, 2.0, "")],
        &[&viking_unit("spear", "light_spearmen", 10.0, 12.0, "")],
    );
    let out = game.play_ok(1, "shoot rider spear\n:explain\n");
    out.stdout_has(&["defend_dice for spear: 1 (light spearmen) +1 spearmen = 2\n"]);
}

// Guards the spearmen's bonus as a foot soldier's: a spearman who has won a horse "continues
// with the stats of" a horseman, and his long spear against horse goes with his feet (it
// broke: a mounted spearman kept +1 die against cavalry). Here he rides (class cavalry,
// mounted, as `mount` leaves him) and defends against a horseman with a light horseman's die.
#[test]
fn a_spearman_on_a_won_horse_loses_the_spearmens_bonus_against_horse() {
    let mounted = SPEARS_AGAINST_HORSE.replace(
        "abilities: [samurai] }",
        "stats: { class: cavalry, mounted: true, move: 24, defend: 1 } }",
    );
    let out = common::play_scenario(&mounted, "1", "melee rider_2 kenji\n:explain\n");
    out.expect_code(0)
        .stdout_has(&["defend_dice for kenji: 1 (light spearmen) = 1\n"]);
}

// Guards Hoplite Shield Wall as the spearmen's formation on foot: "When Hoplites (or any other
// Greek spearmen) form a shield wall". A hoplite in shield wall who kills a horseman and takes
// his horse rides out of it: he defends with a horseman's dice and moves at a horseman's
// speed (he kept the wall's +1 and half speed on horseback: four dice at 9 inches).
#[test]
fn a_hoplite_who_takes_a_won_horse_leaves_the_shield_wall() {
    let scenario = SPEARS_AGAINST_HORSE
        .replace("first: persians", "first: greeks")
        .replace(
            "{ id: rider, type: light_cavalry, at: [10, 13.5], facing: 180 }",
            "{ id: rider, type: light_cavalry, at: [10, 13.5], facing: 180, stats: { defend: 0 } }\n      \
             - { id: rider_3, type: light_cavalry, at: [13, 13.5], facing: 270 }",
        );
    let out = common::play_scenario(
        &scenario,
        "1",
        "activate hoplite shield_wall\nmelee hoplite rider\nremount hoplite\nend_turn\nend_turn\n\
         end_turn\nmelee rider_3 hoplite\n:explain\n",
    );
    out.expect_code(0).stdout_has(&[
        "hoplite mounts and rides\n",
        "  Hoplite Shield Wall ends for hoplite: a formation of spearmen on foot\n",
        "defend_dice for hoplite: 3 (heavy spearmen) = 3\n",
    ]);
}

// ---------------------------------------------------------------------------------------------
// The advanced options are options: "They are in no means required to be used", and "There
// should only be up to 2 special units in each player's army. The players can agree to have
// more".
// ---------------------------------------------------------------------------------------------

/// One figure of every troop type, for Rome: two rows of nine, 5 inches apart, so that the
/// widest bases (a wall 6 inches wide beside a siege tower of 4) at most touch.
fn every_troop_type() -> Vec<String> {
    [
        "light_infantry",
        "heavy_infantry",
        "light_spearmen",
        "heavy_spearmen",
        "light_cavalry",
        "heavy_cavalry",
        "infantry_archer",
        "longbowman",
        "mounted_archer",
        "war_elephant",
        "chariot",
        "artillery",
        "battering_ram",
        "siege_tower",
        "ladder",
        "wall",
        "general",
        "mounted_general",
    ]
    .iter()
    .enumerate()
    .map(|(i, kind)| {
        let (x, y) = (2.0 + 5.0 * (i % 9) as f64, 2.0 + 14.0 * (i / 9) as f64);
        roman_unit(&format!("u{i}"), kind, x, y, "")
    })
    .collect()
}

// Guards that the advanced special abilities are off unless the scenario gives them: no troop
// of the chart comes with a special ability, and a legionary the scenario gave none cannot
// form the testudo, though another has it.
#[test]
fn advanced_abilities_are_off_unless_the_scenario_gives_them() {
    let mut troops = every_troop_type();
    troops.push(legionary("veteran", 30.0, 10.0, ", abilities: [testudo]"));
    let romans: Vec<&str> = troops.iter().map(String::as_str).collect();
    let game = Game::first(
        "romans",
        &romans,
        &[&viking("viking", 24.0, 30.0, ", abilities: [berserker]")],
    );
    let out = game.play_refused(
        1,
        "for u in all_units() { for a in u.abilities { if \"special\" in ability_meta(a) && ability_meta(a).special { print(`${u}: ${a}`) } } }\n\
         activate u1 testudo\n",
        &["u1 has no ability `testudo`"],
    );
    // The scenario's testudo and berserker are the only special abilities in the game.
    assert_eq!(
        after(
            &out,
            "for u in all_units() { for a in u.abilities { if \"special\" in ability_meta(a) && ability_meta(a).special { print(`${u}: ${a}`) } } }"
        ),
        "veteran: testudo\nviking: berserker\n"
    );
}

/// `n` Romans, each with the special ability `ability` and `extra` YAML fields.
fn special_romans(n: usize, ability: &str, extra: &str) -> Vec<String> {
    (0..n)
        .map(|i| {
            roman_unit(
                &format!("r{i}"),
                "light_infantry",
                4.0 + 4.0 * i as f64,
                4.0,
                &format!(", abilities: [{ability}]{extra}"),
            )
        })
        .collect()
}

// Guards "up to 2 special units in each player's army": a third is refused when the game
// starts, and `check` says so.
#[test]
fn third_special_unit_is_refused() {
    let three = special_romans(3, "elite", "");
    let romans: Vec<&str> = three.iter().map(String::as_str).collect();
    let game = Game::first("romans", &romans, &[&viking("viking", 24.0, 30.0, "")]);
    let limit = "Rome fields 3 special units (r0, r1, r2); the limit is 2: give fewer units \
                 special abilities, or raise it with `data: { special_units: 3 }` in the \
                 scenario if the players agree";
    game.play(1, "").expect_code(1).stderr_has(&[limit]);
    game.check().expect_code(1).stderr_has(&[limit]);

    let two = special_romans(2, "elite", "");
    let romans: Vec<&str> = two.iter().map(String::as_str).collect();
    Game::first("romans", &romans, &[&viking("viking", 24.0, 30.0, "")]).play_ok(1, "");
}

// Guards "the players can agree to have more": `data: { special_units: 3 }` in the scenario
// lets three play; a formation counts once; and a normal special ability (the Cantabrian
// Circle) makes no unit special.
#[test]
fn special_units_limit_is_raised_by_agreement_and_counts_a_formation_once() {
    let three = special_romans(3, "elite", "");
    let romans: Vec<&str> = three.iter().map(String::as_str).collect();
    let viking_line = viking("viking", 24.0, 30.0, "");
    Game::with(
        Some("romans"),
        &romans,
        &[&viking_line],
        "data: { special_units: 3 }\n",
    )
    .play_ok(1, "");

    let formation = special_romans(3, "elite", ", groups: { formation: guard }");
    let romans: Vec<&str> = formation.iter().map(String::as_str).collect();
    Game::first("romans", &romans, &[&viking_line]).play_ok(1, "");

    let circle: Vec<String> = (0..3)
        .map(|i| {
            roman_unit(
                &format!("r{i}"),
                "mounted_archer",
                4.0 + 4.0 * i as f64,
                4.0,
                ", abilities: [cantabrian_circle]",
            )
        })
        .collect();
    let romans: Vec<&str> = circle.iter().map(String::as_str).collect();
    Game::first("romans", &romans, &[&viking_line]).play_ok(1, "");
}

// ---------------------------------------------------------------------------------------------
// Cantabrian Circle: "This special ability allows your mounted archers to attack from the range
// of any other mounted archer within a turn's movement of each other."
// ---------------------------------------------------------------------------------------------

/// A mounted archer of Rome 24" from a Viking, out of his 12" bowshot, and a friend
/// straight ahead of him at `friend_y`, each with `abilities`.
fn circle_game(friend_y: f64, abilities: &str) -> Game {
    Game::first(
        "romans",
        &[
            &roman_unit("rear", "mounted_archer", 10.0, 2.0, abilities),
            &roman_unit("front", "mounted_archer", 10.0, friend_y, abilities),
        ],
        &[&viking_unit("target", "light_infantry", 10.0, 26.0, "")],
    )
}

// Guards "attack from the range of any other mounted archer": the archer at the back, out of
// range, shoots from his friend's place; without the ability he cannot.
#[test]
fn cantabrian_circle_shoots_from_a_friends_range() {
    let game = circle_game(14.0, ", abilities: [cantabrian_circle]");
    let out = game.play_ok(1, "shoot rear target\n");
    assert!(
        after(&out, "shoot rear target")
            .starts_with("rear (Mounted archer) shoots at target (Light infantry)\n"),
        "{}",
        out.stdout
    );

    // The friend must be a mounted archer: a light cavalryman lends no range.
    let without = Game::first(
        "romans",
        &[
            &roman_unit("rear", "mounted_archer", 10.0, 2.0, ""),
            &roman_unit("front", "light_cavalry", 10.0, 14.0, ""),
        ],
        &[&viking_unit("target", "light_infantry", 10.0, 26.0, "")],
    );
    without.play_refused(
        1,
        "shoot rear target\n",
        &["target is 21.65\" from rear: the bow reaches 12\""],
    );
}

// Guards "Mounted archers ... (Special ability Cantabrian Circle: This special ability allows
// your mounted archers to attack from the range of any other mounted archer ...)": the troop
// chart gives it to every mounted archer, as it gives the Charge, and the friend whose range
// is borrowed is any mounted archer. A mounted archer whose scenario did not list it could not
// shoot from a friend's place, nor from the place of a friend without it.
#[test]
fn every_mounted_archer_has_the_cantabrian_circle_and_borrows_any_mounted_archers_range() {
    let game = circle_game(14.0, "");
    let out = game.play_ok(1, "shoot rear target\n");
    assert!(
        after(&out, "shoot rear target")
            .starts_with("rear (Mounted archer) shoots at target (Light infantry)\n"),
        "{}",
        out.stdout
    );
}

// Guards "within a turn's movement of each other": a friend more than the archer's 18" move
// away, edge to edge, lends him no range.
#[test]
fn cantabrian_circle_reaches_only_friends_within_a_turns_move() {
    // Edge to edge: 19" between centres less two half-depths of 1.75" is 15.5", within 18".
    let near = circle_game(21.0, ", abilities: [cantabrian_circle]");
    near.play_ok(1, "shoot rear target\n");
    // 4" across and 22" up, 18.67" edge to edge: too far, though the front man is in range.
    let far = Game::first(
        "romans",
        &[
            &roman_unit(
                "rear",
                "mounted_archer",
                10.0,
                2.0,
                ", abilities: [cantabrian_circle]",
            ),
            &roman_unit(
                "front",
                "mounted_archer",
                14.0,
                24.0,
                ", abilities: [cantabrian_circle]",
            ),
        ],
        &[&viking_unit("target", "light_infantry", 10.0, 26.0, "")],
    );
    far.play_refused(
        1,
        "shoot rear target\n",
        &["target is 21.65\" from rear: the bow reaches 12\""],
    );
}

// ---------------------------------------------------------------------------------------------
// Hoplite Shield Wall: "However the formation must move half the speed it would normally move."
// ---------------------------------------------------------------------------------------------

// Guards the half speed: a heavy spearman (6") in shield wall moves at most 3"; the same man
// out of it moves 6".
#[test]
fn shield_wall_moves_at_half_speed() {
    let game = Game::first(
        "romans",
        &[&roman_unit(
            "hoplite",
            "heavy_spearmen",
            10.0,
            2.0,
            ", abilities: [shield_wall]",
        )],
        &[&viking("viking", 30.0, 30.0, "")],
    );
    let out = game.play_refused(
        1,
        "activate hoplite shield_wall\nmove hoplite 10 5.5\nmove hoplite 10 5\n",
        &["hoplite moves at most 3\" a turn; (10, 5.5) is 3.5\" away"],
    );
    out.stdout_has(&["  hoplite moves 3\" from (10, 2) to (10, 5)\n"]);
    game.play_ok(1, "move hoplite 10 8\n")
        .stdout_has(&["  hoplite moves 6\" from (10, 2) to (10, 8)\n"]);
}

// Guards "considered heavy infantry even if they have no shield" (Elite troops) and "even
// without a shield" (Samurai) for the move: heavy infantry "can move ½ a foot per turn", so an
// elite or samurai light infantryman moves 6", as the general with the same words does. He
// kept his 12".
#[test]
fn elite_and_samurai_on_foot_move_as_heavy_infantry() {
    for ability in ["elite", "samurai"] {
        let game = Game::first(
            "romans",
            &[&roman_unit(
                "guard",
                "light_infantry",
                10.0,
                2.0,
                &format!(", abilities: [{ability}]"),
            )],
            &[&viking("viking", 30.0, 30.0, "")],
        );
        let out = game.play_refused(
            1,
            "move guard 10 8.5\nmove guard 10 8\n",
            &["guard moves at most 6\" a turn; (10, 8.5) is 6.5\" away"],
        );
        out.stdout_has(&["  guard moves 6\" from (10, 2) to (10, 8)\n"]);
    }
}

// ---------------------------------------------------------------------------------------------
// Crusader Advanced Charge: "When a crusader knight uses the special ability charge he gains +1
// attacking die. This special ability can only be used 3 times in a battle and the cavalry
// must rest at least 2 turns before using it again."
// ---------------------------------------------------------------------------------------------

/// A crusader knight (heavy cavalry) of Rome and Vikings on foot in a file before him, 8", 16",
/// 24" and 32" away, with no defending dice (so each charge kills and frees the knight).
fn crusader_game(abilities: &str) -> Game {
    let targets: Vec<String> = (1..=4)
        .map(|i| {
            viking_unit(
                &format!("t{i}"),
                "light_infantry",
                24.0,
                2.0 + 8.0 * i as f64,
                ", stats: { defend: 0 }",
            )
        })
        .collect();
    let vikings: Vec<&str> = targets.iter().map(String::as_str).collect();
    Game::first(
        "romans",
        &[&roman_unit("knight", "heavy_cavalry", 24.0, 2.0, abilities)],
        &vikings,
    )
}

// Guards "+1 attacking die": on top of the Charge's own +1, a knight charges with 3 dice.
// The target defends with light infantry's 1 die, and the knight wins unless that die is
// higher than his best: sum over the target's d of P(best >= d)/6.
#[test]
fn crusader_charge_gives_one_more_attacking_die() {
    let abilities = ", abilities: [crusader_charge]";
    // 3 dice: (6 - (0 + 1 + 8 + 27 + 64 + 125)/216)/6 = 1071/1296 = 119/144.
    let one_die = Game::first(
        "romans",
        &[&roman_unit("knight", "heavy_cavalry", 24.0, 2.0, abilities)],
        &[&viking_unit("t1", "light_infantry", 24.0, 10.0, "")],
    );
    let odds = one_die.odds("charge knight t1");
    assert_eq!(chance(&odds, "knight may step, t1 removed"), "119/144");
    // Without it, the Charge's 2 dice: (6 - (0 + 1 + 4 + 9 + 16 + 25)/36)/6 = 161/216.
    let plain = Game::first(
        "romans",
        &[&roman_unit("knight", "heavy_cavalry", 24.0, 2.0, "")],
        &[&viking_unit("t1", "light_infantry", 24.0, 10.0, "")],
    );
    let odds = plain.odds("charge knight t1");
    assert_eq!(chance(&odds, "knight may step, t1 removed"), "161/216");
}

// Guards "only be used 3 times in a battle" and "rest at least 2 turns": charges on turns 1, 4
// and 7 attack with 3 dice, the fourth, on turn 10, with the Charge's 2 alone; and the ability
// is not ready on turns 2 and 3.
#[test]
fn crusader_charge_is_used_three_times_a_battle_with_two_turns_rest() {
    let game = crusader_game(", abilities: [crusader_charge]");
    let wait = "end_turn\nend_turn\n";
    let ready = "print(ability_ready(unit(\"knight\"), \"crusader_charge\"))\n";
    let lines = format!(
        "charge knight t1\n{wait}{ready}{wait}{ready}{wait}charge knight t2\n{}charge knight t3\n{}charge knight t4\n",
        wait.repeat(3),
        wait.repeat(3)
    );
    let out = game.play_ok(1, &lines);
    let t = transcript(&out);
    assert_eq!(
        t.matches("  knight attacks with 3 dice: ").count(),
        3,
        "{t}"
    );
    assert!(
        after(&out, "charge knight t4").contains("\n  knight attacks with 2 dice: "),
        "{t}"
    );
    assert_eq!(
        t.matches(&format!("> {}false\n", ready)).count(),
        2,
        "not ready on turns 2 and 3:\n{t}"
    );
}

// ---------------------------------------------------------------------------------------------
// Muslim Accurate Arrow: "A Mounted Muslim archer gains +1 attacking die when he uses archery."
// ---------------------------------------------------------------------------------------------

/// A mounted archer of Rome with `abilities`, a Viking on foot 8" before him and an elephant
/// with its rider beside that one.
fn muslim_archer_game(abilities: &str) -> Game {
    Game::first(
        "romans",
        &[&roman_unit(
            "archer",
            "mounted_archer",
            10.0,
            2.0,
            abilities,
        )],
        &[
            &viking_unit("target", "light_infantry", 10.0, 10.0, ""),
            &viking_unit("elephant", "war_elephant", 16.0, 12.0, ""),
        ],
    )
}

// Guards "+1 attacking die when he uses archery", at a man and at an elephant's rider (1 die
// each), and not in melee. Two dice against one hit with (6 - (0+1+4+9+16+25)/36)/6 =
// 161/216; one die against one, 7/12.
#[test]
fn accurate_arrow_gives_one_more_die_to_arrows_only() {
    let muslim = muslim_archer_game(", abilities: [accurate_arrow]");
    assert_eq!(
        chance(&muslim.odds("shoot archer target"), "target removed"),
        "161/216"
    );
    assert_eq!(
        chance(
            &muslim.odds("shoot_rider archer elephant"),
            "elephant riderless"
        ),
        "161/216"
    );
    let plain = muslim_archer_game("");
    assert_eq!(
        chance(&plain.odds("shoot archer target"), "target removed"),
        "7/12"
    );
    // In melee he fights with his 1 die.
    let melee = Game::first(
        "romans",
        &[&roman_unit(
            "archer",
            "mounted_archer",
            10.0,
            2.0,
            ", abilities: [accurate_arrow]",
        )],
        &[&viking_unit("target", "light_infantry", 10.0, 5.5, "")],
    );
    assert_eq!(
        chance(
            &melee.odds("melee archer target"),
            "archer may step, target removed"
        ),
        "7/12"
    );
}

// ---------------------------------------------------------------------------------------------
// Mayan/Aztec Sacrifice: "When one Mayan or Aztec kills himself, (i.e. is removed from the
// field) any Mayan/ Aztec warriors within 6 inches of the first Mayan/Aztec gain +1 attacking
// die."
// ---------------------------------------------------------------------------------------------

/// Three Aztecs of Rome's side with the Sacrifice, one band (one special unit), the priest
/// between a warrior 4" east and one 8" west, and a Viking on foot before each warrior.
fn sacrifice_game() -> Game {
    let aztec = |id: &str, x: f64| {
        roman_unit(
            id,
            "light_infantry",
            x,
            10.0,
            ", abilities: [sacrifice], groups: { formation: aztecs }",
        )
    };
    Game::first(
        "romans",
        &[
            &aztec("priest", 20.0),
            &aztec("near", 24.0),
            &aztec("far", 12.0),
        ],
        &[
            &viking_unit("v_near", "light_infantry", 24.0, 12.5, ""),
            &viking_unit("v_far", "light_infantry", 12.0, 12.5, ""),
        ],
    )
}

// Guards "+1 attacking die" for the warriors within 6 inches, for the rest of the turn: one
// die against one wins 7/12; two dice against one (6 - 55/36)/6 = 161/216. The warrior 8"
// away gains nothing, and next turn the inspiration is gone.
#[test]
fn sacrifice_gives_warriors_within_six_inches_one_more_die_that_turn() {
    let game = sacrifice_game();
    let out = game.play_ok(
        1,
        ":odds melee near v_near\nsacrifice priest\n:odds melee near v_near\n:odds melee far v_far\n\
         end_turn\nend_turn\n:odds melee near v_near\n",
    );
    assert_eq!(
        chance_at_prompt(
            &after(&out, ":odds melee near v_near"),
            "near may step, v_near removed"
        ),
        "7/12"
    );
    assert_eq!(
        after(&out, "sacrifice priest"),
        "\
priest (Light infantry) sacrifices himself
  priest is removed: sacrificed himself
  near is tagged `inspired 1`
"
    );
    let played = transcript(&out);
    let inspired: Vec<&str> = played.split("> :odds melee near v_near\n").collect();
    assert_eq!(
        chance_at_prompt(inspired[2], "near may step, v_near removed"),
        "161/216"
    );
    assert_eq!(
        chance_at_prompt(
            &after(&out, ":odds melee far v_far"),
            "far may step, v_far removed"
        ),
        "7/12"
    );
    assert_eq!(
        chance_at_prompt(
            &after_last(&out, ":odds melee near v_near"),
            "near may step, v_near removed"
        ),
        "7/12"
    );
}

// ---------------------------------------------------------------------------------------------
// Zulu Fluid Movement: "A Zulu warrior can move 1 foot, and can choose to move 1½ feet every
// three turns."
// ---------------------------------------------------------------------------------------------

// Guards "1 foot, and can choose to move 1½ feet every three turns": 12" unless chosen, 18"
// the turn it is chosen, then not again until turn 4.
#[test]
fn zulu_moves_a_foot_and_a_half_every_three_turns() {
    let game = Game::first(
        "romans",
        &[&roman_unit(
            "shaka",
            "light_infantry",
            30.0,
            2.0,
            ", abilities: [zulu]",
        )],
        &[&viking("viking", 10.0, 34.0, "")],
    );
    let wait = "end_turn\nend_turn\n";
    let out = game.play_refused(
        1,
        &format!(
            "move shaka 30 20\nactivate shaka zulu\nmove shaka 30 20.5\nmove shaka 30 20\n{wait}\
             activate shaka zulu\nmove shaka 30 33\n{wait}activate shaka zulu\n{wait}\
             activate shaka zulu\nmove shaka 30 2\n"
        ),
        &[
            "shaka moves at most 12\" a turn; (30, 20) is 18\" away",
            "shaka moves at most 18\" a turn; (30, 20.5) is 18.5\" away",
            "shaka: Zulu Fluid Movement must rest 2 turns between uses: it can be used again on turn 4",
            "shaka moves at most 12\" a turn; (30, 33) is 13\" away",
        ],
    );
    assert_eq!(
        out.stderr.matches("it can be used again on turn 4").count(),
        2,
        "refused on turns 2 and 3:\n{}",
        out.stderr
    );
    out.stdout_has(&[
        "  shaka moves 18\" from (30, 2) to (30, 20)\n",
        "  shaka moves 18\" from (30, 20) to (30, 2)\n",
    ]);
}

// ---------------------------------------------------------------------------------------------
// Elite troops: "Elite troops have +1 attacking die and +1 defending die and are considered
// heavy infantry even if they have no shield. If mounted, Elite Troops gain +1 defending die
// and are considered heavy cavalry."
// ---------------------------------------------------------------------------------------------

// Guards elite troops on foot: an elite light infantryman attacks with 2 dice and defends with
// heavy infantry's 2 +1 = 3. Attacking a man of 1 die he kills with (6 - 55/36)/6 = 161/216;
// a man of 1 die attacking him wins when his die is at least the best of three:
// sum(a^3)/6^4 = 441/1296 = 49/144.
#[test]
fn elite_on_foot_attacks_with_two_dice_and_defends_with_three() {
    let game = Game::first(
        "romans",
        &[&roman_unit(
            "veteran",
            "light_infantry",
            10.0,
            10.0,
            ", abilities: [elite]",
        )],
        &[&viking_unit("viking", "light_infantry", 10.0, 12.5, "")],
    );
    assert_eq!(
        chance(
            &game.odds("melee veteran viking"),
            "veteran may step, viking removed"
        ),
        "161/216"
    );
    let defending = Game::first(
        "vikings",
        &[&roman_unit(
            "veteran",
            "light_infantry",
            10.0,
            10.0,
            ", abilities: [elite]",
        )],
        &[&viking_unit("viking", "light_infantry", 10.0, 12.5, "")],
    );
    assert_eq!(
        chance(
            &defending.odds("melee viking veteran"),
            "veteran removed, viking may step"
        ),
        "49/144"
    );
}

// Guards elite troops mounted: an elite light horseman defends with heavy cavalry's 3 +1 +1 =
// 5 dice (exact odds over 6^6 branches take too long here: the narration and `:explain` say
// the dice). Once he has dismounted he counts as on foot: 2 +1 = 3 dice, and a man of 1 die
// beats the best of three with sum(a^3)/6^4 = 441/1296 = 49/144.
#[test]
fn elite_mounted_defends_with_five_dice_and_on_foot_with_three() {
    let game = Game::first(
        "vikings",
        &[&roman_unit(
            "eques",
            "light_cavalry",
            10.0,
            10.0,
            ", abilities: [elite]",
        )],
        &[&viking_unit("viking", "light_infantry", 10.0, 14.0, "")],
    );
    let out = game.play_ok(1, "melee viking eques\n:explain\n");
    out.stdout_has(&[
        "\n  eques defends with 5 dice: 5d6kh1 [",
        "\ndefend_dice for eques: 2 (light cavalry) +3 elite = 5\n",
    ]);
    let out = game.play_ok(
        1,
        "end_turn\ndismount eques\nend_turn\nend_turn\nend_turn\n:odds melee viking eques\n",
    );
    out.stdout_has(&["eques dismounts and fights on foot\n"]);
    assert_eq!(
        chance_at_prompt(
            &after(&out, ":odds melee viking eques"),
            "eques removed, viking may step"
        ),
        "49/144"
    );
}
