//! One IDA* pass on several threads, with the counts and the moves of the sequential pass.
//!
//! The pass is split at a shallow depth: the tree above it is walked here, in operator order,
//! and each node at the split depth that passes the bound becomes a subtree task. The tasks are
//! spawned in that (sequential) order on a rayon pool (`spawn_fifo`: each thread takes the
//! oldest task, idle threads steal), and each is an ordinary depth-first pass below its node.
//!
//! Counts: a pass that does not reach the goal counts the shallow walk and every task in full,
//! which is what the sequential pass counts. When tasks reach the goal, the first one in
//! sequential order, k, holds the sequential pass's solution: the pass then counts the shallow
//! walk up to and including the generation of k's node, tasks before k in full (they always run
//! to the end) and task k up to its solution; tasks after k stop at their next look at the limits and
//! are not counted. The moves are task k's.

use std::sync::atomic::Ordering;
use std::sync::OnceLock;
use std::time::Instant;

use rayon::ThreadPool;

use super::checkpoint::{CheckpointMismatch, DoneSubtree, PartialIteration, Saver};
use super::kernel::sequential_pass;
use super::kernel::Kernel;
use super::limits::Control;
use super::pass::{Pass, PassOutcome};

/// Deepest split (the moves above a task are kept in an array of this size).
const MAX_SPLIT: usize = 24;

/// Subtrees wanted per thread: many more than threads, so that work stealing balances uneven
/// subtrees, and the last pass wastes little on subtrees after the solution.
const TASKS_PER_THREAD: usize = 256;

/// A subtree to search, a node at the split depth that passes the bound: where it starts (its
/// node is kept apart, in [`Split::nodes`], so that all but the shallow walk is compiled once for
/// every kernel, not once per kernel).
struct Task {
    depth: u32,
    /// The moves from the root to the task's node.
    prefix: [u8; MAX_SPLIT],
    /// The shallow walk's counts up to and including the generation of the task's node.
    expanded_before: u64,
    generated_before: u64,
}

/// The shallow part of a pass: its counts, and the subtrees below it in sequential order.
struct Shallow {
    depth: u32,
    tasks: Vec<Task>,
    expanded: u64,
    generated: u64,
    next_bound: u32,
}

/// The shallow walk and the node each of its subtrees starts from.
struct Split<N> {
    shallow: Shallow,
    nodes: Vec<N>,
}

/// What a task's pass counted; `complete` when it ran to the end of its subtree or to a
/// solution (not stopped by a limit or by an earlier solution).
struct TaskOutcome {
    expanded: u64,
    generated: u64,
    next_bound: u32,
    complete: bool,
    solution: Option<Vec<u8>>,
}

/// Walks the tree above `depth` as the sequential pass would; None if the goal lies within it.
fn split<K: Kernel>(k: &K, root: &K::Node, bound: u32, depth: u32) -> Option<Split<K::Node>> {
    let mut s = Split {
        shallow: Shallow {
            depth,
            tasks: Vec::new(),
            expanded: 0,
            generated: 0,
            next_bound: u32::MAX,
        },
        nodes: Vec::new(),
    };
    let mut prefix = [0u8; MAX_SPLIT];
    let mut goal = false;
    walk(k, root, 0, depth, bound, &mut prefix, &mut s, &mut goal);
    (!goal).then_some(s)
}

#[allow(clippy::too_many_arguments)]
fn walk<K: Kernel>(
    k: &K,
    node: &K::Node,
    g: u32,
    depth: u32,
    bound: u32,
    prefix: &mut [u8; MAX_SPLIT],
    s: &mut Split<K::Node>,
    goal: &mut bool,
) {
    s.shallow.expanded += 1;
    k.children(node, |dir, child| {
        if *goal {
            return;
        }
        let shallow = &mut s.shallow;
        shallow.generated += 1;
        let f = g + 1 + k.h(&child);
        if f > bound {
            shallow.next_bound = shallow.next_bound.min(f);
            return;
        }
        prefix[g as usize % MAX_SPLIT] = dir;
        if k.is_goal(&child) {
            *goal = true;
        } else if g + 1 == depth {
            shallow.tasks.push(Task {
                depth,
                prefix: *prefix,
                expanded_before: shallow.expanded,
                generated_before: shallow.generated,
            });
            s.nodes.push(child);
        } else {
            walk(k, &child, g + 1, depth, bound, prefix, s, goal);
        }
    });
}

/// The shallowest split with enough tasks for `threads` (or the deepest allowed); None when the
/// goal lies above it, for the sequential pass to find.
fn plan<K: Kernel>(k: &K, root: &K::Node, bound: u32, threads: usize) -> Option<Split<K::Node>> {
    let want = TASKS_PER_THREAD * threads;
    let mut depth = 1;
    loop {
        let s = split(k, root, bound, depth)?;
        let tasks = s.shallow.tasks.len();
        if tasks >= want || tasks == 0 || depth as usize == MAX_SPLIT {
            return Some(s);
        }
        depth += 1;
    }
}

/// One pass with bound `bound`, its subtrees on `pool` (or one after another on this thread),
/// checkpointed through `saver`; `resume` is what an earlier session finished of this very pass.
#[allow(clippy::too_many_arguments)]
pub(crate) fn pass<K: Kernel>(
    k: &K,
    root: &K::Node,
    bound: u32,
    control: &Control,
    pool: Option<&ThreadPool>,
    threads: usize,
    saver: Option<&Saver>,
    resume: Option<&PartialIteration>,
) -> Result<PassOutcome, CheckpointMismatch> {
    let started = Instant::now();
    let split = match resume.filter(|r| r.split_depth > 0) {
        Some(r) => Some(resumed_split(k, root, bound, r)?),
        None => plan(k, root, bound, threads),
    };
    let (shallow, nodes) = match split {
        Some(Split { shallow, nodes }) => (Some(shallow), nodes),
        None => (None, Vec::new()),
    };
    let run = Run {
        bound,
        control,
        pool,
        saver,
        resume,
        started,
    };
    Ok(run.subtrees(
        shallow.as_ref(),
        &|| sequential_pass(k, root, bound, control),
        &|p: &mut Pass, i: usize, depth: u32| k.search(p, &nodes[i], depth),
    ))
}

/// A pass after its shallow walk: everything here is compiled once, whatever the kernel, which
/// comes in as two closures called once per pass or per subtree, never per node.
struct Run<'a> {
    bound: u32,
    control: &'a Control<'a>,
    pool: Option<&'a ThreadPool>,
    saver: Option<&'a Saver<'a>>,
    resume: Option<&'a PartialIteration>,
    started: Instant,
}

impl Run<'_> {
    /// Searches the subtrees of `shallow` (the whole pass with `sequential` when there is no
    /// split, or no node budget for one); `search(pass, i, depth)` searches subtree i into
    /// `pass` and returns true when it unwound.
    fn subtrees(
        &self,
        shallow: Option<&Shallow>,
        sequential: &dyn Fn() -> PassOutcome,
        search: &(dyn Fn(&mut Pass, usize, u32) -> bool + Sync),
    ) -> PassOutcome {
        let Run {
            bound,
            control,
            pool,
            saver,
            resume,
            started,
        } = *self;
        let earlier = resume.map_or(0.0, |r| r.seconds);
        let stopped_here = |current: Option<PartialIteration>| {
            if let (Some(saver), Some(_)) = (saver, control.stopped()) {
                saver.save(bound, current);
            }
        };
        let Some(split) = shallow else {
            let outcome = sequential();
            if outcome.solution.is_none() {
                stopped_here(None);
            }
            return outcome;
        };
        // The shallow walk's nodes come out of the node budget too; near the limit the
        // sequential pass stops exactly where it must.
        let granted = control.reserve(split.generated);
        if granted < split.generated {
            control.give_back(granted);
            let outcome = sequential();
            stopped_here(None);
            return outcome;
        }
        control.found_at.store(usize::MAX, Ordering::Relaxed);
        let slots: Vec<OnceLock<TaskOutcome>> =
            split.tasks.iter().map(|_| OnceLock::new()).collect();
        for d in resume.map_or(&[][..], |r| &r.done[..]) {
            let _ = slots[d.index as usize].set(TaskOutcome {
                expanded: d.expanded,
                generated: d.generated,
                next_bound: d.next_bound,
                complete: true,
                solution: None,
            });
        }
        let finished = || PartialIteration {
            split_depth: split.depth,
            subtrees: split.tasks.len() as u32,
            shallow_expanded: split.expanded,
            shallow_generated: split.generated,
            done: done_subtrees(&slots),
            seconds: earlier + started.elapsed().as_secs_f64(),
        };
        let task = |i: usize| {
            let (task, slot) = (&split.tasks[i], &slots[i]);
            if slot.get().is_some()
                || control.stopped().is_some()
                || control.found_at.load(Ordering::Relaxed) < i
            {
                return;
            }
            let mut p = Pass::new(control, bound, i);
            // A pruned f already seen: lets `update_below` skip lookups from the start, and
            // the pass's minimum stays the iteration's (the shallow walk's is in it anyway).
            p.next_bound = split.next_bound;
            let d = task.depth as usize;
            p.path[..d].copy_from_slice(&task.prefix[..d]);
            let unwound = search(&mut p, i, task.depth);
            p.finish();
            if p.found {
                control.found_at.fetch_min(i, Ordering::Relaxed);
            }
            let _ = slot.set(TaskOutcome {
                expanded: p.expanded,
                generated: p.generated,
                next_bound: p.next_bound,
                complete: !unwound || p.found,
                solution: p.found.then(|| p.path[..p.length].to_vec()),
            });
            if let Some(saver) = saver.filter(|s| !p.found && s.due()) {
                saver.save(bound, Some(finished()));
            }
        };
        match pool {
            Some(pool) => pool.scope_fifo(|scope| {
                for i in 0..split.tasks.len() {
                    let task = &task;
                    scope.spawn_fifo(move |_| task(i));
                }
            }),
            None => (0..split.tasks.len()).for_each(task),
        }
        let done = finished();
        let outcomes: Vec<Option<TaskOutcome>> =
            slots.into_iter().map(|s| s.into_inner()).collect();
        let outcome = combine(split, &outcomes);
        if outcome.solution.is_none() {
            stopped_here(Some(done));
        }
        outcome
    }
}

/// The split an earlier session made of this pass, checked against what it stored.
fn resumed_split<K: Kernel>(
    k: &K,
    root: &K::Node,
    bound: u32,
    r: &PartialIteration,
) -> Result<Split<K::Node>, CheckpointMismatch> {
    let s = split(k, root, bound, r.split_depth).filter(|s| {
        let s = &s.shallow;
        (s.tasks.len(), s.expanded, s.generated)
            == (r.subtrees as usize, r.shallow_expanded, r.shallow_generated)
    });
    s.ok_or_else(|| {
        CheckpointMismatch(format!(
            "the split at depth {} of the pass with bound {bound} is not the stored one",
            r.split_depth
        ))
    })
}

/// The subtrees searched to their end without a solution.
fn done_subtrees(slots: &[OnceLock<TaskOutcome>]) -> Vec<DoneSubtree> {
    slots
        .iter()
        .enumerate()
        .filter_map(|(i, s)| {
            let o = s.get()?;
            (o.complete && o.solution.is_none()).then_some(DoneSubtree {
                index: i as u32,
                expanded: o.expanded,
                generated: o.generated,
                next_bound: o.next_bound,
            })
        })
        .collect()
}

/// The pass's counts from the shallow walk and the tasks' outcomes (None: never started).
fn combine(split: &Shallow, outcomes: &[Option<TaskOutcome>]) -> PassOutcome {
    let first = outcomes
        .iter()
        .position(|o| o.as_ref().is_some_and(|o| o.solution.is_some()));
    if let Some(k) = first {
        let before = &outcomes[..k];
        if before
            .iter()
            .all(|o| o.as_ref().is_some_and(|o| o.complete))
        {
            let done = before.iter().flatten().chain(outcomes[k].as_ref());
            let (expanded, generated) = done.fold(
                (
                    split.tasks[k].expanded_before,
                    split.tasks[k].generated_before,
                ),
                |(e, g), o| (e + o.expanded, g + o.generated),
            );
            return PassOutcome {
                expanded,
                generated,
                next_bound: u32::MAX,
                solution: outcomes[k].as_ref().and_then(|o| o.solution.clone()),
            };
        }
    }
    // No solution, or a limit stopped an earlier task: everything that was searched counts.
    outcomes.iter().flatten().fold(
        PassOutcome {
            expanded: split.expanded,
            generated: split.generated,
            next_bound: split.next_bound,
            solution: None,
        },
        |acc, o| PassOutcome {
            expanded: acc.expanded + o.expanded,
            generated: acc.generated + o.generated,
            next_bound: acc.next_bound.min(o.next_bound),
            solution: None,
        },
    )
}

#[cfg(test)]
mod tests {
    use crate::search::checkpoint::{Checkpointing, SearchCheckpoint};
    use std::sync::{Arc, Mutex};
    use std::time::{Duration, Instant};

    use super::*;
    use crate::board::{Board, Goal, Grid, Size};
    use crate::heuristic::{Heuristic, LinearConflict, Manhattan};
    use crate::search::kernel::Generic;
    use crate::search::packed::{Bmi2, PackedManhattan};
    use crate::search::pruning::{Fsm, ParentOnly, Prune};
    use crate::search::Limits;

    /// Every iteration's split pass (with real subtree tasks) counts what the sequential pass
    /// counts, and the last one returns the sequential moves.
    fn agrees<K: Kernel>(k: &K, root: K::Node, h0: u32) {
        let limits = Limits::none();
        let control = Control::new(&limits, Instant::now(), 1 << 16);
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap();
        let mut bound = h0;
        loop {
            let split = plan(k, &root, bound, 2).expect("the goal is deeper than the split");
            let seq = sequential_pass(k, &root, bound, &control);
            let par = pass(k, &root, bound, &control, Some(&pool), 2, None, None).unwrap();
            assert_eq!(
                (par.expanded, par.generated, &par.solution),
                (seq.expanded, seq.generated, &seq.solution),
                "bound {bound}"
            );
            if seq.solution.is_some() {
                // The last pass, at least, was really split into subtrees.
                assert!(split.shallow.tasks.len() >= 2 * TASKS_PER_THREAD);
                return;
            }
            assert_eq!(par.next_bound, seq.next_bound);
            bound = seq.next_bound;
        }
    }

    /// The packed Manhattan kernel without exact counting (a node limit stops it near the limit).
    fn packed<P: Prune>(md: &Manhattan, prune: P, size: Size, bmi2: Bmi2) -> PackedManhattan<P> {
        PackedManhattan::new(md.as_manhattan().unwrap(), prune, size, false, bmi2).unwrap()
    }

    /// Korf's #5: 56 moves, 11 million nodes under Manhattan.
    fn korf5() -> (Size, Goal, Board) {
        let size = Size::new(4, 4).unwrap();
        let board = Board::parse("4 7 14 13 10 3 9 12 11 5 6 15 1 2 8 0", None).unwrap();
        (size, Goal::blank_first(size), board)
    }

    type PackedRoot = <PackedManhattan<ParentOnly> as Kernel>::Node;

    /// Korf #5's pass at 10 above its h0 under packed Manhattan (no solution), with the
    /// sequential pass's outcome.
    fn korf5_pass() -> (PackedManhattan<ParentOnly>, PackedRoot, u32, PassOutcome) {
        let (size, goal, board) = korf5();
        let md = Manhattan::new(&goal);
        let h0 = md.evaluate(&board);
        let k = packed(&md, ParentOnly, size, Bmi2::OFF);
        let root = k.root(&board, h0);
        let bound = h0 + 10;
        let unlimited = Limits::none();
        let control = Control::new(&unlimited, Instant::now(), 1 << 10);
        let whole = sequential_pass(&k, &root, bound, &control);
        assert!(whole.solution.is_none() && whole.generated > 100_000);
        (k, root, bound, whole)
    }

    /// Runs the pass split for two threads, stopped by a node limit of a third of the whole
    /// pass's count (from `resume`, if any), and returns the checkpoint saved at the stop.
    fn stopped_pass<K: Kernel>(
        k: &K,
        root: &K::Node,
        bound: u32,
        whole: &PassOutcome,
        resume: Option<&PartialIteration>,
    ) -> PartialIteration {
        let saved = Arc::new(Mutex::new(Vec::new()));
        let to = saved.clone();
        let checkpointing = Checkpointing {
            from: None,
            every: Duration::from_secs(3600),
            save: Arc::new(move |c: &SearchCheckpoint| to.lock().unwrap().push(c.clone())),
        };
        let saver = Saver::new(&checkpointing, 0, Instant::now());
        let limits = Limits {
            node_limit: Some(whole.generated / 3),
            ..Limits::none()
        };
        let control = Control::new(&limits, Instant::now(), 1 << 10);
        pass(k, root, bound, &control, None, 2, Some(&saver), resume).unwrap();
        assert!(control.stopped().is_some());
        let last = saved
            .lock()
            .unwrap()
            .pop()
            .expect("a checkpoint at the stop");
        last.current.expect("the pass was split")
    }

    /// A pass stopped among its subtrees saves the seconds it has spent, on top of those of
    /// the sessions before it: never fewer than they were.
    #[test]
    fn a_stopped_split_pass_saves_the_seconds_of_every_session() {
        let (k, root, bound, whole) = korf5_pass();
        // Stopped a third of the way, and (from that checkpoint, said to hold 1,000 seconds)
        // again a third further on.
        let first = stopped_pass(&k, &root, bound, &whole, None);
        assert!(first.seconds >= 0.0 && !first.done.is_empty(), "{first:?}");
        let earlier = PartialIteration {
            seconds: 1000.0,
            ..first.clone()
        };
        let second = stopped_pass(&k, &root, bound, &whole, Some(&earlier));
        assert!(second.seconds >= 1000.0, "{second:?}");
        assert!(second.done.len() > first.done.len());
    }

    /// A pass resumed on another number of threads keeps the split it was stopped in (the
    /// subtrees it has done are numbered in that split) and counts what the whole pass counts.
    #[test]
    fn a_pass_resumed_on_other_threads_keeps_its_split() {
        let (k, root, bound, whole) = korf5_pass();
        let partial = stopped_pass(&k, &root, bound, &whole, None);
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap();
        let unlimited = Limits::none();
        for threads in [1, 8] {
            let control = Control::new(&unlimited, Instant::now(), 1 << 10);
            let o = pass(
                &k,
                &root,
                bound,
                &control,
                Some(&pool),
                threads,
                None,
                Some(&partial),
            );
            let o = o.unwrap();
            assert_eq!(
                (o.expanded, o.generated, o.next_bound),
                (whole.expanded, whole.generated, whole.next_bound),
                "resumed on {threads} threads"
            );
        }
    }

    /// Once a subtree holds a solution, the subtrees after it (in sequential order) are not
    /// searched: their counts would not be the sequential pass's, and their time is wasted.
    /// The subtree search here is a stand-in that records which subtrees it was asked for and
    /// "finds" the goal in the third.
    #[test]
    fn no_subtree_after_a_solution_is_searched() {
        let (k, root, bound, _) = korf5_pass();
        let split = plan(&k, &root, bound, 2).expect("a split");
        assert!(split.shallow.tasks.len() > 3);
        let unlimited = Limits::none();
        let control = Control::new(&unlimited, Instant::now(), 1 << 10);
        let run = Run {
            bound,
            control: &control,
            pool: None,
            saver: None,
            resume: None,
            started: Instant::now(),
        };
        let asked = Mutex::new(Vec::new());
        let search = |p: &mut Pass, i: usize, depth: u32| {
            asked.lock().unwrap().push(i);
            if i == 2 {
                p.reached_goal(depth, 0);
            }
            p.found
        };
        let outcome = run.subtrees(Some(&split.shallow), &|| unreachable!(), &search);
        assert!(outcome.solution.is_some());
        assert_eq!(*asked.lock().unwrap(), [0, 1, 2]);
    }

    #[test]
    fn split_passes_count_as_the_sequential_pass() {
        let (size, goal, board) = korf5();
        let grid = Grid::new(&board);
        let lc = LinearConflict::new(&goal);
        let k = Generic::new(&lc, ParentOnly, Some(&goal), size);
        let state = lc.init(&grid);
        agrees(&k, k.root(grid, state, board.blank()), lc.h(&state));
        let md = Manhattan::new(&goal);
        let h0 = md.evaluate(&board);
        let k = packed(&md, ParentOnly, size, Bmi2::detect());
        agrees(&k, k.root(&board, h0), h0);
        // The same with the finite-state machine: the split carries each subtree's state.
        let fsm = Fsm::for_size(size);
        let k = Generic::new(&lc, &*fsm, Some(&goal), size);
        agrees(&k, k.root(grid, state, board.blank()), lc.h(&state));
        let k = packed(&md, &*fsm, size, Bmi2::detect());
        agrees(&k, k.root(&board, h0), h0);
    }
}
