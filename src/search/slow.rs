//! Test-only (cargo feature `slow-nodes`): a fixed amount of work per expanded node, so that a
//! deliberately slower build of the same search exists for checking `tilebench regress`. Not
//! compiled without the feature.

/// Dependent multiply-adds the optimiser cannot drop: about 12 instructions and 15 cycles.
#[inline(never)]
pub(crate) fn work(seed: u64) {
    let mut x = std::hint::black_box(seed);
    for _ in 0..4 {
        x = x.wrapping_mul(0x5851_f42d_4c95_7f2d).wrapping_add(1);
    }
    std::hint::black_box(x);
}
