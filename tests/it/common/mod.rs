//! Helpers shared by the integration tests: run the command line in the process
//! ([`in_process`], what the rule tests use) or the real `sandtable` binary in a temporary
//! folder with a time limit ([`sandtable`], [`run_binary`]: for tests whose subject is the
//! binary), and compare output with snapshots.
//!
//! Every run passes `--project` (this crate's folder) and `NO_COLOR=1`, and gives the binary a
//! data folder of its own (`SANDTABLE_DATA`, where journals and history go) in a temporary
//! folder, never the player's; it sets nothing in the test process itself: the environment
//! and the current folder are the child's alone.

// Each test crate uses a different subset of these helpers.
#![allow(dead_code)]

pub mod game;
pub mod sint;
pub mod transcript;

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// How long one run of the binary may take before the test fails as a hang. Generous: an
/// exact-odds run of a debug build takes over 10 seconds alone, and tests run side by side.
pub const TIMEOUT: Duration = Duration::from_secs(60);

/// The project folder: this crate, with its `scripts/` and `scenarios/`.
pub fn project() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A file of the project, e.g. `scenarios/romans_vs_vikings.yaml`.
pub fn project_file(rel: &str) -> String {
    project().join(rel).display().to_string()
}

/// What one run of the binary did.
#[derive(Debug)]
pub struct Output {
    /// Standard output.
    pub stdout: String,
    /// Standard error.
    pub stderr: String,
    /// The exit status (-1 if killed by a signal).
    pub code: i32,
    /// How long the run took.
    pub elapsed: Duration,
}

impl Output {
    /// Panics unless the run exited with `code`, showing everything it printed.
    #[track_caller]
    pub fn expect_code(&self, code: i32) -> &Self {
        assert_eq!(
            self.code, code,
            "expected exit status {code}, got {}\n--- stdout ---\n{}\n--- stderr ---\n{}",
            self.code, self.stdout, self.stderr
        );
        self.no_panic()
    }

    /// Panics if the binary panicked.
    #[track_caller]
    pub fn no_panic(&self) -> &Self {
        assert!(
            !self.stderr.contains("panicked"),
            "the binary panicked:\n{}",
            self.stderr
        );
        self
    }

    /// Standard error with miette's line wrapping undone (see [`squash`]).
    pub fn err(&self) -> String {
        squash(&self.stderr)
    }

    /// Standard output with whitespace runs collapsed (see [`squash`]).
    pub fn out(&self) -> String {
        squash(&self.stdout)
    }

    /// Panics unless standard error, unwrapped, contains every one of `needles`.
    #[track_caller]
    pub fn stderr_has(&self, needles: &[&str]) -> &Self {
        let err = self.err();
        for n in needles {
            assert!(
                err.contains(&squash(n)),
                "stderr lacks {n:?}\n--- stderr ---\n{}\n--- stdout ---\n{}",
                self.stderr,
                self.stdout
            );
        }
        self
    }

    /// Panics unless standard output contains every one of `needles` (verbatim).
    #[track_caller]
    pub fn stdout_has(&self, needles: &[&str]) -> &Self {
        for n in needles {
            assert!(
                self.stdout.contains(n),
                "stdout lacks {n:?}\n--- stdout ---\n{}\n--- stderr ---\n{}",
                self.stdout,
                self.stderr
            );
        }
        self
    }

    /// Panics if standard output contains `needle`.
    #[track_caller]
    pub fn stdout_lacks(&self, needle: &str) -> &Self {
        assert!(
            !self.stdout.contains(needle),
            "stdout should not contain {needle:?}\n--- stdout ---\n{}",
            self.stdout
        );
        self
    }
}

/// Text with whitespace runs made single spaces and miette's continuation bars (`│` at the
/// start of a wrapped message line) dropped, so a message wrapped at 100 columns still
/// matches its one-line form.
pub fn squash(text: &str) -> String {
    text.split_whitespace()
        .filter(|w| *w != "│")
        .collect::<Vec<_>>()
        .join(" ")
}

/// Runs `sandtable --project <this crate> ARGS` in a fresh temporary folder, feeding it
/// `stdin` (or nothing).
pub fn sandtable(args: &[&str], stdin: Option<&str>) -> Output {
    let dir = tempfile::tempdir().expect("a temporary folder");
    sandtable_in(dir.path(), args, stdin)
}

/// Runs `sandtable --project <this crate> ARGS` in `dir`.
pub fn sandtable_in(dir: &Path, args: &[&str], stdin: Option<&str>) -> Output {
    let project = project();
    let mut all: Vec<&str> = vec!["--project", project.to_str().expect("a UTF-8 path")];
    all.extend_from_slice(args);
    run_binary(dir, &all, stdin)
}

/// The binary under test.
pub const BINARY: &str = env!("CARGO_BIN_EXE_sandtable");

/// The data folder of the binaries that [`binary_command`] starts, unless a test gives its
/// own: a folder under `target/`, shared by the test crate's runs (journal names differ by
/// time and process).
pub const SHARED_DATA: &str = concat!(env!("CARGO_TARGET_TMPDIR"), "/sandtable-data");

/// The binary as a command, for tests that drive the process themselves (kill it, close
/// its pipes, read it line by line): `--project DIR` then `args`, with `NO_COLOR=1` and the
/// data folder [`SHARED_DATA`] (a test may set `SANDTABLE_DATA` again to a folder of its own).
pub fn binary_command(project: &Path, args: &[&str]) -> Command {
    let mut command = Command::new(BINARY);
    command
        .arg("--project")
        .arg(project)
        .args(args)
        .env("NO_COLOR", "1")
        .env("SANDTABLE_DATA", SHARED_DATA);
    command
}

/// Runs `sandtable ARGS` in the process, through the library
/// ([`sandtable::cli::run_in_process`]) rather than the binary: `stdin` is the piped input
/// (nothing when `None`) and the data folder is `data`. Relative paths are from this process's
/// folder, so the caller passes them absolute. No memory limit holds here (the binary's
/// allocator counts it): its tests start the binary.
pub fn in_process(data: &Path, args: &[&str], stdin: Option<&str>) -> Output {
    let started = Instant::now();
    let out = sandtable::cli::run_in_process(args.iter().copied(), stdin.unwrap_or(""), data);
    Output {
        stdout: out.stdout,
        stderr: out.stderr,
        code: i32::from(out.code),
        elapsed: started.elapsed(),
    }
}

/// Runs the binary with exactly `args` (no `--project` added) in `dir`.
pub fn run_binary(dir: &Path, args: &[&str], stdin: Option<&str>) -> Output {
    run_program(BINARY, dir, args, stdin)
}

/// Runs `program` with `args` in `dir` as the binary is run (a wrapper such as `sh` that
/// ends by starting the binary, say), with the same environment and time limit.
pub fn run_program(program: &str, dir: &Path, args: &[&str], stdin: Option<&str>) -> Output {
    run_program_with_data(program, dir, &dir.join(".data"), args, stdin)
}

/// Runs `program` as [`run_program`] does, with its data folder (journals, history) in `data`.
pub fn run_program_with_data(
    program: &str,
    dir: &Path,
    data: &Path,
    args: &[&str],
    stdin: Option<&str>,
) -> Output {
    let mut child = Command::new(program)
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .env_remove("SANDTABLE_HOME")
        .env("SANDTABLE_DATA", data)
        .env("RUST_BACKTRACE", "0")
        .stdin(if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the sandtable binary starts");
    let started = Instant::now();

    let feeder = stdin.map(|text| {
        let mut pipe = child.stdin.take().expect("a stdin pipe");
        let text = text.to_string();
        // The child may stop reading early (`:quit`); a broken pipe is not the test's concern.
        std::thread::spawn(move || {
            let _ = pipe.write_all(text.as_bytes());
        })
    });
    let mut out_pipe = child.stdout.take().expect("a stdout pipe");
    let mut err_pipe = child.stderr.take().expect("a stderr pipe");
    let out_reader = std::thread::spawn(move || {
        let mut s = Vec::new();
        let _ = out_pipe.read_to_end(&mut s);
        s
    });
    let err_reader = std::thread::spawn(move || {
        let mut s = Vec::new();
        let _ = err_pipe.read_to_end(&mut s);
        s
    });

    let status = loop {
        if let Some(status) = child.try_wait().expect("waiting for sandtable") {
            break Some(status);
        }
        if started.elapsed() > TIMEOUT {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let elapsed = started.elapsed();
    if let Some(f) = feeder {
        let _ = f.join();
    }
    let stdout = String::from_utf8_lossy(&out_reader.join().unwrap_or_default()).into_owned();
    let stderr = String::from_utf8_lossy(&err_reader.join().unwrap_or_default()).into_owned();
    let Some(status) = status else {
        panic!(
            "`{program} {}` did not finish within {TIMEOUT:?}\n--- stdout ---\n{stdout}\n--- stderr ---\n{stderr}",
            args.join(" ")
        );
    };
    Output {
        stdout,
        stderr,
        code: status.code().unwrap_or(-1),
        elapsed,
    }
}

/// Compares `actual` with `tests/golden/NAME.txt`; with `UPDATE_GOLDEN=1` in the environment,
/// rewrites the golden file instead.
#[track_caller]
pub fn assert_golden(name: &str, actual: &str) {
    let path = project().join("tests/golden").join(format!("{name}.txt"));
    if std::env::var_os("UPDATE_GOLDEN").is_some_and(|v| v == "1") {
        std::fs::create_dir_all(path.parent().expect("tests/golden")).expect("tests/golden");
        std::fs::write(&path, actual).expect("the golden file is writable");
        return;
    }
    let expected = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(e) => panic!(
            "cannot read the golden file {} ({e}); run with UPDATE_GOLDEN=1 to create it.\n--- actual ---\n{actual}",
            path.display()
        ),
    };
    if expected != actual {
        panic!(
            "output differs from the golden file {} (`-` golden, `+` actual; rerun with UPDATE_GOLDEN=1 to accept):\n{}",
            path.display(),
            diff(&expected, actual)
        );
    }
}

/// A line diff of two texts: unchanged lines prefixed with two spaces, removed with `- `,
/// added with `+ `.
pub fn diff(expected: &str, actual: &str) -> String {
    let a: Vec<&str> = expected.split_inclusive('\n').collect();
    let b: Vec<&str> = actual.split_inclusive('\n').collect();
    // Longest common subsequence table, from the end.
    let mut lcs = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for i in (0..a.len()).rev() {
        for j in (0..b.len()).rev() {
            lcs[i][j] = if a[i] == b[j] {
                lcs[i + 1][j + 1] + 1
            } else {
                lcs[i + 1][j].max(lcs[i][j + 1])
            };
        }
    }
    let show = |line: &str| {
        if line.ends_with('\n') {
            line.trim_end_matches('\n').to_string()
        } else {
            format!("{line}⏎ (no newline at the end)")
        }
    };
    let mut out = String::new();
    let (mut i, mut j) = (0, 0);
    while i < a.len() || j < b.len() {
        if i < a.len() && j < b.len() && a[i] == b[j] {
            out.push_str(&format!("  {}\n", show(a[i])));
            i += 1;
            j += 1;
        } else if i < a.len() && (j == b.len() || lcs[i + 1][j] >= lcs[i][j + 1]) {
            out.push_str(&format!("- {}\n", show(a[i])));
            i += 1;
        } else {
            out.push_str(&format!("+ {}\n", show(b[j])));
            j += 1;
        }
    }
    out
}

/// A temporary folder holding files a test writes (scenarios, scripts, batch files).
pub struct Workspace {
    dir: tempfile::TempDir,
}

impl Workspace {
    /// An empty temporary folder.
    pub fn new() -> Self {
        Workspace {
            dir: tempfile::tempdir().expect("a temporary folder"),
        }
    }

    /// The folder.
    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    /// Writes `text` to `name` inside the folder (creating subfolders) and returns its path.
    pub fn write(&self, name: &str, text: &str) -> PathBuf {
        let path = self.dir.path().join(name);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).expect("a folder in the workspace");
        }
        std::fs::write(&path, text).expect("a file in the workspace");
        path
    }

    /// Runs `sandtable --project <this crate> ARGS` inside the folder.
    pub fn sandtable(&self, args: &[&str], stdin: Option<&str>) -> Output {
        sandtable_in(self.path(), args, stdin)
    }
}

impl Default for Workspace {
    fn default() -> Self {
        Workspace::new()
    }
}

/// Writes `yaml` as a scenario in a temporary folder and plays prompt lines in it with
/// `sandtable play game.yaml --seed SEED` (piped, so the prompt carries on after a refusal).
pub fn play_scenario(yaml: &str, seed: &str, lines: &str) -> Output {
    let ws = Workspace::new();
    ws.write("game.yaml", yaml);
    ws.sandtable(&["play", "game.yaml", "--seed", seed], Some(lines))
}

/// Parses every line of `stdout` as one JSON object, panicking on a line that is not.
#[track_caller]
pub fn json_lines(stdout: &str) -> Vec<serde_json::Value> {
    stdout
        .lines()
        .map(|line| {
            let v: serde_json::Value = serde_json::from_str(line)
                .unwrap_or_else(|e| panic!("not a JSON line ({e}): {line:?}\n{stdout}"));
            assert!(v.is_object(), "not a JSON object: {line:?}");
            v
        })
        .collect()
}

/// The `event` field of each JSON event.
pub fn event_kinds(events: &[serde_json::Value]) -> Vec<String> {
    events
        .iter()
        .map(|e| e["event"].as_str().unwrap_or("<none>").to_string())
        .collect()
}

/// A whole number as the docs write it, with a comma between thousands: `10,000,000`.
pub fn with_commas(n: u128) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}
