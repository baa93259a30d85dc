//! Outside solvers beside the built-in search: per instance, the solver's status, length and
//! reported node counts next to the built-in search's under the heuristic the solver implements,
//! so that a student sees whether their counting matches tilebench's.

use std::collections::HashMap;

use crate::results::rejudge::optimal_length_is_a_bound;
use crate::results::{
    proves_optimal, IterationRecord, Method, Results, RunKey, RunRecord, RunStatus,
};

/// One instance: the solver's run and, when there is one, the built-in run it is compared with.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct InstanceComparison {
    pub instance_set: String,
    pub instance_id: String,
    pub status: RunStatus,
    pub length: Option<u32>,
    /// Whether the length was checked against an optimal one (from the instance file,
    /// `--check-optimal` or an optimal built-in search: see `results::rejudge`, which leaves a
    /// length no longer than a proven one as it is; such a run is [`OptimalBy::Run`]): a
    /// `solved` answer whose length nobody checked is only known to replay to the goal.
    pub length_checked: bool,
    pub seconds: f64,
    /// `None` when the solver did not report it.
    pub generated: Option<u64>,
    pub expanded: Option<u64>,
    /// The built-in run under the compared heuristic: (length, generated, expanded).
    pub builtin: Option<(Option<u32>, Option<u64>, Option<u64>)>,
    /// Whether every iteration's bound, generated and expanded counts are equal (`None` when
    /// either side has no iteration rows, or there is no built-in run).
    pub iterations_agree: Option<bool>,
    /// The instance's optimal length as known without the compared run, and from where: for
    /// the built-in length where that run is missing or gave none.
    pub known_optimal: Option<(u32, OptimalBy)>,
    /// Why the status is what it is (`runs.csv`'s `detail`: the message, the end of standard
    /// error and the log's path); empty when solved.
    pub detail: String,
}

/// Where an optimal length known beside the compared run comes from.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum OptimalBy {
    /// A built-in run of the same experiment whose search proves its length optimal
    /// (breadth-first search, an admissible heuristic): its method's label.
    Run(String),
    /// The optimal length the solver's answer was judged against: the instance file's, else
    /// (`--check-optimal`) the built-in search's.
    Checked,
}

impl InstanceComparison {
    /// Lengths equal (both solved, or both without a length).
    pub(crate) fn length_agrees(&self) -> Option<bool> {
        self.builtin.map(|(l, _, _)| l == self.length)
    }

    /// Totals equal (generated and expanded, those of the two the solver reported); `None`
    /// when it reported neither: counts not reported neither agree nor differ.
    pub(crate) fn totals_agree(&self) -> Option<bool> {
        let (_, g, e) = self.builtin?;
        let compared: Vec<bool> = [(self.generated, g), (self.expanded, e)]
            .into_iter()
            .filter_map(|(ours, theirs)| ours.map(|o| Some(o) == theirs))
            .collect();
        (!compared.is_empty()).then(|| compared.iter().all(|&b| b))
    }
}

/// One outside solver over the results.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct SolverComparison {
    pub solver: String,
    /// The command, from `meta.json` (when present).
    pub command: Option<String>,
    /// The label of the built-in method it is compared with ([`Method::label`]: IDA*'s
    /// heuristic, `astar+H`, `bfs`).
    pub heuristic: Option<String>,
    pub instances: Vec<InstanceComparison>,
}

impl SolverComparison {
    /// Whether the solver reported a node count on any instance.
    pub fn reported_counts(&self) -> bool {
        self.instances
            .iter()
            .any(|i| i.generated.is_some() || i.expanded.is_some())
    }

    /// How many instances satisfy `test` (counting only those it answers).
    pub fn count(&self, test: impl Fn(&InstanceComparison) -> Option<bool>) -> (usize, usize) {
        let answered: Vec<bool> = self.instances.iter().filter_map(test).collect();
        (answered.iter().filter(|&&b| b).count(), answered.len())
    }
}

/// Every outside solver in `results` (in order of first appearance), each compared instance
/// by instance with the built-in runs of its heuristic.
pub(crate) fn compare_solvers(results: &Results) -> Vec<SolverComparison> {
    let declared = results
        .meta
        .as_ref()
        .map(|m| m.experiment.solver_infos())
        .unwrap_or_default();
    let mut names: Vec<&str> = Vec::new();
    for r in results.runs.iter().filter(|r| !r.solver.is_builtin()) {
        if !names.contains(&r.solver.as_str()) {
            names.push(r.solver.as_str());
        }
    }
    let runs: HashMap<RunKey, &RunRecord> = results.runs.iter().map(|r| (r.key(), r)).collect();
    let mut iterations: HashMap<RunKey, Vec<&IterationRecord>> = HashMap::new();
    for i in &results.iterations {
        iterations.entry(i.key()).or_default().push(i);
    }
    // Per instance, a built-in run that proves its length optimal (all such agree:
    // `check_solutions`): bfs, which needs no heuristic to be optimal, else the first label in
    // order, whatever order the rows were written in.
    let mut proven: HashMap<(&str, &str), (u32, String)> = HashMap::new();
    let rank = |label: &str| (label != "bfs", label.to_string());
    for r in (results.runs.iter()).filter(|r| r.status == RunStatus::Solved && proves_optimal(r)) {
        let Some(length) = r.length else { continue };
        let instance = (r.instance_set.as_str(), r.instance_id.as_str());
        let label = r.label();
        match proven.get(&instance) {
            Some((_, kept)) if rank(kept) <= rank(&label) => {}
            _ => {
                proven.insert(instance, (length, label));
            }
        }
    }
    let known_optimal = |r: &RunRecord| {
        let instance = (r.instance_set.as_str(), r.instance_id.as_str());
        match proven.get(&instance) {
            Some((length, label)) => Some((*length, OptimalBy::Run(label.clone()))),
            None => (r.optimal_length)
                .filter(|_| !optimal_length_is_a_bound(r))
                .map(|l| (l, OptimalBy::Checked)),
        }
    };
    let counts = |key: &RunKey| -> Option<Vec<(u32, u64, u64)>> {
        let mut its = iterations.get(key)?.clone();
        its.sort_by_key(|i| i.iteration);
        Some(
            its.iter()
                .map(|i| (i.bound, i.generated, i.expanded))
                .collect(),
        )
    };
    names
        .into_iter()
        .map(|name| {
            let info = declared.iter().find(|s| s.name == name);
            let heuristic = info.and_then(|s| s.heuristic.clone());
            let instances = results
                .runs
                .iter()
                .filter(|r| r.solver.as_str() == name)
                .map(|r| {
                    // Named by its label: IDA*'s heuristic, `astar+H` or `bfs`.
                    let builtin_key = heuristic.as_deref().map(|h| {
                        RunKey::of(&r.instance_set, &r.instance_id, Method::from_label(h))
                    });
                    let builtin = builtin_key.as_ref().and_then(|k| runs.get(k));
                    let iterations_agree = match (builtin_key.as_ref(), builtin) {
                        (Some(k), Some(_)) => match (counts(&r.key()), counts(k)) {
                            (Some(a), Some(b)) => Some(a == b),
                            _ => None,
                        },
                        _ => None,
                    };
                    let known = known_optimal(r);
                    InstanceComparison {
                        instance_set: r.instance_set.clone(),
                        instance_id: r.instance_id.clone(),
                        status: r.status,
                        length: r.length,
                        length_checked: r.optimal_length.is_some()
                            || matches!(known, Some((_, OptimalBy::Run(_)))),
                        seconds: r.seconds,
                        generated: r.generated,
                        expanded: r.expanded,
                        builtin: builtin.map(|b| (b.length, b.generated, b.expanded)),
                        iterations_agree,
                        known_optimal: known,
                        detail: r.detail.clone(),
                    }
                })
                .collect();
            SolverComparison {
                solver: name.to_string(),
                command: info.map(|s| s.command.clone()),
                heuristic,
                instances,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::results::{Meta, SolverName};

    fn run(id: &str, solver: &str, heuristic: &str, generated: u64) -> RunRecord {
        RunRecord {
            instance_set: "s".into(),
            instance_id: id.into(),
            solver: if solver == "tilebench" {
                SolverName::default()
            } else {
                SolverName::outside(solver)
            },
            heuristic: heuristic.into(),
            status: RunStatus::Solved,
            length: Some(10),
            generated: Some(generated),
            expanded: Some(generated / 2),
            ..RunRecord::default()
        }
    }

    fn it(id: &str, heuristic: &str, generated: u64) -> IterationRecord {
        IterationRecord {
            instance_set: "s".into(),
            instance_id: id.into(),
            heuristic: heuristic.into(),
            iteration: 1,
            bound: 10,
            generated,
            expanded: generated / 2,
            ..IterationRecord::default()
        }
    }

    #[test]
    fn solvers_are_compared_with_their_heuristic() {
        let meta_text = include_str!("../../tests/fixtures/small/meta.json");
        let mut meta = Meta::parse(std::path::Path::new("meta.json"), meta_text).unwrap();
        meta.experiment.solvers = vec!["py:manhattan=python3 ida.py".into()];
        let results = Results {
            dir: "r".into(),
            runs: vec![
                run("1", "tilebench", "manhattan", 100),
                run("1", "py", "py", 100),
                run("2", "tilebench", "manhattan", 80),
                run("2", "py", "py", 81),
            ],
            iterations: vec![
                it("1", "manhattan", 100),
                it("1", "py", 100),
                it("2", "manhattan", 80),
                it("2", "py", 81),
            ],
            meta: Some(meta),
        };
        let c = compare_solvers(&results);
        assert_eq!(c.len(), 1);
        assert_eq!(c[0].command.as_deref(), Some("python3 ida.py"));
        assert_eq!(c[0].count(InstanceComparison::length_agrees), (2, 2));
        assert_eq!(c[0].count(InstanceComparison::totals_agree), (1, 2));
        assert_eq!(c[0].count(|i| i.iterations_agree), (1, 2));
    }

    /// An outside breadth-first search is set beside the built-in bfs, an outside A* beside
    /// `astar+H`, each by the label of its series, not beside the IDA* run of the instance.
    #[test]
    fn solvers_are_compared_with_a_builtin_method_by_its_label() {
        use crate::search::Algorithm;
        let meta_text = include_str!("../../tests/fixtures/small/meta.json");
        let mut meta = Meta::parse(std::path::Path::new("meta.json"), meta_text).unwrap();
        meta.experiment.solvers = vec![
            "mybfs:bfs=python3 bfs.py".into(),
            "mya:astar+manhattan=python3 a.py".into(),
        ];
        let by = |algorithm: Algorithm, heuristic: &str, generated: u64| RunRecord {
            algorithm: algorithm.into(),
            ..run("1", "tilebench", heuristic, generated)
        };
        let bfs_it = IterationRecord {
            algorithm: Algorithm::Bfs.into(),
            ..it("1", "", 500)
        };
        let results = Results {
            dir: "r".into(),
            runs: vec![
                by(Algorithm::Ida, "manhattan", 100),
                by(Algorithm::Astar, "manhattan", 40),
                by(Algorithm::Bfs, "", 500),
                run("1", "mybfs", "mybfs", 500),
                run("1", "mya", "mya", 41),
            ],
            iterations: vec![bfs_it, it("1", "mybfs", 500)],
            meta: Some(meta),
        };
        let c = compare_solvers(&results);
        assert_eq!(c[0].heuristic.as_deref(), Some("bfs"));
        assert_eq!(
            c[0].instances[0].builtin,
            Some((Some(10), Some(500), Some(250)))
        );
        assert_eq!(c[0].instances[0].iterations_agree, Some(true));
        assert_eq!(
            c[1].instances[0].builtin,
            Some((Some(10), Some(40), Some(20)))
        );
        assert_eq!(c[1].count(InstanceComparison::totals_agree), (0, 1));
        // The optimal length is known from a run that proves it: bfs before the others.
        assert_eq!(
            c[0].instances[0].known_optimal,
            Some((10, OptimalBy::Run("bfs".into())))
        );
    }

    /// The optimal length beside a solver's answer: a built-in run's that proves it optimal,
    /// else the one the answer was checked against, never another answer's length that only
    /// bounds it.
    #[test]
    fn the_known_optimal_length_says_where_it_comes_from() {
        use crate::search::Algorithm;
        let mut results = Results {
            dir: "r".into(),
            runs: vec![
                RunRecord {
                    algorithm: Algorithm::Bfs.into(),
                    length: Some(12),
                    ..run("1", "tilebench", "", 900)
                },
                RunRecord {
                    optimal_length: Some(12),
                    ..run("1", "py", "py", 100)
                },
                RunRecord {
                    optimal_length: Some(14),
                    ..run("2", "py", "py", 100)
                },
                RunRecord {
                    status: RunStatus::WrongLength,
                    length: Some(16),
                    optimal_length: Some(14),
                    detail: "16 moves, but the optimal length is at most 14 (found by other in \
                             this experiment)"
                        .into(),
                    ..run("3", "py", "py", 100)
                },
                // A built-in run stopped short proves nothing.
                RunRecord {
                    status: RunStatus::TimeLimit,
                    length: None,
                    ..run("4", "tilebench", "manhattan", 100)
                },
                run("4", "py", "py", 100),
            ],
            iterations: vec![],
            meta: None,
        };
        let known = |results: &Results| -> Vec<Option<(u32, OptimalBy)>> {
            compare_solvers(results)[0]
                .instances
                .iter()
                .map(|i| i.known_optimal.clone())
                .collect()
        };
        assert_eq!(
            known(&results),
            [
                Some((12, OptimalBy::Run("bfs".into()))),
                Some((14, OptimalBy::Checked)),
                None,
                None,
            ]
        );
        // A solved answer as long as a proven optimum was checked, though its row has no
        // optimal length (rejudging leaves a length no longer than the shortest alone).
        results.runs[1].optimal_length = None;
        let checked: Vec<bool> = compare_solvers(&results)[0]
            .instances
            .iter()
            .map(|i| i.length_checked)
            .collect();
        assert_eq!(checked, [true, true, true, false]);
        results.runs[1].optimal_length = Some(12);
        // Without bfs, the first label: astar+manhattan before manhattan, in either order.
        let ida = RunRecord {
            length: Some(12),
            ..run("1", "tilebench", "manhattan", 900)
        };
        let astar = RunRecord {
            algorithm: Algorithm::Astar.into(),
            ..ida.clone()
        };
        for first in [&ida, &astar] {
            let mut r = results.clone();
            r.runs[0] = first.clone();
            r.runs.push(if first == &ida {
                astar.clone()
            } else {
                ida.clone()
            });
            let by = Some((12, OptimalBy::Run("astar+manhattan".into())));
            assert_eq!(known(&r)[0], by);
        }
        // A built-in search with an inadmissible heuristic proves nothing either.
        results.runs[0].algorithm = Algorithm::Ida.into();
        results.runs[0].heuristic = "no-such-heuristic".into();
        assert_eq!(known(&results)[0], Some((12, OptimalBy::Checked)));
    }
}
