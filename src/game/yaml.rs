//! Reading YAML (scenarios, ruleset data) with diagnostics that point at the line and column.
//!
//! Parsing uses serde-saphyr, which reports positions for syntax errors, unknown fields and
//! bad values, and gives [`Spanned`] values so that later checks (an unknown troop type, a
//! misspelt ability) can point at the exact place too.

use std::borrow::Cow;

use serde::de::DeserializeOwned;
use serde_saphyr::budget::BudgetBreach;
use serde_saphyr::{
    DefaultMessageFormatter, Error as YamlError, Location, MessageFormatter, Spanned,
    UserMessageFormatter,
};

use crate::error::{Error, YamlDiagnostic, line_col_to_byte};

/// Parses `text` (the file `name`) as `T`.
pub fn parse<T: DeserializeOwned>(name: &str, text: &str) -> Result<T, Error> {
    // serde-saphyr's default budget bounds events, aliases and nesting, which is what keeps
    // a hostile file (a billion laughs, say) from exhausting memory.
    serde_saphyr::from_str::<T>(text).map_err(|err| {
        let rendered = err.render_with_options(serde_saphyr::render_options! {
            formatter: &ForPlayers,
            snippets: serde_saphyr::SnippetMode::Off,
        });
        let message = strip_location(&rendered);
        let (message, help) = explain(&message);
        // A bracket left open makes the parser stumble further on, over words that are
        // fine ("illegal placement of ':' indicator"): name the bracket instead.
        // Only a bracket nothing closes: an error inside a list that is closed later is
        // told as it is. A value error counts too: in brackets a value runs on over lines
        // (`depth: 36` and the next line's `sides:` are one value).
        if let Some(loc) = err.location()
            && let Some(open) = unclosed_at(text, bytes_of(text, &loc).start)
            && never_closed(text, open)
        {
            return unclosed_bracket_error(name, text, open, loc.line() as usize).into();
        }
        match err.location() {
            Some(loc) => diagnostic(name, text, &loc, &message, "here", help).into(),
            None => Error::other(format!("{name}: {message}"), help),
        }
    })
}

/// A bracket (`[` or `{`) opened and not closed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Unclosed {
    /// The bracket's byte offset.
    pub at: usize,
    /// `[` or `{`.
    pub bracket: char,
}

/// The innermost bracket still open at byte `upto` of a YAML or JSON text, if any: a list
/// written in brackets (`[a, b]`) or a map in braces (`{a: 1}`). Brackets in quoted text,
/// comments, block text (`description: >`) and plain words (`name: The [lost] patrol`) are
/// not brackets; a bracket starts a list or map only where a value starts.
pub fn unclosed_bracket(text: &str, upto: usize) -> Option<Unclosed> {
    open_brackets(text, upto).pop()
}

/// Whether nothing closes a bracket: it is still open at the end of the text, or a closer
/// of the other kind (`}` where `]` was due) passed it by.
pub fn never_closed(text: &str, open: Unclosed) -> bool {
    let mut passed = Vec::new();
    scan(text, text.len(), &mut passed).contains(&open) || passed.contains(&open)
}

/// The brackets still open at byte `upto`, outermost first (see [`unclosed_bracket`]).
fn open_brackets(text: &str, upto: usize) -> Vec<Unclosed> {
    scan(text, upto, &mut Vec::new())
}

/// The brackets still open at byte `upto`, outermost first; those a closer of the other
/// kind passed by go into `passed`.
fn scan(text: &str, upto: usize, passed: &mut Vec<Unclosed>) -> Vec<Unclosed> {
    let mut open: Vec<Unclosed> = Vec::new();
    let mut quote: Option<char> = None;
    // The indent of the line that started block text (`key: |`): deeper lines are its text.
    let mut block_text: Option<usize> = None;
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        if offset >= upto {
            break;
        }
        let start = offset;
        offset += line.len();
        let indent = line.len() - line.trim_start_matches(' ').len();
        if let Some(at) = block_text {
            if line.trim().is_empty() || indent > at {
                continue;
            }
            block_text = None;
        }
        // The last character that was not a space on this line (outside quotes), and whether
        // a plain word has started since the last place a value may start.
        let mut before: Option<char> = None;
        let mut in_word = false;
        let mut escaped = false;
        for (i, c) in line.char_indices() {
            if start + i >= upto {
                break;
            }
            if let Some(q) = quote {
                if escaped {
                    escaped = false;
                } else if q == '"' && c == '\\' {
                    escaped = true;
                } else if c == q {
                    quote = None;
                    before = Some(c);
                }
                continue;
            }
            if c == ' ' || c == '\t' || c == '\r' || c == '\n' {
                if before == Some(':') || before == Some('-') || before == Some('?') {
                    in_word = false;
                }
                continue;
            }
            let value_starts =
                !in_word && matches!(before, None | Some(':' | '-' | '?' | '[' | '{' | ','));
            match c {
                '#' if before.is_none() || line[..i].ends_with([' ', '\t']) => break,
                '"' | '\'' if value_starts || !open.is_empty() && !in_word => quote = Some(c),
                '[' | '{' if value_starts || !open.is_empty() => {
                    open.push(Unclosed {
                        at: start + i,
                        bracket: c,
                    });
                    in_word = false;
                }
                ']' | '}' if !open.is_empty() => {
                    let opener = if c == ']' { '[' } else { '{' };
                    if let Some(top) = open.pop()
                        && top.bracket != opener
                    {
                        passed.push(top);
                        if open.last().is_some_and(|o| o.bracket == opener) {
                            open.pop();
                        }
                    }
                    in_word = false;
                }
                ',' if !open.is_empty() => in_word = false,
                ':' => {}
                _ => in_word = true,
            }
            before = Some(c);
        }
        // `key: |` or `- >-`: the deeper lines that follow are text.
        let code = line.split(" #").next().unwrap_or(line).trim_end();
        let last = code.rsplit(' ').next().unwrap_or("");
        if quote.is_none()
            && open.is_empty()
            && (last.starts_with('|') || last.starts_with('>'))
            && last[1..]
                .chars()
                .all(|c| c == '+' || c == '-' || c.is_ascii_digit())
        {
            block_text = Some(indent);
        }
    }
    open
}

/// The bracket still open where reading stopped at byte `at`, or the one at `at` itself if
/// nothing closes it.
pub fn unclosed_at(text: &str, at: usize) -> Option<Unclosed> {
    unclosed_bracket(text, at)
        .or_else(|| unclosed_bracket(text, text.len()).filter(|open| open.at == at))
}

/// The diagnostic for a bracket left open, at the bracket, saying where reading stopped (the
/// line `stopped`).
pub fn unclosed_bracket_error(
    name: &str,
    text: &str,
    open: Unclosed,
    stopped: usize,
) -> YamlDiagnostic {
    let line = text[..open.at.min(text.len())].matches('\n').count() + 1;
    let (what, kind, close, example) = match open.bracket {
        '[' => ("list", "brackets", ']', "`[a, b]`"),
        _ => ("map", "braces", '}', "`{ a: 1, b: 2 }`"),
    };
    YamlDiagnostic::new(
        name,
        text,
        open.at..open.at + 1,
        format!(
            "the `{}` opened on line {line} is never closed: a {what} written in {kind} ends with `{close}`",
            open.bracket
        ),
        format!("this `{}` has no `{close}`", open.bracket),
        Some(if stopped > line {
            format!(
                "add the `{close}` where the {what} ends ({example}); reading stopped at line {stopped}, which cannot be part of the {what}"
            )
        } else {
            format!("add the `{close}` where the {what} ends ({example})")
        }),
    )
}

/// serde-saphyr's messages in words for players: its default ones name its own types and
/// options ("invalid u32", "set DuplicateKeyPolicy in Options if acceptable", "use
/// from_str_multiple", "budget breached: Nodes { nodes: 250001 }"), which mean nothing to
/// someone writing a scenario.
struct ForPlayers;

impl MessageFormatter for ForPlayers {
    fn format_message<'a>(&self, err: &'a YamlError) -> Cow<'a, str> {
        match err {
            YamlError::InvalidScalar { ty, .. } => Cow::Owned(expected_scalar(ty)),
            YamlError::DuplicateMappingKey { key: Some(k), .. } => {
                Cow::Owned(format!("`{k}` is given twice in the same place; keep one"))
            }
            YamlError::DuplicateMappingKey { key: None, .. } => {
                Cow::Borrowed("this key is given twice in the same place; keep one")
            }
            YamlError::MultipleDocuments { .. } => Cow::Borrowed(
                "a second YAML document starts here (after `---`); the file must hold one: remove \
                 the `---` line and what follows it, or move it to a file of its own",
            ),
            YamlError::Budget { breach, .. } => Cow::Owned(format!(
                "this file is too large or too deeply nested to read: {}",
                too_much(breach)
            )),
            YamlError::SerdeInvalidType {
                unexpected,
                expected,
                ..
            } => Cow::Owned(format!(
                "expected {expected} here, not {}",
                unexpected_in_words(unexpected)
            )),
            YamlError::NonFiniteFloat { value, .. } => Cow::Owned(format!(
                "`{value}` is not a number a game can hold: give a finite number"
            )),
            YamlError::Unexpected { expected, .. } if expected.ends_with("scalar") => {
                Cow::Borrowed("expected a single value here, not a list or a map")
            }
            YamlError::NullIntoString { .. }
            | YamlError::InvalidCharNull { .. }
            | YamlError::InvalidCharNotSingleScalar { .. }
            | YamlError::BinaryNotUtf8 { .. }
            | YamlError::BytesNotSupportedMissingBinaryTag { .. }
            | YamlError::CannotBorrowTransformedString { .. }
            | YamlError::RecursiveReferencesRequireWeakTypes { .. }
            | YamlError::InvalidBooleanStrict { .. }
            | YamlError::AliasReplayCounterOverflow { .. }
            | YamlError::AliasReplayLimitExceeded { .. }
            | YamlError::AliasExpansionLimitExceeded { .. }
            | YamlError::AliasReplayStackDepthExceeded { .. } => {
                UserMessageFormatter.format_message(err)
            }
            _ => DefaultMessageFormatter.format_message(err),
        }
    }
}

/// What serde says it found (`integer \`5\``, `map`, `sequence`), in words.
fn unexpected_in_words(unexpected: &str) -> String {
    let (kind, rest) = unexpected.split_once(' ').unwrap_or((unexpected, ""));
    let kind = match kind {
        "integer" | "floating" => "the number",
        "string" => "the text",
        "boolean" => "",
        "map" => "a map",
        "sequence" => "a list",
        "unit" => "nothing",
        _ => return unexpected.to_string(),
    };
    let rest = rest.trim_start_matches("point ");
    format!("{kind} {rest}").trim().to_string()
}

/// What a value that does not parse as `ty` should have been.
fn expected_scalar(ty: &str) -> String {
    let max = match ty {
        "u8" => Some(u64::from(u8::MAX)),
        "u16" => Some(u64::from(u16::MAX)),
        "u32" => Some(u64::from(u32::MAX)),
        "u64" | "usize" => Some(u64::MAX),
        _ => None,
    };
    match (max, ty) {
        (Some(max), _) => format!("expected a whole number from 0 to {max} here"),
        (None, "i8" | "i16" | "i32" | "i64" | "isize" | "i128") => {
            "expected a whole number here".into()
        }
        (None, "floating point" | "f32" | "f64") => "expected a number here".into(),
        (None, "boolean" | "bool") => "expected `true` or `false` here".into(),
        (None, "char") => "expected a single character here".into(),
        (None, other) => format!("expected a {other} here"),
    }
}

/// Which of serde-saphyr's reading limits a file broke, in words, with the limit.
fn too_much(breach: &BudgetBreach) -> String {
    let limits = serde_saphyr::Budget::default();
    match breach {
        BudgetBreach::Nodes { .. } => format!(
            "it has more than {} values (lists, maps and single values)",
            limits.max_nodes
        ),
        BudgetBreach::Events { .. } => {
            format!("it has more than {} parts", limits.max_events)
        }
        BudgetBreach::Depth { .. } => {
            format!(
                "lists and maps are nested more than {} deep",
                limits.max_depth
            )
        }
        BudgetBreach::Documents { .. } => {
            format!("it holds more than {} documents", limits.max_documents)
        }
        BudgetBreach::ScalarBytes { .. } => format!(
            "its values hold more than {} bytes of text",
            limits.max_total_scalar_bytes
        ),
        BudgetBreach::Anchors { .. } => {
            format!(
                "it defines more than {} anchors (`&name`)",
                limits.max_anchors
            )
        }
        BudgetBreach::MergeKeys { .. } => {
            format!(
                "it has more than {} merge keys (`<<`)",
                limits.max_merge_keys
            )
        }
        BudgetBreach::Aliases { .. }
        | BudgetBreach::AliasAnchorRatio { .. }
        | BudgetBreach::RecordedAnchorEvents { .. }
        | BudgetBreach::RecordedAnchorBytes { .. } => {
            "its aliases (`*name`) repeat too much of it".into()
        }
        _ => "it is too complex".into(),
    }
}

/// A diagnostic at a location in a YAML file.
pub fn diagnostic(
    name: &str,
    text: &str,
    loc: &Location,
    message: &str,
    label: &str,
    help: Option<String>,
) -> YamlDiagnostic {
    YamlDiagnostic::new(name, text, bytes_of(text, loc), message, label, help)
}

/// The bytes of `text` a location covers (the token starting there when it has no span).
pub fn bytes_of(text: &str, loc: &Location) -> std::ops::Range<usize> {
    let span = loc.span();
    match (span.byte_offset(), span.byte_len()) {
        (Some(start), Some(len)) if len > 0 => start as usize..(start + len) as usize,
        _ => {
            let start = line_col_to_byte(text, loc.line() as usize, loc.column() as usize);
            start..start + token_len(&text[start.min(text.len())..])
        }
    }
}

/// A diagnostic at a spanned value.
pub fn at<T>(
    name: &str,
    text: &str,
    value: &Spanned<T>,
    message: &str,
    label: &str,
    help: Option<String>,
) -> Error {
    diagnostic(name, text, &value.referenced, message, label, help).into()
}

/// The length of the token starting a slice of text (for labels without a span).
fn token_len(rest: &str) -> usize {
    rest.find(|c: char| c.is_whitespace() || c == ',' || c == ']' || c == '}')
        .unwrap_or(rest.len())
        .max(1)
        .min(rest.len())
}

/// Drops the `at line N, column M` suffix serde-saphyr adds: the diagnostic shows it.
fn strip_location(message: &str) -> String {
    let first = message.lines().next().unwrap_or(message).trim();
    match first.rfind(" at line ") {
        Some(i) => first[..i].trim_end_matches(',').to_string(),
        None => first.to_string(),
    }
}

/// Rewords serde's messages for players and adds a hint (a did-you-mean where one fits).
fn explain(message: &str) -> (String, Option<String>) {
    for (kind, noun) in [("unknown field", "fields"), ("unknown variant", "values")] {
        if let Some(rest) = message.strip_prefix(kind) {
            let word = rest.split('`').nth(1).unwrap_or_default();
            let allowed: Vec<&str> = message
                .split_once("expected one of")
                .map(|(_, list)| {
                    list.split(',')
                        .map(|w| w.trim().trim_matches(|c| c == '`' || c == '.'))
                        .filter(|w| !w.is_empty())
                        .collect()
                })
                .unwrap_or_default();
            let help = match crate::host::suggest::did_you_mean(word, allowed.iter().copied()) {
                Some(s) => format!("did you mean `{s}`?"),
                None if allowed.is_empty() => "remove it or check its spelling".to_string(),
                None => format!("the {noun} allowed here are: {}", allowed.join(", ")),
            };
            let what = if kind == "unknown field" {
                "field"
            } else {
                "value"
            };
            return (format!("unknown {what} `{word}`"), Some(help));
        }
    }
    if message.contains("invalid floating point") || message.contains("invalid integer") {
        return ("expected a number here".into(), None);
    }
    (message.to_string(), None)
}
