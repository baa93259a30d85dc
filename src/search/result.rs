//! What a search reports: the algorithm, how it ended ([`RunStatus`], shared with the records and
//! the outside solvers' judge), its iterations and its counts.

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
        }
    }

    /// Whether the algorithm is guided by a heuristic (breadth-first search is not).
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
    /// A board the parity rule rejected before any search (h0 as computed, 0 when the caller
    /// built no heuristic for it).
    pub fn unsolvable(algorithm: Algorithm, h0: u32, started: Instant) -> Outcome {
        Outcome {
            algorithm,
            result: SearchResult {
                status: RunStatus::Unsolvable,
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

/// How a run ended, the one vocabulary of the search, the outside solvers' judge and the
/// `status` column of `runs.csv` (after BenchExec's termination reasons: a search or a solver
/// answers, or a limit, a fault or an interruption ends it).
///
/// Written in kebab-case (`time-limit`); an unknown status in a file is an error naming the file
/// and line. A new status is one variant here (and its line in [`RunStatus::ALL`] if files may
/// hold it).
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
)]
#[serde(rename_all = "kebab-case")]
pub enum RunStatus {
    /// Found a solution that replays to the goal (and has the known optimal length, if any).
    Solved,
    /// Unsolvable by the parity rule (no search).
    Unsolvable,
    /// Stopped by `--time-limit`.
    TimeLimit,
    /// Stopped by `--node-limit`.
    NodeLimit,
    /// Stopped by `--memory-limit`: A* or breadth-first search before the states it must store
    /// would have passed the limit; an outside solver killed when its resident memory passed it.
    MemoryLimit,
    /// The search failed, or its solution does not replay to the goal. The default, so that a
    /// record nobody filled in never claims success.
    #[default]
    Error,
    /// Solved, but not in the known optimal number of moves (or unsolvable with a known length).
    WrongLength,
    /// One complete iteration with the threshold of `run --fixed-bound` (no solution sought).
    FixedBound,
    /// An outside solver's move takes the blank off the board, is not a move, or its moves do
    /// not reach the goal.
    InvalidMoves,
    /// An outside solver claimed a solvable board unsolvable, or gave moves for an unsolvable one.
    WrongUnsolvable,
    /// An outside solver printed no answer object on its last non-empty line.
    BadOutput,
    /// An outside solver exited with a non-zero code or was killed by a signal (see `exit_code`,
    /// `signal`).
    Crashed,
    /// Interrupted (Ctrl-C, or another run's failure): not a result, so never written to a file.
    Cancelled,
}

impl RunStatus {
    /// Every status a file may hold, in the order reports list them (not [`RunStatus::Cancelled`]).
    pub const ALL: &'static [RunStatus] = &[
        RunStatus::Solved,
        RunStatus::Unsolvable,
        RunStatus::TimeLimit,
        RunStatus::NodeLimit,
        RunStatus::MemoryLimit,
        RunStatus::Error,
        RunStatus::WrongLength,
        RunStatus::FixedBound,
        RunStatus::InvalidMoves,
        RunStatus::WrongUnsolvable,
        RunStatus::BadOutput,
        RunStatus::Crashed,
    ];

    /// The name written in `runs.csv`.
    pub fn as_str(self) -> &'static str {
        match self {
            RunStatus::Solved => "solved",
            RunStatus::Unsolvable => "unsolvable",
            RunStatus::TimeLimit => "time-limit",
            RunStatus::NodeLimit => "node-limit",
            RunStatus::MemoryLimit => "memory-limit",
            RunStatus::Error => "error",
            RunStatus::WrongLength => "wrong-length",
            RunStatus::FixedBound => "fixed-bound",
            RunStatus::InvalidMoves => "invalid-moves",
            RunStatus::WrongUnsolvable => "wrong-unsolvable",
            RunStatus::BadOutput => "bad-output",
            RunStatus::Crashed => "crashed",
            RunStatus::Cancelled => "cancelled",
        }
    }

    /// Whether node counts of runs ending this way are a deterministic function of the search
    /// (a time limit falls wherever the clock says, so its counts are noise). A memory limit is
    /// deterministic: the search charges computed byte counts (capacities, not the allocator's
    /// or the kernel's figures), so the same code and limit stop at the same node (an outside
    /// solver killed at the limit reports no counts). A crash falls wherever it falls.
    pub(crate) fn is_deterministic(self) -> bool {
        !matches!(
            self,
            RunStatus::TimeLimit | RunStatus::Error | RunStatus::Crashed | RunStatus::Cancelled
        )
    }

    /// Whether the answer is right: solved, or rightly unsolvable.
    pub(crate) fn is_correct(self) -> bool {
        matches!(self, RunStatus::Solved | RunStatus::Unsolvable)
    }

    /// Whether the run shows a fault of tilebench or a wrong answer of an outside solver (the
    /// experiment's exit status is then 1).
    pub(crate) fn is_failure(self) -> bool {
        matches!(
            self,
            RunStatus::Error
                | RunStatus::WrongLength
                | RunStatus::InvalidMoves
                | RunStatus::WrongUnsolvable
                | RunStatus::BadOutput
                | RunStatus::Crashed
        )
    }
}

impl fmt::Display for RunStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for RunStatus {
    type Err = String;

    fn from_str(s: &str) -> Result<RunStatus, String> {
        RunStatus::ALL
            .iter()
            .copied()
            .find(|st| st.as_str() == s)
            .ok_or_else(|| {
                let known: Vec<&str> = RunStatus::ALL.iter().map(|s| s.as_str()).collect();
                format!("unknown status '{s}' (known: {})", known.join(", "))
            })
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
    pub status: RunStatus,
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
        (self.status == RunStatus::Solved).then_some(self.moves.len())
    }

    pub fn expanded(&self) -> u64 {
        self.iterations.iter().map(|i| i.expanded).sum()
    }

    pub fn generated(&self) -> u64 {
        self.iterations.iter().map(|i| i.generated).sum()
    }
}
