//! `tilebench slurm submit`.

use std::error::Error;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::{Args, Subcommand};

use super::pdb::PdbArgs;
use super::run::{CheckpointArgs, ExperimentArgs};
use tilebench::cluster::slurm::{self, JobOptions};
use tilebench::cluster::{self, SubmitRequest};
use tilebench::limits;

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
    /// Pairs at once per task [default: --cpus-per-task / --search-threads, else 1].
    #[arg(long, short = 'j', value_parser = limits::jobs)]
    jobs: Option<usize>,
    /// Threads of each IDA* search (parallel IDA*, same counts as one thread): for a few long
    /// pairs, such as a 24-puzzle campaign's.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = limits::jobs)]
    search_threads: usize,
    #[command(flatten)]
    checkpoint: CheckpointArgs,
    /// Slurm partition (sbatch --partition).
    #[arg(long, short = 'p', value_name = "P")]
    partition: Option<String>,
    /// Time limit per task (sbatch --time), e.g. 2:00:00.
    #[arg(long, value_name = "T")]
    time: Option<String>,
    /// Memory per task (sbatch --mem), e.g. 4G.
    #[arg(long, value_name = "M")]
    mem: Option<String>,
    /// CPUs per task (sbatch --cpus-per-task) [default: --jobs × --search-threads].
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
    let pdb = PdbArgs {
        pdb_dir: args.pdb_dir.clone(),
        no_build: args.no_build,
        partition: None,
    };
    let s = cluster::submit(SubmitRequest {
        experiment: args.experiment.request(&pdb),
        out: args.out.clone(),
        tasks: args.tasks,
        job: JobOptions {
            name: args.job_name.clone().unwrap_or_default(),
            partition: args.partition.clone(),
            time: args.time.clone(),
            mem: args.mem.clone(),
            cpus_per_task: args
                .cpus_per_task
                .or_else(|| match (args.jobs, args.search_threads) {
                    (None, 1) => None,
                    (jobs, threads) => Some(jobs.unwrap_or(1) * threads),
                }),
            extra: args.sbatch_arg.clone(),
        },
        cache: pdb.options(),
        binary: std::env::current_exe()?,
        search_threads: args.search_threads,
        checkpoint_every: args.checkpoint.every(),
        dry_run: args.dry_run,
    })?;
    eprintln!(
        "tilebench: {} pairs in {} shards; wrote {}",
        s.pairs,
        s.shards,
        s.script.display()
    );
    // job.sh names these by absolute path: the nodes must see them under the same names.
    eprintln!("tilebench: job.sh uses these paths; each must be on a filesystem every node sees:");
    for (what, path) in &s.shared {
        let local = if cluster::submit::node_local(path) {
            "   <- node-local on most clusters: other nodes will not see it"
        } else {
            ""
        };
        eprintln!("  {what}: {}{local}", path.display());
    }
    let out = s.out.display();
    if s.pending.is_empty() {
        eprintln!(
            "tilebench: every pair is done; nothing to submit. Merge with: tilebench collect {out}"
        );
        return Ok(ExitCode::SUCCESS);
    }
    let Some(submission) = s.submitted else {
        eprintln!(
            "tilebench: dry run, nothing submitted; submit with: sbatch --array={} {}",
            s.array,
            s.script.display()
        );
        return Ok(ExitCode::SUCCESS);
    };
    eprintln!(
        "tilebench: submitted job {} (array tasks {}); logs in {}",
        submission.job_id,
        s.array,
        slurm::slurm_dir(&s.out).join(slurm::LOGS_DIR).display()
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
    eprintln!("tilebench: when the job is done, merge with: tilebench collect {out}");
    Ok(ExitCode::SUCCESS)
}
