//! Seeded random instance sets that come out byte for byte the same on every machine.
//!
//! The random stream is ChaCha8 (`rand_chacha` 0.3) seeded with `seed_from_u64(seed)`. Numbers
//! are drawn with our own rejection sampling from `next_u32`, never through `rand`'s
//! distributions (whose algorithms may change between versions), so a file depends only on the
//! ChaCha8 stream, which is fixed by its specification.
//!
//! - [`Sampling::Uniform`] (Korf-style): a Fisher–Yates shuffle of all tiles including the blank;
//!   when the result is unsolvable for the goal, the tiles in the first two non-blank cells are
//!   swapped, which flips the parity without moving the blank. That swap pairs every unsolvable
//!   board with exactly one solvable one, so the result is uniform over the solvable boards.
//! - [`Sampling::Walk`]: K moves of the blank from the goal, each chosen uniformly among the legal
//!   moves other than undoing the previous one. The optimal length is at most K (often less).
//! - [`Sampling::Depth`]: the same walk, stopped at the first board whose optimal length is L
//!   (IDA* with linear conflict after every move). Every move changes the optimal length by
//!   exactly one (the state graph is bipartite), and the walk starts at 0, so it reaches L
//!   without skipping it; the file records L as each board's `optimal_length`.

use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};

use crate::board::{Board, Goal, Size};
use crate::heuristic::LinearConflict;
use crate::moves::{step, Dir};
use crate::search::{RunStatus, SearchOptions};

use super::format_set;

/// How boards are drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sampling {
    Uniform,
    Walk(u32),
    /// A walk stopped at optimal length L.
    Depth(u32),
}

/// What to generate; also becomes the file's `# generator:` line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Spec {
    pub size: Size,
    pub goal: Goal,
    pub count: usize,
    pub seed: u64,
    pub sampling: Sampling,
}

impl Spec {
    /// The canonical command that regenerates the file (no output path: the content is the same
    /// wherever it is written).
    pub fn command(&self) -> String {
        let mut c = format!(
            "tilebench gen --size {} --count {} --seed {} --goal {}",
            self.size,
            self.count,
            self.seed,
            self.goal.name().replace(' ', ",")
        );
        match self.sampling {
            Sampling::Uniform => {}
            Sampling::Walk(k) => c.push_str(&format!(" --walk {k}")),
            Sampling::Depth(l) => c.push_str(&format!(" --optimal-length {l}")),
        }
        c
    }

    /// Refuses what can never be generated (an optimal length beyond the puzzle's diameter),
    /// which would otherwise walk forever.
    pub fn check(&self) -> Result<(), GenerateError> {
        match (self.sampling, diameter(self.size)) {
            (Sampling::Depth(length), Some(max)) if length > max => {
                Err(GenerateError::LengthUnreachable {
                    size: self.size,
                    length,
                    max,
                })
            }
            _ => Ok(()),
        }
    }
}

/// Uniform integers from a ChaCha8 stream, by rejection (no modulo bias, no `rand` dependency).
pub struct Draw {
    rng: ChaCha8Rng,
}

impl Draw {
    pub fn new(seed: u64) -> Draw {
        Draw {
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }

    /// Uniform in `0..n` (`n ≥ 1`): rejects the top `2^32 mod n` values of `next_u32`.
    pub fn below(&mut self, n: u32) -> u32 {
        assert!(n > 0, "below(0)");
        let n64 = n as u64;
        let zone = (1u64 << 32) - (1u64 << 32) % n64;
        loop {
            let x = self.rng.next_u32() as u64;
            if x < zone {
                return (x % n64) as u32;
            }
        }
    }
}

/// Why a spec cannot be generated.
#[derive(Debug, thiserror::Error)]
pub enum GenerateError {
    #[error(
        "no {size} board is more than {max} moves from any goal (the puzzle's diameter), so \
         --optimal-length {length} can never be reached; ask for at most {max}"
    )]
    LengthUnreachable { size: Size, length: u32, max: u32 },
}

/// The largest optimal length between any two boards of `size` (the puzzle's diameter, found by
/// complete breadth-first searches), so no board of any goal lies farther; None where unknown
/// (4×5, 5×5). Sources: 3×3 31 (Reinefeld 1993), 4×4 80 (Brüngger et al. 1999; Korf &
/// Schultze 2005), 3×4 53, 2×5 55 and 3×5 84 (Korf 2008, "Linear-time disk-based implicit graph
/// search", JACM 55(6)); 2×2, 2×3 and 2×4 are checked by breadth-first search in the tests.
pub fn diameter(size: Size) -> Option<u32> {
    let (w, h) = (size.width, size.height);
    Some(match (w.min(h), w.max(h)) {
        (2, 2) => 6,
        (2, 3) => 21,
        (2, 4) => 36,
        (3, 3) => 31,
        (2, 5) => 55,
        (3, 4) => 53,
        (3, 5) => 84,
        (4, 4) => 80,
        _ => return None,
    })
}

/// The boards of a spec, in order.
pub fn boards(spec: &Spec) -> Result<Vec<Board>, GenerateError> {
    spec.check()?;
    let mut draw = Draw::new(spec.seed);
    Ok((0..spec.count)
        .map(|_| match spec.sampling {
            Sampling::Uniform => uniform(&mut draw, &spec.goal),
            Sampling::Walk(k) => walk(&mut draw, &spec.goal, k),
            Sampling::Depth(l) => walk_to_depth(&mut draw, &spec.goal, l),
        })
        .collect())
}

/// Walks from the goal as [`walk`] does until the optimal length is `length` (see the module
/// documentation for why it is met exactly).
fn walk_to_depth(draw: &mut Draw, goal: &Goal, length: u32) -> Board {
    let h = LinearConflict::new(goal);
    let mut board = goal.as_board();
    let mut back: Option<Dir> = None;
    let mut distance = 0;
    while distance != length {
        let d = random_move(draw, &board, back);
        board.apply(d).expect("a legal move");
        back = Some(d.opposite());
        let options = SearchOptions::default();
        // The generic search below `search::solve` (which takes heuristics by name, a layer up).
        let r = crate::search::run(&board, goal, &h, &options)
            .expect("same size")
            .result;
        assert_eq!(
            r.status,
            RunStatus::Solved,
            "a walk from the goal is solvable"
        );
        distance = r.moves.len() as u32;
    }
    board
}

/// A move of the blank chosen uniformly among the legal ones other than `back`.
fn random_move(draw: &mut Draw, board: &Board, back: Option<Dir>) -> Dir {
    let (size, blank) = (board.size(), board.blank());
    let options: Vec<Dir> = (0..4)
        .map(Dir::from_index)
        .filter(|&d| Some(d) != back && step(size, blank, d).is_some())
        .collect();
    options[draw.below(options.len() as u32) as usize]
}

/// A board drawn uniformly from the solvable boards of `goal`'s size.
pub fn uniform(draw: &mut Draw, goal: &Goal) -> Board {
    let size = goal.size();
    let mut tiles: Vec<u8> = (0..size.cells() as u8).collect();
    for i in (1..tiles.len()).rev() {
        let j = draw.below(i as u32 + 1) as usize;
        tiles.swap(i, j);
    }
    let board = Board::from_tiles(size, &tiles).expect("a shuffle is a permutation");
    if board.is_solvable(goal).expect("same size") {
        return board;
    }
    let mut non_blank = (0..tiles.len()).filter(|&c| tiles[c] != 0);
    let (a, b) = (non_blank.next(), non_blank.next());
    tiles.swap(a.expect("≥ 3 cells"), b.expect("≥ 3 cells"));
    Board::from_tiles(size, &tiles).expect("a swap keeps a permutation")
}

fn walk(draw: &mut Draw, goal: &Goal, k: u32) -> Board {
    let mut board = goal.as_board();
    let mut back: Option<Dir> = None;
    for _ in 0..k {
        let d = random_move(draw, &board, back);
        board.apply(d).expect("a legal move");
        back = Some(d.opposite());
    }
    board
}

/// The whole instance file of a spec, ids `1..=count`.
///
/// ```
/// use std::path::Path;
/// use tilebench::board::{Goal, Size};
/// use tilebench::instances::generate::{file_text, Sampling, Spec};
/// use tilebench::instances::InstanceSet;
///
/// let size = Size::new(3, 3).unwrap();
/// let spec = Spec {
///     size,
///     goal: Goal::blank_last(size),
///     count: 3,
///     seed: 7,
///     sampling: Sampling::Depth(12), // boards exactly 12 moves from the goal
/// };
/// let text = file_text(&spec).unwrap();
/// assert_eq!(text, file_text(&spec).unwrap(), "the same seed, the same file");
/// let set = InstanceSet::parse(&text, Path::new("gen.txt"), "gen").unwrap();
/// assert_eq!(set.header_value("generator"), Some(spec.command().as_str()));
/// assert_eq!(set.instances.len(), 3);
/// assert!(set.instances.iter().all(|i| i.optimal == Some(12)));
/// ```
pub fn file_text(spec: &Spec) -> Result<String, GenerateError> {
    let header = vec![
        ("size".to_string(), spec.size.to_string()),
        ("goal".to_string(), spec.goal.name()),
        ("generator".to_string(), spec.command()),
        ("seed".to_string(), spec.seed.to_string()),
    ];
    let method = match spec.sampling {
        Sampling::Uniform => "uniform over solvable boards: Fisher-Yates shuffle from a ChaCha8 \
                           stream, parity fixed by swapping the tiles in the first two non-blank \
                           cells"
            .to_string(),
        Sampling::Walk(k) => format!(
            "random walk of {k} blank moves from the goal, no move undoing the previous one, \
             ChaCha8 stream (optimal length at most {k})"
        ),
        Sampling::Depth(l) => format!(
            "random walk of blank moves from the goal, no move undoing the previous one, \
             ChaCha8 stream, stopped at the first board whose optimal length (IDA* with linear \
             conflict after each move) is {l}"
        ),
    };
    let optimal = match spec.sampling {
        Sampling::Depth(l) => Some(l),
        _ => None,
    };
    let rows: Vec<_> = boards(spec)?
        .into_iter()
        .enumerate()
        .map(|(i, b)| ((i + 1).to_string(), optimal, b))
        .collect();
    Ok(format_set(&header, &[method], &rows))
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;
    use crate::board::join_tiles;
    use crate::heuristic::Prepared;
    use crate::instances::InstanceSet;
    use crate::search::solve;

    fn spec(sampling: Sampling, seed: u64) -> Spec {
        let size = Size::parse("4x4").unwrap();
        Spec {
            size,
            goal: Goal::blank_first(size),
            count: 50,
            seed,
            sampling,
        }
    }

    #[test]
    fn same_seed_same_file_other_seed_other_file() {
        let text = |m, seed| file_text(&spec(m, seed)).unwrap();
        let a = text(Sampling::Uniform, 42);
        assert_eq!(a, text(Sampling::Uniform, 42));
        assert_ne!(a, text(Sampling::Uniform, 43));
        let w = text(Sampling::Walk(30), 42);
        assert_eq!(w, text(Sampling::Walk(30), 42));
    }

    /// Depth-targeted walks land on their optimal length (checked by breadth-first search on the
    /// 8-puzzle, and by IDA* with Manhattan on the 15-puzzle) and are reproducible.
    #[test]
    fn depth_walks_have_the_optimal_length_asked_for() {
        use crate::heuristic::Manhattan;
        let size = Size::parse("3x3").unwrap();
        let goal = Goal::blank_last(size);
        for l in [0, 1, 7, 20] {
            let s = Spec {
                size,
                goal: goal.clone(),
                count: 3,
                seed: 9,
                sampling: Sampling::Depth(l),
            };
            for b in boards(&s).unwrap() {
                let bfs = SearchOptions {
                    algorithm: crate::search::Algorithm::Bfs,
                    ..SearchOptions::default()
                };
                let r = solve(None, &b, &goal, &bfs).unwrap();
                assert_eq!(r.result.length(), Some(l as usize));
            }
        }
        let s = spec(Sampling::Depth(30), 42);
        let s = Spec { count: 2, ..s };
        let text = file_text(&s).unwrap();
        assert_eq!(text, file_text(&s).unwrap());
        assert!(text.contains("--optimal-length 30"));
        let h = Prepared::of(Manhattan::new(&s.goal));
        for b in boards(&s).unwrap() {
            let r = solve(Some(&h), &b, &s.goal, &SearchOptions::default())
                .unwrap()
                .result;
            assert_eq!(r.length(), Some(30));
        }
    }

    /// Regression pin: the first boards of seed 42, computed once by this generator. If this
    /// fails, previously generated files can no longer be reproduced.
    #[test]
    fn first_boards_of_seed_42_are_pinned() {
        let uniform = boards(&spec(Sampling::Uniform, 42)).unwrap();
        let walk = boards(&spec(Sampling::Walk(30), 42)).unwrap();
        let got: Vec<String> = uniform[..3]
            .iter()
            .chain(&walk[..2])
            .map(|b| join_tiles(b.tiles()))
            .collect();
        assert_eq!(got, PINNED);
    }

    const PINNED: [&str; 5] = [
        "15 5 4 10 11 12 2 9 3 14 7 13 6 8 0 1",
        "8 0 7 12 4 5 9 11 15 1 10 14 2 6 3 13",
        "2 7 10 1 0 12 8 5 15 13 6 3 11 14 9 4",
        "4 2 6 3 9 1 10 7 0 5 8 14 15 12 13 11",
        "5 2 11 6 8 1 4 10 0 9 3 14 12 13 15 7",
    ];

    #[test]
    fn boards_are_solvable_and_walks_stay_near_the_goal() {
        for method in [Sampling::Uniform, Sampling::Walk(12)] {
            let s = spec(method, 7);
            for b in boards(&s).unwrap() {
                assert!(b.is_solvable(&s.goal).unwrap());
            }
        }
        // Each move changes the Manhattan sum by exactly one, so after K moves it is at most K.
        let s = spec(Sampling::Walk(12), 7);
        for b in boards(&s).unwrap() {
            let md: usize = b
                .tiles()
                .iter()
                .enumerate()
                .filter(|&(_, &t)| t != 0)
                .map(|(c, &t)| {
                    let g = s.goal.cell_of(t);
                    s.size.row(c).abs_diff(s.size.row(g)) + s.size.col(c).abs_diff(s.size.col(g))
                })
                .sum();
            assert!(md <= 12);
        }
    }

    #[test]
    fn uniform_draws_are_unbiased_on_a_small_board() {
        // 2x2 has 12 solvable boards for any goal; 12,000 draws should hit each about 1000 times.
        let size = Size::parse("2x2").unwrap();
        let s = Spec {
            size,
            goal: Goal::blank_last(size),
            count: 12_000,
            seed: 1,
            sampling: Sampling::Uniform,
        };
        let mut counts = std::collections::HashMap::new();
        for b in boards(&s).unwrap() {
            *counts.entry(b.tiles().to_vec()).or_insert(0u32) += 1;
        }
        assert_eq!(counts.len(), 12);
        for (tiles, c) in counts {
            assert!((850..1150).contains(&c), "{tiles:?}: {c}");
        }
    }

    #[test]
    fn generated_files_parse_with_their_header() {
        let s = spec(Sampling::Walk(20), 3);
        let set = InstanceSet::parse(&file_text(&s).unwrap(), Path::new("g.txt"), "g").unwrap();
        assert_eq!(set.instances.len(), 50);
        assert_eq!(set.header_value("seed"), Some("3"));
        assert_eq!(set.header_value("generator"), Some(s.command().as_str()));
        assert_eq!(set.goal, s.goal);
    }

    #[test]
    fn below_is_in_range() {
        let mut d = Draw::new(0);
        for n in [1, 2, 3, 7, 1000] {
            for _ in 0..100 {
                assert!(d.below(n) < n);
            }
        }
    }

    /// The diameters of the small boards, by complete breadth-first search from every goal with
    /// the blank in a corner (where the farthest boards lie) and in the middle: the eccentricity
    /// never exceeds the table and reaches it.
    #[test]
    fn diameters_of_small_boards_match_breadth_first_search() {
        for (w, h) in [(2, 2), (2, 3), (3, 2), (3, 3), (2, 4), (4, 2)] {
            let size = Size::new(w, h).unwrap();
            let max = diameter(size).unwrap();
            let mut farthest = Vec::new();
            for goal in [Goal::blank_last(size), Goal::blank_first(size)] {
                let ecc = crate::brute_force::depth_counts(&goal).len() as u32 - 1;
                assert!(ecc <= max, "{size}: {ecc} > {max}");
                farthest.push(ecc);
            }
            assert!(farthest.contains(&max), "{size}: {farthest:?}, table {max}");
        }
        let s = |l| Spec {
            count: 1,
            ..spec(Sampling::Depth(l), 1)
        };
        assert!(s(80).check().is_ok());
        let e = boards(&s(81)).unwrap_err().to_string();
        assert!(
            e.contains("4x4") && e.contains("80") && e.contains("81"),
            "{e}"
        );
    }
}
