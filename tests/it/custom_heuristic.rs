//! examples/custom-heuristic: a binary built outside the library with two heuristics of its own
//! (misplaced tiles, and Manhattan under another name) runs the pipeline with their names, and
//! finds the optimal lengths that breadth-first search finds.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use crate::common::bin::{arg, gen, read_runs, stderr, tilebench, work_dir};
use crate::common::{fresh_dir, test_pdb_dir};

/// The example's binary: examples/custom-heuristic/src/main.rs, built as an example of this
/// package (`cargo test` builds it beside the tests, with the same library build; built here
/// when only this test binary was asked for).
fn example() -> Command {
    static BIN: OnceLock<PathBuf> = OnceLock::new();
    let bin = BIN.get_or_init(|| {
        let profile_dir = Path::new(env!("CARGO_BIN_EXE_tilebench")).parent().unwrap();
        let mut build = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
        build
            .args(["build", "--quiet", "--example", "custom-heuristic"])
            .current_dir(env!("CARGO_MANIFEST_DIR"));
        if profile_dir.ends_with("release") {
            build.arg("--release");
        }
        let out = build.output().unwrap();
        assert!(
            out.status.success(),
            "building the example: {}",
            stderr(&out)
        );
        profile_dir.join("examples").join("custom-heuristic")
    });
    let mut c = Command::new(bin);
    c.current_dir(work_dir());
    c.env("TILEBENCH_PDB_DIR", test_pdb_dir());
    c
}

#[test]
fn an_outside_heuristic_runs_the_pipeline_with_optimal_lengths() {
    let dir = fresh_dir("custom_heuristic");
    let boards = [
        gen(
            &dir,
            "a.txt",
            &["--size", "3x3", "--count", "3", "--seed", "11"],
        ),
        gen(
            &dir,
            "b.txt",
            &["--size", "2x3", "--count", "3", "--seed", "12"],
        ),
    ]
    .join(",");
    let out = dir.join("runs");
    let run = example()
        .args(["run", "--instances", &boards, "--algorithm", "bfs,ida"])
        .args(["-H", "misplaced,my-manhattan,manhattan", "--out", arg(&out)])
        .output()
        .unwrap();
    assert!(run.status.success(), "{}", stderr(&run));

    let runs = read_runs(&out);
    assert_eq!(runs.len(), 6 * 4, "6 boards × (bfs + 3 heuristics)");
    let row = |set: &str, id: &str, heuristic: &str| {
        let found = runs
            .iter()
            .find(|r| r.instance_set == set && r.instance_id == id && r.heuristic == heuristic);
        found.unwrap_or_else(|| panic!("no row {set} {id} {heuristic}"))
    };
    for bfs in runs.iter().filter(|r| r.heuristic.is_empty()) {
        let (set, id) = (&bfs.instance_set, &bfs.instance_id);
        assert!(bfs.length.is_some(), "{set} {id}: bfs did not solve it");
        for h in ["misplaced", "my-manhattan", "manhattan"] {
            assert_eq!(row(set, id, h).length, bfs.length, "{set} {id} {h}");
        }
        // The same heuristic through the registry does the same work as the built-in one.
        let (mine, builtin) = (row(set, id, "my-manhattan"), row(set, id, "manhattan"));
        assert_eq!(
            (mine.h0, mine.expanded, mine.generated),
            (builtin.h0, builtin.expanded, builtin.generated)
        );
        // Misplaced tiles is never above Manhattan distance.
        assert!(row(set, id, "misplaced").h0 <= builtin.h0);
    }

    let report = dir.join("report");
    let made = example()
        .args(["report", arg(&out), "--out", arg(&report), "--format", "md"])
        .output()
        .unwrap();
    assert!(made.status.success(), "{}", stderr(&made));
    let md = std::fs::read_to_string(report.join("report.md")).unwrap();
    assert!(md.contains("misplaced") && md.contains("my-manhattan"));
    let same = example()
        .args(["compare", arg(&out), arg(&out)])
        .output()
        .unwrap();
    assert!(same.status.success(), "{}", stderr(&same));

    // The names are the example's: the stock binary does not know them.
    let stock = tilebench()
        .args([
            "solve",
            "-H",
            "misplaced",
            "1",
            "2",
            "3",
            "4",
            "5",
            "6",
            "7",
            "0",
            "8",
        ])
        .output()
        .unwrap();
    assert_eq!(stock.status.code(), Some(2));
    assert!(stderr(&stock).contains("unknown heuristic 'misplaced'"));
}
