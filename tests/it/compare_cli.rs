//! End-to-end tests of `tilebench compare` on small results directories written here.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Output;

use common::bin::{stdout, tilebench};
use tilebench::results::io::write_rows as write_csv;
use tilebench::results::{RunRecord, RunStatus, RUNS_FILE};

/// A fresh directory under target/ for one test.
fn scratch(name: &str) -> PathBuf {
    common::fresh_dir(&format!("compare_cli_{name}"))
}

fn run(id: &str, heuristic: &str, generated: u64, seconds: f64) -> RunRecord {
    RunRecord {
        instance_set: "korf100".into(),
        instance_id: id.into(),
        heuristic: heuristic.into(),
        status: RunStatus::Solved,
        length: Some(50),
        optimal_length: Some(50),
        h0: Some(40),
        iterations: 6,
        expanded: Some(generated / 2),
        generated: Some(generated),
        last_iteration_generated: Some(generated / 3),
        seconds,
        nodes_per_second: Some(generated as f64 / seconds),
        growth_ratio: Some(6.0),
        overhead_measured: Some(1.2),
        overhead_predicted: Some(1.2),
        // No stored solution: these rows are not replayed (a length without moves).
        moves: String::new(),
        verified: true,
        threads: 1,
        search_threads: 1,
        ..RunRecord::default()
    }
}

fn runs() -> Vec<RunRecord> {
    vec![
        run("1", "manhattan", 276_361_932, 1.85),
        run("2", "manhattan", 15_300_441, 0.10),
        run("1", "linear-conflict", 40_000_000, 0.6),
        run("2", "linear-conflict", 2_000_000, 0.04),
    ]
}

fn write_dir(root: &Path, name: &str, rows: &[RunRecord]) -> PathBuf {
    let dir = root.join(name);
    std::fs::create_dir_all(&dir).unwrap();
    write_csv(&dir.join(RUNS_FILE), rows).unwrap();
    dir
}

/// The cells of each table row of `compare`'s plain-text output (columns are two or more spaces
/// apart; no cell holds two spaces).
fn rows(out: &str) -> Vec<Vec<String>> {
    out.lines()
        .map(|l| {
            l.split("  ")
                .map(str::trim)
                .filter(|c| !c.is_empty())
                .map(str::to_string)
                .collect()
        })
        .collect()
}

/// Whether some row of the output holds `cells` side by side.
fn has_cells(out: &str, cells: &[&str]) -> bool {
    rows(out)
        .iter()
        .any(|r| r.windows(cells.len()).any(|w| w == cells))
}

fn compare(base: &Path, new: &Path, extra: &[&str]) -> Output {
    tilebench()
        .arg("compare")
        .arg(base)
        .arg(new)
        .args(extra)
        .output()
        .unwrap()
}

#[test]
fn identical_directories_pass() {
    let root = scratch("identical");
    let a = write_dir(&root, "a", &runs());
    let b = write_dir(&root, "b", &runs());
    let o = compare(&a, &b, &[]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    let out = stdout(&o);
    assert!(
        has_cells(&out, &["manhattan", "2", "2", "1.000", "0"]),
        "{out}"
    );
    // The 0.04 s linear-conflict run is below the timing minimum.
    assert!(
        has_cells(&out, &["linear-conflict", "2", "1", "1.000", "0"]),
        "{out}"
    );
    assert!(out.contains("PASS"));
}

#[test]
fn a_node_count_change_exits_1_unless_allowed() {
    let root = scratch("nodes");
    let a = write_dir(&root, "a", &runs());
    let mut changed = runs();
    changed[0].generated = Some(276_361_931);
    let b = write_dir(&root, "b", &changed);
    let o = compare(&a, &b, &[]);
    assert_eq!(o.status.code(), Some(1));
    let out = stdout(&o);
    assert!(
        has_cells(&out, &["276,361,932", "276,361,931", "-1"]),
        "the table shows the change: {out}"
    );
    assert!(
        has_cells(&out, &["(1.000)", "*nodes*"]) || has_cells(&out, &["1.000", "*nodes*"]),
        "a failing change is marked: {out}"
    );
    assert!(out.contains("node counts changed: korf100 #1 manhattan"));
    let o = compare(&a, &b, &["--allow-node-changes"]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
}

#[test]
fn a_slowdown_beyond_the_threshold_exits_1() {
    let root = scratch("slow");
    let a = write_dir(&root, "a", &runs());
    let mut slow = runs();
    slow[2].seconds = 0.75; // linear conflict 1.25× slower
    let b = write_dir(&root, "b", &slow);
    // One run is too few for a time verdict by default (--min-runs 5): shown, not judged.
    let o = compare(&a, &b, &[]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    assert!(stdout(&o).contains("linear-conflict: time not judged, 1 timed and 2 solved runs"));
    let drawn = root.join("report");
    let o = compare(
        &a,
        &b,
        &["--report", drawn.to_str().unwrap(), "--format", "md"],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    let md = std::fs::read_to_string(drawn.join("report.md")).unwrap();
    assert!(
        md.contains("- linear-conflict: time not judged, 1 timed and 2 solved runs"),
        "{md}"
    );
    let o = compare(&a, &b, &["--min-runs", "1"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stdout(&o).contains("linear-conflict slowed down: geometric-mean time ratio 1.250"));
    assert_eq!(
        compare(&a, &b, &["--min-runs", "1", "--threshold", "30"])
            .status
            .code(),
        Some(0)
    );
}

#[test]
fn status_and_length_changes_exit_1() {
    let root = scratch("status");
    let a = write_dir(&root, "a", &runs());
    let mut lost = runs();
    lost[1].status = RunStatus::TimeLimit;
    lost[1].length = None;
    let b = write_dir(&root, "b", &lost);
    let o = compare(&a, &b, &[]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stdout(&o).contains("solution lost: korf100 #2 manhattan"));

    let mut longer = runs();
    longer[3].length = Some(52);
    let c = write_dir(&root, "c", &longer);
    let o = compare(&a, &c, &[]);
    assert_eq!(o.status.code(), Some(1));
    assert!(has_cells(&stdout(&o), &["50 → 52"]), "{}", stdout(&o));
}

#[test]
fn runs_on_one_side_only_are_listed_and_pass() {
    let root = scratch("one_side");
    let a = write_dir(&root, "a", &runs());
    let b = write_dir(&root, "b", &runs()[..3]);
    let o = compare(&a, &b, &[]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    assert!(has_cells(
        &stdout(&o),
        &["korf100", "2", "linear-conflict", "base only"]
    ));
}

#[test]
fn bad_input_exits_2_with_file_and_line() {
    let root = scratch("bad");
    let a = write_dir(&root, "a", &runs());
    let b = write_dir(&root, "b", &runs());
    let text = std::fs::read_to_string(b.join(RUNS_FILE)).unwrap();
    let broken = text.replacen("276361932", "lots", 1);
    std::fs::write(b.join(RUNS_FILE), broken).unwrap();
    let o = compare(&a, &b, &[]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("runs.csv, line 2: column 'generated'"),
        "{err}"
    );
    let o = compare(&a, &root.join("missing"), &[]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("missing: no such file"));
}

/// A copy of a results directory with every time multiplied by `factor`.
fn slowed_copy(dir: &Path, to: &Path, factor: f64) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(dir).unwrap() {
        let e = e.unwrap();
        std::fs::copy(e.path(), to.join(e.file_name())).unwrap();
    }
    let runs: Vec<RunRecord> = common::bin::read_runs(dir)
        .into_iter()
        .map(|mut r| {
            r.seconds *= factor;
            r.nodes_per_second = r.nodes_per_second.map(|v| v / factor);
            r
        })
        .collect();
    write_csv(&to.join(RUNS_FILE), &runs).unwrap();
}

/// Issue #11, point 7: a new side many times slower per run, on runs each too short for the
/// base to be timed, failed nothing ("PASS: no regression"). Now the longer side decides
/// whether a run is timed, and the totals are judged too.
#[test]
fn a_slowed_down_copy_of_a_real_results_directory_fails() {
    let root = scratch("slowed");
    let set = common::bin::gen(
        &root,
        "walks.txt",
        &[
            "--size", "4x4", "--count", "12", "--seed", "5", "--walk", "30",
        ],
    );
    let measured = root.join("measured");
    let o = common::bin::run_into(&set, "manhattan,linear-conflict", &measured);
    assert!(o.status.success(), "{}", common::bin::stderr(&o));
    // On a busy machine even these runs may take milliseconds, and their shares vary: give
    // every run 0.1 ms, too short to be timed on its own (the node counts stay real), so the
    // verdict below does not depend on the machine.
    let base = root.join("base");
    slowed_copy(&measured, &base, 0.0);
    let runs: Vec<RunRecord> = common::bin::read_runs(&base)
        .into_iter()
        .map(|mut r| {
            r.seconds = 1e-4;
            r.nodes_per_second = r.generated.map(|g| g as f64 / r.seconds);
            r
        })
        .collect();
    write_csv(&base.join(RUNS_FILE), &runs).unwrap();
    let runs = common::bin::read_runs(&base);
    let longest = runs.iter().map(|r| r.seconds).fold(0.0, f64::max);
    let total: f64 = runs.iter().map(|r| r.seconds).sum();
    assert!(
        longest < 0.05 / 30.0 && total < 0.05,
        "the runs must be short for this test: longest {longest} s, total {total} s"
    );

    // Unchanged and 5 % slower: pass.
    for (name, factor) in [("same", 1.0), ("noise", 1.05)] {
        let new = root.join(name);
        slowed_copy(&base, &new, factor);
        let o = compare(&base, &new, &[]);
        assert_eq!(o.status.code(), Some(0), "×{factor}: {}", stdout(&o));
    }
    // 60× slower per run (as an outside solver was): fail, naming both heuristics.
    let new = root.join("slow");
    slowed_copy(&base, &new, 60.0);
    let o = compare(&base, &new, &[]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(1), "{out}");
    for h in ["manhattan", "linear-conflict"] {
        assert!(out.contains(&format!("{h} slowed down")), "{out}");
    }
}

#[test]
fn report_writes_the_comparison_in_three_formats_with_scatter_plots() {
    let root = scratch("report");
    let a = write_dir(&root, "a", &runs());
    let mut changed = runs();
    changed[0].generated = Some(276_361_931);
    let b = write_dir(&root, "b", &changed);
    let out = root.join("cmp");
    let o = compare(&a, &b, &["--report", out.to_str().unwrap()]);
    assert_eq!(
        o.status.code(),
        Some(1),
        "the verdict is still the exit code"
    );
    for f in ["report.md", "report.html", "report.tex"] {
        assert!(out.join(f).exists(), "{f}");
    }
    for stem in ["compare-nodes", "compare-seconds"] {
        for ext in ["svg", "png", "pdf"] {
            assert!(out.join(format!("{stem}.{ext}")).exists(), "{stem}.{ext}");
        }
    }
    let md = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert!(md.contains("**FAIL**: 1 problem."), "{md}");
    assert!(
        md.contains("node counts changed: korf100 #1 manhattan"),
        "{md}"
    );
    assert!(
        md.contains("| korf100 | 1 | `manhattan` | solved |"),
        "{md}"
    );
    assert!(md.contains("| 276,361,932 | 276,361,931 | -1 |"), "{md}");
    // One point per matched run with positive values, base on x and new on y.
    let svg = std::fs::read_to_string(out.join("compare-nodes.svg")).unwrap();
    assert!(svg.contains("base: nodes generated") && svg.contains("new: nodes generated"));
    assert!(svg.contains("manhattan (2 runs)"), "{svg}");
    let html = std::fs::read_to_string(out.join("report.html")).unwrap();
    assert_eq!(html.matches("<svg").count(), 2);
    // --format without --report is a usage error.
    let o = compare(&a, &b, &["--format", "md"]);
    assert_eq!(o.status.code(), Some(2));
}

/// Two real runs are never measured side by side: the report says so from their meta.json,
/// and that a time verdict from them is weak.
#[test]
fn two_runs_are_said_to_be_measured_apart() {
    let root = scratch("apart");
    let set = common::bin::gen(
        &root,
        "walks.txt",
        &["--size", "3x3", "--count", "3", "--seed", "5"],
    );
    let (a, b) = (root.join("a"), root.join("b"));
    for dir in [&a, &b] {
        let o = common::bin::run_into(&set, "manhattan", dir);
        assert!(o.status.success(), "{}", common::bin::stderr(&o));
    }
    let out = stdout(&compare(&a, &b, &[]));
    assert!(
        out.contains("- *Not measured side by side: on the same machine ("),
        "{out}"
    );
    assert!(out.contains("a time verdict from them is weak"), "{out}");
    assert!(out.contains("tilebench regress"), "{out}");
    assert!(!out.contains("not set up alike"), "{out}");
    // A directory against itself is said to be one.
    let out = stdout(&compare(&a, &a, &[]));
    assert!(
        out.contains("Base and new are the same results") && !out.contains("Not measured"),
        "{out}"
    );
    // A third run under a time limit and with another number of pairs at once: the verdict
    // says how the setups differ, the seconds' setup (--jobs) too.
    let meta: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(a.join("meta.json")).unwrap()).unwrap();
    let jobs_a = meta["threads"].as_u64().unwrap();
    let jobs_c = if jobs_a == 1 { 2 } else { 1 };
    let c = root.join("c");
    let o = common::bin::run(&[
        "run",
        "--instances",
        &set,
        "-H",
        "manhattan",
        "--time-limit",
        "100",
        "--jobs",
        &jobs_c.to_string(),
        "--no-history",
        "--out",
        common::bin::arg(&c),
    ]);
    assert!(o.status.success(), "{}", common::bin::stderr(&o));
    let out = stdout(&compare(&a, &c, &[]));
    assert!(
        out.contains("The two experiments were not set up alike")
            && out.contains("- time limit: none in base, 100 s in new")
            && out.contains(&format!(
                "- pairs at once (--jobs): {jobs_a} in base, {jobs_c} in new (seconds depend on it"
            )),
        "{out}"
    );
}

/// Directories run with different `--pruning` differ in their node counts by design: the
/// comparison reports the changes and passes (lengths must still agree).
#[test]
fn another_pruning_changes_counts_without_failing() {
    let root = scratch("pruning");
    let set = common::bin::gen(
        &root,
        "walks.txt",
        &[
            "--size", "4x4", "--count", "3", "--seed", "5", "--walk", "100",
        ],
    );
    let (parent, fsm) = (root.join("parent"), root.join("fsm"));
    for (dir, pruning) in [(&parent, "parent"), (&fsm, "fsm")] {
        let o = common::bin::run(&[
            "run",
            "--instances",
            &set,
            "-H",
            "manhattan",
            "--pruning",
            pruning,
            "--no-history",
            "--out",
            common::bin::arg(dir),
        ]);
        assert!(o.status.success(), "{}", common::bin::stderr(&o));
    }
    let generated = |dir: &std::path::Path| -> Vec<String> {
        let mut r = csv::Reader::from_path(dir.join("runs.csv")).unwrap();
        let at = r.headers().unwrap().iter().position(|c| c == "generated");
        let at = at.unwrap();
        r.records()
            .map(|row| row.unwrap()[at].to_string())
            .collect()
    };
    assert_ne!(
        generated(&parent),
        generated(&fsm),
        "the pruning changed no count"
    );
    let o = compare(&parent, &fsm, &[]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{out}");
    assert!(
        out.contains(
            "node-count changes: allowed (reported only): the two sides prune differently"
        ),
        "{out}"
    );
    assert!(
        out.contains("- pruning: parent in base, fsm in new"),
        "{out}"
    );
}

/// What `compare` prints on a terminal is plain text: none of the backslash escapes, anchors or
/// code marks that the Markdown file needs (a set named `k_100`, a heuristic with `|` and `*` in
/// its name, the note's `tilebench regress`); `--report`'s report.md keeps them.
#[test]
fn the_terminal_gets_plain_text_and_the_markdown_file_its_escapes() {
    let root = scratch("plain");
    let odd = |mut r: RunRecord| {
        r.instance_set = "k_100".into();
        r.heuristic = "max(a|b*)".into();
        r
    };
    let base: Vec<RunRecord> = runs().into_iter().map(odd).collect();
    let a = write_dir(&root, "a", &base[..2]);
    let b = write_dir(&root, "b", &base[..2]);
    let drawn = root.join("report");
    let o = compare(
        &a,
        &b,
        &["--report", drawn.to_str().unwrap(), "--format", "md"],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    let out = stdout(&o);
    assert!(!out.contains('\\'), "no backslash escapes: {out}");
    assert!(!out.contains('`'), "no code marks: {out}");
    assert!(!out.contains("<a id="), "no anchors: {out}");
    assert!(out.contains("*PASS*: no regression"), "{out}");
    assert!(
        has_cells(&out, &["k_100", "1", "max(a|b*)", "solved"]),
        "{out}"
    );
    let md = std::fs::read_to_string(drawn.join("report.md")).unwrap();
    assert!(
        md.contains("| k\\_100 | 1 | `max(a\\|b*)` | solved |"),
        "{md}"
    );
    assert!(md.contains("**PASS**: no regression"), "{md}");
}
