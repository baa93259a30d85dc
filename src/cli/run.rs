//! `tilebench run`.

use std::error::Error;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use clap::Args;

use super::pdb::PdbArgs;
use super::progress::PairBar;
use tilebench::experiment::{Request, RunRequest, Session};
use tilebench::limits::{self, MemoryLimit};
use tilebench::results::meta::Shard;
use tilebench::results::RunStatus;
use tilebench::search::{Algorithm, Pruning};

/// The experiment's options, shared by `run` and `slurm submit`.
#[derive(Args)]
pub(crate) struct ExperimentArgs {
    /// Instance files, comma-separated; FILE:N takes the N-th instance of a file, FILE:A-B the
    /// A-th to B-th, FILE:2,4,10-12 a list of both. Default: the default experiment (see
    /// docs/experiments.md).
    #[arg(long, value_delimiter = ',', value_name = "FILE[:N,A-B,…]")]
    pub instances: Vec<String>,
    /// Heuristics, comma-separated (commas inside max(…) and before a tile number belong to the
    /// name: `-H manhattan,max(walking-distance,pdb-663r)` is two); a custom partition is
    /// pdb:1.2.3/4.5.6 (or pdb / pdbr with --partition 1,2,3/4,5,6). Default: manhattan,
    /// linear-conflict and pdb-663, each where it fits every instance set's board (pdb-663 only
    /// on 4x4; on 3x3 or 5x5 the first two). -H none goes with --algorithm bfs alone.
    #[arg(long, short = 'H', value_name = "H")]
    pub heuristics: Vec<String>,
    /// Search algorithms, comma-separated: ida (IDA*), astar (A*), bfs (breadth-first). Each
    /// of ida and astar runs with every -H heuristic; bfs takes none and runs once per instance
    /// (with ida or astar, whatever -H they run with; bfs alone takes -H none or no -H).
    /// Default: ida.
    #[arg(long, short = 'a', value_delimiter = ',', value_name = "A", value_parser = str::parse::<Algorithm>)]
    pub algorithm: Vec<Algorithm>,
    /// Stop A* or bfs on a pair before its stored states pass SIZE bytes (512M, 2G; K/M/G/T are
    /// powers of 1024), and kill an outside solver whose resident memory passes SIZE: status
    /// memory-limit. IDA* holds O(depth) bytes and ignores it. With --jobs N, up to N times
    /// SIZE is held at once. Default, when A* or bfs runs: half of this machine's memory (or of
    /// its cgroup's limit when lower) divided by --jobs (`run`; not `slurm submit`); a resumed
    /// experiment keeps its limit; none lifts it.
    #[arg(long, value_name = "SIZE|none", value_parser = limits::memory_limit)]
    pub memory_limit: Option<MemoryLimit>,
    /// Give up on a pair after this many seconds (status time-limit); above 0, at most a year.
    #[arg(long, value_name = "SECS", value_parser = limits::time_limit, allow_negative_numbers = true)]
    pub time_limit: Option<Duration>,
    /// Give up on a pair after generating this many nodes (status node-limit); at least 1.
    #[arg(long, value_name = "N", value_parser = limits::node_limit, allow_negative_numbers = true)]
    pub node_limit: Option<u64>,
    /// Also run this outside solver on every instance (docs/solver-protocol.md), repeatable.
    /// NAME labels its rows; HEURISTIC names the built-in method whose lengths and node counts
    /// the report sets beside its own, as the results label it: a heuristic (IDA* with it),
    /// astar+HEURISTIC, or bfs. Without -H and --algorithm, only the solvers run.
    #[arg(long = "solver", value_name = "NAME[:HEURISTIC]=COMMAND")]
    pub solvers: Vec<String>,
    /// Outside solvers: where the instance file gives no optimal length, find it with the
    /// built-in search and check the solver's length against it.
    #[arg(long)]
    pub check_optimal: bool,
    /// IDA*'s duplicate-path pruning: parent (never undo the last move; Korf's published counts)
    /// or fsm (Taylor & Korf's finite-state machine of short duplicate move strings: fewer
    /// nodes, same optimal lengths). Stored with the results: --resume keeps it.
    #[arg(long, default_value = "parent", value_parser = str::parse::<Pruning>)]
    pub pruning: Pruning,
}

impl ExperimentArgs {
    /// The experiment asked for, with `-H pdb`'s groups from `pdb`.
    pub fn request(&self, pdb: &PdbArgs) -> Request {
        Request {
            instances: tilebench::instances::join_selections(&self.instances),
            heuristics: self.heuristics.clone(),
            algorithms: self.algorithm.clone(),
            memory_limit: self.memory_limit.and_then(MemoryLimit::bytes),
            partition: pdb.partition.clone(),
            time_limit_seconds: self.time_limit.map(|d| d.as_secs_f64()),
            node_limit: self.node_limit,
            solvers: self.solvers.clone(),
            check_optimal: self.check_optimal,
            pruning: self.pruning,
            fixed_bound: None,
        }
    }
}

/// How often a search saves its progress; shared by `run` and `slurm submit`, whose tasks a
/// cluster's time limit cuts.
#[derive(Args)]
pub(crate) struct CheckpointArgs {
    /// Save each running search's progress (finished iterations and subtrees) into
    /// OUT/checkpoints/ at most every SECS seconds, and when it is stopped (Ctrl-C, SIGTERM as
    /// Slurm sends at a time limit); the experiment's next session (`run --resume`, or
    /// `slurm submit` again on the same OUT) continues an interrupted pair from there, and
    /// `run --resume --retry time-limit` a timed-out one. At least 0.01 s.
    #[arg(long, value_name = "SECS", default_value = "300", value_parser = limits::checkpoint_every)]
    checkpoint_every: Duration,
    /// Write no checkpoints (an interrupted pair then starts again from nothing).
    #[arg(long, conflicts_with = "checkpoint_every")]
    no_checkpoint: bool,
}

impl CheckpointArgs {
    /// The checkpoint interval, `None` for no checkpoints.
    pub fn every(&self) -> Option<Duration> {
        (!self.no_checkpoint).then_some(self.checkpoint_every)
    }
}

#[derive(Args)]
pub struct RunArgs {
    #[command(flatten)]
    experiment: ExperimentArgs,
    #[command(flatten)]
    pdb: PdbArgs,
    /// Pairs run at once, 1 to 1024 (default: the cores divided by --search-threads); never more
    /// than the pairs to run.
    #[arg(long, short = 'j', value_parser = limits::jobs)]
    jobs: Option<usize>,
    /// Threads of each IDA* pair's search (parallel IDA*, same counts as one thread); A* and bfs
    /// pairs run on one thread and their rows say search_threads 1. Keep jobs × search threads
    /// ≤ cores; see docs/experiments.md.
    #[arg(long, value_name = "N", default_value_t = 1)]
    search_threads: usize,
    /// Results directory (default: results/default for the default experiment, otherwise
    /// results/ followed by the instance-set names joined by '+'). With --shard, the shard
    /// writes into OUT/shards/I/ (merge them with `tilebench collect OUT`).
    #[arg(long)]
    out: Option<PathBuf>,
    /// Keep the rows already in the results directory and run only the missing pairs; the
    /// experiment must be the one stored there (instances, heuristics, limits).
    #[arg(long, conflicts_with = "overwrite")]
    resume: bool,
    /// With --resume (implied): also run again the pairs whose rows have these statuses, e.g.
    /// `--retry time-limit --time-limit 600` or `--retry error,wrong-length`. A changed limit is
    /// accepted only with --retry of its status.
    #[arg(
        long,
        value_delimiter = ',',
        value_name = "STATUS",
        value_parser = |s: &str| s.parse::<RunStatus>(),
        conflicts_with = "overwrite"
    )]
    retry: Vec<RunStatus>,
    /// Replace earlier results in the directory (implied for the default experiment).
    #[arg(long)]
    overwrite: bool,
    /// Run only the I-th (0-based) of N deterministic, balanced slices of the pairs.
    #[arg(long, value_name = "I/N")]
    shard: Option<Shard>,
    /// Also draw the plots and write the report (into reports/<results dir name>) when the run
    /// completes; always done for the default experiment.
    #[arg(long)]
    report: bool,
    /// Do not append the headline figures to the history: DIR/history.csv for --out DIR, else
    /// history.csv beside the results directory (results/default → results/history.csv).
    #[arg(long)]
    no_history: bool,
    /// Instead of solving, run one complete IDA* iteration with threshold D per pair, not
    /// stopping at the goal (status fixed-bound; what `tilebench predict` predicts). No history
    /// row; the limits do not apply.
    #[arg(long, value_name = "D", conflicts_with_all = ["time_limit", "node_limit"])]
    fixed_bound: Option<u32>,
    #[command(flatten)]
    checkpoint: CheckpointArgs,
    /// Run only the pairs of these instance ids in this session, e.g. the easy ones of a long
    /// campaign first; the experiment stays all of its pairs, and a later --resume runs the rest.
    #[arg(long, value_delimiter = ',', value_name = "IDS")]
    only_ids: Option<Vec<String>>,
}

pub fn run(args: RunArgs) -> Result<ExitCode, Box<dyn Error>> {
    let cancel = Arc::new(AtomicBool::new(false));
    let flag = cancel.clone();
    ctrlc::set_handler(move || {
        if flag.swap(true, Ordering::SeqCst) {
            eprintln!("\ntilebench: stopped a second time, exiting now");
            tilebench::experiment::outside::kill_running_and_exit(130);
        }
        // The same handler serves SIGINT, SIGTERM (e.g. a Slurm time limit) and SIGHUP.
        eprintln!(
            "\ntilebench: stopped by a signal (Ctrl-C, or SIGTERM/SIGHUP such as a Slurm time \
             limit); finishing the rows being written, then --resume continues (a second signal \
             exits at once)"
        );
    })?;
    let session = Session::new(RunRequest {
        experiment: Request {
            fixed_bound: args.fixed_bound,
            ..args.experiment.request(&args.pdb)
        },
        out: args.out.clone(),
        threads: args.jobs,
        search_threads: args.search_threads,
        resume: args.resume,
        overwrite: args.overwrite,
        retry: args.retry.clone(),
        shard: args.shard,
        history: !args.no_history && args.fixed_bound.is_none(),
        cache: args.pdb.options(),
        cancel,
        command_line: std::env::args().collect(),
        checkpoint_every: args.checkpoint.every(),
        only_ids: args.only_ids.clone(),
        default_memory_limit: args.experiment.memory_limit.is_none(),
    })?;
    if let Some(holder) = &session.lock.stale {
        eprintln!(
            "tilebench: {}: the previous holder of its lock ({holder}) is gone; taking it over",
            session.lock.dir().display()
        );
    }
    let mut opening = vec![session.describe()];
    opening.extend(
        session
            .exp
            .heuristics
            .iter()
            .filter(|h| !h.admissible())
            .map(|h| {
                format!("warning: {h} is declared inadmissible: its lengths are not proven optimal")
            }),
    );
    let summary = session.run(&PairBar::new(opening))?;
    let statuses: Vec<String> = summary
        .by_status
        .iter()
        .map(|(s, n)| format!("{n} {s}"))
        .collect();
    eprintln!(
        "tilebench: wrote {} of {} pairs in {:.1} s ({}){}",
        summary.written,
        summary.pairs,
        summary.seconds,
        if statuses.is_empty() {
            "none finished".to_string()
        } else {
            statuses.join(", ")
        },
        if summary.done_before > 0 {
            format!("; {} were already done", summary.done_before)
        } else {
            String::new()
        }
    );
    for w in &summary.warnings {
        eprintln!("tilebench: warning: {w}");
    }
    if summary.failed() {
        let n = summary.problems.len();
        eprintln!("tilebench: {n} PROBLEM{}:", if n == 1 { "" } else { "S" });
        for p in &summary.problems {
            eprintln!("  {p}");
        }
    }
    if summary.skipped > 0 && !summary.interrupted {
        eprintln!(
            "tilebench: {} pairs of the experiment were left out by --only-ids; run them with \
             --resume (and without --only-ids, or with their ids)",
            summary.skipped
        );
        return Ok(ExitCode::from(u8::from(summary.failed())));
    }
    if summary.interrupted {
        eprintln!(
            "tilebench: interrupted with {} pairs left; finish with the same command and --resume",
            summary.left()
        );
        return Ok(ExitCode::from(130));
    }
    if session.wants_report(args.report) {
        let report_dir = tilebench::report::default_out_dir(&session.results_dir);
        let path = tilebench::report::plot_and_report(&session.results_dir, &report_dir)?;
        eprintln!("tilebench: report written to {}", path.display());
    }
    Ok(ExitCode::from(u8::from(summary.failed())))
}
