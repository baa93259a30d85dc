//! The generic search, for one concrete heuristic type: what [`super::solve()`] hands each
//! heuristic to, and what a registered heuristic's erased type runs.

use crate::board::{Board, Goal, Grid};
use crate::heuristic::Heuristic;

use super::memory::Memory;
use super::options::{Mode, SearchError, SearchOptions};
use super::pass::MAX_DEPTH;
use super::result::{Algorithm, Outcome, SearchResult};
use super::{astar, bfs, ida};

/// Runs `options.algorithm` on `board` with `heuristic`'s concrete type, monomorphised (what
/// [`super::solve()`] hands each heuristic to; breadth-first search ignores `heuristic`).
/// `options.limits.memory_limit` bounds the bytes A* and breadth-first search store; IDA* holds
/// O(depth) bytes and ignores it. The caller ([`super::solve()`]) has checked that the options suit the
/// algorithm.
pub(crate) fn run<H: Heuristic>(
    board: &Board,
    goal: &Goal,
    heuristic: &H,
    options: &SearchOptions,
) -> Result<Outcome, SearchError> {
    if options.algorithm.uses_heuristic() {
        check_heuristic(board, goal, heuristic)?;
    }
    let limits = &options.limits;
    match options.algorithm {
        Algorithm::Ida => {
            let result = ida::ida(board, goal, heuristic, options)?;
            // A fixed-bound pass records no memory, as `run --fixed-bound` always has.
            let memory = match options.mode {
                Mode::Solve => ida_memory::<H>(&result),
                Mode::FixedBound(_) => Memory::default(),
            };
            Ok(Outcome {
                algorithm: Algorithm::Ida,
                result,
                reopened: 0,
                memory,
            })
        }
        Algorithm::Astar => Ok(astar::astar(board, goal, heuristic, limits)?),
        Algorithm::Bfs => Ok(bfs::bfs(board, goal, limits)?),
    }
}

/// What every search relies on of a heuristic, checked once before it starts (a registered
/// heuristic from outside the library may break it): h is 0 at the goal (the searches test
/// for the goal only where h = 0), and a heuristic that hands the search Manhattan distance's
/// table (`as_manhattan`, for the packed loop) has Manhattan distance's value.
fn check_heuristic<H: Heuristic>(board: &Board, goal: &Goal, h: &H) -> Result<(), SearchError> {
    let at_goal = h.h(&h.init(&Grid::new(&goal.as_board())));
    if at_goal != 0 {
        return Err(SearchError::NotZeroAtGoal(at_goal));
    }
    if let Some(m) = h.as_manhattan() {
        let grid = Grid::new(board);
        let (own, manhattan) = (h.h(&h.init(&grid)), m.total(&grid));
        if own != manhattan {
            return Err(SearchError::NotManhattan { own, manhattan });
        }
    }
    Ok(())
}

/// IDA*'s memory, derived after the search (nothing is counted per node): the path from the root
/// to the deepest node holds at most `bound + 1` states, the last iteration's bound (the solution
/// length when solved); the bytes are the board and the fixed move array of [`MAX_DEPTH`] bytes,
/// plus the heuristic's state carried per level.
fn ida_memory<H: Heuristic>(result: &SearchResult) -> Memory {
    let Some(last) = result.iterations.last() else {
        return Memory::default();
    };
    let stored = (last.bound as u64).min(MAX_DEPTH as u64) + 1;
    Memory {
        peak_stored: stored,
        peak_bytes: (std::mem::size_of::<Grid>() + MAX_DEPTH) as u64
            + stored * std::mem::size_of::<H::State>() as u64,
        table_bytes: 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::heuristic::{Manhattan, TileDistances};

    /// Manhattan distance scaled by `times` plus `plus`, handing the search Manhattan's table
    /// all the same: the two contracts a heuristic from outside may break.
    struct Bent {
        m: Manhattan,
        times: u32,
        plus: u32,
    }

    impl Heuristic for Bent {
        type State = u32;
        fn init(&self, grid: &Grid) -> u32 {
            self.m.init(grid)
        }
        fn h(&self, s: &u32) -> u32 {
            s * self.times + self.plus
        }
        fn update(&self, s: &u32, grid: &Grid, tile: u8, from: usize, to: usize) -> u32 {
            self.m.update(s, grid, tile, from, to)
        }
        fn as_manhattan(&self) -> Option<&TileDistances> {
            self.m.as_manhattan()
        }
    }

    /// A heuristic above 0 at the goal, or one that hands over Manhattan's table without being
    /// Manhattan distance, is refused before the search (it would never see the goal, or the
    /// packed loop would search with the wrong h), with each algorithm that uses h.
    #[test]
    fn a_heuristic_that_breaks_the_searchs_contract_is_refused() {
        let goal = Goal::blank_last(crate::board::Size::new(3, 3).unwrap());
        let board = Board::parse("1 2 3 4 5 6 0 7 8", None).unwrap();
        let bent = |times, plus| Bent {
            m: Manhattan::new(&goal),
            times,
            plus,
        };
        for algorithm in [Algorithm::Ida, Algorithm::Astar] {
            let options = SearchOptions {
                algorithm,
                ..SearchOptions::default()
            };
            let solved = run(&board, &goal, &bent(1, 0), &options).unwrap();
            assert_eq!(solved.result.moves.len(), 2);
            let err = run(&board, &goal, &bent(1, 2), &options).unwrap_err();
            assert!(matches!(err, SearchError::NotZeroAtGoal(2)), "{err}");
            let err = run(&board, &goal, &bent(2, 0), &options).unwrap_err();
            assert!(
                matches!(
                    err,
                    SearchError::NotManhattan {
                        own: 4,
                        manhattan: 2
                    }
                ),
                "{err}"
            );
        }
    }

    /// IDA*'s memory is its path: the board, the move array, and one heuristic state for each of
    /// the solution's length + 1 levels; a fixed-bound pass records none.
    #[test]
    fn idas_memory_is_the_board_the_moves_and_a_state_per_level() {
        let goal = Goal::blank_last(crate::board::Size::new(4, 4).unwrap());
        let board = Board::parse("5 1 3 4 2 6 7 8 0 10 11 12 9 13 14 15", None).unwrap();
        let md = Manhattan::new(&goal);
        let o = run(&board, &goal, &md, &SearchOptions::default()).unwrap();
        let levels = o.result.moves.len() as u64 + 1;
        let state = std::mem::size_of::<<Manhattan as Heuristic>::State>() as u64;
        let fixed = (std::mem::size_of::<Grid>() + MAX_DEPTH) as u64;
        assert_eq!(o.memory.peak_stored, levels);
        assert_eq!(o.memory.peak_bytes, fixed + levels * state);
        let pass = SearchOptions {
            mode: Mode::FixedBound(levels as u32 - 1),
            ..SearchOptions::default()
        };
        let o = run(&board, &goal, &md, &pass).unwrap();
        assert_eq!(o.memory, Memory::default());
    }
}
