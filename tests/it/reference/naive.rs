//! The deliberately naive reference: IDA*, A* and breadth-first search over the oracle's own move
//! generation (`brute_force::blank_moves`, row and column arithmetic), with boards as plain
//! `Vec<u8>` and every heuristic evaluated from scratch at every node from its definition
//! (`super::heuristics`). Nothing here calls the product's search, move tables, packed boards or
//! incremental heuristic states; only the counting convention and the tie-breaking rules are the
//! product's documented ones (src/search/mod.rs, src/search/astar.rs, src/search/bfs.rs):
//!
//! - a node is *generated* when created as a child after parent pruning, *expanded* when its
//!   children are generated; the root is neither;
//! - operators in Korf's order: the blank moves up, left, right, down;
//! - IDA*: the f test precedes the goal test, the goal test is made on generation, the next
//!   bound is the smallest f pruned;
//! - A*: the open entry of smallest f, then largest g, then the one pushed last; stale entries
//!   (g no longer the state's) are skipped uncounted; goal test when taken; a cheaper path to a
//!   closed state reopens it;
//! - breadth-first search: first in first out, the goal test on generation, duplicates of any
//!   stored state dropped.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap, HashSet};

use tilebench::brute_force::blank_moves;

/// One IDA* iteration or the single entry of A* / breadth-first search.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Counts {
    pub bound: u32,
    pub expanded: u64,
    pub generated: u64,
}

/// What a reference search found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    pub iterations: Vec<Counts>,
    /// The cells the blank visits after the start, in order (the solution path).
    pub path: Vec<usize>,
    /// A* only: closed states reopened.
    pub reopened: u64,
    /// A* and breadth-first search: states stored at the end (the root included).
    pub stored: u64,
}

/// A board shape and the goal's tiles (row-major, 0 the blank).
pub struct Space<'a> {
    pub width: usize,
    pub height: usize,
    pub goal: &'a [u8],
}

fn blank_of(tiles: &[u8]) -> usize {
    tiles.iter().position(|&t| t == 0).expect("a blank")
}

fn moved(tiles: &[u8], blank: usize, to: usize) -> Vec<u8> {
    let mut next = tiles.to_vec();
    next.swap(blank, to);
    next
}

/// IDA* (Korf 1985), h evaluated afresh on every child.
pub fn ida(space: &Space, start: &[u8], h: &dyn Fn(&[u8]) -> u32) -> Found {
    struct Pass<'s, 'h> {
        space: &'s Space<'s>,
        h: &'h dyn Fn(&[u8]) -> u32,
        bound: u32,
        next: u32,
        expanded: u64,
        generated: u64,
        path: Vec<usize>,
    }
    fn dfs(p: &mut Pass, tiles: &mut Vec<u8>, g: u32, parent: Option<usize>) -> bool {
        p.expanded += 1;
        let blank = blank_of(tiles);
        for to in blank_moves(p.space.width, p.space.height, blank) {
            if Some(to) == parent {
                continue;
            }
            p.generated += 1;
            tiles.swap(blank, to);
            let f = g + 1 + (p.h)(tiles);
            if f > p.bound {
                p.next = p.next.min(f);
            } else {
                p.path.push(to);
                if tiles.as_slice() == p.space.goal || dfs(p, tiles, g + 1, Some(blank)) {
                    tiles.swap(blank, to);
                    return true;
                }
                p.path.pop();
            }
            tiles.swap(blank, to);
        }
        false
    }
    let mut bound = h(start);
    let mut iterations = Vec::new();
    if start == space.goal {
        iterations.push(Counts {
            bound,
            expanded: 0,
            generated: 0,
        });
        return Found {
            iterations,
            path: Vec::new(),
            reopened: 0,
            stored: 0,
        };
    }
    loop {
        let mut p = Pass {
            space,
            h,
            bound,
            next: u32::MAX,
            expanded: 0,
            generated: 0,
            path: Vec::new(),
        };
        let found = dfs(&mut p, &mut start.to_vec(), 0, None);
        iterations.push(Counts {
            bound,
            expanded: p.expanded,
            generated: p.generated,
        });
        if found {
            return Found {
                iterations,
                path: p.path,
                reopened: 0,
                stored: 0,
            };
        }
        assert_ne!(
            p.next,
            u32::MAX,
            "reference IDA* exhausted a solvable board"
        );
        bound = p.next;
    }
}

/// A* (Hart, Nilsson & Raphael 1968) with a binary heap and a hash map.
pub fn astar(space: &Space, start: &[u8], h: &dyn Fn(&[u8]) -> u32) -> Found {
    struct Entry {
        g: u32,
        /// The blank's cell in the parent (for parent pruning and the path).
        parent: Option<usize>,
        closed: bool,
    }
    let mut states: HashMap<Vec<u8>, Entry> = HashMap::new();
    // Max-heap on (smallest f, largest g, last pushed).
    let mut open: BinaryHeap<(Reverse<u32>, u32, u64, Vec<u8>)> = BinaryHeap::new();
    let mut seq = 0u64;
    let h0 = h(start);
    states.insert(
        start.to_vec(),
        Entry {
            g: 0,
            parent: None,
            closed: false,
        },
    );
    open.push((Reverse(h0), 0, seq, start.to_vec()));
    let (mut expanded, mut generated, mut reopened) = (0u64, 0u64, 0u64);
    let last_f = loop {
        let (Reverse(f), g, _, tiles) = open.pop().expect("A* exhausted a solvable board");
        let entry = &states[&tiles];
        if entry.g != g {
            continue;
        }
        if tiles == space.goal {
            break f;
        }
        let parent = entry.parent;
        states.get_mut(&tiles).unwrap().closed = true;
        expanded += 1;
        let blank = blank_of(&tiles);
        for to in blank_moves(space.width, space.height, blank) {
            if Some(to) == parent {
                continue;
            }
            generated += 1;
            let child = moved(&tiles, blank, to);
            let hc = h(&child);
            let gc = g + 1;
            let fresh = Entry {
                g: gc,
                parent: Some(blank),
                closed: false,
            };
            match states.get_mut(&child) {
                Some(old) if gc >= old.g => continue,
                Some(old) => {
                    reopened += u64::from(old.closed);
                    *old = fresh;
                }
                None => {
                    states.insert(child.clone(), fresh);
                }
            }
            seq += 1;
            open.push((Reverse(gc + hc), gc, seq, child));
        }
    };
    // The path, back from the goal through the parents' blank cells.
    let mut path = Vec::new();
    let mut tiles = space.goal.to_vec();
    while let Some(parent) = states[&tiles].parent {
        let blank = blank_of(&tiles);
        path.push(blank);
        tiles.swap(blank, parent);
    }
    path.reverse();
    Found {
        iterations: vec![Counts {
            bound: last_f,
            expanded,
            generated,
        }],
        path,
        reopened,
        stored: states.len() as u64,
    }
}

/// Breadth-first search with a queue of (board, depth, parent's blank) and a set of stored
/// boards.
pub fn bfs(space: &Space, start: &[u8]) -> Found {
    let mut seen: HashSet<Vec<u8>> = HashSet::from([start.to_vec()]);
    let mut queue: Vec<(Vec<u8>, u32, Option<usize>)> = vec![(start.to_vec(), 0, None)];
    let (mut expanded, mut generated, mut depth) = (0u64, 0u64, 0u32);
    let mut cursor = 0;
    let mut reached = false;
    while start != space.goal && !reached {
        let (tiles, g, parent) = queue[cursor].clone();
        cursor += 1;
        expanded += 1;
        depth = g + 1;
        let blank = blank_of(&tiles);
        for to in blank_moves(space.width, space.height, blank) {
            if Some(to) == parent {
                continue;
            }
            generated += 1;
            let child = moved(&tiles, blank, to);
            if child == space.goal {
                reached = true;
                break;
            }
            if seen.insert(child.clone()) {
                queue.push((child, depth, Some(blank)));
            }
        }
    }
    Found {
        iterations: vec![Counts {
            bound: depth,
            expanded,
            generated,
        }],
        path: Vec::new(),
        reopened: 0,
        stored: seen.len() as u64,
    }
}
