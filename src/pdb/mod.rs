//! Disjoint additive pattern databases (Korf & Felner 2002): for each group of a partition of the
//! tiles, a table of the least number of moves *of the group's own tiles* that bring them home
//! from any placement. Moves of different groups are disjoint, so the sum over groups is an
//! admissible heuristic (and it dominates Manhattan distance group by group).
//!
//! - [`rank`]: the perfect index of a placement;
//! - [`build`](mod@build): the breadth-first search that fills a table;
//! - [`file`](mod@file): the on-disk format (header, checksum, atomic write, verification);
//! - [`partition`]: named and custom partitions;
//! - the lookups are the heuristics in [`crate::heuristic::pdb`].
//!
//! Tables are cached on disk (see [`default_dir`]) and in the process: every heuristic built for
//! the same goal and group shares one [`Table`] behind an [`Arc`].

pub mod build;
pub mod entries;
pub mod error;
pub mod file;
pub mod partition;
pub mod rank;
pub mod table;
pub mod values;

use crate::path_io::PathIo;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock, Weak};
use std::time::Instant;

use crate::board::Goal;

pub use entries::Entries;
pub use error::PdbError;
pub use partition::{Named, Partition};
pub use table::Table;
pub use values::Values;

/// The environment variable that overrides the default cache directory.
pub(crate) const DIR_ENV: &str = "TILEBENCH_PDB_DIR";

/// What the cache reports while it works. The library prints nothing: the command line draws
/// a progress bar and prints the warnings; tests and embedders pass [`Silent`].
pub trait CacheEvents: Send + Sync {
    /// A table is being built: `done` of `total` steps of its breadth-first search.
    fn building(&self, _goal: &Goal, _tiles: &[u8], _done: u64, _total: u64) {}
    /// The build of a table ended (after at least one `building`).
    fn built(&self, _goal: &Goal, _tiles: &[u8]) {}
    /// A cached file could not be used (truncated, corrupt, mismatched) and is rebuilt.
    fn rebuilding(&self, _error: &PdbError) {}
    /// A table was built but could not be written to the cache (it is still used).
    fn not_cached(&self, _error: &PdbError) {}
}

/// Reports nothing.
#[derive(Debug, Clone, Copy, Default)]
pub struct Silent;

impl CacheEvents for Silent {}

/// Where pattern databases are cached, whether missing ones may be built, and who hears about it.
#[derive(Clone)]
pub struct CacheOptions {
    /// Where pattern databases are cached ([`default_dir`] by default).
    pub pdb_dir: PathBuf,
    /// Build missing or invalid tables (otherwise they are an error).
    pub build_missing: bool,
    /// Told about builds, rebuilds and cache failures ([`Silent`] by default).
    pub events: Arc<dyn CacheEvents>,
}

impl std::fmt::Debug for CacheOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CacheOptions")
            .field("pdb_dir", &self.pdb_dir)
            .field("build_missing", &self.build_missing)
            .finish_non_exhaustive()
    }
}

impl Default for CacheOptions {
    fn default() -> CacheOptions {
        CacheOptions {
            pdb_dir: default_dir(),
            build_missing: true,
            events: Arc::new(Silent),
        }
    }
}

/// The cache directory when neither `--pdb-dir` nor a setting says otherwise:
/// `$TILEBENCH_PDB_DIR` if set, else `pdb-cache` in the current directory.
pub fn default_dir() -> PathBuf {
    std::env::var_os(DIR_ENV)
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("pdb-cache"))
}

/// Builds the table of group `tiles` for `goal` in memory, telling `events` how far it got.
pub fn build(goal: &Goal, tiles: &[u8], events: &dyn CacheEvents) -> Table {
    let started = Instant::now();
    let entries = build::build_table(goal, tiles, &|done, total| {
        events.building(goal, tiles, done, total)
    });
    events.built(goal, tiles);
    Table {
        goal: goal.clone(),
        tiles: tiles.to_vec(),
        values: Values::new(goal, tiles, entries),
        build_seconds: started.elapsed().as_secs_f64(),
    }
}

fn memo() -> &'static Mutex<HashMap<PathBuf, Weak<Table>>> {
    static MEMO: OnceLock<Mutex<HashMap<PathBuf, Weak<Table>>>> = OnceLock::new();
    MEMO.get_or_init(|| Mutex::new(HashMap::new()))
}

/// The path of a group's table in `dir`.
pub(crate) fn table_path(dir: &Path, goal: &Goal, tiles: &[u8]) -> PathBuf {
    dir.join(file::file_name(goal, tiles))
}

/// The table of group `tiles` for `goal`: shared if this process already holds it, else read
/// from the cache after verification, else (unless `options.build_missing` is off) built and
/// written to the cache. A truncated, corrupt or mismatched file is never used: it is reported to
/// `options.events` and rebuilt, or returned as the error with building disabled.
pub fn load_or_build(
    goal: &Goal,
    tiles: &[u8],
    options: &CacheOptions,
) -> Result<Arc<Table>, PdbError> {
    let path = table_path(&options.pdb_dir, goal, tiles);
    let mut memo = memo().lock().unwrap_or_else(|e| e.into_inner());
    if let Some(t) = memo.get(&path).and_then(Weak::upgrade) {
        return Ok(t);
    }
    let table = match file::read(&path, goal, tiles) {
        Ok(t) => t,
        Err(e @ PdbError::NotAFile { .. }) => return Err(e),
        Err(e) => {
            let missing = matches!(&e, PdbError::Io(PathIo { source, .. })
                if source.kind() == std::io::ErrorKind::NotFound);
            if !options.build_missing {
                return Err(if missing {
                    PdbError::Missing { path }
                } else {
                    e
                });
            }
            // A damaged file is worth a word; an unreadable one (no such directory, not a
            // directory) is reported once, if the table cannot be written either.
            if !matches!(e, PdbError::Io { .. }) {
                options.events.rebuilding(&e);
            }
            let t = build(goal, tiles, options.events.as_ref());
            if let Err(e) = file::write(&path, &t) {
                options.events.not_cached(&e);
            }
            t
        }
    };
    let table = Arc::new(table);
    memo.insert(path, Arc::downgrade(&table));
    Ok(table)
}

/// Whether `table` is on disk at `path` (a regular file of its full length); if not, writes it
/// once more to report why it cannot be.
fn ensure_cached(path: &Path, table: &Table) -> Result<(), PdbError> {
    let want = file::HEADER_LEN as u64 + table.values.len() as u64;
    let on_disk = std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.len() == want);
    if on_disk {
        return Ok(());
    }
    file::write(path, table).map_err(|e| not_cached(path, e))
}

fn not_cached(path: &Path, e: PdbError) -> PdbError {
    PdbError::NotCached {
        path: path.to_path_buf(),
        reason: match e {
            PdbError::Io(PathIo { source, .. }) => source.to_string(),
            other => other.to_string(),
        },
    }
}

/// Builds (or rebuilds, with `force`) and caches every table of `partition`; returns the paths
/// and whether each was built now. Fails unless every table is on disk afterwards (a cache
/// that cannot be written is an error here, unlike in [`load_or_build`]).
pub fn build_all(
    goal: &Goal,
    partition: &Partition,
    options: &CacheOptions,
    force: bool,
) -> Result<Vec<(PathBuf, Arc<Table>, bool)>, PdbError> {
    let mut out = Vec::new();
    for tiles in partition.groups() {
        let path = table_path(&options.pdb_dir, goal, tiles);
        if force {
            let t = build(goal, tiles, options.events.as_ref());
            file::write(&path, &t).map_err(|e| not_cached(&path, e))?;
            out.push((path, Arc::new(t), true));
            continue;
        }
        let existed = file::read_header(&path).is_ok();
        let before = std::fs::metadata(&path).and_then(|m| m.modified()).ok();
        let t = load_or_build(goal, tiles, options)?;
        ensure_cached(&path, &t)?;
        let after = std::fs::metadata(&path).and_then(|m| m.modified()).ok();
        out.push((path, t, !existed || before != after));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The cache goes where the variable says, else to `pdb-cache`: never to an empty path
    /// (which a mutation test found no test would notice).
    #[test]
    fn the_default_cache_directory_is_the_variable_or_pdb_cache() {
        let dir = default_dir();
        match std::env::var_os(DIR_ENV).filter(|v| !v.is_empty()) {
            Some(set) => assert_eq!(dir.as_os_str(), set),
            None => assert_eq!(dir, Path::new("pdb-cache")),
        }
    }

    /// `build_all` says which tables it built: every one into an empty cache, none the second
    /// time (read back), every one again when forced.
    #[test]
    fn build_all_says_which_tables_it_built() {
        let dir = tempfile::tempdir().unwrap();
        let size = crate::board::Size::new(3, 3).unwrap();
        let goal = Goal::blank_last(size);
        let partition = Partition::new(size, vec![vec![1, 2, 3, 4], vec![5, 6, 7, 8]]).unwrap();
        let options = CacheOptions {
            pdb_dir: dir.path().to_path_buf(),
            ..CacheOptions::default()
        };
        let built = |force| -> Vec<bool> {
            let tables = build_all(&goal, &partition, &options, force).unwrap();
            tables.into_iter().map(|(_, _, built)| built).collect()
        };
        assert_eq!(built(false), [true, true]);
        assert_eq!(built(false), [false, false]);
        assert_eq!(built(true), [true, true]);
    }
}
