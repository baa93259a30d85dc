//! The optimization-path plots, peak states stored and nodes generated: for each method (algorithm with heuristic), one
//! figure of every run against the instance's optimal solution length, drawn as dots (hollow
//! when the run stopped at a limit) with a line through the median of its solved runs at each
//! length. Drawn only when the results hold more than one algorithm; with boards of several
//! sizes, one figure per size (a length is another depth on each board).

use std::collections::BTreeMap;

use plotters::coord::Shift;
use plotters::prelude::*;

use super::{axis, chart, legend, style, Chart, Fill, LogAxis, Out, PlotError, PlotKind};
use crate::geometry::Size;
use crate::results::{Results, RunRecord, RunStatus};

/// The file-name prefix of these plots (they span every instance set).
pub(super) const PREFIX: &str = "optimization-path";

/// One method's runs as (length, value, solved).
struct Method {
    name: String,
    points: Vec<(f64, f64, bool)>,
}

pub(super) struct ByLength {
    methods: Vec<Method>,
    x: (f64, f64),
    y: LogAxis,
    y_desc: &'static str,
}

/// One of the optimization-path plots: what it draws and how it is named.
pub(super) struct Spec {
    pub kind: PlotKind,
    pub name: &'static str,
    pub value: fn(&RunRecord) -> Option<f64>,
    pub y_desc: &'static str,
    pub title: &'static str,
    pub caption: &'static str,
}

/// Plot 1: the states each algorithm holds at once (open + closed for A*, frontier + visited
/// for breadth-first search, the path for IDA*) against the optimal length.
pub(super) const PEAK_STORED: Spec = Spec {
    kind: PlotKind::PeakStored,
    name: "peak-stored",
    value: |r| r.peak_stored.map(|s| s as f64),
    y_desc: "states stored at the peak",
    title: "Peak states stored against optimal solution length",
    caption: "States held at once at the peak (log scale) of every run against its instance's \
              optimal length: colour and marker by heuristic (BFS a cross), line by algorithm \
              (IDA* solid, A* dashed, BFS dotted) through the median of the solved runs at each \
              length. Hollow markers: runs stopped by a limit, at their peak when stopped (less \
              than solving would have held); no line goes through them, and a method's line \
              breaks at a length where it solved none. BFS and A* climb until the memory limit \
              stops them; IDA* holds only its path (length + 1 states) whatever the heuristic, \
              so its lines coincide.",
};

/// Plot 2: nodes generated against the optimal length, per algorithm and heuristic (A*'s fewer
/// nodes against IDA*'s re-expansions).
pub(super) const NODES_BY_LENGTH: Spec = Spec {
    kind: PlotKind::NodesByLength,
    name: "nodes-by-length",
    value: |r| r.generated.map(|g| g as f64),
    y_desc: "nodes generated",
    title: "Nodes generated against optimal solution length",
    caption: "Nodes generated (log scale) by every run against the optimal length of its \
              instance, colour and marker by heuristic (BFS a cross), line by algorithm (IDA* \
              solid, A* dashed, BFS dotted) through the median of the solved runs at each \
              length. Hollow markers: runs stopped by a limit, at the nodes generated when \
              stopped (fewer than solving would have taken); no line goes through them, and a \
              method's line breaks at a length where it solved none. Where both solved, past the \
              shortest boards, A* generates fewer nodes than IDA* with the same heuristic (IDA* \
              re-expands the shallower levels in every iteration) but must store them.",
};

/// Draws `spec` for the results that compare algorithms: one figure, or one per board size.
pub(super) fn plot(results: &Results, spec: &Spec, out: &mut Out) -> Result<(), PlotError> {
    if !results.compares_algorithms() {
        return Ok(());
    }
    let sizes = results.board_sizes();
    let boards: Vec<Option<Size>> = if sizes.len() > 1 {
        sizes.into_iter().map(Some).collect()
    } else {
        vec![None]
    };
    for size in boards {
        let Some(chart) = ByLength::new(results, size, spec) else {
            continue;
        };
        let (name, title, mut caption) = match size {
            None => (
                spec.name.to_string(),
                spec.title.to_string(),
                spec.caption.to_string(),
            ),
            Some(s) => (
                format!("{}-{s}", spec.name),
                format!("{}, {s} boards", spec.title),
                format!(
                    "The {s} boards only (each board size has a figure of its own). {}",
                    spec.caption
                ),
            ),
        };
        caption.push_str(&chart.stopped());
        out.save(spec.kind, &name, style::SIZE, &chart, title, caption)?;
    }
    Ok(())
}

impl ByLength {
    /// `spec.value` of every run with a known length and a positive value, per method; only
    /// the runs on `size` boards when given.
    fn new(results: &Results, size: Option<Size>, spec: &Spec) -> Option<ByLength> {
        let names = results.methods();
        let methods: Vec<Method> = names
            .iter()
            .map(|name| Method {
                name: name.clone(),
                points: results
                    .runs
                    .iter()
                    .filter(|r| &r.label() == name && r.status != RunStatus::Error)
                    .filter(|r| size.is_none() || results.board_size(&r.instance_set) == size)
                    .filter_map(|r| {
                        let (l, v) = (r.known_length()?, (spec.value)(r)?);
                        (v > 0.0).then_some((l as f64, v, r.status == RunStatus::Solved))
                    })
                    .collect(),
            })
            .filter(|m| !m.points.is_empty())
            .collect();
        let all = || methods.iter().flat_map(|m| m.points.iter());
        let y = LogAxis::covering(all().map(|p| p.1))?;
        let lo = all().map(|p| p.0).fold(f64::INFINITY, f64::min);
        let hi = all().map(|p| p.0).fold(f64::NEG_INFINITY, f64::max);
        Some(ByLength {
            methods,
            x: (lo - 2.0, hi + 2.0),
            y,
            y_desc: spec.y_desc,
        })
    }

    /// The caption's count of the runs drawn hollow, per method that has any ("Stopped by a
    /// limit: bfs 9 of 9 runs, …"), and what the line means at a length where only some runs
    /// solved; empty when every run solved.
    fn stopped(&self) -> String {
        let counts: Vec<String> = (self.methods.iter())
            .filter_map(|m| {
                let stopped = m.points.iter().filter(|p| !p.2).count();
                (stopped > 0).then(|| format!("{} {stopped} of {}", m.name, m.points.len()))
            })
            .collect();
        if counts.is_empty() {
            return String::new();
        }
        let mixed = self.methods.iter().any(|m| {
            let lengths = |solved: bool| -> Vec<u64> {
                (m.points.iter().filter(|p| p.2 == solved))
                    .map(|p| p.0 as u64)
                    .collect()
            };
            let stopped = lengths(false);
            lengths(true).iter().any(|l| stopped.contains(l))
        });
        let mut s = format!(" Stopped by a limit: {} runs.", counts.join(", "));
        if mixed {
            s.push_str(
                " Where a method solved only some runs of a length, its line is at the median \
                 of those it solved (the easier ones).",
            );
        }
        s
    }
}

/// The lines of a method: the median of its solved runs at each length, broken at a length
/// where it ran but solved none, so that no line stands for runs a limit stopped (their count
/// there is only how far they got).
fn solved_lines(points: &[(f64, f64, bool)]) -> Vec<Vec<(f64, f64)>> {
    let mut by: BTreeMap<u64, Vec<f64>> = BTreeMap::new();
    for &(x, y, solved) in points {
        let values = by.entry(x as u64).or_default();
        if solved {
            values.push(y);
        }
    }
    let mut lines: Vec<Vec<(f64, f64)>> = vec![Vec::new()];
    for (x, mut ys) in by {
        if ys.is_empty() {
            lines.push(Vec::new());
            continue;
        }
        ys.sort_by(f64::total_cmp);
        let n = ys.len();
        let m = if n % 2 == 1 {
            ys[n / 2]
        } else {
            (ys[n / 2 - 1] * ys[n / 2]).sqrt()
        };
        lines
            .last_mut()
            .expect("one line at least")
            .push((x as f64, m));
    }
    lines.retain(|l| !l.is_empty());
    lines
}

impl Chart for ByLength {
    fn legend(&self) -> Vec<legend::Entry> {
        let mut entries = legend::series(self.methods.iter().map(|m| m.name.clone()), true);
        if self.methods.iter().any(|m| m.points.iter().any(|p| !p.2)) {
            let look = style::Look {
                color: style::REFERENCE_LINE,
                ..style::look_of("")
            };
            entries.push(legend::Entry(
                "hollow: stopped by a limit".to_string(),
                legend::Sample::Hollow(look),
            ));
        }
        entries
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), PlotError> {
        let mut chart =
            chart::frame(root).build_cartesian_2d(self.x.0..self.x.1, self.y.coord())?;
        chart::mesh(&mut chart, "optimal solution length (moves)", self.y_desc)
            .x_label_formatter(&chart::integer_tick)
            .y_label_formatter(&axis::log_tick)
            .draw()?;
        // Every marker, in the order drawn, with its group: a method's solved runs, or its
        // stopped ones (a group's own markers may cover each other: they look alike).
        let order = chart::drawing_order(self.methods.iter().map(|m| m.name.as_str()));
        let mut marks: Vec<((i32, i32), usize)> = Vec::new();
        for (i, m) in order.iter().map(|&i| (i, &self.methods[i])) {
            for (k, solved) in [true, false].into_iter().enumerate() {
                let group = m.points.iter().filter(|p| p.2 == solved);
                marks.extend(group.map(|&(x, y, _)| (chart.backend_coord(&(x, y)), 2 * i + k)));
            }
        }
        // Less than half a move either way, so that a marker stays nearer its own length.
        let at = |x: f64| chart.backend_coord(&(x, self.y.lo)).0;
        let move_px = at(self.x.0 + 1.0) - at(self.x.0);
        let mut shifts = dodge(&marks, MARKER + 2, (move_px - 1) / 2).into_iter();
        for m in order.iter().map(|&i| &self.methods[i]) {
            let look = style::look_of(&m.name);
            for line in solved_lines(&m.points) {
                chart::draw_line(&mut chart, &m.name, &line, 0)?;
            }
            for solved in [true, false] {
                let places: Vec<((f64, f64), i32)> = (m.points.iter().filter(|p| p.2 == solved))
                    .map(|&(x, y, _)| ((x, y), shifts.next().unwrap_or(0)))
                    .collect();
                if places.iter().any(|p| p.1 != 0) {
                    super::note(SIDE_BY_SIDE);
                }
                let fill = if solved { Fill::Full } else { Fill::Hollow };
                super::draw_placed(&mut chart, &places, look, MARKER, fill)?;
            }
        }
        Ok(())
    }
}

/// The markers' size (px from the centre).
const MARKER: i32 = 4;

/// What a figure with markers set side by side says in its caption.
const SIDE_BY_SIDE: super::Note = super::Note {
    text: " Markers of different methods that would cover one another are set side by side, \
           a few pixels apart at their length.",
    unless: "side by side",
};

/// How many pixels to the right each of `marks` (a centre in pixels and its group) is moved so
/// that none lies within `apart` pixels of an earlier one of another group (within `most`,
/// when that is less): in the order given, each takes the first free place of 0, +apart,
/// −apart, +2·apart, …, moving at most `most` pixels; where none is free, the one farthest
/// from the others. So a stopped A* run just under BFS's, or IDA*'s three equal
/// heuristics, stand beside one another instead of one on top of the other.
fn dodge(marks: &[((i32, i32), usize)], apart: i32, most: i32) -> Vec<i32> {
    let step = apart.min(most).max(1);
    let mut candidates = vec![0];
    for k in 1..=most / step {
        candidates.extend([k * step, -k * step]);
    }
    let mut placed: Vec<((i32, i32), usize)> = Vec::new();
    let mut shifts = Vec::new();
    for &((x, y), group) in marks {
        let nearest = |dx: i32| -> f64 {
            (placed.iter().filter(|p| p.1 != group))
                .map(|&((px, py), _)| f64::from(x + dx - px).hypot(f64::from(y - py)))
                .fold(f64::INFINITY, f64::min)
        };
        let dx = (candidates.iter().copied())
            .find(|&dx| nearest(dx) >= f64::from(step))
            .unwrap_or_else(|| {
                // The first of the farthest: the least shift.
                (candidates.iter().rev().copied())
                    .max_by(|&a, &b| nearest(a).total_cmp(&nearest(b)))
                    .unwrap_or(0)
            });
        placed.push(((x + dx, y), group));
        shifts.push(dx);
    }
    shifts
}
