//! "Beside AUTHORS, SETTING, per instance": our solved runs beside a published per-instance
//! column, as the paper counted.

use crate::analysis::per_instance::{self, mismatch_note, PerInstanceComparison};
use crate::report::drawn::{figure, DrawnFigure};
use crate::report::model::{self, Block, Cell, Column, Section, Table, Text};
use crate::report::summary_csv::rounding;

/// Our solved runs beside a published per-instance column: the counts as the paper counted,
/// how many match exactly, the distribution of the ratios, the mismatches with what is known
/// about them, every instance (collapsed) and the log-log plot.
pub(crate) fn beside_published(
    p: &per_instance::PublishedColumn,
    c: Option<&PerInstanceComparison>,
    plot: Option<&DrawnFigure>,
) -> Section {
    let mut s = Section::new(
        2,
        format!("Beside {}, {}, per instance", p.authors, p.setting),
    );
    s.push(Text::plain(format!("Source: {}", p.source)));
    let Some(c) = c else {
        s.push(
            Text::plain("No solved ")
                .code(p.heuristic)
                .p(" runs on ")
                .code(p.instance_set)
                .p(" with a published count to compare."),
        );
        return s;
    };
    let theirs = format!("{}'s", p.authors.split(" (").next().unwrap_or(p.authors));
    let counting = if p.counts_root {
        Text::plain(format!(
            "{theirs} counts include the root, which our search does not count, so an instance "
        ))
    } else {
        Text::plain(format!(
            "{theirs} counts leave the root out, as ours do, so an instance "
        ))
    };
    s.push(
        counting
            .strong("matches exactly")
            .p(" when our ")
            .code(p.ours_as())
            .p(format!(" equals {theirs} count.")),
    );
    let (ours_total, theirs_total) = c.totals();
    let ratio = rounding::RATIO_EXACT;
    let mut items = vec![
        Text::plain("")
            .strong(format!(
                "{} of {} instances match exactly",
                c.exact(),
                c.rows.len()
            ))
            .p(" (those with a solved ")
            .code(p.heuristic)
            .p(format!(
                " run; {} have a published count).",
                p.counts().len()
            )),
        Text::plain(format!(
            "Totals over those {} instances: ours Σ({}) = {}, {theirs} Σ = {}, ratio {}.",
            c.rows.len(),
            p.ours_as(),
            Cell::Count(ours_total).display(),
            Cell::Count(theirs_total).display(),
            ratio.apply(ours_total as f64 / theirs_total as f64),
        )),
    ];
    if let Some((min, median, max, geo)) = c.ratio_distribution() {
        items.push(Text::plain(format!(
            "Ratio ours / published per instance: min {}, median {}, max {}, geometric mean {}.",
            ratio.apply(min),
            ratio.apply(median),
            ratio.apply(max),
            ratio.apply(geo),
        )));
    }
    items.push(Text::plain(p.differences));
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
    for r in c.mismatches() {
        let mut cells = row(r);
        cells.push(Cell::text(mismatch_note(r.ours, r.theirs)));
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

/// Tables with more rows than this are collapsed in HTML.
const COLLAPSE_ABOVE: usize = 30;
