//! Breadth-first search: the ground truth the optimal searches and the heuristics are checked
//! against, wherever the state space is small enough.
//!
//! The oracle has its own move generation ([`blank_moves`], row and column arithmetic) and shares
//! no code with `moves`, `Board::apply` or the pattern-database builder, so a mistake there
//! (a move that wraps around a row edge, say) cannot hide by being made on both sides.

use std::collections::{HashMap, HashSet, VecDeque};

use crate::board::{Board, Goal, Size};

/// The cells the blank can reach in one move from `cell` on a board `width` cells wide and
/// `height` high: the cells one row or one column away that lie on the board.
pub fn blank_moves(width: usize, height: usize, cell: usize) -> impl Iterator<Item = usize> {
    let (row, col) = ((cell / width) as isize, (cell % width) as isize);
    [(-1isize, 0isize), (0, -1), (0, 1), (1, 0)]
        .into_iter()
        .map(move |(dr, dc)| (row + dr, col + dc))
        .filter(move |&(r, c)| r >= 0 && c >= 0 && r < height as isize && c < width as isize)
        .map(move |(r, c)| r as usize * width + c as usize)
}

/// The boards one move away from `tiles` (row-major, `0` the blank).
fn successors(size: Size, tiles: &[u8]) -> impl Iterator<Item = Vec<u8>> + '_ {
    let blank = tiles.iter().position(|&t| t == 0).unwrap_or(0);
    blank_moves(size.width as usize, size.height as usize, blank).map(move |to| {
        let mut next = tiles.to_vec();
        next.swap(blank, to);
        next
    })
}

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
        for next in successors(size, &tiles) {
            let r = rank(&next);
            if dist[r] == UNREACHED {
                dist[r] = d + 1;
                queue.push_back(next);
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
            for next in successors(size, tiles) {
                if seen.insert(next.clone()) {
                    next_frontier.push(next);
                }
            }
        }
        frontier = next_frontier;
    }
    None
}

/// The exact distance from `board` to `goal` if it is at most `max_depth`, by breadth-first
/// search from both ends at once (each side to about half the depth), so that 15-puzzle boards
/// up to about 36 moves away are in reach.
pub fn distance_bidirectional(board: &Board, goal: &Goal, max_depth: usize) -> Option<usize> {
    let size = board.size();
    // Depth of every board seen from each end; the frontiers are the boards at the deepest level.
    let mut seen: [HashMap<Vec<u8>, usize>; 2] = [
        HashMap::from([(board.tiles().to_vec(), 0)]),
        HashMap::from([(goal.tiles().to_vec(), 0)]),
    ];
    let mut frontier = [vec![board.tiles().to_vec()], vec![goal.tiles().to_vec()]];
    let mut depth = [0usize; 2];
    loop {
        // The shortest path through a board seen from both sides; a level-by-level search finds
        // it once a board of the newest level is seen from the other side.
        let best = frontier[0]
            .iter()
            .chain(&frontier[1])
            .filter_map(|t| Some(seen[0].get(t)? + seen[1].get(t)?))
            .min();
        if let Some(d) = best {
            return (d <= max_depth).then_some(d);
        }
        if depth[0] + depth[1] >= max_depth {
            return None;
        }
        // Grow the smaller frontier by one level.
        let side = usize::from(frontier[1].len() < frontier[0].len());
        let mut next_frontier = Vec::new();
        for tiles in &frontier[side] {
            for next in successors(size, tiles) {
                if !seen[side].contains_key(&next) {
                    seen[side].insert(next.clone(), depth[side] + 1);
                    next_frontier.push(next);
                }
            }
        }
        depth[side] += 1;
        frontier[side] = next_frontier;
    }
}

/// How many solvable boards lie at each distance from `goal` (index = distance).
#[cfg(test)]
pub(crate) fn depth_counts(goal: &Goal) -> Vec<usize> {
    let dist = distances(goal);
    let max = dist
        .iter()
        .filter(|&&d| d != UNREACHED)
        .max()
        .copied()
        .unwrap_or(0);
    let mut counts = vec![0; max as usize + 1];
    for &d in dist.iter().filter(|&&d| d != UNREACHED) {
        counts[d as usize] += 1;
    }
    counts
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

    /// Every move of the oracle changes the blank's row plus column by exactly 1 and stays on
    /// the board; every cell has 2, 3 or 4 moves; each move can be undone.
    #[test]
    fn every_move_changes_row_plus_column_by_exactly_one() {
        for (w, h) in (2..=5).flat_map(|w| (2..=5).map(move |h| (w, h))) {
            let mut edges = 0;
            for cell in 0..w * h {
                let targets: Vec<usize> = blank_moves(w, h, cell).collect();
                let interior_rows = usize::from(cell / w > 0) + usize::from(cell / w + 1 < h);
                let interior_cols = usize::from(cell % w > 0) + usize::from(cell % w + 1 < w);
                assert_eq!(
                    targets.len(),
                    interior_rows + interior_cols,
                    "{w}x{h} cell {cell}"
                );
                for to in targets {
                    assert!(to < w * h, "{w}x{h}: {cell} -> {to} leaves the board");
                    let (dr, dc) = ((cell / w).abs_diff(to / w), (cell % w).abs_diff(to % w));
                    assert_eq!(dr + dc, 1, "{w}x{h}: {cell} -> {to}");
                    assert!(blank_moves(w, h, to).any(|back| back == cell));
                    edges += 1;
                }
            }
            // Each of the (w−1)·h horizontal and w·(h−1) vertical adjacencies, both ways.
            assert_eq!(edges, 2 * ((w - 1) * h + w * (h - 1)), "{w}x{h}");
        }
    }

    /// The 8-puzzle's distance distribution against the published sequences: OEIS A089473
    /// (blank in a corner), A089474 (blank in the centre) and A089483 (blank mid-side), by Hugo
    /// Pfoertner after Reinefeld (IJCAI 1993), https://oeis.org/A089473: 181,440 states,
    /// maximum 31 moves (30 from the centre).
    #[test]
    fn eight_puzzle_depth_counts_are_oeis_a089473_a089474_a089483() {
        const CORNER: [usize; 32] = [
            1, 2, 4, 8, 16, 20, 39, 62, 116, 152, 286, 396, 748, 1024, 1893, 2512, 4485, 5638,
            9529, 10878, 16993, 17110, 23952, 20224, 24047, 15578, 14560, 6274, 3910, 760, 221, 2,
        ];
        const CENTRE: [usize; 31] = [
            1, 4, 8, 8, 16, 32, 60, 72, 136, 200, 376, 512, 964, 1296, 2368, 3084, 5482, 6736,
            11132, 12208, 18612, 18444, 24968, 19632, 22289, 13600, 11842, 4340, 2398, 472, 148,
        ];
        const MID_SIDE: [usize; 32] = [
            1, 3, 5, 10, 14, 28, 42, 80, 108, 202, 278, 524, 726, 1348, 1804, 3283, 4193, 7322,
            8596, 13930, 14713, 21721, 19827, 25132, 18197, 18978, 9929, 7359, 2081, 878, 126, 2,
        ];
        let s = Size::new(3, 3).unwrap();
        for (goal, want) in [
            (Goal::blank_last(s), &CORNER[..]),
            (Goal::blank_first(s), &CORNER[..]),
            (Goal::spiral(s), &CENTRE[..]),
            (
                Goal::from_tiles(s, &[1, 0, 2, 3, 4, 5, 6, 7, 8]).unwrap(),
                &MID_SIDE[..],
            ),
        ] {
            let counts = depth_counts(&goal);
            assert_eq!(counts, want, "{}", goal.name());
            assert_eq!(counts.iter().sum::<usize>(), 181_440);
        }
        assert_eq!(depth_counts(&Goal::blank_last(s)).len() - 1, 31);
    }

    /// The bidirectional search agrees with the exhaustive one on every solvable 2×3 board, and
    /// gives up beyond its depth.
    #[test]
    fn bidirectional_distance_equals_exhaustive_bfs() {
        for s in [Size::new(3, 2).unwrap(), Size::new(2, 3).unwrap()] {
            let goal = Goal::blank_last(s);
            let dist = distances(&goal);
            for (r, &d) in dist.iter().enumerate() {
                let b = Board::from_tiles(s, &unrank(r, 6)).unwrap();
                let want = (d != UNREACHED).then_some(d as usize);
                assert_eq!(distance_bidirectional(&b, &goal, 25), want, "{b}");
                assert_eq!(distance_within(&b, &goal, 25), want, "{b}");
                if d != UNREACHED && d > 0 {
                    assert_eq!(distance_bidirectional(&b, &goal, d as usize - 1), None);
                }
            }
        }
    }
}
