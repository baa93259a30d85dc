//! tilebench: optimal sliding-tile puzzle search (IDA* under Manhattan distance, linear conflict
//! and pattern databases) and the experiment harness around it.
//!
//! The library holds the whole domain; the `tilebench` binary only parses arguments and calls it.
//!
//! ```
//! use tilebench::board::{Board, Goal};
//! use tilebench::heuristic::Manhattan;
//! use tilebench::search::{ida, Limits};
//!
//! let board = Board::parse("1 2 3 4 0 5 7 8 6", None).unwrap();
//! let goal = Goal::blank_last(board.size());
//! let result = ida(&board, &goal, &Manhattan::new(&goal), &Limits::none()).unwrap();
//! assert_eq!(result.length(), Some(2));
//! assert!(board.replays_to(&result.moves, &goal));
//! ```

// The command line (`cli`) names the library `tilebench::…`, as the binary did before it moved
// into the library.
extern crate self as tilebench;

pub mod analysis;
pub mod board;
pub mod brute_force;
pub mod cli;
pub mod cluster;
pub mod compare;
pub mod experiment;
pub mod geometry;
pub mod heuristic;
pub mod instances;
pub mod limits;
pub mod moves;
pub mod pdb;
pub mod plot;
pub mod predict;
pub mod regress;
pub mod report;
pub mod results;
pub mod search;
