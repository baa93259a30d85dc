//! Plot 5: the iterative-deepening overhead each run measured against the r/(r−1) its growth
//! ratio predicts, one point per solved run; on the diagonal the geometric model is exact.

use plotters::coord::Shift;
use plotters::prelude::*;

use super::{chart, legend, style, Chart, Out, PlotError, PlotKind, Series, SetData};

/// The axes stop here so that a few runs with r close to 1 (huge predicted overhead) do not
/// squash all the others into a corner; those runs are counted in the legend.
const AXIS_CAP: f64 = 5.0;

struct Overhead {
    series: Vec<Series>,
    lo: f64,
    hi: f64,
    beyond: usize,
}

pub(super) fn plot(data: &SetData, out: &mut Out) -> Result<(), PlotError> {
    let mut beyond = 0;
    let series: Vec<Series> = data
        .heuristics
        .iter()
        .map(|h| {
            let points: Vec<(f64, f64)> = data
                .solved_runs(h)
                .filter_map(|r| Some((r.overhead_predicted?, r.overhead_measured?)))
                .collect();
            (h.clone(), data.color(h), points)
        })
        .filter(|s| !s.2.is_empty())
        .collect();
    if series.is_empty() {
        return Ok(());
    }
    // One range for both axes (the diagonal stays at 45°), fitted to the points: overheads of
    // one board size cluster (1.08–1.21 on the 24-puzzle), and a fixed 1–1.5 piled them up.
    let values = || {
        series
            .iter()
            .flat_map(|s| s.2.iter().flat_map(|&(x, y)| [x, y]))
    };
    let max = values().fold(1.0f64, f64::max).min(AXIS_CAP);
    let min = values().fold(max, f64::min).max(1.0);
    let pad = ((max - min) * 0.05).max(0.01);
    let (lo, hi) = ((min - pad).max(1.0), (max + pad).min(AXIS_CAP));
    let series = series
        .into_iter()
        .map(|(name, color, points)| {
            let (inside, outside): (Vec<_>, Vec<_>) =
                points.into_iter().partition(|&(x, y)| x <= hi && y <= hi);
            beyond += outside.len();
            (format!("{name} ({} runs)", inside.len()), color, inside)
        })
        .collect();
    let title = format!(
        "{}: iterative-deepening overhead, measured against predicted",
        data.set
    );
    let cut = match beyond {
        0 => String::new(),
        1 => format!(" Axes stop at {hi:.2}; 1 run lies beyond and is not drawn."),
        n => format!(" Axes stop at {hi:.2}; {n} runs lie beyond and are not drawn."),
    };
    let caption = format!(
        "One point per solved run: x is r/(r−1) from the run's growth ratio r (between its last two \
         completed iterations), y is the measured \
         overhead (nodes of all completed iterations over those of the last completed one). \
         Dashed: y = x.{cut}"
    );
    out.save(
        PlotKind::Overhead,
        "overhead",
        style::SQUARE,
        &Overhead {
            series,
            lo,
            hi,
            beyond,
        },
        title,
        caption,
    )
}

impl Chart for Overhead {
    fn legend(&self) -> Vec<legend::Entry> {
        let diagonal = if self.beyond > 0 {
            format!("y = x ({} runs off the axes)", self.beyond)
        } else {
            "y = x".to_string()
        };
        std::iter::once(legend::Entry(diagonal, legend::Sample::Diagonal))
            .chain(self.series.iter().map(|(name, color, _)| {
                let look = chart::dots_look(*color, name);
                legend::Entry(name.clone(), legend::Sample::Series(look, false))
            }))
            .collect()
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), PlotError> {
        let range = self.lo..self.hi;
        let mut chart = chart::frame(root).build_cartesian_2d(range.clone(), range)?;
        // A narrow range gets ticks 0.005 apart: two decimals would print each label twice.
        let decimals = if self.hi - self.lo < 0.1 { 3 } else { 2 };
        chart::mesh(
            &mut chart,
            "predicted overhead r/(r−1) (ratio, no unit)",
            "measured overhead (ratio, no unit)",
        )
        .x_label_formatter(&|x| format!("{x:.decimals$}"))
        .y_label_formatter(&|y| format!("{y:.decimals$}"))
        .draw()?;
        chart::draw_diagonal(&mut chart, self.lo, self.hi)?;
        for (name, color, points) in &self.series {
            chart::draw_dots(&mut chart, points, *color, 0.75, name.as_str())?;
        }
        Ok(())
    }
}
