//! A table's values in memory: one byte an entry, or four bits an entry for large tables.
//!
//! A group's value counts moves of its own tiles, each of which moves one tile one cell, so the
//! value is at least the Manhattan distance `md` of the group's tiles and has its parity. A large
//! table therefore stores only the *excess* `(value − md) / 2` in a nibble, and the lookup adds
//! back `md`, which the search computes from the same cells it ranks anyway. The 7-8 tables of
//! the 15-puzzle take 288 MB so instead of 577 MB (their largest excess is far below 16). A table
//! where some entry does not fit (an excess of 16 or more, or an unreached placement) stays in
//! bytes: the form is chosen per table when it is built or read, never assumed.
//!
//! The files on disk keep one byte an entry (format version 1), so that every tilebench binary
//! sharing a cache directory reads the same files; packing happens while a file is read, a block
//! of subsets at a time, so a table never needs its byte form and its packed form in memory at
//! once.

use std::fmt;

use rayon::prelude::*;

use crate::board::Goal;

use super::rank::{permutation_table, subset_masks, FACTORIAL, MAX_GROUP_TILES};
use super::Entries;

/// Tables of at least this many entries are packed when they can be (smaller ones fit the
/// caches, where a byte is as fast as a nibble and costs no Manhattan sum).
pub const PACK_FROM: usize = 32 << 20;

/// Largest excess a nibble holds.
const MAX_EXCESS: u8 = 15;

/// How to turn a placement rank into the Manhattan distance of the group's tiles.
#[derive(Clone)]
pub(crate) struct Layout {
    k: usize,
    /// The subsets of cells in rank order, as bit masks.
    masks: Vec<u32>,
    /// The permutations of `0..k` in rank order: tile i stands at the subset's `perm[i]`-th cell.
    perms: Vec<[u8; MAX_GROUP_TILES]>,
    /// `dist[i][cell]`: the distance of the group's i-th tile in `cell` from its goal cell.
    dist: [[u8; 32]; MAX_GROUP_TILES],
}

impl Layout {
    pub(crate) fn new(goal: &Goal, tiles: &[u8]) -> Layout {
        let size = goal.size();
        let k = tiles.len();
        let mut dist = [[0u8; 32]; MAX_GROUP_TILES];
        for (i, &t) in tiles.iter().enumerate() {
            let g = goal.cell_of(t);
            for (cell, d) in dist[i].iter_mut().enumerate().take(size.cells()) {
                *d = (size.row(cell).abs_diff(size.row(g)) + size.col(cell).abs_diff(size.col(g)))
                    as u8;
            }
        }
        Layout {
            k,
            masks: subset_masks(size.cells(), k),
            perms: permutation_table(k),
            dist,
        }
    }

    /// Placements per subset (k!).
    fn block(&self) -> usize {
        FACTORIAL[self.k]
    }

    /// The Manhattan distances of every placement of subset `s`, in rank order, into `out`
    /// (k! entries).
    fn manhattan(&self, s: usize, out: &mut [u8]) {
        let k = self.k;
        let mut cells = [0u8; MAX_GROUP_TILES];
        let mut m = self.masks[s];
        for c in cells.iter_mut().take(k) {
            *c = m.trailing_zeros() as u8;
            m &= m - 1;
        }
        // d[i][j]: tile i on the subset's j-th cell.
        let mut d = [[0u8; MAX_GROUP_TILES]; MAX_GROUP_TILES];
        for (row, dist) in d.iter_mut().zip(&self.dist).take(k) {
            for (x, &c) in row.iter_mut().zip(&cells).take(k) {
                *x = dist[c as usize & 31];
            }
        }
        for (o, p) in out.iter_mut().zip(&self.perms) {
            let mut md = 0u8;
            for (row, &j) in d.iter().zip(p).take(k) {
                md += row[j as usize & (MAX_GROUP_TILES - 1)];
            }
            *o = md;
        }
    }

    /// The Manhattan distance of placement `r`.
    fn manhattan_of(&self, r: usize) -> u8 {
        let (s, p) = (r / self.block(), r % self.block());
        let mut m = self.masks[s];
        let mut cells = [0u8; MAX_GROUP_TILES];
        for c in cells.iter_mut().take(self.k) {
            *c = m.trailing_zeros() as u8;
            m &= m - 1;
        }
        (0..self.k)
            .map(|i| self.dist[i][cells[self.perms[p][i] as usize] as usize & 31])
            .sum()
    }
}

/// Which form a table's values are in.
#[derive(Clone)]
enum Form {
    Bytes(Entries),
    /// Entry r's excess in the low nibble of byte r/2 when r is even, the high one when odd.
    Nibbles {
        excess: Entries,
        layout: Box<Layout>,
    },
}

/// A table's values (see the module comment).
#[derive(Clone)]
pub struct Values {
    form: Form,
    len: usize,
}

impl Values {
    /// Byte values as they are (for tables too small to pack, or that cannot be packed).
    pub fn bytes(entries: Entries) -> Values {
        Values {
            len: entries.len(),
            form: Form::Bytes(entries),
        }
    }

    /// The values of group `tiles` for `goal` from their byte form: packed when the table is
    /// large (at least [`PACK_FROM`] entries) and every entry fits, else as they are.
    pub fn new(goal: &Goal, tiles: &[u8], entries: Entries) -> Values {
        if !Values::worth_packing(entries.len(), tiles.len()) {
            return Values::bytes(entries);
        }
        let mut p = Packer::new(goal, tiles, entries.len());
        match p.push(&entries) {
            true => p.finish(),
            false => Values::bytes(entries),
        }
    }

    /// Whether a table of `len` entries for a group of `k` tiles is packed (if it fits).
    pub(crate) fn worth_packing(len: usize, k: usize) -> bool {
        len >= PACK_FROM && (2..=MAX_GROUP_TILES).contains(&k)
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Whether the values are four bits an entry.
    pub(crate) fn is_packed(&self) -> bool {
        matches!(self.form, Form::Nibbles { .. })
    }

    /// Bytes the values take in memory.
    pub fn memory_bytes(&self) -> usize {
        match &self.form {
            Form::Bytes(e) => e.len(),
            Form::Nibbles { excess, .. } => excess.len(),
        }
    }

    /// The value of placement `r` (slow for a packed table: it unranks `r`; the search uses
    /// [`Values::raw`] and [`Values::excess_in`] instead). Panics when `r` is out of range.
    pub fn get(&self, r: usize) -> u8 {
        assert!(r < self.len, "entry {r} of a table of {}", self.len);
        match &self.form {
            Form::Bytes(e) => e[r],
            Form::Nibbles { excess, layout } => {
                layout.manhattan_of(r) + 2 * ((excess[r / 2] >> (4 * (r & 1))) & 15)
            }
        }
    }

    /// The stored bytes: entry r's value at byte r, or (packed) its excess in the low nibble of
    /// byte r/2 when r is even and in the high one when odd; the value is then the Manhattan
    /// distance of the group's tiles plus twice the excess. For the search's lookups.
    #[inline(always)]
    pub fn raw(&self) -> &[u8] {
        match &self.form {
            Form::Bytes(e) => e,
            Form::Nibbles { excess, .. } => excess,
        }
    }

    /// The excess of entry `r` in a packed table's [`Values::raw`] bytes (0 past the end).
    #[inline(always)]
    pub fn excess_in(raw: &[u8], r: usize) -> u8 {
        (raw.get(r >> 1).copied().unwrap_or(0) >> ((r & 1) << 2)) & 15
    }

    /// Every value in rank order, one byte each.
    pub fn to_vec(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.len);
        self.for_each_block(1 << 22, |b| out.extend_from_slice(b));
        out
    }

    /// Calls `f` with the byte values in rank order, in blocks of about `want` entries (whole
    /// subsets for a packed table, unpacked one block at a time).
    pub(crate) fn for_each_block(&self, want: usize, mut f: impl FnMut(&[u8])) {
        match &self.form {
            Form::Bytes(e) => e.chunks(want.max(1)).for_each(f),
            Form::Nibbles { excess, layout } => {
                let block = layout.block();
                let per = (want / block).max(1);
                let subsets = self.len / block;
                let mut buf = vec![0u8; per * block];
                let mut s = 0;
                while s < subsets {
                    let n = per.min(subsets - s);
                    let out = &mut buf[..n * block];
                    out.par_chunks_mut(block).enumerate().for_each(|(j, o)| {
                        let sub = s + j;
                        layout.manhattan(sub, o);
                        let half = &excess[sub * block / 2..(sub + 1) * block / 2];
                        for (pair, &x) in o.chunks_exact_mut(2).zip(half) {
                            pair[0] += 2 * (x & 15);
                            pair[1] += 2 * (x >> 4);
                        }
                    });
                    f(out);
                    s += n;
                }
            }
        }
    }
}

/// Packs byte values arriving in rank order, in blocks of whole subsets.
pub(crate) struct Packer {
    excess: Entries,
    layout: Box<Layout>,
    len: usize,
    /// Entries packed so far.
    done: usize,
}

impl Packer {
    pub(crate) fn new(goal: &Goal, tiles: &[u8], len: usize) -> Packer {
        Packer {
            excess: Entries::filled(len / 2, 0),
            layout: Box::new(Layout::new(goal, tiles)),
            len,
            done: 0,
        }
    }

    /// Entries per subset: blocks given to [`Packer::push`] are whole multiples of it.
    pub(crate) fn block(&self) -> usize {
        self.layout.block()
    }

    /// Packs the next values (a whole number of subsets); false when one does not fit a nibble
    /// (below its Manhattan distance, of the other parity, or 16 or more above it by twice).
    pub(crate) fn push(&mut self, values: &[u8]) -> bool {
        let block = self.layout.block();
        assert!(values.len().is_multiple_of(block) && self.done + values.len() <= self.len);
        let first = self.done / block;
        let layout = &*self.layout;
        let out = &mut self.excess[self.done / 2..(self.done + values.len()) / 2];
        let fits = out
            .par_chunks_mut(block / 2)
            .zip(values.par_chunks(block))
            .enumerate()
            .map(|(j, (o, v))| {
                let mut md = vec![0u8; block];
                layout.manhattan(first + j, &mut md);
                let mut ok = true;
                for ((o, v), m) in o.iter_mut().zip(v.chunks_exact(2)).zip(md.chunks_exact(2)) {
                    let e0 = excess(v[0], m[0]);
                    let e1 = excess(v[1], m[1]);
                    ok &= e0.is_some() && e1.is_some();
                    *o = e0.unwrap_or(0) | e1.unwrap_or(0) << 4;
                }
                ok
            })
            .reduce(|| true, |a, b| a && b);
        self.done += values.len();
        fits
    }

    pub(crate) fn finish(self) -> Values {
        assert_eq!(self.done, self.len, "a table packed in part");
        Values {
            form: Form::Nibbles {
                excess: self.excess,
                layout: self.layout,
            },
            len: self.len,
        }
    }
}

/// `(value − md) / 2` when it fits a nibble.
fn excess(value: u8, md: u8) -> Option<u8> {
    let d = value.checked_sub(md)?;
    (d % 2 == 0 && d / 2 <= MAX_EXCESS).then_some(d / 2)
}

/// Equal when every value is (whatever the form).
impl PartialEq for Values {
    fn eq(&self, other: &Values) -> bool {
        match (&self.form, &other.form) {
            (Form::Bytes(a), Form::Bytes(b)) => **a == **b,
            _ => self.len == other.len && self.to_vec() == other.to_vec(),
        }
    }
}

impl Eq for Values {}

impl fmt::Debug for Values {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Values({} entries, {} bytes{})",
            self.len,
            self.memory_bytes(),
            if self.is_packed() {
                ", 4 bits each"
            } else {
                ""
            }
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Size;

    /// A group's byte table packs to half its bytes and every value reads back the same, by
    /// the lookup (Manhattan plus twice the excess), by `get` and by the blocks written to disk.
    #[test]
    fn packed_values_read_back_exactly() {
        let goal = Goal::blank_first(Size::new(4, 4).unwrap());
        let tiles = [1u8, 2, 3, 4, 5];
        let table = crate::pdb::build(&goal, &tiles, &crate::pdb::Silent);
        let bytes = table.values.to_vec();
        let mut p = Packer::new(&goal, &tiles, bytes.len());
        let block = p.block();
        for chunk in bytes.chunks(block * 7) {
            assert!(p.push(chunk));
        }
        let packed = p.finish();
        assert!(packed.is_packed());
        assert_eq!(packed.memory_bytes(), bytes.len() / 2);
        // Debug names the form, never prints the entries (an error holding a table stays short).
        assert_eq!(
            format!("{packed:?}"),
            format!(
                "Values({} entries, {} bytes, 4 bits each)",
                bytes.len(),
                bytes.len() / 2
            )
        );
        let n = bytes.len();
        assert!(!packed.is_empty() && !table.values.is_empty() && packed.len() == n);
        assert!(Values::bytes(Entries::from_slice(&[])).is_empty());
        assert_eq!(
            format!("{:?}", table.values),
            format!("Values({n} entries, {n} bytes)")
        );
        assert_eq!(packed.to_vec(), bytes);
        // In batches of a few subsets too (as a 7-8 table is written and hashed): every batch
        // in order, not the first over and over.
        let mut batches = (Vec::new(), 0);
        packed.for_each_block(3 * block, |b| {
            batches.0.extend_from_slice(b);
            batches.1 += 1;
        });
        assert_eq!(batches.0, bytes);
        assert!(batches.1 > 2, "{} batches", batches.1);
        let layout = Layout::new(&goal, &tiles);
        let binom = crate::pdb::rank::Binomials::new();
        for r in (0..bytes.len()).step_by(97) {
            assert_eq!(packed.get(r), bytes[r], "entry {r}");
            let cells = crate::pdb::rank::tests::unrank(r, 16, tiles.len());
            assert_eq!(crate::pdb::rank::rank(&binom, &cells, 5), r);
            let md: u8 = (0..5).map(|i| layout.dist[i][cells[i] as usize]).sum();
            assert_eq!(
                md + 2 * Values::excess_in(packed.raw(), r),
                bytes[r],
                "entry {r}"
            );
        }
        assert_eq!(packed, Values::bytes(Entries::from_slice(&bytes)));
    }

    /// A value that does not fit (one excess of 16) leaves the table in bytes.
    #[test]
    fn values_that_do_not_fit_stay_bytes() {
        let goal = Goal::blank_first(Size::new(4, 4).unwrap());
        let tiles = [1u8, 2, 3];
        let table = crate::pdb::build(&goal, &tiles, &crate::pdb::Silent);
        let mut bytes = table.values.to_vec();
        let mut p = Packer::new(&goal, &tiles, bytes.len());
        assert!(p.push(&bytes));
        assert!(p.finish().is_packed());
        bytes[100] += 32;
        let mut p = Packer::new(&goal, &tiles, bytes.len());
        assert!(!p.push(&bytes));
        bytes[100] -= 31;
        let mut p = Packer::new(&goal, &tiles, bytes.len());
        assert!(!p.push(&bytes), "the other parity");
        assert_eq!(excess(3, 5), None);
        assert_eq!(excess(35, 5), Some(15));
        assert_eq!(excess(37, 5), None);
        assert!(!Values::worth_packing(PACK_FROM - 1, 6));
        assert!(Values::worth_packing(PACK_FROM, 6));
    }
}
