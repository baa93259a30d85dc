//! Slurm: the sbatch array script of a sharded experiment, its submission, and waiting for it.
//!
//! tilebench schedules nothing itself: each array task `$SLURM_ARRAY_TASK_ID` of the job runs
//! `tilebench run … --shard $SLURM_ARRAY_TASK_ID/N --resume --out DIR` with the same binary
//! (by absolute path), writing into `DIR/shards/$SLURM_ARRAY_TASK_ID/`.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use super::error::ClusterError;
pub use super::error::SlurmError;
use crate::experiment::provenance::now_rfc3339;
use crate::experiment::shard::read_json;
use crate::path_io::At;
use crate::results::io::write_json;
use crate::results::meta::is_plain_word;
pub use crate::results::meta::sh_quote;
use crate::results::ExperimentSpec;

/// The folder of the script, the submissions and the logs.
pub(crate) const SLURM_DIR: &str = "slurm";
pub(crate) const JOB_FILE: &str = "job.sh";
pub(crate) const SUBMISSIONS_FILE: &str = "submissions.json";
pub(crate) const LOGS_DIR: &str = "logs";

/// Refuses a value for the job script that holds a control character (a newline would end an
/// `#SBATCH` line and make the rest a shell command) or is empty. `option` names where the
/// value came from, for the message.
pub fn check_value(option: &str, value: &str) -> Result<(), SlurmError> {
    let bad = |reason: String| SlurmError::BadValue {
        option: option.to_string(),
        value: value.to_string(),
        reason,
    };
    if value.is_empty() {
        return Err(bad("must not be empty".into()));
    }
    if let Some(c) = value.chars().find(|c| c.is_control()) {
        return Err(bad(format!(
            "contains the control character U+{:04X}, which cannot go into a job script",
            c as u32
        )));
    }
    Ok(())
}

/// [`check_value`] for a path, which must also be valid UTF-8 (the script names it exactly).
pub(crate) fn check_path<'a>(option: &str, path: &'a Path) -> Result<&'a str, SlurmError> {
    let text = path.to_str().ok_or_else(|| SlurmError::BadValue {
        option: option.to_string(),
        value: path.display().to_string(),
        reason: "is not valid UTF-8".into(),
    })?;
    check_value(option, text)?;
    Ok(text)
}

impl JobOptions {
    /// Checks every value that goes into an `#SBATCH` line ([`check_value`]); an `--sbatch-arg`
    /// must also be one sbatch option (start with `-`).
    pub(crate) fn validate(&self) -> Result<(), SlurmError> {
        check_value("--job-name", &self.name)?;
        for (option, value) in [
            ("--partition", &self.partition),
            ("--time", &self.time),
            ("--mem", &self.mem),
        ] {
            if let Some(v) = value {
                check_value(option, v)?;
            }
        }
        for extra in &self.extra {
            check_value("--sbatch-arg", extra)?;
            if !extra.starts_with('-') {
                return Err(SlurmError::BadValue {
                    option: "--sbatch-arg".into(),
                    value: extra.clone(),
                    reason: "must be one sbatch option, such as --account=lab".into(),
                });
            }
        }
        Ok(())
    }
}

/// sbatch options of the job.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct JobOptions {
    pub name: String,
    pub partition: Option<String>,
    /// `--time`, in any format sbatch accepts (`MM`, `HH:MM:SS`, `D-HH`, …).
    pub time: Option<String>,
    /// `--mem`, e.g. `4G`.
    pub mem: Option<String>,
    /// `--cpus-per-task`; each task's thread pool is `$SLURM_CPUS_PER_TASK` (1 without it).
    pub cpus_per_task: Option<usize>,
    /// Further sbatch options, one `#SBATCH` line each.
    pub extra: Vec<String>,
}

/// What each task runs, besides the experiment's options.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Task {
    /// The tilebench binary, absolute.
    pub binary: PathBuf,
    /// The pattern-database cache, absolute (tables are built before submission; tasks only load).
    pub pdb_dir: PathBuf,
    /// Threads of each IDA* search (`run --search-threads`); a task runs its CPUs divided by
    /// this many pairs at once.
    pub search_threads: usize,
    /// How often a task saves its searches' progress (`None`: never). A task cut by the
    /// cluster's time limit saves on SIGTERM too, and its resubmission continues from there.
    pub checkpoint_every: Option<Duration>,
}

pub use crate::results::meta::Submission;

/// `DIR/slurm/`.
pub(crate) fn slurm_dir(out: &Path) -> PathBuf {
    out.join(SLURM_DIR)
}

/// The log of array task `task` of job `job`.
pub(crate) fn log_path(out: &Path, job: &str, task: usize) -> PathBuf {
    slurm_dir(out)
        .join(LOGS_DIR)
        .join(format!("{job}_{task}.out"))
}

/// The log of the last submitted task that ran `shard`.
pub(crate) fn last_log(out: &Path, submissions: &[Submission], shard: usize) -> Option<PathBuf> {
    submissions
        .iter()
        .rev()
        .find(|s| s.tasks.contains(&shard))
        .map(|s| log_path(out, &s.job_id, shard))
}

/// Quotes a word for sbatch's own parser of `#SBATCH` lines (which is not a shell: it takes
/// `"…"` and `'…'` as quotes and `\` as an escape everywhere, and `#` outside quotes as the
/// start of a comment). Safe words are left as they are.
pub(crate) fn sbatch_quote(s: &str) -> String {
    if is_plain_word(s) {
        s.to_string()
    } else {
        // Backslashes first, so that the ones escaping quotes are not doubled.
        format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\""))
    }
}

/// `0-3`, `1,3` or `0-2,5`: sbatch's `--array` syntax for these task ids (sorted, distinct).
pub(crate) fn array_spec(tasks: &[usize]) -> String {
    let mut parts = Vec::new();
    let mut i = 0;
    while i < tasks.len() {
        let mut j = i;
        while j + 1 < tasks.len() && tasks[j + 1] == tasks[j] + 1 {
            j += 1;
        }
        parts.push(if j > i {
            format!("{}-{}", tasks[i], tasks[j])
        } else {
            tasks[i].to_string()
        });
        i = j + 1;
    }
    parts.join(",")
}

/// The sbatch array script: one task per shard, each with its own log file, running
/// `tilebench run` on its shard with `--resume` (so a re-run task skips its finished pairs).
/// `out` must be absolute. Every value written is checked ([`check_value`]) and quoted, for
/// sbatch in the `#SBATCH` lines and for bash in the command, so that no value can end a line
/// or run anything.
pub(crate) fn job_script(
    out: &Path,
    spec: &ExperimentSpec,
    job: &JobOptions,
    task: &Task,
) -> Result<String, SlurmError> {
    job.validate()?;
    let out_text = check_path("--out", out)?;
    let binary = check_path("the tilebench binary", &task.binary)?;
    let pdb_dir = check_path("--pdb-dir", &task.pdb_dir)?;
    let options = spec.run_options();
    for pair in options.chunks(2) {
        if let [option, value] = pair {
            check_value(option, value)?;
        }
    }
    let n = spec.shards;
    let mut s = String::from("#!/bin/bash\n");
    s.push_str(
        "# Written by `tilebench slurm submit`; submit again with that command (it re-runs\n",
    );
    s.push_str("# only the shards with missing pairs), or by hand with: sbatch THIS_FILE\n");
    let mut directive = |option: &str, value: &str| {
        s.push_str("#SBATCH ");
        s.push_str(&sbatch_quote(&format!("{option}={value}")));
        s.push('\n');
    };
    directive("--job-name", &job.name);
    directive("--array", &format!("0-{}", n.saturating_sub(1)));
    let log = format!("{out_text}/{SLURM_DIR}/{LOGS_DIR}/%A_%a.out");
    directive("--output", &log);
    directive("--chdir", out_text);
    if let Some(p) = &job.partition {
        directive("--partition", p);
    }
    if let Some(t) = &job.time {
        directive("--time", t);
    }
    if let Some(m) = &job.mem {
        directive("--mem", m);
    }
    if let Some(c) = job.cpus_per_task {
        directive("--cpus-per-task", &c.to_string());
    }
    for extra in &job.extra {
        s.push_str("#SBATCH ");
        s.push_str(&sbatch_quote(extra));
        s.push('\n');
    }
    s.push_str("set -eu\n");
    s.push_str("echo \"tilebench shard $SLURM_ARRAY_TASK_ID/");
    s.push_str(&format!("{n} on $(hostname) at $(date -u +%FT%TZ)\"\n"));
    // One option and its value per line.
    let mut lines = vec![format!("{} run", sh_quote(binary))];
    lines.extend(
        options
            .chunks(2)
            .map(|o| o.iter().map(|w| sh_quote(w)).collect::<Vec<_>>().join(" ")),
    );
    lines.extend([
        format!("--pdb-dir {} --no-build", sh_quote(pdb_dir)),
        format!("--out {}", sh_quote(out_text)),
        format!("--shard \"$SLURM_ARRAY_TASK_ID/{n}\" --resume"),
        match task.checkpoint_every {
            Some(every) => format!("--checkpoint-every {}", every.as_secs_f64()),
            None => "--no-checkpoint".to_string(),
        },
    ]);
    let t = task.search_threads.max(1);
    if t == 1 {
        lines.push("--jobs \"${SLURM_CPUS_PER_TASK:-1}\"".to_string());
    } else {
        // Pairs at once = the task's CPUs / threads per search, at least 1.
        s.push_str(&format!("cpus=${{SLURM_CPUS_PER_TASK:-{t}}}\n"));
        s.push_str(&format!("jobs=$(( cpus / {t} > 0 ? cpus / {t} : 1 ))\n"));
        lines.push(format!("--search-threads {t} --jobs \"$jobs\""));
    }
    s.push_str("exec ");
    s.push_str(&lines.join(" \\\n    "));
    s.push('\n');
    Ok(s)
}

/// Writes `DIR/slurm/job.sh` (executable) and creates the log folder (Slurm does not, and a
/// task whose log cannot be opened fails without a trace).
pub(crate) fn write_job(out: &Path, script: &str) -> Result<PathBuf, ClusterError> {
    let logs = slurm_dir(out).join(LOGS_DIR);
    std::fs::create_dir_all(&logs).at(&logs)?;
    let path = slurm_dir(out).join(JOB_FILE);
    crate::results::atomic::write(&path, script.as_bytes()).at(&path)?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let _ = std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755));
    }
    Ok(path)
}

/// The submissions recorded in `DIR/slurm/submissions.json`, oldest first.
pub fn submissions(out: &Path) -> Result<Vec<Submission>, ClusterError> {
    Ok(read_json(&slurm_dir(out).join(SUBMISSIONS_FILE))?.unwrap_or_default())
}

/// Whether Slurm still lists job `job` (queued, running or completing). A job Slurm no longer
/// knows (`squeue` fails with "Invalid job id") is finished.
pub(crate) fn is_active(job: &str) -> Result<bool, SlurmError> {
    let out = Command::new("squeue")
        .args(["-h", "-o", "%i", "-j", job])
        .output()
        .map_err(|source| SlurmError::Spawn {
            command: "squeue".into(),
            source,
        })?;
    Ok(out.status.success() && !String::from_utf8_lossy(&out.stdout).trim().is_empty())
}

/// Submits the script for `tasks` (overriding its `--array`), records the submission and
/// returns it. Refuses while the previous submission of `out` is still active, since two tasks
/// of one shard must not write the same folder at once.
pub fn submit(out: &Path, script: &Path, tasks: &[usize]) -> Result<Submission, ClusterError> {
    let mut all = submissions(out)?;
    if let Some(last) = all.last() {
        if is_active(&last.job_id).unwrap_or(false) {
            return Err(SlurmError::StillRunning {
                job: last.job_id.clone(),
            }
            .into());
        }
    }
    let sbatch = vec![
        "sbatch".to_string(),
        "--parsable".to_string(),
        format!("--array={}", array_spec(tasks)),
        script.display().to_string(),
    ];
    let output = match Command::new(&sbatch[0]).args(&sbatch[1..]).output() {
        Ok(o) => o,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(SlurmError::SbatchNotFound.into())
        }
        Err(source) => {
            return Err(SlurmError::Spawn {
                command: "sbatch".into(),
                source,
            }
            .into())
        }
    };
    if !output.status.success() {
        return Err(SlurmError::Refused {
            status: output.status.to_string(),
            stderr: String::from_utf8_lossy(&output.stderr).trim().to_string(),
        }
        .into());
    }
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    // --parsable prints "JOBID" or "JOBID;CLUSTER".
    let job_id = stdout
        .lines()
        .map(str::trim)
        .rfind(|l| !l.is_empty())
        .and_then(|l| l.split(';').next())
        .filter(|id| !id.is_empty() && id.bytes().all(|b| b.is_ascii_digit()))
        .ok_or_else(|| SlurmError::NoJobId(stdout.clone()))?
        .to_string();
    let submission = Submission {
        job_id,
        tasks: tasks.to_vec(),
        submitted: now_rfc3339(),
        sbatch,
    };
    all.push(submission.clone());
    write_json(&slurm_dir(out).join(SUBMISSIONS_FILE), &all)?;
    Ok(submission)
}

/// Polls `squeue` every `poll` until job `job` is gone, or `timeout` passes.
pub fn wait(job: &str, timeout: Option<Duration>, poll: Duration) -> Result<(), SlurmError> {
    let started = Instant::now();
    while is_active(job)? {
        if timeout.is_some_and(|t| started.elapsed() >= t) {
            return Err(SlurmError::WaitTimeout {
                job: job.to_string(),
                seconds: started.elapsed().as_secs(),
            });
        }
        std::thread::sleep(poll);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec() -> ExperimentSpec {
        ExperimentSpec {
            instances: vec!["/data/korf100.txt:1-10".into(), "/data/my set.txt".into()],
            heuristics: vec!["manhattan".into(), "pdb:1.2.3/4.5.6.7.8".into()],
            algorithms: vec!["ida".into()],
            node_limit: Some(1_000_000),
            time_limit_seconds: Some(2.5),
            memory_limit: None,
            shards: 4,
            ..ExperimentSpec::default()
        }
    }

    fn task() -> Task {
        Task {
            binary: "/opt/tilebench/bin/tilebench".into(),
            pdb_dir: "/cache/pdb".into(),
            search_threads: 1,
            checkpoint_every: Some(Duration::from_secs(300)),
        }
    }

    #[test]
    fn script_has_the_array_logs_options_and_shard_arguments() {
        let job = JobOptions {
            name: "tilebench-korf".into(),
            partition: Some("short".into()),
            time: Some("01:00:00".into()),
            mem: Some("4G".into()),
            cpus_per_task: Some(2),
            extra: vec!["--account=lab".into()],
        };
        let s = job_script(Path::new("/scratch/exp"), &spec(), &job, &task()).unwrap();
        let lines: Vec<&str> = s.lines().collect();
        assert_eq!(lines[0], "#!/bin/bash");
        for want in [
            "#SBATCH --job-name=tilebench-korf",
            "#SBATCH --array=0-3",
            "#SBATCH --output=/scratch/exp/slurm/logs/%A_%a.out",
            "#SBATCH --chdir=/scratch/exp",
            "#SBATCH --partition=short",
            "#SBATCH --time=01:00:00",
            "#SBATCH --mem=4G",
            "#SBATCH --cpus-per-task=2",
            "#SBATCH --account=lab",
        ] {
            assert!(lines.contains(&want), "missing {want:?} in\n{s}");
        }
        // Directives must precede the first command, or sbatch ignores them.
        let last_directive = lines
            .iter()
            .rposition(|l| l.starts_with("#SBATCH"))
            .unwrap();
        let first_command = lines.iter().position(|l| !l.starts_with('#')).unwrap();
        assert!(last_directive < first_command);
        let command = s.split("exec ").nth(1).unwrap().replace(" \\\n    ", " ");
        assert_eq!(
            command.trim_end(),
            "/opt/tilebench/bin/tilebench run --instances /data/korf100.txt:1-10 \
             --instances '/data/my set.txt' --heuristics manhattan --heuristics \
             pdb:1.2.3/4.5.6.7.8 --node-limit 1000000 --time-limit 2.5 --pdb-dir /cache/pdb \
             --no-build --out /scratch/exp --shard \"$SLURM_ARRAY_TASK_ID/4\" --resume \
             --checkpoint-every 300 --jobs \"${SLURM_CPUS_PER_TASK:-1}\""
        );
    }

    /// Parallel searches: pairs at once = CPUs / search threads, computed by the task; checkpoints
    /// as asked.
    #[test]
    fn search_threads_and_checkpoints_reach_the_task() {
        let job = JobOptions {
            name: "t".into(),
            ..JobOptions::default()
        };
        let parallel = Task {
            search_threads: 4,
            checkpoint_every: Some(Duration::from_secs_f64(90.5)),
            ..task()
        };
        let s = job_script(Path::new("/o"), &spec(), &job, &parallel).unwrap();
        let command = s.split("exec ").nth(1).unwrap().replace(" \\\n    ", " ");
        assert!(
            command.ends_with(
                "--resume --checkpoint-every 90.5 --search-threads 4 --jobs \"$jobs\"\n"
            ),
            "{command}"
        );
        // What bash makes of the two lines, for 8, 2 and unset CPUs.
        let lines: Vec<&str> = s
            .lines()
            .filter(|l| l.starts_with("cpus=") || l.starts_with("jobs="))
            .collect();
        assert_eq!(lines.len(), 2, "{s}");
        let script = format!("{}; {}; echo $jobs", lines[0], lines[1]);
        for (cpus, want) in [(Some("8"), "2"), (Some("2"), "1"), (None, "1")] {
            let mut bash = Command::new("bash");
            bash.args(["-c", &script]).env_remove("SLURM_CPUS_PER_TASK");
            if let Some(c) = cpus {
                bash.env("SLURM_CPUS_PER_TASK", c);
            }
            let Ok(out) = bash.output() else {
                return; // no bash here
            };
            assert_eq!(
                String::from_utf8_lossy(&out.stdout).trim(),
                want,
                "{cpus:?}"
            );
        }
        let none = Task {
            checkpoint_every: None,
            ..task()
        };
        let s = job_script(Path::new("/o"), &spec(), &job, &none).unwrap();
        assert!(s.contains("--no-checkpoint"), "{s}");
    }

    #[test]
    fn minimal_script_has_no_optional_directives() {
        let job = JobOptions {
            name: "t".into(),
            ..JobOptions::default()
        };
        let s = job_script(Path::new("/o"), &spec(), &job, &task()).unwrap();
        for absent in ["--partition", "--time=", "--mem", "--cpus-per-task"] {
            assert!(!s.contains(absent), "{absent} in\n{s}");
        }
    }

    /// The script is valid shell: bash parses it (skipped where bash is missing).
    #[test]
    fn script_parses_as_bash() {
        let s = job_script(
            Path::new("/o"),
            &spec(),
            &JobOptions {
                name: "t".into(),
                ..JobOptions::default()
            },
            &Task {
                binary: "/it's/tilebench".into(),
                pdb_dir: "/p".into(),
                search_threads: 3,
                checkpoint_every: None,
            },
        )
        .unwrap();
        let Ok(out) = Command::new("bash").args(["-n", "-c", &s]).output() else {
            return;
        };
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }

    #[test]
    fn array_specs_and_quoting() {
        assert_eq!(array_spec(&[0, 1, 2, 3]), "0-3");
        assert_eq!(array_spec(&[1, 3]), "1,3");
        assert_eq!(array_spec(&[0, 1, 2, 5, 7, 8]), "0-2,5,7-8");
        assert_eq!(array_spec(&[4]), "4");
        assert_eq!(sh_quote("a/b-c.txt:1-10"), "a/b-c.txt:1-10");
        assert_eq!(sh_quote("it's"), r"'it'\''s'");
        assert_eq!(sh_quote(""), "''");
    }

    #[test]
    fn logs_follow_the_output_pattern() {
        let subs = vec![
            Submission {
                job_id: "10".into(),
                tasks: vec![0, 1, 2],
                submitted: String::new(),
                sbatch: vec![],
            },
            Submission {
                job_id: "12".into(),
                tasks: vec![1],
                submitted: String::new(),
                sbatch: vec![],
            },
        ];
        let out = Path::new("/o");
        assert_eq!(
            last_log(out, &subs, 1),
            Some(PathBuf::from("/o/slurm/logs/12_1.out"))
        );
        assert_eq!(
            last_log(out, &subs, 2),
            Some(PathBuf::from("/o/slurm/logs/10_2.out"))
        );
        assert_eq!(last_log(out, &subs, 3), None);
    }
}
