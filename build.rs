//! Records, at build time, what `meta.json` reports about the binary: the compiler's version and
//! the commit it was built from, with a dirty flag (the binary's sources, `git::SOURCES`,
//! differing from the commit). A binary not rebuilt after `git pull` thus still reports the
//! commit it was built from.

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
    // Run again when the commit moves or a source changes; nothing else (docs/, examples/,
    // instances/) reruns it, which would rebuild the whole library.
    if state.watch.is_empty() {
        // No git: the version holds no commit, but the sources are still what the build reads.
        for path in git::SOURCES {
            println!("cargo:rerun-if-changed={path}");
        }
    }
    for path in &state.watch {
        println!("cargo:rerun-if-changed={}", path.display());
    }
}
