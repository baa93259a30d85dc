//! Duplicate-path pruning: which move sequences IDA* never follows because another sequence,
//! also followed, reaches the same board at no greater cost.
//!
//! [`Pruning::Parent`] (the default, and what Korf's published counts use) never undoes the
//! previous move. [`Pruning::Fsm`] is Taylor & Korf's (1993) finite-state machine: it never
//! completes a *pruned string*, a move string `w` for which a *preferred* string `v` exists
//! with the same net effect. Parent pruning is its length-2 case (`UD` ≡ the empty string).
//!
//! # Which strings are pruned
//!
//! Strings are ordered by length, then lexicographically in Korf's operator order (U < L < R <
//! D): `v` is preferred to `w` when shorter, or of equal length and smaller. The net effect of
//! a string is what it does on an unbounded board: the blank's displacement and the permutation
//! of the tiles it moved (computed by simulation, tiles labelled by their starting cell). `w` is
//! pruned when some `v` preferred to it has the same effect and a bounding box (of the cells
//! the blank visits, relative to its start) inside `w`'s. Every string up to
//! [`Fsm::MAX_LENGTH`] moves (fewer on small boards, see [`Fsm::default_length`]) is examined;
//! only the minimal pruned strings (no pruned substring) are kept.
//!
//! # Why every optimal length survives
//!
//! On a rectangular board a string is legal from a start cell exactly when the bounding box of
//! its cells, placed at that cell, lies on the board. If `w` is legal somewhere, so is any `v`
//! whose box lies within `w`'s, from the same cell, and it leaves the same board (the effect
//! only involves cells the blank visited, all on the board). Take, among all legal paths from
//! the start to a board `B`, the least in the preference order. If it contained a pruned string
//! `w`, replacing `w` by its `v` would give a legal path to `B` that is shorter, or of the same
//! length and lexicographically smaller: a contradiction. So every board keeps a path of its
//! exact distance that the machine never cuts, in particular the goal. IDA* then finds the goal
//! at the optimal bound, and no bound is skipped: below the optimal cost the first node of that
//! path with f > bound is generated, so the next bound is at most f ≤ optimal cost.
//!
//! The tree searched is a subtree of the parent-pruned tree (every string with `UD`, `DU`, `LR`
//! or `RL` is pruned), so each iteration of a given bound generates at most the nodes the parent
//! pruning does. The last iteration stops at the first solution in operator order, which may lie
//! later in the smaller tree than in the larger one: the total is not bounded by a theorem, and
//! the tests look at it on whole state spaces.
//!
//! # The machine
//!
//! The pruned strings are the patterns of an Aho–Corasick automaton: a state is the longest
//! suffix of the path that begins a pattern, and a transition that would complete a pattern is
//! [`DEAD`]. The search carries the state in each node and consults a precomputed table
//! (state × move → state), one load per child, with no allocation.

use std::collections::{HashMap, HashSet, VecDeque};
use std::fmt;
use std::str::FromStr;
use std::sync::{Arc, Mutex, OnceLock};

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::board::Size;

/// How the search avoids duplicate paths.
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
)]
#[serde(rename_all = "kebab-case")]
pub enum Pruning {
    /// Never undo the previous move (Korf 1985): the published counts.
    #[default]
    Parent,
    /// Taylor & Korf's finite-state machine over short duplicate strings.
    Fsm,
}

/// A pruning name that is not one.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("unknown pruning '{0}': known are parent, fsm")]
pub struct UnknownPruning(pub String);

impl Pruning {
    pub const ALL: [Pruning; 2] = [Pruning::Parent, Pruning::Fsm];

    pub fn as_str(self) -> &'static str {
        match self {
            Pruning::Parent => "parent",
            Pruning::Fsm => "fsm",
        }
    }

    /// Whether this is the default (kept out of files written before the option existed).
    pub(crate) fn is_parent(&self) -> bool {
        *self == Pruning::Parent
    }
}

impl fmt::Display for Pruning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Pruning {
    type Err = UnknownPruning;

    fn from_str(s: &str) -> Result<Pruning, UnknownPruning> {
        match s.trim().to_ascii_lowercase().as_str() {
            "parent" => Ok(Pruning::Parent),
            "fsm" => Ok(Pruning::Fsm),
            _ => Err(UnknownPruning(s.trim().to_string())),
        }
    }
}

/// A transition that completes a pruned string.
pub const DEAD: u32 = u32::MAX;

/// The pruning the search kernels are generic over (monomorphised: no dispatch per node).
/// Parent pruning itself is built into the kernels' operator tables; a `Prune` adds to it.
pub(crate) trait Prune: Sync {
    /// What a node carries for the pruning.
    type State: Copy + Send + Sync;

    fn start(&self) -> Self::State;

    /// The state after the move `dir` (0..4, Korf's order), or None when the move is pruned.
    fn next(&self, s: Self::State, dir: u8) -> Option<Self::State>;
}

/// Nothing beyond parent pruning: a state of no size and a test the compiler removes.
#[derive(Debug, Clone, Copy)]
pub(crate) struct ParentOnly;

impl Prune for ParentOnly {
    type State = ();

    #[inline(always)]
    fn start(&self) {}

    #[inline(always)]
    fn next(&self, _: (), _: u8) -> Option<()> {
        Some(())
    }
}

impl Prune for &Fsm {
    type State = u32;

    #[inline(always)]
    fn start(&self) -> u32 {
        0
    }

    #[inline(always)]
    fn next(&self, s: u32, dir: u8) -> Option<u32> {
        let t = self.step(s, dir);
        (t != DEAD).then_some(t)
    }
}

/// The machine for one board size.
#[derive(Debug, Clone)]
pub struct Fsm {
    /// `table[state][dir]`: the next state, or [`DEAD`]. State 0 is the start (empty path).
    table: Vec<[u32; 4]>,
}

/// Blank displacement of each direction (row, column), in Korf's order U, L, R, D.
const STEP: [(i32, i32); 4] = [(-1, 0), (0, -1), (0, 1), (1, 0)];

/// Bounding box of the blank's cells relative to its start: rows and columns, min and max.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct BoundingBox {
    r0: i32,
    r1: i32,
    c0: i32,
    c1: i32,
}

impl BoundingBox {
    fn within(&self, o: &BoundingBox) -> bool {
        self.r0 >= o.r0 && self.r1 <= o.r1 && self.c0 >= o.c0 && self.c1 <= o.c1
    }
}

/// A move string packed two bits a move (at most 31 moves), with its length.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
struct Word {
    bits: u64,
    len: u32,
}

impl Word {
    fn push(self, d: u8) -> Word {
        Word {
            bits: self.bits | (d as u64) << (2 * self.len),
            len: self.len + 1,
        }
    }

    fn at(self, i: u32) -> u8 {
        ((self.bits >> (2 * i)) & 3) as u8
    }

    /// Without its first move.
    fn tail(self) -> Word {
        Word {
            bits: self.bits >> 2,
            len: self.len - 1,
        }
    }

    fn moves(self) -> Vec<u8> {
        (0..self.len).map(|i| self.at(i)).collect()
    }
}

/// An unbounded board, big enough for strings of `max` moves, tiles labelled by their cell.
struct Plane {
    side: i32,
    cells: Vec<u32>,
}

impl Plane {
    fn new(max: usize) -> Plane {
        let side = 2 * max as i32 + 3;
        Plane {
            side,
            cells: (0..(side * side) as u32).collect(),
        }
    }

    fn index(&self, r: i32, c: i32) -> usize {
        let o = self.side / 2;
        ((r + o) * self.side + (c + o)) as usize
    }

    /// The effect of `w` (blank displacement, then every moved tile as its cell and its label)
    /// and its bounding box; the plane is left as it was.
    fn effect(&mut self, w: Word) -> (Vec<i32>, BoundingBox) {
        let (mut r, mut c) = (0i32, 0i32);
        let mut bb = BoundingBox {
            r0: 0,
            r1: 0,
            c0: 0,
            c1: 0,
        };
        let mut touched = vec![self.index(0, 0)];
        for i in 0..w.len {
            let (dr, dc) = STEP[w.at(i) as usize];
            let (a, b) = (self.index(r, c), self.index(r + dr, c + dc));
            self.cells.swap(a, b);
            r += dr;
            c += dc;
            bb.r0 = bb.r0.min(r);
            bb.r1 = bb.r1.max(r);
            bb.c0 = bb.c0.min(c);
            bb.c1 = bb.c1.max(c);
            touched.push(b);
        }
        touched.sort_unstable();
        touched.dedup();
        let blank = self.index(r, c);
        let mut key = vec![r, c];
        for &cell in &touched {
            if cell != blank && self.cells[cell] != cell as u32 {
                key.push(cell as i32);
                key.push(self.cells[cell] as i32);
            }
        }
        for &cell in &touched {
            self.cells[cell] = cell as u32;
        }
        (key, bb)
    }
}

/// Machines already built, by board size and length.
type Cache = Mutex<HashMap<(Size, usize), Arc<Fsm>>>;

fn cache() -> &'static Cache {
    static CACHE: OnceLock<Cache> = OnceLock::new();
    CACHE.get_or_init(|| Mutex::new(HashMap::new()))
}

impl Fsm {
    /// Longest string examined (on the 24-puzzle's board).
    pub const MAX_LENGTH: usize = 14;

    /// The length of string examined for `size`: 14 moves when both sides are 5 (65,612 states,
    /// built in seconds, nothing beside a 24-puzzle search), 12 otherwise (7,435 states on
    /// 4×4, built in under a second; 14 moves would take several seconds per process, more than
    /// many 15-puzzle searches).
    pub fn default_length(size: Size) -> usize {
        if size.width >= 5 && size.height >= 5 {
            Fsm::MAX_LENGTH
        } else {
            12
        }
    }

    /// The machine for `size` with the default length, built once per process.
    pub(crate) fn for_size(size: Size) -> Arc<Fsm> {
        Fsm::cached(size, Fsm::default_length(size))
    }

    /// The machine for `size` examining strings of up to `max_length` moves, built once per
    /// process.
    pub fn cached(size: Size, max_length: usize) -> Arc<Fsm> {
        let mut c = cache().lock().unwrap_or_else(|e| e.into_inner());
        c.entry((size, max_length))
            .or_insert_with(|| Arc::new(Fsm::build(size, max_length)))
            .clone()
    }

    /// Builds the machine for `size` from every string of up to `max_length` moves (at most 31)
    /// whose bounding box fits on the board (the others never occur).
    pub fn build(size: Size, max_length: usize) -> Fsm {
        Fsm {
            table: automaton(&minimal_patterns(size, max_length)),
        }
    }

    /// The state after `dir` from `state`, or [`DEAD`] (the search's transition too: `next`).
    #[inline(always)]
    pub fn step(&self, state: u32, dir: u8) -> u32 {
        self.table[state as usize][(dir & 3) as usize]
    }
}

/// The minimal pruned strings of up to `max_length` moves (at most 31) for `size`, as direction
/// indices, in preference order.
fn minimal_patterns(size: Size, max_length: usize) -> Vec<Vec<u8>> {
    let max_length = max_length.min(31);
    let (w, h) = (size.width as i32, size.height as i32);
    let mut plane = Plane::new(max_length);
    // Every string kept so far, by effect: the bounding boxes of those not pruned.
    let mut by_effect: HashMap<Vec<i32>, Vec<BoundingBox>> = HashMap::new();
    let empty = Word { bits: 0, len: 0 };
    let (key, bb) = plane.effect(empty);
    by_effect.insert(key, vec![bb]);
    let mut level = vec![empty];
    let mut patterns = Vec::new();
    for _ in 1..=max_length {
        let survivors: HashSet<Word> = level.iter().copied().collect();
        let mut next = Vec::new();
        // Parents in preference order, moves in operator order: children in preference
        // order, so every string already in `by_effect` is preferred to the one examined.
        for &parent in &level {
            for d in 0..4u8 {
                let word = parent.push(d);
                // A string whose tail is pruned holds a pruned substring: not minimal.
                if word.len > 1 && !survivors.contains(&word.tail()) {
                    continue;
                }
                let (key, bb) = plane.effect(word);
                if bb.r1 - bb.r0 >= h || bb.c1 - bb.c0 >= w {
                    continue;
                }
                let boxes = by_effect.entry(key).or_default();
                if boxes.iter().any(|b| b.within(&bb)) {
                    patterns.push(word.moves());
                } else {
                    boxes.retain(|b| !bb.within(b));
                    boxes.push(bb);
                    next.push(word);
                }
            }
        }
        level = next;
    }
    patterns
}

/// The Aho–Corasick automaton of `patterns` (none a substring of another), with every
/// transition that completes a pattern [`DEAD`].
fn automaton(patterns: &[Vec<u8>]) -> Vec<[u32; 4]> {
    const NONE: u32 = u32::MAX - 1;
    // The trie: goto[state][dir], with each pattern's last node marked.
    let mut goto: Vec<[u32; 4]> = vec![[NONE; 4]];
    let mut terminal = vec![false];
    for p in patterns {
        let mut s = 0usize;
        for &d in p {
            let t = goto[s][d as usize];
            s = if t == NONE {
                goto.push([NONE; 4]);
                terminal.push(false);
                let n = goto.len() - 1;
                goto[s][d as usize] = n as u32;
                n
            } else {
                t as usize
            };
        }
        terminal[s] = true;
    }
    // Breadth-first: each state's failure link (longest proper suffix in the trie), and the
    // complete transition function.
    let mut fail = vec![0u32; goto.len()];
    let mut delta = vec![[0u32; 4]; goto.len()];
    let mut queue = VecDeque::new();
    for d in 0..4 {
        let t = goto[0][d];
        if t == NONE {
            delta[0][d] = 0;
        } else {
            delta[0][d] = t;
            fail[t as usize] = 0;
            queue.push_back(t as usize);
        }
    }
    while let Some(s) = queue.pop_front() {
        terminal[s] |= terminal[fail[s] as usize];
        for d in 0..4 {
            let t = goto[s][d];
            if t == NONE {
                delta[s][d] = delta[fail[s] as usize][d];
            } else {
                fail[t as usize] = delta[fail[s] as usize][d];
                delta[s][d] = t;
                queue.push_back(t as usize);
            }
        }
    }
    // Terminal states become DEAD transitions and are dropped; the others are renumbered.
    let mut number = vec![DEAD; goto.len()];
    let mut live = 0u32;
    for (s, n) in number.iter_mut().enumerate() {
        if !terminal[s] {
            *n = live;
            live += 1;
        }
    }
    (0..goto.len())
        .filter(|&s| !terminal[s])
        .map(|s| delta[s].map(|t| number[t as usize]))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn size(w: usize, h: usize) -> Size {
        Size::new(w, h).unwrap()
    }

    impl Fsm {
        /// The number of states (the start and every live prefix of a pattern).
        fn states(&self) -> usize {
            self.table.len()
        }

        /// Whether the machine lets the whole path through (no pruned string in it).
        fn accepts(&self, path: &[u8]) -> bool {
            let mut s = 0;
            for &d in path {
                s = self.step(s, d);
                if s == DEAD {
                    return false;
                }
            }
            true
        }
    }

    /// The minimal pruned strings, as letters (e.g. `"UD"`), in preference order.
    fn patterns(size: Size, max_length: usize) -> Vec<String> {
        minimal_patterns(size, max_length)
            .iter()
            .map(|p| {
                p.iter()
                    .map(|&d| ['U', 'L', 'R', 'D'][d as usize])
                    .collect()
            })
            .collect()
    }

    fn letters(p: &str) -> Vec<u8> {
        p.chars()
            .map(|c| "ULRD".find(c).expect("a move letter") as u8)
            .collect()
    }

    /// The long machine (seconds to build) only where a search is long enough to pay for it:
    /// both sides 5, not one.
    #[test]
    fn only_the_five_by_five_examines_the_longest_strings() {
        assert_eq!(Fsm::default_length(size(5, 5)), Fsm::MAX_LENGTH);
        for (w, h) in [(5, 4), (4, 5), (5, 3), (2, 5), (4, 4), (3, 3)] {
            assert_eq!(Fsm::default_length(size(w, h)), 12, "{w}x{h}");
        }
    }

    /// Up to length 3 the only pruned strings are the four reversals: the machine is parent
    /// pruning, with one state per last move.
    #[test]
    fn short_machine_is_parent_pruning() {
        let f = Fsm::build(size(5, 5), 3);
        assert_eq!(patterns(size(5, 5), 3), ["UD", "LR", "RL", "DU"]);
        assert_eq!(f.states(), 5);
        assert!(f.accepts(&letters("ULDRU")));
        assert!(!f.accepts(&letters("ULRD")));
    }

    /// On the 2×2 board the blank can only circle, through a cycle of 12 boards: six moves one
    /// way and six the other reach the same board, so the larger of the two (`DRULDR`, D > R)
    /// is pruned, and seven moves one way are five the other. Nothing else is pruned but the
    /// reversals. Checked on real boards.
    #[test]
    fn two_by_two_prunes_the_longer_way_round() {
        let s = size(2, 2);
        let f = Fsm::build(s, 11);
        let patterns = patterns(s, 11);
        assert_eq!(patterns[..4], ["UD", "LR", "RL", "DU"]);
        assert_eq!(patterns.len(), 10, "{patterns:?}");
        assert!(patterns[4..8].iter().all(|p| p.len() == 6), "{patterns:?}");
        assert!(patterns[8..].iter().all(|p| p.len() == 7), "{patterns:?}");
        assert!(patterns.contains(&"DRULDR".to_string()));
        assert!(f.accepts(&letters("RDLURD")));
        assert!(!f.accepts(&letters("DRULDR")));
        let goal = crate::board::Goal::blank_first(s);
        let after = |p: &str| {
            let mut b = goal.as_board();
            for c in p.chars() {
                b.apply(crate::moves::Dir::from_letter(c).unwrap()).unwrap();
            }
            b
        };
        assert_eq!(after("RDLURD"), after("DRULDR"));
    }

    /// The module's safety argument, checked from its definition on real boards: from a blank
    /// cell, a breadth-first search in operator order reaches each board first by its least
    /// path (shortest, then first in operator order), and the machine must let every such path
    /// through, so that every board keeps a path of its exact distance. A machine that prunes a
    /// string whose preferred twin leaves the board from some cell fails here. On 5×5 from the
    /// cells that differ up to symmetry (the 14-move machine prunes strings 3×3 and 4×4 have
    /// no room for).
    #[test]
    fn the_least_path_to_every_near_board_survives() {
        let cases = [
            (size(3, 3), 12, 16, vec![0, 1, 4]),
            (size(4, 4), 12, 12, vec![0, 1, 5]),
            (size(5, 5), 14, 14, vec![0, 1, 2, 6, 7, 12]),
        ];
        for (s, length, depth, cells) in cases {
            let f = Fsm::build(s, length);
            let pack = |t: &[u8]| t.iter().fold(0u128, |a, &x| a << 5 | x as u128);
            for cell in cells {
                let mut tiles: Vec<u8> = (0..s.cells() as u8).collect();
                tiles.swap(0, cell);
                let mut seen = HashSet::from([pack(&tiles)]);
                // Each board with its blank and the machine's state after its least path.
                let mut level = vec![(tiles, cell, 0u32)];
                for _ in 0..depth {
                    let mut next = Vec::new();
                    for (t, blank, state) in &level {
                        for d in 0..4u8 {
                            let Some(to) =
                                crate::moves::step(s, *blank, crate::moves::Dir::from_index(d))
                            else {
                                continue;
                            };
                            let mut child = t.clone();
                            child.swap(*blank, to);
                            if seen.insert(pack(&child)) {
                                let after = f.step(*state, d);
                                assert_ne!(
                                    after, DEAD,
                                    "{s:?} from cell {cell}: a least path pruned"
                                );
                                next.push((child, to, after));
                            }
                        }
                    }
                    level = next;
                }
            }
        }
    }

    /// A larger board has the same 2×2 duplicates and more (around 2×3 blocks); a machine with
    /// longer strings prunes everything a shorter one does.
    #[test]
    fn longer_strings_prune_more() {
        let short = Fsm::build(size(4, 4), 8);
        let long = Fsm::build(size(4, 4), 12);
        assert!(!short.accepts(&letters("DRULDR")));
        let short_patterns = patterns(size(4, 4), 8);
        assert!(patterns(size(4, 4), 12).len() > short_patterns.len());
        for p in short_patterns {
            assert!(!long.accepts(&letters(&p)), "{p}");
        }
        assert!(long.states() > short.states());
    }

    #[test]
    fn pruning_names_round_trip() {
        for p in Pruning::ALL {
            assert_eq!(p.as_str().parse::<Pruning>().unwrap(), p);
        }
        assert!("nope".parse::<Pruning>().is_err());
        assert_eq!(Pruning::default(), Pruning::Parent);
    }
}
