//! Broken and hostile input: every case must give a clear diagnostic within seconds, stop a
//! batch with exit status 1, and leave a piped game running and exactly as it was.

use crate::common;

use std::time::Duration;

use common::{Output, Workspace, sandtable};

/// How long a hostile line may take before the sandbox counts as failing: twice the longest
/// a call may take by the clock (2 s of processor time, at most 10 s by the clock on a busy
/// machine), which leaves room for a loaded debug build.
const QUICK: Duration =
    sandtable::limits::TIME_BUDGET.saturating_mul(2 * sandtable::limits::WALL_CLOCK_FACTOR);

/// The seed of every game here.
const SEED: &str = "11";

/// A first line that changes the game, so "unchanged" is not just "as set up".
const SETUP: &str = "move viking_2 19.5 17.8\n";

/// Lines that show the game's state: the units, one unit in full, the generator (the next
/// roll) and the turn.
const PROBE: &str = r#":units
let v = unit("viking_1"); print(`viking_1: ${v.pos} facing ${v.facing} hits ${v.hits} tags ${v.tags} stats ${v.stats} in play ${v.in_play}`)
roll 3d6
print(`turn ${turn()}: ${active_side()}`)
"#;

#[track_caller]
fn quick(out: &Output, what: &str) {
    assert!(
        out.elapsed < QUICK,
        "{what} took {:?}, more than {QUICK:?}",
        out.elapsed
    );
}

/// Checks a bad line in the default scenario (see [`check_bad_line_in`]); returns what the
/// batch printed.
#[track_caller]
fn check_bad_line(bad: &str, needles: &[&str]) -> Output {
    let ws = Workspace::new();
    check_bad_line_in(&ws, None, bad, needles)
}

/// Checks a bad line two ways, in `scenario` (a file in `ws`) or the default one:
/// - as a batch of prompt lines (`run -`): exit status 1, the diagnostic, quickly;
/// - at the piped prompt (`play`): the diagnostic, quickly, the session carries on (exit
///   status 1 at the end), and the state afterwards is exactly the state without the bad
///   line, with no output of the bad line but its echo.
///
/// The bad line is always line 2 of its input; `needles` must all appear in the diagnostic.
/// A place is given as the prompt names it, `line 2:1:9]` (column 9 of line 1 of the entry
/// typed as line 2); the batch names the line of its file instead, `stdin:2:9]`.
/// Returns what the batch printed, for checks of its own.
#[track_caller]
fn check_bad_line_in(
    ws: &Workspace,
    scenario: Option<&str>,
    bad: &str,
    needles: &[&str],
) -> Output {
    let bad = bad.trim_end();
    let mut run_args = vec!["run", "-", "--seed", SEED];
    let mut play_args = vec!["play", "--seed", SEED];
    if let Some(s) = scenario {
        run_args.extend(["--scenario", s]);
        play_args.push(s);
    }
    let batch = ws.sandtable(&run_args, Some(&format!("{SETUP}{bad}\n{PROBE}")));
    let in_batch: Vec<String> = needles
        .iter()
        .map(|n| n.replace("line 2:1:", "stdin:2:"))
        .collect();
    let in_batch: Vec<&str> = in_batch.iter().map(String::as_str).collect();
    batch.expect_code(1).stderr_has(&in_batch);
    quick(&batch, "the batch");
    // The batch stops at the bad line: the probe never runs.
    batch.stdout_lacks("> :units");

    let clean = ws.sandtable(&play_args, Some(&format!("{SETUP}{PROBE}")));
    clean.expect_code(0);
    assert!(clean.stderr.is_empty(), "{}", clean.stderr);

    let dirty = ws.sandtable(&play_args, Some(&format!("{SETUP}{bad}\n{PROBE}")));
    dirty.expect_code(1).stderr_has(needles);
    quick(&dirty, "the piped game");
    let echo = format!("> {bad}\n");
    assert!(
        dirty.stdout.contains(&echo),
        "the bad line is not echoed:\n{}",
        dirty.stdout
    );
    let without_echo = dirty.stdout.replacen(&echo, "", 1);
    assert_eq!(
        without_echo,
        clean.stdout,
        "the game after the bad line differs from the game without it:\n{}",
        common::diff(&clean.stdout, &without_echo)
    );
    batch
}

// Guards that a syntax error at the prompt is a diagnostic at its column, and harmless.
#[test]
fn syntax_error_is_reported_at_its_column() {
    check_bad_line(
        "let x = ;",
        &["syntax error: unexpected `;`", "line 2:1:9]"],
    );
}

// Guards that an endless loop is stopped (operation limit or time budget), not hung on.
#[test]
fn endless_loop_is_stopped() {
    check_bad_line(
        "loop {}",
        &["look for a loop that never ends", "line 2:1:6]"],
    );
}

// Guards the sandbox against a loop of cheap-looking host calls (each one a single
// operation, so the operation limit alone would take far too long). Which limit stops it
// depends on the build's speed: the time budget in a debug build (or its wall-clock backstop on
// a loaded machine); in a release build the loop logs a million rolls within the budget and
// the log limit fires first. Any will do: the
// loop is stopped by a limit, with a diagnostic that says which, and the game is unchanged.
#[test]
fn endless_loop_of_rolls_is_stopped_by_a_limit() {
    let batch = check_bad_line(
        r#"loop { roll("100d6"); }"#,
        &["look for a loop that never ends"],
    );
    let limits = [
        "script ran longer than its time budget of 2s",
        // A machine so loaded that the wall clock's backstop ends it first.
        "5 times its time budget of 2s",
        "script ran more than 50000000 operations",
        "the action made more than 1000000 changes and log entries",
        "the action wrote more than 64 MiB to the log",
    ];
    let err = batch.err();
    assert!(
        limits.iter().any(|limit| err.contains(limit)),
        "the diagnostic names none of the limits {limits:?}:\n{}",
        batch.stderr
    );
}

// Guards the call-depth limit against a function that calls itself without end.
#[test]
fn runaway_recursion_is_stopped() {
    check_bad_line(
        "fn f(x) { f(x + 1) } f(0)",
        &[
            "function calls nested more than",
            "look for a function that calls itself without end",
        ],
    );
}

// Guards the string size limit against a string that doubles without end.
#[test]
fn gigantic_string_is_refused() {
    check_bad_line(
        r#"let s = "x"; loop { s += s; }"#,
        &["a string grew past the limit of 1048576 bytes"],
    );
}

// Guards the string size limit against one huge allocation in a single call.
#[test]
fn gigantic_string_in_one_call_is_refused() {
    check_bad_line(
        r#"let s = "x"; s.pad(1 << 40, "y"); s.len()"#,
        &["a string grew past the limit of 1048576 bytes"],
    );
}

// Guards the array size limit against an array that doubles without end.
#[test]
fn gigantic_array_is_refused() {
    check_bad_line(
        "let a = [1]; loop { a += a; }",
        &["an array grew past the limit of 100000 items"],
    );
}

// Guards the array size limit against one huge allocation in a single call.
#[test]
fn gigantic_array_in_one_call_is_refused() {
    check_bad_line(
        "let a = []; a.pad(1 << 40, 0); a.len()",
        &["an array grew past the limit of 100000 items"],
    );
}

// Guards the import confinement against climbing out with `..`.
#[test]
fn import_climbing_out_of_the_scripts_is_refused() {
    check_bad_line(
        r#"import "../../anything" as m;"#,
        &[
            "import `../../anything` is not allowed",
            "inside the scripts folders",
            "line 2:1:8]",
        ],
    );
}

// Guards the import confinement against an absolute path.
#[test]
fn import_of_an_absolute_path_is_refused() {
    check_bad_line(
        r#"import "/etc/passwd" as m;"#,
        &["import `/etc/passwd` is not allowed", "line 2:1:8]"],
    );
}

// Guards that `eval` is switched off.
#[test]
fn eval_is_disabled() {
    check_bad_line(r#"eval("1")"#, &["`eval` is switched off", "line 2:1:1]"]);
}

// Guards the rollback: a line that changes a unit, rolls, prints and then fails leaves the
// unit, the generator and the log as they were, and prints nothing of its own.
#[test]
fn failed_line_is_rolled_back_entirely() {
    check_bad_line(
        r#"let v = unit("viking_1"); v.hits = 3; v.move_to(5, 5); v.tag("zz"); v.set_stat("attack", 9); print("should not show"); roll("2d6"); throw "the rules say no";"#,
        &["the rules say no"],
    );
}

// Guards the rollback when the failure is the time budget rather than a `throw`.
#[test]
fn line_stopped_by_the_sandbox_is_rolled_back() {
    check_bad_line(
        r#"let v = unit("viking_1"); v.hits = 5; unit("legionary_1").remove("cheating"); loop {}"#,
        &["look for a loop that never ends"],
    );
}

// Guards the rollback of a verb that fails half-way, after it has tagged, changed, rolled
// and narrated (a house rule, since no shipped verb fails that late).
#[test]
fn verb_failing_half_way_is_rolled_back() {
    let ws = Workspace::new();
    let default = std::fs::read_to_string(common::project_file("scenarios/romans_vs_vikings.yaml"))
        .expect("the default scenario");
    ws.write(
        "house.yaml",
        &format!("{default}\nhouse_rules: [stumble.rhai]\n"),
    );
    ws.write(
        "stumble.rhai",
        r#"/// Charge, then trip over a shield.
fn stumble(figure) {
    figure.tag("stumbling");
    figure.hits = 2;
    figure.move_to(20, 20);
    roll("1d6", "how hard");
    say(`${figure} trips`);
    throw `${figure} tripped over a shield`;
}
"#,
    );
    check_bad_line_in(
        &ws,
        Some("house.yaml"),
        "stumble viking_1",
        &["viking_1 tripped over a shield"],
    );
}

// Guards that verbs refused by the rules or by the host API change nothing.
#[test]
fn refused_verb_changes_nothing() {
    check_bad_line(
        "melee viking_1 viking_3",
        &["viking_1 and viking_3 fight on the same side"],
    );
    // Refused at the word typed, before anything runs.
    check_bad_line(
        "move viking_1 abc 3",
        &["`move` needs a number for `x`, and `abc` is not one"],
    );
}

// Guards that variables declared by a failed line do not survive it.
#[test]
fn variables_of_a_failed_line_are_forgotten() {
    let out = sandtable(
        &["play", "--seed", SEED],
        Some("let zz = 1; throw \"no\"\nprint(is_def_var(\"zz\"))\n"),
    );
    out.expect_code(1).stderr_has(&["no"]);
    out.stdout_has(&["> print(is_def_var(\"zz\"))\nfalse\n"]);
}

// Guards the did-you-mean for a misspelt unit at the prompt.
#[test]
fn unknown_unit_at_the_prompt_suggests_the_right_one() {
    check_bad_line(
        "melee vikng_1 legionary_1",
        &[
            "unknown unit `vikng_1`",
            "did you mean `viking_1`?",
            "line 2:1:7]",
            "this unit",
        ],
    );
}

// Guards the did-you-mean for a misspelt verb at the prompt.
#[test]
fn unknown_verb_at_the_prompt_suggests_the_right_one() {
    check_bad_line(
        "meele viking_1 legionary_1",
        &[
            "unknown verb `meele`",
            "did you mean `melee`?",
            "line 2:1:1]",
            "not a verb of this ruleset",
        ],
    );
}

// Guards the did-you-mean for a misspelt meta command.
#[test]
fn unknown_meta_command_suggests_the_right_one() {
    check_bad_line(
        ":unit",
        &["unknown command `:unit`", "did you mean `:units`?"],
    );
}

// Guards that a word that is no unit at all is reported as an unknown unit in the player's
// terms, not as an error inside the ruleset's script. (The prompt cannot know which verb
// arguments are units, so the ruleset asks `to_unit`.)
#[test]
fn unknown_unit_without_a_near_name_is_reported_as_unknown() {
    check_bad_line(
        "melee elephant legionary_1",
        &["unknown unit `elephant`", "`:units` lists the units"],
    );
}

// Guards the diagnostic of a bad dice expression at the prompt: its place in the line.
#[test]
fn bad_dice_at_the_prompt_points_at_the_character() {
    check_bad_line(
        "roll 3x6",
        &[
            "bad dice expression: unexpected character `x`",
            "line 2:1:7]",
            "here",
        ],
    );
    check_bad_line(
        "roll 3d",
        &[
            "bad dice expression: expected a number of sides after `d`, found end of input",
            "line 2:1:8]",
            "write the sides after the `d`",
        ],
    );
}

// Guards the diagnostic of a bad dice expression on the command line.
#[test]
fn bad_dice_on_the_command_line_points_at_the_character() {
    let out = sandtable(&["roll", "3d"], None);
    out.expect_code(1).stderr_has(&[
        "bad dice expression: expected a number of sides after `d`, found end of input",
        "[dice expression:1:3]",
        "write the sides after the `d`, e.g. `d6` or `d%`",
    ]);
    assert!(out.stdout.is_empty(), "{}", out.stdout);
    quick(&out, "`roll 3d`");

    let out = sandtable(&["roll", "3x6"], None);
    out.expect_code(1).stderr_has(&[
        "bad dice expression: unexpected character `x`",
        "[dice expression:1:2]",
        "3x6 · ┬ · ╰── here",
    ]);
}

// Guards that an expression ending too early still shows its label under the place where
// more was expected, as every other dice diagnostic does.
#[test]
fn bad_dice_ending_too_early_shows_its_label() {
    let out = sandtable(&["roll", "3d"], None);
    out.expect_code(1)
        .stderr_has(&["[dice expression:1:3]", "╰── here"]);
}

// Guards that a `.rhai` batch with a syntax error names the file and the line, and runs none
// of it.
#[test]
fn rhai_batch_with_a_syntax_error_names_the_file_and_line() {
    let ws = Workspace::new();
    ws.write(
        "broken.rhai",
        "print(\"first\");\nlet y = ;\nprint(\"third\");\n",
    );
    let out = ws.sandtable(&["run", "broken.rhai", "--seed", SEED], None);
    out.expect_code(1).stderr_has(&[
        "syntax error: unexpected `;`",
        "[broken.rhai:2:9]",
        "2 │ let y = ;",
    ]);
    out.stdout_lacks("first");
    quick(&out, "the batch");
}

// Guards that a `.rhai` batch failing at run time prints none of its events and names the
// file and line of the failure.
#[test]
fn rhai_batch_failing_at_run_time_prints_none_of_its_events() {
    let ws = Workspace::new();
    ws.write(
        "partial.rhai",
        "print(\"first\");\nlet v = unit(\"viking_1\"); v.hits = 2;\nloop {}\n",
    );
    let out = ws.sandtable(&["run", "partial.rhai", "--seed", SEED], None);
    out.expect_code(1)
        .stderr_has(&["[partial.rhai:3:6]", "look for a loop that never ends"]);
    out.stdout_lacks("first");
    out.stdout_lacks("hits");
    quick(&out, "the batch");
}

// Guards the hostile `.rhai` batches: each fails with its diagnostic, quickly, exit 1.
#[test]
fn hostile_rhai_batches_fail_cleanly() {
    let cases: &[(&str, &str)] = &[
        ("loop {}", "look for a loop that never ends"),
        (
            "fn f(x) { f(x + 1) } f(0)",
            "function calls nested more than",
        ),
        (
            r#"let s = "x"; loop { s += s; }"#,
            "a string grew past the limit of 1048576 bytes",
        ),
        (
            "let a = [1]; loop { a += a; }",
            "an array grew past the limit of 100000 items",
        ),
        (
            r#"import "../../anything" as m;"#,
            "import `../../anything` is not allowed",
        ),
        (
            r#"import "/etc/passwd" as m;"#,
            "import `/etc/passwd` is not allowed",
        ),
        (r#"eval("1")"#, "`eval` is switched off"),
    ];
    for (script, message) in cases {
        let ws = Workspace::new();
        ws.write("hostile.rhai", script);
        let out = ws.sandtable(&["run", "hostile.rhai", "--seed", SEED], None);
        assert_eq!(out.code, 1, "{script}: exit {}\n{}", out.code, out.stderr);
        out.no_panic().stderr_has(&[message, "[hostile.rhai:1:"]);
        quick(&out, script);
    }
}

// Guards that the piped prompt outlives a run of bad lines in a row and still plays.
#[test]
fn piped_game_survives_every_bad_line_in_a_row() {
    let bad = [
        "let x = ;",
        "loop {}",
        "fn f(x) { f(x + 1) } f(0)",
        r#"let s = "x"; loop { s += s; }"#,
        "let a = [1]; loop { a += a; }",
        r#"import "../../anything" as m;"#,
        r#"import "/etc/passwd" as m;"#,
        r#"eval("1")"#,
        "melee vikng_1 legionary_1",
        "meele viking_1 legionary_1",
        "roll 3d",
    ];
    let mut input = String::new();
    for line in bad {
        input.push_str(line);
        input.push('\n');
    }
    input.push_str("melee viking_1 legionary_1\n");
    let out = sandtable(&["play", "--seed", "3"], Some(&input));
    out.expect_code(1);
    // Eleven diagnostics, then the melee of seed 3 exactly as in a clean game.
    assert_eq!(
        out.stderr.matches("  × ").count(),
        bad.len(),
        "{}",
        out.stderr
    );
    out.stdout_has(&["> melee viking_1 legionary_1\n\
         viking_1 (Viking warrior) attacks legionary_1 (Legionary)\n\
         \x20 viking_1 is tagged `attacked`\n\
         \x20 viking_1 attacks with 1 die: 1d6kh1 [4] = 4\n\
         \x20 legionary_1 defends with 2 dice: 2d6kh1 [~1, 2] = 2\n\
         viking_1 wins 4 to 2: legionary_1 is killed\n"]);
}

/// The default scenario with a house rule, for the import tests.
fn scenario_with_house_rule(rule: &str) -> String {
    let default = std::fs::read_to_string(common::project_file("scenarios/romans_vs_vikings.yaml"))
        .expect("the default scenario");
    format!("{default}\nhouse_rules: [{rule}]\n")
}

/// A folder `games/` holding `house.yaml` (the default scenario with the house rule `rule`,
/// whose script is `code`) and, when `helper` is set, `helper.rhai` with `fn two()`.
fn games(rule: &str, code: &str, helper: bool) -> Workspace {
    let ws = Workspace::new();
    if helper {
        ws.write("games/helper.rhai", "fn two() { 2 }\n");
    }
    ws.write(&format!("games/{rule}"), code);
    ws.write("games/house.yaml", &scenario_with_house_rule(rule));
    ws
}

/// A house rule whose verb uses a helper script imported beside it.
// Rhai functions see only what they import themselves (a script's top-level imports are not
// kept with its functions), so a rule script imports inside the function that needs it.
const USES_HELPER: &str = "/// Twice two, by the helper.\nfn double_two() {\n    import \"helper\" as h;\n    h::two() * 2\n}\n";

// Guards that the confinement still lets a script import a helper beside the scenario.
#[test]
fn import_of_a_script_beside_the_scenario_works() {
    let ws = games("nothing.rhai", "// no rules\n", true);
    let out = ws.sandtable(
        &["play", "games/house.yaml", "--seed", SEED],
        Some("import \"helper\" as h; print(h::two())\n"),
    );
    out.expect_code(0);
    out.stdout_has(&["> import \"helper\" as h; print(h::two())\n2\n"]);
}

// Guards the same import when the scenario is named without a folder, from its own folder.
#[test]
fn import_beside_a_scenario_named_without_a_folder_works() {
    let ws = games("nothing.rhai", "// no rules\n", true);
    let out = common::sandtable_in(
        &ws.path().join("games"),
        &["play", "house.yaml", "--seed", SEED],
        Some("import \"helper\" as h; print(h::two())\n"),
    );
    out.expect_code(0);
    out.stdout_has(&["\n2\n"]);
}

// Guards that a house rule's verbs can use the modules they import.
#[test]
fn house_rule_verbs_may_use_their_imports() {
    let ws = games("uses_helper.rhai", USES_HELPER, true);
    let out = ws.sandtable(
        &["play", "games/house.yaml", "--seed", SEED],
        Some("print(double_two())\n"),
    );
    out.expect_code(0);
    out.stdout_has(&["> print(double_two())\n4\n"]);
}

// Guards that an import of a script that does not exist says so.
#[test]
fn import_of_a_missing_script_is_reported() {
    check_bad_line(
        r#"import "no_such_helper" as m;"#,
        &["cannot find module `no_such_helper` in the scripts folders"],
    );
}

// Guards the confinement against a symlink inside the scenario's folder pointing out of it.
#[cfg(unix)]
#[test]
fn import_through_a_symlink_out_of_the_folders_is_refused() {
    let outside = Workspace::new();
    outside.write("secret.rhai", "fn secret() { 42 }\n");
    let ws = games("nothing.rhai", "// no rules\n", false);
    std::os::unix::fs::symlink(
        outside.path().join("secret.rhai"),
        ws.path().join("games/link.rhai"),
    )
    .expect("a symlink");
    let out = ws.sandtable(
        &["play", "games/house.yaml", "--seed", SEED],
        Some("import \"link\" as l; print(l::secret())\n"),
    );
    out.expect_code(1).stderr_has(&[
        "import `link` is refused:",
        "link.rhai` is a link that leads outside the scripts folders",
    ]);
    out.stdout_lacks("42");
}

// Guards memory: a script that floods the event log with big strings (each within the string
// limit) must be stopped with a diagnostic, not run the machine out of memory. The binary
// runs under a 400 MB address-space limit (`ulimit -v`), which a normal game never nears.
#[cfg(target_os = "linux")]
#[test]
fn flooding_the_log_is_stopped_before_memory_runs_out() {
    let ws = Workspace::new();
    for (file, code) in [
        (
            "say.rhai",
            r#"let s = "x"; s.pad(1000000, "y"); loop { say(s); }"#,
        ),
        (
            "rename.rhai",
            r#"let v = unit("viking_1"); let s = "x"; s.pad(1000000, "y"); loop { v.name = s; v.name = "x"; }"#,
        ),
    ] {
        ws.write(file, code);
        let project = common::project();
        let out = common::run_program(
            "sh",
            ws.path(),
            &[
                "-c",
                r#"ulimit -v 400000 && exec "$0" "$@""#,
                common::BINARY,
                "--project",
                project.to_str().expect("a UTF-8 path"),
                "run",
                file,
                "--seed",
                SEED,
            ],
            None,
        );
        assert_eq!(
            out.code, 1,
            "{file}: exit {} (-1: killed by a signal, as by the abort on a failed allocation)\n{}",
            out.code, out.stderr
        );
        out.no_panic().stderr_has(&["  × "]);
        assert!(
            !out.stderr.contains("memory allocation"),
            "{file}: {}",
            out.stderr
        );
        quick(&out, file);
    }
}

// Guards the address-space limit used above: an ordinary game fits well within it.
#[cfg(target_os = "linux")]
#[test]
fn ordinary_game_runs_within_400_mb() {
    let ws = Workspace::new();
    let project = common::project();
    let out = common::run_program(
        "sh",
        ws.path(),
        &[
            "-c",
            r#"ulimit -v 400000 && exec "$0" "$@""#,
            common::BINARY,
            "--project",
            project.to_str().expect("a UTF-8 path"),
            "run",
            "-",
            "--seed",
            "3",
        ],
        Some("melee viking_1 legionary_1\n"),
    );
    out.expect_code(0)
        .stdout_has(&["legionary_1 is removed: killed by viking_1"]);
}

// Guards the time budget against a loop of expensive host calls: each call is a single
// operation, so a budget checked only every few thousand operations is checked far too late.
#[test]
fn endless_loop_of_expensive_host_calls_is_stopped_within_the_budget() {
    let ws = Workspace::new();
    ws.write("dice.rhai", r#"loop { roll("10000d6"); }"#);
    let out = ws.sandtable(&["run", "dice.rhai", "--seed", SEED], None);
    out.expect_code(1);
    assert!(
        out.stderr.contains("time budget") || out.stderr.contains("script stopped"),
        "{}",
        out.stderr
    );
    quick(&out, "the loop of big rolls");
}

// Guards that a host call cannot be made arbitrarily expensive: decks are bounded.
#[test]
fn a_path_cut_into_too_many_steps_is_refused() {
    let ws = Workspace::new();
    ws.write(
        "path.rhai",
        r#"loop { sample_path(point(0, 0), point(40, 40), 1000000000, ["woods"]); }"#,
    );
    let out = ws.sandtable(&["run", "path.rhai", "--seed", SEED], None);
    out.expect_code(1)
        .stderr_has(&["a path may be looked at in at most 100000 steps"]);
    quick(&out, "the loop of sample_path calls");
}

#[test]
fn huge_decks_are_refused() {
    let ws = Workspace::new();
    ws.write(
        "decks.rhai",
        r#"let s = "AS"; s.pad(900000, " AS"); loop { new_deck("x", s); }"#,
    );
    let out = ws.sandtable(&["run", "decks.rhai", "--seed", SEED], None);
    out.expect_code(1)
        .stderr_has(&["a deck holds at most 1000 cards"]);
    quick(&out, "the loop of new_deck calls");
}
