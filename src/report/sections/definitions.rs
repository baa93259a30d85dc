//! "Definitions": every column's formula and rounding.

use crate::report::model::{Block, Cell, Rounding, Section, Text, NOT_REPORTED};
use crate::report::summary_csv::rounding;
use crate::results::RUNS_FILE;

/// Every formula the report's tables use, with its rounding: those of the columns `sections`
/// show (a report of one heuristic has no reduction to define).
pub(crate) fn definitions(sections: &[Section]) -> Section {
    let headers: Vec<&str> = sections
        .iter()
        .flat_map(|s| &s.blocks)
        .filter_map(|b| match b {
            Block::Table(t) => Some(t.columns.iter().map(|c| c.header.as_str())),
            _ => None,
        })
        .flatten()
        .collect();
    let shown = |name: &str| headers.iter().any(|h| h.starts_with(name));
    let mut s = Section::new(1, "Definitions");
    s.push(Text::ticked(format!(
        "Column names in `code` are those of `{RUNS_FILE}`. For one heuristic on one instance \
         set, let S be its runs with status solved and n = |S|."
    )));
    let def = |name: &str, body: Text, r: Option<Rounding>| {
        let mut t = Text::plain("").strong(name).p(": ");
        t.0.extend(body.0);
        if let Some(r) = r {
            t = t.p(format!(" Rounded {}.", r.describe()));
        }
        t
    };
    let items = [
        def(
            "solved / runs",
            Text::ticked(format!(
                "n / the number of rows of `{RUNS_FILE}` for that set and heuristic."
            )),
            None,
        ),
        def(
            "mean h0",
            Text::ticked("Σ `h0` / n over S."),
            Some(rounding::H0),
        ),
        def(
            "mean nodes",
            Text::ticked(
                "Σ `generated` / n over S (nodes generated, summed over all iterations; the root \
                 is not counted).",
            ),
            Some(rounding::NODES),
        ),
        def(
            "geometric-mean nodes",
            Text::ticked("exp(Σ ln `generated` / m) over the m runs of S with `generated` > 0."),
            Some(rounding::NODES),
        ),
        def(
            "mean seconds",
            Text::ticked(
                "Σ `seconds` / n over S (wall-clock time of the search; of an outside solver, its \
                 whole process, start-up included).",
            ),
            Some(rounding::SECONDS),
        ),
        def(
            "nodes per second",
            Text::ticked(
                "Σ `generated` / Σ `seconds` over S, the total rate, not the mean of the per-run \
                 rates.",
            ),
            Some(rounding::NODES),
        ),
        def(
            "reduction vs R",
            Text::ticked(
                "with R the reference heuristic (`manhattan`, or the first heuristic when \
                 Manhattan was not run) and C the instances solved by both, Σ_C `generated`(R) / \
                 Σ_C `generated`(heuristic), the ratio of their mean nodes over C; |C| is in \
                 brackets.",
            ),
            Some(rounding::FACTOR),
        ),
        def(
            "mean overhead measured / predicted",
            Text::ticked(
                "mean of `overhead_measured` / `overhead_predicted` over the runs of S that have \
                 both, so that the two compare over the same runs (their number in brackets; a \
                 run with one completed iteration has a measured overhead of 1 but no r).",
            ),
            Some(rounding::OVERHEAD),
        ),
        def(
            "ratio (published comparisons)",
            Text::plain(
                "ours / published. Rounded to 3 significant digits; beside published per-instance \
                 node counts, which ours can match to the node, to 6.",
            ),
            None,
        ),
    ];
    // Each item is shown where a column starts with its name.
    let keys = [
        "solved / runs",
        "mean h0",
        "mean nodes",
        "geometric-mean nodes",
        "mean seconds",
        "nodes per second",
        "reduction vs",
        "mean overhead",
        "ratio",
    ];
    let mut items: Vec<Text> = (keys.iter().zip(items))
        .filter(|(k, _)| shown(k))
        .map(|(_, t)| t)
        .collect();
    // Only where a table says it: reports without such a solver stay as they were.
    let not_reported = sections
        .iter()
        .flat_map(|s| &s.blocks)
        .filter_map(|b| match b {
            Block::Table(t) => Some(t.rows.iter().flatten()),
            _ => None,
        })
        .flatten()
        .any(|c| *c == Cell::text(NOT_REPORTED));
    if not_reported {
        items.push(Text::plain("").strong(NOT_REPORTED).tick(
            ": an outside solver that did not report a node count has none (`generated` or \
             `expanded` empty in the file), not 0; the node figures (mean and geometric-mean \
             nodes, nodes per second, reductions) are over the runs that have a count.",
        ));
    }
    if shown("mean overhead") {
        items.push(Text::plain("").strong("overheads").p(
            ": with N_1 … N_k the nodes generated per iteration and the last iteration left out \
             as cut short: r = N_(k−1) / N_(k−2), the growth between the last two completed \
             iterations (not the geometric mean from the first, which the first tiny iterations \
             inflate), measured = (N_1 + … + N_(k−1)) / N_(k−1), predicted = r / (r − 1).",
        ));
    }
    items.push(Text::ticked(format!(
        "`{}` holds these columns rounded as above (without thousands separators); `{}` the same \
         columns unrounded.",
        crate::report::output::SUMMARY_FILE,
        crate::report::output::SUMMARY_FULL_FILE
    )));
    s.push(Block::List(items));
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::model::{Column, Table};

    fn items(headers: &[&str]) -> Vec<String> {
        let mut s = Section::new(1, "Summary");
        let columns = headers.iter().map(|h| Column::number(*h, None)).collect();
        s.push(Table::new("t", Text::plain("t"), columns));
        match &definitions(&[s]).blocks[1] {
            Block::List(items) => items.iter().map(Text::to_plain).collect(),
            other => panic!("{other:?}"),
        }
    }

    /// Only the columns a report shows are defined: one heuristic has no reduction column.
    #[test]
    fn only_the_columns_shown_are_defined() {
        let all = items(&[
            "heuristic",
            "solved / runs",
            "mean nodes",
            "reduction vs manhattan (instances)",
            "mean overhead measured (runs)",
        ]);
        let named = |items: &[String], name: &str| items.iter().any(|i| i.starts_with(name));
        for name in ["solved / runs", "mean nodes", "reduction vs R", "overheads"] {
            assert!(named(&all, name), "{name}: {all:?}");
        }
        assert!(!named(&all, "mean h0"), "{all:?}");
        let one = items(&["heuristic", "mean nodes"]);
        for name in ["reduction vs R", "overheads", "ratio"] {
            assert!(!named(&one, name), "{name}: {one:?}");
        }
    }
}
