//! One writer per results directory.
//!
//! A session that writes a results directory (`run`, `run --resume`, `run --overwrite`, a shard,
//! `collect`, `slurm submit`) holds an advisory lock on `DIR/.lock` from before its first read
//! until it ends. The lock is the operating system's (`flock`), so it is released on every exit
//! path — return, panic, Ctrl-C, `kill -9` — and a lock whose holder is gone is simply free again.
//! The file's content (pid, host, start time) only names the holder in the message of a second
//! writer, which is refused at once; content left by a holder that died says the lock was stale.
//! On NFS, Linux maps `flock` to POSIX locks (which need a running lock daemon).

use std::fs::{File, OpenOptions, TryLockError};
use std::io::{Read, Seek, SeekFrom, Write};
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};

use thiserror::Error;

use super::provenance::{machine, now_rfc3339};
use crate::path_io::{At, PathIo};
use crate::results::{EXPERIMENT_FILE, ITERATIONS_FILE, META_FILE, RUNS_FILE, SHARDS_DIR};

/// The lock file inside a results directory.
pub const LOCK_FILE: &str = ".lock";

/// Why a results directory could not be claimed for writing.
#[derive(Debug, Error)]
pub enum LockError {
    #[error(
        "{} is in use by another tilebench ({holder}); wait for it to finish or use another --out",
        dir.display()
    )]
    Busy { dir: PathBuf, holder: String },
    #[error(
        "{}: the directory is not empty and is not a tilebench results directory; give a new or \
         empty directory",
        .0.display()
    )]
    Foreign(PathBuf),
    #[error(
        "{}: not a directory (a results directory is one); give a new or empty directory",
        .0.display()
    )]
    NotADirectory(PathBuf),
    #[error("{}: cannot take the lock: {reason}; remove it and try again", path.display())]
    NotAFile { path: PathBuf, reason: String },
    #[error(transparent)]
    Io(#[from] crate::path_io::PathIo),
}

/// The lock on a results directory, held until dropped.
#[derive(Debug)]
pub struct DirLock {
    file: File,
    dir: PathBuf,
    /// What a holder that died without releasing the lock had written (pid, host, time).
    pub stale: Option<String>,
}

/// The names that make a directory a tilebench results directory.
const RESULT_NAMES: &[&str] = &[
    RUNS_FILE,
    ITERATIONS_FILE,
    META_FILE,
    EXPERIMENT_FILE,
    SHARDS_DIR,
    "slurm",
    LOCK_FILE,
];

/// Refuses a directory that exists, is not empty and holds none of a results directory's files
/// (`--out /`, `--out ~/Documents`): a run would write its files among someone else's.
pub(crate) fn check_not_foreign(dir: &Path) -> Result<(), LockError> {
    // Missing, not a directory, or unreadable: creating or locking it reports the problem.
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Ok(());
    };
    let mut empty = true;
    for entry in entries.flatten() {
        empty = false;
        if RESULT_NAMES.contains(&entry.file_name().to_string_lossy().as_ref()) {
            return Ok(());
        }
    }
    if empty {
        Ok(())
    } else {
        Err(LockError::Foreign(dir.to_path_buf()))
    }
}

impl DirLock {
    /// Creates `dir` if needed and takes its lock, without waiting: a directory another process
    /// holds is an error naming that process. A foreign directory is refused first.
    pub fn acquire(dir: &Path) -> Result<DirLock, LockError> {
        check_not_foreign(dir)?;
        if std::fs::metadata(dir).is_ok_and(|m| !m.is_dir()) {
            return Err(LockError::NotADirectory(dir.to_path_buf()));
        }
        std::fs::create_dir_all(dir).at(dir)?;
        let path = dir.join(LOCK_FILE);
        // Never through a symlink (it would truncate its target), and only a regular file.
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
            .open(&path)
            .map_err(|e| LockError::NotAFile {
                path: path.clone(),
                reason: crate::results::atomic::explain_symlink(&path, e).to_string(),
            })?;
        let meta = file.metadata().at(&path)?;
        if !meta.is_file() {
            return Err(LockError::NotAFile {
                path,
                reason: format!(
                    "{} where the lock file should be",
                    crate::results::atomic::kind_of(&meta)
                ),
            });
        }
        match file.try_lock() {
            Ok(()) => {}
            Err(TryLockError::WouldBlock) => {
                let holder = read_holder(&mut file);
                return Err(LockError::Busy {
                    dir: dir.to_path_buf(),
                    holder: if holder.is_empty() {
                        "its pid is not written yet".into()
                    } else {
                        holder
                    },
                });
            }
            Err(TryLockError::Error(e)) => return Err(PathIo::new(path, e).into()),
        }
        let previous = read_holder(&mut file);
        let me = format!(
            "pid {} on host {}, since {}",
            std::process::id(),
            machine().hostname.as_deref().unwrap_or("unknown"),
            now_rfc3339()
        );
        file.set_len(0)
            .and_then(|_| file.seek(SeekFrom::Start(0)))
            .and_then(|_| writeln!(file, "{me}"))
            .and_then(|_| file.flush())
            .at(&path)?;
        Ok(DirLock {
            file,
            dir: dir.to_path_buf(),
            stale: (!previous.is_empty()).then_some(previous),
        })
    }

    /// The directory this lock holds.
    pub fn dir(&self) -> &Path {
        &self.dir
    }
}

impl Drop for DirLock {
    /// Empties the file (so content found later means its holder died), then closing the file
    /// releases the lock.
    fn drop(&mut self) {
        let _ = self.file.set_len(0);
    }
}

fn read_holder(file: &mut File) -> String {
    let mut text = String::new();
    let _ = file.seek(SeekFrom::Start(0));
    let _ = file.read_to_string(&mut text);
    text.trim().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A path `name` that does not exist yet, in a temporary directory removed on drop.
    fn scratch(name: &str) -> (tempfile::TempDir, PathBuf) {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join(name);
        (tmp, dir)
    }

    /// Takes the lock after a release. Another test of this binary may be starting a process at
    /// that moment: its forked child shares our open lock file until it execs (close-on-exec),
    /// so the released lock can look held for that instant. Retry briefly past that window.
    fn acquire_after_release(dir: &Path) -> DirLock {
        for _ in 0..200 {
            match DirLock::acquire(dir) {
                Err(LockError::Busy { .. }) => {
                    std::thread::sleep(std::time::Duration::from_millis(10))
                }
                other => return other.unwrap(),
            }
        }
        panic!(
            "{} stayed locked after its holder dropped it",
            dir.display()
        );
    }

    #[test]
    fn a_second_holder_is_refused_until_the_first_drops() {
        let (_tmp, dir) = scratch("two");
        let first = DirLock::acquire(&dir).unwrap();
        assert!(first.stale.is_none());
        let e = DirLock::acquire(&dir).unwrap_err();
        let msg = e.to_string();
        assert!(msg.contains("is in use by another tilebench"), "{msg}");
        assert!(
            msg.contains(&format!("pid {}", std::process::id())),
            "{msg}"
        );
        drop(first);
        let again = acquire_after_release(&dir);
        assert!(again.stale.is_none(), "released cleanly: not stale");
        drop(again);
        // A holder that died leaves its line behind, but not the lock.
        std::fs::write(dir.join(LOCK_FILE), "pid 1 on host gone, since then\n").unwrap();
        let after_crash = acquire_after_release(&dir);
        assert_eq!(
            after_crash.stale.as_deref(),
            Some("pid 1 on host gone, since then")
        );
        drop(after_crash);
    }

    #[test]
    fn a_lock_that_is_a_symlink_or_not_a_file_is_refused_and_its_target_kept() {
        let (_tmp, dir) = scratch("symlink");
        std::fs::create_dir_all(&dir).unwrap();
        let victim = dir.with_extension("victim");
        std::fs::write(&victim, "precious\n").unwrap();
        std::os::unix::fs::symlink(&victim, dir.join(LOCK_FILE)).unwrap();
        let e = DirLock::acquire(&dir).unwrap_err();
        assert!(e.to_string().contains("symbolic link"), "{e}");
        assert!(!e.to_string().contains("precious"), "{e}");
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious\n");
        std::fs::remove_file(dir.join(LOCK_FILE)).unwrap();
        std::fs::create_dir(dir.join(LOCK_FILE)).unwrap();
        let e = DirLock::acquire(&dir).unwrap_err();
        assert!(matches!(e, LockError::NotAFile { .. }), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
        std::fs::remove_file(&victim).unwrap();
        // A results directory that is a file is said to be one, not "File exists".
        std::fs::write(&dir, "x").unwrap();
        let e = DirLock::acquire(&dir).unwrap_err().to_string();
        assert!(e.contains("not a directory"), "{e}");
    }

    #[test]
    fn a_foreign_directory_is_refused() {
        let (_tmp, dir) = scratch("foreign");
        std::fs::create_dir_all(&dir).unwrap();
        assert!(check_not_foreign(&dir).is_ok(), "empty is fine");
        std::fs::write(dir.join("thesis.tex"), "x").unwrap();
        assert!(matches!(DirLock::acquire(&dir), Err(LockError::Foreign(_))));
        assert!(!dir.join(LOCK_FILE).exists());
        std::fs::write(dir.join(RUNS_FILE), "").unwrap();
        assert!(check_not_foreign(&dir).is_ok());
    }
}
