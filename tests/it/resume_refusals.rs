//! `run --resume` refuses to add rows to a results directory whose `meta.json` describes another
//! experiment: one test per setting that used to pass unchecked or untested (the algorithm, the
//! memory limit, `--check-optimal`, `--fixed-bound`), each on two 3×3 boards (milliseconds),
//! each checking that the refused session wrote nothing.

use std::fs;
use std::path::{Path, PathBuf};

use crate::common::bin::{arg, fails, gen, meta, ok};
use crate::common::fresh_dir;

/// A results directory made by `run ARGS` on two 3×3 boards; returns it and the runs.csv text.
fn first_run(dir: &Path, args: &[&str]) -> (PathBuf, String) {
    let set = gen(
        dir,
        "tiny.txt",
        &["--size", "3x3", "--count", "2", "--seed", "4"],
    );
    let out = dir.join("out");
    let mut a = vec![
        "run",
        "--instances",
        &set,
        "--jobs",
        "1",
        "--no-history",
        "--out",
        arg(&out),
    ];
    a.extend_from_slice(args);
    ok(&a);
    let runs = fs::read_to_string(out.join("runs.csv")).unwrap();
    (out, runs)
}

/// `run --resume ARGS` into `out` must fail saying `says`, leaving runs.csv as it was.
fn refused(dir: &Path, out: &Path, runs_before: &str, args: &[&str], says: &str) {
    let set = dir.join("tiny.txt");
    let mut a = vec![
        "run",
        "--instances",
        arg(&set),
        "--jobs",
        "1",
        "--no-history",
        "--out",
        arg(out),
        "--resume",
    ];
    a.extend_from_slice(args);
    let err = fails(&a);
    assert!(err.contains(says), "{args:?}: want {says:?} in {err}");
    assert_eq!(
        fs::read_to_string(out.join("runs.csv")).unwrap(),
        runs_before,
        "{args:?} wrote rows"
    );
}

/// Resumes `out` with `args`, which must be accepted (nothing left to run).
fn accepted(dir: &Path, out: &Path, args: &[&str]) {
    let set = dir.join("tiny.txt");
    let mut a = vec![
        "run",
        "--instances",
        arg(&set),
        "--jobs",
        "1",
        "--no-history",
        "--out",
        arg(out),
        "--resume",
    ];
    a.extend_from_slice(args);
    ok(&a);
}

#[test]
fn resume_refuses_a_changed_algorithm() {
    let dir = fresh_dir("resume-algorithm");
    let (out, runs) = first_run(&dir, &["-H", "manhattan", "--algorithm", "ida"]);
    refused(
        &dir,
        &out,
        &runs,
        &["-H", "manhattan", "--algorithm", "astar"],
        "algorithms: ida before, astar now",
    );
    accepted(&dir, &out, &["-H", "manhattan", "--algorithm", "ida"]);
}

#[test]
fn resume_refuses_a_changed_memory_limit() {
    let dir = fresh_dir("resume-memory");
    let base = ["-H", "manhattan", "--algorithm", "astar"];
    let (out, runs) = first_run(&dir, &[&base[..], &["--memory-limit", "64M"]].concat());
    refused(
        &dir,
        &out,
        &runs,
        &[&base[..], &["--memory-limit", "128M"]].concat(),
        "memory limit: 67108864 bytes before, 134217728 bytes now",
    );
    refused(
        &dir,
        &out,
        &runs,
        &[&base[..], &["--memory-limit", "none"]].concat(),
        "memory limit: 67108864 bytes before, none now",
    );
    // Without the flag, a resume keeps the stored limit rather than the machine's default.
    accepted(&dir, &out, &base);
    accepted(
        &dir,
        &out,
        &[&base[..], &["--memory-limit", "64M"]].concat(),
    );
}

#[test]
fn resume_refuses_a_changed_check_optimal() {
    let dir = fresh_dir("resume-check-optimal");
    let solver = format!(
        "ok:manhattan=python3 -B '{}'",
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("examples/solvers/ida_manhattan.py")
            .display()
    );
    let (out, runs) = first_run(&dir, &["--solver", &solver, "--check-optimal"]);
    refused(
        &dir,
        &out,
        &runs,
        &["--solver", &solver],
        "--check-optimal: on before, off now",
    );
    accepted(&dir, &out, &["--solver", &solver, "--check-optimal"]);
}

/// A fixed-bound run is stored as such in meta.json (a full run has no `fixed_bound`), and a
/// resume with another threshold or none, or a fixed-bound resume of a full run, is refused.
#[test]
fn resume_refuses_a_changed_fixed_bound() {
    let dir = fresh_dir("resume-fixed-bound");
    let (out, runs) = first_run(&dir, &["-H", "manhattan", "--fixed-bound", "12"]);
    assert_eq!(meta(&out)["experiment"]["fixed_bound"], 12);
    refused(
        &dir,
        &out,
        &runs,
        &["-H", "manhattan"],
        "--fixed-bound: 12 before, none now",
    );
    refused(
        &dir,
        &out,
        &runs,
        &["-H", "manhattan", "--fixed-bound", "14"],
        "--fixed-bound: 12 before, 14 now",
    );
    accepted(&dir, &out, &["-H", "manhattan", "--fixed-bound", "12"]);

    let full = fresh_dir("resume-fixed-bound-full");
    let (out, runs) = first_run(&full, &["-H", "manhattan"]);
    assert!(meta(&out)["experiment"].get("fixed_bound").is_none());
    refused(
        &full,
        &out,
        &runs,
        &["-H", "manhattan", "--fixed-bound", "12"],
        "--fixed-bound: none before, 12 now",
    );
}

/// A heuristic that gives another h0 on a board an earlier row of the experiment recorded (a
/// registered heuristic edited between sessions, simulated here by editing the recorded h0) is
/// refused before the resumed session writes anything: one column would hold two heuristics.
#[test]
fn resume_refuses_a_heuristic_that_changed() {
    let dir = fresh_dir("resume-heuristic-changed");
    let (out, _) = first_run(&dir, &["-H", "manhattan", "--only-ids", "1"]);
    let path = out.join("runs.csv");
    let mut reader = csv::Reader::from_path(&path).unwrap();
    let header = reader.headers().unwrap().clone();
    let at = header.iter().position(|c| c == "h0").unwrap();
    let mut rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    assert_eq!(rows.len(), 1);
    let h0: u32 = rows[0][at].parse().unwrap();
    let edited: Vec<String> = (rows[0].iter().enumerate())
        .map(|(i, v)| {
            if i == at {
                (h0 - 1).to_string()
            } else {
                v.to_string()
            }
        })
        .collect();
    rows[0] = csv::StringRecord::from(edited);
    let mut writer = csv::Writer::from_path(&path).unwrap();
    writer.write_record(&header).unwrap();
    writer.write_record(&rows[0]).unwrap();
    writer.flush().unwrap();
    drop(writer);
    let runs = fs::read_to_string(&path).unwrap();
    let says = format!(
        "heuristic manhattan is not the one the earlier rows were made with: run tiny #1 \
         manhattan recorded h0 {}, and it gives {h0} now",
        h0 - 1
    );
    refused(&dir, &out, &runs, &["-H", "manhattan"], &says);
}
