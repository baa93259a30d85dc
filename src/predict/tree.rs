//! N_i: the nodes at depth i of the brute-force search tree with parent pruning, by the blank's
//! cell, from an exact recurrence (Korf, Reid & Edelkamp 2001, section 4).
//!
//! With parent pruning, a node's children depend only on the blank's cell and the move that led
//! there; so the count of nodes at depth i + 1 with the blank at cell c' after move m is the sum,
//! over the cells c that reach c' by m, of the nodes at depth i at c whose last move was not the
//! opposite of m. Counting by (cell, last move) makes the recurrence exact.

use crate::board::Size;
use crate::moves::MoveTable;

/// No move yet (the root): every operator is allowed.
const NONE: usize = 4;

/// The tree below one start cell, to `depth`: `nodes[i][c]` nodes at depth i with the blank at c,
/// and `children[i][c]` the children (after parent pruning) those nodes have.
#[derive(Debug, Clone, PartialEq)]
pub struct TreeCounts {
    pub nodes: Vec<Vec<f64>>,
    pub children: Vec<Vec<f64>>,
}

/// Exact counts from one start cell (`u128`: 2.2^80 still fits).
pub(crate) fn exact_counts(
    size: Size,
    start: usize,
    depth: usize,
) -> (Vec<Vec<u128>>, Vec<Vec<u128>>) {
    let cells = size.cells();
    let moves = MoveTable::new(size);
    // by[cell * 5 + last]
    let mut by = vec![0u128; cells * 5];
    by[start * 5 + NONE] = 1;
    let (mut nodes, mut children) = (Vec::new(), Vec::new());
    for _ in 0..=depth {
        let mut next = vec![0u128; cells * 5];
        let mut n_here = vec![0u128; cells];
        let mut k_here = vec![0u128; cells];
        for c in 0..cells {
            for last in 0..5 {
                let n = by[c * 5 + last];
                if n == 0 {
                    continue;
                }
                n_here[c] += n;
                for op in moves.ops(c) {
                    if last != NONE && op.dir as usize == 3 - last {
                        continue;
                    }
                    k_here[c] += n;
                    next[op.to as usize * 5 + op.dir as usize] += n;
                }
            }
        }
        nodes.push(n_here);
        children.push(k_here);
        by = next;
    }
    (nodes, children)
}

/// The expected counts when the start's blank is in cell c with probability `weights[c]` (for
/// uniformly random solvable starts every cell is equally likely: each has the same number of
/// solvable boards).
pub fn tree_counts(size: Size, weights: &[f64], depth: usize) -> TreeCounts {
    let cells = size.cells();
    let mut out = TreeCounts {
        nodes: vec![vec![0.0; cells]; depth + 1],
        children: vec![vec![0.0; cells]; depth + 1],
    };
    for (start, &w) in weights.iter().enumerate().take(cells) {
        if w == 0.0 {
            continue;
        }
        let (n, k) = exact_counts(size, start, depth);
        for i in 0..=depth {
            for c in 0..cells {
                out.nodes[i][c] += w * n[i][c] as f64;
                out.children[i][c] += w * k[i][c] as f64;
            }
        }
    }
    out
}

/// Equal weight on every cell.
pub fn uniform_weights(size: Size) -> Vec<f64> {
    vec![1.0 / size.cells() as f64; size.cells()]
}

/// The asymptotic branching factor of the brute-force tree with parent pruning (Korf, Reid &
/// Edelkamp 2001): √3 ≈ 1.732 on 3×3, 2.1304 on 4×4, 2.3676 on 5×5. Taken over two levels deep
/// in the tree, because on boards of even width the counts alternate with the blank's colour.
pub(crate) fn asymptotic_branching(size: Size) -> f64 {
    const DEPTH: usize = 80;
    let t = tree_counts(size, &uniform_weights(size), DEPTH);
    let total = |i: usize| t.nodes[i].iter().sum::<f64>();
    (total(DEPTH) / total(DEPTH - 2)).sqrt()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::moves::{step, Dir};

    /// Counts the tree by walking it: nodes per depth, by the blank's cell.
    fn brute(size: Size, blank: usize, back: Option<Dir>, d: usize, out: &mut [Vec<u128>]) {
        out[d][blank] += 1;
        if d + 1 == out.len() {
            return;
        }
        for dir in Dir::ORDER {
            if Some(dir) == back {
                continue;
            }
            if let Some(to) = step(size, blank, dir) {
                brute(size, to, Some(dir.opposite()), d + 1, out);
            }
        }
    }

    #[test]
    fn recurrence_matches_a_brute_force_count_of_the_tree() {
        for (w, h, depth) in [(4, 4, 12), (3, 3, 14), (5, 5, 9), (4, 3, 11)] {
            let size = Size::new(w, h).unwrap();
            for start in 0..size.cells() {
                let (nodes, children) = exact_counts(size, start, depth);
                let mut walked = vec![vec![0u128; size.cells()]; depth + 1];
                brute(size, start, None, 0, &mut walked);
                assert_eq!(nodes, walked, "{size} from {start}");
                for i in 0..depth {
                    let k: u128 = children[i].iter().sum();
                    assert_eq!(k, nodes[i + 1].iter().sum::<u128>());
                }
            }
        }
    }

    #[test]
    fn asymptotic_branching_factors_are_the_published_ones() {
        // Korf, Reid & Edelkamp (2001), table 1: 8-puzzle √3, 15-puzzle 2.1304, 24-puzzle 2.3676.
        for (side, b) in [(3, 3f64.sqrt()), (4, 2.1304), (5, 2.3676)] {
            let found = asymptotic_branching(Size::new(side, side).unwrap());
            assert!(
                (found - b).abs() < 0.0005,
                "{side}x{side}: {found}, published {b}"
            );
        }
    }

    #[test]
    fn a_fixed_bound_search_with_a_zero_heuristic_walks_the_brute_force_tree() {
        // With h = 0 everywhere, the iteration walks the whole brute-force tree to the
        // threshold, which the recurrence counts exactly.
        use crate::board::{Goal, Grid};
        use crate::heuristic::{Heuristic, Prepared};
        use crate::search::{solve, Mode, SearchOptions};
        #[derive(Debug)]
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
        let goal = Goal::blank_first(size);
        let (nodes, children) = exact_counts(size, 0, 10);
        let options = SearchOptions {
            mode: Mode::FixedBound(9),
            ..SearchOptions::default()
        };
        let r = solve(Some(&Prepared::of(Zero)), &goal.as_board(), &goal, &options)
            .unwrap()
            .result;
        let sum = |v: &[Vec<u128>], upto: usize| -> u128 {
            v[..=upto].iter().map(|r| r.iter().sum::<u128>()).sum()
        };
        assert_eq!(r.expanded() as u128, sum(&nodes, 9));
        assert_eq!(r.generated() as u128, sum(&children, 9));
    }
}
