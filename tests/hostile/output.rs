//! Hostile outputs: a pipe closed by the reader, a full disk, a closed standard output.

use std::io::Read;
use std::process::{Command, Stdio};

use crate::util::{Input, good_games, run_command, run_in, run_to, scratch, write};

#[test]
fn output_to_a_closed_pipe() {
    let dir = scratch();
    let path = write(dir.path(), "many.pgn", good_games(0, 20_000).as_bytes());
    let path = path.to_str().unwrap();
    for args in [
        ["export", path, "--format", "csv"],
        ["validate", path, "--format", "jsonl"],
    ] {
        // A pipe whose read end is closed before arbiter starts.
        let (reader, writer) = std::io::pipe().unwrap();
        drop(reader);
        let r = run_to(&args, Input::Null, Some(Stdio::from(writer)));
        r.assert_code(0, "closed pipe");
        assert!(r.stderr.is_empty(), "{}", r.stderr);
    }
    // A reader that takes the first bytes and goes away (`| head -c 100`).
    let mut child = crate::util::command()
        .args(["export", path, "--format", "jsonl", "--quiet"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut head = [0u8; 100];
    child.stdout.take().unwrap().read_exact(&mut head).unwrap();
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(0), "{:?}", output);
    assert!(
        output.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

#[test]
fn output_to_a_full_disk() {
    if !std::path::Path::new("/dev/full").exists() {
        eprintln!("skipped: no /dev/full");
        return;
    }
    let dir = scratch();
    let path = write(dir.path(), "many.pgn", good_games(0, 2_000).as_bytes());
    let path = path.to_str().unwrap();
    // `-o /dev/full`: a device, written in place.
    let r = run_to(
        &["export", path, "--format", "csv", "-o", "/dev/full"],
        Input::Null,
        None,
    );
    r.assert_code(2, "-o /dev/full");
    assert!(r.stderr.contains("No space left on device"), "{}", r.stderr);
    // stdout on /dev/full, for every command that writes there.
    for args in [
        vec!["export", path, "--format", "json"],
        vec!["validate", path],
        vec!["moves", "startpos"],
        vec!["perft", "2", "--divide"],
    ] {
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap();
        let r = run_to(&args, Input::Null, Some(Stdio::from(full)));
        r.assert_code(2, &format!("{args:?} > /dev/full"));
        assert!(
            r.stderr.contains("No space left on device"),
            "{args:?}: {}",
            r.stderr
        );
    }
    // A failed `-o FILE` leaves no file and no temporary behind.
    let target = dir.path().join("out").join("x.csv");
    let r = run_to(
        &[
            "export",
            path,
            "--format",
            "csv",
            "-o",
            target.to_str().unwrap(),
        ],
        Input::Null,
        None,
    );
    r.assert_code(2, "-o into a missing directory");
    assert!(!target.exists());
}

#[test]
fn errors_to_a_full_stderr() {
    if !std::path::Path::new("/dev/full").exists() {
        eprintln!("skipped: no /dev/full");
        return;
    }
    // An input error and a usage error, with stderr on /dev/full: the exit code still tells.
    let dir = scratch();
    let good = write(dir.path(), "good.pgn", good_games(0, 3).as_bytes());
    for args in [
        vec!["validate", "missing.pgn", good.to_str().unwrap()],
        vec!["export", "missing.pgn", "--format", "csv"],
        vec!["moves", "not a fen"],
        vec!["validate", "--no-such-flag"],
    ] {
        // Before the fix, `eprintln!` panicked on the full stderr: exit 101.
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap();
        let to_full = run_to(&args, Input::Null, None).code();
        let output = crate::util::command()
            .args(&args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(full)
            .output()
            .unwrap();
        assert!(matches!(to_full, Some(1 | 2)), "{args:?}: {to_full:?}");
        assert_eq!(output.status.code(), to_full, "{args:?}");
    }
}

/// Every subcommand that writes to stdout, with small inputs.
fn every_subcommand(pgn: &str) -> Vec<Vec<&str>> {
    vec![
        vec!["validate", pgn],
        vec!["validate", pgn, "--format", "jsonl"],
        vec!["export", pgn],
        vec!["export", pgn, "--format", "json"],
        vec!["moves", "startpos"],
        vec!["moves", "startpos", "--format", "json"],
        vec!["perft", "2", "--divide"],
        vec!["perft", "2", "--format", "json"],
        vec!["completions", "bash"],
        vec!["completions", "zsh"],
        vec!["manpage"],
        vec!["--help"],
        vec!["export", "--help"],
        vec!["--version"],
    ]
}

// See: issue 12, `arbiter completions bash | head -1` panicked (exit 101).
#[test]
fn every_subcommand_to_a_closed_pipe_and_a_full_disk() {
    let dir = scratch();
    let path = write(dir.path(), "few.pgn", good_games(0, 3).as_bytes());
    let path = path.to_str().unwrap();
    for args in every_subcommand(path) {
        let (reader, writer) = std::io::pipe().unwrap();
        drop(reader);
        let r = run_to(&args, Input::Null, Some(Stdio::from(writer)));
        r.assert_code(0, &format!("{args:?} | closed pipe"));
        assert!(!r.stderr.contains("panicked"), "{args:?}: {}", r.stderr);
        assert!(r.stderr.is_empty(), "{args:?}: {}", r.stderr);

        if !std::path::Path::new("/dev/full").exists() {
            continue;
        }
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap();
        let r = run_to(&args, Input::Null, Some(Stdio::from(full)));
        r.assert_code(2, &format!("{args:?} > /dev/full"));
        assert!(!r.stderr.contains("panicked"), "{args:?}: {}", r.stderr);
        let lines: Vec<&str> = r.stderr.lines().collect();
        assert_eq!(lines.len(), 1, "{args:?}: {}", r.stderr);
        // See: issue 25, point 11: the error names what could not be written.
        assert!(
            lines[0].starts_with("arbiter: error: cannot write ")
                && lines[0].contains(" standard output: No space left on device (os error 28)"),
            "{args:?}: {}",
            r.stderr
        );
    }
}

// See: issue 25, point 11: `External: ERROR: ERROR`.
#[test]
fn a_parquet_write_error_reads_as_one_clause() {
    if !std::path::Path::new("/dev/full").exists() {
        eprintln!("skipped: no /dev/full");
        return;
    }
    let dir = scratch();
    let path = write(dir.path(), "many.pgn", good_games(0, 2_000).as_bytes());
    let path = path.to_str().unwrap();
    for args in [
        vec!["export", path, "--format", "parquet", "-o", "/dev/full"],
        vec![
            "export",
            path,
            "--plies",
            "--format",
            "parquet",
            "-o",
            "/dev/full",
        ],
    ] {
        let r = run_to(&args, Input::Null, None);
        r.assert_code(2, &format!("{args:?}"));
        assert_eq!(
            r.stderr,
            "arbiter: error: cannot write /dev/full: No space left on device (os error 28)\n"
        );
    }
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    let r = run_to(
        &["export", path, "--format", "parquet"],
        Input::Null,
        Some(Stdio::from(full)),
    );
    r.assert_code(2, "parquet > /dev/full");
    assert_eq!(
        r.stderr,
        "arbiter: error: cannot write standard output: No space left on device (os error 28)\n"
    );
}

// See: issue 25, point 11: with standard output closed (`>&-`) every subcommand exited 0 having
// written nothing.
#[test]
fn a_closed_standard_output_is_an_error() {
    let dir = scratch();
    let path = write(dir.path(), "few.pgn", good_games(0, 3).as_bytes());
    let path = path.to_str().unwrap();
    let closed = |args: &[&str]| {
        let mut sh = Command::new("sh");
        sh.current_dir(dir.path())
            .args(["-c", "exec \"$0\" \"$@\" >&-"])
            .arg(crate::util::binary())
            .args(args);
        run_command(sh, Input::Null, Some(Stdio::null()))
    };
    for args in every_subcommand(path) {
        let r = closed(&args);
        r.assert_code(2, &format!("{args:?} >&-"));
        assert_eq!(
            r.stderr, "arbiter: error: standard output is closed; redirect it, or give -o FILE\n",
            "{args:?}"
        );
    }
    // Writing elsewhere, a closed standard output is no matter.
    for args in [
        vec!["export", path, "-o", "out.csv", "--quiet"],
        vec!["validate", path, "-o", "out.txt", "--quiet"],
        vec!["manpage", "--dir", "man"],
    ] {
        let r = closed(&args);
        r.assert_code(0, &format!("{args:?} >&-"));
        assert!(r.stderr.is_empty(), "{args:?}: {}", r.stderr);
    }
    let csv = std::fs::read_to_string(dir.path().join("out.csv")).unwrap();
    assert_eq!(csv.lines().count(), 4);
    assert!(dir.path().join("man/arbiter.1").exists());
    // And an ordinary `> /dev/null` is not closed.
    let r = run_in(
        dir.path(),
        &["moves", "startpos"],
        Input::Null,
        Some(Stdio::null()),
    );
    r.assert_code(0, "> /dev/null");
}
