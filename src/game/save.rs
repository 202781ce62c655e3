//! Saved games: the whole game in a readable JSON file.
//!
//! A save holds the scenario's path, the units, the decks in order, the generator's state,
//! the turn, the abilities' uses and the log; opening it loads the scenario's scripts afresh
//! and puts that state in place, so the continued game is the one that was saved. (Variables
//! typed at the prompt are not saved.) Files are written atomically: to a temporary file
//! beside the target, then renamed over it.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::error::{Error, read_file};
use crate::game::ability::AbilityUse;
use crate::game::event::Event;
use crate::game::state::GameState;
use crate::host::cards::Deck;
use crate::host::rng::GameRng;
use crate::host::unit::Unit;

/// The version of the save format.
pub const FORMAT: u32 = 1;

/// The generator's whole state.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SavedRng {
    /// The seed.
    pub seed: u64,
    /// The stream.
    pub stream: u64,
    /// Words drawn so far (a string: it may not fit a JSON number).
    pub word_pos: String,
}

/// One unit's use of one ability.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SavedUse {
    /// The unit's id.
    pub unit: String,
    /// The ability.
    pub ability: String,
    /// How it has been used.
    #[serde(flatten)]
    pub state: AbilityUse,
}

/// A saved game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SavedGame {
    /// The save format's version.
    pub format: u32,
    /// The scenario file the game was started from.
    pub scenario: PathBuf,
    /// The generator.
    pub rng: SavedRng,
    /// The turn number.
    pub turn: i64,
    /// The side to play.
    pub active_side: String,
    /// The side that played first.
    pub first_side: Option<String>,
    /// Sides' turns begun so far.
    pub plays: i64,
    /// Every unit, in play or not.
    pub units: Vec<Unit>,
    /// The decks, with their cards in order.
    pub decks: BTreeMap<String, Deck>,
    /// How units have used their abilities.
    pub ability_uses: Vec<SavedUse>,
    /// Everything that happened.
    pub log: Vec<Event>,
    /// The house rules in force, in the order they apply (saves made before house rules
    /// could change mid-game have none: the scenario's own are in force).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub house_rules: Option<Vec<PathBuf>>,
}

impl SavedGame {
    /// The save of a game.
    pub fn of(scenario: &Path, house_rules: &[PathBuf], state: &GameState) -> SavedGame {
        let units = state.battlefield.units().to_vec();
        SavedGame {
            house_rules: Some(house_rules.to_vec()),
            format: FORMAT,
            scenario: scenario.to_path_buf(),
            rng: SavedRng {
                seed: state.rng.seed(),
                stream: state.rng.stream(),
                word_pos: state.rng.word_pos().to_string(),
            },
            turn: state.turn,
            active_side: state.active_side.clone(),
            first_side: state.first_side.clone(),
            plays: state.plays,
            ability_uses: state
                .ability_uses
                .iter()
                .map(|((idx, ability), state)| SavedUse {
                    unit: units.get(*idx).map(|u| u.id.clone()).unwrap_or_default(),
                    ability: ability.clone(),
                    state: state.clone(),
                })
                .collect(),
            units,
            decks: state.decks.clone(),
            log: state.log.clone(),
        }
    }

    /// Writes the save, atomically.
    pub fn write(&self, path: &Path) -> Result<(), Error> {
        let text = serde_json::to_string_pretty(self)
            .map_err(|e| Error::other(format!("cannot save the game: {e}"), None))?;
        let io = |reason| Error::Io {
            action: "write",
            path: path.to_path_buf(),
            reason,
        };
        let mut tmp = path.as_os_str().to_owned();
        tmp.push(".partial");
        let tmp = PathBuf::from(tmp);
        std::fs::write(&tmp, text).map_err(io)?;
        std::fs::rename(&tmp, path).map_err(io)
    }

    /// Reads a save.
    pub fn read(path: &Path) -> Result<SavedGame, Error> {
        let text = read_file(path)?;
        let save: SavedGame = serde_json::from_str(&text).map_err(|e| {
            Error::other(
                format!("`{}` is not a sandtable save: {e}", path.display()),
                Some("saves are written by `:save FILE` at the prompt".into()),
            )
        })?;
        if save.format != FORMAT {
            return Err(Error::other(
                format!(
                    "`{}` is a save of format {}; this sandtable reads format {FORMAT}",
                    path.display(),
                    save.format
                ),
                None,
            ));
        }
        Ok(save)
    }

    /// Puts the saved game into a state freshly made from the same scenario.
    pub fn restore_into(self, state: &mut GameState) -> Result<(), Error> {
        let word_pos: u128 = self
            .rng
            .word_pos
            .parse()
            .map_err(|_| Error::other("the save's generator state is damaged", None))?;
        state.battlefield.set_units(self.units);
        let index = |id: &str| state.battlefield.index_of(id);
        let mut uses = BTreeMap::new();
        for u in self.ability_uses {
            let idx = index(&u.unit).ok_or_else(|| {
                Error::other(format!("the save names unknown unit `{}`", u.unit), None)
            })?;
            uses.insert((idx, u.ability), u.state);
        }
        state.ability_uses = uses;
        state.decks = self.decks;
        state.rng = GameRng::restore(self.rng.seed, self.rng.stream, word_pos);
        state.turn = self.turn;
        state.active_side = self.active_side;
        state.first_side = self.first_side;
        state.plays = self.plays;
        state.log = self.log;
        state.commit();
        Ok(())
    }
}
