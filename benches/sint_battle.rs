//! One auto-played battle of each Soldiers in Time scenario (`scenarios/sint_*.yaml`): the
//! game started over from the set-up scenario on a new stream, as `sim` starts each run, then
//! played to its victory by `policy.rhai`, events taken and dropped as `sim` does.
//!
//! Run with `cargo bench --bench sint_battle`; figures are recorded in docs/performance.md.

use criterion::{Criterion, criterion_group, criterion_main};

// The allocator the `sandtable` binary uses, so that these figures are the binary's.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;
use sandtable::game::project::Project;
use sandtable::game::scenario::Scenario;
use sandtable::session::Session;

mod common;

/// The scenarios, by the name each figure is reported under.
const SCENARIOS: [(&str, &str); 3] = [
    (
        "rorkes drift patrol",
        "scenarios/sint_rorkes_drift_patrol.yaml",
    ),
    ("edgehill lane", "scenarios/sint_edgehill_lane.yaml"),
    ("trench raid", "scenarios/sint_trench_raid.yaml"),
];

fn battles(c: &mut Criterion) {
    let project = Project::at(env!("CARGO_MANIFEST_DIR")).unwrap();
    let mut group = c.benchmark_group("soldiers in time battle");
    for (name, path) in SCENARIOS {
        let scenario = Scenario::load(&project, &project.root().join(path)).unwrap();
        let mut session = Session::new(&project, scenario, 5).unwrap();
        let mut run = 0;
        group.bench_function(name, |b| {
            b.iter(|| {
                run += 1;
                common::play_run(&mut session, 5, run)
            })
        });
    }
    group.finish();
}

criterion_group!(benches, battles);
criterion_main!(benches);
