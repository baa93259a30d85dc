//! Optimization path, plot 1: the states each algorithm holds at once (open + closed for A*,
//! frontier + visited for breadth-first search, the path for IDA*) against the optimal length.

use super::by_length::ByLength;
use super::{Out, PlotError, PlotKind};
use crate::results::Results;

pub(super) fn plot(results: &Results, out: &mut Out) -> Result<(), PlotError> {
    if !results.compares_algorithms() {
        return Ok(());
    }
    let Some(chart) = ByLength::new(
        results,
        |r| r.peak_stored.map(|s| s as f64),
        "states stored at the peak",
    ) else {
        return Ok(());
    };
    chart.save(
        out,
        PlotKind::PeakStored,
        "peak-stored",
        "Peak states stored against optimal solution length".to_string(),
        "States held at once at the peak (log scale) of every run against its instance's optimal \
         length: colour by heuristic, line and marker by algorithm, lines through the medians; \
         hollow markers: runs stopped by a limit, at their peak when stopped. BFS and A* climb \
         until the memory limit stops them; IDA* holds only its path (length + 1 states) whatever \
         the heuristic, so its lines coincide."
            .to_string(),
    )
}
