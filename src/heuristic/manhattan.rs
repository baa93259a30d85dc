//! Manhattan distance: the sum over tiles of the rows plus columns between a tile and its goal
//! cell. Each move changes exactly one tile's distance by exactly one, so the update is a table
//! lookup.

use crate::board::{Goal, Grid, GRID_CELLS};

use super::{BuildHeuristic, Heuristic, HeuristicError};
use crate::pdb::CacheOptions;

/// Manhattan distance to a fixed goal.
#[derive(Debug, Clone)]
pub struct Manhattan {
    /// `dist[tile][cell]`: the distance of `tile` in `cell` from its goal cell (0 for the blank).
    dist: [[u8; GRID_CELLS]; GRID_CELLS],
}

/// Masks a tile or cell number into the fixed tables (always in bounds, see `GRID_CELLS`).
#[inline(always)]
pub(crate) fn ix(i: impl Into<usize>) -> usize {
    i.into() & (GRID_CELLS - 1)
}

impl Manhattan {
    pub fn new(goal: &Goal) -> Manhattan {
        let size = goal.size();
        let mut dist = [[0u8; GRID_CELLS]; GRID_CELLS];
        for tile in 1..size.cells() as u8 {
            let g = goal.cell_of(tile);
            for (cell, d) in dist[tile as usize]
                .iter_mut()
                .enumerate()
                .take(size.cells())
            {
                *d = (size.row(cell).abs_diff(size.row(g)) + size.col(cell).abs_diff(size.col(g)))
                    as u8;
            }
        }
        Manhattan { dist }
    }

    /// The distance of `tile` in `cell` from its goal cell.
    #[inline(always)]
    pub fn distance(&self, tile: u8, cell: usize) -> u32 {
        self.dist[ix(tile)][ix(cell)] as u32
    }

    /// The sum of the tiles' distances.
    pub fn total(&self, grid: &Grid) -> u32 {
        (1..GRID_CELLS)
            .map(|t| self.dist[t][ix(grid.cell_of[t])] as u32)
            .sum()
    }
}

impl Heuristic for Manhattan {
    type State = u32;
    const READS_CELL_OF: bool = false;

    fn as_manhattan(&self) -> Option<&Manhattan> {
        Some(self)
    }

    fn init(&self, grid: &Grid) -> u32 {
        self.total(grid)
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
