//! The reproduction report: the [`crate::analysis`] figures of a results directory, set beside
//! published figures, written as Markdown (`report.md`, plus `summary.csv` with the same figures
//! unrounded) with the plots embedded.

pub mod build;
mod comparison;
pub mod drawn;
pub mod format;
pub mod model;
mod output;
pub mod prediction;
pub mod render;
mod sections;
pub mod selection;
pub mod summary_csv;

use std::path::{Path, PathBuf};

use crate::plot::plot_all;
use crate::results::Results;

use crate::analysis::{summarize, Summary};

use crate::path_io::{At, PathIo};
use output::{formats_and_command, write_pdfs};
pub use output::{ReportError, ReportOptions, REPORT_FILE, SUMMARY_FILE, SUMMARY_FULL_FILE};
pub use render::Format;

/// Where reports go by default: `reports/<name of the results directory>`.
pub(crate) fn default_out_dir(results_dir: &Path) -> PathBuf {
    let name = results_dir
        .canonicalize()
        .ok()
        .and_then(|p| p.file_name().map(|n| n.to_os_string()))
        .or_else(|| results_dir.file_name().map(|n| n.to_os_string()))
        .unwrap_or_else(|| "results".into());
    Path::new("reports").join(name)
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
    write_pdfs(&figures, out_dir, formats)?;
    let report = comparison::build(comparison, base, new, &figures);
    Ok(render::write(&report, out_dir, formats).at(out_dir)?)
}

/// The comparison as plain text without plots: what `compare` prints on a terminal, the same
/// model that [`write_comparison_report`] renders (its Markdown keeps the escapes a `.md` file
/// needs; the terminal gets none).
pub(crate) fn comparison_text(
    comparison: &crate::compare::Comparison,
    base: &str,
    new: &str,
) -> String {
    render::text::render(&comparison::build(comparison, base, new, &[]))
}

/// The comparison as Markdown without plots, as `--report` writes it (for tests of its
/// content).
#[cfg(test)]
pub(crate) fn comparison_markdown(
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

/// Keeps the sections whose id starts with one of `wanted` (with their subsections); all when
/// `wanted` is empty. A name that starts no section's id is refused, with the ids there are.
pub(crate) fn keep_sections(
    report: &mut model::Report,
    wanted: &[String],
) -> Result<(), ReportError> {
    if wanted.is_empty() {
        return Ok(());
    }
    let unknown: Vec<String> = (wanted.iter())
        .filter(|w| !report.sections.iter().any(|s| s.id.starts_with(w.as_str())))
        .cloned()
        .collect();
    if !unknown.is_empty() {
        return Err(ReportError::UnknownSections {
            unknown,
            known: (report.sections.iter())
                .filter(|s| s.level <= 1)
                .map(|s| s.id.clone())
                .collect(),
        });
    }
    let mut keep = false;
    report.sections.retain(|s| {
        let named = wanted.iter().any(|w| s.id.starts_with(w.as_str()));
        if s.level <= 1 {
            keep = named;
        }
        keep || named
    });
    Ok(())
}

/// [`plot_and_report`] with options.
///
/// ```
/// use std::sync::{atomic::AtomicBool, Arc};
/// use tilebench::report::{write_report, ReportOptions, REPORT_FILE};
/// # use tilebench::experiment::{Quiet, Request, RunRequest, Session};
///
/// let tmp = tempfile::tempdir().unwrap();
/// let results = tmp.path().join("results");
/// // … a results directory, here of IDA* with Manhattan distance on two 8-puzzles (see
/// // `experiment::Session::new`) …
/// # let file = tmp.path().join("two.txt");
/// # std::fs::write(
/// #     &file,
/// #     "# tilebench-instances v1\n# size: 3x3\n# goal: blank-last\n\
/// #      id\toptimal_length\ttiles\na\t2\t1 2 3 4 0 5 7 8 6\nb\t31\t8 6 7 2 5 4 3 0 1\n",
/// # )
/// # .unwrap();
/// # let request = RunRequest {
/// #     experiment: Request {
/// #         instances: vec![file.display().to_string()],
/// #         heuristics: vec!["manhattan".into()],
/// #         ..Request::default()
/// #     },
/// #     out: Some(results.clone()), threads: Some(1), search_threads: 1, resume: false,
/// #     overwrite: false, retry: vec![], shard: None, history: false, cache: Default::default(),
/// #     cancel: Arc::new(AtomicBool::new(false)), command_line: vec![],
/// #     checkpoint_every: None, only_ids: None, default_memory_limit: false,
/// # };
/// # Session::new(request).unwrap().run(&Quiet).unwrap();
/// let out = tmp.path().join("report");
/// let report = write_report(&results, &out, &ReportOptions::default()).unwrap();
/// assert_eq!(report, out.join(REPORT_FILE));
/// let text = std::fs::read_to_string(&report).unwrap();
/// assert!(text.contains("manhattan"));
/// assert!(out.join("report.html").exists());
/// ```
pub fn write_report(
    results_dir: &Path,
    out_dir: &Path,
    options: &ReportOptions,
) -> Result<PathBuf, ReportError> {
    if !options.beside.is_empty() {
        let mut dirs =
            std::iter::once(results_dir).chain(options.beside.iter().map(PathBuf::as_path));
        if let Some(dir) = dirs.find(|d| prediction::is_experiment(d)) {
            return Err(ReportError::BesidePrediction {
                path: dir.to_path_buf(),
            });
        }
    }
    if prediction::is_experiment(results_dir) {
        return prediction::write_experiment_report(results_dir, out_dir, options);
    }
    let mut results = Results::load(results_dir)?;
    let mut beside = Vec::new();
    for dir in &options.beside {
        let other = Results::load(dir)?;
        beside.push(sections::setup::Beside {
            dir: dir.clone(),
            runs: other.runs.len(),
            iterations: other.iterations.len(),
            meta: other.meta.clone(),
            search_threads: sections::setup::search_threads(&other.runs),
        });
        results.add_beside(other)?;
    }
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
    let selected = selection::select(&results, figures.clone(), &options.plots);
    selection::remove_unshown(out_dir, &order, &selected.shown);
    write_pdfs(&selected.shown, out_dir, formats)?;
    let contents = build::Contents {
        command,
        per_instance: options.per_instance,
        predicted,
        left_out: selected.left_out,
        beside,
    };
    let mut report = build::build(&results, &summaries, &selected.shown, &contents);
    report.shorten(
        &crate::plot::ShortNames::of_runs(&results.runs),
        &model::anchor(sections::setup::TITLE),
    );
    keep_sections(&mut report, &options.sections)?;
    let written = render::write(&report, out_dir, formats).at(out_dir)?;
    if !contents.predicted.is_empty() {
        prediction::write_csv(&contents.predicted, out_dir)?;
    }
    let summary_path = out_dir.join(SUMMARY_FILE);
    summary_csv::write(&summaries, &summary_path, &out_dir.join(SUMMARY_FULL_FILE))
        .map_err(|(path, source)| PathIo::new(path, source))?;
    Ok(output::report_file(written, out_dir))
}

#[cfg(test)]
mod tests {
    use super::*;
    use model::{Report, Section};

    /// `--sections` keeps the named sections with their subsections, and refuses a name that
    /// starts none, saying which there are (it wrote a report of nothing but its title).
    #[test]
    fn sections_are_kept_by_name_and_an_unknown_name_is_refused() {
        let report = Report {
            title: "r".into(),
            intro: vec![],
            sections: vec![
                Section::new(1, "Setup"),
                Section::new(1, "Summary: korf100"),
                Section::new(2, "Beside Korf (1985)"),
                Section::new(1, "Definitions"),
            ],
        };
        let mut kept = report.clone();
        keep_sections(&mut kept, &["summary".into()]).unwrap();
        let titles: Vec<&str> = kept.sections.iter().map(|s| s.title.as_str()).collect();
        assert_eq!(titles, ["Summary: korf100", "Beside Korf (1985)"]);
        let mut refused = report.clone();
        let err = keep_sections(&mut refused, &["setup".into(), "nosuch".into()]).unwrap_err();
        assert_eq!(
            err.to_string(),
            "--sections: no section starts with nosuch; this report's sections are setup, \
             summary-korf100, definitions"
        );
        assert_eq!(refused, report);
    }
}
