//! Checkpoint files: one per pair whose search is under way or was cut off, in
//! `OUT/checkpoints/`, so that a pair interrupted (Ctrl-C, a kill, a Slurm time limit) or
//! stopped by a limit continues where it was on `run --resume` (with `--retry time-limit` for
//! a pair that has a `time-limit` row) instead of starting again.
//!
//! - **Atomic.** Each save writes the whole file beside it and renames it over the old one, so a
//!   kill leaves the previous checkpoint or the new one, never half of one.
//! - **Checked on load.** A file names its pair (instance set, id, tiles, goal, heuristic) and
//!   carries a CRC-32 of its contents; a file that is not whole, was edited, or belongs to
//!   another pair is refused with an error naming it (delete it to redo that pair from the
//!   start). The search checks the rest (h of the start, the rising bounds, the split).
//! - **Removed** when the pair ends with a final row (solved, unsolvable, wrong length, error);
//!   kept with a `time-limit` or `node-limit` row, which a retry continues from.

use crate::path_io::{At, Found};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::ExperimentError;
use crate::results::io::atomic_write;
use crate::results::{RunKey, RunStatus};
use crate::search::{Checkpointing, SearchCheckpoint};

/// The folder of a results directory that holds the checkpoints.
pub(crate) const CHECKPOINTS_DIR: &str = "checkpoints";

/// The first line of the format, changed when the format changes.
const FORMAT: &str = "tilebench-checkpoint 1";

/// Which pair a checkpoint belongs to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PairId {
    pub instance_set: String,
    pub instance_id: String,
    pub heuristic: String,
    /// The start board's tiles, row-major, and the goal's name.
    pub tiles: Vec<u8>,
    pub goal: String,
}

/// What a checkpoint file holds, less its checksum.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Body {
    format: String,
    pair: PairId,
    /// How many times this pair has continued from a checkpoint before the one written here.
    resumes: u32,
    search: SearchCheckpoint,
}

#[derive(Debug, Serialize, Deserialize)]
struct File {
    #[serde(flatten)]
    body: Body,
    checksum: String,
}

fn checksum(body: &Body) -> String {
    let text = serde_json::to_string(body).unwrap_or_default();
    format!("crc32:{:08x}", crc32fast::hash(text.as_bytes()))
}

/// A checkpoint read back and checked.
#[derive(Debug, Clone)]
pub struct Loaded {
    pub search: SearchCheckpoint,
    /// Times the pair continued from a checkpoint before this one.
    pub resumes: u32,
}

/// The checkpoints of one results directory.
#[derive(Debug, Clone)]
pub struct Checkpoints {
    dir: PathBuf,
    pub every: Duration,
}

impl Checkpoints {
    pub fn in_dir(out: &Path, every: Duration) -> Checkpoints {
        Checkpoints {
            dir: out.join(CHECKPOINTS_DIR),
            every,
        }
    }

    /// The file of one pair: readable names, plus a CRC of the exact key so that names that
    /// only differ in characters a file name cannot hold stay apart.
    pub fn path(&self, key: &RunKey) -> PathBuf {
        // Readable parts as before (cut when long); the CRC keeps distinct keys apart.
        let clean = crate::results::atomic::readable_component;
        let exact = format!(
            "{}\t{}\t{}",
            key.instance_set,
            key.instance_id,
            key.method.series()
        );
        self.dir.join(format!(
            "{}--{}--{}--{:08x}.json",
            clean(&key.instance_set),
            clean(&key.instance_id),
            clean(key.method.series()),
            crc32fast::hash(exact.as_bytes())
        ))
    }

    /// Removes every checkpoint (a run that starts again from nothing).
    pub fn clear(&self) -> Result<(), ExperimentError> {
        std::fs::remove_dir_all(&self.dir).found().at(&self.dir)?;
        Ok(())
    }

    /// The checkpoint of `pair`, checked, if there is one.
    pub fn load(&self, key: &RunKey, pair: &PairId) -> Result<Option<Loaded>, ExperimentError> {
        let path = self.path(key);
        let Some(text) = std::fs::read_to_string(&path).found().at(&path)? else {
            return Ok(None);
        };
        let bad = |reason: String| ExperimentError::Checkpoint {
            path: path.clone(),
            reason,
        };
        let file: File =
            serde_json::from_str(&text).map_err(|e| bad(format!("unreadable: {e}")))?;
        if file.body.format != FORMAT {
            return Err(bad(format!(
                "format '{}', this tilebench reads '{FORMAT}'",
                file.body.format
            )));
        }
        let sum = checksum(&file.body);
        if file.checksum != sum {
            return Err(bad(format!(
                "checksum {} does not match its contents ({sum}): the file was changed",
                file.checksum
            )));
        }
        if file.body.pair != *pair {
            return Err(bad(format!(
                "it belongs to another pair ({:?}, expected {:?})",
                file.body.pair, pair
            )));
        }
        Ok(Some(Loaded {
            search: file.body.search,
            resumes: file.body.resumes,
        }))
    }

    /// Writes the checkpoint of `pair` atomically.
    pub fn save(
        &self,
        key: &RunKey,
        pair: &PairId,
        resumes: u32,
        search: &SearchCheckpoint,
    ) -> Result<(), ExperimentError> {
        let body = Body {
            format: FORMAT.into(),
            pair: pair.clone(),
            resumes,
            search: search.clone(),
        };
        let checksum = checksum(&body);
        let path = self.path(key);
        let text = serde_json::to_string_pretty(&File { body, checksum }).map_err(|source| {
            ExperimentError::Json {
                path: path.clone(),
                source,
            }
        })?;
        Ok(atomic_write(&path, text.as_bytes()).at(&path)?)
    }

    /// Removes the checkpoint of a pair that ended with `status`, unless a retry of that
    /// status would continue from it.
    pub fn finished(&self, key: &RunKey, status: RunStatus) -> Result<(), ExperimentError> {
        if matches!(status, RunStatus::TimeLimit | RunStatus::NodeLimit) {
            return Ok(());
        }
        let path = self.path(key);
        std::fs::remove_file(&path).found().at(&path)?;
        Ok(())
    }

    /// The search's checkpointing for `pair`, continuing from `loaded`; a save that fails is
    /// reported through `failed` (the search goes on: its next save may succeed).
    pub(crate) fn for_search(
        &self,
        key: &RunKey,
        pair: &PairId,
        loaded: Option<Loaded>,
        failed: Arc<dyn Fn(ExperimentError) + Send + Sync>,
    ) -> Checkpointing {
        let resumes = loaded.as_ref().map_or(0, |l| l.resumes + 1);
        let (me, key, pair) = (self.clone(), key.clone(), pair.clone());
        Checkpointing {
            from: loaded.map(|l| l.search),
            every: self.every,
            save: Arc::new(
                move |c: &SearchCheckpoint| match me.save(&key, &pair, resumes, c) {
                    Ok(()) => abort_if_asked(),
                    Err(e) => failed(e),
                },
            ),
        }
    }
}

/// The test hook that cuts a run at a known point instead of after a sleep: with
/// `TILEBENCH_TEST_ABORT_AFTER_CHECKPOINTS=N` in the environment, the process aborts (no clean-up,
/// as a SIGKILL would stop it) right after writing its N-th checkpoint.
pub const ABORT_AFTER_ENV: &str = "TILEBENCH_TEST_ABORT_AFTER_CHECKPOINTS";

fn abort_if_asked() {
    static LIMIT: OnceLock<Option<u64>> = OnceLock::new();
    static SAVED: AtomicU64 = AtomicU64::new(0);
    let limit = LIMIT.get_or_init(|| std::env::var(ABORT_AFTER_ENV).ok()?.parse().ok());
    if let Some(n) = *limit {
        if SAVED.fetch_add(1, Ordering::SeqCst) + 1 >= n {
            std::process::abort();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::{Iteration, PartialIteration};

    fn key() -> RunKey {
        RunKey::new("korf50-24", "40", "max(pdb-6666r,manhattan)")
    }

    fn pair() -> PairId {
        PairId {
            instance_set: "korf50-24".into(),
            instance_id: "40".into(),
            heuristic: "max(pdb-6666r,manhattan)".into(),
            tiles: vec![1, 0, 2, 3],
            goal: "blank-first".into(),
        }
    }

    fn checkpoint() -> SearchCheckpoint {
        SearchCheckpoint {
            h0: 68,
            iterations: vec![Iteration {
                bound: 68,
                expanded: 4,
                generated: 10,
                seconds: 0.1 + 0.2,
            }],
            bound: 70,
            current: Some(PartialIteration {
                split_depth: 3,
                subtrees: 12,
                shallow_expanded: 5,
                shallow_generated: 11,
                done: vec![],
                seconds: 0.5,
            }),
            seconds: 4.389_196_305_000_000_5 / 3.0,
        }
    }

    /// A path `name` that does not exist yet, in a temporary directory removed on drop.
    fn dir(name: &str) -> (tempfile::TempDir, PathBuf) {
        let tmp = tempfile::tempdir().unwrap();
        let d = tmp.path().join(name);
        (tmp, d)
    }

    #[test]
    fn saved_checkpoints_load_back_and_are_removed_when_final() {
        let (_tmp, d) = dir("roundtrip");
        let c = Checkpoints::in_dir(&d, Duration::from_secs(1));
        assert!(c.load(&key(), &pair()).unwrap().is_none());
        c.save(&key(), &pair(), 2, &checkpoint()).unwrap();
        let l = c.load(&key(), &pair()).unwrap().unwrap();
        assert_eq!((l.search, l.resumes), (checkpoint(), 2));
        assert!(c
            .path(&key())
            .file_name()
            .unwrap()
            .to_str()
            .unwrap()
            .starts_with("korf50-24--40--max_pdb-6666r_manhattan_--"));
        c.finished(&key(), RunStatus::TimeLimit).unwrap();
        assert!(c.path(&key()).exists(), "kept for a retry");
        c.finished(&key(), RunStatus::Solved).unwrap();
        assert!(!c.path(&key()).exists());
        c.clear().unwrap();
    }

    #[test]
    fn edited_truncated_or_foreign_checkpoints_are_refused_with_the_file_named() {
        let (_tmp, d) = dir("bad");
        let c = Checkpoints::in_dir(&d, Duration::from_secs(1));
        c.save(&key(), &pair(), 0, &checkpoint()).unwrap();
        let path = c.path(&key());
        let text = std::fs::read_to_string(&path).unwrap();

        std::fs::write(
            &path,
            text.replace("\"generated\": 10", "\"generated\": 11"),
        )
        .unwrap();
        let e = c.load(&key(), &pair()).unwrap_err().to_string();
        assert!(
            e.contains("checksum") && e.contains(path.to_str().unwrap()),
            "{e}"
        );

        std::fs::write(&path, &text[..text.len() / 2]).unwrap();
        let e = c.load(&key(), &pair()).unwrap_err().to_string();
        assert!(e.contains("unreadable"), "{e}");

        std::fs::write(&path, &text).unwrap();
        let other = PairId {
            tiles: vec![0, 1, 2, 3],
            ..pair()
        };
        let e = c.load(&key(), &other).unwrap_err().to_string();
        assert!(e.contains("another pair"), "{e}");
        c.clear().unwrap();
    }
}
