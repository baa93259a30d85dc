//! The `tilebench` command line: argument parsing only; the work is in the library.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod cli;

/// Optimal sliding-tile puzzle search and experiments.
#[derive(Parser)]
#[command(name = "tilebench", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Solve one board optimally and print the moves and per-iteration statistics.
    Solve(cli::solve::SolveArgs),
    /// Compare two results directories run by run: node counts, times, statuses, lengths.
    /// Exit 0 when nothing regressed, 1 on a regression, 2 on bad input.
    Compare(cli::compare::CompareArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Solve(args) => cli::solve::run(args),
        Command::Compare(args) => cli::compare::run(args),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("tilebench: error: {e}");
            ExitCode::from(2)
        }
    }
}
