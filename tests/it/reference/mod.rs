//! Every count the product reports, reproduced by a deliberately naive reference ([`naive`],
//! [`heuristics`]) that shares no search or heuristic code with it: per-iteration `generated` and
//! `expanded` of IDA*, and A*'s and breadth-first search's counts, `reopened` and `peak_stored`,
//! for every heuristic, on every 3×3 distance class (each goal: blank-last, blank-first, spiral),
//! the golden set's 4×4 random walks and its 5×5 walks (pdb-6666/6666r). Pattern-database values
//! come from tables that [`tables`] checked against their definition first.
//!
//! Cost: the reference is slow per node, so a search is compared only when the product's own
//! count is below a node budget ([`IDA_BUDGET`], [`ASTAR_BUDGET`]); every 3×3 class is within it,
//! and each (walk set, heuristic, algorithm) must have at least [`MIN_COMPARED`] boards within it,
//! so a budget cannot quietly skip a whole heuristic. Total: seconds in release mode, plus the
//! table checks (a few seconds; building the 7-8 tables on a fresh cache takes about a minute).

pub mod heuristics;
pub mod naive;
pub mod tables;

use std::collections::{BTreeMap, HashMap};
use std::path::Path;
use std::sync::{Mutex, OnceLock};

use rayon::prelude::*;

use tilebench::board::{Board, Goal, Size};
use tilebench::brute_force;
use tilebench::heuristic::{HeuristicName, Prepared};
use tilebench::search::{Algorithm, Outcome, RunStatus, SearchOptions};

use crate::common;

use heuristics::{Reference, Shape};
use naive::{Counts, Found, Space};

/// IDA* searches whose product count is above this many generated nodes are not replayed.
pub const IDA_BUDGET: u64 = 40_000;
/// The same for A*, whose naive reference is slower per node.
pub const ASTAR_BUDGET: u64 = 20_000;
/// The budget of A* and breadth-first search on the 3×3 classes.
pub const SMALL_BUDGET: u64 = 20_000;
/// Boards each (walk set, heuristic, algorithm) must have compared.
pub const MIN_COMPARED: usize = 2;

const HEURISTICS_3X3: &[&str] = &[
    "manhattan",
    "linear-conflict",
    "walking-distance",
    "max(walking-distance,linear-conflict)",
    "pdb:1.2.3.4/5.6.7.8",
    "pdbr:1.2.3.4/5.6.7.8",
    "max(linear-conflict,pdbr:1.2.3.4/5.6.7.8)",
];

const HEURISTICS_4X4: &[&str] = &[
    "manhattan",
    "linear-conflict",
    "walking-distance",
    "max(walking-distance,linear-conflict)",
    "pdb-555",
    "pdb-555r",
    "pdb-663",
    "pdb-663r",
    "max(walking-distance,pdb-663r)",
];

/// The 7-8 tables (575 MB, the suite's slowest to build) exist in the tests' cache only for
/// Korf's goal (blank first): they are compared on Korf's instances, not on the blank-last walks.
const HEURISTICS_4X4_KORF: &[&str] = &["pdb-78", "pdb-78r"];

const HEURISTICS_5X5: &[&str] = &["manhattan", "linear-conflict", "pdb-6666", "pdb-6666r"];

/// A board to solve and its goal, with the name of the set it comes from.
#[derive(Clone)]
pub struct Case {
    pub set: String,
    pub goal: Goal,
    pub board: Board,
}

/// Every 3×3 distance class: for each goal and each distance from 0 to the diameter, the board of
/// lowest rank at that distance.
pub fn three_by_three_classes() -> Vec<Case> {
    let s = Size::new(3, 3).unwrap();
    let mut cases = Vec::new();
    for goal in [Goal::blank_last(s), Goal::blank_first(s), Goal::spiral(s)] {
        let dist = brute_force::distances(&goal);
        let max = *dist
            .iter()
            .filter(|&&d| d != brute_force::UNREACHED)
            .max()
            .unwrap();
        for d in 0..=max {
            let r = dist.iter().position(|&x| x == d).unwrap();
            let board = Board::from_tiles(s, &brute_force::unrank(r, 9)).unwrap();
            cases.push(Case {
                set: format!("3x3-{}", goal.name()),
                goal: goal.clone(),
                board,
            });
        }
    }
    cases
}

/// The boards of the golden file whose case name starts with `prefix` (e.g. `4x4-walk30-`).
pub fn golden_cases(prefix: &str) -> Vec<Case> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/node_counts.csv");
    let text = std::fs::read_to_string(&path).unwrap();
    let mut seen = Vec::new();
    let mut cases = Vec::new();
    for line in text.lines().filter(|l| l.starts_with(prefix)) {
        // case,heuristic…,size,goal,tiles,iteration,bound,expanded,generated,length: a max(…)
        // heuristic keeps its commas, so the fields are counted from the end.
        let f: Vec<&str> = line.split(',').collect();
        let (name, size, goal, tiles) = (f[0], f[f.len() - 8], f[f.len() - 7], f[f.len() - 6]);
        if seen.contains(&name) {
            continue;
        }
        seen.push(name);
        let size = Size::parse(size).unwrap();
        cases.push(Case {
            set: prefix.trim_end_matches('-').to_string(),
            goal: Goal::parse(goal, size).unwrap(),
            board: Board::parse(tiles, Some(size)).unwrap(),
        });
    }
    assert!(!cases.is_empty(), "no {prefix} cases in {}", path.display());
    cases
}

/// The golden 4×4 walks of 30 and 60 moves, as one set (Manhattan's 60-move searches are all
/// beyond the budget; the 30-move ones are within it).
fn four_by_four_walks() -> Vec<Case> {
    let mut cases = golden_cases("4x4-walk30-");
    cases.extend(golden_cases("4x4-walk60-"));
    for c in &mut cases {
        c.set = "4x4-walks".into();
    }
    cases
}

/// The product's heuristic `name` for `goal`, built once per test process (tables from the
/// tests' cache).
fn prepared(name: &str, goal: &Goal) -> Prepared {
    type Cache = Mutex<HashMap<(String, String), Prepared>>;
    static CACHE: OnceLock<Cache> = OnceLock::new();
    let key = (name.to_string(), format!("{} {}", goal.size(), goal.name()));
    let cache = CACHE.get_or_init(Default::default);
    if let Some(p) = cache.lock().unwrap().get(&key) {
        return p.clone();
    }
    // Built without the lock held: a search thread of the pool never waits on it (which could
    // starve a table build that needs the pool).
    let built = Prepared::new(&name.parse().unwrap(), goal, &common::test_pdb_options()).unwrap();
    cache.lock().unwrap().entry(key).or_insert(built).clone()
}

/// The reference heuristic `name` for `goal`, built once per test process (without the lock
/// held, as [`prepared`]).
pub fn reference(name: &str, goal: &Goal) -> std::sync::Arc<Reference> {
    type Cache = Mutex<HashMap<(String, String), std::sync::Arc<Reference>>>;
    static CACHE: OnceLock<Cache> = OnceLock::new();
    let key = (name.to_string(), format!("{} {}", goal.size(), goal.name()));
    let cache = CACHE.get_or_init(Default::default);
    if let Some(r) = cache.lock().unwrap().get(&key) {
        return r.clone();
    }
    let parsed: HeuristicName = name.parse().unwrap();
    let built = std::sync::Arc::new(Reference::new(&parsed, goal));
    cache.lock().unwrap().entry(key).or_insert(built).clone()
}

/// The product's search of `case` (`heuristic` None for breadth-first search).
pub fn product(algorithm: Algorithm, heuristic: Option<&str>, case: &Case) -> Outcome {
    let outcome = product_within(algorithm, heuristic, case, None).unwrap();
    assert_eq!(outcome.result.status, RunStatus::Solved);
    outcome
}

/// The product's search of `case` stopped at `budget` generated nodes: `None` when it did not
/// solve within them (the counts of a search that does are those of an unlimited one).
fn product_within(
    algorithm: Algorithm,
    heuristic: Option<&str>,
    case: &Case,
    budget: Option<u64>,
) -> Option<Outcome> {
    let prepared = heuristic.map(|h| prepared(h, &case.goal));
    let mut options = SearchOptions {
        algorithm,
        ..SearchOptions::default()
    };
    options.limits.node_limit = budget;
    let outcome =
        tilebench::search::solve(prepared.as_ref(), &case.board, &case.goal, &options).unwrap();
    (outcome.result.status == RunStatus::Solved).then_some(outcome)
}

/// The cells the blank visits along the product's solution.
fn blank_path(board: &Board, outcome: &Outcome) -> Vec<usize> {
    let mut b = board.clone();
    outcome
        .result
        .moves
        .iter()
        .map(|&d| {
            b.apply(d).unwrap();
            b.blank()
        })
        .collect()
}

/// The reference's search of `case`.
pub fn naive_search(algorithm: Algorithm, heuristic: Option<&str>, case: &Case) -> Found {
    let shape = Shape::new(&case.goal);
    let space = Space {
        width: shape.width,
        height: shape.height,
        goal: &shape.goal,
    };
    let start = case.board.tiles();
    match (algorithm, heuristic) {
        (Algorithm::Bfs, None) => naive::bfs(&space, start),
        (alg, Some(name)) => {
            let r = reference(name, &case.goal);
            let h = |t: &[u8]| r.h(&shape, t);
            match alg {
                Algorithm::Ida => naive::ida(&space, start, &h),
                Algorithm::Astar => naive::astar(&space, start, &h),
                other => panic!("{other} takes no heuristic"),
            }
        }
        (other, None) => panic!("{other} needs a heuristic"),
    }
}

/// How the product's outcome differs from the reference's, if it does.
pub fn difference(algorithm: Algorithm, outcome: &Outcome, found: &Found) -> Option<String> {
    let got: Vec<Counts> = outcome
        .result
        .iterations
        .iter()
        .map(|i| Counts {
            bound: i.bound,
            expanded: i.expanded,
            generated: i.generated,
        })
        .collect();
    let mut diffs = Vec::new();
    if got != found.iterations {
        diffs.push(format!(
            "iterations {got:?}, reference {:?}",
            found.iterations
        ));
    }
    match algorithm {
        Algorithm::Ida => {}
        Algorithm::Astar | Algorithm::Bfs => {
            if outcome.reopened != found.reopened {
                diffs.push(format!(
                    "reopened {}, reference {}",
                    outcome.reopened, found.reopened
                ));
            }
            if outcome.memory.peak_stored != found.stored {
                diffs.push(format!(
                    "peak_stored {}, reference {}",
                    outcome.memory.peak_stored, found.stored
                ));
            }
        }
    }
    (!diffs.is_empty()).then(|| diffs.join("; "))
}

/// Compares product and reference on every (case, heuristic) pair for `algorithm` whose product
/// count is within `budget` (None: all). Returns the differences and, per (set, heuristic), how
/// many boards were compared.
pub fn compare_all(
    algorithm: Algorithm,
    cases: &[Case],
    heuristics: &[Option<&str>],
    budget: Option<u64>,
) -> (Vec<String>, BTreeMap<(String, String), usize>) {
    // Prepare the heuristics (and check their tables) first, one at a time.
    for c in cases {
        for h in heuristics.iter().flatten() {
            prepared(h, &c.goal);
            reference(h, &c.goal);
        }
    }
    let pairs: Vec<(&Case, Option<&str>)> = cases
        .iter()
        .flat_map(|c| heuristics.iter().map(move |&h| (c, h)))
        .collect();
    let results: Vec<(String, String, Option<String>)> = pairs
        .par_iter()
        .filter_map(|&(case, h)| {
            let outcome = product_within(algorithm, h, case, budget)?;
            let found = naive_search(algorithm, h, case);
            let mut diff = difference(algorithm, &outcome, &found);
            if algorithm == Algorithm::Ida && diff.is_none() {
                let path = blank_path(&case.board, &outcome);
                if path != found.path {
                    diff = Some(format!("path {path:?}, reference {:?}", found.path));
                }
            }
            if algorithm == Algorithm::Astar && outcome.result.moves.len() != found.path.len() {
                diff = Some(format!(
                    "length {}, reference {}",
                    outcome.result.moves.len(),
                    found.path.len()
                ));
            }
            let name = h.unwrap_or("none").to_string();
            let diff = diff.map(|d| {
                format!(
                    "{} {name} {} ({}): {d}",
                    algorithm,
                    case.board,
                    case.goal.name()
                )
            });
            Some((case.set.clone(), name, diff))
        })
        .collect();
    let mut compared = BTreeMap::new();
    let mut errors = Vec::new();
    for (set, h, diff) in results {
        *compared.entry((set, h)).or_insert(0) += 1;
        errors.extend(diff);
    }
    (errors, compared)
}

fn assert_all_compared(
    algorithm: Algorithm,
    cases: &[Case],
    heuristics: &[Option<&str>],
    budget: Option<u64>,
    at_least: usize,
) {
    let (errors, compared) = compare_all(algorithm, cases, heuristics, budget);
    assert!(
        errors.is_empty(),
        "{} {algorithm} searches differ from the naive reference:\n{}",
        errors.len(),
        errors.join("\n")
    );
    let mut sets: Vec<&str> = cases.iter().map(|c| c.set.as_str()).collect();
    sets.dedup();
    for set in sets {
        for h in heuristics {
            let name = h.unwrap_or("none");
            let n = compared
                .get(&(set.to_string(), name.to_string()))
                .copied()
                .unwrap_or(0);
            assert!(
                n >= at_least,
                "{algorithm} {name} on {set}: {n} boards within the budget, want {at_least}"
            );
        }
    }
}

fn some<'a>(names: &[&'a str]) -> Vec<Option<&'a str>> {
    names.iter().map(|&n| Some(n)).collect()
}

#[test]
fn ida_counts_equal_the_reference_on_every_3x3_class() {
    let cases = three_by_three_classes();
    let per_goal = cases.len() / 3;
    assert_all_compared(
        Algorithm::Ida,
        &cases,
        &some(HEURISTICS_3X3),
        None,
        per_goal,
    );
}

/// A* and breadth-first search store every state, and the naive versions clone and hash whole
/// boards: the 3×3 classes up to the budget (the deep ones reach most of the 181,440 states),
/// at least two thirds of them.
#[test]
fn astar_counts_equal_the_reference_on_every_3x3_class() {
    let cases = three_by_three_classes();
    let per_goal = cases.len() / 3;
    assert_all_compared(
        Algorithm::Astar,
        &cases,
        &some(HEURISTICS_3X3),
        Some(SMALL_BUDGET),
        per_goal * 2 / 3,
    );
}

#[test]
fn bfs_counts_equal_the_reference_on_every_3x3_class() {
    let cases = three_by_three_classes();
    let per_goal = cases.len() / 3;
    assert_all_compared(
        Algorithm::Bfs,
        &cases,
        &[None],
        Some(SMALL_BUDGET),
        per_goal / 2,
    );
}

#[test]
fn ida_counts_equal_the_reference_on_the_4x4_walks() {
    let cases = four_by_four_walks();
    assert_all_compared(
        Algorithm::Ida,
        &cases,
        &some(HEURISTICS_4X4),
        Some(IDA_BUDGET),
        MIN_COMPARED,
    );
}

#[test]
fn astar_counts_equal_the_reference_on_the_4x4_walks() {
    let cases = four_by_four_walks();
    assert_all_compared(
        Algorithm::Astar,
        &cases,
        &some(HEURISTICS_4X4),
        Some(ASTAR_BUDGET),
        MIN_COMPARED,
    );
}

/// IDA* and A* on `cases`, each within its budget.
fn ida_and_astar_within_budget(cases: &[Case], heuristics: &[&str]) {
    for (algorithm, budget) in [
        (Algorithm::Ida, IDA_BUDGET),
        (Algorithm::Astar, ASTAR_BUDGET),
    ] {
        assert_all_compared(
            algorithm,
            cases,
            &some(heuristics),
            Some(budget),
            MIN_COMPARED,
        );
    }
}

/// Korf's instances (blank first) for the heuristics whose tables the tests build only for
/// that goal; the budget keeps the easy ones (dozens of them for each).
#[test]
fn ida_and_astar_counts_equal_the_reference_on_korf_instances_with_7_8_tables() {
    ida_and_astar_within_budget(&golden_cases("korf-0"), HEURISTICS_4X4_KORF);
}

#[test]
fn ida_and_astar_counts_equal_the_reference_on_a_5x5_walk_set() {
    ida_and_astar_within_budget(&golden_cases("5x5-walk40-"), HEURISTICS_5X5);
}

/// On every 3×3 state of each goal, each reference heuristic equals the product's evaluation and
/// never exceeds the exact distance (admissible everywhere, not only along searched paths).
#[test]
fn every_3x3_state_has_the_reference_value_and_is_admissible() {
    let s = Size::new(3, 3).unwrap();
    for goal in [Goal::blank_last(s), Goal::blank_first(s), Goal::spiral(s)] {
        let dist = brute_force::distances(&goal);
        let shape = Shape::new(&goal);
        for name in HEURISTICS_3X3 {
            let (p, r) = (prepared(name, &goal), reference(name, &goal));
            let errors: Vec<String> = (0..dist.len())
                .into_par_iter()
                .filter(|&i| dist[i] != brute_force::UNREACHED)
                .filter_map(|i| {
                    let tiles = brute_force::unrank(i, 9);
                    let want = r.h(&shape, &tiles);
                    let got = p.evaluate(&Board::from_tiles(s, &tiles).unwrap());
                    (got != want || want > dist[i] as u32).then(|| {
                        format!(
                            "{tiles:?}: product {got}, reference {want}, distance {}",
                            dist[i]
                        )
                    })
                })
                .take_any(10)
                .collect();
            assert!(errors.is_empty(), "{name} {}: {errors:#?}", goal.name());
        }
    }
}

/// The comparison notices a count, a reopening or a stored state more or fewer.
#[test]
fn the_comparison_reports_any_altered_count() {
    let case = &three_by_three_classes()[20];
    for algorithm in [Algorithm::Ida, Algorithm::Astar, Algorithm::Bfs] {
        let h = (algorithm != Algorithm::Bfs).then_some("pdb:1.2.3.4/5.6.7.8");
        let outcome = product(algorithm, h, case);
        let found = naive_search(algorithm, h, case);
        assert_eq!(difference(algorithm, &outcome, &found), None);
        let mut altered = found.clone();
        altered.iterations[0].generated += 1;
        assert!(difference(algorithm, &outcome, &altered).is_some());
        let mut altered = found.clone();
        altered.iterations.last_mut().unwrap().expanded -= 1;
        assert!(difference(algorithm, &outcome, &altered).is_some());
        if algorithm != Algorithm::Ida {
            let mut altered = found.clone();
            altered.stored += 1;
            assert!(difference(algorithm, &outcome, &altered).is_some());
            altered = found.clone();
            altered.reopened += 1;
            assert!(difference(algorithm, &outcome, &altered).is_some());
        }
    }
}

/// Every table a test reads, checked against its definition: 5-5-5 and 6-6-3 (and the custom
/// 3×3 ones) entry by entry, 7-8 and 6-6-6-6 on a sample.
#[test]
fn pattern_database_tables_satisfy_their_definition() {
    let (s3, s4, s5) = (
        Size::new(3, 3).unwrap(),
        Size::new(4, 4).unwrap(),
        Size::new(5, 5).unwrap(),
    );
    let tables: Vec<(Goal, Vec<u8>)> = [
        ("pdb:1.2.3.4/5.6.7.8", Goal::blank_last(s3)),
        ("pdb:1.2.3.4/5.6.7.8", Goal::blank_first(s3)),
        ("pdb:1.2.3.4/5.6.7.8", Goal::spiral(s3)),
        ("pdb-555", Goal::blank_last(s4)),
        ("pdb-663", Goal::blank_last(s4)),
        ("pdb-78", Goal::blank_first(s4)),
        ("pdb-6666", Goal::blank_first(s5)),
    ]
    .into_iter()
    .flat_map(|(name, goal)| {
        let HeuristicName::Pdb(p) = name.parse().unwrap() else {
            unreachable!()
        };
        let groups = p.partition_for(&goal).unwrap().groups().to_vec();
        groups.into_iter().map(move |tiles| (goal.clone(), tiles))
    })
    .collect();
    assert_eq!(tables.len(), 6 + 3 + 3 + 2 + 4);
    // The definition's distances of the tables checked in full, on both cores, the largest first.
    let mut full: Vec<&(Goal, Vec<u8>)> = tables
        .iter()
        .filter(|(g, t)| {
            let cells = g.size().width as usize * g.size().height as usize;
            tables::sample_for(tilebench::pdb::rank::placements(cells, t.len())).is_none()
        })
        .collect();
    full.sort_by_key(|(_, t)| std::cmp::Reverse(t.len()));
    full.par_iter().for_each(|(goal, tiles)| {
        tables::definition(goal, tiles);
    });
    for (goal, tiles) in &tables {
        tables::checked_table(goal, tiles);
    }
}

/// The check notices one entry one too high or one too low, in a table it checks in full and in
/// one it samples (every entry of the small table is in the sample's reach: 3,024 entries).
#[test]
fn the_table_check_notices_one_wrong_entry() {
    let goal = Goal::blank_last(Size::new(3, 3).unwrap());
    let tiles = [1u8, 2, 3, 4];
    let table = tables::checked_table(&goal, &tiles);
    let entries: Vec<u8> = table.values.to_vec();
    assert!(tables::bellman_errors(&goal, &tiles, &entries, None).is_empty());
    assert!(tables::definition_errors(&goal, &tiles, &entries).is_empty());
    for (i, delta) in [(1000usize, 1i32), (2000, -1), (77, 1)] {
        let mut wrong = entries.clone();
        if wrong[i] == 0 {
            continue;
        }
        wrong[i] = (wrong[i] as i32 + delta) as u8;
        let errors = tables::bellman_errors(&goal, &tiles, &wrong, None);
        assert!(!errors.is_empty(), "entry {i} {delta:+}");
        let exact = tables::definition_errors(&goal, &tiles, &wrong);
        assert_eq!(exact.len(), 1, "entry {i} {delta:+}: {exact:?}");
        let sampled = tables::bellman_errors(&goal, &tiles, &wrong, Some(100_000));
        assert!(!sampled.is_empty(), "entry {i} {delta:+}, sampled");
    }
}

/// Any one entry of a 6-6-3 six-tile table one too high or one too low is caught, entry 1,234,567
/// among them: raised by one, it passed the earlier check, which knew only a lower bound where a
/// placement's neighbours split the free cells into several regions.
#[test]
fn the_table_check_notices_one_wrong_entry_of_663() {
    let goal = Goal::blank_last(Size::new(4, 4).unwrap());
    let HeuristicName::Pdb(p) = "pdb-663".parse().unwrap() else {
        unreachable!()
    };
    let partition = p.partition_for(&goal).unwrap();
    let sixes: Vec<&Vec<u8>> = partition.groups().iter().filter(|g| g.len() == 6).collect();
    assert_eq!(sixes.len(), 2);
    for tiles in sixes {
        let table = tables::checked_table(&goal, tiles);
        let entries: Vec<u8> = table.values.to_vec();
        for (i, delta) in [
            (1_234_567usize, 1i32),
            (1_234_567, -1),
            (4_000_001, 1),
            (77, -1),
        ] {
            let mut wrong = entries.clone();
            if wrong[i] == 0 && delta < 0 {
                continue;
            }
            wrong[i] = (wrong[i] as i32 + delta) as u8;
            let errors = tables::definition_errors(&goal, tiles, &wrong);
            assert_eq!(errors.len(), 1, "{tiles:?} entry {i} {delta:+}: {errors:?}");
            assert!(errors[0].contains(&format!("(entry {i})")), "{errors:?}");
        }
    }
}
