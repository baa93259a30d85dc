//! The `tilebench` command line: argument parsing only; the work is in the library.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod cli;

/// Optimal sliding-tile puzzle search and experiments.
#[derive(Parser)]
#[command(name = "tilebench", version = env!("TILEBENCH_VERSION"), about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Solve one board optimally and print the moves and per-iteration statistics.
    Solve(cli::solve::SolveArgs),
    /// Predict IDA*'s nodes per threshold from the heuristic's distribution (Korf, Reid &
    /// Edelkamp 2001), without searching; CSV of bound → predicted nodes.
    Predict(cli::predict::PredictArgs),
    /// Generate a seeded set of random boards in the instance-file format.
    Gen(cli::gen::GenArgs),
    /// Run every (instance, heuristic) pair of an experiment into a results directory.
    Run(cli::run::RunArgs),
    /// What an experiment will cost before it runs: nodes per pair (published counts, else a
    /// KRE prediction), time at this machine's measured speed, and a Slurm shape.
    Plan(cli::plan::PlanArgs),
    /// Build and list cached pattern databases.
    Pdb(cli::pdb::PdbCommand),
    /// Draw comparison plots (SVG and PNG) of a results directory.
    Plot(cli::plot::PlotArgs),
    /// Write report.md (summary tables, published comparison, plots) for a results directory.
    Report(cli::report::ReportArgs),
    /// Compare two results directories run by run: node counts, times, statuses, lengths.
    /// Exit 0 when nothing regressed, 1 on a regression, 2 on bad input.
    Compare(cli::compare::CompareArgs),
    /// Is a revision slower than another? Builds both (cached per commit), runs one workload
    /// with them alternately on this machine and judges the paired time ratios with 95 %
    /// intervals (and instruction counts under valgrind with --instructions); node counts must
    /// not change. Exit 0 when nothing regressed, 1 when something did, 2 on bad input.
    Regress(cli::regress::RegressArgs),
    /// Run an experiment as a Slurm array job, one shard per task.
    Slurm(cli::slurm::SlurmCommand),
    /// Merge the shards of an experiment (run with --shard or on Slurm) into one results directory.
    Collect(cli::collect::CollectArgs),
}

fn main() -> ExitCode {
    // Rust ignores SIGPIPE, so printing into a closed pipe (`tilebench solve … | head -3`) would
    // panic; a command-line tool should end quietly instead, as others do.
    #[cfg(unix)]
    // SAFETY: called first in main, before any other thread exists; SIG_DFL is a valid handler.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Solve(args) => cli::solve::run(args),
        Command::Gen(args) => cli::gen::run(args),
        Command::Predict(args) => cli::predict::run(args),
        Command::Run(args) => cli::run::run(args),
        Command::Plan(args) => cli::plan::run(args),
        Command::Pdb(args) => cli::pdb::run(args),
        Command::Plot(args) => cli::plot::run(args),
        Command::Report(args) => cli::report::run(args),
        Command::Compare(args) => cli::compare::run(args),
        Command::Regress(args) => cli::regress::run(args),
        Command::Slurm(args) => cli::slurm::run(args),
        Command::Collect(args) => cli::collect::run(args),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("tilebench: error: {e}");
            ExitCode::from(2)
        }
    }
}

#[cfg(test)]
mod tests {
    /// clap checks option names for clashes only in debug builds; check them in every build.
    #[test]
    fn the_command_line_is_consistent() {
        use clap::CommandFactory;
        super::Cli::command().debug_assert();
    }
}
