//! One start's IDA* iterations, predicted from conditional distributions (Zahavi, Felner,
//! Burch & Holte 2010, "Predicting the performance of IDA* using conditional distributions",
//! Journal of Artificial Intelligence Research 37:41–83; "CDP").
//!
//! KRE ([`super::predict`]) gives the mean over random starts, which boards of small h dominate:
//! on Korf's 15-puzzle instances it comes out 100–250 times the nodes each one needs. CDP
//! follows the start's own h down the tree instead. With p(v' | c, o, v) the chance that
//! operator o, from a state with the blank at c and h = v, leads to a child with h = v', the
//! expected nodes at depth i + 1 with blank cell c', last move o and h = v' are
//!
//!   N_{i+1}(c', o, v') = Σ N_i(c, m, v) · p(v' | c, o, v)   over i + v ≤ d and o ≠ reverse(m),
//!
//! from the start alone at depth 0; a node is expanded when i + v ≤ d, and each expanded node
//! generates its operators' children (as IDA* counts them, after parent pruning).
//!
//! p is sampled from uniformly random boards; a value of h no sample had takes the change of h
//! seen at the nearest sampled value (deep in the tree, where h is small, that is the nearest
//! random board's: sampling there from random walks out of the goal was tried and predicted
//! several times more nodes on Korf's instances, and so was conditioning on the change of h
//! that led to the node).

use crate::board::{Board, Goal};
use crate::instances::generate::{uniform, Draw};
use crate::moves::{Dir, MoveTable};

/// No move yet (the root): every operator is allowed.
const NONE: usize = 4;

/// p(v' | c, o, v), as counts of the change Δ = v' − v.
#[derive(Debug, Clone)]
pub struct Conditional {
    moves: MoveTable,
    cells: usize,
    /// `by[c * 4 + o][v]`: (Δ, how often) over the sampled boards with the blank at c and h = v.
    by: Vec<Vec<Vec<(i32, u64)>>>,
}

impl Conditional {
    /// Samples `samples` uniformly random boards for `goal` (the stream `tilebench gen` draws
    /// from `seed`) and the h of each of their children; `h` evaluates a whole board.
    ///
    /// ```
    /// use tilebench::board::{Board, Goal};
    /// use tilebench::heuristic::{Heuristic, Manhattan};
    /// use tilebench::predict::Conditional;
    ///
    /// let board = Board::parse("8 6 7 2 5 4 3 0 1", None).unwrap();
    /// let goal = Goal::blank_last(board.size());
    /// let md = Manhattan::new(&goal);
    /// let cdp = Conditional::sample(&|b: &Board| md.evaluate(b), &goal, 20_000, 1);
    /// let h0 = md.evaluate(&board);
    /// let (first, next) = (cdp.iteration(&board, h0, h0).1, cdp.iteration(&board, h0, h0 + 2).1);
    /// assert!(1.0 <= first && first < next);
    /// ```
    pub fn sample(h: &dyn Fn(&Board) -> u32, goal: &Goal, samples: u64, seed: u64) -> Conditional {
        let cells = goal.size().cells();
        let mut c = Conditional {
            moves: MoveTable::new(goal.size()),
            cells,
            by: vec![Vec::new(); cells * 4],
        };
        let mut draw = Draw::new(seed);
        for _ in 0..samples {
            c.record(h, &uniform(&mut draw, goal));
        }
        c
    }

    /// Counts the change of h over each operator of `board`.
    fn record(&mut self, h: &dyn Fn(&Board) -> u32, board: &Board) {
        let v = h(board);
        let blank = board.blank();
        for i in 0..self.moves.ops(blank).len() {
            let dir = self.moves.ops(blank)[i].dir;
            let mut child = board.clone();
            // The operator table holds only moves that stay on the board.
            if child.apply(Dir::from_index(dir)).is_err() {
                continue;
            }
            let row = &mut self.by[blank * 4 + dir as usize];
            let (v, delta) = (v as usize, h(&child) as i32 - v as i32);
            if row.len() <= v {
                row.resize(v + 1, Vec::new());
            }
            match row[v].iter_mut().find(|(d, _)| *d == delta) {
                Some((_, n)) => *n += 1,
                None => row[v].push((delta, 1)),
            }
        }
    }

    /// The sampled changes of h for operator `dir` from `cell` at h = `v`, or at the nearest
    /// sampled value (empty only when nothing was sampled there).
    fn changes(&self, cell: usize, dir: usize, v: usize) -> &[(i32, u64)] {
        let row = &self.by[cell * 4 + dir];
        (0..row.len().max(v + 1))
            .flat_map(|k| [v.checked_sub(k), Some(v + k)])
            .flatten()
            .find_map(|w| row.get(w).filter(|r| !r.is_empty()))
            .map_or(&[], |r| &r[..])
    }

    /// The expected (expanded, generated) nodes of one complete iteration with threshold `bound`
    /// from `board`, whose h is `h0` (the start counted generated, as IDA* counts it).
    pub fn iteration(&self, board: &Board, h0: u32, bound: u32) -> (f64, f64) {
        let d = bound as usize;
        if h0 as usize > d {
            return (0.0, 1.0);
        }
        let width = d + 1;
        let at = |cell: usize, last: usize, v: usize| (cell * 5 + last) * width + v;
        let key = |cell: usize, dir: usize, v: usize| (cell * 4 + dir) * width + v;
        // The changes per (cell, operator, v) as probabilities, once per call.
        let mut probs: Vec<Vec<(i32, f64)>> = vec![Vec::new(); self.cells * 4 * width];
        for cell in 0..self.cells {
            for op in self.moves.ops(cell) {
                for v in 0..width {
                    let ch = self.changes(cell, op.dir as usize, v);
                    let total = ch.iter().map(|c| c.1).sum::<u64>() as f64;
                    probs[key(cell, op.dir as usize, v)] = ch
                        .iter()
                        .map(|&(delta, n)| (delta, n as f64 / total))
                        .collect();
                }
            }
        }
        let mut level = vec![0.0f64; self.cells * 5 * width];
        level[at(board.blank(), NONE, h0 as usize)] = 1.0;
        let (mut expanded, mut generated) = (0.0, 1.0);
        for i in 0..=d {
            let mut next = vec![0.0f64; level.len()];
            let mut any = false;
            for cell in 0..self.cells {
                for last in 0..5 {
                    for v in 0..=(d - i) {
                        let n = level[at(cell, last, v)];
                        if n == 0.0 {
                            continue;
                        }
                        expanded += n;
                        for op in self.moves.ops(cell) {
                            let dir = op.dir as usize;
                            if last != NONE && dir == 3 - last {
                                continue;
                            }
                            generated += n;
                            for &(delta, p) in &probs[key(cell, dir, v)] {
                                let w = v as i64 + delta as i64;
                                if w >= 0 && i + 1 + w as usize <= d {
                                    next[at(op.to as usize, dir, w as usize)] += n * p;
                                    any = true;
                                }
                            }
                        }
                    }
                }
            }
            if !any {
                break;
            }
            level = next;
        }
        (expanded, generated)
    }

    /// The nodes IDA* generates on `board` (h = `h0`) to its `optimal` length: every iteration
    /// from `h0` (stepping by 2 when h and the length have the same parity, as for Manhattan
    /// distance and additive pattern databases, else by 1), the last at half, since IDA* stops
    /// at the goal part way through it.
    pub fn ida_nodes(&self, board: &Board, h0: u32, optimal: u32) -> f64 {
        let step = if optimal.saturating_sub(h0).is_multiple_of(2) {
            2
        } else {
            1
        };
        (h0..=optimal)
            .step_by(step)
            .map(|d| {
                let n = self.iteration(board, h0, d).1;
                if d + step as u32 > optimal {
                    n / 2.0
                } else {
                    n
                }
            })
            .sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Size;
    use crate::heuristic::{Heuristic, Manhattan, Prepared};
    use crate::search::{solve, Mode, SearchOptions};

    /// On the 8-puzzle, per board: CDP's prediction of a complete iteration against the count of
    /// a fixed-bound search, for boards of every kind of h(start) and bounds past it.
    #[test]
    fn predicts_single_8_puzzle_starts_closely() {
        let size = Size::new(3, 3).unwrap();
        let goal = Goal::blank_last(size);
        let md = Manhattan::new(&goal);
        let cdp = Conditional::sample(&|b: &Board| md.evaluate(b), &goal, 200_000, 1);
        let prepared = Prepared::of(md.clone());
        let mut draw = Draw::new(5);
        let mut log_errors = Vec::new();
        for _ in 0..200 {
            let board = uniform(&mut draw, &goal);
            let h0 = md.evaluate(&board);
            let bound = h0 + 8;
            let options = SearchOptions {
                mode: Mode::FixedBound(bound),
                ..SearchOptions::default()
            };
            let measured = solve(Some(&prepared), &board, &goal, &options)
                .unwrap()
                .result
                .generated() as f64;
            let (_, predicted) = cdp.iteration(&board, h0, bound);
            log_errors.push((predicted / measured).ln());
        }
        let mean = log_errors.iter().sum::<f64>() / log_errors.len() as f64;
        let spread =
            (log_errors.iter().map(|e| e * e).sum::<f64>() / log_errors.len() as f64).sqrt();
        // Geometric mean of predicted / measured within 30 %, and a typical board within 2×.
        assert!(
            mean.abs() < 0.3f64.ln_1p(),
            "geometric mean ratio {}",
            mean.exp()
        );
        assert!(spread < 2f64.ln(), "typical factor {}", spread.exp());
    }
}
