//! Running the pairs of an experiment on a pool of threads into a results directory.
//!
//! - **Resume.** A pair counts as done when its `runs.csv` row is whole; iteration rows of
//!   pairs without one are dropped, and only the missing pairs run.
//! - **Cancellation.** Setting [`Settings::cancel`] stops the running searches at their next
//!   check; cancelled pairs are not written, so a resume redoes them, from their checkpoint
//!   when [`Settings::checkpoint_every`] is set (see [`super::checkpoint`]).
//! - **Determinism.** Searches are deterministic, and a search on several threads
//!   (`search_threads`) counts exactly as on one, so node counts depend neither on the pool size
//!   nor on the search threads; when every pair is done, both CSV files are sorted into pair order.
//!
//! Each heuristic is built once per goal and shared by reference across the pool.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use super::checkpoint::{Checkpoints, PairId};
use super::describe;
use super::error::ExperimentError;
use super::outside::{self, OutsideSolver, ProcessLimits};
use super::plan::{By, Experiment, Pair};
use super::progress::Progress;
use super::provenance;
use super::resume;
use super::settings::Settings;
use super::writer::{self, Files, RowWriter};
use crate::board::Goal;
use crate::heuristic::{HeuristicName, Prepared};
use crate::instances::{Instance, InstanceSet};
use crate::moves::path_string;
use crate::path_io::At;
use crate::pdb::CacheOptions;
use crate::results::{
    history, Growth, IterationRecord, Meta, RunKey, RunRecord, RunState, RunStatus, META_FILE,
};
use crate::search::{self, Iteration, Limits, Mode, SearchError, SearchOptions, SearchResult};

/// What a run did.
#[derive(Debug, Clone, Default)]
pub struct Summary {
    pub pairs: usize,
    /// Pairs already in `runs.csv` before this run (resume).
    pub done_before: usize,
    /// Pairs this run finished and wrote.
    pub written: usize,
    /// Pairs left for another session by `--only-ids`.
    pub skipped: usize,
    /// Rows written by this run, per status.
    pub by_status: BTreeMap<RunStatus, usize>,
    /// One line per failed row (`wrong-length`, `error`, an outside solver's wrong answer):
    /// at the end of a session, every one of the directory, earlier sessions' too.
    pub problems: Vec<String>,
    pub interrupted: bool,
    pub seconds: f64,
    /// Trouble that did not stop the run (a history line not written).
    pub warnings: Vec<String>,
}

impl Summary {
    /// Whether any row is `wrong-length` or `error` (the exit status is then non-zero).
    pub fn failed(&self) -> bool {
        !self.problems.is_empty()
    }

    /// Pairs of this session neither done before nor written now.
    pub fn left(&self) -> usize {
        self.pairs - self.done_before - self.written - self.skipped
    }
}

/// Runs `pairs` (a subset of [`Experiment::pairs`]) into `settings.out`, telling `progress`
/// how it goes.
pub fn run(
    exp: &Experiment,
    pairs: &[Pair],
    settings: &Settings,
    progress: &dyn Progress,
) -> Result<Summary, ExperimentError> {
    let started = Instant::now();
    let out = &settings.out;
    std::fs::create_dir_all(out).at(out)?;
    let files = Files::in_dir(out);
    let meta_path = out.join(META_FILE);
    let checkpoints = settings
        .checkpoint_every
        .filter(|_| exp.fixed_bound.is_none())
        .map(|every| Checkpoints::in_dir(out, every));
    // `--only-ids`: the instances this session runs.
    let wanted = |id: &String| (settings.only_ids.as_ref()).is_none_or(|ids| ids.contains(id));

    // What is already done.
    let mut done: HashSet<RunKey> = HashSet::new();
    // The h0 each earlier row recorded: the heuristics of this session must give the same.
    let mut recorded_h0: HashMap<RunKey, u32> = HashMap::new();
    let mut previous_meta = None;
    let mut kept = false;
    // `--overwrite` discards what is there without reading it (it may be what is broken).
    if files.runs.exists() && (settings.resume || !settings.overwrite) {
        let (runs, iterations) = writer::recover(&files)?;
        if settings.resume {
            previous_meta = meta_path
                .exists()
                .then(|| Meta::read(&meta_path))
                .transpose()?;
            match &previous_meta {
                Some(stored) => {
                    let differences = resume::differences(stored, exp, &settings.retry);
                    if !differences.is_empty() {
                        return Err(ExperimentError::ResumeMismatch {
                            dir: out.clone(),
                            differences,
                        });
                    }
                }
                None if !runs.is_empty() => return Err(ExperimentError::NoMeta(out.clone())),
                None => {}
            }
            let run_now = |r: &RunRecord| wanted(&r.instance_id);
            let (runs, iterations) =
                resume::keep_unretried(runs, iterations, &settings.retry, run_now);
            done = runs.iter().map(RunRecord::key).collect();
            recorded_h0 = (runs.iter())
                .filter_map(|r| Some((r.key(), r.h0?)))
                .collect();
            // Every checkpoint this session will continue from is checked before the retried
            // rows are dropped: a bad one stops the run with the files as they were.
            if let Some(c) = &checkpoints {
                for p in pairs.iter().filter(|p| p.is_ida()) {
                    let key = exp.key(p);
                    if !done.contains(&key) {
                        c.load(&key, &pair_id(exp, p))?;
                    }
                }
            }
            files.reset(&runs, &iterations)?;
            kept = true;
        } else if !runs.is_empty() && !settings.overwrite {
            return Err(ExperimentError::Exists {
                dir: out.clone(),
                rows: runs.len(),
            });
        }
    }
    if !kept {
        files.reset(&[], &[])?;
    }
    if !settings.resume {
        // Progress of an experiment that is being started again from nothing.
        Checkpoints::in_dir(out, Duration::ZERO).clear()?;
    }

    let missing: Vec<Pair> = pairs
        .iter()
        .copied()
        .filter(|p| !done.contains(&exp.key(p)))
        .collect();
    let done_before = pairs.len() - missing.len();
    let chosen = |p: &Pair| wanted(&exp.sets[p.set].1.instances[p.instance].id);
    let pending: Vec<Pair> = missing.iter().copied().filter(chosen).collect();
    let skipped = missing.len() - pending.len();

    // No more threads than pairs to run: extra ones would only idle.
    let threads = crate::limits::pool_size(settings.threads, pending.len());

    // A resumed session with nothing to run adds no session: the record stays the one of the
    // sessions that ran (their setup, times and commit), and only its state is settled below.
    let (settling, previous_meta) = match pending.is_empty() {
        true => (previous_meta, None),
        false => (None, previous_meta),
    };
    let noop = settling.is_some();
    // meta.json, rewritten at the end.
    let mut meta = match settling {
        Some(recorded) => recorded,
        None => {
            let mut meta =
                describe::new_meta(exp, pairs.len(), done_before, settings, previous_meta);
            meta.threads = threads;
            meta.write(&meta_path)?;
            meta
        }
    };
    let recorded_state = meta.state;
    progress.accepted();
    let result = run_pending(
        exp,
        pairs,
        settings,
        progress,
        &files,
        checkpoints,
        &pending,
        &recorded_h0,
        (threads, done_before, skipped),
    );
    let (mut summary, all_done) = match result {
        Ok(done) => done,
        // The recorded sessions did not fail: their record stays as it was.
        Err(e) if noop => return Err(e),
        Err(e) => {
            // Not left saying `running`: the error is what stopped it.
            meta.finished = Some(provenance::now_rfc3339());
            meta.state = RunState::Failed;
            let _ = meta.write(&meta_path);
            return Err(e);
        }
    };
    summary.done_before = done_before;
    summary.skipped = skipped;
    summary.seconds = started.elapsed().as_secs_f64();
    meta.state = if noop {
        settled_state(recorded_state, all_done)
    } else {
        meta.finished = Some(provenance::now_rfc3339());
        if all_done {
            RunState::Complete
        } else if summary.interrupted {
            RunState::Interrupted
        } else {
            RunState::Incomplete
        }
    };
    meta.write(&meta_path)?;
    // A history line per experiment completed: none when an already complete record is settled.
    let completed = all_done && !(noop && recorded_state == RunState::Complete);
    if let (Some(path), true) = (&settings.history, completed) {
        // The history is a by-product: trouble with it is a warning, not a failed run.
        let appended = writer::recover(&files)
            .map_err(|e| e.to_string())
            .and_then(|(runs, _)| {
                let commit = history::commit_of(meta.git_commit.as_deref(), meta.git_dirty);
                // A killed session settled now has no end of its own: the line is dated now.
                let now = provenance::now_rfc3339();
                let date = meta.finished.as_deref().unwrap_or(&now);
                history::append(path, &history::summarise(&commit, date, &runs))
                    .map_err(|e| e.to_string())
            });
        if let Err(e) = appended {
            summary
                .warnings
                .push(format!("the history line was not written: {e}"));
        }
    }
    Ok(summary)
}

/// The state of a record that a resumed session with nothing to run settles: complete when
/// every pair has a row; otherwise a session killed (`running`) or stopped (`interrupted`) is
/// over with pairs missing (`incomplete`), and a `failed` one stays failed.
fn settled_state(recorded: RunState, all_done: bool) -> RunState {
    match recorded {
        _ if all_done => RunState::Complete,
        RunState::Failed => RunState::Failed,
        _ => RunState::Incomplete,
    }
}

/// The part of [`run`] that runs the pending pairs and sorts the files; the summary and
/// whether every pair of the experiment has a row now.
#[allow(clippy::too_many_arguments)]
fn run_pending(
    exp: &Experiment,
    pairs: &[Pair],
    settings: &Settings,
    progress: &dyn Progress,
    files: &Files,
    checkpoints: Option<Checkpoints>,
    pending: &[Pair],
    recorded_h0: &HashMap<RunKey, u32>,
    (threads, done_before, skipped): (usize, usize, usize),
) -> Result<(Summary, bool), ExperimentError> {
    let mut prepared: Vec<Prepared> = Vec::new();
    let mut index: HashMap<(usize, Goal), usize> = HashMap::new();
    for p in pending {
        let goal = &exp.sets[p.set].1.goal;
        let Some(h) = p.heuristic() else { continue };
        if let std::collections::hash_map::Entry::Vacant(slot) = index.entry((h, goal.clone())) {
            prepared.push(prepare(&exp.heuristics[h], goal, &settings.cache)?);
            slot.insert(prepared.len() - 1);
        }
    }
    // A heuristic that is not the one the earlier rows were made with (a registered heuristic
    // edited between sessions) would put two heuristics under one name: refused before any row.
    for p in pairs {
        let (Some(h), Some(&before)) = (p.heuristic(), recorded_h0.get(&exp.key(p))) else {
            continue;
        };
        let (_, set) = &exp.sets[p.set];
        let Some(&i) = index.get(&(h, set.goal.clone())) else {
            continue;
        };
        let instance = &set.instances[p.instance];
        let now = prepared[i].evaluate(&instance.board);
        if now != before {
            return Err(ExperimentError::HeuristicChanged {
                heuristic: exp.heuristics[h].to_string(),
                run: exp.key(p).to_string(),
                before,
                now,
            });
        }
    }
    let outside = OutsideRun::new(exp, settings, pending, threads)?;

    let writer = Mutex::new((RowWriter::open(files)?, Summary::default()));
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let wanted = threads * settings.search_threads;
    if wanted > cores {
        progress.oversubscribed(threads, settings.search_threads, cores);
    }
    progress.start(pending.len());
    let search = SearchOptions {
        limits: Limits {
            cancel: Some(settings.cancel.clone()),
            ..exp.limits.clone()
        },
        threads: settings.search_threads,
        pruning: exp.pruning,
        ..SearchOptions::default()
    };
    let failure: Arc<Mutex<Option<ExperimentError>>> = Arc::default();
    let fail = {
        let (failure, cancel) = (failure.clone(), settings.cancel.clone());
        Arc::new(move |e: ExperimentError| {
            cancel.store(true, Ordering::Relaxed);
            failure
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .get_or_insert(e);
        })
    };
    // Plain threads, not a rayon pool: a search on several threads runs its own rayon pool, and
    // a rayon worker waiting on another pool would start further pairs meanwhile.
    let next = AtomicUsize::new(0);
    let one = |p: &Pair| {
        if settings.cancel.load(Ordering::Relaxed) {
            return;
        }
        let (_, set) = &exp.sets[p.set];
        let key = exp.key(p);
        let mut resumes = 0;
        let rows = match p.by {
            By::Builtin { algorithm, .. } => {
                let h = p
                    .heuristic()
                    .map(|h| &prepared[index[&(h, set.goal.clone())]]);
                let mut search = search.clone();
                // Only IDA* continues from a checkpoint: A* and BFS hold their frontier in memory.
                if let Some(c) = checkpoints.as_ref().filter(|_| p.is_ida()) {
                    let pair = pair_id(exp, p);
                    let loaded = match c.load(&key, &pair) {
                        Ok(l) => l,
                        Err(e) => return fail(e),
                    };
                    resumes = loaded.as_ref().map_or(0, |l| l.resumes + 1);
                    search.checkpoint = Some(c.for_search(&key, &pair, loaded, fail.clone()));
                }
                let search = SearchOptions {
                    algorithm,
                    ..search
                };
                Ok(run_pair(exp, p, h, &search, threads))
            }
            By::Outside(s) => outside.run_pair(exp, p, &exp.solvers[s]),
        };
        let rows = rows.unwrap_or_else(|e| {
            fail(e);
            None
        });
        let Some((mut run, iterations)) = rows else {
            return; // cancelled: not written, a resume redoes it (from its checkpoint)
        };
        run.resumes = resumes;
        let problem = run.problem();
        let mut w = writer.lock().unwrap_or_else(|e| e.into_inner());
        if let Err(e) = w.0.write(&run, &iterations) {
            drop(w);
            return fail(e);
        }
        if let Some(Err(e)) = checkpoints.as_ref().map(|c| c.finished(&key, run.status)) {
            drop(w);
            return fail(e);
        }
        let summary = &mut w.1;
        summary.written += 1;
        *summary.by_status.entry(run.status).or_default() += 1;
        summary.problems.extend(problem.clone());
        drop(w);
        progress.pair_done(&run, problem.as_deref());
    };
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                while let Some(p) = pending.get(next.fetch_add(1, Ordering::Relaxed)) {
                    one(p);
                }
            });
        }
    });
    progress.finish();
    if let Some(e) = failure.lock().unwrap_or_else(|e| e.into_inner()).take() {
        return Err(e);
    }
    let mut summary = writer.into_inner().unwrap_or_else(|e| e.into_inner()).1;
    summary.pairs = pairs.len();
    summary.interrupted = summary.written + done_before + skipped < pairs.len();
    let all_done = !summary.interrupted && skipped == 0;

    if !summary.interrupted {
        let (mut runs, iterations) = writer::recover(files)?;
        // Outside answers judged before the built-in search found the optimum: judged again.
        let rejudged = crate::results::rejudge::rejudge_lengths(&mut runs);
        for _ in &rejudged {
            let solved = summary.by_status.entry(RunStatus::Solved).or_default();
            *solved = solved.saturating_sub(1);
            *summary.by_status.entry(RunStatus::WrongLength).or_default() += 1;
        }
        // The exit status is the experiment's: a resume with nothing left to run still fails
        // on the wrong rows an earlier session wrote.
        summary.problems = (runs.iter()).filter_map(RunRecord::problem).collect();
        writer::write_sorted(files, runs, iterations, &exp.order(pairs))?;
    }
    Ok((summary, all_done))
}

/// What a checkpoint of pair `p` must belong to.
fn pair_id(exp: &Experiment, p: &Pair) -> PairId {
    let (_, set) = &exp.sets[p.set];
    let key = exp.key(p);
    PairId {
        instance_set: key.instance_set,
        instance_id: key.instance_id,
        heuristic: key.method.series().to_string(),
        tiles: set.instances[p.instance].board.tiles().to_vec(),
        goal: set.goal.name(),
    }
}

/// What the outside solvers' pairs share: their limits, the log folder and the optimal
/// lengths found for `--check-optimal` (each instance solved once, whichever pair needs it).
struct OutsideRun {
    limits: ProcessLimits,
    logs: PathBuf,
    threads: usize,
    check_optimal: Option<CacheOptions>,
    reference: Vec<Vec<OnceLock<Option<usize>>>>,
}

impl OutsideRun {
    fn new(
        exp: &Experiment,
        settings: &Settings,
        pending: &[Pair],
        threads: usize,
    ) -> Result<OutsideRun, ExperimentError> {
        let logs = settings.out.join(LOGS_DIR);
        let any = pending.iter().any(|p| matches!(p.by, By::Outside(_)));
        if any {
            std::fs::create_dir_all(&logs).at(&logs)?;
        }
        Ok(OutsideRun {
            limits: ProcessLimits {
                time_limit: exp.limits.time_limit,
                memory_limit: exp.limits.memory_limit,
                cancel: Some(settings.cancel.clone()),
            },
            logs,
            threads,
            check_optimal: exp.check_optimal.then(|| settings.cache.clone()),
            reference: exp
                .sets
                .iter()
                .map(|(_, s)| s.instances.iter().map(|_| OnceLock::new()).collect())
                .collect(),
        })
    }

    /// Runs one outside solver on one instance; `None` when cancelled.
    fn run_pair(
        &self,
        exp: &Experiment,
        p: &Pair,
        solver: &OutsideSolver,
    ) -> Result<Option<PairRows>, ExperimentError> {
        let (_, set) = &exp.sets[p.set];
        let instance = &set.instances[p.instance];
        let key = exp.key(p);
        let optimal = match (instance.optimal, &self.check_optimal) {
            (Some(o), _) => Some(o as usize),
            (None, Some(cache)) => {
                let cell = &self.reference[p.set][p.instance];
                if let Some(known) = cell.get() {
                    *known
                } else {
                    let found = outside::reference_length(&instance.board, &set.goal, cache)?;
                    *cell.get_or_init(|| found)
                }
            }
            (None, None) => None,
        };
        let log = self.logs.join(log_name(&key));
        let outcome = outside::solve(
            &solver.command,
            &instance.board,
            &set.goal,
            optimal,
            &self.limits,
            Some(&log),
        )?;
        Ok(outside::rows::rows(key, &outcome, self.threads))
    }
}

/// Where an outside solver's standard error goes, inside the results directory.
pub(crate) const LOGS_DIR: &str = "logs";

/// The log file of a pair: `SET-ID-NAME.stderr`, through
/// [`crate::results::atomic::joined_name`] (file-name safe, and unique per pair).
pub(crate) fn log_name(key: &RunKey) -> String {
    format!(
        "{}.stderr",
        crate::results::atomic::joined_name(&[
            &key.instance_set,
            &key.instance_id,
            key.method.series(),
        ])
    )
}

/// A pair's run row and iteration rows (a failed row says why in `detail`:
/// [`RunRecord::problem`]).
type PairRows = (RunRecord, Vec<IterationRecord>);

/// Builds one heuristic for one goal: the one place the experiment constructs heuristics.
pub fn prepare(
    name: &HeuristicName,
    goal: &Goal,
    cache: &CacheOptions,
) -> Result<Prepared, ExperimentError> {
    Prepared::new(name, goal, cache).map_err(|source| ExperimentError::Heuristic {
        heuristic: name.to_string(),
        goal: format!("{} ({})", goal.name(), goal.size()),
        source: Box::new(source),
    })
}

/// Builds (or loads and verifies) every heuristic of `exp` for every goal of its sets, so that
/// later runs (cluster tasks) only load the tables: fails unless every pattern database is on
/// disk afterwards (one used from memory only would be missing for those runs).
pub fn prepare_all(exp: &Experiment, cache: &CacheOptions) -> Result<(), ExperimentError> {
    for h in &exp.heuristics {
        for goal in exp.goals() {
            let _held = prepare(h, &goal, cache)?;
            if let HeuristicName::Pdb(p) = h {
                let on_disk = p
                    .partition_for(&goal)
                    .and_then(|part| crate::pdb::build_all(&goal, &part, cache, false));
                on_disk.map_err(|e| ExperimentError::Heuristic {
                    heuristic: h.to_string(),
                    goal: format!("{} ({})", goal.name(), goal.size()),
                    source: Box::new(e.into()),
                })?;
            }
        }
    }
    Ok(())
}

/// Solves one pair and turns the result into rows, with a message when the row is a failure;
/// `None` when cancelled.
fn run_pair(
    exp: &Experiment,
    p: &Pair,
    h: Option<&Prepared>,
    options: &SearchOptions,
    threads: usize,
) -> Option<PairRows> {
    let (_, set) = &exp.sets[p.set];
    let instance = &set.instances[p.instance];
    let key = exp.key(p);
    // Only IDA* searches on several threads: A* and breadth-first pairs run on one (and say so).
    let threads_here = if p.is_ida() { options.threads } else { 1 };
    let options = SearchOptions {
        mode: exp.fixed_bound.map_or(Mode::Solve, Mode::FixedBound),
        threads: threads_here,
        ..options.clone()
    };
    // A panic in the search (a registered heuristic's code, say) is this pair's error row,
    // not the end of the experiment: the other pairs run and every finished row is kept.
    let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        search::solve(h, &instance.board, &set.goal, &options)
    }))
    .unwrap_or_else(|panic| Err(SearchError::Panicked(panic_message(&*panic))));
    let (status, why, outcome) = match outcome {
        Err(e) => (RunStatus::Error, Some(e.to_string()), None),
        Ok(o) if o.result.status == RunStatus::Cancelled => return None,
        Ok(o) => {
            let inadmissible = exp.heuristic(p).filter(|h| !h.admissible());
            let (status, why) = judge(&o.result, instance, set, inadmissible);
            (status, why, Some(o))
        }
    };
    let result = outcome.as_ref().map(|o| &o.result);
    let memory = outcome.as_ref().map(|o| o.memory);
    let its: &[Iteration] = result.map_or(&[], |r| &r.iterations);
    let moves = result.map_or(&[][..], |r| &r.moves[..]);
    let length = result
        .filter(|r| r.status == RunStatus::Solved)
        .map(|r| r.moves.len() as u32);
    let verified = length.is_some()
        && instance.board.replays_to(moves, &set.goal)
        && instance.optimal.is_none_or(|o| Some(o) == length);
    let growth = Growth::of(its);
    let generated = result.map_or(0, |r| r.generated());
    let seconds = result.map_or(0.0, |r| r.seconds);
    let iterations = IterationRecord::rows(&key, its);
    let run = RunRecord {
        status,
        length,
        optimal_length: instance.optimal,
        // Breadth-first search has no heuristic, so no h(start).
        h0: result
            .filter(|_| options.algorithm.uses_heuristic())
            .map(|r| r.h0),
        iterations: its.len() as u32,
        // The built-in search always knows its counts (0 when it never started).
        expanded: Some(result.map_or(0, |r| r.expanded())),
        generated: Some(generated),
        last_iteration_generated: Some(its.last().map_or(0, |i| i.generated)),
        seconds,
        nodes_per_second: (seconds > 0.0).then(|| generated as f64 / seconds),
        growth_ratio: growth.ratio,
        overhead_measured: growth.overhead_measured,
        overhead_predicted: growth.overhead_predicted,
        moves: path_string(moves),
        verified,
        threads: threads as u32,
        reopened: outcome.as_ref().map(|o| o.reopened),
        peak_stored: memory.map(|m| m.peak_stored),
        peak_bytes: memory.map(|m| m.peak_bytes),
        bytes_per_state: memory.and_then(|m| m.bytes_per_state()),
        table_bytes: memory.map(|m| m.table_bytes),
        search_threads: options.threads as u32,
        detail: why.unwrap_or_default(),
        ..RunRecord::of(&key)
    };
    Some((run, iterations))
}

/// The text a panic was raised with (`panic!("…")`'s message), or a placeholder.
fn panic_message(panic: &(dyn std::any::Any + Send)) -> String {
    (panic.downcast_ref::<&str>().map(|s| s.to_string()))
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "(no message)".to_string())
}

/// The status of a finished search, and why it is wrong when it is (a length above the
/// optimal one blamed on the `inadmissible` heuristic when there is one).
fn judge(
    r: &SearchResult,
    instance: &Instance,
    set: &InstanceSet,
    inadmissible: Option<&HeuristicName>,
) -> (RunStatus, Option<String>) {
    let line = format!("{}:{}", set.path.display(), instance.line);
    let (status, why) = match (r.status, instance.optimal) {
        (RunStatus::Solved, _) if !instance.board.replays_to(&r.moves, &set.goal) => (
            RunStatus::Error,
            "the solution does not replay to the goal".to_string(),
        ),
        // The moves replay to the goal, so an h0 above their number proves h overestimates.
        (RunStatus::Solved, _) if inadmissible.is_none() && r.h0 as usize > r.moves.len() => (
            RunStatus::WrongLength,
            format!(
                "h0 {} is above the {} moves found that reach the goal: the heuristic is not \
                 admissible, though declared so, and its lengths are not proven optimal",
                r.h0,
                r.moves.len()
            ),
        ),
        // The moves replay to the goal, so fewer than the file's length prove the file wrong.
        (RunStatus::Solved, Some(o)) if (o as usize) > r.moves.len() => (
            RunStatus::WrongLength,
            format!(
                "found {} moves that reach the goal, so the optimal length {o} that {line} gives \
                 is wrong",
                r.moves.len()
            ),
        ),
        (RunStatus::Solved, Some(o)) if o as usize != r.moves.len() => (
            RunStatus::WrongLength,
            format!(
                "found {} moves, more than the optimal length {o} that {line} gives ({})",
                r.moves.len(),
                inadmissible.map_or(
                    "the heuristic is not admissible, the search is wrong, or the file is"
                        .to_string(),
                    |h| format!("{h} is declared inadmissible: its lengths are not proven optimal")
                )
            ),
        ),
        (RunStatus::Unsolvable, Some(o)) => (
            RunStatus::WrongLength,
            format!("unsolvable by parity, but {line} gives an optimal length of {o}"),
        ),
        // run_pair returns before judging a cancelled search; should one get here, it is no
        // result, so it is recorded as one.
        (RunStatus::Cancelled, _) => (RunStatus::Error, "cancelled search judged".to_string()),
        // The search's own statuses are the rows' (solved, unsolvable, a limit, fixed-bound).
        (status, _) => return (status, None),
    };
    (status, Some(why))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_session_with_nothing_to_run_settles_the_recorded_state() {
        use RunState::*;
        for recorded in [Running, Interrupted, Incomplete, Failed, Complete] {
            assert_eq!(settled_state(recorded, true), Complete, "{recorded}");
        }
        assert_eq!(settled_state(Running, false), Incomplete);
        assert_eq!(settled_state(Interrupted, false), Incomplete);
        assert_eq!(settled_state(Failed, false), Failed);
    }

    /// A panic's message, whichever way it was raised: what a pair's error row says when a
    /// registered heuristic panics.
    #[test]
    fn a_panic_keeps_its_message() {
        let caught = |f: fn()| panic_message(&*std::panic::catch_unwind(f).unwrap_err());
        let hook = std::panic::take_hook();
        std::panic::set_hook(Box::new(|_| {}));
        assert_eq!(caught(|| panic!("boom")), "boom");
        assert_eq!(caught(|| panic!("boom {}", 2)), "boom 2");
        assert_eq!(caught(|| std::panic::panic_any(7)), "(no message)");
        std::panic::set_hook(hook);
    }

    /// A heuristic declared admissible whose h0 exceeds the length of a solution that replays to
    /// the goal overestimates: the row is wrong-length, not solved (a report would refuse it).
    #[test]
    fn an_h0_above_the_length_found_is_a_wrong_length() {
        let set = InstanceSet::parse(
            "# tilebench-instances v1\n# size: 3x3\n# goal: blank-last\nid\ttiles\n1\t1 2 3 4 5 6 0 7 8\n",
            std::path::Path::new("s.txt"),
            "s",
        )
        .unwrap();
        let instance = &set.instances[0];
        let mut result = SearchResult {
            status: RunStatus::Solved,
            moves: crate::moves::parse_path("RR").unwrap(),
            h0: 2,
            iterations: Vec::new(),
            seconds: 0.0,
        };
        assert_eq!(
            judge(&result, instance, &set, None),
            (RunStatus::Solved, None)
        );
        result.h0 = 3;
        let (status, why) = judge(&result, instance, &set, None);
        assert_eq!(status, RunStatus::WrongLength);
        assert!(why.unwrap().contains("h0 3 is above the 2 moves"));
        let declared = HeuristicName::Manhattan;
        assert_eq!(
            judge(&result, instance, &set, Some(&declared)),
            (RunStatus::Solved, None)
        );
    }
}
