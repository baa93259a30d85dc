//! Heuristics by name, built once per goal and shared by every search that uses them.
//!
//! This is the one place that turns a heuristic's name into a concrete type: [`Prepared::with`]
//! runs code generic over the heuristic (IDA* in `search::solve`, and any later search) with
//! the concrete heuristic, so every pairing is monomorphised and the search loop never
//! dispatches dynamically.

use std::fmt;
use std::str::FromStr;
use std::sync::Arc;

use thiserror::Error;

use crate::board::{Board, BoardError, Goal};
use crate::heuristic::{Heuristic, LinearConflict, Manhattan, Pdb, ReflectedPdb};
use crate::pdb::{CacheOptions, Named, Partition, PdbError};

/// Errors in choosing, building or running a heuristic.
#[derive(Debug, Error)]
pub enum HeuristicError {
    #[error("unknown heuristic '{0}': known are {known}, pdb:GROUPS and pdbr:GROUPS (e.g. pdb:1,2,3/4,5,6,7,8)", known = HeuristicName::KNOWN.join(", "))]
    UnknownHeuristic(String),
    #[error("{0} needs a goal that the main diagonal maps onto itself (the blank on the diagonal of a square board)")]
    NotReflectable(String),
    #[error("{0}")]
    Partition(String),
    #[error(transparent)]
    Board(#[from] BoardError),
    #[error(transparent)]
    Pdb(#[from] PdbError),
}

/// Which partition a pattern-database heuristic uses.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PartitionSpec {
    /// Korf & Felner's, resolved for the goal at hand.
    Named(Named),
    /// Explicit groups of tiles (validated against the board when prepared).
    Custom(Vec<Vec<u8>>),
}

/// A pattern-database heuristic: a partition, with or without the reflected lookup.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PdbName {
    pub partition: PartitionSpec,
    pub reflected: bool,
    label: String,
}

impl PdbName {
    pub fn new(partition: PartitionSpec, reflected: bool) -> PdbName {
        let r = if reflected { "r" } else { "" };
        let label = match &partition {
            PartitionSpec::Named(n) => format!("pdb-{}{r}", n.as_str()),
            PartitionSpec::Custom(groups) => {
                format!("pdb{r}:{}", crate::pdb::partition::label(groups))
            }
        };
        PdbName {
            partition,
            reflected,
            label,
        }
    }

    /// The partition's groups for `goal`.
    pub fn partition_for(&self, goal: &Goal) -> Result<Partition, PdbError> {
        match &self.partition {
            PartitionSpec::Named(n) => n.for_goal(goal),
            PartitionSpec::Custom(groups) => Partition::new(goal.size(), groups.clone()),
        }
    }
}

/// A heuristic as named on the command line and in result files.
///
/// Names: `manhattan`, `linear-conflict`, `pdb-555`, `pdb-663`, `pdb-78`, `pdb-6666` and their
/// reflected variants with an `r` (`pdb-663r`, …), and custom partitions `pdb:1.2.3/4.5.6` or
/// `pdbr:…` (groups split by `/`, tiles by `.` or `,`; displayed with dots so the label is
/// CSV-safe). `as_str` and `Display` give back a name that `FromStr` parses to the same value.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum HeuristicName {
    Manhattan,
    LinearConflict,
    Pdb(PdbName),
}

impl HeuristicName {
    pub const KNOWN: &'static [&'static str] = &[
        "manhattan",
        "linear-conflict",
        "pdb-555",
        "pdb-663",
        "pdb-78",
        "pdb-555r",
        "pdb-663r",
        "pdb-78r",
        "pdb-6666r",
    ];

    pub fn as_str(&self) -> &str {
        match self {
            HeuristicName::Manhattan => "manhattan",
            HeuristicName::LinearConflict => "linear-conflict",
            HeuristicName::Pdb(p) => &p.label,
        }
    }

    /// A custom-partition PDB heuristic (`--partition` on the command line).
    pub fn custom_pdb(partition: &str, reflected: bool) -> Result<HeuristicName, HeuristicError> {
        let groups = crate::pdb::partition::parse_groups(partition)?;
        Ok(HeuristicName::Pdb(PdbName::new(
            PartitionSpec::Custom(groups),
            reflected,
        )))
    }
}

impl HeuristicName {
    /// The heuristic `name` as given on the command line, where `-H pdb` and `-H pdbr` take
    /// their groups from `--partition` (`partition`), which no other name accepts.
    pub fn with_partition(
        name: &str,
        partition: Option<&str>,
    ) -> Result<HeuristicName, HeuristicError> {
        match (partition, name.trim()) {
            (Some(p), "pdb") => HeuristicName::custom_pdb(p, false),
            (Some(p), "pdbr") => HeuristicName::custom_pdb(p, true),
            (Some(_), other) => Err(HeuristicError::Partition(format!(
                "--partition goes with -H pdb or -H pdbr, not '{other}'"
            ))),
            (None, "pdb" | "pdbr") => Err(HeuristicError::Partition(format!(
                "-H {name} needs --partition GROUPS"
            ))),
            (None, other) => other.parse(),
        }
    }
}

impl fmt::Display for HeuristicName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for HeuristicName {
    type Err = HeuristicError;

    fn from_str(s: &str) -> Result<Self, HeuristicError> {
        let s = s.trim();
        match s {
            "manhattan" | "md" => return Ok(HeuristicName::Manhattan),
            "linear-conflict" | "lc" => return Ok(HeuristicName::LinearConflict),
            _ => {}
        }
        if let Some(groups) = s.strip_prefix("pdbr:") {
            return HeuristicName::custom_pdb(groups, true);
        }
        if let Some(groups) = s.strip_prefix("pdb:") {
            return HeuristicName::custom_pdb(groups, false);
        }
        if let Some(rest) = s.strip_prefix("pdb-") {
            let (base, reflected) = match rest.strip_suffix('r') {
                Some(b) => (b, true),
                None => (rest, false),
            };
            if let Some(named) = Named::parse(base) {
                return Ok(HeuristicName::Pdb(PdbName::new(
                    PartitionSpec::Named(named),
                    reflected,
                )));
            }
        }
        Err(HeuristicError::UnknownHeuristic(s.to_string()))
    }
}

/// A heuristic built for one goal, ready to solve any board of that goal's size. Cheap to clone
/// and share across threads: pattern databases are behind `Arc`.
#[derive(Debug, Clone)]
pub enum Prepared {
    Manhattan(Manhattan),
    LinearConflict(LinearConflict),
    Pdb(Box<Pdb>),
    ReflectedPdb(Box<ReflectedPdb>),
}

impl Prepared {
    pub fn new(
        name: &HeuristicName,
        goal: &Goal,
        options: &CacheOptions,
    ) -> Result<Prepared, HeuristicError> {
        Ok(match name {
            HeuristicName::Manhattan => Prepared::Manhattan(Manhattan::new(goal)),
            HeuristicName::LinearConflict => Prepared::LinearConflict(LinearConflict::new(goal)),
            HeuristicName::Pdb(p) => {
                if p.reflected && !goal.is_reflectable() {
                    return Err(HeuristicError::NotReflectable(p.label.clone()));
                }
                let partition = p.partition_for(goal)?;
                let tables = partition
                    .groups()
                    .iter()
                    .map(|tiles| crate::pdb::load_or_build(goal, tiles, options))
                    .collect::<Result<Vec<Arc<_>>, _>>()?;
                let pdb = Pdb::new(&partition, tables);
                if p.reflected {
                    Prepared::ReflectedPdb(Box::new(ReflectedPdb::new(goal, pdb)))
                } else {
                    Prepared::Pdb(Box::new(pdb))
                }
            }
        })
    }

    /// Runs `code` with this heuristic as its concrete type: the one `match` over the
    /// heuristics, so each arm monomorphises `code` (a search, an evaluation) for one heuristic.
    pub fn with<W: WithHeuristic>(&self, code: W) -> W::Output {
        match self {
            Prepared::Manhattan(h) => code.run(h),
            Prepared::LinearConflict(h) => code.run(h),
            Prepared::Pdb(h) => code.run(h.as_ref()),
            Prepared::ReflectedPdb(h) => code.run(h.as_ref()),
        }
    }

    /// h of a whole board.
    pub fn evaluate(&self, board: &Board) -> u32 {
        struct Evaluate<'a>(&'a Board);
        impl WithHeuristic for Evaluate<'_> {
            type Output = u32;
            fn run<H: Heuristic>(self, h: &H) -> u32 {
                h.evaluate(self.0)
            }
        }
        self.with(Evaluate(board))
    }
}

/// Code generic over the heuristic (a search algorithm, say), run by [`Prepared::with`] with the
/// heuristic's concrete type. A new search implements this; it never lists the heuristics.
pub trait WithHeuristic {
    type Output;
    fn run<H: Heuristic>(self, heuristic: &H) -> Self::Output;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for known in HeuristicName::KNOWN {
            let n: HeuristicName = known.parse().unwrap();
            assert_eq!(n.as_str(), *known);
        }
        let c: HeuristicName = "pdbr:1,2,3,4/5,6,7,8".parse().unwrap();
        assert_eq!(c.to_string(), "pdbr:1.2.3.4/5.6.7.8");
        assert_eq!(c.to_string().parse::<HeuristicName>().unwrap(), c);
        assert!("pdb-999".parse::<HeuristicName>().is_err());
        assert!("pdb:1,x".parse::<HeuristicName>().is_err());
    }
}
