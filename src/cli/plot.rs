//! `tilebench plot`.

use std::error::Error;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use tilebench::plot::{plot_all, plot_history, PlotOptions};
use tilebench::report::default_out_dir;
use tilebench::results::Results;

#[derive(Args)]
pub struct PlotArgs {
    /// A results directory (runs.csv, iterations.csv, meta.json). May be left out with
    /// --history, to draw only the trend over commits.
    #[arg(required_unless_present = "history")]
    results_dir: Option<PathBuf>,
    /// Output directory; default reports/<name of the results directory> (reports/history for
    /// --history alone).
    #[arg(long)]
    out: Option<PathBuf>,
    #[command(flatten)]
    choices: PlotChoices,
}

/// The plot choices shared by `plot` and `report`.
#[derive(Args)]
pub(crate) struct PlotChoices {
    /// A scatter plot of heuristic A (x) against B (y); repeat for more. Default: each heuristic
    /// against manhattan.
    #[arg(long, value_name = "A,B")]
    scatter: Vec<String>,
    /// Instances for the per-iteration plots, comma-separated ids. Default: the 3 hardest
    /// solved by manhattan (or the reference heuristic), those every heuristic ran first.
    #[arg(long, value_name = "ID,ID", value_delimiter = ',')]
    instances: Vec<String>,
    /// Draw the trend over commits from this history file. Default: the one `run` appends to,
    /// when it exists: history.csv inside the results directory (`run --out DIR` writes
    /// DIR/history.csv), else beside it (results/default → results/history.csv).
    #[arg(long, value_name = "FILE", conflicts_with = "no_history")]
    history: Option<PathBuf>,
    /// Leave the trend over commits out, even when a history file is inside or beside the
    /// results directory.
    #[arg(long)]
    no_history: bool,
    /// The heuristics to draw (and report), comma-separated, in this order. Default: all, in
    /// the order of runs.csv.
    #[arg(long, value_name = "A,B,C")]
    heuristics: Vec<String>,
}

impl PlotChoices {
    pub fn options(&self) -> Result<PlotOptions, Box<dyn Error>> {
        Ok(PlotOptions {
            scatter: self
                .scatter
                .iter()
                .map(|s| PlotOptions::parse_pair(s))
                .collect::<Result<_, _>>()?,
            instances: self
                .instances
                .iter()
                .map(|s| s.trim().to_string())
                .collect(),
            history: self.history.clone(),
            no_history: self.no_history,
            // Split as `run -H` splits: a `max(…)` keeps its commas.
            heuristics: self
                .heuristics
                .iter()
                .flat_map(|s| crate::heuristic::split_names(s))
                .collect(),
        })
    }

    /// The options as they would be typed, for the regenerating command.
    pub(crate) fn as_args(&self) -> String {
        let mut s = String::new();
        for pair in &self.scatter {
            s.push_str(&format!(" --scatter {pair}"));
        }
        if !self.instances.is_empty() {
            s.push_str(&format!(" --instances {}", self.instances.join(",")));
        }
        if let Some(h) = &self.history {
            s.push_str(&format!(" --history {}", h.display()));
        }
        if self.no_history {
            s.push_str(" --no-history");
        }
        if !self.heuristics.is_empty() {
            s.push_str(&format!(" --heuristics {}", self.heuristics.join(",")));
        }
        s
    }
}

pub fn run(args: PlotArgs) -> Result<ExitCode, Box<dyn Error>> {
    let options = args.choices.options()?;
    let (figures, out) = match (&args.results_dir, &options.history) {
        (Some(dir), _) => {
            let out = args.out.unwrap_or_else(|| default_out_dir(dir));
            let results = Results::load(dir)?;
            (plot_all(&results, &out, &options)?, out)
        }
        (None, Some(history)) => {
            let out = args.out.unwrap_or_else(|| PathBuf::from("reports/history"));
            (plot_history(history, None, &[], &out)?, out)
        }
        (None, None) => return Err("give a results directory or --history FILE".into()),
    };
    for f in &figures {
        println!("{}", out.join(format!("{}.svg", f.stem)).display());
        println!("{}", out.join(format!("{}.png", f.stem)).display());
    }
    Ok(ExitCode::SUCCESS)
}
