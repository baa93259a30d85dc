//! The optimization-path section (issue #14): BFS, A* and IDA* side by side with the memory each
//! holds, when the results compare algorithms. A section builder of its own, so that it moves
//! as one piece into another renderer.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write;

use super::format::{fixed, int, opt, sig, NONE};
use crate::results::{Results, RunRecord, RunStatus};
use crate::search::memory::Bytes;
use crate::search::Algorithm;

/// The lab's branching factor of the 15-puzzle (after parent pruning) and bytes per stored
/// state of a typical (Python) A*: the estimate the measured figures are set beside.
pub const LAB_BRANCHING: f64 = 2.13;
pub const LAB_BYTES_PER_STATE: f64 = 100.0;

/// Whether the section applies: the results hold an algorithm other than IDA*.
pub fn applies(results: &Results) -> bool {
    results.runs.iter().any(|r| r.algorithm != Algorithm::Ida)
}

/// Writes the section (nothing when it does not apply).
pub fn section(md: &mut String, results: &Results) {
    if !applies(results) {
        return;
    }
    let _ = writeln!(md, "## The optimization path: BFS, A* and IDA*\n");
    let limit = results
        .meta
        .as_ref()
        .and_then(|m| m.limits.memory_limit_bytes);
    let time = results
        .meta
        .as_ref()
        .and_then(|m| m.limits.time_limit_seconds);
    let _ = writeln!(
        md,
        "Every instance of every set, by algorithm and heuristic (`astar+H` is A*, `bfs` \
         breadth-first search, a heuristic alone is IDA*). Memory limit per search: {}; time \
         limit: {}. *Peak states* are the states held at once (open + closed for A*, frontier + \
         visited for BFS, the path for IDA*), *peak bytes* the bytes of the search's own \
         structures then (pattern-database tables excluded, they are shared: *tables*). Nodes \
         and seconds are summed over solved runs.\n",
        limit.map_or("none".to_string(), |l| Bytes(l).to_string()),
        time.map_or("none".to_string(), |t| format!("{t} s")),
    );
    let methods = results.methods();
    let runs_of =
        |m: &str| -> Vec<&RunRecord> { results.runs.iter().filter(|r| r.method() == m).collect() };
    let _ = writeln!(
        md,
        "| method | runs | solved | memory-limit | time-limit | nodes generated | seconds | \
         largest peak states | largest peak bytes | median bytes/state | tables |"
    );
    let _ = writeln!(
        md,
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
    );
    for m in &methods {
        let runs = runs_of(m);
        let count = |s: RunStatus| runs.iter().filter(|r| r.status == s).count();
        let solved: Vec<&&RunRecord> = runs
            .iter()
            .filter(|r| r.status == RunStatus::Solved)
            .collect();
        let nodes: u64 = solved.iter().map(|r| r.generated).sum();
        let seconds: f64 = solved.iter().map(|r| r.seconds).sum();
        let peak_states = runs.iter().filter_map(|r| r.peak_stored).max();
        let peak_bytes = runs.iter().filter_map(|r| r.peak_bytes).max();
        let per_state = median(runs.iter().filter_map(|r| r.bytes_per_state).collect());
        let tables = runs.iter().filter_map(|r| r.table_bytes).max().unwrap_or(0);
        let _ = writeln!(
            md,
            "| {m} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            runs.len(),
            solved.len(),
            count(RunStatus::MemoryLimit),
            count(RunStatus::TimeLimit),
            int(nodes as f64),
            fixed(seconds, 2),
            opt(peak_states.map(|v| v as f64), int),
            peak_bytes.map_or(NONE.to_string(), |b| Bytes(b).to_string()),
            opt(per_state, |v| sig(v, 3)),
            if tables > 0 {
                Bytes(tables).to_string()
            } else {
                NONE.to_string()
            },
        );
    }
    md.push('\n');
    by_length(md, results, &methods);
    limits(md, results, &methods, limit);
}

/// Per optimal length and method: solved of runs, median peak states and median nodes.
fn by_length(md: &mut String, results: &Results, methods: &[String]) {
    let lengths: BTreeSet<u32> = results
        .runs
        .iter()
        .filter_map(RunRecord::known_length)
        .collect();
    if lengths.is_empty() {
        return;
    }
    let _ = writeln!(
        md,
        "By optimal solution length (from the instance files; else the length found): solved of \
         runs, then the median peak states stored and the median nodes generated over all runs \
         of that length (limited runs count with the figures at which they stopped).\n"
    );
    let _ = write!(md, "| length |");
    for m in methods {
        let _ = write!(md, " {m} |");
    }
    let _ = write!(md, "\n|---:|");
    for _ in methods {
        let _ = write!(md, "---|");
    }
    md.push('\n');
    for l in lengths {
        let _ = write!(md, "| {l} |");
        for m in methods {
            let runs: Vec<&RunRecord> = results
                .runs
                .iter()
                .filter(|r| &r.method() == m && r.known_length() == Some(l))
                .collect();
            if runs.is_empty() {
                let _ = write!(md, " {NONE} |");
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
            let nodes = median(runs.iter().map(|r| r.generated as f64).collect());
            let _ = write!(
                md,
                " {solved}/{}: {} st, {} nodes |",
                runs.len(),
                opt(states, |v| sig(v, 3)),
                opt(nodes, |v| sig(v, 3)),
            );
        }
        md.push('\n');
    }
    md.push('\n');
}

/// Where each storing algorithm met the memory limit, beside the lab's estimate.
fn limits(md: &mut String, results: &Results, methods: &[String], limit: Option<u64>) {
    let _ = writeln!(md, "### Where the memory ran out\n");
    let Some(limit) = limit else {
        let _ = writeln!(md, "The run had no memory limit.\n");
        return;
    };
    let lab_states = limit as f64 / LAB_BYTES_PER_STATE;
    let _ = writeln!(
        md,
        "The lab's estimate: about {LAB_BYTES_PER_STATE:.0} bytes a state, so {} holds about {} \
         states; with b ≈ {LAB_BRANCHING} the states within depth d grow like b^d, which passes \
         that number at d ≈ ln({}) / ln({LAB_BRANCHING}) ≈ {:.1} for a search without a \
         heuristic (BFS). Measured here, per method that stores states:\n",
        Bytes(limit),
        sig(lab_states, 3),
        sig(lab_states, 3),
        lab_states.ln() / LAB_BRANCHING.ln(),
    );
    let mut lines = BTreeMap::new();
    for m in methods {
        let runs: Vec<&RunRecord> = results.runs.iter().filter(|r| &r.method() == m).collect();
        if runs.iter().all(|r| r.algorithm == Algorithm::Ida) {
            continue;
        }
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
        let per_state = median(hit.iter().filter_map(|r| r.bytes_per_state).collect())
            .or_else(|| median(runs.iter().filter_map(|r| r.bytes_per_state).collect()));
        let timed_out = runs
            .iter()
            .filter(|r| r.status == RunStatus::TimeLimit)
            .filter_map(|r| r.known_length())
            .min();
        let mut text = format!(
            "- **{m}**: longest solved {}; ",
            longest_solved.map_or("none".to_string(), |l| format!("{l} moves")),
        );
        match first_hit {
            Some(l) => text.push_str(&format!(
                "first memory-limit stop at optimal length {l} ({} of {} runs stopped there or \
                 deeper), holding {} states at {} bytes a state ({:.1}× the lab's states \
                 estimate).",
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
        lines.insert(m.clone(), text);
    }
    for m in methods {
        if let Some(t) = lines.get(m) {
            let _ = writeln!(md, "{t}");
        }
    }
    let _ = writeln!(
        md,
        "- **IDA\\*** holds only its path: at most length + 1 states (a few hundred bytes), \
         whatever the depth; what it pays instead is re-expansion (the nodes column).\n"
    );
}

fn median(mut v: Vec<f64>) -> Option<f64> {
    if v.is_empty() {
        return None;
    }
    v.sort_by(f64::total_cmp);
    let n = v.len();
    Some(if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    })
}
