//! Plot 2: the distribution of generated nodes per heuristic, as box plots on a log scale.

use plotters::coord::Shift;
use plotters::prelude::*;

use super::{axis, chart, draw_legend, style, Chart, LogAxis, Out, PlotError, PlotKind, SetData};

/// The q-quantile of sorted values, interpolating linearly between order statistics (the
/// "type 7" definition of R and numpy's default).
pub fn quantile(sorted: &[f64], q: f64) -> f64 {
    let pos = q * (sorted.len() - 1) as f64;
    let (i, frac) = (pos.floor() as usize, pos.fract());
    if i + 1 < sorted.len() {
        sorted[i] + frac * (sorted[i + 1] - sorted[i])
    } else {
        sorted[i]
    }
}

/// Five-number summary plus the mean.
#[derive(Debug, Clone, Copy, PartialEq)]
struct BoxStats {
    min: f64,
    q1: f64,
    median: f64,
    q3: f64,
    max: f64,
    mean: f64,
}

/// Width of one heuristic's slot on the (integer) x axis; boxes are centred on multiples.
const SLOT: i32 = 100;

struct Distribution {
    boxes: Vec<(String, RGBColor, BoxStats, usize)>,
    y: LogAxis,
}

pub(super) fn plot(data: &SetData, out: &mut Out) -> Result<(), PlotError> {
    let boxes: Vec<(String, RGBColor, BoxStats, usize)> = data
        .heuristics
        .iter()
        .filter_map(|h| {
            let mut v: Vec<f64> = data
                .solved_runs(h)
                .map(|r| r.generated as f64)
                .filter(|&n| n > 0.0)
                .collect();
            if v.is_empty() {
                return None;
            }
            v.sort_by(f64::total_cmp);
            let stats = BoxStats {
                min: v[0],
                q1: quantile(&v, 0.25),
                median: quantile(&v, 0.5),
                q3: quantile(&v, 0.75),
                max: v[v.len() - 1],
                mean: v.iter().sum::<f64>() / v.len() as f64,
            };
            Some((h.clone(), data.color(h), stats, v.len()))
        })
        .collect();
    let Some(y) = LogAxis::covering(boxes.iter().flat_map(|b| [b.2.min, b.2.max])) else {
        return Ok(());
    };
    let title = format!(
        "{}: distribution of nodes generated per heuristic",
        data.set
    );
    let caption = "Box: quartiles (25 % to 75 %, linear interpolation between order statistics); \
                   black bar: median; whiskers: minimum and maximum; triangle: arithmetic mean. \
                   Solved runs only, log scale."
        .to_string();
    // Each box's label needs about 200 pixels (`astar+linear-conflict (11)`): widen the figure
    // rather than let the labels overlap.
    let width = style::SIZE.0.max(205 * boxes.len() as u32 + 120);
    out.save(
        PlotKind::NodesDistribution,
        "nodes-distribution",
        (width, style::SIZE.1),
        &Distribution { boxes, y },
        title,
        caption,
    )
}

impl Chart for Distribution {
    fn draw<DB: DrawingBackend>(
        &self,
        root: &DrawingArea<DB, Shift>,
        title: &str,
    ) -> Result<(), PlotError> {
        let n = self.boxes.len();
        let names: Vec<String> = self
            .boxes
            .iter()
            .map(|(name, _, _, count)| format!("{name} ({count})"))
            .collect();
        let mut chart = chart::frame(root, title).build_cartesian_2d(
            (-SLOT / 2..(n as i32 * SLOT - SLOT / 2))
                .with_key_points((0..n as i32).map(|i| i * SLOT).collect()),
            self.y.coord(),
        )?;
        chart::mesh(&mut chart, "heuristic (solved runs)", "nodes generated")
            .disable_x_mesh()
            .x_label_formatter(&|x| {
                let i = x / SLOT;
                if x % SLOT == 0 && i >= 0 && (i as usize) < names.len() {
                    names[i as usize].clone()
                } else {
                    String::new()
                }
            })
            .y_label_formatter(&axis::log_tick)
            .draw()?;
        let half = SLOT * 3 / 10;
        for (i, (_, color, s, _)) in self.boxes.iter().enumerate() {
            let x = i as i32 * SLOT;
            let c = *color;
            // Whiskers and caps.
            chart.draw_series([
                PathElement::new(vec![(x, s.min), (x, s.q1)], BLACK.stroke_width(1)),
                PathElement::new(vec![(x, s.q3), (x, s.max)], BLACK.stroke_width(1)),
                PathElement::new(
                    vec![(x - half / 2, s.min), (x + half / 2, s.min)],
                    BLACK.stroke_width(1),
                ),
                PathElement::new(
                    vec![(x - half / 2, s.max), (x + half / 2, s.max)],
                    BLACK.stroke_width(1),
                ),
            ])?;
            chart.draw_series([
                Rectangle::new([(x - half, s.q1), (x + half, s.q3)], c.mix(0.45).filled()),
                Rectangle::new([(x - half, s.q1), (x + half, s.q3)], c.stroke_width(2)),
            ])?;
            chart.draw_series([PathElement::new(
                vec![(x - half, s.median), (x + half, s.median)],
                BLACK.stroke_width(3),
            )])?;
            chart.draw_series([TriangleMarker::new((x, s.mean), 7, BLACK.filled())])?;
        }
        // Legend entries explaining the glyphs.
        chart
            .draw_series(std::iter::empty::<Circle<(i32, f64), i32>>())?
            .label("box: 25 % to 75 % quantiles")
            .legend(|(x, y)| Rectangle::new([(x, y - 6), (x + 20, y + 6)], BLACK.stroke_width(1)));
        chart
            .draw_series(std::iter::empty::<Circle<(i32, f64), i32>>())?
            .label("bar: median")
            .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], BLACK.stroke_width(3)));
        chart
            .draw_series(std::iter::empty::<Circle<(i32, f64), i32>>())?
            .label("whiskers: min and max")
            .legend(|(x, y)| {
                PathElement::new(
                    vec![(x + 10, y - 7), (x + 10, y + 7)],
                    BLACK.stroke_width(1),
                )
            });
        chart
            .draw_series(std::iter::empty::<Circle<(i32, f64), i32>>())?
            .label("triangle: mean")
            .legend(|(x, y)| TriangleMarker::new((x + 10, y), 7, BLACK.filled()));
        draw_legend(&mut chart, SeriesLabelPosition::UpperRight)?;
        Ok(())
    }
}
