//! Running an outside solver as a child process: no shell, its own process group, the request on
//! standard input, standard output kept, standard error to a log cut at 1 MB; wall time, CPU time
//! and peak resident memory measured; time and memory limits enforced by killing the whole group.
//!
//! No process is left behind on any path: the group is killed when the solver exits (taking any
//! background children with it), when a limit or the cancel flag strikes, and by
//! [`kill_running_and_exit`] (for a Ctrl-C handler that exits at once); tilebench is the reaper of the
//! solver's orphans (Linux `PR_SET_CHILD_SUBREAPER`), so `run` returns only once every process of
//! the group is gone. The direct child also gets `SIGKILL` should tilebench die unexpectedly
//! (Linux `PR_SET_PDEATHSIG`).

use std::fs::File;
use std::io::{self, Read, Write};
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use nix::sys::signal::{killpg, pthread_sigmask, SigSet, SigmaskHow, Signal};
use nix::sys::wait::{waitid, waitpid, Id, WaitPidFlag, WaitStatus};
use nix::unistd::{sysconf, Pid, SysconfVar};
use serde::Serialize;

use super::OutsideError;

/// How much of a solver's standard error is kept in its log.
pub const STDERR_LOG_LIMIT: u64 = 1 << 20;

/// How much of the end of standard output is kept (only its last line matters).
const STDOUT_KEEP: usize = 1 << 20;

/// How much of the end of standard error is kept in memory, log or not: a verdict quotes its
/// last lines (a traceback ends there).
const STDERR_KEEP: usize = 16 << 10;

/// How often the watchdog looks at the clock, the memory and the cancel flag.
const POLL: Duration = Duration::from_millis(10);

/// How long to wait for the output pipes to close once the process group is dead (only a process
/// that left the group, e.g. with `setsid`, can hold them open longer).
const PIPE_GRACE: Duration = Duration::from_secs(2);

/// Process groups of the solvers running now, for [`kill_running_and_exit`].
static RUNNING: Mutex<Vec<i32>> = Mutex::new(Vec::new());

/// A solver command line, split into words as a shell would split them but never run by one:
/// `$(…)`, globs, pipes and redirections are passed to the program literally.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SolverCommand {
    text: String,
    words: Vec<String>,
}

impl SolverCommand {
    pub fn parse(text: &str) -> Result<SolverCommand, OutsideError> {
        let words = shell_words::split(text).map_err(|e| OutsideError::BadCommand {
            command: text.to_string(),
            reason: e.to_string(),
        })?;
        if words.is_empty() {
            return Err(OutsideError::BadCommand {
                command: text.to_string(),
                reason: "it is empty".into(),
            });
        }
        Ok(SolverCommand {
            text: text.to_string(),
            words,
        })
    }

    /// Whether the program can be started: a path to an executable file, or a name found as
    /// one on `PATH` (as `exec` looks for it). Checked before a run writes anything, so that a
    /// mistyped command leaves no results directory behind; what then fails at start-up is the
    /// program's own business (its verdict).
    pub fn check_startable(&self) -> Result<(), OutsideError> {
        use std::os::unix::fs::PermissionsExt;
        let program = Path::new(&self.words[0]);
        let executable = |p: &Path| {
            std::fs::metadata(p).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
        };
        let fail = |kind: io::ErrorKind, why: &str| OutsideError::Spawn {
            command: self.text.clone(),
            source: io::Error::new(kind, why.to_string()),
        };
        if self.words[0].contains('/') {
            return match std::fs::metadata(program) {
                Err(e) => Err(OutsideError::Spawn {
                    command: self.text.clone(),
                    source: e,
                }),
                Ok(_) if !executable(program) => Err(fail(
                    io::ErrorKind::PermissionDenied,
                    &format!("{} is not an executable file", program.display()),
                )),
                Ok(_) => Ok(()),
            };
        }
        let path = std::env::var_os("PATH").unwrap_or_default();
        if std::env::split_paths(&path).any(|dir| executable(&dir.join(program))) {
            Ok(())
        } else {
            Err(fail(
                io::ErrorKind::NotFound,
                &format!("no program '{}' on PATH", program.display()),
            ))
        }
    }

    /// The command as given.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The program and its arguments.
    pub fn words(&self) -> &[String] {
        &self.words
    }
}

/// When to kill a solver.
#[derive(Debug, Clone, Default)]
pub struct ProcessLimits {
    /// Wall time from the start of the process.
    pub time_limit: Option<Duration>,
    /// Resident memory of the process group, in bytes.
    pub memory_limit: Option<u64>,
    /// Kill the solver when this flag is set (Ctrl-C).
    pub cancel: Option<Arc<AtomicBool>>,
}

/// How the solver process ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case", tag = "how", content = "value")]
pub enum Ended {
    /// It exited by itself with this code.
    Exited(i32),
    /// A signal it did not get from tilebench ended it.
    Signalled(i32),
    /// Killed by tilebench at the time limit.
    TimeLimit,
    /// Killed by tilebench at the memory limit (or found above it when it ended).
    MemoryLimit,
    /// Killed by tilebench because the run was cancelled.
    Cancelled,
}

/// A finished solver process and what it printed.
#[derive(Debug, Clone)]
pub struct Finished {
    pub ended: Ended,
    pub wall_seconds: f64,
    /// User + system time of the solver process (and of children it waited for).
    pub cpu_seconds: f64,
    /// The larger of the process's own peak (getrusage) and the group's sampled peak.
    pub peak_rss_bytes: u64,
    /// The end of standard output (the last `STDOUT_KEEP` bytes at least).
    pub stdout: Vec<u8>,
    /// All bytes the solver wrote to standard error (the log keeps the first 1 MB).
    pub stderr_bytes: u64,
    /// The end of standard error (the last `STDERR_KEEP` bytes at least), with or without a log.
    pub stderr_tail: Vec<u8>,
    /// The process id, which is also its process group id; the group is gone when `run` returns.
    pub pid: i32,
}

/// Kills the process groups of every solver running now, waits until they are gone and exits
/// the process with `code`: for a Ctrl-C handler that does not wait for the runs to wind down.
///
/// The registry stays locked until the exit. A run that has not yet buried its solver blocks on
/// it, so it can neither reap the group under this function's feet nor exit first with another
/// status; a run that has, already removed its (gone) group. Either way nothing is left behind
/// and the exit status is `code`.
pub fn kill_running_and_exit(code: i32) -> ! {
    let running = RUNNING.lock().unwrap_or_else(|e| e.into_inner());
    for &pgid in running.iter() {
        kill_group(pgid);
    }
    for &pgid in running.iter() {
        bury(pgid);
    }
    std::process::exit(code)
}

/// How long to wait for a killed group's processes to be gone.
const BURY_WAIT: Duration = Duration::from_secs(2);

/// Makes this process the reaper of its orphaned descendants (Linux), so that the children a
/// solver leaves behind come back to us when it dies and [`bury`] can reap them.
fn become_subreaper() {
    #[cfg(target_os = "linux")]
    {
        static ONCE: std::sync::Once = std::sync::Once::new();
        ONCE.call_once(|| {
            let _ = nix::sys::prctl::set_child_subreaper(true);
        });
    }
}

/// Reaps the killed group `pgid` until none of its processes exists (at most [`BURY_WAIT`]).
fn bury(pgid: i32) {
    let deadline = Instant::now() + BURY_WAIT;
    while group_alive(pgid) && Instant::now() < deadline {
        // An error here is no child of the group left to reap yet (or, after a reap, a status
        // nix cannot name, such as a real-time signal: the process is gone all the same).
        let reaped = waitpid(Pid::from_raw(-pgid), Some(WaitPidFlag::WNOHANG));
        if matches!(reaped, Ok(WaitStatus::StillAlive) | Err(_)) {
            // Not dead yet, or not (yet) reparented to us: look again shortly.
            thread::sleep(Duration::from_millis(1));
        }
    }
}

fn kill_group(pgid: i32) {
    // ESRCH (no such group) is fine.
    let _ = killpg(Pid::from_raw(pgid), Signal::SIGKILL);
}

/// Whether any process of the group `pgid` still exists (for tests and checks).
pub fn group_alive(pgid: i32) -> bool {
    // No signal: only checks for existence and permission.
    killpg(Pid::from_raw(pgid), None).is_ok()
}

/// Runs the solver once with `input` on its standard input and waits for it (or kills it).
pub fn run(
    command: &SolverCommand,
    input: &[u8],
    stderr_log: Option<&Path>,
    limits: &ProcessLimits,
) -> Result<Finished, OutsideError> {
    // The log stays under an exclusive temporary name until the solver is done, then is renamed
    // into place: a symlink planted at its name is replaced, never written through.
    let log_error = |path: &Path| {
        let path = path.to_path_buf();
        move |source| OutsideError::Log { path, source }
    };
    let pending = stderr_log
        .map(|path| crate::results::atomic::Pending::create(path).map_err(log_error(path)))
        .transpose()?;
    let log = match (&pending, stderr_log) {
        (Some(p), Some(path)) => Some(p.file().try_clone().map_err(log_error(path))?),
        _ => None,
    };
    let mut cmd = Command::new(&command.words[0]);
    cmd.args(&command.words[1..])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0);
    #[cfg(target_os = "linux")]
    // SAFETY: the closure only calls prctl, which is async-signal-safe, as pre_exec requires;
    // nix's wrapper allocates nothing.
    unsafe {
        cmd.pre_exec(|| nix::sys::prctl::set_pdeathsig(Signal::SIGKILL).map_err(io::Error::from));
    }

    become_subreaper();
    let started = Instant::now();
    let mut child = {
        // Registered under the lock, so that kill_running never misses a started solver.
        let mut running = RUNNING.lock().unwrap_or_else(|e| e.into_inner());
        let child = cmd.spawn().map_err(|source| OutsideError::Spawn {
            command: command.text.clone(),
            source,
        })?;
        running.push(child.id() as i32);
        child
    };
    let pid = child.id() as i32;

    let (tx, rx) = mpsc::channel();
    let stdout = child.stdout.take().expect("stdout is piped");
    let tx_out = tx.clone();
    thread::spawn(move || {
        let _ = tx_out.send(Stream::Out(read_tail(stdout)));
    });
    let stderr = child.stderr.take().expect("stderr is piped");
    thread::spawn(move || {
        let mut tail = Vec::new();
        let n = copy_log(stderr, log, |chunk| {
            keep_tail(&mut tail, chunk, STDERR_KEEP)
        });
        let _ = tx.send(Stream::Err(n, tail));
    });
    if let Some(mut stdin) = child.stdin.take() {
        // The request is a few hundred bytes, far below a pipe's buffer, so this never blocks.
        // A solver that exits without reading it is its business, but SIGPIPE is fatal in this
        // binary (`cli::main_with`): a thread that blocks it writes, so the write gets EPIPE
        // and the signal, pending on that thread alone, ends with it.
        let input = input.to_vec();
        let writer = thread::spawn(move || {
            let pipe = SigSet::from(Signal::SIGPIPE);
            let _ = pthread_sigmask(SigmaskHow::SIG_BLOCK, Some(&pipe), None);
            let _ = stdin.write_all(&input);
        });
        let _ = writer.join();
    }

    let (done_tx, done_rx) = mpsc::channel::<()>();
    let watch_limits = limits.clone();
    let watchdog = thread::spawn(move || watch(pid, started, &watch_limits, &done_rx));

    let waited = wait_for_exit(pid);
    let wall_seconds = started.elapsed().as_secs_f64();
    drop(done_tx);
    let (killed_for, group_peak) = watchdog.join().unwrap_or((None, 0));
    let (status, usage) = {
        // The solver is a zombie now, so its pid (the group id) cannot have been reused: kill
        // whatever it left running in its group, reap it and them, and only then forget the
        // group, all under the lock (see `kill_running_and_exit`).
        let mut running = RUNNING.lock().unwrap_or_else(|e| e.into_inner());
        kill_group(pid);
        let reaped = reap(pid);
        bury(pid);
        running.retain(|&p| p != pid);
        reaped
    };
    waited.map_err(OutsideError::Wait)?;
    let (status, usage) = (status.map_err(OutsideError::Wait)?, usage);

    let mut stdout = Vec::new();
    let (mut stderr_bytes, mut stderr_tail) = (0, Vec::new());
    let deadline = Instant::now() + PIPE_GRACE;
    for _ in 0..2 {
        let left = deadline.saturating_duration_since(Instant::now());
        match rx.recv_timeout(left) {
            Ok(Stream::Out(bytes)) => stdout = bytes,
            Ok(Stream::Err(n, tail)) => (stderr_bytes, stderr_tail) = (n, tail),
            Err(_) => break,
        }
    }

    if let (Some(p), Some(path)) = (pending, stderr_log) {
        p.commit().map_err(log_error(path))?;
    }

    let own_peak = (usage.ru_maxrss.max(0) as u64) * 1024;
    let peak_rss_bytes = own_peak.max(group_peak);
    let cpu_seconds = seconds(usage.ru_utime) + seconds(usage.ru_stime);
    let mut ended = killed_for.unwrap_or(if libc::WIFSIGNALED(status) {
        Ended::Signalled(libc::WTERMSIG(status))
    } else {
        Ended::Exited(libc::WEXITSTATUS(status))
    });
    if matches!(ended, Ended::Exited(_) | Ended::Signalled(_))
        && limits.memory_limit.is_some_and(|m| peak_rss_bytes > m)
    {
        ended = Ended::MemoryLimit;
    }
    if matches!(ended, Ended::Exited(_) | Ended::Signalled(_)) && stopped_with_us(&ended, limits) {
        ended = Ended::Cancelled;
    }
    Ok(Finished {
        ended,
        wall_seconds,
        cpu_seconds,
        peak_rss_bytes,
        stdout,
        stderr_bytes,
        stderr_tail,
        pid,
    })
}

/// Whether tilebench itself is being stopped, so that the solver's end is not its own doing: a
/// Slurm time limit or a Ctrl-C signals the whole process group, the solver included, and the
/// solver may die before tilebench's handler has set the flag. A solver ended by such a signal
/// (or exiting with 128 + it) waits for the flag a short while ([`STOP_GRACE`]).
fn stopped_with_us(ended: &Ended, limits: &ProcessLimits) -> bool {
    let Some(cancel) = &limits.cancel else {
        return false;
    };
    let stop_signals = [libc::SIGTERM, libc::SIGINT, libc::SIGHUP];
    let by_stop_signal = match *ended {
        Ended::Signalled(sig) => stop_signals.contains(&sig),
        Ended::Exited(code) => stop_signals.iter().any(|s| code == 128 + s),
        _ => false,
    };
    let waited = Instant::now();
    loop {
        if cancel.load(Ordering::SeqCst) {
            return true;
        }
        if !by_stop_signal || waited.elapsed() > STOP_GRACE {
            return false;
        }
        thread::sleep(Duration::from_millis(5));
    }
}

/// How long a solver ended by a stop signal waits for tilebench's own stop to show.
const STOP_GRACE: Duration = Duration::from_secs(1);

enum Stream {
    Out(Vec<u8>),
    /// The bytes read, and the end of them.
    Err(u64, Vec<u8>),
}

/// Reads a stream to its end (or its first error), handing each chunk read to `take`.
fn drain(mut from: impl Read, mut take: impl FnMut(&[u8])) {
    let mut chunk = [0u8; 65536];
    loop {
        match from.read(&mut chunk) {
            Ok(0) => break,
            Ok(n) => take(&chunk[..n]),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(_) => break,
        }
    }
}

/// Reads a stream to its end, keeping its last part.
fn read_tail(from: impl Read) -> Vec<u8> {
    let mut kept = Vec::new();
    drain(from, |chunk| keep_tail(&mut kept, chunk, STDOUT_KEEP));
    kept
}

/// Appends `chunk` to `kept`, dropping the front once it holds twice `keep` bytes (so that at
/// least the last `keep` are always there, at little copying).
fn keep_tail(kept: &mut Vec<u8>, chunk: &[u8], keep: usize) {
    kept.extend_from_slice(chunk);
    if kept.len() > 2 * keep {
        kept.drain(..kept.len() - keep);
    }
}

/// Copies a stream into the log up to [`STDERR_LOG_LIMIT`] and drains the rest (so the solver
/// never blocks on a full pipe), handing every chunk to `also`; returns the bytes read.
fn copy_log(from: impl Read, mut log: Option<File>, mut also: impl FnMut(&[u8])) -> u64 {
    let mut total = 0u64;
    drain(from, |chunk| {
        also(chunk);
        let n = chunk.len();
        if let Some(file) = log.as_mut() {
            let room = STDERR_LOG_LIMIT.saturating_sub(total) as usize;
            let keep = room.min(n);
            let mut ok = file.write_all(&chunk[..keep]).is_ok();
            if keep < n {
                ok = ok && writeln!(file, "\n[tilebench: standard error cut at 1 MB]").is_ok();
                log = None;
            }
            if !ok {
                log = None;
            }
        }
        total += n as u64;
    });
    total
}

/// Waits until the process has exited, without reaping it (so its pid stays reserved).
fn wait_for_exit(pid: i32) -> io::Result<()> {
    loop {
        match waitid(
            Id::Pid(Pid::from_raw(pid)),
            WaitPidFlag::WEXITED | WaitPidFlag::WNOWAIT,
        ) {
            Ok(_) => return Ok(()),
            Err(nix::errno::Errno::EINTR) => {}
            // The kernel says EINVAL only of bad arguments, and these are fixed: it is nix
            // failing to name the status of a process that did exit (killed by a real-time
            // signal), which `reap` reads from the raw status.
            Err(nix::errno::Errno::EINVAL) => return Ok(()),
            Err(e) => return Err(e.into()),
        }
    }
}

/// Reaps the process: its wait status and resource usage. Raw `wait4`: neither nix nor rustix
/// returns the child's resource usage with its status (docs/dependencies.md).
fn reap(pid: i32) -> (io::Result<i32>, libc::rusage) {
    // SAFETY: rusage is plain data; wait4 fills it.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let mut status = 0;
    loop {
        let r = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
        if r == pid {
            return (Ok(status), usage);
        }
        let e = io::Error::last_os_error();
        if r != -1 || e.kind() != io::ErrorKind::Interrupted {
            return (Err(e), usage);
        }
    }
}

fn seconds(t: libc::timeval) -> f64 {
    t.tv_sec as f64 + t.tv_usec as f64 / 1e6
}

/// The watchdog: until `done` fires, kills the group at the time limit, the memory limit or on
/// cancel, and samples the group's memory. Returns why it killed (if it did) and the peak.
fn watch(
    pid: i32,
    started: Instant,
    limits: &ProcessLimits,
    done: &mpsc::Receiver<()>,
) -> (Option<Ended>, u64) {
    let mut peak = 0;
    loop {
        let wait = limits
            .time_limit
            .map_or(POLL, |t| t.saturating_sub(started.elapsed()).min(POLL));
        match done.recv_timeout(wait) {
            Err(mpsc::RecvTimeoutError::Timeout) => {}
            _ => return (None, peak),
        }
        let rss = group_rss(pid);
        peak = peak.max(rss);
        let reason = if limits
            .cancel
            .as_ref()
            .is_some_and(|c| c.load(Ordering::Relaxed))
        {
            Some(Ended::Cancelled)
        } else if limits.time_limit.is_some_and(|t| started.elapsed() >= t) {
            Some(Ended::TimeLimit)
        } else if limits.memory_limit.is_some_and(|m| rss > m) {
            Some(Ended::MemoryLimit)
        } else {
            None
        };
        if let Some(reason) = reason {
            kill_group(pid);
            return (Some(reason), peak);
        }
    }
}

/// Resident memory of a process and its descendants, in bytes (0 where /proc cannot tell).
fn group_rss(pid: i32) -> u64 {
    let page = page_size();
    let mut total = 0;
    let mut stack = vec![pid];
    let mut seen = 0;
    while let Some(p) = stack.pop() {
        seen += 1;
        if seen > 4096 {
            break;
        }
        total += rss_pages(p) * page;
        let Ok(tasks) = std::fs::read_dir(format!("/proc/{p}/task")) else {
            continue;
        };
        for task in tasks.flatten() {
            let path = task.path().join("children");
            if let Ok(text) = std::fs::read_to_string(path) {
                stack.extend(
                    text.split_whitespace()
                        .filter_map(|c| c.parse::<i32>().ok()),
                );
            }
        }
    }
    total
}

/// Field 24 of /proc/PID/stat: resident pages.
fn rss_pages(pid: i32) -> u64 {
    let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
        return 0;
    };
    // The command name (field 2) is in parentheses and may contain spaces: count after it.
    let Some(after) = stat.rfind(')').map(|i| &stat[i + 1..]) else {
        return 0;
    };
    after
        .split_whitespace()
        .nth(21)
        .and_then(|f| f.parse().ok())
        .unwrap_or(0)
}

fn page_size() -> u64 {
    match sysconf(SysconfVar::PAGE_SIZE) {
        Ok(Some(n)) if n > 0 => n as u64,
        _ => 4096,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_are_split_like_a_shell_but_kept_literal() {
        let c = SolverCommand::parse(r#"python3 "my solver.py" 'it''s' $(rm -rf x) a\ b"#).unwrap();
        assert_eq!(
            c.words(),
            ["python3", "my solver.py", "its", "$(rm", "-rf", "x)", "a b"]
        );
        assert!(SolverCommand::parse("python3 'unclosed").is_err());
        assert!(SolverCommand::parse("   ").is_err());
    }

    #[test]
    fn a_process_runs_with_its_input_and_is_measured() {
        let c = SolverCommand::parse("cat").unwrap();
        let f = run(&c, b"hello\n", None, &ProcessLimits::default()).unwrap();
        assert_eq!(f.ended, Ended::Exited(0));
        assert_eq!(f.stdout, b"hello\n");
        assert!(f.wall_seconds > 0.0 && f.peak_rss_bytes > 0);
        assert!(!group_alive(f.pid));
    }

    /// A signal nix has no name for (a real-time one) is reported like any other.
    #[test]
    fn a_real_time_signal_is_reported_as_a_signal() {
        let c = SolverCommand::parse("sh -c 'kill -40 $$'").unwrap();
        let f = run(&c, b"", None, &ProcessLimits::default()).unwrap();
        assert_eq!(f.ended, Ended::Signalled(40));
        assert!(!group_alive(f.pid));
    }

    #[test]
    fn a_missing_program_is_an_error_naming_it() {
        let c = SolverCommand::parse("/nonexistent/solver --fast").unwrap();
        let e = run(&c, b"", None, &ProcessLimits::default()).unwrap_err();
        assert!(e.to_string().contains("/nonexistent/solver --fast"), "{e}");
    }
}
