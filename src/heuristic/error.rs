//! The errors of choosing and building heuristics, below every heuristic (their `build`
//! returns them) and below the names that choose one.

use thiserror::Error;

use crate::board::{BoardError, Size};
use crate::pdb::PdbError;

/// Most heuristics one `max(…)` may combine.
pub const MAX_TERMS: usize = 4;

/// Errors in choosing or building a heuristic.
#[derive(Debug, Error)]
pub enum HeuristicError {
    #[error("unknown heuristic '{name}': known are {known}, pdb:GROUPS and pdbr:GROUPS (e.g. pdb:1.2.3.4/5.6.7.8: tiles by dots, groups by slashes), and max(H1,H2,…)")]
    UnknownHeuristic { name: String, known: String },
    #[error("cannot register heuristic '{name}': {reason}")]
    BadRegistration { name: String, reason: String },
    #[error("'{0}' is a registered heuristic, which cannot be a term of max(…)")]
    RegisteredInMax(String),
    #[error("'{name}': {reason} (write max(H1,H2,…) with 2 to {MAX_TERMS} heuristics, custom partitions inside with dots: pdb:1.2.3/4.5.6)")]
    BadMax { name: String, reason: String },
    #[error(transparent)]
    WalkingDistance(#[from] WalkingDistanceError),
    #[error("{0} needs a goal that the main diagonal maps onto itself (the blank on the diagonal of a square board)")]
    NotReflectable(String),
    #[error("{0}")]
    Partition(String),
    #[error(transparent)]
    Board(#[from] BoardError),
    #[error(transparent)]
    Pdb(#[from] PdbError),
}

/// Why walking distance is not available.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum WalkingDistanceError {
    #[error(
        "walking distance for {size} needs a table of more than {limit} abstract states \
         ({lines} lines of {per_line} cells): supported are boards up to 4x4, 5x3 and 3x5"
    )]
    TooLarge {
        size: Size,
        lines: usize,
        per_line: usize,
        limit: usize,
    },
}
