//! The on-disk form of one group's table, and how it is checked before use.
//!
//! A file is a 128-byte header followed by the table, one byte per placement in rank order:
//!
//! | bytes  | field                                                        |
//! |--------|--------------------------------------------------------------|
//! | 0..8   | magic `TBPDB\0\r\n`                                          |
//! | 8..12  | format version (u32 LE, [`FORMAT_VERSION`])                  |
//! | 12..16 | board width, height, tiles in the group, reserved            |
//! | 16..48 | the goal, row-major (unused bytes 0)                         |
//! | 48..56 | the group's tiles, ascending (unused bytes 0)                |
//! | 56..64 | entry count (u64 LE)                                         |
//! | 64..72 | build time in seconds (f64 LE)                               |
//! | 72..76 | CRC-32 of the header (with this field zero) and the body     |
//! | 76..128| zero                                                         |
//!
//! Files are written under a temporary name and renamed into place, so a crash or a concurrent
//! build never leaves a half-written file under the real name. A file is used only after its
//! length, header and checksum all agree with what was asked for.
//!
//! The body stays one byte an entry whatever the form in memory ([`super::values`]): a large
//! table is packed while it is read, a block of subsets at a time, and unpacked the same way
//! while it is written.

use std::fs::{self, File};
use std::io::{Read, Seek, Write};
use std::path::Path;

use crate::board::{Goal, Size};

use super::rank::{placements, MAX_GROUP_TILES};
use super::values::Packer;
use super::{Entries, PdbError, Table, Values};
use crate::path_io::{At, PathIo};

/// Entries read or written at a time when a table is packed or unpacked on the way (about 16 MB).
const BLOCK_ENTRIES: usize = 16 << 20;

pub(crate) const MAGIC: &[u8; 8] = b"TBPDB\0\r\n";
pub const FORMAT_VERSION: u32 = 1;
pub(crate) const HEADER_LEN: usize = 128;

/// What a file's header says.
#[derive(Debug, Clone, PartialEq)]
pub struct Header {
    pub size: Size,
    pub goal: Vec<u8>,
    pub tiles: Vec<u8>,
    pub entries: u64,
    pub build_seconds: f64,
    pub checksum: u32,
}

/// The file name of a group's table: `4x4-blank-first-1-2-3.pdb`. Goals without a name are
/// named by a hash of their tiles.
pub fn file_name(goal: &Goal, tiles: &[u8]) -> String {
    let goal_name = match goal.name() {
        n if n.contains(' ') => format!("goal{:08x}", crc32fast::hash(goal.tiles())),
        n => n,
    };
    let tiles: Vec<String> = tiles.iter().map(|t| t.to_string()).collect();
    format!("{}-{}-{}.pdb", goal.size(), goal_name, tiles.join("-"))
}

fn encode_header(h: &Header) -> [u8; HEADER_LEN] {
    let mut b = [0u8; HEADER_LEN];
    b[0..8].copy_from_slice(MAGIC);
    b[8..12].copy_from_slice(&FORMAT_VERSION.to_le_bytes());
    b[12] = h.size.width;
    b[13] = h.size.height;
    b[14] = h.tiles.len() as u8;
    b[16..16 + h.goal.len()].copy_from_slice(&h.goal);
    b[48..48 + h.tiles.len()].copy_from_slice(&h.tiles);
    b[56..64].copy_from_slice(&h.entries.to_le_bytes());
    b[64..72].copy_from_slice(&h.build_seconds.to_le_bytes());
    b[72..76].copy_from_slice(&h.checksum.to_le_bytes());
    b
}

fn corrupt(path: &Path, reason: impl Into<String>) -> PdbError {
    PdbError::Corrupt {
        path: path.to_path_buf(),
        reason: reason.into(),
    }
}

fn truncated(path: &Path, expected: u64, found: u64) -> PdbError {
    PdbError::Truncated {
        path: path.to_path_buf(),
        expected,
        found,
    }
}

fn decode_header(path: &Path, b: &[u8; HEADER_LEN]) -> Result<Header, PdbError> {
    if &b[0..8] != MAGIC {
        return Err(corrupt(
            path,
            "not a tilebench pattern database (bad magic)",
        ));
    }
    let version = u32::from_le_bytes(b[8..12].try_into().unwrap_or_default());
    if version != FORMAT_VERSION {
        return Err(corrupt(
            path,
            format!("format version {version}, this tilebench reads {FORMAT_VERSION}"),
        ));
    }
    let size = Size::new(b[12] as usize, b[13] as usize)
        .map_err(|_| corrupt(path, format!("bad board size {}x{}", b[12], b[13])))?;
    let k = b[14] as usize;
    if k == 0 || k > MAX_GROUP_TILES || k >= size.cells() {
        return Err(corrupt(path, format!("bad group size {k}")));
    }
    let u64_at = |i: usize| u64::from_le_bytes(b[i..i + 8].try_into().unwrap_or_default());
    Ok(Header {
        size,
        goal: b[16..16 + size.cells()].to_vec(),
        tiles: b[48..48 + k].to_vec(),
        entries: u64_at(56),
        build_seconds: f64::from_bits(u64_at(64)),
        checksum: u32::from_le_bytes(b[72..76].try_into().unwrap_or_default()),
    })
}

/// The checksum's hasher after the header (with its checksum field zero); the body follows.
fn hasher(header: &[u8; HEADER_LEN]) -> crc32fast::Hasher {
    let mut h = *header;
    h[72..76].fill(0);
    let mut hasher = crc32fast::Hasher::new();
    hasher.update(&h);
    hasher
}

fn checksum(header: &[u8; HEADER_LEN], values: &Values) -> u32 {
    let mut hasher = hasher(header);
    values.for_each_block(BLOCK_ENTRIES, |b| hasher.update(b));
    hasher.finalize()
}

/// Writes `table` to `path` atomically (temporary file, then rename).
pub fn write(path: &Path, table: &Table) -> Result<(), PdbError> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        // Said plainly: create_dir_all only reports "File exists".
        if dir.exists() && !dir.is_dir() {
            let source = std::io::Error::other("not a directory (the cache must be one)");
            return Err(PathIo::new(dir, source).into());
        }
        fs::create_dir_all(dir).at(dir)?;
    }
    let mut header = Header {
        size: table.goal.size(),
        goal: table.goal.tiles().to_vec(),
        tiles: table.tiles.clone(),
        entries: table.values.len() as u64,
        build_seconds: table.build_seconds,
        checksum: 0,
    };
    header.checksum = checksum(&encode_header(&header), &table.values);
    let written = crate::results::atomic::write_with(path, |f| {
        f.write_all(&encode_header(&header))?;
        let mut result = Ok(());
        table.values.for_each_block(BLOCK_ENTRIES, |b| {
            if result.is_ok() {
                result = f.write_all(b);
            }
        });
        result
    });
    Ok(written.at(path)?)
}

/// Opens a table file for reading; a FIFO, device or directory is refused (opening a FIFO
/// would wait for a writer forever), without blocking on it.
fn open_regular(path: &Path) -> Result<File, PdbError> {
    use std::os::unix::fs::OpenOptionsExt;
    let f = fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)
        .at(path)?;
    let meta = f.metadata().at(path)?;
    if !meta.is_file() {
        return Err(PdbError::NotAFile {
            path: path.to_path_buf(),
            what: crate::results::atomic::kind_of(&meta).to_string(),
        });
    }
    Ok(f)
}

/// Reads only the header (for listings).
pub(crate) fn read_header(path: &Path) -> Result<Header, PdbError> {
    let mut f = open_regular(path)?;
    let mut b = [0u8; HEADER_LEN];
    f.read_exact(&mut b).map_err(|_| {
        truncated(
            path,
            HEADER_LEN as u64,
            f.metadata().map(|m| m.len()).unwrap_or(0),
        )
    })?;
    decode_header(path, &b)
}

/// Checks a cached file completely, whatever table it holds: its header, its length and its
/// checksum (reads the whole file). Returns its header.
pub fn verify(path: &Path) -> Result<Header, PdbError> {
    let header = read_header(path)?;
    let goal = Goal::from_tiles(header.size, &header.goal)
        .map_err(|e| corrupt(path, format!("bad goal in the header: {e}")))?;
    read(path, &goal, &header.tiles)?;
    Ok(header)
}

/// Whether the file's length is the one its header implies (a cheap check, no checksum).
pub(crate) fn length_matches(path: &Path, header: &Header) -> Result<(), PdbError> {
    let found = fs::metadata(path).at(path)?.len();
    let expected = HEADER_LEN as u64 + header.entries;
    if found != expected {
        return Err(truncated(path, expected, found));
    }
    Ok(())
}

/// Reads the table of group `tiles` for `goal` from `path`, checking that the file is complete,
/// is for that goal and group, and that its checksum matches.
pub fn read(path: &Path, goal: &Goal, tiles: &[u8]) -> Result<Table, PdbError> {
    let mut f = open_regular(path)?;
    let len = f.metadata().at(path)?.len();
    let expected_entries = placements(goal.size().cells(), tiles.len()) as u64;
    let expected_len = HEADER_LEN as u64 + expected_entries;
    if len < HEADER_LEN as u64 {
        return Err(truncated(path, expected_len, len));
    }
    let mut hb = [0u8; HEADER_LEN];
    f.read_exact(&mut hb).at(path)?;
    let header = decode_header(path, &hb)?;
    // The first that differs: each text names its value exactly.
    let join = crate::board::join_tiles;
    let checks = [
        (
            "board size",
            header.size.to_string(),
            goal.size().to_string(),
        ),
        ("goal", join(&header.goal), join(goal.tiles())),
        ("group tiles", join(&header.tiles), join(tiles)),
        (
            "entry count",
            header.entries.to_string(),
            expected_entries.to_string(),
        ),
    ];
    if let Some((what, found, wanted)) = checks.into_iter().find(|(_, f, w)| f != w) {
        return Err(PdbError::Mismatch {
            path: path.to_path_buf(),
            what: what.to_string(),
            found,
            wanted,
        });
    }
    if len != expected_len {
        return Err(truncated(path, expected_len, len));
    }
    let len = expected_entries as usize;
    let pack = Values::worth_packing(len, tiles.len());
    let (values, found) = read_body(&mut f, &hb, goal, tiles, len, pack).at(path)?;
    if found != header.checksum {
        return Err(PdbError::Checksum {
            path: path.to_path_buf(),
            stored: header.checksum,
            computed: found,
        });
    }
    Ok(Table {
        goal: goal.clone(),
        tiles: tiles.to_vec(),
        values,
        build_seconds: header.build_seconds,
    })
}

/// Reads the body after header `hb`: the values (packed on the way with `pack` if every entry
/// fits) and the checksum of header and body.
fn read_body(
    f: &mut File,
    hb: &[u8; HEADER_LEN],
    goal: &Goal,
    tiles: &[u8],
    len: usize,
    pack: bool,
) -> std::io::Result<(Values, u32)> {
    let mut hasher = hasher(hb);
    if pack {
        let mut packer = Packer::new(goal, tiles, len);
        let block = packer.block();
        let mut buf = vec![0u8; (BLOCK_ENTRIES / block).max(1) * block];
        let mut left = len;
        let mut fits = true;
        while left > 0 && fits {
            let n = left.min(buf.len());
            let b = &mut buf[..n];
            f.read_exact(b)?;
            hasher.update(b);
            fits = packer.push(b);
            left -= b.len();
        }
        if fits {
            return Ok((packer.finish(), hasher.finalize()));
        }
        // Some entry does not fit a nibble: read the whole body again, in bytes.
        drop(packer);
        f.seek(std::io::SeekFrom::Start(HEADER_LEN as u64))?;
        hasher = self::hasher(hb);
    }
    let mut entries = Entries::filled(len, 0);
    f.read_exact(&mut entries)?;
    hasher.update(&entries);
    Ok((Values::bytes(entries), hasher.finalize()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pdb::CacheOptions;
    use crate::pdb::{build, load_or_build};

    /// An empty temporary directory, removed on drop.
    fn scratch() -> tempfile::TempDir {
        tempfile::tempdir().unwrap()
    }

    /// Named goals name their files; any other goal is named by a hash of its tiles, so that a
    /// file name never holds a space and two goals never share a file.
    #[test]
    fn file_names_have_no_spaces_and_tell_goals_apart() {
        let s = Size::new(3, 3).unwrap();
        assert_eq!(
            file_name(&Goal::spiral(s), &[1, 2, 8]),
            "3x3-spiral-1-2-8.pdb"
        );
        let a = Goal::parse("1 2 3 4 5 6 8 7 0", s).unwrap();
        let b = Goal::parse("2 1 3 4 5 6 7 8 0", s).unwrap();
        let (na, nb) = (file_name(&a, &[1, 2]), file_name(&b, &[1, 2]));
        assert!(!na.contains(' ') && na.starts_with("3x3-goal") && na.ends_with("-1-2.pdb"));
        assert_ne!(na, nb);
    }

    #[test]
    fn a_fifo_named_like_a_table_is_refused_without_blocking() {
        let dir = scratch();
        let path = dir.path().join("t.pdb");
        let c = std::ffi::CString::new(path.to_str().unwrap()).unwrap();
        // SAFETY: mkfifo with a valid NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        let goal = Goal::blank_last(Size::new(3, 3).unwrap());
        // Old code blocked forever in open(); the answer now comes at once.
        let (tx, rx) = std::sync::mpsc::channel();
        let p = path.clone();
        std::thread::spawn(move || {
            let _ = tx.send(
                read(&p, &goal, &[1, 2, 3])
                    .map(|_| ())
                    .unwrap_err()
                    .to_string(),
            );
        });
        let msg = rx
            .recv_timeout(std::time::Duration::from_secs(60))
            .expect("reading a FIFO blocked");
        assert!(
            msg.contains("a FIFO where a pattern database should be"),
            "{msg}"
        );
    }

    #[test]
    fn round_trip_and_every_kind_of_damage_is_detected() {
        let tmp = scratch();
        let dir = tmp.path();
        let s = Size::new(3, 3).unwrap();
        let goal = Goal::blank_last(s);
        let tiles = [1u8, 2, 3, 4];
        let table = build(&goal, &tiles, &crate::pdb::Silent);
        let path = dir.join(file_name(&goal, &tiles));
        write(&path, &table).unwrap();
        let back = read(&path, &goal, &tiles).unwrap();
        assert_eq!(back.values, table.values);
        assert_eq!(read_header(&path).unwrap().entries, 3024);
        let good = fs::read(&path).unwrap();

        // A cache "directory" that is a file is named as such.
        let e = write(&path.join("x.pdb"), &table).unwrap_err().to_string();
        assert!(
            e.ends_with("not a directory (the cache must be one)"),
            "{e}"
        );

        // A corrupted byte in the body, and one in the header.
        for at in [HEADER_LEN + 1000, 64] {
            let mut bad = good.clone();
            bad[at] ^= 0x10;
            fs::write(&path, &bad).unwrap();
            let e = read(&path, &goal, &tiles).unwrap_err();
            assert!(matches!(e, PdbError::Checksum { .. }), "{e}");
            assert!(e.to_string().contains(&path.display().to_string()));
        }
        // A truncated file.
        fs::write(&path, &good[..good.len() - 1]).unwrap();
        let e = read(&path, &goal, &tiles).unwrap_err();
        assert!(matches!(e, PdbError::Truncated { .. }), "{e}");
        fs::write(&path, &good[..10]).unwrap();
        assert!(matches!(
            read(&path, &goal, &tiles),
            Err(PdbError::Truncated { .. })
        ));
        // A file for another goal or another group.
        fs::write(&path, &good).unwrap();
        let e = read(&path, &Goal::blank_first(s), &tiles).unwrap_err();
        assert!(
            matches!(&e, PdbError::Mismatch { what, .. } if what == "goal"),
            "{e}"
        );
        let e = read(&path, &goal, &[1, 2, 3, 5]).unwrap_err();
        assert!(matches!(e, PdbError::Mismatch { .. }), "{e}");
        // The header alone (the body lost): a header for another table is named as that, not
        // as a truncated file of this one; this table's header is named truncated.
        fs::write(&path, &good[..HEADER_LEN]).unwrap();
        let e = read(&path, &Goal::blank_first(s), &tiles).unwrap_err();
        assert!(
            matches!(&e, PdbError::Mismatch { what, .. } if what == "goal"),
            "{e}"
        );
        let e = read(&path, &goal, &tiles).unwrap_err();
        assert!(matches!(e, PdbError::Truncated { .. }), "{e}");
        // Not a table at all.
        fs::write(&path, vec![7u8; good.len()]).unwrap();
        assert!(matches!(
            read(&path, &goal, &tiles),
            Err(PdbError::Corrupt { .. })
        ));
    }

    /// A packed table is written byte for byte as its byte form is, and a body read with packing
    /// comes back packed when every entry fits, in bytes (read again) when one does not, with the
    /// same values and checksum either way.
    #[test]
    fn packing_on_the_way_changes_nothing_on_disk() {
        let tmp = scratch();
        let dir = tmp.path();
        let goal = Goal::blank_first(Size::new(4, 4).unwrap());
        let tiles = [1u8, 2, 3];
        let table = build(&goal, &tiles, &crate::pdb::Silent);
        assert!(!table.values.is_packed(), "too small to pack by default");
        let bytes = table.values.to_vec();
        let mut packer = Packer::new(&goal, &tiles, bytes.len());
        assert!(packer.push(&bytes));
        let packed = Table {
            values: packer.finish(),
            ..table.clone()
        };
        assert!(packed.values.is_packed());
        let (a, b) = (dir.join("a.pdb"), dir.join("b.pdb"));
        write(&a, &table).unwrap();
        write(&b, &packed).unwrap();
        assert_eq!(fs::read(&a).unwrap(), fs::read(&b).unwrap());

        let body = |path: &Path, pack: bool| {
            let mut f = File::open(path).unwrap();
            let mut hb = [0u8; HEADER_LEN];
            f.read_exact(&mut hb).unwrap();
            let stored = decode_header(path, &hb).unwrap().checksum;
            let (values, sum) = read_body(&mut f, &hb, &goal, &tiles, bytes.len(), pack).unwrap();
            (values, sum == stored)
        };
        let (v, sum_ok) = body(&a, true);
        assert!(v.is_packed() && sum_ok);
        assert_eq!(v.to_vec(), bytes);
        // An entry 32 above its Manhattan distance does not fit a nibble.
        let mut raw = fs::read(&a).unwrap();
        raw[HEADER_LEN + 77] += 32;
        fs::write(&a, &raw).unwrap();
        let (v, sum_ok) = body(&a, true);
        assert!(!v.is_packed(), "read again in bytes");
        assert!(!sum_ok, "the tampered body fails its checksum");
        assert_eq!(v.get(77), bytes[77] + 32);
        assert_eq!(v.to_vec()[..77], bytes[..77]);
    }

    #[test]
    fn damaged_files_are_refused_without_build_and_rebuilt_with_it() {
        let tmp = scratch();
        let dir = tmp.path();
        let goal = Goal::blank_first(Size::new(3, 3).unwrap());
        let tiles = [5u8, 6, 7, 8];
        let mut options = CacheOptions {
            pdb_dir: dir.to_path_buf(),
            build_missing: false,
            ..CacheOptions::default()
        };
        let path = dir.join(file_name(&goal, &tiles));
        assert!(matches!(
            load_or_build(&goal, &tiles, &options),
            Err(PdbError::Missing { .. })
        ));
        options.build_missing = true;
        let built = load_or_build(&goal, &tiles, &options)
            .unwrap()
            .values
            .clone();
        let mut bytes = fs::read(&path).unwrap();
        bytes[HEADER_LEN + 5] ^= 1;
        fs::write(&path, &bytes).unwrap();
        options.build_missing = false;
        // The in-process copy was dropped, so this reads the damaged file.
        assert!(matches!(
            load_or_build(&goal, &tiles, &options),
            Err(PdbError::Checksum { .. })
        ));
        options.build_missing = true;
        let rebuilt = load_or_build(&goal, &tiles, &options).unwrap();
        assert_eq!(rebuilt.values, built);
        assert!(read(&path, &goal, &tiles).is_ok());
    }
}
