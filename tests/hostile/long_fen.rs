//! FENs far too long to be one: in a `FEN` tag, on the command line of `moves`, and as a line of
//! `moves --file`. Each is one short defect, not one per character (which cost gigabytes and
//! megabytes of message), and an echoed input is cut to 512 characters.
//!
//! See: issue 25, point 6.

use crate::util::{Input, check, good_games, json_lines, run, scratch, write};

/// The longest message any of these may give: 512 characters of quote and a sentence of reason.
const SHORT: usize = 1_000;

#[test]
fn a_fen_tag_of_megabytes_is_one_short_defect() {
    let dir = scratch();
    let fen = "x".repeat(4 << 20);
    let pgn = format!(
        "{}[Event \"long fen\"]\n[FEN \"{fen}\"]\n\n1. e4 *\n\n{}",
        good_games(0, 1),
        good_games(1, 1)
    );
    let path = write(dir.path(), "long-fen.pgn", pgn.as_bytes());
    let c = check(&path, None, "long FEN tag");
    c.assert_good_games(2, "long FEN tag");
    let errors = c.errors();
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert_eq!(errors[0]["code"], "bad_fen");
    let message = errors[0]["message"].as_str().unwrap_or_default();
    assert!(
        message.chars().count() < SHORT,
        "{} characters",
        message.len()
    );
    // The reason comes after the quote, which is cut.
    assert!(
        message.contains("…\": invalid fen: fen: the text is 4194304 bytes long"),
        "{message}"
    );
    assert!(!message.contains("invalid piece letter"), "{message}");
}

#[test]
fn moves_with_a_fen_of_100k_characters_gives_one_short_error() {
    let fen = "x".repeat(100_000);
    let r = run(&["moves", &fen], Input::Null);
    r.assert_code(2, "moves with a long FEN");
    assert_eq!(r.stderr.lines().count(), 1, "{}", r.stderr);
    assert!(r.stderr.len() < SHORT, "{} bytes of error", r.stderr.len());
    assert!(
        r.stderr
            .starts_with("arbiter: error: invalid fen: fen: the text is 100000 bytes long;"),
        "{}",
        r.stderr
    );
}

#[test]
fn a_fen_with_hundreds_of_defects_lists_a_handful() {
    // 200 bad letters in one rank (short enough to be read): 201 defects with the rank count.
    let fen = format!("{} w - - 0 1", "x".repeat(200));
    let r = run(&["moves", &fen], Input::Null);
    r.assert_code(2, "moves with 201 defects");
    assert_eq!(
        r.stderr.matches("invalid piece letter").count(),
        7,
        "{}",
        r.stderr
    );
    assert!(
        r.stderr
            .starts_with("arbiter: error: invalid fen: board: expected 8 ranks, found 1;"),
        "{}",
        r.stderr
    );
    assert!(
        r.stderr.ends_with("; and 193 more defects\n"),
        "{}",
        r.stderr
    );
}

#[test]
fn a_line_of_100_mb_in_moves_file_is_one_short_record() {
    let dir = scratch();
    let mut text = b"startpos\n".to_vec();
    text.extend(std::iter::repeat_n(b'x', 100_000_000));
    text.extend(b"\n8/8/8/8/8/8/8/K6k w - - 0 1\n");
    let path = write(dir.path(), "long-line.epd", &text);
    drop(text);
    let r = run(
        &["moves", "--file", path.to_str().unwrap(), "--limit", "0"],
        Input::Null,
    );
    r.assert_code(1, "moves --file with a 100 MB line");
    assert!(
        r.stdout.len() < 10 * SHORT,
        "{} bytes of output",
        r.stdout.len()
    );
    let records = json_lines(&r.stdout);
    let lines: Vec<u64> = records.iter().filter_map(|r| r["line"].as_u64()).collect();
    assert_eq!(lines, [1, 2, 3], "every line has its record");
    let bad = &records[1];
    let input = bad["input"].as_str().unwrap_or_default();
    assert_eq!(input, format!("{}…", "x".repeat(512)));
    assert_eq!(
        bad["error"],
        "the line is 100000000 bytes long; a FEN or EPD line is read up to 65536 bytes"
    );
    assert_eq!(records[2]["status"], "insufficient_material");
    if let Some(kib) = r.peak_kib {
        eprintln!("moves --file with a 100 MB line: peak {kib} KiB");
    }
}

#[test]
fn a_long_line_under_the_line_limit_is_read_as_a_fen_too_long() {
    let dir = scratch();
    let path = write(
        dir.path(),
        "long.fen",
        format!("{}\n", "x".repeat(50_000)).as_bytes(),
    );
    let r = run(&["moves", "--file", path.to_str().unwrap()], Input::Null);
    r.assert_code(1, "moves --file with a 50,000-byte FEN");
    let records = json_lines(&r.stdout);
    assert_eq!(records.len(), 1);
    assert_eq!(
        records[0]["input"].as_str().map(|s| s.chars().count()),
        Some(513)
    );
    assert!(
        records[0]["error"]
            .as_str()
            .is_some_and(|e| e.starts_with("invalid fen: fen: the text is 50000 bytes long;")),
        "{}",
        records[0]
    );
}
