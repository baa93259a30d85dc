//! Pattern-database tables checked against their definition before anything reads them.
//!
//! A table entry is the fewest moves *of the group's own tiles* that bring them home with the
//! blank back in its goal cell's region, the blank and the other tiles being otherwise free.
//!
//! The 5-5-5 and 6-6-3 tables (and the small custom ones) are compared entry by entry with the
//! definition itself ([`definition_entries`]: a breadth-first search from the goal over
//! (placement, blank cell), written here without the product's rank or region tables), so any
//! one entry off by one is caught. The 7-8 and 6-6-6-6 tables, 519 M and 4 × 128 M entries, are
//! too large for that here: a fixed-seed random sample of their entries gets the local check
//! [`bellman_errors`]. Moving one group tile into a neighbouring free cell costs 1, so, with `p'`
//! any placement one such move from `p`:
//! - `h(p) = 0` exactly at the goal placement;
//! - `h(p) ≥ 1 + min h(p')` (the first move of a cheapest way home leads to some `p'` no dearer
//!   than `h(p) − 1`);
//! - `h(p) ≤ 1 + h(p')` whenever the free cells of `p'` form one connected region (then the blank
//!   can be anywhere in `p'` for free, in particular where the moved tile came from, and the move
//!   can be made from `p`). Where every neighbour has one free region, the two inequalities are
//!   the Bellman equation `h(p) = 1 + min h(p')`; elsewhere only the lower bound holds, so an
//!   entry one too high there passes this check (6-6-3's entry 1,234,567, placement
//!   `[11, 6, 9, 8, 12, 10]` of tiles 10-15, whose free cells split into {13, 14, 15} and the
//!   rest, did).

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

/// An entry no search reached.
const UNREACHED: u8 = u8::MAX;

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
    let entries = table.values.to_vec();
    let errors = match sample_for(entries.len()) {
        None => definition_errors(goal, tiles, &entries),
        sample => pool.install(|| bellman_errors(goal, tiles, &entries, sample)),
    };
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

/// Every entry of a group's table from the definition itself, indexed `Σ cells[i] · nⁱ` (n the
/// board's cells; this index has nothing to do with the product's rank, and the indices of
/// placements with two tiles on one cell stay [`UNREACHED`]): a breadth-first search from the goal
/// placement with the blank on its goal cell, over (placement, blank cell), in which the blank
/// walks through the free cells at no cost and a group tile sliding into the blank costs 1; an
/// entry is the least distance of any of its blank cells. Unlike [`bellman_errors`], this knows
/// the distance of every blank region of a placement, so it needs no exception where the free
/// cells fall apart into several regions. One thread; about 58 M (placement, cell) states for a
/// six-tile group on 4×4.
pub fn definition_entries(goal: &Goal, tiles: &[u8]) -> Vec<u8> {
    let geo = Geometry::new(goal);
    let (n, k) = (geo.cells, tiles.len());
    let power: Vec<usize> = (0..k).map(|i| n.pow(i as u32)).collect();
    let states = n.pow(k as u32);
    let mut entries = vec![UNREACHED; states];
    let mut seen = vec![0u64; (states * n).div_ceil(64)];
    let home: usize = tiles
        .iter()
        .enumerate()
        .map(|(i, &t)| goal.cell_of(t) * power[i])
        .sum();
    // (placement index, blank cell) at the current distance, not yet flooded; the search starts
    // from the goal itself, the blank on its goal cell (the goal placement's other free regions,
    // if any, are not the goal).
    let mut current: Vec<(u32, u8)> = vec![(home as u32, goal.as_board().blank() as u8)];
    let mut depth = 0u8;
    let mut region = Vec::new();
    while !current.is_empty() {
        let mut next = Vec::new();
        for &(index, blank) in &current {
            let index = index as usize;
            let state = index * n + blank as usize;
            if seen[state / 64] >> (state % 64) & 1 == 1 {
                continue;
            }
            let mut tile_at = [usize::MAX; 32];
            let mut rest = index;
            for i in 0..k {
                tile_at[rest % n] = i;
                rest /= n;
            }
            // Flood the blank's region: every cell of it is at this distance.
            region.clear();
            region.push(blank as usize);
            seen[state / 64] |= 1 << (state % 64);
            let mut at = 0;
            while at < region.len() {
                let r = region[at];
                at += 1;
                for &a in &geo.adjacent[r] {
                    let a = a as usize;
                    let s = index * n + a;
                    if tile_at[a] == usize::MAX && seen[s / 64] >> (s % 64) & 1 == 0 {
                        seen[s / 64] |= 1 << (s % 64);
                        region.push(a);
                    }
                }
            }
            entries[index] = entries[index].min(depth);
            // A group tile next to the region slides into it, leaving the blank where it stood.
            for &r in &region {
                for &a in &geo.adjacent[r] {
                    let i = tile_at[a as usize];
                    if i != usize::MAX {
                        let moved = index - a as usize * power[i] + r * power[i];
                        let s = moved * n + a as usize;
                        if seen[s / 64] >> (s % 64) & 1 == 0 {
                            next.push((moved as u32, a));
                        }
                    }
                }
            }
        }
        current = next;
        depth += 1;
    }
    entries
}

/// [`definition_entries`], computed once per test process and table (tables in parallel).
pub fn definition(goal: &Goal, tiles: &[u8]) -> Arc<Vec<u8>> {
    type Exact = Mutex<HashMap<(String, Vec<u8>), Arc<OnceLock<Arc<Vec<u8>>>>>>;
    static EXACT: OnceLock<Exact> = OnceLock::new();
    let key = (format!("{} {}", goal.size(), goal.name()), tiles.to_vec());
    let cell = EXACT
        .get_or_init(Default::default)
        .lock()
        .unwrap()
        .entry(key)
        .or_default()
        .clone();
    cell.get_or_init(|| Arc::new(definition_entries(goal, tiles)))
        .clone()
}

/// Every entry of `entries` (in the product's rank order) that differs from
/// [`definition_entries`] (at most 20 listed), and whether the product's rank numbers the
/// placements one to one.
pub fn definition_errors(goal: &Goal, tiles: &[u8], entries: &[u8]) -> Vec<String> {
    let exact = definition(goal, tiles);
    let (n, k) = (Geometry::new(goal).cells, tiles.len());
    let binom = Binomials::new();
    let mut errors = Vec::new();
    let mut ranked = vec![false; entries.len()];
    let mut placements = 0usize;
    for (index, &want) in exact.iter().enumerate() {
        let mut cells = [0u8; MAX_GROUP_TILES];
        let mut rest = index;
        for cell in cells.iter_mut().take(k) {
            *cell = (rest % n) as u8;
            rest /= n;
        }
        let mask = cells[..k].iter().fold(0u32, |m, &c| m | 1 << c);
        if mask.count_ones() as usize != k {
            continue;
        }
        placements += 1;
        let r = rank(&binom, &cells, k);
        if r >= entries.len() || std::mem::replace(&mut ranked[r], true) {
            errors.push(format!(
                "placement {:?} has rank {r}, out of range or taken twice",
                &cells[..k]
            ));
        } else if entries[r] != want {
            errors.push(format!(
                "placement {:?} (entry {r}) holds {}, its definition gives {want}",
                &cells[..k],
                entries[r]
            ));
        }
        if errors.len() >= 20 {
            break;
        }
    }
    if errors.is_empty() && placements != entries.len() {
        errors.push(format!(
            "{placements} placements, but {} entries",
            entries.len()
        ));
    }
    errors
}
