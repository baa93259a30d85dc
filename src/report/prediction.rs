//! The "predicted vs measured" section (issue #17) and the report of a prediction experiment.
//!
//! A report finds predictions as files `predict-<heuristic>.csv` (written by `tilebench predict
//! -H <heuristic> --out DIR/predict-<heuristic>.csv`) in the results directory it reports on.
//! Since one `run --fixed-bound D` directory holds one bound per heuristic, an experiment over
//! several bounds is a directory holding the prediction files and one results directory per
//! (heuristic, bound) (`results/kre/manhattan-b40/`, …): `tilebench report` of such a directory
//! (no `runs.csv` of its own) writes a report of the predictions beside every fixed-bound run
//! below it, with `predicted-vs-measured.csv`.

use std::fs;
use std::path::{Path, PathBuf};

use super::model::{Block, Cell, Column, Report, Section, Table, Text};
use super::output::{formats_and_command, write_pdfs, ReportError, ReportOptions};
use crate::analysis::prediction::{
    self, heuristic_of_file, PredictedVsMeasured, PredictionRow, PREDICTION_PREFIX,
};
use crate::experiment::provenance::{written_by, written_with};
use crate::path_io::At;
use crate::results::meta::{commit_in_words, shell_line};
use crate::results::{ReadMode, Results, RUNS_FILE};

pub use super::sections::prediction::{section, PREDICTIONS_CSV};

/// The prediction files in `dir` by heuristic, sorted by file name; empty when there are none.
fn prediction_files(dir: &Path) -> Vec<(String, PathBuf)> {
    let Ok(entries) = fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut files: Vec<(String, PathBuf)> = entries
        .filter_map(Result::ok)
        .filter_map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            let h = heuristic_of_file(&name)?.to_string();
            Some((h, e.path()))
        })
        .collect();
    files.sort();
    files
}

/// The rows of each prediction file in `dir`, by heuristic (see [`prediction_files`]).
pub(crate) fn load_predictions(
    dir: &Path,
) -> Result<Vec<(String, Vec<PredictionRow>)>, ReportError> {
    prediction_files(dir)
        .into_iter()
        .map(|(h, path)| {
            let rows = crate::results::rows(&path, ReadMode::Strict).map_err(ReportError::Csv)?;
            Ok((h, rows))
        })
        .collect()
}

/// The commands that wrote the prediction files in `dir`, each with the binary and the machine
/// that ran it, from their comment headers (files written before `tilebench predict` wrote one
/// have none).
fn prediction_commands(dir: &Path) -> Vec<Text> {
    prediction_files(dir)
        .iter()
        .filter_map(|(_, path)| fs::read_to_string(path).ok())
        .filter_map(|text| {
            let command = Text::plain("").code(written_by(&text)?);
            Some(match written_with(&text) {
                Some(with) => command.p(format!(": {with}")),
                None => command,
            })
        })
        .collect()
}

/// Whether `dir` is a prediction experiment: prediction files and no `runs.csv` of its own.
pub(crate) fn is_experiment(dir: &Path) -> bool {
    !dir.join(RUNS_FILE).exists()
        && fs::read_dir(dir).is_ok_and(|entries| {
            entries
                .filter_map(Result::ok)
                .any(|e| heuristic_of_file(&e.file_name().to_string_lossy()).is_some())
        })
}

/// The section's rows for one results directory with prediction files inside it; empty when
/// there are none or nothing pairs.
pub(crate) fn rows_of(results: &Results) -> Result<Vec<PredictedVsMeasured>, ReportError> {
    let predictions = load_predictions(&results.dir)?;
    if predictions.is_empty() {
        return Ok(Vec::new());
    }
    Ok(prediction::pair(
        &predictions,
        &prediction::measured([results]),
    ))
}

/// Writes [`PREDICTIONS_CSV`] (unrounded) into `out_dir`.
pub fn write_csv(rows: &[PredictedVsMeasured], out_dir: &Path) -> Result<(), ReportError> {
    let mut w = csv::Writer::from_writer(Vec::new());
    let header = [
        "heuristic",
        "bound",
        "instances",
        "measured_mean_generated",
        "predicted_generated",
        "predicted_over_measured",
        "largest_1pct_share",
    ];
    let mut records = vec![header.map(str::to_string).to_vec()];
    for r in rows {
        records.push(vec![
            r.heuristic.clone(),
            r.bound.to_string(),
            r.instances.to_string(),
            r.measured.to_string(),
            r.predicted.to_string(),
            r.ratio().map_or(String::new(), |x| x.to_string()),
            r.largest_share.to_string(),
        ]);
    }
    for r in records {
        w.write_record(&r).expect("writing CSV into memory");
    }
    let bytes = w.into_inner().expect("flushing into memory");
    let path = out_dir.join(PREDICTIONS_CSV);
    Ok(crate::results::io::atomic_write(&path, &bytes).at(&path)?)
}

/// The report of a prediction experiment directory (see the module doc); returns the report's
/// path.
pub(crate) fn write_experiment_report(
    dir: &Path,
    out_dir: &Path,
    options: &ReportOptions,
) -> Result<PathBuf, ReportError> {
    let predictions = load_predictions(dir)?;
    let mut subdirs: Vec<PathBuf> = fs::read_dir(dir)
        .at(dir)?
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.join(RUNS_FILE).is_file())
        .collect();
    subdirs.sort();
    let all: Vec<Results> = subdirs
        .iter()
        .map(|d| Results::load(d))
        .collect::<Result<_, _>>()?;
    let rows = prediction::pair(&predictions, &prediction::measured(&all));
    let name = dir
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| dir.display().to_string());
    fs::create_dir_all(out_dir).at(out_dir)?;
    let (formats, command) = formats_and_command(options, dir, out_dir);
    let figures = crate::plot::plot_predictions(&rows, &name, out_dir)?;
    write_pdfs(&figures, out_dir, formats)?;
    let intro = vec![Text::plain("Regenerate with ")
        .code(&command)
        .p(format!(" (tilebench {}). ", env!("CARGO_PKG_VERSION")))
        .tick(format!(
            "Every figure below is computed from the prediction files \
             `{PREDICTION_PREFIX}<heuristic>.csv`"
        ))
        .p(format!(
            " in {} and the fixed-bound runs of its {} results directories (",
            dir.display(),
            all.len()
        ))
        .tick(format!(
            "`{RUNS_FILE}`, `{}`).",
            crate::results::ITERATIONS_FILE
        ))
        .into()];
    let mut setup = Section::new(1, "Setup");
    let mut t = Table::new(
        "setup",
        Text::plain("The results directories below ")
            .code(dir.display().to_string())
            .p(", each of one fixed bound per heuristic."),
        vec![
            Column::text("results"),
            Column::text("heuristic"),
            Column::text("bound"),
            Column::number("runs", None),
        ],
    );
    let mut commands = prediction_commands(dir);
    for r in &all {
        let rel = r
            .dir
            .strip_prefix(dir)
            .unwrap_or(&r.dir)
            .display()
            .to_string();
        let bounds: Vec<String> = prediction::measured([r])
            .iter()
            .map(|m| m.bound.to_string())
            .collect();
        t.row(vec![
            Cell::Code(rel.clone()),
            Cell::text(r.heuristics().join(", ")),
            Cell::text(bounds.join(", ")),
            Cell::Count(r.runs.len() as u64),
        ]);
        if let Some(m) = &r.meta {
            let commit = commit_in_words(m.git_commit.as_deref(), m.git_dirty);
            commands.push(Text::plain("").code(shell_line(&m.command_line)).p(format!(
                ": tilebench {}, commit {commit}; {}",
                m.tilebench_version,
                m.machine.in_words()
            )));
        }
    }
    setup.push(t);
    if !commands.is_empty() {
        setup.push(Text::ticked(format!(
            "The commands that wrote the predictions (from their `#` lines) and the runs (from \
             each `{}`), with the binary and the machine that ran each:",
            crate::results::META_FILE
        )));
        setup.push(Block::List(commands));
    }
    let report = Report {
        title: format!("tilebench report: {name}"),
        intro,
        sections: vec![setup, section(&rows, figures.first())],
    };
    let written = super::render::write(&report, out_dir, formats).at(out_dir)?;
    write_csv(&rows, out_dir)?;
    Ok(super::output::report_file(written, out_dir))
}
