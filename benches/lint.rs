//! The static pass over scripts (`script::lint`), which runs at every session start: what
//! reading the engine's metadata costs (`Known::of`, once a session), and what the pass
//! costs over each shipped ruleset's scripts and abilities, compiled beforehand.
//!
//! Run with `cargo bench --bench lint`; figures are recorded in docs/performance.md.

use std::cell::RefCell;
use std::rc::Rc;

use criterion::{Criterion, criterion_group, criterion_main};
use rhai::AST;
use sandtable::game::project::Project;
use sandtable::game::ruleset::Ruleset;
use sandtable::game::scenario::Scenario;
use sandtable::game::state::GameState;
use sandtable::script::api;
use sandtable::script::engine::{self, Budget, Limits};
use sandtable::script::lint::{Declared, HookShape, Known, Pass};

fn lint(c: &mut Criterion) {
    let project = Project::at(env!("CARGO_MANIFEST_DIR")).unwrap();
    let scenario = Scenario::load(&project, &project.default_scenario()).unwrap();
    let state: api::Shared = Rc::new(RefCell::new(GameState::new(&scenario, 1)));
    let budget = Budget::default();
    let mut engine = engine::sandboxed(&Limits::default(), &budget, vec![], Default::default());
    api::register(
        &mut engine,
        &state,
        &scenario.ruleset,
        &Rc::default(),
        &Rc::default(),
        &Rc::default(),
        &budget,
    );
    c.bench_function("Known::of the session's engine", |b| {
        b.iter(|| Known::of(&engine))
    });
    let known = Known::of(&engine);
    for id in ["playmobil", "soldiers_in_time"] {
        let ruleset = Ruleset::load(&project, id).unwrap();
        let compile = |p: &std::path::Path| -> AST {
            let mut ast = engine.compile(std::fs::read_to_string(p).unwrap()).unwrap();
            ast.set_source(p.display().to_string());
            ast
        };
        let scripts: Vec<AST> = ruleset.script_paths().iter().map(|p| compile(p)).collect();
        let abilities: Vec<AST> = ruleset.abilities.values().map(|p| compile(p)).collect();
        let declared = Declared {
            hooks: ruleset
                .file
                .hooks
                .keys()
                .map(|h| (h.clone(), HookShape::default()))
                .collect(),
            stats: ruleset
                .file
                .troops
                .values()
                .flat_map(|t| t.stats.keys().cloned())
                .collect(),
            data: serde_json::to_value(&ruleset.file.data).unwrap(),
        };
        let scripts: Vec<&AST> = scripts.iter().collect();
        c.bench_function(&format!("the pass over {id}"), |b| {
            b.iter(|| {
                let mut pass = Pass::new(&known, &declared);
                pass.check(&scripts, false);
                for a in &abilities {
                    pass.check(&[a], true);
                }
                pass.finish()
            })
        });
    }
}

criterion_group!(benches, lint);
criterion_main!(benches);
