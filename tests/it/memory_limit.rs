//! `solve --memory-limit` end to end: A* on a hard 15-puzzle stops with status memory-limit, exit
//! status 0, and the whole process stays below the limit plus a small constant.
//!
//! The peak resident memory is that of a process started by a small Python parent, which reads
//! it with `getrusage(RUSAGE_CHILDREN)`: every test runs in one process, whose children start
//! with its own high-water mark (a fork copies the test process's gigabytes of pattern-database
//! pages, and Linux keeps that peak across exec), so neither this process's `getrusage` nor
//! `wait4` on a direct child measures tilebench alone.

use crate::common;

use common::bin::{tilebench, work_dir};

/// What the process holds besides the search's own structures: code, stack, the move and
/// heuristic tables, allocator bookkeeping. Measured: about 4.2 MiB for a trivial solve, and
/// 3.2 MiB above the 63.7 MiB the search held at a 64M limit.
const PROCESS_CONSTANT: u64 = 8 << 20;

/// Runs tilebench's argv (after `sys.argv[0]`), passes its standard output through, and writes
/// its exit code and peak resident memory (KiB) as the last line of standard error.
const MEASURE: &str = "import resource, subprocess, sys
p = subprocess.run(sys.argv[1:], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
sys.stdout.buffer.write(p.stdout)
sys.stderr.buffer.write(p.stderr)
sys.stderr.write('\\n%d %d\\n' % (p.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss))
";

/// Runs tilebench with `args`; its exit code, standard output and peak resident memory in bytes.
fn run_measured(args: &[&str]) -> (i32, Vec<u8>, u64) {
    let bin = tilebench().get_program().to_owned();
    let o = std::process::Command::new("python3")
        .current_dir(work_dir())
        .envs(tilebench().get_envs().filter_map(|(k, v)| Some((k, v?))))
        .arg("-c")
        .arg(MEASURE)
        .arg(bin)
        .args(args)
        .output()
        .expect("python3 runs (the tests need it)");
    let err = String::from_utf8_lossy(&o.stderr);
    let last = err.lines().last().unwrap_or_default();
    let (code, kib) = last
        .split_once(' ')
        .and_then(|(c, k)| Some((c.parse().ok()?, k.parse::<u64>().ok()?)))
        .unwrap_or_else(|| panic!("no measurement in: {err}"));
    (code, o.stdout, kib * 1024)
}

#[test]
fn astar_at_64m_stops_with_memory_limit_and_stays_below_it() {
    let limit: u64 = 64 << 20;
    // Korf's instance #1 (optimal 57) with Manhattan: A* would store several hundred million
    // states.
    let (code, stdout, rss) = run_measured(&[
        "solve",
        "--algorithm",
        "astar",
        "-H",
        "manhattan",
        "--memory-limit",
        "64M",
        "--goal",
        "blank-first",
        "--format",
        "json",
        "14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3",
    ]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_slice(&stdout).unwrap();
    assert_eq!(v["status"], "memory-limit");
    assert_eq!(v["length"], serde_json::Value::Null);
    assert_eq!(v["memory_limit"], limit);
    let peak_bytes = v["peak_bytes"].as_u64().unwrap();
    assert!(peak_bytes <= limit, "search held {peak_bytes} bytes");
    // The search used the budget, not a small part of it.
    assert!(
        peak_bytes > limit / 2,
        "search held only {peak_bytes} bytes"
    );
    assert!(v["peak_stored"].as_u64().unwrap() > 1_000_000);
    assert!(
        rss < limit + PROCESS_CONSTANT,
        "peak RSS {rss} bytes passes the limit {limit} + {PROCESS_CONSTANT}"
    );
    assert!(
        rss > peak_bytes,
        "RSS {rss} below the search's own {peak_bytes} bytes?"
    );
}
