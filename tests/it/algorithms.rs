//! A*, breadth-first search and IDA* against each other and against the brute-force distances:
//! every returned path replays to the goal and has the optimal length, whatever the heuristic
//! (consistent or not), and the memory limit is kept.

use rand_chacha::rand_core::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;

use tilebench::board::{Board, Goal, Size};
use tilebench::brute_force::{distances, unrank, UNREACHED};
use tilebench::heuristic::{HeuristicName, Prepared};
use tilebench::instances::generate::{boards, Sampling, Spec};
use tilebench::search::{Algorithm, Limits, Outcome, RunStatus, SearchError, SearchOptions};

fn size(w: usize, h: usize) -> Size {
    Size::new(w, h).unwrap()
}

/// The heuristic from the tests' one pattern-database cache (`common::test_pdb_dir`).
fn prepared(name: &str, goal: &Goal) -> Prepared {
    let name: HeuristicName = name.parse().unwrap();
    Prepared::new(&name, goal, &crate::common::test_pdb_options()).unwrap()
}

/// The one entry point with `algorithm` in `options`.
fn solve(
    algorithm: Algorithm,
    h: Option<&Prepared>,
    board: &Board,
    goal: &Goal,
    options: &SearchOptions,
) -> Result<Outcome, SearchError> {
    let options = SearchOptions {
        algorithm,
        ..options.clone()
    };
    tilebench::search::solve(h, board, goal, &options)
}

fn run(a: Algorithm, h: Option<&Prepared>, board: &Board, goal: &Goal) -> Outcome {
    solve(a, h, board, goal, &SearchOptions::default()).unwrap()
}

/// The outcome's length, after checking that its moves replay to the goal.
fn length(o: &Outcome, board: &Board, goal: &Goal) -> Option<usize> {
    if o.result.status == RunStatus::Solved {
        assert!(
            board.replays_to(&o.result.moves, goal),
            "{} on {board}: the moves do not replay to the goal",
            o.algorithm
        );
    }
    o.result.length()
}

/// Boards of `goal`'s size with the given ranks, and their exact distances (None: unsolvable).
fn ranked(goal: &Goal, ranks: impl Iterator<Item = usize>) -> Vec<(Board, Option<usize>)> {
    let dist = distances(goal);
    let n = goal.size().cells();
    ranks
        .map(|r| {
            let b = Board::from_tiles(goal.size(), &unrank(r, n)).unwrap();
            let d = (dist[r] != UNREACHED).then_some(dist[r] as usize);
            (b, d)
        })
        .collect()
}

#[test]
fn bfs_gives_the_exact_distance_of_every_2x3_state() {
    for goal in [Goal::blank_last(size(3, 2)), Goal::spiral(size(2, 3))] {
        let cases = ranked(&goal, 0..720);
        for (board, d) in &cases {
            let o = run(Algorithm::Bfs, None, board, &goal);
            assert_eq!(length(&o, board, &goal), *d, "{board}");
            // Everything generated fits the 2×3 state space.
            assert!(o.memory.peak_stored <= 360);
            assert_eq!(o.reopened, 0);
        }
    }
}

#[test]
fn bfs_gives_the_exact_distance_on_a_sample_of_3x3_states() {
    let goal = Goal::blank_last(size(3, 3));
    let mut rng = ChaCha8Rng::seed_from_u64(14);
    let ranks: Vec<usize> = (0..400)
        .map(|_| rng.next_u32() as usize % 362_880)
        .collect();
    let cases = ranked(&goal, ranks.into_iter());
    cases.par_iter().for_each(|(board, d)| {
        let o = run(Algorithm::Bfs, None, board, &goal);
        assert_eq!(length(&o, board, &goal), *d, "{board}");
        if d.is_some() {
            assert!(o.memory.peak_stored <= 181_440);
            assert!(o.memory.peak_bytes >= o.memory.peak_stored * 16);
        }
    });
}

#[test]
fn astar_and_ida_are_optimal_on_3x3_states() {
    // Every third board for A* (60,480 solvable), every 60th for IDA*. Manhattan and linear conflict are consistent, the pattern databases are not (they keep
    // the minimum over the blank's regions), so A* must reopen states to stay optimal.
    let goal = Goal::blank_last(size(3, 3));
    let cases = ranked(&goal, (0..362_880).step_by(3));
    for name in ["manhattan", "linear-conflict", "pdb:1,2,3,4/5,6,7,8"] {
        let h = prepared(name, &goal);
        let reopened: u64 = cases
            .par_iter()
            .map(|(board, d)| {
                let a = run(Algorithm::Astar, Some(&h), board, &goal);
                assert_eq!(length(&a, board, &goal), *d, "A* with {name} on {board}");
                if name != "pdb:1,2,3,4/5,6,7,8" {
                    assert_eq!(a.reopened, 0, "A* with {name} reopened on {board}");
                }
                a.reopened
            })
            .sum();
        println!("A* with {name}: {reopened} states reopened");
        // IDA* on every 60th board (it re-expands, so all would be slow with Manhattan).
        cases.par_iter().step_by(20).for_each(|(board, d)| {
            let i = run(Algorithm::Ida, Some(&h), board, &goal);
            assert_eq!(length(&i, board, &goal), *d, "IDA* with {name} on {board}");
        });
    }
}

#[test]
fn astar_reopens_states_under_an_inconsistent_pattern_database() {
    // Shows that the 3×3 test above really exercises reopening: some board needs it.
    let goal = Goal::blank_last(size(3, 3));
    let h = prepared("pdb:1,2,3,4/5,6,7,8", &goal);
    let cases = ranked(&goal, (0..362_880).step_by(7));
    let reopened: u64 = cases
        .par_iter()
        .map(|(b, _)| run(Algorithm::Astar, Some(&h), b, &goal).reopened)
        .sum();
    assert!(reopened > 0);
}

#[test]
fn astar_and_ida_agree_on_seeded_4x4_walks_with_each_heuristic() {
    let goal = Goal::blank_first(size(4, 4));
    let spec = Spec {
        size: size(4, 4),
        goal: goal.clone(),
        count: 8,
        seed: 14,
        sampling: Sampling::Walk(50),
    };
    let set = boards(&spec).unwrap();
    for name in [
        "manhattan",
        "linear-conflict",
        "pdb-555",
        "pdb-663",
        "pdb-663r",
    ] {
        let h = prepared(name, &goal);
        set.par_iter().for_each(|board| {
            let i = run(Algorithm::Ida, Some(&h), board, &goal);
            let a = run(Algorithm::Astar, Some(&h), board, &goal);
            let li = length(&i, board, &goal);
            assert!(li.is_some());
            assert_eq!(
                length(&a, board, &goal),
                li,
                "A* vs IDA* with {name} on {board}"
            );
            if name == "manhattan" || name == "linear-conflict" {
                assert_eq!(a.reopened, 0, "A* with {name} reopened on {board}");
            }
            assert_eq!(i.memory.peak_stored, li.unwrap() as u64 + 1);
            assert!(a.memory.peak_stored > i.memory.peak_stored || li.unwrap() < 2);
        });
    }
}

#[test]
fn the_memory_limit_stops_astar_and_bfs_before_it_is_passed() {
    let goal = Goal::blank_first(size(4, 4));
    let korf1 = Board::parse("14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3", None).unwrap();
    let h = prepared("manhattan", &goal);
    for (a, h) in [(Algorithm::Astar, Some(&h)), (Algorithm::Bfs, None)] {
        for limit in [100_000u64, 1 << 20, 3 << 20] {
            let limits = Limits {
                memory_limit: Some(limit),
                ..Limits::none()
            };
            let o = solve(a, h, &korf1, &goal, &one_thread(&limits)).unwrap();
            assert_eq!(o.result.status, RunStatus::MemoryLimit, "{a} {limit}");
            assert_eq!(o.result.length(), None);
            assert!(
                o.memory.peak_bytes <= limit,
                "{a}: {} > {limit}",
                o.memory.peak_bytes
            );
            // Most of the budget is used before the search stops.
            assert!(
                o.memory.peak_bytes * 3 > limit,
                "{a}: {}",
                o.memory.peak_bytes
            );
        }
    }
}

#[test]
fn the_node_limit_is_exact_for_astar_and_bfs() {
    let goal = Goal::blank_first(size(4, 4));
    let korf1 = Board::parse("14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3", None).unwrap();
    let h = prepared("manhattan", &goal);
    let limits = Limits {
        node_limit: Some(54_321),
        ..Limits::none()
    };
    for (a, h) in [(Algorithm::Astar, Some(&h)), (Algorithm::Bfs, None)] {
        let o = solve(a, h, &korf1, &goal, &one_thread(&limits)).unwrap();
        assert_eq!(o.result.status, RunStatus::NodeLimit);
        assert_eq!(o.result.generated(), 54_321);
    }
}

#[test]
fn bfs_takes_no_heuristic_and_the_others_need_one() {
    let goal = Goal::blank_last(size(3, 3));
    let b = Board::parse("1 2 3 4 0 5 7 8 6", None).unwrap();
    let h = prepared("manhattan", &goal);
    let lim = Limits::none();
    assert!(matches!(
        solve(Algorithm::Bfs, Some(&h), &b, &goal, &one_thread(&lim)),
        Err(SearchError::HeuristicNotUsed(Algorithm::Bfs))
    ));
    assert!(matches!(
        solve(Algorithm::Astar, None, &b, &goal, &one_thread(&lim)),
        Err(SearchError::HeuristicNeeded(Algorithm::Astar))
    ));
    // The goal itself and an unsolvable board.
    for a in Algorithm::ALL {
        let h = a.uses_heuristic().then_some(&h);
        let o = solve(a, h, &goal.as_board(), &goal, &one_thread(&lim)).unwrap();
        assert_eq!((o.result.length(), o.result.generated()), (Some(0), 0));
        let loyd = Board::parse("2 1 3 4 5 6 7 8 0", None).unwrap();
        let o = solve(a, h, &loyd, &goal, &one_thread(&lim)).unwrap();
        assert_eq!(o.result.status, RunStatus::Unsolvable);
    }
}

#[test]
fn wide_boards_use_the_wide_key_and_agree_with_ida() {
    // More than 16 cells: states are packed 5 bits a cell into a u128.
    let mut bfs_runs = 0;
    for (w, hgt, walk) in [(5, 5, 40), (5, 4, 40), (4, 5, 30), (5, 5, 14)] {
        let goal = Goal::blank_last(size(w, hgt));
        let spec = Spec {
            size: size(w, hgt),
            goal: goal.clone(),
            count: 3,
            seed: 14,
            sampling: Sampling::Walk(walk),
        };
        let h = prepared("manhattan", &goal);
        for board in boards(&spec).unwrap() {
            let i = run(Algorithm::Ida, Some(&h), &board, &goal);
            let a = run(Algorithm::Astar, Some(&h), &board, &goal);
            let li = length(&i, &board, &goal);
            assert!(li.is_some());
            assert_eq!(length(&a, &board, &goal), li, "A* on {board}");
            assert_eq!(a.reopened, 0);
            if li < Some(16) {
                let b = run(Algorithm::Bfs, None, &board, &goal);
                assert_eq!(length(&b, &board, &goal), li, "BFS on {board}");
                bfs_runs += 1;
            }
        }
    }
    assert!(bfs_runs >= 3);
}

/// `limits` on one thread (the options [`solve`] takes).
fn one_thread(limits: &Limits) -> SearchOptions {
    SearchOptions {
        limits: limits.clone(),
        threads: 1,
        checkpoint: None,
        ..SearchOptions::default()
    }
}
