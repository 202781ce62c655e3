//! Hangs no limit stopped (issue 21, finding 3): a scenario listing one house rule thousands
//! of times, the loading of a game's scripts as a whole, a multi-line entry read again on
//! every added line, `run` of a FIFO or of `/dev/zero`, and `run --watch` of a file that
//! becomes a FIFO. Nothing here asserts a time but the common [`common::TIMEOUT`] of a run.

use crate::common;

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::Stdio;
use std::sync::mpsc;
use std::time::Duration;

use common::Workspace;
use sandtable::limits::{MAX_BATCH_BYTES, MAX_HOUSE_RULES};

/// A small scenario of the Playmobil ruleset, with `house_rules` listing `rules`.
fn scenario(rules: &[&str]) -> String {
    let mut yaml = String::from(
        "name: Listed\nruleset: playmobil\ntable: { width: 48, depth: 36 }\nsides:\n  - id: romans\n    name: Rome\n    edge: south\n    units:\n      - { id: legionary, type: heavy_infantry, at: [10, 10] }\n  - id: vikings\n    name: Vikings\n    edge: north\n    units:\n      - { id: viking, type: heavy_infantry, at: [30, 30] }\n",
    );
    if !rules.is_empty() {
        yaml.push_str("house_rules:\n");
        for rule in rules {
            yaml.push_str(&format!("  - {rule}\n"));
        }
    }
    yaml
}

/// `count` house rules `house/r0.rhai`, ... that do nothing, written into `ws`; their names.
fn rules(ws: &Workspace, count: usize) -> Vec<String> {
    (0..count)
        .map(|i| {
            let name = format!("house/r{i}.rhai");
            ws.write(&name, &format!("fn nothing_{i}() {{ {i} }}\n"));
            name
        })
        .collect()
}

fn mkfifo(path: &Path) {
    let status = std::process::Command::new("mkfifo")
        .arg(path)
        .status()
        .expect("mkfifo runs");
    assert!(status.success(), "mkfifo {}", path.display());
}

// ---- House rules listed --------------------------------------------------------------------

// Guards the house rules a scenario lists: an 82 KB scenario listing a one-second house rule
// 5,000 times loaded for over an hour. The list is refused at the rule past the limit.
#[test]
fn a_scenario_listing_more_house_rules_than_the_limit_is_refused_at_the_rule_past_it() {
    let ws = Workspace::new();
    let names = rules(&ws, MAX_HOUSE_RULES + 1);
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    ws.write("game.yaml", &scenario(&names));
    let out = ws.sandtable(&["play", "game.yaml"], Some(""));
    // The rule past the limit is on the line after `house_rules:` and 64 rules.
    let line = scenario(&[]).lines().count() + 2 + MAX_HOUSE_RULES;
    out.expect_code(1).stderr_has(&[
        "a scenario may list at most 64 house rules, and this list has 65",
        &format!("game.yaml:{line}:"),
    ]);
}

// Guards a house rule listed twice in a scenario: it was loaded, and applied, twice (5,000
// times, for over an hour). Refused at its line, saying where it was listed first.
#[test]
fn a_house_rule_listed_twice_in_a_scenario_is_refused_at_its_line() {
    let ws = Workspace::new();
    rules(&ws, 2);
    ws.write("other/r0.rhai", "fn other() { 0 }\n");
    ws.write(
        "game.yaml",
        &scenario(&["house/r0.rhai", "house/r1.rhai", "house/r0.rhai"]),
    );
    let first = scenario(&[]).lines().count() + 2;
    let out = ws.sandtable(&["play", "game.yaml"], Some(""));
    out.expect_code(1).stderr_has(&[
        "house rule `house/r0.rhai` is listed twice",
        &format!("it is listed at line {first} already"),
        &format!("game.yaml:{}:", first + 2),
    ]);
    // Two files of one name could not be told apart in `explain` or by `:without`.
    ws.write("game.yaml", &scenario(&["house/r0.rhai", "other/r0.rhai"]));
    let out = ws.sandtable(&["play", "game.yaml"], Some(""));
    out.expect_code(1).stderr_has(&[
        "house rule `other/r0.rhai` has the name `r0` of `house/r0.rhai`, listed before it",
    ]);
}

// Guards `--with`, which added house rules without limit.
#[test]
fn more_house_rules_with_with_than_the_limit_are_refused() {
    let ws = Workspace::new();
    ws.write("game.yaml", &scenario(&[]));
    let names = rules(&ws, MAX_HOUSE_RULES + 1);
    let mut args = vec!["play", "game.yaml"];
    for name in &names {
        args.extend(["--with", name.as_str()]);
    }
    let out = ws.sandtable(&args, Some(""));
    out.expect_code(1).stderr_has(&[
        "`house/r64.rhai` would be house rule 65, and at most 64 may be in force at once",
    ]);
}

// Guards `:with` at the prompt, which added house rules without limit: the 65th is refused,
// and the game plays on.
#[test]
fn a_house_rule_past_the_limit_with_with_at_the_prompt_is_refused_and_the_game_plays_on() {
    let ws = Workspace::new();
    let names = rules(&ws, MAX_HOUSE_RULES + 1);
    let listed: Vec<&str> = names[..MAX_HOUSE_RULES]
        .iter()
        .map(String::as_str)
        .collect();
    ws.write("game.yaml", &scenario(&listed));
    let out = ws.sandtable(
        &["play", "game.yaml"],
        Some(&format!(
            ":with {}\nprint(40 + 2)\n",
            names[MAX_HOUSE_RULES]
        )),
    );
    out.expect_code(1)
        .stderr_has(&["would be house rule 65, and at most 64 may be in force at once"])
        .stdout_has(&["42\n"]);
}

// Guards the loading of a game's scripts as a whole: each script had its own time budget,
// so a game loaded for as long as its house rules, each within its budget, added up to. With
// a load budget far below the budget of one call, a house rule that never ends is stopped
// by the load budget, not by its own.
#[test]
fn loading_the_scripts_is_held_to_one_budget() {
    let ws = Workspace::new();
    rules(&ws, 2);
    ws.write("house/endless.rhai", "let n = 0;\nloop { n += 1; }\n");
    ws.write(
        "game.yaml",
        &scenario(&["house/r0.rhai", "house/r1.rhai", "house/endless.rhai"]),
    );
    let project = sandtable::game::project::Project::at(env!("CARGO_MANIFEST_DIR"))
        .expect("the crate is a project");
    let scenario =
        sandtable::game::scenario::Scenario::load(&project, &ws.path().join("game.yaml"))
            .expect("the scenario");
    let limits = sandtable::script::engine::Limits {
        time_budget: Duration::from_secs(20),
        load_budget: Duration::from_millis(300),
        max_operations: 0,
        ..Default::default()
    };
    let err = match sandtable::session::Session::with_limits(&project, scenario, 1, limits) {
        Ok(_) => panic!("an endless house rule loaded"),
        Err(e) => format!("{e} {e:?}"),
    };
    assert!(
        err.contains("loading the game's scripts took more than their time budget"),
        "{err}"
    );
}

// ---- Entries of many lines -----------------------------------------------------------------

// Guards the prompt's reading of an entry of many lines: the whole entry was parsed again
// after every line (300,000 blank lines inside `[` took 34 s of processor time in a release
// build, a million 394 s). Each line is now read once.
#[test]
fn an_entry_of_many_blank_lines_is_read_once() {
    let ws = Workspace::new();
    let lines = format!(
        "let a = [\n{}1, 2];\nprint(`items: ${{a.len()}}`)\n",
        "\n".repeat(300_000)
    );
    ws.write("game.txt", &lines);
    ws.sandtable(&["run", "game.txt"], None)
        .expect_code(0)
        .stdout_has(&["items: 2\n"]);
}

// Guards the same for a `switch` of many arms typed at the prompt (60,000 took 33 s where the
// same file compiles in 0.05 s).
#[test]
fn a_switch_of_many_arms_typed_at_the_prompt_is_read_once() {
    let arms: String = (0..20_000).map(|i| format!("{i} => {i},\n")).collect();
    let ws = Workspace::new();
    let out = ws.sandtable(
        &["play"],
        Some(&format!(
            "let y = switch 19999 {{\n{arms}_ => -1\n}};\nprint(`arm ${{y}}`)\n"
        )),
    );
    out.expect_code(0).stdout_has(&["arm 19999\n"]);
}

// Guards that a syntax error inside an open bracket is still told, at its line, once the
// bracket closes.
#[test]
fn a_syntax_error_inside_an_entry_of_many_lines_is_told_at_its_line() {
    let ws = Workspace::new();
    ws.write(
        "game.txt",
        "fn f(x) {\n  let y = x +* 2;\n  y\n}\nprint(\"after\")\n",
    );
    let out = ws.sandtable(&["run", "game.txt"], None);
    out.expect_code(1).stderr_has(&["game.txt:2:"]);
}

// ---- Batch files that are not files --------------------------------------------------------

// Guards `run FIFO`, which blocked for ever where every other entry point refuses a FIFO.
#[cfg(unix)]
#[test]
fn run_of_a_fifo_is_refused_unread() {
    let ws = Workspace::new();
    mkfifo(&ws.path().join("game.txt"));
    ws.sandtable(&["run", "game.txt"], None)
        .expect_code(1)
        .stderr_has(&["cannot read `game.txt`: it is a FIFO (a named pipe), not a file"]);
}

// Guards `run /dev/zero`, which read 4.3 GB in 10 s.
#[cfg(unix)]
#[test]
fn run_of_a_device_is_refused_unread() {
    let ws = Workspace::new();
    ws.sandtable(&["run", "/dev/zero"], None)
        .expect_code(1)
        .stderr_has(&["cannot read `/dev/zero`: it is a device, not a file"]);
}

// Guards the size of a batch file: it was read whole, however large.
#[test]
fn a_batch_file_over_its_limit_is_refused_before_it_is_read() {
    let ws = Workspace::new();
    let path = ws.write("game.txt", "");
    // A sparse file: nothing written, but one byte past the limit long.
    std::fs::File::options()
        .write(true)
        .open(&path)
        .and_then(|f| f.set_len(MAX_BATCH_BYTES as u64 + 1))
        .expect("a long file");
    ws.sandtable(&["run", "game.txt"], None)
        .expect_code(1)
        .stderr_has(&["is larger than a batch file may be: at most 67108864 bytes (64 MiB)"]);
}

// Guards `run --watch` of a file replaced by a FIFO: reading it blocked, and the watching
// stopped. It is refused, the watching goes on, and the file's return runs again.
#[cfg(unix)]
#[test]
fn run_watch_says_a_fifo_is_refused_and_keeps_watching() {
    let ws = Workspace::new();
    let file = ws.write("game.txt", "roll 1d1000000\n");
    let mut child = common::binary_command(
        Path::new(env!("CARGO_MANIFEST_DIR")),
        &["run", "game.txt", "--watch", "--seed", "5"],
    )
    .current_dir(ws.path())
    .stdin(Stdio::null())
    .stdout(Stdio::piped())
    .stderr(Stdio::piped())
    .spawn()
    .expect("the binary starts");
    let (tx, rx) = mpsc::channel();
    for pipe in [
        Box::new(child.stdout.take().expect("stdout")) as Box<dyn std::io::Read + Send>,
        Box::new(child.stderr.take().expect("stderr")),
    ] {
        let tx = tx.clone();
        std::thread::spawn(move || {
            for line in BufReader::new(pipe).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
    }
    // Standard output and standard error are read on threads of their own, so lines of
    // the two may come in either order: each step waits for all of its lines.
    let mut next = |needles: &[&str]| {
        let mut missing: Vec<&str> = needles.to_vec();
        while !missing.is_empty() {
            match rx.recv_timeout(Duration::from_secs(30)) {
                Ok(line) => missing.retain(|needle| !line.contains(needle)),
                Err(_) => {
                    let _ = child.kill();
                    let _ = child.wait();
                    panic!("no {missing:?}");
                }
            }
        }
    };
    next(&["1d1000000: ", "watching game.txt"]);
    std::fs::remove_file(&file).expect("the file goes");
    mkfifo(&file);
    next(&[
        "it is a FIFO (a named pipe), not a file",
        "watching game.txt",
    ]);
    std::fs::remove_file(&file).expect("the FIFO goes");
    ws.write("game.txt", "roll 2d1000000\n");
    next(&["2d1000000: "]);
    let _ = child.kill();
    let _ = child.wait();
}
