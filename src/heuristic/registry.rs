//! Heuristics by name, built once per goal and shared by every search that uses them.
//!
//! This is the one place that turns a heuristic's name into a concrete type: [`Prepared::with`]
//! runs code generic over the heuristic (the searches of [`crate::search::solve`], and any later one) with
//! the concrete heuristic, so every pairing is monomorphised and the search loop never
//! dispatches dynamically.

use std::fmt;
use std::str::FromStr;
use std::sync::Arc;

use crate::board::{Board, Goal};
use crate::heuristic::error::{HeuristicError, MAX_TERMS};
use crate::heuristic::registered::{self, ErasedHeuristic, Registry};
use crate::heuristic::{AnyHeuristic, BuildHeuristic, Heuristic, Max, Pdb, ReflectedPdb};
use crate::pdb::{CacheOptions, Named, Partition, PdbError};
use crate::{with_concrete, with_concrete_pair};

impl HeuristicError {
    /// `name` is no heuristic the program knows.
    pub(crate) fn unknown(name: impl ToString) -> HeuristicError {
        HeuristicError::UnknownHeuristic {
            name: name.to_string(),
            known: HeuristicName::known().join(", "),
        }
    }
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

    /// The partition for `goal`, or why this heuristic cannot serve it (a board of another
    /// size, a reflected lookup on a goal that has no mirror image), before any table is built.
    fn fit(&self, goal: &Goal) -> Result<Partition, HeuristicError> {
        if self.reflected && !goal.is_reflectable() {
            return Err(HeuristicError::NotReflectable(self.label.clone()));
        }
        Ok(self.partition_for(goal)?)
    }
}

/// The max of several heuristics, none itself a max.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct MaxName {
    pub terms: Vec<HeuristicName>,
    label: String,
}

impl MaxName {
    /// Flattens nested maxima; errors unless 2 to [`MAX_TERMS`] different terms remain (a
    /// repeated one would only be looked up twice).
    pub fn new(terms: Vec<HeuristicName>) -> Result<MaxName, HeuristicError> {
        let mut flat = Vec::new();
        for t in terms {
            match t {
                HeuristicName::Max(m) => flat.extend(m.terms),
                other => flat.push(other),
            }
        }
        let names: Vec<&str> = flat.iter().map(|t| t.as_str()).collect();
        let label = format!("max({})", names.join(","));
        if !(2..=MAX_TERMS).contains(&flat.len()) {
            return Err(HeuristicError::BadMax {
                reason: format!("has {} heuristics", flat.len()),
                name: label,
            });
        }
        if let Some(twice) =
            (names.iter().enumerate()).find_map(|(i, n)| names[..i].contains(n).then_some(n))
        {
            return Err(HeuristicError::BadMax {
                reason: format!("names {twice} twice"),
                name: label,
            });
        }
        Ok(MaxName { terms: flat, label })
    }
}

/// Splits a comma-separated list of heuristic names where the commas are separators: not inside
/// `max(…)`, and not before a digit (a custom partition `pdb:1,2/3,4` keeps its commas). So
/// `run -H manhattan,max(walking-distance,pdb-663r)` names two heuristics.
pub fn split_names(list: &str) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    let mut current = String::new();
    let mut depth = 0usize;
    let mut chars = list.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '(' => depth += 1,
            ')' => depth = depth.saturating_sub(1),
            ',' if depth == 0 && !chars.peek().is_some_and(|d| d.is_ascii_digit()) => {
                names.push(std::mem::take(&mut current).trim().to_string());
                continue;
            }
            _ => {}
        }
        current.push(c);
    }
    names.push(current.trim().to_string());
    names.retain(|n| !n.is_empty());
    names
}

/// Generates [`HeuristicName`], its fixed names and `prepare_one` from the list of built-in
/// heuristics ([`crate::builtin_heuristics!`]).
macro_rules! heuristic_names {
    (() $($variant:ident : $ty:ty, $name:literal $(| $alias:literal)*, $rank:literal;)*) => {
        /// A heuristic as named on the command line and in result files.
        ///
        /// Names: `manhattan`, `linear-conflict`, `pdb-555`, `pdb-663`, `pdb-78`, `pdb-6666` and their
        /// reflected variants with an `r` (`pdb-663r`, …), and custom partitions `pdb:1.2.3/4.5.6` or
        /// `pdbr:…` (groups split by `/`, tiles by `.` or `,`; displayed with dots so the label is
        /// CSV-safe); `walking-distance`; and `max(H1,H2,…)` of 2 to [`MAX_TERMS`] of these (nested
        /// maxima are flattened). `as_str` and `Display` give back a name that `FromStr` parses to the
        /// same value. Names registered by the program ([`crate::heuristic::Registry`]) parse too.
        #[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum HeuristicName {
            $($variant,)*
            Pdb(PdbName),
            Max(MaxName),
            /// A heuristic registered by the program ([`crate::heuristic::Registry`]).
            Registered(&'static str),
        }

        impl HeuristicName {
            /// The built-in heuristics' names (without custom partitions and maxima).
            pub const KNOWN: &'static [&'static str] = &[
                $($name,)*
                "pdb-555",
                "pdb-663",
                "pdb-78",
                "pdb-6666",
                "pdb-555r",
                "pdb-663r",
                "pdb-78r",
                "pdb-6666r",
            ];

            pub fn as_str(&self) -> &str {
                match self {
                    $(HeuristicName::$variant => $name,)*
                    HeuristicName::Pdb(p) => &p.label,
                    HeuristicName::Max(m) => &m.label,
                    HeuristicName::Registered(name) => name,
                }
            }

            /// The built-in heuristic with this fixed name or alias.
            fn fixed(name: &str) -> Option<HeuristicName> {
                match name {
                    $($name $(| $alias)* => Some(HeuristicName::$variant),)*
                    _ => None,
                }
            }
        }

        /// Builds one heuristic that is not a max.
        fn prepare_one(
            name: &HeuristicName,
            goal: &Goal,
            options: &CacheOptions,
        ) -> Result<AnyHeuristic, HeuristicError> {
            Ok(match name {
                $(HeuristicName::$variant => {
                    AnyHeuristic::$variant(<$ty as BuildHeuristic>::build(goal, options)?)
                })*
                HeuristicName::Pdb(p) => prepare_pdb(p, goal, options)?,
                HeuristicName::Max(m) => {
                    return Err(HeuristicError::BadMax {
                        name: m.label.clone(),
                        reason: "a max inside a max is flattened when parsed".into(),
                    })
                }
                HeuristicName::Registered(name) => {
                    return Err(HeuristicError::RegisteredInMax(name.to_string()))
                }
            })
        }
    };
}

crate::builtin_heuristics!(heuristic_names;);

impl HeuristicName {
    /// Whether its lengths are optimal: every built-in heuristic is admissible, a registered
    /// one says whether it is ([`BuildHeuristic::ADMISSIBLE`]),
    /// and a max is when all its terms are.
    pub fn admissible(&self) -> bool {
        match self {
            HeuristicName::Max(m) => m.terms.iter().all(HeuristicName::admissible),
            HeuristicName::Registered(n) => registered::lookup(n).is_none_or(|e| e.admissible()),
            _ => true,
        }
    }

    /// The names `-H` takes: [`HeuristicName::KNOWN`] and the registered ones.
    pub fn known() -> Vec<&'static str> {
        let mut names = HeuristicName::KNOWN.to_vec();
        names.extend(registered::installed_names());
        names
    }

    /// A custom-partition PDB heuristic (`--partition` on the command line).
    pub(crate) fn custom_pdb(
        partition: &str,
        reflected: bool,
    ) -> Result<HeuristicName, HeuristicError> {
        let groups = crate::pdb::partition::parse_groups(partition)?;
        Ok(HeuristicName::Pdb(PdbName::new(
            PartitionSpec::Custom(groups),
            reflected,
        )))
    }

    /// The heuristic `name` as given on the command line, where `-H pdb` and `-H pdbr` take
    /// their groups from `--partition` (`partition`), which no other name accepts.
    pub(crate) fn with_partition(
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

    /// Whether the heuristic can serve `goal`, told without building anything: a run checks
    /// every pair before it writes a file. A registered heuristic is checked when it is built.
    pub fn fits(&self, goal: &Goal) -> Result<(), HeuristicError> {
        match self {
            HeuristicName::Pdb(p) => p.fit(goal).map(drop),
            HeuristicName::Max(m) => m.terms.iter().try_for_each(|t| t.fits(goal)),
            _ => Ok(()),
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
        if let Some(fixed) = HeuristicName::fixed(s) {
            return Ok(fixed);
        }
        if let Some(entry) = registered::lookup(s) {
            return Ok(HeuristicName::Registered(entry.name()));
        }
        if let Some(inner) = s.strip_prefix("max(") {
            let bad = |reason: &str| HeuristicError::BadMax {
                name: s.to_string(),
                reason: reason.to_string(),
            };
            let inner = inner
                .strip_suffix(')')
                .ok_or_else(|| bad("no closing ')'"))?;
            let terms = split_names(inner)
                .iter()
                .map(|t| t.parse())
                .collect::<Result<Vec<HeuristicName>, _>>()?;
            return Ok(HeuristicName::Max(MaxName::new(terms)?));
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
        Err(HeuristicError::unknown(s))
    }
}

/// A heuristic built for one goal, ready to solve any board of that goal's size. Cheap to clone
/// and share across threads: pattern databases are behind `Arc`.
#[derive(Debug, Clone)]
pub enum Prepared {
    One(Box<AnyHeuristic>),
    /// 2 to [`MAX_TERMS`] terms, cheapest first.
    Max(Vec<AnyHeuristic>),
    /// A heuristic registered by the program ([`crate::heuristic::Registry`]), or a value
    /// handed to [`Prepared::of`].
    Registered(Arc<dyn ErasedHeuristic>),
}

impl Prepared {
    /// Builds the heuristic `name` for `goal`: a built-in one, a `max(…)` of several (its
    /// terms ordered cheapest first), or one registered with [`crate::heuristic::Registry`].
    /// Pattern databases are loaded from `options.pdb_dir`, or built there when
    /// `options.build_missing` allows.
    ///
    /// ```
    /// use tilebench::board::{Board, Goal};
    /// use tilebench::heuristic::Prepared;
    ///
    /// let board = Board::parse("8 6 7 2 5 4 3 0 1", None).unwrap();
    /// let goal = Goal::blank_last(board.size());
    /// let h = |name: &str| {
    ///     Prepared::new(&name.parse().unwrap(), &goal, &Default::default()).unwrap()
    /// };
    /// let (md, lc) = (h("manhattan"), h("linear-conflict"));
    /// assert_eq!((md.evaluate(&board), lc.evaluate(&board)), (21, 23));
    /// assert_eq!(h("max(manhattan,linear-conflict)").evaluate(&board), 23);
    /// ```
    pub fn new(
        name: &HeuristicName,
        goal: &Goal,
        options: &CacheOptions,
    ) -> Result<Prepared, HeuristicError> {
        Ok(match name {
            HeuristicName::Max(m) => {
                let mut terms = m
                    .terms
                    .iter()
                    .map(|t| prepare_one(t, goal, options))
                    .collect::<Result<Vec<_>, _>>()?;
                // The search skips later terms once an earlier one prunes, so order by cost.
                terms.sort_by_key(AnyHeuristic::cost_rank);
                Prepared::Max(terms)
            }
            HeuristicName::Registered(n) => Prepared::Registered(
                registered::lookup(n)
                    .ok_or_else(|| HeuristicError::unknown(n))?
                    .build(goal, options)?,
            ),
            other => Prepared::One(Box::new(prepare_one(other, goal, options)?)),
        })
    }

    /// A heuristic's value, for [`crate::search::solve`]: searches with it are monomorphised
    /// for `H` like a built-in heuristic's (its type is erased once per search, not per node).
    /// Its tables count no bytes.
    ///
    /// ```
    /// use tilebench::board::{Board, Goal};
    /// use tilebench::heuristic::{LinearConflict, Prepared};
    /// use tilebench::search::{solve, SearchOptions};
    ///
    /// let board = Board::parse("8 6 7 2 5 4 3 0 1", None).unwrap();
    /// let goal = Goal::blank_last(board.size());
    /// let lc = Prepared::of(LinearConflict::new(&goal));
    /// let r = solve(Some(&lc), &board, &goal, &SearchOptions::default()).unwrap();
    /// assert_eq!(r.result.length(), Some(31));
    /// ```
    pub fn of<H: Heuristic + fmt::Debug + Send + 'static>(h: H) -> Prepared {
        Prepared::Registered(registered::erase(h, 0))
    }

    /// h of a whole board.
    pub fn evaluate(&self, board: &Board) -> u32 {
        struct Evaluate<'a>(&'a Board);
        impl WithHeuristic for Evaluate<'_> {
            type Output = u32;
            fn run<H: Heuristic>(self, h: &H) -> u32 {
                h.evaluate(self.0)
            }
            fn run_registered(self, h: &dyn ErasedHeuristic) -> u32 {
                h.evaluate(self.0)
            }
        }
        self.with(Evaluate(board))
    }

    /// Runs `task` with the concrete heuristic: monomorphised per kind for one heuristic and for
    /// the max of two; a max of more terms dispatches per term by `match` (see [`AnyHeuristic`]).
    pub fn with<W: WithHeuristic>(&self, task: W) -> W::Output {
        match self {
            Prepared::One(h) => with_concrete!(h.as_ref(), h => task.run(h)),
            Prepared::Max(terms) => match terms.as_slice() {
                [a, b] => {
                    with_concrete_pair!(a, b, (x, y) => task.run(&Max(x, y)), _ => task.run(&Max(a, b)))
                }
                [a, b, c] => task.run(&Max(a, Max(b, c))),
                [a, b, c, d] => task.run(&Max(a, Max(b, Max(c, d)))),
                // MaxName guarantees 2..=MAX_TERMS terms.
                _ => unreachable!("a max of {} terms", terms.len()),
            },
            Prepared::Registered(h) => task.run_registered(h.as_ref()),
        }
    }

    /// Bytes of the heuristic's pattern-database tables (summed over the terms of a max; 0 for
    /// the others: their small tables are not counted); reported apart from a search's own
    /// memory, since every search with the heuristic shares them.
    pub fn table_bytes(&self) -> u64 {
        match self {
            Prepared::One(h) => h.table_bytes(),
            // A table two terms share (one group in two partitions) is in memory once.
            Prepared::Max(terms) => {
                let others: u64 = (terms.iter())
                    .filter(|t| t.pdb_tables().is_empty())
                    .map(AnyHeuristic::table_bytes)
                    .sum();
                let pdbs = terms.iter().flat_map(AnyHeuristic::pdb_tables);
                others + super::pdb::table_bytes_once(pdbs)
            }
            Prepared::Registered(h) => h.table_bytes(),
        }
    }
}

/// Builds a pattern-database heuristic.
fn prepare_pdb(
    p: &PdbName,
    goal: &Goal,
    options: &CacheOptions,
) -> Result<AnyHeuristic, HeuristicError> {
    let partition = p.fit(goal)?;
    let tables = partition
        .groups()
        .iter()
        .map(|tiles| crate::pdb::load_or_build(goal, tiles, options))
        .collect::<Result<Vec<Arc<_>>, _>>()?;
    let pdb = Pdb::new(&partition, tables);
    Ok(if p.reflected {
        AnyHeuristic::ReflectedPdb(Box::new(ReflectedPdb::new(goal, pdb)))
    } else {
        AnyHeuristic::Pdb(Box::new(pdb))
    })
}

/// Code generic over the heuristic (a search algorithm, say), run by [`Prepared::with`] with the
/// heuristic's concrete type. A new search implements this; it never lists the heuristics.
pub trait WithHeuristic {
    type Output;
    fn run<H: Heuristic>(self, heuristic: &H) -> Self::Output;
    /// The same with a heuristic registered by the program, whose type is erased: calls the
    /// method of [`ErasedHeuristic`] that runs this task's generic code (a new kind of task adds
    /// its method there).
    fn run_registered(self, heuristic: &dyn ErasedHeuristic) -> Self::Output;
}

/// Installing a [`Registry`] lives here, beside the names it must not take.
impl Registry {
    /// Makes these heuristics known to the whole process. Errors when a name is not a plain
    /// name (letters, digits, `-` and `_`), is taken by a built-in heuristic or by another
    /// registered one, or when another registry was installed before.
    pub fn install(self) -> Result<(), HeuristicError> {
        self.check()?;
        registered::INSTALLED
            .set(self.entries)
            .map_err(|_| HeuristicError::BadRegistration {
                name: String::new(),
                reason: "a registry was installed before".into(),
            })
    }

    /// Whether every name is plain and new (see [`Registry::install`]).
    pub(super) fn check(&self) -> Result<(), HeuristicError> {
        for (i, e) in self.entries.iter().enumerate() {
            let plain = !e.name().is_empty()
                && e.name()
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
            let reason = if !plain {
                Some("a name is letters, digits, '-' and '_'")
            } else if e.name().parse::<HeuristicName>().is_ok() {
                Some("it is a built-in heuristic's name")
            } else if e.name().starts_with("pdb") {
                Some("names starting with 'pdb' are the pattern databases' (pdb:…, pdbr:…)")
            } else if e.name() == "none" {
                Some("'-H none' means no heuristic (breadth-first search)")
            } else if self.entries[..i].iter().any(|f| f.name() == e.name()) {
                Some("it is registered twice")
            } else {
                None
            };
            if let Some(reason) = reason {
                return Err(HeuristicError::BadRegistration {
                    name: e.name().to_string(),
                    reason: reason.to_string(),
                });
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// With no registry installed (none is, in the unit tests: see `registered`), `-H` takes
    /// the built-in names and nothing else.
    #[test]
    fn without_a_registry_the_known_names_are_the_builtin_ones() {
        assert_eq!(HeuristicName::known(), HeuristicName::KNOWN);
    }

    #[test]
    fn names_round_trip() {
        for known in HeuristicName::KNOWN {
            let n: HeuristicName = known.parse().unwrap();
            assert_eq!(n.as_str(), *known);
        }
        let c: HeuristicName = "pdbr:1,2,3,4/5,6,7,8".parse().unwrap();
        assert_eq!(c.to_string(), "pdbr:1.2.3.4/5.6.7.8");
        assert_eq!(c.to_string().parse::<HeuristicName>().unwrap(), c);
        // A refusal names every heuristic the program knows, so a typo shows the right spelling.
        let refusal = "pdb-999".parse::<HeuristicName>().unwrap_err().to_string();
        assert!(
            refusal.starts_with("unknown heuristic 'pdb-999'"),
            "{refusal}"
        );
        for known in HeuristicName::KNOWN {
            assert!(
                refusal.contains(&format!(" {known},")),
                "{known}: {refusal}"
            );
        }
        assert!("pdb:1,x".parse::<HeuristicName>().is_err());
    }

    #[test]
    fn max_names_parse_flatten_and_round_trip() {
        let m: HeuristicName = " max(wd, max(lc,pdb:1,2,3/4.5) ) ".parse().unwrap();
        assert_eq!(
            m.as_str(),
            "max(walking-distance,linear-conflict,pdb:1.2.3/4.5)"
        );
        assert_eq!(m.to_string().parse::<HeuristicName>().unwrap(), m);
        let HeuristicName::Max(inner) = &m else {
            panic!("not a max: {m:?}")
        };
        assert_eq!(inner.terms.len(), 3);
        for bad in [
            "max(manhattan)",
            "max(md,lc",
            "max(md,nope)",
            "max(md,md,md,md,md)",
            "max()",
        ] {
            let e = bad.parse::<HeuristicName>().unwrap_err().to_string();
            assert!(e.contains("max") || e.contains("nope"), "{bad}: {e}");
        }
        // A term given twice, under an alias or in a nested max, is refused by name.
        for (bad, twice) in [
            ("max(md,manhattan)", "manhattan"),
            ("max(lc,max(wd,lc))", "linear-conflict"),
        ] {
            let e = bad.parse::<HeuristicName>().unwrap_err().to_string();
            assert!(e.contains(&format!("names {twice} twice")), "{bad}: {e}");
        }
    }

    #[test]
    fn lists_split_at_the_separating_commas_only() {
        assert_eq!(
            split_names("manhattan, max(walking-distance,linear-conflict),pdb-663"),
            [
                "manhattan",
                "max(walking-distance,linear-conflict)",
                "pdb-663"
            ]
        );
        assert_eq!(
            split_names("pdb:1,2,3/4,5,max(md,max(lc,wd)),wd,"),
            ["pdb:1,2,3/4,5", "max(md,max(lc,wd))", "wd"]
        );
        // Every piece parses.
        for n in split_names("md,max(wd,lc),pdbr:1,2/3,4") {
            n.parse::<HeuristicName>().unwrap();
        }
    }
}
