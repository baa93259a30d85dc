//! Checkpoints: where an IDA* search stands, in a form from which it continues with the counts
//! of a search never interrupted.
//!
//! A checkpoint holds the completed iterations and, within the iteration under way, the finished
//! subtrees of its split (see `super::parallel`): their index in sequential order and their
//! counts. A resumed search redoes the shallow walk above the split (cheap, and checked against
//! the stored counts), skips the finished subtrees and searches the others, so it loses at most
//! the subtrees that were running when it was stopped.
//!
//! The search hands checkpoints to a callback ([`Checkpointing::save`]) at most every
//! [`Checkpointing::every`] (looked at when a subtree finishes), and once more when a limit or a
//! cancel stops it. Where they are stored, and how a file is checked to belong to the search
//! resumed, is the caller's business (`crate::experiment::checkpoint`).

use std::fmt;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use super::result::Iteration;

/// Where a search stands.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SearchCheckpoint {
    /// h of the start board (checked on resume).
    pub h0: u32,
    /// The iterations completed, in order.
    pub iterations: Vec<Iteration>,
    /// The bound of the iteration under way (or next).
    pub bound: u32,
    /// What of that iteration is done; `None` when nothing is.
    pub current: Option<PartialIteration>,
    /// Seconds of search so far, over every session.
    pub seconds: f64,
}

/// The finished part of the iteration under way.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PartialIteration {
    /// The depth at which the iteration was split into subtrees.
    pub split_depth: u32,
    /// How many subtrees that split made.
    pub subtrees: u32,
    /// The shallow walk's counts above the split (checked on resume).
    pub shallow_expanded: u64,
    pub shallow_generated: u64,
    /// The subtrees searched to their end without reaching the goal, by index.
    pub done: Vec<DoneSubtree>,
    /// Seconds spent in this iteration so far, over every session.
    pub seconds: f64,
}

/// A subtree searched to its end, without a solution.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct DoneSubtree {
    pub index: u32,
    pub expanded: u64,
    pub generated: u64,
    /// The smallest f it pruned (`u32::MAX` if none).
    pub next_bound: u32,
}

/// Receives checkpoints; called from the search's threads, never per node.
pub type SaveCheckpoint = dyn Fn(&SearchCheckpoint) + Send + Sync;

/// How a search checkpoints: where it starts from, how often it saves, and where to.
#[derive(Clone)]
pub struct Checkpointing {
    /// The checkpoint to continue from (`None`: from the start).
    pub from: Option<SearchCheckpoint>,
    /// The least time between two saves (a stop always saves).
    pub every: Duration,
    pub save: Arc<SaveCheckpoint>,
}

impl fmt::Debug for Checkpointing {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Checkpointing")
            .field("from", &self.from)
            .field("every", &self.every)
            .finish_non_exhaustive()
    }
}

/// Why a checkpoint cannot be continued from: it does not describe this search.
#[derive(Debug, thiserror::Error)]
#[error("the checkpoint does not belong to this search: {0}")]
pub struct CheckpointMismatch(pub String);

impl SearchCheckpoint {
    /// Checks what can be checked without searching: the start's h, and bounds that start at
    /// h0 and rise.
    pub(crate) fn check(&self, h0: u32) -> Result<(), CheckpointMismatch> {
        let bad = |what: String| Err(CheckpointMismatch(what));
        if self.h0 != h0 {
            return bad(format!(
                "h of the start is {h0}, the checkpoint says {}",
                self.h0
            ));
        }
        let mut expected = h0;
        for it in &self.iterations {
            if it.bound < expected {
                return bad(format!("iteration bound {} below {expected}", it.bound));
            }
            expected = it.bound + 1;
        }
        if self.bound < expected {
            return bad(format!("current bound {} below {expected}", self.bound));
        }
        if let Some(c) = &self.current {
            if c.done.iter().any(|d| d.index >= c.subtrees) {
                return bad("a finished subtree beyond the split".into());
            }
        }
        Ok(())
    }
}

/// The search's side of checkpointing: the timer, the completed iterations, the callback.
pub(crate) struct Saver<'a> {
    every: Duration,
    save: &'a SaveCheckpoint,
    last: Mutex<Instant>,
    /// Held while the callback writes: one save at a time, whichever thread asks.
    saving: Mutex<()>,
    h0: u32,
    /// Seconds of earlier sessions, and when this one began.
    earlier: f64,
    started: Instant,
    /// The completed iterations (set by the driver between passes).
    pub(crate) iterations: Vec<Iteration>,
}

impl<'a> Saver<'a> {
    pub(crate) fn new(c: &'a Checkpointing, h0: u32, started: Instant) -> Saver<'a> {
        Saver {
            every: c.every,
            save: &*c.save,
            last: Mutex::new(started),
            saving: Mutex::new(()),
            h0,
            earlier: c.from.as_ref().map_or(0.0, |f| f.seconds),
            started,
            iterations: c.from.as_ref().map_or(Vec::new(), |f| f.iterations.clone()),
        }
    }

    /// Seconds of search over every session.
    pub(crate) fn seconds(&self) -> f64 {
        self.earlier + self.started.elapsed().as_secs_f64()
    }

    /// Whether a save is due; at most one caller at a time is told yes.
    pub(crate) fn due(&self) -> bool {
        let Ok(mut last) = self.last.try_lock() else {
            return false;
        };
        if last.elapsed() < self.every {
            return false;
        }
        *last = Instant::now();
        true
    }

    /// Hands a checkpoint of `bound`'s iteration, with `current` done of it, to the callback.
    pub(crate) fn save(&self, bound: u32, current: Option<PartialIteration>) {
        let _one_at_a_time = self.saving.lock().unwrap_or_else(|e| e.into_inner());
        (self.save)(&SearchCheckpoint {
            h0: self.h0,
            iterations: self.iterations.clone(),
            bound,
            current,
            seconds: self.seconds(),
        });
        if let Ok(mut last) = self.last.lock() {
            *last = Instant::now();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn iteration(bound: u32) -> Iteration {
        Iteration {
            bound,
            expanded: 1,
            generated: 2,
            seconds: 0.0,
        }
    }

    /// A checkpoint of another start, or with bounds that do not rise from h0, or with a
    /// finished subtree its split cannot have made, is refused before any search.
    #[test]
    fn a_checkpoint_of_another_search_is_refused() {
        let good = SearchCheckpoint {
            h0: 41,
            iterations: vec![iteration(41), iteration(43)],
            bound: 45,
            current: Some(PartialIteration {
                split_depth: 4,
                subtrees: 3,
                shallow_expanded: 5,
                shallow_generated: 9,
                done: vec![DoneSubtree {
                    index: 2,
                    expanded: 1,
                    generated: 2,
                    next_bound: 47,
                }],
                seconds: 0.0,
            }),
            seconds: 1.0,
        };
        assert!(good.check(41).is_ok());
        let refused = |c: &SearchCheckpoint, h0: u32, why: &str| {
            let e = c.check(h0).unwrap_err().to_string();
            assert!(e.contains(why), "{e}");
        };
        refused(&good, 43, "h of the start is 43, the checkpoint says 41");
        let mut c = good.clone();
        c.iterations[1].bound = 41;
        refused(&c, 41, "iteration bound 41 below 42");
        let mut c = good.clone();
        c.iterations.insert(0, iteration(39));
        refused(&c, 41, "iteration bound 39 below 41");
        let mut c = good.clone();
        c.bound = 43;
        refused(&c, 41, "current bound 43 below 44");
        let mut c = good.clone();
        if let Some(p) = c.current.as_mut() {
            p.done[0].index = 3;
        }
        refused(&c, 41, "a finished subtree beyond the split");
    }

    /// A resumed search's seconds continue from the checkpoint's: earlier sessions plus this one.
    #[test]
    fn seconds_add_up_over_sessions() {
        let from = SearchCheckpoint {
            h0: 41,
            iterations: vec![iteration(41)],
            bound: 43,
            current: None,
            seconds: 100.0,
        };
        let c = Checkpointing {
            from: Some(from),
            every: Duration::from_secs(3600),
            save: Arc::new(|_: &SearchCheckpoint| {}),
        };
        let started = Instant::now() - Duration::from_secs(5);
        let saver = Saver::new(&c, 41, started);
        let s = saver.seconds();
        // (Generous above: a loaded machine may pause the test; the mutant `-` gives 95.)
        assert!((105.0..200.0).contains(&s), "{s}");
        assert_eq!(saver.iterations, vec![iteration(41)]);
    }

    /// A save is due once a period has passed since the last one (or the start), and then not
    /// again until the next period: not at every check.
    #[test]
    fn a_save_is_due_once_a_period() {
        let c = Checkpointing {
            from: None,
            every: Duration::from_secs(3600),
            save: Arc::new(|_: &SearchCheckpoint| {}),
        };
        let saver = Saver::new(&c, 41, Instant::now() - Duration::from_secs(7200));
        assert!(saver.due(), "two periods after the start");
        assert!(!saver.due(), "right after a save");
        assert!(!Saver::new(&c, 41, Instant::now()).due(), "at the start");
    }
}
