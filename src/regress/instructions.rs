//! Instruction counts under valgrind (cachegrind, no cache simulation): deterministic, so one
//! round is enough and the same figure comes out on a quiet laptop and a loaded CI runner.
//!
//! Each pair runs in a process of its own (`run … -H METHOD --only-ids ID`), once to the end and
//! once stopped after its first node (`--node-limit 1`): the difference is the search's own
//! instructions, without start-up, table loading and output, which would otherwise dilute a
//! change of the search. Child processes are followed (`--trace-children=yes`) and every
//! process's count is summed, so a binary that delegates to another is counted whole.

use std::path::Path;
use std::process::Command;

use super::runner::{run_once, Binary, Workload};
use super::{InstructionRow, Pair, RegressError};
use crate::path_io::At;
use crate::results::meta::Meta;

/// The valgrind command line before the binary; `out` holds the per-process outputs.
fn valgrind(program: &str, out: &Path) -> Vec<String> {
    vec![
        program.to_string(),
        "--tool=cachegrind".into(),
        "--cache-sim=no".into(),
        "--trace-children=yes".into(),
        format!("--cachegrind-out-file={}/cg.%p", out.display()),
        "-q".into(),
    ]
}

/// `valgrind --version`, or why valgrind cannot be used.
pub fn version(program: &str) -> Result<String, RegressError> {
    let o = Command::new(program)
        .arg("--version")
        .output()
        .map_err(|e| {
            RegressError::Valgrind(format!(
                "cannot run '{program}' ({e}): install valgrind (e.g. apt-get install valgrind) \
                 or leave out --instructions"
            ))
        })?;
    Ok(String::from_utf8_lossy(&o.stdout).trim().to_string())
}

/// The total instructions (`Ir`) in the cachegrind outputs in `dir`.
pub(crate) fn sum_outputs(dir: &Path) -> Result<u64, RegressError> {
    let mut total = 0u64;
    let mut files = 0;
    for entry in std::fs::read_dir(dir).at(dir)? {
        let path = entry.at(dir)?.path();
        if !path
            .file_name()
            .is_some_and(|n| n.to_string_lossy().starts_with("cg."))
        {
            continue;
        }
        let text = std::fs::read_to_string(&path).at(&path)?;
        total += parse_summary(&text).ok_or_else(|| {
            RegressError::Valgrind(format!("{}: no 'summary:' line", path.display()))
        })?;
        files += 1;
    }
    if files == 0 {
        return Err(RegressError::Valgrind(format!(
            "{}: cachegrind wrote no output",
            dir.display()
        )));
    }
    Ok(total)
}

/// The first figure of a cachegrind output's `summary:` line (the events start with `Ir`).
pub(crate) fn parse_summary(text: &str) -> Option<u64> {
    text.lines()
        .find_map(|l| l.strip_prefix("summary:"))
        .and_then(|s| s.split_whitespace().next())
        .and_then(|n| n.parse().ok())
}

/// The instance spec each set was given by, from a run's meta.json.
fn spec_of(meta: &Meta, set: &str) -> Option<String> {
    meta.instance_sets
        .iter()
        .find(|s| s.name == set)
        .map(|s| s.path.clone())
}

/// Counts the instructions of every pair for both binaries (`meta`: a meta.json of the
/// workload, to find each set's spec).
pub fn count(
    binaries: [&Binary; 2],
    pairs: &[Pair],
    meta: &Meta,
    workload: &Workload,
    program: &str,
    scratch: &Path,
    say: &mut dyn FnMut(&str),
) -> Result<Vec<InstructionRow>, RegressError> {
    let mut rows = Vec::new();
    for (n, pair) in pairs.iter().enumerate() {
        let spec = spec_of(meta, &pair.instance_set).ok_or_else(|| {
            RegressError::Input(format!(
                "instance set {} is not in the workload's meta.json",
                pair.instance_set
            ))
        })?;
        for b in binaries {
            let mut figures = [0u64; 2];
            for (i, limit) in [None, Some("1")].into_iter().enumerate() {
                let dir = scratch.join(format!("cg-{}-{n}-{i}", b.side));
                let _ = std::fs::remove_dir_all(&dir);
                std::fs::create_dir_all(&dir).at(&dir)?;
                let out = dir.join("out");
                let mut args = workload.run_args(
                    std::slice::from_ref(&spec),
                    std::slice::from_ref(&pair.method),
                    &out,
                );
                args.extend(["--only-ids".to_string(), pair.instance_id.clone()]);
                if let Some(l) = limit {
                    args.extend(["--node-limit".to_string(), l.to_string()]);
                }
                let o = run_once(
                    b,
                    &args,
                    &out,
                    "instructions",
                    Some(&valgrind(program, &dir)),
                )?;
                if !o.runs.iter().any(|r| {
                    r.instance_id == pair.instance_id && r.instance_set == pair.instance_set
                }) {
                    return Err(RegressError::Input(format!(
                        "{pair}: the {} binary wrote no row for it under valgrind",
                        b.side
                    )));
                }
                figures[i] = sum_outputs(&dir)?;
                let _ = std::fs::remove_dir_all(&dir);
            }
            rows.push(InstructionRow {
                side: b.side,
                instance_set: pair.instance_set.clone(),
                instance_id: pair.instance_id.clone(),
                method: pair.method.clone(),
                total: figures[0],
                startup: figures[1],
                search: figures[0].saturating_sub(figures[1]),
            });
        }
        say(&format!(
            "instructions {}/{}: {pair}: base {}, head {}",
            n + 1,
            pairs.len(),
            rows[rows.len() - 2].search,
            rows[rows.len() - 1].search
        ));
    }
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_summary_line_is_read() {
        let text = "desc: I1 cache: x\ncmd: a\nevents: Ir\nfn=main\n3 4\nsummary: 123456\n";
        assert_eq!(parse_summary(text), Some(123456));
        assert_eq!(parse_summary("events: Ir\n"), None);
    }
}
