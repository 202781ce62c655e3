//! The command line: help, usage errors, `roll`, `check`, `play`, `run` and the default
//! scenario, run through the real binary.

use crate::common;

use common::{Workspace, assert_golden, event_kinds, json_lines, project_file, sandtable};

/// The commands `sandtable --help` lists.
const COMMANDS: &[&str] = &[
    "play", "run", "battle", "sim", "odds", "roll", "check", "render", "defs", "list", "hooks",
    "replay", "schema",
];

// Guards that every command (and the top level) documents itself and exits 0 on `--help`.
#[test]
fn every_command_answers_help_with_exit_0() {
    let top = sandtable(&["--help"], None);
    top.expect_code(0);
    assert!(
        top.stdout.contains("Usage: sandtable [OPTIONS] [COMMAND]"),
        "{}",
        top.stdout
    );
    for command in COMMANDS {
        assert!(
            top.stdout.contains(&format!("\n  {command} ")),
            "top-level help does not list `{command}`:\n{}",
            top.stdout
        );
        let out = sandtable(&[command, "--help"], None);
        assert_eq!(
            out.code, 0,
            "`sandtable {command} --help` exited {}:\n{}",
            out.code, out.stderr
        );
        assert!(
            out.stdout
                .contains(&format!("Usage: sandtable {command} [OPTIONS]")),
            "`sandtable {command} --help` shows no usage line:\n{}",
            out.stdout
        );
        assert!(out.stderr.is_empty(), "{}", out.stderr);
    }
}

// Guards that `--version` names the program and exits 0.
#[test]
fn version_flag_prints_the_version() {
    let out = sandtable(&["--version"], None);
    out.expect_code(0);
    assert_eq!(
        out.stdout,
        format!("sandtable {}\n", env!("CARGO_PKG_VERSION"))
    );
}

// Guards exit status 2 (bad usage) for a command that does not exist.
#[test]
fn unknown_command_exits_2() {
    let out = sandtable(&["conquer"], None);
    out.expect_code(2);
    assert!(out.stdout.is_empty(), "{}", out.stdout);
    out.stderr_has(&["unrecognized subcommand 'conquer'"]);
}

// Guards exit status 2 for an unknown flag, at the top level and after a command.
#[test]
fn unknown_flag_exits_2() {
    let out = sandtable(&["--bogus"], None);
    out.expect_code(2);
    out.stderr_has(&["unexpected argument '--bogus'"]);

    let out = sandtable(&["roll", "3d6", "--loaded"], None);
    out.expect_code(2);
    out.stderr_has(&["unexpected argument '--loaded'"]);
}

// Guards exit status 2 when a command misses its required argument.
#[test]
fn missing_argument_exits_2() {
    let out = sandtable(&["roll"], None);
    out.expect_code(2);
    out.stderr_has(&["<EXPR>"]);
}

// Guards the text of a seeded roll: the seed line, then every die and the total.
#[test]
fn roll_prints_the_seed_then_the_dice_and_total() {
    let out = sandtable(&["roll", "3d6+1", "--seed", "7"], None);
    out.expect_code(0);
    assert_eq!(out.stdout, "seed 7\n3d6+1: [1, 2, 5] + 1 = 9\n");
    assert!(out.stderr.is_empty(), "{}", out.stderr);
}

// Guards determinism: the same seed gives the same bytes on a second run.
#[test]
fn roll_with_the_same_seed_is_byte_identical() {
    let first = sandtable(&["roll", "3d6+1", "--seed", "7"], None);
    let second = sandtable(&["roll", "3d6+1", "--seed", "7"], None);
    first.expect_code(0);
    second.expect_code(0);
    assert_eq!(first.stdout.as_bytes(), second.stdout.as_bytes());
}

// Guards that the seed drives the dice: seeds 7 and 8 roll different dice.
#[test]
fn roll_with_different_seeds_rolls_different_dice() {
    let seven = sandtable(&["roll", "3d6+1", "--seed", "7"], None);
    let eight = sandtable(&["roll", "3d6+1", "--seed", "8"], None);
    seven.expect_code(0);
    eight.expect_code(0);
    let dice = |s: &str| s.lines().nth(1).unwrap_or_default().to_string();
    assert_ne!(dice(&seven.stdout), dice(&eight.stdout));
    assert_eq!(eight.stdout, "seed 8\n3d6+1: [1, 5, 6] + 1 = 13\n");
}

// Guards `--json` for `roll`: one JSON object per line, a `seed` event then a `roll` event
// agreeing with the text output.
#[test]
fn roll_json_is_one_object_per_line() {
    let out = sandtable(&["roll", "3d6+1", "--seed", "7", "--json"], None);
    out.expect_code(0);
    let events = json_lines(&out.stdout);
    assert_eq!(event_kinds(&events), ["seed", "roll"]);
    assert_eq!(events[0]["seed"], 7);
    let roll = &events[1]["roll"];
    assert_eq!(roll["expr"], "3d6+1");
    assert_eq!(roll["total"], 9);
    let dice: Vec<i64> = roll["groups"][0]["dice"]
        .as_array()
        .expect("a list of dice")
        .iter()
        .map(|d| d["value"].as_i64().expect("a die value"))
        .collect();
    assert_eq!(dice, [1, 2, 5]);
}

// Guards that the project's own scenarios and scripts check clean.
#[test]
fn check_of_the_project_reports_no_problem() {
    let scenarios = project_file("scenarios");
    let scripts = project_file("scripts");
    let out = sandtable(&["check", &scenarios, &scripts], None);
    out.expect_code(0);
    assert!(out.stderr.is_empty(), "{}", out.stderr);
    let lines: Vec<&str> = out.stdout.lines().collect();
    let (summary, files) = lines.split_last().expect("a summary line");
    assert!(summary.ends_with(" 0 problems"), "{summary}");
    assert!(!files.is_empty(), "no file was checked");
    for line in files {
        assert!(line.starts_with("ok   "), "not ok: {line}");
    }
    out.stdout_has(&[
        "romans_vs_vikings.yaml (scenario, 20 units)",
        "rules.rhai (script,",
        "ruleset.yaml (ruleset, 18 troop types, 5 scripts, 14 abilities)",
    ]);
}

// Guards exit status 2 when `check` is given a path that does not exist.
#[test]
fn check_of_a_missing_path_exits_2() {
    let out = sandtable(&["check", "no/such/place"], None);
    out.expect_code(2);
    out.stderr_has(&["`no/such/place` does not exist"]);
}

// Guards that an expression may start with a minus: `roll` takes it as it is, `odds` after
// `--` (its expression is several words, and flags may follow them).
#[test]
fn dice_expressions_may_start_with_a_minus() {
    sandtable(&["roll", "-1d6+3", "--seed", "1"], None)
        .expect_code(0)
        .stdout_has(&["-1d6+3: -["]);
    sandtable(&["odds", "--", "-1d6+3"], None)
        .expect_code(0)
        .stdout_has(&["-1d6+3: total, mean -0.5000, from -3 to 2"]);
}

// Guards that a scenario file that cannot be read is named, with the reason said once.
#[test]
fn unreadable_scenario_is_named_with_its_reason_once() {
    let out = sandtable(&["sim", "no_such_scenario.yaml", "--runs", "1"], None);
    out.expect_code(1);
    let err = out.err();
    assert!(err.contains("cannot read `no_such_scenario.yaml`"), "{err}");
    // In words, without the system's `(os error 2)`.
    assert_eq!(err.matches("no such file").count(), 1, "{err}");
    assert!(!err.contains("os error"), "{err}");
}

/// The piped session of the brief: one melee in the default scenario.
const MELEE: &str = "melee viking_1 legionary_1\n";

// Guards the narration of a piped melee in the default scenario (seed 3: the Viking wins).
#[test]
fn piped_play_narrates_a_melee() {
    let out = sandtable(&["play", "--seed", "3"], Some(MELEE));
    out.expect_code(0);
    assert!(out.stderr.is_empty(), "{}", out.stderr);
    assert_golden("play_melee_seed_3", &out.stdout);
}

// Guards `--json` at the prompt: one object per line, no echo of the typed line, and the
// melee's rolls and removal as events.
#[test]
fn piped_play_json_is_one_object_per_line() {
    let out = sandtable(&["play", "--seed", "3", "--json"], Some(MELEE));
    out.expect_code(0);
    let events = json_lines(&out.stdout);
    let kinds = event_kinds(&events);
    assert_eq!(kinds[..3], ["seed", "scenario", "turn"]);
    assert_eq!(
        kinds.iter().filter(|k| *k == "roll").count(),
        2,
        "{kinds:?}"
    );
    assert!(
        kinds.iter().any(|k| k == "remove" || k == "tag"),
        "{kinds:?}"
    );
    let remove = events
        .iter()
        .find(|e| e["event"] == "remove")
        .expect("seed 3: legionary_1 is killed");
    assert_eq!(remove["unit"], "legionary_1");
    assert_eq!(remove["reason"], "killed by viking_1");
    let tag = events
        .iter()
        .find(|e| e["event"] == "tag")
        .expect("the attacker is tagged");
    assert_eq!(tag["unit"], "viking_1");
    assert_eq!(tag["tag"], "attacked");
    assert_eq!(tag["on"], true);
}

/// A longer session: moves, a melee, rolls, a turn change.
const SESSION: &str = "\
move viking_2 19.5 17.8
melee viking_1 legionary_1
melee viking_2 legionary_2
roll 4d6kh3
end_turn
melee legionary_3 viking_3
:units
";

// Guards determinism of a whole session: the same seed and lines give the same bytes.
#[test]
fn piped_play_is_deterministic() {
    let a = sandtable(&["play", "--seed", "11"], Some(SESSION));
    let b = sandtable(&["play", "--seed", "11"], Some(SESSION));
    a.no_panic();
    assert_eq!(a.code, b.code);
    assert_eq!(a.stdout.as_bytes(), b.stdout.as_bytes());
    assert_eq!(a.stderr.as_bytes(), b.stderr.as_bytes());
    // A different seed plays differently.
    let c = sandtable(&["play", "--seed", "12"], Some(SESSION));
    assert_ne!(a.stdout, c.stdout);
}

// Guards `run FILE.txt`: prompt lines from a file narrate exactly as the piped prompt does.
#[test]
fn run_of_prompt_lines_matches_the_piped_prompt() {
    let ws = Workspace::new();
    ws.write("game.txt", MELEE);
    let run = ws.sandtable(&["run", "game.txt", "--seed", "3"], None);
    run.expect_code(0);
    let play = sandtable(&["play", "--seed", "3"], Some(MELEE));
    assert_eq!(run.stdout, play.stdout);
}

// Guards `run FILE.rhai`: a script calls the verbs and its value is shown.
#[test]
fn run_of_a_rhai_script_plays_it() {
    let ws = Workspace::new();
    ws.write(
        "game.rhai",
        r#"// one melee, then a report
melee(unit("viking_1"), unit("legionary_1"));
let l = unit("legionary_1");
print(`${l.id} in play: ${l.in_play}`);
turn()
"#,
    );
    let out = ws.sandtable(&["run", "game.rhai", "--seed", "3"], None);
    out.expect_code(0);
    assert_eq!(
        out.stdout,
        "\
seed 3
scenario Romans against Vikings (Playmobil Melee Combat)
turn 1: vikings to play
viking_1 (Viking warrior) attacks legionary_1 (Legionary)
  viking_1 is tagged `attacked`
  viking_1 attacks with 1 die: 1d6kh1 [4] = 4
  legionary_1 defends with 2 dice: 2d6kh1 [~1, 2] = 2
viking_1 wins 4 to 2: legionary_1 is killed
  legionary_1 is removed: killed by viking_1
  viking_1 is tagged `may step`
legionary_1 in play: false
=> 1
"
    );
}

// Guards `run -` and `run` without a file: both read prompt lines from standard input.
#[test]
fn run_reads_standard_input_with_dash_or_no_file() {
    let play = sandtable(&["play", "--seed", "3"], Some(MELEE));
    let dash = sandtable(&["run", "-", "--seed", "3"], Some(MELEE));
    let none = sandtable(&["run", "--seed", "3"], Some(MELEE));
    dash.expect_code(0);
    none.expect_code(0);
    assert_eq!(dash.stdout, play.stdout);
    assert_eq!(none.stdout, play.stdout);
}

// Guards that a batch stops at its first failing line with exit status 1.
#[test]
fn run_stops_at_the_first_error() {
    let lines = "print(\"before\")\nmelee viking_1 legionary_1 extra\nprint(\"after\")\n";
    let out = sandtable(&["run", "-", "--seed", "3"], Some(lines));
    out.expect_code(1);
    out.stdout_has(&["> print(\"before\")\nbefore\n"]);
    out.stdout_lacks("after");
    out.stderr_has(&["`melee` takes 2 arguments, got 3", "[stdin:2:"]);
}

// Guards that a failing line of a batch file names the file and the line: a refusal of the
// rules, which points nowhere, says `game.txt:3:` before its message, and a diagnostic in the
// line points at the file's line and column (it said `game.txt line 3:1:7`, or nothing).
#[test]
fn failing_line_of_a_batch_file_names_the_file_and_line() {
    let ws = Workspace::new();
    ws.write("refused.txt", "roll 1d6\n\nmove viking_1 19 17\nroll 1d6\n");
    ws.sandtable(&["run", "refused.txt", "--seed", "3"], None)
        .expect_code(1)
        .stderr_has(&["refused.txt:3: legionary_2 already stands at (19, 17)"]);

    ws.write("dice.txt", "roll 1d6\n\nroll 3x6\n");
    let out = ws.sandtable(&["run", "dice.txt", "--seed", "3"], None);
    out.expect_code(1).stderr_has(&[
        "bad dice expression: unexpected character `x`",
        "[dice.txt:3:7]",
    ]);
    assert!(
        out.stderr.contains(" 3 │ roll 3x6"),
        "the file's line number: {}",
        out.stderr
    );

    // An entry over several lines: the place of its third line in the file.
    ws.write("multi.txt", "roll 1d6\nlet a = [\n  1,\n  nosuch()\n];\n");
    ws.sandtable(&["run", "multi.txt", "--seed", "3"], None)
        .expect_code(1)
        .stderr_has(&[
            "there is no function `nosuch` that takes no arguments",
            "[multi.txt:4:3]",
        ]);

    // With --json, the place is the file's line and column.
    let out = ws.sandtable(&["run", "dice.txt", "--seed", "3", "--json"], None);
    let error = &common::json_lines(&out.stderr)[0]["error"];
    assert_eq!(
        (&error["file"], &error["line"], &error["column"]),
        (&"dice.txt".into(), &3.into(), &7.into()),
        "{error}"
    );
    let out = ws.sandtable(&["run", "refused.txt", "--seed", "3", "--json"], None);
    let error = &common::json_lines(&out.stderr)[0]["error"];
    assert_eq!(
        (&error["file"], &error["line"], &error["column"]),
        (&"refused.txt".into(), &3.into(), &serde_json::Value::Null),
        "{error}"
    );

    // Standard input is `stdin`.
    sandtable(
        &["run", "-", "--seed", "3"],
        Some("roll 1d6\nmove viking_1 19 17\n"),
    )
    .expect_code(1)
    .stderr_has(&["stdin:2: legionary_2 already stands at (19, 17)"]);
}

// Guards that `sandtable` alone, with piped input, plays the default scenario.
#[test]
fn no_command_plays_the_default_scenario() {
    let bare = sandtable(&["--seed", "3"], Some(MELEE));
    bare.expect_code(0);
    bare.stdout_has(&["scenario Romans against Vikings (Playmobil Melee Combat)\n"]);
    let play = sandtable(&["play", "--seed", "3"], Some(MELEE));
    assert_eq!(bare.stdout, play.stdout);
    // And with nothing but the project: a seed from the clock, the same scenario and verbs.
    let unseeded = sandtable(&[], Some(MELEE));
    unseeded.expect_code(0);
    unseeded.stdout_has(&[
        "scenario Romans against Vikings (Playmobil Melee Combat)\n",
        "> melee viking_1 legionary_1\nviking_1 (Viking warrior) attacks legionary_1 (Legionary)\n",
    ]);
    assert!(unseeded.stdout.starts_with("seed "), "{}", unseeded.stdout);
}

// Guards that the default scenario is the one `play FILE` plays when given it by name.
#[test]
fn play_of_the_default_scenario_file_matches_play_without_one() {
    let file = project_file("scenarios/romans_vs_vikings.yaml");
    let named = sandtable(&["play", &file, "--seed", "3"], Some(MELEE));
    let default = sandtable(&["play", "--seed", "3"], Some(MELEE));
    named.expect_code(0);
    assert_eq!(named.stdout, default.stdout);
}

/// A two-figure scenario with its own seed.
const SEEDED_SCENARIO: &str = "\
name: Seeded
ruleset: playmobil
seed: 42
first: vikings
sides:
  - id: romans
    edge: south
    units:
      - { id: legionary, type: heavy_infantry, at: [10, 10] }
  - id: vikings
    edge: north
    units:
      - { id: viking, type: heavy_infantry, at: [10, 12], facing: 180 }
";

// Guards the seed order: the scenario's seed without `--seed`, the flag over it.
#[test]
fn scenario_seed_is_used_unless_the_flag_overrides_it() {
    let ws = Workspace::new();
    ws.write("seeded.yaml", SEEDED_SCENARIO);
    let own = ws.sandtable(&["play", "seeded.yaml"], Some(":seed\n"));
    own.expect_code(0);
    assert!(own.stdout.starts_with("seed 42\n"), "{}", own.stdout);
    own.stdout_has(&["> :seed\nseed 42\n"]);
    let flag = ws.sandtable(&["play", "seeded.yaml", "--seed", "5"], Some(":seed\n"));
    flag.expect_code(0);
    assert!(flag.stdout.starts_with("seed 5\n"), "{}", flag.stdout);
    flag.stdout_has(&["> :seed\nseed 5\n"]);
}

// Guards that `:quit` ends a piped session: later lines are not run.
#[test]
fn quit_ends_a_piped_session() {
    let out = sandtable(
        &["play", "--seed", "3"],
        Some(":quit\nprint(\"still here\")\n"),
    );
    out.expect_code(0);
    out.stdout_lacks("still here");
}

// Guards that a bracket left open at the end of piped input is an error, not silence.
#[test]
fn piped_input_ending_inside_an_entry_is_an_error() {
    let out = sandtable(&["play", "--seed", "3"], Some("fn f() {\n  1\n"));
    out.expect_code(1);
    out.stderr_has(&["the input ended inside an unfinished entry"]);
}

// Guards multi-line entries: a function defined over several lines persists for later lines.
#[test]
fn multi_line_function_persists_for_later_lines() {
    let lines = "fn double(x) {\n  x * 2\n}\ndouble(21)\n";
    let out = sandtable(&["play", "--seed", "3"], Some(lines));
    out.expect_code(0);
    out.stdout_has(&["=> 42\n"]);
}

// Guards that a Rhai value of a host type reads as the player knows it (a unit's id and
// name, a point's coordinates, a roll's dice), not as a Rust type path.
#[test]
fn rhai_values_of_host_types_print_readably() {
    let out = sandtable(
        &["play", "--seed", "3"],
        Some("unit(\"viking_1\")\npoint(1, 2)\n[card(\"QH\"), roll(\"1d1\")]\n"),
    );
    out.expect_code(0);
    out.stdout_lacks("sandtable::");
    out.stdout_has(&[
        "=> viking_1 (Viking warrior)\n",
        "=> (1, 2)\n",
        "=> [Q♥, 1d1: [1] = 1]\n",
    ]);
}

/// A copy of the project's Playmobil ruleset package (its abilities included) in a temporary
/// project.
fn ruleset_copy() -> Workspace {
    let ws = Workspace::new();
    for folder in [
        "scripts/rulesets/playmobil",
        "scripts/rulesets/playmobil/abilities",
    ] {
        for entry in std::fs::read_dir(project_file(folder)).expect("the ruleset") {
            let path = entry.expect("a ruleset file").path();
            if path.is_dir() {
                continue;
            }
            let name = path
                .file_name()
                .and_then(|n| n.to_str())
                .expect("a name")
                .to_string();
            let text = std::fs::read_to_string(&path).expect("a ruleset file");
            ws.write(&format!("{folder}/{name}"), &text);
        }
    }
    ws
}

// Guards `check` of a ruleset's data file named with its folders.
#[test]
fn check_of_a_ruleset_file_passes() {
    let ws = ruleset_copy();
    let root = ws.path().to_str().expect("a UTF-8 path");
    let out = common::run_binary(
        ws.path(),
        &[
            "--project",
            root,
            "check",
            "scripts/rulesets/playmobil/ruleset.yaml",
        ],
        None,
    );
    out.expect_code(0);
    assert_eq!(
        out.stdout,
        "ok   scripts/rulesets/playmobil/ruleset.yaml (ruleset, 18 troop types, 5 scripts, 14 abilities)\n1 file checked, 0 problems\n"
    );
}

// Guards that `check` of a ruleset validates its package as a whole: an ability no unit of
// any scenario has, with a broken `meta()`, still fails the check of the ruleset.
#[test]
fn check_of_a_ruleset_checks_every_ability_of_its_package() {
    let ws = ruleset_copy();
    ws.write(
        "scripts/rulesets/playmobil/abilities/unused.rhai",
        "fn meta() {\n    #{ name: \"Unused\", activation: \"sometimes\" }\n}\n",
    );
    let root = ws.path().to_str().expect("a UTF-8 path");
    let out = common::run_binary(
        ws.path(),
        &[
            "--project",
            root,
            "check",
            "scripts/rulesets/playmobil/ruleset.yaml",
        ],
        None,
    );
    out.expect_code(1);
    out.stdout_has(&["FAIL scripts/rulesets/playmobil/ruleset.yaml\n"]);
    out.stderr_has(&[
        "ability `unused`: bad `meta()`",
        "unknown variant `sometimes`",
    ]);
}

// Guards `check ruleset.yaml` run inside the ruleset's own folder.
#[test]
fn check_of_a_ruleset_from_its_own_folder_passes() {
    let ws = ruleset_copy();
    let root = ws.path().to_str().expect("a UTF-8 path");
    let out = common::run_binary(
        &ws.path().join("scripts/rulesets/playmobil"),
        &["--project", root, "check", "ruleset.yaml"],
        None,
    );
    out.expect_code(0);
    assert_eq!(
        out.stdout,
        "ok   ruleset.yaml (ruleset, 18 troop types, 5 scripts, 14 abilities)\n1 file checked, 0 problems\n"
    );
}

// Guards against a panic when the reader of standard output goes away (`sandtable ... | head`):
// `print!` panics on a broken pipe; the command must finish quietly instead.
#[test]
fn closed_standard_output_is_not_a_panic() {
    use std::io::Write;
    use std::process::Stdio;
    let mut child = common::binary_command(&common::project(), &["play", "--seed", "3"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    // Close the reading end before the game writes anything.
    drop(child.stdout.take());
    let mut stdin = child.stdin.take().expect("stdin");
    let _ = stdin.write_all(b"melee viking_1 legionary_1\n:units\n:help\n");
    drop(stdin);
    let out = child.wait_with_output().expect("the binary finishes");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_eq!(out.status.code(), Some(0), "{stderr}");
}

// Guards shared abilities: a ruleset borrows one from `scripts/shared/abilities/` by naming
// it in `shared_abilities`, and only then may its units have it.
#[test]
fn a_ruleset_borrows_a_shared_ability_by_name() {
    let ws = ruleset_copy();
    ws.write(
        "scripts/shared/abilities/stubborn.rhai",
        "fn meta() {\n    #{ name: \"Stubborn\", activation: \"always\" }\n}\n\
         fn defend_dice(dice, info) {\n    dice + 1\n}\n",
    );
    ws.write(
        "game.yaml",
        "name: Test\nruleset: playmobil\ntable: { width: 48, depth: 36 }\nfirst: vikings\n\
         sides:\n  - id: romans\n    name: Rome\n    edge: south\n    units:\n      \
         - { id: legionary, type: heavy_infantry, at: [10, 10], abilities: [stubborn] }\n  \
         - id: vikings\n    name: The Vikings\n    edge: north\n    units:\n      \
         - { id: viking, type: heavy_infantry, at: [10, 12], facing: 180 }\n",
    );
    let root = ws.path().to_str().expect("a UTF-8 path");
    let play = |ws: &Workspace| {
        common::run_binary(
            ws.path(),
            &["--project", root, "play", "game.yaml", "--seed", "1"],
            Some("melee viking legionary\n:explain\n"),
        )
    };
    // Not borrowed: the ruleset does not know it.
    play(&ws)
        .expect_code(1)
        .stderr_has(&["unknown ability `stubborn`"]);
    let yaml = std::fs::read_to_string(project_file("scripts/rulesets/playmobil/ruleset.yaml"))
        .expect("the ruleset's data");
    ws.write(
        "scripts/rulesets/playmobil/ruleset.yaml",
        &format!("{yaml}\nshared_abilities: [stubborn]\n"),
    );
    let out = play(&ws);
    out.expect_code(0);
    out.stdout_has(&["defend_dice for legionary: 2 (heavy infantry) +1 stubborn = 3"]);
}

/// Whether `text` is in the syntax of Rhai definition files, as the Rhai language server reads
/// them: `module static;`, then declarations `fn NAME(P: TYPE, ...) -> TYPE;` (`get NAME`,
/// `set NAME` for properties) and `op SYMBOL(TYPE, ...) -> TYPE;`, each after its `///` doc;
/// the first line that is not, or none.
fn not_definitions(text: &str) -> Option<String> {
    fn is_type(t: &str) -> bool {
        let t = t.trim();
        t == "?"
            || t == "()"
            || (!t.is_empty()
                && t.chars()
                    .all(|c| c.is_alphanumeric() || "_<>?, =".contains(c))
                && t.starts_with(|c: char| c.is_alphabetic()))
    }
    fn is_name(n: &str) -> bool {
        let n = n.trim();
        !n.is_empty()
            && n.starts_with(|c: char| c.is_alphabetic() || c == '_')
            && n.chars().all(|c| c.is_alphanumeric() || c == '_')
    }
    let mut lines = text
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with("//"));
    if lines.next() != Some("module static;") {
        return Some("no `module static;` first".into());
    }
    for line in lines {
        let ok = (|| {
            let decl = line.strip_suffix(';')?;
            let (head, ret) = match decl.rsplit_once(") -> ") {
                Some((head, ret)) => (head, Some(ret)),
                None => (decl.strip_suffix(')')?, None),
            };
            if ret.is_some_and(|r| !is_type(r)) {
                return None;
            }
            let (name, params) = head.split_once('(')?;
            let params: Vec<&str> = params.split(", ").filter(|p| !p.is_empty()).collect();
            if let Some(op) = name.strip_prefix("op ") {
                return (!op.is_empty() && params.iter().all(|p| is_type(p))).then_some(());
            }
            let name = name.strip_prefix("fn ")?;
            let name = name
                .strip_prefix("get ")
                .or_else(|| name.strip_prefix("set "))
                .unwrap_or(name);
            let typed = |p: &&str| {
                p.split_once(": ")
                    .is_some_and(|(n, t)| is_name(n.trim_start_matches("...")) && is_type(t))
            };
            (is_name(name) && params.iter().all(typed)).then_some(())
        })();
        if ok.is_none() {
            return Some(line.to_string());
        }
    }
    None
}

// `sandtable defs DIR` writes the editors' definition files: the host API and Rhai's own, and
// the ruleset's verbs and hooks, each a file the Rhai language server reads.
#[test]
fn defs_writes_definition_files_for_editors() {
    let ws = Workspace::new();
    let out = ws.sandtable(&["defs", "defs"], None);
    out.expect_code(0);
    let dir = ws.path().join("defs");
    let read = |name: &str| {
        std::fs::read_to_string(dir.join(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
    };
    for name in [
        "__builtin__.d.rhai",
        "__builtin-operators__.d.rhai",
        "__static__.d.rhai",
        "verbs.d.rhai",
        "hooks.d.rhai",
    ] {
        assert!(out.stdout.contains(name), "{}", out.stdout);
        if let Some(line) = not_definitions(&read(name)) {
            panic!("{name} is not in the definitions syntax: `{line}`");
        }
    }
    let host = read("__static__.d.rhai");
    assert!(
        host.contains("/// and logs the roll with `why` in front of it")
            && host.contains("fn roll(expr: String, why: String) -> Roll;")
            && host.contains("fn get hits(u: Unit) -> int;")
            && host.contains("fn units_within(centre: ?, radius: ?) -> Array;"),
        "{host}"
    );
    let verbs = read("verbs.d.rhai");
    assert!(
        verbs.contains("/// Attack an enemy figure")
            && verbs.contains("fn melee(attacker: ?, defender: ?) -> ?;"),
        "{verbs}"
    );
    let hooks = read("hooks.d.rhai");
    assert!(
        hooks.contains("fn attack_dice(dice: ?, info: ?) -> ?;")
            && hooks.contains("fn can_die(info: ?) -> ?;"),
        "{hooks}"
    );
    // Another scenario's ruleset gives its own verbs; the files are replaced.
    let sint = project_file("scenarios/sint_edgehill_lane.yaml");
    ws.sandtable(&["defs", "defs", &sint], None).expect_code(0);
    assert!(!read("verbs.d.rhai").contains("fn melee(attacker"));
}

// `defs` writes only plain files: a folder in the way of one is refused, not followed.
#[test]
fn defs_refuses_to_write_over_what_is_not_a_file() {
    let ws = Workspace::new();
    std::fs::create_dir_all(ws.path().join("defs/verbs.d.rhai")).unwrap();
    ws.sandtable(&["defs", "defs"], None)
        .expect_code(1)
        .stderr_has(&["is a folder, not a file"]);
}

/// The commands that take `--with` (house rules), and those that do not.
const WITH: &[&str] = &["play", "run", "battle", "sim", "odds", "defs", "hooks"];

// Guards that `--with` is offered in `--help` only by the commands that take it (it was a
// global flag, offered by `roll`, `check`, `replay` and the rest, which refused it).
#[test]
fn with_is_offered_only_where_it_is_taken() {
    for command in COMMANDS {
        let help = sandtable(&[command, "--help"], None);
        help.expect_code(0);
        assert_eq!(
            help.stdout.contains("--with <HOUSE_RULE.rhai>"),
            WITH.contains(command),
            "`sandtable {command} --help`:\n{}",
            help.stdout
        );
    }
    let top = sandtable(&["--help"], None);
    top.stdout_lacks("--with <");
    sandtable(&["roll", "1d6", "--with", "rule.rhai"], None)
        .expect_code(2)
        .stderr_has(&["unexpected argument '--with'"]);
    sandtable(&["odds", "3d6", "--with", "rule.rhai"], None)
        .expect_code(2)
        .stderr_has(&["--action"]);
    sandtable(
        &["play", "--open", "game.json", "--with", "rule.rhai"],
        None,
    )
    .expect_code(2)
    .stderr_has(&["cannot be used with"]);
}

// Guards `sim` without `--runs`: it plays its default number of battles (1000), which its
// `--help` and docs/sim.md say (it was refused: "the following required arguments were not
// provided: --runs").
#[test]
fn sim_without_runs_plays_the_default_number_of_battles() {
    sandtable(&["sim", "--help"], None)
        .expect_code(0)
        .stdout_has(&["[default: 1000]"]);
    let docs = std::fs::read_to_string(project_file("docs/sim.md")).expect("docs/sim.md");
    assert!(
        docs.contains("1000 battles when `--runs` is not given"),
        "docs/sim.md"
    );
    let game = common::game::Game::with(
        Some("romans"),
        &[common::game::legionary("legionary_1", 10.0, 2.0, "").as_str()],
        &[common::game::viking("viking_1", 40.0, 34.0, "").as_str()],
        "house_rules: [rule.rhai]\n",
    );
    game.write(
        "rule.rhai",
        "fn victory() { #{ winner: \"romans\", reason: \"at once\" } }\n",
    );
    let out = game.sandtable(&["--json", "sim", "game.yaml", "--seed", "1"], None);
    out.expect_code(0);
    let report: serde_json::Value = serde_json::from_str(&out.stdout).expect("one JSON report");
    assert_eq!(report["base"]["runs"], 1000, "{report}");
}
