//! Judging an outside solver's answer: the moves are replayed with tilebench's own board code,
//! the claimed unsolvability is checked by the parity rule, the length against the optimal one.

use serde::Serialize;

use crate::board::{Board, Goal};
use crate::heuristic::{HeuristicName, Prepared};
use crate::moves::{parse_path, Dir};

use crate::pdb::CacheOptions;
use crate::search::{RunStatus, SearchOptions};

use super::process::{Ended, Finished};
use super::protocol::{parse_answer, Answer, Claim};
use super::OutsideError;

/// The verdict with what it rests on.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Judgement {
    pub verdict: RunStatus,
    /// Why, in a sentence (empty when solved).
    pub detail: String,
    /// The moves as the solver gave them, when it gave any.
    pub moves: Option<String>,
    /// The number of moves, when they replay to the goal.
    pub length: Option<usize>,
    /// The optimal length the moves were checked against, when known.
    pub optimal_length: Option<usize>,
    /// For moves that replay to the goal: whether their length was checked against the optimal
    /// one. `solved` alone says only that the moves are valid when no optimal length was known,
    /// and a reader must not take it for optimal.
    pub optimality: Option<Optimality>,
    pub exit_code: Option<i32>,
    pub signal: Option<i32>,
    /// The parsed answer, for its reported node counts.
    pub answer: Option<Answer>,
}

/// Whether a valid solution's length was checked against the optimal length.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Optimality {
    /// Checked: the length is the optimal one (`solved`) or not (`wrong-length`).
    Checked,
    /// No optimal length was known: the moves replay to the goal, nothing more is known.
    NotChecked,
}

impl Judgement {
    /// The verdict in words for a person: the status and why, and for a solution whose length
    /// nobody checked, that it is only known to replay to the goal (`solved` would read as
    /// optimal).
    pub fn describe(&self) -> String {
        match (self.verdict, self.optimality, self.length) {
            (RunStatus::Solved, Some(Optimality::NotChecked), Some(n)) => format!(
                "valid: the {n} move{} replay to the goal; optimality not checked \
                 (--check-optimal or -H checks it)",
                if n == 1 { "" } else { "s" }
            ),
            (RunStatus::Solved, Some(Optimality::Checked), Some(n)) => format!(
                "solved: {n} move{}, the optimal length",
                if n == 1 { "" } else { "s" }
            ),
            (verdict, _, _) if self.detail.is_empty() => verdict.as_str().to_string(),
            (verdict, _, _) => format!("{}: {}", verdict.as_str(), self.detail),
        }
    }
}

/// Judges a finished solver run on `board`; `optimal` is the optimal length when known.
pub fn judge(
    board: &Board,
    goal: &Goal,
    finished: &Finished,
    optimal: Option<usize>,
) -> Result<Judgement, OutsideError> {
    let solvable = board.is_solvable(goal)?;
    let mut j = Judgement {
        verdict: RunStatus::Solved,
        optimal_length: optimal,
        ..Judgement::default()
    };
    let fail = |mut j: Judgement, verdict: RunStatus, detail: String| {
        j.verdict = verdict;
        j.detail = detail;
        Ok(j)
    };
    // A solver that gave no answer on a board that cannot reach the goal: say so, since the
    // parity rule knows it without any search.
    let unsolvable = if solvable {
        ""
    } else {
        "; the board cannot reach the goal (parity), so the right answer was \"solvable\": false"
    };
    match finished.ended {
        Ended::TimeLimit => {
            return fail(
                j,
                RunStatus::TimeLimit,
                format!("killed at the time limit{unsolvable}"),
            )
        }
        Ended::MemoryLimit => {
            return fail(
                j,
                RunStatus::MemoryLimit,
                format!(
                    "killed at the memory limit ({} MB resident){unsolvable}",
                    finished.peak_rss_bytes >> 20
                ),
            )
        }
        Ended::Cancelled => return fail(j, RunStatus::Cancelled, "interrupted".into()),
        Ended::Signalled(s) => {
            j.signal = Some(s);
            return fail(
                j,
                RunStatus::Crashed,
                format!("killed by signal {s}{unsolvable}"),
            );
        }
        Ended::Exited(0) => j.exit_code = Some(0),
        Ended::Exited(code) => {
            j.exit_code = Some(code);
            return fail(
                j,
                RunStatus::Crashed,
                format!("exit code {code}{unsolvable}"),
            );
        }
    }
    let answer = match parse_answer(&finished.stdout) {
        Ok(a) => a,
        Err(why) => return fail(j, RunStatus::BadOutput, why),
    };
    let claim = answer.claim();
    j.answer = Some(answer);
    let path = match claim {
        Err(why) => return fail(j, RunStatus::BadOutput, why),
        Ok(Claim::Unsolvable) if solvable => {
            return fail(
                j,
                RunStatus::WrongUnsolvable,
                "claimed unsolvable, but the board can reach the goal".into(),
            )
        }
        Ok(Claim::Unsolvable) => {
            j.verdict = RunStatus::Unsolvable;
            return Ok(j);
        }
        Ok(Claim::Moves(path)) => path,
    };
    j.moves = Some(path.clone());
    if !solvable {
        return fail(
            j,
            RunStatus::WrongUnsolvable,
            "gave moves for a board that cannot reach the goal (parity)".into(),
        );
    }
    let mut replay = board.clone();
    let moves = match parse_path(&path) {
        Ok(moves) => moves,
        Err(e) => return fail(j, RunStatus::InvalidMoves, e.to_string()),
    };
    let invalid = |j, why: String| {
        let hint = tile_direction_hint(board, goal, &moves);
        fail(j, RunStatus::InvalidMoves, format!("{why}{hint}"))
    };
    if let Err(e) = replay.apply_all(&moves) {
        return invalid(j, e.to_string());
    }
    let length = moves.len();
    if replay.tiles() != goal.tiles() {
        return invalid(
            j,
            format!("the {length} moves end at {replay}, not at the goal"),
        );
    }
    j.length = Some(length);
    j.optimality = Some(match optimal {
        Some(_) => Optimality::Checked,
        None => Optimality::NotChecked,
    });
    if let Some(best) = optimal.filter(|&best| best != length) {
        return fail(
            j,
            RunStatus::WrongLength,
            format!("{length} moves, but the optimal length is {best}"),
        );
    }
    Ok(j)
}

/// The classic mistake of naming each move by the direction the tile travels, the opposite of
/// the blank's: said so when the moves, read that way, solve the board, since the verdict alone
/// ("would take the blank off the board") points away from the cause.
fn tile_direction_hint(board: &Board, goal: &Goal, moves: &[Dir]) -> &'static str {
    let swapped: Vec<Dir> = moves.iter().map(|d| d.opposite()).collect();
    if board.replays_to(&swapped, goal) {
        "; the moves read as the tile's direction solve the board: tilebench's moves are the \
         blank's direction"
    } else {
        ""
    }
}

/// The heuristic `--check-optimal` solves with: the strongest built-in one that needs no long
/// build (pdb-663r on 4×4, pdb-6666r on 5×5, each for a corner-blank goal; linear conflict
/// otherwise).
pub fn reference_heuristic(goal: &Goal) -> HeuristicName {
    let size = goal.size();
    let corner = goal.cell_of(0) == 0 || goal.cell_of(0) == size.cells() - 1;
    let name = match (size.width, size.height) {
        (4, 4) if corner => "pdb-663r",
        (5, 5) if corner => "pdb-6666r",
        _ => "linear-conflict",
    };
    name.parse().unwrap_or(HeuristicName::LinearConflict)
}

/// The optimal length of `board` by the built-in search (`None` when it cannot reach the goal).
pub fn reference_length(
    board: &Board,
    goal: &Goal,
    options: &CacheOptions,
) -> Result<Option<usize>, OutsideError> {
    let heuristic = Prepared::new(&reference_heuristic(goal), goal, options)?;
    let result =
        crate::search::solve(Some(&heuristic), board, goal, &SearchOptions::default())?.result;
    Ok(match result.status {
        RunStatus::Solved => Some(result.moves.len()),
        _ => None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn finished(ended: Ended, stdout: &str) -> Finished {
        Finished {
            ended,
            wall_seconds: 0.1,
            cpu_seconds: 0.1,
            peak_rss_bytes: 1 << 20,
            stdout: stdout.as_bytes().to_vec(),
            stderr_bytes: 0,
            stderr_tail: Vec::new(),
            pid: 0,
        }
    }

    fn verdict(tiles: &str, ended: Ended, stdout: &str, optimal: Option<usize>) -> Judgement {
        let board = Board::parse(tiles, None).unwrap();
        let goal = Goal::blank_last(board.size());
        judge(&board, &goal, &finished(ended, stdout), optimal).unwrap()
    }

    const TWO: &str = "1 2 3 4 5 6 0 7 8"; // RR solves it
    const UNSOLVABLE: &str = "2 1 3 4 5 6 7 8 0";

    /// A valid answer judged without an optimal length is not said to be solved optimally: it
    /// was replayed to the goal, its length unchecked; with one, it is.
    #[test]
    fn a_valid_answer_without_an_optimal_length_is_not_called_optimal() {
        let ok = Ended::Exited(0);
        let j = verdict(TWO, ok, r#"{"moves": "RLRR"}"#, None);
        assert_eq!(
            j.verdict,
            RunStatus::Solved,
            "the status stays for compatibility"
        );
        assert_eq!(j.optimality, Some(Optimality::NotChecked));
        let said = j.describe();
        assert!(
            said.starts_with("valid: the 4 moves replay to the goal"),
            "{said}"
        );
        assert!(said.contains("optimality not checked"), "{said}");
        assert!(said.contains("--check-optimal"), "{said}");
        assert!(!said.contains("solved"), "{said}");
        let j = verdict(TWO, ok, r#"{"moves": "RR"}"#, Some(2));
        assert_eq!(j.optimality, Some(Optimality::Checked));
        assert_eq!(j.describe(), "solved: 2 moves, the optimal length");
        let j = verdict(TWO, ok, r#"{"moves": "RLRR"}"#, Some(2));
        assert_eq!(j.optimality, Some(Optimality::Checked));
        assert_eq!(
            j.describe(),
            "wrong-length: 4 moves, but the optimal length is 2"
        );
        let j = verdict(TWO, ok, r#"{"moves": "UUUU"}"#, None);
        assert_eq!(j.optimality, None);
        assert!(
            j.describe().starts_with("invalid-moves: "),
            "{}",
            j.describe()
        );
        let json = serde_json::to_value(verdict(TWO, ok, r#"{"moves": "RR"}"#, None)).unwrap();
        assert_eq!(json["verdict"], "solved");
        assert_eq!(json["optimality"], "not-checked");
    }

    #[test]
    fn every_verdict() {
        let ok = Ended::Exited(0);
        let j = verdict(TWO, ok, r#"{"moves": "RR"}"#, Some(2));
        assert_eq!((j.verdict, j.length), (RunStatus::Solved, Some(2)));
        // Unknown optimum: a valid path is solved.
        assert_eq!(
            verdict(TWO, ok, r#"{"moves": "RLRR"}"#, None).verdict,
            RunStatus::Solved
        );
        let j = verdict(TWO, ok, r#"{"moves": "RLRR"}"#, Some(2));
        assert_eq!((j.verdict, j.length), (RunStatus::WrongLength, Some(4)));
        // Whitespace between moves is ignored, and not counted.
        let j = verdict(TWO, ok, r#"{"moves": "R R"}"#, Some(2));
        assert_eq!((j.verdict, j.length), (RunStatus::Solved, Some(2)));
        let j = verdict(TWO, ok, r#"{"moves": "UUUU"}"#, Some(2));
        assert_eq!(j.verdict, RunStatus::InvalidMoves);
        assert!(j.detail.contains("move 3"), "{}", j.detail);
        assert_eq!(
            verdict(TWO, ok, r#"{"moves": "R"}"#, Some(2)).verdict,
            RunStatus::InvalidMoves
        );
        assert_eq!(
            verdict(TWO, ok, r#"{"moves": "RX"}"#, Some(2)).verdict,
            RunStatus::InvalidMoves
        );
        assert_eq!(
            verdict(TWO, ok, r#"{"solvable": false}"#, Some(2)).verdict,
            RunStatus::WrongUnsolvable
        );
        assert_eq!(
            verdict(UNSOLVABLE, ok, r#"{"moves": "U"}"#, None).verdict,
            RunStatus::WrongUnsolvable
        );
        assert_eq!(
            verdict(UNSOLVABLE, ok, r#"{"solvable": false}"#, None).verdict,
            RunStatus::Unsolvable
        );
        assert_eq!(
            verdict(TWO, ok, "garbage", Some(2)).verdict,
            RunStatus::BadOutput
        );
        let j = verdict(TWO, Ended::Exited(1), r#"{"moves": "RR"}"#, Some(2));
        assert_eq!((j.verdict, j.exit_code), (RunStatus::Crashed, Some(1)));
        let j = verdict(TWO, Ended::Signalled(11), "", Some(2));
        assert_eq!((j.verdict, j.signal), (RunStatus::Crashed, Some(11)));
        for (ended, v) in [
            (Ended::TimeLimit, RunStatus::TimeLimit),
            (Ended::MemoryLimit, RunStatus::MemoryLimit),
            (Ended::Cancelled, RunStatus::Cancelled),
        ] {
            assert_eq!(
                verdict(TWO, ended, r#"{"moves": "RR"}"#, Some(2)).verdict,
                v
            );
        }
    }

    /// Moves named by the tile's direction (U and D, L and R swapped): the verdict says that,
    /// read so, they solve the board, whether they leave the board or end elsewhere; moves
    /// that are wrong either way get no such hint.
    #[test]
    fn moves_by_the_tiles_direction_are_named_as_such() {
        let ok = Ended::Exited(0);
        let hint = "; the moves read as the tile's direction solve the board: tilebench's \
                    moves are the blank's direction";
        // RR solves TWO, whose blank is in the left column: LL leaves the board at once.
        let j = verdict(TWO, ok, r#"{"moves": "LL"}"#, Some(2));
        assert_eq!(j.verdict, RunStatus::InvalidMoves);
        assert_eq!(
            j.detail,
            format!("move 1 ('L') would take the blank off the board{hint}")
        );
        // From the goal's neighbour "1 2 3 4 5 6 7 0 8" (R solves it), L ends elsewhere.
        let j = verdict("1 2 3 4 5 6 7 0 8", ok, r#"{"moves": "L"}"#, None);
        assert_eq!(j.verdict, RunStatus::InvalidMoves);
        assert!(j.detail.ends_with(hint), "{}", j.detail);
        assert!(j.detail.starts_with("the 1 moves end at"), "{}", j.detail);
        for wrong in ["UUUU", "RL", "U"] {
            let j = verdict(TWO, ok, &format!(r#"{{"moves": "{wrong}"}}"#), Some(2));
            assert_eq!(j.verdict, RunStatus::InvalidMoves, "{wrong}");
            assert!(
                !j.detail.contains("tile's direction"),
                "{wrong}: {}",
                j.detail
            );
        }
    }

    /// A board that cannot reach the goal: a solver stopped on it is told so in the verdict.
    #[test]
    fn a_stopped_solver_on_an_unsolvable_board_is_told_so() {
        for ended in [Ended::TimeLimit, Ended::Exited(3), Ended::Signalled(11)] {
            let j = verdict(UNSOLVABLE, ended, "", None);
            assert!(
                j.detail.contains("cannot reach the goal (parity)"),
                "{}",
                j.detail
            );
            let j = verdict(TWO, ended, "", None);
            assert!(!j.detail.contains("parity"), "{}", j.detail);
        }
    }

    #[test]
    fn the_reference_length_is_optimal() {
        let board = Board::parse("8 6 7 2 5 4 3 0 1", None).unwrap();
        let goal = Goal::blank_last(board.size());
        let best = reference_length(&board, &goal, &CacheOptions::default()).unwrap();
        assert_eq!(best, Some(31));
        let unsolvable = Board::parse(UNSOLVABLE, None).unwrap();
        assert_eq!(
            reference_length(&unsolvable, &goal, &CacheOptions::default()).unwrap(),
            None
        );
    }
}
