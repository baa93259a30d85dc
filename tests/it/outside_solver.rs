//! Outside solvers end to end: every verdict from a small Python solver written to earn it,
//! limits that kill the whole process group, nothing left running afterwards, commands run
//! literally (never through a shell), and the example solver's counts equal to the built-in
//! search's.

use crate::common;

use std::fs;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use common::bin::{self, arg};
use tilebench::board::{Board, Goal, Size};
use tilebench::experiment::outside::{self, group_alive, Outcome, ProcessLimits, SolverCommand};
use tilebench::heuristic::{Manhattan, Prepared};
use tilebench::instances::generate::{boards, Sampling, Spec};
use tilebench::search::{Limits, RunStatus};

/// Two moves from the blank-last goal (`RR`).
const NEAR: &str = "1 2 3 4 5 6 0 7 8";
/// The blank-last goal with two tiles swapped: cannot reach it.
const UNSOLVABLE: &str = "2 1 3 4 5 6 7 8 0";

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/solvers")
        .join(name)
}

fn example() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/solvers/ida_manhattan.py")
}

/// `python3 -B FILE ARGS…` as a command line (-B: no __pycache__ beside the fixtures).
fn python(file: &Path, args: &str) -> SolverCommand {
    let text = format!("python3 -B {} {args}", shell_quote(file));
    SolverCommand::parse(&text).unwrap()
}

fn shell_quote(p: &Path) -> String {
    format!("'{}'", arg(p).replace('\'', r"'\''"))
}

fn board(tiles: &str) -> (Board, Goal) {
    let b = Board::parse(tiles, None).unwrap();
    let g = Goal::blank_last(b.size());
    (b, g)
}

fn solve_with(
    command: &SolverCommand,
    tiles: &str,
    optimal: Option<usize>,
    limits: &ProcessLimits,
    log: Option<&Path>,
) -> Outcome {
    let (b, g) = board(tiles);
    let started = Instant::now();
    let outcome = outside::solve(command, &b, &g, optimal, limits, log).unwrap();
    assert!(
        started.elapsed() < Duration::from_secs(60),
        "{}: took {:?}",
        command.text(),
        started.elapsed()
    );
    assert!(
        !group_alive(outcome.pid),
        "{}: process group {} is still alive",
        command.text(),
        outcome.pid
    );
    outcome
}

fn verdict_of(file: &str, tiles: &str, optimal: Option<usize>) -> Outcome {
    solve_with(
        &python(&fixture(file), ""),
        tiles,
        optimal,
        &ProcessLimits::default(),
        None,
    )
}

#[test]
fn each_wrong_answer_gets_its_verdict() {
    let ok = verdict_of("../../../examples/solvers/ida_manhattan.py", NEAR, Some(2));
    assert_eq!(
        ok.judgement.verdict,
        RunStatus::Solved,
        "{:?}",
        ok.judgement
    );
    assert_eq!(ok.judgement.length, Some(2));
    let rightly = verdict_of(
        "../../../examples/solvers/ida_manhattan.py",
        UNSOLVABLE,
        None,
    );
    assert_eq!(rightly.judgement.verdict, RunStatus::Unsolvable);

    let long = verdict_of("suboptimal.py", NEAR, Some(2));
    assert_eq!(long.judgement.verdict, RunStatus::WrongLength);
    assert_eq!(long.judgement.length, Some(4));
    // Without a known optimum the same answer is a valid solution.
    assert_eq!(
        verdict_of("suboptimal.py", NEAR, None).judgement.verdict,
        RunStatus::Solved
    );
    let illegal = verdict_of("illegal.py", NEAR, Some(2));
    assert_eq!(illegal.judgement.verdict, RunStatus::InvalidMoves);
    assert!(illegal.judgement.detail.contains("off the board"));
    assert_eq!(
        verdict_of("unsolvable.py", NEAR, Some(2)).judgement.verdict,
        RunStatus::WrongUnsolvable
    );
    // The reverse: moves for a board that cannot reach the goal.
    assert_eq!(
        verdict_of("illegal.py", UNSOLVABLE, None).judgement.verdict,
        RunStatus::WrongUnsolvable
    );
    let garbage = verdict_of("garbage.py", NEAR, Some(2));
    assert_eq!(garbage.judgement.verdict, RunStatus::BadOutput);
    assert!(garbage.judgement.detail.contains("the answer is RRDD"));
}

#[test]
fn crashes_record_the_exit_code_or_the_signal() {
    let exit1 = verdict_of("exit1.py", NEAR, Some(2));
    assert_eq!(exit1.judgement.verdict, RunStatus::Crashed);
    assert_eq!(
        (exit1.judgement.exit_code, exit1.judgement.signal),
        (Some(1), None)
    );
    let signalled = verdict_of("signal_self.py", NEAR, Some(2));
    assert_eq!(signalled.judgement.verdict, RunStatus::Crashed);
    assert_eq!(
        (signalled.judgement.exit_code, signalled.judgement.signal),
        (None, Some(15))
    );
}

#[test]
fn the_time_limit_kills_the_whole_group() {
    let limits = ProcessLimits {
        time_limit: Some(Duration::from_millis(1500)),
        ..ProcessLimits::default()
    };
    let started = Instant::now();
    // sleep_forever.py also starts a child that sleeps: both must be gone.
    let o = solve_with(
        &python(&fixture("sleep_forever.py"), ""),
        NEAR,
        Some(2),
        &limits,
        None,
    );
    let took = started.elapsed();
    assert_eq!(o.judgement.verdict, RunStatus::TimeLimit);
    assert!(
        o.wall_seconds >= 1.5 && o.wall_seconds < 5.0,
        "{}",
        o.wall_seconds
    );
    assert!(took < Duration::from_secs(8), "{took:?}");
}

#[test]
fn the_memory_limit_kills_the_whole_group() {
    let limits = ProcessLimits {
        time_limit: Some(Duration::from_secs(30)),
        memory_limit: Some(200 << 20),
        ..ProcessLimits::default()
    };
    let o = solve_with(
        &python(&fixture("allocate.py"), ""),
        NEAR,
        Some(2),
        &limits,
        None,
    );
    assert_eq!(
        o.judgement.verdict,
        RunStatus::MemoryLimit,
        "{:?}",
        o.judgement
    );
    assert!(o.peak_rss_bytes > 200 << 20, "{}", o.peak_rss_bytes);
    assert!(o.wall_seconds < 20.0, "{}", o.wall_seconds);
}

#[test]
fn children_left_running_are_killed() {
    let o = verdict_of("leftover.py", NEAR, Some(2));
    assert_eq!(o.judgement.verdict, RunStatus::Solved);
    // solve_with checked that the group (with the sleeping child) is gone.
}

#[test]
fn the_command_is_run_literally_never_through_a_shell() {
    let dir = common::fresh_dir("outside solver with spaces");
    for f in ["argv.py", "common.py"] {
        fs::copy(fixture(f), dir.join(f)).unwrap();
    }
    let canary = dir.join("canary");
    // Unquoted backticks are split at the space like any word (the canary path has none).
    let canary2 = common::fresh_dir("outside-canary").join("canary");
    let args = format!(
        r#""two words" 'it'"'"'s' '$(touch {c})' "\$HOME" ';' '|' '>' out `touch {c2}`"#,
        c = arg(&canary),
        c2 = arg(&canary2)
    );
    let command = python(&dir.join("argv.py"), &args);
    let log = dir.join("stderr.log");
    let o = solve_with(
        &command,
        NEAR,
        Some(2),
        &ProcessLimits::default(),
        Some(&log),
    );
    assert_eq!(o.judgement.verdict, RunStatus::Solved);
    let seen: Vec<String> = serde_json::from_str(fs::read_to_string(&log).unwrap().trim()).unwrap();
    let c = arg(&canary);
    assert_eq!(
        seen,
        [
            "two words".to_string(),
            "it's".into(),
            format!("$(touch {c})"),
            "$HOME".into(),
            ";".into(),
            "|".into(),
            ">".into(),
            "out".into(),
            "`touch".into(),
            format!("{}`", arg(&canary2)),
        ]
    );
    assert!(
        !canary.exists() && !canary2.exists(),
        "a shell ran the command"
    );
    assert!(!dir.join("out").exists(), "a shell redirected the output");
}

#[test]
fn the_stderr_log_is_cut_at_one_megabyte() {
    let dir = common::fresh_dir("outside-noisy");
    let log = dir.join("noisy.log");
    let o = solve_with(
        &python(&fixture("noisy.py"), ""),
        NEAR,
        Some(2),
        &ProcessLimits::default(),
        Some(&log),
    );
    assert_eq!(o.judgement.verdict, RunStatus::Solved);
    assert_eq!(o.stderr_bytes, 3 << 20);
    let text = fs::read_to_string(&log).unwrap();
    assert!(text.ends_with("[tilebench: standard error cut at 1 MB]\n"));
    assert!(
        text.len() > 1 << 20 && text.len() < (1 << 20) + 100,
        "{}",
        text.len()
    );
}

/// The example solver reports exactly the built-in IDA* + Manhattan counts, iteration by
/// iteration, on seeded 3×3 boards (three goals), 4×4 random walks and rectangular boards.
#[test]
fn the_example_counts_like_the_builtin_search() {
    counts_like_the_builtin_search(&python(&example(), ""));
}

/// The complete example on docs/solver-protocol.md works as the page says.
#[test]
fn the_protocol_page_example_counts_like_the_builtin_search() {
    let page =
        fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/solver-protocol.md"))
            .unwrap();
    let code = page
        .split("```python\n")
        .nth(1)
        .and_then(|rest| rest.split("```").next())
        .expect("the page has a python block");
    let dir = common::fresh_dir("outside-doc-example");
    let file = dir.join("my_solver.py");
    fs::write(&file, code).unwrap();
    counts_like_the_builtin_search(&python(&file, ""));
    let rightly = solve_with(
        &python(&file, ""),
        UNSOLVABLE,
        None,
        &ProcessLimits::default(),
        None,
    );
    assert_eq!(rightly.judgement.verdict, RunStatus::Unsolvable);
}

fn counts_like_the_builtin_search(command: &SolverCommand) {
    let s3 = Size::new(3, 3).unwrap();
    let s4 = Size::new(4, 4).unwrap();
    let (s32, s43) = (Size::new(3, 2).unwrap(), Size::new(4, 3).unwrap());
    let sets = [
        (s3, Goal::blank_last(s3), Sampling::Uniform, 6),
        (s3, Goal::blank_first(s3), Sampling::Uniform, 3),
        (s3, Goal::spiral(s3), Sampling::Uniform, 2),
        (s4, Goal::blank_first(s4), Sampling::Walk(30), 4),
        (s32, Goal::blank_last(s32), Sampling::Uniform, 2),
        (s43, Goal::blank_last(s43), Sampling::Walk(30), 2),
    ];
    let mut checked = 0;
    for (size, goal, method, count) in sets {
        let spec = Spec {
            size,
            goal: goal.clone(),
            count,
            seed: 7,
            sampling: method,
        };
        for b in boards(&spec).unwrap() {
            let md = Prepared::of(Manhattan::new(&goal));
            let builtin = crate::common::ida(&md, &b, &goal, &Limits::none());
            let o = outside::solve(
                command,
                &b,
                &goal,
                builtin.length(),
                &ProcessLimits::default(),
                None,
            )
            .unwrap();
            assert_eq!(
                o.judgement.verdict,
                RunStatus::Solved,
                "{b}: {:?}",
                o.judgement
            );
            let reported: Vec<(u32, u64, u64)> = o
                .iterations()
                .iter()
                .map(|i| (i.bound, i.generated, i.expanded))
                .collect();
            let expected: Vec<(u32, u64, u64)> = builtin
                .iterations
                .iter()
                .map(|i| (i.bound, i.generated, i.expanded))
                .collect();
            assert_eq!(reported, expected, "{b} to {}", goal.name());
            assert_eq!(o.nodes_generated(), Some(builtin.generated()));
            assert_eq!(
                o.judgement.moves.as_deref(),
                Some(tilebench::moves::path_string(&builtin.moves).as_str())
            );
            checked += 1;
        }
    }
    assert_eq!(checked, 19);
}

#[test]
fn solve_prints_the_checks() {
    let example = format!("python3 -B {}", shell_quote(&example()));
    let o = bin::ok(&[
        "solve",
        "--solver",
        &example,
        "-H",
        "manhattan",
        "8 6 7 2 5 4 3 0 1",
    ]);
    let text = bin::stdout(&o);
    assert!(text.contains("status     solved"), "{text}");
    assert!(text.contains("length     31 (optimal 31"), "{text}");
    assert!(text.contains("counts agree in every iteration"), "{text}");

    let o = bin::ok(&[
        "solve",
        "--solver",
        &example,
        "--check-optimal",
        "--format",
        "json",
        "8 6 7 2 5 4 3 0 1",
    ]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["outcome"]["verdict"], "solved");
    assert_eq!(v["outcome"]["optimal_length"], 31);
    assert_eq!(v["outcome"]["answer"]["nodes_generated"], 24014);
    assert_eq!(v["optimal_by"], "linear-conflict");

    // A wrong answer: exit status 1, the verdict and why.
    let sub = format!("python3 -B {}", shell_quote(&fixture("suboptimal.py")));
    let o = bin::run(&["solve", "--solver", &sub, "--check-optimal", NEAR]);
    assert_eq!(o.status.code(), Some(1));
    let text = bin::stdout(&o);
    assert!(
        text.contains("status     wrong-length: 4 moves, but the optimal length is 2"),
        "{text}"
    );

    // Without --check-optimal (or -H) the same answer is valid, not "solved": its length was
    // not checked, and the output says so and how to check it; the JSON keeps its fields and
    // adds whether optimality was checked.
    let o = bin::ok(&["solve", "--solver", &sub, NEAR]);
    let text = bin::stdout(&o);
    assert!(
        text.contains(
            "status     valid: the 4 moves replay to the goal; optimality not checked \
             (--check-optimal or -H checks it)"
        ),
        "{text}"
    );
    assert!(!text.contains("status     solved"), "{text}");
    let o = bin::ok(&["solve", "--solver", &sub, "--format", "json", NEAR]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["outcome"]["verdict"], "solved");
    assert_eq!(v["outcome"]["length"], 4);
    assert_eq!(v["outcome"]["optimality"], "not-checked");
    let o = bin::ok(&["solve", "--solver", &example, "--check-optimal", NEAR]);
    let text = bin::stdout(&o);
    assert!(
        text.contains("status     solved: 2 moves, the optimal length"),
        "{text}"
    );

    // Bad commands are input errors naming the command.
    let err = bin::fails(&["solve", "--solver", "python3 'unclosed", NEAR]);
    assert!(err.contains("python3 'unclosed"), "{err}");
    let err = bin::fails(&["solve", "--solver", "/nonexistent/solver", NEAR]);
    assert!(
        err.contains("cannot start solver '/nonexistent/solver'"),
        "{err}"
    );
    let err = bin::fails(&["solve", "--solver", "true", "--memory-limit", "lots", NEAR]);
    assert!(err.contains("'lots' is not a memory size"), "{err}");
}

/// `solve --solver` without `--log` quotes a crashed solver's stderr as `run` does: it used to
/// say only how many bytes it threw away, hiding a traceback or a missing file.
#[test]
fn solve_without_a_log_quotes_a_crash_stderr() {
    let crash = format!("python3 -B {}", shell_quote(&fixture("exit1.py")));
    let o = bin::run(&["solve", "--solver", &crash, NEAR]);
    assert_eq!(o.status.code(), Some(1));
    let text = bin::stdout(&o);
    assert!(
        text.contains(
            "status     crashed: exit code 1; last lines of stderr: something went wrong\n"
        ),
        "{text}"
    );
    let missing = fixture("no_such_solver.py");
    let o = bin::run(&[
        "solve",
        "--solver",
        &format!("python3 {}", shell_quote(&missing)),
        NEAR,
    ]);
    let text = bin::stdout(&o);
    let status = text.lines().find(|l| l.starts_with("status")).unwrap_or("");
    assert!(
        status.starts_with("status     crashed: exit code 2; last lines of stderr: "),
        "{text}"
    );
    assert!(
        status.contains("no_such_solver.py") && status.contains("No such file"),
        "{text}"
    );
    // With --log, the same lines and the log's path.
    let dir = common::fresh_dir("solve-log");
    let log = dir.join("crash.log");
    let o = bin::run(&["solve", "--solver", &crash, "--log", arg(&log), NEAR]);
    let text = bin::stdout(&o);
    assert!(
        text.contains(&format!(
            "status     crashed: exit code 1; last lines of stderr (log {}): something went wrong\n",
            log.display()
        )),
        "{text}"
    );
}

/// A solver that exits without reading its request is judged, not fatal: the write into its
/// closed pipe used to end tilebench by SIGPIPE (exit 141) about one time in four.
#[test]
fn a_solver_that_never_reads_is_judged_not_fatal() {
    for _ in 0..30 {
        let o = bin::run(&["solve", "--solver", "false", NEAR]);
        assert_eq!(o.status.code(), Some(1), "{o:?}");
        let text = bin::stdout(&o);
        assert!(text.contains("status     crashed: exit code 1"), "{text}");
    }
}

#[test]
fn ctrl_c_leaves_no_solver_behind() {
    interrupt(1);
}

#[test]
fn ctrl_c_twice_leaves_no_solver_behind() {
    interrupt(2);
}

/// Starts `solve --solver` on a solver that sleeps forever (with a sleeping child), sends
/// SIGINT `times` times and checks that tilebench exits with 130 and the solver's group is gone.
fn interrupt(times: usize) {
    let dir = common::fresh_dir(&format!("outside-ctrl-c-{times}"));
    let pidfile = dir.join("pid");
    let command = format!(
        "python3 -B {} {}",
        shell_quote(&fixture("sleep_forever.py")),
        shell_quote(&pidfile)
    );
    let mut child = bin::tilebench()
        .args(["solve", "--solver", &command, NEAR])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while !pidfile.exists() {
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "the solver never started"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    let solver: i32 = fs::read_to_string(&pidfile)
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    assert!(group_alive(solver));
    // SAFETY: sending a signal to our own child process.
    for _ in 0..times {
        unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
    }
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "tilebench did not stop"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    assert_eq!(status.code(), Some(130));
    assert!(!group_alive(solver), "the solver's group survived Ctrl-C");
}

/// `count` 3×3 boards ten moves from the goal, so that the test solvers' breadth-first search
/// is instant.
fn short_walks(dir: &Path, count: &str) -> String {
    bin::gen(
        dir,
        "tiny.txt",
        &[
            "--size", "3x3", "--count", count, "--seed", "5", "--walk", "10",
        ],
    )
}

/// `run` with the built-in search and five outside solvers, three of them wrong in their own
/// way: each pair gets its status, the right ones are unaffected, stderr lands in logs/, and the
/// report sets the right solver's counts beside the built-in ones.
#[test]
fn a_run_judges_every_solver_and_the_other_pairs_are_unaffected() {
    let dir = common::fresh_dir("outside-run");
    let set = short_walks(&dir, "2");
    let py = |f: &Path| format!("python3 -B {}", shell_quote(f));
    let out = dir.join("results");
    let o = bin::run(&[
        "run",
        "--instances",
        &set,
        "-H",
        "manhattan",
        "--solver",
        &format!("ok:manhattan={}", py(&example())),
        "--solver",
        &format!("long={}", py(&fixture("suboptimal.py"))),
        "--solver",
        &format!("crash={}", py(&fixture("exit1.py"))),
        "--solver",
        &format!("sleepy={}", py(&fixture("sleep_forever.py"))),
        "--solver",
        &format!("hog={}", py(&fixture("allocate.py"))),
        // Far from both ends: the hog passes 200M within a second even on a loaded machine
        // (it hit a 2 s limit first under a load of 10), the sleeper never ends.
        "--time-limit",
        "8",
        "--memory-limit",
        "200M",
        "--check-optimal",
        "--jobs",
        "2",
        "--no-history",
        "--out",
        arg(&out),
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", bin::stderr(&o));
    let runs = bin::read_runs(&out);
    assert_eq!(runs.len(), 12);
    let status = |series: &str| -> Vec<&str> {
        runs.iter()
            .filter(|r| r.heuristic == series)
            .map(|r| r.status.as_str())
            .collect()
    };
    assert_eq!(status("manhattan"), ["solved", "solved"]);
    assert_eq!(status("ok"), ["solved", "solved"]);
    assert_eq!(status("long"), ["wrong-length", "wrong-length"]);
    assert_eq!(status("crash"), ["crashed", "crashed"]);
    assert_eq!(status("sleepy"), ["time-limit", "time-limit"]);
    assert_eq!(status("hog"), ["memory-limit", "memory-limit"]);
    for r in &runs {
        let builtin = r.heuristic == "manhattan";
        assert_eq!(r.solver.is_builtin(), builtin, "{}", r.heuristic);
        assert_eq!(
            r.solver.as_str(),
            if builtin { "tilebench" } else { &r.heuristic }
        );
        // An outside solver's memory is its process's; the search-structure columns are empty.
        assert_eq!(
            r.algorithm.as_str(),
            if builtin { "ida" } else { "external" }
        );
        assert_eq!(r.peak_stored.is_some(), builtin, "{}", r.heuristic);
        assert_eq!(r.peak_rss_bytes.is_some(), !builtin, "{}", r.heuristic);
    }
    let crash = runs.iter().find(|r| r.heuristic == "crash").unwrap();
    assert_eq!((crash.exit_code, crash.signal), (Some(1), None));
    // The right solver's counts equal the built-in ones, and the optimal length was checked.
    for id in ["1", "2"] {
        let get = |h: &str| {
            runs.iter()
                .find(|r| r.heuristic == h && r.instance_id == id)
                .unwrap()
        };
        let (ok, builtin) = (get("ok"), get("manhattan"));
        assert_eq!(
            (ok.generated, ok.expanded),
            (builtin.generated, builtin.expanded)
        );
        assert_eq!(ok.optimal_length, builtin.length);
        assert!(ok.verified && ok.cpu_seconds.is_some() && ok.peak_rss_bytes.is_some());
    }
    let log = fs::read_to_string(out.join("logs/tiny-1-crash.stderr")).unwrap();
    assert!(log.contains("something went wrong"), "{log}");
    let meta = bin::meta(&out);
    let ok = meta["experiment"]["solvers"][0].as_str().unwrap();
    assert!(ok.starts_with("ok:manhattan="), "{ok}");

    let reports = dir.join("reports");
    bin::ok(&[
        "report",
        arg(&out),
        "--out",
        arg(&reports),
        "--format",
        "md,html,tex",
    ]);
    let md = fs::read_to_string(reports.join("report.md")).unwrap();
    assert!(md.contains("| outside solver | ok: `python3 -B"), "{md}");
    assert!(
        md.contains("lengths agree on 2 of 2, node totals on 2 of 2, iterations on 2 of 2"),
        "{md}"
    );
    // Each failed run's reason reaches the report, under its solver's table, in each format.
    let log = out.join("logs/tiny-1-crash.stderr");
    let why = format!(
        "exit code 1; last lines of stderr (log {}): something went wrong",
        log.display()
    );
    assert!(
        md.contains(&format!("- tiny #1, crashed: `{why}`\n")),
        "{md}"
    );
    let long = md
        .lines()
        .find(|l| l.starts_with("- tiny #2, wrong-length: `"));
    assert!(
        long.is_some_and(|l| l.contains(" moves, but the optimal length is ")),
        "{md}"
    );
    assert!(
        md.contains("- tiny #1, time-limit: `killed at the time limit`"),
        "{md}"
    );
    let html = fs::read_to_string(reports.join("report.html")).unwrap();
    assert!(
        html.contains("<li>tiny #1, crashed: <code>exit code 1; last lines of stderr (log "),
        "{html}"
    );
    let tex = fs::read_to_string(reports.join("report.tex")).unwrap();
    assert!(
        tex.contains("\\item tiny \\#1, crashed: \\texttt{exit code 1; last lines of stderr (log "),
        "{tex}"
    );
    assert!(tex.contains("stderr): something went wrong}"), "{tex}");
}

/// Shards of an experiment with an outside solver, collected, hold the rows of an unsharded
/// run.
#[test]
fn outside_solvers_shard_and_collect() {
    let dir = common::fresh_dir("outside-shards");
    let set = bin::gen(
        &dir,
        "tiny.txt",
        &["--size", "3x3", "--count", "3", "--seed", "9"],
    );
    let solver = format!("ok:manhattan=python3 -B {}", shell_quote(&example()));
    let base = |out: &Path| -> Vec<String> {
        [
            "run",
            "--instances",
            &set,
            "-H",
            "manhattan",
            "--solver",
            &solver,
            "--jobs",
            "1",
            "--no-history",
            "--out",
            arg(out),
        ]
        .iter()
        .map(|s| s.to_string())
        .collect()
    };
    let whole = dir.join("whole");
    let args = base(&whole);
    bin::ok(&args.iter().map(String::as_str).collect::<Vec<_>>());
    let sharded = dir.join("sharded");
    for shard in ["0/2", "1/2"] {
        let mut args = base(&sharded);
        args.extend(["--shard".to_string(), shard.to_string()]);
        bin::ok(&args.iter().map(String::as_str).collect::<Vec<_>>());
    }
    bin::ok(&["collect", arg(&sharded)]);
    assert_eq!(bin::counts(&sharded), bin::counts(&whole));
    assert_eq!(bin::read_runs(&whole).len(), 6);
}

/// `run --resume` compares the outside solvers with the stored ones: the same set and commands
/// resume (running only the missing pair), a changed command, heuristic, an added or a removed
/// solver are refused without touching the rows.
#[test]
fn resume_refuses_changed_solvers_and_accepts_the_same() {
    let dir = common::fresh_dir("outside-resume");
    let set = bin::gen(
        &dir,
        "tiny.txt",
        &["--size", "3x3", "--count", "2", "--seed", "4"],
    );
    let out = dir.join("results");
    let py = format!("python3 -B {}", shell_quote(&example()));
    let run = |solvers: &[String], extra: &[&str]| -> Vec<String> {
        let mut args: Vec<String> = [
            "run",
            "--instances",
            &set,
            "-H",
            "manhattan",
            "--jobs",
            "1",
            "--no-history",
            "--out",
            arg(&out),
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        for s in solvers {
            args.extend(["--solver".to_string(), s.clone()]);
        }
        args.extend(extra.iter().map(|s| s.to_string()));
        args
    };
    let ok_with = |args: Vec<String>| {
        bin::ok(&args.iter().map(String::as_str).collect::<Vec<_>>());
    };
    let fails_with = |args: Vec<String>| -> String {
        bin::fails(&args.iter().map(String::as_str).collect::<Vec<_>>())
    };
    let same = vec![format!("ok:manhattan={py}")];
    ok_with(run(&same, &[]));
    let full = bin::counts(&out);
    assert_eq!(full.0.len(), 4);
    let runs_csv = out.join("runs.csv");
    let before = fs::read_to_string(&runs_csv).unwrap();

    for (changed, what) in [
        (
            vec![format!("ok:manhattan={py} --fast")],
            "a changed command",
        ),
        (vec![format!("ok={py}")], "a changed heuristic"),
        (
            vec![format!("ok:manhattan={py}"), format!("two={py}")],
            "an added solver",
        ),
        (vec![], "a removed solver"),
    ] {
        let err = fails_with(run(&changed, &["--resume"]));
        assert!(err.contains("outside solvers: "), "{what}: {err}");
        assert!(err.contains(&format!("ok:manhattan={py}")), "{what}: {err}");
        assert_eq!(fs::read_to_string(&runs_csv).unwrap(), before, "{what}");
    }

    // Unchanged: the resume runs only the pair taken out, and the rows come back the same.
    let lines: Vec<&str> = before.lines().collect();
    assert!(lines[lines.len() - 1].starts_with("tiny,2,ok,external,ok,solved,"));
    fs::write(&runs_csv, lines[..lines.len() - 1].join("\n") + "\n").unwrap();
    ok_with(run(&same, &["--resume"]));
    assert_eq!(bin::counts(&out), full);
    assert_eq!(bin::meta(&out)["pairs_done_before"], 3);
}

/// A solver's `:HEURISTIC` is checked like `-H` before anything runs (a 4x4 table for a 3x3
/// set is refused); one the run does not include is named in the report, not counted "0 of 0".
#[test]
fn a_solvers_heuristic_is_checked_and_one_not_run_is_named() {
    let dir = common::fresh_dir("outside-heuristic");
    let set = bin::gen(
        &dir,
        "tiny.txt",
        &["--size", "3x3", "--count", "1", "--seed", "4"],
    );
    let py = format!("python3 -B {}", shell_quote(&example()));
    let out = dir.join("results");
    for (spec, says) in [
        (format!("x:pdb-663={py}"), "pdb-663"),
        (format!("x:no-such-h={py}"), "no-such-h"),
    ] {
        let e = bin::fails(&[
            "run",
            "--instances",
            &set,
            "--solver",
            &spec,
            "--out",
            arg(&out),
        ]);
        assert!(e.contains(says), "{e}");
        assert!(!out.exists(), "{spec}: {e}");
    }
    let spec = format!("x:manhattan={py}");
    bin::ok(&[
        "run",
        "--instances",
        &set,
        "--solver",
        &spec,
        "--no-history",
        "--out",
        arg(&out),
    ]);
    let reports = dir.join("reports");
    bin::ok(&["report", arg(&out), "--out", arg(&reports)]);
    let md = fs::read_to_string(reports.join("report.md")).unwrap();
    assert!(md.contains("1 instance: 1 solved."), "{md}");
    assert!(
        md.contains("The built-in search with `manhattan` was not run; add `-H manhattan`"),
        "{md}"
    );
    assert!(!md.contains("0 of 0"), "{md}");
}

/// A solver is set beside a built-in method of any algorithm by the label of its series: an
/// outside breadth-first search beside `bfs` (refused as "unknown heuristic 'bfs'" before), an
/// A* beside `astar+manhattan`; a label that names no method is refused before anything runs.
#[test]
fn a_solver_is_set_beside_bfs_or_astar() {
    let dir = common::fresh_dir("outside-methods");
    let set = short_walks(&dir, "2");
    let py = |f: &Path| format!("python3 -B {}", shell_quote(f));
    let out = dir.join("results");
    for (spec, says) in [
        ("x:astar=true", "astar needs a heuristic: astar+HEURISTIC"),
        ("x:bfs+manhattan=true", "bfs takes no heuristic"),
    ] {
        let e = bin::fails(&[
            "run",
            "--instances",
            &set,
            "--solver",
            spec,
            "--out",
            arg(&out),
        ]);
        assert!(e.contains(says), "{e}");
        assert!(!out.exists(), "{spec}: {e}");
    }
    bin::ok(&[
        "run",
        "--instances",
        &set,
        "--algorithm",
        "bfs,astar",
        "-H",
        "manhattan",
        "--solver",
        &format!("mybfs:bfs={}", py(&fixture("no_counts.py"))),
        "--solver",
        &format!("mya:astar+manhattan={}", py(&example())),
        "--solver",
        &format!("plain={}", py(&fixture("no_counts.py"))),
        "--no-history",
        "--out",
        arg(&out),
    ]);
    let meta = bin::meta(&out);
    assert_eq!(
        meta["experiment"]["solvers"][0]
            .as_str()
            .map(|s| s.starts_with("mybfs:bfs=")),
        Some(true)
    );
    let reports = dir.join("reports");
    bin::ok(&["report", arg(&out), "--out", arg(&reports)]);
    let md = fs::read_to_string(reports.join("report.md")).unwrap();
    assert!(
        md.contains(
            "Beside the built-in search with `bfs`: lengths agree on 2 of 2, it reported no node \
             counts."
        ),
        "{md}"
    );
    // A solver set beside no method: its built-in length is the optimal one the built-in bfs
    // of the same run found, named as such (it was a dash); beside bfs, that run's length.
    let runs = bin::read_runs(&out);
    for id in ["1", "2"] {
        let bfs = runs
            .iter()
            .find(|r| r.heuristic.is_empty() && r.instance_id == id)
            .and_then(|r| r.length)
            .unwrap();
        let row = format!("| tiny #{id} | solved | {bfs} | {bfs} (bfs) | not reported |");
        assert!(md.contains(&row), "{row}\n{md}");
        let row = format!("| tiny #{id} | solved | {bfs} | {bfs} | not reported |");
        assert!(md.contains(&row), "{row}\n{md}");
    }
    assert!(
        md.contains("A built-in length with a name in parentheses is not from the solver's"),
        "{md}"
    );
    // The example is IDA*: its totals are not A*'s, but its lengths are.
    assert!(
        md.contains(
            "Beside the built-in search with `astar+manhattan`: lengths agree on 2 of 2, node \
             totals on 0 of 2"
        ),
        "{md}"
    );
}

/// A solver that reports no node counts: its counts are stored empty (unknown), not 0, and
/// `report` and `compare` say "not reported" rather than showing or comparing a 0; a copy in
/// the old form, 0 for the counts not reported, still reads, and is no node change.
#[test]
fn counts_not_reported_are_stored_empty_and_shown_as_such() {
    let dir = common::fresh_dir("outside-no-counts");
    let set = short_walks(&dir, "3");
    let out = dir.join("results");
    let quiet = format!(
        "quiet:manhattan=python3 -B {}",
        shell_quote(&fixture("no_counts.py"))
    );
    bin::ok(&[
        "run",
        "--instances",
        &set,
        "-H",
        "manhattan",
        "--solver",
        &quiet,
        "--no-history",
        "--out",
        arg(&out),
    ]);
    let runs = bin::read_runs(&out);
    let quiet_runs: Vec<_> = runs.iter().filter(|r| r.heuristic == "quiet").collect();
    assert_eq!(quiet_runs.len(), 3);
    for r in &quiet_runs {
        assert_eq!(r.status, RunStatus::Solved, "{r:?}");
        assert_eq!(
            (r.generated, r.expanded, r.last_iteration_generated),
            (None, None, None),
            "{r:?}"
        );
        assert_eq!(r.nodes_per_second, None, "{r:?}");
    }
    // In the file itself: empty fields, as documented for "no value".
    let csv = fs::read_to_string(out.join("runs.csv")).unwrap();
    let header: Vec<&str> = csv.lines().next().unwrap().split(',').collect();
    let column = |name: &str| header.iter().position(|h| *h == name).unwrap();
    for line in csv.lines().filter(|l| l.contains(",quiet,")) {
        let fields: Vec<&str> = line.split(',').collect();
        for name in ["expanded", "generated", "last_iteration_generated"] {
            assert_eq!(fields[column(name)], "", "{name} in {line}");
        }
    }

    let reports = dir.join("reports");
    bin::ok(&["report", arg(&out), "--out", arg(&reports)]);
    let md = fs::read_to_string(reports.join("report.md")).unwrap();
    assert!(
        md.contains("lengths agree on 3 of 3, it reported no node counts."),
        "{md}"
    );
    assert!(md.contains("| not reported |"), "{md}");
    assert!(
        md.contains("- **not reported**: an outside solver that did not report"),
        "{md}"
    );
    // The summary has no node figures for it (not a mean of 0 nodes, nor 0 nodes a second).
    let summary = md
        .lines()
        .find(|l| l.starts_with("| `quiet` |"))
        .expect("a summary row for quiet");
    assert!(!summary.contains("| 0 |"), "{summary}");

    let o = bin::ok(&["compare", arg(&out), arg(&out)]);
    let text = bin::stdout(&o);
    assert!(text.contains("not reported"), "{text}");

    // An older directory wrote 0 for the counts a solver did not report: it still reads, and
    // against the new empty counts it is no node-count change.
    let old = dir.join("old");
    fs::create_dir_all(&old).unwrap();
    for name in ["iterations.csv", "meta.json"] {
        fs::copy(out.join(name), old.join(name)).unwrap();
    }
    let mut zeroed = runs.clone();
    for r in zeroed.iter_mut().filter(|r| r.heuristic == "quiet") {
        r.generated = Some(0);
        r.expanded = Some(0);
        r.last_iteration_generated = Some(0);
    }
    tilebench::results::io::write_rows(&old.join("runs.csv"), &zeroed).unwrap();
    bin::ok(&["report", arg(&old), "--out", arg(&dir.join("old-report"))]);
    let o = bin::ok(&["compare", arg(&old), arg(&out)]);
    let text = bin::stdout(&o);
    assert!(!text.contains("node counts changed"), "{text}");
}
