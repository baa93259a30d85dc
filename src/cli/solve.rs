//! `tilebench solve`.

use std::error::Error;
use std::process::ExitCode;
use std::time::Duration;

use clap::{Args, ValueEnum};
use serde_json::json;

use tilebench::board::{Board, Goal, Size};
use tilebench::heuristic::Prepared;
use tilebench::limits;
use tilebench::moves::path_string;
use tilebench::search::memory::Bytes;
use tilebench::search::{
    self, parse_byte_size, Algorithm, Limits, SearchError, SearchOptions, Status,
};

use super::pdb::PdbArgs;

#[derive(Clone, Copy, ValueEnum)]
pub enum Format {
    Text,
    Json,
}

#[derive(Args)]
pub struct SolveArgs {
    /// Search algorithm: ida (IDA*), astar (A*) or bfs (breadth-first, no heuristic).
    #[arg(long, short = 'a', default_value = "ida", value_parser = parse_algorithm)]
    algorithm: Algorithm,
    /// Heuristic: manhattan, linear-conflict, walking-distance, pdb-555, pdb-663, pdb-78,
    /// pdb-6666 (24-puzzle), each PDB also reflected with an `r` (pdb-663r); pdb / pdbr with
    /// --partition; or max(H1,H2,…) of up to 4 of these, e.g. max(walking-distance,pdb-663r);
    /// none for bfs [default: manhattan, none with bfs].
    #[arg(long, short = 'H')]
    heuristic: Option<String>,
    /// Stop A* or bfs before its stored states pass SIZE bytes (512M, 4G, or bytes; K/M/G/T are
    /// powers of 1024): status memory-limit. IDA* holds O(depth) bytes and ignores it.
    #[arg(long, value_name = "SIZE", value_parser = parse_byte_size)]
    memory_limit: Option<u64>,
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
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
    /// Give up after this many seconds (status time-limit).
    #[arg(long, value_name = "SECS", value_parser = limits::time_limit)]
    time_limit: Option<Duration>,
    /// Give up after generating this many nodes (status node-limit).
    #[arg(long, value_name = "N", value_parser = limits::node_limit)]
    node_limit: Option<u64>,
    /// The tiles, row-major, 0 for the blank: separate arguments or one quoted string; options
    /// may come before or after them.
    #[arg(required = true, num_args = 1..)]
    tiles: Vec<String>,
}

pub(super) fn parse_algorithm(text: &str) -> Result<Algorithm, String> {
    text.parse().map_err(|e| format!("{e}"))
}

pub fn run(args: SolveArgs) -> Result<ExitCode, Box<dyn Error>> {
    let size = args.size.as_deref().map(Size::parse).transpose()?;
    let board = Board::parse(&args.tiles.join(" "), size)?;
    let goal = Goal::parse(&args.goal, board.size())?;
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
    let heuristic = name
        .as_ref()
        .map(|n| Prepared::new(n, &goal, &args.pdb.options()))
        .transpose()?;
    let options = SearchOptions {
        limits: Limits {
            node_limit: args.node_limit,
            time_limit: args.time_limit,
            memory_limit: args.memory_limit,
            cancel: None,
        },
        threads: args.threads as usize,
    };
    let outcome = search::solve(algorithm, heuristic.as_ref(), &board, &goal, &options)?;
    let (result, memory) = (&outcome.result, &outcome.memory);
    if result.status == Status::Solved && !board.replays_to(&result.moves, &goal) {
        return Err("internal error: the solution does not replay to the goal".into());
    }
    let moves = path_string(&result.moves);
    let heuristic_label = name.as_ref().map_or("none", |n| n.as_str());
    match args.format {
        Format::Json => {
            let out = json!({
                "board": board.to_string(),
                "size": board.size().to_string(),
                "goal": goal.name(),
                "algorithm": algorithm.as_str(),
                "heuristic": heuristic_label,
                "solvable": result.status != Status::Unsolvable,
                "status": result.status.as_str(),
                "length": result.length(),
                "moves": moves,
                "h0": result.h0,
                "nodes_expanded": result.expanded(),
                "nodes_generated": result.generated(),
                "reopened": outcome.reopened,
                "seconds": result.seconds,
                "memory_limit": args.memory_limit,
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
            println!(
                "board      {} ({}, goal {})",
                board,
                board.size(),
                goal.name()
            );
            match &name {
                Some(n) => println!(
                    "search     {algorithm} with {n} (h = {} at the start)",
                    result.h0
                ),
                None => println!("search     {algorithm} (no heuristic)"),
            }
            if result.status == Status::Unsolvable {
                println!("unsolvable (parity rule); 0 nodes searched");
                return Ok(ExitCode::SUCCESS);
            }
            match result.length() {
                Some(n) => println!("length     {n}"),
                None => println!("stopped    {} (no solution found)", result.status.as_str()),
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
            let per_state = memory
                .bytes_per_state()
                .map_or(String::new(), |b| format!(", {b:.1} bytes a state"));
            let limit = args
                .memory_limit
                .filter(|_| algorithm != Algorithm::Ida)
                .map_or(String::new(), |l| format!(" (limit {})", Bytes(l)));
            println!(
                "memory     {} states stored at peak, {}{per_state}{limit}",
                memory.peak_stored,
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
