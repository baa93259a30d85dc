//! Issue #11, point 10: no value given to `slurm submit` can inject anything into `job.sh`.
//!
//! Each option that is written into the script gets a newline, `$(…)`, backticks, quotes and
//! a `#`/backslash in turn (`--dry-run`, so no cluster is needed). A value with a control
//! character must be refused with exit 2 naming the option; every other value must come out,
//! for sbatch (its own `#SBATCH` parser, mimicked below) and for bash, exactly as given: the
//! script, run under bash with a fake `tilebench` (at the binary's path and on PATH), calls it
//! once with the value intact and runs nothing else (no marker file appears).

use crate::common;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The payloads; each that gets as far as the shell would create a file named `PWNED…`.
const PAYLOADS: &[(&str, bool)] = &[
    ("x\ntouch PWNED_newline", false),
    ("x\r#SBATCH --wrap=touch PWNED_cr", false),
    ("x$(touch PWNED_subst)", true),
    ("x`touch PWNED_backtick`", true),
    ("x'; touch PWNED_single; echo '", true),
    ("x\"; touch PWNED_double; echo \"", true),
    ("x #not a comment \\ y", true),
];

/// sbatch's reading of one `#SBATCH` line into arguments (Slurm's `_get_argument`): quotes
/// `"` and `'`, a backslash escapes the next character everywhere, an unquoted `#` starts a
/// comment, whitespace separates.
fn sbatch_arguments(line: &str) -> Vec<String> {
    let mut args = Vec::new();
    let mut chars = line.chars().peekable();
    loop {
        while chars.peek().is_some_and(|c| c.is_whitespace()) {
            chars.next();
        }
        if chars.peek().is_none() {
            return args;
        }
        let (mut arg, mut quote, mut escape) = (String::new(), None, false);
        while let Some(&c) = chars.peek() {
            if quote.is_none() && c.is_whitespace() {
                break;
            }
            chars.next();
            if escape {
                escape = false;
            } else if c == '\\' {
                escape = true;
                continue;
            } else if let Some(q) = quote {
                if c == q {
                    quote = None;
                    continue;
                }
            } else if c == '"' || c == '\'' {
                quote = Some(c);
                continue;
            } else if c == '#' {
                args.push(arg);
                return args;
            }
            arg.push(c);
        }
        args.push(arg);
    }
}

/// The options sbatch reads from the script's header.
fn directives(script: &str) -> Vec<String> {
    script
        .lines()
        .skip(1)
        .take_while(|l| l.starts_with('#') || l.trim().is_empty())
        .filter_map(|l| l.strip_prefix("#SBATCH"))
        .flat_map(sbatch_arguments)
        .collect()
}

struct Case {
    option: &'static str,
    payload: &'static str,
    accepted: bool,
    dir: PathBuf,
    out: PathBuf,
    /// What the value must look like where it arrives: an `#SBATCH` option, or an argument of
    /// `tilebench run`.
    sbatch: Option<String>,
    run_arg: Option<(&'static str, String)>,
}

#[test]
fn no_option_value_injects_into_the_job_script() {
    let root = common::fresh_dir("slurm_injection");
    let bin_dir = root.join("bin");
    fs::create_dir_all(&bin_dir).unwrap();
    let binary = bin_dir.join("tilebench");
    fs::copy(env!("CARGO_BIN_EXE_tilebench"), &binary).unwrap();
    let korf = Path::new(env!("CARGO_MANIFEST_DIR")).join("instances/korf100.txt");

    let options = [
        "--out",
        "--job-name",
        "--partition",
        "--time",
        "--mem",
        "--sbatch-arg",
        "--instances",
        "--pdb-dir",
    ];
    let mut cases = Vec::new();
    for (o, option) in options.into_iter().enumerate() {
        for (p, &(payload, accepted)) in PAYLOADS.iter().enumerate() {
            let dir = root.join(format!("case-{o}-{p}"));
            fs::create_dir_all(&dir).unwrap();
            let mut out = dir.join("results");
            let mut instances = korf.display().to_string();
            let mut value = payload.to_string();
            let (mut sbatch, mut run_arg) = (None, None);
            match option {
                "--out" => {
                    out = dir.join(payload);
                    run_arg = Some(("--out", out.display().to_string()));
                    sbatch = Some(format!("--chdir={}", out.display()));
                }
                "--instances" => {
                    let file = dir.join(format!("{payload}.txt"));
                    fs::copy(&korf, &file).unwrap();
                    instances = format!("{}:1-2", file.display());
                    value = instances.clone();
                    run_arg = Some(("--instances", instances.clone()));
                }
                "--pdb-dir" => {
                    value = dir.join(payload).display().to_string();
                    run_arg = Some(("--pdb-dir", value.clone()));
                }
                "--sbatch-arg" => {
                    value = format!("--comment={payload}");
                    sbatch = Some(value.clone());
                }
                other => sbatch = Some(format!("{other}={payload}")),
            }
            let mut cmd = Command::new(&binary);
            cmd.current_dir(&dir)
                .args(["slurm", "submit", "-H", "manhattan", "--tasks", "2"])
                .args(["--dry-run", "--instances", &instances])
                .arg("--out")
                .arg(&out);
            if !matches!(option, "--out" | "--instances") {
                cmd.arg(format!("{option}={value}"));
            }
            let o = output_of_fresh_copy(&mut cmd);
            let stderr = String::from_utf8_lossy(&o.stderr).into_owned();
            if accepted {
                assert_eq!(o.status.code(), Some(0), "{option} {payload:?}: {stderr}");
            } else {
                assert_eq!(o.status.code(), Some(2), "{option} {payload:?}: {stderr}");
                assert!(
                    stderr.contains(option) && stderr.contains("control character"),
                    "{option} {payload:?}: the error should name the option: {stderr}"
                );
                assert!(!out.join("slurm").exists(), "{option}: nothing written");
            }
            cases.push(Case {
                option,
                payload,
                accepted,
                dir,
                out,
                sbatch,
                run_arg,
            });
        }
    }

    // Now the binary at that path is a fake that records its arguments.
    let record = root.join("args");
    fs::remove_file(&binary).unwrap();
    fs::write(
        &binary,
        format!(
            "#!/bin/sh\nprintf '%s\\0' \"$@\" >> '{}'\n",
            record.display()
        ),
    )
    .unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        fs::set_permissions(&binary, fs::Permissions::from_mode(0o755)).unwrap();
    }
    let path = format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    for case in cases.iter().filter(|c| c.accepted) {
        let (option, payload) = (case.option, case.payload);
        let script = fs::read_to_string(case.out.join("slurm/job.sh")).unwrap();
        // The header is comments only; the directives carry the values exactly.
        let header: Vec<&str> = script.lines().take_while(|l| *l != "set -eu").collect();
        assert!(
            header.iter().all(|l| l.starts_with('#')),
            "{option} {payload:?}:\n{script}"
        );
        let found = directives(&script);
        if let Some(want) = &case.sbatch {
            assert!(
                found.contains(want),
                "{option} {payload:?}: sbatch would read {found:?}, not {want:?}"
            );
        }
        assert!(
            found.iter().all(|d| d.starts_with("--")),
            "{option} {payload:?}: {found:?}"
        );

        let _ = fs::remove_file(&record);
        let o = Command::new("bash")
            .arg(case.out.join("slurm/job.sh"))
            .current_dir(&case.dir)
            .env("PATH", &path)
            .env("SLURM_ARRAY_TASK_ID", "1")
            .output()
            .unwrap();
        assert!(
            o.status.success(),
            "{option} {payload:?}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        let args = fs::read_to_string(&record).unwrap();
        let args: Vec<&str> = args.split_terminator('\0').collect();
        assert_eq!(args.first(), Some(&"run"), "{option} {payload:?}: {args:?}");
        if let Some((flag, want)) = &case.run_arg {
            let at = args.iter().position(|a| a == flag).unwrap();
            assert_eq!(args[at + 1], want, "{option} {payload:?}: {args:?}");
        }
        let shard = args.iter().position(|a| *a == "--shard").unwrap();
        assert_eq!(args[shard + 1], "1/2");
    }
    // Nothing but the fake ran: no marker anywhere.
    let mut stack = vec![root.clone()];
    while let Some(d) = stack.pop() {
        for e in fs::read_dir(&d).unwrap() {
            let e = e.unwrap();
            let name = e.file_name().to_string_lossy().into_owned();
            assert!(
                !name.starts_with("PWNED"),
                "{} was created",
                e.path().display()
            );
            if e.file_type().unwrap().is_dir() {
                stack.push(e.path());
            }
        }
    }
}

/// `cmd`'s output, where `cmd` runs a binary this test has just copied: while another test's
/// thread forks, its child holds the copy's write descriptor until it execs, and running the
/// copy then fails with "Text file busy" (ETXTBSY) for a moment; it is tried again.
fn output_of_fresh_copy(cmd: &mut Command) -> std::process::Output {
    for _ in 0..100 {
        match cmd.output() {
            Err(e) if e.kind() == std::io::ErrorKind::ExecutableFileBusy => {
                std::thread::sleep(std::time::Duration::from_millis(20))
            }
            r => return r.unwrap(),
        }
    }
    panic!("the copied binary stayed busy for 2 s")
}
