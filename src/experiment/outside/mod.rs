//! Outside solvers: any program that speaks tilebench's JSON protocol (docs/solver-protocol.md),
//! run as a child process on the same boards as the built-in search, measured the same way, and
//! judged by replaying its answer.
//!
//! - [`protocol`]: the request and answer objects;
//! - [`process`]: the child process (no shell, own process group, limits, no leftovers);
//! - [`judge`](mod@judge): the verdict on an answer, and the reference length for `--check-optimal`;
//! - [`counts`]: reported node counts beside the built-in search's;
//! - [`solver`]: an outside solver as an experiment names it (`--solver NAME=COMMAND`);
//! - [`rows`]: an outside solver's outcome as result rows.

pub mod counts;
pub mod error;
pub mod judge;
pub mod process;
pub mod protocol;
pub mod rows;
pub mod solver;

pub use counts::CountCheck;
pub use error::OutsideError;
pub use judge::{judge, reference_heuristic, reference_length, Judgement, Optimality};
pub use process::{
    group_alive, kill_running_and_exit, Ended, Finished, ProcessLimits, SolverCommand,
};
pub use protocol::{Answer, ReportedIteration, Request};
pub use solver::OutsideSolver;

use std::path::Path;

use crate::board::{Board, Goal};
use crate::search::RunStatus;
use serde::Serialize;

/// One board run through an outside solver and judged: what `tilebench solve --solver` prints
/// and what a run records per pair.
#[derive(Debug, Clone, Serialize)]
pub struct Outcome {
    #[serde(flatten)]
    pub judgement: Judgement,
    pub wall_seconds: f64,
    pub cpu_seconds: f64,
    pub peak_rss_bytes: u64,
    pub stderr_bytes: u64,
    /// The solver's process (and process group) id; the group is gone once `solve` returns.
    #[serde(skip)]
    pub pid: i32,
}

impl Outcome {
    /// Generated nodes as the solver reported them.
    pub fn nodes_generated(&self) -> Option<u64> {
        self.judgement.answer.as_ref().and_then(Answer::generated)
    }

    /// Expanded nodes as the solver reported them.
    pub fn nodes_expanded(&self) -> Option<u64> {
        self.judgement.answer.as_ref().and_then(Answer::expanded)
    }

    /// The per-iteration counts the solver reported (empty when it reported none).
    pub fn iterations(&self) -> &[ReportedIteration] {
        self.judgement
            .answer
            .as_ref()
            .and_then(|a| a.iterations.as_deref())
            .unwrap_or(&[])
    }
}

/// Runs `command` on `board`, waits for it under `limits` and judges its answer against the
/// optimal length when known. Standard error goes to `stderr_log` when given.
pub fn solve(
    command: &SolverCommand,
    board: &Board,
    goal: &Goal,
    optimal: Option<usize>,
    limits: &ProcessLimits,
    stderr_log: Option<&Path>,
) -> Result<Outcome, OutsideError> {
    board.check_goal(goal)?;
    let request = Request::new(board, goal).to_line();
    let finished = process::run(command, request.as_bytes(), stderr_log, limits)?;
    let mut judgement = judge(board, goal, &finished, optimal)?;
    if matches!(judgement.verdict, RunStatus::Crashed | RunStatus::BadOutput) {
        if let Some(log) = stderr_log {
            judgement.detail.push_str(&stderr_tail(log));
        }
    }
    Ok(Outcome {
        judgement,
        wall_seconds: finished.wall_seconds,
        cpu_seconds: finished.cpu_seconds,
        peak_rss_bytes: finished.peak_rss_bytes,
        stderr_bytes: finished.stderr_bytes,
        pid: finished.pid,
    })
}

/// How many of the last lines of a crashed solver's standard error its verdict quotes.
const TAIL_LINES: usize = 5;

/// The last lines of a solver's standard error log and the log's path, as the end of a
/// verdict's detail: what a reader needs to see why it crashed.
fn stderr_tail(log: &Path) -> String {
    let Ok(bytes) = std::fs::read(log) else {
        return String::new();
    };
    let text = String::from_utf8_lossy(&bytes);
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    if lines.is_empty() {
        return format!("; nothing on stderr (log {})", log.display());
    }
    let tail: Vec<String> = lines[lines.len().saturating_sub(TAIL_LINES)..]
        .iter()
        .map(|l| l.chars().take(200).collect())
        .collect();
    format!(
        "; last lines of stderr (log {}): {}",
        log.display(),
        tail.join(" | ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_crash_quotes_the_last_lines_of_stderr_and_the_log() {
        let dir = tempfile::tempdir().unwrap();
        let log = dir.path().join("s-1-mine.stderr");
        let lines: Vec<String> = (1..=8).map(|i| format!("line {i}")).collect();
        std::fs::write(&log, lines.join("\n") + "\n\n").unwrap();
        let tail = stderr_tail(&log);
        assert!(tail.contains(&log.display().to_string()), "{tail}");
        assert!(
            tail.ends_with("line 4 | line 5 | line 6 | line 7 | line 8"),
            "{tail}"
        );
        assert!(!tail.contains("line 3"), "{tail}");
        std::fs::write(&log, "").unwrap();
        assert!(stderr_tail(&log).contains("nothing on stderr"));
    }
}
