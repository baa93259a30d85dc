//! Issue #11, points 1–5 for `run` and the foreign `--out`: one writer per results directory
//! (an advisory lock, also for shards, `collect` and `slurm submit`), a `--resume` that checks
//! the experiment and `--retry STATUS`, unique set names, no heuristic twice, the numeric options
//! of `run`, and no results written among someone else's files.

use crate::common;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

use common::bin::{arg, fails, ok, read_runs, run, stderr, tilebench};
use common::fresh_dir;
use tilebench::experiment::lock::{DirLock, LOCK_FILE};
use tilebench::results::{RunStatus, META_FILE, RUNS_FILE};

/// A pair that takes a few seconds: long enough to be caught holding the lock.
const SLOW: &str = "instances/korf100.txt:3-3";

fn run_args<'a>(instances: &'a str, out: &'a Path, extra: &[&'a str]) -> Vec<&'a str> {
    let mut a = vec![
        "run",
        "--instances",
        instances,
        "-H",
        "manhattan",
        "--jobs",
        "1",
        "--no-history",
        "--out",
        arg(out),
    ];
    a.extend_from_slice(extra);
    a
}

fn spawn(args: &[&str]) -> Child {
    tilebench()
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("starts the binary")
}

/// Waits until the lock file of `dir` names its holder.
fn wait_for_holder(dir: &Path) -> String {
    let start = Instant::now();
    loop {
        let text = fs::read_to_string(dir.join(LOCK_FILE)).unwrap_or_default();
        if !text.trim().is_empty() {
            return text;
        }
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "no lock in {dir:?}"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn meta(dir: &Path) -> serde_json::Value {
    common::bin::meta(dir)
}

#[test]
fn a_second_writer_is_refused_at_once_and_the_first_completes() {
    let out = fresh_dir("lock-busy").join("out");
    let mut first = spawn(&run_args(SLOW, &out, &[]));
    let holder = wait_for_holder(&out);
    assert!(holder.contains(&format!("pid {}", first.id())), "{holder}");
    for extra in [
        &[][..],
        &["--overwrite"],
        &["--resume"],
        &["--retry", "error"],
    ] {
        let started = Instant::now();
        let o = run(&run_args(SLOW, &out, extra));
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{extra:?}: {err}");
        assert!(err.contains("is in use by another tilebench"), "{err}");
        assert!(err.contains(&format!("pid {}", first.id())), "{err}");
        assert!(err.contains(arg(&out)), "names the directory: {err}");
        assert!(started.elapsed() < Duration::from_secs(5), "at once");
    }
    assert!(
        first.try_wait().unwrap().is_none(),
        "the first run was still running during the checks (pick a slower pair)"
    );
    let status = first.wait().unwrap();
    assert!(status.success());
    let runs = read_runs(&out);
    assert_eq!(runs.len(), 1);
    assert_eq!(runs[0].status, RunStatus::Solved);
    assert_eq!(meta(&out)["state"], "complete");
    // Released on exit: the lock file is empty and the next writer gets the lock.
    assert_eq!(fs::read_to_string(out.join(LOCK_FILE)).unwrap(), "");
    ok(&run_args(SLOW, &out, &["--resume"]));
}

#[test]
fn a_killed_holder_leaves_a_stale_lock_that_resume_takes_over() {
    let out = fresh_dir("lock-stale").join("out");
    let mut first = spawn(&run_args(SLOW, &out, &[]));
    wait_for_holder(&out);
    first.kill().unwrap(); // SIGKILL: no chance to clean up
    first.wait().unwrap();
    let o = ok(&run_args(SLOW, &out, &["--resume"]));
    let err = stderr(&o);
    assert!(err.contains("is gone; taking it over"), "{err}");
    assert_eq!(read_runs(&out).len(), 1);
    assert_eq!(meta(&out)["state"], "complete");
}

#[test]
fn shards_collect_and_submit_take_the_lock_of_what_they_write() {
    let out = fresh_dir("lock-shards").join("out");
    let shard = run_args("instances/korf100.txt:1-2", &out, &["--shard", "0/2"]);
    ok(&shard);
    // A shard's folder is held by its writer; other shards run at the same time.
    let held = DirLock::acquire(&out.join("shards").join("0")).unwrap();
    let err = fails(&[&shard[..], &["--resume"]].concat());
    assert!(err.contains("is in use by another tilebench"), "{err}");
    assert!(
        err.contains(&format!("pid {}", std::process::id())),
        "{err}"
    );
    ok(&run_args(
        "instances/korf100.txt:1-2",
        &out,
        &["--shard", "1/2"],
    ));
    drop(held);
    // collect and slurm submit write OUT itself.
    let held = DirLock::acquire(&out).unwrap();
    let err = fails(&["collect", arg(&out)]);
    assert!(err.contains("is in use by another tilebench"), "{err}");
    let err = fails(&["slurm", "submit", "--dry-run", "--out", arg(&out)]);
    assert!(err.contains("is in use by another tilebench"), "{err}");
    drop(held);
    ok(&["collect", arg(&out)]);
    assert_eq!(read_runs(&out).len(), 2);
}

/// Copies the first lines of the walk150 set to a file of our own, so it can be edited.
fn own_instances(dir: &Path) -> PathBuf {
    let path = dir.join("w.txt");
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    fs::copy(root.join("instances/walk150-4x4-s42.txt"), &path).unwrap();
    path
}

#[test]
fn resume_refuses_another_experiment_and_retry_reruns_by_status() {
    let dir = fresh_dir("resume-check");
    let file = own_instances(&dir);
    let out = dir.join("out");
    // Instance 3 takes 917687 generated nodes with linear conflict, instance 4 4991619.
    let sel = format!("{}:3-4", arg(&file));
    let lc = |extra: &[&str]| -> Vec<String> {
        let mut a: Vec<String> = [
            "run",
            "--instances",
            &sel,
            "-H",
            "linear-conflict",
            "--jobs",
            "1",
            "--no-history",
            "--out",
            arg(&out),
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        a.extend(extra.iter().map(|s| s.to_string()));
        a
    };
    let call = |a: &[String]| run(&a.iter().map(String::as_str).collect::<Vec<_>>());
    let refused = |a: &[String], says: &[&str]| {
        let o = call(a);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{a:?}: {err}");
        for s in says {
            assert!(err.contains(s), "{a:?}: want {s:?} in {err}");
        }
        // A refused run does not first announce what it would have run.
        assert!(!err.contains("at once on"), "{a:?}: {err}");
    };
    let o = call(&lc(&["--node-limit", "1000000"]));
    assert!(o.status.success(), "{}", stderr(&o));
    let first = read_runs(&out);
    let statuses: Vec<RunStatus> = first.iter().map(|r| r.status).collect();
    assert_eq!(statuses, [RunStatus::Solved, RunStatus::NodeLimit]);
    let before = fs::read(out.join(RUNS_FILE)).unwrap();

    refused(
        &lc(&["--node-limit", "1000000"]),
        &["already holds 2 finished runs", "--resume", "--overwrite"],
    );

    refused(
        &lc(&["--resume", "--node-limit", "2000000"]),
        &[
            "node limit: 1000000 before, 2000000 now",
            "--retry node-limit",
        ],
    );
    refused(
        &lc(&["--resume"]),
        &["node limit: 1000000 before, none now"],
    );
    refused(
        &lc(&["--resume", "--node-limit", "1000000", "--time-limit", "60"]),
        &["time limit: none before, 60 s now"],
    );
    let mut other_h = lc(&["--resume", "--node-limit", "1000000"]);
    other_h[4] = "manhattan".into();
    refused(
        &other_h,
        &["heuristics: linear-conflict before, manhattan now"],
    );
    let mut other_sel = lc(&["--resume", "--node-limit", "1000000"]);
    other_sel[2] = format!("{}:3-5", arg(&file));
    refused(&other_sel, &["instance set w: 2 instances before"]);
    // Instance 4's board replaced by instance 5's, same id: the content hash notices.
    let text = fs::read_to_string(&file).unwrap();
    let line = |id: &str| {
        text.lines()
            .find(|l| l.split('\t').next() == Some(id))
            .unwrap()
            .to_string()
    };
    let (four, five) = (line("4"), line("5"));
    let edited = text.replacen(
        &four,
        &format!("4\t{}", five.split_once('\t').unwrap().1),
        1,
    );
    fs::write(&file, &edited).unwrap();
    refused(
        &lc(&["--resume", "--node-limit", "1000000"]),
        &["instance set w: the boards of", "changed since"],
    );
    fs::write(&file, &text).unwrap();
    // Nothing was written by the refused sessions.
    assert_eq!(fs::read(out.join(RUNS_FILE)).unwrap(), before);

    // The same experiment resumes (nothing to do); node-limit rows count as done.
    let o = call(&lc(&["--resume", "--node-limit", "1000000"]));
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(fs::read(out.join(RUNS_FILE)).unwrap(), before);

    // --retry node-limit with a larger limit: that row runs again, the solved one is kept.
    let o = call(&lc(&["--retry", "node-limit", "--node-limit", "100000000"]));
    assert!(o.status.success(), "{}", stderr(&o));
    let after = read_runs(&out);
    assert_eq!(after.len(), 2);
    assert_eq!(
        after[0], first[0],
        "the solved row is untouched (same seconds)"
    );
    assert_eq!(after[1].status, RunStatus::Solved);
    assert_eq!(after[1].generated, Some(4991619));
    let m = meta(&out);
    let sessions = m["previous_sessions"].as_array().unwrap();
    let node_limits: Vec<&serde_json::Value> = sessions
        .iter()
        .chain([&m])
        .map(|s| &s["experiment"]["node_limit"])
        .collect();
    // The resume with nothing to run added no session: two, the first and the retry.
    assert_eq!(node_limits, [1000000, 100000000]);
    assert_eq!(m["retry"], serde_json::json!(["node-limit"]));
    assert!(m["instance_sets"][0]["content_hash"]
        .as_str()
        .unwrap()
        .starts_with("crc32:"));

    // An error row counts as done on a plain resume, which fails on it (exit 1, the row named:
    // the exit status is the directory's), and runs again with --retry error.
    let runs_path = out.join(RUNS_FILE);
    let t = fs::read_to_string(&runs_path).unwrap();
    fs::write(&runs_path, t.replacen(",solved,", ",error,", 1)).unwrap();
    let o = call(&lc(&["--resume", "--node-limit", "100000000"]));
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("1 PROBLEM:\n  ERROR w #"),
        "{}",
        stderr(&o)
    );
    assert_eq!(read_runs(&out)[0].status, RunStatus::Error);
    let o = call(&lc(&[
        "--resume",
        "--retry",
        "error,wrong-length",
        "--node-limit",
        "100000000",
    ]));
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(read_runs(&out)[0].status, RunStatus::Solved);
    refused(&lc(&["--retry", "sovled"]), &["unknown status 'sovled'"]);
}

#[test]
fn set_names_and_heuristics_are_unique() {
    let dir = fresh_dir("unique");
    for sub in ["a", "b"] {
        fs::create_dir_all(dir.join(sub)).unwrap();
        fs::copy(
            Path::new(env!("CARGO_MANIFEST_DIR")).join("instances/korf100.txt"),
            dir.join(sub).join("set.txt"),
        )
        .unwrap();
    }
    let (a, b) = (dir.join("a/set.txt"), dir.join("b/set.txt"));
    let both = format!("{}:1-1,{}:1-1", arg(&a), arg(&b));
    let out = dir.join("out");
    let err = fails(&run_args(&both, &out, &[]));
    assert!(
        err.contains(arg(&a)) && err.contains(arg(&b)) && err.contains("same name 'set'"),
        "{err}"
    );
    assert!(!out.join(RUNS_FILE).exists());
    let err = fails(&[
        "run",
        "--instances",
        "instances/korf100.txt:1-1",
        "-H",
        "manhattan,linear-conflict,manhattan",
        "--out",
        arg(&out),
    ]);
    assert!(
        err.contains("heuristic 'manhattan' is given twice"),
        "{err}"
    );
    assert!(!out.join(RUNS_FILE).exists());
    let err = fails(&[
        "slurm",
        "submit",
        "--dry-run",
        "--tasks",
        "2",
        "--instances",
        "instances/korf100.txt:1-1",
        "-H",
        "manhattan,manhattan",
        "--out",
        arg(&dir.join("slurm-out")),
    ]);
    assert!(
        err.contains("heuristic 'manhattan' is given twice"),
        "{err}"
    );
}

#[test]
fn run_numeric_options_are_checked_and_jobs_capped() {
    let dir = fresh_dir("run-numbers");
    let out = dir.join("out");
    for (option, value) in [
        ("--time-limit", "1e20"),
        ("--time-limit", "-1"),
        ("--node-limit", "0"),
        ("--jobs", "10000"),
        ("--jobs", "0"),
    ] {
        let given = format!("{option}={value}");
        let o = run(&[
            "run",
            "--instances",
            "instances/korf100.txt:1-1",
            &given,
            "--out",
            arg(&out),
        ]);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{given}: {err}");
        assert!(
            err.contains(option) && err.contains("out of range"),
            "{err}"
        );
    }
    let o = run(&[
        "slurm",
        "submit",
        "--dry-run",
        "--tasks",
        "2",
        "--time-limit",
        "1e20",
        "--out",
        arg(&dir.join("s")),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(!out.exists(), "nothing written");
    ok(&[
        "run",
        "--instances",
        "instances/walk150-4x4-s42.txt:3-3",
        "-H",
        "manhattan,linear-conflict,pdb-663",
        "--jobs",
        "1000",
        "--no-history",
        "--out",
        arg(&out),
    ]);
    let runs = read_runs(&out);
    assert_eq!(runs.len(), 3);
    assert!(runs.iter().all(|r| r.threads == 3), "{runs:?}");
    assert_eq!(meta(&out)["threads"], 3);
}

#[test]
fn a_foreign_out_directory_is_refused_untouched() {
    let dir = fresh_dir("foreign-out");
    fs::write(dir.join("thesis.tex"), "mine").unwrap();
    for extra in [&[][..], &["--overwrite"]] {
        let err = fails(&run_args("instances/korf100.txt:1-1", &dir, extra));
        assert!(
            err.contains("is not a tilebench results directory"),
            "{err}"
        );
    }
    let err = fails(&run_args("instances/korf100.txt:1-1", Path::new("/"), &[]));
    assert!(err.contains("/: the directory is not empty"), "{err}");
    let names: Vec<_> = fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names, ["thesis.tex"]);
    assert_eq!(fs::read_to_string(dir.join("thesis.tex")).unwrap(), "mine");
    assert!(!dir.join(META_FILE).exists());
}
