//! Predicted against measured work of one IDA* iteration (Korf, Reid & Edelkamp 2001): the
//! predictions of `tilebench predict` (one `predict-<heuristic>.csv` per heuristic) beside the
//! runs of `tilebench run --fixed-bound D` (status `fixed-bound`, one complete iteration with
//! threshold D per instance). Per heuristic and bound: the mean generated over the instances,
//! the predicted, and their ratio predicted / measured.

use serde::{Deserialize, Serialize};

use crate::results::{Results, RunStatus};

/// The file name prefix of a prediction file: `predict-<heuristic>.csv`.
pub(crate) const PREDICTION_PREFIX: &str = "predict-";

/// One row of a prediction file, as `tilebench predict --out` writes it.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct PredictionRow {
    pub bound: u32,
    pub predicted_expanded: f64,
    pub predicted_generated: f64,
}

/// The heuristic a prediction file is for, from its name (`predict-pdb-663.csv` → `pdb-663`).
pub(crate) fn heuristic_of_file(file_name: &str) -> Option<&str> {
    file_name
        .strip_prefix(PREDICTION_PREFIX)?
        .strip_suffix(".csv")
        .filter(|h| !h.is_empty())
}

/// Predicted and measured nodes of one heuristic at one bound.
#[derive(Debug, Clone, PartialEq)]
pub struct PredictedVsMeasured {
    pub heuristic: String,
    pub bound: u32,
    /// Fixed-bound runs measured at this bound.
    pub instances: usize,
    /// Mean `generated` over those runs.
    pub measured: f64,
    pub predicted: f64,
}

impl PredictedVsMeasured {
    /// Predicted / measured (above 1: the prediction is too high); `None` when nothing was
    /// measured.
    pub fn ratio(&self) -> Option<f64> {
        (self.measured > 0.0).then(|| self.predicted / self.measured)
    }
}

/// The measured mean generated per (heuristic, bound) over the `fixed-bound` runs of `results`,
/// with how many runs: the bound of a run is that of its one iteration (runs without an
/// iteration row are left out).
pub fn measured<'a>(
    results: impl IntoIterator<Item = &'a Results>,
) -> Vec<(String, u32, usize, f64)> {
    let mut sums: Vec<(String, u32, usize, u64)> = Vec::new();
    for res in results {
        for r in res
            .runs
            .iter()
            .filter(|r| r.status == RunStatus::FixedBound)
        {
            let Some(bound) = res
                .iterations
                .iter()
                .find(|i| {
                    i.instance_set == r.instance_set
                        && i.instance_id == r.instance_id
                        && i.heuristic == r.heuristic
                })
                .map(|i| i.bound)
            else {
                continue;
            };
            match sums.iter_mut().find(|s| s.0 == r.heuristic && s.1 == bound) {
                Some(s) => {
                    s.2 += 1;
                    s.3 += r.generated;
                }
                None => sums.push((r.heuristic.clone(), bound, 1, r.generated)),
            }
        }
    }
    sums.into_iter()
        .map(|(h, b, n, total)| (h, b, n, total as f64 / n as f64))
        .collect()
}

/// Every (heuristic, bound) with both a prediction and a measurement, in the order of
/// `predictions` (heuristic), then by bound.
pub fn pair(
    predictions: &[(String, Vec<PredictionRow>)],
    measured: &[(String, u32, usize, f64)],
) -> Vec<PredictedVsMeasured> {
    let mut out = Vec::new();
    for (h, rows) in predictions {
        let mut bounds: Vec<&PredictionRow> = rows.iter().collect();
        bounds.sort_by_key(|r| r.bound);
        for p in bounds {
            if let Some((_, _, n, mean)) = measured.iter().find(|m| &m.0 == h && m.1 == p.bound) {
                out.push(PredictedVsMeasured {
                    heuristic: h.clone(),
                    bound: p.bound,
                    instances: *n,
                    measured: *mean,
                    predicted: p.predicted_generated,
                });
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::results::{IterationRecord, RunRecord};

    fn run(id: &str, h: &str, status: RunStatus, generated: u64) -> RunRecord {
        RunRecord {
            instance_set: "s".into(),
            instance_id: id.into(),
            heuristic: h.into(),
            status,
            generated,
            ..RunRecord::default()
        }
    }

    fn iteration(id: &str, h: &str, bound: u32) -> IterationRecord {
        IterationRecord {
            instance_set: "s".into(),
            instance_id: id.into(),
            heuristic: h.into(),
            iteration: 1,
            bound,
            ..IterationRecord::default()
        }
    }

    #[test]
    fn pairs_means_over_fixed_bound_runs_with_predictions() {
        let dir = |b: u32, gens: &[u64], status: RunStatus| Results {
            dir: format!("r-b{b}").into(),
            runs: gens
                .iter()
                .enumerate()
                .map(|(i, g)| run(&i.to_string(), "manhattan", status, *g))
                .collect(),
            iterations: (0..gens.len())
                .map(|i| iteration(&i.to_string(), "manhattan", b))
                .collect(),
            meta: None,
        };
        let results = vec![
            dir(40, &[0, 100, 500], RunStatus::FixedBound),
            dir(41, &[300, 900], RunStatus::FixedBound),
            dir(42, &[7], RunStatus::Solved), // not a fixed-bound run
        ];
        let m = measured(&results);
        assert_eq!(
            m,
            vec![
                ("manhattan".to_string(), 40, 3, 200.0),
                ("manhattan".to_string(), 41, 2, 600.0)
            ]
        );
        let p = |bound, g| PredictionRow {
            bound,
            predicted_expanded: 0.0,
            predicted_generated: g,
        };
        let predictions = vec![
            (
                "manhattan".to_string(),
                vec![p(42, 1.0), p(41, 900.0), p(40, 300.0)],
            ),
            ("pdb-663".to_string(), vec![p(40, 1.0)]),
        ];
        let rows = pair(&predictions, &m);
        assert_eq!(rows.len(), 2);
        assert_eq!((rows[0].bound, rows[0].instances), (40, 3));
        assert_eq!(rows[0].ratio(), Some(1.5)); // 300 / 200
        assert_eq!((rows[1].bound, rows[1].ratio()), (41, Some(1.5))); // 900 / 600
        assert_eq!(heuristic_of_file("predict-pdb-663.csv"), Some("pdb-663"));
        assert_eq!(heuristic_of_file("predict-.csv"), None);
        assert_eq!(heuristic_of_file("ratios.csv"), None);
    }
}
