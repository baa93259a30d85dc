//! "Plots" (the figures no section placed, and how to get those the default selection left out)
//! and "History" (the trend over commits, from the history file).

use crate::report::drawn::{figure, DrawnFigure};
use crate::report::model::{Section, Text};

/// The figures placed in no other section; `None` when there are none and none was left out.
pub(crate) fn plots_section(
    plots: &[&DrawnFigure],
    left_out: usize,
    command: &str,
) -> Option<Section> {
    if plots.is_empty() && left_out == 0 {
        return None;
    }
    let mut s = Section::new(1, "Plots");
    if left_out > 0 {
        s.push(
            Text::plain(format!(
                "{} more plots were drawn and left out: those of instance sets with too \
                 few solved instances to show anything (fewer than {}, or {} when \
                 algorithms are compared: the plots above, across sets, carry that \
                 comparison) and the scatter plot of each pair of methods. ",
                left_out,
                crate::report::selection::MIN_INSTANCES_ALONE,
                crate::report::selection::MIN_INSTANCES
            ))
            .code(format!("{command} --plots all"))
            .p(" draws every plot, ")
            .code("--plots KIND,…")
            .p(format!(
                " those of some kinds ({}).",
                crate::report::selection::kind_names()
            )),
        );
    }
    for f in plots {
        s.push(figure(f));
    }
    Some(s)
}

/// The figures drawn from a history file; `None` without one.
pub(crate) fn history_section(history: &[&DrawnFigure]) -> Option<Section> {
    let path = history.first().and_then(|f| f.history.as_ref())?;
    let mut s = Section::new(1, "History");
    s.push(
        Text::plain("The trend over commits, from ")
            .code(path.display().to_string())
            .p(", where each ")
            .code("tilebench run")
            .p(
                " appends a line per heuristic and instance set. A line joins only runs of \
                 the same instance set, the same instances and the same heuristic; a \
                 change of instances starts a new line.",
            ),
    );
    for f in history {
        s.push(figure(f));
    }
    Some(s)
}
