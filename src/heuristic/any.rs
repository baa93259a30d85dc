//! One of the built-in heuristics, chosen at run time.
//!
//! The registry builds an [`AnyHeuristic`] from a name. A search over a single heuristic, or over
//! the max of two, is monomorphised per concrete type with [`with_concrete!`]; the max of three or
//! more terms searches over `AnyHeuristic` itself, which dispatches each call with a `match` (static
//! dispatch, no `dyn`, no allocation) so that their number of combinations does not multiply the
//! compiled copies of the search.

use crate::board::Grid;

use super::linear_conflict::LcState;
use super::pdb::{PdbState, ReflectedState};
use super::walking_distance::WdState;
use super::{Heuristic, LinearConflict, Manhattan, Pdb, ReflectedPdb, WalkingDistance};

/// A built heuristic of any kind (not a max: maxima are made of these).
#[derive(Debug, Clone)]
pub enum AnyHeuristic {
    Manhattan(Manhattan),
    LinearConflict(LinearConflict),
    WalkingDistance(WalkingDistance),
    Pdb(Box<Pdb>),
    ReflectedPdb(Box<ReflectedPdb>),
}

/// The state of whichever heuristic it belongs to.
#[derive(Debug, Clone, Copy)]
pub enum AnyState {
    Manhattan(u32),
    LinearConflict(LcState),
    WalkingDistance(WdState),
    Pdb(PdbState),
    ReflectedPdb(ReflectedState),
}

/// Runs `$body` with `$h` bound to the concrete heuristic inside `$any` (a reference), so that
/// generic code in `$body` is compiled once per kind.
#[macro_export]
macro_rules! with_concrete {
    ($any:expr, $h:ident => $body:expr) => {
        match $any {
            $crate::heuristic::AnyHeuristic::Manhattan($h) => $body,
            $crate::heuristic::AnyHeuristic::LinearConflict($h) => $body,
            $crate::heuristic::AnyHeuristic::WalkingDistance($h) => $body,
            $crate::heuristic::AnyHeuristic::Pdb(b) => {
                let $h = b.as_ref();
                $body
            }
            $crate::heuristic::AnyHeuristic::ReflectedPdb(b) => {
                let $h = b.as_ref();
                $body
            }
        }
    };
}

impl Heuristic for AnyHeuristic {
    type State = AnyState;

    fn init(&self, grid: &Grid) -> AnyState {
        match self {
            AnyHeuristic::Manhattan(h) => AnyState::Manhattan(h.init(grid)),
            AnyHeuristic::LinearConflict(h) => AnyState::LinearConflict(h.init(grid)),
            AnyHeuristic::WalkingDistance(h) => AnyState::WalkingDistance(h.init(grid)),
            AnyHeuristic::Pdb(h) => AnyState::Pdb(h.init(grid)),
            AnyHeuristic::ReflectedPdb(h) => AnyState::ReflectedPdb(h.init(grid)),
        }
    }

    #[inline(always)]
    fn h(&self, state: &AnyState) -> u32 {
        // A state only ever meets the heuristic that made it; 0 would still be admissible.
        match (self, state) {
            (AnyHeuristic::Manhattan(h), AnyState::Manhattan(s)) => h.h(s),
            (AnyHeuristic::LinearConflict(h), AnyState::LinearConflict(s)) => h.h(s),
            (AnyHeuristic::WalkingDistance(h), AnyState::WalkingDistance(s)) => h.h(s),
            (AnyHeuristic::Pdb(h), AnyState::Pdb(s)) => h.h(s),
            (AnyHeuristic::ReflectedPdb(h), AnyState::ReflectedPdb(s)) => h.h(s),
            _ => 0,
        }
    }

    #[inline(always)]
    fn update(&self, state: &AnyState, grid: &Grid, tile: u8, from: usize, to: usize) -> AnyState {
        match (self, state) {
            (AnyHeuristic::Manhattan(h), AnyState::Manhattan(s)) => {
                AnyState::Manhattan(h.update(s, grid, tile, from, to))
            }
            (AnyHeuristic::LinearConflict(h), AnyState::LinearConflict(s)) => {
                AnyState::LinearConflict(h.update(s, grid, tile, from, to))
            }
            (AnyHeuristic::WalkingDistance(h), AnyState::WalkingDistance(s)) => {
                AnyState::WalkingDistance(h.update(s, grid, tile, from, to))
            }
            (AnyHeuristic::Pdb(h), AnyState::Pdb(s)) => {
                AnyState::Pdb(h.update(s, grid, tile, from, to))
            }
            (AnyHeuristic::ReflectedPdb(h), AnyState::ReflectedPdb(s)) => {
                AnyState::ReflectedPdb(h.update(s, grid, tile, from, to))
            }
            _ => *state,
        }
    }

    const CUTS_LOOKUPS: bool = true;

    #[inline(always)]
    fn update_below(
        &self,
        state: &AnyState,
        grid: &Grid,
        tile: u8,
        from: usize,
        to: usize,
        cutoff: u32,
    ) -> Option<AnyState> {
        match (self, state) {
            (AnyHeuristic::ReflectedPdb(h), AnyState::ReflectedPdb(s)) => h
                .update_below(s, grid, tile, from, to, cutoff)
                .map(AnyState::ReflectedPdb),
            _ => Some(self.update(state, grid, tile, from, to)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Goal, Size};
    use crate::heuristic::tests::check_incremental;

    #[test]
    fn dispatches_to_the_same_values() {
        let goal = Goal::spiral(Size::new(4, 4).unwrap());
        let wd = WalkingDistance::new(&goal).unwrap();
        let any = AnyHeuristic::WalkingDistance(wd.clone());
        assert_eq!(
            check_incremental(&any, &goal, 2000, 3),
            check_incremental(&wd, &goal, 2000, 3)
        );
        let lc = AnyHeuristic::LinearConflict(LinearConflict::new(&goal));
        let direct = with_concrete!(&lc, h => check_incremental(h, &goal, 2000, 4));
        assert_eq!(direct, check_incremental(&lc, &goal, 2000, 4));
    }
}
