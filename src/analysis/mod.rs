//! Figures computed from stored results, shared by the plots, the report and the comparison:
//! pure functions of a [`crate::results::Results`], never of a run in progress.
//!
//! - [`aggregate`]: the per-heuristic summary (means over solved runs, reduction against the
//!   reference heuristic, overheads), each by the formula the report states;
//! - [`published`]: the published figures (Korf 1985, Korf & Felner 2002) and our runs beside
//!   them;
//! - [`per_instance`]: our counts beside a published per-instance column, per (instance set,
//!   heuristic).
//! - [`outside`]: outside solvers beside the built-in search, instance by instance.
//!   heuristic);
//! - [`prediction`]: KRE predictions beside the measured nodes of one IDA* iteration.

pub mod aggregate;
pub(crate) use aggregate::geomean;
pub use aggregate::{median, quantile};
pub mod outside;
pub mod per_instance;
pub mod prediction;
pub mod published;

pub use aggregate::{
    heuristics_of_set, reference_heuristic, solved_by_instance, summarize, Reduction, Summary,
    REFERENCE_HEURISTIC,
};
pub use per_instance::{
    per_instance_comparisons, published_column, PerInstanceComparison, PublishedColumn,
    PUBLISHED_COLUMNS,
};

/// The items, each once, in order of first appearance: for short lists, where a linear search
/// keeps the order without hashing.
pub(crate) fn first_appearance<T: PartialEq>(items: impl IntoIterator<Item = T>) -> Vec<T> {
    let mut out: Vec<T> = Vec::new();
    for item in items {
        if !out.contains(&item) {
            out.push(item);
        }
    }
    out
}
