//! Records, at build time, what `meta.json` reports about the binary: the compiler's version and
//! the commit it was built from, with a dirty flag (tracked files outside `results/` and
//! `reports/` differing from the commit). A binary not rebuilt after `git pull` thus still
//! reports the commit it was built from.

use std::path::Path;
use std::process::Command;

#[path = "build/git.rs"]
mod git;

fn main() {
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let version = Command::new(rustc)
        .arg("--version")
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_else(|| "unknown".into());
    println!("cargo:rustc-env=TILEBENCH_RUSTC_VERSION={version}");

    let root = std::env::var("CARGO_MANIFEST_DIR").unwrap_or_else(|_| ".".into());
    let root = Path::new(&root);
    let state = git::state(root);
    // `tilebench --version`: the package version and the commit ("unknown" without git).
    let pkg = std::env::var("CARGO_PKG_VERSION").unwrap_or_default();
    let commit = match (&state.commit, state.dirty) {
        (Some(c), Some(true)) => format!("commit {c}, with uncommitted changes"),
        (Some(c), _) => format!("commit {c}"),
        (None, _) => "commit unknown".to_string(),
    };
    println!("cargo:rustc-env=TILEBENCH_VERSION={pkg} ({commit})");
    println!(
        "cargo:rustc-env=TILEBENCH_GIT_COMMIT={}",
        state.commit.clone().unwrap_or_default()
    );
    println!(
        "cargo:rustc-env=TILEBENCH_GIT_DIRTY={}",
        state.dirty.map(|d| d.to_string()).unwrap_or_default()
    );
    // Run again when the commit moves, or when a tracked file may have changed
    // (every top-level entry but the outputs, the build directory and caches).
    for path in &state.watch {
        println!("cargo:rerun-if-changed={}", path.display());
    }
    if let Ok(entries) = std::fs::read_dir(root) {
        for entry in entries.flatten() {
            let name = entry.file_name();
            let name = name.to_string_lossy();
            let skip = ["target", "results", "reports", ".git"].contains(&name.as_ref())
                || name.starts_with("pdb-cache");
            if !skip {
                println!("cargo:rerun-if-changed={}", entry.path().display());
            }
        }
    }
    println!("cargo:rerun-if-changed=build.rs");
}
