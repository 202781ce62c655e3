//! Melee benchmarks: one scripted Playmobil melee against the same exchange in native Rust.
//!
//! - `scripted exchange`: a script function that reads both figures' dice, rolls both pools
//!   and compares the highest dice (what a melee costs in Rhai, without narration);
//! - `melee verb`: the ruleset's full `melee` verb with its checks, narration and logging,
//!   then the state put back so the next iteration fights the same figures;
//! - `native exchange`: the same exchange in plain Rust, for the ratio.
//!
//! Run with `cargo bench --bench melee`; figures are recorded in docs/performance.md.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use sandtable::game::project::Project;
use sandtable::game::scenario::Scenario;
use sandtable::host::rng::GameRng;
use sandtable::session::Session;

fn session() -> Session {
    let project = Project::at(env!("CARGO_MANIFEST_DIR")).unwrap();
    let scenario = Scenario::load(&project, &project.default_scenario()).unwrap();
    Session::new(&project, scenario, 1).unwrap()
}

fn melee(c: &mut Criterion) {
    let mut s = session();
    let _ = s
        .eval(
            "bench setup",
            "fn exchange(a, d) { \
             let ar = roll(`${a.stat(\"attack\")}d6`); \
             let dr = roll(`${d.stat(\"defend\")}d6`); \
             ar.highest >= dr.highest \
         }",
        )
        .unwrap();
    let (v, l) = {
        let st = s.state();
        (
            st.battlefield.index_of("viking_1").unwrap(),
            st.battlefield.index_of("legionary_1").unwrap(),
        )
    };
    let args = vec![s.unit_value(v), s.unit_value(l)];
    // Each call commits; rolling back to a mark taken before it (without committing in
    // between) is not possible, so the benchmark restores a snapshot only every 1,000 calls
    // to keep the log from growing without bound.
    let start = s.snapshot();
    let mut calls = 0u32;
    let mut reset = |s: &mut Session| {
        calls += 1;
        if calls.is_multiple_of(1000) {
            s.restore(start.clone());
        }
    };
    c.bench_function("scripted exchange", |b| {
        b.iter(|| {
            let r = s.call("exchange", black_box(args.clone())).unwrap();
            reset(&mut s);
            r
        })
    });
    c.bench_function("melee verb", |b| {
        b.iter(|| {
            let mark = s.mark();
            let r = s.call("melee", black_box(args.clone())).unwrap();
            s.rollback(mark);
            reset(&mut s);
            r
        })
    });

    let mut rng = GameRng::new(1);
    let (attack, defend) = (1u32, 2u32);
    c.bench_function("native exchange", |b| {
        b.iter(|| {
            let a = (0..black_box(attack))
                .map(|_| rng.die(6))
                .max()
                .unwrap_or(0);
            let d = (0..black_box(defend))
                .map(|_| rng.die(6))
                .max()
                .unwrap_or(0);
            a >= d
        })
    });
}

criterion_group!(benches, melee);
criterion_main!(benches);
