//! Instance sets: the file format every experiment reads, and the seeded generator ([`generate`]).
//!
//! # The instance-file format (`tilebench-instances v1`)
//!
//! A UTF-8 text file of tab-separated columns, in this order:
//!
//! 1. The first line is exactly `# tilebench-instances v1`.
//! 2. Header lines `# key: value` before the column row. `size` (such as `4x4`) and `goal`
//!    (`blank-last`, `blank-first`, `spiral` or an explicit tile list) are required; `source`,
//!    `generator` and `seed` say where the instances come from. Any other `#` line is a comment,
//!    kept with the set (so a converted file keeps its source's notes).
//! 3. The column row: tab-separated names, which must include `id` and `tiles` and may include
//!    `optimal_length`; other columns (such as Korf's `manhattan_h0`) are allowed, kept as text
//!    and otherwise ignored.
//! 4. One instance per line: the id (unique in the file), the tiles row-major separated by spaces
//!    (`0` is the blank), and the known optimal length or an empty field.
//!
//! Blank lines and `#` lines after the column row are ignored.
//!
//! Every malformed line (wrong number of columns, a tile that is not a number, a repeated tile, a
//! board whose size disagrees with the header, a repeated id, a bad length) is an
//! [`InstanceError`] naming the file and line. Reading collects all of them and returns them
//! together: a run refuses to start on a file with any malformed line.

pub mod generate;

use std::collections::{HashMap, HashSet};
use std::fmt;
use std::path::{Path, PathBuf};

use thiserror::Error;

use crate::board::{Board, BoardError, Goal, Size};
use crate::path_io::At;

/// The first line of every instance file.
pub(crate) const FORMAT_LINE: &str = "# tilebench-instances v1";

/// What can be wrong with one line of an instance file.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum LineProblem {
    #[error(
        "the first line must be '{FORMAT_LINE}' (the instance-file format: docs/formats.md; \
         `tilebench gen` writes such files)"
    )]
    NotAnInstanceFile,
    #[error("the header has no '# {0}: …' line before the column row")]
    MissingHeader(&'static str),
    #[error("header '{key}': {reason}")]
    BadHeader { key: String, reason: String },
    #[error("header key '{0}' is given twice")]
    RepeatedHeader(String),
    #[error("the column row has no '{0}' column (columns are separated by tabs)")]
    MissingColumn(&'static str),
    #[error("column '{0}' is named twice")]
    RepeatedColumn(String),
    #[error("expected {expected} tab-separated columns, found {found}")]
    Columns { expected: usize, found: usize },
    #[error("the id is empty")]
    EmptyId,
    #[error("id '{0}' was already used on line {1}")]
    RepeatedId(String, usize),
    #[error("optimal length '{0}' is not a whole number")]
    BadLength(String),
    #[error("optimal length '{0}' is negative: it must be 0 or more (or empty when unknown)")]
    NegativeLength(String),
    #[error("{0}")]
    Board(BoardError),
    #[error("the file has no instances")]
    Empty,
    #[error(
        "the header ends without a column row (tab-separated names: id, tiles and optionally \
         optimal_length; the file may be cut off)"
    )]
    NoColumnRow,
    #[error(
        "control character U+{0:04X} (ids, names and header values may hold no control \
         characters but the tab between columns)"
    )]
    ControlCharacter(u32),
    #[error("the file is UTF-16 (it starts with a UTF-16 byte-order mark); save it as UTF-8")]
    Utf16,
    #[error("not UTF-8 text (byte {0} of the line); save the file as UTF-8")]
    NotUtf8(usize),
}

/// An error reading an instance file, naming the file and (for content errors) the line.
#[derive(Debug, Error)]
pub enum InstanceError {
    #[error(transparent)]
    Io(#[from] crate::path_io::PathIo),
    #[error("{}:{line}: {problem}", file.display())]
    Line {
        file: PathBuf,
        line: usize,
        problem: LineProblem,
    },
    /// All the malformed lines of one file.
    #[error("{}", ManyLines(.0))]
    Several(Vec<InstanceError>),
    #[error(
        "'{0}': a selection is FILE:FIRST-LAST, 1-based positions of instances in the file (a \
         file whose own name holds ':' is read whole when it exists; give FILE:1-N to select \
         from it)"
    )]
    BadSelection(String),
    #[error(
        "{}: the selection {first}-{last} {}",
        file.display(),
        if first > last {
            "is reversed (FIRST-LAST with FIRST ≤ LAST)".to_string()
        } else if *first == 0 {
            "starts at 0: positions count from 1".to_string()
        } else {
            format!("is outside the file's {count} instances")
        }
    )]
    SelectionOutOfRange {
        file: PathBuf,
        first: usize,
        last: usize,
        count: usize,
    },
}

struct ManyLines<'a>(&'a [InstanceError]);

impl fmt::Display for ManyLines<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} malformed lines:", self.0.len())?;
        for e in self.0 {
            write!(f, "\n  {e}")?;
        }
        Ok(())
    }
}

/// One puzzle of a set.
#[derive(Debug, Clone, PartialEq)]
pub struct Instance {
    pub id: String,
    pub board: Board,
    /// The known optimal length, when the file gives one.
    pub optimal: Option<u32>,
    /// The other columns of the line, in the order of [`InstanceSet::extra_columns`].
    pub extra: Vec<String>,
    /// 1-based line number in the file.
    pub line: usize,
}

/// Joins the pieces of a comma-separated `--instances` list that continue a selection
/// (`korf100.txt:2,4,10-12` arrives as `korf100.txt:2`, `4`, `10-12`) back onto their file.
pub(crate) fn join_selections(pieces: &[String]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for p in pieces {
        let continues = !p.is_empty() && p.chars().all(|c| c.is_ascii_digit() || c == '-');
        match out.last_mut() {
            Some(last) if continues && last.rsplit_once(':').is_some() => {
                last.push(',');
                last.push_str(p);
            }
            _ => out.push(p.clone()),
        }
    }
    out
}

/// A parsed instance file.
#[derive(Debug, Clone, PartialEq)]
pub struct InstanceSet {
    /// The file stem (`korf100` for `instances/korf100.txt`): the `instance_set` column of results.
    pub name: String,
    pub path: PathBuf,
    pub size: Size,
    pub goal: Goal,
    /// The `# key: value` header lines, in file order (size and goal included).
    pub header: Vec<(String, String)>,
    /// The other `#` lines of the header, without the leading `# `.
    pub comments: Vec<String>,
    pub extra_columns: Vec<String>,
    pub instances: Vec<Instance>,
}

/// Header keys with a meaning; other `# x: y` lines are comments.
const KEYS: &[&str] = &["size", "goal", "source", "generator", "seed"];

impl InstanceSet {
    /// Each instance whose board an earlier one of the set already has: (its id, the earlier
    /// one's). A mean over the set counts such a board once for each time it appears.
    pub fn repeats(&self) -> Vec<(&str, &str)> {
        let mut first: HashMap<&[u8], &str> = HashMap::new();
        (self.instances.iter())
            .filter_map(|i| {
                let earlier = *first.entry(i.board.tiles()).or_insert(&i.id);
                (earlier != i.id).then_some((i.id.as_str(), earlier))
            })
            .collect()
    }

    /// A checksum of what a set contributes to the experiment: size, goal, and each selected
    /// instance's id, tiles and known optimal length (not comments or other columns).
    pub fn content_hash(&self) -> String {
        let mut h = crc32fast::Hasher::new();
        h.update(format!("{} {}\n", self.size, self.goal.name()).as_bytes());
        for i in &self.instances {
            h.update(i.id.as_bytes());
            h.update(b"\t");
            h.update(i.board.tiles());
            h.update(format!("\t{:?}\n", i.optimal).as_bytes());
        }
        format!("crc32:{:08x}:{}", h.finalize(), self.instances.len())
    }

    /// Reads and validates a file (see the module docs for the format).
    ///
    /// ```
    /// use tilebench::board::Goal;
    /// use tilebench::instances::InstanceSet;
    ///
    /// let tmp = tempfile::tempdir().unwrap();
    /// let file = tmp.path().join("two.txt");
    /// std::fs::write(
    ///     &file,
    ///     "# tilebench-instances v1\n# size: 3x3\n# goal: blank-last\n# source: by hand\n\
    ///      id\toptimal_length\ttiles\na\t2\t1 2 3 4 0 5 7 8 6\nb\t\t8 6 7 2 5 4 3 0 1\n",
    /// )
    /// .unwrap();
    /// let set = InstanceSet::read(&file).unwrap();
    /// assert_eq!((set.name.as_str(), set.instances.len()), ("two", 2));
    /// assert_eq!(set.goal, Goal::blank_last(set.size));
    /// assert_eq!(set.header_value("source"), Some("by hand"));
    /// assert_eq!((set.instances[0].optimal, set.instances[1].optimal), (Some(2), None));
    /// // `FILE:SELECTION` keeps some instances, by position.
    /// let second = InstanceSet::read_selection(&format!("{}:2", file.display())).unwrap();
    /// assert_eq!(second.instances[0].id, "b");
    /// // A bad line is named.
    /// let bad = "# tilebench-instances v1\n# size: 3x3\n# goal: blank-last\nid\ttiles\nx\t1 2 3\n";
    /// std::fs::write(&file, bad).unwrap();
    /// let e = InstanceSet::read(&file).unwrap_err().to_string();
    /// assert!(e.contains("two.txt:5"), "{e}");
    /// ```
    pub fn read(path: &Path) -> Result<InstanceSet, InstanceError> {
        let bytes = std::fs::read(path).at(path)?;
        let line_error = |line: usize, problem: LineProblem| InstanceError::Line {
            file: path.to_path_buf(),
            line,
            problem,
        };
        if bytes.starts_with(&[0xff, 0xfe]) || bytes.starts_with(&[0xfe, 0xff]) {
            return Err(line_error(1, LineProblem::Utf16));
        }
        let text = match String::from_utf8(bytes) {
            Ok(t) => t,
            Err(e) => {
                let at = e.utf8_error().valid_up_to();
                let before = &e.as_bytes()[..at];
                let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
                let start = before
                    .iter()
                    .rposition(|&b| b == b'\n')
                    .map_or(0, |i| i + 1);
                return Err(line_error(line, LineProblem::NotUtf8(at - start + 1)));
            }
        };
        let name = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| path.display().to_string());
        InstanceSet::parse(&text, path, &name)
    }

    /// Reads `FILE` or `FILE:SELECTION`, SELECTION a comma-separated list of 1-based positions
    /// of instances in the file, each `N` or `FIRST-LAST` (inclusive): `korf100.txt:2`,
    /// `korf100.txt:2,4,10-12`. The instances keep the file's order, each once.
    pub fn read_selection(spec: &str) -> Result<InstanceSet, InstanceError> {
        // A file whose own name holds ':' is read whole.
        if Path::new(spec).is_file() {
            return InstanceSet::read(Path::new(spec));
        }
        let (file, range) = match spec.rsplit_once(':') {
            Some((file, range)) if !range.contains('/') => (file, Some(range)),
            _ => (spec, None),
        };
        let mut set = InstanceSet::read(Path::new(file))?;
        if let Some(range) = range {
            let bad = || InstanceError::BadSelection(spec.to_string());
            let mut chosen = vec![false; set.instances.len()];
            for part in range.split(',') {
                let (a, b) = part.split_once('-').unwrap_or((part, part));
                let first: usize = a.trim().parse().map_err(|_| bad())?;
                let last: usize = b.trim().parse().map_err(|_| bad())?;
                if first == 0 || first > last || last > set.instances.len() {
                    return Err(InstanceError::SelectionOutOfRange {
                        file: set.path.clone(),
                        first,
                        last,
                        count: set.instances.len(),
                    });
                }
                chosen[first - 1..last].iter_mut().for_each(|c| *c = true);
            }
            let mut keep = chosen.into_iter();
            set.instances.retain(|_| keep.next().unwrap_or(false));
        }
        Ok(set)
    }

    /// Parses file contents; `path` is only used in errors and recorded in the set. A UTF-8
    /// byte-order mark at the start (as some Windows editors write) is skipped.
    pub fn parse(text: &str, path: &Path, name: &str) -> Result<InstanceSet, InstanceError> {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let err = |line: usize, problem: LineProblem| InstanceError::Line {
            file: path.to_path_buf(),
            line,
            problem,
        };
        // A control character in an id or a header value would reach file names, SVG, LaTeX and
        // terminals: refused here, where the line is known.
        for (n, line) in text.lines().enumerate() {
            if let Some(c) = line.chars().find(|c| c.is_control() && *c != '\t') {
                return Err(err(n + 1, LineProblem::ControlCharacter(c as u32)));
            }
        }
        let mut lines = text.lines().enumerate().map(|(i, l)| (i + 1, l));
        match lines.next() {
            Some((_, first)) if first.trim_end() == FORMAT_LINE => {}
            _ => return Err(err(1, LineProblem::NotAnInstanceFile)),
        }

        // Header: `#` lines up to the column row.
        // (key, value, line): a bad value is reported at its own line.
        let mut header: Vec<(String, String, usize)> = Vec::new();
        let mut comments = Vec::new();
        let mut columns_line = None;
        for (n, line) in lines.by_ref() {
            if line.trim().is_empty() {
                continue;
            }
            let Some(comment) = line.strip_prefix('#') else {
                columns_line = Some((n, line));
                break;
            };
            let comment = comment.strip_prefix(' ').unwrap_or(comment).trim_end();
            match comment.split_once(':') {
                Some((key, value)) if KEYS.contains(&key.trim()) => {
                    let key = key.trim().to_string();
                    if header.iter().any(|(k, ..)| *k == key) {
                        return Err(err(n, LineProblem::RepeatedHeader(key)));
                    }
                    header.push((key, value.trim().to_string(), n));
                }
                _ => comments.push(comment.to_string()),
            }
        }
        let Some((columns_n, columns_line)) = columns_line else {
            return Err(err(text.lines().count().max(1), LineProblem::NoColumnRow));
        };
        let get = |key: &'static str| {
            header
                .iter()
                .find(|(k, ..)| k == key)
                .map(|(_, v, _)| v.as_str())
                .ok_or(err(columns_n, LineProblem::MissingHeader(key)))
        };
        let bad_header = |key: &str, e: BoardError| {
            let at = (header.iter()).find(|(k, ..)| k == key).map(|h| h.2);
            err(
                at.unwrap_or(columns_n),
                LineProblem::BadHeader {
                    key: key.into(),
                    reason: e.to_string(),
                },
            )
        };
        let size = Size::parse(get("size")?).map_err(|e| bad_header("size", e))?;
        let goal = Goal::parse(get("goal")?, size).map_err(|e| bad_header("goal", e))?;

        // The column row.
        let columns: Vec<&str> = columns_line.split('\t').map(str::trim).collect();
        let mut seen = HashSet::new();
        for c in &columns {
            if !seen.insert(*c) {
                return Err(err(columns_n, LineProblem::RepeatedColumn(c.to_string())));
            }
        }
        let find = |c: &str| columns.iter().position(|x| *x == c);
        let id_col = find("id").ok_or(err(columns_n, LineProblem::MissingColumn("id")))?;
        let tiles_col = find("tiles").ok_or(err(columns_n, LineProblem::MissingColumn("tiles")))?;
        let optimal_col = find("optimal_length");
        let extra_cols: Vec<usize> = (0..columns.len())
            .filter(|&i| i != id_col && i != tiles_col && Some(i) != optimal_col)
            .collect();

        // One instance row, with the columns found above.
        let parse_instance = |line: &str, n: usize| -> Result<Instance, LineProblem> {
            let fields: Vec<&str> = line.split('\t').map(str::trim).collect();
            if fields.len() != columns.len() {
                return Err(LineProblem::Columns {
                    expected: columns.len(),
                    found: fields.len(),
                });
            }
            let id = fields[id_col].to_string();
            if id.is_empty() {
                return Err(LineProblem::EmptyId);
            }
            let board = Board::parse(fields[tiles_col], Some(size)).map_err(LineProblem::Board)?;
            let optimal = match optimal_col.map(|i| fields[i]) {
                None | Some("") => None,
                Some(t) => Some(t.parse::<u32>().map_err(|_| {
                    // "-3" is a whole number, only not a length: say what is wrong with it.
                    if t.parse::<i64>().is_ok_and(|n| n < 0) {
                        LineProblem::NegativeLength(t.to_string())
                    } else {
                        LineProblem::BadLength(t.to_string())
                    }
                })?),
            };
            Ok(Instance {
                id,
                board,
                optimal,
                extra: extra_cols.iter().map(|&i| fields[i].to_string()).collect(),
                line: n,
            })
        };

        // The instances.
        let mut instances: Vec<Instance> = Vec::new();
        let mut ids = std::collections::HashMap::new();
        let mut errors = Vec::new();
        for (n, line) in lines {
            if line.trim().is_empty() || line.starts_with('#') {
                continue;
            }
            match parse_instance(line, n) {
                Ok(instance) => match ids.get(&instance.id) {
                    Some(&first) => {
                        errors.push(err(n, LineProblem::RepeatedId(instance.id, first)));
                    }
                    None => {
                        ids.insert(instance.id.clone(), n);
                        instances.push(instance);
                    }
                },
                Err(problem) => errors.push(err(n, problem)),
            }
        }
        match errors.len() {
            0 => {}
            1 => return Err(errors.remove(0)),
            _ => return Err(InstanceError::Several(errors)),
        }
        if instances.is_empty() {
            return Err(err(columns_n, LineProblem::Empty));
        }
        Ok(InstanceSet {
            name: name.to_string(),
            path: path.to_path_buf(),
            size,
            goal,
            header: header.into_iter().map(|(k, v, _)| (k, v)).collect(),
            comments,
            extra_columns: extra_cols.iter().map(|&i| columns[i].to_string()).collect(),
            instances,
        })
    }

    /// A header value, such as `seed`.
    pub fn header_value(&self, key: &str) -> Option<&str> {
        self.header
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }
}

/// Writes a set in the instance-file format: format line, header, comments, column row
/// (`id`, `optimal_length` when any instance has one, `tiles`), instances.
pub(crate) fn format_set(
    header: &[(String, String)],
    comments: &[String],
    instances: &[(String, Option<u32>, Board)],
) -> String {
    let mut out = format!("{FORMAT_LINE}\n");
    for (k, v) in header {
        out.push_str(&format!("# {k}: {v}\n"));
    }
    for c in comments {
        out.push_str(&format!("# {c}\n"));
    }
    let with_optimal = instances.iter().any(|(_, o, _)| o.is_some());
    out.push_str(if with_optimal {
        "id\toptimal_length\ttiles\n"
    } else {
        "id\ttiles\n"
    });
    for (id, optimal, board) in instances {
        out.push_str(id);
        out.push('\t');
        if with_optimal {
            if let Some(o) = optimal {
                out.push_str(&o.to_string());
            }
            out.push('\t');
        }
        out.push_str(&crate::board::join_tiles(board.tiles()));
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<InstanceSet, InstanceError> {
        InstanceSet::parse(text, Path::new("t.txt"), "t")
    }

    const GOOD: &str = "# tilebench-instances v1\n# size: 3x3\n# goal: blank-last\n\
        # source: hand-made\n# a comment: with a colon\nid\toptimal_length\ttiles\n\
        a\t2\t1 2 3 4 0 5 7 8 6\n\n# later comment\nb\t\t1 2 3 4 5 6 7 0 8\n";

    #[test]
    fn parses_header_columns_and_instances() {
        let set = parse(GOOD).unwrap();
        assert_eq!(set.size, Size::parse("3x3").unwrap());
        assert_eq!(set.goal, Goal::blank_last(set.size));
        assert_eq!(set.header_value("source"), Some("hand-made"));
        assert_eq!(set.comments, vec!["a comment: with a colon".to_string()]);
        assert_eq!(set.instances.len(), 2);
        assert_eq!(set.instances[0].optimal, Some(2));
        assert_eq!(set.instances[1].optimal, None);
        assert_eq!(set.instances[1].line, 10);
    }

    #[test]
    fn format_then_parse_round_trips() {
        let set = parse(GOOD).unwrap();
        let rows: Vec<_> = set
            .instances
            .iter()
            .map(|i| (i.id.clone(), i.optimal, i.board.clone()))
            .collect();
        let text = format_set(&set.header, &set.comments, &rows);
        let again = parse(&text).unwrap();
        assert_eq!(again.instances, {
            let mut v = set.instances.clone();
            v[0].line = 7;
            v[1].line = 8;
            v
        });
    }

    #[test]
    fn control_characters_utf16_and_colons_are_named_by_line() {
        let with_id = GOOD.replace("\na\t2", "\na\u{c}b\t2");
        let (line, p) = line_problem(&with_id);
        assert_eq!(line, 7);
        assert!(p.to_string().contains("U+000C"), "{p}");
        for c in ['\u{1b}', '\u{7f}'] {
            let header = GOOD.replace("hand-made", &format!("hand{c}made"));
            let (line, p) = line_problem(&header);
            assert_eq!(line, 4, "{p}");
            assert!(matches!(p, LineProblem::ControlCharacter(_)), "{p}");
        }
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        let utf16: Vec<u8> = [0xff, 0xfe]
            .into_iter()
            .chain(GOOD.encode_utf16().flat_map(u16::to_le_bytes))
            .collect();
        let path = dir.join("wide.txt");
        std::fs::write(&path, utf16).unwrap();
        let e = InstanceSet::read(&path).unwrap_err().to_string();
        assert!(e.contains("wide.txt:1: the file is UTF-16"), "{e}");
        let mut latin1 = GOOD.as_bytes().to_vec();
        latin1.splice(latin1.len() - 3..latin1.len() - 3, [0xe9]);
        std::fs::write(&path, latin1).unwrap();
        let e = InstanceSet::read(&path).unwrap_err().to_string();
        assert!(e.contains("wide.txt:10: not UTF-8"), "{e}");
        // A file named with a colon is read whole.
        let colon = dir.join("a:b.txt");
        std::fs::write(&colon, GOOD).unwrap();
        let set = InstanceSet::read_selection(colon.to_str().unwrap()).unwrap();
        assert_eq!(set.instances.len(), 2);
        let one = InstanceSet::read_selection(&format!("{}:2-2", colon.display())).unwrap();
        assert_eq!(one.instances[0].id, "b");
    }

    fn line_problem(text: &str) -> (usize, LineProblem) {
        match parse(text) {
            Err(InstanceError::Line { line, problem, .. }) => (line, problem),
            other => panic!("expected one line error, got {other:?}"),
        }
    }

    #[test]
    fn every_bad_line_names_its_line() {
        let head = "# tilebench-instances v1\n# size: 3x3\n# goal: blank-last\nid\ttiles\n";
        type Check = fn(&LineProblem) -> bool;
        let cases: &[(&str, Check)] = &[
            ("a\t1 2 3 4 5 6 7 8\n", |p| {
                matches!(p, LineProblem::Board(BoardError::WrongCount { .. }))
            }),
            ("a\t1 2 3 4 5 6 7 8 8\n", |p| {
                matches!(p, LineProblem::Board(BoardError::Repeated { tile: 8 }))
            }),
            ("a\t1 2 3 4 5 6 7 x 0\n", |p| {
                matches!(p, LineProblem::Board(BoardError::NotANumber { .. }))
            }),
            ("a\t1 2 3 4 5 6 7 8 0 9 10 11 12 13 14 15\n", |p| {
                matches!(p, LineProblem::Board(BoardError::WrongCount { .. }))
            }),
            ("a\n", |p| matches!(p, LineProblem::Columns { .. })),
            ("\t1 2 3 4 5 6 7 8 0\n", |p| *p == LineProblem::EmptyId),
        ];
        for (line, check) in cases {
            let (n, p) = line_problem(&format!("{head}{line}"));
            assert_eq!(n, 5, "{line}");
            assert!(check(&p), "{line}: {p:?}");
        }
        let (n, p) = line_problem(&format!(
            "{head}a\t1 2 3 4 5 6 7 8 0\na\t1 2 3 4 5 6 7 0 8\n"
        ));
        assert_eq!((n, p), (6, LineProblem::RepeatedId("a".into(), 5)));
        let (n, p) = line_problem(
            "# tilebench-instances v1\n# size: 3x3\n# goal: blank-last\nid\toptimal_length\ttiles\n\
             a\tfive\t1 2 3 4 5 6 7 8 0\n",
        );
        assert_eq!((n, p), (5, LineProblem::BadLength("five".into())));
        let (n, p) = line_problem(
            "# tilebench-instances v1\n# size: 3x3\n# goal: blank-last\nid\toptimal_length\ttiles\n\
             a\t-3\t1 2 3 4 5 6 7 8 0\n",
        );
        assert!(p.to_string().contains("must be 0 or more"), "{p}");
        assert_eq!((n, p), (5, LineProblem::NegativeLength("-3".into())));
    }

    #[test]
    fn repeated_boards_are_named_with_the_first_of_them() {
        let set = parse(
            "# tilebench-instances v1\n# size: 2x2\n# goal: blank-last\nid\ttiles\n\
             a\t1 2 3 0\nb\t1 2 0 3\nc\t1 2 3 0\nd\t1 2 3 0\n",
        )
        .unwrap();
        assert_eq!(set.repeats(), [("c", "a"), ("d", "a")]);
    }

    #[test]
    fn bad_headers_are_reported() {
        assert_eq!(
            line_problem("id\ttiles\n").1,
            LineProblem::NotAnInstanceFile
        );
        assert_eq!(
            line_problem("# tilebench-instances v1\n# goal: blank-last\nid\ttiles\n"),
            (3, LineProblem::MissingHeader("size"))
        );
        // A bad value is named at its own line, not at the column row.
        assert!(matches!(
            line_problem("# tilebench-instances v1\n# size: 9x9\n# goal: x\nid\ttiles\n"),
            (2, LineProblem::BadHeader { key, .. }) if key == "size"
        ));
        assert!(matches!(
            line_problem("# tilebench-instances v1\n# size: 3x3\n# goal: x\nid\ttiles\n"),
            (3, LineProblem::BadHeader { key, .. }) if key == "goal"
        ));
        assert_eq!(
            line_problem("# tilebench-instances v1\n# size: 3x3\n# goal: blank-last\nid\n").1,
            LineProblem::MissingColumn("tiles")
        );
        // Cut off in the header: no column row, not "no instances".
        assert_eq!(
            line_problem("# tilebench-instances v1\n# size: 3x3\n# goal: bla"),
            (3, LineProblem::NoColumnRow)
        );
    }

    #[test]
    fn all_bad_lines_are_collected_with_file_and_line() {
        let text = "# tilebench-instances v1\n# size: 3x3\n# goal: blank-last\nid\ttiles\n\
                    a\t1 2 3\nb\t1 2 3 4 5 6 7 8 0\nc\t0 0 1 2 3 4 5 6 7\n";
        let e = parse(text).unwrap_err();
        let InstanceError::Several(v) = &e else {
            panic!("{e:?}")
        };
        assert_eq!(v.len(), 2);
        let msg = e.to_string();
        assert!(msg.contains("t.txt:5: "), "{msg}");
        assert!(msg.contains("t.txt:7: "), "{msg}");
    }

    /// The committed copies of Korf's sets parse and keep their published optimal lengths.
    #[test]
    fn korf_sets_parse_with_their_published_sums() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("instances");
        for (file, count, sum, cells) in [
            ("korf100.txt", 100, 5305, 16),
            ("korf50-24.txt", 50, 5039, 25),
        ] {
            let set = InstanceSet::read(&root.join(file)).unwrap();
            assert_eq!(set.instances.len(), count, "{file}");
            assert_eq!(set.size.cells(), cells);
            assert_eq!(set.goal, Goal::blank_first(set.size));
            let total: u32 = set.instances.iter().map(|i| i.optimal.unwrap()).sum();
            assert_eq!(total, sum, "{file}");
            assert!(set.header_value("source").is_some());
            for i in &set.instances {
                assert!(i.board.is_solvable(&set.goal).unwrap(), "{file} {}", i.id);
            }
        }
    }

    #[test]
    fn selection_takes_a_range_of_positions() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("instances");
        let spec = format!("{}:3-5", root.join("korf100.txt").display());
        let set = InstanceSet::read_selection(&spec).unwrap();
        let ids: Vec<&str> = set.instances.iter().map(|i| i.id.as_str()).collect();
        assert_eq!(ids, ["3", "4", "5"]);
        assert_eq!(set.name, "korf100");
        let spec = format!("{}:2", root.join("korf100.txt").display());
        let set = InstanceSet::read_selection(&spec).unwrap();
        assert_eq!(set.instances.len(), 1);
        assert_eq!(set.instances[0].id, "2");
        let spec = format!("{}:12,2,4,10-12", root.join("korf100.txt").display());
        let set = InstanceSet::read_selection(&spec).unwrap();
        let ids: Vec<&str> = set.instances.iter().map(|i| i.id.as_str()).collect();
        assert_eq!(ids, ["2", "4", "10", "11", "12"]);
        let pieces: Vec<String> = ["a.txt:2", "4", "10-12", "b.txt", "c.txt"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        assert_eq!(
            join_selections(&pieces),
            ["a.txt:2,4,10-12", "b.txt", "c.txt"]
        );
        let refused = |sel: &str, why: &str| {
            let spec = format!("{}:{sel}", root.join("korf100.txt").display());
            let e = InstanceSet::read_selection(&spec).unwrap_err().to_string();
            assert!(e.contains(why), "{e}");
        };
        refused(
            "0-5",
            "the selection 0-5 starts at 0: positions count from 1",
        );
        refused("5-3", "the selection 5-3 is reversed");
        refused(
            "99-101",
            "the selection 99-101 is outside the file's 100 instances",
        );
        let spec = format!("{}:x", root.join("korf100.txt").display());
        assert!(matches!(
            InstanceSet::read_selection(&spec),
            Err(InstanceError::BadSelection(_))
        ));
    }
}
