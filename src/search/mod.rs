//! Optimal search. [`ida`] is IDA* (Korf 1985), generic over the heuristic.
//!
//! Counting convention, the one Korf's published counts use: a node is *generated* when it is
//! created as a child after parent pruning (whether or not the bound then prunes it), and
//! *expanded* when its children are generated. The root is neither; add one to `generated` to
//! compare with Korf's 1985 table, which counted the root.

mod ida;

pub use ida::{ida, MAX_DEPTH};

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

use serde::Serialize;

use crate::board::{Board, BoardError, Goal};
use crate::heuristic::{Heuristic, HeuristicError, Prepared, WithHeuristic};
use crate::moves::Dir;

impl Prepared {
    /// IDA* with this heuristic, monomorphised per heuristic (see [`Prepared::with`]).
    pub fn solve(
        &self,
        board: &Board,
        goal: &Goal,
        limits: &Limits,
    ) -> Result<SearchResult, HeuristicError> {
        struct Ida<'a>(&'a Board, &'a Goal, &'a Limits);
        impl WithHeuristic for Ida<'_> {
            type Output = Result<SearchResult, BoardError>;
            fn run<H: Heuristic>(self, h: &H) -> Self::Output {
                ida(self.0, self.1, h, self.2)
            }
        }
        Ok(self.with(Ida(board, goal, limits))?)
    }
}

/// When to give up. The node limit is exact (checked before each node is generated); the clock
/// and the cancel flag are looked at every 2^20 generated nodes.
#[derive(Debug, Clone, Default)]
pub struct Limits {
    /// Stop once this many nodes have been generated over all iterations.
    pub node_limit: Option<u64>,
    /// Stop once this much time has passed since the search began.
    pub time_limit: Option<Duration>,
    /// Stop when this flag is set (Ctrl-C, or another run's failure).
    pub cancel: Option<Arc<AtomicBool>>,
}

impl Limits {
    pub fn none() -> Limits {
        Limits::default()
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
    Cancelled,
}

impl Status {
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Solved => "solved",
            Status::Unsolvable => "unsolvable",
            Status::NodeLimit => "node-limit",
            Status::TimeLimit => "time-limit",
            Status::Cancelled => "cancelled",
        }
    }
}

/// One depth-first pass of IDA* with a fixed bound on f = g + h.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
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
