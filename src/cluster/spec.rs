//! `experiment.json`: the experiment a sharded results directory holds, so that every shard,
//! a re-submission and `collect` agree on the pairs without being told again.

use std::path::Path;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::{read_json, write_json, ClusterError, EXPERIMENT_FILE};
use crate::runner::Experiment;
use crate::solver::HeuristicName;

/// The experiment of a sharded results directory.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ExperimentSpec {
    /// Instance selections (`FILE` or `FILE:FIRST-LAST`) with absolute paths, so tasks started
    /// in any working directory read the same files.
    pub instances: Vec<String>,
    /// Heuristic names as written in the result files (they parse back to the same heuristic).
    pub heuristics: Vec<String>,
    pub node_limit: Option<u64>,
    pub time_limit_seconds: Option<f64>,
    /// How many shards the pairs are dealt into.
    pub shards: usize,
}

/// `FILE[:A-B]` with FILE made absolute (split as `InstanceSet::read_selection` splits).
fn absolute_selection(spec: &str) -> String {
    let (file, range) = match spec.rsplit_once(':') {
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
    /// The spec of `exp` under these limits, dealt into `shards` shards.
    pub fn new(
        exp: &Experiment,
        node_limit: Option<u64>,
        time_limit: Option<Duration>,
        shards: usize,
    ) -> ExperimentSpec {
        ExperimentSpec {
            instances: exp
                .sets
                .iter()
                .map(|(s, _)| absolute_selection(s))
                .collect(),
            heuristics: exp.heuristics.iter().map(|h| h.to_string()).collect(),
            node_limit,
            time_limit_seconds: time_limit.map(|d| d.as_secs_f64()),
            shards,
        }
    }

    /// Reads the instance files again and parses the heuristics.
    pub fn experiment(&self) -> Result<Experiment, ClusterError> {
        let heuristics = self
            .heuristics
            .iter()
            .map(|h| h.parse::<HeuristicName>())
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| ClusterError::Layout {
                dir: EXPERIMENT_FILE.into(),
                reason: e.to_string(),
            })?;
        Ok(Experiment::read(&self.instances, heuristics)?)
    }

    pub fn time_limit(&self) -> Option<Duration> {
        self.time_limit_seconds.map(Duration::from_secs_f64)
    }

    /// The spec stored in `out`, if any.
    pub fn load(out: &Path) -> Result<Option<ExperimentSpec>, ClusterError> {
        read_json(&out.join(EXPERIMENT_FILE))
    }

    pub fn save(&self, out: &Path) -> Result<(), ClusterError> {
        write_json(&out.join(EXPERIMENT_FILE), self)
    }

    /// What differs between two specs, in words (empty when they are the same experiment).
    pub fn differences(&self, other: &ExperimentSpec) -> Vec<String> {
        let mut d = Vec::new();
        if self.instances != other.instances {
            d.push(format!(
                "instances {} vs {}",
                self.instances.join(","),
                other.instances.join(",")
            ));
        }
        if self.heuristics != other.heuristics {
            d.push(format!(
                "heuristics {} vs {}",
                self.heuristics.join(","),
                other.heuristics.join(",")
            ));
        }
        fn or_none<T: std::fmt::Display>(v: Option<T>, unit: &str) -> String {
            v.map_or("none".into(), |v| format!("{v}{unit}"))
        }
        if self.node_limit != other.node_limit {
            d.push(format!(
                "node limit {} vs {}",
                or_none(self.node_limit, ""),
                or_none(other.node_limit, "")
            ));
        }
        // Compared to the nanosecond: the value goes through a Duration and back in each task.
        let same_time = match (self.time_limit_seconds, other.time_limit_seconds) {
            (Some(a), Some(b)) => (a - b).abs() < 1e-9,
            (a, b) => a == b,
        };
        if !same_time {
            d.push(format!(
                "time limit {} vs {}",
                or_none(self.time_limit_seconds, " s"),
                or_none(other.time_limit_seconds, " s")
            ));
        }
        if self.shards != other.shards {
            d.push(format!("{} shards vs {}", self.shards, other.shards));
        }
        d
    }

    /// Records this spec in `out`, or checks that `out` already holds the same one (stored
    /// first, this spec second in the error).
    pub fn establish(&self, out: &Path) -> Result<(), ClusterError> {
        match ExperimentSpec::load(out)? {
            Some(stored) => {
                let d = stored.differences(self);
                if d.is_empty() {
                    Ok(())
                } else {
                    Err(ClusterError::Mismatch {
                        dir: out.to_path_buf(),
                        what: d.join("; "),
                    })
                }
            }
            None => self.save(out),
        }
    }

    /// The `tilebench run` options of this experiment (without `--out`, `--shard`, `--jobs`),
    /// each option followed by its one value.
    pub fn run_options(&self) -> Vec<String> {
        let mut args = Vec::new();
        for i in &self.instances {
            args.push("--instances".to_string());
            args.push(i.clone());
        }
        for h in &self.heuristics {
            args.push("--heuristics".to_string());
            args.push(h.clone());
        }
        if let Some(n) = self.node_limit {
            args.push("--node-limit".to_string());
            args.push(n.to_string());
        }
        if let Some(t) = self.time_limit_seconds {
            args.push("--time-limit".to_string());
            args.push(t.to_string());
        }
        args
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn selections_become_absolute_and_keep_their_range() {
        let cwd = std::env::current_dir().unwrap();
        assert_eq!(
            absolute_selection("instances/korf100.txt:1-10"),
            format!("{}/instances/korf100.txt:1-10", cwd.display())
        );
        assert_eq!(absolute_selection("/a/b.txt"), "/a/b.txt");
    }

    #[test]
    fn differences_name_what_changed() {
        let a = ExperimentSpec {
            instances: vec!["/x.txt".into()],
            heuristics: vec!["manhattan".into()],
            node_limit: None,
            time_limit_seconds: None,
            shards: 4,
        };
        assert!(a.differences(&a.clone()).is_empty());
        let b = ExperimentSpec {
            shards: 3,
            heuristics: vec!["linear-conflict".into()],
            ..a.clone()
        };
        let d = a.differences(&b);
        assert_eq!(d.len(), 2);
        assert!(d[0].contains("heuristics manhattan vs linear-conflict"));
        assert!(d[1].contains("4 shards vs 3"));
        let t = |s: f64| ExperimentSpec {
            time_limit_seconds: Some(s),
            ..a.clone()
        };
        assert!(t(1.0000000001)
            .differences(&t(1.0000000001 + 1e-12))
            .is_empty());
        assert_eq!(t(1.0).differences(&t(1.5)), vec!["time limit 1 s vs 1.5 s"]);
    }
}
