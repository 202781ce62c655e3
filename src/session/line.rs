//! Lines typed at the prompt (or read from a batch file of prompt lines).
//!
//! A line is one of:
//! - empty, or a comment starting with `#` or `//`: nothing happens;
//! - a meta command starting with `:` (`:help`, `:units`, `:seed`, `:quit`);
//! - a host command: `roll EXPR` or `draw DECK [N]`;
//! - a ruleset verb and its arguments, e.g. `melee viking_1 legionary_2`: unit ids (or
//!   unambiguous prefixes of them) become units, numbers become numbers, other words strings;
//! - otherwise, Rhai code evaluated in the session's persistent scope.

use rhai::Dynamic;

use crate::error::{DiceDiagnostic, Error, LineDiagnostic, char_range_to_bytes};
use crate::game::event::Event;
use crate::host::suggest::did_you_mean;
use crate::session::Session;

/// The meta commands of the plain prompt.
pub const META_COMMANDS: &[(&str, &str)] = &[
    (
        ":help",
        "list the verbs of the ruleset and these commands (`:help VERB` for one verb)",
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
    (":open", "continue a saved game: `:open game.json`"),
    (
        ":reload",
        "reload the ruleset, ability and house-rule scripts from disk, keeping the game",
    ),
    (
        ":load",
        "start a new game of a scenario: `:load scenarios/hoplites_vs_persians.yaml`",
    ),
    (
        ":map",
        "draw the table: terrain, and each unit by side and facing",
    ),
    (
        ":dice",
        "`:dice manual`: you roll real dice and type them in when the rules ask; `:dice auto` again",
    ),
    (
        ":odds",
        "the exact chance of each result of an action, e.g. `:odds melee viking_1 legionary_1`; the game is unchanged",
    ),
    (":quit", "leave (Ctrl-D does too)"),
];

/// What a line asks the front end to do after it has been carried out.
#[derive(Clone, Debug, PartialEq)]
pub enum Reply {
    /// Nothing more to show than the events.
    Done,
    /// Text to show (help, unit lists, a Rhai value).
    Text(String),
    /// Leave the prompt.
    Quit,
    /// Replace the game with a saved one (the front end opens it).
    Open(std::path::PathBuf),
    /// Dice from the players (`true`) or from the generator.
    Dice(bool),
}

/// A word of a line and where it starts (in characters).
#[derive(Clone, Debug, PartialEq)]
struct Word {
    text: String,
    start: usize,
    len: usize,
    quoted: bool,
}

/// Splits a line into words; double quotes group words.
fn words(line: &str) -> Result<Vec<Word>, (usize, String)> {
    let mut out = Vec::new();
    let chars: Vec<char> = line.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        if chars[i].is_whitespace() {
            i += 1;
            continue;
        }
        let start = i;
        if chars[i] == '"' {
            i += 1;
            let mut text = String::new();
            while i < chars.len() && chars[i] != '"' {
                text.push(chars[i]);
                i += 1;
            }
            if i == chars.len() {
                return Err((start, "this quote is never closed".into()));
            }
            i += 1;
            out.push(Word {
                text,
                start,
                len: i - start,
                quoted: true,
            });
        } else {
            while i < chars.len() && !chars[i].is_whitespace() {
                i += 1;
            }
            out.push(Word {
                text: chars[start..i].iter().collect(),
                start,
                len: i - start,
                quoted: false,
            });
        }
    }
    Ok(out)
}

fn is_word(s: &str) -> bool {
    let mut c = s.chars();
    c.next().is_some_and(|c| c.is_alphabetic() || c == '_')
        && c.all(|c| c.is_alphanumeric() || c == '_')
}

fn line_error(
    origin: &str,
    line: &str,
    start: usize,
    len: usize,
    message: String,
    label: &str,
    help: Option<String>,
) -> Error {
    LineDiagnostic::new(
        origin,
        line,
        char_range_to_bytes(line, start, len),
        message,
        label,
        help,
    )
    .into()
}

/// Carries out one line. `origin` names where it came from (`<prompt>`, `game.txt:3`).
pub fn run_line(session: &mut Session, origin: &str, line: &str) -> Result<Reply, Error> {
    let trimmed = line.trim();
    // `#{` opens a Rhai map, so only other `#` lines are comments.
    let comment =
        (trimmed.starts_with('#') && !trimmed.starts_with("#{")) || trimmed.starts_with("//");
    if trimmed.is_empty() || comment {
        return Ok(Reply::Done);
    }
    let ws = words(line).map_err(|(at, msg)| line_error(origin, line, at, 1, msg, "here", None))?;
    if ws[0].text.starts_with(':') {
        return meta(session, origin, line, &ws);
    }
    // Every action that changes the game is one step of `:undo`.
    let before = session.state().log.len();
    session.checkpoint();
    let result = action(session, origin, line, &ws);
    // Printing is not a change of the game: it is no step of `:undo` and keeps `:redo`.
    let changed = session.state().log[before..]
        .iter()
        .any(|e| !matches!(e, Event::Print { .. } | Event::Debug { .. }));
    if result.is_err() || !changed {
        session.drop_checkpoint();
    } else {
        session.keep_checkpoint();
    }
    result
}

/// Carries out a line that is not a meta command.
fn action(session: &mut Session, origin: &str, line: &str, ws: &[Word]) -> Result<Reply, Error> {
    let first = &ws[0];
    // `explain` on its own is the meta command too, unless the ruleset has such a verb.
    if ws.len() == 1 && first.text == "explain" && !session.verbs().contains_key("explain") {
        return Ok(Reply::Text(explain(session)));
    }
    // `roll` and a space take a dice expression, which may start with `(` (unless the ruleset
    // has a verb of that name: a ruleset's verbs come before the host's commands).
    let ruleset_verb = session.verbs().contains_key(&first.text);
    if first.text == "roll" && ws.len() >= 2 && !first.quoted && !ruleset_verb {
        return roll(session, origin, line, ws);
    }
    let rest_starts_like_rhai = ws.get(1).is_some_and(|w| {
        !w.quoted
            && (w.text.starts_with('(')
                || w.text.starts_with('=')
                || w.text.starts_with('.')
                || w.text.starts_with('['))
    });
    let followed_by_paren =
        line[line.find(&first.text).unwrap_or(0)..].starts_with(&format!("{}(", first.text));
    if !first.quoted && !rest_starts_like_rhai && !followed_by_paren {
        match first.text.as_str() {
            _ if ruleset_verb => return verb(session, origin, line, ws),
            "roll" if ws.len() >= 2 => return roll(session, origin, line, ws),
            "draw" if ws.len() >= 2 => return draw(session, origin, line, ws),
            _ => {}
        }
    }
    match session.eval(origin, line) {
        Ok(v) if v.is_unit() => Ok(Reply::Done),
        Ok(v) => Ok(Reply::Text(format!("=> {}", session.show(&v)))),
        Err(e) => {
            // `meele viking_1 legionary_2` is not Rhai: say so in the player's terms.
            let looks_like_a_verb = ws.len() >= 2
                && !first.quoted
                && is_word(&first.text)
                && ws
                    .iter()
                    .all(|w| w.quoted || !w.text.contains(['(', ')', '=', ';', '{', '}']));
            if looks_like_a_verb
                || (ws.len() == 1
                    && is_word(&first.text)
                    && matches!(e, Error::Script(_) | Error::Other { .. }))
            {
                let verbs = session
                    .verbs()
                    .keys()
                    .map(String::as_str)
                    .chain(["roll", "draw"]);
                let help = match did_you_mean(&first.text, verbs) {
                    Some(s) => Some(format!("did you mean `{s}`?")),
                    None => Some("`:help` lists the verbs".into()),
                };
                return Err(line_error(
                    origin,
                    line,
                    first.start,
                    first.len,
                    format!("unknown verb `{}`", first.text),
                    "not a verb of this ruleset",
                    help,
                ));
            }
            Err(e)
        }
    }
}

fn verb(session: &mut Session, origin: &str, line: &str, ws: &[Word]) -> Result<Reply, Error> {
    let name = ws[0].text.clone();
    let params = session.verbs()[&name].params.clone();
    let args = &ws[1..];
    if args.len() != params.len() {
        let usage = format!("{name} {}", params.join(" "));
        let (start, len) = match args.get(params.len()) {
            Some(extra) => (extra.start, line.chars().count() - extra.start),
            None => (ws[0].start, ws[0].len),
        };
        return Err(line_error(
            origin,
            line,
            start,
            len,
            format!(
                "`{name}` takes {} argument{}, got {}",
                params.len(),
                if params.len() == 1 { "" } else { "s" },
                args.len()
            ),
            if args.len() > params.len() {
                "too many"
            } else {
                "needs more"
            },
            Some(format!("usage: {}", usage.trim_end())),
        ));
    }
    let mut values = Vec::new();
    for w in args {
        values.push(argument(session, origin, line, w)?);
    }
    let value = session.call(&name, values)?;
    Ok(if value.is_unit() {
        Reply::Done
    } else {
        Reply::Text(format!("=> {}", session.show(&value)))
    })
}

/// A verb argument: a unit, a number, or a word.
fn argument(session: &Session, origin: &str, line: &str, w: &Word) -> Result<Dynamic, Error> {
    if w.quoted {
        return Ok(Dynamic::from(w.text.clone()));
    }
    if let Ok(i) = w.text.parse::<i64>() {
        return Ok(Dynamic::from_int(i));
    }
    if let Ok(f) = w.text.parse::<f64>()
        && f.is_finite()
    {
        return Ok(Dynamic::from_float(f));
    }
    let state = session.state();
    // A side's id or an ability's name is a word, however close it is to a unit's id.
    if state.sides.iter().any(|s| s.id == w.text) || session.has_ability_named(&w.text) {
        return Ok(Dynamic::from(w.text.clone()));
    }
    match state.battlefield.resolve(&w.text) {
        Ok(idx) => Ok(session.unit_value(idx)),
        Err(msg) => {
            let ambiguous = msg.contains("could be any");
            let suggested = did_you_mean(
                &w.text,
                state.battlefield.units().iter().map(|u| u.id.as_str()),
            );
            if ambiguous || suggested.is_some() {
                let (message, help) = match msg.split_once("; ") {
                    Some((m, h)) => (m.to_string(), Some(h.to_string())),
                    None => (msg.clone(), None),
                };
                Err(line_error(
                    origin,
                    line,
                    w.start,
                    w.len,
                    message,
                    "this unit",
                    help,
                ))
            } else {
                Ok(Dynamic::from(w.text.clone()))
            }
        }
    }
}

fn roll(session: &mut Session, origin: &str, line: &str, ws: &[Word]) -> Result<Reply, Error> {
    let start = ws[1].start;
    let expr: String = line.chars().skip(start).collect();
    session.roll(&expr).map_err(|e| {
        let bytes = char_range_to_bytes(line, start + e.offset, e.len);
        Error::from(DiceDiagnostic::new(
            origin,
            line,
            bytes,
            format!("bad dice expression: {}", e.message),
            "here",
            e.help.clone(),
        ))
    })?;
    Ok(Reply::Done)
}

fn draw(session: &mut Session, origin: &str, line: &str, ws: &[Word]) -> Result<Reply, Error> {
    let n = match ws.get(2) {
        None => 1,
        Some(w) => match w.text.parse::<usize>() {
            Ok(n) if ws.len() == 3 => n,
            _ => {
                return Err(line_error(
                    origin,
                    line,
                    w.start,
                    line.chars().count() - w.start,
                    "expected `draw DECK [N]`".into(),
                    "here",
                    None,
                ));
            }
        },
    };
    session
        .draw(&ws[1].text, n)
        .map_err(|m| line_error(origin, line, ws[1].start, ws[1].len, m, "this deck", None))?;
    Ok(Reply::Done)
}

/// A meta command's count argument (`:undo 3`), or `default`.
fn count_arg(
    origin: &str,
    line: &str,
    ws: &[Word],
    default: usize,
    message: &str,
) -> Result<usize, Error> {
    match ws.get(1) {
        None => Ok(default),
        Some(w) => w
            .text
            .parse()
            .map_err(|_| line_error(origin, line, w.start, w.len, message.into(), "here", None)),
    }
}

/// A meta command's required argument (`:save FILE`).
fn required_arg<'a>(
    origin: &str,
    line: &str,
    ws: &'a [Word],
    usage: &str,
) -> Result<&'a Word, Error> {
    ws.get(1).ok_or_else(|| {
        line_error(
            origin,
            line,
            ws[0].start,
            ws[0].len,
            usage.into(),
            "here",
            None,
        )
    })
}

fn meta(session: &mut Session, origin: &str, line: &str, ws: &[Word]) -> Result<Reply, Error> {
    let name = ws[0].text.as_str();
    match name {
        ":quit" | ":q" | ":exit" => Ok(Reply::Quit),
        ":seed" => Ok(Reply::Text(format!("seed {}", session.state().rng.seed()))),
        ":explain" => Ok(Reply::Text(explain(session))),
        ":undo" | ":redo" => {
            let n = count_arg(
                origin,
                line,
                ws,
                1,
                &format!("`{name}` takes a number of actions"),
            )?;
            let (done, what) = if name == ":undo" {
                (session.undo(n), "undone")
            } else {
                (session.redo(n), "redone")
            };
            let state = session.state();
            Ok(Reply::Text(match done {
                0 => format!("nothing to be {what}"),
                d => format!(
                    "{d} action{} {what}: turn {}, {} to play",
                    if d == 1 { "" } else { "s" },
                    state.turn,
                    state.active_side
                ),
            }))
        }
        ":show" => {
            let w = required_arg(origin, line, ws, "`:show` needs a unit: `:show viking_1`")?;
            let idx = session
                .state()
                .battlefield
                .resolve(&w.text)
                .map_err(|m| line_error(origin, line, w.start, w.len, m, "this unit", None))?;
            Ok(Reply::Text(session.describe_unit(idx)))
        }
        ":log" => {
            let n = count_arg(origin, line, ws, 20, "`:log` takes a number of events")?;
            let state = session.state();
            let from = state.log.len().saturating_sub(n);
            Ok(Reply::Text(
                render(&state.log[from..], false).trim_end().to_string(),
            ))
        }
        ":save" => {
            let w = required_arg(origin, line, ws, "`:save` needs a file: `:save game.json`")?;
            session.save(std::path::Path::new(&w.text))?;
            Ok(Reply::Text(format!("saved to {}", w.text)))
        }
        ":open" => {
            let w = required_arg(origin, line, ws, "`:open` needs a file: `:open game.json`")?;
            Ok(Reply::Open(std::path::PathBuf::from(&w.text)))
        }
        ":reload" => Ok(Reply::Text(session.reload()?)),
        ":map" => Ok(Reply::Text(crate::cli::map::draw(&session.state(), 72))),
        ":dice" => match ws.get(1).map(|w| w.text.as_str()) {
            Some("manual") => Ok(Reply::Dice(true)),
            Some("auto") => Ok(Reply::Dice(false)),
            _ => Err(line_error(
                origin,
                line,
                ws[0].start,
                line.chars().count() - ws[0].start,
                "write `:dice manual` or `:dice auto`".into(),
                "here",
                None,
            )),
        },
        ":load" => {
            let w = required_arg(origin, line, ws, "`:load` needs a scenario file")?;
            let project = session.project().clone();
            let scenario =
                crate::game::scenario::Scenario::load(&project, std::path::Path::new(&w.text))?;
            let seed = scenario.seed.unwrap_or_else(|| session.state().rng.seed());
            *session = Session::new(&project, scenario, seed)?;
            Ok(Reply::Done)
        }
        ":odds" => {
            let w = required_arg(
                origin,
                line,
                ws,
                "`:odds` needs an action, e.g. `:odds melee viking_1 legionary_1`",
            )?;
            let action: String = line.chars().skip(w.start).collect();
            let budget = crate::analysis::action_odds::OddsBudget::for_game(session);
            let odds = crate::analysis::action_odds::action_odds(session, &action, budget)?;
            Ok(Reply::Text(odds.render(action.trim())))
        }
        ":units" => Ok(Reply::Text(units(
            session,
            ws.get(1).map(|w| w.text.as_str()),
        ))),
        ":help" => help(session, origin, line, ws.get(1)),
        _ => {
            let names = META_COMMANDS.iter().map(|(n, _)| *n);
            Err(line_error(
                origin,
                line,
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

fn help(session: &Session, origin: &str, line: &str, topic: Option<&Word>) -> Result<Reply, Error> {
    if let Some(w) = topic {
        let Some(v) = session.verbs().get(&w.text) else {
            let help = did_you_mean(&w.text, session.verbs().keys().map(String::as_str))
                .map(|s| format!("did you mean `{s}`?"));
            return Err(line_error(
                origin,
                line,
                w.start,
                w.len,
                format!("unknown verb `{}`", w.text),
                "not a verb",
                help,
            ));
        };
        return Ok(Reply::Text(format!(
            "{} {}\n  {}",
            v.name,
            v.params.join(" "),
            if v.doc.is_empty() {
                "(no description)"
            } else {
                &v.doc
            }
        )));
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

/// The trace of the last action, for `:explain`.
pub fn explain(session: &Session) -> String {
    let trace = session.explain();
    if trace.is_empty() {
        "the last action asked the rules for no numbers".into()
    } else {
        trace.join("\n")
    }
}

/// The first sentence of a doc comment, for one-line listings.
fn first_sentence(doc: &str) -> &str {
    match doc.find(". ") {
        Some(i) => &doc[..=i],
        None => doc,
    }
}

fn units(session: &Session, side: Option<&str>) -> String {
    let state = session.state();
    let mut out = String::new();
    for s in &state.sides {
        if side.is_some_and(|want| want != s.id) {
            continue;
        }
        out.push_str(&format!("{} ({}):\n", s.name, s.id));
        for i in state.battlefield.by_side(&s.id) {
            let u = &state.battlefield.units()[i];
            let shown: Vec<&String> = u.tags.iter().filter(|t| !t.starts_with('_')).collect();
            let tags = if shown.is_empty() {
                String::new()
            } else {
                let names: Vec<&str> = shown.iter().map(|t| t.as_str()).collect();
                format!(" [{}]", names.join(", "))
            };
            out.push_str(&format!(
                "  {:<14} {:<18} at {} facing {}{}\n",
                u.id,
                u.name,
                u.pos,
                crate::game::event::degrees(u.facing),
                tags
            ));
        }
    }
    if out.is_empty() {
        out = format!("no side `{}`", side.unwrap_or_default());
    }
    out.trim_end().to_string()
}

/// Whether an entry is unfinished: brackets still open outside strings and comments, so the
/// prompt should read another line before running it.
pub fn needs_more(text: &str) -> bool {
    let mut depth: i64 = 0;
    let mut chars = text.chars().peekable();
    let mut in_string: Option<char> = None;
    while let Some(c) = chars.next() {
        match in_string {
            Some(q) => {
                if c == '\\' {
                    chars.next();
                } else if c == q {
                    in_string = None;
                }
            }
            None => match c {
                '"' | '`' => in_string = Some(c),
                '/' if chars.peek() == Some(&'/') => {
                    for c in chars.by_ref() {
                        if c == '\n' {
                            break;
                        }
                    }
                }
                '{' | '(' | '[' => depth += 1,
                '}' | ')' | ']' => depth -= 1,
                _ => {}
            },
        }
    }
    depth > 0 || in_string == Some('`')
}

/// Renders events for the player: text lines, or JSON lines.
pub fn render(events: &[Event], json: bool) -> String {
    let mut out = String::new();
    for e in events {
        out.push_str(&if json { e.to_json() } else { e.to_text() });
        out.push('\n');
    }
    out
}
