//! Issue #11, point 6: every reader of results (`plot`, `report`, `compare`, and `--resume`)
//! goes through the one results reader, which refuses with file, line and what is wrong: an
//! unknown status, seconds that are NaN, infinite or negative, a run twice, iteration rows that
//! do not add up to their run, an empty `runs.csv`. And a property test: mutated `runs.csv`,
//! `iterations.csv` and `meta.json` give a correct parse or an error naming the file, never a
//! panic (in the library and through the binary).

use crate::common;

use std::fs;
use std::path::Path;

use proptest::prelude::*;
use proptest::strategy::ValueTree;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};

use common::bin::{arg, run, stderr};
use common::mutate::{apply, mutation};
use common::{fresh_dir, synthetic_results};
use tilebench::results::io::{read_rows, write_rows};
use tilebench::results::{ReadMode, Results, RunRecord, ITERATIONS_FILE, META_FILE, RUNS_FILE};

/// `text` with the field `column` of 1-based line `line` set to `value` (no quoted fields).
fn set_field(text: &str, line: usize, column: &str, value: &str) -> String {
    let header: Vec<&str> = text.lines().next().unwrap().split(',').collect();
    let c = header.iter().position(|h| *h == column).unwrap();
    text.lines()
        .enumerate()
        .map(|(i, l)| {
            if i + 1 == line {
                let mut f: Vec<&str> = l.split(',').collect();
                f[c] = value;
                f.join(",")
            } else {
                l.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
        + "\n"
}

#[test]
fn plot_report_and_compare_refuse_bad_results_with_file_and_line() {
    let root = fresh_dir("results-checks");
    let good = root.join("good");
    synthetic_results(&good, "korf100", 6, 1, 3);
    let runs = fs::read_to_string(good.join(RUNS_FILE)).unwrap();
    let iterations = fs::read_to_string(good.join(ITERATIONS_FILE)).unwrap();
    let rows = runs.lines().count();
    let second = runs.lines().nth(1).unwrap();
    let its_gen = set_field(&iterations, 2, "generated", "999999999999");
    // (name, file, new text, what the message must say)
    let cases: Vec<(&str, &str, String, Vec<String>)> = vec![
        (
            "status",
            RUNS_FILE,
            set_field(&runs, 2, "status", "slovd"),
            vec!["runs.csv, line 2".into(), "slovd".into()],
        ),
        (
            "nan",
            RUNS_FILE,
            set_field(&runs, 3, "seconds", "NaN"),
            vec!["runs.csv, line 3".into(), "not a number".into()],
        ),
        (
            "inf",
            RUNS_FILE,
            set_field(&runs, 4, "seconds", "inf"),
            vec!["runs.csv, line 4".into(), "infinite".into()],
        ),
        (
            "negative",
            RUNS_FILE,
            set_field(&runs, 5, "seconds", "-0.5"),
            vec!["runs.csv, line 5".into(), "negative".into()],
        ),
        (
            "duplicate",
            RUNS_FILE,
            format!("{runs}{second}\n"),
            vec![
                format!("runs.csv, line {}", rows + 1),
                "appears twice (first on line 2)".into(),
            ],
        ),
        (
            "sums",
            ITERATIONS_FILE,
            its_gen,
            vec![
                "iterations.csv, line 2".into(),
                "its iterations sum to".into(),
                "runs.csv line 2 says".into(),
            ],
        ),
        (
            "empty",
            RUNS_FILE,
            String::new(),
            vec!["runs.csv: empty file (no header)".into()],
        ),
    ];
    // The good directory passes all three.
    for args in [
        vec!["plot", arg(&good), "--out", arg(&root.join("p-good"))],
        vec!["report", arg(&good), "--out", arg(&root.join("r-good"))],
        vec!["compare", arg(&good), arg(&good)],
    ] {
        let o = run(&args);
        assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stderr(&o));
    }
    for (name, file, text, says) in cases {
        let bad = root.join(name);
        fs::create_dir_all(&bad).unwrap();
        for f in [RUNS_FILE, ITERATIONS_FILE, META_FILE] {
            fs::copy(good.join(f), bad.join(f)).unwrap();
        }
        fs::write(bad.join(file), text).unwrap();
        let plots = root.join(format!("p-{name}"));
        let reports = root.join(format!("r-{name}"));
        for args in [
            vec!["plot", arg(&bad), "--out", arg(&plots)],
            vec!["report", arg(&bad), "--out", arg(&reports)],
            vec!["compare", arg(&good), arg(&bad)],
        ] {
            let o = run(&args);
            let err = stderr(&o);
            assert_eq!(o.status.code(), Some(2), "{name}: {args:?}: {err}");
            assert!(err.contains(arg(&bad)), "{name}: names the file: {err}");
            for s in &says {
                assert!(
                    err.contains(s.as_str()),
                    "{name}: {args:?}: want {s:?} in {err}"
                );
            }
        }
    }
}

/// Loads `dir` and checks the outcome: a parse that writes back and reads back the same, or an
/// error naming one of the files (and, for a row, its line).
fn check_load(dir: &Path) -> Result<(), TestCaseError> {
    match Results::load(dir) {
        Ok(r) => {
            let again = dir.join("again.csv");
            write_rows(&again, &r.runs).unwrap();
            let back: Vec<RunRecord> = read_rows(&again, ReadMode::Strict)
                .unwrap()
                .into_iter()
                .map(|(_, r)| r)
                .collect();
            prop_assert_eq!(back, r.runs);
        }
        Err(e) => {
            let msg = e.to_string();
            prop_assert!(
                [RUNS_FILE, ITERATIONS_FILE, META_FILE]
                    .iter()
                    .any(|f| msg.contains(&format!("{}/{f}", dir.display()))),
                "no file named: {}",
                msg
            );
        }
    }
    Ok(())
}

fn small_results(name: &str) -> (std::path::PathBuf, [String; 3]) {
    let dir = fresh_dir(name);
    synthetic_results(&dir, "s", 2, 1, 7);
    let texts =
        [RUNS_FILE, ITERATIONS_FILE, META_FILE].map(|f| fs::read_to_string(dir.join(f)).unwrap());
    (dir, texts)
}

proptest! {
    // A fixed seed: every run tries the same cases (a failure is saved to the regressions file
    // beside this file, to commit with the fix, and replayed first from then on).
    #![proptest_config(ProptestConfig {
        cases: 200,
        rng_seed: proptest::test_runner::RngSeed::Fixed(0x07e5_7c5f),
        ..ProptestConfig::default()
    })]

    #[test]
    fn mutated_results_give_a_parse_or_an_error_naming_the_file(
        which in 0usize..3,
        mutations in prop::collection::vec(mutation(), 1..4),
    ) {
        let (dir, texts) = small_results("results-fuzz");
        let files = [RUNS_FILE, ITERATIONS_FILE, META_FILE];
        let text = mutations.iter().fold(texts[which].clone(), |t, m| apply(&t, m));
        fs::write(dir.join(files[which]), &text).unwrap();
        check_load(&dir)?;
    }

    #[test]
    fn random_bytes_as_results_never_panic(which in 0usize..3, body in any::<String>()) {
        let (dir, _) = small_results("results-random");
        let files = [RUNS_FILE, ITERATIONS_FILE, META_FILE];
        fs::write(dir.join(files[which]), &body).unwrap();
        check_load(&dir)?;
    }
}

/// Through the binary: `report` and `compare` on mutated results exit 0, 1 (a regression found)
/// or 2 with a message, never crash.
#[test]
fn the_binary_reads_mutated_results_without_crashing() {
    let (good, texts) = small_results("results-fuzz-bin");
    let root = fresh_dir("results-fuzz-bin-cases");
    let files = [RUNS_FILE, ITERATIONS_FILE, META_FILE];
    let mut runner = TestRunner::new_with_rng(
        Config::default(),
        TestRng::deterministic_rng(RngAlgorithm::ChaCha),
    );
    let strategy = (0usize..3, prop::collection::vec(mutation(), 1..4));
    let (mut read, mut refused) = (0, 0);
    for case in 0..16 {
        let (which, mutations) = strategy.new_tree(&mut runner).unwrap().current();
        let dir = root.join(format!("case{case}"));
        fs::create_dir_all(&dir).unwrap();
        for (f, t) in files.iter().zip(&texts) {
            fs::write(dir.join(f), t).unwrap();
        }
        let text = mutations
            .iter()
            .fold(texts[which].clone(), |t, m| apply(&t, m));
        fs::write(dir.join(files[which]), &text).unwrap();
        for args in [
            vec![
                "report",
                arg(&dir),
                "--out",
                arg(&root.join(format!("r{case}"))),
            ],
            vec!["compare", arg(&good), arg(&dir)],
        ] {
            let o = run(&args);
            let err = stderr(&o);
            match o.status.code() {
                Some(0) | Some(1) => read += 1,
                Some(2) => {
                    refused += 1;
                    assert!(err.contains("tilebench: error:"), "{mutations:?}: {err}");
                }
                other => panic!("{args:?} after {mutations:?} gave {other:?}: {err}"),
            }
        }
    }
    assert!(read > 0 && refused > 0, "{read} read, {refused} refused");
}
