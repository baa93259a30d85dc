//! Plot 4: nodes generated in each IDA* iteration against its cost bound, for a few instances,
//! one line per heuristic: straight lines on the log scale are geometric growth.

use plotters::coord::Shift;
use plotters::prelude::*;

use crate::results::RunStatus;
use crate::search::Algorithm;

use super::{
    chart, draw_markers, legend, style, Chart, Fill, LogAxis, Out, PlotError, PlotKind, Series,
    SetData, DEFAULT_ITERATION_INSTANCES,
};

struct Iterations {
    series: Vec<Series>,
    /// Per series: the status of a run stopped by a limit (its last point is drawn hollow),
    /// `None` when it solved the instance.
    stopped: Vec<Option<RunStatus>>,
    x: (f64, f64),
    y: LogAxis,
}

/// The instances to draw: the requested ones present in this set, or the hardest few solved by
/// the reference heuristic, those that every method drawn ran first (a heuristic set beside
/// with `report --beside` may have run fewer instances), the others after them.
fn chosen(data: &SetData, requested: &[String]) -> Vec<String> {
    let ran = |id: &str, method: Option<&str>| {
        data.results.iterations.iter().any(|i| {
            i.instance_set == data.set
                && i.instance_id == id
                && method.is_none_or(|m| i.label() == m && i.algorithm != Algorithm::Bfs)
        })
    };
    let has_iterations = |id: &str| ran(id, None);
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
    let hardest: Vec<&String> = runs
        .iter()
        .map(|r| &r.instance_id)
        .filter(|id| has_iterations(id))
        .collect();
    // Breadth-first search is not drawn here (it has no cost bounds).
    let by_all = |id: &str| {
        data.heuristics
            .iter()
            .filter(|h| *h != "bfs")
            .all(|h| ran(id, Some(h)))
    };
    let mut picked: Vec<&String> = hardest.iter().copied().filter(|id| by_all(id)).collect();
    picked.extend(hardest.iter().filter(|id| !by_all(id)));
    picked.truncate(DEFAULT_ITERATION_INSTANCES);
    picked.sort_by_key(|id| hardest.iter().position(|h| h == id));
    picked.into_iter().cloned().collect()
}

pub(super) fn plot(data: &SetData, requested: &[String], out: &mut Out) -> Result<(), PlotError> {
    for id in chosen(data, requested) {
        let drawn: Vec<(Series, Option<RunStatus>)> =
            data.heuristics
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
                                && &i.label() == h
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
                        r.instance_set == data.set && r.instance_id == id && &r.label() == h
                    });
                    let label = match run.and_then(|r| r.growth_ratio) {
                        // Two decimals for all, so that entries line up (6.60 beside 6.47).
                        Some(r) => format!("{h} (r = {r:.2})"),
                        None => h.clone(),
                    };
                    let stopped = run.map(|r| r.status).filter(|&s| s != RunStatus::Solved);
                    Some(((label, data.color(h), points), stopped))
                })
                .collect();
        let (series, stopped): (Vec<Series>, Vec<Option<RunStatus>>) = drawn.into_iter().unzip();
        let Some(y) = LogAxis::covering(series.iter().flat_map(|s| s.2.iter().map(|p| p.1))) else {
            continue;
        };
        let bounds = series.iter().flat_map(|s| s.2.iter().map(|p| p.0));
        let (lo, hi) = bounds.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), b| {
            (lo.min(b), hi.max(b))
        });
        let title = format!("{}: nodes per IDA* iteration, instance {id}", data.set);
        let mut caption = format!(
            "Nodes generated in each iteration of instance {id} against its cost bound (log \
             scale), a line per method; r (legend): the growth ratio between the last two \
             completed iterations. A line's last point is the final iteration, cut short at the \
             first solution"
        );
        if stopped.iter().any(Option::is_some) {
            caption.push_str(", hollow when a limit stopped the run (the legend says which)");
        }
        caption.push('.');
        if series.iter().any(|s| s.0.starts_with("astar+")) {
            caption.push_str(
                " A* (dashed in the legend): one point, all its nodes at the f of its last expansion; \
                 hollow when stopped.",
            );
        }
        let chart = Iterations {
            series,
            stopped,
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
        self.series
            .iter()
            .zip(&self.stopped)
            .map(|((label, _, _), stopped)| {
                let look = style::look_of(label);
                match stopped {
                    None => legend::Entry(label.clone(), legend::Sample::Series(look, true)),
                    Some(status) => legend::Entry(
                        format!("{label}: stopped ({status})"),
                        legend::Sample::Hollow(look),
                    ),
                }
            })
            .collect()
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), PlotError> {
        let mut chart = chart::bound_log(
            root,
            self.x,
            &self.y,
            "cost bound f = g + h of the iteration (moves)",
            "nodes generated in the iteration",
        )?;
        for i in chart::drawing_order(self.series.iter().map(|s| s.0.as_str())) {
            let ((name, _, points), stopped) = (&self.series[i], &self.stopped[i]);
            // A stopped run's last point is where the limit stopped it, not a finished search.
            let cut = if stopped.is_some() {
                points.len() - 1
            } else {
                points.len()
            };
            chart::draw_line(&mut chart, name, points, 0)?;
            let look = style::look_of(name);
            draw_markers(&mut chart, &points[..cut], look, 4, Fill::Full)?;
            draw_markers(&mut chart, &points[cut..], look, 4, Fill::Hollow)?;
        }
        Ok(())
    }
}
