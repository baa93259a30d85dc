//! The reproduction report: the [`crate::analysis`] figures of a results directory, set beside
//! published figures, written as Markdown (`report.md`, plus `summary.csv` with the same figures
//! unrounded) with the plots embedded.

pub mod format;
mod markdown;
mod outside;

use std::fs;
use std::path::{Path, PathBuf};

use thiserror::Error;

use crate::plot::{plot_all, PlotError, PlotOptions};
use crate::results::{Results, ResultsError};

use crate::analysis::summarize;

/// The report's file name inside the output directory.
pub const REPORT_FILE: &str = "report.md";
/// The summary table, unrounded, as CSV.
pub const SUMMARY_FILE: &str = "summary.csv";

/// Why a report could not be written.
#[derive(Debug, Error)]
pub enum ReportError {
    #[error(transparent)]
    Results(#[from] ResultsError),
    #[error(transparent)]
    Plot(#[from] PlotError),
    #[error(transparent)]
    Csv(crate::results::CsvError),
    #[error("{path}: {source}", path = .path.display())]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
}

/// Choices for a report.
#[derive(Debug, Clone, Default)]
pub struct ReportOptions {
    pub plot: PlotOptions,
    /// The command line that regenerates the report, printed at its top. `None`: the plain
    /// `tilebench report RESULTS --out OUT` is printed.
    pub command: Option<String>,
}

/// Where reports go by default: `reports/<name of the results directory>`.
pub fn default_out_dir(results_dir: &Path) -> PathBuf {
    let name = results_dir
        .canonicalize()
        .ok()
        .and_then(|p| p.file_name().map(|n| n.to_os_string()))
        .or_else(|| results_dir.file_name().map(|n| n.to_os_string()))
        .unwrap_or_else(|| "results".into());
    Path::new("reports").join(name)
}

/// Draws the plots and writes `report.md` and `summary.csv` into `out_dir`; returns the
/// report's path. The runner's main job calls this at its end.
pub fn plot_and_report(results_dir: &Path, out_dir: &Path) -> Result<PathBuf, ReportError> {
    write_report(results_dir, out_dir, &ReportOptions::default())
}

/// [`plot_and_report`] with options.
pub fn write_report(
    results_dir: &Path,
    out_dir: &Path,
    options: &ReportOptions,
) -> Result<PathBuf, ReportError> {
    let results = Results::load(results_dir)?;
    let figures = plot_all(&results, out_dir, &options.plot)?;
    let summaries = summarize(&results);
    let command = options.command.clone().unwrap_or_else(|| {
        format!(
            "tilebench report {} --out {}",
            results_dir.display(),
            out_dir.display()
        )
    });
    let text = markdown::render(&results, &summaries, &figures, &command);
    let report_path = out_dir.join(REPORT_FILE);
    let io = |path: &Path| {
        let path = path.to_path_buf();
        move |source| ReportError::Io { path, source }
    };
    fs::write(&report_path, text).map_err(io(&report_path))?;
    let summary_path = out_dir.join(SUMMARY_FILE);
    crate::results::io::write_rows(&summary_path, &markdown::summary_rows(&summaries))
        .map_err(ReportError::Csv)?;
    Ok(report_path)
}
