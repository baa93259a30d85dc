//! IDA* under Manhattan distance on boards of up to 16 cells (the 8- and 15-puzzles), faster
//! than the generic loop, with the same node counts.
//!
//! - The board is one `u64`, four bits per cell, passed by value: a move is one multiplication
//!   and one XOR, and backtracking needs no undo.
//! - Each move changes h by exactly ±1, so f = g + h keeps its parity and rises by 0 or 2. A node
//!   with f ≤ bound − 2 ("slack") lets every child pass the bound, untested; a node with
//!   f = bound ("tight") keeps exactly the children whose tile moves toward its goal, and all its
//!   descendants are tight too. Per operator and blank cell a 16-bit mask says which tiles move
//!   toward their goal, so the tight loop is one shift and one test per child, and a child is the
//!   goal exactly when it is reached at depth `bound`.
//! - Operators are listed per (blank cell, parent move), so parent pruning costs nothing.
//! - A tight node reads the "toward" bits of all its children into a mask first and visits only
//!   the set bits, so the unpredictable test costs one mispredicted branch per node, not one per
//!   child (about 9 % of the time on Korf's #1). A child none of whose own children pass (a leaf
//!   of the tight tree, the most numerous tight node) is counted in its parent's loop, without a
//!   call (about 4 %), its operator count read with the operator that leads to it.
//! - The recursion is compiled twice, the second copy for x86-64 CPUs with BMI2 (whose shifts
//!   take their count in any register), and each search runs the copy its CPU allows.
//! - Without a node limit the counters are updated once per node (`generated` by the number of
//!   children) and the limits looked at on entering a node; with one, per child, so that the
//!   search stops exactly at the limit.

use crate::board::{Board, Size};
use crate::heuristic::TileDistances;
use crate::moves::{step, Dir};

use super::kernel::{Kernel, NO_MOVE};
use super::pass::Pass;
use super::pass::MAX_DEPTH;
use super::pruning::Prune;

/// Most cells a packed board holds (tiles 0..=15 in four bits each).
pub(crate) const PACKED_CELLS: usize = 16;

/// Operator lists are indexed by `blank * SLOTS + back` (back = the parent move's opposite, or
/// `NO_MOVE` at the root).
const SLOTS: usize = 8;
const LISTS: usize = PACKED_CELLS * SLOTS;

/// One operator from one blank cell: the blank moves to cell `to`.
#[derive(Debug, Clone, Copy, Default)]
struct Op {
    /// 4 × `to`: where the moving tile's nibble is.
    to_shift: u8,
    dir: u8,
    /// The child's operator list: `to * SLOTS + (3 − dir)`.
    child: u8,
    /// How many operators that list holds (read with `child`, not after it).
    child_ops: u8,
    /// Bit t set when tile t, sliding from `to` into the blank, comes closer to its goal cell.
    toward: u16,
    /// Bit 0 of the nibbles of `to` and of the blank's cell: `tile * slide` is the tile in both
    /// (the nibbles are disjoint and tile < 16, so nothing carries), and XOR-ing it into the
    /// board moves the tile in one multiplication, where two shifts would need the count register.
    slide: u64,
}

/// The Manhattan kernel on a packed board; parent pruning in its operator lists, and whatever
/// `P` prunes beyond it.
pub(crate) struct PackedManhattan<P: Prune> {
    prune: P,
    ops: [[Op; 4]; LISTS],
    count: [u8; LISTS],
    /// Count per child exactly (a node limit is set), not once per node.
    exact: bool,
    /// Whether the search runs the recursion's BMI2 copy.
    bmi2: Bmi2,
}

/// Whether a search runs the BMI2 copy of the kernel's recursion: only where the CPU has BMI1
/// and BMI2, which `Bmi2::detect` checks once per kernel (every x86-64 CPU since 2013 has them;
/// other architectures never do).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Bmi2(bool);

impl Bmi2 {
    /// What this CPU has.
    pub(crate) fn detect() -> Bmi2 {
        #[cfg(target_arch = "x86_64")]
        {
            Bmi2(is_x86_feature_detected!("bmi1") && is_x86_feature_detected!("bmi2"))
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            Bmi2(false)
        }
    }

    /// The plain copy, whatever the CPU has (tests compare the two copies).
    #[cfg(test)]
    pub(crate) const OFF: Bmi2 = Bmi2(false);
}

/// A node of [`PackedManhattan`].
#[derive(Debug, Clone, Copy)]
pub(crate) struct PackedNode<F> {
    board: u64,
    h: u32,
    /// The node's operator list (blank cell and parent move).
    list: u8,
    fsm: F,
}

impl<P: Prune> PackedManhattan<P> {
    /// The kernel for `size` (None for boards of more than 16 cells).
    pub(crate) fn new(
        m: &TileDistances,
        prune: P,
        size: Size,
        exact: bool,
        bmi2: Bmi2,
    ) -> Option<PackedManhattan<P>> {
        if size.cells() > PACKED_CELLS {
            return None;
        }
        let mut k = PackedManhattan {
            prune,
            ops: [[Op::default(); 4]; LISTS],
            count: [0; LISTS],
            exact,
            bmi2,
        };
        for blank in 0..size.cells() {
            for back in 0..=NO_MOVE {
                let list = blank * SLOTS + back as usize;
                for dir in Dir::ORDER {
                    let Some(to) = step(size, blank, dir) else {
                        continue;
                    };
                    if dir as u8 == back {
                        continue;
                    }
                    let mut toward = 0u16;
                    for tile in 1..size.cells() as u8 {
                        if m.distance(tile, blank) < m.distance(tile, to) {
                            toward |= 1 << tile;
                        }
                    }
                    let n = k.count[list] as usize;
                    k.ops[list][n] = Op {
                        to_shift: 4 * to as u8,
                        dir: dir as u8,
                        child: (to * SLOTS + 3 - dir as usize) as u8,
                        child_ops: 0,
                        toward,
                        slide: (1 << (4 * to)) | (1 << (4 * blank)),
                    };
                    k.count[list] += 1;
                }
            }
        }
        let count = k.count;
        for op in k.ops.iter_mut().flatten() {
            op.child_ops = count[op.child as usize];
        }
        Some(k)
    }

    /// The start node (`board` has at most 16 cells, checked by [`PackedManhattan::new`]).
    pub(crate) fn root(&self, board: &Board, h: u32) -> PackedNode<P::State> {
        let packed = board
            .tiles()
            .iter()
            .enumerate()
            .fold(0u64, |b, (cell, &t)| b | (t as u64) << (4 * cell));
        PackedNode {
            board: packed,
            h,
            list: (board.blank() * SLOTS + NO_MOVE as usize) as u8,
            fsm: self.prune.start(),
        }
    }

    #[inline(always)]
    fn ops(&self, list: usize) -> &[Op] {
        let list = list & (LISTS - 1);
        // count ≤ 4 by construction; `min(4)` lets the compiler drop the bounds check.
        &self.ops[list][..(self.count[list] as usize).min(4)]
    }

    /// Counts a node's expansion and looks at the limits when due; returns whether to stop.
    /// With `EXACT` the children are counted one by one in the loop instead.
    #[inline(always)]
    fn enter<const EXACT: bool>(p: &mut Pass, children: usize) -> bool {
        if !EXACT {
            if p.generated >= p.check_at && p.check_limits() {
                return true;
            }
            p.generated += children as u64;
        }
        p.expanded += 1;
        #[cfg(feature = "slow-nodes")]
        super::slow::work(p.expanded);
        false
    }

    /// Which of a node's children move their tile toward its goal, and which `P` prunes (bit i
    /// for operator i).
    #[inline(always)]
    fn masks(&self, b: u64, ops: &[Op], s: P::State) -> (u32, u32) {
        let (mut toward, mut pruned) = (0u32, 0u32);
        for (i, op) in ops.iter().enumerate() {
            let tile = (b >> op.to_shift) & 15;
            toward |= (((op.toward >> tile) & 1) as u32) << i;
            pruned |= (self.prune.next(s, op.dir).is_none() as u32) << i;
        }
        (toward, pruned)
    }

    /// The operator list of `op`'s child.
    #[inline(always)]
    fn child_ops(&self, op: &Op) -> &[Op] {
        &self.ops[op.child as usize & (LISTS - 1)][..(op.child_ops as usize).min(4)]
    }

    /// Counts one child (only with `EXACT`); returns whether to stop first.
    #[inline(always)]
    fn generate<const EXACT: bool>(p: &mut Pass) -> bool {
        if EXACT {
            if p.generated >= p.check_at && p.check_limits() {
                return true;
            }
            p.generated += 1;
        }
        false
    }

    /// Unwinds through the move `dir` at depth `g`, with `later` siblings after it: without
    /// `EXACT` those were counted on entering the node (whether or not `P` prunes them: the
    /// pruned ones come off only when the loop reaches them), but the sequential search never
    /// generates them, so they come off again.
    #[inline(always)]
    fn unwind<const EXACT: bool>(p: &mut Pass, g: u32, dir: u8, later: usize) -> bool {
        p.path[g as usize & (MAX_DEPTH - 1)] = dir;
        if !EXACT {
            p.generated -= later as u64;
        }
        true
    }

    /// The pruning state after `op` from `s`, or None when `P` prunes it; without `EXACT` the
    /// child, counted on entering the node, comes off again.
    #[inline(always)]
    fn follow<const EXACT: bool>(&self, p: &mut Pass, s: P::State, op: &Op) -> Option<P::State> {
        let next = self.prune.next(s, op.dir);
        if !EXACT && next.is_none() {
            p.generated -= 1;
        }
        next
    }
}

/// The recursion of the kernel, written once and compiled twice: for any CPU, and on x86-64 with
/// BMI1 and BMI2 too, the copy chosen once per search by what the CPU has ([`Bmi2`]). Its
/// variable shifts (a tile out of the packed board, the tile's "toward" bit) take their count in
/// register CL on plain x86-64, at a move each; BMI2's `shrx` takes any register (about 5 % of
/// the time on Korf's #1: docs/performance.md). Each copy calls only itself.
macro_rules! recursion {
    ($(#[$feature:meta])* $tight:ident, $masked:ident, $opened:ident, $slack:ident) => {
        impl<P: Prune> PackedManhattan<P> {
            /// Below a node `r` moves above the bound's depth (depth g = bound − r) with f = bound,
            /// so h = r: only children whose tile moves toward its goal keep f = bound; the others
            /// have f = bound + 2 and are pruned. (The depth is carried as `r` so that the tests
            /// compare registers; g is needed only when unwinding.)
            $(#[$feature])*
            fn $tight<const EXACT: bool>(
                &self,
                p: &mut Pass,
                b: u64,
                list: usize,
                r: u32,
                s: P::State,
            ) -> bool {
                if !EXACT {
                    return self.$masked(p, b, list, r, s);
                }
                let ops = self.ops(list);
                if Self::enter::<EXACT>(p, ops.len()) {
                    return true;
                }
                for (i, op) in ops.iter().enumerate() {
                    let Some(cs) = self.follow::<EXACT>(p, s, op) else {
                        continue;
                    };
                    if Self::generate::<EXACT>(p) {
                        return true;
                    }
                    let tile = (b >> op.to_shift) & 15;
                    if (op.toward >> tile) & 1 == 0 {
                        continue;
                    }
                    // h falls by one per tight step: the child at the bound's depth has h = 0, the
                    // goal.
                    if r == 1 {
                        p.reached_goal(p.bound - r, op.dir);
                        return Self::unwind::<EXACT>(p, p.bound - r, op.dir, ops.len() - 1 - i);
                    }
                    let child = b ^ (tile * op.slide);
                    if self.$tight::<EXACT>(p, child, op.child as usize, r - 1, cs) {
                        return Self::unwind::<EXACT>(p, p.bound - r, op.dir, ops.len() - 1 - i);
                    }
                }
                false
            }

            /// the tight recursion without a node limit: which children move toward their goal (and
            /// which `P` prunes) is read for all of them first, without a branch, and only the
            /// passing ones are visited, so that the data-dependent "toward" test mispredicts at
            /// most once per node, not once per child; a child none of whose own children pass is
            /// counted without a call (4 % less time on Korf's #1: docs/performance.md). Counts as
            /// the tight recursion: the unpruned children on entering, less the unpruned ones after
            /// the goal's move.
            $(#[$feature])*
            fn $masked(&self, p: &mut Pass, b: u64, list: usize, r: u32, s: P::State) -> bool {
                let masks = self.masks(b, self.ops(list), s);
                self.$opened(p, b, list, r, s, masks)
            }

            /// [`Self::$masked`] for a node whose masks are read.
            $(#[$feature])*
            fn $opened(
                &self,
                p: &mut Pass,
                b: u64,
                list: usize,
                r: u32,
                s: P::State,
                (toward, pruned): (u32, u32),
            ) -> bool {
                let ops = self.ops(list);
                if Self::enter::<false>(p, ops.len() - pruned.count_ones() as usize) {
                    return true;
                }
                let mut passing = toward & !pruned;
                while passing != 0 {
                    let i = passing.trailing_zeros() as usize;
                    passing &= passing - 1;
                    let op = &ops[i & 3];
                    let Some(cs) = self.prune.next(s, op.dir) else {
                        continue;
                    };
                    let later = (ops.len() - 1 - i) - (pruned >> (i + 1)).count_ones() as usize;
                    if r == 1 {
                        p.reached_goal(p.bound - r, op.dir);
                        return Self::unwind::<false>(p, p.bound - r, op.dir, later);
                    }
                    let tile = (b >> op.to_shift) & 15;
                    let child = b ^ (tile * op.slide);
                    let child_ops = self.child_ops(op);
                    let (ct, cp) = self.masks(child, child_ops, cs);
                    let stop = if ct & !cp == 0 {
                        // A leaf of the tight tree (none of its children passes; the most
                        // numerous kind of node) is counted here, without a call.
                        Self::enter::<false>(p, child_ops.len() - cp.count_ones() as usize)
                    } else {
                        self.$opened(p, child, op.child as usize, r - 1, cs, (ct, cp))
                    };
                    if stop {
                        return Self::unwind::<false>(p, p.bound - r, op.dir, later);
                    }
                }
                false
            }

            /// Below a node `r` moves above the bound's depth with heuristic `h` and f ≤ bound − 2
            /// (h ≤ r − 2): every child passes.
            $(#[$feature])*
            #[allow(clippy::too_many_arguments)]
            fn $slack<const EXACT: bool>(
                &self,
                p: &mut Pass,
                b: u64,
                list: usize,
                r: u32,
                h: u32,
                s: P::State,
            ) -> bool {
                let ops = self.ops(list);
                if Self::enter::<EXACT>(p, ops.len()) {
                    return true;
                }
                for (i, op) in ops.iter().enumerate() {
                    let Some(cs) = self.follow::<EXACT>(p, s, op) else {
                        continue;
                    };
                    if Self::generate::<EXACT>(p) {
                        return true;
                    }
                    let tile = (b >> op.to_shift) & 15;
                    let child = b ^ (tile * op.slide);
                    let closer = ((op.toward >> tile) & 1) as u32;
                    // h ≥ 1 here (h = 0 only at the goal, which is never expanded), so no
                    // underflow.
                    let hc = h + 1 - 2 * closer;
                    let found = if hc == r - 1 {
                        self.$tight::<EXACT>(p, child, op.child as usize, r - 1, cs)
                    } else if hc == 0 {
                        // The goal below the bound: impossible when bounds rise from h(start) by
                        // the smallest pruned f, but tested so that the kernel never relies on it.
                        p.reached_goal(p.bound - r, op.dir);
                        return Self::unwind::<EXACT>(p, p.bound - r, op.dir, ops.len() - 1 - i);
                    } else {
                        self.$slack::<EXACT>(p, child, op.child as usize, r - 1, hc, cs)
                    };
                    if found {
                        return Self::unwind::<EXACT>(p, p.bound - r, op.dir, ops.len() - 1 - i);
                    }
                }
                false
            }
        }
    };
}

recursion!(tight, tight_masked, tight_opened, slack);
#[cfg(target_arch = "x86_64")]
recursion!(
    #[target_feature(enable = "bmi1,bmi2")]
    tight_bmi2,
    tight_masked_bmi2,
    tight_opened_bmi2,
    slack_bmi2
);

impl<P: Prune> Kernel for PackedManhattan<P> {
    type Node = PackedNode<P::State>;

    fn h(&self, node: &Self::Node) -> u32 {
        node.h
    }

    fn is_goal(&self, node: &Self::Node) -> bool {
        // Manhattan distance is 0 only when every tile, hence also the blank, is home.
        node.h == 0
    }

    fn children(&self, node: &Self::Node, mut f: impl FnMut(u8, Self::Node)) {
        let b = node.board;
        for op in self.ops(node.list as usize) {
            let Some(fsm) = self.prune.next(node.fsm, op.dir) else {
                continue;
            };
            let tile = (b >> op.to_shift) & 15;
            let closer = ((op.toward >> tile) & 1) as u32;
            f(
                op.dir,
                PackedNode {
                    board: b ^ (tile * op.slide),
                    h: node.h + 1 - 2 * closer,
                    list: op.child,
                    fsm,
                },
            );
        }
    }

    fn search(&self, p: &mut Pass, node: &Self::Node, g: u32) -> bool {
        // The only children pruned are a tight node's that move away, at f = bound + 2; and every
        // pass that does not reach the goal prunes some (the tree is infinite and h is finite).
        p.next_bound = p.next_bound.min(p.bound + 2);
        debug_assert!(g + node.h <= p.bound && (p.bound - g - node.h).is_multiple_of(2));
        let (b, list, r, s) = (node.board, node.list as usize, p.bound - g, node.fsm);
        #[cfg(target_arch = "x86_64")]
        if self.bmi2.0 {
            // SAFETY: `Bmi2::detect` found BMI1 and BMI2 on this CPU.
            return unsafe {
                match (self.exact, node.h == r) {
                    (false, true) => self.tight_bmi2::<false>(p, b, list, r, s),
                    (false, false) => self.slack_bmi2::<false>(p, b, list, r, node.h, s),
                    (true, true) => self.tight_bmi2::<true>(p, b, list, r, s),
                    (true, false) => self.slack_bmi2::<true>(p, b, list, r, node.h, s),
                }
            };
        }
        match (self.exact, node.h == r) {
            (false, true) => self.tight::<false>(p, b, list, r, s),
            (false, false) => self.slack::<false>(p, b, list, r, node.h, s),
            (true, true) => self.tight::<true>(p, b, list, r, s),
            (true, false) => self.slack::<true>(p, b, list, r, node.h, s),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::time::Instant;

    use super::*;
    use crate::board::{Goal, Grid};
    use crate::heuristic::{Heuristic, Manhattan};
    use crate::search::kernel::{sequential_pass, Generic};
    use crate::search::limits::Control;
    use crate::search::pruning::{Fsm, ParentOnly};
    use crate::search::Limits;

    /// Every pass's counts, next bound and solution, up to the pass that finds the goal or the
    /// one the node limit stops.
    fn passes<K: Kernel>(k: &K, root: K::Node, h0: u32, limit: Option<u64>) -> Vec<String> {
        let limits = Limits {
            node_limit: limit,
            ..Limits::none()
        };
        let control = Control::new(&limits, Instant::now(), 1 << 10);
        let mut bound = h0;
        let mut out = Vec::new();
        loop {
            let o = sequential_pass(k, &root, bound, &control);
            // A stopped pass's next bound is never used, and kernels leave it differently.
            let stopped = control.stopped().is_some();
            let next = if stopped { None } else { Some(o.next_bound) };
            out.push(format!(
                "{bound}: {} {} {next:?} {:?}",
                o.expanded, o.generated, o.solution
            ));
            if o.solution.is_some() || stopped {
                return out;
            }
            bound = o.next_bound;
        }
    }

    /// A pass whose bound is above the optimal length (as `--fixed-bound` runs) reaches the goal
    /// below the bound, from a slack node: counted as the generic kernel counts it, by both
    /// copies, counting per node or per child.
    #[test]
    fn a_pass_above_the_optimum_counts_as_the_generic_kernel() {
        for (size, tiles) in [
            ("3x2", "4 1 5 3 0 2"),
            ("3x3", "8 6 7 2 5 4 3 0 1"),
            ("3x3", "6 4 7 8 5 0 3 2 1"),
        ] {
            let board = Board::parse(tiles, Some(Size::parse(size).unwrap())).unwrap();
            let size = board.size();
            let goal = Goal::blank_first(size);
            let md = Manhattan::new(&goal);
            let (m, h0) = (md.as_manhattan().unwrap(), md.evaluate(&board));
            let grid = Grid::new(&board);
            let generic = Generic::new(&md, ParentOnly, Some(&goal), size);
            let generic_root = generic.root(grid, md.init(&grid), board.blank());
            let optimal = passes(&generic, generic_root, h0, None).len() as u32;
            let limits = Limits::none();
            let control = Control::new(&limits, Instant::now(), 1 << 10);
            for extra in [2, 4] {
                // `passes` took one pass per bound h0, h0 + 2, …: the last found the optimum.
                let bound = h0 + 2 * (optimal - 1) + extra;
                let reference = {
                    let o = sequential_pass(&generic, &generic_root, bound, &control);
                    format!("{} {} {:?}", o.expanded, o.generated, o.solution)
                };
                assert!(reference.contains("Some"), "{tiles}: {reference}");
                for (exact, b) in [
                    (false, Bmi2::OFF),
                    (false, Bmi2::detect()),
                    (true, Bmi2::OFF),
                ] {
                    let k = PackedManhattan::new(m, ParentOnly, size, exact, b).unwrap();
                    let o = sequential_pass(&k, &k.root(&board, h0), bound, &control);
                    let counted = format!("{} {} {:?}", o.expanded, o.generated, o.solution);
                    assert_eq!(counted, reference, "{tiles} bound {bound} {exact}");
                }
            }
        }
    }

    /// The kernel counts what the generic kernel counts under Manhattan distance, and the BMI2
    /// copy of its recursion (where this CPU has it) and the plain copy search the same tree:
    /// every pass's counts and the solution agree, with either pruning, and with exact counting
    /// stopped by a node limit (in the first pass, and a third of the way) at the same node.
    #[test]
    fn both_copies_count_as_the_generic_kernel() {
        let boards = [
            ("3x2", "4 1 5 3 0 2"),
            ("3x3", "8 6 7 2 5 4 3 0 1"),
            ("3x3", "6 4 7 8 5 0 3 2 1"),
            // Korf's #5 and #2.
            ("4x4", "4 7 14 13 10 3 9 12 11 5 6 15 1 2 8 0"),
            ("4x4", "13 5 4 10 9 12 8 14 2 3 7 1 0 15 11 6"),
        ];
        for (size, tiles) in boards {
            let board = Board::parse(tiles, Some(Size::parse(size).unwrap())).unwrap();
            let size = board.size();
            let goal = Goal::blank_first(size);
            assert!(board.is_solvable(&goal).unwrap(), "{tiles}");
            let md = Manhattan::new(&goal);
            let (m, h0) = (md.as_manhattan().unwrap(), md.evaluate(&board));
            let fsm = Fsm::for_size(size);
            // The generic kernel with the Manhattan heuristic, written apart from this one, is the
            // reference for the counts (both copies here could share a mistake).
            let grid = Grid::new(&board);
            let generic = Generic::new(&md, ParentOnly, Some(&goal), size);
            let generic_root = generic.root(grid, md.init(&grid), board.blank());
            let reference = passes(&generic, generic_root, h0, None);
            let whole = PackedManhattan::new(m, ParentOnly, size, false, Bmi2::detect()).unwrap();
            assert_eq!(passes(&whole, whole.root(&board, h0), h0, None), reference);
            let generated: Vec<u64> = reference
                .iter()
                .map(|p| p.split(' ').nth(2).unwrap().parse().unwrap())
                .collect();
            let total: u64 = generated.iter().sum();
            for (exact, limit) in [
                (false, None),
                (true, Some(total / 3)),
                (true, Some(generated[0] / 2)),
                // Counting exactly all the way to the goal, found on the counting path.
                (true, Some(total + 1)),
            ] {
                let [plain, fast] = [Bmi2::OFF, Bmi2::detect()]
                    .map(|b| PackedManhattan::new(m, ParentOnly, size, exact, b).unwrap());
                let a = passes(&plain, plain.root(&board, h0), h0, limit);
                assert_eq!(a, passes(&fast, fast.root(&board, h0), h0, limit));
                assert_eq!(a, passes(&generic, generic_root, h0, limit));
                let [plain, fast] = [Bmi2::OFF, Bmi2::detect()]
                    .map(|b| PackedManhattan::new(m, &*fsm, size, exact, b).unwrap());
                assert_eq!(
                    passes(&plain, plain.root(&board, h0), h0, limit),
                    passes(&fast, fast.root(&board, h0), h0, limit)
                );
            }
        }
    }
}
