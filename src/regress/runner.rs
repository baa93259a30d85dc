//! The alternating runner: both binaries run the same workload, one process per side and
//! round, base and head taking turns (round 1 base then head, round 2 head then base, …) so
//! that neither always runs first, into a machine whose load drifts the same way for both.
//! Each run is `BIN run --instances … -H … --jobs 1 --no-history` into a scratch directory;
//! the seconds compared are the binary's own search times (start-up and table loading left
//! out).

use std::path::{Path, PathBuf};
use std::process::Command;

use serde::Serialize;

use super::{RegressError, RoundRow, Side};
use crate::results::meta::Meta;
use crate::results::{self, ReadMode, RunRecord, META_FILE, RUNS_FILE};

/// The default workload: eight of Korf's 15-puzzle instances of middling difficulty (see the
/// file) under Manhattan distance, linear conflict and the 6-6-3 pattern database.
pub const DEFAULT_INSTANCES: &str = "instances/regress-korf8.txt";
/// The default workload's heuristics.
pub const DEFAULT_HEURISTICS: [&str; 3] = ["manhattan", "linear-conflict", "pdb-663"];

/// What both binaries run: instance specs and heuristics as `tilebench run` takes them.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Workload {
    pub instances: Vec<String>,
    pub heuristics: Vec<String>,
}

impl Default for Workload {
    fn default() -> Self {
        Workload {
            instances: vec![DEFAULT_INSTANCES.to_string()],
            heuristics: DEFAULT_HEURISTICS.iter().map(|h| h.to_string()).collect(),
        }
    }
}

impl Workload {
    /// The arguments of `tilebench run` for this workload into `out`.
    pub fn run_args(&self, instances: &[String], heuristics: &[String], out: &Path) -> Vec<String> {
        let mut args: Vec<String> = vec![
            "run".into(),
            "--instances".into(),
            instances.join(","),
            "-H".into(),
            heuristics.join(","),
            "--jobs".into(),
            "1".into(),
            "--no-history".into(),
            "--overwrite".into(),
            "--out".into(),
        ];
        args.push(out.to_string_lossy().into_owned());
        args
    }
}

/// A binary to measure.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Binary {
    pub side: Side,
    pub label: String,
    pub path: PathBuf,
}

/// What one run wrote: its rows and its meta.json.
pub(crate) struct RunOutput {
    pub runs: Vec<RunRecord>,
    pub meta: Option<Meta>,
}

/// Runs `binary` with `args` (a `run` into `out`) and reads what it wrote.
pub(crate) fn run_once(
    binary: &Binary,
    args: &[String],
    out: &Path,
    round: &str,
    wrapper: Option<&[String]>,
) -> Result<RunOutput, RegressError> {
    let _ = std::fs::remove_dir_all(out);
    let mut cmd = match wrapper {
        Some([program, rest @ ..]) => {
            let mut c = Command::new(program);
            c.args(rest).arg(&binary.path);
            c
        }
        _ => Command::new(&binary.path),
    };
    cmd.args(args);
    let program = cmd.get_program().to_string_lossy().into_owned();
    let output = cmd
        .output()
        .map_err(|source| RegressError::Spawn { program, source })?;
    let failed = |why: String| RegressError::RunFailed {
        side: binary.side,
        binary: binary.path.display().to_string(),
        round: round.to_string(),
        status: output.status.to_string(),
        stderr: why,
    };
    if !output.status.success() {
        let stderr = String::from_utf8_lossy(&output.stderr);
        let tail: Vec<&str> = stderr.lines().rev().take(6).collect();
        return Err(failed(
            tail.into_iter().rev().collect::<Vec<_>>().join(" | "),
        ));
    }
    let runs_file = out.join(RUNS_FILE);
    if !runs_file.exists() {
        return Err(failed(format!(
            "it wrote no {RUNS_FILE} into {}: is it a tilebench binary?",
            out.display()
        )));
    }
    let runs = results::read_runs(&runs_file, ReadMode::Strict)?
        .into_iter()
        .map(|(_, r)| r)
        .collect();
    let meta = Meta::read(&out.join(META_FILE)).ok();
    Ok(RunOutput { runs, meta })
}

/// The rows of one run as rows of round `round`.
fn round_rows(round: u32, side: Side, position: u8, runs: &[RunRecord]) -> Vec<RoundRow> {
    runs.iter()
        .map(|r| RoundRow {
            round,
            side,
            position,
            instance_set: r.instance_set.clone(),
            instance_id: r.instance_id.clone(),
            method: r.label(),
            status: r.status,
            length: r.length,
            // regress runs the built-in search, whose rows always hold their counts.
            generated: r.generated.unwrap_or(0),
            expanded: r.expanded.unwrap_or(0),
            seconds: r.seconds,
        })
        .collect()
}

/// Everything the alternating runs gave.
pub(crate) struct Alternated {
    pub rows: Vec<RoundRow>,
    /// The meta.json each side's first run wrote (the commit the binary reports, the sets).
    pub base_meta: Option<Meta>,
    pub head_meta: Option<Meta>,
}

/// Runs `warmup` rounds (discarded) then `rounds` rounds of the workload, alternating which
/// side goes first; `scratch` holds each run's directory while it is read.
pub(crate) fn alternate(
    base: &Binary,
    head: &Binary,
    workload: &Workload,
    rounds: u32,
    warmup: u32,
    scratch: &Path,
    say: &mut dyn FnMut(&str),
) -> Result<Alternated, RegressError> {
    let mut rows = Vec::new();
    let (mut base_meta, mut head_meta) = (None, None);
    for k in 1..=(warmup + rounds) {
        let order = if k % 2 == 1 {
            [base, head]
        } else {
            [head, base]
        };
        let (label, round) = if k <= warmup {
            (format!("warm-up {k}/{warmup}"), None)
        } else {
            (format!("{}/{rounds}", k - warmup), Some(k - warmup))
        };
        let mut seconds = Vec::new();
        for (i, b) in order.iter().enumerate() {
            let out = scratch.join(format!("{}-{k}", b.side));
            let args = workload.run_args(&workload.instances, &workload.heuristics, &out);
            let o = run_once(b, &args, &out, &label, None)?;
            let _ = std::fs::remove_dir_all(&out);
            seconds.push((b.side, o.runs.iter().map(|r| r.seconds).sum::<f64>()));
            match b.side {
                Side::Base if base_meta.is_none() => base_meta = o.meta,
                Side::Head if head_meta.is_none() => head_meta = o.meta,
                _ => {}
            }
            if let Some(round) = round {
                rows.extend(round_rows(round, b.side, i as u8 + 1, &o.runs));
            }
        }
        let text: Vec<String> = seconds
            .iter()
            .map(|(s, t)| format!("{s} {t:.3} s"))
            .collect();
        say(&format!("round {label}: {}", text.join(", ")));
    }
    Ok(Alternated {
        rows,
        base_meta,
        head_meta,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_run_arguments_pin_one_job_and_no_history() {
        let w = Workload::default();
        let args = w.run_args(&w.instances, &w.heuristics, Path::new("/tmp/x"));
        assert_eq!(
            args.join(" "),
            "run --instances instances/regress-korf8.txt -H manhattan,linear-conflict,pdb-663 \
             --jobs 1 --no-history --overwrite --out /tmp/x"
        );
    }
}
