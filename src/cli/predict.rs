//! `tilebench predict`: KRE's prediction of IDA*'s nodes per threshold, before any search.

use std::error::Error;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use tilebench::board::{Goal, Size};
use tilebench::experiment::provenance::comment_header;
use tilebench::heuristic::Prepared;
use tilebench::predict::{distribution_csv, parse_bounds, predict_random_starts, predictions_csv};

use super::pdb::PdbArgs;

#[derive(Args)]
pub struct PredictArgs {
    /// Board size WxH.
    #[arg(long, default_value = "4x4")]
    size: String,
    /// Goal: blank-last, blank-first (Korf's), spiral, or an explicit list of tiles.
    #[arg(long, default_value = "blank-last")]
    goal: String,
    /// Heuristic (any name `solve -H` takes).
    #[arg(long, short = 'H', default_value = "manhattan")]
    heuristic: String,
    #[command(flatten)]
    pdb: PdbArgs,
    /// Thresholds to predict, A..B.
    #[arg(long, value_name = "A..B")]
    bounds: String,
    /// Random boards sampled for the heuristic's distribution.
    #[arg(long, default_value_t = 1_000_000)]
    samples: u64,
    /// Seed of the sampled boards.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Write the predictions here (CSV) instead of to stdout.
    #[arg(long)]
    out: Option<PathBuf>,
    /// Also write the sampled distribution of h here (CSV: h, samples, fraction, cumulative).
    #[arg(long, value_name = "FILE")]
    distribution: Option<PathBuf>,
}

pub fn run(args: PredictArgs) -> Result<ExitCode, Box<dyn Error>> {
    let size = Size::parse(&args.size)?;
    let goal = Goal::parse(&args.goal, size)?;
    let bounds = parse_bounds(&args.bounds)?;
    let name = args.pdb.heuristic_name(&args.heuristic)?;
    let prepared = Prepared::new(&name, &goal, &args.pdb.options())?;
    let (rows, dist) = predict_random_starts(
        &|b| prepared.evaluate(b),
        &goal,
        bounds,
        args.samples,
        args.seed,
    )?;
    let header = comment_header(&std::env::args().collect::<Vec<_>>());
    let csv = format!("{header}{}", predictions_csv(&rows));
    match &args.out {
        Some(path) => tilebench::results::atomic::write(path, csv.as_bytes())
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?,
        None => print!("{csv}"),
    }
    if let Some(path) = &args.distribution {
        tilebench::results::atomic::write(
            path,
            format!("{header}{}", distribution_csv(&dist)).as_bytes(),
        )
        .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    eprintln!(
        "tilebench: {} on {} ({}), {} samples with seed {}",
        name,
        size,
        goal.name(),
        args.samples,
        args.seed
    );
    Ok(ExitCode::SUCCESS)
}
