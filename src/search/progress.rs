//! Progress of long A* and breadth-first searches, for someone waiting at a terminal: both can
//! fill gigabytes in seconds, and until now said nothing until they stopped. A program installs
//! one reporter ([`report_every`]); searches then hand it their figures every so often, from the
//! check they already make of their limits (so a search without a reporter pays nothing more).

use std::sync::OnceLock;
use std::time::{Duration, Instant};

use super::result::Algorithm;

/// Where a storing search is, at one moment.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Progress {
    pub algorithm: Algorithm,
    /// Breadth-first search: the depth being generated; A*: the f being expanded.
    pub level: u32,
    pub expanded: u64,
    pub generated: u64,
    /// States held (open + closed list, or frontier + visited set).
    pub stored: u64,
    /// Bytes the search's structures hold now.
    pub bytes: u64,
    pub seconds: f64,
}

type Reporter = Box<dyn Fn(&Progress) + Send + Sync>;

static REPORTER: OnceLock<(Duration, Reporter)> = OnceLock::new();

/// Has every A* and breadth-first search of this process call `reporter` about every `every`
/// (at the first look at its limits after that). One reporter per process: false, and nothing
/// changed, when one is installed already.
pub fn report_every(every: Duration, reporter: impl Fn(&Progress) + Send + Sync + 'static) -> bool {
    REPORTER.set((every, Box::new(reporter))).is_ok()
}

/// When a search next reports: none without a reporter.
pub(crate) fn first_report(started: Instant) -> Option<Instant> {
    REPORTER.get().map(|(every, _)| started + *every)
}

/// Hands `progress` to the reporter and returns when to report next.
pub(crate) fn report(progress: &Progress) -> Option<Instant> {
    let (every, reporter) = REPORTER.get()?;
    reporter(progress);
    Some(Instant::now() + *every)
}

#[cfg(test)]
mod tests {
    use std::sync::Mutex;

    use super::*;
    use crate::board::{Board, Goal};
    use crate::search::Limits;

    /// With a reporter due at every look at the limits, a breadth-first search of the hardest
    /// 8-puzzle board (about 300,000 nodes, so some 18 looks) reports growing figures.
    #[test]
    fn a_long_search_reports_its_progress() {
        static SEEN: Mutex<Vec<Progress>> = Mutex::new(Vec::new());
        assert!(report_every(Duration::ZERO, |p| SEEN
            .lock()
            .unwrap()
            .push(*p)));
        assert!(
            !report_every(Duration::ZERO, |_| {}),
            "one reporter per process"
        );
        let board = Board::parse("8 6 7 2 5 4 3 0 1", None).unwrap();
        let goal = Goal::parse("blank-last", board.size()).unwrap();
        crate::search::bfs::bfs(&board, &goal, &Limits::none()).unwrap();
        let seen: Vec<Progress> = SEEN
            .lock()
            .unwrap()
            .iter()
            .filter(|p| p.algorithm == Algorithm::Bfs)
            .copied()
            .collect();
        assert!(seen.len() >= 5, "{seen:?}");
        for w in seen.windows(2) {
            assert!(w[1].generated > w[0].generated && w[1].stored >= w[0].stored);
            assert!(w[1].level >= w[0].level && w[1].bytes >= w[0].bytes);
        }
        assert!(seen
            .iter()
            .all(|p| p.stored > 0 && p.bytes > p.stored && p.level <= 31));
    }
}
