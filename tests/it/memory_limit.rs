//! `solve --memory-limit` end to end: A* on a hard 15-puzzle stops with status memory-limit, exit
//! status 0, and the whole process stays below the limit plus a small constant.
//!
//! The only test in this file, so that the peak resident memory of this process's children
//! (`getrusage(RUSAGE_CHILDREN)`, the largest child's) is the one run's.

use crate::common;

use common::bin::{run as tilebench, stderr};

/// What the process holds besides the search's own structures: code, stack, the move and
/// heuristic tables, allocator bookkeeping. Measured: about 4.2 MiB for a trivial solve, and
/// 3.2 MiB above the 63.7 MiB the search held at a 64M limit.
const PROCESS_CONSTANT: u64 = 8 << 20;

/// Peak resident memory of the largest child process waited for so far, in bytes.
fn children_max_rss() -> u64 {
    let mut usage = std::mem::MaybeUninit::<libc::rusage>::zeroed();
    // SAFETY: getrusage writes a `rusage` into the pointer it is given and reads nothing else.
    let rc = unsafe { libc::getrusage(libc::RUSAGE_CHILDREN, usage.as_mut_ptr()) };
    assert_eq!(rc, 0, "getrusage failed");
    // SAFETY: initialised by the successful call above (and zeroed before it).
    let usage = unsafe { usage.assume_init() };
    // Linux reports ru_maxrss in KiB.
    usage.ru_maxrss as u64 * 1024
}

#[test]
fn astar_at_64m_stops_with_memory_limit_and_stays_below_it() {
    let limit: u64 = 64 << 20;
    // Korf's instance #1 (optimal 57) with Manhattan: A* would store several hundred million
    // states.
    let o = tilebench(&[
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
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
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
    let rss = children_max_rss();
    assert!(
        rss < limit + PROCESS_CONSTANT,
        "peak RSS {rss} bytes passes the limit {limit} + {PROCESS_CONSTANT}"
    );
    assert!(
        rss > peak_bytes,
        "RSS {rss} below the search's own {peak_bytes} bytes?"
    );
}
