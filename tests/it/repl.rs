//! The table-side prompt: undo and redo, save and open, reload and hot reload.

use crate::common;

use std::io::{BufRead, BufReader, Write};
use std::process::Stdio;
use std::sync::mpsc;
use std::time::Duration;

use common::{Workspace, sandtable};

/// Starts the binary in the project copy `ws` with `args` and streams its standard output,
/// line by line, to the receiver; `stdin` says whether the test will type into it.
fn spawn_streaming(
    ws: &Workspace,
    args: &[&str],
    stdin: bool,
) -> (std::process::Child, mpsc::Receiver<String>) {
    let mut child = common::binary_command(ws.path(), args)
        .current_dir(ws.path())
        .stdin(if stdin { Stdio::piped() } else { Stdio::null() })
        .stdout(Stdio::piped())
        .stderr(if stdin { Stdio::piped() } else { Stdio::null() })
        .spawn()
        .expect("the binary starts");
    let (tx, rx) = mpsc::channel();
    let stdout = child.stdout.take().expect("stdout");
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    (child, rx)
}

/// The narration of the line after `> LINE` up to the next prompt echo.
fn after<'a>(stdout: &'a str, line: &str, nth: usize) -> &'a str {
    let marker = format!("> {line}\n");
    let start = stdout
        .match_indices(&marker)
        .nth(nth)
        .expect("the line was echoed")
        .0
        + marker.len();
    let rest = &stdout[start..];
    &rest[..rest.find("\n> ").map_or(rest.len(), |i| i + 1)]
}

// Guards "undo restores the generator too, so taking the same action again gives the same
// dice: nobody fishes for a better roll".
#[test]
fn undo_puts_the_dice_back() {
    let out = sandtable(
        &["play", "--seed", "3"],
        Some("melee viking_1 legionary_1\n:undo\nmelee viking_1 legionary_1\n"),
    );
    out.expect_code(0);
    let first = after(&out.stdout, "melee viking_1 legionary_1", 0);
    let again = after(&out.stdout, "melee viking_1 legionary_1", 1);
    assert!(first.contains("1d6kh1 [4]"), "{first}");
    assert_eq!(first, again);
    out.stdout_has(&["> :undo\n1 action undone: turn 1, vikings to play\n"]);
}

// Guards :undo N and :redo: the game goes back and forth, and a new action forgets the redo.
#[test]
fn undo_several_and_redo() {
    let out = sandtable(
        &["play", "--seed", "3"],
        Some(
            "melee viking_1 legionary_1\nmelee viking_2 legionary_2\n:undo 2\n\
             print(unit(\"legionary_1\").in_play)\n:redo\nprint(unit(\"legionary_1\").in_play)\n\
             :undo\nend_turn\n:redo\n",
        ),
    );
    out.expect_code(0).stdout_has(&[
        "> :undo 2\n2 actions undone: turn 1, vikings to play\n> print(unit(\"legionary_1\").in_play)\ntrue\n",
        "> :redo\n1 action redone: turn 1, vikings to play\n> print(unit(\"legionary_1\").in_play)\nfalse\n",
        "> :redo\nnothing to be redone\n",
    ]);
}

// Guards that a game saved and opened again goes on exactly as one never interrupted.
#[test]
fn saved_game_continues_as_if_never_interrupted() {
    let ws = Workspace::new();
    let straight = ws.sandtable(
        &["play", "--seed", "3"],
        Some("melee viking_1 legionary_1\nmelee viking_2 legionary_2\nend_turn\nmove legionary_3 22 15\n"),
    );
    let saved = ws.sandtable(
        &["play", "--seed", "3"],
        Some("melee viking_1 legionary_1\n:save game.json\n"),
    );
    saved.expect_code(0).stdout_has(&["saved to game.json\n"]);
    let opened = ws.sandtable(
        &["play", "--open", "game.json"],
        Some("melee viking_2 legionary_2\nend_turn\nmove legionary_3 22 15\n"),
    );
    opened.expect_code(0);
    let tail = |s: &str| s[s.find("> melee viking_2").expect("the second melee")..].to_string();
    assert_eq!(tail(&opened.stdout), tail(&straight.stdout));
    let text = std::fs::read_to_string(ws.path().join("game.json")).expect("the save");
    let save: serde_json::Value = serde_json::from_str(&text).expect("a JSON save");
    assert_eq!(save["format"], 1);
    assert_eq!(save["rng"]["seed"], 3);
}

// Guards that a save that cannot be written says so (writing, not reading) and the game
// goes on.
#[test]
fn unwritable_save_is_refused_and_the_game_goes_on() {
    let ws = Workspace::new();
    let out = ws.sandtable(
        &["play", "--seed", "3"],
        Some(":save no_such_folder/game.json\nmelee viking_1 legionary_1\n"),
    );
    let err = out.err();
    assert!(
        err.contains(
            "cannot save to `no_such_folder/game.json`: there is no folder `no_such_folder`"
        ),
        "{err}"
    );
    // The reason is said once, in the message, not again as a cause.
    assert_eq!(err.matches("no folder").count(), 1, "{err}");
    out.stdout_has(&["viking_1 (Viking warrior) attacks legionary_1"]);
}

// Guards that a damaged save is refused with a clear message.
#[test]
fn damaged_save_is_refused() {
    let ws = Workspace::new();
    ws.write("game.json", "{ \"format\": 1 }");
    let out = ws.sandtable(&["play", "--open", "game.json"], Some(""));
    out.expect_code(1)
        .stderr_has(&["`game.json` is not a sandtable save"]);
}

/// A copy of the project's scripts and scenarios in a temporary project, to edit.
fn project_copy() -> Workspace {
    let ws = Workspace::new();
    fn copy(from: &std::path::Path, to: &std::path::Path) {
        std::fs::create_dir_all(to).expect("a folder");
        for e in std::fs::read_dir(from).expect("a folder") {
            let p = e.expect("an entry").path();
            let dest = to.join(p.file_name().expect("a name"));
            if p.is_dir() {
                copy(&p, &dest);
            } else {
                std::fs::copy(&p, &dest).expect("a copy");
            }
        }
    }
    let root = common::project();
    copy(&root.join("scripts"), &ws.path().join("scripts"));
    copy(&root.join("scenarios"), &ws.path().join("scenarios"));
    ws
}

const RULES: &str = "scripts/rulesets/playmobil/rules.rhai";

// Guards hot reload: a script edited on disk mid-game is in force from the next action, the
// game keeping its state; a broken edit leaves the old rules in force.
#[test]
fn edited_script_takes_effect_at_the_next_action() {
    let ws = project_copy();
    let rules = ws.path().join(RULES);
    let (mut child, rx) = spawn_streaming(&ws, &["play", "--seed", "6"], true);
    let wait_for = |needle: &str| {
        let mut seen = Vec::new();
        loop {
            let line = rx
                .recv_timeout(Duration::from_secs(20))
                .unwrap_or_else(|_| panic!("no `{needle}` in {seen:#?}"));
            let done = line.contains(needle);
            seen.push(line);
            if done {
                return seen;
            }
        }
    };
    let mut stdin = child.stdin.take().expect("stdin");
    // Seed 6: the first melee is a 3-3 tie, which the book gives to the attacker.
    writeln!(stdin, "melee viking_1 legionary_1\n:undo").expect("write");
    wait_for("1 action undone");
    let text = std::fs::read_to_string(&rules).expect("the rules");
    std::fs::write(
        &rules,
        text.replace(
            "    attack_die >= defend_die",
            "    attack_die > defend_die",
        ),
    )
    .expect("an edit");
    writeln!(stdin, "melee viking_1 legionary_1\n:undo").expect("write");
    let seen = wait_for("1 action undone");
    assert!(
        seen.iter()
            .any(|l| l.contains("rules.rhai changed: reloaded the scripts")),
        "{seen:#?}"
    );
    assert!(
        seen.iter()
            .any(|l| l == "legionary_1 wins 3 to 3: viking_1 is blocked until your next turn"),
        "{seen:#?}"
    );
    // A broken edit: the diagnostic, and the last good rules stay in force.
    let text = std::fs::read_to_string(&rules).expect("the rules");
    std::fs::write(&rules, format!("{text}\nfn broken( {{\n")).expect("an edit");
    writeln!(stdin, "melee viking_1 legionary_1").expect("write");
    let seen = wait_for("is tagged `blocked`");
    assert!(
        seen.iter()
            .any(|l| l == "legionary_1 wins 3 to 3: viking_1 is blocked until your next turn"),
        "{seen:#?}"
    );
    drop(stdin);
    let out = child.wait_with_output().expect("the binary ends");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("changed, but the old rules stay in force"),
        "{stderr}"
    );
    assert!(
        stderr.contains("expected `)` to close the parameters list"),
        "{stderr}"
    );
}

// Guards :reload on demand: the scripts are recompiled and the game kept.
#[test]
fn reload_keeps_the_game() {
    let out = sandtable(
        &["play", "--seed", "3"],
        Some("melee viking_1 legionary_1\n:reload\nprint(unit(\"legionary_1\").in_play)\n"),
    );
    out.expect_code(0).stdout_has(&[
        "> :reload\nreloaded the scripts: ",
        "> print(unit(\"legionary_1\").in_play)\nfalse\n",
    ]);
}

// Guards :show: every stat, tag and ability of a unit, with uses left.
#[test]
fn show_lists_stats_tags_and_abilities() {
    let out = sandtable(&["play", "--seed", "3"], Some(":show ulf\n"));
    out.expect_code(0).stdout_has(&[
        "ulf (Ulf the berserker), heavy infantry of The Vikings\n",
        "  stats: attack 1, class infantry, defend 2, move 6, shield true\n",
        "ability Viking Berserker (berserker): chosen, 1 use left\n",
    ]);
}

// Guards `:dice manual`: each roll the rules need is asked for, checked, and logged like any
// roll; `:dice auto` goes back to the generator.
#[test]
fn manual_dice_are_asked_for_checked_and_logged() {
    let out = sandtable(
        &["play", "--seed", "3"],
        Some(":dice manual\nmelee viking_1 legionary_1\n4\n7\n2 6\n:dice auto\n"),
    );
    out.expect_code(0).stdout_has(&[
        "roll 1d6kh1 for viking_1 attacks with 1 die: a d6",
        "`7` is not a roll of d6s (whole numbers from 1 to 6); roll 2d6kh1 for legionary_1",
        "  viking_1 attacks with 1 die: 1d6kh1 [4] = 4\n  legionary_1 defends with 2 dice: 2d6kh1 [~2, 6] = 6\n",
        "dice: automatic\n",
    ]);
}

// Guards the count of real dice typed: extra dice were dropped silently (`4 5` for one die
// gave 4), and too few for all were taken as a start. An answer is one die or all of them;
// any other count is refused, saying how many were asked, and asked again.
#[test]
fn manual_dice_of_the_wrong_count_are_refused_and_asked_again() {
    let out = sandtable(
        &["play", "--seed", "3"],
        Some(":dice manual\nmelee viking_1 legionary_1\n4 5\n4\n2 6 1\n2 6\n"),
    );
    out.expect_code(0).stdout_has(&[
        "`4 5` is 2 dice, and 1 was asked for; roll 1d6kh1 for viking_1 attacks with 1 die: a d6",
        "`2 6 1` is 3 dice, and 2 were asked for (type one, or all 2); roll 2d6kh1 for legionary_1",
        "  viking_1 attacks with 1 die: 1d6kh1 [4] = 4\n  legionary_1 defends with 2 dice: 2d6kh1 [~2, 6] = 6\n",
    ]);
}

// Guards the count of real cards typed: `KD QS` for one card drew K♦ and dropped Q♠.
#[test]
fn manual_cards_of_the_wrong_count_are_refused_and_asked_again() {
    let out = sandtable(
        &["play", "--seed", "3"],
        Some(concat!(
            ":cards manual\n",
            "new_deck(\"orders\", \"standard\").shuffle();\n",
            "draw orders 1\n",
            "KD QS\n",
            "KD\n",
            "draw orders 2\n",
            "QS 2S 3S\n",
            "QS 2S\n",
        )),
    );
    out.expect_code(0).stdout_has(&[
        "`KD QS` is 2 cards, and 1 was asked for; nothing was drawn; draw a card from the orders deck (52 in the pile)",
        "  drew K♦ from the orders deck\n",
        "`QS 2S 3S` is 3 cards, and 2 were asked for (type one, or all 2); nothing was drawn; draw card 1 of 2 from the orders deck (51 in the pile)",
        "  drew Q♠ 2♠ from the orders deck\n",
    ]);
}

// `:open` and `:load` dropped `:dice manual` and `:cards manual`: the players at the table
// went on typing dice while the program rolled its own.
#[test]
fn opening_or_loading_a_game_keeps_real_dice_and_cards() {
    let out = sandtable(
        &["play", "--seed", "3"],
        Some(concat!(
            ":dice manual\n:cards manual\n:save g.json\n:open g.json\n",
            "roll(\"1d6\", \"opened\")\n5\n",
            "new_deck(\"d\", \"standard\").shuffle();\ndraw d 1\nKD\n",
            ":load ",
            env!("CARGO_MANIFEST_DIR"),
            "/scenarios/romans_vs_vikings.yaml\nroll(\"1d6\", \"loaded\")\n2\n"
        )),
    );
    out.expect_code(0).stdout_has(&[
        "roll 1d6 for opened: a d6 (or all the dice, space-separated): 5\n",
        "draw a card from the d deck (52 in the pile): a card such as 7H, QS, JOKER: KD\n  drew K♦ from the d deck\n",
        "roll 1d6 for loaded: a d6 (or all the dice, space-separated): 2\n",
    ]);
}

// Guards that the end of input while dice are awaited fails the action cleanly.
#[test]
fn manual_dice_without_an_answer_change_nothing() {
    let out = sandtable(
        &["play", "--seed", "3"],
        Some(":dice manual\nmelee viking_1 legionary_1\n"),
    );
    out.expect_code(1)
        .stderr_has(&["the input ended before the dice were given"]);
    out.stdout_lacks("is removed");
}

// Guards `:cards manual`: each card the rules draw, and each `draw` typed at the prompt, is
// asked for, checked against the pile as it stands (a card already drawn, or not a card, is
// refused and asked again), taken out of the pile and logged; `peek` at a shuffled pile is
// refused, since its order is at the table; `:cards auto` draws from the top again.
#[test]
fn manual_cards_are_asked_for_checked_and_taken_from_the_pile() {
    let out = sandtable(
        &["play", "--seed", "3"],
        Some(concat!(
            ":cards manual\n",
            "let d = new_deck(\"orders\", \"standard\"); d.shuffle();\n",
            "print(d.draw())\n",
            "7h\n",
            "d.draw(2)\n",
            "QS 7H\n",
            "ZZ\n",
            "QS 3C\n",
            "d.peek()\n",
            "draw orders 1\n",
            "KD\n",
            "print(d.count)\n",
            ":cards auto\n",
            "draw orders 1\n",
        )),
    );
    out.expect_code(1).stdout_has(&[
        "cards: manual. Draw your cards when asked and type what they are.\n",
        "draw a card from the orders deck (52 in the pile): a card such as 7H, QS, JOKER: 7h\n  drew 7♥ from the orders deck\n7♥\n",
        "draw card 1 of 2 from the orders deck (51 in the pile): a card such as 7H, QS, JOKER: QS 7H\n",
        // An answer with a bad card changes nothing: Q♠ stays in the pile, asked again.
        "`7♥` is not in the draw pile of the `orders` deck: drawn already, or not in this deck; nothing was drawn; draw card 1 of 2 from the orders deck (51 in the pile): a card such as 7H, QS, JOKER: ZZ\n",
        "unknown card `ZZ`: write a rank (A, 2-10, J, Q, K) then a suit (S, H, D, C), or JOKER; draw card 1 of 2 from the orders deck (51 in the pile): a card such as 7H, QS, JOKER: QS 3C\n",
        "  drew Q♠ 3♣ from the orders deck\n",
        "draw a card from the orders deck (49 in the pile): a card such as 7H, QS, JOKER: KD\n  drew K♦ from the orders deck\n",
        "> print(d.count)\n48\n",
        "cards: automatic\n",
    ]);
    out.stderr_has(&[
        "the `orders` deck is shuffled at the table (`:cards manual`): the rules cannot peek at its order here",
    ]);
}

// Guards `flip()`: the card is asked for like a draw at `:cards manual`, and either way one
// line says which card was flipped, none that it was drawn or discarded.
#[test]
fn a_flipped_card_is_one_line_whether_typed_in_or_flipped_by_the_rules() {
    let out = sandtable(
        &["play", "--seed", "3"],
        Some(concat!(
            "let d = new_deck(\"orders\", \"AS 2S 3S\");\n",
            "print(d.flip())\n",
            ":cards manual\n",
            "print(d.flip())\n",
            "3s\n",
            "print(`${d.count} left, ${d.discards} face up`)\n",
        )),
    );
    out.expect_code(0).stdout_has(&[
        "  flipped A♠ from the orders deck\nA♠\n",
        "draw a card from the orders deck (2 in the pile): a card such as 7H, QS, JOKER: 3s\n  flipped 3♠ from the orders deck\n3♠\n",
        "1 left, 2 face up\n",
    ]);
    out.stdout_lacks("drew");
    out.stdout_lacks("discarded");
}

// Guards that the end of input while a card is awaited fails the draw cleanly.
#[test]
fn manual_cards_without_an_answer_change_nothing() {
    let out = sandtable(
        &["play", "--seed", "3"],
        Some(":cards manual\nnew_deck(\"orders\", \"standard\");\ndraw orders 2\n"),
    );
    out.expect_code(1)
        .stderr_has(&["the input ended before the cards were given"]);
    out.stdout_lacks("drew");
}

// Guards a whole game played through the prompt from a script of lines: the policy plays
// each side's turn by turn until the rules' victory (checked with a line of Rhai).
#[test]
fn whole_game_played_through_the_prompt() {
    let turns = "play_turn vikings\nend_turn\nplay_turn romans\nend_turn\n".repeat(4);
    let out = sandtable(
        &["play", "--seed", "3"],
        Some(&format!(
            "{turns}print(units(\"romans\").len() + units(\"vikings\").len() < 20)\n"
        )),
    );
    out.expect_code(0);
    out.stdout_has(&["turn 2: vikings to play\n", " is removed: ", "\ntrue\n"]);
}

// Guards `run FILE --watch`: the batch runs again, with the same seed, when a script changes.
#[test]
fn run_watch_reruns_after_an_edit() {
    let ws = project_copy();
    ws.write("game.txt", "roll 1d1000000\n");
    let (mut child, rx) =
        spawn_streaming(&ws, &["run", "game.txt", "--watch", "--seed", "5"], false);
    let next = |needle: &str| loop {
        let line = rx
            .recv_timeout(Duration::from_secs(20))
            .unwrap_or_else(|_| panic!("no `{needle}`"));
        if line.contains(needle) {
            return line;
        }
    };
    let first = next("1d1000000: ");
    let rules = ws.path().join(RULES);
    let text = std::fs::read_to_string(&rules).expect("the rules");
    std::fs::write(&rules, format!("{text}\n// an edit\n")).expect("an edit");
    next("rules.rhai changed: running game.txt again");
    let again = next("1d1000000: ");
    let _ = child.kill();
    let _ = child.wait();
    assert_eq!(first, again, "the same seed gives the same roll");
}

// Guards `run FILE --watch` on an edit of the batch file itself (only `.rhai` and `.yaml`
// files were watched, so editing `game.txt` did nothing), and the line saying that it waits.
#[test]
fn run_watch_reruns_when_the_batch_file_changes() {
    let ws = project_copy();
    ws.write("game.txt", "roll 1d1000000\n");
    let (mut child, rx) =
        spawn_streaming(&ws, &["run", "game.txt", "--watch", "--seed", "5"], false);
    let next = |needle: &str| loop {
        let line = rx
            .recv_timeout(Duration::from_secs(20))
            .unwrap_or_else(|_| panic!("no `{needle}`"));
        if line.contains(needle) {
            return line;
        }
    };
    next("1d1000000: ");
    next("watching game.txt and the project's scripts and scenarios for changes");
    ws.write("game.txt", "roll 1d1000000\nroll 2d1000000\n");
    next("game.txt changed: running game.txt again");
    next("2d1000000: ");
    next("watching game.txt");
    let _ = child.kill();
    let _ = child.wait();
}

/// A scenario with more Romans than there are capitals, and two Vikings in one cell of
/// `:map` (a cell is 2/3" wide and 4/3" tall here: one stands just north of the other, the
/// 1.2" bases touching).
const CROWD: &str = "name: A crowd
ruleset: playmobil
table: { width: 48, depth: 36 }
first: vikings
sides:
  - id: romans
    name: Rome
    edge: south
    units:
      - { id: legionary, type: heavy_infantry, count: 30, at: [2, 6], facing: 0, spacing: 1.5 }
  - id: vikings
    name: The Vikings
    edge: north
    units:
      - { id: viking_1, type: heavy_infantry, at: [20.3, 30.6], facing: 180 }
      - { id: viking_2, type: heavy_infantry, at: [20.3, 29.4], facing: 180 }
";

// Guards telling figures apart on `:map`: every figure of a side was the same letter. Each
// now has a mark of its own and a line in the legend, a figure past its side's marks is a
// `*` and still listed, a figure hidden by another says so, and output to a pipe has no
// colour even when `NO_COLOR` is not set.
#[test]
fn map_gives_each_figure_a_mark_and_a_legend() {
    let ws = Workspace::new();
    ws.write("game.yaml", CROWD);
    let mut child = common::binary_command(&common::project(), &["play", "game.yaml"])
        .current_dir(ws.path())
        .env_remove("NO_COLOR")
        .env("SANDTABLE_DATA", ws.path().join(".data"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(b":map\n")
        .expect("a line");
    let out = child.wait_with_output().expect("the binary ends");
    let map = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{map}");
    assert!(!map.contains('\x1b'), "colour in a pipe:\n{map}");
    for entry in [
        "   A legionary_1 ↑",
        "G legionary_7 ↑    I legionary_8 ↑",
        "Z legionary_24 ↑",
        "* legionary_25 ↑",
        "* legionary_30 ↑",
        "   a viking_1 ↓ (hidden by b)   b viking_2 ↓",
    ] {
        assert!(map.contains(entry), "no {entry:?} in\n{map}");
    }
}

// Guards that a mark stays with its figure all game: when legionary_1 falls, legionary_2 is
// still `B`.
#[test]
fn map_marks_stay_with_their_figures() {
    let out = sandtable(
        &["play", "--seed", "3"],
        Some("melee viking_1 legionary_1\n:map\n"),
    );
    out.expect_code(0);
    out.stdout_has(&["legionary_1 is killed", "   B legionary_2 ↑"])
        .stdout_lacks("A legionary_1");
}

// Guards that piped input is never asked anything: `:quit` after an unsaved action leaves
// at once, as does the end of the input.
#[test]
fn piped_input_leaves_unsaved_changes_without_asking() {
    for lines in ["roll 1d6\n:quit\nroll 2d6\n", "roll 1d6\n"] {
        let out = sandtable(&["play", "--seed", "3"], Some(lines));
        out.expect_code(0)
            .stdout_lacks("leave anyway")
            .stdout_lacks("2d6: ");
    }
}

// Guards a quote inside a line of Rhai: it is Rhai's string, not a verb's quoted word, so
// `print("still " + 42)` prints rather than failing as "this quote is never closed"; a verb's
// own unclosed quote is still pointed at.
#[test]
fn a_quote_inside_rhai_is_rhai_not_a_word() {
    let out = sandtable(
        &["play", "--seed", "3"],
        Some("print(\"still \" + 42)\nmelee \"viking_1 legionary_1\n"),
    );
    // Piped lines stop at the first error, with status 1.
    out.expect_code(1)
        .stdout_has(&["still 42\n"])
        .stderr_has(&["this quote is never closed"]);
    assert_eq!(
        out.stderr.matches("never closed").count(),
        1,
        "{}",
        out.stderr
    );
}

// A batch has no players to ask: `:cards` there is an error, as `:dice` is.
#[test]
fn a_batch_refuses_manual_cards() {
    sandtable(&["run", "-", "--seed", "3"], Some(":cards manual\n"))
        .expect_code(1)
        .stderr_has(&["`:cards` needs players at the prompt: a batch file draws its cards"]);
}

// `:help NAME` showed a verb only: a host function's signatures and doc, from the engine's
// metadata, show too, and so do a property's and a type's.
#[test]
fn help_shows_a_host_function_a_property_and_a_type() {
    let out = sandtable(
        &["play", "--seed", "3"],
        Some(":help roll\n:help hits\n:help Point\n:help melee\n"),
    );
    out.expect_code(0).stdout_has(&[
        "roll(expr: string) -> Roll\n  Rolls a dice expression and logs the roll.",
        "roll(expr: string, why: string) -> Roll\n",
        "  ```rhai\n  let r = roll(\"3d6+1\");",
        "u.hits -> INT\n  Hits taken",
        "u.hits = value: INT\n  Sets the hits taken; logs `viking_1 hits: 0 -> 1`",
        "the type Point\n  A point on the table, in inches",
        "  p.x -> FLOAT ",
        "melee attacker defender  (a verb of Playmobil Melee Combat)\n  Attack an enemy figure",
    ]);
}

// An unknown name at `:help` said "unknown verb" even when it was a host function misspelt:
// the did-you-mean looks among verbs and host functions alike.
#[test]
fn help_on_an_unknown_name_suggests_a_verb_or_a_host_function() {
    sandtable(&["run", "-", "--seed", "3"], Some(":help units_withn\n"))
        .expect_code(1)
        .stderr_has(&[
            "no verb or host function `units_withn`",
            "did you mean `units_within`?",
        ]);
    sandtable(&["run", "-", "--seed", "3"], Some(":help mele\n"))
        .expect_code(1)
        .stderr_has(&["did you mean `melee`?"]);
}

/// A shipped scenario's path, to play it from a temporary folder.
fn shipped(name: &str) -> String {
    common::project()
        .join("scenarios")
        .join(name)
        .display()
        .to_string()
}

// Guards hidden troops at one keyboard (Soldiers in Time 11): the trench garrison's hidden
// riflemen were on the raiders' `:units` and `:map`. With the screen for the raiders' eyes
// (`--as raiders`) they are not; for the garrison's (`:as germans`), or everyone's, they are.
#[test]
fn hidden_troops_are_not_shown_to_the_other_side() {
    let scenario = shipped("sint_trench_raid.yaml");
    let out = sandtable(
        &["play", &scenario, "--seed", "1", "--as", "raiders"],
        Some(":units germans\n:map\n:as germans\n:units germans\n"),
    );
    out.expect_code(0);
    let text = out.out();
    let as_raiders = &text[..text.find("> :as germans").expect("the :as line")];
    assert!(as_raiders.contains("hauptmann"), "{as_raiders}");
    assert!(!as_raiders.contains("landser_1"), "{as_raiders}");
    assert!(!as_raiders.contains("posten_1"), "{as_raiders}");
    let as_germans = &text[text.find("> :as germans").expect("the :as line")..];
    assert!(
        as_germans.contains("the screen is for the eyes of germans"),
        "{as_germans}"
    );
    assert!(as_germans.contains("landser_1"), "{as_germans}");
    // Everyone's eyes, as before.
    let out = sandtable(
        &["play", &scenario, "--seed", "1"],
        Some(":units germans\n"),
    );
    out.expect_code(0).stdout_has(&["landser_1"]);
    // A side misspelt.
    let out = sandtable(&["play", &scenario, "--seed", "1"], Some(":as raider\n"));
    out.stderr_has(&["no side `raider`", "did you mean `raiders`?"]);
}

// Guards `:show` in a ruleset's words: a Soldiers in Time figure was said to have "hits 0,
// stands 0", counters the ruleset never uses; a Playmobil figure still has its hits.
#[test]
fn show_gives_the_counters_the_ruleset_declares() {
    let scenario = shipped("sint_edgehill_lane.yaml");
    let out = sandtable(&["play", &scenario, "--seed", "1"], Some(":show astley\n"));
    out.expect_code(0)
        .stdout_has(&[
            "astley (Sir Jacob Astley), lord of The King's men",
            "rank lord",
        ])
        .stdout_lacks("hits");
    out.stdout_lacks("stands");
    let out = sandtable(&["play", "--seed", "3"], Some(":show ulf\n"));
    out.expect_code(0).stdout_has(&["  hits 0, stands"]);
}

// Guards a did-you-mean for a verb's word: `order astley volley` got the script's list of
// every order; the ruleset's words for `what` give `volley_fire`.
#[test]
fn a_mistyped_word_of_a_verb_gets_a_did_you_mean() {
    let scenario = shipped("sint_edgehill_lane.yaml");
    let out = sandtable(
        &["play", &scenario, "--seed", "1"],
        Some("order astley volley\norder astley hodl\norder astley FIRE\n"),
    );
    out.stderr_has(&[
        "`order` takes one of 11 words for `what`, and `volley` is not one",
        "did you mean `volley_fire`?",
        "did you mean `hold`?",
    ]);
    // A word in capitals is the word.
    out.stdout_has(&["write an order for astley"]);
}

// Guards the prompt's count of brackets: `let c = '(';` opened an entry that swallowed every
// later line.
#[test]
fn a_bracket_in_a_character_opens_no_entry() {
    let out = sandtable(
        &["play", "--seed", "3"],
        Some("let c = '(';\nprint(`c is ${c}`)\nlet s = \"{[\"; // )\nprint(s)\n"),
    );
    out.expect_code(0).stdout_has(&["c is (\n", "{[\n"]);
}
