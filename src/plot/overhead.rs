//! Plot 5: the iterative-deepening overhead each run measured against the r/(r−1) its growth
//! ratio predicts, one point per solved run; on the diagonal the geometric model is exact.

use plotters::coord::Shift;
use plotters::prelude::*;

use super::{draw_legend, legend_dot, style, Chart, Out, PlotError, Series, SetData};

/// The axes stop here so that a few runs with r close to 1 (huge predicted overhead) do not
/// squash all the others into a corner; those runs are counted in the legend.
const AXIS_CAP: f64 = 5.0;

struct Overhead {
    series: Vec<Series>,
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
    let max = series
        .iter()
        .flat_map(|s| s.2.iter().flat_map(|&(x, y)| [x, y]))
        .fold(1.0f64, f64::max);
    let hi = (max * 1.05).clamp(1.5, AXIS_CAP);
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
    let caption = format!(
        "One point per solved run: x is r/(r−1) from the run's growth ratio r, y is the measured \
         overhead (nodes of all completed iterations over those of the last completed one). \
         Dashed: y = x. Axes stop at {hi:.2}; {beyond} runs lie beyond and are not drawn."
    );
    out.save(
        "overhead",
        style::SQUARE,
        &Overhead { series, hi, beyond },
        title,
        caption,
    )
}

impl Chart for Overhead {
    fn draw<DB: DrawingBackend>(
        &self,
        root: &DrawingArea<DB, Shift>,
        title: &str,
    ) -> Result<(), PlotError> {
        let mut chart = ChartBuilder::on(root)
            .caption(title, style::title_font())
            .margin(20)
            .x_label_area_size(55)
            .y_label_area_size(80)
            .build_cartesian_2d(1.0..self.hi, 1.0..self.hi)?;
        chart
            .configure_mesh()
            .max_light_lines(2)
            .x_desc("predicted overhead r/(r−1) (ratio, no unit)")
            .y_desc("measured overhead (ratio, no unit)")
            .axis_desc_style(style::axis_desc_font())
            .label_style(style::tick_font())
            .x_label_formatter(&|x| format!("{x:.2}"))
            .y_label_formatter(&|y| format!("{y:.2}"))
            .draw()?;
        chart
            .draw_series(DashedLineSeries::new(
                [(1.0, 1.0), (self.hi, self.hi)],
                8,
                5,
                style::REFERENCE_LINE.stroke_width(2),
            ))?
            .label(if self.beyond > 0 {
                format!("y = x ({} runs off the axes)", self.beyond)
            } else {
                "y = x".to_string()
            })
            .legend(|(x, y)| {
                PathElement::new(
                    vec![(x, y), (x + 20, y)],
                    style::REFERENCE_LINE.stroke_width(2),
                )
            });
        for (name, color, points) in &self.series {
            let color = *color;
            chart
                .draw_series(
                    points
                        .iter()
                        .map(|&p| Circle::new(p, 4, color.mix(0.75).filled())),
                )?
                .label(name.as_str())
                .legend(legend_dot(color));
        }
        draw_legend(&mut chart, SeriesLabelPosition::UpperLeft)?;
        Ok(())
    }
}
