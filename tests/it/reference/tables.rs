//! Pattern-database tables checked against their definition before anything reads them.
//!
//! A table entry is the fewest moves *of the group's own tiles* that bring them home, the blank
//! and the other tiles being free. Moving one group tile into a neighbouring free cell costs 1,
//! so, with `p'` any placement one such move from `p`:
//! - `h(p) = 0` exactly at the goal placement;
//! - `h(p) ≥ 1 + min h(p')` (the first move of a cheapest way home leads to some `p'` no dearer
//!   than `h(p) − 1`);
//! - `h(p) ≤ 1 + h(p')` whenever the free cells of `p'` form one connected region (then the blank
//!   can be anywhere in `p'` for free, in particular where the moved tile came from, and the move
//!   can be made from `p`). Where every neighbour has one free region, the two inequalities are
//!   the Bellman equation `h(p) = 1 + min h(p')`; a few placements whose neighbours wall the blank
//!   into a corner get the lower bound alone.
//!
//! The 5-5-5 and 6-6-3 tables (and the small custom ones) are checked entry by entry; the 7-8
//! and 6-6-6-6 tables, 519 M and 4 × 128 M entries, on a fixed-seed random sample.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};
use rayon::prelude::*;

use tilebench::board::Goal;
use tilebench::brute_force::blank_moves;
use tilebench::pdb::rank::{rank, Binomials, MAX_GROUP_TILES};
use tilebench::pdb::Table;

use crate::common;

/// Tables up to this many entries are checked in full (6-6-3's six-tile tables: 5,765,760).
pub const FULL_CHECK_ENTRIES: usize = 6_000_000;

/// Entries checked in a larger table.
pub const SAMPLE: usize = 300_000;

/// The table of `tiles` for `goal` from the tests' cache, after its check has passed (once per
/// test process and table).
pub fn checked_table(goal: &Goal, tiles: &[u8]) -> Arc<Table> {
    type Checked = Mutex<HashMap<(String, Vec<u8>), Arc<Table>>>;
    static CHECKED: OnceLock<Checked> = OnceLock::new();
    let key = (format!("{} {}", goal.size(), goal.name()), tiles.to_vec());
    // Held while checking, so each table is loaded and checked once.
    let mut checked = CHECKED.get_or_init(Default::default).lock().unwrap();
    if let Some(t) = checked.get(&key) {
        return t.clone();
    }
    let table = tilebench::pdb::load_or_build(goal, tiles, &common::test_pdb_options()).unwrap();
    // On a pool of its own: threads of the global pool may be waiting for this lock.
    let pool = rayon::ThreadPoolBuilder::new().build().unwrap();
    let errors = pool.install(|| {
        bellman_errors(
            goal,
            tiles,
            &table.values.to_vec(),
            sample_for(table.values.len()),
        )
    });
    assert!(
        errors.is_empty(),
        "the {} table of group {tiles:?} breaks its definition:\n{}",
        key.0,
        errors.join("\n")
    );
    checked.insert(key, table.clone());
    table
}

/// `None` (check every entry) for tables up to [`FULL_CHECK_ENTRIES`], else [`SAMPLE`].
pub fn sample_for(entries: usize) -> Option<usize> {
    (entries > FULL_CHECK_ENTRIES).then_some(SAMPLE)
}

/// The board's geometry as the check needs it.
struct Geometry {
    cells: usize,
    /// `adjacent[c]`: the cells one move from c, as a bit mask and as a list.
    adjacent_mask: Vec<u32>,
    adjacent: Vec<Vec<u8>>,
}

impl Geometry {
    fn new(goal: &Goal) -> Geometry {
        let (w, h) = (goal.size().width as usize, goal.size().height as usize);
        let adjacent: Vec<Vec<u8>> = (0..w * h)
            .map(|c| blank_moves(w, h, c).map(|x| x as u8).collect())
            .collect();
        Geometry {
            cells: w * h,
            adjacent_mask: adjacent
                .iter()
                .map(|a| a.iter().fold(0, |m, &c| m | 1 << c))
                .collect(),
            adjacent,
        }
    }

    /// Whether the cells of `free` form one connected region (flood fill from the lowest).
    fn one_region(&self, free: u32) -> bool {
        if free == 0 {
            return true;
        }
        let mut reach = free & free.wrapping_neg();
        loop {
            let mut next = reach;
            let mut bits = reach;
            while bits != 0 {
                let c = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                next |= self.adjacent_mask[c] & free;
            }
            if next == reach {
                return reach == free;
            }
            reach = next;
        }
    }
}

/// Every violation of the definition (at most 20 listed) among the table's entries: all of
/// them, or `sample` random placements of a fixed seed.
pub fn bellman_errors(
    goal: &Goal,
    tiles: &[u8],
    entries: &[u8],
    sample: Option<usize>,
) -> Vec<String> {
    let geo = Geometry::new(goal);
    let k = tiles.len();
    let mut home = [0u8; MAX_GROUP_TILES];
    for (i, &t) in tiles.iter().enumerate() {
        home[i] = goal.cell_of(t) as u8;
    }
    let binom = Binomials::new();
    let check = |cells: &[u8; MAX_GROUP_TILES]| -> Option<String> {
        let v = entries[rank(&binom, cells, k)] as u32;
        if cells[..k] == home[..k] {
            return (v != 0).then(|| format!("goal placement holds {v}, not 0"));
        }
        let mask = cells[..k].iter().fold(0u32, |m, &c| m | 1 << c);
        let full = if geo.cells == 32 {
            u32::MAX
        } else {
            (1u32 << geo.cells) - 1
        };
        let mut least = u32::MAX;
        for i in 0..k {
            for &b in &geo.adjacent[cells[i] as usize] {
                if mask >> b & 1 == 1 {
                    continue;
                }
                let mut next = *cells;
                next[i] = b;
                let w = entries[rank(&binom, &next, k)] as u32;
                least = least.min(w);
                let free = full & !(mask ^ 1 << cells[i] ^ 1 << b);
                if v > w + 1 && geo.one_region(free) {
                    return Some(format!(
                        "placement {:?} holds {v}, but moving tile {} to cell {b} reaches \
                         {:?} holding {w}",
                        &cells[..k],
                        tiles[i],
                        &next[..k]
                    ));
                }
            }
        }
        (v == 0 || v > 200 || least + 1 > v).then(|| {
            format!(
                "placement {:?} holds {v}, its neighbours at least {least}",
                &cells[..k]
            )
        })
    };
    let errors: Vec<String> = match sample {
        Some(n) => {
            let mut rng = ChaCha8Rng::seed_from_u64(0x7ab1e5 ^ tiles.len() as u64);
            let placements: Vec<[u8; MAX_GROUP_TILES]> = (0..n)
                .map(|_| {
                    let mut all: Vec<u8> = (0..geo.cells as u8).collect();
                    let mut cells = [0u8; MAX_GROUP_TILES];
                    for (i, cell) in cells.iter_mut().enumerate().take(k) {
                        let j = i + (rng.next_u64() % (geo.cells - i) as u64) as usize;
                        all.swap(i, j);
                        *cell = all[i];
                    }
                    cells
                })
                .collect();
            placements
                .par_iter()
                .filter_map(check)
                .take_any(20)
                .collect()
        }
        None => {
            // Every placement: the first tile's cell in parallel, the rest by recursion.
            fn each(
                cells: &mut [u8; MAX_GROUP_TILES],
                i: usize,
                k: usize,
                n: usize,
                used: u32,
                f: &mut dyn FnMut(&[u8; MAX_GROUP_TILES]),
            ) {
                if i == k {
                    return f(cells);
                }
                for c in 0..n as u8 {
                    if used >> c & 1 == 0 {
                        cells[i] = c;
                        each(cells, i + 1, k, n, used | 1 << c, f);
                    }
                }
            }
            let counted: Vec<(usize, Vec<String>)> = (0..geo.cells as u8)
                .into_par_iter()
                .map(|first| {
                    let (mut seen, mut errors) = (0, Vec::new());
                    let mut cells = [0u8; MAX_GROUP_TILES];
                    cells[0] = first;
                    each(&mut cells, 1, k, geo.cells, 1 << first, &mut |p| {
                        seen += 1;
                        if errors.len() < 20 {
                            errors.extend(check(p));
                        }
                    });
                    (seen, errors)
                })
                .collect();
            let seen: usize = counted.iter().map(|c| c.0).sum();
            let mut errors: Vec<String> = counted.into_iter().flat_map(|c| c.1).collect();
            if seen != entries.len() {
                errors.push(format!("{seen} placements, but {} entries", entries.len()));
            }
            errors
        }
    };
    errors.into_iter().take(20).collect()
}
