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
//! target is as it was. A file saved over keeps its mode (who may read it). A temporary file
//! left by a save that was killed is removed by the next save into that folder
//! ([`remove_stale_partials`]).

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::error::{Error, YamlDiagnostic, line_col_to_byte, read_file_within};
use crate::game::ability::AbilityUse;
use crate::game::confine::{self, Refused};
use crate::game::event::Event;
use crate::game::scenario::Scenario;
use crate::game::state::GameState;
use crate::host::cards::{Card, Deck};
use crate::host::rng::GameRng;
use crate::host::unit::{Stat, Unit};
use crate::limits::{MAX_DECK, MAX_UNITS};

pub use crate::limits::{MAX_SAVE_BYTES, MAX_SAVED_LOG_BYTES};

fn is_zero(n: &usize) -> bool {
    *n == 0
}

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
    /// The phase of the turn (saves made before there were phases have none).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub phase: String,
    /// Every unit, in play or not.
    pub units: Vec<Unit>,
    /// The decks, with their cards in order.
    pub decks: BTreeMap<String, Deck>,
    /// How units have used their abilities.
    pub ability_uses: Vec<SavedUse>,
    /// The game's own stats (saves made before there were any have none).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub game_stats: BTreeMap<String, Stat>,
    /// What happened: the newest events, at most [`MAX_SAVED_LOG_BYTES`] of them as JSON.
    pub log: Vec<Event>,
    /// How many older events the log has dropped (the game's own, past `MAX_LOG_BYTES`, and
    /// those the save left out past [`MAX_SAVED_LOG_BYTES`]).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub log_dropped: usize,
    /// The house rules in force, in the order they apply (saves made before house rules
    /// could change mid-game have none: the scenario's own are in force).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub house_rules: Option<Vec<PathBuf>>,
}

impl SavedGame {
    /// The save of a game.
    pub fn of(scenario: &Path, house_rules: &[PathBuf], state: &GameState) -> SavedGame {
        let units = state.battlefield.units().to_vec();
        // The newest events whose JSON fits, so that every save written opens again.
        let mut kept = 0;
        let mut json = 0;
        for event in state.log.iter().rev() {
            // As the save writes it: pretty, each line four spaces in, then a comma.
            let text = serde_json::to_string_pretty(event).unwrap_or_default();
            json += text.len() + 4 * (text.matches('\n').count() + 1) + 2;
            if json > MAX_SAVED_LOG_BYTES {
                break;
            }
            kept += 1;
        }
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
            phase: state.phase.clone(),
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
            game_stats: state.game_stats.clone(),
            decks: state.decks.clone(),
            log: state.log[state.log.len() - kept..].to_vec(),
            log_dropped: state.log_dropped() + state.log.len() - kept,
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

    /// The save's text, as [`SavedGame::write`] writes it.
    pub fn text(&self) -> Result<String, Error> {
        serde_json::to_string_pretty(self)
            .map_err(|e| Error::other(format!("cannot save the game: {e}"), None))
    }

    /// Writes the save to `path` (see the module docs).
    pub fn write(&self, path: &Path) -> Result<(), Error> {
        let text = self.text()?;
        let io = |reason| Error::Io {
            action: "write",
            path: path.to_path_buf(),
            reason,
        };
        let replaced = match std::fs::symlink_metadata(path) {
            Ok(meta) if meta.file_type().is_file() => Some(meta.permissions()),
            Ok(meta) => {
                return Err(Error::other(
                    format!(
                        "cannot save to `{}`: it is {}, not a file",
                        path.display(),
                        confine::kind_of(&meta.file_type())
                    ),
                    Some(
                        "save to a new file name, or over a saved game you mean to replace".into(),
                    ),
                ));
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
            Err(e) => return Err(io(e)),
        };
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
        // temporary file, which means nothing to a player: keep only why.)
        let mut tmp = tempfile::Builder::new()
            .prefix(&format!("{PARTIAL_PREFIX}{}-", std::process::id()))
            .suffix(PARTIAL_SUFFIX)
            .tempfile_in(&folder)
            .map_err(|e| {
                let why = e.raw_os_error().map_or_else(
                    || std::io::Error::from(e.kind()),
                    std::io::Error::from_raw_os_error,
                );
                Error::other(
                    format!(
                        "cannot save to `{}`: no file can be made in its folder `{}` ({})",
                        path.display(),
                        folder.display(),
                        crate::error::io_reason(&why)
                    ),
                    Some("save into a folder of your own".into()),
                )
            })?;
        remove_stale_partials(&folder, tmp.path());
        // The file saved over keeps its mode (the temporary file is made readable by its
        // owner only).
        if let Some(mode) = replaced {
            tmp.as_file().set_permissions(mode).map_err(io)?;
        }
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
                Some(Refused::NotAFile { file, kind }) => (
                    format!(
                        "names {what} `{}`, which is {kind}, not a file",
                        file.display()
                    ),
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

    /// Reads a save; a file that is not one is an error at its line and column. Its values
    /// are checked against its scenario by [`SavedGame::check`].
    pub fn read(path: &Path) -> Result<SavedGame, Error> {
        Ok(Self::read_text(path)?.0)
    }

    /// Reads a save, and gives its text too (for [`SavedGame::check`]).
    pub fn read_text(path: &Path) -> Result<(SavedGame, String), Error> {
        let text = read_file_within(path, "a save", MAX_SAVE_BYTES, "MAX_SAVE_BYTES")?;
        let save: SavedGame = serde_json::from_str(&text).map_err(|e| {
            let name = path.display().to_string();
            let message = e.to_string();
            // serde_json ends its message with the place, which the diagnostic shows.
            let message = match message.rfind(" at line ") {
                Some(i) => message[..i].to_string(),
                None => message,
            };
            let start = line_col_to_byte(&text, e.line().max(1), e.column().max(1));
            // A bracket left open: name it, not the word where reading stopped.
            if e.classify() == serde_json::error::Category::Syntax
                && let Some(open) = crate::game::yaml::unclosed_at(&text, start)
                && crate::game::yaml::never_closed(&text, open)
            {
                return Error::from(crate::game::yaml::unclosed_bracket_error(
                    &name,
                    &text,
                    open,
                    e.line(),
                ));
            }
            Error::from(YamlDiagnostic::new(
                &name,
                text.as_str(),
                start..start,
                format!("`{name}` is not a sandtable save: {message}"),
                "here",
                Some("saves are written by `:save FILE` at the prompt".into()),
            ))
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
        Ok((save, text))
    }

    /// Checks a save's values as a scenario's are checked, against the scenario it names:
    /// every unit's id (well formed, and one unit to an id), side, troop type, stats of the
    /// troop chart (a number stays a number), position, base and counts the table can hold;
    /// the turn, the side to play, the phase, the game's own stats, and no more than [`MAX_UNITS`] units. A value that fails
    /// is an error at its line and column in `text`, the save's text.
    pub fn check(&self, name: &str, text: &str, scenario: &Scenario) -> Result<(), Error> {
        let spans = json_spans(text);
        let at = |path: &str, message: String, help: Option<String>| -> Error {
            let bytes = spans.get(path).cloned().unwrap_or(0..1);
            YamlDiagnostic::new(name, text, bytes, message, "here", help).into()
        };
        let sides: Vec<&str> = scenario.sides.iter().map(|s| s.id.as_str()).collect();
        let side_help = || {
            Some(format!(
                "the sides of the scenario are: {}",
                sides.join(", ")
            ))
        };
        if self.units.len() > MAX_UNITS {
            return Err(at(
                "units",
                format!(
                    "the save has {} units, and a game has at most {MAX_UNITS}",
                    self.units.len()
                ),
                None,
            ));
        }
        if self.turn < 1 || self.turn > i64::from(u32::MAX) {
            return Err(at(
                "turn",
                format!("the turn must be a number from 1, got {}", self.turn),
                None,
            ));
        }
        if self.plays < 0 || self.plays > i64::from(u32::MAX) {
            return Err(at(
                "plays",
                format!("`plays` must be a number from 0, got {}", self.plays),
                None,
            ));
        }
        if !sides.contains(&self.active_side.as_str()) {
            return Err(at(
                "active_side",
                format!("unknown side `{}`", self.active_side),
                side_help(),
            ));
        }
        if let Some(first) = &self.first_side
            && !sides.contains(&first.as_str())
        {
            return Err(at(
                "first_side",
                format!("unknown side `{first}`"),
                side_help(),
            ));
        }
        if self.phase.chars().count() > crate::limits::MAX_NAME {
            return Err(at(
                "phase",
                format!(
                    "a phase's name has at most {} characters",
                    crate::limits::MAX_NAME
                ),
                None,
            ));
        }
        for (stat, value) in &self.game_stats {
            if stat.chars().count() > crate::limits::MAX_NAME {
                return Err(at(
                    &format!("game_stats.{stat}"),
                    format!(
                        "a game stat's name has at most {} characters",
                        crate::limits::MAX_NAME
                    ),
                    None,
                ));
            }
            if let Err(e) = value.check(stat) {
                return Err(at(&format!("game_stats.{stat}"), format!("game {e}"), None));
            }
        }
        let phases = &scenario.ruleset.file.phases;
        if !self.phase.is_empty() && !phases.is_empty() && !phases.contains_key(&self.phase) {
            let ids = phases.keys().map(String::as_str);
            return Err(at(
                "phase",
                format!(
                    "unknown phase `{}`: the ruleset does not name it",
                    self.phase
                ),
                Some(match crate::host::suggest::did_you_mean(&self.phase, ids) {
                    Some(s) => format!("did you mean `{s}`?"),
                    None => format!(
                        "the ruleset's phases are: {}",
                        phases.keys().cloned().collect::<Vec<_>>().join(", ")
                    ),
                }),
            ));
        }
        self.check_decks(scenario).map_err(|(deck, message)| {
            at(
                &format!("decks.{deck}"),
                message,
                Some("a save holds the cards its decks were made with, each once".into()),
            )
        })?;
        let mut seen = std::collections::BTreeSet::new();
        for (i, unit) in self.units.iter().enumerate() {
            let field = |f: &str| format!("units.{i}.{f}");
            if !crate::game::scenario::valid_id(&unit.id) {
                return Err(at(
                    &field("id"),
                    format!("`{}` is not a usable unit id", unit.id),
                    Some("use letters, digits and `_`, starting with a letter".into()),
                ));
            }
            if !seen.insert(unit.id.as_str()) {
                return Err(at(
                    &field("id"),
                    format!("two units have the id `{}`", unit.id),
                    None,
                ));
            }
            if !sides.contains(&unit.side.as_str()) {
                return Err(at(
                    &field("side"),
                    format!("`{}`: unknown side `{}`", unit.id, unit.side),
                    side_help(),
                ));
            }
            if scenario.ruleset.troop(&unit.troop).is_none() {
                return Err(at(
                    &field("troop"),
                    format!("`{}`: unknown troop type `{}`", unit.id, unit.troop),
                    None,
                ));
            }
            if let Err(e) = unit.check() {
                return Err(at(&field("id"), format!("`{}`: {e}", unit.id), None));
            }
            for (stat, value) in &unit.stats {
                if let Err((message, help)) = scenario.ruleset.check_stat(stat, value) {
                    return Err(at(
                        &format!("units.{i}.stats.{stat}"),
                        format!("`{}`: {message}", unit.id),
                        help,
                    ));
                }
            }
        }
        let abilities = &scenario.ruleset.abilities;
        for (i, used) in self.ability_uses.iter().enumerate() {
            // An ability is one of the ruleset's by name: never a path (`../x`, `/etc/passwd`).
            if !abilities.contains_key(&used.ability) {
                let known = abilities.keys().map(String::as_str);
                return Err(at(
                    &format!("ability_uses.{i}.ability"),
                    format!(
                        "`{}`: unknown ability `{}`: the ruleset has no ability of that name",
                        used.unit, used.ability
                    ),
                    crate::host::suggest::did_you_mean(&used.ability, known)
                        .map(|s| format!("did you mean `{s}`?")),
                ));
            }
            if !seen.contains(used.unit.as_str()) {
                return Err(at(
                    &format!("ability_uses.{i}.unit"),
                    format!("the use of an ability names unknown unit `{}`", used.unit),
                    None,
                ));
            }
        }
        Ok(())
    }

    /// Whether each deck holds only cards it can hold: a deck of the scenario only the cards
    /// the scenario gives it, each as often as there (so no card twice, none from elsewhere);
    /// any deck at most [`MAX_DECK`] cards, and a deck a script made in the game no more than
    /// the log says it was made with. Else the deck's name and what is wrong.
    fn check_decks(&self, scenario: &Scenario) -> Result<(), (String, String)> {
        for (name, deck) in &self.decks {
            let held = deck.held().count();
            if held > MAX_DECK {
                return Err((
                    name.clone(),
                    format!(
                        "the `{name}` deck holds {held} cards, and a deck holds at most {MAX_DECK}"
                    ),
                ));
            }
            // The deck as a script last made it, if one did (the log says so).
            let made = self.log.iter().rev().find_map(|e| match e {
                Event::NewDeck { deck, cards } if deck == name => Some(*cards),
                _ => None,
            });
            if let Some(made) = made {
                if held > made {
                    return Err((
                        name.clone(),
                        format!(
                            "the `{name}` deck holds {held} cards, but it was made with {made}"
                        ),
                    ));
                }
                continue;
            }
            let Some(plan) = scenario.decks.get(name) else {
                continue;
            };
            let mut left: BTreeMap<Card, usize> = BTreeMap::new();
            for card in plan.deck.held() {
                *left.entry(*card).or_default() += 1;
            }
            for card in deck.held() {
                match left.get_mut(card) {
                    Some(n) if *n > 0 => *n -= 1,
                    Some(_) => {
                        return Err((
                            name.clone(),
                            format!(
                                "the `{name}` deck holds `{card}` more often than the scenario gives it"
                            ),
                        ));
                    }
                    None => {
                        return Err((
                            name.clone(),
                            format!(
                                "the `{name}` deck holds `{card}`, which is not one of its cards"
                            ),
                        ));
                    }
                }
            }
        }
        Ok(())
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
        state.game_stats = self.game_stats;
        state.rng = GameRng::restore(self.rng.seed, self.rng.stream, word_pos);
        state.turn = self.turn;
        state.active_side = self.active_side;
        state.first_side = self.first_side;
        state.plays = self.plays;
        state.phase = self.phase;
        state.set_log(self.log, self.log_dropped);
        state.commit();
        Ok(())
    }
}

/// Where each value of a JSON text is, by its path (`turn`, `units.3.side`,
/// `units.3.stats.defend`): the byte range of the value, to the depth of a unit's stats. The
/// text is JSON already read by serde_json, so the walk can be simple.
/// How a save's temporary file is named: this, the writer's process id and `-`, random
/// letters, then [`PARTIAL_SUFFIX`].
pub const PARTIAL_PREFIX: &str = ".sandtable-save-";
/// The end of a save's temporary file's name.
pub const PARTIAL_SUFFIX: &str = ".partial";

/// Removes, from the folder `folder` a save is being written into, the temporary files of
/// saves that will never finish (their writer was killed): only regular files, not links or
/// folders, named as a save names its temporary file, owned by the user this save's own
/// temporary file `ours` is owned by, and not being written: their writer's process is gone
/// (where the system tells, through `/proc`), or they have not been written to for
/// [`STALE_PARTIAL_AGE`]. Nothing it cannot remove stops the save.
fn remove_stale_partials(folder: &Path, ours: &Path) {
    let Ok(entries) = std::fs::read_dir(folder) else {
        return;
    };
    let owner = std::fs::symlink_metadata(ours).ok();
    let now = std::time::SystemTime::now();
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(name) = name.to_str() else { continue };
        let Some(middle) = name
            .strip_prefix(PARTIAL_PREFIX)
            .and_then(|rest| rest.strip_suffix(PARTIAL_SUFFIX))
        else {
            continue;
        };
        let path = entry.path();
        if path == ours {
            continue;
        }
        // Not followed: a link is never a temporary file of ours.
        let Ok(meta) = std::fs::symlink_metadata(&path) else {
            continue;
        };
        if !meta.file_type().is_file() || !same_owner(&meta, owner.as_ref()) {
            continue;
        }
        let writer_gone = middle
            .split_once('-')
            .and_then(|(pid, _)| pid.parse::<u32>().ok())
            .is_some_and(process_gone);
        let untouched = meta
            .modified()
            .ok()
            .and_then(|m| now.duration_since(m).ok())
            .is_some_and(|age| age >= crate::limits::STALE_PARTIAL_AGE);
        if writer_gone || untouched {
            let _ = std::fs::remove_file(&path);
        }
    }
}

/// Whether a file is owned by the user of `ours` (on Unix; elsewhere, any file is).
fn same_owner(meta: &std::fs::Metadata, ours: Option<&std::fs::Metadata>) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        ours.is_some_and(|o| o.uid() == meta.uid())
    }
    #[cfg(not(unix))]
    {
        let _ = (meta, ours);
        true
    }
}

/// Whether the process `pid` is known to be gone: where `/proc` lists the processes (Linux),
/// it has no folder there. Elsewhere nothing is known, and only the age of a file tells.
fn process_gone(pid: u32) -> bool {
    let proc = Path::new("/proc");
    proc.join("self").exists() && !proc.join(pid.to_string()).exists()
}

fn json_spans(text: &str) -> std::collections::HashMap<String, std::ops::Range<usize>> {
    let mut spans = std::collections::HashMap::new();
    let bytes = text.as_bytes();
    let mut i = 0;
    walk(bytes, &mut i, String::new(), 0, &mut spans);
    spans
}

fn skip_space(b: &[u8], i: &mut usize) {
    while *i < b.len() && b[*i].is_ascii_whitespace() {
        *i += 1;
    }
}

/// Reads a string starting at `i` (at its quote), giving its contents unescaped when plain.
fn read_string(b: &[u8], i: &mut usize) -> String {
    let start = *i + 1;
    *i += 1;
    while *i < b.len() && b[*i] != b'"' {
        if b[*i] == b'\\' {
            *i += 1;
        }
        *i += 1;
    }
    let raw = String::from_utf8_lossy(&b[start..(*i).min(b.len())]).into_owned();
    *i += 1;
    raw
}

fn walk(
    b: &[u8],
    i: &mut usize,
    path: String,
    depth: usize,
    spans: &mut std::collections::HashMap<String, std::ops::Range<usize>>,
) {
    skip_space(b, i);
    let start = *i;
    let join = |key: &str| {
        if path.is_empty() {
            key.to_string()
        } else {
            format!("{path}.{key}")
        }
    };
    match b.get(*i) {
        Some(b'{') => {
            *i += 1;
            loop {
                skip_space(b, i);
                match b.get(*i) {
                    Some(b'"') => {
                        let key = read_string(b, i);
                        skip_space(b, i);
                        *i += 1; // the colon
                        walk(b, i, join(&key), depth + 1, spans);
                    }
                    Some(b',') => *i += 1,
                    Some(b'}') => {
                        *i += 1;
                        break;
                    }
                    _ => break,
                }
            }
        }
        Some(b'[') => {
            *i += 1;
            let mut n = 0;
            loop {
                skip_space(b, i);
                match b.get(*i) {
                    Some(b',') => *i += 1,
                    Some(b']') => {
                        *i += 1;
                        break;
                    }
                    Some(_) => {
                        // Past a unit's fields, only where each value is matters, not its
                        // inner paths: the log's thousands of events are skipped cheaply.
                        let inner = if depth < 4 {
                            join(&n.to_string())
                        } else {
                            String::new()
                        };
                        walk(b, i, inner, depth + 1, spans);
                        n += 1;
                    }
                    None => break,
                }
            }
        }
        Some(b'"') => {
            read_string(b, i);
        }
        Some(_) => {
            while *i < b.len()
                && !matches!(b[*i], b',' | b'}' | b']')
                && !b[*i].is_ascii_whitespace()
            {
                *i += 1;
            }
        }
        None => return,
    }
    if !path.is_empty() && depth <= 4 {
        spans.insert(path, start..*i);
    }
}
