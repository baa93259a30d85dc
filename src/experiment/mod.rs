//! Experiments: every (instance, heuristic) pair of a plan run on a thread pool into a results
//! directory (`runs.csv`, `iterations.csv`, `meta.json`), each result written the moment it is
//! known, resumable after a crash or Ctrl-C, and sliceable into shards for a cluster.
//!
//! - [`plan`]: the experiment, its pairs and their order; the request read from the command line;
//! - [`execute`]: running pairs on the pool, judging each result;
//! - [`writer`]: appending whole rows, recovering after a crash, sorting;
//! - [`provenance`]: the `meta.json` of a session (build-time commit, machine, times);
//! - [`shard`]: slices of the plan, and `experiment.json` of a sharded directory;
//! - [`outside`]: outside solvers, programs run as child processes and judged;
//! - [`lock`]: one writer per results directory;
//! - [`checkpoint`]: the files from which an interrupted pair's search continues;
//! - [`cost`]: the expected cost of the pairs before they run (`tilebench plan`);
//! - [`resume`]: what must match for `--resume` to add to a results directory;
//! - [`Session`]: what `tilebench run` does, from request to summary.
//!
//! The library prints nothing: progress reaches the caller through [`Progress`].

pub mod checkpoint;
pub mod cost;
pub mod describe;
pub mod error;
pub mod execute;
pub mod lock;
pub mod outside;
pub mod plan;
pub mod progress;
pub mod provenance;
pub mod resume;
pub mod settings;
pub mod shard;
pub mod writer;

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

pub use error::ExperimentError;
pub use execute::{prepare, prepare_all, run, Summary};
pub use plan::{
    By, Chosen, Experiment, Pair, Request, DEFAULT_HEURISTICS, DEFAULT_INSTANCES, DEFAULT_OUT,
};
pub use progress::{Progress, Quiet};
pub use settings::Settings;
pub use shard::{shard_dir, EXPERIMENT_FILE, SHARDS_DIR};

use crate::pdb::CacheOptions;
use crate::results::history;
use crate::results::meta::Shard;
use crate::results::{ExperimentSpec, RunStatus};

/// The memory limit an experiment gets when none is given: none when it runs no A* or
/// breadth-first search; when resumed, the one stored with its results; else
/// [`crate::limits::default_memory_limit`] shared by `jobs` pairs.
fn default_memory_limit(
    exp: &Experiment,
    results_dir: &std::path::Path,
    jobs: usize,
    resume: bool,
) -> Option<u64> {
    use crate::search::Algorithm;
    if !exp
        .algorithms
        .iter()
        .any(|a| matches!(a, Algorithm::Astar | Algorithm::Bfs))
    {
        return None;
    }
    let meta = results_dir.join(crate::results::META_FILE);
    if resume && meta.exists() {
        return crate::results::Meta::read(&meta)
            .ok()
            .and_then(|m| m.experiment.memory_limit);
    }
    crate::limits::machine_memory().map(|m| crate::limits::default_memory_limit(m, jobs))
}

/// What `tilebench run` asks for.
#[derive(Debug, Clone)]
pub struct RunRequest {
    pub experiment: Request,
    /// Default: [`DEFAULT_OUT`] for the default experiment, else [`Experiment::default_out`].
    pub out: Option<PathBuf>,
    /// Pairs at once (pool size); default all cores divided by `search_threads`.
    pub threads: Option<usize>,
    /// Threads of each pair's search (at least 1).
    pub search_threads: usize,
    pub resume: bool,
    pub overwrite: bool,
    /// Re-run the rows with these statuses (implies `resume`).
    pub retry: Vec<RunStatus>,
    /// Run only this slice, into `OUT/shards/I/`.
    pub shard: Option<Shard>,
    /// Append the headline figures to the history ([`history::of_run`]: inside a directory
    /// given with `out`, else beside the results directory).
    pub history: bool,
    pub cache: CacheOptions,
    pub cancel: Arc<AtomicBool>,
    pub command_line: Vec<String>,
    /// Save each search's progress at most this often (`None`: no checkpoints).
    pub checkpoint_every: Option<std::time::Duration>,
    /// Run only the pairs of these instance ids now (each must be in a set).
    pub only_ids: Option<Vec<String>>,
    /// Without a memory limit in `experiment`, give A* and breadth-first search pairs the
    /// default one: [`crate::limits::DEFAULT_MEMORY_FRACTION`] of the machine's memory shared by
    /// the pairs run at once (a resumed experiment keeps the limit it was run with).
    pub default_memory_limit: bool,
}

/// A run ready to start: the experiment read, the pairs chosen, the settings decided.
#[derive(Debug)]
pub struct Session {
    pub exp: Experiment,
    pub pairs: Vec<Pair>,
    pub settings: Settings,
    /// The experiment's results directory (for a shard, the directory holding `shards/`).
    pub results_dir: PathBuf,
    /// The default experiment (`tilebench run` alone).
    pub default: bool,
    /// Held from before the first read of the results until the session is dropped.
    pub lock: lock::DirLock,
}

impl Session {
    /// Reads the experiment and decides where and how it runs; for a shard, records the
    /// experiment in (or checks it against) `OUT/experiment.json`. [`Session::run`] runs it.
    ///
    /// ```
    /// use std::sync::{atomic::AtomicBool, Arc};
    /// use tilebench::experiment::{Quiet, Request, RunRequest, Session};
    /// use tilebench::results::{Results, RunStatus};
    ///
    /// let tmp = tempfile::tempdir().unwrap();
    /// let file = tmp.path().join("two.txt");
    /// std::fs::write(
    ///     &file,
    ///     "# tilebench-instances v1\n# size: 3x3\n# goal: blank-last\n\
    ///      id\toptimal_length\ttiles\na\t2\t1 2 3 4 0 5 7 8 6\nb\t31\t8 6 7 2 5 4 3 0 1\n",
    /// )
    /// .unwrap();
    /// let out = tmp.path().join("results");
    /// let session = Session::new(RunRequest {
    ///     experiment: Request {
    ///         instances: vec![file.display().to_string()],
    ///         heuristics: vec!["manhattan".into(), "linear-conflict".into()],
    ///         ..Request::default()
    ///     },
    ///     out: Some(out.clone()),
    ///     threads: Some(1),
    ///     search_threads: 1,
    ///     resume: false,
    ///     overwrite: false,
    ///     retry: vec![],
    ///     shard: None,
    ///     history: false,
    ///     cache: Default::default(),
    ///     cancel: Arc::new(AtomicBool::new(false)),
    ///     command_line: vec![],
    ///     checkpoint_every: None,
    ///     only_ids: None,
    ///     default_memory_limit: false,
    /// })
    /// .unwrap();
    /// let summary = session.run(&Quiet).unwrap();
    /// assert_eq!((summary.pairs, summary.written), (4, 4));
    /// assert!(!summary.failed());
    /// drop(session); // releases the lock on the results directory
    ///
    /// let results = Results::load(&out).unwrap();
    /// assert!(results.runs.iter().all(|r| r.status == RunStatus::Solved));
    /// assert!(results.meta.is_some());
    /// ```
    pub fn new(request: RunRequest) -> Result<Session, ExperimentError> {
        if request.threads == Some(0) {
            return Err(ExperimentError::BadOption(
                "--jobs must be at least 1".into(),
            ));
        }
        if request.search_threads == 0 {
            return Err(ExperimentError::BadOption(
                "--search-threads must be at least 1".into(),
            ));
        }
        let chosen = request.experiment.read()?;
        // A solver that cannot start would fail every one of its pairs: refused before the
        // results directory is made.
        for solver in &chosen.exp.solvers {
            solver.command.check_startable()?;
        }
        for id in request.only_ids.iter().flatten() {
            if !chosen
                .exp
                .sets
                .iter()
                .any(|(_, s)| s.instances.iter().any(|i| &i.id == id))
            {
                return Err(ExperimentError::BadOption(format!(
                    "--only-ids: no instance has the id '{id}' in the experiment's sets"
                )));
            }
        }
        let results_dir = request.out.clone().unwrap_or_else(|| {
            if chosen.default {
                PathBuf::from(DEFAULT_OUT)
            } else {
                chosen.exp.default_out()
            }
        });
        let jobs = request.threads.unwrap_or_else(|| {
            let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
            (cores / request.search_threads.max(1)).max(1)
        });
        let resume = request.resume || !request.retry.is_empty();
        let mut chosen = chosen;
        if request.default_memory_limit && chosen.exp.limits.memory_limit.is_none() {
            chosen.exp.limits.memory_limit =
                default_memory_limit(&chosen.exp, &results_dir, jobs, resume);
        }
        let mut pairs = chosen.exp.pairs();
        let mut out = results_dir.clone();
        lock::check_not_foreign(&results_dir)?;
        if let Some(shard) = request.shard {
            ExperimentSpec::new(&chosen.exp, shard.count).establish(&results_dir)?;
            pairs = shard.select(&pairs);
            out = shard_dir(&results_dir, shard.index);
        }
        let lock = lock::DirLock::acquire(&out)?;
        let threads = crate::limits::pool_size(jobs, pairs.len());
        let settings = Settings {
            out,
            threads,
            search_threads: request.search_threads,
            resume,
            retry: request.retry,
            overwrite: request.overwrite || (chosen.default && !resume),
            cancel: request.cancel,
            command_line: request.command_line,
            cache: request.cache,
            checkpoint_every: request.checkpoint_every,
            only_ids: request.only_ids,
            // results/default → results/history.csv: one history per folder of results; with
            // --out, inside the directory asked for. A shard is only part of an experiment, so
            // it has no headline figures of its own.
            history: (request.history && request.shard.is_none())
                .then(|| history::of_run(&results_dir, request.out.is_some())),
            shard: request.shard,
        };
        Ok(Session {
            exp: chosen.exp,
            pairs,
            settings,
            results_dir,
            default: chosen.default,
            lock,
        })
    }

    /// One line saying what will run where.
    pub fn describe(&self) -> String {
        use crate::report::format::count;
        let mut runs = Vec::new();
        if !self.exp.algorithms.is_empty() {
            let algorithms: Vec<&str> = self.exp.algorithms.iter().map(|a| a.as_str()).collect();
            runs.push(format!(
                "{} × {}",
                algorithms.join(","),
                count(self.exp.heuristics.len(), "heuristic")
            ));
        }
        if !self.exp.solvers.is_empty() {
            runs.push(count(self.exp.solvers.len(), "outside solver"));
        }
        let left_out: String = (self.exp.left_out.iter())
            .map(|l| format!("; {l}"))
            .collect();
        format!(
            "{} ({} × {}{}), {} at once on {} each, into {}{left_out}",
            count(self.pairs.len(), "pair"),
            count(self.exp.sets.len(), "instance set"),
            runs.join(" + "),
            self.settings
                .shard
                .map(|s| format!(", shard {s}"))
                .unwrap_or_default(),
            self.settings.threads,
            count(self.settings.search_threads, "search thread"),
            self.settings.out.display()
        )
    }

    /// Runs the pairs (see [`execute::run`]).
    pub fn run(&self, progress: &dyn Progress) -> Result<Summary, ExperimentError> {
        execute::run(&self.exp, &self.pairs, &self.settings, progress)
    }

    /// Whether a report follows the run: asked for, or the default experiment; never for a
    /// shard (it is only part of the results).
    pub(crate) fn wants_report(&self, asked: bool) -> bool {
        (self.default || asked) && self.settings.shard.is_none()
    }
}
