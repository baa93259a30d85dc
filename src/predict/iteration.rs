//! One complete IDA* iteration with a fixed threshold, not stopping at the goal: what KRE
//! predict. A separate small depth-first search (IDA*'s own loop stops at the goal and raises the
//! bound), generic over the heuristic, counting as IDA* does: a node is *generated* when created
//! as a child after parent pruning, *expanded* when its children are generated. A node is
//! expanded when g + h ≤ threshold; the root too (if h(root) exceeds the threshold, nothing is).

use crate::board::{Board, Grid, GRID_CELLS};
use crate::heuristic::Heuristic;
use crate::moves::MoveTable;

/// The counts of one iteration.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IterationCount {
    pub threshold: u32,
    pub expanded: u64,
    pub generated: u64,
}

struct Walk<'a, H: Heuristic> {
    h: &'a H,
    moves: &'a MoveTable,
    grid: Grid,
    threshold: u32,
    expanded: u64,
    generated: u64,
}

impl<H: Heuristic> Walk<'_, H> {
    fn dfs(&mut self, g: u32, blank: usize, back: u8, state: H::State) {
        self.expanded += 1;
        let (h, moves) = (self.h, self.moves);
        for op in moves.ops(blank) {
            if op.dir == back {
                continue;
            }
            self.generated += 1;
            let to = op.to as usize;
            let tile = self.grid.tile_at[to & (GRID_CELLS - 1)];
            let child = h.update(&state, &self.grid, tile, to, blank);
            if g + 1 + h.h(&child) > self.threshold {
                continue;
            }
            self.grid.slide(to, blank);
            self.dfs(g + 1, to, 3 - op.dir, child);
            self.grid.slide(blank, to);
        }
    }
}

/// Runs one complete iteration of IDA* from `board` with `threshold`.
pub fn fixed_threshold<H: Heuristic>(board: &Board, h: &H, threshold: u32) -> IterationCount {
    let grid = Grid::new(board);
    let root = h.init(&grid);
    let moves = MoveTable::new(board.size());
    let mut walk = Walk {
        h,
        moves: &moves,
        grid,
        threshold,
        expanded: 0,
        generated: 0,
    };
    if h.h(&root) <= threshold {
        // 4 is no move: the root has no parent to prune.
        walk.dfs(0, board.blank(), 4, root);
    }
    IterationCount {
        threshold,
        expanded: walk.expanded,
        generated: walk.generated,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Goal, Size};
    use crate::heuristic::{LinearConflict, Manhattan};
    use crate::predict::tree::exact_counts;
    use crate::search::{ida, Limits};

    #[test]
    fn zero_heuristic_iteration_is_the_brute_force_tree() {
        // With h = 0 everywhere, the iteration walks the whole brute-force tree to the
        // threshold, which the recurrence counts exactly.
        struct Zero;
        impl Heuristic for Zero {
            type State = ();
            fn init(&self, _: &Grid) {}
            fn h(&self, _: &()) -> u32 {
                0
            }
            fn update(&self, _: &(), _: &Grid, _: u8, _: usize, _: usize) {}
        }
        let size = Size::new(4, 4).unwrap();
        let board = Goal::blank_first(size).as_board();
        let (nodes, children) = exact_counts(size, 0, 10);
        let it = fixed_threshold(&board, &Zero, 9);
        let sum = |v: &[Vec<u128>], upto: usize| -> u128 {
            v[..=upto].iter().map(|r| r.iter().sum::<u128>()).sum()
        };
        assert_eq!(it.expanded as u128, sum(&nodes, 9));
        assert_eq!(it.generated as u128, sum(&children, 9));
    }

    #[test]
    fn the_last_iteration_of_ida_is_a_prefix_of_the_complete_one() {
        let goal = Goal::blank_last(Size::new(3, 3).unwrap());
        let b = crate::board::Board::parse("8 6 7 2 5 4 3 0 1", None).unwrap();
        let md = Manhattan::new(&goal);
        let lc = LinearConflict::new(&goal);
        let r = ida(&b, &goal, &md, &Limits::none()).unwrap();
        // Every iteration but the last is complete: its counts are the fixed-threshold counts.
        for it in &r.iterations[..r.iterations.len() - 1] {
            let c = fixed_threshold(&b, &md, it.bound);
            assert_eq!(
                (c.expanded, c.generated),
                (it.expanded, it.generated),
                "{}",
                it.bound
            );
        }
        let last = r.iterations.last().unwrap();
        let c = fixed_threshold(&b, &md, last.bound);
        assert!(c.generated >= last.generated);
        let r = ida(&b, &goal, &lc, &Limits::none()).unwrap();
        for it in &r.iterations[..r.iterations.len() - 1] {
            let c = fixed_threshold(&b, &lc, it.bound);
            assert_eq!((c.expanded, c.generated), (it.expanded, it.generated));
        }
        // Below h(root), nothing.
        let c = fixed_threshold(&b, &md, md.evaluate(&b) - 1);
        assert_eq!((c.expanded, c.generated), (0, 0));
    }
}
