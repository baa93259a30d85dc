//! The rows of a results directory: [`RunRecord`] (a row of `runs.csv`, one per instance ×
//! heuristic) and [`IterationRecord`] (a row of `iterations.csv`, one per IDA* iteration), with
//! the typed [`RunStatus`] (the search's own vocabulary, `crate::search::RunStatus`) and the
//! [`RunKey`] that names a run.
//!
//! The column lists are the serde field lists of the structs ([`columns`](super::io::columns)), so a column is added
//! by adding a field (with `#[serde(default)]` if older files lack it) and nothing else.

use std::fmt;

use serde::{Deserialize, Serialize};

pub use crate::search::RunStatus;
use crate::search::{Algorithm, Iteration};

/// What made a run: tilebench's own search, or an outside solver (`run --solver NAME=…`).
///
/// The result files spell it in three columns that stay as they always were (`solver`,
/// `algorithm`, `heuristic`: see [`RunRecord`]); everywhere else it is this type.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Method {
    /// The built-in search; `heuristic` is `None` for breadth-first search.
    Builtin {
        algorithm: Algorithm,
        heuristic: Option<String>,
    },
    /// An outside program, by the NAME it was given.
    Outside { solver: String },
}

impl Method {
    /// IDA* with `heuristic`.
    pub fn ida(heuristic: &str) -> Method {
        Method::builtin(Algorithm::Ida, heuristic)
    }

    /// The built-in `algorithm` with `heuristic` (empty for none).
    pub fn builtin(algorithm: Algorithm, heuristic: &str) -> Method {
        Method::Builtin {
            algorithm,
            heuristic: (!heuristic.is_empty()).then(|| heuristic.to_string()),
        }
    }

    pub fn outside(solver: &str) -> Method {
        Method::Outside {
            solver: solver.to_string(),
        }
    }

    /// The built-in search's algorithm (none for an outside solver).
    pub fn algorithm(&self) -> Option<Algorithm> {
        match self {
            Method::Builtin { algorithm, .. } => Some(*algorithm),
            Method::Outside { .. } => None,
        }
    }

    /// What the `heuristic` column holds: the heuristic, empty for breadth-first search, and an
    /// outside solver's NAME, so that every table, plot and comparison shows it as a series of
    /// its own.
    pub fn series(&self) -> &str {
        match self {
            Method::Builtin { heuristic, .. } => heuristic.as_deref().unwrap_or(""),
            Method::Outside { solver } => solver,
        }
    }

    /// The name in reports, plots, `compare` and `history.csv`: the heuristic alone for IDA*
    /// (so results from before the `algorithm` column keep their names), `astar+HEURISTIC` for
    /// A*, `bfs` for breadth-first search, the solver's NAME for an outside solver.
    pub fn label(&self) -> String {
        match self {
            Method::Builtin {
                algorithm: Algorithm::Ida,
                heuristic,
            } => heuristic.clone().unwrap_or_default(),
            Method::Builtin {
                algorithm,
                heuristic: Some(h),
            } => format!("{algorithm}+{h}"),
            Method::Builtin {
                algorithm,
                heuristic: None,
            } => algorithm.to_string(),
            Method::Outside { solver } => solver.clone(),
        }
    }

    /// The built-in method a [`label`](Method::label) names (its inverse on built-in methods):
    /// `bfs`, `ALGORITHM+HEURISTIC` (`astar+manhattan`), a heuristic alone for IDA*. A bare
    /// algorithm that takes a heuristic (`astar`) comes back without one, for the caller to
    /// refuse; heuristic names are not checked here.
    pub fn from_label(label: &str) -> Method {
        let label = label.trim();
        if let Some((algorithm, heuristic)) = label.split_once('+') {
            if let Ok(a) = algorithm.parse::<Algorithm>() {
                return Method::builtin(a, heuristic.trim());
            }
        }
        match label.parse::<Algorithm>() {
            Ok(a) => Method::builtin(a, ""),
            Err(_) => Method::ida(label),
        }
    }

    /// The method of a row's three columns.
    fn of_columns(algorithm: Option<Algorithm>, heuristic: &str) -> Method {
        match algorithm {
            Some(a) => Method::builtin(a, heuristic),
            None => Method::outside(heuristic),
        }
    }
}

impl fmt::Display for Method {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.label())
    }
}

/// The `algorithm` column: `ida`, `astar`, `bfs`, or `external` (`None` here) on an outside
/// solver's row: an outside program is not one of the search's algorithms. Files from before
/// the column were all IDA*, the default. Read a row's method through [`RunRecord::method`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct AlgorithmColumn(pub Option<Algorithm>);

impl AlgorithmColumn {
    const EXTERNAL: &'static str = "external";

    pub fn as_str(self) -> &'static str {
        self.0.map_or(Self::EXTERNAL, Algorithm::as_str)
    }
}

impl Default for AlgorithmColumn {
    fn default() -> AlgorithmColumn {
        AlgorithmColumn(Some(Algorithm::Ida))
    }
}

impl From<Algorithm> for AlgorithmColumn {
    fn from(a: Algorithm) -> AlgorithmColumn {
        AlgorithmColumn(Some(a))
    }
}

impl PartialEq<Algorithm> for AlgorithmColumn {
    fn eq(&self, a: &Algorithm) -> bool {
        self.0 == Some(*a)
    }
}

impl Serialize for AlgorithmColumn {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for AlgorithmColumn {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<AlgorithmColumn, D::Error> {
        let text = String::deserialize(d)?;
        if text == Self::EXTERNAL {
            return Ok(AlgorithmColumn(None));
        }
        match Algorithm::ALL.into_iter().find(|a| a.as_str() == text) {
            Some(a) => Ok(a.into()),
            None => Err(serde::de::Error::unknown_variant(
                &text,
                &["ida", "astar", "bfs", Self::EXTERNAL],
            )),
        }
    }
}

/// The `solver` of the built-in search.
pub const BUILTIN_SOLVER: &str = "tilebench";

/// Which program made a run: `tilebench` (the built-in search, the default, and what files
/// written before the column existed hold) or an outside solver's NAME (`run --solver NAME=…`).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct SolverName(pub String);

impl SolverName {
    pub fn outside(name: &str) -> SolverName {
        SolverName(name.to_string())
    }

    pub fn is_builtin(&self) -> bool {
        self.0 == BUILTIN_SOLVER
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl Default for SolverName {
    fn default() -> SolverName {
        SolverName(BUILTIN_SOLVER.to_string())
    }
}

impl fmt::Display for SolverName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// What names a run in every file and across results directories: (instance set, instance id,
/// method).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct RunKey {
    pub instance_set: String,
    pub instance_id: String,
    pub method: Method,
}

impl RunKey {
    /// The order a reader expects in a table: numeric ids by value (1, 2, …, 10, not 1, 10, 2),
    /// other ids after them by text.
    pub(crate) fn reading_order(&self) -> (&str, (bool, u64), &str, &Method) {
        let number = self.instance_id.parse::<u64>().ok();
        (
            &self.instance_set,
            (number.is_none(), number.unwrap_or(0)),
            &self.instance_id,
            &self.method,
        )
    }

    /// The key of an IDA* run.
    pub fn new(instance_set: &str, instance_id: &str, heuristic: &str) -> RunKey {
        RunKey::of(instance_set, instance_id, Method::ida(heuristic))
    }

    pub fn of(instance_set: &str, instance_id: &str, method: Method) -> RunKey {
        RunKey {
            instance_set: instance_set.to_string(),
            instance_id: instance_id.to_string(),
            method,
        }
    }

    /// See [`Method::label`].
    pub fn label(&self) -> String {
        self.method.label()
    }
}

impl fmt::Display for RunKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} #{} {}",
            self.instance_set, self.instance_id, self.method
        )
    }
}

/// One (instance, heuristic) run: a row of `runs.csv`.
///
/// Fields that have no value for a run (the length of a run that hit a limit, r for a run with
/// fewer than two completed iterations) are empty in the CSV. The column meanings are in
/// `docs/formats.md`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct RunRecord {
    pub instance_set: String,
    pub instance_id: String,
    /// `tilebench`, or the outside solver's NAME.
    #[serde(default)]
    pub solver: SolverName,
    /// `ida` in files from before the column; `external` for an outside solver.
    #[serde(default)]
    pub algorithm: AlgorithmColumn,
    /// [`Method::series`]: the built-in heuristic, empty for breadth-first search, an outside
    /// solver's NAME.
    pub heuristic: String,
    pub status: RunStatus,
    pub length: Option<u32>,
    /// The published or otherwise known optimal length, when the instance file gives one.
    pub optimal_length: Option<u32>,
    pub h0: Option<u32>,
    pub iterations: u32,
    /// Nodes expanded over all iterations; empty (`None`) when unknown: an outside solver that
    /// did not report them. Not 0, which a reader would take for a measured count.
    #[serde(deserialize_with = "required_count")]
    pub expanded: Option<u64>,
    /// Nodes generated over all iterations; empty when unknown, as `expanded`.
    #[serde(deserialize_with = "required_count")]
    pub generated: Option<u64>,
    /// Generated nodes in the final iteration (the one that found the goal, or was cut off);
    /// empty when unknown.
    #[serde(deserialize_with = "required_count")]
    pub last_iteration_generated: Option<u64>,
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
    /// Closed states reopened by A* (0 for the others). The memory columns are empty in files
    /// from before them; see `search::Memory` for what they count.
    #[serde(default)]
    pub reopened: Option<u64>,
    /// States held at once at the peak: open + closed (A*), frontier + visited (BFS), the path
    /// (IDA*); empty for outside solvers (see `peak_rss_bytes`).
    #[serde(default)]
    pub peak_stored: Option<u64>,
    /// Bytes of the search's own structures at the peak (heuristic tables excluded).
    #[serde(default)]
    pub peak_bytes: Option<u64>,
    #[serde(default)]
    pub bytes_per_state: Option<f64>,
    /// Bytes of the heuristic's tables (pattern databases), shared by every search using them.
    #[serde(default)]
    pub table_bytes: Option<u64>,
    /// Threads each search ran on (`run --search-threads`); files written before the column
    /// existed read as 1. The counts do not depend on it.
    #[serde(default = "one")]
    pub search_threads: u32,
    /// Outside solvers: user + system CPU seconds of the process (`seconds` is its wall time).
    #[serde(default)]
    pub cpu_seconds: Option<f64>,
    /// Outside solvers: peak resident memory of the process (group), in bytes.
    #[serde(default)]
    pub peak_rss_bytes: Option<u64>,
    /// Outside solvers: the exit code, when the process exited by itself.
    #[serde(default)]
    pub exit_code: Option<i32>,
    /// Outside solvers: the signal that ended the process, when one did (not tilebench's kill
    /// at a limit).
    #[serde(default)]
    pub signal: Option<i32>,
    /// Why the status is what it is, in a sentence: for an outside solver any status but
    /// `solved`, for a built-in search a `wrong-length` or `error` row.
    #[serde(default)]
    pub detail: String,
    /// Sessions after the first that this pair's search continued from a checkpoint (its
    /// seconds and counts are those of the whole search); absent in older files, read as 0.
    #[serde(default)]
    pub resumes: u32,
}

fn one() -> u32 {
    1
}

/// A count column that every file has (so a missing column is an error, as it was when the
/// counts were plain numbers: serde would otherwise read a missing `Option` as empty), whose
/// field may be empty (unknown).
fn required_count<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<u64>, D::Error> {
    Option::<u64>::deserialize(d)
}

/// Names reach file names, SVG, LaTeX and terminals: no control characters in them.
fn check_names(set: &str, id: &str, heuristic: &str) -> Result<(), String> {
    for (column, value) in [
        ("instance_set", set),
        ("instance_id", id),
        ("heuristic", heuristic),
    ] {
        if let Some(why) = control_character(value) {
            return Err(format!("column '{column}': {why}"));
        }
    }
    Ok(())
}

/// `control character U+0007 in '…'`, when `value` holds one.
pub(crate) fn control_character(value: &str) -> Option<String> {
    let c = value.chars().find(|c| c.is_control())?;
    let shown = value.escape_debug();
    Some(format!("control character U+{:04X} in '{shown}'", c as u32))
}

/// A measured figure that must be a finite number ≥ 0.
fn check_figure(column: &str, value: f64) -> Result<(), String> {
    if value.is_nan() {
        Err(format!("column '{column}': {value} is not a number"))
    } else if value.is_infinite() {
        Err(format!("column '{column}': {value} is infinite"))
    } else if value < 0.0 {
        Err(format!("column '{column}': {value} is negative"))
    } else {
        Ok(())
    }
}

/// The loud line of a failed run, its status in capitals: `WRONG LENGTH {who}: {why}`.
pub(crate) fn problem(status: RunStatus, who: impl fmt::Display, why: impl fmt::Display) -> String {
    let status = status.as_str().to_uppercase().replace('-', " ");
    format!("{status} {who}: {why}")
}

impl RunRecord {
    pub fn key(&self) -> RunKey {
        RunKey::of(&self.instance_set, &self.instance_id, self.method())
    }

    pub fn method(&self) -> Method {
        Method::of_columns(self.algorithm.0, &self.heuristic)
    }

    /// See [`Method::label`].
    pub fn label(&self) -> String {
        self.method().label()
    }

    /// The line that names this row among a run's problems, when its status is a failure
    /// (`wrong-length`, `error`, an outside solver's wrong answer or crash); a row written
    /// before built-in searches kept their `detail` says what it can.
    pub fn problem(&self) -> Option<String> {
        if !self.status.is_failure() {
            return None;
        }
        let why = match (self.status, self.detail.as_str()) {
            (_, d) if !d.is_empty() => d.to_string(),
            (RunStatus::WrongLength, _) => format!(
                "{} moves, but the optimal length is {}",
                self.length.map_or("no".to_string(), |l| l.to_string()),
                self.optimal_length
                    .map_or("not recorded".to_string(), |o| o.to_string())
            ),
            (status, _) => format!("{status} (no detail recorded)"),
        };
        Some(problem(self.status, self.key(), why))
    }

    /// A row of run `key` with every figure at its default: the three columns of its method
    /// filled in (see [`Method`]).
    pub fn of(key: &RunKey) -> RunRecord {
        RunRecord {
            instance_set: key.instance_set.clone(),
            instance_id: key.instance_id.clone(),
            solver: match &key.method {
                Method::Builtin { .. } => SolverName::default(),
                Method::Outside { solver } => SolverName::outside(solver),
            },
            algorithm: AlgorithmColumn(key.method.algorithm()),
            heuristic: key.method.series().to_string(),
            ..RunRecord::default()
        }
    }

    /// The optimal length of the run's instance: the known one, else the length found when
    /// solved (every algorithm here is optimal, and `verified` checks it when one is known).
    pub(crate) fn known_length(&self) -> Option<u32> {
        self.optimal_length
            .or(self.length.filter(|_| self.status == RunStatus::Solved))
    }

    /// What is wrong with the row on its own (a figure that no run can have), if anything.
    pub fn check(&self) -> Result<(), String> {
        check_names(&self.instance_set, &self.instance_id, &self.heuristic)?;
        check_figure("seconds", self.seconds)?;
        for (column, v) in [
            ("nodes_per_second", self.nodes_per_second),
            ("growth_ratio", self.growth_ratio),
            ("overhead_measured", self.overhead_measured),
            ("overhead_predicted", self.overhead_predicted),
            ("cpu_seconds", self.cpu_seconds),
        ] {
            if let Some(v) = v {
                check_figure(column, v)?;
            }
        }
        Ok(())
    }
}

/// One IDA* iteration of one run: a row of `iterations.csv`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct IterationRecord {
    pub instance_set: String,
    pub instance_id: String,
    /// `ida` in files from before the column; A* and breadth-first search write one row.
    #[serde(default)]
    pub algorithm: AlgorithmColumn,
    /// As in [`RunRecord::heuristic`].
    pub heuristic: String,
    /// 1-based.
    pub iteration: u32,
    pub bound: u32,
    pub expanded: u64,
    pub generated: u64,
    pub seconds: f64,
}

impl IterationRecord {
    /// The rows of run `key`'s iterations, numbered from 1.
    pub fn rows(key: &RunKey, iterations: &[Iteration]) -> Vec<IterationRecord> {
        iterations
            .iter()
            .enumerate()
            .map(|(i, it)| IterationRecord {
                instance_set: key.instance_set.clone(),
                instance_id: key.instance_id.clone(),
                algorithm: AlgorithmColumn(key.method.algorithm()),
                heuristic: key.method.series().to_string(),
                iteration: i as u32 + 1,
                bound: it.bound,
                expanded: it.expanded,
                generated: it.generated,
                seconds: it.seconds,
            })
            .collect()
    }

    /// The run this iteration belongs to.
    pub fn key(&self) -> RunKey {
        RunKey::of(
            &self.instance_set,
            &self.instance_id,
            Method::of_columns(self.algorithm.0, &self.heuristic),
        )
    }

    /// See [`Method::label`].
    pub fn label(&self) -> String {
        self.key().label()
    }

    /// What is wrong with the row on its own, if anything.
    pub fn check(&self) -> Result<(), String> {
        check_names(&self.instance_set, &self.instance_id, &self.heuristic)?;
        if self.iteration == 0 {
            return Err("column 'iteration': iterations are numbered from 1".into());
        }
        check_figure("seconds", self.seconds)
    }
}

/// Iterative-deepening growth and overhead of one run, from generated nodes per iteration.
///
/// Let N_1 … N_k be the generated nodes of the k iterations. The last one stops at the first
/// solution (or at a limit), so it is incomplete and left out: only the k − 1 *completed*
/// iterations are used.
/// - r = N_{k−1} / N_{k−2}, the growth between the last two completed iterations (needs at least
///   two completed iterations). Not the geometric mean from the first iteration: the first
///   iterations generate a handful of nodes and grow faster, which inflates r and makes the
///   predicted overhead too low (on `results/korf100` the median |predicted − measured| is 0.03
///   with the geometric mean, 0.002 with the last two iterations);
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
        let ratio = (k >= 2 && completed[k - 2] > 0.0).then(|| completed[k - 1] / completed[k - 2]);
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

    /// A built-in method's label reads back as that method, so that a solver can be set
    /// beside any series the results hold (`--solver NAME:LABEL=…`).
    #[test]
    fn labels_read_back_as_their_methods() {
        for m in [
            Method::ida("manhattan"),
            Method::ida("max(walking-distance,pdb-663r)"),
            Method::builtin(Algorithm::Astar, "pdb:1.2.3/4.5.6"),
            Method::builtin(Algorithm::Bfs, ""),
            Method::builtin(Algorithm::Astar, ""),
        ] {
            assert_eq!(Method::from_label(&m.label()), m, "{}", m.label());
        }
        assert_eq!(
            Method::from_label("ida+manhattan"),
            Method::ida("manhattan")
        );
        assert_eq!(
            Method::from_label("A*+linear-conflict"),
            Method::builtin(Algorithm::Astar, "linear-conflict")
        );
        assert_eq!(
            Method::from_label("bfs+manhattan"),
            Method::builtin(Algorithm::Bfs, "manhattan")
        );
    }

    #[test]
    fn growth_on_a_hand_computed_example() {
        // Completed: 2, 40, 160 (the final 300 is cut short by the solution).
        // r = 160/40 = 4 (the geometric mean from the first would be (160/2)^(1/2) ≈ 8.94);
        // measured = 202/160 = 1.2625; predicted = 4/3.
        let g = Growth::of(&its(&[2, 40, 160, 300]));
        assert!((g.ratio.unwrap() - 4.0).abs() < 1e-12);
        assert!((g.overhead_measured.unwrap() - 1.2625).abs() < 1e-12);
        assert!((g.overhead_predicted.unwrap() - 4.0 / 3.0).abs() < 1e-12);
    }

    /// Korf #1 with Manhattan distance, its nine iterations as in `results/korf100/iterations.csv`:
    /// r = 97,657,441 / 16,555,422, and r/(r−1) within 0.01 of the measured overhead.
    #[test]
    fn growth_on_korf_1_real_iterations() {
        let nodes = [
            212,
            1_494,
            10_832,
            72_600,
            451_935,
            2_757_821,
            16_555_422,
            97_657_441,
            158_854_175,
        ];
        let g = Growth::of(&its(&nodes));
        let r = 97_657_441.0 / 16_555_422.0;
        assert!((g.ratio.unwrap() - r).abs() < 1e-12);
        let measured: f64 = nodes[..8].iter().map(|&n| n as f64).sum::<f64>() / 97_657_441.0;
        assert!((g.overhead_measured.unwrap() - measured).abs() < 1e-12);
        assert!((g.overhead_predicted.unwrap() - r / (r - 1.0)).abs() < 1e-12);
        assert!((g.overhead_predicted.unwrap() - measured).abs() < 0.01);
    }

    #[test]
    fn growth_needs_two_completed_iterations() {
        let g = Growth::of(&its(&[10, 40]));
        assert_eq!(g.ratio, None);
        assert_eq!(g.overhead_predicted, None);
        assert_eq!(g.overhead_measured, Some(1.0));
        assert_eq!(Growth::of(&its(&[7])).overhead_measured, None);
    }

    /// Every status writes and reads back as its kebab-case name, and `as_str` agrees with serde.
    #[test]
    fn statuses_round_trip_in_kebab_case() {
        for &s in RunStatus::ALL {
            let json = serde_json::to_string(&s).unwrap();
            assert_eq!(json, format!("\"{}\"", s.as_str()));
            assert_eq!(s.as_str().parse::<RunStatus>(), Ok(s));
        }
        assert_eq!(RunStatus::TimeLimit.as_str(), "time-limit");
        assert!("cancelled".parse::<RunStatus>().is_err());
        assert!(RunStatus::Solved.is_deterministic() && !RunStatus::TimeLimit.is_deterministic());
    }

    #[test]
    fn the_key_names_the_run() {
        let r = RunRecord {
            instance_set: "korf100".into(),
            instance_id: "7".into(),
            heuristic: "pdb-663".into(),
            ..RunRecord::default()
        };
        assert_eq!(r.key().to_string(), "korf100 #7 pdb-663");
        assert_eq!(r.status, RunStatus::Error);
    }
}
