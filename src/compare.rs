//! Comparing two results directories run by run, to tell commit by commit whether the search
//! still does the same work and whether it got slower.
//!
//! Runs are matched by (instance set, instance id, heuristic). For each matched pair:
//! - **node counts** (generated and expanded) are compared exactly whenever both runs ended the
//!   same deterministic way (`solved`, `unsolvable`, `node-limit`, `wrong-length`): any
//!   difference is a change in what the search does. Runs cut off by the clock are not compared,
//!   since where a time limit falls is noise;
//! - **status** changes are listed; solved → anything else is a *lost solution*;
//! - **lengths** are compared when both runs report one;
//! - **time** is compared per heuristic over the runs both sides solved, two ways:
//!   - per run: the geometric mean of the ratios new/base over the runs of which at least one
//!     side took `min_seconds` (default 0.05 s: when both are shorter, timer and start-up noise
//!     dominate; the report shows their ratios in parentheses). Judging by the longer side, not
//!     the base, matters: a base of 1 ms and a new side of 100 ms is a slowdown, not noise;
//!   - in total: Σ new seconds / Σ base seconds, judged when either total reaches `min_seconds`,
//!     so that many short runs that each escape the per-run rule still count;
//!   - each only with at least `min_runs` runs behind it (default 5): one or two runs of a
//!     fraction of a second swing by 20 % on a busy machine, and a verdict on them is noise.
//!
//! The verdict fails on any node-count change (unless node changes are allowed, for an intended
//! change of the search), a per-heuristic time ratio (per-run geometric mean, or total) above
//! `1 + threshold/100`, any length change, or a lost solution. Runs on one side only are listed
//! and never fail it; two directories with no run in common are an error, not a pass.
//!
//! Two results directories are never measured side by side (each `run` measures one build, at
//! its own time, perhaps on its own machine), so their time ratios carry the machine's drift
//! between the two runs: 10–30 % on a shared machine. The comparison says so, from the two
//! `meta.json` files ([`measurement_note`]); `tilebench regress` measures two builds
//! alternately in one session instead.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use thiserror::Error;

use crate::results::meta::{Meta, RunState};
use crate::results::spec::Difference;
pub use crate::results::RunKey;
use crate::results::{self, ReadMode, ITERATIONS_FILE};
use crate::results::{CsvError, RunRecord, RunStatus, META_FILE, RUNS_FILE};

/// Bad input to a comparison: a missing or malformed `runs.csv`.
#[derive(Debug, Error)]
pub enum CompareError {
    #[error(transparent)]
    Read(#[from] CsvError),
    #[error("{}: no rows (only a header)", .0.display())]
    NoRows(PathBuf),
    #[error(
        "no run of {} is in {} (runs match by instance set, instance id and method): nothing to \
         compare",
        base.display(),
        new.display()
    )]
    NothingMatched { base: PathBuf, new: PathBuf },
    #[error(transparent)]
    Meta(Box<results::MetaError>),
    #[error("invalid threshold {0}: give a percentage ≥ 0")]
    BadThreshold(f64),
    #[error("invalid minimum time {0}: give seconds ≥ 0")]
    BadMinSeconds(f64),
    #[error(
        "{}: a `tilebench regress` directory (rounds.csv, verdict.json), whose verdict is its own \
         comparison; compare reads the runs.csv of `tilebench run` directories",
        .0.display()
    )]
    RegressDir(PathBuf),
    #[error("{}: not a runs.csv; give a results directory or its runs.csv", .0.display())]
    NotRuns(PathBuf),
}

/// Reads the `runs.csv` of a results directory (or a `runs.csv` file given directly), with the
/// line of each record (the header is line 1), through the results reader's checks; the
/// `iterations.csv` beside it, when there is one, must agree with it.
pub(crate) fn load_runs(dir: &Path) -> Result<Vec<(u64, RunRecord)>, CompareError> {
    let path = if dir.is_dir() {
        if !dir.join(RUNS_FILE).exists() && dir.join(crate::regress::output::ROUNDS_FILE).exists() {
            return Err(CompareError::RegressDir(dir.to_path_buf()));
        }
        dir.join(RUNS_FILE)
    } else if dir.extension().is_some_and(|e| e != "csv") {
        return Err(CompareError::NotRuns(dir.to_path_buf()));
    } else {
        dir.to_path_buf()
    };
    let runs = results::read_runs(&path, ReadMode::Strict)?;
    if runs.is_empty() {
        return Err(CompareError::NoRows(path));
    }
    let iterations_path = path.with_file_name(ITERATIONS_FILE);
    if iterations_path.exists() {
        let iterations = results::read_iterations(&iterations_path, ReadMode::Strict)?;
        results::check_iterations(&path, &runs, &iterations_path, &iterations)?;
    }
    // Every stored solution replayed, as the report's reader does.
    let meta_path = path.with_file_name(results::META_FILE);
    let meta = meta_path
        .exists()
        .then(|| results::Meta::read(&meta_path))
        .transpose()
        .map_err(|e| CompareError::Meta(Box::new(e)))?;
    results::check_solutions(&path, &runs, meta.as_ref())?;
    Ok(runs)
}

/// Indexes runs by key, rejecting a key that appears twice (which run would be compared?).
fn index(
    path: &Path,
    runs: Vec<(u64, RunRecord)>,
) -> Result<BTreeMap<RunKey, RunRecord>, CompareError> {
    results::check_unique(path, &runs)?;
    Ok(runs.into_iter().map(|(_, r)| (r.key(), r)).collect())
}

/// Settings of a comparison.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CompareOptions {
    /// Allowed slowdown in percent of the per-heuristic geometric-mean time ratio.
    pub threshold_pct: f64,
    /// Node-count changes are reported but do not fail the comparison.
    pub allow_node_changes: bool,
    /// Runs where both sides took less than this are left out of the per-run time comparison.
    pub min_seconds: f64,
    /// Fewest runs behind a time verdict (timed runs for the geometric mean, solved runs for
    /// the total); with fewer, the time ratios are shown but not judged.
    pub min_runs: usize,
}

impl Default for CompareOptions {
    fn default() -> Self {
        CompareOptions {
            threshold_pct: 10.0,
            allow_node_changes: false,
            min_seconds: 0.05,
            min_runs: 5,
        }
    }
}

impl CompareOptions {
    pub(crate) fn validate(&self) -> Result<(), CompareError> {
        if !(self.threshold_pct.is_finite() && self.threshold_pct >= 0.0) {
            return Err(CompareError::BadThreshold(self.threshold_pct));
        }
        if !(self.min_seconds.is_finite() && self.min_seconds >= 0.0) {
            return Err(CompareError::BadMinSeconds(self.min_seconds));
        }
        Ok(())
    }
}

/// One run present in both directories.
#[derive(Debug, Clone, PartialEq)]
pub struct Matched {
    pub key: RunKey,
    pub base: RunRecord,
    pub new: RunRecord,
}

impl Matched {
    /// Whether the node counts are comparable and differ. A count one side does not have (an
    /// outside solver that did not report it) is not compared: unknown is no change.
    pub fn nodes_changed(&self) -> bool {
        let differ = |a: Option<u64>, b: Option<u64>| a.zip(b).is_some_and(|(a, b)| a != b);
        self.base.status == self.new.status
            && self.base.status.is_deterministic()
            && (differ(self.base.generated, self.new.generated)
                || differ(self.base.expanded, self.new.expanded))
    }

    pub(crate) fn status_changed(&self) -> bool {
        self.base.status != self.new.status
    }

    /// solved → anything else.
    pub(crate) fn lost_solution(&self) -> bool {
        self.base.status == RunStatus::Solved && self.new.status != RunStatus::Solved
    }

    pub(crate) fn length_changed(&self) -> bool {
        matches!((self.base.length, self.new.length), (Some(a), Some(b)) if a != b)
    }

    /// Both sides solved: the runs whose times are compared at all.
    pub(crate) fn both_solved(&self) -> bool {
        self.base.status == RunStatus::Solved && self.new.status == RunStatus::Solved
    }

    /// new/base seconds, when both solved and either side is long enough to time.
    pub(crate) fn time_ratio(&self, min_seconds: f64) -> Option<f64> {
        (self.both_solved()
            && self.base.seconds.max(self.new.seconds) >= min_seconds
            && self.base.seconds > 0.0
            && self.new.seconds > 0.0)
            .then(|| self.new.seconds / self.base.seconds)
    }
}

/// Time figures of one heuristic.
#[derive(Debug, Clone, PartialEq)]
pub struct HeuristicSummary {
    pub heuristic: String,
    pub matched: usize,
    /// Runs in the time comparison.
    pub timed: usize,
    /// Geometric mean of new/base seconds over the timed runs.
    pub geomean_ratio: Option<f64>,
    /// Σ seconds over the runs both sides solved, base and new.
    pub total_seconds: (f64, f64),
    /// Σ new / Σ base, when either total reaches the timing minimum.
    pub total_ratio: Option<f64>,
    /// Runs both sides solved (those behind `total_seconds`).
    pub solved: usize,
    pub node_changes: usize,
}

impl HeuristicSummary {
    /// Why its time is not judged, if it is not: too few runs behind both ratios.
    pub(crate) fn untimed_reason(&self, min_runs: usize) -> Option<String> {
        (self.timed < min_runs && self.solved < min_runs).then(|| {
            format!(
                "{}: time not judged, {} timed and {} solved runs (fewer than {min_runs}, \
                 --min-runs)",
                self.heuristic, self.timed, self.solved
            )
        })
    }
}

/// Why a comparison fails.
#[derive(Debug, Clone, PartialEq)]
pub enum Failure {
    NodeCount(RunKey),
    LostSolution(RunKey),
    Length(RunKey),
    Slowdown {
        heuristic: String,
        ratio: f64,
    },
    /// The total time grew beyond the threshold (judged when the per-run rule did not fail).
    TotalSlowdown {
        heuristic: String,
        ratio: f64,
    },
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Failure::NodeCount(k) => write!(f, "node counts changed: {k}"),
            Failure::LostSolution(k) => write!(f, "solution lost: {k}"),
            Failure::Length(k) => write!(f, "solution length changed: {k}"),
            Failure::Slowdown { heuristic, ratio } => write!(
                f,
                "{heuristic} slowed down: geometric-mean time ratio {ratio:.3}"
            ),
            Failure::TotalSlowdown { heuristic, ratio } => {
                write!(f, "{heuristic} slowed down: total time ratio {ratio:.3}")
            }
        }
    }
}

/// The outcome of comparing two sets of runs.
#[derive(Debug, Clone, PartialEq)]
pub struct Comparison {
    pub options: CompareOptions,
    pub matched: Vec<Matched>,
    pub only_base: Vec<RunKey>,
    pub only_new: Vec<RunKey>,
    pub summaries: Vec<HeuristicSummary>,
    pub failures: Vec<Failure>,
    /// How the two sides were measured ([`measurement_note`]); `None` when compared from rows
    /// alone.
    pub measurement: Option<String>,
    /// How the two experiments' setups differ (limits, pruning, what was run), from their
    /// `meta.json` files: a lost solution under a new time limit is the limit's doing.
    pub setup_differences: Vec<String>,
    /// Node-count changes are allowed because the two sides prune differently, not because
    /// `--allow-node-changes` was given.
    pub node_changes_expected: bool,
}

/// What the two `meta.json` files say about how the sides were measured: never side by side;
/// on different machines, or on one machine at different times (or at overlapping times,
/// competing for its cores). Either way a time verdict from them is weak.
pub fn measurement_note(base: Option<&Meta>, new: Option<&Meta>) -> String {
    let weak = "so their time ratios include the machine's drift between the runs and a time \
                verdict from them is weak (node counts are unaffected); for time, measure both \
                builds alternately with tilebench regress";
    let (Some(b), Some(n)) = (base, new) else {
        return format!(
            "Not measured side by side: {} no meta.json, so when and where its runs were made \
             is unknown; {weak}.",
            if base.is_none() {
                "base has"
            } else {
                "new has"
            }
        );
    };
    let host = |m: &Meta| {
        format!(
            "{} ({})",
            m.machine.hostname.as_deref().unwrap_or("unknown host"),
            m.machine.cpu_model.as_deref().unwrap_or("unknown CPU")
        )
    };
    let when = |m: &Meta| match m.finished.as_deref() {
        // Within one second: one time.
        Some(end) if end == m.started => m.started.clone(),
        end => format!("{} to {}", m.started, end.unwrap_or("(not finished)")),
    };
    let machines = if host(b) != host(n) || b.machine.cores != n.machine.cores {
        format!(
            "on different machines (base: {}, {} cores; new: {}, {} cores)",
            host(b),
            b.machine.cores,
            host(n),
            n.machine.cores
        )
    } else {
        format!("on the same machine ({})", host(b))
    };
    let (b_end, n_end) = (
        b.finished.as_deref().unwrap_or(&b.started),
        n.finished.as_deref().unwrap_or(&n.started),
    );
    // RFC 3339 UTC times of one format order as text.
    let overlap = b.started.as_str() < n_end && n.started.as_str() < b_end;
    let times = if overlap {
        format!(
            "at overlapping times, competing for its cores (base {}, new {})",
            when(b),
            when(n)
        )
    } else {
        format!("at different times (base {}, new {})", when(b), when(n))
    };
    let build = |m: &Meta| match (&m.git_commit, m.git_dirty) {
        (Some(c), dirty) => format!(
            "{}{}",
            &c[..c.len().min(7)],
            if dirty == Some(true) {
                " + changes"
            } else {
                ""
            }
        ),
        (None, _) => "an unknown commit".into(),
    };
    // Two dirty trees of one commit may hold different changes: the same build only when clean.
    let clean = |m: &Meta| m.git_commit.is_some() && m.git_dirty == Some(false);
    let builds = if clean(b) && clean(n) && b.git_commit == n.git_commit {
        format!(
            "built from the same commit ({}): a time difference is the machine's, not the code's",
            build(b)
        )
    } else {
        format!("builds: base {}, new {}", build(b), build(n))
    };
    format!("Not measured side by side: {machines}, {times}; {weak}. {builds}.")
}

/// Compares two results directories (see the module documentation for the rules).
///
/// ```
/// use tilebench::compare::{compare_dirs, CompareOptions};
/// use tilebench::results::{io::write_rows, RunRecord, RunStatus, RUNS_FILE};
///
/// let tmp = tempfile::tempdir().unwrap();
/// let results = |name: &str, generated: [u64; 2]| {
///     let dir = tmp.path().join(name);
///     std::fs::create_dir(&dir).unwrap();
///     let runs: Vec<RunRecord> = (0..2)
///         .map(|i| RunRecord {
///             instance_set: "s".into(),
///             instance_id: (i + 1).to_string(),
///             heuristic: "manhattan".into(),
///             status: RunStatus::Solved,
///             generated: Some(generated[i]),
///             ..RunRecord::default()
///         })
///         .collect();
///     write_rows(&dir.join(RUNS_FILE), &runs).unwrap();
///     dir
/// };
/// let base = results("base", [100, 200]);
/// let same = compare_dirs(&base, &results("same", [100, 200]), CompareOptions::default());
/// assert!(same.unwrap().passed());
/// // Another node count is another search: the comparison fails, naming the run.
/// let c = compare_dirs(&base, &results("new", [100, 250]), CompareOptions::default()).unwrap();
/// assert!(!c.passed());
/// assert!(c.matched[1].nodes_changed() && !c.matched[0].nodes_changed());
/// ```
pub fn compare_dirs(
    base: &Path,
    new: &Path,
    options: CompareOptions,
) -> Result<Comparison, CompareError> {
    let b = load_runs(base)?;
    let n = load_runs(new)?;
    let mut c = compare_runs(
        (base, b.into_iter().collect()),
        (new, n.into_iter().collect()),
        options,
    )?;
    let meta = |p: &Path| {
        let dir = if p.is_dir() { p } else { p.parent()? };
        Meta::read(&dir.join(META_FILE)).ok()
    };
    let (mb, mn) = (meta(base), meta(new));
    let same = |p: &Path| std::fs::canonicalize(p).ok();
    c.measurement = Some(match same(base).is_some() && same(base) == same(new) {
        // Not "measured at different times": every ratio is 1 by construction.
        true => "Base and new are the same results: every ratio is 1 by construction.".into(),
        false => measurement_note(mb.as_ref(), mn.as_ref()),
    });
    if let Some(note) = c.measurement.as_mut() {
        note.push_str(&unfinished_note(mb.as_ref(), mn.as_ref()));
    }
    if let (Some(b), Some(n)) = (&mb, &mn) {
        let mut differences = b.experiment.differences(&n.experiment, false);
        // Not the experiment's, but the seconds': searches at once share the memory bandwidth
        // and the caches (docs/regression.md: time ratios want the same --jobs).
        if b.threads != n.threads {
            differences.push(Difference {
                note: "seconds depend on it: searches at once share the caches and memory",
                ..Difference::new(
                    "pairs at once (--jobs)",
                    b.threads.to_string(),
                    n.threads.to_string(),
                )
            });
        }
        c.setup_differences = (differences.iter())
            .map(|d| d.named("in base", "in new"))
            .collect();
        // Another pruning is another tree: its node counts are what the comparison measures
        // (`--pruning parent` against `fsm`), not a failure. Lengths must still agree.
        if b.experiment.pruning != n.experiment.pruning && !c.options.allow_node_changes {
            c.options.allow_node_changes = true;
            c.failures.retain(|f| !matches!(f, Failure::NodeCount(_)));
            c.node_changes_expected = true;
        }
    }
    Ok(c)
}

/// A side whose experiment did not finish passes on the runs it has: said where the verdict is
/// read (empty when both finished).
fn unfinished_note(base: Option<&Meta>, new: Option<&Meta>) -> String {
    [("base", base), ("new", new)]
        .into_iter()
        .filter_map(|(name, m)| {
            m.filter(|m| m.state != RunState::Complete)
                .map(|m| (name, m))
        })
        .map(|(name, m)| {
            format!(
                " {name}'s experiment is {} (its meta.json): the pairs it did not reach are not \
                 compared.",
                m.state
            )
        })
        .collect()
}

type Side<'a> = (&'a Path, Vec<(u64, RunRecord)>);

/// Compares two lists of runs, each with the path and lines it was read from (for errors).
pub(crate) fn compare_runs(
    base: Side<'_>,
    new: Side<'_>,
    options: CompareOptions,
) -> Result<Comparison, CompareError> {
    options.validate()?;
    let (base_path, new_path) = (base.0, new.0);
    let base = index(base.0, base.1)?;
    let mut new = index(new.0, new.1)?;
    let mut matched = Vec::new();
    let mut only_base = Vec::new();
    for (key, b) in base {
        match new.remove(&key) {
            Some(n) => matched.push(Matched {
                key,
                base: b,
                new: n,
            }),
            None => only_base.push(key),
        }
    }
    let mut only_new: Vec<RunKey> = new.into_keys().collect();
    matched.sort_by(|a, b| a.key.reading_order().cmp(&b.key.reading_order()));
    only_base.sort_by(|a, b| a.reading_order().cmp(&b.reading_order()));
    only_new.sort_by(|a, b| a.reading_order().cmp(&b.reading_order()));
    if matched.is_empty() {
        return Err(CompareError::NothingMatched {
            base: base_path.to_path_buf(),
            new: new_path.to_path_buf(),
        });
    }

    // Grouped by method (the heuristic for IDA*, `astar+H`, `bfs`: see `results::Method::label`).
    let methods: BTreeSet<String> = matched.iter().map(|m| m.key.label()).collect();
    let mut summaries = Vec::new();
    for h in methods.iter().map(String::as_str) {
        let runs: Vec<&Matched> = matched.iter().filter(|m| m.key.label() == h).collect();
        let ratios: Vec<f64> = runs
            .iter()
            .filter_map(|m| m.time_ratio(options.min_seconds))
            .collect();
        let geomean_ratio = (!ratios.is_empty()).then(|| crate::analysis::geomean(&ratios));
        let solved: Vec<&&Matched> = runs.iter().filter(|m| m.both_solved()).collect();
        let total_seconds = solved.iter().fold((0.0, 0.0), |(b, n), m| {
            (b + m.base.seconds, n + m.new.seconds)
        });
        let total_ratio = (total_seconds.0 > 0.0
            && total_seconds.0.max(total_seconds.1) >= options.min_seconds)
            .then(|| total_seconds.1 / total_seconds.0);
        summaries.push(HeuristicSummary {
            heuristic: h.to_string(),
            matched: runs.len(),
            timed: ratios.len(),
            geomean_ratio,
            total_seconds,
            total_ratio,
            solved: solved.len(),
            node_changes: runs.iter().filter(|m| m.nodes_changed()).count(),
        });
    }

    let mut failures = Vec::new();
    for m in &matched {
        if m.nodes_changed() && !options.allow_node_changes {
            failures.push(Failure::NodeCount(m.key.clone()));
        }
        if m.lost_solution() {
            failures.push(Failure::LostSolution(m.key.clone()));
        }
        if m.length_changed() {
            failures.push(Failure::Length(m.key.clone()));
        }
    }
    let limit = 1.0 + options.threshold_pct / 100.0;
    for s in &summaries {
        let geomean_ratio = s.geomean_ratio.filter(|_| s.timed >= options.min_runs);
        let total_ratio = s.total_ratio.filter(|_| s.solved >= options.min_runs);
        if let Some(r) = geomean_ratio.filter(|&r| r > limit) {
            failures.push(Failure::Slowdown {
                heuristic: s.heuristic.clone(),
                ratio: r,
            });
        } else if let Some(r) = total_ratio.filter(|&r| r > limit) {
            failures.push(Failure::TotalSlowdown {
                heuristic: s.heuristic.clone(),
                ratio: r,
            });
        }
    }
    Ok(Comparison {
        options,
        matched,
        only_base,
        only_new,
        summaries,
        failures,
        measurement: None,
        setup_differences: Vec::new(),
        node_changes_expected: false,
    })
}

impl Comparison {
    pub fn passed(&self) -> bool {
        self.failures.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What `compare --report` writes as Markdown (the report renders a comparison; this
    /// module sits below it).
    fn markdown(c: &Comparison) -> String {
        crate::report::comparison_markdown(c, "a", "b")
    }

    fn run(id: &str, heuristic: &str, generated: u64, seconds: f64) -> RunRecord {
        RunRecord {
            instance_set: "korf100".into(),
            instance_id: id.into(),
            heuristic: heuristic.into(),
            status: RunStatus::Solved,
            length: Some(50),
            optimal_length: Some(50),
            h0: Some(40),
            iterations: 6,
            expanded: Some(generated / 2),
            generated: Some(generated),
            last_iteration_generated: Some(generated / 3),
            seconds,
            nodes_per_second: Some(generated as f64 / seconds),
            growth_ratio: None,
            overhead_measured: None,
            overhead_predicted: None,
            moves: "UDLR".into(),
            verified: true,
            threads: 1,
            search_threads: 1,
            ..RunRecord::default()
        }
    }

    fn base() -> Vec<RunRecord> {
        vec![
            run("1", "manhattan", 1_000_000, 1.0),
            run("2", "manhattan", 2_000_000, 2.0),
            run("1", "linear-conflict", 300_000, 0.5),
            run("2", "linear-conflict", 600_000, 1.0),
        ]
    }

    fn cmp(b: Vec<RunRecord>, n: Vec<RunRecord>, o: CompareOptions) -> Comparison {
        let lines = |v: Vec<RunRecord>| v.into_iter().enumerate().map(|(i, r)| (i as u64 + 2, r));
        compare_runs(
            (Path::new("base"), lines(b).collect()),
            (Path::new("new"), lines(n).collect()),
            o,
        )
        .unwrap()
    }

    fn meta(host: &str, started: &str, finished: &str) -> Meta {
        let mut m = crate::results::meta::tests::sample();
        m.machine.hostname = Some(host.into());
        m.started = started.into();
        m.finished = Some(finished.into());
        m.state = RunState::Complete;
        m
    }

    #[test]
    fn the_measurement_note_says_why_time_is_weak() {
        let a = meta("vm1", "2026-12-01T10:00:00Z", "2026-12-01T10:05:00Z");
        let later = meta("vm1", "2026-12-01T11:00:00Z", "2026-12-01T11:05:00Z");
        let note = measurement_note(Some(&a), Some(&later));
        assert!(note.starts_with("Not measured side by side: on the same machine (vm1 (unknown CPU)), at different times (base 2026-12-01T10:00:00Z to 2026-12-01T10:05:00Z"), "{note}");
        assert!(note.contains("a time verdict from them is weak"), "{note}");
        let elsewhere = meta("vm2", "2026-12-01T10:01:00Z", "2026-12-01T10:02:00Z");
        let note = measurement_note(Some(&a), Some(&elsewhere));
        assert!(note.contains("on different machines (base: vm1"), "{note}");
        assert!(note.contains("at overlapping times"), "{note}");
        assert!(measurement_note(None, Some(&a)).contains("base has no meta.json"));
        // An interrupted side is named; finished ones add nothing.
        let mut stopped = later.clone();
        stopped.state = RunState::Interrupted;
        assert_eq!(unfinished_note(Some(&a), Some(&a)), "");
        assert_eq!(
            unfinished_note(Some(&a), Some(&stopped)),
            " new's experiment is interrupted (its meta.json): the pairs it did not reach are \
             not compared."
        );
        // The builds are named; one clean commit on both sides says the difference is noise.
        let (mut x, mut y) = (a.clone(), later.clone());
        x.git_commit = Some("8c42a08c161ab30950ed".into());
        x.git_dirty = Some(false);
        y.git_commit = Some("4476942aaaaaaaaaaaaa".into());
        y.git_dirty = Some(true);
        let note = measurement_note(Some(&x), Some(&y));
        assert!(
            note.ends_with("builds: base 8c42a08, new 4476942 + changes."),
            "{note}"
        );
        y.git_commit = x.git_commit.clone();
        assert!(measurement_note(Some(&x), Some(&y)).contains("new 8c42a08 + changes"));
        y.git_dirty = Some(false);
        assert!(measurement_note(Some(&x), Some(&y))
            .ends_with("built from the same commit (8c42a08): a time difference is the machine's, not the code's."));
        // Printed at the top of the report.
        let mut c = cmp(base(), base(), CompareOptions::default());
        c.measurement = Some(measurement_note(Some(&a), Some(&later)));
        assert!(markdown(&c).contains("- **Not measured side by side: on the same machine"));
    }

    #[test]
    fn runs_are_listed_by_numeric_id() {
        let runs: Vec<RunRecord> = ["10", "2", "1", "x"]
            .iter()
            .map(|id| run(id, "manhattan", 1000, 1.0))
            .collect();
        let c = cmp(runs.clone(), runs, CompareOptions::default());
        let ids: Vec<&str> = c.matched.iter().map(|m| &m.key.instance_id[..]).collect();
        assert_eq!(ids, ["1", "2", "10", "x"]);
    }

    #[test]
    fn identical_inputs_pass() {
        let c = cmp(base(), base(), CompareOptions::default());
        assert!(c.passed(), "{:?}", c.failures);
        assert_eq!(c.matched.len(), 4);
        assert!(c.summaries.iter().all(|s| s.geomean_ratio == Some(1.0)));
        assert!(markdown(&c).contains("PASS"));
    }

    #[test]
    fn a_node_count_change_fails_unless_allowed() {
        let mut n = base();
        n[1].generated = n[1].generated.map(|g| g + 1);
        let c = cmp(base(), n.clone(), CompareOptions::default());
        let key = n[1].key();
        assert_eq!(c.failures, vec![Failure::NodeCount(key)]);
        assert!(markdown(&c).contains("**nodes**"));
        let allowed = CompareOptions {
            allow_node_changes: true,
            ..CompareOptions::default()
        };
        let c = cmp(base(), n, allowed);
        assert!(c.passed());
        assert_eq!(c.summaries.iter().map(|s| s.node_changes).sum::<usize>(), 1);
    }

    #[test]
    fn an_expanded_change_alone_is_a_node_change() {
        let mut n = base();
        n[0].expanded = n[0].expanded.map(|e| e - 1);
        assert!(!cmp(base(), n, CompareOptions::default()).passed());
    }

    #[test]
    fn a_slowdown_beyond_the_threshold_fails() {
        // Manhattan runs 1.2× and 1.3× slower: geomean ≈ 1.249 > 1.10.
        let mut n = base();
        n[0].seconds = 1.2;
        n[1].seconds = 2.6;
        // The default asks for five runs behind a time verdict: two are shown, not judged.
        let c = cmp(base(), n.clone(), CompareOptions::default());
        assert!(c.passed(), "{:?}", c.failures);
        assert!(markdown(&c).contains(
            "- manhattan: time not judged, 2 timed and 2 solved runs (fewer than 5, --min-runs)"
        ));
        let two = CompareOptions {
            min_runs: 2,
            ..CompareOptions::default()
        };
        let c = cmp(base(), n.clone(), two);
        assert_eq!(c.failures.len(), 1);
        match &c.failures[0] {
            Failure::Slowdown { heuristic, ratio } => {
                assert_eq!(heuristic, "manhattan");
                assert!((ratio - (1.2f64 * 1.3).sqrt()).abs() < 1e-12);
            }
            f => panic!("unexpected {f:?}"),
        }
        // Within a 30% threshold it passes.
        let loose = CompareOptions {
            threshold_pct: 30.0,
            ..two
        };
        assert!(cmp(base(), n, loose).passed());
    }

    #[test]
    fn one_slow_run_among_fast_ones_is_judged_by_the_geometric_mean() {
        // 1.5× and 0.8×: geomean √1.2 ≈ 1.095 ≤ 1.10.
        let mut n = base();
        n[0].seconds = 1.5;
        n[1].seconds = 1.6;
        assert!(cmp(base(), n, CompareOptions::default()).passed());
    }

    #[test]
    fn short_runs_are_not_timed() {
        let mut b = base();
        b[0].seconds = 0.01;
        let mut n = base();
        n[0].seconds = 0.04; // 4× slower, but both sides below the minimum.
        let c = cmp(b, n, CompareOptions::default());
        assert!(c.passed(), "{:?}", c.failures);
        assert_eq!(c.summaries[1].heuristic, "manhattan");
        assert_eq!(c.summaries[1].timed, 1);
    }

    #[test]
    fn a_short_base_with_a_long_new_run_is_timed() {
        let mut b = base();
        b[0].seconds = 0.001;
        let mut n = base();
        n[0].seconds = 0.1; // 100× slower: the new side is long enough to time.
        let two = CompareOptions {
            min_runs: 2,
            ..CompareOptions::default()
        };
        let c = cmp(b, n, two);
        assert_eq!(c.summaries[1].timed, 2);
        assert!(
            matches!(&c.failures[..], [Failure::Slowdown { heuristic, .. }] if heuristic == "manhattan")
        );
    }

    #[test]
    fn many_short_runs_are_judged_by_their_total() {
        // Forty runs of 2 ms each becoming 4 ms: none is timed, the total doubles (0.08 → 0.16 s).
        let b: Vec<RunRecord> = (1..=40)
            .map(|i| run(&i.to_string(), "manhattan", 1000, 0.002))
            .collect();
        let mut n = b.clone();
        n.iter_mut().for_each(|r| r.seconds = 0.004);
        let c = cmp(b.clone(), n, CompareOptions::default());
        assert_eq!(c.summaries[0].timed, 0);
        assert_eq!(c.summaries[0].total_ratio, Some(2.0));
        assert_eq!(
            c.failures,
            vec![Failure::TotalSlowdown {
                heuristic: "manhattan".into(),
                ratio: 2.0
            }]
        );
        // Totals below the minimum on both sides are noise too.
        let mut n = b.clone();
        n.iter_mut().for_each(|r| r.seconds = 0.001);
        let tiny: Vec<RunRecord> = b
            .iter()
            .cloned()
            .map(|mut r| {
                r.seconds = 0.0005;
                r
            })
            .collect();
        assert!(cmp(tiny, n, CompareOptions::default()).passed());
    }

    #[test]
    fn a_lost_solution_fails_and_other_status_changes_are_listed() {
        let mut n = base();
        n[2].status = RunStatus::TimeLimit;
        n[2].length = None;
        n[2].generated = Some(5);
        let c = cmp(base(), n.clone(), CompareOptions::default());
        // Not also a node change: the statuses differ, so the counts are not comparable.
        assert_eq!(c.failures, vec![Failure::LostSolution(n[2].key())]);
        assert!(markdown(&c).contains("solved → time-limit | 50 → –"));
        // The reverse (a run that now solves) is listed but passes.
        let c = cmp(n, base(), CompareOptions::default());
        assert!(c.passed());
        assert!(c.matched.iter().any(|m| m.status_changed()));
    }

    /// Two unknown names whose hashes meet (the old choice of colour) are drawn apart.
    #[test]
    fn comparison_figures_give_unknown_names_colours_of_their_own() {
        let b = vec![
            run("1", "solver-a", 1_000, 1.0),
            run("1", "solver-g", 2_000, 2.0),
        ];
        let c = cmp(b.clone(), b, CompareOptions::default());
        let tmp = tempfile::tempdir().unwrap();
        crate::plot::plot_comparison(&c, tmp.path()).unwrap();
        let svg = std::fs::read_to_string(tmp.path().join("compare-nodes.svg")).unwrap();
        let mut fills: Vec<&str> = svg
            .lines()
            // Their markers: the unknown names' stars, pluses, hexagons, … (not circles).
            .filter(|l| l.starts_with("<circle") || l.starts_with("<polygon"))
            .filter_map(|l| l.split("fill=\"").nth(1)?.split('"').next())
            .filter(|f| *f != "none")
            .collect();
        fills.sort_unstable();
        fills.dedup();
        // The legend's marks are drawn in the series' own colours (the points are lightened).
        let others = [
            "#800000", "#000080", "#008080", "#808000", "#4B0082", "#C71585",
        ];
        let own: Vec<&&str> = fills.iter().filter(|f| others.contains(f)).collect();
        assert_eq!(own.len(), 2, "{fills:?}");
    }

    #[test]
    fn time_limited_runs_are_not_compared_by_nodes() {
        let mut b = base();
        b[0].status = RunStatus::TimeLimit;
        let mut n = b.clone();
        n[0].generated = n[0].generated.map(|g| g + 12345);
        assert!(cmp(b, n, CompareOptions::default()).passed());
    }

    #[test]
    fn a_length_change_fails() {
        let mut n = base();
        n[3].length = Some(52);
        let c = cmp(base(), n.clone(), CompareOptions::default());
        assert_eq!(c.failures, vec![Failure::Length(n[3].key())]);
    }

    #[test]
    fn one_side_only_runs_are_listed_not_fatal() {
        let mut n = base();
        n.remove(0);
        n.push(run("3", "manhattan", 10, 1.0));
        let c = cmp(base(), n, CompareOptions::default());
        assert!(c.passed());
        assert_eq!(c.only_base.len(), 1);
        assert_eq!(c.only_new.len(), 1);
        let md = markdown(&c);
        assert!(md.contains("| korf100 | 1 | `manhattan` | base only |"));
        assert!(md.contains("| korf100 | 3 | `manhattan` | new only |"));
        assert!(
            md.contains(
                "**PASS**: no regression among the 3 runs on both sides; 2 runs on one side \
                 only are not compared"
            ),
            "{md}"
        );
    }

    #[test]
    fn a_regress_directory_or_another_file_is_named_for_what_it_is() {
        let tmp = tempfile::tempdir().unwrap();
        std::fs::write(tmp.path().join("rounds.csv"), "round\n").unwrap();
        let e = load_runs(tmp.path()).unwrap_err().to_string();
        assert!(e.contains("a `tilebench regress` directory"), "{e}");
        let meta = tmp.path().join("meta.json");
        std::fs::write(&meta, "{}").unwrap();
        let e = load_runs(&meta).unwrap_err().to_string();
        assert!(
            e.ends_with("meta.json: not a runs.csv; give a results directory or its runs.csv"),
            "{e}"
        );
    }

    #[test]
    fn duplicate_runs_and_bad_options_are_errors() {
        let mut b = base();
        b.push(b[0].clone());
        let lines = |v: Vec<RunRecord>| -> Vec<(u64, RunRecord)> {
            v.into_iter()
                .enumerate()
                .map(|(i, r)| (i as u64 + 2, r))
                .collect()
        };
        let e = compare_runs(
            (Path::new("b/runs.csv"), lines(b)),
            (Path::new("n"), lines(base())),
            CompareOptions::default(),
        )
        .unwrap_err();
        assert_eq!(
            e.to_string(),
            "b/runs.csv, line 6: run korf100 #1 manhattan appears twice (first on line 2)"
        );
        let bad = CompareOptions {
            threshold_pct: -1.0,
            ..CompareOptions::default()
        };
        assert!(matches!(
            compare_runs(
                (Path::new("b"), lines(base())),
                (Path::new("n"), lines(base())),
                bad
            ),
            Err(CompareError::BadThreshold(_))
        ));
        // No run in common (here: another instance set) is an error, not a pass.
        let other: Vec<RunRecord> = base()
            .into_iter()
            .map(|r| RunRecord {
                instance_set: "mine".into(),
                ..r
            })
            .collect();
        let e = compare_runs(
            (Path::new("b"), lines(base())),
            (Path::new("n"), lines(other)),
            CompareOptions::default(),
        )
        .unwrap_err();
        assert!(e.to_string().starts_with("no run of b is in n"), "{e}");
    }
}
