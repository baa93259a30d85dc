//! Builds the [`Report`] model of a results directory: the sections (one file each under
//! `sections/`, every one a pure function of the stored results) in the order a reader needs
//! them, a lab experiment's optimization path first, and the figures placed in their sections.

use std::collections::BTreeSet;

use super::drawn::figure;
use super::model::{Report, Text};
use super::sections::{
    definitions::definitions,
    korf_felner::korf_felner,
    outside::outside_solvers,
    per_instance::per_instance,
    plots::{history_section, plots_section},
    published::{beside_later_work_section, beside_published},
    setup::{setup, Beside},
    summary::summary_section,
};
use crate::analysis::per_instance;
use crate::analysis::published::KORF100_SET;
use crate::analysis::Summary;
use crate::plot::Figure;
use crate::results::{Results, ITERATIONS_FILE, RUNS_FILE};

/// What goes into the report besides the results themselves.
#[derive(Debug, Clone, Default)]
pub struct Contents {
    /// The command line that regenerates the report.
    pub command: String,
    /// Add a table of every run, one row per instance (collapsed in HTML).
    pub per_instance: bool,
    /// Predictions beside fixed-bound runs (see [`super::prediction`]); empty: no section.
    pub predicted: Vec<crate::analysis::prediction::PredictedVsMeasured>,
    /// Plots drawn but not shown (the default selection), which `--plots all` shows: each
    /// set's summary says which of its plots and why, Plots counts them all.
    pub left_out: Vec<super::selection::Omitted>,
    /// The results directories whose runs were added to the reported one's (`--beside`).
    pub beside: Vec<Beside>,
}

/// The whole report of `results`.
pub fn build(
    results: &Results,
    summaries: &[Summary],
    figures: &[Figure],
    contents: &Contents,
) -> Report {
    let name = results
        .dir
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| results.dir.display().to_string());
    let beside: String = contents
        .beside
        .iter()
        .filter_map(|b| b.dir.file_name())
        .map(|n| format!(", with {} beside", n.to_string_lossy()))
        .collect();
    let (mut runs, mut iterations) = (results.runs.len(), results.iterations.len());
    for b in &contents.beside {
        (runs, iterations) = (runs - b.runs, iterations - b.iterations);
    }
    let files = |text: Text, runs: usize, iterations: usize, dir: &std::path::Path| {
        text.tick(format!(
            "`{RUNS_FILE}` ({runs} rows) and `{ITERATIONS_FILE}` ({iterations} rows) in "
        ))
        .code(dir.display().to_string())
    };
    let mut text = Text::plain("Regenerate with ")
        .code(&contents.command)
        .p(format!(" (tilebench {}). ", env!("CARGO_PKG_VERSION")))
        .p("Every figure below is computed from ");
    text = files(text, runs, iterations, &results.dir);
    for b in &contents.beside {
        text = files(text.p(", with beside them "), b.runs, b.iterations, &b.dir);
    }
    let intro = vec![text
        .p(", by the formula stated in ")
        .link("definitions", "Definitions")
        .tick(format!(
            "; `{}` holds the summary tables as rounded here, `{}` unrounded.",
            super::output::SUMMARY_FILE,
            super::output::SUMMARY_FULL_FILE
        ))
        .into()];
    let mut sections = vec![setup(results, &contents.beside)];
    // Plots placed in a section of their own rather than under Plots.
    let mut placed: BTreeSet<String> = BTreeSet::new();
    // A lab experiment (several algorithms) leads with its core, the optimization path, its two
    // plots beside its tables rather than after every other section.
    let lab = results.compares_algorithms();
    if lab {
        if let Some(mut path) = super::sections::optimization_path::sections(results) {
            if let Some(first) = path.first_mut() {
                for f in figures.iter().filter(|f| {
                    matches!(
                        f.kind,
                        crate::plot::PlotKind::NodesByLength | crate::plot::PlotKind::PeakStored
                    )
                }) {
                    first.push(figure(f));
                    placed.insert(f.stem.clone());
                }
            }
            sections.extend(path);
        }
    }
    let pruning = (results.meta.as_ref()).map_or(Default::default(), |m| m.experiment.pruning);
    for set in results.instance_sets() {
        let rows: Vec<&Summary> = summaries.iter().filter(|s| s.instance_set == set).collect();
        if rows.is_empty() {
            continue;
        }
        let not_drawn: Vec<&super::selection::Omitted> = contents
            .left_out
            .iter()
            .filter(|o| o.instance_set == set)
            .collect();
        sections.push(summary_section(results, &set, &rows, &not_drawn));
        if set == KORF100_SET {
            sections.push(korf_felner(results, &rows));
        }
        for s in &rows {
            let Some(p) = per_instance::published_column(&set, &s.heuristic) else {
                continue;
            };
            let stem = crate::plot::published_stem(&set, &s.heuristic);
            let plot = figures.iter().find(|f| f.stem == stem);
            placed.extend(plot.map(|f| f.stem.clone()));
            sections.push(beside_published(
                p,
                per_instance::compare(results, p).as_ref(),
                plot,
                pruning,
            ));
        }
        if let Some(mut later) = beside_later_work_section(results, &set) {
            let stem = crate::plot::published_stem(&set, crate::plot::LATER_WORK);
            if let Some(f) = figures.iter().find(|f| f.stem == stem) {
                later.push(figure(f));
                placed.insert(stem);
            }
            sections.push(later);
        }
        if contents.per_instance {
            let heuristics: Vec<&str> = rows.iter().map(|s| s.heuristic.as_str()).collect();
            sections.push(per_instance(results, &set, &heuristics));
        }
    }
    if !lab {
        sections.extend(super::sections::optimization_path::pattern_databases(
            results,
        ));
    }
    sections.extend(outside_solvers(results));
    if !contents.predicted.is_empty() {
        let plot = figures
            .iter()
            .find(|f| f.kind == crate::plot::PlotKind::PredictedVsMeasured);
        placed.extend(plot.map(|f| f.stem.clone()));
        sections.push(super::sections::prediction::section(
            &contents.predicted,
            plot,
        ));
    }
    sections.push(definitions(&sections));
    let (history, plots): (Vec<&Figure>, Vec<&Figure>) = figures
        .iter()
        .filter(|f| !placed.contains(&f.stem))
        .partition(|f| f.history.is_some());
    sections.extend(plots_section(&plots, &contents.left_out, &contents.command));
    sections.extend(history_section(&history));
    Report {
        title: format!("tilebench report: {name}{beside}"),
        intro,
        sections,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plot::PlotKind;
    use crate::report::model::Block;

    /// A lab experiment's two optimization-path plots stand in its section, beside its tables;
    /// the other plots under Plots.
    #[test]
    fn optimization_path_plots_stand_in_their_section() {
        let dir =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("results/optimization-path");
        let results = Results::load(&dir).unwrap();
        let summaries = crate::analysis::summarize(&results);
        let drawn = |kind, stem: &str| Figure {
            kind,
            instance_set: "optimization-path".into(),
            stem: stem.into(),
            title: stem.into(),
            caption: String::new(),
            history: None,
            svg: String::new(),
        };
        let figures = [
            drawn(PlotKind::NodesPerInstance, "korf100-nodes-per-instance"),
            drawn(PlotKind::NodesByLength, "optimization-path-nodes-by-length"),
            drawn(PlotKind::PeakStored, "optimization-path-peak-stored"),
        ];
        let report = build(&results, &summaries, &figures, &Contents::default());
        let stems = |title: &str| -> Vec<String> {
            let s = report.sections.iter().find(|s| s.title.starts_with(title));
            s.unwrap_or_else(|| panic!("no section {title}"))
                .blocks
                .iter()
                .filter_map(|b| match b {
                    Block::Figure(f) => Some(f.stem.clone()),
                    _ => None,
                })
                .collect()
        };
        assert_eq!(
            report.sections[1].title,
            "The optimization path: BFS, A* and IDA*"
        );
        assert_eq!(
            stems("The optimization path"),
            [
                "optimization-path-nodes-by-length",
                "optimization-path-peak-stored"
            ]
        );
        assert_eq!(stems("Plots"), ["korf100-nodes-per-instance"]);
    }
}
