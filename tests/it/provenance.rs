//! The commit and dirty flag recorded in `meta.json` are captured at build time by `build.rs`
//! (`build/git.rs`): checked against the checkout, and the probe checked on a repository whose
//! `.git` is a file (as in a linked worktree). Cost: well under a second.

#[path = "../../build/git.rs"]
mod git;

use std::path::Path;
use std::process::Command;

fn sh(dir: &Path, args: &[&str]) -> String {
    let o = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args([
            "-c",
            "user.name=t",
            "-c",
            "user.email=t@t",
            "-c",
            "commit.gpgsign=false",
        ])
        .args(args)
        .output()
        .expect("git runs");
    assert!(
        o.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8_lossy(&o.stdout).trim().to_string()
}

fn has_git() -> bool {
    Command::new("git")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// The binary reports the commit of the checkout it was built from (build.rs reruns when HEAD
/// moves), as a full hash.
#[test]
fn the_build_records_this_checkout() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    // A checkout (`.git` a directory or a file) must be probed; only a tree without one (an
    // unpacked archive) may have no commit, so a missing git cannot pass this test.
    let checkout = root.join(".git").exists();
    assert!(
        !checkout || has_git(),
        "{} is a git checkout but git is not installed: install git to run this test",
        root.display()
    );
    let now = git::state(root);
    let built = tilebench::experiment::provenance::git_commit();
    match &now.commit {
        Some(commit) => {
            assert_eq!(
                built,
                Some(commit.as_str()),
                "build.rs recorded another commit"
            );
            assert!(commit.len() == 40 && commit.bytes().all(|b| b.is_ascii_hexdigit()));
            assert!(tilebench::experiment::provenance::git_dirty().is_some());
            assert!(!now.watch.is_empty(), "nothing watched for a new commit");
        }
        None => {
            assert!(
                !checkout,
                "git found no commit in the checkout {}",
                root.display()
            );
            assert_eq!(built, None, "no checkout here, yet a commit was recorded");
        }
    }
}

/// With `.git` a file pointing elsewhere (as `git worktree add` and `--separate-git-dir` make
/// it), the commit, the dirty flag and the files to watch are still found; changes outside the
/// binary's sources (results/, docs/, examples/) do not make the checkout dirty.
#[test]
fn a_git_file_checkout_is_probed() {
    assert!(
        has_git(),
        "git is not installed: install git to run this test"
    );
    let tmp = tempfile::tempdir().unwrap();
    let base = tmp.path();
    let (work, store) = (base.join("work"), base.join("store.git"));
    sh(
        base,
        &[
            "init",
            "-q",
            "--separate-git-dir",
            store.to_str().unwrap(),
            work.to_str().unwrap(),
        ],
    );
    assert!(work.join(".git").is_file(), ".git should be a file");
    for d in ["results", "docs", "examples/custom", "src"] {
        std::fs::create_dir_all(work.join(d)).unwrap();
    }
    std::fs::write(work.join("src/lib.rs"), "one\n").unwrap();
    std::fs::write(work.join("results/r.csv"), "x\n").unwrap();
    std::fs::write(work.join("docs/d.md"), "x\n").unwrap();
    std::fs::write(work.join("examples/custom/main.rs"), "x\n").unwrap();
    sh(&work, &["add", "."]);
    sh(&work, &["commit", "-q", "-m", "first"]);
    let head = sh(&work, &["rev-parse", "HEAD"]);

    let s = git::state(&work);
    assert_eq!(s.commit.as_deref(), Some(head.as_str()));
    assert_eq!(s.dirty, Some(false));
    assert!(
        s.watch
            .iter()
            .any(|p| p.ends_with("HEAD") && p.starts_with(&store)),
        "{:?}",
        s.watch
    );

    for (file, why) in [
        ("results/r.csv", "results/ is output, not source"),
        ("docs/d.md", "docs/ is not built into the binary"),
        ("examples/custom/main.rs", "an example is not the binary"),
    ] {
        std::fs::write(work.join(file), "y\n").unwrap();
        assert_eq!(git::state(&work).dirty, Some(false), "{why}");
    }
    std::fs::write(work.join("src/lib.rs"), "two\n").unwrap();
    assert_eq!(git::state(&work).dirty, Some(true));

    assert_eq!(git::state(base), git::GitState::default(), "not a checkout");
}

/// build.rs reruns (and rebuilds the library) only for the binary's sources and git's HEAD and
/// refs: not for docs/, examples/ or instances/ (an edit there rebuilt everything, 13 minutes),
/// and the sources it watches are the ones the dirty flag looks at.
#[test]
fn only_the_sources_are_watched() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let s = git::state(root);
    if s.commit.is_none() {
        return; // not a checkout: nothing is watched (the test above checks that this is right)
    }
    for source in ["src", "build.rs", "Cargo.toml", "Cargo.lock"] {
        assert!(
            s.watch.contains(&root.join(source)),
            "{source} is not watched"
        );
    }
    for outside in [
        "docs",
        "examples",
        "instances",
        "README.md",
        "tests",
        "results",
    ] {
        assert!(
            !s.watch.iter().any(|p| p == &root.join(outside)),
            "{outside} is watched: editing it rebuilds the library"
        );
    }
    assert!(s.watch.iter().any(|p| p.ends_with("HEAD")), "{:?}", s.watch);
}

/// Every file outside src/ that the library includes into the binary (`include_str!`,
/// `include_bytes!` outside its tests) is one of build.rs's sources, so editing it marks the
/// build dirty.
#[test]
fn every_included_file_is_a_source() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = vec![root.join("src")];
    let mut found = Vec::new();
    while let Some(path) = files.pop() {
        if path.is_dir() {
            files.extend(std::fs::read_dir(&path).unwrap().map(|e| e.unwrap().path()));
            continue;
        }
        if path.extension().is_none_or(|e| e != "rs") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        // The tests' own fixtures are not in the binary.
        let code = text.split("#[cfg(test)]").next().unwrap();
        for (_, rest) in code
            .match_indices("include_str!(\"")
            .chain(code.match_indices("include_bytes!(\""))
            .map(|(i, m)| (i, &code[i + m.len()..]))
        {
            let relative = &rest[..rest.find('"').unwrap()];
            let included = path.parent().unwrap().join(relative);
            let included = included.canonicalize().unwrap();
            found.push(included);
        }
    }
    assert!(
        !found.is_empty(),
        "no include_str!/include_bytes! found under src/"
    );
    let root = root.canonicalize().unwrap();
    for included in found {
        let inside = included.strip_prefix(&root).unwrap();
        assert!(
            git::SOURCES.iter().any(|s| inside.starts_with(s)),
            "{} is built into the binary but is not in build/git.rs's SOURCES",
            inside.display()
        );
    }
}
