//! Linear conflict (Hansson, Mayer & Yung 1992): Manhattan distance plus 2 for every tile that
//! must leave its goal row (or column) so that the other tiles of that line can pass each other.
//!
//! In one line, the tiles that are in their goal line must end in goal order; the fewest that have
//! to step out is the line's tiles minus the longest increasing run of their goal positions. Each
//! of those costs two moves that Manhattan does not count (out and back, perpendicular to the
//! line), and row conflicts cost vertical moves while column conflicts cost horizontal ones, so
//! the sum over all rows and columns stays admissible.
//!
//! Incremental form: every line's contents are encoded as one number (a digit per cell: the goal
//! position of the tile along the line if the tile belongs to this line, or `len` if not), and a
//! precomputed table maps the code to the line's number of forced removals. A move changes the
//! codes of two lines only, by a table of per-(tile, cell) contributions.

use crate::board::{Goal, Grid, Size, GRID_CELLS};

use super::distance::ix;
use super::distance::TileDistances;
use super::{BuildHeuristic, Heuristic, HeuristicError};
use crate::pdb::CacheOptions;

/// Rows plus columns of the largest board.
const MAX_LINES: usize = 10;

/// Linear conflict to a fixed goal.
#[derive(Debug, Clone)]
pub struct LinearConflict {
    manhattan: TileDistances,
    /// `row_line[cell]`, `col_line[cell]`: index into the codes of the row / column of `cell`.
    row_line: [u8; GRID_CELLS],
    col_line: [u8; GRID_CELLS],
    /// Contribution of `tile` in `cell` to the code of the cell's row (resp. column).
    row_part: Box<[[u16; GRID_CELLS]; GRID_CELLS]>,
    col_part: Box<[[u16; GRID_CELLS]; GRID_CELLS]>,
    /// Forced removals for a row code and a column code (indexed by `u16`, so always in bounds).
    row_removals: Box<[u8; 1 << 16]>,
    col_removals: Box<[u8; 1 << 16]>,
    lines: usize,
    width: usize,
}

/// What the search carries: h and the code of every line.
#[derive(Debug, Clone, Copy)]
pub struct LcState {
    h: u32,
    codes: [u16; MAX_LINES],
}

/// Tiles in `digits` (with `none` marking cells not counted) that must leave the line: the count
/// of counted tiles minus their longest strictly increasing subsequence.
fn removals(digits: &[usize], none: usize) -> u8 {
    let seq: Vec<usize> = digits.iter().copied().filter(|&d| d != none).collect();
    let mut best = vec![1usize; seq.len()];
    for i in 0..seq.len() {
        for j in 0..i {
            if seq[j] < seq[i] {
                best[i] = best[i].max(best[j] + 1);
            }
        }
    }
    (seq.len() - best.iter().copied().max().unwrap_or(0)) as u8
}

/// The table of removals for every code of a line of `len` cells.
fn removal_table(len: usize) -> Box<[u8; 1 << 16]> {
    let mut table = Box::new([0u8; 1 << 16]);
    let base = len + 1;
    let count = base.pow(len as u32);
    let mut digits = vec![0usize; len];
    for (code, entry) in table.iter_mut().enumerate().take(count) {
        let mut c = code;
        for d in digits.iter_mut() {
            *d = c % base;
            c /= base;
        }
        *entry = removals(&digits, len);
    }
    table
}

impl LinearConflict {
    pub fn new(goal: &Goal) -> LinearConflict {
        let size: Size = goal.size();
        let (w, h) = (size.width as usize, size.height as usize);
        let mut row_line = [0u8; GRID_CELLS];
        let mut col_line = [0u8; GRID_CELLS];
        let mut row_part = Box::new([[0u16; GRID_CELLS]; GRID_CELLS]);
        let mut col_part = Box::new([[0u16; GRID_CELLS]; GRID_CELLS]);
        for cell in 0..size.cells() {
            let (r, c) = (size.row(cell), size.col(cell));
            row_line[cell] = r as u8;
            col_line[cell] = (h + c) as u8;
            // Within a row, the cell is digit c (base w+1); within a column, digit r (base h+1).
            let row_weight = ((w + 1) as u16).pow(c as u32);
            let col_weight = ((h + 1) as u16).pow(r as u32);
            for tile in 0..size.cells() as u8 {
                let g = goal.cell_of(tile);
                let in_row = tile != 0 && size.row(g) == r;
                let in_col = tile != 0 && size.col(g) == c;
                let row_digit = if in_row { size.col(g) } else { w } as u16;
                let col_digit = if in_col { size.row(g) } else { h } as u16;
                row_part[tile as usize][cell] = row_digit * row_weight;
                col_part[tile as usize][cell] = col_digit * col_weight;
            }
        }
        LinearConflict {
            manhattan: TileDistances::new(goal),
            row_line,
            col_line,
            row_part,
            col_part,
            row_removals: removal_table(w),
            col_removals: removal_table(h),
            lines: w + h,
            width: w,
        }
    }

    #[inline(always)]
    fn line_removals(&self, line: usize, code: u16) -> u32 {
        let table = if line < self.lines - self.width {
            &self.row_removals
        } else {
            &self.col_removals
        };
        table[code as usize] as u32
    }
}

impl Heuristic for LinearConflict {
    type State = LcState;
    const READS_CELL_OF: bool = false;

    fn init(&self, grid: &Grid) -> LcState {
        let mut codes = [0u16; MAX_LINES];
        // Cells past the board hold "tile 0" with zero contributions, so they add nothing.
        for cell in 0..GRID_CELLS {
            let t = ix(grid.tile_at[cell]);
            codes[self.row_line[cell] as usize % MAX_LINES] += self.row_part[t][cell];
            codes[self.col_line[cell] as usize % MAX_LINES] += self.col_part[t][cell];
        }
        let conflicts: u32 = (0..self.lines)
            .map(|l| self.line_removals(l, codes[l]))
            .sum();
        LcState {
            h: self.manhattan.total(grid) + 2 * conflicts,
            codes,
        }
    }

    #[inline(always)]
    fn h(&self, state: &LcState) -> u32 {
        state.h
    }

    #[inline(always)]
    fn update(&self, s: &LcState, _grid: &Grid, tile: u8, from: usize, to: usize) -> LcState {
        let (t, f, d) = (ix(tile), ix(from), ix(to));
        let mut codes = s.codes;
        // A horizontal move keeps the tile in its row and the order of the row's tiles, so only
        // the two columns' removals can change; a vertical move changes the two rows. (Cells
        // differ by 1 exactly when the move is horizontal, as boards are at least 2 wide.) The
        // line along the move still gets its code updated, as its cells' contents shift.
        let horizontal = from.abs_diff(to) == 1;
        let (across, part_across, along, part_along) = if horizontal {
            (
                &self.col_line,
                &self.col_part,
                &self.row_line,
                &self.row_part,
            )
        } else {
            (
                &self.row_line,
                &self.row_part,
                &self.col_line,
                &self.col_part,
            )
        };
        let (la, lb) = (
            across[f] as usize % MAX_LINES,
            across[d] as usize % MAX_LINES,
        );
        let before = self.line_removals(la, codes[la]) + self.line_removals(lb, codes[lb]);
        // The tile leaves `from` (the blank takes its place) and enters `to` (the blank's cell).
        codes[la] = codes[la] - part_across[t][f] + part_across[0][f];
        codes[lb] = codes[lb] - part_across[0][d] + part_across[t][d];
        let after = self.line_removals(la, codes[la]) + self.line_removals(lb, codes[lb]);
        let l = along[f] as usize % MAX_LINES;
        codes[l] =
            codes[l] - part_along[t][f] + part_along[0][f] - part_along[0][d] + part_along[t][d];
        let md =
            self.manhattan.distance(tile, to) as i32 - self.manhattan.distance(tile, from) as i32;
        let h = s.h as i32 + md + 2 * (after as i32 - before as i32);
        LcState { h: h as u32, codes }
    }
}

impl BuildHeuristic for LinearConflict {
    const ADMISSIBLE: bool = true;

    fn build(goal: &Goal, _options: &CacheOptions) -> Result<LinearConflict, HeuristicError> {
        Ok(LinearConflict::new(goal))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;

    #[test]
    fn removals_counts_the_fewest_tiles_to_take_out() {
        assert_eq!(removals(&[0, 1, 2, 3], 4), 0);
        assert_eq!(removals(&[1, 0, 4, 4], 4), 1);
        assert_eq!(removals(&[3, 2, 1, 0], 4), 3);
        assert_eq!(removals(&[4, 2, 4, 1], 4), 1);
    }

    #[test]
    fn known_values() {
        let goal = Goal::blank_last(Size::new(3, 3).unwrap());
        let lc = LinearConflict::new(&goal);
        assert_eq!(lc.evaluate(&goal.as_board()), 0);
        // 2 and 1 swapped in the top row: Manhattan 2, one conflict.
        let b = Board::parse("2 1 3 4 5 6 7 8 0", None).unwrap();
        assert_eq!(lc.evaluate(&b), 4);
        // Column conflict: 4 above 1 in the first column.
        let b = Board::parse("4 2 3 1 5 6 7 8 0", None).unwrap();
        assert_eq!(lc.evaluate(&b), 4);
    }
}
