//! Every heuristic against breadth-first search (`brute_force`, which has its own move
//! generation) on whole state spaces: the 2×4 and 4×2 boards (20,160 solvable states each, rows
//! or columns of 4) with Manhattan, linear conflict and custom pattern databases, and the 3×3
//! board with plain and reflected pattern databases as whole IDA* searches; plus the reflection
//! of boards itself. Cost: about 20 s of CPU in release (the 3×3 IDA* searches).

use crate::common;

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use rayon::prelude::*;

use tilebench::board::{Board, Goal, Grid, Size};
use tilebench::brute_force::{distances, rank, unrank, UNREACHED};
use tilebench::heuristic::pdb::ReflectedState;
use tilebench::heuristic::{AnyHeuristic, Heuristic, ReflectedPdb};
use tilebench::heuristic::{HeuristicError, HeuristicName, Prepared};
use tilebench::search::{Limits, SearchResult};

fn size(w: usize, h: usize) -> Size {
    Size::new(w, h).unwrap()
}

fn prepared(name: &str, goal: &Goal) -> Result<Prepared, HeuristicError> {
    let name: HeuristicName = name.parse().unwrap();
    Prepared::new(&name, goal, &common::test_pdb_options())
}

/// Every solvable board of `goal`'s size with its breadth-first distance.
fn state_space(goal: &Goal) -> Vec<(Board, usize)> {
    let n = goal.size().cells();
    let dist = distances(goal);
    let states: Vec<(Board, usize)> = (0..dist.len())
        .filter(|&r| dist[r] != UNREACHED)
        .map(|r| {
            let b = Board::from_tiles(goal.size(), &unrank(r, n)).unwrap();
            (b, dist[r] as usize)
        })
        .collect();
    assert_eq!(
        states.len() * 2,
        dist.len(),
        "half the permutations are solvable"
    );
    states
}

/// For every solvable board: h ≤ the BFS distance (exactly equal when `exact`), and IDA* with
/// the heuristic returns a solution of exactly that length that replays to the goal.
fn check(goal: &Goal, states: &[(Board, usize)], name: &str, exact: bool) {
    let h = prepared(name, goal).unwrap_or_else(|e| panic!("{name}: {e}"));
    states.par_iter().for_each(|(b, d)| {
        let hb = h.evaluate(b) as usize;
        assert!(hb <= *d, "{name} on {b}: h {hb} > distance {d}");
        if exact {
            assert_eq!(hb, *d, "{name} on {b}");
        }
        let r = common::ida(&h, b, goal, &Limits::none());
        assert_eq!(r.length(), Some(*d), "{name} on {b} ({})", goal.name());
        assert!(b.replays_to(&r.moves, goal), "{name} on {b}");
    });
}

#[test]
fn every_heuristic_matches_bfs_on_every_2x4_and_4x2_state() {
    for s in [size(4, 2), size(2, 4)] {
        for goal in [Goal::blank_last(s), Goal::blank_first(s)] {
            let states = state_space(&goal);
            assert_eq!(states.len(), 20_160);
            // A partition into one group of all tiles is a perfect heuristic: h = distance.
            check(&goal, &states, "pdb:1,2,3,4,5,6,7", true);
            for name in [
                "manhattan",
                "linear-conflict",
                "pdb:1,2,3,4/5,6,7",
                "pdb:1,5/2,6/3,7/4",
                "pdb:1,3,5,7/2,4,6",
            ] {
                check(&goal, &states, name, false);
            }
            // The reflected lookup mirrors about the main diagonal, which maps 2×4 onto 4×2:
            // refused with a clear error, not run.
            let err = prepared("pdbr:1,2,3,4/5,6,7", &goal).unwrap_err();
            assert!(err.to_string().contains("main diagonal"), "{err}");
        }
    }
}

/// The reflected heuristic with the skipped-second-lookup shortcut turned off: the same h,
/// every lookup made. IDA* must count exactly the same nodes with it.
#[derive(Debug)]
struct NoShortcut(ReflectedPdb);

impl Heuristic for NoShortcut {
    type State = ReflectedState;
    const CUTS_LOOKUPS: bool = false;

    fn init(&self, grid: &Grid) -> ReflectedState {
        self.0.init(grid)
    }

    fn h(&self, state: &ReflectedState) -> u32 {
        self.0.h(state)
    }

    fn update(
        &self,
        state: &ReflectedState,
        grid: &Grid,
        tile: u8,
        from: usize,
        to: usize,
    ) -> ReflectedState {
        self.0.update(state, grid, tile, from, to)
    }
}

/// The reflected heuristic with its shortcut, counting the second lookups it skips.
#[derive(Debug)]
struct Counting(ReflectedPdb, Arc<AtomicU64>);

impl Heuristic for Counting {
    type State = ReflectedState;
    const CUTS_LOOKUPS: bool = true;

    fn init(&self, grid: &Grid) -> ReflectedState {
        self.0.init(grid)
    }

    fn h(&self, state: &ReflectedState) -> u32 {
        self.0.h(state)
    }

    fn update(
        &self,
        state: &ReflectedState,
        grid: &Grid,
        tile: u8,
        from: usize,
        to: usize,
    ) -> ReflectedState {
        self.0.update(state, grid, tile, from, to)
    }

    fn update_below(
        &self,
        state: &ReflectedState,
        grid: &Grid,
        tile: u8,
        from: usize,
        to: usize,
        cutoff: u32,
    ) -> Option<ReflectedState> {
        let r = self.0.update_below(state, grid, tile, from, to, cutoff);
        if r.is_none() {
            self.1.fetch_add(1, Ordering::Relaxed);
        }
        r
    }
}

fn counts(r: &SearchResult) -> Vec<(u32, u64, u64)> {
    r.iterations
        .iter()
        .map(|i| (i.bound, i.expanded, i.generated))
        .collect()
}

/// 3×3, every solvable state, for goals with the blank in a corner (both) and in the centre:
/// pdb and pdbr give BFS's length as whole IDA* searches; pdbr's h is exactly the max of the
/// plain sum on the board and on its reflection; and pdbr counts the same nodes with and
/// without the skipped-second-lookup shortcut.
#[test]
fn pdb_and_pdbr_ida_match_bfs_on_every_3x3_state() {
    let s = size(3, 3);
    for (goal, partition) in [
        (Goal::blank_last(s), "1,2,3,4/5,6,7,8"),
        (Goal::spiral(s), "1,2,3/4,5,6/7,8"),
        (Goal::blank_first(s), "1,2,5/3,4/6,7,8"),
    ] {
        let states = state_space(&goal);
        assert_eq!(states.len(), 181_440);
        check(&goal, &states, &format!("pdb:{partition}"), false);
        let plain = prepared(&format!("pdb:{partition}"), &goal).unwrap();
        let Ok(Prepared::One(one)) = prepared(&format!("pdbr:{partition}"), &goal) else {
            panic!("pdbr is one heuristic");
        };
        let AnyHeuristic::ReflectedPdb(reflected) = *one else {
            panic!("pdbr is a reflected PDB");
        };
        let skipped = Arc::new(AtomicU64::new(0));
        let counting = Prepared::of(Counting((*reflected).clone(), skipped.clone()));
        let no_shortcut = Prepared::of(NoShortcut((*reflected).clone()));
        let searched = states
            .par_iter()
            .map(|(b, d)| {
                let want = plain.evaluate(b).max(plain.evaluate(&b.reflect(&goal)));
                assert_eq!(reflected.evaluate(b), want, "pdbr:{partition} on {b}");
                assert!(want as usize <= *d, "pdbr:{partition} on {b}");
                let with = common::ida(&counting, b, &goal, &Limits::none());
                assert_eq!(with.length(), Some(*d), "pdbr:{partition} on {b}");
                assert!(b.replays_to(&with.moves, &goal), "pdbr:{partition} on {b}");
                let without = common::ida(&no_shortcut, b, &goal, &Limits::none());
                assert_eq!(counts(&with), counts(&without), "{b}");
                assert_eq!(with.moves, without.moves, "{b}");
                usize::from(with.generated() > 0)
            })
            .sum::<usize>();
        assert!(searched > 180_000);
        // The shortcut did skip lookups, on many boards' worth of children (the counts above
        // show that skipping changed nothing).
        let skipped = skipped.load(Ordering::Relaxed);
        assert!(skipped > 100_000, "{partition}: {skipped} lookups skipped");
    }
}

/// Reflecting a board about the main diagonal (tiles relabelled) keeps its distance to the
/// goal, on every board of the 2×2 and 3×3 puzzles for every reflectable goal, and reflecting
/// twice gives the board back.
#[test]
fn reflection_keeps_the_distance_over_whole_state_spaces() {
    for s in [size(2, 2), size(3, 3)] {
        for goal in [Goal::blank_last(s), Goal::blank_first(s), Goal::spiral(s)] {
            if !goal.is_reflectable() {
                continue;
            }
            let n = s.cells();
            let dist = distances(&goal);
            let moved = (0..dist.len())
                .into_par_iter()
                .map(|r| {
                    let b = Board::from_tiles(s, &unrank(r, n)).unwrap();
                    let m = b.reflect(&goal);
                    assert_eq!(m.reflect(&goal), b);
                    assert_eq!(
                        dist[rank(m.tiles())],
                        dist[r],
                        "{b} and {m} ({})",
                        goal.name()
                    );
                    usize::from(m != b)
                })
                .sum::<usize>();
            // Not the identity: most boards move.
            assert!(
                moved * 2 > dist.len(),
                "{}x{} {}",
                s.width,
                s.height,
                goal.name()
            );
        }
    }
}
