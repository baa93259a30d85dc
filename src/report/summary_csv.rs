//! `summary.csv` and `summary-full.csv`: the summary tables as CSV, written through the csv
//! crate. `summary.csv` rounds each column as the report prints it (the rounding of every
//! column is in [`columns`] and in the report's Definitions), without thousands separators;
//! `summary-full.csv` has the same columns unrounded.

use std::path::{Path, PathBuf};

use super::model::Cell;
use crate::analysis::Summary;
use crate::results::io::atomic_write;

/// The rounding of each kind of figure, shared by the report's tables and `summary.csv`.
pub mod rounding {
    use crate::report::model::Rounding;
    /// Mean h(start): 3 decimals (Korf & Felner print 3).
    pub(crate) const H0: Rounding = Rounding::Decimals(3);
    /// Node counts and rates: nearest integer.
    pub(crate) const NODES: Rounding = Rounding::Integer;
    /// Seconds: 4 significant digits.
    pub(crate) const SECONDS: Rounding = Rounding::Significant(4);
    /// Reduction factors: 4 significant digits.
    pub(crate) const FACTOR: Rounding = Rounding::Significant(4);
    /// Overheads: 3 decimals.
    pub(crate) const OVERHEAD: Rounding = Rounding::Decimals(3);
    /// Ratios ours / published: 3 significant digits.
    pub(crate) const RATIO: Rounding = Rounding::Significant(3);
    /// Ratios of node counts that can match to the node (Korf's per-instance counts): 6
    /// significant digits, so that a difference of one node in a million shows.
    pub(crate) const RATIO_EXACT: Rounding = Rounding::Significant(6);
}

/// Every column of the files, in order, with its cell for one summary (typed and rounded as
/// the report prints it).
pub fn columns(s: &Summary) -> Vec<(&'static str, Cell)> {
    let count = |n: usize| Cell::Count(n as u64);
    let reduction = s.reduction.as_ref();
    let (measured, predicted) = (s.mean_overhead_measured, s.mean_overhead_predicted);
    vec![
        ("instance_set", Cell::text(&s.instance_set)),
        ("heuristic", Cell::text(&s.heuristic)),
        ("runs", count(s.runs)),
        ("solved", count(s.solved)),
        ("mean_h0", Cell::opt(s.mean_h0, rounding::H0)),
        (
            "mean_generated",
            Cell::opt(s.mean_generated, rounding::NODES),
        ),
        (
            "geomean_generated",
            Cell::opt(s.geomean_generated, rounding::NODES),
        ),
        ("total_generated", Cell::count(s.total_generated)),
        ("mean_seconds", Cell::opt(s.mean_seconds, rounding::SECONDS)),
        (
            "total_seconds",
            Cell::num(s.total_seconds, rounding::SECONDS),
        ),
        (
            "nodes_per_second",
            Cell::opt(s.nodes_per_second, rounding::NODES),
        ),
        (
            "reference",
            reduction.map_or(Cell::Empty, |r| Cell::text(&r.reference)),
        ),
        (
            "reduction_factor",
            Cell::opt(reduction.map(|r| r.factor), rounding::FACTOR),
        ),
        (
            "reduction_instances",
            reduction.map_or(Cell::Empty, |r| count(r.common)),
        ),
        (
            "mean_overhead_measured",
            Cell::opt(measured.map(|m| m.0), rounding::OVERHEAD),
        ),
        ("overhead_measured_runs", count(measured.map_or(0, |m| m.1))),
        (
            "mean_overhead_predicted",
            Cell::opt(predicted.map(|m| m.0), rounding::OVERHEAD),
        ),
        (
            "overhead_predicted_runs",
            count(predicted.map_or(0, |m| m.1)),
        ),
    ]
}

/// A cell as `summary.csv` holds it: rounded, no thousands separators, empty for no value.
pub fn rounded(c: &Cell) -> String {
    match c {
        Cell::Number { value, rounding } => rounding.plain(*value),
        other => full(other),
    }
}

/// A cell as `summary-full.csv` holds it: the value unrounded (shortest exact form).
pub fn full(c: &Cell) -> String {
    match c {
        Cell::Text(s) | Cell::Code(s) => s.clone(),
        Cell::Count(n) => n.to_string(),
        Cell::Diff(d) => d.to_string(),
        Cell::Number { value, .. } => value.to_string(),
        Cell::Fraction(a, b) => format!("{a}/{b}"),
        Cell::WithCount(c, _) => full(c),
        Cell::Rich(t) => t.to_plain(),
        Cell::Empty => String::new(),
    }
}

/// The file's bytes: a header and one record per summary, each cell through `f`.
fn format(summaries: &[Summary], f: fn(&Cell) -> String) -> Vec<u8> {
    let mut w = csv::Writer::from_writer(Vec::new());
    let mut records = vec![columns(&Summary::default())
        .into_iter()
        .map(|(name, _)| name.to_string())
        .collect::<Vec<_>>()];
    records.extend(
        summaries
            .iter()
            .map(|s| columns(s).iter().map(|(_, c)| f(c)).collect()),
    );
    for r in records {
        w.write_record(&r).expect("writing CSV into memory");
    }
    w.into_inner().expect("flushing into memory")
}

/// Writes both files (each written whole, then renamed into place).
pub fn write(
    summaries: &[Summary],
    rounded_path: &Path,
    full_path: &Path,
) -> Result<(), (PathBuf, std::io::Error)> {
    for (path, f) in [
        (rounded_path, rounded as fn(&Cell) -> String),
        (full_path, full as fn(&Cell) -> String),
    ] {
        atomic_write(path, &format(summaries, f)).map_err(|e| (path.to_path_buf(), e))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rounding_is_plain_in_csv() {
        let c = Cell::num(0.189_075_455_649_999_95, rounding::SECONDS);
        assert_eq!(rounded(&c), "0.1891");
        assert_eq!(full(&c), "0.18907545564999995");
        assert_eq!(
            rounded(&Cell::num(401_189_630.4, rounding::NODES)),
            "401189630"
        );
        assert_eq!(rounded(&Cell::num(1234.56, rounding::SECONDS)), "1235");
        assert_eq!(rounded(&Cell::Empty), "");
    }
}
