//! Which plots a report shows: by default the few that carry the comparison, on request every
//! plot (`--plots all`) or the kinds named (`--plots nodes-per-instance,iterations`).

use std::collections::BTreeSet;
use std::path::Path;

use crate::plot::{Figure, PlotKind};
use crate::results::{Results, RunStatus};

/// In an experiment that compares algorithms (many small sets, one per solution length), the
/// per-set plots of sets with fewer solved instances than this are left out of the default
/// selection: the optimization-path plots, across sets, carry the comparison.
pub const MIN_INSTANCES: usize = 5;
/// Otherwise a per-set plot needs at least this many solved instances (one point shows nothing).
pub const MIN_INSTANCES_ALONE: usize = 2;

/// At most this many plots in the default selection.
pub const MAX_DEFAULT: usize = 20;

/// The plots asked for.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum PlotSelection {
    /// The plots that carry the comparison (see [`select`]).
    #[default]
    Default,
    /// Every plot drawn.
    All,
    /// The plots of these kinds.
    Kinds(Vec<PlotKind>),
}

impl PlotSelection {
    /// Reads `default`, `all` or a comma-separated list of kinds ([`PlotKind::name`]).
    pub fn parse(text: &str) -> Result<PlotSelection, String> {
        match text.trim() {
            "" | "default" => Ok(PlotSelection::Default),
            "all" => Ok(PlotSelection::All),
            list => list
                .split(',')
                .map(|k| k.trim().parse::<PlotKind>().map_err(|e| e.to_string()))
                .collect::<Result<Vec<_>, _>>()
                .map(PlotSelection::Kinds),
        }
    }
}

/// Every kind of plot, as `--plots` names them.
pub fn kind_names() -> String {
    let names: Vec<&str> = PlotKind::REPORT.iter().map(|k| k.name()).collect();
    names.join(", ")
}

/// The plots to show. The default leaves out per-set plots of sets with fewer than
/// [`MIN_INSTANCES_ALONE`] solved instances; in an experiment that compares algorithms, also
/// the per-set scatter plots of each pair of methods (the optimization-path plots carry that
/// comparison) and, of sets with fewer than [`MIN_INSTANCES`], every plot but the nodes per
/// instance; then keeps at most [`MAX_DEFAULT`].
pub fn select(results: &Results, figures: Vec<Figure>, selection: &PlotSelection) -> Vec<Figure> {
    match selection {
        PlotSelection::All => figures,
        PlotSelection::Kinds(kinds) => figures
            .into_iter()
            .filter(|f| kinds.contains(&f.kind))
            .collect(),
        PlotSelection::Default => {
            let lab = results.compares_algorithms();
            let sets: BTreeSet<String> = results.instance_sets().into_iter().collect();
            let solved = |set: &str| -> usize {
                results
                    .runs
                    .iter()
                    .filter(|r| r.instance_set == set && r.status == RunStatus::Solved)
                    .map(|r| r.instance_id.as_str())
                    .collect::<BTreeSet<_>>()
                    .len()
            };
            figures
                .into_iter()
                .filter(|f| {
                    let per_set = sets.contains(&f.instance_set) && f.history.is_none();
                    if !per_set {
                        return true;
                    }
                    let n = solved(&f.instance_set);
                    if !lab {
                        return n >= MIN_INSTANCES_ALONE;
                    }
                    // A small set of a lab still shows its methods instance by instance, in
                    // one plot; its other plots need more points.
                    match f.kind {
                        PlotKind::Scatter => false,
                        PlotKind::NodesPerInstance => n >= MIN_INSTANCES_ALONE,
                        _ => n >= MIN_INSTANCES,
                    }
                })
                .take(MAX_DEFAULT)
                .collect()
        }
    }
}

/// Removes the files of the plots not shown (`<stem>.svg`, `.png`), so that the report's folder
/// holds what the report shows.
pub fn remove_unshown(dir: &Path, drawn: &[Figure], shown: &[Figure]) {
    for f in drawn
        .iter()
        .filter(|f| !shown.iter().any(|s| s.stem == f.stem))
    {
        for ext in ["svg", "png", "pdf"] {
            let _ = std::fs::remove_file(dir.join(format!("{}.{ext}", f.stem)));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::results::RunRecord;
    use crate::search::Algorithm;

    fn fig(set: &str, kind: PlotKind, stem: &str) -> Figure {
        Figure {
            kind,
            instance_set: set.into(),
            stem: stem.into(),
            title: String::new(),
            caption: String::new(),
            history: None,
        }
    }

    #[test]
    fn kinds_are_read_by_name() {
        assert_eq!(
            PlotSelection::parse("iterations, peak-stored"),
            Ok(PlotSelection::Kinds(vec![
                PlotKind::Iterations,
                PlotKind::PeakStored
            ]))
        );
        let err = PlotSelection::parse("iterations,bogus").unwrap_err();
        assert!(
            err.contains("'bogus'") && err.contains("nodes-by-length"),
            "{err}"
        );
        assert_eq!(PlotSelection::parse("all"), Ok(PlotSelection::All));
        assert_eq!(PlotSelection::parse(""), Ok(PlotSelection::Default));
    }

    /// A lab experiment with a 1-, a 3- and a 6-instance set: the default keeps the
    /// optimization-path plot, the large set's plots but no scatter, and of the small set only
    /// its nodes per instance; `all` keeps everything.
    #[test]
    fn the_default_leaves_out_plots_of_too_few_points() {
        let mut runs = Vec::new();
        for (set, n) in [("one", 1), ("small", 3), ("large", 6)] {
            for i in 0..n {
                for algorithm in [Algorithm::Astar, Algorithm::Ida] {
                    runs.push(RunRecord {
                        instance_set: set.into(),
                        instance_id: i.to_string(),
                        algorithm,
                        heuristic: "manhattan".into(),
                        status: RunStatus::Solved,
                        ..RunRecord::default()
                    });
                }
            }
        }
        let results = Results {
            dir: "r".into(),
            runs,
            iterations: vec![],
            meta: None,
        };
        let figures = vec![
            fig(
                "optimization-path",
                PlotKind::NodesByLength,
                "optimization-path-nodes-by-length",
            ),
            fig("one", PlotKind::NodesPerInstance, "one-nodes-per-instance"),
            fig(
                "small",
                PlotKind::NodesPerInstance,
                "small-nodes-per-instance",
            ),
            fig("small", PlotKind::Iterations, "small-iterations"),
            fig(
                "large",
                PlotKind::NodesPerInstance,
                "large-nodes-per-instance",
            ),
            fig("large", PlotKind::Iterations, "large-iterations"),
            fig(
                "large",
                PlotKind::Scatter,
                "large-scatter-manhattan-vs-astar_manhattan",
            ),
        ];
        let shown: Vec<String> = select(&results, figures.clone(), &PlotSelection::Default)
            .into_iter()
            .map(|f| f.stem)
            .collect();
        assert_eq!(
            shown,
            [
                "optimization-path-nodes-by-length",
                "small-nodes-per-instance",
                "large-nodes-per-instance",
                "large-iterations"
            ]
        );
        assert_eq!(select(&results, figures, &PlotSelection::All).len(), 7);
    }
}
