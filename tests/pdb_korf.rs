//! Pattern-database heuristics on Korf's 100 15-puzzle instances (Korf 1985), read from
//! `../shared/data/korf100-15puzzle.tsv` with their published optimal lengths.
//!
//! Cost: about 10 s in release mode on 2 cores, most of it pdb-663 on all 100 (about 62M
//! generated nodes) and building its tables on the first run (~1.5 s; cached under the target
//! directory afterwards).

use std::path::PathBuf;

use tilebench::board::{Board, Goal, Size};
use tilebench::search::{Limits, Status};
use tilebench::solver::{HeuristicName, Options, Prepared};

struct Instance {
    id: u32,
    length: usize,
    md_nodes: u64,
    board: Board,
}

fn korf100() -> Vec<Instance> {
    let path =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/data/korf100-15puzzle.tsv");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e} (the shared data directory)", path.display()));
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.starts_with("id"))
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            Instance {
                id: f[0].parse().unwrap(),
                length: f[1].parse().unwrap(),
                md_nodes: f[3].parse().unwrap(),
                board: Board::parse(f[4], None).unwrap(),
            }
        })
        .collect()
}

fn prepared(name: &str, goal: &Goal) -> Prepared {
    let options = Options {
        pdb_dir: PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("pdb-cache"),
        build_missing: true,
        progress: false,
    };
    let name: HeuristicName = name.parse().unwrap();
    Prepared::new(&name, goal, &options).unwrap()
}

fn solve_length(h: &Prepared, board: &Board, goal: &Goal) -> (usize, u64) {
    let r = h.solve(board, goal, &Limits::none()).unwrap();
    assert_eq!(r.status, Status::Solved);
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
    // Far fewer nodes than Manhattan's 36 billion; loose bound, the figure is in the README.
    assert!(total_nodes < 1_000_000_000, "{total_nodes}");
}
