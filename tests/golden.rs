//! Golden node counts: the exact per-iteration (bound, expanded, generated) counts of IDA* on a
//! fixed set of boards for every heuristic, committed in `tests/golden/node_counts.csv`. Any
//! change in what the search does (operator order, pruning, a heuristic's values, counting)
//! changes some count and fails this test, whatever the machine's speed or noise.
//!
//! The boards are stored in the file, so checking does not depend on how they were made. After an
//! intended change of the search, regenerate the file and commit it with the change:
//!
//! ```sh
//! TILEBENCH_BLESS=1 cargo test --release --test golden
//! ```
//!
//! Blessing makes the boards afresh with tilebench's seeded generator: uniform 3×3 boards
//! (blank-last and spiral goals), 4×4 random walks (blank-last goal), 5×5 random walks
//! (blank-first goal, for the 24-puzzle tables), and the easy Korf instances of
//! `instances/korf100.txt` (Korf's 1985 Manhattan count below 20 million; blank-first goal).
//!
//! Cost: the searches take seconds; on a fresh clone the first run also builds the pattern
//! databases it covers into the cache (`TILEBENCH_PDB_DIR` or `./pdb-cache`): the 7-8 tables take
//! about two minutes and 1 GB, the 6-6-6-6 tables about half a minute.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use rayon::prelude::*;

use tilebench::board::{Board, Goal, Size};
use tilebench::heuristic::{HeuristicName, Prepared};
use tilebench::instances::generate::{self, Method, Spec};
use tilebench::instances::InstanceSet;
use tilebench::pdb::CacheOptions;
use tilebench::search::{Limits, Status};

/// Every heuristic the golden set covers, by name. Add a name here and bless to cover it;
/// a (case, heuristic) pair whose heuristic cannot be built for the case's goal is skipped.
/// The named 15-puzzle PDBs apply to the 4×4 cases, pdb-6666r to the 5×5 ones, the custom 4-4
/// partitions to the 3×3 ones.
const HEURISTICS: &[&str] = &[
    "manhattan",
    "linear-conflict",
    "pdb-555",
    "pdb-555r",
    "pdb-663",
    "pdb-663r",
    "pdb-78",
    "pdb-78r",
    "pdb-6666r",
    "pdb:1.2.3.4/5.6.7.8",
    "pdbr:1.2.3.4/5.6.7.8",
];

/// Korf instances whose 1985 Manhattan node count is below this are in the golden set.
const KORF_EASY_NODES: u64 = 20_000_000;

const HEADER: &str = "case,heuristic,size,goal,tiles,iteration,bound,expanded,generated,length";

fn golden_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/node_counts.csv")
}

/// A board to solve, with the goal it is solved to.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Case {
    name: String,
    size: String,
    goal: String,
    tiles: String,
}

/// One iteration of one (case, heuristic) search: a line of the golden file.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Row {
    case: Case,
    heuristic: String,
    iteration: usize,
    bound: u32,
    expanded: u64,
    generated: u64,
    /// The solution length (the same on every row of a search).
    length: usize,
}

impl Row {
    fn line(&self) -> String {
        format!(
            "{},{},{},{},{},{},{},{},{},{}",
            self.case.name,
            self.heuristic,
            self.case.size,
            self.case.goal,
            self.case.tiles,
            self.iteration,
            self.bound,
            self.expanded,
            self.generated,
            self.length
        )
    }
}

/// Solves one case with one heuristic; `None` when the heuristic does not apply to the goal.
fn search(case: &Case, heuristic: &str) -> Option<Vec<Row>> {
    let size = Size::parse(&case.size).unwrap();
    let goal = Goal::parse(&case.goal, size).unwrap();
    let board = Board::parse(&case.tiles, Some(size)).unwrap();
    let name: HeuristicName = heuristic.parse().unwrap();
    let prepared = Prepared::new(&name, &goal, &CacheOptions::default()).ok()?;
    let result = prepared.solve(&board, &goal, &Limits::none()).unwrap();
    assert_eq!(result.status, Status::Solved, "{case:?} with {heuristic}");
    assert!(board.replays_to(&result.moves, &goal));
    Some(
        result
            .iterations
            .iter()
            .enumerate()
            .map(|(i, it)| Row {
                case: case.clone(),
                heuristic: heuristic.to_string(),
                iteration: i + 1,
                bound: it.bound,
                expanded: it.expanded,
                generated: it.generated,
                length: result.moves.len(),
            })
            .collect(),
    )
}

fn parse_golden(text: &str) -> Vec<Row> {
    let mut lines = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.starts_with('#') && !l.trim().is_empty());
    let (_, header) = lines.next().expect("golden file has a header");
    assert_eq!(header, HEADER, "golden file header");
    lines
        .map(|(n, l)| {
            let f: Vec<&str> = l.split(',').collect();
            assert_eq!(f.len(), 10, "golden file line {}: {l}", n + 1);
            let num = |i: usize| -> u64 {
                f[i].parse()
                    .unwrap_or_else(|_| panic!("golden file line {}: field {}", n + 1, i + 1))
            };
            Row {
                case: Case {
                    name: f[0].into(),
                    size: f[2].into(),
                    goal: f[3].into(),
                    tiles: f[4].into(),
                },
                heuristic: f[1].into(),
                iteration: num(5) as usize,
                bound: num(6) as u32,
                expanded: num(7),
                generated: num(8),
                length: num(9) as usize,
            }
        })
        .collect()
}

type Searches = BTreeMap<(String, String), Vec<Row>>;

/// Groups rows by (case name, heuristic).
fn group(rows: &[Row]) -> Searches {
    let mut m: Searches = BTreeMap::new();
    for r in rows {
        m.entry((r.case.name.clone(), r.heuristic.clone()))
            .or_default()
            .push(r.clone());
    }
    m
}

/// Compares expected with actual searches; returns one line per difference (empty when equal).
fn differences(expected: &Searches, actual: &Searches) -> Vec<String> {
    let mut out = Vec::new();
    for (key, want) in expected {
        let Some(got) = actual.get(key) else {
            out.push(format!("{} {}: not searched", key.0, key.1));
            continue;
        };
        if want.len() != got.len() {
            out.push(format!(
                "{} {}: {} iterations, golden has {}",
                key.0,
                key.1,
                got.len(),
                want.len()
            ));
        }
        for (w, g) in want.iter().zip(got) {
            if (w.bound, w.expanded, w.generated, w.length)
                != (g.bound, g.expanded, g.generated, g.length)
            {
                out.push(format!(
                    "{} {} iteration {}: golden bound {} expanded {} generated {} length {}, \
                     now bound {} expanded {} generated {} length {}",
                    key.0,
                    key.1,
                    w.iteration,
                    w.bound,
                    w.expanded,
                    w.generated,
                    w.length,
                    g.bound,
                    g.expanded,
                    g.generated,
                    g.length
                ));
            }
        }
    }
    for key in actual.keys().filter(|k| !expected.contains_key(*k)) {
        out.push(format!("{} {}: not in the golden file", key.0, key.1));
    }
    out
}

/// Runs every (case, heuristic) search of `cases` × `heuristics` in parallel.
fn run_all(pairs: &[(Case, String)]) -> Searches {
    let rows: Vec<Row> = pairs
        .par_iter()
        .filter_map(|(c, h)| search(c, h))
        .flatten()
        .collect();
    group(&rows)
}

// ---- making the boards (bless only) ----

fn case(name: String, goal: &Goal, board: &Board) -> Case {
    Case {
        name,
        size: board.size().to_string(),
        goal: goal.name(),
        tiles: board.to_string(),
    }
}

/// Seeded boards from tilebench's own generator (the same as `tilebench gen`), named
/// `<prefix>-01`, `<prefix>-02`, ….
fn generated(
    cases: &mut Vec<Case>,
    prefix: &str,
    goal: Goal,
    seed: u64,
    count: usize,
    method: Method,
) {
    let spec = Spec {
        size: goal.size(),
        goal: goal.clone(),
        count,
        seed,
        method,
    };
    for (i, b) in generate::boards(&spec).iter().enumerate() {
        cases.push(case(format!("{prefix}-{:02}", i + 1), &goal, b));
    }
}

fn make_cases() -> Vec<Case> {
    let mut cases = Vec::new();
    let (s3, s4, s5) = (size("3x3"), size("4x4"), size("5x5"));
    generated(
        &mut cases,
        "3x3-blank-last",
        Goal::blank_last(s3),
        1,
        12,
        Method::Uniform,
    );
    generated(
        &mut cases,
        "3x3-spiral",
        Goal::spiral(s3),
        2,
        12,
        Method::Uniform,
    );
    generated(
        &mut cases,
        "4x4-walk30",
        Goal::blank_last(s4),
        3,
        5,
        Method::Walk(30),
    );
    generated(
        &mut cases,
        "4x4-walk60",
        Goal::blank_last(s4),
        4,
        5,
        Method::Walk(60),
    );
    generated(
        &mut cases,
        "5x5-walk40",
        Goal::blank_first(s5),
        5,
        4,
        Method::Walk(40),
    );
    let korf = Path::new(env!("CARGO_MANIFEST_DIR")).join("instances/korf100.txt");
    let set = InstanceSet::read(&korf).unwrap();
    let col = set
        .extra_columns
        .iter()
        .position(|c| c == "korf1985_manhattan_nodes")
        .expect("korf100.txt keeps Korf's node counts");
    for i in &set.instances {
        if i.extra[col].parse::<u64>().unwrap() < KORF_EASY_NODES {
            cases.push(case(format!("korf-{:0>3}", i.id), &set.goal, &i.board));
        }
    }
    cases
}

fn size(text: &str) -> Size {
    Size::parse(text).unwrap()
}

fn pairs(cases: &[Case]) -> Vec<(Case, String)> {
    cases
        .iter()
        .flat_map(|c| HEURISTICS.iter().map(move |h| (c.clone(), h.to_string())))
        .collect()
}

fn bless() {
    let cases = make_cases();
    let searches = run_all(&pairs(&cases));
    let mut text = String::new();
    let _ = writeln!(
        text,
        "# Golden IDA* node counts, one line per iteration; checked by tests/golden.rs.\n\
         # Regenerate after an intended change of the search: \
         TILEBENCH_BLESS=1 cargo test --release --test golden"
    );
    let _ = writeln!(text, "{HEADER}");
    // In the order the cases were made, then by heuristic as listed.
    for c in &cases {
        for h in HEURISTICS {
            if let Some(rows) = searches.get(&(c.name.clone(), h.to_string())) {
                for r in rows {
                    let _ = writeln!(text, "{}", r.line());
                }
            }
        }
    }
    std::fs::create_dir_all(golden_path().parent().unwrap()).unwrap();
    std::fs::write(golden_path(), text).unwrap();
    eprintln!(
        "blessed {} searches into {}",
        searches.len(),
        golden_path().display()
    );
}

/// Reads the golden file, blessing it first (once per test process) when asked to.
fn load_golden() -> Vec<Row> {
    static BLESSED: std::sync::Once = std::sync::Once::new();
    BLESSED.call_once(|| {
        if std::env::var_os("TILEBENCH_BLESS").is_some() {
            bless();
        }
    });
    let text = std::fs::read_to_string(golden_path()).unwrap_or_else(|e| {
        panic!(
            "{}: {e}; make it with TILEBENCH_BLESS=1 cargo test --release --test golden",
            golden_path().display()
        )
    });
    parse_golden(&text)
}

/// The (case, heuristic) pairs of the golden file, each case once.
fn golden_pairs(rows: &[Row]) -> Vec<(Case, String)> {
    let mut seen: Vec<(Case, String)> = Vec::new();
    for r in rows.iter().filter(|r| r.iteration == 1) {
        seen.push((r.case.clone(), r.heuristic.clone()));
    }
    seen
}

#[test]
fn golden_node_counts() {
    let rows = load_golden();
    let expected = group(&rows);
    // Every listed heuristic is covered on some case, so a missing bless is noticed.
    for h in HEURISTICS {
        assert!(
            expected.keys().any(|(_, eh)| eh == h),
            "the golden file has no counts for {h}: bless it"
        );
    }
    let actual = run_all(&golden_pairs(&rows));
    let diffs = differences(&expected, &actual);
    assert!(
        diffs.is_empty(),
        "{} golden node counts differ (if the change is intended, bless: \
         TILEBENCH_BLESS=1 cargo test --release --test golden):\n{}",
        diffs.len(),
        diffs.join("\n")
    );
}

#[test]
fn golden_file_covers_every_family() {
    let rows = load_golden();
    for prefix in [
        "3x3-blank-last-",
        "3x3-spiral-",
        "4x4-walk30-",
        "4x4-walk60-",
        "5x5-walk40-",
        "korf-",
    ] {
        assert!(
            rows.iter().any(|r| r.case.name.starts_with(prefix)),
            "no {prefix} cases"
        );
    }
    // Every heuristic the golden set names has counts in it.
    for h in HEURISTICS {
        assert!(rows.iter().any(|r| r.heuristic == *h), "no rows for {h}");
    }
    // The tiles in the file are the boards searched: each row of a case agrees.
    for r in &rows {
        let b = Board::parse(&r.case.tiles, Some(Size::parse(&r.case.size).unwrap())).unwrap();
        assert_eq!(b.to_string(), r.case.tiles);
    }
}

#[test]
fn the_checker_reports_an_altered_count() {
    let rows = load_golden();
    let first = golden_pairs(&rows)[0].clone();
    let expected: Vec<Row> = rows
        .iter()
        .filter(|r| r.case == first.0 && r.heuristic == first.1)
        .cloned()
        .collect();
    let actual = group(&search(&first.0, &first.1).unwrap());
    assert!(differences(&group(&expected), &actual).is_empty());
    for field in 0..3 {
        let mut altered = expected.clone();
        let last = altered.len() - 1;
        match field {
            0 => altered[last].generated += 1,
            1 => altered[0].expanded -= 1,
            _ => altered[last].bound += 2,
        }
        let diffs = differences(&group(&altered), &actual);
        assert_eq!(diffs.len(), 1, "{diffs:?}");
        assert!(diffs[0].contains(&first.0.name), "{diffs:?}");
    }
    let mut dropped = expected.clone();
    dropped.pop();
    assert_eq!(differences(&group(&dropped), &actual).len(), 1);
}
