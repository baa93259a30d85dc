//! Plot 4: nodes generated in each IDA* iteration against its cost bound, for a few instances,
//! one line per heuristic: straight lines on the log scale are geometric growth.

use plotters::coord::Shift;
use plotters::prelude::*;

use crate::search::Algorithm;

use super::{
    chart, legend, short_sci, style, Chart, LogAxis, Out, PlotError, PlotKind, Series, SetData,
    DEFAULT_ITERATION_INSTANCES,
};

struct Iterations {
    series: Vec<Series>,
    x: (f64, f64),
    y: LogAxis,
}

/// The instances to draw: the requested ones present in this set, or the hardest few solved by
/// the reference heuristic.
fn chosen(data: &SetData, requested: &[String]) -> Vec<String> {
    let has_iterations = |id: &str| {
        data.results
            .iterations
            .iter()
            .any(|i| i.instance_set == data.set && i.instance_id == id)
    };
    if !requested.is_empty() {
        return requested
            .iter()
            .filter(|id| has_iterations(id))
            .cloned()
            .collect();
    }
    let Some(reference) = data.reference.as_deref() else {
        return vec![];
    };
    let mut runs: Vec<_> = data.solved_runs(reference).collect();
    runs.sort_by_key(|r| std::cmp::Reverse(r.generated));
    runs.iter()
        .map(|r| r.instance_id.clone())
        .filter(|id| has_iterations(id))
        .take(DEFAULT_ITERATION_INSTANCES)
        .collect()
}

pub(super) fn plot(data: &SetData, requested: &[String], out: &mut Out) -> Result<(), PlotError> {
    for id in chosen(data, requested) {
        let series: Vec<Series> = data
            .heuristics
            .iter()
            .filter_map(|h| {
                let mut rows: Vec<_> = data
                    .results
                    .iterations
                    .iter()
                    // BFS's one row holds the depth it reached, not a cost bound f = g + h:
                    // on this axis it would stretch the range far left of the IDA* lines.
                    .filter(|i| {
                        i.instance_set == data.set
                            && i.instance_id == id
                            && &i.method() == h
                            && i.algorithm != Algorithm::Bfs
                    })
                    .collect();
                rows.sort_by_key(|i| i.iteration);
                let points: Vec<(f64, f64)> = rows
                    .iter()
                    .filter(|i| i.generated > 0)
                    .map(|i| (f64::from(i.bound), i.generated as f64))
                    .collect();
                if points.is_empty() {
                    return None;
                }
                let run = data.results.runs.iter().find(|r| {
                    r.instance_set == data.set && r.instance_id == id && &r.method() == h
                });
                let label = match run.and_then(|r| r.growth_ratio) {
                    Some(r) => format!("{h} (r = {})", short_sci(r)),
                    None => h.clone(),
                };
                Some((label, data.color(h), points))
            })
            .collect();
        let Some(y) = LogAxis::covering(series.iter().flat_map(|s| s.2.iter().map(|p| p.1))) else {
            continue;
        };
        let bounds = series.iter().flat_map(|s| s.2.iter().map(|p| p.0));
        let (lo, hi) = bounds.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), b| {
            (lo.min(b), hi.max(b))
        });
        let title = format!("{}: nodes per IDA* iteration, instance {id}", data.set);
        let caption = format!(
            "Nodes generated in each iteration of instance {id} against the iteration's cost \
             bound, one line per heuristic (log scale); r in the legend is the run's growth ratio \
             between its last two completed iterations. The last point of each line is the final iteration, \
             cut short when the first solution is found."
        );
        let chart = Iterations {
            series,
            x: (lo - 1.0, hi + 1.0),
            y,
        };
        out.save(
            PlotKind::Iterations,
            &format!("iterations-{}", crate::results::atomic::name_component(&id)),
            style::SIZE,
            &chart,
            title,
            caption,
        )?;
    }
    Ok(())
}

impl Chart for Iterations {
    fn legend(&self) -> Vec<legend::Entry> {
        chart::legend_of(&self.series)
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), PlotError> {
        let mut chart = chart::bound_log(
            root,
            self.x,
            &self.y,
            "cost bound f = g + h of the iteration (moves)",
            "nodes generated in the iteration",
        )?;
        chart::draw_lines(&mut chart, &self.series, 4)?;
        Ok(())
    }
}
