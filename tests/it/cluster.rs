//! End-to-end tests of sharded runs and `collect`, and of `slurm submit` against fake `sbatch`
//! programs (the real cluster is tested in tests/slurm.rs).
//! Cost: about 3 s in release mode on a 2-core machine.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Output;

use common::bin::{arg as s, counts, gen, meta, ok, read_json, read_runs, run, stderr, tilebench};

fn scratch(name: &str) -> PathBuf {
    common::fresh_dir(&format!("cluster-{name}"))
}

/// Two small instance sets (3×3 uniform, 4×4 short walks), comma-joined for --instances.
fn instances(dir: &Path) -> String {
    let a = gen(
        dir,
        "r3.txt",
        &["--size", "3x3", "--count", "12", "--seed", "5"],
    );
    let b = gen(
        dir,
        "w4.txt",
        &[
            "--size", "4x4", "--count", "6", "--seed", "7", "--walk", "40",
        ],
    );
    format!("{a},{b}")
}

#[test]
fn three_shards_collect_to_the_unsharded_run_and_report() {
    let dir = scratch("union");
    let sets = instances(&dir);
    let (full, sharded) = (dir.join("full"), dir.join("sharded"));
    let common = [
        "run",
        "--instances",
        &sets,
        "-H",
        "manhattan,linear-conflict",
    ];
    ok(&[&common[..], &["-j", "2", "--out", s(&full)]].concat());
    let mut sizes = Vec::new();
    for i in 0..3 {
        let shard = format!("{i}/3");
        ok(&[
            &common[..],
            &["-j", "1", "--out", s(&sharded), "--shard", &shard],
        ]
        .concat());
        let shard_dir = sharded.join("shards").join(i.to_string());
        sizes.push(read_runs(&shard_dir).len());
        assert_eq!(meta(&shard_dir)["shard"]["index"], i);
        assert_eq!(meta(&shard_dir)["shard"]["count"], 3);
    }
    assert_eq!(sizes, vec![12, 12, 12], "36 pairs dealt evenly");
    let o = ok(&["collect", s(&sharded)]);
    assert!(
        stderr(&o).contains("collected 36 of 36 pairs"),
        "{}",
        stderr(&o)
    );

    let (runs, its) = counts(&sharded);
    let (want_runs, want_its) = counts(&full);
    assert_eq!(runs.len(), 36);
    assert_eq!(runs, want_runs, "same rows, same order, same node counts");
    assert_eq!(its, want_its);

    let m = meta(&sharded);
    assert_eq!(m["state"], "complete");
    assert_eq!(m["pairs"], 36);
    assert_eq!(m["shards"].as_array().unwrap().len(), 3);
    assert_eq!(m["experiment"]["shards"], 3);
    assert_eq!(
        m["experiment"]["heuristics"],
        meta(&full)["experiment"]["heuristics"]
    );
    assert!(m.get("shard").is_none());

    // Reports and plots read a collected directory like a local one.
    let report = dir.join("report");
    ok(&["report", s(&sharded), "--out", s(&report)]);
    let md = std::fs::read_to_string(report.join("report.md")).unwrap();
    assert!(md.contains("linear-conflict"), "{md}");
}

#[test]
fn collect_lists_missing_pairs_and_rejects_duplicates() {
    let dir = scratch("missing");
    let set = gen(
        &dir,
        "r3.txt",
        &["--size", "3x3", "--count", "6", "--seed", "8"],
    );
    let out = dir.join("out");
    let shard = |i: &str| -> Output {
        run(&[
            "run",
            "--instances",
            &set,
            "-H",
            "manhattan,linear-conflict",
            "-j",
            "1",
            "--out",
            s(&out),
            "--shard",
            i,
        ])
    };
    assert!(shard("0/2").status.success());
    let o = run(&["collect", s(&out)]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(err.contains("collected 6 of 12 pairs"), "{err}");
    assert!(err.contains("6 missing and 0 failed"), "{err}");
    assert!(err.contains("shard 1 (never submitted"), "{err}");
    assert_eq!(err.matches("MISSING r3 #").count(), 6, "{err}");
    assert_eq!(read_runs(&out).len(), 6);
    assert_eq!(meta(&out)["state"], "incomplete");

    // A different experiment in the same directory is refused.
    let o = run(&[
        "run",
        "--instances",
        &set,
        "-H",
        "manhattan,linear-conflict",
        "--out",
        s(&out),
        "--shard",
        "0/3",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("shards: 2 before, 3 now"),
        "{}",
        stderr(&o)
    );

    assert!(shard("1/2").status.success());
    ok(&["collect", s(&out)]);
    assert_eq!(read_runs(&out).len(), 12);

    // A pair twice is an error, and so is a pair in the wrong shard.
    let runs0 = out.join("shards/0/runs.csv");
    let text = std::fs::read_to_string(&runs0).unwrap();
    let row = text.lines().nth(1).unwrap().to_string();
    std::fs::write(&runs0, format!("{text}{row}\n")).unwrap();
    let o = run(&["collect", s(&out)]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("shards/0/runs.csv, line 8: run r3 #1 manhattan appears twice"),
        "{}",
        stderr(&o)
    );
    std::fs::write(&runs0, &text).unwrap();
    let runs1 = out.join("shards/1/runs.csv");
    let text1 = std::fs::read_to_string(&runs1).unwrap();
    std::fs::write(&runs1, format!("{text1}{row}\n")).unwrap();
    let o = run(&["collect", s(&out)]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("is not part of shard 1"),
        "{}",
        stderr(&o)
    );

    // Not a sharded directory.
    let o = run(&["collect", s(&dir)]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("not a sharded results directory"));
}

/// A directory holding fake `sbatch` and `squeue` programs.
fn fake_slurm(dir: &Path, sbatch: &str) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let bin = dir.join("fakebin");
    std::fs::create_dir_all(&bin).unwrap();
    for (name, body) in [("sbatch", sbatch), ("squeue", "exit 0")] {
        let path = bin.join(name);
        std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    bin
}

#[test]
fn submit_with_missing_refusing_and_accepting_sbatch() {
    let dir = scratch("fake");
    let set = gen(
        &dir,
        "r3.txt",
        &["--size", "3x3", "--count", "4", "--seed", "9"],
    );
    let pdb = dir.join("pdb");
    let submit = |out: &Path, path: &Path, extra: &[&str]| -> Output {
        tilebench()
            .env("PATH", path)
            .args([
                "slurm",
                "submit",
                "--instances",
                &set,
                "-H",
                "manhattan",
                "--out",
                s(out),
                "--tasks",
                "2",
                "--pdb-dir",
                s(&pdb),
            ])
            .args(extra)
            .output()
            .unwrap()
    };

    let empty = dir.join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    let o = submit(&dir.join("a"), &empty, &[]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("sbatch not found on PATH: is Slurm installed? use --dry-run"),
        "{}",
        stderr(&o)
    );

    // --dry-run writes the script only.
    let o = submit(&dir.join("a"), &empty, &["--dry-run"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(dir.join("a/slurm/job.sh").exists());
    assert!(dir.join("a/slurm/logs").is_dir());
    assert!(!dir.join("a/slurm/submissions.json").exists());
    assert!(stderr(&o).contains("sbatch --array=0-1"), "{}", stderr(&o));

    let refuse = fake_slurm(
        &dir.join("refuse"),
        "echo 'sbatch: error: invalid partition specified: nope' >&2; exit 1",
    );
    let o = submit(&dir.join("b"), &refuse, &["-p", "nope"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("sbatch refused the job")
            && stderr(&o).contains("invalid partition specified: nope"),
        "{}",
        stderr(&o)
    );

    let args_file = dir.join("sbatch-args.txt");
    let accept = fake_slurm(
        &dir.join("accept"),
        &format!("echo \"$@\" >> {}; echo '4242;tilebench'", s(&args_file)),
    );
    let out = dir.join("c");
    let o = submit(&out, &accept, &[]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("submitted job 4242"), "{}", stderr(&o));
    let subs = read_json(&out.join("slurm/submissions.json"));
    assert_eq!(subs[0]["job_id"], "4242");
    assert_eq!(subs[0]["tasks"], serde_json::json!([0, 1]));

    // Shard 0 done (as the job would); submitting again sends only shard 1, and collect names
    // its log.
    ok(&[
        "run",
        "--instances",
        &set,
        "-H",
        "manhattan",
        "--out",
        s(&out),
        "--shard",
        "0/2",
    ]);
    let o = tilebench()
        .env("PATH", &accept)
        .args(["slurm", "submit", "--out", s(&out)])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let calls = std::fs::read_to_string(&args_file).unwrap();
    let calls: Vec<&str> = calls.lines().collect();
    assert_eq!(calls.len(), 2);
    let job = out.join("slurm/job.sh");
    assert_eq!(calls[0], format!("--parsable --array=0-1 {}", s(&job)));
    assert_eq!(calls[1], format!("--parsable --array=1 {}", s(&job)));
    let o = run(&["collect", s(&out)]);
    assert_eq!(o.status.code(), Some(1));
    let log = out.join("slurm/logs/4242_1.out");
    assert!(stderr(&o).contains(s(&log)), "{}", stderr(&o));
}
