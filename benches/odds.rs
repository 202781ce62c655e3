//! Exact odds benchmarks: big pools computed by counting.
//!
//! Run with `cargo bench --bench odds`; figures are recorded in docs/performance.md.

use criterion::{Criterion, criterion_group, criterion_main};
use sandtable::host::dice::{DiceExpr, Node};
use sandtable::host::odds;
use std::hint::black_box;

fn exact(c: &mut Criterion) {
    let pool = DiceExpr::parse("20d6").unwrap();
    let Node::Dice(spec) = pool.node() else {
        unreachable!()
    };
    c.bench_function("odds 20d6 vs 20d6 (highest die)", |b| {
        b.iter(|| {
            let a = odds::highest_die(black_box(spec)).unwrap();
            odds::compare(&a, &a).unwrap()
        })
    });
    c.bench_function("odds 20d6 vs 20d6 (totals)", |b| {
        b.iter(|| {
            let a = odds::distribution(black_box(pool.node())).unwrap();
            odds::compare(&a, &a).unwrap()
        })
    });
    let kept = DiceExpr::parse("30d10kh3").unwrap();
    c.bench_function("odds 30d10kh3", |b| {
        b.iter(|| odds::distribution(black_box(kept.node())).unwrap())
    });
}

criterion_group!(benches, exact);
criterion_main!(benches);
