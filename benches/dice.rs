//! Dice benchmarks: parsing and rolling expressions.
//!
//! Run with `cargo bench --bench dice`; figures are recorded in docs/performance.md.

use criterion::{Criterion, criterion_group, criterion_main};
use sandtable::host::dice::DiceExpr;
use sandtable::host::rng::GameRng;
use std::hint::black_box;

fn dice(c: &mut Criterion) {
    c.bench_function("parse 3d6+1", |b| {
        b.iter(|| DiceExpr::parse(black_box("3d6+1")).unwrap())
    });
    let expr = DiceExpr::parse("3d6+1").unwrap();
    let mut rng = GameRng::new(1);
    c.bench_function("roll 3d6+1 (parsed)", |b| {
        b.iter(|| black_box(&expr).roll(&mut rng).unwrap())
    });
    c.bench_function("parse and roll 3d6+1", |b| {
        b.iter(|| sandtable::host::dice::roll(black_box("3d6+1"), &mut rng).unwrap())
    });
    let expr = DiceExpr::parse("4d6kh3").unwrap();
    c.bench_function("roll 4d6kh3 (parsed)", |b| {
        b.iter(|| black_box(&expr).roll(&mut rng).unwrap())
    });
    let expr = DiceExpr::parse("20d6>=5").unwrap();
    c.bench_function("roll 20d6>=5 (parsed)", |b| {
        b.iter(|| black_box(&expr).roll(&mut rng).unwrap())
    });
    c.bench_function("one d6 (generator only)", |b| {
        b.iter(|| rng.die(black_box(6)))
    });
}

criterion_group!(benches, dice);
criterion_main!(benches);
