//! Heuristics by name, built once per goal and shared by every search that uses them.
//!
//! This is the one place that turns a heuristic's name into a concrete type: each arm of
//! [`Prepared::solve`] calls the generic [`ida`] with a concrete heuristic, so every pairing is
//! monomorphised and the search loop never dispatches dynamically.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

use crate::board::{Board, BoardError, Goal};
use crate::heuristic::{Heuristic, LinearConflict, Manhattan};
use crate::search::{ida, Limits, SearchResult};

/// Errors in choosing, building or running a heuristic.
#[derive(Debug, Error)]
pub enum SolverError {
    #[error("unknown heuristic '{0}': known are {known}", known = HeuristicName::KNOWN.join(", "))]
    UnknownHeuristic(String),
    #[error(transparent)]
    Board(#[from] BoardError),
}

/// A heuristic as named on the command line and in result files.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum HeuristicName {
    Manhattan,
    LinearConflict,
}

impl HeuristicName {
    pub const KNOWN: &'static [&'static str] = &["manhattan", "linear-conflict"];

    pub fn as_str(self) -> &'static str {
        match self {
            HeuristicName::Manhattan => "manhattan",
            HeuristicName::LinearConflict => "linear-conflict",
        }
    }
}

impl fmt::Display for HeuristicName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for HeuristicName {
    type Err = SolverError;

    fn from_str(s: &str) -> Result<Self, SolverError> {
        match s.trim() {
            "manhattan" | "md" => Ok(HeuristicName::Manhattan),
            "linear-conflict" | "lc" => Ok(HeuristicName::LinearConflict),
            other => Err(SolverError::UnknownHeuristic(other.to_string())),
        }
    }
}

/// A heuristic built for one goal, ready to solve any board of that goal's size.
#[derive(Debug, Clone)]
pub enum Prepared {
    Manhattan(Manhattan),
    LinearConflict(LinearConflict),
}

impl Prepared {
    pub fn new(name: HeuristicName, goal: &Goal) -> Result<Prepared, SolverError> {
        Ok(match name {
            HeuristicName::Manhattan => Prepared::Manhattan(Manhattan::new(goal)),
            HeuristicName::LinearConflict => Prepared::LinearConflict(LinearConflict::new(goal)),
        })
    }

    /// h of a whole board.
    pub fn evaluate(&self, board: &Board) -> u32 {
        match self {
            Prepared::Manhattan(h) => h.evaluate(board),
            Prepared::LinearConflict(h) => h.evaluate(board),
        }
    }

    /// IDA* with this heuristic, monomorphised per arm.
    pub fn solve(
        &self,
        board: &Board,
        goal: &Goal,
        limits: &Limits,
    ) -> Result<SearchResult, SolverError> {
        Ok(match self {
            Prepared::Manhattan(h) => ida(board, goal, h, limits)?,
            Prepared::LinearConflict(h) => ida(board, goal, h, limits)?,
        })
    }
}
