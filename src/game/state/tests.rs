//! Unit tests of `state`.

use super::*;
use crate::game::scenario::Edge;
use crate::limits::MAX_STAT;

fn state() -> GameState {
    let mut field = Battlefield::new(48.0, 36.0);
    for (id, side, x) in [("a", "red", 1.0), ("b", "blue", 5.0)] {
        field
            .add_unit(Unit {
                troop: "t".into(),
                pos: Point::new(x, 1.0),
                stats: [("attack".to_string(), Stat::Int(1))].into(),
                ..Unit::figure(id, side, x, 1.0)
            })
            .unwrap();
    }
    let side = |id: &str| Side {
        id: id.into(),
        name: id.into(),
        edge: Edge::South,
    };
    let mut s = GameState {
        battlefield: field,
        sides: vec![side("red"), side("blue")],
        decks: [("d".to_string(), Deck::standard("d", false))].into(),
        rng: GameRng::new(1),
        turn: 1,
        active_side: "red".into(),
        first_side: Some("red".into()),
        phase: String::new(),
        phase_names: Arc::default(),
        plays: 1,
        game_stats: BTreeMap::new(),
        log: Vec::new(),
        ability_uses: BTreeMap::new(),
        trace: Vec::new(),
        recorded: Recorded::default(),
        held: Held::default(),
        log_dropped: 0,
        journal: VecDeque::new(),
        forgotten: 0,
    };
    s.held.table = s.table_bytes();
    s
}

fn fingerprint(s: &GameState) -> String {
    format!(
        "{:?} {:?} {} {} {} {:?} {:?} {}",
        s.battlefield.units(),
        s.decks,
        s.turn,
        s.active_side,
        s.phase,
        s.first_side,
        s.game_stats,
        s.log.len()
    )
}

#[test]
fn rollback_undoes_every_kind_of_change() {
    let mut s = state();
    s.commit();
    s.begin_action();
    let before = fingerprint(&s);
    let mut rng_after = s.rng.clone();
    let mark = s.mark();
    s.move_unit(0, Point::new(3.0, 3.0)).unwrap();
    s.face(0, 90.0).unwrap();
    s.set_hits(0, 2).unwrap();
    s.set_stands(0, 0).unwrap();
    s.set_name(0, "renamed").unwrap();
    s.set_stat(0, "attack", Stat::Int(3)).unwrap();
    s.set_stat(0, "new", Stat::Bool(true)).unwrap();
    s.set_tag(0, "shaken", true).unwrap();
    s.set_group(0, "brigade", Some("north")).unwrap();
    s.set_game_stat("colour", Some(Stat::Text("red".into())))
        .unwrap();
    s.set_game_stat("colour", None).unwrap();
    s.set_game_stat("losses", Some(Stat::Int(3))).unwrap();
    assert!(s.give_ability(0, "given", "gains Given").unwrap());
    assert!(!s.give_ability(0, "given", "gains Given").unwrap());
    s.remove(1, "killed").unwrap();
    s.set_turn(2, "blue").unwrap();
    s.set_phase("shooting").unwrap();
    s.shuffle("d").unwrap();
    let drawn = s.draw("d", 3, Drawn::Kept).unwrap();
    s.discard("d", drawn[1]).unwrap();
    s.add_deck(Deck::standard("e", true)).unwrap();
    s.roll_text("3d6", None).unwrap();
    s.set_tag(0, "shaken", false).unwrap();
    s.set_tag(0, "_private", true).unwrap();
    s.set_side(0, "blue").unwrap();
    // Counted as it grew, the table holds what counting it afresh finds.
    assert_eq!(s.held.table, s.table_bytes());
    assert_eq!(
        s.held.undo,
        s.journal.iter().map(Undo::bytes).sum::<usize>()
    );
    assert_eq!(s.held.log, log_bytes(&s.log));
    assert_ne!(fingerprint(&s), before);
    s.rollback(mark);
    assert_eq!(s.held.table, s.table_bytes());
    assert_eq!(
        s.held.undo,
        s.journal.iter().map(Undo::bytes).sum::<usize>()
    );
    assert_eq!(s.held.log, log_bytes(&s.log));
    assert_eq!(fingerprint(&s), before);
    // The generator is back too: the next number is the one that would have come.
    assert_eq!(s.rng.next_u64(), rng_after.next_u64());
}

#[test]
fn rewind_then_replay_undoes_and_redoes_every_kind_of_change() {
    let mut s = state();
    let before = fingerprint(&s);
    let mark = s.mark();
    s.move_unit(0, Point::new(3.0, 3.0)).unwrap();
    s.face(0, 90.0).unwrap();
    s.set_hits(0, 2).unwrap();
    s.set_stands(0, 0).unwrap();
    s.set_name(0, "renamed").unwrap();
    s.set_stat(0, "attack", Stat::Int(3)).unwrap();
    s.set_stat(0, "new", Stat::Bool(true)).unwrap();
    s.set_tag(0, "shaken", true).unwrap();
    s.set_tag(1, "shaken", false).unwrap();
    s.set_group(0, "brigade", Some("north")).unwrap();
    s.set_game_stat("colour", Some(Stat::Text("red".into())))
        .unwrap();
    s.set_game_stat("colour", Some(Stat::Float(2.5))).unwrap();
    assert!(s.give_ability(0, "given", "gains Given").unwrap());
    assert!(!s.give_ability(0, "given", "gains Given").unwrap());
    s.remove(1, "killed").unwrap();
    let mut spawned = s.battlefield.units()[0].clone();
    spawned.id = "spawned".into();
    s.spawn(spawned).unwrap();
    s.set_turn(2, "blue").unwrap();
    s.set_phase("movement").unwrap();
    s.set_phase("melee").unwrap();
    s.shuffle("d").unwrap();
    s.draw("d", 3, Drawn::Kept).unwrap();
    s.add_deck(Deck::standard("e", true)).unwrap();
    s.roll_text("3d6", None).unwrap();
    let after = fingerprint(&s);
    let mut rng_after = s.rng.clone();
    let redo = s.rewind(mark.clone());
    assert_eq!(fingerprint(&s), before);
    s.replay(redo);
    assert_eq!(fingerprint(&s), after);
    assert_eq!(s.rng.next_u64(), rng_after.next_u64());
    // The replayed changes are journaled again: they can be undone a second time.
    s.rollback(mark);
    assert_eq!(fingerprint(&s), before);
}

#[test]
fn private_notes_are_undone_but_not_narrated() {
    let mut s = state();
    let before = fingerprint(&s);
    let events = s.log.len();
    let mark = s.mark();
    s.set_stat(0, "_spent", Stat::Float(2.5)).unwrap();
    s.set_tag(0, "_fought red", true).unwrap();
    assert_eq!(s.log.len(), events, "a private note was narrated");
    s.rollback(mark);
    assert_eq!(fingerprint(&s), before);
}

// `set_stat` and `set_group` journaled their undo without counting it, so a script
// setting the same stat in a loop ran to the time budget, its journal growing; counted,
// the same loop still journaled an undo for every turn (180 MB before the limit). Setting
// a value to what it is now records nothing; a change counts.
#[test]
fn setting_stats_and_groups_counts_against_the_record_limit() {
    let mut s = state();
    s.begin_action();
    s.set_stat(0, "attack", Stat::Int(1)).unwrap();
    s.set_group(0, "formation", Some("first")).unwrap();
    let (journal, log) = (s.journal.len(), s.log.len());
    for _ in 0..10_000 {
        s.set_stat(0, "attack", Stat::Int(1)).unwrap();
        s.set_group(0, "formation", Some("first")).unwrap();
        s.set_hits(0, s.battlefield.units()[0].hits).unwrap();
    }
    assert_eq!((s.journal.len(), s.log.len()), (journal, log));
    for i in 0..=MAX_RECORDS_PER_ACTION / 2 {
        s.set_stat(0, "attack", Stat::Int(i as i64 % 2)).unwrap();
    }
    assert!(s.flooded().is_some());
}

// A script could move a unit to 1e308 or set a stat to NaN.
#[test]
fn values_the_table_cannot_hold_are_refused() {
    let mut s = state();
    let before = fingerprint(&s);
    let far = s.move_unit(0, Point::new(1e308, 1.0)).unwrap_err();
    assert_eq!(
        far.to_string(),
        "a move's destination must be within 1000000 inches of the table's corner, got (1e308, 1)"
    );
    let nan = s.set_stat(0, "attack", Stat::Float(f64::NAN)).unwrap_err();
    assert_eq!(
        nan.to_string(),
        "stat `attack` must be a finite number, got NaN"
    );
    let huge = s.set_hits(0, 1 << 62).unwrap_err();
    assert_eq!(
        huge.to_string(),
        "hits must be from -1000000000 to 1000000000, got 4611686018427387904"
    );
    assert_eq!(fingerprint(&s), before);
}

#[test]
fn game_stats_are_logged_undone_and_checked_like_unit_stats() {
    let mut s = state();
    s.set_game_stat("first", Some(Stat::Text("red".into())))
        .unwrap();
    let before = fingerprint(&s);
    let mark = s.mark();
    let events = s.log.len();
    s.set_game_stat("first", Some(Stat::Text("blue".into())))
        .unwrap();
    s.set_game_stat("_secret", Some(Stat::Bool(true))).unwrap();
    s.set_game_stat("first", None).unwrap();
    let said: Vec<String> = s.log[events..].iter().map(Event::to_text).collect();
    assert_eq!(
        said,
        ["  game first: red -> blue", "  game first: blue -> none"]
    );
    assert_eq!(s.game_stats.get("_secret"), Some(&Stat::Bool(true)));
    s.rollback(mark);
    assert_eq!(fingerprint(&s), before);
    let nan = s.set_game_stat("losses", Some(Stat::Float(f64::NAN)));
    assert_eq!(
        nan.unwrap_err().to_string(),
        "stat `losses` must be a finite number, got NaN"
    );
    let big = s.set_game_stat("losses", Some(Stat::Int(MAX_STAT + 1)));
    assert_eq!(
        big.unwrap_err().to_string(),
        "stat `losses` must be from -1000000000 to 1000000000, got 1000000001"
    );
    let long = "n".repeat(MAX_NAME + 1);
    assert_eq!(
        s.set_game_stat(&long, Some(Stat::Int(1))).unwrap_err(),
        StateError::NameTooLong
    );
    assert_eq!(fingerprint(&s), before);
    // Removing what is not there, or setting what is, records nothing; a change counts.
    s.begin_action();
    let journal = s.journal.len();
    for _ in 0..1000 {
        s.set_game_stat("first", Some(Stat::Text("red".into())))
            .unwrap();
        s.set_game_stat("absent", None).unwrap();
    }
    assert_eq!(s.journal.len(), journal);
    // A private note logs nothing but journals its undo, which counts.
    for i in 0..=MAX_RECORDS_PER_ACTION {
        s.set_game_stat("_n", Some(Stat::Int(i as i64 % 2)))
            .unwrap();
    }
    assert!(s.flooded().is_some());
}

#[test]
fn phases_are_logged_undone_and_bounded() {
    let mut s = state();
    let mark = s.mark();
    s.set_phase("movement").unwrap();
    s.set_phase("movement").unwrap();
    assert_eq!(s.phase, "movement");
    let said: Vec<String> = s.log.iter().map(Event::to_text).collect();
    assert_eq!(said, ["phase: movement", "phase: movement"]);
    s.set_phase("").unwrap();
    assert_eq!(s.log.last().unwrap().to_text(), "phase: (none)");
    assert_eq!(
        s.set_phase(&"p".repeat(MAX_NAME + 1)).unwrap_err(),
        StateError::NameTooLong
    );
    s.rollback(mark);
    assert_eq!((s.phase.as_str(), s.log.len()), ("", 0));
}

#[test]
fn a_phase_shows_the_name_the_ruleset_gives_it() {
    let mut s = state();
    s.phase_names = Arc::new(BTreeMap::from([("move_men".into(), "men move".into())]));
    s.set_phase("move_men").unwrap();
    assert_eq!((s.phase.as_str(), s.phase_name()), ("move_men", "men move"));
    s.set_phase("shooting").unwrap();
    assert_eq!(s.phase_name(), "shooting");
    let said: Vec<String> = s.log.iter().map(Event::to_text).collect();
    assert_eq!(said, ["phase: men move", "phase: shooting"]);
    assert_eq!(
        s.log[0].to_json(),
        r#"{"event":"phase","phase":"move_men","name":"men move"}"#
    );
}

#[test]
fn forgetting_old_history_keeps_later_marks() {
    let mut s = state();
    s.set_hits(0, 1).unwrap();
    let first = s.mark();
    s.set_hits(0, 2).unwrap();
    let second = s.mark();
    s.set_hits(0, 3).unwrap();
    s.forget_before(&first);
    s.rollback(second);
    assert_eq!(s.battlefield.units()[0].hits, 2);
}

#[test]
fn commit_keeps_changes() {
    let mut s = state();
    s.set_hits(0, 1).unwrap();
    s.commit();
    let mark = s.mark();
    s.rollback(mark);
    assert_eq!(s.battlefield.units()[0].hits, 1);
    assert_eq!(s.log.len(), 1);
}

fn mib_text(i: usize) -> Stat {
    Stat::Text(format!("{i:08}").repeat(1 << 17))
}

#[test]
fn private_stats_tags_and_game_stats_count_against_the_table_limit() {
    // Private stats, tags and game stats are not logged, so they counted against nothing:
    // one call filled memory with 1 MiB texts until the time budget stopped it (2-3 GB).
    let fill =
        |s: &mut GameState,
         set: &mut dyn FnMut(&mut GameState, usize) -> Result<(), StateError>| {
            s.begin_action();
            let start = s.table_bytes();
            let mut i = 0;
            let e = loop {
                if let Err(e) = set(s, i) {
                    break e;
                }
                i += 1;
                assert!(i <= MAX_TABLE_BYTES >> 20, "{i} MiB held");
            };
            assert_eq!(e, StateError::TableFull);
            assert!(e.to_string().contains("more than 64 MiB"), "{e}");
            assert!(
                e.to_string().contains("`MAX_TABLE_BYTES`, 67108864 bytes"),
                "{e}"
            );
            // Refused before it was made: the table holds what it held.
            assert_eq!(s.held.table, s.table_bytes());
            assert!(s.table_bytes() <= MAX_TABLE_BYTES);
            assert!(
                s.table_bytes() - start > (MAX_TABLE_BYTES >> 1),
                "filled only {}",
                s.table_bytes()
            );
            i
        };
    let mut s = state();
    let mark = s.mark();
    fill(&mut s, &mut |s, i| {
        s.set_stat(0, &format!("_note{i}"), mib_text(i))
    });
    s.rollback(mark.clone());
    s.begin_action();
    assert!(s.table_bytes() < 1 << 20);
    let tag = |i: usize| format!("_{}", format!("{i:08}").repeat(1 << 17));
    fill(&mut s, &mut |s, i| s.set_tag(1, &tag(i), true));
    s.rollback(mark.clone());
    fill(&mut s, &mut |s, i| {
        s.set_game_stat(&format!("_g{i}"), Some(mib_text(i)))
    });
    s.rollback(mark.clone());
    let group = |i: usize| format!("{i:08}").repeat(1 << 17);
    fill(&mut s, &mut |s, i| {
        s.set_group(0, &format!("k{i}"), Some(&group(i)))
    });
    s.rollback(mark);
    s.begin_action();
    assert!(s.table_bytes() < 1 << 20);
}

#[test]
fn old_values_kept_for_undo_count_against_the_action() {
    // Setting one private stat to a new long text again and again kept every old one in
    // the undo journal, counted against nothing.
    let mut s = state();
    s.begin_action();
    let mut i = 0;
    while s.flooded().is_none() {
        s.set_stat(0, "_note", mib_text(i)).unwrap();
        i += 1;
        assert!(i <= 100, "{i} MiB kept");
    }
    let said = s.flooded().unwrap();
    assert!(said.contains("more than 64 MiB of old values"), "{said}");
    assert!(said.contains("`MAX_UNDO_BYTES_PER_ACTION`"), "{said}");
    assert!(s.undo_bytes() > MAX_UNDO_BYTES_PER_ACTION);
}

#[test]
fn the_log_keeps_its_newest_events_within_its_limit() {
    // The log had no limit across actions: 10,000 lines of `roll 10000d6` held 1.74 GB.
    let mut s = state();
    let first = s.mark();
    let line = "x".repeat(MAX_TEXT);
    let mut marks = Vec::new();
    for action in 0..3_000 {
        s.begin_action();
        assert!(
            s.log_bytes() <= MAX_LOG_BYTES,
            "{} bytes after {action}",
            s.log_bytes()
        );
        marks.push(s.mark());
        s.say(format!("{action} {line}"));
    }
    assert!(s.log_dropped() > 0);
    assert_eq!(s.log_end(), s.log_dropped() + s.log.len());
    assert_eq!(s.held.log, log_bytes(&s.log));
    // The newest events are kept, in order; a position in the log stays valid.
    let last = marks.pop().unwrap();
    assert!(matches!(s.events_since(last.log), [Event::Say { text }] if text.starts_with("2999 ")));
    s.rollback(last);
    assert!(matches!(s.log.last(), Some(Event::Say { text }) if text.starts_with("2998 ")));
    assert_eq!(s.held.log, log_bytes(&s.log));
    // Going back past what was dropped empties the log, and no more.
    s.rollback(first);
    assert!(s.log.is_empty());
    assert_eq!(s.held.log, 0);
}

#[test]
fn a_discard_is_undone_without_a_copy_of_the_deck() {
    // Each discard journaled a copy of the whole deck, discards and all: 20,000 discards
    // in one call held 489 MB. And a card never in the deck went on its discards.
    let mut s = state();
    s.begin_action();
    let mark = s.mark();
    let drawn = s.draw("d", 52, Drawn::Kept).unwrap();
    let after_draw = s.mark();
    let undo_before = s.undo_bytes();
    for card in &drawn {
        s.discard("d", *card).unwrap();
    }
    let per_discard = (s.undo_bytes() - undo_before) / 52;
    // One entry of its own size, no copy of the deck.
    let entry = std::mem::size_of::<Undo>() + "d".len();
    assert_eq!(per_discard, entry, "{per_discard} bytes kept per discard");
    let e = s.discard("d", drawn[0]).unwrap_err();
    assert!(e.to_string().contains("in the discards already"), "{e}");
    let joker = Card::parse("JOKER").unwrap();
    let e = s.discard("d", joker).unwrap_err();
    assert!(e.to_string().contains("not one of the deck's cards"), "{e}");
    let redo = s.rewind(after_draw);
    assert_eq!(s.deck("d").unwrap().discard_count(), 0);
    s.replay(redo);
    assert_eq!(s.deck("d").unwrap().discards(), &drawn[..]);
    s.rollback(mark);
    assert_eq!(
        (
            s.deck("d").unwrap().len(),
            s.deck("d").unwrap().discard_count()
        ),
        (52, 0)
    );
}
