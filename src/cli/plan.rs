//! `tilebench plan`: what an experiment will cost before it runs.

use std::collections::HashMap;
use std::error::Error;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use tilebench::experiment::cost::{
    calibrate, cap_at_time_limit, estimate, extrapolate_costs, human_seconds, makespan,
    seconds_column, slurm_shape, stored_speeds, Source,
};
use tilebench::experiment::{prepare, Request};
use tilebench::heuristic::Prepared;
use tilebench::results::io::read_rows;
use tilebench::results::{ReadMode, RunRecord, RUNS_FILE};

use super::pdb::PdbArgs;
use super::run::ExperimentArgs;

/// How far a prediction is to be trusted (measured: docs/heuristics-and-prediction.md).
const PREDICTION_NOTE: &str = "a prediction follows the instance's own h down the tree \
    (conditional distributions over random boards, Zahavi et al. 2010); on Korf's 100 it came \
    out 2-5 times the measured nodes per instance (geometric mean; single instances from a \
    tenth to 500 times, the sums 27-42 times): a guide to the order of magnitude; \
    --extrapolate SECS follows each instance's own search instead";

#[derive(Args)]
pub struct PlanArgs {
    #[command(flatten)]
    experiment: ExperimentArgs,
    #[command(flatten)]
    pdb: PdbArgs,
    /// Cores of this machine to spread the pairs over [default: all].
    #[arg(long, value_name = "N")]
    cores: Option<usize>,
    /// Nodes per second from earlier results (median of each heuristic's IDA* rows of at least
    /// a second, per search thread) instead of a calibration search.
    #[arg(long, value_name = "DIR")]
    speed_from: Option<PathBuf>,
    /// Seconds of the calibration search per heuristic (on the pair expected to cost most).
    #[arg(long, value_name = "SECS", default_value_t = 3.0)]
    calibrate: f64,
    /// Random boards sampled for the predictions (pairs without a published count).
    #[arg(long, default_value_t = 100_000)]
    samples: u64,
    /// Instead of the prediction, search each pair without a published count for SECS seconds
    /// and carry its last iterations' growth on to the instance's optimal length (closer per
    /// instance where the search gets a few iterations done).
    #[arg(long, value_name = "SECS")]
    extrapolate: Option<f64>,
    /// Cores of the cluster: print the Slurm array's tasks, --time and --mem for it.
    #[arg(long, value_name = "N")]
    cluster_cores: Option<usize>,
    /// CPUs per Slurm task (pairs at once in a task).
    #[arg(long, value_name = "N", default_value_t = 1)]
    cpus_per_task: usize,
    /// The cluster's longest task time in hours: longer tasks are resubmitted and continue from
    /// their checkpoints.
    #[arg(long, value_name = "HOURS")]
    max_task_hours: Option<f64>,
    /// Print every pair, not only the totals.
    #[arg(long)]
    per_pair: bool,
}

pub fn run(args: PlanArgs) -> Result<ExitCode, Box<dyn Error>> {
    if args.cpus_per_task == 0 || args.cores == Some(0) || args.cluster_cores == Some(0) {
        return Err("--cores, --cluster-cores and --cpus-per-task must be at least 1".into());
    }
    for (flag, v) in [
        ("calibrate", Some(args.calibrate)),
        ("extrapolate", args.extrapolate),
    ] {
        if let Some(v) = v.filter(|v| !(*v > 0.0 && *v <= 3600.0)) {
            return Err(format!("--{flag} {v}: give seconds in (0, 3600]").into());
        }
    }
    let request: Request = args.experiment.request(&args.pdb);
    let exp = request.read()?.exp;
    let cache = args.pdb.options();
    // Every heuristic for every goal of the sets, loaded (or built) once.
    let mut prepared: HashMap<(usize, String), Prepared> = HashMap::new();
    for (hi, name) in exp.heuristics.iter().enumerate() {
        for goal in exp.goals() {
            prepared.insert((hi, goal.name()), prepare(name, &goal, &cache)?);
        }
    }
    let table_bytes: u64 = prepared.values().map(Prepared::table_bytes).sum();
    let stored = match &args.speed_from {
        Some(dir) => {
            let rows: Vec<RunRecord> = read_rows(&dir.join(RUNS_FILE), ReadMode::Strict)?
                .into_iter()
                .map(|(_, r)| r)
                .collect();
            Some(stored_speeds(&rows))
        }
        None => None,
    };
    // Nodes first (speed-free), to pick each heuristic's costliest pair for calibration.
    let table = &prepared;
    let lookup = move |hi: usize, goal: &tilebench::board::Goal| table.get(&(hi, goal.name()));
    let nodes_only = estimate(&exp, &lookup, &|_| None, args.samples)?;
    let mut speeds: HashMap<String, (f64, String)> = HashMap::new();
    for (hi, name) in exp.heuristics.iter().enumerate() {
        let label = name.to_string();
        let stored_speed = stored.as_ref().and_then(|s| s.get(&label));
        let from_stored = args.speed_from.as_ref().zip(stored_speed);
        if let Some((dir, v)) = from_stored {
            let from = format!("median per search thread of {}", dir.display());
            speeds.insert(label, (*v, from));
            continue;
        }
        // No calibration where no pair would use its speed (no count or prediction, and no
        // short search to extrapolate from).
        let costliest = nodes_only
            .iter()
            .filter(|c| c.pair.heuristic() == Some(hi))
            .filter(|c| c.nodes.is_some() || args.extrapolate.is_some())
            .max_by(|a, b| a.nodes.unwrap_or(0.0).total_cmp(&b.nodes.unwrap_or(0.0)));
        if let Some(c) = costliest {
            let (_, set) = &exp.sets[c.pair.set];
            let board = &set.instances[c.pair.instance].board;
            let h = &prepared[&(hi, set.goal.name())];
            let v = calibrate(h, board, &set.goal, args.calibrate, exp.pruning)?;
            if v <= 0.0 {
                continue; // no node in the time given: no speed, rather than a time of infinity
            }
            // Say why the stored speed was not used, where one was asked for.
            let instead = args.speed_from.as_ref().map_or(String::new(), |dir| {
                format!(
                    "; {} has no IDA* {label} row of a second or more",
                    dir.display()
                )
            });
            let from = format!(
                "a {} s calibration search of instance {}{instead}",
                args.calibrate, c.key.instance_id
            );
            speeds.insert(label, (v, from));
        }
    }
    let speed = |h: &str| speeds.get(h).map(|(v, _)| *v);
    let mut costs = estimate(&exp, &lookup, &speed, args.samples)?;
    if let Some(secs) = args.extrapolate {
        extrapolate_costs(&exp, &lookup, &speed, &mut costs, secs, exp.pruning)?;
    }
    let capped = cap_at_time_limit(&mut costs, exp.limits.time_limit);
    for (h, (v, from)) in &speeds {
        println!("speed {h}: {:.3e} nodes/s on one core ({from})", v);
    }
    if args.per_pair {
        println!("instance_set\tinstance\tmethod\tnodes\tseconds\tsource");
        for c in &costs {
            println!(
                "{}\t{}\t{}\t{}\t{}\t{}",
                c.key.instance_set,
                c.key.instance_id,
                c.key.method.label(),
                c.nodes.map_or("-".into(), |n| format!("{n:.3e}")),
                c.seconds.map_or("-".into(), seconds_column),
                c.source
            );
        }
    }
    let known: Vec<f64> = costs.iter().filter_map(|c| c.seconds).collect();
    let unknown = costs.len() - known.len();
    // A fold from +0.0: `Sum for f64` starts at -0.0, printed "-0.000e0" when no count is known.
    let nodes = costs
        .iter()
        .filter_map(|c| c.nodes)
        .fold(0.0, |sum, n| sum + n);
    let published = costs
        .iter()
        .filter(|c| matches!(c.source, Source::Published(_)))
        .count();
    let predicted = (costs.iter())
        .filter(|c| c.source == Source::Predicted)
        .count();
    let extrapolated = (costs.iter())
        .filter(|c| c.source == Source::Extrapolated)
        .count();
    let total = known.iter().fold(0.0, |sum, s| sum + s);
    let cores = args
        .cores
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let own = if args.extrapolate.is_some() {
        format!("{extrapolated} extrapolated from their own search, ")
    } else {
        String::new()
    };
    println!(
        "{} pairs: {published} with a published count, {own}{predicted} predicted, {} unknown",
        costs.len(),
        costs.iter().filter(|c| c.nodes.is_none()).count()
    );
    if known.is_empty() && nodes > 0.0 {
        println!("expected: {nodes:.3e} nodes; the time is unknown (no speed measured)");
    } else if known.is_empty() {
        println!("expected: unknown (no pair has a count or a prediction)");
    } else {
        println!(
            "expected{}: {nodes:.3e} nodes, {} of one core; on {cores} cores about {} (longest \
             pair {})",
            if unknown > 0 {
                format!(" for the {} pairs with a figure", known.len())
            } else {
                String::new()
            },
            human_seconds(total),
            human_seconds(makespan(&known, cores)),
            human_seconds(known.iter().copied().fold(0.0, f64::max))
        );
    }
    if capped > 0 {
        println!(
            "note: {capped} pair(s) expected to need more than --time-limit {} s count that \
             limit (they stop there: status time-limit)",
            exp.limits.time_limit.map_or(0.0, |d| d.as_secs_f64())
        );
    }
    if predicted > 0 {
        println!("note: {PREDICTION_NOTE}");
    }
    if !exp.pruning.is_parent() {
        println!(
            "note: published counts are for parent pruning; --pruning {} generates fewer",
            exp.pruning
        );
    }
    if let Some(cluster) = args.cluster_cores {
        let s = slurm_shape(
            &costs,
            cluster,
            args.cpus_per_task,
            table_bytes,
            args.max_task_hours.map(|h| h * 3600.0),
        );
        println!(
            "slurm: --tasks {} --cpus-per-task {} --time {} --mem {} (longest task {} expected; \
             time × 1.5 + 5 min, memory = tables {:.2} GiB + 0.5 GiB){}",
            s.tasks,
            s.cpus_per_task,
            s.time,
            s.mem,
            human_seconds(s.longest_task_seconds),
            table_bytes as f64 / (1u64 << 30) as f64,
            if s.submissions > 1 {
                format!(
                    "; {} submissions of the same command (each resumes from checkpoints)",
                    s.submissions
                )
            } else {
                String::new()
            }
        );
    }
    Ok(ExitCode::SUCCESS)
}
