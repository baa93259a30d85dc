//! `tilebench pdb build|list`, and the pattern-database options shared by `solve` (and `run`).

use std::error::Error;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use clap::{Args, Subcommand};

use tilebench::board::{Goal, Size};
use tilebench::heuristic::{HeuristicName, PartitionSpec};
use tilebench::pdb::CacheOptions;
use tilebench::pdb::{self, file};

/// Options for heuristics that use pattern databases.
#[derive(Args, Clone, Debug, Default)]
pub(crate) struct PdbArgs {
    /// Pattern-database cache directory [default: $TILEBENCH_PDB_DIR, else ./pdb-cache].
    #[arg(long, value_name = "DIR")]
    pub pdb_dir: Option<PathBuf>,
    /// Refuse to build missing or invalid pattern databases (error instead).
    #[arg(long)]
    pub no_build: bool,
    /// Custom partition for `-H pdb` or `-H pdbr`: groups split by '/', tiles by ',',
    /// e.g. "1,2,3,4,5,6/7,8,9,10,11,12/13,14,15". The same heuristic is named inline as
    /// `-H pdb:1.2.3.4.5.6/7.8.9.10.11.12/13.14.15` (tiles by dots), as results files name it
    /// and as `max(…)` and lists of several take it.
    #[arg(long, value_name = "GROUPS")]
    pub partition: Option<String>,
}

impl PdbArgs {
    /// The cache options, with a progress bar while a table is built.
    pub fn options(&self) -> CacheOptions {
        let mut o = CacheOptions {
            events: std::sync::Arc::new(super::progress::TableBar::default()),
            ..CacheOptions::default()
        };
        if let Some(d) = &self.pdb_dir {
            o.pdb_dir = d.clone();
        }
        o.build_missing = !self.no_build;
        o
    }

    /// The heuristic named `name`, combined with `--partition` when given.
    pub(crate) fn heuristic_name(&self, name: &str) -> Result<HeuristicName, Box<dyn Error>> {
        Ok(HeuristicName::with_partition(
            name,
            self.partition.as_deref(),
        )?)
    }
}

#[derive(Args)]
pub struct PdbCommand {
    #[command(subcommand)]
    action: Action,
}

#[derive(Subcommand)]
enum Action {
    /// Build the tables of a PDB heuristic (e.g. pdb-663, pdb-78r, pdb with --partition) into
    /// the cache; tables already cached and valid are kept unless --force.
    Build(BuildArgs),
    /// List the cached tables with their sizes and build times. Checks each file's header and
    /// length; --verify also reads every table and checks its checksum (exit 1 if any is bad).
    List {
        /// Pattern-database cache directory [default: $TILEBENCH_PDB_DIR, else ./pdb-cache].
        #[arg(long, value_name = "DIR")]
        pdb_dir: Option<PathBuf>,
        /// Read every table and check its checksum too.
        #[arg(long)]
        verify: bool,
    },
}

#[derive(Args)]
struct BuildArgs {
    /// The heuristic whose tables to build.
    name: String,
    /// Goal: blank-last, blank-first (Korf's), spiral, or an explicit list of tiles.
    #[arg(long, default_value = "blank-last")]
    goal: String,
    /// Board size for custom partitions [default: the named partition's board, else 4x4].
    #[arg(long)]
    size: Option<String>,
    /// Rebuild even if valid tables are cached.
    #[arg(long)]
    force: bool,
    #[command(flatten)]
    pdb: PdbArgs,
}

pub fn run(cmd: PdbCommand) -> Result<ExitCode, Box<dyn Error>> {
    match cmd.action {
        Action::Build(b) => build(&b),
        Action::List { pdb_dir, verify } => list(pdb_dir.unwrap_or_else(pdb::default_dir), verify),
    }
}

fn build(b: &BuildArgs) -> Result<ExitCode, Box<dyn Error>> {
    let (name, args) = (&b.name, &b.pdb);
    let HeuristicName::Pdb(p) = args.heuristic_name(name)? else {
        return Err(format!("'{name}' has no pattern databases to build").into());
    };
    let size = match (&b.size, &p.partition) {
        (Some(s), _) => Size::parse(s)?,
        (None, PartitionSpec::Named(n)) => n.size(),
        (None, PartitionSpec::Custom(_)) => Size::new(4, 4)?,
    };
    let goal = Goal::parse(&b.goal, size)?;
    let partition = p.partition_for(&goal)?;
    let options = args.options();
    let started = Instant::now();
    for (path, table, built) in pdb::build_all(&goal, &partition, &options, b.force)? {
        println!(
            "{} {}  tiles {}  {} entries  {:.1} MB in memory{}  {}",
            if built { "built " } else { "cached" },
            path.display(),
            tilebench::board::join_tiles(&table.tiles),
            table.values.len(),
            table.values.memory_bytes() as f64 / 1e6,
            if table.values.is_packed() {
                " (4 bits an entry)"
            } else {
                ""
            },
            if built {
                format!("{:.2} s", table.build_seconds)
            } else {
                "verified".to_string()
            }
        );
    }
    println!(
        "{} for goal {} ready in {:.2} s",
        name,
        goal.name(),
        started.elapsed().as_secs_f64()
    );
    Ok(ExitCode::SUCCESS)
}

fn list(dir: PathBuf, verify: bool) -> Result<ExitCode, Box<dyn Error>> {
    let entries = match std::fs::read_dir(&dir) {
        Ok(e) => e,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            println!(
                "no pattern databases in {} (directory missing)",
                dir.display()
            );
            return Ok(ExitCode::SUCCESS);
        }
        Err(e) => return Err(format!("{}: {e}", dir.display()).into()),
    };
    let mut paths: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "pdb"))
        .collect();
    paths.sort();
    println!("{}", dir.display());
    println!(
        "{:<40} {:>5} {:<12} {:<22} {:>12} {:>10} {:>9}  check",
        "file", "board", "goal", "tiles", "entries", "MB", "build s"
    );
    let (mut bad, mut unverified) = (0, 0);
    for path in &paths {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let bytes = std::fs::metadata(path).map(|m| m.len()).unwrap_or(0);
        let checked = if verify {
            file::verify(path)
        } else {
            file::read_header(path).and_then(|h| file::length_matches(path, &h).map(|()| h))
        };
        // A table renamed (or copied) under another group's name is never loaded for that group.
        let checked = checked.and_then(|h| {
            let own = Goal::from_tiles(h.size, &h.goal)
                .map(|g| file::file_name(&g, &h.tiles))
                .unwrap_or_default();
            if own == name {
                Ok(h)
            } else {
                Err(tilebench::pdb::PdbError::Mismatch {
                    path: path.to_path_buf(),
                    what: "group than its name says (header)".into(),
                    found: own,
                    wanted: name.clone(),
                })
            }
        });
        match checked {
            Ok(h) => {
                let goal = Goal::from_tiles(h.size, &h.goal)
                    .map(|g| g.name())
                    .unwrap_or_else(|_| "?".into());
                let goal = if goal.len() > 12 {
                    "custom".into()
                } else {
                    goal
                };
                if !verify {
                    unverified += 1;
                }
                println!(
                    "{:<40} {:>5} {:<12} {:<22} {:>12} {:>10.1} {:>9.2}  {}",
                    name,
                    h.size.to_string(),
                    goal,
                    tilebench::board::join_tiles(&h.tiles),
                    h.entries,
                    bytes as f64 / 1e6,
                    h.build_seconds,
                    if verify { "ok" } else { "not verified" }
                );
            }
            Err(e) => {
                bad += 1;
                println!("{name:<40} BAD: {e}");
            }
        }
    }
    if paths.is_empty() {
        println!("(no .pdb files)");
    }
    if unverified > 0 {
        println!(
            "{unverified} of {} files not verified (header and length only); \
             `tilebench pdb list --verify` also checks every checksum",
            paths.len()
        );
    }
    if bad > 0 {
        println!(
            "{bad} of {} files are bad: they are rebuilt on next use (or refused with --no-build)",
            paths.len()
        );
        if verify {
            return Ok(ExitCode::from(1));
        }
    }
    Ok(ExitCode::SUCCESS)
}
