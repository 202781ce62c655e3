//! Playmobil Melee Combat: siege engines and walls ("Burning/Destroying Siege Engines" and
//! the artillery section's walls), played through the real binary.

use crate::common;

use common::game::{after, chance_at_prompt};
use common::{Output, play_scenario};

/// Attackers with a ram, a tower and a ladder; defenders with a wall, a fire archer, a
/// torch-bearer standing by the tower and a scorpion. The attackers play first.
const SIEGE: &str = "\
name: Siege
ruleset: playmobil
first: attackers
table: { width: 48, depth: 36 }
sides:
  - id: attackers
    edge: south
    units:
      - { id: ram, type: battering_ram, at: [10, 10] }
      - { id: tower, type: siege_tower, at: [20, 10] }
      - { id: ladder, type: ladder, at: [30, 10] }
  - id: defenders
    edge: north
    units:
      - { id: wall, type: wall, at: [10, 14], facing: 180 }
      - { id: archer, type: infantry_archer, at: [20, 20], facing: 180, abilities: [flaming_arrows] }
      - { id: torch, type: light_infantry, at: [22.5, 12], facing: 180, stats: { torch: true } }
      - { id: scorpion, type: artillery, at: [30, 30], facing: 180 }
";

fn play(seed: &str, lines: &str) -> Output {
    play_scenario(SIEGE, seed, lines)
}

// Guards "have men carry torches and stand by the engine for one turn": the tower burns at
// the start of the torch-bearer's next turn.
#[test]
fn torch_bearer_burns_an_engine_after_a_turn_by_it() {
    let out = play("4", "end_turn\nburn torch tower\nend_turn\nend_turn\n");
    out.expect_code(0).stdout_has(&[
        "torch sets his torch to tower\n",
        "tower (Siege tower) burns\n  tower is removed: burnt by torch\n",
    ]);
}

// Guards that a torch-bearer who is attacked while standing by the engine loses his chance:
// the engine does not burn at the start of his next turn.
#[test]
fn attacked_torch_bearer_does_not_burn_the_engine() {
    let out = play_scenario(
        &SIEGE.replace(
            "      - { id: ladder, type: ladder, at: [30, 10] }\n",
            "      - { id: ladder, type: ladder, at: [30, 10] }\n      - { id: guard, type: light_infantry, at: [24, 10], stats: { attack: 0 } }\n",
        ),
        "4",
        "end_turn\nburn torch tower\nend_turn\nmelee guard torch\nend_turn\n",
    );
    out.expect_code(0)
        .stdout_has(&["  torch is attacked: the torch goes out\n"]);
    out.stdout_lacks("burns\n");
}

// Guards "archers using the flaming arrow technique hit it 3 times": one flaming hit is a
// first of three, not a kill.
#[test]
fn flaming_arrows_count_three_hits_on_an_engine() {
    // Seed 4: the archer rolls 5 against the tower's 1.
    let out = play(
        "4",
        "end_turn\nactivate archer flaming_arrows\nshoot archer tower\n",
    );
    out.expect_code(0).stdout_has(&[
        "archer hits 5 to 1: the fire catches\n",
        "  tower is hit by archer's flaming arrow (1 of 3 hits)\n",
    ]);
    out.stdout_lacks("tower is removed");
}

// Guards that ordinary arrows do an engine no harm, and that "ladders cannot be burned by
// archers".
#[test]
fn plain_arrows_and_ladders_take_no_harm_from_archery() {
    let out = play("4", "end_turn\nshoot archer tower\n");
    out.expect_code(0)
        .stdout_has(&["archer hits 5 to 1, but tower takes no harm from it\n"]);
}

// Guards "Ladders cannot be burned by archers": a flaming arrow that hits a ladder (which has
// no dice, so every arrow hits) does it no harm; every outcome of the dice is the same: the
// shot spent, and the archer stopped as by a miss (P-75), with no hit on the ladder.
#[test]
fn flaming_arrows_do_not_burn_a_ladder() {
    let out = play(
        "4",
        "end_turn\nactivate archer flaming_arrows\n:odds shoot archer ladder\nshoot archer ladder\n",
    );
    out.expect_code(0).stdout_has(&[
        "  ladder defends with 0 dice: no dice, so 0\narcher hits 5 to 0, but ladder takes no harm from it\n",
    ]);
    assert_eq!(
        chance_at_prompt(
            &after(&out, ":odds shoot archer ladder"),
            "archer attacked, archer blocked, archer shot 1"
        ),
        "1/1"
    );
    out.stdout_lacks("ladder hits");
}

// Guards "battering rams have 2 defending die, and siege towers have 1", against the flaming
// arrows that can burn them: an archer's 1 die hits a ram when it is at least the best of two,
// sum(a^2)/216 = 91/216, and a tower when it is at least the tower's one, 21/36 = 7/12.
#[test]
fn rams_defend_with_two_dice_and_towers_with_one() {
    let out = play(
        "4",
        "end_turn\nactivate archer flaming_arrows\n:odds shoot archer ram\n:odds shoot archer tower\n",
    );
    out.expect_code(0);
    assert_eq!(
        chance_at_prompt(&after(&out, ":odds shoot archer ram"), "ram +1 hits"),
        "91/216"
    );
    assert_eq!(
        chance_at_prompt(&after(&out, ":odds shoot archer tower"), "tower +1 hits"),
        "7/12"
    );
}

// Guards the suggested artillery hits: a ladder (and a ram) falls to one hit.
#[test]
fn artillery_destroys_a_ladder_in_one_hit() {
    // Seed 4: the scorpion's first roll is a 6, a hit.
    let out = play("4", "end_turn\nfire scorpion ladder\n");
    out.expect_code(0).stdout_has(&[
        "  ladder is destroyed by scorpion's shot (1 of 1 hits)\n",
        "  ladder is removed: destroyed by scorpion's shot\n",
    ]);
}

// Guards "walls may only be attacked by artillery (or another siege engine, eg. a battering
// ram)", and that a wall takes several hits (4, the default).
#[test]
fn walls_are_battered_by_rams_and_refuse_men() {
    let out = play_scenario(
        &SIEGE.replace(
            "      - { id: tower, type: siege_tower, at: [20, 10] }\n",
            "      - { id: tower, type: siege_tower, at: [20, 10] }\n      - { id: man, type: heavy_infantry, at: [12.5, 12.5] }\n",
        ),
        "4",
        "melee man wall\nmelee ram wall\n",
    );
    out.expect_code(1)
        .stderr_has(&["walls may only be attacked by artillery or a battering ram"]);
    out.stdout_has(&[
        "ram batters wall, 5 to 0\n",
        "  wall is hit by ram (1 of 4 hits)\n",
    ]);
    out.stdout_lacks("wall is removed");
}

// Guards "To destroy a siege engine you need to hit it with artillery": a man's blow at an
// engine is refused and the engine stands (a light infantryman destroyed a ladder every
// time, a tower 58% and a ram 42% of the time). Each man's base touches his engine's.
#[test]
fn no_melee_blow_destroys_a_siege_engine() {
    let scenario = SIEGE.replace(
        "      - { id: scorpion, type: artillery, at: [30, 30], facing: 180 }\n",
        "      - { id: scorpion, type: artillery, at: [30, 30], facing: 180 }\n      \
         - { id: axeman, type: light_infantry, at: [30, 13.1], facing: 180 }\n      \
         - { id: axeman_2, type: light_infantry, at: [10, 6.9], facing: 0 }\n",
    );
    for engine in ["ladder", "ram"] {
        let man = if engine == "ladder" {
            "axeman"
        } else {
            "axeman_2"
        };
        let out = play_scenario(&scenario, "1", &format!("end_turn\nmelee {man} {engine}\n"));
        out.expect_code(1).stderr_has(&[&format!(
            "{engine} is a siege engine: only artillery destroys it"
        )]);
        out.stdout_lacks(&format!("{engine} is removed"));
    }
}

// Guards that a Flaming Arrows hit's second kill is a man: an engine (or a wall) beside the
// man hit was taken for the second "man" and removed.
#[test]
fn a_flaming_arrow_kills_no_engine_as_its_second_man() {
    let scenario = SIEGE.replace(
        "      - { id: ladder, type: ladder, at: [30, 10] }\n",
        "      - { id: ladder, type: ladder, at: [30, 10] }\n      \
         - { id: man, type: light_infantry, at: [13, 11] }\n",
    );
    // Seed 1: the archer rolls 3 against the man's 1; the ram stands within 2 inches of him.
    let out = play_scenario(
        &scenario,
        "1",
        "end_turn\nactivate archer flaming_arrows\nshoot archer man\n",
    );
    out.expect_code(0)
        .stdout_has(&["archer hits 3 to 1: man is killed\n"]);
    out.stdout_lacks("ram is removed");
}

// Guards "Walls may only be attacked by artillery (or another siege engine, eg. a battering
// ram)" for a chariot's two-man strike, which skipped the check `melee` makes. The chariot's
// front touches the wall, and its flank is beside the ram.
#[test]
fn a_chariot_strikes_no_wall() {
    let scenario = SIEGE
        .replace(
            "      - { id: ladder, type: ladder, at: [30, 10] }\n",
            "      - { id: ladder, type: ladder, at: [30, 10] }\n      \
         - { id: chariot, type: chariot, at: [12.3, 11.5] }\n",
        )
        .replace(
            "      - { id: wall, type: wall, at: [10, 14], facing: 180 }\n",
            "      - { id: wall, type: wall, at: [10, 14], facing: 180 }\n      \
         - { id: guard, type: light_infantry, at: [14, 14], facing: 180 }\n",
        );
    let out = play_scenario(&scenario, "1", "strike chariot wall guard\n");
    out.expect_code(1)
        .stderr_has(&["walls may only be attacked by artillery or a battering ram"]);
    out.stdout_lacks("wall is removed");
}

// Guards P-74, "a win that does not kill stops the attacker", for a ram at a wall: a hit
// that leaves the wall standing blocks the ram until its next turn (one ram flattened a
// 4-hit wall in its first turn).
#[test]
fn a_rams_hit_that_leaves_the_wall_standing_stops_the_ram() {
    let out = play("4", "melee ram wall\nmelee ram wall\n");
    out.expect_code(1)
        .stderr_has(&["ram was blocked and cannot attack again until your next turn"]);
    out.stdout_has(&[
        "  wall is hit by ram (1 of 4 hits)\n",
        "ram is blocked until your next turn\n",
    ]);
    out.stdout_lacks("2 of 4 hits");
}
