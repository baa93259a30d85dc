//! The results model: what a results directory holds, typed, with one reader and one writer.
//!
//! - [`record`]: the rows ([`RunRecord`], [`IterationRecord`]), [`RunStatus`], [`RunKey`];
//! - [`rejudge`]: outside solvers' answers judged again against the lengths the rows know;
//! - [`meta`]: `meta.json` as [`Meta`], with its schema version;
//! - [`spec`]: `experiment.json` of a sharded directory;
//! - [`history`]: `history.csv`, the headline figures of each run over commits;
//! - [`atomic`]: the one safe file writer and the one file-name component of a user string;
//! - [`io`]: the one CSV reader (strict, or tolerant of a torn last line) and writer, and the one
//!   atomic write.
//!
//! Everything that reads results (plots, reports, compare, history, collect, resume) goes
//! through these types, so a column or a status is added in one place. The file formats are
//! described in `docs/formats.md`.

pub mod atomic;
pub mod history;
pub mod io;
pub mod meta;
pub mod record;
pub mod rejudge;
pub mod spec;

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use thiserror::Error;

pub use io::{CsvError, ReadMode};
pub use meta::{Meta, MetaError, RunState};
pub use record::{
    AlgorithmColumn, Growth, IterationRecord, Method, RunKey, RunRecord, RunStatus, SolverName,
    BUILTIN_SOLVER,
};
pub use spec::ExperimentSpec;

/// File names inside a results directory.
pub const RUNS_FILE: &str = "runs.csv";
pub const ITERATIONS_FILE: &str = "iterations.csv";
pub const META_FILE: &str = "meta.json";
/// The folder holding one folder per shard.
pub const SHARDS_DIR: &str = "shards";
/// The experiment of a sharded results directory.
pub const EXPERIMENT_FILE: &str = "experiment.json";

/// Why a results directory could not be read.
#[derive(Debug, Error)]
pub enum ResultsError {
    #[error("{path}: no such file (a results directory holds {RUNS_FILE}, {ITERATIONS_FILE} and {META_FILE})", path = .0.display())]
    MissingFile(PathBuf),
    #[error("{path}: no rows (only a header, or empty)", path = .0.display())]
    NoRows(PathBuf),
    #[error(transparent)]
    Csv(CsvError),
    #[error(transparent)]
    Meta(#[from] MetaError),
    #[error(
        "{other}: run {key} is also in {dir}: results set beside each other must be of other \
         runs (another heuristic, algorithm or instance set){pruning}",
        other = .other.display(), dir = .dir.display()
    )]
    Overlap {
        dir: PathBuf,
        other: PathBuf,
        key: String,
        /// What to do when the two differ only in `--pruning` (not part of a run's name).
        pruning: String,
    },
}

impl From<CsvError> for ResultsError {
    fn from(e: CsvError) -> Self {
        match e {
            CsvError::Missing(path) => ResultsError::MissingFile(path),
            e => ResultsError::Csv(e),
        }
    }
}

/// The contents of one results directory.
#[derive(Debug, Clone)]
pub struct Results {
    pub dir: PathBuf,
    pub runs: Vec<RunRecord>,
    pub iterations: Vec<IterationRecord>,
    /// `None` when the directory has no `meta.json`.
    pub meta: Option<Meta>,
}

impl Results {
    /// Reads `runs.csv` (at least one row), `iterations.csv` (may have no rows: unsolvable
    /// instances have no iterations) and `meta.json` (optional), strictly.
    pub fn load(dir: &Path) -> Result<Results, ResultsError> {
        let runs_path = dir.join(RUNS_FILE);
        if std::fs::read(&runs_path)
            .is_ok_and(|b| !b.is_empty() && b.iter().all(u8::is_ascii_whitespace))
        {
            return Err(ResultsError::NoRows(runs_path));
        }
        let runs = read_runs(&runs_path, ReadMode::Strict)?;
        if runs.is_empty() {
            return Err(ResultsError::NoRows(runs_path));
        }
        let iterations_path = dir.join(ITERATIONS_FILE);
        let iterations = read_iterations(&iterations_path, ReadMode::Strict)?;
        check_iterations(&runs_path, &runs, &iterations_path, &iterations)?;
        let meta_path = dir.join(META_FILE);
        let meta = if meta_path.exists() {
            Some(Meta::read(&meta_path)?)
        } else {
            None
        };
        // A row longer than a solution the experiment found is never `solved` (a directory an
        // interrupted run left, or an older tilebench wrote, may hold one).
        let (lines, mut records): (Vec<u64>, Vec<RunRecord>) = runs.into_iter().unzip();
        rejudge::rejudge_lengths(&mut records);
        let runs: Vec<(u64, RunRecord)> = lines.into_iter().zip(records).collect();
        check_solutions(&runs_path, &runs, meta.as_ref())?;
        let mut runs: Vec<RunRecord> = runs.into_iter().map(|(_, r)| r).collect();
        let iterations: Vec<IterationRecord> = iterations.into_iter().map(|(_, i)| i).collect();
        refigure_growth(&mut runs, &iterations);
        Ok(Results {
            dir: dir.to_path_buf(),
            runs,
            iterations,
            meta,
        })
    }

    /// Adds the runs of `other` (another results directory, read alike) after these, so that a
    /// report sets them beside each other: another heuristic run separately on the same
    /// instances. A run in both is refused (which of the two would the report show?).
    pub(crate) fn add_beside(&mut self, other: Results) -> Result<(), ResultsError> {
        let keys: HashSet<RunKey> = self.runs.iter().map(RunRecord::key).collect();
        if let Some(r) = other.runs.iter().find(|r| keys.contains(&r.key())) {
            let pruning = |r: &Results| r.meta.as_ref().map(|m| m.experiment.pruning);
            let pruning = match (pruning(self), pruning(&other)) {
                (Some(a), Some(b)) if a != b => format!(
                    "; these differ in `--pruning` ({a} and {b}), which is not part of a run's \
                     name: report each directory on its own"
                ),
                _ => String::new(),
            };
            return Err(ResultsError::Overlap {
                dir: self.dir.clone(),
                other: other.dir.clone(),
                key: format!("{} #{} by {}", r.instance_set, r.instance_id, r.label()),
                pruning,
            });
        }
        self.runs.extend(other.runs);
        self.iterations.extend(other.iterations);
        Ok(())
    }

    /// Instance-set names in order of first appearance in `runs.csv`.
    pub fn instance_sets(&self) -> Vec<String> {
        first_appearance(self.runs.iter().map(|r| r.instance_set.as_str()))
    }

    /// Heuristic names in order of first appearance in `runs.csv` (the runner's order).
    pub fn heuristics(&self) -> Vec<String> {
        first_appearance(
            self.runs
                .iter()
                .map(|r| r.heuristic.as_str())
                .filter(|h| !h.is_empty()),
        )
    }

    /// The methods (see [`Method::label`]: the heuristic for IDA*, `astar+H`, `bfs`) in order of
    /// first appearance: what reports, plots and `compare` group runs by.
    pub fn methods(&self) -> Vec<String> {
        let labels: Vec<String> = self.runs.iter().map(RunRecord::label).collect();
        first_appearance(labels.iter().map(String::as_str))
    }

    /// The board size of an instance set, from `meta.json` (none without it).
    pub(crate) fn board_size(&self, set: &str) -> Option<crate::geometry::Size> {
        (self.meta.iter())
            .flat_map(|m| &m.instance_sets)
            .find(|s| s.name == set)
            .and_then(|s| crate::geometry::Size::parse(&s.size).ok())
    }

    /// The board sizes of the runs, smallest first (none without `meta.json`): figures over
    /// several sizes are drawn one size at a time, since a length means another depth on each.
    pub(crate) fn board_sizes(&self) -> Vec<crate::geometry::Size> {
        let sizes: std::collections::BTreeSet<_> = (self.instance_sets().iter())
            .filter_map(|s| self.board_size(s))
            .collect();
        sizes.into_iter().collect()
    }

    /// Whether the built-in search ran with an algorithm other than IDA* (A*, breadth-first):
    /// then reports and plots set the algorithms side by side (the optimization path).
    pub(crate) fn compares_algorithms(&self) -> bool {
        self.runs.iter().any(|r| {
            matches!(
                r.algorithm.0,
                Some(crate::search::Algorithm::Astar | crate::search::Algorithm::Bfs)
            )
        })
    }
}

/// The rows of a CSV file without their line numbers.
pub fn rows<T: io::Row>(path: &Path, mode: ReadMode) -> Result<Vec<T>, CsvError> {
    Ok(io::read_rows(path, mode)?
        .into_iter()
        .map(|(_, r)| r)
        .collect())
}

/// The rows of a `runs.csv`, each checked ([`RunRecord::check`]), and no run twice: the one
/// reader of run rows, for reports, plots, comparisons and resuming alike.
pub fn read_runs(path: &Path, mode: ReadMode) -> Result<Vec<(u64, RunRecord)>, CsvError> {
    let runs = io::read_rows(path, mode)?;
    check_rows(path, &runs, RunRecord::check)?;
    check_unique(path, &runs)?;
    Ok(runs)
}

/// The rows of an `iterations.csv`, each checked ([`IterationRecord::check`]).
pub fn read_iterations(
    path: &Path,
    mode: ReadMode,
) -> Result<Vec<(u64, IterationRecord)>, CsvError> {
    let iterations = io::read_rows(path, mode)?;
    check_rows(path, &iterations, IterationRecord::check)?;
    Ok(iterations)
}

fn check_rows<T>(
    path: &Path,
    rows: &[(u64, T)],
    check: impl Fn(&T) -> Result<(), String>,
) -> Result<(), CsvError> {
    for (line, row) in rows {
        check(row).map_err(|message| CsvError::BadValue {
            path: path.to_path_buf(),
            line: *line,
            message,
        })?;
    }
    Ok(())
}

/// Refuses a run that appears twice (which of the two rows would count?).
pub(crate) fn check_unique(path: &Path, runs: &[(u64, RunRecord)]) -> Result<(), CsvError> {
    let mut first: HashMap<RunKey, u64> = HashMap::new();
    for (line, r) in runs {
        if let Some(f) = first.insert(r.key(), *line) {
            return Err(CsvError::BadValue {
                path: path.to_path_buf(),
                line: *line,
                message: format!("run {} appears twice (first on line {f})", r.key()),
            });
        }
    }
    Ok(())
}

/// Checks every stored solution of a `solved` row: its moves are the letters U, D, L, R, as many
/// as its `length`; a built-in search's `h0` (an admissible heuristic's value) is at most that
/// length; two searches that prove their lengths optimal give the same length; and, where the instance file recorded in `meta` still holds the same boards (same
/// content hash), the moves replayed from the instance reach the goal. Replaying is cheap (a few
/// hundred moves per row); a results directory copied away from its instance files gets every
/// check but the replay.
pub(crate) fn check_solutions(
    runs_path: &Path,
    runs: &[(u64, RunRecord)],
    meta: Option<&Meta>,
) -> Result<(), CsvError> {
    let bad = |line: u64, message: String| CsvError::BadValue {
        path: runs_path.to_path_buf(),
        line,
        message,
    };
    // The boards of each set whose instance file still matches what the run read.
    let mut boards: HashMap<String, crate::instances::InstanceSet> = HashMap::new();
    for info in meta.map(|m| m.instance_sets.as_slice()).unwrap_or_default() {
        let Ok(set) = crate::instances::InstanceSet::read_selection(&info.path) else {
            continue;
        };
        if info.content_hash.as_deref() == Some(set.content_hash().as_str()) {
            boards.insert(info.name.clone(), set);
        }
    }
    // (set, instance) → the line and length of its first solution that is proven optimal.
    let mut optimal: HashMap<(&str, &str), (u64, usize)> = HashMap::new();
    for (line, r) in runs {
        if r.status != RunStatus::Solved || r.moves.is_empty() {
            continue;
        }
        let moves = crate::moves::parse_path(&r.moves)
            .map_err(|e| bad(*line, format!("run {}: column 'moves': {e}", r.key())))?;
        if r.length != Some(moves.len() as u32) {
            return Err(bad(
                *line,
                format!(
                    "run {}: length {} but {} moves",
                    r.key(),
                    r.length.map_or("empty".to_string(), |l| l.to_string()),
                    moves.len()
                ),
            ));
        }
        if let Some(h0) = r.h0.filter(|_| r.solver.is_builtin() && admissible(r)) {
            if h0 as usize > moves.len() {
                return Err(bad(
                    *line,
                    format!(
                        "run {}: h0 {h0} is above the solution length {} (the heuristic is \
                         admissible, so h0 never exceeds it)",
                        r.key(),
                        moves.len()
                    ),
                ));
            }
        }
        // Two searches that both prove their length optimal must agree on it.
        if proves_optimal(r) {
            let key = (r.instance_set.as_str(), r.instance_id.as_str());
            match optimal.get(&key) {
                Some(&(first_line, first)) if first != moves.len() => {
                    return Err(bad(
                        *line,
                        format!(
                            "run {}: length {} but line {first_line} solved the same instance \
                             in {first} moves; both searches are optimal (bfs, or an admissible \
                             heuristic), so one of them is wrong",
                            r.key(),
                            moves.len()
                        ),
                    ));
                }
                Some(_) => {}
                None => {
                    optimal.insert(key, (*line, moves.len()));
                }
            }
        }
        let Some(set) = boards.get(&r.instance_set) else {
            continue;
        };
        let Some(instance) = set.instances.iter().find(|i| i.id == r.instance_id) else {
            return Err(bad(
                *line,
                format!(
                    "run {}: no instance '{}' in {}",
                    r.key(),
                    r.instance_id,
                    set.path.display()
                ),
            ));
        };
        if !instance.board.replays_to(&moves, &set.goal) {
            return Err(bad(
                *line,
                format!(
                    "run {}: its moves do not lead from instance '{}' of {} to the goal",
                    r.key(),
                    r.instance_id,
                    set.path.display()
                ),
            ));
        }
    }
    Ok(())
}

/// Whether `r`'s heuristic is one known here to be admissible: a registered one may not be
/// (docs/writing-a-heuristic.md), and a binary without it cannot tell.
fn admissible(r: &RunRecord) -> bool {
    (r.heuristic.parse::<crate::heuristic::HeuristicName>()).is_ok_and(|h| h.admissible())
}

/// Whether `r`'s length is proven optimal by the search itself: a built-in bfs (no heuristic) or
/// a built-in search with an admissible heuristic. An outside solver's is its own claim.
pub(crate) fn proves_optimal(r: &RunRecord) -> bool {
    r.solver.is_builtin() && (r.heuristic.is_empty() || admissible(r))
}

/// Checks that the iteration rows belong to the runs: each to a run of `runs.csv`, numbered 1, 2,
/// … without gaps, as many as the run's `iterations`, and summing to its expanded and generated
/// nodes. A run without iteration rows is not checked (an unsolvable instance has none). An
/// outside solver's totals and iterations are both its own claims (it may report a total that
/// its iterations do not add up to): only their numbering and number are checked.
pub(crate) fn check_iterations(
    runs_path: &Path,
    runs: &[(u64, RunRecord)],
    iterations_path: &Path,
    iterations: &[(u64, IterationRecord)],
) -> Result<(), CsvError> {
    let bad = |line: u64, message: String| CsvError::BadValue {
        path: iterations_path.to_path_buf(),
        line,
        message,
    };
    let by_key: HashMap<RunKey, &(u64, RunRecord)> = runs.iter().map(|r| (r.1.key(), r)).collect();
    // (first line, rows, expanded, generated) per run.
    let mut sums: HashMap<RunKey, (u64, u32, u64, u64)> = HashMap::new();
    for (line, it) in iterations {
        let key = it.key();
        if !by_key.contains_key(&key) {
            return Err(bad(
                *line,
                format!("run {key} is not in {}", runs_path.display()),
            ));
        }
        let s = sums.entry(key.clone()).or_insert((*line, 0, 0, 0));
        s.1 += 1;
        if it.iteration != s.1 {
            return Err(bad(
                *line,
                format!(
                    "run {key}: iteration {} where {} was expected (numbered 1, 2, … in order)",
                    it.iteration, s.1
                ),
            ));
        }
        s.2 = s.2.saturating_add(it.expanded);
        s.3 = s.3.saturating_add(it.generated);
    }
    for (key, (first, count, expanded, generated)) in sums {
        let (run_line, run) = by_key[&key];
        let says = |what: &str, sum: u64, row: Option<u64>| {
            let row = row.map_or("nothing (empty)".to_string(), |r| r.to_string());
            bad(
                first,
                format!(
                    "run {key}: its iterations sum to {sum} {what}, {} line {run_line} says {row}",
                    runs_path.display()
                ),
            )
        };
        if count != run.iterations {
            return Err(says(
                "iterations",
                count.into(),
                Some(run.iterations.into()),
            ));
        }
        if !run.solver.is_builtin() {
            continue;
        }
        if Some(expanded) != run.expanded {
            return Err(says("expanded", expanded, run.expanded));
        }
        if Some(generated) != run.generated {
            return Err(says("generated", generated, run.generated));
        }
    }
    Ok(())
}

/// Sets every run's r and overheads from its rows of `iterations.csv` by [`Growth::of`], so that
/// files written while r was still the geometric mean from the first iteration report the r of
/// the last two completed iterations without being rewritten. Runs without iteration rows keep
/// their stored figures.
pub(crate) fn refigure_growth(runs: &mut [RunRecord], iterations: &[IterationRecord]) {
    let mut by_key: HashMap<RunKey, Vec<crate::search::Iteration>> = HashMap::new();
    for i in iterations {
        by_key
            .entry(i.key())
            .or_default()
            .push(crate::search::Iteration {
                bound: i.bound,
                expanded: i.expanded,
                generated: i.generated,
                seconds: i.seconds,
            });
    }
    for run in runs {
        if let Some(its) = by_key.get(&run.key()) {
            let g = Growth::of(its);
            run.growth_ratio = g.ratio;
            run.overhead_measured = g.overhead_measured;
            run.overhead_predicted = g.overhead_predicted;
        }
    }
}

fn first_appearance<'a>(names: impl Iterator<Item = &'a str>) -> Vec<String> {
    let mut seen = HashSet::new();
    names
        .filter(|n| seen.insert(*n))
        .map(str::to_string)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    /// An empty temporary directory, removed on drop.
    fn temp_dir() -> tempfile::TempDir {
        tempfile::tempdir().unwrap()
    }

    fn run(id: &str, generated: u64) -> RunRecord {
        RunRecord {
            instance_set: "s".into(),
            instance_id: id.into(),
            heuristic: "manhattan".into(),
            status: RunStatus::Solved,
            expanded: Some(0),
            generated: Some(generated),
            ..RunRecord::default()
        }
    }

    #[test]
    fn iteration_sums_bind_the_builtin_search_not_outside_solvers() {
        let it = |heuristic: &str, iteration, generated| IterationRecord {
            instance_set: "s".into(),
            instance_id: "1".into(),
            heuristic: heuristic.into(),
            iteration,
            generated,
            ..IterationRecord::default()
        };
        // Totals 10, iterations 3 + 4: refused for the built-in search.
        let builtin = RunRecord {
            iterations: 2,
            ..run("1", 10)
        };
        let its = [(2, it("manhattan", 1, 3)), (3, it("manhattan", 2, 4))];
        let p = Path::new("runs.csv");
        let ip = Path::new("iterations.csv");
        let e = check_iterations(p, &[(2, builtin.clone())], ip, &its).unwrap_err();
        assert!(e.to_string().contains("sum to 7 generated"), "{e}");
        // The same claims from an outside solver are its own: kept, with 0-second iterations.
        let outside = RunRecord {
            heuristic: "mine".into(),
            solver: SolverName::outside("mine"),
            ..builtin
        };
        let its = [(2, it("mine", 1, 3)), (3, it("mine", 2, 4))];
        check_iterations(p, &[(2, outside.clone())], ip, &its).unwrap();
        // Their numbering and number still are checked.
        let e = check_iterations(p, &[(2, outside)], ip, &its[..1]).unwrap_err();
        assert!(e.to_string().contains("sum to 1 iterations"), "{e}");
    }

    /// Two searches that prove their lengths optimal (an admissible heuristic, bfs) must agree;
    /// an inadmissible or unknown heuristic and an outside solver are not held to it.
    #[test]
    fn optimal_lengths_agree_across_methods() {
        let solved = |heuristic: &str, moves: &str| RunRecord {
            heuristic: heuristic.into(),
            length: Some(moves.len() as u32),
            moves: moves.into(),
            ..run("1", 10)
        };
        let p = Path::new("runs.csv");
        let check = |rows: Vec<RunRecord>| {
            let rows: Vec<(u64, RunRecord)> = (2..).zip(rows).collect();
            check_solutions(p, &rows, None)
        };
        check(vec![solved("manhattan", "LL"), solved("", "RR")]).unwrap();
        let e = check(vec![solved("manhattan", "LL"), solved("", "LLRR")]).unwrap_err();
        assert!(
            e.to_string()
                .contains("length 4 but line 2 solved the same instance in 2"),
            "{e}"
        );
        // Not proven optimal: an unknown heuristic, an outside solver.
        check(vec![solved("manhattan", "LL"), solved("mine", "LLRR")]).unwrap();
        let outside = RunRecord {
            solver: SolverName::outside("py"),
            ..solved("manhattan", "LLRR")
        };
        check(vec![solved("manhattan", "LL"), outside]).unwrap();
    }

    /// On the committed Korf 100 results, r/(r−1) from the last two completed iterations is
    /// within 0.01 of the measured overhead for the median run (the stored geometric-mean r of
    /// those files gave 0.03).
    #[test]
    fn predicted_overhead_matches_measured_on_korf100() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("results/korf100");
        let r = Results::load(&dir).unwrap();
        let mut gaps: Vec<f64> = r
            .runs
            .iter()
            .filter_map(|r| Some((r.overhead_predicted? - r.overhead_measured?).abs()))
            .collect();
        assert!(gaps.len() > 500, "{} runs with both overheads", gaps.len());
        gaps.sort_by(f64::total_cmp);
        let median = gaps[gaps.len() / 2];
        assert!(median <= 0.01, "median |predicted − measured| = {median}");
    }

    /// A directory holding a search longer than another's on the same board (an interrupted
    /// session never judged them, or an older tilebench wrote it) is read with the longer row
    /// `wrong-length`, not refused as two optimal searches that disagree.
    #[test]
    fn a_longer_solution_than_anothers_is_read_as_wrong_length() {
        use crate::search::Algorithm;
        let tmp = temp_dir();
        let dir = tmp.path();
        let solved = |algorithm: Algorithm, heuristic: &str, moves: &str| RunRecord {
            algorithm: algorithm.into(),
            heuristic: heuristic.into(),
            length: Some(moves.len() as u32),
            moves: moves.into(),
            verified: true,
            ..run("1", 10)
        };
        let rows = [
            solved(Algorithm::Ida, "manhattan", "LLRR"),
            solved(Algorithm::Bfs, "", "LL"),
        ];
        io::write_rows(&dir.join(RUNS_FILE), &rows).unwrap();
        io::write_rows::<IterationRecord>(&dir.join(ITERATIONS_FILE), &[]).unwrap();
        let r = Results::load(dir).unwrap();
        assert_eq!(r.runs[0].status, RunStatus::WrongLength);
        assert_eq!(
            r.runs[0].detail,
            "4 moves, but the optimal length is at most 2 (found by bfs in this experiment); \
             heuristic manhattan is not admissible"
        );
        assert_eq!(r.runs[1].status, RunStatus::Solved);
    }

    #[test]
    fn round_trips_and_keeps_order() {
        let tmp = temp_dir();
        let dir = tmp.path();
        io::write_rows(&dir.join(RUNS_FILE), &[run("1", 5), run("2", 7)]).unwrap();
        io::write_rows::<IterationRecord>(&dir.join(ITERATIONS_FILE), &[]).unwrap();
        let r = Results::load(dir).unwrap();
        assert_eq!(r.runs.len(), 2);
        assert_eq!(r.runs[1].generated, Some(7));
        assert!(r.iterations.is_empty());
        assert!(r.meta.is_none());
        assert_eq!(r.heuristics(), vec!["manhattan"]);
    }

    #[test]
    fn missing_column_is_named() {
        let tmp = temp_dir();
        let dir = tmp.path();
        io::write_rows(&dir.join(RUNS_FILE), &[run("1", 5)]).unwrap();
        let text = fs::read_to_string(dir.join(RUNS_FILE)).unwrap();
        // Drop the `generated` column from every line.
        let at = io::columns::<RunRecord>()
            .iter()
            .position(|c| c == "generated")
            .unwrap();
        let cut: Vec<String> = text
            .lines()
            .map(|l| {
                let mut f: Vec<&str> = l.split(',').collect();
                f.remove(at);
                f.join(",")
            })
            .collect();
        fs::write(dir.join(RUNS_FILE), cut.join("\n") + "\n").unwrap();
        let e = Results::load(dir).unwrap_err();
        assert!(
            matches!(&e, ResultsError::Csv(CsvError::MissingColumn { column, .. }) if column == "generated"),
            "{e}"
        );
        assert!(e.to_string().contains("missing column 'generated'"));
    }

    #[test]
    fn no_rows_and_missing_files_and_bad_values() {
        let tmp = temp_dir();
        let dir = tmp.path();
        assert!(matches!(
            Results::load(dir),
            Err(ResultsError::MissingFile(p)) if p.ends_with(RUNS_FILE)
        ));
        io::write_rows::<RunRecord>(&dir.join(RUNS_FILE), &[]).unwrap();
        let e = Results::load(dir).unwrap_err();
        assert!(matches!(e, ResultsError::NoRows(_)), "{e}");

        io::write_rows(&dir.join(RUNS_FILE), &[run("1", 5)]).unwrap();
        let text = fs::read_to_string(dir.join(RUNS_FILE)).unwrap();
        fs::write(dir.join(RUNS_FILE), text.replace(",5,", ",five,")).unwrap();
        let e = Results::load(dir).unwrap_err();
        assert!(e.to_string().contains("line 2: column 'generated'"), "{e}");
    }

    /// Every committed results directory reads through the typed model: `meta.json` as [`Meta`]
    /// (schema 1 or current), `runs.csv` and `iterations.csv` strictly, with known statuses, and
    /// the iterations of each run summing to its counts.
    /// Two directories of one heuristic under two prunings (the 24-puzzle campaign's pdb-6666r
    /// rows with parent pruning, and with fsm) are refused beside each other, the message saying
    /// why; two of one pruning are refused without that word.
    #[test]
    fn runs_beside_each_other_that_differ_in_pruning_are_named_so() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("results");
        let load = |d: &str| Results::load(&root.join(d)).unwrap();
        let err = load("korf50-24").add_beside(load("korf50-24-fsm"));
        let err = err.unwrap_err().to_string();
        assert!(
            err.contains("is also in") && err.contains("differ in `--pruning` (parent and fsm)"),
            "{err}"
        );
        let err = load("korf50-24").add_beside(load("korf50-24"));
        let err = err.unwrap_err().to_string();
        assert!(
            err.contains("is also in") && !err.contains("pruning"),
            "{err}"
        );
    }

    #[test]
    fn every_committed_results_directory_reads() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("results");
        let mut seen = 0;
        for entry in fs::read_dir(&root).unwrap() {
            let dir = entry.unwrap().path();
            if !dir.join(RUNS_FILE).exists() {
                continue;
            }
            let r = Results::load(&dir).unwrap_or_else(|e| panic!("{e}"));
            let meta = r
                .meta
                .as_ref()
                .unwrap_or_else(|| panic!("{}: no meta", dir.display()));
            // Complete, or deliberately a subset (`run --only-ids`, as korf50-24-max-fsm on the
            // instances pdb-6666r solved): never a session that was cut off.
            match meta.state {
                RunState::Complete => assert_eq!(meta.pairs, r.runs.len(), "{}", dir.display()),
                RunState::Incomplete => assert!(r.runs.len() < meta.pairs, "{}", dir.display()),
                state => panic!("{}: {state}", dir.display()),
            }
            let e = &meta.experiment;
            let series: Vec<String> = e
                .heuristics
                .iter()
                .cloned()
                .chain(e.solver_infos().into_iter().map(|s| s.name))
                .collect();
            assert_eq!(series, r.heuristics(), "{}", dir.display());
            let mut sums: std::collections::HashMap<RunKey, (u64, u64)> = Default::default();
            for i in &r.iterations {
                let s = sums.entry(i.key()).or_default();
                s.0 += i.generated;
                s.1 += i.expanded;
            }
            for run in &r.runs {
                assert!(RunStatus::ALL.contains(&run.status));
                let s = sums.get(&run.key()).copied().unwrap_or_default();
                assert_eq!(
                    (Some(s.0), Some(s.1)),
                    (run.generated, run.expanded),
                    "{}",
                    run.key()
                );
            }
            seen += 1;
        }
        assert!(
            seen >= 2,
            "found {seen} results directories under {}",
            root.display()
        );
        let history = history::load(&root.join(history::HISTORY_FILE)).unwrap();
        assert!(!history.is_empty());
    }
}
