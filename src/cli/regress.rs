//! `tilebench regress`.

use std::error::Error;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, ValueEnum};

use tilebench::regress::build::{default_root, BuildCache};
use tilebench::regress::output;
use tilebench::regress::runner::Workload;
use tilebench::regress::session::{self, Request, SideSpec};
use tilebench::regress::verdict::Options;

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum OutFormat {
    Md,
    Json,
}

#[derive(Args)]
pub struct RegressArgs {
    /// The revision to compare against (a commit, branch or tag; anything git rev-parse takes).
    #[arg(long, value_name = "REV", required_unless_present = "base_bin")]
    base: Option<String>,
    /// The revision judged. Default: the working tree (its HEAD when nothing is changed, else
    /// the checkout as it is, named "working tree" with a hash of the changes).
    #[arg(long, value_name = "REV", conflicts_with = "head_bin")]
    head: Option<String>,
    /// Use this binary as the base instead of building a revision.
    #[arg(long, value_name = "PATH", conflicts_with = "base")]
    base_bin: Option<PathBuf>,
    /// Use this binary as the head instead of building one.
    #[arg(long, value_name = "PATH")]
    head_bin: Option<PathBuf>,
    /// The git repository (a tilebench checkout, or a crate with a `tilebench` binary).
    #[arg(long, value_name = "DIR", default_value = ".")]
    repo: PathBuf,
    /// The binary target to build.
    #[arg(long, value_name = "NAME", default_value = "tilebench")]
    bin: String,
    /// The build cache (default $XDG_CACHE_HOME/tilebench/builds, else ~/.cache/tilebench/builds).
    #[arg(long, value_name = "DIR")]
    build_dir: Option<PathBuf>,
    /// Instance files of the workload, comma-separated, as `run --instances` takes them
    /// (FILE:N, FILE:A-B, FILE:2,4,10-12). Default: instances/regress-korf8.txt.
    #[arg(long, value_delimiter = ',', value_name = "FILE[:N,A-B,…]")]
    instances: Vec<String>,
    /// Heuristics of the workload (IDA*), as `run -H` takes them. Default:
    /// manhattan,linear-conflict,pdb-663.
    #[arg(long, short = 'H', value_name = "H")]
    heuristics: Vec<String>,
    /// Measured rounds (each: one run of the workload by each side).
    #[arg(long, default_value_t = 10)]
    rounds: u32,
    /// Rounds run first and thrown away (caches, page cache, CPU frequency).
    #[arg(long, default_value_t = 1)]
    warmup: u32,
    /// Percent of time ratio that is no change, beyond the 95 % interval.
    #[arg(long, default_value_t = 3.0)]
    threshold: f64,
    /// Also count instructions under valgrind (cachegrind), one round; judged against
    /// --instructions-threshold.
    #[arg(long)]
    instructions: bool,
    /// Percent of instruction ratio that is no change.
    #[arg(long, default_value_t = 1.0)]
    instructions_threshold: f64,
    /// The valgrind program.
    #[arg(long, value_name = "PATH", default_value = "valgrind")]
    valgrind: String,
    /// Results directory (default results/regress-<base>-<head>).
    #[arg(long)]
    out: Option<PathBuf>,
    /// Where the report goes (default reports/<name of the results directory>).
    #[arg(long, value_name = "DIR")]
    report: Option<PathBuf>,
    /// Write no report (overrides --report).
    #[arg(long)]
    no_report: bool,
    /// What to print: the Markdown verdict, or JSON for bots.
    #[arg(long, value_enum, default_value = "md")]
    format: OutFormat,
    /// The history file both sides' lines are appended to (default: as `run` does, history.csv
    /// inside a directory given with --out, beside the default one: results/history.csv).
    #[arg(long, value_name = "FILE")]
    history: Option<PathBuf>,
    /// Append nothing to the history (overrides --history).
    #[arg(long)]
    no_history: bool,
}

fn short(s: &str) -> String {
    s.chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '.')
        .take(12)
        .collect()
}

/// Prints the verdict; exit 0 when nothing regressed, 1 when something did (2 on bad input).
pub fn run(args: RegressArgs) -> Result<ExitCode, Box<dyn Error>> {
    let side = |rev: &Option<String>, bin: &Option<PathBuf>, default: SideSpec| match (rev, bin) {
        (_, Some(b)) => SideSpec::Binary(b.clone()),
        (Some(r), None) => SideSpec::Rev(r.clone()),
        (None, None) => default,
    };
    let base = side(&args.base, &args.base_bin, SideSpec::WorkingTree);
    let head = side(&args.head, &args.head_bin, SideSpec::WorkingTree);
    let name = |s: &SideSpec| match s {
        SideSpec::Rev(r) => short(r),
        SideSpec::WorkingTree => "worktree".into(),
        SideSpec::Binary(_) => "bin".into(),
    };
    let out = args.out.clone().unwrap_or_else(|| {
        PathBuf::from("results").join(format!("regress-{}-{}", name(&base), name(&head)))
    });
    let defaults = Workload::default();
    let workload = Workload {
        instances: if args.instances.is_empty() {
            defaults.instances
        } else {
            tilebench::instances::join_selections(&args.instances)
        },
        heuristics: if args.heuristics.is_empty() {
            defaults.heuristics
        } else {
            args.heuristics.clone()
        },
    };
    let request = Request {
        repo: args.repo.clone(),
        base,
        head,
        bin: args.bin.clone(),
        cache: BuildCache::new(args.build_dir.clone().unwrap_or_else(default_root)),
        workload,
        rounds: args.rounds,
        warmup: args.warmup,
        options: Options {
            threshold_pct: args.threshold,
            instructions_threshold_pct: args.instructions_threshold,
        },
        valgrind: args.instructions.then(|| args.valgrind.clone()),
        out: out.clone(),
        command_line: std::env::args().collect(),
    };
    let out_shown = out.display().to_string();
    ctrlc::set_handler(move || {
        // The handler serves SIGINT, SIGTERM and SIGHUP alike; the check cleared the results
        // directory's files before its builds, so no earlier verdict is left to be read as this
        // one's.
        eprintln!(
            "\ntilebench regress: stopped by a signal: no verdict; {out_shown} holds no earlier \
             check's either"
        );
        std::process::exit(130);
    })?;
    let mut say = |s: &str| eprintln!("tilebench regress: {s}");
    let outcome = session::run(&request, &mut say)?;
    if !args.no_history {
        let path = args
            .history
            .clone()
            .unwrap_or_else(|| tilebench::results::history::of_run(&out, args.out.is_some()));
        session::append_history(&outcome, &path)?;
        say(&format!("history: appended to {}", path.display()));
    }
    if !args.no_report {
        let dir = args
            .report
            .clone()
            .unwrap_or_else(|| tilebench::report::default_out_dir(&out));
        let written = tilebench::regress::report::write(&outcome.meta, &outcome.verdict, &dir)?;
        for p in written {
            say(&format!("wrote {}", p.display()));
        }
    }
    say(&format!("results in {}", out.display()));
    match args.format {
        OutFormat::Md => print!("{}", output::markdown(&outcome.meta, &outcome.verdict)),
        OutFormat::Json => println!("{}", output::json(&outcome.meta, &outcome.verdict)?),
    }
    Ok(ExitCode::from(u8::from(!outcome.verdict.passed())))
}
