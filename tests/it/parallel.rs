//! Parallel IDA* (`SearchOptions::threads`, `tilebench solve --threads`): every iteration's
//! bound, expanded and generated counts, and the moves, are those of the one-thread search for
//! 1, 2, 3 and 8 threads; limits stop all threads.
//!
//! The expected counts are the golden file's (`tests/golden/node_counts.csv`, the one-thread
//! counts): every 3×3 case, every 4×4 walk with every 15-puzzle heuristic, the 5×5 walks with
//! pdb-6666r, and the Korf instances whose search is small. Tables come from the cache
//! (`TILEBENCH_TEST_PDB_DIR`, see `common::test_pdb_dir`), built if missing, as for the golden test.

use crate::common;

use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use tilebench::board::{Board, Goal, Size};
use tilebench::heuristic::{HeuristicName, Prepared};
use tilebench::search::{Limits, RunStatus, SearchOptions, SearchResult};

use common::bin::{fails, ok, stdout};

const THREADS: [usize; 4] = [1, 2, 3, 8];

/// Korf cases from the golden file are checked when their search generates at most this many.
const KORF_MAX_GENERATED: u64 = 3_000_000;

const KORF_1: &str = "14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3";

/// One search of the golden file: its board and its one-thread iterations.
struct Golden {
    case: String,
    heuristic: String,
    size: String,
    goal: String,
    tiles: String,
    /// (bound, expanded, generated) per iteration.
    iterations: Vec<(u32, u64, u64)>,
    length: usize,
}

fn golden() -> Vec<Golden> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/node_counts.csv");
    let text = std::fs::read_to_string(&path).expect("the golden file is committed");
    let mut out: Vec<Golden> = Vec::new();
    for line in text.lines().filter(|l| !l.starts_with('#')).skip(1) {
        // A max(A,B) heuristic keeps its commas: the fields after it are counted from the end.
        let all: Vec<&str> = line.split(',').collect();
        assert!(all.len() >= 10, "{line}");
        let heuristic = all[1..all.len() - 8].join(",");
        let mut f: Vec<&str> = vec![all[0], &heuristic];
        f.extend_from_slice(&all[all.len() - 8..]);
        let it = (
            f[6].parse().unwrap(),
            f[7].parse().unwrap(),
            f[8].parse().unwrap(),
        );
        match out.last_mut() {
            Some(g) if g.case == f[0] && g.heuristic == f[1] => g.iterations.push(it),
            _ => out.push(Golden {
                case: f[0].into(),
                heuristic: f[1].into(),
                size: f[2].into(),
                goal: f[3].into(),
                tiles: f[4].into(),
                iterations: vec![it],
                length: f[9].parse().unwrap(),
            }),
        }
    }
    out
}

fn counts(r: &SearchResult) -> Vec<(u32, u64, u64)> {
    r.iterations
        .iter()
        .map(|i| (i.bound, i.expanded, i.generated))
        .collect()
}

#[test]
fn counts_and_moves_match_the_one_thread_search_for_every_thread_count() {
    let mut searches: Vec<Golden> = golden()
        .into_iter()
        .filter(|g| {
            !g.case.starts_with("korf")
                || g.iterations.iter().map(|i| i.2).sum::<u64>() <= KORF_MAX_GENERATED
        })
        .collect();
    // One heuristic's tables in memory at a time.
    searches.sort_by(|a, b| (&a.heuristic, &a.goal).cmp(&(&b.heuristic, &b.goal)));
    let options = common::test_pdb_options();
    let mut prepared: Option<((String, String, String), Prepared)> = None;
    let mut checked = [0usize; 3];
    for g in &searches {
        let size = Size::parse(&g.size).unwrap();
        let goal = Goal::parse(&g.goal, size).unwrap();
        let key = (g.heuristic.clone(), g.size.clone(), g.goal.clone());
        if prepared.as_ref().is_none_or(|(k, _)| *k != key) {
            let name: HeuristicName = g.heuristic.parse().unwrap();
            prepared = Some((key, Prepared::new(&name, &goal, &options).unwrap()));
        }
        let h = &prepared.as_ref().unwrap().1;
        let board = Board::parse(&g.tiles, Some(size)).unwrap();
        let mut one_thread_moves = None;
        for threads in THREADS {
            let o = SearchOptions {
                threads,
                ..SearchOptions::default()
            };
            let r = tilebench::search::solve(Some(h), &board, &goal, &o)
                .unwrap()
                .result;
            let what = format!("{} {} threads {threads}", g.case, g.heuristic);
            assert_eq!(r.status, RunStatus::Solved, "{what}");
            assert_eq!(counts(&r), g.iterations, "{what}");
            assert_eq!(r.length(), Some(g.length), "{what}");
            assert!(board.replays_to(&r.moves, &goal), "{what}");
            match &one_thread_moves {
                None => one_thread_moves = Some(r.moves),
                Some(m) => assert_eq!(&r.moves, m, "{what}: not the one-thread moves"),
            }
        }
        checked[match size.cells() {
            9 => 0,
            16 => 1,
            _ => 2,
        }] += 1;
    }
    // The set covers every family (the sizes' counts are those of the golden file).
    assert!(checked[0] >= 24 * 4, "3x3 searches: {}", checked[0]);
    assert!(checked[1] >= 10 * 8, "4x4 searches: {}", checked[1]);
    assert!(checked[2] >= 1, "5x5 searches: {}", checked[2]);
}

fn korf_1(name: &str) -> (Board, Goal, Prepared) {
    let goal = Goal::blank_first(Size::new(4, 4).unwrap());
    let board = Board::parse(KORF_1, None).unwrap();
    let h = Prepared::new(&name.parse().unwrap(), &goal, &common::test_pdb_options()).unwrap();
    (board, goal, h)
}

#[test]
fn node_limit_counts_all_threads() {
    for name in ["manhattan", "linear-conflict"] {
        let (board, goal, h) = korf_1(name);
        let limit = 3_000_000;
        let o = SearchOptions {
            limits: Limits {
                node_limit: Some(limit),
                ..Limits::none()
            },
            threads: 8,
            checkpoint: None,
            ..SearchOptions::default()
        };
        let r = tilebench::search::solve(Some(&h), &board, &goal, &o)
            .unwrap()
            .result;
        assert_eq!(r.status, RunStatus::NodeLimit, "{name}");
        assert!(r.moves.is_empty());
        // At most the limit in all, and short of it by less than what 8 threads reserve.
        let g = r.generated();
        assert!(
            g <= limit && g > limit - 8 * 65_536,
            "{name}: {g} generated"
        );
    }
}

/// Korf's #88 under Manhattan: 6,009,130,748 nodes, a minute or more on any machine, so a
/// one-second limit or a cancel after 0.2 s always stops it, and a stop within 20 s (the
/// threads look at the clock every 65,536 nodes, milliseconds apart) leaves a wide margin on a
/// loaded machine: no clock reading is near either end.
const KORF_88: &str = "15 2 12 11 14 13 9 5 1 3 8 7 0 10 6 4";

#[test]
fn time_limit_and_cancel_stop_all_threads_promptly() {
    let goal = Goal::blank_first(Size::new(4, 4).unwrap());
    let board = Board::parse(KORF_88, None).unwrap();
    let h = Prepared::new(
        &"manhattan".parse().unwrap(),
        &goal,
        &common::test_pdb_options(),
    )
    .unwrap();
    let o = SearchOptions {
        limits: Limits {
            time_limit: Some(Duration::from_secs(1)),
            ..Limits::none()
        },
        threads: 8,
        checkpoint: None,
        ..SearchOptions::default()
    };
    let r = tilebench::search::solve(Some(&h), &board, &goal, &o)
        .unwrap()
        .result;
    assert_eq!(r.status, RunStatus::TimeLimit);
    assert!(
        r.seconds >= 1.0 && r.seconds < 20.0,
        "stopped after {} s",
        r.seconds
    );

    let flag = Arc::new(AtomicBool::new(false));
    let o = SearchOptions {
        limits: Limits {
            cancel: Some(flag.clone()),
            ..Limits::none()
        },
        threads: 8,
        checkpoint: None,
        ..SearchOptions::default()
    };
    let setter = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(200));
        flag.store(true, Ordering::Relaxed);
    });
    let r = tilebench::search::solve(Some(&h), &board, &goal, &o)
        .unwrap()
        .result;
    setter.join().unwrap();
    assert_eq!(r.status, RunStatus::Cancelled);
    assert!(r.seconds < 20.0, "stopped after {} s", r.seconds);
}

#[test]
fn solve_threads_flag_gives_the_one_thread_result() {
    let json = |threads: &str| -> serde_json::Value {
        let o = ok(&[
            "solve",
            "--format",
            "json",
            "-H",
            "linear-conflict",
            "--goal",
            "blank-first",
            "--threads",
            threads,
            KORF_1,
        ]);
        serde_json::from_str(&stdout(&o)).unwrap()
    };
    let one = json("1");
    let three = json("3");
    for key in ["moves", "length", "nodes_expanded", "nodes_generated"] {
        assert_eq!(one[key], three[key], "{key}");
    }
    assert_eq!(one["nodes_generated"], 12_205_622);
    assert_eq!(three["threads"], 3);
    let strip = |v: &serde_json::Value| -> Vec<(u64, u64, u64)> {
        v["iterations"]
            .as_array()
            .unwrap()
            .iter()
            .map(|i| {
                (
                    i["bound"].as_u64().unwrap(),
                    i["expanded"].as_u64().unwrap(),
                    i["generated"].as_u64().unwrap(),
                )
            })
            .collect()
    };
    assert_eq!(strip(&one), strip(&three));
    let err = fails(&["solve", "--threads", "0", "1 2 3 4 5 6 7 0 8"]);
    assert!(err.contains("--threads"), "{err}");
}
