//! `tilebench collect`.

use std::collections::BTreeMap;
use std::error::Error;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use tilebench::cluster::{collect, Gap};

#[derive(Args)]
pub struct CollectArgs {
    /// The results directory given to `run --shard` or `slurm submit` as --out.
    dir: PathBuf,
}

pub fn run(args: CollectArgs) -> Result<ExitCode, Box<dyn Error>> {
    let dir = &args.dir;
    let c = collect(dir, std::env::args().collect())?;
    eprintln!(
        "tilebench: collected {} of {} pairs into {}",
        c.present,
        c.pairs,
        dir.display()
    );
    if c.complete() {
        return Ok(ExitCode::SUCCESS);
    }
    // Grouped by shard, so each log is named once.
    let mut by_shard: BTreeMap<usize, Vec<&Gap>> = BTreeMap::new();
    for g in c.missing.iter().chain(&c.failed) {
        by_shard.entry(g.shard).or_default().push(g);
    }
    eprintln!(
        "tilebench: {} missing and {} failed pairs:",
        c.missing.len(),
        c.failed.len()
    );
    for (shard, gaps) in &by_shard {
        let log = match &gaps[0].log {
            Some(l) => format!("Slurm log {}", l.display()),
            None => "never submitted to Slurm".to_string(),
        };
        eprintln!("  shard {shard} ({log}):");
        for g in gaps {
            let (set, id, h) = (&g.key.instance_set, &g.key.instance_id, g.key.label());
            match &g.status {
                None => eprintln!("    MISSING {set} #{id} with {h}"),
                Some(s) => eprintln!("    {} {set} #{id} with {h}", s.as_str().to_uppercase()),
            }
        }
    }
    if !c.missing.is_empty() {
        eprintln!(
            "tilebench: run the missing pairs with `tilebench slurm submit --out {}` (only the \
             shards above are submitted), or `tilebench run --out {} --shard I/N --resume` with \
             the experiment's options; then collect again",
            dir.display(),
            dir.display()
        );
    }
    Ok(ExitCode::from(1))
}
