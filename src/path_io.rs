//! An I/O error with the file it happened at. Every area's error enum holds one
//! (`Io(#[from] PathIo)`), so each says `path: what went wrong` the same way, and
//! `result.at(path)?` attaches the path where the error arises.

use std::path::{Path, PathBuf};

#[derive(Debug, thiserror::Error)]
#[error("{}: {source}", path.display())]
pub struct PathIo {
    pub path: PathBuf,
    pub source: std::io::Error,
}

impl PathIo {
    pub fn new(path: impl Into<PathBuf>, source: std::io::Error) -> PathIo {
        PathIo {
            path: path.into(),
            source,
        }
    }
}

/// `.at(path)` on an I/O result.
pub trait At<T> {
    fn at(self, path: impl AsRef<Path>) -> Result<T, PathIo>;
}

impl<T> At<T> for std::io::Result<T> {
    fn at(self, path: impl AsRef<Path>) -> Result<T, PathIo> {
        self.map_err(|source| PathIo::new(path.as_ref(), source))
    }
}

/// `.found()` on an I/O result: a missing file is `Ok(None)`, for files that may not exist yet.
pub(crate) trait Found<T> {
    fn found(self) -> std::io::Result<Option<T>>;
}

impl<T> Found<T> for std::io::Result<T> {
    fn found(self) -> std::io::Result<Option<T>> {
        match self {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            r => r.map(Some),
        }
    }
}
