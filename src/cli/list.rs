//! `sandtable list`: the rulesets and scenarios at hand, one line each: a ruleset's name and
//! title, a scenario's name (what `play NAME` takes), ruleset and title, each with the first
//! sentence of its description. Every file is read as any other is (`read_file`, the YAML
//! limits); one that cannot be read is listed with the reason, and the rest still are.

use std::path::Path;

use serde::Deserialize;
use serde_json::json;

use super::Common;
use crate::error::{Error, read_file};
use crate::game::project::Project;

/// What `list` shows of a file: the fields it names, and no others.
#[derive(Deserialize)]
struct Heading {
    #[serde(default)]
    name: String,
    #[serde(default)]
    description: String,
    #[serde(default)]
    ruleset: String,
}

/// The longest first sentence of a description a line shows, in characters.
const SHOWN: usize = 70;

/// Prints the rulesets and scenarios of the project.
pub fn list(common: &Common) -> Result<u8, Error> {
    let project = Project::locate(common.project.as_deref())?;
    let rulesets: Vec<(String, Result<Heading, Error>)> = project
        .rulesets()
        .into_iter()
        .map(|name| {
            let yaml = std::path::Path::new("scripts/rulesets")
                .join(&name)
                .join("ruleset.yaml");
            let heading = project.file(&yaml).and_then(|path| heading(&path));
            (name, heading)
        })
        .collect();
    let scenarios: Vec<(String, String, Result<Heading, Error>)> = project
        .scenarios()
        .iter()
        .filter_map(|path| {
            let name = path.file_stem()?.to_str()?.to_owned();
            let file = path.strip_prefix(project.root()).unwrap_or(path);
            Some((name, file.display().to_string(), heading(path)))
        })
        .collect();
    if common.json {
        let rulesets: Vec<_> = rulesets
            .iter()
            .map(|(name, h)| match h {
                Ok(h) => json!({
                    "name": name, "title": h.name, "description": h.description.trim(),
                }),
                Err(e) => json!({ "name": name, "problem": e.one_line() }),
            })
            .collect();
        let scenarios: Vec<_> = scenarios
            .iter()
            .map(|(name, file, h)| match h {
                Ok(h) => json!({
                    "name": name, "file": file, "ruleset": h.ruleset,
                    "title": h.name, "description": h.description.trim(),
                }),
                Err(e) => json!({ "name": name, "file": file, "problem": e.one_line() }),
            })
            .collect();
        outln!(
            "{}",
            json!({
                "project": project.root().display().to_string(),
                "shipped": project.is_shipped(),
                "rulesets": rulesets,
                "scenarios": scenarios,
            })
        );
        return Ok(0);
    }
    let whose = if project.is_shipped() {
        format!(
            "shipped with sandtable {}, unpacked in",
            env!("CARGO_PKG_VERSION")
        )
    } else {
        "in the project".to_string()
    };
    outln!("rulesets ({whose} `{}`):", project.root().display());
    let width = rulesets.iter().map(|(n, _)| n.len()).max().unwrap_or(0);
    for (name, h) in &rulesets {
        outln!("  {name:<width$}  {}", about(h));
    }
    outln!("scenarios (`sandtable play NAME`, `battle NAME`, `sim NAME`):");
    let width = scenarios.iter().map(|(n, ..)| n.len()).max().unwrap_or(0);
    let rwidth = scenarios
        .iter()
        .filter_map(|(_, _, h)| Some(h.as_ref().ok()?.ruleset.len()))
        .max()
        .unwrap_or(0);
    for (name, _, h) in &scenarios {
        let ruleset = h.as_ref().map(|h| h.ruleset.as_str()).unwrap_or("?");
        outln!("  {name:<width$}  {ruleset:<rwidth$}  {}", about(h));
    }
    Ok(0)
}

/// The name and description of a ruleset or scenario file.
fn heading(path: &Path) -> Result<Heading, Error> {
    let text = read_file(path)?;
    crate::game::yaml::parse(&path.display().to_string(), &text)
}

/// A file's title and the first sentence of its description, on one line; or why it cannot
/// be read.
fn about(heading: &Result<Heading, Error>) -> String {
    match heading {
        Ok(h) => {
            let words = h
                .description
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ");
            let first = match words.find(". ") {
                Some(i) => &words[..=i],
                None => words.as_str(),
            };
            let first = if first.chars().count() > SHOWN {
                let cut: String = first.chars().take(SHOWN - 1).collect();
                format!("{}…", cut.trim_end())
            } else {
                first.to_string()
            };
            match (h.name.is_empty(), first.is_empty()) {
                (false, false) => format!("{}: {first}", h.name),
                (false, true) => h.name.clone(),
                (true, _) => first,
            }
        }
        Err(e) => format!("(cannot be read: {})", e.one_line()),
    }
}
