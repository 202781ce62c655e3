//! `sandtable sim SCENARIO --runs N`: many battles auto-played, tallied, and compared against
//! house rules.

use std::path::PathBuf;

use indicatif::{ProgressBar, ProgressState, ProgressStyle};
use serde_json::json;

use super::Common;
use crate::analysis::sim::{Report, Tally, rule_label};
use crate::error::Error;

/// Plays the battles and prints the report.
pub fn sim(
    common: &Common,
    scenario: PathBuf,
    runs: u64,
    threads: Option<usize>,
    with: &[PathBuf],
) -> Result<u8, Error> {
    let (project, scenario) = super::load_scenario(common, Some(scenario))?;
    let seed = super::choose_seed(common, Some(&scenario));
    let threads = threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, std::num::NonZero::get));
    // A bar on a terminal; nothing when stderr is piped or the output is JSON for a tool.
    let bar = if super::capture::is_terminal(std::io::stderr()) && !common.json {
        let bar = ProgressBar::new(runs);
        bar.set_style(
            ProgressStyle::with_template(
                "{bar:40} {pos}/{len} battles, {rate} a second, {eta} to go",
            )
            .expect("a valid progress template")
            .with_key(
                "rate",
                |state: &ProgressState, w: &mut dyn std::fmt::Write| {
                    let _ = write!(w, "{:.0}", state.per_sec());
                },
            ),
        );
        bar
    } else {
        ProgressBar::hidden()
    };
    let progress = |done: u64| bar.set_position(done);
    let report =
        crate::analysis::sim::simulate(&project, &scenario, runs, seed, threads, with, &progress);
    bar.finish_and_clear();
    let report = report?;
    if common.json {
        outln!("{}", to_json(&report, seed));
    } else {
        // The plain column is the scenario as it is, its own house rules included.
        let base = if scenario.house_rules.is_empty() {
            ("rules as written", "the rules as written")
        } else {
            let with = "the scenario with its house rules";
            (with, with)
        };
        print(&report, seed, &scenario.name, base);
    }
    Ok(0)
}

fn pct(p: f64, pm: f64) -> String {
    format!("{:.1}% ± {:.1}", p * 100.0, pm * 100.0)
}

/// Prints the report; `base` names the plain column as a heading and after "against".
fn print(report: &Report, seed: u64, name: &str, base: (&str, &str)) {
    let (heading, against) = base;
    let b = &report.base;
    outln!("{name}: {} from seed {seed}", battles(b.runs));
    let mut columns: Vec<(String, &Tally)> = vec![(heading.to_string(), b)];
    for (path, tally, _) in &report.variants {
        columns.push((rule_label(path), tally));
    }
    for (label, t) in &columns {
        outln!("\n{label}:");
        for (id, side) in &report.sides {
            let (p, pm) = t.win_rate(id);
            let (l, lm) = t.loss_rate(id);
            let survivors = t
                .survivors_mean(id)
                .map_or("-".to_string(), |m| format!("{m:.2}"));
            outln!(
                "  {side:<20} wins {:>13}   loses {:>13}   survivors {survivors}",
                pct(p, pm),
                pct(l, lm),
            );
        }
        let (d, dm) = t.draw_rate();
        match t.turns_mean() {
            Some(turns) => outln!("  draws {}, turns {turns:.2} on average", pct(d, dm)),
            None => outln!("  draws {}, no battle finished", pct(d, dm)),
        }
        let troops: Vec<String> = t
            .survivors_by_troop_mean()
            .map(|(troop, mean)| format!("{troop} {mean:.2}"))
            .collect();
        if !troops.is_empty() {
            outln!("  survivors by troop type: {}", troops.join(", "));
        }
        if t.errors > 0 {
            outln!(
                "  {} ended in an error; the first: {}",
                battles(t.errors),
                t.first_error_text().unwrap_or_default()
            );
        }
    }
    for (path, _, paired) in &report.variants {
        let label = rule_label(path);
        outln!("\n{label} against {against} (paired, same seeds):");
        let pairs = paired.values().next().map_or(0, |p| p.runs);
        if pairs == 0 {
            outln!("  no run finished both its battles: nothing to compare");
            continue;
        }
        for (id, side) in &report.sides {
            let p = paired.get(id).cloned().unwrap_or_default();
            let (before, after) = p.win_rates();
            let (d, pm) = p.difference();
            // One pair has no spread to measure.
            let interval = if pm.is_nan() {
                ", no interval from one run".to_string()
            } else {
                format!(" +/- {:.1}", pm * 100.0)
            };
            outln!(
                "  {side} win {:.0}% -> {:.0}% ({:+.1}{interval})",
                before * 100.0,
                after * 100.0,
                d * 100.0,
            );
        }
        if pairs < b.runs {
            outln!(
                "  over the {pairs} of {} runs whose two battles both finished",
                b.runs
            );
        }
    }
}

/// `1 battle`, `2 battles`.
fn battles(n: u64) -> String {
    if n == 1 {
        "1 battle".to_string()
    } else {
        format!("{n} battles")
    }
}

fn tally_json(report: &Report, t: &Tally) -> serde_json::Value {
    let sides: Vec<_> = report
        .sides
        .iter()
        .map(|(id, name)| {
            let (p, pm) = t.win_rate(id);
            let (l, lm) = t.loss_rate(id);
            json!({
                "side": id, "name": name, "wins": t.wins.get(id).copied().unwrap_or(0),
                "win_rate": p, "plus_minus_95": pm,
                "losses": t.losses(id), "loss_rate": l, "loss_plus_minus_95": lm,
                "survivors_mean": t.survivors_mean(id),
            })
        })
        .collect();
    let (d, dm) = t.draw_rate();
    json!({
        "runs": t.runs, "draws": t.draws, "draw_rate": d, "draw_plus_minus_95": dm,
        "errors": t.errors, "first_error": t.first_error_text(),
        "turns_mean": t.turns_mean(),
        "sides": sides,
        "survivors_by_troop_mean": t
            .survivors_by_troop_mean()
            .map(|(troop, mean)| (troop.to_string(), json!(mean)))
            .collect::<serde_json::Map<_, _>>(),
    })
}

fn to_json(report: &Report, seed: u64) -> serde_json::Value {
    let variants: Vec<_> = report
        .variants
        .iter()
        .map(|(path, tally, paired)| {
            let diff: serde_json::Map<String, serde_json::Value> = paired
                .iter()
                .map(|(side, p)| {
                    let (d, pm) = p.difference();
                    let (before, after) = p.win_rates();
                    (
                        side.clone(),
                        json!({
                            "pairs": p.runs, "win_rate_before": before, "win_rate_after": after,
                            "difference": d, "plus_minus_95": pm,
                        }),
                    )
                })
                .collect();
            json!({ "house_rule": path, "result": tally_json(report, tally), "paired": diff })
        })
        .collect();
    json!({ "seed": seed, "base": tally_json(report, &report.base), "with": variants })
}
