//! The prompt on a real terminal: a pseudo-terminal made by `script` (util-linux), so that
//! rustyline's line editing, completion, hints and multi-line entry are what is tested.

use crate::common;

use std::io::{Read, Write};
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The prompt of the default scenario's first turn.
const PROMPT: &str = "turn 1 · vikings > ";

// Guards the interactive prompt end to end: Tab completes a verb (and the space after it),
// a hint shows its parameters, the melee is played, a multi-line function is entered and
// called, `:quit` leaves.
#[test]
fn prompt_on_a_terminal_completes_and_plays() {
    let mut pty = Pty::play(&["--seed", "3"]);
    pty.expect(PROMPT);
    // `mel` is no verb: the melee happens only if Tab completed it, and `viking_1` is its
    // first argument only if the completion ended the word.
    pty.keys("mel\tviking_1 legionary_1\n");
    pty.expect("viking_1 wins 4 to 2: legionary_1 is killed");
    pty.expect(PROMPT);
    pty.keys("fn two() {\n");
    pty.expect("... ");
    pty.keys("  2 }\n");
    pty.expect(PROMPT);
    pty.keys("two()\n");
    pty.expect("=> 2");
    pty.expect(PROMPT);
    pty.keys(":quit\n");
    // The melee is not saved.
    pty.expect(LEAVE);
    pty.keys("y\n");
    let screen = pty.finish();
    assert!(screen.contains("melee viking_1 legionary_1"), "{screen}");
}

// Guards secret orders at one keyboard (Soldiers in Time: "orders are secret chits"): the
// order was on the screen as it was typed, and so was what it said. Now the ruleset's secret
// verb shows its arguments as `*` and tells only "order written", and is kept out of the
// history; Tab completes the orders where the verb takes one.
#[test]
fn a_secret_order_is_typed_without_echo() {
    let scenario = format!(
        "{}/scenarios/sint_edgehill_lane.yaml",
        env!("CARGO_MANIFEST_DIR")
    );
    let mut pty = Pty::play(&[&scenario, "--seed", "1"]);
    let prompt = "turn 1 · orders · royalists > ";
    pty.expect(prompt);
    pty.keys("order astley volley_f\t\n");
    pty.expect("order written");
    pty.expect(prompt);
    // The order was written: it is astley's, whatever the screen showed.
    pty.keys("print(unit(\"astley\").stat(\"_order\").len())\n");
    pty.expect("11");
    pty.expect(prompt);
    // The arrow up brings back the print, not the order.
    pty.keys("\x1b[A\x1b[A\n");
    pty.expect("11");
    pty.expect(prompt);
    pty.keys(":quit\n");
    pty.expect(LEAVE);
    pty.keys("y\n");
    let screen = pty.finish();
    assert!(screen.contains("order ****** "), "{screen}");
    assert!(
        !screen.contains("volley"),
        "the order is on the screen:\n{screen}"
    );
    assert!(!screen.contains("write an order for"), "{screen}");
}

// Guards Tab listing the matches: it cycled through them instead, putting one after another
// on the line.
#[test]
fn tab_twice_lists_the_matches() {
    let mut pty = Pty::play(&["--seed", "3"]);
    pty.expect(PROMPT);
    // The first Tab completes what the matches share, the second lists them.
    pty.keys("melee viking_1 leg\t\t");
    pty.expect("legionary_1  legionary_2  legionary_3");
    pty.keys("1\n");
    pty.expect("viking_1 wins 4 to 2: legionary_1 is killed");
    pty.expect(PROMPT);
    pty.keys(":quit\n");
    pty.expect(LEAVE);
    pty.keys("y\n");
    pty.finish();
}

// Guards the phase in the prompt: a ruleset that keeps phases shows the one it is in between
// the turn and the side, and `:undo` says where play stands again.
#[test]
fn the_prompt_shows_the_phase() {
    let mut pty = Pty::play(&["--seed", "3"]);
    pty.expect(PROMPT);
    pty.keys("set_phase(\"movement\")\n");
    pty.expect("phase: movement");
    pty.expect("turn 1 · movement · vikings > ");
    pty.keys("set_phase(\"shooting\")\n");
    pty.expect("turn 1 · shooting · vikings > ");
    pty.keys(":undo\n");
    pty.expect("1 action undone: turn 1, movement, vikings to play");
    pty.expect("turn 1 · movement · vikings > ");
    pty.keys(":undo\n");
    pty.expect("1 action undone: turn 1, vikings to play");
    pty.expect(PROMPT);
    pty.keys(":quit\n");
    pty.finish();
}

// Guards the map's colours: at a terminal each side's marks are in its colour, and with
// `NO_COLOR` set they are plain.
#[test]
fn map_at_a_terminal_is_in_colour_unless_no_color_is_set() {
    for colour in [true, false] {
        let mut pty = Pty::play_with(&["--seed", "3"], colour);
        pty.expect(PROMPT);
        pty.keys(":map\n");
        pty.expect(" terrain: ");
        pty.expect(PROMPT);
        pty.keys(":quit\n");
        pty.wait_end();
        let screen = pty.raw_screen();
        let red_a = "\x1b[1;31mA\x1b[0m legionary_1 ↑";
        let cyan_a = "\x1b[1;36ma\x1b[0m viking_1 ↓";
        if colour {
            assert!(
                screen.contains(red_a) && screen.contains(cyan_a),
                "{screen}"
            );
        } else {
            assert!(
                !screen.contains(red_a) && screen.contains("A legionary_1 ↑"),
                "{screen}"
            );
        }
    }
}

/// The question before leaving a game with unsaved changes.
const LEAVE: &str = "the game has changes since it was last saved; leave anyway? [y/N] ";

// Guards leaving by mistake: `:quit` and Ctrl-D left a game with unsaved changes without a
// word. At a terminal they ask first; no (the default) stays, yes or a second Ctrl-D
// leaves; a game just saved, or with nothing done, leaves at once.
#[test]
fn leaving_unsaved_changes_asks_first() {
    let mut pty = Pty::play(&["--seed", "3"]);
    pty.expect(PROMPT);
    pty.keys("roll 1d6\n");
    pty.expect("1d6: ");
    pty.expect(PROMPT);
    pty.keys(":quit\n");
    pty.expect(LEAVE);
    // Enter is no.
    pty.keys("\n");
    pty.expect(PROMPT);
    pty.keys("\x04");
    pty.expect(LEAVE);
    pty.keys("n\n");
    pty.expect(PROMPT);
    pty.keys(":save game.json\n");
    pty.expect("saved to game.json");
    pty.expect(PROMPT);
    pty.keys(":quit\n");
    let screen = pty.finish();
    assert_eq!(screen.matches(LEAVE).count(), 2, "{screen}");

    // Yes leaves; so does Ctrl-D at the question.
    for answer in ["y\n", "\x04"] {
        let mut pty = Pty::play(&["--seed", "3"]);
        pty.expect(PROMPT);
        pty.keys("roll 1d6\n");
        pty.expect(PROMPT);
        pty.keys("\x04");
        pty.expect(LEAVE);
        pty.keys(answer);
        pty.finish();
    }

    // Nothing done, nothing to ask.
    let mut pty = Pty::play(&["--seed", "3"]);
    pty.expect(PROMPT);
    pty.keys("\x04");
    let screen = pty.finish();
    assert!(!screen.contains(LEAVE), "{screen}");
}

// Guards throwing a game away by mistake: `:open` and `:load` replaced a game with unsaved
// changes without a word, where `:quit` asks. At a terminal they ask as `:quit` does: no (the
// default) keeps the game, yes replaces it; a game with nothing unsaved is replaced at once.
#[test]
fn opening_or_loading_over_unsaved_changes_asks_first() {
    const OPEN: &str =
        "the game has changes since it was last saved; open the other game anyway? [y/N] ";
    const LOAD: &str =
        "the game has changes since it was last saved; start a new game anyway? [y/N] ";
    let load = format!(
        ":load {}\n",
        common::project_file("scenarios/romans_vs_vikings.yaml")
    );
    let mut pty = Pty::play(&["--seed", "3"]);
    pty.expect(PROMPT);
    pty.keys(":save game.json\n");
    pty.expect("saved to game.json");
    pty.expect(PROMPT);
    pty.keys("roll 1d6\n");
    pty.expect("1d6: ");
    pty.expect(PROMPT);
    pty.keys(":open game.json\n");
    pty.expect(OPEN);
    // Enter is no: the roll is still there.
    pty.keys("\n");
    pty.expect(PROMPT);
    pty.keys(&load);
    pty.expect(LOAD);
    pty.keys("n\n");
    pty.expect(PROMPT);
    pty.keys(":log 1\n");
    pty.expect("1d6: ");
    pty.expect(PROMPT);
    pty.keys(&load);
    pty.expect(LOAD);
    pty.keys("y\n");
    pty.expect(PROMPT);
    // A new game: nothing unsaved, so `:open` asks nothing.
    pty.keys(":open game.json\n");
    pty.expect("opened game.json: turn 1, vikings to play");
    pty.expect(PROMPT);
    pty.keys("roll 2d6\n");
    pty.expect("2d6: ");
    pty.expect(PROMPT);
    pty.keys(":open game.json\n");
    pty.expect(OPEN);
    pty.keys("y\n");
    pty.expect("opened game.json: turn 1, vikings to play");
    pty.expect(PROMPT);
    pty.keys(":log 1\n");
    pty.expect(PROMPT);
    pty.keys(":quit\n");
    let screen = pty.finish();
    assert_eq!(screen.matches(OPEN).count(), 2, "{screen}");
    assert_eq!(screen.matches(LOAD).count(), 2, "{screen}");
    assert!(!screen.contains(LEAVE), "{screen}");
    // The game opened last is the one saved first: its log ends with the scenario's start.
    let after = screen.rsplit(":log 1").next().expect("the last `:log`");
    assert!(!after.contains("d6: "), "{screen}");
}

// Guards hearing of an edit at once: a script saved while the prompt waited was noticed
// only when the next line was entered. Now, within a second, the prompt says that the new
// rules take effect from the next line, or shows why they do not compile; the reload itself
// still happens before the next action.
#[test]
fn an_edit_is_announced_while_the_prompt_waits() {
    let dir = tempfile::tempdir().expect("a folder");
    let rule = dir.path().join("house.rhai");
    std::fs::write(&rule, "fn unused() { 1 }\n").expect("a house rule");
    let mut pty = Pty::play_in(dir, &["--seed", "3", "--with", "house.rhai"], false);
    pty.expect(PROMPT);
    // The notice comes within a second on an idle machine; what this test holds is that it
    // comes while the prompt waits, with no line entered, so it allows a machine busy with
    // the rest of the test suite plenty of time (it goes on as soon as the notice shows).
    let soon = Duration::from_secs(30);
    std::fs::write(&rule, "fn unused() { 22 }\n").expect("an edit");
    let notice = "house.rhai changed: the new rules take effect from your next line";
    assert!(pty.shows_within(notice, soon), "{}", pty.screen());
    std::fs::write(&rule, "fn unused( {\n").expect("a broken edit");
    let broken = "house.rhai changed, but the old rules stay in force:";
    assert!(pty.shows_within(broken, soon), "{}", pty.screen());
    assert!(
        pty.shows_within("expected `)` to close the parameters list", soon),
        "{}",
        pty.screen()
    );
    std::fs::write(&rule, "fn unused() { 333 }\n").expect("a mended edit");
    assert!(pty.shows_within(notice, soon), "{}", pty.screen());
    // Nothing was typed: the prompt is still waiting, and the reload comes with the next line.
    pty.keys("roll 1d6\n");
    pty.expect("house.rhai changed: reloaded the scripts");
    pty.expect("1d6: ");
    pty.expect(PROMPT);
    pty.keys(":quit\n");
    pty.expect(LEAVE);
    pty.keys("y\n");
    pty.finish();
}

/// The binary at a pseudo-terminal made by `script` (util-linux): keys are typed into it,
/// and what it shows is read as it comes.
struct Pty {
    child: std::process::Child,
    stdin: Option<std::process::ChildStdin>,
    screen: Arc<Mutex<Vec<u8>>>,
    reader: Option<std::thread::JoinHandle<()>>,
    /// Where in the screen the last expected text ended.
    seen: usize,
    /// The folder it runs in (its data folder is `.data` inside), removed when done.
    _dir: tempfile::TempDir,
}

impl Pty {
    /// `sandtable --project <this crate> play ARGS` at a terminal, in a temporary folder;
    /// Fails the test when `script` is not installed.
    fn play(args: &[&str]) -> Pty {
        Pty::play_with(args, false)
    }

    /// As [`Pty::play`]; with `colour`, `NO_COLOR` is not set.
    fn play_with(args: &[&str], colour: bool) -> Pty {
        Pty::play_in(tempfile::tempdir().expect("a folder"), args, colour)
    }

    /// As [`Pty::play_with`], in `dir`.
    fn play_in(dir: tempfile::TempDir, args: &[&str], colour: bool) -> Pty {
        need_script();
        Pty::start(dir, args, colour)
    }

    fn start(dir: tempfile::TempDir, args: &[&str], colour: bool) -> Pty {
        let command = format!(
            "{} --project {} play {}",
            common::BINARY,
            env!("CARGO_MANIFEST_DIR"),
            args.join(" ")
        );
        let mut script = Command::new("script");
        script
            .args(["-qfec", &command, "/dev/null"])
            .current_dir(dir.path())
            .env("SANDTABLE_DATA", dir.path().join(".data"))
            .env("TERM", "xterm");
        if colour {
            script.env_remove("NO_COLOR");
        } else {
            script.env("NO_COLOR", "1");
        }
        let mut child = script
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("script starts");
        let stdin = child.stdin.take();
        let mut out = child.stdout.take().expect("stdout");
        let screen = Arc::new(Mutex::new(Vec::new()));
        let shown = screen.clone();
        let reader = std::thread::spawn(move || {
            let mut buf = [0; 4096];
            while let Ok(n) = out.read(&mut buf) {
                if n == 0 {
                    break;
                }
                shown.lock().expect("screen").extend_from_slice(&buf[..n]);
            }
        });
        Pty {
            child,
            stdin,
            screen,
            reader: Some(reader),
            seen: 0,
            _dir: dir,
        }
    }

    /// Types keys.
    fn keys(&mut self, keys: &str) {
        let stdin = self.stdin.as_mut().expect("the terminal is open");
        stdin.write_all(keys.as_bytes()).expect("keys");
        stdin.flush().expect("keys");
    }

    /// What has been shown so far, without control sequences or carriage returns.
    fn screen(&self) -> String {
        strip_escapes(&self.raw_screen().replace('\r', ""))
    }

    /// What has been shown so far, control sequences and all.
    fn raw_screen(&self) -> String {
        let bytes = self.screen.lock().expect("screen").clone();
        String::from_utf8_lossy(&bytes).into_owned()
    }

    /// Waits until `text` is shown after what was last expected, for up to `within`.
    fn shows_within(&mut self, text: &str, within: Duration) -> bool {
        let start = Instant::now();
        loop {
            let screen = self.screen();
            let from = self.seen.min(screen.len());
            if let Some(i) = screen[from..].find(text) {
                self.seen = from + i + text.len();
                return true;
            }
            if start.elapsed() > within {
                return false;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Waits until `text` is shown after what was last expected; fails the test after
    /// [`common::TIMEOUT`]. Keys typed before the prompt is ready may be lost: expect it first.
    #[track_caller]
    fn expect(&mut self, text: &str) {
        assert!(
            self.shows_within(text, common::TIMEOUT),
            "{text:?} not shown:\n{}",
            self.screen()
        );
    }

    /// Closes the terminal's input and waits for the program to end; fails the test if it
    /// does not.
    #[track_caller]
    fn wait_end(&mut self) {
        drop(self.stdin.take());
        let start = Instant::now();
        while self.child.try_wait().expect("waiting").is_none() {
            if start.elapsed() > common::TIMEOUT {
                let _ = self.child.kill();
                let _ = self.child.wait();
                panic!("the prompt did not end:\n{}", self.screen());
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        if let Some(r) = self.reader.take() {
            let _ = r.join();
        }
    }

    /// As [`Pty::wait_end`]; returns everything shown.
    #[track_caller]
    fn finish(mut self) -> String {
        self.wait_end();
        self.screen()
    }
}

impl Drop for Pty {
    fn drop(&mut self) {
        if self.child.try_wait().ok().flatten().is_none() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
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
// error while the battles run (the piped case, with no bar, is in tests/it/sim.rs), and clears
// it before the report.
#[test]
fn sim_on_a_terminal_shows_a_progress_bar() {
    need_script();
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

/// Fails the test, saying what to install, when `script` (util-linux) is missing: a terminal
/// test never passes by skipping. `.ci/run` installs it.
#[track_caller]
fn need_script() {
    if Command::new("script").arg("--version").output().is_err() {
        panic!(
            "the terminal tests need `script` from util-linux (Debian: `apt-get install bsdutils`)"
        );
    }
}
