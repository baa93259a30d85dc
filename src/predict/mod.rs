//! Predicting the work of IDA* before searching (Korf, Reid & Edelkamp 2001, "Time complexity of
//! iterative-deepening-A*", Artificial Intelligence 129:199–218; "KRE").
//!
//! A node at depth i is expanded in an iteration with threshold d when i + h ≤ d (for a
//! consistent heuristic its ancestors then pass too). With N_i(c) the nodes at depth i of the
//! brute-force tree with the blank at cell c ([`tree`]) and P_c(v) the fraction of states with
//! the blank at c and h ≤ v ([`distribution`]), the expected number of expanded nodes is
//!
//!   E(d) = Σ_i Σ_c N_i(c) · P_c(d − i),
//!
//! and the generated nodes are their children, Σ_i Σ_c K_i(c) · P_c(d − i), with K_i(c) the
//! children of the depth-i nodes at c. A fixed-bound search ([`crate::search::Mode::FixedBound`])
//! measures what this predicts: one complete iteration with threshold d, not stopping at the goal.
//!
//! What the prediction assumes: that the states deep in the tree have the equilibrium
//! distribution (near the root they are close to the start, whose own h is known to be ≤ d), and
//! that pruning a node prunes its subtree exactly when its own f exceeds d, which holds for
//! consistent heuristics (Manhattan, linear conflict, walking distance) but not for pattern
//! databases that take the minimum over the blank's regions (inconsistent: a node can pass
//! under a pruned ancestor), where the formula overcounts.

pub mod conditional;
pub mod distribution;
pub mod tree;

use std::fmt::Write as _;
use std::ops::RangeInclusive;

use thiserror::Error;

pub use conditional::Conditional;
pub use distribution::Distribution;
pub use tree::{tree_counts, uniform_weights, TreeCounts};

use crate::board::{Board, Goal};

/// Bad requests for a prediction.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum PredictError {
    #[error("bounds '{0}': expected A..B with whole numbers A ≤ B ≤ 255, e.g. 40..50")]
    BadBounds(String),
    #[error("--samples must be at least 1")]
    NoSamples,
}

/// Parses `A..B` (also `A..=B` or a single `A`).
pub fn parse_bounds(text: &str) -> Result<RangeInclusive<u32>, PredictError> {
    let bad = || PredictError::BadBounds(text.to_string());
    let t = text.trim();
    let (a, b) = match t.split_once("..") {
        Some((a, b)) => (a, b.trim_start_matches('=')),
        None => (t, t),
    };
    let a: u32 = a.trim().parse().map_err(|_| bad())?;
    let b: u32 = b.trim().parse().map_err(|_| bad())?;
    if a > b || b > 255 {
        return Err(bad());
    }
    Ok(a..=b)
}

/// The prediction for one threshold.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Prediction {
    pub bound: u32,
    pub expanded: f64,
    pub generated: f64,
}

/// KRE's formula for each bound, from the tree counts (to the largest bound) and the sampled
/// distribution. [`predict_random_starts`] does both steps for random starts.
///
/// ```
/// use tilebench::board::{Board, Goal, Size};
/// use tilebench::heuristic::{Heuristic, Manhattan};
/// use tilebench::predict::{predict, predict_random_starts, tree_counts, uniform_weights};
/// use tilebench::predict::Distribution;
///
/// let size = Size::new(3, 3).unwrap();
/// let goal = Goal::blank_last(size);
/// let md = Manhattan::new(&goal);
/// let md = |b: &Board| md.evaluate(b);
/// let dist = Distribution::sample(&md, &goal, 10_000, 1);
/// let tree = tree_counts(size, &uniform_weights(size), 24);
/// let rows = predict(&tree, &dist, 20..=24);
/// assert_eq!(rows.iter().map(|r| r.bound).collect::<Vec<_>>(), [20, 21, 22, 23, 24]);
/// // More work at every larger bound, and more nodes generated than expanded.
/// assert!(rows.windows(2).all(|w| w[0].expanded < w[1].expanded));
/// assert!(rows.iter().all(|r| r.generated > r.expanded));
/// // The same, sampled and predicted in one call.
/// let (again, _) = predict_random_starts(&md, &goal, 20..=24, 10_000, 1).unwrap();
/// assert_eq!(again, rows);
/// ```
pub fn predict(
    tree: &TreeCounts,
    dist: &Distribution,
    bounds: RangeInclusive<u32>,
) -> Vec<Prediction> {
    let len = *bounds.end() as usize + 1;
    let p = dist.cumulative(len);
    bounds
        .map(|d| {
            let (mut expanded, mut generated) = (0.0, 0.0);
            for i in 0..=(d as usize).min(tree.nodes.len() - 1) {
                let v = d as usize - i;
                for ((n, k), pc) in tree.nodes[i].iter().zip(&tree.children[i]).zip(&p) {
                    expanded += n * pc[v];
                    generated += k * pc[v];
                }
            }
            Prediction {
                bound: d,
                expanded,
                generated,
            }
        })
        .collect()
}

/// Samples the heuristic's distribution and predicts every bound, for random starts (the blank
/// equally likely in every cell); `h` evaluates a whole board.
pub fn predict_random_starts(
    h: &dyn Fn(&Board) -> u32,
    goal: &Goal,
    bounds: RangeInclusive<u32>,
    samples: u64,
    seed: u64,
) -> Result<(Vec<Prediction>, Distribution), PredictError> {
    if samples == 0 {
        return Err(PredictError::NoSamples);
    }
    let dist = Distribution::sample(h, goal, samples, seed);
    let size = goal.size();
    let tree = tree_counts(size, &uniform_weights(size), *bounds.end() as usize);
    Ok((predict(&tree, &dist, bounds), dist))
}

/// `bound,predicted_expanded,predicted_generated` rows.
pub(crate) fn predictions_csv(rows: &[Prediction]) -> String {
    let mut s = String::from("bound,predicted_expanded,predicted_generated\n");
    for r in rows {
        let _ = writeln!(s, "{},{:.1},{:.1}", r.bound, r.expanded, r.generated);
    }
    s
}

/// `h,samples,fraction,cumulative` rows over all cells.
pub(crate) fn distribution_csv(dist: &Distribution) -> String {
    let all = dist.overall();
    let total = dist.samples.max(1) as f64;
    let mut s = String::from("h,samples,fraction,cumulative\n");
    let mut cum = 0u64;
    for (v, &n) in all.iter().enumerate() {
        cum += n;
        let _ = writeln!(
            s,
            "{v},{n},{:.6},{:.6}",
            n as f64 / total,
            cum as f64 / total
        );
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Board, Size};
    use crate::heuristic::{Heuristic, Manhattan, Prepared};
    use crate::instances::generate::{uniform, Draw};
    use crate::search::{solve, Mode, SearchOptions};

    #[test]
    fn bounds_parse_with_clear_errors() {
        assert_eq!(parse_bounds("40..44").unwrap(), 40..=44);
        assert_eq!(parse_bounds("40..=44").unwrap(), 40..=44);
        assert_eq!(parse_bounds(" 7 ").unwrap(), 7..=7);
        for bad in ["44..40", "a..b", "1..300", ""] {
            assert!(parse_bounds(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn with_every_board_measured_the_prediction_is_the_mean_over_every_start() {
        // The module's claim: for a consistent heuristic and a start drawn uniformly from the
        // solvable boards, E(d) is the exact expected count of one complete iteration, its only
        // error the sampling of P. On 3×3, P can be measured over all 181,440 boards and the
        // iteration run from each of them: the two must agree to rounding, for expanded and
        // generated nodes, under both consistent heuristics, on two goals.
        use crate::brute_force::{distances, unrank, UNREACHED};
        use crate::heuristic::LinearConflict;
        let size = Size::new(3, 3).unwrap();
        let spiral = Goal::from_tiles(size, &[1, 2, 3, 8, 0, 4, 7, 6, 5]).unwrap();
        for goal in [Goal::blank_last(size), spiral] {
            let boards: Vec<Board> = distances(&goal)
                .iter()
                .enumerate()
                .filter(|&(_, &d)| d != UNREACHED)
                .map(|(r, _)| Board::from_tiles(size, &unrank(r, size.cells())).unwrap())
                .collect();
            assert_eq!(boards.len(), 181_440);
            let md = Manhattan::new(&goal);
            let lc = LinearConflict::new(&goal);
            let check = |name: &str,
                         h: &dyn Fn(&Board) -> u32,
                         searched: &dyn Fn(&Board, u32) -> (u64, u64)| {
                let mut counts = vec![Vec::new(); size.cells()];
                for b in &boards {
                    let (v, row): (usize, &mut Vec<u64>) = (h(b) as usize, &mut counts[b.blank()]);
                    if row.len() <= v {
                        row.resize(v + 1, 0);
                    }
                    row[v] += 1;
                }
                let every = Distribution {
                    counts,
                    samples: boards.len() as u64,
                };
                let tree = tree_counts(size, &uniform_weights(size), 18);
                for p in predict(&tree, &every, 10..=18) {
                    let (mut expanded, mut generated) = (0u64, 0u64);
                    for b in &boards {
                        let (e, g) = searched(b, p.bound);
                        expanded += e;
                        generated += g;
                    }
                    let n = boards.len() as f64;
                    for (what, predicted, mean) in [
                        ("expanded", p.expanded, expanded as f64 / n),
                        ("generated", p.generated, generated as f64 / n),
                    ] {
                        assert!(
                            (predicted - mean).abs() <= 1e-9 * mean.max(1.0),
                            "{name}, goal {}, bound {}: {what} predicted {predicted}, mean {mean}",
                            goal.name(),
                            p.bound
                        );
                    }
                }
            };
            let fixed = |h: &Prepared, b: &Board, d: u32| {
                let options = SearchOptions {
                    mode: Mode::FixedBound(d),
                    ..SearchOptions::default()
                };
                let r = solve(Some(h), b, &goal, &options).unwrap().result;
                (r.expanded(), r.generated())
            };
            let (pmd, plc) = (Prepared::of(md.clone()), Prepared::of(lc.clone()));
            check("manhattan", &|b| md.evaluate(b), &|b, d| fixed(&pmd, b, d));
            check("linear-conflict", &|b| lc.evaluate(b), &|b, d| {
                fixed(&plc, b, d)
            });
        }
    }

    #[test]
    fn predicts_the_8_puzzle_within_a_few_percent() {
        // On 3×3 the distribution can be sampled densely and the tree is small, so the
        // prediction should be close to the mean of complete iterations over random starts.
        let size = Size::new(3, 3).unwrap();
        let goal = Goal::blank_last(size);
        let md = Manhattan::new(&goal);
        let (pred, _) =
            predict_random_starts(&|b| md.evaluate(b), &goal, 20..=24, 200_000, 1).unwrap();
        let mut draw = Draw::new(2);
        let boards: Vec<Board> = (0..2000).map(|_| uniform(&mut draw, &goal)).collect();
        let md = Prepared::of(md);
        for p in &pred {
            let options = SearchOptions {
                mode: Mode::FixedBound(p.bound),
                ..SearchOptions::default()
            };
            let generated = |b| {
                solve(Some(&md), b, &goal, &options)
                    .unwrap()
                    .result
                    .generated()
            };
            let mean =
                boards.iter().map(|b| generated(b) as f64).sum::<f64>() / boards.len() as f64;
            let ratio = p.generated / mean;
            assert!(
                (0.8..1.25).contains(&ratio),
                "bound {}: {} vs {mean}",
                p.bound,
                p.generated
            );
        }
    }
}
