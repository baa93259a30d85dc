//! What a heuristic is: [`Heuristic`] (its incremental evaluation) and [`BuildHeuristic`] (how
//! tilebench builds it for a goal), the layer every heuristic and the search build on.

use crate::board::{Board, Goal, Grid};
use crate::pdb::CacheOptions;

use super::distance::TileDistances;
use super::error::HeuristicError;

/// A heuristic that can be updated incrementally along a search path.
pub trait Heuristic: Sync {
    /// What is carried from a node to its children (at least h itself).
    type State: Copy + Send + Sync;

    /// Evaluates a whole board, once per search (at the root).
    fn init(&self, grid: &Grid) -> Self::State;

    /// The heuristic value h of a state.
    fn h(&self, state: &Self::State) -> u32;

    /// The state after `tile` slides from cell `from` into the blank at cell `to`. `grid` is the
    /// board *before* the move, so the search can test f against the bound before it moves.
    fn update(
        &self,
        state: &Self::State,
        grid: &Grid,
        tile: u8,
        from: usize,
        to: usize,
    ) -> Self::State;

    /// Whether `update` reads `grid.cell_of`; when not, the search skips keeping it up to date
    /// (`tile_at` is always kept).
    const READS_CELL_OF: bool = true;

    /// This heuristic's Manhattan distance table, if it is Manhattan distance: the search then
    /// uses its own faster loop for it (a packed board and the parity of f).
    fn as_manhattan(&self) -> Option<&TileDistances> {
        None
    }

    /// Whether the search should call [`Heuristic::update_below`] instead of `update` (only for
    /// heuristics that can skip work with it; the others keep the plain loop).
    const CUTS_LOOKUPS: bool = false;

    /// [`Heuristic::update`] for a child that the search will prune without using its h when
    /// h ≥ `cutoff`: may return `None` once that is certain, skipping the rest of the work (the
    /// reflected pattern database skips its second lookup). Never returns `None` for h < `cutoff`.
    #[inline(always)]
    fn update_below(
        &self,
        state: &Self::State,
        grid: &Grid,
        tile: u8,
        from: usize,
        to: usize,
        cutoff: u32,
    ) -> Option<Self::State> {
        let _ = cutoff;
        Some(self.update(state, grid, tile, from, to))
    }

    /// h of a whole board; for tests and reports, not for the search loop.
    fn evaluate(&self, board: &Board) -> u32 {
        self.h(&self.init(&Grid::new(board)))
    }
}

/// A heuristic that tilebench builds by name for a goal: with [`Heuristic`] (its incremental
/// evaluation), all there is to write for a new heuristic. A built-in one is listed in
/// [`builtin_heuristics!`](crate::builtin_heuristics); one in another crate is registered with
/// [`Registry::with`](super::Registry::with) (docs/writing-a-heuristic.md).
pub trait BuildHeuristic: Heuristic + Clone + std::fmt::Debug + Send + Sync + 'static {
    /// Whether h never exceeds the number of moves left to the goal, as the implementer knows it
    /// (IDA* and A* find optimal solutions only with an admissible heuristic; nothing checks it,
    /// tests against breadth-first search can: docs/writing-a-heuristic.md).
    const ADMISSIBLE: bool;

    /// Builds the heuristic for `goal`, with its tables if it has any: large ones may be kept
    /// under `options.pdb_dir` (the pattern-database cache) and loaded again from there.
    fn build(goal: &Goal, options: &CacheOptions) -> Result<Self, HeuristicError>;

    /// Bytes of its tables, shared by every search with it and reported as `table_bytes`, apart
    /// from a search's own memory; 0 (the default) when too small to count.
    fn table_bytes(&self) -> u64 {
        0
    }
}
