//! Everything that stops an experiment, below the modules that raise it.

use std::path::PathBuf;

use thiserror::Error;

use super::lock::LockError;
use super::outside::OutsideError;
use crate::heuristic::HeuristicError;
use crate::instances::InstanceError;
use crate::results::history::HistoryError;
use crate::results::{CsvError, MetaError, META_FILE};

/// Everything that stops an experiment from running or being recorded.
#[derive(Debug, Error)]
pub enum ExperimentError {
    #[error(transparent)]
    Instances(#[from] InstanceError),
    #[error(transparent)]
    HeuristicName(#[from] HeuristicError),
    #[error(transparent)]
    Outside(#[from] OutsideError),
    #[error("{0}")]
    BadOption(String),
    #[error(transparent)]
    Io(#[from] crate::path_io::PathIo),
    #[error(transparent)]
    Csv(#[from] CsvError),
    #[error(transparent)]
    Meta(#[from] MetaError),
    #[error("{}: {source}", path.display())]
    Json {
        path: PathBuf,
        source: serde_json::Error,
    },
    #[error("{}: {reason}", path.display())]
    BadSpec { path: PathBuf, reason: String },
    #[error(
        "{} already holds {rows} finished runs; pass --resume to add the missing ones, or \
         --overwrite to start again",
        dir.display()
    )]
    Exists { dir: PathBuf, rows: usize },
    #[error(
        "{} already holds a different experiment ({what}); use another --out, or the same \
         options as before",
        dir.display()
    )]
    Mismatch { dir: PathBuf, what: String },
    #[error("heuristic {heuristic} for goal {goal}: {source}")]
    Heuristic {
        heuristic: String,
        goal: String,
        source: Box<HeuristicError>,
    },
    #[error("{0}")]
    Pool(#[from] rayon::ThreadPoolBuildError),
    #[error(transparent)]
    Lock(#[from] LockError),
    #[error(
        "instance sets {first} and {second} have the same name '{name}' (the name is the key \
         of their rows in runs.csv); rename one file, or give a file once"
    )]
    SameSetName {
        name: String,
        first: String,
        second: String,
    },
    #[error(
        "checkpoint {}: {reason}; delete the file to run that pair again from the start",
        path.display()
    )]
    Checkpoint { path: PathBuf, reason: String },
    #[error("heuristic '{0}' is given twice")]
    DuplicateHeuristic(String),
    #[error(
        "{} holds another experiment; --resume adds only to the same one:\n  {}\n\
         (give the same options as before; a changed limit goes with --retry of its status; \
         or use another --out, or --overwrite)",
        dir.display(), differences.join("\n  ")
    )]
    ResumeMismatch {
        dir: PathBuf,
        differences: Vec<String>,
    },
    #[error(
        "heuristic {heuristic} is not the one the earlier rows were made with: run {run} \
         recorded h0 {before}, and it gives {now} now (a registered heuristic changed?); resume \
         with the code that wrote them, or start again with --overwrite or another --out"
    )]
    HeuristicChanged {
        heuristic: String,
        run: String,
        before: u32,
        now: u32,
    },
    #[error(
        "{}: {META_FILE} is missing, so --resume cannot check that the rows are of the same \
         experiment; use --overwrite or another --out",
        .0.display()
    )]
    NoMeta(PathBuf),
    #[error(transparent)]
    History(#[from] HistoryError),
}
