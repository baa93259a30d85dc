//! Running the tilebench binary from end-to-end tests, and reading back what it wrote.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use tilebench::results::io::{read_rows as read_csv, Row};
use tilebench::results::{
    IterationRecord, Meta, ReadMode, RunRecord, ITERATIONS_FILE, META_FILE, RUNS_FILE,
};

/// The binary, run in this test process's scratch directory (so that default outputs such as
/// `reports/<name>` or `./pdb-cache` land there, never in the checkout), where `instances` links
/// to the crate's instance files so that relative paths (`instances/…`) resolve. Pattern
/// databases come from the tests' cache ([`super::test_pdb_dir`]).
pub fn tilebench() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_tilebench"));
    c.current_dir(work_dir());
    c.env("TILEBENCH_PDB_DIR", super::test_pdb_dir());
    c
}

/// The working directory of the binary in tests: `<process dir>/work`, made once per process.
pub fn work_dir() -> PathBuf {
    static DIR: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    DIR.get_or_init(|| {
        let dir = super::process_dir().join("work");
        std::fs::create_dir_all(&dir).unwrap();
        let link = dir.join("instances");
        if !link.exists() {
            let target = Path::new(env!("CARGO_MANIFEST_DIR")).join("instances");
            std::os::unix::fs::symlink(target, &link).unwrap();
        }
        dir
    })
    .clone()
}

/// Runs `tilebench <args>` to the end.
pub fn run(args: &[&str]) -> Output {
    tilebench().args(args).output().expect("runs the binary")
}

/// Runs `tilebench <args>` and asserts that it succeeded.
pub fn ok(args: &[&str]) -> Output {
    let o = run(args);
    assert!(o.status.success(), "{args:?}: {}", stderr(&o));
    o
}

/// Runs `tilebench <args>`, expects the usage/input-error exit code 2 and returns stderr.
pub fn fails(args: &[&str]) -> String {
    let o = run(args);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    err
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A path as a command-line argument.
pub fn arg(p: &Path) -> &str {
    p.to_str().expect("a UTF-8 path")
}

/// `tilebench gen <args> -o <dir>/<file>`; returns the file's path.
pub fn gen(dir: &Path, file: &str, args: &[&str]) -> String {
    let path: PathBuf = dir.join(file);
    ok(&[&["gen"][..], args, &["-o", arg(&path)]].concat());
    arg(&path).to_string()
}

/// `tilebench run` of `instances` with `heuristics` into `out`, one thread, no history line.
pub fn run_into(instances: &str, heuristics: &str, out: &Path) -> Output {
    run(&[
        "run",
        "--instances",
        instances,
        "-H",
        heuristics,
        "--jobs",
        "1",
        "--no-history",
        "--out",
        arg(out),
    ])
}

/// Every row of a CSV file, through the crate's own loader; panics naming file and line.
pub fn read_rows<T: Row>(path: &Path) -> Vec<T> {
    read_csv(path, ReadMode::Strict)
        .unwrap_or_else(|e| panic!("{e}"))
        .into_iter()
        .map(|(_, row)| row)
        .collect()
}

pub fn read_runs(dir: &Path) -> Vec<RunRecord> {
    read_rows(&dir.join(RUNS_FILE))
}

pub fn read_iterations(dir: &Path) -> Vec<IterationRecord> {
    read_rows(&dir.join(ITERATIONS_FILE))
}

pub fn read_json(path: &Path) -> serde_json::Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// A results directory's `meta.json` as JSON, after checking that it reads as the typed
/// [`Meta`].
pub fn meta(dir: &Path) -> serde_json::Value {
    let path = dir.join(META_FILE);
    Meta::read(&path).unwrap_or_else(|e| panic!("{e}"));
    read_json(&path)
}

/// A run row without the columns that depend on timing or the pool size (seconds, speed,
/// threads, an outside solver's CPU time and memory, sessions resumed): what must agree between two runs of the same experiment.
pub fn run_counts(r: &RunRecord) -> RunRecord {
    RunRecord {
        seconds: 0.0,
        nodes_per_second: None,
        threads: 0,
        cpu_seconds: None,
        peak_rss_bytes: None,
        // How many sessions a search took is history, not a count.
        resumes: 0,
        ..r.clone()
    }
}

/// An iteration row without its time.
pub fn iteration_counts(i: &IterationRecord) -> IterationRecord {
    IterationRecord {
        seconds: 0.0,
        ..i.clone()
    }
}

/// Both files of a results directory without timing, in file order.
pub fn counts(dir: &Path) -> (Vec<RunRecord>, Vec<IterationRecord>) {
    let runs = read_runs(dir).iter().map(run_counts).collect();
    let its = read_iterations(dir).iter().map(iteration_counts).collect();
    (runs, its)
}
