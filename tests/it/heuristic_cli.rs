//! `walking-distance`, `max(…)` and `tilebench predict` end to end.

use crate::common;

use common::bin::{arg, fails, gen, ok, read_runs, stdout};
use common::fresh_dir;

#[test]
fn run_keeps_a_max_with_commas_as_one_heuristic() {
    let dir = fresh_dir("heuristic-cli-run");
    let set = gen(
        &dir,
        "w.txt",
        &["--size", "3x3", "--count", "3", "--seed", "5"],
    );
    let out = dir.join("results");
    ok(&[
        "run",
        "--instances",
        &set,
        "-H",
        "manhattan,max(walking-distance,linear-conflict)",
        "-H",
        "walking-distance",
        "--out",
        arg(&out),
        "--no-history",
        "-j",
        "1",
    ]);
    let runs = read_runs(&out);
    let mut names: Vec<&str> = runs.iter().map(|r| r.heuristic.as_str()).collect();
    names.dedup();
    assert_eq!(
        names[..3],
        [
            "manhattan",
            "max(walking-distance,linear-conflict)",
            "walking-distance"
        ]
    );
    assert_eq!(runs.len(), 9);
    // Same optimal length from every heuristic on each board.
    for chunk in runs.chunks(3) {
        assert!(chunk
            .iter()
            .all(|r| r.length == chunk[0].length && r.length.is_some()));
    }
}

#[test]
fn solve_with_max_and_walking_distance_and_clear_errors() {
    let board = "8 6 7 2 5 4 3 0 1";
    for h in ["walking-distance", "max(wd,lc)", "max(md,wd,lc)"] {
        let o = ok(&["solve", "-H", h, board]);
        assert!(stdout(&o).contains("length     31"), "{}", stdout(&o));
    }
    let e = fails(&["solve", "-H", "max(wd)", board]);
    assert!(
        e.contains("max(walking-distance)") && e.contains("1 heuristics"),
        "{e}"
    );
    let e = fails(&[
        "solve",
        "-H",
        "walking-distance",
        "--size",
        "5x5",
        &(0..25).map(|t| t.to_string()).collect::<Vec<_>>().join(" "),
    ]);
    assert!(e.contains("walking distance for 5x5"), "{e}");
}

#[test]
fn predict_writes_both_csv_files() {
    let dir = fresh_dir("heuristic-cli-predict");
    let (pred, dist) = (dir.join("p.csv"), dir.join("d.csv"));
    ok(&[
        "predict",
        "--size",
        "3x3",
        "-H",
        "walking-distance",
        "--bounds",
        "18..22",
        "--samples",
        "5000",
        "--seed",
        "3",
        "--out",
        arg(&pred),
        "--distribution",
        arg(&dist),
    ]);
    // Comment lines first, naming the command, the binary and the machine; then the rows.
    let p = std::fs::read_to_string(&pred).unwrap();
    let (comments, lines): (Vec<&str>, Vec<&str>) = p.lines().partition(|l| l.starts_with('#'));
    let command = comments.iter().find_map(|l| l.strip_prefix("# command: "));
    assert!(
        command
            .is_some_and(|c| c.contains("predict --size 3x3 -H walking-distance --bounds 18..22")),
        "{p}"
    );
    assert!(comments.iter().any(|l| l.starts_with("# machine: ")), "{p}");
    assert_eq!(lines[0], "bound,predicted_expanded,predicted_generated");
    assert_eq!(lines.len(), 6);
    let values: Vec<f64> = lines[1..]
        .iter()
        .map(|l| l.split(',').nth(2).unwrap().parse().unwrap())
        .collect();
    assert!(values.windows(2).all(|w| w[1] > w[0]), "{values:?}");
    let d = std::fs::read_to_string(&dist).unwrap();
    let last = d.lines().last().unwrap();
    assert!(last.ends_with(",1.000000"), "{last}");
    let samples: u64 = d
        .lines()
        .filter(|l| !l.starts_with('#'))
        .skip(1)
        .map(|l| l.split(',').nth(1).unwrap().parse::<u64>().unwrap())
        .sum();
    assert_eq!(samples, 5000);
    let e = fails(&["predict", "--bounds", "9..3"]);
    assert!(e.contains("bounds '9..3'"), "{e}");
}
