//! Pattern-database benchmarks: building the 6-6-3 tables, one incremental lookup, and a small
//! solve. `cargo bench --bench pdb`.

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};

use tilebench::board::{Board, Goal, Grid, Size};
use tilebench::heuristic::{Heuristic, Pdb, ReflectedPdb};
use tilebench::heuristic::{HeuristicName, Prepared};
use tilebench::pdb::CacheOptions;
use tilebench::pdb::{self, Named};
use tilebench::search::{self, SearchOptions};

fn goal() -> Goal {
    Goal::blank_first(Size::new(4, 4).unwrap())
}

fn bench_build(c: &mut Criterion) {
    let goal = goal();
    let partition = Named::P663.for_goal(&goal).unwrap();
    let mut g = c.benchmark_group("pdb-build");
    g.sample_size(10).measurement_time(Duration::from_secs(20));
    g.bench_function("663 (all three tables)", |b| {
        b.iter(|| {
            for tiles in partition.groups() {
                black_box(pdb::build(&goal, tiles, &pdb::Silent));
            }
        })
    });
    g.finish();
}

fn options() -> CacheOptions {
    CacheOptions::default()
}

fn bench_lookup(c: &mut Criterion) {
    let goal = goal();
    let partition = Named::P663.for_goal(&goal).unwrap();
    let tables = partition
        .groups()
        .iter()
        .map(|t| pdb::load_or_build(&goal, t, &options()).unwrap())
        .collect();
    let h = Pdb::new(&partition, tables);
    let r = ReflectedPdb::new(&goal, h.clone());
    // Korf #1, the blank in cell 9 moving up: the tile in cell 5 slides down into it.
    let board = Board::parse("14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3", None).unwrap();
    let grid = Grid::new(&board);
    let (s, rs) = (h.init(&grid), r.init(&grid));
    let (tile, from, to) = (grid.tile_at[5], 5, 9);
    c.bench_function("pdb-663 update (one group re-ranked)", |b| {
        b.iter(|| h.h(&h.update(black_box(&s), black_box(&grid), tile, from, to)))
    });
    c.bench_function("pdb-663r update (two groups re-ranked)", |b| {
        b.iter(|| r.h(&r.update(black_box(&rs), black_box(&grid), tile, from, to)))
    });
}

fn bench_solve(c: &mut Criterion) {
    let goal = goal();
    // Korf #2 (55 moves).
    let board = Board::parse("13 5 4 10 9 12 8 14 2 3 7 1 0 15 11 6", None).unwrap();
    // Node throughput: criterion reports generated nodes per second (`thrpt`).
    let mut g = c.benchmark_group("pdb-solve");
    g.sample_size(20);
    for name in ["pdb-663", "pdb-663r"] {
        let h = Prepared::new(&name.parse::<HeuristicName>().unwrap(), &goal, &options()).unwrap();
        let options = SearchOptions::default();
        let generated = search::solve(Some(&h), &board, &goal, &options)
            .unwrap()
            .result
            .generated();
        g.throughput(Throughput::Elements(generated));
        g.bench_function(format!("{name} Korf #2"), |b| {
            b.iter(|| search::solve(Some(&h), black_box(&board), &goal, &options).unwrap())
        });
    }
    g.finish();
}

criterion_group!(benches, bench_build, bench_lookup, bench_solve);
criterion_main!(benches);
