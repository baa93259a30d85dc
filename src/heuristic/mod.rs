//! Admissible heuristics, evaluated incrementally.
//!
//! The search never recomputes h from scratch: each heuristic keeps a small `State` along the
//! search path and updates it from the one tile that moves. The search is generic over
//! [`Heuristic`], so every pairing of search and heuristic is compiled on its own (monomorphised):
//! no dynamic dispatch and no allocation per node.

pub mod any;
pub mod distance;
pub mod error;
pub mod linear_conflict;
pub mod manhattan;
pub mod max;
pub mod pdb;
pub mod registered;
pub mod registry;
pub mod traits;
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
            // Cheapest first: a max of two is compiled only for the pairs in this order
            // (`__with_concrete_pair!`), the order its sorted terms come in.
            Manhattan: $crate::heuristic::Manhattan, "manhattan" | "md", 0;
            WalkingDistance: $crate::heuristic::WalkingDistance, "walking-distance" | "wd", 1;
            LinearConflict: $crate::heuristic::LinearConflict, "linear-conflict" | "lc", 2;
        }
    };
}

pub use any::AnyHeuristic;
pub use distance::TileDistances;
pub use error::{HeuristicError, WalkingDistanceError, MAX_TERMS};
pub use linear_conflict::LinearConflict;
pub use manhattan::Manhattan;
pub use max::Max;
pub use pdb::{Pdb, ReflectedPdb};
pub use registered::{ErasedHeuristic, Registry};
pub use registry::{
    split_names, HeuristicName, MaxName, PartitionSpec, PdbName, Prepared, WithHeuristic,
};
pub use traits::{BuildHeuristic, Heuristic};
pub use walking_distance::WalkingDistance;

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::board::{Goal, Grid, Size};
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
