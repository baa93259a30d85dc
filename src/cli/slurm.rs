//! `tilebench slurm submit`.

use std::error::Error;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::{Args, Subcommand};

use super::pdb::PdbArgs;
use super::run::ExperimentArgs;
use tilebench::cluster::slurm::{self, JobOptions, Task};
use tilebench::cluster::{pending_shards, ClusterError, ExperimentSpec};
use tilebench::limits;
use tilebench::solver::{HeuristicName, Prepared};

#[derive(Args)]
pub struct SlurmCommand {
    #[command(subcommand)]
    action: Action,
}

#[derive(Subcommand)]
enum Action {
    /// Write DIR/slurm/job.sh (an sbatch array script, one task per shard) and submit it.
    /// On a DIR submitted before, submits only the shards with missing pairs.
    Submit(SubmitArgs),
}

#[derive(Args)]
struct SubmitArgs {
    /// The experiment (as for `run`; a custom PDB partition is given as -H pdb:GROUPS here).
    /// On a DIR submitted before, may be left out: the stored experiment is used.
    #[command(flatten)]
    experiment: ExperimentArgs,
    /// Pattern-database cache [default: $TILEBENCH_PDB_DIR, else ./pdb-cache]. Missing tables
    /// are built here before submitting; the tasks only load them.
    #[arg(long, value_name = "DIR")]
    pdb_dir: Option<PathBuf>,
    /// Refuse to build missing pattern databases (error instead).
    #[arg(long)]
    no_build: bool,
    /// Results directory: shards go to DIR/shards/I/, Slurm files to DIR/slurm/.
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
    /// Number of array tasks = shards (required the first time; fixed for a DIR).
    #[arg(long, value_name = "N", value_parser = limits::shards)]
    tasks: Option<usize>,
    /// Threads per task [default: --cpus-per-task, else 1].
    #[arg(long, short = 'j', value_parser = limits::jobs)]
    jobs: Option<usize>,
    /// Slurm partition (sbatch --partition).
    #[arg(long, short = 'p', value_name = "P")]
    partition: Option<String>,
    /// Time limit per task (sbatch --time), e.g. 2:00:00.
    #[arg(long, value_name = "T")]
    time: Option<String>,
    /// Memory per task (sbatch --mem), e.g. 4G.
    #[arg(long, value_name = "M")]
    mem: Option<String>,
    /// CPUs per task (sbatch --cpus-per-task) [default: --jobs].
    #[arg(long, value_name = "C", value_parser = limits::jobs)]
    cpus_per_task: Option<usize>,
    /// A further sbatch option, written (quoted) as an #SBATCH line; one option per use
    /// (repeatable), e.g. --sbatch-arg=--account=lab.
    #[arg(long, value_name = "ARG", allow_hyphen_values = true)]
    sbatch_arg: Vec<String>,
    /// Job name [default: tilebench-<DIR's name>].
    #[arg(long)]
    job_name: Option<String>,
    /// Only write the script (and build the PDBs); print the sbatch command.
    #[arg(long)]
    dry_run: bool,
    /// Wait until the job has left the queue (polls squeue).
    #[arg(long)]
    wait: bool,
    /// With --wait: give up after this many seconds (exit status 3).
    #[arg(long, value_name = "SECS", requires = "wait")]
    wait_timeout: Option<u64>,
}

pub fn run(cmd: SlurmCommand) -> Result<ExitCode, Box<dyn Error>> {
    match cmd.action {
        Action::Submit(args) => submit(args),
    }
}

fn submit(args: SubmitArgs) -> Result<ExitCode, Box<dyn Error>> {
    // Every value that goes into job.sh is checked before anything is written.
    let out = std::path::absolute(&args.out)?;
    slurm::check_path("--out", &out)?;
    let job = JobOptions {
        name: args.job_name.clone().unwrap_or_else(|| {
            format!(
                "tilebench-{}",
                out.file_name()
                    .map_or("experiment".into(), |n| n.to_string_lossy())
            )
        }),
        partition: args.partition.clone(),
        time: args.time.clone(),
        mem: args.mem.clone(),
        cpus_per_task: args.cpus_per_task.or(args.jobs),
        extra: args.sbatch_arg.clone(),
    };
    job.validate()?;
    for i in &args.experiment.instances {
        slurm::check_value("--instances", i)?;
    }
    if let Some(d) = &args.pdb_dir {
        slurm::check_path("--pdb-dir", d)?;
    }
    std::fs::create_dir_all(&out).map_err(|e| format!("{}: {e}", out.display()))?;
    let pdb = PdbArgs {
        pdb_dir: args.pdb_dir.clone(),
        no_build: args.no_build,
        partition: None,
    };
    let e = &args.experiment;
    let given = !e.instances.is_empty()
        || !e.heuristics.is_empty()
        || e.node_limit.is_some()
        || e.time_limit.is_some();
    let spec = match ExperimentSpec::load(&out)? {
        Some(stored) if !given => {
            if let Some(n) = args.tasks.filter(|&n| n != stored.shards) {
                return Err(ClusterError::Mismatch {
                    dir: out,
                    what: format!("{} shards vs {n}", stored.shards),
                }
                .into());
            }
            stored
        }
        stored => {
            let tasks = args
                .tasks
                .or(stored.map(|s| s.shards))
                .ok_or("--tasks N is needed for a new experiment")?;
            let chosen = e.read(&pdb)?;
            let spec = ExperimentSpec::new(&chosen.exp, e.node_limit, chosen.time_limit, tasks);
            spec.establish(&out)?;
            spec
        }
    };
    let exp = spec.experiment()?;

    // Build or verify every table now, once, so the tasks only load them.
    let mut options = pdb.options();
    options.pdb_dir = std::path::absolute(&options.pdb_dir)?;
    let mut goals = Vec::new();
    for (_, set) in &exp.sets {
        if !goals.contains(&set.goal) {
            goals.push(set.goal.clone());
        }
    }
    for h in &exp.heuristics {
        for goal in &goals {
            let _held =
                Prepared::new(h, goal, &options).map_err(|source| ClusterError::Heuristic {
                    heuristic: h.to_string(),
                    goal: format!("{} ({})", goal.name(), goal.size()),
                    source: Box::new(source),
                })?;
            // The tasks only load: every table must be on disk, not just in this process.
            if let HeuristicName::Pdb(p) = h {
                tilebench::pdb::build_all(goal, &p.partition_for(goal)?, &options, false)?;
            }
        }
    }

    let task = Task {
        binary: std::env::current_exe()?,
        pdb_dir: options.pdb_dir.clone(),
    };
    let script = slurm::write_job(&out, &slurm::job_script(&out, &spec, &job, &task)?)?;
    let pending = pending_shards(&out, &spec)?;
    eprintln!(
        "tilebench: {} pairs in {} shards; wrote {}",
        tilebench::runner::all_pairs(&exp).len(),
        spec.shards,
        script.display()
    );
    if pending.is_empty() {
        eprintln!(
            "tilebench: every pair is done; nothing to submit. Merge with: tilebench collect {}",
            out.display()
        );
        return Ok(ExitCode::SUCCESS);
    }
    let array = slurm::array_spec(&pending);
    if args.dry_run {
        eprintln!(
            "tilebench: dry run, nothing submitted; submit with: sbatch --array={array} {}",
            script.display()
        );
        return Ok(ExitCode::SUCCESS);
    }
    let submission = slurm::submit(&out, &script, &pending)?;
    eprintln!(
        "tilebench: submitted job {} (array tasks {array}); logs in {}",
        submission.job_id,
        slurm::slurm_dir(&out).join(slurm::LOGS_DIR).display()
    );
    if args.wait {
        let timeout = args.wait_timeout.map(Duration::from_secs);
        match slurm::wait(&submission.job_id, timeout, Duration::from_secs(2)) {
            Ok(()) => eprintln!("tilebench: job {} finished", submission.job_id),
            Err(e @ slurm::SlurmError::WaitTimeout { .. }) => {
                eprintln!("tilebench: {e}");
                return Ok(ExitCode::from(3));
            }
            Err(e) => return Err(e.into()),
        }
    }
    eprintln!(
        "tilebench: when the job is done, merge with: tilebench collect {}",
        out.display()
    );
    Ok(ExitCode::SUCCESS)
}
