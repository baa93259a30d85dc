//! Shards: deterministic, balanced slices of an experiment's pairs, each run into its own
//! folder of a sharded results directory (by hand with `run --shard I/N`, or as Slurm array
//! tasks), and `experiment.json`, the experiment such a directory holds.
//!
//! Layout of a sharded results directory `OUT`:
//!
//! ```text
//! OUT/experiment.json          the experiment (instances, heuristics, limits, shard count)
//! OUT/shards/I/                shard I of N: runs.csv, iterations.csv, meta.json (as `run` writes)
//! OUT/slurm/                   the sbatch script, submissions and logs (crate::cluster)
//! OUT/runs.csv, iterations.csv, meta.json   the merged results (`collect`)
//! ```

use std::path::{Path, PathBuf};

use super::plan::{Experiment, Pair, Request};
use super::ExperimentError;
use crate::path_io::{At, Found};
use crate::results::io::write_json;
use crate::results::meta::Shard;
use crate::results::spec::Difference;
use crate::results::ExperimentSpec;

pub use crate::results::{EXPERIMENT_FILE, SHARDS_DIR};

/// Where shard `index` of the experiment in `out` writes.
pub fn shard_dir(out: &Path, index: usize) -> PathBuf {
    out.join(SHARDS_DIR).join(index.to_string())
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
    pub(crate) fn assign(pairs: &[Pair], count: usize) -> Vec<usize> {
        let count = count.max(1);
        let mut order: Vec<usize> = (0..pairs.len()).collect();
        order.sort_by_key(|&k| {
            let p = pairs[k];
            (p.by, p.set, p.instance, k)
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

/// `FILE[:A-B]` with FILE made absolute (split as `InstanceSet::read_selection` splits).
fn absolute_selection(spec: &str) -> String {
    let (file, range) = match spec.rsplit_once(':') {
        _ if Path::new(spec).is_file() => (spec, None),
        Some((file, range)) if !range.contains('/') => (file, Some(range)),
        _ => (spec, None),
    };
    let file = std::path::absolute(file)
        .map(|p| p.display().to_string())
        .unwrap_or_else(|_| file.to_string());
    match range {
        Some(r) => format!("{file}:{r}"),
        None => file,
    }
}

impl ExperimentSpec {
    /// The spec of `exp`, dealt into `shards` shards.
    pub fn new(exp: &Experiment, shards: usize) -> ExperimentSpec {
        ExperimentSpec {
            instances: exp
                .sets
                .iter()
                .map(|(s, _)| absolute_selection(s))
                .collect(),
            heuristics: exp.heuristics.iter().map(|h| h.to_string()).collect(),
            algorithms: exp.algorithms.iter().map(|a| a.to_string()).collect(),
            node_limit: exp.limits.node_limit,
            time_limit_seconds: exp.limits.time_limit.map(|d| d.as_secs_f64()),
            memory_limit: exp.limits.memory_limit,
            shards,
            solvers: exp.solvers.iter().map(|s| s.spec()).collect(),
            check_optimal: exp.check_optimal,
            pruning: exp.pruning,
            fixed_bound: exp.fixed_bound,
        }
    }

    /// Reads the instance files again and parses the heuristics and limits, as the command
    /// line's [`Request`] is read (a hand-edited file is checked alike).
    pub fn experiment(&self) -> Result<Experiment, ExperimentError> {
        let bad = |reason: String| ExperimentError::BadSpec {
            path: EXPERIMENT_FILE.into(),
            reason,
        };
        let algorithms = self
            .algorithms
            .iter()
            .map(|a| a.parse::<crate::search::Algorithm>())
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| bad(e.to_string()))?;
        let request = Request {
            instances: self.instances.clone(),
            heuristics: self.heuristics.clone(),
            algorithms,
            partition: None,
            time_limit_seconds: self.time_limit_seconds,
            node_limit: self.node_limit,
            memory_limit: self.memory_limit,
            solvers: self.solvers.clone(),
            check_optimal: self.check_optimal,
            pruning: self.pruning,
            fixed_bound: self.fixed_bound,
        };
        match request.read() {
            Ok(chosen) => Ok(chosen.exp),
            Err(ExperimentError::BadOption(reason)) => Err(bad(reason)),
            Err(e) => Err(e),
        }
    }

    /// The spec stored in `out`, if any.
    pub fn load(out: &Path) -> Result<Option<ExperimentSpec>, ExperimentError> {
        read_json(&out.join(EXPERIMENT_FILE))
    }

    pub fn save(&self, out: &Path) -> Result<(), ExperimentError> {
        Ok(write_json(&out.join(EXPERIMENT_FILE), self)?)
    }

    /// Records this spec in `out`, or checks that `out` already holds the same one (stored
    /// first, this spec second in the error).
    pub(crate) fn establish(&self, out: &Path) -> Result<(), ExperimentError> {
        match ExperimentSpec::load(out)? {
            Some(stored) => {
                let d = stored.differences(self, true);
                if d.is_empty() {
                    Ok(())
                } else {
                    Err(ExperimentError::Mismatch {
                        dir: out.to_path_buf(),
                        what: joined(&d),
                    })
                }
            }
            None => self.save(out),
        }
    }
}

/// Differences in one line, as an error names them.
pub(crate) fn joined(d: &[Difference]) -> String {
    d.iter()
        .map(|d| d.to_string())
        .collect::<Vec<_>>()
        .join("; ")
}

/// Reads JSON, `None` when the file does not exist.
pub fn read_json<T: serde::de::DeserializeOwned>(
    path: &Path,
) -> Result<Option<T>, ExperimentError> {
    let Some(text) = std::fs::read_to_string(path).found().at(path)? else {
        return Ok(None);
    };
    serde_json::from_str(&text)
        .map(Some)
        .map_err(|source| ExperimentError::Json {
            path: path.to_path_buf(),
            source,
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn pairs(sets: &[usize], heuristics: usize) -> Vec<Pair> {
        let mut v = Vec::new();
        for (set, &n) in sets.iter().enumerate() {
            for instance in 0..n {
                for heuristic in 0..heuristics {
                    v.push(Pair {
                        set,
                        instance,
                        by: crate::experiment::By::Builtin {
                            algorithm: crate::search::Algorithm::Ida,
                            heuristic: Some(heuristic),
                        },
                    });
                }
            }
        }
        v
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
                    if p.heuristic() == Some(h) {
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

    /// What experiment.json keeps is what the experiment runs under: limits, pruning,
    /// --check-optimal and --fixed-bound come back from it.
    #[test]
    fn a_spec_gives_back_its_experiment() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let request = Request {
            instances: vec![format!("{}/instances/korf100.txt:1-3", root.display())],
            heuristics: vec!["manhattan,max(linear-conflict,pdb-555)".into()],
            node_limit: Some(1000),
            time_limit_seconds: Some(2.5),
            memory_limit: Some(1 << 20),
            check_optimal: true,
            fixed_bound: Some(40),
            ..Request::default()
        };
        let exp = request.read().unwrap().exp;
        let spec = ExperimentSpec::new(&exp, 3);
        let back = spec.experiment().unwrap();
        assert_eq!(ExperimentSpec::new(&back, 3), spec);
        assert_eq!(back.limits.node_limit, Some(1000));
        assert_eq!(back.limits.time_limit, Some(Duration::from_millis(2500)));
        assert_eq!(back.limits.memory_limit, Some(1 << 20));
        assert!(back.check_optimal);
        assert_eq!(back.fixed_bound, Some(40));
        assert_eq!(back.heuristics.len(), 2);
        assert_eq!(back.pairs().len(), 6);
        // A hand-edited file is checked as the command line is, and named.
        let bad = ExperimentSpec {
            node_limit: Some(0),
            ..spec
        };
        let err = bad.experiment().unwrap_err().to_string();
        assert!(err.starts_with("experiment.json: --node-limit: 0"), "{err}");
    }

    #[test]
    fn selections_become_absolute_and_keep_their_range() {
        let cwd = std::env::current_dir().unwrap();
        assert_eq!(
            absolute_selection("instances/korf100.txt:1-10"),
            format!("{}/instances/korf100.txt:1-10", cwd.display())
        );
        assert_eq!(absolute_selection("/a/b.txt"), "/a/b.txt");
    }
}
