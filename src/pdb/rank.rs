//! Perfect ranking of partial permutations: where the k tiles of one group stand on an n-cell
//! board, as an index in `0..n!/(n−k)!`.
//!
//! The rank splits a placement into *which cells* the group occupies (a k-subset of the cells,
//! ranked in colexicographic order: `Σ C(c_j, j+1)` over the sorted cells) and *which tile is in
//! which of those cells* (a permutation of `0..k`, ranked by its Lehmer code):
//!
//! `rank = subset_rank · k! + permutation_rank`.
//!
//! This layout keeps every placement of one subset together, which is what lets the builder
//! attach the blank's region (a property of the subset alone) without an index of its own, and it
//! costs a lookup about 3k bit operations: the group's cell mask, one popcount per tile for its
//! position inside the subset, one more for the Lehmer digit. A move changes one tile's cell, so
//! a lookup re-ranks only the one group that tile belongs to.

/// Most tiles a group may hold (8! permutations per subset; 7-8 on the 15-puzzle).
pub const MAX_GROUP_TILES: usize = 8;

/// `n!` for `n ≤ 8`.
pub(crate) const FACTORIAL: [usize; MAX_GROUP_TILES + 1] = [1, 1, 2, 6, 24, 120, 720, 5040, 40320];

/// Binomial coefficients `C(n, r)` for `n < 32`, `r ≤ 8` (a 32×16 table, so that indices can be
/// masked into range instead of bounds-checked).
#[derive(Debug, Clone)]
pub struct Binomials([[u32; 16]; 32]);

impl Binomials {
    pub fn new() -> Binomials {
        let mut b = [[0u32; 16]; 32];
        for n in 0..32 {
            b[n][0] = 1;
            for r in 1..=MAX_GROUP_TILES.min(n) {
                b[n][r] = b[n - 1][r - 1] + if r < n { b[n - 1][r] } else { 0 };
            }
        }
        Binomials(b)
    }

    #[inline(always)]
    pub fn get(&self, n: usize, r: usize) -> usize {
        self.0[n & 31][r & 15] as usize
    }
}

impl Default for Binomials {
    fn default() -> Self {
        Binomials::new()
    }
}

/// Number of placements of `k` distinct tiles on `n` cells: `n!/(n−k)!`.
pub fn placements(n: usize, k: usize) -> usize {
    (n - k + 1..=n).product()
}

/// Number of k-subsets of n cells.
pub fn subsets(n: usize, k: usize) -> usize {
    Binomials::new().get(n, k)
}

/// The colexicographic rank of the set of cells in `mask` (bit c = cell c).
#[inline(always)]
pub fn subset_rank(binom: &Binomials, mask: u32) -> usize {
    let mut m = mask;
    let mut r = 0;
    let mut j = 1;
    while m != 0 {
        r += binom.get(m.trailing_zeros() as usize, j);
        j += 1;
        m &= m - 1;
    }
    r
}

/// The Lehmer rank of `pos[..k]`, a permutation of `0..k`.
#[inline(always)]
pub fn permutation_rank(pos: &[u8; MAX_GROUP_TILES], k: usize) -> usize {
    let mut used = 0u32;
    let mut r = 0;
    for (i, &p) in pos.iter().enumerate().take(k) {
        let below = (1u32 << p) - 1;
        let digit = p as usize - (used & below).count_ones() as usize;
        used |= 1 << p;
        r = r * (k - i) + digit;
    }
    r
}

/// The rank of a placement: `cells[i]` is the cell of the group's i-th tile.
///
/// Computed from pairwise comparisons only, which is branch-free and needs no popcount
/// instruction: with `pos_i = #{j : c_j < c_i}` (tile i's place among the occupied cells), the
/// subset rank is `Σ_i C(c_i, pos_i + 1)` and tile i's Lehmer digit is `#{j > i : c_j < c_i}`.
#[inline(always)]
pub fn rank(binom: &Binomials, cells: &[u8; MAX_GROUP_TILES], k: usize) -> usize {
    let mut below = [0usize; MAX_GROUP_TILES];
    let mut perm = 0;
    for i in 0..k {
        let mut later_smaller = 0;
        for j in i + 1..k {
            let lt = (cells[j] < cells[i]) as usize;
            later_smaller += lt;
            below[j] += 1 - lt;
        }
        below[i] += later_smaller;
        perm = perm * (k - i) + later_smaller;
    }
    let mut subset = 0;
    for i in 0..k {
        subset += binom.get(cells[i] as usize, below[i] + 1);
    }
    subset * FACTORIAL[k] + perm
}

/// [`rank`] for a group size known at compile time, so the comparison loops unroll fully (the
/// search calls this through a `match` on the group size, which predicts perfectly per group).
#[inline(always)]
pub fn rank_fixed<const K: usize>(binom: &Binomials, cells: &[u8; MAX_GROUP_TILES]) -> usize {
    // With `k` a constant once inlined, the loops of `rank` unroll.
    rank(binom, cells, K)
}

/// [`rank`], dispatched to [`rank_fixed`] for the group sizes the named partitions use.
#[inline(always)]
pub(crate) fn rank_dispatch(binom: &Binomials, cells: &[u8; MAX_GROUP_TILES], k: usize) -> usize {
    match k {
        3 => rank_fixed::<3>(binom, cells),
        5 => rank_fixed::<5>(binom, cells),
        6 => rank_fixed::<6>(binom, cells),
        7 => rank_fixed::<7>(binom, cells),
        8 => rank_fixed::<8>(binom, cells),
        _ => rank(binom, cells, k),
    }
}

/// All k-subsets of n cells as bit masks, in rank order (Gosper's hack enumerates masks with k
/// bits in increasing numeric order, which is colexicographic order).
pub(crate) fn subset_masks(n: usize, k: usize) -> Vec<u32> {
    let mut out = Vec::with_capacity(subsets(n, k));
    if k == 0 {
        out.push(0);
        return out;
    }
    let mut m: u64 = (1u64 << k) - 1;
    while m < (1u64 << n) {
        out.push(m as u32);
        let c = m & m.wrapping_neg();
        let r = m + c;
        m = (((r ^ m) >> 2) / c) | r;
    }
    out
}

/// Every permutation of `0..k` in Lehmer-rank order, `k` bytes each (the inverse of
/// [`permutation_rank`], as a table: 8! · 8 bytes = 315 KiB at most).
pub(crate) fn permutation_table(k: usize) -> Vec<[u8; MAX_GROUP_TILES]> {
    (0..FACTORIAL[k])
        .map(|mut r| {
            let mut digits = [0usize; MAX_GROUP_TILES];
            for i in (0..k).rev() {
                let base = k - i;
                digits[i] = r % base;
                r /= base;
            }
            let mut free: Vec<u8> = (0..k as u8).collect();
            let mut p = [0u8; MAX_GROUP_TILES];
            for i in 0..k {
                p[i] = free.remove(digits[i]);
            }
            p
        })
        .collect()
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// The inverse of [`rank`]: the cells of the group's tiles for a placement rank.
    pub(crate) fn unrank(r: usize, n: usize, k: usize) -> [u8; MAX_GROUP_TILES] {
        let masks = subset_masks(n, k);
        let mask = masks[r / FACTORIAL[k]];
        let pos = &permutation_table(k)[r % FACTORIAL[k]];
        let sorted: Vec<u8> = (0..n as u8).filter(|&c| mask >> c & 1 == 1).collect();
        let mut cells = [0u8; MAX_GROUP_TILES];
        for i in 0..k {
            cells[i] = sorted[pos[i] as usize];
        }
        cells
    }

    /// Every k-subset of n cells once, in increasing order, and nothing outside the n cells
    /// (Gosper's step past the last subset of one cell lands exactly on 2ⁿ).
    #[test]
    fn subset_masks_are_the_k_subsets_in_order() {
        for n in 1..=16 {
            for k in 0..=n.min(8) {
                let masks = subset_masks(n, k);
                assert_eq!(masks.len(), subsets(n, k), "n {n}, k {k}");
                assert!(masks.windows(2).all(|w| w[0] < w[1]), "n {n}, k {k}");
                assert!(
                    masks
                        .iter()
                        .all(|&m| m < 1 << n && m.count_ones() as usize == k),
                    "n {n}, k {k}"
                );
            }
        }
    }

    #[test]
    fn rank_is_a_bijection_onto_the_placements() {
        let b = Binomials::new();
        for (n, k) in [(9, 4), (6, 3), (16, 2), (5, 5), (9, 6), (10, 5)] {
            let total = placements(n, k);
            assert_eq!(subsets(n, k) * FACTORIAL[k], total);
            let mut seen = vec![false; total];
            for (r, slot) in seen.iter_mut().enumerate() {
                let cells = unrank(r, n, k);
                assert_eq!(rank_dispatch(&b, &cells, k), r);
                assert_eq!(rank(&b, &cells, k), r);
                let mut distinct = cells[..k].to_vec();
                distinct.sort();
                distinct.dedup();
                assert_eq!(distinct.len(), k);
                *slot = true;
            }
            assert!(seen.iter().all(|&s| s));
        }
    }

    #[test]
    fn fixed_size_ranks_agree_for_large_groups() {
        let b = Binomials::new();
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        for _ in 0..20_000 {
            let mut cells: Vec<u8> = (0..25).collect();
            for i in 0..8 {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                let j = i + (x % (25 - i as u64)) as usize;
                cells.swap(i, j);
            }
            let mut c = [0u8; MAX_GROUP_TILES];
            c.copy_from_slice(&cells[..8]);
            for k in [7, 8] {
                assert_eq!(rank_dispatch(&b, &c, k), rank(&b, &c, k));
            }
        }
    }

    #[test]
    fn sizes_of_the_issue() {
        assert_eq!(placements(16, 6), 5_765_760);
        assert_eq!(placements(16, 8), 518_918_400);
        assert_eq!(placements(25, 6), 127_512_000);
        assert_eq!(subset_masks(16, 8).len(), 12_870);
        let b = Binomials::new();
        for (i, &m) in subset_masks(10, 3).iter().enumerate() {
            assert_eq!(subset_rank(&b, m), i);
        }
    }
}
