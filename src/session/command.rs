//! A line carried out in a session: it is parsed ([`Parsed`]), then an action runs in the
//! session and a meta command (`:undo`, `:save`, `:show`, ...) runs here, and the [`Reply`]
//! says what the front end is to do next. The text a reply carries (help, unit tables, where
//! play stands) is plain text, no terminal.
//!
//! `:odds` is parsed here but answered a layer up ([`Reply::Odds`]): the odds of an action
//! are the analysis layer's, which drives sessions. `crate::analysis::command::run_line`
//! carries out a line and answers its odds too; that is the one front ends call.

use crate::error::Error;
use crate::game::event::render;
use crate::host::suggest::did_you_mean;
use crate::script::functions::HouseRuleFunctions;
use crate::session::Session;
use crate::session::line::{Line, Parsed, Word};

/// The meta commands of the plain prompt.
pub const META_COMMANDS: &[(&str, &str)] = &[
    (
        ":help",
        "list the verbs of the ruleset and these commands (`:help NAME` for one verb or host function)",
    ),
    (
        ":units",
        "list the units in play (`:units SIDE` for one side)",
    ),
    (":seed", "show the seed of this game"),
    (
        ":explain",
        "show who changed what in the last action: dice, ranges and the abilities that changed them",
    ),
    (
        ":undo",
        "undo the last action, dice included (`:undo N` for N actions)",
    ),
    (":redo", "redo what was undone (`:redo N`)"),
    (
        ":show",
        "every stat, tag and ability of a unit, with uses left: `:show viking_1`",
    ),
    (":log", "the last events again (`:log N`, 20 by default)"),
    (":save", "save the whole game to a file: `:save game.json`"),
    (
        ":open",
        "continue a saved game: `:open game.json`; asks first if the game has changed since it was saved",
    ),
    (
        ":reload",
        "reload the ruleset, ability and house-rule scripts from disk, keeping the game",
    ),
    (
        ":load",
        "start a new game of a scenario, a file or a scenario's name (`sandtable list`): `:load scenarios/hoplites_vs_persians.yaml`; asks first if the game has changed since it was saved",
    ),
    (
        ":map",
        "draw the table: terrain, each figure by a mark of its own, and a legend of marks, ids and facings",
    ),
    (
        ":dice",
        "`:dice manual`: you roll real dice and type them in when the rules ask; `:dice auto` again",
    ),
    (
        ":cards",
        "`:cards manual`: you draw real cards and type them in when the rules draw (and at `draw`); `:cards auto` again",
    ),
    (
        ":odds",
        "the exact chance of each result of an action, e.g. `:odds melee viking_1 legionary_1` (`:odds as romans ACTION` for the side not to play); the game is unchanged",
    ),
    (
        ":rules",
        "the ruleset's scripts and abilities, and the house rules in force in the order they apply",
    ),
    (
        ":hooks",
        "every hook the ruleset asks: its arguments and `info` fields, where it is asked, and the abilities and house rules in force that answer it",
    ),
    (
        ":with",
        "put a house rule in force from the next action: `:with house/vikings_in_wood.rhai` (undoable)",
    ),
    (
        ":without",
        "take a house rule out of force by name: `:without vikings_in_wood` (undoable)",
    ),
    (
        ":as",
        "whose eyes the screen is for at one keyboard: `:as royalists` hides the figures the ruleset hides from the other sides on `:units` and `:map`; `:as all` shows everyone",
    ),
    (
        ":quit",
        "leave (Ctrl-D does too); asks first if the game has changed since it was saved",
    ),
];

/// The commands that leave the prompt.
pub const QUIT: [&str; 3] = [":quit", ":q", ":exit"];

/// Whether a line is a command to leave the prompt.
pub fn is_quit(line: &str) -> bool {
    line.split_whitespace()
        .next()
        .is_some_and(|w| QUIT.contains(&w))
}

/// Whether a line is a `:save`, whose outcome a journal records.
pub fn is_save(line: &str) -> bool {
    line.split_whitespace().next() == Some(":save")
}

/// If a line replaces the game (`:open FILE`, `:load FILE`), the question to ask before it
/// throws away unsaved changes, as `:quit` asks before it leaves.
pub fn replaces_game(line: &str) -> Option<&'static str> {
    let mut words = line.split_whitespace();
    let command = words.next()?;
    words.next()?;
    match command {
        ":open" => {
            Some("the game has changes since it was last saved; open the other game anyway? [y/N] ")
        }
        ":load" => {
            Some("the game has changes since it was last saved; start a new game anyway? [y/N] ")
        }
        _ => None,
    }
}

/// What a line asks the front end to do after it has been carried out.
#[derive(Clone, Debug, PartialEq)]
pub enum Reply {
    /// Nothing more to show than the events.
    Done,
    /// Text to show (help, unit lists, a Rhai value).
    Text(String),
    /// Draw the table (`:map`; the front end knows whether it may colour it).
    Map,
    /// Leave the prompt.
    Quit,
    /// Replace the game with a saved one (the front end opens it).
    Open(std::path::PathBuf),
    /// Dice from the players (`true`) or from the generator.
    Dice(bool),
    /// Cards from the players (`true`) or from the top of the pile.
    Cards(bool),
    /// The odds of an action (`:odds`), for the layer that reckons odds to answer (see
    /// `crate::analysis::command::run_line`, which gives them as [`Reply::Text`]).
    Odds {
        /// The action, as typed (`melee viking_1 legionary_1`).
        action: String,
        /// The side whose odds they are (`:odds as SIDE ...`), or the side to play.
        side: Option<String>,
    },
    /// A line that writes a file, replayed: what it showed when it was played, and the file
    /// it did not write this time.
    Unwritten {
        /// The text the line showed.
        text: String,
        /// The file left alone.
        file: std::path::PathBuf,
    },
}

/// How a line is carried out: played, or replayed from a journal.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Mode {
    /// Played: `:save` writes its file.
    #[default]
    Play,
    /// Replayed (`sandtable replay`, the replayed part of `play --resume`): it writes nothing,
    /// and a line that would have written a file says which ([`Reply::Unwritten`]).
    Replay,
}

/// Carries out one line. `origin` names where it came from (`<prompt>`, `game.txt:3`).
pub fn run_line(session: &mut Session, origin: &str, line: &str) -> Result<Reply, Error> {
    run_line_as(session, origin, line, Mode::Play)
}

/// Carries out one line, played or replayed.
pub fn run_line_as(
    session: &mut Session,
    origin: &str,
    line: &str,
    mode: Mode,
) -> Result<Reply, Error> {
    // A replayed `:save` that failed when it was played fails again, as it did then.
    if mode == Mode::Replay
        && let Some(failed) = session.recorded_save_failure()
        && is_save(line)
    {
        return Err(failed);
    }
    let parsed = Parsed::parse(session, origin, line)?;
    if let Line::Meta(words) = &parsed.line {
        return meta(session, &parsed, words, mode);
    }
    let value = session.act(&parsed)?;
    Ok(if value.is_unit() {
        Reply::Done
    } else {
        Reply::Text(format!("=> {}", session.show(&value)))
    })
}

/// A meta command's count argument (`:undo 3`), or `default`.
fn count_arg(parsed: &Parsed, ws: &[Word], default: usize, message: &str) -> Result<usize, Error> {
    match ws.get(1) {
        None => Ok(default),
        Some(w) => w
            .text
            .parse()
            .map_err(|_| parsed.error_at(w.start, w.len, message.into(), "here", None)),
    }
}

/// A meta command's required argument (`:save FILE`).
fn required_arg<'a>(parsed: &Parsed, ws: &'a [Word], usage: &str) -> Result<&'a Word, Error> {
    ws.get(1)
        .ok_or_else(|| parsed.error_at(ws[0].start, ws[0].len, usage.into(), "here", None))
}

/// The one file a command names (`:save game.json`): more words are an error, never a file
/// named by the first of them (a name with spaces is written in double quotes).
fn file_arg<'a>(parsed: &Parsed, ws: &'a [Word], usage: &str) -> Result<&'a Word, Error> {
    let w = required_arg(parsed, ws, usage)?;
    match ws.get(2) {
        None => Ok(w),
        Some(extra) => {
            let last = &ws[ws.len() - 1];
            Err(parsed.error_at(
                extra.start,
                last.start + last.len - extra.start,
                format!("`{}` takes one file name", ws[0].text),
                "not part of the file name",
                Some(format!(
                    "write a name with spaces in double quotes: `{} \"{} {}\"`",
                    ws[0].text, w.text, extra.text
                )),
            ))
        }
    }
}

/// The file a line names (`:with FILE`). In a replay it must lie in the project, or the
/// line is refused unread: a journal may be a stranger's, and its lines name what they like.
fn named_file(
    session: &Session,
    parsed: &Parsed,
    w: &Word,
    mode: Mode,
) -> Result<std::path::PathBuf, Error> {
    confined(session, parsed, w, std::path::PathBuf::from(&w.text), mode)
}

/// `path`, the file the word `w` was found to name; in a replay, only if it lies in the
/// project (see [`named_file`]).
fn confined(
    session: &Session,
    parsed: &Parsed,
    w: &Word,
    path: std::path::PathBuf,
    mode: Mode,
) -> Result<std::path::PathBuf, Error> {
    if mode == Mode::Play {
        return Ok(path);
    }
    let root = session.project().root();
    let inside = crate::game::confine::relative_to(&path, root)
        .is_some_and(|rel| crate::game::confine::inside(root, &rel).is_ok());
    if inside {
        return Ok(path);
    }
    Err(Error::NotRead(Box::new(parsed.error_at(
        w.start,
        w.len,
        format!(
            "`{}` is not a file of the project `{}`: a replayed line reads nothing else, so it was not read",
            w.text,
            root.display()
        ),
        "this file",
        Some("replay the journal in the project it was played in (or give that folder with `--project`), with the files it names inside it".into()),
    ))))
}

fn meta(session: &mut Session, parsed: &Parsed, ws: &[Word], mode: Mode) -> Result<Reply, Error> {
    let line = parsed.text.as_str();
    let name = ws[0].text.as_str();
    match name {
        _ if QUIT.contains(&name) => Ok(Reply::Quit),
        ":seed" => Ok(Reply::Text(format!("seed {}", session.state().rng.seed()))),
        ":explain" => Ok(Reply::Text(explain(session))),
        ":undo" | ":redo" => {
            let n = count_arg(
                parsed,
                ws,
                1,
                &format!("`{name}` takes a number of actions"),
            )?;
            let (done, what) = if name == ":undo" {
                (session.undo(n)?, "undone")
            } else {
                (session.redo(n)?, "redone")
            };
            let state = session.state();
            Ok(Reply::Text(match done {
                0 => format!("nothing to be {what}"),
                d => format!(
                    "{d} action{} {what}: {}",
                    if d == 1 { "" } else { "s" },
                    standing(&state)
                ),
            }))
        }
        ":show" => {
            let w = required_arg(parsed, ws, "`:show` needs a unit: `:show viking_1`")?;
            let idx =
                session.state().battlefield.resolve(&w.text).map_err(|e| {
                    parsed.error_at(w.start, w.len, e.message(), "this unit", e.help())
                })?;
            Ok(Reply::Text(session.describe_unit(idx)))
        }
        ":log" => {
            let n = count_arg(parsed, ws, 20, "`:log` takes a number of events")?;
            let state = session.state();
            let from = state.log.len().saturating_sub(n);
            let mut text = render(&state.log[from..], false).trim_end().to_string();
            // Older events past the log's limit are dropped; say so where they would be.
            if from == 0 && state.log_dropped() > 0 {
                text = format!(
                    "({} older events dropped: the log keeps at most {} MiB, `MAX_LOG_BYTES`)\n{text}",
                    state.log_dropped(),
                    crate::limits::MAX_LOG_BYTES >> 20
                );
            }
            Ok(Reply::Text(text))
        }
        ":save" => {
            let w = file_arg(parsed, ws, "`:save` needs a file: `:save game.json`")?;
            let text = format!("saved to {}", w.text);
            if mode == Mode::Replay {
                session.save_unwritten(std::path::Path::new(&w.text))?;
                return Ok(Reply::Unwritten {
                    text,
                    file: std::path::PathBuf::from(&w.text),
                });
            }
            session.save(std::path::Path::new(&w.text))?;
            Ok(Reply::Text(text))
        }
        ":open" => {
            let w = file_arg(parsed, ws, "`:open` needs a file: `:open game.json`")?;
            let path = std::path::PathBuf::from(&w.text);
            // A game the journal recorded, or a save the replay did not write, is not read.
            if session.replay_knows(&path) {
                return Ok(Reply::Open(path));
            }
            Ok(Reply::Open(named_file(session, parsed, w, mode)?))
        }
        ":reload" => Ok(Reply::Text(session.reload()?)),
        ":with" => {
            let w = file_arg(
                parsed,
                ws,
                "`:with` needs a house rule file: `:with house/vikings_in_wood.rhai`",
            )?;
            // The game's log says it (`house rule ... in force`).
            session.add_house_rule(&named_file(session, parsed, w, mode)?)?;
            Ok(Reply::Done)
        }
        ":without" => {
            let w = required_arg(
                parsed,
                ws,
                "`:without` needs the name of a house rule in force (`:rules` lists them)",
            )?;
            session.remove_house_rule(&w.text)?;
            Ok(Reply::Done)
        }
        ":rules" => Ok(Reply::Text(rules(session))),
        ":hooks" => {
            let rows = crate::script::hook_table::hook_table(
                session.project(),
                &session.scenario().ruleset,
                session.house_rules(),
            )?;
            Ok(Reply::Text(crate::script::hook_table::render_text(&rows)))
        }
        ":map" => Ok(Reply::Map),
        ":dice" => match ws.get(1).map(|w| w.text.as_str()) {
            Some("manual") => Ok(Reply::Dice(true)),
            Some("auto") => Ok(Reply::Dice(false)),
            _ => Err(parsed.error_at(
                ws[0].start,
                line.chars().count() - ws[0].start,
                "write `:dice manual` or `:dice auto`".into(),
                "here",
                None,
            )),
        },
        ":cards" => match ws.get(1).map(|w| w.text.as_str()) {
            Some("manual") => Ok(Reply::Cards(true)),
            Some("auto") => Ok(Reply::Cards(false)),
            _ => Err(parsed.error_at(
                ws[0].start,
                line.chars().count() - ws[0].start,
                "write `:cards manual` or `:cards auto`".into(),
                "here",
                None,
            )),
        },
        ":load" => {
            let w = file_arg(parsed, ws, "`:load` needs a scenario file")?;
            let project = session.project().clone();
            // From the current folder, then the project, or a scenario's bare name.
            let found = project.find_scenario(std::path::Path::new(&w.text))?;
            let scenario = crate::game::scenario::Scenario::load(
                &project,
                &confined(session, parsed, w, found, mode)?,
            )?;
            let seed = scenario.seed.unwrap_or_else(|| session.state().rng.seed());
            let mut fresh = Session::new(&project, scenario, seed)?;
            session.hand_over_unwritten(&mut fresh);
            session.hand_over_real_dice_and_cards(&mut fresh);
            let _ = fresh.set_eyes(session.eyes());
            *session = fresh;
            Ok(Reply::Done)
        }
        ":odds" => {
            let w = required_arg(
                parsed,
                ws,
                "`:odds` needs an action, e.g. `:odds melee viking_1 legionary_1`",
            )?;
            // `:odds as SIDE ACTION`: the odds for the side that is not to play.
            let (side, from) = match (w.text.as_str(), ws.get(2), ws.get(3)) {
                ("as", Some(side), Some(action)) if !w.quoted => {
                    (Some(side.text.as_str()), action.start)
                }
                _ => (None, w.start),
            };
            let action: String = line.chars().skip(from).collect();
            Ok(Reply::Odds {
                action,
                side: side.map(str::to_string),
            })
        }
        ":as" => {
            let w = required_arg(parsed, ws, "`:as` needs a side, or `all`: `:as royalists`")?;
            let side = (w.text != "all").then_some(w.text.as_str());
            session.set_eyes(side).map_err(|e| match e {
                Error::Other { message, help } => {
                    parsed.error_at(w.start, w.len, message, "not a side", help)
                }
                e => e,
            })?;
            Ok(Reply::Text(match side {
                Some(side) => format!("the screen is for the eyes of {side}"),
                None => "the screen is for everyone's eyes".into(),
            }))
        }
        ":units" => Ok(Reply::Text(units(
            session,
            ws.get(1).map(|w| w.text.as_str()),
        ))),
        ":help" => help(session, parsed, ws.get(1)),
        _ => {
            let names = META_COMMANDS.iter().map(|(n, _)| *n);
            Err(parsed.error_at(
                ws[0].start,
                ws[0].len,
                format!("unknown command `{name}`"),
                "not a command",
                Some(match did_you_mean(name, names) {
                    Some(s) => format!("did you mean `{s}`?"),
                    None => "`:help` lists the commands".into(),
                }),
            ))
        }
    }
}

fn help(session: &Session, parsed: &Parsed, topic: Option<&Word>) -> Result<Reply, Error> {
    if let Some(w) = topic {
        return help_on(session, parsed, w).map(Reply::Text);
    }
    let mut out = format!("{} verbs:\n", session.scenario().ruleset.file.name);
    for v in session.verbs().values() {
        let usage = format!("{} {}", v.name, v.params.join(" "));
        out.push_str(&format!(
            "  {:<28} {}\n",
            usage.trim_end(),
            first_sentence(&v.doc)
        ));
    }
    out.push_str("host commands:\n");
    out.push_str(&format!(
        "  {:<28} {}\n",
        "roll EXPR", "roll dice, e.g. `roll 3d6+1`, `roll 4d6kh3`, `roll 5d6>=5`"
    ));
    out.push_str(&format!(
        "  {:<28} {}\n",
        "draw DECK [N]", "draw cards from one of the game's decks"
    ));
    out.push_str("commands:\n");
    for (n, d) in META_COMMANDS {
        out.push_str(&format!("  {n:<28} {d}\n"));
    }
    out.push_str(
        "Anything else is Rhai, e.g. `unit(\"viking_1\").stat(\"attack\")`; see docs/api.md.",
    );
    Ok(Reply::Text(out))
}

/// `:help NAME`: a verb of the ruleset, a host function (every signature of that name, with
/// its doc, from the engine's metadata: a function, method, property or operator) or a type
/// the host gives scripts; for another name, a did-you-mean over all of them.
fn help_on(session: &Session, parsed: &Parsed, w: &Word) -> Result<String, Error> {
    let name = w.text.as_str();
    let functions = session.host_functions();
    let types = session.host_types();
    let mut parts = Vec::new();
    if let Some(v) = session.verbs().get(name) {
        parts.push(format!(
            "{} {}  (a verb of {})\n{}",
            v.name,
            v.params.join(" "),
            session.scenario().ruleset.file.name,
            indent(if v.doc.is_empty() {
                "(no description)"
            } else {
                &v.doc
            })
        ));
    }
    if let Some(t) = types.iter().find(|t| t.name == name) {
        let mut text = format!("the type {}\n{}", t.name, indent(&t.doc));
        for f in functions.iter().filter(|f| f.owner() == Some(name)) {
            text.push_str(&format!("\n  {:<34} {}", f.signature(), f.summary()));
        }
        parts.push(text);
    }
    let name = if name == "u[name]" { "[]" } else { name };
    for f in functions.iter().filter(|f| f.name == name) {
        parts.push(format!("{}\n{}", f.signature(), indent(&f.doc)));
    }
    if !parts.is_empty() {
        return Ok(parts.join("\n\n"));
    }
    let candidates = session
        .verbs()
        .keys()
        .map(String::as_str)
        .chain(functions.iter().map(|f| f.name.as_str()))
        .chain(types.iter().map(|t| t.name.as_str()));
    let help = did_you_mean(name, candidates)
        .map(|s| format!("did you mean `{s}`?"))
        .or_else(|| Some("`:help` lists the verbs; docs/api.md every host function".into()));
    Err(parsed.error_at(
        w.start,
        w.len,
        format!("no verb or host function `{name}`"),
        "not a verb or a host function",
        help,
    ))
}

/// Each line of `text` indented by two spaces (blank lines left blank), its Markdown links
/// shown as their text (`[dice expression](#the-dice-expression-language)` as `dice
/// expression`), since the links lead into docs/api.md.
fn indent(text: &str) -> String {
    let mut plain = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(open) = rest.find('[') {
        let after = &rest[open + 1..];
        let link = after.find("](").and_then(|close| {
            let target = &after[close + 2..];
            let end = target.find(')')?;
            (!after[..close].contains(['[', '\n'])).then_some((close, close + 2 + end + 1))
        });
        match link {
            Some((close, skip)) => {
                plain.push_str(&rest[..open]);
                plain.push_str(&after[..close]);
                rest = &after[skip..];
            }
            None => {
                plain.push_str(&rest[..=open]);
                rest = after;
            }
        }
    }
    plain.push_str(rest);
    plain
        .lines()
        .map(|l| {
            if l.is_empty() {
                String::new()
            } else {
                format!("  {l}")
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The trace of the last action, for `:explain`.
pub fn explain(session: &Session) -> String {
    let trace = session.explain();
    let mut out = if trace.is_empty() {
        "the last action asked the rules for no numbers".to_string()
    } else {
        trace.join("\n")
    };
    // A house rule that replaces a ruleset function changes the rules without a hook: say so
    // wherever the rules in force are told.
    for (name, functions) in session.house_rule_functions() {
        for r in &functions.replaces {
            out.push_str(&format!("\nhouse rule `{name}` {r}"));
        }
    }
    out
}

/// `:rules`: where the rules in force come from.
fn rules(session: &Session) -> String {
    let root = session.project().root();
    let shown = |p: &std::path::Path| p.strip_prefix(root).unwrap_or(p).display().to_string();
    let ruleset = &session.scenario().ruleset;
    let mut out = format!("ruleset {} ({}):\n", ruleset.id, ruleset.file.name);
    for path in ruleset.script_paths() {
        out.push_str(&format!("  {}\n", shown(&path)));
    }
    let abilities = session.ability_names();
    if !abilities.is_empty() {
        out.push_str(&format!("abilities in play: {}\n", abilities.join(", ")));
    }
    let house = session.house_rules();
    if house.is_empty() {
        out.push_str("no house rules in force");
    } else {
        out.push_str("house rules in force, in the order they apply:\n");
        let functions = session.house_rule_functions();
        for path in house {
            let name = crate::game::scenario::house_rule_name(path);
            let does = functions
                .iter()
                .find(|(n, _)| *n == name)
                .map(|(_, f)| format!(": {}", said(f)))
                .unwrap_or_default();
            out.push_str(&format!("  {name} ({}){does}\n", shown(path)));
        }
    }
    out.trim_end().to_string()
}

/// The first sentence of a doc comment, for one-line listings.
fn first_sentence(doc: &str) -> &str {
    match doc.find(". ") {
        Some(i) => &doc[..=i],
        None => doc,
    }
}

/// `:units`: each side's units, a row each, the columns as wide as their widest cell over
/// every side shown (a long name pushes its column out rather than the next one along, and
/// the sides' tables line up).
fn units(session: &Session, side: Option<&str>) -> String {
    let state = session.state();
    let mut tables: Vec<(String, Vec<[String; 3]>)> = Vec::new();
    for s in &state.sides {
        if side.is_some_and(|want| want != s.id) {
            continue;
        }
        let rows: Vec<[String; 3]> = state
            .battlefield
            .by_side(&s.id)
            .filter(|&i| session.seen(i))
            .map(|i| {
                let u = &state.battlefield.units()[i];
                let shown: Vec<&str> = u
                    .tags
                    .iter()
                    .filter(|t| !t.starts_with('_'))
                    .map(String::as_str)
                    .collect();
                let tags = if shown.is_empty() {
                    String::new()
                } else {
                    format!(" [{}]", shown.join(", "))
                };
                let rest = format!(
                    "at {} facing {}{tags}",
                    u.pos,
                    crate::game::event::degrees(u.facing)
                );
                [u.id.clone(), u.name.clone(), rest]
            })
            .collect();
        tables.push((format!("{} ({}):\n", s.name, s.id), rows));
    }
    if tables.is_empty() {
        return format!("no side `{}`", side.unwrap_or_default());
    }
    let width = |k: usize| {
        tables
            .iter()
            .flat_map(|(_, rows)| rows.iter().map(move |r| r[k].chars().count()))
            .max()
            .unwrap_or(0)
    };
    let (ids, names) = (width(0), width(1));
    let mut out = String::new();
    for (heading, rows) in &tables {
        out.push_str(heading);
        for [id, name, rest] in rows {
            out.push_str(&format!("  {id:<ids$} {name:<names$} {rest}\n"));
        }
    }
    out.trim_end().to_string()
}

/// Where play stands, for a message: `turn 2, romans to play`, with the phase when the rules
/// keep one (`turn 2, shooting, romans to play`).
pub fn standing(state: &crate::game::state::GameState) -> String {
    if state.phase.is_empty() {
        format!("turn {}, {} to play", state.turn, state.active_side)
    } else {
        format!(
            "turn {}, {}, {} to play",
            state.turn,
            state.phase_name(),
            state.active_side
        )
    }
}

/// What a house rule's functions do, in a line: `hooks defend_dice; replaces `melee` of
/// `rules.rhai``.
pub fn said(functions: &HouseRuleFunctions) -> String {
    let mut parts = Vec::new();
    if !functions.hooks.is_empty() {
        parts.push(format!(
            "hook{} {}",
            if functions.hooks.len() == 1 { "" } else { "s" },
            functions
                .hooks
                .iter()
                .map(|h| format!("`{h}`"))
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    for r in &functions.replaces {
        parts.push(r.to_string());
    }
    if !functions.verbs.is_empty() {
        parts.push(format!(
            "verb{} {}",
            if functions.verbs.len() == 1 { "" } else { "s" },
            functions
                .verbs
                .iter()
                .map(|v| format!("`{v}`"))
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    if parts.is_empty() {
        "no hooks, replacements or verbs".into()
    } else {
        parts.join("; ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::project::Project;
    use crate::game::scenario::Scenario;

    fn session(scenario: &str) -> Session {
        let project = Project::at(env!("CARGO_MANIFEST_DIR")).unwrap();
        let path = project.root().join(scenario);
        let scenario = Scenario::load(&project, &path).unwrap();
        Session::new(&project, scenario, 1).unwrap()
    }

    // Guards `:units` against a long name: "Cornet of harquebusiers" (23 letters) pushed its
    // row's position out of the column every other row keeps.
    #[test]
    fn units_columns_are_as_wide_as_their_widest_cell() {
        let s = session("scenarios/sint_edgehill_lane.yaml");
        let table = units(&s, Some("parliament"));
        let rows: Vec<&str> = table.lines().skip(1).collect();
        assert!(table.contains("Cornet of harquebusiers "), "{table}");
        let column = |row: &str| row.find(" at (").unwrap_or_else(|| panic!("{row}"));
        let first = column(rows[0]);
        for row in &rows {
            assert_eq!(column(row), first, "out of line:\n{table}");
        }
        // No wider than it needs: the widest name has one space after it.
        assert!(
            rows.iter()
                .any(|r| r.contains("Cornet of harquebusiers at (")),
            "{table}"
        );
    }

    #[test]
    fn units_of_every_side_line_up_in_one_table() {
        let s = session("scenarios/sint_edgehill_lane.yaml");
        let table = units(&s, None);
        let columns: Vec<usize> = table
            .lines()
            .filter(|l| l.starts_with("  "))
            .map(|row| row.find(" at (").unwrap_or_else(|| panic!("{row}")))
            .collect();
        assert!(columns.len() > 2, "{table}");
        assert!(
            columns.iter().all(|&c| c == columns[0]),
            "out of line:\n{table}"
        );
    }
}
