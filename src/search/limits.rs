//! When a search gives up: [`Limits`], and [`Control`], the one place that decides whether a
//! search goes on (IDA*'s passes on every thread, and through [`Watch`] A* and breadth-first
//! search). The node limit is a budget that searches draw from in chunks, so one thread stops
//! exactly at the limit and several threads together never exceed it.

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicU8, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::progress;
use super::result::RunStatus;

/// When to give up. On one thread the node limit is exact (the search stops having generated
/// exactly that many nodes); the clock and the cancel flag are looked at every 2^20 generated
/// nodes. For more threads see [`SearchOptions`](super::SearchOptions).
#[derive(Debug, Clone, Default)]
pub struct Limits {
    /// Stop once this many nodes have been generated over all iterations.
    pub node_limit: Option<u64>,
    /// Stop once this much time has passed since the search began.
    pub time_limit: Option<Duration>,
    /// Stop when this flag is set (Ctrl-C, or another run's failure).
    pub cancel: Option<Arc<AtomicBool>>,
    /// Stop A* or breadth-first search before the bytes its structures hold pass this (status
    /// memory-limit). IDA* holds O(depth) bytes and ignores it.
    pub memory_limit: Option<u64>,
}

impl Limits {
    pub fn none() -> Limits {
        Limits::default()
    }
}

/// The state of one search shared by its threads: the limits, why it stopped (if it did), the
/// node budget left, and which subtree holds the first solution found.
pub(crate) struct Control<'a> {
    limits: &'a Limits,
    started: Instant,
    /// 0 while running, else the code of the [`RunStatus`] that stopped the search (first wins).
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

/// What can stop a running search from its limits, by code (the index + 1; 0 is running).
const STOPS: [RunStatus; 3] = [
    RunStatus::NodeLimit,
    RunStatus::TimeLimit,
    RunStatus::Cancelled,
];

fn code(s: RunStatus) -> u8 {
    let i = STOPS.iter().position(|&x| x == s);
    debug_assert!(i.is_some(), "{s} does not stop a search from its limits");
    i.map_or(RUNNING, |i| i as u8 + 1)
}

fn status(c: u8) -> Option<RunStatus> {
    STOPS.get((c as usize).checked_sub(1)?).copied()
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
    pub(crate) fn stopped(&self) -> Option<RunStatus> {
        status(self.stop.load(Ordering::Relaxed))
    }

    /// Stops every pass at its next look at the limits (the first reason given wins).
    pub(crate) fn halt(&self, s: RunStatus) {
        let _ = self
            .stop
            .compare_exchange(RUNNING, code(s), Ordering::Relaxed, Ordering::Relaxed);
    }

    /// Looks at the clock, the cancel flag and the budget; returns why to stop, if at all.
    pub(crate) fn check(&self) -> Option<RunStatus> {
        let l = self.limits;
        if l.node_limit.is_some() && self.budget.load(Ordering::Relaxed) == 0 {
            self.halt(RunStatus::NodeLimit);
        } else if l.time_limit.is_some_and(|t| self.started.elapsed() >= t) {
            self.halt(RunStatus::TimeLimit);
        } else if l.cancel.as_ref().is_some_and(|c| c.load(Ordering::Relaxed)) {
            self.halt(RunStatus::Cancelled);
        }
        self.stopped()
    }

    /// A pass's look at the limits, having generated `generated` nodes, for its subtree `task`
    /// (0 for a whole iteration or a search on one thread): reserves the next chunk of the
    /// budget and returns how far the pass may generate before looking again, or None to stop
    /// (a limit, or a solution in an earlier subtree).
    pub(crate) fn next_check(&self, generated: u64, task: usize) -> Option<u64> {
        if self.check().is_some() || self.found_at.load(Ordering::Relaxed) < task {
            return None;
        }
        let granted = self.reserve(self.chunk);
        if granted == 0 {
            self.halt(RunStatus::NodeLimit);
            return None;
        }
        Some(generated + granted)
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

/// How many generated nodes pass between looks at the clock in A* and breadth-first search
/// (about a millisecond of their work).
const CHECK_EVERY: u64 = 1 << 14;

/// [`Control`] as A* and breadth-first search use it on their one thread: the node limit exactly,
/// the clock and the cancel flag every [`CHECK_EVERY`] nodes, and a progress report when due.
pub(crate) struct Watch<'a> {
    control: Control<'a>,
    check_at: u64,
    /// When to hand the next [`progress::Progress`] to the reporter (none installed: never).
    progress_at: Option<Instant>,
    /// A progress report is due: the search sends it at its next expansion ([`Watch::progressed`]).
    pub(crate) progress_due: bool,
}

impl<'a> Watch<'a> {
    pub(crate) fn new(limits: &'a Limits, started: Instant) -> Watch<'a> {
        Watch {
            control: Control::new(limits, started, CHECK_EVERY),
            check_at: 0,
            progress_at: progress::first_report(started),
            progress_due: false,
        }
    }

    /// Sends `p` to the progress reporter (call when [`Watch::progress_due`]).
    #[cold]
    #[inline(never)]
    pub(crate) fn progressed(&mut self, p: &progress::Progress) {
        self.progress_due = false;
        self.progress_at = progress::report(p);
    }

    /// Whether to stop before generating one more node, `generated` having been generated.
    #[inline(always)]
    pub(crate) fn stop(&mut self, generated: u64) -> Option<RunStatus> {
        if generated < self.check_at {
            return None;
        }
        self.check(generated)
    }

    #[cold]
    #[inline(never)]
    fn check(&mut self, generated: u64) -> Option<RunStatus> {
        // Task 0: no earlier subtree stops this search, so `None` always comes with a status.
        let Some(at) = self.control.next_check(generated, 0) else {
            return self.control.stopped();
        };
        self.check_at = at;
        if self.progress_at.is_some_and(|at| Instant::now() >= at) {
            self.progress_due = true;
        }
        None
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
        assert_eq!(c.check(), Some(RunStatus::NodeLimit));
        c.halt(RunStatus::TimeLimit);
        assert_eq!(
            c.stopped(),
            Some(RunStatus::NodeLimit),
            "the first reason wins"
        );
    }

    #[test]
    fn a_watch_stops_exactly_at_the_node_limit() {
        for limit in [0, 5, CHECK_EVERY + 3] {
            let limits = Limits {
                node_limit: Some(limit),
                ..Limits::none()
            };
            let mut w = Watch::new(&limits, Instant::now());
            let stopped_at = (0..).find(|&g| w.stop(g).is_some()).unwrap();
            assert_eq!(stopped_at, limit);
        }
    }
}
