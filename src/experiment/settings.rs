//! How a session runs an experiment: output directory, threads, cancellation, cache, resume.
//! What the experiment is (its pairs, limits, pruning) is [`super::Experiment`]'s.

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

use crate::pdb::CacheOptions;
use crate::results::meta::Shard;
use crate::results::RunStatus;

/// How to run.
#[derive(Debug, Clone)]
pub struct Settings {
    pub out: PathBuf,
    /// Pool size: pairs run at once (`--jobs`).
    pub threads: usize,
    /// Threads of each pair's search (`--search-threads`).
    pub search_threads: usize,
    /// Keep the finished rows of `out` and run only the missing pairs.
    pub resume: bool,
    /// Discard earlier results in `out` (without it, finding any is an error unless resuming).
    pub overwrite: bool,
    /// With `resume`: run the pairs whose rows have these statuses again.
    pub retry: Vec<RunStatus>,
    /// Set to stop (Ctrl-C); unfinished pairs are not written.
    pub cancel: Arc<AtomicBool>,
    /// Recorded in meta.json.
    pub command_line: Vec<String>,
    /// Where pattern databases live and whether missing ones may be built.
    pub cache: CacheOptions,
    /// The history file a completed run appends its headline figures to (see [`crate::results::history`]).
    pub history: Option<PathBuf>,
    /// The slice of a larger experiment these pairs are (recorded in meta.json).
    pub shard: Option<Shard>,
    /// Save each search's progress at most this often into `out/checkpoints/`, and continue
    /// from there (`None`: no checkpoints; fixed-bound runs have none).
    pub checkpoint_every: Option<Duration>,
    /// Run only the pairs of these instance ids in this session (`--only-ids`); the experiment
    /// is still all the pairs, and a later `--resume` runs the others.
    pub only_ids: Option<Vec<String>>,
}
