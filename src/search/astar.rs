//! A*: best-first search on f = g + h with every generated state stored (Hart, Nilsson & Raphael
//! 1968). The open list is buckets by f and, within an f, by g, taken largest g first and last in
//! first out: costs are small integers, so push and pop are O(1) without a heap. Closed and open
//! states live in one [`NodeTable`] (packed board, cheapest g so far, parent, move); an open entry
//! whose g is no longer the node's is stale and skipped when taken.
//!
//! Pattern-database heuristics here are admissible but not consistent, so a closed state can be
//! reached again more cheaply: it is then reopened (put back on the open list, counted in
//! `reopened`), which keeps the returned path optimal. With a consistent heuristic (Manhattan,
//! linear conflict) no state is ever reopened.

use std::time::Instant;

use crate::board::{Board, BoardError, Goal, Grid, GRID_CELLS};
use crate::heuristic::Heuristic;
use crate::moves::MoveTable;

use super::limits::{Limits, Watch};
use super::memory::{make_room, Budget, Memory};
use super::nodes::{unpack, Key, Lookup, Node, NodeTable};
use super::progress::Progress;
use super::result::{Algorithm, Iteration, Outcome, RunStatus, SearchResult};

/// The open list: `buckets[f][g]` holds node indices.
#[derive(Default)]
struct Open {
    buckets: Vec<Vec<Vec<u32>>>,
    /// `top[f]`: one more than the highest g whose bucket may be non-empty.
    top: Vec<usize>,
    /// No entry has a smaller f.
    min_f: usize,
}

impl Open {
    /// Adds node `i` reached at cost `g` with f = `f`; false when the memory is over budget.
    fn push(&mut self, f: usize, g: usize, i: u32, budget: &mut Budget) -> bool {
        while self.buckets.len() <= f {
            if !make_room(&mut self.buckets, 64, budget) || !make_room(&mut self.top, 64, budget) {
                return false;
            }
            self.buckets.push(Vec::new());
            self.top.push(0);
        }
        let row = &mut self.buckets[f];
        while row.len() <= g {
            if !make_room(row, 64, budget) {
                return false;
            }
            row.push(Vec::new());
        }
        if !make_room(&mut row[g], 16, budget) {
            return false;
        }
        row[g].push(i);
        self.top[f] = self.top[f].max(g + 1);
        self.min_f = self.min_f.min(f);
        true
    }

    /// Takes an entry of the smallest f, of the largest g among those: (f, g, node).
    fn pop(&mut self) -> Option<(usize, usize, u32)> {
        while self.min_f < self.buckets.len() {
            let f = self.min_f;
            while self.top[f] > 0 {
                let g = self.top[f] - 1;
                if let Some(i) = self.buckets[f][g].pop() {
                    return Some((f, g, i));
                }
                self.top[f] = g;
            }
            self.min_f += 1;
        }
        None
    }
}

/// Solves `board` optimally with A* under an admissible heuristic built for `goal`, storing at
/// most `limits.memory_limit` bytes (none: unlimited). Moves are generated in the order IDA* uses, with
/// the move back to the parent skipped; counts follow the definitions in [`super`], and the single
/// [`Iteration`] holds them with the last f taken from the open list as its bound.
///
/// Errors only when the board and the goal differ in size.
pub(crate) fn astar<H: Heuristic>(
    board: &Board,
    goal: &Goal,
    heuristic: &H,
    limits: &Limits,
) -> Result<Outcome, BoardError> {
    let started = Instant::now();
    let h0 = heuristic.evaluate(board);
    if !board.is_solvable(goal)? {
        return Ok(Outcome::unsolvable(Algorithm::Astar, h0, started));
    }
    Ok(if board.size().cells() <= u64::CELLS {
        search::<H, u64>(board, goal, heuristic, limits, started)
    } else {
        search::<H, u128>(board, goal, heuristic, limits, started)
    })
}

fn search<H: Heuristic, K: Key>(
    board: &Board,
    goal: &Goal,
    h: &H,
    limits: &Limits,
    started: Instant,
) -> Outcome {
    let cells = board.size().cells();
    let moves = MoveTable::new(board.size());
    let start = Grid::new(board);
    let h0 = h.h(&h.init(&start));
    let goal_key = K::pack(&Grid::new(&goal.as_board()), cells);
    let root_key = K::pack(&start, cells);
    let mut watch = Watch::new(limits, started);
    let (mut expanded, mut generated, mut reopened) = (0u64, 0u64, 0u64);
    let mut last_f = h0 as usize;
    let mut open = Open::default();
    let mut found = None;
    let mut table = NodeTable::<K>::new(Budget::new(limits.memory_limit));
    let status = 'search: {
        let Some(table) = table.as_mut() else {
            break 'search RunStatus::MemoryLimit;
        };
        let Some(root) = table.insert_root(root_key) else {
            break 'search RunStatus::MemoryLimit;
        };
        if !open.push(h0 as usize, 0, root, table.budget()) {
            break 'search RunStatus::MemoryLimit;
        }
        loop {
            let Some((f, g, i)) = open.pop() else {
                // Admissible heuristics never prune, so a solvable board is always reached.
                unreachable!("A* exhausted the open list of a solvable board");
            };
            let node = *table.node(i);
            if node.g as usize != g {
                continue; // reached more cheaply since this entry was made
            }
            last_f = f;
            if node.key == goal_key {
                found = Some(i);
                break RunStatus::Solved;
            }
            if watch.progress_due {
                watch.progressed(&Progress {
                    algorithm: Algorithm::Astar,
                    level: f as u32,
                    expanded,
                    generated,
                    stored: table.len() as u64,
                    bytes: table.budget().held(),
                    seconds: started.elapsed().as_secs_f64(),
                });
            }
            table.node_mut(i).closed = true;
            expanded += 1;
            let grid = unpack(node.key, cells);
            let state = h.init(&grid);
            let blank = grid.cell_of[0] as usize;
            let back = 3u8.wrapping_sub(node.dir);
            for op in moves.ops(blank) {
                if op.dir == back {
                    continue;
                }
                if let Some(stop) = watch.stop(generated) {
                    break 'search stop;
                }
                generated += 1;
                let to = op.to as usize;
                let tile = grid.tile_at[to & (GRID_CELLS - 1)];
                let hc = h.h(&h.update(&state, &grid, tile, to, blank)) as usize;
                let key = node.key.slide(tile, to, blank);
                let gc = g + 1;
                let child = Node {
                    key,
                    parent: i,
                    g: gc as u16,
                    dir: op.dir,
                    closed: false,
                };
                let j = match table.find(key) {
                    Lookup::Found(j) => {
                        let old = table.node_mut(j);
                        if gc >= old.g as usize {
                            continue; // a duplicate, no cheaper
                        }
                        if old.closed {
                            reopened += 1;
                        }
                        *old = child;
                        j
                    }
                    Lookup::Vacant(slot) => match table.insert(slot, child) {
                        Some(j) => j,
                        None => break 'search RunStatus::MemoryLimit,
                    },
                };
                if !open.push(gc + hc, gc, j, table.budget()) {
                    break 'search RunStatus::MemoryLimit;
                }
            }
        }
    };
    let (moves, memory) = match &table {
        Some(t) => (found.map_or_else(Vec::new, |i| t.path(i)), t.memory()),
        None => (Vec::new(), Memory::default()),
    };
    let seconds = started.elapsed().as_secs_f64();
    Outcome {
        algorithm: Algorithm::Astar,
        result: SearchResult {
            status,
            moves,
            h0,
            iterations: vec![Iteration {
                bound: last_f as u32,
                expanded,
                generated,
                seconds,
            }],
            seconds,
        },
        reopened,
        memory,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Size;
    use crate::brute_force::{distances, unrank, UNREACHED};
    use crate::heuristic::pdb::tests::test_pdb;
    use crate::heuristic::Manhattan;
    use crate::pdb::Named;

    fn solved(outcome: &Outcome, board: &Board, goal: &Goal) -> usize {
        let r = &outcome.result;
        assert_eq!(r.status, RunStatus::Solved, "{board:?}");
        assert!(board.replays_to(&r.moves, goal), "{board:?}");
        r.moves.len()
    }

    /// A sample of the 8-puzzle's boards at every distance: A* with Manhattan finds the
    /// breadth-first distance, never reopens (Manhattan is consistent) and expands no more
    /// states than it generated (the root aside).
    #[test]
    fn lengths_are_the_breadth_first_distances() {
        let goal = Goal::blank_last(Size::new(3, 3).unwrap());
        let md = Manhattan::new(&goal);
        let dist = distances(&goal);
        let mut depths = std::collections::BTreeSet::new();
        for r in (0..dist.len())
            .step_by(613)
            .filter(|&r| dist[r] != UNREACHED)
        {
            let board = Board::from_tiles(goal.size(), &unrank(r, 9)).unwrap();
            let o = astar(&board, &goal, &md, &Limits::none()).unwrap();
            assert_eq!(solved(&o, &board, &goal), dist[r] as usize);
            assert_eq!(o.reopened, 0);
            let it = o.result.iterations[0];
            assert!(it.expanded <= it.generated + 1);
            assert_eq!(it.bound, u32::from(dist[r]));
            depths.insert(dist[r]);
        }
        assert!(depths.len() >= 18, "{depths:?}");
    }

    /// The 6-6-3 tables are admissible but not consistent: on these boards (instances
    /// depth25-4x4 #2 and depth40-4x4 #1 of instances/optimization-path/) A* reaches expanded
    /// states again more cheaply, reopens them, and still returns an optimal path.
    #[test]
    fn an_inconsistent_heuristic_reopens_and_stays_optimal() {
        let goal = Goal::blank_first(Size::new(4, 4).unwrap());
        let pdb = test_pdb(&goal, &Named::P663.for_goal(&goal).unwrap());
        for (tiles, optimal) in [
            ("1 5 10 6 0 4 14 3 8 2 11 7 12 9 13 15", 25),
            ("13 1 2 3 5 0 14 7 10 11 9 8 6 4 12 15", 40),
        ] {
            let board = Board::parse(tiles, None).unwrap();
            let o = astar(&board, &goal, &pdb, &Limits::none()).unwrap();
            assert_eq!(solved(&o, &board, &goal), optimal);
            let expanded = o.result.iterations[0].expanded;
            assert!(o.reopened > 0 && o.reopened < expanded, "{}", o.reopened);
        }
    }

    /// The budget holds exactly the bytes the open list's vectors hold (so the reported peak and
    /// the memory limit are about real memory), growing it one f row and one g bucket at a time.
    #[test]
    fn the_open_list_charges_every_byte_it_holds() {
        fn bytes<T>(v: &Vec<T>) -> u64 {
            (v.capacity() * std::mem::size_of::<T>()) as u64
        }
        let mut open = Open::default();
        let mut budget = Budget::new(None);
        for (n, (f, g)) in [(0, 0), (3, 1), (3, 2), (70, 5), (200, 40), (200, 41)]
            .into_iter()
            .enumerate()
        {
            for i in 0..40 {
                assert!(open.push(f, g, (n * 40 + i) as u32, &mut budget));
            }
            let rows: u64 = open.buckets.iter().map(bytes).sum();
            let cells: u64 = open.buckets.iter().flatten().map(bytes).sum();
            let held = bytes(&open.buckets) + bytes(&open.top) + rows + cells;
            assert_eq!(budget.held(), held, "after pushes at f {f}, g {g}");
        }
    }
}
