//! What `--resume` checks before it adds rows to a results directory: that the directory holds
//! the same experiment (so rows of different experiments are never mixed in one `runs.csv`),
//! and which of its rows `--retry` runs again.
//!
//! The same experiment means: the same instance sets (by name, size, goal and the content of
//! their selected instances, so an edited board is noticed while an edited comment is not), the
//! same heuristics (their labels name custom partitions; the goal is the set's), the same outside
//! solvers (name, heuristic, command, `--check-optimal`), the same algorithms, the same
//! `--fixed-bound` (none, or the same threshold), and the same limits. A limit may change only
//! together with `--retry` of the status it produces
//! (`--time-limit` with `--retry time-limit`, `--node-limit` with `--retry node-limit`,
//! `--memory-limit` with `--retry memory-limit`), so that
//! every row the old limit cut off runs again under the new one.

use std::collections::BTreeSet;

use super::plan::Experiment;
use crate::instances::InstanceSet;
use crate::results::meta::SetInfo;
use crate::results::ExperimentSpec;
use crate::results::{IterationRecord, Meta, RunKey, RunRecord, RunStatus};

/// Every way the experiment about to run differs from the one `stored` describes, in words
/// (empty when `--resume` may go on).
pub fn differences(stored: &Meta, exp: &Experiment, retry: &[RunStatus]) -> Vec<String> {
    let mut d = Vec::new();
    let names = |sets: &mut dyn Iterator<Item = String>| sets.collect::<Vec<_>>().join(",");
    let before = names(&mut stored.instance_sets.iter().map(|s| s.name.clone()));
    let now = names(&mut exp.sets.iter().map(|(_, s)| s.name.clone()));
    if before != now {
        d.push(format!("instance sets: {before} before, {now} now"));
    }
    for (selection, set) in &exp.sets {
        let Some(old) = stored.instance_sets.iter().find(|s| s.name == set.name) else {
            continue;
        };
        d.extend(set_differences(old, selection, set));
    }
    // The rest as every check of one experiment compares it, lists as sets of names (rows
    // are found by name); a changed limit passes with the --retry of the rows it cut off.
    let (stored, now) = (&stored.experiment, ExperimentSpec::new(exp, 0));
    let now = now.methods_and_limits();
    for x in stored.methods_and_limits().differences(&now, false) {
        match x.retried_by {
            Some(s) if retry.contains(&s) => {}
            Some(s) => d.push(format!("{x} (a changed limit goes with --retry {s})")),
            None => d.push(x.to_string()),
        }
    }
    d
}

fn set_differences(old: &SetInfo, selection: &str, set: &InstanceSet) -> Vec<String> {
    let mut d = Vec::new();
    let name = &set.name;
    if old.size != set.size.to_string() || old.goal != set.goal.name() {
        d.push(format!(
            "instance set {name}: {} {} goal before, {} {} goal now",
            old.size,
            old.goal,
            set.size,
            set.goal.name()
        ));
    }
    if old.instances != set.instances.len() {
        d.push(format!(
            "instance set {name}: {} instances before ({}), {} now ({selection})",
            old.instances,
            old.path,
            set.instances.len()
        ));
    } else if let Some(hash) = &old.content_hash {
        let now = set.content_hash();
        if *hash != now {
            d.push(format!(
                "instance set {name}: the boards of {selection} changed since (content {hash} \
                 before, {now} now)"
            ));
        }
    }
    d
}

/// The rows `--retry` keeps, with their iterations: those whose status is not retried, and
/// those of pairs this session does not run (`run_now` false: outside `--only-ids`), which
/// would otherwise be lost until a later session runs them again.
pub(crate) fn keep_unretried(
    runs: Vec<RunRecord>,
    iterations: Vec<IterationRecord>,
    retry: &[RunStatus],
    run_now: impl Fn(&RunRecord) -> bool,
) -> (Vec<RunRecord>, Vec<IterationRecord>) {
    let (kept, dropped): (Vec<_>, Vec<_>) = runs
        .into_iter()
        .partition(|r| !retry.contains(&r.status) || !run_now(r));
    let dropped: BTreeSet<RunKey> = dropped.iter().map(RunRecord::key).collect();
    let iterations = iterations
        .into_iter()
        .filter(|i| !dropped.contains(&i.key()))
        .collect();
    (kept, iterations)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retried_rows_go_with_their_iterations() {
        let run = |id: &str, status| RunRecord {
            instance_set: "s".into(),
            instance_id: id.into(),
            heuristic: "h".into(),
            status,
            ..RunRecord::default()
        };
        let it = |id: &str| IterationRecord {
            instance_set: "s".into(),
            instance_id: id.into(),
            heuristic: "h".into(),
            iteration: 1,
            ..IterationRecord::default()
        };
        let (r, i) = keep_unretried(
            vec![run("1", RunStatus::Solved), run("2", RunStatus::TimeLimit)],
            vec![it("1"), it("2")],
            &[RunStatus::TimeLimit],
            |_| true,
        );
        assert_eq!(r.len(), 1);
        assert_eq!(r[0].instance_id, "1");
        assert_eq!(i.len(), 1);
        assert_eq!(i[0].instance_id, "1");
    }

    /// `--retry time-limit --only-ids 2` drops the row of #2 only: #3's time-limit row, not run
    /// in this session, stays.
    #[test]
    fn retry_keeps_the_rows_of_pairs_not_run_now() {
        let run = |id: &str| RunRecord {
            instance_set: "s".into(),
            instance_id: id.into(),
            heuristic: "h".into(),
            status: RunStatus::TimeLimit,
            ..RunRecord::default()
        };
        let it = |id: &str| IterationRecord {
            instance_set: "s".into(),
            instance_id: id.into(),
            heuristic: "h".into(),
            iteration: 1,
            ..IterationRecord::default()
        };
        let (r, i) = keep_unretried(
            vec![run("2"), run("3")],
            vec![it("2"), it("3")],
            &[RunStatus::TimeLimit],
            |r| r.instance_id == "2",
        );
        assert_eq!(r.len(), 1);
        assert_eq!(r[0].instance_id, "3");
        assert_eq!(i.len(), 1);
        assert_eq!(i[0].instance_id, "3");
    }
}
