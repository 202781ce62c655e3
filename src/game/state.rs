//! The state of one game and every change to it.
//!
//! [`GameState`] is plain data (battlefield, decks, generator, turn, log). Every method that
//! changes the game appends an [`Event`] to the log and an entry to an undo journal: this is
//! the one place changes happen, so nothing escapes the log, and a failed action is rolled
//! back exactly ([`GameState::mark`], [`GameState::rollback`]) without copying the game
//! before every action.

use std::collections::{BTreeMap, VecDeque};
use std::sync::Arc;

use crate::game::ability::AbilityUse;
use crate::game::event::Event;
use crate::game::scenario::{Scenario, Side};
use crate::host::battlefield::Battlefield;
use crate::host::cards::{Card, CardError, Deck};
use crate::host::dice::{DiceError, DiceExpr, Roll};
use crate::host::geometry::{Point, check_point, normalize_degrees};
use crate::host::rng::GameRng;
use crate::host::unit::{ENTRY_BYTES, Stat, Unit, ValueError, check_count};
use crate::limits::MAX_UNITS;

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
    /// The phase of the turn the rules are in (`""` before any): the host only keeps it.
    pub phase: String,
    /// What the ruleset calls its phases at the table, by id (`ruleset.yaml` `phases:`).
    pub phase_names: Arc<BTreeMap<String, String>>,
    /// The side that played first (set by the first turn change).
    pub first_side: Option<String>,
    /// Sides' turns begun so far (each turn change counts one).
    pub plays: i64,
    /// Facts of the whole game the rules keep (a side's colour, who moves first), by name.
    pub game_stats: BTreeMap<String, Stat>,
    /// Everything that happened, in order.
    pub log: Vec<Event>,
    /// How each unit has used each of its abilities, by unit index and ability name.
    pub ability_uses: BTreeMap<(usize, String), AbilityUse>,
    /// Who changed what in the last action (`explain`): one line per number asked for.
    pub trace: Vec<String>,
    /// What the action under way has recorded, against the flood limits.
    recorded: Recorded,
    /// The bytes the game holds, counted as they grow, against the limits on what one game
    /// holds ([`MAX_TABLE_BYTES`], [`MAX_LOG_BYTES`], [`MAX_UNDO_BYTES`]).
    held: Held,
    /// How many of the oldest events have been dropped from the log to keep it within
    /// [`MAX_LOG_BYTES`]: the log's first event is event number `log_dropped` of the game.
    log_dropped: usize,
    /// How to undo each change since the game began (or the last [`GameState::commit`]),
    /// oldest first: the game's undo history, which `:undo` and `:redo` walk.
    journal: VecDeque<Undo>,
    /// How many entries were dropped from the journal's front: marks count from the game's
    /// first change, so that forgetting old history leaves later marks valid.
    forgotten: usize,
}

/// How to undo one change.
#[derive(Clone, Debug)]
enum Undo {
    Pos(usize, Point),
    Facing(usize, f64),
    Hits(usize, i64),
    Stands(usize, i64),
    Name(usize, String),
    Side(usize, String),
    Spawn,
    Respawn(Box<Unit>),
    Stat(usize, String, Option<Stat>),
    GameStat(String, Option<Stat>),
    Tag(usize, String, bool),
    Group(usize, String, Option<String>),
    InPlay(usize, bool),
    Turn(i64, String, Option<String>, i64),
    Phase(String),
    Deck(String, Option<Deck>),
    /// Takes the last card off a deck's discards (so undoing a discard costs no copy of the
    /// deck: 20,000 discards held 489 MB when each kept one).
    Discard(String),
    /// Puts a card back on a deck's discards (redoing a discard).
    Rediscard(String, Card),
    Ability(usize, String, Option<AbilityUse>),
    Abilities(usize, Vec<String>),
}

pub use crate::limits::MAX_RECORDS_PER_ACTION;

pub use crate::limits::MAX_LOG_BYTES_PER_ACTION;

pub use crate::limits::{
    MAX_LOG_BYTES, MAX_TABLE_BYTES, MAX_UNDO_BYTES, MAX_UNDO_BYTES_PER_ACTION,
};

pub use crate::limits::MAX_NAME;

pub use crate::limits::MAX_TEXT;

#[derive(Clone, Debug, Default)]
struct Recorded {
    records: usize,
    /// Bytes of log.
    bytes: usize,
    /// Bytes of old values kept to undo the action's changes.
    undo_bytes: usize,
}

/// The bytes one game holds, by store: one accounting, kept as the stores change (as Rhai
/// keeps its own string and array limits), so that a limit is checked before it is passed.
#[derive(Clone, Debug, Default, PartialEq)]
struct Held {
    /// The table: units (names, stats, tags, groups, abilities), game stats, decks and
    /// ability uses ([`GameState::table_bytes`]), counted as each change is made or undone.
    table: usize,
    /// The log ([`Event::size_hint`] of each event kept).
    log: usize,
    /// The undo history ([`Undo::bytes`] of each change it can undo).
    undo: usize,
}

impl Undo {
    /// The bytes this undo entry holds, as counted against the game's byte limits.
    fn bytes(&self) -> usize {
        std::mem::size_of::<Undo>()
            + match self {
                Undo::Name(_, s) | Undo::Side(_, s) | Undo::Phase(s) | Undo::Discard(s) => s.len(),
                Undo::Respawn(u) => u.bytes(),
                Undo::Stat(_, n, v) | Undo::GameStat(n, v) => {
                    n.len() + v.as_ref().map_or(0, Stat::bytes)
                }
                Undo::Tag(_, t, _) => t.len(),
                Undo::Group(_, k, n) => k.len() + n.as_ref().map_or(0, String::len),
                Undo::Turn(_, s, f, _) => s.len() + f.as_ref().map_or(0, String::len),
                Undo::Deck(n, d) => n.len() + d.as_ref().map_or(0, Deck::bytes),
                Undo::Rediscard(n, _) | Undo::Ability(_, n, _) => n.len(),
                Undo::Abilities(_, list) => list.iter().map(|a| ENTRY_BYTES + a.len()).sum(),
                Undo::Pos(..)
                | Undo::Facing(..)
                | Undo::Hits(..)
                | Undo::Stands(..)
                | Undo::Spawn
                | Undo::InPlay(..) => 0,
            }
    }
}

/// The bytes a stat of a unit or of the game holds under its name.
fn stat_entry(name: &str, value: Option<&Stat>) -> usize {
    value.map_or(0, |v| ENTRY_BYTES + name.len() + v.bytes())
}

/// The bytes of the events in `events`.
fn log_bytes(events: &[Event]) -> usize {
    events.iter().map(Event::size_hint).sum()
}

/// What becomes of drawn cards.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Drawn {
    /// The script holds them (`draw`).
    Kept,
    /// They are turned face up onto the discards at once (`flip`): logged as one flip.
    Flipped,
}

/// Why a change to the game is refused: a script's bug or a rule's mistake, said in the
/// players' terms.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum StateError {
    /// A unit handle that is not one of this game's.
    #[error("that unit is not in this game")]
    NoUnit,
    /// A move to a place that is not a point (NaN, infinite).
    #[error("cannot move to {0}: not a point on the table")]
    NotAPoint(Point),
    /// A facing that is not a finite number.
    #[error("a facing must be a finite number of degrees")]
    BadFacing,
    /// A name longer than [`MAX_NAME`].
    #[error("a name has at most {MAX_NAME} characters")]
    NameTooLong,
    /// A value the table cannot hold (a NaN stat, hits past the limit, a place out of reach).
    #[error(transparent)]
    Value(#[from] ValueError),
    /// A unit spawned when the game already has [`MAX_UNITS`].
    #[error("a game has at most {MAX_UNITS} units")]
    TooManyUnits,
    /// A side this game does not have.
    #[error("unknown side `{side}`{}", suggestion.as_ref().map(|s| format!("; did you mean `{s}`?")).unwrap_or_default())]
    UnknownSide {
        /// The side named.
        side: String,
        /// The closest side's id, if one is close.
        suggestion: Option<String>,
    },
    /// A new unit with an id the game already has.
    #[error("two units have the id `{0}`")]
    DuplicateId(String),
    /// Taking out of play a unit that is already out.
    #[error("`{0}` is already out of play")]
    OutOfPlay(String),
    /// A deck this game does not have.
    #[error("no deck called `{name}`{}", if *none { ": this game has no decks".to_string() } else { suggestion.as_ref().map(|s| format!("; did you mean `{s}`?")).unwrap_or_default() })]
    NoDeck {
        /// The deck named.
        name: String,
        /// The closest deck's name, if one is close.
        suggestion: Option<String>,
        /// Whether the game has no decks at all.
        none: bool,
    },
    /// Drawing no cards.
    #[error("draw at least one card")]
    NoCards,
    /// A change that would take what the table holds past [`MAX_TABLE_BYTES`].
    #[error(
        "the table would hold more than {} MiB of names, stats, tags, groups and decks (`MAX_TABLE_BYTES`, {} bytes)",
        MAX_TABLE_BYTES >> 20,
        MAX_TABLE_BYTES
    )]
    TableFull,
    /// A deck refusing a draw (empty, say).
    #[error(transparent)]
    Cards(#[from] CardError),
}

impl From<StateError> for String {
    fn from(e: StateError) -> String {
        e.to_string()
    }
}

/// What [`GameState::rewind`] undid, to do it again: the changes (newest first, each as the
/// change that redoes it), the events and the generator as they were.
#[derive(Clone, Debug)]
pub struct Redo {
    changes: Vec<Undo>,
    log: Vec<Event>,
    rng: GameRng,
}

/// A point to roll back to: the journal and log lengths and the generator's state.
#[derive(Clone, Debug)]
pub struct Mark {
    journal: usize,
    log: usize,
    rng: GameRng,
}

impl GameState {
    /// A fresh game of `scenario` seeded with `seed`: logs the seed, then shuffles and cuts the
    /// scenario's decks.
    pub fn new(scenario: &Scenario, seed: u64) -> Self {
        GameState::with_rng(scenario, seed, GameRng::new(seed))
    }

    /// As [`GameState::new`], drawing from `rng` (run `i` of a simulation, say) rather than
    /// from a generator seeded with `seed`, which is only logged.
    pub fn with_rng(scenario: &Scenario, seed: u64, rng: GameRng) -> Self {
        let mut state = GameState {
            battlefield: scenario.battlefield.clone(),
            sides: scenario.sides.clone(),
            decks: BTreeMap::new(),
            rng,
            turn: 0,
            active_side: scenario
                .first
                .clone()
                .or_else(|| scenario.sides.first().map(|s| s.id.clone()))
                .unwrap_or_default(),
            first_side: None,
            phase: String::new(),
            phase_names: Arc::new(scenario.ruleset.file.phases.clone()),
            plays: 0,
            game_stats: BTreeMap::new(),
            log: Vec::new(),
            ability_uses: BTreeMap::new(),
            trace: Vec::new(),
            recorded: Recorded::default(),
            held: Held::default(),
            log_dropped: 0,
            journal: VecDeque::new(),
            forgotten: 0,
        };
        state.emit(Event::Seed { seed });
        state.emit(Event::Scenario {
            name: scenario.name.clone(),
            ruleset: scenario.ruleset.file.name.clone(),
        });
        for (name, plan) in &scenario.decks {
            let mut deck = plan.deck.clone();
            if plan.shuffle {
                deck.shuffle(&mut state.rng);
                state.emit(Event::Shuffle { deck: name.clone() });
            }
            if let Some(n) = plan.first {
                // The scenario loader checked n against the deck's size.
                let _ = deck.truncate_to(n);
            }
            state.decks.insert(name.clone(), deck);
        }
        state.held.table = state.table_bytes();
        state
    }

    /// Appends an event to the log, counting it against the action's limits.
    pub fn emit(&mut self, event: Event) {
        let bytes = event.size_hint();
        self.recorded.records += 1;
        self.recorded.bytes += bytes;
        self.held.log += bytes;
        self.log.push(event);
        // Not only between actions: a roll typed at the prompt is an action of no script.
        if self.held.log > MAX_LOG_BYTES {
            self.trim_log();
        }
    }

    fn remember(&mut self, undo: Undo) {
        let bytes = undo.bytes();
        self.recorded.records += 1;
        self.recorded.undo_bytes += bytes;
        self.held.undo += bytes;
        self.journal.push_back(undo);
    }

    /// Starts counting a new action against the flood limits.
    pub fn begin_action(&mut self) {
        self.recorded = Recorded::default();
        self.trace.clear();
    }

    /// Drops the oldest events once the log holds more than [`MAX_LOG_BYTES`], down to three
    /// quarters of it (so that it is not cut at every event), counting them in
    /// [`GameState::log_dropped`]. Positions in the log ([`GameState::log_end`], marks)
    /// count the dropped events, so they stay valid.
    fn trim_log(&mut self) {
        if self.held.log <= MAX_LOG_BYTES {
            return;
        }
        let mut cut = 0;
        let mut freed = 0;
        for event in &self.log {
            if self.held.log - freed <= MAX_LOG_BYTES / 4 * 3 {
                break;
            }
            freed += event.size_hint();
            cut += 1;
        }
        self.log.drain(..cut);
        self.held.log -= freed;
        self.log_dropped += cut;
    }

    /// How many of the game's oldest events the log has dropped to stay within
    /// [`MAX_LOG_BYTES`] (a save keeps the number).
    pub fn log_dropped(&self) -> usize {
        self.log_dropped
    }

    /// How many events the game has logged since it began, those dropped included: a
    /// position in the log that stays valid when old events are dropped.
    pub fn log_end(&self) -> usize {
        self.log_dropped + self.log.len()
    }

    /// The events from position `from` of [`GameState::log_end`] on (those still kept).
    pub fn events_since(&self, from: usize) -> &[Event] {
        let start = from.saturating_sub(self.log_dropped).min(self.log.len());
        &self.log[start..]
    }

    /// Sets the log (a save's), with the number of older events it dropped, and counts the
    /// game's bytes afresh.
    pub fn set_log(&mut self, log: Vec<Event>, dropped: usize) {
        self.log = log;
        self.log_dropped = dropped;
        self.held.log = log_bytes(&self.log);
        self.held.table = self.table_bytes();
    }

    /// The bytes the table holds: units, game stats, decks and ability uses.
    pub fn table_bytes(&self) -> usize {
        let units: usize = self.battlefield.units().iter().map(Unit::bytes).sum();
        let stats: usize = self
            .game_stats
            .iter()
            .map(|(k, v)| stat_entry(k, Some(v)))
            .sum();
        let decks: usize = self
            .decks
            .iter()
            .map(|(k, d)| ENTRY_BYTES + k.len() + d.bytes())
            .sum();
        let uses: usize = self
            .ability_uses
            .keys()
            .map(|(_, a)| ENTRY_BYTES + a.len() + std::mem::size_of::<AbilityUse>())
            .sum();
        units + stats + decks + uses
    }

    /// The bytes the undo history holds.
    pub fn undo_bytes(&self) -> usize {
        self.held.undo
    }

    /// The bytes the log holds.
    pub fn log_bytes(&self) -> usize {
        self.held.log
    }

    /// Counts a change of what the table holds from `from` bytes to `to`, refusing it, before
    /// it is made, if it would take the table past [`MAX_TABLE_BYTES`].
    fn grow(&mut self, from: usize, to: usize) -> Result<(), StateError> {
        let table = (self.held.table + to).saturating_sub(from);
        if to > from && table > MAX_TABLE_BYTES {
            return Err(StateError::TableFull);
        }
        self.held.table = table;
        Ok(())
    }

    /// Where the game stands, for counting ability uses.
    pub fn clock(&self) -> crate::game::ability::Clock {
        crate::game::ability::Clock {
            turn: self.turn,
            play: self.plays,
            sides: self.sides.len().max(1) as i64,
        }
    }

    /// How a unit has used an ability so far.
    pub fn ability_use(&self, idx: usize, ability: &str) -> AbilityUse {
        self.ability_uses
            .get(&(idx, ability.to_string()))
            .cloned()
            .unwrap_or_default()
    }

    /// Gives a unit an ability it lacks, during play (a footman who takes a dead rider's horse
    /// gains the cavalry's abilities), with an event saying so; `false`, and nothing changed,
    /// when it has the ability already.
    pub fn give_ability(
        &mut self,
        idx: usize,
        ability: &str,
        what: &str,
    ) -> Result<bool, StateError> {
        if self.unit(idx)?.abilities.iter().any(|a| a == ability) {
            return Ok(false);
        }
        self.grow(0, ENTRY_BYTES + ability.len())?;
        let unit = self.unit_mut(idx)?;
        let before = unit.abilities.clone();
        unit.abilities.push(ability.to_string());
        self.remember(Undo::Abilities(idx, before));
        let unit = self.id(idx);
        self.emit(Event::Ability {
            unit,
            ability: ability.into(),
            what: what.into(),
        });
        Ok(true)
    }

    /// Records a new use state for a unit's ability, with an event saying what happened.
    pub fn set_ability_use(&mut self, idx: usize, ability: &str, state: AbilityUse, what: &str) {
        let key = (idx, ability.to_string());
        if !self.ability_uses.contains_key(&key) {
            // A use of an ability the unit has: its name is the table's already, and the
            // count of ability uses is bounded by the units and their abilities.
            self.held.table += ENTRY_BYTES + ability.len() + std::mem::size_of::<AbilityUse>();
        }
        let before = self.ability_uses.insert(key, state);
        self.remember(Undo::Ability(idx, ability.to_string(), before));
        let unit = self.id(idx);
        self.emit(Event::Ability {
            unit,
            ability: ability.into(),
            what: what.into(),
        });
    }

    /// Why the action under way must stop, if it has recorded too much.
    pub fn flooded(&self) -> Option<String> {
        if self.recorded.records > MAX_RECORDS_PER_ACTION {
            Some(format!(
                "the action made more than {MAX_RECORDS_PER_ACTION} changes and log entries"
            ))
        } else if self.recorded.bytes > MAX_LOG_BYTES_PER_ACTION {
            Some(format!(
                "the action wrote more than {} MiB to the log",
                MAX_LOG_BYTES_PER_ACTION >> 20
            ))
        } else if self.recorded.undo_bytes > MAX_UNDO_BYTES_PER_ACTION {
            Some(format!(
                "the action's changes kept more than {} MiB of old values to undo them (`MAX_UNDO_BYTES_PER_ACTION`)",
                MAX_UNDO_BYTES_PER_ACTION >> 20
            ))
        } else if self.held.undo > MAX_UNDO_BYTES + MAX_UNDO_BYTES_PER_ACTION {
            // Only a game played without checkpoints (an auto-played battle) reaches this:
            // a session forgets its oldest actions past `MAX_UNDO_BYTES`.
            Some(format!(
                "the game's undo history holds more than {} MiB (`MAX_UNDO_BYTES`)",
                (MAX_UNDO_BYTES + MAX_UNDO_BYTES_PER_ACTION) >> 20
            ))
        } else {
            None
        }
    }

    /// Where the game stands now, to roll back to if what follows fails.
    pub fn mark(&self) -> Mark {
        Mark {
            journal: self.journal_end(),
            log: self.log_end(),
            rng: self.rng.clone(),
        }
    }

    /// How many changes the game has journaled since it began.
    fn journal_end(&self) -> usize {
        self.forgotten + self.journal.len()
    }

    /// Undoes every change made since `mark`, generator and log included. A mark taken
    /// before the last [`GameState::commit`] restores only the log and generator.
    pub fn rollback(&mut self, mark: Mark) {
        self.unwind(mark.journal, None);
        let keep = mark
            .log
            .saturating_sub(self.log_dropped)
            .min(self.log.len());
        self.held.log -= log_bytes(&self.log[keep..]);
        self.log.truncate(keep);
        self.rng = mark.rng;
    }

    /// Whether the undo history still reaches back to `mark` (its oldest changes may have
    /// been forgotten, past [`MAX_UNDO_BYTES`]).
    pub fn reaches(&self, mark: &Mark) -> bool {
        mark.journal >= self.forgotten
    }

    /// Undoes the journaled changes back to `to`, newest first; with `redo`, keeps for each
    /// the change that does it again (a rollback, the hot path of `attempt`, keeps nothing).
    fn unwind(&mut self, to: usize, mut redo: Option<&mut Vec<Undo>>) {
        while self.journal_end() > to {
            let Some(undo) = self.journal.pop_back() else {
                break;
            };
            self.held.undo = self.held.undo.saturating_sub(undo.bytes());
            let again = self.undo(undo);
            if let Some(redo) = redo.as_mut() {
                redo.push(again);
            }
        }
    }

    /// As [`GameState::rollback`], keeping what was undone so that [`GameState::replay`] can
    /// do it again (`:undo`, then `:redo`).
    pub fn rewind(&mut self, mark: Mark) -> Redo {
        let mut changes = Vec::new();
        self.unwind(mark.journal, Some(&mut changes));
        let keep = mark
            .log
            .saturating_sub(self.log_dropped)
            .min(self.log.len());
        let log = self.log.split_off(keep);
        self.held.log -= log_bytes(&log);
        let rng = std::mem::replace(&mut self.rng, mark.rng);
        Redo { changes, log, rng }
    }

    /// Does again what [`GameState::rewind`] undid, journaling it again.
    pub fn replay(&mut self, redo: Redo) {
        for change in redo.changes.into_iter().rev() {
            let undo = self.undo(change);
            self.held.undo += undo.bytes();
            self.journal.push_back(undo);
        }
        self.held.log += log_bytes(&redo.log);
        self.log.extend(redo.log);
        self.rng = redo.rng;
    }

    /// Forgets how to undo the changes made before `mark` (they stand), keeping later ones:
    /// the undo history stays as long as `:undo` can reach.
    pub fn forget_before(&mut self, mark: &Mark) {
        while self.forgotten < mark.journal {
            let Some(undo) = self.journal.pop_front() else {
                break;
            };
            self.held.undo = self.held.undo.saturating_sub(undo.bytes());
            self.forgotten += 1;
        }
    }

    /// Forgets how to undo the changes made so far (they stand); marks taken before are void.
    pub fn commit(&mut self) {
        self.forgotten += self.journal.len();
        self.journal.clear();
        self.held.undo = 0;
    }

    /// Puts back one change as it was before, and gives the change that would do it again;
    /// what the table holds is counted anew by the bytes of what the change touched.
    fn undo(&mut self, undo: Undo) -> Undo {
        let before = self.touched_bytes(&undo);
        let again = self.put_back(undo);
        let after = self.touched_bytes(&again);
        self.held.table = (self.held.table + after).saturating_sub(before);
        again
    }

    /// The bytes the table holds in what an undo entry changes (a stat, a tag, a deck, ...).
    fn touched_bytes(&self, undo: &Undo) -> usize {
        let unit = |i: &usize| self.battlefield.get(*i);
        match undo {
            Undo::Name(i, _) => unit(i).map_or(0, |u| u.name.len()),
            Undo::Side(i, _) => unit(i).map_or(0, |u| u.side.len()),
            Undo::Stat(i, name, _) => unit(i).map_or(0, |u| stat_entry(name, u.stats.get(name))),
            Undo::Tag(i, tag, _) => unit(i)
                .filter(|u| u.tags.contains(tag))
                .map_or(0, |_| ENTRY_BYTES + tag.len()),
            Undo::Group(i, kind, _) => unit(i)
                .and_then(|u| u.groups.get(kind))
                .map_or(0, |n| ENTRY_BYTES + kind.len() + n.len()),
            Undo::Abilities(i, _) => unit(i).map_or(0, |u| {
                u.abilities.iter().map(|a| ENTRY_BYTES + a.len()).sum()
            }),
            Undo::GameStat(name, _) => stat_entry(name, self.game_stats.get(name)),
            Undo::Deck(name, _) | Undo::Discard(name) | Undo::Rediscard(name, _) => self
                .decks
                .get(name)
                .map_or(0, |d| ENTRY_BYTES + name.len() + d.bytes()),
            Undo::Ability(i, name, _) => {
                if self.ability_uses.contains_key(&(*i, name.clone())) {
                    ENTRY_BYTES + name.len() + std::mem::size_of::<AbilityUse>()
                } else {
                    0
                }
            }
            // Undoing a spawn takes the last unit away; redoing it puts one back.
            Undo::Spawn => self.battlefield.units().last().map_or(0, Unit::bytes),
            Undo::Respawn(_)
            | Undo::Pos(..)
            | Undo::Facing(..)
            | Undo::Hits(..)
            | Undo::Stands(..)
            | Undo::InPlay(..)
            | Undo::Turn(..)
            | Undo::Phase(_) => 0,
        }
    }

    /// Puts back one change as it was before, and gives the change that would do it again.
    fn put_back(&mut self, undo: Undo) -> Undo {
        use std::mem::replace;
        let field = &mut self.battlefield;
        // Changes to a unit's fields; a unit index is always one of the game's.
        macro_rules! swap {
            ($i:expr, $field:ident, $value:expr, $variant:ident) => {
                match field.get_mut($i) {
                    Some(u) => Undo::$variant($i, replace(&mut u.$field, $value)),
                    None => Undo::$variant($i, $value),
                }
            };
        }
        match undo {
            Undo::Pos(i, p) => swap!(i, pos, p, Pos),
            Undo::Facing(i, f) => swap!(i, facing, f, Facing),
            Undo::Hits(i, h) => swap!(i, hits, h, Hits),
            Undo::Stands(i, n) => swap!(i, stands, n, Stands),
            Undo::Name(i, n) => swap!(i, name, n, Name),
            Undo::Side(i, s) => swap!(i, side, s, Side),
            Undo::InPlay(i, b) => swap!(i, in_play, b, InPlay),
            Undo::Spawn => match field.remove_last() {
                Some(unit) => Undo::Respawn(Box::new(unit)),
                None => Undo::Spawn,
            },
            Undo::Respawn(unit) => {
                let _ = field.add_unit(*unit);
                Undo::Spawn
            }
            Undo::Stat(i, name, value) => {
                let before = field.get_mut(i).and_then(|u| match value {
                    Some(v) => u.stats.insert(name.clone(), v),
                    None => u.stats.remove(&name),
                });
                Undo::Stat(i, name, before)
            }
            Undo::GameStat(name, value) => {
                let before = match value {
                    Some(v) => self.game_stats.insert(name.clone(), v),
                    None => self.game_stats.remove(&name),
                };
                Undo::GameStat(name, before)
            }
            Undo::Tag(i, tag, was_on) => {
                let is_on = field.get_mut(i).is_some_and(|u| {
                    if was_on {
                        !u.tags.insert(tag.clone())
                    } else {
                        u.tags.remove(&tag)
                    }
                });
                Undo::Tag(i, tag, is_on)
            }
            Undo::Group(i, kind, name) => {
                let before = field.get_mut(i).and_then(|u| match name {
                    Some(n) => u.groups.insert(kind.clone(), n),
                    None => u.groups.remove(&kind),
                });
                Undo::Group(i, kind, before)
            }
            Undo::Turn(turn, side, first, plays) => Undo::Turn(
                replace(&mut self.turn, turn),
                replace(&mut self.active_side, side),
                replace(&mut self.first_side, first),
                replace(&mut self.plays, plays),
            ),
            Undo::Phase(phase) => Undo::Phase(replace(&mut self.phase, phase)),
            Undo::Abilities(i, list) => swap!(i, abilities, list, Abilities),
            Undo::Ability(i, name, before) => {
                let now = match before {
                    Some(b) => self.ability_uses.insert((i, name.clone()), b),
                    None => self.ability_uses.remove(&(i, name.clone())),
                };
                Undo::Ability(i, name, now)
            }
            Undo::Discard(name) => match self.decks.get_mut(&name).and_then(Deck::undiscard) {
                Some(card) => Undo::Rediscard(name, card),
                None => Undo::Discard(name),
            },
            Undo::Rediscard(name, card) => {
                if let Some(deck) = self.decks.get_mut(&name) {
                    deck.rediscard(card);
                }
                Undo::Discard(name)
            }
            Undo::Deck(name, deck) => {
                let now = match deck {
                    Some(d) => self.decks.insert(name.clone(), d),
                    None => self.decks.remove(&name),
                };
                Undo::Deck(name, now)
            }
        }
    }

    /// Journals a deck's state before a change to it.
    fn save_deck(&mut self, name: &str) {
        let before = self.decks.get(name).cloned();
        self.remember(Undo::Deck(name.to_string(), before));
    }

    /// The unit at an index (handles from scripts are indices).
    pub fn unit(&self, idx: usize) -> Result<&Unit, StateError> {
        self.battlefield.get(idx).ok_or(StateError::NoUnit)
    }

    fn unit_mut(&mut self, idx: usize) -> Result<&mut Unit, StateError> {
        self.battlefield.get_mut(idx).ok_or(StateError::NoUnit)
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
        self.emit(Event::Roll {
            why: why.map(str::to_owned),
            roll: roll.clone(),
        });
        Ok(roll)
    }

    /// Rolls a parsed expression with the faces given by `face(sides)` (dice rolled at the
    /// table and typed in) and logs it like any roll.
    pub fn roll_given(
        &mut self,
        expr: &DiceExpr,
        why: Option<&str>,
        face: &mut dyn FnMut(u32) -> u32,
    ) -> Result<Roll, DiceError> {
        let roll = expr.roll_with(face)?;
        self.emit(Event::Roll {
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
    pub fn move_unit(&mut self, idx: usize, to: Point) -> Result<(), StateError> {
        if !(to.x.is_finite() && to.y.is_finite()) {
            return Err(StateError::NotAPoint(to));
        }
        check_point("a move's destination", to).map_err(ValueError::from)?;
        let unit = self.unit_mut(idx)?;
        let from = unit.pos;
        unit.pos = to;
        let unit = unit.id.clone();
        self.remember(Undo::Pos(idx, from));
        self.emit(Event::Move {
            unit,
            from,
            to,
            distance: from.distance(to),
        });
        Ok(())
    }

    /// Turns a unit to a facing (degrees clockwise from north).
    pub fn face(&mut self, idx: usize, facing: f64) -> Result<(), StateError> {
        if !facing.is_finite() {
            return Err(StateError::BadFacing);
        }
        let to = normalize_degrees(facing);
        let unit = self.unit_mut(idx)?;
        let from = unit.facing;
        if (from - to).abs() < 1e-9 {
            return Ok(());
        }
        unit.facing = to;
        let unit = unit.id.clone();
        self.remember(Undo::Facing(idx, from));
        self.emit(Event::Face { unit, from, to });
        Ok(())
    }

    fn change(&mut self, idx: usize, what: &str, from: Stat, to: Stat) {
        if from != to {
            let unit = self.id(idx);
            self.emit(Event::Change {
                unit,
                what: what.into(),
                from,
                to,
            });
        }
    }

    /// Sets the hits a unit has taken.
    pub fn set_hits(&mut self, idx: usize, hits: i64) -> Result<(), StateError> {
        check_count("hits", hits)?;
        let unit = self.unit_mut(idx)?;
        if unit.hits == hits {
            return Ok(());
        }
        let from = std::mem::replace(&mut unit.hits, hits);
        self.remember(Undo::Hits(idx, from));
        self.change(idx, "hits", Stat::Int(from), Stat::Int(hits));
        Ok(())
    }

    /// Sets the stands (or figures) a unit has left.
    pub fn set_stands(&mut self, idx: usize, stands: i64) -> Result<(), StateError> {
        check_count("stands", stands)?;
        let unit = self.unit_mut(idx)?;
        if unit.stands == stands {
            return Ok(());
        }
        let from = std::mem::replace(&mut unit.stands, stands);
        self.remember(Undo::Stands(idx, from));
        self.change(idx, "stands", Stat::Int(from), Stat::Int(stands));
        Ok(())
    }

    /// Sets one of a unit's stats.
    pub fn set_stat(&mut self, idx: usize, name: &str, value: Stat) -> Result<(), StateError> {
        value.check(name)?;
        let unit = self.unit(idx)?;
        // Setting a stat to what it is changes nothing, and records nothing: a loop doing it
        // must not fill the undo journal.
        if unit.stats.get(name) == Some(&value) {
            return Ok(());
        }
        // Private stats are not logged, but the table holds them all the same.
        let was = stat_entry(name, unit.stats.get(name));
        self.grow(was, stat_entry(name, Some(&value)))?;
        let unit = self.unit_mut(idx)?;
        let from = unit.stats.insert(name.to_string(), value.clone());
        // Remembered, so counted against the action's limits even when nothing is logged.
        self.remember(Undo::Stat(idx, name.to_string(), from.clone()));
        // Like a tag, a stat starting with `_` is the rules' private note (how far a figure
        // has moved this turn, ...): kept and undone like any change, but not narrated.
        if !name.starts_with('_') {
            self.change(idx, name, from.unwrap_or(Stat::Text("none".into())), value);
        }
        Ok(())
    }

    /// Sets one of the game's own stats (facts of the whole game, not of a unit), or
    /// removes it with `None`. Like a unit's stat, one whose name starts with `_` is a private
    /// note: kept, saved and undone, but not narrated.
    pub fn set_game_stat(&mut self, name: &str, value: Option<Stat>) -> Result<(), StateError> {
        if name.chars().count() > MAX_NAME {
            return Err(StateError::NameTooLong);
        }
        if let Some(v) = &value {
            v.check(name)?;
        }
        // As with a unit's stat, setting a stat to what it is records nothing.
        if self.game_stats.get(name) == value.as_ref() {
            return Ok(());
        }
        self.grow(
            stat_entry(name, self.game_stats.get(name)),
            stat_entry(name, value.as_ref()),
        )?;
        let from = match &value {
            Some(v) => self.game_stats.insert(name.to_string(), v.clone()),
            None => self.game_stats.remove(name),
        };
        self.remember(Undo::GameStat(name.to_string(), from.clone()));
        if !name.starts_with('_') {
            let none = || Stat::Text("none".into());
            self.emit(Event::GameStat {
                name: name.into(),
                from: from.unwrap_or_else(none),
                to: value.unwrap_or_else(none),
            });
        }
        Ok(())
    }

    /// Renames a unit.
    pub fn set_name(&mut self, idx: usize, name: &str) -> Result<(), StateError> {
        if name.chars().count() > MAX_NAME {
            return Err(StateError::NameTooLong);
        }
        let was = self.unit(idx)?.name.len();
        self.grow(was, name.len())?;
        let unit = self.unit_mut(idx)?;
        let from = std::mem::replace(&mut unit.name, name.to_string());
        self.remember(Undo::Name(idx, from.clone()));
        self.change(idx, "name", Stat::Text(from), Stat::Text(name.into()));
        Ok(())
    }

    /// Puts a new unit on the table during the game (a rider thrown from a dying elephant, a
    /// charioteer stepping down); its id must be new.
    pub fn spawn(&mut self, unit: Unit) -> Result<usize, StateError> {
        self.check_side(&unit.side)?;
        unit.check()?;
        if self.battlefield.units().len() >= MAX_UNITS {
            return Err(StateError::TooManyUnits);
        }
        self.grow(0, unit.bytes())?;
        let id = unit.id.clone();
        let at = unit.pos;
        let idx = self
            .battlefield
            .add_unit(unit)
            .map_err(|e| StateError::DuplicateId(e.0))?;
        self.remember(Undo::Spawn);
        self.emit(Event::Spawn { unit: id, at });
        Ok(idx)
    }

    /// Moves a unit to another side (a captured chariot, a turncoat).
    pub fn set_side(&mut self, idx: usize, side: &str) -> Result<(), StateError> {
        self.check_side(side)?;
        let was = self.unit(idx)?.side.len();
        self.grow(was, side.len())?;
        let unit = self.unit_mut(idx)?;
        let from = std::mem::replace(&mut unit.side, side.to_string());
        self.remember(Undo::Side(idx, from.clone()));
        self.change(idx, "side", Stat::Text(from), Stat::Text(side.into()));
        Ok(())
    }

    /// Puts a status tag on a unit (or takes it off).
    pub fn set_tag(&mut self, idx: usize, tag: &str, on: bool) -> Result<(), StateError> {
        // Private tags are not logged, but the table holds them all the same.
        if on && !self.unit(idx)?.tags.contains(tag) {
            self.grow(0, ENTRY_BYTES + tag.len())?;
        }
        let unit = self.unit_mut(idx)?;
        let changed = if on {
            unit.tags.insert(tag.to_string())
        } else {
            unit.tags.remove(tag)
        };
        if changed {
            if !on {
                self.held.table = self.held.table.saturating_sub(ENTRY_BYTES + tag.len());
            }
            let unit = self.id(idx);
            self.remember(Undo::Tag(idx, tag.to_string(), !on));
            // Tags starting with `_` are the rules' private notes (whom a figure fought this
            // turn, ...): kept and undone like any change, but not narrated.
            if !tag.starts_with('_') {
                self.emit(Event::Tag {
                    unit,
                    tag: tag.into(),
                    on,
                });
            }
        }
        Ok(())
    }

    /// Sets or clears a unit's membership of a kind of group.
    pub fn set_group(
        &mut self,
        idx: usize,
        kind: &str,
        name: Option<&str>,
    ) -> Result<(), StateError> {
        let unit = self.unit(idx)?;
        // Joining the group it is in, or leaving none, changes nothing and records nothing.
        if unit.groups.get(kind).map(String::as_str) == name {
            return Ok(());
        }
        let entry = |n: Option<&str>| n.map_or(0, |n| ENTRY_BYTES + kind.len() + n.len());
        let was = entry(unit.groups.get(kind).map(String::as_str));
        self.grow(was, entry(name))?;
        let unit = self.unit_mut(idx)?;
        let from = match name {
            Some(n) => unit.groups.insert(kind.into(), n.into()),
            None => unit.groups.remove(kind),
        };
        self.remember(Undo::Group(idx, kind.to_string(), from.clone()));
        let none = || Stat::Text("none".into());
        let to = name.map_or_else(none, |n| Stat::Text(n.into()));
        self.change(idx, kind, from.map_or_else(none, Stat::Text), to);
        Ok(())
    }

    /// Takes a unit out of play.
    pub fn remove(&mut self, idx: usize, reason: &str) -> Result<(), StateError> {
        let unit = self.unit_mut(idx)?;
        if !unit.in_play {
            return Err(StateError::OutOfPlay(unit.id.clone()));
        }
        unit.in_play = false;
        let unit = unit.id.clone();
        self.remember(Undo::InPlay(idx, true));
        self.emit(Event::Remove {
            unit,
            reason: reason.into(),
        });
        Ok(())
    }

    /// Brings a unit back into play.
    pub fn restore(&mut self, idx: usize) -> Result<(), StateError> {
        let unit = self.unit_mut(idx)?;
        if unit.in_play {
            return Ok(());
        }
        unit.in_play = true;
        let unit = unit.id.clone();
        self.remember(Undo::InPlay(idx, false));
        self.emit(Event::Restore { unit });
        Ok(())
    }

    /// Sets the turn number and the side to play.
    pub fn set_turn(&mut self, turn: i64, side: &str) -> Result<(), StateError> {
        self.check_side(side)?;
        self.remember(Undo::Turn(
            self.turn,
            self.active_side.clone(),
            self.first_side.clone(),
            self.plays,
        ));
        self.plays += 1;
        self.turn = turn;
        self.active_side = side.to_string();
        if self.first_side.is_none() {
            self.first_side = Some(side.to_string());
        }
        self.emit(Event::Turn {
            turn,
            side: side.into(),
        });
        Ok(())
    }

    /// The phase of the turn as the ruleset calls it at the table: its name, or its id when
    /// the ruleset gives none.
    pub fn phase_name(&self) -> &str {
        self.phase_names.get(&self.phase).unwrap_or(&self.phase)
    }

    /// Sets the phase of the turn (`""` for none), and logs it even when it is the same, as
    /// [`GameState::set_turn`] does.
    pub fn set_phase(&mut self, phase: &str) -> Result<(), StateError> {
        if phase.chars().count() > MAX_NAME {
            return Err(StateError::NameTooLong);
        }
        let before = std::mem::replace(&mut self.phase, phase.to_string());
        self.remember(Undo::Phase(before));
        self.emit(Event::Phase {
            phase: phase.into(),
            name: self.phase_names.get(phase).cloned(),
        });
        Ok(())
    }

    /// Narration from the rules.
    pub fn say(&mut self, text: impl Into<String>) {
        self.emit(Event::Say {
            text: clip(text.into()),
        });
    }

    /// A deck by name.
    pub fn deck(&self, name: &str) -> Result<&Deck, StateError> {
        self.decks.get(name).ok_or_else(|| self.no_deck(name))
    }

    fn deck_mut(&mut self, name: &str) -> Result<&mut Deck, StateError> {
        if !self.decks.contains_key(name) {
            return Err(self.no_deck(name));
        }
        Ok(self.decks.get_mut(name).expect("checked above"))
    }

    fn no_deck(&self, name: &str) -> StateError {
        StateError::NoDeck {
            name: name.to_string(),
            suggestion: crate::host::suggest::did_you_mean(
                name,
                self.decks.keys().map(String::as_str),
            )
            .map(str::to_string),
            none: self.decks.is_empty(),
        }
    }

    /// A side of this game, or an error naming the sides.
    fn check_side(&self, side: &str) -> Result<(), StateError> {
        if self.sides.iter().any(|s| s.id == side) {
            return Ok(());
        }
        let ids = self.sides.iter().map(|s| s.id.as_str());
        Err(StateError::UnknownSide {
            side: side.to_string(),
            suggestion: crate::host::suggest::did_you_mean(side, ids).map(str::to_string),
        })
    }

    /// Adds (or replaces) a deck.
    pub fn add_deck(&mut self, deck: Deck) -> Result<(), StateError> {
        let entry = |d: &Deck| ENTRY_BYTES + d.name().len() + d.bytes();
        let was = self.decks.get(deck.name()).map_or(0, entry);
        self.grow(was, entry(&deck))?;
        self.save_deck(deck.name());
        self.emit(Event::NewDeck {
            deck: deck.name().to_string(),
            cards: deck.len(),
        });
        self.decks.insert(deck.name().to_string(), deck);
        Ok(())
    }

    /// Shuffles a deck's draw pile, or its discards back into it (`reshuffle`), without
    /// drawing on the generator: the pile only counts as shuffled from now on
    /// ([`Deck::shuffle_hidden`]). For when every card drawn is chosen by the caller (exact
    /// odds over every card, cards typed in), so that the order in memory means nothing. Logs
    /// what [`GameState::shuffle`] or [`GameState::reshuffle`] log.
    pub fn shuffle_hidden(&mut self, name: &str, reshuffle: bool) -> Result<(), StateError> {
        self.deck(name)?;
        self.save_deck(name);
        let deck = self.deck_mut(name)?;
        if reshuffle {
            deck.reshuffle_hidden();
            self.emit(Event::Reshuffle { deck: name.into() });
        } else {
            deck.shuffle_hidden();
            self.emit(Event::Shuffle { deck: name.into() });
        }
        Ok(())
    }

    /// Draws `n` cards (all or none) as [`GameState::draw`] does, each taken out of the draw
    /// pile as it stands by `choose` (a position in a shuffled pile, a card typed in), which
    /// fails only when it cannot choose at all. Nothing changes unless all `n` are drawn.
    /// Then it keeps them or lays them on the discards as `then` says.
    pub fn draw_chosen(
        &mut self,
        name: &str,
        n: usize,
        then: Drawn,
        choose: &mut dyn FnMut(&mut Deck) -> Result<Card, StateError>,
    ) -> Result<Vec<Card>, StateError> {
        if n == 0 {
            return Err(StateError::NoCards);
        }
        let mut deck = self.deck(name)?.clone();
        // Too few cards fails as a draw does, before anything is chosen.
        if n > deck.len() {
            let refused = if n == 1 {
                deck.draw().map(|_| ())
            } else {
                deck.draw_n(n).map(|_| ())
            };
            refused?;
        }
        let mut cards = Vec::with_capacity(n);
        for _ in 0..n {
            cards.push(choose(&mut deck)?);
        }
        self.save_deck(name);
        self.decks.insert(name.to_string(), deck);
        self.drawn(name, &cards, then);
        Ok(cards)
    }

    /// Lays flipped cards on the discards, and logs the draw or the flip.
    fn drawn(&mut self, name: &str, cards: &[Card], then: Drawn) {
        let names = cards.iter().map(Card::to_string).collect();
        match then {
            Drawn::Kept => self.emit(Event::Draw {
                deck: name.into(),
                cards: names,
            }),
            Drawn::Flipped => {
                if let Some(deck) = self.decks.get_mut(name) {
                    // Just drawn, so out of the deck.
                    for card in cards {
                        deck.rediscard(*card);
                    }
                }
                self.emit(Event::Flip {
                    deck: name.into(),
                    cards: names,
                });
            }
        }
    }

    /// Shuffles again, from the generator and without logging, the draw pile of every deck
    /// whose order is hidden (shuffled at some time, [`Deck::in_order`] false), so that a Monte
    /// Carlo run on its own generator draws cards at random rather than the cards this game's
    /// pile happens to hold on top. A deck in a known order keeps it.
    pub fn reshuffle_hidden_piles(&mut self) {
        let hidden: Vec<String> = self
            .decks
            .iter()
            .filter(|(_, d)| !d.in_order())
            .map(|(name, _)| name.clone())
            .collect();
        for name in hidden {
            self.save_deck(&name);
            let GameState { decks, rng, .. } = self;
            if let Some(deck) = decks.get_mut(&name) {
                deck.shuffle(rng);
            }
        }
    }

    /// Shuffles a deck's draw pile.
    pub fn shuffle(&mut self, name: &str) -> Result<(), StateError> {
        self.deck(name)?;
        self.save_deck(name);
        let GameState { decks, rng, .. } = self;
        decks
            .get_mut(name)
            .map(|d| d.shuffle(rng))
            .ok_or_else(|| self.no_deck(name))?;
        self.emit(Event::Shuffle { deck: name.into() });
        Ok(())
    }

    /// Shuffles a deck's discards back into it.
    pub fn reshuffle(&mut self, name: &str) -> Result<(), StateError> {
        self.deck(name)?;
        self.save_deck(name);
        let GameState { decks, rng, .. } = self;
        decks
            .get_mut(name)
            .map(|d| d.reshuffle(rng))
            .ok_or_else(|| self.no_deck(name))?;
        self.emit(Event::Reshuffle { deck: name.into() });
        Ok(())
    }

    /// Draws `n` cards (all or none), then keeps them or lays them face up on the discards
    /// as `then` says.
    pub fn draw(&mut self, name: &str, n: usize, then: Drawn) -> Result<Vec<Card>, StateError> {
        if n == 0 {
            return Err(StateError::NoCards);
        }
        self.deck(name)?;
        self.save_deck(name);
        let deck = self.deck_mut(name)?;
        // One card: the deck's own message says what to do when it is empty.
        let drawn = if n == 1 {
            deck.draw().map(|c| vec![c])
        } else {
            deck.draw_n(n)
        };
        let cards = drawn.map_err(StateError::Cards)?;
        self.drawn(name, &cards, then);
        Ok(cards)
    }

    /// Puts a card on a deck's discards: only a card out of the deck may go there
    /// ([`Deck::discard`]). Undone by taking it off again, not by a copy of the deck.
    pub fn discard(&mut self, name: &str, card: Card) -> Result<(), StateError> {
        self.deck_mut(name)?.discard(card)?;
        self.remember(Undo::Discard(name.to_string()));
        self.emit(Event::Discard {
            deck: name.into(),
            card: card.to_string(),
        });
        Ok(())
    }
}

/// Cuts a text to [`MAX_TEXT`] characters.
pub fn clip(text: String) -> String {
    match text.char_indices().nth(MAX_TEXT) {
        // A new string: truncating would keep the long one's allocation.
        Some((i, _)) => format!("{}…", &text[..i]),
        None => text,
    }
}

#[cfg(test)]
mod tests;
