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
use tilebench::search::{Limits, SearchOptions, Status};

use super::pdb::PdbArgs;

#[derive(Clone, Copy, ValueEnum)]
pub enum Format {
    Text,
    Json,
}

#[derive(Args)]
pub struct SolveArgs {
    /// Heuristic: manhattan, linear-conflict, walking-distance, pdb-555, pdb-663, pdb-78,
    /// pdb-6666 (24-puzzle), each PDB also reflected with an `r` (pdb-663r); pdb / pdbr with
    /// --partition; or max(H1,H2,…) of up to 4 of these, e.g. max(walking-distance,pdb-663r).
    #[arg(long, short = 'H', default_value = "manhattan")]
    heuristic: String,
    #[command(flatten)]
    pdb: PdbArgs,
    /// Goal: blank-last, blank-first (Korf's), spiral, or an explicit list of tiles.
    #[arg(long, default_value = "blank-last")]
    goal: String,
    /// Board size WxH; inferred for square boards.
    #[arg(long)]
    size: Option<String>,
    /// Threads for the one search: each IDA* iteration is split into subtrees searched in
    /// parallel, with the node counts and the moves of the one-thread search.
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

pub fn run(args: SolveArgs) -> Result<ExitCode, Box<dyn Error>> {
    let size = args.size.as_deref().map(Size::parse).transpose()?;
    let board = Board::parse(&args.tiles.join(" "), size)?;
    let goal = Goal::parse(&args.goal, board.size())?;
    let name = args.pdb.heuristic_name(&args.heuristic)?;
    let heuristic = Prepared::new(&name, &goal, &args.pdb.options())?;
    let options = SearchOptions {
        limits: Limits {
            node_limit: args.node_limit,
            time_limit: args.time_limit,
            cancel: None,
        },
        threads: args.threads as usize,
        checkpoint: None,
    };
    let result = heuristic.solve_with(&board, &goal, &options)?;
    if result.status == Status::Solved && !board.replays_to(&result.moves, &goal) {
        return Err("internal error: the solution does not replay to the goal".into());
    }
    let moves = path_string(&result.moves);
    match args.format {
        Format::Json => {
            let out = json!({
                "board": board.to_string(),
                "size": board.size().to_string(),
                "goal": goal.name(),
                "heuristic": name.as_str(),
                "solvable": result.status != Status::Unsolvable,
                "status": result.status.as_str(),
                "length": result.length(),
                "moves": moves,
                "h0": result.h0,
                "nodes_expanded": result.expanded(),
                "nodes_generated": result.generated(),
                "seconds": result.seconds,
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
            println!("heuristic  {} (h = {} at the start)", name, result.h0);
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
            println!(
                "nodes      {} expanded, {} generated in {:.3} s",
                result.expanded(),
                result.generated(),
                result.seconds
            );
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
