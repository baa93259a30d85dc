//! `tilebench slurm submit`: from the options (or the experiment stored before) to a submitted
//! array job of the shards that still have missing pairs.

use std::path::{Path, PathBuf};
use std::time::Duration;

use super::collect::pending_shards;
use super::error::ClusterError;
use super::slurm::{self, JobOptions, Task};
use crate::experiment::lock::DirLock;
use crate::experiment::{self, ExperimentError, Request};
use crate::path_io::At;
use crate::pdb::CacheOptions;
use crate::results::ExperimentSpec;

/// What `slurm submit` asks for.
#[derive(Debug, Clone)]
pub struct SubmitRequest {
    /// The experiment; may be empty on a directory submitted before (the stored one is used).
    pub experiment: Request,
    /// The results directory (made absolute).
    pub out: PathBuf,
    /// Array tasks = shards (needed the first time; fixed for a directory).
    pub tasks: Option<usize>,
    /// The sbatch options; an empty name becomes `tilebench-<DIR's name>`.
    pub job: JobOptions,
    /// The tables are built here before submitting; the tasks only load them.
    pub cache: CacheOptions,
    /// The tilebench binary the tasks run.
    pub binary: PathBuf,
    /// Threads of each IDA* search in a task (`run --search-threads`).
    pub search_threads: usize,
    /// How often tasks save their searches' progress (`None`: never).
    pub checkpoint_every: Option<Duration>,
    /// Only write the script.
    pub dry_run: bool,
}

/// What [`submit`] did.
#[derive(Debug, Clone)]
pub struct Submission {
    pub out: PathBuf,
    pub script: PathBuf,
    pub pairs: usize,
    pub shards: usize,
    /// Shards with missing pairs (the array tasks to submit); empty when all is done.
    pub pending: Vec<usize>,
    /// sbatch's `--array` for `pending`.
    pub array: String,
    /// The submission, unless nothing was pending or it was a dry run.
    pub submitted: Option<slurm::Submission>,
    /// What each absolute path of job.sh is; all must be on a filesystem every node sees.
    pub shared: Vec<(String, PathBuf)>,
}

/// Reconciles the request with the experiment stored in the directory, builds or verifies every
/// table, writes `DIR/slurm/job.sh` and submits the shards with missing pairs.
pub fn submit(request: SubmitRequest) -> Result<Submission, ClusterError> {
    if request.tasks == Some(0)
        || request.job.cpus_per_task == Some(0)
        || request.search_threads == 0
    {
        return Err(ClusterError::BadOption(
            "--tasks, --jobs, --search-threads and --cpus-per-task must be at least 1".into(),
        ));
    }
    // Every value that goes into job.sh is checked before anything is written.
    let out = std::path::absolute(&request.out).at(&request.out)?;
    slurm::check_path("--out", &out)?;
    let mut job = request.job;
    if job.name.is_empty() {
        job.name = format!(
            "tilebench-{}",
            out.file_name()
                .map_or("experiment".into(), |n| n.to_string_lossy())
        );
    }
    job.validate()?;
    for i in &request.experiment.instances {
        slurm::check_value("--instances", i)?;
    }
    slurm::check_path("--pdb-dir", &request.cache.pdb_dir)?;
    // Everything that can refuse the request runs before anything is written into OUT (the
    // experiment, the tables, the script): a refused submit, dry or not, leaves OUT as it was.
    let stored = ExperimentSpec::load(&out)?;
    let (spec, new) = match stored {
        Some(stored) if !request.experiment.is_given() => {
            if let Some(n) = request.tasks.filter(|&n| n != stored.shards) {
                return Err(ExperimentError::Mismatch {
                    dir: out,
                    what: format!("shards: {} before, {n} now", stored.shards),
                }
                .into());
            }
            (stored, false)
        }
        stored => {
            let tasks = request
                .tasks
                .or(stored.as_ref().map(|s| s.shards))
                .ok_or_else(|| {
                    ClusterError::BadOption("--tasks N is needed for a new experiment".into())
                })?;
            let chosen = request.experiment.read()?;
            let spec = ExperimentSpec::new(&chosen.exp, tasks);
            if let Some(stored) = stored {
                let d = stored.differences(&spec, true);
                if !d.is_empty() {
                    return Err(ExperimentError::Mismatch {
                        dir: out,
                        what: crate::experiment::shard::joined(&d),
                    }
                    .into());
                }
            }
            (spec, true)
        }
    };
    let exp = spec.experiment()?;

    let mut cache = request.cache;
    cache.pdb_dir = std::path::absolute(&cache.pdb_dir).at(&cache.pdb_dir)?;
    experiment::prepare_all(&exp, &cache)?;

    let task = Task {
        binary: request.binary,
        pdb_dir: cache.pdb_dir.clone(),
        search_threads: request.search_threads,
        checkpoint_every: request.checkpoint_every,
    };
    let text = slurm::job_script(&out, &spec, &job, &task)?;
    let shared = shared_paths(&out, &spec, &task);

    // One writer of OUT at a time, from here to the submission (the stored experiment is
    // compared again under the lock).
    let _lock = DirLock::acquire(&out).map_err(ExperimentError::from)?;
    if new {
        spec.establish(&out)?;
    } else if ExperimentSpec::load(&out)?.as_ref() != Some(&spec) {
        return Err(ExperimentError::Mismatch {
            dir: out,
            what: "experiment.json changed while this submit ran".into(),
        }
        .into());
    }
    let script = slurm::write_job(&out, &text)?;
    let pending = pending_shards(&out, &spec)?;
    let array = slurm::array_spec(&pending);
    let submitted = if pending.is_empty() || request.dry_run {
        None
    } else {
        Some(slurm::submit(&out, &script, &pending)?)
    };
    Ok(Submission {
        pairs: exp.pairs().len(),
        shards: spec.shards,
        out,
        script,
        pending,
        array,
        submitted,
        shared,
    })
}

/// The absolute paths the array tasks use, which every node must see under the same name: the
/// binary, the results directory, the pattern-database cache and the instance files.
fn shared_paths(out: &Path, spec: &ExperimentSpec, task: &Task) -> Vec<(String, PathBuf)> {
    let mut paths = vec![
        ("tilebench binary".to_string(), task.binary.clone()),
        ("results directory (--out)".to_string(), out.to_path_buf()),
        (
            "pattern databases (--pdb-dir)".to_string(),
            task.pdb_dir.clone(),
        ),
    ];
    for i in &spec.instances {
        let file = match i.rsplit_once(':') {
            _ if Path::new(i).is_file() => i.as_str(),
            Some((file, range)) if !range.contains('/') => file,
            _ => i.as_str(),
        };
        paths.push(("instances".to_string(), PathBuf::from(file)));
    }
    paths
}

/// Paths under a node-local folder (`/tmp`, `/dev/shm`, `/run`): other nodes do not see them.
pub(crate) fn node_local(path: &Path) -> bool {
    ["/tmp", "/var/tmp", "/dev/shm", "/run"]
        .iter()
        .any(|local| path.starts_with(local))
}
