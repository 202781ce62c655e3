//! Lines typed at the prompt (or read from a batch file of prompt lines), parsed into a
//! [`Line`] before anything runs, so that analysis can run a parsed action without the prompt.
//!
//! A line is one of:
//! - empty, or a comment starting with `#` or `//`: nothing happens;
//! - a meta command starting with `:` (`:help`, `:undo 3`), which the front end runs;
//! - a host command: `roll EXPR` or `draw DECK [N]`;
//! - a ruleset verb and its arguments, e.g. `melee viking_1 legionary_2`: unit ids (or
//!   unambiguous prefixes of them) become units, numbers become numbers, other words strings;
//! - otherwise, Rhai code evaluated in the session's persistent scope.
//!
//! [`Session::act`] runs a parsed action as one step of `:undo`.

use rhai::Dynamic;

use crate::error::{DiceDiagnostic, Error, LineDiagnostic, char_range_to_bytes};
use crate::game::event::Event;
use crate::host::battlefield::ResolveError;
use crate::host::suggest::did_you_mean;
use crate::script::lint::ParamKind;
use crate::session::Session;

/// A word of a line and where it starts (in characters).
#[derive(Clone, Debug, PartialEq)]
pub struct Word {
    /// The word, without its quotes.
    pub text: String,
    /// Where it starts, in characters.
    pub start: usize,
    /// Its length in characters, quotes included.
    pub len: usize,
    /// Whether it was written in double quotes.
    pub quoted: bool,
}

/// What a line asks for.
#[derive(Clone, Debug)]
pub enum Line {
    /// Nothing: an empty line or a comment.
    Nothing,
    /// A meta command (`:undo 3`, or `explain` on its own): its words, the first being its
    /// name. The front end runs it.
    Meta(Vec<Word>),
    /// `roll EXPR`: the expression, and where it starts in the line (in characters).
    Roll { expr: String, start: usize },
    /// `draw DECK [N]`.
    Draw { deck: Word, n: usize },
    /// A verb of the ruleset or a house rule, its arguments made values.
    Verb { name: String, args: Vec<Dynamic> },
    /// Rhai code. `verb_like` is the first word when the line reads like a verb the ruleset
    /// does not have (`meele viking_1 legionary_2`), to say so if the code fails.
    Rhai { verb_like: Option<Word> },
}

/// A line, parsed, with where it came from.
#[derive(Clone, Debug)]
pub struct Parsed {
    /// Where it came from: `<prompt>`, `game.txt:3`.
    pub origin: String,
    /// The line as written.
    pub text: String,
    /// What it asks for.
    pub line: Line,
}

impl Parsed {
    /// Parses a line in the game as it stands (unit ids and verbs are the session's).
    pub fn parse(session: &Session, origin: &str, text: &str) -> Result<Parsed, Error> {
        let line = parse(session, origin, text)?;
        Ok(Parsed {
            origin: origin.to_string(),
            text: text.to_string(),
            line,
        })
    }

    /// Whether the line acts on the game (a roll, a draw, a verb or Rhai).
    pub fn is_action(&self) -> bool {
        !matches!(self.line, Line::Nothing | Line::Meta(_))
    }

    /// An error pointing at `len` characters from `start` of this line.
    pub fn error_at(
        &self,
        start: usize,
        len: usize,
        message: String,
        label: &str,
        help: Option<String>,
    ) -> Error {
        line_error(&self.origin, &self.text, start, len, message, label, help)
    }
}

/// Splits a line into words; double quotes group words.
pub fn words(line: &str) -> Result<Vec<Word>, (usize, String)> {
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

/// Parses a line: see the module's doc for what a line may be.
fn parse(session: &Session, origin: &str, line: &str) -> Result<Line, Error> {
    let trimmed = line.trim();
    // `#{` opens a Rhai map, so only other `#` lines are comments.
    let comment =
        (trimmed.starts_with('#') && !trimmed.starts_with("#{")) || trimmed.starts_with("//");
    if trimmed.is_empty() || comment {
        return Ok(Line::Nothing);
    }
    let ws = match words(line) {
        Ok(ws) => ws,
        Err((at, msg)) => {
            // A quote inside Rhai (`print("a " + 1)`) is not a word's quote: only a meta
            // command's or a verb's line is split into words, so only theirs is an error.
            let first = trimmed.split_whitespace().next().unwrap_or_default();
            if first.starts_with(':') || session.verbs().contains_key(first) {
                return Err(line_error(origin, line, at, 1, msg, "here", None));
            }
            return Ok(Line::Rhai { verb_like: None });
        }
    };
    if ws[0].text.starts_with(':') {
        return Ok(Line::Meta(ws));
    }
    let first = &ws[0];
    let ruleset_verb = session.verbs().contains_key(&first.text);
    // `explain` on its own is the meta command too, unless the ruleset has such a verb.
    if ws.len() == 1 && first.text == "explain" && !ruleset_verb {
        let mut ws = ws;
        ws[0].text = ":explain".into();
        return Ok(Line::Meta(ws));
    }
    // `roll` and a space take a dice expression, which may start with `(` (unless the ruleset
    // has a verb of that name: a ruleset's verbs come before the host's commands).
    if first.text == "roll" && ws.len() >= 2 && !first.quoted && !ruleset_verb {
        return Ok(roll(line, &ws));
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
            _ if ruleset_verb => return verb(session, origin, line, &ws),
            "draw" if ws.len() >= 2 => return draw(origin, line, &ws),
            _ => {}
        }
    }
    // `meele viking_1 legionary_2` is not Rhai: if it fails as Rhai, say so in the
    // player's terms.
    let looks_like_a_verb = !first.quoted
        && is_word(&first.text)
        && (ws.len() == 1
            || ws
                .iter()
                .all(|w| w.quoted || !w.text.contains(['(', ')', '=', ';', '{', '}'])));
    Ok(Line::Rhai {
        verb_like: looks_like_a_verb.then(|| first.clone()),
    })
}

fn roll(line: &str, ws: &[Word]) -> Line {
    let start = ws[1].start;
    Line::Roll {
        expr: line.chars().skip(start).collect(),
        start,
    }
}

fn draw(origin: &str, line: &str, ws: &[Word]) -> Result<Line, Error> {
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
    Ok(Line::Draw {
        deck: ws[1].clone(),
        n,
    })
}

fn verb(session: &Session, origin: &str, line: &str, ws: &[Word]) -> Result<Line, Error> {
    let name = ws[0].text.clone();
    let params = &session.verbs()[&name].params;
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
    let kinds = session.verb_kinds(&name);
    let usage = format!("usage: {name} {}", params.join(" "));
    let args = args
        .iter()
        .enumerate()
        .map(|(i, w)| {
            // A parameter that takes one of a set of words (`verbs:` in ruleset.yaml): one of
            // them, however close to a unit's id, or refused at the word.
            if let Some(words) = session.verb_words(&name, i) {
                return match words.iter().find(|x| x.eq_ignore_ascii_case(&w.text)) {
                    Some(_) => Ok(Dynamic::from(w.text.clone())),
                    None => Err(line_error(
                        origin,
                        line,
                        w.start,
                        w.len,
                        format!(
                            "`{name}` takes one of {} words for `{}`, and `{}` is not one",
                            words.len(),
                            params[i],
                            w.text
                        ),
                        "not one of its words",
                        Some(match close_word(&w.text, words) {
                            Some(s) => format!("did you mean `{s}`? ({})", usage.trim_end()),
                            None => {
                                format!("the words are {} ({})", words.join(", "), usage.trim_end())
                            }
                        }),
                    )),
                };
            }
            let value = argument(session, origin, line, w)?;
            let (kind, param) = (kinds.get(i).copied().unwrap_or(ParamKind::Any), &params[i]);
            // A word where a unit belongs, quoted or close to no id: the unit it names, or
            // refused at the word.
            if kind == ParamKind::Unit
                && let Some(text) = value.read_lock::<rhai::ImmutableString>()
            {
                let found = session.state().battlefield.resolve(&text);
                return match found {
                    Ok(idx) => Ok(session.unit_value(idx)),
                    Err(e) => Err(line_error(
                        origin,
                        line,
                        w.start,
                        w.len,
                        format!("{}: `{name}` needs a unit for `{param}`", e.message()),
                        "not a unit",
                        Some(match e.help() {
                            Some(help) => format!("{help} ({})", usage.trim_end()),
                            None => format!("`:units` lists the units ({})", usage.trim_end()),
                        }),
                    )),
                };
            }
            match refusal(kind, &value) {
                None => Ok(value),
                Some(wanted) => Err(line_error(
                    origin,
                    line,
                    w.start,
                    w.len,
                    format!(
                        "`{name}` needs {wanted} for `{param}`, and `{}` is not one",
                        w.text
                    ),
                    &format!("not {wanted}"),
                    Some(usage.trim_end().to_string()),
                )),
            }
        })
        .collect::<Result<_, _>>()?;
    Ok(Line::Verb { name, args })
}

/// The word of `words` that `typed` is most likely a slip for: a close spelling, or the one
/// word it begins (`volley` for `volley_fire`).
fn close_word<'a>(typed: &str, words: &'a [String]) -> Option<&'a str> {
    did_you_mean(typed, words.iter().map(String::as_str)).or_else(|| {
        let lower = typed.to_lowercase();
        let mut starting = words
            .iter()
            .filter(|w| !lower.is_empty() && w.starts_with(&lower));
        match (starting.next(), starting.next()) {
            (Some(only), None) => Some(only.as_str()),
            _ => None,
        }
    })
}

/// What a verb's parameter of `kind` needs that the value typed is not: "a number", "a
/// unit"; `None` when it will do. A number typed for a word is taken as a word.
fn refusal(kind: ParamKind, value: &Dynamic) -> Option<&'static str> {
    match kind {
        ParamKind::Number if !(value.is_int() || value.is_float()) => Some("a number"),
        ParamKind::Unit if !value.is::<crate::script::value::UnitRef>() => Some("a unit"),
        _ => None,
    }
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
    // A side's id, an ability's name, a verb's or a word the ruleset lists is a word, however
    // close it is to a unit's id (unless it is one: a unit called `run` is that unit).
    let exact_unit = state.battlefield.units().iter().any(|u| u.id == w.text);
    if !exact_unit
        && (state.sides.iter().any(|s| s.id == w.text)
            || session.has_ability_named(&w.text)
            || session.is_ruleset_word(&w.text))
    {
        return Ok(Dynamic::from(w.text.clone()));
    }
    match state.battlefield.resolve(&w.text) {
        Ok(idx) => Ok(session.unit_value(idx)),
        // A word close to no unit's id is a word (a direction, a formation, ...).
        Err(ResolveError::Unknown {
            suggestion: None, ..
        }) => Ok(Dynamic::from(w.text.clone())),
        Err(e) => Err(line_error(
            origin,
            line,
            w.start,
            w.len,
            e.message(),
            "this unit",
            e.help(),
        )),
    }
}

impl Session {
    /// Runs a parsed action as one step of `:undo` (printing alone is no step, and keeps
    /// `:redo`). A line that is not an action does nothing here: the front end runs meta
    /// commands. Gives the value of a verb or of Rhai code, `()` for the rest.
    pub fn act(&mut self, parsed: &Parsed) -> Result<Dynamic, Error> {
        if !parsed.is_action() {
            return Ok(Dynamic::UNIT);
        }
        let before = self.state().log_end();
        self.checkpoint();
        let result = self.perform(parsed);
        let changed = self
            .state()
            .events_since(before)
            .iter()
            .any(|e| !matches!(e, Event::Print { .. } | Event::Debug { .. }));
        if result.is_err() || !changed {
            self.drop_checkpoint();
        } else {
            self.keep_checkpoint();
        }
        result
    }

    /// Runs a parsed action, leaving `:undo`'s history alone (exact odds play an action this
    /// way inside [`Session::hypothetically`]).
    pub fn perform(&mut self, parsed: &Parsed) -> Result<Dynamic, Error> {
        let (origin, line) = (parsed.origin.as_str(), parsed.text.as_str());
        match &parsed.line {
            Line::Nothing | Line::Meta(_) => Ok(Dynamic::UNIT),
            Line::Roll { expr, start } => {
                self.roll(expr).map_err(|e| {
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
                Ok(Dynamic::UNIT)
            }
            Line::Draw { deck, n } => {
                self.draw(&deck.text, *n).map_err(|m| {
                    line_error(
                        origin,
                        line,
                        deck.start,
                        deck.len,
                        m.to_string(),
                        "this deck",
                        None,
                    )
                })?;
                Ok(Dynamic::UNIT)
            }
            Line::Verb { name, args } => self.call(name, args.clone()),
            Line::Rhai { verb_like } => {
                let result = self.eval(origin, line);
                match (result, verb_like) {
                    (Err(e), Some(first)) => Err(self.verb_like_failure(origin, line, first, e)),
                    (result, _) => result,
                }
            }
        }
    }
}

/// How a line that failed as Rhai reads as Rhai.
enum Reading {
    /// It is not Rhai at all: a syntax error.
    NotRhai,
    /// It is Rhai, and uses a variable no one has defined, at this column (from 1).
    Undefined { name: String, column: usize },
    /// It is Rhai, and failed for another reason.
    Rhai,
}

impl Session {
    /// The error of a line that reads like a verb (its first word a plain name, no brackets)
    /// and failed as Rhai: `meele viking_1 legionary_2` is no Rhai, so an unknown verb;
    /// `x + 1` is Rhai whose `x` is not defined, so it says that; `x` alone could be either,
    /// and is said to be neither. Any other failure is the script's own.
    fn verb_like_failure(&mut self, origin: &str, line: &str, first: &Word, e: Error) -> Error {
        if !matches!(e, Error::Script(_) | Error::Other { .. }) {
            return e;
        }
        let verbs = self
            .verbs()
            .keys()
            .map(String::as_str)
            .chain(["roll", "draw"]);
        let close_verb = did_you_mean(&first.text, verbs).map(str::to_string);
        let alone = !line.trim().contains(char::is_whitespace);
        let name = &first.text;
        let (message, label, help) = match self.read_as_rhai(line) {
            Reading::NotRhai => (
                format!("unknown verb `{name}`"),
                "not a verb of this ruleset",
                match &close_verb {
                    Some(s) => format!("did you mean `{s}`?"),
                    None => "`:help` lists the verbs".into(),
                },
            ),
            Reading::Undefined {
                name: undefined,
                column,
            } if &undefined == name && column == first.start + 1 => {
                let help = match &close_verb {
                    Some(s) => format!(
                        "did you mean the verb `{s}`? Or give `{name}` a value first: `let {name} = ...`"
                    ),
                    None => format!(
                        "`:help` lists the verbs; give a variable a value first: `let {name} = ...`"
                    ),
                };
                if alone {
                    (
                        format!(
                            "`{name}` is neither a verb of this ruleset nor a variable that is defined"
                        ),
                        "not a verb or a variable",
                        help,
                    )
                } else {
                    (
                        format!(
                            "the variable `{name}` is not defined (nor is there a verb `{name}`)"
                        ),
                        "not defined",
                        help,
                    )
                }
            }
            _ => return e,
        };
        line_error(
            origin,
            line,
            first.start,
            first.len,
            message,
            label,
            Some(help),
        )
    }

    /// Reads a line as Rhai again, once it has failed, to say what it is: compiled as the
    /// session compiles a line, then with every variable required to be defined (Rhai's
    /// strict variables, on for this compile only), which names the first that is not.
    fn read_as_rhai(&mut self, line: &str) -> Reading {
        let compiled = self
            .budget
            .compiling(|| self.engine.compile_with_scope(&self.scope, line));
        if compiled.is_err() {
            return Reading::NotRhai;
        }
        let before = self.engine.strict_variables();
        self.engine.set_strict_variables(true);
        let strict = self
            .budget
            .compiling(|| self.engine.compile_with_scope(&self.scope, line));
        self.engine.set_strict_variables(before);
        match strict {
            Err(e) => match e.err_type() {
                rhai::ParseErrorType::VariableUndefined(name) => Reading::Undefined {
                    name: name.clone(),
                    column: e.position().position().unwrap_or(0),
                },
                _ => Reading::Rhai,
            },
            Ok(_) => Reading::Rhai,
        }
    }
}

/// Whether an entry is unfinished, so that the prompt should read another line before running
/// it. Rhai's own parser is asked: the entry is unfinished when its input ends too soon with
/// a bracket open (Rhai's "script is incomplete", or its closing bracket missing at the end)
/// or inside a back-quoted string, which may span lines. Brackets in strings, characters and comments are
/// no brackets to it. A meta command (`:save "a (b).json"`) is always whole; a line that is no
/// Rhai at all (a verb's, `order pte_1 fire`) fails to parse before its end, and is whole too;
/// so is an entry past [`MAX_SCRIPT_BYTES`](crate::limits::MAX_SCRIPT_BYTES), which is then
/// refused whole. [`Session::needs_more`] asks with the session's engine, within its budget.
pub fn needs_more(text: &str) -> bool {
    needs_more_by(text, |t| crate::script::engine::raw().compile(t))
}

/// As [`needs_more`], compiling with `compile`.
fn needs_more_by(
    text: &str,
    compile: impl FnOnce(&str) -> Result<rhai::AST, rhai::ParseError>,
) -> bool {
    if text.trim_start().starts_with(':') || text.len() > crate::limits::MAX_SCRIPT_BYTES {
        return false;
    }
    // With no string, character or comment in it, nothing can hide a bracket: an entry with
    // every bracket closed is whole, and the parser need not read it twice (a batch of
    // thousands of one-line functions).
    if !text.contains(['"', '\'', '`', '/']) && open_brackets(text) <= 0 {
        return false;
    }
    let Err(e) = compile(text) else {
        return false;
    };
    let pos = e.position();
    let (Some(line), Some(column)) = (pos.line(), pos.position()) else {
        return false;
    };
    // What follows where Rhai stopped, from its line and column (both from 1).
    let rest: String = match text.lines().nth(line - 1) {
        None => String::new(),
        Some(_) => {
            let before: usize = text
                .lines()
                .take(line - 1)
                .map(|l| l.chars().count() + 1)
                .sum();
            text.chars().skip(before + column - 1).collect()
        }
    };
    match e.err_type() {
        rhai::ParseErrorType::UnexpectedEOF => true,
        // A block, an array or a map still open: Rhai wants its bracket at the end.
        rhai::ParseErrorType::MissingToken(..) | rhai::ParseErrorType::MissingSymbol(_) => {
            rest.trim().is_empty()
        }
        // Rhai says where the string that never ends starts.
        rhai::ParseErrorType::BadInput(rhai::LexError::UnterminatedString) => rest.starts_with('`'),
        _ => false,
    }
}

/// Brackets opened less brackets closed, for an entry with no strings or comments.
fn open_brackets(text: &str) -> i64 {
    text.chars()
        .map(|c| match c {
            '(' | '[' | '{' => 1,
            ')' | ']' | '}' => -1,
            _ => 0,
        })
        .sum()
}

impl Session {
    /// Whether an entry is unfinished (see [`needs_more`]), asked of the session's engine
    /// within its compile budget, so that a huge entry costs no more here than it may cost
    /// to run.
    pub fn needs_more(&self, text: &str) -> bool {
        needs_more_by(text, |t| self.budget.compiling(|| self.engine.compile(t)))
    }

    /// Adds a line to an entry being read and says whether the entry is unfinished, so that
    /// another line must be read before it runs: as [`Session::needs_more`], but in time
    /// linear in the entry (see [`Entry`]).
    pub fn entry_needs_more(&self, entry: &mut Entry, line: &str) -> bool {
        entry.push(line, |text, left| {
            needs_more_by(text, |t| {
                self.budget
                    .compiling_within(left, || self.engine.compile(t))
            })
        })
    }
}

/// An entry at the prompt or in a batch, read line by line until it is whole.
///
/// Asking Rhai's parser after every line read the entry again each time: an entry of
/// 300,000 blank lines inside `[` took 34 s of processor time, a 60,000-arm `switch` 33 s
/// where the same file compiles in 0.05 s. So the parser is asked of the first line (which
/// decides whether the entry is Rhai at all, `order pte_1 fire (` is a verb's line), and of a
/// later line only when a scanner that keeps its state from line to line (brackets, strings,
/// comments) says the entry could be whole: a line that adds no tokens (blank, or a comment)
/// changes nothing, and while a bracket or a back-quoted string is open the entry is not
/// whole. The scanner reads each line once, so an entry costs time linear in its length. A
/// syntax error inside an open bracket is told when the bracket closes (or the input ends).
/// What the parser is asked besides (an entry at no open bracket, `1 +` line after line) is
/// held to one [`TIME_BUDGET`](crate::limits::TIME_BUDGET) of processor time for the whole
/// entry, after which the entry is taken as whole and run, and so refused.
#[derive(Debug, Default)]
pub struct Entry {
    text: String,
    scanner: Scanner,
    /// Processor time the parser has taken deciding so far.
    spent: std::time::Duration,
}

impl Entry {
    /// Whether no line has been read into it.
    pub fn is_empty(&self) -> bool {
        self.text.is_empty()
    }

    /// The entry read so far, each line ended by `\n`.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// Takes the entry, leaving it empty for the next.
    pub fn take(&mut self) -> String {
        let text = std::mem::take(&mut self.text);
        *self = Entry::default();
        text
    }

    /// Adds `line` and says whether the entry needs more, asking `parse` (given the entry and
    /// the processor time left to it) only where the scanner cannot tell.
    fn push(&mut self, line: &str, parse: impl FnOnce(&str, std::time::Duration) -> bool) -> bool {
        let first = self.text.is_empty();
        self.text.push_str(line);
        self.text.push('\n');
        let fed = self.scanner.feed(line);
        if self.text.len() > crate::limits::MAX_SCRIPT_BYTES {
            // Refused whole when it runs.
            return false;
        }
        if !first && !fed.adds_tokens {
            // The same tokens as before, and the entry needed more then.
            return true;
        }
        if !first && !fed.broken && self.scanner.open() {
            return true;
        }
        let left = crate::limits::TIME_BUDGET.saturating_sub(self.spent);
        let before = crate::script::clock::thread_processor_time();
        let started = std::time::Instant::now();
        let more = parse(&self.text, left);
        let took = match (before, crate::script::clock::thread_processor_time()) {
            (Some(b), Some(a)) => a.saturating_sub(b),
            _ => started.elapsed(),
        };
        self.spent = self.spent.saturating_add(took);
        more
    }
}

/// A cheap reader of Rhai's brackets, strings and comments that keeps its state from line to
/// line, for [`Entry`]. Where it is unsure it says the entry could be whole, and the parser
/// decides.
#[derive(Clone, Debug, Default)]
struct Scanner {
    /// Brackets open at the top level (outside back-quoted strings), less those closed.
    depth: i64,
    /// Back-quoted strings and the `${...}` inside them, innermost last.
    frames: Vec<Frame>,
    /// Block comments open (they nest).
    comments: u32,
    /// A raw string (`#"..."#`) open, and its number of `#`.
    raw: Option<usize>,
    /// A `"..."` string continued onto the next line by a `\` at the end of the line.
    quoted: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Frame {
    /// Inside a back-quoted string.
    Backquote,
    /// Inside `${...}` in a back-quoted string, with its braces open.
    Interpolation(u32),
}

/// What one line did to the scanner.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Fed {
    /// Whether the line holds anything but white space and comments.
    adds_tokens: bool,
    /// Whether the line holds what the scanner cannot follow (a string never closed, a `#`
    /// that starts nothing): the parser decides.
    broken: bool,
}

impl Scanner {
    /// Whether the entry read so far surely cannot be whole: a bracket or a back-quoted
    /// string is open, and nothing is open that the scanner does not follow.
    fn open(&self) -> bool {
        self.raw.is_none()
            && !self.quoted
            && self.comments == 0
            && (!self.frames.is_empty() || self.depth > 0)
    }

    /// Reads one line (without its end).
    fn feed(&mut self, line: &str) -> Fed {
        let mut fed = Fed::default();
        let chars: Vec<char> = line.chars().collect();
        let mut i = 0;
        let at = |i: usize| chars.get(i).copied();
        while i < chars.len() {
            let c = chars[i];
            if let Some(hashes) = self.raw {
                fed.adds_tokens = true;
                if c == '"'
                    && chars[i + 1..]
                        .iter()
                        .take(hashes)
                        .filter(|&&h| h == '#')
                        .count()
                        == hashes
                {
                    self.raw = None;
                    i += 1 + hashes;
                } else {
                    i += 1;
                }
                continue;
            }
            if self.quoted {
                fed.adds_tokens = true;
                match c {
                    '\\' => i += 2,
                    '"' => {
                        self.quoted = false;
                        i += 1;
                    }
                    _ => i += 1,
                }
                if self.quoted && i >= chars.len() && !line.ends_with('\\') {
                    self.quoted = false;
                    fed.broken = true;
                }
                continue;
            }
            if self.comments > 0 {
                match (c, at(i + 1)) {
                    ('*', Some('/')) => {
                        self.comments -= 1;
                        i += 2;
                    }
                    ('/', Some('*')) => {
                        self.comments += 1;
                        i += 2;
                    }
                    _ => i += 1,
                }
                continue;
            }
            if self.frames.last() == Some(&Frame::Backquote) {
                fed.adds_tokens = true;
                match (c, at(i + 1)) {
                    ('`', _) => {
                        self.frames.pop();
                        i += 1;
                    }
                    ('$', Some('{')) => {
                        self.frames.push(Frame::Interpolation(0));
                        i += 2;
                    }
                    _ => i += 1,
                }
                continue;
            }
            // Code: at the top level, or inside `${...}`.
            match (c, at(i + 1)) {
                (c, _) if c.is_whitespace() => {
                    i += 1;
                    continue;
                }
                ('/', Some('/')) => break,
                ('/', Some('*')) => {
                    self.comments += 1;
                    i += 2;
                    continue;
                }
                _ => {}
            }
            fed.adds_tokens = true;
            match (c, at(i + 1)) {
                ('"', _) => {
                    self.quoted = true;
                    i += 1;
                    while i < chars.len() {
                        match chars[i] {
                            '\\' => i += 2,
                            '"' => {
                                self.quoted = false;
                                i += 1;
                                break;
                            }
                            _ => i += 1,
                        }
                    }
                    if self.quoted && !line.ends_with('\\') {
                        self.quoted = false;
                        fed.broken = true;
                    }
                }
                ('\'', _) => {
                    // A character: closed on its line, or broken.
                    i += 1;
                    let mut closed = false;
                    while i < chars.len() {
                        match chars[i] {
                            '\\' => i += 2,
                            '\'' => {
                                i += 1;
                                closed = true;
                                break;
                            }
                            _ => i += 1,
                        }
                    }
                    fed.broken |= !closed;
                }
                ('`', _) => {
                    self.frames.push(Frame::Backquote);
                    i += 1;
                }
                ('#', Some('{')) => {
                    self.open_bracket();
                    i += 2;
                }
                ('#', Some('"' | '#')) => {
                    let hashes = chars[i..].iter().take_while(|&&h| h == '#').count();
                    i += hashes;
                    if at(i) == Some('"') {
                        self.raw = Some(hashes);
                        i += 1;
                    } else {
                        fed.broken = true;
                    }
                }
                ('#', _) => {
                    fed.broken = true;
                    i += 1;
                }
                ('(' | '[' | '{', _) => {
                    self.open_bracket();
                    i += 1;
                }
                (')' | ']' | '}', _) => {
                    self.close_bracket(c);
                    i += 1;
                }
                _ => i += 1,
            }
        }
        fed
    }

    fn open_bracket(&mut self) {
        match self.frames.last_mut() {
            Some(Frame::Interpolation(braces)) => *braces += 1,
            _ => self.depth += 1,
        }
    }

    fn close_bracket(&mut self, c: char) {
        match self.frames.last_mut() {
            Some(Frame::Interpolation(0)) if c == '}' => {
                self.frames.pop();
            }
            Some(Frame::Interpolation(braces)) => *braces = braces.saturating_sub(1),
            _ => self.depth -= 1,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Entry, needs_more};

    /// Reads `lines` into an entry as the prompt does, asking [`needs_more`]; gives the
    /// answer after each line and how many times the parser was asked.
    fn read(lines: &[&str]) -> (Vec<bool>, usize) {
        let mut entry = Entry::default();
        let mut asked = 0;
        let answers = lines
            .iter()
            .map(|line| {
                entry.push(line, |text, _| {
                    asked += 1;
                    needs_more(text)
                })
            })
            .collect();
        (answers, asked)
    }

    // Guards the prompt's reading of an entry of many lines: the parser read the whole entry
    // again after every line, so an entry cost the square of its length.
    #[test]
    fn the_parser_is_asked_only_where_the_entry_could_be_whole() {
        let mut lines = vec!["let a = ["];
        lines.extend(std::iter::repeat_n("", 1000));
        lines.extend(std::iter::repeat_n("  1, // one", 1000));
        lines.push("];");
        let (answers, asked) = read(&lines);
        assert!(answers[..answers.len() - 1].iter().all(|&more| more));
        assert!(!answers[answers.len() - 1]);
        assert_eq!(asked, 2, "the first line and the closing one");
        // A back-quoted string with brackets and `${...}` in it, over lines.
        let (answers, asked) = read(&["let s = `one (", "two ${[1, 2].len()} {", "three`;"]);
        assert_eq!(answers, [true, true, false]);
        assert_eq!(asked, 2);
        // Not Rhai on its first line: whole at once, whatever its brackets.
        assert_eq!(read(&["order pte_1 fire ("]).0, [false]);
    }

    // Guards the same answers as the parser's wherever the entry could be whole.
    #[test]
    fn an_entry_read_line_by_line_ends_where_the_parser_says() {
        let cases: &[&[&str]] = &[
            &["fn f(x) {", "  x + 1", "}"],
            &["let m = #{a: 1,", "  b: \"}\",", "};"],
            &["let c = [", "  '(',", "];"],
            &["let x = [1, /* ] */", "2];"],
            &["let x = 1 +", "2;"],
            &["let a = [", "  1", "# a note", "];"],
        ];
        for lines in cases {
            let (answers, _) = read(lines);
            let mut text = String::new();
            let expected: Vec<bool> = lines
                .iter()
                .map(|l| {
                    text.push_str(l);
                    text.push('\n');
                    needs_more(&text)
                })
                .collect();
            // Where the parser says the entry is whole, so does the reader; inside an open
            // bracket it reads on (a mistake there is told when the bracket closes).
            assert_eq!(answers.last(), expected.last(), "{lines:?}");
            for (got, parser) in answers.iter().zip(&expected) {
                assert!(
                    *got || !*parser,
                    "{lines:?}: {answers:?} against {expected:?}"
                );
            }
        }
    }

    #[test]
    fn an_open_bracket_or_back_quote_needs_more() {
        assert!(needs_more("fn f(x) {\n"));
        assert!(needs_more("let a = [1,\n"));
        assert!(needs_more("let s = `one\n"));
        assert!(needs_more("let s = `one\ntwo ( \n"));
        assert!(needs_more("if x > 1 {\n  print(\"(\");\n"));
        assert!(!needs_more("fn f(x) {\n x + 1\n}\n"));
        assert!(!needs_more("let s = `one\ntwo`;\n"));
    }

    // Guards the prompt's counter of brackets: a bracket in a character, a string or a
    // comment opened nothing, and every later line was swallowed.
    #[test]
    fn brackets_in_strings_and_comments_open_nothing() {
        assert!(!needs_more("let c = '(';\n"));
        assert!(!needs_more("let s = \"[{(\";\n"));
        assert!(!needs_more("let x = 1; // (\n"));
        assert!(!needs_more("let x = 1; /* { */\n"));
        assert!(!needs_more("print(\"a)\");\n"));
        // Not Rhai at all: a verb's line, a meta command, a closing bracket too many.
        assert!(!needs_more("order pte_1 fire\n"));
        assert!(!needs_more(":save \"a (b.json\"\n"));
        assert!(!needs_more("x)\n"));
        assert!(!needs_more("let s = \"never closed\n"));
        // Past the size of a script: refused whole, never read for more.
        assert!(!needs_more(&format!(
            "f({}\n",
            "x,".repeat(crate::limits::MAX_SCRIPT_BYTES)
        )));
        assert!(!needs_more("# a note (\n"));
        assert!(needs_more("let m = #{a: 1,\n"));
    }
}
