//! `-o` in a directory others can write to, or through links: the temporary file's name cannot be
//! planted, a symlink is written through, a replaced file keeps its mode. See: issue 25, point 3.

use std::fs::{self, OpenOptions, Permissions};
use std::os::unix::fs::{PermissionsExt, symlink};
use std::process::Stdio;

use crate::util::{Input, good_games, is_root, run_in, scratch, write};

#[test]
fn a_planted_temporary_name_is_never_followed() {
    let dir = scratch();
    let root = dir.path();
    write(root, "games.pgn", good_games(0, 3).as_bytes());
    let victim = write(root, "victim", b"precious\n");
    // The name was `.out.csv.arbiter-PID.tmp`, opened following symlinks: whoever could write
    // to the directory planted it for the next PIDs and had a run (as root) overwrite any file.
    let last: u32 = fs::read_to_string("/proc/sys/kernel/ns_last_pid")
        .ok()
        .and_then(|s| s.trim().parse().ok())
        .unwrap_or_else(std::process::id);
    let planted: Vec<String> = (last + 1..=last + 3000)
        .map(|pid| format!(".out.csv.arbiter-{pid}.tmp"))
        .collect();
    for name in &planted {
        symlink(&victim, root.join(name)).unwrap();
    }
    let r = run_in(
        root,
        &["export", "games.pgn", "-o", "out.csv"],
        Input::Null,
        None,
    );
    r.assert_code(0, "export -o out.csv");
    assert_eq!(fs::read_to_string(&victim).unwrap(), "precious\n");
    let out = fs::symlink_metadata(root.join("out.csv")).unwrap();
    assert!(
        out.is_file(),
        "out.csv is a regular file, not a planted link"
    );
    assert_eq!(
        fs::read_to_string(root.join("out.csv"))
            .unwrap()
            .lines()
            .count(),
        4
    );
    for name in &planted {
        assert!(fs::symlink_metadata(root.join(name)).unwrap().is_symlink());
    }
    assert_eq!(fs::read_dir(root).unwrap().count(), planted.len() + 3);
}

#[test]
fn a_symlink_is_written_through_and_a_replaced_file_keeps_its_mode() {
    let dir = scratch();
    let root = dir.path();
    write(root, "games.pgn", good_games(0, 3).as_bytes());
    fs::create_dir(root.join("real")).unwrap();
    let real = write(&root.join("real"), "out.csv", b"old\n");
    fs::set_permissions(&real, Permissions::from_mode(0o604)).unwrap();
    symlink("real/out.csv", root.join("link.csv")).unwrap();
    for args in [
        ["export", "games.pgn", "-o", "link.csv", "--format", "csv"],
        [
            "validate",
            "games.pgn",
            "-o",
            "link.csv",
            "--format",
            "text",
        ],
    ] {
        let r = run_in(root, &args, Input::Null, None);
        r.assert_code(0, &format!("{args:?}"));
        let link = fs::symlink_metadata(root.join("link.csv")).unwrap();
        assert!(link.is_symlink(), "{args:?}: the link was replaced");
        assert_eq!(
            fs::read_link(root.join("link.csv")).unwrap(),
            real.strip_prefix(root).unwrap()
        );
        let text = fs::read_to_string(&real).unwrap();
        assert!(
            text.contains("3 games") || text.contains("good 2"),
            "{args:?}: {text}"
        );
        let mode = fs::metadata(&real).unwrap().permissions().mode() & 0o7777;
        assert_eq!(mode, 0o604, "{args:?}: mode {mode:o}");
        assert_eq!(
            fs::read_dir(root.join("real")).unwrap().count(),
            1,
            "{args:?}"
        );
    }
    // A new file gets the mode any new file gets (0666 less the umask), not the 0600 of a
    // temporary file.
    let r = run_in(
        root,
        &["export", "games.pgn", "-o", "new.csv"],
        Input::Null,
        None,
    );
    r.assert_code(0, "-o new.csv");
    let probe = write(root, "probe", b"");
    assert_eq!(
        fs::metadata(root.join("new.csv"))
            .unwrap()
            .permissions()
            .mode(),
        fs::metadata(probe).unwrap().permissions().mode()
    );
}

#[test]
fn a_dangling_symlink_a_missing_or_closed_directory_a_read_only_file_are_refused() {
    let dir = scratch();
    let root = dir.path();
    write(root, "games.pgn", good_games(0, 3).as_bytes());
    symlink("nowhere/out.csv", root.join("dangling.csv")).unwrap();
    fs::create_dir(root.join("nowhere")).unwrap();
    let r = run_in(
        root,
        &["export", "games.pgn", "-o", "dangling.csv"],
        Input::Null,
        None,
    );
    r.assert_code(2, "-o dangling.csv");
    assert_eq!(
        r.stderr,
        "arbiter: error: cannot write dangling.csv: it is a symbolic link to nowhere/out.csv, \
         which does not exist; not followed\n"
    );
    assert!(
        fs::symlink_metadata(root.join("dangling.csv"))
            .unwrap()
            .is_symlink()
    );
    assert_eq!(fs::read_dir(root.join("nowhere")).unwrap().count(), 0);

    let r = run_in(
        root,
        &["export", "games.pgn", "-o", "missing/out.csv"],
        Input::Null,
        None,
    );
    r.assert_code(2, "-o missing/out.csv");
    assert_eq!(
        r.stderr,
        "arbiter: error: cannot create missing/out.csv: cannot make a temporary file in missing: \
         No such file or directory (os error 2)\n"
    );

    if is_root() {
        eprintln!("skipped the read-only directory and file: root writes anywhere");
        return;
    }
    let read_only = write(root, "read-only.csv", b"kept\n");
    fs::set_permissions(&read_only, Permissions::from_mode(0o444)).unwrap();
    let r = run_in(
        root,
        &["export", "games.pgn", "-o", "read-only.csv"],
        Input::Null,
        None,
    );
    r.assert_code(2, "-o a read-only file");
    assert_eq!(
        r.stderr,
        "arbiter: error: cannot open read-only.csv for writing: Permission denied (os error 13)\n"
    );
    assert_eq!(fs::read_to_string(&read_only).unwrap(), "kept\n");
    fs::set_permissions(root.join("nowhere"), Permissions::from_mode(0o555)).unwrap();
    let r = run_in(
        root,
        &["export", "games.pgn", "-o", "nowhere/out.csv"],
        Input::Null,
        None,
    );
    fs::set_permissions(root.join("nowhere"), Permissions::from_mode(0o755)).unwrap();
    r.assert_code(2, "-o in a read-only directory");
    assert!(r.stderr.contains("Permission denied"), "{}", r.stderr);
    assert_eq!(fs::read_dir(root.join("nowhere")).unwrap().count(), 0);
}

/// `-o -` and `-o /dev/stdout` are standard output: a `>>` redirection is appended to, not
/// replaced (before, `/dev/stdout` itself was replaced by a regular file when stdout was one).
#[test]
fn standard_output_named_as_output() {
    let dir = scratch();
    let root = dir.path();
    write(root, "games.pgn", good_games(0, 3).as_bytes());
    let log = write(root, "log.csv", b"earlier\n");
    for output in ["-", "/dev/stdout"] {
        let r = run_in(
            root,
            &["export", "games.pgn", "-o", output],
            Input::Null,
            None,
        );
        r.assert_code(0, output);
        assert_eq!(r.stdout().lines().count(), 4, "{output}");
        let append = OpenOptions::new().append(true).open(&log).unwrap();
        let r = run_in(
            root,
            &["export", "games.pgn", "-o", output],
            Input::Null,
            Some(Stdio::from(append)),
        );
        r.assert_code(0, output);
    }
    let text = fs::read_to_string(&log).unwrap();
    assert!(text.starts_with("earlier\nindex,"), "{text}");
    assert_eq!(text.lines().count(), 9, "{text}");
    assert!(!root.join("-").exists());
    assert!(fs::symlink_metadata("/dev/stdout").unwrap().is_symlink());
}
