//! P(v): how the heuristic's values are distributed over the states at depth i of the tree, for
//! large i (KRE's "equilibrium distribution"), estimated from random states, by the blank's cell.
//!
//! Why random states: deep in the brute-force tree, the nodes with the blank in cell c are
//! (nearly) uniformly spread over the solvable boards with the blank in c: the tree's walks mix
//! the tiles, but the blank's cell is not uniform in the tree (cells with more neighbours have
//! more nodes). So the equilibrium distribution is Σ_c w_c · P_c(v), with w_c the tree's
//! fraction of nodes at c and P_c the distribution of h over uniformly random solvable boards
//! with the blank at c. KRE (2001) do the same by blank *type* (corner, side, middle) for the
//! 15-puzzle; we keep one distribution per cell, and [`super::predict`] weights each by the exact
//! count of tree nodes at that cell from [`super::tree`], so no w_c needs estimating.

use crate::board::{Board, Goal};
use crate::instances::generate::{uniform, Draw};

/// Sampled heuristic values: `counts[c][v]` boards with the blank at c and h = v.
#[derive(Debug, Clone, PartialEq)]
pub struct Distribution {
    pub counts: Vec<Vec<u64>>,
    pub samples: u64,
}

impl Distribution {
    /// Draws `samples` uniformly random solvable boards for `goal` from the seeded stream that
    /// `tilebench gen` uses; `h` evaluates a whole board.
    pub fn sample(h: &dyn Fn(&Board) -> u32, goal: &Goal, samples: u64, seed: u64) -> Distribution {
        let cells = goal.size().cells();
        let mut counts = vec![Vec::new(); cells];
        let mut draw = Draw::new(seed);
        for _ in 0..samples {
            let board = uniform(&mut draw, goal);
            let v = h(&board) as usize;
            let row = &mut counts[board.blank()];
            if row.len() <= v {
                row.resize(v + 1, 0);
            }
            row[v] += 1;
        }
        Distribution { counts, samples }
    }

    /// All cells together: `result[v]` boards with h = v.
    pub fn overall(&self) -> Vec<u64> {
        let len = self.counts.iter().map(Vec::len).max().unwrap_or(0);
        let mut all = vec![0u64; len];
        for row in &self.counts {
            for (v, n) in row.iter().enumerate() {
                all[v] += n;
            }
        }
        all
    }

    /// P_c(v): the fraction of the boards with the blank at `cell` that have h ≤ v (the overall
    /// fraction when no sample had the blank there).
    pub(crate) fn at_most(&self, cell: usize, v: i64) -> f64 {
        if v < 0 {
            return 0.0;
        }
        let row = &self.counts[cell];
        let total: u64 = row.iter().sum();
        let (row, total) = if total == 0 {
            let all = self.overall();
            (all.clone(), all.iter().sum())
        } else {
            (row.clone(), total)
        };
        if total == 0 {
            return 0.0;
        }
        let upto = (v as usize + 1).min(row.len());
        row[..upto].iter().sum::<u64>() as f64 / total as f64
    }

    /// The cumulative fractions by cell, precomputed: `table[c][v]` = P_c(v) for v < `len`.
    pub fn cumulative(&self, len: usize) -> Vec<Vec<f64>> {
        (0..self.counts.len())
            .map(|c| (0..len).map(|v| self.at_most(c, v as i64)).collect())
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Size;
    use crate::heuristic::{Heuristic, Manhattan};

    #[test]
    fn seeded_sampling_is_reproducible_and_parity_bound() {
        let goal = Goal::blank_last(Size::new(4, 4).unwrap());
        let md = Manhattan::new(&goal);
        let md = |b: &Board| md.evaluate(b);
        let a = Distribution::sample(&md, &goal, 20_000, 9);
        assert_eq!(a, Distribution::sample(&md, &goal, 20_000, 9));
        assert_eq!(a.overall().iter().sum::<u64>(), 20_000);
        // Manhattan's parity is fixed by the blank's cell on solvable boards.
        for (c, row) in a.counts.iter().enumerate() {
            let parities: Vec<usize> = (0..row.len())
                .filter(|&v| row[v] > 0)
                .map(|v| v % 2)
                .collect();
            assert!(parities.windows(2).all(|w| w[0] == w[1]), "cell {c}");
        }
        // Random 15-puzzle boards average about 37 (Korf & Felner's Manhattan h(start) 36.94).
        let all = a.overall();
        let mean = all
            .iter()
            .enumerate()
            .map(|(v, n)| v as f64 * *n as f64)
            .sum::<f64>()
            / 20_000.0;
        assert!((mean - 37.0).abs() < 0.5, "{mean}");
        assert_eq!(a.at_most(0, -1), 0.0);
        assert_eq!(a.at_most(0, 200), 1.0);
    }
}
