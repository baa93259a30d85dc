//! Searches and measurements with a heuristic chosen by name: the layer above [`crate::search`]
//! and [`crate::predict`] that hands a [`Prepared`] heuristic's concrete type to them (through
//! [`Prepared::with`]), so that each is monomorphised per heuristic.

use std::time::Instant;

use crate::board::{Board, Goal};
use crate::predict::IterationCount;
use crate::search::{
    bfs, ida_with, Algorithm, Iteration, Limits, Outcome, SearchError, SearchOptions, SearchResult,
    Status,
};

use super::registered::ErasedHeuristic;
use super::registry::{Prepared, WithHeuristic};
use super::traits::Heuristic;

impl Prepared {
    /// IDA* with this heuristic on one thread.
    pub fn solve(
        &self,
        board: &Board,
        goal: &Goal,
        limits: &Limits,
    ) -> Result<SearchResult, SearchError> {
        let options = SearchOptions {
            limits: limits.clone(),
            ..SearchOptions::default()
        };
        self.solve_with(board, goal, &options)
    }

    /// IDA* with this heuristic, its limits and thread count from `options`; monomorphised per
    /// heuristic (see [`Prepared::with`]).
    pub fn solve_with(
        &self,
        board: &Board,
        goal: &Goal,
        options: &SearchOptions,
    ) -> Result<SearchResult, SearchError> {
        struct Ida<'a>(&'a Board, &'a Goal, &'a SearchOptions);
        impl WithHeuristic for Ida<'_> {
            type Output = Result<SearchResult, SearchError>;
            fn run<H: Heuristic>(self, h: &H) -> Self::Output {
                ida_with(self.0, self.1, h, self.2)
            }
            fn run_registered(self, h: &dyn ErasedHeuristic) -> Self::Output {
                h.ida(self.0, self.1, self.2)
            }
        }
        self.with(Ida(board, goal, options))
    }
}

/// Runs `algorithm` with `heuristic` (none for `bfs`, required by the others) on `board`: the
/// one function that turns an algorithm and a prepared heuristic into a monomorphised search
/// (through [`Prepared::with`]), reporting counts and memory, with the heuristic's table bytes.
/// Only IDA* takes `options.threads` above 1.
pub fn solve(
    algorithm: Algorithm,
    heuristic: Option<&Prepared>,
    board: &Board,
    goal: &Goal,
    options: &SearchOptions,
) -> Result<Outcome, SearchError> {
    struct Run<'a>(Algorithm, &'a Board, &'a Goal, &'a SearchOptions);
    impl WithHeuristic for Run<'_> {
        type Output = Result<Outcome, SearchError>;
        fn run<H: Heuristic>(self, h: &H) -> Self::Output {
            crate::search::run(self.0, self.1, self.2, h, self.3)
        }
        fn run_registered(self, h: &dyn ErasedHeuristic) -> Self::Output {
            h.search(self.0, self.1, self.2, self.3)
        }
    }
    if algorithm == Algorithm::External {
        return Err(SearchError::NotBuiltin);
    }
    if options.threads > 1 && algorithm != Algorithm::Ida {
        return Err(SearchError::ThreadsNotIda(algorithm));
    }
    if !options.pruning.is_parent() && algorithm != Algorithm::Ida {
        return Err(SearchError::PruningNotIda(algorithm));
    }
    let mut outcome = match (algorithm.uses_heuristic(), heuristic) {
        (false, Some(_)) => return Err(SearchError::HeuristicNotUsed(algorithm)),
        (true, None) => return Err(SearchError::HeuristicNeeded(algorithm)),
        (false, None) => bfs(board, goal, &options.limits)?,
        (true, Some(h)) => h.with(Run(algorithm, board, goal, options))?,
    };
    outcome.memory.table_bytes = heuristic.map_or(0, Prepared::table_bytes);
    Ok(outcome)
}

/// [`fixed_threshold`](crate::predict::fixed_threshold) with a prepared heuristic, reported as a search (status
/// [`Status::FixedBound`], one iteration, no moves) so that `run --fixed-bound` records it like
/// any run.
pub fn fixed_bound_search(h: &Prepared, board: &Board, threshold: u32) -> SearchResult {
    struct Fixed<'a>(&'a Board, u32);
    impl WithHeuristic for Fixed<'_> {
        type Output = IterationCount;
        fn run<H: Heuristic>(self, h: &H) -> IterationCount {
            crate::predict::fixed_threshold(self.0, h, self.1)
        }
        fn run_registered(self, h: &dyn ErasedHeuristic) -> IterationCount {
            h.fixed_threshold(self.0, self.1)
        }
    }
    let start = Instant::now();
    let count = h.with(Fixed(board, threshold));
    let seconds = start.elapsed().as_secs_f64();
    SearchResult {
        status: Status::FixedBound,
        moves: Vec::new(),
        h0: h.evaluate(board),
        iterations: vec![Iteration {
            bound: threshold,
            expanded: count.expanded,
            generated: count.generated,
            seconds,
        }],
        seconds,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Size;

    #[test]
    fn fixed_bound_search_reports_the_complete_iteration_of_each_earlier_ida_bound() {
        let goal = Goal::blank_last(Size::new(3, 3).unwrap());
        let b = crate::board::Board::parse("8 6 7 2 5 4 3 0 1", None).unwrap();
        let name: crate::heuristic::HeuristicName = "max(wd,lc)".parse().unwrap();
        let h = Prepared::new(&name, &goal, &Default::default()).unwrap();
        let r = h.solve(&b, &goal, &Limits::none()).unwrap();
        for it in &r.iterations[..r.iterations.len() - 1] {
            let f = fixed_bound_search(&h, &b, it.bound);
            assert_eq!(f.status, Status::FixedBound);
            assert!(f.moves.is_empty());
            assert_eq!(f.h0, r.h0);
            assert_eq!(f.iterations.len(), 1);
            let one = f.iterations[0];
            assert_eq!(
                (one.bound, one.expanded, one.generated),
                (it.bound, it.expanded, it.generated)
            );
        }
    }
}
