//! Issue #11, points 8 and 9: a pattern-database cache that cannot be written fails the commands
//! that promise tables on disk (`pdb build`, `slurm submit`), while `solve` goes on from memory
//! and says so once; `pdb list` checks lengths, and `--verify` checksums, marking bad files.

use crate::common;

use std::fs;
use std::path::Path;

use common::bin::{run, stderr, stdout};

const GROUPS: &str = "1,2,3,4/5,6,7,8";

fn build(dir: &Path) -> std::process::Output {
    run(&[
        "pdb",
        "build",
        "pdb",
        "--partition",
        GROUPS,
        "--size",
        "3x3",
        "--pdb-dir",
        dir.to_str().unwrap(),
    ])
}

#[test]
fn pdb_build_and_slurm_submit_fail_when_the_cache_cannot_be_written() {
    let root = common::fresh_dir("pdb_cache_cli_unwritable");
    // --pdb-dir naming a regular file (a read-only directory behaves alike, but not for root).
    let not_a_dir = root.join("cache-is-a-file");
    fs::write(&not_a_dir, "not a directory\n").unwrap();
    let o = build(&not_a_dir);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "pdb build: {err}");
    assert!(
        err.contains("could not be written to the cache") && err.contains("cache-is-a-file"),
        "{err}"
    );

    let instances = common::bin::gen(
        &root,
        "set.txt",
        &["--size", "3x3", "--count", "2", "--seed", "1"],
    );
    let out = root.join("exp");
    let o = run(&[
        "slurm",
        "submit",
        "--dry-run",
        "--tasks",
        "2",
        "--instances",
        &instances,
        "-H",
        "pdb:1.2.3.4/5.6.7.8",
        "--pdb-dir",
        not_a_dir.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "slurm submit: {err}");
    assert!(err.contains("could not be written to the cache"), "{err}");
    assert!(
        !out.join("slurm/job.sh").exists(),
        "no job for tasks that would fail"
    );
}

#[test]
fn solve_goes_on_from_memory_and_says_once_that_nothing_was_cached() {
    let root = common::fresh_dir("pdb_cache_cli_solve");
    let not_a_dir = root.join("cache-is-a-file");
    fs::write(&not_a_dir, "x").unwrap();
    let o = run(&[
        "solve",
        "-H",
        "pdb",
        "--partition",
        GROUPS,
        "--pdb-dir",
        not_a_dir.to_str().unwrap(),
        "8 6 7 2 5 4 3 0 1",
    ]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert!(stdout(&o).contains("length     31"), "{}", stdout(&o));
    // Two tables were built, one warning given.
    assert_eq!(err.matches("not cached").count(), 1, "{err}");
}

#[test]
fn pdb_list_checks_lengths_and_verify_checks_checksums() {
    let dir = common::fresh_dir("pdb_cache_cli_list");
    let o = build(&dir);
    assert!(o.status.success(), "{}", stderr(&o));
    let mut files: Vec<_> = fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "pdb"))
        .collect();
    files.sort();
    assert_eq!(files.len(), 2);
    let name = |p: &Path| p.file_name().unwrap().to_string_lossy().into_owned();
    let list = |verify: bool| {
        let mut args = vec!["pdb", "list", "--pdb-dir", dir.to_str().unwrap()];
        if verify {
            args.push("--verify");
        }
        run(&args)
    };
    let line_of = |out: &str, file: &Path| -> String {
        out.lines()
            .find(|l| l.starts_with(&name(file)))
            .unwrap_or_else(|| panic!("{} not listed:\n{out}", name(file)))
            .to_string()
    };

    // Intact: both ok with --verify; without it, listed as not verified.
    let o = list(true);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    for f in &files {
        assert!(line_of(&stdout(&o), f).ends_with(" ok"), "{}", stdout(&o));
    }
    let o = list(false);
    let out = stdout(&o);
    assert!(out.contains("2 of 2 files not verified"), "{out}");

    // An intact table under another group's name is listed as bad, naming the header's group.
    let renamed = dir.join(name(&files[1]).replace(".pdb", "-99.pdb"));
    fs::copy(&files[1], &renamed).unwrap();
    let out = stdout(&list(true));
    let line = line_of(&out, &renamed);
    assert!(
        line.contains("BAD: ")
            && line.contains(&format!(
                "built for another group than its name says (header): {}",
                name(&files[1])
            )),
        "{out}"
    );
    fs::remove_file(&renamed).unwrap();

    // One flipped byte in a body (same length), one table truncated by a byte.
    let mut bytes = fs::read(&files[0]).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 0x40;
    fs::write(&files[0], &bytes).unwrap();
    let bytes = fs::read(&files[1]).unwrap();
    fs::write(&files[1], &bytes[..bytes.len() - 1]).unwrap();

    let o = list(false);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{out}");
    assert!(line_of(&out, &files[1]).contains("BAD: "), "{out}");
    assert!(line_of(&out, &files[1]).contains("truncated"), "{out}");
    assert!(line_of(&out, &files[0]).ends_with("not verified"), "{out}");
    assert!(out.contains("1 of 2 files not verified"), "{out}");

    let o = list(true);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(line_of(&out, &files[0]).contains("BAD: "), "{out}");
    assert!(
        line_of(&out, &files[0]).contains("checksum mismatch"),
        "{out}"
    );
    assert!(line_of(&out, &files[1]).contains("truncated"), "{out}");
    assert!(out.contains("2 of 2 files are bad"), "{out}");
}
