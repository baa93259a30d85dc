//! Optimization path, plot 2: nodes generated against the optimal length, per algorithm and
//! heuristic (A*'s fewer nodes against IDA*'s re-expansions).

use super::by_length::{self, Spec};
use super::{Out, PlotError, PlotKind};
use crate::results::Results;

const SPEC: Spec = Spec {
    kind: PlotKind::NodesByLength,
    name: "nodes-by-length",
    value: |r| Some(r.generated as f64),
    y_desc: "nodes generated",
    title: "Nodes generated against optimal solution length",
    caption: "Nodes generated (log scale) by every run against the optimal length of its \
              instance, one colour per heuristic and one line and marker per algorithm, the \
              line through the median at each length; hollow markers are runs stopped by a \
              limit. Past the shortest boards, A* generates fewer nodes than IDA* with the same \
              heuristic (IDA* re-expands the shallower levels in every iteration) but must \
              store them.",
};

pub(super) fn plot(results: &Results, out: &mut Out) -> Result<(), PlotError> {
    by_length::plot(results, &SPEC, out)
}
