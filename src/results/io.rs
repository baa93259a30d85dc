//! The one CSV reader and writer of the crate, and the one atomic write.
//!
//! Every CSV file tilebench writes (`runs.csv`, `iterations.csv`, `history.csv`) is a header
//! followed by rows of one serde struct; [`columns`] is that header. [`read_rows`] reads a file
//! back, checking that every column of the struct is present (extra columns are ignored) and
//! reporting any fault as `FILE, line N: …` naming the column of a bad value. In
//! [`ReadMode::Tolerant`] a last line without its newline (left by a killed writer) is dropped
//! instead of read; a torn line anywhere else is still an error.

use std::collections::HashSet;
use std::fs;
use std::path::{Path, PathBuf};

use crate::path_io::{At, Found, PathIo};
use serde::de::DeserializeOwned;
use serde::Serialize;
use thiserror::Error;

/// A CSV file that could not be read or written. Each names the file, and the line when there
/// is one (the header is line 1).
#[derive(Debug, Error)]
pub enum CsvError {
    #[error("{path}: no such file", path = .0.display())]
    Missing(PathBuf),
    #[error(transparent)]
    Io(#[from] crate::path_io::PathIo),
    #[error("{path}: empty file (no header)", path = .0.display())]
    Empty(PathBuf),
    #[error("{path}: missing column '{column}'", path = .path.display())]
    MissingColumn { path: PathBuf, column: String },
    #[error("{path}, line {line}: {message}", path = .path.display())]
    BadValue {
        path: PathBuf,
        line: u64,
        message: String,
    },
}

/// Whether a torn last line is an error or dropped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReadMode {
    /// Every line must be a whole row.
    Strict,
    /// A last line without its newline (a write cut short) is dropped, as is a file without a
    /// whole header (then no rows).
    Tolerant,
}

/// A row type of a CSV file: its serde fields are the columns, in order.
pub trait Row: Serialize + DeserializeOwned + Default {}
impl<T: Serialize + DeserializeOwned + Default> Row for T {}

/// The header and the row of `T::default()`, as its serde derive writes them.
fn default_row<T: Row>() -> (csv::StringRecord, csv::StringRecord) {
    let mut w = csv::Writer::from_writer(vec![]);
    w.serialize(T::default()).expect("a record serialises");
    let bytes = w.into_inner().expect("writing to memory");
    let mut reader = csv::Reader::from_reader(&bytes[..]);
    let header = reader.headers().cloned().unwrap_or_default();
    let row = reader
        .records()
        .next()
        .and_then(Result::ok)
        .unwrap_or_default();
    (header, row)
}

/// The columns of a row type, as its serde derive writes them.
pub fn columns<T: Row>() -> Vec<String> {
    default_row::<T>().0.iter().map(str::to_string).collect()
}

/// The columns a file must have: those whose field has no serde default (a column added later
/// with `#[serde(default)]` may be absent from older files, which then read as before).
pub(crate) fn required_columns<T: Row>() -> Vec<String> {
    let (header, row) = default_row::<T>();
    let without = |r: &csv::StringRecord, i: usize| -> csv::StringRecord {
        r.iter()
            .enumerate()
            .filter(|&(j, _)| j != i)
            .map(|(_, f)| f)
            .collect()
    };
    (0..header.len())
        .filter(|&i| {
            let mut w = csv::Writer::from_writer(vec![]);
            let _ = w.write_record(&without(&header, i));
            let _ = w.write_record(&without(&row, i));
            let text = w.into_inner().unwrap_or_default();
            csv::Reader::from_reader(&text[..])
                .deserialize::<T>()
                .next()
                .is_none_or(|r| r.is_err())
        })
        .map(|i| header[i].to_string())
        .collect()
}

/// Every row of the CSV file at `path`, with the line it starts on, in file order.
pub fn read_rows<T: Row>(path: &Path, mode: ReadMode) -> Result<Vec<(u64, T)>, CsvError> {
    let Some(mut bytes) = fs::read(path).found().at(path)? else {
        return Err(CsvError::Missing(path.to_path_buf()));
    };
    if mode == ReadMode::Strict && bytes.is_empty() {
        return Err(CsvError::Empty(path.to_path_buf()));
    }
    if mode == ReadMode::Tolerant {
        match bytes.iter().rposition(|&b| b == b'\n') {
            Some(end) => bytes.truncate(end + 1),
            None => bytes.clear(), // not even a whole header
        }
        if bytes.is_empty() {
            return Ok(Vec::new());
        }
    }
    parse_rows(path, &bytes)
}

/// The rows of CSV text read from `path` (named in errors).
fn parse_rows<T: Row>(path: &Path, bytes: &[u8]) -> Result<Vec<(u64, T)>, CsvError> {
    let fault = |(line, message)| CsvError::BadValue {
        path: path.to_path_buf(),
        line,
        message,
    };
    // `#` lines are comments: a file without a meta.json beside it says in them what wrote it
    // (`tilebench predict`).
    let mut reader = csv::ReaderBuilder::new()
        .comment(Some(b'#'))
        .from_reader(bytes);
    let header = match reader.headers() {
        Ok(h) => h.clone(),
        Err(e) => return Err(fault(record_fault(&csv::StringRecord::new(), None, &e, 1))),
    };
    let present: HashSet<&str> = header.iter().map(str::trim).collect();
    for column in required_columns::<T>() {
        if !present.contains(column.as_str()) {
            return Err(CsvError::MissingColumn {
                path: path.to_path_buf(),
                column,
            });
        }
    }
    let mut rows = Vec::new();
    let mut record = csv::StringRecord::new();
    loop {
        match reader.read_record(&mut record) {
            Ok(false) => break,
            Ok(true) => {}
            Err(e) => return Err(fault(record_fault(&header, None, &e, 0))),
        }
        let line = record.position().map_or(0, |p| p.line());
        let row = record
            .deserialize(Some(&header))
            .map_err(|e| fault(record_fault(&header, Some(&record), &e, line)))?;
        rows.push((line, row));
    }
    Ok(rows)
}

/// A CSV error's line (`line` when the error has no position) and message, naming the column of
/// a bad value. csv does not say which field an unknown enum variant (a status) came from; it
/// is then the column of `record` holding the quoted value.
fn record_fault(
    header: &csv::StringRecord,
    record: Option<&csv::StringRecord>,
    e: &csv::Error,
    line: u64,
) -> (u64, String) {
    let line = e.position().map_or(line, |p| p.line());
    let message = match e.kind() {
        csv::ErrorKind::Deserialize { err, .. } => {
            let text = err.kind().to_string();
            let quoted = text.split('`').nth(1);
            let field = err.field().map(|f| f as usize).or_else(|| {
                let value = quoted?;
                record?.iter().position(|v| v == value)
            });
            match field {
                Some(f) => format!("column '{}': {text}", header.get(f).unwrap_or("?")),
                None => text,
            }
        }
        csv::ErrorKind::UnequalLengths {
            expected_len, len, ..
        } => format!("{len} fields where the header has {expected_len}"),
        _ => e.to_string(),
    };
    (line, message)
}

/// Rows formatted as CSV lines without a header (for appending to a file that has one).
pub(crate) fn format_rows<T: Row>(rows: &[T]) -> Vec<u8> {
    let mut w = csv::WriterBuilder::new()
        .has_headers(false)
        .from_writer(Vec::new());
    for r in rows {
        w.serialize(r).expect("serialising a record into memory");
    }
    w.into_inner().expect("flushing into memory")
}

/// The header line of a row type, with its newline.
pub(crate) fn header_line<T: Row>() -> Vec<u8> {
    let mut w = csv::WriterBuilder::new().from_writer(Vec::new());
    w.write_record(columns::<T>())
        .expect("writing a header into memory");
    w.into_inner().expect("flushing into memory")
}

/// Replaces `path` atomically with a header and `rows` (see [`atomic_write`]).
pub fn write_rows<T: Row>(path: &Path, rows: &[T]) -> Result<(), CsvError> {
    let mut text = header_line::<T>();
    text.extend(format_rows(rows));
    Ok(atomic_write(path, &text).at(path)?)
}

/// Replaces `path` atomically with `bytes` through the one safe writer, [`super::atomic::write`]
/// (exclusive random temporary file in the same directory, synced, renamed; symlinks at the
/// target are replaced, never followed). Creates the parent directory if needed.
pub fn atomic_write(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    super::atomic::write(path, bytes)
}

/// Writes `value` to `path` atomically, as pretty JSON.
pub(crate) fn write_json(path: &Path, value: &impl Serialize) -> Result<(), PathIo> {
    let mut text = serde_json::to_string_pretty(value).expect("a record serialises");
    text.push('\n');
    atomic_write(path, text.as_bytes()).at(path)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::results::record::{IterationRecord, RunRecord, RunStatus};

    /// An empty temporary directory, removed on drop.
    fn scratch() -> tempfile::TempDir {
        tempfile::tempdir().unwrap()
    }

    fn run(id: &str) -> RunRecord {
        RunRecord {
            instance_set: "s".into(),
            instance_id: id.into(),
            heuristic: "manhattan".into(),
            status: RunStatus::Solved,
            moves: "UL".into(),
            ..RunRecord::default()
        }
    }

    #[test]
    fn columns_are_the_field_names_in_order() {
        let c = columns::<IterationRecord>();
        assert_eq!(
            c.join(","),
            "instance_set,instance_id,algorithm,heuristic,iteration,bound,expanded,generated,seconds"
        );
        assert_eq!(columns::<RunRecord>()[5], "status");
    }

    #[test]
    fn columns_with_a_serde_default_may_be_missing() {
        let required = required_columns::<RunRecord>();
        assert!(required.contains(&"status".to_string()));
        assert!(required.contains(&"heuristic".to_string()));
        for optional in [
            "solver",
            "algorithm",
            "peak_stored",
            "search_threads",
            "cpu_seconds",
            "detail",
            "exit_code",
        ] {
            assert!(!required.contains(&optional.to_string()), "{optional}");
        }
        let mut all = columns::<IterationRecord>();
        all.retain(|c| c != "algorithm");
        assert_eq!(required_columns::<IterationRecord>(), all);
    }

    #[test]
    fn write_then_read_round_trips() {
        let dir = scratch();
        let path = dir.path().join("runs.csv");
        let rows = vec![run("1"), run("2, with a comma")];
        write_rows(&path, &rows).unwrap();
        let back: Vec<(u64, RunRecord)> = read_rows(&path, ReadMode::Strict).unwrap();
        assert_eq!(back.iter().map(|(l, _)| *l).collect::<Vec<_>>(), [2, 3]);
        assert_eq!(back.into_iter().map(|(_, r)| r).collect::<Vec<_>>(), rows);
    }

    #[test]
    fn a_torn_last_line_is_an_error_or_dropped() {
        let dir = scratch();
        let path = dir.path().join("runs.csv");
        write_rows(&path, &[run("1")]).unwrap();
        let mut text = fs::read_to_string(&path).unwrap();
        text.push_str("s,2,manh");
        fs::write(&path, &text).unwrap();
        let e = read_rows::<RunRecord>(&path, ReadMode::Strict).unwrap_err();
        assert!(matches!(e, CsvError::BadValue { line: 3, .. }), "{e}");
        let rows: Vec<(u64, RunRecord)> = read_rows(&path, ReadMode::Tolerant).unwrap();
        assert_eq!(rows.len(), 1);
        // A torn line in the middle is corruption in both modes.
        let lines: Vec<&str> = text.lines().collect();
        fs::write(&path, format!("{}\n{}\n{}\n", lines[0], lines[2], lines[1])).unwrap();
        let e = read_rows::<RunRecord>(&path, ReadMode::Tolerant).unwrap_err();
        let want = format!(
            "runs.csv, line 2: 3 fields where the header has {}",
            columns::<RunRecord>().len()
        );
        assert!(e.to_string().contains(&want), "{e}");
    }

    #[test]
    fn an_unknown_status_names_file_line_and_column() {
        let dir = scratch();
        let path = dir.path().join("runs.csv");
        write_rows(&path, &[run("1"), run("2")]).unwrap();
        let text = fs::read_to_string(&path).unwrap();
        let text = text
            .replacen(",solved,", ",sovled,", 2)
            .replacen(",sovled,", ",solved,", 1);
        fs::write(&path, text).unwrap();
        let e = read_rows::<RunRecord>(&path, ReadMode::Strict).unwrap_err();
        let msg = e.to_string();
        assert!(msg.contains("runs.csv, line 3: column 'status'"), "{msg}");
        assert!(msg.contains("sovled"), "{msg}");
    }

    #[test]
    fn a_missing_column_and_a_missing_file_are_named() {
        let dir = scratch();
        let path = dir.path().join("iterations.csv");
        fs::write(&path, "instance_set,instance_id\n").unwrap();
        let e = read_rows::<IterationRecord>(&path, ReadMode::Strict).unwrap_err();
        assert_eq!(
            e.to_string(),
            format!("{}: missing column 'heuristic'", path.display())
        );
        // Columns added later (with serde defaults) may be missing: `algorithm` reads as ida.
        fs::write(
            &path,
            "instance_set,instance_id,heuristic,iteration,bound,expanded,generated,seconds\n\
             s,1,manhattan,1,40,5,9,0.5\n",
        )
        .unwrap();
        let rows = read_rows::<IterationRecord>(&path, ReadMode::Strict).unwrap();
        assert_eq!(rows[0].1.algorithm, crate::search::Algorithm::Ida);
        assert_eq!(rows[0].1.generated, 9);
        let e = read_rows::<IterationRecord>(&dir.path().join("nope.csv"), ReadMode::Strict);
        assert!(matches!(e, Err(CsvError::Missing(_))));
    }
}
