//! The additive pattern-database heuristic and its reflected variant.
//!
//! The state carries each group's current value and their sum. A move changes one tile's cell, so
//! [`Heuristic::update`] re-ranks only that tile's group (with `to` substituted for the moved
//! tile's cell) and reads one byte, or for a packed table one nibble, to which it adds the
//! Manhattan distance of the group's tiles (see [`crate::pdb::values`]), kept per group in the
//! state and changed by the moved tile's step alone. The reflected variant also keeps the sums for the board
//! mirrored about the main diagonal (tile `t` at cell `c` becomes tile `mirror(t)` at cell
//! `transpose(c)`, which maps the goal onto itself) and takes the larger sum; a move of tile `x`
//! is a move of `mirror(x)` on the mirrored board, so it too re-ranks one group.

use std::sync::Arc;

use crate::board::{Goal, Grid, GRID_CELLS};
use crate::pdb::partition::MAX_GROUPS;
use crate::pdb::rank::{rank_dispatch, Binomials, MAX_GROUP_TILES};
use crate::pdb::{Partition, Table, Values};

use super::distance::ix;
use super::distance::TileDistances;
use super::Heuristic;

/// One group's tiles and table.
#[derive(Debug, Clone)]
struct Group {
    tiles: [u8; MAX_GROUP_TILES],
    k: usize,
    /// Whether the table is four bits an entry (the value then needs the group's Manhattan sum).
    packed: bool,
    table: Arc<Table>,
}

/// The sum of the groups' table values.
#[derive(Debug, Clone)]
pub struct Pdb {
    groups: Vec<Group>,
    /// `group_of[tile]`: the group holding `tile` (unused for the blank).
    group_of: [u8; GRID_CELLS],
    binom: Binomials,
    /// For the packed tables' lookups.
    md: TileDistances,
}

/// Where a lookup goes: group `g`'s entry `i`, and (for a packed table, else 0) the Manhattan
/// distance of the group's tiles in that placement.
#[derive(Debug, Clone, Copy)]
struct Target {
    g: usize,
    i: usize,
    md: u8,
}

/// Per-group values and their sum; for packed tables also each group's Manhattan sum, kept
/// up to date by one move's ±1 rather than summed over the group's cells at every lookup.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PdbState {
    vals: [u8; MAX_GROUPS],
    md: [u8; MAX_GROUPS],
    sum: u32,
}

impl Pdb {
    /// A heuristic from the tables of `partition`'s groups (in the partition's order), as loaded
    /// by [`crate::pdb::load_or_build`].
    pub fn new(partition: &Partition, tables: Vec<Arc<Table>>) -> Pdb {
        assert_eq!(partition.groups().len(), tables.len());
        let md = TileDistances::new(&tables[0].goal);
        let mut group_of = [0u8; GRID_CELLS];
        let groups = partition
            .groups()
            .iter()
            .zip(tables)
            .enumerate()
            .map(|(g, (tiles, table))| {
                assert_eq!(&table.tiles, tiles, "table for another group");
                let mut t = [0u8; MAX_GROUP_TILES];
                t[..tiles.len()].copy_from_slice(tiles);
                for &tile in tiles {
                    group_of[tile as usize] = g as u8;
                }
                Group {
                    tiles: t,
                    k: tiles.len(),
                    packed: table.values.is_packed(),
                    table,
                }
            })
            .collect();
        Pdb {
            groups,
            group_of,
            binom: Binomials::new(),
            md,
        }
    }

    /// Where group `g`'s value lies in its table when tile `t` of the group stands at `cell(t)`.
    #[inline(always)]
    fn target(&self, g: usize, cell: impl Fn(u8) -> u8) -> Target {
        let group = &self.groups[g];
        let mut md = 0;
        if group.packed {
            for &t in &group.tiles[..group.k] {
                md += self.md.distance(t, cell(t) as usize) as u8;
            }
        }
        Target {
            g,
            i: self.rank(g, cell),
            md,
        }
    }

    /// The entry of group `g` when tile `t` of the group stands at `cell(t)`.
    #[inline(always)]
    fn rank(&self, g: usize, cell: impl Fn(u8) -> u8) -> usize {
        let group = &self.groups[g];
        let mut cells = [0u8; MAX_GROUP_TILES];
        for (c, &t) in cells.iter_mut().zip(&group.tiles).take(group.k) {
            *c = cell(t);
        }
        rank_dispatch(&self.binom, &cells, group.k)
    }

    /// The target of a move of `tile` from `from` to `to` in group `g`, whose state is `s`: the
    /// group's Manhattan sum changes by the tile's alone.
    #[inline(always)]
    fn moved_target(
        &self,
        s: &PdbState,
        g: usize,
        (tile, from, to): (u8, usize, usize),
        cell: impl Fn(u8) -> u8,
    ) -> Target {
        let g = g & (MAX_GROUPS - 1);
        let md = if self.groups[g].packed {
            s.md[g] + self.md.distance(tile, to) as u8 - self.md.distance(tile, from) as u8
        } else {
            0
        };
        Target {
            g,
            i: self.rank(g, cell),
            md,
        }
    }

    /// The value at a lookup's target.
    #[inline(always)]
    fn value_at(&self, t: Target) -> u8 {
        let group = &self.groups[t.g];
        let raw = group.table.values.raw();
        if group.packed {
            t.md + 2 * Values::excess_in(raw, t.i)
        } else {
            raw[t.i]
        }
    }

    /// Asks for a lookup's entry ahead of its use, so that its cache miss overlaps other work (a
    /// large table's lookup is a miss more often than not).
    #[inline(always)]
    fn prefetch(&self, t: Target) {
        let group = &self.groups[t.g];
        let at = if group.packed { t.i >> 1 } else { t.i };
        #[cfg(target_arch = "x86_64")]
        if let Some(e) = group.table.values.raw().get(at) {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            // SAFETY: a prefetch is a hint only: it never faults and changes nothing the program
            // can observe, and the pointer comes from a live reference into the table anyway.
            unsafe { _mm_prefetch::<_MM_HINT_T0>((e as *const u8).cast::<i8>()) }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = at;
    }

    fn state(&self, cell: impl Fn(u8) -> u8 + Copy) -> PdbState {
        let mut s = PdbState {
            vals: [0; MAX_GROUPS],
            md: [0; MAX_GROUPS],
            sum: 0,
        };
        for g in 0..self.groups.len() {
            let t = self.target(g, cell);
            s.vals[g] = self.value_at(t);
            s.md[g] = t.md;
            s.sum += s.vals[g] as u32;
        }
        s
    }

    /// The entry of the group of `tile` once `tile` slides from `from` on `grid` (state `s`)
    /// into the blank at `to`.
    #[inline(always)]
    fn target_after(&self, s: &PdbState, grid: &Grid, tile: u8, from: usize, to: usize) -> Target {
        let g = self.group_of[ix(tile)] as usize;
        self.moved_target(s, g, (tile, from, to), |t| {
            if t == tile {
                to as u8
            } else {
                grid.cell_of[ix(t)]
            }
        })
    }

    /// The state after a move that puts group `t.g` at entry `t.i` of its table.
    #[inline(always)]
    fn moved_at(&self, s: &PdbState, t: Target) -> PdbState {
        let v = self.value_at(t);
        let mut n = *s;
        let g = t.g & (MAX_GROUPS - 1);
        n.sum = n.sum + v as u32 - n.vals[g] as u32;
        n.vals[g] = v;
        n.md[g] = t.md;
        n
    }

    /// Bytes of the groups' tables in memory (shared by every search that uses them).
    pub fn table_bytes(&self) -> u64 {
        table_bytes_once(self.tables())
    }

    /// The groups' tables (a table may serve several heuristics: the cache loads it once).
    pub(crate) fn tables(&self) -> impl Iterator<Item = &Arc<Table>> {
        self.groups.iter().map(|g| &g.table)
    }

    /// Each group's value on `grid`.
    #[cfg(test)]
    fn group_values(&self, grid: &Grid) -> Vec<u8> {
        let s = self.init(grid);
        s.vals[..self.groups.len()].to_vec()
    }
}

impl Heuristic for Pdb {
    type State = PdbState;

    fn init(&self, grid: &Grid) -> PdbState {
        self.state(|t| grid.cell_of[ix(t)])
    }

    #[inline(always)]
    fn h(&self, s: &PdbState) -> u32 {
        s.sum
    }

    #[inline(always)]
    fn update(&self, s: &PdbState, grid: &Grid, tile: u8, from: usize, to: usize) -> PdbState {
        self.moved_at(s, self.target_after(s, grid, tile, from, to))
    }
}

/// The larger of the additive sums for the board and for its mirror image.
#[derive(Debug, Clone)]
pub struct ReflectedPdb {
    pdb: Pdb,
    /// `mirror[t]`: the tile whose goal cell is the transpose of `t`'s.
    mirror: [u8; GRID_CELLS],
    /// `transpose[c]`: the cell mirrored about the main diagonal.
    transpose: [u8; GRID_CELLS],
    /// Whether some table is too large for the caches, so that ranking the second group up front
    /// to prefetch its entry pays (it does for 7-8, not for 6-6-3).
    prefetch: bool,
}

/// Tables at least this large are mostly cache misses (larger than a typical last-level cache).
const PREFETCH_BYTES: usize = 32 << 20;

/// The state of both lookups.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReflectedState {
    normal: PdbState,
    mirrored: PdbState,
}

impl ReflectedPdb {
    /// Requires a reflectable goal ([`Goal::is_reflectable`]); the caller checks.
    pub fn new(goal: &Goal, pdb: Pdb) -> ReflectedPdb {
        assert!(
            goal.is_reflectable(),
            "reflected lookups need a reflectable goal"
        );
        let size = goal.size();
        let mut mirror = [0u8; GRID_CELLS];
        let mut transpose = [0u8; GRID_CELLS];
        for c in 0..size.cells() {
            transpose[c] = size.transpose(c) as u8;
            mirror[c] = goal.mirror_tile(c as u8);
        }
        let prefetch = pdb
            .groups
            .iter()
            .any(|g| g.table.values.memory_bytes() >= PREFETCH_BYTES);
        ReflectedPdb {
            pdb,
            mirror,
            transpose,
            prefetch,
        }
    }

    /// The group and table entry the mirrored board's move re-ranks.
    #[inline(always)]
    fn mirrored_target(
        &self,
        s: &PdbState,
        grid: &Grid,
        tile: u8,
        from: usize,
        to: usize,
    ) -> Target {
        let mt = self.mirror[ix(tile)];
        let (mfrom, mto) = (self.transpose[ix(from)], self.transpose[ix(to)]);
        let g = self.pdb.group_of[ix(mt)] as usize;
        self.pdb
            .moved_target(s, g, (mt, mfrom as usize, mto as usize), |t| {
                if t == mt {
                    mto
                } else {
                    self.mirrored_cell(grid, t)
                }
            })
    }

    /// The cell of tile `t` on the mirrored board: where `mirror(t)` is, transposed.
    #[inline(always)]
    fn mirrored_cell(&self, grid: &Grid, t: u8) -> u8 {
        self.transpose[ix(grid.cell_of[ix(self.mirror[ix(t)])])]
    }
}

impl ReflectedPdb {
    /// Bytes of the tables (the mirrored lookups use the same ones).
    pub fn table_bytes(&self) -> u64 {
        self.pdb.table_bytes()
    }

    /// The tables, as [`Pdb::tables`].
    pub(crate) fn tables(&self) -> impl Iterator<Item = &Arc<Table>> {
        self.pdb.tables()
    }
}

/// Bytes in memory of `tables`, each table counted once however often it is listed (a group
/// shared by two partitions of a max is one table in memory).
pub(crate) fn table_bytes_once<'a>(tables: impl Iterator<Item = &'a Arc<Table>>) -> u64 {
    let mut seen = std::collections::HashSet::new();
    tables
        .filter(|t| seen.insert(Arc::as_ptr(t)))
        .map(|t| t.values.memory_bytes() as u64)
        .sum()
}

impl Heuristic for ReflectedPdb {
    type State = ReflectedState;
    const CUTS_LOOKUPS: bool = true;

    fn init(&self, grid: &Grid) -> ReflectedState {
        ReflectedState {
            normal: self.pdb.init(grid),
            mirrored: self.pdb.state(|t| self.mirrored_cell(grid, t)),
        }
    }

    #[inline(always)]
    fn h(&self, s: &ReflectedState) -> u32 {
        s.normal.sum.max(s.mirrored.sum)
    }

    #[inline(always)]
    fn update(
        &self,
        s: &ReflectedState,
        grid: &Grid,
        tile: u8,
        from: usize,
        to: usize,
    ) -> ReflectedState {
        self.update_below(s, grid, tile, from, to, u32::MAX)
            .expect("no sum reaches u32::MAX")
    }

    /// The second lookup only when the first sum stays below `cutoff` (h is the larger sum). The
    /// sum that was larger at the parent goes first: it is the likelier to reach the cutoff. With
    /// tables larger than the caches the second entry is prefetched before the first is read, so
    /// that when it is needed after all its cache miss has overlapped the first; with smaller
    /// ones it is not even ranked unless needed.
    #[inline(always)]
    fn update_below(
        &self,
        s: &ReflectedState,
        grid: &Grid,
        tile: u8,
        from: usize,
        to: usize,
        cutoff: u32,
    ) -> Option<ReflectedState> {
        if s.mirrored.sum > s.normal.sum {
            self.in_turn::<true>(s, grid, (tile, from, to), cutoff)
        } else {
            self.in_turn::<false>(s, grid, (tile, from, to), cutoff)
        }
    }
}

impl ReflectedPdb {
    /// [`Heuristic::update_below`] with the mirrored sum looked up first when `MIRRORED_FIRST`
    /// (a constant, so that each order is compiled on its own, without a branch per lookup).
    #[inline(always)]
    fn in_turn<const MIRRORED_FIRST: bool>(
        &self,
        s: &ReflectedState,
        grid: &Grid,
        mv: (u8, usize, usize),
        cutoff: u32,
    ) -> Option<ReflectedState> {
        let (first, second) = if MIRRORED_FIRST {
            (&s.mirrored, &s.normal)
        } else {
            (&s.normal, &s.mirrored)
        };
        let (a, b) = if self.prefetch {
            let later = self.target(s, !MIRRORED_FIRST, grid, mv);
            self.pdb.prefetch(later);
            let a = self
                .pdb
                .moved_at(first, self.target(s, MIRRORED_FIRST, grid, mv));
            if a.sum >= cutoff {
                return None;
            }
            (a, self.pdb.moved_at(second, later))
        } else {
            let a = self
                .pdb
                .moved_at(first, self.target(s, MIRRORED_FIRST, grid, mv));
            if a.sum >= cutoff {
                return None;
            }
            let b = self.target(s, !MIRRORED_FIRST, grid, mv);
            (a, self.pdb.moved_at(second, b))
        };
        Some(if MIRRORED_FIRST {
            ReflectedState {
                normal: b,
                mirrored: a,
            }
        } else {
            ReflectedState {
                normal: a,
                mirrored: b,
            }
        })
    }

    /// The entry the move re-ranks on the mirrored board, or on the board itself (`mirrored` is
    /// a constant where this is inlined).
    #[inline(always)]
    fn target(
        &self,
        s: &ReflectedState,
        mirrored: bool,
        grid: &Grid,
        (tile, from, to): (u8, usize, usize),
    ) -> Target {
        if mirrored {
            self.mirrored_target(&s.mirrored, grid, tile, from, to)
        } else {
            self.pdb.target_after(&s.normal, grid, tile, from, to)
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::board::{Board, Size};
    use crate::brute_force::{distances, unrank, UNREACHED};
    use crate::heuristic::tests::check_incremental;
    use crate::heuristic::Manhattan;
    use crate::pdb::CacheOptions;
    use crate::pdb::{load_or_build, Named};

    /// Tables for tests, cached under target/ so repeated runs only read and verify them.
    pub(crate) fn test_pdb(goal: &Goal, partition: &Partition) -> Pdb {
        let options = CacheOptions {
            pdb_dir: concat!(env!("CARGO_MANIFEST_DIR"), "/target/test-pdb-cache").into(),
            build_missing: true,
            ..CacheOptions::default()
        };
        let tables = partition
            .groups()
            .iter()
            .map(|tiles| load_or_build(goal, tiles, &options).unwrap())
            .collect();
        Pdb::new(partition, tables)
    }

    #[test]
    fn every_table_is_zero_at_the_goal() {
        let s33 = Size::new(3, 3).unwrap();
        let s44 = Size::new(4, 4).unwrap();
        let mut cases = vec![
            (
                Goal::blank_last(s33),
                Partition::parse("1,2,3,4/5,6,7,8", s33).unwrap(),
            ),
            (
                Goal::spiral(s33),
                Partition::parse("1,2,8/3,4/5,6,7", s33).unwrap(),
            ),
        ];
        for goal in [Goal::blank_first(s44), Goal::blank_last(s44)] {
            for named in [Named::P555, Named::P663] {
                cases.push((goal.clone(), named.for_goal(&goal).unwrap()));
            }
        }
        for (goal, partition) in cases {
            let pdb = test_pdb(&goal, &partition);
            let grid = Grid::new(&goal.as_board());
            assert!(pdb.group_values(&grid).iter().all(|&v| v == 0));
            assert_eq!(pdb.evaluate(&goal.as_board()), 0);
            let r = ReflectedPdb::new(&goal, pdb);
            assert_eq!(r.evaluate(&goal.as_board()), 0);
        }
    }

    /// On every solvable 3×3 board, both lookups are admissible and dominate Manhattan.
    /// What a run records as its heuristic's memory: the tables, once, however many lookups
    /// (the reflection reads the same ones).
    #[test]
    fn reflection_holds_no_tables_of_its_own() {
        let s = Size::new(3, 3).unwrap();
        let goal = Goal::blank_last(s);
        let pdb = test_pdb(&goal, &Partition::parse("1,2,3,4/5,6,7,8", s).unwrap());
        // Two tables of at least 9·8·7·6 placements of four tiles, at half a byte or more each.
        assert!(pdb.table_bytes() >= 9 * 8 * 7 * 6, "{}", pdb.table_bytes());
        let bytes = pdb.table_bytes();
        assert_eq!(ReflectedPdb::new(&goal, pdb).table_bytes(), bytes);
    }

    #[test]
    fn admissible_on_every_eight_puzzle_state() {
        let s = Size::new(3, 3).unwrap();
        for (goal, groups) in [
            (Goal::blank_last(s), "1,2,3,4/5,6,7,8"),
            (Goal::blank_first(s), "1,2,3,4/5,6,7,8"),
            (Goal::spiral(s), "1,2,3/4,5,6/7,8"),
            (Goal::blank_last(s), "1,2,4,5,7/3,6,8"),
        ] {
            let partition = Partition::parse(groups, s).unwrap();
            let pdb = test_pdb(&goal, &partition);
            let md = Manhattan::new(&goal);
            let reflected = ReflectedPdb::new(&goal, pdb.clone());
            let dist = distances(&goal);
            let (mut above_md, mut above_normal) = (0, 0);
            for (r, &d) in dist.iter().enumerate() {
                if d == UNREACHED {
                    continue;
                }
                let board = Board::from_tiles(s, &unrank(r, 9)).unwrap();
                let (h, hr, m) = (
                    pdb.evaluate(&board),
                    reflected.evaluate(&board),
                    md.evaluate(&board),
                );
                assert!(h <= d as u32, "{board}: pdb {h} > distance {d}");
                assert!(hr <= d as u32, "{board}: reflected {hr} > distance {d}");
                assert!(h >= m && hr >= h, "{board}: md {m} pdb {h} reflected {hr}");
                assert_eq!(h % 2, d as u32 % 2, "{board}: parity");
                above_md += (h > m) as usize;
                above_normal += (hr > h) as usize;
            }
            // The tables are informative: many states beat Manhattan, and the mirror adds more.
            assert!(
                above_md > 10_000,
                "{groups}: only {above_md} above Manhattan"
            );
            assert!(
                above_normal > 1_000,
                "{groups}: mirror raised only {above_normal}"
            );
        }
    }

    /// Tables packed to four bits an entry (as large ones are by default) give every 8-puzzle
    /// state the byte tables' values, looked up whole and updated move by move, plain and
    /// reflected.
    #[test]
    fn packed_tables_read_as_the_byte_tables() {
        let s = Size::new(3, 3).unwrap();
        let goal = Goal::blank_first(s);
        let partition = Partition::parse("1,2,3,4/5,6,7,8", s).unwrap();
        let bytes = test_pdb(&goal, &partition);
        let tables = bytes
            .groups
            .iter()
            .map(|g| {
                let v = g.table.values.to_vec();
                let mut packer = crate::pdb::values::Packer::new(&goal, &g.table.tiles, v.len());
                assert!(packer.push(&v), "group {:?} does not pack", g.table.tiles);
                Arc::new(Table {
                    values: packer.finish(),
                    ..(*g.table).clone()
                })
            })
            .collect();
        let packed = Pdb::new(&partition, tables);
        assert!(packed.groups.iter().all(|g| g.packed));
        let (rb, rp) = (
            ReflectedPdb::new(&goal, bytes.clone()),
            ReflectedPdb::new(&goal, packed.clone()),
        );
        for (r, &d) in distances(&goal).iter().enumerate() {
            if d == UNREACHED {
                continue;
            }
            let board = Board::from_tiles(s, &unrank(r, 9)).unwrap();
            assert_eq!(packed.evaluate(&board), bytes.evaluate(&board), "{board}");
            assert_eq!(rp.evaluate(&board), rb.evaluate(&board), "{board}");
        }
        assert_eq!(
            check_incremental(&packed, &goal, 3000, 11),
            check_incremental(&bytes, &goal, 3000, 11)
        );
        assert_eq!(
            check_incremental(&rp, &goal, 3000, 12),
            check_incremental(&rb, &goal, 3000, 12)
        );
    }

    /// `update_below` returns `update`'s state, or `None` only when that state's h reaches the
    /// cutoff; both orders of the two lookups are taken along a random walk.
    #[test]
    fn reflected_update_below_agrees_with_update() {
        let s = Size::new(4, 4).unwrap();
        let goal = Goal::blank_first(s);
        let r = ReflectedPdb::new(
            &goal,
            test_pdb(&goal, &Named::P663.for_goal(&goal).unwrap()),
        );
        let moves = crate::moves::MoveTable::new(s);
        let mut grid = Grid::new(&goal.as_board());
        let mut state = r.init(&grid);
        let mut blank = goal.cell_of(0);
        let (mut skipped, mut kept, mut mirrored_first) = (0, 0, 0);
        let mut x = 0x853C_49E6_748F_EA9Bu64;
        for _ in 0..4000 {
            mirrored_first += (state.mirrored.sum > state.normal.sum) as usize;
            let ops = moves.ops(blank);
            for op in ops {
                let to = op.to as usize;
                let tile = grid.tile_at[to];
                let full = r.update(&state, &grid, tile, to, blank);
                let h = r.h(&full);
                for cutoff in [h.saturating_sub(2), h, h + 1, h + 2] {
                    match r.update_below(&state, &grid, tile, to, blank, cutoff) {
                        Some(c) => {
                            assert_eq!(c, full);
                            kept += 1;
                        }
                        None => {
                            assert!(h >= cutoff, "h {h} below cutoff {cutoff}");
                            skipped += 1;
                        }
                    }
                }
            }
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let op = ops[(x % ops.len() as u64) as usize];
            let to = op.to as usize;
            state = r.update(&state, &grid, grid.tile_at[to], to, blank);
            grid.slide(to, blank);
            blank = to;
        }
        assert!(skipped > 1000 && kept > 1000 && mirrored_first > 100);
    }

    #[test]
    fn fifteen_puzzle_lookups_dominate_manhattan_and_flip_parity() {
        let s = Size::new(4, 4).unwrap();
        for (goal, named) in [
            (Goal::blank_first(s), Named::P663),
            (Goal::blank_last(s), Named::P555),
        ] {
            let pdb = test_pdb(&goal, &named.for_goal(&goal).unwrap());
            let md = Manhattan::new(&goal);
            let seen = check_incremental(&pdb, &goal, 3000, 7);
            // Every move changes h by an odd amount (each group's value has the parity of its
            // tiles' Manhattan sum). It is not always ±1: a table keeps the minimum over the
            // blank's regions, and the region the blank is actually in may cost more, e.g. on
            // 1 5 2 3 8 4 10 7 6 0 12 14 13 9 15 11 (blank-first, 6-6-3) tile 12 sliding left
            // takes the group 1,4,5,8,9,12 from 10 to 7. The lookups are admissible but not
            // consistent, which IDA* tolerates.
            assert!(seen.windows(2).all(|w| w[0].abs_diff(w[1]) % 2 == 1));
            let reflected = ReflectedPdb::new(&goal, pdb.clone());
            let seen_r = check_incremental(&reflected, &goal, 3000, 8);
            // Both sums have the parity of the board's Manhattan distance, so their max does too.
            assert!(seen_r.windows(2).all(|w| w[0].abs_diff(w[1]) % 2 == 1));
            // Random boards far from the goal (random permutations of the right parity).
            let mut rng = 0x9E37_79B9_7F4A_7C15u64;
            let mut checked = 0;
            while checked < 500 {
                let mut tiles: Vec<u8> = (0..16).collect();
                for i in (1..16).rev() {
                    rng ^= rng << 13;
                    rng ^= rng >> 7;
                    rng ^= rng << 17;
                    tiles.swap(i, (rng % (i as u64 + 1)) as usize);
                }
                let board = Board::from_tiles(s, &tiles).unwrap();
                if !board.is_solvable(&goal).unwrap() {
                    continue;
                }
                let (h, m) = (pdb.evaluate(&board), md.evaluate(&board));
                assert!(h >= m && h % 2 == m % 2, "{board}: pdb {h} md {m}");
                assert!(reflected.evaluate(&board) >= h);
                checked += 1;
            }
        }
    }
}
