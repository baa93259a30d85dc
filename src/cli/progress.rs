//! Progress bars and messages on stderr: the command line's side of the library's
//! [`Progress`] and [`CacheEvents`] (the library itself prints nothing).

use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use tilebench::board::{join_tiles, Goal};
use tilebench::experiment::Progress;
use tilebench::pdb::{CacheEvents, PdbError};
use tilebench::results::RunRecord;

/// A bar over an experiment's pairs (drawn only when stderr is a terminal), with each failing
/// pair's message printed above it.
#[derive(Default)]
pub(crate) struct PairBar {
    bar: Mutex<Option<ProgressBar>>,
    /// Lines said once the output directory is accepted (what runs where, warnings), so that a
    /// refused run does not first announce itself.
    opening: Vec<String>,
}

impl PairBar {
    pub fn new(opening: Vec<String>) -> PairBar {
        PairBar {
            opening,
            ..PairBar::default()
        }
    }

    fn with<R>(&self, f: impl FnOnce(&mut Option<ProgressBar>) -> R) -> R {
        f(&mut self.bar.lock().unwrap_or_else(|e| e.into_inner()))
    }
}

impl Progress for PairBar {
    fn accepted(&self) {
        for line in &self.opening {
            eprintln!("tilebench: {line}");
        }
    }

    fn start(&self, pending: usize) {
        let bar = if std::io::stderr().is_terminal() {
            let bar =
                ProgressBar::with_draw_target(Some(pending as u64), ProgressDrawTarget::stderr());
            if let Ok(style) = ProgressStyle::with_template(
                "{elapsed_precise} [{bar:40}] {pos}/{len} pairs, ETA {eta_precise}",
            ) {
                bar.set_style(style.progress_chars("=> "));
            }
            bar
        } else {
            ProgressBar::hidden()
        };
        self.with(|b| *b = Some(bar));
    }

    fn pair_done(&self, _run: &RunRecord, problem: Option<&str>) {
        self.with(|b| {
            if let Some(bar) = b {
                if let Some(problem) = problem {
                    bar.suspend(|| eprintln!("tilebench: {problem}"));
                }
                bar.inc(1);
            } else if let Some(problem) = problem {
                eprintln!("tilebench: {problem}");
            }
        });
    }

    fn finish(&self) {
        self.with(|b| {
            if let Some(bar) = b.take() {
                bar.finish_and_clear();
            }
        });
    }

    fn oversubscribed(&self, jobs: usize, search_threads: usize, cores: usize) {
        eprintln!(
            "tilebench: warning: {jobs} jobs × {search_threads} search threads = {} threads on \
             {cores} cores; the searches will share the cores and each take longer (keep \
             jobs × search threads ≤ cores)",
            jobs * search_threads
        );
    }
}

/// A bar while a pattern database is built (indicatif hides it when stderr is not a terminal),
/// and the cache's warnings.
#[derive(Default)]
pub(crate) struct TableBar {
    bar: Mutex<Option<ProgressBar>>,
}

impl CacheEvents for TableBar {
    fn building(&self, goal: &Goal, tiles: &[u8], done: u64, total: u64) {
        let mut b = self.bar.lock().unwrap_or_else(|e| e.into_inner());
        let bar = b.get_or_insert_with(|| {
            let bar = ProgressBar::new(1);
            if let Ok(style) = ProgressStyle::with_template(
                "{msg} [{bar:30}] {percent:>3}% {elapsed_precise} ETA {eta}",
            ) {
                bar.set_style(style);
            }
            bar.set_message(format!(
                "building {} pattern database {}",
                goal.size(),
                join_tiles(tiles)
            ));
            bar
        });
        bar.set_length(total);
        bar.set_position(done);
    }

    fn built(&self, _goal: &Goal, _tiles: &[u8]) {
        if let Some(bar) = self.bar.lock().unwrap_or_else(|e| e.into_inner()).take() {
            bar.finish_and_clear();
        }
    }

    fn rebuilding(&self, error: &PdbError) {
        eprintln!("tilebench: {error}; rebuilding it");
    }

    /// Said once per process: the search goes on with the table in memory.
    fn not_cached(&self, error: &PdbError) {
        static WARNED: AtomicBool = AtomicBool::new(false);
        if !WARNED.swap(true, Ordering::Relaxed) {
            eprintln!(
                "tilebench: warning: pattern database not cached, used from memory only \
                 (each process builds it again): {error}"
            );
        }
    }
}
