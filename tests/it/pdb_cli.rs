//! End-to-end tests of `tilebench pdb build|list` and of `solve` with pattern databases, on the
//! 8-puzzle so that every table builds in milliseconds.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Output;

use common::bin::{stderr, stdout};

/// `tilebench <args>` with `TILEBENCH_PDB_DIR` set to `dir`, or unset.
fn tilebench(args: &[&str], dir: Option<&Path>) -> Output {
    let mut cmd = common::bin::tilebench();
    cmd.args(args).env_remove("TILEBENCH_PDB_DIR");
    if let Some(d) = dir {
        cmd.env("TILEBENCH_PDB_DIR", d);
    }
    cmd.output().unwrap()
}

fn text(o: &Output) -> (String, String) {
    (stdout(o), stderr(o))
}

fn scratch(name: &str) -> PathBuf {
    common::fresh_dir(&format!("pdb-cli-{name}"))
}

const BOARD: &str = "8 6 7 2 5 4 3 0 1"; // one of the two hardest 8-puzzle boards: 31 moves
const PARTITION: &str = "1,2,3,4/5,6,7,8";

#[test]
fn build_list_and_solve_with_a_custom_partition() {
    let dir = scratch("custom");
    let d = dir.to_str().unwrap();
    let args = [
        "pdb",
        "build",
        "pdb",
        "--partition",
        PARTITION,
        "--size",
        "3x3",
    ];
    let o = tilebench(&[&args[..], &["--pdb-dir", d]].concat(), None);
    let (out, err) = text(&o);
    assert!(o.status.success(), "{err}");
    assert_eq!(out.matches("built ").count(), 2, "{out}");
    // A second build finds both tables cached and valid.
    let o = tilebench(&[&args[..], &["--pdb-dir", d]].concat(), None);
    assert_eq!(text(&o).0.matches("cached").count(), 2, "{}", text(&o).0);

    let o = tilebench(&["pdb", "list", "--pdb-dir", d], None);
    let (out, _) = text(&o);
    assert!(
        out.contains("3x3-blank-last-1-2-3-4.pdb") && out.contains("3024"),
        "{out}"
    );

    for h in ["pdb", "pdbr"] {
        let o = tilebench(
            &[
                "solve",
                "-H",
                h,
                "--partition",
                PARTITION,
                "--no-build",
                "--pdb-dir",
                d,
                "--format",
                "json",
                BOARD,
            ],
            None,
        );
        let (out, err) = text(&o);
        assert!(o.status.success(), "{err}");
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(v["length"], 31);
        assert!(v["heuristic"].as_str().unwrap().starts_with(h));
    }
}

#[test]
fn the_environment_variable_sets_the_cache_and_no_build_refuses_missing_tables() {
    let dir = scratch("env");
    let o = tilebench(
        &["solve", "-H", "pdb:1,2,3,4/5,6,7,8", "--no-build", BOARD],
        Some(&dir),
    );
    let (_, err) = text(&o);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        err.contains("--no-build") && err.contains(dir.to_str().unwrap()),
        "{err}"
    );
    let o = tilebench(&["solve", "-H", "pdb:1,2,3,4/5,6,7,8", BOARD], Some(&dir));
    assert!(o.status.success(), "{}", text(&o).1);
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 2);
}

#[test]
fn corrupt_tables_are_refused_or_rebuilt_never_used() {
    let dir = scratch("corrupt");
    let d = dir.to_str().unwrap();
    let solve = |extra: &[&str]| {
        let args = [
            &["solve", "-H", "pdb:1,2,3,4/5,6,7,8", "--pdb-dir", d][..],
            extra,
            &[BOARD],
        ]
        .concat();
        tilebench(&args, None)
    };
    assert!(solve(&[]).status.success());
    let file = dir.join("3x3-blank-last-5-6-7-8.pdb");
    let mut bytes = std::fs::read(&file).unwrap();
    bytes[500] ^= 0x40;
    std::fs::write(&file, &bytes).unwrap();
    let o = solve(&["--no-build"]);
    let (_, err) = text(&o);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        err.contains("checksum") && err.contains("5-6-7-8.pdb"),
        "{err}"
    );
    // Truncated: reported, rebuilt, and the solve still succeeds.
    std::fs::write(&file, &bytes[..1000]).unwrap();
    let o = solve(&[]);
    let (out, err) = text(&o);
    assert!(o.status.success(), "{err}");
    assert!(
        err.contains("truncated") && err.contains("rebuilding"),
        "{err}"
    );
    assert!(out.contains("length     31"), "{out}");
    assert!(solve(&["--no-build"]).status.success());
}

#[test]
fn bad_partitions_and_names_are_clear_errors() {
    for (args, needle) in [
        (
            vec!["solve", "-H", "pdb", "--partition", "1,2,3/4,5,6,7", BOARD],
            "tile 8 is in no group",
        ),
        (vec!["solve", "-H", "pdb", BOARD], "needs --partition"),
        (vec!["solve", "-H", "pdb-663", BOARD], "4x4 board"),
        (vec!["solve", "-H", "pdb-999", BOARD], "unknown heuristic"),
        (
            vec![
                "solve",
                "-H",
                "pdbr:1,2,3,4/5,6,7,8",
                "--goal",
                "1 2 3 4 5 6 0 7 8",
                BOARD,
            ],
            "main diagonal",
        ),
    ] {
        let o = tilebench(&args, Some(&scratch("bad")));
        let (_, err) = text(&o);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(err.contains(needle), "{args:?}: {err}");
    }
}
