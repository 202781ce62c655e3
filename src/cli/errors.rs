//! How errors reach the user, on standard error: a miette report (coloured on a terminal), or
//! with `--json` one JSON line, `{"error": {...}}`, so a tool reading the output never meets
//! plain text.
//!
//! The JSON object of an error has `code` (`sandtable::dice`, `sandtable::usage`, ...),
//! `message`, `help` (or `null`), and `file`, `line` and `column` (1-based, columns counting
//! characters) where the error points into a source, else `null`; `file` is the source's name
//! as the report shows it (a path, or `dice expression` for an expression typed on the
//! command line). Several problems found at once (`check`) are listed in `related`, and the
//! cause of an error that has one (`sim` stopped by a runaway script) is in `cause`, each an
//! object of the same shape. `docs/json.md` documents it for users.

use miette::{Diagnostic, GraphicalReportHandler, GraphicalTheme, SourceSpan};
use serde::Serialize;
use serde_json::{Value, json};

use crate::error::Error;

/// Writes an error to standard error: a miette report, or with `json` one JSON line.
pub(crate) fn report_error(e: &Error, json: bool) {
    if json {
        super::write_err(&error_line(error_object(e)));
    } else {
        // Made printable, and coloured only when nothing needed it: see `render_error`.
        super::write_err_styled(&render_error(e));
    }
}

/// Writes a warning to standard error: `warning: ...`, or with `json` the line
/// `{"warning": {"message": ...}}`.
pub(crate) fn report_warning(message: &str, json: bool) {
    if json {
        super::write_err(&format!(
            "{}\n",
            json!({ "warning": { "message": message } })
        ));
    } else {
        super::write_err(&format!("warning: {message}\n"));
    }
}

/// Renders an error as a miette report, [printable](super::printable::printable): coloured on
/// a terminal, plain otherwise. A report of shared text that would act on the terminal (a
/// name or a script line with escape codes) is shown plain, with those codes written out,
/// since sandtable's own colours cannot be told from a name's once mixed in.
pub fn render_error(e: &Error) -> String {
    let render = |theme: GraphicalTheme| {
        let handler = GraphicalReportHandler::new_themed(theme).with_width(100);
        let mut out = String::new();
        if handler.render_report(&mut out, e).is_err() {
            out = format!("error: {e}\n");
        }
        out
    };
    let plain = render(GraphicalTheme::unicode_nocolor());
    match super::printable::printable(&plain) {
        std::borrow::Cow::Borrowed(_)
            if super::colour(super::capture::is_terminal(std::io::stderr())) =>
        {
            render(GraphicalTheme::unicode())
        }
        safe => safe.into_owned(),
    }
}

/// The JSON form of an error, its fields in this order.
#[derive(Serialize)]
struct ErrorJson {
    code: Option<String>,
    message: String,
    help: Option<String>,
    file: Option<String>,
    line: Option<usize>,
    column: Option<usize>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    related: Vec<ErrorJson>,
    #[serde(skip_serializing_if = "Option::is_none")]
    cause: Option<Box<ErrorJson>>,
}

/// The line `{"error": {...}}`, its fields in the documented order.
fn error_line(error: ErrorJson) -> String {
    #[derive(Serialize)]
    struct Line {
        error: ErrorJson,
    }
    let text = serde_json::to_string(&Line { error })
        .unwrap_or_else(|e| json!({ "error": { "message": e.to_string() } }).to_string());
    format!("{text}\n")
}

/// An error as a JSON object (see the module's doc for its fields).
pub fn error_json(e: &Error) -> Value {
    serde_json::to_value(error_object(e)).unwrap_or_else(|_| json!({ "message": e.to_string() }))
}

/// An error in JSON form.
fn error_object(e: &Error) -> ErrorJson {
    let mut object = diagnostic_json(e);
    match e {
        Error::Io { path, .. } => object.file = Some(path.display().to_string()),
        Error::Recorded(r) => object.file.clone_from(&r.file),
        // A batch line's error that points nowhere: the place is the line.
        Error::At(at) if object.line.is_none() => {
            object.file = Some(at.file.clone());
            object.line = Some(at.line);
        }
        _ => {}
    }
    object
}

/// A diagnostic in JSON form, its related problems and its cause included.
fn diagnostic_json(d: &dyn Diagnostic) -> ErrorJson {
    let (file, line, column) = match location(d) {
        Some((file, line, column)) => (file, Some(line), Some(column)),
        None => (None, None, None),
    };
    ErrorJson {
        code: d.code().map(|c| c.to_string()),
        message: d.to_string(),
        help: d.help().map(|h| h.to_string()),
        file,
        line,
        column,
        related: d
            .related()
            .map(|r| r.map(diagnostic_json).collect())
            .unwrap_or_default(),
        cause: d.diagnostic_source().map(|c| Box::new(diagnostic_json(c))),
    }
}

/// Where a diagnostic points: the source's name, and the line and column (1-based, in
/// characters) of its first label.
fn location(d: &dyn Diagnostic) -> Option<(Option<String>, usize, usize)> {
    let source = d.source_code()?;
    let offset = d.labels()?.next()?.offset();
    // Everything before the label: its lines and the characters on the last one.
    let before = source.read_span(&SourceSpan::from(0..offset), 0, 0).ok()?;
    let name = before.name().map(str::to_string);
    let text = before.data();
    let text = String::from_utf8_lossy(&text[..offset.min(text.len())]);
    let line = text.matches('\n').count() + 1;
    let column = text.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    Some((name, line, column))
}

/// A command line that clap refused, as the JSON line of a usage error: the message from
/// clap's first paragraph, the rest (usage and hints) as help.
pub(crate) fn usage_error_json(e: &clap::Error) -> String {
    let text = e.render().to_string();
    let (message, help) = text.split_once("\n\n").unwrap_or((&text, ""));
    let message = message.trim_start_matches("error:").split_whitespace();
    let help = help.trim();
    let error = ErrorJson {
        code: Some("sandtable::usage".into()),
        message: message.collect::<Vec<_>>().join(" "),
        help: (!help.is_empty()).then(|| help.to_string()),
        file: None,
        line: None,
        column: None,
        related: Vec::new(),
        cause: None,
    };
    error_line(error)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::DiceDiagnostic;

    #[test]
    fn a_diagnostic_gives_its_place_in_characters() {
        // `é` is two bytes: the `x` is the fourth character of the second line.
        let text = "1d6\n2dé x";
        let e: Error =
            DiceDiagnostic::new("dice.txt", text, 9..10, "bad", "here", Some("fix".into())).into();
        let v = error_json(&e);
        assert_eq!(v["code"], "sandtable::dice");
        assert_eq!(v["message"], "bad");
        assert_eq!(v["help"], "fix");
        assert_eq!(v["file"], "dice.txt");
        assert_eq!(v["line"], 2);
        assert_eq!(v["column"], 5);
    }

    #[test]
    fn several_problems_are_related_errors() {
        let e = Error::Several {
            message: "2 problems".into(),
            problems: vec![Error::other("one", None), Error::Usage("two".into())],
        };
        let v = error_json(&e);
        assert_eq!(v["related"][0]["message"], "one");
        assert_eq!(v["related"][1]["code"], "sandtable::usage");
        assert!(v.get("cause").is_none());
    }

    #[test]
    fn the_cause_of_a_stopped_simulation_is_given() {
        let e = Error::SimStopped {
            run: 3,
            variant: "playing the rules as written".into(),
            cause: Box::new(Error::other("endless", None)),
        };
        let v = error_json(&e);
        assert_eq!(
            v["message"],
            "the simulation stopped in run 3, playing the rules as written"
        );
        assert_eq!(v["cause"]["message"], "endless");
    }

    #[test]
    fn an_error_without_a_source_has_no_place() {
        let v = error_json(&Error::other("no luck", None));
        assert_eq!(v["message"], "no luck");
        assert_eq!(v["help"], Value::Null);
        assert_eq!(v["line"], Value::Null);
    }
}
