//! `sandtable play`: the prompt. On a terminal it uses rustyline (history in the user's data
//! folder, Ctrl-C cancels a line, Ctrl-D leaves, asking first if the game has unsaved
//! changes, as `:quit`, `:open` and `:load` do); with piped input it reads lines plainly and echoes each one, so a transcript
//! reads like the game.

use std::path::PathBuf;

use rustyline::history::DefaultHistory;
use rustyline::{ColorMode, CompletionType, Config, Editor};

use super::helper::PromptHelper;
use crate::session::command::standing;
use rustyline::error::ReadlineError;

use std::cell::RefCell;
use std::collections::VecDeque;
use std::rc::Rc;

use super::announcer::Announcer;
use super::journal::{Check, Item, Journal};
use super::map;
use super::watch::Watcher;
use super::{Common, flush_events, report_error, start_session};
use crate::analysis::command::run_line_as;
use crate::error::Error;
use crate::session::Session;
use crate::session::command::{self, Mode, Reply};

/// Plays a scenario at the prompt. Returns 1 if a piped game hit an error, else 0.
pub fn play(
    common: &Common,
    scenario: Option<PathBuf>,
    open: Option<PathBuf>,
    resume: Option<Option<PathBuf>>,
    eyes: Option<String>,
) -> Result<u8, Error> {
    if let Some(journal) = resume {
        return resume_play(common, journal, eyes.as_deref());
    }
    let scenario_path = if open.is_none() {
        scenario.clone()
    } else {
        None
    };
    let open_path = open.clone();
    let mut session = match open {
        Some(save) => {
            let project = crate::game::project::Project::locate(common.project.as_deref())?;
            let session = Session::open(&project, &save)?;
            say_opened(&session, &save);
            session
        }
        None => start_session(common, scenario)?.1,
    };
    flush_events(&mut session, common.json);
    session.set_eyes(eyes.as_deref())?;
    let scenario_path =
        scenario_path.or_else(|| open_path.is_none().then(|| session.scenario().path.clone()));
    let journal = Rc::new(RefCell::new(Journal::start(
        &session,
        scenario_path,
        open_path,
        common.json,
    )));
    go_on(&mut session, common.json, journal)
}

/// Says which game was opened, and where it stands.
pub fn say_opened(session: &Session, path: &std::path::Path) {
    let state = session.state();
    outln!("opened {}: {}", path.display(), standing(&state));
}

/// Plays on at the prompt (or from piped input), writing the journal.
fn go_on(session: &mut Session, json: bool, journal: Rc<RefCell<Journal>>) -> Result<u8, Error> {
    let feed = DiceFeed::live(&journal);
    if super::capture::is_terminal(std::io::stdin()) {
        interactive(session, json, &journal, &feed)
    } else {
        let lines = std::iter::from_fn(read_line).map(|l| Item::Line(l, Vec::new()));
        Ok(run_lines(
            session,
            lines,
            json,
            Source::Played(&journal),
            &feed,
        ))
    }
}

/// Where the dice and cards typed by the players come from: standard input (and then into the
/// journal), or, while a journal is replayed, the answers it recorded.
#[derive(Clone, Default)]
pub struct DiceFeed {
    replay: Rc<RefCell<Option<VecDeque<String>>>>,
    journal: Option<Rc<RefCell<Journal>>>,
    /// Whether a replayed question and its answer go unshown (`play --resume` replays
    /// quietly; `replay` shows the session as it was played).
    quiet: bool,
}

impl DiceFeed {
    /// A feed of recorded answers (for replaying a journal), each question shown with its
    /// answer as it was played.
    pub fn replaying() -> DiceFeed {
        DiceFeed {
            replay: Rc::new(RefCell::new(Some(VecDeque::new()))),
            journal: None,
            quiet: false,
        }
    }

    /// The players' own answers, typed in and written to `journal`.
    fn live(journal: &Rc<RefCell<Journal>>) -> DiceFeed {
        DiceFeed {
            journal: Some(journal.clone()),
            ..DiceFeed::default()
        }
    }

    /// A feed of recorded answers that shows nothing (for `play --resume`).
    fn replaying_quietly() -> DiceFeed {
        DiceFeed {
            quiet: true,
            ..DiceFeed::replaying()
        }
    }

    /// Sets the recorded answers for the next line.
    fn queue(&self, answers: Vec<String>) {
        if let Some(q) = self.replay.borrow_mut().as_mut() {
            *q = answers.into();
        }
    }

    fn asker(&self) -> crate::script::api::DiceAsker {
        let feed = self.clone();
        Box::new(move |prompt| feed.ask(prompt))
    }

    fn ask(&self, prompt: &str) -> Option<String> {
        if let Some(queue) = self.replay.borrow_mut().as_mut() {
            let answer = queue.pop_front();
            if !self.quiet {
                super::write_out(&format!("{prompt}{}\n", answer.as_deref().unwrap_or("")));
            }
            return answer;
        }
        let answer = ask_dice(prompt);
        if let (Some(j), Some(a)) = (&self.journal, &answer) {
            j.borrow_mut().record_dice(a);
        }
        answer
    }
}

/// `play --resume [JOURNAL]`: replays the lines of a journal (the latest by default) quietly,
/// then goes on at the prompt, writing to the same journal.
fn resume_play(common: &Common, journal: Option<PathBuf>, eyes: Option<&str>) -> Result<u8, Error> {
    let path = match journal.filter(|p| p.as_os_str() != "latest") {
        Some(p) => p,
        None => super::journal::latest().ok_or_else(|| {
            Error::other(
                "there is no session to resume",
                Some("journals are kept in the data folder by `sandtable play`".into()),
            )
        })?,
    };
    let (header, items, damaged) = super::journal::read(&path)?;
    let project = crate::game::project::Project::locate(common.project.as_deref())?;
    let mut check = Check::new(&path, &project, common.json);
    let mut session = super::journal::start_session(&header, &project, &mut check)?;
    let feed = DiceFeed::replaying_quietly();
    let mut lines = 0;
    for item in items {
        let Item::Line(line, dice) = item else {
            replay_rules(&mut session, item, &mut check, common.json, false);
            continue;
        };
        lines += 1;
        feed.queue(dice);
        // The replayed part writes nothing (`:save` was done when it was played).
        let origin = format!("journal line {lines}");
        match run_line_as(&mut session, &origin, &line, Mode::Replay) {
            Ok(Reply::Dice(true)) => session.set_manual_dice(Some(feed.asker())),
            Ok(Reply::Dice(false)) => session.set_manual_dice(None),
            Ok(Reply::Cards(true)) => session.set_manual_cards(Some(feed.asker())),
            Ok(Reply::Cards(false)) => session.set_manual_cards(None),
            // The game opened then, as it was saved then.
            Ok(Reply::Open(path)) => match super::open_save(&mut session, &path) {
                Ok(mut opened) => {
                    session.hand_over_real_dice_and_cards(&mut opened);
                    session = opened;
                }
                Err(e) => {
                    if matches!(e, Error::NotRead(_)) {
                        report_error(&e, common.json);
                    }
                    continue;
                }
            },
            // The lines that failed were shown failing when they were played; a file the
            // journal names and may not be read is news.
            Err(e) => {
                if matches!(e, Error::NotRead(_)) {
                    report_error(&e, common.json);
                }
                continue;
            }
            Ok(_) => {}
        }
        // The end of the battle was told after the line that brought it, when it was played:
        // asked again here as then, so that the resumed game does not tell it again.
        let _ = session.end_not_yet_told();
    }
    // The replayed part was shown when it was first played.
    let _ = session.take_events();
    if eyes.is_some() {
        session.set_eyes(eyes)?;
    }
    session.forget_unwritten();
    let state = session.state();
    outln!(
        "resumed {}: {} lines replayed; {}",
        path.display(),
        lines,
        standing(&state)
    );
    drop(state);
    let journal = match &damaged {
        None => Journal::append(&path, &session, common.json),
        Some(d) => {
            // Lines played from now on must not follow the damaged one, where no resume
            // would reach them: they go to a new journal, after a copy of the good lines.
            let journal = Journal::continue_from(&path, d.line - 1, &session, common.json);
            super::report_warning(
                &format!(
                    "{}; the lines after it are not played, and the journal `{}` goes on from there",
                    d.stopped(&path),
                    journal.path().display()
                ),
                common.json,
            );
            journal
        }
    };
    let journal = Rc::new(RefCell::new(journal));
    // Dice and cards from the players again, recorded in the journal.
    let live = DiceFeed::live(&journal);
    if session.manual_dice() {
        session.set_manual_dice(Some(live.asker()));
    }
    if session.manual_cards() {
        session.set_manual_cards(Some(live.asker()));
    }
    go_on(&mut session, common.json, journal)
}

/// Tells the players the battle is over, once, after the line that ended it (the ruleset's
/// `victory`); they may play on, or take the line back with `:undo`.
fn tell_the_end(session: &mut Session, json: bool) {
    match session.end_not_yet_told() {
        Ok(Some(outcome)) => {
            outln!("{}", super::battle::result(session, &outcome, json));
            if !json {
                outln!(
                    "the battle is over: `:undo` takes back the last action, `:save` keeps the game, `:quit` leaves"
                );
            }
        }
        Ok(None) => {}
        Err(e) => report_error(&e, json),
    }
}

/// Carries out one (possibly multi-line) entry and shows what happened, and then, if it
/// ended the battle, the end. Returns `None` to quit, else whether it succeeded.
fn carry_out(
    session: &mut Session,
    origin: &str,
    entry: &str,
    json: bool,
    feed: &DiceFeed,
    mode: Mode,
    secret: Option<&str>,
) -> Option<bool> {
    let result = run_line_as(session, origin, entry, mode);
    // A secret verb's line tells nothing on the screen but that it was done.
    let result = match (secret, result) {
        (Some(said), Ok(Reply::Done | Reply::Text(_))) => {
            let _ = session.take_events();
            Ok(Reply::Text(said.to_string()))
        }
        (_, result) => {
            flush_events(session, json);
            result
        }
    };
    // How a `:save` went, so that a replay fails where this one did.
    if mode == Mode::Play
        && command::is_save(entry)
        && let Some(journal) = &feed.journal
    {
        journal.borrow_mut().record_saved(result.as_ref().err());
    }
    let done = match result {
        Ok(Reply::Quit) => None,
        Ok(Reply::Dice(manual)) => {
            if manual {
                session.set_manual_dice(Some(feed.asker()));
                outln!("dice: manual. Roll your dice when asked and type what they show.");
            } else {
                session.set_manual_dice(None);
                outln!("dice: automatic");
            }
            Some(true)
        }
        Ok(Reply::Cards(manual)) => {
            if manual {
                session.set_manual_cards(Some(feed.asker()));
                outln!("cards: manual. Draw your cards when asked and type what they are.");
            } else {
                session.set_manual_cards(None);
                outln!("cards: automatic");
            }
            Some(true)
        }
        Ok(Reply::Open(path)) => match super::open_save(session, &path) {
            Ok(mut opened) => {
                session.hand_over_real_dice_and_cards(&mut opened);
                let _ = opened.set_eyes(session.eyes());
                *session = opened;
                if let Some(journal) = &feed.journal {
                    journal.borrow_mut().record_opened(session);
                }
                say_opened(session, &path);
                Some(true)
            }
            Err(e) => {
                report_error(&e, json);
                Some(false)
            }
        },
        // Never here: `analysis::command::run_line_as` answers the odds a line asks for.
        Ok(Reply::Done | Reply::Odds { .. }) => Some(true),
        Ok(Reply::Map) => {
            if !json {
                let colour = super::colour(super::capture::is_terminal(std::io::stdout()));
                // Coloured: its names were made printable before they were painted.
                let seen = |i: usize| session.seen(i);
                super::write_out_styled(&format!(
                    "{}\n",
                    map::draw_seen(&session.state(), map::COLUMNS, colour, &seen)
                ));
            }
            Some(true)
        }
        Ok(Reply::Text(text)) => {
            if !json {
                outln!("{text}");
            }
            Some(true)
        }
        Ok(Reply::Unwritten { text, file }) => {
            // Standard output is the session's, as it was played.
            if !json {
                outln!("{text}");
            }
            super::report_warning(&format!("replay: not saved to {}", file.display()), json);
            Some(true)
        }
        Err(e) => {
            report_error(&e, json);
            Some(false)
        }
    };
    if done == Some(true) {
        tell_the_end(session, json);
    }
    done
}

/// Applies edits to the game's scripts before the next action, noted in the journal. With
/// `announced`, an [`Announcer`] has told of a changed scenario already.
fn hot_reload(
    session: &mut Session,
    watcher: &mut Watcher,
    json: bool,
    journal: &RefCell<Journal>,
    announced: bool,
) {
    let changed = watcher.changes();
    if changed.is_empty() {
        return;
    }
    journal.borrow_mut().record_reload(&changed, session);
    reload_changed(session, changed, json, true, announced);
    journal.borrow_mut().note(session);
    // The watcher follows the new session's files (a house rule may have been added).
    *watcher = Watcher::new(session.script_paths());
}

/// Replays what a journal says of the rules between its lines: a hot reload where the
/// session made one (shown as it was, with `show`), and the scripts the session read,
/// checked against their fingerprints then.
fn replay_rules(session: &mut Session, item: Item, check: &mut Check, json: bool, show: bool) {
    match item {
        Item::Reload(changed) => reload_changed(session, changed, json, show, false),
        Item::Read { line, scripts } => check.compare(&scripts, Some(line)),
        Item::Opened { line, save } => session.expect_open(check.recorded(line, *save)),
        Item::Saved { failed, .. } => {
            session.expect_save(failed.map(|e| Error::Recorded(Box::new(e))));
        }
        Item::Line(..) => {}
    }
}

/// Applies edits to the game's scripts (`changed`) before the next action: the new code is in
/// force from it on, the game keeps every unit, card and roll; a broken edit leaves the old
/// code. With `show`, says so; with `announced`, an [`Announcer`] has told of a changed
/// scenario already.
fn reload_changed(
    session: &mut Session,
    mut changed: Vec<PathBuf>,
    json: bool,
    show: bool,
    announced: bool,
) {
    // A changed scenario is a new game, not an edit of the rules: say so, and leave it to
    // `:load`.
    // A replayed reload names the scenario relative to the project.
    let root = session.project().root().to_path_buf();
    let scenario = std::fs::canonicalize(&session.scenario().path)
        .unwrap_or_else(|_| session.scenario().path.clone());
    if let Some(i) = changed
        .iter()
        .position(|p| std::fs::canonicalize(root.join(p)).is_ok_and(|p| p == scenario))
    {
        changed.remove(i);
        if show && !announced {
            outln!(
                "{} changed: `:load {}` starts a game of it",
                session.scenario().path.display(),
                session.scenario().path.display()
            );
        }
    }
    if changed.is_empty() {
        return;
    }
    let names: Vec<String> = changed
        .iter()
        .map(|p| p.strip_prefix(&root).unwrap_or(p).display().to_string())
        .collect();
    let reloaded = session.reload();
    if !show {
        return;
    }
    match reloaded {
        Ok(summary) => outln!("{} changed: {summary}", names.join(", ")),
        Err(e) => {
            super::report_warning(
                &format!(
                    "{} changed, but the old rules stay in force:",
                    names.join(", ")
                ),
                json,
            );
            report_error(&e, json);
        }
    }
}

/// Asks the players for a roll of real dice: the prompt on standard output, the answer from
/// standard input (a line of a pipe, or typed at the terminal).
fn ask_dice(prompt: &str) -> Option<String> {
    super::write_out(prompt);
    let answer = read_line();
    // Piped answers are not echoed by a terminal: show them, as lines are (and as a replay
    // of the journal does).
    if !super::capture::is_terminal(std::io::stdin()) {
        super::write_out(&format!("{}\n", answer.as_deref().unwrap_or("")));
    }
    answer
}

/// One line of standard input (or of the text a run in the process reads), without holding
/// a lock between lines (manual dice read from the same input between two entries).
fn read_line() -> Option<String> {
    super::capture::read_line()
}

/// The ruleset's word for a line of a secret verb (`order written`), when `text` is one.
fn secret_verb(session: &Session, text: &str) -> Option<String> {
    let first = text.split_whitespace().next()?;
    session.secret_verb(first).map(str::to_string)
}

fn prompt(session: &Session, continuing: bool) -> String {
    if continuing {
        return "... ".into();
    }
    let state = session.state();
    let mut side = super::printable::printable(&state.active_side).into_owned();
    if let Some(eyes) = session.eyes() {
        side = format!("{side} (for {})", super::printable::printable(eyes));
    }
    if state.phase.is_empty() {
        format!("turn {} · {side} > ", state.turn)
    } else {
        let phase = super::printable::printable(state.phase_name()).into_owned();
        format!("turn {} · {phase} · {side} > ", state.turn)
    }
}

fn history_file() -> Option<PathBuf> {
    let dir = super::data_dir::data_dir()?;
    std::fs::create_dir_all(&dir).ok()?;
    Some(dir.join("history"))
}

fn interactive(
    session: &mut Session,
    json: bool,
    journal: &Rc<RefCell<Journal>>,
    feed: &DiceFeed,
) -> Result<u8, Error> {
    // Tab completes as far as the matches agree, and a second Tab lists them, as in a
    // shell: cycling through twenty unit ids one by one hides which there are.
    // Colour is forced so that the helper's mask of a secret verb's arguments is always drawn
    // (the helper adds no colour of its own).
    let config = Config::builder()
        .completion_type(CompletionType::List)
        .color_mode(ColorMode::Forced)
        .build();
    let mut editor: Editor<PromptHelper, DefaultHistory> = Editor::with_config(config)
        .map_err(|e| Error::other(format!("cannot start the prompt: {e}"), None))?;
    editor.set_helper(Some(PromptHelper::default()));
    let history = history_file();
    if let Some(h) = &history {
        let _ = editor.load_history(h);
    }
    outln!(
        "{} - type :help for the verbs, :quit to leave",
        session.scenario().name
    );
    let mut entry = crate::session::line::Entry::default();
    let mut number = 0;
    let mut watcher = Watcher::new(session.script_paths());
    // Edits are told of while the prompt waits, unless output is not a terminal or is JSON
    // (the reload at the next line reports them then, as it always does).
    let mut announcer = if json {
        None
    } else {
        editor
            .create_external_printer()
            .ok()
            .map(|printer| Announcer::start(printer, session))
    };
    loop {
        if let Some(h) = editor.helper_mut() {
            h.refresh(session);
        }
        watcher.follow(session.script_paths());
        if let Some(a) = &mut announcer {
            a.follow(session);
        }
        match editor.readline(&prompt(session, !entry.is_empty())) {
            Ok(line) => {
                if session.entry_needs_more(&mut entry, &line) {
                    continue;
                }
                let text = entry.take();
                // A secret verb's line is shown as `*` (see `PromptHelper`), kept out of the
                // history (where the arrow keys would show it), and tells only the ruleset's
                // word for it (`order written`).
                let secret = secret_verb(session, &text);
                if secret.is_none() {
                    let _ = editor.add_history_entry(text.trim_end());
                }
                // Leaving is no part of the game: a `:quit` the player takes back must not
                // end a replay of the journal there.
                if command::is_quit(&text) {
                    if may_leave(&mut editor, session) {
                        break;
                    }
                    continue;
                }
                // Nor is an `:open` or `:load` the player takes back.
                if let Some(question) = command::replaces_game(&text)
                    && !may_replace(&mut editor, session, question)
                {
                    continue;
                }
                hot_reload(session, &mut watcher, json, journal, announcer.is_some());
                journal.borrow_mut().record(text.trim_end());
                number += 1;
                let done = carry_out(
                    session,
                    &format!("prompt line {number}"),
                    text.trim_end(),
                    json,
                    feed,
                    Mode::Play,
                    secret.as_deref(),
                );
                journal.borrow_mut().note(session);
                if done.is_none() && may_leave(&mut editor, session) {
                    break;
                }
            }
            Err(ReadlineError::Interrupted) => {
                entry.take();
            }
            Err(ReadlineError::Eof) => {
                if may_leave(&mut editor, session) {
                    break;
                }
            }
            Err(e) => return Err(Error::other(format!("the prompt failed: {e}"), None)),
        }
    }
    if let Some(h) = &history {
        let _ = editor.save_history(h);
    }
    Ok(0)
}

/// Where the lines [`run_lines`] carries out come from, and so what becomes of them.
pub enum Source<'a> {
    /// Piped in: edits are reloaded as they are noticed, and each line and reload is written
    /// to the journal.
    Played(&'a Rc<RefCell<Journal>>),
    /// Replayed from a journal: nothing is written, reloads happen where the journal says,
    /// and `Check` names each script not as the session read it.
    Replayed(&'a mut Check),
}

/// Whether the player may leave: at once if the game has no unsaved changes, else if they
/// say so. No (the default) and Ctrl-C stay; yes, or Ctrl-D again, leaves.
fn may_leave(editor: &mut Editor<PromptHelper, DefaultHistory>, session: &Session) -> bool {
    if !session.changed_since_save() {
        return true;
    }
    match editor.readline("the game has changes since it was last saved; leave anyway? [y/N] ") {
        Ok(answer) => matches!(answer.trim().to_lowercase().as_str(), "y" | "yes"),
        Err(ReadlineError::Interrupted) => false,
        Err(_) => true,
    }
}

/// Whether the player may throw the game away for another (`:open`, `:load`): at once if
/// it has no unsaved changes, else if they say so to `question`. No (the default), Ctrl-C
/// and Ctrl-D keep the game; yes replaces it.
fn may_replace(
    editor: &mut Editor<PromptHelper, DefaultHistory>,
    session: &Session,
    question: &str,
) -> bool {
    if !session.changed_since_save() {
        return true;
    }
    match editor.readline(question) {
        Ok(answer) => matches!(answer.trim().to_lowercase().as_str(), "y" | "yes"),
        Err(_) => false,
    }
}

/// Carries out lines read one by one (piped input, a replayed journal), echoing each; the
/// exit status is 1 if any failed.
pub fn run_lines(
    session: &mut Session,
    items: impl Iterator<Item = Item>,
    json: bool,
    mut source: Source<'_>,
    feed: &DiceFeed,
) -> u8 {
    let mode = match source {
        Source::Played(_) => Mode::Play,
        Source::Replayed(_) => Mode::Replay,
    };
    let mut failed = false;
    let mut entry = crate::session::line::Entry::default();
    let mut start_line = 0;
    let mut number = 0;
    let mut watcher = Watcher::new(session.script_paths());
    for item in items {
        let (line, dice) = match (item, &mut source) {
            (Item::Line(line, dice), _) => (line, dice),
            (item, Source::Replayed(check)) => {
                replay_rules(session, item, check, json, true);
                continue;
            }
            (_, Source::Played(_)) => continue,
        };
        number += 1;
        if entry.is_empty() {
            start_line = number;
        }
        feed.queue(dice);
        if session.entry_needs_more(&mut entry, &line) {
            continue;
        }
        let text = entry.take();
        let text = text.trim_end();
        watcher.follow(session.script_paths());
        if let Source::Played(journal) = source {
            hot_reload(session, &mut watcher, json, journal, false);
            journal.borrow_mut().record(text);
        }
        if !json && !text.trim().is_empty() {
            outln!("> {text}");
        }
        let done = carry_out(
            session,
            &format!("stdin line {start_line}"),
            text,
            json,
            feed,
            mode,
            None,
        );
        if let Source::Played(journal) = source {
            journal.borrow_mut().note(session);
        }
        match done {
            None => break,
            Some(ok) => failed |= !ok,
        }
    }
    if !entry.text().trim().is_empty() {
        let e = Error::other(
            "the input ended inside an unfinished entry",
            Some("close the bracket it opened".into()),
        );
        report_error(&e, json);
        failed = true;
    }
    u8::from(failed)
}
