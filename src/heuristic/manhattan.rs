//! Manhattan distance: the sum over tiles of the rows plus columns between a tile and its goal
//! cell. Each move changes exactly one tile's distance by exactly one, so the update is a table
//! lookup.

use crate::board::{Goal, Grid};
use crate::pdb::CacheOptions;

use super::distance::TileDistances;
use super::error::HeuristicError;
use super::traits::{BuildHeuristic, Heuristic};

/// Manhattan distance to a fixed goal.
#[derive(Debug, Clone)]
pub struct Manhattan(TileDistances);

impl Manhattan {
    pub fn new(goal: &Goal) -> Manhattan {
        Manhattan(TileDistances::new(goal))
    }

    /// The distance of `tile` in `cell` from its goal cell.
    #[inline(always)]
    pub fn distance(&self, tile: u8, cell: usize) -> u32 {
        self.0.distance(tile, cell)
    }
}

impl Heuristic for Manhattan {
    type State = u32;
    const READS_CELL_OF: bool = false;

    fn as_manhattan(&self) -> Option<&TileDistances> {
        Some(&self.0)
    }

    fn init(&self, grid: &Grid) -> u32 {
        self.0.total(grid)
    }

    #[inline(always)]
    fn h(&self, state: &u32) -> u32 {
        *state
    }

    #[inline(always)]
    fn update(&self, h: &u32, _grid: &Grid, tile: u8, from: usize, to: usize) -> u32 {
        // h ≥ distance(tile, from) since it is one of h's terms, so this never underflows.
        *h + self.distance(tile, to) - self.distance(tile, from)
    }
}

impl BuildHeuristic for Manhattan {
    const ADMISSIBLE: bool = true;

    fn build(goal: &Goal, _options: &CacheOptions) -> Result<Manhattan, HeuristicError> {
        Ok(Manhattan::new(goal))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Board, Size};

    #[test]
    fn goal_is_zero_and_known_value() {
        let goal = Goal::blank_first(Size::new(4, 4).unwrap());
        let m = Manhattan::new(&goal);
        assert_eq!(m.evaluate(&goal.as_board()), 0);
        // Korf's instance 1 has Manhattan distance 41.
        let b = Board::parse("14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3", None).unwrap();
        assert_eq!(m.evaluate(&b), 41);
    }
}
