//! One of the built-in heuristics, chosen at run time.
//!
//! The registry builds an [`AnyHeuristic`] from a name. A search over a single heuristic, or over
//! the max of two, is monomorphised per concrete type with [`with_concrete!`](crate::with_concrete); the max of three or
//! more terms searches over `AnyHeuristic` itself, which dispatches each call with a `match` (static
//! dispatch, no `dyn`, no allocation) so that their number of combinations does not multiply the
//! compiled copies of the search. Everything here is generated from the one list of built-in
//! heuristics, [`builtin_heuristics!`](crate::builtin_heuristics), plus the pattern databases.

use crate::board::Grid;

use super::pdb::{PdbState, ReflectedState};
use super::{BuildHeuristic, Heuristic, Pdb, ReflectedPdb};

/// Generates [`AnyHeuristic`], [`AnyState`], their [`Heuristic`] implementation and `cost_rank`
/// from the list of built-in heuristics.
macro_rules! any_heuristic {
    (() $($variant:ident : $ty:ty, $name:literal $(| $alias:literal)*, $rank:literal;)*) => {
        /// A built heuristic of any kind (not a max: maxima are made of these).
        #[derive(Debug, Clone)]
        pub enum AnyHeuristic {
            $($variant($ty),)*
            Pdb(Box<Pdb>),
            ReflectedPdb(Box<ReflectedPdb>),
        }

        /// The state of whichever heuristic it belongs to.
        #[derive(Debug, Clone, Copy)]
        pub enum AnyState {
            $($variant(<$ty as Heuristic>::State),)*
            Pdb(PdbState),
            ReflectedPdb(ReflectedState),
        }

        impl Heuristic for AnyHeuristic {
            type State = AnyState;

            fn init(&self, grid: &Grid) -> AnyState {
                match self {
                    $(AnyHeuristic::$variant(h) => AnyState::$variant(h.init(grid)),)*
                    AnyHeuristic::Pdb(h) => AnyState::Pdb(h.init(grid)),
                    AnyHeuristic::ReflectedPdb(h) => AnyState::ReflectedPdb(h.init(grid)),
                }
            }

            #[inline(always)]
            fn h(&self, state: &AnyState) -> u32 {
                // A state only ever meets the heuristic that made it; 0 would still be admissible.
                match (self, state) {
                    $((AnyHeuristic::$variant(h), AnyState::$variant(s)) => h.h(s),)*
                    (AnyHeuristic::Pdb(h), AnyState::Pdb(s)) => h.h(s),
                    (AnyHeuristic::ReflectedPdb(h), AnyState::ReflectedPdb(s)) => h.h(s),
                    _ => 0,
                }
            }

            // The pattern databases' updates are calls (`outlined`): inlined into each term of
            // a max of three or four, they made kernels so large that optimising them took
            // most of the library's build; a call per node costs little beside their lookups.
            #[inline(always)]
            fn update(
                &self,
                state: &AnyState,
                grid: &Grid,
                tile: u8,
                from: usize,
                to: usize,
            ) -> AnyState {
                match (self, state) {
                    $((AnyHeuristic::$variant(h), AnyState::$variant(s)) => {
                        AnyState::$variant(h.update(s, grid, tile, from, to))
                    })*
                    (AnyHeuristic::Pdb(h), AnyState::Pdb(s)) => {
                        AnyState::Pdb(outlined(h.as_ref(), s, grid, tile, from, to))
                    }
                    (AnyHeuristic::ReflectedPdb(h), AnyState::ReflectedPdb(s)) => {
                        AnyState::ReflectedPdb(outlined(h.as_ref(), s, grid, tile, from, to))
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
                    (AnyHeuristic::ReflectedPdb(h), AnyState::ReflectedPdb(s)) => {
                        outlined_below(h.as_ref(), s, grid, tile, from, to, cutoff)
                            .map(AnyState::ReflectedPdb)
                    }
                    _ => Some(self.update(state, grid, tile, from, to)),
                }
            }
        }

        /// The cost ranks in the order of the list (the pattern databases last).
        #[cfg(test)]
        const LISTED_RANKS: &[u8] = &[$($rank,)* 100, 101];

        impl AnyHeuristic {
            /// The cost of one update, to order the terms of a max (cheapest first).
            pub(crate) fn cost_rank(&self) -> u8 {
                match self {
                    $(AnyHeuristic::$variant(_) => $rank,)*
                    AnyHeuristic::Pdb(_) => 100,
                    AnyHeuristic::ReflectedPdb(_) => 101,
                }
            }

            /// Bytes of its tables shared by every search ([`BuildHeuristic::table_bytes`]).
            pub fn table_bytes(&self) -> u64 {
                match self {
                    $(AnyHeuristic::$variant(h) => BuildHeuristic::table_bytes(h),)*
                    AnyHeuristic::Pdb(h) => h.table_bytes(),
                    AnyHeuristic::ReflectedPdb(h) => h.table_bytes(),
                }
            }

            /// Its pattern databases' tables (none for the other kinds).
            pub(crate) fn pdb_tables(&self) -> Vec<&std::sync::Arc<crate::pdb::Table>> {
                match self {
                    AnyHeuristic::Pdb(h) => h.tables().collect(),
                    AnyHeuristic::ReflectedPdb(h) => h.tables().collect(),
                    _ => Vec::new(),
                }
            }
        }
    };
}

crate::builtin_heuristics!(any_heuristic;);

/// `h.update_below(…)` as a call, for [`AnyHeuristic::update_below`].
#[inline(never)]
fn outlined_below<H: Heuristic>(
    h: &H,
    state: &H::State,
    grid: &Grid,
    tile: u8,
    from: usize,
    to: usize,
    cutoff: u32,
) -> Option<H::State> {
    h.update_below(state, grid, tile, from, to, cutoff)
}

/// `h.update(…)` as a call, for [`AnyHeuristic::update`]'s pattern-database arms.
#[inline(never)]
fn outlined<H: Heuristic>(
    h: &H,
    state: &H::State,
    grid: &Grid,
    tile: u8,
    from: usize,
    to: usize,
) -> H::State {
    h.update(state, grid, tile, from, to)
}

/// The match arms of [`with_concrete!`], generated from the list of built-in heuristics.
#[doc(hidden)]
#[macro_export]
macro_rules! __with_concrete_arms {
    (($any:expr, $h:ident, $body:expr) $($variant:ident : $ty:ty, $name:literal $(| $alias:literal)*, $rank:literal;)*) => {
        match $any {
            $($crate::heuristic::AnyHeuristic::$variant($h) => $body,)*
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

/// The match of a max of two terms `$a`, `$b` (references to [`AnyHeuristic`], sorted by cost):
/// `$body` with `$x`, `$y` bound to the concrete heuristics for each pair whose first term comes no
/// later in the list of built-in heuristics than the second (the list is in cost order, and the
/// pattern databases come last, so these are the pairs sorting makes), and `$other` for the rest.
/// Compiling the unsorted pairs too would add ten copies of every search for nothing.
#[doc(hidden)]
#[macro_export]
macro_rules! __with_concrete_pair {
    (($a:expr, $b:expr, $x:ident, $y:ident, $body:expr, $other:expr)
     $($variant:ident : $ty:ty, $name:literal $(| $alias:literal)*, $rank:literal;)*) => {
        $crate::__with_concrete_pair!(@pairs ($a, $b, $x, $y, $body, $other) [] [
            $($variant: $ty,)*
            Pdb: $crate::heuristic::Pdb,
            ReflectedPdb: $crate::heuristic::ReflectedPdb,
        ])
    };
    (@pairs ($a:expr, $b:expr, $x:ident, $y:ident, $body:expr, $other:expr) [$($arms:tt)*] []) => {
        match ($a, $b) {
            $($arms)*
            _ => $other,
        }
    };
    // The first kind left with itself and with every later kind.
    (@pairs ($a:expr, $b:expr, $x:ident, $y:ident, $body:expr, $other:expr) [$($arms:tt)*]
     [$first:ident: $first_ty:ty, $($later:ident: $later_ty:ty,)*]) => {
        $crate::__with_concrete_pair!(@pairs ($a, $b, $x, $y, $body, $other) [
            $($arms)*
            ($crate::heuristic::AnyHeuristic::$first(a), $crate::heuristic::AnyHeuristic::$first(b)) => {
                let $x: &$first_ty = ::core::borrow::Borrow::borrow(a);
                let $y: &$first_ty = ::core::borrow::Borrow::borrow(b);
                $body
            }
            $(($crate::heuristic::AnyHeuristic::$first(a), $crate::heuristic::AnyHeuristic::$later(b)) => {
                let $x: &$first_ty = ::core::borrow::Borrow::borrow(a);
                let $y: &$later_ty = ::core::borrow::Borrow::borrow(b);
                $body
            })*
        ] [$($later: $later_ty,)*])
    };
}

/// Runs `$body` with `$x`, `$y` bound to the concrete heuristics of a max of two terms `$a`, `$b`
/// (references to [`AnyHeuristic`], sorted by cost as [`Prepared`](crate::heuristic::Prepared)
/// sorts them), so that generic code in `$body` is compiled once per pair; `$other` runs for a pair
/// out of that order (never made by sorting; any generic code there sees `AnyHeuristic`).
#[macro_export]
macro_rules! with_concrete_pair {
    ($a:expr, $b:expr, ($x:ident, $y:ident) => $body:expr, _ => $other:expr) => {
        $crate::builtin_heuristics!($crate::__with_concrete_pair; $a, $b, $x, $y, $body, $other)
    };
}

/// Runs `$body` with `$h` bound to the concrete heuristic inside `$any` (a reference), so that
/// generic code in `$body` is compiled once per kind.
#[macro_export]
macro_rules! with_concrete {
    ($any:expr, $h:ident => $body:expr) => {
        $crate::builtin_heuristics!($crate::__with_concrete_arms; $any, $h, $body)
    };
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Goal, Size};
    use crate::heuristic::tests::check_incremental;
    use crate::heuristic::{LinearConflict, WalkingDistance};

    /// `with_concrete_pair!` compiles the pairs in list order only: in another order a max of
    /// two would run on the slower `AnyHeuristic` dispatch (same values, so no count shows it).
    #[test]
    fn the_list_is_in_cost_order() {
        assert!(
            LISTED_RANKS.windows(2).all(|w| w[0] < w[1]),
            "{LISTED_RANKS:?}"
        );
    }

    #[test]
    fn a_max_of_two_runs_monomorphised_in_sorted_order() {
        let goal = Goal::blank_last(Size::new(3, 3).unwrap());
        let wd = AnyHeuristic::WalkingDistance(WalkingDistance::new(&goal).unwrap());
        let lc = AnyHeuristic::LinearConflict(LinearConflict::new(&goal));
        let kind = |a: &AnyHeuristic, b: &AnyHeuristic| with_concrete_pair!(a, b, (x, y) => std::any::type_name_of_val(&(x, y)), _ => "any");
        assert_eq!(kind(&lc, &wd), "any");
        assert!(
            kind(&wd, &lc).contains("WalkingDistance"),
            "{}",
            kind(&wd, &lc)
        );
        assert!(kind(&lc, &lc).contains("LinearConflict"));
    }

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
