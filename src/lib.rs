//! tilebench: optimal sliding-tile puzzle search (IDA* under Manhattan distance, linear conflict
//! and pattern databases) and the experiment harness around it.
//!
//! The library holds the whole domain; the `tilebench` binary only parses arguments and calls it.
//!
//! ```
//! use tilebench::board::{Board, Goal};
//! use tilebench::heuristic::Prepared;
//! use tilebench::search::{solve, SearchOptions};
//!
//! let board = Board::parse("1 2 3 4 0 5 7 8 6", None).unwrap();
//! let goal = Goal::blank_last(board.size());
//! let md = Prepared::new(&"manhattan".parse().unwrap(), &goal, &Default::default()).unwrap();
//! let result = solve(Some(&md), &board, &goal, &SearchOptions::default()).unwrap().result;
//! assert_eq!(result.length(), Some(2));
//! assert!(board.replays_to(&result.moves, &goal));
//! ```

// The command line (`cli`) names the library `tilebench::…`, as the binary did before it moved
// into the library.
extern crate self as tilebench;

// The modules by layer, lowest first, one line each; blank lines keep rustfmt from sorting them.
// No two files import each other, directly or around a circle, inside folders too
// (tests/it/layers.rs checks the `use crate::` graph). A folder whose files sit on two layers
// says so on its line.
pub mod path_io; // an I/O error with its file, shared by every area's errors

pub mod geometry; // sizes and cells

pub mod moves; // moves and operator tables

pub mod board; // goals, boards, the search's grid

pub mod brute_force; // breadth-first ground truth

pub mod search; // IDA*, A*, breadth-first search, generic over a heuristic's trait (heuristic/traits.rs); its entry `solve` sits above heuristic's names

pub mod heuristic; // heuristics; its names (`registry`, `registered`) sit above `predict`

pub mod pdb; // pattern-database tables (written with `results::atomic`, a leaf of results)

pub mod predict; // KRE node-count prediction

pub mod instances; // instance files (`instances::generate` solves with `search`)

pub mod limits; // checked limits of the command line and the process

pub mod results; // the results model

pub mod experiment; // the experiment runner and outside solvers (counts in words with `report::format`)

pub mod cluster; // Slurm

pub mod analysis; // figures from results (its numbers format with `report::format`)

pub mod compare; // two results directories side by side

pub mod plot; // figures (`plot::regress` draws `regress` output)

pub mod report; // reports

pub mod regress; // `tilebench regress`

pub mod cli; // the command line
