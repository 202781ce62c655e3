//! The hostile corpus: every file in `tests/hostile/` is one attack a shared house rule,
//! batch file or prompt line could make, run five ways, each its own test named
//! `CASE::MODE`:
//!
//! - `house`: as a house rule given with `--with` when the game starts (`play --with`), which
//!   must refuse to start;
//! - `with`: as a house rule given with `:with` at the prompt, which must refuse it and play on;
//! - `sim`: as the house rule of a study (`sim --with`, one run on one thread), which must
//!   refuse it;
//! - `batch`: as the file of `run FILE` (a `.rhai` script or a `.lines` file of prompt lines);
//! - `prompt`: typed at the prompt (piped into `play`), after which the game must play on.
//!
//! A `.rhai` case runs in all five modes unless its header says otherwise. A `.lines` case is
//! prompt lines (`:save`, `:open`, `:load`, verbs), which no house rule can give: it runs as
//! `batch` and `prompt` only, and `house`, `with` and `sim` are refused in its `modes:`.
//!
//! Each run must be contained: the exit status the mode gives for an error (1), no panic, done
//! within [`HANG`], nothing outside its own temporary folder read into the output or written,
//! `/dev/null` still a device; and it must say what was wrong in a player's words, naming the
//! limit: every `expect:` line of the case's header, and one of its `expect-any:` choices.
//!
//! A case is a file whose first lines are `//` comments, the header:
//!
//! ```text
//! // attacks: what the case tries, in a sentence
//! // expect: words the diagnostic must hold (repeatable)
//! // expect-any: words | other words      (at least one of them)
//! // file PATH: TEXT                      (a file to make first; `\n` is a new line)
//! // repeat PATH N: TEXT                  (TEXT appended N times; `{N}` is the count)
//! // link PATH -> TARGET                  (a symlink to make first)
//! // fifo PATH                            (a named pipe to make first)
//! // modes: batch prompt (why)            (only these modes, and why not the others)
//! // pending: why it is not contained yet (the case is ignored until the line goes)
//! // pending prompt: why, in one mode only (`house`, `with`, `sim`, `batch` or `prompt`)
//! ```
//!
//! The modes' names are exact: `house` is `--with` alone, as `with` is `:with` alone (a
//! runner of three modes once ran both under `house`).
//!
//! Paths are relative to the temporary folder, whose `game/` holds a copy of the default
//! scenario (`game/game.yaml`) and the case (`game/case.rhai` or `game/case.lines`), and whose
//! `outside/` holds files no case may show or change (`secret.rhai`, `victim.json`).
//! `{OUTSIDE}` in a header or body is the absolute path of `outside/`.
//!
//! This is a test without libtest (`harness = false` in `Cargo.toml`) so that the cases are
//! found at run time: adding a case is adding a file. It takes libtest's usual arguments: a
//! filter, `--exact`, `--list`, `--ignored`, `--include-ignored`, `--test-threads N`; with
//! `HOSTILE_SHOW=1` in the environment it also prints the headline of each diagnostic.

#[path = "it/common/mod.rs"]
mod common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use common::{Output, run_program, squash};

/// How long one run may take before it counts as a hang: a call may take 2 s of processor
/// time and, blocked, 10 s by the clock; a run may meet that twice (`:with`, then the probe),
/// and a debug build needs time besides: 12,000 typed functions take 16 s of processor
/// time, and the corpus runs two cases at once on a machine that may be busy (the backstop
/// lets a call starved of a core run on for 120 s). That is `run_program`'s own limit,
/// at which it kills the run.
const HANG: Duration =
    sandtable::limits::TIME_BUDGET.saturating_mul(6 * sandtable::limits::WALL_CLOCK_FACTOR);

/// The seed of every game here.
const SEED: &str = "11";

/// Words no output may hold: they are only in the files of `outside/`.
const SECRET: &str = "SECRET-7731";

/// What `outside/victim.json` holds, and must still hold.
const VICTIM: &str = "{\"victim\": \"VICTIM-UNTOUCHED\"}\n";

/// A prompt line that shows the game plays on after the attack.
const PROBE: &str = "print(\"still\" + \"-playing-\" + 42)";
const PROBE_SAYS: &str = "still-playing-42";

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    House,
    With,
    Sim,
    Batch,
    Prompt,
}

impl Mode {
    const ALL: [Mode; 5] = [
        Mode::House,
        Mode::With,
        Mode::Sim,
        Mode::Batch,
        Mode::Prompt,
    ];
    /// The modes of a `.lines` case: prompt lines are no house rule.
    const LINES: [Mode; 2] = [Mode::Batch, Mode::Prompt];

    fn name(self) -> &'static str {
        match self {
            Mode::House => "house",
            Mode::With => "with",
            Mode::Sim => "sim",
            Mode::Batch => "batch",
            Mode::Prompt => "prompt",
        }
    }

    fn named(name: &str) -> Result<Mode, String> {
        Mode::ALL
            .into_iter()
            .find(|m| m.name() == name)
            .ok_or(format!("unknown mode `{name}`"))
    }
}

/// One file of `tests/hostile/`.
#[derive(Debug, Default)]
struct Case {
    name: String,
    /// `rhai` or `lines`.
    ext: String,
    attacks: String,
    expect: Vec<String>,
    expect_any: Vec<String>,
    files: Vec<(String, String)>,
    repeats: Vec<(String, usize, String)>,
    links: Vec<(String, String)>,
    fifos: Vec<String>,
    modes: Vec<Mode>,
    /// Why the case is not contained yet, in every mode (`None`) or one.
    pending: Vec<(Option<Mode>, String)>,
    /// The case without its header.
    body: String,
}

impl Case {
    /// Why the case is not contained yet in `mode`, if it is not.
    fn pending_in(&self, mode: Mode) -> Option<&str> {
        self.pending
            .iter()
            .find(|(m, _)| m.is_none_or(|m| m == mode))
            .map(|(_, why)| why.as_str())
    }
}

fn parse_case(path: &Path) -> Result<Case, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read: {e}"))?;
    let mut case = Case {
        name: path
            .file_stem()
            .and_then(|s| s.to_str())
            .ok_or("no name")?
            .to_string(),
        ext: path
            .extension()
            .and_then(|s| s.to_str())
            .unwrap_or("")
            .to_string(),
        ..Case::default()
    };
    case.modes = match case.ext.as_str() {
        "rhai" => Mode::ALL.to_vec(),
        "lines" => Mode::LINES.to_vec(),
        _ => return Err("a case is a `.rhai` or a `.lines` file".into()),
    };
    let mut lines = text.lines().peekable();
    while let Some(line) = lines.next_if(|l| l.starts_with("//")) {
        let line = line.trim_start_matches('/').trim_start();
        if line.is_empty() {
            continue;
        }
        // A value is taken as it is, spaces and all: `file` and `repeat` texts need them.
        let (key, value) = if let Some((k, v)) = line.split_once(": ") {
            (k.trim(), v)
        } else if let Some(rest) = line.strip_prefix("fifo ") {
            ("fifo", rest.trim())
        } else if let Some(rest) = line.strip_prefix("link ") {
            ("link", rest.trim())
        } else {
            // A comment continuing the one above.
            continue;
        };
        let unescape = |s: &str| s.replace("\\n", "\n");
        match key {
            "attacks" => case.attacks = value.trim().to_string(),
            "expect" => case.expect.push(value.trim().to_string()),
            "expect-any" => case
                .expect_any
                .extend(value.split(" | ").map(|s| s.trim().to_string())),
            "modes" => {
                // `modes: batch prompt (why not as a house rule)`
                case.modes = value
                    .split('(')
                    .next()
                    .unwrap_or("")
                    .split_whitespace()
                    .map(Mode::named)
                    .collect::<Result<_, _>>()?;
                if case.ext == "lines"
                    && let Some(m) = case.modes.iter().find(|m| !Mode::LINES.contains(m))
                {
                    return Err(format!(
                        "mode `{}` is for a house rule; prompt lines run as `batch` and `prompt`",
                        m.name()
                    ));
                }
            }
            "pending" => case.pending.push((None, value.trim().to_string())),
            k if k.starts_with("pending ") => {
                let mode = Mode::named(k["pending ".len()..].trim())?;
                case.pending.push((Some(mode), value.trim().to_string()));
            }
            "fifo" => case.fifos.push(value.trim().to_string()),
            "link" => {
                let (p, t) = value
                    .trim()
                    .split_once(" -> ")
                    .ok_or("link PATH -> TARGET")?;
                case.links
                    .push((p.trim().to_string(), t.trim().to_string()));
            }
            k if k.starts_with("file ") => case
                .files
                .push((k["file ".len()..].trim().to_string(), unescape(value))),
            k if k.starts_with("repeat ") => {
                let (p, n) = k["repeat ".len()..]
                    .trim()
                    .rsplit_once(' ')
                    .ok_or("repeat PATH N: TEXT")?;
                let n = n.parse().map_err(|_| format!("not a count: {n}"))?;
                case.repeats.push((p.to_string(), n, unescape(value)));
            }
            other => {
                // `// link a -> b: c` and the like are not directives; anything else is a typo.
                return Err(format!("unknown header line `{other}: {value}`"));
            }
        }
    }
    case.body = lines.collect::<Vec<_>>().join("\n");
    if case.attacks.is_empty() {
        return Err("the header lacks `// attacks:`".into());
    }
    if case.expect.is_empty() && case.expect_any.is_empty() {
        return Err("the header lacks `// expect:`".into());
    }
    Ok(case)
}

/// What a folder holds, symlinks and pipes unfollowed: path -> what it is.
fn snapshot(root: &Path) -> BTreeMap<PathBuf, String> {
    let mut out = BTreeMap::new();
    let mut todo = vec![root.to_path_buf()];
    while let Some(dir) = todo.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.file_name().is_some_and(|n| n == ".data") && dir == root {
                continue;
            }
            let Ok(meta) = std::fs::symlink_metadata(&path) else {
                continue;
            };
            let what = if meta.is_symlink() {
                format!("link to {:?}", std::fs::read_link(&path).ok())
            } else if meta.is_dir() {
                todo.push(path.clone());
                "folder".to_string()
            } else if meta.is_file() {
                let bytes = std::fs::read(&path).unwrap_or_default();
                format!("file of {} bytes, hash {:x}", bytes.len(), fnv(&bytes))
            } else {
                "special file".to_string()
            };
            out.insert(path.strip_prefix(root).unwrap_or(&path).to_path_buf(), what);
        }
    }
    out
}

fn fnv(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf29ce484222325, |h, b| {
        (h ^ u64::from(*b)).wrapping_mul(0x100000001b3)
    })
}

/// Makes the case's temporary folder; returns it and the case file's path inside it.
fn set_up(case: &Case) -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let ws = dir.path();
    let outside = ws.join("outside");
    let fill = |s: &str| s.replace("{OUTSIDE}", &outside.display().to_string());
    let write = |rel: &str, text: &str| {
        let path = ws.join(rel);
        std::fs::create_dir_all(path.parent().expect("a parent")).expect("a folder");
        std::fs::write(&path, text).expect("a file");
    };
    write(
        "game/game.yaml",
        &std::fs::read_to_string(common::project_file("scenarios/romans_vs_vikings.yaml"))
            .expect("the default scenario"),
    );
    write(
        "outside/secret.rhai",
        &format!("// {SECRET}\nfn secret() {{ \"{SECRET}\" }}\nlet secret = \"{SECRET}\";\n"),
    );
    write("outside/victim.json", VICTIM);
    // The case first, so that `repeat` may make it longer; without its header, which would
    // otherwise show in the diagnostics' snippets, expected words and all.
    let file = format!("game/case.{}", case.ext);
    write(&file, &fill(&case.body));
    for (path, text) in &case.files {
        write(path, &fill(text));
    }
    for (path, n, text) in &case.repeats {
        let mut all = std::fs::read_to_string(ws.join(path)).unwrap_or_default();
        for i in 0..*n {
            all.push_str(&fill(&text.replace("{N}", &i.to_string())));
        }
        write(path, &all);
    }
    for (path, target) in &case.links {
        let link = ws.join(path);
        std::fs::create_dir_all(link.parent().expect("a parent")).expect("a folder");
        std::os::unix::fs::symlink(fill(target), &link).expect("a symlink");
    }
    for path in &case.fifos {
        let status = std::process::Command::new("mkfifo")
            .arg(ws.join(path))
            .status()
            .expect("mkfifo runs");
        assert!(status.success(), "mkfifo {path}");
    }
    (dir, file)
}

/// Runs one case in one mode; an `Err` says what went wrong.
fn run(case: &Case, mode: Mode) -> Result<String, String> {
    let (dir, file) = set_up(case);
    let ws = dir.path();
    let before = snapshot(ws);
    let binary = common::BINARY;
    let project = common::project().display().to_string();
    let sandtable = |args: &[&str], stdin: Option<&str>| -> Output {
        let mut all = vec!["--project", project.as_str()];
        all.extend_from_slice(args);
        run_program(binary, ws, &all, stdin)
    };
    // What is typed at the prompt: the case as set up (`repeat` may have lengthened it).
    let body = std::fs::read_to_string(ws.join(&file)).expect("the case file");
    let play = ["play", "game/game.yaml", "--seed", SEED];
    let mut runs: Vec<(String, Output, bool)> = Vec::new();
    match mode {
        Mode::House => {
            let mut args = play.to_vec();
            args.extend(["--with", &file]);
            let out = sandtable(&args, Some(&format!("{PROBE}\n")));
            runs.push((format!("play --with {file}"), out, false));
        }
        Mode::With => {
            let out = sandtable(&play, Some(&format!(":with {file}\n{PROBE}\n")));
            runs.push((format!(":with {file} at the prompt"), out, true));
        }
        Mode::Sim => {
            // One run on one thread: the house rule is refused before any battle is played,
            // and more runs would only make the corpus slower.
            let out = sandtable(
                &[
                    "sim",
                    "game/game.yaml",
                    "--with",
                    &file,
                    "--runs",
                    "1",
                    "--threads",
                    "1",
                    "--seed",
                    SEED,
                ],
                None,
            );
            runs.push((format!("sim --with {file}"), out, false));
        }
        Mode::Batch => {
            let out = sandtable(
                &["run", &file, "--scenario", "game/game.yaml", "--seed", SEED],
                None,
            );
            runs.push((format!("run {file}"), out, false));
        }
        Mode::Prompt => {
            let out = sandtable(&play, Some(&format!("{body}\n{PROBE}\n")));
            runs.push(("typed at the prompt".to_string(), out, true));
        }
    }
    let mut problems = Vec::new();
    for (what, out, plays_on) in &runs {
        let all = format!("{}\n{}", out.stdout, out.stderr);
        let err = squash(&without_source(&out.stderr));
        let mut bad = Vec::new();
        if out.code != 1 {
            bad.push(format!("exit status {} instead of 1", out.code));
        }
        for word in ["panicked", "RUST_BACKTRACE"] {
            if all.contains(word) {
                bad.push(format!("the output holds `{word}`"));
            }
        }
        if all.contains(SECRET) || all.contains("root:x:0:0") {
            bad.push("the output shows a file from outside the folders".to_string());
        }
        if out.elapsed > HANG {
            bad.push(format!("took {:?}, more than {HANG:?}", out.elapsed));
        }
        for word in &case.expect {
            if !err.contains(&squash(word)) {
                bad.push(format!("the diagnostic lacks {word:?}"));
            }
        }
        if !case.expect_any.is_empty() && !case.expect_any.iter().any(|w| err.contains(&squash(w)))
        {
            bad.push(format!(
                "the diagnostic holds none of {:?}",
                case.expect_any
            ));
        }
        if *plays_on && !out.stdout.contains(PROBE_SAYS) {
            bad.push("the game did not play on afterwards".to_string());
        }
        if mode == Mode::House && out.stdout.contains(PROBE_SAYS) {
            bad.push("the game started with the house rule".to_string());
        }
        if !bad.is_empty() {
            problems.push(format!(
                "{what}: {}\n--- stdout (its end) ---\n{}\n--- stderr (its start) ---\n{}",
                bad.join("; "),
                tail(&out.stdout, 1500),
                head(&out.stderr, 3000)
            ));
        }
    }
    let after = snapshot(ws);
    if before != after {
        let changed: Vec<String> = before
            .iter()
            .filter(|(p, w)| after.get(*p) != Some(*w))
            .map(|(p, _)| format!("{} changed or went", p.display()))
            .chain(
                after
                    .keys()
                    .filter(|p| !before.contains_key(*p))
                    .map(|p| format!("{} appeared", p.display())),
            )
            .collect();
        problems.push(format!("files were written: {}", changed.join(", ")));
    }
    if std::fs::read_to_string(ws.join("outside/victim.json"))
        .ok()
        .as_deref()
        != Some(VICTIM)
    {
        problems.push("outside/victim.json was changed".to_string());
    }
    if !is_device("/dev/null") {
        problems.push("/dev/null is no longer a device".to_string());
    }
    if problems.is_empty() {
        // The diagnostics' headlines, for `HOSTILE_SHOW=1`.
        Ok(runs
            .iter()
            .flat_map(|(_, out, _)| out.stderr.lines().filter(|l| l.contains('×')))
            .map(str::trim)
            .collect::<Vec<_>>()
            .join("\n    "))
    } else {
        Err(problems.join("\n"))
    }
}

/// A diagnostic without the lines of source it quotes (`12 │ let x = ...`), so that the words
/// a case expects are found in what the program says, not in the case's own text.
fn without_source(stderr: &str) -> String {
    stderr
        .lines()
        .filter(|line| {
            let t = line.trim_start();
            let digits = t.len() - t.trim_start_matches(|c: char| c.is_ascii_digit()).len();
            !(digits > 0 && t[digits..].starts_with(" │"))
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn is_device(path: &str) -> bool {
    use std::os::unix::fs::FileTypeExt;
    std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_char_device())
}

fn head(text: &str, n: usize) -> &str {
    match text.char_indices().nth(n) {
        Some((i, _)) => &text[..i],
        None => text,
    }
}

fn tail(text: &str, n: usize) -> &str {
    let count = text.chars().count();
    match text.char_indices().nth(count.saturating_sub(n)) {
        Some((i, _)) => &text[i..],
        None => text,
    }
}

/// libtest's arguments, those that matter here.
#[derive(Default)]
struct Args {
    filters: Vec<String>,
    exact: bool,
    list: bool,
    ignored: bool,
    include_ignored: bool,
    threads: Option<usize>,
}

fn args() -> Args {
    let mut args = Args::default();
    let mut it = std::env::args().skip(1);
    while let Some(a) = it.next() {
        match a.as_str() {
            "--exact" => args.exact = true,
            "--list" => args.list = true,
            "--ignored" => args.ignored = true,
            "--include-ignored" => args.include_ignored = true,
            "--test-threads" => args.threads = it.next().and_then(|n| n.parse().ok()),
            "--format" | "--color" | "--logfile" | "--skip" => {
                it.next();
            }
            a if a.starts_with("--test-threads=") => {
                args.threads = a["--test-threads=".len()..].parse().ok()
            }
            a if a.starts_with('-') => {}
            _ => args.filters.push(a),
        }
    }
    args
}

fn main() {
    let args = args();
    let folder = common::project().join("tests/hostile");
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&folder)
        .expect("tests/hostile")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "rhai" || e == "lines"))
        .collect();
    paths.sort();
    let mut cases = Vec::new();
    let mut broken = Vec::new();
    for path in &paths {
        match parse_case(path) {
            Ok(case) => cases.push(Arc::new(case)),
            Err(e) => broken.push(format!("broken case file: {}: {e}", path.display())),
        }
    }
    // The tests: (name, case, mode), filtered as libtest would.
    let mut tests = Vec::new();
    let mut filtered_out = 0;
    for case in &cases {
        for mode in case.modes.clone() {
            let name = format!("{}::{}", case.name, mode.name());
            let wanted = args.filters.is_empty()
                || args.filters.iter().any(|f| {
                    if args.exact {
                        &name == f
                    } else {
                        name.contains(f.as_str())
                    }
                });
            if wanted {
                tests.push((name, case.clone(), mode));
            } else {
                filtered_out += 1;
            }
        }
    }
    if args.list {
        for (name, _, _) in &tests {
            println!("{name}: test");
        }
        return;
    }
    let started = Instant::now();
    // The project's own files, which no case may change (each case's files are checked in
    // its own folder).
    let project_files =
        || ["scripts", "scenarios", "examples"].map(|d| snapshot(&common::project().join(d)));
    let project_before = project_files();
    // With `--ignored`, only the pending tests run; the others are filtered out, as libtest
    // does.
    if args.ignored && !args.include_ignored {
        let before = tests.len();
        tests.retain(|(_, case, mode)| case.pending_in(*mode).is_some());
        filtered_out += before - tests.len();
    }
    let (run_now, ignored): (Vec<_>, Vec<_>) = tests.into_iter().partition(|(_, case, mode)| {
        args.include_ignored || args.ignored || case.pending_in(*mode).is_none()
    });
    println!("\nrunning {} tests", run_now.len() + ignored.len());
    for (name, case, mode) in &ignored {
        println!(
            "test {name} ... ignored, {}",
            case.pending_in(*mode).unwrap_or("not pending")
        );
    }
    let queue = Arc::new(Mutex::new(run_now));
    let results = Arc::new(Mutex::new(Vec::new()));
    // The runs mostly wait (on a time budget, on a child process): more workers than cores.
    let workers = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(2, |n| n.get()) * 3);
    // Failures are reported below, by test; the default hook would print each one again.
    std::panic::set_hook(Box::new(|_| {}));
    let handles: Vec<_> = (0..workers.max(1))
        .map(|_| {
            let queue = queue.clone();
            let results = results.clone();
            std::thread::spawn(move || {
                loop {
                    let Some((name, case, mode)) = queue.lock().expect("the queue").pop() else {
                        break;
                    };
                    let outcome =
                        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| run(&case, mode)))
                            .unwrap_or_else(|panic| {
                                Err(panic
                                    .downcast_ref::<String>()
                                    .cloned()
                                    .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                                    .unwrap_or_else(|| "the test panicked".to_string()))
                            });
                    println!(
                        "test {name} ... {}",
                        if outcome.is_ok() { "ok" } else { "FAILED" }
                    );
                    if let (Some(_), Ok(headlines)) = (std::env::var_os("HOSTILE_SHOW"), &outcome) {
                        println!("    {headlines}");
                    }
                    results
                        .lock()
                        .expect("the results")
                        .push((name, case, mode, outcome));
                }
            })
        })
        .collect();
    for h in handles {
        h.join().expect("a worker");
    }
    let results = std::mem::take(&mut *results.lock().expect("the results"));
    let mut failed: Vec<_> = results.iter().filter(|(_, _, _, o)| o.is_err()).collect();
    failed.sort_by(|a, b| a.0.cmp(&b.0));
    let passed = results.len() - failed.len();
    for (name, case, _, outcome) in &failed {
        println!(
            "\n---- {name} ({}: {}) ----\n{}",
            case.name,
            case.attacks,
            outcome.as_ref().err().map_or("", String::as_str)
        );
    }
    let now_contained: Vec<_> = results
        .iter()
        .filter(|(_, case, mode, o)| case.pending_in(*mode).is_some() && o.is_ok())
        .map(|(name, _, _, _)| name.as_str())
        .collect();
    if !now_contained.is_empty() {
        println!(
            "\nthese pending cases pass now; take the `// pending:` line out of their files: {}",
            now_contained.join(", ")
        );
    }
    if !failed.is_empty() {
        println!("\nfailures:");
        for (name, _, _, _) in &failed {
            println!("    {name}");
        }
    }
    if project_files() != project_before {
        broken.push("the project's scripts, scenarios or examples changed during the run".into());
    }
    for b in &broken {
        println!("\n{b}");
    }
    let ok = failed.is_empty() && broken.is_empty();
    println!(
        "\ntest result: {}. {passed} passed; {} failed; {} ignored; 0 measured; {filtered_out} filtered out; finished in {:.2}s\n",
        if ok { "ok" } else { "FAILED" },
        failed.len() + broken.len(),
        ignored.len(),
        started.elapsed().as_secs_f64()
    );
    if !ok {
        std::process::exit(101);
    }
}
