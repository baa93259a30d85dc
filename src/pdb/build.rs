//! Building one group's table: a breadth-first search backwards from the goal over abstract
//! states, counting only moves of the group's own tiles.
//!
//! An abstract state is where the group's tiles stand plus where the blank is; every other tile
//! is indistinguishable. The blank slides through non-group tiles for free, so only the
//! *connected region* of non-group cells that holds the blank matters: the search collapses the
//! blank to its region and every remaining edge (a group tile sliding into a neighbouring cell of
//! the blank's region) costs exactly 1. The 0-1 search thus becomes a plain breadth-first search
//! over `(placement, region)`, and a placement's table value is the least depth of any of its
//! regions.
//!
//! The regions depend only on *which* cells the group occupies, not on which tile is where. With
//! the subset-major rank of [`super::rank`], the states of one subset are stored together as
//! `[permutation][region]`, so the state index needs no table of its own and unreachable
//! (placement, region) pairs cost nothing. Each state takes 2 bits (unseen / next / current /
//! done); a level scans the words of its current states, skipping empty ones, in parallel over
//! subsets with rayon, and marks successors with atomic ORs. The table itself is one byte per
//! placement, written by the thread that owns the placement's subset.
//!
//! Memory for the 8-tile group of 7-8: 12,870 subsets × ~1.1 regions × 8! × 2 bits ≈ 145 MB of
//! states plus the 519 MB table (packed to 260 MB afterwards, see [`super::values`]).

use std::sync::atomic::{AtomicU64, Ordering};

use rayon::prelude::*;

use crate::board::{Goal, Size};

use super::Entries;

use super::rank::{
    permutation_rank, permutation_table, subset_masks, subset_rank, Binomials, FACTORIAL,
    MAX_GROUP_TILES,
};

/// A table entry no state reached (only for placements of the other parity class, when a group
/// holds every tile of the board).
pub const UNREACHED: u8 = u8::MAX;

const UNSEEN: u64 = 0b00;
const NEXT: u64 = 0b01;
const LOW_BITS: u64 = 0x5555_5555_5555_5555;

/// One edge out of a subset: the tile at sorted position `remap`'s preimage of the move slides
/// from the group cell into a neighbouring free cell of region `region`.
#[derive(Debug, Clone, Copy)]
struct Move {
    /// The region of the subset the move starts from (the blank must be there).
    region: u8,
    /// The blank's region in the target subset (it is left in the vacated cell).
    target_region: u8,
    /// The target subset.
    target: u32,
    /// `a · k + b`: the moving tile goes from sorted position `a` in the subset to `b` in the
    /// target; the other tiles keep their order, so the permutation maps through
    /// `PermutationMaps` by `(a, b)` alone.
    shift: u8,
}

/// `map[(a·k + b)·k! + p]`: the rank of permutation `p` after the tile at sorted position `a`
/// moves to sorted position `b` (positions between shift by one). 64 · 8! · 2 bytes = 5 MiB for
/// k = 8; it turns each edge of the search into one table read instead of a re-rank.
fn permutation_maps(k: usize) -> Vec<u16> {
    let perms = permutation_table(k);
    let fk = FACTORIAL[k];
    let mut map = vec![0u16; k * k * fk];
    map.par_chunks_mut(fk).enumerate().for_each(|(ab, out)| {
        let (a, b) = (ab / k, ab % k);
        let remap = |p: usize| -> u8 {
            if p == a {
                b as u8
            } else if a < b && p > a && p <= b {
                p as u8 - 1
            } else if b < a && p >= b && p < a {
                p as u8 + 1
            } else {
                p as u8
            }
        };
        for (r, pos) in perms.iter().enumerate() {
            let mut np = [0u8; MAX_GROUP_TILES];
            for i in 0..k {
                np[i] = remap(pos[i] as usize);
            }
            out[r] = permutation_rank(&np, k) as u16;
        }
    });
    map
}

/// Per-subset facts: its regions and its place in the state array.
struct Subsets {
    masks: Vec<u32>,
    /// Number of blank regions of each subset.
    regions: Vec<u8>,
    /// `label[s * n + cell]`: region ordinal of a free cell (regions numbered by smallest cell).
    label: Vec<u8>,
    /// First state index of each subset (`regions · k!` states each), plus the total at the end.
    base: Vec<u64>,
}

fn neighbour_masks(size: Size) -> Vec<u32> {
    (0..size.cells())
        .map(|c| {
            crate::moves::Dir::ORDER
                .iter()
                .filter_map(|&d| crate::moves::step(size, c, d))
                .fold(0u32, |m, to| m | 1 << to)
        })
        .collect()
}

impl Subsets {
    fn new(size: Size, k: usize) -> Subsets {
        let n = size.cells();
        let adj = neighbour_masks(size);
        let masks = subset_masks(n, k);
        let all = if n == 32 { u32::MAX } else { (1u32 << n) - 1 };
        let per: Vec<(u8, Vec<u8>)> = masks
            .par_iter()
            .map(|&mask| {
                let mut label = vec![u8::MAX; n];
                let mut free = all & !mask;
                let mut count = 0u8;
                while free != 0 {
                    let mut region = free & free.wrapping_neg();
                    loop {
                        let mut grown = region;
                        let mut m = region;
                        while m != 0 {
                            grown |= adj[m.trailing_zeros() as usize];
                            m &= m - 1;
                        }
                        grown &= free;
                        if grown == region {
                            break;
                        }
                        region = grown;
                    }
                    let mut m = region;
                    while m != 0 {
                        label[m.trailing_zeros() as usize] = count;
                        m &= m - 1;
                    }
                    free &= !region;
                    count += 1;
                }
                (count, label)
            })
            .collect();
        let mut base = Vec::with_capacity(masks.len() + 1);
        let mut total = 0u64;
        let mut regions = Vec::with_capacity(masks.len());
        let mut label = Vec::with_capacity(masks.len() * n);
        for (count, l) in per {
            base.push(total);
            total += count as u64 * FACTORIAL[k] as u64;
            regions.push(count);
            label.extend_from_slice(&l);
        }
        base.push(total);
        Subsets {
            masks,
            regions,
            label,
            base,
        }
    }

    fn total_states(&self) -> u64 {
        *self.base.last().unwrap_or(&0)
    }
}

/// The moves out of every subset, flattened, with per-subset offsets.
fn all_moves(size: Size, k: usize, subs: &Subsets, binom: &Binomials) -> (Vec<Move>, Vec<u32>) {
    let n = size.cells();
    let adj = neighbour_masks(size);
    let per: Vec<Vec<Move>> = subs
        .masks
        .par_iter()
        .enumerate()
        .map(|(s, &mask)| {
            let mut cells = [0u8; MAX_GROUP_TILES];
            let mut m = mask;
            for c in cells.iter_mut().take(k) {
                *c = m.trailing_zeros() as u8;
                m &= m - 1;
            }
            let mut out = Vec::new();
            for (a, &from) in cells.iter().enumerate().take(k) {
                let from = from as usize;
                let mut nb = adj[from] & !mask;
                while nb != 0 {
                    let to = nb.trailing_zeros() as usize;
                    nb &= nb - 1;
                    let target_mask = mask ^ (1 << from) ^ (1 << to);
                    let target = subset_rank(binom, target_mask);
                    let b = (target_mask & ((1u32 << to) - 1)).count_ones() as usize;
                    out.push(Move {
                        region: subs.label[s * n + to],
                        target_region: subs.label[target * n + from],
                        target: target as u32,
                        shift: (a * k + b) as u8,
                    });
                }
            }
            out
        })
        .collect();
    let mut offsets = Vec::with_capacity(per.len() + 1);
    let mut flat = Vec::new();
    for moves in per {
        offsets.push(flat.len() as u32);
        flat.extend(moves);
    }
    offsets.push(flat.len() as u32);
    (flat, offsets)
}

/// Builds the table of the group `tiles` for `goal`: entry `rank(placement)` is the least number
/// of moves of the group's tiles that bring them from that placement to their goal cells, over
/// every position of the blank. `progress(done, total)` is called after each level with the
/// number of abstract states settled so far.
pub(crate) fn build_table(
    goal: &Goal,
    tiles: &[u8],
    progress: &(dyn Fn(u64, u64) + Sync),
) -> Entries {
    let size = goal.size();
    let n = size.cells();
    let k = tiles.len();
    assert!((1..=MAX_GROUP_TILES).contains(&k) && k < n);
    let fk = FACTORIAL[k];
    let binom = Binomials::new();
    let subs = Subsets::new(size, k);
    let (moves, offsets) = all_moves(size, k, &subs, &binom);
    let maps = permutation_maps(k);
    let total = subs.total_states();
    let words = total.div_ceil(32) as usize;
    let states: Vec<AtomicU64> = (0..words).map(|_| AtomicU64::new(0)).collect();
    let mut table = Entries::filled(subs.masks.len() * fk, UNREACHED);

    // The start: the group at its goal cells, the blank in its goal cell's region.
    let mut goal_cells = [0u8; MAX_GROUP_TILES];
    for (c, &t) in goal_cells.iter_mut().zip(tiles) {
        *c = goal.cell_of(t) as u8;
    }
    let goal_rank = super::rank::rank(&binom, &goal_cells, k);
    let (s0, p0) = (goal_rank / fk, goal_rank % fk);
    let j0 = subs.label[s0 * n + goal.cell_of(0)];
    let start = subs.base[s0] + p0 as u64 * subs.regions[s0] as u64 + j0 as u64;
    // CURRENT = 0b10.
    states[(start / 32) as usize].fetch_or(0b10 << (2 * (start % 32)), Ordering::Relaxed);

    let mut done = 1u64;
    let mut depth: u8 = 0;
    loop {
        // Expand the current level: settle table entries and mark unseen successors NEXT.
        table
            .par_chunks_mut(fk)
            .enumerate()
            .with_min_len(if fk >= 5040 { 1 } else { 64 })
            .for_each(|(s, entries)| {
                let r = subs.regions[s] as u64;
                let (lo, hi) = (subs.base[s], subs.base[s + 1]);
                let my_moves = &moves[offsets[s] as usize..offsets[s + 1] as usize];
                for wi in (lo / 32) as usize..hi.div_ceil(32) as usize {
                    let w = states[wi].load(Ordering::Relaxed);
                    let mut cur = (w >> 1) & !w & LOW_BITS;
                    while cur != 0 {
                        let bit = cur.trailing_zeros() as u64;
                        cur &= cur - 1;
                        let idx = wi as u64 * 32 + bit / 2;
                        if idx < lo || idx >= hi {
                            continue;
                        }
                        let local = idx - lo;
                        let (perm, region) = ((local / r) as usize, (local % r) as u8);
                        if entries[perm] == UNREACHED {
                            entries[perm] = depth;
                        }
                        for mv in my_moves.iter().filter(|m| m.region == region) {
                            let t = mv.target as usize;
                            let p2 = maps[mv.shift as usize * fk + perm] as u64;
                            let target = subs.base[t]
                                + p2 * subs.regions[t] as u64
                                + mv.target_region as u64;
                            let (tw, sh) = ((target / 32) as usize, 2 * (target % 32));
                            let old = states[tw].load(Ordering::Relaxed);
                            if (old >> sh) & 3 == UNSEEN {
                                states[tw].fetch_or(NEXT << sh, Ordering::Relaxed);
                            }
                        }
                    }
                }
            });
        // Advance: current → done, next → current (00→00, 01→10, 10→11, 11→11).
        let fresh: u64 = states
            .par_iter()
            .with_min_len(4096)
            .map(|a| {
                let w = a.load(Ordering::Relaxed);
                let (lo, hi) = (w & LOW_BITS, (w >> 1) & LOW_BITS);
                a.store(hi | ((hi | lo) << 1), Ordering::Relaxed);
                (lo & !hi).count_ones() as u64
            })
            .sum();
        if fresh == 0 {
            break;
        }
        done += fresh;
        depth = depth
            .checked_add(1)
            .filter(|&d| d < UNREACHED)
            .expect("pattern distances fit in a byte");
        progress(done, total);
    }
    progress(total, total);
    table
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pdb::rank::placements;
    use crate::pdb::rank::tests::unrank;
    use std::collections::{HashMap, VecDeque};

    /// A naive 0-1 BFS over (placement, exact blank cell), for cross-checking.
    fn naive(goal: &Goal, tiles: &[u8]) -> Vec<u8> {
        let size = goal.size();
        let n = size.cells();
        let k = tiles.len();
        let mut start: Vec<u8> = tiles.iter().map(|&t| goal.cell_of(t) as u8).collect();
        start.push(goal.cell_of(0) as u8);
        let mut dist: HashMap<Vec<u8>, u8> = HashMap::from([(start.clone(), 0)]);
        let mut dq = VecDeque::from([start]);
        while let Some(st) = dq.pop_front() {
            let d = dist[&st];
            let blank = st[k] as usize;
            for dir in crate::moves::Dir::ORDER {
                let Some(to) = crate::moves::step(size, blank, dir) else {
                    continue;
                };
                let mut next = st.clone();
                let cost = match st[..k].iter().position(|&c| c as usize == to) {
                    Some(i) => {
                        next[i] = blank as u8;
                        1
                    }
                    None => 0,
                };
                next[k] = to as u8;
                let nd = d + cost;
                if dist.get(&next).is_none_or(|&old| nd < old) {
                    dist.insert(next.clone(), nd);
                    if cost == 0 {
                        dq.push_front(next);
                    } else {
                        dq.push_back(next);
                    }
                }
            }
        }
        let b = Binomials::new();
        let mut table = vec![UNREACHED; placements(n, k)];
        for (st, d) in dist {
            let mut cells = [0u8; MAX_GROUP_TILES];
            cells[..k].copy_from_slice(&st[..k]);
            let r = super::super::rank::rank(&b, &cells, k);
            table[r] = table[r].min(d);
        }
        table
    }

    #[test]
    fn matches_a_naive_zero_one_search() {
        let s33 = Size::new(3, 3).unwrap();
        let s43 = Size::new(4, 3).unwrap();
        for (goal, tiles) in [
            (Goal::blank_last(s33), vec![1u8, 2, 3, 4]),
            (Goal::blank_last(s33), vec![5, 6, 7, 8]),
            (Goal::spiral(s33), vec![1, 8, 7]),
            (Goal::blank_first(s43), vec![1, 2, 5, 6, 9]),
            (Goal::blank_last(s33), vec![1, 2, 3, 4, 5, 6, 7, 8]),
            (
                Goal::blank_first(Size::new(4, 4).unwrap()),
                vec![1, 4, 5, 8],
            ),
        ] {
            let reports = std::sync::Mutex::new(Vec::new());
            let fast = build_table(&goal, &tiles, &|done, total| {
                reports.lock().unwrap().push((done, total))
            });
            // One report a level, each settling more states (all of them where every abstract
            // state is reachable; half for a whole 8-puzzle), then the end.
            let reports = reports.into_inner().unwrap();
            let total = reports[0].1;
            let done: Vec<u64> = reports.iter().map(|r| r.0).collect();
            assert!(reports.iter().all(|r| r.1 == total), "{reports:?}");
            assert!(
                done.windows(2).all(|w| w[0] < w[1] || w == [total, total]),
                "{done:?}"
            );
            assert!(done.iter().all(|&d| d <= total) && done.last() == Some(&total));
            assert!(done[done.len() - 2] * 2 >= total, "{done:?}");
            let slow = naive(&goal, &tiles);
            assert_eq!(fast.len(), slow.len());
            for r in 0..fast.len() {
                assert_eq!(
                    fast[r],
                    slow[r],
                    "goal {} group {tiles:?} placement {:?}",
                    goal.name(),
                    &unrank(r, goal.size().cells(), tiles.len())[..tiles.len()]
                );
            }
        }
    }
}
