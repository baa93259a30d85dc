//! What a running experiment reports as it goes ([`Progress`]); the command line draws it.

use crate::results::RunRecord;

/// What a running experiment reports. Called from the pool's threads, one call at a time per
/// pair; the default methods ignore everything.
pub trait Progress: Sync {
    /// The output directory is accepted (not refused as full or as another experiment's): the
    /// run goes ahead, to build its heuristics and search.
    fn accepted(&self) {}
    /// The pool starts on `pending` pairs.
    fn start(&self, _pending: usize) {}
    /// A pair's row was written; `problem` says what is wrong when its status is a failure.
    fn pair_done(&self, _run: &RunRecord, _problem: Option<&str>) {}
    /// The pool is done (all pairs written, or cancelled).
    fn finish(&self) {}
    /// `jobs` pairs at once, each searching on `search_threads` threads, want more threads
    /// than the machine's `cores`: they will share them, and each pair's time grows.
    fn oversubscribed(&self, _jobs: usize, _search_threads: usize, _cores: usize) {}
}

/// Reports nothing.
#[derive(Debug, Clone, Copy, Default)]
pub struct Quiet;

impl Progress for Quiet {}
