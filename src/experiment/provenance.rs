//! Where and when a results directory came from: the binary (version, commit and dirty flag,
//! compiler, all captured at build time by `build.rs`), the machine and the time; gathered into
//! `meta.json` by [`super::describe`].

use std::time::SystemTime;

use crate::results::meta::{commit_in_words, shell_line, Machine};

/// The compiler that built this binary (`rustc --version`).
pub(crate) const RUSTC_VERSION: &str = env!("TILEBENCH_RUSTC_VERSION");

/// The commit this binary was built from; `None` when built outside a git checkout.
pub fn git_commit() -> Option<&'static str> {
    Some(env!("TILEBENCH_GIT_COMMIT")).filter(|c| !c.is_empty())
}

/// Whether tracked files (outside `results/` and `reports/`) differed from [`git_commit`] when
/// this binary was built; `None` when unknown.
pub fn git_dirty() -> Option<bool> {
    env!("TILEBENCH_GIT_DIRTY").parse().ok()
}

/// CPU model, cores, memory and OS of this machine (from `/proc` on Linux; `None` elsewhere).
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
pub(crate) fn now_rfc3339() -> String {
    rfc3339(SystemTime::now())
}

/// The comment line of [`comment_header`] that holds the command.
const COMMAND_LINE: &str = "# command: ";

/// Comment lines (`# …`) saying what wrote a file that has no `meta.json` beside it (`tilebench
/// predict`'s CSVs): the command, the binary and its commit, the machine and the time.
pub fn comment_header(command_line: &[String]) -> String {
    let m = machine();
    format!(
        "{COMMAND_LINE}{}\n# tilebench: {}, commit {}\n# machine: {}; {}\n# written (UTC): {}\n",
        shell_line(command_line),
        env!("CARGO_PKG_VERSION"),
        commit_in_words(git_commit(), git_dirty()),
        m.in_words(),
        m.os,
        now_rfc3339()
    )
}

/// The command a [`comment_header`] at the top of `text` names.
pub fn written_by(text: &str) -> Option<&str> {
    header_line(text, COMMAND_LINE)
}

/// The binary and the machine a [`comment_header`] at the top of `text` names: `tilebench
/// 0.1.0, commit …; <machine>`.
pub fn written_with(text: &str) -> Option<String> {
    let binary = header_line(text, "# tilebench: ")?;
    let machine = header_line(text, "# machine: ")?;
    Some(format!("tilebench {binary}; {machine}"))
}

/// The rest of the first comment line at the top of `text` that starts with `key`.
fn header_line<'a>(text: &'a str, key: &str) -> Option<&'a str> {
    text.lines()
        .take_while(|l| l.starts_with('#'))
        .find_map(|l| l.strip_prefix(key))
}

/// `time` as `YYYY-MM-DDTHH:MM:SSZ` (UTC, whole seconds), the form of every stored timestamp.
fn rfc3339(time: SystemTime) -> String {
    humantime::format_rfc3339_seconds(time).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, UNIX_EPOCH};

    #[test]
    fn a_comment_header_names_its_command() {
        let words = [
            "tilebench",
            "predict",
            "--bounds",
            "40..44",
            "-H",
            "max(a,b)",
        ];
        let words: Vec<String> = words.map(String::from).to_vec();
        let header = comment_header(&words);
        assert!(header.lines().all(|l| l.starts_with("# ")), "{header}");
        let text = format!("{header}bound,predicted_generated\n40,1.0\n");
        assert_eq!(
            written_by(&text),
            Some("tilebench predict --bounds 40..44 -H 'max(a,b)'")
        );
        assert_eq!(written_by("bound\n# command: x\n"), None);
        // And the binary's commit and the machine, as a report's setup names them.
        let with = written_with(&text).unwrap();
        let machine = machine().in_words();
        assert!(with.starts_with("tilebench 0.1.0, commit "), "{with}");
        assert!(with.contains(&format!("; {machine}; ")), "{with}");
        assert_eq!(written_with("# command: x\n# machine: m\n"), None);
    }

    #[test]
    fn rfc3339_on_known_dates() {
        assert_eq!(
            rfc3339(UNIX_EPOCH + Duration::from_secs(0)),
            "1970-01-01T00:00:00Z"
        );
        assert_eq!(
            rfc3339(UNIX_EPOCH + Duration::from_secs(951_782_400)),
            "2000-02-29T00:00:00Z"
        );
        assert_eq!(
            rfc3339(UNIX_EPOCH + Duration::from_secs(1_700_000_000)),
            "2023-11-14T22:13:20Z"
        );
        assert_eq!(
            rfc3339(UNIX_EPOCH + Duration::from_secs(4_107_542_399)),
            "2100-02-28T23:59:59Z"
        );
    }

    #[test]
    fn machine_reports_at_least_one_core() {
        let m = machine();
        assert!(m.cores >= 1);
        assert!(!m.os.is_empty());
    }
}
