//! The expected cost of an experiment before it runs (`tilebench plan`): nodes per pair, wall
//! time at a measured speed, and the shape of a Slurm submission.
//!
//! - Nodes: a published count for the pair where the instance set has one for its heuristic
//!   (`crate::analysis::per_instance`, e.g. Korf & Felner's 6-6-6-6 column), else the
//!   conditional-distribution prediction for the instance's own start, summed over the
//!   iterations from h(start) to the optimal length, the last at half
//!   ([`Conditional::ida_nodes`]), else unknown. (KRE's prediction, a mean over random boards,
//!   came out 100–250 times too high per instance on Korf's 100: docs/heuristics-and-prediction.md.)
//! - Time: nodes ÷ nodes per second, a figure per heuristic measured by the caller (a short
//!   calibration search, or the median of earlier results); on N cores the pairs are placed
//!   longest first on the least loaded core ([`makespan`]).
//! - Slurm: tasks = shards, dealt exactly as `run --shard` deals them; per task the time of its
//!   pairs on its CPUs with a margin, and the memory of every table the task loads.

use std::collections::HashMap;
use std::fmt;
use std::time::Duration;

use crate::analysis::median;
use crate::analysis::per_instance::published_column;
use crate::board::{Board, Goal};
use crate::heuristic::Prepared;
use crate::predict::{Conditional, PredictError};
use crate::results::meta::Shard;
use crate::results::{RunKey, RunRecord};
use crate::search::{Algorithm, Limits, Pruning, SearchError, SearchOptions, SearchResult};

use super::plan::{Experiment, Pair};

/// Where a pair's expected node count comes from.
#[derive(Debug, Clone, PartialEq)]
pub enum Source {
    /// A published per-instance count (the authors, as the report names them).
    Published(&'static str),
    /// The conditional-distribution prediction for this instance's start
    /// ([`Conditional`], sampled for the heuristic).
    Predicted,
    /// This instance's own short search (`plan --extrapolate`), its last complete iterations'
    /// growth carried on to the optimal length ([`extrapolate`]); solved within it: its count.
    Extrapolated,
    /// Neither: no published count, and not an IDA* pair with an optimal length to predict to.
    Unknown,
}

impl fmt::Display for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Source::Published(who) => write!(f, "published ({who})"),
            Source::Predicted => f.write_str("predicted (conditional distributions)"),
            Source::Extrapolated => f.write_str("extrapolated from its own short search"),
            Source::Unknown => f.write_str(
                "unknown (no published count; the prediction is for IDA* only, to a known optimal \
                 length)",
            ),
        }
    }
}

/// One pair's expected cost.
#[derive(Debug, Clone, PartialEq)]
pub struct PairCost {
    pub pair: Pair,
    pub key: RunKey,
    pub nodes: Option<f64>,
    pub source: Source,
    /// `nodes` at the heuristic's speed, on one core.
    pub seconds: Option<f64>,
}

/// The wall time of jobs of `seconds` each on `cores` cores, placed longest first on the least
/// loaded core (within 4/3 of the best placement; never below the longest job or the total
/// divided by the cores).
pub fn makespan(seconds: &[f64], cores: usize) -> f64 {
    let mut jobs: Vec<f64> = seconds.to_vec();
    jobs.sort_by(|a, b| b.total_cmp(a));
    let mut load = vec![0.0f64; cores.max(1)];
    for j in jobs {
        let least = load
            .iter_mut()
            .min_by(|a, b| a.total_cmp(b))
            .expect("at least one core");
        *least += j;
    }
    load.into_iter().fold(0.0, f64::max)
}

/// How to submit the experiment to a cluster.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct SlurmShape {
    /// Array tasks (= shards).
    pub tasks: usize,
    pub cpus_per_task: usize,
    /// The longest task's expected seconds, and `--time` with the margin.
    pub longest_task_seconds: f64,
    pub time: String,
    /// `--mem`: the tables of every heuristic plus a margin, in whole GiB.
    pub mem: String,
    /// Submissions needed when the cluster caps a task's time (each continues from the
    /// checkpoints of the one before); 1 without a cap.
    pub submissions: usize,
}

/// Margin on a task's expected time: the estimates are a factor, not a percentage, off.
pub(crate) const TIME_MARGIN: f64 = 1.5;
/// Added to every task's time: loading tables, startup.
pub(crate) const TIME_FLOOR_SECONDS: f64 = 300.0;
/// Added to the tables' bytes for the process itself.
pub(crate) const MEM_MARGIN_BYTES: u64 = 512 << 20;

/// The Slurm shape for `costs` (in the experiment's pair order) on a cluster of `cluster_cores`
/// cores, `cpus_per_task` each, tables of `table_bytes` in all, a task time capped at
/// `max_task_seconds` if the cluster has a cap. Pairs of unknown cost count nothing.
pub(crate) fn slurm_shape(
    costs: &[PairCost],
    cluster_cores: usize,
    cpus_per_task: usize,
    table_bytes: u64,
    max_task_seconds: Option<f64>,
) -> SlurmShape {
    let cpus = cpus_per_task.max(1);
    let tasks = (cluster_cores / cpus).clamp(1, costs.len().max(1));
    let pairs: Vec<Pair> = costs.iter().map(|c| c.pair).collect();
    let dealt = Shard::assign(&pairs, tasks);
    let longest = (0..tasks)
        .map(|t| {
            let mine: Vec<f64> = costs
                .iter()
                .zip(&dealt)
                .filter(|(_, &s)| s == t)
                .filter_map(|(c, _)| c.seconds)
                .collect();
            makespan(&mine, cpus)
        })
        .fold(0.0, f64::max);
    let wanted = longest * TIME_MARGIN + TIME_FLOOR_SECONDS;
    let (time, submissions) = match max_task_seconds {
        Some(cap) if wanted > cap => (cap, (wanted / cap).ceil() as usize),
        _ => (wanted, 1),
    };
    let gib = (table_bytes + MEM_MARGIN_BYTES).div_ceil(1 << 30);
    SlurmShape {
        tasks,
        cpus_per_task: cpus,
        longest_task_seconds: longest,
        time: slurm_time(time),
        mem: format!("{gib}G"),
        submissions,
    }
}

/// Seconds as Slurm's `D-HH:MM:SS`, rounded up to the minute.
pub(crate) fn slurm_time(seconds: f64) -> String {
    let minutes = (seconds / 60.0).ceil().max(1.0) as u64;
    let (d, h, m) = (minutes / 1440, minutes / 60 % 24, minutes % 60);
    format!("{d}-{h:02}:{m:02}:00")
}

/// Seconds in words for a person: "42 s", "3.5 min", "7.2 h", "10.6 days"; under 10 s with
/// two significant digits ("0.078 s", "3.4 s"), under a millisecond "< 1 ms": rounded to whole
/// seconds, a pair of a tenth of a second read "0 s", as if it cost nothing.
pub(crate) fn human_seconds(s: f64) -> String {
    if s <= 0.0 {
        "0 s".to_string()
    } else if s < 1e-3 {
        "< 1 ms".to_string()
    } else if s < 10.0 {
        format!("{} s", significant(s, 2))
    } else if s < 120.0 {
        format!("{s:.0} s")
    } else if s < 7200.0 {
        format!("{:.1} min", s / 60.0)
    } else if s < 172_800.0 {
        format!("{:.1} h", s / 3600.0)
    } else {
        format!("{:.1} days", s / 86_400.0)
    }
}

/// `v` (> 0) with `digits` significant digits, in plain decimals: 0.078, 3.4, 42.
fn significant(v: f64, digits: i32) -> String {
    let magnitude = v.log10().floor() as i32;
    let decimals = (digits - 1 - magnitude).max(0) as usize;
    format!("{v:.decimals$}")
}

/// A pair's expected seconds in `plan --per-pair`'s column: three significant digits (a number
/// a script can read, and a pair of 0.02 s is not "0"), whole seconds from 100 s up, and
/// exponent notation below a microsecond.
pub fn seconds_column(s: f64) -> String {
    if s <= 0.0 {
        "0".to_string()
    } else if s < 1e-6 {
        format!("{s:.2e}")
    } else if s >= 100.0 {
        format!("{s:.0}")
    } else {
        significant(s, 3)
    }
}

/// The expected nodes and time of every pair of `exp`: `prepared(h, goal)` gives heuristic
/// `h` (an index into `exp.heuristics`) for a goal, `speed(name)` a heuristic's nodes per
/// second on one core. Predictions are sampled once per heuristic and instance set with
/// `samples` random boards. Only IDA* pairs are estimated (A*, breadth-first search and outside solvers
/// come out unknown).
///
/// ```
/// use tilebench::experiment::{cost::estimate, cost::Source, Request};
/// use tilebench::heuristic::Prepared;
///
/// let tmp = tempfile::tempdir().unwrap();
/// let file = tmp.path().join("two.txt");
/// std::fs::write(
///     &file,
///     "# tilebench-instances v1\n# size: 3x3\n# goal: blank-last\n\
///      id\toptimal_length\ttiles\na\t2\t1 2 3 4 0 5 7 8 6\nb\t31\t8 6 7 2 5 4 3 0 1\n",
/// )
/// .unwrap();
/// let request = Request {
///     instances: vec![file.display().to_string()],
///     heuristics: vec!["manhattan".into()],
///     ..Request::default()
/// };
/// let exp = request.read().unwrap().exp;
/// let goal = &exp.sets[0].1.goal;
/// let md = Prepared::new(&"manhattan".parse().unwrap(), goal, &Default::default()).unwrap();
/// // Manhattan distance, at a million nodes per second.
/// let costs = estimate(&exp, &|_, _| Some(&md), &|_| Some(1e6), 10_000).unwrap();
/// assert!(costs.iter().all(|c| c.source == Source::Predicted));
/// let (near, far) = (costs[0].nodes.unwrap(), costs[1].nodes.unwrap());
/// assert!(near < 10.0 && far > 1000.0, "{near} {far}");
/// assert_eq!(costs[1].seconds, Some(far / 1e6));
/// ```
pub fn estimate<'p>(
    exp: &Experiment,
    prepared: &dyn Fn(usize, &Goal) -> Option<&'p Prepared>,
    speed: &dyn Fn(&str) -> Option<f64>,
    samples: u64,
) -> Result<Vec<PairCost>, PredictError> {
    let mut conditional: HashMap<(usize, usize), Conditional> = HashMap::new();
    let mut costs = Vec::new();
    for pair in exp.pairs() {
        let key = exp.key(&pair);
        let (_, set) = &exp.sets[pair.set];
        let instance = &set.instances[pair.instance];
        let mut estimate = (None, Source::Unknown);
        if let (true, Some(hi)) = (pair.is_ida(), pair.heuristic()) {
            let name = exp.heuristics[hi].to_string();
            let published = published_column(&set.name, &name)
                .and_then(|c| Some((c.counts().get(instance.id.as_str()).copied()?, c.authors)));
            let h = prepared(hi, &set.goal);
            if let Some((n, who)) = published {
                estimate = (Some(n as f64), Source::Published(who));
            } else if let (Some(optimal), Some(h)) = (instance.optimal, h) {
                if samples == 0 {
                    return Err(PredictError::NoSamples);
                }
                let cdp = conditional.entry((hi, pair.set)).or_insert_with(|| {
                    Conditional::sample(&|b| h.evaluate(b), &set.goal, samples, 1)
                });
                let h0 = h.evaluate(&instance.board);
                // A search generates at least the path it finds, whatever the sampling says.
                let nodes = cdp.ida_nodes(&instance.board, h0, optimal.min(255));
                estimate = (Some(nodes.max(f64::from(optimal))), Source::Predicted);
            }
        }
        let (nodes, source) = estimate;
        let seconds = match (nodes, &exp.heuristic(&pair)) {
            (Some(n), Some(h)) => time(speed, &h.to_string(), n),
            _ => None,
        };
        costs.push(PairCost {
            pair,
            key,
            nodes,
            source,
            seconds,
        });
    }
    Ok(costs)
}

/// Caps each pair's expected seconds at the experiment's time limit, where one is set (a pair
/// expected to need longer stops there, `time-limit`); returns how many were capped.
pub(crate) fn cap_at_time_limit(costs: &mut [PairCost], limit: Option<Duration>) -> usize {
    let Some(limit) = limit.map(|d| d.as_secs_f64()) else {
        return 0;
    };
    let mut capped = 0;
    for s in costs.iter_mut().filter_map(|c| c.seconds.as_mut()) {
        if *s > limit {
            *s = limit;
            capped += 1;
        }
    }
    capped
}

/// Seconds of `nodes` at heuristic `name`'s speed; none without a (positive) speed.
fn time(speed: &dyn Fn(&str) -> Option<f64>, name: &str, nodes: f64) -> Option<f64> {
    speed(name).filter(|s| *s > 0.0).map(|s| nodes / s)
}

/// IDA* with `h` on `board` on one core, stopped after `seconds` (or solved before).
fn short_search(
    h: &Prepared,
    board: &Board,
    goal: &Goal,
    seconds: f64,
    pruning: Pruning,
) -> Result<SearchResult, SearchError> {
    let options = SearchOptions {
        limits: Limits {
            time_limit: Some(Duration::from_secs_f64(seconds.max(0.01))),
            ..Limits::none()
        },
        pruning,
        ..SearchOptions::default()
    };
    Ok(crate::search::solve(Some(h), board, goal, &options)?.result)
}

/// Nodes per second of `h` on one core, from a search of `board` stopped after `seconds`
/// (or solved before): the short calibration search.
pub fn calibrate(
    h: &Prepared,
    board: &Board,
    goal: &Goal,
    seconds: f64,
    pruning: Pruning,
) -> Result<f64, SearchError> {
    let r = short_search(h, board, goal, seconds, pruning)?;
    Ok(r.generated() as f64 / r.seconds.max(1e-9))
}

/// The nodes IDA* will generate to reach `optimal`, from a search `r` of the same instance cut
/// short: its complete iterations as they are, and from the last complete one on, each
/// iteration the growth r = (last / the one before) times its predecessor, to the bound
/// `optimal` (counted in full: an overestimate of up to about half the last iteration). The
/// heuristic branching factor settles within a few iterations, so this follows the instance
/// more closely than a prediction from sampled boards. `r` solved: its own count. `None` with
/// fewer than two complete iterations, or a bound past `optimal` (a wrong optimal length).
pub fn extrapolate(r: &SearchResult, optimal: u32) -> Option<f64> {
    if r.status == crate::search::RunStatus::Solved {
        return Some(r.generated() as f64);
    }
    let complete = &r.iterations[..r.iterations.len().saturating_sub(1)];
    let [.., before, last] = complete else {
        return None;
    };
    if last.bound > optimal || before.generated == 0 {
        return None;
    }
    let growth = last.generated as f64 / before.generated as f64;
    let step = last.bound - before.bound;
    let done: f64 = complete.iter().map(|i| i.generated as f64).sum();
    let (mut total, mut iteration, mut bound) = (done, last.generated as f64, last.bound);
    while bound + step <= optimal && step > 0 {
        (iteration, bound) = (iteration * growth, bound + step);
        total += iteration;
    }
    Some(total)
}

/// Replaces each predicted estimate of `costs` by [`extrapolate`] from a short search of its
/// own instance (`seconds` each, on one core, with `pruning`), and recomputes its time at
/// `speed(name)` nodes per second. Pairs it cannot extrapolate keep their prediction.
pub(crate) fn extrapolate_costs<'p>(
    exp: &Experiment,
    prepared: &dyn Fn(usize, &Goal) -> Option<&'p Prepared>,
    speed: &dyn Fn(&str) -> Option<f64>,
    costs: &mut [PairCost],
    seconds: f64,
    pruning: Pruning,
) -> Result<(), SearchError> {
    for c in costs.iter_mut().filter(|c| c.source == Source::Predicted) {
        let (_, set) = &exp.sets[c.pair.set];
        let instance = &set.instances[c.pair.instance];
        let (Some(hi), Some(optimal)) = (c.pair.heuristic(), instance.optimal) else {
            continue;
        };
        let Some(h) = prepared(hi, &set.goal) else {
            continue;
        };
        let r = short_search(h, &instance.board, &set.goal, seconds, pruning)?;
        if let Some(n) = extrapolate(&r, optimal) {
            c.nodes = Some(n);
            c.source = Source::Extrapolated;
            c.seconds = time(speed, &exp.heuristics[hi].to_string(), n);
        }
    }
    Ok(())
}

/// Each heuristic's median nodes per second *per search thread* over the IDA* rows of earlier
/// results that ran at least a second (shorter ones are mostly table loading and noise): a row
/// searched on k threads counts its speed ÷ k, the speed of one core when each thread had one
/// (a 24-puzzle campaign's rows are all on two threads), slightly low where k threads gained
/// less than k×.
pub(crate) fn stored_speeds(runs: &[RunRecord]) -> HashMap<String, f64> {
    let mut by: HashMap<String, Vec<f64>> = HashMap::new();
    for r in runs {
        if r.algorithm == Algorithm::Ida && r.seconds >= 1.0 {
            if let Some(v) = r.nodes_per_second.filter(|v| *v > 0.0) {
                let per_thread = v / f64::from(r.search_threads.max(1));
                by.entry(r.heuristic.clone()).or_default().push(per_thread);
            }
        }
    }
    by.into_iter().map(|(h, v)| (h, median(&v))).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// By hand: complete iterations of 10, 70 and 490 nodes (growth 7 per step of 2), the
    /// fourth cut short; to the optimal 18: 570 + 490·7 + 490·7² = 28,010.
    #[test]
    fn extrapolation_carries_the_last_growth_to_the_optimal_length() {
        let it = |bound, generated| crate::search::Iteration {
            bound,
            expanded: generated / 2,
            generated,
            seconds: 0.0,
        };
        let mut r = SearchResult {
            status: crate::search::RunStatus::TimeLimit,
            moves: Vec::new(),
            h0: 10,
            iterations: vec![it(10, 10), it(12, 70), it(14, 490), it(16, 100)],
            seconds: 1.0,
        };
        assert_eq!(extrapolate(&r, 18), Some(28_010.0));
        // The bound of the cut iteration: the complete ones and one step.
        assert_eq!(extrapolate(&r, 16), Some(570.0 + 3430.0));
        // A bound already past the optimal length: that length is wrong.
        assert_eq!(extrapolate(&r, 12), None);
        // One complete iteration gives no growth.
        r.iterations.drain(..2);
        assert_eq!(extrapolate(&r, 18), None);
        // Solved within the search: its own count.
        r.status = crate::search::RunStatus::Solved;
        assert_eq!(extrapolate(&r, 18), Some(590.0));
    }

    #[test]
    fn makespan_places_longest_first() {
        assert_eq!(makespan(&[3.0, 3.0, 2.0, 2.0, 2.0], 2), 7.0);
        assert_eq!(makespan(&[5.0, 1.0, 1.0], 4), 5.0);
        assert_eq!(makespan(&[1.0, 1.0, 1.0, 1.0], 1), 4.0);
        assert_eq!(makespan(&[], 3), 0.0);
    }

    fn cost(instance: usize, seconds: Option<f64>) -> PairCost {
        PairCost {
            pair: Pair {
                set: 0,
                instance,
                by: super::super::plan::By::Builtin {
                    algorithm: Algorithm::Ida,
                    heuristic: Some(0),
                },
            },
            key: RunKey::new("s", &instance.to_string(), "h"),
            nodes: seconds.map(|s| s * 1e7),
            source: Source::Predicted,
            seconds,
        }
    }

    #[test]
    fn a_time_limit_caps_the_pairs_expected_past_it() {
        let mut costs = vec![cost(1, Some(5.0)), cost(2, Some(500.0)), cost(3, None)];
        assert_eq!(cap_at_time_limit(&mut costs, None), 0);
        assert_eq!(costs[1].seconds, Some(500.0));
        let limit = Some(Duration::from_secs(60));
        assert_eq!(cap_at_time_limit(&mut costs, limit), 1);
        let seconds: Vec<Option<f64>> = costs.iter().map(|c| c.seconds).collect();
        assert_eq!(seconds, [Some(5.0), Some(60.0), None]);
        // The nodes stay what the pair would need: the report of a plan says which stop.
        assert_eq!(costs[1].nodes, Some(5e9));
    }

    #[test]
    fn slurm_shape_follows_the_shards_and_the_cap() {
        // Four pairs of 1 h, 1 h, 2 h, 10 h on 4 one-CPU tasks: the 10 h pair rules.
        let costs = vec![
            cost(0, Some(3600.0)),
            cost(1, Some(3600.0)),
            cost(2, Some(7200.0)),
            cost(3, Some(36_000.0)),
            cost(4, None),
        ];
        let s = slurm_shape(&costs, 4, 1, 3 << 30, None);
        assert_eq!(s.tasks, 4);
        assert_eq!(s.longest_task_seconds, 36_000.0);
        // 36000 × 1.5 + 300 s = 54300 s = 905 min = 15 h 05 min.
        assert_eq!(s.time, "0-15:05:00");
        assert_eq!(s.mem, "4G");
        assert_eq!(s.submissions, 1);
        // Two tasks of 2 CPUs: shard 0 gets pairs 0, 2, 4 (3600 + 7200 on two CPUs: 7200 s),
        // shard 1 pairs 1 and 3 (36000 s).
        let s = slurm_shape(&costs, 4, 2, 0, Some(24.0 * 3600.0));
        assert_eq!(s.tasks, 2);
        assert_eq!(s.longest_task_seconds, 36_000.0);
        // Under a 4 h cap: 54300 s takes 4 submissions of 4 h.
        let s = slurm_shape(&costs, 4, 2, 0, Some(4.0 * 3600.0));
        assert_eq!(s.time, "0-04:00:00");
        assert_eq!(s.submissions, 4);
        // More cores than pairs: one task per pair.
        assert_eq!(slurm_shape(&costs, 100, 1, 0, None).tasks, 5);
    }

    #[test]
    fn times_read_as_slurm_and_as_words() {
        assert_eq!(slurm_time(1.0), "0-00:01:00");
        assert_eq!(slurm_time(90_061.0), "1-01:02:00");
        assert_eq!(human_seconds(42.0), "42 s");
        assert_eq!(human_seconds(916_000.0), "10.6 days");
    }

    /// A pair expected to take under a second is not "0": its figure keeps its digits.
    #[test]
    fn times_under_a_second_are_not_zero() {
        assert_eq!(human_seconds(0.0784), "0.078 s");
        assert_eq!(human_seconds(0.4), "0.40 s");
        assert_eq!(human_seconds(3.44), "3.4 s");
        assert_eq!(human_seconds(0.0004), "< 1 ms");
        assert_eq!(human_seconds(0.0), "0 s");
        assert_eq!(seconds_column(0.0784), "0.0784");
        assert_eq!(seconds_column(0.4), "0.400");
        assert_eq!(seconds_column(1.4163), "1.42");
        assert_eq!(seconds_column(42.0), "42.0");
        assert_eq!(seconds_column(1234.4), "1234");
        assert_eq!(seconds_column(2e-8), "2.00e-8");
        assert_eq!(seconds_column(0.0), "0");
    }

    #[test]
    fn stored_speeds_are_per_search_thread_over_searches_of_a_second() {
        let row = |h: &str, seconds: f64, nps: f64, threads: u32| RunRecord {
            algorithm: Algorithm::Ida.into(),
            heuristic: h.into(),
            seconds,
            nodes_per_second: Some(nps),
            search_threads: threads,
            ..RunRecord::default()
        };
        let runs = [
            row("pdb-6666r", 100.0, 4.0e6, 2),
            row("pdb-6666r", 100.0, 3.0e6, 1),
            row("pdb-6666r", 100.0, 2.6e6, 1),
            row("pdb-6666r", 0.5, 9.0e9, 1), // under a second: left out
            row("manhattan", 10.0, 5.0e7, 0), // 0 read from an old file: one thread
        ];
        let s = stored_speeds(&runs);
        // 4e6 on two threads is 2e6 a thread: the median of 2e6, 2.6e6, 3e6.
        assert_eq!(s["pdb-6666r"], 2.6e6);
        assert_eq!(s["manhattan"], 5.0e7);
        assert_eq!(s.len(), 2);
    }
}
