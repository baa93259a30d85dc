//! Breadth-first search from the start board: the first rung of the optimisation path (no
//! heuristic). Every reached state is stored once with its parent, in the order reached, so the
//! store itself is the FIFO queue: states before the cursor are the expanded (visited) ones, those
//! after it the frontier. The goal test is made when a child is generated, so the search ends one
//! level earlier than a test at expansion would.

use std::time::Instant;

use crate::board::{Board, BoardError, Goal, Grid, GRID_CELLS};
use crate::moves::MoveTable;

use super::limits::{Limits, Watch};
use super::memory::{Budget, Memory};
use super::nodes::{unpack, Key, Lookup, Node, NodeTable};
use super::progress::Progress;
use super::result::{Algorithm, Iteration, Outcome, RunStatus, SearchResult};

/// Solves `board` optimally by breadth-first search, storing at most `limits.memory_limit` bytes (none:
/// unlimited). Moves are generated in IDA*'s order with the move back to the parent skipped;
/// counts follow the definitions in [`super`]; the single [`Iteration`] holds them, with the depth
/// of the last generated level as its bound. `h0` is 0 (no heuristic).
///
/// Errors only when the board and the goal differ in size.
pub(crate) fn bfs(board: &Board, goal: &Goal, limits: &Limits) -> Result<Outcome, BoardError> {
    let started = Instant::now();
    if !board.is_solvable(goal)? {
        return Ok(Outcome::unsolvable(Algorithm::Bfs, 0, started));
    }
    Ok(if board.size().cells() <= u64::CELLS {
        search::<u64>(board, goal, limits, started)
    } else {
        search::<u128>(board, goal, limits, started)
    })
}

fn search<K: Key>(board: &Board, goal: &Goal, limits: &Limits, started: Instant) -> Outcome {
    let cells = board.size().cells();
    let moves = MoveTable::new(board.size());
    let goal_key = K::pack(&Grid::new(&goal.as_board()), cells);
    let root_key = K::pack(&Grid::new(board), cells);
    let mut watch = Watch::new(limits, started);
    let (mut expanded, mut generated, mut depth) = (0u64, 0u64, 0usize);
    let mut path = None;
    let mut table = NodeTable::<K>::new(Budget::new(limits.memory_limit));
    let status = 'search: {
        let Some(table) = table.as_mut() else {
            break 'search RunStatus::MemoryLimit;
        };
        let Some(root) = table.insert_root(root_key) else {
            break 'search RunStatus::MemoryLimit;
        };
        if root_key == goal_key {
            path = Some(Vec::new());
            break 'search RunStatus::Solved;
        }
        let mut next = root;
        while (next as usize) < table.len() {
            let i = next;
            next += 1;
            let node = *table.node(i);
            if watch.progress_due {
                watch.progressed(&Progress {
                    algorithm: Algorithm::Bfs,
                    level: node.g as u32 + 1,
                    expanded,
                    generated,
                    stored: table.len() as u64,
                    bytes: table.budget().held(),
                    seconds: started.elapsed().as_secs_f64(),
                });
            }
            expanded += 1;
            let grid = unpack(node.key, cells);
            let blank = grid.cell_of[0] as usize;
            let back = 3u8.wrapping_sub(node.dir);
            depth = node.g as usize + 1;
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
                let key = node.key.slide(tile, to, blank);
                if key == goal_key {
                    let mut moves = table.path(i);
                    moves.push(crate::moves::Dir::from_index(op.dir));
                    path = Some(moves);
                    break 'search RunStatus::Solved;
                }
                if let Lookup::Vacant(slot) = table.find(key) {
                    let child = Node {
                        key,
                        parent: i,
                        g: depth as u16,
                        dir: op.dir,
                        closed: false,
                    };
                    if table.insert(slot, child).is_none() {
                        break 'search RunStatus::MemoryLimit;
                    }
                }
            }
        }
        unreachable!("breadth-first search exhausted the states of a solvable board");
    };
    let memory = table
        .as_ref()
        .map_or_else(Memory::default, NodeTable::memory);
    let seconds = started.elapsed().as_secs_f64();
    Outcome {
        algorithm: Algorithm::Bfs,
        result: SearchResult {
            status,
            moves: path.unwrap_or_default(),
            h0: 0,
            iterations: vec![Iteration {
                bound: depth as u32,
                expanded,
                generated,
                seconds,
            }],
            seconds,
        },
        reopened: 0,
        memory,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Size;

    /// Boards of at most 16 cells are stored in 8-byte keys, which hold twice the states of
    /// 16-byte ones in the same memory: the 8-puzzle's farthest board (31 moves, nearly every
    /// state stored) costs less a state than one node with the wider key.
    #[test]
    fn small_boards_are_stored_in_8_byte_keys() {
        let goal = Goal::blank_last(Size::new(3, 3).unwrap());
        let board = Board::parse("8 6 7 2 5 4 3 0 1", None).unwrap();
        let o = bfs(&board, &goal, &Limits::none()).unwrap();
        assert_eq!(o.result.length(), Some(31));
        let per_state = o.memory.peak_bytes as f64 / o.memory.peak_stored as f64;
        let wide = std::mem::size_of::<Node<u128>>() as f64;
        assert!(per_state < wide, "{per_state} bytes a state");
    }
}
