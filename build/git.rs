//! The git state of a checkout, read by `build.rs` at build time (and by a test, to check what
//! the build recorded). Works in a linked worktree or with a separate git dir, where `.git` is a
//! file: every path comes from `git rev-parse`, never from assuming a `.git` directory.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The commit, whether tracked files (outside `results/` and `reports/`, which are the tool's
/// outputs) differ from it, and the git files whose change means either may have changed.
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
    let dirty = git(
        dir,
        &[
            "status",
            "--porcelain",
            "--untracked-files=no",
            "--",
            ".",
            ":!results",
            ":!reports",
        ],
    )
    .map(|s| !s.is_empty());
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
        // watched top-level entries; commits through HEAD and the branch's ref.
        watch.push(git_dir.join("HEAD"));
    }
    if let Some(common) = git(dir, &["rev-parse", "--git-common-dir"]).map(absolute) {
        watch.push(common.join("packed-refs"));
        if let Some(branch) = git(dir, &["symbolic-ref", "-q", "HEAD"]) {
            watch.push(common.join(branch));
        }
    }
    watch.retain(|p| p.exists());
    GitState {
        commit: Some(commit),
        dirty,
        watch,
    }
}
