//! The one way tilebench writes a file, and the one way it derives a file name from a user string.
//!
//! Every file tilebench writes (CSV, `meta.json`, `experiment.json`, checkpoints, plots, report
//! files, PDB tables, job scripts, solver logs) is first written to a temporary file created
//! exclusively (`O_EXCL`, random name, never following a symlink) in the target's directory, then
//! synced and renamed over the target. A reader sees the old file or the new one, never a part;
//! a symlink planted at the target is replaced, never followed; two writers never share a
//! temporary file. Files that grow by appending (`runs.csv`, `iterations.csv`, `history.csv`) are
//! opened with `O_NOFOLLOW` and must be regular files.
//!
//! [`name_component`] turns a user string (set name, instance id, heuristic, solver) into a piece
//! of a file name that is unique per distinct string.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};

/// Longest name component kept readable; longer ones are cut and carry the hash.
pub const MAX_COMPONENT: usize = 60;

/// The directory `path` lives in (`.` for a bare file name).
fn parent_of(path: &Path) -> &Path {
    path.parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."))
}

/// A temporary file beside `path`, created exclusively with a random name.
fn temp_beside(path: &Path) -> io::Result<tempfile::NamedTempFile> {
    let dir = parent_of(path);
    fs::create_dir_all(dir)?;
    let mut prefix = std::ffi::OsString::from(".");
    prefix.push(path.file_name().unwrap_or_default());
    // Long names leave room for the random part (names are at most 255 bytes).
    let prefix: String = prefix.to_string_lossy().chars().take(100).collect();
    // Readable by others as a file created plainly would be (the umask applies), not 0600.
    tempfile::Builder::new()
        .prefix(&prefix)
        .suffix(".tmp")
        .permissions(std::os::unix::fs::PermissionsExt::from_mode(0o666))
        .tempfile_in(dir)
}

/// Replaces `path` with `bytes` atomically (see the module doc). Creates the parent directory.
pub fn write(path: &Path, bytes: &[u8]) -> io::Result<()> {
    write_with(path, |f| f.write_all(bytes))
}

/// Like [`write()`], with the content streamed by `fill` into the temporary file.
pub(crate) fn write_with(
    path: &Path,
    fill: impl FnOnce(&mut File) -> io::Result<()>,
) -> io::Result<()> {
    let mut tmp = temp_beside(path)?;
    fill(tmp.as_file_mut())?;
    tmp.as_file().sync_all()?;
    tmp.persist(path).map_err(|e| e.error)?;
    Ok(())
}

/// Like [`write()`], for a writer that insists on a path of its own (the PNG encoder): it writes
/// `file` inside a fresh private directory beside `path`, which is then renamed over `path`.
pub(crate) fn write_via_path(
    path: &Path,
    fill: impl FnOnce(&Path) -> io::Result<()>,
) -> io::Result<()> {
    let dir = parent_of(path);
    fs::create_dir_all(dir)?;
    let private = tempfile::Builder::new()
        .prefix(".tilebench-")
        .tempdir_in(dir)?;
    let inner = private
        .path()
        .join(path.file_name().unwrap_or(std::ffi::OsStr::new("file")));
    fill(&inner)?;
    File::open(&inner)?.sync_all()?;
    fs::rename(&inner, path)
}

/// A file that stays under a temporary name until [`Pending::commit`] renames it over its
/// target: for content another process writes (an outside solver's standard error).
pub struct Pending {
    tmp: tempfile::NamedTempFile,
    target: PathBuf,
}

impl Pending {
    /// Creates the temporary file beside `target`.
    pub fn create(target: &Path) -> io::Result<Pending> {
        Ok(Pending {
            tmp: temp_beside(target)?,
            target: target.to_path_buf(),
        })
    }

    /// The open temporary file.
    pub fn file(&self) -> &File {
        self.tmp.as_file()
    }

    /// Syncs the file and renames it over the target.
    pub fn commit(self) -> io::Result<()> {
        self.tmp.as_file().sync_all()?;
        self.tmp.persist(&self.target).map_err(|e| e.error)?;
        Ok(())
    }
}

/// Opens `path` for appending without following a symlink, creating it when `create`; anything
/// but a regular file is refused.
pub(crate) fn open_append(path: &Path, create: bool) -> io::Result<File> {
    let file = OpenOptions::new()
        .append(true)
        .create(create)
        .custom_flags(libc::O_NOFOLLOW)
        .open(path)
        .map_err(|e| explain_symlink(path, e))?;
    if !file.metadata()?.is_file() {
        return Err(io::Error::other("not a regular file"));
    }
    Ok(file)
}

/// What a non-regular file is, in words.
pub(crate) fn kind_of(meta: &fs::Metadata) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    let t = meta.file_type();
    if t.is_symlink() {
        "a symbolic link"
    } else if t.is_dir() {
        "a directory"
    } else if t.is_fifo() {
        "a FIFO"
    } else if t.is_socket() {
        "a socket"
    } else if t.is_block_device() || t.is_char_device() {
        "a device"
    } else {
        "a regular file"
    }
}

/// `O_NOFOLLOW` on a symlink fails with ELOOP ("too many levels of symbolic links"): say it.
pub(crate) fn explain_symlink(path: &Path, e: io::Error) -> io::Error {
    if e.raw_os_error() == Some(libc::ELOOP) {
        io::Error::other(format!(
            "{} is a symbolic link; tilebench does not write through one",
            path.display()
        ))
    } else {
        e
    }
}

/// A piece of a file name for the user string `s`: letters, digits, `-`, `_` and `.` kept, any
/// other character `_`; a leading `.` becomes `_` (no hidden files, no `..`). When that changed
/// anything, or the name is longer than [`MAX_COMPONENT`], it is cut and `-` plus 8 hex digits of
/// a hash of the exact string are appended, so distinct strings never share a file.
pub fn name_component(s: &str) -> String {
    let clean = sanitized(s);
    if clean == s && !s.is_empty() && s.len() <= MAX_COMPONENT {
        return clean;
    }
    let cut: String = clean.chars().take(MAX_COMPONENT).collect();
    format!("{cut}-{:08x}", crc32fast::hash(s.as_bytes()))
}

/// [`name_component`] without the hash, cut to [`MAX_COMPONENT`]: for a name that carries a
/// hash of its exact parts anyway (checkpoints), so that its readable part stays as it was.
pub(crate) fn readable_component(s: &str) -> String {
    sanitized(s).chars().take(MAX_COMPONENT).collect()
}

/// Letters, digits, `-`, `_`, `.` kept, anything else `_`; a leading `.` becomes `_`.
pub(crate) fn sanitized(s: &str) -> String {
    let mut clean: String = s
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "-_.".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect();
    if clean.starts_with('.') {
        clean.replace_range(0..1, "_");
    }
    clean
}

/// A file name of several user strings joined by `-` (an outside solver's log: set, instance,
/// series), unique per distinct list: when a part holds a `-` itself, or was changed by
/// [`name_component`], a hash of the exact list is appended (`a-b`+`c` and `a`+`b-c` differ).
pub fn joined_name(parts: &[&str]) -> String {
    let comps: Vec<String> = parts.iter().map(|p| name_component(p)).collect();
    let ambiguous = parts
        .iter()
        .zip(&comps)
        .any(|(p, c)| p.contains('-') || p != c);
    let joined = comps.join("-");
    if ambiguous {
        format!(
            "{joined}-{:08x}",
            crc32fast::hash(parts.join("\t").as_bytes())
        )
    } else {
        joined
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::symlink;

    #[test]
    fn a_symlink_at_the_target_is_replaced_not_followed() {
        let dir = tempfile::tempdir().unwrap();
        let victim = dir.path().join("victim");
        fs::write(&victim, "keep").unwrap();
        let target = dir.path().join("out.svg");
        symlink(&victim, &target).unwrap();
        write(&target, b"new").unwrap();
        assert_eq!(fs::read_to_string(&victim).unwrap(), "keep");
        assert!(!fs::symlink_metadata(&target).unwrap().is_symlink());
        assert_eq!(fs::read_to_string(&target).unwrap(), "new");
        // The PNG path and pending files too.
        let png = dir.path().join("out.png");
        symlink(&victim, &png).unwrap();
        write_via_path(&png, |p| fs::write(p, "png")).unwrap();
        assert_eq!(fs::read_to_string(&victim).unwrap(), "keep");
        let log = dir.path().join("x.stderr");
        symlink(&victim, &log).unwrap();
        let pending = Pending::create(&log).unwrap();
        pending.file().write_all(b"log").unwrap();
        pending.commit().unwrap();
        assert_eq!(fs::read_to_string(&victim).unwrap(), "keep");
        assert_eq!(fs::read_to_string(&log).unwrap(), "log");
        // Nothing temporary is left behind.
        let left: Vec<_> = fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
            .filter(|n| n.ends_with(".tmp") || n.starts_with(".tilebench"))
            .collect();
        assert!(left.is_empty(), "{left:?}");
    }

    #[test]
    fn a_symlinked_or_odd_append_target_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let victim = dir.path().join("victim");
        fs::write(&victim, "keep").unwrap();
        let link = dir.path().join("history.csv");
        symlink(&victim, &link).unwrap();
        let e = open_append(&link, true).unwrap_err();
        assert!(e.to_string().contains("symbolic link"), "{e}");
        assert_eq!(fs::read_to_string(&victim).unwrap(), "keep");
        let e = open_append(dir.path(), true).unwrap_err();
        assert!(!e.to_string().is_empty());
    }

    #[test]
    fn concurrent_writers_of_one_path_never_collide() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("c.json");
        std::thread::scope(|s| {
            for i in 0..8 {
                let path = &path;
                s.spawn(move || {
                    for _ in 0..50 {
                        write(path, format!("{i}").as_bytes()).unwrap();
                    }
                });
            }
        });
        assert!(fs::read_to_string(&path).unwrap().parse::<u32>().is_ok());
    }

    #[test]
    fn name_components_are_unique_per_string_and_short() {
        let names = [
            "a b", "a_b", "a/b", "a\u{c}b", "x y", "x_y", "x/y", "..", ".",
        ];
        let parts: Vec<String> = names.iter().map(|s| name_component(s)).collect();
        for (i, a) in parts.iter().enumerate() {
            for b in &parts[i + 1..] {
                assert_ne!(a, b, "{parts:?}");
            }
            assert!(!a.starts_with('.') && !a.contains('/'), "{a}");
        }
        assert_eq!(
            name_component("korf100"),
            "korf100",
            "clean names stay as they are"
        );
        let long = "i".repeat(250);
        let short = name_component(&long);
        assert!(short.len() < 80, "{short}");
        assert_ne!(short, name_component(&"i".repeat(251)));
        assert_eq!(joined_name(&["tiny", "1", "crash"]), "tiny-1-crash");
        assert_ne!(joined_name(&["a-b", "c"]), joined_name(&["a", "b-c"]));
        assert_ne!(joined_name(&["x y", "1"]), joined_name(&["x_y", "1"]));
    }
}
