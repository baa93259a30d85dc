//! The frame every plot shares: caption, margins, label areas, mesh fonts, and the ways series
//! are drawn (lines with dots, dots, the dashed diagonal). Kept in one place so that all plots
//! look alike and a change of look is made once.

use plotters::chart::MeshStyle;
use plotters::coord::combinators::{LogCoord, WithKeyPoints};
use plotters::coord::ranged1d::ValueFormatter;
use plotters::coord::types::RangedCoordf64;
use plotters::coord::{CoordTranslate, Shift};
use plotters::prelude::*;

use super::{axis, legend_dot, legend_line, style, LogAxis, PlotError, Series};

/// The coordinates of a log-log plot.
pub(super) type LogLog = Cartesian2d<WithKeyPoints<LogCoord<f64>>, WithKeyPoints<LogCoord<f64>>>;

/// The coordinates of a count (log y) against a bound (linear x).
pub(super) type BoundLog = Cartesian2d<RangedCoordf64, WithKeyPoints<LogCoord<f64>>>;

/// A chart builder with the common caption, margin and label areas.
pub(super) fn frame<'a, 'b, DB: DrawingBackend>(
    root: &'a DrawingArea<DB, Shift>,
    title: &str,
) -> ChartBuilder<'a, 'b, DB> {
    let mut builder = ChartBuilder::on(root);
    builder
        .caption(title, style::title_font())
        .margin(20)
        .x_label_area_size(55)
        .y_label_area_size(80);
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
    title: &str,
    (x, y): (&LogAxis, &LogAxis),
    x_desc: impl Into<String>,
    y_desc: impl Into<String>,
) -> Result<ChartContext<'a, DB, LogLog>, PlotError> {
    let mut chart = frame(root, title).build_cartesian_2d(x.coord(), y.coord())?;
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
    title: &str,
    x: (f64, f64),
    y: &LogAxis,
    x_desc: impl Into<String>,
    y_desc: impl Into<String>,
) -> Result<ChartContext<'a, DB, BoundLog>, PlotError> {
    let mut chart = frame(root, title).build_cartesian_2d(x.0..x.1, y.coord())?;
    mesh(&mut chart, x_desc, y_desc)
        .x_label_formatter(&|x| format!("{x:.0}"))
        .y_label_formatter(&axis::log_tick)
        .draw()?;
    Ok(chart)
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
    for (name, color, points) in series {
        let color = *color;
        chart
            .draw_series(LineSeries::new(
                points.iter().copied(),
                color.stroke_width(2),
            ))?
            .label(name.as_str())
            .legend(legend_line(color));
        chart.draw_series(
            points
                .iter()
                .map(|&p| Circle::new(p, radius, color.filled())),
        )?;
    }
    Ok(())
}

/// Points as translucent dots (`opacity` of `color`), with a dot in the legend.
pub(super) fn draw_dots<'a, DB, CT>(
    chart: &mut ChartContext<'a, DB, CT>,
    points: &[(f64, f64)],
    color: RGBColor,
    opacity: f64,
    label: impl Into<String>,
) -> Result<(), PlotError>
where
    DB: DrawingBackend + 'a,
    CT: CoordTranslate<From = (f64, f64)>,
{
    chart
        .draw_series(
            points
                .iter()
                .map(|&p| Circle::new(p, 4, color.mix(opacity).filled())),
        )?
        .label(label)
        .legend(legend_dot(color));
    Ok(())
}

/// The dashed grey diagonal y = x from `lo` to `hi`, labelled in the legend.
pub(super) fn draw_diagonal<'a, DB, CT>(
    chart: &mut ChartContext<'a, DB, CT>,
    lo: f64,
    hi: f64,
    label: impl Into<String>,
) -> Result<(), PlotError>
where
    DB: DrawingBackend + 'a,
    CT: CoordTranslate<From = (f64, f64)>,
{
    chart
        .draw_series(DashedLineSeries::new(
            [(lo, lo), (hi, hi)],
            8,
            5,
            style::REFERENCE_LINE.stroke_width(2),
        ))?
        .label(label)
        .legend(|(x, y)| {
            PathElement::new(
                vec![(x, y), (x + 20, y)],
                style::REFERENCE_LINE.stroke_width(2),
            )
        });
    Ok(())
}
