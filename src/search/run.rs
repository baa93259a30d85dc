//! The generic search, for one concrete heuristic type: what [`super::solve()`] hands each
//! heuristic to, and what a registered heuristic's erased type runs.

use crate::board::{Board, Goal, Grid};
use crate::heuristic::Heuristic;

use super::memory::Memory;
use super::options::{Mode, SearchError, SearchOptions};
use super::pass::MAX_DEPTH;
use super::result::{Algorithm, Outcome, SearchResult};
use super::{astar, bfs, ida};

/// Runs `options.algorithm` on `board` with `heuristic`'s concrete type, monomorphised (what
/// [`super::solve()`] hands each heuristic to; breadth-first search ignores `heuristic`).
/// `options.limits.memory_limit` bounds the bytes A* and breadth-first search store; IDA* holds
/// O(depth) bytes and ignores it. The caller ([`super::solve()`]) has checked that the options suit the
/// algorithm.
pub(crate) fn run<H: Heuristic>(
    board: &Board,
    goal: &Goal,
    heuristic: &H,
    options: &SearchOptions,
) -> Result<Outcome, SearchError> {
    let limits = &options.limits;
    match options.algorithm {
        Algorithm::Ida => {
            let result = ida::ida(board, goal, heuristic, options)?;
            // A fixed-bound pass records no memory, as `run --fixed-bound` always has.
            let memory = match options.mode {
                Mode::Solve => ida_memory::<H>(&result),
                Mode::FixedBound(_) => Memory::default(),
            };
            Ok(Outcome {
                algorithm: Algorithm::Ida,
                result,
                reopened: 0,
                memory,
            })
        }
        Algorithm::Astar => Ok(astar::astar(board, goal, heuristic, limits)?),
        Algorithm::Bfs => Ok(bfs::bfs(board, goal, limits)?),
    }
}

/// IDA*'s memory, derived after the search (nothing is counted per node): the path from the root
/// to the deepest node holds at most `bound + 1` states, the last iteration's bound (the solution
/// length when solved); the bytes are the board and the fixed move array of [`MAX_DEPTH`] bytes,
/// plus the heuristic's state carried per level.
fn ida_memory<H: Heuristic>(result: &SearchResult) -> Memory {
    let Some(last) = result.iterations.last() else {
        return Memory::default();
    };
    let stored = (last.bound as u64).min(MAX_DEPTH as u64) + 1;
    Memory {
        peak_stored: stored,
        peak_bytes: (std::mem::size_of::<Grid>() + MAX_DEPTH) as u64
            + stored * std::mem::size_of::<H::State>() as u64,
        table_bytes: 0,
    }
}
