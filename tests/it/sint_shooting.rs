//! The rules of *Soldiers in Time 5.1* (freeware skirmish rules) for shooting (6), artillery
//! (9), grenades, mine fields and flag bearers (10.3) and hidden troops (11), as implemented in
//! `scripts/rulesets/soldiers_in_time/shooting.rhai` and `special.rhai`. Each test is named
//! after the rule it guards.
//!
//! Every test stacks the deck so each card is known, and types the dice in (`:dice manual`:
//! each die the rules roll is the next line), so every result is certain and its narration is
//! asserted exactly. Most tests start the shooting phase directly (`set_phase("shooting")`) and
//! give the shooter his leave to fire as the orders would (`_may aim`, `_may snap`): the orders
//! themselves are guarded in `tests/it/soldiers_in_time.rs`; the first test goes through them.

use crate::common;

use common::game::{Game, after, chance_at_prompt, transcript};
use common::sint::{brit, game, game_with, sergeant_and_rifleman, zulu};

/// What the typed line `line` narrated, without the prompts for the dice typed in.
#[track_caller]
fn told(out: &common::Output, line: &str) -> String {
    after(out, line)
        .split_inclusive('\n')
        .filter(|l| {
            !(l.starts_with("roll ") && l.contains(" (or all the dice, space-separated): "))
        })
        .collect()
}

/// A pile of `n` copies of one card: every flip is that card, so a test (and an exact odds
/// walk over the pile as it stands) knows each one.
fn pile(card: &str, n: usize) -> Vec<&str> {
    vec![card; n]
}

/// A game with every card a 5♥ (a pile of ten): each check of experience 5 or more passes.
fn game_on_5h(british: &[impl AsRef<str>], zulus: &[impl AsRef<str>]) -> Game {
    game(british, zulus, &pile("5H", 10))
}

/// Prompt lines that begin the shooting phase of turn 1 with `side` to play and give each
/// `(figure, leave)` its leave to fire (`_may aim`, `_may snap`). Add `:dice manual` to type
/// the dice in.
fn shooting(side: &str, leave: &[(&str, &str)]) -> String {
    let mut s = format!("set_phase(\"shooting\")\nset_turn(1, \"{side}\")\n");
    for (f, tag) in leave {
        s.push_str(&format!("unit(\"{f}\").tag(\"{tag}\")\n"));
    }
    s
}

/// A rifleman `pte_1` (experience 6, rifle 8/16/32, 1d10+1) at (12, 4) with his sergeant
/// beside him, facing a Zulu `warrior` (armour 1) whose base is `gap` inches from his.
fn rifle_and_zulu(gap: f64, zulu_extra: &str) -> (Vec<String>, Vec<String>) {
    (
        sergeant_and_rifleman(),
        vec![zulu("warrior", "zulu", 12.0, 5.0 + gap, zulu_extra)],
    )
}

/// A game of [`rifle_and_zulu`] on [`game_on_5h`]'s pile of 5♥.
fn rifleman_against_zulu(gap: f64, zulu_extra: &str) -> Game {
    let (b, z) = rifle_and_zulu(gap, zulu_extra);
    game_on_5h(&b, &z)
}

/// Prompt lines that begin the shooting phase of turn 1 with the British to play and give
/// `figure` his leave to take an aimed shot (`_may aim`).
fn aiming(figure: &str) -> String {
    shooting("british", &[(figure, "_may aim")])
}

// ---------------------------------------------------------------------------------------------
// 6.2 Missile weapons: to hit, damage, armour, save
// ---------------------------------------------------------------------------------------------

// Guards 6.2 step 1: "the shooter must roll equal or less then his fire skill number
// (experience number). Roll the 1d10 and adjust the die roll number by applying range
// modifiers": played through a fire order, a 5 +1 at medium range (9") is 6 against 6 and hits;
// then steps 2 and 3: the rifle's 1d10+1 less armour 1, saved on experience less the remainder.
#[test]
fn a_shot_hits_when_the_d10_plus_modifiers_is_at_or_under_the_experience() {
    let g = rifleman_against_zulu(9.0, "");
    let lines = "order pte_1 fire\nend_turn\nend_turn\nreveal pte_1\nend_turn\nend_turn\n:dice manual\nshoot pte_1 warrior\n5\n3\n";
    let out = g.play_ok(1, lines);
    assert_eq!(
        told(&out, "shoot pte_1 warrior"),
        "pte_1 takes an aimed shot at warrior with his rifle (9\"), needing 6 or under\n  pte_1 is tagged `unloaded`\n  pte_1 is tagged `fired`\n  pte_1 to hit: 1d10 [5] = 5\n  d10 5 +1 medium range = 6 against 6: hits\n  damage of pte_1's rifle: 1d10+1 [3] + 1 = 4\n  4 damage against armour 1: a wound of 3\n  warrior must save on 3 or under (experience 6 less 3)\n  flipped 5♥ from the cards deck\n  warrior save check: card 5♥ against 3: fails (5 is over 3)\n  warrior is removed: killed by pte_1's rifle\n",
        "{}",
        transcript(&out)
    );
    // A 6 is 7 with the medium range: a miss, and nothing more is rolled.
    let out = g.play_ok(1, &lines.replace("\n5\n3\n", "\n6\n"));
    assert!(
        told(&out, "shoot pte_1 warrior")
            .ends_with("  d10 6 +1 medium range = 7 against 6: misses\n"),
        "{}",
        transcript(&out)
    );
}

/// Plays `setup` lines then `shot` (a shoot line and its dice) and answers what the shot told.
#[track_caller]
fn shot(g: &Game, setup: &str, shot: &str) -> String {
    let out = g.play_ok(1, &format!("{setup}:dice manual\n{shot}"));
    told(&out, shot.lines().next().expect("a line"))
}

// Guards 5.1 "Charging targets receive a +4 to hit modifier", read with 6.2 (modifiers are
// added to the d10, which must come at or under the skill): +4 makes the shot harder. A running
// target alike (default).
#[test]
fn a_charging_or_running_target_is_four_harder_to_hit() {
    let g = rifleman_against_zulu(9.0, "");
    let aim = aiming("pte_1");
    let told = shot(
        &g,
        &format!("{aim}unit(\"warrior\").tag(\"charged\")\n"),
        "shoot pte_1 warrior\n2\n",
    );
    assert!(
        told.ends_with("  d10 2 +1 medium range +4 charging target = 7 against 6: misses\n"),
        "{told}"
    );
    let told = shot(
        &g,
        &format!("{aim}unit(\"warrior\").tag(\"ran\")\n"),
        "shoot pte_1 warrior\n1\n4\n",
    );
    assert!(
        told.contains("  d10 1 +1 medium range +4 running target = 6 against 6: hits\n"),
        "{told}"
    );
}

// Guards 6.3 "Moving Targets": a target that walked this turn is +1 (default).
#[test]
fn a_moving_target_is_one_harder_to_hit() {
    let g = rifleman_against_zulu(9.0, "");
    let aim = aiming("pte_1");
    let told = shot(
        &g,
        &format!("{aim}unit(\"warrior\").tag(\"moved\")\n"),
        "shoot pte_1 warrior\n5\n",
    );
    assert!(
        told.ends_with("  d10 5 +1 medium range +1 moving target = 7 against 6: misses\n"),
        "{told}"
    );
}

// Guards 6.3 "Target Size": a horse, a gun or a vehicle is a large target, -1 (default).
#[test]
fn a_large_target_is_one_easier_to_hit() {
    let b = vec![brit("pte_1", "rifleman", 12.0, 4.0, "")];
    let z = vec![zulu("rider", "cavalryman", 12.0, 15.0, "")];
    let g = game_on_5h(&b, &z);
    let aim = aiming("pte_1");
    let told = shot(&g, &aim, "shoot pte_1 rider\n6\n1\n");
    assert!(told.contains("(9.5\"), needing 6 or under\n"), "{told}");
    assert!(
        told.contains("  d10 6 +1 medium range -1 large target = 6 against 6: hits\n"),
        "{told}"
    );
}

// Guards 6.2 step 1 "range modifiers" (default bands, data `weapons`): none at short range, +3
// at long range, and no shot beyond it.
#[test]
fn range_bands_short_medium_long_and_no_shot_beyond_long_range() {
    let b = vec![brit("pte_1", "rifleman", 1.0, 1.0, "")];
    let near = vec![zulu("warrior", "zulu", 1.0, 7.0, "")];
    let g = game_on_5h(&b, &near);
    let aim = aiming("pte_1");
    let told = shot(&g, &aim, "shoot pte_1 warrior\n7\n");
    assert!(told.ends_with("(5\"), needing 6 or under\n  pte_1 is tagged `unloaded`\n  pte_1 is tagged `fired`\n  pte_1 to hit: 1d10 [7] = 7\n  d10 7 against 6: misses\n"), "{told}");
    let long = vec![zulu("warrior", "zulu", 22.0, 1.0, "")];
    let g = game_on_5h(&b, &long);
    let told = shot(&g, &aim, "shoot pte_1 warrior\n3\n1\n");
    assert!(told.contains("(20\"), needing 6 or under\n"), "{told}");
    assert!(
        told.contains("  d10 3 +3 long range = 6 against 6: hits\n"),
        "{told}"
    );
    let beyond = vec![zulu("warrior", "zulu", 34.0, 22.0, "")];
    game_on_5h(&b, &beyond).play_refused(
        1,
        &format!("{aim}shoot pte_1 warrior\n"),
        &["warrior is 38.12\" away: the rifle reaches 32\""],
    );
}

// Guards 5.2 "Forward March (up to full movement and snap fire)", "snap fire (+2)": snap fire
// is +2 to the die; aimed leave used after a move is snap fire too.
#[test]
fn snap_fire_is_two_harder_to_hit() {
    let g = rifleman_against_zulu(5.0, "");
    let snap = shooting("british", &[("pte_1", "_may snap")]);
    let told = shot(&g, &snap, "shoot pte_1 warrior\n5\n");
    assert!(
        told.starts_with("pte_1 snap fires at warrior with his rifle (5\"), needing 6 or under\n"),
        "{told}"
    );
    assert!(
        told.ends_with("  d10 5 +2 snap fire = 7 against 6: misses\n"),
        "{told}"
    );
    let moved = shooting("british", &[("pte_1", "_may aim"), ("pte_1", "moved")]);
    let told = shot(&g, &moved, "shoot pte_1 warrior\n5\n");
    assert!(
        told.ends_with("  d10 5 +2 snap fire = 7 against 6: misses\n"),
        "{told}"
    );
}

// Guards 6.1 "Foot soldiers may fire in the same turn that they charge at a penalty of +4", and
// only foot soldiers (correction after review): a rider who charged does not fire.
#[test]
fn a_foot_soldier_who_charged_fires_at_four_harder() {
    let (b, z) = rifle_and_zulu(5.0, "");
    let g = game_on_5h(&b, &z);
    let charged = shooting("british", &[("pte_1", "charged")]);
    let told = shot(&g, &charged, "shoot pte_1 warrior\n2\n3\n");
    assert!(
        told.starts_with("pte_1 fires after his charge at warrior"),
        "{told}"
    );
    assert!(
        told.contains("  d10 2 +4 fired after charging = 6 against 6: hits\n"),
        "{told}"
    );
    let b = vec![brit("rider", "cavalryman", 12.0, 4.0, "")];
    let rider = game_on_5h(&b, &z);
    rider.play_refused(
        1,
        &format!(
            "{}shoot rider warrior\n",
            shooting("british", &[("rider", "charged"), ("rider", "_may aim")])
        ),
        &["rider has no order to fire this turn"],
    );
}

// Guards 6.1 "Foot soldiers may fire in the same turn that they charge", read with 7 "When two
// or more opponents end their movement in melee range or base to base contact there will be
// combat between them": a foot soldier whose charge brought him into contact fights, and does
// not shoot the man he touches before the melee. (Broke when he did.)
#[test]
fn a_foot_soldier_who_charged_into_contact_does_not_shoot_the_man_he_touches() {
    let (b, z) = rifle_and_zulu(0.0, "");
    let g = game_on_5h(&b, &z);
    let charged = shooting("british", &[("pte_1", "charged")]);
    g.play_refused(
        1,
        &format!("{charged}shoot pte_1 warrior\n"),
        &["pte_1 charged into contact with warrior: he fights in the melee phase, and fires after a charge only when it did not reach the enemy"],
    );
}

// Guards 6.2 "Each individual figure with a missile weapon and a fire order must roll a 1d10 ...
// to see if the figure has reloaded": an unloaded rifle (reload 7) fails on an 8 and may not try
// again this turn; loads on a 7 and fires.
#[test]
fn the_reload_d10_comes_before_a_shot_unless_the_weapon_is_loaded() {
    let g = rifleman_against_zulu(5.0, "");
    let empty = format!("{}unit(\"pte_1\").tag(\"unloaded\")\n", aiming("pte_1"));
    let out = g.play_refused(
        1,
        &format!("{empty}:dice manual\nshoot pte_1 warrior\n8\nshoot pte_1 warrior\n"),
        &["pte_1 has failed to reload this turn"],
    );
    assert_eq!(
        told(&out, "shoot pte_1 warrior"),
        "  pte_1 reloads his rifle (7 or under): 1d10 [8] = 8\n  8 is over 7: not loaded this turn\n  pte_1 is tagged `reloading`\n"
    );
    let told = shot(&g, &empty, "shoot pte_1 warrior\n7\n9\n");
    assert!(
        told.starts_with("  pte_1 reloads his rifle (7 or under): 1d10 [7] = 7\n  7 is at or under 7: loaded\n  pte_1 loses the tag `unloaded`\npte_1 takes an aimed shot at warrior"),
        "{told}"
    );
}

// Guards 6.2 "If they have reloaded then they may fire during the shooting phase or they may
// stay 'loaded' for a future shooting phase": `reload` rolls and keeps the weapon loaded.
#[test]
fn reload_keeps_the_weapon_loaded_for_a_later_shooting_phase() {
    let g = rifleman_against_zulu(5.0, "");
    let empty = format!("{}unit(\"pte_1\").tag(\"unloaded\")\n", aiming("pte_1"));
    let out = g.play_refused(
        1,
        &format!("{empty}:dice manual\nreload pte_1\n4\nprint(unit(\"pte_1\").has_tag(\"unloaded\"))\nreload pte_1\n"),
        &["pte_1's rifle is loaded already"],
    );
    assert_eq!(
        told(&out, "reload pte_1"),
        "  pte_1 reloads his rifle (7 or under): 1d10 [4] = 4\n  4 is at or under 7: loaded\n  pte_1 loses the tag `unloaded`\n"
    );
    assert!(after(&out, "print(unit(\"pte_1\").has_tag(\"unloaded\"))") == "false\n");
}

// Guards 6.2 step 3 and Example 1: "If there is no remainder after subtracting the armor
// modifier than the target figure only suffers a Morale Check".
#[test]
fn damage_not_beyond_armour_is_only_a_morale_check() {
    let b = vec![brit("pte_1", "rifleman", 12.0, 4.0, "")];
    let z = vec![zulu("viking", "viking", 12.0, 10.0, "")];
    let g = game_on_5h(&b, &z);
    let told = shot(&g, &aiming("pte_1"), "shoot pte_1 viking\n1\n1\n");
    assert!(
        told.ends_with("  damage of pte_1's rifle: 1d10+1 [1] + 1 = 2\n  2 damage against armour 3: no wound, but viking must check morale\nviking checks morale: struck by pte_1's rifle\n  flipped 5♥ from the cards deck\n  viking morale check: card 5♥ against 7: passes (5 is at or under 7)\n"),
        "{told}"
    );
}

// Guards 6.2 step 3 and Example 2 with exact odds over every die and every card of a full
// shuffled deck (the scenario brings none): "the remainder is subtracted from the experience
// number to get the final save number", and "leader influence and within command range can save
// the figure if the player flips a face card of the owning players color". A Zulu (experience
// 6, javelin 1d6) throws at pte_1 (experience 6, armour 0) 5" away, a medium range: a hit is a
// d10 of 5 or under, 1/2; a hit wounds d (1 to 6) and pte_1 saves on 6 - d: the A to 6 - d of
// four suits, 4(6 - d) cards, none when d = 6.
// - With the sergeant within 3" (1.5", not within the 1" of a morale check when pte_1 falls), the
//   six red face cards save too: saved over the six d on (60 + 36)/(6 x 52) = 4/13, so pte_1 is
//   removed on 1/2 x 9/13 = 9/26.
// - Alone, only number cards save: 60/312 = 5/26; removed on 1/2 x 21/26 = 21/52.
#[test]
fn exact_odds_of_a_shot_hit_damage_and_a_save_by_card() {
    let z = vec![zulu("warrior", "zulu", 12.0, 10.0, "")];
    let lines = format!(
        "{}:odds shoot warrior pte_1\n",
        shooting("zulus", &[("warrior", "_may aim")])
    );
    let odds = |b: &[String]| {
        let out = game(b, &z, &[]).play_ok(1, &lines);
        let printed = after(&out, ":odds shoot warrior pte_1");
        assert!(printed.contains(": exact, over "), "{printed}");
        printed
    };
    let pte = brit("pte_1", "rifleman", 12.0, 4.0, "");
    let near = odds(&[brit("sgt", "sergeant", 9.5, 4.0, ""), pte.clone()]);
    assert_eq!(chance_at_prompt(&near, "pte_1 removed"), "9/26");
    let alone = odds(&[pte]);
    assert_eq!(chance_at_prompt(&alone, "pte_1 removed"), "21/52");
}

// Guards 6.1 "Multiple Shots" and "A Lt machine gun has a 2 man crew. If there is only one
// figure alone because of casualties, then only 3 shots may be taken each turn": alone, the
// fourth shot is refused; with a mate within 1", it is fired.
#[test]
fn a_light_machine_gun_alone_fires_only_three_shots() {
    let z = vec![zulu("warrior", "zulu", 12.0, 14.0, "")];
    let alone = vec![brit("mg", "machine_gunner", 12.0, 4.0, "")];
    let aim = aiming("mg");
    let out = game_on_5h(&alone, &z).play_refused(
        1,
        &format!("{aim}:dice manual\nshoot mg warrior\n10\nshoot mg warrior\n10\nshoot mg warrior\n10\nshoot mg warrior\n"),
        &["mg has fired 3 shots this turn: his lmg fires 3"],
    );
    assert_eq!(
        out.stdout
            .matches("mg takes an aimed shot at warrior")
            .count(),
        3
    );
    let crewed = vec![
        brit("mg", "machine_gunner", 12.0, 4.0, ""),
        brit("mate", "rifleman", 13.5, 4.0, ""),
    ];
    let out = game_on_5h(&crewed, &z).play_ok(
        1,
        &format!("{aim}:dice manual\nshoot mg warrior\n10\nshoot mg warrior\n10\nshoot mg warrior\n10\nshoot mg warrior\n10\n"),
    );
    assert_eq!(
        out.stdout
            .matches("mg takes an aimed shot at warrior")
            .count(),
        4
    );
}

// Guards 6.1 "A Lt machine gun has a 2 man crew": the man who makes the crew of two works the
// gun, and does not fire his own rifle as well; and a man who fired his own weapon first is no
// crew, so the gunner is alone and fires 3. (Broke when the loader fired his rifle while the
// gun fired all 6 shots with him as its crew.)
#[test]
fn a_machine_gun_loader_does_not_fire_his_own_rifle() {
    let z = vec![zulu("warrior", "zulu", 12.0, 14.0, "")];
    let crewed = vec![
        brit("mg", "machine_gunner", 12.0, 4.0, ""),
        brit("mate", "rifleman", 13.5, 4.0, ""),
    ];
    let leave = shooting("british", &[("mg", "_may aim"), ("mate", "_may aim")]);
    let out = game_on_5h(&crewed, &z).play_refused(
        1,
        &format!("{leave}:dice manual\nshoot mg warrior\n10\nshoot mate warrior\n"),
        &["mate crews mg's lmg this turn: he does not fire his own weapon"],
    );
    assert!(
        told(&out, "shoot mg warrior").contains("  mate crews mg's lmg this turn\n"),
        "{}",
        transcript(&out)
    );
    let out = game_on_5h(&crewed, &z).play_refused(
        1,
        &format!("{leave}:dice manual\nshoot mate warrior\n10\nshoot mg warrior\n10\nshoot mg warrior\n10\nshoot mg warrior\n10\nshoot mg warrior\n"),
        &["mg has fired 3 shots this turn: his lmg fires 3"],
    );
    assert_eq!(
        out.stdout
            .matches("mg takes an aimed shot at warrior")
            .count(),
        3,
        "{}",
        transcript(&out)
    );
}

// Guards 6.1 "A Lt machine gun has a 2 man crew. If there is only one figure alone because of
// casualties, then only 3 shots", read with "Tanks: to be done" (default): a tank's machine gun
// is served by the crew of two inside it (`crew: 2`), lost only with the tank, so the tank
// fires all 6 shots and the seventh is refused; wrecked, it fires none. (Broke when a tank
// counted as a gunner alone, with no man on foot beside it, and fired only 3.)
#[test]
fn a_tank_fires_its_machine_gun_with_the_crew_inside_it() {
    let z = vec![zulu("warrior", "zulu", 12.0, 14.0, "")];
    let tank = vec![brit("tank", "tank", 12.0, 4.0, "")];
    let g = game_on_5h(&tank, &z);
    let aim = aiming("tank");
    let out = g.play_refused(
        1,
        &format!(
            "{aim}:dice manual\n{}shoot tank warrior\n",
            "shoot tank warrior\n10\n".repeat(6)
        ),
        &["tank has fired 6 shots this turn: his lmg fires 6"],
    );
    assert_eq!(
        out.stdout
            .matches("tank takes an aimed shot at warrior")
            .count(),
        6
    );
    g.play_refused(
        1,
        &format!("{aim}_strike(unit(\"tank\"), 28, (), \"a test\")\nshoot tank warrior\n"),
        &["tank is wrecked: its weapons are unusable"],
    );
}

// Guards 6.2 step 3, "If there is no remainder after subtracting the armor modifier than the
// target figure only suffers a Morale Check", for a tank (default: its crew checks morale for
// every hit that leaves it working, its hit points standing for a man's save): a 5 against its
// armour 8 is a morale check, passed on the 5; a 12 takes 4 hit points and is another, failed
// on the 9, and the tank routs. (Broke when a tank checked morale for a friend's fall beside it
// but never for a hit on itself.)
#[test]
fn a_tank_struck_checks_morale_for_its_crew() {
    let z = vec![zulu("warrior", "zulu", 12.0, 20.0, "")];
    let tank = vec![brit("tank", "tank", 12.0, 8.0, "")];
    let g = game(&tank, &z, &["5H", "9H"]);
    let out = g.play_ok(
        1,
        "_strike(unit(\"tank\"), 5, (), \"a test\")\n_strike(unit(\"tank\"), 12, (), \"a test\")\n",
    );
    assert_eq!(
        told(&out, "_strike(unit(\"tank\"), 5, (), \"a test\")"),
        "  5 damage against armour 8: tank is not harmed\ntank checks morale: struck by a test\n  flipped 5♥ from the cards deck\n  tank morale check: card 5♥ against 6: passes (5 is at or under 6)\n=> \"unhurt\"\n"
    );
    assert_eq!(
        told(&out, "_strike(unit(\"tank\"), 12, (), \"a test\")"),
        "  12 damage against armour 8: 4 more, 4 of its 20 hit points: tank still works\ntank checks morale: struck by a test\n  flipped 9♥ from the cards deck\n  tank morale check: card 9♥ against 6: fails (9 is over 6)\ntank fails the morale check and routs 4\" toward south\n  tank turns from 0° to 180°\n  tank moves 4\" from (12, 8) to (12, 4)\n  tank is tagged `routed`\n=> \"routed\"\n"
    );
}

// Guards 6.3 "Fire Past Friends" (default: a friend's base within 0.5" of the line of fire
// blocks it): pte_2 straight ahead blocks the shot; pte_3 0.7" to the side does not.
#[test]
fn no_firing_past_a_friend_in_the_line_of_fire() {
    let z = vec![zulu("warrior", "zulu", 12.0, 14.0, "")];
    let blocked = vec![
        brit("pte_1", "rifleman", 12.0, 4.0, ""),
        brit("pte_2", "rifleman", 12.0, 9.0, ""),
    ];
    let aim = aiming("pte_1");
    game_on_5h(&blocked, &z).play_refused(
        1,
        &format!("{aim}shoot pte_1 warrior\n"),
        &["pte_2 is in the line of fire: no firing past a friend"],
    );
    let clear = vec![
        brit("pte_1", "rifleman", 12.0, 4.0, ""),
        brit("pte_3", "rifleman", 13.2, 9.0, ""),
    ];
    let told = shot(&game_on_5h(&clear, &z), &aim, "shoot pte_1 warrior\n10\n");
    assert!(told.ends_with("misses\n"), "{told}");
}

// Guards 6.3 "Fire ... At Enemies Engaged In Melee" (default): a hit on a man in a melee strikes
// him on a d10 of 1-5, else the figure nearest him in contact, here the British pte_2.
#[test]
fn a_shot_into_a_melee_strikes_the_target_on_one_to_five_else_the_nearest_in_contact() {
    let b = vec![
        brit("pte_1", "rifleman", 12.0, 4.0, ""),
        brit("pte_2", "rifleman", 13.0, 14.0, ""),
    ];
    let z = vec![zulu("warrior", "zulu", 12.0, 14.0, "")];
    let g = game(&b, &z, &pile("2H", 10));
    let aim = aiming("pte_1");
    let told = shot(&g, &aim, "shoot pte_1 warrior\n3\n7\n1\n");
    assert!(
        told.contains("  the shot goes into a melee: warrior is struck on 5 or under: 1d10 [7] = 7\n  the shot strikes pte_2 instead\n  damage of pte_1's rifle: 1d10+1 [1] + 1 = 2\n  2 damage against armour 0: a wound of 2\n  pte_2 must save on 4 or under"),
        "{told}"
    );
    let told = shot(&g, &aim, "shoot pte_1 warrior\n3\n5\n1\n");
    assert!(
        told.contains("  the shot goes into a melee: warrior is struck on 5 or under: 1d10 [5] = 5\n  damage of pte_1's rifle: 1d10+1 [1] + 1 = 2\n  2 damage against armour 1: a wound of 1\n  warrior must save"),
        "{told}"
    );
}

// Guards 8 "A routing figure will not melee or shoot".
#[test]
fn a_routing_figure_does_not_shoot() {
    rifleman_against_zulu(5.0, "").play_refused(
        1,
        &format!(
            "{}unit(\"pte_1\").tag(\"routed\")\nshoot pte_1 warrior\n",
            aiming("pte_1")
        ),
        &["pte_1 is routing: a routing man does not shoot"],
    );
}

// Guards 6.2 "Each individual figure with a missile weapon and a fire order": no order that
// lets him fire, no shot; and only in the shooting phase.
#[test]
fn a_figure_shoots_only_with_an_order_to_fire_in_the_shooting_phase() {
    let g = rifleman_against_zulu(5.0, "");
    g.play_refused(
        1,
        &format!("{}shoot pte_1 warrior\n", shooting("british", &[])),
        &["pte_1 has no order to fire this turn"],
    );
    g.play_refused(
        1,
        "shoot pte_1 warrior\n",
        &["not now: this is the command phase; that is done in the shooting phase"],
    );
}

// Guards 10.3 "A Flag barer is a soldier that holds your banner/flag in battle. He doesn't
// fight": he may not start a melee (the melee rules ask `_can_start_melee`) nor shoot.
#[test]
fn a_flag_bearer_does_not_fight() {
    let b = vec![
        brit(
            "flag",
            "flag_bearer",
            12.0,
            4.0,
            ", stats: { weapon: rifle }",
        ),
        brit("pte_1", "rifleman", 14.0, 4.0, ""),
    ];
    let z = vec![zulu("warrior", "zulu", 12.0, 10.0, "")];
    let g = game_on_5h(&b, &z);
    let out = g.play_ok(1, "print(_can_start_melee(unit(\"flag\")))\nprint(_why_no_melee(unit(\"flag\")))\nprint(_can_start_melee(unit(\"pte_1\")))\n");
    assert_eq!(
        after(&out, "print(_can_start_melee(unit(\"flag\")))"),
        "false\n"
    );
    assert_eq!(
        after(&out, "print(_why_no_melee(unit(\"flag\")))"),
        "flag carries the flag: he doesn't fight\n"
    );
    assert_eq!(
        after(&out, "print(_can_start_melee(unit(\"pte_1\")))"),
        "true\n"
    );
    g.play_refused(
        1,
        &format!("{}shoot flag warrior\n", aiming("flag")),
        &["flag carries the flag: he doesn't fight"],
    );
}

// ---------------------------------------------------------------------------------------------
// 11 Observation: hidden troops
// ---------------------------------------------------------------------------------------------

// Guards 11 "Hidden troops receive a +2 because of the benefit of cover. If there is a hit then
// all troops in a 2 inch radius are automatically exposed and no will not receive the +2
// benefit of cover in the next turn": the hit on warrior exposes him and w2 (1" away) through
// turn 2; in turn 3 the cover counts again.
#[test]
fn a_hidden_target_is_two_harder_to_hit_until_a_hit_within_two_inches_exposes_it() {
    let b = vec![
        brit("pte_1", "rifleman", 12.0, 4.0, ""),
        brit("pte_2", "rifleman", 16.0, 4.0, ""),
    ];
    let z = vec![
        zulu("warrior", "zulu", 12.0, 14.0, ", tags: [hidden]"),
        zulu("w2", "zulu", 14.0, 14.0, ", tags: [hidden]"),
    ];
    let g = game_on_5h(&b, &z);
    let aim = shooting("british", &[("pte_1", "_may aim"), ("pte_2", "_may aim")]);
    let out = g.play_ok(
        1,
        &format!("{aim}:dice manual\nshoot pte_1 warrior\n1\n1\nshoot pte_2 w2\n10\nset_turn(2, \"british\")\nprint(unit(\"w2\").has_tag(\"exposed\"))\nset_turn(3, \"british\")\nunit(\"pte_2\").untag(\"fired\")\nunit(\"pte_2\").untag(\"unloaded\")\nshoot pte_2 w2\n10\n"),
    );
    let first = told(&out, "shoot pte_1 warrior");
    assert!(first.contains("  d10 1 +1 medium range +2 hidden target = 4 against 6: hits\n  warrior is tagged `exposed`\n  warrior is exposed: no cover for him until the end of turn 2\n  w2 is tagged `exposed`\n  w2 is exposed: no cover for him until the end of turn 2\n"), "{first}");
    assert!(
        told(&out, "shoot pte_2 w2").ends_with("  d10 10 +1 medium range = 11 against 6: misses\n"),
        "{}",
        transcript(&out)
    );
    assert_eq!(
        after(&out, "print(unit(\"w2\").has_tag(\"exposed\"))"),
        "true\n"
    );
    let later = common::game::after_last(&out, "shoot pte_2 w2");
    assert!(later.contains("  w2 loses the tag `exposed`\n"), "{later}");
    assert!(
        later.ends_with("  d10 10 +1 medium range +2 hidden target = 13 against 6: misses\n"),
        "{later}"
    );
}

// Guards 11 "If there is a hit then all troops in a 2 inch radius are automatically exposed and
// no will not receive the +2 benefit of cover in the next turn", read as any hit, by hidden
// troops as well (`data.hidden.shooter_hit_exposes`): a hidden rifleman whose shot hits is
// exposed, is seen, and loses his +2; one who misses stays hidden. (Broke when hidden riflemen
// stayed hidden while they fired every turn.)
#[test]
fn a_hidden_man_whose_shot_hits_is_exposed() {
    let b = vec![
        brit("sgt", "sergeant", 10.0, 4.0, ", groups: { unit: first }"),
        brit(
            "pte_1",
            "rifleman",
            12.0,
            4.0,
            ", groups: { unit: first }, tags: [hidden]",
        ),
    ];
    let z = vec![zulu("warrior", "zulu", 12.0, 14.0, "")];
    let g = game_on_5h(&b, &z);
    let out = g.play_ok(
        1,
        &format!(
            "{}:dice manual\nshoot pte_1 warrior\n5\n1\nprint(_unseen(unit(\"pte_1\")))\n",
            aiming("pte_1")
        ),
    );
    assert!(
        told(&out, "shoot pte_1 warrior")
            .contains("  pte_1 is exposed: no cover for him until the end of turn 2\n"),
        "{}",
        transcript(&out)
    );
    assert!(
        after(&out, "print(_unseen(unit(\"pte_1\")))").starts_with("false\n"),
        "{}",
        transcript(&out)
    );
    let out = g.play_ok(
        1,
        &format!(
            "{}:dice manual\nshoot pte_1 warrior\n9\nprint(_unseen(unit(\"pte_1\")))\n",
            aiming("pte_1")
        ),
    );
    assert!(
        after(&out, "print(_unseen(unit(\"pte_1\")))").starts_with("true\n"),
        "{}",
        transcript(&out)
    );
    // A house rule that keeps the shooter hidden.
    let keep = game_with(
        &b,
        &z,
        &pile("5H", 10),
        "data: { hidden: { exposed_radius: 2, spot_range: 12, shooter_hit_exposes: false } }\n",
    );
    let out = keep.play_ok(
        1,
        &format!(
            "{}:dice manual\nshoot pte_1 warrior\n5\n1\nprint(_unseen(unit(\"pte_1\")))\n",
            aiming("pte_1")
        ),
    );
    assert!(
        after(&out, "print(_unseen(unit(\"pte_1\")))").starts_with("true\n"),
        "{}",
        transcript(&out)
    );
}

// Guards 6.2 step 1 "cover modifiers" (default: a target in woods, a town or a fortification
// has the +2 of cover).
#[test]
fn a_target_in_cover_is_two_harder_to_hit() {
    let (b, z) = rifle_and_zulu(9.0, "");
    let g = game_with(
        &b,
        &z,
        &pile("5H", 10),
        "terrain:\n  - { kind: woods, name: the kraal wood, circle: { centre: [12, 14], radius: 2 } }\n",
    );
    let told = shot(&g, &aiming("pte_1"), "shoot pte_1 warrior\n4\n");
    assert!(
        told.ends_with("  d10 4 +1 medium range +2 target in woods = 7 against 6: misses\n"),
        "{told}"
    );
}

// Guards 6.3 "Moving Targets" and 6.2 step 1 "cover modifiers" as house-ruled numbers: a
// running target (`data.to_hit.target_ran`) and cover in terrain (`data.to_hit.
// target_in_cover`) each have their own number, apart from the book's charging target (5.1,
// `data.charge.target_to_hit`) and hidden troops (11, `data.to_hit.target_hidden`): set to 3
// and 1, they change those two and leave the book's +4 and +2 alone. (Broke when running
// borrowed the charging target's number and cover the hidden troops'.)
#[test]
fn a_running_target_and_cover_have_numbers_of_their_own() {
    let (b, z) = rifle_and_zulu(9.0, "");
    let g = game_with(
        &b,
        &z,
        &pile("5H", 10),
        "terrain:\n  - { kind: woods, name: the kraal wood, circle: { centre: [12, 14], radius: 2 } }\ndata: { to_hit: { target_ran: 3, target_in_cover: 1 } }\n",
    );
    let aim = aiming("pte_1");
    for (tag, told_end) in [
        (
            "ran",
            "  d10 10 +1 medium range +3 running target +1 target in woods = 15 against 6: misses\n",
        ),
        (
            "charged",
            "  d10 10 +1 medium range +4 charging target +1 target in woods = 16 against 6: misses\n",
        ),
        (
            "hidden",
            "  d10 10 +1 medium range +2 hidden target = 13 against 6: misses\n",
        ),
    ] {
        let told = shot(
            &g,
            &format!("{aim}unit(\"warrior\").tag(\"{tag}\")\n"),
            "shoot pte_1 warrior\n10\n",
        );
        assert!(told.ends_with(told_end), "{tag}: {told}");
    }
}

// Guards 11 "Spotting Hidden Enemies" (default): an activation check of a spotter within 12"
// who can see the place; on a pass the enemy is hidden no more; once a turn.
#[test]
fn spotting_a_hidden_enemy_is_an_activation_check_within_twelve_inches() {
    let (b, z) = rifle_and_zulu(9.0, ", tags: [hidden]");
    let seen = game_on_5h(&b, &z);
    let out = seen.play_ok(
        1,
        &format!("{}spot pte_1 warrior\n", shooting("british", &[])),
    );
    assert_eq!(
        told(&out, "spot pte_1 warrior"),
        "pte_1 looks for warrior (9\")\n  flipped 5♥ from the cards deck\n  pte_1 spot check: card 5♥ against 6: passes (5 is at or under 6)\n  warrior loses the tag `hidden`\npte_1 spots warrior: he is hidden no more\n"
    );
    let missed = game(&b, &z, &pile("9H", 10));
    let out = missed.play_refused(
        1,
        &format!(
            "{}spot pte_1 warrior\nspot pte_1 warrior\n",
            shooting("british", &[])
        ),
        &["pte_1 has looked for the enemy this turn"],
    );
    assert!(
        told(&out, "spot pte_1 warrior")
            .ends_with("fails (9 is over 6)\npte_1 does not make warrior out\n")
    );
    let (b, far) = rifle_and_zulu(13.0, ", tags: [hidden]");
    game_on_5h(&b, &far).play_refused(
        1,
        &format!("{}spot pte_1 warrior\n", shooting("british", &[])),
        &["warrior is 13\" away: a man spots within 12\""],
    );
}

// ---------------------------------------------------------------------------------------------
// 9 Artillery
// ---------------------------------------------------------------------------------------------

/// A British gun of type `gun` at (12, 4) facing north with two gunners beside it (`crew_1`
/// experience 6, `crew_2` experience 8), and Zulus as given.
fn battery(gun: &str, zulus: &[String]) -> Game {
    let b = vec![
        brit("gun", gun, 12.0, 4.0, ", groups: { unit: battery }"),
        brit("crew_1", "gunner", 13.5, 4.0, ", groups: { unit: battery }"),
        brit(
            "crew_2",
            "gunner",
            10.5,
            4.0,
            ", groups: { unit: battery }, stats: { experience: 8 }",
        ),
    ];
    game_on_5h(&b, zulus)
}

// Guards 9 "They have a 45 degree arc from the center of the stand's front", read as 45° in
// all (as grapeshot's "45 degree cone"): 22.5° either side of straight ahead, seen from the
// middle of the front edge; the refusal says so. (Broke when the refusal said "45° from the
// centre of its front" and the guide "within 45°", while the rule allowed 22.5° either side.)
#[test]
fn a_gun_fires_only_within_its_forty_five_degree_arc() {
    let g = battery("bolt_thrower", &[zulu("warrior", "zulu", 20.0, 6.0, "")]);
    g.play_refused(
        1,
        &format!("{}fire gun warrior\n", aiming("gun")),
        &["warrior is outside gun's arc: 45° in all, 22.5° either side of straight ahead from the centre of its front (warrior is 81.12° off)"],
    );
    // 21.8° off seen from the gun's centre, but 32.62° from the middle of its front (0.75"
    // ahead): outside.
    let near = battery("bolt_thrower", &[zulu("warrior", "zulu", 12.8, 6.0, "")]);
    near.play_refused(
        1,
        &format!("{}fire gun warrior\n", aiming("gun")),
        &["(warrior is 32.62° off)"],
    );
    // 20° off from the middle of its front: inside.
    let inside = battery("bolt_thrower", &[zulu("warrior", "zulu", 14.4, 11.5, "")]);
    let told = shot(&inside, &aiming("gun"), "fire gun warrior\n10\n");
    assert!(told.starts_with("gun fires a bolt at warrior"), "{told}");
}

// Guards 9 "The crew experience level for each artillery figure is assigned by the players" and
// "The 'to hit' number is the missile skill number of the most experienced gun crew member":
// the bolt thrower hits on crew_2's 8; and the bolt's "2d10 +2 on a target enemy".
#[test]
fn a_gun_hits_on_its_best_crewmans_experience_and_a_bolt_strikes_for_2d10_plus_2() {
    let g = battery("bolt_thrower", &[zulu("warrior", "zulu", 12.0, 16.0, "")]);
    let told = shot(&g, &aiming("gun"), "fire gun warrior\n8\n1 1\n");
    assert!(
        told.starts_with("gun fires a bolt at warrior (12\"), needing 8 or under (its best crewman)\n  gun to hit: 1d10 [8] = 8\n  d10 8 against 8: hits\n  gun's bolt on warrior: 2d10+2 [1, 1] + 2 = 4\n  4 damage against armour 1: a wound of 3\n"),
        "{told}"
    );
}

// Guards 9 (default: a crewman serves his gun within 1"): a gun with no crew does not fire.
#[test]
fn a_gun_with_no_crew_does_not_fire() {
    let b = vec![brit("gun", "bolt_thrower", 12.0, 4.0, "")];
    let z = vec![zulu("warrior", "zulu", 12.0, 16.0, "")];
    game_on_5h(&b, &z).play_refused(
        1,
        &format!("{}fire gun warrior\n", aiming("gun")),
        &["gun has no crew within 1\""],
    );
}

// Guards 9 "The 'to hit' number is the missile skill number of the most experienced gun crew
// member", read with 6.1's crew: a gunner who fired his own musket this turn is no crew, so
// the bolt thrower aims with crew_1's 6, not crew_2's 8; and one who served the gun does not
// fire his own.
#[test]
fn a_gunner_who_fired_his_own_weapon_does_not_serve_the_gun() {
    let b = vec![
        brit(
            "gun",
            "bolt_thrower",
            12.0,
            4.0,
            ", groups: { unit: battery }",
        ),
        brit("crew_1", "gunner", 13.5, 4.0, ", groups: { unit: battery }"),
        brit(
            "crew_2",
            "gunner",
            10.5,
            4.0,
            ", groups: { unit: battery }, stats: { experience: 8, weapon: musket }",
        ),
    ];
    let z = vec![zulu("warrior", "zulu", 12.0, 14.0, "")];
    let leave = shooting("british", &[("gun", "_may aim"), ("crew_2", "_may aim")]);
    let out = game_on_5h(&b, &z).play_ok(
        1,
        &format!("{leave}:dice manual\nshoot crew_2 warrior\n10\nfire gun warrior\n10\n"),
    );
    assert!(
        told(&out, "fire gun warrior").starts_with(
            "gun fires a bolt at warrior (10\"), needing 6 or under (its best crewman)\n"
        ),
        "{}",
        transcript(&out)
    );
    game_on_5h(&b, &z).play_refused(
        1,
        &format!("{leave}:dice manual\nfire gun warrior\n10\nshoot crew_2 warrior\n"),
        &["crew_2 crews gun's bolt this turn: he does not fire his own weapon"],
    );
}

// Guards 9 "All such stands can move 1 inch during their movement provided that they pass an
// activation check but may not fire until the following turn".
#[test]
fn a_gun_that_moved_does_not_fire_that_turn() {
    let g = battery("bolt_thrower", &[zulu("warrior", "zulu", 12.0, 16.0, "")]);
    g.play_refused(
        1,
        &format!(
            "{}fire gun warrior\n",
            shooting("british", &[("gun", "_may aim"), ("gun", "moved")])
        ),
        &["gun moved this turn: \"may not fire until the following turn\""],
    );
}

// Guards 9 "At the beginning of the game turn in which a cannon is reloading, the owning player
// places a face down marker beside each cannon indicating whether it's loaded with ball or
// grapeshot. A cannon can only fire the ammunition indicated by the marker. After each shot,
// replace the marker.": the marker is written unseen in the command phase, shown on firing, and
// gone after the shot; not written in the shooting phase.
#[test]
fn a_cannon_fires_only_what_its_secret_marker_says() {
    let g = battery("cannon", &[zulu("warrior", "zulu", 12.0, 16.0, "")]);
    let aim = aiming("gun");
    let out = g.play_refused(
        1,
        &format!("load gun ball\n{aim}:dice manual\nfire gun warrior\n10\nset_turn(2, \"british\")\nfire gun warrior\nload gun grape\n"),
        &[
            "gun has no marker: `load gun ball` or `grape` at the start of a turn",
            "not now: this is the shooting phase; that is done in the rally phase",
        ],
    );
    assert_eq!(
        after(&out, "load gun ball"),
        "The British place a face-down marker beside gun\n"
    );
    assert!(
        told(&out, "fire gun warrior").starts_with("gun's marker is turned over: ball\ngun fires a ball at warrior (12\"), needing 8 or under (its best crewman)\n"),
        "{}",
        transcript(&out)
    );
    // No marker at all: no fire.
    battery("cannon", &[zulu("warrior", "zulu", 12.0, 16.0, "")]).play_refused(
        1,
        &format!("{aim}fire gun warrior\n"),
        &["gun has no marker"],
    );
}

// Guards 9 "Grapeshot hat an 8" range and affects any enemy stands in a 45 degree cone from the
// center of the cannon. Each stand takes from 1d10 damage before the targets armor is
// subtracted": warrior and w2 in the cone are struck, w3 outside it is not, and 8" is the most.
#[test]
fn grapeshot_strikes_every_enemy_in_an_eight_inch_cone_for_1d10_less_armour() {
    let z = vec![
        zulu("warrior", "zulu", 12.0, 10.0, ""),
        zulu("w2", "zulu", 14.5, 10.5, ""),
        zulu("w3", "zulu", 18.0, 8.0, ""),
    ];
    let g = battery("cannon", &z);
    let aim = aiming("gun");
    let told = shot(
        &g,
        &format!("load gun grape\n{aim}"),
        "fire gun warrior\n5\n1\n",
    );
    assert!(
        told.starts_with("gun's marker is turned over: grapeshot\ngun fires grapeshot: warrior, w2 in the cone\n  grapeshot on warrior: 1d10 [5] = 5\n  5 damage against armour 1: a wound of 4\n"),
        "{told}"
    );
    assert!(told.contains("  grapeshot on w2: 1d10 [1] = 1\n  1 damage against armour 1: no wound, but w2 must check morale\n"), "{told}");
    assert!(!told.contains("grapeshot on w3"), "{told}");
    let far = battery("cannon", &[zulu("warrior", "zulu", 12.0, 13.0, "")]);
    far.play_refused(
        1,
        &format!("load gun grape\n{aim}fire gun warrior\n"),
        &["warrior is 9\" away: grapeshot reaches 8\""],
    );
}

// Guards 9 "A ball shot inflicts damage on a target area the size of a quarter" (default 2d10;
// the area a 1" circle): the figure at the aim is struck, one 0.6" from its edge is not.
#[test]
fn a_ball_strikes_the_figures_touching_a_quarter_sized_area() {
    let z = vec![
        zulu("warrior", "zulu", 12.0, 16.0, ""),
        zulu("w2", "zulu", 13.1, 16.0, ""),
    ];
    let g = battery("cannon", &z);
    let told = shot(
        &g,
        &format!("load gun ball\n{}", aiming("gun")),
        "fire gun warrior\n2\n3 4\n",
    );
    assert!(told.contains("  d10 2 against 8: hits\n  gun's ball on warrior: 2d10 [3, 4] = 7\n  7 damage against armour 1: a wound of 6\n"), "{told}");
    assert!(!told.contains("on w2"), "{told}");
}

// Guards 9 "Catapults ... hit a target stand on a roll of 3 or less on a 1d10 (0=10). If it is
// not a hit, the shot scatters. Roll a six sided die with an arrow on it to see how many inches
// away from the target the shot landed. A catapult causes 2d10 +4 damage": a 3 hits for 2d10+4;
// a 4 scatters (a clock die for the arrow: 3 o'clock, 90°) 2" east, onto no one.
#[test]
fn a_catapult_hits_on_three_or_under_else_its_rock_scatters_1d6_inches() {
    let z = vec![zulu("warrior", "zulu", 12.0, 16.0, "")];
    let g = battery("catapult", &z);
    let aim = aiming("gun");
    let told_hit = shot(&g, &aim, "fire gun warrior\n3\n1 1\n");
    assert!(
        told_hit.starts_with("  gun hurls its rock at warrior, hitting on 3 or under: 1d10 [3] = 3\n  3: on target\n  gun's rock on warrior: 2d10+4 [1, 1] + 4 = 6\n"),
        "{told_hit}"
    );
    let told_miss = shot(&g, &aim, "fire gun warrior\n4\n3\n2\n");
    assert!(
        told_miss.starts_with("  gun hurls its rock at warrior, hitting on 3 or under: 1d10 [4] = 4\n  4: it scatters\n  the scatter's direction: 1d12 [3] = 3\n  how far it scatters: 1d6 [2] = 2\n  it lands 2\" away at (14, 16) (bearing 90°)\n  no one within 0.5\" of (14, 16)\n"),
        "{told_miss}"
    );
}

// Guards 9 "If it is not a hit, the shot scatters ... how many inches away from the target the
// shot landed": a miss that scatters 1" lands beside the warrior (its quarter-sized area touches
// his base) and does not strike him. (Broke when a 1" scatter still struck the target.)
#[test]
fn a_catapults_miss_never_strikes_its_target() {
    let z = vec![zulu("warrior", "zulu", 12.0, 16.0, "")];
    let g = battery("catapult", &z);
    let out = g.play(
        1,
        &format!("{}:dice manual\nfire gun warrior\n4\n3\n1\n", aiming("gun")),
    );
    let told = told(&out, "fire gun warrior");
    assert!(
        told.contains("  it lands 1\" away at (13, 16) (bearing 90°)\n  warrior was missed: the rock lands beside him\n  no one within 0.5\" of (13, 16)\n"),
        "{}",
        transcript(&out)
    );
    assert!(!told.contains("gun's rock on warrior"), "{told}");
}

// Guards 9 "HP=hit points/experience points for the weapon. This is the damage the weapon can
// sustain before becoming unusable. If the missile weapon takes less then the HP number in
// damage it is still in working condition." (default: damage less armour accumulates): the
// cannon (armour 4, 10 hit points) works after 5, and is wrecked at 10.
#[test]
fn a_gun_takes_damage_to_its_hit_points_and_is_wrecked_at_them() {
    let g = battery("cannon", &[zulu("warrior", "zulu", 12.0, 16.0, "")]);
    let out = g.play_refused(
        1,
        "_strike(unit(\"gun\"), 9, (), \"a test\")\n_strike(unit(\"gun\"), 9, (), \"a test\")\nload gun ball\n",
        &["gun is wrecked"],
    );
    out.stdout_has(&[
        "  9 damage against armour 4: 5 more, 5 of its 10 hit points: gun still works\n",
        "  9 damage against armour 4: 5 more, 10 in all, reaches its 10 hit points: gun is wrecked\n  gun is tagged `wrecked`\n",
    ]);
}

// ---------------------------------------------------------------------------------------------
// Grenades (9 "Grenade attacks can be thrown up to 8 inches"; the rest "to be done": defaults)
// ---------------------------------------------------------------------------------------------

/// A grenadier `gren` (experience 6, 2 grenades) at (12, 4) and Zulus as given.
fn grenadier(zulus: &[String]) -> Game {
    let b = vec![brit("gren", "grenadier", 12.0, 4.0, "")];
    game(&b, zulus, &pile("2H", 10))
}

// Guards 9 "Grenade attacks can be thrown up to 8 inches" and the default blast: a throw is a
// shot at the point; on a hit every figure within 2" takes 1d6+1 less armour (warrior and w2;
// w3 2.5" away is spared); 9" is too far.
#[test]
fn a_grenade_is_thrown_up_to_eight_inches_and_blasts_every_figure_within_two() {
    let z = vec![
        zulu("warrior", "zulu", 12.0, 10.0, ""),
        zulu("w2", "zulu", 14.0, 10.0, ""),
        zulu("w3", "zulu", 15.0, 10.0, ""),
    ];
    let aim = aiming("gren");
    let told = shot(&grenadier(&z), &aim, "grenade gren 12 10\n4\n3\n1\n");
    assert!(
        told.starts_with("  gren grenades: 2 -> 1\n  gren is tagged `fired`\ngren throws a grenade at (12, 10) (6\"), needing 6 or under\n  gren to hit: 1d10 [4] = 4\n  d10 4 against 6: hits\n  gren's grenade on warrior: 1d6+1 [3] + 1 = 4\n"),
        "{told}"
    );
    assert!(
        told.contains("  gren's grenade on w2: 1d6+1 [1] + 1 = 2\n"),
        "{told}"
    );
    assert!(!told.contains("on w3"), "{told}");
    grenadier(&z).play_refused(
        1,
        &format!("{aim}grenade gren 12 13\n"),
        &["(12, 13) is 9\" away: a grenade is thrown up to 8\""],
    );
}

// Guards the default for a missed grenade (as the catapult's rock, 9): it scatters 1d6" in the
// direction of a clock die, here 6 o'clock, 4" back toward the thrower, who is in the blast.
#[test]
fn a_missed_grenade_scatters_1d6_inches_and_strikes_friend_or_foe() {
    let z = vec![zulu("warrior", "zulu", 12.0, 10.0, "")];
    let aim = aiming("gren");
    let told = shot(&grenadier(&z), &aim, "grenade gren 12 10\n9\n6\n4\n1\n");
    assert!(
        told.contains("  d10 9 against 6: misses\n  the scatter's direction: 1d12 [6] = 6\n  how far it scatters: 1d6 [4] = 4\n  it lands 4\" away at (12, 6) (bearing 180°)\n  gren's grenade on gren: 1d6+1 [1] + 1 = 2\n"),
        "{told}"
    );
    assert!(!told.contains("on warrior"), "{told}");
}

// ---------------------------------------------------------------------------------------------
// 10.3 Mines
// ---------------------------------------------------------------------------------------------

/// A Zulu mine field square `mines_1` (3"x3") centred on (12, 10), a second `mines_2` north of
/// it, and pte_1 (experience 6) at (12, 4); the movement rules call `_mines_on_path` after every
/// move, which the tests do by hand.
fn minefield(extra_brit: &[String]) -> Game {
    let mut b = vec![brit("pte_1", "rifleman", 12.0, 4.0, "")];
    b.extend_from_slice(extra_brit);
    let z = vec![
        zulu("mines_1", "mine_field", 12.0, 10.0, ""),
        zulu("mines_2", "mine_field", 12.0, 13.0, ""),
        zulu("warrior", "zulu", 30.0, 20.0, ""),
    ];
    game(&b, &z, &pile("2H", 10))
}

// Guards 10.3 "When a soldier enters a mine field segment there is a 1-3 chance (1d10) per
// square that a mine will explode ... Treat an exploded mine like a grenade explosion with a
// radius of 2 inches": a 3 sets one off under pte_1; a 4 does not.
#[test]
fn a_mine_explodes_on_one_to_three_for_each_square_entered() {
    let into = "unit(\"pte_1\").move_to(12, 9)\n:dice manual\n_mines_on_path(unit(\"pte_1\"), point(12, 4), point(12, 9))\n";
    let out = minefield(&[]).play_ok(1, &format!("{into}3\n2\n"));
    assert_eq!(
        told(
            &out,
            "_mines_on_path(unit(\"pte_1\"), point(12, 4), point(12, 9))"
        ),
        "  pte_1 moves through the mine field mines_1: a mine goes off on 3 or under: 1d10 [3] = 3\n  3: a mine explodes under pte_1\n  a mine on pte_1: 1d6+1 [2] + 1 = 3\n  3 damage against armour 0: a wound of 3\n  pte_1 must save on 3 or under (experience 6 less 3)\n  flipped 2♥ from the cards deck\n  pte_1 save check: card 2♥ against 3: passes (2 is at or under 3)\n  pte_1 is saved\n=> true\n"
    );
    let out = minefield(&[]).play_ok(1, &format!("{into}4\n"));
    assert_eq!(
        told(
            &out,
            "_mines_on_path(unit(\"pte_1\"), point(12, 4), point(12, 9))"
        ),
        "  pte_1 moves through the mine field mines_1: a mine goes off on 3 or under: 1d10 [4] = 4\n  4: nothing\n=> true\n"
    );
}

// Guards 10.3 "Because he must roll each time he moves into or through a mine field segment, a
// soldier who has to stop in the mine field will have to roll at least twice" (correction after
// review: one roll per square a move enters or crosses, none for stopping): stopping inside is one
// roll, moving on out is a second; a move across both squares rolls for each; a path that misses
// the squares rolls none.
#[test]
fn a_soldier_rolls_for_each_mine_square_each_move_enters_or_crosses() {
    let out = minefield(&[]).play_ok(
        1,
        ":dice manual\n_mines_on_path(unit(\"pte_1\"), point(12, 4), point(12, 9))\n5\n_mines_on_path(unit(\"pte_1\"), point(12, 9), point(16, 9))\n6\n_mines_on_path(unit(\"pte_1\"), point(12, 4), point(12, 16))\n7\n8\n_mines_on_path(unit(\"pte_1\"), point(20, 4), point(20, 16))\n",
    );
    let rolls = |field: &str| {
        out.stdout
            .matches(&format!(
                "mine field {field}: a mine goes off on 3 or under: 1d10 ["
            ))
            .count()
    };
    assert_eq!(rolls("mines_1"), 3);
    assert_eq!(rolls("mines_2"), 1);
    assert_eq!(
        told(
            &out,
            "_mines_on_path(unit(\"pte_1\"), point(20, 4), point(20, 16))"
        ),
        "=> true\n"
    );
}

// Guards 10.3 "I haven't worked out how I will handle tanks and mines yet" (default: a vehicle
// that sets off a mine takes 2d10 less armour to its hit points, and its crew checks morale).
#[test]
fn a_vehicle_that_sets_off_a_mine_takes_2d10_to_its_hit_points() {
    let out = minefield(&[brit("tank", "tank", 20.0, 4.0, "")]).play_ok(
        1,
        ":dice manual\n_mines_on_path(unit(\"tank\"), point(12, 4), point(12, 9))\n1\n9 9\n",
    );
    assert_eq!(
        told(
            &out,
            "_mines_on_path(unit(\"tank\"), point(12, 4), point(12, 9))"
        ),
        "  tank moves through the mine field mines_1: a mine goes off on 3 or under: 1d10 [1] = 1\n  1: a mine explodes under tank\n  the mine under tank: 2d10 [9, 9] = 18\n  18 damage against armour 8: 10 more, 10 of its 20 hit points: tank still works\ntank checks morale: struck by a mine\n  flipped 2♥ from the cards deck\n  tank morale check: card 2♥ against 6: passes (2 is at or under 6)\n=> true\n"
    );
}

// ---------------------------------------------------------------------------------------------
// 5.2 Orders that give leave to fire
// ---------------------------------------------------------------------------------------------

// Guards 5.2 Volley Fire: "if he succeeds, all followers can shoot an aimed shot": played
// through the orders, pte_1 takes an aimed shot and the sergeant, who gave the order, has no
// leave to fire. (Broke when the narration of a group order emptied the order's name: Rhai's
// `replace` changes its string in place, so no one was given leave.)
#[test]
fn volley_fire_lets_every_follower_take_an_aimed_shot() {
    let g = rifleman_against_zulu(9.0, "");
    let out = g.play_refused(
        1,
        "order sgt volley_fire\nend_turn\nend_turn\nreveal sgt\nend_turn\nend_turn\n:dice manual\nshoot pte_1 warrior\n10\nshoot sgt warrior\n",
        &["sgt has no order to fire this turn"],
    );
    assert!(
        told(&out, "shoot pte_1 warrior").starts_with("pte_1 takes an aimed shot at warrior"),
        "{}",
        transcript(&out)
    );
}

// Guards 5.2 Independent Fire: "Soldiers under Independent Fire orders do not have to roll for
// an activation check until the leader either dies or gives different orders": the standing
// order alone lets pte_1 take an aimed shot.
#[test]
fn independent_fire_is_standing_leave_to_take_aimed_shots() {
    let g = rifleman_against_zulu(9.0, "");
    let told = shot(
        &g,
        &shooting("british", &[("pte_1", "independent_fire")]),
        "shoot pte_1 warrior\n10\n",
    );
    assert!(
        told.starts_with("pte_1 takes an aimed shot at warrior"),
        "{told}"
    );
}

// ---------------------------------------------------------------------------------------------
// House rules: every number of a shot is asked through a hook
// ---------------------------------------------------------------------------------------------

// Guards that each to-hit modifier, the reload number and the weapon's damage are asked through
// `to_hit_modifier`, `reload_on` and `damage`: a house rule making snap fire +1, reloading on 9
// and every shot 1d4 changes the shot as told.
#[test]
fn a_house_rule_changes_a_shots_modifiers_reload_and_damage_through_hooks() {
    let g = rifleman_against_zulu(5.0, "");
    g.write(
        "steady.rhai",
        "fn to_hit_modifier(v, info) { if info.why == \"snap fire\" { 1 } else { v } }\nfn reload_on(v, info) { 9 }\nfn damage(v, info) { \"1d4\" }\n",
    );
    let setup = format!(
        ":with {}\n{}unit(\"pte_1\").tag(\"unloaded\")\n",
        g.file("steady.rhai"),
        shooting("british", &[("pte_1", "_may snap")])
    );
    let told = shot(&g, &setup, "shoot pte_1 warrior\n9\n5\n2\n");
    assert!(
        told.starts_with(
            "  pte_1 reloads his rifle (9 or under): 1d10 [9] = 9\n  9 is at or under 9: loaded\n"
        ),
        "{told}"
    );
    assert!(
        told.contains(
            "  d10 5 +1 snap fire = 6 against 6: hits\n  damage of pte_1's rifle: 1d4 [2] = 2\n"
        ),
        "{told}"
    );
}

// Guards grapeshot (9) with exact odds: no to-hit roll, the Zulu in the cone takes 1d10 less
// armour 1. A 1 leaves nothing past the armour: a morale check, which the 5♥ passes against 6;
// a d10 of d >= 2 wounds d - 1, saved on 6 - (d - 1) = 7 - d, so the 5♥ saves only d = 2.
// Killed: d = 3 to 10, 8/10 = 4/5.
#[test]
fn exact_odds_of_grapeshot() {
    let g = battery("cannon", &[zulu("warrior", "zulu", 12.0, 10.0, "")]);
    let out = g.play_ok(
        1,
        &format!("load gun grape\n{}:odds fire gun warrior\n", aiming("gun")),
    );
    let printed = after(&out, ":odds fire gun warrior");
    assert!(printed.contains(": exact, over 10 branches"), "{printed}");
    assert_eq!(chance_at_prompt(&printed, "warrior removed"), "4/5");
    assert_eq!(chance_at_prompt(&printed, "no other change"), "1/5");
}

// Guards 6.2 "If they have reloaded then they may fire" (a figure begins the battle loaded):
// the state marked is the one that needs reloading, `unloaded`, set when he fires, so setting
// up says nothing of each musket. Broke: setup tagged every armed figure `loaded` (a line each).
#[test]
fn a_figure_begins_loaded_and_setting_up_says_nothing_of_it() {
    let (b, z) = rifle_and_zulu(5.0, "");
    let g = game(&b, &z, &pile("5H", 10));
    let out = g.play_ok(
        1,
        &format!(
            "{}:dice manual\nshoot pte_1 warrior\n9\n",
            shooting("british", &[("pte_1", "_may aim")])
        ),
    );
    assert!(
        !transcript(&out).contains("`loaded`"),
        "{}",
        transcript(&out)
    );
    assert!(
        told(&out, "shoot pte_1 warrior").starts_with("pte_1 takes an aimed shot at warrior with his rifle (5\"), needing 6 or under\n  pte_1 is tagged `unloaded`\n"),
        "{}",
        transcript(&out)
    );
}

// Guards 6.2 step 3 and example 2 ("leader influence and within command range can save the
// figure if the player flips a face card of the owning players color"): a save on -4 no number
// card can pass says that only a face card of the Zulus' colour can save him while a Zulu leader
// is within 3", and flips; with no leader near, no card can save him, and none is flipped.
// Broke: it flipped a card that could not save him without saying why.
#[test]
fn a_save_no_number_card_can_pass_says_what_could_save_him_or_flips_nothing() {
    let (b, z) = rifle_and_zulu(5.0, "");
    let aim = format!(
        "{}:dice manual\nshoot pte_1 warrior\n1\n10\n",
        shooting("british", &[("pte_1", "_may aim")])
    );
    let out = game(&b, &z, &pile("5H", 10)).play_ok(1, &aim);
    assert_eq!(
        told(&out, "shoot pte_1 warrior")
            .split_once("  warrior must save")
            .unwrap()
            .1,
        " on -4 or under (experience 6 less 10): no card can save him (no number card will do, and no leader is within command range for a face card of The Zulus's colour (black))\n  warrior is removed: killed by pte_1's rifle\n"
    );
    let mut z = z;
    z.push(zulu(
        "induna",
        "zulu",
        14.0,
        10.5,
        ", stats: { rank: leader }",
    ));
    let out = game(&b, &z, &["KS"; 10]).play_ok(1, &aim);
    assert_eq!(
        told(&out, "shoot pte_1 warrior")
            .split_once("  warrior must save")
            .unwrap()
            .1,
        " on -4 or under (experience 6 less 10): no number card will do; only a face card of The Zulus's colour (black) can save him, with induna within command range\n  flipped K♠ from the cards deck\n  warrior save check: card K♠, a face card, against -4: passes (of The Zulus's colour, with induna within command range)\n  warrior is saved\n"
    );
}
