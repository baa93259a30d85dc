//! Running one experiment as Slurm array tasks, one shard each, and merging the shards back into
//! one results directory. Shards themselves (which pairs, which folder, `experiment.json`) are
//! part of the plan: [`crate::experiment::shard`].
//!
//! - [`submit()`]: what `tilebench slurm submit` does (reconcile the stored experiment, build the
//!   tables, write the script, submit the shards with missing pairs);
//! - [`slurm`]: the sbatch array script, submitting, waiting;
//! - [`collect()`]: merging the shards, naming each missing pair's shard and log.

mod collect;
pub mod slurm;
pub mod submit;

use std::path::{Path, PathBuf};

use thiserror::Error;

pub use collect::{collect, done_keys, pending_shards, Collection, Gap};
pub use submit::{submit, Submission as SubmitOutcome, SubmitRequest};

use crate::experiment::ExperimentError;
use crate::results::RunKey;

/// Everything that stops sharding, submitting or collecting.
#[derive(Debug, Error)]
pub enum ClusterError {
    #[error(transparent)]
    Experiment(#[from] ExperimentError),
    #[error("{}: {source}", path.display())]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error(
        "{}: no {}, so not a sharded results directory (made by \
         `tilebench run --shard I/N` or `tilebench slurm submit`)",
        .0.display(), crate::experiment::EXPERIMENT_FILE
    )]
    NotSharded(PathBuf),
    #[error("{}: {reason}", dir.display())]
    Layout { dir: PathBuf, reason: String },
    #[error("pair {} #{} with {} is in both {} and {}", key.instance_set, key.instance_id, key.method(), first.display(), second.display())]
    Duplicate {
        key: Box<RunKey>,
        first: PathBuf,
        second: PathBuf,
    },
    #[error(
        "{}: pair {} #{} with {} is not part of shard {shard} of this experiment",
        dir.display(), key.instance_set, key.instance_id, key.method()
    )]
    Foreign {
        dir: PathBuf,
        key: Box<RunKey>,
        shard: usize,
    },
    #[error(
        "{}: this shard ran another experiment than the others: {what}; \
         collect merges only shards of one experiment (run the shard again, or collect into \
         another directory)",
        path.display()
    )]
    OtherExperiment { path: PathBuf, what: String },
    #[error("{0}")]
    BadOption(String),
    #[error(transparent)]
    Slurm(#[from] slurm::SlurmError),
}

fn io_err(path: &Path) -> impl FnOnce(std::io::Error) -> ClusterError + '_ {
    move |source| ClusterError::Io {
        path: path.to_path_buf(),
        source,
    }
}
