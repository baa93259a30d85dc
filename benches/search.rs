//! Search throughput and whole solves (`cargo bench --bench search`).
//!
//! - `throughput/manhattan-korf1`: IDA* + Manhattan on Korf's instance #1 (57 moves,
//!   276,361,932 generated nodes), reported as generated nodes per second;
//! - `throughput/linear-conflict-korf1`: the same instance under linear conflict (12,205,622
//!   generated nodes);
//! - `solve/…`: whole solves of small fixed sets: four easy Korf instances under linear
//!   conflict, and ten seeded 8-puzzles under Manhattan.
//!
//! The long benchmarks take ten flat samples of one solve each, so the file runs in about a
//! minute. Node counts are measured by a solve before timing, so a change in them shows as a
//! change in the throughput figure's denominator, never as a silent speed-up; the golden test
//! (`tests/it/golden.rs`) is what checks that they do not change.

use std::hint::black_box;
use std::time::Duration;

use criterion::{
    criterion_group, criterion_main, BenchmarkId, Criterion, SamplingMode, Throughput,
};

use tilebench::board::{Board, Goal, Size};
use tilebench::heuristic::{HeuristicName, Prepared};
use tilebench::pdb::CacheOptions;
use tilebench::search::{self, SearchOptions};

/// Korf's (1985) instance #1, blank-first goal.
const KORF_1: &str = "14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3";

/// Korf's instances #2, #5, #6 and #8: 55, 56, 52 and 50 moves, together about 15 million
/// generated nodes under linear conflict.
const KORF_EASY: [&str; 4] = [
    "13 5 4 10 9 12 8 14 2 3 7 1 0 15 11 6",
    "4 7 14 13 10 3 9 12 11 5 6 15 1 2 8 0",
    "14 7 1 9 12 3 6 15 8 11 2 5 10 0 4 13",
    "12 11 15 3 8 0 4 2 6 13 9 5 14 1 10 7",
];

/// Ten 8-puzzles (blank-last goal): the golden set's first ten, fixed here so the benchmark does
/// not depend on a generator.
const EIGHT_PUZZLES: [&str; 10] = [
    "1 7 8 4 6 0 3 2 5",
    "7 6 1 0 2 4 5 8 3",
    "1 6 7 8 4 2 0 3 5",
    "8 1 4 3 2 6 7 5 0",
    "6 5 8 0 3 2 4 1 7",
    "0 8 3 5 1 4 6 2 7",
    "8 7 2 4 6 5 0 3 1",
    "3 5 8 2 1 4 7 6 0",
    "5 7 1 2 6 0 3 8 4",
    "1 4 8 6 0 5 2 3 7",
];

fn solve(h: &Prepared, board: &Board, goal: &Goal) -> u64 {
    let r = search::solve(Some(h), board, goal, &SearchOptions::default())
        .expect("sizes match")
        .result;
    assert!(r.length().is_some(), "benchmark board not solved: {board}");
    r.generated()
}

fn throughput(c: &mut Criterion) {
    let size = Size::new(4, 4).unwrap();
    let goal = Goal::blank_first(size);
    let board = Board::parse(KORF_1, Some(size)).unwrap();
    let mut group = c.benchmark_group("throughput");
    group
        .sample_size(10)
        .sampling_mode(SamplingMode::Flat)
        .warm_up_time(Duration::from_millis(500));
    // Ten samples of one solve each: about 19 s for Manhattan, 3 s for linear conflict.
    for (name, seconds) in [
        (HeuristicName::Manhattan, 20),
        (HeuristicName::LinearConflict, 4),
    ] {
        let h = Prepared::new(&name, &goal, &CacheOptions::default()).unwrap();
        let generated = solve(&h, &board, &goal);
        group
            .throughput(Throughput::Elements(generated))
            .measurement_time(Duration::from_secs(seconds));
        group.bench_function(BenchmarkId::new(name.as_str(), "korf1"), |b| {
            b.iter(|| solve(&h, black_box(&board), &goal))
        });
    }
    group.finish();
}

fn whole_solves(c: &mut Criterion) {
    let mut group = c.benchmark_group("solve");
    group
        .sample_size(10)
        .sampling_mode(SamplingMode::Flat)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(6));

    let s4 = Size::new(4, 4).unwrap();
    let korf_goal = Goal::blank_first(s4);
    let korf: Vec<Board> = KORF_EASY
        .iter()
        .map(|t| Board::parse(t, Some(s4)).unwrap())
        .collect();
    let lc = Prepared::new(
        &HeuristicName::LinearConflict,
        &korf_goal,
        &CacheOptions::default(),
    )
    .unwrap();
    group.bench_function("linear-conflict/korf-2-5-6-8", |b| {
        b.iter(|| {
            korf.iter()
                .map(|board| solve(&lc, black_box(board), &korf_goal))
                .sum::<u64>()
        })
    });

    let s3 = Size::new(3, 3).unwrap();
    let goal = Goal::blank_last(s3);
    let eights: Vec<Board> = EIGHT_PUZZLES
        .iter()
        .map(|t| Board::parse(t, Some(s3)).unwrap())
        .collect();
    let md = Prepared::new(&HeuristicName::Manhattan, &goal, &CacheOptions::default()).unwrap();
    group.bench_function("manhattan/8-puzzle-10", |b| {
        b.iter(|| {
            eights
                .iter()
                .map(|board| solve(&md, black_box(board), &goal))
                .sum::<u64>()
        })
    });
    group.finish();
}

criterion_group!(benches, throughput, whole_solves);
criterion_main!(benches);
