//! Pattern-database heuristics on Korf's 100 15-puzzle instances (Korf 1985), read from
//! `instances/korf100.txt` with their published optimal lengths.
//!
//! Cost: about 10 s in release mode on 2 cores, most of it pdb-663 on all 100 (about 62M
//! generated nodes) and building its tables on the first run (~1.5 s; cached in the tests' cache,
//! `common::test_pdb_dir`, afterwards).

use crate::common;

use std::path::PathBuf;

use tilebench::board::{Board, Goal, Size};
use tilebench::heuristic::{HeuristicName, Prepared};
use tilebench::instances::InstanceSet;
use tilebench::search::{Limits, RunStatus};

struct Instance {
    id: u32,
    length: usize,
    md_nodes: u64,
    board: Board,
}

fn korf100() -> Vec<Instance> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("instances/korf100.txt");
    let set = InstanceSet::read(&path).unwrap();
    let col = set
        .extra_columns
        .iter()
        .position(|c| c == "korf1985_manhattan_nodes")
        .expect("korf100.txt keeps Korf's node counts");
    set.instances
        .iter()
        .map(|i| Instance {
            id: i.id.parse().unwrap(),
            length: i.optimal.expect("published optimal length") as usize,
            md_nodes: i.extra[col].parse().unwrap(),
            board: i.board.clone(),
        })
        .collect()
}

fn prepared(name: &str, goal: &Goal) -> Prepared {
    let name: HeuristicName = name.parse().unwrap();
    Prepared::new(&name, goal, &common::test_pdb_options()).unwrap()
}

fn solve_length(h: &Prepared, board: &Board, goal: &Goal) -> (usize, u64) {
    let r = crate::common::ida(h, board, goal, &Limits::none());
    assert_eq!(r.status, RunStatus::Solved);
    assert!(board.replays_to(&r.moves, goal));
    (r.moves.len(), r.generated())
}

#[test]
fn every_heuristic_agrees_with_manhattan_on_easy_instances() {
    let goal = Goal::blank_first(Size::new(4, 4).unwrap());
    let easy: Vec<Instance> = korf100()
        .into_iter()
        .filter(|i| i.md_nodes < 3_000_000)
        .collect();
    assert!(easy.len() >= 5);
    let md = prepared("manhattan", &goal);
    for name in ["pdb-555", "pdb-555r", "pdb-663r"] {
        let h = prepared(name, &goal);
        for inst in &easy {
            let (md_len, _) = solve_length(&md, &inst.board, &goal);
            let (len, _) = solve_length(&h, &inst.board, &goal);
            assert_eq!(md_len, inst.length, "#{} manhattan", inst.id);
            assert_eq!(len, inst.length, "#{} {name}", inst.id);
            assert!(h.evaluate(&inst.board) >= md.evaluate(&inst.board));
        }
    }
}

#[test]
fn pdb_663_solves_all_of_korfs_100_with_the_published_lengths() {
    let goal = Goal::blank_first(Size::new(4, 4).unwrap());
    let h = prepared("pdb-663", &goal);
    let mut total_nodes = 0u64;
    for inst in korf100() {
        let (len, nodes) = solve_length(&h, &inst.board, &goal);
        assert_eq!(len, inst.length, "instance #{}", inst.id);
        total_nodes += nodes;
    }
    // The total docs/performance.md quotes (and tests/golden/node_counts.csv holds per iteration): any
    // change in the tables, the lookups or the search changes it.
    assert_eq!(total_nodes, 153_110_996);
}

/// A max whose terms read the same tables (pdb-663 and its reflection) holds them once in
/// memory, and `table_bytes` (runs.csv's column) says so; other tables add up.
#[test]
fn a_max_counts_a_shared_table_once() {
    let goal = Goal::blank_first(Size::new(4, 4).unwrap());
    let bytes = |name: &str| prepared(name, &goal).table_bytes();
    let (one, other) = (bytes("pdb-663"), bytes("pdb-555"));
    assert!(one > 0 && other > 0);
    assert_eq!(bytes("max(pdb-663,pdb-663r)"), one);
    assert_eq!(bytes("max(pdb-663,pdb-555,pdb-663r)"), one + other);
    assert_eq!(bytes("max(manhattan,pdb-555)"), other);
}

/// The 7-8 tables take at most 300 MB in memory (four bits an entry, 577 MB at one byte), read
/// from the tests' cache in the one-byte file format every tilebench writes; pdb-78r still solves
/// Korf's instances with the published lengths (tests/it/golden.rs holds its exact counts on all
/// 100).
#[test]
fn the_7_8_tables_take_at_most_300_mb() {
    let goal = Goal::blank_first(Size::new(4, 4).unwrap());
    let h = prepared("pdb-78r", &goal);
    let bytes = h.table_bytes();
    assert!(bytes <= 300_000_000, "7-8 tables take {bytes} bytes");
    for inst in korf100().into_iter().take(10) {
        let (len, _) = solve_length(&h, &inst.board, &goal);
        assert_eq!(len, inst.length, "instance #{}", inst.id);
    }
}
