//! `tilebench solve`.

use std::error::Error;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use clap::{Args, ValueEnum};
use serde_json::json;

use tilebench::board::{Board, Goal, Size};
use tilebench::experiment::outside::{self, CountCheck, ProcessLimits, SolverCommand};
use tilebench::heuristic::{HeuristicName, Prepared};
use tilebench::limits::{self, MemoryLimit};
use tilebench::moves::path_string;
use tilebench::results::record::Growth;
use tilebench::search::memory::Bytes;
use tilebench::search::{
    self, Algorithm, Limits, Outcome, Pruning, RunStatus, SearchError, SearchOptions, SearchResult,
};

use super::pdb::PdbArgs;

#[derive(Clone, Copy, PartialEq, ValueEnum)]
pub enum Format {
    Text,
    Json,
}

#[derive(Args)]
pub struct SolveArgs {
    /// Search algorithm: ida (IDA*), astar (A*) or bfs (breadth-first, no heuristic).
    #[arg(long, short = 'a', default_value = "ida", value_parser = str::parse::<Algorithm>)]
    algorithm: Algorithm,
    /// Heuristic: manhattan, linear-conflict, walking-distance, pdb-555, pdb-663, pdb-78,
    /// pdb-6666 (24-puzzle), each PDB also reflected with an `r` (pdb-663r); pdb / pdbr with
    /// --partition, or inline as pdb:1.2.3/4.5.6 (tiles by dots); or max(H1,H2,…) of up to 4
    /// of these, e.g. max(walking-distance,pdb-663r); none for bfs [default: manhattan, none with bfs]. With --solver: the built-in search
    /// whose node counts (and length) the solver's are checked against; without -H (or
    /// --check-optimal) only the moves are checked, not that they are optimal.
    #[arg(long, short = 'H')]
    heuristic: Option<String>,
    /// Stop A* or bfs before its stored states pass SIZE bytes (512M, 4G, or bytes; K/M/G/T are
    /// powers of 1024): status memory-limit. Default: half of this machine's memory (or of its
    /// cgroup's limit when lower); none lifts it. IDA* holds O(depth) bytes and ignores it.
    /// With --solver: kill the solver when its resident memory passes SIZE (no default).
    #[arg(long, value_name = "SIZE|none", value_parser = limits::memory_limit)]
    memory_limit: Option<MemoryLimit>,
    /// Run this outside solver (docs/solver-protocol.md) instead of the built-in search and
    /// check its answer. Split into words like a shell would, but never run by one.
    #[arg(long, value_name = "COMMAND", conflicts_with_all = ["algorithm", "threads"])]
    solver: Option<String>,
    /// With --solver: find the optimal length with the built-in search and check the solver's.
    #[arg(long, requires = "solver")]
    check_optimal: bool,
    /// With --solver: write its standard error to this file (cut at 1 MB).
    #[arg(long, requires = "solver", value_name = "FILE")]
    log: Option<PathBuf>,
    #[command(flatten)]
    pdb: PdbArgs,
    /// Goal: blank-last, blank-first (Korf's), spiral, or an explicit list of tiles.
    #[arg(long, default_value = "blank-last")]
    goal: String,
    /// Board size WxH; inferred for square boards.
    #[arg(long)]
    size: Option<String>,
    /// Threads for the one search: each IDA* iteration is split into subtrees searched in
    /// parallel, with the node counts and the moves of the one-thread search (IDA* only: A* and
    /// bfs refuse more than 1).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..))]
    threads: u16,
    /// IDA*'s duplicate-path pruning: parent (never undo the last move; Korf's published
    /// counts) or fsm (Taylor & Korf's finite-state machine: fewer nodes, same length).
    #[arg(long, default_value = "parent", value_parser = str::parse::<Pruning>, conflicts_with = "solver")]
    pruning: Pruning,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
    /// Give up after this many seconds (status time-limit); with --solver, kill it then.
    #[arg(long, value_name = "SECS", value_parser = limits::time_limit, allow_negative_numbers = true)]
    time_limit: Option<Duration>,
    /// Give up after generating this many nodes (status node-limit); not with --solver.
    #[arg(long, value_name = "N", value_parser = limits::node_limit, conflicts_with = "solver", allow_negative_numbers = true)]
    node_limit: Option<u64>,
    /// The tiles, row-major, 0 for the blank: separate arguments or one quoted string; options
    /// may come before or after them.
    // Negative numbers reach the board parser, which says a tile cannot be negative (clap would
    // call `-1` an unknown option).
    #[arg(required = true, num_args = 1.., allow_negative_numbers = true)]
    tiles: Vec<String>,
}

/// How often a long A* or breadth-first search says where it is (on stderr).
const PROGRESS_EVERY: Duration = Duration::from_secs(5);

/// The memory limit of a built-in search: the one given, else for A* and bfs the default share
/// of the machine's memory ([`limits::DEFAULT_MEMORY_FRACTION`]); IDA* needs none.
fn memory_limit(given: Option<MemoryLimit>, algorithm: Algorithm) -> Option<u64> {
    match given {
        Some(limit) => limit.bytes(),
        None if matches!(algorithm, Algorithm::Astar | Algorithm::Bfs) => {
            limits::machine_memory().map(|m| limits::default_memory_limit(m, 1))
        }
        None => None,
    }
}

/// One line on stderr about a long A* or breadth-first search.
fn print_progress(p: &search::progress::Progress) {
    let level = match p.algorithm {
        Algorithm::Bfs => "depth",
        _ => "f",
    };
    eprintln!(
        "tilebench: {:.0} s: {} at {level} {}, {} states stored in {}, {} generated",
        p.seconds,
        p.algorithm,
        p.level,
        p.stored,
        Bytes(p.bytes),
        p.generated
    );
}

/// Below this many states at the peak, bytes a state is mostly the first fixed allocation of
/// the search's tables (the report takes it from a method's largest search for that reason).
const SMALL_SEARCH_STATES: u64 = 100_000;

pub fn run(args: SolveArgs) -> Result<ExitCode, Box<dyn Error>> {
    let size = args.size.as_deref().map(Size::parse).transpose()?;
    let board = Board::parse(&args.tiles.join(" "), size)?;
    let goal = Goal::parse(&args.goal, board.size())?;
    if let Some(command) = &args.solver {
        return solve_outside(&args, command, &board, &goal);
    }
    let algorithm = args.algorithm;
    let name = match args.heuristic.as_deref().map(str::trim) {
        Some("none") | Some("") => None,
        Some(h) => Some(args.pdb.heuristic_name(h)?),
        None if algorithm.uses_heuristic() => Some(args.pdb.heuristic_name("manhattan")?),
        None => None,
    };
    if !algorithm.uses_heuristic() && name.is_some() {
        return Err(SearchError::HeuristicNotUsed(algorithm).into());
    }
    // The parity rule decides first: no table is built for a board no search can solve (the
    // 24-puzzle's take minutes).
    let solvable = board.is_solvable(&goal)?;
    let heuristic = (name.as_ref().filter(|_| solvable))
        .map(|n| Prepared::new(n, &goal, &args.pdb.options()))
        .transpose()?;
    let memory_limit = memory_limit(args.memory_limit, algorithm);
    if matches!(algorithm, Algorithm::Astar | Algorithm::Bfs) && args.format == Format::Text {
        search::progress::report_every(PROGRESS_EVERY, print_progress);
    }
    let options = SearchOptions {
        limits: Limits {
            node_limit: args.node_limit,
            time_limit: args.time_limit,
            memory_limit,
            cancel: None,
        },
        threads: args.threads as usize,
        pruning: args.pruning,
        algorithm,
        ..SearchOptions::default()
    };
    let outcome = if solvable {
        search::solve(heuristic.as_ref(), &board, &goal, &options)?
    } else {
        options.check(name.is_some())?;
        Outcome::unsolvable(algorithm, 0, std::time::Instant::now())
    };
    let (result, memory) = (&outcome.result, &outcome.memory);
    if result.status == RunStatus::Solved && !board.replays_to(&result.moves, &goal) {
        return Err("internal error: the solution does not replay to the goal".into());
    }
    let moves = path_string(&result.moves);
    let growth = Growth::of(&result.iterations);
    let heuristic_label = name.as_ref().map_or("none", |n| n.as_str());
    // None without a heuristic: breadth-first search is optimal by itself.
    let inadmissible = name.as_ref().filter(|n| !n.admissible());
    let lower_bound = stopped_lower_bound(result, inadmissible.is_none());
    match args.format {
        Format::Json => {
            let out = json!({
                "board": board.to_string(),
                "size": board.size().to_string(),
                "goal": goal.name(),
                "goal_tiles": goal.layout(),
                "algorithm": algorithm.as_str(),
                "heuristic": heuristic_label,
                "solvable": result.status != RunStatus::Unsolvable,
                "status": result.status.as_str(),
                "length": result.length(),
                "proven_optimal": result.length().map(|_| inadmissible.is_none()),
                "moves": moves,
                "h0": solvable.then_some(result.h0),
                "nodes_expanded": result.expanded(),
                "nodes_generated": result.generated(),
                "reopened": outcome.reopened,
                "seconds": result.seconds,
                "memory_limit": memory_limit,
                "growth_ratio": growth.ratio,
                "overhead_predicted": growth.overhead_predicted,
                "overhead_measured": growth.overhead_measured,
                "lower_bound": lower_bound,
                "peak_stored": memory.peak_stored,
                "peak_bytes": memory.peak_bytes,
                "bytes_per_state": memory.bytes_per_state(),
                "table_bytes": memory.table_bytes,
                "threads": args.threads,
                "iterations": result.iterations,
            });
            println!("{}", serde_json::to_string_pretty(&out)?);
        }
        Format::Text => {
            print_board(&board, &goal);
            match &name {
                Some(n) if !solvable => println!("search     {algorithm} with {n}"),
                Some(n) => println!(
                    "search     {algorithm} with {n} (h = {} at the start)",
                    result.h0
                ),
                None => println!("search     {algorithm} (no heuristic)"),
            }
            if result.status == RunStatus::Unsolvable {
                println!("unsolvable (parity rule); 0 nodes searched");
                // Korf's boards are for blank-first, the textbooks' 8-puzzles often for spiral.
                let meant: Vec<String> = (Goal::named(board.size()).iter())
                    .filter(|g| board.is_solvable(g).unwrap_or(false))
                    .map(|g| format!("--goal {}", g.name()))
                    .collect();
                if !meant.is_empty() {
                    println!("hint       solvable with {}", meant.join(" or "));
                }
                return Ok(ExitCode::SUCCESS);
            }
            match result.length() {
                Some(n) => match inadmissible {
                    Some(h) => println!(
                        "length     {n} (not proven optimal: {h} is declared inadmissible)"
                    ),
                    None => println!("length     {n}"),
                },
                None => println!("stopped    {} (no solution found)", result.status.as_str()),
            }
            if let Some(bound) = lower_bound {
                let reached = match algorithm {
                    Algorithm::Bfs => format!(
                        "depth {bound} (no board up to depth {} is the goal)",
                        bound.saturating_sub(1)
                    ),
                    Algorithm::Ida => {
                        format!("bound {bound} (every smaller bound searched in full)")
                    }
                    _ => format!("f = {bound}"),
                };
                println!("reached    {reached}: the optimal length is at least {bound}");
            }
            println!(
                "moves      {}",
                if moves.is_empty() { "(none)" } else { &moves }
            );
            let reopened = if algorithm == Algorithm::Astar {
                format!(", {} reopened", outcome.reopened)
            } else {
                String::new()
            };
            println!(
                "nodes      {} expanded, {} generated{reopened} in {:.3} s",
                result.expanded(),
                result.generated(),
                result.seconds
            );
            // IDA* holds only its path: its bytes a state say nothing of a search's cost.
            let per_state = memory
                .bytes_per_state()
                .filter(|_| algorithm != Algorithm::Ida);
            let per_state = per_state.map_or(String::new(), |b| {
                let small = if memory.peak_stored < SMALL_SEARCH_STATES {
                    "; a small search: mostly its first fixed allocation, not a state's cost"
                } else {
                    ""
                };
                format!(", {b:.1} bytes a state (peak bytes / peak states{small})")
            });
            let limit = memory_limit.filter(|_| algorithm != Algorithm::Ida).map_or(
                String::new(),
                |l| {
                    let default = if args.memory_limit.is_none() {
                        ", the default: half of this machine's memory; --memory-limit none lifts it"
                    } else {
                        ""
                    };
                    format!(" (limit {}{default})", Bytes(l))
                },
            );
            println!(
                "memory     {} stored at peak, {}{per_state}{limit}",
                match memory.peak_stored {
                    1 => "1 state".to_string(),
                    n => format!("{n} states"),
                },
                Bytes(memory.peak_bytes),
            );
            if memory.table_bytes > 0 {
                println!(
                    "tables     {} of pattern databases (shared)",
                    Bytes(memory.table_bytes)
                );
            }
            if algorithm != Algorithm::Ida {
                return Ok(ExitCode::SUCCESS);
            }
            print_growth(&growth, result);
            println!();
            println!(
                "{:>9} {:>6} {:>14} {:>14} {:>10}",
                "iteration", "bound", "expanded", "generated", "seconds"
            );
            for (i, it) in result.iterations.iter().enumerate() {
                println!(
                    "{:>9} {:>6} {:>14} {:>14} {:>10.4}",
                    i + 1,
                    it.bound,
                    it.expanded,
                    it.generated,
                    it.seconds
                );
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// What a stopped search proved: the optimal length is at least the depth it was generating
/// (breadth-first search: every shallower board was seen), the f it was expanding (A*) or the
/// bound of the iteration cut short (IDA*: every smaller bound was searched in full). `None` for
/// a finished search, and for an inadmissible heuristic, whose f proves nothing.
fn stopped_lower_bound(result: &SearchResult, admissible: bool) -> Option<u32> {
    let stopped = !matches!(result.status, RunStatus::Solved | RunStatus::Unsolvable);
    let bound = result.iterations.last()?.bound;
    (stopped && admissible && bound > 0).then_some(bound)
}

/// IDA*'s growth between iterations and the overhead of repeating them, as the report defines
/// them (docs/heuristics-and-prediction.md).
fn print_growth(growth: &Growth, result: &SearchResult) {
    let Some(r) = growth.ratio else {
        println!("growth     too few completed iterations for r (need two before the last)");
        return;
    };
    let predicted = growth
        .overhead_predicted
        .map_or("- (r <= 1)".to_string(), |o| format!("{o:.3}"));
    let measured = growth
        .overhead_measured
        .map_or("-".to_string(), |o| format!("{o:.3}"));
    let last = if result.status == RunStatus::Solved {
        "the last iteration, which stops at the goal, left out"
    } else {
        "the last iteration, cut short, left out"
    };
    println!(
        "growth     r = {r:.3} (nodes generated in the last completed iteration / the one \
         before; {last})"
    );
    println!(
        "overhead   predicted r/(r-1) = {predicted}, measured {measured} (nodes generated in \
         all completed iterations / in the last one)"
    );
}

/// `solve --solver`: one board through an outside solver, judged and printed.
fn solve_outside(
    args: &SolveArgs,
    command: &str,
    board: &Board,
    goal: &Goal,
) -> Result<ExitCode, Box<dyn Error>> {
    let command = SolverCommand::parse(command)?;
    let cancel = Arc::new(AtomicBool::new(false));
    let flag = cancel.clone();
    ctrlc::set_handler(move || {
        if flag.swap(true, Ordering::SeqCst) {
            outside::kill_running_and_exit(130);
        }
    })?;
    let limits = ProcessLimits {
        time_limit: args.time_limit,
        memory_limit: args.memory_limit.and_then(MemoryLimit::bytes),
        cancel: Some(cancel),
    };
    // The built-in search under -H gives the counts to compare with and the optimal length;
    // without -H, --check-optimal uses the strongest quick heuristic.
    let builtin = match &args.heuristic {
        Some(h) => {
            let name = args.pdb.heuristic_name(h)?;
            let h = Prepared::new(&name, goal, &args.pdb.options())?;
            let result = search::solve(Some(&h), board, goal, &SearchOptions::default())?.result;
            Some((name, result))
        }
        None => None,
    };
    let (optimal, optimal_by) = match &builtin {
        Some((name, result)) => (result.length(), Some(name.clone())),
        None if args.check_optimal => (
            outside::reference_length(board, goal, &args.pdb.options())?,
            Some(outside::reference_heuristic(goal)),
        ),
        None => (None, None),
    };
    let outcome = outside::solve(&command, board, goal, optimal, &limits, args.log.as_deref())?;
    let counts = builtin.as_ref().map(|(_, result)| {
        outside::counts::compare(
            outcome.iterations(),
            (outcome.nodes_generated(), outcome.nodes_expanded()),
            &result.iterations,
        )
    });
    let v = outcome.judgement.verdict;
    let code = ExitCode::from(outside_exit_status(v));
    if args.format == Format::Json {
        let out = json!({
            "board": board.to_string(),
            "size": board.size().to_string(),
            "goal": goal.name(),
                "goal_tiles": goal.layout(),
            "solver": command.text(),
            "outcome": outcome,
            "optimal_by": optimal_by.as_ref().map(HeuristicName::as_str),
            "builtin": builtin.as_ref().map(|(name, r)| json!({
                "heuristic": name.as_str(),
                "nodes_generated": r.generated(),
                "nodes_expanded": r.expanded(),
                "iterations": r.iterations,
            })),
            "counts": counts,
        });
        println!("{}", serde_json::to_string_pretty(&out)?);
        return Ok(code);
    }
    let (optimal_by, builtin) = (optimal_by.as_ref(), builtin.as_ref().map(|(_, r)| r));
    let j = &outcome.judgement;
    print_board(board, goal);
    println!("solver     {}", command.text());
    println!("status     {}", j.describe());
    if let Some(moves) = &j.moves {
        println!(
            "moves      {}",
            if moves.is_empty() { "(none)" } else { moves }
        );
    }
    match (j.length, j.optimal_length, optimal_by) {
        (Some(len), Some(best), Some(by)) => {
            println!("length     {len} (optimal {best}, by the built-in search with {by})")
        }
        (Some(len), None, _) => {
            println!("length     {len} (optimality not checked: use --check-optimal or -H)")
        }
        _ => {}
    }
    let ended = match (j.exit_code, j.signal) {
        (Some(code), _) => format!("exit code {code}"),
        (_, Some(sig)) => format!("signal {sig}"),
        _ => "killed by tilebench".to_string(),
    };
    println!(
        "process    {ended}; {:.3} s wall, {:.3} s CPU, {:.1} MB peak resident, {} bytes on stderr",
        outcome.wall_seconds,
        outcome.cpu_seconds,
        outcome.peak_rss_bytes as f64 / (1u64 << 20) as f64,
        outcome.stderr_bytes
    );
    let show = |n: Option<u64>| n.map_or("-".to_string(), |n| n.to_string());
    println!(
        "nodes      {} expanded, {} generated (as the solver reports them)",
        show(outcome.nodes_expanded()),
        show(outcome.nodes_generated())
    );
    if let (Some(by), Some(counts), Some(builtin)) = (optimal_by, counts, builtin) {
        let verdict = match counts {
            CountCheck::Agree => "agree in every iteration".to_string(),
            CountCheck::Differ { iteration } => format!("differ from iteration {iteration} on"),
            CountCheck::TotalsAgree => "totals agree (no per-iteration counts reported)".into(),
            CountCheck::TotalsDiffer => "totals differ".into(),
            CountCheck::NotReported => "not reported by the solver".into(),
        };
        println!(
            "built-in   {} expanded, {} generated with {by}: counts {verdict}",
            builtin.expanded(),
            builtin.generated()
        );
    }
    let reported = outcome.iterations();
    if reported.is_empty() {
        return Ok(code);
    }
    println!();
    println!(
        "{:>9} {:>6} {:>14} {:>14} {:>14} {:>14}",
        "iteration", "bound", "expanded", "generated", "built-in exp", "built-in gen"
    );
    let builtin_its = builtin.map_or(&[][..], |b| &b.iterations[..]);
    for i in 0..reported.len().max(builtin_its.len()) {
        let r = reported.get(i);
        let b = builtin_its.get(i);
        let cell = |v: Option<u64>| v.map_or("-".to_string(), |v| v.to_string());
        let same = match (r, b) {
            (Some(r), Some(b)) => {
                (r.bound, r.expanded, r.generated) == (b.bound, b.expanded, b.generated)
            }
            _ => false,
        };
        println!(
            "{:>9} {:>6} {:>14} {:>14} {:>14} {:>14}{}",
            i + 1,
            r.map(|r| r.bound).or(b.map(|b| b.bound)).unwrap_or(0),
            cell(r.map(|r| r.expanded)),
            cell(r.map(|r| r.generated)),
            cell(b.map(|b| b.expanded)),
            cell(b.map(|b| b.generated)),
            if same || builtin.is_none() {
                ""
            } else {
                "  <- differs"
            }
        );
    }
    Ok(code)
}

/// `solve --solver`'s exit status: 0 only for a right answer (solved, or rightly unsolvable),
/// so that a script or a grader can trust it; 1 for a wrong answer or none within the limits;
/// 130 when interrupted, as everywhere.
fn outside_exit_status(verdict: RunStatus) -> u8 {
    if verdict == RunStatus::Cancelled {
        130
    } else {
        u8::from(!verdict.is_correct())
    }
}

fn print_board(board: &Board, goal: &Goal) {
    println!(
        "board      {} ({}, goal {})",
        board,
        board.size(),
        goal.describe()
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_outside_solver_exits_0_only_on_a_right_answer() {
        let right = [RunStatus::Solved, RunStatus::Unsolvable];
        for &status in RunStatus::ALL.iter().chain(&[RunStatus::Cancelled]) {
            let want = if status == RunStatus::Cancelled {
                130
            } else if right.contains(&status) {
                0
            } else {
                1
            };
            assert_eq!(outside_exit_status(status), want, "{status}");
        }
    }
}
