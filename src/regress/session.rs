//! One `tilebench regress`: resolve and build both sides, run them alternately, count
//! instructions if asked, judge, and write everything down.

use std::path::{Path, PathBuf};

use super::build::BuildCache;
use super::output::{self, Bootstrap, RegressMeta, SideMeta};
use super::revision::{self, Revision};
use super::runner::{self, Binary, Workload};
use super::verdict::{self, Options, Verdict};
use super::{instructions, InstructionRow, RegressError, RoundRow, Side};
use crate::analysis::first_appearance;
use crate::experiment::provenance;
use crate::path_io::At;

/// Where one side comes from.
#[derive(Debug, Clone, PartialEq)]
pub enum SideSpec {
    /// A revision of the repository, built (or found in the cache).
    Rev(String),
    /// The repository's working tree, built as it is.
    WorkingTree,
    /// A binary built elsewhere.
    Binary(PathBuf),
}

/// Everything a check needs.
#[derive(Debug, Clone)]
pub struct Request {
    pub repo: PathBuf,
    pub base: SideSpec,
    pub head: SideSpec,
    /// The binary target to build and run.
    pub bin: String,
    pub cache: BuildCache,
    pub workload: Workload,
    pub rounds: u32,
    pub warmup: u32,
    pub options: Options,
    /// The valgrind program, when instructions are to be counted.
    pub valgrind: Option<String>,
    /// The results directory.
    pub out: PathBuf,
    pub command_line: Vec<String>,
}

/// What a check found, and where it wrote it.
pub struct Outcome {
    pub meta: RegressMeta,
    pub verdict: Verdict,
    pub rows: Vec<RoundRow>,
    pub instructions: Vec<InstructionRow>,
    pub written: Vec<PathBuf>,
}

impl Request {
    fn check(&self) -> Result<(), RegressError> {
        if self.rounds < 2 {
            return Err(RegressError::Input(format!(
                "--rounds {}: give at least 2 (an interval needs more than one paired ratio)",
                self.rounds
            )));
        }
        for (name, v) in [
            ("--threshold", self.options.threshold_pct),
            (
                "--instructions-threshold",
                self.options.instructions_threshold_pct,
            ),
        ] {
            if !(v.is_finite() && v >= 0.0) {
                return Err(RegressError::Input(format!(
                    "{name} {v}: give a percentage ≥ 0"
                )));
            }
        }
        if self.workload.instances.is_empty() || self.workload.heuristics.is_empty() {
            return Err(RegressError::Input(
                "the workload needs instances and heuristics".into(),
            ));
        }
        // Read now, not when round 1 fails on it after the builds.
        for spec in &self.workload.instances {
            if let Err(e) = crate::instances::InstanceSet::read_selection(spec) {
                let hint = match spec == super::runner::DEFAULT_INSTANCES {
                    true => {
                        " (the default workload, a path relative to the current directory: run \
                         regress in a tilebench checkout, or name the boards with --instances)"
                    }
                    false => "",
                };
                return Err(RegressError::Input(format!("--instances: {e}{hint}")));
            }
        }
        Ok(())
    }

    /// A side's binary, or the revision to build: every revision is resolved before either
    /// side is built, so a mistyped `--head` is refused at once, not after `--base`'s build.
    fn resolve(&self, side: Side, spec: &SideSpec) -> Result<Resolved, RegressError> {
        Ok(match spec {
            SideSpec::Binary(path) => {
                if !path.is_file() {
                    return Err(RegressError::Input(format!(
                        "--{side}-bin {}: no such file",
                        path.display()
                    )));
                }
                Resolved::Binary(SideMeta::of_binary(side, path))
            }
            SideSpec::Rev(r) => {
                Resolved::Rev(revision::commit(&self.repo, r, &format!("--{side}"))?)
            }
            SideSpec::WorkingTree => Resolved::Rev(revision::working_tree(&self.repo)?),
        })
    }

    fn side(
        &self,
        side: Side,
        resolved: Resolved,
        say: &mut dyn FnMut(&str),
    ) -> Result<SideMeta, RegressError> {
        match resolved {
            Resolved::Binary(meta) => Ok(meta),
            Resolved::Rev(rev) => {
                let built = self.cache.get(&self.repo, &rev, &self.bin, say)?;
                Ok(SideMeta::of_build(side, &built))
            }
        }
    }
}

/// A side as resolved before any build.
enum Resolved {
    Binary(SideMeta),
    Rev(Revision),
}

/// Runs the check `req`; `say` hears the progress (builds, rounds).
pub fn run(req: &Request, say: &mut dyn FnMut(&str)) -> Result<Outcome, RegressError> {
    req.check()?;
    let valgrind = match &req.valgrind {
        Some(p) => Some(instructions::version(p)?),
        None => None,
    };
    let (base, head) = (
        req.resolve(Side::Base, &req.base)?,
        req.resolve(Side::Head, &req.head)?,
    );
    output::clear_dir(&req.out)?;
    let mut base = req.side(Side::Base, base, say)?;
    let mut head = req.side(Side::Head, head, say)?;
    let binary = |m: &SideMeta| Binary {
        side: m.side,
        label: m.label.clone(),
        path: m.binary.clone(),
    };
    let (b, h) = (binary(&base), binary(&head));
    let scratch = req.out.join("scratch");
    std::fs::create_dir_all(&scratch).at(&scratch)?;
    let started = provenance::now_rfc3339();
    let load_start = output::load_average();
    let alternated =
        runner::alternate(&b, &h, &req.workload, req.rounds, req.warmup, &scratch, say)?;
    let load_end = output::load_average();
    for (m, meta) in [
        (&mut base, &alternated.base_meta),
        (&mut head, &alternated.head_meta),
    ] {
        if let Some(meta) = meta {
            m.reported_commit = meta.git_commit.clone();
            m.reported_dirty = meta.git_dirty;
        }
    }
    let instruction_rows = match (&req.valgrind, &alternated.base_meta) {
        (Some(program), Some(meta)) => {
            let pairs = first_appearance(alternated.rows.iter().map(RoundRow::pair));
            instructions::count(
                [&b, &h],
                &pairs,
                meta,
                &req.workload,
                program,
                &scratch,
                say,
            )?
        }
        (Some(_), None) => {
            return Err(RegressError::Input(
                "the base binary wrote no meta.json: cannot count instructions per pair".into(),
            ))
        }
        _ => Vec::new(),
    };
    let _ = std::fs::remove_dir_all(&scratch);
    let verdict = verdict::judge_rows(&alternated.rows, &instruction_rows, req.options);
    let meta = RegressMeta {
        kind: "tilebench-regress",
        command_line: req.command_line.clone(),
        started,
        finished: provenance::now_rfc3339(),
        base,
        head,
        workload: req.workload.clone(),
        rounds: req.rounds,
        warmup: req.warmup,
        order: "alternating",
        machine: provenance::machine(),
        load_start,
        load_end,
        valgrind,
        bootstrap: Bootstrap::default(),
    };
    let written = output::write_dir(
        &req.out,
        &alternated.rows,
        &instruction_rows,
        &meta,
        &verdict,
    )?;
    Ok(Outcome {
        meta,
        verdict,
        rows: alternated.rows,
        instructions: instruction_rows,
        written,
    })
}

/// Appends both sides' lines to the history at `path`.
pub(crate) fn append_history(outcome: &Outcome, path: &Path) -> Result<(), RegressError> {
    let mut rows = Vec::new();
    for side in [&outcome.meta.base, &outcome.meta.head] {
        rows.extend(output::history_rows(
            side,
            &outcome.meta.finished,
            &outcome.rows,
            &outcome.instructions,
        ));
    }
    crate::results::history::append(path, &rows)?;
    Ok(())
}
