//! Walking distance (Takahashi; used in Kociemba's 15-puzzle solver): the fewest vertical moves
//! that bring every tile into its goal *row*, counting only which goal row each tile has, plus
//! the same for horizontal moves and goal *columns*.
//!
//! **Abstraction.** For the vertical part a board is reduced to the matrix `M[r][g]` (how many
//! tiles in row `r` have their goal in row `g`) and the blank's row. "Goal row of a tile" is the
//! row of its cell in the goal at hand, whatever the goal (blank-last, blank-first, spiral or an
//! explicit layout): only the goal's blank row shapes the abstract goal (`M` diagonal, with one
//! tile fewer in the blank's goal row). A vertical move of the real board moves the blank to the
//! next row and one tile the other way, which is one move of the abstract state; a horizontal move
//! leaves it unchanged. So the vertical moves of any real solution form a path to the abstract
//! goal, and its length is at least the abstract distance, found once by breadth-first search
//! over every abstract state (24,964 for the 4×4 board). The horizontal part is the same
//! construction on the transposed board (columns as lines); since every move is either vertical
//! or horizontal, the sum of both parts is admissible.
//!
//! **Properties** (each checked exhaustively on 3×3 in the tests): the abstract graph is
//! bipartite (each abstract move changes the blank's row by one), so h changes by exactly ±1 per
//! move, like Manhattan distance; and each part is at least Manhattan distance's part along the
//! same axis (that part is a function of `M` that changes by at most one per abstract move and is
//! 0 at the abstract goal), so walking distance ≥ Manhattan distance, for every goal and size.
//! It does not dominate linear conflict: conflicts within a row cost vertical moves that the
//! vertical part, blind to columns, cannot see.
//!
//! **Search.** Every abstract state gets an id; `next[id][direction][goal line]` is the id after
//! the blank moves up/down (left/right) past a tile of that goal row (column), so an update is
//! one table read plus one distance read, and only the part along the move changes.

use std::collections::HashMap;
use std::sync::Arc;

use crate::board::{Goal, Grid, Size, GRID_CELLS};

use super::distance::ix;
use super::error::{HeuristicError, WalkingDistanceError};
use super::traits::{BuildHeuristic, Heuristic};
use crate::pdb::CacheOptions;

/// Most abstract states a table may have. Measured counts (lines × cells per line): 4×4 24,964;
/// 4 lines of 5 107,712; 5 lines of 3 352,560; 5 lines of 4 5,977,015 (8 s to build); 5×5
/// 65,650,495 (9 minutes, 2.6 GB of transitions). So the 15-puzzle and every board up to 5×3 /
/// 3×5 is supported; 5×4, 4×5 and 5×5 are a [`WalkingDistanceError::TooLarge`].
pub const MAX_STATES: usize = 1 << 20;

/// The abstract distances for one axis: `lines` lines of `per_line` cells, the goal's blank in
/// line `blank_line`.
#[derive(Debug, Clone)]
pub(crate) struct WdTable {
    lines: usize,
    /// Abstract state → id (used once per search, at the root).
    ids: HashMap<u128, u32>,
    /// `dist[id]`: the fewest moves along this axis to the abstract goal.
    dist: Vec<u8>,
    /// `next[(id * 2 + dir) * lines + g]`: the id after the blank moves one line back (`dir` 0)
    /// or forward (1) past a tile whose goal line is `g` (itself when there is no such tile).
    next: Vec<u32>,
}

/// Bits per count in the packed key; a count is at most 5.
const BITS: u32 = 4;

/// Packs the counts `m[r][g]` (row-major, `lines × lines`) and the blank's line.
fn pack(m: &[u8], blank: usize, lines: usize) -> u128 {
    let mut key = blank as u128;
    for &c in &m[..lines * lines] {
        key = (key << BITS) | c as u128;
    }
    key
}

fn unpack(mut key: u128, m: &mut [u8], lines: usize) -> usize {
    for c in m[..lines * lines].iter_mut().rev() {
        *c = (key & ((1 << BITS) - 1)) as u8;
        key >>= BITS;
    }
    key as usize
}

impl WdTable {
    /// Breadth-first search from the abstract goal over every abstract state.
    pub fn build(
        lines: usize,
        per_line: usize,
        blank_line: usize,
        limit: usize,
    ) -> Option<WdTable> {
        let n = lines * lines;
        let mut m = vec![0u8; n];
        for g in 0..lines {
            m[g * lines + g] = (per_line - usize::from(g == blank_line)) as u8;
        }
        let start = pack(&m, blank_line, lines);
        let mut ids = HashMap::from([(start, 0u32)]);
        let mut keys = vec![start];
        let mut dist = vec![0u8];
        let mut next = Vec::new();
        let mut i = 0;
        while i < keys.len() {
            let b = unpack(keys[i], &mut m, lines);
            for dir in 0..2 {
                let target = if dir == 0 {
                    b.checked_sub(1)
                } else {
                    Some(b + 1)
                };
                for g in 0..lines {
                    let id = match target {
                        Some(r) if r < lines && m[r * lines + g] > 0 => {
                            // A tile of goal line g moves from line r into the blank's line b.
                            m[r * lines + g] -= 1;
                            m[b * lines + g] += 1;
                            let key = pack(&m, r, lines);
                            m[r * lines + g] += 1;
                            m[b * lines + g] -= 1;
                            let fresh = keys.len() as u32;
                            let id = *ids.entry(key).or_insert(fresh);
                            if id == fresh {
                                if keys.len() >= limit {
                                    return None;
                                }
                                keys.push(key);
                                dist.push(dist[i] + 1);
                            }
                            id
                        }
                        _ => i as u32,
                    };
                    next.push(id);
                }
            }
            i += 1;
        }
        Some(WdTable {
            lines,
            ids,
            dist,
            next,
        })
    }

    /// The number of abstract states.
    pub fn states(&self) -> usize {
        self.dist.len()
    }

    /// The id after the blank moves forward (`forward`) or back past a tile of goal line `g`.
    #[inline(always)]
    fn step(&self, id: u32, forward: bool, g: u8) -> u32 {
        self.next[(id as usize * 2 + forward as usize) * self.lines + g as usize]
    }

    #[inline(always)]
    fn distance(&self, id: u32) -> u8 {
        self.dist[id as usize]
    }
}

/// Walking distance to a fixed goal.
#[derive(Debug, Clone)]
pub struct WalkingDistance {
    size: Size,
    /// Lines are rows; goal line = goal row.
    rows: Arc<WdTable>,
    /// Lines are columns; goal line = goal column.
    cols: Arc<WdTable>,
    goal_row: [u8; GRID_CELLS],
    goal_col: [u8; GRID_CELLS],
}

/// The abstract states of both parts and their distances.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WdState {
    rows: u32,
    cols: u32,
    vertical: u8,
    horizontal: u8,
}

impl WalkingDistance {
    /// Builds the tables for `goal` (milliseconds for 4×4); a typed error for boards whose
    /// tables would exceed [`MAX_STATES`].
    pub fn new(goal: &Goal) -> Result<WalkingDistance, WalkingDistanceError> {
        WalkingDistance::with_limit(goal, MAX_STATES)
    }

    /// [`WalkingDistance::new`] with another state limit.
    pub(crate) fn with_limit(
        goal: &Goal,
        limit: usize,
    ) -> Result<WalkingDistance, WalkingDistanceError> {
        let size = goal.size();
        let (w, h) = (size.width as usize, size.height as usize);
        let blank = goal.cell_of(0);
        let build = |lines: usize, per_line: usize, blank_line: usize| {
            WdTable::build(lines, per_line, blank_line, limit)
                .map(Arc::new)
                .ok_or(WalkingDistanceError::TooLarge {
                    size,
                    lines,
                    per_line,
                    limit,
                })
        };
        let rows = build(h, w, size.row(blank))?;
        // On a square board with the goal's blank on the diagonal both parts share one table.
        let cols = if w == h && size.row(blank) == size.col(blank) {
            rows.clone()
        } else {
            build(w, h, size.col(blank))?
        };
        let mut goal_row = [0u8; GRID_CELLS];
        let mut goal_col = [0u8; GRID_CELLS];
        for t in 0..size.cells() as u8 {
            goal_row[t as usize] = size.row(goal.cell_of(t)) as u8;
            goal_col[t as usize] = size.col(goal.cell_of(t)) as u8;
        }
        Ok(WalkingDistance {
            size,
            rows,
            cols,
            goal_row,
            goal_col,
        })
    }

    /// The id of one part's abstract state of `grid`.
    fn id(&self, grid: &Grid, vertical: bool) -> u32 {
        let (table, line, goal_line) = if vertical {
            (
                &self.rows,
                Size::row as fn(Size, usize) -> usize,
                &self.goal_row,
            )
        } else {
            (
                &self.cols,
                Size::col as fn(Size, usize) -> usize,
                &self.goal_col,
            )
        };
        let lines = table.lines;
        let mut m = [0u8; MAX_LINES * MAX_LINES];
        for cell in 0..self.size.cells() {
            let t = grid.tile_at[cell];
            if t != 0 {
                m[line(self.size, cell) * lines + goal_line[ix(t)] as usize] += 1;
            }
        }
        let key = pack(&m, line(self.size, grid.cell_of[0] as usize), lines);
        // Every board of this size reduces to a reachable abstract state (the abstract moves
        // reach every matrix with the right row and column sums), so the lookup succeeds.
        table.ids[&key]
    }

    /// The vertical part: the fewest vertical moves, by goal rows only.
    pub fn vertical(&self, grid: &Grid) -> u32 {
        self.rows.distance(self.id(grid, true)) as u32
    }

    /// The horizontal part: the fewest horizontal moves, by goal columns only.
    pub fn horizontal(&self, grid: &Grid) -> u32 {
        self.cols.distance(self.id(grid, false)) as u32
    }

    /// The tables' sizes (rows, columns) in abstract states.
    pub fn states(&self) -> (usize, usize) {
        (self.rows.states(), self.cols.states())
    }
}

/// Sides of the largest board.
const MAX_LINES: usize = 5;

/// Manhattan distance's vertical and horizontal parts, which the two parts of walking distance
/// each bound from above (for tests and analysis).
pub fn manhattan_parts(goal: &Goal, grid: &Grid) -> (u32, u32) {
    let size = goal.size();
    let (mut v, mut h) = (0, 0);
    for t in 1..size.cells() as u8 {
        let (c, g) = (grid.cell_of[t as usize] as usize, goal.cell_of(t));
        v += size.row(c).abs_diff(size.row(g)) as u32;
        h += size.col(c).abs_diff(size.col(g)) as u32;
    }
    (v, h)
}

impl Heuristic for WalkingDistance {
    type State = WdState;

    fn init(&self, grid: &Grid) -> WdState {
        let (rows, cols) = (self.id(grid, true), self.id(grid, false));
        WdState {
            rows,
            cols,
            vertical: self.rows.distance(rows),
            horizontal: self.cols.distance(cols),
        }
    }

    #[inline(always)]
    fn h(&self, s: &WdState) -> u32 {
        s.vertical as u32 + s.horizontal as u32
    }

    #[inline(always)]
    fn update(&self, s: &WdState, _grid: &Grid, tile: u8, from: usize, to: usize) -> WdState {
        // The tile slides from `from` into the blank at `to`, so the blank moves forward (down
        // or right) exactly when `from > to`. Cells differ by 1 exactly for horizontal moves
        // (boards are at least 2 wide).
        let forward = from > to;
        let mut n = *s;
        if from.abs_diff(to) == 1 {
            n.cols = self.cols.step(s.cols, forward, self.goal_col[ix(tile)]);
            n.horizontal = self.cols.distance(n.cols);
        } else {
            n.rows = self.rows.step(s.rows, forward, self.goal_row[ix(tile)]);
            n.vertical = self.rows.distance(n.rows);
        }
        n
    }
}

impl BuildHeuristic for WalkingDistance {
    const ADMISSIBLE: bool = true;

    fn build(goal: &Goal, _options: &CacheOptions) -> Result<WalkingDistance, HeuristicError> {
        Ok(WalkingDistance::new(goal)?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;
    use crate::heuristic::tests::check_incremental;
    use crate::heuristic::Manhattan;

    fn s(w: usize, h: usize) -> Size {
        Size::new(w, h).unwrap()
    }

    #[test]
    fn the_4x4_table_has_the_known_size() {
        // 24,964 is the count quoted for Takahashi's 15-puzzle table.
        let wd = WalkingDistance::new(&Goal::blank_last(s(4, 4))).unwrap();
        assert_eq!(wd.states(), (24_964, 24_964));
        // Blank-first: the same abstract graph with the lines renumbered.
        let wd = WalkingDistance::new(&Goal::blank_first(s(4, 4))).unwrap();
        assert_eq!(wd.states(), (24_964, 24_964));
    }

    #[test]
    fn known_values() {
        let goal = Goal::blank_first(s(4, 4));
        let wd = WalkingDistance::new(&goal).unwrap();
        assert_eq!(wd.evaluate(&goal.as_board()), 0);
        // Korf's instance 1: Manhattan 41; walking distance is at least that.
        let b = Board::parse("14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3", None).unwrap();
        assert!(wd.evaluate(&b) >= 41);
        // Two tiles of one row swapped: both stay in their goal row, so only the horizontal
        // part sees them (and, as the blank must come back, it exceeds Manhattan's 2).
        let g3 = Goal::blank_last(s(3, 3));
        let wd3 = WalkingDistance::new(&g3).unwrap();
        let swapped = Board::parse("2 1 3 4 5 6 7 8 0", None).unwrap();
        let grid = Grid::new(&swapped);
        assert_eq!(wd3.vertical(&grid), 0);
        assert!(wd3.horizontal(&grid) > 2);
    }

    #[test]
    fn updates_incrementally_by_one_on_every_goal_and_size() {
        for (w, h) in [(3, 3), (4, 4), (2, 3), (3, 2), (4, 3), (2, 5)] {
            let size = s(w, h);
            for goal in [
                Goal::blank_last(size),
                Goal::blank_first(size),
                Goal::spiral(size),
            ] {
                let wd = WalkingDistance::new(&goal).unwrap();
                let seen = check_incremental(&wd, &goal, 3000, 7);
                assert!(seen.windows(2).all(|p| p[0].abs_diff(p[1]) == 1));
            }
        }
    }

    #[test]
    fn at_least_manhattan_per_axis_on_random_walks() {
        // Exhaustive on 3×3 in tests/it/walking_distance.rs; here random 4×4 and 5×4 boards.
        for size in [s(4, 4), s(5, 3), s(3, 5)] {
            for goal in [Goal::blank_last(size), Goal::spiral(size)] {
                let wd = WalkingDistance::new(&goal).unwrap();
                let md = Manhattan::new(&goal);
                let mut board = goal.as_board();
                let mut seed = 12345u64;
                for _ in 0..5000 {
                    seed = seed
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    let dir = crate::moves::Dir::from_index((seed >> 33) as u8);
                    let _ = board.apply(dir);
                    let grid = Grid::new(&board);
                    let (mv, mh) = manhattan_parts(&goal, &grid);
                    assert!(wd.vertical(&grid) >= mv, "{board}");
                    assert!(wd.horizontal(&grid) >= mh, "{board}");
                    assert_eq!(mv + mh, md.evaluate(&board));
                }
            }
        }
    }

    #[test]
    fn too_large_boards_are_a_typed_error() {
        let err = WalkingDistance::with_limit(&Goal::blank_last(s(4, 4)), 1000).unwrap_err();
        assert!(matches!(err, WalkingDistanceError::TooLarge { .. }));
        assert!(err.to_string().contains("4x4"), "{err}");
        // 5 columns of 4 cells: 5,977,015 states, over the limit (found without building them all).
        let err = WalkingDistance::new(&Goal::blank_last(s(5, 4))).unwrap_err();
        assert!(err.to_string().contains("5x4"), "{err}");
    }
}
