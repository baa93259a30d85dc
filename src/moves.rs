//! Moves, named by the direction the blank travels, and the per-blank-cell operator tables the
//! search uses so that it never tests board edges per node.

use std::fmt;

use crate::geometry::{BoardError, Size, GRID_CELLS};

/// A move of the blank. The discriminants give Korf's operator order (up, left, right, down), and
/// `3 − d` is the opposite move, which makes parent pruning one subtraction.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Dir {
    Up = 0,
    Left = 1,
    Right = 2,
    Down = 3,
}

/// Each move's letter, in [`Dir::ORDER`].
const LETTERS: [u8; 4] = *b"ULRD";

impl Dir {
    /// Korf's (1985) operator order, which his published node counts depend on.
    pub const ORDER: [Dir; 4] = [Dir::Up, Dir::Left, Dir::Right, Dir::Down];

    pub fn from_index(i: u8) -> Dir {
        Dir::ORDER[(i & 3) as usize]
    }

    pub fn opposite(self) -> Dir {
        Dir::from_index(3 - self as u8)
    }

    pub fn letter(self) -> char {
        LETTERS[self as usize] as char
    }

    pub(crate) fn from_letter(c: char) -> Result<Dir, BoardError> {
        // Capitals only, as tilebench writes them: a file or a solver that says `u` is not
        // following the format.
        let i = LETTERS.iter().position(|&l| l as char == c);
        i.map(|i| Dir::from_index(i as u8))
            .ok_or(BoardError::BadMoveChar(c))
    }
}

impl fmt::Display for Dir {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

/// A path as the letters U/D/L/R, e.g. `"ULLD"`.
pub fn path_string(moves: &[Dir]) -> String {
    moves.iter().map(|d| d.letter()).collect()
}

/// Parses a path of U/D/L/R letters (whitespace ignored).
pub fn parse_path(text: &str) -> Result<Vec<Dir>, BoardError> {
    text.chars()
        .filter(|c| !c.is_whitespace())
        .map(Dir::from_letter)
        .collect()
}

/// The cell the blank reaches from `cell` by moving `dir`, if it stays on the board.
pub fn step(size: Size, cell: usize, dir: Dir) -> Option<usize> {
    let (w, h) = (size.width as usize, size.height as usize);
    let (r, c) = (cell / w, cell % w);
    match dir {
        Dir::Up if r > 0 => Some(cell - w),
        Dir::Down if r + 1 < h => Some(cell + w),
        Dir::Left if c > 0 => Some(cell - 1),
        Dir::Right if c + 1 < w => Some(cell + 1),
        _ => None,
    }
}

/// One operator: the move and the cell the blank lands on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Op {
    pub dir: u8,
    pub to: u8,
}

/// The legal operators for every blank cell, in Korf's order, precomputed once per board size.
#[derive(Debug, Clone)]
pub struct MoveTable {
    ops: [[Op; 4]; GRID_CELLS],
    count: [u8; GRID_CELLS],
}

impl MoveTable {
    pub fn new(size: Size) -> MoveTable {
        let mut t = MoveTable {
            ops: [[Op { dir: 0, to: 0 }; 4]; GRID_CELLS],
            count: [0; GRID_CELLS],
        };
        for cell in 0..size.cells() {
            for dir in Dir::ORDER {
                if let Some(to) = step(size, cell, dir) {
                    let k = t.count[cell] as usize;
                    t.ops[cell][k] = Op {
                        dir: dir as u8,
                        to: to as u8,
                    };
                    t.count[cell] += 1;
                }
            }
        }
        t
    }

    /// The operators available with the blank at `cell`.
    #[inline(always)]
    pub fn ops(&self, cell: usize) -> &[Op] {
        let cell = cell & (GRID_CELLS - 1);
        // `count[cell]` ≤ 4 by construction; `min(4)` lets the compiler drop the bounds check.
        &self.ops[cell][..(self.count[cell] as usize).min(4)]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn opposite_and_letters() {
        for d in Dir::ORDER {
            assert_eq!(d.opposite().opposite(), d);
            assert_ne!(d.opposite(), d);
            assert_eq!(Dir::from_letter(d.letter()).unwrap(), d);
        }
        assert_eq!(Dir::Up.opposite(), Dir::Down);
        assert_eq!(path_string(&parse_path("U L R D").unwrap()), "ULRD");
        assert!(
            parse_path("U L r d").is_err(),
            "lowercase moves are not the format"
        );
        assert!(parse_path("UX").is_err());
    }

    #[test]
    fn table_matches_step() {
        let size = Size::new(4, 3).unwrap();
        let t = MoveTable::new(size);
        for cell in 0..size.cells() {
            let expected: Vec<Op> = Dir::ORDER
                .iter()
                .filter_map(|&d| {
                    step(size, cell, d).map(|to| Op {
                        dir: d as u8,
                        to: to as u8,
                    })
                })
                .collect();
            assert_eq!(t.ops(cell), &expected[..]);
        }
        assert_eq!(t.ops(0).len(), 2);
        assert_eq!(t.ops(5).len(), 4);
    }
}
