//! "Outside solvers": each solver's command, verdicts and per-instance answers beside the
//! built-in search under the heuristic it implements.

use std::collections::BTreeMap;

use crate::analysis::outside::{compare_solvers, InstanceComparison, OptimalBy, SolverComparison};
use crate::report::model::{self, Block, Cell, Column, Rounding, Section, Table, Text};
use crate::results::{Method, Results, RunStatus};
use crate::search::Algorithm;

/// "Outside solvers", when the results have any, and a subsection per solver: its command, its
/// verdicts, and per instance its length and reported node counts beside the built-in search's
/// under the heuristic it implements.
pub(crate) fn outside_solvers(results: &Results) -> Vec<Section> {
    let solvers = compare_solvers(results);
    if solvers.is_empty() {
        return Vec::new();
    }
    let mut s = Section::new(1, "Outside solvers");
    s.push(
        Text::ticked(
            "Programs run through the solver protocol (`docs/solver-protocol.md`) on the same \
             instances. Each answer was replayed with tilebench's board code; times are wall \
             seconds of the whole process (start-up included); node counts are the ones the \
             solver reported. The built-in columns are tilebench's own run of the method named \
             for the solver (`--solver NAME:HEURISTIC=…`: IDA* with that heuristic, or \
             `astar+HEURISTIC`, or `bfs`); ",
        )
        .strong("iterations agree")
        .p(" means every iteration's bound, generated and expanded counts are equal."),
    );
    let mut sections = vec![s];
    sections.extend(solvers.iter().map(outside_solver));
    sections
}

fn outside_solver(c: &SolverComparison) -> Section {
    let mut s = Section::new(2, format!("Outside solver: {}", c.solver));
    if let Some(command) = &c.command {
        s.push(Text::plain("Command: ").code(command).p("."));
    }
    let mut by_status: BTreeMap<RunStatus, usize> = BTreeMap::new();
    for i in &c.instances {
        *by_status.entry(i.status).or_default() += 1;
    }
    let statuses: Vec<String> = by_status
        .iter()
        .map(|(st, n)| format!("{n} {}", st.as_str()))
        .collect();
    let n = c.instances.len();
    let mut verdicts = Text::plain(format!(
        "{n} {}: {}. ",
        if n == 1 { "instance" } else { "instances" },
        statuses.join(", ")
    ));
    let unchecked = (c.instances.iter())
        .filter(|i| i.status == RunStatus::Solved && !i.length_checked)
        .count();
    if unchecked > 0 {
        verdicts = verdicts
            .p(format!(
                "{} checked against no optimal length (none known: give the instances' \
                 optimal lengths, ",
                match (unchecked, n) {
                    (1, 1) => "The length of its answer was".to_string(),
                    (1, _) => format!("The length of 1 of its {n} answers was"),
                    (u, _) if u == n => format!("The lengths of all {n} of its answers were"),
                    (u, _) => format!("The lengths of {u} of its {n} answers were"),
                }
            ))
            .code("--check-optimal")
            .p(" or an admissible built-in search beside it), so ")
            .code("solved")
            .p(" says only that those moves replay to the goal. ");
    }
    let compared = c.instances.iter().any(|i| i.builtin.is_some());
    verdicts = match &c.heuristic {
        // Nothing to set beside it: "0 of 0" would read as a comparison that failed.
        Some(h) if !compared => verdicts
            .p("The built-in search with ")
            .code(h)
            .p(" was not run; add ")
            .code(options_running(h))
            .p(" to set its counts beside the solver's."),
        Some(h) => {
            let (lengths, l_of) = c.count(InstanceComparison::length_agrees);
            let (totals, t_of) = c.count(InstanceComparison::totals_agree);
            let (its, i_of) = c.count(|i| i.iterations_agree);
            // "node totals on 0 of 0" would read as a comparison that failed: say why none.
            let nodes = match (c.reported_counts(), i_of) {
                (false, _) => "it reported no node counts".to_string(),
                (true, 0) => format!(
                    "node totals on {totals} of {t_of} (no instance has iteration counts on \
                     both sides)"
                ),
                (true, _) => {
                    format!("node totals on {totals} of {t_of}, iterations on {its} of {i_of}")
                }
            };
            verdicts
                .p("Beside the built-in search with ")
                .code(h)
                .p(format!(": lengths agree on {lengths} of {l_of}, {nodes}."))
        }
        None => verdicts
            .p("No built-in method was named for it (")
            .code(format!("--solver {}:HEURISTIC=…", c.solver))
            .p(", or ")
            .code("bfs")
            .p(" or ")
            .code("astar+HEURISTIC")
            .p(" for HEURISTIC), so its counts stand alone."),
    };
    s.push(verdicts);
    let mut t = Table::new(
        format!("outside-{}", model::user_anchor(&c.solver)),
        Text::plain(format!(
            "Every run of {} beside the built-in search, instance by instance.",
            c.solver
        )),
        vec![
            Column::text("instance"),
            Column::text("status"),
            Column::number("length", Some("moves")),
            Column::number("built-in length", Some("moves")),
            Column::number("generated", None),
            Column::number("built-in generated", None),
            Column::number("expanded", None),
            Column::number("built-in expanded", None),
            Column::text("iterations agree"),
            Column::number("seconds", Some("s")),
        ],
    );
    let count = Cell::count;
    // The solver's own counts: one it did not report is said so, not shown as 0 or a bare dash.
    let reported = Cell::reported;
    let mut known_elsewhere = false;
    for i in &c.instances {
        let (bl, bg, be) = match i.builtin {
            Some((l, g, e)) => (l.map(u64::from), g, e),
            None => (None, None, None),
        };
        // Where the compared run gives no length, the optimal length known otherwise, with
        // where it comes from (a dash would read as unknown).
        let bl = match (bl, &i.known_optimal) {
            (Some(l), _) => Cell::Count(l),
            (None, Some((l, by))) => {
                known_elsewhere = true;
                let by = match by {
                    OptimalBy::Run(label) => label.as_str(),
                    OptimalBy::Checked => "optimal",
                };
                Cell::text(format!("{} ({by})", Cell::Count(u64::from(*l)).display()))
            }
            (None, None) => Cell::Empty,
        };
        let agree = match i.iterations_agree {
            Some(true) => Cell::text("yes"),
            Some(false) => Cell::Rich(Text::default().strong("no")),
            None => Cell::Empty,
        };
        t.row(vec![
            Cell::text(format!("{} #{}", i.instance_set, i.instance_id)),
            Cell::text(match i.status {
                RunStatus::Solved if !i.length_checked => "solved (length unchecked)",
                other => other.as_str(),
            }),
            count(i.length.map(u64::from)),
            bl,
            reported(i.generated),
            count(bg),
            reported(i.expanded),
            count(be),
            agree,
            Cell::num(i.seconds, Rounding::Decimals(3)),
        ]);
    }
    if known_elsewhere {
        t.caption = t
            .caption
            .p(
                " A built-in length with a name in parentheses is not from the solver's built-in \
             method (none named, or no length there): a method's name is a built-in run of \
             this experiment whose search proves its length optimal (breadth-first search, an \
             admissible heuristic); \"optimal\" is the optimal length the answer was checked \
             against (the instance file's, else the built-in search's under ",
            )
            .code("--check-optimal")
            .p(").");
    }
    t.collapsed = true;
    s.push(t);
    let failed: Vec<&InstanceComparison> = (c.instances.iter())
        .filter(|i| !i.detail.is_empty())
        .collect();
    if !failed.is_empty() {
        s.push(Text::ticked(
            "Why, for each run that was not solved, as `runs.csv`'s `detail` column says it (a \
             long message is cut in the middle; a crash's whole standard error is in the log it \
             names):",
        ));
        let mut items: Vec<Text> = (failed.iter().take(MAX_PROBLEMS))
            .map(|i| {
                Text::plain(format!(
                    "{} #{}, {}: ",
                    i.instance_set,
                    i.instance_id,
                    i.status.as_str()
                ))
                .code(cut_in_the_middle(&i.detail, DETAIL_HEAD, DETAIL_TAIL))
            })
            .collect();
        if failed.len() > MAX_PROBLEMS {
            items.push(Text::ticked(format!(
                "and {} more (`runs.csv`, column `detail`).",
                failed.len() - MAX_PROBLEMS
            )));
        }
        s.push(Block::List(items));
    }
    s
}

/// The `run` options that run the built-in method labelled `label` (IDA* is the default
/// algorithm once a heuristic is given).
fn options_running(label: &str) -> String {
    match Method::from_label(label) {
        Method::Builtin {
            algorithm: Algorithm::Ida,
            heuristic,
        } => format!("-H {}", heuristic.unwrap_or_default()),
        Method::Builtin {
            algorithm,
            heuristic: Some(h),
        } => format!("--algorithm {algorithm} -H {h}"),
        Method::Builtin { algorithm, .. } => format!("--algorithm {algorithm}"),
        Method::Outside { solver } => solver,
    }
}

/// At most this many runs' reasons are listed under a solver's table; `runs.csv` has them all.
const MAX_PROBLEMS: usize = 20;

/// A reason longer than these two ends together is cut between them: its start says what went
/// wrong and names the log, its end holds the last line of standard error (a traceback's
/// exception).
const DETAIL_HEAD: usize = 160;
const DETAIL_TAIL: usize = 160;

/// `s` on one line with each run of spaces made one (a traceback's indentation means nothing
/// there), and its middle replaced by ` … ` when it has more than `head + tail` characters.
fn cut_in_the_middle(s: &str, head: usize, tail: usize) -> String {
    let s = s.split_whitespace().collect::<Vec<_>>().join(" ");
    let chars: Vec<char> = s.chars().collect();
    if chars.len() <= head + tail {
        return s;
    }
    let start: String = chars[..head].iter().collect();
    let end: String = chars[chars.len() - tail..].iter().collect();
    format!("{} … {}", start.trim_end(), end.trim_start())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A solved instance of length `length`, checked against the optimal length, whose
    /// solver reported `generated` nodes (and half as many expanded).
    fn solved(length: u32, generated: Option<u64>) -> InstanceComparison {
        InstanceComparison {
            instance_set: "s".into(),
            instance_id: "1".into(),
            status: RunStatus::Solved,
            length: Some(length),
            length_checked: true,
            seconds: 0.1,
            generated,
            expanded: generated.map(|g| g / 2),
            builtin: None,
            iterations_agree: None,
            known_optimal: None,
            detail: String::new(),
        }
    }

    /// Solver `x`'s answers, beside the built-in search with `heuristic`.
    fn solver(heuristic: Option<&str>, instance: &InstanceComparison) -> SolverComparison {
        SolverComparison {
            solver: "x".into(),
            command: None,
            heuristic: heuristic.map(Into::into),
            instances: vec![instance.clone()],
        }
    }

    /// The section's per-instance table.
    fn table(c: &SolverComparison) -> crate::report::model::Table {
        let s = outside_solver(c);
        let table = s.blocks.iter().find_map(|b| match b {
            Block::Table(t) => Some(t.clone()),
            _ => None,
        });
        table.expect("a table")
    }

    fn verdicts(c: &SolverComparison) -> String {
        let s = outside_solver(c);
        match &s.blocks[0] {
            Block::Paragraph(t) => t.to_plain(),
            other => panic!("{other:?}"),
        }
    }

    /// A solver named after a heuristic the results do not hold: said so, not "0 of 0".
    #[test]
    fn a_heuristic_not_run_is_named_not_counted() {
        let instance = solved(10, Some(100));
        let mut c = solver(Some("pdb-663"), &instance);
        let text = verdicts(&c);
        assert!(text.starts_with("1 instance: 1 solved."), "{text}");
        assert!(
            text.contains("The built-in search with pdb-663 was not run; add -H pdb-663"),
            "{text}"
        );
        assert!(!text.contains("0 of 0"), "{text}");
        // Another algorithm's method: the options that run it.
        for (label, add) in [
            (
                "astar+linear-conflict",
                "add --algorithm astar -H linear-conflict to set",
            ),
            ("bfs", "add --algorithm bfs to set"),
        ] {
            let c = solver(Some(label), &solved(10, Some(100)));
            let text = verdicts(&c);
            assert!(text.contains(add), "{text}");
        }
        c.instances = vec![
            InstanceComparison {
                builtin: Some((Some(10), Some(100), Some(50))),
                ..instance.clone()
            },
            instance,
        ];
        let text = verdicts(&c);
        assert!(text.starts_with("2 instances: 2 solved."), "{text}");
        assert!(text.contains("lengths agree on 1 of 1"), "{text}");
    }

    /// A solved answer whose length nobody checked (no optimal length known) is said so, in
    /// the verdict and in its row: "solved" alone would read as optimal.
    #[test]
    fn an_unchecked_length_is_said_so() {
        let instance = InstanceComparison {
            length_checked: false,
            ..solved(12, None)
        };
        let mut c = solver(None, &instance);
        let text = verdicts(&c);
        assert!(
            text.contains("The length of its answer was checked against no optimal length"),
            "{text}"
        );
        let t = table(&c);
        assert_eq!(t.rows[0][1].display(), "solved (length unchecked)");
        c.instances = vec![
            instance.clone(),
            InstanceComparison {
                length_checked: true,
                ..instance.clone()
            },
        ];
        let text = verdicts(&c);
        assert!(
            text.contains("The length of 1 of its 2 answers was checked"),
            "{text}"
        );
        c.instances = vec![instance.clone(), instance.clone()];
        let text = verdicts(&c);
        assert!(
            text.contains("The lengths of all 2 of its answers were"),
            "{text}"
        );
        c.instances = vec![InstanceComparison {
            length_checked: true,
            ..instance
        }];
        assert!(!verdicts(&c).contains("checked against no"));
    }

    /// A run that failed says why under the table (the reason was only in `runs.csv`), a long
    /// reason cut in the middle so that its start and the last line of stderr remain; solved
    /// runs are not listed, and past [`MAX_PROBLEMS`] the rest are counted.
    #[test]
    fn failed_runs_say_why_under_the_table() {
        let tail = "x".repeat(300) + " |      ~~^^^ | KeyError: 'board'";
        let crashed = InstanceComparison {
            instance_id: "2".into(),
            status: RunStatus::Crashed,
            length: None,
            detail: format!("exit code 1; last lines of stderr (log logs/s-2-x.stderr): {tail}"),
            ..solved(10, None)
        };
        let bad = InstanceComparison {
            instance_id: "3".into(),
            status: RunStatus::BadOutput,
            length: None,
            detail: "no JSON object on the last line".into(),
            ..solved(10, None)
        };
        let mut c = solver(None, &solved(10, None));
        c.instances.extend([crashed.clone(), bad]);
        let s = outside_solver(&c);
        let Some(Block::List(items)) = s.blocks.last() else {
            panic!("{:?}", s.blocks.last());
        };
        let items: Vec<String> = items.iter().map(Text::to_plain).collect();
        assert_eq!(items.len(), 2, "{items:?}");
        assert!(
            items[0].starts_with(
                "s #2, crashed: exit code 1; last lines of stderr (log logs/s-2-x.stderr): xxx"
            ),
            "{items:?}"
        );
        assert!(
            items[0].ends_with("xxx | ~~^^^ | KeyError: 'board'"),
            "{items:?}"
        );
        assert!(items[0].contains(" … "), "{items:?}");
        assert!(items[0].chars().count() < 360, "{items:?}");
        assert_eq!(
            items[1],
            "s #3, bad-output: no JSON object on the last line"
        );
        let Some(Block::Paragraph(why)) = s.blocks.iter().rev().nth(1) else {
            panic!("{:?}", s.blocks);
        };
        assert!(why.to_plain().starts_with("Why, for each run"), "{why:?}");

        c.instances = vec![crashed; MAX_PROBLEMS + 3];
        let s = outside_solver(&c);
        let Some(Block::List(items)) = s.blocks.last() else {
            panic!("{:?}", s.blocks.last());
        };
        assert_eq!(items.len(), MAX_PROBLEMS + 1);
        assert_eq!(
            items[MAX_PROBLEMS].to_plain(),
            "and 3 more (runs.csv, column detail)."
        );
        // All solved: no list.
        c.instances = vec![solved(10, None)];
        let s = outside_solver(&c);
        assert!(matches!(s.blocks.last(), Some(Block::Table(_))));
    }

    /// The built-in length column: the compared run's length; where it has none, the optimal
    /// length known otherwise with where it comes from (it showed a dash though the lengths
    /// were known), and the caption says what the names mean; a dash only when none is known.
    #[test]
    fn the_builtin_length_falls_back_to_the_known_optimal_length() {
        let compared = InstanceComparison {
            builtin: Some((Some(10), Some(100), Some(50))),
            known_optimal: Some((10, OptimalBy::Run("bfs".into()))),
            ..solved(10, None)
        };
        let by_bfs = InstanceComparison {
            instance_id: "2".into(),
            known_optimal: Some((12, OptimalBy::Run("bfs".into()))),
            ..solved(12, None)
        };
        let checked = InstanceComparison {
            instance_id: "3".into(),
            known_optimal: Some((14, OptimalBy::Checked)),
            ..solved(16, None)
        };
        let unknown = InstanceComparison {
            instance_id: "4".into(),
            ..solved(18, None)
        };
        let mut c = solver(None, &compared);
        c.instances.extend([by_bfs, checked, unknown]);
        let t = table(&c);
        let lengths: Vec<String> = t.rows.iter().map(|r| r[3].display()).collect();
        assert_eq!(lengths, ["10", "12 (bfs)", "14 (optimal)", "—"]);
        let caption = t.caption.to_plain();
        assert!(
            caption.contains("A built-in length with a name in parentheses is not from"),
            "{caption}"
        );
        assert!(caption.ends_with("under --check-optimal)."), "{caption}");
        c.instances.truncate(1);
        assert!(!table(&c).caption.to_plain().contains("parentheses"));
    }

    /// A solver that reports no counts: its cells say "not reported" (not 0), the verdict says
    /// it reported none (not "node totals on 0 of 1").
    #[test]
    fn counts_not_reported_are_said_so_not_zero() {
        let instance = InstanceComparison {
            builtin: Some((Some(10), Some(100), Some(50))),
            ..solved(10, None)
        };
        let c = solver(Some("manhattan"), &instance);
        let text = verdicts(&c);
        assert!(
            text.contains("lengths agree on 1 of 1, it reported no node counts."),
            "{text}"
        );
        let t = table(&c);
        let row: Vec<String> = t.rows[0].iter().map(Cell::display).collect();
        // Totals but no iterations: said so, not "iterations on 0 of 0".
        let totals_only = InstanceComparison {
            builtin: Some((Some(10), Some(100), Some(50))),
            ..solved(10, Some(100))
        };
        let text = verdicts(&solver(Some("bfs"), &totals_only));
        assert!(
            text.contains(
                "lengths agree on 1 of 1, node totals on 1 of 1 (no instance has iteration \
                 counts on both sides)."
            ),
            "{text}"
        );
        assert_eq!(row[4], "not reported", "{row:?}");
        assert_eq!(row[5], "100", "{row:?}");
        assert_eq!(row[6], "not reported", "{row:?}");
    }
}
