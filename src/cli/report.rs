//! `tilebench report`.

use std::error::Error;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use tilebench::report::{default_out_dir, write_report, Format, ReportOptions};

use super::plot::PlotChoices;

#[derive(Args)]
pub struct ReportArgs {
    /// A results directory (runs.csv, iterations.csv, meta.json).
    results_dir: PathBuf,
    /// Output directory; default reports/<name of the results directory>.
    #[arg(long)]
    out: Option<PathBuf>,
    /// Formats to write, comma-separated: md (report.md), html (report.html, self-contained),
    /// tex (report.tex, tables/*.tex and the plots as PDF).
    #[arg(long, value_name = "md,html,tex", default_value = "md,html")]
    format: String,
    /// Add a table of every run, one row per instance (collapsed in HTML).
    #[arg(long)]
    per_instance: bool,
    #[command(flatten)]
    choices: PlotChoices,
}

pub fn run(args: ReportArgs) -> Result<ExitCode, Box<dyn Error>> {
    let out = args
        .out
        .unwrap_or_else(|| default_out_dir(&args.results_dir));
    let formats = Format::parse_list(&args.format)?;
    let options = ReportOptions {
        plot: args.choices.options()?,
        command: Some(format!(
            "tilebench report {} --out {} --format {}{}{}",
            args.results_dir.display(),
            out.display(),
            formats
                .iter()
                .map(Format::to_string)
                .collect::<Vec<_>>()
                .join(","),
            if args.per_instance {
                " --per-instance"
            } else {
                ""
            },
            args.choices.as_args()
        )),
        formats: formats.clone(),
        per_instance: args.per_instance,
    };
    let path = write_report(&args.results_dir, &out, &options)?;
    // Every report file written, the first as returned (prediction reports name their own).
    println!("{}", path.display());
    for f in formats.iter().map(|f| out.join(f.file_name())) {
        if f != path && f.exists() {
            println!("{}", f.display());
        }
    }
    Ok(ExitCode::SUCCESS)
}
