//! Duplicate-path pruning by the finite-state machine (`--pruning fsm`) against ground truth:
//! breadth-first distances on every 3×3 state and on 15-puzzle walks, node counts against parent
//! pruning, exact counting under a node limit, and the option end to end (solve, run, resume).
//!
//! Cost: about 15 s in release mode on a 2-core machine (most of it the 3×3 state spaces; 48 s
//! measured with the machine loaded 6-fold).

use crate::common;

use rand_chacha::rand_core::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;

use common::bin::{arg, fails, meta, ok, read_runs, run, stderr, stdout};
use tilebench::board::{Board, Goal, Size};
use tilebench::brute_force::{distance_bidirectional, distances, unrank, UNREACHED};
use tilebench::heuristic::{Heuristic, LinearConflict, Manhattan, Prepared};
use tilebench::moves::Dir;
use tilebench::search::{Limits, Pruning, RunStatus, SearchOptions, SearchResult};

fn with(pruning: Pruning, limits: Limits) -> SearchOptions {
    SearchOptions {
        limits,
        pruning,
        ..SearchOptions::default()
    }
}

/// IDA* with `h` under `options`, through the one entry point.
fn ida_with<H: Heuristic + Clone + std::fmt::Debug + Send + 'static>(
    b: &Board,
    goal: &Goal,
    h: &H,
    options: &SearchOptions,
) -> SearchResult {
    let h = Prepared::of(h.clone());
    tilebench::search::solve(Some(&h), b, goal, options)
        .unwrap()
        .result
}

fn solve<H: Heuristic + Clone + std::fmt::Debug + Send + 'static>(
    b: &Board,
    goal: &Goal,
    h: &H,
    pruning: Pruning,
) -> SearchResult {
    ida_with(b, goal, h, &with(pruning, Limits::none()))
}

fn counts(r: &SearchResult) -> Vec<(u32, u64, u64)> {
    r.iterations
        .iter()
        .map(|i| (i.bound, i.expanded, i.generated))
        .collect()
}

/// `fsm` against `parent` on one board: the same (optimal) length, and no iteration that both
/// ran to its end (every one but the last) generated more nodes under the machine.
fn compare(fsm: &SearchResult, parent: &SearchResult, what: &str) {
    assert_eq!(fsm.length(), parent.length(), "{what}");
    let last = parent.iterations.len().saturating_sub(1);
    for it in &fsm.iterations {
        if let Some(p) = parent.iterations[..last]
            .iter()
            .find(|p| p.bound == it.bound)
        {
            assert!(
                it.generated <= p.generated,
                "{what}: bound {} fsm {} parent {}",
                it.bound,
                it.generated,
                p.generated
            );
        }
    }
}

/// Every solvable state of `goal`'s 3×3 board: IDA* with the machine gives the BFS distance and
/// a path that replays, under Manhattan (packed kernel) and, `with_lc`, linear conflict (generic
/// kernel);
/// returns the nodes generated in all under fsm and under parent pruning, and how many states
/// the machine searched with more nodes than parent pruning.
fn every_state(goal: &Goal, with_lc: bool) -> (u64, u64, usize) {
    let n = goal.size().cells();
    let dist = distances(goal);
    let (md, lc) = (Manhattan::new(goal), LinearConflict::new(goal));
    let (fsm, parent, above, states) = (0..dist.len())
        .into_par_iter()
        .filter(|&r| dist[r] != UNREACHED)
        .map(|r| {
            let b = Board::from_tiles(goal.size(), &unrank(r, n)).unwrap();
            let d = dist[r] as usize;
            let mut sums = (0u64, 0u64, 0usize, 1usize);
            let f = solve(&b, goal, &md, Pruning::Fsm);
            let p = solve(&b, goal, &md, Pruning::Parent);
            assert_eq!(f.length(), Some(d), "{b}");
            assert!(b.replays_to(&f.moves, goal), "{b}");
            if with_lc {
                let fl = solve(&b, goal, &lc, Pruning::Fsm);
                assert_eq!(fl.length(), Some(d), "{b} lc");
                assert!(b.replays_to(&fl.moves, goal), "{b} lc");
            }
            compare(&f, &p, &format!("{b} md"));
            sums.0 += f.generated();
            sums.1 += p.generated();
            sums.2 += usize::from(f.generated() > p.generated());
            sums
        })
        .reduce(
            || (0, 0, 0, 0),
            |a, b| (a.0 + b.0, a.1 + b.1, a.2 + b.2, a.3 + b.3),
        );
    assert_eq!(states, 181_440);
    (fsm, parent, above)
}

#[test]
fn every_3x3_state_keeps_its_bfs_distance_with_fewer_nodes() {
    let s = Size::new(3, 3).unwrap();
    for (goal, with_lc) in [(Goal::blank_last(s), true), (Goal::spiral(s), false)] {
        let (fsm, parent, above) = every_state(&goal, with_lc);
        // The machine prunes: clearly fewer nodes over the whole state space.
        assert!(
            (fsm as f64) < 0.9 * parent as f64,
            "{}: fsm {fsm} parent {parent}",
            goal.name()
        );
        // The last iteration stops at the first solution, which the machine may have pruned
        // (another of the same length then comes later): a few boards may count more.
        assert!(
            above * 100 < 181_440,
            "{}: {above} boards above",
            goal.name()
        );
    }
}

/// A random walk of `steps` moves from the goal, never undoing the previous move.
fn walk(goal: &Goal, steps: usize, rng: &mut ChaCha8Rng) -> Board {
    let mut b = goal.as_board();
    let mut last: Option<Dir> = None;
    let mut done = 0;
    while done < steps {
        let d = Dir::ORDER[(rng.next_u32() % 4) as usize];
        if Some(d.opposite()) == last || b.neighbour(d).is_none() {
            continue;
        }
        b.apply(d).unwrap();
        last = Some(d);
        done += 1;
    }
    b
}

/// 15-puzzle walks of up to 30 moves: the machine's length is the bidirectional BFS distance,
/// under both kernels, and the completed iterations count no more than parent pruning's.
#[test]
fn fifteen_puzzle_walks_keep_their_bfs_distance() {
    let mut rng = ChaCha8Rng::seed_from_u64(31);
    let goal = Goal::blank_first(Size::new(4, 4).unwrap());
    let (md, lc) = (Manhattan::new(&goal), LinearConflict::new(&goal));
    for steps in [10, 16, 20, 24, 26, 28, 30, 30] {
        let b = walk(&goal, steps, &mut rng);
        let d = distance_bidirectional(&b, &goal, 30).expect("within 30 moves by construction");
        let (f, p) = (
            solve(&b, &goal, &md, Pruning::Fsm),
            solve(&b, &goal, &md, Pruning::Parent),
        );
        assert_eq!(f.length(), Some(d), "{b}");
        assert!(b.replays_to(&f.moves, &goal));
        compare(&f, &p, &format!("{b}"));
        let fl = solve(&b, &goal, &lc, Pruning::Fsm);
        assert_eq!(fl.length(), Some(d), "{b}");
        assert!(b.replays_to(&fl.moves, &goal));
    }
}

/// The packed kernel counts per node without a node limit and per child with one: with the
/// machine pruning children in between, both give the same counts, and a limit stops the search
/// at exactly that many nodes.
#[test]
fn counts_with_and_without_a_node_limit_agree() {
    let goal = Goal::blank_first(Size::new(4, 4).unwrap());
    let md = Manhattan::new(&goal);
    // A 49-move board (Manhattan 39): 1.2 million nodes.
    let b = Board::parse("8 11 4 6 7 3 10 9 2 12 15 13 0 1 5 14", None).unwrap();
    let free = solve(&b, &goal, &md, Pruning::Fsm);
    let huge = Limits {
        node_limit: Some(u64::MAX / 2),
        ..Limits::none()
    };
    let exact = ida_with(&b, &goal, &md, &with(Pruning::Fsm, huge));
    assert_eq!(free.status, RunStatus::Solved);
    assert_eq!(counts(&free), counts(&exact));
    assert_eq!(free.moves, exact.moves);
    let limit = free.generated() / 2;
    let cut = Limits {
        node_limit: Some(limit),
        ..Limits::none()
    };
    let r = ida_with(&b, &goal, &md, &with(Pruning::Fsm, cut));
    assert_eq!(r.status, RunStatus::NodeLimit);
    assert_eq!(r.generated(), limit);
}

/// Two threads count what one does under the machine, and give the same moves.
#[test]
fn two_threads_count_as_one_with_the_machine() {
    let goal = Goal::blank_first(Size::new(4, 4).unwrap());
    let lc = LinearConflict::new(&goal);
    let b = Board::parse("8 11 4 6 7 3 10 9 2 12 15 13 0 1 5 14", None).unwrap();
    let one = solve(&b, &goal, &lc, Pruning::Fsm);
    let two = ida_with(
        &b,
        &goal,
        &lc,
        &SearchOptions {
            threads: 2,
            ..with(Pruning::Fsm, Limits::none())
        },
    );
    assert_eq!(counts(&one), counts(&two));
    assert_eq!(one.moves, two.moves);
}

/// `solve --pruning fsm` finds the same length with fewer nodes; A* refuses the option; `run`
/// records it in meta.json, and `--resume` without it is refused, naming the pruning.
/// The machine is built once a process before the search, like a pattern database: on 5x5
/// (seconds to build) a search with a time limit shorter than the build still searches for its
/// whole limit, and `plan`'s short calibration search measures a speed (it measured 0 nodes/s
/// when the build ran inside the search's clock).
#[test]
fn building_the_machine_is_not_search_time() {
    let o = ok(&[
        "solve",
        "--goal",
        "blank-first",
        "--pruning",
        "fsm",
        "--time-limit",
        "1",
        "--format",
        "json",
        "21 22 15 9 24 12 16 23 2 8 5 18 17 7 10 14 13 4 0 6 20 11 3 1 19",
    ]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["status"], "time-limit", "{v}");
    assert!(v["nodes_generated"].as_u64().unwrap() > 0, "{v}");
}

#[test]
fn the_option_end_to_end() {
    let board = "8 11 4 6 7 3 10 9 2 12 15 13 0 1 5 14";
    let out = |p: &str| {
        let o = ok(&[
            "solve",
            "--goal",
            "blank-first",
            "--pruning",
            p,
            "--format",
            "json",
            board,
        ]);
        let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
        (
            v["length"].as_u64().unwrap(),
            v["nodes_generated"].as_u64().unwrap(),
        )
    };
    let (parent, fsm) = (out("parent"), out("fsm"));
    assert_eq!(parent.0, fsm.0);
    assert!(fsm.1 < parent.1, "fsm {fsm:?} parent {parent:?}");
    let err = fails(&["solve", "-a", "astar", "--pruning", "fsm", board]);
    assert!(err.contains("--pruning fsm"), "{err}");
    let err = fails(&["solve", "--pruning", "sideways", board]);
    assert!(err.contains("unknown pruning 'sideways'"), "{err}");

    let dir = common::fresh_dir("fsm-run");
    let results = dir.join("out");
    let args = |extra: &[&str]| -> Vec<String> {
        let mut a: Vec<String> = [
            "run",
            "--instances",
            "instances/korf100.txt:30-31",
            "-H",
            "linear-conflict",
            "--jobs",
            "1",
            "--no-history",
            "--out",
            arg(&results),
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        a.extend(extra.iter().map(|s| s.to_string()));
        a
    };
    let argv = args(&["--pruning", "fsm", "--only-ids", "30"]);
    let o = run(&argv.iter().map(String::as_str).collect::<Vec<_>>());
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(meta(&results)["experiment"]["pruning"], "fsm");
    let rows = read_runs(&results);
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0].length, rows[0].optimal_length);
    assert!(rows[0].verified);
    let argv = args(&["--resume"]);
    let o = run(&argv.iter().map(String::as_str).collect::<Vec<_>>());
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("pruning: fsm before, parent now"),
        "{}",
        stderr(&o)
    );
}
