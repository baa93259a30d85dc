//! Where the legend goes: in a band of its own below the x-axis description, its entries in as
//! many columns as fit the figure's width and as many rows as they need, so that no legend ever
//! covers a data point or line and the plotting area keeps the figure's whole width (less the
//! y-axis labels and margins) whatever the labels' lengths. A legend inside the plotting area,
//! even in the corner fewest lines crossed, sat on the optimization path's BFS points and on the
//! scatter plots' dots; a column right of the plotting area left the seconds-vs-nodes plot a
//! third of the figure's width.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::{chart, style, Fill, PlotError};

/// A chart drawing itself on an area of backend `DB`.
pub(super) type Draw<'a, DB> = dyn Fn(&DrawingArea<DB, Shift>) -> Result<(), PlotError> + 'a;

/// What stands left of a legend entry's label.
#[derive(Debug, Clone, Copy)]
pub(super) enum Sample {
    /// A series in its look: its line (when `true`) with its marker in the middle.
    Series(style::Look, bool),
    /// A series' line with its marker half filled: A* points beside IDA*'s of the same
    /// heuristic (same colour and marker) where no line runs through them.
    HalfSeries(style::Look),
    /// A series' marker drawn hollow: a run stopped by a limit.
    Hollow(style::Look),
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

/// The sample's width and the space between it and its label.
const SAMPLE_PX: i32 = SAMPLE_WIDTH + 6;

/// How wide an entry's sample is.
const SAMPLE_WIDTH: i32 = 24;
/// Inside the legend box, round its entries.
const PADDING_PX: i32 = 8;
/// Between two columns of entries.
const COLUMN_GAP_PX: i32 = 14;
/// Between the legend box and the figure's edges (below, and left and right at the widest).
const EDGE_PX: i32 = 8;

/// The entries of a legend arranged in rows and columns (filled row by row, in the order
/// drawn), each column as wide as its widest entry.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Grid {
    /// Each column's width in pixels: sample and label.
    pub columns: Vec<i32>,
    pub rows: i32,
    /// One row's height in pixels.
    pub row: i32,
}

impl Grid {
    /// The legend box's size in pixels.
    pub fn size(&self) -> (i32, i32) {
        let cols = self.columns.len() as i32;
        (
            self.columns.iter().sum::<i32>() + COLUMN_GAP_PX * (cols - 1).max(0) + 2 * PADDING_PX,
            self.rows * self.row + 2 * PADDING_PX,
        )
    }

    /// The band's height: the box and the space below it.
    pub fn band(&self) -> i32 {
        self.size().1 + EDGE_PX
    }
}

/// The width and height (px) plotters gives `label` in the legend's font.
fn label_size(label: &str) -> (i32, i32) {
    chart::text_size(&style::legend_font(), label, LEGEND_ROW_PX)
}

/// A row: the font's size and a quarter, as plotters sets lines of text.
const LEGEND_ROW_PX: i32 = style::LEGEND_SIZE as i32 * 5 / 4;

/// The grid of these labels in a box at most `width` pixels wide: as many columns as fit, then
/// as few as still need that many rows (7 entries in 4 and 3, not 5 and 2); one column however
/// long its labels.
pub(super) fn grid(labels: &[String], width: i32) -> Grid {
    let widths: Vec<i32> = labels.iter().map(|l| label_size(l).0 + SAMPLE_PX).collect();
    let n = widths.len().max(1);
    let columns_of = |cols: usize| -> Vec<i32> {
        (0..cols)
            .map(|c| {
                widths
                    .iter()
                    .skip(c)
                    .step_by(cols)
                    .copied()
                    .max()
                    .unwrap_or(0)
            })
            .collect()
    };
    let fits = |cols: usize| {
        let g = Grid {
            columns: columns_of(cols),
            rows: 1,
            row: LEGEND_ROW_PX,
        };
        g.size().0 <= width
    };
    let most = (1..=n).rev().find(|&c| fits(c)).unwrap_or(1);
    let rows = n.div_ceil(most);
    let cols = n.div_ceil(rows);
    Grid {
        columns: columns_of(cols),
        rows: rows as i32,
        row: LEGEND_ROW_PX,
    }
}

/// Legends of up to this many rows fit the figure sizes of [`style`] with a plotting area of
/// more than half the height.
const ROWS_IN_SIZE: i32 = 3;

/// `size` with room for a legend of these entries: one of more than [`ROWS_IN_SIZE`] rows (the
/// 24-puzzle's published columns beside ours, one long label a row) makes the figure taller by
/// its extra rows, so that the plotting area keeps the height it was designed with.
pub(super) fn fitted(size: (u32, u32), entries: &[Entry]) -> (u32, u32) {
    let labels: Vec<String> = entries.iter().map(|e| e.0.clone()).collect();
    let rows = grid(&labels, size.0 as i32 - 2 * EDGE_PX).rows;
    let extra = (rows - ROWS_IN_SIZE).max(0) * LEGEND_ROW_PX;
    (size.0, size.1 + extra as u32)
}

/// The title in as few lines as fit in `width` pixels, broken between words, so that a long
/// instance set's name does not push both ends of its title off the figure.
fn title_lines<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    title: &str,
    width: i32,
) -> Vec<String> {
    let font = style::title_font();
    let fits = |line: &str| match root.estimate_text_size(line, &font) {
        Ok((w, _)) => w as i32 <= width,
        Err(_) => true,
    };
    let mut lines: Vec<String> = Vec::new();
    for word in title.split(' ') {
        match lines.last_mut() {
            Some(line) if fits(&format!("{line} {word}")) => {
                line.push(' ');
                line.push_str(word);
            }
            _ => lines.push(word.to_string()),
        }
    }
    lines
}

/// Draws `plot` on `root`: the title centred over the whole figure, the chart below it, and
/// below the chart's x-axis description a band as tall as [`super::Chart::legend`]'s entries need,
/// with the legend box centred under the plotting area (under the figure when wider: the box
/// may span the figure's width, so that the lab's seven methods fit in two rows).
/// The chart comes in as `draw` and its `entries`, so that this is compiled once per backend,
/// not once per kind of chart.
pub(super) fn lay_out<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    entries: &[Entry],
    draw: &Draw<DB>,
    title: &str,
) -> Result<(), PlotError> {
    super::new_figure();
    let mut body = root.margin(chart::MARGIN - 5, 0, 0, 0);
    for line in title_lines(root, title, root.dim_in_pixel().0 as i32 - 2 * EDGE_PX) {
        body = body.titled(&line, style::title_font())?;
    }
    if entries.is_empty() {
        return draw(&body);
    }
    let (w, h) = body.dim_in_pixel();
    let (w, h) = (w as i32, h as i32);
    let labels: Vec<String> = entries.iter().map(|e| e.0.clone()).collect();
    let grid = grid(&labels, w - 2 * EDGE_PX);
    let (upper, band) = body.split_vertically(h - grid.band());
    draw(&upper)?;
    let (bw, bh) = grid.size();
    // The plotting area spans from the y-axis labels to the right margin.
    let (plot_left, plot_right) = (chart::MARGIN + chart::Y_LABEL_AREA, w - chart::MARGIN);
    let left = if bw <= plot_right - plot_left {
        plot_left + (plot_right - plot_left - bw) / 2
    } else {
        (w - bw) / 2
    };
    band.draw(&Rectangle::new(
        [(left, 0), (left + bw, bh)],
        WHITE.filled(),
    ))?;
    band.draw(&Rectangle::new([(left, 0), (left + bw, bh)], BLACK))?;
    let font = style::legend_font().pos(Pos::new(HPos::Left, VPos::Center));
    let cols = grid.columns.len();
    for (i, entry) in entries.iter().enumerate() {
        let (row, col) = ((i / cols) as i32, i % cols);
        let x = left
            + PADDING_PX
            + grid.columns[..col].iter().sum::<i32>()
            + COLUMN_GAP_PX * col as i32;
        let y = PADDING_PX + row * grid.row + grid.row / 2;
        draw_sample(&band, entry.1, (x, y))?;
        band.draw(&Text::new(entry.0.as_str(), (x + SAMPLE_PX, y), &font))?;
    }
    Ok(())
}

/// A sample of a dashed line (drawn with dashes of 8 and gaps of 5).
const DASHES_8_5: [(i32, i32); 2] = [(0, 8), (13, 21)];

/// An entry's sample, [`SAMPLE_WIDTH`] px wide, its left end at `at`: a dashed or dotted line
/// shows gaps on both sides of the marker, a solid one runs into it (the label names the
/// algorithm too: `astar+…`, `bfs`).
fn draw_sample<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    sample: Sample,
    (x, y): (i32, i32),
) -> Result<(), PlotError> {
    let segments = |parts: &[(i32, i32)], c: RGBColor| -> Result<(), PlotError> {
        for &(a, b) in parts {
            area.draw(&PathElement::new(
                vec![(x + a, y), (x + b, y)],
                c.stroke_width(2),
            ))?;
        }
        Ok(())
    };
    let middle = (x + W / 2, y);
    match sample {
        Sample::Diagonal => segments(&DASHES_8_5, style::REFERENCE_LINE)?,
        Sample::Ring => area.draw(&Circle::new(middle, 6, BLACK.stroke_width(2)))?,
        Sample::Predicted(c) => segments(&DASHES_8_5, c)?,
        Sample::Series(look, line) => {
            if line {
                segments(stroke_parts(look.stroke), look.color)?;
            }
            draw_marker(area, look, Fill::Full, middle)?;
        }
        Sample::HalfSeries(look) => {
            segments(stroke_parts(look.stroke), look.color)?;
            draw_marker(area, look, Fill::Half, middle)?;
        }
        Sample::Hollow(look) => draw_marker(area, look, Fill::Hollow, middle)?,
    }
    Ok(())
}

/// A sample's width in pixels.
const W: i32 = SAMPLE_WIDTH;

/// The pieces of a legend sample's line in a stroke, in pixels from its left end.
fn stroke_parts(stroke: style::Stroke) -> &'static [(i32, i32)] {
    match stroke {
        style::Stroke::Solid => &[(0, W)],
        style::Stroke::Dashed => &[(0, 4), (W - 4, W)],
        style::Stroke::Dotted => &[(0, 1), (3, 4), (W - 4, W - 3), (W - 1, W)],
        style::Stroke::DashDot => &[(0, 3), (5, 6), (W - 6, W - 5), (W - 3, W)],
    }
}

/// `look`'s marker centred at `at`, painted `fill`, as the data's ([`super::draw_marker`]). A
/// circle is drawn as one, as in the data (a polygon of integer points came out lemon-shaped in
/// print), after the legend's white box, which tests read as the end of the data.
fn draw_marker<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    look: style::Look,
    fill: Fill,
    at: (i32, i32),
) -> Result<(), PlotError> {
    super::draw_marker(area, at, 0, look, 4, fill)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn labels(names: &[&str]) -> Vec<String> {
        names.iter().map(|s| s.to_string()).collect()
    }

    /// A title wider than the figure is broken between words, every line fitting, no word lost;
    /// a short one stays one line.
    /// A legend of one long label a row, as the 24-puzzle's published columns beside ours, makes
    /// the figure taller by its rows past three; a short one leaves the size alone.
    #[test]
    fn a_tall_legend_makes_the_figure_taller() {
        let entries = |n: usize| -> Vec<Entry> {
            let names = (0..n)
                .map(|i| format!("a long series name, as the published columns have, number {i}"));
            series(names, true)
        };
        assert_eq!(fitted(style::SIZE, &entries(2)), style::SIZE);
        let (w, h) = fitted(style::SIZE, &entries(7));
        assert_eq!(w, style::SIZE.0);
        assert_eq!(h, style::SIZE.1 + 4 * LEGEND_ROW_PX as u32);
    }

    #[test]
    fn a_long_title_wraps_within_the_figure() {
        style::register_font();
        let mut svg = String::new();
        let root = SVGBackend::with_string(&mut svg, style::SQUARE).into_drawing_area();
        let long = "walk40-4x4-s2026: iterative-deepening overhead, measured against predicted";
        let lines = title_lines(&root, long, 664);
        assert!(lines.len() >= 2, "{lines:?}");
        for line in &lines {
            let (w, _) = root.estimate_text_size(line, &style::title_font()).unwrap();
            assert!(w <= 664, "{line}: {w} px");
        }
        assert_eq!(lines.join(" "), long);
        assert_eq!(
            title_lines(&root, "korf100: nodes", 664),
            ["korf100: nodes"]
        );
    }

    /// Entries fill rows of as many columns as fit the width, balanced; a long label takes one
    /// column of its own; more entries make the band taller, never wider than the figure.
    #[test]
    fn the_grid_fits_its_width() {
        style::register_font();
        let lab = labels(&[
            "bfs",
            "astar+manhattan",
            "astar+linear-conflict",
            "astar+pdb-663",
            "manhattan",
            "linear-conflict",
            "pdb-663",
        ]);
        let wide = grid(&lab, 704);
        assert!(wide.size().0 <= 704, "{wide:?}");
        assert_eq!((wide.columns.len(), wide.rows), (4, 2), "{wide:?}");
        // Balanced: 7 entries never as 6 and 1.
        let narrow = grid(&lab, 400);
        assert!(narrow.size().0 <= 400, "{narrow:?}");
        assert!(
            narrow.rows > 2
                && narrow.columns.len() * narrow.rows as usize - 7 < narrow.columns.len()
        );
        let one = grid(&labels(&["y = x"]), 680);
        assert_eq!((one.columns.len(), one.rows), (1, 1));
        assert!(one.band() < narrow.band());
        let long = grid(&labels(&[&"x".repeat(200)]), 300);
        assert_eq!((long.columns.len(), long.rows), (1, 1));
    }
}
