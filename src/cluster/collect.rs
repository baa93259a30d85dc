//! `collect`: merging the shards of an experiment into one results directory.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use crate::experiment::lock::DirLock;
use crate::experiment::ExperimentError;

use super::error::ClusterError;
use super::slurm;
use crate::experiment::describe::experiment_meta;
use crate::experiment::provenance::{git_commit, git_dirty, now_rfc3339};
use crate::experiment::writer::{self, Files};
use crate::experiment::{shard_dir, Experiment, SHARDS_DIR};
use crate::path_io::{At, Found};
use crate::results::meta::{Collected, SetInfo, Shard, ShardSession};
use crate::results::{
    ExperimentSpec, IterationRecord, Meta, RunKey, RunRecord, RunState, RunStatus, META_FILE,
};

/// A pair that is missing from the merged results, or present with status `error` or
/// `wrong-length`.
#[derive(Debug, Clone, PartialEq)]
pub struct Gap {
    pub key: RunKey,
    pub shard: usize,
    /// The row's status; `None` when the pair is missing.
    pub status: Option<RunStatus>,
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
    let files = Files::in_dir(&shard_dir(out, index));
    if !files.runs.exists() {
        return Ok((Vec::new(), Vec::new()));
    }
    Ok(writer::recover(&files)?)
}

/// The pairs finished in shard `index` of `out`.
pub fn done_keys(out: &Path, index: usize) -> Result<HashSet<RunKey>, ClusterError> {
    Ok(shard_rows(out, index)?
        .0
        .iter()
        .map(RunRecord::key)
        .collect())
}

/// The shards of the experiment in `out` that still have pairs without a row.
pub fn pending_shards(out: &Path, spec: &ExperimentSpec) -> Result<Vec<usize>, ClusterError> {
    let exp = spec.experiment()?;
    let all = exp.pairs();
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
            .any(|p| !done.contains(&exp.key(p)))
        {
            pending.push(index);
        }
    }
    Ok(pending)
}

/// Folders under `OUT/shards/` must be the shard indexes 0..N.
fn check_layout(out: &Path, count: usize) -> Result<(), ClusterError> {
    let dir = out.join(SHARDS_DIR);
    let Some(entries) = std::fs::read_dir(&dir).found().at(&dir)? else {
        return Ok(());
    };
    for entry in entries {
        let entry = entry.at(&dir)?;
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
/// `command_line` is recorded in the merged meta.json.
pub fn collect(out: &Path, command_line: Vec<String>) -> Result<Collection, ClusterError> {
    let spec = ExperimentSpec::load(out)?.ok_or_else(|| ClusterError::NotSharded(out.into()))?;
    // One writer of OUT at a time (shards lock their own folders, so they may still run).
    let _lock = DirLock::acquire(out).map_err(ExperimentError::from)?;
    check_layout(out, spec.shards)?;
    let exp = spec.experiment()?;
    let all = exp.pairs();
    let assign = Shard::assign(&all, spec.shards);
    let shard_of: HashMap<RunKey, usize> = all
        .iter()
        .zip(&assign)
        .map(|(p, s)| (exp.key(p), *s))
        .collect();
    let submissions = slurm::submissions(out)?;
    // What every shard's meta.json must record: the experiment as the instance files hold it now.
    let reference = experiment_meta(&exp, Vec::new());

    let mut runs: Vec<RunRecord> = Vec::new();
    let mut iterations: Vec<IterationRecord> = Vec::new();
    let mut seen: HashMap<RunKey, usize> = HashMap::new();
    let mut shard_metas = Vec::new();
    for index in 0..spec.shards {
        let dir = shard_dir(out, index);
        let (r, i) = shard_rows(out, index)?;
        for row in &r {
            let key = row.key();
            if shard_of.get(&key) != Some(&index) {
                return Err(ClusterError::Foreign {
                    dir,
                    key: Box::new(key),
                    shard: index,
                });
            }
            if let Some(first) = seen.insert(key.clone(), index) {
                return Err(ClusterError::Duplicate {
                    key: Box::new(key),
                    first: shard_dir(out, first),
                    second: dir,
                });
            }
        }
        let meta_path = dir.join(META_FILE);
        if meta_path.exists() {
            let meta = Meta::read(&meta_path).map_err(ExperimentError::from)?;
            check_same_experiment(&meta_path, &meta, &reference)?;
            shard_metas.push((index, meta));
        } else if !r.is_empty() {
            return Err(ClusterError::OtherExperiment {
                path: meta_path,
                what: "it is missing, so nothing says which experiment these rows belong to".into(),
            });
        }
        runs.extend(r);
        iterations.extend(i);
    }

    let log = |shard: usize| slurm::last_log(out, &submissions, shard);
    let missing: Vec<Gap> = all
        .iter()
        .zip(&assign)
        .map(|(p, s)| (exp.key(p), *s))
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
        .filter(|r| r.status.is_failure())
        .map(|r| {
            let shard = shard_of[&r.key()];
            Gap {
                key: r.key(),
                shard,
                status: Some(r.status),
                log: log(shard),
            }
        })
        .collect();
    let order = exp.order(&all);
    failed.sort_by_key(|g| order[&g.key]);

    let collection = Collection {
        pairs: all.len(),
        present: runs.len(),
        missing,
        failed,
    };
    writer::write_sorted(&Files::in_dir(out), runs, iterations, &order)?;
    let merged = merged_meta(
        &exp,
        spec,
        &collection,
        shard_metas,
        submissions,
        command_line,
    );
    let meta_path = out.join(META_FILE);
    merged.write(&meta_path).map_err(ExperimentError::from)?;
    Ok(collection)
}

/// Refuses a shard whose meta.json records another experiment than `reference` (the instance
/// sets' names, sizes, goals, counts and content hashes; then whatever
/// [`ExperimentSpec::differences`] compares): its rows would be merged under the same names as
/// rows of other boards or limits.
fn check_same_experiment(path: &Path, shard: &Meta, reference: &Meta) -> Result<(), ClusterError> {
    let differs = |what: String| {
        Err(ClusterError::OtherExperiment {
            path: path.to_path_buf(),
            what,
        })
    };
    let (ours, theirs) = (&shard.instance_sets, &reference.instance_sets);
    if ours.len() != theirs.len() {
        return differs(format!(
            "{} instance set(s), the experiment has {}",
            ours.len(),
            theirs.len()
        ));
    }
    fn key(s: &SetInfo) -> impl PartialEq + '_ {
        (&s.name, &s.size, &s.goal, s.instances, &s.content_hash)
    }
    let show = |s: &SetInfo| {
        format!(
            "'{}' ({} {}, {} instances, content {})",
            s.name,
            s.size,
            s.goal,
            s.instances,
            s.content_hash.as_deref().unwrap_or("not recorded")
        )
    };
    if let Some((a, b)) = ours.iter().zip(theirs).find(|(a, b)| key(a) != key(b)) {
        return differs(format!(
            "instance set {} is not the experiment's {}: the instance file changed since this \
             shard ran, or the shard comes from another run",
            show(a),
            show(b)
        ));
    }
    // The rest as every check of one experiment compares it, in order (shards deal pairs by it).
    let (shard, reference) = (&shard.experiment, &reference.experiment);
    let d = shard
        .methods_and_limits()
        .differences(&reference.methods_and_limits(), true);
    if !d.is_empty() {
        let named: Vec<String> = d
            .iter()
            .map(|x| x.named("in this shard", "in the experiment"))
            .collect();
        return differs(named.join("; "));
    }
    Ok(())
}

/// The merged meta.json: the first shard's record (the same fields as a local run's, so reports
/// read it alike) with the collect command, the earliest start and latest finish, and the state;
/// plus the experiment, a summary of every shard's session, and the Slurm submissions.
fn merged_meta(
    exp: &Experiment,
    spec: ExperimentSpec,
    collection: &Collection,
    shard_metas: Vec<(usize, Meta)>,
    submissions: Vec<slurm::Submission>,
    command_line: Vec<String>,
) -> Meta {
    let started = shard_metas.iter().map(|(_, m)| m.started.clone()).min();
    let finished = shard_metas
        .iter()
        .filter_map(|(_, m)| m.finished.clone())
        .max();
    let shards: Vec<ShardSession> = shard_metas
        .iter()
        .map(|(index, m)| ShardSession {
            index: *index,
            state: m.state,
            started: m.started.clone(),
            finished: m.finished.clone(),
            pairs: m.pairs,
            hostname: m.machine.hostname.clone(),
            git_commit: m.git_commit.clone(),
            command_line: m.command_line.clone(),
        })
        .collect();
    let first = shard_metas.into_iter().next().map(|(_, m)| m);
    // With no shard run yet, a record of the experiment alone.
    let mut merged = first.unwrap_or_else(|| experiment_meta(exp, Vec::new()));
    merged.command_line = command_line;
    merged.started = started.unwrap_or(merged.started);
    merged.finished = if collection.complete() {
        finished
    } else {
        None
    };
    merged.state = if collection.missing.is_empty() {
        RunState::Complete
    } else {
        RunState::Incomplete
    };
    merged.pairs = collection.pairs;
    merged.pairs_done_before = 0;
    merged.previous_sessions = Vec::new();
    merged.retry = Vec::new();
    merged.shard = None;
    merged.collected = Some(Collected {
        at: now_rfc3339(),
        git_commit: git_commit().map(str::to_string),
        git_dirty: git_dirty(),
        present: collection.present,
        missing: collection.missing.len(),
        failed: collection.failed.len(),
    });
    merged.experiment = spec;
    merged.shards = shards;
    merged.slurm_submissions = submissions;
    merged
}
