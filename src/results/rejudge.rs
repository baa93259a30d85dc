//! Outside solvers' `solved` rows judged again against the optimal lengths their experiment
//! knows, whenever rows are written or read.

use std::collections::HashMap;

use super::record::{problem, RunRecord, RunStatus};

/// Re-judges outside solvers' `solved` rows against the optimal lengths the experiment knows: a
/// row's own `optimal_length` (from the instance file or `--check-optimal`) or the length a
/// built-in search of the same experiment found (every built-in algorithm is optimal). An
/// answer longer than that is `wrong-length`, whichever of the two rows was written first.
/// Returns one line per row changed, as the runner prints its problems.
pub(crate) fn rejudge_lengths(runs: &mut [RunRecord]) -> Vec<String> {
    let mut found: HashMap<(String, String), (u32, String)> = HashMap::new();
    for r in runs.iter().filter(|r| {
        r.solver.is_builtin() && r.status == RunStatus::Solved && r.verified && r.length.is_some()
    }) {
        let key = (r.instance_set.clone(), r.instance_id.clone());
        let length = r.length.unwrap_or_default();
        found.entry(key).or_insert((length, r.label()));
    }
    let mut changed = Vec::new();
    for r in runs
        .iter_mut()
        .filter(|r| !r.solver.is_builtin() && r.status == RunStatus::Solved)
    {
        let Some(length) = r.length else { continue };
        let builtin = found.get(&(r.instance_set.clone(), r.instance_id.clone()));
        let (best, by) = match (r.optimal_length, builtin) {
            (Some(o), _) => (o, None),
            (None, Some((l, m))) => (*l, Some(m.as_str())),
            (None, None) => continue,
        };
        if length <= best {
            continue;
        }
        r.status = RunStatus::WrongLength;
        r.verified = false;
        r.optimal_length = Some(best);
        r.detail = match by {
            Some(m) => format!(
                "{length} moves, but the optimal length is {best} (found by {m} in this experiment)"
            ),
            None => format!("{length} moves, but the optimal length is {best}"),
        };
        changed.push(problem(r.status, r.key(), &r.detail));
    }
    changed
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An outside answer 2 moves longer than the built-in search's optimum, on a board without
    /// a known optimal length, is `wrong-length` whichever row came first; one of the optimal
    /// length stays solved.
    #[test]
    fn a_too_long_answer_is_wrong_length_in_either_order() {
        use crate::results::{AlgorithmColumn, SolverName};
        use crate::search::Algorithm;
        let builtin = RunRecord {
            instance_set: "s".into(),
            instance_id: "1".into(),
            algorithm: Algorithm::Astar.into(),
            heuristic: "manhattan".into(),
            status: RunStatus::Solved,
            length: Some(20),
            verified: true,
            ..RunRecord::default()
        };
        let outside = |id: &str, length| RunRecord {
            instance_set: "s".into(),
            instance_id: id.into(),
            algorithm: AlgorithmColumn(None),
            heuristic: "mine".into(),
            solver: SolverName::outside("mine"),
            status: RunStatus::Solved,
            length: Some(length),
            verified: true,
            ..RunRecord::default()
        };
        let right = RunRecord {
            instance_id: "2".into(),
            ..builtin.clone()
        };
        for builtin_first in [true, false] {
            let mut runs = vec![outside("1", 22), outside("2", 20)];
            if builtin_first {
                runs.insert(0, builtin.clone());
                runs.insert(1, right.clone());
            } else {
                runs.push(builtin.clone());
                runs.push(right.clone());
            }
            let changed = rejudge_lengths(&mut runs);
            assert_eq!(changed.len(), 1, "{changed:?}");
            let long = runs
                .iter()
                .find(|r| r.heuristic == "mine" && r.instance_id == "1");
            let long = long.unwrap();
            assert_eq!(long.status, RunStatus::WrongLength);
            assert!(!long.verified);
            assert_eq!(long.optimal_length, Some(20));
            assert!(
                long.detail.contains("found by astar+manhattan"),
                "{}",
                long.detail
            );
            let ok = runs
                .iter()
                .find(|r| r.heuristic == "mine" && r.instance_id == "2");
            assert_eq!(ok.unwrap().status, RunStatus::Solved);
        }
    }
}
