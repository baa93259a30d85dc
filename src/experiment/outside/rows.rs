//! An outside solver's outcome on one instance as the rows of a results directory.

use crate::results::{Growth, IterationRecord, RunKey, RunRecord, RunStatus};
use crate::search::Iteration;

use super::Outcome;

/// The run row and iteration rows of an outside solver's outcome (a wrong answer's row says why
/// in `detail`: [`RunRecord::problem`]); `None` when the run was cancelled. Node counts are the
/// solver's own (empty when it reported none: unknown, not zero); iteration rows carry no time
/// (the solver does not report it).
pub fn rows(
    key: RunKey,
    outcome: &Outcome,
    threads: usize,
) -> Option<(RunRecord, Vec<IterationRecord>)> {
    let j = &outcome.judgement;
    // A cancelled run is not a result, and is not written.
    let status = Some(j.verdict).filter(|v| *v != RunStatus::Cancelled)?;
    let reported: Vec<Iteration> = outcome
        .iterations()
        .iter()
        .map(|i| Iteration {
            bound: i.bound,
            expanded: i.expanded,
            generated: i.generated,
            seconds: 0.0,
        })
        .collect();
    let growth = Growth::of(&reported);
    let generated = outcome.nodes_generated();
    let seconds = outcome.wall_seconds;
    let iterations = IterationRecord::rows(&key, &reported);
    let run = RunRecord {
        status,
        length: j.length.map(|l| l as u32),
        optimal_length: j.optimal_length.map(|l| l as u32),
        iterations: reported.len() as u32,
        expanded: outcome.nodes_expanded(),
        generated,
        last_iteration_generated: reported.last().map(|i| i.generated),
        seconds,
        nodes_per_second: generated
            .filter(|&g| seconds > 0.0 && g > 0)
            .map(|g| g as f64 / seconds),
        growth_ratio: growth.ratio,
        overhead_measured: growth.overhead_measured,
        overhead_predicted: growth.overhead_predicted,
        moves: if j.length.is_some() {
            j.moves.clone().unwrap_or_default()
        } else {
            String::new()
        },
        verified: j.verdict == RunStatus::Solved && j.length.is_some(),
        threads: threads as u32,
        cpu_seconds: Some(outcome.cpu_seconds),
        peak_rss_bytes: Some(outcome.peak_rss_bytes),
        exit_code: j.exit_code,
        signal: j.signal,
        detail: j.detail.clone(),
        search_threads: 1,
        // Its memory is the process's (peak_rss_bytes): h0 and the search-structure columns
        // stay empty.
        ..RunRecord::of(&key)
    };
    Some((run, iterations))
}
