//! "Definitions": every column's formula and rounding.

use crate::report::model::{Block, Rounding, Section, Text};
use crate::report::summary_csv::rounding;
use crate::results::RUNS_FILE;

/// Every formula the report's tables use, with its rounding.
pub(crate) fn definitions() -> Section {
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
    let mut items = vec![
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
                 one (their number in brackets).",
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
    items.push(Text::plain("").strong("overheads").p(
        ": with N_1 … N_k the nodes generated per iteration and the last iteration left \
                 out as cut short: r = N_(k−1) / N_(k−2), the growth between the last two \
                 completed iterations (not the geometric mean from the first, which the first \
                 tiny iterations inflate), measured = (N_1 + … + N_(k−1)) / N_(k−1), predicted \
                 = r / (r − 1).",
    ));
    items.push(Text::ticked(format!(
        "`{}` holds these columns rounded as above (without thousands separators); `{}` the same \
         columns unrounded.",
        crate::report::output::SUMMARY_FILE,
        crate::report::output::SUMMARY_FULL_FILE
    )));
    s.push(Block::List(items));
    s
}
