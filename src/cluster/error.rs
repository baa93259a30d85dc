//! The errors of submitting and collecting Slurm jobs, below the modules that raise them.

use std::path::PathBuf;

use thiserror::Error;

use crate::experiment::ExperimentError;
use crate::results::RunKey;

/// Why Slurm did not take or finish a job.
#[derive(Debug, Error)]
pub enum SlurmError {
    #[error(
        "sbatch not found on PATH: is Slurm installed? use --dry-run to only write the script"
    )]
    SbatchNotFound,
    #[error("{command} failed: {source}")]
    Spawn {
        command: String,
        source: std::io::Error,
    },
    #[error("sbatch refused the job ({status}): {stderr}")]
    Refused { status: String, stderr: String },
    #[error("sbatch printed no job id (stdout: {0:?})")]
    NoJobId(String),
    #[error("job {job} is still queued or running; wait for it (or `scancel {job}`) before submitting again")]
    StillRunning { job: String },
    #[error("job {job} still queued or running after {seconds} s")]
    WaitTimeout { job: String, seconds: u64 },
    /// A value that cannot be written into the job script safely.
    #[error("{option} {value:?}: {reason}")]
    BadValue {
        option: String,
        value: String,
        reason: String,
    },
}

/// Everything that stops sharding, submitting or collecting.
#[derive(Debug, Error)]
pub enum ClusterError {
    #[error(transparent)]
    Experiment(#[from] ExperimentError),
    #[error(transparent)]
    Io(#[from] crate::path_io::PathIo),
    #[error(
        "{}: no {}, so not a sharded results directory (made by \
         `tilebench run --shard I/N` or `tilebench slurm submit`)",
        .0.display(), crate::experiment::EXPERIMENT_FILE
    )]
    NotSharded(PathBuf),
    #[error("{}: {reason}", dir.display())]
    Layout { dir: PathBuf, reason: String },
    #[error("pair {} #{} with {} is in both {} and {}", key.instance_set, key.instance_id, key.label(), first.display(), second.display())]
    Duplicate {
        key: Box<RunKey>,
        first: PathBuf,
        second: PathBuf,
    },
    #[error(
        "{}: pair {} #{} with {} is not part of shard {shard} of this experiment",
        dir.display(), key.instance_set, key.instance_id, key.label()
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
    Slurm(#[from] SlurmError),
}
