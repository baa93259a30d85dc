//! Issue #11, point 5 (for `solve`, `gen`, `slurm submit`) and the smaller points: numeric
//! options the tool cannot honour are refused with exit 2 naming the option; `gen -o` keeps an
//! existing file without `--force`; a UTF-8 byte-order mark starts an instance file fine;
//! options may follow the tiles. And what a new user met first (2026-12-05): an empty or
//! negative tile, a negative optimal length, `run` without -H on a 3x3 set, `run -H none`, and
//! help text about bfs and the history that did not say what the tool does.

use crate::common;

use std::fs;

use common::bin::{run, stderr, stdout};

const KORF1: &str = "14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3";

/// Exit 2, and the message names the option and what is allowed.
fn refused(args: &[&str], option: &str, says: &str) {
    let o = run(args);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
    assert!(
        err.contains(option) && err.contains(says),
        "{args:?}: want {option} and {says:?} in: {err}"
    );
}

#[test]
fn solve_limits_are_checked_and_honoured() {
    for (option, value) in [
        ("--time-limit", "1e20"),
        ("--time-limit", "0"),
        ("--time-limit", "-3"),
        ("--time-limit", "NaN"),
        ("--node-limit", "0"),
        ("--node-limit", "-1"),
    ] {
        let given = format!("{option}={value}");
        refused(
            &["solve", &given, "1 2 3 4 0 5 7 8 6"],
            option,
            "out of range",
        );
    }
    refused(
        &["solve", "--time-limit", "soon", "1 2 3 4 0 5 7 8 6"],
        "--time-limit",
        "not a number",
    );
    let o = run(&[
        "solve",
        "--goal",
        "blank-first",
        "--node-limit",
        "1000",
        KORF1,
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("stopped    node-limit (no solution found)"),
        "{}",
        stdout(&o)
    );
    let o = run(&["solve", "--time-limit", "600", "1 2 3 4 0 5 7 8 6"]);
    assert!(stdout(&o).contains("length     2"), "{}", stdout(&o));
}

#[test]
fn gen_and_slurm_counts_are_checked() {
    refused(
        &["gen", "--size", "3x3", "--count", "0", "--seed", "1"],
        "--count",
        "out of range",
    );
    refused(
        &[
            "gen",
            "--size",
            "3x3",
            "--count",
            "1",
            "--seed",
            "1",
            "--walk=-4",
        ],
        "--walk",
        "out of range",
    );
    let out = common::fresh_dir("input_checks_slurm").join("exp");
    let out = out.to_str().unwrap();
    for (option, value) in [
        ("--jobs", "10000"),
        ("--tasks", "0"),
        ("--cpus-per-task", "0"),
    ] {
        refused(
            &[
                "slurm",
                "submit",
                "--dry-run",
                "--instances",
                "instances/korf100.txt:1-2",
                "-H",
                "manhattan",
                "--tasks",
                if option == "--tasks" { value } else { "2" },
                option,
                value,
                "--out",
                out,
            ],
            option,
            "out of range",
        );
    }
}

/// Separate, because 7576135 would try to generate the boards (slowly) instead of refusing.
#[test]
fn gen_refuses_an_absurd_count() {
    refused(
        &[
            "gen",
            "--size",
            "4x4",
            "--count",
            "1000000000000",
            "--seed",
            "1",
        ],
        "--count",
        "out of range",
    );
}

#[test]
fn gen_keeps_an_existing_file_without_force() {
    let dir = common::fresh_dir("input_checks_gen");
    let file = dir.join("set.txt");
    fs::write(&file, "precious\n").unwrap();
    let path = file.to_str().unwrap();
    let args = [
        "gen", "--size", "3x3", "--count", "2", "--seed", "7", "-o", path,
    ];
    refused(&args, path, "--force");
    assert_eq!(fs::read_to_string(&file).unwrap(), "precious\n");
    let mut forced = args.to_vec();
    forced.push("--force");
    let o = run(&forced);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(fs::read_to_string(&file)
        .unwrap()
        .starts_with("# tilebench-instances v1"));
}

#[test]
fn an_instance_file_may_start_with_a_byte_order_mark() {
    let dir = common::fresh_dir("input_checks_bom");
    let plain = common::bin::gen(
        &dir,
        "plain.txt",
        &["--size", "3x3", "--count", "2", "--seed", "3"],
    );
    let bom = dir.join("bom.txt");
    let mut bytes = b"\xEF\xBB\xBF".to_vec();
    bytes.extend(fs::read(plain).unwrap());
    fs::write(&bom, bytes).unwrap();
    let out = dir.join("results");
    let o = common::bin::run_into(bom.to_str().unwrap(), "manhattan", &out);
    assert!(o.status.success(), "{}", stderr(&o));
    let runs = common::bin::read_runs(&out);
    assert_eq!(runs.len(), 2);
    assert!(runs
        .iter()
        .all(|r| r.status == tilebench::results::RunStatus::Solved && r.verified));
}

/// A student's slips point at the likely fix: a board one tile short, a plain list of boards
/// given as an instance file, a PDB partition in the wrong notation.
#[test]
fn slips_are_answered_with_the_likely_fix() {
    refused(&["solve", "1 2 3 4 5 6 7 0"], "8 numbers", "3x3 takes 9");
    let dir = common::fresh_dir("input_checks_slips");
    let plain = dir.join("boards.txt");
    fs::write(&plain, "1 2 3 4 5 6 7 0 8\n").unwrap();
    let o = common::bin::run_into(plain.to_str().unwrap(), "manhattan", &dir.join("out"));
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("boards.txt") && err.contains("docs/formats.md"),
        "{err}"
    );
    refused(
        &["solve", "-H", "manhatan", KORF1],
        "manhatan",
        "pdb:1.2.3.4/5.6.7.8",
    );
}

#[test]
fn options_may_follow_the_tiles() {
    let o = run(&[
        "solve", "1", "2", "3", "4", "0", "5", "7", "8", "6", "--format", "json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["length"], 2);
    let o = run(&[
        "solve",
        KORF1,
        "--goal",
        "blank-first",
        "-H",
        "linear-conflict",
        "--format",
        "json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(
        (v["length"].as_u64(), v["heuristic"].as_str()),
        (Some(57), Some("linear-conflict"))
    );
}

/// `tilebench solve … | head -1`: a closed pipe ends the process quietly (SIGPIPE), not with a
/// panic (exit 101). The reading end is closed before the process writes anything.
#[test]
fn a_closed_pipe_is_no_panic() {
    use std::io::Read;
    use std::process::Stdio;

    let mut child = common::bin::tilebench()
        .args(["solve", "1 2 3 4 0 5 7 8 6"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take()); // the reader goes away, like `head`
    let mut err = String::new();
    child
        .stderr
        .as_mut()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    let status = child.wait().unwrap();
    assert_ne!(status.code(), Some(101), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}

/// A heuristic that cannot serve a set's boards is refused before anything is written, naming
/// the heuristic, the instance file and the board (alone or as a term of a max; run and slurm).
#[test]
fn a_heuristic_for_another_board_is_refused_before_any_file_is_written() {
    let dir = common::fresh_dir("input_checks_heuristic_board");
    let out = dir.join("out");
    let out = out.to_str().unwrap();
    let file = "instances/uniform-3x3-s2026.txt";
    for h in ["pdb-663", "manhattan,max(linear-conflict,pdb-78r)"] {
        for command in [
            vec!["run", "--instances", file, "-H", h, "--out", out],
            vec![
                "slurm",
                "submit",
                "--dry-run",
                "--tasks",
                "2",
                "--instances",
                file,
                "-H",
                h,
                "--out",
                out,
            ],
        ] {
            let o = run(&command);
            let err = stderr(&o);
            assert_eq!(o.status.code(), Some(2), "{command:?}: {err}");
            let named = h.rsplit(['(', ',']).next().unwrap().trim_end_matches(')');
            for says in [named, file, "4x4 board, not 3x3"] {
                assert!(err.contains(says), "{command:?}: want {says:?} in: {err}");
            }
            assert!(!dir.join("out").exists(), "{command:?} wrote {out}");
        }
    }
}

/// A solver program that cannot start (missing, or not executable) is refused with exit 2
/// before the results directory is made: no directory with a header-only `runs.csv` is left.
#[test]
fn a_solver_that_cannot_start_is_refused_before_any_file_is_written() {
    let dir = common::fresh_dir("input_checks_solver_start");
    let out = dir.join("out");
    let not_executable = dir.join("solver.py");
    fs::write(&not_executable, "print('{}')\n").unwrap();
    let file = "instances/uniform-3x3-s2026.txt:1";
    for (solver, says) in [
        ("x=/nonexistent/solver".to_string(), "/nonexistent/solver"),
        (
            format!("x={}", not_executable.display()),
            "not an executable file",
        ),
        ("x=no-such-solver-program --fast".to_string(), "on PATH"),
    ] {
        let args = ["run", "--instances", file, "--solver", &solver];
        let o = run(&[&args[..], &["--out", out.to_str().unwrap()]].concat());
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{solver}: {err}");
        assert!(
            err.contains("cannot start solver") && err.contains(says),
            "{solver}: {err}"
        );
        assert!(!out.exists(), "{solver} left {}", out.display());
    }
}

/// An empty item between commas, and a negative tile (which clap took for an option), are
/// tile errors naming the item.
#[test]
fn empty_and_negative_tiles_are_named() {
    let err = common::bin::fails(&["solve", "1,2,,3,4,5,6,7,8,0"]);
    assert!(err.contains("item 3 is empty"), "{err}");
    let err = common::bin::fails(&["solve", "-1", "2", "3", "4", "0", "5", "7", "8", "6"]);
    assert!(
        err.contains("'-1' (item 1): a tile cannot be negative"),
        "{err}"
    );
    let err = common::bin::fails(&["solve", "1", "2", "3", "-4", "0", "5", "7", "8", "6"]);
    assert!(err.contains("'-4' (item 4)"), "{err}");
}

/// A negative optimal length in an instance file says it must be at least 0, with file and
/// line.
#[test]
fn a_negative_optimal_length_is_named() {
    let dir = common::fresh_dir("negative-length");
    let file = dir.join("neg.txt");
    fs::write(
        &file,
        "# tilebench-instances v1\n# size: 3x3\n# goal: blank-last\nid\toptimal_length\ttiles\n\
         a\t-3\t1 2 3 4 0 5 7 8 6\n",
    )
    .unwrap();
    let out = dir.join("out");
    let file = file.to_str().unwrap();
    let err = common::bin::fails(&["run", "--instances", file, "--out", out.to_str().unwrap()]);
    assert!(
        err.contains("neg.txt:5:") && err.contains("must be 0 or more"),
        "{err}"
    );
}

/// `run` without -H on a 3x3 set runs the default heuristics that fit it (not pdb-663, which
/// only fits 4x4 and which the user never asked for); `-H none` is taken with bfs alone and
/// otherwise pointed at bfs.
#[test]
fn run_defaults_fit_the_board_and_none_means_bfs() {
    let dir = common::fresh_dir("run-defaults");
    let out = dir.join("out");
    let out = out.to_str().unwrap();
    let set = "instances/uniform-3x3-s2026.txt:1-2";
    common::bin::ok(&[
        "run",
        "--instances",
        set,
        "--jobs",
        "1",
        "--no-history",
        "--out",
        out,
    ]);
    let mut heuristics: Vec<String> = common::bin::read_runs(std::path::Path::new(out))
        .iter()
        .map(|r| r.heuristic.clone())
        .collect();
    heuristics.sort();
    heuristics.dedup();
    assert_eq!(heuristics, ["linear-conflict", "manhattan"]);

    let err = common::bin::fails(&["run", "--instances", set, "-H", "none", "--out", out]);
    assert!(
        err.contains("-H none") && err.contains("--algorithm bfs"),
        "{err}"
    );
    let bfs = dir.join("bfs");
    common::bin::ok(&[
        "run",
        "--instances",
        set,
        "--algorithm",
        "bfs",
        "-H",
        "none",
        "--no-history",
        "--out",
        bfs.to_str().unwrap(),
    ]);
    assert_eq!(common::bin::read_runs(&bfs).len(), 2);
}

/// The help says what the code does: where the history is (inside a directory given with
/// --out), when bfs takes -H, and what the default heuristics are.
#[test]
fn help_says_what_the_tool_does() {
    let help = |args: &[&str]| stdout(&common::bin::ok(args)).replace('\n', " ");
    let squash = |s: String| s.split_whitespace().collect::<Vec<_>>().join(" ");
    for sub in ["plot", "report"] {
        let h = squash(help(&[sub, "--help"]));
        assert!(
            h.contains("history.csv inside the results directory"),
            "{sub}: {h}"
        );
    }
    let h = squash(help(&["run", "--help"]));
    assert!(h.contains("DIR/history.csv for --out DIR"), "{h}");
    assert!(!h.contains("whatever -H says"), "{h}");
    assert!(h.contains("bfs alone takes -H none or no -H"), "{h}");
    assert!(h.contains("pdb-663 only on 4x4"), "{h}");
}
