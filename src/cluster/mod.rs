//! Running one experiment as many independent shards (on a Slurm cluster or by hand) and
//! merging them back into one results directory.
//!
//! Layout of a sharded results directory `OUT`:
//!
//! ```text
//! OUT/experiment.json          the experiment (instances, heuristics, limits, shard count)
//! OUT/shards/I/                shard I of N: runs.csv, iterations.csv, meta.json (as `run` writes)
//! OUT/slurm/job.sh             the sbatch array script (`slurm submit`)
//! OUT/slurm/submissions.json   every submission: job id, array tasks, time
//! OUT/slurm/logs/JOB_TASK.out  each array task's stdout and stderr
//! OUT/runs.csv, iterations.csv, meta.json   the merged results (`collect`)
//! ```
//!
//! A shard is a deterministic slice of [`crate::runner::all_pairs`] ([`Shard::select`]), so the
//! union of the N shards is the experiment, pair for pair, and [`collect()`] can tell which shard
//! (and so which array task and log) each missing pair belongs to.

mod collect;
mod shard;
pub mod slurm;
mod spec;

use std::path::{Path, PathBuf};

use thiserror::Error;

pub use collect::{collect, done_keys, pending_shards, Collection, Gap};
pub use shard::{Shard, ShardError};
pub use spec::ExperimentSpec;

use crate::runner::RunnerError;

/// The experiment of a sharded results directory.
pub const EXPERIMENT_FILE: &str = "experiment.json";
/// The folder holding one folder per shard.
pub const SHARDS_DIR: &str = "shards";

/// Where shard `index` of the experiment in `out` writes.
pub fn shard_dir(out: &Path, index: usize) -> PathBuf {
    out.join(SHARDS_DIR).join(index.to_string())
}

/// Everything that stops sharding, submitting or collecting.
#[derive(Debug, Error)]
pub enum ClusterError {
    #[error(transparent)]
    Runner(#[from] RunnerError),
    #[error("{}: {source}", path.display())]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{}: {source}", path.display())]
    Json {
        path: PathBuf,
        source: serde_json::Error,
    },
    #[error(
        "{}: no {EXPERIMENT_FILE}, so not a sharded results directory (made by \
         `tilebench run --shard I/N` or `tilebench slurm submit`)",
        .0.display()
    )]
    NotSharded(PathBuf),
    #[error(
        "{} already holds a different experiment ({what}); use another --out, or the same \
         options as before",
        dir.display()
    )]
    Mismatch { dir: PathBuf, what: String },
    #[error("{}: {reason}", dir.display())]
    Layout { dir: PathBuf, reason: String },
    #[error("pair {} #{} with {} is in both {} and {}", key.0, key.1, key.2, first.display(), second.display())]
    Duplicate {
        key: crate::runner::Key,
        first: PathBuf,
        second: PathBuf,
    },
    #[error(
        "{}: pair {} #{} with {} is not part of shard {shard} of this experiment",
        dir.display(), key.0, key.1, key.2
    )]
    Foreign {
        dir: PathBuf,
        key: crate::runner::Key,
        shard: usize,
    },
    #[error("heuristic {heuristic} for goal {goal}: {source}")]
    Heuristic {
        heuristic: String,
        goal: String,
        source: Box<crate::solver::SolverError>,
    },
    #[error(transparent)]
    Slurm(#[from] slurm::SlurmError),
}

fn io_err(path: &Path) -> impl FnOnce(std::io::Error) -> ClusterError + '_ {
    move |source| ClusterError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// Writes pretty JSON atomically (temporary file, then rename; the temporary name carries the
/// process id, so concurrent writers never share one).
fn write_json<T: serde::Serialize>(path: &Path, value: &T) -> Result<(), ClusterError> {
    let mut text = serde_json::to_string_pretty(value).map_err(|source| ClusterError::Json {
        path: path.to_path_buf(),
        source,
    })?;
    text.push('\n');
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).map_err(io_err(parent))?;
    }
    let tmp = path.with_extension(format!("json.{}.tmp", std::process::id()));
    std::fs::write(&tmp, text).map_err(io_err(&tmp))?;
    std::fs::rename(&tmp, path).map_err(io_err(path))
}

/// Reads JSON, `None` when the file does not exist.
fn read_json<T: serde::de::DeserializeOwned>(path: &Path) -> Result<Option<T>, ClusterError> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(source) => {
            return Err(ClusterError::Io {
                path: path.to_path_buf(),
                source,
            })
        }
    };
    serde_json::from_str(&text)
        .map(Some)
        .map_err(|source| ClusterError::Json {
            path: path.to_path_buf(),
            source,
        })
}
