//! A results directory read back into memory: `runs.csv`, `iterations.csv` and `meta.json`, as
//! written by the runner. Plots and reports start here, so every figure they show comes from
//! these rows, and a malformed directory is reported once, clearly, naming the file and line.

use std::collections::HashSet;
use std::fs;
use std::path::{Path, PathBuf};

use serde::de::DeserializeOwned;
use serde::Serialize;
use thiserror::Error;

use crate::record::{IterationRecord, RunRecord, ITERATIONS_FILE, META_FILE, RUNS_FILE};

/// Why a results directory could not be read.
#[derive(Debug, Error)]
pub enum ResultsError {
    #[error("{path}: no such file (a results directory holds {RUNS_FILE}, {ITERATIONS_FILE} and {META_FILE})", path = .0.display())]
    MissingFile(PathBuf),
    #[error("{path}: {source}", path = .path.display())]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{path}: missing column '{column}'", path = .path.display())]
    MissingColumn { path: PathBuf, column: String },
    #[error("{path}: no rows (only a header, or empty)", path = .0.display())]
    NoRows(PathBuf),
    #[error("{path}, line {line}: {message}", path = .path.display())]
    BadValue {
        path: PathBuf,
        line: u64,
        message: String,
    },
    #[error("{path}: not valid JSON: {message}", path = .path.display())]
    BadMeta { path: PathBuf, message: String },
}

/// The contents of one results directory.
#[derive(Debug, Clone)]
pub struct Results {
    pub dir: PathBuf,
    pub runs: Vec<RunRecord>,
    pub iterations: Vec<IterationRecord>,
    /// `meta.json`, kept as untyped JSON so that the runner can add keys freely; `None` when the
    /// directory has no `meta.json`.
    pub meta: Option<serde_json::Value>,
}

impl Results {
    /// Reads `runs.csv` (at least one row), `iterations.csv` (may have no rows: unsolvable
    /// instances have no iterations) and `meta.json` (optional).
    pub fn load(dir: &Path) -> Result<Results, ResultsError> {
        let runs: Vec<RunRecord> = read_csv(&dir.join(RUNS_FILE), &sample_run())?;
        if runs.is_empty() {
            return Err(ResultsError::NoRows(dir.join(RUNS_FILE)));
        }
        let iterations: Vec<IterationRecord> =
            read_csv(&dir.join(ITERATIONS_FILE), &sample_iteration())?;
        let meta_path = dir.join(META_FILE);
        let meta = if meta_path.exists() {
            let text = fs::read_to_string(&meta_path).map_err(|source| ResultsError::Io {
                path: meta_path.clone(),
                source,
            })?;
            Some(
                serde_json::from_str(&text).map_err(|e| ResultsError::BadMeta {
                    path: meta_path.clone(),
                    message: e.to_string(),
                })?,
            )
        } else {
            None
        };
        Ok(Results {
            dir: dir.to_path_buf(),
            runs,
            iterations,
            meta,
        })
    }

    /// Instance-set names in order of first appearance in `runs.csv`.
    pub fn instance_sets(&self) -> Vec<String> {
        first_appearance(self.runs.iter().map(|r| r.instance_set.as_str()))
    }

    /// Heuristic names in order of first appearance in `runs.csv` (the runner's order).
    pub fn heuristics(&self) -> Vec<String> {
        first_appearance(self.runs.iter().map(|r| r.heuristic.as_str()))
    }
}

fn first_appearance<'a>(names: impl Iterator<Item = &'a str>) -> Vec<String> {
    let mut seen = HashSet::new();
    names
        .filter(|n| seen.insert(*n))
        .map(str::to_string)
        .collect()
}

/// The column names of a record type, as its serde derive writes them.
fn columns_of<T: Serialize>(sample: &T) -> Vec<String> {
    let mut w = csv::Writer::from_writer(vec![]);
    w.serialize(sample).expect("a record serialises");
    let bytes = w.into_inner().expect("writing to memory");
    let text = String::from_utf8(bytes).expect("csv output is UTF-8");
    let header = text.lines().next().unwrap_or_default();
    header.split(',').map(str::to_string).collect()
}

/// Reads a CSV file into rows of `T`, first checking that every column of `T` is present (extra
/// columns are ignored, so the runner may add some).
fn read_csv<T: DeserializeOwned + Serialize>(
    path: &Path,
    sample: &T,
) -> Result<Vec<T>, ResultsError> {
    if !path.exists() {
        return Err(ResultsError::MissingFile(path.to_path_buf()));
    }
    let check = |header: &csv::StringRecord| {
        let present: HashSet<&str> = header.iter().map(str::trim).collect();
        if present.len() <= 1 && present.iter().all(|c| c.is_empty()) {
            return Err(ResultsError::NoRows(path.to_path_buf()));
        }
        for column in columns_of(sample) {
            if !present.contains(column.as_str()) {
                return Err(ResultsError::MissingColumn {
                    path: path.to_path_buf(),
                    column,
                });
            }
        }
        Ok(())
    };
    let io = |path, source| ResultsError::Io { path, source };
    let bad = |path, line, message| ResultsError::BadValue {
        path,
        line,
        message,
    };
    let rows = read_csv_rows(path, check, io, bad)?;
    Ok(rows.into_iter().map(|(_, row)| row).collect())
}

/// The one CSV loader of the crate: every record of the file at `path` as a `T`, with the line
/// it starts on (the header is line 1), in file order. `check` sees the header before any record
/// is read, to refuse a file with the wrong columns. Failures become the caller's own error:
/// `io(path, error)` when the file cannot be opened, `bad(path, line, message)` for a malformed
/// header or record, the message naming the column of a bad value.
pub fn read_csv_rows<T: DeserializeOwned, E>(
    path: &Path,
    check: impl FnOnce(&csv::StringRecord) -> Result<(), E>,
    io: impl FnOnce(PathBuf, std::io::Error) -> E,
    bad: impl Fn(PathBuf, u64, String) -> E,
) -> Result<Vec<(u64, T)>, E> {
    let fault = |(line, message)| bad(path.to_path_buf(), line, message);
    let file = fs::File::open(path).map_err(|e| io(path.to_path_buf(), e))?;
    let mut reader = csv::Reader::from_reader(std::io::BufReader::new(file));
    let header = match reader.headers() {
        Ok(h) => h.clone(),
        Err(e) => return Err(fault(record_fault(&csv::StringRecord::new(), &e, 1))),
    };
    check(&header)?;
    let mut rows = Vec::new();
    let mut record = csv::StringRecord::new();
    loop {
        match reader.read_record(&mut record) {
            Ok(false) => break,
            Ok(true) => {}
            Err(e) => return Err(fault(record_fault(&header, &e, 0))),
        }
        let line = record.position().map_or(0, |p| p.line());
        let row = record
            .deserialize(Some(&header))
            .map_err(|e| fault(record_fault(&header, &e, line)))?;
        rows.push((line, row));
    }
    Ok(rows)
}

/// A CSV error's line (`line` when the error has no position) and message, naming the column of
/// a bad value.
fn record_fault(header: &csv::StringRecord, e: &csv::Error, line: u64) -> (u64, String) {
    let line = e.position().map_or(line, |p| p.line());
    let message = match e.kind() {
        csv::ErrorKind::Deserialize { err, .. } => match err.field() {
            Some(f) => format!(
                "column '{}': {}",
                header.get(f as usize).unwrap_or("?"),
                err.kind()
            ),
            None => err.kind().to_string(),
        },
        _ => e.to_string(),
    };
    (line, message)
}

fn sample_run() -> RunRecord {
    RunRecord {
        instance_set: String::new(),
        instance_id: String::new(),
        heuristic: String::new(),
        status: String::new(),
        length: None,
        optimal_length: None,
        h0: None,
        iterations: 0,
        expanded: 0,
        generated: 0,
        last_iteration_generated: 0,
        seconds: 0.0,
        nodes_per_second: None,
        growth_ratio: None,
        overhead_measured: None,
        overhead_predicted: None,
        moves: String::new(),
        verified: false,
        threads: 0,
    }
}

fn sample_iteration() -> IterationRecord {
    IterationRecord {
        instance_set: String::new(),
        instance_id: String::new(),
        heuristic: String::new(),
        iteration: 0,
        bound: 0,
        expanded: 0,
        generated: 0,
        seconds: 0.0,
    }
}

/// Writes rows as CSV, with the header from the record type (for fixtures and tests).
pub fn write_csv<T: Serialize>(path: &Path, rows: &[T]) -> Result<(), ResultsError> {
    let io = |source: std::io::Error| ResultsError::Io {
        path: path.to_path_buf(),
        source,
    };
    let mut w = csv::Writer::from_path(path).map_err(|e| ResultsError::Io {
        path: path.to_path_buf(),
        source: std::io::Error::other(e.to_string()),
    })?;
    for row in rows {
        w.serialize(row)
            .map_err(|e| io(std::io::Error::other(e.to_string())))?;
    }
    w.flush().map_err(io)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp_dir(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("tilebench-results-{}-{name}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn run(id: &str, generated: u64) -> RunRecord {
        RunRecord {
            instance_set: "s".into(),
            instance_id: id.into(),
            heuristic: "manhattan".into(),
            status: "solved".into(),
            generated,
            ..sample_run()
        }
    }

    #[test]
    fn round_trips_and_keeps_order() {
        let dir = temp_dir("ok");
        write_csv(&dir.join(RUNS_FILE), &[run("1", 5), run("2", 7)]).unwrap();
        write_csv::<IterationRecord>(&dir.join(ITERATIONS_FILE), &[]).unwrap();
        // An empty iterations.csv written by csv has no header; give it one.
        fs::write(
            dir.join(ITERATIONS_FILE),
            columns_of(&sample_iteration()).join(",") + "\n",
        )
        .unwrap();
        let r = Results::load(&dir).unwrap();
        assert_eq!(r.runs.len(), 2);
        assert_eq!(r.runs[1].generated, 7);
        assert!(r.iterations.is_empty());
        assert!(r.meta.is_none());
        assert_eq!(r.heuristics(), vec!["manhattan"]);
    }

    #[test]
    fn missing_column_is_named() {
        let dir = temp_dir("col");
        write_csv(&dir.join(RUNS_FILE), &[run("1", 5)]).unwrap();
        let text = fs::read_to_string(dir.join(RUNS_FILE)).unwrap();
        // Drop the `generated` column (the 10th) from every line.
        let cut: Vec<String> = text
            .lines()
            .map(|l| {
                let mut f: Vec<&str> = l.split(',').collect();
                f.remove(9);
                f.join(",")
            })
            .collect();
        fs::write(dir.join(RUNS_FILE), cut.join("\n") + "\n").unwrap();
        let e = Results::load(&dir).unwrap_err();
        assert!(
            matches!(&e, ResultsError::MissingColumn { column, .. } if column == "generated"),
            "{e}"
        );
        assert!(e.to_string().contains("missing column 'generated'"));
    }

    #[test]
    fn no_rows_and_missing_files_and_bad_values() {
        let dir = temp_dir("empty");
        assert!(matches!(
            Results::load(&dir),
            Err(ResultsError::MissingFile(p)) if p.ends_with(RUNS_FILE)
        ));
        fs::write(
            dir.join(RUNS_FILE),
            columns_of(&sample_run()).join(",") + "\n",
        )
        .unwrap();
        let e = Results::load(&dir).unwrap_err();
        assert!(matches!(e, ResultsError::NoRows(_)), "{e}");

        write_csv(&dir.join(RUNS_FILE), &[run("1", 5)]).unwrap();
        let text = fs::read_to_string(dir.join(RUNS_FILE)).unwrap();
        fs::write(dir.join(RUNS_FILE), text.replace(",5,", ",five,")).unwrap();
        let e = Results::load(&dir).unwrap_err();
        assert!(matches!(e, ResultsError::BadValue { line: 2, .. }), "{e}");
        assert!(e.to_string().contains("line 2: column 'generated'"), "{e}");
    }
}
