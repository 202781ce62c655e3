//! Saved games: the whole game in a readable JSON file.
//!
//! A save holds the scenario's path, the units, the decks in order, the generator's state,
//! the turn, the abilities' uses and the log; opening it loads the scenario's scripts afresh
//! and puts that state in place, so the continued game is the one that was saved. (Variables
//! typed at the prompt are not saved.)
//!
//! A save is shared between strangers like a scenario, so the files it names (its scenario
//! and house rules) are named relative to the save's folder or to the project's, and read
//! back only from there (`game::confine`: no `..`, no absolute path, no symlink out).
//!
//! A save is written only to a regular file or a name not yet taken: a folder, a device
//! (`/dev/null`), a FIFO or a symlink is refused. It goes to a temporary file created afresh
//! (exclusively, under a random name) in the target's folder, is flushed to the disk, and
//! is then renamed over the target; if anything fails, the temporary file is removed and the
//! target is as it was.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::error::{Error, read_file};
use crate::game::ability::AbilityUse;
use crate::game::confine::{self, Refused};
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

    /// The same save naming its scenario and house rules as a save at `path` must: relative
    /// to the save's folder when they are inside it, else to the project folder `project`.
    /// A file in neither could not be opened again, so it is refused, saying where to save.
    pub fn naming_from(mut self, path: &Path, project: &Path) -> Result<SavedGame, Error> {
        let folder = crate::game::project::folder_of(path);
        let name = |file: &Path, what: &str| {
            confine::relative_to(file, &folder)
                .or_else(|| confine::relative_to(file, project))
                .ok_or_else(|| {
                    Error::other(
                        format!(
                            "cannot save to `{}`: {what} `{}` is neither in the save's folder nor in the project, so the save could not be opened again",
                            path.display(),
                            file.display()
                        ),
                        Some(format!(
                            "save the game in the folder of {what} or one above it, e.g. `:save {}`",
                            crate::game::project::folder_of(file).join("game.json").display()
                        )),
                    )
                })
        };
        self.scenario = name(&self.scenario, "the scenario")?;
        if let Some(rules) = &self.house_rules {
            let named: Result<Vec<PathBuf>, Error> =
                rules.iter().map(|r| name(r, "the house rule")).collect();
            self.house_rules = Some(named?);
        }
        Ok(self)
    }

    /// Writes the save to `path` (see the module docs).
    pub fn write(&self, path: &Path) -> Result<(), Error> {
        let text = serde_json::to_string_pretty(self)
            .map_err(|e| Error::other(format!("cannot save the game: {e}"), None))?;
        let io = |reason| Error::Io {
            action: "write",
            path: path.to_path_buf(),
            reason,
        };
        match std::fs::symlink_metadata(path) {
            Ok(meta) if meta.file_type().is_file() => {}
            Ok(meta) => {
                return Err(Error::other(
                    format!(
                        "cannot save to `{}`: it is {}, not a file",
                        path.display(),
                        kind_of(&meta.file_type())
                    ),
                    Some(
                        "save to a new file name, or over a saved game you mean to replace".into(),
                    ),
                ));
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(io(e)),
        }
        let folder = crate::game::project::folder_of(path);
        if !folder.is_dir() {
            return Err(Error::other(
                format!(
                    "cannot save to `{}`: there is no folder `{}`",
                    path.display(),
                    folder.display()
                ),
                Some("make the folder first, or save somewhere else".into()),
            ));
        }
        // Dropped on any failure below, which removes it. (tempfile's error names the
        // temporary file, which means nothing to a player: keep only its kind.)
        let mut tmp = tempfile::Builder::new()
            .prefix(".sandtable-save-")
            .suffix(".partial")
            .tempfile_in(&folder)
            .map_err(|e| io(std::io::Error::from(e.kind())))?;
        tmp.write_all(text.as_bytes()).map_err(io)?;
        tmp.as_file().sync_all().map_err(io)?;
        tmp.persist(path).map_err(|e| io(e.error))?;
        // The rename itself reaches the disk when the folder is flushed (not every system
        // can open a folder for that, so a failure here loses nothing already written).
        if let Ok(dir) = std::fs::File::open(&folder) {
            let _ = dir.sync_all();
        }
        Ok(())
    }

    /// The scenario and house rules the save at `path` names, found as [`Self::naming_from`]
    /// named them: under the save's folder, else under the project folder `project`; a path
    /// that is absolute, climbs with `..` or is a symlink leading out is refused unread.
    pub fn files(
        &self,
        path: &Path,
        project: &Path,
    ) -> Result<(PathBuf, Option<Vec<PathBuf>>), Error> {
        let folder = crate::game::project::folder_of(path);
        let find = |rel: &Path, what: &str| -> Result<PathBuf, Error> {
            let mut refused = None;
            for root in [folder.as_path(), project] {
                match confine::inside(root, rel) {
                    Ok(_) if root == Path::new(".") => return Ok(rel.to_path_buf()),
                    Ok(_) => return Ok(root.join(rel)),
                    Err(Refused::Missing(_)) => {}
                    Err(e) => {
                        refused.get_or_insert(e);
                    }
                }
            }
            let (message, help) = match refused {
                Some(Refused::NotPlain(_)) => (
                    format!(
                        "names {what} `{}`, a path that leads outside the save's folder and the project; it was not read",
                        rel.display()
                    ),
                    "a save names its files relative to its own folder or to the project, without `..`",
                ),
                Some(Refused::Outside { .. }) => (
                    format!(
                        "names {what} `{}`, a link that leads outside its folder; it was not read",
                        rel.display()
                    ),
                    "copy the file into the save's folder instead of linking to it",
                ),
                Some(Refused::NotAFile(file)) => (
                    format!("names {what} `{}`, which is not a file", file.display()),
                    "a save names the files it was played with",
                ),
                _ => (
                    format!(
                        "names {what} `{}`, which is neither in the save's folder nor in the project",
                        rel.display()
                    ),
                    "put the save beside its scenario, or open it in the project it was saved in",
                ),
            };
            Err(Error::other(
                format!("the save `{}` {message}", path.display()),
                Some(help.into()),
            ))
        };
        let scenario = find(&self.scenario, "the scenario")?;
        let rules = match &self.house_rules {
            Some(rules) => Some(
                rules
                    .iter()
                    .map(|r| find(r, "the house rule"))
                    .collect::<Result<Vec<_>, _>>()?,
            ),
            None => None,
        };
        Ok((scenario, rules))
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

/// What a file that is not a regular file is, in words.
fn kind_of(kind: &std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_fifo() {
            return "a FIFO (a named pipe)";
        }
        if kind.is_char_device() || kind.is_block_device() {
            return "a device";
        }
        if kind.is_socket() {
            return "a socket";
        }
    }
    if kind.is_dir() {
        "a folder"
    } else if kind.is_symlink() {
        "a symbolic link (name the file itself)"
    } else {
        "not a regular file"
    }
}
