//! What one depth-first pass carries (counters, the path, the bound) and the limits it answers
//! to, shared by every thread of a search.
//!
//! Limits are looked at in a cold path (`Pass::check_limits`), never per node: a pass may generate nodes up to
//! `check_at` freely. The node limit is a budget that passes draw from in chunks, so one thread
//! stops exactly at the limit and several threads together never exceed it.

use std::sync::atomic::{AtomicU64, AtomicU8, AtomicUsize, Ordering};
use std::time::Instant;

use super::limits::Limits;
use super::result::Status;

/// Longest path the search can return; far above any optimal 5×5 solution (at most 208 moves).
pub const MAX_DEPTH: usize = 256;

/// What one pass (one iteration) found.
pub(crate) struct PassOutcome {
    pub(crate) expanded: u64,
    pub(crate) generated: u64,
    pub(crate) next_bound: u32,
    /// The moves to the goal, by direction index, when the pass reached it.
    pub(crate) solution: Option<Vec<u8>>,
}

/// The state of one search shared by its threads: the limits, why it stopped (if it did), the
/// node budget left, and which subtree holds the first solution found.
pub(crate) struct Control<'a> {
    limits: &'a Limits,
    started: Instant,
    /// 0 while running, else the code of the [`Status`] that stopped the search (first wins).
    stop: AtomicU8,
    /// Nodes that may still be generated (only read with a node limit).
    budget: AtomicU64,
    /// Nodes a pass reserves at a time; also how often it looks at the clock and the flags.
    chunk: u64,
    /// The earliest subtree (in sequential order) known to hold a solution in this iteration;
    /// later subtrees stop at their next look at the limits. `usize::MAX` when none.
    pub(crate) found_at: AtomicUsize,
}

const RUNNING: u8 = 0;

fn code(s: Status) -> u8 {
    match s {
        Status::Solved => 1,
        Status::Unsolvable => 2,
        Status::NodeLimit => 3,
        Status::TimeLimit => 4,
        Status::Cancelled => 5,
        Status::FixedBound => 6,
        Status::MemoryLimit => 7,
    }
}

fn status(c: u8) -> Option<Status> {
    Some(match c {
        1 => Status::Solved,
        2 => Status::Unsolvable,
        3 => Status::NodeLimit,
        4 => Status::TimeLimit,
        5 => Status::Cancelled,
        6 => Status::FixedBound,
        7 => Status::MemoryLimit,
        _ => return None,
    })
}

impl<'a> Control<'a> {
    pub(crate) fn new(limits: &'a Limits, started: Instant, chunk: u64) -> Control<'a> {
        Control {
            limits,
            started,
            stop: AtomicU8::new(RUNNING),
            budget: AtomicU64::new(limits.node_limit.unwrap_or(u64::MAX)),
            chunk,
            found_at: AtomicUsize::new(usize::MAX),
        }
    }

    /// Why the search stopped, if it did.
    pub(crate) fn stopped(&self) -> Option<Status> {
        status(self.stop.load(Ordering::Relaxed))
    }

    /// Stops every pass at its next look at the limits (the first reason given wins).
    pub(crate) fn halt(&self, s: Status) {
        let _ = self
            .stop
            .compare_exchange(RUNNING, code(s), Ordering::Relaxed, Ordering::Relaxed);
    }

    /// Looks at the clock, the cancel flag and the budget; returns why to stop, if at all.
    pub(crate) fn check(&self) -> Option<Status> {
        let l = self.limits;
        if l.node_limit.is_some() && self.budget.load(Ordering::Relaxed) == 0 {
            self.halt(Status::NodeLimit);
        } else if l.time_limit.is_some_and(|t| self.started.elapsed() >= t) {
            self.halt(Status::TimeLimit);
        } else if l.cancel.as_ref().is_some_and(|c| c.load(Ordering::Relaxed)) {
            self.halt(Status::Cancelled);
        }
        self.stopped()
    }

    /// Takes up to `want` nodes from the budget; returns how many were granted.
    pub(crate) fn reserve(&self, want: u64) -> u64 {
        if self.limits.node_limit.is_none() {
            return want;
        }
        let before = self
            .budget
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |b| {
                Some(b - b.min(want))
            })
            .unwrap_or(0);
        before.min(want)
    }

    /// Returns nodes reserved but not generated.
    pub(crate) fn give_back(&self, n: u64) {
        if self.limits.node_limit.is_some() && n > 0 {
            self.budget.fetch_add(n, Ordering::Relaxed);
        }
    }
}

/// One depth-first pass below one node (the root, or a subtree of a parallel iteration).
pub(crate) struct Pass<'c> {
    pub(crate) bound: u32,
    /// The smallest f pruned so far (the next iteration's bound).
    pub(crate) next_bound: u32,
    pub(crate) expanded: u64,
    pub(crate) generated: u64,
    /// The pass may generate nodes freely while `generated < check_at` (its reservation).
    pub(crate) check_at: u64,
    /// Set with `length` when the pass reaches the goal; `path[..length]` is then the solution.
    pub(crate) found: bool,
    pub(crate) length: usize,
    /// The moves to the current node by depth, written when the search unwinds from a solution
    /// (and by the caller for the moves above the pass's start node).
    pub(crate) path: [u8; MAX_DEPTH],
    control: &'c Control<'c>,
    /// Where this pass's subtree stands in sequential order (0 for a whole iteration).
    task: usize,
}

impl<'c> Pass<'c> {
    pub(crate) fn new(control: &'c Control<'c>, bound: u32, task: usize) -> Pass<'c> {
        Pass {
            bound,
            next_bound: u32::MAX,
            expanded: 0,
            generated: 0,
            check_at: 0,
            found: false,
            length: 0,
            path: [0; MAX_DEPTH],
            control,
            task,
        }
    }

    /// Called when the reservation is used up (`generated == check_at`): looks at the limits
    /// and reserves more nodes. Returns whether to stop (the search then unwinds).
    #[cold]
    #[inline(never)]
    pub(crate) fn check_limits(&mut self) -> bool {
        let c = self.control;
        if c.check().is_some() || c.found_at.load(Ordering::Relaxed) < self.task {
            return true;
        }
        let granted = c.reserve(c.chunk);
        if granted == 0 {
            c.halt(Status::NodeLimit);
            return true;
        }
        self.check_at = self.generated + granted;
        false
    }

    /// Records a solution reached by the move `dir` from depth `g`.
    #[inline(always)]
    pub(crate) fn reached_goal(&mut self, g: u32, dir: u8) {
        self.path[g as usize & (MAX_DEPTH - 1)] = dir;
        self.length = g as usize + 1;
        self.found = true;
    }

    /// Ends the pass: returns the unused reservation to the budget.
    pub(crate) fn finish(&mut self) {
        self.control.give_back(self.check_at - self.generated);
        self.check_at = self.generated;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budget_is_exact_and_shared() {
        let limits = Limits {
            node_limit: Some(10),
            ..Limits::none()
        };
        let c = Control::new(&limits, Instant::now(), 4);
        assert_eq!(c.reserve(4), 4);
        assert_eq!(c.reserve(4), 4);
        assert_eq!(c.reserve(4), 2);
        assert_eq!(c.reserve(4), 0);
        c.give_back(3);
        assert_eq!(c.reserve(4), 3);
        assert_eq!(c.check(), Some(Status::NodeLimit));
        c.halt(Status::TimeLimit);
        assert_eq!(
            c.stopped(),
            Some(Status::NodeLimit),
            "the first reason wins"
        );
    }

    #[test]
    fn pass_stops_at_the_limit_and_when_an_earlier_task_has_a_solution() {
        let limits = Limits {
            node_limit: Some(5),
            ..Limits::none()
        };
        let c = Control::new(&limits, Instant::now(), 3);
        let mut p = Pass::new(&c, 10, 2);
        assert!(!p.check_limits());
        assert_eq!(p.check_at, 3);
        p.generated = 3;
        assert!(!p.check_limits());
        assert_eq!(p.check_at, 5);
        p.generated = 5;
        assert!(p.check_limits());
        assert_eq!(c.stopped(), Some(Status::NodeLimit));

        let none = Limits::none();
        let c = Control::new(&none, Instant::now(), 3);
        let mut p = Pass::new(&c, 10, 2);
        assert!(!p.check_limits());
        c.found_at.store(1, Ordering::Relaxed);
        assert!(
            p.check_limits(),
            "task 2 stops once task 1 holds a solution"
        );
        assert_eq!(c.stopped(), None);
    }
}
