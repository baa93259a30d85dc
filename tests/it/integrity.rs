//! Nothing lost, nothing mixed, nothing overwritten (issue 27): shards of another experiment,
//! symlinks planted at every file tilebench writes, names that collide after sanitising, stop
//! signals to the whole process group with an outside solver, tampered results, and the small
//! holes around them. Tiny 3×3 boards only; everything in temporary directories.

use crate::common;

use std::fs;
use std::os::unix::fs::symlink;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};

use common::bin::{self, arg, fails, gen, ok, read_runs, run};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/solvers")
        .join(name)
}

fn example() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/solvers/ida_manhattan.py")
}

fn py(p: &Path) -> String {
    format!("python3 -B '{}'", arg(p).replace('\'', r"'\''"))
}

/// A set of `count` short-walk 3×3 boards (instant for every solver).
fn tiny(dir: &Path, file: &str, count: &str, seed: &str) -> String {
    gen(
        dir,
        file,
        &[
            "--size", "3x3", "--count", count, "--seed", seed, "--walk", "12",
        ],
    )
}

/// An instance file with the given ids, on boards of a generated set.
fn with_ids(dir: &Path, file: &str, ids: &[&str]) -> String {
    let source = tiny(dir, &format!("{file}.src"), &ids.len().to_string(), "9");
    let text = fs::read_to_string(&source).unwrap();
    let mut out = String::new();
    let mut k = 0;
    for line in text.lines() {
        if line.starts_with('#') || line.starts_with("id\t") {
            out.push_str(line);
        } else {
            let (_, tiles) = line.split_once('\t').unwrap();
            out.push_str(&format!("{}\t{tiles}", ids[k]));
            k += 1;
        }
        out.push('\n');
    }
    let path = dir.join(file);
    fs::write(&path, out).unwrap();
    arg(&path).to_string()
}

fn strs(v: &[String]) -> Vec<&str> {
    v.iter().map(String::as_str).collect()
}

fn run_args<'a>(set: &'a str, out: &'a Path, extra: &[&'a str]) -> Vec<&'a str> {
    let mut a = vec!["run", "--instances", set, "-j", "1", "--out", arg(out)];
    a.extend_from_slice(extra);
    a
}

// ---- 1. collect merges only shards of one experiment ----------------------------------------

#[test]
fn collect_refuses_shards_of_another_experiment() {
    let dir = common::fresh_dir("integrity-collect");
    let set = tiny(&dir, "tiny.txt", "4", "1");
    let shard = |out: &Path, i: usize, extra: &[&str]| {
        let s = format!("{i}/2");
        let mut a = vec![
            "run",
            "--instances",
            &set,
            "-H",
            "manhattan",
            "-j",
            "1",
            "--no-history",
            "--out",
            arg(out),
            "--shard",
            &s,
        ];
        a.extend_from_slice(extra);
        run(&a)
    };
    // The instance file regenerated between the shards: other boards under the same name.
    let out = dir.join("regenerated");
    assert!(shard(&out, 0, &[]).status.success());
    ok(&[
        "gen", "--size", "3x3", "--count", "4", "--seed", "2", "--walk", "12", "--force", "-o",
        &set,
    ]);
    let _ = shard(&out, 1, &[]);
    let err = fails(&["collect", arg(&out)]);
    assert!(
        err.contains("shards/0/meta.json") && err.contains("instance set 'tiny'"),
        "{err}"
    );
    assert!(!out.join("runs.csv").exists(), "nothing merged");

    // A shard without meta.json.
    let out = dir.join("no-meta");
    assert!(shard(&out, 0, &[]).status.success());
    assert!(shard(&out, 1, &[]).status.success());
    ok(&["collect", arg(&out)]);
    fs::remove_file(out.join("shards/1/meta.json")).unwrap();
    let err = fails(&["collect", arg(&out)]);
    assert!(
        err.contains("shards/1/meta.json") && err.contains("missing"),
        "{err}"
    );

    // A shard copied in from a run under another node limit.
    let other = dir.join("limited");
    assert!(shard(&other, 1, &["--node-limit", "100"]).status.success());
    let out = dir.join("mixed");
    assert!(shard(&out, 0, &[]).status.success());
    assert!(shard(&out, 1, &[]).status.success());
    fs::remove_dir_all(out.join("shards/1")).unwrap();
    fs::rename(other.join("shards/1"), out.join("shards/1")).unwrap();
    let err = fails(&["collect", arg(&out)]);
    assert!(
        err.contains("shards/1/meta.json")
            && err.contains("node limit: 100 in this shard, none in the experiment"),
        "{err}"
    );
}

// ---- 2, 7. symlinks are replaced, never followed -------------------------------------------

#[test]
fn a_lock_that_is_a_symlink_is_refused_and_its_target_kept() {
    let dir = common::fresh_dir("integrity-lock");
    let set = tiny(&dir, "tiny.txt", "1", "1");
    let victim = dir.join("victim.txt");
    fs::write(&victim, "precious\n").unwrap();
    let out = dir.join("out");
    fs::create_dir_all(&out).unwrap();
    symlink(&victim, out.join(".lock")).unwrap();
    let err = fails(&run_args(&set, &out, &["-H", "manhattan", "--no-history"]));
    assert!(
        err.contains(".lock") && err.contains("symbolic link"),
        "{err}"
    );
    assert!(!err.contains("precious"), "{err}");
    assert_eq!(fs::read_to_string(&victim).unwrap(), "precious\n");
}

/// Every regular file under `dirs` (but `.lock`) replaced by a symlink to a file of its own in
/// `victims`; returns (victim, content). A history appended through its symlink, or a plot or
/// log written through one, changes its victim.
fn plant(dirs: &[&Path], victims: &Path) -> Vec<(PathBuf, String)> {
    fn walk(d: &Path, files: &mut Vec<PathBuf>) {
        for e in fs::read_dir(d).unwrap() {
            let p = e.unwrap().path();
            let meta = fs::symlink_metadata(&p).unwrap();
            if meta.is_dir() {
                walk(&p, files);
            } else if meta.is_file() && p.file_name().unwrap() != ".lock" {
                files.push(p);
            }
        }
    }
    let mut files = Vec::new();
    for d in dirs {
        walk(d, &mut files);
    }
    fs::create_dir_all(victims).unwrap();
    let mut planted = Vec::new();
    for (k, f) in files.iter().enumerate() {
        let victim = victims.join(format!("victim-{k}"));
        // Files read back (results, history) keep their content, so that every command still
        // reads what it needs; any other file becomes a marker no command would write.
        let name = f.file_name().unwrap().to_string_lossy().to_string();
        let content = if name.ends_with(".csv") || name.ends_with(".json") {
            fs::read_to_string(f).unwrap()
        } else {
            format!("victim {k} for {}\n", f.display())
        };
        fs::write(&victim, &content).unwrap();
        fs::remove_file(f).unwrap();
        symlink(&victim, f).unwrap();
        planted.push((victim, content));
    }
    planted
}

#[test]
fn symlinks_planted_at_every_written_file_are_never_followed() {
    let dir = common::fresh_dir("integrity-symlinks");
    let set = tiny(&dir, "tiny.txt", "2", "3");
    let out = dir.join("results").join("r");
    let solver = format!("ok:manhattan={}", py(&example()));
    let args = |extra: &[&'static str]| -> Vec<String> {
        let mut a: Vec<String> = run_args(&set, &out, &["-H", "manhattan", "--solver", &solver])
            .into_iter()
            .map(String::from)
            .collect();
        a.extend(extra.iter().map(|s| s.to_string()));
        a
    };
    let plots = dir.join("plots");
    let report = dir.join("report");
    let first = args(&[]);
    ok(&strs(&first));
    ok(&["plot", arg(&out), "--out", arg(&plots)]);
    ok(&["report", arg(&out), "--out", arg(&report)]);
    assert!(out.join("logs").read_dir().unwrap().count() >= 2);

    let planted = plant(
        &[&out, &plots, &report, &dir.join("results")],
        &dir.join("victims"),
    );
    assert!(planted.len() >= 10, "{} files planted", planted.len());
    // Run again over them: each command does its work, and no target is written.
    ok(&["plot", arg(&out), "--out", arg(&plots)]);
    ok(&["report", arg(&out), "--out", arg(&report)]);
    let again = args(&["--overwrite"]);
    ok(&strs(&again));
    for (victim, content) in &planted {
        assert!(
            fs::read(victim).unwrap() == content.as_bytes(),
            "{} was written through a symlink",
            victim.display()
        );
    }
}

// ---- 4, 5, 9. file names unique per distinct name, and short -------------------------------

#[test]
fn names_that_collide_after_sanitising_get_files_of_their_own() {
    let dir = common::fresh_dir("integrity-names");
    let ids = ["x y", "x_y", "x/y"];
    let a = with_ids(&dir, "a b.txt", &ids);
    let b = with_ids(&dir, "a_b.txt", &ids);
    let out = dir.join("out");
    let solver = format!("ok:manhattan={}", py(&example()));
    ok(&[
        "run",
        "--instances",
        &a,
        "--instances",
        &b,
        "-H",
        "manhattan",
        "--solver",
        &solver,
        "-j",
        "1",
        "--no-history",
        "--out",
        arg(&out),
    ]);
    // One log per outside pair: 2 sets × 3 ids.
    assert_eq!(out.join("logs").read_dir().unwrap().count(), 6);
    let plots = dir.join("plots");
    ok(&["plot", arg(&out), "--out", arg(&plots)]);
    let named = |d: &Path, part: &str, ext: &str| -> usize {
        fs::read_dir(d)
            .unwrap()
            .filter(|e| {
                let n = e
                    .as_ref()
                    .unwrap()
                    .file_name()
                    .to_string_lossy()
                    .to_string();
                n.contains(part) && n.ends_with(ext)
            })
            .count()
    };
    // An iterations plot per instance of each set: 6, not 1.
    assert_eq!(named(&plots, "iterations", ".svg"), 6);
    assert_eq!(named(&plots, "iterations", ".png"), 6);
    let report = dir.join("report");
    ok(&[
        "report",
        arg(&out),
        "--format",
        "tex",
        "--out",
        arg(&report),
    ]);
    // One summary table per set (each may be split into parts by columns): two sets, two stems.
    let stems: std::collections::BTreeSet<String> = fs::read_dir(report.join("tables"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
        .filter(|n| n.starts_with("summary-") && n.ends_with(".tex"))
        .map(|n| n.split('-').take(4).collect::<Vec<_>>().join("-"))
        .collect();
    assert_eq!(stems.len(), 2, "{stems:?}");
}

#[test]
fn a_long_instance_id_runs_checkpoints_logs_and_reports() {
    let dir = common::fresh_dir("integrity-long");
    let long = "i".repeat(250);
    let set = with_ids(&dir, "long.txt", &[&long]);
    let out = dir.join("out");
    let solver = format!("ok:manhattan={}", py(&example()));
    ok(&run_args(
        &set,
        &out,
        &[
            "-H",
            "manhattan",
            "--solver",
            &solver,
            "--no-history",
            "--node-limit",
            "5",
        ],
    ));
    // The node-limited pair kept its checkpoint, under a short name.
    assert_eq!(out.join("checkpoints").read_dir().unwrap().count(), 1);
    ok(&["report", arg(&out), "--out", arg(&dir.join("report"))]);
}

// ---- 3. a stop signal to the whole job leaves the outside pair unwritten --------------------

fn wait_for(path: &Path) {
    let started = Instant::now();
    while !path.exists() {
        assert!(started.elapsed() < Duration::from_secs(60), "never started");
        std::thread::sleep(Duration::from_millis(10));
    }
}

fn stop_the_job(signal: i32) {
    let dir = common::fresh_dir(&format!("integrity-signal-{signal}"));
    let set = tiny(&dir, "tiny.txt", "1", "1");
    let pidfile = dir.join("solver.pid");
    let solver = format!(
        "sleepy={} '{}'",
        py(&fixture("sleep_forever.py")),
        arg(&pidfile)
    );
    let out = dir.join("out");
    let mut child = bin::tilebench()
        .args(run_args(&set, &out, &["--solver", &solver, "--no-history"]))
        .process_group(0)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    wait_for(&pidfile);
    let solver_pid: i32 = fs::read_to_string(&pidfile)
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    // As Slurm does at a time limit: every process of the job, the solver's group first.
    // SAFETY: signalling process groups this test started.
    unsafe {
        libc::killpg(solver_pid, signal);
        libc::killpg(child.id() as i32, signal);
    }
    let started = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        assert!(started.elapsed() < Duration::from_secs(60), "did not stop");
        std::thread::sleep(Duration::from_millis(20));
    };
    assert_eq!(status.code(), Some(130));
    let runs = read_runs(&out);
    assert!(
        runs.is_empty(),
        "the interrupted pair was written: {:?}",
        runs.iter().map(|r| r.status.as_str()).collect::<Vec<_>>()
    );
}

#[test]
fn sigterm_to_the_job_leaves_the_solver_pair_for_resume() {
    stop_the_job(libc::SIGTERM);
}

#[test]
fn sighup_to_the_job_leaves_the_solver_pair_for_resume() {
    stop_the_job(libc::SIGHUP);
}

// ---- 6, 14. tampered results are refused with file and line ---------------------------------

/// Rewrites field `column` of data row `row` (0-based) of `runs.csv` in `dir`.
fn edit(dir: &Path, row: usize, column: &str, value: &dyn Fn(&str) -> String) {
    let path = dir.join("runs.csv");
    let text = fs::read_to_string(&path).unwrap();
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    let header: Vec<&str> = lines[0].split(',').collect();
    let c = header.iter().position(|h| *h == column).unwrap();
    assert!(!lines[row + 1].contains('"'), "a plain row");
    let mut fields: Vec<String> = lines[row + 1].split(',').map(String::from).collect();
    fields[c] = value(&fields[c]);
    lines[row + 1] = fields.join(",");
    fs::write(&path, lines.join("\n") + "\n").unwrap();
}

/// A new value of a field from its old one.
type Edit = Box<dyn Fn(&str) -> String>;

#[test]
fn tampered_solutions_are_refused_by_report_and_compare() {
    let dir = common::fresh_dir("integrity-tamper");
    let set = tiny(&dir, "tiny.txt", "3", "4");
    let good = dir.join("good");
    ok(&run_args(&set, &good, &["-H", "manhattan", "--no-history"]));
    let runs = read_runs(&good);
    let (row, longest) = runs
        .iter()
        .enumerate()
        .max_by_key(|(_, r)| r.length)
        .unwrap();
    let length = longest.length.unwrap() as usize;
    assert!(length >= 3, "a walk long enough to leave the board");
    let cases: Vec<(&str, &str, Edit)> = vec![
        ("moves", "moves", Box::new(move |_| "U".repeat(length))),
        (
            "length",
            "length",
            Box::new(|v| format!("{}", v.parse::<u32>().unwrap() + 2)),
        ),
        ("h0", "h0", Box::new(move |_| format!("{}", length + 2))),
        ("lowercase", "moves", Box::new(|v| v.to_lowercase())),
    ];
    for (name, column, value) in &cases {
        let bad = dir.join(name);
        fs::create_dir_all(&bad).unwrap();
        for f in ["runs.csv", "iterations.csv", "meta.json"] {
            fs::copy(good.join(f), bad.join(f)).unwrap();
        }
        edit(&bad, row, column, value.as_ref());
        let line = format!("runs.csv, line {}", row + 2);
        let err = fails(&["report", arg(&bad), "--out", arg(&dir.join("r"))]);
        assert!(err.contains(&line), "{name}: {err}");
        let err = fails(&["compare", arg(&good), arg(&bad)]);
        assert!(err.contains(&line), "{name}: {err}");
    }
}

// ---- 8. checkpoints ------------------------------------------------------------------------

#[test]
fn checkpoint_every_zero_is_refused_and_concurrent_saves_never_collide() {
    let dir = common::fresh_dir("integrity-ckpt");
    let set = tiny(&dir, "tiny.txt", "1", "1");
    let err = fails(&run_args(
        &set,
        &dir.join("out"),
        &["-H", "manhattan", "--checkpoint-every", "0"],
    ));
    assert!(err.contains("--no-checkpoint"), "{err}");

    use tilebench::experiment::checkpoint::{Checkpoints, PairId};
    use tilebench::results::RunKey;
    use tilebench::search::SearchCheckpoint;
    let c = Checkpoints::in_dir(&dir.join("saves"), Duration::from_secs(1));
    let key = RunKey::new("s", "1", "manhattan");
    let pair = PairId {
        instance_set: "s".into(),
        instance_id: "1".into(),
        heuristic: "manhattan".into(),
        tiles: vec![1, 2, 3, 0],
        goal: "blank-last".into(),
    };
    let checkpoint = SearchCheckpoint {
        h0: 1,
        iterations: vec![],
        bound: 1,
        current: None,
        seconds: 0.0,
    };
    std::thread::scope(|s| {
        for _ in 0..8 {
            s.spawn(|| {
                for _ in 0..100 {
                    c.save(&key, &pair, 0, &checkpoint).unwrap();
                }
            });
        }
    });
    assert!(c.load(&key, &pair).unwrap().is_some());
}

// ---- 10. control characters ----------------------------------------------------------------

#[test]
fn control_characters_in_ids_and_headers_are_refused_with_the_line() {
    let dir = common::fresh_dir("integrity-control");
    let set = with_ids(&dir, "ff.txt", &["a\u{c}b"]);
    let err = fails(&run_args(&set, &dir.join("o1"), &["-H", "manhattan"]));
    assert!(err.contains("ff.txt:") && err.contains("U+000C"), "{err}");
    let source = tiny(&dir, "esc.txt", "1", "1");
    let text = fs::read_to_string(&source).unwrap();
    fs::write(
        &source,
        text.replacen("# seed:", "# source: evil\u{1b}[31m\n# seed:", 1),
    )
    .unwrap();
    let err = fails(&run_args(&source, &dir.join("o2"), &["-H", "manhattan"]));
    assert!(err.contains("esc.txt:") && err.contains("U+001B"), "{err}");
}

// ---- 11, 12, 14. overwrite, history, failures ----------------------------------------------

#[test]
fn overwrite_replaces_a_corrupt_runs_csv() {
    let dir = common::fresh_dir("integrity-overwrite");
    let set = tiny(&dir, "tiny.txt", "1", "1");
    let out = dir.join("out");
    ok(&run_args(&set, &out, &["-H", "manhattan", "--no-history"]));
    fs::write(out.join("runs.csv"), "garbage\n").unwrap();
    ok(&run_args(
        &set,
        &out,
        &["-H", "manhattan", "--no-history", "--overwrite"],
    ));
    assert_eq!(read_runs(&out).len(), 1);
}

#[test]
fn history_stays_in_the_results_tree_and_a_foreign_one_is_a_warning() {
    let dir = common::fresh_dir("integrity-history");
    let set = tiny(&dir, "tiny.txt", "1", "1");
    let foreign = "a,b\n1,2\n";
    fs::write(dir.join("history.csv"), foreign).unwrap();
    let out = dir.join("out");
    let o = ok(&run_args(&set, &out, &["-H", "manhattan"]));
    assert_eq!(
        fs::read_to_string(dir.join("history.csv")).unwrap(),
        foreign
    );
    assert!(out.join("history.csv").exists(), "{}", bin::stderr(&o));
    // A foreign history where the run appends: a warning, the run still succeeds.
    fs::write(out.join("history.csv"), foreign).unwrap();
    let o = ok(&run_args(&set, &out, &["-H", "manhattan", "--overwrite"]));
    assert!(bin::stderr(&o).contains("warning"), "{}", bin::stderr(&o));
    assert_eq!(
        fs::read_to_string(out.join("history.csv")).unwrap(),
        foreign
    );
}

#[test]
fn a_bad_checkpoint_stops_a_retry_before_any_row_is_dropped_and_meta_says_failed() {
    let dir = common::fresh_dir("integrity-retry");
    // Uniform boards: far enough for a node limit of 50.
    let set = gen(
        &dir,
        "far.txt",
        &["--size", "3x3", "--count", "1", "--seed", "7"],
    );
    let out = dir.join("out");
    let o = run(&run_args(
        &set,
        &out,
        &["-H", "manhattan", "--no-history", "--node-limit", "50"],
    ));
    assert!(o.status.code().is_some(), "{}", bin::stderr(&o));
    assert_eq!(read_runs(&out)[0].status.as_str(), "node-limit");
    let ckpts: Vec<_> = fs::read_dir(out.join("checkpoints"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(ckpts.len(), 1);
    fs::write(&ckpts[0], "{}").unwrap();
    let err = fails(&run_args(
        &set,
        &out,
        &[
            "-H",
            "manhattan",
            "--no-history",
            "--resume",
            "--retry",
            "node-limit",
        ],
    ));
    assert!(err.contains(arg(&ckpts[0])), "{err}");
    assert_eq!(read_runs(&out).len(), 1, "the row was dropped");
    assert_ne!(bin::meta(&out)["state"], "running");
}

#[test]
fn an_out_that_is_a_file_and_a_set_named_dot_dot_are_said_plainly() {
    let dir = common::fresh_dir("integrity-out");
    let set = tiny(&dir, "tiny.txt", "1", "1");
    let file = dir.join("a-file");
    fs::write(&file, "x").unwrap();
    let err = fails(&run_args(&set, &file, &["-H", "manhattan"]));
    assert!(err.contains("not a directory"), "{err}");
    // A set named `..` (file `...txt`): the default --out stays under results/.
    let cwd = dir.join("cwd");
    fs::create_dir_all(&cwd).unwrap();
    fs::copy(&set, cwd.join("...txt")).unwrap();
    let o = bin::tilebench()
        .current_dir(&cwd)
        .args(["run", "--instances", "...txt", "-H", "manhattan", "-j", "1"])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", bin::stderr(&o));
    assert!(!cwd.join("runs.csv").exists());
    let under: Vec<_> = fs::read_dir(cwd.join("results")).unwrap().collect();
    assert!(!under.is_empty());
}

// ---- 15, 16. slurm submit --dry-run --------------------------------------------------------

#[test]
fn a_refused_dry_run_writes_nothing_and_names_the_shared_paths() {
    let dir = common::fresh_dir("integrity-slurm");
    let set = tiny(&dir, "tiny.txt", "2", "1");
    let out = dir.join("out");
    let empty_cache = dir.join("no-tables");
    let submit = |extra: &[&str]| {
        let mut a = vec![
            "slurm",
            "submit",
            "--dry-run",
            "--instances",
            &set,
            "-H",
            "pdb:1,2,3,4/5,6,7,8",
            "--tasks",
            "2",
            "--out",
            arg(&out),
            "--pdb-dir",
            arg(&empty_cache),
        ];
        a.extend_from_slice(extra);
        run(&a)
    };
    let o = submit(&["--no-build"]);
    assert_eq!(o.status.code(), Some(2), "{}", bin::stderr(&o));
    assert!(
        !out.join("experiment.json").exists(),
        "written before refusing"
    );
    let o = submit(&[]);
    assert!(o.status.success(), "{}", bin::stderr(&o));
    let err = bin::stderr(&o);
    assert!(err.contains("every node sees"), "{err}");
    for path in [&out, &empty_cache] {
        assert!(err.contains(arg(path)), "{err}");
    }
    assert!(err.contains(env!("CARGO_BIN_EXE_tilebench")), "{err}");
}
