//! Plot 1: generated nodes of every instance under each heuristic, instances sorted by the
//! reference heuristic's nodes, so the curves show how much each heuristic saves, instance by
//! instance. Where the ids fit side by side ([`ids_fit`]), the x axis names each instance by
//! its id; otherwise by its rank.

use plotters::coord::Shift;
use plotters::prelude::*;

use super::{
    axis, chart, legend, style, Chart, LogAxis, Out, PlotError, PlotKind, Series, SetData,
};

/// Whether every id fits under its tick without touching its neighbours: n + 1 unit steps
/// over the plotting area's width ([`chart::frame`]'s).
fn ids_fit(ids: &[&str]) -> bool {
    let width = style::SIZE.0 as i32 - 2 * chart::MARGIN - chart::Y_LABEL_AREA;
    let spacing = f64::from(width) / (ids.len() + 1) as f64;
    let widest = ids
        .iter()
        .map(|id| chart::tick_width(id))
        .max()
        .unwrap_or(0);
    f64::from(widest + 8) <= spacing
}

struct NodesPerInstance {
    series: Vec<Series>,
    instances: usize,
    /// The instance id at each x position 1..=n, when they are few enough to print.
    ids: Option<Vec<String>>,
    y: LogAxis,
    x_desc: String,
}

pub(super) fn plot(data: &SetData, out: &mut Out) -> Result<(), PlotError> {
    let Some(reference) = data.reference.as_deref() else {
        return Ok(());
    };
    // Order: instances the reference solved, by its nodes; then the rest, by id as in the file.
    let mut ids: Vec<&str> = Vec::new();
    for r in data
        .results
        .runs
        .iter()
        .filter(|r| r.instance_set == data.set)
    {
        if !ids.contains(&r.instance_id.as_str()) {
            ids.push(&r.instance_id);
        }
    }
    let reference_runs = &data.solved[reference];
    ids.sort_by_key(|id| match reference_runs.get(id) {
        Some(r) => (0, r.generated.unwrap_or(0)),
        None => (1, 0),
    });
    let series: Vec<Series> = data
        .heuristics
        .iter()
        .map(|h| {
            let runs = &data.solved[h];
            let points = ids
                .iter()
                .enumerate()
                .filter_map(|(i, id)| Some(((i + 1) as f64, runs.get(id)?.generated? as f64)))
                .filter(|&(_, n)| n > 0.0)
                .collect();
            (h.clone(), data.color(h), points)
        })
        // A method that solved none of the set has no line, so no legend entry either.
        .filter(|s: &Series| !s.2.is_empty())
        .collect();
    let Some(y) = LogAxis::covering(series.iter().flat_map(|s| s.2.iter().map(|p| p.1))) else {
        return Ok(());
    };
    let by_id = ids_fit(&ids);
    let chart = NodesPerInstance {
        series,
        instances: ids.len(),
        ids: by_id.then(|| ids.iter().map(|s| s.to_string()).collect()),
        y,
        x_desc: if by_id {
            format!("instance id, sorted by {} nodes", data.shown(reference))
        } else {
            format!("instance, sorted by {} nodes (rank)", data.shown(reference))
        },
    };
    let title = format!("{}: nodes generated per instance", data.set);
    let caption = format!(
        "Nodes generated (all iterations, log scale) for each instance of {set}, one line per \
         {per}; instances on the x axis{named} are sorted by the nodes {reference} \
         generated, those it did not solve placed last; unsolved runs are left out.",
        set = data.set,
        per = if data.results.compares_algorithms() {
            "method (algorithm and heuristic; lines of equal counts coincide)"
        } else {
            "heuristic"
        },
        named = if by_id { " (labelled by id)" } else { "" }
    );
    out.save(
        PlotKind::NodesPerInstance,
        "nodes-per-instance",
        style::SIZE,
        &chart,
        title,
        caption,
    )
}

/// The later-work figure's name (after the set's).
pub(crate) const LATER_WORK: &str = "later-work";

/// Korf & Felner's 24-puzzle instances, all 50, sorted by their published count: that count, our
/// solved runs and clausecker/24puzzle's per-instance counts under 6-6-6-6, 8-8-8, 9-9-6 and
/// their max of several catalogues (see [`crate::analysis::per_instance::LATER_24_PUZZLE`]), so
/// the gap to later work shows instance by instance, and which instances are left to solve.
pub(super) fn plot_later_work(data: &SetData, out: &mut Out) -> Result<(), PlotError> {
    use crate::analysis::per_instance::{published_column, LATER_24_PUZZLE};
    let later = |column: &str| LATER_24_PUZZLE.iter().find(|c| c.column == column);
    let (Some(kf), true) = (
        published_column(&data.set, "pdb-6666r"),
        data.set == LATER_24_PUZZLE[0].instance_set,
    ) else {
        return Ok(());
    };
    let ours: Vec<&crate::results::RunRecord> = data
        .results
        .runs
        .iter()
        .filter(|r| {
            r.instance_set == data.set
                && r.method().algorithm() == Some(crate::search::Algorithm::Ida)
                && r.status == crate::results::RunStatus::Solved
        })
        .collect();
    if ours.is_empty() {
        return Ok(());
    }
    let published = kf.counts();
    let mut ids: Vec<(&str, u64)> = published.iter().map(|(&id, &n)| (id, n)).collect();
    ids.sort_by_key(|&(id, n)| (n, id));
    let line = |counts: &std::collections::HashMap<&str, u64>| -> Vec<(f64, f64)> {
        ids.iter()
            .enumerate()
            .filter_map(|(i, (id, _))| Some(((i + 1) as f64, *counts.get(id)? as f64)))
            .filter(|&(_, n)| n > 0.0)
            .collect()
    };
    let mut series: Vec<Series> = vec![(
        "korf-felner-2002 (6-6-6-6 + reflection, published)".to_string(),
        style::color_of("korf-felner-2002"),
        line(&published),
    )];
    for (column, label) in [
        ("c_6666", "clausecker/6-6-6-6"),
        ("c_888", "clausecker/8-8-8"),
        ("c_996", "clausecker/9-9-6"),
        ("c_max_of", "clausecker/max (of several catalogues)"),
    ] {
        if let Some(c) = later(column) {
            series.push((label.to_string(), style::color_of(label), line(&c.counts())));
        }
    }
    for h in data
        .heuristics
        .iter()
        .filter(|h| ours.iter().any(|r| &r.label() == *h))
    {
        let solved: std::collections::HashMap<&str, u64> = ours
            .iter()
            .filter(|r| &r.label() == h)
            .filter_map(|r| Some((r.instance_id.as_str(), r.generated?)))
            .collect();
        series.push((
            format!("{h} (ours, {} solved)", solved.len()),
            data.color(h),
            line(&solved),
        ));
    }
    let Some(y) = LogAxis::covering(series.iter().flat_map(|s| s.2.iter().map(|p| p.1))) else {
        return Ok(());
    };
    let chart = NodesPerInstance {
        series,
        instances: ids.len(),
        ids: None,
        y,
        x_desc: "instance, sorted by Korf & Felner's count (rank)".to_string(),
    };
    let title = format!(
        "{}: nodes generated per instance, beside later work",
        data.set
    );
    let caption = format!(
        "Nodes generated (all iterations, log scale) on each of the {} instances, sorted by \
         Korf & Felner's (2002) published count: their count, clausecker/24puzzle's under four \
         of its heuristics (another program, with duplicate-path pruning: it compares programs, \
         not heuristics alone), and ours where solved. {} Each line joins its series' points \
         in rank order, over the instances it did not solve.",
        ids.len(),
        ring_note(&data.heuristics, &ours, &published)
    );
    out.save(
        PlotKind::Published,
        &super::scatter::published_name(LATER_WORK),
        style::SIZE,
        &chart,
        title,
        caption,
    )
}

/// The later-work caption's sentence on rings: which of our counts equal Korf & Felner's (those
/// markers are rings around theirs), so that a reader does not look for rings that are not
/// there (runs under `--pruning fsm`, or another heuristic, equal none).
fn ring_note(
    heuristics: &[String],
    ours: &[&crate::results::RunRecord],
    published: &std::collections::HashMap<&str, u64>,
) -> String {
    let counts: Vec<String> = (heuristics.iter())
        .filter_map(|h| {
            let rows: Vec<_> = ours.iter().filter(|r| &r.label() == h).collect();
            let equal = (rows.iter())
                .filter(|r| {
                    r.generated.is_some()
                        && published.get(r.instance_id.as_str()) == r.generated.as_ref()
                })
                .count();
            match equal {
                0 => None,
                n if n == rows.len() => Some(format!("every {h} count does")),
                n => Some(format!("{n} of the {} {h} counts do", rows.len())),
            }
        })
        .collect();
    if counts.is_empty() {
        return "No count of ours equals Korf & Felner's (these runs are set beside theirs, not \
                a reproduction of them), so no marker of ours is a ring; a rank without a \
                marker of ours is an instance not solved here."
            .to_string();
    }
    format!(
        "Where our count equals Korf & Felner's ({}), our marker is a ring around theirs; a \
         rank with neither a ring nor another marker of ours is an instance not solved here.",
        counts.join("; ")
    )
}

impl Chart for NodesPerInstance {
    fn legend(&self) -> Vec<legend::Entry> {
        chart::legend_of(&self.series)
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), PlotError> {
        let mut chart = chart::frame(root)
            .build_cartesian_2d(0.0..(self.instances as f64 + 1.0), self.y.coord())?;
        let label = |x: &f64| match &self.ids {
            Some(ids) => {
                let i = x.round();
                if (i - x).abs() > 1e-6 || i < 1.0 {
                    return String::new();
                }
                ids.get(i as usize - 1).cloned().unwrap_or_default()
            }
            None => chart::integer_tick(x),
        };
        let mut mesh = chart::mesh(&mut chart, self.x_desc.as_str(), "nodes generated");
        if self.ids.is_some() {
            // One tick per instance: n + 2 ticks over 0..n+1 fall on the integers.
            mesh.x_labels(self.instances + 2);
        }
        mesh.x_label_formatter(&label)
            .y_label_formatter(&axis::log_tick)
            .draw()?;
        chart::draw_lines(&mut chart, &self.series, 3)?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::results::RunRecord;

    fn row(id: &str, h: &str, generated: u64) -> RunRecord {
        RunRecord {
            instance_id: id.into(),
            heuristic: h.into(),
            generated: Some(generated),
            ..RunRecord::default()
        }
    }

    /// The caption names rings only where our counts equal Korf & Felner's: all of a
    /// heuristic's, some, or none (runs under `--pruning fsm`).
    #[test]
    fn the_ring_note_says_which_counts_equal_theirs() {
        let published = std::collections::HashMap::from([("38", 38_173_507), ("40", 65_099_578)]);
        let hs = ["pdb-6666r".to_string(), "max".to_string()];
        let exact = [
            row("38", "pdb-6666r", 38_173_507),
            row("40", "pdb-6666r", 65_099_578),
        ];
        let fsm = [row("38", "max", 5_416_162), row("40", "max", 17_956_830)];
        let note =
            |rows: &[RunRecord]| ring_note(&hs, &rows.iter().collect::<Vec<_>>(), &published);
        assert!(
            note(&exact).contains("(every pdb-6666r count does)"),
            "{}",
            note(&exact)
        );
        let mixed = [
            exact[0].clone(),
            row("40", "pdb-6666r", 35_587_236),
            fsm[0].clone(),
        ];
        assert!(
            note(&mixed).contains("(1 of the 2 pdb-6666r counts do)"),
            "{}",
            note(&mixed)
        );
        assert!(!note(&mixed).contains("max"), "{}", note(&mixed));
        assert!(
            note(&fsm).starts_with("No count of ours equals"),
            "{}",
            note(&fsm)
        );
        assert!(!note(&fsm).contains("ring around"), "{}", note(&fsm));
    }
}
