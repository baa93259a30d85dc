//! Naming what is measured: a commit (`--base REV`, `--head REV`) resolved to its full hash, or
//! the working tree (the default head), which is that commit only when nothing differs from it;
//! with uncommitted changes it is "working tree" plus a hash of the changes, so two different
//! sets of edits never share a build or a history line.

use std::path::Path;
use std::process::Command;

use serde::Serialize;

use super::RegressError;

/// What one side is.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Revision {
    /// A commit, by full hash.
    Commit { hash: String },
    /// The checkout with uncommitted changes (tracked edits and untracked, not ignored files)
    /// on top of `head`; `changes` hashes them.
    WorkingTree { head: String, changes: String },
}

impl Revision {
    /// The commit it is, or builds on.
    pub fn commit(&self) -> &str {
        match self {
            Revision::Commit { hash } | Revision::WorkingTree { head: hash, .. } => hash,
        }
    }

    /// `abc1234`, or `working tree (abc1234 + changes 1a2b3c4d)`.
    pub fn label(&self) -> String {
        match self {
            Revision::Commit { hash } => short(hash),
            Revision::WorkingTree { head, changes } => {
                format!("working tree ({} + changes {changes})", short(head))
            }
        }
    }

    /// The history's commit column: the hash, with `-dirty` for a working tree (as `run`
    /// writes it).
    pub(crate) fn history_commit(&self) -> String {
        match self {
            Revision::Commit { hash } => hash.clone(),
            Revision::WorkingTree { head, .. } => format!("{head}-dirty"),
        }
    }

    /// The build cache's key for it (before the build settings are added).
    pub fn key(&self) -> String {
        match self {
            Revision::Commit { hash } => hash.clone(),
            Revision::WorkingTree { head, changes } => format!("{head}-wt-{changes}"),
        }
    }
}

fn short(hash: &str) -> String {
    hash.chars().take(7).collect()
}

/// Runs git in `repo`, returning its standard output.
pub(crate) fn git(repo: &Path, args: &[&str], what: &str) -> Result<Vec<u8>, RegressError> {
    let out = Command::new("git")
        .arg("-C")
        .arg(repo)
        .args(args)
        .output()
        .map_err(|source| RegressError::Spawn {
            program: "git".into(),
            source,
        })?;
    if !out.status.success() {
        let stderr = String::from_utf8_lossy(&out.stderr).trim().to_string();
        return Err(RegressError::Git {
            what: what.to_string(),
            message: if stderr.is_empty() {
                format!("git {} exited with {}", args.join(" "), out.status)
            } else {
                stderr
            },
        });
    }
    Ok(out.stdout)
}

fn text(bytes: Vec<u8>) -> String {
    String::from_utf8_lossy(&bytes).trim().to_string()
}

/// Resolves `rev` (anything `git rev-parse` takes) to a commit of the repository at `repo`.
pub fn commit(repo: &Path, rev: &str, option: &str) -> Result<Revision, RegressError> {
    let spec = format!("{rev}^{{commit}}");
    let hash = text(git(
        repo,
        &["rev-parse", "--verify", "--quiet", &spec],
        &format!("{option} {rev}: not a commit of {}", repo.display()),
    )?);
    if hash.is_empty() {
        return Err(RegressError::Git {
            what: format!("{option} {rev}"),
            message: format!("not a commit of {}", repo.display()),
        });
    }
    Ok(Revision::Commit { hash })
}

/// The working tree of `repo`: its HEAD commit when nothing differs, else the changes' hash.
pub(crate) fn working_tree(repo: &Path) -> Result<Revision, RegressError> {
    let Revision::Commit { hash: head } = commit(repo, "HEAD", "the working tree's HEAD")? else {
        unreachable!("commit() returns a commit");
    };
    let status = git(
        repo,
        &["status", "--porcelain", "--untracked-files=all"],
        "git status",
    )?;
    if status.is_empty() {
        return Ok(Revision::Commit { hash: head });
    }
    // The changes: the diff of tracked files, then every untracked file's name and contents.
    let mut h = Fnv::new();
    h.write(&git(repo, &["diff", "HEAD", "--binary"], "git diff")?);
    let untracked = git(
        repo,
        &["ls-files", "--others", "--exclude-standard", "-z"],
        "git ls-files",
    )?;
    for name in untracked.split(|&b| b == 0).filter(|n| !n.is_empty()) {
        h.write(name);
        h.write(&[0]);
        let path = repo.join(String::from_utf8_lossy(name).as_ref());
        if let Ok(bytes) = std::fs::read(&path) {
            h.write(&bytes);
        }
    }
    Ok(Revision::WorkingTree {
        head,
        changes: format!("{:08x}", h.finish() as u32),
    })
}

/// 64-bit FNV-1a: a stable hash for cache keys (not for security).
pub(crate) struct Fnv(u64);

impl Fnv {
    pub(crate) fn new() -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
    pub(crate) fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
        }
    }
    pub(crate) fn finish(&self) -> u64 {
        self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels() {
        let c = Revision::Commit {
            hash: "0123456789abcdef".into(),
        };
        assert_eq!(c.label(), "0123456");
        let w = Revision::WorkingTree {
            head: "0123456789abcdef".into(),
            changes: "deadbeef".into(),
        };
        assert_eq!(w.label(), "working tree (0123456 + changes deadbeef)");
        assert_eq!(w.history_commit(), "0123456789abcdef-dirty");
    }

    #[test]
    fn fnv_is_stable() {
        let mut h = Fnv::new();
        h.write(b"a");
        assert_eq!(h.finish(), 0xaf63dc4c8601ec8c);
    }
}
