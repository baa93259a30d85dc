//! Partitions of the tiles into disjoint groups: Korf & Felner's named ones and custom ones
//! given on the command line.
//!
//! Korf & Felner (2002) group the tiles of the goal into contiguous regions. Their goal has the
//! blank first (top-left); the groups, by goal cell (= tile number for that goal):
//!
//! ```text
//! 15-puzzle           cells / tiles (blank-first)        blank-last (rotated 180°)
//!  0  1  2  3   7-8:   {1..7} {8..15}                    {9..15} {1..8}
//!  4  5  6  7   6-6-3: {1,2,3,4,5,6} {8,9,10,12,13,14}    {10,11,12,13,14,15} {2,3,4,6,7,8}
//!  8  9 10 11          {7,11,15}                          {1,5,9}
//! 12 13 14 15   5-5-5: {1,2,4,5,8} {3,6,7,10,11}          {8,11,12,14,15} {5,6,9,10,13}
//!                      {9,12,13,14,15}                    {1,2,3,4,7}
//!
//! 24-puzzle, 6-6-6-6 (blank-first): {1,5,6,10,11,12} {2,3,4,7,8,9}
//!                                   {13,14,18,19,23,24} {15,16,17,20,21,22}
//! ```
//!
//! A named partition is defined by goal *cells* with the blank in the top-left corner; for a goal
//! with the blank in the bottom-right corner (blank-last) the regions are rotated by 180°, which
//! keeps them contiguous and keeps the same relation to the blank. The 7-8 and 6-6-6-6 groupings
//! are Korf & Felner's (our 7-8 tables reproduce their mean h(start) on Korf's 100 to within
//! 0.05 and their node counts to within 5%). Their 6-6-3 and 5-5-5 figures could not be consulted
//! here: the groupings above are contiguous regions chosen for the highest mean h(start) among
//! the candidates tried (42.53 and 41.73, against their published 42.924 and 41.562), so node
//! counts differ from theirs; see `docs/pattern-databases.md`.

use std::fmt;

use crate::board::{Goal, Size};

use super::rank::MAX_GROUP_TILES;
use super::PdbError;

/// Most groups in one partition.
pub const MAX_GROUPS: usize = 8;

/// Korf & Felner's partitions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Named {
    P555,
    P663,
    P78,
    P6666,
}

impl Named {
    pub const ALL: [Named; 4] = [Named::P555, Named::P663, Named::P78, Named::P6666];

    /// `555`, `663`, `78`, `6666`: the part of the heuristic name after `pdb-`.
    pub fn as_str(self) -> &'static str {
        match self {
            Named::P555 => "555",
            Named::P663 => "663",
            Named::P78 => "78",
            Named::P6666 => "6666",
        }
    }

    pub fn parse(text: &str) -> Option<Named> {
        Named::ALL.into_iter().find(|n| n.as_str() == text)
    }

    /// The board the partition is for.
    pub fn size(self) -> Size {
        let side = if self == Named::P6666 { 5 } else { 4 };
        Size {
            width: side,
            height: side,
        }
    }

    /// The groups as goal cells, for a goal with the blank in cell 0.
    fn cells(self) -> Vec<Vec<u8>> {
        match self {
            Named::P555 => vec![
                vec![1, 2, 4, 5, 8],
                vec![3, 6, 7, 10, 11],
                vec![9, 12, 13, 14, 15],
            ],
            Named::P663 => vec![
                vec![1, 2, 3, 4, 5, 6],
                vec![8, 9, 10, 12, 13, 14],
                vec![7, 11, 15],
            ],
            Named::P78 => vec![
                vec![1, 2, 3, 4, 5, 6, 7],
                vec![8, 9, 10, 11, 12, 13, 14, 15],
            ],
            Named::P6666 => vec![
                vec![1, 5, 6, 10, 11, 12],
                vec![2, 3, 4, 7, 8, 9],
                vec![13, 14, 18, 19, 23, 24],
                vec![15, 16, 17, 20, 21, 22],
            ],
        }
    }

    /// The partition's tiles for `goal`: its regions, rotated when the goal's blank is in the
    /// bottom-right corner. Other goals need a custom partition.
    pub fn for_goal(self, goal: &Goal) -> Result<Partition, PdbError> {
        let size = goal.size();
        if size != self.size() {
            return Err(PdbError::Partition(format!(
                "pdb-{} is for the {} board, not {}",
                self.as_str(),
                self.size(),
                size
            )));
        }
        let n = size.cells();
        let blank = goal.cell_of(0);
        let rotate = if blank == 0 {
            false
        } else if blank == n - 1 {
            true
        } else {
            return Err(PdbError::Partition(format!(
                "pdb-{} is defined for goals with the blank in a corner (blank-first, \
                 blank-last); give the groups of goal '{}' with --partition",
                self.as_str(),
                goal.name()
            )));
        };
        let groups = self
            .cells()
            .into_iter()
            .map(|g| {
                g.into_iter()
                    .map(|c| {
                        let c = if rotate {
                            n - 1 - c as usize
                        } else {
                            c as usize
                        };
                        goal.tiles()[c]
                    })
                    .collect()
            })
            .collect();
        Partition::new(size, groups)
    }
}

/// Disjoint groups of tiles covering every tile but the blank, each group's tiles sorted.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Partition {
    groups: Vec<Vec<u8>>,
}

impl Partition {
    /// Validates `groups` for a board of `size`: no blank, no tile twice, every tile covered,
    /// at most [`MAX_GROUP_TILES`] tiles per group and [`MAX_GROUPS`] groups.
    pub fn new(size: Size, groups: Vec<Vec<u8>>) -> Result<Partition, PdbError> {
        let n = size.cells();
        let bad = |m: String| Err(PdbError::Partition(m));
        if groups.is_empty() || groups.len() > MAX_GROUPS {
            return bad(format!(
                "a partition needs 1 to {MAX_GROUPS} groups, not {}",
                groups.len()
            ));
        }
        let mut seen = vec![false; n];
        let mut sorted = Vec::with_capacity(groups.len());
        for g in groups {
            if g.is_empty() || g.len() > MAX_GROUP_TILES {
                return bad(format!(
                    "each group needs 1 to {MAX_GROUP_TILES} tiles, but one has {}",
                    g.len()
                ));
            }
            for &t in &g {
                if t == 0 {
                    return bad("the blank (0) belongs to no group".into());
                }
                if t as usize >= n {
                    return bad(format!(
                        "tile {t} does not exist on a {size} board (tiles 1..={})",
                        n - 1
                    ));
                }
                if seen[t as usize] {
                    return bad(format!("tile {t} is in more than one group"));
                }
                seen[t as usize] = true;
            }
            let mut g = g;
            g.sort_unstable();
            sorted.push(g);
        }
        if let Some(missing) = (1..n).find(|&t| !seen[t]) {
            return bad(format!("tile {missing} is in no group"));
        }
        Ok(Partition { groups: sorted })
    }

    pub fn groups(&self) -> &[Vec<u8>] {
        &self.groups
    }
}

/// Splits `"1,2/3,4"` into groups of tile numbers without validating them against a board.
pub(crate) fn parse_groups(text: &str) -> Result<Vec<Vec<u8>>, PdbError> {
    text.split('/')
        .map(|g| {
            g.split(|c: char| c == ',' || c == '.' || c.is_whitespace())
                .filter(|t| !t.is_empty())
                .map(|t| {
                    t.parse::<u8>().map_err(|_| {
                        PdbError::Partition(format!("'{t}' in partition '{text}' is not a tile"))
                    })
                })
                .collect()
        })
        .collect()
}

/// Groups as `1.2.3/4.5.6`: the form used in heuristic labels (no commas, so it is CSV-safe).
pub fn label(groups: &[Vec<u8>]) -> String {
    let parts: Vec<String> = groups
        .iter()
        .map(|g| {
            g.iter()
                .map(|t| t.to_string())
                .collect::<Vec<_>>()
                .join(".")
        })
        .collect();
    parts.join("/")
}

impl fmt::Display for Partition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&label(&self.groups))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    impl Partition {
        /// Parses `"1,2,3/4,5,6/7,8"`: groups separated by `/`, tiles by commas, dots or spaces.
        pub(crate) fn parse(text: &str, size: Size) -> Result<Partition, PdbError> {
            Partition::new(size, parse_groups(text)?)
        }
    }

    #[test]
    fn named_partitions_cover_every_tile_for_both_corner_goals() {
        for named in Named::ALL {
            for goal in [
                Goal::blank_first(named.size()),
                Goal::blank_last(named.size()),
            ] {
                let p = named.for_goal(&goal).unwrap();
                let total: usize = p.groups().iter().map(|g| g.len()).sum();
                assert_eq!(total, named.size().cells() - 1);
            }
            assert!(named.for_goal(&Goal::spiral(named.size())).is_err());
        }
        let last = Named::P663
            .for_goal(&Goal::blank_last(Size::new(4, 4).unwrap()))
            .unwrap();
        assert_eq!(last.groups()[2], vec![1, 5, 9]);
    }

    #[test]
    fn custom_partitions_are_validated() {
        let s = Size::new(3, 3).unwrap();
        let p = Partition::parse("4,3,2,1/5 6 7 8", s).unwrap();
        assert_eq!(p.groups(), &[vec![1, 2, 3, 4], vec![5, 6, 7, 8]]);
        assert_eq!(p.to_string(), "1.2.3.4/5.6.7.8");
        assert_eq!(Partition::parse(&p.to_string(), s).unwrap(), p);
        for bad in [
            "1,2,3/4,5,6,7",
            "0,1,2,3/4,5,6,7,8",
            "1,2,3,4/4,5,6,7,8",
            "1,2,3,4/5,6,7,9",
            "1,2,x/3",
            "1,2,3,4//5,6,7,8",
        ] {
            assert!(
                matches!(Partition::parse(bad, s), Err(PdbError::Partition(_))),
                "{bad}"
            );
        }
    }
}
