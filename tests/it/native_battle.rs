//! The plain-Rust port of the default battle in `benches/native` (the benchmark's measure of
//! what scripting costs) must play the very game the scripts play: same dice streams, same
//! decisions, same result. If this fails after a change to the Playmobil rules, policy or
//! abilities, port the change to `benches/native/mod.rs` too, or the ratio in
//! docs/performance.md compares two different games.

#[path = "../../benches/native/mod.rs"]
mod native;

use sandtable::game::project::Project;
use sandtable::game::scenario::Scenario;
use sandtable::host::rng::GameRng;
use sandtable::session::{MAX_TURNS, Session};

#[test]
fn native_port_plays_the_same_battles_as_the_scripts() {
    let project = Project::at(env!("CARGO_MANIFEST_DIR")).unwrap();
    let scenario = Scenario::load(&project, &project.default_scenario()).unwrap();
    let start = native::Start::new(&scenario);
    let sides: Vec<String> = scenario.sides.iter().map(|s| s.id.clone()).collect();
    let mut session = Session::new(&project, scenario, 5).unwrap();
    for run in 0..24 {
        // As `sim` starts each run.
        session.start_over(5, GameRng::for_run(5, run)).unwrap();
        let scripted = session
            .play_battle(MAX_TURNS, |s| drop(s.take_events()))
            .unwrap();
        let native = start.battle(GameRng::for_run(5, run)).play();
        let standing: Vec<bool> = session
            .state()
            .battlefield
            .units()
            .iter()
            .map(|u| u.in_play)
            .collect();
        assert_eq!(
            scripted.winner,
            native.winner.map(|w| sides[w].clone()),
            "run {run}: the winner"
        );
        assert_eq!(scripted.turn, native.turn, "run {run}: the turns");
        assert_eq!(standing, native.in_play, "run {run}: who is left standing");
    }
}
