//! Walking distance and `max(…)` against ground truth: every state of the small boards (BFS
//! distances), a seeded 4×4 set against linear conflict's optimal lengths, and Korf's easy
//! instances against their published lengths.

use rayon::prelude::*;

use tilebench::board::{Board, Goal, Grid, Size};
use tilebench::brute_force::{distances, unrank, UNREACHED};
use tilebench::heuristic::walking_distance::manhattan_parts;
use tilebench::heuristic::{Heuristic, LinearConflict, Manhattan, WalkingDistance};
use tilebench::heuristic::{HeuristicName, Prepared};
use tilebench::instances::generate::{boards, Sampling, Spec};
use tilebench::instances::InstanceSet;
use tilebench::pdb::CacheOptions;
use tilebench::search::Limits;

fn size(w: usize, h: usize) -> Size {
    Size::new(w, h).unwrap()
}

fn prepared(name: &str, goal: &Goal) -> Prepared {
    Prepared::new(
        &name.parse::<HeuristicName>().unwrap(),
        goal,
        &CacheOptions::default(),
    )
    .unwrap()
}

/// Over every solvable state: WD ≤ the BFS distance, each part ≥ Manhattan's part on the same
/// axis, `max(wd,lc)` = the larger of the two; IDA* with WD and with the max finds the BFS length
/// on every `solve_every`-th state. Returns how many states have WD > LC and LC > WD.
fn exhaustive(goal: &Goal, solve_every: usize) -> (usize, usize) {
    let n = goal.size().cells();
    let dist = distances(goal);
    let wd = WalkingDistance::new(goal).unwrap();
    let lc = LinearConflict::new(goal);
    let md = Manhattan::new(goal);
    let max = prepared("max(walking-distance,linear-conflict)", goal);
    let wd_prepared = Prepared::of(wd.clone());
    let counts = (0..dist.len())
        .into_par_iter()
        .filter(|&r| dist[r] != UNREACHED)
        .map(|r| {
            let b = Board::from_tiles(goal.size(), &unrank(r, n)).unwrap();
            let d = dist[r] as u32;
            let grid = Grid::new(&b);
            let (hw, hl) = (wd.evaluate(&b), lc.evaluate(&b));
            assert!(hw <= d, "{b}: walking distance {hw} > distance {d}");
            let (mv, mh) = manhattan_parts(goal, &grid);
            let (wv, wh) = (wd.vertical(&grid), wd.horizontal(&grid));
            assert_eq!(wv + wh, hw);
            assert!(wv >= mv && wh >= mh, "{b}: wd {wv}+{wh}, md {mv}+{mh}");
            assert_eq!(mv + mh, md.evaluate(&b));
            assert_eq!(max.evaluate(&b), hw.max(hl));
            if r % solve_every == 0 {
                for res in [
                    crate::common::ida(&wd_prepared, &b, goal, &Limits::none()),
                    crate::common::ida(&max, &b, goal, &Limits::none()),
                ] {
                    assert_eq!(res.length(), Some(d as usize), "{b}");
                    assert!(b.replays_to(&res.moves, goal), "{b}");
                }
            }
            (usize::from(hw > hl), usize::from(hl > hw))
        })
        .reduce(|| (0, 0), |a, b| (a.0 + b.0, a.1 + b.1));
    counts
}

#[test]
fn admissible_and_optimal_on_every_3x3_state_for_every_goal() {
    let s = size(3, 3);
    let explicit = Goal::parse("8 6 7 2 5 4 3 0 1", s).unwrap();
    for goal in [
        Goal::blank_last(s),
        Goal::blank_first(s),
        Goal::spiral(s),
        explicit,
    ] {
        let (wd_more, lc_more) = exhaustive(&goal, 37);
        // Neither dominates: both orders occur on every goal (so the max is worth having).
        assert!(
            wd_more > 0 && lc_more > 0,
            "{}: {wd_more} {lc_more}",
            goal.name()
        );
        eprintln!(
            "3x3 {}: WD > LC on {wd_more} states, LC > WD on {lc_more} of 181440",
            goal.name()
        );
    }
}

#[test]
fn admissible_and_optimal_on_every_rectangular_small_board() {
    for s in [size(3, 2), size(2, 3), size(4, 2), size(2, 4)] {
        for goal in [Goal::blank_last(s), Goal::blank_first(s), Goal::spiral(s)] {
            exhaustive(&goal, 1);
        }
    }
}

#[test]
fn seeded_4x4_walks_get_linear_conflicts_lengths() {
    for goal in [
        Goal::blank_last(size(4, 4)),
        Goal::blank_first(size(4, 4)),
        Goal::spiral(size(4, 4)),
    ] {
        let spec = Spec {
            size: size(4, 4),
            goal: goal.clone(),
            count: 12,
            seed: 2026,
            sampling: Sampling::Walk(70),
        };
        let (wd, lc) = (
            prepared("walking-distance", &goal),
            prepared("linear-conflict", &goal),
        );
        let max = prepared("max(lc,wd,md)", &goal);
        for b in boards(&spec).unwrap() {
            let want = crate::common::ida(&lc, &b, &goal, &Limits::none());
            for h in [&wd, &max] {
                let got = crate::common::ida(h, &b, &goal, &Limits::none());
                assert_eq!(got.length(), want.length(), "{b}");
                assert!(b.replays_to(&got.moves, &goal));
                assert!(h.evaluate(&b) as usize <= want.moves.len());
            }
        }
    }
}

/// Korf's instances whose IDA* + Manhattan count is below 20 million (the golden set's). Walking
/// distance does not generate fewer nodes than linear conflict on these (58,643,119 against
/// 51,549,471 in all); the max of both generates fewer than either on every instance.
#[test]
fn korfs_easy_instances_get_the_published_lengths() {
    let set = InstanceSet::read_selection(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/instances/korf100.txt"
    ))
    .unwrap();
    let goal = set.goal.clone();
    let (wd, lc) = (
        prepared("walking-distance", &goal),
        prepared("linear-conflict", &goal),
    );
    let max = prepared("max(walking-distance,linear-conflict)", &goal);
    let easy: Vec<_> = set
        .instances
        .iter()
        .filter(|i| i.extra[1].parse::<u64>().unwrap() < 20_000_000)
        .collect();
    assert_eq!(easy.len(), 37);
    let totals = easy
        .par_iter()
        .map(|i| {
            let want = i.optimal.map(|l| l as usize);
            let mut nodes = [0u64; 3];
            for (k, h) in [&wd, &lc, &max].into_iter().enumerate() {
                let r = crate::common::ida(h, &i.board, &goal, &Limits::none());
                assert_eq!(r.length(), want, "#{}", i.id);
                assert!(i.board.replays_to(&r.moves, &goal));
                nodes[k] = r.generated();
            }
            // The max prunes at least what each term prunes.
            assert!(nodes[2] <= nodes[0].min(nodes[1]), "#{}: {nodes:?}", i.id);
            nodes
        })
        .reduce(|| [0; 3], |a, b| [a[0] + b[0], a[1] + b[1], a[2] + b[2]]);
    eprintln!(
        "Korf easy 37, generated: wd {} lc {} max {}",
        totals[0], totals[1], totals[2]
    );
    assert!(totals[2] < totals[0].min(totals[1]), "{totals:?}");
}
