//! IDA*: depth-first passes with a rising bound on f = g + h; each new bound is the smallest f
//! that the previous pass pruned (or one pass with a fixed bound, [`Mode::FixedBound`]). Memory is O(depth). The pass itself is a [`Kernel`]'s: the
//! packed Manhattan kernel for Manhattan distance on boards of up to 16 cells, the generic one
//! otherwise. With more than one thread each pass is split into subtrees searched in parallel
//! (`super::parallel`), with the counts and the moves of the sequential pass.

use std::time::Instant;

use crate::board::{Board, Goal, Grid};
use crate::heuristic::Heuristic;
use crate::moves::Dir;

use rayon::ThreadPool;

use super::checkpoint::{CheckpointMismatch, PartialIteration, Saver};
use super::kernel::{sequential_pass, Generic, Kernel};
use super::limits::Control;
use super::options::{Mode, SearchError, SearchOptions};
use super::packed::{Bmi2, PackedManhattan};
use super::parallel;
use super::pass::{PassOutcome, MAX_DEPTH};
use super::pruning::{Fsm, ParentOnly, Prune, Pruning};
use super::result::{Algorithm, Iteration, Outcome, RunStatus, SearchResult};

/// How many generated nodes a single-threaded pass goes between looks at the clock and the
/// cancel flag (and reservations from the node budget).
const CHECK_EVERY: u64 = 1 << 20;

/// The same for each thread of a parallel search: smaller, so that a limit, or a solution in an
/// earlier subtree, stops the other threads within a fraction of a millisecond.
const PARALLEL_CHECK_EVERY: u64 = 1 << 16;

/// Solves `board` with IDA* under an admissible heuristic built for `goal`, or runs one
/// fixed-bound pass ([`Mode::FixedBound`]), with the limits, threads and checkpoints of `options`.
/// The counts and the moves are those of the one-thread search whatever the thread count, and
/// whether or not the search was resumed from a checkpoint (see [`SearchOptions`] for how the
/// node limit counts in parallel).
///
/// Unsolvable boards are recognised by the parity rule and return at once with no iterations.
/// Errors only when the board and the goal differ in size, or the checkpoint is another search's.
pub(crate) fn ida<H: Heuristic>(
    board: &Board,
    goal: &Goal,
    heuristic: &H,
    options: &SearchOptions,
) -> Result<SearchResult, SearchError> {
    let started = Instant::now();
    let grid = Grid::new(board);
    let root = heuristic.init(&grid);
    let h0 = heuristic.h(&root);
    if !board.is_solvable(goal)? {
        return Ok(Outcome::unsolvable(Algorithm::Ida, h0, started).result);
    }
    match options.pruning {
        Pruning::Parent => with_pruning(board, goal, heuristic, ParentOnly, options, started),
        Pruning::Fsm => {
            // Built once a process (seconds on 5x5), like a pattern database before the search:
            // neither the search's seconds nor its time limit count it.
            let fsm = Fsm::for_size(board.size());
            with_pruning(board, goal, heuristic, &*fsm, options, Instant::now())
        }
    }
}

/// The search with the kernel for `heuristic` and `prune` (monomorphised per pair).
fn with_pruning<H: Heuristic, P: Prune>(
    board: &Board,
    goal: &Goal,
    heuristic: &H,
    prune: P,
    options: &SearchOptions,
    started: Instant,
) -> Result<SearchResult, SearchError> {
    let grid = Grid::new(board);
    let root = heuristic.init(&grid);
    let h0 = heuristic.h(&root);
    let exact = options.limits.node_limit.is_some();
    match (options.mode, heuristic.as_manhattan()) {
        (Mode::FixedBound(bound), _) => {
            // The generic kernel without a goal: the packed one stops at the goal by design.
            let k = Generic::new(heuristic, prune, None, board.size());
            let node = k.root(grid, root, board.blank());
            Ok(fixed(&k, node, h0, bound, options, started))
        }
        (Mode::Solve, Some(m)) if board.size().cells() <= super::packed::PACKED_CELLS => {
            let k = PackedManhattan::new(m, prune, board.size(), exact, Bmi2::detect())
                .expect("a board of at most 16 cells packs");
            let node = k.root(board, h0);
            drive(&k, node, h0, options, started)
        }
        (Mode::Solve, _) => {
            let k = Generic::new(heuristic, prune, Some(goal), board.size());
            let node = k.root(grid, root, board.blank());
            drive(&k, node, h0, options, started)
        }
    }
}

/// One complete pass with `bound` from `root` on this thread ([`Mode::FixedBound`]); nothing
/// is expanded when h(root) exceeds the bound.
fn fixed<K: Kernel>(
    k: &K,
    root: K::Node,
    h0: u32,
    bound: u32,
    options: &SearchOptions,
    started: Instant,
) -> SearchResult {
    let control = Control::new(&options.limits, started, CHECK_EVERY);
    let (expanded, generated) = if h0 <= bound && control.check().is_none() {
        let pass = sequential_pass(k, &root, bound, &control);
        (pass.expanded, pass.generated)
    } else {
        (0, 0)
    };
    let seconds = started.elapsed().as_secs_f64();
    SearchResult {
        status: control.stopped().unwrap_or(RunStatus::FixedBound),
        moves: Vec::new(),
        h0,
        iterations: vec![Iteration {
            bound,
            expanded,
            generated,
            seconds,
        }],
        seconds,
    }
}

/// The iterations of IDA* from `root`, each pass on one thread or split over the threads
/// (split as well on one thread when checkpointing, so that finished subtrees can be saved).
fn drive<K: Kernel>(
    k: &K,
    root: K::Node,
    h0: u32,
    options: &SearchOptions,
    started: Instant,
) -> Result<SearchResult, SearchError> {
    iterate(
        h0,
        k.is_goal(&root),
        options,
        started,
        &|bound, control, pool, saver, resume| {
            if pool.is_some() || saver.is_some() {
                parallel::pass(
                    k,
                    &root,
                    bound,
                    control,
                    pool,
                    options.threads,
                    saver,
                    resume,
                )
            } else {
                Ok(sequential_pass(k, &root, bound, control))
            }
        },
    )
}

/// One pass with a bound, as [`drive`] runs it: on this thread or split over a pool,
/// checkpointed through a saver, resuming a partial pass.
type RunPass<'a> = dyn Fn(
        u32,
        &Control,
        Option<&ThreadPool>,
        Option<&Saver>,
        Option<&PartialIteration>,
    ) -> Result<PassOutcome, CheckpointMismatch>
    + 'a;

/// [`drive`]'s loop of iterations, limits and checkpoints: compiled once for every kernel, which
/// comes in as `pass`, called once an iteration.
fn iterate(
    h0: u32,
    root_is_goal: bool,
    options: &SearchOptions,
    started: Instant,
    pass: &RunPass,
) -> Result<SearchResult, SearchError> {
    let threads = options.threads;
    // A pool that cannot be built (no threads to be had) leaves the search on this thread.
    let pool = (threads > 1)
        .then(|| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .ok()
        })
        .flatten();
    let chunk = if pool.is_some() {
        PARALLEL_CHECK_EVERY
    } else {
        CHECK_EVERY
    };
    let control = Control::new(&options.limits, started, chunk);
    let checkpointing = options.checkpoint.as_ref();
    let from = checkpointing.and_then(|c| c.from.as_ref());
    if let Some(from) = from {
        from.check(h0)?;
    }
    let mut saver = checkpointing.map(|c| Saver::new(c, h0, started));
    let mut iterations = from.map_or(Vec::new(), |f| f.iterations.clone());
    let mut resume = from.and_then(|f| f.current.as_ref());
    let mut bound = from.map_or(h0, |f| f.bound);
    let mut moves = Vec::new();
    let status = if root_is_goal {
        iterations.push(Iteration {
            bound,
            expanded: 0,
            generated: 0,
            seconds: 0.0,
        });
        RunStatus::Solved
    } else if let Some(s) = control.check() {
        s
    } else {
        loop {
            let t0 = Instant::now();
            let earlier = resume.map_or(0.0, |r| r.seconds);
            let pass = pass(
                bound,
                &control,
                pool.as_ref(),
                saver.as_ref(),
                resume.take(),
            )?;
            iterations.push(Iteration {
                bound,
                expanded: pass.expanded,
                generated: pass.generated,
                seconds: earlier + t0.elapsed().as_secs_f64(),
            });
            if let Some(path) = pass.solution {
                moves = path;
                break RunStatus::Solved;
            }
            if let Some(s) = control.stopped() {
                break s;
            }
            // A solvable board always leaves a pruned node behind until the goal is found.
            assert!(
                pass.next_bound != u32::MAX,
                "IDA* exhausted a solvable board: heuristic is inconsistent with the goal"
            );
            bound = pass.next_bound;
            assert!(
                (bound as usize) < MAX_DEPTH,
                "bound {bound} exceeds the deepest supported path"
            );
            if let Some(saver) = &mut saver {
                saver.iterations.clone_from(&iterations);
            }
        }
    };
    Ok(SearchResult {
        status,
        moves: moves.into_iter().map(Dir::from_index).collect(),
        h0,
        iterations,
        seconds: saver
            .as_ref()
            .map_or(started.elapsed().as_secs_f64(), Saver::seconds),
    })
}

#[cfg(test)]
mod tests {
    use std::cell::Cell;

    use super::*;

    /// More than one thread gets a pool of exactly that many (the subtrees of a pass run on
    /// it); one thread gets none (the pass runs on the caller's thread).
    #[test]
    fn every_pass_gets_a_pool_of_the_threads_asked_for() {
        for threads in [1, 2, 3] {
            let options = SearchOptions {
                threads,
                ..SearchOptions::default()
            };
            let seen = Cell::new(None);
            let pass = |_: u32,
                        _: &Control,
                        pool: Option<&ThreadPool>,
                        _: Option<&Saver>,
                        _: Option<&PartialIteration>| {
                seen.set(Some(pool.map(ThreadPool::current_num_threads)));
                Ok(PassOutcome {
                    expanded: 1,
                    generated: 2,
                    next_bound: u32::MAX,
                    solution: Some(vec![0]),
                })
            };
            let r = iterate(1, false, &options, Instant::now(), &pass).unwrap();
            assert_eq!(r.status, RunStatus::Solved);
            let pool = (threads > 1).then_some(threads);
            assert_eq!(seen.get(), Some(pool), "{threads} threads");
        }
    }
}
