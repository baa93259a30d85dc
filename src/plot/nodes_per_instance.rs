//! Plot 1: generated nodes of every instance under each heuristic, instances sorted by the
//! reference heuristic's nodes, so the curves show how much each heuristic saves, instance by
//! instance. Up to [`MAX_ID_LABELS`] instances, the x axis names each instance by its id;
//! beyond, by its rank.

use plotters::coord::Shift;
use plotters::prelude::*;

use super::{
    axis, chart, legend, style, Chart, LogAxis, Out, PlotError, PlotKind, Series, SetData,
};

/// Most instances whose ids fit side by side on the x axis.
pub const MAX_ID_LABELS: usize = 30;

struct NodesPerInstance {
    series: Vec<Series>,
    instances: usize,
    /// The instance id at each x position 1..=n, when they are few enough to print.
    ids: Option<Vec<String>>,
    y: LogAxis,
    x_desc: String,
}

pub(super) fn plot(data: &SetData, out: &mut Out) -> Result<(), PlotError> {
    let Some(reference) = data.reference.as_deref() else {
        return Ok(());
    };
    // Order: instances the reference solved, by its nodes; then the rest, by id as in the file.
    let mut ids: Vec<&str> = Vec::new();
    for r in data
        .results
        .runs
        .iter()
        .filter(|r| r.instance_set == data.set)
    {
        if !ids.contains(&r.instance_id.as_str()) {
            ids.push(&r.instance_id);
        }
    }
    let reference_runs = &data.solved[reference];
    ids.sort_by_key(|id| match reference_runs.get(id) {
        Some(r) => (0, r.generated),
        None => (1, 0),
    });
    let series: Vec<Series> = data
        .heuristics
        .iter()
        .map(|h| {
            let runs = &data.solved[h];
            let points = ids
                .iter()
                .enumerate()
                .filter_map(|(i, id)| runs.get(id).map(|r| ((i + 1) as f64, r.generated as f64)))
                .filter(|&(_, n)| n > 0.0)
                .collect();
            (h.clone(), data.color(h), points)
        })
        // A method that solved none of the set has no line, so no legend entry either.
        .filter(|s: &Series| !s.2.is_empty())
        .collect();
    let Some(y) = LogAxis::covering(series.iter().flat_map(|s| s.2.iter().map(|p| p.1))) else {
        return Ok(());
    };
    let by_id = ids.len() <= MAX_ID_LABELS;
    let chart = NodesPerInstance {
        series,
        instances: ids.len(),
        ids: by_id.then(|| ids.iter().map(|s| s.to_string()).collect()),
        y,
        x_desc: if by_id {
            format!("instance id, sorted by {reference} nodes")
        } else {
            format!("instance, sorted by {reference} nodes (rank)")
        },
    };
    let title = format!("{}: nodes generated per instance", data.set);
    let caption = format!(
        "Nodes generated (all iterations, log scale) for each instance of {set}, one line per \
         {per}; instances on the x axis{named} are sorted by the nodes {reference} \
         generated, those it did not solve placed last; unsolved runs are left out.",
        set = data.set,
        per = if data.results.compares_algorithms() {
            "method (algorithm and heuristic; lines of equal counts coincide)"
        } else {
            "heuristic"
        },
        named = if by_id { " (labelled by id)" } else { "" }
    );
    out.save(
        PlotKind::NodesPerInstance,
        "nodes-per-instance",
        style::SIZE,
        &chart,
        title,
        caption,
    )
}

impl Chart for NodesPerInstance {
    fn legend(&self) -> Vec<legend::Entry> {
        chart::legend_of(&self.series)
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), PlotError> {
        let mut chart = chart::frame(root)
            .build_cartesian_2d(0.0..(self.instances as f64 + 1.0), self.y.coord())?;
        let label = |x: &f64| match &self.ids {
            Some(ids) => {
                let i = x.round();
                if (i - x).abs() > 1e-6 || i < 1.0 {
                    return String::new();
                }
                ids.get(i as usize - 1).cloned().unwrap_or_default()
            }
            None => chart::integer_tick(x),
        };
        let mut mesh = chart::mesh(&mut chart, self.x_desc.as_str(), "nodes generated");
        if self.ids.is_some() {
            // One tick per instance: n + 2 ticks over 0..n+1 fall on the integers.
            mesh.x_labels(self.instances + 2);
        }
        mesh.x_label_formatter(&label)
            .y_label_formatter(&axis::log_tick)
            .draw()?;
        chart::draw_lines(&mut chart, &self.series, 3)?;
        Ok(())
    }
}
