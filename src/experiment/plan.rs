//! The plan of an experiment: its instance sets, algorithms and heuristics, and the (instance,
//! algorithm, heuristic) pairs they make, in the order every result file is sorted into.
//!
//! The heuristics (`-H`) pair with every algorithm that uses one (IDA*, A*); breadth-first search
//! uses none and runs once per instance, with an empty heuristic column, whatever heuristics the
//! other algorithms run with (`-H` with bfs alone is refused).

use std::collections::HashMap;
use std::path::PathBuf;

use super::outside::OutsideSolver;
use super::ExperimentError;
use crate::analysis::first_appearance;
use crate::board::Goal;
use crate::heuristic::{split_names, HeuristicName};
use crate::instances::{InstanceError, InstanceSet};
use crate::results::{Method, RunKey};
use crate::search::{Algorithm, Limits, Pruning};

/// The default experiment (`tilebench run` with no arguments): instance selections, relative
/// to the checkout (see `docs/experiments.md`).
pub const DEFAULT_INSTANCES: &[&str] = &[
    "instances/walk150-4x4-s42.txt",
    "instances/korf100.txt:1-10",
];

/// The heuristics of the default experiment, and of any run without `-H`: of these, those that
/// fit every instance set's board (pdb-663 only 4x4).
pub const DEFAULT_HEURISTICS: &[&str] = &["manhattan", "linear-conflict", "pdb-663"];

/// Where the default experiment writes.
pub const DEFAULT_OUT: &str = "results/default";

/// An experiment: its instance sets, algorithms, heuristics and outside solvers, and what every
/// pair of it runs under (a `--resume`, a shard or a re-submission must keep all of it).
#[derive(Debug, Clone)]
pub struct Experiment {
    /// Each set with the selection it was read from (`FILE` or `FILE:FIRST-LAST`).
    pub sets: Vec<(String, InstanceSet)>,
    /// In the order given; IDA* alone unless asked otherwise.
    pub algorithms: Vec<Algorithm>,
    pub heuristics: Vec<HeuristicName>,
    /// Programs run beside the built-in search (`--solver NAME=COMMAND`).
    pub solvers: Vec<OutsideSolver>,
    /// IDA*'s duplicate-path pruning (parent pruning unless asked).
    pub pruning: Pruning,
    /// When each pair's search or process gives up (never a cancel flag: that is the session's).
    pub limits: Limits,
    /// Outside solvers: where an instance file gives no optimal length, find it with the
    /// built-in search and check the solver's against it.
    pub check_optimal: bool,
    /// One complete IDA* iteration with this threshold per pair instead of a full search.
    pub fixed_bound: Option<u32>,
    /// Default heuristics left out (no -H) because some set's board does not take them, each
    /// with why: said when the session starts, since a set that takes one does without it.
    pub left_out: Vec<String>,
}

/// One pair of an [`Experiment`], by index: an (instance, algorithm, heuristic) of the built-in
/// search (no heuristic for breadth-first search), or an (instance, outside solver).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Pair {
    pub set: usize,
    pub instance: usize,
    pub by: By,
}

/// What runs a [`Pair`], by index into the [`Experiment`]'s lists.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum By {
    /// The built-in search; `heuristic` indexes [`Experiment::heuristics`] (none for
    /// breadth-first search).
    Builtin {
        algorithm: Algorithm,
        heuristic: Option<usize>,
    },
    /// Index into [`Experiment::solvers`].
    Outside(usize),
}

impl Pair {
    /// The built-in search's algorithm (none for an outside solver).
    pub fn algorithm(&self) -> Option<Algorithm> {
        match self.by {
            By::Builtin { algorithm, .. } => Some(algorithm),
            By::Outside(_) => None,
        }
    }

    /// The index of the pair's heuristic (none for breadth-first search and outside solvers).
    pub fn heuristic(&self) -> Option<usize> {
        match self.by {
            By::Builtin { heuristic, .. } => heuristic,
            By::Outside(_) => None,
        }
    }

    pub(crate) fn is_ida(&self) -> bool {
        self.algorithm() == Some(Algorithm::Ida)
    }
}

impl Experiment {
    /// Reads every selection; all must parse (the run refuses to start on any malformed line).
    pub fn read(
        selections: &[String],
        algorithms: Vec<Algorithm>,
        heuristics: Vec<HeuristicName>,
        solvers: Vec<OutsideSolver>,
    ) -> Result<Self, ExperimentError> {
        check_methods(&algorithms, &heuristics, &solvers)?;
        Self::of_sets(read_sets(selections)?, algorithms, heuristics, solvers)
    }

    /// The experiment of sets already read (see [`read_sets`]), of methods the caller has
    /// passed through [`check_methods`].
    fn of_sets(
        sets: Vec<(String, InstanceSet)>,
        algorithms: Vec<Algorithm>,
        heuristics: Vec<HeuristicName>,
        solvers: Vec<OutsideSolver>,
    ) -> Result<Self, ExperimentError> {
        // A heuristic that cannot serve a set's board is refused before any file is written.
        if algorithms.iter().any(|a| a.uses_heuristic()) {
            for ((selection, set), h) in sets
                .iter()
                .flat_map(|s| heuristics.iter().map(move |h| (s, h)))
            {
                h.fits(&set.goal)
                    .map_err(|source| ExperimentError::Heuristic {
                        heuristic: h.to_string(),
                        goal: format!("{} ({}) of {selection}", set.goal.name(), set.size),
                        source: Box::new(source),
                    })?;
            }
        }
        // So is a solver's `:HEURISTIC`: the report sets the built-in search under it beside
        // the solver, and a heuristic no set's board has would compare with nothing.
        for ((selection, set), solver) in sets
            .iter()
            .flat_map(|s| solvers.iter().map(move |v| (s, v)))
        {
            let Some(h) = solver.compared.as_ref().and_then(|c| c.heuristic.as_ref()) else {
                continue;
            };
            h.fits(&set.goal)
                .map_err(|source| ExperimentError::Heuristic {
                    heuristic: format!("{h} (of --solver {})", solver.name),
                    goal: format!("{} ({}) of {selection}", set.goal.name(), set.size),
                    source: Box::new(source),
                })?;
        }
        Ok(Experiment {
            sets,
            algorithms,
            heuristics,
            solvers,
            pruning: Pruning::Parent,
            limits: Limits::none(),
            check_optimal: false,
            fixed_bound: None,
            left_out: Vec::new(),
        })
    }

    /// Every pair, in the experiment's order: set, then instance, then algorithm (in the order
    /// given), then heuristic, then the outside solvers; breadth-first search once per instance.
    pub fn pairs(&self) -> Vec<Pair> {
        let mut pairs = Vec::new();
        for (set, (_, s)) in self.sets.iter().enumerate() {
            for instance in 0..s.instances.len() {
                for &algorithm in &self.algorithms {
                    let heuristics: Vec<Option<usize>> = if algorithm.uses_heuristic() {
                        (0..self.heuristics.len()).map(Some).collect()
                    } else {
                        vec![None]
                    };
                    for heuristic in heuristics {
                        pairs.push(Pair {
                            set,
                            instance,
                            by: By::Builtin {
                                algorithm,
                                heuristic,
                            },
                        });
                    }
                }
                for solver in 0..self.solvers.len() {
                    pairs.push(Pair {
                        set,
                        instance,
                        by: By::Outside(solver),
                    });
                }
            }
        }
        pairs
    }

    /// The heuristic of a pair (none for breadth-first search).
    pub fn heuristic(&self, p: &Pair) -> Option<&HeuristicName> {
        p.heuristic().map(|h| &self.heuristics[h])
    }

    /// What runs pair `p`, by name.
    pub fn method(&self, p: &Pair) -> Method {
        match p.by {
            By::Builtin { algorithm, .. } => Method::builtin(
                algorithm,
                self.heuristic(p).map_or("", HeuristicName::as_str),
            ),
            By::Outside(s) => Method::outside(&self.solvers[s].name),
        }
    }

    /// The names of a pair in the result files.
    pub fn key(&self, p: &Pair) -> RunKey {
        let (_, set) = &self.sets[p.set];
        RunKey::of(&set.name, &set.instances[p.instance].id, self.method(p))
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
        first_appearance(self.sets.iter().map(|(_, set)| set.goal.clone()))
    }

    /// `results/` followed by the instance-set names joined by `+`.
    pub fn default_out(&self) -> PathBuf {
        // File-name safe: a set named `..` must not send the results to the current directory.
        let names: Vec<String> = self
            .sets
            .iter()
            .map(|(_, s)| crate::results::atomic::name_component(&s.name))
            .collect();
        PathBuf::from("results").join(names.join("+"))
    }
}

/// Refuses a list of methods no experiment can run, before any file is read.
fn check_methods(
    algorithms: &[Algorithm],
    heuristics: &[HeuristicName],
    solvers: &[OutsideSolver],
) -> Result<(), ExperimentError> {
    if algorithms.is_empty() && solvers.is_empty() {
        return Err(ExperimentError::BadOption(
            "no algorithm given (--algorithm ida,astar,bfs) and no --solver".into(),
        ));
    }
    if algorithms.iter().any(|a| a.uses_heuristic()) && heuristics.is_empty() {
        return Err(ExperimentError::BadOption(
            "no heuristic given for ida or astar (-H manhattan,…)".into(),
        ));
    }
    for (i, h) in heuristics.iter().enumerate() {
        if heuristics[..i]
            .iter()
            .any(|o| o.to_string() == h.to_string())
        {
            return Err(ExperimentError::DuplicateHeuristic(h.to_string()));
        }
    }
    Ok(())
}

/// Reads every selection into a set; all must parse, and no two sets may share a name.
fn read_sets(selections: &[String]) -> Result<Vec<(String, InstanceSet)>, ExperimentError> {
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
    Ok(sets)
}

/// An experiment as asked for on the command line (`run`, `slurm submit`); empty lists mean
/// the default experiment's.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Request {
    /// Instance selections, `FILE` or `FILE:FIRST-LAST`.
    pub instances: Vec<String>,
    pub heuristics: Vec<String>,
    /// Empty: IDA* alone.
    pub algorithms: Vec<Algorithm>,
    /// The groups of `-H pdb` / `-H pdbr`.
    pub partition: Option<String>,
    pub time_limit_seconds: Option<f64>,
    pub node_limit: Option<u64>,
    /// Bytes A* and breadth-first search may store per pair, and an outside solver's process
    /// may hold resident (status memory-limit beyond).
    pub memory_limit: Option<u64>,
    /// Outside solvers, `NAME[:HEURISTIC]=COMMAND` each.
    pub solvers: Vec<String>,
    /// Outside solvers: where an instance file gives no optimal length, find it with the
    /// built-in search and check the solver's against it.
    pub check_optimal: bool,
    /// IDA*'s duplicate-path pruning.
    pub pruning: Pruning,
    /// `run --fixed-bound`: one complete IDA* iteration with this threshold per pair.
    pub fixed_bound: Option<u32>,
}

/// A [`Request`] read.
#[derive(Debug, Clone)]
pub struct Chosen {
    pub exp: Experiment,
    /// No instances were given: the default experiment.
    pub default: bool,
}

impl Request {
    /// Whether anything about the experiment was given (else a stored one may be used).
    pub(crate) fn is_given(&self) -> bool {
        !self.instances.is_empty()
            || !self.heuristics.is_empty()
            || !self.algorithms.is_empty()
            || self.memory_limit.is_some()
            || self.node_limit.is_some()
            || self.time_limit_seconds.is_some()
            || !self.solvers.is_empty()
            || self.check_optimal
            || !self.pruning.is_parent()
            || self.fixed_bound.is_some()
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
        // With outside solvers and neither -H nor --algorithm, only the solvers run.
        let solvers_alone =
            !self.solvers.is_empty() && self.heuristics.is_empty() && self.algorithms.is_empty();
        let algorithms = if solvers_alone {
            Vec::new()
        } else if self.algorithms.is_empty() {
            vec![Algorithm::Ida]
        } else {
            let mut a = self.algorithms.clone();
            let mut seen = std::collections::HashSet::new();
            a.retain(|x| seen.insert(*x));
            a
        };
        // `-H a,max(b,c)` arrives as one string: split at the separating commas only.
        let names: Vec<String> = or_default(&self.heuristics, DEFAULT_HEURISTICS)
            .iter()
            .flat_map(|list| split_names(list))
            .collect();
        let uses_heuristic = algorithms.iter().any(|a| a.uses_heuristic());
        // `-H none` is `solve`'s way of asking for no heuristic: bfs alone takes it here too.
        let none = names.iter().filter(|n| n.trim() == "none").count();
        if none > 0 && (uses_heuristic || none < names.len()) {
            return Err(ExperimentError::BadOption(
                "-H none (no heuristic) is for bfs only: run bfs with --algorithm bfs, and give \
                 ida or astar a heuristic (-H manhattan,…)"
                    .into(),
            ));
        }
        if !self.heuristics.is_empty() && none == 0 && !uses_heuristic {
            return Err(ExperimentError::BadOption(
                "-H is given but no algorithm uses a heuristic (bfs takes none: leave -H out, or \
                 add ida or astar to run with it)"
                    .into(),
            ));
        }
        // Parsed only for an algorithm that uses them (bfs alone may have `-H none`).
        let heuristics = if uses_heuristic {
            names
                .iter()
                .map(|n| HeuristicName::with_partition(n, self.partition.as_deref()))
                .collect::<Result<Vec<_>, _>>()?
        } else {
            Vec::new()
        };
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
        let solvers = self
            .solvers
            .iter()
            .map(|s| OutsideSolver::parse(s))
            .collect::<Result<Vec<_>, _>>()?;
        // A solver cannot take a heuristic's name (see `OutsideSolver::parse`), nor another's.
        let mut names: Vec<&str> = solvers.iter().map(|s| s.name.as_str()).collect();
        names.sort_unstable();
        if let Some(w) = names.windows(2).find(|w| w[0] == w[1]) {
            return Err(ExperimentError::BadOption(format!(
                "'{}' is given twice (heuristics and solvers name their rows)",
                w[0]
            )));
        }
        if let Some(a) = algorithms
            .iter()
            .find(|&&a| a != Algorithm::Ida)
            .filter(|_| !self.pruning.is_parent())
        {
            return Err(ExperimentError::BadOption(format!(
                "--pruning {} prunes IDA*'s duplicate paths: {a} stores the states it reached \
                 (run it without --pruning)",
                self.pruning
            )));
        }
        if let Some(a) = self.fixed_bound.and(
            algorithms
                .iter()
                .find(|&&a| a != crate::search::Algorithm::Ida),
        ) {
            return Err(ExperimentError::BadOption(format!(
                "--fixed-bound runs one IDA* iteration per pair: {a} has no bound (run it with \
                 --algorithm ida)"
            )));
        }
        if self.fixed_bound.is_some() && !self.pruning.is_parent() {
            return Err(ExperimentError::BadOption(format!(
                "--fixed-bound runs the parent-pruned iteration that `predict` predicts: leave \
                 --pruning {} out",
                self.pruning
            )));
        }
        if self.fixed_bound.is_some() && !solvers.is_empty() {
            return Err(ExperimentError::BadOption(
                "--fixed-bound runs one IDA* iteration per pair: an outside solver has no bound \
                 (leave --solver out)"
                    .into(),
            ));
        }
        check_methods(&algorithms, &heuristics, &solvers)?;
        let sets = read_sets(&selections)?;
        let mut heuristics = heuristics;
        let mut left_out = Vec::new();
        if self.heuristics.is_empty() {
            // The default list is for the 4x4 board: keep those that fit every set's board
            // (Manhattan and linear conflict fit all; pdb-663 only 4x4), rather than refuse a
            // heuristic the user never asked for; where a set could have taken it, say so.
            heuristics.retain(|h| {
                let misfit: Vec<String> = (sets.iter())
                    .filter(|(_, set)| h.fits(&set.goal).is_err())
                    .map(|(_, set)| format!("{} ({})", set.name, set.size))
                    .collect();
                if !misfit.is_empty() && misfit.len() < sets.len() {
                    left_out.push(format!(
                        "{h} left out of every set: it does not fit {} (run the sets that \
                         take it on their own, or choose with -H)",
                        misfit.join(", ")
                    ));
                }
                misfit.is_empty()
            });
        }
        let mut exp = Experiment::of_sets(sets, algorithms, heuristics, solvers)?;
        exp.left_out = left_out;
        exp.pruning = self.pruning;
        exp.limits = Limits {
            node_limit: self.node_limit,
            time_limit,
            memory_limit: self.memory_limit,
            cancel: None,
        };
        exp.check_optimal = self.check_optimal;
        exp.fixed_bound = self.fixed_bound;
        Ok(Chosen { exp, default })
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

    fn eight_puzzle() -> (tempfile::TempDir, String) {
        let tmp = tempfile::tempdir().unwrap();
        let file = tmp.path().join("e.txt");
        std::fs::write(
            &file,
            "# tilebench-instances v1\n# size: 3x3\n# goal: blank-last\n\
             id\toptimal_length\ttiles\na\t2\t1 2 3 4 0 5 7 8 6\n",
        )
        .unwrap();
        let file = file.display().to_string();
        (tmp, file)
    }

    /// Without -H, a 3x3 set runs the default heuristics that fit its board: not pdb-663, which
    /// the user never asked for and which only fits 4x4.
    #[test]
    fn the_default_heuristics_fit_the_board() {
        let (_tmp, file) = eight_puzzle();
        let request = Request {
            instances: vec![file.clone()],
            ..Request::default()
        };
        let exp = request.read().unwrap().exp;
        let names: Vec<&str> = exp.heuristics.iter().map(HeuristicName::as_str).collect();
        assert_eq!(names, ["manhattan", "linear-conflict"]);
        // Said only where another set could have taken it.
        assert!(exp.left_out.is_empty(), "{:?}", exp.left_out);
        let korf = Path::new(env!("CARGO_MANIFEST_DIR")).join("instances/korf100.txt:1");
        let request = Request {
            instances: vec![file.clone(), korf.display().to_string()],
            ..Request::default()
        };
        let exp = request.read().unwrap().exp;
        assert_eq!(exp.heuristics.len(), 2);
        assert_eq!(
            exp.left_out,
            ["pdb-663 left out of every set: it does not fit e (3x3) (run the sets that take it \
              on their own, or choose with -H)"]
        );
        // Asked for by name, it is still refused.
        let request = Request {
            instances: vec![file],
            heuristics: vec!["pdb-663".into()],
            ..Request::default()
        };
        assert!(request.read().unwrap_err().to_string().contains("pdb-663"));
    }

    /// `-H none` is what `solve` takes for bfs; `run` takes it with bfs alone, and otherwise says
    /// how to run bfs instead of calling the name unknown.
    #[test]
    fn heuristic_none_points_to_bfs() {
        let (_tmp, file) = eight_puzzle();
        let request = Request {
            instances: vec![file],
            heuristics: vec!["none".into()],
            ..Request::default()
        };
        let e = request.clone().read().unwrap_err().to_string();
        assert!(e.contains("--algorithm bfs"), "{e}");
        // With bfs alone, as in `solve -a bfs -H none`, it means what it says.
        let bfs = Request {
            algorithms: vec![Algorithm::Bfs],
            ..request
        };
        let exp = bfs.read().unwrap().exp;
        assert!(exp.heuristics.is_empty());
        assert_eq!(exp.pairs().len(), 1);
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
