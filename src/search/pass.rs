//! What one depth-first pass carries (counters, the path, the bound), answering to the limits of
//! its search ([`Control`], shared by every thread of the search).
//!
//! Limits are looked at in a cold path (`Pass::check_limits`), never per node: a pass may generate
//! nodes up to `check_at` freely.

use super::limits::Control;

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
        match self.control.next_check(self.generated, self.task) {
            Some(at) => {
                self.check_at = at;
                false
            }
            None => true,
        }
    }

    /// Records a solution reached by the move `dir` from depth `g`.
    #[inline(always)]
    pub(crate) fn reached_goal(&mut self, g: u32, dir: u8) {
        self.path[g as usize & (MAX_DEPTH - 1)] = dir;
        self.length = g as usize + 1;
        self.found = true;
    }

    /// Ends the pass: returns the unused reservation to the budget. (Counting once per node, a
    /// search without a node limit may pass `check_at` by a node's children: nothing to return.)
    pub(crate) fn finish(&mut self) {
        self.control
            .give_back(self.check_at.saturating_sub(self.generated));
        self.check_at = self.generated;
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::Ordering;
    use std::time::Instant;

    use super::*;
    use crate::search::limits::Limits;
    use crate::search::RunStatus;

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
        assert_eq!(c.stopped(), Some(RunStatus::NodeLimit));

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
