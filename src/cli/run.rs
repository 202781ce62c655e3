//! `sandtable run`: batch files. A `.rhai` file runs as one script in the session; any other
//! file (or standard input) is read as prompt lines. The first error stops the run with exit
//! status 1, and says where: a diagnostic on the failing line points at the file's line and
//! column (`game.txt:3:7`), any other error starts with the line (`game.txt:3: ...`).

use std::collections::HashMap;
use std::path::PathBuf;

use super::{Common, flush_events, start_session};
use crate::analysis::command::run_line;
use crate::error::{AtLine, Error};
use crate::session::command::Reply;

pub use crate::limits::MAX_BATCH_BYTES;

/// Why a batch of prompt lines is refused for its size.
fn batch_too_big(name: &str) -> (String, Option<String>) {
    (
        format!(
            "`{name}` is larger than a batch file may be: at most {MAX_BATCH_BYTES} bytes (64 MiB)"
        ),
        Some("split it into several batch files".into()),
    )
}

/// Runs a batch file.
pub fn run(
    common: &Common,
    file: Option<PathBuf>,
    scenario: Option<PathBuf>,
    explain: bool,
) -> Result<u8, Error> {
    let (name, text) = match &file {
        // Only a regular file is read, and at most its limit: a FIFO would block for ever,
        // and `/dev/zero` never ends (a pipe is given on standard input, `-`).
        Some(p) if p.as_os_str() != "-" => {
            let shown = p.display().to_string();
            let text = if shown.ends_with(".rhai") {
                let max = crate::limits::MAX_SCRIPT_BYTES;
                crate::error::read_bounded(p, max, || {
                    let bytes = std::fs::metadata(p).map_or(max as u64 + 1, |m| m.len());
                    (
                        crate::error::script_too_big(&shown, bytes.max(max as u64 + 1))
                            .unwrap_or_default(),
                        Some(crate::error::SCRIPT_TOO_BIG_HELP.into()),
                    )
                })?
            } else {
                crate::error::read_bounded(p, MAX_BATCH_BYTES, || batch_too_big(&shown))?
            };
            (shown, text)
        }
        _ => {
            let bytes = super::capture::read_to_end(MAX_BATCH_BYTES as u64 + 1)
                .map_err(|e| Error::other(format!("cannot read standard input: {e}"), None))?;
            if bytes.len() > MAX_BATCH_BYTES {
                let (message, help) = batch_too_big("standard input");
                return Err(Error::other(message, help));
            }
            let text = String::from_utf8(bytes)
                .map_err(|e| Error::other(format!("cannot read standard input: {e}"), None))?;
            ("<stdin>".to_string(), text)
        }
    };
    let (_project, mut session) = start_session(common, scenario)?;
    flush_events(&mut session, common.json);
    if name.ends_with(".rhai") {
        let result = session.eval(&name, &text);
        flush_events(&mut session, common.json);
        show_trace(&session, explain, common.json);
        let value = result?;
        if !value.is_unit() && !common.json {
            outln!("=> {}", session.show(&value));
        }
        return Ok(0);
    }
    let file = if name == "<stdin>" { "stdin" } else { &name };
    // The file as its lines are read (whatever their line endings), for diagnostics.
    let whole = text.lines().collect::<Vec<_>>().join("\n");
    // Where each entry run so far starts in `whole`, by the name its scripts are known by.
    let mut entries: HashMap<String, usize> = HashMap::new();
    let mut entry = crate::session::line::Entry::default();
    let mut start_line = 0;
    let mut start_byte = 0;
    let mut byte = 0;
    for (i, line) in text.lines().enumerate() {
        if entry.is_empty() {
            start_line = i + 1;
            start_byte = byte;
        }
        byte += line.len() + 1;
        if session.entry_needs_more(&mut entry, line) {
            continue;
        }
        let line = entry.take();
        let line = line.trim_end();
        if !common.json && !line.trim().is_empty() {
            outln!("> {line}");
        }
        let origin = format!("{file} line {start_line}");
        entries.insert(origin.clone(), start_byte);
        let result = run_line(&mut session, &origin, line);
        flush_events(&mut session, common.json);
        show_trace(&session, explain, common.json);
        // A diagnostic on an entry of the file (this one, or one that defined a function)
        // points into the file; an error that points elsewhere or nowhere names this line.
        let located = |e: Error| {
            let here = e.source_name() == Some(origin.as_str());
            let e = match e.source_name().and_then(|n| entries.get(n)) {
                Some(&offset) => e.moved_into(file, &whole, offset),
                None => e,
            };
            if here {
                e
            } else {
                Error::At(Box::new(AtLine {
                    file: file.to_string(),
                    line: start_line,
                    cause: e,
                }))
            }
        };
        match result.map_err(located)? {
            Reply::Quit => break,
            Reply::Open(path) => {
                session = super::open_save(&mut session, &path).map_err(located)?;
            }
            Reply::Dice(_) => {
                return Err(located(Error::other(
                    "`:dice` needs players at the prompt: a batch file rolls its dice",
                    Some("use `sandtable play` for real dice".into()),
                )));
            }
            Reply::Cards(_) => {
                return Err(located(Error::other(
                    "`:cards` needs players at the prompt: a batch file draws its cards",
                    Some("use `sandtable play` for real cards".into()),
                )));
            }
            // `Odds` never: `analysis::command::run_line` answers the odds a line asks for.
            Reply::Done | Reply::Odds { .. } => {}
            Reply::Map => {
                if !common.json {
                    let colour = super::colour(super::capture::is_terminal(std::io::stdout()));
                    // Coloured: its names were made printable before they were painted.
                    super::write_out_styled(&format!(
                        "{}\n",
                        super::map::draw(&session.state(), super::map::COLUMNS, colour)
                    ));
                }
            }
            Reply::Text(t) | Reply::Unwritten { text: t, .. } => {
                if !common.json {
                    outln!("{t}");
                }
            }
        }
    }
    if !entry.text().trim().is_empty() {
        return Err(Error::other(
            format!("{file}:{start_line}: the file ends inside an unfinished entry"),
            Some("close the bracket opened on that line".into()),
        ));
    }
    Ok(0)
}

/// With `--explain`, the trace of the action just run, each line marked.
fn show_trace(session: &crate::session::Session, explain: bool, json: bool) {
    if !explain {
        return;
    }
    for line in session.explain() {
        if json {
            outln!(
                "{}",
                serde_json::json!({ "event": "explain", "text": line })
            );
        } else {
            outln!("  [explain] {line}");
        }
    }
}

/// `run FILE --watch`: runs the file, then again with the same seed each time it or one of
/// the project's scripts or scenarios changes, so a house-ruler sees each edit's effect.
pub fn watch(
    common: &Common,
    file: Option<PathBuf>,
    scenario: Option<PathBuf>,
    explain: bool,
) -> Result<u8, Error> {
    let Some(file) = file.filter(|f| f.as_os_str() != "-") else {
        return Err(Error::Usage(
            "`--watch` needs a file to run, not standard input".into(),
        ));
    };
    let project = crate::game::project::Project::locate(common.project.as_deref())?;
    // One seed for every run, so that only the edits change the outcome.
    let mut common = common.clone();
    common.seed = Some(super::choose_seed(&common, None));
    let mut roots = vec![
        project.scripts_dir(),
        project.root().join("scenarios"),
        file.clone(),
    ];
    if let Some(s) = &scenario {
        roots.push(s.clone());
    }
    let mut watcher = super::watch::Watcher::new(roots);
    let mut watched = vec![file.display().to_string()];
    watched.extend(scenario.iter().map(|s| s.display().to_string()));
    loop {
        if let Err(e) = run(&common, Some(file.clone()), scenario.clone(), explain) {
            super::report_error(&e, common.json);
        }
        if common.json {
            outln!(
                "{}",
                serde_json::json!({ "event": "watching", "files": watched, "project": project.root().display().to_string() })
            );
        } else {
            outln!(
                "--- watching {} and the project's scripts and scenarios for changes (Ctrl-C ends)",
                watched.join(", ")
            );
        }
        let changed = watcher.wait();
        let names: Vec<String> = changed.iter().map(|p| p.display().to_string()).collect();
        if common.json {
            outln!(
                "{}",
                serde_json::json!({ "event": "rerun", "changed": names, "file": file.display().to_string() })
            );
        } else {
            outln!(
                "--- {} changed: running {} again",
                names.join(", "),
                file.display()
            );
        }
    }
}
