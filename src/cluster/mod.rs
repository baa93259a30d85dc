//! Running one experiment as Slurm array tasks, one shard each, and merging the shards back into
//! one results directory. Shards themselves (which pairs, which folder, `experiment.json`) are
//! part of the plan: [`crate::experiment::shard`].
//!
//! - [`submit()`]: what `tilebench slurm submit` does (reconcile the stored experiment, build the
//!   tables, write the script, submit the shards with missing pairs);
//! - [`slurm`]: the sbatch array script, submitting, waiting;
//! - [`collect()`]: merging the shards, naming each missing pair's shard and log.

mod collect;
pub mod error;
pub mod slurm;
pub mod submit;

pub use collect::{collect, done_keys, pending_shards, Collection, Gap};
pub use error::ClusterError;
pub use submit::{submit, Submission as SubmitOutcome, SubmitRequest};
