//! `meta.json`: how a results directory was made (command, code version, compiler, machine,
//! settings, times), so every number in it can be traced and regenerated. It is written from
//! [`Meta`] and read back as [`Meta`] ([`Meta::read`]), field for field.
//!
//! **Schema versions.** [`SCHEMA_VERSION`] is written in every new file. Files without a
//! `schema_version` are schema 1 (written before the field existed, up to commit 7576135); schema
//! 2 only added the field, and schema 3 only added optional fields (`retry`, each set's
//! `content_hash`), so older files are read as they are. A file from a newer tilebench, or with a
//! key this version does not know, is refused with a message naming the file (and line), never
//! half-read. A change of the layout bumps [`SCHEMA_VERSION`] and adds a migration in
//! [`Meta::read`].

use std::fmt;
use std::path::{Path, PathBuf};
use std::str::FromStr;

use serde::{Deserialize, Serialize};
use thiserror::Error;

pub(crate) use super::spec::ida_only;
use super::spec::ExperimentSpec;

/// The schema this tilebench writes.
pub const SCHEMA_VERSION: u32 = 3;

/// The schema of files written before `schema_version` existed.
const LEGACY_SCHEMA: u32 = 1;

fn legacy_schema() -> u32 {
    LEGACY_SCHEMA
}

/// Why a `meta.json` could not be read or written.
#[derive(Debug, Error)]
pub enum MetaError {
    #[error("{path}: {source}", path = .path.display())]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{path}:{line}:{column}: not a tilebench meta.json: {message}", path = .path.display())]
    Invalid {
        path: PathBuf,
        line: usize,
        column: usize,
        message: String,
    },
    #[error(
        "{path}: schema_version {found} is newer than this tilebench reads ({SCHEMA_VERSION}); \
         use a newer tilebench",
        path = .path.display()
    )]
    Newer { path: PathBuf, found: u32 },
    #[error("{path}: unknown schema_version {found}", path = .path.display())]
    Unknown { path: PathBuf, found: u32 },
}

/// Where a results directory's runs stand.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RunState {
    /// A session is writing (or was killed without a chance to say so).
    Running,
    /// Every pair has a row.
    Complete,
    /// Stopped by Ctrl-C; `run --resume` finishes it.
    Interrupted,
    /// Stopped by an error that tilebench named when it ended (a bad checkpoint, a full disk):
    /// the rows written stay, `run --resume` continues once it is fixed.
    Failed,
    /// Pairs missing: merged by `collect` with some shards not run or not finished, or a
    /// session that ran only some pairs (`run --only-ids`); `run --resume` adds the others.
    Incomplete,
}

impl fmt::Display for RunState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            RunState::Running => "running",
            RunState::Complete => "complete",
            RunState::Interrupted => "interrupted",
            RunState::Failed => "failed",
            RunState::Incomplete => "incomplete",
        })
    }
}

/// The machine the runs ran on.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Machine {
    pub cpu_model: Option<String>,
    /// Logical cores available to this process.
    pub cores: usize,
    pub memory_bytes: Option<u64>,
    pub os: String,
    pub hostname: Option<String>,
}

/// One instance set of the experiment.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SetInfo {
    pub name: String,
    /// The path or selection (`FILE:FIRST-LAST`) as given.
    pub path: String,
    pub size: String,
    pub goal: String,
    pub instances: usize,
    pub seed: Option<String>,
    pub generator: Option<String>,
    pub source: Option<String>,
    /// A checksum of the selected instances (see `experiment::resume::content_hash`), so that
    /// `--resume` notices edited boards; absent before schema 3.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content_hash: Option<String>,
}

/// The limits every search of the experiment ran under.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LimitsInfo {
    pub node_limit: Option<u64>,
    pub time_limit_seconds: Option<f64>,
    /// `--memory-limit`: bytes A* and breadth-first search may store, and an outside solver's
    /// resident memory; absent in older files.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub memory_limit_bytes: Option<u64>,
    /// `run --fixed-bound`: every pair ran one complete iteration with this threshold instead of
    /// a full search; absent for full searches and in older files.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fixed_bound: Option<u32>,
}

/// An outside solver of the experiment (`run --solver NAME[:HEURISTIC]=COMMAND`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SolverInfo {
    pub name: String,
    /// The command as given (split into words, never run by a shell).
    pub command: String,
    /// The built-in heuristic it implements, whose node counts the report sets beside its own.
    pub heuristic: Option<String>,
    /// Unknown optimal lengths were found with the built-in search (`--check-optimal`).
    #[serde(default)]
    pub check_optimal: bool,
}

/// The `index`-th of `count` slices of an experiment (`--shard I/N`, 0-based, so Slurm's
/// `$SLURM_ARRAY_TASK_ID` of an `--array=0-(N-1)` job can be passed as it is). Which pairs a
/// shard holds is decided in [`crate::experiment::shard`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Shard {
    pub index: usize,
    pub count: usize,
}

/// A malformed `--shard`.
#[derive(Debug, Error, PartialEq, Eq)]
#[error("bad shard '{0}': expected I/N with 0 <= I < N, e.g. 0/4")]
pub struct ShardError(pub String);

impl FromStr for Shard {
    type Err = ShardError;

    fn from_str(s: &str) -> Result<Shard, ShardError> {
        let bad = || ShardError(s.to_string());
        let (i, n) = s.split_once('/').ok_or_else(bad)?;
        let index: usize = i.trim().parse().map_err(|_| bad())?;
        let count: usize = n.trim().parse().map_err(|_| bad())?;
        if index >= count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// One submission of a Slurm job, as recorded in `slurm/submissions.json` (and in a collected
/// `meta.json`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Submission {
    pub job_id: String,
    /// The array tasks (= shards) submitted.
    pub tasks: Vec<usize>,
    /// UTC, RFC 3339.
    pub submitted: String,
    pub sbatch: Vec<String>,
}

/// How `collect` merged the shards of a results directory.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Collected {
    /// UTC, RFC 3339.
    pub at: String,
    /// The tilebench that collected (built from this commit).
    pub git_commit: Option<String>,
    pub git_dirty: Option<bool>,
    /// Pairs with a row, pairs without, and rows with a failure status.
    pub present: usize,
    pub missing: usize,
    pub failed: usize,
}

/// One shard's session, as summarised in a collected `meta.json`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ShardSession {
    pub index: usize,
    pub state: RunState,
    pub started: String,
    pub finished: Option<String>,
    pub pairs: usize,
    pub hostname: Option<String>,
    pub git_commit: Option<String>,
    pub command_line: Vec<String>,
}

/// The contents of `meta.json`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Meta {
    /// See the module documentation; absent (schema 1) in older files.
    #[serde(default = "legacy_schema")]
    pub schema_version: u32,
    pub command_line: Vec<String>,
    pub tilebench_version: String,
    /// The commit the binary was built from, and whether tracked files differed from it
    /// (captured at build time; `null` when built outside a git checkout).
    pub git_commit: Option<String>,
    pub git_dirty: Option<bool>,
    pub rustc_version: String,
    pub machine: Machine,
    /// UTC, RFC 3339.
    pub started: String,
    /// UTC, RFC 3339; `null` while running or when interrupted.
    pub finished: Option<String>,
    pub state: RunState,
    /// Pool size.
    pub threads: usize,
    pub instance_sets: Vec<SetInfo>,
    /// The algorithms run (`ida` alone in files from before the field).
    #[serde(default = "ida_only")]
    pub algorithms: Vec<String>,
    pub heuristics: Vec<String>,
    /// IDA*'s duplicate-path pruning (parent in files from before the field).
    #[serde(default, skip_serializing_if = "crate::search::Pruning::is_parent")]
    pub pruning: crate::search::Pruning,
    /// Outside solvers run beside the built-in search.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub solvers: Vec<SolverInfo>,
    pub limits: LimitsInfo,
    /// Pairs in the experiment, and how many were already in `runs.csv` when this session began.
    pub pairs: usize,
    pub pairs_done_before: usize,
    /// The statuses this session ran again (`--retry`); empty for a plain run or resume.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub retry: Vec<super::RunStatus>,
    /// Earlier sessions of the same results directory (`--resume`), oldest first; with this
    /// record they are the list of every session's settings.
    #[serde(default)]
    pub previous_sessions: Vec<Meta>,
    /// For `run --shard I/N`: which slice of the experiment this directory holds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<Shard>,
    /// For results merged by `collect`: how, the experiment, each shard's session and the Slurm
    /// submissions.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub collected: Option<Collected>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub experiment: Option<ExperimentSpec>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub shards: Vec<ShardSession>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub slurm_submissions: Vec<Submission>,
}

impl Meta {
    /// The experiment this directory holds, as every check of one experiment compares it
    /// ([`ExperimentSpec::differences`]); its instance sets are in `instance_sets`, not here.
    pub(crate) fn spec(&self) -> ExperimentSpec {
        ExperimentSpec {
            heuristics: self.heuristics.clone(),
            algorithms: self.algorithms.clone(),
            node_limit: self.limits.node_limit,
            time_limit_seconds: self.limits.time_limit_seconds,
            memory_limit: self.limits.memory_limit_bytes,
            solvers: self
                .solvers
                .iter()
                .map(|s| match &s.heuristic {
                    Some(h) => format!("{}:{h}={}", s.name, s.command),
                    None => format!("{}={}", s.name, s.command),
                })
                .collect(),
            check_optimal: self.solvers.iter().any(|s| s.check_optimal),
            pruning: self.pruning,
            fixed_bound: self.limits.fixed_bound,
            ..ExperimentSpec::default()
        }
    }

    /// Reads `meta.json` at `path` (see the module documentation for older schemas).
    pub fn read(path: &Path) -> Result<Meta, MetaError> {
        let text = std::fs::read_to_string(path).map_err(|source| MetaError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        Meta::parse(path, &text)
    }

    /// Parses the text of a `meta.json` read from `path` (named in errors).
    pub fn parse(path: &Path, text: &str) -> Result<Meta, MetaError> {
        let invalid = |e: serde_json::Error| MetaError::Invalid {
            path: path.to_path_buf(),
            line: e.line(),
            column: e.column(),
            message: e.to_string(),
        };
        #[derive(Deserialize)]
        struct Version {
            #[serde(default = "legacy_schema")]
            schema_version: u32,
        }
        let found = serde_json::from_str::<Version>(text)
            .map_err(invalid)?
            .schema_version;
        if found > SCHEMA_VERSION {
            return Err(MetaError::Newer {
                path: path.to_path_buf(),
                found,
            });
        }
        if found < LEGACY_SCHEMA {
            return Err(MetaError::Unknown {
                path: path.to_path_buf(),
                found,
            });
        }
        // Schema 1 differs from 2 only by lacking `schema_version`: read as it is.
        let meta: Meta = serde_json::from_str(text).map_err(invalid)?;
        meta.check_text(path, text)?;
        Ok(meta)
    }

    /// Refuses control characters in the fields reports print (set names and header values,
    /// heuristics, solvers): they would break SVG, LaTeX and terminals. The error names the line.
    fn check_text(&self, path: &Path, text: &str) -> Result<(), MetaError> {
        let mut fields: Vec<&str> = Vec::new();
        for s in &self.instance_sets {
            fields.extend([s.name.as_str(), &s.path, &s.size, &s.goal]);
            fields.extend(
                [&s.seed, &s.generator, &s.source]
                    .into_iter()
                    .filter_map(|v| v.as_deref()),
            );
        }
        fields.extend(self.heuristics.iter().map(String::as_str));
        fields.extend(self.algorithms.iter().map(String::as_str));
        fields.extend(self.solvers.iter().map(|s| s.name.as_str()));
        for value in fields {
            if let Some(c) = value.chars().find(|c| c.is_control()) {
                let quoted = serde_json::to_string(value).unwrap_or_default();
                let line = text
                    .lines()
                    .position(|l| l.contains(&quoted))
                    .map_or(1, |i| i + 1);
                return Err(MetaError::Invalid {
                    path: path.to_path_buf(),
                    line,
                    column: 1,
                    message: format!(
                        "control character U+{:04X} in '{}'",
                        c as u32,
                        value.escape_debug()
                    ),
                });
            }
        }
        Ok(())
    }

    /// Writes this record to `path` atomically, as pretty JSON.
    pub fn write(&self, path: &Path) -> Result<(), MetaError> {
        let mut text = serde_json::to_string_pretty(self).expect("Meta serialises");
        text.push('\n');
        super::io::atomic_write(path, text.as_bytes()).map_err(|source| MetaError::Io {
            path: path.to_path_buf(),
            source,
        })
    }
}

/// A word that needs no quoting, for a shell or for sbatch.
pub(crate) fn is_plain_word(s: &str) -> bool {
    !s.is_empty()
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-_./:=,+@%".contains(&b))
}

/// Quotes a word for a POSIX shell. Not `shell_words::quote`: that leaves every character
/// outside its list of specials bare, `{a,b}` and `!` among them, which bash expands; this keeps
/// only an allow-list bare.
pub fn sh_quote(s: &str) -> String {
    if is_plain_word(s) {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', r"'\''"))
    }
}

/// Words as one line a POSIX shell splits back into the same words.
pub(crate) fn shell_line(words: &[String]) -> String {
    words
        .iter()
        .map(|w| sh_quote(w))
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A complete meta.json of one finished session, for tests across the crate.
    pub(crate) fn sample() -> Meta {
        Meta {
            schema_version: SCHEMA_VERSION,
            command_line: vec!["tilebench".into(), "run".into()],
            tilebench_version: "0.1.0".into(),
            git_commit: Some("abc".into()),
            git_dirty: Some(false),
            rustc_version: "rustc 1.85.0".into(),
            algorithms: ida_only(),
            pruning: crate::search::Pruning::Parent,
            machine: Machine {
                cores: 2,
                os: "linux".into(),
                ..Machine::default()
            },
            started: "2026-01-01T00:00:00Z".into(),
            finished: None,
            state: RunState::Running,
            threads: 2,
            instance_sets: vec![],
            heuristics: vec!["manhattan".into()],
            solvers: vec![],
            limits: LimitsInfo::default(),
            pairs: 1,
            pairs_done_before: 0,
            retry: vec![],
            previous_sessions: vec![],
            shard: Some(Shard { index: 1, count: 3 }),
            collected: None,
            experiment: None,
            shards: vec![],
            slurm_submissions: vec![],
        }
    }

    #[test]
    fn written_and_read_back_as_the_same_struct() {
        let m = sample();
        let text = serde_json::to_string_pretty(&m).unwrap();
        assert!(text.contains("\"state\": \"running\""));
        assert!(text.contains(&format!("\"schema_version\": {SCHEMA_VERSION}")));
        assert_eq!(Meta::parse(Path::new("m.json"), &text).unwrap(), m);
    }

    #[test]
    fn schema_1_is_read_and_newer_or_foreign_files_are_refused() {
        let text = serde_json::to_string_pretty(&sample()).unwrap();
        let current = format!("\"schema_version\": {SCHEMA_VERSION}");
        let v1 = text.replace(&format!("  {current},\n"), "");
        assert!(!v1.contains("schema_version"));
        let m = Meta::parse(Path::new("m.json"), &v1).unwrap();
        assert_eq!(m.schema_version, 1);
        assert_eq!(m.state, RunState::Running);

        let v9 = text.replace(&current, "\"schema_version\": 9");
        let e = Meta::parse(Path::new("m.json"), &v9).unwrap_err();
        assert!(
            e.to_string().contains("m.json: schema_version 9 is newer"),
            "{e}"
        );

        // The keys of the fixture that hid the old Setup bug are refused, with the line.
        let old = text.replace("\"command_line\"", "\"command\"");
        let e = Meta::parse(Path::new("m.json"), &old).unwrap_err();
        assert!(e.to_string().starts_with("m.json:3:"), "{e}");
        assert!(e.to_string().contains("unknown field `command`"), "{e}");

        let bad_state = text.replace("\"running\"", "\"paused\"");
        let e = Meta::parse(Path::new("m.json"), &bad_state).unwrap_err();
        assert!(e.to_string().contains("unknown variant `paused`"), "{e}");

        // A control character in a field reports print (ESC in `source`), with its line.
        let mut evil = sample();
        evil.instance_sets.push(SetInfo {
            name: "s".into(),
            source: Some("x\u{1b}[31m".into()),
            ..SetInfo::default()
        });
        let text = serde_json::to_string_pretty(&evil).unwrap();
        let at = text.lines().position(|l| l.contains("\\u001b")).unwrap() + 1;
        let e = Meta::parse(Path::new("m.json"), &text)
            .unwrap_err()
            .to_string();
        assert!(
            e.contains(&format!("m.json:{at}:1:")) && e.contains("U+001B"),
            "{e}"
        );
    }

    #[test]
    fn shards_parse_and_display() {
        assert_eq!("2/4".parse(), Ok(Shard { index: 2, count: 4 }));
        assert_eq!(Shard { index: 0, count: 1 }.to_string(), "0/1");
        for bad in ["4/4", "1", "a/2", "1/0", "-1/3", "1/2/3", ""] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
    }
}
