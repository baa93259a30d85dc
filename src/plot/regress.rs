//! The one plot of `tilebench regress`: per (instance, method), the median time ratio head/base
//! with its 95 % interval as a bar, one colour per method, against the unchanged line 1 and the
//! threshold band around it. A bar wholly above the band is a pair that got slower.

use plotters::coord::Shift;
use plotters::prelude::*;

use super::{chart, legend, style, Chart, Figure, Out, PlotError, PlotKind};
use crate::regress::verdict::Verdict;

/// (label, method, median, lo, hi) of one timed pair.
type Point = (String, String, f64, f64, f64);

struct Ratios {
    /// Every timed pair, in the verdict's order.
    points: Vec<Point>,
    threshold: f64,
    y: (f64, f64),
}

/// Draws `regress-time-ratios` (SVG and PNG) into `dir`; nothing when no pair was timed.
pub fn plot_regress(verdict: &Verdict, dir: &std::path::Path) -> Result<Vec<Figure>, PlotError> {
    let names: Vec<&str> = verdict
        .pairs
        .iter()
        .map(|p| p.pair.method.as_str())
        .collect();
    style::with_unknown(&names, || {
        super::prepare(dir)?;
        let mut figures = Vec::new();
        let points: Vec<Point> = verdict
            .pairs
            .iter()
            .filter_map(|p| {
                p.time.map(|e| {
                    (
                        format!("#{}", p.pair.instance_id),
                        p.pair.method.clone(),
                        e.ratio,
                        e.lo,
                        e.hi,
                    )
                })
            })
            .collect();
        if points.is_empty() {
            return Ok(figures);
        }
        let t = verdict.options.threshold_pct / 100.0;
        let lo = points.iter().map(|p| p.3).fold(1.0 - t, f64::min).min(0.95);
        let hi = points.iter().map(|p| p.4).fold(1.0 + t, f64::max).max(1.05);
        let pad = (hi - lo) * 0.08;
        let chart = Ratios {
            points,
            threshold: t,
            y: (lo - pad, hi + pad),
        };
        let mut out = Out::new(dir, "regress", &mut figures);
        out.save(
            PlotKind::TimeRatios,
            "time-ratios",
            style::SIZE,
            &chart,
            "time ratio head/base per pair (median over rounds, 95 % interval)".into(),
            format!(
                "Per (instance, method): the median over rounds of head seconds / base seconds of \
             the same round (dot) and its 95 % bootstrap interval (bar); the grey band is \
             1 ± {}% (the threshold). Above 1 the head is slower. Pairs are shown, not judged \
             one by one: the verdict is per method and overall.",
                verdict.options.threshold_pct
            ),
        )?;
        Ok(figures)
    })
}

impl Chart for Ratios {
    fn legend(&self) -> Vec<legend::Entry> {
        let mut methods: Vec<String> = Vec::new();
        for p in &self.points {
            if !methods.contains(&p.1) {
                methods.push(p.1.clone());
            }
        }
        legend::series(methods, false)
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), PlotError> {
        let n = self.points.len();
        let mut c =
            chart::frame(root).build_cartesian_2d(-0.5..n as f64 - 0.5, self.y.0..self.y.1)?;
        // One label per instance, under the middle of its methods' bars (a label per bar ran
        // together: "#2#2#2#5#5#5").
        let groups = instance_groups(&self.points);
        let label = |x: &f64| {
            let i = x.round();
            if (i - x).abs() > 1e-6 || i < 0.0 {
                return String::new();
            }
            let i = i as usize;
            groups
                .iter()
                .find(|g| (g.0 + g.1) / 2 == i)
                .map(|g| self.points[g.0].0.clone())
                .unwrap_or_default()
        };
        chart::mesh(&mut c, "pair (instance id; colour: method)", "head / base")
            .x_labels(n.min(40))
            .x_label_formatter(&label)
            .y_label_formatter(&|y| format!("{y:.2}"))
            .draw()?;
        let band = RGBColor(200, 200, 200).mix(0.4);
        c.draw_series(std::iter::once(Rectangle::new(
            [
                (-0.5, 1.0 - self.threshold),
                (n as f64 - 0.5, 1.0 + self.threshold),
            ],
            band.filled(),
        )))?;
        c.draw_series(LineSeries::new(
            [(-0.5, 1.0), (n as f64 - 0.5, 1.0)],
            BLACK.stroke_width(1),
        ))?;
        // A thin line between instances, so that each one's bars read as a group.
        c.draw_series(groups.iter().skip(1).map(|g| {
            let x = g.0 as f64 - 0.5;
            PathElement::new(vec![(x, self.y.0), (x, self.y.1)], RGBColor(150, 150, 150))
        }))?;
        for legend::Entry(m, _) in &self.legend() {
            let look = style::look_of(m);
            let color = look.color;
            let mine: Vec<(usize, &Point)> = self
                .points
                .iter()
                .enumerate()
                .filter(|(_, p)| &p.1 == m)
                .collect();
            c.draw_series(mine.iter().map(|(i, p)| {
                PathElement::new(
                    vec![(*i as f64, p.3), (*i as f64, p.4)],
                    color.stroke_width(3),
                )
            }))?;
            // The method's own marker, as in the legend.
            let medians: Vec<(f64, f64)> = mine.iter().map(|(i, p)| (*i as f64, p.2)).collect();
            super::draw_markers(&mut c, &medians, look, 5, super::Fill::Full)?;
        }
        Ok(())
    }
}

/// The runs of consecutive points of one instance, as (first, last) indices.
fn instance_groups(points: &[Point]) -> Vec<(usize, usize)> {
    let mut groups: Vec<(usize, usize)> = Vec::new();
    for (i, p) in points.iter().enumerate() {
        match groups.last_mut() {
            Some(g) if points[g.0].0 == p.0 => g.1 = i,
            _ => groups.push((i, i)),
        }
    }
    groups
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_instance_is_one_group_of_its_methods() {
        let p = |id: &str, m: &str| (id.to_string(), m.to_string(), 1.0, 1.0, 1.0);
        let points = [
            p("#2", "a"),
            p("#2", "b"),
            p("#5", "a"),
            p("#16", "a"),
            p("#16", "b"),
        ];
        assert_eq!(instance_groups(&points), vec![(0, 1), (2, 2), (3, 4)]);
    }
}
