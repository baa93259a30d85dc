//! "Beside AUTHORS, SETTING, per instance": our solved runs beside a published per-instance
//! column, as the paper counted.

use crate::analysis::per_instance::{
    self, beside_later_work, mismatch_note, PerInstanceComparison, CLAUSECKER_SOURCE,
    LATER_24_PUZZLE,
};
use crate::plot::Figure;
use crate::report::drawn::figure;
use crate::report::format::count;
use crate::report::model::{self, Block, Cell, Column, Section, Table, Text};
use crate::report::summary_csv::rounding;
use crate::results::Results;
use crate::search::Pruning;

/// Our solved runs beside a published per-instance column: the counts as the paper counted,
/// how many match exactly, the distribution of the ratios, the mismatches with what is known
/// about them, every instance (collapsed) and the log-log plot. The published counts are of
/// parent pruning: under another `pruning` ours are set beside them, not expected to match.
pub(crate) fn beside_published(
    p: &per_instance::PublishedColumn,
    c: Option<&PerInstanceComparison>,
    plot: Option<&Figure>,
    pruning: Pruning,
) -> Section {
    let mut s = Section::new(
        2,
        format!("Beside {}, {}, per instance", p.authors, p.setting),
    );
    s.push(Text::plain(format!("Source: {}", p.source)));
    let pruned = !pruning.is_parent();
    if pruned {
        s.push(Text::ticked(format!(
            "These runs prune duplicate paths with `--pruning {pruning}`; the published \
                 counts are of parent pruning (a move never undoes the one before), so ours are \
                 expected to be fewer: they are set beside them, not matched."
        )));
    }
    let Some(c) = c else {
        s.push(Text::ticked(format!(
            "No solved `{}` runs on `{}` with a published count to compare.",
            p.heuristic, p.instance_set
        )));
        return s;
    };
    let theirs = format!("{}'s", p.authors.split(" (").next().unwrap_or(p.authors));
    let counting = if p.counts_root {
        Text::plain(format!(
            "{theirs} counts include the root, which our search does not count"
        ))
    } else {
        Text::plain(format!("{theirs} counts leave the root out, as ours do"))
    };
    // Under another pruning nothing is expected to match: no "matches exactly", no list of
    // mismatches (every instance would be one), no word on why counts would be equal.
    s.push(if pruned {
        counting.p(".")
    } else {
        counting
            .p(", so an instance ")
            .strong("matches exactly")
            .p(" when our ")
            .code(p.ours_as())
            .p(format!(" equals {theirs} count."))
    });
    let (ours_total, theirs_total) = c.totals();
    let ratio = rounding::RATIO_EXACT;
    let mut items = Vec::new();
    if !pruned {
        items.push(
            Text::plain("")
                .strong(format!(
                    "{} of {} instances match exactly",
                    c.exact(),
                    c.rows.len()
                ))
                .tick(format!(
                    " (those with a solved `{}` run; {} have a published count).",
                    p.heuristic,
                    p.counts().len()
                )),
        );
    }
    let n = c.rows.len();
    items.push(Text::plain(format!(
        "Totals over the {n} solved {}: ours Σ({}) = {}, {theirs} Σ = {}, ratio {}.",
        if n == 1 { "instance" } else { "instances" },
        p.ours_as(),
        Cell::Count(ours_total).display(),
        Cell::Count(theirs_total).display(),
        ratio.apply(ours_total as f64 / theirs_total as f64),
    )));
    if let Some((min, median, max, geo)) = c.ratio_distribution() {
        items.push(Text::plain(format!(
            "Ratio ours / published per instance: min {}, median {}, max {}, geometric mean {}.",
            ratio.apply(min),
            ratio.apply(median),
            ratio.apply(max),
            ratio.apply(geo),
        )));
    }
    if !pruned {
        items.push(Text::plain(p.differences));
    }
    s.push(Block::List(items));
    let columns = |with_note: bool| {
        let mut v = vec![
            Column::text("instance"),
            Column::number(format!("ours: {}", p.ours_as()), Some("nodes")),
            Column::number(p.authors, Some("nodes")),
            Column::number("difference", Some("nodes")),
            Column::number("ratio", None),
        ];
        if with_note {
            v.push(Column::text("note"));
        }
        v
    };
    let row = |r: &per_instance::InstanceRow| {
        vec![
            Cell::text(&r.instance_id),
            Cell::Count(r.ours),
            Cell::Count(r.theirs),
            Cell::Diff(r.ours as i64 - r.theirs as i64),
            Cell::num(r.ratio(), ratio),
        ]
    };
    let id = format!("{}-{}", model::user_anchor(p.instance_set), p.column);
    let mut mismatches = Table::new(
        format!("{id}-mismatches"),
        Text::plain(format!("The instances whose count differs from {theirs}.")),
        columns(true),
    );
    for r in c.mismatches().filter(|_| !pruned) {
        let mut cells = row(r);
        cells.push(Cell::text(mismatch_note(r.ours, r.theirs, r.before_last)));
        mismatches.row(cells);
    }
    if !mismatches.rows.is_empty() {
        s.push(mismatches);
    }
    let mut all = Table::new(
        id,
        Text::plain(format!(
            "Every solved instance beside {theirs} count (ratio = ours / published)."
        )),
        columns(false),
    );
    for r in &c.rows {
        all.row(row(r));
    }
    all.collapsed = all.rows.len() > COLLAPSE_ABOVE;
    s.push(all);
    if let Some(f) = plot {
        s.push(figure(f));
    }
    s
}

/// "Beside later work": our solved runs of Korf & Felner's 24-puzzle instances beside the
/// per-instance counts of a later program with larger pattern databases (every column of
/// [`LATER_24_PUZZLE`]), the ratio per instance and its geometric mean per column; None when
/// `set` is not that set or has no solved IDA* run.
pub(crate) fn beside_later_work_section(results: &Results, set: &str) -> Option<Section> {
    if set != LATER_24_PUZZLE[0].instance_set {
        return None;
    }
    let rows = beside_later_work(results);
    if rows.is_empty() {
        return None;
    }
    let mut s = Section::new(
        2,
        "Beside later work: clausecker/24puzzle's larger pattern databases, per instance",
    );
    s.push(Text::plain(format!("Source: {CLAUSECKER_SOURCE}.")));
    s.push(Text::plain(
        "Not counts to reproduce: that program adds duplicate-path pruning and other techniques \
         to its heuristics, so a ratio compares programs, not heuristics alone. Ours / theirs is \
         how many times more nodes our search generated (above 1: theirs generated fewer). It is \
         the yardstick a stronger heuristic of ours is set beside.",
    ));
    let ratio = rounding::RATIO;
    // One geometric mean per heuristic of ours (a report may set several beside each other).
    let mut heuristics: Vec<&str> = Vec::new();
    for r in &rows {
        if !heuristics.contains(&r.heuristic.as_str()) {
            heuristics.push(&r.heuristic);
        }
    }
    let names = crate::plot::ShortNames::of_runs(&results.runs);
    let items: Vec<Text> = LATER_24_PUZZLE
        .iter()
        .enumerate()
        .filter_map(|(i, c)| {
            let means: Vec<String> = heuristics
                .iter()
                .filter_map(|&h| {
                    let logs: Vec<f64> = rows
                        .iter()
                        .filter(|r| r.heuristic == h)
                        .filter_map(|r| Some((r.ours as f64 / r.theirs[i]? as f64).ln()))
                        .collect();
                    let n = logs.len();
                    let of = match heuristics.len() {
                        1 => String::new(),
                        _ => format!(" of {}", names.apply(h)),
                    };
                    (n > 0).then(|| {
                        let mean = ratio.apply((logs.iter().sum::<f64>() / n as f64).exp());
                        format!("{mean} over {}{of}", count(n, "solved run"))
                    })
                })
                .collect();
            let named = if short(c) == c.setting {
                String::new()
            } else {
                format!(" ({})", c.setting)
            };
            (!means.is_empty()).then(|| {
                Text::plain("").strong(short(c)).p(format!(
                    "{named}: ours / theirs, geometric mean {}.",
                    means.join("; ")
                ))
            })
        })
        .collect();
    s.push(Block::List(items));
    let mut columns = vec![
        Column::text("instance"),
        Column::text("heuristic"),
        Column::number("ours: generated", Some("nodes")),
    ];
    columns.extend(
        LATER_24_PUZZLE
            .iter()
            .map(|c| Column::number(short(c), None)),
    );
    let mut table = Table::new(
        format!("{}-later-work", model::user_anchor(set)),
        Text::plain(
            "Every solved run beside each later count: ours / theirs in each column of theirs \
             (— where theirs is not published).",
        ),
        columns,
    );
    for r in &rows {
        let mut cells = vec![
            Cell::text(&r.instance_id),
            Cell::Code(r.heuristic.clone()),
            Cell::Count(r.ours),
        ];
        cells.extend(
            r.theirs
                .iter()
                .map(|t| Cell::opt(t.map(|t| r.ours as f64 / t as f64), ratio)),
        );
        table.row(cells);
    }
    table.collapsed = table.rows.len() > COLLAPSE_ABOVE;
    // With several heuristics an instance has several rows: a part split off names both.
    table.keys = if heuristics.len() > 1 { 2 } else { 1 };
    s.push(table);
    Some(s)
}

/// A later column's name in a table header: the first word of its setting ("8-8-8", "max").
fn short(c: &per_instance::PublishedColumn) -> &'static str {
    c.setting.split(' ').next().unwrap_or(c.setting)
}

/// Tables with more rows than this are collapsed in HTML.
const COLLAPSE_ABOVE: usize = 30;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::results::{RunRecord, RunStatus};

    /// A solved 24-puzzle run gets a row beside every later column, with the ratio; another
    /// set, or no solved run, gets no section.
    #[test]
    fn later_work_sets_each_solved_run_beside_every_column() {
        let run = |set: &str, status| RunRecord {
            instance_set: set.into(),
            instance_id: "1".into(),
            heuristic: "pdb-6666r".into(),
            status,
            generated: Some(2_031_102_635),
            ..RunRecord::default()
        };
        let results = |runs| Results {
            runs,
            dir: "r".into(),
            iterations: vec![],
            meta: None,
        };
        let with = results(vec![run("korf50-24", RunStatus::Solved)]);
        let s = beside_later_work_section(&with, "korf50-24").unwrap();
        let Some(Block::Table(t)) = s.blocks.iter().find(|b| matches!(b, Block::Table(_))) else {
            panic!("no table: {s:?}");
        };
        assert_eq!(t.rows.len(), 1);
        assert_eq!(t.columns.len(), 3 + LATER_24_PUZZLE.len());
        // 2,031,102,635 / 199,198,406 (8-8-8 on #1).
        assert_eq!(t.rows[0][4].display(), "10.2");
        assert!(beside_later_work_section(&with, "korf100").is_none());
        let unsolved = results(vec![run("korf50-24", RunStatus::TimeLimit)]);
        assert!(beside_later_work_section(&unsolved, "korf50-24").is_none());
    }

    /// Korf's 1985 counts are of parent pruning: an fsm-pruned run is set beside them with
    /// that said, and nothing in the section reads as if its counts should match.
    #[test]
    fn fsm_pruned_counts_are_set_beside_not_matched() {
        let p = per_instance::published_column("korf100", "manhattan").unwrap();
        let run = RunRecord {
            instance_set: "korf100".into(),
            instance_id: "1".into(),
            heuristic: "manhattan".into(),
            status: RunStatus::Solved,
            generated: Some(150_000_000),
            ..RunRecord::default()
        };
        let results = Results {
            runs: vec![run],
            dir: "r".into(),
            iterations: vec![],
            meta: None,
        };
        let c = per_instance::compare(&results, p);
        let text = |pruning| format!("{:?}", beside_published(p, c.as_ref(), None, pruning));
        let fsm = text(Pruning::Fsm);
        assert!(
            fsm.contains("These runs prune duplicate paths with "),
            "{fsm}"
        );
        // Nothing said or listed as if the counts should match.
        for expected_equal in [
            "matches exactly",
            "instances match",
            "mismatches",
            "cause not known",
            p.differences,
        ] {
            assert!(!fsm.contains(expected_equal), "{expected_equal}: {fsm}");
        }
        assert!(fsm.contains("Totals over the 1 solved instance:"), "{fsm}");
        let parent = text(Pruning::Parent);
        for said in [
            "matches exactly",
            "0 of 1 instances match",
            "mismatches",
            "cause not known",
        ] {
            assert!(parent.contains(said), "{said}: {parent}");
        }
        assert!(!parent.contains("These runs prune"), "{parent}");
    }
}
