//! The one description of an experiment: what runs (instance selections, heuristics, algorithms,
//! outside solvers, pruning) under which limits. Every `meta.json` embeds it (`experiment`), and
//! a sharded results directory keeps it in `experiment.json`, so that every shard, a
//! re-submission and `collect` agree on the pairs without being told again. The pairs it stands
//! for are made in [`crate::experiment`].

use std::fmt;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::search::{Pruning, RunStatus};

/// An experiment, as `meta.json` and `experiment.json` record it.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExperimentSpec {
    /// Instance selections (`FILE` or `FILE:FIRST-LAST`): as given for a local run, with
    /// absolute paths in a sharded experiment, so tasks started in any working directory read
    /// the same files.
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
    /// How many shards the pairs are dealt into (0: not sharded).
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
    /// `run --fixed-bound`: one IDA* iteration with this threshold per pair, not a search.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fixed_bound: Option<u32>,
}

/// The limits every search of an experiment ran under, compared across sessions as one.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct LimitsInfo {
    pub node_limit: Option<u64>,
    pub time_limit_seconds: Option<f64>,
    pub memory_limit_bytes: Option<u64>,
    pub fixed_bound: Option<u32>,
}

/// An outside solver of an experiment, its `NAME[:HEURISTIC]=COMMAND` split.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct SolverInfo {
    pub name: String,
    /// The command as given (split into words, never run by a shell).
    pub command: String,
    /// The built-in heuristic it implements, whose node counts the report sets beside its own.
    pub heuristic: Option<String>,
    /// Unknown optimal lengths were found with the built-in search (`--check-optimal`).
    pub check_optimal: bool,
}

/// `NAME[:HEURISTIC]=COMMAND` split into its three parts, trimmed (the parts are checked by
/// `experiment::outside::OutsideSolver::parse`).
pub(crate) fn split_solver(spec: &str) -> Option<(&str, Option<&str>, &str)> {
    let (head, command) = spec.split_once('=')?;
    Some(match head.split_once(':') {
        Some((name, h)) => (name.trim(), Some(h.trim()), command),
        None => (head.trim(), None, command),
    })
}

impl ExperimentSpec {
    pub fn limits(&self) -> LimitsInfo {
        LimitsInfo {
            node_limit: self.node_limit,
            time_limit_seconds: self.time_limit_seconds,
            memory_limit_bytes: self.memory_limit,
            fixed_bound: self.fixed_bound,
        }
    }

    pub(crate) fn solver_infos(&self) -> Vec<SolverInfo> {
        self.solvers
            .iter()
            .map(|s| {
                let (name, heuristic, command) = split_solver(s).unwrap_or((s, None, ""));
                SolverInfo {
                    name: name.to_string(),
                    command: command.to_string(),
                    heuristic: heuristic.map(str::to_string),
                    check_optimal: self.check_optimal,
                }
            })
            .collect()
    }

    /// The methods and limits alone: resume and `collect` compare instance sets by their
    /// content (a selection may be written relative or absolute) and the sharding their own way.
    pub(crate) fn methods_and_limits(&self) -> ExperimentSpec {
        ExperimentSpec {
            instances: Vec::new(),
            shards: 0,
            ..self.clone()
        }
    }

    /// The time limit, checked (a hand-edited file may hold any number).
    pub fn time_limit(&self) -> Result<Option<Duration>, crate::limits::LimitError> {
        self.time_limit_seconds
            .map(|s| crate::limits::time_limit_seconds(s, &s.to_string()))
            .transpose()
    }

    /// What differs between the experiment `self` describes (stored before) and `now`: every
    /// check that two descriptions are one experiment (`--resume`, a shard, a re-submission)
    /// asks this. With `same_order` the lists of heuristics, algorithms and solvers must also be
    /// in the same order (shards deal pairs out by it); without, they must hold the same names
    /// (resumed rows are found by name).
    pub fn differences(&self, now: &ExperimentSpec, same_order: bool) -> Vec<Difference> {
        let mut d = Vec::new();
        let joined = |v: &[String], sep| match v.len() {
            0 => "none".to_string(),
            _ => v.join(sep),
        };
        let same = |a: &[String], b: &[String]| {
            same_order && a == b
                || !same_order && a.iter().all(|x| b.contains(x)) && b.iter().all(|x| a.contains(x))
        };
        if self.instances != now.instances {
            d.push(Difference::new(
                "instances",
                joined(&self.instances, ","),
                joined(&now.instances, ","),
            ));
        }
        for (what, before, after) in [
            ("heuristics", &self.heuristics, &now.heuristics),
            ("algorithms", &self.algorithms, &now.algorithms),
        ] {
            if !same(before, after) {
                d.push(Difference::new(
                    what,
                    joined(before, ","),
                    joined(after, ","),
                ));
            }
        }
        if !same(&self.solvers, &now.solvers) {
            d.push(Difference::new(
                "outside solvers",
                joined(&self.solvers, ", "),
                joined(&now.solvers, ", "),
            ));
        }
        let on = |b: bool| if b { "on" } else { "off" }.to_string();
        // Without solvers on both sides, --check-optimal changes nothing.
        let solvers = !self.solvers.is_empty() && !now.solvers.is_empty();
        if solvers && self.check_optimal != now.check_optimal {
            d.push(Difference::new(
                "--check-optimal",
                on(self.check_optimal),
                on(now.check_optimal),
            ));
        }
        if self.pruning != now.pruning {
            d.push(Difference {
                note: "node counts depend on it",
                ..Difference::new("pruning", self.pruning.to_string(), now.pruning.to_string())
            });
        }
        // A changed limit may pass with the --retry of the rows it cut off.
        let limit = |what, before: String, now: String, status| Difference {
            retried_by: Some(status),
            ..Difference::new(what, before, now)
        };
        if self.node_limit != now.node_limit {
            d.push(limit(
                "node limit",
                or_none(self.node_limit, ""),
                or_none(now.node_limit, ""),
                RunStatus::NodeLimit,
            ));
        }
        if self.memory_limit != now.memory_limit {
            d.push(limit(
                "memory limit",
                or_none(self.memory_limit, " bytes"),
                or_none(now.memory_limit, " bytes"),
                RunStatus::MemoryLimit,
            ));
        }
        // Compared to the nanosecond: the value goes through a Duration and back in each task.
        let same_time = match (self.time_limit_seconds, now.time_limit_seconds) {
            (Some(a), Some(b)) => (a - b).abs() < 1e-9,
            (a, b) => a == b,
        };
        if !same_time {
            d.push(limit(
                "time limit",
                or_none(self.time_limit_seconds, " s"),
                or_none(now.time_limit_seconds, " s"),
                RunStatus::TimeLimit,
            ));
        }
        if self.fixed_bound != now.fixed_bound {
            d.push(Difference {
                note: "fixed-bound rows are one iteration each, not searches",
                ..Difference::new(
                    "--fixed-bound",
                    or_none(self.fixed_bound, ""),
                    or_none(now.fixed_bound, ""),
                )
            });
        }
        if self.shards != now.shards {
            d.push(Difference::new(
                "shards",
                self.shards.to_string(),
                now.shards.to_string(),
            ));
        }
        d
    }

    /// The `tilebench run` options of this experiment (without `--out`, `--shard`, `--jobs`),
    /// each option followed by its one value.
    pub(crate) fn run_options(&self) -> Vec<String> {
        let mut args = Vec::new();
        for i in &self.instances {
            args.extend(["--instances".to_string(), i.clone()]);
        }
        for h in &self.heuristics {
            args.extend(["--heuristics".to_string(), h.clone()]);
        }
        // IDA* alone is the default: left out, so older scripts read the same.
        if self.algorithms != ida_only() {
            for a in &self.algorithms {
                args.extend(["--algorithm".to_string(), a.clone()]);
            }
        }
        if let Some(m) = self.memory_limit {
            args.extend(["--memory-limit".to_string(), m.to_string()]);
        }
        if let Some(n) = self.node_limit {
            args.extend(["--node-limit".to_string(), n.to_string()]);
        }
        if let Some(t) = self.time_limit_seconds {
            args.extend(["--time-limit".to_string(), t.to_string()]);
        }
        for s in &self.solvers {
            args.extend(["--solver".to_string(), s.clone()]);
        }
        if self.check_optimal {
            args.push("--check-optimal".to_string());
        }
        if !self.pruning.is_parent() {
            args.extend(["--pruning".to_string(), self.pruning.to_string()]);
        }
        if let Some(b) = self.fixed_bound {
            args.extend(["--fixed-bound".to_string(), b.to_string()]);
        }
        args
    }
}

/// One way two descriptions of an experiment differ: `WHAT: BEFORE before, NOW now`.
#[derive(Debug, Clone, PartialEq)]
pub struct Difference {
    pub what: &'static str,
    pub before: String,
    pub now: String,
    /// A changed limit: the status of the rows it cut off, whose `--retry` runs them all again
    /// under the new one (`--resume` then accepts the change).
    pub retried_by: Option<RunStatus>,
    /// Why the difference matters, when that is not plain; empty otherwise.
    pub note: &'static str,
}

impl Difference {
    pub fn new(what: &'static str, before: String, now: String) -> Difference {
        Difference {
            what,
            before,
            now,
            retried_by: None,
            note: "",
        }
    }
}

impl Difference {
    /// `WHAT: BEFORE <before>, NOW <now>`, with the two sides named so (the display names them
    /// "before" and "now").
    pub(crate) fn named(&self, before: &str, now: &str) -> String {
        let mut s = format!(
            "{}: {} {before}, {} {now}",
            self.what, self.before, self.now
        );
        if !self.note.is_empty() {
            s += &format!(" ({})", self.note);
        }
        s
    }
}

impl fmt::Display for Difference {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.named("before", "now"))
    }
}

/// `none`, or the value with its unit.
pub(crate) fn or_none<T: fmt::Display>(v: Option<T>, unit: &str) -> String {
    v.map_or("none".into(), |v| format!("{v}{unit}"))
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
        assert!(a.differences(&a.clone(), true).is_empty());
        let b = ExperimentSpec {
            shards: 3,
            heuristics: vec!["linear-conflict".into()],
            ..a.clone()
        };
        let d: Vec<String> = a
            .differences(&b, true)
            .iter()
            .map(|d| d.to_string())
            .collect();
        assert_eq!(
            d,
            [
                "heuristics: manhattan before, linear-conflict now",
                "shards: 4 before, 3 now"
            ]
        );
        // The same names in another order: another sharding, the same resumed rows.
        let two = |h: [&str; 2]| ExperimentSpec {
            heuristics: h.iter().map(|h| h.to_string()).collect(),
            ..a.clone()
        };
        let (ab, ba) = (two(["manhattan", "pdb-663"]), two(["pdb-663", "manhattan"]));
        assert_eq!(ab.differences(&ba, true).len(), 1);
        assert!(ab.differences(&ba, false).is_empty());
        let t = |s: f64| ExperimentSpec {
            time_limit_seconds: Some(s),
            ..a.clone()
        };
        assert!(t(1.0000000001)
            .differences(&t(1.0000000001 + 1e-12), true)
            .is_empty());
        let d = t(1.0).differences(&t(1.5), true);
        assert_eq!(d[0].to_string(), "time limit: 1 s before, 1.5 s now");
        assert_eq!(d[0].retried_by, Some(RunStatus::TimeLimit));
        // Fixed-bound rows are one iteration each: no --retry lets them mix with searches.
        let f = ExperimentSpec {
            fixed_bound: Some(50),
            ..a.clone()
        };
        let d = f.differences(&a, false);
        assert_eq!(d.len(), 1);
        assert_eq!(d[0].retried_by, None);
        assert_eq!(
            d[0].named("in this shard", "in the experiment"),
            "--fixed-bound: 50 in this shard, none in the experiment (fixed-bound rows are one \
             iteration each, not searches)"
        );
        assert_eq!(f.run_options()[4..], ["--fixed-bound", "50"]);
    }
}
