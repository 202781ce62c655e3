//! The prompt on a real terminal: a pseudo-terminal made by `script` (util-linux), so that
//! rustyline's line editing, completion, hints and multi-line entry are what is tested.

mod common;

use std::io::Write;
use std::process::{Command, Stdio};
use std::time::Duration;

// Guards the interactive prompt end to end: Tab completes a verb, a hint shows its
// parameters, the melee is played, a multi-line function is entered and called, `:quit`
// leaves.
#[test]
fn prompt_on_a_terminal_completes_and_plays() {
    if Command::new("script").arg("--version").output().is_err() {
        eprintln!("skipped: `script` (util-linux) is not installed");
        return;
    }
    let data = tempfile::tempdir().expect("a folder");
    let command = format!(
        "{} --project {} play --seed 3",
        common::BINARY,
        env!("CARGO_MANIFEST_DIR")
    );
    let mut child = Command::new("script")
        .args(["-qfec", &command, "/dev/null"])
        .env("SANDTABLE_DATA", data.path())
        .env("NO_COLOR", "1")
        .env("TERM", "xterm")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("script starts");
    let mut stdin = child.stdin.take().expect("stdin");
    for (keys, pause) in [
        ("mel\t viking_1 legionary_1\n", 1000),
        ("fn two() {\n", 300),
        ("  2 }\n", 300),
        ("two()\n", 500),
        (":quit\n", 300),
    ] {
        stdin.write_all(keys.as_bytes()).expect("keys");
        stdin.flush().expect("keys");
        std::thread::sleep(Duration::from_millis(pause));
    }
    drop(stdin);
    let out = child.wait_with_output().expect("script ends");
    let screen = strip_escapes(&String::from_utf8_lossy(&out.stdout).replace('\r', ""));
    assert!(screen.contains("turn 1 · vikings > "), "{screen}");
    // `mel` is no verb: the melee below happens only if Tab completed it.
    assert!(
        screen.contains("melee viking_1 legionary_1"),
        "completion: {screen}"
    );
    assert!(
        screen.contains("viking_1 wins 4 to 2: legionary_1 is killed"),
        "{screen}"
    );
    assert!(screen.contains("... "), "multi-line entry: {screen}");
    assert!(screen.contains("=> 2"), "{screen}");
}

/// The screen without the terminal's control sequences (`ESC [ ... letter`).
fn strip_escapes(text: &str) -> String {
    let mut out = String::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' && chars.peek() == Some(&'[') {
            chars.next();
            for c in chars.by_ref() {
                if c.is_ascii_alphabetic() {
                    break;
                }
            }
        } else {
            out.push(c);
        }
    }
    out
}

// Guards "a progress bar on a terminal": on a pseudo-terminal `sim` draws its bar on standard
// error while the battles run (the piped case, with no bar, is in tests/sim.rs), and clears
// it before the report.
#[test]
fn sim_on_a_terminal_shows_a_progress_bar() {
    if Command::new("script").arg("--version").output().is_err() {
        eprintln!("skipped: `script` (util-linux) is not installed");
        return;
    }
    let command = format!(
        "{} --project {} sim {}/scenarios/romans_vs_vikings.yaml --runs 120 --seed 1 --threads 1",
        common::BINARY,
        env!("CARGO_MANIFEST_DIR"),
        env!("CARGO_MANIFEST_DIR")
    );
    let data = tempfile::tempdir().expect("a folder");
    let out = Command::new("script")
        .args(["-qfec", &command, "/dev/null"])
        .env("SANDTABLE_DATA", data.path())
        .env("NO_COLOR", "1")
        .env("TERM", "xterm")
        .stdin(Stdio::null())
        .output()
        .expect("script runs");
    let screen = strip_escapes(&String::from_utf8_lossy(&out.stdout).replace('\r', "\n"));
    assert!(
        screen.contains("/120 battles,") && screen.contains("a second"),
        "no progress bar: {screen}"
    );
    assert!(
        screen.contains("120 battles from seed 1"),
        "no report: {screen}"
    );
}
