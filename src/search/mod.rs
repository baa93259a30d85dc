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
pub mod memory;
mod nodes;
mod packed;
mod parallel;
mod pass;
pub mod progress;
pub mod pruning;
#[cfg(feature = "slow-nodes")]
mod slow;

pub use astar::astar;
pub use bfs::bfs;
pub use checkpoint::{
    CheckpointMismatch, Checkpointing, DoneSubtree, PartialIteration, SaveCheckpoint,
    SearchCheckpoint,
};
pub use ida::{ida, ida_with, MAX_DEPTH};
pub use memory::{parse_byte_size, ByteSizeError, Memory};
pub use pruning::{Fsm, Pruning, UnknownPruning};

use std::fmt;
use std::str::FromStr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::board::{Board, BoardError, Goal, Grid};
use crate::heuristic::{ErasedHeuristic, Heuristic, HeuristicError, Prepared, WithHeuristic};
use crate::moves::Dir;

impl Prepared {
    /// IDA* with this heuristic on one thread.
    pub fn solve(
        &self,
        board: &Board,
        goal: &Goal,
        limits: &Limits,
    ) -> Result<SearchResult, HeuristicError> {
        let options = SearchOptions {
            limits: limits.clone(),
            ..SearchOptions::default()
        };
        self.solve_with(board, goal, &options)
    }

    /// IDA* with this heuristic, its limits and thread count from `options`; monomorphised per
    /// heuristic (see [`Prepared::with`]).
    pub fn solve_with(
        &self,
        board: &Board,
        goal: &Goal,
        options: &SearchOptions,
    ) -> Result<SearchResult, HeuristicError> {
        struct Ida<'a>(&'a Board, &'a Goal, &'a SearchOptions);
        impl WithHeuristic for Ida<'_> {
            type Output = Result<SearchResult, SearchError>;
            fn run<H: Heuristic>(self, h: &H) -> Self::Output {
                ida_with(self.0, self.1, h, self.2)
            }
            fn run_registered(self, h: &dyn ErasedHeuristic) -> Self::Output {
                h.ida(self.0, self.1, self.2)
            }
        }
        Ok(self.with(Ida(board, goal, options))?)
    }
}

/// When to give up. On one thread the node limit is exact (the search stops having generated
/// exactly that many nodes); the clock and the cancel flag are looked at every 2^20 generated
/// nodes. For more threads see [`SearchOptions`].
#[derive(Debug, Clone, Default)]
pub struct Limits {
    /// Stop once this many nodes have been generated over all iterations.
    pub node_limit: Option<u64>,
    /// Stop once this much time has passed since the search began.
    pub time_limit: Option<Duration>,
    /// Stop when this flag is set (Ctrl-C, or another run's failure).
    pub cancel: Option<Arc<AtomicBool>>,
    /// Stop A* or breadth-first search before the bytes its structures hold pass this (status
    /// memory-limit). IDA* holds O(depth) bytes and ignores it.
    pub memory_limit: Option<u64>,
}

impl Limits {
    pub fn none() -> Limits {
        Limits::default()
    }
}

/// How many generated nodes pass between looks at the clock in A* and breadth-first search
/// (about a millisecond of their work).
const CHECK_EVERY: u64 = 1 << 14;

/// The limits as A* and breadth-first search look at them: the node limit exactly, before each
/// node is generated; the clock and the cancel flag every [`CHECK_EVERY`] nodes.
pub(crate) struct Watch<'a> {
    limits: &'a Limits,
    started: Instant,
    check_at: u64,
    /// When to hand the next [`progress::Progress`] to the reporter (none installed: never).
    progress_at: Option<Instant>,
    /// A progress report is due: the search sends it at its next expansion ([`Watch::progressed`]).
    pub(crate) progress_due: bool,
}

impl<'a> Watch<'a> {
    pub(crate) fn new(limits: &'a Limits, started: Instant) -> Watch<'a> {
        Watch {
            limits,
            started,
            check_at: 0,
            progress_at: progress::first_report(started),
            progress_due: false,
        }
    }

    /// Sends `p` to the progress reporter (call when [`Watch::progress_due`]).
    #[cold]
    #[inline(never)]
    pub(crate) fn progressed(&mut self, p: &progress::Progress) {
        self.progress_due = false;
        self.progress_at = progress::report(p);
    }

    /// Whether to stop before generating one more node, `generated` having been generated.
    #[inline(always)]
    pub(crate) fn stop(&mut self, generated: u64) -> Option<Status> {
        if generated < self.check_at {
            return None;
        }
        self.check(generated)
    }

    #[cold]
    #[inline(never)]
    fn check(&mut self, generated: u64) -> Option<Status> {
        let l = self.limits;
        if l.node_limit.is_some_and(|n| generated >= n) {
            return Some(Status::NodeLimit);
        }
        if l.time_limit.is_some_and(|t| self.started.elapsed() >= t) {
            return Some(Status::TimeLimit);
        }
        if l.cancel.as_ref().is_some_and(|c| c.load(Ordering::Relaxed)) {
            return Some(Status::Cancelled);
        }
        if self.progress_at.is_some_and(|at| Instant::now() >= at) {
            self.progress_due = true;
        }
        let next = generated + CHECK_EVERY;
        self.check_at = l.node_limit.map_or(next, |n| next.min(n));
        None
    }
}

/// A search algorithm, as named on the command line and in result files.
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
)]
#[serde(rename_all = "kebab-case")]
pub enum Algorithm {
    /// IDA*: O(depth) memory, re-expands nodes. The default (and what results from before the
    /// `algorithm` column ran).
    #[default]
    Ida,
    /// A*: every generated state stored.
    Astar,
    /// Breadth-first search: no heuristic, every reached state stored.
    Bfs,
    /// An outside program (`run --solver`): its rows in result files. Never searched by
    /// tilebench, and not a name `--algorithm` takes.
    External,
}

/// An algorithm name that is not one.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("unknown algorithm '{0}': known are ida, astar, bfs")]
pub struct UnknownAlgorithm(pub String);

impl Algorithm {
    pub const ALL: [Algorithm; 3] = [Algorithm::Ida, Algorithm::Astar, Algorithm::Bfs];

    pub fn as_str(self) -> &'static str {
        match self {
            Algorithm::Ida => "ida",
            Algorithm::Astar => "astar",
            Algorithm::Bfs => "bfs",
            Algorithm::External => "external",
        }
    }

    /// Whether the algorithm is guided by one of tilebench's heuristics (breadth-first search
    /// and outside solvers are not).
    pub fn uses_heuristic(self) -> bool {
        matches!(self, Algorithm::Ida | Algorithm::Astar)
    }
}

impl fmt::Display for Algorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Algorithm {
    type Err = UnknownAlgorithm;

    fn from_str(s: &str) -> Result<Algorithm, UnknownAlgorithm> {
        match s.trim().to_ascii_lowercase().as_str() {
            "ida" | "ida*" | "idastar" => Ok(Algorithm::Ida),
            "astar" | "a*" => Ok(Algorithm::Astar),
            "bfs" => Ok(Algorithm::Bfs),
            _ => Err(UnknownAlgorithm(s.trim().to_string())),
        }
    }
}

/// What any algorithm reports: the search result (for A* and breadth-first search one
/// [`Iteration`] holding the counts), the states reopened (A* only) and the memory held.
#[derive(Debug, Clone, PartialEq)]
pub struct Outcome {
    pub algorithm: Algorithm,
    pub result: SearchResult,
    /// Closed states put back on the open list because a cheaper path reached them (A*; 0 for
    /// the others).
    pub reopened: u64,
    pub memory: Memory,
}

impl Outcome {
    /// A board the parity rule rejected before any search.
    fn unsolvable(algorithm: Algorithm, h0: u32, started: Instant) -> Outcome {
        Outcome {
            algorithm,
            result: SearchResult {
                status: Status::Unsolvable,
                moves: Vec::new(),
                h0,
                iterations: Vec::new(),
                seconds: started.elapsed().as_secs_f64(),
            },
            reopened: 0,
            memory: Memory::default(),
        }
    }
}

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

/// Errors in pairing an algorithm with a heuristic and running it.
#[derive(Debug, Error)]
pub enum SearchError {
    #[error("{0} takes no heuristic (give -H none, or leave -H out)")]
    HeuristicNotUsed(Algorithm),
    #[error("{0} needs a heuristic (-H manhattan, linear-conflict, pdb-663, …)")]
    HeuristicNeeded(Algorithm),
    #[error("a fixed bound (run --fixed-bound) is an IDA* iteration: {0} has none")]
    FixedBoundNotIda(Algorithm),
    #[error("{0} runs on one thread: only IDA* searches on several (leave --threads out)")]
    ThreadsNotIda(Algorithm),
    #[error(
        "--pruning fsm prunes IDA*'s duplicate paths: {0} stores the states it reached \
         (leave --pruning out)"
    )]
    PruningNotIda(Algorithm),
    #[error("an outside solver's rows are not a search tilebench runs")]
    NotBuiltin,
    #[error(transparent)]
    Board(#[from] BoardError),
    #[error(transparent)]
    Checkpoint(#[from] CheckpointMismatch),
}

/// Runs `algorithm` with `heuristic` (none for `bfs`, required by the others) on `board`: the
/// one function that turns an algorithm and a prepared heuristic into a monomorphised search
/// (through [`Prepared::with`]), reporting counts and memory, with the heuristic's table bytes.
/// Only IDA* takes `options.threads` above 1.
pub fn solve(
    algorithm: Algorithm,
    heuristic: Option<&Prepared>,
    board: &Board,
    goal: &Goal,
    options: &SearchOptions,
) -> Result<Outcome, SearchError> {
    struct Run<'a>(Algorithm, &'a Board, &'a Goal, &'a SearchOptions);
    impl WithHeuristic for Run<'_> {
        type Output = Result<Outcome, SearchError>;
        fn run<H: Heuristic>(self, h: &H) -> Self::Output {
            run(self.0, self.1, self.2, h, self.3)
        }
        fn run_registered(self, h: &dyn ErasedHeuristic) -> Self::Output {
            h.search(self.0, self.1, self.2, self.3)
        }
    }
    if algorithm == Algorithm::External {
        return Err(SearchError::NotBuiltin);
    }
    if options.threads > 1 && algorithm != Algorithm::Ida {
        return Err(SearchError::ThreadsNotIda(algorithm));
    }
    if !options.pruning.is_parent() && algorithm != Algorithm::Ida {
        return Err(SearchError::PruningNotIda(algorithm));
    }
    let mut outcome = match (algorithm.uses_heuristic(), heuristic) {
        (false, Some(_)) => return Err(SearchError::HeuristicNotUsed(algorithm)),
        (true, None) => return Err(SearchError::HeuristicNeeded(algorithm)),
        (false, None) => bfs(board, goal, &options.limits)?,
        (true, Some(h)) => h.with(Run(algorithm, board, goal, options))?,
    };
    outcome.memory.table_bytes = heuristic.map_or(0, Prepared::table_bytes);
    Ok(outcome)
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

/// How to run one search: when to give up, and on how many threads.
///
/// With `threads` > 1 each iteration's tree is split into subtrees searched on a pool of that
/// many threads; the iterations' bounds, counts and the moves are those of the one-thread search.
/// Limits then work as follows. Every thread looks at the clock, the cancel flag and the node
/// budget every 2^16 nodes it generates, so all stop within about a millisecond. The node limit
/// is a budget shared by all threads, drawn in chunks of 2^16 nodes: the search never generates
/// more than the limit in all, and stops with [`Status::NodeLimit`] when the budget is spent,
/// having generated the limit less at most what other threads had reserved and not yet used
/// (under threads × 2^16). The counts it then reports are all the nodes generated by all threads,
/// which may include subtrees the one-thread search would not have reached before the limit; a
/// search that solves within the limit reports exactly the one-thread counts.
///
/// With `checkpoint` the search hands its progress to a callback from time to time and may
/// continue from an earlier checkpoint (see [`Checkpointing`]); the limits then apply to this
/// session's work, while the counts and the seconds reported are those of the whole search.
#[derive(Debug, Clone)]
pub struct SearchOptions {
    pub limits: Limits,
    /// Threads per search (1: the sequential search, with no thread pool).
    pub threads: usize,
    pub checkpoint: Option<Checkpointing>,
    /// Duplicate-path pruning of IDA* (A* and breadth-first search detect duplicates anyway
    /// and take only the default).
    pub pruning: Pruning,
}

impl Default for SearchOptions {
    fn default() -> SearchOptions {
        SearchOptions {
            limits: Limits::none(),
            threads: 1,
            checkpoint: None,
            pruning: Pruning::Parent,
        }
    }
}

/// How a search ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Status {
    Solved,
    /// Decided by the parity rule before any search.
    Unsolvable,
    NodeLimit,
    TimeLimit,
    /// A* or breadth-first search would have passed its memory limit.
    MemoryLimit,
    Cancelled,
    /// One complete iteration with a fixed threshold (`run --fixed-bound`), not asked to reach
    /// the goal: what Korf, Reid & Edelkamp's formula predicts.
    FixedBound,
}

impl Status {
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Solved => "solved",
            Status::Unsolvable => "unsolvable",
            Status::NodeLimit => "node-limit",
            Status::TimeLimit => "time-limit",
            Status::MemoryLimit => "memory-limit",
            Status::Cancelled => "cancelled",
            Status::FixedBound => "fixed-bound",
        }
    }
}

/// One depth-first pass of IDA* with a fixed bound on f = g + h.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Iteration {
    pub bound: u32,
    pub expanded: u64,
    pub generated: u64,
    pub seconds: f64,
}

/// Everything a search reports.
#[derive(Debug, Clone, PartialEq)]
pub struct SearchResult {
    pub status: Status,
    /// The solution path (empty unless solved), by the direction the blank travels.
    pub moves: Vec<Dir>,
    /// h of the start board.
    pub h0: u32,
    pub iterations: Vec<Iteration>,
    pub seconds: f64,
}

impl SearchResult {
    /// The solution length, only when solved.
    pub fn length(&self) -> Option<usize> {
        (self.status == Status::Solved).then_some(self.moves.len())
    }

    pub fn expanded(&self) -> u64 {
        self.iterations.iter().map(|i| i.expanded).sum()
    }

    pub fn generated(&self) -> u64 {
        self.iterations.iter().map(|i| i.generated).sum()
    }
}
