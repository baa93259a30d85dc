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
        let labels: Vec<String> = self.points.iter().map(|p| p.0.clone()).collect();
        let label = |x: &f64| {
            let i = x.round();
            if (i - x).abs() > 1e-6 || i < 0.0 {
                return String::new();
            }
            labels.get(i as usize).cloned().unwrap_or_default()
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
            c.draw_series(
                mine.iter()
                    .map(|(i, p)| Circle::new((*i as f64, p.2), 5, color.filled())),
            )?;
        }
        Ok(())
    }
}
