//! Manhattan distance per tile and cell, the table below Manhattan distance and the heuristics
//! built on it, and the masking of tile and cell numbers into the fixed tables.

use crate::board::{Goal, Grid, GRID_CELLS};

/// Each tile's Manhattan distance from its goal cell, from every cell: the table behind
/// [`Manhattan`](super::Manhattan), and what the search's own Manhattan loop reads.
#[derive(Debug, Clone)]
pub struct TileDistances {
    /// `dist[tile][cell]`: the distance of `tile` in `cell` from its goal cell (0 for the blank).
    dist: [[u8; GRID_CELLS]; GRID_CELLS],
}

/// Masks a tile or cell number into the fixed tables (always in bounds, see `GRID_CELLS`).
#[inline(always)]
pub(crate) fn ix(i: impl Into<usize>) -> usize {
    i.into() & (GRID_CELLS - 1)
}

impl TileDistances {
    pub fn new(goal: &Goal) -> TileDistances {
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
        TileDistances { dist }
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
