//! The errors of starting and judging outside solvers, below the modules that raise them.

use std::path::PathBuf;

use thiserror::Error;

use crate::board::BoardError;
use crate::heuristic::HeuristicError;
use crate::search::SearchError;

/// Errors in starting or judging an outside solver (a solver's own failures are verdicts).
#[derive(Debug, Error)]
pub enum OutsideError {
    #[error("solver command '{command}' cannot be split into words: {reason}")]
    BadCommand { command: String, reason: String },
    #[error("--solver '{spec}': {reason}")]
    BadSolver { spec: String, reason: String },
    #[error("cannot start solver '{command}': {source}")]
    Spawn {
        command: String,
        source: std::io::Error,
    },
    #[error("waiting for the solver failed: {0}")]
    Wait(std::io::Error),
    #[error("cannot write the solver's log {path}: {source}")]
    Log {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error(transparent)]
    Board(#[from] BoardError),
    #[error("the reference search for --check-optimal failed: {0}")]
    Reference(#[from] HeuristicError),
    #[error("the reference search for --check-optimal failed: {0}")]
    ReferenceSearch(#[from] SearchError),
}
