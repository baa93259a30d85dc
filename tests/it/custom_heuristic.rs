//! examples/custom-heuristic: a binary built outside the library with heuristics of its own
//! (misplaced tiles, Manhattan under another name) runs the pipeline with their names, and finds
//! the optimal lengths that breadth-first search finds; its inadmissible one (Manhattan doubled)
//! is said to be one.

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

#[test]
fn an_inadmissible_heuristic_is_said_to_be_one() {
    // Twice Manhattan distance finds 37 moves where 31 are optimal.
    let board = ["8", "6", "7", "2", "5", "4", "3", "0", "1"];
    let solve = |h: &str, json: bool| {
        let mut c = example();
        c.args(["solve", "-H", h]).args(board);
        if json {
            c.args(["--format", "json"]);
        }
        let o = c.output().unwrap();
        assert!(o.status.success(), "{}", stderr(&o));
        String::from_utf8(o.stdout).unwrap()
    };
    let said = "not proven optimal: twice-manhattan is declared inadmissible";
    assert!(solve("twice-manhattan", false).contains(&format!("length     37 ({said})")));
    assert!(!solve("misplaced", false).contains("not proven"));
    let proven = |h: &str| {
        let j: serde_json::Value = serde_json::from_str(&solve(h, true)).unwrap();
        j["proven_optimal"].clone()
    };
    assert_eq!(proven("twice-manhattan"), false);
    assert_eq!(proven("misplaced"), true);

    // In a run, the longer length is blamed on the heuristic, not on the search or the file.
    let dir = fresh_dir("custom_heuristic_inadmissible");
    let file = dir.join("one.txt");
    std::fs::write(
        &file,
        format!(
            "# tilebench-instances v1\n# size: 3x3\n# goal: blank-last\nid\toptimal_length\ttiles\na\t31\t{}\n",
            board.join(" ")
        ),
    )
    .unwrap();
    let run = example()
        .args(["run", "--instances", arg(&file), "--no-history"])
        .args([
            "-H",
            "twice-manhattan,manhattan",
            "--out",
            arg(&dir.join("runs")),
        ])
        .output()
        .unwrap();
    let err = stderr(&run);
    assert!(
        err.contains(
            "warning: twice-manhattan is declared inadmissible: its lengths are not proven optimal"
        ),
        "{err}"
    );
    assert!(
        err.contains("found 37 moves, more than the optimal length 31")
            && err.contains("(twice-manhattan is declared inadmissible"),
        "{err}"
    );
    assert!(!err.contains("the search is wrong"), "{err}");

    // Without an optimal length in the file the row stays `solved` with h0 above its length:
    // the results still read, in this binary and in the stock one that does not know the name
    // (a check meant for admissible heuristics refused them).
    let file = dir.join("unknown-length.txt");
    std::fs::write(
        &file,
        format!(
            "# tilebench-instances v1\n# size: 3x3\n# goal: blank-last\nid\ttiles\na\t{}\n",
            board.join(" ")
        ),
    )
    .unwrap();
    let runs = dir.join("unknown-length");
    let run = example()
        .args(["run", "--instances", arg(&file), "--no-history"])
        .args(["-H", "twice-manhattan", "--out", arg(&runs)])
        .output()
        .unwrap();
    assert!(run.status.success(), "{}", stderr(&run));
    for mut bin in [example(), tilebench()] {
        let report = bin
            .args(["report", arg(&runs), "--out", arg(&dir.join("report"))])
            .output()
            .unwrap();
        assert!(report.status.success(), "{}", stderr(&report));
    }
}

/// The example's `--help` lists its own heuristics beside the built-in ones (the help text is
/// written for the built-in ones).
#[test]
fn the_help_lists_the_registered_heuristics() {
    for sub in ["solve", "run"] {
        let o = example().args([sub, "--help"]).output().unwrap();
        assert!(o.status.success(), "{}", stderr(&o));
        let help = String::from_utf8_lossy(&o.stdout)
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        assert!(
            help.contains("Registered by this program: misplaced, my-manhattan"),
            "{sub}: {help}"
        );
    }
}
