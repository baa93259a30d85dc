//! Plot 3: heuristic A against heuristic B, one point per instance both solved, log-log, with the
//! diagonal: points below it are instances where B generated fewer nodes than A.

use plotters::coord::Shift;
use plotters::prelude::*;

use crate::report::format;

use super::{chart, legend, style, Chart, LogAxis, Out, PlotError, PlotKind, Series, SetData};

/// The diagonal's legend entry.
const DIAGONAL: &str = "y = x (equal nodes)";

/// Points of one or more series against the diagonal y = x, log-log on a square.
pub(super) struct Scatter {
    pub x_label: String,
    pub y_label: String,
    /// The diagonal's legend entry.
    pub diagonal: &'static str,
    /// (legend label, colour, points), drawn in this order.
    pub series: Vec<Series>,
    pub axis: LogAxis,
}

/// The legend label of the one series of instances solved by both.
fn instances(points: &[(f64, f64)]) -> String {
    format!("instance ({} solved by both)", points.len())
}

/// The pairs to draw on this set: the requested ones that both have runs here, or by default
/// each heuristic against the reference one.
fn pairs(data: &SetData, requested: &[(String, String)]) -> Vec<(String, String)> {
    if !requested.is_empty() {
        return requested
            .iter()
            .filter(|(a, b)| data.heuristics.contains(a) && data.heuristics.contains(b))
            .cloned()
            .collect();
    }
    let Some(reference) = &data.reference else {
        return vec![];
    };
    data.heuristics
        .iter()
        .filter(|h| *h != reference)
        .map(|h| (reference.clone(), h.clone()))
        .collect()
}

pub(super) fn plot(
    data: &SetData,
    requested: &[(String, String)],
    out: &mut Out,
) -> Result<(), PlotError> {
    for (a, b) in pairs(data, requested) {
        let (runs_a, runs_b) = (&data.solved[&a], &data.solved[&b]);
        // In file order of A's runs, for a stable output.
        let points: Vec<(f64, f64)> = data
            .solved_runs(&a)
            .filter_map(|ra| {
                let rb = runs_b.get(ra.instance_id.as_str())?;
                debug_assert!(runs_a.contains_key(ra.instance_id.as_str()));
                Some((ra.generated? as f64, rb.generated? as f64))
            })
            .filter(|&(x, y)| x > 0.0 && y > 0.0)
            .collect();
        let Some(axis) = LogAxis::square(&points) else {
            continue;
        };
        let title = format!("{}: nodes generated, {b} against {a}", data.set);
        // The reduction per instance, summarised as papers give it: its geometric mean, of
        // the heuristic that generates fewer nodes over the other (points below the diagonal
        // when it is y, above when it is x).
        let mut ratios: Vec<f64> = points.iter().map(|(x, y)| x / y).collect();
        let mut geo = crate::analysis::geomean(&ratios);
        let (mut strong, mut weak, mut side) = (&b, &a, "below");
        if geo < 1.0 {
            ratios.iter_mut().for_each(|r| *r = 1.0 / *r);
            geo = 1.0 / geo;
            (strong, weak, side) = (&a, &b, "above");
        }
        let (low, high) = ratios
            .iter()
            .fold((f64::INFINITY, 0f64), |(l, h), &r| (l.min(r), h.max(r)));
        let caption = format!(
            "One point per instance that both {a} (x) and {b} (y) solved, log-log; the dashed \
             diagonal is equal nodes, so the vertical distance {side} it is {strong}'s reduction \
             factor: {weak}'s nodes over {strong}'s, geometric mean {} over these {} instances \
             (from {} to {}). A report's reduction column is the ratio of the sums instead, \
             which the largest instances dominate.",
            format::sig(geo, 3),
            ratios.len(),
            format::sig(low, 3),
            format::sig(high, 3)
        );
        let chart = Scatter {
            x_label: format!("{}: nodes generated", data.shown(&a)),
            y_label: format!("{}: nodes generated", data.shown(&b)),
            diagonal: DIAGONAL,
            series: vec![(instances(&points), data.color(&b), points)],
            axis,
        };
        out.save(
            PlotKind::Scatter,
            &format!("scatter-{}-vs-{}", data.shown(&a), data.shown(&b)),
            style::SQUARE,
            &chart,
            title,
            caption,
        )?;
    }
    Ok(())
}

/// The plot's name (after the set's) for the published comparison of `heuristic`.
pub(super) fn published_name(heuristic: &str) -> String {
    format!("published-{heuristic}")
}

/// Our count against the published one, per instance, for every published per-instance column
/// of this set (see [`crate::analysis::per_instance`]).
pub(super) fn plot_published(data: &SetData, out: &mut Out) -> Result<(), PlotError> {
    for c in crate::analysis::per_instance_comparisons(data.results) {
        if c.published.instance_set != data.set {
            continue;
        }
        let h = c.published.heuristic;
        // A heuristic left out by --heuristics has no section to stand in.
        if !data.heuristics.iter().any(|x| x == h) {
            continue;
        }
        let points: Vec<(f64, f64)> = c
            .rows
            .iter()
            .map(|r| (r.theirs as f64, r.ours as f64))
            .filter(|&(x, y)| x > 0.0 && y > 0.0)
            .collect();
        let Some(axis) = LogAxis::square(&points) else {
            continue;
        };
        let title = format!("{}: {h}, ours against published nodes", data.set);
        // The published count includes the root where ours does not: one added to ours.
        let root = if c.published.counts_root { " + 1" } else { "" };
        let caption = format!(
            "One point per solved instance: the published {} (x) against ours{}{} (y), log-log; \
             points on the dashed diagonal match.",
            c.published.column,
            root,
            if root.is_empty() { "" } else { " (the root)" }
        );
        let chart = Scatter {
            x_label: format!("published ({}): nodes generated", c.published.column),
            y_label: format!("ours ({h}): generated{root}"),
            diagonal: DIAGONAL,
            series: vec![(instances(&points), data.color(h), points)],
            axis,
        };
        out.save(
            PlotKind::Published,
            &published_name(h),
            style::SQUARE,
            &chart,
            title,
            caption,
        )?;
    }
    Ok(())
}

impl Chart for Scatter {
    fn legend(&self) -> Vec<legend::Entry> {
        let diagonal = legend::Entry(self.diagonal.to_string(), legend::Sample::Diagonal);
        let series = self.series.iter().map(|(label, color, _)| {
            let look = chart::dots_look(*color, label);
            legend::Entry(label.clone(), legend::Sample::Series(look, false))
        });
        std::iter::once(diagonal).chain(series).collect()
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), PlotError> {
        let axes = (&self.axis, &self.axis);
        let mut chart = chart::log_log(root, axes, &self.x_label, &self.y_label)?;
        chart::draw_diagonal(&mut chart, self.axis.lo, self.axis.hi)?;
        for (label, color, points) in &self.series {
            chart::draw_dots(&mut chart, points, *color, 0.8, label)?;
        }
        Ok(())
    }
}
