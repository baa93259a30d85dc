//! The depth-first search below one node, for a fixed bound: the part of IDA* that runs per
//! node. [`Generic`] serves every heuristic; [`super::packed::PackedManhattan`] is a faster one
//! for Manhattan distance on boards of up to 16 cells. The iteration drivers (sequential and
//! parallel) are written once over [`Kernel`].

use crate::board::{Goal, Grid, Size, GRID_CELLS};
use crate::heuristic::Heuristic;
use crate::moves::MoveTable;

use super::limits::Control;
use super::pass::{Pass, PassOutcome, MAX_DEPTH};
use super::pruning::Prune;

/// Parent pruning: the root has no parent, and no move has this number as its opposite.
pub(crate) const NO_MOVE: u8 = 4;

/// One search node's representation and the depth-first search below it.
pub(crate) trait Kernel: Sync {
    /// A node: the board, the heuristic's state, the blank and the move that led to it.
    type Node: Copy + Send + Sync;

    fn h(&self, node: &Self::Node) -> u32;

    fn is_goal(&self, node: &Self::Node) -> bool;

    /// Calls `f(dir, child)` for each child in operator order, after parent pruning. For the
    /// shallow part of a parallel iteration, not for the hot loop.
    fn children(&self, node: &Self::Node, f: impl FnMut(u8, Self::Node));

    /// Expands `node`, which lies at depth `g` with f ≤ `pass.bound` and is not the goal, and
    /// searches below it, counting into `pass`. Returns true to unwind: the goal was reached
    /// (`pass.found`, with `pass.path[g..pass.length]` filled in) or a limit stopped the pass.
    fn search(&self, pass: &mut Pass, node: &Self::Node, g: u32) -> bool;
}

/// The kernel for any heuristic: one grid mutated in place and undone on backtrack; parent
/// pruning in the loop, and whatever `P` prunes beyond it.
pub(crate) struct Generic<'h, H: Heuristic, P: Prune> {
    h: &'h H,
    prune: P,
    moves: MoveTable,
    goal: [u8; GRID_CELLS],
}

/// A node of [`Generic`].
#[derive(Clone, Copy)]
pub(crate) struct GenericNode<S, F> {
    grid: Grid,
    state: S,
    blank: u8,
    back: u8,
    fsm: F,
}

impl<'h, H: Heuristic, P: Prune> Generic<'h, H, P> {
    /// The kernel searching towards `goal`; with None it never reaches a goal and walks the
    /// whole tree within the bound (a fixed-bound pass).
    pub(crate) fn new(h: &'h H, prune: P, goal: Option<&Goal>, size: Size) -> Self {
        Generic {
            h,
            prune,
            moves: MoveTable::new(size),
            // No board has u8::MAX in a cell, so the goal test never passes.
            goal: goal.map_or([u8::MAX; GRID_CELLS], |g| Grid::new(&g.as_board()).tile_at),
        }
    }

    pub(crate) fn root(
        &self,
        grid: Grid,
        state: H::State,
        blank: usize,
    ) -> GenericNode<H::State, P::State> {
        GenericNode {
            grid,
            state,
            blank: blank as u8,
            back: NO_MOVE,
            fsm: self.prune.start(),
        }
    }

    /// Moves the tile in `from` into the blank at `to`, keeping `cell_of` only for heuristics
    /// that read it.
    #[inline(always)]
    fn slide(grid: &mut Grid, from: usize, to: usize) {
        if H::READS_CELL_OF {
            grid.slide(from, to);
        } else {
            grid.slide_tile(from, to);
        }
    }

    /// Searches below the node with the blank at `blank`, reached at depth `g` by a move whose
    /// opposite is `back`, in pruning state `fsm`.
    #[allow(clippy::too_many_arguments)]
    fn dfs(
        &self,
        p: &mut Pass,
        grid: &mut Grid,
        g: u32,
        blank: usize,
        back: u8,
        fsm: P::State,
        state: H::State,
    ) -> bool {
        p.expanded += 1;
        #[cfg(feature = "slow-nodes")]
        super::slow::work(p.expanded);
        let h = self.h;
        for op in self.moves.ops(blank) {
            if op.dir == back {
                continue;
            }
            let Some(child_fsm) = self.prune.next(fsm, op.dir) else {
                continue;
            };
            if p.generated >= p.check_at && p.check_limits() {
                return true;
            }
            p.generated += 1;
            // The blank moves to `to`: the tile there slides into `blank`.
            let to = op.to as usize;
            let tile = grid.tile_at[to & (GRID_CELLS - 1)];
            let child = if H::CUTS_LOOKUPS {
                // A child with f ≥ max(bound + 1, next_bound) is pruned and leaves next_bound as
                // it is, so its exact h is not needed.
                let cutoff = (p.bound + 1).max(p.next_bound) - (g + 1);
                match h.update_below(&state, grid, tile, to, blank, cutoff) {
                    Some(child) => child,
                    None => continue,
                }
            } else {
                h.update(&state, grid, tile, to, blank)
            };
            let hc = h.h(&child);
            // Test f before moving anything (the cutoff test precedes the goal test).
            let f = g + 1 + hc;
            if f > p.bound {
                p.next_bound = p.next_bound.min(f);
                continue;
            }
            Self::slide(grid, to, blank);
            if hc == 0 && grid.tile_at == self.goal {
                p.reached_goal(g, op.dir);
                return true;
            }
            if self.dfs(p, grid, g + 1, to, 3 - op.dir, child_fsm, child) {
                // g < bound ≤ MAX_DEPTH − 1 (checked by the driver), so the mask changes nothing.
                p.path[g as usize & (MAX_DEPTH - 1)] = op.dir;
                return true;
            }
            Self::slide(grid, blank, to);
        }
        false
    }
}

impl<H: Heuristic, P: Prune> Kernel for Generic<'_, H, P> {
    type Node = GenericNode<H::State, P::State>;

    fn h(&self, node: &Self::Node) -> u32 {
        self.h.h(&node.state)
    }

    fn is_goal(&self, node: &Self::Node) -> bool {
        node.grid.tile_at == self.goal
    }

    fn children(&self, node: &Self::Node, mut f: impl FnMut(u8, Self::Node)) {
        let blank = node.blank as usize;
        for op in self.moves.ops(blank) {
            if op.dir == node.back {
                continue;
            }
            let Some(fsm) = self.prune.next(node.fsm, op.dir) else {
                continue;
            };
            let to = op.to as usize;
            let tile = node.grid.tile_at[to & (GRID_CELLS - 1)];
            let state = self.h.update(&node.state, &node.grid, tile, to, blank);
            let mut grid = node.grid;
            grid.slide(to, blank);
            f(
                op.dir,
                GenericNode {
                    grid,
                    state,
                    blank: op.to,
                    back: 3 - op.dir,
                    fsm,
                },
            );
        }
    }

    fn search(&self, pass: &mut Pass, node: &Self::Node, g: u32) -> bool {
        let mut grid = node.grid;
        self.dfs(
            pass,
            &mut grid,
            g,
            node.blank as usize,
            node.back,
            node.fsm,
            node.state,
        )
    }
}

/// One whole pass from the root on this thread.
pub(crate) fn sequential_pass<K: Kernel>(
    k: &K,
    root: &K::Node,
    bound: u32,
    control: &Control,
) -> PassOutcome {
    let mut p = Pass::new(control, bound, 0);
    k.search(&mut p, root, 0);
    p.finish();
    PassOutcome {
        expanded: p.expanded,
        generated: p.generated,
        next_bound: p.next_bound,
        solution: p.found.then(|| p.path[..p.length].to_vec()),
    }
}
