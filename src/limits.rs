//! Every limit sandtable keeps, with its number, in one place.
//!
//! Scenarios, house rules, saves and journals are shared between strangers, so everything a
//! shared file can make the program do is bounded: its size, the time and memory a script may
//! take, the units on the table, the numbers the table holds. Each limit is here, named and
//! documented; the modules that enforce one re-export it where it belongs (`host::dice`
//! re-exports [`MAX_DICE`], ...), and every message that names a limit prints its number.
//! `docs/security.md` lists them.
//!
//! This module is plain constants, below every layer, so that the host can use it too.

use std::time::Duration;

// ---- Files -----------------------------------------------------------------------------

/// The largest script file read, in bytes: a house rule, a ruleset's script, an ability, an
/// imported module, a `.rhai` batch file and one prompt or batch entry. At this size the
/// slowest script known to compile (one statement per two bytes) takes about a tenth of a
/// second (`docs/performance.md`), well within the [`TIME_BUDGET`].
pub const MAX_SCRIPT_BYTES: usize = 1 << 20;
/// How long a save's temporary file (`.sandtable-save-*.partial`) may go unwritten before
/// the next save into its folder takes it for one whose writer was killed, and removes it:
/// 10 minutes. A save is written in one go, in seconds even at its largest; a file whose
/// writer's process is known to be gone is removed at once.
pub const STALE_PARTIAL_AGE: Duration = Duration::from_secs(10 * 60);
/// The largest scenario or `ruleset.yaml` read, in bytes, refused before it is read: a
/// scenario of the most units ([`MAX_UNITS`]) written out in full is under 1 MiB, and the
/// YAML reader holds several times a file's size while it reads it.
pub const MAX_SCENARIO_BYTES: usize = 8 << 20;
/// The largest save opened, in bytes, refused before it is read: reading a save holds about
/// 20 times its size (its text, the values parsed, then the game), so 32 MiB stays well
/// within the 1 GB a shared file may make the program take. A save writes at most
/// [`MAX_SAVED_LOG_BYTES`] of its log, so every save written opens again.
pub const MAX_SAVE_BYTES: usize = 32 << 20;
/// The bytes of log a save writes, as JSON: the newest entries that fit, the older ones
/// counted as dropped (as the game's own log, [`MAX_LOG_BYTES`]).
pub const MAX_SAVED_LOG_BYTES: usize = 16 << 20;
/// The largest journal replayed or resumed, in bytes, refused before it is read: a journal
/// holds one line per entry typed, each at most [`MAX_SCRIPT_BYTES`].
pub const MAX_JOURNAL_BYTES: usize = 64 << 20;
/// The largest batch file of prompt lines `sandtable run` reads (from a file or standard
/// input), in bytes; each entry in it is held to [`MAX_SCRIPT_BYTES`]. Two million lines of
/// `roll 1d6`; read whole, so that a diagnostic can quote it, and never past this (`run
/// /dev/zero` read 4.3 GB in 10 seconds).
pub const MAX_BATCH_BYTES: usize = 64 << 20;

// ---- Scripts ---------------------------------------------------------------------------

/// Processor time for one call into the scripts (one action, one hook), and for compiling
/// one script: the time the thread running it used, so that a busy machine refuses no
/// script an idle one accepts (`script::clock`).
pub const TIME_BUDGET: Duration = Duration::from_secs(2);
/// How many times its [`TIME_BUDGET`] a call or a compile may be blocked (by the wall clock,
/// neither running nor waiting for a core), however little processor time it used: a thread
/// that is blocked still ends (after 10 seconds). Where the system does not say how long a
/// thread waited for a core, all time off a core counts (`script::clock`).
pub const WALL_CLOCK_FACTOR: u32 = 5;
/// How many times its [`TIME_BUDGET`] a call or a compile may take by the wall clock in any
/// case, however little processor time it used (120 seconds): a script whose thread gets at
/// least a sixtieth of a core is never stopped for being starved (16 busy programs on two
/// cores give it about an eighth, and it took 61 s by the clock to use 1.5 s).
pub const MAX_WALL_FACTOR: u32 = 60;
/// Rhai operations per call (a loop iteration is a few).
pub const MAX_OPERATIONS: u64 = 50_000_000;
/// Nested function calls.
pub const MAX_CALL_LEVELS: usize = 48;
/// Expression nesting at a script's top level.
pub const MAX_EXPR_DEPTH: usize = 64;
/// Expression nesting inside a function.
pub const MAX_FUNCTION_EXPR_DEPTH: usize = 48;
/// Bytes in one string.
pub const MAX_STRING_BYTES: usize = 1 << 20;
/// Items in one array.
pub const MAX_ARRAY_ITEMS: usize = 100_000;
/// Entries in one object map.
pub const MAX_MAP_ENTRIES: usize = 10_000;
/// Variables in scope.
pub const MAX_VARIABLES: usize = 10_000;
/// Functions defined in one script.
pub const MAX_FUNCTIONS: usize = 10_000;
/// Variables the top level of a script or a prompt line may define, of [`MAX_VARIABLES`]: the
/// rest is kept for the functions it calls.
pub const MAX_TOP_LEVEL_VARIABLES: usize = 5_000;
/// Modules one script may import.
pub const MAX_MODULES: usize = 64;
/// Imports nested inside imports (a module importing a module importing ...). Each level
/// takes the native stack: two modules importing each other overflowed it and aborted the
/// program, and a chain of 400 did so on the main thread (a `sim` thread has as much:
/// [`SCRIPT_THREAD_STACK`]).
pub const MAX_IMPORT_DEPTH: usize = 16;
/// How deeply hooks may call `ask` from inside other hooks.
pub const MAX_HOOK_DEPTH: usize = 8;
/// House rules in force at once: those a scenario lists, and those `--with` and `:with` add.
/// Each may take its [`TIME_BUDGET`] to compile and another to run its top level: an 82 KB
/// scenario listing a one-second house rule 5,000 times loaded for over an hour. A house rule
/// listed twice is refused too.
pub const MAX_HOUSE_RULES: usize = 64;
/// Processor time for loading all of a game's scripts (its ruleset's, its abilities, its house
/// rules: compiled and their top levels run), however many there are; each is held to its
/// own [`TIME_BUDGET`] besides, and the wall-clock backstop is the same factor of this
/// (`script::clock`).
pub const LOAD_BUDGET: Duration = Duration::from_secs(10);
/// The native stack, in bytes, of each thread besides the main one that runs scripts (the
/// workers of `sim`): 8 MiB, the main thread's usual stack, which holds [`MAX_CALL_LEVELS`]
/// nested calls in a debug build. A thread's default of 2 MiB overflowed at 41 nested calls
/// there, which aborted the program.
pub const SCRIPT_THREAD_STACK: usize = 8 << 20;

/// The bytes the whole program may hold while a script runs, when it counts them (the
/// `sandtable` binary does: `memory::Counting`): past it the call under way stops, its
/// changes undone and what it kept let go. The game's own stores have smaller limits of
/// their own (`MAX_TABLE_BYTES`, ...); this one catches what no store counts, the scripts'
/// values (1,000 variables of 1 MiB kept by a batch held 1.7 GB), and keeps the program
/// under the 1 GB no shared file or script may drive it past.
pub const MAX_MEMORY_BYTES: usize = 768 << 20;

// ---- The prompt ------------------------------------------------------------------------

/// Functions defined at the prompt (or by a batch) kept at once. Defining a function again
/// with the same name and number of parameters replaces it and takes no new place.
pub const MAX_PROMPT_FUNCTIONS: usize = 1_000;
/// Bytes of the entries that define the functions kept at the prompt, added up.
pub const MAX_PROMPT_FUNCTION_BYTES: usize = 1 << 20;
/// Actions `:undo` can take back.
pub const MAX_UNDO: usize = 1_000;

// ---- One action ------------------------------------------------------------------------

/// Events and undo entries one action may record.
pub const MAX_RECORDS_PER_ACTION: usize = 1_000_000;
/// Bytes of text one action may put in the log.
pub const MAX_LOG_BYTES_PER_ACTION: usize = 64 << 20;
/// Bytes of the old values one action's changes keep so that they can be undone (a private
/// stat set again and again to a new long text keeps each old one).
pub const MAX_UNDO_BYTES_PER_ACTION: usize = 64 << 20;
/// Characters of one line of narration, print or debug output; longer ones are cut.
pub const MAX_TEXT: usize = 64 * 1024;

// ---- What one game holds -----------------------------------------------------------------

/// Bytes the table may hold, counted as they grow: the units' names, stats, tags, groups and
/// abilities, the game's own stats and the decks (`GameState`). A change that would take the
/// table past it is refused, whichever script makes it, private stats and tags included
/// (they are not logged). Real games hold a few hundred KB.
pub const MAX_TABLE_BYTES: usize = 64 << 20;
/// Bytes of log a game keeps (a long evening's game logs a few MB): past it, the oldest
/// entries are dropped, down to three quarters of it, and their number kept (`:log` says how
/// many). The journal, not the log, is what replays a game, so replay stays exact.
pub const MAX_LOG_BYTES: usize = 16 << 20;
/// Bytes of old values the undo history keeps: past it, the oldest actions can no longer be
/// undone, as past [`MAX_UNDO`] actions.
pub const MAX_UNDO_BYTES: usize = 64 << 20;

// ---- The table -------------------------------------------------------------------------

/// Units in one game: a scenario's, a save's, and those spawned in play.
pub const MAX_UNITS: usize = 5_000;
/// Units one scenario entry may make with `count`.
pub const MAX_COUNT: u32 = 1_000;
/// Characters of a unit's name.
pub const MAX_NAME: usize = 200;
/// How far from the table's corner, in inches, a position may be, in any direction (a unit
/// may leave the table, a script may measure past it, but no number is out of reach).
pub const MAX_COORDINATE: f64 = 1_000_000.0;
/// The largest size, in inches: a table's width or depth, a base, a terrain feature's size.
pub const MAX_SIZE: f64 = 10_000.0;
/// The largest stat, hits or stands, either way from zero.
pub const MAX_STAT: i64 = 1_000_000_000;
/// The items a list stat may hold.
pub const MAX_STAT_LIST: usize = 64;
/// Turns an auto-played battle (`battle`, `sim`) may last: one that has not ended by then is
/// an error in the rules, a victory condition that can never be met.
pub const MAX_TURNS: i64 = 1_000;
/// Plays (a side's `play_turn`, then `end_turn`) an auto-played battle may take with one
/// turn number: a turn of six phases, some in sub-phases, for each of several sides takes
/// dozens; more than this is an `end_turn` going round its phases without starting a new turn.
pub const MAX_STEPS_PER_TURN: usize = 1_000;
/// Plays an auto-played battle may take in all: [`MAX_TURNS`] turns of [`MAX_STEPS_PER_TURN`]
/// plays. It catches an `end_turn` that sets the turn back, which the two limits above do not.
pub const MAX_BATTLE_STEPS: usize = 1_000_000;
/// Cards a script may put in one deck: host calls must stay cheap, since the time budget is
/// checked between them.
pub const MAX_DECK: usize = 1_000;
/// Steps `sample_path` may cut one path into: host calls must stay cheap, since the time
/// budget is checked between them (a whole table's diagonal in tenths of an inch is far less).
pub const MAX_PATH_STEPS: f64 = 100_000.0;

// ---- Dice and odds ---------------------------------------------------------------------

/// Dice one expression may write (the groups' counts added up, before explosions).
pub const MAX_DICE: u32 = 10_000;
/// Dice one roll may roll, counting the bonus dice from explosions.
pub const MAX_TOTAL_DICE: usize = 100_000;
/// Sides of one die.
pub const MAX_SIDES: u32 = 1_000_000;
/// The largest number written in a dice expression.
pub const MAX_NUMBER: i64 = 1_000_000_000;
/// Characters of a dice expression.
pub const MAX_EXPR_LEN: usize = 1_000;
/// Brackets nested in a dice expression.
pub const MAX_NESTING: usize = 64;
/// Distinct values an exact distribution may take.
pub const MAX_VALUES: usize = 1_000_000;
/// Steps (pairs of values combined, states advanced) one exact distribution may take, so
/// that every answer comes in about a second: `2d3000` or `3d300kh2` is within it, `2d10000`
/// is not.
pub const MAX_WORK: u64 = 10_000_000;
/// Dice one branch of an action's exact odds may roll before the walk gives way to an
/// estimate: a reroll or an open explosion could otherwise go on for ever.
pub const MAX_BRANCH_DICE: usize = 100;
/// Branches of dice and cards an action's exact odds may walk before giving way to an
/// estimate.
pub const MAX_BRANCHES: u64 = 50_000;
/// Seeded runs of an action when its odds are estimated.
pub const ESTIMATE_RUNS: u64 = 10_000;

// ---- Diagnostics -----------------------------------------------------------------------

/// Characters of a source line a diagnostic shows whole; a longer one (a scenario written on
/// one line) is shown as a window around the label. miette panics when it draws a label more
/// than 65,535 columns into a line, and a line of that length is unreadable anyway.
pub const MAX_SHOWN_LINE: usize = 1000;
