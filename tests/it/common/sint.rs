//! Small Soldiers in Time scenarios written for one test each: the British (red) on the south
//! edge against the Zulus (black) on the north, on a 36" x 24" table, with the deck stacked so
//! the cards come in the order a test gives.

use super::game::Game;

/// The scenario: `british` (south, red) and `zulus` (north, black), each a list of figures
/// (`&[String]` or `&[&str]`). `cards` stacks the deck (top first; the discards are shuffled
/// back when it runs out); `extra` goes before `sides:`.
pub fn scenario(
    british: &[impl AsRef<str>],
    zulus: &[impl AsRef<str>],
    cards: &[&str],
    extra: &str,
) -> String {
    let mut yaml =
        String::from("name: Test\nruleset: soldiers_in_time\ntable: { width: 36, depth: 24 }\n");
    if !cards.is_empty() {
        yaml.push_str(&format!(
            "decks:\n  cards: {{ cards: [{}], shuffle: false }}\n",
            cards.join(", ")
        ));
    }
    yaml.push_str(extra);
    yaml.push_str("sides:\n");
    let british: Vec<&str> = british.iter().map(AsRef::as_ref).collect();
    let zulus: Vec<&str> = zulus.iter().map(AsRef::as_ref).collect();
    for (id, name, edge, units) in [
        ("british", "The British", "south", british),
        ("zulus", "The Zulus", "north", zulus),
    ] {
        yaml.push_str(&format!(
            "  - id: {id}\n    name: {name}\n    edge: {edge}\n    units:\n"
        ));
        for u in units {
            yaml.push_str(&format!("      - {u}\n"));
        }
    }
    yaml
}

/// A figure of the British facing north: `brit("pte_1", "rifleman", 10.0, 4.0, "")`.
pub fn brit(id: &str, kind: &str, x: f64, y: f64, extra: &str) -> String {
    format!("{{ id: {id}, type: {kind}, at: [{x}, {y}]{extra} }}")
}

/// A figure of the British unit `first` facing north: `in_unit("pte_1", "rifleman", 12.0, 4.0,
/// ", tags: [routed]")`.
pub fn in_unit(id: &str, kind: &str, x: f64, y: f64, extra: &str) -> String {
    brit(
        id,
        kind,
        x,
        y,
        &format!(", groups: {{ unit: first }}{extra}"),
    )
}

/// A figure of the Zulus facing south.
pub fn zulu(id: &str, kind: &str, x: f64, y: f64, extra: &str) -> String {
    format!("{{ id: {id}, type: {kind}, at: [{x}, {y}], facing: 180{extra} }}")
}

/// A game of the two sides with the deck stacked.
pub fn game(british: &[impl AsRef<str>], zulus: &[impl AsRef<str>], cards: &[&str]) -> Game {
    Game::from_yaml(&scenario(british, zulus, cards, ""))
}

/// As [`game`], with YAML before `sides:` (terrain, data).
pub fn game_with(
    british: &[impl AsRef<str>],
    zulus: &[impl AsRef<str>],
    cards: &[&str],
    extra: &str,
) -> Game {
    Game::from_yaml(&scenario(british, zulus, cards, extra))
}

/// A sergeant (leader, experience 8) at (10, 4) with a rifleman `pte_1` (experience 6) 1" from
/// him at (12, 4), both of the unit `first`, facing north.
pub fn sergeant_and_rifleman() -> Vec<String> {
    vec![
        in_unit("sgt", "sergeant", 10.0, 4.0, ""),
        in_unit("pte_1", "rifleman", 12.0, 4.0, ""),
    ]
}

/// [`sergeant_and_rifleman`] and a second rifleman of the unit, `pte_2`, 10" from the
/// sergeant at (22, 4): beyond his command range.
pub fn sergeant_and_two_riflemen() -> Vec<String> {
    let mut men = sergeant_and_rifleman();
    men.push(in_unit("pte_2", "rifleman", 22.0, 4.0, ""));
    men
}

/// One Zulu `warrior` at `(x, y)`, facing south.
pub fn warrior_at(x: f64, y: f64) -> Vec<String> {
    vec![zulu("warrior", "zulu", x, y, "")]
}

/// One Zulu `warrior` far to the north, at (10, 20).
pub fn one_zulu() -> Vec<String> {
    warrior_at(10.0, 20.0)
}

/// A game of [`sergeant_and_two_riflemen`] against [`one_zulu`] with the deck stacked.
pub fn section_game(cards: &[&str]) -> Game {
    game(&sergeant_and_two_riflemen(), &one_zulu(), cards)
}

/// Prompt lines: the command phase's `orders` (each `FIGURE ORDER`, the British writing them
/// and the Zulus none), both sides ending it, then the movement phase begins and `then` is
/// played, a line each.
pub fn orders_then(orders: &[&str], then: &[&str]) -> String {
    let mut s = String::new();
    for o in orders {
        s.push_str(&format!("order {o}\n"));
    }
    s.push_str("end_turn\nend_turn\n");
    for t in then {
        s.push_str(t);
        s.push('\n');
    }
    s
}

/// Prompt lines: `order` (`FIGURE ORDER`) written in the command phase, then, when the
/// movement phase begins, the figure's order revealed (`reveal FIGURE`).
pub fn order_and_reveal(order: &str) -> String {
    let figure = order.split_whitespace().next().expect("a figure");
    orders_then(&[order], &[&format!("reveal {figure}")])
}

/// A game of [`sergeant_and_rifleman`] against one Zulu `warrior` at `(x, y)`, the deck
/// stacked.
pub fn sergeant_and_rifleman_against(x: f64, y: f64, cards: &[&str]) -> Game {
    game(&sergeant_and_rifleman(), &warrior_at(x, y), cards)
}

/// The phases of a turn in order, as the table calls them (`ruleset.yaml` `phases:`).
#[allow(dead_code)]
pub const PHASE_NAMES: [&str; 8] = [
    "rally",
    "orders",
    "horses move",
    "men move",
    "vehicles move",
    "shooting",
    "melee",
    "follow-through",
];
