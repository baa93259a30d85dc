//! `tilebench plan` end to end on a small experiment: published counts where the instance file
//! has them (Korf 1985's Manhattan column), predictions from conditional distributions otherwise, a Slurm shape.
//!
//! Cost: about 3 s in release mode (two calibration searches of 0.2 s, sampling for the predictions).

use crate::common;

use common::bin::{fails, ok, stdout};

#[test]
fn plan_counts_sources_and_prints_a_slurm_shape() {
    let o = ok(&[
        "plan",
        "--instances",
        "instances/korf100.txt:1-3",
        "-H",
        "manhattan,linear-conflict",
        "--calibrate",
        "0.2",
        "--samples",
        "2000",
        "--cores",
        "2",
        "--cluster-cores",
        "4",
        "--per-pair",
    ]);
    let out = stdout(&o);
    assert!(
        out.contains("6 pairs: 3 with a published count, 3 predicted, 0 unknown"),
        "{out}"
    );
    // Korf's #1 under Manhattan: his published 276,361,933 nodes (the root counted).
    assert!(out.contains("korf100\t1\tmanhattan\t2.764e8"), "{out}");
    assert!(
        out.contains("slurm: --tasks 4 --cpus-per-task 1 --time "),
        "{out}"
    );
    assert!(out.contains("speed manhattan: "), "{out}");
    assert!(
        out.contains("note: a prediction follows the instance's own h down the tree"),
        "{out}"
    );
    // Korf's #1 under linear conflict took 12,205,622 nodes; the prediction is of that order
    // (KRE's mean over random boards of 57 moves said 1.6e9).
    let row = out
        .lines()
        .find(|l| l.starts_with("korf100\t1\tlinear-conflict\t"))
        .unwrap();
    let nodes: f64 = row.split('\t').nth(3).unwrap().parse().unwrap();
    assert!((1.2e6..2.4e8).contains(&nodes), "{row}");
    // Every pair with a count has a time above 0, however short (Korf's #2 under Manhattan,
    // 1.5e7 nodes, is a fraction of a second, once printed "0"), in a number a script reads.
    for row in out.lines().filter(|l| l.starts_with("korf100\t")) {
        let seconds: f64 = row.split('\t').nth(4).unwrap().parse().unwrap();
        assert!(seconds > 0.0, "{row}");
    }
    // A pair expected past --time-limit counts the limit (Korf's #1 would need 2.8e9 nodes/s).
    let o = ok(&[
        "plan",
        "--instances",
        "instances/korf100.txt:1",
        "-H",
        "manhattan",
        "--time-limit",
        "0.1",
        "--calibrate",
        "0.2",
    ]);
    let out = stdout(&o);
    assert!(
        out.contains("note: 1 pair(s) expected to need more than --time-limit 0.1 s"),
        "{out}"
    );
    assert!(out.contains("of one core; on "), "{out}");
    // 0.1 s is not "0 s".
    assert!(out.contains("(longest pair 0.10 s)"), "{out}");
    // A*'s and BFS's pairs: no figure, said so; the method column tells them from IDA*'s.
    let o = ok(&[
        "plan",
        "--instances",
        "instances/korf100.txt:2",
        "--algorithm",
        "astar,bfs",
        "-H",
        "manhattan",
        "--calibrate",
        "0.2",
        "--per-pair",
    ]);
    let out = stdout(&o);
    assert!(
        out.contains("korf100\t2\tastar+manhattan\t-\t-\tunknown"),
        "{out}"
    );
    assert!(out.contains("korf100\t2\tbfs\t-\t-\tunknown"), "{out}");
    assert!(
        out.contains("expected: unknown (no pair has a count or a prediction)"),
        "{out}"
    );
    let err = fails(&[
        "plan",
        "--instances",
        "instances/korf100.txt:1-3",
        "--cores",
        "0",
    ]);
    assert!(err.contains("at least 1"), "{err}");
    let err = fails(&["plan", "--extrapolate", "0"]);
    assert!(err.contains("--extrapolate 0: give seconds"), "{err}");
}

/// `--extrapolate`: each pair without a published count is searched briefly and its growth
/// carried on to its optimal length; a pair solved within the search gets its exact count.
#[test]
fn extrapolation_estimates_each_instance_from_its_own_search() {
    let plan = |instances: &str| {
        let o = ok(&[
            "plan",
            "--instances",
            instances,
            "-H",
            "linear-conflict",
            "--calibrate",
            "0.2",
            "--samples",
            "200",
            "--extrapolate",
            "0.3",
            "--per-pair",
        ]);
        stdout(&o)
    };
    // Korf's #1 (57 moves), not solved in 0.3 s: extrapolated from its complete iterations.
    let out = plan("instances/korf100.txt:1");
    assert!(
        out.contains(
            "1 pairs: 0 with a published count, 1 extrapolated from their own search, \
                      0 predicted, 0 unknown"
        ),
        "{out}"
    );
    let row = out.lines().find(|l| l.starts_with("korf100\t1\t")).unwrap();
    assert!(
        row.ends_with("extrapolated from its own short search"),
        "{row}"
    );
    // Korf's #79 (42 moves) solves within the search: its exact count.
    let out = plan("instances/korf100.txt:79");
    let solved = ok(&[
        "solve",
        "-H",
        "linear-conflict",
        "--goal",
        "blank-first",
        "--format",
        "json",
        "0 1 9 7 11 13 5 3 14 12 4 2 8 6 10 15",
    ]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&solved)).unwrap();
    let exact = v["nodes_generated"].as_u64().unwrap() as f64;
    let row = out
        .lines()
        .find(|l| l.starts_with("korf100\t79\t"))
        .unwrap();
    let nodes: f64 = row.split('\t').nth(3).unwrap().parse().unwrap();
    assert!((nodes / exact - 1.0).abs() < 1e-3, "{row} vs {exact}");
}

/// `--speed-from`: each heuristic's median speed over earlier IDA* rows, per search thread, so
/// that a campaign's rows searched on two threads give the speed of one core.
#[test]
fn stored_speeds_count_per_search_thread() {
    let dir = common::fresh_dir("plan-speed-from");
    let one = dir.join("one-thread");
    let two = dir.join("two-threads");
    let csv = std::fs::read_to_string("results/korf100/runs.csv").unwrap();
    let column = csv
        .lines()
        .next()
        .unwrap()
        .split(',')
        .position(|c| c == "search_threads")
        .unwrap();
    // The same rows, as if each had been searched on two threads at the same total speed.
    let doubled: Vec<String> = csv
        .lines()
        .enumerate()
        .map(|(i, line)| {
            let mut cells: Vec<&str> = line.split(',').collect();
            if i > 0 && cells.len() > column {
                assert_eq!(cells[column], "1", "{line}");
                cells[column] = "2";
            }
            cells.join(",")
        })
        .collect();
    for (d, text) in [(&one, csv.clone()), (&two, doubled.join("\n") + "\n")] {
        std::fs::create_dir_all(d).unwrap();
        std::fs::write(d.join("runs.csv"), text).unwrap();
    }
    let speed = |from: &std::path::Path| {
        let o = ok(&[
            "plan",
            "--instances",
            "instances/korf100.txt:1",
            "-H",
            "manhattan",
            "--speed-from",
            common::bin::arg(from),
        ]);
        let out = stdout(&o);
        let line = out
            .lines()
            .find(|l| l.starts_with("speed manhattan: "))
            .unwrap_or_else(|| panic!("{out}"));
        assert!(line.contains("(median per search thread of "), "{line}");
        let v: f64 = line["speed manhattan: ".len()..]
            .split(' ')
            .next()
            .unwrap()
            .parse()
            .unwrap();
        v
    };
    // A heuristic without such rows is calibrated instead, and the line says why.
    let o = ok(&[
        "plan",
        "--instances",
        "instances/korf100.txt:1",
        "-H",
        "walking-distance",
        "--calibrate",
        "0.2",
        "--speed-from",
        common::bin::arg(&one),
    ]);
    let out = stdout(&o);
    assert!(
        out.contains(&format!(
            "calibration search of instance 1; {} has no IDA* walking-distance row of a second or \
             more)",
            one.display()
        )),
        "{out}"
    );
    let (a, b) = (speed(&one), speed(&two));
    // Korf's 100 under Manhattan on one thread of this project's machines: 1e7 to 1e9 nodes/s.
    assert!((1e7..1e9).contains(&a), "{a}");
    assert!(
        (b / (a / 2.0) - 1.0).abs() < 2e-3,
        "one thread {a}, two {b}"
    );
}
