//! Replay and resume are exact (issue 21, finding 4): an anonymous function has the same
//! name in every process.

mod common;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Stdio;

/// What one run printed.
struct Run {
    stdout: String,
    stderr: String,
    code: i32,
}

/// Runs the binary in the project `project`, in the folder `dir`, with its data folder in
/// `data`, typing `stdin`.
fn run(project: &Path, dir: &Path, data: &Path, args: &[&str], stdin: &str) -> Run {
    let mut child = common::binary_command(project, args)
        .current_dir(dir)
        .env("SANDTABLE_DATA", data)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    let mut pipe = child.stdin.take().expect("stdin");
    let text = stdin.to_string();
    // The child may stop reading early; a broken pipe is not the test's concern.
    let feeder = std::thread::spawn(move || {
        let _ = pipe.write_all(text.as_bytes());
    });
    let out = child.wait_with_output().expect("the binary ends");
    let _ = feeder.join();
    let run = Run {
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        code: out.status.code().unwrap_or(-1),
    };
    assert!(
        !run.stderr.contains("panicked"),
        "the binary panicked:\n{}",
        run.stderr
    );
    run
}

/// The journals of the data folder `data`, oldest name first.
fn journals(data: &Path) -> Vec<PathBuf> {
    let mut all: Vec<PathBuf> = match std::fs::read_dir(data.join("journals")) {
        Ok(entries) => entries.map(|e| e.expect("an entry").path()).collect(),
        Err(_) => Vec::new(),
    };
    all.sort();
    all
}

/// The only journal of the data folder `data`.
fn the_journal(data: &Path) -> PathBuf {
    let all = journals(data);
    assert_eq!(all.len(), 1, "one journal in {}: {all:?}", data.display());
    all[0].clone()
}

// Finding 4 of issue 21: Rhai named an anonymous function after a hash seeded at random in
// each process (`anon$e1e0c9c7854ade70`, then `anon$55c4dd3d110f3e02`), so a script could
// draw from `f.name` what the game's seed does not fix: the same seed and lines moved a
// figure differently from run to run, and a replay differed from its session.
#[test]
fn an_anonymous_functions_name_is_the_same_in_every_process() {
    let lines = concat!(
        "(|x| x).name\n",
        "let n = (|x| x).name; unit(\"viking_1\").move_to(parse_int(n.sub_string(5, 2), 16) / 10.0, 3.0)\n",
        ":show viking_1\n",
    );
    let project = common::project();
    let (first, second) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let one = run(
        &project,
        first.path(),
        first.path(),
        &["play", "--seed", "5"],
        lines,
    );
    let two = run(
        &project,
        second.path(),
        second.path(),
        &["play", "--seed", "5"],
        lines,
    );
    assert_eq!(one.code, 0, "{}{}", one.stdout, one.stderr);
    assert!(one.stdout.contains("=> \"anon$"), "{}", one.stdout);
    assert!(one.stdout.contains("viking_1"), "{}", one.stdout);
    assert_eq!(
        one.stdout, two.stdout,
        "two processes, the same seed and lines"
    );
    let journal = the_journal(first.path());
    let replayed = run(
        &project,
        first.path(),
        first.path(),
        &["replay", journal.to_str().unwrap()],
        "",
    );
    assert_eq!(replayed.stdout, one.stdout, "{}", replayed.stderr);
}
