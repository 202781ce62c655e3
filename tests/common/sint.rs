//! Small Soldiers in Time scenarios written for one test each: the British (red) on the south
//! edge against the Zulus (black) on the north, on a 36" x 24" table, with the deck stacked so
//! the cards come in the order a test gives.

use super::game::{Game, Units};

/// The scenario: `british` (south, red) and `zulus` (north, black). `cards` stacks the deck
/// (top first; the discards are shuffled back when it runs out); `extra` goes before `sides:`.
pub fn scenario(british: Units, zulus: Units, cards: &[&str], extra: &str) -> String {
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

/// A figure of the Zulus facing south.
pub fn zulu(id: &str, kind: &str, x: f64, y: f64, extra: &str) -> String {
    format!("{{ id: {id}, type: {kind}, at: [{x}, {y}], facing: 180{extra} }}")
}

/// A game of the two sides with the deck stacked.
pub fn game(british: Units, zulus: Units, cards: &[&str]) -> Game {
    Game::from_yaml(&scenario(british, zulus, cards, ""))
}

/// As [`game`], with YAML before `sides:` (terrain, data).
pub fn game_with(british: Units, zulus: Units, cards: &[&str], extra: &str) -> Game {
    Game::from_yaml(&scenario(british, zulus, cards, extra))
}
