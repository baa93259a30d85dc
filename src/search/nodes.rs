//! The stored states of A* and breadth-first search: packed boards, a node store that never moves
//! (chunks of fixed size, so growing it copies nothing), and an open-addressing index over it for
//! duplicate detection. Every allocation is charged to a [`Budget`] before it is made.

use crate::board::{Grid, GRID_CELLS};
use crate::moves::Dir;

use super::memory::{make_room, Budget, Memory};

/// A board packed into an integer: the tile in cell i in bits `i·BITS ..`. The blank is 0.
pub(crate) trait Key: Copy + Eq {
    /// Most cells a key holds.
    const CELLS: usize;

    fn pack(grid: &Grid, cells: usize) -> Self;
    /// The key after `tile` slides from cell `from` into the blank at cell `to`.
    fn slide(self, tile: u8, from: usize, to: usize) -> Self;
    fn tile(self, cell: usize) -> u8;
    /// A well-mixed hash; the index takes its top bits.
    fn hash(self) -> u64;
}

/// 4 bits per cell: boards of up to 16 cells (the 15-puzzle).
impl Key for u64 {
    const CELLS: usize = 16;

    fn pack(grid: &Grid, cells: usize) -> u64 {
        (0..cells).fold(0, |k, c| k | (grid.tile_at[c] as u64) << (4 * c))
    }

    #[inline(always)]
    fn slide(self, tile: u8, from: usize, to: usize) -> u64 {
        let t = tile as u64;
        self ^ (t << (4 * (from & 15))) ^ (t << (4 * (to & 15)))
    }

    #[inline(always)]
    fn tile(self, cell: usize) -> u8 {
        (self >> (4 * (cell & 15))) as u8 & 15
    }

    #[inline(always)]
    fn hash(self) -> u64 {
        (self ^ (self >> 29)).wrapping_mul(0x9E37_79B9_7F4A_7C15)
    }
}

/// 5 bits per cell: boards of up to 25 cells (the 24-puzzle).
impl Key for u128 {
    const CELLS: usize = 25;

    fn pack(grid: &Grid, cells: usize) -> u128 {
        (0..cells).fold(0, |k, c| k | (grid.tile_at[c] as u128) << (5 * c))
    }

    #[inline(always)]
    fn slide(self, tile: u8, from: usize, to: usize) -> u128 {
        let t = tile as u128;
        self ^ (t << (5 * (from % 25))) ^ (t << (5 * (to % 25)))
    }

    #[inline(always)]
    fn tile(self, cell: usize) -> u8 {
        (self >> (5 * (cell % 25))) as u8 & 31
    }

    #[inline(always)]
    fn hash(self) -> u64 {
        let (lo, hi) = (self as u64, (self >> 64) as u64);
        (lo ^ hi.wrapping_mul(0xC2B2_AE3D_27D4_EB4F) ^ (lo >> 31))
            .wrapping_mul(0x9E37_79B9_7F4A_7C15)
    }
}

/// The board a key holds, in the form the heuristics read.
pub(crate) fn unpack<K: Key>(key: K, cells: usize) -> Grid {
    let mut g = Grid {
        tile_at: [0; GRID_CELLS],
        cell_of: [0; GRID_CELLS],
    };
    for c in 0..cells.min(K::CELLS) {
        let t = key.tile(c);
        g.tile_at[c] = t;
        g.cell_of[t as usize & (GRID_CELLS - 1)] = c as u8;
    }
    g
}

/// The parent of the root.
pub(crate) const NO_PARENT: u32 = u32::MAX;

/// The move into the root (none): its opposite matches no move, so nothing is pruned there.
pub const NO_MOVE: u8 = 4;

/// One stored state: how it was reached most cheaply so far.
#[derive(Debug, Clone, Copy)]
pub struct Node<K> {
    pub key: K,
    pub parent: u32,
    /// Cost of the cheapest path found so far.
    pub g: u16,
    /// The move from the parent (a [`Dir`] index), [`NO_MOVE`] at the root.
    pub dir: u8,
    /// Expanded at this `g` (A*: closed).
    pub closed: bool,
}

/// Nodes per chunk of the store (1 MiB of 16-byte nodes).
const CHUNK_BITS: u32 = 16;
const CHUNK: usize = 1 << CHUNK_BITS;

/// Index slots at the start.
const FIRST_SLOTS: usize = 1 << 12;

/// Where a key is, or where it would go.
pub(crate) enum Lookup {
    Found(u32),
    Vacant(usize),
}

/// The stored states and the index that finds them by key.
pub struct NodeTable<K> {
    chunks: Vec<Vec<Node<K>>>,
    len: usize,
    /// Open addressing with linear probing: 0 = empty, else node index + 1. Power-of-two length,
    /// at most 3/4 full.
    slots: Vec<u32>,
    shift: u32,
    budget: Budget,
}

impl<K: Key> NodeTable<K> {
    /// An empty table charging `budget`; `None` when even the first index does not fit.
    pub fn new(mut budget: Budget) -> Option<NodeTable<K>> {
        if !budget.replace(0, (FIRST_SLOTS * 4) as u64) {
            return None;
        }
        Some(NodeTable {
            chunks: Vec::new(),
            len: 0,
            slots: vec![0; FIRST_SLOTS],
            shift: 64 - FIRST_SLOTS.trailing_zeros(),
            budget,
        })
    }

    /// Number of stored states.
    pub fn len(&self) -> usize {
        self.len
    }

    /// The budget, shared with the search's other structures.
    pub fn budget(&mut self) -> &mut Budget {
        &mut self.budget
    }

    #[inline(always)]
    pub fn node(&self, i: u32) -> &Node<K> {
        let i = i as usize;
        &self.chunks[i >> CHUNK_BITS][i & (CHUNK - 1)]
    }

    #[inline(always)]
    pub(crate) fn node_mut(&mut self, i: u32) -> &mut Node<K> {
        let i = i as usize;
        &mut self.chunks[i >> CHUNK_BITS][i & (CHUNK - 1)]
    }

    #[inline(always)]
    pub fn find(&self, key: K) -> Lookup {
        let mask = self.slots.len() - 1;
        let mut s = (key.hash() >> self.shift) as usize;
        loop {
            let v = self.slots[s & mask];
            if v == 0 {
                return Lookup::Vacant(s & mask);
            }
            if self.node(v - 1).key == key {
                return Lookup::Found(v - 1);
            }
            s += 1;
        }
    }

    /// Stores `node` in the vacant `slot` that [`NodeTable::find`] returned for its key. Returns
    /// its index, or `None` (storing nothing) when the memory it needs is over budget.
    pub fn insert(&mut self, slot: usize, node: Node<K>) -> Option<u32> {
        if self.len >= NO_PARENT as usize - 1 {
            return None;
        }
        if self.len.is_multiple_of(CHUNK) {
            // The first chunk grows by doubling (small searches stay small); later ones are
            // allocated whole, so the store never copies more than one chunk.
            let cap = if self.chunks.is_empty() { 0 } else { CHUNK };
            let bytes = (cap * std::mem::size_of::<Node<K>>()) as u64;
            if !make_room(&mut self.chunks, 16, &mut self.budget) || !self.budget.replace(0, bytes)
            {
                return None;
            }
            self.chunks.push(Vec::with_capacity(cap));
        }
        if self.chunks.len() == 1 && !make_room(&mut self.chunks[0], 256, &mut self.budget) {
            return None;
        }
        let mut slot = slot;
        if (self.len + 1) * 4 > self.slots.len() * 3 {
            if !self.grow_index() {
                return None;
            }
            slot = match self.find(node.key) {
                Lookup::Vacant(s) => s,
                Lookup::Found(_) => unreachable!("insert of a key already stored"),
            };
        }
        let i = self.len as u32;
        self.chunks[self.len >> CHUNK_BITS].push(node);
        self.len += 1;
        self.slots[slot] = i + 1;
        Some(i)
    }

    /// Stores the start board (the table must be empty); `None` when over budget.
    pub(crate) fn insert_root(&mut self, key: K) -> Option<u32> {
        let Lookup::Vacant(slot) = self.find(key) else {
            unreachable!("the root goes into an empty table")
        };
        let root = Node {
            key,
            parent: NO_PARENT,
            g: 0,
            dir: NO_MOVE,
            closed: false,
        };
        self.insert(slot, root)
    }

    /// The memory figures of a search that stored its states here.
    pub fn memory(&self) -> Memory {
        Memory {
            peak_stored: self.len as u64,
            peak_bytes: self.budget.peak(),
            table_bytes: 0,
        }
    }

    /// Doubles the index and re-inserts every node from the store, if the budget allows. The old
    /// index is freed first (the store has every key), so the two are never held at once.
    fn grow_index(&mut self) -> bool {
        let old = self.slots.len();
        if !self.budget.free_then_take(old as u64 * 4, old as u64 * 8) {
            return false;
        }
        self.slots = Vec::new();
        self.slots = vec![0; old * 2];
        self.shift -= 1;
        let mask = old * 2 - 1;
        for i in 0..self.len as u32 {
            let mut s = (self.node(i).key.hash() >> self.shift) as usize;
            while self.slots[s & mask] != 0 {
                s += 1;
            }
            self.slots[s & mask] = i + 1;
        }
        true
    }

    /// The moves from the root to node `i`.
    pub fn path(&self, mut i: u32) -> Vec<Dir> {
        let mut moves = Vec::new();
        while i != NO_PARENT {
            let n = self.node(i);
            if n.parent != NO_PARENT {
                moves.push(Dir::from_index(n.dir));
            }
            i = n.parent;
        }
        moves.reverse();
        moves
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Board, Size};

    fn node<K>(key: K) -> Node<K> {
        Node {
            key,
            parent: NO_PARENT,
            g: 0,
            dir: NO_MOVE,
            closed: false,
        }
    }

    /// How much of the 2¹⁶ buckets of the hashes' top 16 bits the distinct `keys` fill, as a
    /// share of what a random hash fills (1 − e^(−n/2¹⁶) of them).
    fn spread<K: Key + std::hash::Hash>(keys: impl Iterator<Item = K>) -> f64 {
        let keys: std::collections::HashSet<K> = keys.collect();
        let mut seen = vec![false; 1 << 16];
        for k in &keys {
            seen[(Key::hash(*k) >> 48) as usize] = true;
        }
        let filled = seen.iter().filter(|&&b| b).count() as f64 / seen.len() as f64;
        filled / (1.0 - (-(keys.len() as f64) / seen.len() as f64).exp())
    }

    /// The index takes a hash's top bits, so they must spread even over keys that differ in a
    /// few cells (a weak hash keeps the index correct but its probes long, and A* and BFS
    /// slow): the 8-puzzle's boards in rank order, and a 24-puzzle random walk's, fill the
    /// buckets as a random hash would.
    #[test]
    fn keys_hash_across_the_whole_index() {
        let s3 = Size::new(3, 3).unwrap();
        let ranked = (0..181_440).map(|r| {
            let t = crate::brute_force::unrank(r, 9);
            u64::pack(&Grid::new(&Board::from_tiles(s3, &t).unwrap()), 9)
        });
        let f = spread(ranked);
        assert!(
            f > 0.97,
            "8-puzzle keys fill {f:.3} of a random hash's buckets"
        );
        let s = Size::new(5, 5).unwrap();
        let mut grid = Grid::new(&Board::from_tiles(s, &(0..25).collect::<Vec<u8>>()).unwrap());
        let mut x = 0x9E37_79B9u64;
        let walk = (0..100_000).map(|_| {
            let blank = grid.cell_of[0] as usize;
            x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            if let Some(to) = crate::moves::step(s, blank, Dir::ORDER[(x >> 62) as usize]) {
                grid.slide(to, blank);
            }
            u128::pack(&grid, 25)
        });
        let f = spread(walk);
        assert!(
            f > 0.97,
            "24-puzzle keys fill {f:.3} of a random hash's buckets"
        );
    }

    /// A 24-puzzle key's two words both reach its hash: boards that agree on the first 13 cells
    /// (the low word) and differ beyond never share a hash, as the high word is mixed in by a
    /// multiplication that is one-to-one (a hash that masked it with the low word would let
    /// the hash of boards near one another collide, and A* probe long chains on the 24-puzzle).
    #[test]
    fn boards_that_differ_in_the_high_cells_only_hash_apart() {
        let s = Size::new(5, 5).unwrap();
        let mut tiles: Vec<u8> = (0..25).collect();
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        let mut hashes = std::collections::HashSet::new();
        let mut keys = std::collections::HashSet::new();
        for _ in 0..50_000 {
            // A random order of the tiles in cells 13..25 (Fisher–Yates); cells 0..13 stay.
            for i in (14..25).rev() {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                tiles.swap(i, 13 + (x % (i as u64 - 12)) as usize);
            }
            let key = u128::pack(&Grid::new(&Board::from_tiles(s, &tiles).unwrap()), 25);
            // The low word: tiles 0..=12 in their cells, five bits each (cut at bit 64).
            assert_eq!(key as u64, 0xC5A9_2839_8A41_8820);
            if keys.insert(key) {
                hashes.insert(Key::hash(key));
            }
        }
        assert!(keys.len() > 49_000, "{}", keys.len());
        assert_eq!(
            hashes.len(),
            keys.len(),
            "boards sharing their first 13 cells collide"
        );
    }

    #[test]
    fn keys_pack_unpack_and_slide() {
        let b = Board::parse("14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3", None).unwrap();
        let g = Grid::new(&b);
        let k = u64::pack(&g, 16);
        assert_eq!(unpack(k, 16), g);
        // The blank (cell 9) moves up to cell 5, where tile 12 is.
        let mut moved = g;
        moved.slide(5, 9);
        assert_eq!(k.slide(12, 5, 9), u64::pack(&moved, 16));
        let b5 = Board::parse(
            &(0..25)
                .rev()
                .map(|t| t.to_string())
                .collect::<Vec<_>>()
                .join(" "),
            None,
        )
        .unwrap();
        let g5 = Grid::new(&b5);
        let k5 = u128::pack(&g5, 25);
        assert_eq!(unpack(k5, 25), g5);
        let mut m5 = g5;
        m5.slide(23, 24);
        assert_eq!(k5.slide(1, 23, 24), u128::pack(&m5, 25));
        assert_eq!(Size::new(5, 5).unwrap().cells(), u128::CELLS);
    }

    #[test]
    fn the_index_finds_every_key_across_growth() {
        let mut t: NodeTable<u64> = NodeTable::new(Budget::new(None)).unwrap();
        let keys: Vec<u64> = (0..100_000u64).map(|i| i * 0x1234_5677 + 1).collect();
        for &k in &keys {
            let Lookup::Vacant(s) = t.find(k) else {
                panic!("{k} found before insertion")
            };
            t.insert(s, node(k)).unwrap();
            // Never more than three quarters full: an open-addressing probe for a missing key
            // ends at a vacant slot, and probes stay short.
            assert!(
                t.len() * 4 <= t.slots.len() * 3,
                "{} in {}",
                t.len(),
                t.slots.len()
            );
        }
        for (i, &k) in keys.iter().enumerate() {
            assert!(matches!(t.find(k), Lookup::Found(j) if j as usize == i));
        }
        assert!(matches!(t.find(0), Lookup::Vacant(_)));
        assert_eq!(t.len(), keys.len());
        // Two chunks of nodes and the index of 2^18 slots (the old one is freed first); the first
        // chunk's last doubling held half a chunk more.
        let expected = 2 * CHUNK as u64 * 16 + (1 << 18) * 4;
        assert!(
            t.memory().peak_bytes >= expected,
            "{}",
            t.memory().peak_bytes
        );
        assert!(
            t.memory().peak_bytes < expected + 4096,
            "{}",
            t.memory().peak_bytes
        );
    }

    #[test]
    fn a_full_budget_refuses_and_keeps_what_is_stored() {
        let limit = 3 << 20;
        let mut t: NodeTable<u64> = NodeTable::new(Budget::new(Some(limit))).unwrap();
        let mut stored = 0u64;
        loop {
            let k = stored * 0x9E37 + 7;
            let Lookup::Vacant(s) = t.find(k) else {
                panic!()
            };
            match t.insert(s, node(k)) {
                Some(_) => stored += 1,
                None => break,
            }
        }
        assert!(t.memory().peak_bytes <= limit);
        assert!(stored > 0 && stored == t.len() as u64);
        for i in 0..stored {
            assert!(matches!(t.find(i * 0x9E37 + 7), Lookup::Found(_)));
        }
    }
}
