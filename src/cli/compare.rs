//! `tilebench compare`.

use std::error::Error;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use tilebench::compare::{compare_dirs, CompareOptions};
use tilebench::report::{comparison_text, write_comparison_report, Format};

#[derive(Args)]
pub struct CompareArgs {
    /// The results directory to compare against (or its runs.csv).
    base: PathBuf,
    /// The results directory being checked (or its runs.csv).
    new: PathBuf,
    /// Allowed slowdown, in percent, of each heuristic's geometric-mean time ratio new/base.
    #[arg(long, default_value_t = 10.0)]
    threshold: f64,
    /// Report node-count changes without failing (after an intended change of the search).
    #[arg(long)]
    allow_node_changes: bool,
    /// Leave runs out of the per-run time comparison when both sides took less than this many
    /// seconds (timer and start-up noise); their total still counts.
    #[arg(long, default_value_t = 0.05)]
    min_seconds: f64,
    /// Judge a heuristic's time only over at least this many runs (timed runs for the
    /// geometric mean, runs solved on both sides for the total); fewer are shown, not judged.
    #[arg(long, default_value_t = 5)]
    min_runs: usize,
    /// Also write the comparison with scatter plots (base against new, per run: nodes and
    /// seconds) into this directory as report.md, report.html and report.tex.
    #[arg(long, value_name = "OUT")]
    report: Option<PathBuf>,
    /// Formats of --report, comma-separated.
    #[arg(
        long,
        value_name = "md,html,tex",
        default_value = "md,html,tex",
        requires = "report"
    )]
    format: String,
}

/// Prints the comparison as plain text; exit 0 when nothing regressed, 1 when something did.
pub fn run(args: CompareArgs) -> Result<ExitCode, Box<dyn Error>> {
    let options = CompareOptions {
        threshold_pct: args.threshold,
        allow_node_changes: args.allow_node_changes,
        min_seconds: args.min_seconds,
        min_runs: args.min_runs,
    };
    let formats = Format::parse_list(&args.format)?;
    let comparison = compare_dirs(&args.base, &args.new, options)?;
    if let Some(out) = &args.report {
        let written = write_comparison_report(
            &comparison,
            &args.base.display().to_string(),
            &args.new.display().to_string(),
            out,
            &formats,
        )?;
        for p in written.iter().filter(|p| {
            p.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with("report."))
        }) {
            eprintln!("wrote {}", p.display());
        }
    }
    print!(
        "{}",
        comparison_text(
            &comparison,
            &args.base.display().to_string(),
            &args.new.display().to_string()
        )
    );
    Ok(ExitCode::from(u8::from(!comparison.passed())))
}
