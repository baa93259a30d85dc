//! The frame every plot shares: caption, margins, label areas, mesh fonts, and the ways series
//! are drawn (lines with dots, dots, the dashed diagonal). Kept in one place so that all plots
//! look alike and a change of look is made once.

use plotters::chart::MeshStyle;
use plotters::coord::combinators::{LogCoord, WithKeyPoints};
use plotters::coord::ranged1d::ValueFormatter;
use plotters::coord::types::RangedCoordf64;
use plotters::coord::{CoordTranslate, Shift};
use plotters::prelude::*;

use super::{axis, draw_markers, legend, style, Fill, LogAxis, PlotError, Series};

/// A colour channel mixed with white: what `opacity` of it looks like on the white page.
fn blend(channel: u8, opacity: f64) -> u8 {
    (f64::from(channel) * opacity + 255.0 * (1.0 - opacity)).round() as u8
}

/// The coordinates of a log-log plot.
pub(super) type LogLog = Cartesian2d<WithKeyPoints<LogCoord<f64>>, WithKeyPoints<LogCoord<f64>>>;

/// The coordinates of a count (log y) against a bound (linear x).
pub(super) type BoundLog = Cartesian2d<RangedCoordf64, WithKeyPoints<LogCoord<f64>>>;

/// The margin (px) left and right of the chart (half of it above and below).
pub(super) const MARGIN: i32 = 20;
/// The width (px) of the y axis's tick labels and description, left of the plotting area.
pub(super) const Y_LABEL_AREA: i32 = 80;

/// How many pixels wide and high `text` is drawn in `font` (`row` high when the font is
/// missing).
pub(super) fn text_size(font: &TextStyle, text: &str, row: i32) -> (i32, i32) {
    match font.font.box_size(text) {
        Ok((w, h)) => (w as i32, h as i32),
        // Without the font (it is bundled and registered first): a generous guess.
        Err(_) => (text.chars().count() as i32 * 11, row),
    }
}

/// How many pixels wide a tick label is drawn.
pub(super) fn tick_width(label: &str) -> i32 {
    text_size(&style::tick_font(), label, 0).0
}

/// A chart builder with the common margin and label areas. The title above it and the legend
/// band below it are laid out by [`super::legend::lay_out`].
pub(super) fn frame<'a, 'b, DB: DrawingBackend>(
    root: &'a DrawingArea<DB, Shift>,
) -> ChartBuilder<'a, 'b, DB> {
    let mut builder = ChartBuilder::on(root);
    builder
        .margin(MARGIN)
        .margin_top(MARGIN / 2)
        .margin_bottom(MARGIN / 2)
        .x_label_area_size(55)
        .y_label_area_size(Y_LABEL_AREA);
    builder
}

/// The mesh with the common grid density, axis descriptions and fonts; the caller adds its tick
/// formatters (and anything else) and draws it.
pub(super) fn mesh<'a, 'b, DB, X, Y, XT, YT>(
    chart: &'b mut ChartContext<'a, DB, Cartesian2d<X, Y>>,
    x_desc: impl Into<String>,
    y_desc: impl Into<String>,
) -> MeshStyle<'a, 'b, X, Y, DB>
where
    DB: DrawingBackend,
    X: Ranged<ValueType = XT> + ValueFormatter<XT>,
    Y: Ranged<ValueType = YT> + ValueFormatter<YT>,
{
    let mut mesh = chart.configure_mesh();
    mesh.max_light_lines(2)
        .x_desc(x_desc)
        .y_desc(y_desc)
        .axis_desc_style(style::axis_desc_font())
        .label_style(style::tick_font());
    mesh
}

/// A log-log chart: the common frame and mesh, ticked `1e6`-style on both axes, drawn.
pub(super) fn log_log<'a, DB: DrawingBackend>(
    root: &'a DrawingArea<DB, Shift>,
    (x, y): (&LogAxis, &LogAxis),
    x_desc: impl Into<String>,
    y_desc: impl Into<String>,
) -> Result<ChartContext<'a, DB, LogLog>, PlotError> {
    let mut chart = frame(root).build_cartesian_2d(x.coord(), y.coord())?;
    mesh(&mut chart, x_desc, y_desc)
        .x_label_formatter(&axis::log_tick)
        .y_label_formatter(&axis::log_tick)
        .draw()?;
    Ok(chart)
}

/// A chart of a count against a bound in moves: linear x over `x` ticked as integers, log y
/// ticked `1e6`-style; the frame and mesh drawn.
pub(super) fn bound_log<'a, DB: DrawingBackend>(
    root: &'a DrawingArea<DB, Shift>,
    x: (f64, f64),
    y: &LogAxis,
    x_desc: impl Into<String>,
    y_desc: impl Into<String>,
) -> Result<ChartContext<'a, DB, BoundLog>, PlotError> {
    let mut chart = frame(root).build_cartesian_2d(x.0..x.1, y.coord())?;
    // One tick per whole move at most (plotters picks steps of 1, 2, 5, …), labelled only where
    // it falls on a whole number: "40 41 42", never "40 40 41".
    let span = (x.1 - x.0).max(1.0) as usize;
    mesh(&mut chart, x_desc, y_desc)
        .x_labels(span.min(12) + 1)
        .x_label_formatter(&integer_tick)
        .y_label_formatter(&axis::log_tick)
        .draw()?;
    Ok(chart)
}

/// The label of a tick on an integer axis: the integer, or nothing between two.
pub(super) fn integer_tick(x: &f64) -> String {
    if (x - x.round()).abs() < 1e-6 {
        format!("{:.0}", x.round())
    } else {
        String::new()
    }
}

/// The legend entries of [`draw_lines`]: the series that have a point.
pub(super) fn legend_of(series: &[Series]) -> Vec<legend::Entry> {
    legend::series(
        series
            .iter()
            .filter(|s| !s.2.is_empty())
            .map(|s| s.0.clone()),
        true,
    )
}

/// One line per series, with a dot of `radius` pixels on each point and a line in the legend.
pub(super) fn draw_lines<'a, DB, CT>(
    chart: &mut ChartContext<'a, DB, CT>,
    series: &[Series],
    radius: i32,
) -> Result<(), PlotError>
where
    DB: DrawingBackend + 'a,
    CT: CoordTranslate<From = (f64, f64)>,
{
    // A series without a point gets no legend entry either: the legend names what is drawn.
    for i in drawing_order(series.iter().map(|s| s.0.as_str())) {
        let (name, _, points) = &series[i];
        if !points.is_empty() {
            draw_line(chart, name, points, radius)?;
        }
    }
    Ok(())
}

/// The indices of series of these names (or labels) in the order to draw them: the built-in ones, then
/// the outside solvers', whose dash-dotted lines must lie over a built-in line they equal, not
/// under it.
pub(super) fn drawing_order<'n>(names: impl Iterator<Item = &'n str>) -> Vec<usize> {
    let outside: Vec<bool> = (names.map(style::look_of))
        .map(|look| look.stroke == style::Stroke::DashDot)
        .collect();
    let (mut order, after): (Vec<usize>, Vec<usize>) =
        (0..outside.len()).partition(|&i| !outside[i]);
    order.extend(after);
    order
}

/// What a figure with an outside solver's line says in its caption.
const DASH_DOTTED: super::Note = super::Note {
    text: " An outside solver's line is dash-dotted and drawn after the built-in ones: where \
           it equals one of them, that line shows between its dashes.",
    unless: "dash-dotted",
};

/// One series as a line in its [`style::look_of`] (solid, dashed, dotted, dash-dotted), with its marker of
/// `radius` pixels on each point and both in the legend.
pub(super) fn draw_line<'a, DB, CT>(
    chart: &mut ChartContext<'a, DB, CT>,
    name: &str,
    points: &[(f64, f64)],
    radius: i32,
) -> Result<(), PlotError>
where
    DB: DrawingBackend + 'a,
    CT: CoordTranslate<From = (f64, f64)>,
{
    let look = style::look_of(name);
    let stroke = look.color.stroke_width(2);
    let line = points.iter().copied();
    match look.stroke {
        style::Stroke::Solid => chart.draw_series(LineSeries::new(line, stroke))?,
        style::Stroke::Dashed => chart.draw_series(DashedLineSeries::new(line, 10, 6, stroke))?,
        style::Stroke::Dotted => chart.draw_series(DashedLineSeries::new(line, 3, 4, stroke))?,
        style::Stroke::DashDot => {
            super::note(DASH_DOTTED);
            // Dashes of 10 and gaps of 8, a dot (a 2 px stroke, 2 px long) in each gap.
            chart.draw_series(DashedLineSeries::new(line.clone(), 10, 8, stroke))?;
            chart.draw_series(DottedLineSeries::new(line, 14, 18, move |(x, y)| {
                PathElement::new(vec![(x - 1, y), (x + 1, y)], stroke)
            }))?
        }
    };
    if radius > 0 {
        draw_markers(chart, points, look, radius, Fill::Full)?;
    }
    Ok(())
}

/// The look [`draw_dots`] gives its points in the legend: the colour's marker (a scatter's
/// points take the heuristic's colour, and so its marker).
pub(super) fn dots_look(color: RGBColor, label: &str) -> style::Look {
    style::Look {
        color,
        marker: style::marker_of_color(color),
        ..style::look_of(label)
    }
}

/// Points as translucent dots (`opacity` of `color`); the legend entry is [`dots_look`].
pub(super) fn draw_dots<'a, DB, CT>(
    chart: &mut ChartContext<'a, DB, CT>,
    points: &[(f64, f64)],
    color: RGBColor,
    opacity: f64,
    label: &str,
) -> Result<(), PlotError>
where
    DB: DrawingBackend + 'a,
    CT: CoordTranslate<From = (f64, f64)>,
{
    let look = dots_look(color, label);
    let faded = style::Look {
        color: RGBColor(
            blend(color.0, opacity),
            blend(color.1, opacity),
            blend(color.2, opacity),
        ),
        ..look
    };
    draw_markers(chart, points, faded, 4, Fill::Full)?;
    Ok(())
}

/// The dashed grey diagonal y = x from `lo` to `hi` (in the legend: [`legend::Sample::Diagonal`]).
pub(super) fn draw_diagonal<'a, DB, CT>(
    chart: &mut ChartContext<'a, DB, CT>,
    lo: f64,
    hi: f64,
) -> Result<(), PlotError>
where
    DB: DrawingBackend + 'a,
    CT: CoordTranslate<From = (f64, f64)>,
{
    chart.draw_series(DashedLineSeries::new(
        [(lo, lo), (hi, hi)],
        8,
        5,
        style::REFERENCE_LINE.stroke_width(2),
    ))?;
    Ok(())
}
