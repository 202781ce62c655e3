//! The ability hook dispatcher: what `ask` and `allowed` cost when no ability answers, and
//! when one does (a script function of the ability runs). Each measured call makes 100 of
//! them in a loop, so the figures divided by 100 are per dispatch; `loop only` is the same
//! loop doing nothing, to subtract.
//!
//! Run with `cargo bench --bench hooks`; figures are recorded in docs/performance.md.

use criterion::{Criterion, criterion_group, criterion_main};
use sandtable::game::project::Project;
use sandtable::game::scenario::Scenario;
use sandtable::session::Session;

fn hooks(c: &mut Criterion) {
    let project = Project::at(env!("CARGO_MANIFEST_DIR")).unwrap();
    let scenario = Scenario::load(&project, &project.default_scenario()).unwrap();
    let mut s = Session::new(&project, scenario, 1).unwrap();
    let _ = s
        .eval(
            "bench setup",
            r#"
        // legionary_1 takes up the testudo, whose `defend_dice` hook adds a die; ulf goes
        // berserk, whose `can_die` hook says no. viking_1 has no abilities.
        use_ability(unit("legionary_1"), "testudo");
        use_ability(unit("ulf"), "berserker");
        fn loop_only(u) { for i in 0..100 { } }
        fn ask_unanswered(u) { for i in 0..100 { ask("defend_dice", u, 2, #{ cause: "melee" }); } }
        fn ask_answered(u) { for i in 0..100 { ask("defend_dice", u, 2, #{ cause: "melee" }); } }
        fn allowed_answered(u) { for i in 0..100 { allowed("can_die", u, #{ cause: "melee" }); } }
        "#,
        )
        .unwrap();
    let unit = |s: &Session, id: &str| s.unit_value(s.state().battlefield.index_of(id).unwrap());
    let viking = unit(&s, "viking_1");
    let legionary = unit(&s, "legionary_1");
    let ulf = unit(&s, "ulf");
    let mut group = c.benchmark_group("100 dispatches");
    for (name, function, u) in [
        ("loop only", "loop_only", &viking),
        ("ask, no ability answers", "ask_unanswered", &viking),
        ("ask, the testudo answers", "ask_answered", &legionary),
        ("allowed, the berserker answers", "allowed_answered", &ulf),
    ] {
        group.bench_function(name, |b| {
            b.iter(|| s.call(function, vec![u.clone()]).unwrap())
        });
    }
    group.finish();
}

criterion_group!(benches, hooks);
criterion_main!(benches);
