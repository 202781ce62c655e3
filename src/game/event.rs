//! The event log: everything that happens in a game, as data.
//!
//! Every roll, draw, shuffle, move and state change is an [`Event`]. Front ends render events
//! as readable text ([`Event::to_text`]) or as one JSON object per line (`--json`, via serde);
//! [`render`] does either for a run of events.

use serde::{Deserialize, Serialize};

use crate::host::dice::Roll;
use crate::host::geometry::Point;
use crate::host::unit::Stat;

/// One thing that happened.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Event {
    /// The generator's seed, first in every log.
    Seed { seed: u64 },
    /// A scenario was set up.
    Scenario { name: String, ruleset: String },
    /// Dice were rolled.
    Roll {
        #[serde(skip_serializing_if = "Option::is_none")]
        why: Option<String>,
        roll: Roll,
    },
    /// A deck was made (or replaced) by a script.
    NewDeck { deck: String, cards: usize },
    /// A deck was shuffled.
    Shuffle { deck: String },
    /// Cards were drawn.
    Draw { deck: String, cards: Vec<String> },
    /// Cards were turned face up from the top of a deck onto its discards.
    Flip { deck: String, cards: Vec<String> },
    /// A card went to a deck's discards.
    Discard { deck: String, card: String },
    /// A deck's discards were shuffled back into it.
    Reshuffle { deck: String },
    /// A unit moved.
    Move {
        unit: String,
        from: Point,
        to: Point,
        distance: f64,
    },
    /// A unit turned.
    Face { unit: String, from: f64, to: f64 },
    /// One of a unit's numbers or stats changed.
    Change {
        unit: String,
        what: String,
        from: Stat,
        to: Stat,
    },
    /// One of the game's own stats changed (`none` when it was new or is removed).
    GameStat { name: String, from: Stat, to: Stat },
    /// A status tag was put on or taken off a unit.
    Tag { unit: String, tag: String, on: bool },
    /// A unit's special ability was used, came into force or ended.
    Ability {
        unit: String,
        ability: String,
        what: String,
    },
    /// A unit left play.
    Remove { unit: String, reason: String },
    /// A new unit came onto the table.
    Spawn { unit: String, at: Point },
    /// A unit came back into play.
    Restore { unit: String },
    /// The turn or the side to play changed.
    Turn { turn: i64, side: String },
    /// The phase of the turn changed (`""`: no phase).
    Phase {
        phase: String,
        /// What the ruleset calls it at the table, when it gives a name.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        name: Option<String>,
    },
    /// The rules narrate.
    Say { text: String },
    /// A script printed.
    Print { text: String },
    /// A script's debug output.
    Debug { text: String },
}

impl Event {
    /// The event as one line of narration.
    pub fn to_text(&self) -> String {
        match self {
            Event::Seed { seed } => format!("seed {seed}"),
            Event::Scenario { name, ruleset } => format!("scenario {name} ({ruleset})"),
            Event::Roll { why, roll } => match why {
                Some(why) => format!("  {why}: {} {roll}", roll.expr),
                None => format!("  {}: {roll}", roll.expr),
            },
            Event::NewDeck { deck, cards } => format!(
                "  new deck `{deck}` of {cards} card{}",
                if *cards == 1 { "" } else { "s" }
            ),
            Event::Shuffle { deck } => format!("  shuffled the {deck} deck"),
            Event::Draw { deck, cards } => {
                format!("  drew {} from the {deck} deck", cards.join(" "))
            }
            Event::Flip { deck, cards } => {
                format!("  flipped {} from the {deck} deck", cards.join(" "))
            }
            Event::Discard { deck, card } => format!("  discarded {card} to the {deck} deck"),
            Event::Reshuffle { deck } => {
                format!("  shuffled the {deck} deck's discards back into it")
            }
            Event::Move {
                unit,
                from,
                to,
                distance,
            } => format!("  {unit} moves {} from {from} to {to}", inches(*distance)),
            Event::Face { unit, from, to } => {
                format!("  {unit} turns from {} to {}", degrees(*from), degrees(*to))
            }
            Event::Change {
                unit,
                what,
                from,
                to,
            } => format!("  {unit} {what}: {from} -> {to}"),
            Event::GameStat { name, from, to } => format!("  game {name}: {from} -> {to}"),
            Event::Tag {
                unit,
                tag,
                on: true,
            } => format!("  {unit} is tagged `{tag}`"),
            Event::Tag {
                unit,
                tag,
                on: false,
            } => format!("  {unit} loses the tag `{tag}`"),
            Event::Remove { unit, reason } => format!("  {unit} is removed: {reason}"),
            Event::Ability { unit, what, .. } => format!("  {unit}: {what}"),
            Event::Spawn { unit, at } => format!("  {unit} comes onto the table at {at}"),
            Event::Restore { unit } => format!("  {unit} returns to play"),
            Event::Turn { turn, side } => format!("turn {turn}: {side} to play"),
            Event::Phase { phase, .. } if phase.is_empty() => "phase: (none)".into(),
            Event::Phase {
                name: Some(name), ..
            } => format!("phase: {name}"),
            Event::Phase { phase, .. } => format!("phase: {phase}"),
            Event::Say { text } => text.clone(),
            Event::Print { text } => text.clone(),
            Event::Debug { text } => format!("[debug] {text}"),
        }
    }

    /// Roughly how many bytes the event holds, to bound what one action may log.
    pub fn size_hint(&self) -> usize {
        let text = match self {
            Event::Say { text } | Event::Print { text } | Event::Debug { text } => text.len(),
            Event::Change { from, to, .. } => stat_len(from) + stat_len(to),
            Event::GameStat { name, from, to } => name.len() + stat_len(from) + stat_len(to),
            Event::Remove { reason, .. } => reason.len(),
            Event::Roll { why, roll } => {
                why.as_ref().map_or(0, String::len) + 8 * roll.dice_count()
            }
            Event::Draw { cards, .. } | Event::Flip { cards, .. } => 4 * cards.len(),
            Event::Phase { phase, name } => phase.len() + name.as_ref().map_or(0, String::len),
            _ => 0,
        };
        64 + text
    }

    /// The event as one line of JSON.
    pub fn to_json(&self) -> String {
        // Events hold only strings, numbers and plain structs, so serialising cannot fail;
        // fall back to a JSON string of the text rather than panic all the same.
        serde_json::to_string(self)
            .unwrap_or_else(|e| format!("{{\"event\":\"error\",\"text\":{:?}}}", e.to_string()))
    }
}

fn stat_len(s: &Stat) -> usize {
    match s {
        Stat::Text(t) => t.len(),
        Stat::List(items) => items.iter().map(stat_len).sum::<usize>() + 8,
        _ => 8,
    }
}

/// Renders events for the player: one line of text each, or one JSON object each (`--json`).
pub fn render(events: &[Event], json: bool) -> String {
    let mut out = String::new();
    for e in events {
        out.push_str(&if json { e.to_json() } else { e.to_text() });
        out.push('\n');
    }
    out
}

/// `2"` or `1.5"`: a distance in inches as wargamers write it.
pub fn inches(d: f64) -> String {
    format!("{}\"", trim_number(d))
}

/// A facing as `90°`.
pub fn degrees(d: f64) -> String {
    format!("{}°", trim_number(d))
}

/// A number with at most two decimals and no trailing zeros.
pub fn trim_number(x: f64) -> String {
    let s = format!("{:.2}", x);
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" { "0".into() } else { s.into() }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_print_as_wargamers_write_them() {
        assert_eq!(inches(2.0), "2\"");
        assert_eq!(inches(1.5), "1.5\"");
        assert_eq!(inches(1.333333), "1.33\"");
        assert_eq!(degrees(-0.0001), "0°");
    }

    #[test]
    fn events_render_as_text_and_json() {
        let e = Event::Remove {
            unit: "legionary_1".into(),
            reason: "killed by viking_1".into(),
        };
        assert_eq!(e.to_text(), "  legionary_1 is removed: killed by viking_1");
        assert_eq!(
            e.to_json(),
            r#"{"event":"remove","unit":"legionary_1","reason":"killed by viking_1"}"#
        );
        let back: Event = serde_json::from_str(&e.to_json()).unwrap();
        assert_eq!(back, e);
    }
}
