//! Disjoint additive pattern databases (Korf & Felner 2002): for each group of a partition of the
//! tiles, a table of the least number of moves *of the group's own tiles* that bring them home
//! from any placement. Moves of different groups are disjoint, so the sum over groups is an
//! admissible heuristic (and it dominates Manhattan distance group by group).
//!
//! - [`rank`]: the perfect index of a placement;
//! - [`build`]: the breadth-first search that fills a table;
//! - [`file`]: the on-disk format (header, checksum, atomic write, verification);
//! - [`partition`]: named and custom partitions;
//! - the lookups are the heuristics in [`crate::heuristic::pdb`].
//!
//! Tables are cached on disk (see [`default_dir`]) and in the process: every heuristic built for
//! the same goal and group shares one [`Table`] behind an [`Arc`].

pub mod build;
pub mod entries;
pub mod file;
pub mod partition;
pub mod rank;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock, Weak};
use std::time::Instant;

use thiserror::Error;

use crate::board::Goal;
use crate::solver::Options;

pub use entries::Entries;
pub use partition::{Named, Partition};

/// The environment variable that overrides the default cache directory.
pub const DIR_ENV: &str = "TILEBENCH_PDB_DIR";

/// Everything that can go wrong with a partition or a table file. Every file error names the file.
#[derive(Debug, Error)]
pub enum PdbError {
    #[error("invalid partition: {0}")]
    Partition(String),
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{path}: truncated: {found} bytes, expected {expected}")]
    Truncated {
        path: PathBuf,
        expected: u64,
        found: u64,
    },
    #[error("{path}: corrupt: {reason}")]
    Corrupt { path: PathBuf, reason: String },
    #[error("{path}: built for another {what}: {found}, wanted {wanted}")]
    Mismatch {
        path: PathBuf,
        what: String,
        found: String,
        wanted: String,
    },
    #[error("{path}: checksum mismatch (stored {stored:08x}, computed {computed:08x}): the file is corrupt")]
    Checksum {
        path: PathBuf,
        stored: u32,
        computed: u32,
    },
    #[error("{path}: pattern database missing and building is disabled (--no-build); run `tilebench pdb build` first")]
    Missing { path: PathBuf },
    #[error("{path}: the table could not be written to the cache: {reason}")]
    NotCached { path: PathBuf, reason: String },
}

/// One group's table: entry `rank::rank(cells)` is the group's cost from that placement.
#[derive(Debug, Clone)]
pub struct Table {
    pub goal: Goal,
    /// The group's tiles, ascending; `cells[i]` in a rank is the cell of `tiles[i]`.
    pub tiles: Vec<u8>,
    /// On huge pages when large (see [`entries`]).
    pub entries: Entries,
    pub build_seconds: f64,
}

/// The cache directory when neither `--pdb-dir` nor a setting says otherwise:
/// `$TILEBENCH_PDB_DIR` if set, else `pdb-cache` in the current directory.
pub fn default_dir() -> PathBuf {
    std::env::var_os(DIR_ENV)
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("pdb-cache"))
}

/// Builds the table of group `tiles` for `goal` in memory, with a progress bar on stderr when
/// `progress` is set (indicatif hides it when stderr is not a terminal).
pub fn build(goal: &Goal, tiles: &[u8], progress: bool) -> Table {
    let started = Instant::now();
    let bar = if progress {
        let bar = indicatif::ProgressBar::new(1);
        if let Ok(style) = indicatif::ProgressStyle::with_template(
            "{msg} [{bar:30}] {percent:>3}% {elapsed_precise} ETA {eta}",
        ) {
            bar.set_style(style);
        }
        bar.set_message(format!(
            "building {} pattern database {}",
            goal.size(),
            crate::board::join_tiles(tiles)
        ));
        Some(bar)
    } else {
        None
    };
    let entries = build::build_table(goal, tiles, &|done, total| {
        if let Some(b) = &bar {
            b.set_length(total);
            b.set_position(done);
        }
    });
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    Table {
        goal: goal.clone(),
        tiles: tiles.to_vec(),
        entries,
        build_seconds: started.elapsed().as_secs_f64(),
    }
}

fn memo() -> &'static Mutex<HashMap<PathBuf, Weak<Table>>> {
    static MEMO: OnceLock<Mutex<HashMap<PathBuf, Weak<Table>>>> = OnceLock::new();
    MEMO.get_or_init(|| Mutex::new(HashMap::new()))
}

/// The path of a group's table in `dir`.
pub fn table_path(dir: &Path, goal: &Goal, tiles: &[u8]) -> PathBuf {
    dir.join(file::file_name(goal, tiles))
}

/// The table of group `tiles` for `goal`: shared if this process already holds it, else read
/// from the cache after verification, else (unless `options.build_missing` is off) built and
/// written to the cache. A truncated, corrupt or mismatched file is never used: it is reported on
/// stderr and rebuilt, or returned as the error with building disabled.
pub fn load_or_build(goal: &Goal, tiles: &[u8], options: &Options) -> Result<Arc<Table>, PdbError> {
    let path = table_path(&options.pdb_dir, goal, tiles);
    let mut memo = memo().lock().unwrap_or_else(|e| e.into_inner());
    if let Some(t) = memo.get(&path).and_then(Weak::upgrade) {
        return Ok(t);
    }
    let table = match file::read(&path, goal, tiles) {
        Ok(t) => t,
        Err(e) => {
            let missing = matches!(&e, PdbError::Io { source, .. }
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
                eprintln!("tilebench: {e}; rebuilding it");
            }
            let t = build(goal, tiles, options.progress);
            if let Err(e) = file::write(&path, &t) {
                warn_not_cached(&e);
            }
            t
        }
    };
    let table = Arc::new(table);
    memo.insert(path, Arc::downgrade(&table));
    Ok(table)
}

/// Says once per process that a table built here could not be cached (the search goes on with
/// it in memory; every process builds it again).
fn warn_not_cached(e: &PdbError) {
    static WARNED: AtomicBool = AtomicBool::new(false);
    if !WARNED.swap(true, Ordering::Relaxed) {
        eprintln!(
            "tilebench: warning: pattern database not cached, used from memory only \
             (each process builds it again): {e}"
        );
    }
}

/// Whether `table` is on disk at `path` (a regular file of its full length); if not, writes it
/// once more to report why it cannot be.
fn ensure_cached(path: &Path, table: &Table) -> Result<(), PdbError> {
    let want = file::HEADER_LEN as u64 + table.entries.len() as u64;
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
            PdbError::Io { source, .. } => source.to_string(),
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
    options: &Options,
    force: bool,
) -> Result<Vec<(PathBuf, Arc<Table>, bool)>, PdbError> {
    let mut out = Vec::new();
    for tiles in partition.groups() {
        let path = table_path(&options.pdb_dir, goal, tiles);
        if force {
            let t = build(goal, tiles, options.progress);
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
