//! "Plots" (the figures no section placed, and how to get those the default selection left out)
//! and "History" (the trend over commits, from the history file).

use crate::plot::Figure;
use crate::report::drawn::figure;
use crate::report::model::{Section, Text};
use crate::report::selection::{LeftOut, Omitted};

/// The figures placed in no other section; `None` when there are none and none was left out.
pub(crate) fn plots_section(
    plots: &[&Figure],
    left_out: &[Omitted],
    command: &str,
) -> Option<Section> {
    if plots.is_empty() && left_out.is_empty() {
        return None;
    }
    let mut s = Section::new(1, "Plots");
    if !left_out.is_empty() {
        s.push(
            Text::plain(left_out_sentence(left_out))
                .code(format!("{command} --plots all"))
                .tick(format!(
                    " draws every plot, `--plots KIND,…` those of some kinds ({}).",
                    crate::plot::PlotKind::report_names()
                )),
        );
    }
    for f in plots {
        s.push(figure(f));
    }
    Some(s)
}

/// "N more plots are not shown: …", counted by why, only the reasons that occur.
fn left_out_sentence(left_out: &[Omitted]) -> String {
    let count = |p: fn(&LeftOut) -> bool| left_out.iter().filter(|o| p(&o.why)).count();
    let too_few = count(|w| matches!(w, LeftOut::TooFew { .. }));
    let scatter = count(|w| matches!(w, LeftOut::PairScatter));
    let past = count(|w| matches!(w, LeftOut::PastLimit));
    let mut parts = Vec::new();
    if too_few > 0 {
        parts.push(format!(
            "{too_few} for instance sets with too few solved instances to show anything \
             (each set's summary names them)"
        ));
    }
    if scatter > 0 {
        parts.push(format!(
            "{scatter} scatter {} of a pair of methods (the optimization-path plots, across \
             sets, carry that comparison)",
            if scatter == 1 { "plot" } else { "plots" }
        ));
    }
    if past > 0 {
        parts.push(format!(
            "{past} past the first {} ({})",
            crate::report::selection::MAX_DEFAULT,
            past_limit_names(left_out)
        ));
    }
    let n = left_out.len();
    if past == n {
        return format!(
            "{n} more {} not shown: a report draws the first {} by default ({}). ",
            if n == 1 { "plot is" } else { "plots are" },
            crate::report::selection::MAX_DEFAULT,
            past_limit_names(left_out)
        );
    }
    format!(
        "{n} more {} not shown: {}. ",
        if n == 1 { "plot is" } else { "plots are" },
        parts.join("; ")
    )
}

/// The plots left out past the default's limit, by file name (the first few): a reader then
/// knows what `--plots` would add.
fn past_limit_names(left_out: &[Omitted]) -> String {
    const NAMED: usize = 6;
    let past: Vec<&Omitted> = (left_out.iter())
        .filter(|o| o.why == LeftOut::PastLimit)
        .collect();
    let mut names: Vec<String> = (past.iter().take(NAMED)).map(|o| o.stem.clone()).collect();
    if past.len() > NAMED {
        names.push(format!("{} more", past.len() - NAMED));
    }
    names.join(", ")
}

/// The figures drawn from a history file; `None` without one.
pub(crate) fn history_section(history: &[&Figure]) -> Option<Section> {
    let path = history.first().and_then(|f| f.history.as_ref())?;
    let mut s = Section::new(1, "History");
    s.push(
        Text::plain("The trend over commits, from ")
            .code(path.display().to_string())
            .tick(
                ", where each `tilebench run` appends a line per heuristic and instance set. A \
                 line joins only runs of the same instance set, the same number of instances and \
                 the same heuristic; a change in that number starts a new line.",
            ),
    );
    for f in history {
        s.push(figure(f));
    }
    Some(s)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plot::PlotKind;

    /// The count says why, by reason, and names only the reasons that occur.
    #[test]
    fn left_out_plots_are_counted_by_why() {
        let o = |why| Omitted {
            kind: PlotKind::NodesPerInstance,
            stem: "s-nodes-per-instance".into(),
            instance_set: "s".into(),
            why,
        };
        let few = LeftOut::TooFew {
            solved: 2,
            needed: 3,
        };
        let text = left_out_sentence(&[o(few), o(few), o(LeftOut::PairScatter)]);
        assert!(
            text.starts_with("3 more plots are not shown: 2 for instance sets with too few"),
            "{text}"
        );
        assert!(text.contains("; 1 scatter plot of a pair"), "{text}");
        assert!(!text.contains("past the first"), "{text}");
        let text = left_out_sentence(&[o(LeftOut::PastLimit)]);
        assert_eq!(
            text,
            "1 more plot is not shown: a report draws the first 20 by default \
             (s-nodes-per-instance). "
        );
        let text = left_out_sentence(&[o(LeftOut::PastLimit), o(LeftOut::PairScatter)]);
        assert!(
            text.ends_with("; 1 past the first 20 (s-nodes-per-instance). "),
            "{text}"
        );
        let many = vec![o(LeftOut::PastLimit); 8];
        assert!(
            left_out_sentence(&many).ends_with("s-nodes-per-instance, 2 more). "),
            "{}",
            left_out_sentence(&many)
        );
    }
}
