//! Optimization path, plot 1: the states each algorithm holds at once (open + closed for A*,
//! frontier + visited for breadth-first search, the path for IDA*) against the optimal length.

use super::by_length::{self, Spec};
use super::{Out, PlotError, PlotKind};
use crate::results::Results;

const SPEC: Spec = Spec {
    kind: PlotKind::PeakStored,
    name: "peak-stored",
    value: |r| r.peak_stored.map(|s| s as f64),
    y_desc: "states stored at the peak",
    title: "Peak states stored against optimal solution length",
    caption: "States held at once at the peak (log scale) of every run against its instance's \
              optimal length: colour by heuristic, line and marker by algorithm, lines through \
              the medians; hollow markers: runs stopped by a limit, at their peak when stopped. \
              BFS and A* climb until the memory limit stops them; IDA* holds only its path \
              (length + 1 states) whatever the heuristic, so its lines coincide.",
};

pub(super) fn plot(results: &Results, out: &mut Out) -> Result<(), PlotError> {
    by_length::plot(results, &SPEC, out)
}
