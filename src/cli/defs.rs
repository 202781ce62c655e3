//! `sandtable defs DIR [SCENARIO]`: Rhai definition files for editors, generated from the
//! code. The Rhai language server (and the VS Code Rhai extension on it) reads the `.d.rhai`
//! files of a folder and then knows every function a script may call, with its parameters and
//! doc: the host API and Rhai's standard library (written by Rhai from the engine's
//! metadata), the ruleset's verbs (`verbs.d.rhai`), and its hooks as the functions a house
//! rule or an ability defines (`hooks.d.rhai`). `docs/editors.md` says how to use them.

use std::io::Write;
use std::path::{Path, PathBuf};

use super::{Common, start_session};
use crate::error::Error;
use crate::script::definitions;
use crate::session::Session;

/// Writes the definition files of SCENARIO's game (the default scenario's when none is
/// given) into `dir`, making it if it is absent, and lists them.
pub fn defs(common: &Common, dir: &Path, scenario: Option<PathBuf>) -> Result<u8, Error> {
    let (_project, session) = start_session(common, scenario)?;
    let files = files(&session);
    std::fs::create_dir_all(dir).map_err(|reason| Error::Io {
        action: "make",
        path: dir.to_path_buf(),
        reason,
    })?;
    for (name, text) in &files {
        write(&dir.join(name), text)?;
    }
    if common.json {
        let names: Vec<&str> = files.iter().map(|(n, _)| n.as_str()).collect();
        outln!(
            "{}",
            serde_json::json!({ "folder": dir.display().to_string(), "files": names })
        );
    } else {
        for (name, _) in &files {
            outln!("{}", dir.join(name).display());
        }
    }
    Ok(0)
}

/// The files, by name: Rhai's (`__builtin__.d.rhai`, `__builtin-operators__.d.rhai`,
/// `__static__.d.rhai`), then `verbs.d.rhai` and `hooks.d.rhai`.
pub fn files(session: &Session) -> Vec<(String, String)> {
    let mut files: Vec<(String, String)> = session
        .engine_definitions()
        .into_iter()
        .map(|(name, text)| (name, definitions::editor_types(&text)))
        .collect();
    let verbs = session.verbs().values().map(|v| {
        let params: Vec<&str> = v.params.iter().map(String::as_str).collect();
        definitions::script_fn(&v.name, &params, &v.doc)
    });
    files.push(("verbs.d.rhai".into(), definitions::file(verbs)));
    // Each hook as the function that answers it, with its declared parameters, `info`
    // fields and answer.
    let hooks = session
        .scenario()
        .ruleset
        .file
        .hooks
        .iter()
        .map(|(name, decl)| {
            let params = decl.params();
            let params: Vec<&str> = params.iter().map(String::as_str).collect();
            let fields = decl
                .info_fields()
                .map(|f| match decl.info.get(f) {
                    Some(meaning) => format!("`info.{f}`: {meaning}"),
                    None => format!("`info.{f}`: the unit asked about"),
                })
                .collect::<Vec<_>>()
                .join("; ");
            let doc = format!(
                "{} (asked with `{}`{}).\n\n{fields}.",
                decl.means,
                decl.kind.asked_with(),
                match (decl.kind, decl.answer) {
                    (crate::game::declared::HookKind::Ask, Some(kind)) =>
                        format!("; it answers {}", kind.described()),
                    (crate::game::declared::HookKind::Allowed, _) =>
                        "; it answers true or false".to_string(),
                    _ => String::new(),
                }
            );
            definitions::hook(name, &params, &doc)
        });
    files.push(("hooks.d.rhai".into(), definitions::file(hooks)));
    files
}

/// Writes `text` to `path` whole or not at all (a temporary file in the same folder, flushed
/// and renamed over it), refusing a path that is there but not a plain file.
fn write(path: &Path, text: &str) -> Result<(), Error> {
    let io = |reason| Error::Io {
        action: "write",
        path: path.to_path_buf(),
        reason,
    };
    match std::fs::symlink_metadata(path) {
        Ok(meta) if meta.file_type().is_file() => {}
        Ok(meta) => {
            return Err(Error::other(
                format!(
                    "cannot write `{}`: it is {}, not a file",
                    path.display(),
                    crate::game::confine::kind_of(&meta.file_type())
                ),
                Some("give `defs` a folder of its own".into()),
            ));
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return Err(io(e)),
    }
    let folder = crate::game::project::folder_of(path);
    let mut tmp = tempfile::Builder::new()
        .prefix(".sandtable-defs-")
        .suffix(".partial")
        .tempfile_in(&folder)
        .map_err(|e| io(std::io::Error::from(e.kind())))?;
    tmp.write_all(text.as_bytes()).map_err(io)?;
    tmp.as_file().sync_all().map_err(io)?;
    tmp.persist(path).map_err(|e| io(e.error))?;
    Ok(())
}
