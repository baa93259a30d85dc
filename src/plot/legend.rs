//! Where the legend goes: in a column of its own right of the plotting area, as wide as its
//! entries, so that no legend ever covers a data point or line (a legend inside the plotting
//! area, even in the corner fewest lines crossed, sat on the optimization path's BFS points and
//! on the scatter plots' dots).

use plotters::coord::Shift;
use plotters::element::MultiLineText;
use plotters::prelude::*;

use super::{chart, style, Chart, PlotError};

/// What stands left of a legend entry's label.
#[derive(Debug, Clone, Copy)]
pub(super) enum Sample {
    /// A series in its look: its line (when `true`) with its marker in the middle.
    Series(style::Look, bool),
    /// The dashed grey diagonal y = x.
    Diagonal,
    /// The black ring round a point whose count changed.
    Ring,
    /// A prediction: two dashes in its colour.
    Predicted(RGBColor),
}

/// One entry of a legend: its label and its sample.
#[derive(Debug, Clone)]
pub(super) struct Entry(pub String, pub Sample);

/// Entries of series drawn with [`Sample::Series`] in [`style::look_of`] their name.
pub(super) fn series(names: impl IntoIterator<Item = String>, line: bool) -> Vec<Entry> {
    names
        .into_iter()
        .map(|n| {
            let look = style::look_of(&n);
            Entry(n, Sample::Series(look, line))
        })
        .collect()
}

/// plotters' legend layout: 30 px for the sample line, a 10 px margin inside the box.
const SAMPLE_PX: i32 = 30;
const MARGIN_PX: i32 = 10;
/// Right of the legend box, to the figure's edge.
const RIGHT_PX: i32 = 10;

/// The legend box's size in pixels for these labels, as plotters lays it out.
pub fn legend_size(labels: &[String]) -> (i32, i32) {
    let font = style::legend_font();
    let mut text = MultiLineText::<_, &str>::new((0, 0), &font);
    for l in labels {
        text.push_line(l.as_str());
    }
    let (w, h) = text.estimate_dimension().unwrap_or((
        labels.iter().map(|l| l.len() as i32 * 9).max().unwrap_or(0),
        labels.len() as i32 * 20,
    ));
    (w + SAMPLE_PX + 2 * MARGIN_PX, h + 2 * MARGIN_PX)
}

/// The width (px) of the legend column for these labels: none without a legend.
pub fn column_width(labels: &[String]) -> i32 {
    if labels.is_empty() {
        return 0;
    }
    legend_size(labels).0 + RIGHT_PX
}

/// Draws `plot` on `root`: the title centred over the whole figure, the chart below it, and
/// right of the chart a column as wide as [`Chart::legend`]'s entries need, with the legend box
/// at its top, level with the plotting area's top.
pub(super) fn lay_out<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    plot: &impl Chart,
    title: &str,
) -> Result<(), PlotError> {
    let body = root
        .margin(chart::MARGIN - 5, 0, 0, 0)
        .titled(title, style::title_font())?;
    let (w, _) = body.dim_in_pixel();
    let entries = plot.legend();
    let labels: Vec<String> = entries.iter().map(|e| e.0.clone()).collect();
    let (left, column) = body.split_horizontally(w as i32 - column_width(&labels));
    plot.draw(&left)?;
    if entries.is_empty() {
        return Ok(());
    }
    let (bw, bh) = legend_size(&labels);
    let top = chart::MARGIN / 2;
    column.draw(&Rectangle::new([(0, top), (bw, top + bh)], WHITE.filled()))?;
    column.draw(&Rectangle::new([(0, top), (bw, top + bh)], BLACK))?;
    let font = style::legend_font();
    let mut text = MultiLineText::<_, &str>::new((SAMPLE_PX + MARGIN_PX, top + MARGIN_PX), &font);
    for l in &labels {
        text.push_line(l.as_str());
    }
    let rows = text
        .compute_line_layout()
        .map_err(|e| PlotError::Draw(e.to_string()))?;
    column.draw(&text)?;
    for (((_, y0), (_, y1)), entry) in rows.into_iter().zip(&entries) {
        draw_sample(&column, entry.1, (MARGIN_PX, (y0 + y1) / 2))?;
    }
    Ok(())
}

/// An entry's sample, 20 px wide, its left end at `at`.
fn draw_sample<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    sample: Sample,
    (x, y): (i32, i32),
) -> Result<(), PlotError> {
    let seg = |a: i32, b: i32, c: RGBColor| {
        PathElement::new(vec![(x + a, y), (x + b, y)], c.stroke_width(2))
    };
    match sample {
        Sample::Diagonal => {
            area.draw(&seg(0, 8, style::REFERENCE_LINE))?;
            area.draw(&seg(13, 20, style::REFERENCE_LINE))?;
        }
        Sample::Ring => area.draw(&Circle::new((x + 10, y), 6, BLACK.stroke_width(2)))?,
        Sample::Predicted(c) => {
            area.draw(&seg(0, 8, c))?;
            area.draw(&seg(12, 20, c))?;
        }
        Sample::Series(look, line) => {
            let fill = look.color.filled();
            if line {
                let ((a, b), (c, d)) = match look.stroke {
                    style::Stroke::Solid => ((0, 20), (20, 20)),
                    style::Stroke::Dashed => ((0, 6), (14, 20)),
                    style::Stroke::Dotted => ((0, 2), (18, 20)),
                };
                area.draw(&seg(a, b, look.color))?;
                area.draw(&seg(c, d, look.color))?;
            }
            match look.marker {
                // A 12-gon rather than an SVG circle: the data points are the plot's only circles.
                style::Marker::Circle => {
                    let round: Vec<(i32, i32)> = (0..12)
                        .map(|i| {
                            let t = f64::from(i) * std::f64::consts::PI / 6.0;
                            (
                                x + 10 + (4.5 * t.cos()).round() as i32,
                                y + (4.5 * t.sin()).round() as i32,
                            )
                        })
                        .collect();
                    area.draw(&Polygon::new(round, fill))?;
                }
                style::Marker::Triangle => area.draw(&TriangleMarker::new((x + 10, y), 6, fill))?,
                style::Marker::Square => {
                    area.draw(&Rectangle::new([(x + 6, y - 4), (x + 14, y + 4)], fill))?
                }
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_column_fits_the_longest_entry() {
        style::register_font();
        assert_eq!(column_width(&[]), 0);
        let short = column_width(&["bfs".to_string()]);
        let long = column_width(&["bfs".to_string(), "astar+linear-conflict".to_string()]);
        assert!(short > 0 && long > short + 100, "{short} {long}");
        // More entries make the box taller, not wider.
        let (w1, h1) = legend_size(&["ida+manhattan".to_string()]);
        let (w2, h2) = legend_size(&["ida+manhattan".to_string(), "ida".to_string()]);
        assert_eq!(w1, w2);
        assert!(h2 > h1);
    }
}
