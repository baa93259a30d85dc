//! A "Summary: SET" section: the summary table of one instance set (its formulas in
//! Definitions), and the runs left out of every mean, counted per method and stop.

use std::collections::{BTreeMap, BTreeSet};

use crate::analysis::Summary;
use crate::report::model::{self, Cell, Column, Section, Table, Text};
use crate::report::selection::{LeftOut, Omitted};
use crate::report::summary_csv::rounding;
use crate::results::{Results, RunStatus};

pub(crate) fn summary_section(
    results: &Results,
    set: &str,
    rows: &[&Summary],
    not_drawn: &[&Omitted],
) -> Section {
    let reference = rows
        .iter()
        .find_map(|s| s.reduction.as_ref().map(|r| r.reference.clone()))
        .unwrap_or_else(|| "reference".to_string());
    let mut s = Section::new(1, format!("Summary: {set}"));
    // With several algorithms or an outside solver a row is a method (`bfs`, `astar+H`, H for
    // IDA*, the solver's name), not a heuristic.
    let outside = results.runs.iter().any(|r| !r.solver.is_builtin());
    let row = if results.compares_algorithms() || outside {
        "method"
    } else {
        "heuristic"
    };
    s.push(
        Text::plain(format!("Means are over each {row}'s "))
            .strong("solved")
            .p(" runs; ")
            .link("definitions", "Definitions")
            .p(" gives every formula and its rounding."),
    );
    // With one heuristic there is nothing to compare against: its reduction vs itself is 1.
    let compared = rows.iter().any(|r| {
        r.reduction
            .as_ref()
            .is_some_and(|x| x.reference != r.heuristic)
    });
    let mut columns = vec![
        Column::text(row),
        Column::number("solved / runs", None),
        Column::number("mean h0", Some("moves")),
        Column::number("mean nodes", None),
        Column::number("geometric-mean nodes", None),
        Column::number("mean seconds", Some("s")),
        Column::number("nodes per second", Some("1/s")),
    ];
    if compared {
        columns.push(Column::number(
            format!("reduction vs {reference} (instances)"),
            None,
        ));
    }
    columns.extend([
        Column::number("mean overhead measured (runs)", None),
        Column::number("mean overhead predicted (runs)", None),
    ]);
    let mut t = Table::new(
        format!("summary-{}", model::user_anchor(set)),
        Text::plain(format!("Summary of the solved runs on {set}.")),
        columns,
    );
    for r in rows {
        let with_count = |v: Option<(f64, usize)>| match v {
            Some((m, n)) => Cell::WithCount(Box::new(Cell::num(m, rounding::OVERHEAD)), n as u64),
            None => Cell::Empty,
        };
        let mut cells = vec![
            Cell::Code(r.heuristic.clone()),
            Cell::Fraction(r.solved as u64, r.runs as u64),
            Cell::opt(r.mean_h0, rounding::H0),
            Cell::opt(r.mean_generated, rounding::NODES),
            Cell::opt(r.geomean_generated, rounding::NODES),
            Cell::opt(r.mean_seconds, rounding::SECONDS),
            Cell::opt(r.nodes_per_second, rounding::NODES),
        ];
        if compared {
            cells.push(r.reduction.as_ref().map_or(Cell::Empty, |x| {
                Cell::WithCount(
                    Box::new(Cell::num(x.factor, rounding::FACTOR)),
                    x.common as u64,
                )
            }));
        }
        cells.extend([
            with_count(r.mean_overhead_measured),
            with_count(r.mean_overhead_predicted),
        ]);
        t.row(cells);
    }
    s.push(t);
    if let Some(text) = solved_by_any(results, set, rows, row) {
        s.push(Text::plain(text));
    }
    let unsolved = unsolved_by_method(results, set, rows);
    if !unsolved.is_empty() {
        let list: Vec<String> = unsolved
            .iter()
            .map(|((h, status), n)| format!("{h}: {n} {status}"))
            .collect();
        s.push(Text::plain(format!(
            "Runs not solved (left out of every mean): {}.",
            list.join("; ")
        )));
    }
    if let Some(text) = not_run(results, set, rows) {
        s.push(Text::ticked(text));
    }
    if let Some(text) = not_drawn_note(not_drawn) {
        s.push(Text::plain(text).tick("`--plots all` draws them anyway."));
    }
    s
}

/// "Not drawn, …": the kinds of the set's plots the default selection left out for too few
/// solved instances, grouped by the number they need; `None` when none was.
fn not_drawn_note(not_drawn: &[&Omitted]) -> Option<String> {
    let mut solved = 0;
    // Needed → kinds, each kind once, in the order drawn.
    let mut groups: BTreeMap<usize, Vec<String>> = BTreeMap::new();
    for o in not_drawn {
        if let LeftOut::TooFew { solved: n, needed } = o.why {
            solved = n;
            let kinds = groups.entry(needed).or_default();
            if !kinds.contains(&o.kind.to_string()) {
                kinds.push(o.kind.to_string());
            }
        }
    }
    if groups.is_empty() {
        return None;
    }
    let only = match solved {
        0 => "no solved instance".to_string(),
        1 => "only 1 solved instance".to_string(),
        n => format!("only {n} solved instances"),
    };
    let parts: Vec<String> = groups
        .iter()
        .filter_map(|(needed, kinds)| match kinds.split_last()? {
            (one, []) => Some(format!("the {one} plot (it needs {needed})")),
            (last, init) => Some(format!(
                "the {} and {last} plots (they need {needed})",
                init.join(", ")
            )),
        })
        .collect();
    Some(format!("Not drawn, with {only}: {}. ", parts.join("; ")))
}

/// How many of the set's instances at least one method solved, and how many every method that
/// solved any did: a campaign continued under a stronger heuristic (`report --beside`) is judged
/// by the first. `None` where the two are equal (each method's "solved / runs" already says it
/// all; a method that solved nothing, such as BFS out of memory, changes no mean).
fn solved_by_any(results: &Results, set: &str, rows: &[&Summary], row: &str) -> Option<String> {
    let mut solved: BTreeMap<&str, BTreeSet<String>> = BTreeMap::new();
    for r in results.runs.iter().filter(|r| r.instance_set == set) {
        let label = r.label();
        if rows.iter().any(|s| s.heuristic == label) {
            let by = solved.entry(r.instance_id.as_str()).or_default();
            if r.status == RunStatus::Solved {
                by.insert(label);
            }
        }
    }
    let solving: BTreeSet<&String> = solved.values().flatten().collect();
    // With fewer than two methods that solved anything, every mean is over its own boards
    // already (a fixed-bound experiment solves nothing at all).
    if solving.len() < 2 {
        return None;
    }
    let any = solved.values().filter(|by| !by.is_empty()).count();
    let every = solved
        .values()
        .filter(|by| by.len() == solving.len())
        .count();
    (any != every).then(|| {
        format!(
            "Solved by at least one {row}: {any} of {} instances; by every {row}: {every}. So \
             the means of two {row}s that solved different instances are over different boards \
             (an easier subset has the smaller mean); the reduction column compares each with \
             the reference on the instances both solved.",
            solved.len()
        )
    })
}

/// "Not run: …": the methods with no row for some of the set's instances (a campaign run on
/// some instances only, `--only-ids`), which neither mean nor the not-solved list counts.
fn not_run(results: &Results, set: &str, rows: &[&Summary]) -> Option<String> {
    let instances: BTreeSet<&str> = (results.runs.iter())
        .filter(|r| r.instance_set == set)
        .map(|r| r.instance_id.as_str())
        .collect();
    let n = instances.len();
    let missing: Vec<String> = (rows.iter())
        .filter(|s| s.runs < n)
        .map(|s| format!("`{}` on {} of the {n}", s.heuristic, n - s.runs))
        .collect();
    (!missing.is_empty()).then(|| {
        format!(
            "Not run (no row in `{}`): {} instances.",
            crate::results::RUNS_FILE,
            missing.join("; ")
        )
    })
}

/// The runs of a set not solved, counted per method (as the summary rows name it: `astar+H`,
/// `bfs`, H for IDA*) and per status, every status counted.
fn unsolved_by_method(
    results: &Results,
    set: &str,
    rows: &[&Summary],
) -> BTreeMap<(String, String), usize> {
    let mut unsolved: BTreeMap<(String, String), usize> = BTreeMap::new();
    for r in results.runs.iter().filter(|r| {
        r.instance_set == set
            && r.status != RunStatus::Solved
            && rows.iter().any(|s| s.heuristic == r.label())
    }) {
        *unsolved
            .entry((r.label(), r.status.to_string()))
            .or_default() += 1;
    }
    unsolved
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::Algorithm;
    /// A stop is counted under the method that stopped (`astar+manhattan`, not `manhattan`), and
    /// breadth-first search's stops are counted too.
    #[test]
    fn unsolved_notes_name_the_method_and_count_every_stop() {
        let run =
            |algorithm: Algorithm, heuristic: &str, id: &str, status| crate::results::RunRecord {
                instance_set: "s".into(),
                instance_id: id.into(),
                algorithm: algorithm.into(),
                heuristic: heuristic.into(),
                status,
                ..Default::default()
            };
        let results = Results {
            dir: "r".into(),
            runs: vec![
                run(Algorithm::Ida, "manhattan", "1", RunStatus::Solved),
                run(Algorithm::Astar, "manhattan", "1", RunStatus::MemoryLimit),
                run(Algorithm::Bfs, "", "1", RunStatus::MemoryLimit),
                run(Algorithm::Bfs, "", "2", RunStatus::TimeLimit),
                crate::results::RunRecord {
                    h0: Some(0),
                    ..run(Algorithm::Bfs, "", "3", RunStatus::Solved)
                },
            ],
            iterations: vec![],
            meta: None,
        };
        let summaries = crate::analysis::summarize(&results);
        let rows: Vec<&Summary> = summaries.iter().collect();
        let got = unsolved_by_method(&results, "s", &rows);
        let want: BTreeMap<(String, String), usize> = [
            (("astar+manhattan".into(), "memory-limit".into()), 1),
            (("bfs".into(), "memory-limit".into()), 1),
            (("bfs".into(), "time-limit".into()), 1),
        ]
        .into_iter()
        .collect();
        assert_eq!(got, want);
        let bfs = summaries.iter().find(|s| s.heuristic == "bfs").unwrap();
        assert_eq!(bfs.mean_h0, None, "BFS has no h0");
        // Instances 1 and 3 each solved by one method, none by all three.
        assert_eq!(
            solved_by_any(&results, "s", &rows, "method").as_deref(),
            Some(
                "Solved by at least one method: 2 of 3 instances; by every method: 0. So the \
                 means of two methods that solved different instances are over different boards \
                 (an easier subset has the smaller mean); the reduction column compares each \
                 with the reference on the instances both solved."
            )
        );
        let only_ida: Vec<&Summary> = rows
            .iter()
            .copied()
            .filter(|s| s.heuristic == "manhattan")
            .collect();
        assert_eq!(solved_by_any(&results, "s", &only_ida, "method"), None);
        // A* solved nothing: IDA* and BFS still solved different instances.
        let no_astar: Vec<&Summary> = rows
            .iter()
            .copied()
            .filter(|s| s.heuristic != "astar+manhattan")
            .collect();
        assert!(solved_by_any(&results, "s", &no_astar, "method").is_some());
        // BFS solved nothing on instance set t, both IDA* and A* solved instance 1: the means are
        // over the same boards, nothing to say.
        let mut same = results.clone();
        for r in &mut same.runs {
            r.instance_set = "t".into();
            r.status = match (r.label().as_str(), r.instance_id.as_str()) {
                ("bfs", _) => RunStatus::MemoryLimit,
                (_, "1") => RunStatus::Solved,
                (_, _) => RunStatus::TimeLimit,
            };
        }
        assert_eq!(solved_by_any(&same, "t", &rows, "method"), None);
        // Nothing solved (fixed-bound runs): nothing to say, not "by every method: all".
        for r in &mut same.runs {
            r.status = RunStatus::FixedBound;
        }
        assert_eq!(solved_by_any(&same, "t", &rows, "method"), None);
        // IDA* and A* have rows for instance 1 only, BFS for all three.
        assert_eq!(
            not_run(&results, "s", &rows).as_deref(),
            Some(
                "Not run (no row in `runs.csv`): `manhattan` on 2 of the 3; `astar+manhattan` on \
                 2 of the 3 instances."
            )
        );
        let bfs_only: Vec<&Summary> = rows
            .iter()
            .copied()
            .filter(|s| s.heuristic == "bfs")
            .collect();
        assert_eq!(not_run(&results, "s", &bfs_only), None);
    }

    /// A set whose plots were left out for too few solved instances says so in its summary,
    /// with the number each plot needs; other reasons are Plots' to tell.
    #[test]
    fn plots_left_out_for_too_few_instances_are_named() {
        let o = |kind, why| Omitted {
            kind,
            stem: String::new(),
            instance_set: "s".into(),
            why,
        };
        let few = |needed| LeftOut::TooFew { solved: 2, needed };
        let a = o(crate::plot::PlotKind::NodesPerInstance, few(3));
        let b = o(crate::plot::PlotKind::Iterations, few(5));
        let c = o(crate::plot::PlotKind::Scatter, LeftOut::PairScatter);
        assert_eq!(
            not_drawn_note(&[&a, &b, &c]).as_deref(),
            Some(
                "Not drawn, with only 2 solved instances: the nodes-per-instance plot (it \
                 needs 3); the iterations plot (it needs 5). "
            )
        );
        // Each kind once, grouped by what it needs.
        let d = o(crate::plot::PlotKind::Iterations, few(5));
        let e = o(crate::plot::PlotKind::Overhead, few(5));
        assert_eq!(
            not_drawn_note(&[&b, &d, &e]).as_deref(),
            Some(
                "Not drawn, with only 2 solved instances: the iterations and overhead plots \
                 (they need 5). "
            )
        );
        assert_eq!(not_drawn_note(&[&c]), None);
        let results = Results {
            dir: "r".into(),
            runs: vec![],
            iterations: vec![],
            meta: None,
        };
        let section = summary_section(&results, "s", &[], &[&a]);
        let text = format!("{:?}", section.blocks.last());
        assert!(text.contains("only 2 solved instances"), "{text}");
    }

    /// With several algorithms the summary's rows are methods and its first column says so;
    /// with IDA* alone they are heuristics.
    #[test]
    fn rows_are_named_methods_when_algorithms_are_compared() {
        let run = |algorithm: crate::search::Algorithm| crate::results::RunRecord {
            instance_set: "s".into(),
            instance_id: "1".into(),
            algorithm: algorithm.into(),
            heuristic: "manhattan".into(),
            status: RunStatus::Solved,
            ..Default::default()
        };
        let first_column = |algorithms: &[crate::search::Algorithm]| {
            let results = Results {
                dir: "r".into(),
                runs: algorithms.iter().map(|&a| run(a)).collect(),
                iterations: vec![],
                meta: None,
            };
            let section = summary_section(&results, "s", &[], &[]);
            let debug = format!("{:?}", section.blocks);
            debug.contains("Means are over each method's")
        };
        use crate::search::Algorithm::{Astar, Ida};
        assert!(first_column(&[Astar, Ida]));
        assert!(!first_column(&[Ida]));
    }
}
