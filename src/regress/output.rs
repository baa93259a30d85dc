//! What a regression check leaves behind: the results directory (`rounds.csv` with every
//! round's rows, `instructions.csv`, `meta.json` naming both sides, the machine and its load,
//! `verdict.json`), the verdict as Markdown (for people and pull requests) or JSON (for bots),
//! and the lines appended to the history.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use serde::Serialize;

use super::build::Built;
use super::revision::Revision;
use super::runner::Workload;
use super::stats;
use super::verdict::Verdict;
use super::{InstructionRow, RegressError, RoundRow, Side};
use crate::analysis::first_appearance;
use crate::path_io::{At, Found};
use crate::report::format::count;
use crate::results::history::{self, HistoryRow};
use crate::results::io::write_rows;
use crate::results::meta::Machine;

/// `rounds.csv`: every run of every round.
pub(crate) const ROUNDS_FILE: &str = "rounds.csv";
/// `instructions.csv`: the instruction counts, when taken.
pub(crate) const INSTRUCTIONS_FILE: &str = "instructions.csv";
/// `meta.json` of a regress results directory.
pub const META_FILE: &str = "meta.json";
/// The verdict as JSON (what `--format json` prints).
pub(crate) const VERDICT_FILE: &str = "verdict.json";

/// One side as measured.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct SideMeta {
    pub side: Side,
    /// `abc1234`, `working tree (…)`, or the binary's path.
    pub label: String,
    /// The revision built, when built by regress.
    pub revision: Option<Revision>,
    pub binary: PathBuf,
    /// Taken from the build cache rather than built this time.
    pub reused_build: Option<bool>,
    /// The commit and dirty flag the binary itself reports (its run's meta.json).
    pub reported_commit: Option<String>,
    pub reported_dirty: Option<bool>,
}

impl SideMeta {
    pub(crate) fn of_build(side: Side, b: &Built) -> SideMeta {
        SideMeta {
            side,
            label: b.revision.label(),
            revision: Some(b.revision.clone()),
            binary: b.binary.clone(),
            reused_build: Some(b.reused),
            ..SideMeta::default()
        }
    }

    pub(crate) fn of_binary(side: Side, path: &Path) -> SideMeta {
        SideMeta {
            side,
            label: path.display().to_string(),
            binary: path.to_path_buf(),
            ..SideMeta::default()
        }
    }

    /// The history's commit: the revision's, else what the binary reports, else its label.
    pub(crate) fn history_commit(&self) -> String {
        match (&self.revision, &self.reported_commit) {
            (Some(r), _) => r.history_commit(),
            (None, Some(c)) => history::commit_of(Some(c), self.reported_dirty),
            (None, None) => self.label.clone(),
        }
    }
}

/// `meta.json` of a regress results directory.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RegressMeta {
    pub kind: &'static str,
    pub command_line: Vec<String>,
    pub started: String,
    pub finished: String,
    pub base: SideMeta,
    pub head: SideMeta,
    pub workload: Workload,
    pub rounds: u32,
    pub warmup: u32,
    /// "alternating": base and head take turns, each in its own process, one job.
    pub order: &'static str,
    pub machine: Machine,
    /// /proc/loadavg (1, 5, 15 minutes) when the measurement started and ended.
    pub load_start: Option<[f64; 3]>,
    pub load_end: Option<[f64; 3]>,
    /// `valgrind --version`, when instructions were counted.
    pub valgrind: Option<String>,
    pub bootstrap: Bootstrap,
}

/// How the intervals were made.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Bootstrap {
    pub resamples: usize,
    pub seed: u64,
    pub confidence: f64,
}

impl Default for Bootstrap {
    fn default() -> Self {
        Bootstrap {
            resamples: stats::RESAMPLES,
            seed: stats::SEED,
            confidence: stats::CONFIDENCE,
        }
    }
}

/// The load averages now, from `/proc/loadavg` (Linux).
pub(crate) fn load_average() -> Option<[f64; 3]> {
    let text = std::fs::read_to_string("/proc/loadavg").ok()?;
    let mut it = text.split_whitespace().map(|w| w.parse::<f64>().ok());
    Some([it.next()??, it.next()??, it.next()??])
}

/// What `--format json` prints and `verdict.json` holds.
#[derive(Serialize)]
pub(crate) struct JsonOut<'a> {
    pub passed: bool,
    pub summary: String,
    pub meta: &'a RegressMeta,
    pub verdict: &'a Verdict,
}

/// The one-line summary: the overall time verdict (and instructions).
pub fn summary(v: &Verdict) -> String {
    let mut s = format!("overall: {}", v.overall.time_words(v.options.threshold_pct));
    if let Some(i) = v
        .overall
        .instructions_words(v.options.instructions_threshold_pct)
    {
        let _ = write!(s, "; {i}");
    }
    s
}

/// Removes an earlier check's files from `out` before this one runs, so that a check that is
/// interrupted or fails never leaves the earlier verdict to be read as its own.
pub(crate) fn clear_dir(out: &Path) -> Result<(), RegressError> {
    for name in [ROUNDS_FILE, INSTRUCTIONS_FILE, META_FILE, VERDICT_FILE] {
        let p = out.join(name);
        std::fs::remove_file(&p).found().at(&p)?;
    }
    Ok(())
}

/// Writes the results directory: rows, counts, meta and verdict.
pub fn write_dir(
    out: &Path,
    rows: &[RoundRow],
    instructions: &[InstructionRow],
    meta: &RegressMeta,
    verdict: &Verdict,
) -> Result<Vec<PathBuf>, RegressError> {
    std::fs::create_dir_all(out).at(out)?;
    let mut written = Vec::new();
    let p = out.join(ROUNDS_FILE);
    write_rows(&p, rows)?;
    written.push(p);
    if !instructions.is_empty() {
        let p = out.join(INSTRUCTIONS_FILE);
        write_rows(&p, instructions)?;
        written.push(p);
    }
    for (name, text) in [
        (META_FILE, serde_json::to_string_pretty(meta)),
        (VERDICT_FILE, json(meta, verdict)),
    ] {
        let p = out.join(name);
        let text = text.unwrap_or_default() + "\n";
        crate::results::io::atomic_write(&p, text.as_bytes()).at(&p)?;
        written.push(p);
    }
    Ok(written)
}

/// The verdict as JSON.
pub fn json(meta: &RegressMeta, verdict: &Verdict) -> Result<String, serde_json::Error> {
    serde_json::to_string_pretty(&JsonOut {
        passed: verdict.passed(),
        summary: summary(verdict),
        meta,
        verdict,
    })
}

fn load_text(l: Option<[f64; 3]>) -> String {
    l.map_or("unknown".into(), |l| {
        format!("{:.2} {:.2} {:.2}", l[0], l[1], l[2])
    })
}

/// The verdict as Markdown: what was compared, the verdict, per method, per pair.
pub(crate) fn markdown(meta: &RegressMeta, v: &Verdict) -> String {
    let mut s = String::new();
    let o = &v.options;
    let _ = writeln!(s, "# tilebench regress\n");
    let _ = writeln!(s, "- base: `{}`", meta.base.label);
    let _ = writeln!(s, "- head: `{}`", meta.head.label);
    let _ = writeln!(
        s,
        "- workload: `{}` × `{}`; {} rounds (+{} warm-up), base and head alternating (each \
         round the other goes first), one process per side and round, one job",
        meta.workload.instances.join(","),
        meta.workload.heuristics.join(","),
        meta.rounds,
        meta.warmup
    );
    let _ = writeln!(
        s,
        "- machine: {} ({} cores); load average {} at the start, {} at the end",
        meta.machine.cpu_model.as_deref().unwrap_or("unknown CPU"),
        meta.machine.cores,
        load_text(meta.load_start),
        load_text(meta.load_end)
    );
    if let Some(n) = v.noise_pct {
        let _ = writeln!(
            s,
            "- noise measured in this run: one paired ratio scatters by ±{n:.1} % (median \
             absolute deviation); the verdict's 95 % intervals (Student t over the rounds' \
             geometric means) account for it"
        );
    }
    let _ = writeln!(
        s,
        "- thresholds: time {} % beyond the interval; instructions {} %",
        o.threshold_pct, o.instructions_threshold_pct
    );

    let _ = writeln!(s, "\n## Verdict\n");
    let _ = writeln!(s, "{}\n", summary(v));
    if v.passed() {
        let _ = writeln!(s, "PASS: no regression.");
    } else {
        let _ = writeln!(s, "FAIL: {}.\n", count(v.failures.len(), "problem"));
        for f in &v.failures {
            let _ = writeln!(s, "- {f}");
        }
    }

    let _ = writeln!(s, "\n## Per method\n");
    let _ = writeln!(
        s,
        "| method | pairs | timed | time ratio | 95 % interval | time verdict | instructions ratio | instructions verdict |"
    );
    let _ = writeln!(s, "|---|---:|---:|---:|---|---|---:|---|");
    for g in v.methods.iter().chain(std::iter::once(&v.overall)) {
        let (ratio, interval) = match g.time {
            Some(e) => (
                format!("{:.3}", e.ratio),
                format!("[{:.3}, {:.3}]", e.lo, e.hi),
            ),
            None => ("–".into(), "–".into()),
        };
        let verdict = g.time_verdict(v.options.threshold_pct);
        let _ = writeln!(
            s,
            "| {} | {} | {} | {ratio} | {interval} | {verdict} | {} | {} |",
            g.name,
            g.pairs,
            g.timed,
            g.instructions_ratio
                .map_or("–".into(), |r| format!("{r:.4}")),
            if g.instructions_ratio.is_some() {
                g.instructions_judgement.to_string()
            } else {
                "–".into()
            }
        );
    }

    let _ = writeln!(s, "\n## Per pair\n");
    let _ = writeln!(
        s,
        "| set | id | method | generated (base) | generated (head) | seconds base (median) | seconds head (median) | time ratio | 95 % interval | instructions base | instructions head | instructions ratio | change |"
    );
    let _ = writeln!(
        s,
        "|---|---|---|---:|---:|---:|---:|---:|---|---:|---:|---:|---|"
    );
    for p in &v.pairs {
        let (ratio, interval) = match p.time {
            Some(e) => (
                format!("{:.3}", e.ratio),
                format!("[{:.3}, {:.3}]", e.lo, e.hi),
            ),
            None => ("–".into(), "–".into()),
        };
        let i = |x: Option<u64>| x.map_or("–".into(), |x| x.to_string());
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | {} | {:.4} | {:.4} | {ratio} | {interval} | {} | {} | {} | {} |",
            p.pair.instance_set,
            p.pair.instance_id,
            p.pair.method,
            p.base.generated,
            p.head.generated,
            p.base.median_seconds,
            p.head.median_seconds,
            i(p.base.instructions),
            i(p.head.instructions),
            p.instructions_ratio
                .map_or("–".into(), |r| format!("{r:.4}")),
            if p.nodes_changed { "**nodes**" } else { "" }
        );
    }
    s
}

/// The history lines of one side: per (method, set), the pairs' nodes, the median over rounds
/// of their summed search seconds, and their search instructions when counted.
pub(crate) fn history_rows(
    side: &SideMeta,
    date: &str,
    rows: &[RoundRow],
    instructions: &[InstructionRow],
) -> Vec<HistoryRow> {
    let mut out: Vec<HistoryRow> = Vec::new();
    let mine: Vec<&RoundRow> = rows.iter().filter(|r| r.side == side.side).collect();
    let first_round = mine.iter().map(|r| r.round).min();
    let groups = first_appearance(
        mine.iter()
            .map(|r| (r.method.clone(), r.instance_set.clone())),
    );
    for (method, set) in groups {
        let of = |r: &&&RoundRow| r.method == method && r.instance_set == set;
        let first: Vec<&&RoundRow> = mine
            .iter()
            .filter(of)
            .filter(|r| Some(r.round) == first_round)
            .collect();
        let mut rounds: Vec<u32> = mine.iter().filter(of).map(|r| r.round).collect();
        rounds.sort_unstable();
        rounds.dedup();
        let per_round: Vec<f64> = rounds
            .iter()
            .map(|k| {
                mine.iter()
                    .filter(of)
                    .filter(|r| r.round == *k)
                    .map(|r| r.seconds)
                    .sum()
            })
            .collect();
        let total_seconds = stats::median(&per_round);
        let total_generated: u64 = first.iter().map(|r| r.generated).sum();
        let counts: Vec<u64> = instructions
            .iter()
            .filter(|i| i.side == side.side && i.method == method && i.instance_set == set)
            .map(|i| i.search)
            .collect();
        out.push(HistoryRow {
            commit: side.history_commit(),
            date: date.to_string(),
            heuristic: method.clone(),
            instance_set: set.clone(),
            runs: first.len() as u64,
            solved: first
                .iter()
                .filter(|r| r.status == crate::results::RunStatus::Solved)
                .count() as u64,
            total_generated,
            total_expanded: first.iter().map(|r| r.expanded).sum(),
            total_seconds,
            nodes_per_second: (total_seconds > 0.0).then(|| total_generated as f64 / total_seconds),
            instructions: (!counts.is_empty()).then(|| counts.iter().sum()),
        });
    }
    out
}
