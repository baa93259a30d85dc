//! The `tilebench` command line, one file per subcommand: its arguments and the calls into the
//! rest of the library; argument parsing only, the work is elsewhere.
//!
//! The doc comments of the argument structs are `--help` text, printed as written, so their
//! `<placeholders>` are not HTML.
#![allow(rustdoc::invalid_html_tags)]

pub mod collect;
pub mod compare;
pub mod gen;
pub mod pdb;
pub mod plan;
pub mod plot;
pub mod predict;
pub mod progress;
pub mod regress;
pub mod report;
pub mod run;
pub mod slurm;
pub mod solve;

use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};

use tilebench::heuristic::{registered, Registry};

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
    Solve(solve::SolveArgs),
    /// Predict IDA*'s nodes per threshold from the heuristic's distribution (Korf, Reid &
    /// Edelkamp 2001), without searching; CSV of bound → predicted nodes.
    Predict(predict::PredictArgs),
    /// Generate a seeded set of random boards in the instance-file format.
    Gen(gen::GenArgs),
    /// Run every (instance, method) pair of an experiment (a method: an algorithm with a
    /// heuristic, or an outside solver) into a results directory.
    Run(run::RunArgs),
    /// What an experiment will cost before it runs: nodes per pair (published counts, else a
    /// prediction for each instance's start), time at this machine's measured speed, and a
    /// Slurm shape.
    Plan(plan::PlanArgs),
    /// Build and list cached pattern databases.
    Pdb(pdb::PdbCommand),
    /// Draw comparison plots (SVG and PNG) of a results directory.
    Plot(plot::PlotArgs),
    /// Write the report of a results directory (summary tables, published comparisons, plots):
    /// report.md and report.html by default, LaTeX with --format.
    Report(report::ReportArgs),
    /// Compare two results directories run by run: node counts, times, statuses, lengths.
    /// Exit 0 when nothing regressed, 1 on a regression, 2 on bad input.
    Compare(compare::CompareArgs),
    /// Is a revision slower than another? Builds both (cached per commit), runs one workload
    /// with them alternately on this machine and judges the paired time ratios with 95 %
    /// intervals (and instruction counts under valgrind with --instructions); node counts must
    /// not change. Exit 0 when nothing regressed, 1 when something did, 2 on bad input.
    Regress(regress::RegressArgs),
    /// Run an experiment as a Slurm array job, one shard per task.
    Slurm(slurm::SlurmCommand),
    /// Merge the shards of an experiment (run with --shard or on Slurm) into one results directory.
    Collect(collect::CollectArgs),
}

/// The `tilebench` command line with the built-in heuristics: parses the arguments, runs the
/// subcommand, and gives the exit status (2 on an error, printed to stderr).
pub fn main() -> ExitCode {
    main_with(Registry::builtin())
}

/// The `tilebench` command line with the heuristics of `registry` besides the built-in ones:
/// every subcommand takes their names (docs/writing-a-heuristic.md). A program of its own calls
/// this as its whole `main`:
///
/// ```no_run
/// # use tilebench::heuristic::{Manhattan, Registry};
/// fn main() -> std::process::ExitCode {
///     tilebench::cli::main_with(Registry::builtin().with::<Manhattan>("my-manhattan"))
/// }
/// ```
pub fn main_with(registry: Registry) -> ExitCode {
    if let Err(e) = registry.install() {
        eprintln!("tilebench: error: {e}");
        return ExitCode::from(2);
    }
    // Rust ignores SIGPIPE, so printing into a closed pipe (`tilebench solve … | head -3`) would
    // panic; a command-line tool should end quietly instead, as others do.
    #[cfg(unix)]
    // SAFETY: called first in main, before any other thread exists; SIG_DFL is a valid handler.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    let command = with_registered_names(Cli::command(), &registered::installed_names());
    let cli = Cli::from_arg_matches(&command.get_matches()).unwrap_or_else(|e| e.exit());
    let result = match cli.command {
        Command::Solve(args) => solve::run(args),
        Command::Gen(args) => gen::run(args),
        Command::Predict(args) => predict::run(args),
        Command::Run(args) => run::run(args),
        Command::Plan(args) => plan::run(args),
        Command::Pdb(args) => pdb::run(args),
        Command::Plot(args) => plot::run(args),
        Command::Report(args) => report::run(args),
        Command::Compare(args) => compare::run(args),
        Command::Regress(args) => regress::run(args),
        Command::Slurm(args) => slurm::run(args),
        Command::Collect(args) => collect::run(args),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("tilebench: error: {e}");
            ExitCode::from(2)
        }
    }
}

/// `command` with every `-H` option's help naming the registered heuristics too: the help is
/// written for the built-in ones, and a program of its own ([`main_with`]) takes more.
fn with_registered_names(command: clap::Command, names: &[&str]) -> clap::Command {
    if names.is_empty() {
        return command;
    }
    let extra = format!(" Registered by this program: {}.", names.join(", "));
    let ids: Vec<String> = command
        .get_arguments()
        .filter(|a| a.get_short() == Some('H'))
        .map(|a| a.get_id().to_string())
        .collect();
    let mut command = ids.iter().fold(command, |c, id| {
        c.mut_arg(id, |a| {
            let help = a.get_help().map(ToString::to_string).unwrap_or_default();
            // clap drops a doc comment's last full stop: the sentence before ours needs one.
            let stop = if help.is_empty() || help.ends_with('.') {
                ""
            } else {
                "."
            };
            a.help(format!("{help}{stop}{extra}"))
        })
    });
    let subcommands: Vec<String> = command
        .get_subcommands()
        .map(|c| c.get_name().to_string())
        .collect();
    for sub in subcommands {
        command = command.mut_subcommand(sub, |c| with_registered_names(c, names));
    }
    command
}

#[cfg(test)]
mod tests {
    /// clap checks option names for clashes only in debug builds; check them in every build.
    #[test]
    fn the_command_line_is_consistent() {
        use clap::CommandFactory;
        super::Cli::command().debug_assert();
    }

    /// A program with heuristics of its own lists them in every `-H` help (`solve`, `run`,
    /// `slurm submit`, …), and leaves other options alone.
    #[test]
    fn registered_heuristics_are_in_the_help() {
        use clap::CommandFactory;
        let mut command = super::with_registered_names(super::Cli::command(), &["misplaced"]);
        let mut help = |path: &[&str]| {
            let mut c = &mut command;
            for p in path {
                c = c.find_subcommand_mut(p).unwrap();
            }
            c.render_help().to_string()
        };
        for path in [&["solve"][..], &["run"], &["predict"], &["slurm", "submit"]] {
            let h = help(path);
            assert_eq!(
                h.matches("Registered by this program: misplaced.").count(),
                1,
                "{path:?}: {h}"
            );
            // The sentence before it ends with its full stop.
            assert!(!h.contains("alone Registered"), "{path:?}: {h}");
            assert!(
                !h.contains(" Registered by") || h.contains(". Registered by"),
                "{h}"
            );
        }
        assert!(!help(&["gen"]).contains("misplaced"));
        let plain = super::with_registered_names(super::Cli::command(), &[]);
        let mut plain = plain;
        let solve = plain.find_subcommand_mut("solve").unwrap();
        assert!(!solve.render_help().to_string().contains("Registered"));
    }
}
