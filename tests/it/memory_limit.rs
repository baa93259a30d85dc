//! `solve --memory-limit` end to end: A* on a hard 15-puzzle stops with status memory-limit, exit
//! status 0, and the whole process stays below the limit plus a small constant.
//!
//! The child's peak resident memory is read from its own `wait4` record, not from
//! `getrusage(RUSAGE_CHILDREN)`: every test runs in one process, whose other children would count.

use crate::common;

use std::io::Read;
use std::process::Stdio;

use common::bin::tilebench;

/// What the process holds besides the search's own structures: code, stack, the move and
/// heuristic tables, allocator bookkeeping. Measured: about 4.2 MiB for a trivial solve, and
/// 3.2 MiB above the 63.7 MiB the search held at a 64M limit.
const PROCESS_CONSTANT: u64 = 8 << 20;

/// Runs tilebench with `args`; its exit code, standard output and peak resident memory in bytes.
// The child is reaped by `wait4`, which clippy cannot see.
#[allow(clippy::zombie_processes)]
fn run_measured(args: &[&str]) -> (i32, Vec<u8>, u64) {
    let mut child = tilebench()
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap();
    let mut out = Vec::new();
    child.stdout.take().unwrap().read_to_end(&mut out).unwrap();
    let pid = child.id() as libc::pid_t;
    let mut status = 0;
    let mut usage = std::mem::MaybeUninit::<libc::rusage>::zeroed();
    // SAFETY: wait4 reaps the child we spawned (std's `Child` is not waited on after this) and
    // writes its status and `rusage` into the pointers it is given.
    let rc = unsafe { libc::wait4(pid, &mut status, 0, usage.as_mut_ptr()) };
    assert_eq!(rc, pid, "wait4 failed");
    // SAFETY: initialised by the successful call above (and zeroed before it).
    let usage = unsafe { usage.assume_init() };
    assert!(
        libc::WIFEXITED(status),
        "tilebench did not exit: status {status}"
    );
    // Linux reports ru_maxrss in KiB.
    (
        libc::WEXITSTATUS(status),
        out,
        usage.ru_maxrss as u64 * 1024,
    )
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
