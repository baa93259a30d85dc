//! The geometry every other module stands on: board sizes, cell indexing, the fixed array size
//! of the search, and the error for malformed user input. It imports nothing of tilebench, so
//! `board` and `moves` both build on it without importing each other in a cycle.

use std::fmt;

use thiserror::Error;

/// Most cells any supported board has (5×5). Search-time arrays are sized [`GRID_CELLS`].
pub const MAX_CELLS: usize = 25;

/// Size of the fixed arrays used during search: a power of two ≥ [`MAX_CELLS`], so that indexing
/// with `i & (GRID_CELLS - 1)` is always in bounds and needs no bounds check and no `unsafe`.
pub const GRID_CELLS: usize = 32;

/// Everything that can be wrong with a board, a goal or a size given by a user.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum BoardError {
    #[error("'{token}' (item {index}) is not a tile number")]
    NotANumber { token: String, index: usize },
    #[error("'{token}' (item {index}): a tile cannot be negative (0 is the blank)")]
    Negative { token: String, index: usize },
    #[error("item {index} is empty: a comma with no tile before it (is a tile missing?)")]
    EmptyItem { index: usize },
    #[error("a {size} board has {expected} cells, but {found} numbers were given")]
    WrongCount {
        size: Size,
        expected: usize,
        found: usize,
    },
    #[error("{}", cannot_infer(*found))]
    CannotInferSize { found: usize },
    #[error("tile {tile} is out of range for a {size} board (tiles are 0..={max})")]
    OutOfRange { tile: u32, size: Size, max: usize },
    #[error("tile {tile} appears more than once")]
    Repeated { tile: u8 },
    #[error("invalid size '{0}': expected WxH with both sides from 2 to 5, such as 4x4 or 3x2")]
    BadSize(String),
    #[error(
        "unknown goal '{0}': use blank-last, blank-first, spiral, or an explicit list of tiles"
    )]
    UnknownGoal(String),
    #[error("goal is not a permutation of 0..={max}: {reason}")]
    GoalNotPermutation { max: usize, reason: String },
    #[error("board is {board} but the goal is {goal}")]
    SizeMismatch { board: Size, goal: Size },
    #[error("move {index} ('{dir}') would take the blank off the board")]
    IllegalMove { index: usize, dir: char },
    #[error("'{0}' is not a move: moves are U, D, L, R (the direction the blank travels)")]
    BadMoveChar(char),
}

/// Why `found` numbers give no board size: a square outside 2x2..5x5 is said to be one.
fn cannot_infer(found: usize) -> String {
    let side = (1..=found).find(|s| s * s >= found).unwrap_or(0);
    if side * side == found && side > 5 {
        format!(
            "{found} numbers make a {side}x{side} board, larger than tilebench solves (sides \
             from 2 to 5)"
        )
    } else {
        format!(
            "{found} numbers do not make a square board (3x3 takes 9, 4x4 16, 5x5 25: is a tile \
             missing or extra?); for another shape give the size with --size WxH"
        )
    }
}

/// Board dimensions. Rows are `height`, columns are `width`; cell `i` is at row `i / width`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Size {
    pub width: u8,
    pub height: u8,
}

impl Size {
    /// A size with both sides in 2..=5.
    pub fn new(width: usize, height: usize) -> Result<Size, BoardError> {
        if !(2..=5).contains(&width) || !(2..=5).contains(&height) {
            return Err(BoardError::BadSize(format!("{width}x{height}")));
        }
        Ok(Size {
            width: width as u8,
            height: height as u8,
        })
    }

    /// Parses `WxH` (also `W×H` or `WXH`), e.g. `4x4`, `3x2`.
    pub fn parse(text: &str) -> Result<Size, BoardError> {
        let bad = || BoardError::BadSize(text.to_string());
        let t = text.trim().replace(['×', 'X'], "x");
        let (w, h) = t.split_once('x').ok_or_else(bad)?;
        let w: usize = w.trim().parse().map_err(|_| bad())?;
        let h: usize = h.trim().parse().map_err(|_| bad())?;
        Size::new(w, h).map_err(|_| bad())
    }

    /// The square size with `cells` cells, if there is one.
    pub(crate) fn square_with(cells: usize) -> Option<Size> {
        (2..=5).find(|k| k * k == cells).map(|k| Size {
            width: k as u8,
            height: k as u8,
        })
    }

    pub fn cells(self) -> usize {
        self.width as usize * self.height as usize
    }

    pub fn row(self, cell: usize) -> usize {
        cell / self.width as usize
    }

    pub fn col(self, cell: usize) -> usize {
        cell % self.width as usize
    }

    pub(crate) fn is_square(self) -> bool {
        self.width == self.height
    }

    /// The cell mirrored about the main diagonal (only meaningful on square boards).
    pub fn transpose(self, cell: usize) -> usize {
        self.col(cell) * self.width as usize + self.row(cell)
    }
}

impl fmt::Display for Size {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.width, self.height)
    }
}
