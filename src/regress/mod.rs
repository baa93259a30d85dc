//! Regression tracking between two builds measured side by side: `tilebench regress`.
//!
//! Two runs of the same binary at different times differ by 10–30 % on a shared machine, so a
//! time verdict between results measured apart is weak. Here both revisions are built once
//! ([`build`]: a per-commit cache outside the checkout), then run the same workload
//! **alternately**, round after round, in one session ([`runner`]); each round gives one paired
//! ratio head/base per (instance, method), and the verdict ([`verdict`]) rests on each method's
//! geometric mean of those ratios, with the t interval of the rounds' geometric means
//! ([`stats`]), against a threshold: "slower" only when the
//! whole interval lies beyond it, otherwise "no change detected at ±x %" with x what this run
//! could resolve. Node counts must be identical. `--instructions` counts instructions under
//! valgrind ([`instructions`]): one round, the same figure on every machine. [`output`] writes
//! the results directory, the Markdown/JSON verdict, the report and the history lines.

pub mod build;
pub mod instructions;
pub mod output;
pub mod report;
pub mod revision;
pub mod runner;
pub mod session;
pub mod stats;
pub mod verdict;

use std::fmt;
use std::path::PathBuf;

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::results::RunStatus;

/// Why a regression check could not be made (exit status 2): bad revisions, failed builds,
/// binaries that fail the workload, unreadable outputs.
#[derive(Debug, Error)]
pub enum RegressError {
    #[error("{what}: {message}")]
    Git { what: String, message: String },
    #[error("building {revision} failed (cargo exited with {status}); its log: {}", log.display())]
    Build {
        revision: String,
        status: String,
        log: PathBuf,
    },
    #[error(transparent)]
    Io(#[from] crate::path_io::PathIo),
    #[error("could not start {program}: {source}")]
    Spawn {
        program: String,
        source: std::io::Error,
    },
    #[error("{side} ({binary}) failed the workload in round {round} ({status}): {stderr}")]
    RunFailed {
        side: Side,
        binary: String,
        round: String,
        status: String,
        stderr: String,
    },
    #[error(transparent)]
    Csv(#[from] crate::results::CsvError),
    #[error(transparent)]
    Meta(#[from] crate::results::meta::MetaError),
    #[error("{0}")]
    Input(String),
    #[error("valgrind: {0}")]
    Valgrind(String),
    #[error(transparent)]
    Report(#[from] crate::report::ReportError),
    #[error(transparent)]
    Plot(#[from] crate::plot::PlotError),
    #[error(transparent)]
    History(#[from] crate::results::history::HistoryError),
}

/// Which build: the reference (`--base`) or the one judged (`--head`).
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
)]
#[serde(rename_all = "kebab-case")]
pub enum Side {
    #[default]
    Base,
    Head,
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Side::Base => "base",
            Side::Head => "head",
        })
    }
}

/// One (instance, method) of the workload: what a paired ratio is about.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub struct Pair {
    pub instance_set: String,
    pub instance_id: String,
    pub method: String,
}

impl fmt::Display for Pair {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} #{} {}",
            self.instance_set, self.instance_id, self.method
        )
    }
}

/// One run of one pair by one side in one round: a line of `rounds.csv`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct RoundRow {
    /// 1-based; warm-up rounds are not kept.
    pub round: u32,
    pub side: Side,
    /// 1 when this side ran first in the round, 2 when second (the order alternates).
    pub position: u8,
    pub instance_set: String,
    pub instance_id: String,
    pub method: String,
    pub status: RunStatus,
    pub length: Option<u32>,
    pub generated: u64,
    pub expanded: u64,
    /// Seconds of search (the binary's own `seconds`: no start-up, no table loading).
    pub seconds: f64,
}

impl RoundRow {
    pub fn pair(&self) -> Pair {
        Pair {
            instance_set: self.instance_set.clone(),
            instance_id: self.instance_id.clone(),
            method: self.method.clone(),
        }
    }
}

/// Instructions of one pair by one side under valgrind: a line of `instructions.csv`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct InstructionRow {
    pub side: Side,
    pub instance_set: String,
    pub instance_id: String,
    pub method: String,
    /// The whole process solving the pair.
    pub total: u64,
    /// The same process stopped after one node (`--node-limit 1`): start-up, tables, output.
    pub startup: u64,
    /// `total − startup`: the search's own instructions, the figure judged.
    pub search: u64,
}

impl InstructionRow {
    pub fn pair(&self) -> Pair {
        Pair {
            instance_set: self.instance_set.clone(),
            instance_id: self.instance_id.clone(),
            method: self.method.clone(),
        }
    }
}
