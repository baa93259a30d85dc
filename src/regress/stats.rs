//! The statistics of a regression verdict.
//!
//! - Per pair (shown, not judged): the median of its paired ratios over the rounds, with a
//!   percentile bootstrap interval (seeded: the same measurements give the same interval).
//! - Per group of pairs (a method, or all; judged): each round's geometric mean of the group's
//!   ratios is one observation, and the interval is Student's t on their logarithms. A round is
//!   the unit of noise: a slow moment of the machine slows every pair of a round at once, so
//!   pairs of one round are not independent, and treating them as such would make intervals too
//!   narrow. The t interval also stays honest for few rounds, where a bootstrap of ten values or
//!   fewer is known to be too narrow.

use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};

/// The bootstrap's seed (fixed: a verdict is a function of the measurements alone).
pub const SEED: u64 = 0x7469_6c65_6265_6e63;
/// Bootstrap resamples; 2000 puts the 2.5 % and 97.5 % percentiles within a few tenths of a
/// percent of their limit.
pub const RESAMPLES: usize = 2000;
/// The interval's coverage.
pub(crate) const CONFIDENCE: f64 = 0.95;

/// A ratio head/base with its 95 % interval.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct Estimate {
    pub ratio: f64,
    pub lo: f64,
    pub hi: f64,
}

impl Estimate {
    /// An exact figure (instruction counts): its interval is the point.
    pub fn exact(ratio: f64) -> Estimate {
        Estimate {
            ratio,
            lo: ratio,
            hi: ratio,
        }
    }

    /// How far the interval reaches from the estimate, in percent: the half-width (the larger
    /// side).
    pub(crate) fn half_width_pct(&self) -> f64 {
        100.0 * (self.hi - self.ratio).max(self.ratio - self.lo).max(0.0)
    }
}

pub(crate) use crate::analysis::{geomean, median, quantile};

/// The paired ratios of several pairs over the same rounds: `ratios[pair][round]`.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Paired {
    pub ratios: Vec<Vec<f64>>,
}

/// Per-pair medians of each bootstrap resample: `[resample][pair]`.
pub(crate) struct Resamples(Vec<Vec<f64>>);

impl Paired {
    /// Rounds per pair (every pair has the same rounds).
    pub fn rounds(&self) -> usize {
        self.ratios.first().map_or(0, Vec::len)
    }

    /// Each pair's median ratio.
    pub fn medians(&self) -> Vec<f64> {
        self.ratios.iter().map(|r| median(r)).collect()
    }

    /// Draws [`RESAMPLES`] resamples of the rounds (with replacement, the same rounds for every
    /// pair) and keeps each pair's median in each.
    pub fn resample(&self) -> Resamples {
        let rounds = self.rounds();
        let mut rng = ChaCha8Rng::seed_from_u64(SEED);
        let mut out = Vec::with_capacity(RESAMPLES);
        let mut picked = vec![0usize; rounds];
        let mut column = Vec::with_capacity(rounds);
        for _ in 0..RESAMPLES {
            for p in picked.iter_mut() {
                *p = (rng.next_u64() % rounds as u64) as usize;
            }
            out.push(
                self.ratios
                    .iter()
                    .map(|r| {
                        column.clear();
                        column.extend(picked.iter().map(|&i| r[i]));
                        median(&column)
                    })
                    .collect(),
            );
        }
        Resamples(out)
    }
}

impl Resamples {
    /// The median ratio of `pair` with its interval (`medians`: the observed medians).
    pub fn pair(&self, medians: &[f64], pair: usize) -> Estimate {
        self.interval(medians[pair], |m| m[pair])
    }

    fn interval(&self, observed: f64, statistic: impl Fn(&[f64]) -> f64) -> Estimate {
        let mut values: Vec<f64> = self.0.iter().map(|m| statistic(m)).collect();
        values.sort_by(f64::total_cmp);
        let tail = (1.0 - CONFIDENCE) / 2.0;
        Estimate {
            ratio: observed,
            lo: quantile(&values, tail),
            hi: quantile(&values, 1.0 - tail),
        }
    }
}

/// Student's t 0.975 quantile for `df` degrees of freedom.
pub(crate) fn t975(df: usize) -> f64 {
    const T: [f64; 30] = [
        12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160,
        2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056,
        2.052, 2.048, 2.045, 2.042,
    ];
    match df {
        0 => f64::INFINITY,
        1..=30 => T[df - 1],
        _ => 1.96 + 2.4 / df as f64,
    }
}

impl Paired {
    /// Each round's geometric mean of the ratios of `pairs`.
    pub(crate) fn round_geomeans(&self, pairs: &[usize]) -> Vec<f64> {
        (0..self.rounds())
            .map(|k| geomean(&pairs.iter().map(|&p| self.ratios[p][k]).collect::<Vec<_>>()))
            .collect()
    }

    /// The geometric mean of `pairs` over all rounds, with the t interval of the rounds'
    /// geometric means (on the log scale).
    pub fn group(&self, pairs: &[usize]) -> Estimate {
        let logs: Vec<f64> = self.round_geomeans(pairs).iter().map(|g| g.ln()).collect();
        let n = logs.len() as f64;
        let mean = logs.iter().sum::<f64>() / n;
        let var = logs.iter().map(|l| (l - mean).powi(2)).sum::<f64>() / (n - 1.0).max(1.0);
        let half = t975(logs.len().saturating_sub(1)) * (var / n).sqrt();
        Estimate {
            ratio: mean.exp(),
            lo: (mean - half).exp(),
            hi: (mean + half).exp(),
        }
    }
}

/// The scatter of single paired ratios: the median over pairs of the median absolute deviation
/// of log ratio from its pair's median, in percent. What one round of one pair can tell apart.
pub(crate) fn noise_pct(paired: &Paired) -> f64 {
    let per_pair: Vec<f64> = paired
        .ratios
        .iter()
        .map(|r| {
            let m = median(r).ln();
            median(&r.iter().map(|x| (x.ln() - m).abs()).collect::<Vec<_>>())
        })
        .collect();
    100.0 * (median(&per_pair).exp() - 1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn medians_and_means() {
        assert_eq!(median(&[3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(&[4.0, 1.0, 2.0, 3.0]), 2.5);
        assert!(median(&[]).is_nan());
        assert!((geomean(&[1.0, 4.0]) - 2.0).abs() < 1e-12);
    }

    #[test]
    fn constant_ratios_have_a_point_interval() {
        let p = Paired {
            ratios: vec![vec![1.2; 5], vec![1.2; 5]],
        };
        for e in [p.group(&[0, 1]), p.resample().pair(&p.medians(), 1)] {
            assert!((e.ratio - 1.2).abs() < 1e-12 && (e.lo - 1.2).abs() < 1e-12);
            assert!((e.hi - 1.2).abs() < 1e-12);
        }
        assert_eq!(noise_pct(&p), 0.0);
    }

    #[test]
    fn the_interval_covers_the_spread_and_is_reproducible() {
        let ratios = vec![
            vec![0.9, 1.1, 1.0, 1.05, 0.95, 1.02, 0.98, 1.3, 0.8, 1.0],
            vec![1.0, 1.0, 1.1, 0.9, 1.0, 1.04, 0.97, 1.0, 1.01, 0.99],
        ];
        let p = Paired { ratios };
        let m = p.medians();
        let a = p.resample().pair(&m, 0);
        let b = p.resample().pair(&m, 0);
        assert_eq!(a, b, "seeded");
        assert!(a.lo < a.ratio && a.ratio < a.hi, "{a:?}");
        assert!(a.lo > 0.9 && a.hi < 1.1, "{a:?}");
        let g = p.group(&[0, 1]);
        assert!(g.lo < 1.0 && g.hi > 1.0 && g.hi < 1.1, "{g:?}");
    }

    #[test]
    fn group_intervals_follow_the_rounds() {
        // Round 3 was slow for the head on both pairs: a round-level effect.
        let p = Paired {
            ratios: vec![vec![1.0, 1.01, 1.3, 0.99], vec![1.0, 0.99, 1.3, 1.01]],
        };
        let g = p.group(&[0, 1]);
        let logs = [0.0f64, 0.0, 1.3f64.ln(), 0.0];
        let mean = logs.iter().sum::<f64>() / 4.0;
        assert!((g.ratio - mean.exp()).abs() < 1e-4, "{g:?}");
        // Four rounds: t with 3 degrees of freedom (3.182), wide enough to reach below 1.
        assert!(g.lo < 1.0 && g.hi > 1.3, "{g:?}");
        assert_eq!(t975(9), 2.262);
        assert!(t975(0).is_infinite());
    }

    #[test]
    fn a_shift_moves_the_interval_past_the_threshold() {
        let noisy = [0.97, 1.03, 1.0, 1.02, 0.98, 1.01, 0.99, 1.0];
        let slow: Vec<f64> = noisy.iter().map(|x| x * 1.10).collect();
        let p = Paired {
            ratios: vec![slow.clone(), slow],
        };
        let e = p.group(&[0, 1]);
        assert!(e.lo > 1.05, "{e:?}");
    }
}
