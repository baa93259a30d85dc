//! Breadth-first search: the ground truth the optimal searches and the heuristics are checked
//! against, wherever the state space is small enough.

use std::collections::{HashSet, VecDeque};

use crate::board::{Board, Goal};
use crate::moves::{step, Dir};

/// Largest board [`distances`] accepts: 9 cells, 9! = 362,880 states.
pub const MAX_EXHAUSTIVE_CELLS: usize = 9;

/// Marks a state the breadth-first search never reached (the other parity class).
pub const UNREACHED: u8 = u8::MAX;

/// The lexicographic rank of a permutation of `0..n` (Lehmer code), a perfect index in `0..n!`.
pub fn rank(tiles: &[u8]) -> usize {
    let n = tiles.len();
    let mut r = 0;
    for i in 0..n {
        let smaller_after = tiles[i + 1..].iter().filter(|&&t| t < tiles[i]).count();
        r = r * (n - i) + smaller_after;
    }
    r
}

/// The permutation of `0..n` with lexicographic rank `r`.
pub fn unrank(mut r: usize, n: usize) -> Vec<u8> {
    let mut digits = vec![0usize; n];
    for i in (0..n).rev() {
        let base = n - i;
        digits[i] = r % base;
        r /= base;
    }
    let mut free: Vec<u8> = (0..n as u8).collect();
    digits.iter().map(|&d| free.remove(d)).collect()
}

/// The exact distance of every board to `goal`, indexed by [`rank`] of its tiles, for boards of
/// at most [`MAX_EXHAUSTIVE_CELLS`] cells. Unsolvable boards hold [`UNREACHED`].
pub fn distances(goal: &Goal) -> Vec<u8> {
    let size = goal.size();
    let n = size.cells();
    assert!(
        n <= MAX_EXHAUSTIVE_CELLS,
        "exhaustive BFS is for boards of at most 9 cells"
    );
    let total: usize = (1..=n).product();
    let mut dist = vec![UNREACHED; total];
    let start = goal.tiles().to_vec();
    dist[rank(&start)] = 0;
    let mut queue = VecDeque::from([start]);
    while let Some(tiles) = queue.pop_front() {
        let d = dist[rank(&tiles)];
        let blank = tiles.iter().position(|&t| t == 0).unwrap_or(0);
        for dir in Dir::ORDER {
            if let Some(to) = step(size, blank, dir) {
                let mut next = tiles.clone();
                next.swap(blank, to);
                let r = rank(&next);
                if dist[r] == UNREACHED {
                    dist[r] = d + 1;
                    queue.push_back(next);
                }
            }
        }
    }
    dist
}

/// The exact distance from `board` to `goal` if it is at most `max_depth`, by breadth-first
/// search from the board (for scrambles of large boards).
pub fn distance_within(board: &Board, goal: &Goal, max_depth: usize) -> Option<usize> {
    let size = board.size();
    let mut seen: HashSet<Vec<u8>> = HashSet::from([board.tiles().to_vec()]);
    let mut frontier = vec![board.tiles().to_vec()];
    for depth in 0..=max_depth {
        if frontier.iter().any(|t| t == goal.tiles()) {
            return Some(depth);
        }
        let mut next_frontier = Vec::new();
        for tiles in &frontier {
            let blank = tiles.iter().position(|&t| t == 0).unwrap_or(0);
            for dir in Dir::ORDER {
                if let Some(to) = step(size, blank, dir) {
                    let mut next = tiles.clone();
                    next.swap(blank, to);
                    if seen.insert(next.clone()) {
                        next_frontier.push(next);
                    }
                }
            }
        }
        frontier = next_frontier;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Size;

    #[test]
    fn rank_is_a_bijection() {
        for r in 0..120 {
            assert_eq!(rank(&unrank(r, 5)), r);
        }
        assert_eq!(rank(&[0, 1, 2]), 0);
        assert_eq!(rank(&[2, 1, 0]), 5);
    }

    #[test]
    fn half_the_states_are_reachable() {
        let goal = Goal::blank_last(Size::new(3, 2).unwrap());
        let d = distances(&goal);
        assert_eq!(d.iter().filter(|&&x| x != UNREACHED).count(), 360);
        // The 2×3 puzzle's hardest positions need 21 moves.
        assert_eq!(d.iter().filter(|&&x| x != UNREACHED).max(), Some(&21));
    }
}
