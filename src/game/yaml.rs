//! Reading YAML (scenarios, ruleset data) with diagnostics that point at the line and column.
//!
//! Parsing uses serde-saphyr, which reports positions for syntax errors, unknown fields and
//! bad values, and gives [`Spanned`] values so that later checks (an unknown troop type, a
//! misspelt ability) can point at the exact place too.

use serde::de::DeserializeOwned;
use serde_saphyr::{Location, Spanned};

use crate::error::{Error, YamlDiagnostic, line_col_to_byte};

/// Parses `text` (the file `name`) as `T`.
pub fn parse<T: DeserializeOwned>(name: &str, text: &str) -> Result<T, Error> {
    // serde-saphyr's default budget bounds events, aliases and nesting, which is what keeps
    // a hostile file (a billion laughs, say) from exhausting memory.
    serde_saphyr::from_str::<T>(text).map_err(|err| {
        let rendered = err.render_with_options(serde_saphyr::render_options! {
            snippets: serde_saphyr::SnippetMode::Off,
        });
        let message = strip_location(&rendered);
        let (message, help) = explain(&message);
        match err.location() {
            Some(loc) => diagnostic(name, text, &loc, &message, "here", help).into(),
            None => Error::other(format!("{name}: {message}"), help),
        }
    })
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
    let span = loc.span();
    let bytes = match (span.byte_offset(), span.byte_len()) {
        (Some(start), Some(len)) if len > 0 => start as usize..(start + len) as usize,
        _ => {
            let start = line_col_to_byte(text, loc.line() as usize, loc.column() as usize);
            start..start + token_len(&text[start.min(text.len())..])
        }
    };
    YamlDiagnostic::new(name, text, bytes, message, label, help)
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
