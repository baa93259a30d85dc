//! The performance history: one line per (commit, heuristic, instance set) appended to
//! `results/history.csv` at the end of each `run`, so the trend of nodes and speed over commits
//! can be read (and plotted) without keeping every results directory.
//!
//! Columns, in order:
//! - `commit`: the commit the run was built from (as the runner records it; may carry `-dirty`);
//! - `date`: when the run finished, ISO 8601 (the caller's string, kept as given);
//! - `heuristic`, `instance_set`: the group the figures are summed over;
//! - `runs`: runs in the group; `solved`: those with status `solved`;
//! - `total_generated`, `total_expanded`: nodes over all runs of the group (every status);
//! - `total_seconds`: the sum of the runs' own search times (not wall time, so it does not
//!   depend on how many runs went in parallel);
//! - `nodes_per_second`: `total_generated` over the seconds of the runs that know their node
//!   counts, empty when those measured no time (or no run reported a count);
//! - `instructions`: the search's instructions over the group's runs, counted under valgrind by
//!   `tilebench regress --instructions`; empty otherwise. Added later: files without the column
//!   read as before, and rows without a count are appended to such a file in its own layout.
//!
//! Totals only compare across commits over the same runs: look at `runs` and `solved` first.

use crate::path_io::{Found, PathIo};
use std::collections::BTreeMap;
use std::io::Write as _;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use thiserror::Error;

use super::io::{self, CsvError, ReadMode};
use super::record::{RunRecord, RunStatus};

/// The history file's name; `run` keeps it beside a default results directory, so
/// `results/default` appends to `results/history.csv`, and inside one given with `--out`.
pub const HISTORY_FILE: &str = "history.csv";

/// The history of the results directory `results_dir`: [`HISTORY_FILE`] in its parent
/// (`results/default` → `results/history.csv`), where `run` appends and `plot` looks.
pub fn beside(results_dir: &Path) -> PathBuf {
    results_dir
        .parent()
        .unwrap_or(Path::new("."))
        .join(HISTORY_FILE)
}

/// The `commit` of a history line: the build's commit, with `-dirty` when it had uncommitted
/// changes (as regress writes it, so that one build is one commit in the plot, marked).
pub(crate) fn commit_of(commit: Option<&str>, dirty: Option<bool>) -> String {
    match (commit, dirty) {
        (Some(c), Some(true)) => format!("{c}-dirty"),
        (c, _) => c.unwrap_or("unknown").to_string(),
    }
}

/// The history a run appends to: for a results directory given with `--out`, inside it (the
/// tree the user asked for; `--out /tmp/x` never shares `/tmp/history.csv` with other users);
/// for a default one (`results/NAME`), beside it, [`beside`].
pub fn of_run(results_dir: &Path, out_given: bool) -> PathBuf {
    if out_given {
        results_dir.join(HISTORY_FILE)
    } else {
        beside(results_dir)
    }
}

/// The history `plot` shows for a results directory: the one inside it, else the one beside it.
pub(crate) fn for_plot(results_dir: &Path) -> PathBuf {
    let inside = results_dir.join(HISTORY_FILE);
    if inside.exists() {
        inside
    } else {
        beside(results_dir)
    }
}

/// The header `append` writes and `load` expects: [`HistoryRow`]'s fields.
pub fn header() -> String {
    io::columns::<HistoryRow>().join(",")
}

/// The header of files written before the `instructions` column.
fn legacy_header() -> String {
    let mut columns = io::columns::<HistoryRow>();
    columns.pop();
    columns.join(",")
}

/// Whether `line` is the header of a history file (either layout); `Some(true)` when legacy.
fn header_kind(line: Option<&str>) -> Option<bool> {
    let line = line?.trim();
    if line == header() {
        Some(false)
    } else if line == legacy_header() {
        Some(true)
    } else {
        None
    }
}

#[derive(Debug, Error)]
pub enum HistoryError {
    #[error(transparent)]
    Io(#[from] crate::path_io::PathIo),
    #[error("{}: the header is not tilebench's history header (expected '{}')", path.display(), header())]
    Header { path: PathBuf },
    #[error(transparent)]
    Csv(#[from] CsvError),
}

/// One line of the history: the headline figures of one heuristic on one instance set.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct HistoryRow {
    pub commit: String,
    pub date: String,
    pub heuristic: String,
    pub instance_set: String,
    pub runs: u64,
    pub solved: u64,
    pub total_generated: u64,
    pub total_expanded: u64,
    pub total_seconds: f64,
    pub nodes_per_second: Option<f64>,
    /// Instructions of the search (regress --instructions); absent from older files.
    #[serde(default)]
    pub instructions: Option<u64>,
}

/// Sums runs by (heuristic, instance set), in that order, into history rows.
pub fn summarise(commit: &str, date: &str, runs: &[RunRecord]) -> Vec<HistoryRow> {
    let mut groups: BTreeMap<(String, &str), HistoryRow> = BTreeMap::new();
    // The seconds of the runs that know their node counts, per group: the rate is over those
    // runs alone (an outside solver that reported no count has no rate, and one that reported
    // some counts has the rate of those).
    let mut counted_seconds: BTreeMap<(String, &str), f64> = BTreeMap::new();
    for r in runs {
        if r.generated.is_some() {
            *counted_seconds
                .entry((r.label(), &r.instance_set))
                .or_default() += r.seconds;
        }
        let row = groups
            .entry((r.label(), &r.instance_set))
            .or_insert_with(|| HistoryRow {
                commit: commit.to_string(),
                date: date.to_string(),
                heuristic: r.label(),
                instance_set: r.instance_set.clone(),
                ..HistoryRow::default()
            });
        row.runs += 1;
        row.solved += u64::from(r.status == RunStatus::Solved);
        // The totals are over the counts known; one not reported adds nothing.
        row.total_generated += r.generated.unwrap_or(0);
        row.total_expanded += r.expanded.unwrap_or(0);
        row.total_seconds += r.seconds;
    }
    groups
        .into_iter()
        .map(|(key, mut row)| {
            let seconds = counted_seconds.get(&key).copied().unwrap_or(0.0);
            row.nodes_per_second = (seconds > 0.0).then(|| row.total_generated as f64 / seconds);
            row
        })
        .collect()
}

/// Appends `rows` to the history at `path`, creating it (and its directory) with the header when
/// absent. All rows go out in one write to a file opened for appending, so lines are whole even
/// when two runs finish together. A file with another header is refused, not appended to. A
/// file from before the `instructions` column gets rows without it while no row has a count;
/// the first row with one rewrites the file (atomically) with the column, empty on old lines.
pub fn append(path: &Path, rows: &[HistoryRow]) -> Result<(), HistoryError> {
    let io = |source| HistoryError::from(PathIo::new(path, source));
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(io)?;
    }
    let existing = std::fs::read_to_string(path).found().map_err(io)?;
    let mut text = Vec::new();
    let mut legacy = false;
    match &existing {
        Some(t) if !t.is_empty() => {
            legacy = header_kind(t.lines().next()).ok_or_else(|| HistoryError::Header {
                path: path.to_path_buf(),
            })?;
            if legacy && rows.iter().any(|r| r.instructions.is_some()) {
                // Rewrite with the new column, empty on every old line.
                let mut new = io::header_line::<HistoryRow>();
                for line in t.lines().skip(1).filter(|l| !l.is_empty()) {
                    new.extend(line.as_bytes());
                    new.extend(b",\n");
                }
                new.extend(io::format_rows(rows));
                return io::atomic_write(path, &new).map_err(io);
            }
            if !t.ends_with('\n') {
                text.push(b'\n');
            }
        }
        _ => text.extend(io::header_line::<HistoryRow>()),
    }
    let formatted = io::format_rows(rows);
    if legacy {
        // Every row ends with the empty `instructions` field: drop it.
        for line in formatted.split(|&b| b == b'\n').filter(|l| !l.is_empty()) {
            text.extend(line.strip_suffix(b",").unwrap_or(line));
            text.push(b'\n');
        }
    } else {
        text.extend(formatted);
    }
    let mut file = super::atomic::open_append(path, true).map_err(io)?;
    file.write_all(&text).map_err(io)
}

/// Reads the whole history, oldest line first.
pub fn load(path: &Path) -> Result<Vec<HistoryRow>, HistoryError> {
    let text = std::fs::read_to_string(path).map_err(|source| match source.kind() {
        std::io::ErrorKind::NotFound => HistoryError::Csv(CsvError::Missing(path.to_path_buf())),
        _ => PathIo::new(path, source).into(),
    })?;
    if header_kind(text.lines().next()).is_none() {
        return Err(HistoryError::Header {
            path: path.to_path_buf(),
        });
    }
    Ok(super::rows(path, ReadMode::Strict)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(set: &str, heuristic: &str, status: &str, generated: u64, seconds: f64) -> RunRecord {
        RunRecord {
            instance_set: set.into(),
            instance_id: "1".into(),
            heuristic: heuristic.into(),
            status: status.parse().unwrap(),
            iterations: 3,
            expanded: Some(generated / 2),
            generated: Some(generated),
            seconds,
            threads: 2,
            ..RunRecord::default()
        }
    }

    /// A path `name` that does not exist yet, in a temporary directory removed on drop.
    fn scratch(name: &str) -> (tempfile::TempDir, PathBuf) {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join(name);
        (tmp, dir)
    }

    #[test]
    fn a_dirty_build_is_its_commit_marked() {
        assert_eq!(commit_of(Some("abc"), Some(true)), "abc-dirty");
        assert_eq!(commit_of(Some("abc"), Some(false)), "abc");
        assert_eq!(commit_of(Some("abc"), None), "abc");
        assert_eq!(commit_of(None, Some(true)), "unknown");
    }

    /// The file format is pinned: existing history files must keep reading.
    #[test]
    fn the_header_is_pinned() {
        assert_eq!(
            header(),
            "commit,date,heuristic,instance_set,runs,solved,total_generated,total_expanded,\
             total_seconds,nodes_per_second,instructions"
        );
        assert_eq!(
            legacy_header(),
            "commit,date,heuristic,instance_set,runs,solved,total_generated,total_expanded,\
             total_seconds,nodes_per_second"
        );
    }

    /// A file from before the instructions column keeps its layout for rows without counts,
    /// and is rewritten with the column for the first row with one; it reads back either way.
    #[test]
    fn an_old_file_stays_old_until_instructions_come() {
        let (_tmp, dir) = scratch("legacy");
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("history.csv");
        let old = format!("{}\na,d,manhattan,s,1,1,10,5,1.0,10.0\n", legacy_header());
        std::fs::write(&path, &old).unwrap();
        let plain = summarise("b", "e", &[run("s", "manhattan", "solved", 12, 1.0)]);
        append(&path, &plain).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(text, format!("{old}b,e,manhattan,s,1,1,12,6,1.0,12.0\n"));
        assert_eq!(load(&path).unwrap().len(), 2);
        let mut counted = plain.clone();
        counted[0].instructions = Some(777);
        append(&path, &counted).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.starts_with(&format!(
            "{}\na,d,manhattan,s,1,1,10,5,1.0,10.0,\n",
            header()
        )));
        let rows = load(&path).unwrap();
        assert_eq!(rows.len(), 3);
        assert_eq!(rows[0].instructions, None);
        assert_eq!(rows[2].instructions, Some(777));
    }

    #[test]
    fn summarise_groups_and_sums() {
        let runs = [
            run("korf100", "manhattan", "solved", 100, 1.0),
            run("korf100", "manhattan", "time-limit", 300, 3.0),
            run("korf100", "linear-conflict", "solved", 50, 0.0),
            run("8-puzzle", "manhattan", "solved", 10, 0.5),
        ];
        let rows = summarise("abc123", "2024-05-01T12:00:00Z", &runs);
        let brief: Vec<_> = rows
            .iter()
            .map(|r| {
                (
                    r.heuristic.as_str(),
                    r.instance_set.as_str(),
                    r.runs,
                    r.solved,
                    r.total_generated,
                    r.nodes_per_second,
                )
            })
            .collect();
        assert_eq!(
            brief,
            vec![
                ("linear-conflict", "korf100", 1, 1, 50, None),
                ("manhattan", "8-puzzle", 1, 1, 10, Some(20.0)),
                ("manhattan", "korf100", 2, 1, 400, Some(100.0)),
            ]
        );
        assert!(rows.iter().all(|r| r.commit == "abc123"));
    }

    /// An outside solver that reported counts for some runs only: its rate is over those runs'
    /// seconds, not diluted by the seconds of runs whose nodes nobody counted.
    #[test]
    fn the_rate_is_over_the_runs_that_counted() {
        let mut unreported = run("s", "my-solver", "solved", 0, 6.0);
        unreported.generated = None;
        unreported.expanded = None;
        let runs = [
            run("s", "my-solver", "solved", 400, 2.0),
            unreported.clone(),
        ];
        let rows = summarise("c", "d", &runs);
        assert_eq!(rows.len(), 1);
        assert_eq!(rows[0].total_seconds, 8.0);
        assert_eq!(rows[0].nodes_per_second, Some(200.0));
        let none = summarise("c", "d", &[unreported]);
        assert_eq!(none[0].nodes_per_second, None);
    }

    #[test]
    fn append_creates_then_appends_and_load_reads_back() {
        let (_tmp, dir) = scratch("append");
        let path = dir.join("results").join("history.csv");
        let first = summarise(
            "aaa",
            "2024-01-01",
            &[run("s", "manhattan", "solved", 10, 1.0)],
        );
        let second = summarise(
            "bbb",
            "2024-01-02",
            &[
                run("s", "manhattan", "solved", 12, 1.0),
                run("s", "linear-conflict", "solved", 5, 1.0),
            ],
        );
        append(&path, &first).unwrap();
        append(&path, &second).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(text.lines().count(), 4);
        assert_eq!(text.lines().filter(|l| *l == header()).count(), 1);
        let all: Vec<HistoryRow> = first.into_iter().chain(second).collect();
        assert_eq!(load(&path).unwrap(), all);
    }

    #[test]
    fn a_foreign_file_is_refused() {
        let (_tmp, dir) = scratch("foreign");
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("history.csv");
        std::fs::write(&path, "a,b\n1,2\n").unwrap();
        let rows = summarise("c", "d", &[run("s", "h", "solved", 1, 1.0)]);
        assert!(matches!(
            append(&path, &rows),
            Err(HistoryError::Header { .. })
        ));
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "a,b\n1,2\n");
        assert!(matches!(load(&path), Err(HistoryError::Header { .. })));
    }

    #[test]
    fn a_bad_value_names_the_line_and_column() {
        let (_tmp, dir) = scratch("bad-value");
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("history.csv");
        std::fs::write(
            &path,
            format!("{}\nc,d,h,s,three,1,2,1,1.0,2.0,\n", header()),
        )
        .unwrap();
        let e = load(&path).unwrap_err();
        assert!(
            matches!(e, HistoryError::Csv(CsvError::BadValue { line: 2, .. })),
            "{e}"
        );
        assert!(e.to_string().contains("line 2: column 'runs'"), "{e}");
    }
}
