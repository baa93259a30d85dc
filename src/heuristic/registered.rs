//! Heuristics from outside the library: a researcher's crate registers its own types by name and
//! runs the whole command line with them ([`crate::cli::main_with`]).
//!
//! A registered heuristic's type is erased once per search, not per node: [`Registry::with`] is
//! generic over the type, so it instantiates every search and measurement the library runs with a
//! heuristic (the methods of [`ErasedHeuristic`]) for that type, each compiled like a built-in
//! heuristic's. A search then makes one dynamic call to start and runs monomorphised inside it.

use std::fmt;
use std::sync::{Arc, OnceLock};

use crate::board::{Board, Goal};
use crate::heuristic::{BuildHeuristic, Heuristic, HeuristicError};
use crate::pdb::CacheOptions;
use crate::search::{Outcome, SearchError, SearchOptions};

/// A built registered heuristic (or one handed to [`Prepared::of`](super::Prepared::of)) with its
/// concrete type erased: each method is one of the library's generic searches or measurements,
/// instantiated for that type by [`Registry::with`] or [`Prepared::of`](super::Prepared::of).
pub trait ErasedHeuristic: fmt::Debug + Send + Sync {
    /// h of a whole board.
    fn evaluate(&self, board: &Board) -> u32;
    /// [`BuildHeuristic::table_bytes`].
    fn table_bytes(&self) -> u64;
    /// The search [`crate::search::solve`] runs.
    fn search(
        &self,
        board: &Board,
        goal: &Goal,
        options: &SearchOptions,
    ) -> Result<Outcome, SearchError>;
}

/// The concrete heuristic behind an [`ErasedHeuristic`], with its tables' bytes.
#[derive(Debug)]
struct Concrete<H> {
    h: H,
    table_bytes: u64,
}

/// `h` with its type erased, for [`Prepared::of`](super::Prepared::of).
pub(crate) fn erase<H: Heuristic + fmt::Debug + Send + 'static>(
    h: H,
    table_bytes: u64,
) -> Arc<dyn ErasedHeuristic> {
    Arc::new(Concrete { h, table_bytes })
}

impl<H: Heuristic + fmt::Debug + Send> ErasedHeuristic for Concrete<H> {
    fn evaluate(&self, board: &Board) -> u32 {
        self.h.evaluate(board)
    }

    fn table_bytes(&self) -> u64 {
        self.table_bytes
    }

    fn search(
        &self,
        board: &Board,
        goal: &Goal,
        options: &SearchOptions,
    ) -> Result<Outcome, SearchError> {
        crate::search::run(board, goal, &self.h, options)
    }
}

/// One registered heuristic: its name and how to build it for a goal.
#[derive(Clone, Copy)]
pub struct Entry {
    name: &'static str,
    admissible: bool,
    build: BuildFn,
}

/// Builds a registered heuristic for a goal.
type BuildFn = fn(&Goal, &CacheOptions) -> Result<Arc<dyn ErasedHeuristic>, HeuristicError>;

impl Entry {
    /// The name it is registered under (in `-H`, the results and the reports).
    pub fn name(&self) -> &'static str {
        self.name
    }

    /// [`BuildHeuristic::ADMISSIBLE`] of its type.
    pub fn admissible(&self) -> bool {
        self.admissible
    }

    /// Builds it for `goal`.
    pub fn build(
        &self,
        goal: &Goal,
        options: &CacheOptions,
    ) -> Result<Arc<dyn ErasedHeuristic>, HeuristicError> {
        (self.build)(goal, options)
    }
}

impl fmt::Debug for Entry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Entry")
            .field("name", &self.name)
            .field("admissible", &self.admissible)
            .finish()
    }
}

/// The heuristics a program knows by name: the built-in ones, and the ones it registers with
/// [`Registry::with`]. Installed once per process ([`Registry::install`], which
/// [`crate::cli::main_with`] does), so that every name read anywhere (`-H`, results files,
/// shards, Slurm jobs) parses to the same heuristic.
///
/// ```
/// use tilebench::board::{Board, Goal};
/// use tilebench::heuristic::{HeuristicName, LinearConflict, Manhattan, Prepared, Registry};
/// use tilebench::search::{solve, SearchOptions};
///
/// let registry = Registry::builtin()
///     .with::<Manhattan>("my-manhattan")
///     .with::<LinearConflict>("my-lc");
/// assert_eq!(registry.names().collect::<Vec<_>>(), ["my-manhattan", "my-lc"]);
/// registry.install().unwrap();
///
/// // Now the name reads like a built-in one, everywhere in this process, and `-H` lists it.
/// assert!(HeuristicName::known().ends_with(&["my-manhattan", "my-lc"]));
/// let name: HeuristicName = "my-lc".parse().unwrap();
/// let board = Board::parse("8 6 7 2 5 4 3 0 1", None).unwrap();
/// let goal = Goal::blank_last(board.size());
/// let h = Prepared::new(&name, &goal, &Default::default()).unwrap();
/// let r = solve(Some(&h), &board, &goal, &SearchOptions::default()).unwrap();
/// assert_eq!(r.result.length(), Some(31));
/// // A built-in name cannot be taken, nor can a second registry be installed.
/// assert!(Registry::builtin().with::<Manhattan>("manhattan").install().is_err());
/// ```
#[derive(Debug, Default)]
pub struct Registry {
    pub(super) entries: Vec<Entry>,
}

/// The registered heuristics of this process (none until [`Registry::install`]).
pub(super) static INSTALLED: OnceLock<Vec<Entry>> = OnceLock::new();

impl Registry {
    /// The built-in heuristics only.
    pub fn builtin() -> Registry {
        Registry::default()
    }

    /// Adds heuristic `H` under `name`: every search, prediction and experiment the library runs
    /// with it is compiled here for `H` (monomorphised, no dynamic dispatch per node).
    pub fn with<H: BuildHeuristic>(mut self, name: &'static str) -> Registry {
        fn build<H: BuildHeuristic>(
            goal: &Goal,
            options: &CacheOptions,
        ) -> Result<Arc<dyn ErasedHeuristic>, HeuristicError> {
            let h = H::build(goal, options)?;
            let bytes = h.table_bytes();
            Ok(erase(h, bytes))
        }
        self.entries.push(Entry {
            name,
            admissible: H::ADMISSIBLE,
            build: build::<H>,
        });
        self
    }

    /// The names registered with [`Registry::with`], in order.
    pub fn names(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.entries.iter().map(|e| e.name)
    }
}

/// The installed entry named `name`.
pub(crate) fn lookup(name: &str) -> Option<Entry> {
    INSTALLED.get()?.iter().find(|e| e.name == name).copied()
}

/// The installed names, in the order registered.
pub(crate) fn installed_names() -> Vec<&'static str> {
    INSTALLED
        .get()
        .map_or_else(Vec::new, |v| v.iter().map(|e| e.name).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Goal, Size};
    use crate::heuristic::{Heuristic, LinearConflict, Manhattan};

    // No test here installs a registry: it is one per process, and the other unit tests expect
    // the built-in names only. tests/it/custom_heuristic.rs runs a binary that installs one.

    #[test]
    fn names_must_be_plain_and_new() {
        let one = |name| Registry::builtin().with::<Manhattan>(name).check();
        one("my-manhattan").unwrap();
        one("misplaced_2").unwrap();
        for (name, why) in [
            ("manhattan", "built-in"),
            ("md", "built-in"),
            ("pdb-663", "built-in"),
            ("pdb-mine", "'pdb'"),
            ("pdbx", "'pdb'"),
            ("none", "no heuristic"),
            ("max(a,b)", "letters, digits"),
            ("my heuristic", "letters, digits"),
            ("", "letters, digits"),
        ] {
            let e = one(name).unwrap_err().to_string();
            assert!(e.contains(why) && e.contains(name), "{name}: {e}");
        }
        let twice = Registry::builtin()
            .with::<Manhattan>("mine")
            .with::<LinearConflict>("mine");
        assert!(twice.check().unwrap_err().to_string().contains("twice"));
    }

    #[test]
    fn an_entry_builds_its_type_and_runs_the_generic_code() {
        let registry = Registry::builtin().with::<LinearConflict>("lc-again");
        assert_eq!(registry.names().collect::<Vec<_>>(), ["lc-again"]);
        let entry = registry.entries[0];
        assert!(entry.admissible());
        let goal = Goal::blank_last(Size::new(3, 3).unwrap());
        let built = entry.build(&goal, &CacheOptions::default()).unwrap();
        let board = Board::parse("8 6 7 2 5 4 3 0 1", None).unwrap();
        let lc = LinearConflict::new(&goal);
        assert_eq!(built.evaluate(&board), lc.evaluate(&board));
        let erased = built
            .search(&board, &goal, &SearchOptions::default())
            .unwrap()
            .result;
        let direct = crate::search::run(&board, &goal, &lc, &SearchOptions::default())
            .unwrap()
            .result;
        assert_eq!(erased.length(), Some(31));
        assert_eq!(erased.moves, direct.moves);
        assert_eq!(erased.generated(), direct.generated());
    }
}
