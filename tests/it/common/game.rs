//! Small two-sided Playmobil scenarios written for one test each, and played in the process
//! through the library ([`Game::play`] and its kin; [`Game::play_binary`] and
//! [`Game::sandtable`] start the binary): Rome on the south edge against the Vikings on the north, on a 48" x 36" table.

use std::path::Path;

use super::{Output, Workspace, in_process, json_lines, project, run_binary};

use serde_json::Value;

/// One side of a test scenario: its units as YAML flow mappings.
pub type Units<'a> = &'a [&'a str];

/// The scenario: Rome (`romans`) on the south edge, the Vikings (`vikings`) on the north;
/// `first` names the side that plays first (`None`: the preparation roll decides); `extra`
/// goes before `sides:` (terrain, say).
pub fn scenario(first: Option<&str>, romans: Units, vikings: Units, extra: &str) -> String {
    let mut yaml =
        String::from("name: Test\nruleset: playmobil\ntable: { width: 48, depth: 36 }\n");
    if let Some(f) = first {
        yaml.push_str(&format!("first: {f}\n"));
    }
    yaml.push_str(extra);
    yaml.push_str("sides:\n");
    for (id, name, edge, units) in [
        ("romans", "Rome", "south", romans),
        ("vikings", "The Vikings", "north", vikings),
    ] {
        yaml.push_str(&format!(
            "  - id: {id}\n    name: {name}\n    edge: {edge}\n    units:\n"
        ));
        for u in units {
            yaml.push_str(&format!("      - {u}\n"));
        }
    }
    yaml
}

/// A heavy infantryman of Rome facing north, with optional extra YAML fields.
pub fn legionary(id: &str, x: f64, y: f64, extra: &str) -> String {
    format!("{{ id: {id}, type: heavy_infantry, at: [{x}, {y}]{extra} }}")
}

/// A heavy infantryman of the Vikings facing south, with optional extra YAML fields.
pub fn viking(id: &str, x: f64, y: f64, extra: &str) -> String {
    format!("{{ id: {id}, type: heavy_infantry, at: [{x}, {y}], facing: 180{extra} }}")
}

/// A unit of Rome of the troop type `kind`, facing north unless `extra` says otherwise.
pub fn roman_unit(id: &str, kind: &str, x: f64, y: f64, extra: &str) -> String {
    format!("{{ id: {id}, type: {kind}, at: [{x}, {y}]{extra} }}")
}

/// A unit of the Vikings of the troop type `kind`, facing south, towards Rome.
pub fn viking_unit(id: &str, kind: &str, x: f64, y: f64, extra: &str) -> String {
    format!("{{ id: {id}, type: {kind}, at: [{x}, {y}], facing: 180{extra} }}")
}

/// Copies a folder and everything in it.
pub fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("a folder in the workspace");
    for entry in std::fs::read_dir(from).expect("a readable folder") {
        let entry = entry.expect("a folder entry");
        let target = to.join(entry.file_name());
        if entry.file_type().expect("a file type").is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).expect("a copied file");
        }
    }
}

/// A scenario written into a temporary folder as `game.yaml`, played in the process or by the
/// binary: either in this crate's project, or in a project of its own (a copy of this crate's
/// `scripts/` plus the test's ability scripts).
pub struct Game {
    ws: Workspace,
    own_project: bool,
}

impl Game {
    /// A game the Vikings play first.
    pub fn new(romans: Units, vikings: Units) -> Game {
        Game::with(Some("vikings"), romans, vikings, "")
    }

    /// A game `first` plays first.
    pub fn first(first: &str, romans: Units, vikings: Units) -> Game {
        Game::with(Some(first), romans, vikings, "")
    }

    /// A game with everything said: who plays first and what goes before `sides:`.
    pub fn with(first: Option<&str>, romans: Units, vikings: Units, extra: &str) -> Game {
        let ws = Workspace::new();
        ws.write("game.yaml", &scenario(first, romans, vikings, extra));
        Game {
            ws,
            own_project: false,
        }
    }

    /// A game of a scenario written out whole (another ruleset's, say).
    pub fn from_yaml(yaml: &str) -> Game {
        let ws = Workspace::new();
        ws.write("game.yaml", yaml);
        Game {
            ws,
            own_project: false,
        }
    }

    /// A game in a project of its own: the real `scripts/` and, in the Playmobil package's
    /// `abilities/`, the given `(name, script)` abilities.
    pub fn with_abilities(
        first: &str,
        romans: Units,
        vikings: Units,
        abilities: &[(&str, &str)],
    ) -> Game {
        let ws = Workspace::new();
        copy_dir(&project().join("scripts"), &ws.path().join("scripts"));
        for (name, text) in abilities {
            ws.write(
                &format!("scripts/rulesets/playmobil/abilities/{name}.rhai"),
                text,
            );
        }
        ws.write("game.yaml", &scenario(Some(first), romans, vikings, ""));
        Game {
            ws,
            own_project: true,
        }
    }

    /// A game in a project of its own (a copy of the real `scripts/`), whose files a test may
    /// change with [`Game::edit`].
    pub fn own_project(first: &str, romans: Units, vikings: Units) -> Game {
        Game::with_abilities(first, romans, vikings, &[])
    }

    /// Replaces `from` with `to` in a file of the game's own project; panics unless `from` is
    /// there, so that a test never passes by editing nothing.
    pub fn edit(&self, file: &str, from: &str, to: &str) {
        assert!(
            self.own_project,
            "only a game in a project of its own can edit its files"
        );
        let path = self.ws.path().join(file);
        let text = std::fs::read_to_string(&path).expect("the file to edit");
        assert!(text.contains(from), "{file} does not contain {from:?}");
        std::fs::write(&path, text.replacen(from, to, 1)).expect("the edited file");
    }

    /// Writes a file beside the game (a house rule the scenario names, say), or in its own
    /// project's folders.
    pub fn write(&self, name: &str, text: &str) {
        self.ws.write(name, text);
    }

    /// The project the game plays in: its own folder, or this crate's.
    fn root(&self) -> std::path::PathBuf {
        if self.own_project {
            self.ws.path().to_path_buf()
        } else {
            project()
        }
    }

    /// Runs the binary with `args` in the game's folder and project.
    pub fn sandtable(&self, args: &[&str], stdin: Option<&str>) -> Output {
        let root = self.root();
        let mut all = vec!["--project", root.to_str().expect("a UTF-8 path")];
        all.extend_from_slice(args);
        let out = run_binary(self.ws.path(), &all, stdin);
        out.no_panic();
        out
    }

    /// Runs `sandtable ARGS` in the process, in the game's project, with its data folder in
    /// the game's folder; the game's own files (`game.yaml`, `turn.rhai`, `turn.txt`) made absolute.
    pub fn in_process(&self, args: &[&str], stdin: Option<&str>) -> Output {
        let root = self.root();
        let absolute: Vec<String> = args
            .iter()
            .map(|a| match *a {
                "game.yaml" | "turn.rhai" | "turn.txt" => self.file(a),
                other => other.to_string(),
            })
            .collect();
        let mut all = vec!["--project", root.to_str().expect("a UTF-8 path")];
        all.extend(absolute.iter().map(String::as_str));
        in_process(&self.ws.path().join(".data"), &all, stdin)
    }

    /// The absolute path of a file in the game's folder (for a line that names it: `:with`).
    pub fn file(&self, name: &str) -> String {
        self.ws.path().join(name).display().to_string()
    }

    /// Plays prompt lines at the piped prompt (which carries on after a refused action), in
    /// the process. A line naming a file (`:save`, `:open`, `:load`, `:with`) names it from
    /// the current folder, which is the game's own only for the binary: name it absolute
    /// ([`Game::file`]) or play with [`Game::play_binary`].
    #[track_caller]
    pub fn play(&self, seed: u64, lines: &str) -> Output {
        for line in lines.lines() {
            let mut words = line.split_whitespace();
            let word = words.next().unwrap_or_default();
            let relative = words
                .next()
                .is_some_and(|w| std::path::Path::new(w).is_relative());
            assert!(
                !([":save", ":open", ":load", ":with"].contains(&word) && relative),
                "`{line}` names a file from the current folder: name it with `Game::file` or play with `play_binary`"
            );
        }
        let seed = seed.to_string();
        self.in_process(&["play", "game.yaml", "--seed", &seed], Some(lines))
    }

    /// Plays prompt lines at the piped prompt of the binary, in the game's folder.
    pub fn play_binary(&self, seed: u64, lines: &str) -> Output {
        let seed = seed.to_string();
        self.sandtable(&["play", "game.yaml", "--seed", &seed], Some(lines))
    }

    /// Plays prompt lines that must all succeed (in the process).
    #[track_caller]
    pub fn play_ok(&self, seed: u64, lines: &str) -> Output {
        let out = self.play(seed, lines);
        out.expect_code(0);
        assert!(out.stderr.is_empty(), "{}", out.stderr);
        out
    }

    /// Plays prompt lines of which some are refused: exit status 1, every refusal in stderr.
    #[track_caller]
    pub fn play_refused(&self, seed: u64, lines: &str, refusals: &[&str]) -> Output {
        let out = self.play(seed, lines);
        out.expect_code(1).stderr_has(refusals);
        out
    }

    /// Runs a `.rhai` script in the game (in the process).
    pub fn script(&self, seed: u64, code: &str) -> Output {
        self.ws.write("turn.rhai", code);
        let seed = seed.to_string();
        self.in_process(
            &[
                "run",
                "turn.rhai",
                "--scenario",
                "game.yaml",
                "--seed",
                &seed,
            ],
            None,
        )
    }

    /// Runs prompt lines as a batch file with `sandtable run`, with or without `--explain`.
    pub fn run_lines(&self, seed: u64, lines: &str, explain: bool) -> Output {
        self.ws.write("turn.txt", lines);
        let seed = seed.to_string();
        let mut args = vec![
            "run",
            "turn.txt",
            "--scenario",
            "game.yaml",
            "--seed",
            &seed,
        ];
        if explain {
            args.push("--explain");
        }
        self.in_process(&args, None)
    }

    /// `sandtable check game.yaml`, by the binary: `check` names the files as typed
    /// (`FAIL game.yaml`), and in the process they would be passed absolute.
    pub fn check(&self) -> Output {
        self.sandtable(&["check", "game.yaml"], None)
    }

    /// The exact odds of a rules action at the start of the game: `odds --action LINE --json`
    /// on the game's scenario (every outcome of the dice played by the real scripts).
    #[track_caller]
    pub fn odds(&self, action: &str) -> Value {
        let out = self.in_process(
            &[
                "--json",
                "odds",
                "--action",
                action,
                "--scenario",
                "game.yaml",
                "--seed",
                "1",
            ],
            None,
        );
        out.expect_code(0);
        let v: Value = serde_json::from_str(out.stdout.trim())
            .unwrap_or_else(|e| panic!("not JSON ({e}):\n{}", out.stdout));
        assert_eq!(
            v["exact"], true,
            "the odds of `{action}` are not exact: {v}"
        );
        v
    }

    /// Plays prompt lines with `--json` and parses the events.
    #[track_caller]
    pub fn events(&self, seed: u64, lines: &str) -> Vec<serde_json::Value> {
        let seed = seed.to_string();
        let out = self.in_process(
            &["play", "game.yaml", "--seed", &seed, "--json"],
            Some(lines),
        );
        out.expect_code(0);
        json_lines(&out.stdout)
    }
}

/// What happened from the first typed line on (the set-up lines cut off).
///
/// The prompt's word that the battle is over (the result and what to do next, said once
/// after the line that ended it) is left out: these small test armies often end the battle
/// with a single blow, and the tests read what the line did.
/// `tests/it/sint_battle.rs::the_prompt_tells_the_players_once_when_the_battle_is_over` reads it.
#[track_caller]
pub fn transcript(out: &Output) -> String {
    let played = match out.stdout.find("\n> ") {
        Some(i) => &out.stdout[i + 1..],
        None => panic!("no line was played:\n{}", out.stdout),
    };
    played
        .split_inclusive('\n')
        .filter(|l| !is_the_end(l))
        .collect()
}

/// Whether a line is the prompt's word that the battle is over.
fn is_the_end(line: &str) -> bool {
    line.starts_with("victory to ")
        || line.starts_with("a draw on turn ")
        || line.starts_with("the battle is over: ")
}

/// The chance, as a reduced fraction, of the result `outcome` (its text exactly, e.g.
/// `"t1 removed"`) in the odds [`Game::odds`] gave.
#[track_caller]
pub fn chance(odds: &Value, outcome: &str) -> String {
    let outcomes = odds["outcomes"].as_array().expect("a list of outcomes");
    match outcomes.iter().find(|o| o["outcome"] == outcome) {
        Some(o) => o["fraction"].as_str().expect("a fraction").to_string(),
        None => panic!("no outcome `{outcome}` in the odds:\n{odds:#}"),
    }
}

/// The chance, as a reduced fraction, of the result `outcome` in the text `:odds` printed at
/// the prompt (a line `  161/216    74.54%  ███   warrior may step, viking removed`).
#[track_caller]
pub fn chance_at_prompt(printed: &str, outcome: &str) -> String {
    for line in printed.lines() {
        let mut words = line.split_whitespace();
        let (Some(fraction), Some(percent)) = (words.next(), words.next()) else {
            continue;
        };
        if !percent.ends_with('%') {
            continue;
        }
        // After the percentage: the bar (block characters), then the result.
        let rest = &line[line.find(percent).expect("the percentage") + percent.len()..];
        let result = rest.trim_start_matches(|c: char| {
            c.is_whitespace() || ('\u{2580}'..='\u{259f}').contains(&c)
        });
        if result.trim_end() == outcome {
            return fraction.to_string();
        }
    }
    panic!("no outcome `{outcome}` in the odds printed:\n{printed}")
}

/// What the typed line `line` printed (its first occurrence), up to the next typed line.
#[track_caller]
pub fn after(out: &Output, line: &str) -> String {
    let t = transcript(out);
    let start = format!("> {line}\n");
    let Some(i) = t.find(&start) else {
        panic!("`{line}` was not played:\n{t}");
    };
    t[i + start.len()..]
        .split_inclusive('\n')
        .take_while(|l| !l.starts_with("> "))
        .collect()
}

/// What the typed line `line` printed at its last occurrence, up to the next typed line.
#[track_caller]
pub fn after_last(out: &Output, line: &str) -> String {
    let t = transcript(out);
    let start = format!("> {line}\n");
    let Some(i) = t.rfind(&start) else {
        panic!("`{line}` was not played:\n{t}");
    };
    t[i + start.len()..]
        .split_inclusive('\n')
        .take_while(|l| !l.starts_with("> "))
        .collect()
}
