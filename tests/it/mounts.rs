//! Playmobil Melee Combat: mounts and crews (`mounts.rhai`): dismounting and remounting,
//! elephants' riders and rider-less elephants, chariots' drivers, the two-man strike and
//! capturing a chariot.

use crate::common;

use common::game::{Game, roman_unit, viking_unit};
use common::{Output, play_scenario};

/// An archer, a horseman and a footman of Rome against an elephant and a chariot; Rome
/// plays first.
const MOUNTS: &str = "\
name: Mounts
ruleset: playmobil
first: romans
table: { width: 48, depth: 36 }
sides:
  - id: romans
    edge: south
    units:
      - { id: archer, type: infantry_archer, at: [10, 10] }
      - { id: eques, type: light_cavalry, at: [30, 5] }
      - { id: foot, type: light_infantry, at: [20, 19] }
  - id: carthage
    edge: north
    units:
      - { id: elephant, type: war_elephant, at: [10, 16], facing: 180 }
      - { id: chariot, type: chariot, at: [20, 22], facing: 180 }
";

fn play(seed: &str, lines: &str) -> Output {
    play_scenario(MOUNTS, seed, lines)
}

// Guards "the elephant rider can only be killed by archers or thrown weapons" and "if the
// rider of the war elephant is killed the war elephant looses -1 attacking and -1 defending
// die".
#[test]
fn elephant_rider_shot_down_costs_the_elephant_a_die_each_way() {
    // Seed 1: the archer rolls 3 against the rider's 1.
    let out = play("1", "shoot_rider archer elephant\n");
    out.expect_code(0).stdout_has(&[
        "archer hits 3 to 1: the rider of elephant is killed\n",
        "  elephant attack: 3 -> 2\n  elephant defend: 3 -> 2\n  elephant is tagged `riderless`\n",
    ]);
}

// Guards that a rider-less elephant answers to no one: its side cannot order it.
#[test]
fn riderless_elephant_cannot_be_ordered() {
    let out = play(
        "1",
        "shoot_rider archer elephant\nend_turn\nmelee elephant archer\n",
    );
    out.expect_code(1)
        .stderr_has(&["elephant has lost its rider: it runs wild on its own"]);
}

// Guards "the Elephant will attack the troops ... the elephant must attack the closest
// troops": at the start of the next turn it charges the nearest figure within half a foot.
#[test]
fn riderless_elephant_attacks_the_closest_troops_each_turn() {
    let out = play("1", "shoot_rider archer elephant\nend_turn\nend_turn\n");
    out.expect_code(0).stdout_has(&[
        "elephant (War elephant) runs wild at archer (Infantry archer)\n",
        "elephant tramples archer\n  archer is removed: trampled by elephant\n",
    ]);
}

/// A rider-less elephant of the Vikings at (20, 20), a Roman on foot `roman_gap` inches east
/// of its flank and a Viking on foot `viking_gap` inches west of it, edge to edge; Rome plays
/// first.
fn elephant_between(roman_gap: f64, viking_gap: f64) -> Game {
    // The elephant's base is 3" wide, a man's 1.2" across: centres 2.1" further apart.
    Game::first(
        "romans",
        &[&roman_unit(
            "roman",
            "light_infantry",
            20.0 + 2.1 + roman_gap,
            20.0,
            "",
        )],
        &[
            &viking_unit(
                "elephant",
                "war_elephant",
                20.0,
                20.0,
                ", tags: [riderless], stats: { rider: false }",
            ),
            &viking_unit(
                "viking",
                "light_infantry",
                20.0 - 2.1 - viking_gap,
                20.0,
                "",
            ),
        ],
    )
}

// Guards "the elephant must attack the closest troops": of two figures within half a foot it
// runs at the nearer, of either side, whichever that is.
#[test]
fn riderless_elephant_attacks_the_closest_of_either_side() {
    let out = elephant_between(4.0, 2.0).play_ok(1, "end_turn\nend_turn\n");
    out.stdout_has(&["elephant (War elephant) runs wild at viking (Light infantry)\n"]);
    out.stdout_lacks("runs wild at roman");
    let out = elephant_between(2.0, 4.0).play_ok(1, "end_turn\nend_turn\n");
    out.stdout_has(&["elephant (War elephant) runs wild at roman (Light infantry)\n"]);
    out.stdout_lacks("runs wild at viking");
}

// Guards "elephant riders cannot dismount in battle".
#[test]
fn elephant_rider_cannot_dismount() {
    let out = play("1", "end_turn\ndismount elephant\n");
    out.expect_code(1).stderr_has(&[
        "elephant is not a horseman or a chariot (elephant riders cannot dismount in battle)",
    ]);
    out.stdout_lacks("dismounting");
}

// Guards "cavalry can dismount, but they must wait one turn without moving": declared now,
// on foot at the start of the next turn, with infantry's stats.
#[test]
fn dismounting_takes_a_turn_and_leaves_an_infantryman() {
    let out = play(
        "1",
        "dismount eques\nmove eques 30 8\nend_turn\nend_turn\nprint(unit(\"eques\").stat(\"mounted\"))\n",
    );
    out.expect_code(1)
        .stderr_has(&["eques is waiting to get on or off his horse and must keep still"]);
    out.stdout_has(&[
        "eques dismounts and fights on foot\n",
        "  eques move: 18 -> 12\n",
        "> print(unit(\"eques\").stat(\"mounted\"))\nfalse\n",
    ]);
}

// Guards "without being attacked": an attack on a horseman who is dismounting stops it. The
// raider's base touches the horse's head.
#[test]
fn attack_interrupts_a_dismount() {
    let out = play_scenario(
        &MOUNTS.replace(
            "      - { id: chariot, type: chariot, at: [20, 22], facing: 180 }\n",
            "      - { id: chariot, type: chariot, at: [20, 22], facing: 180 }\n      - { id: raider, type: light_infantry, at: [30, 7.35], facing: 180, stats: { attack: 0 } }\n",
        ),
        "1",
        "dismount eques\nend_turn\nmelee raider eques\nend_turn\nprint(unit(\"eques\").stat(\"mounted\"))\n",
    );
    out.expect_code(0).stdout_has(&[
        "  eques is attacked: no time to dismount\n",
        "> print(unit(\"eques\").stat(\"mounted\"))\ntrue\n",
    ]);
}

// Guards remounting: back on the horse after the same wait, with the cavalry's stats.
#[test]
fn remounting_takes_a_turn_and_restores_the_horseman() {
    let out = play(
        "1",
        "dismount eques\nend_turn\nend_turn\nremount eques\nend_turn\nend_turn\nprint(unit(\"eques\").stat(\"move\"))\n",
    );
    out.expect_code(0).stdout_has(&[
        "eques makes ready to mount\n",
        "eques mounts and rides\n",
        "> print(unit(\"eques\").stat(\"move\"))\n18\n",
    ]);
}

/// Two Roman footmen without defence dice in reach of a Carthaginian chariot, and an archer.
const CHARIOT: &str = "\
name: Chariot
ruleset: playmobil
first: carthage
table: { width: 48, depth: 36 }
sides:
  - id: romans
    edge: south
    units:
      - { id: a, type: light_infantry, at: [19, 18.5], stats: { defend: 0 } }
      - { id: b, type: light_infantry, at: [21.5, 18.5], stats: { defend: 0 } }
      - { id: archer, type: infantry_archer, at: [20, 12] }
  - id: carthage
    edge: north
    units:
      - { id: chariot, type: chariot, at: [20, 22], facing: 180 }
      - { id: bondi, type: light_infantry, at: [30, 30], facing: 180 }
";

fn chariot(seed: &str, lines: &str) -> Output {
    play_scenario(CHARIOT, seed, lines)
}

// Guards "chariots can attack 2 men in one strike but only if the chariot hits both men".
#[test]
fn chariot_strikes_two_men_at_once() {
    let out = chariot("1", "strike chariot a b\n");
    out.expect_code(0).stdout_has(&[
        "chariot rides down a\n  a is removed: killed by chariot\n",
        "chariot rides down b\n  b is removed: killed by chariot\n",
    ]);
}

// Guards "the charioteer cannot be attacked while the chariot is still intact unless the
// charioteer is attacked by archers": shot down, the chariot stands without a driver.
#[test]
fn charioteer_shot_down_leaves_a_driverless_chariot() {
    // Seed 5: the archer's 3 beats the driver's 2.
    let out = chariot(
        "5",
        "strike chariot a b\nend_turn\nshoot_rider archer chariot\n",
    );
    out.expect_code(0).stdout_has(&[
        "archer hits 3 to 2: the driver of chariot is killed\n",
        "  chariot is tagged `driverless`\n",
    ]);
}

// Guards P-54, "an enemy infantry man can mount the chariot and annex it for his own team's
// use": the book names no wait for it, so the chariot is his at once (he waited a turn, the
// wait P-56 gives the dismounted charioteer getting back on).
#[test]
fn a_driverless_chariot_is_taken_at_once() {
    let out = play_scenario(
        &CHARIOT.replace(
            "at: [20, 12] }",
            "at: [20, 12] }\n      - { id: taker, type: light_infantry, at: [23, 22] }",
        ),
        "1",
        "end_turn\nshoot_rider archer chariot\ncapture taker chariot\nprint(unit(\"chariot\").side)\n",
    );
    out.expect_code(0).stdout_has(&[
        "taker (Light infantry) mounts chariot (Chariot) and drives it for romans\n",
        "  chariot side: carthage -> romans\n",
        "  chariot is tagged `moved`\n",
        "> print(unit(\"chariot\").side)\nromans\n",
    ]);
}

// Guards P-54's "an enemy infantry man can mount the chariot": an artillery piece, a ladder or
// a horseman is no infantry man and cannot take it (anything on foot could).
#[test]
fn only_an_infantry_man_may_take_a_driverless_chariot() {
    let out = play_scenario(
        &CHARIOT.replace(
            "at: [20, 12] }",
            "at: [20, 12] }\n      - { id: gun, type: artillery, at: [23, 22] }\n      \
             - { id: steps, type: ladder, at: [17, 22] }\n      - { id: eques, type: light_cavalry, at: [20, 26.5] }",
        ),
        "1",
        "end_turn\nshoot_rider archer chariot\ncapture gun chariot\ncapture steps chariot\ncapture eques chariot\n",
    );
    out.expect_code(1).stderr_has(&[
        "gun is no infantry man: only an infantry man can take over a chariot",
        "steps is no infantry man: only an infantry man can take over a chariot",
        "eques is no infantry man: only an infantry man can take over a chariot",
    ]);
    out.stdout_lacks("drives it for romans");
}

/// An elephant with no defence in reach of a strong legionary, and a chariot.
const DEATHS: &str = "\
name: Elephant death
ruleset: playmobil
first: romans
table: { width: 48, depth: 36 }
sides:
  - id: romans
    edge: south
    units:
      - { id: legionary, type: heavy_infantry, at: [10, 12], stats: { attack: 6 } }
  - id: carthage
    edge: north
    units:
      - { id: elephant, type: war_elephant, at: [10, 16], facing: 180, stats: { defend: 0 } }
      - { id: chariot, type: chariot, at: [30, 20], facing: 180 }
";

fn deaths(lines: &str) -> Output {
    play_scenario(DEATHS, "1", lines)
}

// Guards "if an elephant dies his rider survives": he comes onto the table on foot.
#[test]
fn elephant_rider_survives_his_elephant() {
    let out = deaths("melee legionary elephant\n:units carthage\n");
    out.expect_code(0).stdout_has(&[
        "  elephant is removed: killed by legionary\n  elephant_rider comes onto the table at (10, 19.5)\n",
        "elephant's rider survives and fights on foot as elephant_rider\n",
        "  elephant_rider War elephant's rider at (10, 19.5) facing 180°\n",
    ]);
}

// Guards "charioteers can dismount from their chariots like cavalry ... he leaves his
// chariot behind", and that he (or any man on foot) may take it again.
#[test]
fn charioteer_dismounts_and_takes_his_chariot_again() {
    let out = deaths(
        "end_turn\ndismount chariot\nend_turn\nend_turn\ncapture chariot_driver chariot\nend_turn\nend_turn\n",
    );
    out.expect_code(0).stdout_has(&[
        "chariot's driver steps down as chariot_driver; he may take it again (capture)\n",
        "  chariot_driver is removed: drives chariot\n",
    ]);
}

// Guards that the rider-less elephant's victim defends as against any attack: a rampage
// read his raw `defend` stat, so an Elite archer defended with 1 die instead of Elite's 3
// (heavy infantry's 2, +1).
#[test]
fn riderless_elephant_victim_defends_with_his_abilities() {
    let scenario = MOUNTS.replace(
        "{ id: archer, type: infantry_archer, at: [10, 10] }",
        "{ id: archer, type: infantry_archer, at: [10, 10], abilities: [elite] }",
    );
    // Seed 2: the rider is shot down, and the elephant runs wild at the archer.
    let out = play_scenario(
        &scenario,
        "2",
        "shoot_rider archer elephant\nend_turn\nend_turn\n:explain\n",
    );
    out.expect_code(0).stdout_has(&[
        "elephant (War elephant) runs wild at archer (Infantry archer)\n",
        "  archer defends with 3 dice: ",
        "defend_dice for archer: 1 (infantry archer) +2 elite = 3\n",
    ]);
}

// Guards "Chariot gains +1 defending die when an Egyptian is the charioteer": with its driver
// shot down, the chariot defends without the Egyptian's die (it kept it, since the ability
// is the chariot's).
#[test]
fn an_egyptian_chariot_without_its_driver_has_no_extra_die() {
    let scenario = CHARIOT.replace(
        "{ id: chariot, type: chariot, at: [20, 22], facing: 180 }",
        "{ id: chariot, type: chariot, at: [20, 22], facing: 180, abilities: [egyptian_chariot] }",
    );
    // Seed 1: the archer shoots the driver down, 3 to 1; then `a` attacks the chariot.
    let out = play_scenario(
        &scenario,
        "1",
        "end_turn\nshoot_rider archer chariot\nmelee a chariot\n:explain\n",
    );
    out.expect_code(0).stdout_has(&[
        "the driver of chariot is killed\n",
        "defend_dice for chariot: 1 (chariot) = 1\n",
    ]);
}

// Guards P-93, "Chariot gains +1 defending die when an Egyptian is the charioteer": with its
// Egyptian aboard the chariot defends with 2 dice (a test of the driverless chariot alone
// passed with the +1 deleted).
#[test]
fn an_egyptian_chariot_with_its_driver_defends_with_one_more_die() {
    let scenario = CHARIOT.replace(
        "{ id: chariot, type: chariot, at: [20, 22], facing: 180 }",
        "{ id: chariot, type: chariot, at: [20, 22], facing: 180, abilities: [egyptian_chariot] }",
    );
    let out = play_scenario(&scenario, "1", "end_turn\nmelee a chariot\n:explain\n");
    out.expect_code(0).stdout_has(&[
        "  chariot defends with 2 dice: ",
        "defend_dice for chariot: 1 (chariot) +1 egyptian_chariot = 2\n",
    ]);
}

// Guards that an artillery shot is an attack that stops a dismount ("without being
// attacked"): the rider dismounted all the same.
#[test]
fn an_artillery_shot_interrupts_a_dismount() {
    let out = play_scenario(
        &MOUNTS.replace(
            "      - { id: chariot, type: chariot, at: [20, 22], facing: 180 }\n",
            "      - { id: chariot, type: chariot, at: [20, 22], facing: 180 }\n      - { id: scorpion, type: artillery, at: [30, 30], facing: 180 }\n",
        ),
        "1",
        "dismount eques\nend_turn\nfire scorpion eques\nend_turn\nprint(unit(\"eques\").stat(\"mounted\"))\n",
    );
    out.expect_code(0).stdout_has(&[
        "  eques is attacked: no time to dismount\n",
        "> print(unit(\"eques\").stat(\"mounted\"))\ntrue\n",
    ]);
}

// Guards "unless there is something between your soldier and the enemy soldier" for the
// chariot's two-man strike, which rode men down with another figure between.
#[test]
fn a_chariot_strikes_no_man_with_a_figure_between() {
    let out = play_scenario(
        &CHARIOT.replace(
            "      - { id: archer, type: infantry_archer, at: [20, 12] }\n",
            "      - { id: archer, type: infantry_archer, at: [20, 12] }\n      - { id: c, type: light_infantry, at: [20, 19.3] }\n",
        )
        .replace("at: [19, 18.5]", "at: [20, 18]"),
        "1",
        "strike chariot c a\n",
    );
    out.expect_code(1)
        .stderr_has(&["c stands between chariot and a"]);
}

// Guards "once a man dismounts he ... continues with the stats of an infantry man" for the
// Charge: on foot he cannot charge (he charged 24 inches with +1 die), and "in order for the
// dismounted rider to remount he must return to his horse": back on it, he charges again.
#[test]
fn a_dismounted_horseman_charges_again_only_once_remounted() {
    let out = play(
        "1",
        "dismount eques\nend_turn\nend_turn\ncharge eques chariot\nremount eques\nend_turn\nend_turn\n\
         charge eques chariot\n",
    );
    out.expect_code(1)
        .stderr_has(&["eques is on foot: only a man on a horse charges (remount first)"]);
    out.stdout_has(&[
        "eques dismounts and fights on foot\n",
        "eques mounts and rides\n",
        "  eques: Charge in force for a turn\n",
        "eques (Light cavalry) attacks chariot (Chariot)\n",
    ]);
}

// Guards "If your general is riding a horse he gains +1 defending die" and "your general has
// +1 ... defending die and is considered heavy infantry" across a dismount and a remount: on
// foot a general's 3 dice (he had heavy infantry's 2), on his horse 5 again.
#[test]
fn a_dismounted_general_fights_as_a_general_on_foot() {
    let out = play_scenario(
        &MOUNTS.replace("type: light_cavalry", "type: mounted_general"),
        "1",
        "dismount eques\nend_turn\nend_turn\nremount eques\nend_turn\nend_turn\n",
    );
    out.expect_code(0).stdout_has(&[
        "  eques class: cavalry -> infantry\n  eques move: 18 -> 6\n  eques defend: 5 -> 3\n",
        "eques dismounts and fights on foot\n",
        "  eques class: infantry -> cavalry\n  eques move: 6 -> 18\n  eques defend: 3 -> 5\n",
        "eques mounts and rides\n",
    ]);
}

// Guards "Mounted archers can dismount ... and continues with the stats of an infantry man":
// he keeps his bow and shoots as an infantry archer, without the Muslim Accurate Arrow of a
// "Mounted Muslim archer" (he shot with 2 dice on foot).
#[test]
fn a_dismounted_mounted_archer_shoots_as_an_infantry_archer() {
    let out = play_scenario(
        &MOUNTS.replace(
            "{ id: eques, type: light_cavalry, at: [30, 5] }",
            "{ id: eques, type: mounted_archer, at: [20, 12], abilities: [accurate_arrow] }",
        ),
        "1",
        "dismount eques\nend_turn\nend_turn\nshoot eques chariot\n:explain\n",
    );
    out.expect_code(0).stdout_has(&[
        "  eques class: cavalry -> archer\n  eques move: 18 -> 12\n  eques defend: 2 -> 1\n",
        "  eques shoots with 1 die: ",
    ]);
}

/// A Roman footman able to kill a Carthaginian horseman beside him, and a man beyond.
const WON_HORSE: &str = "\
name: A won horse
ruleset: playmobil
first: romans
table: { width: 48, depth: 36 }
sides:
  - id: romans
    edge: south
    units:
      - { id: foot, type: light_infantry, at: [20, 10], stats: { attack: 6 } }
  - id: carthage
    edge: north
    units:
      - { id: knight, type: heavy_cavalry, at: [20, 13], facing: 180, stats: { defend: 0 } }
      - { id: numidian, type: light_infantry, at: [30, 25], facing: 180 }
";

// Guards that the computer player takes a horse it wins (it broke: it always left it, and the
// horse was killed): its footman kills the knight beside him and makes ready to mount.
#[test]
fn the_computer_player_takes_the_horse_its_footman_wins() {
    let out = play_scenario(WON_HORSE, "1", "play_turn romans\n");
    out.expect_code(0).stdout_has(&[
        "knight is removed: killed by foot",
        "foot makes ready to mount the horse he has won\n",
    ]);
}

// Guards "an infantry man that kills a cavalry man can choose to mount his steed ... the same
// procedure as a dismounted cavalry man would to remount": a light infantryman on a heavy
// cavalryman's horse rides as light cavalry, 2 defending dice (he took the dead man's 3,
// without a shield), with the Charge cavalry has (he had none, and could never charge).
#[test]
fn a_footman_on_a_won_horse_rides_as_a_cavalryman_of_his_own_kind() {
    let out = play_scenario(
        WON_HORSE,
        "1",
        "melee foot knight\nremount foot\nend_turn\nend_turn\ncharge foot numidian\n",
    );
    out.expect_code(0).stdout_has(&[
        "foot makes ready to mount the horse he has won\n",
        "  foot class: infantry -> cavalry\n  foot move: 12 -> 18\n  foot defend: 1 -> 2\n  foot mounted: none -> true\n",
        "  foot: gains Charge\n",
        "foot mounts and rides\n",
        "  foot: Charge in force for a turn\n",
    ]);
}

// Guards "if the attacker chooses not to mount the horse, the horse is killed as well": he
// chooses before his side's turn ends. The horse stayed his for the rest of the battle.
#[test]
fn a_horse_its_riders_killer_does_not_take_is_killed() {
    let out = play_scenario(
        WON_HORSE,
        "1",
        "melee foot knight\nend_turn\nend_turn\nremount foot\n",
    );
    out.expect_code(1)
        .stderr_has(&["foot has no horse to mount"]);
    out.stdout_has(&["foot leaves the horse he won: it is killed\n"]);
}

// Guards "the rider has his own attacking and defending die": a war elephant with its rider
// attacks with its own dice and his 1 die. With the elephant's dice set to none, the rider's
// die alone fights the man's 1 die; ties to the attacker, so it wins when it is at least the
// man's: 21/36 = 7/12. (The rider's die was never rolled: the elephant had no dice and was
// always blocked.)
#[test]
fn elephant_rider_attacks_with_his_own_die() {
    let out = play_scenario(
        &MOUNTS
            .replace("first: romans", "first: carthage")
            .replace("at: [10, 10] }", "at: [10, 11.5] }")
            .replace(
                "at: [10, 16], facing: 180 }",
                "at: [10, 16], facing: 180, stats: { attack: 0 } }",
            ),
        "1",
        ":odds melee elephant archer\nmelee elephant archer\n",
    );
    out.expect_code(0).stdout_has(&[
        "7/12",
        "  elephant attacks with 0 dice and its rider with 1 die: 1d6kh1 ",
    ]);
}

// Guards "the charioteer has his own attacking and defending die": the chariot strikes with
// its dice and his 1 die. With the chariot's dice set to none and each man defending with 1
// die, both men fall when the driver's die a is at least both of theirs:
// sum((a/6)^2, a=1..6)/6 = (1 + 4 + 9 + 16 + 25 + 36)/216 = 91/216. (The driver's die was
// never rolled: the chariot had no dice and was always blocked.)
#[test]
fn charioteer_strikes_with_his_own_die() {
    let out = play_scenario(
        &CHARIOT
            .replace("stats: { defend: 0 }", "stats: { defend: 1 }")
            .replace(
                "at: [20, 22], facing: 180 }",
                "at: [20, 22], facing: 180, stats: { attack: 0 } }",
            ),
        "1",
        ":odds strike chariot a b\nstrike chariot a b\n",
    );
    out.expect_code(0).stdout_has(&[
        "91/216",
        "  chariot attacks with 0 dice and its driver with 1 die: 1d6kh1 ",
    ]);
}

// Guards P-43, the rider-less elephant's victim defends with his abilities, for the spearmen's
// "+1 defending die" "against cavalry or war elephants": a heavy spearman facing the
// elephant's rampage defends with 3 dice (he had his 2 alone).
#[test]
fn riderless_elephant_gives_spearmen_their_die_against_elephants() {
    let scenario = MOUNTS.replace(
        "{ id: archer, type: infantry_archer, at: [10, 10] }",
        "{ id: archer, type: infantry_archer, at: [16, 10] }\n      - { id: spear, type: heavy_spearmen, at: [10, 10] }",
    );
    // Seed 1: the archer shoots the rider down; the spearman is the closest man.
    let out = play_scenario(
        &scenario,
        "1",
        "shoot_rider archer elephant\nend_turn\nend_turn\n:explain\n",
    );
    out.expect_code(0).stdout_has(&[
        "elephant (War elephant) runs wild at spear (Heavy spearmen)\n",
        "  spear defends with 3 dice: ",
    ]);
}

// Guards P-75, "as soon as your man ... is blocked by an opponent (i.e. the defender rolls a
// higher score then the attacker) the attacker cannot attack again", for the two-man strike:
// when the second man out-rolls the chariot, the first falls and the chariot is blocked (it
// could attack the second man again).
#[test]
fn chariot_out_rolled_by_the_second_man_of_a_strike_is_blocked() {
    let scenario = CHARIOT.replace(
        "{ id: b, type: light_infantry, at: [21.5, 18.5], stats: { defend: 0 } }",
        "{ id: b, type: light_infantry, at: [21.5, 18.5], stats: { defend: 12 } }",
    );
    // Seed 1: the chariot beats a's no dice; b's twelve dice beat it.
    let out = play_scenario(&scenario, "1", "strike chariot a b\nmelee chariot b\n");
    out.expect_code(1)
        .stderr_has(&["chariot was blocked and cannot attack again until your next turn"]);
    out.stdout_has(&[
        "chariot rides down a\n",
        "b stood his ground: the two-man strike fell on a alone, and chariot is blocked until your next turn\n",
    ]);
}
