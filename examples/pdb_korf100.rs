//! Korf's 100 15-puzzle instances under the heuristics named on the command line, one core, with
//! node counts and search time (excluding table loading/building), checked against the published
//! optimal lengths:
//!
//! ```sh
//! cargo run --release --example pdb_korf100 -- pdb-663 pdb-663r pdb-78 pdb-78r
//! ```
//!
//! Tables come from the default cache (`$TILEBENCH_PDB_DIR` or `./pdb-cache`), built if missing.

use std::path::PathBuf;
use std::time::Instant;

use tilebench::board::{Board, Goal, Size};
use tilebench::heuristic::{HeuristicName, Prepared};
use tilebench::instances::InstanceSet;
use tilebench::pdb::CacheOptions;
use tilebench::search::{solve, SearchOptions};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("instances/korf100.txt");
    let set = InstanceSet::read(&path)?;
    let instances: Vec<(usize, Board)> = set
        .instances
        .iter()
        .map(|i| (i.optimal.unwrap_or_default() as usize, i.board.clone()))
        .collect();
    let goal = Goal::blank_first(Size::new(4, 4)?);
    println!(
        "{:<10} {:>8} {:>12} {:>14} {:>10} {:>10} {:>12} {:>14}",
        "heuristic",
        "load s",
        "mean h0",
        "mean generated",
        "search s",
        "max s",
        "nodes/s",
        "total generated"
    );
    // `--h0-only` first: report the mean start value only (no search).
    let h0_only = std::env::args().nth(1).is_some_and(|a| a == "--h0-only");
    for name in std::env::args().skip(1 + h0_only as usize) {
        let name: HeuristicName = name.parse()?;
        let t0 = Instant::now();
        let h = Prepared::new(&name, &goal, &CacheOptions::default())?;
        let load = t0.elapsed().as_secs_f64();
        let (mut nodes, mut secs, mut max, mut h0) = (0u64, 0f64, 0f64, 0u64);
        if h0_only {
            let sum: u32 = instances.iter().map(|(_, b)| h.evaluate(b)).sum();
            println!(
                "{:<10} mean h0 {:.3}",
                name.as_str(),
                sum as f64 / instances.len() as f64
            );
            continue;
        }
        for (i, (length, board)) in instances.iter().enumerate() {
            let r = solve(Some(&h), board, &goal, &SearchOptions::default())?.result;
            if r.length() != Some(*length) || !board.replays_to(&r.moves, &goal) {
                return Err(format!(
                    "#{}: {name} found {:?}, published {length}",
                    i + 1,
                    r.length()
                )
                .into());
            }
            nodes += r.generated();
            secs += r.seconds;
            max = max.max(r.seconds);
            h0 += r.h0 as u64;
        }
        let n = instances.len() as f64;
        println!(
            "{:<10} {:>8.2} {:>12.3} {:>14.0} {:>10.3} {:>10.3} {:>12.3e} {:>14}",
            name.as_str(),
            load,
            h0 as f64 / n,
            nodes as f64 / n,
            secs,
            max,
            nodes as f64 / secs,
            nodes
        );
    }
    Ok(())
}
