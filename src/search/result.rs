//! What a search reports: the algorithm, how it ended, its iterations and its counts.

use std::fmt;
use std::str::FromStr;
use std::time::Instant;

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::moves::Dir;

use super::memory::Memory;

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
    pub(super) fn unsolvable(algorithm: Algorithm, h0: u32, started: Instant) -> Outcome {
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
