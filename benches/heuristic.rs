//! One heuristic evaluation and one incremental update (`cargo bench --bench heuristic`).
//!
//! `evaluate` computes h of a whole board from scratch (done once per search, at the root);
//! `update` is the per-node work: the new state after one tile slides. Both on Korf's #1.

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion};

use tilebench::board::{Board, Goal, Grid, Size};
use tilebench::heuristic::{Heuristic, LinearConflict, Manhattan};

const KORF_1: &str = "14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3";

fn bench_heuristic<H: Heuristic>(c: &mut Criterion, name: &str, h: &H, board: &Board) {
    let grid = Grid::new(board);
    let state = h.init(&grid);
    // The blank is in cell 9; the tile above it, in cell 5, slides down into it.
    let (from, to) = (5usize, board.blank());
    let tile = grid.tile_at[from];
    c.bench_function(&format!("evaluate/{name}"), |b| {
        b.iter(|| h.evaluate(black_box(board)))
    });
    c.bench_function(&format!("update/{name}"), |b| {
        b.iter(|| {
            let s = h.update(
                black_box(&state),
                black_box(&grid),
                black_box(tile),
                black_box(from),
                black_box(to),
            );
            h.h(&s)
        })
    });
}

fn heuristics(c: &mut Criterion) {
    let size = Size::new(4, 4).unwrap();
    let goal = Goal::blank_first(size);
    let board = Board::parse(KORF_1, Some(size)).unwrap();
    assert_eq!(board.blank(), 9);
    bench_heuristic(c, "manhattan", &Manhattan::new(&goal), &board);
    bench_heuristic(c, "linear-conflict", &LinearConflict::new(&goal), &board);
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));
    targets = heuristics
}
criterion_main!(benches);
