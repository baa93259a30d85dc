//! `tilebench run`.

use std::error::Error;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use clap::Args;

use super::pdb::PdbArgs;
use tilebench::cluster::{shard_dir, ExperimentSpec, Shard};
use tilebench::runner::{
    all_pairs, run as run_experiment, Experiment, Settings, DEFAULT_HEURISTICS, DEFAULT_INSTANCES,
    DEFAULT_OUT,
};

/// The experiment's options, shared by `run` and `slurm submit`.
#[derive(Args)]
pub struct ExperimentArgs {
    /// Instance files, comma-separated; FILE:FIRST-LAST takes the FIRST-th to LAST-th instances
    /// of a file. Default: the default experiment (see README).
    #[arg(long, value_delimiter = ',', value_name = "FILE[:A-B]")]
    pub instances: Vec<String>,
    /// Heuristics, comma-separated. Default: the default experiment's.
    #[arg(long, short = 'H', value_delimiter = ',', value_name = "H")]
    pub heuristics: Vec<String>,
    /// Give up on a pair after this many seconds (status time-limit).
    #[arg(long, value_name = "SECS")]
    pub time_limit: Option<f64>,
    /// Give up on a pair after generating this many nodes (status node-limit).
    #[arg(long, value_name = "N")]
    pub node_limit: Option<u64>,
}

/// An experiment read from its options.
pub struct Chosen {
    pub exp: Experiment,
    /// No --instances given: the default experiment.
    pub default: bool,
    pub time_limit: Option<Duration>,
}

impl ExperimentArgs {
    /// Reads the instance files and parses the heuristics and limits.
    pub fn read(&self, pdb: &PdbArgs) -> Result<Chosen, Box<dyn Error>> {
        let default = self.instances.is_empty();
        let selections: Vec<String> = if default {
            DEFAULT_INSTANCES.iter().map(|s| s.to_string()).collect()
        } else {
            self.instances.clone()
        };
        let names: Vec<String> = if self.heuristics.is_empty() {
            DEFAULT_HEURISTICS.iter().map(|s| s.to_string()).collect()
        } else {
            self.heuristics.clone()
        };
        let heuristics = names
            .iter()
            .map(|n| pdb.heuristic_name(n))
            .collect::<Result<Vec<_>, _>>()?;
        let time_limit = super::time_limit(self.time_limit)?;
        let exp = Experiment::read(&selections, heuristics)?;
        Ok(Chosen {
            exp,
            default,
            time_limit,
        })
    }
}

#[derive(Args)]
pub struct RunArgs {
    #[command(flatten)]
    experiment: ExperimentArgs,
    #[command(flatten)]
    pdb: PdbArgs,
    /// Threads in the pool (default: all cores).
    #[arg(long, short = 'j')]
    jobs: Option<usize>,
    /// Results directory (default: results/default for the default experiment, otherwise
    /// results/ followed by the instance-set names joined by '+'). With --shard, the shard
    /// writes into OUT/shards/I/ (merge them with `tilebench collect OUT`).
    #[arg(long)]
    out: Option<PathBuf>,
    /// Keep the rows already in the results directory and run only the missing pairs.
    #[arg(long, conflicts_with = "overwrite")]
    resume: bool,
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
    /// Do not append the headline figures to history.csv beside the results directory.
    #[arg(long)]
    no_history: bool,
}

pub fn run(args: RunArgs) -> Result<ExitCode, Box<dyn Error>> {
    if args.jobs == Some(0) {
        return Err("--jobs must be at least 1".into());
    }
    let Chosen {
        exp,
        default,
        time_limit,
    } = args.experiment.read(&args.pdb)?;
    let out = args.out.clone().unwrap_or_else(|| {
        if default {
            PathBuf::from(DEFAULT_OUT)
        } else {
            let names: Vec<&str> = exp.sets.iter().map(|(_, s)| s.name.as_str()).collect();
            PathBuf::from("results").join(names.join("+"))
        }
    });
    let mut pairs = all_pairs(&exp);
    let mut shard_out = out.clone();
    if let Some(shard) = args.shard {
        ExperimentSpec::new(&exp, args.experiment.node_limit, time_limit, shard.count)
            .establish(&out)?;
        pairs = shard.select(&pairs);
        shard_out = shard_dir(&out, shard.index);
    }

    let cancel = Arc::new(AtomicBool::new(false));
    let flag = cancel.clone();
    ctrlc::set_handler(move || {
        if flag.swap(true, Ordering::SeqCst) {
            eprintln!("\ntilebench: interrupted twice, exiting now");
            std::process::exit(130);
        }
        eprintln!(
            "\ntilebench: interrupted; finishing the rows being written (Ctrl-C again to quit)"
        );
    })?;

    let threads = args
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let settings = Settings {
        out: shard_out.clone(),
        threads,
        node_limit: args.experiment.node_limit,
        time_limit,
        resume: args.resume,
        overwrite: args.overwrite || (default && !args.resume),
        cancel,
        progress: true,
        command_line: std::env::args().collect(),
        solver: args.pdb.options(),
        shard: args.shard,
        // results/default → results/history.csv: one history per folder of results. A shard is
        // only part of an experiment, so it has no headline figures of its own.
        history: (!args.no_history && args.shard.is_none())
            .then(|| tilebench::history::beside(&out)),
    };
    eprintln!(
        "tilebench: {} pairs ({} instance sets × {} heuristics{}) on {} threads into {}",
        pairs.len(),
        exp.sets.len(),
        exp.heuristics.len(),
        args.shard
            .map(|s| format!(", shard {s}"))
            .unwrap_or_default(),
        threads,
        shard_out.display()
    );
    let summary = run_experiment(&exp, &pairs, &settings)?;
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
    if summary.failed() {
        eprintln!("tilebench: {} PROBLEMS:", summary.problems.len());
        for p in &summary.problems {
            eprintln!("  {p}");
        }
    }
    if summary.interrupted {
        eprintln!(
            "tilebench: interrupted with {} pairs left; finish with the same command and --resume",
            summary.pairs - summary.done_before - summary.written
        );
        return Ok(ExitCode::from(130));
    }
    if (default || args.report) && args.shard.is_none() {
        let report_dir = tilebench::report::default_out_dir(&out);
        let path = tilebench::report::plot_and_report(&out, &report_dir)?;
        eprintln!("tilebench: report written to {}", path.display());
    }
    Ok(if summary.failed() {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}
