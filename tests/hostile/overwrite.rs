//! `-o` never costs the user a file. An output that is also an input, however it is named, is
//! refused before anything is read; a run that ends with status 2 leaves the old output as it
//! was, and says so. See: issue 25, points 1 and 2.

use std::fs::{self, File, OpenOptions};
use std::io::Write;
use std::path::Path;
use std::process::Stdio;

use crate::util::{Input, good_game, good_games, run_in, scratch, write};

/// The names in `dir`, sorted (hidden ones too: a temporary file left behind shows).
fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    e.write_all(bytes).unwrap();
    e.finish().unwrap()
}

#[test]
fn an_output_that_is_an_input_is_refused_before_anything_is_read() {
    let dir = scratch();
    let root = dir.path();
    let games = write(root, "games.pgn", good_games(0, 5).as_bytes());
    fs::create_dir(root.join("archive")).unwrap();
    write(&root.join("archive"), "a.pgn", good_games(5, 3).as_bytes());
    fs::hard_link(root.join("archive/a.pgn"), root.join("hard.csv")).unwrap();
    std::os::unix::fs::symlink(&games, root.join("link.csv")).unwrap();
    // A FIFO no one writes to, read first: a run that read before refusing would block on it.
    let fifo = root.join("fifo.pgn");
    assert!(
        std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    let before = (
        fs::read(&games).unwrap(),
        fs::read(root.join("archive/a.pgn")).unwrap(),
    );
    let absolute = games.to_str().unwrap();
    let exact =
        |o: &str| format!("arbiter: error: -o {o} is also an input; choose another output\n");
    let same = |o: &str, input: &str| {
        format!(
            "arbiter: error: -o {o} is also an input (the same file as {input}); choose another \
             output\n"
        )
    };
    let cases: Vec<(Vec<&str>, bool, String)> = vec![
        (
            vec!["export", "games.pgn", "-o", "games.pgn"],
            false,
            exact("games.pgn"),
        ),
        (
            vec!["validate", "games.pgn", "-o", "games.pgn"],
            false,
            exact("games.pgn"),
        ),
        (
            vec![
                "export",
                "fifo.pgn",
                "games.pgn",
                "-o",
                "games.pgn",
                "--format",
                "json",
            ],
            false,
            exact("games.pgn"),
        ),
        (
            vec!["export", "games.pgn", "-o", absolute],
            false,
            same(absolute, "games.pgn"),
        ),
        (
            vec!["export", absolute, "-o", "./games.pgn"],
            false,
            same("./games.pgn", absolute),
        ),
        (
            vec!["export", "archive/a.pgn", "-o", "hard.csv"],
            false,
            same("hard.csv", "archive/a.pgn"),
        ),
        (
            vec!["export", "games.pgn", "-o", "link.csv"],
            false,
            same("link.csv", "games.pgn"),
        ),
        (
            vec!["validate", "link.csv", "-o", "games.pgn"],
            false,
            same("games.pgn", "link.csv"),
        ),
        (
            vec!["export", "archive", "-o", "archive/a.pgn"],
            false,
            exact("archive/a.pgn"),
        ),
        (
            vec!["export", "archive", "-o", "hard.csv"],
            false,
            same("hard.csv", "archive/a.pgn"),
        ),
        (
            vec!["export", "arch*/?.pgn", "-o", "hard.csv"],
            false,
            same("hard.csv", "archive/a.pgn"),
        ),
        (
            vec!["export", "-o", "games.pgn"],
            true,
            "arbiter: error: -o games.pgn is also an input (standard input reads it); choose \
             another output\n"
                .to_owned(),
        ),
        (
            vec!["validate", "-", "-o", "games.pgn"],
            true,
            "arbiter: error: -o games.pgn is also an input (standard input reads it); choose \
             another output\n"
                .to_owned(),
        ),
    ];
    for (args, stdin, expected) in cases {
        let input = if stdin {
            Input::From(Stdio::from(File::open(&games).unwrap()))
        } else {
            Input::Null
        };
        let r = run_in(root, &args, input, None);
        r.assert_code(2, &format!("{args:?}"));
        assert_eq!(r.stderr, expected, "{args:?}");
        assert!(r.stdout.is_empty(), "{args:?}");
        let after = (
            fs::read(&games).unwrap(),
            fs::read(root.join("archive/a.pgn")).unwrap(),
        );
        assert!(after == before, "{args:?}: an input changed");
        assert!(
            fs::symlink_metadata(root.join("link.csv"))
                .unwrap()
                .is_symlink()
        );
        assert_eq!(
            names(root),
            ["archive", "fifo.pgn", "games.pgn", "hard.csv", "link.csv"],
            "{args:?}"
        );
    }

    // Standard output appended to an input (`>> games.pgn`) would read what it writes.
    for args in [vec!["export", "games.pgn"], vec!["validate", "games.pgn"]] {
        let append = OpenOptions::new().append(true).open(&games).unwrap();
        let r = run_in(root, &args, Input::Null, Some(Stdio::from(append)));
        r.assert_code(2, &format!("{args:?} >> games.pgn"));
        assert_eq!(
            r.stderr,
            "arbiter: error: standard output is also an input (games.pgn); choose another output\n"
        );
        assert_eq!(fs::read(&games).unwrap(), before.0);
    }

    // Not an input: a file in an input directory that is not PGN, and `-o` beside the input.
    write(&root.join("archive"), "out.csv", b"old\n");
    for args in [
        vec!["export", "archive", "-o", "archive/out.csv"],
        vec!["export", "games.pgn", "-o", "games.csv"],
    ] {
        let r = run_in(root, &args, Input::Null, None);
        r.assert_code(0, &format!("{args:?}"));
    }
    assert!(
        fs::read_to_string(root.join("archive/out.csv"))
            .unwrap()
            .contains("good 5")
    );
}

#[test]
fn a_run_that_ends_with_status_2_leaves_the_old_output_as_it_was() {
    let dir = scratch();
    let root = dir.path();
    write(root, "good.pgn", good_games(0, 3).as_bytes());
    let compressed = gzip(good_games(0, 3000).as_bytes());
    write(root, "cut.pgn.gz", &compressed[..compressed.len() / 2]);
    let files = [
        "cut.pgn.gz",
        "good.pgn",
        "keep.csv",
        "keep.parquet",
        "keep.txt",
    ];
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (
            vec!["export", "/nonexistent.pgn", "-o", "keep.csv"],
            "keep.csv",
        ),
        (
            vec!["export", "good.pgn", "missing.pgn", "-o", "keep.csv"],
            "keep.csv",
        ),
        (vec!["export", "cut.pgn.gz", "-o", "keep.csv"], "keep.csv"),
        (vec!["export", "nomatch*.pgn", "-o", "keep.csv"], "keep.csv"),
        (
            vec!["export", "good.pgn", "missing.pgn", "-o", "keep.parquet"],
            "keep.parquet",
        ),
        (
            vec!["export", "cut.pgn.gz", "--plies", "-o", "keep.csv"],
            "keep.csv",
        ),
        (
            vec!["validate", "good.pgn", "missing.pgn", "-o", "keep.txt"],
            "keep.txt",
        ),
        (vec!["validate", "cut.pgn.gz", "-o", "keep.txt"], "keep.txt"),
        (
            vec!["validate", "nomatch*.pgn", "-o", "keep.txt"],
            "keep.txt",
        ),
    ];
    for (args, output) in cases {
        for name in ["keep.csv", "keep.parquet", "keep.txt"] {
            write(root, name, b"precious\n");
        }
        let r = run_in(root, &args, Input::Null, None);
        r.assert_code(2, &format!("{args:?}"));
        assert_eq!(
            String::from_utf8_lossy(&fs::read(root.join(output)).unwrap()),
            "precious\n",
            "{args:?}"
        );
        assert!(
            r.stderr
                .ends_with(&format!("arbiter: {output} left unchanged\n")),
            "{args:?}: {}",
            r.stderr
        );
        assert_eq!(
            names(root),
            files,
            "{args:?}: a temporary file left behind?"
        );
    }

    // An output that did not exist is not made.
    let r = run_in(
        root,
        &["export", "good.pgn", "missing.pgn", "-o", "new.csv"],
        Input::Null,
        None,
    );
    r.assert_code(2, "-o new.csv");
    assert!(
        r.stderr.ends_with("arbiter: new.csv not written\n"),
        "{}",
        r.stderr
    );
    assert!(!root.join("new.csv").exists());

    // Status 1 (a game is invalid, every input was read to its end) replaces it.
    write(
        root,
        "bad.pgn",
        format!("{}1. e4 Ke7 *\n\n", good_game(0)).as_bytes(),
    );
    let r = run_in(
        root,
        &["export", "bad.pgn", "-o", "keep.csv"],
        Input::Null,
        None,
    );
    r.assert_code(1, "status 1");
    let csv = fs::read_to_string(root.join("keep.csv")).unwrap();
    assert_eq!(csv.lines().count(), 3, "{csv}");
    assert!(r.stderr.is_empty(), "{}", r.stderr);
}
