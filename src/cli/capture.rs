//! The command line run in the process: [`run_in_process`] runs what `sandtable ARGS` runs,
//! on the calling thread, with standard input read from a text, standard output and standard
//! error written to strings, and the data folder (journals, history) given, so that a test
//! reads the very output of the binary without starting it.
//!
//! The capture is per thread (tests run side by side on many threads) and sets nothing in the
//! process: no environment variable, no current folder. While one is set, the command line's
//! writers ([`super::write_out`], [`super::write_err`] and their kin), the piped prompt's
//! reader and every question "is this a terminal?" go to it instead of the real streams;
//! without one they go to the real streams, as `main` wants.
//!
//! What stays the process's: relative paths are from the process's current folder (pass them
//! absolute), and the memory limit is counted by the binary's allocator only.

use std::cell::RefCell;
use std::ffi::OsString;
use std::io::BufRead;
use std::path::{Path, PathBuf};

/// What one run of the command line printed, and its exit status.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Captured {
    /// Standard output.
    pub stdout: String,
    /// Standard error.
    pub stderr: String,
    /// The exit status: 0 success, 1 an error of the game or a script, 2 bad usage.
    pub code: u8,
}

/// Runs the command line `args` (the words after `sandtable`, as `main` would see them) on
/// this thread: standard input is `stdin` (never a terminal, so `play` is the piped prompt),
/// and the data folder, where journals and the prompt's history go, is `data`.
///
/// Returns what went to standard output and standard error, and the exit status, as the
/// binary would have printed and returned them.
///
/// ```no_run
/// let out = sandtable::cli::run_in_process(
///     ["--project", "/path/to/project", "play", "/path/to/game.yaml", "--seed", "1"],
///     "move viking_1 3\n",
///     std::path::Path::new("/tmp/sandtable-data"),
/// );
/// assert_eq!(out.code, 0);
/// ```
pub fn run_in_process<I, T>(args: I, stdin: &str, data: &Path) -> Captured
where
    I: IntoIterator<Item = T>,
    T: Into<OsString>,
{
    let words: Vec<OsString> = std::iter::once(OsString::from("sandtable"))
        .chain(args.into_iter().map(Into::into))
        .collect();
    let _guard = Guard::set(Capture {
        out: Vec::new(),
        err: Vec::new(),
        input: std::io::Cursor::new(stdin.as_bytes().to_vec()),
        data: data.to_path_buf(),
    });
    let code = super::run(words);
    let capture = CAPTURE.with(|c| c.borrow_mut().take());
    let (out, err) = capture.map_or_else(Default::default, |c| (c.out, c.err));
    Captured {
        stdout: String::from_utf8_lossy(&out).into_owned(),
        stderr: String::from_utf8_lossy(&err).into_owned(),
        code,
    }
}

/// The streams and data folder of a run in the process.
struct Capture {
    out: Vec<u8>,
    err: Vec<u8>,
    input: std::io::Cursor<Vec<u8>>,
    data: PathBuf,
}

thread_local! {
    static CAPTURE: RefCell<Option<Capture>> = const { RefCell::new(None) };
}

/// Clears the thread's capture when the run ends, even by a panic, so that the thread's next
/// test starts with the real streams.
struct Guard;

impl Guard {
    fn set(capture: Capture) -> Guard {
        CAPTURE.with(|c| *c.borrow_mut() = Some(capture));
        Guard
    }
}

impl Drop for Guard {
    fn drop(&mut self) {
        let _ = CAPTURE.try_with(|c| c.borrow_mut().take());
    }
}

/// Runs `f` on the thread's capture, if there is one.
fn with_capture<R>(f: impl FnOnce(&mut Capture) -> R) -> Option<R> {
    CAPTURE.with(|c| c.borrow_mut().as_mut().map(f))
}

/// Appends `bytes` to the captured standard output; false when nothing is captured.
pub(super) fn out(bytes: &[u8]) -> bool {
    with_capture(|c| c.out.extend_from_slice(bytes)).is_some()
}

/// Appends `bytes` to the captured standard error; false when nothing is captured.
pub(super) fn err(bytes: &[u8]) -> bool {
    with_capture(|c| c.err.extend_from_slice(bytes)).is_some()
}

/// Whether this thread's output and input are captured.
pub(super) fn active() -> bool {
    with_capture(|_| ()).is_some()
}

/// One line of standard input, without its line end; `None` at the end (or on a failure).
pub(super) fn read_line() -> Option<String> {
    let mut line = String::new();
    let read = match with_capture(|c| c.input.read_line(&mut line)) {
        Some(read) => read,
        None => std::io::stdin().read_line(&mut line),
    };
    match read {
        Ok(0) | Err(_) => None,
        Ok(_) => Some(line.trim_end_matches(['\n', '\r']).to_string()),
    }
}

/// Up to `max` bytes of what is left of standard input.
pub(super) fn read_to_end(max: u64) -> std::io::Result<Vec<u8>> {
    use std::io::Read;
    let mut bytes = Vec::new();
    match with_capture(|c| (&mut c.input).take(max).read_to_end(&mut bytes)) {
        Some(read) => read?,
        None => std::io::stdin().take(max).read_to_end(&mut bytes)?,
    };
    Ok(bytes)
}

/// The data folder: the capture's, else the player's ([`crate::game::data_dir`]).
pub(crate) fn data_dir() -> Option<PathBuf> {
    with_capture(|c| c.data.clone()).or_else(crate::game::data_dir::data_dir)
}

/// Whether `stream` (`std::io::stdin()`, `stdout()`, `stderr()`) is a terminal; a captured
/// one never is.
pub(super) fn is_terminal(stream: impl std::io::IsTerminal) -> bool {
    !active() && stream.is_terminal()
}
