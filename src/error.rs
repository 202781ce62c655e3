//! Errors and diagnostics.
//!
//! Each source of input has its own miette diagnostic type, built from the source text and a
//! span: [`DiceDiagnostic`] (dice expressions), [`YamlDiagnostic`] (scenarios and ruleset
//! data), [`ScriptDiagnostic`] (Rhai scripts) and [`LineDiagnostic`] (a line typed at the
//! prompt). [`Error`](enum@Error) gathers them with the other failures and says which exit
//! status each one gives: 1 when the game or a script reports an error, 2 for bad usage.

use std::ops::Range;
use std::path::PathBuf;

use miette::{
    Diagnostic, LabeledSpan, MietteError, MietteSpanContents, NamedSource, SourceCode, SourceSpan,
    SpanContents,
};
use thiserror::Error;

/// Turns a character range of `text` into the byte range miette needs.
pub fn char_range_to_bytes(text: &str, start: usize, len: usize) -> Range<usize> {
    let byte_at = |chars: usize| {
        text.char_indices()
            .nth(chars)
            .map_or(text.len(), |(b, _)| b)
    };
    let start_byte = byte_at(start);
    let end_byte = byte_at(start + len.max(1)).max(start_byte);
    start_byte..end_byte
}

/// The byte offset of a 1-based line and character column in `text`.
pub fn line_col_to_byte(text: &str, line: usize, col: usize) -> usize {
    let mut offset = 0;
    for (i, l) in text.split_inclusive('\n').enumerate() {
        if i + 1 == line {
            let in_line = l
                .char_indices()
                .nth(col.saturating_sub(1))
                .map_or(l.trim_end_matches('\n').len(), |(b, _)| b);
            return offset + in_line;
        }
        offset += l.len();
    }
    text.len()
}

/// A place in a named text, in words: `rules.rhai, line 4, column 13`.
pub fn place(source: &str, line: usize, column: usize) -> String {
    format!("{source}, line {line}, column {column}")
}

pub use crate::limits::MAX_SHOWN_LINE;
/// Characters shown before a label in a line too long to show whole.
pub const WINDOW_BEFORE: usize = 60;
/// Characters shown from a label on, in a line too long to show whole.
pub const WINDOW_AFTER: usize = 200;

/// The text a diagnostic points into, as miette reads it: the whole text, except that a
/// labelled line longer than [`MAX_SHOWN_LINE`] is read as a window around the label, with
/// `…` where it is cut, under its real line and column.
#[derive(Debug)]
struct Shown {
    whole: NamedSource<String>,
    window: Option<Window>,
}

/// A window on a long line.
#[derive(Debug)]
struct Window {
    /// What is shown: part of the line, with `…` where it is cut.
    text: String,
    /// The byte of the whole text that `text` stands at (where its leading `…` would be).
    offset: usize,
    /// The bytes of the whole text the window shows.
    shows: Range<usize>,
    /// The line (from 0) and the label's column (from 0, in characters).
    line: usize,
    column: usize,
}

impl Shown {
    /// The text `text` named `name`, with a window on the line of the label at `label` if
    /// that line is too long; the label is then cut to the window.
    fn new(name: impl AsRef<str>, text: String, label: &mut Range<usize>) -> Shown {
        let start = label.start.min(text.len());
        let line_start = text[..start].rfind('\n').map_or(0, |i| i + 1);
        let line_end = text[start..].find('\n').map_or(text.len(), |i| start + i);
        let line = &text[line_start..line_end];
        let window = (line.chars().count() > MAX_SHOWN_LINE).then(|| {
            let column = text[line_start..start].chars().count();
            let byte_at = |chars: usize| {
                line_start
                    + line
                        .char_indices()
                        .nth(chars)
                        .map_or(line.len(), |(b, _)| b)
            };
            let from = byte_at(column.saturating_sub(WINDOW_BEFORE));
            let to = byte_at(column + WINDOW_AFTER);
            let lead = if from > line_start && from >= "…".len() {
                "…"
            } else {
                ""
            };
            let tail = if to < line_end { "…" } else { "" };
            *label = start..label.end.clamp(start, to);
            Window {
                text: format!("{lead}{}{tail}", &text[from..to]),
                offset: from - lead.len(),
                shows: from..to,
                line: text[..line_start].matches('\n').count(),
                column,
            }
        });
        Shown {
            whole: NamedSource::new(name, text),
            window,
        }
    }

    fn name(&self) -> &str {
        self.whole.name()
    }

    fn inner(&self) -> &String {
        self.whole.inner()
    }
}

impl SourceCode for Shown {
    fn read_span<'a>(
        &'a self,
        span: &SourceSpan,
        before: usize,
        after: usize,
    ) -> Result<Box<dyn SpanContents<'a> + 'a>, MietteError> {
        match &self.window {
            Some(w) if (w.shows.start..=w.shows.end).contains(&span.offset()) => {
                Ok(Box::new(MietteSpanContents::new_named(
                    self.name().to_string(),
                    w.text.as_bytes(),
                    SourceSpan::from(w.offset..w.offset + w.text.len()),
                    w.line,
                    w.column,
                    1,
                )))
            }
            _ => self.whole.read_span(span, before, after),
        }
    }
}

macro_rules! source_diagnostic {
    ($(#[$doc:meta])* $name:ident, $code:literal) => {
        $(#[$doc])*
        #[derive(Debug, Error, Diagnostic)]
        #[error("{message}")]
        #[diagnostic(code($code))]
        pub struct $name {
            /// What went wrong.
            pub message: String,
            #[source_code]
            src: Shown,
            #[label(collection)]
            labels: Vec<LabeledSpan>,
            /// How to fix it, where known.
            #[help]
            pub help: Option<String>,
        }

        impl $name {
            /// A diagnostic on `text` (named `name`), labelled at a byte range.
            pub fn new(
                name: impl AsRef<str>,
                text: impl Into<String>,
                bytes: Range<usize>,
                message: impl Into<String>,
                label: impl Into<String>,
                help: Option<String>,
            ) -> Self {
                let mut text: String = text.into();
                let start = bytes.start.min(text.len());
                if start == text.len() {
                    // Past the end ("expected more"): miette shows no label on an empty span
                    // at the end, so give the label a blank to stand under.
                    text.push(' ');
                }
                let start = if text.is_char_boundary(start) { start } else { 0 };
                let mut end = bytes.end.clamp(start, text.len());
                if end == start || !text.is_char_boundary(end) {
                    // At least the whole character at `start`, never part of one.
                    end = start + text[start..].chars().next().map_or(0, char::len_utf8);
                }
                let mut bytes = start..end;
                let src = Shown::new(name, text, &mut bytes);
                let span = SourceSpan::from(bytes);
                $name {
                    message: message.into(),
                    src,
                    labels: vec![LabeledSpan::new_primary_with_span(Some(label.into()), span)],
                    help,
                }
            }

            /// The name of the text it points into.
            pub fn source_name(&self) -> &str {
                self.src.name()
            }

            /// The same diagnostic pointing into a larger text, `whole` named `name`, in
            /// which its own text starts at byte `offset` (a line of a batch file, moved into
            /// the file, so that it shows the file's line numbers); `None` if its text is not
            /// there.
            pub fn moved_into(&self, name: &str, whole: &str, offset: usize) -> Option<Self> {
                // `new` may have added a blank after the text for a label past its end.
                let own = self.src.inner().trim_end_matches(' ');
                if !whole.get(offset..).is_some_and(|rest| rest.starts_with(own)) {
                    return None;
                }
                let mut whole = whole.to_string();
                let mut labels: Vec<LabeledSpan> = self
                    .labels
                    .iter()
                    .map(|l| {
                        let start = offset + l.offset();
                        if start >= whole.len() {
                            whole.push(' ');
                        }
                        let span = SourceSpan::from(start..start + l.len());
                        if l.primary() {
                            LabeledSpan::new_primary_with_span(l.label().map(str::to_string), span)
                        } else {
                            LabeledSpan::new_with_span(l.label().map(str::to_string), span)
                        }
                    })
                    .collect();
                let mut primary = labels.first().map_or(0..0, |l| l.offset()..l.offset() + l.len());
                let src = Shown::new(name, whole, &mut primary);
                if let Some(first) = labels.first_mut() {
                    *first = LabeledSpan::new_primary_with_span(
                        first.label().map(str::to_string),
                        SourceSpan::from(primary),
                    );
                }
                Some($name {
                    message: self.message.clone(),
                    src,
                    labels,
                    help: self.help.clone(),
                })
            }

            /// Where it points, in words: `rules.rhai, line 4, column 13`.
            pub fn place(&self) -> String {
                let text = self.src.inner();
                let at = self.labels.first().map_or(0, |l| l.offset()).min(text.len());
                let before = &text[..at];
                let line = before.matches('\n').count() + 1;
                let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
                place(self.src.name(), line, column)
            }
        }
    };
}

source_diagnostic!(
    /// A bad dice expression.
    DiceDiagnostic,
    "sandtable::dice"
);
source_diagnostic!(
    /// A problem in a scenario or ruleset data file.
    YamlDiagnostic,
    "sandtable::scenario"
);
source_diagnostic!(
    /// A script that does not compile or fails while running.
    ScriptDiagnostic,
    "sandtable::script"
);
source_diagnostic!(
    /// A line typed at the prompt (or in a batch file) that cannot be carried out.
    LineDiagnostic,
    "sandtable::command"
);

/// Everything that can go wrong, with the exit status it gives.
#[derive(Debug, Error, Diagnostic)]
pub enum Error {
    /// A bad dice expression.
    #[error(transparent)]
    #[diagnostic(transparent)]
    Dice(Box<DiceDiagnostic>),
    /// A bad scenario or ruleset data file.
    #[error(transparent)]
    #[diagnostic(transparent)]
    Yaml(Box<YamlDiagnostic>),
    /// A script failed to compile or run.
    #[error(transparent)]
    #[diagnostic(transparent)]
    Script(Box<ScriptDiagnostic>),
    /// A line at the prompt could not be carried out.
    #[error(transparent)]
    #[diagnostic(transparent)]
    Line(Box<LineDiagnostic>),
    /// The rules refused an action (`throw` in a ruleset script), e.g. a target out of reach.
    #[error("{message}")]
    #[diagnostic(code(sandtable::rules))]
    Rules {
        /// The rules' explanation.
        message: String,
    },
    /// A file could not be read or written.
    #[error("cannot {action} `{}`: {}", path.display(), io_reason(reason))]
    #[diagnostic(code(sandtable::io))]
    Io {
        /// `read` or `write`.
        action: &'static str,
        /// The file.
        path: PathBuf,
        /// Why (said in the message, so not a source for the diagnostic to repeat).
        reason: std::io::Error,
    },
    /// Something else that is wrong with the game's files or state.
    #[error("{message}")]
    #[diagnostic(code(sandtable::error))]
    Other {
        /// What is wrong.
        message: String,
        /// How to fix it.
        #[help]
        help: Option<String>,
    },
    /// A script stopped for running away: out of its time budget or its operations (the
    /// diagnostic says which).
    #[error(transparent)]
    #[diagnostic(transparent)]
    Runaway(Box<Error>),
    /// A file a shared file (a journal) named, refused unread: it lies outside the folder it
    /// must stay in. A resumed session says so, though it is silent on the replayed lines
    /// that failed when they were played.
    #[error(transparent)]
    #[diagnostic(transparent)]
    NotRead(Box<Error>),
    /// A simulated battle in which a script ran away, which stops the whole simulation.
    #[error("the simulation stopped in run {run}, {variant}")]
    #[diagnostic(code(sandtable::sim))]
    SimStopped {
        /// The run.
        run: u64,
        /// Which battles: `playing the rules as written`, `playing with house_rule.rhai`.
        variant: String,
        /// What the script did.
        #[source]
        #[diagnostic_source]
        cause: Box<dyn Diagnostic + Send + Sync>,
    },
    /// An error on a line of a batch file that does not point into the line itself.
    #[error(transparent)]
    #[diagnostic(transparent)]
    At(Box<AtLine>),
    /// Several problems found in one go (a scenario with more than one mistake).
    #[error("{message}")]
    #[diagnostic(code(sandtable::problems))]
    Several {
        /// How many, and where.
        message: String,
        /// Each problem.
        #[related]
        problems: Vec<Error>,
    },
    /// The command line itself is wrong.
    #[error("{0}")]
    #[diagnostic(code(sandtable::usage))]
    Usage(String),
    /// An error as a journal recorded it when its line was played (a `:save` that failed),
    /// told again the same way by a replay.
    #[error(transparent)]
    #[diagnostic(transparent)]
    Recorded(Box<Recorded>),
}

/// An error as it was told (its code, message, help and file), kept in a journal so that a
/// replay tells the same failure where the session met it, whatever the files hold by then.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Recorded {
    /// The diagnostic's code (`sandtable::io`).
    pub code: Option<String>,
    /// What was wrong.
    pub message: String,
    /// How to fix it.
    pub help: Option<String>,
    /// The file it was about, if any (shown in the JSON form).
    pub file: Option<String>,
}

impl Recorded {
    /// An error as it is told.
    pub fn of(e: &Error) -> Recorded {
        Recorded {
            code: e.code().map(|c| c.to_string()),
            message: e.to_string(),
            help: e.help().map(|h| h.to_string()),
            file: match e {
                Error::Io { path, .. } => Some(path.display().to_string()),
                Error::Recorded(r) => r.file.clone(),
                _ => None,
            },
        }
    }
}

impl std::fmt::Display for Recorded {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Recorded {}

impl Diagnostic for Recorded {
    fn code<'a>(&'a self) -> Option<Box<dyn std::fmt::Display + 'a>> {
        self.code
            .as_ref()
            .map(|c| Box::new(c) as Box<dyn std::fmt::Display>)
    }

    fn help<'a>(&'a self) -> Option<Box<dyn std::fmt::Display + 'a>> {
        self.help
            .as_ref()
            .map(|h| Box::new(h) as Box<dyn std::fmt::Display>)
    }
}

impl Error {
    /// The error on one line, with where it happened when a script says (for a report that
    /// has room for one line, as `sim`'s first error).
    pub fn one_line(&self) -> String {
        match self {
            Error::Script(d) => format!("{} ({})", d.message, d.place()),
            Error::Runaway(inner) | Error::NotRead(inner) => inner.one_line(),
            Error::At(at) => format!("{}: {}", at.place(), at.cause.one_line()),
            other => other.to_string(),
        }
    }

    /// Whether a script was stopped for running away (out of time or operations): a script
    /// that does so once will likely do so every time it is called.
    pub fn is_runaway(&self) -> bool {
        match self {
            Error::Runaway(_) => true,
            Error::At(at) => at.cause.is_runaway(),
            _ => false,
        }
    }

    /// The process exit status for this error: 2 for bad usage, 1 otherwise.
    pub fn exit_code(&self) -> u8 {
        match self {
            Error::Usage(_) => 2,
            Error::At(at) => at.cause.exit_code(),
            _ => 1,
        }
    }

    /// The name of the text the error points into, if it points into one.
    pub fn source_name(&self) -> Option<&str> {
        match self {
            Error::Dice(d) => Some(d.source_name()),
            Error::Yaml(d) => Some(d.source_name()),
            Error::Script(d) => Some(d.source_name()),
            Error::Line(d) => Some(d.source_name()),
            Error::Runaway(inner) | Error::NotRead(inner) => inner.source_name(),
            _ => None,
        }
    }

    /// The same error pointing into a larger text, `whole` named `name`, in which the text it
    /// points into starts at byte `offset` (a batch file moves the diagnostics of its lines
    /// into the file); unchanged if it points nowhere or its text is not there.
    pub fn moved_into(self, name: &str, whole: &str, offset: usize) -> Error {
        macro_rules! moved {
            ($variant:ident, $d:expr) => {
                Error::$variant(match $d.moved_into(name, whole, offset) {
                    Some(m) => Box::new(m),
                    None => $d,
                })
            };
        }
        match self {
            Error::Dice(d) => moved!(Dice, d),
            Error::Yaml(d) => moved!(Yaml, d),
            Error::Script(d) => moved!(Script, d),
            Error::Line(d) => moved!(Line, d),
            Error::Runaway(inner) => {
                Error::Runaway(Box::new(inner.moved_into(name, whole, offset)))
            }
            Error::NotRead(inner) => {
                Error::NotRead(Box::new(inner.moved_into(name, whole, offset)))
            }
            other => other,
        }
    }

    /// A plain error with an optional hint.
    pub fn other(message: impl Into<String>, help: Option<String>) -> Self {
        Error::Other {
            message: message.into(),
            help,
        }
    }
}

/// An error on a line of a batch file that does not point into the line (the rules refused
/// the action, or a script it called failed): its message starts with the place,
/// `game.txt:3: `, and the rest of the diagnostic is the cause's.
#[derive(Debug, Error)]
#[error("{}: {cause}", self.place())]
pub struct AtLine {
    /// The batch file, as named on the command line (`stdin` for standard input).
    pub file: String,
    /// The line the failing entry starts on, from 1.
    pub line: usize,
    /// What went wrong.
    pub cause: Error,
}

impl AtLine {
    /// `game.txt:3`.
    pub fn place(&self) -> String {
        format!("{}:{}", self.file, self.line)
    }
}

impl Diagnostic for AtLine {
    fn code<'a>(&'a self) -> Option<Box<dyn std::fmt::Display + 'a>> {
        self.cause.code()
    }
    fn severity(&self) -> Option<miette::Severity> {
        self.cause.severity()
    }
    fn help<'a>(&'a self) -> Option<Box<dyn std::fmt::Display + 'a>> {
        self.cause.help()
    }
    fn url<'a>(&'a self) -> Option<Box<dyn std::fmt::Display + 'a>> {
        self.cause.url()
    }
    fn source_code(&self) -> Option<&dyn miette::SourceCode> {
        self.cause.source_code()
    }
    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        self.cause.labels()
    }
    fn related<'a>(&'a self) -> Option<Box<dyn Iterator<Item = &'a dyn Diagnostic> + 'a>> {
        self.cause.related()
    }
    fn diagnostic_source(&self) -> Option<&dyn Diagnostic> {
        self.cause.diagnostic_source()
    }
}

impl From<DiceDiagnostic> for Error {
    fn from(d: DiceDiagnostic) -> Self {
        Error::Dice(Box::new(d))
    }
}

impl From<YamlDiagnostic> for Error {
    fn from(d: YamlDiagnostic) -> Self {
        Error::Yaml(Box::new(d))
    }
}

impl From<ScriptDiagnostic> for Error {
    fn from(d: ScriptDiagnostic) -> Self {
        Error::Script(Box::new(d))
    }
}

impl From<LineDiagnostic> for Error {
    fn from(d: LineDiagnostic) -> Self {
        Error::Line(Box::new(d))
    }
}

/// Why a file could not be read or written, in words: the system's own sentence, lowercase,
/// without its `(os error N)`.
pub fn io_reason(reason: &std::io::Error) -> String {
    let text = reason.to_string();
    let text = match text.find(" (os error ") {
        Some(i) => text[..i].to_string(),
        None => text,
    };
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_lowercase().chain(chars).collect(),
        None => text,
    }
}

/// Reads a file, naming it in the error. Only a regular file (or a symlink to one) is read:
/// a FIFO or a device would block or never end, and a folder is no file.
pub fn read_file(path: &std::path::Path) -> Result<String, Error> {
    let io = |reason| Error::Io {
        action: "read",
        path: path.to_path_buf(),
        reason,
    };
    let meta = std::fs::metadata(path).map_err(io)?;
    if !meta.is_file() {
        return Err(Error::other(
            format!(
                "cannot read `{}`: it is {}, not a file",
                path.display(),
                kind_of(&meta.file_type())
            ),
            None,
        ));
    }
    std::fs::read_to_string(path).map_err(io)
}

/// Reads a file as [`read_file`] does, refusing one larger than `max` bytes before it is
/// read: by the size its metadata gives, then by reading at most `max + 1` bytes (a file that
/// grows while it is read). `what` is the kind of file (`a save`) and `limit` the constant's
/// name in `limits.rs`, both named in the message.
pub fn read_file_within(
    path: &std::path::Path,
    what: &str,
    max: usize,
    limit: &str,
) -> Result<String, Error> {
    read_capped(path, max, None, |bytes| {
        Error::other(
            format!(
                "`{}` is {} bytes long, and {what} may have at most {max} bytes ({} MiB, `{limit}`)",
                path.display(),
                match bytes {
                    Some(bytes) if bytes > max as u64 => bytes.to_string(),
                    _ => format!("more than {max}"),
                },
                max >> 20
            ),
            None,
        )
    })
}

/// Reads a file the player named (a batch file), refusing a FIFO, a device or a folder, and
/// reading at most `max` bytes: `too_big` words the refusal of a longer one.
pub fn read_bounded(
    path: &std::path::Path,
    max: usize,
    too_big: impl Fn() -> (String, Option<String>),
) -> Result<String, Error> {
    read_capped(
        path,
        max,
        Some("name a regular file, or give the lines on standard input: `... | sandtable run -`"),
        |_| {
            let (message, help) = too_big();
            Error::other(message, help)
        },
    )
}

/// The reading of [`read_file_within`] and [`read_bounded`]. The kind is asked before the
/// file is opened, and again of the file opened (without waiting, so a FIFO put in its place
/// meanwhile cannot block), and no more than `max + 1` bytes are read whatever the file says
/// its length is (`/dev/zero` says 0). `too_big` is given the length the file claims, when
/// that is what is over.
fn read_capped(
    path: &std::path::Path,
    max: usize,
    not_a_file_help: Option<&str>,
    too_big: impl Fn(Option<u64>) -> Error,
) -> Result<String, Error> {
    use std::io::Read;
    let io = |reason| Error::Io {
        action: "read",
        path: path.to_path_buf(),
        reason,
    };
    let refuse = |meta: &std::fs::Metadata| {
        Error::other(
            format!(
                "cannot read `{}`: it is {}, not a file",
                path.display(),
                kind_of(&meta.file_type())
            ),
            not_a_file_help.map(str::to_string),
        )
    };
    let meta = std::fs::metadata(path).map_err(io)?;
    if !meta.is_file() {
        return Err(refuse(&meta));
    }
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(any(
        target_os = "linux",
        target_os = "android",
        target_os = "macos",
        target_os = "freebsd"
    ))]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    let file = options.open(path).map_err(io)?;
    let meta = file.metadata().map_err(io)?;
    if !meta.is_file() {
        return Err(refuse(&meta));
    }
    if meta.len() > max as u64 {
        return Err(too_big(Some(meta.len())));
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    file.take(max as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(io)?;
    if bytes.len() > max {
        return Err(too_big(None));
    }
    String::from_utf8(bytes).map_err(|_| {
        io(std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            "stream did not contain valid UTF-8",
        ))
    })
}

/// What a file that is not a regular file is, in words: `a folder`, `a FIFO (a named pipe)`,
/// `a device`, `a socket`. Every message that refuses such a file (a house rule, an import,
/// a save's target or its scenario, any file read) names it so.
pub fn kind_of(kind: &std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_fifo() {
            return "a FIFO (a named pipe)";
        }
        if kind.is_char_device() || kind.is_block_device() {
            return "a device";
        }
        if kind.is_socket() {
            return "a socket";
        }
    }
    if kind.is_dir() {
        "a folder"
    } else if kind.is_symlink() {
        "a symbolic link (name the file itself)"
    } else if kind.is_file() {
        "a file"
    } else {
        "not a regular file"
    }
}

/// Why a script is refused for its size, if it is: every script, whatever reads it (a house
/// rule, a ruleset's script, an ability, an import, a batch, a prompt entry), is held to
/// [`crate::limits::MAX_SCRIPT_BYTES`] here, so that compiling it stays within the time
/// budget.
pub fn script_too_big(name: &str, bytes: u64) -> Option<String> {
    let max = crate::limits::MAX_SCRIPT_BYTES;
    (bytes > max as u64).then(|| {
        format!("`{name}` is {bytes} bytes long, and a script may have at most {max} bytes (1 MiB)")
    })
}

/// The help that goes with [`script_too_big`].
pub const SCRIPT_TOO_BIG_HELP: &str =
    "split it into smaller scripts, or into modules that it imports";

/// Refuses a script's text for its size (see [`script_too_big`]).
pub fn check_script_size(name: &str, text: &str) -> Result<(), Error> {
    check_size(name, text.len() as u64)
}

/// Reads a script file: like [`read_file`], but a file larger than
/// [`crate::limits::MAX_SCRIPT_BYTES`] is refused before it is read.
pub fn read_script(path: &std::path::Path) -> Result<String, Error> {
    if let Ok(meta) = std::fs::metadata(path)
        && meta.is_file()
    {
        check_size(&path.display().to_string(), meta.len())?;
    }
    let text = read_file(path)?;
    check_script_size(&path.display().to_string(), &text)?;
    Ok(text)
}

fn check_size(name: &str, bytes: u64) -> Result<(), Error> {
    match script_too_big(name, bytes) {
        Some(message) => Err(Error::other(message, Some(SCRIPT_TOO_BIG_HELP.into()))),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests;
