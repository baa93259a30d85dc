//! The build cache: one release binary per (revision, build settings), kept outside the
//! checkout so that `cargo clean`, another branch or the checkout's own `target/` never touch
//! it, and reused while the revision is unchanged.
//!
//! Layout under the cache root (`--build-dir`, default `$XDG_CACHE_HOME/tilebench/builds`, else
//! `~/.cache/tilebench/builds`):
//! - `target/`: one cargo target directory shared by every build, so dependencies compile once;
//! - `<key>/<bin>` and `<key>/build.json`: the binary of a revision and how it was made; `<key>`
//!   is the commit (or the working tree's commit and change hash) plus a hash of the build
//!   settings (compiler, `RUSTFLAGS`);
//! - `<key>/build.log`: cargo's output;
//! - `worktrees/<key>`: a `git worktree` of the commit, only while it builds.
//!
//! Builds use each revision's own `[profile.release]`: `CARGO_PROFILE_*` overrides in the
//! environment are removed, so that both sides are built the same way whoever runs the check. A
//! lock file serialises builds (two at once would overwrite each other's `target/release`).

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde::Serialize;

use super::revision::{git, Fnv, Revision};
use super::RegressError;
use crate::path_io::{At, PathIo};

/// A binary ready to run, and where it came from.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Built {
    pub revision: Revision,
    pub binary: PathBuf,
    /// Found in the cache (no build this time).
    pub reused: bool,
}

/// The cache of built revisions.
#[derive(Debug, Clone)]
pub struct BuildCache {
    pub root: PathBuf,
}

/// The default cache root.
pub(crate) fn default_root() -> PathBuf {
    let base = std::env::var_os("XDG_CACHE_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache")))
        .unwrap_or_else(std::env::temp_dir);
    base.join("tilebench").join("builds")
}

/// Environment variables that would change what `cargo build --release` makes, removed.
/// Removes a build's worktree, whatever state an earlier run left it in (best effort: a
/// leftover is removed again before the next build into it).
fn remove_worktree(repo: &Path, wt: &Path) {
    let _ = git(
        repo,
        &["worktree", "remove", "--force", &wt.to_string_lossy()],
        "git worktree remove",
    );
    let _ = fs::remove_dir_all(wt);
}

fn is_profile_override(name: &str) -> bool {
    name.starts_with("CARGO_PROFILE_")
        || name == "CARGO_INCREMENTAL"
        || name == "CARGO_BUILD_TARGET_DIR"
        || name == "CARGO_TARGET_DIR"
}

/// Settings kept (and hashed into the key): the compiler and flags.
fn settings_hash(repo: &Path) -> String {
    let mut h = Fnv::new();
    let rustc = Command::new("rustc")
        .arg("-vV")
        .current_dir(repo)
        .output()
        .map(|o| o.stdout)
        .unwrap_or_default();
    h.write(&rustc);
    for name in [
        "RUSTFLAGS",
        "CARGO_ENCODED_RUSTFLAGS",
        "CARGO_BUILD_RUSTFLAGS",
    ] {
        if let Some(v) = std::env::var_os(name) {
            h.write(name.as_bytes());
            h.write(v.to_string_lossy().as_bytes());
        }
    }
    format!("{:08x}", h.finish() as u32)
}

/// The file at `path`, exclusively locked (flock) until it is dropped.
fn lock(path: &Path) -> Result<fs::File, PathIo> {
    let file = fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(path)
        .at(path)?;
    file.lock().at(path)?;
    Ok(file)
}

#[derive(Serialize)]
struct BuildRecord<'a> {
    revision: &'a Revision,
    label: String,
    built: String,
    settings: &'a str,
    command: &'a str,
}

impl BuildCache {
    pub fn new(root: PathBuf) -> BuildCache {
        BuildCache { root }
    }

    /// The binary `bin` of `revision` of the crate at `repo`: from the cache, or built now
    /// (`say` hears what happens).
    pub fn get(
        &self,
        repo: &Path,
        revision: &Revision,
        bin: &str,
        say: &mut dyn FnMut(&str),
    ) -> Result<Built, RegressError> {
        fs::create_dir_all(&self.root).at(&self.root)?;
        let settings = settings_hash(repo);
        let key = format!("{}-{settings}", revision.key());
        let dir = self.root.join(&key);
        let binary = dir.join(bin);
        let _lock = lock(&self.root.join("lock"))?;
        if binary.is_file() {
            say(&format!(
                "{}: reusing {}",
                revision.label(),
                binary.display()
            ));
            return Ok(Built {
                revision: revision.clone(),
                binary,
                reused: true,
            });
        }
        fs::create_dir_all(&dir).at(&dir)?;
        let repo = repo.canonicalize().at(repo)?;
        let (source, worktree) = match revision {
            Revision::Commit { hash } => {
                let wt = self.root.join("worktrees").join(&key);
                if wt.exists() {
                    remove_worktree(&repo, &wt);
                }
                let _ = git(&repo, &["worktree", "prune"], "git worktree prune");
                git(
                    &repo,
                    &[
                        "worktree",
                        "add",
                        "--detach",
                        "--force",
                        &wt.to_string_lossy(),
                        hash,
                    ],
                    &format!("git worktree add for {}", revision.label()),
                )?;
                (wt.clone(), Some(wt))
            }
            // Uncommitted changes exist only in the checkout: build there (into the cache's
            // target directory, not the checkout's own).
            Revision::WorkingTree { .. } => (repo.clone(), None),
        };
        say(&format!(
            "{}: building (cargo build --release) in {}",
            revision.label(),
            source.display()
        ));
        let result = self.cargo_build(&source, bin, &dir, revision, &settings);
        if let Some(wt) = worktree {
            remove_worktree(&repo, &wt);
        }
        result?;
        Ok(Built {
            revision: revision.clone(),
            binary,
            reused: false,
        })
    }

    fn cargo_build(
        &self,
        source: &Path,
        bin: &str,
        dir: &Path,
        revision: &Revision,
        settings: &str,
    ) -> Result<(), RegressError> {
        let target = self.root.join("target");
        let log_path = dir.join("build.log");
        let log = fs::File::create(&log_path).at(&log_path)?;
        let log2 = log.try_clone().at(&log_path)?;
        let mut cmd = Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()));
        cmd.args(["build", "--release", "--bin", bin])
            .current_dir(source)
            .stdout(log)
            .stderr(log2);
        for (name, _) in std::env::vars_os() {
            if is_profile_override(&name.to_string_lossy()) {
                cmd.env_remove(&name);
            }
        }
        cmd.env("CARGO_TARGET_DIR", &target);
        let status = cmd.status().map_err(|source| RegressError::Spawn {
            program: "cargo".into(),
            source,
        })?;
        if !status.success() {
            return Err(RegressError::Build {
                revision: revision.label(),
                status: status.to_string(),
                log: log_path,
            });
        }
        let made = target.join("release").join(bin);
        let tmp = dir.join(format!("{bin}.part"));
        fs::copy(&made, &tmp).at(&made)?;
        fs::rename(&tmp, dir.join(bin)).at(dir.join(bin))?;
        let record = BuildRecord {
            revision,
            label: revision.label(),
            built: crate::experiment::provenance::now_rfc3339(),
            settings,
            command: "cargo build --release (profile overrides removed)",
        };
        let json = serde_json::to_string_pretty(&record).unwrap_or_default() + "\n";
        let path = dir.join("build.json");
        fs::write(&path, json).at(&path)?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn profile_overrides_are_the_ones_removed() {
        assert!(is_profile_override("CARGO_PROFILE_RELEASE_CODEGEN_UNITS"));
        assert!(is_profile_override("CARGO_TARGET_DIR"));
        assert!(!is_profile_override("RUSTFLAGS"));
        assert!(!is_profile_override("CARGO_HOME"));
    }
}
