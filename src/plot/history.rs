//! The trend over commits, from the history file `run` appends to (see [`crate::results::history`]):
//! per instance set, nodes per second and total nodes generated, one line per heuristic, one
//! x position per run of `tilebench run` (consecutive lines with the same commit and date).
//!
//! A line joins only points of the same heuristic over the same number of runs of the set (the
//! history does not record which instances were chosen, and a set run in part, such as Korf's
//! instances 1-10, has fewer runs than the whole set): a total over 10 instances is never joined
//! to one over 100. Nothing is drawn when no line has two points (one point is not a trend).
//!
//! Speed drifts with machine load, so the speed plot is read for trends; a change of node count
//! is a change of behaviour, so the nodes plot rings every point whose count differs from the
//! heuristic's previous point over the same number of runs, however small the change.

use plotters::coord::Shift;
use plotters::prelude::*;

use super::{axis, chart, legend, style, Chart, LogAxis, Out, PlotError, PlotKind, Series};
use crate::results::history::HistoryRow;

/// The legend entry of the rings round changed counts.
const CHANGED: &str = "node count changed";

/// The space right of the plotting area: half the newest run's label, centred on its tick.
const RIGHT_MARGIN: i32 = 90;

/// One run of `tilebench run` in the history: its lines for one instance set.
struct Group<'a> {
    commit: &'a str,
    date: &'a str,
    rows: Vec<&'a HistoryRow>,
}

/// The runs with lines for `set`, in file order: consecutive lines with the same commit and
/// date are one run.
fn groups<'a>(rows: &'a [HistoryRow], set: &str) -> Vec<Group<'a>> {
    let mut groups: Vec<Group> = Vec::new();
    let mut previous: Option<(&str, &str)> = None;
    for row in rows {
        let key = (row.commit.as_str(), row.date.as_str());
        if previous != Some(key) {
            groups.push(Group {
                commit: key.0,
                date: key.1,
                rows: Vec::new(),
            });
            previous = Some(key);
        }
        if row.instance_set == set {
            if let Some(g) = groups.last_mut() {
                g.rows.push(row);
            }
        }
    }
    groups.retain(|g| !g.rows.is_empty());
    groups
}

/// `abc1234 2024-05-01`: the commit's first 7 characters (`*` when built with uncommitted
/// changes) and the date's day.
/// The last line of a heuristic in a run (a run writes one per heuristic and set).
fn point<'a>(g: &Group<'a>, h: &str) -> Option<&'a HistoryRow> {
    g.rows.iter().rev().find(|r| r.heuristic == h).copied()
}

pub(super) fn tick_label(commit: &str, date: &str) -> String {
    let (hash, dirty) = match commit.strip_suffix("-dirty") {
        Some(hash) => (hash, "*"),
        None => (commit, ""),
    };
    let short: String = hash.chars().take(7).collect();
    // Month and day: the caption gives the years ([`years`]).
    let day: String = date.chars().skip(5).take(5).collect();
    format!("{short}{dirty} {day}")
}

/// The years of the runs' dates, for the caption: "2026" or "2025 to 2026".
fn years(groups: &[Group]) -> String {
    let year = |g: &Group| g.date.chars().take(4).collect::<String>();
    match (groups.first().map(year), groups.last().map(year)) {
        (Some(a), Some(b)) if a != b => format!("{a} to {b}"),
        (Some(a), _) => a,
        _ => String::new(),
    }
}

/// Label every k-th run: the smallest k that keeps the widest label from touching its
/// neighbours over the plotting area's width ([`Trend::draw`]'s frame).
fn label_every(labels: &[String]) -> usize {
    let width = style::SIZE.0 as i32 - chart::MARGIN - RIGHT_MARGIN - chart::Y_LABEL_AREA;
    let spacing = f64::from(width) / labels.len().max(1) as f64;
    let widest = labels
        .iter()
        .map(|l| chart::tick_width(l))
        .max()
        .unwrap_or(0);
    ((f64::from(widest + 12) / spacing).ceil() as usize).max(1)
}

struct Trend {
    labels: Vec<String>,
    /// Label every k-th tick, counting back from the newest.
    label_every: usize,
    series: Vec<Series>,
    /// Points ringed as changed (the nodes plot).
    changed: Vec<(f64, f64)>,
    y: LogAxis,
    y_desc: &'static str,
}

/// Draws `<set>-history-speed` and `<set>-history-nodes`; nothing when the history has no
/// line for the set. `heuristics`: only these, in this order (empty: all). Each heuristic has
/// its colour of every other plot ([`style::color_of`]).
pub(super) fn plot(
    rows: &[HistoryRow],
    set: &str,
    heuristics: &[String],
    out: &mut Out,
) -> Result<(), PlotError> {
    let chosen = heuristics;
    let mut groups = groups(rows, set);
    if !chosen.is_empty() {
        for g in &mut groups {
            g.rows.retain(|r| chosen.contains(&r.heuristic));
        }
        groups.retain(|g| !g.rows.is_empty());
    }
    if groups.is_empty() {
        return Ok(());
    }
    // One line per (heuristic, number of runs), in order of first appearance.
    let mut lines: Vec<(&str, u64)> = Vec::new();
    for g in &groups {
        for r in &g.rows {
            if !lines.contains(&(r.heuristic.as_str(), r.runs)) {
                lines.push((&r.heuristic, r.runs));
            }
        }
    }
    if !lines.iter().any(|&(h, n)| {
        groups
            .iter()
            .filter(|g| point(g, h).is_some_and(|r| r.runs == n))
            .count()
            >= 2
    }) {
        return Ok(());
    }
    if !chosen.is_empty() {
        lines.sort_by_key(|(h, _)| chosen.iter().position(|c| c == h));
    }
    let several = |h: &str| lines.iter().filter(|l| l.0 == h).count() > 1;
    let name = |h: &str, n: u64| {
        if several(h) {
            format!("{h} ({n} runs)")
        } else {
            h.to_string()
        }
    };
    let color = style::color_of;
    let labels: Vec<String> = groups
        .iter()
        .map(|g| tick_label(g.commit, g.date))
        .collect();
    let label_every = label_every(&labels);
    let thinned = if label_every > 1 {
        format!(" One run in {label_every} is labelled, counting back from the newest.")
    } else {
        String::new()
    };
    let runs_note = format!(
        "commit (first 7 characters; * = uncommitted changes) and day of the run (month-day, {})",
        years(&groups)
    );

    // One line per (heuristic, number of runs) of a figure of each history row, where present
    // and positive (the axes are logarithmic).
    let series_of = |value: fn(&HistoryRow) -> Option<f64>| -> Vec<Series> {
        lines
            .iter()
            .map(|&(h, n)| {
                let points: Vec<(f64, f64)> = groups
                    .iter()
                    .enumerate()
                    .filter_map(|(i, g)| {
                        point(g, h)
                            .filter(|r| r.runs == n)
                            .and_then(value)
                            .map(|v| (i as f64, v))
                    })
                    .filter(|&(_, v)| v > 0.0)
                    .collect();
                (name(h, n), color(h), points)
            })
            .filter(|s| !s.2.is_empty())
            .collect()
    };

    // Each figure on a log axis, left out when none of its values is positive.
    let mut save = |name: &str, what: &str, series: Vec<Series>, changed, y_desc, caption| {
        let Some(y) = LogAxis::covering(series.iter().flat_map(|s| s.2.iter().map(|p| p.1))) else {
            return Ok(());
        };
        let chart = Trend {
            labels: labels.clone(),
            label_every,
            series,
            changed,
            y,
            y_desc,
        };
        let title = format!("{set}: {what} over commits");
        out.save(PlotKind::History, name, style::SIZE, &chart, title, caption)
    };

    // Nodes per second.
    let caption = format!(
        "Nodes generated per second of search (Σ generated / Σ seconds over all the \
         heuristic's runs of {set}, log scale) at each run recorded in the history file, \
         oldest first; x: {runs_note}. A line joins only runs over the same number of \
         instances. Timings vary with machine load: read trends, not \
         single steps.{thinned}"
    );
    let speed = series_of(|r| r.nodes_per_second);
    let y_desc = "nodes generated per second";
    save("history-speed", "speed", speed, Vec::new(), y_desc, caption)?;

    // Total nodes generated, with changes ringed.
    let mut changed = Vec::new();
    let mut changes = 0usize;
    let nodes: Vec<Series> = lines
        .iter()
        .map(|&(h, n)| {
            let mut points = Vec::new();
            let mut previous: Option<&HistoryRow> = None;
            for (i, g) in groups.iter().enumerate() {
                let Some(r) = point(g, h).filter(|r| r.runs == n) else {
                    continue;
                };
                let p = (i as f64, r.total_generated as f64);
                if previous
                    .is_some_and(|q| q.runs == r.runs && q.total_generated != r.total_generated)
                {
                    changed.push(p);
                    changes += 1;
                }
                previous = Some(r);
                if p.1 > 0.0 {
                    points.push(p);
                }
            }
            (name(h, n), color(h), points)
        })
        .filter(|s| !s.2.is_empty())
        .collect();
    let caption = format!(
        "Total nodes generated (`total_generated`, all runs of {set} whatever their status, \
         log scale) per heuristic at each run recorded in the history file, oldest first; x: \
         {runs_note}. Ringed: the count differs from the heuristic's previous run over the \
         same number of runs, a change of search behaviour ({changes} such change{s}). \
         Totals over different numbers of runs do not compare, so they are separate lines \
         (the number of runs in the legend).{thinned}",
        s = if changes == 1 { "" } else { "s" }
    );
    let y_desc = "nodes generated (total)";
    save(
        "history-nodes",
        "nodes generated",
        nodes,
        changed,
        y_desc,
        caption,
    )?;

    // Instructions of the search, where `regress --instructions` counted them.
    let caption = format!(
        "Instructions of the search (Σ over the heuristic's runs of {set}, counted under \
         valgrind by `tilebench regress --instructions`, log scale) at each run recorded \
         with a count, oldest first; x: {runs_note}. Unlike time, the count does not \
         depend on the machine's load: a step is a change of the code.{thinned}"
    );
    let instructions = series_of(|r| r.instructions.map(|v| v as f64));
    let y_desc = "instructions (total)";
    save(
        "history-instructions",
        "instructions",
        instructions,
        Vec::new(),
        y_desc,
        caption,
    )
}

impl Chart for Trend {
    fn legend(&self) -> Vec<legend::Entry> {
        let mut labels = chart::legend_of(&self.series);
        if !self.changed.is_empty() {
            labels.push(legend::Entry(CHANGED.to_string(), legend::Sample::Ring));
        }
        labels
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), PlotError> {
        let n = self.labels.len();
        // One tick per run: n ticks over n unit steps fall on the integers.
        let mut builder = chart::frame(root);
        // Room for the newest run's label, centred on the last tick.
        builder.margin_right(RIGHT_MARGIN);
        let mut chart = builder.build_cartesian_2d(-0.5..n as f64 - 0.5, self.y.coord())?;
        let label = |x: &f64| {
            let i = x.round();
            if i < 0.0 || (i - x).abs() > 1e-6 {
                return String::new();
            }
            let i = i as usize;
            match self.labels.get(i) {
                Some(l) if (n - 1 - i).is_multiple_of(self.label_every) => l.clone(),
                _ => String::new(),
            }
        };
        chart::mesh(
            &mut chart,
            "run: commit and date (oldest left)",
            self.y_desc,
        )
        .x_labels(n)
        .x_label_formatter(&label)
        .y_label_formatter(&axis::log_tick)
        .draw()?;
        chart::draw_lines(&mut chart, &self.series, 4)?;
        if !self.changed.is_empty() {
            chart.draw_series(
                self.changed
                    .iter()
                    .map(|&p| Circle::new(p, 9, BLACK.stroke_width(2))),
            )?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(commit: &str, date: &str, set: &str, h: &str, generated: u64) -> HistoryRow {
        HistoryRow {
            commit: commit.into(),
            date: date.into(),
            heuristic: h.into(),
            instance_set: set.into(),
            runs: 3,
            solved: 3,
            total_generated: generated,
            total_expanded: generated / 2,
            total_seconds: 1.0,
            nodes_per_second: Some(generated as f64),
            instructions: None,
        }
    }

    /// Rows counted by `regress --instructions` draw a third plot; rows without counts do not.
    #[test]
    fn instructions_are_drawn_when_counted() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        style::register_font();
        let mut rows = vec![
            row("a", "d1", "s", "manhattan", 100),
            row("b", "d2", "s", "manhattan", 100),
        ];
        let stems = |rows: &[HistoryRow]| {
            let mut figures = Vec::new();
            let mut out = Out::new(dir, "s", &mut figures);
            plot(rows, "s", &[], &mut out).unwrap();
            figures.into_iter().map(|f| f.stem).collect::<Vec<_>>()
        };
        assert_eq!(stems(&rows), ["s-history-speed", "s-history-nodes"]);
        rows[0].instructions = Some(5_000);
        rows[1].instructions = Some(5_600);
        assert_eq!(
            stems(&rows),
            [
                "s-history-speed",
                "s-history-nodes",
                "s-history-instructions"
            ]
        );
        assert!(dir.join("s-history-instructions.svg").exists());
    }

    #[test]
    fn tick_labels_are_short() {
        let hash = "0123456789abcdef0123456789abcdef01234567";
        assert_eq!(tick_label(hash, "2024-05-01T12:00:00Z"), "0123456 05-01");
        assert_eq!(
            tick_label(&format!("{hash}-dirty"), "2024-05-01T12:00:00Z"),
            "0123456* 05-01"
        );
        assert_eq!(tick_label("unknown", ""), "unknown ");
    }

    #[test]
    fn runs_are_consecutive_lines_of_one_commit_and_date() {
        let rows = [
            row("a", "d1", "s", "manhattan", 1),
            row("a", "d1", "t", "manhattan", 1),
            row("a", "d1", "s", "pdb", 1),
            row("b", "d2", "t", "manhattan", 1),
            row("a", "d3", "s", "manhattan", 1),
            row("a", "d3", "s", "pdb", 1),
        ];
        let g = groups(&rows, "s");
        let brief: Vec<_> = g.iter().map(|g| (g.commit, g.date, g.rows.len())).collect();
        assert_eq!(brief, vec![("a", "d1", 2), ("a", "d3", 2)]);
        assert_eq!(groups(&rows, "t").len(), 2);
        assert!(groups(&rows, "none").is_empty());
    }
}
