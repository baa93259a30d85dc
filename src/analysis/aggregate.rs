//! The figures of the summary table, each computed from the rows of `runs.csv` by one formula
//! that the report states beside the table.

use std::collections::HashMap;

use crate::results::{Results, RunRecord, RunStatus};

/// The heuristic that others are compared against, when present.
pub const REFERENCE_HEURISTIC: &str = "manhattan";

/// The geometric mean of positive values (how ratios per instance are summarised); `NaN` for
/// none.
pub(crate) fn geomean(values: &[f64]) -> f64 {
    if values.is_empty() {
        return f64::NAN;
    }
    (values.iter().map(|v| v.ln()).sum::<f64>() / values.len() as f64).exp()
}

/// The median (mean of the middle two for an even count); `NaN` for no values.
pub fn median(values: &[f64]) -> f64 {
    let mut v = values.to_vec();
    v.sort_by(f64::total_cmp);
    match v.len() {
        0 => f64::NAN,
        n if n % 2 == 1 => v[n / 2],
        n => (v[n / 2 - 1] + v[n / 2]) / 2.0,
    }
}

/// The q-quantile of sorted values, interpolating linearly between order statistics (the
/// "type 7" definition of R and numpy's default).
pub fn quantile(sorted: &[f64], q: f64) -> f64 {
    let pos = q * (sorted.len() - 1) as f64;
    let (i, frac) = (pos.floor() as usize, pos.fract());
    let next = sorted[(i + 1).min(sorted.len() - 1)];
    sorted[i] + frac * (next - sorted[i])
}

/// One row of the summary table: the runs of one heuristic on one instance set.
///
/// All means are over the *solved* runs only (a run cut off by a limit has truncated counts).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Summary {
    pub instance_set: String,
    pub heuristic: String,
    /// Rows of `runs.csv` for this set and heuristic.
    pub runs: usize,
    /// Of those, rows with status `solved`.
    pub solved: usize,
    /// Mean of `h0` over solved runs.
    pub mean_h0: Option<f64>,
    /// Σ `generated` over the solved runs that have a count (an outside solver may report
    /// none); `None` when none has.
    pub total_generated: Option<u64>,
    /// Σ `generated` / the solved runs that have a count.
    pub mean_generated: Option<f64>,
    /// exp(mean ln `generated`) over solved runs with `generated` > 0.
    pub geomean_generated: Option<f64>,
    /// Σ `seconds` over solved runs.
    pub total_seconds: f64,
    /// Σ `seconds` / solved.
    pub mean_seconds: Option<f64>,
    /// Σ `generated` / Σ `seconds` over the solved runs that have a count (not the mean of
    /// per-run rates).
    pub nodes_per_second: Option<f64>,
    /// Against the reference heuristic, see [`Reduction`].
    pub reduction: Option<Reduction>,
    /// Mean of `overhead_measured` over the solved runs that have both overheads, and how many
    /// do: measured and predicted compare over the same runs (a run with one completed
    /// iteration has a measured overhead, 1, but no growth ratio to predict one from).
    pub mean_overhead_measured: Option<(f64, usize)>,
    /// Mean of `overhead_predicted` over the same runs.
    pub mean_overhead_predicted: Option<(f64, usize)>,
}

/// The node reduction factor of a heuristic H against a reference heuristic R (Manhattan):
/// over the instances that *both* solved, Σ generated(R) / Σ generated(H), which equals the
/// ratio of their mean nodes over those instances.
#[derive(Debug, Clone, PartialEq)]
pub struct Reduction {
    pub reference: String,
    pub factor: f64,
    /// Instances solved by both.
    pub common: usize,
}

/// The reference heuristic for a set: Manhattan if it was run, else the first one in the file.
pub fn reference_heuristic(heuristics: &[String]) -> Option<&str> {
    heuristics
        .iter()
        .find(|h| *h == REFERENCE_HEURISTIC)
        .or_else(|| heuristics.first())
        .map(String::as_str)
}

/// Solved runs of one set and heuristic, by instance id.
pub fn solved_by_instance<'a>(
    results: &'a Results,
    set: &str,
    heuristic: &str,
) -> HashMap<&'a str, &'a RunRecord> {
    results
        .runs
        .iter()
        .filter(|r| {
            r.instance_set == set && r.label() == heuristic && r.status == RunStatus::Solved
        })
        .map(|r| (r.instance_id.as_str(), r))
        .collect()
}

/// Heuristics that have runs on the given set, in order of first appearance.
pub fn heuristics_of_set(results: &Results, set: &str) -> Vec<String> {
    results
        .methods()
        .into_iter()
        .filter(|h| {
            results
                .runs
                .iter()
                .any(|r| r.instance_set == set && &r.label() == h)
        })
        .collect()
}

fn mean(values: impl Iterator<Item = f64>) -> Option<(f64, usize)> {
    let (sum, n) = values.fold((0.0, 0usize), |(s, n), v| (s + v, n + 1));
    (n > 0).then(|| (sum / n as f64, n))
}

/// The summary rows of every (set, heuristic), sets and heuristics in file order.
pub fn summarize(results: &Results) -> Vec<Summary> {
    let mut out = Vec::new();
    for set in results.instance_sets() {
        let heuristics = heuristics_of_set(results, &set);
        let reference = reference_heuristic(&heuristics).map(str::to_string);
        let reference_runs = reference
            .as_deref()
            .map(|r| solved_by_instance(results, &set, r));
        for heuristic in &heuristics {
            let all: Vec<&RunRecord> = results
                .runs
                .iter()
                .filter(|r| r.instance_set == set && &r.label() == heuristic)
                .collect();
            let solved: Vec<&RunRecord> = all
                .iter()
                .copied()
                .filter(|r| r.status == RunStatus::Solved)
                .collect();
            let n = solved.len();
            let total_seconds: f64 = solved.iter().map(|r| r.seconds).sum();
            // Node figures only over the runs that know their counts: an outside solver that
            // reported none is not a run of 0 nodes.
            let counted: Vec<(u64, f64)> = solved
                .iter()
                .filter_map(|r| r.generated.map(|g| (g, r.seconds)))
                .collect();
            // A total over no solved runs is 0, as the seconds' are; unknown only when solved
            // runs exist and none reported its count.
            let total_generated = (!counted.is_empty() || solved.is_empty())
                .then(|| counted.iter().map(|c| c.0).sum::<u64>());
            let counted_seconds: f64 = counted.iter().map(|c| c.1).sum();
            let geomean_generated = mean(
                counted
                    .iter()
                    .filter(|c| c.0 > 0)
                    .map(|c| (c.0 as f64).ln()),
            )
            .map(|(m, _)| m.exp());
            let reduction = match (&reference, &reference_runs) {
                (Some(reference), Some(reference_runs)) => {
                    let (mut sum_ref, mut sum_h, mut common) = (0u64, 0u64, 0usize);
                    for r in &solved {
                        let rr = reference_runs.get(r.instance_id.as_str());
                        if let Some((g_ref, g)) = rr.and_then(|rr| rr.generated).zip(r.generated) {
                            sum_ref += g_ref;
                            sum_h += g;
                            common += 1;
                        }
                    }
                    (common > 0 && sum_h > 0).then(|| Reduction {
                        reference: reference.clone(),
                        factor: sum_ref as f64 / sum_h as f64,
                        common,
                    })
                }
                _ => None,
            };
            let both_overheads: Vec<(f64, f64)> = (solved.iter())
                .filter_map(|r| r.overhead_measured.zip(r.overhead_predicted))
                .collect();
            out.push(Summary {
                instance_set: set.clone(),
                heuristic: heuristic.clone(),
                runs: all.len(),
                solved: n,
                // Breadth-first search has no heuristic: its h0 (0 in older files) is no figure.
                mean_h0: mean(
                    solved
                        .iter()
                        .filter(|r| r.algorithm != crate::search::Algorithm::Bfs)
                        .filter_map(|r| r.h0)
                        .map(f64::from),
                )
                .map(|m| m.0),
                total_generated,
                mean_generated: total_generated
                    .filter(|_| !counted.is_empty())
                    .map(|t| t as f64 / counted.len() as f64),
                geomean_generated,
                total_seconds,
                mean_seconds: (n > 0).then(|| total_seconds / n as f64),
                nodes_per_second: total_generated
                    .filter(|_| counted_seconds > 0.0)
                    .map(|t| t as f64 / counted_seconds),
                reduction,
                mean_overhead_measured: mean(both_overheads.iter().map(|o| o.0)),
                mean_overhead_predicted: mean(both_overheads.iter().map(|o| o.1)),
            });
        }
    }
    out
}
