//! `experiment.json`: the experiment a sharded results directory holds, so that every shard, a
//! re-submission and `collect` agree on the pairs without being told again. The pairs it stands
//! for are made in [`crate::experiment`].

use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::search::Pruning;

/// The experiment of a sharded results directory.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExperimentSpec {
    /// Instance selections (`FILE` or `FILE:FIRST-LAST`) with absolute paths, so tasks started
    /// in any working directory read the same files.
    pub instances: Vec<String>,
    /// Heuristic names as written in the result files (they parse back to the same heuristic).
    pub heuristics: Vec<String>,
    /// Algorithm names (`ida` alone in files from before the field).
    #[serde(default = "ida_only")]
    pub algorithms: Vec<String>,
    pub node_limit: Option<u64>,
    pub time_limit_seconds: Option<f64>,
    /// Bytes: A* and breadth-first search's structures, an outside solver's resident memory.
    #[serde(
        default,
        alias = "memory_limit_bytes",
        skip_serializing_if = "Option::is_none"
    )]
    pub memory_limit: Option<u64>,
    /// How many shards the pairs are dealt into.
    pub shards: usize,
    /// Outside solvers, `NAME[:HEURISTIC]=COMMAND` each.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub solvers: Vec<String>,
    /// Outside solvers: unknown optimal lengths found with the built-in search.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub check_optimal: bool,
    /// IDA*'s duplicate-path pruning (parent in files from before the field).
    #[serde(default, skip_serializing_if = "Pruning::is_parent")]
    pub pruning: Pruning,
}

impl ExperimentSpec {
    /// The time limit, checked (a hand-edited file may hold any number).
    pub fn time_limit(&self) -> Result<Option<Duration>, crate::limits::LimitError> {
        self.time_limit_seconds
            .map(|s| crate::limits::time_limit_seconds(s, &s.to_string()))
            .transpose()
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
        if self.algorithms != other.algorithms {
            d.push(format!(
                "algorithms {} vs {}",
                self.algorithms.join(","),
                other.algorithms.join(",")
            ));
        }
        if self.memory_limit != other.memory_limit {
            d.push(format!(
                "memory limit {} vs {}",
                or_none(self.memory_limit, " bytes"),
                or_none(other.memory_limit, " bytes")
            ));
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
        if self.solvers != other.solvers {
            d.push(format!(
                "solvers {} vs {}",
                self.solvers.join(" "),
                other.solvers.join(" ")
            ));
        }
        if self.pruning != other.pruning {
            d.push(format!("pruning {} vs {}", self.pruning, other.pruning));
        }
        if self.check_optimal != other.check_optimal {
            d.push(format!(
                "--check-optimal {} vs {}",
                self.check_optimal, other.check_optimal
            ));
        }
        if self.shards != other.shards {
            d.push(format!("{} shards vs {}", self.shards, other.shards));
        }
        d
    }

    /// The `tilebench run` options of this experiment (without `--out`, `--shard`, `--jobs`),
    /// each option followed by its one value.
    pub(crate) fn run_options(&self) -> Vec<String> {
        let mut args = Vec::new();
        for i in &self.instances {
            args.push("--instances".to_string());
            args.push(i.clone());
        }
        for h in &self.heuristics {
            args.push("--heuristics".to_string());
            args.push(h.clone());
        }
        // IDA* alone is the default: left out, so older scripts read the same.
        if self.algorithms != ida_only() {
            for a in &self.algorithms {
                args.push("--algorithm".to_string());
                args.push(a.clone());
            }
        }
        if let Some(m) = self.memory_limit {
            args.push("--memory-limit".to_string());
            args.push(m.to_string());
        }
        if let Some(n) = self.node_limit {
            args.push("--node-limit".to_string());
            args.push(n.to_string());
        }
        if let Some(t) = self.time_limit_seconds {
            args.push("--time-limit".to_string());
            args.push(t.to_string());
        }
        for s in &self.solvers {
            args.push("--solver".to_string());
            args.push(s.clone());
        }
        if self.check_optimal {
            args.push("--check-optimal".to_string());
        }
        if !self.pruning.is_parent() {
            args.push("--pruning".to_string());
            args.push(self.pruning.to_string());
        }
        args
    }
}

/// What files from before the `algorithms` field ran.
pub(crate) fn ida_only() -> Vec<String> {
    vec![crate::search::Algorithm::Ida.to_string()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn differences_name_what_changed() {
        let a = ExperimentSpec {
            instances: vec!["/x.txt".into()],
            heuristics: vec!["manhattan".into()],
            algorithms: vec!["ida".into()],
            node_limit: None,
            time_limit_seconds: None,
            memory_limit: None,
            shards: 4,
            ..ExperimentSpec::default()
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
