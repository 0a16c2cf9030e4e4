//! A run interrupted by SIGINT, SIGTERM or SIGHUP while it writes `-o FILE` removes its temporary
//! file, leaves FILE as it was, and still dies of the signal (the shell sees 130, 143 or 129). A
//! signal ignored when arbiter starts (`nohup`) stays ignored. See: issue 25, point 4. It says
//! in one line what was kept, whether it wrote to a file or to standard output. See: issue 43,
//! point 10.

use std::fs;
use std::io::{Read, Write};
use std::os::unix::process::ExitStatusExt;
use std::path::Path;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use crate::util::{good_games, scratch, write};

/// A child killed if the test ends before it does.
struct Running(Child);

impl Drop for Running {
    fn drop(&mut self) {
        if self.0.try_wait().ok().flatten().is_none() {
            let _ = self.0.kill();
            let _ = self.0.wait();
        }
    }
}

impl Running {
    fn wait(&mut self, limit: Duration) -> ExitStatus {
        let started = Instant::now();
        loop {
            if let Some(status) = self.0.try_wait().unwrap() {
                return status;
            }
            assert!(started.elapsed() < limit, "still running after {limit:?}");
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}

/// The hidden temporary files in `dir`.
fn temporaries(dir: &Path) -> Vec<String> {
    fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.starts_with('.') && name.ends_with(".tmp"))
        .collect()
}

/// Starts `arbiter args` (through `sh -c PREFIX` when given) in `dir`, reading standard input
/// that stays open, and waits until it has made its temporary file.
fn start_writing(dir: &Path, prefix: Option<&str>, args: &[&str]) -> Running {
    let binary = crate::util::binary();
    let mut command = match prefix {
        Some(prefix) => {
            let mut sh = Command::new("sh");
            sh.arg("-c")
                .arg(format!("{prefix}; exec \"$@\""))
                .arg("sh")
                .arg(&binary);
            sh
        }
        None => Command::new(binary),
    };
    let child = command
        .current_dir(dir)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut running = Running(child);
    let stdin = running.0.stdin.as_mut().unwrap();
    stdin.write_all(good_games(0, 200).as_bytes()).unwrap();
    stdin.flush().unwrap();
    let started = Instant::now();
    while temporaries(dir).is_empty() {
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "no temporary file appeared"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    running
}

/// What the child said on stderr, once it has ended.
fn said(running: &mut Running) -> String {
    let mut text = String::new();
    running
        .0
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut text)
        .unwrap();
    text
}

#[test]
fn a_signal_removes_the_temporary_file_and_still_ends_the_run() {
    for (signal, args, word) in [
        (
            libc::SIGINT,
            ["export", "-", "-o", "out.csv", "--quiet"],
            "interrupted",
        ),
        (
            libc::SIGTERM,
            ["validate", "-", "-o", "out.txt", "--quiet"],
            "terminated",
        ),
        (
            libc::SIGHUP,
            ["export", "-", "-o", "out.parquet", "--quiet"],
            "hung up",
        ),
    ] {
        let dir = scratch();
        let root = dir.path();
        let output = args[3];
        write(root, output, b"precious\n");
        let mut running = start_writing(root, None, &args);
        // SAFETY: a plain kill(2) of our own child.
        assert_eq!(unsafe { libc::kill(running.0.id() as i32, signal) }, 0);
        let status = running.wait(Duration::from_secs(30));
        assert_eq!(status.signal(), Some(signal), "{args:?}: {status:?}");
        assert_eq!(
            said(&mut running),
            format!("arbiter: {word}: {output} left unchanged\n"),
            "{args:?}"
        );
        assert_eq!(temporaries(root), Vec::<String>::new(), "{args:?}");
        assert_eq!(
            String::from_utf8_lossy(&fs::read(root.join(output)).unwrap()),
            "precious\n",
            "{args:?}"
        );
        assert_eq!(fs::read_dir(root).unwrap().count(), 1, "{args:?}");
    }
}

#[test]
fn an_interrupted_run_says_what_it_kept() {
    // Two outputs not there before, then standard output: each is named.
    let dir = scratch();
    let root = dir.path();
    let mut running = start_writing(
        root,
        None,
        &["select", "-", "-o", "kept.pgn", "--rejected", "other.pgn"],
    );
    // SAFETY: a plain kill(2) of our own child.
    assert_eq!(
        unsafe { libc::kill(running.0.id() as i32, libc::SIGINT) },
        0
    );
    let status = running.wait(Duration::from_secs(30));
    assert_eq!(status.signal(), Some(libc::SIGINT), "{status:?}");
    assert_eq!(
        said(&mut running),
        "arbiter: interrupted: kept.pgn not written, other.pgn not written\n"
    );
    assert_eq!(fs::read_dir(root).unwrap().count(), 0);

    let child = Command::new(crate::util::binary())
        .args(["export", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut running = Running(child);
    let stdin = running.0.stdin.as_mut().unwrap();
    stdin.write_all(good_games(0, 3000).as_bytes()).unwrap();
    stdin.flush().unwrap();
    // The first rows on standard output: the run has begun, its signals are watched.
    let mut first = [0; 6];
    running
        .0
        .stdout
        .as_mut()
        .unwrap()
        .read_exact(&mut first)
        .unwrap();
    assert_eq!(&first, b"index,");
    // SAFETY: a plain kill(2) of our own child.
    assert_eq!(
        unsafe { libc::kill(running.0.id() as i32, libc::SIGINT) },
        0
    );
    let status = running.wait(Duration::from_secs(30));
    assert_eq!(status.signal(), Some(libc::SIGINT), "{status:?}");
    assert_eq!(
        said(&mut running),
        "arbiter: interrupted: standard output stops short\n"
    );
}

#[test]
fn an_ignored_signal_stays_ignored() {
    let dir = scratch();
    let root = dir.path();
    let mut running = start_writing(
        root,
        Some("trap '' HUP"),
        &["export", "-", "-o", "out.csv", "--quiet"],
    );
    // SAFETY: a plain kill(2) of our own child.
    assert_eq!(
        unsafe { libc::kill(running.0.id() as i32, libc::SIGHUP) },
        0
    );
    std::thread::sleep(Duration::from_millis(200));
    assert!(
        running.0.try_wait().unwrap().is_none(),
        "SIGHUP ended a run under nohup"
    );
    drop(running.0.stdin.take());
    let status = running.wait(Duration::from_secs(60));
    assert_eq!(status.code(), Some(0), "{status:?}");
    let csv = fs::read_to_string(root.join("out.csv")).unwrap();
    assert_eq!(csv.lines().count(), 201);
    assert!(temporaries(root).is_empty());
}
