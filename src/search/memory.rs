//! Memory accounting for the searches that store states (A*, breadth-first search), and the
//! memory figures every search reports.
//!
//! A search charges a [`Budget`] before each allocation its own structures make, with the bytes
//! held *while* the allocation happens (the old block and the new one, when a table or vector is
//! replaced by a larger one), so the limit is never passed even transiently; a refused charge ends
//! the search with [`super::RunStatus::MemoryLimit`]. What the budget does not see is the process's
//! fixed part (code, stack, heuristic tables, allocator bookkeeping), which is why the process may
//! grow past the limit by a small constant (measured in `tests/it/memory_limit.rs`).

use std::fmt;

use serde::Serialize;
use thiserror::Error;

/// A memory size that cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ByteSizeError {
    #[error("empty memory size: give bytes or a number with K, M, G or T (e.g. 512M, 4G)")]
    Empty,
    #[error(
        "'{0}' is not a memory size: give bytes or a number with K, M, G or T (e.g. 512M, 4G)"
    )]
    NotANumber(String),
    #[error("unknown unit '{unit}' in '{text}': use K, M, G or T (powers of 1024), or bytes")]
    UnknownUnit { text: String, unit: String },
    #[error("memory size '{0}' is too large")]
    TooLarge(String),
    #[error("memory size '{0}' is zero")]
    Zero(String),
    #[error(
        "memory size '{0}' has no unit, so it is {0} bytes, too few for a search: did you mean \
         {0}M (MiB) or {0}G? (write {0}B for bytes)"
    )]
    NoUnit(String),
}

/// Below this a size without a unit is refused as a forgotten unit (`256` for `256M`): no
/// search fits in it, and it would stop every A* and breadth-first run at once.
const FEWEST_BARE_BYTES: u64 = 1 << 20;

/// Parses a memory size: bytes (`256B`, or a bare number of at least a MiB, `2000000`) or a
/// whole number with a binary unit, `K`, `M`, `G`, `T` (also `KB`/`KiB`…, any case): `64M` =
/// 64 × 2²⁰ bytes, `4G` = 4 × 2³⁰ bytes.
pub fn parse_byte_size(text: &str) -> Result<u64, ByteSizeError> {
    let t = text.trim();
    if t.is_empty() {
        return Err(ByteSizeError::Empty);
    }
    let digits = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
    if digits == 0 {
        return Err(ByteSizeError::NotANumber(t.to_string()));
    }
    let number: u64 = t[..digits]
        .parse()
        .map_err(|_| ByteSizeError::TooLarge(t.to_string()))?;
    let unit = t[digits..].trim();
    let shift = match unit.to_ascii_uppercase().as_str() {
        "" | "B" => 0,
        "K" | "KB" | "KIB" => 10,
        "M" | "MB" | "MIB" => 20,
        "G" | "GB" | "GIB" => 30,
        "T" | "TB" | "TIB" => 40,
        _ => {
            return Err(ByteSizeError::UnknownUnit {
                text: t.to_string(),
                unit: unit.to_string(),
            })
        }
    };
    let bytes = number
        .checked_mul(1u64 << shift)
        .ok_or_else(|| ByteSizeError::TooLarge(t.to_string()))?;
    if unit.is_empty() && bytes > 0 && bytes < FEWEST_BARE_BYTES {
        return Err(ByteSizeError::NoUnit(t.to_string()));
    }
    if bytes == 0 {
        return Err(ByteSizeError::Zero(t.to_string()));
    }
    Ok(bytes)
}

/// A byte count in the largest binary unit that keeps it at least 1 (`63.8 MiB`).
pub struct Bytes(pub u64);

impl fmt::Display for Bytes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let b = self.0 as f64;
        match self.0 {
            0..1024 => write!(f, "{} B", self.0),
            1024..0x10_0000 => write!(f, "{:.1} KiB", b / 1024.0),
            0x10_0000..0x4000_0000 => write!(f, "{:.1} MiB", b / 1048576.0),
            _ => write!(f, "{:.2} GiB", b / 1073741824.0),
        }
    }
}

/// The bytes a search's structures hold, against an optional limit.
#[derive(Debug, Clone)]
pub struct Budget {
    limit: u64,
    held: u64,
    peak: u64,
}

impl Budget {
    /// A budget of `limit` bytes (none: unlimited).
    pub fn new(limit: Option<u64>) -> Budget {
        Budget {
            limit: limit.unwrap_or(u64::MAX),
            held: 0,
            peak: 0,
        }
    }

    /// Charges the replacement of a block of `old` bytes by one of `new` bytes, both held while
    /// the data moves. Returns false, charging nothing, when that would pass the limit.
    #[must_use]
    pub fn replace(&mut self, old: u64, new: u64) -> bool {
        let during = self.held.saturating_add(new);
        if during > self.limit {
            return false;
        }
        self.peak = self.peak.max(during);
        self.held = during - old;
        true
    }

    /// Charges the replacement of a block of `old` bytes by one of `new` bytes when the old block
    /// is freed before the new one is allocated (its contents rebuilt from elsewhere).
    #[must_use]
    pub(crate) fn free_then_take(&mut self, old: u64, new: u64) -> bool {
        let after = self.held.saturating_sub(old).saturating_add(new);
        if after > self.limit {
            return false;
        }
        self.held = after;
        self.peak = self.peak.max(after);
        true
    }

    /// Bytes held now.
    pub fn held(&self) -> u64 {
        self.held
    }

    /// The most bytes held at once, counting both blocks during a replacement.
    pub fn peak(&self) -> u64 {
        self.peak
    }
}

/// Grows `v` so that one more element fits, doubling its capacity (at least `min`), if the budget
/// allows; returns false when it does not. Does nothing when there is room already.
#[must_use]
pub(crate) fn make_room<T>(v: &mut Vec<T>, min: usize, budget: &mut Budget) -> bool {
    if v.len() < v.capacity() {
        return true;
    }
    let size = std::mem::size_of::<T>() as u64;
    let old = v.capacity();
    let new = (old * 2).max(min);
    if !budget.replace(old as u64 * size, new as u64 * size) {
        return false;
    }
    v.reserve_exact(new - v.len());
    // `reserve_exact` may give more than asked; charge what the allocator really holds.
    let got = v.capacity() as u64;
    if got > new as u64 {
        budget.held += (got - new as u64) * size;
        budget.peak = budget.peak.max(budget.held);
    }
    true
}

/// What a search held in memory, the figures every algorithm reports.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize)]
pub struct Memory {
    /// States held at once: open + closed list for A*, frontier + visited set for breadth-first
    /// search, the path (root to deepest node) for IDA*.
    pub peak_stored: u64,
    /// Bytes of the structures that hold those states (for IDA*: the board, the path's moves and
    /// the heuristic's state per level; call frames are not counted).
    pub peak_bytes: u64,
    /// Bytes of the heuristic's precomputed tables (pattern databases), shared by all searches
    /// and so not part of `peak_bytes`.
    pub table_bytes: u64,
}

impl Memory {
    /// `peak_bytes / peak_stored`.
    pub fn bytes_per_state(&self) -> Option<f64> {
        (self.peak_stored > 0).then(|| self.peak_bytes as f64 / self.peak_stored as f64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Bytes per state is a figure only when something was stored (IDA* stores nothing: no
    /// figure, not 0/0).
    #[test]
    fn bytes_per_state_needs_a_stored_state() {
        let m = |peak_stored, peak_bytes| Memory {
            peak_stored,
            peak_bytes,
            ..Memory::default()
        };
        assert_eq!(m(0, 0).bytes_per_state(), None);
        assert_eq!(m(1, 40).bytes_per_state(), Some(40.0));
        assert_eq!(m(4, 90).bytes_per_state(), Some(22.5));
    }

    #[test]
    fn sizes_parse_in_binary_units() {
        assert_eq!(parse_byte_size("512M"), Ok(512 << 20));
        assert_eq!(parse_byte_size("4G"), Ok(4 << 30));
        assert_eq!(parse_byte_size(" 64mib "), Ok(64 << 20));
        assert_eq!(parse_byte_size("2000000"), Ok(2_000_000));
        // A bare number too small for any search is a forgotten unit; with B it is bytes.
        assert_eq!(
            parse_byte_size("256"),
            Err(ByteSizeError::NoUnit("256".into()))
        );
        assert_eq!(parse_byte_size("256B"), Ok(256));
        assert_eq!(parse_byte_size("3 KB"), Ok(3072));
        assert_eq!(parse_byte_size("2T"), Ok(2 << 40));
        assert_eq!(parse_byte_size(""), Err(ByteSizeError::Empty));
        assert!(matches!(
            parse_byte_size("M"),
            Err(ByteSizeError::NotANumber(_))
        ));
        assert!(matches!(
            parse_byte_size("1.5G"),
            Err(ByteSizeError::UnknownUnit { .. })
        ));
        assert!(matches!(
            parse_byte_size("12Q"),
            Err(ByteSizeError::UnknownUnit { .. })
        ));
        assert!(matches!(
            parse_byte_size("99999999999T"),
            Err(ByteSizeError::TooLarge(_))
        ));
        assert!(matches!(
            parse_byte_size("99999999999999999999999"),
            Err(ByteSizeError::TooLarge(_))
        ));
        assert!(matches!(parse_byte_size("0M"), Err(ByteSizeError::Zero(_))));
        // Each unit from its first value, and the largest of the one below.
        for (b, text) in [
            (100, "100 B"),
            (1023, "1023 B"),
            (1024, "1.0 KiB"),
            (1536, "1.5 KiB"),
            (64 << 20, "64.0 MiB"),
            (0x4000_0000 - 1, "1024.0 MiB"),
            (3 << 30, "3.00 GiB"),
        ] {
            assert_eq!(Bytes(b).to_string(), text, "{b}");
        }
    }

    #[test]
    fn the_budget_refuses_growth_that_would_pass_the_limit() {
        let mut b = Budget::new(Some(100));
        assert!(b.replace(0, 40));
        // Doubling 40 → 80 holds 120 bytes while copying: refused, nothing charged.
        assert!(!b.replace(40, 80));
        assert_eq!(b.held(), 40);
        assert!(b.replace(0, 20));
        assert_eq!((b.held(), b.peak()), (60, 60));
        // The limit itself may be held (`--memory-limit` is the most a search holds), by either
        // way of charging; one byte more may not.
        assert!(b.replace(0, 40));
        assert_eq!((b.held(), b.peak()), (100, 100));
        assert!(!b.replace(0, 1) && !b.free_then_take(0, 1));
        assert!(b.free_then_take(50, 50));
        assert_eq!((b.held(), b.peak()), (100, 100));
        assert!(b.replace(100, 0) && b.free_then_take(0, 100));
        let mut v: Vec<u32> = Vec::new();
        let mut b = Budget::new(Some(100));
        for i in 0..16 {
            assert!(make_room(&mut v, 4, &mut b));
            v.push(i);
        }
        // 16 elements = 64 bytes; the next doubling would hold 64 + 128 bytes.
        assert!(!make_room(&mut v, 4, &mut b));
        assert_eq!((b.held(), v.capacity()), (64, 16));
        // The last doubling held 32 + 64 bytes while copying.
        assert_eq!(b.peak(), 96);
    }
}
