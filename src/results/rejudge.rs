//! `solved` rows judged again against the shortest solution their experiment knows, whenever
//! rows are written or read.

use std::collections::hash_map::Entry;
use std::collections::HashMap;

use super::record::{problem, RunRecord, RunStatus};

/// Re-judges `solved` rows against the shortest length the experiment knows for their instance:
/// the row's own `optimal_length` (from the instance file or `--check-optimal`), or else the
/// shortest solution of any row that replays to the goal (`verified`: such moves bound the
/// optimum from above, whoever found them). A row longer than that is `wrong-length`, whichever
/// row was written first: an outside answer that is not optimal, or a built-in search whose
/// heuristic, declared admissible, is not (every built-in heuristic and breadth-first search is
/// optimal). Returns one line per row changed, as the runner prints its problems.
pub(crate) fn rejudge_lengths(runs: &mut [RunRecord]) -> Vec<String> {
    let mut shortest: HashMap<(String, String), (u32, String)> = HashMap::new();
    for r in runs
        .iter()
        .filter(|r| r.status == RunStatus::Solved && r.verified)
    {
        let Some(length) = r.length else { continue };
        match shortest.entry((r.instance_set.clone(), r.instance_id.clone())) {
            Entry::Occupied(e) if e.get().0 <= length => {}
            Entry::Occupied(mut e) => {
                e.insert((length, r.label()));
            }
            Entry::Vacant(e) => {
                e.insert((length, r.label()));
            }
        }
    }
    let mut changed = Vec::new();
    for r in runs.iter_mut().filter(|r| r.status == RunStatus::Solved) {
        let Some(length) = r.length else { continue };
        let found = shortest.get(&(r.instance_set.clone(), r.instance_id.clone()));
        let (best, by) = match (r.optimal_length, found) {
            (Some(o), _) => (o, None),
            (None, Some((l, m))) => (*l, Some(m.as_str())),
            (None, None) => continue,
        };
        if length <= best {
            continue;
        }
        // A built-in search is optimal under an admissible heuristic.
        let cause = match r.heuristic.as_str() {
            h if r.solver.is_builtin() && !h.is_empty() => {
                format!("; heuristic {h} is not admissible")
            }
            _ => String::new(),
        };
        r.detail = match by {
            Some(m) => {
                format!("{length} moves, {AT_MOST} {best} (found by {m} in this experiment){cause}")
            }
            None => format!("{length} moves, but the optimal length is {best}{cause}"),
        };
        r.status = RunStatus::WrongLength;
        r.verified = false;
        r.optimal_length = Some(best);
        changed.push(problem(r.status, r.key(), &r.detail));
    }
    changed
}

/// How a row judged against another row's shorter solution says so: that length bounds the
/// optimum from above and is not known to be optimal.
const AT_MOST: &str = "but the optimal length is at most";

/// Whether `r`'s `optimal_length` is only another row's shorter solution ([`rejudge_lengths`]
/// without a known optimum), not a length known to be optimal.
pub(crate) fn optimal_length_is_a_bound(r: &RunRecord) -> bool {
    r.detail.contains(AT_MOST)
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
            assert!(optimal_length_is_a_bound(long), "{}", long.detail);
            let ok = runs
                .iter()
                .find(|r| r.heuristic == "mine" && r.instance_id == "2");
            assert_eq!(ok.unwrap().status, RunStatus::Solved);
        }
        // Against a known optimal length, the row's is no bound but the optimum.
        let mut runs = vec![RunRecord {
            optimal_length: Some(20),
            ..outside("1", 22)
        }];
        rejudge_lengths(&mut runs);
        assert_eq!(runs[0].status, RunStatus::WrongLength);
        assert!(!optimal_length_is_a_bound(&runs[0]), "{}", runs[0].detail);
    }
}
