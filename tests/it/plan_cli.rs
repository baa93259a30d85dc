//! `tilebench plan` end to end on a small experiment: published counts where the instance file
//! has them (Korf 1985's Manhattan column), KRE predictions otherwise, a Slurm shape.
//!
//! Cost: about 3 s in release mode (two calibration searches of 0.2 s, KRE sampling).

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
        out.contains("6 pairs: 3 with a published count, 3 predicted (KRE), 0 unknown"),
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
        out.contains("note: a KRE prediction is the mean over random boards"),
        "{out}"
    );
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
}
