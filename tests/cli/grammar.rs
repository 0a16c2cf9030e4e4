//! One grammar for `validate` and `export`: default export format, `-o` for both, `--jobs`,
//! `--tags`, and what `-o` says.

use crate::util::{arbiter, fixture, json_lines, stderr, stdout};

fn outcomes() -> String {
    fixture("outcomes")
}

// See: issue 12, one grammar.
#[test]
fn export_format_defaults_to_csv_or_the_output_extension() {
    let out = arbiter(&["export", &outcomes()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stdout(&out).starts_with("index,"), "{}", stdout(&out));
    let dir = tempfile::tempdir().expect("temp dir");
    for (name, format, starts) in [
        ("out.csv", None, "index,"),
        ("out.json", None, "["),
        ("out.JSON", None, "["),
        ("out.jsonl", None, "{\"index\":1,"),
        ("out.ndjson", None, "{\"index\":1,"),
        ("out", None, "index,"),
        ("x.jsonl", Some("csv"), "index,"),
        ("x.tsv", Some("csv"), "index,"),
    ] {
        let path = dir.path().join(name);
        let path = path.to_str().unwrap();
        let outcomes = outcomes();
        let mut args = vec!["export", &outcomes, "-o", path, "--quiet"];
        if let Some(format) = format {
            args.extend(["--format", format]);
        }
        let out = arbiter(&args);
        assert_eq!(out.status.code(), Some(0), "{name}: {}", stderr(&out));
        let text = std::fs::read_to_string(path).expect("written");
        assert!(text.starts_with(starts), "{name}: {}", &text[..40]);
    }
}

// See: issue 43, point 9.
#[test]
fn an_output_extension_that_names_no_export_format_is_refused() {
    let dir = tempfile::tempdir().expect("temp dir");
    for name in ["games.xlsx", "games.tsv", "games.TXT", "games.tsv.gz"] {
        let path = dir.path().join(name);
        let path = path.to_str().unwrap();
        let out = arbiter(&["export", &outcomes(), "-o", path]);
        assert_eq!(out.status.code(), Some(2), "{name}");
        let extension = name.split('.').nth(1).unwrap().to_ascii_lowercase();
        assert_eq!(
            stderr(&out),
            format!(
                "arbiter: error: -o {path}: export writes CSV, JSON, JSON Lines or Parquet, and \
                 .{extension} names none of them; name the file .csv, .json, .jsonl, .ndjson or \
                 .parquet (before a .gz, .zst, .xz or .bz2 suffix), or give --format\n"
            )
        );
        assert!(out.stdout.is_empty(), "{name}");
        assert!(!dir.path().join(name).exists(), "{name}");
    }
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
}

#[test]
fn export_to_a_file_says_where_it_wrote() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("out.csv");
    let path = path.to_str().unwrap();
    let out = arbiter(&["export", &outcomes(), "-o", path]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let games = std::fs::read_to_string(path).unwrap().lines().count() - 1;
    assert_eq!(
        stderr(&out),
        format!("arbiter: wrote {games} games to {path}\n")
    );
    let out = arbiter(&["export", &outcomes(), "-o", path, "-q"]);
    assert!(out.stderr.is_empty(), "{}", stderr(&out));
    // Not on stdout.
    let out = arbiter(&["export", &outcomes()]);
    assert!(out.stderr.is_empty(), "{}", stderr(&out));
}

#[test]
fn validate_writes_to_a_file_too() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("problems.jsonl");
    let path = path.to_str().unwrap();
    let invalid = fixture("invalid");
    let out = arbiter(&["validate", &invalid, "--format", "jsonl", "-o", path]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(out.stdout.is_empty());
    let to_stdout = arbiter(&["validate", &invalid, "--format", "jsonl"]);
    let written = std::fs::read_to_string(path).unwrap();
    let lines = json_lines(&written);
    let expected = json_lines(&stdout(&to_stdout));
    assert_eq!(lines.len(), expected.len());
    assert_eq!(lines.last().unwrap()["type"], "summary");
    assert_eq!(lines[..lines.len() - 1], expected[..expected.len() - 1]);
    // Only the file is left in the directory.
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
}

#[test]
fn output_errors_name_the_path_given() {
    let dir = tempfile::tempdir().expect("temp dir");
    let missing = dir.path().join("no/such/dir/out.jsonl");
    let missing = missing.to_str().unwrap();
    for command in ["export", "validate"] {
        let out = arbiter(&[command, &outcomes(), "-o", missing]);
        assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
        let err = stderr(&out);
        assert!(
            err.starts_with(&format!("arbiter: error: cannot create {missing}: ")),
            "{err}"
        );
        assert!(!err.contains(".out.jsonl.arbiter-"), "{err}");
    }
    if std::path::Path::new("/dev/full").exists() {
        for command in ["export", "validate"] {
            let out = arbiter(&[command, &outcomes(), "-o", "/dev/full"]);
            assert_eq!(out.status.code(), Some(2));
            assert!(
                stderr(&out).contains("cannot write /dev/full: No space left on device"),
                "{}",
                stderr(&out)
            );
        }
    }
}

#[test]
fn zero_jobs_is_a_usage_error() {
    for args in [
        ["validate", "-j", "0"],
        ["validate", "--jobs", "0"],
        ["export", "-j", "0"],
        ["export", "--jobs", "0"],
    ] {
        let mut all = args.to_vec();
        let outcomes = outcomes();
        all.push(&outcomes);
        let out = arbiter(&all);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(stderr(&out).contains("at least 1"), "{}", stderr(&out));
        assert!(out.stdout.is_empty());
    }
    let out = arbiter(&["validate", &outcomes(), "-j", "1"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
}

#[test]
fn tags_are_trimmed_and_checked() {
    let out = arbiter(&["export", &outcomes(), "--tags", " Expect , Annotator"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let header = stdout(&out).lines().next().unwrap().to_owned();
    assert!(
        header.ends_with(",utc_timestamp,offset,white_can_mate,black_can_mate,Expect,Annotator"),
        "{header}"
    );
    for (tags, message) in [
        (
            "WhiteElo,Event",
            "--tags: Event is already the standard column event",
        ),
        (
            "result",
            "--tags: result is already the standard column result",
        ),
        ("WhiteElo, WhiteElo", "--tags: WhiteElo is given twice"),
        // See: issue 31 point 5: names that differ only in case are one column to DuckDB.
        (
            "Foo,foo",
            "--tags: foo and Foo differ only in case; DuckDB and pandas would not tell the two \
             columns apart",
        ),
        // DuckDB and pandas tell column names apart regardless of case.
        ("ECO", "--tags: ECO is already the standard column eco"),
        ("WhiteElo,,ECO", "--tags: empty tag name"),
    ] {
        let out = arbiter(&["export", &outcomes(), "--tags", tags]);
        assert_eq!(out.status.code(), Some(2), "{tags}");
        assert!(
            stderr(&out).starts_with(&format!("arbiter: error: {message}")),
            "{tags}: {}",
            stderr(&out)
        );
        assert!(out.stdout.is_empty(), "{tags}");
    }
}

// See: issue 31 point 2.
#[test]
fn validate_takes_its_format_from_the_output_name_as_export_does() {
    let dir = tempfile::tempdir().expect("temp dir");
    let invalid = fixture("invalid");
    let at = |name: &str| dir.path().join(name).to_str().unwrap().to_owned();
    // .jsonl (compressed or not) is JSON Lines without --format, and the run says what it wrote.
    let jsonl = at("problems.jsonl");
    let out = arbiter(&["validate", &invalid, "-o", &jsonl]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert_eq!(
        stderr(&out).trim_end(),
        format!("arbiter: wrote 16 games (16 errors, 0 warnings) to {jsonl}")
    );
    let written = std::fs::read_to_string(&jsonl).unwrap();
    assert_eq!(json_lines(&written).len(), 17, "{written}");
    // --format still wins, and --quiet says nothing.
    let text = at("problems.jsonl.txt");
    let out = arbiter(&["validate", &invalid, "--quiet", "-o", &text]);
    assert!(out.stderr.is_empty(), "{}", stderr(&out));
    assert!(
        std::fs::read_to_string(&text)
            .unwrap()
            .contains("error[illegal_move]")
    );
    let forced = at("forced.jsonl");
    arbiter(&["validate", &invalid, "--format", "text", "-o", &forced]);
    assert!(
        std::fs::read_to_string(&forced)
            .unwrap()
            .starts_with(&invalid)
    );
    // One game: singular.
    let one = at("one.txt");
    let out = arbiter(&["validate", &fixture("outcomes/outcomes.pgn"), "-o", &one]);
    assert!(stderr(&out).starts_with("arbiter: wrote 53 games (0 errors, 9 warnings) to "));
    // A name only export's formats have is refused before anything is written.
    let csv = at("problems.csv");
    let out = arbiter(&["validate", &invalid, "-o", &csv]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains(&format!(
            "-o {csv}: validate writes text or JSON Lines, not csv"
        )),
        "{}",
        stderr(&out)
    );
    assert!(!std::path::Path::new(&csv).exists());
}
