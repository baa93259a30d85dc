//! KRE's prediction against complete IDA* iterations over a seeded set of random boards.
//!
//! cargo run --release --example kre_check -- HEURISTIC A..B [INSTANCES] [SEED] [SAMPLES]
//!
//! Prints per threshold: the mean generated (and expanded) nodes of one complete iteration
//! (no stop at the goal) over INSTANCES uniformly random solvable 4×4 boards (blank-last goal,
//! the stream of `tilebench gen --size 4x4 --count INSTANCES --seed SEED`), KRE's prediction
//! from SAMPLES random boards (seed SEED + 1), and their ratio.

use std::ops::RangeInclusive;
use std::time::Instant;

use rayon::prelude::*;

use tilebench::board::{Board, Goal, Size};
use tilebench::heuristic::{HeuristicName, Prepared};
use tilebench::instances::generate::{boards, Sampling, Spec};
use tilebench::pdb::CacheOptions;
use tilebench::predict::predict_random_starts;
use tilebench::search::{solve, Mode, SearchOptions};

/// Predicts every bound with `h` and measures it with complete iterations over `boards`.
fn check(
    h: &Prepared,
    goal: &Goal,
    boards: &[Board],
    bounds: RangeInclusive<u32>,
    samples: u64,
    seed: u64,
) {
    let t = Instant::now();
    let (pred, _) =
        predict_random_starts(&|b| h.evaluate(b), goal, bounds, samples, seed + 1).unwrap();
    eprintln!("prediction: {:.2} s", t.elapsed().as_secs_f64());
    println!("bound,measured_generated,predicted_generated,ratio,measured_expanded,predicted_expanded,ratio_expanded,seconds");
    for p in pred {
        let t = Instant::now();
        let options = SearchOptions {
            mode: Mode::FixedBound(p.bound),
            ..SearchOptions::default()
        };
        let counts: Vec<_> = boards
            .par_iter()
            .map(|b| {
                let r = solve(Some(h), b, goal, &options).unwrap();
                r.result.iterations[0]
            })
            .collect();
        let n = counts.len() as f64;
        let g = counts.iter().map(|c| c.generated as f64).sum::<f64>() / n;
        let e = counts.iter().map(|c| c.expanded as f64).sum::<f64>() / n;
        println!(
            "{},{:.1},{:.1},{:.3},{:.1},{:.1},{:.3},{:.2}",
            p.bound,
            g,
            p.generated,
            p.generated / g,
            e,
            p.expanded,
            p.expanded / e,
            t.elapsed().as_secs_f64()
        );
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let name: HeuristicName = args.first().map_or("manhattan", |s| s).parse().unwrap();
    let bounds = tilebench::predict::parse_bounds(args.get(1).map_or("40..46", |s| s)).unwrap();
    let count: usize = args.get(2).map_or(50, |s| s.parse().unwrap());
    let seed: u64 = args.get(3).map_or(42, |s| s.parse().unwrap());
    let samples: u64 = args.get(4).map_or(1_000_000, |s| s.parse().unwrap());
    let size = Size::new(4, 4).unwrap();
    let goal = Goal::blank_last(size);
    let set = boards(&Spec {
        size,
        goal: goal.clone(),
        count,
        seed,
        sampling: Sampling::Uniform,
    })
    .expect("a uniform spec always generates");
    let h = Prepared::new(&name, &goal, &CacheOptions::default()).unwrap();
    eprintln!(
        "{name}: {count} boards (seed {seed}), {samples} samples (seed {})",
        seed + 1
    );
    check(&h, &goal, &set, bounds, samples, seed);
}
