//! `tilebench gen`.

use std::error::Error;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Args;

use tilebench::board::{Goal, Size};
use tilebench::instances::generate::{file_text, Sampling, Spec};
use tilebench::instances::InstanceSet;
use tilebench::limits;

#[derive(Args)]
pub struct GenArgs {
    /// Board size WxH, such as 4x4.
    #[arg(long)]
    size: String,
    /// How many boards.
    #[arg(long, value_parser = limits::count)]
    count: usize,
    /// Seed of the ChaCha8 stream; the same seed gives the same file on every machine.
    #[arg(long)]
    seed: u64,
    /// Goal: blank-last, blank-first (Korf's), spiral, or an explicit comma-separated list.
    #[arg(long, default_value = "blank-last")]
    goal: String,
    /// Random walks of K moves from the goal instead of uniform random solvable boards.
    #[arg(long, value_name = "K", value_parser = limits::walk_length, conflicts_with = "optimal_length")]
    walk: Option<u32>,
    /// Random walks from the goal, each stopped at the first board whose optimal length is L
    /// (checked with IDA* + linear conflict after every move; written as optimal_length). More
    /// than the size's diameter (3x3: 31, 4x4: 80) is refused; lengths near it are rare, and
    /// the walk may take very long to meet them.
    #[arg(long, value_name = "L")]
    optimal_length: Option<u32>,
    /// Output file (default: standard output); an existing file is kept unless --force.
    #[arg(long, short = 'o')]
    output: Option<PathBuf>,
    /// Replace the output file if it exists.
    #[arg(long, requires = "output")]
    force: bool,
}

pub fn run(args: GenArgs) -> Result<ExitCode, Box<dyn Error>> {
    let size = Size::parse(&args.size)?;
    if let Some(path) = args.output.as_ref().filter(|p| p.exists() && !args.force) {
        return Err(format!("{} exists; use --force to replace it", path.display()).into());
    }
    let spec = Spec {
        size,
        goal: Goal::parse(&args.goal, size)?,
        count: args.count,
        seed: args.seed,
        sampling: match (args.walk, args.optimal_length) {
            (_, Some(l)) => Sampling::Depth(l),
            (Some(k), None) => Sampling::Walk(k),
            (None, None) => Sampling::Uniform,
        },
    };
    let text = file_text(&spec)?;
    let set = InstanceSet::parse(&text, Path::new("(generated)"), "generated")?;
    let repeats = set.repeats();
    if let Some((id, earlier)) = repeats.first() {
        eprintln!(
            "tilebench: warning: {} of the {} boards repeat an earlier one (board {id} is board \
             {earlier}): this seed and sampling draw few distinct boards, and a mean over the \
             set counts a repeated board each time",
            repeats.len(),
            set.instances.len()
        );
    }
    match args.output {
        Some(path) => tilebench::results::atomic::write(&path, text.as_bytes())
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?,
        None => print!("{text}"),
    }
    Ok(ExitCode::SUCCESS)
}
