//! `tilebench solve --algorithm`: the three algorithms end to end, their memory figures, and the
//! errors a student meets first.

use crate::common;

use common::bin::{fails, ok, stdout};

fn json(args: &[&str]) -> serde_json::Value {
    let o = ok(&[&["solve", "--format", "json"][..], args].concat());
    serde_json::from_slice(&o.stdout).unwrap()
}

#[test]
fn the_three_algorithms_agree_and_report_memory() {
    let board = "8 6 7 2 5 4 3 0 1"; // one of the two hardest 8-puzzle boards: 31 moves
    let bfs = json(&["--algorithm", "bfs", board]);
    let astar = json(&["--algorithm", "astar", "-H", "linear-conflict", board]);
    let ida = json(&["-H", "linear-conflict", board]);
    for (v, algorithm, heuristic) in [
        (&bfs, "bfs", "none"),
        (&astar, "astar", "linear-conflict"),
        (&ida, "ida", "linear-conflict"),
    ] {
        assert_eq!(v["algorithm"], algorithm);
        assert_eq!(v["heuristic"], heuristic);
        assert_eq!(v["status"], "solved");
        assert_eq!(v["length"], 31);
        assert_eq!(v["reopened"], 0);
        assert_eq!(v["table_bytes"], 0);
        let (stored, bytes) = (
            v["peak_stored"].as_u64().unwrap(),
            v["peak_bytes"].as_u64().unwrap(),
        );
        assert!(stored > 0 && bytes > stored);
        let per = v["bytes_per_state"].as_f64().unwrap();
        assert!((per - bytes as f64 / stored as f64).abs() < 1e-9);
    }
    // IDA* holds its path (32 states); BFS nearly all 181,440 states; A* far fewer.
    assert_eq!(ida["peak_stored"], 32);
    assert!(bfs["peak_stored"].as_u64().unwrap() > 150_000);
    let a = astar["peak_stored"].as_u64().unwrap();
    assert!(a > 32 && a < 100_000, "{a}");
    assert_eq!(astar["iterations"].as_array().unwrap().len(), 1);
}

#[test]
fn text_output_shows_memory_and_the_memory_limit_status() {
    let o = ok(&[
        "solve",
        "--algorithm",
        "bfs",
        "--memory-limit",
        "100K",
        "--goal",
        "blank-first",
        "14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3",
    ]);
    let out = stdout(&o);
    assert!(out.contains("search     bfs (no heuristic)"), "{out}");
    assert!(
        out.contains("stopped    memory-limit (no solution found)"),
        "{out}"
    );
    assert!(out.contains("(limit 100.0 KiB)"), "{out}");
    // A storing search gives its bytes a state; IDA*, which holds only its path, does not.
    assert!(
        out.contains(" bytes a state (peak bytes / peak states"),
        "{out}"
    );
    let ida = stdout(&ok(&["solve", "-H", "manhattan", "8 6 7 2 5 4 3 0 1"]));
    assert!(ida.contains("memory     32 states stored at peak"), "{ida}");
    assert!(!ida.contains("bytes a state"), "{ida}");
}

#[test]
fn bad_algorithm_options_are_clear_errors() {
    let board = "1 2 3 4 0 5 7 8 6";
    let e = fails(&["solve", "--algorithm", "bfs", "-H", "manhattan", board]);
    assert!(e.contains("bfs takes no heuristic"), "{e}");
    let e = fails(&["solve", "--algorithm", "astar", "-H", "none", board]);
    assert!(e.contains("astar needs a heuristic"), "{e}");
    let e = fails(&["solve", "--algorithm", "dfs", board]);
    assert!(e.contains("unknown algorithm 'dfs'"), "{e}");
    for algorithm in ["astar", "bfs"] {
        let h = if algorithm == "bfs" {
            "none"
        } else {
            "manhattan"
        };
        let e = fails(&["solve", "-a", algorithm, "-H", h, "--threads", "2", board]);
        assert!(
            e.contains(&format!("{algorithm} runs on one thread: only IDA*")),
            "{e}"
        );
    }
    let e = fails(&["solve", "--memory-limit", "4X", board]);
    assert!(e.contains("unknown unit 'X'"), "{e}");
    // A forgotten unit would stop the search at once: refused, naming the likely size.
    let e = fails(&["solve", "-a", "astar", "--memory-limit", "256", board]);
    assert!(e.contains("did you mean 256M (MiB)"), "{e}");
    let e = fails(&["solve", "--time-limit=-1", board]);
    assert!(
        e.contains("-1 is out of range: give seconds above 0"),
        "{e}"
    );
}

/// A stopped breadth-first search says the depth it reached: the optimal length is at least it.
#[test]
fn a_stopped_search_says_how_far_it_got() {
    let board = "8 6 7 2 5 4 3 0 1"; // 31 moves
    let v = json(&["--algorithm", "bfs", "--memory-limit", "256K", board]);
    assert_eq!(v["status"], "memory-limit");
    let bound = v["lower_bound"].as_u64().unwrap();
    assert!((1..=31).contains(&bound), "{v}");
    assert_eq!(v["iterations"][0]["bound"], bound);
    let o = ok(&["solve", "-a", "bfs", "--memory-limit", "256K", board]);
    let out = stdout(&o);
    assert!(
        out.contains(&format!(
            "reached    depth {bound} (no board up to depth {} is the goal): the optimal \
             length is at least {bound}",
            bound - 1
        )),
        "{out}"
    );
    let v = json(&["--algorithm", "bfs", board]);
    assert_eq!(v["lower_bound"], serde_json::Value::Null);
    // IDA* cut short: the bound of the iteration it was in, above h0 and at most the length.
    let v = json(&["--node-limit", "2000", board]);
    assert_eq!(v["status"], "node-limit");
    let bound = v["lower_bound"].as_u64().unwrap();
    let last = v["iterations"].as_array().unwrap().last().unwrap().clone();
    assert_eq!(last["bound"], bound, "{v}");
    assert!(bound > v["h0"].as_u64().unwrap() && bound <= 31, "{v}");
    let out = stdout(&ok(&["solve", "--node-limit", "2000", board]));
    assert!(
        out.contains(&format!(
            "reached    bound {bound} (every smaller bound searched in full): the optimal length \
             is at least {bound}"
        )),
        "{out}"
    );
}

/// A* and bfs get half the machine's memory by default, said so; `none` lifts it; IDA* none.
#[test]
fn storing_searches_have_a_default_memory_limit() {
    let board = "1 2 3 4 0 5 7 8 6";
    let limit = |args: &[&str]| json(&[args, &[board][..]].concat())["memory_limit"].clone();
    let default = limit(&["-a", "bfs"]).as_u64().unwrap();
    assert!(default > 1 << 20, "{default}");
    assert_eq!(limit(&["-a", "astar"]).as_u64(), Some(default));
    assert_eq!(
        limit(&["-a", "bfs", "--memory-limit", "none"]),
        serde_json::Value::Null
    );
    assert_eq!(limit(&["-a", "ida"]), serde_json::Value::Null);
    let out = stdout(&ok(&["solve", "-a", "bfs", board]));
    assert!(
        out.contains("the default: half of this machine's memory"),
        "{out}"
    );
    let out = stdout(&ok(&[
        "solve",
        "-a",
        "bfs",
        "--memory-limit",
        "none",
        board,
    ]));
    assert!(!out.contains("(limit"), "{out}");
}

/// `solve` prints r from the last two completed iterations and both overheads, recomputed here
/// from the iterations it prints.
#[test]
fn ida_prints_the_growth_and_the_overheads() {
    let board = "8 6 7 2 5 4 3 0 1";
    let v = json(&["-H", "manhattan", board]);
    let generated: Vec<f64> = v["iterations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["generated"].as_f64().unwrap())
        .collect();
    let completed = &generated[..generated.len() - 1];
    let k = completed.len();
    assert!(k >= 3, "{generated:?}");
    let r = completed[k - 1] / completed[k - 2];
    let measured = completed.iter().sum::<f64>() / completed[k - 1];
    let close = |a: &serde_json::Value, b: f64| (a.as_f64().unwrap() - b).abs() < 1e-9;
    assert!(close(&v["growth_ratio"], r), "{v}");
    assert!(close(&v["overhead_predicted"], r / (r - 1.0)), "{v}");
    assert!(close(&v["overhead_measured"], measured), "{v}");
    let out = stdout(&ok(&["solve", "-H", "manhattan", board]));
    assert!(out.contains(&format!("growth     r = {r:.3} ")), "{out}");
    assert!(
        out.contains(&format!(
            "overhead   predicted r/(r-1) = {:.3}, measured {measured:.3}",
            r / (r - 1.0)
        )),
        "{out}"
    );
}

/// `--version` names the commit the binary was built from.
#[test]
fn version_names_the_commit() {
    let out = stdout(&ok(&["--version"]));
    let commit = out
        .split("(commit ")
        .nth(1)
        .and_then(|rest| rest.split([',', ')']).next())
        .unwrap_or_else(|| panic!("{out}"));
    assert!(
        commit == "unknown"
            || (commit.len() == 40 && commit.bytes().all(|b| b.is_ascii_hexdigit())),
        "{out}"
    );
}

/// `run` gives A* and bfs pairs the default memory limit (stored in meta.json) and IDA* alone
/// none; `--resume` keeps the stored one.
#[test]
fn run_stores_the_default_memory_limit() {
    use common::bin::{arg, gen, meta};
    let dir = common::fresh_dir("default-memory-limit");
    let set = gen(
        &dir,
        "s.txt",
        &["--size", "3x3", "--count", "2", "--seed", "5"],
    );
    let limit = |name: &str, args: &[&str]| {
        let out = dir.join(name);
        let common = ["run", "--instances", &set, "--jobs", "1", "--no-history"];
        ok(&[&common[..], &["--out", arg(&out)], args].concat());
        meta(&out)["experiment"]["memory_limit"].clone()
    };
    let astar = limit("astar", &["-a", "astar", "-H", "manhattan"])
        .as_u64()
        .unwrap();
    assert!(astar > 1 << 20, "{astar}");
    assert_eq!(
        limit("ida", &["-a", "ida", "-H", "manhattan"]),
        serde_json::Value::Null
    );
    let resumed = limit("astar", &["-a", "astar", "-H", "manhattan", "--resume"]);
    assert_eq!(resumed.as_u64(), Some(astar));
    let lifted = limit("bfs", &["-a", "bfs", "--memory-limit", "none"]);
    assert_eq!(lifted, serde_json::Value::Null);
}
