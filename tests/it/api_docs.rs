//! The scripting API reference, docs/api.md, is what the code makes of the engine's
//! metadata and its template (`src/script/api/reference.md`), and shows what its examples
//! print. Every example followed by a `prints:` block is run here, as the reference says to
//! run it (`sandtable run example.rhai --seed 1`, in the default scenario, or in the scenario a
//! `yaml` block earlier in the same section gives, saved as `grid.yaml`), and must print
//! exactly that, after the game's opening lines.

use crate::common;

use common::{Workspace, diff, project, project_file};
use sandtable::game::project::Project;
use sandtable::game::scenario::Scenario;

/// The committed docs/api.md is the one the code makes; `UPDATE_GOLDEN=1 cargo test --test
/// api_docs` writes it anew.
#[test]
fn the_reference_is_made_from_the_registered_functions() {
    let project = Project::at(project()).unwrap();
    let scenario = Scenario::load(&project, &project.default_scenario()).unwrap();
    let made = sandtable::script::api::reference::reference(&scenario);
    let path = project_file("docs/api.md");
    if std::env::var_os("UPDATE_GOLDEN").is_some_and(|v| v == "1") {
        std::fs::write(&path, &made).unwrap();
        return;
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == made,
        "docs/api.md is not what the registered functions and src/script/api/reference.md \
         make (`-` committed, `+` made); regenerate it with `UPDATE_GOLDEN=1 cargo test \
         --test it api_docs::`:\n{}",
        diff(&committed, &made)
    );
}

/// One example: where it starts in the file, its code, what it prints, and its scenario.
struct Example {
    line: usize,
    code: String,
    prints: String,
    scenario: Option<String>,
}

/// The fenced block of `kind` starting at `lines[*at]`, if one does; moves past it.
fn block(lines: &[&str], at: &mut usize, kind: &str) -> Option<String> {
    if lines.get(*at)?.trim() != format!("```{kind}") {
        return None;
    }
    let mut text = String::new();
    *at += 1;
    while *at < lines.len() && lines[*at].trim() != "```" {
        text.push_str(lines[*at]);
        text.push('\n');
        *at += 1;
    }
    *at += 1;
    Some(text)
}

fn examples(markdown: &str) -> Vec<Example> {
    let lines: Vec<&str> = markdown.lines().collect();
    let mut found = Vec::new();
    let mut scenario = None;
    let mut at = 0;
    while at < lines.len() {
        if lines[at].starts_with("## ") {
            scenario = None;
        }
        if let Some(yaml) = block(&lines, &mut at, "yaml") {
            scenario = Some(yaml);
            continue;
        }
        let line = at + 1;
        let Some(code) = block(&lines, &mut at, "rhai") else {
            at += 1;
            continue;
        };
        let mut next = at;
        while next < lines.len() && lines[next].trim().is_empty() {
            next += 1;
        }
        if lines.get(next).map(|l| l.trim()) != Some("prints:") {
            continue;
        }
        next += 1;
        while next < lines.len() && lines[next].trim().is_empty() {
            next += 1;
        }
        if let Some(prints) = block(&lines, &mut next, "text") {
            found.push(Example {
                line,
                code,
                prints,
                scenario: scenario.clone(),
            });
            at = next;
        }
    }
    found
}

/// What a run printed after the game's opening lines (up to the first turn), with trailing
/// blanks trimmed.
fn shown(stdout: &str, stderr: &str) -> String {
    let out: Vec<&str> = stdout.lines().collect();
    let start = out
        .iter()
        .position(|l| l.starts_with("turn "))
        .map_or(0, |i| i + 1);
    let mut text = out[start..].join("\n");
    text.push('\n');
    text.push_str(stderr);
    text.lines()
        .map(str::trim_end)
        .collect::<Vec<_>>()
        .join("\n")
        .trim()
        .to_string()
}

#[test]
fn every_api_example_prints_what_the_reference_says() {
    let markdown = std::fs::read_to_string(project_file("docs/api.md")).unwrap();
    let examples = examples(&markdown);
    assert!(
        examples.len() >= 30,
        "found only {} examples with output in docs/api.md",
        examples.len()
    );
    let mut wrong = Vec::new();
    for ex in &examples {
        let ws = Workspace::new();
        ws.write("example.rhai", &ex.code);
        let mut args = vec!["run", "example.rhai", "--seed", "1"];
        if let Some(yaml) = &ex.scenario {
            ws.write("grid.yaml", yaml);
            args.extend(["--scenario", "grid.yaml"]);
        }
        let out = ws.sandtable(&args, None);
        out.no_panic();
        let got = shown(&out.stdout, &out.stderr);
        let want = ex.prints.trim_end().to_string();
        let want = want.trim_start();
        if got != want {
            wrong.push(format!("docs/api.md:{}:\n{}", ex.line, diff(want, &got)));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
