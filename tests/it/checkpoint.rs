//! Checkpointed runs: a pair killed several times (SIGKILL, no warning), interrupted (SIGINT,
//! SIGTERM as Slurm sends) or stopped by its time limit continues from its checkpoint, and ends
//! with the node counts, iterations and moves of a run never interrupted.

use crate::common;

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::thread::sleep;
use std::time::{Duration, Instant};

use common::bin::{counts, ok, read_runs, tilebench};
use common::fresh_dir;
use tilebench::results::{IterationRecord, RunRecord, RunStatus};

/// Korf's #3 under Manhattan distance: 566 million nodes, a few seconds; long enough to be
/// cut several times.
const INSTANCES: &str = "instances/korf100.txt:3-3";

fn args<'a>(out: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
    let mut a = vec![
        "run",
        "--instances",
        INSTANCES,
        "-H",
        "manhattan",
        "--out",
        out,
        "--no-history",
        "--jobs",
        "1",
    ];
    a.extend_from_slice(extra);
    a
}

fn start(out: &str, extra: &[&str]) -> Child {
    tilebench()
        .args(args(out, extra))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("starts the binary")
}

fn checkpoints(dir: &Path) -> Vec<serde_json::Value> {
    let Ok(entries) = std::fs::read_dir(dir.join("checkpoints")) else {
        return Vec::new();
    };
    entries
        .flatten()
        .filter(|e| e.path().extension().is_some_and(|x| x == "json"))
        .map(|e| common::bin::read_json(&e.path()))
        .collect()
}

/// Nodes a checkpoint accounts for: completed iterations and finished subtrees.
fn progress(c: &serde_json::Value) -> u64 {
    let s = &c["search"];
    let done: u64 = s["iterations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["generated"].as_u64().unwrap())
        .sum();
    let current: u64 = s["current"]["done"].as_array().map_or(0, |d| {
        d.iter().map(|t| t["generated"].as_u64().unwrap()).sum()
    });
    done + current
}

/// What must agree with the uninterrupted run: the counts, without timing, thread counts and
/// how many sessions it took.
fn comparable(dir: &Path) -> (Vec<RunRecord>, Vec<IterationRecord>) {
    let (runs, its) = counts(dir);
    let runs = runs
        .into_iter()
        .map(|r| RunRecord {
            search_threads: 0,
            resumes: 0,
            ..r
        })
        .collect();
    (runs, its)
}

/// Checkpoints a cut run writes before it is stopped: far fewer than the search needs at the
/// shortest interval (Korf's #3 takes seconds on any machine, a checkpoint at most every 10 ms),
/// so every cut lands inside the search, however fast or loaded the machine.
const CHECKPOINTS_PER_CUT: u32 = 3;

/// Cut at a known point by the test hook (the process aborts right after its n-th checkpoint,
/// as a SIGKILL would stop it: no clean-up, the lock left behind), not after a sleep: three
/// cuts on 1, 2 and 1 search threads, then a resume to the end.
#[test]
fn a_pair_killed_three_times_ends_with_the_uninterrupted_counts() {
    use std::os::unix::process::ExitStatusExt;
    use tilebench::experiment::checkpoint::ABORT_AFTER_ENV;

    let dir = fresh_dir("checkpoint-kill");
    let reference = dir.join("reference");
    let cut = dir.join("cut");
    let (reference_s, cut_s) = (reference.to_str().unwrap(), cut.to_str().unwrap());
    ok(&args(reference_s, &["--no-checkpoint"]));
    let total = read_runs(&reference)[0].generated.unwrap();

    let mut seen = 0;
    for (round, threads) in ["1", "2", "1"].into_iter().enumerate() {
        let mut extra = vec!["--checkpoint-every", "0.01", "--search-threads", threads];
        if round > 0 {
            extra.push("--resume");
        }
        let status = tilebench()
            .args(args(cut_s, &extra))
            .env(ABORT_AFTER_ENV, CHECKPOINTS_PER_CUT.to_string())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .expect("starts the binary");
        assert_eq!(
            status.signal(),
            Some(libc::SIGABRT),
            "round {round}: cut by the hook ({status})"
        );
        assert!(read_runs(&cut).is_empty(), "a cut pair has no row");
        let saved = checkpoints(&cut);
        assert_eq!(saved.len(), 1, "one checkpoint for the one pair");
        let now = progress(&saved[0]);
        assert!(
            now >= seen && now < total,
            "progress {seen} → {now} of {total}"
        );
        assert_eq!(saved[0]["resumes"].as_u64(), Some(round as u64));
        seen = now;
    }
    assert!(seen > 0, "the checkpoints recorded progress");
    ok(&args(cut_s, &["--resume"]));
    assert_eq!(comparable(&cut), comparable(&reference));
    let row = &read_runs(&cut)[0];
    assert_eq!(row.status, RunStatus::Solved);
    assert_eq!(row.resumes, 3);
    assert!(
        checkpoints(&cut).is_empty(),
        "removed once the pair is done"
    );
}

#[test]
fn interrupted_and_timed_out_pairs_continue_from_their_checkpoints() {
    let dir = fresh_dir("checkpoint-signals");
    let reference = dir.join("reference");
    let cut = dir.join("cut");
    let (reference_s, cut_s) = (reference.to_str().unwrap(), cut.to_str().unwrap());
    ok(&args(
        reference_s,
        &["--no-checkpoint", "--search-threads", "2"],
    ));

    // SIGINT and SIGTERM: the pair is not written, its progress is saved on the way out (and
    // is at least what the periodic checkpoint had).
    for (round, signal) in ["-INT", "-TERM"].into_iter().enumerate() {
        let extra: &[&str] = if round == 0 { &[] } else { &["--resume"] };
        // Signalled once its first checkpoint is on disk (the search is under way, the signal
        // handler set), whenever that is; the clock only bounds a wait that never ends.
        let mut child = start(cut_s, &[extra, &["--checkpoint-every", "0.05"]].concat());
        let waiting = Instant::now();
        // (On the resume, the first checkpoint of its own: the one it resumes from is there.)
        let own = |c: &serde_json::Value| c["resumes"].as_u64() == Some(round as u64);
        while !checkpoints(&cut).iter().any(own) {
            assert!(child.try_wait().unwrap().is_none(), "{signal}: ended early");
            assert!(
                waiting.elapsed() < Duration::from_secs(120),
                "no checkpoint"
            );
            sleep(Duration::from_millis(10));
        }
        let before = progress(&checkpoints(&cut)[0]);
        let sent = Command::new("kill")
            .args([signal, &child.id().to_string()])
            .status()
            .unwrap();
        assert!(sent.success());
        let t = Instant::now();
        let status = child.wait().unwrap();
        assert!(t.elapsed() < Duration::from_secs(30), "stops promptly");
        assert!(!status.success(), "{signal}: interrupted is not success");
        assert!(read_runs(&cut).is_empty(), "an interrupted pair has no row");
        let saved = checkpoints(&cut);
        assert_eq!(saved.len(), 1, "{signal} saves the progress");
        assert!(progress(&saved[0]) >= before, "{signal}: progress lost");
    }
    // A time limit: a time-limit row, its checkpoint kept; a retry with a longer limit finishes.
    ok(&args(
        cut_s,
        &["--resume", "--retry", "time-limit", "--time-limit", "0.3"],
    ));
    let row = &read_runs(&cut)[0];
    assert_eq!(row.status, RunStatus::TimeLimit);
    assert_eq!(checkpoints(&cut).len(), 1, "kept for a retry");
    ok(&args(
        cut_s,
        &["--resume", "--retry", "time-limit", "--time-limit", "600"],
    ));
    assert_eq!(comparable(&cut), comparable(&reference));
    assert_eq!(read_runs(&cut)[0].resumes, 3);
    assert!(checkpoints(&cut).is_empty());
}

#[test]
fn a_corrupt_checkpoint_is_refused_with_its_file_named() {
    let dir = fresh_dir("checkpoint-corrupt");
    let out = dir.join("out");
    let out_s = out.to_str().unwrap();
    ok(&args(out_s, &["--time-limit", "0.2"]));
    let files: Vec<_> = std::fs::read_dir(out.join("checkpoints"))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .collect();
    assert_eq!(files.len(), 1);
    let text = std::fs::read_to_string(&files[0]).unwrap();
    // An edited count: the checksum no longer matches.
    let edited = text.replacen("\"generated\": ", "\"generated\": 1", 1);
    assert_ne!(edited, text);
    std::fs::write(&files[0], edited).unwrap();
    let o = tilebench()
        .args(args(
            out_s,
            &["--resume", "--retry", "time-limit", "--time-limit", "600"],
        ))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success());
    assert!(
        err.contains("checksum") && err.contains(files[0].file_name().unwrap().to_str().unwrap()),
        "{err}"
    );
    assert!(!err.contains("panicked"), "{err}");
    // A fresh run (not --resume) starts again, replacing the old progress with its own.
    ok(&args(out_s, &["--overwrite", "--time-limit", "0.2"]));
    ok(&args(
        out_s,
        &["--resume", "--retry", "time-limit", "--time-limit", "600"],
    ));
    assert_eq!(read_runs(&out)[0].status, RunStatus::Solved);
}

/// The library side, without timing: a search that saves after every finished subtree,
/// resumed from a spread of its checkpoints (on another thread count), reaches the goal with
/// the counts and moves of the search never stopped, for the packed Manhattan kernel and the
/// generic one.
#[test]
fn a_search_resumed_from_any_of_its_checkpoints_counts_as_the_uninterrupted_one() {
    use std::sync::{Arc, Mutex};
    use tilebench::board::{Board, Goal, Size};
    use tilebench::heuristic::{HeuristicName, Prepared};
    use tilebench::search::{Checkpointing, SearchCheckpoint, SearchOptions, SearchResult};

    let size = Size::new(4, 4).unwrap();
    let goal = Goal::blank_first(size);
    // Korf's #5: 56 moves.
    let board = Board::parse("4 7 14 13 10 3 9 12 11 5 6 15 1 2 8 0", None).unwrap();
    let counts = |r: &SearchResult| -> Vec<(u32, u64, u64)> {
        r.iterations
            .iter()
            .map(|i| (i.bound, i.expanded, i.generated))
            .collect()
    };
    for heuristic in ["manhattan", "linear-conflict"] {
        let name: HeuristicName = heuristic.parse().unwrap();
        let h = Prepared::new(&name, &goal, &common::test_pdb_options()).unwrap();
        let reference =
            tilebench::search::solve(Some(&h), &board, &goal, &SearchOptions::default())
                .unwrap()
                .result;
        let saved: Arc<Mutex<Vec<SearchCheckpoint>>> = Arc::default();
        let sink = saved.clone();
        let options = |threads, from: Option<SearchCheckpoint>| SearchOptions {
            threads,
            checkpoint: Some(Checkpointing {
                from,
                every: Duration::ZERO,
                save: Arc::new({
                    let sink = sink.clone();
                    move |c: &SearchCheckpoint| sink.lock().unwrap().push(c.clone())
                }),
            }),
            ..SearchOptions::default()
        };
        let whole = tilebench::search::solve(Some(&h), &board, &goal, &options(2, None))
            .unwrap()
            .result;
        assert_eq!(counts(&whole), counts(&reference), "{heuristic}");
        let all = std::mem::take(&mut *saved.lock().unwrap());
        assert!(all.len() > 100, "{heuristic}: {} checkpoints", all.len());
        // Another board's search refuses the checkpoint instead of counting from it.
        let other = Board::parse("14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3", None).unwrap();
        let refused = tilebench::search::solve(
            Some(&h),
            &other,
            &goal,
            &options(1, Some(all[all.len() / 2].clone())),
        );
        let e = refused.expect_err("a foreign checkpoint").to_string();
        assert!(e.contains("checkpoint does not belong"), "{e}");
        let step = all.len() / 12;
        for (n, c) in all.into_iter().step_by(step).enumerate() {
            let threads = [1, 3][n % 2];
            let resumed =
                tilebench::search::solve(Some(&h), &board, &goal, &options(threads, Some(c)))
                    .unwrap()
                    .result;
            let what = format!("{heuristic}, checkpoint {n}, {threads} threads");
            assert_eq!(counts(&resumed), counts(&reference), "{what}");
            assert_eq!(resumed.moves, reference.moves, "{what}");
        }
    }
}
