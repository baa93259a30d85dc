//! IDA*: depth-first searches with a rising bound on f = g + h; each new bound is the smallest f
//! that the previous pass pruned. Memory is O(depth): one board mutated in place and undone on
//! backtrack, the path as bytes, and the heuristic's small state on the call stack.

use std::sync::atomic::Ordering;
use std::time::Instant;

use crate::board::{Board, BoardError, Goal, Grid, GRID_CELLS};
use crate::heuristic::Heuristic;
use crate::moves::{Dir, MoveTable};

use super::{Iteration, Limits, SearchResult, Status};

/// Longest path the search can return; far above any optimal 5×5 solution (at most 208 moves).
pub const MAX_DEPTH: usize = 256;

/// How many generated nodes pass between checks of the clock and the cancel flag.
const CHECK_EVERY: u64 = 1 << 20;

/// Parent pruning: the root has no parent, and no move has this number as its opposite.
const NO_MOVE: u8 = 4;

struct Ida<'a, H: Heuristic> {
    h: &'a H,
    moves: &'a MoveTable,
    grid: Grid,
    goal: [u8; GRID_CELLS],
    bound: u32,
    next_bound: u32,
    expanded: u64,
    generated: u64,
    /// The generated count at which to look at the limits next.
    check_at: u64,
    path: [u8; MAX_DEPTH],
    limits: &'a Limits,
    started: Instant,
    stop: Option<Status>,
    /// Moves in the solution, once found (`path[..length]`).
    length: usize,
}

impl<H: Heuristic> Ida<'_, H> {
    /// Looks at the limits; returns whether to stop.
    #[cold]
    #[inline(never)]
    fn checkpoint(&mut self) -> bool {
        let l = self.limits;
        if l.node_limit.is_some_and(|n| self.generated >= n) {
            self.stop = Some(Status::NodeLimit);
        } else if l.time_limit.is_some_and(|t| self.started.elapsed() >= t) {
            self.stop = Some(Status::TimeLimit);
        } else if l.cancel.as_ref().is_some_and(|c| c.load(Ordering::Relaxed)) {
            self.stop = Some(Status::Cancelled);
        }
        let next = self.generated + CHECK_EVERY;
        self.check_at = l.node_limit.map_or(next, |n| next.min(n));
        self.stop.is_some()
    }

    /// Searches below the node with the blank at `blank`, reached at cost `g` by a move whose
    /// opposite is `back`. Returns true when the goal is found (the grid is then the goal).
    fn dfs(&mut self, g: u32, blank: usize, back: u8, state: H::State) -> bool {
        self.expanded += 1;
        let (h, moves) = (self.h, self.moves);
        for op in moves.ops(blank) {
            if op.dir == back {
                continue;
            }
            if self.generated >= self.check_at && self.checkpoint() {
                return false;
            }
            self.generated += 1;
            // The blank moves to `to`: the tile there slides into `blank`.
            let to = op.to as usize;
            let tile = self.grid.tile_at[to & (GRID_CELLS - 1)];
            let child = if H::CUTS_LOOKUPS {
                // A child with f ≥ max(bound + 1, next_bound) is pruned and leaves next_bound as
                // it is, so its exact h is not needed.
                let cutoff = (self.bound + 1).max(self.next_bound) - (g + 1);
                match h.update_below(&state, &self.grid, tile, to, blank, cutoff) {
                    Some(child) => child,
                    None => continue,
                }
            } else {
                h.update(&state, &self.grid, tile, to, blank)
            };
            let hc = h.h(&child);
            // Test f before moving anything (the cutoff test precedes the goal test).
            let f = g + 1 + hc;
            if f > self.bound {
                self.next_bound = self.next_bound.min(f);
                continue;
            }
            self.grid.slide(to, blank);
            // g < bound ≤ MAX_DEPTH − 1 (checked in `ida`), so the mask never changes the index.
            self.path[g as usize & (MAX_DEPTH - 1)] = op.dir;
            if hc == 0 && self.grid.tile_at == self.goal {
                self.length = g as usize + 1;
                return true;
            }
            if self.dfs(g + 1, to, 3 - op.dir, child) {
                return true;
            }
            self.grid.slide(blank, to);
            if self.stop.is_some() {
                return false;
            }
        }
        false
    }
}

/// Solves `board` optimally with IDA* under an admissible heuristic built for `goal`.
///
/// Unsolvable boards are recognised by the parity rule and return at once with no iterations.
/// Errors only when the board and the goal differ in size.
pub fn ida<H: Heuristic>(
    board: &Board,
    goal: &Goal,
    heuristic: &H,
    limits: &Limits,
) -> Result<SearchResult, BoardError> {
    let started = Instant::now();
    let grid = Grid::new(board);
    let root = heuristic.init(&grid);
    let h0 = heuristic.h(&root);
    if !board.is_solvable(goal)? {
        return Ok(SearchResult {
            status: Status::Unsolvable,
            moves: Vec::new(),
            h0,
            iterations: Vec::new(),
            seconds: started.elapsed().as_secs_f64(),
        });
    }
    let moves = MoveTable::new(board.size());
    let mut search = Ida {
        h: heuristic,
        moves: &moves,
        grid,
        goal: Grid::new(&goal.as_board()).tile_at,
        bound: h0,
        next_bound: u32::MAX,
        expanded: 0,
        generated: 0,
        check_at: 0,
        path: [0; MAX_DEPTH],
        limits,
        started,
        stop: None,
        length: 0,
    };
    search.checkpoint();
    let mut iterations = Vec::new();
    let blank = board.blank();
    let status = loop {
        if search.grid.tile_at == search.goal {
            iterations.push(Iteration {
                bound: search.bound,
                expanded: 0,
                generated: 0,
                seconds: 0.0,
            });
            break Status::Solved;
        }
        if search.stop.is_some() {
            break search.stop.unwrap_or(Status::Cancelled);
        }
        let t0 = Instant::now();
        let (e0, g0) = (search.expanded, search.generated);
        search.next_bound = u32::MAX;
        let found = search.dfs(0, blank, NO_MOVE, root);
        iterations.push(Iteration {
            bound: search.bound,
            expanded: search.expanded - e0,
            generated: search.generated - g0,
            seconds: t0.elapsed().as_secs_f64(),
        });
        if found {
            break Status::Solved;
        }
        if let Some(s) = search.stop {
            break s;
        }
        // A solvable board always leaves a pruned node behind until the goal is found.
        assert!(
            search.next_bound != u32::MAX,
            "IDA* exhausted a solvable board: heuristic is inconsistent with the goal"
        );
        search.bound = search.next_bound;
        assert!(
            (search.bound as usize) < MAX_DEPTH,
            "bound {} exceeds the deepest supported path",
            search.bound
        );
    };
    let moves: Vec<Dir> = if status == Status::Solved {
        search.path[..search.length]
            .iter()
            .map(|&d| Dir::from_index(d))
            .collect()
    } else {
        Vec::new()
    };
    Ok(SearchResult {
        status,
        moves,
        h0,
        iterations,
        seconds: started.elapsed().as_secs_f64(),
    })
}
