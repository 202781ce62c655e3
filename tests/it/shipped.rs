//! sandtable from any folder: the rulesets and scenarios shipped in the binary, a scenario
//! named by its path from the project or by its bare name, `list`, and a project of the
//! player's own taking precedence. Run through the real binary, from temporary folders
//! outside the repository, with a temporary home folder.

use crate::common;

use std::path::Path;

use common::{BINARY, Output, Workspace, run_program};

/// Runs the binary in `dir` as a newcomer would: no `--project`, no `SANDTABLE_HOME`, no
/// `SANDTABLE_DATA`, and `home` as the home folder (so the data folder is under it).
fn newcomer(dir: &Path, home: &Path, args: &[&str], stdin: Option<&str>) -> Output {
    let home = format!("HOME={}", home.display());
    let mut all = vec![
        "-u",
        "SANDTABLE_DATA",
        "-u",
        "XDG_DATA_HOME",
        home.as_str(),
        BINARY,
    ];
    all.extend_from_slice(args);
    run_program("env", dir, &all, stdin)
}

/// An empty folder and a home folder, both temporary and outside the repository.
fn empty_folder_and_home() -> (tempfile::TempDir, tempfile::TempDir) {
    let dir = tempfile::tempdir().expect("a folder");
    let home = tempfile::tempdir().expect("a folder");
    assert!(
        !dir.path().starts_with(env!("CARGO_MANIFEST_DIR")),
        "the temporary folder is inside the repository"
    );
    (dir, home)
}

// Guards the first evening: from an empty folder with no project, a shipped scenario plays
// by its bare name (`play`, `battle`, `sim`, `check`, `odds --action`), and its path from the
// project works too ("no such file" outside the clone, even for the scenario's own
// `sandtable play scenarios/...` line).
#[test]
fn a_shipped_scenario_plays_by_name_from_an_empty_folder_without_a_project() {
    let (dir, home) = empty_folder_and_home();
    let run = |args: &[&str], stdin: Option<&str>| newcomer(dir.path(), home.path(), args, stdin);
    run(
        &["play", "sint_edgehill_lane", "--seed", "1"],
        Some(":units\n"),
    )
    .expect_code(0)
    .stdout_has(&["The lane below Edgehill"]);
    run(
        &["play", "scenarios/sint_edgehill_lane.yaml", "--seed", "1"],
        Some(":seed\n"),
    )
    .expect_code(0)
    .stdout_has(&["seed 1"]);
    run(&["battle", "romans_vs_vikings", "--seed", "1"], None).expect_code(0);
    run(
        &["sim", "romans_vs_vikings", "--runs", "2", "--seed", "1"],
        None,
    )
    .expect_code(0);
    run(&["check", "sint_edgehill_lane"], None)
        .expect_code(0)
        .stdout_has(&["sint_edgehill_lane.yaml (scenario"]);
    run(
        &[
            "odds",
            "--action",
            "melee viking_1 legionary_1",
            "--scenario",
            "romans_vs_vikings",
        ],
        None,
    )
    .expect_code(0);
    // The shipped files were unpacked into the data folder under the home folder, and the
    // empty folder is still empty.
    let listed = run(&["--json", "list"], None);
    listed.expect_code(0);
    let report: serde_json::Value = serde_json::from_str(&listed.stdout).expect("JSON");
    assert_eq!(report["shipped"], true, "{report}");
    let project = report["project"].as_str().expect("a path");
    assert!(Path::new(project).starts_with(home.path()), "{project}");
    let left: Vec<_> = std::fs::read_dir(dir.path()).expect("the folder").collect();
    assert!(left.is_empty(), "{left:?}");
}

// Guards that a scenario's path is tried from the current folder first, then from the
// project (`--project`), and that `:load` (`:help`'s own `:load scenarios/...` example)
// finds it the same way.
#[test]
fn a_scenario_path_is_tried_from_the_current_folder_then_from_the_project() {
    let ws = Workspace::new();
    ws.sandtable(
        &["battle", "scenarios/sint_edgehill_lane.yaml", "--seed", "1"],
        None,
    )
    .expect_code(0);
    ws.sandtable(
        &["play", "--seed", "1"],
        Some(":load scenarios/hoplites_vs_persians.yaml\n:units\n"),
    )
    .expect_code(0)
    .stdout_has(&["The pass at Thermopylae"]);
    ws.sandtable(&["play", "--seed", "1"], Some(":load sint_trench_raid\n"))
        .expect_code(0)
        .stdout_has(&["The raid on the Wundt-Werk"]);
    // A file of that path in the current folder comes first.
    let own = std::fs::read_to_string(common::project_file("scenarios/romans_vs_vikings.yaml"))
        .expect("a scenario")
        .replacen("name: Romans against Vikings", "name: My own skirmish", 1);
    ws.write("scenarios/romans_vs_vikings.yaml", &own);
    ws.sandtable(&["play", "scenarios/romans_vs_vikings.yaml"], Some(""))
        .expect_code(0)
        .stdout_has(&["My own skirmish"]);
}

// Guards the refusal of a scenario that is nowhere: it says where it was looked for, with a
// did-you-mean among the project's scenarios.
#[test]
fn a_scenario_found_nowhere_is_refused_with_a_did_you_mean() {
    let ws = Workspace::new();
    ws.sandtable(&["battle", "sint_edgehill_lan"], None)
        .expect_code(1)
        .stderr_has(&[
            "cannot read `sint_edgehill_lan`: there is no such file in the current folder",
            "nor in the project",
            "did you mean `sint_edgehill_lane`?",
        ]);
}

// Guards `list`: a line for each ruleset with its title, and one for each scenario with its
// name, ruleset and title.
#[test]
fn list_shows_each_ruleset_and_scenario_on_a_line() {
    let out = Workspace::new().sandtable(&["list"], None);
    out.expect_code(0);
    let line = |name: &str| {
        out.stdout
            .lines()
            .find(|l| l.split_whitespace().next() == Some(name))
            .unwrap_or_else(|| panic!("no line for `{name}`:\n{}", out.stdout))
            .to_string()
    };
    assert!(line("soldiers_in_time").contains("Soldiers in Time"));
    let edgehill = line("sint_edgehill_lane");
    assert!(edgehill.contains("soldiers_in_time"), "{edgehill}");
    assert!(
        edgehill.contains("The lane below Edgehill: October 1642"),
        "{edgehill}"
    );
    let shipped = std::fs::read_dir(common::project_file("scenarios"))
        .expect("the scenarios")
        .count();
    let scenario_lines = out
        .stdout
        .lines()
        .skip_while(|l| !l.starts_with("scenarios"))
        .count();
    assert_eq!(scenario_lines, shipped + 1, "{}", out.stdout);
}

/// Copies a folder and everything in it.
fn copy_folder(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("a folder");
    for entry in std::fs::read_dir(from).expect("a folder") {
        let path = entry.expect("an entry").path();
        let dest = to.join(path.file_name().expect("a name"));
        if path.is_dir() {
            copy_folder(&path, &dest);
        } else {
            std::fs::copy(&path, &dest).expect("a copy");
        }
    }
}

// Guards that a project of the player's own takes precedence over what is shipped: found
// from the current folder, its scenarios are the ones listed and played by name.
#[test]
fn a_project_of_ones_own_takes_precedence_over_the_shipped_one() {
    let (dir, home) = empty_folder_and_home();
    let ws = dir.path();
    copy_folder(&common::project().join("scripts"), &ws.join("scripts"));
    std::fs::create_dir_all(ws.join("scenarios")).expect("a folder");
    let own = std::fs::read_to_string(common::project_file("scenarios/romans_vs_vikings.yaml"))
        .expect("a scenario")
        .replacen("name: Romans against Vikings", "name: My own skirmish", 1);
    std::fs::write(ws.join("scenarios/skirmish.yaml"), own).expect("a scenario");
    // A file that cannot be read is listed with the reason, and the rest still are.
    std::fs::write(ws.join("scenarios/broken.yaml"), "name: [\n").expect("a scenario");
    let listed = newcomer(ws, home.path(), &["list"], None);
    listed.expect_code(0);
    listed.stdout_has(&[
        "skirmish",
        "My own skirmish",
        "in the project",
        "broken",
        "(cannot be read: ",
    ]);
    listed.stdout_lacks("sint_edgehill_lane");
    newcomer(
        ws,
        home.path(),
        &["battle", "skirmish", "--seed", "1"],
        None,
    )
    .expect_code(0);
}
