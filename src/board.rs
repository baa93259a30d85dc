//! Boards, goals and the parity rule.
//!
//! A board is a rectangle of `width × height` cells holding the tiles `1..N−1` and the blank `0`,
//! listed row-major: the i-th number is the tile at cell i. A [`Goal`] is just another such layout;
//! every distance in tilebench is measured to a goal, so solvability is decided relative to one.
//!
//! Parsing never panics: every malformed board or goal becomes a [`BoardError`] that says what is
//! wrong (the instance-file reader adds the file and line).

use std::fmt;

use crate::moves::Dir;

pub use crate::geometry::{BoardError, Size, GRID_CELLS, MAX_CELLS};

/// Splits a list of tiles given with spaces and/or commas and parses each as a number. Any
/// run of spaces separates, but a comma with no tile before it (`1,,2`, a leading or trailing
/// comma) is an empty item: most likely a tile left out, so it is refused rather than skipped.
fn parse_numbers(text: &str) -> Result<Vec<u32>, BoardError> {
    let pieces: Vec<&str> = text.split(',').collect();
    let mut numbers = Vec::new();
    for piece in &pieces {
        let mut words = piece.split_whitespace().peekable();
        if words.peek().is_none() && pieces.len() > 1 {
            return Err(BoardError::EmptyItem {
                index: numbers.len() + 1,
            });
        }
        for tok in words {
            let index = numbers.len() + 1;
            let number = tok.parse::<u32>().map_err(|_| {
                let negative = tok
                    .strip_prefix('-')
                    .is_some_and(|n| n.parse::<u64>().is_ok_and(|n| n > 0));
                if negative {
                    BoardError::Negative {
                        token: tok.to_string(),
                        index,
                    }
                } else {
                    BoardError::NotANumber {
                        token: tok.to_string(),
                        index,
                    }
                }
            })?;
            numbers.push(number);
        }
    }
    Ok(numbers)
}

/// Checks that `numbers` is a permutation of `0..size.cells()`.
fn validate_tiles(size: Size, numbers: &[u32]) -> Result<Vec<u8>, BoardError> {
    let cells = size.cells();
    if numbers.len() != cells {
        return Err(BoardError::WrongCount {
            size,
            expected: cells,
            found: numbers.len(),
        });
    }
    let mut seen = [false; MAX_CELLS];
    let mut tiles = Vec::with_capacity(cells);
    for &n in numbers {
        if n as usize >= cells {
            return Err(BoardError::OutOfRange {
                tile: n,
                size,
                max: cells - 1,
            });
        }
        if seen[n as usize] {
            return Err(BoardError::Repeated { tile: n as u8 });
        }
        seen[n as usize] = true;
        tiles.push(n as u8);
    }
    Ok(tiles)
}

/// A target layout. Distances, heuristics and parity are all relative to a goal.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Goal {
    size: Size,
    tiles: Vec<u8>,
    /// `cell_of[t]` is the goal cell of tile `t`.
    cell_of: Vec<u8>,
}

impl Goal {
    /// Builds a goal from a row-major layout (validated as a permutation).
    pub fn from_tiles(size: Size, tiles: &[u8]) -> Result<Goal, BoardError> {
        let numbers: Vec<u32> = tiles.iter().map(|&t| t as u32).collect();
        let tiles = validate_tiles(size, &numbers).map_err(|e| goal_error(size, e))?;
        let mut cell_of = vec![0u8; tiles.len()];
        for (cell, &t) in tiles.iter().enumerate() {
            cell_of[t as usize] = cell as u8;
        }
        Ok(Goal {
            size,
            tiles,
            cell_of,
        })
    }

    /// `1 2 … N−1 0`: the usual textbook goal and tilebench's default.
    pub fn blank_last(size: Size) -> Goal {
        let n = size.cells();
        let tiles: Vec<u8> = (1..n as u8).chain(std::iter::once(0)).collect();
        Goal::from_tiles(size, &tiles).expect("blank-last is a permutation")
    }

    /// `0 1 … N−1`: Korf's convention, used by his 100 instances.
    pub fn blank_first(size: Size) -> Goal {
        let tiles: Vec<u8> = (0..size.cells() as u8).collect();
        Goal::from_tiles(size, &tiles).expect("blank-first is a permutation")
    }

    /// The clockwise spiral with the blank in the middle (`1 2 3 8 0 4 7 6 5` on 3×3), the
    /// classic 8-puzzle goal of AI textbooks. Defined for every size.
    pub fn spiral(size: Size) -> Goal {
        let (w, h) = (size.width as i32, size.height as i32);
        let mut tiles = vec![0u8; size.cells()];
        let (mut top, mut left, mut bottom, mut right) = (0, 0, h - 1, w - 1);
        let mut next = 1usize;
        let n = size.cells();
        let mut put = |r: i32, c: i32, tiles: &mut Vec<u8>| {
            if next < n {
                tiles[(r * w + c) as usize] = next as u8;
                next += 1;
            }
        };
        while top <= bottom && left <= right {
            for c in left..=right {
                put(top, c, &mut tiles);
            }
            for r in top + 1..=bottom {
                put(r, right, &mut tiles);
            }
            if top < bottom {
                for c in (left..right).rev() {
                    put(bottom, c, &mut tiles);
                }
            }
            if left < right {
                for r in (top + 1..bottom).rev() {
                    put(r, left, &mut tiles);
                }
            }
            top += 1;
            left += 1;
            bottom -= 1;
            right -= 1;
        }
        Goal::from_tiles(size, &tiles).expect("spiral is a permutation")
    }

    /// The named goals of `size` (blank-last, blank-first, spiral), distinct (on 2×2 some
    /// coincide): what a board unsolvable for one goal may have been meant for.
    pub fn named(size: Size) -> Vec<Goal> {
        let mut goals = vec![Goal::blank_last(size)];
        for g in [Goal::blank_first(size), Goal::spiral(size)] {
            if !goals.contains(&g) {
                goals.push(g);
            }
        }
        goals
    }

    /// Parses a goal name (`blank-last`, `blank-first`, `spiral`) or an explicit tile list.
    pub fn parse(spec: &str, size: Size) -> Result<Goal, BoardError> {
        match spec.trim() {
            "blank-last" | "last" => Ok(Goal::blank_last(size)),
            "blank-first" | "first" | "korf" => Ok(Goal::blank_first(size)),
            "spiral" => Ok(Goal::spiral(size)),
            other if other.starts_with(|c: char| c.is_ascii_digit()) => {
                let numbers = parse_numbers(other).map_err(|e| goal_error(size, e))?;
                let tiles = validate_tiles(size, &numbers).map_err(|e| goal_error(size, e))?;
                Goal::from_tiles(size, &tiles)
            }
            other => Err(BoardError::UnknownGoal(other.to_string())),
        }
    }

    /// The name this goal is known by, or its tiles joined by spaces.
    pub fn name(&self) -> String {
        if *self == Goal::blank_last(self.size) {
            "blank-last".into()
        } else if *self == Goal::blank_first(self.size) {
            "blank-first".into()
        } else if *self == Goal::spiral(self.size) {
            "spiral".into()
        } else {
            join_tiles(&self.tiles)
        }
    }

    /// The goal as a reader needs it, for setups and outputs: blank-last and blank-first by
    /// name (what everyone means by them), any other with its layout, row-major: `spiral (1 2 3
    /// 8 0 4 7 6 5)`. "spiral" alone does not say where the blank or any tile is, and its layout
    /// differs by size; an explicit goal's name is its layout already.
    pub fn describe(&self) -> String {
        let name = self.name();
        let tiles = join_tiles(&self.tiles);
        match name.as_str() {
            "blank-last" | "blank-first" => name,
            _ if name == tiles => name,
            _ => format!("{name} ({tiles})"),
        }
    }

    /// The layout, row-major, numbers separated by spaces (`0` the blank).
    pub fn layout(&self) -> String {
        join_tiles(&self.tiles)
    }

    pub fn size(&self) -> Size {
        self.size
    }

    pub fn tiles(&self) -> &[u8] {
        &self.tiles
    }

    /// The goal cell of `tile`.
    pub fn cell_of(&self, tile: u8) -> usize {
        self.cell_of[tile as usize] as usize
    }

    pub fn as_board(&self) -> Board {
        Board {
            size: self.size,
            tiles: self.tiles.clone(),
        }
    }

    /// Whether mirroring about the main diagonal maps this goal onto itself up to relabelling,
    /// which requires a square board with the blank on the diagonal. Reflected heuristic lookups
    /// are only valid then.
    pub fn is_reflectable(&self) -> bool {
        let b = self.cell_of(0);
        self.size.is_square() && self.size.transpose(b) == b
    }

    /// For a reflectable goal, the tile whose goal cell is the mirror of `tile`'s goal cell.
    pub(crate) fn mirror_tile(&self, tile: u8) -> u8 {
        self.tiles[self.size.transpose(self.cell_of(tile))]
    }
}

fn goal_error(size: Size, e: BoardError) -> BoardError {
    match e {
        BoardError::NotANumber { .. } | BoardError::UnknownGoal(_) => e,
        other => BoardError::GoalNotPermutation {
            max: size.cells() - 1,
            reason: other.to_string(),
        },
    }
}

/// Tiles as the text tilebench reads and writes: numbers separated by single spaces.
pub(crate) fn join_tiles(tiles: &[u8]) -> String {
    let parts: Vec<String> = tiles.iter().map(|t| t.to_string()).collect();
    parts.join(" ")
}

/// A position of the puzzle: the tile in each cell, row-major, blank = 0.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Board {
    size: Size,
    tiles: Vec<u8>,
}

impl Board {
    /// Parses tiles separated by spaces or commas. With no size, the board must be square.
    ///
    /// ```
    /// use tilebench::board::{Board, Goal, Size};
    ///
    /// let board = Board::parse("1 2 3 4 0 5 7 8 6", None).unwrap();
    /// assert_eq!((board.size(), board.blank()), (Size::new(3, 3).unwrap(), 4));
    /// assert!(board.is_solvable(&Goal::blank_last(board.size())).unwrap());
    /// // A 2x3 board needs its size; 5 tiles are not a square.
    /// let wide = Board::parse("1,2,3,4,0,5", Some(Size::parse("3x2").unwrap())).unwrap();
    /// assert_eq!(wide.tiles(), [1, 2, 3, 4, 0, 5]);
    /// assert!(Board::parse("1 2 3 4 0", None).is_err());
    /// ```
    pub fn parse(text: &str, size: Option<Size>) -> Result<Board, BoardError> {
        let numbers = parse_numbers(text)?;
        let size = match size {
            Some(s) => s,
            None => Size::square_with(numbers.len()).ok_or(BoardError::CannotInferSize {
                found: numbers.len(),
            })?,
        };
        let tiles = validate_tiles(size, &numbers)?;
        Ok(Board { size, tiles })
    }

    /// A board from a row-major list that must be a permutation of `0..cells`.
    pub fn from_tiles(size: Size, tiles: &[u8]) -> Result<Board, BoardError> {
        let numbers: Vec<u32> = tiles.iter().map(|&t| t as u32).collect();
        Ok(Board {
            size,
            tiles: validate_tiles(size, &numbers)?,
        })
    }

    pub fn size(&self) -> Size {
        self.size
    }

    pub fn tiles(&self) -> &[u8] {
        &self.tiles
    }

    pub fn blank(&self) -> usize {
        self.tiles
            .iter()
            .position(|&t| t == 0)
            .expect("a validated board has a blank")
    }

    /// Whether `goal` can be reached, by the parity rule: every move swaps the blank with a tile
    /// (flipping the permutation's parity) and moves the blank one step (flipping the parity of its
    /// taxicab distance to its goal cell), so the two parities agree exactly on reachable boards.
    /// For rectangular boards of at least 2×2 the rule is also sufficient.
    pub fn is_solvable(&self, goal: &Goal) -> Result<bool, BoardError> {
        self.check_goal(goal)?;
        let n = self.tiles.len();
        // sigma(cell) = the goal cell of the tile in `cell`; parity = (n − cycles) mod 2.
        let mut visited = [false; MAX_CELLS];
        let mut cycles = 0;
        for start in 0..n {
            if visited[start] {
                continue;
            }
            cycles += 1;
            let mut c = start;
            while !visited[c] {
                visited[c] = true;
                c = goal.cell_of(self.tiles[c]);
            }
        }
        let perm_parity = (n - cycles) % 2;
        let (b, gb) = (self.blank(), goal.cell_of(0));
        let taxi = self.size.row(b).abs_diff(self.size.row(gb))
            + self.size.col(b).abs_diff(self.size.col(gb));
        Ok(perm_parity == taxi % 2)
    }

    /// Errors unless the goal has this board's size.
    pub(crate) fn check_goal(&self, goal: &Goal) -> Result<(), BoardError> {
        if goal.size() != self.size {
            return Err(BoardError::SizeMismatch {
                board: self.size,
                goal: goal.size(),
            });
        }
        Ok(())
    }

    /// The cell the blank reaches by moving `dir`, if it stays on the board.
    pub fn neighbour(&self, dir: Dir) -> Option<usize> {
        crate::moves::step(self.size, self.blank(), dir)
    }

    /// Moves the blank one step; errors if it would leave the board.
    pub fn apply(&mut self, dir: Dir) -> Result<(), BoardError> {
        let b = self.blank();
        let to = crate::moves::step(self.size, b, dir).ok_or(BoardError::IllegalMove {
            index: 0,
            dir: dir.letter(),
        })?;
        self.tiles.swap(b, to);
        Ok(())
    }

    /// Applies a path of moves; the error names the first move that is illegal.
    pub(crate) fn apply_all(&mut self, moves: &[Dir]) -> Result<(), BoardError> {
        for (i, &d) in moves.iter().enumerate() {
            self.apply(d).map_err(|_| BoardError::IllegalMove {
                index: i + 1,
                dir: d.letter(),
            })?;
        }
        Ok(())
    }

    /// Whether `moves` lead from this board to `goal`: how every reported solution is verified.
    pub fn replays_to(&self, moves: &[Dir], goal: &Goal) -> bool {
        let mut b = self.clone();
        b.apply_all(moves).is_ok() && b.tiles == goal.tiles
    }

    /// The board mirrored about the main diagonal with tiles relabelled, so that distances to
    /// `goal` are preserved. Requires a reflectable goal (see [`Goal::is_reflectable`]).
    pub fn reflect(&self, goal: &Goal) -> Board {
        debug_assert!(goal.is_reflectable());
        let mut tiles = vec![0u8; self.tiles.len()];
        for (cell, &t) in self.tiles.iter().enumerate() {
            tiles[self.size.transpose(cell)] = goal.mirror_tile(t);
        }
        Board {
            size: self.size,
            tiles,
        }
    }
}

impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&join_tiles(&self.tiles))
    }
}

/// The board in the form the search mutates in place: both directions of the tile ↔ cell map, in
/// fixed arrays so that a move is four byte writes and no allocation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Grid {
    /// `tile_at[cell]`: the tile in `cell` (0 = blank).
    pub tile_at: [u8; GRID_CELLS],
    /// `cell_of[tile]`: the cell holding `tile`.
    pub cell_of: [u8; GRID_CELLS],
}

impl Grid {
    pub fn new(board: &Board) -> Grid {
        let mut g = Grid {
            tile_at: [0; GRID_CELLS],
            cell_of: [0; GRID_CELLS],
        };
        for (cell, &t) in board.tiles().iter().enumerate() {
            g.tile_at[cell] = t;
            g.cell_of[t as usize] = cell as u8;
        }
        g
    }

    /// Slides the tile in cell `from` into the blank at cell `to`.
    #[inline(always)]
    pub fn slide(&mut self, from: usize, to: usize) {
        let (from, to) = (from & (GRID_CELLS - 1), to & (GRID_CELLS - 1));
        let t = self.tile_at[from];
        self.tile_at[to] = t;
        self.tile_at[from] = 0;
        self.cell_of[(t as usize) & (GRID_CELLS - 1)] = to as u8;
        self.cell_of[0] = from as u8;
    }

    /// [`Grid::slide`] without updating `cell_of`, for searches whose heuristic never reads it.
    #[inline(always)]
    pub(crate) fn slide_tile(&mut self, from: usize, to: usize) {
        let (from, to) = (from & (GRID_CELLS - 1), to & (GRID_CELLS - 1));
        self.tile_at[to] = self.tile_at[from];
        self.tile_at[from] = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(w: usize, h: usize) -> Size {
        Size::new(w, h).unwrap()
    }

    #[test]
    fn parses_spaces_and_commas() {
        let b = Board::parse("1,2, 3 4 5 6 7 8 0", None).unwrap();
        assert_eq!(b.size(), s(3, 3));
        assert_eq!(b.tiles(), &[1, 2, 3, 4, 5, 6, 7, 8, 0]);
    }

    #[test]
    fn rejects_bad_boards_with_reasons() {
        assert!(matches!(
            Board::parse("1 2 3", None),
            Err(BoardError::CannotInferSize { found: 3 })
        ));
        let six: Vec<String> = (0..36).map(|t| t.to_string()).collect();
        let e = Board::parse(&six.join(" "), None).unwrap_err().to_string();
        assert!(e.contains("make a 6x6 board, larger than"), "{e}");
        let e = Board::parse("1 2 3", None).unwrap_err().to_string();
        assert!(e.contains("do not make a square board"), "{e}");
        assert!(matches!(
            Board::parse("1 2 x 0", None),
            Err(BoardError::NotANumber { index: 3, .. })
        ));
        assert!(matches!(
            Board::parse("1 2 2 0", None),
            Err(BoardError::Repeated { tile: 2 })
        ));
        // A comma with nothing before it is a tile left out, not a separator to skip.
        for (text, index) in [
            ("1,2,,3,4,5,6,7,8,0", 3),
            (",1,2,3", 1),
            ("1,2,3,", 4),
            ("1, ,2,3", 2),
        ] {
            let e = Board::parse(text, None).unwrap_err();
            assert_eq!(e, BoardError::EmptyItem { index }, "{text}");
            assert!(e.to_string().contains(&format!("item {index} is empty")));
        }
        let e = Board::parse("1 2 -3 0", None).unwrap_err();
        assert!(matches!(e, BoardError::Negative { index: 3, .. }), "{e}");
        assert!(e.to_string().contains("cannot be negative"));
        assert!(matches!(
            Board::parse("1 2 9 0", None),
            Err(BoardError::OutOfRange { tile: 9, .. })
        ));
        assert!(matches!(
            Board::parse("1 2 3 4 5 0", Some(s(3, 3))),
            Err(BoardError::WrongCount {
                expected: 9,
                found: 6,
                ..
            })
        ));
        assert!(Size::parse("6x6").is_err());
        assert!(Size::parse("4by4").is_err());
        assert_eq!(Size::parse("3X2").unwrap(), s(3, 2));
    }

    /// The familiar goals by name; the spiral, which a reader cannot picture from its name
    /// (nor its blank, in the middle), with its layout; an explicit goal as its layout.
    #[test]
    fn goals_are_described_with_their_layout_unless_familiar() {
        assert_eq!(Goal::blank_last(s(3, 3)).describe(), "blank-last");
        assert_eq!(Goal::blank_first(s(4, 4)).describe(), "blank-first");
        assert_eq!(
            Goal::spiral(s(3, 3)).describe(),
            "spiral (1 2 3 8 0 4 7 6 5)"
        );
        assert_eq!(
            Goal::spiral(s(4, 4)).describe(),
            "spiral (1 2 3 4 12 13 14 5 11 0 15 6 10 9 8 7)"
        );
        let other = Goal::parse("8 7 6 5 4 3 2 1 0", s(3, 3)).unwrap();
        assert_eq!(other.describe(), "8 7 6 5 4 3 2 1 0");
        assert_eq!(Goal::spiral(s(3, 3)).layout(), "1 2 3 8 0 4 7 6 5");
    }

    #[test]
    fn goals() {
        assert_eq!(Goal::spiral(s(3, 3)).tiles(), &[1, 2, 3, 8, 0, 4, 7, 6, 5]);
        assert_eq!(
            Goal::spiral(s(4, 4)).tiles(),
            &[1, 2, 3, 4, 12, 13, 14, 5, 11, 0, 15, 6, 10, 9, 8, 7]
        );
        assert_eq!(
            Goal::parse("blank-first", s(2, 2)).unwrap().tiles(),
            &[0, 1, 2, 3]
        );
        assert_eq!(
            Goal::parse("1 2 3 8 0 4 7 6 5", s(3, 3)).unwrap().name(),
            "spiral"
        );
        assert!(matches!(
            Goal::parse("nope", s(3, 3)),
            Err(BoardError::UnknownGoal(_))
        ));
        assert!(matches!(
            Goal::parse("1 1 2 3", s(2, 2)),
            Err(BoardError::GoalNotPermutation { .. })
        ));
    }

    #[test]
    fn parity_rule() {
        let g = Goal::blank_last(s(4, 4));
        // Sam Loyd's 14-15 puzzle.
        let loyd = Board::parse("1 2 3 4 5 6 7 8 9 10 11 12 13 15 14 0", None).unwrap();
        assert!(!loyd.is_solvable(&g).unwrap());
        assert!(g.as_board().is_solvable(&g).unwrap());
        // One move away is solvable, for odd and even widths and for rectangles.
        for size in [s(3, 3), s(4, 4), s(2, 3), s(3, 2), s(5, 5)] {
            for goal in [
                Goal::blank_last(size),
                Goal::blank_first(size),
                Goal::spiral(size),
            ] {
                let mut b = goal.as_board();
                let d = [Dir::Up, Dir::Left, Dir::Right, Dir::Down]
                    .into_iter()
                    .find(|&d| b.neighbour(d).is_some())
                    .unwrap();
                b.apply(d).unwrap();
                assert!(b.is_solvable(&goal).unwrap());
                // Swapping two tiles flips solvability.
                let mut t = b.tiles().to_vec();
                let (i, j) = {
                    let nz: Vec<usize> = (0..t.len()).filter(|&i| t[i] != 0).collect();
                    (nz[0], nz[1])
                };
                t.swap(i, j);
                let swapped = Board::from_tiles(size, &t).unwrap();
                assert!(!swapped.is_solvable(&goal).unwrap());
            }
        }
    }

    #[test]
    fn reflection_preserves_goal_and_is_an_involution() {
        for goal in [
            Goal::blank_first(s(4, 4)),
            Goal::blank_last(s(4, 4)),
            Goal::spiral(s(3, 3)),
        ] {
            assert!(goal.is_reflectable());
            assert_eq!(goal.as_board().reflect(&goal), goal.as_board());
            let b = Board::parse(
                &join_tiles(&{
                    let mut t = goal.tiles().to_vec();
                    t.rotate_left(3);
                    t
                }),
                None,
            )
            .unwrap();
            assert_eq!(b.reflect(&goal).reflect(&goal), b);
        }
    }

    #[test]
    fn grid_slide_keeps_maps_consistent() {
        let b = Board::parse("1 2 3 4 0 5 6 7 8", None).unwrap();
        let mut g = Grid::new(&b);
        g.slide(5, 4);
        assert_eq!(&g.tile_at[..9], &[1, 2, 3, 4, 5, 0, 6, 7, 8]);
        assert_eq!(g.cell_of[5], 4);
        assert_eq!(g.cell_of[0], 5);
    }
}
