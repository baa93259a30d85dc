//! The real thing: an experiment submitted to a Slurm cluster as a 4-task array job, waited
//! for, collected, and compared with a local run; and a 24-puzzle search cut by the cluster
//! (cancelled the way a time limit ends a job), submitted again, and finished from its
//! checkpoint with the published node count. Needs a cluster (`scripts/slurm-local.sh
//! start` makes one on localhost), so it is ignored by a plain `cargo test` (listed as
//! ignored, never as passed) and run by CI with `--include-ignored`, where a missing cluster
//! is a failure:
//!
//! ```sh
//! cargo test --release --test it -- --include-ignored slurm::
//! ```
//!
//! Cost: about 15 s for the first (two submissions; Slurm takes a few seconds to start a job),
//! under a minute for the second (a search of about 35 s on 2 threads, cut once).

use crate::common;

use std::process::Command;

use common::bin::{arg as s, counts, gen, meta, ok, read_json, tilebench};

/// Why there is no usable cluster, if there is none.
fn no_cluster() -> Option<String> {
    match Command::new("sbatch").arg("--version").output() {
        Err(e) => return Some(format!("sbatch: {e}")),
        Ok(o) if !o.status.success() => return Some("sbatch --version failed".into()),
        Ok(_) => {}
    }
    match Command::new("sinfo").arg("-h").output() {
        Err(e) => Some(format!("sinfo: {e}")),
        Ok(o) if !o.status.success() => Some(format!(
            "sinfo failed: {}",
            String::from_utf8_lossy(&o.stderr).trim()
        )),
        Ok(_) => None,
    }
}

fn submissions(out: &std::path::Path) -> serde_json::Value {
    read_json(&out.join("slurm/submissions.json"))
}

#[test]
#[ignore = "needs a Slurm cluster"]
fn a_four_task_array_job_equals_a_local_run() {
    if let Some(why) = no_cluster() {
        panic!("no usable Slurm cluster (scripts/slurm-local.sh start makes one): {why}");
    }
    // Slurm's daemons (root on the local cluster) read and write here: same machine.
    let dir = common::fresh_dir("slurm-e2e");
    let a = gen(
        &dir,
        "r3.txt",
        &["--size", "3x3", "--count", "6", "--seed", "11"],
    );
    let b = gen(
        &dir,
        "w4.txt",
        &[
            "--size", "4x4", "--count", "4", "--seed", "12", "--walk", "40",
        ],
    );
    let sets = format!("{a},{b}");
    let (local, cluster) = (dir.join("local"), dir.join("cluster"));
    let experiment = ["--instances", &sets, "-H", "manhattan,linear-conflict"];
    ok(&[&["run"][..], &experiment, &["-j", "1", "--out", s(&local)]].concat());

    let pdb = dir.join("pdb");
    let submit = [
        &["slurm", "submit"][..],
        &experiment,
        &[
            "--out",
            s(&cluster),
            "--tasks",
            "4",
            "--pdb-dir",
            s(&pdb),
            "--wait",
            "--wait-timeout",
            "300",
        ],
    ]
    .concat();
    ok(&submit);
    let job = submissions(&cluster)[0]["job_id"]
        .as_str()
        .unwrap()
        .to_string();
    for task in 0..4 {
        let log = cluster.join(format!("slurm/logs/{job}_{task}.out"));
        let text =
            std::fs::read_to_string(&log).unwrap_or_else(|e| panic!("{}: {e}", log.display()));
        assert!(text.contains(&format!("shard {task}/4")), "{text}");
    }
    ok(&["collect", s(&cluster)]);
    let want = counts(&local);
    assert_eq!(want.0.len(), 20);
    assert_eq!(counts(&cluster), want);

    // Lose a shard; submitting again runs only that one, and the result is whole again.
    std::fs::remove_dir_all(cluster.join("shards/2")).unwrap();
    let o = tilebench().args(["collect", s(&cluster)]).output().unwrap();
    assert_eq!(o.status.code(), Some(1));
    ok(&submit);
    let subs = submissions(&cluster);
    assert_eq!(subs.as_array().unwrap().len(), 2);
    assert_eq!(subs[1]["tasks"], serde_json::json!([2]));
    ok(&["collect", s(&cluster)]);
    assert_eq!(counts(&cluster), want);
    let meta = meta(&cluster);
    assert_eq!(meta["state"], "complete");
    assert_eq!(meta["slurm_submissions"].as_array().unwrap().len(), 2);
}

/// Korf & Felner's 24-puzzle #44 under pdb-6666r: 867,106,238 nodes, about 35 s on 2 search
/// threads here. The test cancels the task once it has saved its progress: `scancel` ends a job
/// the way a time limit does (SIGTERM, then SIGKILL after the cluster's KillWait), but at a
/// moment the test chooses, where a 1-minute `--time` would cut 60 to 90 s after the start
/// (Slurm checks time limits every 30 s) and need a search of minutes to be sure of a cut.
const CUT_INSTANCES: &str = "instances/korf50-24.txt:44-44";

#[test]
#[ignore = "needs a Slurm cluster"]
fn a_task_cut_by_the_cluster_is_resubmitted_and_ends_with_the_published_count() {
    if let Some(why) = no_cluster() {
        panic!("no usable Slurm cluster (scripts/slurm-local.sh start makes one): {why}");
    }
    let set = tilebench::instances::InstanceSet::read_selection(CUT_INSTANCES).unwrap();
    let column = set
        .extra_columns
        .iter()
        .position(|c| c == "korf_felner2002_nodes")
        .unwrap();
    let instance = &set.instances[0];
    let published: u64 = instance.extra[column].parse().unwrap();

    let dir = common::fresh_dir("slurm-cut");
    let out = dir.join("k24");
    let pdb = common::test_pdb_dir();
    let submit = [
        "slurm",
        "submit",
        "--instances",
        CUT_INSTANCES,
        "-H",
        "pdb-6666r",
        "--tasks",
        "1",
        "--search-threads",
        "2",
        "--time",
        "10",
        "--checkpoint-every",
        "1",
        "--pdb-dir",
        s(&pdb),
        "--out",
        s(&out),
    ];
    ok(&submit);
    let job = submissions(&out)[0]["job_id"].as_str().unwrap().to_string();
    // Cut once the task has saved its progress (the search is far from done by then).
    let saved = out.join("shards/0/checkpoints");
    wait_for(&format!("a checkpoint in {}", saved.display()), || {
        files_in(&saved) > 0
    });
    let cancel = Command::new("scancel").arg(&job).output().unwrap();
    assert!(cancel.status.success(), "scancel {job}: {cancel:?}");
    wait_for(&format!("job {job} to leave the queue"), || {
        let q = Command::new("squeue")
            .args(["-h", "-j", &job])
            .output()
            .unwrap();
        q.stdout.iter().all(u8::is_ascii_whitespace)
    });
    let first = std::fs::read_to_string(out.join(format!("slurm/logs/{job}_0.out"))).unwrap();
    assert!(first.contains("interrupted"), "{first}");
    // The pair is missing, its progress is saved.
    let collect = tilebench().args(["collect", s(&out)]).output().unwrap();
    assert_eq!(collect.status.code(), Some(1), "{collect:?}");
    assert!(files_in(&saved) > 0, "the cut task left no checkpoint");

    // Submitting again runs the missing pair from its checkpoint.
    ok(&[&submit[..], &["--wait", "--wait-timeout", "600"]].concat());
    assert_eq!(submissions(&out).as_array().unwrap().len(), 2);
    ok(&["collect", s(&out)]);
    let runs = common::bin::read_runs(&out);
    assert_eq!(runs.len(), 1);
    let row = &runs[0];
    assert_eq!(row.status, tilebench::results::RunStatus::Solved, "{row:?}");
    assert_eq!(row.length, instance.optimal, "{row:?}");
    assert_eq!(row.generated, Some(published), "{row:?}");
    assert_eq!(row.search_threads, 2);
    assert!(row.resumes >= 1, "{row:?}");
    // A finished pair's checkpoint is removed.
    assert_eq!(files_in(&saved), 0);
}

/// Polls `done` every half second, failing after 5 minutes.
fn wait_for(what: &str, mut done: impl FnMut() -> bool) {
    let start = std::time::Instant::now();
    while !done() {
        assert!(
            start.elapsed() < std::time::Duration::from_secs(300),
            "waited 5 minutes for {what}"
        );
        std::thread::sleep(std::time::Duration::from_millis(500));
    }
}

/// Entries in `dir`, 0 when it does not exist.
fn files_in(dir: &std::path::Path) -> usize {
    std::fs::read_dir(dir).map_or(0, |d| d.count())
}
