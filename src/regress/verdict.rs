//! The verdict of a side-by-side measurement.
//!
//! - **Node counts** (generated, expanded) of every pair must be the same in every round and on
//!   both sides whenever the runs ended the same deterministic way: any difference fails,
//!   naming the pair. So do a lost solution (solved → anything else) and a changed length.
//! - **Time**, per pair: the median over rounds of head/base seconds of the same round, with a
//!   95 % bootstrap interval; per method and overall: the geometric mean of the ratios, with the
//!   t interval of the rounds' geometric means (the round is the unit of noise,
//!   [`super::stats`]). A method or the whole workload
//!   is **slower** only when its interval lies entirely above `1 + threshold`, **faster** only
//!   entirely below `1 − threshold`; otherwise **no change detected at ±x %**, x being the
//!   threshold plus the interval's half-width: the smallest change this measurement would have
//!   called. Only "slower" fails. Single pairs are shown, not judged (with 20 pairs one of them
//!   lies outside its 95 % interval by chance).
//! - **Instructions** (when counted): exact, so per pair the ratio, per method and overall the
//!   geometric mean, slower above `1 + instructions threshold`.

use std::collections::BTreeMap;
use std::fmt;

use serde::Serialize;

use super::stats::{self, Estimate, Paired};
use super::{InstructionRow, Pair, RoundRow, Side};
use crate::analysis::first_appearance;
use crate::results::RunStatus;

/// The thresholds of a verdict.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Options {
    /// Percent of time ratio that does not count as a change, beyond the interval.
    pub threshold_pct: f64,
    /// The same for instruction counts, which have no noise.
    pub instructions_threshold_pct: f64,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            threshold_pct: 3.0,
            instructions_threshold_pct: 1.0,
        }
    }
}

/// What a ratio says.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Judgement {
    Slower,
    Faster,
    NoChange,
    /// Nothing to judge (no pair timed on both sides).
    NotJudged,
}

impl fmt::Display for Judgement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Judgement::Slower => "slower",
            Judgement::Faster => "faster",
            Judgement::NoChange => "no change detected",
            Judgement::NotJudged => "not judged",
        })
    }
}

/// Judges an estimate against `threshold_pct`.
pub fn judge(e: &Estimate, threshold_pct: f64) -> Judgement {
    let t = threshold_pct / 100.0;
    if e.lo > 1.0 + t {
        Judgement::Slower
    } else if e.hi < 1.0 - t {
        Judgement::Faster
    } else {
        Judgement::NoChange
    }
}

/// One side's figures for a pair.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SideFigures {
    pub status: RunStatus,
    pub length: Option<u32>,
    pub generated: u64,
    pub expanded: u64,
    /// Median seconds over the rounds.
    pub median_seconds: f64,
    /// Search instructions, when counted.
    pub instructions: Option<u64>,
}

/// Everything about one pair.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PairResult {
    pub pair: Pair,
    pub base: SideFigures,
    pub head: SideFigures,
    /// Median of head/base over the rounds, with its interval; `None` when not timed (not
    /// solved in every round on both sides).
    pub time: Option<Estimate>,
    pub time_judgement: Judgement,
    pub instructions_ratio: Option<f64>,
    pub instructions_judgement: Judgement,
    pub nodes_changed: bool,
}

/// A method's, or the whole workload's, figures.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GroupResult {
    /// The method, or `overall`.
    pub name: String,
    pub pairs: usize,
    /// Pairs behind the time estimate.
    pub timed: usize,
    pub time: Option<Estimate>,
    pub time_judgement: Judgement,
    /// Threshold plus the interval's half-width, in percent: "no change detected at ±x %".
    pub detectable_pct: Option<f64>,
    /// Geometric mean of the pairs' instruction ratios.
    pub instructions_ratio: Option<f64>,
    pub instructions_judgement: Judgement,
}

impl GroupResult {
    /// The short time verdict: `slower`, `faster`, `no change detected at ±4.1 %` when the
    /// interval holds 1; when the whole interval lies on one side of 1 (a real change is not
    /// "no change"), `within the ±3 % threshold: slower by 2.7 %` if it lies inside the
    /// threshold too, else `slower by 5.4 %, not surely beyond the ±3 % threshold` (it reaches
    /// across the threshold, so neither "within" nor "slower" is proven).
    pub(crate) fn time_verdict(&self, threshold_pct: f64) -> String {
        match (self.time, self.time_judgement) {
            (Some(e), Judgement::NoChange) if e.lo > 1.0 || e.hi < 1.0 => {
                let t = threshold_pct / 100.0;
                let (way, pct) = if e.lo > 1.0 {
                    ("slower", (e.ratio - 1.0) * 100.0)
                } else {
                    ("faster", (1.0 - e.ratio) * 100.0)
                };
                if e.lo >= 1.0 - t && e.hi <= 1.0 + t {
                    format!("within the ±{threshold_pct} % threshold: {way} by {pct:.1} %")
                } else {
                    format!(
                        "{way} by {pct:.1} %, not surely beyond the ±{threshold_pct} % threshold"
                    )
                }
            }
            (_, Judgement::NoChange) => match self.detectable_pct {
                Some(x) => format!("no change detected at ±{x:.1} %"),
                None => Judgement::NoChange.to_string(),
            },
            (_, j) => j.to_string(),
        }
    }

    /// The time verdict in words: `slower (time ratio head/base 1.082, 95 % interval [1.051,
    /// 1.110])`.
    pub(crate) fn time_words(&self, threshold_pct: f64) -> String {
        match &self.time {
            Some(e) => format!(
                "{} (time ratio head/base {:.3}, 95 % interval [{:.3}, {:.3}])",
                self.time_verdict(threshold_pct),
                e.ratio,
                e.lo,
                e.hi
            ),
            None => "time not judged (no pair solved in every round on both sides)".into(),
        }
    }

    /// The instruction verdict in words, when counted.
    pub(crate) fn instructions_words(&self, threshold_pct: f64) -> Option<String> {
        self.instructions_ratio.map(|r| {
            let head = match self.instructions_judgement {
                Judgement::NoChange => format!("no change detected at ±{threshold_pct} %"),
                j => j.to_string(),
            };
            format!("{head} (instructions head/base {r:.4})")
        })
    }
}

/// Why a regression check fails.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Failure {
    NodeCount {
        pair: Pair,
        base: (u64, u64),
        head: (u64, u64),
    },
    /// The same binary gave different counts in two rounds.
    Unsteady {
        pair: Pair,
        side: Side,
    },
    LostSolution {
        pair: Pair,
        head: RunStatus,
    },
    Length {
        pair: Pair,
        base: Option<u32>,
        head: Option<u32>,
    },
    /// A pair measured by one side only.
    OneSide {
        pair: Pair,
        side: Side,
    },
    Slower {
        group: String,
        time: Estimate,
    },
    SlowerInstructions {
        group: String,
        ratio: f64,
    },
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Failure::NodeCount { pair, base, head } => write!(
                f,
                "node counts changed: {pair}: generated {} → {}, expanded {} → {}",
                base.0, head.0, base.1, head.1
            ),
            Failure::Unsteady { pair, side } => write!(
                f,
                "{pair}: the {side} binary gave different node counts in two rounds"
            ),
            Failure::LostSolution { pair, head } => {
                write!(f, "solution lost: {pair}: solved → {head}")
            }
            Failure::Length { pair, base, head } => write!(
                f,
                "solution length changed: {pair}: {} → {}",
                opt(base),
                opt(head)
            ),
            Failure::OneSide { pair, side } => write!(f, "{pair}: run by {side} only"),
            Failure::Slower { group, time } => write!(
                f,
                "{group} slower: time ratio head/base {:.3}, 95 % interval [{:.3}, {:.3}]",
                time.ratio, time.lo, time.hi
            ),
            Failure::SlowerInstructions { group, ratio } => {
                write!(f, "{group} slower: instructions head/base {ratio:.4}")
            }
        }
    }
}

fn opt(v: &Option<u32>) -> String {
    v.map_or("–".into(), |v| v.to_string())
}

/// The whole verdict.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Verdict {
    pub options: Options,
    /// Rounds behind the time figures.
    pub rounds: usize,
    /// How much a single paired ratio scatters (median absolute deviation, percent): this
    /// machine's noise for this workload, measured in this run.
    pub noise_pct: Option<f64>,
    pub pairs: Vec<PairResult>,
    pub methods: Vec<GroupResult>,
    pub overall: GroupResult,
    pub failures: Vec<Failure>,
}

impl Verdict {
    pub fn passed(&self) -> bool {
        self.failures.is_empty()
    }
}

/// The runs of one pair by one side, round by round.
#[derive(Default)]
struct Runs<'a> {
    by_round: BTreeMap<u32, &'a RoundRow>,
}

/// Judges the rows of every round (and the instruction counts, if any).
pub(crate) fn judge_rows(
    rows: &[RoundRow],
    instructions: &[InstructionRow],
    options: Options,
) -> Verdict {
    let order = first_appearance(
        rows.iter()
            .map(RoundRow::pair)
            .chain(instructions.iter().map(InstructionRow::pair)),
    );
    let mut runs: BTreeMap<(Pair, Side), Runs> = BTreeMap::new();
    for r in rows {
        runs.entry((r.pair(), r.side))
            .or_default()
            .by_round
            .insert(r.round, r);
    }
    let mut all_rounds = first_appearance(rows.iter().map(|r| r.round));
    all_rounds.sort_unstable();
    let instr: BTreeMap<(Pair, Side), u64> = instructions
        .iter()
        .map(|i| ((i.pair(), i.side), i.search))
        .collect();

    let mut failures = Vec::new();
    let mut pairs = Vec::new();
    // (pair index, ratios over all rounds) of the timed pairs.
    let mut timed: Vec<(usize, Vec<f64>)> = Vec::new();
    for pair in &order {
        let b = runs.get(&(pair.clone(), Side::Base));
        let h = runs.get(&(pair.clone(), Side::Head));
        let figures = |side: Side, r: Option<&Runs>| -> Option<SideFigures> {
            let first = r.and_then(|r| r.by_round.values().next().copied());
            let (status, length, generated, expanded) = match first {
                Some(f) => (f.status, f.length, f.generated, f.expanded),
                None => (RunStatus::Solved, None, 0, 0),
            };
            let seconds: Vec<f64> = r
                .map(|r| r.by_round.values().map(|x| x.seconds).collect())
                .unwrap_or_default();
            let instructions = instr.get(&(pair.clone(), side)).copied();
            (first.is_some() || instructions.is_some()).then(|| SideFigures {
                status,
                length,
                generated,
                expanded,
                median_seconds: stats::median(&seconds),
                instructions,
            })
        };
        let (Some(bf), Some(hf)) = (figures(Side::Base, b), figures(Side::Head, h)) else {
            let side = if b.is_some() { Side::Base } else { Side::Head };
            failures.push(Failure::OneSide {
                pair: pair.clone(),
                side,
            });
            continue;
        };
        // Every round of a side against its first.
        for (side, r) in [(Side::Base, b), (Side::Head, h)] {
            let mut rounds = r.into_iter().flat_map(|r| r.by_round.values());
            let Some(f) = rounds.next() else { continue };
            if rounds.any(|x| {
                x.status == f.status
                    && x.status.is_deterministic()
                    && (x.generated, x.expanded) != (f.generated, f.expanded)
            }) {
                failures.push(Failure::Unsteady {
                    pair: pair.clone(),
                    side,
                });
            }
        }
        let same_end = b.is_some() && h.is_some() && bf.status == hf.status;
        let nodes_changed = same_end
            && bf.status.is_deterministic()
            && (bf.generated, bf.expanded) != (hf.generated, hf.expanded);
        if nodes_changed {
            failures.push(Failure::NodeCount {
                pair: pair.clone(),
                base: (bf.generated, bf.expanded),
                head: (hf.generated, hf.expanded),
            });
        }
        if b.is_some() && h.is_some() {
            if bf.status == RunStatus::Solved && hf.status != RunStatus::Solved {
                failures.push(Failure::LostSolution {
                    pair: pair.clone(),
                    head: hf.status,
                });
            }
            if let (Some(x), Some(y)) = (bf.length, hf.length) {
                if x != y {
                    failures.push(Failure::Length {
                        pair: pair.clone(),
                        base: bf.length,
                        head: hf.length,
                    });
                }
            }
        }
        // Paired ratios: every round solved on both sides with a measured time.
        let ratios: Option<Vec<f64>> = match (b, h) {
            (Some(b), Some(h)) if !all_rounds.is_empty() => all_rounds
                .iter()
                .map(|k| {
                    let (x, y) = (b.by_round.get(k)?, h.by_round.get(k)?);
                    (x.status == RunStatus::Solved
                        && y.status == RunStatus::Solved
                        && x.seconds > 0.0
                        && y.seconds > 0.0)
                        .then(|| y.seconds / x.seconds)
                })
                .collect(),
            _ => None,
        };
        let instructions_ratio = match (bf.instructions, hf.instructions) {
            (Some(x), Some(y)) if x > 0 => Some(y as f64 / x as f64),
            _ => None,
        };
        if let Some(r) = ratios {
            timed.push((pairs.len(), r));
        }
        pairs.push(PairResult {
            pair: pair.clone(),
            base: bf,
            head: hf,
            time: None,
            time_judgement: Judgement::NotJudged,
            instructions_ratio,
            instructions_judgement: instructions_ratio.map_or(Judgement::NotJudged, |r| {
                judge(&Estimate::exact(r), options.instructions_threshold_pct)
            }),
            nodes_changed,
        });
    }

    let paired = Paired {
        ratios: timed.iter().map(|(_, r)| r.clone()).collect(),
    };
    let medians = paired.medians();
    let resamples = (!timed.is_empty()).then(|| paired.resample());
    if let Some(rs) = &resamples {
        for (k, (i, _)) in timed.iter().enumerate() {
            let e = rs.pair(&medians, k);
            pairs[*i].time = Some(e);
            pairs[*i].time_judgement = judge(&e, options.threshold_pct);
        }
    }
    let group = |name: &str, members: &[usize]| -> GroupResult {
        // members: indices into `pairs`; the timed ones by their index into `timed`.
        let timed_members: Vec<usize> = timed
            .iter()
            .enumerate()
            .filter(|(_, (i, _))| members.contains(i))
            .map(|(k, _)| k)
            .collect();
        let time = (!timed_members.is_empty()).then(|| paired.group(&timed_members));
        let instr: Vec<f64> = members
            .iter()
            .filter_map(|&i| pairs[i].instructions_ratio)
            .collect();
        let instructions_ratio = (!instr.is_empty()).then(|| stats::geomean(&instr));
        GroupResult {
            name: name.to_string(),
            pairs: members.len(),
            timed: timed_members.len(),
            time,
            time_judgement: time.map_or(Judgement::NotJudged, |e| judge(&e, options.threshold_pct)),
            detectable_pct: time.map(|e| options.threshold_pct + e.half_width_pct()),
            instructions_ratio,
            instructions_judgement: instructions_ratio.map_or(Judgement::NotJudged, |r| {
                judge(&Estimate::exact(r), options.instructions_threshold_pct)
            }),
        }
    };
    let methods: Vec<GroupResult> = first_appearance(pairs.iter().map(|p| p.pair.method.as_str()))
        .iter()
        .map(|m| {
            let members: Vec<usize> = (0..pairs.len())
                .filter(|&i| pairs[i].pair.method == *m)
                .collect();
            group(m, &members)
        })
        .collect();
    let overall = group("overall", &(0..pairs.len()).collect::<Vec<_>>());
    for g in methods.iter().chain(std::iter::once(&overall)) {
        if g.time_judgement == Judgement::Slower {
            if let Some(time) = g.time {
                failures.push(Failure::Slower {
                    group: g.name.clone(),
                    time,
                });
            }
        }
        if g.instructions_judgement == Judgement::Slower {
            if let Some(ratio) = g.instructions_ratio {
                failures.push(Failure::SlowerInstructions {
                    group: g.name.clone(),
                    ratio,
                });
            }
        }
    }
    Verdict {
        options,
        rounds: paired.rounds(),
        noise_pct: (!timed.is_empty()).then(|| stats::noise_pct(&paired)),
        pairs,
        methods,
        overall,
        failures,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(round: u32, side: Side, id: &str, method: &str, generated: u64, s: f64) -> RoundRow {
        RoundRow {
            round,
            side,
            position: 1,
            instance_set: "set".into(),
            instance_id: id.into(),
            method: method.into(),
            status: RunStatus::Solved,
            length: Some(20),
            generated,
            expanded: generated / 2,
            seconds: s,
        }
    }

    /// Rounds of two pairs per method, head time = base × factor(round, pair).
    fn rows(rounds: u32, factor: impl Fn(u32, usize) -> f64) -> Vec<RoundRow> {
        let mut out = Vec::new();
        for k in 1..=rounds {
            for (i, (id, m)) in [("1", "manhattan"), ("2", "manhattan"), ("1", "pdb")]
                .iter()
                .enumerate()
            {
                let base = 0.1 * (1.0 + 0.05 * ((k as f64 * 7.3 + i as f64).sin()));
                out.push(row(k, Side::Base, id, m, 1000 + i as u64, base));
                out.push(row(
                    k,
                    Side::Head,
                    id,
                    m,
                    1000 + i as u64,
                    base * factor(k, i),
                ));
            }
        }
        out
    }

    #[test]
    fn identical_times_are_no_change() {
        let v = judge_rows(&rows(6, |_, _| 1.0), &[], Options::default());
        assert!(v.passed(), "{:?}", v.failures);
        assert_eq!(v.overall.time_judgement, Judgement::NoChange);
        assert_eq!(v.methods.len(), 2);
        assert_eq!(v.rounds, 6);
        assert!(v
            .overall
            .time_words(3.0)
            .starts_with("no change detected at ±3.0 %"));
    }

    #[test]
    fn a_slowdown_beyond_threshold_and_noise_fails_naming_the_method() {
        // 10 % slower on manhattan with ±2 % scatter, pdb unchanged.
        let v = judge_rows(
            &rows(10, |k, i| {
                let wobble = 1.0 + 0.02 * ((k * 3 + i as u32) as f64).cos();
                if i < 2 {
                    1.10 * wobble
                } else {
                    wobble
                }
            }),
            &[],
            Options::default(),
        );
        assert_eq!(v.methods[0].time_judgement, Judgement::Slower);
        assert_eq!(v.methods[1].time_judgement, Judgement::NoChange);
        assert!(v
            .failures
            .iter()
            .any(|f| matches!(f, Failure::Slower { group, .. } if group == "manhattan")));
        assert!(!v.passed());
    }

    #[test]
    fn a_slowdown_within_the_threshold_is_no_change() {
        let v = judge_rows(&rows(8, |_, _| 1.02), &[], Options::default());
        assert!(v.passed(), "{:?}", v.failures);
        assert_eq!(v.overall.time_judgement, Judgement::NoChange);
        // The whole interval lies above 1: a real change, named, but under the threshold.
        assert_eq!(
            v.overall.time_verdict(3.0),
            "within the ±3 % threshold: slower by 2.0 %"
        );
        // An interval reaching across the threshold proves neither a change beyond it nor one
        // within it (a tryout saw "within the ±3 % threshold: faster by 5.4 %" for [0.913, 0.980]).
        let across = GroupResult {
            time: Some(Estimate {
                ratio: 0.946,
                lo: 0.913,
                hi: 0.980,
            }),
            ..v.overall.clone()
        };
        assert_eq!(
            across.time_verdict(3.0),
            "faster by 5.4 %, not surely beyond the ±3 % threshold"
        );
        let faster = judge_rows(&rows(8, |_, _| 0.8), &[], Options::default());
        assert!(faster.passed());
        assert_eq!(faster.overall.time_judgement, Judgement::Faster);
    }

    #[test]
    fn a_changed_count_fails_naming_the_pair() {
        let mut r = rows(3, |_, _| 1.0);
        for x in r.iter_mut() {
            if x.side == Side::Head && x.instance_id == "2" {
                x.generated += 1;
            }
        }
        let v = judge_rows(&r, &[], Options::default());
        assert_eq!(v.failures.len(), 1, "{:?}", v.failures);
        assert_eq!(
            v.failures[0].to_string(),
            "node counts changed: set #2 manhattan: generated 1001 → 1002, expanded 500 → 500"
        );
        assert!(v.pairs[1].nodes_changed);
    }

    #[test]
    fn counts_varying_between_rounds_are_unsteady() {
        let mut r = rows(3, |_, _| 1.0);
        r[0].generated += 5; // round 1, base, pair 1
        let v = judge_rows(&r, &[], Options::default());
        assert!(v.failures.iter().any(|f| matches!(
            f,
            Failure::Unsteady {
                side: Side::Base,
                ..
            }
        )));
    }

    #[test]
    fn instructions_are_judged_against_their_own_threshold() {
        let r = rows(3, |_, _| 1.0);
        let instr = |side, id: &str, m: &str, search| InstructionRow {
            side,
            instance_set: "set".into(),
            instance_id: id.into(),
            method: m.into(),
            total: search + 10,
            startup: 10,
            search,
        };
        let counts = vec![
            instr(Side::Base, "1", "manhattan", 1000),
            instr(Side::Head, "1", "manhattan", 1050),
            instr(Side::Base, "2", "manhattan", 1000),
            instr(Side::Head, "2", "manhattan", 1050),
            instr(Side::Base, "1", "pdb", 1000),
            instr(Side::Head, "1", "pdb", 1005),
        ];
        let v = judge_rows(&r, &counts, Options::default());
        assert_eq!(v.methods[0].instructions_judgement, Judgement::Slower);
        assert_eq!(v.methods[1].instructions_judgement, Judgement::NoChange);
        assert!(v.failures.iter().any(
            |f| matches!(f, Failure::SlowerInstructions { group, .. } if group == "manhattan")
        ));
        assert_eq!(v.overall.instructions_judgement, Judgement::Slower);
    }

    #[test]
    fn a_lost_solution_and_a_one_sided_pair_fail() {
        let mut r = rows(2, |_, _| 1.0);
        for x in r.iter_mut() {
            if x.side == Side::Head && x.instance_id == "1" && x.method == "pdb" {
                x.status = RunStatus::TimeLimit;
                x.length = None;
            }
        }
        r.push(row(1, Side::Base, "9", "manhattan", 5, 0.1));
        let v = judge_rows(&r, &[], Options::default());
        let words: Vec<String> = v.failures.iter().map(|f| f.to_string()).collect();
        assert!(words.contains(&"solution lost: set #1 pdb: solved → time-limit".to_string()));
        assert!(words.contains(&"set #9 manhattan: run by base only".to_string()));
        // The pair that lost its solution is not timed.
        assert_eq!(v.methods[1].timed, 0);
    }
}
