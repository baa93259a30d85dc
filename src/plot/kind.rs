//! What a plot shows, as a type: the report places and selects figures by their kind, never by
//! taking their file names apart.

use std::fmt;
use std::str::FromStr;

/// The kind of a drawn plot. [`PlotKind::name`] is the word `--plots` takes and the part of the
/// file name after the set (`korf100-nodes-per-instance.svg`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PlotKind {
    NodesPerInstance,
    NodesDistribution,
    /// Nodes of each IDA* iteration of one instance.
    Iterations,
    Overhead,
    SecondsVsNodes,
    /// Per-instance nodes of two methods against each other.
    Scatter,
    /// Ours against the published per-instance counts.
    Published,
    NodesByLength,
    PeakStored,
    PredictedVsMeasured,
    /// Drawn from a history file (speed, nodes or instructions over commits).
    History,
    /// `compare --report`: base against new, per run.
    BaseNew,
    /// `regress`: time ratios head/base per pair.
    TimeRatios,
}

impl PlotKind {
    /// Every kind of plot, as `--plots` names them.
    pub(crate) fn report_names() -> String {
        let names: Vec<&str> = PlotKind::REPORT.iter().map(|k| k.name()).collect();
        names.join(", ")
    }

    /// The kinds a results report draws, in the order `--plots` lists them.
    pub(crate) const REPORT: [PlotKind; 11] = [
        PlotKind::NodesPerInstance,
        PlotKind::NodesDistribution,
        PlotKind::Iterations,
        PlotKind::Overhead,
        PlotKind::SecondsVsNodes,
        PlotKind::Scatter,
        PlotKind::Published,
        PlotKind::NodesByLength,
        PlotKind::PeakStored,
        PlotKind::PredictedVsMeasured,
        PlotKind::History,
    ];

    /// The kind's name, as `--plots` takes it.
    pub fn name(self) -> &'static str {
        match self {
            PlotKind::NodesPerInstance => "nodes-per-instance",
            PlotKind::NodesDistribution => "nodes-distribution",
            PlotKind::Iterations => "iterations",
            PlotKind::Overhead => "overhead",
            PlotKind::SecondsVsNodes => "seconds-vs-nodes",
            PlotKind::Scatter => "scatter",
            PlotKind::Published => "published",
            PlotKind::NodesByLength => "nodes-by-length",
            PlotKind::PeakStored => "peak-stored",
            PlotKind::PredictedVsMeasured => "predicted-vs-measured",
            PlotKind::History => "history",
            PlotKind::BaseNew => "base-new",
            PlotKind::TimeRatios => "time-ratios",
        }
    }
}

impl PlotKind {
    /// A plot of one point per solved instance whose points are read together: the line
    /// through them (nodes per instance), their boxes (distribution), the rates fitted through
    /// them (seconds against nodes). With two instances it draws one segment or a box of two,
    /// which says no more than the summary table; the report's default leaves it out. A plot
    /// whose every point is read against the diagonal y = x (scatter, overhead, ours against
    /// published) says something of each point, however few.
    pub fn reads_points_together(self) -> bool {
        matches!(
            self,
            PlotKind::NodesPerInstance | PlotKind::NodesDistribution | PlotKind::SecondsVsNodes
        )
    }
}

impl fmt::Display for PlotKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is not a report's plot kind.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown plot kind '{0}': use default, all, or some of {names}",
    names = PlotKind::report_names()
)]
pub struct UnknownKind(pub String);

impl FromStr for PlotKind {
    type Err = UnknownKind;
    fn from_str(s: &str) -> Result<PlotKind, UnknownKind> {
        PlotKind::REPORT
            .into_iter()
            .find(|k| k.name() == s)
            .ok_or_else(|| UnknownKind(s.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_report_kind_reads_back_from_its_name() {
        for k in PlotKind::REPORT {
            assert_eq!(k.name().parse::<PlotKind>(), Ok(k));
        }
        let err = "nodes".parse::<PlotKind>().unwrap_err();
        assert!(err.to_string().contains("unknown plot kind 'nodes'"));
        assert!(err.to_string().contains("peak-stored"));
        // Kinds of other commands are not a results report's.
        assert!("base-new".parse::<PlotKind>().is_err());
    }
}
