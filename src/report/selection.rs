//! Which plots a report shows: by default the few that carry the comparison, on request every
//! plot (`--plots all`) or the kinds named (`--plots nodes-per-instance,iterations`).

use std::collections::BTreeSet;
use std::path::Path;

use crate::plot::{Figure, PlotKind};
use crate::results::{Results, RunStatus};

/// In an experiment that compares algorithms (many small sets, one per solution length), the
/// per-set plots of sets with fewer solved instances than this are left out of the default
/// selection (but for the nodes per instance, see [`MIN_PER_INSTANCE`]): the
/// optimization-path plots, across sets, carry the comparison.
pub const MIN_INSTANCES: usize = 5;
/// Otherwise a per-set plot needs at least this many solved instances (one point shows nothing).
pub const MIN_INSTANCES_ALONE: usize = 2;
/// A plot of one point per solved instance whose points are read together
/// ([`PlotKind::reads_points_together`]) needs at least this many: two points draw one segment,
/// which says no more than the summary table's two rows; three show an order.
pub const MIN_PER_INSTANCE: usize = 3;

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

/// Why the default selection left a plot out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LeftOut {
    /// Its set has `solved` solved instances, fewer than the `needed` the plot needs.
    TooFew { solved: usize, needed: usize },
    /// The scatter plot of a pair of methods, in an experiment that compares algorithms.
    PairScatter,
    /// Past the first [`MAX_DEFAULT`] plots.
    PastLimit,
}

/// A plot the selection left out, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Omitted {
    pub kind: PlotKind,
    /// The figure's file name without extension.
    pub stem: String,
    pub instance_set: String,
    pub why: LeftOut,
}

/// The plots a selection shows and those it left out.
#[derive(Debug, Clone, Default)]
pub struct Selected {
    pub shown: Vec<Figure>,
    pub left_out: Vec<Omitted>,
}

/// The solved instances a per-set plot of `kind` needs in the default selection: a plot whose
/// points are read together at least [`MIN_PER_INSTANCE`]; in an experiment that compares algorithms
/// every other per-set plot [`MIN_INSTANCES`] (the nodes per instance still shows a small set's
/// methods instance by instance), otherwise [`MIN_INSTANCES_ALONE`].
pub fn needed(kind: PlotKind, lab: bool) -> usize {
    let floor = if lab && kind != PlotKind::NodesPerInstance {
        MIN_INSTANCES
    } else {
        MIN_INSTANCES_ALONE
    };
    if kind.reads_points_together() {
        floor.max(MIN_PER_INSTANCE)
    } else {
        floor
    }
}

/// The plots to show. The default leaves out per-set plots of sets with fewer solved instances
/// than [`needed`], in an experiment that compares algorithms the per-set scatter plots of each
/// pair of methods (the optimization-path plots carry that comparison), then keeps at most
/// [`MAX_DEFAULT`]; `all` and named kinds leave out nothing asked for.
pub fn select(results: &Results, figures: Vec<Figure>, selection: &PlotSelection) -> Selected {
    match selection {
        PlotSelection::All => Selected {
            shown: figures,
            left_out: vec![],
        },
        PlotSelection::Kinds(kinds) => Selected {
            shown: figures
                .into_iter()
                .filter(|f| kinds.contains(&f.kind))
                .collect(),
            left_out: vec![],
        },
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
            let why = |f: &Figure| -> Option<LeftOut> {
                if !sets.contains(&f.instance_set) || f.history.is_some() {
                    return None;
                }
                if lab && f.kind == PlotKind::Scatter {
                    return Some(LeftOut::PairScatter);
                }
                let (solved, needed) = (solved(&f.instance_set), needed(f.kind, lab));
                (solved < needed).then_some(LeftOut::TooFew { solved, needed })
            };
            let mut out = Selected::default();
            for f in figures {
                let why = why(&f)
                    .or_else(|| (out.shown.len() >= MAX_DEFAULT).then_some(LeftOut::PastLimit));
                match why {
                    None => out.shown.push(f),
                    Some(why) => out.left_out.push(Omitted {
                        kind: f.kind,
                        stem: f.stem,
                        instance_set: f.instance_set,
                        why,
                    }),
                }
            }
            out
        }
    }
}

/// Removes every figure file of `sets` (`<set>-….svg`, `.png`, `.pdf`) that the report does not
/// show: plots drawn and left out, and those an earlier report of the folder drew (an instance
/// no longer among the hardest three), so that the folder holds what the report shows.
pub(crate) fn remove_unshown(dir: &Path, sets: &[String], shown: &[Figure]) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some((stem, ext)) = name.to_str().and_then(|n| n.rsplit_once('.')) else {
            continue;
        };
        let figure = matches!(ext, "svg" | "png" | "pdf")
            && sets.iter().any(|s| stem.starts_with(&format!("{s}-")));
        if figure && !shown.iter().any(|f| f.stem == stem) {
            let _ = std::fs::remove_file(entry.path());
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
            svg: String::new(),
        }
    }

    /// The folder keeps the figures shown and whatever is not a figure of the report's sets;
    /// an earlier report's figure of an instance no longer drawn goes.
    #[test]
    fn figures_not_shown_are_removed_and_nothing_else() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        let files = [
            "s-iterations-27.png",
            "s-iterations-27.pdf",
            "s-overhead.svg",
            "s-overhead.png",
            "report.pdf",
            "notes.png",
            "t-overhead.png",
            "s-overhead.csv",
        ];
        for f in files {
            std::fs::write(dir.join(f), "").unwrap();
        }
        let shown = [fig("s", PlotKind::Overhead, "s-overhead")];
        remove_unshown(dir, &["s".to_string()], &shown);
        let mut left: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        left.sort();
        let kept = [
            "notes.png",
            "report.pdf",
            "s-overhead.csv",
            "s-overhead.png",
            "s-overhead.svg",
            "t-overhead.png",
        ];
        assert_eq!(left, kept);
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

    fn results_of(sets: &[(&str, usize)], algorithms: &[Algorithm]) -> Results {
        let mut runs = Vec::new();
        for &(set, n) in sets {
            for i in 0..n {
                for &algorithm in algorithms {
                    runs.push(RunRecord {
                        instance_set: set.into(),
                        instance_id: (i + 1).to_string(),
                        algorithm: algorithm.into(),
                        heuristic: "manhattan".into(),
                        status: RunStatus::Solved,
                        ..RunRecord::default()
                    });
                }
            }
        }
        Results {
            dir: "r".into(),
            runs,
            iterations: vec![],
            meta: None,
        }
    }

    /// A lab experiment with a 1-, a 2-, a 3- and a 6-instance set: the default keeps the
    /// optimization-path plot, the large set's plots but no scatter, of the 3-instance set only
    /// its nodes per instance, and of the 1- and 2-instance sets nothing, saying why; `all` keeps
    /// everything.
    #[test]
    fn the_default_leaves_out_plots_of_too_few_points() {
        let results = results_of(
            &[("one", 1), ("two", 2), ("small", 3), ("large", 6)],
            &[Algorithm::Astar, Algorithm::Ida],
        );
        let figures = vec![
            fig(
                "optimization-path",
                PlotKind::NodesByLength,
                "optimization-path-nodes-by-length",
            ),
            fig("one", PlotKind::NodesPerInstance, "one-nodes-per-instance"),
            fig("two", PlotKind::NodesPerInstance, "two-nodes-per-instance"),
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
        let selected = select(&results, figures.clone(), &PlotSelection::Default);
        let shown: Vec<String> = selected.shown.into_iter().map(|f| f.stem).collect();
        assert_eq!(
            shown,
            [
                "optimization-path-nodes-by-length",
                "small-nodes-per-instance",
                "large-nodes-per-instance",
                "large-iterations"
            ]
        );
        let omitted = |set: &str, kind, why| Omitted {
            kind,
            stem: (figures.iter())
                .find(|f| f.instance_set == set && f.kind == kind)
                .map(|f| f.stem.clone())
                .unwrap(),
            instance_set: set.into(),
            why,
        };
        assert_eq!(
            selected.left_out,
            [
                omitted(
                    "one",
                    PlotKind::NodesPerInstance,
                    LeftOut::TooFew {
                        solved: 1,
                        needed: 3
                    }
                ),
                omitted(
                    "two",
                    PlotKind::NodesPerInstance,
                    LeftOut::TooFew {
                        solved: 2,
                        needed: 3
                    }
                ),
                omitted(
                    "small",
                    PlotKind::Iterations,
                    LeftOut::TooFew {
                        solved: 3,
                        needed: 5
                    }
                ),
                omitted("large", PlotKind::Scatter, LeftOut::PairScatter),
            ]
        );
        let all = select(&results, figures, &PlotSelection::All);
        assert_eq!((all.shown.len(), all.left_out.len()), (8, 0));
    }

    /// With one algorithm a 2-instance set still gets its iterations plot and its points
    /// against the diagonal (ours against published), but no plot whose points are read
    /// together (nodes per instance, their distribution); a 3-instance set gets them.
    #[test]
    fn a_plot_of_points_read_together_needs_three() {
        let results = results_of(&[("two", 2), ("three", 3)], &[Algorithm::Ida]);
        let figures = vec![
            fig("two", PlotKind::NodesPerInstance, "two-nodes-per-instance"),
            fig("two", PlotKind::NodesDistribution, "two-nodes-distribution"),
            fig("two", PlotKind::Published, "two-published"),
            fig("two", PlotKind::Iterations, "two-iterations"),
            fig(
                "three",
                PlotKind::NodesPerInstance,
                "three-nodes-per-instance",
            ),
            fig("three", PlotKind::Iterations, "three-iterations"),
        ];
        let selected = select(&results, figures, &PlotSelection::Default);
        let shown: Vec<&str> = selected.shown.iter().map(|f| f.stem.as_str()).collect();
        assert_eq!(
            shown,
            [
                "two-published",
                "two-iterations",
                "three-nodes-per-instance",
                "three-iterations"
            ]
        );
        let kinds: Vec<PlotKind> = selected.left_out.iter().map(|o| o.kind).collect();
        assert_eq!(
            kinds,
            [PlotKind::NodesPerInstance, PlotKind::NodesDistribution]
        );
        assert!(selected.left_out.iter().all(|o| o.why
            == LeftOut::TooFew {
                solved: 2,
                needed: MIN_PER_INSTANCE
            }));
    }

    /// Past the first MAX_DEFAULT plots the rest are left out, counted as such.
    #[test]
    fn the_default_keeps_at_most_max_default() {
        let results = results_of(&[("big", 10)], &[Algorithm::Ida]);
        let figures: Vec<Figure> = (0..MAX_DEFAULT + 3)
            .map(|i| fig("big", PlotKind::Iterations, &format!("big-{i}")))
            .collect();
        let selected = select(&results, figures, &PlotSelection::Default);
        assert_eq!(selected.shown.len(), MAX_DEFAULT);
        assert_eq!(selected.left_out.len(), 3);
        assert!(selected
            .left_out
            .iter()
            .all(|o| o.why == LeftOut::PastLimit));
    }
}
