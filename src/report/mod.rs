//! The reproduction report: the [`crate::analysis`] figures of a results directory, set beside
//! published figures, written as Markdown (`report.md`, plus `summary.csv` with the same figures
//! unrounded) with the plots embedded.

pub mod build;
mod comparison;
pub mod format;
pub mod model;
pub mod optimization_path;
pub mod prediction;
pub mod render;
pub mod selection;
pub mod summary_csv;

use std::fs;
use std::path::{Path, PathBuf};

use thiserror::Error;

use crate::plot::{plot_all, PlotError, PlotOptions};
use crate::results::{Results, ResultsError};

use crate::analysis::{summarize, Summary};

pub use render::Format;

/// The report's file name inside the output directory.
pub const REPORT_FILE: &str = "report.md";
/// The summary tables as CSV, rounded as the report prints them.
pub const SUMMARY_FILE: &str = "summary.csv";
/// The summary tables as CSV, unrounded.
pub const SUMMARY_FULL_FILE: &str = "summary-full.csv";

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
    #[error("{path}: {message}", path = .path.display())]
    Pdf { path: PathBuf, message: String },
}

/// Choices for a report.
#[derive(Debug, Clone, Default)]
pub struct ReportOptions {
    pub plot: PlotOptions,
    /// The command line that regenerates the report, printed at its top. `None`: the plain
    /// `tilebench report RESULTS --out OUT` is printed.
    pub command: Option<String>,
    /// The formats to write; empty: [`Format::DEFAULT`].
    pub formats: Vec<Format>,
    /// Add the per-instance tables.
    pub per_instance: bool,
    /// Which plots the report shows (`--plots`).
    pub plots: selection::PlotSelection,
    /// The sections to keep, by the start of their id (`--sections`); empty: all.
    pub sections: Vec<String>,
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

/// The drawn plots with their SVG text (for inlining), each also converted to `<stem>.pdf` when
/// LaTeX is among `formats`.
fn with_svg_and_pdf(
    figures: &[crate::plot::Figure],
    out_dir: &Path,
    formats: &[Format],
) -> Result<Vec<build::DrawnFigure>, ReportError> {
    let io = |path: &Path| {
        let path = path.to_path_buf();
        move |source| ReportError::Io { path, source }
    };
    let mut drawn = Vec::new();
    for f in figures {
        let svg_path = out_dir.join(format!("{}.svg", f.stem));
        let svg = fs::read_to_string(&svg_path).map_err(io(&svg_path))?;
        if formats.contains(&Format::Latex) {
            let pdf_path = out_dir.join(format!("{}.pdf", f.stem));
            let pdf = crate::plot::pdf::svg_to_pdf(&svg).map_err(|message| ReportError::Pdf {
                path: svg_path.clone(),
                message,
            })?;
            crate::results::io::atomic_write(&pdf_path, &pdf).map_err(io(&pdf_path))?;
        }
        drawn.push(build::DrawnFigure {
            kind: f.kind,
            instance_set: f.instance_set.clone(),
            stem: f.stem.clone(),
            title: f.title.clone(),
            caption: f.caption.clone(),
            history: f.history.clone(),
            svg,
        });
    }
    Ok(drawn)
}

/// Writes the comparison of two results directories into `out_dir` in `formats` (empty: the
/// default ones), with scatter plots of per-run nodes and seconds; returns the files written.
pub fn write_comparison_report(
    comparison: &crate::compare::Comparison,
    base: &str,
    new: &str,
    out_dir: &Path,
    formats: &[Format],
) -> Result<Vec<PathBuf>, ReportError> {
    let formats: &[Format] = if formats.is_empty() {
        &Format::DEFAULT
    } else {
        formats
    };
    let figures = crate::plot::plot_comparison(comparison, out_dir)?;
    let drawn = with_svg_and_pdf(&figures, out_dir, formats)?;
    let report = comparison::build(comparison, base, new, &drawn);
    render::write(&report, out_dir, formats).map_err(|source| ReportError::Io {
        path: out_dir.to_path_buf(),
        source,
    })
}

/// The comparison as Markdown without plots: what `compare` prints, the same model that
/// [`write_comparison_report`] renders.
pub fn comparison_markdown(
    comparison: &crate::compare::Comparison,
    base: &str,
    new: &str,
) -> String {
    render::markdown::render(&comparison::build(comparison, base, new, &[]))
}

/// Draws the plots and writes `report.md` and `summary.csv` into `out_dir`; returns the
/// report's path. The runner's main job calls this at its end.
pub fn plot_and_report(results_dir: &Path, out_dir: &Path) -> Result<PathBuf, ReportError> {
    write_report(results_dir, out_dir, &ReportOptions::default())
}

/// The formats to write (the default when none are chosen) and the command that regenerates
/// the report: the options' own, else the same words `tilebench report` would write, so that a
/// report written by `run` reads the same as one regenerated by hand.
pub(crate) fn formats_and_command<'a>(
    options: &'a ReportOptions,
    results_dir: &Path,
    out_dir: &Path,
) -> (&'a [Format], String) {
    let formats: &[Format] = if options.formats.is_empty() {
        &Format::DEFAULT
    } else {
        &options.formats
    };
    let command = options.command.clone().unwrap_or_else(|| {
        let names: Vec<String> = formats.iter().map(Format::to_string).collect();
        format!(
            "tilebench report {} --out {} --format {}{}",
            results_dir.display(),
            out_dir.display(),
            names.join(","),
            if options.per_instance {
                " --per-instance"
            } else {
                ""
            }
        )
    });
    (formats, command)
}

/// Keeps the sections whose id starts with one of `wanted` (with their subsections); all when
/// `wanted` is empty.
pub fn keep_sections(report: &mut model::Report, wanted: &[String]) {
    if wanted.is_empty() {
        return;
    }
    let mut keep = false;
    report.sections.retain(|s| {
        let named = wanted.iter().any(|w| s.id.starts_with(w.as_str()));
        if s.level <= 1 {
            keep = named;
        }
        keep || named
    });
}

/// [`plot_and_report`] with options.
pub fn write_report(
    results_dir: &Path,
    out_dir: &Path,
    options: &ReportOptions,
) -> Result<PathBuf, ReportError> {
    if prediction::is_experiment(results_dir) {
        return prediction::write_experiment_report(results_dir, out_dir, options);
    }
    let results = Results::load(results_dir)?;
    let mut figures = plot_all(&results, out_dir, &options.plot)?;
    let predicted = prediction::rows_of(&results)?;
    let name = results_dir
        .file_name()
        .map_or("results".into(), |n| n.to_string_lossy().into_owned());
    figures.extend(crate::plot::plot_predictions(&predicted, &name, out_dir)?);
    // Only the chosen heuristics, in the chosen order (validated by plot_all above).
    let chosen = crate::plot::chosen_heuristics(&results, &options.plot.heuristics)?;
    let mut summaries: Vec<Summary> = summarize(&results)
        .into_iter()
        .filter(|s| chosen.contains(&s.heuristic))
        .collect();
    summaries.sort_by_key(|s| chosen.iter().position(|h| *h == s.heuristic));
    // Sets keep their file order: the sort is stable and sets are contiguous.
    let order = results.instance_sets();
    summaries.sort_by_key(|s| order.iter().position(|x| *x == s.instance_set));
    let (formats, command) = formats_and_command(options, results_dir, out_dir);
    let io = |path: &Path| {
        let path = path.to_path_buf();
        move |source| ReportError::Io { path, source }
    };
    let shown = selection::select(&results, figures.clone(), &options.plots);
    selection::remove_unshown(out_dir, &figures, &shown);
    let drawn = with_svg_and_pdf(&shown, out_dir, formats)?;
    let contents = build::Contents {
        command,
        per_instance: options.per_instance,
        heuristics: chosen,
        predicted,
        plots_left_out: figures.len() - shown.len(),
    };
    let mut report = build::build(&results, &summaries, &drawn, &contents);
    keep_sections(&mut report, &options.sections);
    let written = render::write(&report, out_dir, formats).map_err(io(out_dir))?;
    if !contents.predicted.is_empty() {
        prediction::write_csv(&contents.predicted, out_dir)?;
    }
    let summary_path = out_dir.join(SUMMARY_FILE);
    summary_csv::write(&summaries, &summary_path, &out_dir.join(SUMMARY_FULL_FILE))
        .map_err(|(path, source)| ReportError::Io { path, source })?;
    let report_path = written
        .into_iter()
        .find(|p| {
            p.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with("report."))
        })
        .unwrap_or_else(|| out_dir.join(REPORT_FILE));
    Ok(report_path)
}
