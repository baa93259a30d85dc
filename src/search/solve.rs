//! The one way into the search: [`solve`] takes a heuristic chosen by name or built from a
//! heuristic's value ([`Prepared`]) and hands its concrete type to the generic search
//! ([`super::run()`]), so that every search is monomorphised per heuristic. This file sits a layer
//! above the rest of `search`, beside the heuristics' names.

use crate::board::{Board, Goal};
use crate::heuristic::{ErasedHeuristic, Heuristic, Prepared, WithHeuristic};

use super::bfs::bfs;
use super::options::{SearchError, SearchOptions};
use super::result::Outcome;

/// Runs `options.algorithm` on `board` towards `goal` with `heuristic` (none for breadth-first
/// search, required by IDA* and A*), in `options.mode`, within `options.limits`: the one entry
/// point of every search. Reports counts and memory, with the heuristic's table bytes; every
/// reported solution is optimal.
///
/// Only IDA* takes `options.threads` above 1, a fixed bound or `--pruning fsm`; an option an
/// algorithm cannot take is an error, not ignored.
///
/// ```
/// use tilebench::board::{Board, Goal};
/// use tilebench::heuristic::{Manhattan, Prepared};
/// use tilebench::search::{solve, Algorithm, Mode, SearchOptions, RunStatus};
///
/// let board = Board::parse("1 2 3 4 0 5 7 8 6", None).unwrap();
/// let goal = Goal::blank_last(board.size());
/// let md = Prepared::of(Manhattan::new(&goal));
/// let solved = solve(Some(&md), &board, &goal, &SearchOptions::default()).unwrap();
/// assert_eq!(solved.result.length(), Some(2));
/// assert!(board.replays_to(&solved.result.moves, &goal));
///
/// // One complete iteration with threshold 4, not stopping at the goal.
/// let options = SearchOptions { mode: Mode::FixedBound(4), ..SearchOptions::default() };
/// let fixed = solve(Some(&md), &board, &goal, &options).unwrap();
/// assert_eq!(fixed.result.status, RunStatus::FixedBound);
///
/// // Breadth-first search takes no heuristic.
/// let options = SearchOptions { algorithm: Algorithm::Bfs, ..SearchOptions::default() };
/// assert_eq!(solve(None, &board, &goal, &options).unwrap().result.length(), Some(2));
/// ```
pub fn solve(
    heuristic: Option<&Prepared>,
    board: &Board,
    goal: &Goal,
    options: &SearchOptions,
) -> Result<Outcome, SearchError> {
    struct Run<'a>(&'a Board, &'a Goal, &'a SearchOptions);
    impl WithHeuristic for Run<'_> {
        type Output = Result<Outcome, SearchError>;
        fn run<H: Heuristic>(self, h: &H) -> Self::Output {
            super::run(self.0, self.1, h, self.2)
        }
        fn run_registered(self, h: &dyn ErasedHeuristic) -> Self::Output {
            h.search(self.0, self.1, self.2)
        }
    }
    options.check(heuristic.is_some())?;
    let mut outcome = match heuristic {
        None => bfs(board, goal, &options.limits)?,
        Some(h) => h.with(Run(board, goal, options))?,
    };
    outcome.memory.table_bytes = heuristic.map_or(0, Prepared::table_bytes);
    Ok(outcome)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Size;
    use crate::search::{Algorithm, Limits, Mode, RunStatus};

    fn prepared(name: &str, goal: &Goal) -> Prepared {
        Prepared::new(&name.parse().unwrap(), goal, &Default::default()).unwrap()
    }

    #[test]
    fn a_fixed_bound_reports_the_complete_iteration_of_each_earlier_ida_bound() {
        let goal = Goal::blank_last(Size::new(3, 3).unwrap());
        let b = Board::parse("8 6 7 2 5 4 3 0 1", None).unwrap();
        // Manhattan distance (whose solving kernel is the packed one), linear conflict, and a
        // max that cuts lookups.
        for name in ["md", "lc", "max(wd,lc)"] {
            let h = prepared(name, &goal);
            let r = solve(Some(&h), &b, &goal, &SearchOptions::default())
                .unwrap()
                .result;
            assert_eq!(r.length(), Some(31));
            let fixed = |bound| {
                let options = SearchOptions {
                    mode: Mode::FixedBound(bound),
                    ..SearchOptions::default()
                };
                solve(Some(&h), &b, &goal, &options).unwrap().result
            };
            for it in &r.iterations[..r.iterations.len() - 1] {
                let f = fixed(it.bound);
                assert_eq!(f.status, RunStatus::FixedBound);
                assert!(f.moves.is_empty());
                assert_eq!((f.h0, f.iterations.len()), (r.h0, 1));
                let one = f.iterations[0];
                assert_eq!(
                    (one.bound, one.expanded, one.generated),
                    (it.bound, it.expanded, it.generated),
                    "{name}"
                );
            }
            // The last iteration stops at the goal; the complete one goes on past it.
            let last = r.iterations.last().unwrap();
            assert!(fixed(last.bound).iterations[0].generated > last.generated);
            // Below h(root), nothing.
            let below = fixed(r.h0 - 1).iterations[0];
            assert_eq!((below.expanded, below.generated), (0, 0));
        }
    }

    #[test]
    fn a_fixed_bound_answers_to_the_node_limit() {
        let goal = Goal::blank_last(Size::new(3, 3).unwrap());
        let b = Board::parse("8 6 7 2 5 4 3 0 1", None).unwrap();
        let options = SearchOptions {
            mode: Mode::FixedBound(40),
            limits: Limits {
                node_limit: Some(1000),
                ..Limits::none()
            },
            ..SearchOptions::default()
        };
        let r = solve(Some(&prepared("md", &goal)), &b, &goal, &options)
            .unwrap()
            .result;
        assert_eq!((r.status, r.generated()), (RunStatus::NodeLimit, 1000));
    }

    #[test]
    fn options_an_algorithm_cannot_take_are_errors() {
        let goal = Goal::blank_last(Size::new(3, 3).unwrap());
        let b = Board::parse("1 2 3 4 0 5 7 8 6", None).unwrap();
        let md = prepared("md", &goal);
        let with = |algorithm, f: fn(&mut SearchOptions)| {
            let mut o = SearchOptions {
                algorithm,
                ..SearchOptions::default()
            };
            f(&mut o);
            o
        };
        let cases: [(Option<&Prepared>, SearchOptions, &str); 5] = [
            (
                Some(&md),
                with(Algorithm::Bfs, |_| {}),
                "takes no heuristic",
            ),
            (None, with(Algorithm::Astar, |_| {}), "needs a heuristic"),
            (
                Some(&md),
                with(Algorithm::Astar, |o| o.threads = 2),
                "one thread",
            ),
            (
                Some(&md),
                with(Algorithm::Astar, |o| o.mode = Mode::FixedBound(3)),
                "fixed bound",
            ),
            (
                Some(&md),
                with(Algorithm::Astar, |o| {
                    o.pruning = crate::search::Pruning::Fsm;
                }),
                "--pruning fsm",
            ),
        ];
        for (h, options, says) in cases {
            let e = solve(h, &b, &goal, &options).unwrap_err().to_string();
            assert!(e.contains(says), "{e}");
        }
    }
}
