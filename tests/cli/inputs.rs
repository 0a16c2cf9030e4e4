//! Inputs: directories and patterns without PGN files, files that are not PGN, xz, and the
//! notice on a terminal stdin.

use std::io::{Read, Write};
use std::path::Path;
use std::process::{Command, Stdio};

use crate::util::{arbiter, json_lines, stderr, stdout};

const GAME: &str =
    "[Event \"a\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n";

fn write(dir: &Path, name: &str, bytes: &[u8]) -> String {
    let path = dir.join(name);
    std::fs::write(&path, bytes).expect("write");
    path.to_str().expect("utf-8 path").to_owned()
}

/// The jsonl summary of `arbiter validate ARGS --format jsonl`.
fn summary(out: &std::process::Output) -> serde_json::Value {
    json_lines(&stdout(out)).pop().expect("a summary")
}

// See: issue 12, inputs.
#[test]
fn a_directory_without_pgn_files_is_an_error_naming_it() {
    let dir = tempfile::tempdir().expect("temp dir");
    let empty = dir.path().join("empty");
    std::fs::create_dir_all(empty.join("sub")).expect("mkdir");
    write(&empty, "notes.txt", b"not a game");
    let empty = empty.to_str().unwrap();
    let good = write(dir.path(), "good.pgn", GAME.as_bytes());
    let out = arbiter(&["validate", empty, &good, "--format", "jsonl"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert_eq!(
        stderr(&out),
        format!(
            "arbiter: error: {empty}: no PGN files in this directory (looked for *.pgn, \
             *.pgn.gz, *.pgn.zst, *.pgn.bz2, *.pgn.xz)\n"
        )
    );
    // The other input is still read.
    assert_eq!(summary(&out)["games"], 1);
    // A directory with PGN files below it is fine.
    let out = arbiter(&["validate", dir.path().to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
}

#[test]
fn a_pattern_is_expanded_and_one_that_matches_nothing_is_an_error() {
    let dir = tempfile::tempdir().expect("temp dir");
    write(dir.path(), "a.pgn", GAME.as_bytes());
    write(dir.path(), "b.pgn", GAME.as_bytes());
    let pattern = format!("{}/*.pgn", dir.path().display());
    let out = arbiter(&["validate", &pattern, "--format", "jsonl"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(summary(&out)["games"], 2);
    let none = format!("{}/*.pgn.gz", dir.path().display());
    let out = arbiter(&["export", &none, "--format", "csv"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        format!("arbiter: error: {none}: no file matches this pattern\n")
    );
}

#[test]
fn a_file_that_is_not_pgn_is_one_error() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut elf = b"\x7fELF\x02\x01\x01\0\0\0\0\0\0\0\0\0".to_vec();
    elf.extend(std::iter::repeat_n(b'[', 5000));
    let mut tar = vec![0u8; 1024];
    tar[..9].copy_from_slice(b"games.pgn");
    tar[257..262].copy_from_slice(b"ustar");
    tar.extend(GAME.as_bytes());
    let mut nul = vec![0u8; 64];
    nul.extend(GAME.repeat(100).as_bytes());
    let cases = [
        ("program", elf, "an executable (ELF)"),
        (
            "archive.zip",
            b"PK\x03\x04\x14\0\0\0".repeat(100),
            "a zip archive",
        ),
        ("games.tar", tar, "a tar archive"),
        ("nul.pgn", nul, "binary data (NUL bytes in its first bytes)"),
        (
            "win.exe",
            b"MZ\x90\0\x03\0\0\0".repeat(50),
            "an executable (PE",
        ),
    ];
    let good = write(dir.path(), "good.pgn", GAME.as_bytes());
    for (name, bytes, what) in cases {
        let bad = write(dir.path(), name, &bytes);
        for command in ["validate", "export"] {
            let out = arbiter(&[command, &bad, &good, "--format", "jsonl"]);
            assert_eq!(out.status.code(), Some(2), "{name}: {}", stderr(&out));
            let err = stderr(&out);
            assert_eq!(err.lines().count(), 1, "{name}: {err}");
            assert!(
                err.starts_with(&format!("arbiter: error: {bad}: not a PGN file: {what}")),
                "{name}: {err}"
            );
            // The good file is still read.
            assert!(stdout(&out).contains("\"result\":\"1-0\"") || command == "validate");
        }
        let out = arbiter(&["validate", &bad, &good, "--format", "jsonl"]);
        assert_eq!(summary(&out)["games"], 1, "{name}");
    }
    // The same, gzip-compressed, and on stdin.
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    gz.write_all(b"\x7fELF\x02\x01\x01\0\0\0").expect("gzip");
    let gz = write(dir.path(), "program.pgn.gz", &gz.finish().expect("gzip"));
    let out = arbiter(&["validate", &gz]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("not a PGN file: an executable (ELF)"),
        "{}",
        stderr(&out)
    );
    let out = crate::util::arbiter_stdin(&["validate"], b"\x7fELF\x02\x01\x01\0\0\0");
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(stderr(&out).lines().count(), 1, "{}", stderr(&out));
    assert!(stderr(&out).contains("<stdin>"), "{}", stderr(&out));
    // NULs inside a game that starts like PGN are reported where they stand, not refused.
    let odd = write(
        dir.path(),
        "odd.pgn",
        b"[Event \"a\"]\n\n1. e4 {\0\0} e5 *\n\n",
    );
    let out = arbiter(&["validate", &odd]);
    assert!(!stderr(&out).contains("not a PGN file"), "{}", stderr(&out));
}

fn xz(bytes: &[u8]) -> Vec<u8> {
    let mut encoder = liblzma::write::XzEncoder::new(Vec::new(), 6);
    encoder.write_all(bytes).expect("xz");
    encoder.finish().expect("xz")
}

#[test]
fn xz_files_are_read_and_found_in_directories() {
    let dir = tempfile::tempdir().expect("temp dir");
    // Two xz streams one after the other read as one.
    let mut two = xz(GAME.as_bytes());
    two.extend(xz(GAME.replace("\"a\"", "\"b\"").as_bytes()));
    write(dir.path(), "games.pgn.xz", &two);
    // Recognised by its magic bytes whatever its name.
    let odd = write(dir.path(), "games.bin", &xz(GAME.as_bytes()));
    let out = arbiter(&["export", dir.path().to_str().unwrap(), "--format", "jsonl"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let records = json_lines(&stdout(&out));
    let events: Vec<&str> = records
        .iter()
        .map(|r| r["event"].as_str().unwrap())
        .collect();
    assert_eq!(events, ["a", "b"]);
    let out = arbiter(&["export", &odd, "--format", "jsonl"]);
    assert_eq!(json_lines(&stdout(&out)).len(), 1, "{}", stderr(&out));
    // A truncated xz file is a read error naming xz.
    let mut cut = xz(GAME.repeat(50).as_bytes());
    cut.truncate(cut.len() / 2);
    let cut = write(dir.path(), "cut.pgn.xz", &cut);
    let out = arbiter(&["validate", &cut]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("corrupt or truncated xz data"),
        "{}",
        stderr(&out)
    );
}

/// Whether process `pid` has ended (gone, or a zombie waiting for its parent).
fn ended(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat")).map_or(true, |stat| {
        // `PID (COMMAND) STATE ...`: the state follows the last `)`.
        stat.rsplit_once(") ")
            .is_some_and(|(_, rest)| rest.starts_with(['Z', 'X']))
    })
}

/// Sends SIGKILL to every process of group `pgid`.
fn kill_group(pgid: u32) {
    let _ = Command::new("kill")
        .args(["-KILL", "--", &format!("-{pgid}")])
        .stderr(Stdio::null())
        .status();
}

// See: issue 25, point 14 (the test killed only `timeout`, and left `script` and `arbiter
// validate` running after `cargo test` ended).
#[test]
fn a_terminal_on_stdin_gets_one_line_saying_arbiter_reads_it() {
    use std::os::unix::process::CommandExt;

    // `script` runs arbiter with a terminal on its standard input (the shell it starts says its
    // pid, then becomes arbiter); `timeout` ends them should the notice never come (the test then
    // fails on the output). `timeout` leads a process group of its own, which the test ends as a
    // whole: `script` with it, and arbiter, in the terminal's session, by the hangup.
    let Ok(mut child) = Command::new("timeout")
        .args([
            "60",
            "script",
            "-qec",
            &format!(
                "echo pid=$$; exec {} validate --quiet",
                crate::util::binary().display()
            ),
            "/dev/null",
        ])
        .process_group(0)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
    else {
        eprintln!("skipped: no `timeout`");
        return;
    };
    let group = child.id();
    let mut out = child.stdout.take().expect("stdout");
    let mut seen = Vec::new();
    let mut buf = [0u8; 256];
    // Read until the notice shows, or the output ends.
    while !String::from_utf8_lossy(&seen).contains("arbiter: ") {
        match out.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => seen.extend_from_slice(&buf[..n]),
        }
    }
    kill_group(group);
    let _ = child.wait();
    let seen = String::from_utf8_lossy(&seen);
    let arbiter: Option<u32> = seen
        .lines()
        .find_map(|line| line.trim().strip_prefix("pid=")?.parse().ok());
    // arbiter ends with its terminal; wait a little for it, and end it should it not.
    if let Some(pid) = arbiter {
        let waited = std::time::Instant::now();
        while !ended(pid) && waited.elapsed() < std::time::Duration::from_secs(10) {
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        let left = !ended(pid);
        if left {
            let _ = Command::new("kill")
                .args(["-KILL", &pid.to_string()])
                .status();
        }
        assert!(
            !left,
            "arbiter (pid {pid}) was still running after the test ended its group"
        );
    }
    assert!(
        seen.contains("arbiter: reading PGN from standard input (no path given)"),
        "{seen:?}"
    );
    assert!(arbiter.is_some(), "{seen:?}");
    // Not on a pipe.
    let out = crate::util::arbiter_stdin(&["validate", "--quiet"], GAME.as_bytes());
    assert!(stderr(&out).is_empty(), "{}", stderr(&out));
}
