//! The real thing: an experiment submitted to a Slurm cluster as a 4-task array job, waited
//! for, collected, and compared with a local run. Needs a cluster (`scripts/slurm-local.sh
//! start` makes one on localhost), so it is ignored by a plain `cargo test` (listed as
//! ignored, never as passed) and run by CI with `--include-ignored`, where a missing cluster
//! is a failure:
//!
//! ```sh
//! cargo test --release --test slurm -- --include-ignored
//! ```
//!
//! Cost: about 15 s (two submissions; Slurm takes a few seconds to start a job).

mod common;

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
