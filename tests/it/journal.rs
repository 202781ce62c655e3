//! Session journals: `play --resume` and `sandtable replay`.

use crate::common;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Stdio;

/// Runs the binary with its data folder (where journals go) in `data`, in that folder too (so
/// a file a line names, `:save game.json`, is written there).
fn run(data: &Path, args: &[&str], stdin: &str) -> (String, String, i32) {
    run_in(data, data, args, stdin)
}

/// Runs the binary in the folder `dir`, with its data folder in `data`.
fn run_in(dir: &Path, data: &Path, args: &[&str], stdin: &str) -> (String, String, i32) {
    run_project(&common::project(), dir, data, args, stdin)
}

/// Runs the binary in the project `project`, in the folder `dir`, with its data folder in
/// `data`.
fn run_project(
    project: &Path,
    dir: &Path,
    data: &Path,
    args: &[&str],
    stdin: &str,
) -> (String, String, i32) {
    let mut child = common::binary_command(project, args)
        .current_dir(dir)
        .env("SANDTABLE_DATA", data)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(stdin.as_bytes())
        .expect("input");
    let out = child.wait_with_output().expect("the binary ends");
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code().unwrap_or(-1),
    )
}

fn journals(data: &Path) -> Vec<PathBuf> {
    let mut all: Vec<PathBuf> = std::fs::read_dir(data.join("journals"))
        .expect("a journal folder")
        .map(|e| e.expect("an entry").path())
        .collect();
    all.sort();
    all
}

/// A temporary folder (a data folder, a project, a place to run in).
fn folder() -> tempfile::TempDir {
    tempfile::tempdir().expect("a folder")
}

/// The journal written last in the data folder `data`.
fn last_journal(data: &Path) -> PathBuf {
    journals(data).pop().expect("a journal")
}

/// `play --seed SEED` of the default scenario with the data folder `data`, typing `stdin`.
fn play(data: &Path, seed: &str, stdin: &str) -> (String, String, i32) {
    run(data, &["play", "--seed", seed], stdin)
}

/// `play --resume` of the last session of the data folder `data`, typing `stdin` after it.
fn resume(data: &Path, stdin: &str) -> (String, String, i32) {
    run(data, &["play", "--resume"], stdin)
}

/// `replay JOURNAL` with the data folder `data`, run in it.
fn replay(data: &Path, journal: &Path) -> (String, String, i32) {
    run(data, &["replay", journal.to_str().expect("utf-8")], "")
}

const GAME: &str = "melee viking_1 legionary_1\nmelee viking_2 legionary_2\nroll 3d6\n";

// Guards "sandtable replay JOURNAL reproduces it exactly": the same bytes as the session.
#[test]
fn replay_matches_the_original_byte_for_byte() {
    let data = folder();
    let (original, _, code) = play(data.path(), "3", GAME);
    assert_eq!(code, 0);
    let journal = last_journal(data.path());
    let (replayed, warnings, code) = replay(data.path(), &journal);
    assert_eq!(code, 0);
    assert_eq!(replayed, original);
    assert!(warnings.is_empty(), "{warnings}");
}

// Guards "play --resume continues a session that crashed or was killed, losing nothing": a
// resumed session goes on exactly as the uninterrupted one.
#[test]
fn resumed_session_goes_on_as_if_never_stopped() {
    let data = folder();
    let (whole, _, _) = play(data.path(), "3", &format!("{GAME}roll 3d6\n"));
    let data = folder();
    let _ = play(data.path(), "3", GAME);
    let (resumed, _, code) = resume(data.path(), "roll 3d6\n");
    assert_eq!(code, 0);
    assert!(resumed.starts_with("resumed "), "{resumed}");
    assert!(resumed.contains("3 lines replayed"), "{resumed}");
    let last = |s: &str| s.lines().last().expect("a line").to_string();
    assert_eq!(last(&resumed), last(&whole));
}

// A replayed `:open` read the save as the file held it at the end of the session, not as it
// was saved when the line was played: after `:save`, a roll, `:open` and another `:save` of
// the same file, the replay rolled other dice. Found by `a_journal_replays_the_same_game`.
#[test]
fn replay_opens_a_save_as_it_was_saved_then() {
    let data = folder();
    let game = ":save game.json\nroll 3d6\n:open game.json\nroll 2d6\n:save game.json\n:log 3\n";
    let (original, _, code) = play(data.path(), "1", game);
    assert_eq!(code, 0);
    let journal = last_journal(data.path());
    let (replayed, _, code) = replay(data.path(), &journal);
    assert_eq!(code, 0);
    assert_eq!(replayed, original);
}

// `play --resume` skipped the `:open` lines it replayed: the resumed game still had the roll
// that opening the save had taken back.
#[test]
fn resume_opens_the_saves_the_session_opened() {
    let data = folder();
    let game = ":save game.json\nroll 3d6\n:open game.json\n";
    let (_, _, code) = play(data.path(), "1", game);
    assert_eq!(code, 0);
    let (resumed, _, code) = resume(data.path(), ":log 3\n");
    assert_eq!(code, 0);
    assert!(resumed.contains("3 lines replayed"), "{resumed}");
    assert!(
        !resumed.contains("3d6"),
        "the roll undone by `:open` is back:\n{resumed}"
    );
}

// `play --resume` printed the dice question and answer of every manual roll it replayed,
// though it replays quietly: only its one line of summary, then the prompt, should show.
#[test]
fn resume_replays_manual_dice_quietly_and_keeps_asking() {
    let data = folder();
    let game = ":dice manual\nmelee viking_1 legionary_1\n4\n2 6\n";
    let (played, _, code) = play(data.path(), "1", game);
    assert_eq!(code, 0, "{played}");
    assert!(played.contains("viking_1 attacks with 1 die"), "{played}");
    let (resumed, _, code) = resume(data.path(), "roll(\"1d6\", \"after\")\n5\n");
    assert_eq!(code, 0, "{resumed}");
    assert!(resumed.starts_with("resumed "), "{resumed}");
    assert!(
        !resumed.contains("roll 1d6kh1 for viking_1"),
        "the replayed dice were asked again:\n{resumed}"
    );
    // Still manual after the resume: the new roll is asked for, and is the 5 typed.
    assert!(resumed.contains("roll 1d6 for after: a d6"), "{resumed}");
    assert!(resumed.contains("after: 1d6 [5]"), "{resumed}");
}

#[test]
fn replay_warns_of_changed_scripts() {
    let data = folder();
    let _ = play(data.path(), "3", GAME);
    let journal = last_journal(data.path());
    let text = std::fs::read_to_string(&journal).expect("the journal");
    // Pretend the scenario had another fingerprint when the game was played (a file of the
    // project is named relative to it).
    let scenario = "scenarios/romans_vs_vikings.yaml";
    let edited = text.replacen(
        &format!("\"{scenario}\":\""),
        &format!("\"{scenario}\":\"0"),
        1,
    );
    assert_ne!(edited, text, "the scenario is fingerprinted");
    std::fs::write(&journal, edited).expect("an edit");
    let (_, warnings, _) = replay(data.path(), &journal);
    assert!(
        warnings.contains("romans_vs_vikings.yaml has changed since the journal was written"),
        "{warnings}"
    );
}

// Guards "play --resume continues a session that crashed or was killed, losing nothing": a
// session killed outright (SIGKILL) is resumed from its journal with every line it had.
#[cfg(unix)]
#[test]
fn killed_session_is_resumed_losing_nothing() {
    use std::io::{BufRead, BufReader};
    let data = folder();
    let mut child = common::binary_command(&common::project(), &["play", "--seed", "3"])
        .env("SANDTABLE_DATA", data.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the binary starts");
    let mut stdin = child.stdin.take().expect("stdin");
    stdin.write_all(GAME.as_bytes()).expect("input");
    stdin.flush().expect("input");
    // Wait until the last line has been played, then kill without warning.
    let mut out = BufReader::new(child.stdout.take().expect("stdout"));
    let mut line = String::new();
    while out.read_line(&mut line).expect("output") > 0 {
        if line.starts_with("  3d6: ") {
            break;
        }
        line.clear();
    }
    child.kill().expect("a kill");
    let _ = child.wait();
    let (resumed, _, code) = resume(data.path(), "print(unit(\"legionary_1\").in_play)\n");
    assert_eq!(code, 0);
    assert!(resumed.contains("3 lines replayed"), "{resumed}");
    assert!(
        resumed.ends_with("> print(unit(\"legionary_1\").in_play)\nfalse\n"),
        "{resumed}"
    );
}

// Guards that dice typed in by the players are journaled: a replay of a manual-dice session
// is the same, byte for byte.
#[test]
fn manual_dice_are_journaled_and_replayed() {
    let data = folder();
    let (original, _, code) = play(
        data.path(),
        "3",
        ":dice manual\nmelee viking_1 legionary_1\n4\n2 6\nroll 3d6\n",
    );
    assert_eq!(code, 0);
    assert!(
        original.contains("legionary_1 defends with 2 dice: 2d6kh1 [~2, 6] = 6"),
        "{original}"
    );
    let journal = last_journal(data.path());
    let (replayed, _, code) = replay(data.path(), &journal);
    assert_eq!(code, 0);
    assert_eq!(replayed, original);
}

// Guards that cards typed in (`:cards manual`) are journaled with the line that asked for
// them, like manual dice, so a replay and a resume draw the very same cards.
#[test]
fn manual_cards_are_journaled_replayed_and_resumed() {
    let data = folder();
    let (original, _, code) = play(
        data.path(),
        "3",
        ":cards manual\nlet d = new_deck(\"orders\", \"standard\"); d.shuffle();\nd.draw(2)\nQS 2H\ndraw orders 1\n2H\nJOKER\n5d\nroll 3d6\n",
    );
    assert_eq!(code, 0, "{original}");
    assert!(
        original.contains("  drew Q♠ 2♥ from the orders deck\n"),
        "{original}"
    );
    assert!(
        original.contains("  drew 5♦ from the orders deck\n"),
        "{original}"
    );
    let journal = last_journal(data.path());
    let (replayed, _, code) = replay(data.path(), &journal);
    assert_eq!(code, 0);
    assert_eq!(replayed, original);
    // Resumed, the cards are still typed in, and the pile is the one left.
    let (resumed, _, code) = resume(data.path(), "draw orders 1\nQS\nAC\n");
    assert_eq!(code, 0, "{resumed}");
    assert!(
        resumed.contains("`Q♠` is not in the draw pile of the `orders` deck: drawn already, or not in this deck; draw a card from the orders deck (49 in the pile)"),
        "{resumed}"
    );
    assert!(
        resumed.contains("  drew A♣ from the orders deck\n"),
        "{resumed}"
    );
}

// Guards "a replay writes nothing": `replay` and the replayed part of `play --resume` ran
// `:save` again and overwrote the file; a replay now says so on standard error and writes
// nothing, its standard output still the session's.
#[test]
fn replay_and_resume_write_no_save() {
    let data = folder();
    let (original, _, code) = play(
        data.path(),
        "3",
        "melee viking_1 legionary_1\n:save game.json\n",
    );
    assert_eq!(code, 0);
    assert!(original.contains("saved to game.json\n"), "{original}");
    let save = data.path().join("game.json");
    std::fs::write(&save, "kept").expect("a file of the player's");
    let journal = last_journal(data.path());
    let (replayed, warnings, code) = replay(data.path(), &journal);
    assert_eq!(code, 0);
    assert_eq!(replayed, original);
    assert!(
        warnings.contains("replay: not saved to game.json"),
        "{warnings}"
    );
    assert_eq!(std::fs::read_to_string(&save).expect("the file"), "kept");
    let (resumed, _, code) = resume(data.path(), "");
    assert_eq!(code, 0, "{resumed}");
    assert_eq!(std::fs::read_to_string(&save).expect("the file"), "kept");
}

/// A project of its own in a temporary folder: a copy of this crate's `scripts/` and
/// `scenarios/` (a replay reads only files of its project, so a test that edits the files a
/// game reads keeps them in one).
fn project_copy() -> tempfile::TempDir {
    let dir = folder();
    for sub in ["scripts", "scenarios"] {
        common::game::copy_dir(&common::project().join(sub), &dir.path().join(sub));
    }
    dir
}

/// Plays `steps` at the prompt piped, one at a time, in the project `project`, in the folder
/// `dir` with its data folder in `data`: each step sends a line, waits for a line of output equal to `until`, then
/// writes `edit` (a file and its new text), so the next line finds it edited. Returns
/// standard output.
fn play_editing(
    project: &Path,
    dir: &Path,
    data: &Path,
    args: &[&str],
    steps: &[Step<'_>],
) -> String {
    use std::io::{BufRead, BufReader};
    let mut child = common::binary_command(project, args)
        .current_dir(dir)
        .env("SANDTABLE_DATA", data)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the binary starts");
    let mut stdin = child.stdin.take().expect("stdin");
    let mut out = BufReader::new(child.stdout.take().expect("stdout"));
    let mut all = String::new();
    for step in steps {
        writeln!(stdin, "{}", step.line).expect("input");
        stdin.flush().expect("input");
        let mut line = String::new();
        loop {
            line.clear();
            assert!(
                out.read_line(&mut line).expect("output") > 0,
                "no `{}` after `{}`:\n{all}",
                step.until,
                step.line
            );
            all.push_str(&line);
            if line.trim_end() == step.until {
                break;
            }
        }
        if let Some((file, text)) = step.edit {
            std::fs::write(file, text).expect("an edit");
        }
    }
    drop(stdin);
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut out, &mut rest).expect("output");
    all.push_str(&rest);
    assert!(child.wait().expect("the binary ends").success(), "{all}");
    all
}

/// A step of [`play_editing`].
struct Step<'a> {
    line: &'a str,
    until: &'a str,
    edit: Option<(&'a Path, &'a str)>,
}

/// A project of its own ([`project_copy`]) whose `scenarios/` holds `house.yaml`, the
/// default scenario with the house rule `rule.rhai`, whose verb `bonus` gives 1; returns the
/// project, the scenarios' folder and the scenario's path.
fn house_rule_game() -> (tempfile::TempDir, PathBuf, PathBuf) {
    let project = project_copy();
    let dir = project.path().join("scenarios");
    let default =
        std::fs::read_to_string(dir.join("romans_vs_vikings.yaml")).expect("the default scenario");
    std::fs::write(dir.join("rule.rhai"), "fn bonus() { 1 }\n").expect("a rule");
    let scenario = dir.join("house.yaml");
    std::fs::write(&scenario, format!("{default}\nhouse_rules: [rule.rhai]\n"))
        .expect("a scenario");
    (project, dir, scenario)
}

// Guards that a hot reload is journaled: the session reloaded a house rule edited mid-game
// (and reloaded it again when the edit was undone); a replay did not reload at all, and said
// nothing of the rules it played the middle of the game with.
#[test]
fn replay_reloads_where_the_session_reloaded() {
    let (project, games, scenario) = house_rule_game();
    let project = project.path();
    let rule = games.join("rule.rhai");
    let data = folder();
    let scenario = scenario.to_str().expect("utf-8");
    let original = play_editing(
        project,
        data.path(),
        data.path(),
        &["play", scenario, "--seed", "3"],
        &[
            Step {
                line: "print(bonus())",
                until: "1",
                edit: Some((&rule, "fn bonus() { 22 }\n")),
            },
            Step {
                line: "print(bonus())",
                until: "22",
                edit: Some((&rule, "fn bonus() { 1 }\n")),
            },
            Step {
                line: "print(bonus())",
                until: "1",
                edit: None,
            },
        ],
    );
    assert_eq!(
        original.matches(" changed: reloaded the scripts").count(),
        2,
        "{original}"
    );
    let journal = last_journal(data.path());
    let (replayed, warnings, code) = run_project(
        project,
        data.path(),
        data.path(),
        &["replay", journal.to_str().expect("utf-8")],
        "",
    );
    assert_eq!(code, 0);
    // The rule is as it was at the start, so the middle line gives 1, and the replay says
    // which file is not as the session read it.
    assert_eq!(replayed, original.replace("\n22\n", "\n1\n"));
    assert!(
        warnings.contains("rule.rhai has changed since the session read it"),
        "{warnings}"
    );
    let (resumed, warnings, code) =
        run_project(project, data.path(), data.path(), &["play", "--resume"], "");
    assert_eq!(code, 0);
    assert!(resumed.contains("3 lines replayed"), "{resumed}");
    assert!(
        warnings.contains("rule.rhai has changed since the session read it"),
        "{warnings}"
    );
}

// Guards that a house rule put in force with `:with` is fingerprinted: edited after the
// session, a replay played it changed without a word.
#[test]
fn replay_warns_of_a_house_rule_put_in_force_and_changed_since() {
    let project = project_copy();
    let project = project.path();
    let data = folder();
    let extra = project.join("scenarios/extra.rhai");
    std::fs::write(&extra, "fn extra() { 1 }\n").expect("a rule");
    let (original, _, code) = run_project(
        project,
        data.path(),
        data.path(),
        &["play", "--seed", "3"],
        &format!(":with {}\nprint(extra())\n", extra.display()),
    );
    assert_eq!(code, 0, "{original}");
    std::fs::write(&extra, "fn extra() { 2 }\n").expect("an edit");
    let journal = last_journal(data.path());
    let (_, warnings, code) = run_project(
        project,
        data.path(),
        data.path(),
        &["replay", journal.to_str().expect("utf-8")],
        "",
    );
    assert_eq!(code, 0);
    assert!(
        warnings.contains("extra.rhai has changed since the session read it"),
        "{warnings}"
    );
}

// Guards that the modules the scripts import are fingerprinted: an imported script edited
// after the session went unwarned, whether imported as the rules loaded (`first`) or by a
// function mid-game (`helper`).
#[test]
fn replay_warns_of_changed_imported_scripts() {
    let (project, games, scenario) = house_rule_game();
    let project = project.path();
    let file = |name: &str, text: &str| {
        std::fs::write(games.join(name), text).expect("a script");
    };
    file("first.rhai", "fn one() { 1 }\n");
    file("helper.rhai", "fn two() { 2 }\n");
    file(
        "rule.rhai",
        "import \"first\" as f;\nfn double_two() {\n    import \"helper\" as h;\n    h::two() * 2\n}\n",
    );
    let data = folder();
    let scenario = scenario.to_str().expect("utf-8");
    let (original, _, code) = run_project(
        project,
        data.path(),
        data.path(),
        &["play", scenario, "--seed", "3"],
        "print(double_two())\n",
    );
    assert_eq!(code, 0);
    assert!(original.ends_with("\n4\n"), "{original}");
    let journal = last_journal(data.path());
    let replay = || {
        run_project(
            project,
            data.path(),
            data.path(),
            &["replay", journal.to_str().expect("utf-8")],
            "",
        )
    };
    let (replayed, warnings, code) = replay();
    assert_eq!(code, 0);
    assert_eq!(replayed, original);
    assert!(warnings.is_empty(), "{warnings}");
    file("first.rhai", "fn one() { 11 }\n");
    file("helper.rhai", "fn two() { 3 }\n");
    let (_, warnings, _) = replay();
    assert!(
        warnings.contains("first.rhai has changed since the journal was written"),
        "{warnings}"
    );
    assert!(
        warnings.contains("helper.rhai has changed since the session read it"),
        "{warnings}"
    );
}

// Guards that a journal's paths do not depend on the folder it was played in: a session
// started with relative paths (`--project .`, a relative scenario and house rule), replayed
// from another folder, warned that each file had changed, or found no project at all.
#[test]
fn replay_from_another_folder_of_a_session_with_relative_paths() {
    let data = folder();
    // Played in the project folder (it writes nothing there: the data folder is `data`).
    let out = std::process::Command::new(common::BINARY)
        .args([
            "--project",
            ".",
            "play",
            "scenarios/romans_vs_vikings.yaml",
            "--seed",
            "3",
            "--with",
            "examples/house_rules/vikings_in_wood.rhai",
        ])
        .current_dir(common::project())
        .env("NO_COLOR", "1")
        .env("SANDTABLE_DATA", data.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            child
                .stdin
                .take()
                .expect("stdin")
                .write_all(GAME.as_bytes())?;
            child.wait_with_output()
        })
        .expect("the binary runs");
    assert!(out.status.success(), "{out:?}");
    let original = String::from_utf8_lossy(&out.stdout).into_owned();
    let elsewhere = folder();
    let journal = last_journal(data.path());
    let (replayed, warnings, code) = run_in(
        elsewhere.path(),
        data.path(),
        &["replay", journal.to_str().expect("utf-8")],
        "",
    );
    assert_eq!(code, 0, "{warnings}");
    assert_eq!(replayed, original);
    assert!(warnings.is_empty(), "{warnings}");
}

/// The journal's lines, as JSON values.
fn journal_values(journal: &Path) -> Vec<serde_json::Value> {
    std::fs::read_to_string(journal)
        .expect("the journal")
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect()
}

/// Writes journal lines to `path`.
fn write_journal(path: &Path, values: &[serde_json::Value]) {
    let text: String = values.iter().map(|v| format!("{v}\n")).collect();
    std::fs::write(path, text).expect("a journal");
}

// Guards "a stranger's journal reads nothing outside the project": a journal's header named
// its files by absolute path, and `replay` and `play --resume` read whatever they named, so
// a journal whose scenario was `/etc/passwd` printed its first lines in the YAML error; its
// lines (`:with`, `:load`, `:open`) and its fingerprints did the same.
#[test]
fn a_strangers_journal_reads_nothing_outside_the_project() {
    let data = folder();
    let (_, _, code) = play(
        data.path(),
        "3",
        ":save game.json\nroll 1d6\n:open game.json\n",
    );
    assert_eq!(code, 0);
    let played = journal_values(&last_journal(data.path()));
    // Files outside the project, each beginning with a secret that must never be shown.
    let outside = folder();
    let secret = |name: &str, text: &str| {
        let path = outside.path().join(name);
        std::fs::write(&path, format!("SECRET {text}\n")).expect("a file");
        path.display().to_string()
    };
    let yaml = secret("scenario.yaml", ": [");
    let rhai = secret("rule.rhai", "fn x( {");
    let save = secret("game.json", "{");
    // A copy of the project holding a link that leads out.
    let project = project_copy();
    #[cfg(unix)]
    std::os::unix::fs::symlink(&yaml, project.path().join("scenarios/link.yaml")).expect("a link");
    let mut cases: Vec<(&str, Vec<serde_json::Value>, Vec<String>)> = Vec::new();
    let words = |w: &[&str]| w.iter().map(|s| s.to_string()).collect::<Vec<String>>();
    let header = |key: &str, value: serde_json::Value| {
        let mut lines = played.clone();
        lines[0][key] = value;
        lines
    };
    let climbing = format!("scenarios/../../..{yaml}");
    for (name, scenario) in [
        ("/etc/passwd", "/etc/passwd"),
        ("absolute", yaml.as_str()),
        ("climbing", climbing.as_str()),
        ("link", "scenarios/link.yaml"),
    ] {
        cases.push((
            name,
            header("scenario", scenario.into()),
            words(&[
                "line 1 of the journal",
                &format!("names the scenario `{scenario}`"),
                "it was not read",
            ]),
        ));
    }
    cases.push((
        "house rule",
        header("house_rules", serde_json::json!([rhai])),
        words(&[
            "line 1 of the journal",
            "names the house rule",
            "it was not read",
        ]),
    ));
    // The game the third line opened, its scenario moved out.
    let mut opened = played.clone();
    let at = opened
        .iter()
        .position(|v| v.get("opened").is_some())
        .expect("the game opened is recorded");
    opened[at]["opened"]["scenario"] = yaml.clone().into();
    cases.push((
        "opened",
        opened,
        words(&[
            &format!("line {} of the journal", at + 1),
            "names the scenario",
            "it was not read",
        ]),
    ));
    for (command, file) in [(":with", &rhai), (":load", &yaml), (":open", &save)] {
        let mut lines = played.clone();
        lines.push(serde_json::json!({ "line": format!("{command} {file}") }));
        cases.push((
            command,
            lines,
            words(&["is not a file of the project", "it was not read"]),
        ));
    }
    #[cfg(unix)]
    {
        // A FIFO: reading it to fingerprint it would wait for ever.
        let fifo = outside.path().join("fifo");
        let made = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .is_ok_and(|s| s.success());
        if made {
            let mut lines = played.clone();
            lines[0]["scripts"][fifo.display().to_string()] = "00".into();
            cases.push(("fifo", lines, vec![]));
        }
    }
    let journal = data.path().join("stranger.jsonl");
    for (name, lines, expected) in cases {
        write_journal(&journal, &lines);
        let journal = journal.to_str().expect("utf-8");
        for args in [["replay", journal], ["play", "--resume"]] {
            let args: Vec<&str> = if args[0] == "play" {
                vec!["play", "--resume", journal]
            } else {
                args.to_vec()
            };
            let (out, err, code) = run_project(project.path(), data.path(), data.path(), &args, "");
            assert!(!err.contains("panicked"), "{name}: {err}");
            assert!(
                !out.contains("SECRET") && !err.contains("SECRET") && !err.contains("root:"),
                "{name} ({}): a file outside the project was shown\n{out}\n{err}",
                args[0]
            );
            // miette may break a long path at a slash.
            let err = err
                .split_whitespace()
                .filter(|w| *w != "│")
                .collect::<String>();
            for e in &expected {
                let e = e.split_whitespace().collect::<String>();
                assert!(err.contains(&e), "{name} ({}): lacks {e:?}\n{err}", args[0]);
            }
            // A resume goes on at the prompt after saying so (unless the game cannot start).
            if !expected.is_empty() && args[0] == "replay" {
                assert_ne!(code, 0, "{name} ({}): {err}", args[0]);
            }
        }
    }
}

// Guards "a journal moved with its project folder replays": the header named the project,
// the scenario and the house rules by absolute path, so a project moved (or swapped between
// players, with its journal) replayed nothing: "holds no `scripts` folder".
#[test]
fn a_journal_moved_with_its_project_replays() {
    let place = folder();
    let first = place.path().join("first");
    std::fs::rename(project_copy().keep(), &first).expect("a project moved in");
    std::fs::write(first.join("scenarios/extra.rhai"), "fn extra() { 7 }\n").expect("a rule");
    let data = folder();
    let (original, _, code) = run_project(
        &first,
        &first,
        data.path(),
        &[
            "play",
            "scenarios/romans_vs_vikings.yaml",
            "--seed",
            "3",
            "--with",
            "scenarios/extra.rhai",
        ],
        &format!("{GAME}print(extra())\n"),
    );
    assert_eq!(code, 0, "{original}");
    let journal = last_journal(data.path());
    let header = std::fs::read_to_string(&journal).expect("the journal");
    let header = header.lines().next().expect("a header");
    assert!(!header.contains(first.to_str().expect("utf-8")), "{header}");
    let second = place.path().join("second");
    std::fs::rename(&first, &second).expect("the project moved");
    let elsewhere = folder();
    let (replayed, warnings, code) = run_project(
        &second,
        elsewhere.path(),
        data.path(),
        &["replay", journal.to_str().expect("utf-8")],
        "",
    );
    assert_eq!(code, 0, "{warnings}");
    assert_eq!(replayed, original);
    assert!(warnings.is_empty(), "{warnings}");
}

// Guards "a journal written before format 3 still replays in its project": its header names
// every file by absolute path, taken when inside the project.
#[test]
fn an_old_journal_with_absolute_paths_in_the_project_replays() {
    let data = folder();
    let (original, _, code) = play(data.path(), "3", GAME);
    assert_eq!(code, 0);
    let journal = last_journal(data.path());
    let mut lines = journal_values(&journal);
    let project = common::project();
    lines[0]["journal"] = 2.into();
    lines[0]["project"] = project.display().to_string().into();
    lines[0]["scenario"] = common::project_file("scenarios/romans_vs_vikings.yaml").into();
    write_journal(&journal, &lines);
    let (replayed, warnings, code) = replay(data.path(), &journal);
    assert_eq!(code, 0, "{warnings}");
    assert_eq!(replayed, original);
}

// Guards "an `:open` replays the game opened": a replayed `:open` read the file again, which
// by then held what the session saved there later, so a session that opened a save made
// earlier and then saved over it replayed from the later save, and rolled other dice. The
// journal now records the game opened, and a replay opens that, even once the file is gone.
#[test]
fn open_before_the_first_save_replays_the_game_opened() {
    let data = folder();
    let (_, _, code) = play(data.path(), "3", "roll 1d6\n:save some.json\n");
    assert_eq!(code, 0);
    let save = data.path().join("some.json");
    let earlier = std::fs::read_to_string(&save).expect("a save");
    for (args, game) in [
        (
            vec!["play", "--seed", "5"],
            "roll 2d6\n:open some.json\nroll 3d6\n:save some.json\n:log 4\n",
        ),
        (
            vec!["play", "--open", "some.json"],
            "roll 3d6\n:save some.json\n:log 4\n",
        ),
    ] {
        std::fs::write(&save, &earlier).expect("the earlier save");
        for j in journals(data.path()) {
            std::fs::remove_file(j).expect("an old journal removed");
        }
        let (original, _, code) = run(data.path(), &args, game);
        assert_eq!(code, 0, "{original}");
        let journal = last_journal(data.path());
        let journal = journal.to_str().expect("utf-8");
        let (replayed, _, code) = run(data.path(), &["replay", journal], "");
        assert_eq!(code, 0);
        assert_eq!(replayed, original, "{args:?}");
        // Gone: the game opened is in the journal.
        std::fs::remove_file(&save).expect("the save removed");
        let (replayed, warnings, code) = run(data.path(), &["replay", journal], "");
        assert_eq!(code, 0, "{warnings}");
        assert_eq!(replayed, original, "{args:?}");
        let (resumed, warnings, code) =
            run(data.path(), &["play", "--resume", journal], ":log 2\n");
        assert_eq!(code, 0, "{warnings}");
        let last_roll = original
            .lines()
            .rfind(|l| l.starts_with("  3d6: "))
            .expect("a roll");
        assert!(resumed.contains(last_roll), "{resumed}");
    }
}
