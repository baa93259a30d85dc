//! The rows of a results directory, as serde structs: `runs.csv` (one row per instance ×
//! heuristic), `iterations.csv` (one row per IDA* iteration) and `meta.json` (how the results
//! were made). Everything that reads results (plots, reports, compare, collect) goes through
//! these types, so the column names live in one place.

use serde::{Deserialize, Serialize};

use crate::search::Iteration;

/// File names inside a results directory.
pub const RUNS_FILE: &str = "runs.csv";
pub const ITERATIONS_FILE: &str = "iterations.csv";
pub const META_FILE: &str = "meta.json";

/// The columns of `runs.csv`, in order (the field names of [`RunRecord`]).
pub const RUN_COLUMNS: &[&str] = &[
    "instance_set",
    "instance_id",
    "heuristic",
    "status",
    "length",
    "optimal_length",
    "h0",
    "iterations",
    "expanded",
    "generated",
    "last_iteration_generated",
    "seconds",
    "nodes_per_second",
    "growth_ratio",
    "overhead_measured",
    "overhead_predicted",
    "moves",
    "verified",
    "threads",
];

/// The columns of `iterations.csv`, in order (the field names of [`IterationRecord`]).
pub const ITERATION_COLUMNS: &[&str] = &[
    "instance_set",
    "instance_id",
    "heuristic",
    "iteration",
    "bound",
    "expanded",
    "generated",
    "seconds",
];

/// One (instance, heuristic) run: a row of `runs.csv`.
///
/// Fields that have no value for a run (the length of a run that hit a limit, r for a run with
/// fewer than two completed iterations) are empty in the CSV.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunRecord {
    pub instance_set: String,
    pub instance_id: String,
    pub heuristic: String,
    /// `solved`, `unsolvable`, `time-limit`, `node-limit`, `error`, `wrong-length`.
    pub status: String,
    pub length: Option<u32>,
    /// The published or otherwise known optimal length, when the instance file gives one.
    pub optimal_length: Option<u32>,
    pub h0: Option<u32>,
    pub iterations: u32,
    pub expanded: u64,
    pub generated: u64,
    /// Generated nodes in the final iteration (the one that found the goal, or was cut off).
    pub last_iteration_generated: u64,
    pub seconds: f64,
    pub nodes_per_second: Option<f64>,
    /// Growth ratio r, see [`Growth`].
    pub growth_ratio: Option<f64>,
    pub overhead_measured: Option<f64>,
    pub overhead_predicted: Option<f64>,
    /// The solution as U/D/L/R (empty unless solved).
    pub moves: String,
    /// Replayed to the goal, and equal to the known optimal length when one is known.
    pub verified: bool,
    /// Threads in the pool that ran the experiment.
    pub threads: u32,
}

/// One IDA* iteration of one run: a row of `iterations.csv`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct IterationRecord {
    pub instance_set: String,
    pub instance_id: String,
    pub heuristic: String,
    /// 1-based.
    pub iteration: u32,
    pub bound: u32,
    pub expanded: u64,
    pub generated: u64,
    pub seconds: f64,
}

/// Iterative-deepening growth and overhead of one run, from generated nodes per iteration.
///
/// Let N_1 … N_k be the generated nodes of the k iterations. The last one stops at the first
/// solution (or at a limit), so it is incomplete and left out: only the k − 1 *completed*
/// iterations are used.
/// - r = (N_{k−1} / N_1)^(1/(k−2)), the geometric mean of N_i / N_{i−1} over the completed
///   iterations (needs at least two completed iterations);
/// - overhead measured = (N_1 + … + N_{k−1}) / N_{k−1}: all nodes of the completed iterations
///   over those of the last completed one;
/// - overhead predicted = r / (r − 1), the limit of that sum for a geometric series (needs r > 1).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Growth {
    pub ratio: Option<f64>,
    pub overhead_measured: Option<f64>,
    pub overhead_predicted: Option<f64>,
}

impl Growth {
    pub fn of(iterations: &[Iteration]) -> Growth {
        let completed: Vec<f64> = iterations
            .iter()
            .take(iterations.len().saturating_sub(1))
            .map(|i| i.generated as f64)
            .collect();
        let k = completed.len();
        let ratio = (k >= 2 && completed[0] > 0.0)
            .then(|| (completed[k - 1] / completed[0]).powf(1.0 / (k - 1) as f64));
        let overhead_measured = (k >= 1 && completed[k - 1] > 0.0)
            .then(|| completed.iter().sum::<f64>() / completed[k - 1]);
        let overhead_predicted = ratio.filter(|&r| r > 1.0).map(|r| r / (r - 1.0));
        Growth {
            ratio,
            overhead_measured,
            overhead_predicted,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn its(nodes: &[u64]) -> Vec<Iteration> {
        nodes
            .iter()
            .enumerate()
            .map(|(i, &n)| Iteration {
                bound: 40 + 2 * i as u32,
                expanded: n / 2,
                generated: n,
                seconds: 0.0,
            })
            .collect()
    }

    #[test]
    fn growth_on_a_hand_computed_example() {
        // Completed: 10, 40, 160 (the final 300 is cut short by the solution).
        // r = (160/10)^(1/2) = 4; measured = 210/160 = 1.3125; predicted = 4/3.
        let g = Growth::of(&its(&[10, 40, 160, 300]));
        assert!((g.ratio.unwrap() - 4.0).abs() < 1e-12);
        assert!((g.overhead_measured.unwrap() - 1.3125).abs() < 1e-12);
        assert!((g.overhead_predicted.unwrap() - 4.0 / 3.0).abs() < 1e-12);
    }

    /// The column lists match what serde writes, so headers written from them fit the rows.
    #[test]
    fn column_lists_match_the_structs() {
        fn header<T: Serialize>(row: &T) -> String {
            let mut w = csv::Writer::from_writer(vec![]);
            w.serialize(row).unwrap();
            let text = String::from_utf8(w.into_inner().unwrap()).unwrap();
            text.lines().next().unwrap().to_string()
        }
        let run = RunRecord {
            instance_set: "s".into(),
            instance_id: "1".into(),
            heuristic: "manhattan".into(),
            status: "solved".into(),
            length: Some(2),
            optimal_length: None,
            h0: Some(2),
            iterations: 1,
            expanded: 1,
            generated: 2,
            last_iteration_generated: 2,
            seconds: 0.0,
            nodes_per_second: None,
            growth_ratio: None,
            overhead_measured: None,
            overhead_predicted: None,
            moves: "UL".into(),
            verified: true,
            threads: 1,
        };
        assert_eq!(header(&run), RUN_COLUMNS.join(","));
        let it = IterationRecord {
            instance_set: "s".into(),
            instance_id: "1".into(),
            heuristic: "manhattan".into(),
            iteration: 1,
            bound: 2,
            expanded: 1,
            generated: 2,
            seconds: 0.0,
        };
        assert_eq!(header(&it), ITERATION_COLUMNS.join(","));
    }

    #[test]
    fn growth_needs_two_completed_iterations() {
        let g = Growth::of(&its(&[10, 40]));
        assert_eq!(g.ratio, None);
        assert_eq!(g.overhead_predicted, None);
        assert_eq!(g.overhead_measured, Some(1.0));
        assert_eq!(Growth::of(&its(&[7])).overhead_measured, None);
    }
}
