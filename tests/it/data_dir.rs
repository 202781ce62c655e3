//! The data folder, where `play` keeps journals and history: `SANDTABLE_DATA` when set, else
//! where the system keeps programs' data; and a test run never writes into a player's.

use crate::common;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// Plays one line piped into `play` with `command` (the binary, set up by the caller) and
/// checks that it went well.
#[track_caller]
fn play_one_line(command: &mut Command) {
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(b"roll 1d6\n")
        .expect("input");
    let out = child.wait_with_output().expect("the binary ends");
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Every file under `dir`, at any depth.
fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.is_dir() {
            files.extend(files_under(&path));
        } else {
            files.push(path);
        }
    }
    files
}

/// The binary playing at the prompt, with `home` as its home folder and no XDG folder.
fn play_at_home(home: &Path) -> Command {
    let mut command = common::binary_command(&common::project(), &["play", "--seed", "3"]);
    command.env("HOME", home).env_remove("XDG_DATA_HOME");
    command
}

// Guards `SANDTABLE_DATA`: the journal goes into the folder it names, and nothing into the
// home folder (journals went to `~/.local/share/sandtable` whatever the tests asked).
#[test]
fn sandtable_data_holds_the_journals_and_the_home_folder_is_untouched() {
    let home = tempfile::tempdir().expect("a folder");
    let data = tempfile::tempdir().expect("a folder");
    play_one_line(play_at_home(home.path()).env("SANDTABLE_DATA", data.path()));
    assert_eq!(files_under(home.path()), Vec::<PathBuf>::new());
    let journals = files_under(&data.path().join("journals"));
    assert_eq!(journals.len(), 1, "{journals:?}");
}

// Guards that a test run leaves the player's data folder alone: the tests' way of starting
// the binary gives it a data folder of its own, so a game writes nothing under HOME (a
// `cargo test` filled `~/.local/share/sandtable/journals`).
#[test]
fn binary_started_by_the_tests_writes_nothing_in_the_home_folder() {
    let home = tempfile::tempdir().expect("a folder");
    play_one_line(&mut play_at_home(home.path()));
    assert_eq!(files_under(home.path()), Vec::<PathBuf>::new());
}

// Guards that players on Linux find their journals where they always were:
// `$XDG_DATA_HOME/sandtable`, else `~/.local/share/sandtable`.
#[cfg(target_os = "linux")]
#[test]
fn without_sandtable_data_linux_keeps_data_in_the_xdg_folder() {
    let home = tempfile::tempdir().expect("a folder");
    play_one_line(play_at_home(home.path()).env_remove("SANDTABLE_DATA"));
    let journals = files_under(&home.path().join(".local/share/sandtable/journals"));
    assert_eq!(journals.len(), 1, "{journals:?}");

    let xdg = tempfile::tempdir().expect("a folder");
    play_one_line(
        play_at_home(home.path())
            .env_remove("SANDTABLE_DATA")
            .env("XDG_DATA_HOME", xdg.path()),
    );
    let journals = files_under(&xdg.path().join("sandtable/journals"));
    assert_eq!(journals.len(), 1, "{journals:?}");
}
