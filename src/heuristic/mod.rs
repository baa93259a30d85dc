//! Admissible heuristics, evaluated incrementally.
//!
//! The search never recomputes h from scratch: each heuristic keeps a small `State` along the
//! search path and updates it from the one tile that moves. The search is generic over
//! [`Heuristic`], so every pairing of search and heuristic is compiled on its own (monomorphised):
//! no dynamic dispatch and no allocation per node.

pub mod any;
pub mod linear_conflict;
pub mod manhattan;
pub mod max;
pub mod pdb;
pub mod registered;
pub mod registry;
pub mod walking_distance;

/// The built-in heuristics with a fixed name, one line each: the one list that the code choosing
/// a heuristic by name is generated from ([`AnyHeuristic`], [`with_concrete!`](crate::with_concrete),
/// [`HeuristicName`] with its `KNOWN`, parsing and building, the order of a max's terms). A new
/// built-in heuristic is its own file (a type implementing [`Heuristic`] and [`BuildHeuristic`]),
/// its `pub mod` line above and its line here. The pattern databases, a family of names
/// (`pdb-663r`, `pdb:1.2/3.4`), are written out beside the generated code.
///
/// Hands the list to the macro `$callback` after the tokens `($args)`.
#[doc(hidden)]
#[macro_export]
macro_rules! builtin_heuristics {
    ($($callback:ident)::+ ; $($args:tt),*) => {
        $($callback)::+! { ($($args),*)
            // Variant: type, "name" | "alias"…, cost of one update (orders a max's terms).
            Manhattan: $crate::heuristic::Manhattan, "manhattan" | "md", 0;
            LinearConflict: $crate::heuristic::LinearConflict, "linear-conflict" | "lc", 2;
            WalkingDistance: $crate::heuristic::WalkingDistance, "walking-distance" | "wd", 1;
        }
    };
}

pub use any::AnyHeuristic;
pub use linear_conflict::LinearConflict;
pub use manhattan::Manhattan;
pub use max::Max;
pub use pdb::{Pdb, ReflectedPdb};
pub use registered::{ErasedHeuristic, Registry};
pub use registry::{
    split_names, HeuristicError, HeuristicName, MaxName, PartitionSpec, PdbName, Prepared,
    WithHeuristic, MAX_TERMS,
};
pub use walking_distance::WalkingDistance;

use crate::board::{Board, Goal, Grid};
use crate::pdb::CacheOptions;

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

    /// This heuristic as Manhattan distance, if it is that: the search then uses its own faster
    /// loop for it (a packed board and the parity of f).
    fn as_manhattan(&self) -> Option<&Manhattan> {
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
/// [`Registry::with`] (docs/writing-a-heuristic.md).
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

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::board::{Goal, Size};
    use crate::moves::{step, Dir};
    use rand_chacha::rand_core::{RngCore, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// Walks randomly from the goal and checks at every step that the incremental state agrees
    /// with a fresh evaluation. Returns the h values seen along the walk.
    pub(crate) fn check_incremental<H: Heuristic>(
        h: &H,
        goal: &Goal,
        steps: usize,
        seed: u64,
    ) -> Vec<u32> {
        let mut seen = Vec::with_capacity(steps);
        let size = goal.size();
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut board = goal.as_board();
        let mut grid = Grid::new(&board);
        let mut state = h.init(&grid);
        for _ in 0..steps {
            let blank = board.blank();
            let dir = Dir::ORDER[(rng.next_u32() % 4) as usize];
            let Some(to) = step(size, blank, dir) else {
                continue;
            };
            let tile = grid.tile_at[to];
            let next = h.update(&state, &grid, tile, to, blank);
            board.apply(dir).unwrap();
            grid.slide(to, blank);
            assert_eq!(grid, Grid::new(&board));
            let fresh = h.init(&grid);
            assert_eq!(
                h.h(&next),
                h.h(&fresh),
                "incremental h differs on {board} after {dir} tile {tile} from {to} to {blank}"
            );
            state = next;
            seen.push(h.h(&state));
        }
        seen
    }

    #[test]
    fn manhattan_and_linear_conflict_update_incrementally() {
        for (w, hgt) in [(3, 3), (4, 4), (2, 3), (3, 2), (5, 5), (4, 3)] {
            let size = Size::new(w, hgt).unwrap();
            for goal in [
                Goal::blank_last(size),
                Goal::blank_first(size),
                Goal::spiral(size),
            ] {
                let md = check_incremental(&Manhattan::new(&goal), &goal, 2000, 1);
                // Manhattan changes by exactly 1 across every move.
                assert!(md.windows(2).all(|w| w[0].abs_diff(w[1]) == 1));
                let lc = check_incremental(&LinearConflict::new(&goal), &goal, 2000, 2);
                // Linear conflict changes by an odd amount: ±1 from Manhattan, ±2 per conflict.
                assert!(lc.windows(2).all(|w| w[0].abs_diff(w[1]) % 2 == 1));
            }
        }
    }
}
