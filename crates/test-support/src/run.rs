//! The one way the tests run the `arbiter` binary: [`run`] (or [`run_command`] for a command
//! set up by hand, in another directory or through a shell), under a time limit, with its output
//! and error read to the end and its peak memory watched.

use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::{Command, ExitStatus, Output, Stdio};
use std::time::{Duration, Instant};

/// No single run may take longer than this (the slowest case takes a few seconds in release).
pub const TIME_LIMIT: Duration = Duration::from_secs(120);

/// The `arbiter` binary of the build the running test belongs to: beside the directory of the
/// test binary (`target/PROFILE/deps/..`), where cargo builds it for the root crate's tests.
///
/// # Panics
///
/// When the test binary's path cannot be read.
pub fn binary() -> PathBuf {
    let test = std::env::current_exe().expect("the test binary has a path");
    let deps = test.parent().expect("the test binary is in a directory");
    deps.parent()
        .unwrap_or(deps)
        .join(format!("arbiter{}", std::env::consts::EXE_SUFFIX))
}

/// A command that runs the binary, to set up further.
pub fn command() -> Command {
    Command::new(binary())
}

/// What a run of the binary left behind.
#[derive(Debug)]
pub struct Run {
    /// How it ended.
    pub status: ExitStatus,
    /// Its standard output (empty when it went elsewhere).
    pub stdout: Vec<u8>,
    /// Its standard error, as text.
    pub stderr: String,
    /// The largest resident set seen (`VmHWM` of `/proc/PID/status`), in KiB, if it could be read.
    pub peak_kib: Option<u64>,
    /// How long it ran.
    pub elapsed: Duration,
}

impl Run {
    /// The exit code, if it exited.
    pub fn code(&self) -> Option<i32> {
        self.status.code()
    }

    /// Standard output as text.
    ///
    /// # Panics
    ///
    /// When it is not UTF-8.
    pub fn stdout(&self) -> String {
        String::from_utf8(self.stdout.clone()).expect("stdout is UTF-8")
    }

    /// No panic, no abort, no signal: a clean exit with one of the documented codes.
    pub fn assert_clean(&self, what: &str) {
        assert!(
            matches!(self.code(), Some(0..=2)),
            "{what}: exit status {:?}\nstderr: {}",
            self.status,
            self.stderr
        );
        for bad in ["panicked", "RUST_BACKTRACE", "overflow", "internal error"] {
            assert!(
                !self.stderr.contains(bad),
                "{what}: stderr mentions {bad:?}:\n{}",
                self.stderr
            );
        }
    }

    /// A clean exit ([`Run::assert_clean`]) with status `code`.
    pub fn assert_code(&self, code: i32, what: &str) {
        self.assert_clean(what);
        assert_eq!(
            self.code(),
            Some(code),
            "{what}: exit code\nstderr: {}",
            self.stderr
        );
    }
}

/// The run as [`Command::output`] gives it.
impl From<Run> for Output {
    fn from(run: Run) -> Output {
        Output {
            status: run.status,
            stdout: run.stdout,
            stderr: run.stderr.into_bytes(),
        }
    }
}

/// Where a child's standard input comes from.
pub enum Input<'a> {
    /// Nothing (`/dev/null`).
    Null,
    /// These bytes, through a pipe.
    Bytes(&'a [u8]),
    /// A file or pipe, e.g. `Stdio::from(File::open(...))`.
    From(Stdio),
}

/// Runs the binary with `args` and standard output piped.
pub fn run(args: &[&str], input: Input<'_>) -> Run {
    let mut command = command();
    command.args(args);
    run_command(command, input, None)
}

/// Runs `command` (the binary, perhaps through a shell) with `input`, standard output to `stdout`
/// (piped when `None`), under [`TIME_LIMIT`], polling its peak memory.
///
/// # Panics
///
/// When the command cannot be started, or runs past the time limit (it is killed first).
pub fn run_command(mut command: Command, input: Input<'_>, stdout: Option<Stdio>) -> Run {
    let started = Instant::now();
    let input = match input {
        Input::Null => (Stdio::null(), None),
        Input::Bytes(bytes) => (Stdio::piped(), Some(bytes)),
        Input::From(stdin) => (stdin, None),
    };
    let mut child = command
        .stdin(input.0)
        .stdout(stdout.unwrap_or_else(Stdio::piped))
        .stderr(Stdio::piped())
        .spawn()
        .expect("run arbiter");
    let pid = child.id();
    let writer = match (input.1, child.stdin.take()) {
        (Some(bytes), Some(mut stdin)) => {
            let bytes = bytes.to_vec();
            Some(std::thread::spawn(move || {
                // The child may stop reading early; that is its right.
                let _ = stdin.write_all(&bytes);
            }))
        }
        _ => None,
    };
    let mut out_pipe = child.stdout.take();
    let reader = std::thread::spawn(move || {
        let mut out = Vec::new();
        if let Some(pipe) = out_pipe.as_mut() {
            pipe.read_to_end(&mut out).expect("read stdout");
        }
        out
    });
    let mut err_pipe = child.stderr.take().expect("stderr");
    let err_reader = std::thread::spawn(move || {
        let mut err = Vec::new();
        err_pipe.read_to_end(&mut err).expect("read stderr");
        err
    });
    let mut peak = None;
    let status = loop {
        if let Some(kib) = vm_hwm(pid) {
            peak = Some(peak.map_or(kib, |p: u64| p.max(kib)));
        }
        if let Some(status) = child.try_wait().expect("wait for arbiter") {
            break status;
        }
        if started.elapsed() > TIME_LIMIT {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{command:?} still running after {TIME_LIMIT:?}");
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    if let Some(writer) = writer {
        let _ = writer.join();
    }
    let stdout = reader.join().expect("stdout reader");
    let stderr = String::from_utf8_lossy(&err_reader.join().expect("stderr reader")).into_owned();
    Run {
        status,
        stdout,
        stderr,
        peak_kib: peak,
        elapsed: started.elapsed(),
    }
}

/// `VmHWM` (peak resident set) of a live process, in KiB.
fn vm_hwm(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}
