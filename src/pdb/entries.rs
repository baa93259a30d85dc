//! The bytes of a table, backed by transparent huge pages when the table is large.
//!
//! The search reads tables at random, so with 4 KiB pages nearly every lookup in a big table is
//! a TLB miss as well as a cache miss (the 8-tile table of 7-8 spans 127,000 pages). Tables from
//! [`HUGE_FROM`] bytes up therefore live in an anonymous mapping advised `MADV_HUGEPAGE` *before*
//! it is first written, so that Linux backs it with 2 MiB pages even when transparent huge pages
//! are in `madvise` mode; the same 519 MB then spans about 250 pages. Where the mapping or the
//! advice is refused (another OS, huge pages disabled) the table works the same, only slower.

use std::fmt;
use std::ops::{Deref, DerefMut};

use rayon::prelude::*;

/// Tables at least this large (4 MiB: two huge pages) are put on huge pages.
pub const HUGE_FROM: usize = 4 << 20;

/// The huge page size on x86-64 Linux: the unit in which a mapping is touched in parallel.
const PAGE: usize = 2 << 20;

/// A table's bytes: a slice, wherever it lives.
pub struct Entries(Backing);

enum Backing {
    Heap(Vec<u8>),
    Mapped(memmap2::MmapMut),
}

impl Entries {
    /// `len` bytes all equal to `byte`, on huge pages where the size and the system allow.
    pub fn filled(len: usize, byte: u8) -> Entries {
        if len >= HUGE_FROM {
            if let Ok(mut map) = memmap2::MmapMut::map_anon(len) {
                // Best effort: without the advice the table is only slower.
                #[cfg(target_os = "linux")]
                let _ = map.advise(memmap2::Advice::HugePage);
                // Touch every page now, on all cores: faulting in (and, when memory is fragmented,
                // compacting for) hundreds of huge pages is most of a large table's load time.
                // A fresh anonymous mapping reads as zeros, so zeros need one write per page.
                map.par_chunks_mut(PAGE).for_each(|page| {
                    if byte == 0 {
                        page[0] = 0;
                    } else {
                        page.fill(byte);
                    }
                });
                return Entries(Backing::Mapped(map));
            }
        }
        Entries(Backing::Heap(vec![byte; len]))
    }

    /// A copy of `bytes` (placed as by [`Entries::filled`]).
    pub fn from_slice(bytes: &[u8]) -> Entries {
        let mut e = Entries::filled(bytes.len(), 0);
        e.copy_from_slice(bytes);
        e
    }

    /// Whether the bytes are in a mapping advised for huge pages (not whether the kernel granted
    /// them: see `AnonHugePages` in `/proc/self/smaps_rollup`).
    pub(crate) fn is_mapped(&self) -> bool {
        matches!(self.0, Backing::Mapped(_))
    }
}

impl Deref for Entries {
    type Target = [u8];

    #[inline(always)]
    fn deref(&self) -> &[u8] {
        match &self.0 {
            Backing::Heap(v) => v,
            Backing::Mapped(m) => m,
        }
    }
}

impl DerefMut for Entries {
    #[inline(always)]
    fn deref_mut(&mut self) -> &mut [u8] {
        match &mut self.0 {
            Backing::Heap(v) => v,
            Backing::Mapped(m) => m,
        }
    }
}

impl Clone for Entries {
    fn clone(&self) -> Entries {
        Entries::from_slice(self)
    }
}

impl PartialEq for Entries {
    fn eq(&self, other: &Entries) -> bool {
        **self == **other
    }
}

impl Eq for Entries {}

impl fmt::Debug for Entries {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Entries({} bytes{})",
            self.len(),
            if self.is_mapped() { ", mapped" } else { "" }
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The kilobytes of anonymous memory on huge pages in this process.
    fn anon_huge_kb() -> Option<u64> {
        let text = std::fs::read_to_string("/proc/self/smaps_rollup").ok()?;
        let line = text.lines().find(|l| l.starts_with("AnonHugePages:"))?;
        line.split_whitespace().nth(1)?.parse().ok()
    }

    #[test]
    fn small_tables_stay_on_the_heap_and_large_ones_are_mapped() {
        let small = Entries::filled(1000, 7);
        assert!(!small.is_mapped());
        assert!(small.iter().all(|&b| b == 7));
        let mut big = Entries::filled(HUGE_FROM * 4, 0xFF);
        assert!(big.iter().all(|&b| b == 0xFF));
        big[12345] = 3;
        let copy = big.clone();
        assert_eq!(copy, big);
        assert_eq!(copy[12345], 3);
        assert_ne!(Entries::from_slice(&[1, 2]), Entries::from_slice(&[1, 3]));
        if cfg!(target_os = "linux") {
            assert!(big.is_mapped());
            // Where the kernel offers huge pages for advised mappings, it gave us some.
            let mode = std::fs::read_to_string("/sys/kernel/mm/transparent_hugepage/enabled");
            if mode.is_ok_and(|m| m.contains("[madvise]") || m.contains("[always]")) {
                // At least one 2 MiB page (the mapping holds 4 × HUGE_FROM bytes, and the
                // advised fault path compacts memory for it when the defrag mode allows).
                let kb = anon_huge_kb().unwrap_or(0);
                assert!(kb >= 2048, "AnonHugePages: {kb} kB, no huge page");
            }
        }
    }
}
