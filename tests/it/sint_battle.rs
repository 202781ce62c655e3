//! Soldiers in Time: whole battles auto-played by the ruleset's policy (`policy.rhai`) in the
//! three scenarios `scenarios/sint_*.yaml`, and the policy's choices at the prompt.

use crate::common;

use common::game::Game;
use common::sint::{PHASE_NAMES, brit, game, game_with, in_unit, zulu};
use common::{project_file, sandtable};

/// The scenarios of the ruleset.
const SCENARIOS: [&str; 3] = [
    "scenarios/sint_rorkes_drift_patrol.yaml",
    "scenarios/sint_edgehill_lane.yaml",
    "scenarios/sint_trench_raid.yaml",
];

/// The reasons `victory` gives, one for each of the book's conditions ("Victory!!"): the lord
/// lost, a side retired beyond missile range, the higher share of losses (or equal losses).
const BOOK_RESULTS: [&str; 4] = [
    "lost their lord and retreat",
    "retired beyond missile range",
    "lost the higher share of their men",
    "both sides lost",
];

/// The last line of a battle, checked to be a result by one of the book's conditions.
fn result_line(stdout: &str, what: &str) -> String {
    let last = stdout.lines().last().unwrap_or_default().to_string();
    assert!(
        last.starts_with("victory to ") || last.starts_with("a draw on turn "),
        "{what}: {last}"
    );
    assert!(
        BOOK_RESULTS.iter().any(|r| last.contains(r)),
        "{what}: not a result of the book: {last}"
    );
    // The phase it ended in, by its name at the table (`ruleset.yaml` `phases:`), not its id.
    assert!(
        PHASE_NAMES
            .iter()
            .any(|p| last.contains(&format!(" ({p}): "))),
        "{what}: the phase by its name: {last}"
    );
    last
}

// Guards the "Done when": each scenario plays to a result by the book's victory
// conditions, and the policy plays only through the rules: no refusal or script error reaches
// the player (exit 0, nothing on stderr), and the battle is played, not merely timed out
// (orders written, checks flipped, shots or blows exchanged).
#[test]
fn each_scenario_battle_ends_by_the_books_victory_conditions() {
    for scenario in SCENARIOS {
        let path = project_file(scenario);
        for seed in ["1", "2", "3"] {
            let what = format!("{scenario} seed {seed}");
            let out = sandtable(&["battle", &path, "--seed", seed], None);
            out.expect_code(0);
            assert!(out.stderr.is_empty(), "{what}: {}", out.stderr);
            result_line(&out.stdout, &what);
            out.stdout_has(&["write an order for", "activation check: card"]);
            assert!(
                out.stdout.contains(" fights ") || out.stdout.contains(" to hit"),
                "{what}: no shot and no melee"
            );
        }
    }
}

// Guards that battles are won by play, not by the turn limit: over a few seeds of each
// scenario, some battle ends by a lord's fall or a retreat before the last turn.
#[test]
fn battles_are_won_by_play_before_the_turn_limit() {
    for scenario in SCENARIOS {
        let path = project_file(scenario);
        let mut early = 0;
        for seed in ["4", "5", "6", "7"] {
            let out = sandtable(&["battle", &path, "--seed", seed], None);
            out.expect_code(0);
            let last = result_line(&out.stdout, scenario);
            let ended_by_play = last.contains("lost their lord") || last.contains("retired");
            if ended_by_play {
                early += 1;
            }
        }
        assert!(early > 0, "{scenario}: every battle went to the turn limit");
    }
}

// Guards determinism: the same seed gives the same battle, byte for byte; another seed gives
// another.
#[test]
fn same_seed_same_battle() {
    let path = project_file(SCENARIOS[0]);
    let a = sandtable(&["battle", &path, "--seed", "11"], None);
    let b = sandtable(&["battle", &path, "--seed", "11"], None);
    let c = sandtable(&["battle", &path, "--seed", "12"], None);
    assert_eq!(a.stdout, b.stdout);
    assert_ne!(a.stdout, c.stdout);
}

// Guards `sim`: each scenario runs under the Monte Carlo simulator to a report.
#[test]
fn each_scenario_runs_under_sim() {
    for scenario in SCENARIOS {
        let path = project_file(scenario);
        let out = sandtable(&["sim", &path, "--runs", "4", "--seed", "1"], None);
        out.expect_code(0);
        out.stdout_has(&["4 battles"]);
    }
}

// Guards 6.3 "Fire ... At Enemies Engaged In Melee" read with the shooter in the melee: a man
// shooting the enemy he is fighting is not "the figure nearest him in contact" and never
// strikes himself. (Found by the policy: a lord killed by his own pistol.) The hit falls on the
// target with no roll for the melee, here the 7 being the damage die.
#[test]
fn a_man_shooting_the_enemy_he_fights_does_not_strike_himself() {
    let b = [brit("pte_1", "rifleman", 12.0, 4.0, "")];
    let z = [zulu("warrior", "zulu", 12.0, 5.0, "")];
    let g = game(&b, &z, &["2H"; 10]);
    let out = g.play_ok(
        1,
        "set_phase(\"shooting\")\nset_turn(1, \"british\")\nunit(\"pte_1\").tag(\"_may aim\")\n:dice manual\nshoot pte_1 warrior\n3\n7\n",
    );
    out.stdout_lacks("into a melee");
    out.stdout_has(&[
        "  d10 3 against 6: hits\n  damage of pte_1's rifle: 1d10+1 [7] + 1 = 8\n  8 damage against armour 1: a wound of 7\n  warrior must save",
    ]);
}

// Guards 10.1 "All of the troops come in groups of 5" with the set-out of a random force as data
// (`data.muster_ranks`, default groups of 5, 1.5" apart, rows 3" deep, 2" in from the edges): a
// house rule of groups of 3, 2" apart and 3" in musters 7 figures as 3 groups of 3, the first
// two men at (3, 3) and (5, 3). (Broke when the group size and the spacing were numbers written
// into the script.)
#[test]
fn a_random_force_musters_in_groups_and_ranks_set_in_data() {
    let yaml = "name: Muster\nruleset: soldiers_in_time\ntable: { width: 36, depth: 24 }\ndata: { muster: 7, muster_ranks: { group: 3, spacing: 2, row_depth: 4, margin: 3 } }\nsides:\n  - { id: british, name: The British, edge: south, units: [] }\n  - { id: zulus, name: The Zulus, edge: north, units: [] }\n";
    let out = common::game::Game::from_yaml(yaml).play_ok(
        7,
        "print(units(\"british\").len())\nprint(units(\"british\")[0].pos)\nprint(units(\"british\")[1].pos)\n",
    );
    out.stdout_has(&[
        "The British muster 9 figures, 3 groups of 3 from the random troop chart:\n",
        "> print(units(\"british\").len())\n9\n",
        "> print(units(\"british\")[0].pos)\n(3, 3)\n",
        "> print(units(\"british\")[1].pos)\n(5, 3)\n",
    ]);
    assert_eq!(out.stdout.matches(": 3 of ").count(), 6, "{}", out.stdout);
}

// ---------------------------------------------------------------------------------------------
// The policy's choices, played at the prompt with `play_turn` (the deck all 5♥: every check
// passes for a man of experience 5 or more, and red, the British, goes first)
// ---------------------------------------------------------------------------------------------

/// A sergeant (with `extra` YAML, stats say) at (12, 4) and three men of his unit, of the troop
/// type `troop`, abreast 1.5" ahead of him.
fn sergeant_and_three(troop: &str, extra: &str) -> Vec<String> {
    vec![
        in_unit("sgt", "sergeant", 12.0, 4.0, extra),
        in_unit("pte_1", troop, 10.5, 5.5, ""),
        in_unit("pte_2", troop, 12.0, 5.5, ""),
        in_unit("pte_3", troop, 13.5, 5.5, ""),
    ]
}

/// A game with every card a 5♥ (a pile of twenty): each check of experience 5 or more passes,
/// and the British, red, go first.
fn game_on_5h(british: &[impl AsRef<str>], zulus: &[impl AsRef<str>]) -> Game {
    game(british, zulus, &["5H"; 20])
}

/// [`sergeant_and_three`] (`troop` with `extra` stats for the sergeant) against one Zulu
/// warrior standing at `(12, warrior_y)`, north of them.
fn section(troop: &str, extra: &str, warrior_y: f64) -> Game {
    game_on_5h(
        &sergeant_and_three(troop, extra),
        &[zulu("warrior", "zulu", 12.0, warrior_y, "")],
    )
}

/// Orders by the policy for the British, none for the Zulus, then the policy's movement.
const ORDERS_THEN_MOVE: &str = "play_turn british\nend_turn\nend_turn\nplay_turn british\n";

// Guards the policy's volley: a leader whose riflemen have the enemy within reach of a fair
// shot (a rifle reaches 32"; 15" is medium range, a hit on 5 or under) orders volley fire, and
// his unit stays where it stands to take aimed shots.
#[test]
fn the_policy_volleys_at_an_enemy_within_reach() {
    let out = section("rifleman", "", 20.0).play_ok(1, ORDERS_THEN_MOVE);
    out.stdout_has(&[
        "The British write an order for sgt: it reaches all his unit (pte_1, pte_2 and pte_3)\n",
        "sgt's order: volley fire for 4 figures (sgt, pte_1, pte_2, pte_3)\n",
        "  sgt activation check: card 5♥ against 8: passes (5 is at or under 8)\n",
    ]);
    out.stdout_lacks(" moves ");
}

// Guards the policy's charge: swordsmen (base 8, +2 charging, +1 shield) against a Zulu (base 8,
// +1 shield) 7" away, within a run, get a formed charge, and the leader charges home.
#[test]
fn the_policy_charges_an_enemy_within_reach_when_the_odds_favour_it() {
    let out = section("swordsman", ", stats: { weapon: \"\" }", 12.0).play_ok(1, ORDERS_THEN_MOVE);
    out.stdout_has(&[
        "sgt's order: formed charge for 4 figures (sgt, pte_1, pte_2, pte_3)\n",
        "sgt charges warrior (7\")\n",
    ]);
}

// Guards 5.2 Formed Charge ("it allows the unit to move/run and enter melee combat") as the
// computer plays it: every man of the unit goes into contact, each on a free side of the enemy
// where the straight way in ends on a friend's base (it broke: only the leader charged, and
// his men ran on alongside the Zulu).
#[test]
fn the_policys_formed_charge_sends_the_whole_unit_into_contact() {
    let out = section("swordsman", ", stats: { weapon: \"\" }", 12.0).play_ok(1, ORDERS_THEN_MOVE);
    out.stdout_has(&[
        "sgt's order: formed charge for 4 figures (sgt, pte_1, pte_2, pte_3)\n",
        "sgt charges warrior (7\")\n",
        "pte_1 charges warrior (",
        "pte_2 charges warrior (",
        "pte_3 charges warrior (",
    ]);
}

// Guards the policy's judgement of a charge as data (`data.policy.charge_count_within`, 6"):
// four swordsmen charge a Zulu 7" off when only he stands within 6" of himself, his six mates
// 8" behind him not counted; a house rule counting the enemy within 10" finds seven Zulus
// against four men, more than `charge_odds` (1.5) to one, and the unit marches forward
// instead. (Broke when the 6" was a number written into the policy.)
#[test]
fn the_policy_counts_the_enemy_about_a_charge_within_a_distance_set_in_data() {
    let b = sergeant_and_three("swordsman", ", stats: { weapon: \"\" }");
    let mut z = vec![zulu("warrior", "zulu", 12.0, 12.0, "")];
    for i in 0..6 {
        z.push(zulu(
            &format!("mate_{i}"),
            "zulu",
            7.0 + 2.0 * i as f64,
            20.0,
            "",
        ));
    }
    let play = |extra: &str| game_with(&b, &z, &["5H"; 20], extra).play_ok(1, ORDERS_THEN_MOVE);
    play("").stdout_has(&["sgt's order: formed charge for 4 figures (sgt, pte_1, pte_2, pte_3)\n"]);
    let wider = "data: { policy: { charge_count_within: 10 } }\n";
    play(wider)
        .stdout_has(&["sgt's order: forward march for 4 figures (sgt, pte_1, pte_2, pte_3)\n"]);
}

// Guards the policy's retreat (Victory!!: "whichever side retires beyond effective missile
// range loses"): a side that has lost 60% of its men, more than the enemy, retires.
#[test]
fn the_policy_retires_a_side_that_has_lost_heavily() {
    let g = section("rifleman", "", 20.0);
    let lines =
        "unit(\"pte_1\").remove(\"test\")\nunit(\"pte_2\").remove(\"test\")\nplay_turn british\n";
    g.play_ok(1, lines)
        .stdout_has(&["The British write an order for sgt: it reaches all his unit (pte_3)\n"]);
    let lines = format!("unit(\"pte_3\").remove(\"test\")\n{lines}");
    g.play_ok(1, &lines)
        .stdout_has(&["The British retire from the field\n"]);
}

// Guards the policy's rally phase (3): every routed man tries to rally.
#[test]
fn the_policy_rallies_every_routed_man() {
    let b = [
        in_unit("sgt", "sergeant", 12.0, 4.0, ""),
        in_unit("pte", "rifleman", 13.5, 4.0, ", tags: [routed]"),
    ];
    let z = [zulu("warrior", "zulu", 12.0, 20.0, "")];
    let out = game_on_5h(&b, &z).play_ok(1, "play_turn british\n");
    out.stdout_has(&[
        "  pte rally check: card 5♥ against 6: passes (5 is at or under 6)\n  pte loses the tag `routed`\npte rallies\n",
    ]);
}

// Guards the policy's cover: a musketeer going forward alone (the enemy beyond his musket's
// 16") makes for the copse 30° off his way, within a walk, rather than straight on.
#[test]
fn the_policy_makes_for_cover_on_its_way() {
    let b = [
        brit("sgt", "sergeant", 10.5, 4.0, ""),
        brit("pte_1", "musketeer", 12.0, 4.0, ""),
    ];
    let z = [zulu("warrior", "zulu", 12.0, 23.5, "")];
    let terrain = "terrain:\n  - { kind: woods, name: the copse, circle: { centre: [15, 8.5], radius: 1.5 } }\n";
    let out = game_with(&b, &z, &["5H"; 20], terrain).play_ok(1, ORDERS_THEN_MOVE);
    out.stdout_has(&[
        "  pte_1 goes 4.8\" that cost 5.68\" of his move (the copse at half speed)\n  pte_1 moves 4.8\" from (12, 4) to (14.4, 8.16)\n",
    ]);
}

/// The melee phase of turn 1 with the British to play, and the policy's part in it.
const MELEE_THEN_PLAY: &str = "set_phase(\"melee\")\nset_turn(1, \"british\")\nplay_turn british\n";

// Guards the policy's use of `fight_horse` (7.2 Attacking Horses, default): a swordsman on foot
// touching a knight (armour 4 on an unbarded horse, armour 0) strikes at the horse, since a blow
// that would glance off the rider's armour kills or panics the horse; against a cavalryman
// (armour 1, no harder than his horse by `data.policy.horse_armour_gap`, 2) he strikes the man.
#[test]
fn the_policy_strikes_at_the_horse_of_an_armoured_rider() {
    let b = [brit("pte", "swordsman", 12.0, 4.0, "")];
    for (troop, y, whom) in [
        ("knight", 5.75, "rider's horse"),
        ("cavalryman", 5.55, "rider"),
    ] {
        let z = [zulu("rider", troop, 12.0, y, "")];
        let out = game_on_5h(&b, &z).play_ok(1, MELEE_THEN_PLAY);
        out.stdout_has(&[&format!("pte fights {whom}: no action check in melee\n")]);
    }
}

// Guards the policy's use of `flee` (8: "Leaders may choose to route if the situation suits the
// action"): a sergeant alone with three Zulus touching him (`data.policy.flee_outnumbered`)
// chooses to rout rather than fight; with a man of his beside him in the fight, he fights.
#[test]
fn the_policy_has_a_leader_alone_in_a_hopeless_fight_flee() {
    let z = [
        zulu("z_1", "zulu", 12.0, 9.05, ""),
        zulu("z_2", "zulu", 10.95, 8.0, ""),
        zulu("z_3", "zulu", 13.05, 8.0, ""),
    ];
    let sgt = brit("sgt", "sergeant", 12.0, 8.0, "");
    let out = game_on_5h(&[&sgt], &z).play_ok(1, MELEE_THEN_PLAY);
    out.stdout_has(&["sgt chooses to rout and routs 4\" toward south\n"]);
    out.stdout_lacks("sgt fights");
    let pte = brit("pte", "swordsman", 14.1, 8.0, "");
    let out = game_on_5h(&[&sgt, &pte], &z).play_ok(1, MELEE_THEN_PLAY);
    out.stdout_lacks("chooses to rout");
    out.stdout_has(&["sgt fights z_1: no action check in melee\n"]);
}

// Guards the policy's use of `follow_him_away` (5.2 Follow Him, "unless they are moving away
// from known or suspected enemy positions"): a sergeant and two riflemen with six Zulus within
// 6" (`data.policy.withdraw_odds`, two to one) and no charge that pays take the unit away from
// the lost fight, checked on the sergeant's experience: he walks straight away from the
// nearest Zulu and his men go as he went; with five Zulus they stand and volley.
#[test]
fn the_policy_leads_a_unit_away_from_a_lost_fight() {
    let b = [
        in_unit("sgt", "sergeant", 12.0, 8.0, ""),
        in_unit("pte_1", "rifleman", 10.5, 9.5, ""),
        in_unit("pte_2", "rifleman", 13.5, 9.5, ""),
    ];
    let z: Vec<String> = (0..6)
        .map(|i| zulu(&format!("z_{i}"), "zulu", 7.0 + 2.0 * i as f64, 13.0, ""))
        .collect();
    let out = game_on_5h(&b, &z).play_ok(1, ORDERS_THEN_MOVE);
    out.stdout_has(&[
        "sgt's order: follow him away for 3 figures (sgt, pte_1, pte_2)\n",
        "  sgt activation check: card 5♥ against 8: passes (5 is at or under 8)\n",
        "  sgt moves 6\" from (12, 8) to (13.18, 2.12)\n",
        "  pte_1 moves 6\" from (10.5, 9.5) to (11.68, 3.62)\n",
    ]);
    let out = game_on_5h(&b, &z[..5]).play_ok(1, ORDERS_THEN_MOVE);
    out.stdout_lacks("follow him away");
    out.stdout_has(&["sgt's order: volley fire for 3 figures (sgt, pte_1, pte_2)\n"]);
}

// Guards the computer player's word at the table: a side with nothing to do in a phase says
// so. Broke: `play_turn british` in a shooting phase with no one to shoot printed nothing.
#[test]
fn the_policy_says_when_a_side_has_nothing_to_do() {
    let out = section("rifleman", "", 20.0).play_ok(
        1,
        "set_phase(\"shooting\")\nset_turn(1, \"british\")\nplay_turn british\n",
    );
    assert_eq!(
        common::game::after(&out, "play_turn british"),
        "The British have nothing to do in the shooting phase\n"
    );
}

// Guards the policy of a gun's crew: the officer of a battery stays with his gun (a hold order)
// to keep its crew in command, rather than walk off toward the enemy. Broke: he was ordered to
// move (the lead's trial: the master gunner walked 6" from his gun, leaving a matross out of
// command).
#[test]
fn the_policy_keeps_a_guns_leader_with_his_gun() {
    let b = [
        brit("gun", "cannon", 12.0, 4.0, ", groups: { unit: battery }"),
        brit(
            "matross",
            "gunner",
            13.75,
            4.0,
            ", groups: { unit: battery }",
        ),
        brit(
            "officer",
            "officer",
            11.0,
            1.2,
            ", groups: { unit: battery }",
        ),
    ];
    let z = [zulu("warrior", "zulu", 12.0, 20.0, "")];
    let b: Vec<&str> = b.iter().map(String::as_str).collect();
    let out = game(&b, &[z[0].as_str()], &["5H"; 20]).play_ok(
        1,
        "play_turn british\nprint(unit(\"officer\").stat(\"_order\"))\n",
    );
    assert_eq!(
        common::game::after(&out, "print(unit(\"officer\").stat(\"_order\"))"),
        "hold\n"
    );
}

// Guards the end of a battle at the prompt (it broke: play went on for ever after the lord
// fell, nothing said): the line that ends the battle is followed, once, by its result by the
// book's "Victory!!"; a line after it says nothing more of it, and after `:undo` the same end
// is told again.
#[test]
fn the_prompt_tells_the_players_once_when_the_battle_is_over() {
    let path = project_file("scenarios/sint_rorkes_drift_patrol.yaml");
    let kill = "_kill(unit(\"lt_chard\"), (), \"a test\")\n";
    let out = sandtable(
        &["play", &path, "--seed", "7"],
        Some(&format!("{kill}:units zulus\n:undo\n{kill}")),
    );
    out.expect_code(0);
    let told = "victory to The impi on turn 1 (orders): Chard's patrol lost their lord and retreat";
    assert_eq!(out.stdout.matches(told).count(), 2, "{}", out.stdout);
    let after_units = common::game::after(&out, ":units zulus");
    assert!(!after_units.contains("victory to"), "{after_units}");
    out.stdout_has(&["the battle is over: `:undo` takes back the last action"]);
}
