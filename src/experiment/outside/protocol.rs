//! The JSON protocol between tilebench and an outside solver (docs/solver-protocol.md): one
//! request object on standard input, one answer object on the last non-empty line of standard
//! output.

use serde::{Deserialize, Serialize};

use crate::board::{Board, Goal};

/// What the solver reads: the board and the goal, row-major, 0 for the blank.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Request {
    pub width: u8,
    pub height: u8,
    pub tiles: Vec<u8>,
    pub goal: Vec<u8>,
}

impl Request {
    pub fn new(board: &Board, goal: &Goal) -> Request {
        let size = board.size();
        Request {
            width: size.width,
            height: size.height,
            tiles: board.tiles().to_vec(),
            goal: goal.tiles().to_vec(),
        }
    }

    /// The request as written to the solver's standard input: one line, newline-terminated.
    pub(crate) fn to_line(&self) -> String {
        let mut line = serde_json::to_string(self).expect("a request always serialises");
        line.push('\n');
        line
    }
}

/// One IDA* iteration as a solver reports it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReportedIteration {
    pub bound: u32,
    pub generated: u64,
    pub expanded: u64,
}

/// The solver's answer. Unknown fields are ignored, so solvers may add their own.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Answer {
    /// The solution, by the direction the blank travels (`U`, `D`, `L`, `R`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub moves: Option<String>,
    /// `false` claims the board cannot reach the goal.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub solvable: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nodes_generated: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nodes_expanded: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub iterations: Option<Vec<ReportedIteration>>,
}

/// What an answer claims.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Claim {
    /// A solution path (possibly empty: the board is already the goal).
    Moves(String),
    /// The board cannot reach the goal.
    Unsolvable,
}

impl Answer {
    /// The claim, or why the answer makes none (both or neither of `moves` and
    /// `"solvable": false`).
    pub fn claim(&self) -> Result<Claim, String> {
        match (&self.moves, self.solvable) {
            (Some(_), Some(false)) => {
                Err("the answer gives moves and also says \"solvable\": false".into())
            }
            (Some(m), _) => Ok(Claim::Moves(m.clone())),
            (None, Some(false)) => Ok(Claim::Unsolvable),
            (None, _) => Err("the answer has neither \"moves\" nor \"solvable\": false".into()),
        }
    }

    /// Generated nodes: the reported total, else the sum over the reported iterations.
    pub fn generated(&self) -> Option<u64> {
        self.nodes_generated
            .or_else(|| self.iteration_sums().map(|s| s.0))
    }

    /// Expanded nodes: the reported total, else the sum over the reported iterations.
    pub fn expanded(&self) -> Option<u64> {
        self.nodes_expanded
            .or_else(|| self.iteration_sums().map(|s| s.1))
    }

    /// (generated, expanded) summed over the reported iterations, if any were reported.
    fn iteration_sums(&self) -> Option<(u64, u64)> {
        self.iterations.as_ref().map(|its| {
            its.iter().fold((0u64, 0u64), |(g, e), i| {
                (g.saturating_add(i.generated), e.saturating_add(i.expanded))
            })
        })
    }
}

/// Parses the last non-empty line of a solver's standard output; the error says why it is not an
/// answer (for the `bad-output` status).
pub(crate) fn parse_answer(stdout: &[u8]) -> Result<Answer, String> {
    let text = String::from_utf8_lossy(stdout);
    let line = text
        .lines()
        .rev()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .ok_or("standard output is empty")?;
    let answer: Answer = serde_json::from_str(line).map_err(|e| {
        let shown: String = line.chars().take(80).collect();
        format!("the last line of standard output is not an answer object ({e}): {shown}")
    })?;
    // Totals and iterations given both must agree, as the built-in search's always do.
    if let Some((generated, expanded)) = answer.iteration_sums() {
        for (what, total, sum) in [
            ("nodes_generated", answer.nodes_generated, generated),
            ("nodes_expanded", answer.nodes_expanded, expanded),
        ] {
            if let Some(total) = total.filter(|t| *t != sum) {
                return Err(format!("{what} is {total} but the iterations sum to {sum}"));
            }
        }
    }
    Ok(answer)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn request_is_one_line_with_the_board_and_goal() {
        let board = Board::parse("1 2 3 4 0 5 7 8 6", None).unwrap();
        let goal = Goal::blank_last(board.size());
        let line = Request::new(&board, &goal).to_line();
        assert_eq!(
            line,
            "{\"width\":3,\"height\":3,\"tiles\":[1,2,3,4,0,5,7,8,6],\"goal\":[1,2,3,4,5,6,7,8,0]}\n"
        );
    }

    #[test]
    fn the_last_non_empty_line_is_the_answer() {
        let out = b"debug: starting\n{\"moves\": \"RD\"}\n  \n\n";
        let a = parse_answer(out).unwrap();
        assert_eq!(a.claim(), Ok(Claim::Moves("RD".into())));
        let out = b"{\"moves\": \"RD\"}\nnot json at the end\n";
        assert!(parse_answer(out).unwrap_err().contains("not an answer"));
        assert_eq!(
            parse_answer(b"\n \n").unwrap_err(),
            "standard output is empty"
        );
    }

    #[test]
    fn claims_and_counts() {
        let a = parse_answer(br#"{"solvable": false, "extra": 1}"#).unwrap();
        assert_eq!(a.claim(), Ok(Claim::Unsolvable));
        assert!(parse_answer(br#"{"solvable": false, "moves": "U"}"#)
            .unwrap()
            .claim()
            .is_err());
        assert!(parse_answer(br#"{"solvable": true}"#)
            .unwrap()
            .claim()
            .is_err());
        let a = parse_answer(
            br#"{"moves": "", "iterations": [{"bound": 2, "generated": 5, "expanded": 3},
                {"bound": 4, "generated": 7, "expanded": 4}]}"#
                .split(|&b| b == b'\n')
                .flatten()
                .copied()
                .collect::<Vec<u8>>()
                .as_slice(),
        )
        .unwrap();
        assert_eq!((a.generated(), a.expanded()), (Some(12), Some(7)));
        let e = parse_answer(
            br#"{"moves": "", "nodes_generated": 13, "iterations": [{"bound": 2, "generated": 5, "expanded": 3}, {"bound": 4, "generated": 7, "expanded": 4}]}"#,
        )
        .unwrap_err();
        assert!(
            e.contains("nodes_generated is 13 but the iterations sum to 12"),
            "{e}"
        );
        let a = parse_answer(br#"{"moves": "U", "nodes_generated": 9}"#).unwrap();
        assert_eq!((a.generated(), a.expanded()), (Some(9), None));
        // A wrongly typed optional field is not an answer.
        assert!(parse_answer(br#"{"moves": "U", "nodes_generated": "many"}"#).is_err());
    }
}
