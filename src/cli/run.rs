//! `tilebench run`.

use std::error::Error;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use clap::Args;

use super::pdb::PdbArgs;
use tilebench::runner::{
    all_pairs, run as run_experiment, Experiment, Settings, DEFAULT_HEURISTICS, DEFAULT_INSTANCES,
    DEFAULT_OUT,
};

#[derive(Args)]
pub struct RunArgs {
    /// Instance files, comma-separated; FILE:FIRST-LAST takes the FIRST-th to LAST-th instances
    /// of a file. Default: the default experiment (see README).
    #[arg(long, value_delimiter = ',', value_name = "FILE[:A-B]")]
    instances: Vec<String>,
    /// Heuristics, comma-separated. Default: the default experiment's.
    #[arg(long, short = 'H', value_delimiter = ',', value_name = "H")]
    heuristics: Vec<String>,
    /// Threads in the pool (default: all cores).
    #[arg(long, short = 'j')]
    jobs: Option<usize>,
    /// Results directory (default: results/default for the default experiment, otherwise
    /// results/ followed by the instance-set names joined by '+').
    #[arg(long)]
    out: Option<PathBuf>,
    /// Give up on a pair after this many seconds (status time-limit).
    #[arg(long, value_name = "SECS")]
    time_limit: Option<f64>,
    /// Give up on a pair after generating this many nodes (status node-limit).
    #[arg(long, value_name = "N")]
    node_limit: Option<u64>,
    /// Keep the rows already in the results directory and run only the missing pairs.
    #[arg(long, conflicts_with = "overwrite")]
    resume: bool,
    /// Replace earlier results in the directory (implied for the default experiment).
    #[arg(long)]
    overwrite: bool,
    /// Also draw the plots and write the report (into reports/<results dir name>) when the run
    /// completes; always done for the default experiment.
    #[arg(long)]
    report: bool,
    /// Do not append the headline figures to history.csv beside the results directory.
    #[arg(long)]
    no_history: bool,
    #[command(flatten)]
    pdb: PdbArgs,
}

pub fn run(args: RunArgs) -> Result<ExitCode, Box<dyn Error>> {
    let default = args.instances.is_empty();
    let selections: Vec<String> = if default {
        DEFAULT_INSTANCES.iter().map(|s| s.to_string()).collect()
    } else {
        args.instances.clone()
    };
    let names: Vec<String> = if args.heuristics.is_empty() {
        DEFAULT_HEURISTICS.iter().map(|s| s.to_string()).collect()
    } else {
        args.heuristics.clone()
    };
    let heuristics = names
        .iter()
        .map(|n| args.pdb.heuristic_name(n))
        .collect::<Result<Vec<_>, _>>()?;
    let time_limit = match args.time_limit {
        Some(s) if !(s.is_finite() && s > 0.0) => {
            return Err(
                format!("--time-limit must be a positive number of seconds, not {s}").into(),
            )
        }
        s => s.map(Duration::from_secs_f64),
    };
    if args.jobs == Some(0) {
        return Err("--jobs must be at least 1".into());
    }
    let exp = Experiment::read(&selections, heuristics)?;
    let out = args.out.clone().unwrap_or_else(|| {
        if default {
            PathBuf::from(DEFAULT_OUT)
        } else {
            let names: Vec<&str> = exp.sets.iter().map(|(_, s)| s.name.as_str()).collect();
            PathBuf::from("results").join(names.join("+"))
        }
    });

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
        out: out.clone(),
        threads,
        node_limit: args.node_limit,
        time_limit,
        resume: args.resume,
        overwrite: args.overwrite || (default && !args.resume),
        cancel,
        progress: true,
        command_line: std::env::args().collect(),
        solver: args.pdb.options(),
        // results/default → results/history.csv: one history per folder of results.
        history: (!args.no_history).then(|| {
            out.parent()
                .unwrap_or(std::path::Path::new("."))
                .join(tilebench::history::HISTORY_FILE)
        }),
    };
    let pairs = all_pairs(&exp);
    eprintln!(
        "tilebench: {} pairs ({} instance sets × {} heuristics) on {} threads into {}",
        pairs.len(),
        exp.sets.len(),
        exp.heuristics.len(),
        threads,
        out.display()
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
    if default || args.report {
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
