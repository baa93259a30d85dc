//! "Definitions": every column's formula and rounding.

use crate::report::model::{Block, Rounding, Section, Text};
use crate::report::summary_csv::rounding;
use crate::results::RUNS_FILE;

/// Every formula the report's tables use, with its rounding.
pub(crate) fn definitions() -> Section {
    let mut s = Section::new(1, "Definitions");
    s.push(
        Text::plain("Column names in ")
            .code("code")
            .p(" are those of ")
            .code(RUNS_FILE)
            .p(
                ". For one heuristic on one instance set, let S be its runs with status solved \
                 and n = |S|.",
            ),
    );
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
            Text::plain("n / the number of rows of ").code(RUNS_FILE).p(" for that set and heuristic."),
            None,
        ),
        def("mean h0", Text::plain("Σ ").code("h0").p(" / n over S."), Some(rounding::H0)),
        def(
            "mean nodes",
            Text::plain("Σ ")
                .code("generated")
                .p(" / n over S (nodes generated, summed over all iterations; the root is not counted)."),
            Some(rounding::NODES),
        ),
        def(
            "geometric-mean nodes",
            Text::plain("exp(Σ ln ")
                .code("generated")
                .p(" / m) over the m runs of S with ")
                .code("generated")
                .p(" > 0."),
            Some(rounding::NODES),
        ),
        def(
            "mean seconds",
            Text::plain("Σ ").code("seconds").p(" / n over S (wall-clock time of the search)."),
            Some(rounding::SECONDS),
        ),
        def(
            "nodes per second",
            Text::plain("Σ ")
                .code("generated")
                .p(" / Σ ")
                .code("seconds")
                .p(" over S, the total rate, not the mean of the per-run rates."),
            Some(rounding::NODES),
        ),
        def(
            "reduction vs R",
            Text::plain("with R the reference heuristic (")
                .code("manhattan")
                .p(", or the first heuristic when Manhattan was not run) and C the instances solved by both, Σ_C ")
                .code("generated")
                .p("(R) / Σ_C ")
                .code("generated")
                .p("(heuristic), the ratio of their mean nodes over C; |C| is in brackets."),
            Some(rounding::FACTOR),
        ),
        def(
            "mean overhead measured / predicted",
            Text::plain("mean of ")
                .code("overhead_measured")
                .p(" / ")
                .code("overhead_predicted")
                .p(" over the runs of S that have one (their number in brackets)."),
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
    items.push(
        Text::plain("")
            .code(crate::report::output::SUMMARY_FILE)
            .p(" holds these columns rounded as above (without thousands separators); ")
            .code(crate::report::output::SUMMARY_FULL_FILE)
            .p(" the same columns unrounded."),
    );
    s.push(Block::List(items));
    s
}
