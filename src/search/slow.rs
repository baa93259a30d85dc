//! Test-only (cargo feature `slow-nodes`): a fixed amount of work per expanded node, so that a
//! deliberately slower build of the same search exists for checking `tilebench regress`. Not
//! compiled without the feature.

/// Dependent multiply-adds per expanded node: 4 unless `TILEBENCH_SLOW_NODES_SPINS` says
/// otherwise when the binary is built (a constant of the build, no check at run time).
const SPINS: u32 = match option_env!("TILEBENCH_SLOW_NODES_SPINS") {
    Some(s) => parse(s),
    None => 4,
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

/// The work: about three instructions and one multiplication's latency per spin.
#[inline(never)]
pub(crate) fn work(seed: u64) {
    let mut x = std::hint::black_box(seed);
    for _ in 0..SPINS {
        x = x.wrapping_mul(0x5851_f42d_4c95_7f2d).wrapping_add(1);
    }
    std::hint::black_box(x);
}
