//! The report model of `tilebench compare BASE NEW --report OUT`: the settings, the
//! per-heuristic time ratios, every matched run (collapsed), runs on one side only, the verdict
//! and the base-against-new scatter plots. `compare` prints this same model as Markdown (without
//! the plots), so what it prints and what `--report` writes cannot differ.

use super::drawn::figure;
use super::format::count;
use super::model::{Block, Cell, Column, Report, Rounding, Section, Table, Text};
use crate::compare::Comparison;

/// The comparison as a report.
pub fn build(c: &Comparison, base: &str, new: &str, figures: &[crate::plot::Figure]) -> Report {
    let o = &c.options;
    let mut intro = vec![Block::List(vec![
        Text::plain("base: ").code(base),
        Text::plain("new: ").code(new),
        Text::plain(format!(
            "slowdown threshold: {}% on each heuristic's time ratio new/base over the runs \
             solved on both sides: the geometric mean over the runs of which either side took \
             ≥ {} s, and the ratio of the total seconds; each judged only over at least {} \
             runs",
            o.threshold_pct, o.min_seconds, o.min_runs
        )),
        Text::plain(format!(
            "node-count changes: {}",
            if c.node_changes_expected {
                "allowed (reported only): the two sides prune differently"
            } else if o.allow_node_changes {
                "allowed (reported only)"
            } else {
                "fail"
            }
        )),
    ])];
    if let (Some(note), Some(Block::List(items))) = (&c.measurement, intro.first_mut()) {
        items.push(Text::plain("").strong(note.clone()));
    }
    let mut sections = Vec::new();

    let mut verdict = Section::new(1, "Verdict");
    let one_sided = c.only_base.len() + c.only_new.len();
    let among = if one_sided > 0 {
        format!(
            " among the {} runs on both sides; {} on one side only {} not compared \
             (listed under Runs)",
            c.matched.len(),
            count(one_sided, "run"),
            if one_sided == 1 { "is" } else { "are" }
        )
    } else {
        String::new()
    };
    if c.passed() {
        verdict.push(
            Text::plain("")
                .strong("PASS")
                .p(format!(": no regression{among}.")),
        );
    } else {
        verdict.push(
            Text::plain("")
                .strong("FAIL")
                .p(format!(": {}{among}.", count(c.failures.len(), "problem"))),
        );
        verdict.push(Block::List(
            c.failures
                .iter()
                .map(|f| Text::plain(f.to_string()))
                .collect(),
        ));
    }
    let untimed: Vec<Text> = c
        .summaries
        .iter()
        .filter_map(|h| h.untimed_reason(o.min_runs))
        .map(Text::plain)
        .collect();
    if !untimed.is_empty() {
        verdict.push(Block::List(untimed));
    }
    if !c.setup_differences.is_empty() {
        verdict.push(Text::plain(
            "The two experiments were not set up alike (from their meta.json files):",
        ));
        verdict.push(Block::List(
            c.setup_differences.iter().map(Text::plain).collect(),
        ));
    }
    sections.push(verdict);

    let mut per = Section::new(1, "Per heuristic");
    let mut t = Table::new(
        "compare-per-heuristic",
        Text::plain("Matched runs and the geometric-mean time ratio new / base per heuristic."),
        vec![
            Column::text("heuristic"),
            Column::number("matched runs", None),
            Column::number("timed runs", None),
            Column::number("geomean time ratio", None),
            Column::number("node-count changes", None),
            Column::number("total seconds: base", Some("s")),
            Column::number("new", Some("s")),
            Column::number("total time ratio", None),
        ],
    );
    for h in &c.summaries {
        t.row(vec![
            Cell::Code(h.heuristic.clone()),
            Cell::Count(h.matched as u64),
            Cell::Count(h.timed as u64),
            Cell::opt(h.geomean_ratio, Rounding::Decimals(3)),
            Cell::Count(h.node_changes as u64),
            Cell::num(h.total_seconds.0, Rounding::Decimals(3)),
            Cell::num(h.total_seconds.1, Rounding::Decimals(3)),
            Cell::opt(h.total_ratio, Rounding::Decimals(3)),
        ]);
    }
    per.push(t);
    sections.push(per);

    if !figures.is_empty() {
        let mut s = Section::new(1, "Plots");
        for f in figures {
            s.push(figure(f));
        }
        sections.push(s);
    }

    let mut runs = Section::new(1, "Runs");
    let mut t = Table::new(
        "compare-runs",
        Text::plain("The runs on both sides (same instance set, instance and method)."),
        vec![
            Column::text("set"),
            Column::text("id"),
            Column::text("heuristic"),
            Column::text("status"),
            Column::text("length"),
            Column::number("generated: base", None),
            Column::number("new", None),
            Column::number("difference", None),
            Column::number("seconds: base", Some("s")),
            Column::number("new", Some("s")),
            Column::number("ratio", None),
            Column::text("change"),
        ],
    );
    for m in &c.matched {
        let (b, n) = (&m.base, &m.new);
        let status = if m.status_changed() {
            format!("{} → {}", b.status, n.status)
        } else {
            b.status.to_string()
        };
        let show = |l: Option<u32>| l.map_or("–".to_string(), |l| l.to_string());
        let length = if b.length == n.length {
            show(b.length)
        } else {
            format!("{} → {}", show(b.length), show(n.length))
        };
        // Changes that fail the comparison are bold.
        let mut change = Text::default();
        let mark = |t: Text, failing: bool, word: &str| {
            let t = if t.0.is_empty() { t } else { t.p(", ") };
            if failing {
                t.strong(word)
            } else {
                t.p(word)
            }
        };
        if m.nodes_changed() {
            change = mark(change, true, "nodes");
        }
        if m.lost_solution() {
            change = mark(change, true, "lost solution");
        } else if m.status_changed() {
            change = mark(change, false, "status");
        }
        if m.length_changed() {
            change = mark(change, true, "length");
        }
        // Ratios left out of the geometric mean are shown in parentheses.
        let ratio = match m.time_ratio(o.min_seconds) {
            Some(r) => Cell::num(r, Rounding::Decimals(3)),
            None if b.seconds > 0.0 && n.seconds > 0.0 => {
                Cell::text(format!("({:.3})", n.seconds / b.seconds))
            }
            None => Cell::Empty,
        };
        t.row(vec![
            Cell::text(&m.key.instance_set),
            Cell::text(&m.key.instance_id),
            Cell::Code(m.key.label()),
            Cell::text(status),
            Cell::text(length),
            Cell::reported(b.generated),
            Cell::reported(n.generated),
            // A difference only between two counts: one not reported is no change.
            b.generated
                .zip(n.generated)
                .map_or(Cell::Empty, |(b, n)| Cell::Diff(n as i64 - b as i64)),
            Cell::num(b.seconds, Rounding::Significant(4)),
            Cell::num(n.seconds, Rounding::Significant(4)),
            ratio,
            Cell::Rich(change),
        ]);
    }
    t.collapsed = true;
    runs.push(Text::plain(
        "Ratio: new / base seconds, in parentheses for runs left out of the time comparison \
         (not solved on both sides, or both sides under the minimum seconds); emphasised (bold, or *so* in plain text): a \
         change that fails the comparison.",
    ));
    runs.push(t);
    sections.push(runs);

    if !c.only_base.is_empty() || !c.only_new.is_empty() {
        let mut s = Section::new(1, "Runs on one side only");
        let mut t = Table::new(
            "compare-one-side",
            Text::plain("Runs present in one directory only."),
            vec![
                Column::text("set"),
                Column::text("id"),
                Column::text("heuristic"),
                Column::text("present in"),
            ],
        );
        for (keys, side) in [(&c.only_base, "base only"), (&c.only_new, "new only")] {
            for k in keys {
                t.row(vec![
                    Cell::text(&k.instance_set),
                    Cell::text(&k.instance_id),
                    Cell::Code(k.label()),
                    Cell::text(side),
                ]);
            }
        }
        s.push(t);
        sections.push(s);
    }
    Report {
        title: "tilebench compare".to_string(),
        intro,
        sections,
    }
}
