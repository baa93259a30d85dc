//! Optimal search: [`ida`] is IDA* (Korf 1985), [`astar`] A*, both generic over the heuristic,
//! and [`bfs`] breadth-first search; [`run`] runs any of them and reports the memory it held.
//!
//! Counting convention, the one Korf's published counts use: a node is *generated* when it is
//! created as a child after parent pruning (whether or not the bound then prunes it), and
//! *expanded* when its children are generated. The root is neither; add one to `generated` to
//! compare with Korf's 1985 table, which counted the root.

mod astar;
mod bfs;
mod checkpoint;
mod ida;
mod kernel;
mod limits;
pub mod memory;
mod nodes;
mod options;
mod packed;
mod parallel;
mod pass;
pub mod progress;
pub mod pruning;
mod result;
#[cfg(feature = "slow-nodes")]
mod slow;

pub use astar::astar;
pub use bfs::bfs;
pub use checkpoint::{
    CheckpointMismatch, Checkpointing, DoneSubtree, PartialIteration, SaveCheckpoint,
    SearchCheckpoint,
};
pub use ida::{ida, ida_with};
pub use limits::Limits;
pub use memory::{parse_byte_size, ByteSizeError, Memory};
pub use options::{SearchError, SearchOptions};
pub use pass::MAX_DEPTH;
pub use pruning::{Fsm, Pruning, UnknownPruning};
pub use result::{Algorithm, Iteration, Outcome, SearchResult, Status, UnknownAlgorithm};

use crate::board::{Board, Goal, Grid};
use crate::heuristic::Heuristic;

/// Runs `algorithm` on `board`: the one entry point for every algorithm (breadth-first search
/// ignores `heuristic`, so callers that have none pass any, e.g. [`crate::heuristic::Manhattan`]).
/// `options.limits.memory_limit` bounds the bytes A* and breadth-first search store; IDA* holds
/// O(depth) bytes and ignores it. Only IDA* uses `options.threads`; A* and breadth-first search
/// run on one thread.
pub fn run<H: Heuristic>(
    algorithm: Algorithm,
    board: &Board,
    goal: &Goal,
    heuristic: &H,
    options: &SearchOptions,
) -> Result<Outcome, SearchError> {
    let limits = &options.limits;
    if !options.pruning.is_parent() && algorithm != Algorithm::Ida {
        return Err(SearchError::PruningNotIda(algorithm));
    }
    match algorithm {
        Algorithm::Ida => {
            let result = ida_with(board, goal, heuristic, options)?;
            let memory = ida_memory::<H>(&result);
            Ok(Outcome {
                algorithm,
                result,
                reopened: 0,
                memory,
            })
        }
        Algorithm::Astar => Ok(astar(board, goal, heuristic, limits)?),
        Algorithm::Bfs => Ok(bfs(board, goal, limits)?),
        Algorithm::External => Err(SearchError::NotBuiltin),
    }
}

/// IDA*'s memory, derived after the search (nothing is counted per node): the path from the root
/// to the deepest node holds at most `bound + 1` states, the last iteration's bound (the solution
/// length when solved); the bytes are the board and the fixed move array of [`MAX_DEPTH`] bytes,
/// plus the heuristic's state carried per level.
pub fn ida_memory<H: Heuristic>(result: &SearchResult) -> Memory {
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
