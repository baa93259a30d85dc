//! `collect`: merging the shards of an experiment into one results directory.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use serde_json::{json, Value};

use super::{
    io_err, read_json, shard_dir, slurm, write_json, ClusterError, ExperimentSpec, Shard,
    SHARDS_DIR,
};
use crate::meta;
use crate::record::{IterationRecord, RunRecord, ITERATIONS_FILE, META_FILE, RUNS_FILE};
use crate::runner::{self, all_pairs, key_of, label, pair_order, Key};

/// A pair that is missing from the merged results, or present with status `error` or
/// `wrong-length`.
#[derive(Debug, Clone, PartialEq)]
pub struct Gap {
    pub key: Key,
    pub shard: usize,
    /// The row's status; `None` when the pair is missing.
    pub status: Option<String>,
    /// The Slurm log of the last array task that ran this shard, if it was submitted.
    pub log: Option<PathBuf>,
}

/// What [`collect`] merged.
#[derive(Debug, Clone)]
pub struct Collection {
    pub pairs: usize,
    /// Pairs with a row.
    pub present: usize,
    pub missing: Vec<Gap>,
    pub failed: Vec<Gap>,
}

impl Collection {
    /// Every pair has a row and none failed.
    pub fn complete(&self) -> bool {
        self.missing.is_empty() && self.failed.is_empty()
    }
}

/// The rows of one shard folder (whole rows only, as `run --resume` would keep them).
fn shard_rows(
    out: &Path,
    index: usize,
) -> Result<(Vec<RunRecord>, Vec<IterationRecord>), ClusterError> {
    let dir = shard_dir(out, index);
    let runs = dir.join(RUNS_FILE);
    if !runs.exists() {
        return Ok((Vec::new(), Vec::new()));
    }
    Ok(runner::recover(&runs, &dir.join(ITERATIONS_FILE))?)
}

/// The pairs finished in shard `index` of `out`.
pub fn done_keys(out: &Path, index: usize) -> Result<HashSet<Key>, ClusterError> {
    Ok(shard_rows(out, index)?.0.iter().map(key_of).collect())
}

/// The shards of the experiment in `out` that still have pairs without a row.
pub fn pending_shards(out: &Path, spec: &ExperimentSpec) -> Result<Vec<usize>, ClusterError> {
    let exp = spec.experiment()?;
    let all = all_pairs(&exp);
    let mut pending = Vec::new();
    for index in 0..spec.shards {
        let done = done_keys(out, index)?;
        let shard = Shard {
            index,
            count: spec.shards,
        };
        if shard
            .select(&all)
            .iter()
            .any(|p| !done.contains(&label(&exp, p)))
        {
            pending.push(index);
        }
    }
    Ok(pending)
}

/// Folders under `OUT/shards/` must be the shard indexes 0..N.
fn check_layout(out: &Path, count: usize) -> Result<(), ClusterError> {
    let dir = out.join(SHARDS_DIR);
    let entries = match std::fs::read_dir(&dir) {
        Ok(e) => e,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(source) => return Err(ClusterError::Io { path: dir, source }),
    };
    for entry in entries {
        let entry = entry.map_err(io_err(&dir))?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if !name.parse::<usize>().is_ok_and(|i| i < count) {
            return Err(ClusterError::Layout {
                dir: entry.path(),
                reason: format!("not a shard of this {count}-shard experiment"),
            });
        }
    }
    Ok(())
}

/// Merges the shards of the experiment in `out` into `out/runs.csv`, `out/iterations.csv` (in
/// the order an unsharded run writes) and `out/meta.json`. Duplicated pairs, and rows of pairs
/// that belong to no shard or another shard, are errors; missing and failed pairs are reported
/// in the result (the files are still written, with `state` `incomplete` in meta.json).
pub fn collect(out: &Path, command_line: Vec<String>) -> Result<Collection, ClusterError> {
    let spec = ExperimentSpec::load(out)?.ok_or_else(|| ClusterError::NotSharded(out.into()))?;
    check_layout(out, spec.shards)?;
    let exp = spec.experiment()?;
    let all = all_pairs(&exp);
    let assign = Shard::assign(&all, spec.shards);
    let shard_of: HashMap<Key, usize> = all
        .iter()
        .zip(&assign)
        .map(|(p, s)| (label(&exp, p), *s))
        .collect();
    let submissions = slurm::submissions(out)?;

    let mut runs: Vec<RunRecord> = Vec::new();
    let mut iterations: Vec<IterationRecord> = Vec::new();
    let mut seen: HashMap<Key, usize> = HashMap::new();
    let mut shard_metas = Vec::new();
    for index in 0..spec.shards {
        let dir = shard_dir(out, index);
        let (r, i) = shard_rows(out, index)?;
        for row in &r {
            let key = key_of(row);
            if shard_of.get(&key) != Some(&index) {
                return Err(ClusterError::Foreign {
                    dir,
                    key,
                    shard: index,
                });
            }
            if let Some(first) = seen.insert(key.clone(), index) {
                return Err(ClusterError::Duplicate {
                    key,
                    first: shard_dir(out, first),
                    second: dir,
                });
            }
        }
        runs.extend(r);
        iterations.extend(i);
        if let Some(m) = read_json::<Value>(&dir.join(META_FILE))? {
            shard_metas.push((index, m));
        }
    }

    let log = |shard: usize| slurm::last_log(out, &submissions, shard);
    let missing: Vec<Gap> = all
        .iter()
        .zip(&assign)
        .map(|(p, s)| (label(&exp, p), *s))
        .filter(|(k, _)| !seen.contains_key(k))
        .map(|(key, shard)| Gap {
            key,
            shard,
            status: None,
            log: log(shard),
        })
        .collect();
    let mut failed: Vec<Gap> = runs
        .iter()
        .filter(|r| r.status == "error" || r.status == "wrong-length")
        .map(|r| {
            let shard = shard_of[&key_of(r)];
            Gap {
                key: key_of(r),
                shard,
                status: Some(r.status.clone()),
                log: log(shard),
            }
        })
        .collect();
    let order = pair_order(&exp, &all);
    failed.sort_by_key(|g| order[&g.key]);

    let collection = Collection {
        pairs: all.len(),
        present: runs.len(),
        missing,
        failed,
    };
    runner::write_sorted(
        &out.join(RUNS_FILE),
        &out.join(ITERATIONS_FILE),
        runs,
        iterations,
        &order,
    )?;
    let merged = merged_meta(&spec, &collection, shard_metas, &submissions, command_line);
    write_json(&out.join(META_FILE), &merged)?;
    Ok(collection)
}

/// The merged meta.json: the first shard's record (same keys as a local run's, so reports read
/// it alike) with the collect command, the earliest start and latest finish, and the state;
/// plus `experiment`, a summary of every shard's session, and the Slurm submissions.
fn merged_meta(
    spec: &ExperimentSpec,
    collection: &Collection,
    shard_metas: Vec<(usize, Value)>,
    submissions: &[slurm::Submission],
    command_line: Vec<String>,
) -> Value {
    let mut merged = shard_metas
        .first()
        .map(|(_, m)| m.clone())
        .filter(Value::is_object)
        .unwrap_or_else(|| json!({}));
    let text = |m: &Value, k: &str| m.get(k).and_then(Value::as_str).map(str::to_string);
    let started = shard_metas
        .iter()
        .filter_map(|(_, m)| text(m, "started"))
        .min();
    let finished = shard_metas
        .iter()
        .filter_map(|(_, m)| text(m, "finished"))
        .max();
    let shards: Vec<Value> = shard_metas
        .iter()
        .map(|(index, m)| {
            json!({
                "index": index,
                "state": m.get("state"),
                "started": m.get("started"),
                "finished": m.get("finished"),
                "pairs": m.get("pairs"),
                "hostname": m.pointer("/machine/hostname"),
                "git_commit": m.get("git_commit"),
                "command_line": m.get("command_line"),
            })
        })
        .collect();
    let (git_commit, git_dirty) = meta::git_state(meta::source_dir());
    let o = merged.as_object_mut().expect("an object");
    o.insert("command_line".into(), json!(command_line));
    o.insert("started".into(), json!(started));
    o.insert(
        "finished".into(),
        json!(if collection.complete() {
            finished
        } else {
            None
        }),
    );
    o.insert(
        "state".into(),
        json!(if collection.missing.is_empty() {
            "complete"
        } else {
            "incomplete"
        }),
    );
    o.insert("pairs".into(), json!(collection.pairs));
    o.insert("pairs_done_before".into(), json!(0));
    o.insert("previous_sessions".into(), json!([]));
    o.remove("shard");
    o.insert(
        "collected".into(),
        json!({
            "at": meta::now_rfc3339(),
            "git_commit": git_commit,
            "git_dirty": git_dirty,
            "present": collection.present,
            "missing": collection.missing.len(),
            "failed": collection.failed.len(),
        }),
    );
    o.insert("experiment".into(), json!(spec));
    o.insert("shards".into(), json!(shards));
    o.insert("slurm_submissions".into(), json!(submissions));
    merged
}
