//! `tilebench report`.

use std::error::Error;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use tilebench::report::selection::PlotSelection;
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
    /// The plots to show: default (the few that carry the comparison: no plot of a set with
    /// fewer than 2 solved instances, 5 when algorithms are compared, no line or boxes through
    /// one point per instance of a set with fewer than 3, no per-pair scatter when algorithms
    /// are compared, at most 20), all, or kinds, comma-separated: nodes-per-instance,
    /// nodes-distribution, iterations, overhead, seconds-vs-nodes, scatter, published, nodes-by-length, peak-stored,
    /// predicted-vs-measured, history.
    #[arg(long, value_name = "default|all|KIND,…", default_value = "default", value_parser = PlotSelection::parse)]
    plots: PlotSelection,
    /// Only these sections (and their subsections), comma-separated, by the start of their
    /// anchor: setup, the-optimization-path, summary, beside, outside, definitions, plots…
    #[arg(long, value_name = "ID,…", value_delimiter = ',')]
    sections: Vec<String>,
    /// Another results directory whose runs to set beside these (another heuristic run
    /// separately on the same instances); repeat for more. A run in both is refused, and so is
    /// a prediction experiment on either side.
    #[arg(long, value_name = "DIR")]
    beside: Vec<PathBuf>,
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
            "tilebench report {}{} --out {} --format {}{}{}{}{}",
            args.results_dir.display(),
            args.beside
                .iter()
                .map(|b| format!(" --beside {}", b.display()))
                .collect::<String>(),
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
            args.choices.as_args(),
            match &args.plots {
                PlotSelection::Default => String::new(),
                PlotSelection::All => " --plots all".to_string(),
                PlotSelection::Kinds(k) => {
                    let names: Vec<&str> = k.iter().map(|k| k.name()).collect();
                    format!(" --plots {}", names.join(","))
                }
            },
            if args.sections.is_empty() {
                String::new()
            } else {
                format!(" --sections {}", args.sections.join(","))
            }
        )),
        formats: formats.clone(),
        per_instance: args.per_instance,
        plots: args.plots,
        sections: args.sections,
        beside: args.beside,
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
