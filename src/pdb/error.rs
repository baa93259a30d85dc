//! The errors of partitions and table files, below the pattern-database modules that raise them.

use std::path::PathBuf;

use thiserror::Error;

/// Everything that can go wrong with a partition or a table file. Every file error names the file.
#[derive(Debug, Error)]
pub enum PdbError {
    #[error("invalid partition: {0}")]
    Partition(String),
    #[error(
        "{}: {what} where a pattern database should be (only a regular file is read); remove it",
        path.display()
    )]
    NotAFile { path: PathBuf, what: String },
    #[error(transparent)]
    Io(#[from] crate::path_io::PathIo),
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
