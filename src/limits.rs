//! The numeric options users give (search limits, thread and task counts, sizes of generated
//! sets), parsed in one place for every command: a value the tool cannot honour is refused with
//! what is allowed, instead of a panic later (`Duration::from_secs_f64(1e20)`) or a silently
//! useless run (`--node-limit 0`). Each parser fits clap's `value_parser`, which names the option
//! and exits with status 2.

use std::time::Duration;

use thiserror::Error;

/// The longest time limit: a year. Beyond it a limit means nothing on any machine (and 1e20 s
/// does not fit a `Duration`).
pub(crate) const MAX_TIME_LIMIT_SECONDS: f64 = 366.0 * 24.0 * 3600.0;
/// The most threads one process may ask for.
pub const MAX_JOBS: usize = 1024;
/// The most shards (Slurm array tasks) of one experiment.
pub const MAX_SHARDS: usize = 100_000;
/// The most boards `gen` writes into one file.
pub const MAX_COUNT: usize = 10_000_000;
/// The longest random walk `gen --walk` takes.
pub const MAX_WALK: u32 = 1_000_000_000;

/// Why a numeric option was refused.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum LimitError {
    #[error("{0:?} is not a number")]
    NotANumber(String),
    #[error("{value} is out of range: {allowed}")]
    OutOfRange { value: String, allowed: String },
}

fn out_of_range(value: &str, allowed: String) -> LimitError {
    LimitError::OutOfRange {
        value: value.trim().to_string(),
        allowed,
    }
}

/// A whole number in `min..=max`, `what` naming the unit in the message.
fn whole<T>(s: &str, min: T, max: T, what: &str) -> Result<T, LimitError>
where
    T: std::str::FromStr + PartialOrd + std::fmt::Display + Copy,
{
    let t = s.trim();
    let allowed = || format!("give {what} from {min} to {max}");
    match t.parse::<T>() {
        Ok(v) if v >= min && v <= max => Ok(v),
        Ok(_) => Err(out_of_range(s, allowed())),
        // A number too large for the type, or negative, is out of range rather than not a
        // number.
        Err(_)
            if t.trim_start_matches('-')
                .bytes()
                .all(|b| b.is_ascii_digit())
                && !t.is_empty() =>
        {
            Err(out_of_range(s, allowed()))
        }
        Err(_) => Err(LimitError::NotANumber(t.to_string())),
    }
}

/// `--time-limit SECS`: a positive, finite number of seconds, at most a year.
pub fn time_limit(s: &str) -> Result<Duration, LimitError> {
    let t = s.trim();
    let secs: f64 = t
        .parse()
        .map_err(|_| LimitError::NotANumber(t.to_string()))?;
    time_limit_seconds(secs, s)
}

/// [`time_limit`] of a number already read (from a stored experiment, or a library caller);
/// `given` is the value as the user wrote it, for the message.
pub fn time_limit_seconds(secs: f64, given: &str) -> Result<Duration, LimitError> {
    let s = given;
    if !(secs > 0.0 && secs <= MAX_TIME_LIMIT_SECONDS) {
        return Err(out_of_range(
            s,
            format!("give seconds above 0 and at most {MAX_TIME_LIMIT_SECONDS} (a year)"),
        ));
    }
    // Below a nanosecond the limit would be zero: every pair stopped before it began.
    let d = Duration::from_secs_f64(secs);
    if d.is_zero() {
        return Err(out_of_range(s, "give at least 1e-9 seconds".into()));
    }
    Ok(d)
}

/// The shortest `--checkpoint-every`.
pub const MIN_CHECKPOINT_SECONDS: f64 = 0.01;

/// `--checkpoint-every SECS`: seconds from [`MIN_CHECKPOINT_SECONDS`] to a year.
pub fn checkpoint_every(s: &str) -> Result<Duration, LimitError> {
    let t = s.trim();
    let secs: f64 = t
        .parse()
        .map_err(|_| LimitError::NotANumber(t.to_string()))?;
    // Below 10 ms a search would do little but write its checkpoint; no checkpoint at all is
    // `--no-checkpoint`.
    if !(MIN_CHECKPOINT_SECONDS..=MAX_TIME_LIMIT_SECONDS).contains(&secs) {
        return Err(out_of_range(
            s,
            format!(
                "give seconds from {MIN_CHECKPOINT_SECONDS} to {MAX_TIME_LIMIT_SECONDS} (a year); \
                 --no-checkpoint writes none"
            ),
        ));
    }
    Ok(Duration::from_secs_f64(secs))
}

/// `--node-limit N`: at least 1 (0 would stop every search before its first node).
pub fn node_limit(s: &str) -> Result<u64, LimitError> {
    whole(s, 1, u64::MAX, "a node count")
}

/// `--jobs N` (threads): 1 to [`MAX_JOBS`]. The pool is then capped by [`pool_size`].
pub fn jobs(s: &str) -> Result<usize, LimitError> {
    whole(s, 1, MAX_JOBS, "a number of threads")
}

/// The threads worth starting for `jobs` requested and `pairs` to run: never more than the
/// pairs (extra threads would only idle), never 0.
pub fn pool_size(jobs: usize, pairs: usize) -> usize {
    jobs.min(pairs).max(1)
}

/// `--tasks N` (shards): 1 to [`MAX_SHARDS`].
pub fn shards(s: &str) -> Result<usize, LimitError> {
    whole(s, 1, MAX_SHARDS, "a number of shards")
}

/// `gen --count N`: 1 to [`MAX_COUNT`].
pub fn count(s: &str) -> Result<usize, LimitError> {
    whole(s, 1, MAX_COUNT, "a number of boards")
}

/// `gen --walk K`: 0 to [`MAX_WALK`] moves.
pub(crate) fn walk_length(s: &str) -> Result<u32, LimitError> {
    whole(s, 0, MAX_WALK, "a number of moves")
}

/// `--memory-limit` of `solve` and `run`: a size, or `none` for no limit at all.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MemoryLimit {
    Bytes(u64),
    Unlimited,
}

impl MemoryLimit {
    /// The limit in bytes, `None` for [`MemoryLimit::Unlimited`].
    pub fn bytes(self) -> Option<u64> {
        match self {
            MemoryLimit::Bytes(b) => Some(b),
            MemoryLimit::Unlimited => None,
        }
    }
}

/// Parses `--memory-limit`: `none` (any case), or a size as [`crate::search::parse_byte_size`]
/// reads it.
pub fn memory_limit(s: &str) -> Result<MemoryLimit, crate::search::ByteSizeError> {
    if s.trim().eq_ignore_ascii_case("none") {
        return Ok(MemoryLimit::Unlimited);
    }
    crate::search::parse_byte_size(s).map(MemoryLimit::Bytes)
}

/// The share of the machine's memory that A* and breadth-first search may fill by default: a
/// search that would take more stops with status memory-limit instead of making the machine
/// swap (breadth-first search fills gigabytes in seconds on a hard 15-puzzle).
pub const DEFAULT_MEMORY_FRACTION: f64 = 0.5;

/// Bytes of memory this process may use: the machine's physical memory, or its cgroup's limit
/// (a container, a Slurm job) when that is lower. `None` when neither can be read.
pub(crate) fn machine_memory() -> Option<u64> {
    use nix::unistd::{sysconf, SysconfVar};
    let read = |var| sysconf(var).ok().flatten().unwrap_or(-1);
    let (pages, size) = (read(SysconfVar::_PHYS_PAGES), read(SysconfVar::PAGE_SIZE));
    let physical = (pages > 0 && size > 0).then(|| pages as u64 * size as u64);
    let cgroup = std::fs::read_to_string("/sys/fs/cgroup/memory.max")
        .ok()
        .and_then(|t| t.trim().parse::<u64>().ok());
    match (physical, cgroup) {
        (Some(p), Some(c)) => Some(p.min(c)),
        (p, c) => p.or(c),
    }
}

/// The default memory limit of each of `searches` A* or breadth-first searches running at
/// once: [`DEFAULT_MEMORY_FRACTION`] of `machine` bytes, shared equally.
pub fn default_memory_limit(machine: u64, searches: usize) -> u64 {
    ((machine as f64 * DEFAULT_MEMORY_FRACTION) / searches.max(1) as f64) as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn memory_limits_take_none_or_a_size() {
        assert_eq!(memory_limit("none"), Ok(MemoryLimit::Unlimited));
        assert_eq!(memory_limit(" NONE "), Ok(MemoryLimit::Unlimited));
        assert_eq!(memory_limit("128M"), Ok(MemoryLimit::Bytes(128 << 20)));
        assert!(memory_limit("lots").is_err());
        assert_eq!(MemoryLimit::Unlimited.bytes(), None);
        assert_eq!(default_memory_limit(8 << 30, 1), 4 << 30);
        assert_eq!(default_memory_limit(8 << 30, 4), 1 << 30);
        assert_eq!(default_memory_limit(8 << 30, 0), 4 << 30);
        assert!(machine_memory().is_some_and(|m| m > 0));
    }

    #[test]
    fn time_limits() {
        assert_eq!(time_limit("2.5"), Ok(Duration::from_millis(2500)));
        assert_eq!(time_limit(" 60 "), Ok(Duration::from_secs(60)));
        for bad in ["0", "-1", "1e20", "inf", "NaN", "1e-12", "31622401"] {
            assert!(
                matches!(time_limit(bad), Err(LimitError::OutOfRange { .. })),
                "{bad}"
            );
        }
        assert_eq!(time_limit("ten"), Err(LimitError::NotANumber("ten".into())));
        assert!(time_limit("1e20")
            .unwrap_err()
            .to_string()
            .contains("at most 31622400"));
    }

    #[test]
    fn checkpoint_intervals_below_ten_milliseconds_are_refused() {
        assert_eq!(checkpoint_every("0.05"), Ok(Duration::from_millis(50)));
        for bad in ["0", "0.001", "-1", "NaN"] {
            let e = checkpoint_every(bad).unwrap_err();
            assert!(matches!(e, LimitError::OutOfRange { .. }), "{bad}");
        }
        assert!(checkpoint_every("0")
            .unwrap_err()
            .to_string()
            .contains("--no-checkpoint"));
    }

    #[test]
    fn counts() {
        assert_eq!(node_limit("1"), Ok(1));
        assert!(matches!(
            node_limit("0"),
            Err(LimitError::OutOfRange { .. })
        ));
        assert!(matches!(
            node_limit("-5"),
            Err(LimitError::OutOfRange { .. })
        ));
        assert!(matches!(
            node_limit("99999999999999999999999"),
            Err(LimitError::OutOfRange { .. })
        ));
        assert!(matches!(node_limit("1e6"), Err(LimitError::NotANumber(_))));
        assert_eq!(jobs("8"), Ok(8));
        assert!(jobs("10000").is_err() && jobs("0").is_err());
        assert_eq!(pool_size(10000, 3), 3);
        assert_eq!(pool_size(2, 0), 1);
        assert_eq!(pool_size(2, 40), 2);
        assert!(count("0").is_err() && count("10000001").is_err());
        assert_eq!(walk_length("0"), Ok(0));
        assert!(shards("0").is_err() && shards("100001").is_err());
    }
}
