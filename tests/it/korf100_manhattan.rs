//! Real searches against Korf's (1985) published node counts: the six easiest of his 100
//! instances under IDA* + Manhattan, written as a results directory and reported. Cost: about
//! 6.2 million nodes, well under a second in release.

use crate::common;

use std::fs;

use tilebench::analysis::{per_instance, published_column};
use tilebench::board::{Board, Goal};
use tilebench::heuristic::{HeuristicName, Prepared};
use tilebench::report::{write_report, ReportOptions};
use tilebench::results::io::write_rows as write_csv;
use tilebench::results::Results;
use tilebench::results::{
    Growth, IterationRecord, RunRecord, RunStatus, ITERATIONS_FILE, RUNS_FILE,
};
use tilebench::search::Limits;

/// (id, tiles, Korf 1985's Manhattan node count), copied from shared/data/korf100-15puzzle.tsv.
/// #42's count is one of the two that public transcriptions disagree on; this is the kept value
/// (instances/korf100.txt says which and why).
const EASY: &[(&str, &str, u64)] = &[
    ("79", "0 1 9 7 11 13 5 3 14 12 4 2 8 6 10 15", 540_860),
    ("12", "14 1 9 6 4 8 12 5 7 2 3 0 10 11 13 15", 546_344),
    ("42", "4 5 7 2 9 14 12 13 0 3 6 11 8 1 15 10", 877_823),
    ("55", "13 8 14 3 9 1 0 7 15 5 4 10 12 2 6 11", 927_212),
    ("97", "9 14 5 7 8 15 1 2 10 4 13 6 12 0 11 3", 1_002_927),
    ("19", "7 11 8 3 14 0 6 15 1 4 13 9 5 12 2 10", 1_280_495),
];

#[test]
fn report_counts_exact_matches_with_korf_1985() {
    let dir = common::fresh_dir("korf100-manhattan/results/korf100");
    let mut runs = Vec::new();
    let mut iterations = Vec::new();
    let mut matches = 0;
    for &(id, tiles, korf) in EASY {
        let board = Board::parse(tiles, None).unwrap();
        let goal = Goal::blank_first(board.size());
        let h = Prepared::new(
            &HeuristicName::Manhattan,
            &goal,
            &common::test_pdb_options(),
        )
        .unwrap();
        let r = crate::common::ida(&h, &board, &goal, &Limits::none());
        if r.generated() + 1 == korf {
            matches += 1;
        }
        let g = Growth::of(&r.iterations);
        for (i, it) in r.iterations.iter().enumerate() {
            iterations.push(IterationRecord {
                instance_set: "korf100".into(),
                instance_id: id.into(),
                heuristic: "manhattan".into(),
                iteration: i as u32 + 1,
                bound: it.bound,
                expanded: it.expanded,
                generated: it.generated,
                seconds: it.seconds,
                ..IterationRecord::default()
            });
        }
        runs.push(RunRecord {
            instance_set: "korf100".into(),
            instance_id: id.into(),
            heuristic: "manhattan".into(),
            status: RunStatus::Solved,
            length: r.length().map(|l| l as u32),
            optimal_length: None,
            h0: Some(r.h0),
            iterations: r.iterations.len() as u32,
            expanded: Some(r.expanded()),
            generated: Some(r.generated()),
            last_iteration_generated: Some(r.iterations.last().unwrap().generated),
            seconds: r.seconds,
            nodes_per_second: Some(r.generated() as f64 / r.seconds),
            growth_ratio: g.ratio,
            overhead_measured: g.overhead_measured,
            overhead_predicted: g.overhead_predicted,
            moves: String::new(),
            verified: true,
            threads: 1,
            search_threads: 1,
            ..RunRecord::default()
        });
    }
    write_csv(&dir.join(RUNS_FILE), &runs).unwrap();
    write_csv(&dir.join(ITERATIONS_FILE), &iterations).unwrap();

    let results = Results::load(&dir).unwrap();
    let c =
        per_instance::compare(&results, published_column("korf100", "manhattan").unwrap()).unwrap();
    assert_eq!((c.rows.len(), c.exact()), (EASY.len(), matches));
    // The shared data notes that 96 of the 100 reproduce exactly; these six do.
    assert_eq!(matches, EASY.len());
    assert_eq!(c.totals().1, EASY.iter().map(|e| e.2).sum::<u64>());

    let out = dir
        .parent()
        .unwrap()
        .parent()
        .unwrap()
        .join("reports/korf100");
    let md =
        fs::read_to_string(write_report(&dir, &out, &ReportOptions::default()).unwrap()).unwrap();
    assert!(md.contains("**6 of 6 instances match exactly**"), "{md}");
    assert!(md.contains("No `meta.json` in the results directory"));
    // Korf & Felner's averages are over all 100: with 6 run, none is set beside ours.
    assert!(md.contains("Not comparable: 6 of 100 instances."), "{md}");
    assert!(!md.contains("401,189,630"), "{md}");
}
