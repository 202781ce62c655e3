//! The rules for archery, thrown weapons, artillery and routing of *Rules for Playmobil Melee
//! Combat* (freeware hobby rules), as implemented in `scripts/rulesets/playmobil/missiles.rhai`
//! and `routing.rhai`, and whole battles auto-played with the ruleset's policy.
//!
//! Each test writes its own small scenario. Figures with no dice (`stats: { attack: 0 }`,
//! `defend: 0`, `missile_attack: 0`) make an outcome certain: no dice have a highest die of 0,
//! and ties go to the attacker. Where the dice must decide (artillery's to-hit roll, the rout
//! contest), the seed was chosen once by hand and the comment says what it rolls; the deciding
//! narration is asserted exactly, so a change in the generator fails loudly.

use crate::common;

use common::game::{Game, roman_unit as roman, transcript, viking_unit as viking};
use common::{Output, play_scenario, project_file, sandtable};

/// How many times `needle` occurs in standard output.
fn count(out: &Output, needle: &str) -> usize {
    out.stdout.matches(needle).count()
}

// ---------------------------------------------------------------------------------------------
// Archery: "archers can fire 2 times per turn ... 1 foot with a short-bow or crossbow, but can
// fire 1 1/2 feet with a longbow".
// ---------------------------------------------------------------------------------------------

// Guards "archers can fire 2 times per turn": a third shot is refused, and the count starts
// again next turn.
#[test]
fn archer_shoots_twice_a_turn() {
    // Targets with no dice are always hit, so every arrow kills and none blocks the archer.
    let unarmed = ", stats: { defend: 0 }";
    let game = Game::new(
        &[
            &roman("legionary_1", "light_infantry", 8.0, 10.0, unarmed),
            &roman("legionary_2", "light_infantry", 10.0, 10.0, unarmed),
            &roman("legionary_3", "light_infantry", 12.0, 10.0, unarmed),
            &roman("legionary_4", "light_infantry", 14.0, 10.0, unarmed),
        ],
        &[&viking("archer", "infantry_archer", 10.0, 18.0, "")],
    );
    let out = game.play_refused(
        1,
        "shoot archer legionary_1\nshoot archer legionary_2\nshoot archer legionary_3\nend_turn\nend_turn\nshoot archer legionary_4\n",
        &["archer has shot 2 times this turn: 2 is the most"],
    );
    assert_eq!(
        out.stderr.matches("2 is the most").count(),
        1,
        "{}",
        out.stderr
    );
    assert_eq!(
        count(&out, "archer (Infantry archer) shoots at legionary"),
        3
    );
    out.stdout_has(&[
        "  archer is tagged `shot 1`\n",
        "  archer is tagged `shot 2`\n",
        "legionary_4 is killed",
    ]);
    out.stdout_lacks("legionary_3 is killed");
}

// Guards "archers can fire 1 foot": 12 inches (edge to edge) is in range, 12.8 is refused.
#[test]
fn archery_range_is_one_foot() {
    let game = Game::new(
        &[
            &roman("near", "light_infantry", 10.0, 10.0, ""),
            &roman("far", "light_infantry", 30.0, 10.0, ""),
        ],
        &[
            // Bases are 1.2" across: 13.2" between centres is 12" edge to edge.
            &viking(
                "archer",
                "infantry_archer",
                10.0,
                23.2,
                ", stats: { missile_attack: 0 }",
            ),
            &viking("other", "infantry_archer", 30.0, 24.0, ""),
        ],
    );
    let out = game.play_refused(
        1,
        "shoot other far\nshoot archer near\n",
        &["far is 12.8\" from other: the bow reaches 12\""],
    );
    out.stdout_lacks("other (Infantry archer) shoots");
    out.stdout_has(&["archer (Infantry archer) shoots at near (Light infantry)\n"]);
}

// Guards "1 1/2 feet with a longbow": 16.8 inches is in range, 18.1 is refused.
#[test]
fn longbow_range_is_eighteen_inches() {
    let game = Game::new(
        &[
            &roman("near", "light_infantry", 10.0, 10.0, ""),
            &roman("far", "light_infantry", 30.0, 10.0, ""),
        ],
        &[
            &viking(
                "longbow",
                "longbowman",
                10.0,
                28.0,
                ", stats: { missile_attack: 0 }",
            ),
            &viking("other", "longbowman", 30.0, 29.3, ""),
        ],
    );
    let out = game.play_refused(
        1,
        "shoot other far\nshoot longbow near\n",
        &["far is 18.1\" from other: the bow reaches 18\""],
    );
    out.stdout_lacks("other (Longbow archer) shoots");
    out.stdout_has(&["longbow (Longbow archer) shoots at near (Light infantry)\n"]);
}

// Guards "the same rules apply when being shot at by archers": a target with its back to the
// archer defends with 1 die, one facing him with all his dice.
#[test]
fn archery_target_with_its_back_turned_defends_with_one_die() {
    let game = Game::new(
        &[
            &roman("back", "heavy_infantry", 10.0, 10.0, ", facing: 180"),
            &roman("front", "heavy_infantry", 20.0, 10.0, ""),
        ],
        &[
            &viking("archer", "infantry_archer", 10.0, 18.0, ""),
            &viking("other", "infantry_archer", 20.0, 18.0, ""),
        ],
    );
    let out = game.play_ok(1, "shoot archer back\nshoot other front\n");
    out.stdout_has(&[
        "archer (Infantry archer) shoots at back (Heavy infantry) in the back\n",
        "  back defends with 1 die: 1d6kh1 ",
        "other (Infantry archer) shoots at front (Heavy infantry)\n",
        "  front defends with 2 dice: 2d6kh1 ",
    ]);
}

// Guards that an arrow that hits kills the target.
#[test]
fn archery_hit_kills() {
    // A target with no dice is always hit; seed 1's first die is a 3.
    let game = Game::new(
        &[&roman(
            "legionary",
            "heavy_infantry",
            10.0,
            10.0,
            ", stats: { defend: 0 }",
        )],
        &[&viking("archer", "infantry_archer", 10.0, 18.0, "")],
    );
    let out = game.play_ok(
        1,
        "shoot archer legionary\nprint(unit(\"legionary\").in_play)\n",
    );
    assert_eq!(
        transcript(&out),
        "\
> shoot archer legionary
archer (Infantry archer) shoots at legionary (Heavy infantry)
  archer is tagged `shot 1`
  archer is tagged `attacked`
  archer shoots with 1 die: 1d6kh1 [3] = 3
  legionary defends with 0 dice: no dice, so 0
archer hits 3 to 0: legionary is killed
  legionary is removed: killed by archer
> print(unit(\"legionary\").in_play)
false
"
    );
}

// Guards that an archer must see his target: a wood in between blocks the shot.
#[test]
fn archery_line_of_sight_is_blocked_by_a_wood() {
    let game = Game::with(
        Some("vikings"),
        &[&roman("hidden", "light_infantry", 30.0, 16.0, "")],
        &[&viking("archer", "infantry_archer", 30.0, 24.0, "")],
        "terrain:\n  - { kind: woods, name: the old oak, circle: { centre: [30, 20], radius: 1 } }\n",
    );
    let out = game.play_refused(
        1,
        "shoot archer hidden\n",
        &["archer cannot see hidden: the old oak is in the way"],
    );
    out.stdout_lacks("shoots at");
}

// ---------------------------------------------------------------------------------------------
// A shot is an attack: "As soon as your man misses or is blocked by an opponent ... the
// attacker cannot attack again until next turn. That goes for all units no matter what type
// they are"; "If your men attack they cannot move until your next turn"; "You must wait until
// your next turn to turn your soldier around". Each of these tests failed before shooting,
// throwing and firing were attacks: the archer shot again, moved, turned or charged.
// ---------------------------------------------------------------------------------------------

/// Rome's `legionary` 8" in front of the Vikings' archer at (10, 18) (the archer's `extra`
/// fields given), and `guard` right beside the archer (0.6" edge to edge), for a melee.
fn archer_and_marks(extra: &str, legionary: &str) -> Game {
    Game::new(
        &[
            &roman("legionary", "light_infantry", 10.0, 10.0, legionary),
            &roman("guard", "light_infantry", 11.8, 18.0, ""),
        ],
        &[&viking("archer", "infantry_archer", 10.0, 18.0, extra)],
    )
}

// Guards that an arrow that misses ends the archer's attacks for the turn: no second arrow
// and no melee; he shoots again next turn.
#[test]
fn a_missed_arrow_blocks_the_archer() {
    // An archer with no dice always misses a man with a die.
    let game = archer_and_marks(", stats: { missile_attack: 0 }", "");
    let out = game.play_refused(
        1,
        "shoot archer legionary\nshoot archer legionary\nmelee archer guard\nend_turn\nend_turn\nshoot archer legionary\n",
        &["archer was blocked and cannot attack again until your next turn"],
    );
    assert_eq!(
        out.stderr.matches("archer was blocked").count(),
        2,
        "{}",
        out.stderr
    );
    out.stdout_has(&[
        "legionary wins 3 to 0: a miss, and archer is blocked until your next turn\n  archer is tagged `blocked`\n",
        "  archer loses the tag `blocked`\n",
    ]);
    out.stdout_lacks("archer is tagged `shot 2`");
    out.stdout_lacks("attacks guard");
    assert_eq!(
        count(&out, "archer (Infantry archer) shoots at legionary"),
        2
    );
}

// Guards that a man blocked in melee cannot shoot either: "the attacker cannot attack again
// until next turn".
#[test]
fn an_archer_blocked_in_melee_cannot_shoot() {
    // An archer with no melee dice always loses to a man with a die.
    let game = archer_and_marks(", stats: { attack: 0 }", "");
    let out = game.play_refused(
        1,
        "melee archer guard\nshoot archer legionary\n",
        &["archer was blocked and cannot attack again until your next turn"],
    );
    out.stdout_has(&["  archer is tagged `blocked`\n"]);
    out.stdout_lacks(" shoots at ");
}

// Guards that an archer who shot cannot move or turn until his next turn, and that he may
// move and then shoot ("You can move and then attack").
#[test]
fn an_archer_cannot_move_or_turn_after_shooting() {
    // A target with no dice is always hit: the archer is not blocked, only done moving.
    let game = archer_and_marks("", ", stats: { defend: 0 }");
    let out = game.play_refused(
        1,
        "move archer 10 21\nshoot archer legionary\nmove archer 10 23\nface archer north\n",
        &[
            "archer has attacked this turn and cannot move until your next turn",
            "archer has attacked this turn and must wait until your next turn to turn around",
        ],
    );
    out.stdout_has(&["  archer is tagged `moved`\n", "legionary is killed\n"]);
    let out = game.play_refused(
        1,
        "shoot archer legionary\nmove archer 10 21\n",
        &["archer has attacked this turn and cannot move until your next turn"],
    );
    out.stdout_lacks(" moves ");
}

// Guards that a throw is an attack too: the thrower cannot move after it.
#[test]
fn a_thrower_cannot_move_after_throwing() {
    let game = Game::new(
        &[&roman("target", "light_infantry", 10.0, 10.0, "")],
        &[&viking(
            "thrower",
            "light_infantry",
            10.0,
            15.0,
            ", stats: { javelins: 1 }",
        )],
    );
    let out = game.play_refused(
        1,
        "hurl thrower target\nmove thrower 14 18\nface thrower north\n",
        &[
            "thrower has attacked this turn and cannot move until your next turn",
            "thrower has attacked this turn and must wait until your next turn to turn around",
        ],
    );
    out.stdout_has(&["  thrower is tagged `attacked`\n"]);
    out.stdout_lacks(" moves ");
}

/// A Viking mounted archer at (10, 24) facing Rome, `legionary` (no dice: a charge or an
/// arrow kills him) 11.65" in front of him, in bowshot, and `other` beside `legionary`.
fn mounted_archer_game() -> Game {
    Game::new(
        &[
            &roman(
                "legionary",
                "light_infantry",
                10.0,
                10.0,
                ", stats: { defend: 0 }",
            ),
            &roman(
                "other",
                "light_infantry",
                14.0,
                10.0,
                ", stats: { defend: 0 }",
            ),
        ],
        &[&viking("rider", "mounted_archer", 10.0, 24.0, "")],
    )
}

// Guards "This special ability cannot be used if the mounted archer fires arrows at the end of
// his 2 foot move, the attack must be a melee attack": after a charge, no arrows.
#[test]
fn a_mounted_archer_who_charged_cannot_shoot() {
    let out = mounted_archer_game().play_refused(
        1,
        "charge rider legionary\nshoot rider other\n",
        &["rider has charged this turn: a charge's attack must be a melee attack, not arrows"],
    );
    out.stdout_has(&["legionary is killed\n"]);
    out.stdout_lacks(" shoots at ");
}

// Guards the same clause the other way round: a mounted archer who shot has attacked, and a
// charge ("only ... if the cavalry attacks enemy units at the end of its 2 foot move") comes
// before any attack, not after one.
#[test]
fn a_mounted_archer_who_shot_cannot_charge() {
    let out = mounted_archer_game().play_refused(
        1,
        "shoot rider legionary\ncharge rider other\n",
        &["rider has already moved or attacked this turn (or is dismounting) and cannot charge"],
    );
    out.stdout_has(&["legionary is killed\n"]);
    out.stdout_lacks(" charges");
    out.stdout_lacks("attacks other");
}

// ---------------------------------------------------------------------------------------------
// Thrown weapons: "thrown weapons can be thrown 1/2 foot"; once thrown, gone; once a turn; not
// with melee in the same turn.
// ---------------------------------------------------------------------------------------------

/// A Viking with `javelins` and no attacking dice (his throws always miss a defender with a
/// die), standing `y` inches up the table from x = 10.
fn thrower(id: &str, y: f64, javelins: u32) -> String {
    viking(
        id,
        "light_infantry",
        10.0,
        y,
        &format!(", stats: {{ javelins: {javelins}, attack: 0 }}"),
    )
}

// Guards "thrown weapons can be thrown 1/2 foot": 6 inches edge to edge is in reach, 6.1 is not.
#[test]
fn thrown_weapon_reaches_six_inches() {
    let game = Game::new(
        &[
            &roman("target", "light_infantry", 10.0, 10.0, ""),
            &roman("distant", "light_infantry", 20.0, 10.0, ""),
        ],
        &[
            // Bases are 1.2" across: 7.2" between centres is 6" edge to edge.
            &thrower("close", 17.2, 1),
            &viking(
                "far",
                "light_infantry",
                20.0,
                17.3,
                ", stats: { javelins: 1 }",
            ),
        ],
    );
    let out = game.play_refused(
        1,
        "hurl far distant\nhurl close target\n",
        &["distant is 6.1\" from far: a throw reaches 6\""],
    );
    out.stdout_lacks("far (Light infantry) throws");
    out.stdout_has(&["close (Light infantry) throws at target (Light infantry)\n"]);
}

// Guards "once a bolt ... is thrown ... it cannot be used again" for javelins: each throw
// spends one, and a man with none left cannot throw.
#[test]
fn thrown_weapon_is_gone_once_thrown() {
    let game = Game::new(
        &[&roman("target", "light_infantry", 10.0, 10.0, "")],
        &[
            &thrower("thrower", 14.0, 1),
            &viking("unarmed", "light_infantry", 12.0, 14.0, ""),
        ],
    );
    let out = game.play_refused(
        1,
        "hurl thrower target\nprint(unit(\"thrower\").stat(\"javelins\"))\nend_turn\nend_turn\nhurl thrower target\nhurl unarmed target\n",
        &[
            "thrower has nothing left to throw",
            "unarmed has nothing left to throw",
        ],
    );
    out.stdout_has(&[
        "  thrower javelins: 1 -> 0\n",
        "> print(unit(\"thrower\").stat(\"javelins\"))\n0\n",
    ]);
    assert_eq!(count(&out, " throws at "), 1, "{}", out.stdout);
}

// Guards that a man throws once a turn, even with javelins left; next turn he may again.
#[test]
fn thrown_weapon_once_a_turn() {
    let game = Game::new(
        &[&roman("target", "light_infantry", 10.0, 10.0, "")],
        &[&thrower("thrower", 14.0, 2)],
    );
    let out = game.play_refused(
        1,
        "hurl thrower target\nhurl thrower target\nend_turn\nend_turn\nhurl thrower target\n",
        &["thrower has already thrown this turn"],
    );
    out.stdout_has(&[
        "  thrower javelins: 2 -> 1\n",
        "  thrower javelins: 1 -> 0\n",
    ]);
    assert_eq!(count(&out, " throws at "), 2, "{}", out.stdout);
}

// Guards that a man who fought in melee cannot also throw that turn.
#[test]
fn thrown_weapon_not_after_melee() {
    let game = Game::new(
        &[&roman("target", "light_infantry", 10.0, 10.0, "")],
        &[&thrower("thrower", 12.0, 1)],
    );
    let out = game.play_refused(
        1,
        "melee thrower target\nhurl thrower target\n",
        &["thrower has fought in melee this turn and cannot also throw"],
    );
    out.stdout_lacks(" throws at ");
    out.stdout_lacks("javelins: 1 -> 0");
}

// Guards that a man who threw a weapon cannot also fight in melee that turn.
#[test]
fn no_melee_after_throwing() {
    let game = Game::new(
        &[&roman("target", "light_infantry", 10.0, 10.0, "")],
        &[&thrower("thrower", 12.0, 1)],
    );
    let out = game.play_refused(
        1,
        "hurl thrower target\nmelee thrower target\n",
        &["thrower has thrown a weapon this turn and cannot also fight in melee"],
    );
    out.stdout_has(&["thrower (Light infantry) throws at target (Light infantry)\n"]);
    out.stdout_lacks(" attacks target");
}

// ---------------------------------------------------------------------------------------------
// Artillery: "artillery can shoot 1 time per turn"; limited shots; "a certain amount of hits
// ... before it can destroy that soldier/device"; a hit needs 1d6 of 4 or more (ruleset.yaml).
// ---------------------------------------------------------------------------------------------

/// Seed 1: the first die of the game is a 3, so the first shot misses.
const FIRST_SHOT_MISSES: u64 = 1;
/// Seed 2: the first three dice of the game are 6, 4 and 5, so three shots in a row hit.
const THREE_SHOTS_HIT: u64 = 2;
/// Seed 3: the first die is a 4, exactly what a hit needs.
const FIRST_SHOT_HITS_ON_4: u64 = 3;

/// Fires `gun` at `target` on each of `shots` turns of the Vikings.
fn volleys(gun: &str, target: &str, shots: usize) -> String {
    vec![format!("fire {gun} {target}\n"); shots].join("end_turn\nend_turn\n")
}

/// A Viking artillery piece at (10, 30) facing Rome, with extra YAML fields.
fn engine(id: &str, extra: &str) -> String {
    viking(id, "artillery", 10.0, 30.0, extra)
}

// Guards "artillery can shoot 1 time per turn", and again the next turn.
#[test]
fn artillery_fires_once_a_turn() {
    let game = Game::new(
        &[&roman("legionary", "light_infantry", 10.0, 10.0, "")],
        &[&engine("scorpion", "")],
    );
    let out = game.play_refused(
        FIRST_SHOT_MISSES,
        "fire scorpion legionary\nfire scorpion legionary\nend_turn\nend_turn\nfire scorpion legionary\n",
        &["scorpion has fired this turn: artillery shoots once a turn"],
    );
    assert_eq!(
        count(&out, "scorpion (Artillery) fires at legionary"),
        2,
        "{}",
        out.stdout
    );
    out.stdout_has(&["  scorpion ammo: 6 -> 5\n", "  scorpion ammo: 5 -> 4\n"]);
}

// Guards that an engine's shot is its crew's attack ("That goes for all units no matter what
// type they are"): the engine cannot move or turn after firing, and a shot that misses
// blocks the crew, who cannot then fight in melee; after a shot that kills, they may.
#[test]
fn artillery_that_fired_cannot_move_and_a_miss_blocks_its_crew() {
    let game = Game::new(
        &[
            &roman("legionary", "light_infantry", 10.0, 10.0, ""),
            // 0.9" from the engine's side (its 2" width spans x 9 to 11).
            &roman("raider", "light_infantry", 12.5, 30.0, ""),
        ],
        &[&engine("scorpion", "")],
    );
    let out = game.play_refused(
        FIRST_SHOT_MISSES,
        "fire scorpion legionary\nmove scorpion 10 32\nface scorpion north\nmelee scorpion raider\n",
        &[
            "scorpion has attacked this turn and cannot move until your next turn",
            "scorpion has attacked this turn and must wait until your next turn to turn around",
            "scorpion was blocked and cannot attack again until your next turn",
        ],
    );
    out.stdout_has(&[
        "  the shot misses: scorpion is blocked until your next turn\n  scorpion is tagged `blocked`\n",
    ]);
    out.stdout_lacks(" moves ");
    out.stdout_lacks("attacks raider");
    let out = game.play_refused(
        FIRST_SHOT_HITS_ON_4,
        "fire scorpion legionary\nmove scorpion 10 32\nmelee scorpion raider\n",
        &["scorpion has attacked this turn and cannot move until your next turn"],
    );
    out.stdout_has(&[
        "  legionary is destroyed\n",
        "scorpion (Artillery) attacks raider",
    ]);
}

// Guards "artillery does not have unlimited shots": each shot spends one, then none are left.
#[test]
fn artillery_ammunition_runs_out() {
    let game = Game::new(
        &[&roman("legionary", "light_infantry", 10.0, 10.0, "")],
        &[&engine("scorpion", ", stats: { ammo: 1 }")],
    );
    let out = game.play_refused(
        FIRST_SHOT_MISSES,
        &volleys("scorpion", "legionary", 2),
        &["scorpion has no shots left"],
    );
    out.stdout_has(&["  scorpion ammo: 1 -> 0\n", "  the shot misses"]);
    assert_eq!(count(&out, " fires at "), 1, "{}", out.stdout);
}

// Guards the to-hit roll (ruleset.yaml `to_hit: 4`): a 3 misses, a 4 hits.
#[test]
fn artillery_hits_on_four_or_more() {
    let game = Game::new(
        &[&roman("legionary", "light_infantry", 10.0, 10.0, "")],
        &[&engine("scorpion", "")],
    );
    let miss = game.play_ok(FIRST_SHOT_MISSES, "fire scorpion legionary\n");
    miss.stdout_has(&["  scorpion hits on 4 or more: 1d6 [3] = 3\n  the shot misses"]);
    miss.stdout_lacks("is destroyed");
    let hit = game.play_ok(FIRST_SHOT_HITS_ON_4, "fire scorpion legionary\n");
    hit.stdout_has(&[
        "  scorpion hits on 4 or more: 1d6 [4] = 4\n",
        "  legionary is destroyed\n  legionary is removed: destroyed by scorpion\n",
    ]);
}

// Guards "Elephant: 2 hits. (3 hits with lighter artillery)": a scorpion needs three hits.
#[test]
fn light_artillery_destroys_an_elephant_in_three_hits() {
    let game = Game::new(
        &[&roman("elephant", "war_elephant", 10.0, 10.0, "")],
        &[&engine("scorpion", "")],
    );
    let out = game.play_ok(THREE_SHOTS_HIT, &volleys("scorpion", "elephant", 3));
    out.stdout_has(&[
        "  elephant is hit (1 of 3 hits)\n",
        "  elephant is hit (2 of 3 hits)\n",
        "  elephant hits: 2 -> 3\n  elephant is destroyed\n  elephant is removed: destroyed by scorpion\n",
    ]);
}

// Guards "Chariot: 1 hit. (2 hits with lighter artillery)": a scorpion needs two hits.
#[test]
fn light_artillery_destroys_a_chariot_in_two_hits() {
    let game = Game::new(
        &[&roman("chariot", "chariot", 10.0, 10.0, "")],
        &[&engine("scorpion", "")],
    );
    let out = game.play_ok(THREE_SHOTS_HIT, &volleys("scorpion", "chariot", 2));
    out.stdout_has(&[
        "  chariot is hit (1 of 2 hits)\n",
        "  chariot hits: 1 -> 2\n  chariot is destroyed\n  chariot is removed: destroyed by scorpion\n",
    ]);
}

// Guards "Chariot: 1 hit" for a heavier engine (a catapult, `weight: heavy`).
#[test]
fn heavy_artillery_destroys_a_chariot_in_one_hit() {
    let game = Game::new(
        &[&roman("chariot", "chariot", 10.0, 10.0, "")],
        &[&engine("catapult", ", stats: { weight: heavy }")],
    );
    let out = game.play_ok(THREE_SHOTS_HIT, &volleys("catapult", "chariot", 1));
    out.stdout_has(&["  chariot hits: 0 -> 1\n  chariot is destroyed\n"]);
}

// Guards "Elephant: 2 hits" for a heavier engine (a catapult, `weight: heavy`).
#[test]
fn heavy_artillery_destroys_an_elephant_in_two_hits() {
    let game = Game::new(
        &[&roman("elephant", "war_elephant", 10.0, 10.0, "")],
        &[&engine("catapult", ", stats: { weight: heavy }")],
    );
    let out = game.play_ok(THREE_SHOTS_HIT, &volleys("catapult", "elephant", 2));
    out.stdout_has(&[
        "  elephant is hit (1 of 2 hits)\n",
        "  elephant hits: 1 -> 2\n  elephant is destroyed\n",
    ]);
}

// Guards "a cannon could kill an elephant in 1 hit".
#[test]
fn cannon_destroys_an_elephant_in_one_hit() {
    let game = Game::new(
        &[&roman("elephant", "war_elephant", 10.0, 10.0, "")],
        &[&engine("cannon", ", stats: { weight: cannon }")],
    );
    let out = game.play_ok(THREE_SHOTS_HIT, "fire cannon elephant\n");
    out.stdout_has(&["  elephant hits: 0 -> 1\n  elephant is destroyed\n"]);
    out.stdout_lacks("is hit (");
}

// Guards "if a shot from a lighter artillery unit ... were to hit a heavy infantry man's
// shield then the shield would become unusable ... But he would survive as a light infantry
// man".
#[test]
fn light_artillery_breaks_a_heavy_infantrymans_shield() {
    let game = Game::new(
        &[&roman("legionary", "heavy_infantry", 10.0, 10.0, "")],
        &[&engine("scorpion", "")],
    );
    let out = game.play_ok(
        THREE_SHOTS_HIT,
        "fire scorpion legionary\nprint(unit(\"legionary\").in_play)\nprint(unit(\"legionary\").stat(\"shield\"))\nprint(unit(\"legionary\").stat(\"defend\"))\nprint(unit(\"legionary\").stat(\"move\"))\n",
    );
    // "He would survive as a light infantry man": light infantry's die, and its foot of move
    // (he kept heavy infantry's half foot).
    out.stdout_has(&[
        "  legionary's shield is broken: he fights on as light infantry\n",
        "> print(unit(\"legionary\").in_play)\ntrue\n",
        "> print(unit(\"legionary\").stat(\"shield\"))\nfalse\n",
        "> print(unit(\"legionary\").stat(\"defend\"))\n1\n",
        "> print(unit(\"legionary\").stat(\"move\"))\n12\n",
    ]);
    out.stdout_lacks("is destroyed");
}

// Guards that a general whose shield a light engine breaks stays a general: he "is considered
// heavy infantry even if he has no shield" (he dropped to 1 defending die).
#[test]
fn light_artillery_leaves_a_general_his_dice() {
    let game = Game::new(
        &[&roman("marcus", "general", 10.0, 10.0, "")],
        &[&engine("scorpion", "")],
    );
    let out = game.play_ok(
        THREE_SHOTS_HIT,
        "fire scorpion marcus\nprint(unit(\"marcus\").stat(\"defend\"))\n",
    );
    out.stdout_has(&[
        "  marcus's shield is broken; a general fights on as heavy infantry all the same\n",
        "> print(unit(\"marcus\").stat(\"defend\"))\n3\n",
    ]);
}

// Guards "if a projectile hits a horse the rider does not die, but his horse is removed": he
// fights on as infantry.
#[test]
fn light_artillery_unhorses_a_rider() {
    let game = Game::new(
        &[&roman("rider", "light_cavalry", 10.0, 10.0, "")],
        &[&engine("scorpion", "")],
    );
    let out = game.play_ok(
        THREE_SHOTS_HIT,
        "fire scorpion rider\nprint(unit(\"rider\").in_play)\nprint(unit(\"rider\").stat(\"class\"))\nprint(unit(\"rider\").stat(\"mounted\"))\n",
    );
    out.stdout_has(&[
        "  rider's horse is killed: he fights on foot\n",
        "> print(unit(\"rider\").in_play)\ntrue\n",
        "> print(unit(\"rider\").stat(\"class\"))\ninfantry\n",
        "> print(unit(\"rider\").stat(\"mounted\"))\nfalse\n",
    ]);
    out.stdout_lacks("is destroyed");
}

// Guards "a heavier artillery shot will destroy both horse and rider. (Such as a cannon.)"
#[test]
fn cannon_destroys_horse_and_rider() {
    let game = Game::new(
        &[&roman("rider", "light_cavalry", 10.0, 10.0, "")],
        &[&engine("cannon", ", stats: { weight: cannon }")],
    );
    let out = game.play_ok(THREE_SHOTS_HIT, "fire cannon rider\n");
    out.stdout_has(&["  rider is destroyed\n  rider is removed: destroyed by cannon\n"]);
    out.stdout_lacks("horse is killed");
}

// Guards "a heavier artillery shot will destroy both horse and rider" for a catapult: only
// "a lighter artillery unit (i.e. a Scorpio or Ballista)" leaves the rider alive.
#[test]
fn heavy_artillery_destroys_horse_and_rider() {
    let game = Game::new(
        &[&roman("rider", "light_cavalry", 10.0, 10.0, "")],
        &[&engine("catapult", ", stats: { weight: heavy }")],
    );
    let out = game.play_ok(THREE_SHOTS_HIT, "fire catapult rider\n");
    out.stdout_has(&["  rider is destroyed\n"]);
    out.stdout_lacks("horse is killed");
}

// ---------------------------------------------------------------------------------------------
// Routing: "a player can rout a unit (Group R) of men if group R has less then 1/2 of the
// people they had originally ... the player must first attack them with a unit (Group A)".
// ---------------------------------------------------------------------------------------------

/// A man of Rome's `century` (3 men, facing north at y = 10) with no defending dice.
fn centurion(id: &str, x: f64, extra: &str) -> String {
    roman(
        id,
        "heavy_infantry",
        x,
        10.0,
        &format!(", groups: {{ formation: century }}, stats: {{ defend: 0 }}{extra}"),
    )
}

/// The century r1, r2, r3 at x = 10, 12, 14; r2 faces south.
fn century() -> [String; 3] {
    [
        centurion("r1", 10.0, ""),
        centurion("r2", 12.0, ", facing: 180"),
        centurion("r3", 14.0, ""),
    ]
}

/// A Viking with no attacking dice: he always kills a man with no defending dice.
fn raider(id: &str, x: f64, y: f64, facing: u32) -> String {
    format!(
        "{{ id: {id}, type: heavy_infantry, at: [{x}, {y}], facing: {facing}, stats: {{ attack: 0 }} }}"
    )
}

/// The century, a Viking in front of it at (12, 12) and one behind r3 at (14, 8): r3's back.
fn rout_game() -> Game {
    let c = century();
    Game::new(
        &[&c[0], &c[1], &c[2]],
        &[
            &raider("viking", 12.0, 12.0, 180),
            &raider("flanker", 14.0, 8.0, 0),
        ],
    )
}

// Guards "the player must first attack them with a unit (Group A)": no rout before an attack.
#[test]
fn rout_needs_an_attack_first() {
    let game = rout_game();
    let out = game.play_refused(
        1,
        "rout viking r3\n",
        &["viking's group must attack r3's group before calling for a rout"],
    );
    out.stdout_lacks("calls for a rout");
}

// Guards "if group R has less then 1/2 of the people they had originally": 2 of 3 is too many.
#[test]
fn rout_needs_a_group_below_half_strength() {
    let game = rout_game();
    let out = game.play_refused(
        1,
        "melee viking r1\nrout viking r3\n",
        &[
            "r3's group still has 2 of its 3 men: only a group below half its strength can be routed",
        ],
    );
    out.stdout_has(&["r1 is removed: killed by viking\n"]);
    out.stdout_lacks("calls for a rout");
}

// Guards P-112, "the player must first attack them with a unit (Group A). After group A
// attacks group R, call for a rout", with a shot for the attack: an archer who shoots two men
// of the century down may call for a rout of what is left (a shot never opened one).
#[test]
fn rout_may_be_called_after_shooting_men_of_the_group() {
    let c = century();
    let game = Game::new(
        &[&c[0], &c[1], &c[2]],
        &["{ id: archer, type: infantry_archer, at: [12, 20], facing: 180 }"],
    );
    let out = game.play_ok(1, "shoot archer r1\nshoot archer r2\nrout archer r3\n");
    out.stdout_has(&[
        "r2 is removed: killed by archer\n",
        "archer's group calls for a rout of r3's group\n",
    ]);
}

// Guards P-114, "if group A is routing a unit ... by attacking the unit with chariots", with a
// chariot of group A that never attacked: it stands across the table, and no extra die is
// rolled (the die was given whenever group A held a chariot).
#[test]
fn rout_gives_no_extra_die_for_a_chariot_that_did_not_attack() {
    let c = century();
    let game = Game::new(
        &[&c[0], &c[1], &c[2]],
        &[
            "{ id: viking, type: heavy_infantry, at: [12, 12], facing: 180, groups: { formation: band }, stats: { attack: 0 } }",
            "{ id: car, type: chariot, at: [40, 28], facing: 180, groups: { formation: band } }",
        ],
    );
    let out = game.play_ok(
        1,
        "melee viking r1\nstep viking 12 11.6\nmelee viking r2\nrout viking r3\n",
    );
    out.stdout_has(&["viking's group calls for a rout of r3's group\n"]);
    out.stdout_lacks("one more die");
}

// Guards the contest: "group R will role a die for every one of their men and add up the
// scores. Then group A will do the same, but divide their final score by 2."
#[test]
fn rout_contest_sums_r_dice_against_half_of_a() {
    // A century of 5 reduced to 2 (r4, r5), against a band of 2 Vikings; nobody flanks.
    let romans: Vec<String> = (1..=5)
        .map(|i| {
            roman(
                &format!("r{i}"),
                "heavy_infantry",
                8.0 + 2.0 * f64::from(i),
                10.0,
                ", groups: { formation: century }, stats: { defend: 0 }",
            )
        })
        .collect();
    let romans: Vec<&str> = romans.iter().map(String::as_str).collect();
    let game = Game::new(
        &romans,
        &[
            "{ id: v1, type: heavy_infantry, at: [12, 12], facing: 180, groups: { formation: band }, stats: { attack: 0 } }",
            "{ id: v2, type: heavy_infantry, at: [30, 20], facing: 180, groups: { formation: band } }",
        ],
    );
    // Seed 1: Rome's two dice show 3 and 1 (4); the band's 4 and 2 (6), halved to 3: the
    // halving decides, as 6 against 4 would have routed.
    let out = game.play_ok(
        1,
        "melee v1 r1\nstep v1 12 11.6\nmelee v1 r2\nstep v1 12.4 11.3\nmelee v1 r3\nrout v1 r4\n",
    );
    let t = transcript(&out);
    let rout = &t[t.find("> rout").expect("the rout was played")..];
    assert_eq!(
        rout,
        "\
> rout v1 r4
v1's group calls for a rout of r4's group
  r4's group, 2 men: 2d6 [3, 1] = 4
  v1's group, 2 men, halved: 2d6 [4, 2] = 6
3 against 4: r4's group stands
"
    );
}

// Guards "add one more die score after dividing ... by 2" for a flanking manoeuvre: the
// attacker stands behind the routed man, beyond his front arc.
#[test]
fn rout_flanking_attack_adds_one_die() {
    let game = rout_game();
    // Seed 1: r3 rolls 3; the flanker's 1 halved is 0.5, and the extra die's 4 makes 4.5.
    let out = game.play_ok(1, "melee viking r1\nmelee flanker r2\nrout flanker r3\n");
    let t = transcript(&out);
    let rout = &t[t.find("> rout").expect("the rout was played")..];
    assert_eq!(
        rout,
        "\
> rout flanker r3
flanker's group calls for a rout of r3's group
  r3's group, 1 man: 1d6 [3] = 3
  flanker's group, 1 man, halved: 1d6 [1] = 1
  one more die for a flanking manoeuvre: 1d6 [4] = 4
4.5 against 3: r3's group is routed
  r3 is tagged `routed`
"
    );
}

/// Seed 1 and the lines that rout r3 (see `rout_flanking_attack_adds_one_die`).
const ROUT_R3: &str = "melee viking r1\nmelee flanker r2\nrout flanker r3\n";

// Guards "group R must leave the battlefield ... and cannot attack".
#[test]
fn routed_figure_cannot_attack() {
    let game = rout_game();
    let out = game.play_refused(
        1,
        &format!("{ROUT_R3}end_turn\nmelee r3 flanker\n"),
        &["r3 is routing and cannot attack"],
    );
    out.stdout_lacks("r3 (Heavy infantry) attacks");
}

// Guards "group R must leave the battlefield by returning to their side of the map's edge":
// at the start of Rome's turns r3 runs his full 6" for the south edge (swerving 60 degrees
// round the flanker who stands in his way: a 30-degree swerve would pass him by less than
// the inch a 2-inch gap leaves), then leaves the field.
#[test]
fn routed_figures_flee_to_their_edge_and_leave_the_field() {
    let game = rout_game();
    let out = game.play_ok(
        1,
        &format!(
            "{ROUT_R3}:units romans\nend_turn\n:units romans\nend_turn\nend_turn\nend_turn\nend_turn\nprint(unit(\"r3\").in_play)\n"
        ),
    );
    let t = transcript(&out);
    let after = &t[t.find("> :units romans").expect("the units were listed")..];
    assert_eq!(
        after,
        "\
> :units romans
Rome (romans):
  r3 Heavy infantry at (14, 10) facing 0° [routed]
> end_turn
turn 1: romans to play
  r3 turns from 0° to 180°
  r3 moves 6\" from (14, 10) to (8.8, 7)
> :units romans
Rome (romans):
  r3 Heavy infantry at (8.8, 7) facing 180° [routed]
> end_turn
  viking loses the tag `attacked`
  viking loses the tag `may step`
  flanker loses the tag `attacked`
  flanker loses the tag `may step`
turn 2: vikings to play
> end_turn
turn 2: romans to play
  r3 moves 6\" from (8.8, 7) to (8.8, 1)
> end_turn
turn 3: vikings to play
> end_turn
turn 3: romans to play
r3 (Heavy infantry) flees the field
  r3 is removed: fled the field
> print(unit(\"r3\").in_play)
false
"
    );
}

// Guards "after group A attacks group R, call for a rout ... If group A fails to rout the unit
// then they can still attack the unit or move away": one call per attack, not until it works.
#[test]
fn rout_is_called_once_after_an_attack() {
    let game = rout_game();
    // Seed 1: the first call stands (0.5 against 3), as the transcript asserted here shows.
    let out = game.play(
        1,
        "melee viking r1\nmelee flanker r2\nrout viking r3\nrout viking r3\n",
    );
    out.stdout_has(&["0.5 against 3: r3's group stands\n"]);
    assert_eq!(count(&out, "calls for a rout"), 1, "{}", out.stdout);
    out.expect_code(1);
}

// Guards "to rout group R, the player must first attack them with a unit (Group A)": an attack
// on another group does not open a rout of group R.
#[test]
fn rout_needs_an_attack_on_the_group_routed() {
    let c = century();
    let game = Game::new(
        &[
            &c[0],
            &c[1],
            &c[2],
            "{ id: lone, type: heavy_infantry, at: [30, 10], stats: { defend: 0 } }",
        ],
        &[
            &raider("viking", 12.0, 12.0, 180),
            &raider("flanker", 14.0, 8.0, 0),
            &raider("hunter", 30.0, 12.0, 180),
        ],
    );
    // The century is down to r3 (killed by others); the hunter attacked only `lone`.
    let out = game.play(
        1,
        "melee viking r1\nmelee flanker r2\nmelee hunter lone\nrout hunter r3\n",
    );
    out.stdout_has(&[
        "r1 is removed: killed by viking\n",
        "r2 is removed: killed by flanker\n",
        "lone is removed: killed by hunter\n",
    ]);
    out.stdout_lacks("hunter's group calls for a rout");
    out.expect_code(1)
        .stderr_has(&["hunter's group must attack r3's group before calling for a rout"]);
}

// Guards "group R must leave the battlefield by returning to their side of the map's edge":
// the player moved a routing man anywhere after his run (back towards the enemy too), or
// turned him to meet an attack.
#[test]
fn routed_figure_cannot_be_moved_or_turned() {
    let game = Game::new(
        &[&roman(
            "r",
            "heavy_infantry",
            20.0,
            20.0,
            ", tags: [routed]",
        )],
        &[&viking("v", "heavy_infantry", 20.0, 30.0, "")],
    );
    let out = game.play_refused(
        1,
        "end_turn\nmove r 20 18\nface r north\n",
        &[
            "r is routing: he runs for his own edge at the start of your turn, and cannot be moved",
            "r is routing: he turns for his own edge at the start of your turn",
        ],
    );
    out.stdout_has(&["  r moves 6\" from (20, 20) to (20, 14)\n"]);
    out.stdout_lacks("to (20, 18)");
    out.stdout_lacks("r turns from 180° to 0°");
}

// Guards "... and cannot attack": a routing chariot still rode two men down with its strike.
#[test]
fn routed_chariot_cannot_strike() {
    let game = Game::new(
        &[
            "{ id: a, type: light_infantry, at: [19, 18.5], stats: { defend: 0 } }",
            "{ id: b, type: light_infantry, at: [21.5, 18.5], stats: { defend: 0 } }",
        ],
        &["{ id: chariot, type: chariot, at: [20, 22], facing: 180, tags: [routed] }"],
    );
    let out = game.play_refused(
        1,
        "strike chariot a b\n",
        &["chariot is routing and cannot attack"],
    );
    out.stdout_lacks("strikes at");
}

// Guards "group A (and anyone on the same side as group A) however, can attack them as much
// as they want to": the viking, who took no part in the rout, cuts down the routing r3.
#[test]
fn routing_figures_are_fair_game() {
    let game = rout_game();
    let out = game.play_ok(
        1,
        &format!("{ROUT_R3}step viking 12.3 11.8\nmelee viking r3\n"),
    );
    out.stdout_has(&[
        "4.5 against 3: r3's group is routed\n",
        "viking wins 0 to 0 (ties go to the attacker): r3 is killed\n",
    ]);
}

// Guards "can attack them as much as they want to": a miss against a routing man does not
// block the attacker. `weak` (no attacking dice) attacks the routing r3, given six defending
// dice so that he always wins, then attacks him again and again. One miss blocked him.
#[test]
fn a_miss_against_a_routing_man_does_not_block_the_attacker() {
    let c = century();
    let game = Game::new(
        &[&c[0], &c[1], &c[2]],
        &[
            &raider("viking", 12.0, 12.0, 180),
            &raider("flanker", 14.0, 8.0, 0),
            &raider("weak", 18.0, 13.0, 180),
        ],
    );
    let out = game.play_ok(
        1,
        &format!(
            "{ROUT_R3}unit(\"r3\").set_stat(\"defend\", 6)\nmove weak 15.5 11.4\nmelee weak r3\nmelee weak r3\nmelee weak r3\n"
        ),
    );
    out.stdout_has(&["4.5 against 3: r3's group is routed\n"]);
    assert_eq!(
        out.stdout
            .matches("weak (Heavy infantry) attacks r3")
            .count(),
        3,
        "{}",
        out.stdout
    );
    out.stdout_lacks("weak is blocked");
}

// Guards "routing units is quicker as it does not count as an attack. So even after group A
// has routed group R, group A can still move if they have not yet used their full turn's
// distance": the flanker moved 2", attacked and routed; he moves on, at most the 4" left of
// his 6", once.
#[test]
fn rout_leaves_group_a_the_rest_of_its_move() {
    let c = century();
    let game = Game::new(
        &[&c[0], &c[1], &c[2]],
        &[
            &raider("viking", 12.0, 12.0, 180),
            &raider("flanker", 14.0, 6.0, 0),
        ],
    );
    // Seed 1 routs r3 as in `rout_flanking_attack_adds_one_die`: moves roll no dice.
    let out = game.play_refused(
        1,
        &format!("move flanker 14 8\n{ROUT_R3}move flanker 18.5 8\nmove flanker 18 8\nmove flanker 18 6\n"),
        &[
            "flanker has moved 2\" of his 6\" this turn: 4\" left; (18.5, 8) is 4.5\" away",
            "flanker has attacked this turn and cannot move until your next turn",
        ],
    );
    out.stdout_has(&[
        "4.5 against 3: r3's group is routed\n",
        "  flanker moves 4\" from (14, 8) to (18, 8)\n",
    ]);
    out.stdout_lacks("to (18, 6)");
}

// Guards the rest of a charger's move after a rout: his turn's distance is his ordinary 18",
// less the 9.15" his charge rode, as the Charge's 2 feet "cannot be used to retreat/move in
// any other direction" (the Charge's allowance gave him 24").
#[test]
fn charger_moves_on_after_a_rout_with_what_his_ordinary_move_has_left() {
    let romans: Vec<String> = [20.0, 22.0, 24.0]
        .iter()
        .enumerate()
        .map(|(i, x)| {
            roman(
                &format!("r{}", i + 1),
                "heavy_infantry",
                *x,
                10.0,
                ", groups: { formation: century }, stats: { defend: 0 }",
            )
        })
        .collect();
    let game = Game::new(
        &[&romans[0], &romans[1], &romans[2]],
        &["{ id: rider, type: heavy_cavalry, at: [20, 22], facing: 180, stats: { attack: 0 } }"],
    );
    // Seed 3: the charge's die kills r1 and r2; r3's 2 against the rider's 1 halved and the
    // charge's extra 4: routed.
    let out = game.play_refused(
        3,
        "charge rider r1\nstep rider 20.2 12.85\nmelee rider r2\nrout rider r3\nmove rider 20.2 21.85\nmove rider 20.2 20.85\n",
        &["rider has moved 9.15\" of his 18\" this turn: 8.85\" left; (20.2, 21.85) is 9\" away"],
    );
    out.stdout_has(&[
        "  rider moves 9.15\" from (20, 22) to (20, 12.85)\n",
        "4.5 against 2: r3's group is routed\n",
        "  rider moves 8\" from (20.2, 12.85) to (20.2, 20.85)\n",
    ]);
}

// Guards "if group A fails to rout the unit then they can still attack the unit or move away
// from the unit": after the call fails, the viking (who attacked) still attacks r3 and then
// moves away; the brute, blocked by the guard, may not attack again but may move away.
#[test]
fn after_a_failed_rout_group_a_may_attack_or_move_away() {
    let c = century();
    let game = Game::new(
        &[
            &c[0],
            &c[1],
            &c[2],
            "{ id: guard, type: heavy_infantry, at: [30, 10] }",
        ],
        &[
            "{ id: viking, type: heavy_infantry, at: [12, 12], facing: 180, groups: { formation: band }, stats: { attack: 0 } }",
            "{ id: brute, type: heavy_infantry, at: [30, 12], facing: 180, groups: { formation: band }, stats: { attack: 0 } }",
        ],
    );
    // Seed 1: the guard's 3 blocks the brute; then r3's 4 against the band's 2 and 2, halved
    // to 2: r3's group stands.
    let out = game.play_refused(
        1,
        "melee viking r1\nstep viking 12 11.6\nmelee viking r2\nmelee brute guard\nrout viking r3\n\
         melee brute r3\nmove brute 30 18\nstep viking 12.4 11.3\nmelee viking r3\nmove viking 12.4 17.3\n",
        &["brute was blocked and cannot attack again until your next turn"],
    );
    out.stdout_has(&[
        "guard wins 3 to 0: brute is blocked until your next turn\n",
        "2 against 4: r3's group stands\n",
        "  brute moves 6\" from (30, 12) to (30, 18)\n",
        "viking wins 0 to 0 (ties go to the attacker): r3 is killed\n",
        "  viking moves 6\" from (12.4, 11.3) to (12.4, 17.3)\n",
    ]);
}

/// A routing legionary at (20, 20) with the Vikings in a line 3 inches to his south, facing
/// him: a gap of `gap` inches (edge to edge) straight in his way, and gaps of 1.4 inches
/// beyond.
fn gap_game(gap: f64) -> Game {
    let inner = gap / 2.0 + 0.6;
    let vikings: Vec<String> = [
        ("left", 20.0 - inner),
        ("right", 20.0 + inner),
        ("far_left", 20.0 - inner - 2.6),
        ("far_right", 20.0 + inner + 2.6),
    ]
    .iter()
    .map(|(id, x)| format!("{{ id: {id}, type: heavy_infantry, at: [{x}, 17], facing: 0 }}"))
    .collect();
    let vikings: Vec<&str> = vikings.iter().map(String::as_str).collect();
    Game::new(
        &[&roman(
            "r",
            "heavy_infantry",
            20.0,
            20.0,
            ", tags: [routed]",
        )],
        &vikings,
    )
}

// Guards "a gap in a unit is 2 or more inches wide (for one person to pass through)": the
// width was never measured, so he ran through a 1.5-inch gap; his line passes 0.75 inches
// from each man, and every swerve is as narrow: he is cut off and fights.
#[test]
fn routing_figure_cannot_slip_through_a_gap_under_two_inches() {
    let out = gap_game(1.5).play_ok(2, "end_turn\n");
    out.stdout_has(&["r (Heavy infantry) is cut off and fights his way out at left\n"]);
    out.stdout_lacks("r moves");
}

// Guards the other side of the 2-inch gap: through 2.5 inches (1.25 either side) he runs on.
#[test]
fn routing_figure_runs_through_a_gap_of_two_inches_or_more() {
    let out = gap_game(2.5).play_ok(2, "end_turn\n");
    out.stdout_has(&["  r moves 6\" from (20, 20) to (20, 14)\n"]);
    out.stdout_lacks("cut off");
}

// Guards "if group R's own team blocks their way they will pass through them and not attack
// them": a friend squarely in his way neither stops him nor is attacked.
#[test]
fn routing_figure_passes_through_his_own_men() {
    let game = Game::new(
        &[
            &roman("r", "heavy_infantry", 20.0, 20.0, ", tags: [routed]"),
            &roman("friend", "heavy_infantry", 20.0, 17.0, ""),
        ],
        &[&viking("v", "heavy_infantry", 20.0, 30.0, "")],
    );
    let out = game.play_ok(1, "end_turn\n");
    out.stdout_has(&["  r moves 6\" from (20, 20) to (20, 14)\n"]);
    out.stdout_lacks("attacks");
    out.stdout_lacks("cut off");
}

// Guards that only enemies block a routing man, all of them: a friend on his line (listed
// before the enemy) hid the Viking behind him, and he ran straight through the Viking.
#[test]
fn routing_figure_behind_a_friend_still_goes_round_the_enemy() {
    let game = Game::new(
        &[
            &roman("r", "heavy_infantry", 20.0, 20.0, ", tags: [routed]"),
            &roman("friend", "heavy_infantry", 20.0, 18.0, ""),
        ],
        &["{ id: v, type: heavy_infantry, at: [20, 15.5], facing: 0 }"],
    );
    let out = game.play_ok(1, "end_turn\n");
    out.stdout_lacks("to (20, 14)");
    out.stdout_lacks("cut off");
    out.stdout_has(&["  r moves 6\" from (20, 20) to "]);
}

// ---------------------------------------------------------------------------------------------
// The policy: whole battles auto-played on the project's scenarios.
// ---------------------------------------------------------------------------------------------

// Guards that the policy plays every scenario of the project to a result with no refusal.
#[test]
fn battle_on_every_scenario_ends_in_a_result() {
    let mut scenarios: Vec<_> = std::fs::read_dir(common::project().join("scenarios"))
        .expect("the scenarios folder")
        .map(|e| e.expect("a scenario").path())
        .filter(|p| p.extension().is_some_and(|x| x == "yaml"))
        .collect();
    scenarios.sort();
    assert!(!scenarios.is_empty(), "no scenarios");
    for path in scenarios {
        let name = path.file_name().expect("a file name").to_string_lossy();
        let scenario = project_file(&format!("scenarios/{name}"));
        for seed in ["1", "2", "3"] {
            let out = sandtable(&["battle", &scenario, "--seed", seed], None);
            out.expect_code(0);
            assert!(out.stderr.is_empty(), "{name} seed {seed}: {}", out.stderr);
            let last = out.stdout.lines().last().unwrap_or_default();
            assert!(
                last.starts_with("victory to ") || last.starts_with("a draw on turn "),
                "{name} seed {seed}: {last}"
            );
        }
    }
}

/// A routed legionary boxed in by four of his own men, and another with a Viking standing
/// squarely in his way and friends on both sides of it.
const SURROUNDED: &str = "\
name: Surrounded
ruleset: playmobil
first: vikings
table: { width: 48, depth: 36 }
sides:
  - id: romans
    edge: south
    units:
      - { id: r, type: heavy_infantry, at: [20, 20], tags: [routed] }
      - { id: n, type: heavy_infantry, at: [20, 21.5] }
      - { id: s, type: heavy_infantry, at: [20, 18.5] }
      - { id: e, type: heavy_infantry, at: [21.5, 20] }
      - { id: w, type: heavy_infantry, at: [18.5, 20] }
      - { id: r2, type: heavy_infantry, at: [30, 20], tags: [routed] }
  - id: vikings
    edge: north
    units:
      - { id: v, type: heavy_infantry, at: [30, 18.5], facing: 0 }
      - { id: v2, type: heavy_infantry, at: [27, 16], facing: 0 }
      - { id: v3, type: heavy_infantry, at: [33, 16], facing: 0 }
      - { id: v4, type: heavy_infantry, at: [25, 18], facing: 0 }
      - { id: v5, type: heavy_infantry, at: [35, 18], facing: 0 }
";

// Guards "Stopping a Routing Unit: ... by surrounding it with his or her own men".
#[test]
fn routing_figure_surrounded_by_friends_stops() {
    let out = play_scenario(SURROUNDED, "2", "end_turn\n");
    out.expect_code(0).stdout_has(&[
        "r (Heavy infantry) is surrounded by his own men and stops running\n  r loses the tag `routed`\n",
    ]);
}

// Guards "if a player surrounds a routing unit ... group R behaves like a rider-less war
// elephant": with no way out, the routing man attacks the enemy in his way.
#[test]
fn routing_figure_cut_off_fights_his_way_out() {
    let out = play_scenario(SURROUNDED, "2", "end_turn\n");
    out.expect_code(0)
        .stdout_has(&["r2 (Heavy infantry) is cut off and fights his way out at "]);
    out.stdout_lacks("r2 moves");
}

// Guards that a man a routing figure fights his way past defends with his abilities: the
// fight read his raw `defend` stat, so an Elite Viking defended with 2 dice, not 3.
#[test]
fn routing_figure_cut_off_fights_a_man_who_keeps_his_abilities() {
    let scenario = SURROUNDED.replace(
        "{ id: v, type: heavy_infantry, at: [30, 18.5], facing: 0 }",
        "{ id: v, type: heavy_infantry, at: [30, 18.5], facing: 0, abilities: [elite] }",
    );
    let out = play_scenario(&scenario, "2", "end_turn\n:explain\n");
    out.expect_code(0).stdout_has(&[
        "r2 (Heavy infantry) is cut off and fights his way out at v\n",
        "  v defends with 3 dice: ",
        "defend_dice for v: 2 (heavy infantry) +1 elite = 3\n",
    ]);
}

// Guards "Mounted archers cannot use the Flaming Arrows ability as is will spook the horses;
// they must first dismount in order to use Flaming Arrows": a mounted archer may have it (he
// was refused outright), and uses it once on foot.
#[test]
fn a_mounted_archer_dismounts_to_use_flaming_arrows() {
    let scenario = "\
name: Fire from the saddle
ruleset: playmobil
first: romans
table: { width: 48, depth: 36 }
sides:
  - id: romans
    edge: south
    units:
      - { id: rider, type: mounted_archer, at: [10, 10], abilities: [flaming_arrows] }
  - id: vikings
    edge: north
    units:
      - { id: viking, type: heavy_infantry, at: [10, 18], facing: 180 }
";
    let out = play_scenario(
        scenario,
        "1",
        "activate rider flaming_arrows\ndismount rider\nend_turn\nend_turn\nactivate rider flaming_arrows\n",
    );
    out.expect_code(1).stderr_has(&[
        "rider must dismount before he uses Flaming Arrows: it would spook the horses",
    ]);
    out.stdout_has(&[
        "rider dismounts and fights on foot\n",
        "  rider: Flaming Arrows in force for a turn\n",
    ]);
}

// Guards "in addition to the normal special abilities (eg. charge and flaming arrow)": the
// troop chart gives every archer Flaming Arrows as it gives every cavalryman the Charge, a
// longbowman and a mounted archer (once dismounted) too. An archer whose scenario did not
// list it was told "no ability `flaming_arrows` is loaded".
#[test]
fn every_archer_has_flaming_arrows_by_the_troop_chart() {
    let scenario = "\
name: Fire by the chart
ruleset: playmobil
first: romans
table: { width: 48, depth: 36 }
sides:
  - id: romans
    edge: south
    units:
      - { id: archer, type: infantry_archer, at: [10, 10] }
      - { id: longbow, type: longbowman, at: [20, 10] }
      - { id: rider, type: mounted_archer, at: [30, 10] }
  - id: vikings
    edge: north
    units:
      - { id: viking, type: heavy_infantry, at: [10, 30], facing: 180 }
";
    let out = play_scenario(
        scenario,
        "1",
        "activate archer flaming_arrows\nactivate longbow flaming_arrows\ndismount rider\nend_turn\nend_turn\nactivate rider flaming_arrows\n",
    );
    out.expect_code(0).stdout_has(&[
        "  archer: Flaming Arrows in force for a turn\n",
        "  longbow: Flaming Arrows in force for a turn\n",
        "rider dismounts and fights on foot\n",
        "  rider: Flaming Arrows in force for a turn\n",
    ]);
}

// Guards "if a projectile hits a horse the rider does not die, but his horse is removed" for a
// general: on foot he "continues with the stats of an infantry man", a general's ("+1
// defending die and is considered heavy infantry"), and no longer charges. He kept heavy
// infantry's 2 dice and could charge 24 inches on foot with +1 die.
#[test]
fn an_unhorsed_general_fights_on_as_a_general_on_foot() {
    let game = Game::new(
        &[&roman("marcus", "mounted_general", 10.0, 10.0, "")],
        &[&engine("scorpion", "")],
    );
    let out = game.play(
        THREE_SHOTS_HIT,
        "fire scorpion marcus\nend_turn\ncharge marcus scorpion\n",
    );
    out.expect_code(1)
        .stderr_has(&["marcus is on foot: only a man on a horse charges (remount first)"]);
    out.stdout_has(&[
        "  marcus move: 18 -> 6\n  marcus defend: 5 -> 3\n",
        "  marcus's horse is killed: he fights on foot\n",
    ]);
}

/// An archer with Flaming Arrows and four Vikings around his target, all facing him.
const FLAMING: &str = "\
name: Fire
ruleset: playmobil
first: romans
table: { width: 48, depth: 36 }
sides:
  - id: romans
    edge: south
    units:
      - { id: archer, type: infantry_archer, at: [10, 10], abilities: [flaming_arrows] }
  - id: vikings
    edge: north
    units:
      - { id: beyond, type: light_infantry, at: [10, 23.5], facing: 180 }
      - { id: target, type: light_infantry, at: [10, 20.5], facing: 180 }
      - { id: second, type: light_infantry, at: [13.2, 20.5], facing: 180 }
      - { id: far, type: light_infantry, at: [20, 20.5], facing: 180 }
";

// Guards "the archers kill 2 men instead of one if they hit the enemy": the second is the
// man of the target's side nearest him whom the archer could have shot. `beyond` stands
// nearer the target (1.8 inches) but 12.3 inches from the archer, out of his bow's foot;
// `second` stands 2 inches from the target and in range. The second kill was the first man
// of the scenario within 2 inches of the target, `beyond`, out of range or not.
#[test]
fn a_flaming_arrow_kills_the_man_nearest_its_target_in_the_archers_range() {
    // Seed 1: the archer rolls 3 against the target's 1.
    let out = play_scenario(
        FLAMING,
        "1",
        "activate archer flaming_arrows\nshoot archer target\n",
    );
    out.expect_code(0).stdout_has(&[
        "archer hits 3 to 1: target is killed\n",
        "archer hits 3 to 1: second is killed\n",
    ]);
    out.stdout_lacks("beyond is removed");
    out.stdout_lacks("far is removed");
}

// Guards "this ability limits the amount of arrows the archer can fire per turn to 1": with
// his arrows lit, a second shot is refused, and an arrow shot before lighting them counts.
#[test]
fn flaming_arrows_shoot_one_arrow_a_turn() {
    let out = play_scenario(
        FLAMING,
        "1",
        "activate archer flaming_arrows\nshoot archer target\nshoot archer far\n",
    );
    out.expect_code(1)
        .stderr_has(&["archer has shot 1 time this turn: 1 is the most"]);
    let out = play_scenario(
        FLAMING,
        "1",
        "shoot archer second\nactivate archer flaming_arrows\nshoot archer target\n",
    );
    out.expect_code(1)
        .stderr_has(&["archer has shot 1 time this turn: 1 is the most"]);
}
