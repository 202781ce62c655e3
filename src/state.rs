//! The state of one game and every change to it.
//!
//! [`GameState`] is plain data (battlefield, decks, generator, turn, log), cheap enough to
//! clone that a failed action can be rolled back by restoring a copy. Every method that changes
//! the game also appends an [`Event`] to the log: this is the one place changes happen, so
//! nothing escapes the log.

use std::collections::BTreeMap;

use crate::battlefield::Battlefield;
use crate::cards::{Card, CardError, Deck};
use crate::dice::{DiceError, DiceExpr, Roll};
use crate::event::Event;
use crate::geometry::{Point, normalize_degrees};
use crate::rng::GameRng;
use crate::scenario::{Scenario, Side};
use crate::unit::{Stat, Unit};

/// One game's state.
#[derive(Clone, Debug)]
pub struct GameState {
    /// The table and the units.
    pub battlefield: Battlefield,
    /// The sides, in the scenario's order.
    pub sides: Vec<Side>,
    /// The decks, by name.
    pub decks: BTreeMap<String, Deck>,
    /// The generator every roll and shuffle draws from.
    pub rng: GameRng,
    /// The turn number (0 before the first turn).
    pub turn: i64,
    /// The side to play.
    pub active_side: String,
    /// The side that played first (set by the first turn change).
    pub first_side: Option<String>,
    /// Everything that happened, in order.
    pub log: Vec<Event>,
}

impl GameState {
    /// A fresh game of `scenario` seeded with `seed`: logs the seed, then shuffles and cuts the
    /// scenario's decks.
    pub fn new(scenario: &Scenario, seed: u64) -> Self {
        let mut state = GameState {
            battlefield: scenario.battlefield.clone(),
            sides: scenario.sides.clone(),
            decks: BTreeMap::new(),
            rng: GameRng::new(seed),
            turn: 0,
            active_side: scenario
                .first
                .clone()
                .or_else(|| scenario.sides.first().map(|s| s.id.clone()))
                .unwrap_or_default(),
            first_side: None,
            log: Vec::new(),
        };
        state.log.push(Event::Seed { seed });
        state.log.push(Event::Scenario {
            name: scenario.name.clone(),
            ruleset: scenario.ruleset.file.name.clone(),
        });
        for (name, plan) in &scenario.decks {
            let mut deck = plan.deck.clone();
            if plan.shuffle {
                deck.shuffle(&mut state.rng);
                state.log.push(Event::Shuffle { deck: name.clone() });
            }
            if let Some(n) = plan.first {
                // The scenario loader checked n against the deck's size.
                let _ = deck.truncate_to(n);
            }
            state.decks.insert(name.clone(), deck);
        }
        state
    }

    /// The unit at an index (handles from scripts are indices).
    pub fn unit(&self, idx: usize) -> Result<&Unit, String> {
        self.battlefield
            .get(idx)
            .ok_or_else(|| "that unit is not in this game".to_string())
    }

    fn unit_mut(&mut self, idx: usize) -> Result<&mut Unit, String> {
        self.battlefield
            .get_mut(idx)
            .ok_or_else(|| "that unit is not in this game".to_string())
    }

    fn id(&self, idx: usize) -> String {
        self.battlefield
            .get(idx)
            .map(|u| u.id.clone())
            .unwrap_or_default()
    }

    /// Rolls a parsed expression and logs it.
    pub fn roll(&mut self, expr: &DiceExpr, why: Option<&str>) -> Result<Roll, DiceError> {
        let roll = expr.roll(&mut self.rng)?;
        self.log.push(Event::Roll {
            why: why.map(str::to_owned),
            roll: roll.clone(),
        });
        Ok(roll)
    }

    /// Parses, rolls and logs a dice expression.
    pub fn roll_text(&mut self, text: &str, why: Option<&str>) -> Result<Roll, DiceError> {
        let expr = DiceExpr::parse(text)?;
        self.roll(&expr, why)
    }

    /// Moves a unit, logging the distance.
    pub fn move_unit(&mut self, idx: usize, to: Point) -> Result<(), String> {
        if !(to.x.is_finite() && to.y.is_finite()) {
            return Err(format!("cannot move to {to}: not a point on the table"));
        }
        let unit = self.unit_mut(idx)?;
        let from = unit.pos;
        unit.pos = to;
        let unit = unit.id.clone();
        self.log.push(Event::Move {
            unit,
            from,
            to,
            distance: from.distance(to),
        });
        Ok(())
    }

    /// Turns a unit to a facing (degrees clockwise from north).
    pub fn face(&mut self, idx: usize, facing: f64) -> Result<(), String> {
        if !facing.is_finite() {
            return Err("a facing must be a finite number of degrees".into());
        }
        let to = normalize_degrees(facing);
        let unit = self.unit_mut(idx)?;
        let from = unit.facing;
        if (from - to).abs() < 1e-9 {
            return Ok(());
        }
        unit.facing = to;
        let unit = unit.id.clone();
        self.log.push(Event::Face { unit, from, to });
        Ok(())
    }

    fn change(&mut self, idx: usize, what: &str, from: Stat, to: Stat) {
        if from != to {
            let unit = self.id(idx);
            self.log.push(Event::Change {
                unit,
                what: what.into(),
                from,
                to,
            });
        }
    }

    /// Sets the hits a unit has taken.
    pub fn set_hits(&mut self, idx: usize, hits: i64) -> Result<(), String> {
        let unit = self.unit_mut(idx)?;
        let from = std::mem::replace(&mut unit.hits, hits);
        self.change(idx, "hits", Stat::Int(from), Stat::Int(hits));
        Ok(())
    }

    /// Sets the stands (or figures) a unit has left.
    pub fn set_stands(&mut self, idx: usize, stands: i64) -> Result<(), String> {
        let unit = self.unit_mut(idx)?;
        let from = std::mem::replace(&mut unit.stands, stands);
        self.change(idx, "stands", Stat::Int(from), Stat::Int(stands));
        Ok(())
    }

    /// Sets one of a unit's stats.
    pub fn set_stat(&mut self, idx: usize, name: &str, value: Stat) -> Result<(), String> {
        let unit = self.unit_mut(idx)?;
        let from = unit.stats.insert(name.to_string(), value.clone());
        self.change(idx, name, from.unwrap_or(Stat::Text("none".into())), value);
        Ok(())
    }

    /// Renames a unit.
    pub fn set_name(&mut self, idx: usize, name: &str) -> Result<(), String> {
        let unit = self.unit_mut(idx)?;
        let from = std::mem::replace(&mut unit.name, name.to_string());
        self.change(idx, "name", Stat::Text(from), Stat::Text(name.into()));
        Ok(())
    }

    /// Puts a status tag on a unit (or takes it off).
    pub fn set_tag(&mut self, idx: usize, tag: &str, on: bool) -> Result<(), String> {
        let unit = self.unit_mut(idx)?;
        let changed = if on {
            unit.tags.insert(tag.to_string())
        } else {
            unit.tags.remove(tag)
        };
        if changed {
            let unit = unit.id.clone();
            self.log.push(Event::Tag {
                unit,
                tag: tag.into(),
                on,
            });
        }
        Ok(())
    }

    /// Sets or clears a unit's membership of a kind of group.
    pub fn set_group(&mut self, idx: usize, kind: &str, name: Option<&str>) -> Result<(), String> {
        let unit = self.unit_mut(idx)?;
        let from = match name {
            Some(n) => unit.groups.insert(kind.into(), n.into()),
            None => unit.groups.remove(kind),
        };
        let none = || Stat::Text("none".into());
        let to = name.map_or_else(none, |n| Stat::Text(n.into()));
        self.change(idx, kind, from.map_or_else(none, Stat::Text), to);
        Ok(())
    }

    /// Takes a unit out of play.
    pub fn remove(&mut self, idx: usize, reason: &str) -> Result<(), String> {
        let unit = self.unit_mut(idx)?;
        if !unit.in_play {
            return Err(format!("`{}` is already out of play", unit.id));
        }
        unit.in_play = false;
        let unit = unit.id.clone();
        self.log.push(Event::Remove {
            unit,
            reason: reason.into(),
        });
        Ok(())
    }

    /// Brings a unit back into play.
    pub fn restore(&mut self, idx: usize) -> Result<(), String> {
        let unit = self.unit_mut(idx)?;
        if unit.in_play {
            return Ok(());
        }
        unit.in_play = true;
        let unit = unit.id.clone();
        self.log.push(Event::Restore { unit });
        Ok(())
    }

    /// Sets the turn number and the side to play.
    pub fn set_turn(&mut self, turn: i64, side: &str) -> Result<(), String> {
        if !self.sides.iter().any(|s| s.id == side) {
            let ids: Vec<&str> = self.sides.iter().map(|s| s.id.as_str()).collect();
            return Err(format!(
                "unknown side `{side}`{}",
                crate::suggest::suggestion_suffix(side, ids)
            ));
        }
        self.turn = turn;
        self.active_side = side.to_string();
        if self.first_side.is_none() {
            self.first_side = Some(side.to_string());
        }
        self.log.push(Event::Turn {
            turn,
            side: side.into(),
        });
        Ok(())
    }

    /// Narration from the rules.
    pub fn say(&mut self, text: impl Into<String>) {
        self.log.push(Event::Say { text: text.into() });
    }

    /// A deck by name.
    pub fn deck(&self, name: &str) -> Result<&Deck, String> {
        self.decks.get(name).ok_or_else(|| self.no_deck(name))
    }

    fn deck_mut(&mut self, name: &str) -> Result<&mut Deck, String> {
        if !self.decks.contains_key(name) {
            return Err(self.no_deck(name));
        }
        Ok(self.decks.get_mut(name).expect("checked above"))
    }

    fn no_deck(&self, name: &str) -> String {
        if self.decks.is_empty() {
            format!("no deck called `{name}`: this game has no decks")
        } else {
            format!(
                "no deck called `{name}`{}",
                crate::suggest::suggestion_suffix(name, self.decks.keys().map(String::as_str))
            )
        }
    }

    /// Adds (or replaces) a deck.
    pub fn add_deck(&mut self, deck: Deck) {
        self.decks.insert(deck.name().to_string(), deck);
    }

    /// Shuffles a deck's draw pile.
    pub fn shuffle(&mut self, name: &str) -> Result<(), String> {
        let GameState { decks, rng, .. } = self;
        decks
            .get_mut(name)
            .map(|d| d.shuffle(rng))
            .ok_or_else(|| self.no_deck(name))?;
        self.log.push(Event::Shuffle { deck: name.into() });
        Ok(())
    }

    /// Shuffles a deck's discards back into it.
    pub fn reshuffle(&mut self, name: &str) -> Result<(), String> {
        let GameState { decks, rng, .. } = self;
        decks
            .get_mut(name)
            .map(|d| d.reshuffle(rng))
            .ok_or_else(|| self.no_deck(name))?;
        self.log.push(Event::Reshuffle { deck: name.into() });
        Ok(())
    }

    /// Draws `n` cards (all or none).
    pub fn draw(&mut self, name: &str, n: usize) -> Result<Vec<Card>, String> {
        let cards = self
            .deck_mut(name)?
            .draw_n(n)
            .map_err(|e: CardError| e.to_string())?;
        self.log.push(Event::Draw {
            deck: name.into(),
            cards: cards.iter().map(Card::to_string).collect(),
        });
        Ok(cards)
    }

    /// Puts a card on a deck's discards.
    pub fn discard(&mut self, name: &str, card: Card) -> Result<(), String> {
        self.deck_mut(name)?.discard(card);
        self.log.push(Event::Discard {
            deck: name.into(),
            card: card.to_string(),
        });
        Ok(())
    }
}
