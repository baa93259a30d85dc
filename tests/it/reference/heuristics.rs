//! Every heuristic of the product written again from its definition, evaluated on a whole board
//! (no incremental state, no packed tables): Manhattan distance, linear conflict (Hansson, Mayer &
//! Yung 1992: per line, the tiles in their goal line minus the longest increasing run of their
//! goal positions, two moves each), walking distance (Takahashi: breadth-first search over the
//! abstract row / column states), the max of several, and additive pattern databases, plain and
//! reflected. Pattern-database values are read from the product's tables, but only from tables
//! that `super::tables` has checked against their definition first.

use std::collections::{HashMap, VecDeque};
use std::sync::Arc;

use tilebench::board::Goal;
use tilebench::heuristic::HeuristicName;
use tilebench::pdb::rank::{rank, Binomials, MAX_GROUP_TILES};
use tilebench::pdb::Table;

use super::tables::checked_table;

/// Walking distance's abstract states (M flattened, the blank's line) and their distances.
type WalkingTable = HashMap<(Vec<u8>, u8), u32>;

/// A heuristic for one goal, from its definition.
pub enum Reference {
    Manhattan,
    LinearConflict,
    WalkingDistance(Box<[WalkingTable; 2]>),
    Pdb {
        groups: Vec<(Vec<u8>, Arc<Table>)>,
        reflected: bool,
    },
    Max(Vec<Reference>),
}

/// The goal's geometry: where each tile belongs.
pub struct Shape {
    pub width: usize,
    pub height: usize,
    pub goal: Vec<u8>,
    /// `home[t]`: tile t's goal cell.
    pub home: Vec<usize>,
}

impl Shape {
    pub fn new(goal: &Goal) -> Shape {
        let tiles = goal.tiles().to_vec();
        let mut home = vec![0; tiles.len()];
        for (c, &t) in tiles.iter().enumerate() {
            home[t as usize] = c;
        }
        Shape {
            width: goal.size().width as usize,
            height: goal.size().height as usize,
            goal: tiles,
            home,
        }
    }

    fn row(&self, c: usize) -> usize {
        c / self.width
    }

    fn col(&self, c: usize) -> usize {
        c % self.width
    }

    /// The cell mirrored about the main diagonal (square boards).
    fn transpose(&self, c: usize) -> usize {
        self.col(c) * self.width + self.row(c)
    }
}

impl Reference {
    /// The reference for a product heuristic name, `None` when that name has no reference here.
    pub fn new(name: &HeuristicName, goal: &Goal) -> Reference {
        let shape = Shape::new(goal);
        match name {
            HeuristicName::Manhattan => Reference::Manhattan,
            HeuristicName::LinearConflict => Reference::LinearConflict,
            HeuristicName::WalkingDistance => Reference::WalkingDistance(Box::new([
                walking_table(&shape, false),
                walking_table(&shape, true),
            ])),
            HeuristicName::Pdb(p) => {
                let partition = p.partition_for(goal).unwrap();
                let groups = partition
                    .groups()
                    .iter()
                    .map(|tiles| (tiles.clone(), checked_table(goal, tiles)))
                    .collect();
                Reference::Pdb {
                    groups,
                    reflected: p.reflected,
                }
            }
            HeuristicName::Max(m) => {
                Reference::Max(m.terms.iter().map(|t| Reference::new(t, goal)).collect())
            }
            // A registered heuristic, or a built-in one added since: no reference written here.
            other => unimplemented!("no reference for heuristic {other}"),
        }
    }

    /// h of the board `tiles`.
    pub fn h(&self, shape: &Shape, tiles: &[u8]) -> u32 {
        match self {
            Reference::Manhattan => manhattan(shape, tiles),
            Reference::LinearConflict => manhattan(shape, tiles) + 2 * conflicts(shape, tiles),
            Reference::WalkingDistance(parts) => {
                let v = &parts[0][&abstract_state(shape, tiles, false)];
                let h = &parts[1][&abstract_state(shape, tiles, true)];
                v + h
            }
            Reference::Pdb { groups, reflected } => {
                let own = pdb_sum(groups, tiles);
                if *reflected {
                    own.max(pdb_sum(groups, &mirrored(shape, tiles)))
                } else {
                    own
                }
            }
            Reference::Max(terms) => terms.iter().map(|t| t.h(shape, tiles)).max().unwrap(),
        }
    }
}

fn manhattan(s: &Shape, tiles: &[u8]) -> u32 {
    tiles
        .iter()
        .enumerate()
        .filter(|(_, &t)| t != 0)
        .map(|(c, &t)| {
            let home = s.home[t as usize];
            (s.row(c).abs_diff(s.row(home)) + s.col(c).abs_diff(s.col(home))) as u32
        })
        .sum()
}

/// Length of the longest strictly increasing subsequence (quadratic, on purpose).
fn longest_increasing(seq: &[usize]) -> usize {
    let mut best = vec![1; seq.len()];
    for i in 0..seq.len() {
        for j in 0..i {
            if seq[j] < seq[i] {
                best[i] = best[i].max(best[j] + 1);
            }
        }
    }
    best.into_iter().max().unwrap_or(0)
}

/// Over every row and column: the tiles in their goal line that must leave it so the others can
/// pass, i.e. their count minus the longest increasing run of their goal positions along it.
fn conflicts(s: &Shape, tiles: &[u8]) -> u32 {
    let mut total = 0;
    for r in 0..s.height {
        let seq: Vec<usize> = (0..s.width)
            .map(|c| tiles[r * s.width + c])
            .filter(|&t| t != 0 && s.row(s.home[t as usize]) == r)
            .map(|t| s.col(s.home[t as usize]))
            .collect();
        total += seq.len() - longest_increasing(&seq);
    }
    for c in 0..s.width {
        let seq: Vec<usize> = (0..s.height)
            .map(|r| tiles[r * s.width + c])
            .filter(|&t| t != 0 && s.col(s.home[t as usize]) == c)
            .map(|t| s.row(s.home[t as usize]))
            .collect();
        total += seq.len() - longest_increasing(&seq);
    }
    total as u32
}

/// The walking-distance abstraction of a board along one axis: `M[line][goal line]` (how many
/// tiles in each line belong to each goal line), flattened, and the blank's line. Lines are rows,
/// or columns when `columns`.
fn abstract_state(s: &Shape, tiles: &[u8], columns: bool) -> (Vec<u8>, u8) {
    let line = |c: usize| if columns { s.col(c) } else { s.row(c) };
    let lines = if columns { s.width } else { s.height };
    let mut m = vec![0u8; lines * lines];
    let mut blank = 0;
    for (c, &t) in tiles.iter().enumerate() {
        if t == 0 {
            blank = line(c) as u8;
        } else {
            m[line(c) * lines + line(s.home[t as usize])] += 1;
        }
    }
    (m, blank)
}

/// The distance of every abstract state to the goal's, by breadth-first search: a move takes the
/// blank to the next line and one tile of some goal line the other way.
fn walking_table(s: &Shape, columns: bool) -> WalkingTable {
    let lines = if columns { s.width } else { s.height };
    let start = abstract_state(s, &s.goal, columns);
    let mut dist = HashMap::from([(start.clone(), 0)]);
    let mut queue = VecDeque::from([start]);
    while let Some((m, b)) = queue.pop_front() {
        let d = dist[&(m.clone(), b)];
        let b = b as usize;
        for nb in [b.wrapping_sub(1), b + 1] {
            if nb >= lines {
                continue;
            }
            for g in 0..lines {
                if m[nb * lines + g] == 0 {
                    continue;
                }
                let mut next = m.clone();
                next[nb * lines + g] -= 1;
                next[b * lines + g] += 1;
                let key = (next, nb as u8);
                if !dist.contains_key(&key) {
                    dist.insert(key.clone(), d + 1);
                    queue.push_back(key);
                }
            }
        }
    }
    dist
}

/// The sum over groups of the table entry for where the group's tiles stand.
fn pdb_sum(groups: &[(Vec<u8>, Arc<Table>)], tiles: &[u8]) -> u32 {
    let binom = Binomials::new();
    groups
        .iter()
        .map(|(group, table)| {
            let mut cells = [0u8; MAX_GROUP_TILES];
            for (i, &t) in group.iter().enumerate() {
                cells[i] = tiles.iter().position(|&x| x == t).unwrap() as u8;
            }
            table.values.get(rank(&binom, &cells, group.len())) as u32
        })
        .sum()
}

/// The board mirrored about the main diagonal, relabelled so the goal maps onto itself: the tile
/// in cell c becomes the tile whose goal cell mirrors its own, in the mirror of cell c.
fn mirrored(s: &Shape, tiles: &[u8]) -> Vec<u8> {
    let mut out = vec![0; tiles.len()];
    for (c, &t) in tiles.iter().enumerate() {
        out[s.transpose(c)] = s.goal[s.transpose(s.home[t as usize])];
    }
    out
}
