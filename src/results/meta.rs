//! `meta.json`: how a results directory was made (command, code version, compiler, machine,
//! settings, times), so every number in it can be traced and regenerated. It is written from
//! [`Meta`] and read back as [`Meta`] ([`Meta::read`]), field for field.
//!
//! **Schema versions.** [`SCHEMA_VERSION`] is written in every new file. Files without a
//! `schema_version` are schema 1 (written before the field existed, up to commit 7576135); schema
//! 2 only added the field, and schema 3 only added optional fields (`retry`, each set's
//! `content_hash`); schema 4 gathered the experiment's separate fields (heuristics, algorithms,
//! pruning, solvers, limits) into one [`ExperimentSpec`], and [`Meta::read`] reads older files
//! into it. A file from a newer tilebench, or with a
//! key this version does not know, is refused with a message naming the file (and line), never
//! half-read. A change of the layout bumps [`SCHEMA_VERSION`] and adds a migration in
//! [`Meta::read`].

use std::fmt;
use std::path::{Path, PathBuf};
use std::str::FromStr;

use serde::{Deserialize, Serialize};
use thiserror::Error;

use serde_json::{json, Map, Value};

pub(crate) use super::spec::ida_only;
use super::spec::ExperimentSpec;
use crate::path_io::At;

/// The schema this tilebench writes.
pub const SCHEMA_VERSION: u32 = 4;

/// The schema of files written before `schema_version` existed.
const LEGACY_SCHEMA: u32 = 1;

fn legacy_schema() -> u32 {
    LEGACY_SCHEMA
}

/// Why a `meta.json` could not be read or written.
#[derive(Debug, Error)]
pub enum MetaError {
    #[error(transparent)]
    Io(#[from] crate::path_io::PathIo),
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
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RunState {
    /// A session is writing (or was killed without a chance to say so).
    #[default]
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
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
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
    /// What ran under which limits (schema 4; older files' separate fields are read into it).
    pub experiment: ExperimentSpec,
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
    /// For results merged by `collect`: how, each shard's session and the Slurm submissions.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub collected: Option<Collected>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub shards: Vec<ShardSession>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub slurm_submissions: Vec<Submission>,
}

impl Meta {
    /// Reads `meta.json` at `path` (see the module documentation for older schemas).
    pub fn read(path: &Path) -> Result<Meta, MetaError> {
        let text = std::fs::read_to_string(path).at(path)?;
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
        // Schema 1 differs from 2 only by lacking `schema_version`, 3 from 2 only by optional
        // fields; 4 gathered their experiment fields into `experiment`.
        let meta: Meta = if found < 4 {
            let mut value: Value = serde_json::from_str(text).map_err(invalid)?;
            upgrade_to_4(&mut value);
            serde_json::from_value(value).map_err(|e| {
                // No positions in a rebuilt value: point at the line of the key named.
                let key = e.to_string().split('`').nth(1).map(|k| format!("\"{k}\""));
                let line = key
                    .and_then(|k| text.lines().position(|l| l.contains(&k)))
                    .map_or(1, |i| i + 1);
                MetaError::Invalid {
                    path: path.to_path_buf(),
                    line,
                    column: 1,
                    message: e.to_string(),
                }
            })?
        } else {
            serde_json::from_str(text).map_err(invalid)?
        };
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
        let e = &self.experiment;
        fields.extend(e.heuristics.iter().map(String::as_str));
        fields.extend(e.algorithms.iter().map(String::as_str));
        fields.extend(e.solvers.iter().map(String::as_str));
        for value in fields {
            if let Some(message) = super::record::control_character(value) {
                let quoted = serde_json::to_string(value).unwrap_or_default();
                let line = text
                    .lines()
                    .position(|l| l.contains(&quoted))
                    .map_or(1, |i| i + 1);
                return Err(MetaError::Invalid {
                    path: path.to_path_buf(),
                    line,
                    column: 1,
                    message,
                });
            }
        }
        Ok(())
    }

    /// Writes this record to `path` atomically, as pretty JSON.
    pub fn write(&self, path: &Path) -> Result<(), MetaError> {
        Ok(super::io::write_json(path, self)?)
    }
}

/// Rewrites a schema 1–3 record (and its earlier sessions) as schema 4: `heuristics`,
/// `algorithms`, `pruning`, `solvers` and `limits` gathered into `experiment`. A collected
/// record already held the experiment there (the same one, with its sharding); its copies go.
fn upgrade_to_4(value: &mut Value) {
    let Some(o) = value.as_object_mut() else {
        return;
    };
    let mut take = |k: &str| o.remove(k).unwrap_or(Value::Null);
    let (heuristics, algorithms, pruning) =
        (take("heuristics"), take("algorithms"), take("pruning"));
    let (solvers, limits) = (take("solvers"), take("limits"));
    if !o.contains_key("experiment") {
        let sets = o.get("instance_sets").and_then(Value::as_array);
        let instances: Vec<Value> = sets
            .into_iter()
            .flatten()
            .filter_map(|s| s.get("path").cloned())
            .collect();
        let shards = o
            .get("shard")
            .and_then(|s| s.get("count"))
            .cloned()
            .unwrap_or(json!(0));
        let solvers = solvers.as_array().cloned().unwrap_or_default();
        let check_optimal = solvers.iter().any(|s| s["check_optimal"] == json!(true));
        let solvers: Vec<Value> = solvers
            .iter()
            .map(|s| {
                let (name, command) = (&s["name"], &s["command"]);
                let (name, command) = (name.as_str().unwrap_or(""), command.as_str().unwrap_or(""));
                json!(match s["heuristic"].as_str() {
                    Some(h) => format!("{name}:{h}={command}"),
                    None => format!("{name}={command}"),
                })
            })
            .collect();
        let mut e = Map::new();
        e.insert("instances".into(), json!(instances));
        e.insert("heuristics".into(), heuristics);
        if !algorithms.is_null() {
            e.insert("algorithms".into(), algorithms);
        }
        // A key the old layout did not know stays, so that the reader refuses it by name.
        if let Value::Object(l) = limits {
            for (k, v) in l {
                let k = if k == "memory_limit_bytes" {
                    "memory_limit".into()
                } else {
                    k
                };
                e.insert(k, v);
            }
        }
        e.insert("shards".into(), shards);
        if !solvers.is_empty() {
            e.insert("solvers".into(), json!(solvers));
            e.insert("check_optimal".into(), json!(check_optimal));
        }
        if !pruning.is_null() {
            e.insert("pruning".into(), pruning);
        }
        o.insert("experiment".into(), Value::Object(e));
    }
    o.insert("schema_version".into(), json!(SCHEMA_VERSION));
    if let Some(Value::Array(previous)) = o.get_mut("previous_sessions") {
        previous.iter_mut().for_each(upgrade_to_4);
    }
}

impl Machine {
    /// CPU, cores, memory and host in words, for a report's setup or a file's header.
    pub fn in_words(&self) -> String {
        let mut parts = vec![self
            .cpu_model
            .clone()
            .unwrap_or_else(|| "unknown CPU".into())];
        parts.push(match self.cores {
            1 => "1 core".to_string(),
            n => format!("{n} cores"),
        });
        if let Some(b) = self.memory_bytes {
            parts.push(format!("{:.1} GiB memory", b as f64 / (1u64 << 30) as f64));
        }
        if let Some(h) = &self.hostname {
            parts.push(format!("host {h}"));
        }
        parts.join(", ")
    }
}

/// A binary's commit and whether it had uncommitted changes, in words.
pub fn commit_in_words(commit: Option<&str>, dirty: Option<bool>) -> String {
    match (commit, dirty) {
        (Some(c), Some(true)) => format!("{c}, with uncommitted changes"),
        (Some(c), Some(false)) => format!("{c}, no uncommitted changes"),
        (Some(c), None) => format!("{c} (uncommitted changes unknown)"),
        (None, _) => "unknown (not built from a git checkout)".to_string(),
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
            experiment: ExperimentSpec {
                heuristics: vec!["manhattan".into()],
                algorithms: ida_only(),
                ..ExperimentSpec::default()
            },
            pairs: 1,
            pairs_done_before: 0,
            retry: vec![],
            previous_sessions: vec![],
            shard: Some(Shard { index: 1, count: 3 }),
            collected: None,
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
        assert_eq!(m.schema_version, SCHEMA_VERSION);
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

    /// A record of schema 3 (as every committed results directory before schema 4 holds), its
    /// earlier session in the same layout.
    const SCHEMA_3: &str = r#"{"schema_version": 3, "command_line": ["tilebench", "run"],
      "tilebench_version": "0.1.0", "git_commit": null, "git_dirty": null,
      "rustc_version": "rustc", "machine": {"cpu_model": null, "cores": 2,
      "memory_bytes": null, "os": "linux", "hostname": null},
      "started": "2026-01-02T00:00:00Z", "finished": null, "state": "complete", "threads": 2,
      "instance_sets": [{"name": "k", "path": "instances/k.txt", "size": "4x4",
        "goal": "blank-first", "instances": 3, "seed": null, "generator": null, "source": null}],
      "algorithms": ["ida", "astar"], "heuristics": ["manhattan", "pdb-663"], "pruning": "fsm",
      "solvers": [{"name": "py", "command": "python3 'a b.py'", "heuristic": "manhattan",
        "check_optimal": true}, {"name": "c", "command": "./c", "heuristic": null}],
      "limits": {"node_limit": 5, "time_limit_seconds": 1.5, "memory_limit_bytes": 9},
      "pairs": 12, "pairs_done_before": 4,
      "previous_sessions": [{"command_line": ["tilebench"], "tilebench_version": "0.1.0",
        "git_commit": null, "git_dirty": null, "rustc_version": "rustc",
        "machine": {"cpu_model": null, "cores": 2, "memory_bytes": null, "os": "linux",
        "hostname": null}, "started": "2026-01-01T00:00:00Z", "finished": null,
        "state": "interrupted", "threads": 2, "instance_sets": [], "heuristics": ["manhattan"],
        "limits": {"node_limit": null, "time_limit_seconds": null, "fixed_bound": 40},
        "pairs": 12, "pairs_done_before": 0, "previous_sessions": []}]}"#;

    #[test]
    fn schema_3_is_read_into_one_experiment_and_written_as_4() {
        let m = Meta::parse(Path::new("m.json"), SCHEMA_3).unwrap();
        let e = &m.experiment;
        assert_eq!(e.instances, ["instances/k.txt"]);
        assert_eq!(e.algorithms, ["ida", "astar"]);
        assert_eq!(e.heuristics, ["manhattan", "pdb-663"]);
        assert_eq!(e.pruning, crate::search::Pruning::Fsm);
        assert_eq!(e.solvers, ["py:manhattan=python3 'a b.py'", "c=./c"]);
        assert!(e.check_optimal);
        let limits = (
            e.node_limit,
            e.time_limit_seconds,
            e.memory_limit,
            e.fixed_bound,
        );
        assert_eq!(limits, (Some(5), Some(1.5), Some(9), None));
        assert_eq!(e.shards, 0);
        let infos = e.solver_infos();
        assert_eq!(infos[0].command, "python3 'a b.py'");
        assert_eq!(infos[1].heuristic, None);
        let earlier = &m.previous_sessions[0].experiment;
        assert_eq!(earlier.algorithms, ida_only());
        assert_eq!(earlier.fixed_bound, Some(40));
        assert_eq!(earlier.pruning, crate::search::Pruning::Parent);
        // Written as schema 4 and read back unchanged.
        let text = serde_json::to_string_pretty(&m).unwrap();
        assert!(!text.contains("\"limits\"") && text.contains("\"experiment\""));
        assert_eq!(Meta::parse(Path::new("m.json"), &text).unwrap(), m);
        // A key the old layout did not know is still refused, with its line.
        let bad = SCHEMA_3.replace("\"memory_limit_bytes\"", "\"memory\"");
        let e = Meta::parse(Path::new("m.json"), &bad)
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("m.json:11:") && e.contains("unknown field `memory`"),
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
