//! `meta.json`: how a results directory was made (command, code version, compiler, machine,
//! settings, times), so every number in it can be traced and regenerated.
//!
//! The git commit and dirty flag are read at run time from the checkout the binary was built
//! from (`git` in `CARGO_MANIFEST_DIR`, ignoring `results/` and `reports/`), best effort: `null`
//! when git or the checkout is unavailable. The rustc version is captured at build time by
//! `build.rs`. Machine facts come from `/proc` on Linux and are `null` elsewhere.

use std::path::Path;
use std::process::Command;
use std::time::{SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};

/// The machine the runs ran on.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Machine {
    pub cpu_model: Option<String>,
    /// Logical cores available to this process.
    pub cores: usize,
    pub memory_bytes: Option<u64>,
    pub os: String,
    pub hostname: Option<String>,
}

/// One instance set of the experiment, as recorded in `meta.json`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
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
}

/// The limits every search of the experiment ran under.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LimitsInfo {
    pub node_limit: Option<u64>,
    pub time_limit_seconds: Option<f64>,
}

/// The contents of `meta.json`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Meta {
    pub command_line: Vec<String>,
    pub tilebench_version: String,
    pub git_commit: Option<String>,
    pub git_dirty: Option<bool>,
    pub rustc_version: String,
    pub machine: Machine,
    /// UTC, RFC 3339.
    pub started: String,
    /// UTC, RFC 3339; `null` while running or when interrupted.
    pub finished: Option<String>,
    /// `running`, `complete` or `interrupted`.
    pub state: String,
    pub threads: usize,
    pub instance_sets: Vec<SetInfo>,
    pub heuristics: Vec<String>,
    pub limits: LimitsInfo,
    /// Pairs in the experiment, and how many were already in `runs.csv` when this session began.
    pub pairs: usize,
    pub pairs_done_before: usize,
    /// Earlier sessions of the same results directory (`--resume`), oldest first.
    #[serde(default)]
    pub previous_sessions: Vec<serde_json::Value>,
    /// For `run --shard I/N`: which slice of the experiment this directory holds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<crate::cluster::Shard>,
}

/// The compiler that built this binary (`rustc --version`, captured by build.rs).
pub const RUSTC_VERSION: &str = env!("TILEBENCH_RUSTC_VERSION");

/// Where this binary was built from: the checkout whose git state is recorded.
pub fn source_dir() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The checkout's commit and whether tracked files (outside results/ and reports/) differ from it.
pub fn git_state(dir: &Path) -> (Option<String>, Option<bool>) {
    let run = |args: &[&str]| {
        Command::new("git")
            .arg("-C")
            .arg(dir)
            .args(args)
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
    };
    let commit = run(&["rev-parse", "HEAD"]);
    let dirty = commit.as_ref().and_then(|_| {
        run(&[
            "status",
            "--porcelain",
            "--untracked-files=no",
            "--",
            ".",
            ":!results",
            ":!reports",
        ])
        .map(|s| !s.is_empty())
    });
    (commit, dirty)
}

/// CPU model, cores, memory and OS of this machine.
pub fn machine() -> Machine {
    let read = |p: &str| std::fs::read_to_string(p).ok();
    let cpu_model = read("/proc/cpuinfo").and_then(|s| {
        s.lines()
            .find(|l| l.starts_with("model name"))
            .and_then(|l| l.split_once(':'))
            .map(|(_, v)| v.trim().to_string())
    });
    let memory_bytes = read("/proc/meminfo").and_then(|s| {
        let line = s.lines().find(|l| l.starts_with("MemTotal:"))?;
        let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
        Some(kb * 1024)
    });
    let pretty = read("/etc/os-release").and_then(|s| {
        s.lines()
            .find_map(|l| l.strip_prefix("PRETTY_NAME="))
            .map(|v| v.trim_matches('"').to_string())
    });
    let kernel = read("/proc/sys/kernel/osrelease").map(|s| s.trim().to_string());
    let os = match (pretty, kernel) {
        (Some(p), Some(k)) => format!("{p}, {} {k}", std::env::consts::OS),
        (Some(p), None) => p,
        (None, Some(k)) => format!("{} {k}", std::env::consts::OS),
        (None, None) => std::env::consts::OS.to_string(),
    };
    Machine {
        cpu_model,
        cores: std::thread::available_parallelism().map_or(1, |n| n.get()),
        memory_bytes,
        os,
        hostname: read("/proc/sys/kernel/hostname").map(|s| s.trim().to_string()),
    }
}

/// The current time as `YYYY-MM-DDTHH:MM:SSZ` (UTC).
pub fn now_rfc3339() -> String {
    let secs = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    rfc3339(secs)
}

/// Seconds since the Unix epoch as `YYYY-MM-DDTHH:MM:SSZ`, by Howard Hinnant's days-to-civil.
pub fn rfc3339(secs: u64) -> String {
    let days = (secs / 86_400) as i64;
    let rem = secs % 86_400;
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        rem / 60 % 60,
        rem % 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rfc3339_on_known_dates() {
        assert_eq!(rfc3339(0), "1970-01-01T00:00:00Z");
        assert_eq!(rfc3339(951_782_400), "2000-02-29T00:00:00Z");
        assert_eq!(rfc3339(1_700_000_000), "2023-11-14T22:13:20Z");
        assert_eq!(rfc3339(4_107_542_399), "2100-02-28T23:59:59Z");
    }

    #[test]
    fn machine_reports_at_least_one_core() {
        let m = machine();
        assert!(m.cores >= 1);
        assert!(!m.os.is_empty());
    }
}
