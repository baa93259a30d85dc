//! `tilebench solve --algorithm`: the three algorithms end to end, their memory figures, and the
//! errors a student meets first.

use crate::common;

use common::bin::{fails, ok, stdout};

fn json(args: &[&str]) -> serde_json::Value {
    let o = ok(&[&["solve", "--format", "json"][..], args].concat());
    serde_json::from_slice(&o.stdout).unwrap()
}

#[test]
fn the_three_algorithms_agree_and_report_memory() {
    let board = "8 6 7 2 5 4 3 0 1"; // one of the two hardest 8-puzzle boards: 31 moves
    let bfs = json(&["--algorithm", "bfs", board]);
    let astar = json(&["--algorithm", "astar", "-H", "linear-conflict", board]);
    let ida = json(&["-H", "linear-conflict", board]);
    for (v, algorithm, heuristic) in [
        (&bfs, "bfs", "none"),
        (&astar, "astar", "linear-conflict"),
        (&ida, "ida", "linear-conflict"),
    ] {
        assert_eq!(v["algorithm"], algorithm);
        assert_eq!(v["heuristic"], heuristic);
        assert_eq!(v["status"], "solved");
        assert_eq!(v["length"], 31);
        assert_eq!(v["reopened"], 0);
        assert_eq!(v["table_bytes"], 0);
        let (stored, bytes) = (
            v["peak_stored"].as_u64().unwrap(),
            v["peak_bytes"].as_u64().unwrap(),
        );
        assert!(stored > 0 && bytes > stored);
        let per = v["bytes_per_state"].as_f64().unwrap();
        assert!((per - bytes as f64 / stored as f64).abs() < 1e-9);
    }
    // IDA* holds its path (32 states); BFS nearly all 181,440 states; A* far fewer.
    assert_eq!(ida["peak_stored"], 32);
    assert!(bfs["peak_stored"].as_u64().unwrap() > 150_000);
    let a = astar["peak_stored"].as_u64().unwrap();
    assert!(a > 32 && a < 100_000, "{a}");
    assert_eq!(astar["iterations"].as_array().unwrap().len(), 1);
}

#[test]
fn text_output_shows_memory_and_the_memory_limit_status() {
    let o = ok(&[
        "solve",
        "--algorithm",
        "bfs",
        "--memory-limit",
        "100K",
        "--goal",
        "blank-first",
        "14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3",
    ]);
    let out = stdout(&o);
    assert!(out.contains("search     bfs (no heuristic)"), "{out}");
    assert!(
        out.contains("stopped    memory-limit (no solution found)"),
        "{out}"
    );
    assert!(out.contains("(limit 100.0 KiB)"), "{out}");
}

#[test]
fn bad_algorithm_options_are_clear_errors() {
    let board = "1 2 3 4 0 5 7 8 6";
    let e = fails(&["solve", "--algorithm", "bfs", "-H", "manhattan", board]);
    assert!(e.contains("bfs takes no heuristic"), "{e}");
    let e = fails(&["solve", "--algorithm", "astar", "-H", "none", board]);
    assert!(e.contains("astar needs a heuristic"), "{e}");
    let e = fails(&["solve", "--algorithm", "dfs", board]);
    assert!(e.contains("unknown algorithm 'dfs'"), "{e}");
    for algorithm in ["astar", "bfs"] {
        let h = if algorithm == "bfs" {
            "none"
        } else {
            "manhattan"
        };
        let e = fails(&["solve", "-a", algorithm, "-H", h, "--threads", "2", board]);
        assert!(
            e.contains(&format!("{algorithm} runs on one thread: only IDA*")),
            "{e}"
        );
    }
    let e = fails(&["solve", "--memory-limit", "4X", board]);
    assert!(e.contains("unknown unit 'X'"), "{e}");
    let e = fails(&["solve", "--time-limit=-1", board]);
    assert!(
        e.contains("-1 is out of range: give seconds above 0"),
        "{e}"
    );
}
