//! Golden node counts: the exact per-iteration (bound, expanded, generated) counts of IDA* on a
//! fixed set of boards for every heuristic, committed in `tests/golden/node_counts.csv`. Any
//! change in what the search does (operator order, pruning, a heuristic's values, counting)
//! changes some count and fails this test, whatever the machine's speed or noise.
//!
//! The file is written by the code it checks, so it holds only counts that something independent
//! reproduces: blessing keeps a search only when the naive reference of `crate::reference`
//! (IDA* re-evaluating a from-the-definition heuristic at every node) gives the same
//! per-iteration counts, which it tries on every search of at most [`BLESS_REFERENCE_BUDGET`]
//! generated nodes, or when a published count confirms it (Korf's 1985 Manhattan counts, Korf &
//! Felner's pdb-6666r counts); a disagreement refuses the blessing, a search beyond both is left
//! out of the file. Every solution length also agrees with a truth computed without the
//! heuristic under test, checked on every run (and before blessing):
//! - `3x3-*`: exhaustive breadth-first search (`brute_force::distances`);
//! - `4x4-walk30-*`: bidirectional breadth-first search (`brute_force::distance_bidirectional`);
//! - `4x4-walk60-*`, `5x5-walk40-*`: IDA* with Manhattan distance, itself checked against
//!   breadth-first search on every state of the small boards (tests/solver.rs);
//! - `korf-*`: Korf's (1985) published optimal lengths, `instances/korf100.txt` (all 100 for
//!   every 15-puzzle pattern database; Manhattan and linear conflict on the instances Korf's
//!   Manhattan count puts below 20 million nodes);
//! - `korf24-*`: Korf & Felner's (2002) published optimal length *and* node count for pdb-6666r,
//!   `instances/korf50-24.txt` (the two instances that need under 10^8 nodes).
//!
//! The boards are stored in the file, so checking does not depend on how they were made. After an
//! intended change of the search, regenerate the file and commit it with the change:
//!
//! ```sh
//! TILEBENCH_BLESS=1 cargo test --release --test it -- golden::
//! ```
//!
//! Only the exact value `1` blesses; blessing prints every count it changes (old and new), and
//! refuses when a length disagrees with its truth. It makes the boards afresh with tilebench's
//! seeded generator: uniform 3×3 boards (blank-last and spiral goals), 4×4 random walks
//! (blank-last goal), 5×5 random walks (blank-first goal, for the 24-puzzle tables), and the
//! Korf instances above.
//!
//! Cost: about 20 s of searching on 2 cores. Tables come from the tests' own cache
//! (`$TILEBENCH_TEST_PDB_DIR`, else `target/tmp/pdb-cache`), loaded once per test process; on a
//! fresh clone the first run builds them: the two 7-8 sets take about 40 s each and 1 GB, the
//! 6-6-6-6 set about half a minute.

use crate::common;

use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};

use rayon::prelude::*;

use tilebench::board::{Board, Goal, Size};
use tilebench::brute_force;
use tilebench::heuristic::{HeuristicName, Prepared};
use tilebench::instances::generate::{self, Sampling, Spec};
use tilebench::instances::InstanceSet;
use tilebench::search::{Limits, RunStatus};

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
    "walking-distance",
    "max(walking-distance,linear-conflict)",
    "max(walking-distance,pdb-663r)",
];

/// Korf instances whose 1985 Manhattan node count is below this are searched with Manhattan and
/// linear conflict; the pattern databases search all 100.
const KORF_EASY_NODES: u64 = 20_000_000;

/// Searches of at most this many generated nodes are replayed by the naive reference when
/// blessing; larger ones are kept only when a published count confirms them.
const BLESS_REFERENCE_BUDGET: u64 = 100_000;

/// Korf & Felner's 24-puzzle instances searched with pdb-6666r: the two their IDA* solved in
/// under 10^8 nodes (38,173,507 and 65,099,578).
const KORF24_IDS: &[&str] = &["38", "40"];

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

/// The heuristic `name` built for `goal`, or `None` when it does not apply to that goal. Built
/// or loaded once per test process (the 7-8 tables are 550 MB), from the tests' own cache.
fn prepared(name: &str, goal: &Goal) -> Option<Prepared> {
    type Cache = Mutex<HashMap<(String, String), Option<Prepared>>>;
    static CACHE: OnceLock<Cache> = OnceLock::new();
    let key = (name.to_string(), format!("{} {}", goal.size(), goal.name()));
    // Held while building, so that no table is loaded twice.
    let mut cache = CACHE.get_or_init(Default::default).lock().unwrap();
    cache
        .entry(key)
        .or_insert_with(|| {
            let name: HeuristicName = name.parse().unwrap();
            Prepared::new(&name, goal, &common::test_pdb_options()).ok()
        })
        .clone()
}

/// Solves one case with one heuristic; `None` when the heuristic does not apply to the goal.
fn search(case: &Case, heuristic: &str) -> Option<Vec<Row>> {
    let size = Size::parse(&case.size).unwrap();
    let goal = Goal::parse(&case.goal, size).unwrap();
    let board = Board::parse(&case.tiles, Some(size)).unwrap();
    let prepared = prepared(heuristic, &goal)?;
    let result = crate::common::ida(&prepared, &board, &goal, &Limits::none());
    assert_eq!(
        result.status,
        RunStatus::Solved,
        "{case:?} with {heuristic}"
    );
    assert!(board.replays_to(&result.moves, &goal));
    let errors = path_errors(&prepared, &board, &result.moves);
    assert!(
        errors.is_empty(),
        "{} with {heuristic}: {errors:?}",
        case.name
    );
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

/// Along an optimal path s_0 … s_L (the search's own solution, whose optimality the truth check
/// below establishes), every state is within reach: h(s_i) ≤ L − i. And every heuristic here
/// claims that each move changes h by an odd amount (Manhattan and walking distance by ±1, linear
/// conflict by ±1 or ±3, each pattern-database group by the parity of its tiles' Manhattan sum,
/// see src/heuristic/pdb.rs; a max keeps the common parity), so h(s_i) + i has the parity of L.
fn path_errors(h: &Prepared, board: &Board, moves: &[tilebench::moves::Dir]) -> Vec<String> {
    let length = moves.len() as u32;
    let mut state = board.clone();
    let mut errors = Vec::new();
    for i in 0..=moves.len() {
        let value = h.evaluate(&state);
        let left = length - i as u32;
        if value > left {
            errors.push(format!(
                "h = {value} at step {i} of {length}, {left} moves from the goal"
            ));
        }
        if (value + i as u32) % 2 != length % 2 {
            errors.push(format!("h = {value} at step {i} of {length}: wrong parity"));
        }
        if let Some(&d) = moves.get(i) {
            state.apply(d).unwrap();
        }
    }
    errors
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
            // A max(A,B) heuristic keeps its commas: the fields after it are counted from the end.
            let all: Vec<&str> = l.split(',').collect();
            assert!(all.len() >= 10, "golden file line {}: {l}", n + 1);
            let extra = all.len() - 10;
            let heuristic = all[1..2 + extra].join(",");
            let mut f: Vec<&str> = vec![all[0], &heuristic];
            f.extend(&all[2 + extra..]);
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

/// Runs every (case, heuristic) search of `pairs` in parallel.
fn run_all(pairs: &[(Case, String)]) -> Searches {
    // Load the tables first, one heuristic at a time, so the searches never wait on a build.
    for (c, h) in pairs {
        let size = Size::parse(&c.size).unwrap();
        prepared(h, &Goal::parse(&c.goal, size).unwrap());
    }
    let rows: Vec<Row> = pairs
        .par_iter()
        .filter_map(|(c, h)| search(c, h))
        .flatten()
        .collect();
    group(&rows)
}

// ---- independent truth ----

fn instance_file(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("instances")
        .join(name)
}

/// One of Korf's 100, as the golden file names it.
struct Korf {
    case: String,
    length: usize,
    manhattan_nodes: u64,
}

/// Korf's 100 from `instances/korf100.txt`, with his published lengths and Manhattan counts
/// (#42 and #98: see the file's header on the two transcriptions; only the counts differed).
fn korf100() -> Vec<Korf> {
    let set = InstanceSet::read(&instance_file("korf100.txt")).unwrap();
    let col = column(&set, "korf1985_manhattan_nodes");
    set.instances
        .iter()
        .map(|i| Korf {
            case: format!("korf-{:0>3}", i.id),
            length: i.optimal.expect("published length") as usize,
            manhattan_nodes: i.extra[col].parse().unwrap(),
        })
        .collect()
}

fn column(set: &InstanceSet, name: &str) -> usize {
    set.extra_columns
        .iter()
        .position(|c| c == name)
        .unwrap_or_else(|| panic!("the instance file keeps the column {name}"))
}

/// What a search of a case must give, known without the heuristics under test.
#[derive(Debug, Clone)]
struct Truth {
    length: usize,
    /// Korf & Felner's published node count for pdb-6666r.
    pdb_6666r_nodes: Option<u64>,
    /// Korf's (1985) published Manhattan count (generated + 1 for the root).
    manhattan_nodes: Option<u64>,
    source: &'static str,
}

/// Exhaustive BFS distances for a 3×3 goal, computed once per goal.
fn bfs_distance(goal: &Goal, board: &Board) -> usize {
    type Tables = Mutex<HashMap<String, std::sync::Arc<Vec<u8>>>>;
    static TABLES: OnceLock<Tables> = OnceLock::new();
    let table = TABLES
        .get_or_init(Default::default)
        .lock()
        .unwrap()
        .entry(goal.name())
        .or_insert_with(|| std::sync::Arc::new(brute_force::distances(goal)))
        .clone();
    let d = table[brute_force::rank(board.tiles())];
    assert_ne!(d, brute_force::UNREACHED, "{board} is unsolvable");
    d as usize
}

fn truth(case: &Case) -> Truth {
    let size = Size::parse(&case.size).unwrap();
    let goal = Goal::parse(&case.goal, size).unwrap();
    let board = Board::parse(&case.tiles, Some(size)).unwrap();
    let name = case.name.as_str();
    let only_length = |length, source| Truth {
        length,
        pdb_6666r_nodes: None,
        manhattan_nodes: None,
        source,
    };
    if name.starts_with("3x3-") {
        only_length(bfs_distance(&goal, &board), "exhaustive BFS")
    } else if name.starts_with("4x4-walk30-") {
        let d = brute_force::distance_bidirectional(&board, &goal, 30).expect("a 30-move walk");
        only_length(d, "bidirectional BFS")
    } else if name.starts_with("korf24-") {
        let set = InstanceSet::read(&instance_file("korf50-24.txt")).unwrap();
        let col = column(&set, "korf_felner2002_nodes");
        let i = set
            .instances
            .iter()
            .find(|i| format!("korf24-{:0>3}", i.id) == name)
            .unwrap();
        Truth {
            length: i.optimal.unwrap() as usize,
            pdb_6666r_nodes: Some(i.extra[col].parse().unwrap()),
            manhattan_nodes: None,
            source: "Korf & Felner (2002)",
        }
    } else if name.starts_with("korf-") {
        let k = korf100().into_iter().find(|k| k.case == name).unwrap();
        Truth {
            manhattan_nodes: Some(k.manhattan_nodes),
            ..only_length(k.length, "Korf (1985)")
        }
    } else {
        let md = Prepared::new(
            &HeuristicName::Manhattan,
            &goal,
            &tilebench::pdb::CacheOptions::default(),
        )
        .unwrap();
        let r = crate::common::ida(&md, &board, &goal, &Limits::none());
        assert!(board.replays_to(&r.moves, &goal));
        only_length(r.moves.len(), "IDA* with Manhattan distance")
    }
}

/// Every search whose length (or, where published, node count) differs from the truth.
fn truth_errors(searches: &Searches) -> Vec<String> {
    let mut cases: Vec<&Case> = searches.values().map(|rows| &rows[0].case).collect();
    cases.sort();
    cases.dedup();
    // Computed once per case and test process.
    static TRUTHS: OnceLock<Mutex<HashMap<String, Truth>>> = OnceLock::new();
    let known = TRUTHS.get_or_init(Default::default);
    let missing: Vec<&Case> = {
        let known = known.lock().unwrap();
        cases
            .into_iter()
            .filter(|c| !known.contains_key(&c.name))
            .collect()
    };
    let computed: Vec<(String, Truth)> = missing
        .par_iter()
        .map(|c| (c.name.clone(), truth(c)))
        .collect();
    known.lock().unwrap().extend(computed);
    let truths = known.lock().unwrap().clone();
    let mut errors = Vec::new();
    for ((name, heuristic), rows) in searches {
        let t = &truths[name];
        if rows[0].length != t.length {
            errors.push(format!(
                "{name} {heuristic}: length {}, {} says {}",
                rows[0].length, t.source, t.length
            ));
        }
        if let (Some(want), "pdb-6666r") = (t.pdb_6666r_nodes, heuristic.as_str()) {
            let got: u64 = rows.iter().map(|r| r.generated).sum();
            if got != want {
                errors.push(format!(
                    "{name} {heuristic}: {got} nodes generated, {} says {want}",
                    t.source
                ));
            }
        }
    }
    errors
}

/// Whether a published count confirms the search: Korf & Felner's pdb-6666r counts, Korf's
/// Manhattan counts (which count the root).
fn published_count_confirms(truth: &Truth, heuristic: &str, rows: &[Row]) -> bool {
    let generated: u64 = rows.iter().map(|r| r.generated).sum();
    match heuristic {
        "pdb-6666r" => truth.pdb_6666r_nodes == Some(generated),
        "manhattan" => truth.manhattan_nodes == Some(generated + 1),
        _ => false,
    }
}

/// Replays every search of at most `budget` generated nodes with the naive reference: returns
/// the disagreements, and the searches neither the reference nor a published count confirms.
fn reference_check(searches: &Searches, budget: u64) -> (Vec<String>, Vec<(String, String)>) {
    let truths: HashMap<String, Truth> = {
        // Published counts only matter for Korf's instances; others get no truth here.
        let mut m = HashMap::new();
        for rows in searches.values() {
            let name = &rows[0].case.name;
            if name.starts_with("korf") && !m.contains_key(name) {
                m.insert(name.clone(), truth(&rows[0].case));
            }
        }
        m
    };
    type Verdict<'a> = (&'a (String, String), Result<bool, String>);
    // The reference heuristics (and their table checks) first, outside the pool.
    for ((_, h), rows) in searches {
        let c = &rows[0].case;
        let size = Size::parse(&c.size).unwrap();
        crate::reference::reference(h, &Goal::parse(&c.goal, size).unwrap());
    }
    let checked: Vec<Verdict> = searches
        .par_iter()
        .map(|(key, rows)| {
            if let Some(t) = truths.get(&key.0) {
                if published_count_confirms(t, &key.1, rows) {
                    return (key, Ok(true));
                }
            }
            let generated: u64 = rows.iter().map(|r| r.generated).sum();
            if generated > budget {
                return (key, Ok(false));
            }
            let counts: Vec<(u32, u64, u64)> = rows
                .iter()
                .map(|r| (r.bound, r.expanded, r.generated))
                .collect();
            let c = &rows[0].case;
            let size = Size::parse(&c.size).unwrap();
            let case = crate::reference::Case {
                set: c.name.clone(),
                goal: Goal::parse(&c.goal, size).unwrap(),
                board: Board::parse(&c.tiles, Some(size)).unwrap(),
            };
            let found = crate::reference::naive_search(
                tilebench::search::Algorithm::Ida,
                Some(&key.1),
                &case,
            );
            let want: Vec<(u32, u64, u64)> = found
                .iterations
                .iter()
                .map(|i| (i.bound, i.expanded, i.generated))
                .collect();
            if want == counts {
                (key, Ok(true))
            } else {
                (
                    key,
                    Err(format!(
                        "{} {}: (bound, expanded, generated) {counts:?}, the reference {want:?}",
                        key.0, key.1
                    )),
                )
            }
        })
        .collect();
    let mut errors = Vec::new();
    let mut unconfirmed = Vec::new();
    for (key, r) in checked {
        match r {
            Ok(true) => {}
            Ok(false) => unconfirmed.push(key.clone()),
            Err(e) => errors.push(e),
        }
    }
    (errors, unconfirmed)
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
    sampling: Sampling,
) {
    let spec = Spec {
        size: goal.size(),
        goal: goal.clone(),
        count,
        seed,
        sampling,
    };
    for (i, b) in generate::boards(&spec).unwrap().iter().enumerate() {
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
        Sampling::Uniform,
    );
    generated(
        &mut cases,
        "3x3-spiral",
        Goal::spiral(s3),
        2,
        12,
        Sampling::Uniform,
    );
    generated(
        &mut cases,
        "4x4-walk30",
        Goal::blank_last(s4),
        3,
        5,
        Sampling::Walk(30),
    );
    generated(
        &mut cases,
        "4x4-walk60",
        Goal::blank_last(s4),
        4,
        5,
        Sampling::Walk(60),
    );
    generated(
        &mut cases,
        "5x5-walk40",
        Goal::blank_first(s5),
        5,
        4,
        Sampling::Walk(40),
    );
    let set = InstanceSet::read(&instance_file("korf100.txt")).unwrap();
    for i in &set.instances {
        cases.push(case(format!("korf-{:0>3}", i.id), &set.goal, &i.board));
    }
    let set = InstanceSet::read(&instance_file("korf50-24.txt")).unwrap();
    for i in set
        .instances
        .iter()
        .filter(|i| KORF24_IDS.contains(&i.id.as_str()))
    {
        cases.push(case(format!("korf24-{:0>3}", i.id), &set.goal, &i.board));
    }
    cases
}

/// Whether the golden set searches `case` with `heuristic` (when the heuristic applies): the
/// pattern databases everywhere but the 7-8 ones on the blank-last walks (the tests build those
/// 575 MB of tables for Korf's goal only), Manhattan and linear conflict on all but the hard
/// Korf instances, and only pdb-6666r on the 24-puzzle instances.
fn searched(case: &Case, heuristic: &str, korf_easy: &[String]) -> bool {
    if case.name.starts_with("4x4-walk") && heuristic.starts_with("pdb-78") {
        false
    } else if case.name.starts_with("korf24-") {
        heuristic == "pdb-6666r"
    } else if case.name.starts_with("korf-") && !heuristic.starts_with("pdb") {
        korf_easy.contains(&case.name)
    } else {
        true
    }
}

fn size(text: &str) -> Size {
    Size::parse(text).unwrap()
}

fn pairs(cases: &[Case]) -> Vec<(Case, String)> {
    let easy: Vec<String> = korf100()
        .into_iter()
        .filter(|k| k.manhattan_nodes < KORF_EASY_NODES)
        .map(|k| k.case)
        .collect();
    cases
        .iter()
        .flat_map(|c| HEURISTICS.iter().map(move |h| (c.clone(), h.to_string())))
        .filter(|(c, h)| searched(c, h, &easy))
        .collect()
}

/// Rewrites the golden file; returns what changed, old and new values.
fn bless() -> String {
    let cases = make_cases();
    let searches = run_all(&pairs(&cases));
    let errors = truth_errors(&searches);
    assert!(
        errors.is_empty(),
        "not blessing: {} searches disagree with the independent truth:\n{}",
        errors.len(),
        errors.join("\n")
    );
    let (errors, unconfirmed) = reference_check(&searches, BLESS_REFERENCE_BUDGET);
    assert!(
        errors.is_empty(),
        "not blessing: {} searches disagree with the naive reference:\n{}",
        errors.len(),
        errors.join("\n")
    );
    let mut searches = searches;
    for key in &unconfirmed {
        searches.remove(key);
    }
    // Every count the blessing changes, old and new, for the commit message.
    let changes = match std::fs::read_to_string(golden_path()) {
        Ok(text) => differences(&group(&parse_golden(&text)), &searches),
        Err(e) => vec![format!("no golden file before ({e})")],
    };
    let mut text = String::new();
    let _ = writeln!(
        text,
        "# Golden IDA* node counts, one line per iteration; checked by tests/it/golden.rs.\n\
         # Regenerate after an intended change of the search: \
         TILEBENCH_BLESS=1 cargo test --release --test it -- golden::"
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
    format!(
        "blessed {} searches into {} ({} left out: beyond the reference's budget and no \
         published count); {} entries changed (old, then new):\n{}",
        searches.len(),
        golden_path().display(),
        unconfirmed.len(),
        changes.len(),
        changes.join("\n")
    )
}

/// What the blessing of this process changed, if it blessed.
static BLESSED_CHANGES: OnceLock<String> = OnceLock::new();

/// Whether `TILEBENCH_BLESS` asks for a blessing: only the exact value `1` does.
fn bless_requested(value: Option<&str>) -> bool {
    value == Some("1")
}

/// Reads the golden file, blessing it first (once per test process) when asked to.
fn load_golden() -> Vec<Row> {
    static BLESSED: std::sync::Once = std::sync::Once::new();
    BLESSED.call_once(|| {
        let value = std::env::var("TILEBENCH_BLESS").ok();
        if bless_requested(value.as_deref()) {
            BLESSED_CHANGES.set(bless()).unwrap();
        } else if let Some(v) = value {
            eprintln!("TILEBENCH_BLESS={v:?} is not 1: checking, not blessing");
        }
    });
    let text = std::fs::read_to_string(golden_path()).unwrap_or_else(|e| {
        panic!(
            "{}: {e}; make it with TILEBENCH_BLESS=1 cargo test --release --test it -- golden::",
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
    // A blessing run never passes: it reports what it changed (shown without --nocapture).
    if let Some(changes) = BLESSED_CHANGES.get() {
        panic!("{changes}\nrun again without TILEBENCH_BLESS to check the new file");
    }
    let expected = group(&rows);
    // Every listed heuristic is covered on some case, so a missing bless is noticed.
    for h in HEURISTICS {
        assert!(
            expected.keys().any(|(_, eh)| eh == h),
            "the golden file has no counts for {h}: bless it"
        );
    }
    let actual = run_all(&golden_pairs(&rows));
    let errors = truth_errors(&actual);
    assert!(
        errors.is_empty(),
        "{} searches disagree with the independent truth (a bug, not a count to bless):\n{}",
        errors.len(),
        errors.join("\n")
    );
    let diffs = differences(&expected, &actual);
    assert!(
        diffs.is_empty(),
        "{} golden node counts differ (if the change is intended, bless: \
         TILEBENCH_BLESS=1 cargo test --release --test it -- golden::):\n{}",
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
        "korf24-",
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
    // Only counts something independent confirms: within the naive reference's budget (it
    // replayed them when blessing) or confirmed by a published count.
    let searches = group(&rows);
    let mut truths: HashMap<String, Truth> = HashMap::new();
    for ((case, h), rows) in &searches {
        let generated: u64 = rows.iter().map(|r| r.generated).sum();
        if generated <= BLESS_REFERENCE_BUDGET {
            continue;
        }
        let t = truths
            .entry(case.clone())
            .or_insert_with(|| truth(&rows[0].case));
        assert!(
            published_count_confirms(t, h, rows),
            "{case} {h}: {generated} nodes, beyond the reference's budget and unconfirmed"
        );
    }
    // Korf's instances for every 15-puzzle pattern database (those within the budget).
    for h in HEURISTICS
        .iter()
        .filter(|h| h.starts_with("pdb-") && **h != "pdb-6666r")
    {
        let korf = searches
            .keys()
            .filter(|(c, eh)| c.starts_with("korf-") && eh == h)
            .count();
        assert!(korf >= 5, "{h}: {korf} Korf instances");
    }
    let k24: Vec<&str> = searches
        .keys()
        .filter(|(c, _)| c.starts_with("korf24-"))
        .map(|(c, h)| {
            assert_eq!(h, "pdb-6666r");
            c.as_str()
        })
        .collect();
    assert_eq!(k24, ["korf24-038", "korf24-040"]);
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

#[test]
fn only_the_exact_value_1_blesses() {
    assert!(bless_requested(Some("1")));
    for v in [
        None,
        Some("0"),
        Some(""),
        Some("yes"),
        Some("true"),
        Some(" 1"),
    ] {
        assert!(!bless_requested(v), "{v:?}");
    }
}

/// The truth check fails on a wrong length from each kind of truth, and on a wrong node count
/// for Korf & Felner's instances.
#[test]
fn the_truth_check_reports_a_wrong_length_or_count() {
    let rows = load_golden();
    let mut searches = group(&rows);
    // The golden file itself agrees with the truth (checked again here on its stored lengths).
    assert_eq!(truth_errors(&searches), Vec::<String>::new());
    let keys: Vec<(String, String)> = [
        "3x3-spiral-01",
        "4x4-walk30-01",
        "4x4-walk60-05",
        "korf-042",
    ]
    .iter()
    .map(|c| (c.to_string(), "manhattan".to_string()))
    .chain([("korf24-038".to_string(), "pdb-6666r".to_string())])
    .collect();
    let small: Searches = keys
        .iter()
        .map(|k| {
            (
                k.clone(),
                searches.remove(k).unwrap_or_else(|| panic!("{k:?}")),
            )
        })
        .collect();
    for k in &keys {
        let mut altered = small.clone();
        for r in altered.get_mut(k).unwrap() {
            r.length += 2;
        }
        let errors = truth_errors(&altered);
        assert_eq!(errors.len(), 1, "{k:?}: {errors:?}");
        assert!(
            errors[0].starts_with(&format!("{} {}: length", k.0, k.1)),
            "{errors:?}"
        );
    }
    let mut altered = small.clone();
    altered.get_mut(&keys[4]).unwrap()[0].generated += 1;
    let errors = truth_errors(&altered);
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(
        errors[0].contains("Korf & Felner (2002) says 38173507"),
        "{errors:?}"
    );
}

/// Blessing refuses a count the naive reference does not reproduce (an altered count of a 3×3
/// and a 4×4 search), and leaves out a search beyond the reference's budget that no published
/// count confirms.
#[test]
fn blessing_refuses_counts_the_reference_does_not_reproduce() {
    let rows = load_golden();
    let searches = group(&rows);
    let keys: Vec<(String, String)> = [
        ("3x3-spiral-01", "walking-distance"),
        ("4x4-walk30-01", "pdb-663r"),
        ("5x5-walk40-01", "pdb-6666r"),
    ]
    .iter()
    .map(|(c, h)| (c.to_string(), h.to_string()))
    .collect();
    let small: Searches = keys
        .iter()
        .map(|k| (k.clone(), searches[k].clone()))
        .collect();
    assert_eq!(reference_check(&small, u64::MAX), (vec![], vec![]));
    for k in &keys {
        let mut altered = small.clone();
        altered.get_mut(k).unwrap().last_mut().unwrap().generated += 1;
        let (errors, _) = reference_check(&altered, u64::MAX);
        assert_eq!(errors.len(), 1, "{k:?}: {errors:?}");
        assert!(errors[0].starts_with(&format!("{} {}:", k.0, k.1)));
    }
    let (errors, unconfirmed) = reference_check(&small, 0);
    assert!(errors.is_empty());
    assert_eq!(unconfirmed.len(), keys.len());
}
