//! Files shared between strangers (scenarios, house rules, saves, journals) and the files
//! sandtable writes: nothing outside the allowed folders is read, no file but the one named
//! is written or left behind, and no file makes the program panic or hang.

use crate::common;

use std::path::{Path, PathBuf};

use common::Workspace;

const SEED: &str = "7";

/// The journals in a workspace's data folder (`.data`, as the helpers set it), oldest first.
fn journals(ws: &Workspace) -> Vec<PathBuf> {
    let mut all: Vec<PathBuf> = std::fs::read_dir(ws.path().join(".data/journals"))
        .map(|d| d.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    all.sort();
    all
}

/// The default scenario's text.
fn default_scenario() -> String {
    std::fs::read_to_string(common::project_file("scenarios/romans_vs_vikings.yaml"))
        .expect("the default scenario")
}

/// A scenario whose third line has a mistake past column 70,000.
fn wide_scenario() -> String {
    format!(
        "name: wide\nruleset: playmobil\ndescription: \"{}\" junk: [\n",
        "a".repeat(70_000)
    )
}

// Guards the YAML error past column 65,535: miette panicked drawing its label ("Formatting
// argument out of range") in `check`, `play`, `:load` (killing the session) and `replay`.
#[test]
fn yaml_error_far_along_a_line_is_reported_without_a_panic() {
    let ws = Workspace::new();
    ws.write("wide.yaml", &wide_scenario());
    let expect = [
        "invalid trailing content after double-quoted scalar",
        "[wide.yaml:3:70017]",
    ];
    let out = ws.sandtable(&["check", "wide.yaml"], None);
    out.expect_code(1).stderr_has(&expect);
    assert!(
        out.stderr.len() < 4_000,
        "the whole line is shown:\n{}",
        out.stderr
    );
    ws.sandtable(&["play", "wide.yaml"], None)
        .expect_code(1)
        .stderr_has(&expect);
    let out = ws.sandtable(
        &["play", "--seed", SEED],
        Some(":load wide.yaml\nroll 1d6\n"),
    );
    // A piped session goes on after an error, and ends with status 1 for it.
    out.expect_code(1)
        .stderr_has(&expect)
        .stdout_has(&["> roll 1d6\n  1d6: ["]);
    let journal = journals(&ws).pop().expect("a journal");
    // The replay reads only files of the project, which this one is not in: it says so, and
    // plays on as the session did.
    let replayed = ws.sandtable(&["replay", journal.to_str().expect("utf-8")], None);
    replayed
        .expect_code(1)
        .stderr_has(&["`wide.yaml` is not a file of the project"]);
    assert_eq!(replayed.stdout, out.stdout);
    let json = ws.sandtable(&["--json", "check", "wide.yaml"], None);
    json.expect_code(1);
    assert!(
        json.stderr
            .contains(r#""file":"wide.yaml","line":3,"column":70017"#),
        "{}",
        json.stderr
    );
}

/// What a file outside every allowed folder holds: it must never be printed.
const SECRET: &str = "SECRET_MARKER_7351 = not a script at all\n";

/// A folder outside the workspace holding `secret.rhai` and `secret.yaml` (both [`SECRET`]).
fn outside() -> Workspace {
    let out = Workspace::new();
    out.write("secret.rhai", SECRET);
    out.write("secret.yaml", SECRET);
    out
}

#[cfg(unix)]
fn symlink(target: &Path, link: &Path) {
    std::os::unix::fs::symlink(target, link).expect("a symlink");
}

#[track_caller]
fn never_shows_the_secret(out: &common::Output) {
    assert!(
        !out.stdout.contains("SECRET_MARKER") && !out.stderr.contains("SECRET_MARKER"),
        "a file outside was read:\n{}\n{}",
        out.stdout,
        out.stderr
    );
}

// Guards house rules against a symlink out of the scenario's folder: imports refused one,
// house rules loaded and ran it, and showed its first lines in the syntax error (a link to
// `/etc/passwd`), in `check` and in `play`.
#[cfg(unix)]
#[test]
fn house_rule_linked_from_outside_the_scenario_folder_is_refused_unread() {
    let secret = outside();
    let ws = Workspace::new();
    ws.write(
        "games/house.yaml",
        &format!("{}\nhouse_rules: [evil.rhai]\n", default_scenario()),
    );
    symlink(
        &secret.path().join("secret.rhai"),
        &ws.path().join("games/evil.rhai"),
    );
    let expect = [
        "house rule `evil.rhai` is a link that leads outside the scenario's folder; it was not read",
    ];
    let out = ws.sandtable(&["check", "games/house.yaml"], None);
    out.expect_code(1).stderr_has(&expect);
    never_shows_the_secret(&out);
    let out = ws.sandtable(
        &["play", "games/house.yaml", "--seed", SEED],
        Some("roll 1d6\n"),
    );
    out.expect_code(1).stderr_has(&expect);
    never_shows_the_secret(&out);
    // A link that stays inside the folder is a house rule like any other.
    let ws = Workspace::new();
    ws.write(
        "games/house.yaml",
        &format!("{}\nhouse_rules: [near.rhai]\n", default_scenario()),
    );
    ws.write("games/real.rhai", "fn house_two() { 2 }\n");
    symlink(Path::new("real.rhai"), &ws.path().join("games/near.rhai"));
    ws.sandtable(
        &["play", "games/house.yaml", "--seed", SEED],
        Some("print(house_two())\n"),
    )
    .expect_code(0)
    .stdout_has(&["\n2\n"]);
}

// Guards `check` of a folder: a script in it that is a link out was compiled, and its text
// shown in the syntax error.
#[cfg(unix)]
#[test]
fn check_of_a_folder_names_a_link_out_and_does_not_read_it() {
    let secret = outside();
    let ws = Workspace::new();
    ws.write("mine/good.rhai", "fn a() { 1 }\n");
    symlink(
        &secret.path().join("secret.rhai"),
        &ws.path().join("mine/evil.rhai"),
    );
    symlink(
        &secret.path().join("secret.yaml"),
        &ws.path().join("mine/evil.yaml"),
    );
    let out = ws.sandtable(&["check", "mine"], None);
    out.expect_code(1).stderr_has(&[
        "`mine/evil.rhai` is a link that leads outside the folder checked; it was not read",
        "`mine/evil.yaml` is a link that leads outside the folder checked; it was not read",
    ]);
    out.stdout_has(&["ok   mine/good.rhai", "3 files checked, 2 problems"]);
    never_shows_the_secret(&out);
}

// Guards the directory walks against symlink loops: `check` went round `up -> ..` until the
// path was too long, and two such links made it exponential (a hang); `play` and its journal
// walk the ruleset's folder the same way. The walk follows no link to a folder.
#[cfg(unix)]
#[test]
fn symlink_loops_in_scripts_folders_do_not_hang_check_or_play() {
    let ws = Workspace::new();
    // A project of our own, a copy of this one's, with loops in its ruleset's folder.
    copy_dir(
        &common::project().join("scripts"),
        &ws.path().join("proj/scripts"),
    );
    copy_dir(
        &common::project().join("scenarios"),
        &ws.path().join("proj/scenarios"),
    );
    let package = ws.path().join("proj/scripts/rulesets/playmobil");
    symlink(Path::new(".."), &package.join("up"));
    symlink(Path::new("."), &package.join("self"));
    symlink(&package, &package.join("abilities/back"));
    let proj = ws.path().join("proj");
    let proj = proj.to_str().expect("utf-8");
    let out = common::run_binary(
        ws.path(),
        &[
            "--project",
            proj,
            "check",
            "proj/scripts/rulesets/playmobil",
        ],
        None,
    );
    out.no_panic();
    assert!(
        out.elapsed < std::time::Duration::from_secs(10),
        "{:?}",
        out.elapsed
    );
    assert!(
        !out.stdout.contains("/up/") && !out.stdout.contains("/self/"),
        "{}",
        out.stdout
    );
    let out = common::run_binary(
        ws.path(),
        &["--project", proj, "play", "--seed", SEED],
        Some("roll 1d6\n:reload\nroll 1d6\n"),
    );
    out.expect_code(0).stdout_has(&["> roll 1d6\n  1d6: ["]);
    assert!(
        out.elapsed < std::time::Duration::from_secs(15),
        "{:?}",
        out.elapsed
    );
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("a folder");
    for e in std::fs::read_dir(from).expect("a folder").flatten() {
        let kind = e.file_type().expect("a kind");
        if kind.is_dir() {
            copy_dir(&e.path(), &to.join(e.file_name()));
        } else if kind.is_file() {
            std::fs::copy(e.path(), to.join(e.file_name())).expect("a copy");
        }
    }
}

/// A save of the default game made in `ws`, as `game.json`; returns its JSON.
fn saved_game(ws: &Workspace) -> serde_json::Value {
    ws.sandtable(
        &["play", "--seed", SEED],
        Some("melee viking_1 legionary_1\n:save game.json\n"),
    )
    .expect_code(0)
    .stdout_has(&["saved to game.json\n"]);
    let text = std::fs::read_to_string(ws.path().join("game.json")).expect("the save");
    serde_json::from_str(&text).expect("JSON")
}

// Guards `play --open` of a stranger's save: its `scenario` (and house rules) were read
// from anywhere, and a save naming `/etc/passwd` printed its lines.
#[cfg(unix)]
#[test]
fn save_naming_files_outside_its_folder_and_the_project_is_refused_unread() {
    let secret = outside();
    let ws = Workspace::new();
    let save = saved_game(&ws);
    // Saved relative to the project, so it opens from anywhere in it.
    assert_eq!(save["scenario"], "scenarios/romans_vs_vikings.yaml");
    let abs = secret.path().join("secret.yaml");
    symlink(&abs, &ws.path().join("linked.yaml"));
    symlink(
        &secret.path().join("secret.rhai"),
        &ws.path().join("linked.rhai"),
    );
    let secret_rule = secret.path().join("secret.rhai");
    let cases: [(&str, &str, &str); 5] = [
        (
            "scenario",
            abs.to_str().expect("utf-8"),
            "a path that leads outside the save's folder and the project; it was not read",
        ),
        (
            "scenario",
            "../../../../../../etc/passwd",
            "a path that leads outside the save's folder and the project; it was not read",
        ),
        (
            "scenario",
            "linked.yaml",
            "the scenario `linked.yaml`, a link that leads outside its folder; it was not read",
        ),
        (
            "house_rules",
            "linked.rhai",
            "the house rule `linked.rhai`, a link that leads outside its folder; it was not read",
        ),
        (
            "house_rules",
            secret_rule.to_str().expect("utf-8"),
            "a path that leads outside the save's folder and the project; it was not read",
        ),
    ];
    for (field, value, message) in cases {
        let mut bad = save.clone();
        bad[field] = if field == "house_rules" {
            serde_json::json!([value])
        } else {
            serde_json::json!(value)
        };
        ws.write("bad.json", &bad.to_string());
        let out = ws.sandtable(&["play", "--open", "bad.json"], Some("roll 1d6\n"));
        out.expect_code(1).stderr_has(&[message]);
        never_shows_the_secret(&out);
    }
    ws.sandtable(&["play", "--open", "game.json"], Some("roll 1d6\n"))
        .expect_code(0)
        .stdout_has(&["opened game.json: turn 1"]);
}

// Guards that a save beside its scenario names it relatively, and opens from elsewhere.
#[test]
fn save_beside_its_scenario_opens_from_another_folder() {
    let ws = Workspace::new();
    ws.write(
        "games/house.yaml",
        &format!("{}\nhouse_rules: [house/two.rhai]\n", default_scenario()),
    );
    ws.write("games/house/two.rhai", "fn house_two() { 2 }\n");
    ws.sandtable(
        &["play", "games/house.yaml", "--seed", SEED],
        Some(":save games/game.json\n"),
    )
    .expect_code(0);
    let text = std::fs::read_to_string(ws.path().join("games/game.json")).expect("the save");
    let save: serde_json::Value = serde_json::from_str(&text).expect("JSON");
    assert_eq!(save["scenario"], "house.yaml");
    assert_eq!(save["house_rules"], serde_json::json!(["house/two.rhai"]));
    common::sandtable_in(
        &ws.path().join("games/house"),
        &["play", "--open", "../game.json"],
        Some("print(house_two())\n"),
    )
    .expect_code(0)
    .stdout_has(&["\n2\n"]);
}

/// The names in a folder, sorted.
fn names(dir: &Path) -> Vec<String> {
    let mut all: Vec<String> = std::fs::read_dir(dir)
        .expect("a folder")
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    all.sort();
    all
}

// Guards `:save` against targets that are not files: it renamed its temporary file over
// `/dev/null`, `/dev/full` or a FIFO (replacing the special file), and over a symlink.
// Everything here is inside the test's folder, so that a regression cannot replace the
// system's own devices: the device is a node made there (`mknod`, which needs root; without
// it, that case is left out).
#[cfg(unix)]
#[test]
fn save_refuses_a_target_that_is_not_a_regular_file() {
    use std::os::unix::fs::FileTypeExt;
    let ws = Workspace::new();
    std::fs::create_dir(ws.path().join("folder")).expect("a folder");
    let made = |program: &str, args: &[&str]| {
        std::process::Command::new(program)
            .args(args)
            .current_dir(ws.path())
            .stderr(std::process::Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    };
    assert!(made("mkfifo", &["fifo"]));
    // A null device of the test's own (major 1, minor 3 on Linux).
    let device = cfg!(target_os = "linux") && made("mknod", &["-m", "666", "null", "c", "1", "3"]);
    let target = ws.write("target.json", "mine\n");
    symlink(&target, &ws.path().join("link.json"));
    let before = names(ws.path());
    let out = ws.sandtable(
        &["play", "--seed", SEED],
        Some(":save null\n:save fifo\n:save folder\n:save .\n:save link.json\n:save missing/game.json\n"),
    );
    out.expect_code(1).stderr_has(&[
        "cannot save to `fifo`: it is a FIFO (a named pipe), not a file",
        "cannot save to `folder`: it is a folder, not a file",
        "cannot save to `.`: it is a folder, not a file",
        "cannot save to `link.json`: it is a symbolic link (name the file itself), not a file",
        "cannot save to `missing/game.json`: there is no folder `missing`",
    ]);
    if device {
        out.stderr_has(&["cannot save to `null`: it is a device, not a file"]);
        let kind = std::fs::symlink_metadata(ws.path().join("null"))
            .expect("the device")
            .file_type();
        assert!(kind.is_char_device(), "the device was replaced");
    }
    let fifo = ws.path().join("fifo");
    assert!(
        std::fs::symlink_metadata(&fifo)
            .expect("the fifo")
            .file_type()
            .is_fifo()
    );
    assert!(
        std::fs::symlink_metadata(ws.path().join("link.json"))
            .expect("the link")
            .file_type()
            .is_symlink()
    );
    assert_eq!(
        std::fs::read_to_string(&target).expect("the target"),
        "mine\n"
    );
    // Nothing left behind (the data folder, `.data`, was made by the run).
    let after: Vec<String> = names(ws.path())
        .into_iter()
        .filter(|n| n != ".data")
        .collect();
    let before: Vec<String> = before.into_iter().filter(|n| n != ".data").collect();
    assert_eq!(after, before);
}

// Guards the temporary file: `NAME.partial` followed a symlink planted at that name and
// overwrote its target, and a failed save left it behind.
#[cfg(unix)]
#[test]
fn save_writes_through_a_fresh_temporary_file_and_leaves_nothing_behind() {
    let ws = Workspace::new();
    let victim = ws.write("victim.txt", "untouched\n");
    symlink(&victim, &ws.path().join("game.json.partial"));
    let out = ws.sandtable(
        &["play", "--seed", SEED],
        Some(":save game.json\n:save game.json\n"),
    );
    out.expect_code(0);
    assert_eq!(
        std::fs::read_to_string(&victim).expect("the victim"),
        "untouched\n"
    );
    let after: Vec<String> = names(ws.path())
        .into_iter()
        .filter(|n| n != ".data")
        .collect();
    assert_eq!(after, ["game.json", "game.json.partial", "victim.txt"]);
    assert!(
        std::fs::read_to_string(ws.path().join("game.json"))
            .expect("the save")
            .contains("\"format\"")
    );
}

// Guards `:save s 2.json`, which saved to `s` and ignored the rest.
#[test]
fn save_with_more_than_one_word_is_an_error() {
    let ws = Workspace::new();
    let out = ws.sandtable(
        &["play", "--seed", SEED],
        Some(":save s 2.json\n:save \"s 2.json\"\n"),
    );
    out.expect_code(1).stderr_has(&[
        "`:save` takes one file name",
        "write a name with spaces in double quotes: `:save \"s 2.json\"`",
    ]);
    out.stdout_has(&["saved to s 2.json\n"]);
    assert!(!ws.path().join("s").exists());
    assert!(ws.path().join("s 2.json").is_file());
}

// Guards reading a FIFO named as a scenario or found in a folder checked: `check` blocked
// on it for ever.
#[cfg(unix)]
#[test]
fn a_fifo_among_the_files_is_refused_not_read() {
    let ws = Workspace::new();
    std::fs::create_dir(ws.path().join("mine")).expect("a folder");
    assert!(
        std::process::Command::new("mkfifo")
            .arg(ws.path().join("mine/pipe.yaml"))
            .status()
            .expect("mkfifo")
            .success()
    );
    let out = ws.sandtable(&["check", "mine"], None);
    out.expect_code(1)
        .stderr_has(&["cannot read `mine/pipe.yaml`: it is a FIFO (a named pipe), not a file"]);
    ws.sandtable(&["play", "mine/pipe.yaml"], None)
        .expect_code(1)
        .stderr_has(&["cannot read `mine/pipe.yaml`: it is a FIFO (a named pipe), not a file"]);
}

// Guards a journal that cannot be written: the game went on silently, and `play --resume`
// later failed with "it is empty". Here the data folder holds a file named `journals`.
#[test]
fn journal_folder_that_cannot_be_made_is_warned_of_and_the_game_goes_on() {
    let ws = Workspace::new();
    ws.write(".data/journals", "not a folder\n");
    let out = ws.sandtable(&["play", "--seed", SEED], Some("roll 1d6\nroll 2d6\n"));
    out.expect_code(0)
        .stdout_has(&["> roll 1d6\n  1d6: [", "> roll 2d6\n  2d6: ["])
        .stderr_has(&["warning: no journal is kept: the folder", "cannot be made"]);
    assert_eq!(out.stderr.matches("warning:").count(), 1, "{}", out.stderr);
}

// Guards a journal that stops being writable mid-game (a full disk; here the file size limit
// of `ulimit -f`, with its signal ignored so the write fails as on a full disk): warned of at
// once and once, and the game goes on.
#[cfg(target_os = "linux")]
#[test]
fn journal_that_fails_mid_game_is_warned_of_once_and_the_game_goes_on() {
    let ws = Workspace::new();
    let project = common::project();
    let long = format!("// {}\n", "x".repeat(5000));
    let input = format!("roll 1d6\n{long}roll 2d6\n{long}roll 3d6\n");
    let out = common::run_program(
        "sh",
        ws.path(),
        &[
            "-c",
            // 4 blocks: 2 KiB (dash) or 4 KiB (bash); a journal's header is smaller, each
            // long line larger.
            r#"trap '' XFSZ; ulimit -f 4 && exec "$0" "$@""#,
            common::BINARY,
            "--project",
            project.to_str().expect("a UTF-8 path"),
            "play",
            "--seed",
            SEED,
        ],
        Some(&input),
    );
    out.expect_code(0)
        .stdout_has(&["> roll 3d6\n  3d6: ["])
        .stderr_has(&["cannot be written (file too large): the game goes on"]);
    assert_eq!(out.stderr.matches("warning:").count(), 1, "{}", out.stderr);
}

// Guards a journal with a garbled middle line: `play --resume` replayed the lines before it
// and said nothing; `replay` too. Now the line is named, with what is wrong, the game stands
// as far as it got, and the lines played on go to a new journal after the good ones.
#[test]
fn damaged_journal_line_is_named_and_the_session_stops_there() {
    let ws = Workspace::new();
    ws.sandtable(
        &["play", "--seed", SEED],
        Some("roll 1d6\nroll 2d6\nroll 3d6\n"),
    )
    .expect_code(0);
    let journal = journals(&ws).pop().expect("a journal");
    let text = std::fs::read_to_string(&journal).expect("the journal");
    let mut lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[2], r#"{"line":"roll 2d6"}"#);
    lines[2] = r#"{"line":"roll 2d"#;
    std::fs::write(&journal, format!("{}\n", lines.join("\n"))).expect("a damaged journal");
    let name = journal.to_str().expect("utf-8");
    let stopped = "line 3 of the journal";
    let what = "is damaged (it is cut short): the session stops there, as far as line 2";

    let replayed = ws.sandtable(&["replay", name], None);
    replayed
        .expect_code(1)
        .stderr_has(&[stopped, what])
        .stdout_has(&["> roll 1d6\n"])
        .stdout_lacks("roll 3d6");

    let resumed = ws.sandtable(&["play", "--resume", name], Some("roll 4d6\n"));
    resumed
        .expect_code(0)
        .stdout_has(&["1 lines replayed", "> roll 4d6\n"])
        .stderr_has(&[stopped, what, "the lines after it are not played"]);
    // The damaged journal is as it was; a new one holds the good lines and the new one.
    assert!(
        std::fs::read_to_string(&journal)
            .expect("the old journal")
            .contains("roll 2d\n")
    );
    let newest = journals(&ws)
        .into_iter()
        .find(|j| *j != journal)
        .expect("a new journal");
    let new = std::fs::read_to_string(&newest).expect("the new journal");
    assert_eq!(
        new.lines().skip(1).collect::<Vec<_>>(),
        [r#"{"line":"roll 1d6"}"#, r#"{"line":"roll 4d6"}"#]
    );
    let again = ws.sandtable(
        &["play", "--resume", newest.to_str().expect("utf-8")],
        Some(""),
    );
    again.expect_code(0).stdout_has(&["2 lines replayed"]);
    assert!(again.stderr.is_empty(), "{}", again.stderr);
}

/// Panics unless standard error holds `needle`, however miette wrapped it (a long path may
/// be broken anywhere): spaces and continuation bars are left out of both.
#[track_caller]
fn says(out: &common::Output, needle: &str) {
    let bare = |t: &str| -> String {
        t.chars()
            .filter(|c| !c.is_whitespace() && *c != '│')
            .collect()
    };
    assert!(
        bare(&out.stderr).contains(&bare(needle)),
        "stderr lacks {needle:?}\n--- stderr ---\n{}\n--- stdout ---\n{}",
        out.stderr,
        out.stdout
    );
}

/// A copy of this project in `ws/proj` (its scripts and scenarios), to plant links in; its
/// path as a string.
fn project_copy(ws: &Workspace) -> String {
    let proj = ws.path().join("proj");
    copy_dir(&common::project().join("scripts"), &proj.join("scripts"));
    copy_dir(
        &common::project().join("scenarios"),
        &proj.join("scenarios"),
    );
    proj.to_str().expect("utf-8").to_string()
}

/// The default scenario of `ruleset` (the default one's table, under another ruleset's name),
/// written as `proj/scenarios/NAME.yaml`.
fn scenario_of(ws: &Workspace, name: &str, ruleset: &str) {
    let text = default_scenario().replace("ruleset: playmobil", &format!("ruleset: {ruleset}"));
    ws.write(&format!("proj/scenarios/{name}.yaml"), &text);
}

/// A copy of the `playmobil` package inside the project `proj/` of `ws`, named `evil`, whose
/// parts a test then links out; its folder.
fn evil_package(ws: &Workspace) -> std::path::PathBuf {
    let evil = ws.path().join("proj/scripts/rulesets/evil");
    copy_dir(&common::project().join("scripts/rulesets/playmobil"), &evil);
    evil
}

/// Runs the binary on the project `proj` in `ws`.
fn in_project(ws: &Workspace, proj: &str, args: &[&str], stdin: Option<&str>) -> common::Output {
    let mut all = vec!["--project", proj];
    all.extend_from_slice(args);
    common::run_binary(ws.path(), &all, stdin)
}

/// Every way a ruleset is looked up or loaded (`play` of its scenario, `check` of that
/// scenario and of the package, `hooks`, `list`, `schema`) refuses `link` (under `proj/`) as
/// a link that leads outside the project, and shows nothing of what it leads to.
#[cfg(unix)]
#[track_caller]
fn every_ruleset_entry_refuses(ws: &Workspace, proj: &str, ruleset: &str, link: &str) {
    let expect = format!(
        "`{proj}/{link}` is a link that leads outside the project `{proj}`; it was not read"
    );
    let runs: [(&[&str], Option<&str>); 4] = [
        (&["play", "evil", "--seed", SEED], Some("roll 1d6\n")),
        (&["check", "evil"], None),
        (&["hooks", ruleset], None),
        (&["schema", "scenario"], None),
    ];
    for (args, stdin) in runs {
        let out = in_project(ws, proj, args, stdin);
        out.expect_code(1);
        says(&out, &expect);
        never_shows_the_secret(&out);
    }
    let package = format!("{proj}/scripts/rulesets/{ruleset}");
    let out = in_project(ws, proj, &["check", &package], None);
    out.no_panic();
    assert_ne!(out.code, 0, "{}", out.stdout);
    never_shows_the_secret(&out);
    let out = in_project(ws, proj, &["list"], None);
    out.expect_code(0).stdout_has(&[ruleset]);
    never_shows_the_secret(&out);
    // The shipped game plays on beside it.
    in_project(ws, proj, &["play", "--seed", SEED], Some("roll 1d6\n"))
        .expect_code(0)
        .stdout_has(&["> roll 1d6\n  1d6: ["]);
}

/// A copy of the `playmobil` package outside the project, whose `ruleset.yaml` and first
/// script are [`SECRET`] (so that reading either shows it in a diagnostic).
fn package_outside() -> Workspace {
    let out = Workspace::new();
    copy_dir(
        &common::project().join("scripts/rulesets/playmobil"),
        &out.path().join("pkg"),
    );
    out.write("pkg/ruleset.yaml", SECRET);
    out.write("secret.yaml", SECRET);
    out.write("secret.rhai", SECRET);
    out
}

// Guards a ruleset's `ruleset.yaml` that is a link out of the project: it was read and its
// lines shown in the YAML error (`ln -s /etc/passwd scripts/rulesets/evil/ruleset.yaml`).
#[cfg(unix)]
#[test]
fn ruleset_yaml_linked_from_outside_the_project_is_refused_unread() {
    let secret = package_outside();
    let ws = Workspace::new();
    let proj = project_copy(&ws);
    let yaml = evil_package(&ws).join("ruleset.yaml");
    std::fs::remove_file(&yaml).expect("removed");
    symlink(&secret.path().join("secret.yaml"), &yaml);
    scenario_of(&ws, "evil", "evil");
    every_ruleset_entry_refuses(&ws, &proj, "evil", "scripts/rulesets/evil/ruleset.yaml");
}

// Guards a ruleset's folder that is a link out of the project: its `ruleset.yaml` and scripts
// were read from wherever it led, and shown in diagnostics.
#[cfg(unix)]
#[test]
fn ruleset_folder_linked_from_outside_the_project_is_refused_unread() {
    let secret = package_outside();
    let ws = Workspace::new();
    let proj = project_copy(&ws);
    symlink(
        &secret.path().join("pkg"),
        &ws.path().join("proj/scripts/rulesets/evil"),
    );
    scenario_of(&ws, "evil", "evil");
    every_ruleset_entry_refuses(&ws, &proj, "evil", "scripts/rulesets/evil");
}

// Guards a ruleset's `abilities/` folder that is a link out of the project: the scripts there
// were compiled as its abilities, and a syntax error showed their lines.
#[cfg(unix)]
#[test]
fn abilities_folder_linked_from_outside_the_project_is_refused_unread() {
    let secret = package_outside();
    let ws = Workspace::new();
    let proj = project_copy(&ws);
    let abilities = evil_package(&ws).join("abilities");
    std::fs::remove_dir_all(&abilities).expect("removed");
    symlink(secret.path(), &abilities);
    scenario_of(&ws, "evil", "evil");
    every_ruleset_entry_refuses(&ws, &proj, "evil", "scripts/rulesets/evil/abilities");
}

// Guards `scripts/shared/abilities` that is a link out of the project: a ruleset borrowing an
// ability from it ran the script it led to.
#[cfg(unix)]
#[test]
fn shared_abilities_folder_linked_from_outside_the_project_is_refused_unread() {
    let secret = package_outside();
    let ws = Workspace::new();
    let proj = project_copy(&ws);
    let yaml = evil_package(&ws).join("ruleset.yaml");
    let text = std::fs::read_to_string(&yaml).expect("ruleset.yaml");
    std::fs::write(&yaml, format!("{text}\nshared_abilities: [secret]\n")).expect("written");
    std::fs::create_dir_all(ws.path().join("proj/scripts/shared")).expect("a folder");
    symlink(
        secret.path(),
        &ws.path().join("proj/scripts/shared/abilities"),
    );
    scenario_of(&ws, "evil", "evil");
    every_ruleset_entry_refuses(&ws, &proj, "evil", "scripts/shared/abilities");
}

// Guards the project's own scenarios, found by a bare name (`play evil`) and listed by `list`:
// `scenarios/evil.yaml` linked from outside was read and its lines shown in the YAML error.
#[cfg(unix)]
#[test]
fn project_scenario_linked_from_outside_the_project_is_refused_unread() {
    let secret = package_outside();
    let ws = Workspace::new();
    let proj = project_copy(&ws);
    symlink(
        &secret.path().join("secret.yaml"),
        &ws.path().join("proj/scenarios/evil.yaml"),
    );
    let expect =
        format!("`{proj}/scenarios/evil.yaml` is a link that leads outside the project `{proj}`");
    for args in [
        &["play", "evil"][..],
        &["check", "evil"],
        &["battle", "evil"],
    ] {
        let out = in_project(&ws, &proj, args, Some("roll 1d6\n"));
        out.expect_code(1);
        says(&out, &expect);
        never_shows_the_secret(&out);
    }
    let out = in_project(&ws, &proj, &["list"], None);
    out.expect_code(0).stdout_lacks("evil");
    never_shows_the_secret(&out);
    // The scenarios folder itself linked out: none of its scenarios is listed or found.
    let ws = Workspace::new();
    let proj = project_copy(&ws);
    std::fs::remove_dir_all(ws.path().join("proj/scenarios")).expect("removed");
    std::fs::create_dir(secret.path().join("scenarios")).expect("a folder");
    std::fs::copy(
        secret.path().join("secret.yaml"),
        secret.path().join("scenarios/evil.yaml"),
    )
    .expect("a copy");
    symlink(
        &secret.path().join("scenarios"),
        &ws.path().join("proj/scenarios"),
    );
    // The project itself is refused, naming the link (`Project::at`).
    let out = in_project(&ws, &proj, &["list"], None);
    out.expect_code(1).stdout_lacks("evil");
    says(&out, "is a link that leads outside the project");
    never_shows_the_secret(&out);
    let out = in_project(&ws, &proj, &["play", "evil"], Some("roll 1d6\n"));
    out.expect_code(1);
    never_shows_the_secret(&out);
}

// Guards that links which stay inside the project keep working: a ruleset folder that is a
// link to another package of the project, an `abilities/` linked to another's, a scenario
// linked to another.
#[cfg(unix)]
#[test]
fn links_that_stay_inside_the_project_keep_working() {
    let ws = Workspace::new();
    let proj = project_copy(&ws);
    let rulesets = ws.path().join("proj/scripts/rulesets");
    symlink(Path::new("playmobil"), &rulesets.join("alias"));
    copy_dir(&rulesets.join("playmobil"), &rulesets.join("twin"));
    std::fs::remove_dir_all(rulesets.join("twin/abilities")).expect("removed");
    symlink(
        Path::new("../playmobil/abilities"),
        &rulesets.join("twin/abilities"),
    );
    scenario_of(&ws, "alias", "alias");
    scenario_of(&ws, "twin", "twin");
    symlink(
        Path::new("romans_vs_vikings.yaml"),
        &ws.path().join("proj/scenarios/near.yaml"),
    );
    for name in ["alias", "twin", "near"] {
        in_project(
            &ws,
            &proj,
            &["play", name, "--seed", SEED],
            Some("roll 1d6\n"),
        )
        .expect_code(0)
        .stdout_has(&["> roll 1d6\n  1d6: ["]);
        in_project(&ws, &proj, &["check", name], None).expect_code(0);
    }
    in_project(&ws, &proj, &["hooks", "twin"], None).expect_code(0);
    in_project(&ws, &proj, &["list"], None)
        .expect_code(0)
        .stdout_has(&["alias", "twin", "near"]);
}

/// `save` with `change` made to it, written as `bad.json` and opened: the refusal's words
/// must hold `message`, and say where in the file.
#[track_caller]
fn refuses_changed_save(
    ws: &Workspace,
    save: &serde_json::Value,
    change: impl FnOnce(&mut serde_json::Value),
    message: &str,
) {
    let mut bad = save.clone();
    change(&mut bad);
    ws.write(
        "bad.json",
        &serde_json::to_string_pretty(&bad).expect("JSON"),
    );
    let out = ws.sandtable(&["play", "--open", "bad.json"], Some("roll 1d6\n"));
    out.expect_code(1).stderr_has(&[message, "[bad.json:"]);
}

// Guards a save's decks: a save holding every card twice, or a card its deck never had, was
// opened, and the game played on with cards that were never in it.
#[test]
fn save_with_cards_its_deck_never_had_is_refused_at_the_deck() {
    let ws = Workspace::new();
    ws.write(
        "cards.yaml",
        &format!(
            "{}\ndecks:\n  orders:\n    cards: [AS, 2S, 3S]\n",
            default_scenario()
        ),
    );
    ws.sandtable(
        &["play", "cards.yaml", "--seed", SEED],
        Some("draw orders\n:save game.json\n"),
    )
    .expect_code(0)
    .stdout_has(&["saved to game.json\n"]);
    let text = std::fs::read_to_string(ws.path().join("game.json")).expect("the save");
    let save: serde_json::Value = serde_json::from_str(&text).expect("JSON");
    refuses_changed_save(
        &ws,
        &save,
        |s| {
            let pile = s["decks"]["orders"]["draw_pile"].clone();
            s["decks"]["orders"]["discards"] = pile;
        },
        "more often than the scenario gives it",
    );
    refuses_changed_save(
        &ws,
        &save,
        |s| s["decks"]["orders"]["draw_pile"][0] = "K♥".into(),
        "the `orders` deck holds `K♥`, which is not one of its cards",
    );
    ws.sandtable(&["play", "--open", "game.json"], Some("draw orders\n"))
        .expect_code(0)
        .stdout_has(&["opened game.json: turn 1"]);
}

// Guards a save's abilities: a use of an ability named like a path (`../x`, `/etc/passwd`),
// or of none the ruleset has, was opened and kept.
#[test]
fn save_naming_an_ability_the_ruleset_lacks_is_refused_at_its_name() {
    let ws = Workspace::new();
    let save = saved_game(&ws);
    for ability in ["../x", "/etc/passwd", "testudp"] {
        refuses_changed_save(
            &ws,
            &save,
            |s| {
                s["ability_uses"] = serde_json::json!([{
                    "unit": "viking_1", "ability": ability,
                    "used": 1, "last_used": 1, "active": false, "until": null,
                }]);
            },
            &format!("unknown ability `{ability}`: the ruleset has no ability of that name"),
        );
    }
    refuses_changed_save(
        &ws,
        &save,
        |s| {
            s["ability_uses"] = serde_json::json!([{
                "unit": "nobody", "ability": "testudo",
                "used": 1, "last_used": 1, "active": false, "until": null,
            }]);
        },
        "the use of an ability names unknown unit `nobody`",
    );
}

// Guards a save's phase: one the ruleset does not name was opened, and shown as the phase.
#[test]
fn save_in_a_phase_the_ruleset_does_not_name_is_refused_at_the_phase() {
    let ws = Workspace::new();
    ws.sandtable(
        &["play", "sint_edgehill_lane", "--seed", SEED],
        Some(":save game.json\n"),
    )
    .expect_code(0)
    .stdout_has(&["saved to game.json\n"]);
    let text = std::fs::read_to_string(ws.path().join("game.json")).expect("the save");
    let save: serde_json::Value = serde_json::from_str(&text).expect("JSON");
    refuses_changed_save(
        &ws,
        &save,
        |s| s["phase"] = "shootin".into(),
        "unknown phase `shootin`: the ruleset does not name it",
    );
    refuses_changed_save(
        &ws,
        &save,
        |s| s["phase"] = "../../etc/passwd".into(),
        "unknown phase `../../etc/passwd`",
    );
    ws.sandtable(&["play", "--open", "game.json"], Some("roll 1d6\n"))
        .expect_code(0)
        .stdout_has(&["opened game.json"]);
}

// Guards the project's own folders: `scripts/` or `scenarios/` linked in from outside made
// every ruleset unknown ("the rulesets are: ") or was read from wherever it led; now the
// project is refused at once, naming the link.
#[cfg(unix)]
#[test]
fn project_whose_scripts_or_scenarios_lead_outside_is_refused() {
    let secret = package_outside();
    for folder in ["scripts", "scripts/rulesets", "scenarios"] {
        let ws = Workspace::new();
        let proj = project_copy(&ws);
        let there = ws.path().join("proj").join(folder);
        let moved = secret.path().join(folder.replace('/', "_"));
        std::fs::rename(&there, &moved).expect("moved");
        symlink(&moved, &there);
        let out = in_project(&ws, &proj, &["play", "--seed", SEED], Some("roll 1d6\n"));
        out.expect_code(1);
        says(
            &out,
            &format!("`{proj}/{folder}` is a link that leads outside the project `{proj}`"),
        );
    }
}

// Guards every component of a path a save names: `far/back/house.yaml`, where `far` leads out
// and a link out there leads back in, was followed through the stranger's folder (its real
// path lay inside, so it passed); each folder on the way is now held to the rule.
#[cfg(unix)]
#[test]
fn save_naming_a_path_through_a_link_out_and_back_is_refused() {
    let secret = outside();
    let ws = Workspace::new();
    let save = saved_game(&ws);
    ws.write("games/house.yaml", &default_scenario());
    symlink(secret.path(), &ws.path().join("far"));
    symlink(&ws.path().join("games"), &secret.path().join("back"));
    let mut bad = save.clone();
    bad["scenario"] = "far/back/house.yaml".into();
    ws.write("bad.json", &bad.to_string());
    let out = ws.sandtable(&["play", "--open", "bad.json"], Some("roll 1d6\n"));
    out.expect_code(1).stderr_has(&[
        "the scenario `far/back/house.yaml`, a link that leads outside its folder; it was not read",
    ]);
    // Without the detour, the same scenario opens.
    bad["scenario"] = "games/house.yaml".into();
    ws.write("good.json", &bad.to_string());
    ws.sandtable(&["play", "--open", "good.json"], Some("roll 1d6\n"))
        .expect_code(0)
        .stdout_has(&["opened good.json: turn 1"]);
}
