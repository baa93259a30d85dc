//! A `tilebench` with three heuristics of its own, defined in this one file: every subcommand
//! (`solve`, `run`, `report`, `compare`, `predict`, `plan`, `slurm submit`, …) takes them by name,
//! beside the built-in ones. docs/writing-a-heuristic.md walks through it.
//!
//! ```sh
//! cargo run --release -p custom-heuristic -- solve -H misplaced 8 6 7 2 5 4 3 0 1
//! ```

use std::process::ExitCode;

use tilebench::board::{Goal, Grid, GRID_CELLS};
use tilebench::heuristic::{
    BuildHeuristic, Heuristic, HeuristicError, Manhattan, Registry, TileDistances,
};
use tilebench::pdb::CacheOptions;

/// The number of tiles not on their goal cell (the blank not counted). Each misplaced tile needs
/// at least one move, so it is admissible; a move changes it by at most one.
#[derive(Debug, Clone)]
pub struct Misplaced {
    /// `goal_tile[cell]`: the tile the goal has in `cell`.
    goal_tile: [u8; GRID_CELLS],
}

impl Heuristic for Misplaced {
    /// h itself is all a node carries.
    type State = u32;

    fn init(&self, grid: &Grid) -> u32 {
        (0..GRID_CELLS)
            .filter(|&c| grid.tile_at[c] != 0 && grid.tile_at[c] != self.goal_tile[c])
            .count() as u32
    }

    fn h(&self, state: &u32) -> u32 {
        *state
    }

    /// `tile` slides from `from` into the blank at `to`: only its own term changes.
    fn update(&self, state: &u32, _grid: &Grid, tile: u8, from: usize, to: usize) -> u32 {
        let was = (self.goal_tile[from] != tile) as u32;
        let now = (self.goal_tile[to] != tile) as u32;
        state + now - was
    }

    /// `update` never reads `grid.cell_of`, so the search need not keep it.
    const READS_CELL_OF: bool = false;
}

impl BuildHeuristic for Misplaced {
    const ADMISSIBLE: bool = true;

    fn build(goal: &Goal, _options: &CacheOptions) -> Result<Misplaced, HeuristicError> {
        let mut goal_tile = [0u8; GRID_CELLS];
        for tile in 1..goal.size().cells() as u8 {
            goal_tile[goal.cell_of(tile)] = tile;
        }
        Ok(Misplaced { goal_tile })
    }
}

/// Manhattan distance under a name of its own: tilebench's own table and its fast search loop
/// (`as_manhattan`), reached from outside the library. Its speed is the built-in `manhattan`'s:
/// registering a heuristic costs one dynamic call per search, none per node.
#[derive(Debug, Clone)]
pub struct MyManhattan(Manhattan);

impl Heuristic for MyManhattan {
    type State = u32;

    fn init(&self, grid: &Grid) -> u32 {
        self.0.init(grid)
    }

    #[inline(always)]
    fn h(&self, state: &u32) -> u32 {
        *state
    }

    #[inline(always)]
    fn update(&self, state: &u32, grid: &Grid, tile: u8, from: usize, to: usize) -> u32 {
        self.0.update(state, grid, tile, from, to)
    }

    const READS_CELL_OF: bool = false;

    fn as_manhattan(&self) -> Option<&TileDistances> {
        self.0.as_manhattan()
    }
}

impl BuildHeuristic for MyManhattan {
    const ADMISSIBLE: bool = true;

    fn build(goal: &Goal, options: &CacheOptions) -> Result<MyManhattan, HeuristicError> {
        Ok(MyManhattan(Manhattan::build(goal, options)?))
    }
}

/// Manhattan distance doubled, as weighted IDA* uses it: fewer nodes, but it overestimates
/// (a tile one move from home counts 2), so its lengths are not proven optimal. `solve` and
/// `run` say so, and a length above an instance file's optimal one is blamed on it.
#[derive(Debug, Clone)]
pub struct TwiceManhattan(Manhattan);

impl Heuristic for TwiceManhattan {
    type State = u32;

    fn init(&self, grid: &Grid) -> u32 {
        self.0.init(grid)
    }

    fn h(&self, state: &u32) -> u32 {
        2 * self.0.h(state)
    }

    fn update(&self, state: &u32, grid: &Grid, tile: u8, from: usize, to: usize) -> u32 {
        self.0.update(state, grid, tile, from, to)
    }

    const READS_CELL_OF: bool = false;
}

impl BuildHeuristic for TwiceManhattan {
    const ADMISSIBLE: bool = false;

    fn build(goal: &Goal, options: &CacheOptions) -> Result<TwiceManhattan, HeuristicError> {
        Ok(TwiceManhattan(Manhattan::build(goal, options)?))
    }
}

fn main() -> ExitCode {
    tilebench::cli::main_with(
        Registry::builtin()
            .with::<Misplaced>("misplaced")
            .with::<MyManhattan>("my-manhattan")
            .with::<TwiceManhattan>("twice-manhattan"),
    )
}
