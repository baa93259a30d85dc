//! The plan of an experiment: its instance sets and heuristics, and the (instance, heuristic)
//! pairs they make, in the order every result file is sorted into.

use std::collections::HashMap;
use std::path::PathBuf;
use std::time::Duration;

use super::outside::OutsideSolver;
use super::ExperimentError;
use crate::board::Goal;
use crate::heuristic::HeuristicName;
use crate::instances::{InstanceError, InstanceSet};
use crate::results::RunKey;

/// The default experiment (`tilebench run` with no arguments): instance selections, relative
/// to the checkout (see `docs/experiments.md`).
pub const DEFAULT_INSTANCES: &[&str] = &[
    "instances/walk150-4x4-s42.txt",
    "instances/korf100.txt:1-10",
];

/// The heuristics of the default experiment.
pub const DEFAULT_HEURISTICS: &[&str] = &["manhattan", "linear-conflict", "pdb-663"];

/// Where the default experiment writes.
pub const DEFAULT_OUT: &str = "results/default";

/// The instance sets, heuristics and outside solvers of an experiment.
#[derive(Debug, Clone)]
pub struct Experiment {
    /// Each set with the selection it was read from (`FILE` or `FILE:FIRST-LAST`).
    pub sets: Vec<(String, InstanceSet)>,
    pub heuristics: Vec<HeuristicName>,
    /// Programs run beside the built-in search (`--solver NAME=COMMAND`).
    pub solvers: Vec<OutsideSolver>,
}

/// One (instance, series) pair, by index into an [`Experiment`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Pair {
    pub set: usize,
    pub instance: usize,
    /// The series: the built-in search with `heuristics[i]` for i below their number, then the
    /// outside solvers in order (see [`Experiment::series`]).
    pub heuristic: usize,
}

/// What runs a pair.
#[derive(Debug, Clone, Copy)]
pub enum Series<'a> {
    Builtin(&'a HeuristicName),
    Outside(&'a OutsideSolver),
}

impl<'a> Series<'a> {
    /// The name in the `heuristic` column.
    pub fn name(&self) -> &'a str {
        match self {
            Series::Builtin(h) => h.as_str(),
            Series::Outside(s) => &s.name,
        }
    }
}

impl Experiment {
    /// Reads every selection; all must parse (the run refuses to start on any malformed line).
    pub fn read(
        selections: &[String],
        heuristics: Vec<HeuristicName>,
    ) -> Result<Self, ExperimentError> {
        for (i, h) in heuristics.iter().enumerate() {
            if heuristics[..i]
                .iter()
                .any(|o| o.to_string() == h.to_string())
            {
                return Err(ExperimentError::DuplicateHeuristic(h.to_string()));
            }
        }
        let sets = selections
            .iter()
            .map(|s| Ok((s.clone(), InstanceSet::read_selection(s)?)))
            .collect::<Result<Vec<_>, InstanceError>>()?;
        // The set name is the key of a set's rows: two sets of one name would share keys.
        for (i, (second, set)) in sets.iter().enumerate() {
            if let Some((first, _)) = sets[..i].iter().find(|(_, o)| o.name == set.name) {
                return Err(ExperimentError::SameSetName {
                    name: set.name.clone(),
                    first: first.clone(),
                    second: second.clone(),
                });
            }
        }
        Ok(Experiment {
            sets,
            heuristics,
            solvers: Vec::new(),
        })
    }

    /// The series of pair index `i`: built-in heuristics first, then outside solvers.
    pub fn series(&self, i: usize) -> Series<'_> {
        match self.heuristics.get(i) {
            Some(h) => Series::Builtin(h),
            None => Series::Outside(&self.solvers[i - self.heuristics.len()]),
        }
    }

    /// How many series: built-in heuristics and outside solvers.
    pub fn series_count(&self) -> usize {
        self.heuristics.len() + self.solvers.len()
    }

    /// Every pair, in the experiment's order: set, then instance, then series.
    pub fn pairs(&self) -> Vec<Pair> {
        let mut pairs = Vec::new();
        for (set, (_, s)) in self.sets.iter().enumerate() {
            for instance in 0..s.instances.len() {
                for heuristic in 0..self.series_count() {
                    pairs.push(Pair {
                        set,
                        instance,
                        heuristic,
                    });
                }
            }
        }
        pairs
    }

    /// The names of a pair in the result files.
    pub fn key(&self, p: &Pair) -> RunKey {
        let (_, set) = &self.sets[p.set];
        RunKey::new(
            &set.name,
            &set.instances[p.instance].id,
            self.series(p.heuristic).name(),
        )
    }

    /// Each pair's rank in `pairs`: the order result files are sorted into.
    pub fn order(&self, pairs: &[Pair]) -> HashMap<RunKey, usize> {
        pairs
            .iter()
            .enumerate()
            .map(|(i, p)| (self.key(p), i))
            .collect()
    }

    /// The goals of the instance sets, each once, in set order.
    pub fn goals(&self) -> Vec<Goal> {
        let mut goals: Vec<Goal> = Vec::new();
        for (_, set) in &self.sets {
            if !goals.contains(&set.goal) {
                goals.push(set.goal.clone());
            }
        }
        goals
    }

    /// `results/` followed by the instance-set names joined by `+`.
    pub fn default_out(&self) -> PathBuf {
        let names: Vec<&str> = self.sets.iter().map(|(_, s)| s.name.as_str()).collect();
        PathBuf::from("results").join(names.join("+"))
    }
}

/// An experiment as asked for on the command line (`run`, `slurm submit`); empty lists mean
/// the default experiment's.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Request {
    /// Instance selections, `FILE` or `FILE:FIRST-LAST`.
    pub instances: Vec<String>,
    pub heuristics: Vec<String>,
    /// The groups of `-H pdb` / `-H pdbr`.
    pub partition: Option<String>,
    pub time_limit_seconds: Option<f64>,
    pub node_limit: Option<u64>,
    /// Outside solvers, `NAME[:HEURISTIC]=COMMAND` each.
    pub solvers: Vec<String>,
    /// Outside solvers: kill one whose resident memory exceeds this (`2G`, `512M`, MB).
    pub memory_limit: Option<String>,
    /// Outside solvers: where an instance file gives no optimal length, find it with the
    /// built-in search and check the solver's against it.
    pub check_optimal: bool,
}

/// A [`Request`] read: the experiment and its limits.
#[derive(Debug, Clone)]
pub struct Chosen {
    pub exp: Experiment,
    /// No instances were given: the default experiment.
    pub default: bool,
    pub time_limit: Option<Duration>,
    pub node_limit: Option<u64>,
    /// Bytes.
    pub memory_limit: Option<u64>,
    pub check_optimal: bool,
}

impl Request {
    /// Whether anything about the experiment was given (else a stored one may be used).
    pub fn is_given(&self) -> bool {
        !self.instances.is_empty()
            || !self.heuristics.is_empty()
            || self.node_limit.is_some()
            || self.time_limit_seconds.is_some()
            || !self.solvers.is_empty()
            || self.memory_limit.is_some()
            || self.check_optimal
    }

    /// Reads the instance files and parses the heuristics and limits.
    pub fn read(&self) -> Result<Chosen, ExperimentError> {
        let default = self.instances.is_empty();
        let or_default = |given: &[String], default: &[&str]| -> Vec<String> {
            if given.is_empty() {
                default.iter().map(|s| s.to_string()).collect()
            } else {
                given.to_vec()
            }
        };
        let selections = or_default(&self.instances, DEFAULT_INSTANCES);
        // With outside solvers and no -H, only the solvers run.
        let default_heuristics = if self.solvers.is_empty() {
            DEFAULT_HEURISTICS
        } else {
            &[]
        };
        let heuristics = or_default(&self.heuristics, default_heuristics)
            .iter()
            .map(|n| HeuristicName::with_partition(n, self.partition.as_deref()))
            .collect::<Result<Vec<_>, _>>()?;
        let time_limit = self
            .time_limit_seconds
            .map(|s| crate::limits::time_limit_seconds(s, &s.to_string()))
            .transpose()
            .map_err(|e| ExperimentError::BadOption(format!("--time-limit: {e}")))?;
        if self.node_limit == Some(0) {
            return Err(ExperimentError::BadOption(
                "--node-limit: 0 is out of range: give a node count from 1".into(),
            ));
        }
        let mut exp = Experiment::read(&selections, heuristics)?;
        exp.solvers = self
            .solvers
            .iter()
            .map(|s| OutsideSolver::parse(s))
            .collect::<Result<Vec<_>, _>>()?;
        let mut names: Vec<&str> = (0..exp.series_count())
            .map(|i| exp.series(i).name())
            .collect();
        names.sort_unstable();
        if let Some(w) = names.windows(2).find(|w| w[0] == w[1]) {
            return Err(ExperimentError::BadOption(format!(
                "'{}' is given twice (heuristics and solvers name their rows)",
                w[0]
            )));
        }
        Ok(Chosen {
            exp,
            default,
            time_limit,
            node_limit: self.node_limit,
            memory_limit: self
                .memory_limit
                .as_deref()
                .map(super::outside::parse_memory)
                .transpose()?,
            check_optimal: self.check_optimal,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    /// The default experiment's files exist, parse, and name known heuristics.
    #[test]
    fn the_default_experiment_reads() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let request = Request {
            instances: DEFAULT_INSTANCES
                .iter()
                .map(|s| root.join(s).display().to_string())
                .collect(),
            ..Request::default()
        };
        let chosen = request.read().unwrap();
        let exp = &chosen.exp;
        assert_eq!(exp.pairs().len(), 40 * DEFAULT_HEURISTICS.len());
        assert_eq!(exp.sets[1].1.instances[9].id, "10");
        assert_eq!(exp.heuristics[2].as_str(), "pdb-663");
        assert_eq!(exp.goals().len(), 1);
        let order = exp.order(&exp.pairs());
        assert_eq!(order[&RunKey::new("korf100", "1", "manhattan")], 90);
    }

    #[test]
    fn bad_limits_and_partitions_are_refused() {
        let r = Request {
            time_limit_seconds: Some(-1.0),
            ..Request::default()
        };
        assert!(r.read().unwrap_err().to_string().contains("--time-limit"));
        let r = Request {
            heuristics: vec!["manhattan".into()],
            partition: Some("1,2/3".into()),
            ..Request::default()
        };
        assert!(r
            .read()
            .unwrap_err()
            .to_string()
            .contains("--partition goes with"));
    }
}
