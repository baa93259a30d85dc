//! Where the legend goes: in a corner of the plotting area that no drawn point or line passes
//! through, so that the legend never hides data (the peak-stored plot's fixed lower-right
//! legend sat on IDA*'s line of length + 1 states).

use plotters::chart::{ChartContext, SeriesLabelPosition};
use plotters::element::MultiLineText;
use plotters::prelude::*;

use super::style;

/// A place for the legend: a corner of the plotting area or the middle of a side.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Corner {
    UpperLeft,
    UpperRight,
    LowerRight,
    LowerLeft,
    MiddleRight,
    MiddleLeft,
    UpperMiddle,
    LowerMiddle,
}

impl Corner {
    pub fn position(self) -> SeriesLabelPosition {
        match self {
            Corner::UpperLeft => SeriesLabelPosition::UpperLeft,
            Corner::UpperRight => SeriesLabelPosition::UpperRight,
            Corner::LowerRight => SeriesLabelPosition::LowerRight,
            Corner::LowerLeft => SeriesLabelPosition::LowerLeft,
            Corner::MiddleRight => SeriesLabelPosition::MiddleRight,
            Corner::MiddleLeft => SeriesLabelPosition::MiddleLeft,
            Corner::UpperMiddle => SeriesLabelPosition::UpperMiddle,
            Corner::LowerMiddle => SeriesLabelPosition::LowerMiddle,
        }
    }
}

/// plotters' legend layout: 30 px for the sample line, a 10 px margin inside the box, the box
/// 5 px from the frame.
const SAMPLE_PX: i32 = 30;
const MARGIN_PX: i32 = 10;
const INSET_PX: i32 = 5;
/// How close (px) a point or line may come to the box.
const CLEARANCE_PX: i32 = 4;

/// The legend box's size in pixels for these labels, as plotters lays it out.
pub fn legend_size(labels: &[&str]) -> (i32, i32) {
    let font = style::legend_font();
    let mut text = MultiLineText::<_, &str>::new((0, 0), &font);
    for l in labels {
        text.push_line(*l);
    }
    let (w, h) = text.estimate_dimension().unwrap_or((
        labels.iter().map(|l| l.len() as i32 * 9).max().unwrap_or(0),
        labels.len() as i32 * 20,
    ));
    (w + SAMPLE_PX + 2 * MARGIN_PX, h + 2 * MARGIN_PX)
}

/// The first of `preferred` and then the other corners (then the middles of the sides) whose
/// legend box (of `size`, inside the
/// plotting area `area` = (x0, y0, x1, y1)) no point or line segment of `lines` (pixels) comes
/// near; when every corner is crossed, the one crossed least.
pub fn pick_corner(
    area: (i32, i32, i32, i32),
    size: (i32, i32),
    lines: &[Vec<(i32, i32)>],
    preferred: Corner,
) -> Corner {
    let (x0, y0, x1, y1) = area;
    let (w, h) = size;
    let rect = |c: Corner| {
        // As plotters lays the box out.
        let x = match c {
            Corner::UpperLeft | Corner::LowerLeft | Corner::MiddleLeft => x0 + INSET_PX,
            Corner::UpperRight | Corner::LowerRight | Corner::MiddleRight => x1 - INSET_PX - w,
            Corner::UpperMiddle | Corner::LowerMiddle => x0 + (x1 - x0 - w) / 2,
        };
        let y = match c {
            Corner::UpperLeft | Corner::UpperRight | Corner::UpperMiddle => y0 + INSET_PX,
            Corner::LowerLeft | Corner::LowerRight | Corner::LowerMiddle => y1 - INSET_PX - h,
            Corner::MiddleLeft | Corner::MiddleRight => y0 + (y1 - y0 - h) / 2,
        };
        (
            x - CLEARANCE_PX,
            y - CLEARANCE_PX,
            x + w + CLEARANCE_PX,
            y + h + CLEARANCE_PX,
        )
    };
    let crossings = |c: Corner| -> usize {
        let (rx0, ry0, rx1, ry1) = rect(c);
        let inside = |(x, y): (f64, f64)| {
            x >= f64::from(rx0) && x <= f64::from(rx1) && y >= f64::from(ry0) && y <= f64::from(ry1)
        };
        let mut n = 0;
        for line in lines {
            let at = |i: usize| (f64::from(line[i].0), f64::from(line[i].1));
            for i in 0..line.len() {
                if inside(at(i)) {
                    n += 1;
                }
                if i + 1 < line.len() {
                    // Samples every few pixels along the segment.
                    let (a, b) = (at(i), at(i + 1));
                    let steps = ((b.0 - a.0).hypot(b.1 - a.1) / 3.0).ceil().max(1.0) as usize;
                    n += (1..steps)
                        .map(|k| k as f64 / steps as f64)
                        .filter(|t| inside((a.0 + t * (b.0 - a.0), a.1 + t * (b.1 - a.1))))
                        .count();
                }
            }
        }
        n
    };
    let order = [
        preferred,
        Corner::UpperLeft,
        Corner::UpperRight,
        Corner::LowerRight,
        Corner::LowerLeft,
        Corner::MiddleRight,
        Corner::MiddleLeft,
        Corner::UpperMiddle,
        Corner::LowerMiddle,
    ];
    order
        .iter()
        .copied()
        .find(|&c| crossings(c) == 0)
        .unwrap_or_else(|| {
            order
                .iter()
                .copied()
                .min_by_key(|&c| crossings(c))
                .unwrap_or(preferred)
        })
}

/// [`pick_corner`] for a chart: `lines` in data coordinates, mapped to the chart's pixels.
pub fn free_corner<'a, DB, X, Y>(
    chart: &ChartContext<'a, DB, Cartesian2d<X, Y>>,
    lines: &[Vec<(f64, f64)>],
    labels: &[&str],
    preferred: Corner,
) -> SeriesLabelPosition
where
    DB: DrawingBackend + 'a,
    X: Ranged<ValueType = f64>,
    Y: Ranged<ValueType = f64>,
{
    let (xr, yr) = chart.plotting_area().get_pixel_range();
    let px: Vec<Vec<(i32, i32)>> = lines
        .iter()
        .map(|l| l.iter().map(|p| chart.backend_coord(p)).collect())
        .collect();
    pick_corner(
        (xr.start, yr.start, xr.end, yr.end),
        legend_size(labels),
        &px,
        preferred,
    )
    .position()
}

#[cfg(test)]
mod tests {
    use super::*;

    const AREA: (i32, i32, i32, i32) = (0, 0, 1000, 600);

    #[test]
    fn the_preferred_corner_when_it_is_free() {
        let lines = vec![vec![(500, 300), (600, 350)]];
        assert_eq!(
            pick_corner(AREA, (200, 150), &lines, Corner::LowerRight),
            Corner::LowerRight
        );
    }

    /// A line along the bottom (IDA*'s length + 1 states) crosses both lower corners, a point
    /// high on the left the upper left: the legend goes upper right; with a line along the top
    /// as well (BFS at the memory limit), to the middle of the right side.
    #[test]
    fn a_corner_no_line_crosses() {
        let lines = vec![vec![(10, 560), (500, 570), (990, 580)], vec![(60, 40)]];
        assert_eq!(
            pick_corner(AREA, (200, 150), &lines, Corner::LowerRight),
            Corner::UpperRight
        );
        let mut both = lines.clone();
        both.push(vec![(10, 20), (990, 20)]);
        assert_eq!(
            pick_corner(AREA, (200, 150), &both, Corner::LowerRight),
            Corner::MiddleRight
        );
        // A segment crossing the box with no vertex inside it counts too.
        let across = vec![vec![(0, 80), (1000, 80)], vec![(10, 560), (990, 580)]];
        assert_ne!(
            pick_corner(AREA, (200, 150), &across, Corner::UpperLeft),
            Corner::UpperLeft
        );
    }

    #[test]
    fn the_least_crossed_corner_when_none_is_free() {
        // Three lines across the plot cross every place; one more point in each but the
        // upper left.
        let mut lines: Vec<Vec<(i32, i32)>> =
            [100, 300, 500].map(|y| vec![(0, y), (1000, y)]).to_vec();
        for p in [
            (900, 100),
            (900, 500),
            (100, 500),
            (900, 300),
            (100, 300),
            (500, 100),
            (500, 500),
        ] {
            lines.push(vec![p]);
        }
        assert_eq!(
            pick_corner(AREA, (200, 150), &lines, Corner::LowerLeft),
            Corner::UpperLeft
        );
    }
}
