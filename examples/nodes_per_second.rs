//! A quick throughput check without criterion: solves Korf's instance #1 (blank-first goal)
//! a few times and prints the best time and generated nodes per second.
//!
//! ```sh
//! cargo run --release --example nodes_per_second                     # manhattan, 5 runs
//! cargo run --release --example nodes_per_second -- linear-conflict 3
//! ```
//!
//! The best of several runs is reported because noise (other processes) only ever adds time.

use std::process::ExitCode;

use tilebench::board::{Board, Goal, Size};
use tilebench::heuristic::{HeuristicName, Prepared};
use tilebench::pdb::CacheOptions;
use tilebench::search::{solve, SearchOptions};

const KORF_1: &str = "14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let name: HeuristicName = match args
        .first()
        .map_or(Ok(HeuristicName::Manhattan), |s| s.parse())
    {
        Ok(n) => n,
        Err(e) => {
            eprintln!("nodes_per_second: error: {e}");
            return ExitCode::from(2);
        }
    };
    let repeats: usize = match args.get(1).map_or(Ok(5), |s| s.parse()) {
        Ok(n) if n > 0 => n,
        _ => {
            eprintln!("nodes_per_second: error: repeats must be a positive whole number");
            return ExitCode::from(2);
        }
    };
    let size = Size::new(4, 4).expect("4x4 is a size");
    let goal = Goal::blank_first(size);
    let board = Board::parse(KORF_1, Some(size)).expect("Korf #1 is a board");
    let h = Prepared::new(&name, &goal, &CacheOptions::default())
        .expect("heuristic builds for the 15-puzzle");
    let mut best = f64::INFINITY;
    let mut generated = 0;
    for i in 1..=repeats {
        let r = solve(Some(&h), &board, &goal, &SearchOptions::default())
            .expect("sizes match")
            .result;
        generated = r.generated();
        best = best.min(r.seconds);
        println!(
            "run {i}: {generated} generated in {:.3} s = {:.1}M nodes/s",
            r.seconds,
            generated as f64 / r.seconds / 1e6
        );
    }
    println!(
        "{name} on Korf #1: {generated} generated, best {best:.3} s = {:.1}M nodes/s",
        generated as f64 / best / 1e6
    );
    ExitCode::SUCCESS
}
