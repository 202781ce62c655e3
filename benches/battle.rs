//! A whole auto-played battle of the default scenario (Romans against Vikings): starting the
//! session (compiling the ruleset and abilities) and playing it to its victory with the
//! policy, events logged as usual.
//!
//! Run with `cargo bench --bench battle`; figures are recorded in docs/performance.md.

use criterion::{Criterion, criterion_group, criterion_main};

// The allocator the `sandtable` binary uses, so that these figures are the binary's.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;
use sandtable::analysis::command::run_line;
use sandtable::game::project::Project;
use sandtable::game::scenario::Scenario;
use sandtable::host::rng::GameRng;
use sandtable::session::{MAX_TURNS, Session};

mod common;
mod native;

fn battle(c: &mut Criterion) {
    let project = Project::at(env!("CARGO_MANIFEST_DIR")).unwrap();
    let scenario = Scenario::load(&project, &project.default_scenario()).unwrap();
    let mut seed = 0;
    c.bench_function("session start", |b| {
        b.iter(|| Session::new(&project, scenario.clone(), 1).unwrap())
    });
    c.bench_function("whole battle (start and play)", |b| {
        b.iter(|| {
            seed += 1;
            let mut s = Session::new(&project, scenario.clone(), seed).unwrap();
            s.play_battle(MAX_TURNS, |_| {}).unwrap()
        })
    });
}

fn prompt(c: &mut Criterion) {
    let project = Project::at(env!("CARGO_MANIFEST_DIR")).unwrap();
    let scenario = Scenario::load(&project, &project.default_scenario()).unwrap();
    let mut s = Session::new(&project, scenario, 3).unwrap();
    // One prompt line as a player types it, parsed, run through the ruleset verb and
    // narrated; then `:undo`, so that every iteration fights the same melee.
    c.bench_function("prompt line: melee then :undo", |b| {
        b.iter(|| {
            let _ = run_line(&mut s, "bench", "melee viking_1 legionary_1").unwrap();
            let _ = run_line(&mut s, "bench", ":undo").unwrap();
            let _ = s.take_events();
        })
    });
    c.bench_function("reload the scripts", |b| b.iter(|| s.reload().unwrap()));
}

/// One battle played by the scripts (from the set-up game, as `sim` plays it) against the
/// same battle in plain Rust (`native/mod.rs`): the cost of scripting, as a ratio.
fn scripted_against_native(c: &mut Criterion) {
    let project = Project::at(env!("CARGO_MANIFEST_DIR")).unwrap();
    let scenario = Scenario::load(&project, &project.default_scenario()).unwrap();
    let start = native::Start::new(&scenario);
    // The two play the same game: say how often each side wins over the same runs.
    let runs = 2_000;
    let report =
        sandtable::analysis::sim::simulate(&project, &scenario, runs, 5, 2, &[], &|_| {}).unwrap();
    let mut native_wins = [0u64; 2];
    let mut native_turns = 0;
    for run in 0..runs {
        let outcome = start.battle(GameRng::for_run(5, run)).play();
        native_turns += outcome.turn;
        // (Who is left standing is compared battle by battle in tests/it/native_battle.rs.)
        let _ = outcome.in_play;
        if let Some(w) = outcome.winner {
            native_wins[w] += 1;
        }
    }
    eprintln!(
        "over {runs} battles: scripted Rome wins {:.1}%, {:.2} turns; native Rome wins {:.1}%, {:.2} turns",
        report.base.win_rate("romans").0 * 100.0,
        report.base.turns as f64 / runs as f64,
        native_wins[0] as f64 / runs as f64 * 100.0,
        native_turns as f64 / runs as f64,
    );

    let mut session = Session::new(&project, scenario.clone(), 5).unwrap();
    let mut run = 0;
    let mut group = c.benchmark_group("one battle");
    group.bench_function("scripted", |b| {
        b.iter(|| {
            run += 1;
            common::play_run(&mut session, 5, run)
        })
    });
    group.bench_function("native", |b| {
        b.iter(|| {
            run += 1;
            start.battle(GameRng::for_run(5, run)).play()
        })
    });
    group.finish();
}

/// Monte Carlo throughput: 200 battles of the default scenario on one and on two threads
/// (each thread compiles the scripts once, about 4 ms, then starts every battle over from the
/// scenario on its run's stream).
fn sim(c: &mut Criterion) {
    let project = Project::at(env!("CARGO_MANIFEST_DIR")).unwrap();
    let scenario = Scenario::load(&project, &project.default_scenario()).unwrap();
    let mut group = c.benchmark_group("sim 200 battles");
    group.sample_size(10);
    for threads in [1, 2] {
        group.bench_function(format!("{threads} thread(s)"), |b| {
            b.iter(|| {
                sandtable::analysis::sim::simulate(
                    &project,
                    &scenario,
                    200,
                    7,
                    threads,
                    &[],
                    &|_| {},
                )
                .unwrap()
            })
        });
    }
    group.finish();
}

criterion_group!(benches, battle, prompt, scripted_against_native, sim);
criterion_main!(benches);
