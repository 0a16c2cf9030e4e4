//! Hostile files and directories: empty, unreadable, symlink loops, missing.

use std::os::unix::fs::PermissionsExt;

use crate::util::{Input, check, good_game, good_games, is_root, run, scratch, write};

#[test]
fn an_empty_file() {
    let dir = scratch();
    let path = write(dir.path(), "empty.pgn", b"");
    let c = check(&path, None, "empty");
    assert!(c.records.is_empty());
    assert_eq!(c.summary["games"], 0);
    assert_eq!((c.export.code(), c.validate.code()), (Some(0), Some(0)));
    let csv = run(
        &["export", path.to_str().unwrap(), "--format", "csv"],
        Input::Null,
    );
    csv.assert_code(0, "empty csv");
    assert_eq!(csv.stdout().lines().count(), 1, "just the header");
    let json = run(
        &["export", path.to_str().unwrap(), "--format", "json"],
        Input::Null,
    );
    json.assert_code(0, "empty json");
    let parsed: serde_json::Value = serde_json::from_slice(&json.stdout).expect("valid JSON");
    assert_eq!(parsed, serde_json::json!([]));
}

#[test]
fn an_unreadable_file_among_good_ones() {
    let dir = scratch();
    write(dir.path(), "a.pgn", good_games(0, 2).as_bytes());
    let locked = write(dir.path(), "b.pgn", good_game(1000).as_bytes());
    write(dir.path(), "c.pgn", good_games(2, 2).as_bytes());
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o000)).unwrap();
    let c = check(dir.path(), None, "chmod 000");
    if is_root() || std::fs::File::open(&locked).is_ok() {
        // Permission bits do not stop root: the file is read like the others.
        eprintln!("note: running as root; chmod 000 does not make a file unreadable here");
        assert_eq!(c.records.len(), 5);
    } else {
        assert_eq!(c.records.len(), 4);
        c.assert_good_games(4, "chmod 000");
        assert_eq!(c.export.code(), Some(2));
        assert!(c.export.stderr.contains("b.pgn"), "{}", c.export.stderr);
    }
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o644)).unwrap();

    // A file that opens but fails on the first read, even for root: /proc/self/mem at offset 0.
    let r = run(
        &[
            "export",
            "/proc/self/mem",
            write(dir.path(), "d.pgn", good_game(0).as_bytes())
                .to_str()
                .unwrap(),
            "--format",
            "jsonl",
        ],
        Input::Null,
    );
    r.assert_code(2, "/proc/self/mem");
    assert!(r.stderr.contains("/proc/self/mem"), "{}", r.stderr);
    assert_eq!(
        crate::util::json_lines(&r.stdout).len(),
        1,
        "the file after it is read"
    );
    // A missing file and a directory with no games.
    let empty = dir.path().join("empty-dir");
    std::fs::create_dir(&empty).unwrap();
    let missing = dir.path().join("missing.pgn");
    let r = run(
        &[
            "validate",
            missing.to_str().unwrap(),
            empty.to_str().unwrap(),
        ],
        Input::Null,
    );
    r.assert_code(2, "missing");
    assert!(r.stderr.contains("missing.pgn"), "{}", r.stderr);
}

#[test]
fn a_symlink_loop_inside_a_directory() {
    let dir = scratch();
    let root = dir.path().join("archive");
    let sub = root.join("sub");
    std::fs::create_dir_all(&sub).unwrap();
    write(&root, "a.pgn", good_games(0, 2).as_bytes());
    write(&sub, "b.pgn", good_games(2, 2).as_bytes());
    std::os::unix::fs::symlink(&root, sub.join("loop")).unwrap();
    std::os::unix::fs::symlink("..", sub.join("up")).unwrap();
    std::os::unix::fs::symlink("self.pgn", root.join("self.pgn")).unwrap();
    let c = check(&root, None, "symlink loop");
    c.assert_good_games(4, "symlink loop");
    assert_eq!(c.records.len(), 4, "nothing read twice");
    assert_eq!(c.export.code(), Some(2));
    assert!(
        c.export.stderr.contains("symlink loop"),
        "{}",
        c.export.stderr
    );
    assert!(c.export.stderr.contains("self.pgn"), "{}", c.export.stderr);
}

#[test]
fn a_fifo_or_a_device_inside_a_directory_is_not_read() {
    let dir = scratch();
    write(dir.path(), "a.pgn", good_games(0, 2).as_bytes());
    let fifo = dir.path().join("b.pgn");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .is_ok_and(|s| s.success());
    if !made {
        eprintln!("note: mkfifo is not available; the FIFO case is not run");
    }
    std::os::unix::fs::symlink("/dev/zero", dir.path().join("c.pgn")).unwrap();
    // Before the fix this blocked forever on the FIFO (and then read /dev/zero without end).
    let c = check(dir.path(), None, "fifo in a directory");
    c.assert_good_games(2, "fifo in a directory");
    assert_eq!(c.records.len(), 2);
    // Named on the command line, a FIFO is read: that is how `<(zcat games.pgn.gz)` works.
    if made {
        let writer = {
            let fifo = fifo.clone();
            std::thread::spawn(move || std::fs::write(fifo, good_games(2, 3)).unwrap())
        };
        let r = run(
            &["export", fifo.to_str().unwrap(), "--format", "jsonl"],
            Input::Null,
        );
        writer.join().unwrap();
        r.assert_code(0, "named FIFO");
        assert_eq!(crate::util::json_lines(&r.stdout).len(), 3);
    }
}
