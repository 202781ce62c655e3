//! The command line: one entry point per command, exit codes 0 (success), 1 (the game or a
//! script reported an error) and 2 (bad usage).

/// `println!` to standard output that never panics: when the reader has gone (`| head`),
/// output stops quietly and the command finishes as usual.
macro_rules! outln {
    ($($arg:tt)*) => {
        $crate::cli::write_out(&format!("{}\n", format_args!($($arg)*)))
    };
}

mod announcer;
mod battle;
mod capture;
mod check;
mod data_dir;
mod defs;
mod errors;
mod helper;
mod hooks;
mod journal;
mod list;
pub mod map;
mod odds;
mod play;
pub mod printable;
mod roll;
mod run;
mod schema;
mod sim;
mod watch;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};

use crate::error::Error;
use crate::game::project::Project;
use crate::game::scenario::Scenario;
use crate::session::Session;

pub use capture::{Captured, run_in_process};
pub use errors::{error_json, render_error};
pub(crate) use errors::{report_error, report_warning};

/// A rules sandbox for tabletop miniature wargames: play, house-rule and test games whose
/// rules are Rhai scripts.
#[derive(Debug, Parser)]
#[command(name = "sandtable", version, about, long_about = None)]
pub struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    common: Common,
}

/// Flags every command takes.
#[derive(Debug, Args, Clone, Default)]
pub struct Common {
    /// Seed for every roll and shuffle (default: the scenario's seed, else from the clock)
    #[arg(long, global = true, value_parser = clap::value_parser!(u64).range(..=i64::MAX as u64))]
    seed: Option<u64>,
    /// Machine-readable output: JSON, one object per line for events (one object for the
    /// whole report of `sim` and `odds`), and errors as JSON lines on standard error
    #[arg(long, global = true)]
    json: bool,
    /// The project folder holding scripts/ and scenarios/ (default: the first folder from the
    /// current one up that holds scripts/rulesets/, else the rulesets and scenarios shipped
    /// with sandtable)
    #[arg(long, global = true, value_name = "DIR")]
    project: Option<PathBuf>,
    /// The house rules of `--with`, which only the commands that take them offer (each in
    /// its own help); [`dispatch`] copies them here.
    #[arg(skip)]
    with: Vec<PathBuf>,
}

/// How many battles `sim` plays when `--runs` is not given.
pub const DEFAULT_RUNS: u64 = 1000;

/// The help of `--with` on the commands that play a game.
const WITH_HELP: &str = "Play with a house rule, after the scenario's own (repeatable)";

#[derive(Debug, Subcommand)]
enum Command {
    /// Play a scenario at the prompt (the default scenario when none is given)
    Play {
        /// The scenario file
        scenario: Option<PathBuf>,
        /// Continue a game saved with `:save`
        #[arg(long, value_name = "FILE", conflicts_with = "scenario")]
        open: Option<PathBuf>,
        /// Continue a session that crashed or was killed, from its journal (the latest by
        /// default)
        #[arg(long, value_name = "JOURNAL", num_args = 0..=1, default_missing_value = "latest", conflicts_with_all = ["scenario", "open"])]
        resume: Option<PathBuf>,
        /// Play with a house rule, after the scenario's own (repeatable; a save or a journal
        /// knows its own)
        #[arg(long = "with", value_name = "HOUSE_RULE.rhai", conflicts_with_all = ["open", "resume"])]
        with: Vec<PathBuf>,
        /// Whose eyes the screen is for at one keyboard: figures the ruleset hides are not
        /// shown to the other sides (`:as SIDE` changes it at the prompt)
        #[arg(long = "as", value_name = "SIDE")]
        eyes: Option<String>,
    },
    /// Replay a session from its journal, exactly, warning when a script has changed since
    Replay {
        /// The journal (sessions write them in the data folder)
        journal: PathBuf,
    },
    /// Run a batch file: a `.rhai` script, or a text file of prompt lines (`-` or none: standard input)
    Run {
        /// The file to run
        file: Option<PathBuf>,
        /// The scenario to run it in (default: the default scenario)
        #[arg(long)]
        scenario: Option<PathBuf>,
        /// After each action, show who changed what: dice, ranges and the abilities that
        /// changed them
        #[arg(long)]
        explain: bool,
        /// Run again, with the same seed, whenever the file or a script changes (Ctrl-C ends)
        #[arg(long)]
        watch: bool,
        #[arg(long = "with", value_name = "HOUSE_RULE.rhai", help = WITH_HELP)]
        with: Vec<PathBuf>,
    },
    /// Auto-play one whole battle with the scenario's policies and narrate it
    Battle {
        /// The scenario file
        scenario: PathBuf,
        /// After each side's turn, show who changed what
        #[arg(long)]
        explain: bool,
        #[arg(long = "with", value_name = "HOUSE_RULE.rhai", help = WITH_HELP)]
        with: Vec<PathBuf>,
    },
    /// Monte Carlo over many seeded battles, optionally against house rules
    Sim {
        /// The scenario file
        scenario: PathBuf,
        /// How many battles; 1000 by default, which puts a rate near a half within about 3
        /// points either way (its 95% interval)
        #[arg(long, default_value_t = DEFAULT_RUNS, value_parser = clap::value_parser!(u64).range(1..=100_000_000))]
        runs: u64,
        /// Worker threads (default: one per core); the result is the same for any number
        #[arg(long, value_parser = clap::value_parser!(u16).range(1..=256))]
        threads: Option<u16>,
        /// Run the same seeds again under a house rule, side by side with the scenario as it
        /// is (repeatable: each house rule on its own)
        #[arg(long = "with", value_name = "HOUSE_RULE.rhai")]
        with: Vec<PathBuf>,
    },
    /// Exact odds of a dice expression or contest, e.g. `3d6`, `5d6>=5`, `3d6 vs 2d6`
    Odds {
        #[command(flatten)]
        args: odds::OddsArgs,
        /// With `--action`: ask with a house rule in force, after the scenario's own
        /// (repeatable)
        #[arg(long = "with", value_name = "HOUSE_RULE.rhai", requires = "action")]
        with: Vec<PathBuf>,
    },
    /// Roll a dice expression once, e.g. `3d6+1`, `4d6kh3`, `3d6!`, `5d6>=5`
    Roll {
        /// The expression (it may start with `-`: `sandtable roll -1d6+3`)
        #[arg(allow_hyphen_values = true)]
        expr: String,
    },
    /// Write Rhai definition files for editors: the host API, Rhai's standard library, and
    /// the ruleset's verbs and hooks, with their docs (see docs/editors.md)
    Defs {
        /// The folder to write them into (made if absent; files of the same names in it are
        /// replaced)
        dir: PathBuf,
        /// The scenario whose ruleset's verbs and hooks to declare (the default scenario
        /// when none is given)
        scenario: Option<PathBuf>,
        /// Declare the verbs of a house rule too (repeatable)
        #[arg(long = "with", value_name = "HOUSE_RULE.rhai")]
        with: Vec<PathBuf>,
    },
    /// Check scenarios and scripts, reporting every problem
    Check {
        /// Files or folders to check
        #[arg(required = true)]
        paths: Vec<PathBuf>,
        /// The scenario to check house rules in (by default, one of the ruleset whose hooks
        /// and functions they name)
        #[arg(long)]
        scenario: Option<PathBuf>,
    },
    /// Every hook a ruleset asks: its arguments, `info` fields and meaning, where the rules
    /// ask it, and the abilities (and house rules given with `--with`) that answer it
    Hooks {
        /// The ruleset (its folder's name under scripts/rulesets/: `playmobil`)
        ruleset: String,
        /// Print the table in Markdown, as the ruleset's docs page has it
        #[arg(long, conflicts_with = "json")]
        markdown: bool,
        /// Show the hooks a house rule answers too (repeatable)
        #[arg(long = "with", value_name = "HOUSE_RULE.rhai")]
        with: Vec<PathBuf>,
    },
    /// The rulesets and scenarios at hand, one line each: a scenario's name (what `play`,
    /// `battle` and `sim` take), its ruleset and its title
    List,
    /// Print the JSON Schema of scenario files or of `ruleset.yaml`, for editors (the
    /// scenario's knows the project's rulesets)
    Schema {
        /// Which file's schema
        #[arg(value_enum)]
        of: schema::Of,
    },
    /// Draw the table of a scenario as a picture (not written yet)
    Render {
        /// The scenario file
        scenario: PathBuf,
        /// Where to write the picture
        #[arg(short, long)]
        output: PathBuf,
    },
}

/// Runs the command line of the process on the real streams and returns the exit status.
pub fn main() -> ExitCode {
    ExitCode::from(run(std::env::args_os().collect()))
}

/// Runs the command line `words` (the program's name first) and returns the exit status:
/// the one path of [`main`] and of [`run_in_process`], whose output goes wherever the
/// writers below send it.
fn run(words: Vec<std::ffi::OsString>) -> u8 {
    let cli = match Cli::try_parse_from(&words) {
        Ok(cli) => cli,
        Err(e) if e.use_stderr() && json_asked(&words) => {
            write_err(&errors::usage_error_json(&e));
            return 2;
        }
        Err(e) => {
            if capture::active() {
                let text = e.render().to_string();
                if e.use_stderr() {
                    write_err_styled(&text);
                } else {
                    write_out_styled(&text);
                }
            } else {
                let _ = e.print();
            }
            return if e.use_stderr() { 2 } else { 0 };
        }
    };
    let json = cli.common.json;
    match dispatch(cli) {
        Ok(code) => code,
        Err(e) => {
            report_error(&e, json);
            e.exit_code()
        }
    }
}

/// Whether `--json` is among the arguments (before any `--`), for a command line that clap
/// refused: its error must be JSON too.
fn json_asked(words: &[std::ffi::OsString]) -> bool {
    words
        .iter()
        .skip(1)
        .take_while(|a| *a != "--")
        .any(|a| a == "--json")
}

fn dispatch(cli: Cli) -> Result<u8, Error> {
    let mut common = cli.common;
    // `--with` belongs to the commands that take it; the rest of the program reads it here.
    if let Some(
        Command::Play { with, .. }
        | Command::Run { with, .. }
        | Command::Battle { with, .. }
        | Command::Sim { with, .. }
        | Command::Odds { with, .. }
        | Command::Defs { with, .. }
        | Command::Hooks { with, .. },
    ) = &cli.command
    {
        common.with = with.clone();
    }
    // clap leaves `requires` unchecked beside the expression (`odds 3d6 --with r.rhai`).
    if let Some(Command::Odds { args, with }) = &cli.command
        && !with.is_empty()
    {
        if args.action.is_none() {
            return Err(Error::Usage(
                "`odds --with` is for the odds of an action (`--action LINE`); a dice expression has no rules to change".into(),
            ));
        }
        if args.open.is_some() {
            return Err(Error::Usage(
                "`odds --with` means nothing with `--open`: a save knows its own house rules"
                    .into(),
            ));
        }
    }
    match cli.command {
        None => play::play(&common, None, None, None, None),
        Some(Command::Play {
            scenario,
            open,
            resume,
            eyes,
            ..
        }) => play::play(&common, scenario, open, resume.map(Some), eyes),
        Some(Command::Replay { journal }) => replay(&common, &journal),
        Some(Command::Run {
            file,
            scenario,
            explain,
            watch,
            ..
        }) if watch => run::watch(&common, file, scenario, explain),
        Some(Command::Run {
            file,
            scenario,
            explain,
            ..
        }) => run::run(&common, file, scenario, explain),
        Some(Command::Roll { expr }) => roll::roll(&common, &expr),
        Some(Command::Check { paths, scenario }) => {
            check::check(&common, &paths, scenario.as_deref())
        }
        Some(Command::Defs { dir, scenario, .. }) => defs::defs(&common, &dir, scenario),
        Some(Command::Battle {
            scenario, explain, ..
        }) => battle::battle(&common, scenario, explain),
        Some(Command::Sim {
            scenario,
            runs,
            threads,
            ..
        }) => {
            let with = common.with.clone();
            let plain = Common {
                with: Vec::new(),
                ..common
            };
            sim::sim(&plain, scenario, runs, threads.map(usize::from), &with)
        }
        Some(Command::Odds { args, .. }) => odds::odds(&common, &args),
        Some(Command::Hooks {
            ruleset, markdown, ..
        }) => hooks::hooks(&common, &ruleset, markdown),
        Some(Command::Schema { of }) => schema::schema(&common, of),
        Some(Command::List) => list::list(&common),
        Some(Command::Render { .. }) => not_yet("render", "a later issue"),
    }
}

fn not_yet(command: &str, when: &str) -> Result<u8, Error> {
    Err(Error::other(
        format!("`sandtable {command}` is not available yet"),
        Some(format!(
            "it arrives with {when}; `sandtable --help` lists what works today"
        )),
    ))
}

/// Whether to colour output on a stream: a terminal, and `NO_COLOR` unset.
fn colour(is_terminal: bool) -> bool {
    is_terminal && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
}

/// The seed to use: the flag, else the scenario's, else one from the clock.
fn choose_seed(common: &Common, scenario: Option<&Scenario>) -> u64 {
    common
        .seed
        .or_else(|| scenario.and_then(|s| s.seed))
        .unwrap_or_else(clock_seed)
}

fn clock_seed() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    // Mix in the process id so two runs in the same nanosecond still differ.
    (nanos ^ (u64::from(std::process::id()) << 32)) % 1_000_000_000
}

/// Finds the project and loads a scenario (the default one when none is given).
fn load_scenario(common: &Common, scenario: Option<PathBuf>) -> Result<(Project, Scenario), Error> {
    let project = Project::locate(common.project.as_deref())?;
    let path = match scenario {
        Some(typed) => project.find_scenario(&typed)?,
        None => project.default_scenario(),
    };
    let mut scenario = Scenario::load(&project, &path)?;
    for rule in &common.with {
        scenario.add_house_rule(rule)?;
    }
    Ok((project, scenario))
}

/// Loads a scenario (the default one when none is given) and starts a session on it.
fn start_session(common: &Common, scenario: Option<PathBuf>) -> Result<(Project, Session), Error> {
    let (project, scenario) = load_scenario(common, scenario)?;
    let seed = choose_seed(common, Some(&scenario));
    let session = Session::new(&project, scenario, seed)?;
    Ok((project, session))
}

/// `sandtable replay JOURNAL`: the session again, as it was played.
fn replay(common: &Common, path: &std::path::Path) -> Result<u8, Error> {
    let (header, items, damaged) = journal::read(path)?;
    let project = Project::locate(common.project.as_deref())?;
    let mut check = journal::Check::new(path, &project, common.json);
    let mut session = journal::start_session(&header, &project, &mut check)?;
    // A session that began by opening a save said so.
    if let (Some(_), Some(name)) = (&header.opened, &header.open) {
        play::say_opened(&session, name);
    }
    flush_events(&mut session, common.json);
    let status = play::run_lines(
        &mut session,
        items.into_iter(),
        common.json,
        play::Source::Replayed(&mut check),
        &play::DiceFeed::replaying(),
    );
    match damaged {
        None => Ok(status),
        Some(d) => Err(Error::other(
            d.stopped(path),
            Some("the lines after it are not replayed".into()),
        )),
    }
}

/// Opens a saved game in the project found as usual; in a replay, a save that a replayed
/// `:save` did not write is opened as it was saved then.
fn open_save(session: &mut Session, path: &std::path::Path) -> Result<Session, Error> {
    session.open_in_replay(path)
}

/// Prints the events logged since the last call.
fn flush_events(session: &mut Session, json: bool) {
    write_out(&crate::game::event::render(&session.take_events(), json));
}

/// Writes to standard error, ignoring failure: there is nowhere left to report it. The text is
/// made [`printable`](printable::printable) first: nothing in it acts on the terminal.
pub(crate) fn write_err(text: &str) {
    write_err_styled(&printable::printable(text));
}

/// Writes to standard error as it is: only for text whose shared parts were made printable
/// before sandtable coloured it (a miette report, see `errors::render_error`).
pub(crate) fn write_err_styled(text: &str) {
    use std::io::Write;
    if !capture::err(text.as_bytes()) {
        let _ = std::io::stderr().lock().write_all(text.as_bytes());
    }
}

/// Set once standard output is closed, so nothing more is written to it.
static STDOUT_CLOSED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Runs `write` on standard output and flushes it; once the reader has gone, stops writing
/// for good instead of panicking as `print!` does.
fn to_stdout(write: impl FnOnce(&mut std::io::StdoutLock<'static>) -> std::io::Result<()>) {
    use std::io::Write;
    use std::sync::atomic::Ordering;
    if STDOUT_CLOSED.load(Ordering::Relaxed) {
        return;
    }
    let mut stdout = std::io::stdout().lock();
    if write(&mut stdout).and_then(|()| stdout.flush()).is_err() {
        STDOUT_CLOSED.store(true, Ordering::Relaxed);
    }
}

/// Writes a long output to standard output through a buffer, as `write` produces it, rather
/// than building it in memory first; like [`write_out`], a closed standard output ends it.
pub(crate) fn write_out_with(write: impl FnOnce(&mut dyn std::io::Write) -> std::io::Result<()>) {
    use std::io::Write;
    if capture::active() {
        let mut text = Vec::new();
        // Writing to memory fails only if `write` itself does; what it wrote stands.
        let _ = write(&mut text);
        capture::out(&text);
        return;
    }
    to_stdout(|stdout| {
        let mut out = std::io::BufWriter::with_capacity(1 << 16, stdout);
        write(&mut out)?;
        out.flush()
    });
}

/// Writes to standard output; once the reader has gone, stops writing instead of panicking
/// as `print!` does. The text is made [`printable`](printable::printable) first: nothing in
/// it acts on the terminal.
pub(crate) fn write_out(text: &str) {
    write_out_styled(&printable::printable(text));
}

/// Writes to standard output as it is: only for text whose shared parts were made printable
/// before sandtable coloured it (the map).
pub(crate) fn write_out_styled(text: &str) {
    use std::io::Write;
    if !capture::out(text.as_bytes()) {
        to_stdout(|stdout| stdout.write_all(text.as_bytes()));
    }
}
