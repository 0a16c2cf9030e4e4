//! One large input is read in parts on every core (`--jobs N`): the output is the same, byte for
//! byte, as with one job, in every format, for several inputs in a row, where the reader cannot
//! vouch for any place to cut (and reads a stretch in order), and when a compressed input breaks
//! off.

use std::io::Write;
use std::path::Path;

use crate::util::{arbiter, shared, stderr};

/// Runs `args` (with `--jobs N` appended) for 1, 2 and 3 jobs and asserts that stdout (but for
/// validate's summary line, which holds the elapsed time), stderr and the exit code agree.
fn assert_jobs_agree(args: &[&str]) -> String {
    let run = |jobs: &str| {
        let mut all = args.to_vec();
        all.extend(["--jobs", jobs, "-q"]);
        let output = arbiter(&all);
        let out = String::from_utf8(output.stdout).expect("UTF-8");
        let out: Vec<&str> = out
            .lines()
            .filter(|l| !l.contains("games/s") && !l.contains("\"type\":\"summary\""))
            .collect();
        (
            out.join("\n"),
            String::from_utf8_lossy(&output.stderr).into_owned(),
            output.status.code(),
        )
    };
    let one = run("1");
    for jobs in ["2", "3"] {
        let other = run(jobs);
        assert!(
            one.0 == other.0,
            "{args:?}: --jobs {jobs} output differs from --jobs 1"
        );
        assert_eq!(one.1, other.1, "{args:?}: --jobs {jobs} stderr");
        assert_eq!(one.2, other.2, "{args:?}: --jobs {jobs} exit code");
    }
    one.0
}

/// The real samples (LF and CRLF, annotated, damaged) one after another, `times` times: several
/// MB, so many parts.
fn samples(times: usize) -> Option<Vec<u8>> {
    let mut one = Vec::new();
    for dir in ["corpora/samples", "corpora/annotated"] {
        let mut files: Vec<_> = std::fs::read_dir(shared(dir)?)
            .expect("list samples")
            .map(|e| e.expect("entry").path())
            .filter(|p| p.extension().is_some_and(|e| e == "pgn"))
            .collect();
        files.sort();
        for file in files {
            one.extend(std::fs::read(file).expect("read sample"));
            one.extend(b"\n\n");
        }
    }
    Some(one.repeat(times))
}

fn write(dir: &Path, name: &str, bytes: &[u8]) -> String {
    let path = dir.join(name);
    std::fs::write(&path, bytes).expect("write input");
    path.to_str().expect("UTF-8 path").to_owned()
}

#[test]
fn a_large_input_read_in_parts_gives_the_output_of_one_job() {
    let Some(bytes) = samples(2) else { return };
    assert!(bytes.len() > 4 << 20, "only {} bytes", bytes.len());
    let dir = tempfile::tempdir().expect("temp dir");
    let big = write(dir.path(), "big.pgn", &bytes);
    // Twice, so that game numbers in the second input restart for validate and not for export.
    for format in ["csv", "json", "jsonl"] {
        let out = assert_jobs_agree(&["export", &big, &big, "--format", format]);
        assert!(out.len() > 1 << 20);
    }
    for format in ["text", "jsonl"] {
        let out = assert_jobs_agree(&["validate", &big, &big, "--format", format]);
        // Each input's Latin-1 games (dortmund.pgn's, twice) get one not_utf8 warning.
        assert!(
            out.lines().count() > 200,
            "only {} diagnostics",
            out.lines().count()
        );
    }
}

#[test]
fn where_no_place_to_cut_is_sure_the_input_is_read_in_order_for_a_stretch() {
    // Every game ends with a line holding a quote, after which a game is not sure to start: past
    // a few MB that stretch is read in order, and then the real games after it in parts again.
    let mut bytes = Vec::new();
    let mut n = 0;
    while bytes.len() < 6 << 20 {
        n += 1;
        write!(
            bytes,
            "[Event \"q{n}\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 {{\"oops\"}} \
             4. Qxf7# 1-0\n\n"
        )
        .expect("write");
    }
    let Some(tail) = samples(2) else { return };
    bytes.extend(tail);
    let dir = tempfile::tempdir().expect("temp dir");
    let input = write(dir.path(), "quoted.pgn", &bytes);
    let diagnostics = assert_jobs_agree(&["validate", &input]);
    assert!(diagnostics.lines().count() > 90);
    let out = assert_jobs_agree(&["export", &input, "--format", "csv"]);
    assert!(out.lines().count() > n, "{} records", out.lines().count());
    assert!(
        out.contains(&format!("\n{n},{input},{n},q{n},")),
        "the last quoted game has its number"
    );
}

#[test]
fn a_compressed_input_that_breaks_off_reports_the_same_with_any_jobs() {
    let Some(bytes) = samples(1) else { return };
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    gz.write_all(&bytes).expect("compress");
    let mut gz = gz.finish().expect("compress");
    gz.truncate(gz.len() * 2 / 3);
    let dir = tempfile::tempdir().expect("temp dir");
    let input = write(dir.path(), "broken.pgn.gz", &gz);
    let out = arbiter(&["export", &input, "--format", "jsonl", "-q"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("corrupt or truncated gzip data"),
        "{}",
        stderr(&out)
    );
    let records = assert_jobs_agree(&["export", &input, "--format", "jsonl"]);
    assert!(records.lines().count() > 1000);
}
