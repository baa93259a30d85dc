//! Optimal search: IDA* (Korf 1985), A* and breadth-first search, generic over the heuristic,
//! entered one way: [`solve()`], with the algorithm and what to do in [`SearchOptions`].
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
mod run;
#[cfg(feature = "slow-nodes")]
mod slow;
mod solve;

pub use checkpoint::{
    CheckpointMismatch, Checkpointing, DoneSubtree, PartialIteration, SaveCheckpoint,
    SearchCheckpoint,
};
pub use limits::Limits;
pub use memory::{parse_byte_size, ByteSizeError, Memory};
pub use options::{Mode, SearchError, SearchOptions};
pub use pass::MAX_DEPTH;
pub use pruning::{Fsm, Pruning, UnknownPruning};
pub use result::{Algorithm, Iteration, Outcome, RunStatus, SearchResult, UnknownAlgorithm};
pub(crate) use run::run;
pub use solve::solve;
