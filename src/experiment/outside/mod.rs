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
/// optimal length when known. Standard error goes to `stderr_log` when given; a crash or bad
/// output quotes its last lines either way.
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
        let cut = finished.stderr_bytes > finished.stderr_tail.len() as u64;
        judgement
            .detail
            .push_str(&stderr_tail(&finished.stderr_tail, cut, stderr_log));
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

/// The last lines of the end of a solver's standard error (`cut`: the bytes before `tail` are
/// gone, so its first line may be a part) and the log's path when there is one, as the end of
/// a verdict's detail: what a reader needs to see why it crashed (a Python traceback, "can't
/// open file"), with `solve` as with `run`.
fn stderr_tail(tail: &[u8], cut: bool, log: Option<&Path>) -> String {
    let text = String::from_utf8_lossy(tail);
    let whole = match text.find('\n') {
        Some(i) if cut => &text[i + 1..],
        _ => &text[..],
    };
    let lines: Vec<&str> = whole.lines().filter(|l| !l.trim().is_empty()).collect();
    let log = log.map_or(String::new(), |l| format!(" (log {})", l.display()));
    if lines.is_empty() {
        return format!("; nothing on stderr{log}");
    }
    let tail: Vec<String> = lines[lines.len().saturating_sub(TAIL_LINES)..]
        .iter()
        .map(|l| l.chars().take(200).collect())
        .collect();
    format!("; last lines of stderr{log}: {}", tail.join(" | "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_crash_quotes_the_last_lines_of_stderr_and_the_log() {
        let log = Path::new("logs/s-1-mine.stderr");
        let lines: Vec<String> = (1..=8).map(|i| format!("line {i}")).collect();
        let text = lines.join("\n") + "\n\n";
        let tail = stderr_tail(text.as_bytes(), false, Some(log));
        assert_eq!(
            tail,
            "; last lines of stderr (log logs/s-1-mine.stderr): \
             line 4 | line 5 | line 6 | line 7 | line 8"
        );
        assert_eq!(
            stderr_tail(b"", false, Some(log)),
            "; nothing on stderr (log logs/s-1-mine.stderr)"
        );
        assert_eq!(stderr_tail(b"", false, None), "; nothing on stderr");
        // Cut: the first line may be a part of one, and is left out.
        assert_eq!(
            stderr_tail(b"ine 1\nline 2\n", true, None),
            "; last lines of stderr: line 2"
        );
    }

    /// Without a log (`solve --solver` without `--log`) a crash still says why: its stderr
    /// was thrown away, and only its size was told.
    #[test]
    fn a_crash_without_a_log_quotes_its_stderr() {
        let board = Board::parse("1 2 3 4 5 6 0 7 8", None).unwrap();
        let goal = Goal::blank_last(board.size());
        let command =
            SolverCommand::parse("sh -c 'echo noise >&2; echo \"no such file\" >&2; exit 2'")
                .unwrap();
        let outcome = solve(
            &command,
            &board,
            &goal,
            None,
            &ProcessLimits::default(),
            None,
        )
        .unwrap();
        assert_eq!(outcome.judgement.verdict, RunStatus::Crashed);
        assert_eq!(
            outcome.judgement.detail,
            "exit code 2; last lines of stderr: noise | no such file"
        );
    }
}
