//! `tilebench report`.

use std::error::Error;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use tilebench::report::{default_out_dir, write_report, ReportOptions};

use super::plot::PlotChoices;

#[derive(Args)]
pub struct ReportArgs {
    /// A results directory (runs.csv, iterations.csv, meta.json).
    results_dir: PathBuf,
    /// Output directory; default reports/<name of the results directory>.
    #[arg(long)]
    out: Option<PathBuf>,
    #[command(flatten)]
    choices: PlotChoices,
}

pub fn run(args: ReportArgs) -> Result<ExitCode, Box<dyn Error>> {
    let out = args
        .out
        .unwrap_or_else(|| default_out_dir(&args.results_dir));
    let options = ReportOptions {
        plot: args.choices.options()?,
        command: Some(format!(
            "tilebench report {} --out {}{}",
            args.results_dir.display(),
            out.display(),
            args.choices.as_args()
        )),
    };
    let path = write_report(&args.results_dir, &out, &options)?;
    println!("{}", path.display());
    Ok(ExitCode::SUCCESS)
}
