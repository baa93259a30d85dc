//! The optimization-path section (issue #14): BFS, A* and IDA* side by side with the memory each
//! holds, when the results compare algorithms. A section builder of its own (model blocks), so
//! that every renderer draws it.

use std::collections::{BTreeMap, BTreeSet};

use crate::board::Goal;
use crate::geometry::Size;
use crate::heuristic::registry::HeuristicName;
use crate::predict::tree::asymptotic_branching;
use crate::report::format::{count, int, median_count, opt, sig};
use crate::report::model::{Cell, Column, Rounding, Section, Table, Text};
use crate::report::summary_csv::rounding;
use crate::results::{Results, RunRecord, RunStatus};
use crate::search::memory::Bytes;
use crate::search::Algorithm;

/// Bytes per stored state of a typical (Python) A*: with the board's branching factor, the lab's
/// estimate the measured figures are set beside.
pub(crate) const LAB_BYTES_PER_STATE: f64 = 100.0;

/// Seconds below which a sum of searches' times measures the timer, not the search.
const TOO_SHORT_TO_TIME: f64 = 0.01;

fn bytes_cell(b: Option<u64>) -> Cell {
    b.map_or(Cell::Empty, |b| Cell::text(Bytes(b).to_string()))
}

/// The section and its subsection, when it applies.
pub fn sections(results: &Results) -> Option<Vec<Section>> {
    if !results.compares_algorithms() {
        return None;
    }
    let mut s = Section::new(1, "The optimization path: BFS, A* and IDA*");
    let limit = results
        .meta
        .as_ref()
        .and_then(|m| m.experiment.memory_limit);
    let time = results
        .meta
        .as_ref()
        .and_then(|m| m.experiment.time_limit_seconds);
    s.push(Text::plain(format!(
        "Every instance of every set, by algorithm and heuristic (astar+H is A*, bfs \
         breadth-first search, a heuristic alone is IDA*). Memory limit per search: {}; time \
         limit: {}. Peak states are the states held at once (open + closed for A*, frontier + \
         visited for BFS, the path for IDA*), peak bytes the bytes of the search's own \
         structures then (pattern-database tables excluded, they are shared: tables). Bytes a \
         state is peak bytes / peak states of the method's largest search (the most states \
         stored): a small search is dominated by its first fixed allocation, so a median over \
         runs would overstate it.",
        limit.map_or("none".to_string(), |l| Bytes(l).to_string()),
        time.map_or("none".to_string(), |t| format!("{t} s")),
    )));
    // The built-in search's methods (outside solvers have their own section).
    let methods: Vec<String> = results
        .methods()
        .into_iter()
        .filter(|m| {
            results
                .runs
                .iter()
                .any(|r| &r.label() == m && r.solver.is_builtin())
        })
        .collect();
    // Nodes and seconds compare the methods: summed over the instances every method solved.
    let common = solved_by_all(results, &methods);
    let wider = heuristic_searches(results, &methods, common.len());
    // Per method: (nodes, seconds) summed over `common`.
    let sums: Vec<(u64, f64)> = (methods.iter())
        .map(|m| sums_on(&runs_of(results, m), &common))
        .collect();
    // With BFS among the methods, the instances all solved are the shallowest: a heuristic
    // search sums to microseconds there, which time the timer and the first allocations.
    // So does a sum that only one short run lifts above the limit: a stall of the machine in
    // one run of a millisecond (a page fault, the scheduler) is not the method's time.
    let untimed: Vec<&str> = (methods.iter().zip(&sums))
        .filter(|(m, s)| {
            let longest = seconds_on(&runs_of(results, m), &common)
                .into_iter()
                .fold(0.0, f64::max);
            !common.is_empty()
                && (s.1 < TOO_SHORT_TO_TIME
                    || (s.1 - longest < TOO_SHORT_TO_TIME && longest < 10.0 * TOO_SHORT_TO_TIME))
        })
        .map(|(m, _)| m.as_str())
        .collect();
    let mut caption = format!(
        "BFS, A* and IDA*: runs, limits, nodes, time and memory per method. Nodes and seconds \
         are summed over the {} that every method solved, so that the methods are \
         compared on the same boards.",
        count(common.len(), "instance")
    );
    if !untimed.is_empty() {
        caption.push_str(&format!(
            " Sums under {} ms ({}; or under it but for one run shorter than {} ms, whose \
             time a stall of the machine may make) are too short to time: their differences \
             are the timer's and the first allocations', not the methods'{}.",
            TOO_SHORT_TO_TIME * 1e3,
            untimed.join(", "),
            TOO_SHORT_TO_TIME * 1e4,
            if wider.is_some() {
                "; the next table compares the heuristic searches on more instances"
            } else {
                ""
            }
        ));
    }
    let mut table = Table::new(
        "optimization-path",
        Text::plain(caption),
        vec![
            Column::text("method"),
            Column::number("runs", None),
            Column::number("solved", None),
            Column::number("memory-limit", None),
            Column::number("time-limit", None),
            Column::number("other stops", None),
            Column::number(
                format!("nodes generated ({} solved by all)", common.len()),
                None,
            ),
            Column::number(
                format!("seconds ({} solved by all)", common.len()),
                Some("s"),
            ),
            Column::number("largest peak states", None),
            Column::number("its peak bytes", None),
            Column::number("its bytes/state", None),
            Column::number("tables", None),
        ],
    );
    for (m, &(nodes, seconds)) in methods.iter().zip(&sums) {
        let runs = runs_of(results, m);
        let count = |st: RunStatus| runs.iter().filter(|r| r.status == st).count() as u64;
        let solved = count(RunStatus::Solved);
        let memory = count(RunStatus::MemoryLimit);
        let time = count(RunStatus::TimeLimit);
        let tables = runs.iter().filter_map(|r| r.table_bytes).max().unwrap_or(0);
        let largest = largest_search(&runs);
        table.row(vec![
            Cell::text(m.clone()),
            Cell::Count(runs.len() as u64),
            Cell::Count(solved),
            Cell::Count(memory),
            Cell::Count(time),
            Cell::Count(runs.len() as u64 - solved - memory - time),
            if common.is_empty() {
                Cell::Empty
            } else {
                Cell::Count(nodes)
            },
            if common.is_empty() {
                Cell::Empty
            } else {
                Cell::num(seconds, rounding::SECONDS)
            },
            largest
                .and_then(|r| r.peak_stored)
                .map_or(Cell::Empty, Cell::Count),
            bytes_cell(largest.and_then(|r| r.peak_bytes)),
            Cell::opt(largest.and_then(bytes_per_state), Rounding::Significant(3)),
            bytes_cell((tables > 0).then_some(tables)),
        ]);
    }
    s.push(table);
    if let Some(t) = wider {
        s.push(t);
    }
    if let Some(t) = by_length(results, &methods) {
        s.push(Text::plain(
            "By optimal solution length (from the instance files; else the length found): solved \
             of runs, then the median peak states stored and the median nodes generated over all \
             runs of that length (limited runs count with the figures at which they stopped).",
        ));
        s.push(t);
    }
    let mut sub = Section::new(2, "Where the memory ran out");
    limits(&mut sub, results, &methods, limit);
    if let Some(t) = table_arithmetic(results, LAB_TABLES) {
        sub.push(Text::plain(t));
    }
    Some(vec![s, sub])
}

/// The lab's memory arithmetic of each pattern database run, a max of them too: a group of k
/// tiles on n cells has n!/(n−k)! entries, one for each placement of its tiles, beside the bytes
/// `runs.csv` records (each figure it records, with its rows where they differ: tables written
/// at one byte an entry before four bits). Only where every set has one board and goal, which fix
/// the groups.
fn table_arithmetic(results: &Results, intro: &str) -> Option<String> {
    let sets = &results.meta.as_ref()?.instance_sets;
    let first = sets.first()?;
    if sets
        .iter()
        .any(|s| (&s.size, &s.goal) != (&first.size, &first.goal))
    {
        return None;
    }
    let size = Size::parse(&first.size).ok()?;
    let goal = Goal::parse(&first.goal, size).ok()?;
    let n = size.cells() as u64;
    // Per heuristic, in the order of the rows: each recorded figure and how many rows record it.
    let mut recorded: Vec<(&str, BTreeMap<u64, usize>)> = Vec::new();
    for r in &results.runs {
        let Some(bytes) = r.table_bytes.filter(|&b| b > 0) else {
            continue;
        };
        let i = match recorded.iter().position(|(h, _)| *h == r.heuristic) {
            Some(i) => i,
            None => {
                recorded.push((r.heuristic.as_str(), BTreeMap::new()));
                recorded.len() - 1
            }
        };
        *recorded[i].1.entry(bytes).or_default() += 1;
    }
    let mut lines = Vec::new();
    for (heuristic, figures) in recorded {
        let Some((groups, shared)) = pdb_groups(heuristic, &goal) else {
            continue;
        };
        let ks: Vec<u64> = groups.iter().map(|g| g.len() as u64).collect();
        let entries: Vec<u64> = ks.iter().map(|&k| (n - k + 1..=n).product()).collect();
        let total: u64 = entries.iter().sum();
        let join = |parts: Vec<String>| parts.join(" + ");
        let rows: usize = figures.values().sum();
        // The figure most rows record first.
        let mut figures: Vec<(u64, usize)> = figures.into_iter().collect();
        figures.sort_by_key(|&(bytes, on)| std::cmp::Reverse((on, bytes)));
        let bytes: Vec<String> = (figures.iter())
            .map(|&(bytes, on)| {
                let per = match bytes as f64 / total as f64 {
                    1.0 => "one byte an entry".to_string(),
                    per if (per - 0.5).abs() < 0.01 => "four bits an entry".to_string(),
                    per => format!("{} bytes an entry", sig(per, 3)),
                };
                let on = if figures.len() > 1 {
                    format!(" on {on} of its {rows} rows")
                } else {
                    String::new()
                };
                format!(
                    "{} bytes of tables ({}, {per}){on}",
                    int(bytes as f64),
                    Bytes(bytes)
                )
            })
            .collect();
        lines.push(format!(
            "{heuristic}: {}groups of {} tiles on {n} cells, {} = {} = {} entries; runs.csv \
             records {}.",
            if shared {
                "its terms' tables, a group that two terms share counted once: "
            } else {
                ""
            },
            ks.iter().map(u64::to_string).collect::<Vec<_>>().join(", "),
            join(ks.iter().map(|k| format!("{n}!/{}!", n - k)).collect()),
            join(entries.iter().map(|&e| int(e as f64)).collect()),
            int(total as f64),
            bytes.join(", and "),
        ));
    }
    (!lines.is_empty()).then(|| format!("{intro} ({TABLE_SIZES}): {}", lines.join(" ")))
}

/// The tile groups whose tables `heuristic` reads on `goal` (a max: its pattern-database terms',
/// each group once, and `true`); None when it reads none.
fn pdb_groups(heuristic: &str, goal: &Goal) -> Option<(Vec<Vec<u8>>, bool)> {
    let groups = |name: &HeuristicName| match name {
        HeuristicName::Pdb(p) => p.partition_for(goal).map(|p| p.groups().to_vec()).ok(),
        _ => None,
    };
    match heuristic.parse::<HeuristicName>().ok()? {
        HeuristicName::Max(m) => {
            let mut all: Vec<Vec<u8>> = Vec::new();
            for g in m.terms.iter().filter_map(groups).flatten() {
                let mut key = g.clone();
                key.sort_unstable();
                if !all.iter().any(|a| {
                    let mut a = a.clone();
                    a.sort_unstable();
                    a == key
                }) {
                    all.push(g);
                }
            }
            (!all.is_empty()).then_some((all, true))
        }
        name => groups(&name).map(|g| (g, false)),
    }
}

/// The lab's sentence on its tables.
const LAB_TABLES: &str = "The pattern databases' size, for the lab's memory arithmetic";

/// How a pattern database's size is worked out, and where its bytes count.
const TABLE_SIZES: &str = "a group of k tiles on n cells has n!/(n−k)! entries, one a placement \
    of its tiles; the tables are shared by every search with the heuristic, and not in its peak \
    bytes";

/// The section of an experiment that is not the lab's (whose optimization path works the sizes
/// out in its text): each pattern database's size worked out beside the bytes recorded.
pub(crate) fn pattern_databases(results: &Results) -> Option<Section> {
    let text = table_arithmetic(results, "Each pattern database's size")?;
    let mut s = Section::new(1, "Pattern databases");
    s.push(Text::plain(text));
    Some(s)
}

/// `runs`' solved runs on the instances `on`.
fn solved_on<'a>(
    runs: &'a [&'a RunRecord],
    on: &'a BTreeSet<(String, String)>,
) -> impl Iterator<Item = &'a RunRecord> + 'a {
    runs.iter().copied().filter(|r| {
        r.status == RunStatus::Solved
            && on.contains(&(r.instance_set.clone(), r.instance_id.clone()))
    })
}

/// Nodes generated and seconds of `runs`' solved runs on the instances `on`.
fn sums_on(runs: &[&RunRecord], on: &BTreeSet<(String, String)>) -> (u64, f64) {
    (
        solved_on(runs, on).filter_map(|r| r.generated).sum(),
        solved_on(runs, on).map(|r| r.seconds).sum(),
    )
}

/// The seconds of each of `runs`' solved runs on the instances `on`.
fn seconds_on(runs: &[&RunRecord], on: &BTreeSet<(String, String)>) -> Vec<f64> {
    solved_on(runs, on).map(|r| r.seconds).collect()
}

/// Breadth-first search stops at the memory limit beyond the shallow boards, so the instances
/// every method solved are those where the heuristics hardly differ: the heuristic searches
/// (A* and IDA*) compared again on the instances each of them solved, when there are more.
fn heuristic_searches(results: &Results, methods: &[String], common: usize) -> Option<Table> {
    let searches: Vec<String> = methods
        .iter()
        .filter(|m| {
            (runs_of(results, m).iter())
                .all(|r| r.algorithm.0.is_some_and(Algorithm::uses_heuristic))
        })
        .cloned()
        .collect();
    let shared = solved_by_all(results, &searches);
    if searches.len() < 2 || searches.len() == methods.len() || shared.len() <= common {
        return None;
    }
    let sums: Vec<(u64, f64)> = searches
        .iter()
        .map(|m| sums_on(&runs_of(results, m), &shared))
        .collect();
    let most = sums.iter().map(|&(n, _)| n).max().unwrap_or(0);
    let mut table = Table::new(
        "optimization-path-heuristics",
        Text::plain(format!(
            "The heuristic searches (A* and IDA*) on the {} that each of them solved, \
             breadth-first search left out: nodes and seconds summed over them, and how many \
             times fewer nodes each generated than the method that generated the most.",
            count(shared.len(), "instance")
        )),
        vec![
            Column::text("method"),
            Column::number(format!("nodes generated ({} solved)", shared.len()), None),
            Column::number(format!("seconds ({} solved)", shared.len()), Some("s")),
            Column::number("fewer nodes than the most (×)", None),
        ],
    );
    for (m, (nodes, seconds)) in searches.iter().zip(sums) {
        table.row(vec![
            Cell::text(m.clone()),
            Cell::Count(nodes),
            Cell::num(seconds, rounding::SECONDS),
            Cell::opt(
                (nodes > 0).then(|| most as f64 / nodes as f64),
                Rounding::Significant(3),
            ),
        ]);
    }
    Some(table)
}

/// Per optimal length and method: solved of runs, median peak states and median nodes; with
/// boards of several sizes, per size and length (a length is another depth on each board).
fn by_length(results: &Results, methods: &[String]) -> Option<Table> {
    let sizes = results.board_sizes();
    let several = sizes.len() > 1;
    let size_of = |r: &RunRecord| {
        several
            .then(|| results.board_size(&r.instance_set))
            .flatten()
    };
    let rows: BTreeSet<(Option<Size>, u32)> = (results.runs.iter())
        .filter_map(|r| Some((size_of(r), r.known_length()?)))
        .collect();
    if rows.is_empty() {
        return None;
    }
    let mut columns = Vec::new();
    if several {
        columns.push(Column::text("board"));
    }
    columns.push(Column::number("length", None));
    columns.extend(methods.iter().map(|m| Column::text(m.clone())));
    let mut table = Table::new(
        "optimization-path-by-length",
        Text::plain(if several {
            "Per board size, optimal length and method: solved / runs, median peak states, \
             median nodes."
        } else {
            "Per optimal length and method: solved / runs, median peak states, median nodes."
        }),
        columns,
    );
    table.keys = if several { 2 } else { 1 };
    for (size, l) in rows {
        let mut row = Vec::new();
        if several {
            row.push(size.map_or(Cell::Empty, |s| Cell::text(s.to_string())));
        }
        row.push(Cell::Count(u64::from(l)));
        for m in methods {
            let runs: Vec<&RunRecord> = (results.runs.iter())
                .filter(|r| &r.label() == m && r.known_length() == Some(l) && size_of(r) == size)
                .collect();
            if runs.is_empty() {
                row.push(Cell::Empty);
                continue;
            }
            let solved = runs
                .iter()
                .filter(|r| r.status == RunStatus::Solved)
                .count();
            let states = median(
                runs.iter()
                    .filter_map(|r| r.peak_stored.map(|v| v as f64))
                    .collect(),
            );
            let nodes = median(
                runs.iter()
                    .filter_map(|r| r.generated.map(|g| g as f64))
                    .collect(),
            );
            row.push(Cell::text(format!(
                "{solved}/{}: {} st, {} nodes",
                runs.len(),
                opt(states, median_count),
                opt(nodes, median_count),
            )));
        }
        table.row(row);
    }
    Some(table)
}

/// The board sizes of the results' instance sets (the 15-puzzle's without `meta.json`, the
/// lab's board).
fn board_sizes(results: &Results) -> Vec<Size> {
    let sizes = results.board_sizes();
    if sizes.is_empty() {
        vec![Size::new(4, 4).expect("4x4 is a board size")]
    } else {
        sizes
    }
}

/// Where a search without a heuristic (BFS) passes `states` on a board of `size`: at the depth
/// where bᵈ does, with b the board's asymptotic branching factor, unless the board has fewer
/// reachable states than that in all.
fn lab_depth(size: Size, states: f64) -> String {
    let reachable = (1..=size.cells()).map(|n| n as f64).product::<f64>() / 2.0;
    if reachable <= states {
        return format!(
            " On the {size} board the whole space, {} reachable states, fits: by this estimate \
             breadth-first search never reaches the limit.",
            sig(reachable, 3),
        );
    }
    let b = asymptotic_branching(size);
    format!(
        " On the {size} board, with b ≈ {} (its asymptotic branching factor after parent \
         pruning) the states within depth d grow like bᵈ, which passes that number at \
         d ≈ ln({}) / ln({}) ≈ {:.1} for a search without a heuristic (BFS).",
        sig(b, 3),
        sig(states, 3),
        sig(b, 3),
        states.ln() / b.ln(),
    )
}

/// Where one method's runs (one board size) met the memory limit: the first stop's optimal
/// length, what it held, how deep the stopped searches got, and any time-limit stops.
fn memory_stops(results: &Results, runs: &[&RunRecord], lab_states: f64) -> String {
    let hit: Vec<&&RunRecord> = runs
        .iter()
        .filter(|r| r.status == RunStatus::MemoryLimit)
        .collect();
    let first_hit = hit.iter().filter_map(|r| r.known_length()).min();
    let longest_solved = runs
        .iter()
        .filter(|r| r.status == RunStatus::Solved)
        .filter_map(|r| r.known_length())
        .max();
    let held = hit.iter().filter_map(|r| r.peak_stored).max();
    // How deep the stopped searches got (BFS: the depth; A*: the f bound), to set beside
    // the estimate's depth: a stop's optimal length says only how deep it had to go.
    let reached: Vec<u32> = hit
        .iter()
        .filter_map(|r| {
            let key = r.key();
            let it = results.iterations.iter().filter(|i| i.key() == key);
            it.map(|i| i.bound).max()
        })
        .collect();
    let reached = match (reached.iter().min(), reached.iter().max()) {
        (Some(lo), Some(hi)) => format!(
            " The stopped searches had reached {}{lo}{}.",
            if runs[0].algorithm == Algorithm::Astar {
                "f = "
            } else {
                "depth "
            },
            if hi > lo {
                format!("–{hi}")
            } else {
                String::new()
            },
        ),
        _ => String::new(),
    };
    let per_state = largest_search(runs).and_then(bytes_per_state);
    let timed_out = runs
        .iter()
        .filter(|r| r.status == RunStatus::TimeLimit)
        .filter_map(|r| r.known_length())
        .min();
    let mut text = format!(
        ": longest solved {}; ",
        longest_solved.map_or("none".to_string(), |l| format!("{l} moves")),
    );
    match first_hit {
        Some(l) => text.push_str(&format!(
            "first memory-limit stop at optimal length {l} ({} of {} runs stopped there or \
             deeper), holding {} states at {} bytes a state ({:.1}× the lab's states \
             estimate).{reached}",
            hit.len(),
            runs.len(),
            opt(held.map(|v| v as f64), int),
            opt(per_state, |v| sig(v, 3)),
            held.map_or(0.0, |h| h as f64 / lab_states),
        )),
        None => text.push_str(&format!(
            "never stopped by the memory limit ({} bytes a state).",
            opt(per_state, |v| sig(v, 3))
        )),
    }
    if let Some(t) = timed_out {
        text.push_str(&format!(
            " Stopped by the time limit from optimal length {t} on (before the memory ran \
             out: on this machine the limit on time came first there)."
        ));
    }
    if runs[0].algorithm == Algorithm::Astar {
        text.push_str(&reopened(runs));
    }
    text
}

/// How often A* reached an expanded state again more cheaply and reopened it: never with a
/// consistent heuristic; with an inconsistent one (pattern databases often are), the price of
/// staying optimal.
fn reopened(runs: &[&RunRecord]) -> String {
    let solved: Vec<&&RunRecord> = (runs.iter())
        .filter(|r| r.status == RunStatus::Solved)
        .collect();
    let reopening: Vec<u64> = (solved.iter())
        .filter_map(|r| r.reopened)
        .filter(|&n| n > 0)
        .collect();
    match (solved.len(), reopening.iter().max()) {
        (0, _) => String::new(),
        (n, None) => format!(" None of its {} reopened a state.", count(n, "solved run")),
        (n, Some(max)) => format!(
            " {} of its {} reopened states (at most {}): the heuristic is not consistent, and \
             A* stays optimal by expanding them again.",
            reopening.len(),
            count(n, "solved run"),
            int(*max as f64),
        ),
    }
}

/// Where each storing algorithm met the memory limit, beside the lab's estimate.
fn limits(s: &mut Section, results: &Results, methods: &[String], limit: Option<u64>) {
    let Some(limit) = limit else {
        s.push(Text::plain("The run had no memory limit."));
        return;
    };
    let lab_states = limit as f64 / LAB_BYTES_PER_STATE;
    let mut text = format!(
        "The lab's estimate: about {LAB_BYTES_PER_STATE:.0} bytes a state, so {} holds about {} \
         states.",
        Bytes(limit),
        sig(lab_states, 3),
    );
    for size in board_sizes(results) {
        text.push_str(&lab_depth(size, lab_states));
    }
    text.push_str(" Measured here, per method that stores states:");
    s.push(Text::plain(text));
    // With boards of several sizes, each size apart: an 8-puzzle's lengths say nothing of where
    // a 15-puzzle search runs out.
    let sizes = board_sizes(results);
    let mut items = Vec::new();
    for m in methods {
        let runs = runs_of(results, m);
        if runs.iter().all(|r| r.algorithm == Algorithm::Ida) {
            continue;
        }
        for size in &sizes {
            let (label, runs) = if sizes.len() > 1 {
                let of_size = (runs.iter().copied())
                    .filter(|r| results.board_size(&r.instance_set) == Some(*size))
                    .collect();
                (format!("{m} ({size})"), of_size)
            } else {
                (m.clone(), runs.clone())
            };
            if !runs.is_empty() {
                let text = memory_stops(results, &runs, lab_states);
                items.push(Text::default().strong(label).p(text));
            }
        }
    }
    let ida_bytes = (results.runs.iter())
        .filter(|r| r.algorithm == Algorithm::Ida)
        .filter_map(|r| r.peak_bytes)
        .max();
    items.push(Text::default().strong("IDA*").p(format!(
        " holds only its path: at most length + 1 states ({}), whatever the depth; what it \
         pays instead is re-expansion (the nodes column).",
        ida_bytes.map_or("a few KiB".to_string(), |b| format!(
            "at most {} here",
            Bytes(b)
        )),
    )));
    s.push(crate::report::model::Block::List(items));
}

/// The instances (set, id) solved by every one of `methods`.
fn solved_by_all(results: &Results, methods: &[String]) -> BTreeSet<(String, String)> {
    let solved = |m: &String| -> BTreeSet<(String, String)> {
        results
            .runs
            .iter()
            .filter(|r| &r.label() == m && r.status == RunStatus::Solved)
            .map(|r| (r.instance_set.clone(), r.instance_id.clone()))
            .collect()
    };
    let mut it = methods.iter();
    let Some(first) = it.next() else {
        return BTreeSet::new();
    };
    it.fold(solved(first), |acc, m| {
        acc.intersection(&solved(m)).cloned().collect()
    })
}

/// The run of a method that stored the most states (with its bytes known): the one whose bytes
/// a state measure the per-state cost rather than the first fixed allocation.
pub(crate) fn largest_search<'a>(runs: &[&'a RunRecord]) -> Option<&'a RunRecord> {
    runs.iter()
        .copied()
        .filter(|r| r.peak_bytes.is_some())
        .filter_map(|r| Some((r.peak_stored?, r)))
        .max_by_key(|(stored, _)| *stored)
        .map(|(_, r)| r)
}

/// Peak bytes / peak states of one run.
pub fn bytes_per_state(r: &RunRecord) -> Option<f64> {
    let (bytes, stored) = (r.peak_bytes?, r.peak_stored?);
    (stored > 0).then(|| bytes as f64 / stored as f64)
}

/// The runs of method `m` (a run's label).
fn runs_of<'r>(results: &'r Results, m: &str) -> Vec<&'r RunRecord> {
    results.runs.iter().filter(|r| r.label() == m).collect()
}

fn median(v: Vec<f64>) -> Option<f64> {
    (!v.is_empty()).then(|| crate::analysis::median(&v))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Bytes a state of a method with one tiny search (its fixed first allocation over a few
    /// states) and one large search is the large search's: 32 bytes, not the median 516.
    #[test]
    fn bytes_a_state_is_the_largest_search() {
        let run = |stored: u64, bytes: u64| RunRecord {
            peak_stored: Some(stored),
            peak_bytes: Some(bytes),
            bytes_per_state: Some(bytes as f64 / stored as f64),
            ..RunRecord::default()
        };
        let (tiny, large) = (run(10, 10_000), run(1_000_000, 32_000_000));
        let runs = [&tiny, &large];
        let largest = largest_search(&runs).unwrap();
        assert_eq!(bytes_per_state(largest), Some(32.0));
        assert_eq!(
            largest_search(&[&tiny]).and_then(bytes_per_state),
            Some(1000.0)
        );
    }

    /// The estimate follows the board: the 8-puzzle's whole space fits in the 15-puzzle lab's
    /// 2.7 million states; the 15- and 24-puzzle pass them at their own branching factors.
    #[test]
    fn the_lab_depth_is_the_boards() {
        let size = |s| Size::new(s, s).unwrap();
        let eight = lab_depth(size(3), 2_684_355.0);
        assert!(eight.contains("181,440 reachable states, fits"), "{eight}");
        let fifteen = lab_depth(size(4), 2_684_355.0);
        assert!(
            fifteen.contains("b ≈ 2.13") && fifteen.contains("≈ 19.6 "),
            "{fifteen}"
        );
        let twenty_four = lab_depth(size(5), 2_684_355.0);
        assert!(
            twenty_four.contains("b ≈ 2.37") && twenty_four.contains("≈ 17.2 "),
            "{twenty_four}"
        );
        let small = lab_depth(size(3), 1000.0);
        assert!(
            small.contains("b ≈ 1.73") && small.contains("≈ 12.6 "),
            "{small}"
        );
    }

    /// BFS solving only the shallow board hides the heuristics' difference in the first table;
    /// the second compares the heuristic searches on both boards, and is left out when BFS
    /// solved every board the others did.
    #[test]
    fn heuristic_searches_are_compared_where_breadth_first_search_stopped() {
        let run = |id: &str, algorithm: Algorithm, h: &str, status, generated| RunRecord {
            instance_set: "lab".into(),
            instance_id: id.into(),
            algorithm: algorithm.into(),
            heuristic: h.into(),
            status,
            generated: Some(generated),
            ..RunRecord::default()
        };
        let results = |bfs_deep| Results {
            dir: Default::default(),
            runs: vec![
                run("1", Algorithm::Bfs, "", RunStatus::Solved, 1000),
                run("2", Algorithm::Bfs, "", bfs_deep, 5000),
                run("1", Algorithm::Ida, "manhattan", RunStatus::Solved, 10),
                run("2", Algorithm::Ida, "manhattan", RunStatus::Solved, 990),
                run("1", Algorithm::Ida, "pdb-663", RunStatus::Solved, 10),
                run("2", Algorithm::Ida, "pdb-663", RunStatus::Solved, 90),
            ],
            iterations: vec![],
            meta: None,
        };
        let methods: Vec<String> = ["bfs", "manhattan", "pdb-663"].map(String::from).into();
        let stopped = results(RunStatus::MemoryLimit);
        let table = heuristic_searches(&stopped, &methods, 1).expect("a second table");
        let shown: Vec<Vec<String>> = (table.rows.iter())
            .map(|row| row.iter().map(Cell::display).collect())
            .collect();
        assert_eq!(
            shown,
            [
                ["manhattan", "1,000", "0", "1.00"],
                ["pdb-663", "100", "0", "10.0"]
            ]
        );
        let solved = results(RunStatus::Solved);
        assert!(heuristic_searches(&solved, &methods, 2).is_none());
    }

    /// Where the memory ran out, the committed lab run says how deep each stopped search got
    /// (from its iterations, beside the estimate's depth) and what IDA*'s path held at most.
    #[test]
    fn memory_stops_say_how_deep_the_search_got() {
        let dir =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("results/optimization-path");
        let text = format!("{:?}", sections(&Results::load(&dir).unwrap()));
        for says in [
            "d ≈ ln(2,684,355) / ln(2.13) ≈ 19.6",
            "first memory-limit stop at optimal length 25 (20 of 26 runs stopped there or deeper)",
            "The stopped searches had reached depth 22–23.",
            "The stopped searches had reached f = 50–57.",
            "at most length + 1 states (at most 1.7 KiB here)",
        ] {
            assert!(text.contains(says), "want {says:?} in: {text}");
        }
    }

    /// With boards of two sizes, where the memory ran out is said per size: the 8-puzzle runs
    /// added to the lab's 15-puzzle ones never reach its limit and do not blur its first stop.
    #[test]
    fn boards_of_several_sizes_are_apart() {
        let dir =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("results/optimization-path");
        let mut results = Results::load(&dir).unwrap();
        let meta = results.meta.as_mut().unwrap();
        let mut small = meta.instance_sets[0].clone();
        (small.name, small.size) = ("small".into(), "3x3".into());
        meta.instance_sets.push(small);
        for (id, length) in [("1", 20), ("2", 26)] {
            results.runs.push(RunRecord {
                instance_set: "small".into(),
                instance_id: id.into(),
                algorithm: Algorithm::Bfs.into(),
                status: RunStatus::Solved,
                optimal_length: Some(length),
                length: Some(length),
                ..RunRecord::default()
            });
        }
        let text = format!("{:?}", sections(&results));
        for says in [
            "bfs (3x3)\"), Plain(\": longest solved 26 moves; never stopped",
            "bfs (4x4)\"), Plain(\": longest solved 20 moves; first memory-limit stop at \
             optimal length 25",
        ] {
            assert!(text.contains(says), "want {says:?} in: {text}");
        }
        // The per-length table: the 3x3 board's 20 moves are not the 4x4's.
        let methods = results.methods();
        let table = by_length(&results, &methods).unwrap();
        let bfs = 2 + methods.iter().position(|m| m == "bfs").unwrap();
        let row = |size: &str, l: u64| {
            (table.rows.iter())
                .find(|r| r[0] == Cell::text(size) && r[1] == Cell::Count(l))
                .map(|r| r[bfs].clone())
        };
        assert_eq!(table.keys, 2);
        assert!(matches!(row("3x3", 20), Some(Cell::Text(t)) if t.starts_with("1/1: ")));
        assert!(matches!(row("4x4", 20), Some(Cell::Text(t)) if t.starts_with("2/2: ")));
        assert!(matches!(row("3x3", 26), Some(Cell::Text(t)) if t.starts_with("1/1: ")));
        assert_eq!(row("4x4", 26), None);
        // One size: no board column.
        results.runs.retain(|r| r.instance_set != "small");
        results.meta.as_mut().unwrap().instance_sets.pop();
        let table = by_length(&results, &methods).unwrap();
        assert_eq!((table.keys, table.columns.len()), (1, 1 + methods.len()));
    }

    /// The instances every method solved are the ones BFS solved: microseconds for the
    /// heuristic searches, which the table says rather than comparing them.
    #[test]
    fn sums_too_short_to_time_are_said() {
        let dir =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("results/optimization-path");
        let results = Results::load(&dir).unwrap();
        let text = format!("{:?}", sections(&results).unwrap()[0]);
        let says = "Sums under 10 ms (astar+manhattan, astar+linear-conflict, astar+pdb-663, \
                    manhattan, linear-conflict, pdb-663; or under it but for one run shorter \
                    than 100 ms";
        assert!(text.contains(says), "want {says:?} in: {text}");
        assert!(text.contains("the next table compares the heuristic searches on more"));
        // One run of 20 ms among runs of microseconds (a stall) does not make a sum timeable;
        // a long search does.
        let common = solved_by_all(&results, &["manhattan".to_string()]);
        let first = common.iter().next().unwrap().clone();
        for (seconds, untimed) in [(0.02, true), (2.0, false)] {
            let mut r = results.clone();
            for run in &mut r.runs {
                if run.label() == "manhattan"
                    && (run.instance_set.clone(), run.instance_id.clone()) == first
                {
                    run.seconds = seconds;
                }
            }
            let text = format!("{:?}", sections(&r).unwrap()[0]);
            assert!(text.contains("pdb-663; or under it"), "{text}");
            assert_eq!(
                text.contains("astar+pdb-663, manhattan, linear-conflict"),
                untimed,
                "{seconds}: {text}"
            );
        }
    }

    /// The 6-6-3 arithmetic of the lab's committed results: 16!/10! entries for each six-tile
    /// group and 16!/13! for the three-tile one, one byte each.
    #[test]
    fn pattern_database_sizes_are_worked_out() {
        let dir =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("results/optimization-path");
        let results = Results::load(&dir).unwrap();
        let text = table_arithmetic(&results, LAB_TABLES).expect("pdb-663 ran");
        for says in [
            "pdb-663: groups of 6, 6, 3 tiles on 16 cells",
            "16!/10! + 16!/10! + 16!/13! = 5,765,760 + 5,765,760 + 3,360 = 11,534,880 entries",
            "11,534,880 bytes of tables (11.0 MiB, one byte an entry)",
        ] {
            assert!(text.contains(says), "want {says:?} in: {text}");
        }
        let mut no_meta = results;
        no_meta.meta = None;
        assert!(table_arithmetic(&no_meta, LAB_TABLES).is_none());
    }

    /// An experiment that is not the lab's gets the arithmetic in a section of its own: Korf's
    /// 100 with 7-8 tables of four bits an entry.
    #[test]
    fn other_experiments_get_a_pattern_database_section() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("results/korf100");
        let section = pattern_databases(&Results::load(&dir).unwrap()).expect("pdb-78 ran");
        let Some(crate::report::model::Block::Paragraph(text)) = section.blocks.first() else {
            panic!("{section:?}")
        };
        let text = text.to_plain();
        for says in [
            "Each pattern database's size (a group of k tiles",
            "pdb-78: groups of 7, 8 tiles on 16 cells, 16!/9! + 16!/8! = 57,657,600 + \
             518,918,400 = 576,576,000 entries; runs.csv records 288,288,000 bytes of tables \
             (274.9 MiB, four bits an entry).",
        ] {
            assert!(text.contains(says), "want {says:?} in: {text}");
        }
    }

    /// Rows that record other figures (tables written at one byte before four bits) are each
    /// said with their rows; a max is worked out over its terms' groups, a shared one once.
    #[test]
    fn differing_figures_and_maxima_are_worked_out() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("results/korf100");
        let mut results = Results::load(&dir).unwrap();
        let mut one_byte = 2;
        for r in &mut results.runs {
            if r.heuristic == "pdb-78" && one_byte > 0 {
                r.table_bytes = Some(576_576_000);
                one_byte -= 1;
            }
            if r.heuristic == "pdb-663" {
                r.heuristic = "max(pdb-663,pdb-663r,pdb-555)".into();
            }
        }
        let text = table_arithmetic(&results, LAB_TABLES).expect("pdb-78 ran");
        for says in [
            "pdb-78: groups of 7, 8 tiles on 16 cells",
            "runs.csv records 288,288,000 bytes of tables (274.9 MiB, four bits an entry) on 98 \
             of its 100 rows, and 576,576,000 bytes of tables (549.9 MiB, one byte an entry) on \
             2 of its 100 rows.",
            "max(pdb-663,pdb-663r,pdb-555): its terms' tables, a group that two terms share \
             counted once: groups of 6, 6, 3, 5, 5, 5 tiles on 16 cells",
        ] {
            assert!(text.contains(says), "want {says:?} in: {text}");
        }
    }
}
