//! Issue #11: the instance-file parser, fed random and mutated input, returns an error naming the
//! file (and a line) or a correct parse, and never panics; through the binary, such a file gives
//! exit 0 or exit 2 with a message, never a crash.

use crate::common;

use std::path::Path;

use proptest::prelude::*;

use common::mutate::{apply, mutation};

use tilebench::board::{Goal, Size};
use tilebench::instances::generate::{file_text, Sampling, Spec};
use tilebench::instances::{InstanceError, InstanceSet};

const KORF100: &str = include_str!("../../instances/korf100.txt");

/// A valid file: generated (3×3 to 5×5, any goal, uniform or walks), or Korf's.
fn valid_file() -> impl Strategy<Value = String> {
    let generated = (
        2usize..=5,
        2usize..=5,
        0u8..3,
        1usize..6,
        any::<u64>(),
        0u32..3,
    )
        .prop_map(|(w, h, goal, count, seed, method)| {
            let size = Size::new(w, h).unwrap();
            let goal = match goal {
                0 => Goal::blank_last(size),
                1 => Goal::blank_first(size),
                _ => Goal::parse("spiral", size).unwrap_or_else(|_| Goal::blank_last(size)),
            };
            let method = match method {
                0 => Sampling::Uniform,
                m => Sampling::Walk(m * 7),
            };
            file_text(&Spec {
                size,
                goal,
                count,
                seed,
                sampling: method,
            })
            .expect("uniform and walk specs always generate")
        });
    prop_oneof![4 => generated, 1 => Just(KORF100.to_string())]
}

/// The parse is correct or the error is a clear one.
fn check(text: &str) -> Result<(), TestCaseError> {
    let path = Path::new("fuzz/set.txt");
    match InstanceSet::parse(text, path, "set") {
        Ok(set) => {
            prop_assert!(!set.instances.is_empty());
            let cells = set.size.cells();
            prop_assert_eq!(set.goal.tiles().len(), cells);
            let mut ids = std::collections::HashSet::new();
            for i in &set.instances {
                let mut tiles = i.board.tiles().to_vec();
                tiles.sort_unstable();
                prop_assert_eq!(tiles, (0..cells as u8).collect::<Vec<_>>());
                prop_assert_eq!(i.board.size(), set.size);
                prop_assert!(!i.id.is_empty() && ids.insert(i.id.clone()), "id {}", i.id);
                prop_assert!(i.line >= 2);
            }
        }
        Err(e) => {
            let message = e.to_string();
            prop_assert!(message.contains("fuzz/set.txt"), "{}", message);
            if let InstanceError::Line { line, .. } = &e {
                prop_assert!(
                    *line >= 1 && *line <= text.lines().count().max(1),
                    "{}",
                    message
                );
            }
        }
    }
    Ok(())
}

proptest! {
    // A fixed seed: every run tries the same cases (a failure is saved to the regressions file
    // beside this file, to commit with the fix, and replayed first from then on).
    #![proptest_config(ProptestConfig {
        cases: 2000,
        rng_seed: proptest::test_runner::RngSeed::Fixed(0x7e57_f022),
        ..ProptestConfig::default()
    })]

    #[test]
    fn valid_files_parse_to_what_was_written(text in valid_file()) {
        let set = InstanceSet::parse(&text, Path::new("ok.txt"), "ok").unwrap();
        let rows = text.lines().filter(|l| l.starts_with(|c: char| c.is_ascii_digit())).count();
        prop_assert_eq!(set.instances.len(), rows);
        check(&text)?;
    }

    #[test]
    fn mutated_files_give_a_parse_or_a_clear_error(
        text in valid_file(),
        mutations in prop::collection::vec(mutation(), 1..6),
    ) {
        let mutated = mutations.iter().fold(text, |t, m| apply(&t, m));
        check(&mutated)?;
    }

    #[test]
    fn random_text_gives_a_parse_or_a_clear_error(
        body in "(# tilebench-instances v1\n)?(# (size|goal|source): [0-9x ,a-z-]{0,12}\n){0,3}(id\ttiles\n)?([0-9 \t\r\n,-]{0,40}\n){0,5}"
    ) {
        check(&body)?;
    }

    #[test]
    fn arbitrary_strings_never_panic(body in any::<String>()) {
        check(&body)?;
    }
}

/// Through the binary: mutated files are read by `run` (3×3 boards, so any valid parse solves
/// at once): exit 0, or exit 2 with `tilebench: error:` naming the file; never a crash.
#[test]
fn the_binary_reads_mutated_files_without_crashing() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::{Config, TestRunner};

    let dir = common::fresh_dir("instances_fuzz_bin");
    let mut runner = TestRunner::new_with_rng(
        Config::default(),
        proptest::test_runner::TestRng::deterministic_rng(
            proptest::test_runner::RngAlgorithm::ChaCha,
        ),
    );
    let base = file_text(&Spec {
        size: Size::new(3, 3).unwrap(),
        goal: Goal::blank_last(Size::new(3, 3).unwrap()),
        count: 3,
        seed: 11,
        sampling: Sampling::Uniform,
    })
    .unwrap();
    let strategy = prop::collection::vec(mutation(), 1..4);
    let (mut ok, mut refused) = (0, 0);
    for case in 0..40 {
        let mutations = strategy.new_tree(&mut runner).unwrap().current();
        let text = mutations.iter().fold(base.clone(), |t, m| apply(&t, m));
        let file = dir.join(format!("case{case}.txt"));
        std::fs::write(&file, &text).unwrap();
        let out = dir.join(format!("out{case}"));
        let o = common::bin::run_into(common::bin::arg(&file), "manhattan", &out);
        let err = common::bin::stderr(&o);
        match o.status.code() {
            Some(0) => ok += 1,
            Some(2) => {
                refused += 1;
                assert!(
                    err.contains("tilebench: error:") && err.contains(&format!("case{case}.txt")),
                    "{mutations:?}: {err}"
                );
            }
            other => panic!("{mutations:?} gave exit {other:?}: {err}\n{text:?}"),
        }
    }
    assert!(ok > 0 && refused > 0, "{ok} parsed, {refused} refused");
}
