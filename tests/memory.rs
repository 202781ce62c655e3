//! How much memory a long session holds. Counted by an allocator that tracks the bytes in
//! use, so the figure does not depend on the machine or on timing.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

use sandtable::analysis::command::run_line;
use sandtable::game::project::Project;
use sandtable::game::scenario::Scenario;
use sandtable::session::Session;

struct Counting;

static IN_USE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let now = IN_USE.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
        PEAK.fetch_max(now, Ordering::Relaxed);
        // SAFETY: the caller's layout is passed on unchanged.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        IN_USE.fetch_sub(layout.size(), Ordering::Relaxed);
        // SAFETY: `ptr` came from `alloc` with this layout.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Undo kept a copy of the whole game, log included, for every line: 500 lines of
/// `roll 20d6` held 85 MB and 4,000 held 1.37 GB. Undo now rewinds the state's journal, so
/// what a session holds grows with its log, not with the square of it.
/// The tests of this file measure the one peak in turn.
static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

#[test]
fn a_long_session_holds_little_more_than_its_log() {
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let project = Project::at(env!("CARGO_MANIFEST_DIR")).unwrap();
    let scenario = Scenario::load(&project, &project.default_scenario()).unwrap();
    let mut session = Session::new(&project, scenario, 1).unwrap();
    let start = IN_USE.load(Ordering::Relaxed);
    PEAK.store(start, Ordering::Relaxed);
    for _ in 0..2_000 {
        run_line(&mut session, "test", "roll 20d6").unwrap();
        let _ = session.take_events();
    }
    // Undo still reaches back, and redo forward again.
    let before_undo = session.state().log.len();
    run_line(&mut session, "test", ":undo 5").unwrap();
    assert_eq!(session.state().log.len(), before_undo - 5);
    run_line(&mut session, "test", ":redo 5").unwrap();
    assert_eq!(session.state().log.len(), before_undo);
    let grown = PEAK.load(Ordering::Relaxed) - start;
    assert!(
        grown < 20 << 20,
        "2,000 lines of `roll 20d6` took {} MB",
        grown >> 20
    );
}

/// `1d1000000+1d1000000` was refused for the work its sum would take only after both dice
/// were written down, 200 to 340 MB. The support of each part is worked out from the
/// expression first, and the refusal comes before anything is counted.
#[test]
fn odds_too_big_to_count_are_refused_before_the_memory_is_taken() {
    use sandtable::host::dice::DiceExpr;
    use sandtable::host::odds::{self, OddsError};
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    for text in [
        "1d1000000+1d1000000",
        "1d1000000*1d1000000",
        "2d1000000",
        "1d1000000-1d1000000+3",
        "1d6 + 1d1000000 + 1d1000000",
    ] {
        let expr = DiceExpr::parse(text).unwrap();
        let start = IN_USE.load(Ordering::Relaxed);
        PEAK.store(start, Ordering::Relaxed);
        let e = odds::distribution(expr.node()).unwrap_err();
        let grown = PEAK.load(Ordering::Relaxed) - start;
        assert_eq!(e, OddsError::TooMuchWork, "{text}");
        assert!(
            grown < 1 << 20,
            "`{text}` took {} KB before its refusal",
            grown >> 10
        );
        let said = e.to_string();
        assert!(
            said.contains("`MAX_WORK`") && said.contains("10000000"),
            "{said}"
        );
    }
}

/// A session of the default scenario, and the bytes in use once it has started. Its time
/// budget is a minute, so that a slow debug build on a busy machine meets the byte limits
/// first.
fn session() -> (Session, usize) {
    let project = Project::at(env!("CARGO_MANIFEST_DIR")).unwrap();
    let scenario = Scenario::load(&project, &project.default_scenario()).unwrap();
    let limits = sandtable::script::engine::Limits {
        time_budget: std::time::Duration::from_secs(60),
        ..Default::default()
    };
    let session = Session::with_limits(&project, scenario, 1, limits).unwrap();
    let start = IN_USE.load(Ordering::Relaxed);
    PEAK.store(start, Ordering::Relaxed);
    (session, start)
}

/// The words of an error, its diagnostic's message with its help.
fn words(e: &sandtable::error::Error) -> String {
    format!("{e} {}", e.one_line())
}

/// What the table holds, to show a refused script changed nothing.
fn table(session: &Session) -> String {
    let state = session.state();
    format!(
        "{:?} {:?} {:?}",
        state.battlefield.units(),
        state.game_stats,
        state.decks
    )
}

/// Private stats, tags and game stats (`_name`) are not logged, so 1 MiB texts in them
/// counted against nothing: one call took 2-3 GB before its time ran out, and under a cap of
/// 3.5 GB the program aborted and the game was lost. What the table holds is counted as it
/// grows, and a change past `MAX_TABLE_BYTES` (64 MiB) is refused before it is made.
#[test]
fn filling_private_stats_tags_and_game_stats_is_refused_within_the_table_limit() {
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let fill = "let s = \"\"; s.pad(1048000, \"y\"); let u = unit(\"viking_1\"); let i = 0;";
    for (what, set) in [
        ("private stats", "u.set_stat(\"_n\" + i, s + i)"),
        ("private tags", "u.tag(\"_\" + i + s)"),
        ("private game stats", "set_game_stat(\"_g\" + i, s + i)"),
    ] {
        let (mut session, start) = session();
        let before = table(&session);
        let e = run_line(
            &mut session,
            "test",
            &format!("{fill} loop {{ {set}; i += 1; }}"),
        )
        .unwrap_err();
        let grown = PEAK.load(Ordering::Relaxed) - start;
        let said = words(&e);
        assert!(
            said.contains("more than 64 MiB") && said.contains("`MAX_TABLE_BYTES`"),
            "{what}: {said}"
        );
        assert_eq!(table(&session), before, "{what}: the game changed");
        assert!(
            grown < 160 << 20,
            "{what}: took {} MB before its refusal",
            grown >> 20
        );
        // The game plays on.
        run_line(&mut session, "test", "roll 2d6").unwrap();
    }
}

/// A deck's discards took any card, one card again and again, and each discard journaled a
/// copy of the whole deck: 20,000 discards in one call held 489 MB. A card may go on the
/// discards only while it is out of the deck, and a discard is undone without a copy.
#[test]
fn discarding_a_card_again_and_again_is_refused_at_once() {
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let (mut session, start) = session();
    let before = table(&session);
    let e = run_line(
        &mut session,
        "test",
        "let d = new_deck(\"events\", \"standard\"); let c = d.draw(); \
         for i in 0..20000 { d.discard(c); }",
    )
    .unwrap_err();
    let said = words(&e);
    assert!(said.contains("in the discards already"), "{said}");
    let e = run_line(
        &mut session,
        "test",
        "let d = new_deck(\"events\", \"AS 2S\"); d.discard(card(\"KH\"));",
    )
    .unwrap_err();
    let said = words(&e);
    assert!(said.contains("not one of the deck's cards"), "{said}");
    assert_eq!(table(&session), before);
    // Drawing and discarding every card, then shuffling them back, 20,000 times over.
    run_line(
        &mut session,
        "test",
        "let d = new_deck(\"events\", \"AS 2S 3S\"); \
         for i in 0..6667 { for c in d.draw(3) { d.discard(c); } d.reshuffle(); }",
    )
    .unwrap();
    let grown = PEAK.load(Ordering::Relaxed) - start;
    assert!(grown < 64 << 20, "20,000 discards took {} MB", grown >> 20);
}

/// The log had no limit across actions: a journal of 10,000 `roll 10000d6` lines resumed at
/// 1.74 GB. The log keeps its newest events within `MAX_LOG_BYTES` (16 MiB) and counts the
/// ones it dropped.
#[test]
fn a_log_flooded_across_actions_keeps_its_newest_events_within_its_limit() {
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let (mut session, start) = session();
    for _ in 0..600 {
        run_line(&mut session, "test", "roll 10000d6").unwrap();
        let _ = session.take_events();
    }
    let state = session.state();
    assert!(state.log_dropped() > 0, "nothing dropped");
    assert!(state.log_bytes() <= sandtable::limits::MAX_LOG_BYTES);
    drop(state);
    let grown = PEAK.load(Ordering::Relaxed) - start;
    // 600 rolls of 10,000 dice log 48 MB; the log keeps 16 MiB.
    assert!(
        grown < 32 << 20,
        "600 rolls of 10,000 dice took {} MB",
        grown >> 20
    );
    // `:log` says how many went.
    let reply = run_line(&mut session, "test", ":log 100000").unwrap();
    let text = format!("{reply:?}");
    assert!(text.contains("older events dropped"), "{}", &text[..200]);
}

/// A folder of its own under the system's temporary folder, removed when dropped.
struct Temp(std::path::PathBuf);

impl Temp {
    fn new(name: &str) -> Temp {
        let dir =
            std::env::temp_dir().join(format!("sandtable-memory-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Temp(dir)
    }
}

impl Drop for Temp {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// An 81 MB save of 3 million log entries opened at 1.74 GB. A save, a journal or a scenario
/// larger than its limit is refused by the size its metadata gives, before it is read.
#[test]
fn files_past_their_size_limit_are_refused_before_they_are_read() {
    use sandtable::limits::{MAX_JOURNAL_BYTES, MAX_SAVE_BYTES, MAX_SCENARIO_BYTES};
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let temp = Temp::new("sizes");
    let project = Project::at(env!("CARGO_MANIFEST_DIR")).unwrap();
    let big = |name: &str, len: usize| {
        let path = temp.0.join(name);
        let file = std::fs::File::create(&path).unwrap();
        // Sparse: the file's size is what is checked, and nothing is written.
        file.set_len(len as u64 + 1).unwrap();
        path
    };
    let check = |e: sandtable::error::Error, limit: &str, max: usize| {
        let said = words(&e);
        assert!(
            said.contains(&format!("`{limit}`")) && said.contains(&max.to_string()),
            "{said}"
        );
    };
    let save = big("big.json", MAX_SAVE_BYTES);
    let journal = big("big.jsonl", MAX_JOURNAL_BYTES);
    let scenario = big("big.yaml", MAX_SCENARIO_BYTES);
    let start = IN_USE.load(Ordering::Relaxed);
    PEAK.store(start, Ordering::Relaxed);
    let e = Session::open(&project, &save).err().unwrap();
    check(e, "MAX_SAVE_BYTES", MAX_SAVE_BYTES);
    let e = Scenario::load(&project, &scenario).err().unwrap();
    check(e, "MAX_SCENARIO_BYTES", MAX_SCENARIO_BYTES);
    let grown = PEAK.load(Ordering::Relaxed) - start;
    assert!(grown < 1 << 20, "took {} KB to refuse", grown >> 10);
    // A journal, replayed by the program itself (it reads only the project's files).
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_sandtable"))
        .arg("replay")
        .arg(&journal)
        .env("SANDTABLE_DATA", temp.0.join("data"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{said}");
    assert!(
        said.contains("`MAX_JOURNAL_BYTES`") && said.contains(&MAX_JOURNAL_BYTES.to_string()),
        "{said}"
    );
}

/// A save holds the newest events of its log that fit `MAX_SAVED_LOG_BYTES`, so that every
/// save written opens again within `MAX_SAVE_BYTES`; the count of those left out goes with it.
#[test]
fn a_game_with_a_long_log_saves_and_opens_again() {
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let temp = Temp::new("long-log");
    let project = Project::at(env!("CARGO_MANIFEST_DIR")).unwrap();
    // The game and its save in the temporary folder (a save goes beside its scenario).
    let game = temp.0.join("game.yaml");
    std::fs::copy(project.default_scenario(), &game).unwrap();
    let scenario = Scenario::load(&project, &game).unwrap();
    let mut session = Session::new(&project, scenario, 1).unwrap();
    for _ in 0..300 {
        run_line(&mut session, "test", "roll 10000d6").unwrap();
    }
    let path = temp.0.join("long.json");
    session.save(&path).unwrap();
    let len = std::fs::metadata(&path).unwrap().len() as usize;
    assert!(len <= sandtable::limits::MAX_SAVE_BYTES, "{len} bytes");
    let opened = Session::open(&project, &path).unwrap();
    let (kept, dropped) = (opened.state().log.len(), opened.state().log_dropped());
    assert!(dropped > 0, "nothing left out");
    assert_eq!(kept + dropped, session.state().log_end());
}
