//! Shards: deterministic, balanced slices of an experiment's pairs.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::runner::Pair;

/// The `index`-th of `count` slices of an experiment (`--shard I/N`, 0-based, so Slurm's
/// `$SLURM_ARRAY_TASK_ID` of an `--array=0-(N-1)` job can be passed as it is).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Shard {
    pub index: usize,
    pub count: usize,
}

/// A malformed `--shard`.
#[derive(Debug, Error, PartialEq, Eq)]
#[error("bad shard '{0}': expected I/N with 0 <= I < N, e.g. 0/4")]
pub struct ShardError(pub String);

impl FromStr for Shard {
    type Err = ShardError;

    fn from_str(s: &str) -> Result<Shard, ShardError> {
        let bad = || ShardError(s.to_string());
        let (i, n) = s.split_once('/').ok_or_else(bad)?;
        let index: usize = i.trim().parse().map_err(|_| bad())?;
        let count: usize = n.trim().parse().map_err(|_| bad())?;
        if index >= count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl Shard {
    /// Which of `count` shards each pair belongs to (`count` ≥ 1).
    ///
    /// The pairs are ordered heuristic first (then instance set, then instance) and dealt round
    /// robin: the k-th pair in that order goes to shard k mod `count`. So every shard gets an
    /// equal share (±1) of every heuristic — which matters because the cost of a pair depends
    /// far more on its heuristic (Manhattan generates ~10× the nodes of linear conflict) than on
    /// the instance — and neighbouring instances, often of similar difficulty in generated
    /// sets, are spread over different shards. It depends only on the list, never on timing.
    pub fn assign(pairs: &[Pair], count: usize) -> Vec<usize> {
        let count = count.max(1);
        let mut order: Vec<usize> = (0..pairs.len()).collect();
        order.sort_by_key(|&k| {
            let p = pairs[k];
            (p.heuristic, p.set, p.instance, k)
        });
        let mut shard = vec![0; pairs.len()];
        for (dealt, &k) in order.iter().enumerate() {
            shard[k] = dealt % count;
        }
        shard
    }

    /// The pairs of this shard, in the order of `pairs`.
    pub fn select(&self, pairs: &[Pair]) -> Vec<Pair> {
        Self::assign(pairs, self.count)
            .into_iter()
            .zip(pairs)
            .filter(|(s, _)| *s == self.index)
            .map(|(_, p)| *p)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs(sets: &[usize], heuristics: usize) -> Vec<Pair> {
        let mut v = Vec::new();
        for (set, &n) in sets.iter().enumerate() {
            for instance in 0..n {
                for heuristic in 0..heuristics {
                    v.push(Pair {
                        set,
                        instance,
                        heuristic,
                    });
                }
            }
        }
        v
    }

    #[test]
    fn parses_and_displays() {
        assert_eq!("2/4".parse(), Ok(Shard { index: 2, count: 4 }));
        assert_eq!(Shard { index: 0, count: 1 }.to_string(), "0/1");
        for bad in ["4/4", "1", "a/2", "1/0", "-1/3", "1/2/3", ""] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
    }

    /// The shards partition the pairs: each pair in exactly one, none invented, order kept.
    #[test]
    fn shards_partition_the_pairs() {
        for (sets, h) in [
            (vec![30, 10], 3),
            (vec![7], 1),
            (vec![1], 2),
            (vec![5, 0, 4], 2),
        ] {
            let all = pairs(&sets, h);
            for count in 1..=9 {
                let mut union = Vec::new();
                for index in 0..count {
                    let s = Shard { index, count }.select(&all);
                    assert!(s.windows(2).all(|w| w[0] < w[1]), "kept in pair order");
                    union.extend(s);
                }
                union.sort();
                let mut expected = all.clone();
                expected.sort();
                assert_eq!(union, expected, "sets {sets:?} × {h} in {count} shards");
            }
        }
    }

    /// Every shard gets an equal share (±1) of each heuristic and of the whole, even when the
    /// number of heuristics divides the number of shards (where plain interleaving of the pair
    /// list would give each shard a single heuristic).
    #[test]
    fn shards_are_balanced_per_heuristic() {
        let all = pairs(&[30, 10], 2);
        for count in [2, 3, 4, 6, 8] {
            let assign = Shard::assign(&all, count);
            for h in 0..2 {
                let mut per = vec![0usize; count];
                for (p, s) in all.iter().zip(&assign) {
                    if p.heuristic == h {
                        per[*s] += 1;
                    }
                }
                let (lo, hi) = (per.iter().min().unwrap(), per.iter().max().unwrap());
                assert!(hi - lo <= 1, "heuristic {h} in {count} shards: {per:?}");
            }
        }
    }

    #[test]
    fn assignment_is_deterministic_and_pinned() {
        let all = pairs(&[3], 2);
        // Heuristic-major order: (0,h0) (1,h0) (2,h0) (0,h1) (1,h1) (2,h1), dealt to 0 1 0 1 0 1.
        assert_eq!(Shard::assign(&all, 2), vec![0, 1, 1, 0, 0, 1]);
        assert_eq!(Shard::assign(&all, 2), Shard::assign(&all.clone(), 2));
    }
}
