//! Writing an experiment's rows the moment they are known, and reading them back after a crash.
//!
//! - **No lost or half rows.** Each finished pair is formatted completely in memory, then written
//!   under one lock with a single `write` call per file (its iteration rows first, then its
//!   `runs.csv` row) to files opened for appending, without buffering. A killed process leaves at
//!   most a torn last line, which [`recover`] drops (with the pair's iterations).
//! - **Sorted when done.** Rows arrive in completion order; [`write_sorted`] puts both files in
//!   pair order and replaces them atomically.
//!
//! All reading and writing goes through [`crate::results::io`].

use std::collections::{HashMap, HashSet};
use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};

use super::ExperimentError;
use crate::path_io::At;
use crate::results::io::{self, ReadMode};
use crate::results::{self, IterationRecord, RunKey, RunRecord, ITERATIONS_FILE, RUNS_FILE};

/// The two CSV files of a results directory.
#[derive(Debug, Clone)]
pub struct Files {
    pub runs: PathBuf,
    pub iterations: PathBuf,
}

impl Files {
    pub fn in_dir(dir: &Path) -> Files {
        Files {
            runs: dir.join(RUNS_FILE),
            iterations: dir.join(ITERATIONS_FILE),
        }
    }

    /// Replaces both files with their headers and `runs`, `iterations` (unsorted).
    pub(crate) fn reset(
        &self,
        runs: &[RunRecord],
        iterations: &[IterationRecord],
    ) -> Result<(), ExperimentError> {
        io::write_rows(&self.runs, runs)?;
        io::write_rows(&self.iterations, iterations)?;
        Ok(())
    }
}

/// Appends whole pairs to the files of a results directory.
pub(crate) struct RowWriter {
    runs: File,
    iterations: File,
    files: Files,
}

impl RowWriter {
    /// Opens both files (which must exist, with their headers) for appending.
    pub fn open(files: &Files) -> Result<RowWriter, ExperimentError> {
        let open = |path: &Path| crate::results::atomic::open_append(path, false).at(path);
        Ok(RowWriter {
            runs: open(&files.runs)?,
            iterations: open(&files.iterations)?,
            files: files.clone(),
        })
    }

    /// Appends one pair: its iteration rows in one write, then its run row in one write.
    pub fn write(
        &mut self,
        run: &RunRecord,
        iterations: &[IterationRecord],
    ) -> Result<(), ExperimentError> {
        let append = |file: &mut File, path: &Path, bytes: Vec<u8>| {
            file.write_all(&bytes).and_then(|_| file.flush()).at(path)
        };
        append(
            &mut self.iterations,
            &self.files.iterations,
            io::format_rows(iterations),
        )?;
        append(
            &mut self.runs,
            &self.files.runs,
            io::format_rows(std::slice::from_ref(run)),
        )?;
        Ok(())
    }
}

/// Reads whole rows back from a results directory (possibly left by a killed process): a last
/// line without its newline is dropped, and so are iteration rows whose pair has no run row.
/// A missing `iterations.csv` has no rows.
pub fn recover(files: &Files) -> Result<(Vec<RunRecord>, Vec<IterationRecord>), ExperimentError> {
    let runs: Vec<RunRecord> = results::read_runs(&files.runs, ReadMode::Tolerant)?
        .into_iter()
        .map(|(_, r)| r)
        .collect();
    let done: HashSet<RunKey> = runs.iter().map(RunRecord::key).collect();
    let iterations = if files.iterations.exists() {
        results::read_iterations(&files.iterations, ReadMode::Tolerant)?
            .into_iter()
            .map(|(_, i)| i)
            .filter(|i| done.contains(&i.key()))
            .collect()
    } else {
        Vec::new()
    };
    Ok((runs, iterations))
}

/// Writes rows to both files (replacing them atomically) in pair order: the one definition of
/// the order of finished result files, shared by a run and the merging of shards. Pairs not in
/// `order` (from an earlier experiment resumed with other settings) go last in name order.
pub fn write_sorted(
    files: &Files,
    mut runs: Vec<RunRecord>,
    mut iterations: Vec<IterationRecord>,
    order: &HashMap<RunKey, usize>,
) -> Result<(), ExperimentError> {
    let rank = |k: RunKey| (order.get(&k).copied().unwrap_or(usize::MAX), k);
    runs.sort_by_cached_key(|r| rank(r.key()));
    iterations.sort_by_cached_key(|i| (rank(i.key()), i.iteration));
    files.reset(&runs, &iterations)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::results::io::columns;

    #[test]
    fn recover_drops_a_torn_last_line_and_orphan_iterations() {
        let tmp = tempfile::tempdir().unwrap();
        let files = Files::in_dir(tmp.path());
        let header = columns::<RunRecord>().join(",");
        let row =
            "s,1,tilebench,ida,manhattan,solved,2,,2,1,1,2,2,0.1,20.0,,,,UL,true,1,0,3,500,166.7,0,1,,,,,,0\n";
        std::fs::write(&files.runs, format!("{header}\n{row}s,2,manh")).unwrap();
        std::fs::write(
            &files.iterations,
            format!(
                "{}\ns,1,ida,manhattan,1,2,1,2,0.1\ns,2,ida,manhattan,1,2,1,2,0.1\n",
                columns::<IterationRecord>().join(",")
            ),
        )
        .unwrap();
        let (r, i) = recover(&files).unwrap();
        assert_eq!(r.len(), 1);
        assert_eq!(r[0].moves, "UL");
        assert_eq!(r[0].growth_ratio, None);
        assert_eq!(i.len(), 1);
        assert_eq!(i[0].instance_id, "1");
        // A torn row in the middle is corruption, not something to skip silently.
        std::fs::write(&files.runs, format!("{header}\ns,2,manh\n{row}")).unwrap();
        let e = recover(&files).unwrap_err();
        assert!(e.to_string().contains("runs.csv, line 2"), "{e}");
    }

    #[test]
    fn sorted_in_pair_order_with_strangers_last() {
        let tmp = tempfile::tempdir().unwrap();
        let files = Files::in_dir(tmp.path());
        let run = |id: &str| RunRecord {
            instance_set: "s".into(),
            instance_id: id.into(),
            heuristic: "h".into(),
            ..RunRecord::default()
        };
        let order: HashMap<RunKey, usize> = [(run("2").key(), 0), (run("1").key(), 1)].into();
        write_sorted(&files, vec![run("9"), run("1"), run("2")], vec![], &order).unwrap();
        let (r, _) = recover(&files).unwrap();
        let ids: Vec<&str> = r.iter().map(|r| r.instance_id.as_str()).collect();
        assert_eq!(ids, ["2", "1", "9"]);
    }
}
