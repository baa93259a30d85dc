//! When a search gives up: [`Limits`], and [`Watch`], the way A* and breadth-first search look at
//! them (IDA*'s passes look at them through [`super::pass::Control`]).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::progress;
use super::result::Status;

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

/// How many generated nodes pass between looks at the clock in A* and breadth-first search
/// (about a millisecond of their work).
const CHECK_EVERY: u64 = 1 << 14;

/// The limits as A* and breadth-first search look at them: the node limit exactly, before each
/// node is generated; the clock and the cancel flag every [`CHECK_EVERY`] nodes.
pub(crate) struct Watch<'a> {
    limits: &'a Limits,
    started: Instant,
    check_at: u64,
    /// When to hand the next [`progress::Progress`] to the reporter (none installed: never).
    progress_at: Option<Instant>,
    /// A progress report is due: the search sends it at its next expansion ([`Watch::progressed`]).
    pub(crate) progress_due: bool,
}

impl<'a> Watch<'a> {
    pub(crate) fn new(limits: &'a Limits, started: Instant) -> Watch<'a> {
        Watch {
            limits,
            started,
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
    pub(crate) fn stop(&mut self, generated: u64) -> Option<Status> {
        if generated < self.check_at {
            return None;
        }
        self.check(generated)
    }

    #[cold]
    #[inline(never)]
    fn check(&mut self, generated: u64) -> Option<Status> {
        let l = self.limits;
        if l.node_limit.is_some_and(|n| generated >= n) {
            return Some(Status::NodeLimit);
        }
        if l.time_limit.is_some_and(|t| self.started.elapsed() >= t) {
            return Some(Status::TimeLimit);
        }
        if l.cancel.as_ref().is_some_and(|c| c.load(Ordering::Relaxed)) {
            return Some(Status::Cancelled);
        }
        if self.progress_at.is_some_and(|at| Instant::now() >= at) {
            self.progress_due = true;
        }
        let next = generated + CHECK_EVERY;
        self.check_at = l.node_limit.map_or(next, |n| next.min(n));
        None
    }
}
