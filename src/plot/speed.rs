//! Plot 6: seconds against nodes generated, one point per solved run, log-log, with each
//! method's overall rate (Σ nodes / Σ seconds) drawn as a line seconds = nodes / rate.

use plotters::coord::Shift;
use plotters::prelude::*;

use super::{chart, legend, style, Chart, LogAxis, Out, PlotError, PlotKind, SetData};
use crate::report::format;
use crate::results::Method;

/// Points of one heuristic and its overall nodes per second.
type RatedSeries = (String, RGBColor, Vec<(f64, f64)>, Option<f64>);

struct Speed {
    series: Vec<RatedSeries>,
    x: LogAxis,
    y: LogAxis,
}

pub(super) fn plot(data: &SetData, out: &mut Out) -> Result<(), PlotError> {
    let series: Vec<RatedSeries> = data
        .heuristics
        .iter()
        .map(|h| {
            let runs: Vec<_> = data.solved_runs(h).collect();
            // Only runs with a node count: an outside solver may report none.
            let counted: Vec<(u64, f64)> = runs
                .iter()
                .filter_map(|r| Some((r.generated?, r.seconds)))
                .collect();
            let nodes: u64 = counted.iter().map(|c| c.0).sum();
            let seconds: f64 = counted.iter().map(|c| c.1).sum();
            let rate = (seconds > 0.0 && nodes > 0).then(|| nodes as f64 / seconds);
            let points: Vec<(f64, f64)> = counted
                .iter()
                .map(|&(n, s)| (n as f64, s))
                .filter(|&(n, s)| n > 0.0 && s > 0.0)
                .collect();
            (h.clone(), data.color(h), points, rate)
        })
        .filter(|s| !s.2.is_empty())
        .collect();
    let (Some(x), Some(y)) = (
        LogAxis::covering(series.iter().flat_map(|s| s.2.iter().map(|p| p.0))),
        LogAxis::covering(series.iter().flat_map(|s| s.2.iter().map(|p| p.1))),
    ) else {
        return Ok(());
    };
    let title = format!("{}: time against nodes generated", data.set);
    // The rates stand in the caption: in the legend they made it too long for the figure.
    let rates: Vec<String> = series
        .iter()
        .filter_map(|(name, _, _, rate)| Some(format!("{name} {}", format::int((*rate)?))))
        .collect();
    let mut caption = format!(
        "One point per solved run (log-log). Lines: seconds = nodes / rate in each method's \
         colour, with its rate = Σ nodes / Σ seconds over its solved runs (nodes/s: {}); runs \
         above their line were slower than that average.",
        rates.join(", ")
    );
    if series.iter().any(|s| half_filled(style::look_of(&s.0))) {
        caption.push_str(
            " A*'s points are half filled (its rate line dashed), the other methods' filled; \
             every point is a solved run (hollow, in the other figures, marks a run stopped by \
             a limit).",
        );
    }
    let outside: Vec<&str> = (data.heuristics.iter())
        .filter(|h| (data.solved_runs(h)).any(|r| matches!(r.method(), Method::Outside { .. })))
        .map(String::as_str)
        .collect();
    if !outside.is_empty() {
        caption.push_str(&format!(
            " The seconds of an outside solver ({}) are its whole process's, start-up \
             included: its small runs sit on that floor, and its rate is a lower bound of its \
             search's.",
            outside.join(", ")
        ));
    }
    out.save(
        PlotKind::SecondsVsNodes,
        "seconds-vs-nodes",
        style::SIZE,
        &Speed { series, x, y },
        title,
        caption,
    )
}

/// A* points are half filled: IDA*'s of the same heuristic have their colour and marker, and
/// only the rate lines' strokes told them apart. (BFS's cross is its own; hollow would say
/// "stopped", as in every other figure.)
fn half_filled(look: style::Look) -> bool {
    look.stroke == style::Stroke::Dashed
}

impl Chart for Speed {
    fn legend(&self) -> Vec<legend::Entry> {
        (self.series.iter())
            .map(|s| match style::look_of(&s.0) {
                look if half_filled(look) => {
                    legend::Entry(s.0.clone(), legend::Sample::HalfSeries(look))
                }
                look => legend::Entry(s.0.clone(), legend::Sample::Series(look, true)),
            })
            .collect()
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), PlotError> {
        let mut chart = chart::log_log(
            root,
            (&self.x, &self.y),
            "nodes generated",
            "wall-clock time (seconds)",
        )?;
        // The points in turns, one of each series at a time: where series overlap, none lies
        // under the one drawn last (Korf's 100 under six heuristics: pdb-78r's stars hid the rest).
        let longest = self.series.iter().map(|s| s.2.len()).max().unwrap_or(0);
        for i in 0..longest {
            for (name, _, points, _) in &self.series {
                let Some(point) = points.get(i) else { continue };
                let one = std::slice::from_ref(point);
                let look = style::look_of(name);
                if half_filled(look) {
                    super::draw_markers(&mut chart, one, look, 4, super::Fill::Half)?;
                } else {
                    chart::draw_dots(&mut chart, one, look.color, 0.75, name)?;
                }
            }
        }
        for i in chart::drawing_order(self.series.iter().map(|s| s.0.as_str())) {
            let (name, _, _, rate) = &self.series[i];
            if let Some(rate) = rate {
                // The line's visible part: nodes whose seconds fall inside the y range.
                let lo = self.x.lo.max(self.y.lo * rate);
                let hi = self.x.hi.min(self.y.hi * rate);
                if lo < hi {
                    chart::draw_line(&mut chart, name, &[(lo, lo / rate), (hi, hi / rate)], 0)?;
                }
            }
        }
        Ok(())
    }
}
