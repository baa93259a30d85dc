//! `tilebench solve` end to end: output formats, exit codes and error messages.

use crate::common;

use common::bin::{run as tilebench, stderr};

#[test]
fn json_output_has_the_documented_fields() {
    let o = tilebench(&[
        "solve",
        "--goal",
        "spiral",
        "--format",
        "json",
        "1,2,3,8,6,4,7,0,5",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["solvable"], true);
    assert_eq!(v["length"], 1);
    assert_eq!(v["moves"], "U");
    assert!(v["nodes_expanded"].as_u64().unwrap() >= 1);
    assert!(v["nodes_generated"].as_u64().unwrap() >= 1);
    assert!(v["seconds"].as_f64().unwrap() >= 0.0);
    let its = v["iterations"].as_array().unwrap();
    assert_eq!(its.len(), 1);
    for key in ["bound", "expanded", "generated", "seconds"] {
        assert!(its[0].get(key).is_some(), "iteration lacks {key}");
    }
}

#[test]
fn text_output_lists_moves_and_iterations() {
    let o = tilebench(&[
        "solve",
        "-H",
        "linear-conflict",
        "--goal",
        "blank-first",
        "4",
        "5",
        "7",
        "2",
        "9",
        "14",
        "12",
        "13",
        "0",
        "3",
        "6",
        "11",
        "8",
        "1",
        "15",
        "10",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("length     42"), "{out}");
    assert!(out.contains("iteration"));
    assert!(out.contains("generated"));
}

#[test]
fn unsolvable_board_exits_zero_with_solvable_false() {
    let o = tilebench(&[
        "solve",
        "--format",
        "json",
        "1 2 3 4 5 6 7 8 9 10 11 12 13 15 14 0",
    ]);
    assert!(o.status.success());
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["solvable"], false);
    assert_eq!(v["length"], serde_json::Value::Null);
    assert_eq!(v["nodes_generated"], 0);
}

/// The parity rule comes before the tables: an unsolvable board under pattern databases
/// builds none (and says nothing of an h it never computed).
#[test]
fn an_unsolvable_board_builds_no_table() {
    let dir = tempfile::tempdir().unwrap();
    let pdb_dir = dir.path().join("cache");
    let o = tilebench(&[
        "solve",
        "-H",
        "pdb-663",
        "--pdb-dir",
        pdb_dir.to_str().unwrap(),
        "1 2 3 4 5 6 7 8 9 10 11 12 13 15 14 0",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("search     ida with pdb-663\n"), "{out}");
    assert!(out.contains("unsolvable (parity rule)"), "{out}");
    let built = std::fs::read_dir(&pdb_dir).map_or(0, |d| d.count());
    assert_eq!(built, 0, "tables written to {}", pdb_dir.display());
    assert!(!stderr(&o).contains("building"), "{}", stderr(&o));
}

/// Korf's #1 without `--goal blank-first` is unsolvable for the default goal: the text says
/// for which named goals it is solvable.
#[test]
fn an_unsolvable_board_names_the_goals_it_is_solvable_for() {
    let korf1 = "14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3";
    let o = tilebench(&["solve", korf1]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("unsolvable (parity rule)"), "{out}");
    assert!(
        out.contains("hint       solvable with --goal blank-first\n"),
        "{out}"
    );
    // A solvable board gets no hint.
    let o = tilebench(&[
        "solve",
        "--goal",
        "blank-first",
        korf1,
        "--node-limit",
        "10",
    ]);
    assert!(!String::from_utf8_lossy(&o.stdout).contains("hint"));
}

#[test]
fn rectangular_board_with_explicit_size() {
    let o = tilebench(&["solve", "--size", "3x2", "--format", "json", "1 2 3 4 0 5"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["moves"], "R");
}

#[test]
fn bad_input_exits_2_with_a_clear_message() {
    let cases: &[(&[&str], &str)] = &[
        (&["solve", "1 2 3"], "square"),
        (&["solve", "1 2 3 4 5 6 7 8 8"], "more than once"),
        (&["solve", "1 2 3 4 5 6 7 8 9"], "out of range"),
        (&["solve", "1 2 3 4 5 six 7 8 0"], "'six'"),
        (&["solve", "--size", "3x3", "1 2 3 4 5 0"], "9 cells"),
        (
            &["solve", "--goal", "upside-down", "1 2 3 0"],
            "unknown goal",
        ),
        (
            &["solve", "--goal", "1 1 2 3", "1 2 3 0"],
            "not a permutation",
        ),
        (&["solve", "--size", "7x7", "1 2 3 0"], "invalid size"),
        (&["solve", "-H", "magic", "1 2 3 0"], "unknown heuristic"),
    ];
    for (args, needle) in cases {
        let o = tilebench(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let e = stderr(&o);
        assert!(e.contains(needle), "{args:?}: {e}");
        assert!(!e.contains("panicked"), "{args:?}: {e}");
    }
}

/// The spiral goal is shown with its layout (its name does not say where the blank is); the
/// familiar blank-last by name; the JSON keeps `goal` and adds `goal_tiles`.
#[test]
fn the_spiral_goal_is_shown_with_its_layout() {
    let o = tilebench(&["solve", "--goal", "spiral", "2,8,3,1,6,4,7,0,5"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(
        text.contains("(3x3, goal spiral (1 2 3 8 0 4 7 6 5))"),
        "{text}"
    );
    let o = tilebench(&["solve", "1 2 3 4 5 6 0 7 8"]);
    assert!(String::from_utf8_lossy(&o.stdout).contains("(3x3, goal blank-last)\n"));
    let o = tilebench(&[
        "solve",
        "--goal",
        "spiral",
        "--format",
        "json",
        "2,8,3,1,6,4,7,0,5",
    ]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["goal"], "spiral");
    assert_eq!(v["goal_tiles"], "1 2 3 8 0 4 7 6 5");
}
