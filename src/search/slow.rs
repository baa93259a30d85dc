//! Test-only (cargo feature `slow-nodes`): a fixed amount of work per expanded node, so that a
//! deliberately slower build of the same search exists for checking `tilebench regress`. Not
//! compiled without the feature.

/// Dependent multiply-adds per expanded node: 4 unless `TILEBENCH_SLOW_NODES_SPINS` says
/// otherwise when the binary is built (a constant of the build, no check at run time).
const SPINS: u32 = match option_env!("TILEBENCH_SLOW_NODES_SPINS") {
    Some(s) => parse(s),
    None => 4,
};

/// Expanded nodes per load fence (see [`work`]): 32 unless `TILEBENCH_SLOW_NODES_FENCE_EVERY`
/// says otherwise at build time. A fence on every node made IDA* + Manhattan 1.8× slower, one in
/// eight 1.4× (loaded machine); one in 32 aims at the ~5 % overall that `regress` should call.
const FENCE_EVERY: u64 = match option_env!("TILEBENCH_SLOW_NODES_FENCE_EVERY") {
    Some(s) => parse(s) as u64,
    None => 32,
};

const fn parse(s: &str) -> u32 {
    let b = s.as_bytes();
    let mut i = 0;
    let mut n = 0u32;
    while i < b.len() {
        n = n * 10 + (b[i] - b'0') as u32;
        i += 1;
    }
    n
}

/// The work: about three instructions and one multiplication's latency per spin, and a load
/// fence every [`FENCE_EVERY`] calls (`seed` is the expanded-node count). Without fences an
/// out-of-order core runs the independent chain in the shadow of the search's own latencies, so
/// more instructions cost almost no time (measured: +17 % instructions, +0–3 % time); a fence
/// makes the search wait, so the build is slower by time too.
#[inline(never)]
pub(crate) fn work(seed: u64) {
    let mut x = std::hint::black_box(seed);
    for _ in 0..SPINS {
        x = x.wrapping_mul(0x5851_f42d_4c95_7f2d).wrapping_add(1);
    }
    std::hint::black_box(x);
    #[cfg(target_arch = "x86_64")]
    if seed.is_multiple_of(FENCE_EVERY.max(1)) {
        // SAFETY: `lfence` has no operands and no effect beyond ordering; SSE2 is baseline on x86_64.
        unsafe {
            std::arch::x86_64::_mm_lfence();
        }
    }
}
