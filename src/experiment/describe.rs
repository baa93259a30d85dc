//! An experiment's record in `meta.json` ([`Meta`]): what it runs, under which limits and
//! settings, by which binary on which machine.

use super::plan::Experiment;
use super::provenance::{git_commit, git_dirty, machine, now_rfc3339, RUSTC_VERSION};
use super::settings::Settings;
use crate::results::meta::{Meta, SetInfo, SCHEMA_VERSION};
use crate::results::ExperimentSpec;

/// The record of a session that starts now: `pairs` pairs, `done_before` of them already in the
/// results, after the `previous` sessions' record (on resume).
pub(crate) fn new_meta(
    exp: &Experiment,
    pairs: usize,
    done_before: usize,
    settings: &Settings,
    previous: Option<Meta>,
) -> Meta {
    let mut meta = experiment_meta(exp, settings.command_line.clone());
    meta.threads = settings.threads;
    meta.pairs = pairs;
    meta.pairs_done_before = done_before;
    meta.shard = settings.shard;
    meta.experiment.shards = settings.shard.map_or(0, |s| s.count);
    meta.retry = settings.retry.clone();
    if let Some(mut p) = previous {
        meta.previous_sessions.append(&mut p.previous_sessions);
        meta.previous_sessions.push(p);
    }
    meta
}

/// The record of `exp`, started now by `command_line` in this binary on this machine: no pairs,
/// no threads, no sessions yet.
pub(crate) fn experiment_meta(exp: &Experiment, command_line: Vec<String>) -> Meta {
    Meta {
        schema_version: SCHEMA_VERSION,
        command_line,
        tilebench_version: env!("CARGO_PKG_VERSION").to_string(),
        git_commit: git_commit().map(str::to_string),
        git_dirty: git_dirty(),
        rustc_version: RUSTC_VERSION.to_string(),
        machine: machine(),
        started: now_rfc3339(),
        instance_sets: exp
            .sets
            .iter()
            .map(|(spec, s)| SetInfo {
                name: s.name.clone(),
                path: spec.clone(),
                size: s.size.to_string(),
                goal: s.goal.name(),
                instances: s.instances.len(),
                seed: s.header_value("seed").map(str::to_string),
                generator: s.header_value("generator").map(str::to_string),
                source: s.header_value("source").map(str::to_string),
                content_hash: Some(s.content_hash()),
            })
            .collect(),
        // The selections as given: a record, not instructions for tasks elsewhere.
        experiment: ExperimentSpec {
            instances: exp.sets.iter().map(|(spec, _)| spec.clone()).collect(),
            ..ExperimentSpec::new(exp, 0)
        },
        ..Meta::default()
    }
}
