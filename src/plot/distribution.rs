//! Plot 2: the distribution of generated nodes per heuristic, as box plots on a log scale.

use std::collections::BTreeSet;

use plotters::coord::Shift;
use plotters::prelude::*;

use super::{axis, chart, legend, style, Chart, LogAxis, Out, PlotError, PlotKind, SetData};
use crate::analysis::quantile;

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

/// Height of one method's slot on the (integer) y axis; boxes are centred on multiples.
const SLOT: i32 = 100;

struct Distribution {
    /// Top to bottom: (method, colour, statistics).
    boxes: Vec<(String, RGBColor, BoxStats)>,
    x: LogAxis,
    y_desc: String,
}

/// The methods to draw and the instances to draw them over: every method drawn solved every one
/// of those instances, so the boxes compare the same boards. A method that solved fewer than half
/// as many instances as the one that solved most is left out (with its count), rather than
/// shrink the common set to the boards it managed.
fn common_subset<'a>(data: &SetData<'a>) -> (Vec<String>, BTreeSet<&'a str>, Vec<(String, usize)>) {
    let counts: Vec<(String, usize)> = data
        .heuristics
        .iter()
        .map(|h| (h.clone(), data.solved[h].len()))
        .filter(|(_, n)| *n > 0)
        .collect();
    let most = counts.iter().map(|c| c.1).max().unwrap_or(0);
    let (kept, left_out): (Vec<_>, Vec<_>) = counts.into_iter().partition(|(_, n)| 2 * n >= most);
    let mut common: Option<BTreeSet<&'a str>> = None;
    for (h, _) in &kept {
        let ids: BTreeSet<&'a str> = data.solved[h].keys().copied().collect();
        common = Some(match common {
            None => ids,
            Some(c) => c.intersection(&ids).copied().collect(),
        });
    }
    (
        kept.into_iter().map(|k| k.0).collect(),
        common.unwrap_or_default(),
        left_out,
    )
}

pub(super) fn plot(data: &SetData, out: &mut Out) -> Result<(), PlotError> {
    let (methods, common, left_out) = common_subset(data);
    let boxes: Vec<(String, RGBColor, BoxStats)> = methods
        .iter()
        .filter_map(|h| {
            let runs = &data.solved[h];
            let mut v: Vec<f64> = common
                .iter()
                .filter_map(|id| runs.get(id)?.generated)
                .map(|g| g as f64)
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
            Some((data.shown(h), data.color(h), stats))
        })
        .collect();
    let Some(x) = LogAxis::covering(boxes.iter().flat_map(|b| [b.2.min, b.2.max])) else {
        return Ok(());
    };
    let n = common.len();
    let title = format!("{}: distribution of nodes generated per method", data.set);
    let left_out = if left_out.is_empty() {
        String::new()
    } else {
        format!(
            " Left out, having solved fewer than half as many: {}.",
            left_out
                .iter()
                .map(|(h, k)| format!("{h} ({k} solved)"))
                .collect::<Vec<_>>()
                .join(", ")
        )
    };
    let caption = format!(
        "Nodes generated over the {n} instance{s} of {set} that every method drawn solved, so \
         that the boxes compare the same boards. Box: quartiles (25 % to 75 %, linear \
         interpolation between order statistics); black bar: median; whiskers: minimum and \
         maximum; triangle: arithmetic mean; log scale.{left_out}",
        s = if n == 1 { "" } else { "s" },
        set = data.set,
    );
    out.save(
        PlotKind::NodesDistribution,
        "nodes-distribution",
        style::SIZE,
        &Distribution {
            boxes,
            x,
            y_desc: format!("method ({n} instances all solved)"),
        },
        title,
        caption,
    )
}

impl Chart for Distribution {
    fn legend(&self) -> Vec<legend::Entry> {
        Vec::new()
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), PlotError> {
        // Horizontal boxes: the methods' names stand level on the y axis, readable at print size
        // however many there are (side by side on the x axis they overlapped or shrank the plot).
        let n = self.boxes.len() as i32;
        let names: Vec<&str> = self.boxes.iter().map(|b| b.0.as_str()).collect();
        let widest = names
            .iter()
            .map(|s| {
                root.estimate_text_size(s, &style::tick_font())
                    .map(|(w, _)| w as i32)
                    .unwrap_or(s.len() as i32 * 10)
            })
            .max()
            .unwrap_or(0);
        let slot_y = |i: usize| (n - 1 - i as i32) * SLOT;
        let mut builder = chart::frame(root);
        builder.y_label_area_size(widest + 45);
        let mut chart = builder.build_cartesian_2d(
            self.x.coord(),
            (-SLOT / 2..(n * SLOT - SLOT / 2)).with_key_points((0..n).map(|i| i * SLOT).collect()),
        )?;
        chart::mesh(&mut chart, "nodes generated", self.y_desc.as_str())
            .disable_y_mesh()
            .y_label_formatter(&|y| {
                let i = n - 1 - y / SLOT;
                if y % SLOT == 0 && (0..n).contains(&i) {
                    names[i as usize].to_string()
                } else {
                    String::new()
                }
            })
            .x_label_formatter(&axis::log_tick)
            .draw()?;
        let half = SLOT * 3 / 10;
        for (i, (_, color, s)) in self.boxes.iter().enumerate() {
            let y = slot_y(i);
            let c = *color;
            // Whiskers and caps.
            let line = |a, b| PathElement::new(vec![a, b], BLACK.stroke_width(1));
            chart.draw_series([
                line((s.min, y), (s.q1, y)),
                line((s.q3, y), (s.max, y)),
                line((s.min, y - half / 2), (s.min, y + half / 2)),
                line((s.max, y - half / 2), (s.max, y + half / 2)),
            ])?;
            chart.draw_series([
                Rectangle::new([(s.q1, y - half), (s.q3, y + half)], c.mix(0.45).filled()),
                Rectangle::new([(s.q1, y - half), (s.q3, y + half)], c.stroke_width(2)),
            ])?;
            chart.draw_series([PathElement::new(
                vec![(s.median, y - half), (s.median, y + half)],
                BLACK.stroke_width(3),
            )])?;
            chart.draw_series([TriangleMarker::new((s.mean, y), 7, BLACK.filled())])?;
        }
        Ok(())
    }
}
