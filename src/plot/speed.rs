//! Plot 6: seconds against nodes generated, one point per solved run, log-log, with each
//! heuristic's overall rate (Σ nodes / Σ seconds) drawn as a dashed line seconds = nodes / rate.

use plotters::coord::Shift;
use plotters::prelude::*;

use super::{chart, legend, short_sci, style, Chart, LogAxis, Out, PlotError, PlotKind, SetData};

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
            let nodes: u64 = runs.iter().map(|r| r.generated).sum();
            let seconds: f64 = runs.iter().map(|r| r.seconds).sum();
            let rate = (seconds > 0.0 && nodes > 0).then(|| nodes as f64 / seconds);
            let points: Vec<(f64, f64)> = runs
                .iter()
                .map(|r| (r.generated as f64, r.seconds))
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
    let caption = "One point per solved run (log-log). Dashed lines: seconds = nodes / rate, with \
                   each heuristic's rate = Σ nodes / Σ seconds over its solved runs (in the \
                   legend); runs above their line were slower than that average."
        .to_string();
    out.save(
        PlotKind::SecondsVsNodes,
        "seconds-vs-nodes",
        style::SIZE,
        &Speed { series, x, y },
        title,
        caption,
    )
}

impl Chart for Speed {
    fn legend(&self) -> Vec<legend::Entry> {
        self.series
            .iter()
            .map(|(name, color, _, rate)| {
                let label = match rate {
                    Some(rate) => format!("{name}: {} nodes/s", short_sci(*rate)),
                    None => name.clone(),
                };
                let look = style::Look {
                    color: *color,
                    stroke: style::Stroke::Solid,
                    marker: style::Marker::Circle,
                };
                legend::Entry(label, legend::Sample::Series(look, true))
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
        for (_, color, points, rate) in &self.series {
            let color = *color;
            chart.draw_series(
                points
                    .iter()
                    .map(|&p| Circle::new(p, 3, color.mix(0.75).filled())),
            )?;
            if let Some(rate) = rate {
                // The line's visible part: nodes whose seconds fall inside the y range.
                let lo = self.x.lo.max(self.y.lo * rate);
                let hi = self.x.hi.min(self.y.hi * rate);
                if lo < hi {
                    chart.draw_series(DashedLineSeries::new(
                        [(lo, lo / rate), (hi, hi / rate)],
                        8,
                        5,
                        color.stroke_width(2),
                    ))?;
                }
            }
        }
        Ok(())
    }
}
