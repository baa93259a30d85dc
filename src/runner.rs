//! The experiment runner: every (instance, heuristic) pair on a rayon pool, each result written
//! to a results directory (`runs.csv`, `iterations.csv`, `meta.json`) the moment it is known.
//!
//! Guarantees, and how they are kept:
//! - **No lost or half rows.** Each finished pair is formatted completely in memory, then written
//!   under one lock with a single `write` call per file (its iteration rows first, then its
//!   `runs.csv` row) to files opened for appending, without buffering. A killed process leaves at
//!   most a truncated last line, which [`run`] with `resume` drops (with the pair's iterations).
//! - **Resume.** A pair counts as done when its `runs.csv` row is complete; iteration rows of
//!   pairs without one are dropped, and only the missing pairs run.
//! - **Cancellation.** Setting [`Settings::cancel`] stops the running searches at their next
//!   check; cancelled pairs are not written, so a resume redoes them.
//! - **Determinism.** Searches are single-threaded and deterministic, so node counts do not
//!   depend on the pool size. Rows arrive in completion order; when every pair is done both CSV
//!   files are sorted into pair order (instance set, instance, heuristic as given) and replaced
//!   atomically (temporary file + rename).
//!
//! The pairs are an explicit list ([`all_pairs`] or any subset of it), so a shard of an
//! experiment is just a filtered list written to its own directory.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::fs::{File, OpenOptions};
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use rayon::prelude::*;
use serde::Serialize;
use thiserror::Error;

use crate::board::Goal;
use crate::history;
use crate::instances::{InstanceError, InstanceSet};
use crate::meta::{self, LimitsInfo, Meta, SetInfo};
use crate::moves::path_string;
use crate::record::{
    Growth, IterationRecord, RunRecord, ITERATIONS_FILE, ITERATION_COLUMNS, META_FILE, RUNS_FILE,
    RUN_COLUMNS,
};
use crate::search::{Limits, SearchResult, Status};
use crate::solver::{HeuristicName, Prepared, SolverError};

/// The default experiment (`tilebench run` with no arguments): instance selections, relative
/// to the checkout (see README, "The default experiment").
pub const DEFAULT_INSTANCES: &[&str] = &[
    "instances/walk150-4x4-s42.txt",
    "instances/korf100.txt:1-10",
];

/// The heuristics of the default experiment.
pub const DEFAULT_HEURISTICS: &[&str] = &["manhattan", "linear-conflict", "pdb-663"];

/// Where the default experiment writes.
pub const DEFAULT_OUT: &str = "results/default";

/// Everything that stops an experiment from running or being recorded.
#[derive(Debug, Error)]
pub enum RunnerError {
    #[error(transparent)]
    Instances(#[from] InstanceError),
    #[error("{}: {source}", path.display())]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{}: {source}", path.display())]
    Csv { path: PathBuf, source: csv::Error },
    #[error("{}:{line}: {reason}", path.display())]
    Corrupt {
        path: PathBuf,
        line: usize,
        reason: String,
    },
    #[error(
        "{} already holds {rows} finished runs; pass --resume to add the missing ones, or \
         --overwrite to start again",
        dir.display()
    )]
    Exists { dir: PathBuf, rows: usize },
    #[error("heuristic {heuristic} for goal {goal}: {source}")]
    Heuristic {
        heuristic: String,
        goal: String,
        source: Box<SolverError>,
    },
    #[error("{0}")]
    Pool(#[from] rayon::ThreadPoolBuildError),
    #[error(transparent)]
    History(#[from] history::HistoryError),
    #[error("meta.json: {0}")]
    Json(#[from] serde_json::Error),
}

fn io_err(path: &Path) -> impl FnOnce(std::io::Error) -> RunnerError + '_ {
    move |source| RunnerError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// The instance sets and heuristics of an experiment.
#[derive(Debug, Clone)]
pub struct Experiment {
    /// Each set with the selection it was read from (`FILE` or `FILE:FIRST-LAST`).
    pub sets: Vec<(String, InstanceSet)>,
    pub heuristics: Vec<HeuristicName>,
}

impl Experiment {
    /// Reads every selection; all must parse (the run refuses to start on any malformed line).
    pub fn read(
        selections: &[String],
        heuristics: Vec<HeuristicName>,
    ) -> Result<Self, RunnerError> {
        let sets = selections
            .iter()
            .map(|s| Ok((s.clone(), InstanceSet::read_selection(s)?)))
            .collect::<Result<Vec<_>, InstanceError>>()?;
        Ok(Experiment { sets, heuristics })
    }
}

/// One (instance, heuristic) pair, by index into an [`Experiment`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Pair {
    pub set: usize,
    pub instance: usize,
    pub heuristic: usize,
}

/// Every pair, in the experiment's order: set, then instance, then heuristic.
pub fn all_pairs(exp: &Experiment) -> Vec<Pair> {
    let mut pairs = Vec::new();
    for (set, (_, s)) in exp.sets.iter().enumerate() {
        for instance in 0..s.instances.len() {
            for heuristic in 0..exp.heuristics.len() {
                pairs.push(Pair {
                    set,
                    instance,
                    heuristic,
                });
            }
        }
    }
    pairs
}

/// How to run.
#[derive(Debug, Clone)]
pub struct Settings {
    pub out: PathBuf,
    /// Pool size.
    pub threads: usize,
    pub node_limit: Option<u64>,
    pub time_limit: Option<Duration>,
    /// Keep the finished rows of `out` and run only the missing pairs.
    pub resume: bool,
    /// Discard earlier results in `out` (without it, finding any is an error unless resuming).
    pub overwrite: bool,
    /// Set to stop (Ctrl-C); unfinished pairs are not written.
    pub cancel: Arc<AtomicBool>,
    /// Show a progress bar on stderr (only drawn when stderr is a terminal).
    pub progress: bool,
    /// Recorded in meta.json.
    pub command_line: Vec<String>,
    /// Where pattern databases live and whether missing ones may be built.
    pub solver: crate::solver::Options,
    /// The history file a completed run appends its headline figures to (see [`history`]).
    pub history: Option<PathBuf>,
    /// The slice of a larger experiment these pairs are (recorded in meta.json).
    pub shard: Option<crate::cluster::Shard>,
}

/// What a run did.
#[derive(Debug, Clone, Default)]
pub struct Summary {
    pub pairs: usize,
    /// Pairs already in `runs.csv` before this run (resume).
    pub done_before: usize,
    /// Pairs this run finished and wrote.
    pub written: usize,
    /// Rows written by this run, per status.
    pub by_status: BTreeMap<String, usize>,
    /// One line per `wrong-length` or `error` row.
    pub problems: Vec<String>,
    pub interrupted: bool,
    pub seconds: f64,
}

impl Summary {
    /// Whether any row is `wrong-length` or `error` (the exit status is then non-zero).
    pub fn failed(&self) -> bool {
        !self.problems.is_empty()
    }
}

/// A pair as named in the result files: (instance set, instance id, heuristic).
pub type Key = (String, String, String);

/// The pair a run row belongs to.
pub fn key_of(r: &RunRecord) -> Key {
    (
        r.instance_set.clone(),
        r.instance_id.clone(),
        r.heuristic.clone(),
    )
}

/// Runs `pairs` (a subset of [`all_pairs`] of `exp`) into `settings.out`.
pub fn run(exp: &Experiment, pairs: &[Pair], settings: &Settings) -> Result<Summary, RunnerError> {
    let started = Instant::now();
    let out = &settings.out;
    std::fs::create_dir_all(out).map_err(io_err(out))?;
    let runs_path = out.join(RUNS_FILE);
    let iters_path = out.join(ITERATIONS_FILE);
    let meta_path = out.join(META_FILE);

    // What is already done.
    let mut done: HashSet<Key> = HashSet::new();
    let mut previous_meta = None;
    if runs_path.exists() {
        let (runs, iterations) = recover(&runs_path, &iters_path)?;
        if settings.resume {
            done = runs.iter().map(key_of).collect();
            rewrite(&runs_path, RUN_COLUMNS, &runs)?;
            rewrite(&iters_path, ITERATION_COLUMNS, &iterations)?;
            previous_meta = std::fs::read_to_string(&meta_path)
                .ok()
                .and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok());
        } else if !runs.is_empty() && !settings.overwrite {
            return Err(RunnerError::Exists {
                dir: out.clone(),
                rows: runs.len(),
            });
        }
    }
    if !(settings.resume && runs_path.exists()) {
        rewrite::<RunRecord>(&runs_path, RUN_COLUMNS, &[])?;
        rewrite::<IterationRecord>(&iters_path, ITERATION_COLUMNS, &[])?;
    }

    let label = |p: &Pair| label(exp, p);
    let pending: Vec<Pair> = pairs
        .iter()
        .copied()
        .filter(|p| !done.contains(&label(p)))
        .collect();
    let done_before = pairs.len() - pending.len();

    // meta.json, rewritten at the end.
    let mut meta = new_meta(exp, pairs.len(), done_before, settings, previous_meta);
    write_json(&meta_path, &meta)?;

    // Each heuristic once per goal, shared by reference across the pool.
    let mut prepared: Vec<Prepared> = Vec::new();
    let mut index: HashMap<(usize, Goal), usize> = HashMap::new();
    for p in &pending {
        let goal = &exp.sets[p.set].1.goal;
        if index.contains_key(&(p.heuristic, goal.clone())) {
            continue;
        }
        let name = &exp.heuristics[p.heuristic];
        let h = prepare(name, goal, &settings.solver).map_err(|source| RunnerError::Heuristic {
            heuristic: name.to_string(),
            goal: format!("{} ({})", goal.name(), goal.size()),
            source: Box::new(source),
        })?;
        index.insert((p.heuristic, goal.clone()), prepared.len());
        prepared.push(h);
    }

    let writer = Mutex::new(RowWriter {
        runs: open_append(&runs_path)?,
        runs_path: runs_path.clone(),
        iterations: open_append(&iters_path)?,
        iterations_path: iters_path.clone(),
        summary: Summary::default(),
    });
    let bar = progress_bar(pending.len() as u64, settings.progress);
    let limits = Limits {
        node_limit: settings.node_limit,
        time_limit: settings.time_limit,
        cancel: Some(settings.cancel.clone()),
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(settings.threads)
        .build()?;
    let failure: Mutex<Option<RunnerError>> = Mutex::new(None);
    pool.install(|| {
        pending.par_iter().for_each(|p| {
            if settings.cancel.load(Ordering::Relaxed) {
                return;
            }
            let (_, set) = &exp.sets[p.set];
            let h = &prepared[index[&(p.heuristic, set.goal.clone())]];
            let outcome = run_pair(exp, p, h, &limits, settings.threads);
            let Some((run, iterations, problem)) = outcome else {
                return; // cancelled: not written, a resume redoes it
            };
            if let Some(problem) = &problem {
                bar.suspend(|| eprintln!("tilebench: {problem}"));
            }
            let mut w = writer.lock().unwrap_or_else(|e| e.into_inner());
            if let Err(e) = w.write(&run, &iterations, problem) {
                settings.cancel.store(true, Ordering::Relaxed);
                failure
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .get_or_insert(e);
                return;
            }
            drop(w);
            bar.inc(1);
        })
    });
    bar.finish_and_clear();
    if let Some(e) = failure.into_inner().unwrap_or_else(|e| e.into_inner()) {
        return Err(e);
    }
    let mut summary = writer
        .into_inner()
        .unwrap_or_else(|e| e.into_inner())
        .summary;
    summary.pairs = pairs.len();
    summary.done_before = done_before;
    summary.interrupted = summary.written + done_before < pairs.len();

    if !summary.interrupted {
        sort_results(&runs_path, &iters_path, &pair_order(exp, pairs))?;
    }
    summary.seconds = started.elapsed().as_secs_f64();
    meta.finished = Some(meta::now_rfc3339());
    meta.state = if summary.interrupted {
        "interrupted".into()
    } else {
        "complete".into()
    };
    write_json(&meta_path, &meta)?;
    if let (Some(path), false) = (&settings.history, summary.interrupted) {
        let (runs, _) = recover(&runs_path, &iters_path)?;
        let commit = meta.git_commit.as_deref().unwrap_or("unknown");
        let date = meta.finished.as_deref().unwrap_or_default();
        history::append(path, &history::summarise(commit, date, &runs))?;
    }
    Ok(summary)
}

/// The names of a pair in the result files.
pub fn label(exp: &Experiment, p: &Pair) -> Key {
    let (_, set) = &exp.sets[p.set];
    (
        set.name.clone(),
        set.instances[p.instance].id.clone(),
        exp.heuristics[p.heuristic].to_string(),
    )
}

/// Each pair's rank in `pairs`: the order result files are sorted into.
pub fn pair_order(exp: &Experiment, pairs: &[Pair]) -> HashMap<Key, usize> {
    pairs
        .iter()
        .enumerate()
        .map(|(i, p)| (label(exp, p), i))
        .collect()
}

/// Builds one heuristic for one goal: the one place the runner constructs heuristics.
fn prepare(
    name: &HeuristicName,
    goal: &Goal,
    options: &crate::solver::Options,
) -> Result<Prepared, SolverError> {
    Prepared::new(name, goal, options)
}

/// Solves one pair and turns the result into rows; `None` when cancelled.
fn run_pair(
    exp: &Experiment,
    p: &Pair,
    h: &Prepared,
    limits: &Limits,
    threads: usize,
) -> Option<(RunRecord, Vec<IterationRecord>, Option<String>)> {
    let (_, set) = &exp.sets[p.set];
    let instance = &set.instances[p.instance];
    let heuristic = exp.heuristics[p.heuristic].to_string();
    let who = format!("{} #{} with {}", set.name, instance.id, heuristic);
    let (status, problem, result) = match h.solve(&instance.board, &set.goal, limits) {
        Err(e) => ("error".to_string(), Some(format!("ERROR {who}: {e}")), None),
        Ok(r) if r.status == Status::Cancelled => return None,
        Ok(r) => {
            let (status, problem) = judge(&r, instance, &set.goal, &who);
            (status, problem, Some(r))
        }
    };
    let result = result.as_ref();
    let its: &[crate::search::Iteration] = result.map_or(&[], |r| &r.iterations);
    let moves = result.map_or(&[][..], |r| &r.moves[..]);
    let length = result
        .filter(|r| r.status == Status::Solved)
        .map(|r| r.moves.len() as u32);
    let verified = length.is_some()
        && instance.board.replays_to(moves, &set.goal)
        && instance.optimal.is_none_or(|o| Some(o) == length);
    let growth = Growth::of(its);
    let generated = result.map_or(0, |r| r.generated());
    let seconds = result.map_or(0.0, |r| r.seconds);
    let run = RunRecord {
        instance_set: set.name.clone(),
        instance_id: instance.id.clone(),
        heuristic: heuristic.clone(),
        status,
        length,
        optimal_length: instance.optimal,
        h0: result.map(|r| r.h0),
        iterations: its.len() as u32,
        expanded: result.map_or(0, |r| r.expanded()),
        generated,
        last_iteration_generated: its.last().map_or(0, |i| i.generated),
        seconds,
        nodes_per_second: (seconds > 0.0).then(|| generated as f64 / seconds),
        growth_ratio: growth.ratio,
        overhead_measured: growth.overhead_measured,
        overhead_predicted: growth.overhead_predicted,
        moves: path_string(moves),
        verified,
        threads: threads as u32,
    };
    let iterations = its
        .iter()
        .enumerate()
        .map(|(i, it)| IterationRecord {
            instance_set: set.name.clone(),
            instance_id: instance.id.clone(),
            heuristic: heuristic.clone(),
            iteration: i as u32 + 1,
            bound: it.bound,
            expanded: it.expanded,
            generated: it.generated,
            seconds: it.seconds,
        })
        .collect();
    Some((run, iterations, problem))
}

/// The status of a finished search, and a loud message when it is wrong.
fn judge(
    r: &SearchResult,
    instance: &crate::instances::Instance,
    goal: &Goal,
    who: &str,
) -> (String, Option<String>) {
    match (r.status, instance.optimal) {
        (Status::Solved, _) if !instance.board.replays_to(&r.moves, goal) => (
            "error".into(),
            Some(format!(
                "ERROR {who}: the solution does not replay to the goal"
            )),
        ),
        (Status::Solved, Some(o)) if o as usize != r.moves.len() => (
            "wrong-length".into(),
            Some(format!(
                "WRONG LENGTH {who}: found {} moves, the known optimum is {o}",
                r.moves.len()
            )),
        ),
        (Status::Unsolvable, Some(o)) => (
            "wrong-length".into(),
            Some(format!(
                "WRONG LENGTH {who}: unsolvable by parity, but the known optimum is {o}"
            )),
        ),
        (s, _) => (s.as_str().to_string(), None),
    }
}

struct RowWriter {
    runs: File,
    runs_path: PathBuf,
    iterations: File,
    iterations_path: PathBuf,
    summary: Summary,
}

impl RowWriter {
    /// Appends one pair: its iteration rows in one write, then its run row in one write.
    fn write(
        &mut self,
        run: &RunRecord,
        iterations: &[IterationRecord],
        problem: Option<String>,
    ) -> Result<(), RunnerError> {
        let its = csv_rows(iterations);
        self.iterations
            .write_all(&its)
            .and_then(|_| self.iterations.flush())
            .map_err(io_err(&self.iterations_path))?;
        self.runs
            .write_all(&csv_rows(std::slice::from_ref(run)))
            .and_then(|_| self.runs.flush())
            .map_err(io_err(&self.runs_path))?;
        self.summary.written += 1;
        *self
            .summary
            .by_status
            .entry(run.status.clone())
            .or_default() += 1;
        self.summary.problems.extend(problem);
        Ok(())
    }
}

/// Rows formatted as CSV lines, no header.
fn csv_rows<T: Serialize>(rows: &[T]) -> Vec<u8> {
    let mut w = csv::WriterBuilder::new()
        .has_headers(false)
        .from_writer(Vec::new());
    for r in rows {
        w.serialize(r).expect("serialising a record into memory");
    }
    w.into_inner().expect("flushing into memory")
}

fn open_append(path: &Path) -> Result<File, RunnerError> {
    OpenOptions::new()
        .append(true)
        .open(path)
        .map_err(io_err(path))
}

/// Replaces `path` atomically with a header and rows (temporary file, then rename).
fn rewrite<T: Serialize>(path: &Path, columns: &[&str], rows: &[T]) -> Result<(), RunnerError> {
    let mut text = columns.join(",").into_bytes();
    text.push(b'\n');
    text.extend(csv_rows(rows));
    let tmp = path.with_extension("csv.tmp");
    let mut f = File::create(&tmp).map_err(io_err(&tmp))?;
    f.write_all(&text)
        .and_then(|_| f.sync_all())
        .map_err(io_err(&tmp))?;
    std::fs::rename(&tmp, path).map_err(io_err(path))
}

/// Reads whole rows back from a results directory (possibly left by a killed process): a last
/// line without its newline is dropped, and so are iteration rows whose pair has no run row.
pub fn recover(
    runs_path: &Path,
    iters_path: &Path,
) -> Result<(Vec<RunRecord>, Vec<IterationRecord>), RunnerError> {
    let runs: Vec<RunRecord> = read_whole_rows(runs_path, RUN_COLUMNS)?;
    let done: HashSet<Key> = runs.iter().map(key_of).collect();
    let iterations: Vec<IterationRecord> = if iters_path.exists() {
        read_whole_rows::<IterationRecord>(iters_path, ITERATION_COLUMNS)?
            .into_iter()
            .filter(|i| {
                done.contains(&(
                    i.instance_set.clone(),
                    i.instance_id.clone(),
                    i.heuristic.clone(),
                ))
            })
            .collect()
    } else {
        Vec::new()
    };
    Ok((runs, iterations))
}

fn read_whole_rows<T: serde::de::DeserializeOwned>(
    path: &Path,
    columns: &[&str],
) -> Result<Vec<T>, RunnerError> {
    let mut bytes = std::fs::read(path).map_err(io_err(path))?;
    match bytes.iter().rposition(|&b| b == b'\n') {
        Some(end) => bytes.truncate(end + 1),
        None => bytes.clear(), // not even a whole header
    }
    if bytes.is_empty() {
        return Ok(Vec::new());
    }
    let mut reader = csv::Reader::from_reader(bytes.as_slice());
    let header = reader.headers().map_err(|source| RunnerError::Csv {
        path: path.to_path_buf(),
        source,
    })?;
    if header.iter().ne(columns.iter().copied()) {
        return Err(RunnerError::Corrupt {
            path: path.to_path_buf(),
            line: 1,
            reason: format!("expected the columns {}", columns.join(",")),
        });
    }
    reader
        .deserialize()
        .enumerate()
        .map(|(i, r)| {
            r.map_err(|e| RunnerError::Corrupt {
                path: path.to_path_buf(),
                line: i + 2,
                reason: e.to_string(),
            })
        })
        .collect()
}

/// Sorts both files into pair order (unknown pairs, from an earlier experiment resumed with
/// other settings, go last in name order) and replaces them atomically.
fn sort_results(
    runs_path: &Path,
    iters_path: &Path,
    order: &HashMap<Key, usize>,
) -> Result<(), RunnerError> {
    let (runs, iterations) = recover(runs_path, iters_path)?;
    write_sorted(runs_path, iters_path, runs, iterations, order)
}

/// Writes rows to both files (replacing them atomically) in pair order: the one definition of
/// the order of finished result files, shared by [`run`] and the merging of shards.
pub fn write_sorted(
    runs_path: &Path,
    iters_path: &Path,
    mut runs: Vec<RunRecord>,
    mut iterations: Vec<IterationRecord>,
    order: &HashMap<Key, usize>,
) -> Result<(), RunnerError> {
    let rank = |k: Key| (order.get(&k).copied().unwrap_or(usize::MAX), k);
    runs.sort_by_cached_key(|r| rank(key_of(r)));
    iterations.sort_by_cached_key(|i| {
        (
            rank((
                i.instance_set.clone(),
                i.instance_id.clone(),
                i.heuristic.clone(),
            )),
            i.iteration,
        )
    });
    rewrite(runs_path, RUN_COLUMNS, &runs)?;
    rewrite(iters_path, ITERATION_COLUMNS, &iterations)
}

fn new_meta(
    exp: &Experiment,
    pairs: usize,
    done_before: usize,
    settings: &Settings,
    previous: Option<serde_json::Value>,
) -> Meta {
    let (git_commit, git_dirty) = meta::git_state(meta::source_dir());
    let mut previous_sessions = Vec::new();
    if let Some(mut p) = previous {
        if let Some(older) = p
            .as_object_mut()
            .and_then(|o| o.remove("previous_sessions"))
            .and_then(|v| v.as_array().cloned())
        {
            previous_sessions.extend(older);
        }
        previous_sessions.push(p);
    }
    Meta {
        command_line: settings.command_line.clone(),
        tilebench_version: env!("CARGO_PKG_VERSION").to_string(),
        git_commit,
        git_dirty,
        rustc_version: meta::RUSTC_VERSION.to_string(),
        machine: meta::machine(),
        started: meta::now_rfc3339(),
        finished: None,
        state: "running".into(),
        threads: settings.threads,
        instance_sets: exp
            .sets
            .iter()
            .map(|(spec, s)| SetInfo {
                name: s.name.clone(),
                path: spec.clone(),
                size: s.size.to_string(),
                goal: s.goal.name(),
                instances: s.instances.len(),
                seed: s.header_value("seed").map(str::to_string),
                generator: s.header_value("generator").map(str::to_string),
                source: s.header_value("source").map(str::to_string),
            })
            .collect(),
        heuristics: exp.heuristics.iter().map(|h| h.to_string()).collect(),
        limits: LimitsInfo {
            node_limit: settings.node_limit,
            time_limit_seconds: settings.time_limit.map(|d| d.as_secs_f64()),
        },
        pairs,
        pairs_done_before: done_before,
        previous_sessions,
        shard: settings.shard,
    }
}

fn write_json(path: &Path, meta: &Meta) -> Result<(), RunnerError> {
    let mut text = serde_json::to_string_pretty(meta)?;
    text.push('\n');
    let tmp = path.with_extension("json.tmp");
    std::fs::write(&tmp, text).map_err(io_err(&tmp))?;
    std::fs::rename(&tmp, path).map_err(io_err(path))
}

fn progress_bar(len: u64, wanted: bool) -> ProgressBar {
    if !wanted || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::stderr());
    if let Ok(style) = ProgressStyle::with_template(
        "{elapsed_precise} [{bar:40}] {pos}/{len} pairs, ETA {eta_precise}",
    ) {
        bar.set_style(style.progress_chars("=> "));
    }
    bar
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The default experiment's files exist, parse, and name known heuristics.
    #[test]
    fn the_default_experiment_reads() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let selections: Vec<String> = DEFAULT_INSTANCES
            .iter()
            .map(|s| root.join(s).display().to_string())
            .collect();
        let heuristics = DEFAULT_HEURISTICS
            .iter()
            .map(|h| h.parse::<HeuristicName>().unwrap())
            .collect();
        let exp = Experiment::read(&selections, heuristics).unwrap();
        let pairs = all_pairs(&exp);
        assert_eq!(pairs.len(), 40 * DEFAULT_HEURISTICS.len());
        assert_eq!(exp.sets[1].1.instances[9].id, "10");
    }

    #[test]
    fn recover_drops_a_torn_last_line_and_orphan_iterations() {
        let dir = std::env::temp_dir().join(format!("tilebench-recover-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let (runs, its) = (dir.join(RUNS_FILE), dir.join(ITERATIONS_FILE));
        let row = "s,1,manhattan,solved,2,,2,1,1,2,2,0.1,20.0,,,,UL,true,1\n";
        std::fs::write(&runs, format!("{}\n{row}s,2,manh", RUN_COLUMNS.join(","))).unwrap();
        std::fs::write(
            &its,
            format!(
                "{}\ns,1,manhattan,1,2,1,2,0.1\ns,2,manhattan,1,2,1,2,0.1\n",
                ITERATION_COLUMNS.join(",")
            ),
        )
        .unwrap();
        let (r, i) = recover(&runs, &its).unwrap();
        assert_eq!(r.len(), 1);
        assert_eq!(r[0].moves, "UL");
        assert_eq!(r[0].growth_ratio, None);
        assert_eq!(i.len(), 1);
        assert_eq!(i[0].instance_id, "1");
        // A torn row in the middle is corruption, not something to skip silently.
        std::fs::write(&runs, format!("{}\ns,2,manh\n{row}", RUN_COLUMNS.join(","))).unwrap();
        assert!(matches!(
            recover(&runs, &its),
            Err(RunnerError::Corrupt { line: 2, .. })
        ));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
