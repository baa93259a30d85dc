//! The git state of a checkout, read by `build.rs` at build time (and by a test, to check what
//! the build recorded). Works in a linked worktree or with a separate git dir, where `.git` is a
//! file: every path comes from `git rev-parse`, never from assuming a `.git` directory.

use std::path::{Path, PathBuf};
use std::process::Command;

/// What the binary is built from, relative to the checkout: the only paths whose change reruns
/// `build.rs` (so editing `docs/`, `examples/` or `instances/` rebuilds nothing) and the only
/// ones the dirty flag looks at. The files outside `src/` that the library includes
/// (`include_bytes!`, `include_str!`) are listed one by one (a test checks the list).
pub const SOURCES: &[&str] = &[
    "src",
    "build.rs",
    "build",
    "Cargo.toml",
    "Cargo.lock",
    "assets/fonts/DejaVuSans.ttf",
    "data/clausecker-24puzzle-results.tsv",
    "data/hmy1985-linear-conflict-h0.tsv",
    "data/korf1985-manhattan-nodes.csv",
    "instances/korf50-24.txt",
];

/// The commit, whether the binary's sources ([`SOURCES`]) differ from it, and the paths whose
/// change means either may have changed: the sources themselves and git's HEAD and refs.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct GitState {
    pub commit: Option<String>,
    pub dirty: Option<bool>,
    pub watch: Vec<PathBuf>,
}

fn git(dir: &Path, args: &[&str]) -> Option<String> {
    Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
}

/// The state of the checkout at `dir`; all `None` (and nothing to watch) outside a checkout or
/// without git.
pub fn state(dir: &Path) -> GitState {
    let Some(commit) = git(dir, &["rev-parse", "HEAD"]) else {
        return GitState::default();
    };
    let mut status = vec!["status", "--porcelain", "--untracked-files=no", "--"];
    status.extend(SOURCES);
    let dirty = git(dir, &status).map(|s| !s.is_empty());
    let absolute = |p: String| {
        let p = PathBuf::from(p);
        if p.is_absolute() {
            p
        } else {
            dir.join(p)
        }
    };
    let mut watch = Vec::new();
    if let Some(git_dir) = git(dir, &["rev-parse", "--git-dir"]).map(absolute) {
        // Not the index: `git status` (also the one above) rewrites it without any change, and
        // watching it rebuilt the crate after every `git status`. Edits are seen through the
        // watched sources (a `git checkout`/`stash` that changes a source rewrites the file);
        // commits through HEAD and the branch's ref.
        watch.push(git_dir.join("HEAD"));
    }
    if let Some(common) = git(dir, &["rev-parse", "--git-common-dir"]).map(absolute) {
        watch.push(common.join("packed-refs"));
        if let Some(branch) = git(dir, &["symbolic-ref", "-q", "HEAD"]) {
            watch.push(common.join(branch));
        }
    }
    watch.extend(SOURCES.iter().map(|s| dir.join(s)));
    watch.retain(|p| p.exists());
    GitState {
        commit: Some(commit),
        dirty,
        watch,
    }
}
