//! The maximum of admissible heuristics, itself admissible (Kociemba's solver takes the max of
//! walking distance and a 5-5-5 pattern database).
//!
//! [`Max`] is a generic pair, nested for more terms (`Max<A, Max<B, C>>`), so a search over it is
//! monomorphised like any other: no allocation and no dynamic dispatch per node. Its state is the
//! pair of the terms' states; an update that the search will prune anyway stops after the first
//! term whose h already reaches the cutoff, skipping the others' work.

use crate::board::Grid;

use super::Heuristic;

/// max(h_A, h_B). Put the cheaper term first: its value may make the second one unnecessary.
#[derive(Debug, Clone)]
pub struct Max<A, B>(pub A, pub B);

impl<A: Heuristic, B: Heuristic> Heuristic for Max<A, B> {
    type State = (A::State, B::State);

    fn init(&self, grid: &Grid) -> Self::State {
        (self.0.init(grid), self.1.init(grid))
    }

    #[inline(always)]
    fn h(&self, s: &Self::State) -> u32 {
        self.0.h(&s.0).max(self.1.h(&s.1))
    }

    #[inline(always)]
    fn update(
        &self,
        s: &Self::State,
        grid: &Grid,
        tile: u8,
        from: usize,
        to: usize,
    ) -> Self::State {
        (
            self.0.update(&s.0, grid, tile, from, to),
            self.1.update(&s.1, grid, tile, from, to),
        )
    }

    const CUTS_LOOKUPS: bool = true;

    #[inline(always)]
    fn update_below(
        &self,
        s: &Self::State,
        grid: &Grid,
        tile: u8,
        from: usize,
        to: usize,
        cutoff: u32,
    ) -> Option<Self::State> {
        let a = self.0.update_below(&s.0, grid, tile, from, to, cutoff)?;
        if self.0.h(&a) >= cutoff {
            // max ≥ h_A ≥ cutoff: the child is pruned whatever B says.
            return None;
        }
        let b = self.1.update_below(&s.1, grid, tile, from, to, cutoff)?;
        Some((a, b))
    }
}

/// A reference to a heuristic is the heuristic: lets [`Max`] combine prepared heuristics that it
/// does not own, at no cost.
impl<H: Heuristic> Heuristic for &H {
    type State = H::State;

    fn init(&self, grid: &Grid) -> H::State {
        (**self).init(grid)
    }

    #[inline(always)]
    fn h(&self, s: &H::State) -> u32 {
        (**self).h(s)
    }

    #[inline(always)]
    fn update(&self, s: &H::State, grid: &Grid, tile: u8, from: usize, to: usize) -> H::State {
        (**self).update(s, grid, tile, from, to)
    }

    const CUTS_LOOKUPS: bool = H::CUTS_LOOKUPS;

    #[inline(always)]
    fn update_below(
        &self,
        s: &H::State,
        grid: &Grid,
        tile: u8,
        from: usize,
        to: usize,
        cutoff: u32,
    ) -> Option<H::State> {
        (**self).update_below(s, grid, tile, from, to, cutoff)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Goal, Size};
    use crate::heuristic::tests::check_incremental;
    use crate::heuristic::{LinearConflict, Manhattan, WalkingDistance};

    #[test]
    fn is_the_larger_value_and_updates_incrementally() {
        let goal = Goal::blank_last(Size::new(4, 4).unwrap());
        let (lc, wd) = (
            LinearConflict::new(&goal),
            WalkingDistance::new(&goal).unwrap(),
        );
        let md = Manhattan::new(&goal);
        // The same seed walks the same path, so the values can be compared step by step.
        let m = check_incremental(&Max(&lc, Max(&wd, &md)), &goal, 5000, 5);
        let a = check_incremental(&lc, &goal, 5000, 5);
        let b = check_incremental(&wd, &goal, 5000, 5);
        for i in 0..m.len() {
            assert_eq!(m[i], a[i].max(b[i]));
        }
        // Neither term dominates the other on this walk, so the max is more than either.
        assert!((0..m.len()).any(|i| a[i] > b[i]));
        assert!((0..m.len()).any(|i| b[i] > a[i]));
    }
}
