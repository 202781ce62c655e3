//! How much memory a long session holds. Counted by an allocator that tracks the bytes in
//! use, so the figure does not depend on the machine or on timing.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

use sandtable::cli::command::run_line;
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
