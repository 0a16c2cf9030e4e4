//! Hostile streams: huge lines, deep nesting, unclosed comments, garbage, broken encodings, odd
//! line ends, huge tags, very long games.

use arbiter::core::{ReplayOptions, Replayer};
use arbiter::pgn::Reader;

use crate::util::{Bytes, Input, check, good_game, good_games, run, scratch, write};

#[test]
fn a_50_mb_line_without_a_newline() {
    let dir = scratch();
    let mut pgn = good_games(0, 2).into_bytes();
    pgn.extend(std::iter::repeat_n(b'x', 50 << 20));
    pgn.extend_from_slice(b" 1-0\n");
    pgn.extend(good_games(2, 2).into_bytes());
    let path = write(dir.path(), "long-line.pgn", &pgn);
    let c = check(&path, None, "50 MB line");
    c.assert_good_games(4, "50 MB line");
    assert_eq!(c.records.len(), 5);
    // Junk in the main line: the game is invalid in export as in validate, and has no outcome.
    assert_eq!(c.records[2]["valid"], false);
    assert_eq!(c.records[2]["outcome"], "invalid");
    let errors = c.errors();
    // Clipped: the 50 MB "move" must not come back as a 50 MB diagnostic.
    let clipped: Vec<String> = errors
        .iter()
        .map(|e| e.to_string().chars().take(400).collect())
        .collect();
    assert!(
        errors
            .iter()
            .any(|e| e["game"] == 3 && e["line"] == 13 && e["column"] == 1),
        "{clipped:?}"
    );
    assert!(c.validate.stdout.len() < 4096, "{clipped:?}");
    assert!(
        c.records[2]["error"].as_str().unwrap().len() < 1024,
        "{clipped:?}"
    );
    assert_eq!(c.validate.code(), Some(1));
}

#[test]
fn a_100_mb_game_is_skipped_and_reported() {
    let dir = scratch();
    let mut pgn = good_games(0, 1).into_bytes();
    pgn.extend_from_slice(b"[Event \"huge\"]\n\n1. e4 {");
    pgn.extend(std::iter::repeat_n(b'x', 100 << 20));
    pgn.extend_from_slice(b"} e5 1-0\n\n");
    pgn.extend(good_games(1, 1).into_bytes());
    let path = write(dir.path(), "huge-game.pgn", &pgn);
    let c = check(&path, None, "100 MB game");
    c.assert_good_games(2, "100 MB game");
    assert_eq!(c.records[1]["valid"], false);
    let errors = c.errors();
    assert!(
        errors.iter().any(|e| e["game"] == 2
            && e["line"] == 7
            && e["message"].as_str().unwrap().contains("too large")),
        "{errors:?}"
    );
    let peak = c.export.peak_kib.unwrap_or(0);
    assert!(
        peak < 512 << 10,
        "export peak RSS {peak} KiB on a skipped 100 MB game"
    );
}

#[test]
fn an_unclosed_comment_quoting_a_tag_line_past_the_size_limit() {
    // The comment counts as never closed: its game ends before the quoted tag line, which starts
    // a game too large to read. (The cutter once dropped the line's place with the bytes of the
    // too-large game: an internal error, and the games after it lost.)
    let dir = scratch();
    let mut pgn = good_games(0, 1).into_bytes();
    pgn.extend_from_slice(b"[Event \"quoting\"]\n\n1. e4 { see\n[Event \"quoted\"]\n");
    let line = b"1. d4 d5 2. c4 e6 3. Nc3 Nf6 4. Bg5 Be7\n";
    pgn.extend(line.repeat((65 << 20) / line.len()));
    pgn.extend_from_slice(b"\n");
    pgn.extend(good_games(1, 1).into_bytes());
    let path = write(dir.path(), "quoted-tag-line.pgn", &pgn);
    let c = check(&path, None, "quoted tag line");
    c.assert_good_games(2, "quoted tag line");
    assert_eq!(c.records.len(), 4);
    let errors = c.errors();
    let said = |game: u64, line: u64, what: &str| {
        errors.iter().any(|e| {
            e["game"] == game && e["line"] == line && e["message"].as_str().unwrap().contains(what)
        })
    };
    assert!(said(2, 9, "never closed"), "{errors:?}");
    assert!(said(3, 10, "too large"), "{errors:?}");
}

/// `n` copies of `open` then `n` of `close`, inside a game between good games.
fn nested(open: &str, close: &str, n: usize) -> String {
    let mut pgn = good_games(0, 1);
    pgn.push_str("[Event \"nested\"]\n\n1. e4 ");
    pgn.push_str(&open.repeat(n));
    pgn.push_str(&close.repeat(n));
    pgn.push_str(" e5 1-0\n\n");
    pgn.push_str(&good_games(1, 1));
    pgn
}

#[test]
fn a_100000_deep_nesting_of_variations() {
    let dir = scratch();
    // Bare parentheses, variations that each replace the move before, and parentheses never closed.
    let cases = [
        ("bare", nested("(", ")", 100_000), true),
        ("moves", nested("(1. d4 ", ")", 100_000), true),
        ("unclosed", nested("(", "", 100_000), false),
    ];
    for (name, pgn, balanced) in cases {
        let path = write(dir.path(), &format!("{name}.pgn"), pgn.as_bytes());
        let c = check(&path, None, name);
        c.assert_good_games(2, name);
        assert_eq!(c.records.len(), 3, "{name}");
        // Each replayed level holds two positions: past 1,000 levels variations are read, not
        // replayed (this took 340 MB for 1,000,000 levels before).
        let peak = c.validate.peak_kib.unwrap_or(0);
        assert!(peak < 128 << 10, "{name}: peak RSS {peak} KiB");
        if name == "moves" {
            let codes: Vec<&str> = c
                .diagnostics
                .iter()
                .filter_map(|d| d["code"].as_str())
                .collect();
            assert_eq!(codes, ["deep_variation"], "{name}");
            assert_eq!(c.diagnostics[0]["column"], 7 + 7 * 1000, "{name}");
        }
        if balanced {
            assert_eq!(c.records[1]["plies"], 2, "{name}: {}", c.records[1]);
        } else {
            assert!(
                !c.errors().is_empty(),
                "{name}: the unclosed `(` is reported"
            );
            assert!(c.errors().iter().all(|e| e["game"] == 2), "{name}");
        }
    }
}

#[test]
fn an_unterminated_comment_followed_by_1000_good_games() {
    let mut pgn = String::from("[Event \"open comment\"]\n\n1. e4 { this comment never ends\n\n");
    pgn.push_str(&good_games(0, 1000));
    let c = check(
        std::path::Path::new("-"),
        Some(pgn.as_bytes()),
        "open comment",
    );
    c.assert_good_games(1000, "open comment");
    assert_eq!(c.records.len(), 1001);
    let errors = c.errors();
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert_eq!(
        (errors[0]["line"].as_u64(), errors[0]["column"].as_u64()),
        (Some(3), Some(7))
    );
    assert!(
        errors[0]["message"]
            .as_str()
            .unwrap()
            .contains("unterminated comment")
    );
}

#[test]
fn binary_garbage_and_nul_bytes_between_games() {
    let mut bytes = Bytes::new(6);
    let mut pgn = Vec::new();
    for n in 0..200 {
        pgn.extend(good_game(n).into_bytes());
        let garbage = match n % 4 {
            0 => vec![0; 1 + n],
            1 => bytes.fill(1 + n * 7),
            2 => [b"\x00\xff\xfe".as_slice(), &bytes.fill(n)].concat(),
            _ => b"\x00{\x00(\x00[\x00\"\x00;".to_vec(),
        };
        pgn.extend(garbage);
        pgn.extend_from_slice(b"\n\n");
    }
    let c = check(std::path::Path::new("-"), Some(&pgn), "garbage");
    c.assert_good_games(200, "garbage");
    assert_eq!(c.validate.code(), Some(1));
    assert!(!c.errors().is_empty());
}

/// Three games, the middle one with byte `at` replaced by `byte`.
fn damaged(at: usize, byte: u8) -> Vec<u8> {
    let mut middle = good_game(1).into_bytes();
    middle[at] = byte;
    [good_game(0).into_bytes(), middle, good_game(2).into_bytes()].concat()
}

#[test]
fn invalid_utf8_at_every_position_of_a_game() {
    let len = good_game(1).len();
    let mut replayer = Replayer::new(ReplayOptions {
        ..ReplayOptions::default()
    });
    for byte in [0xff, 0xc3, 0x80, 0xe2, 0x00] {
        for at in 0..len {
            let pgn = damaged(at, byte);
            let mut reader = Reader::new("utf8.pgn", pgn.as_slice());
            let mut events = Vec::new();
            while reader
                .read_game(&mut replayer)
                .expect("in memory")
                .is_some()
            {
                let report = replayer.report();
                events.push((report.tags.event.clone(), report.main_line_valid));
            }
            let what = format!("byte {byte:#04x} at {at}");
            assert!(events.len() >= 3, "{what}: {events:?}");
            assert_eq!(events.first(), Some(&("good 0".into(), true)), "{what}");
            assert_eq!(events.last(), Some(&("good 2".into(), true)), "{what}");
        }
    }
    // And once through the binary: the damaged game is read as Windows-1252, with a warning.
    let pgn = damaged(good_game(1).find("hostile").unwrap() + 1, 0xe9);
    let c = check(std::path::Path::new("-"), Some(&pgn), "latin-1");
    assert_eq!(c.records.len(), 3);
    assert!(
        c.records.iter().all(|r| r["valid"] == true),
        "{:?}",
        c.records
    );
    assert_eq!(c.records[1]["site"], "héstile");
    assert_eq!(c.diagnostics.len(), 1, "one warning: {:?}", c.diagnostics);
    assert_eq!(
        (
            c.diagnostics[0]["line"].as_u64(),
            c.diagnostics[0]["severity"].as_str()
        ),
        (Some(7), Some("warning"))
    );
    let dir = scratch();
    let pgn = damaged(good_game(1).find("Qh5").unwrap(), 0xff);
    let path = write(dir.path(), "utf8.pgn", &pgn);
    let c = check(&path, None, "0xff in a move");
    assert_eq!(c.records.len(), 3);
    assert_eq!(c.records[1]["valid"], false);
    assert!(
        c.errors().iter().any(|e| e["game"] == 2 && e["line"] == 11),
        "{:?}",
        c.errors()
    );
}

#[test]
fn cr_only_and_mixed_line_endings() {
    let lf = good_games(0, 50);
    let reference = check(std::path::Path::new("-"), Some(lf.as_bytes()), "LF");
    // Records without their offsets, which count the line ends' bytes.
    let strip = |c: &crate::util::Checked| -> Vec<serde_json::Value> {
        let mut records = c.records.clone();
        for record in &mut records {
            record.as_object_mut().map(|r| r.remove("offset"));
        }
        records
    };
    let cr = lf.replace('\n', "\r");
    let crlf = lf.replace('\n', "\r\n");
    let mixed: String = lf
        .split_inclusive('\n')
        .enumerate()
        .map(|(i, line)| match i % 3 {
            0 => line.to_string(),
            1 => line.replace('\n', "\r"),
            _ => line.replace('\n', "\r\n"),
        })
        .collect();
    for (name, text) in [("CR", cr), ("CRLF", crlf), ("mixed", mixed)] {
        let c = check(std::path::Path::new("-"), Some(text.as_bytes()), name);
        c.assert_good_games(50, name);
        assert_eq!(strip(&c), strip(&reference), "{name}");
    }
    // Line numbers of diagnostics are the same whatever the line ends.
    let broken = good_games(0, 3).replace("Qxf7#", "Qxf8#");
    let lines = |text: &str| -> Vec<(u64, u64)> {
        check(std::path::Path::new("-"), Some(text.as_bytes()), "located")
            .errors()
            .iter()
            .map(|e| (e["line"].as_u64().unwrap(), e["column"].as_u64().unwrap()))
            .collect()
    };
    let expected = lines(&broken);
    assert_eq!(expected.len(), 3);
    assert_eq!(lines(&broken.replace('\n', "\r")), expected);
    assert_eq!(lines(&broken.replace('\n', "\r\n")), expected);
}

#[test]
fn a_tag_value_of_10_mb() {
    let dir = scratch();
    let value = "v".repeat(10 << 20);
    let mut pgn = good_games(0, 1);
    pgn.push_str(&format!(
        "[Event \"big\"]\n[White \"{value}\"]\n\n1. d4 d5 1/2-1/2\n\n"
    ));
    pgn.push_str(&good_games(1, 1));
    let path = write(dir.path(), "big-tag.pgn", pgn.as_bytes());
    let c = check(&path, None, "10 MB tag");
    c.assert_good_games(2, "10 MB tag");
    assert_eq!(c.records[1]["white"].as_str().map(str::len), Some(10 << 20));
    assert_eq!(c.records[1]["valid"], true);
    assert_eq!(c.validate.code(), Some(0));
}

#[test]
fn a_game_near_the_size_limit_costs_three_times_its_size_four_as_parquet() {
    // A 63 MiB Event tag, just under the 64 MiB game limit: read, its tag kept for the record, and
    // the record written (and for Parquet buffered for its row group). The game's bytes were once
    // copied out of the read buffer too: 4 times its size as JSON Lines, 5 as Parquet.
    // docs/SECURITY.md states the bound.
    let dir = scratch();
    let size = 63 << 20;
    let pgn = format!("[Event \"{}\"]\n\n1. e4 e5 *\n", "x".repeat(size));
    let path = write(dir.path(), "tag63.pgn", pgn.as_bytes());
    let path = path.to_str().expect("UTF-8 path");
    let parquet = dir.path().join("tag63.parquet");
    let parquet = parquet.to_str().expect("UTF-8 path");
    let size_kib = (size >> 10) as u64;
    for (format, out, times) in [("jsonl", "/dev/null", 3.5), ("parquet", parquet, 4.5)] {
        for jobs in ["1", "2"] {
            let args = [
                "export", path, "--format", format, "--jobs", jobs, "-o", out,
            ];
            let run = run(&args, Input::Null);
            run.assert_code(0, format);
            let peak = run.peak_kib.unwrap_or(0);
            let bound = (size_kib as f64 * times) as u64;
            assert!(
                peak < bound,
                "{format}, --jobs {jobs}: peak RSS {peak} KiB for a game of {size_kib} KiB"
            );
        }
    }
}

#[test]
fn a_game_of_100000_plies() {
    let mut pgn = good_games(0, 1);
    pgn.push_str("[Event \"shuffle\"]\n[Result \"1/2-1/2\"]\n\n");
    for cycle in 0..25_000 {
        let n = 2 * cycle + 1;
        pgn.push_str(&format!("{n}. Nf3 Nf6 {}. Ng1 Ng8 ", n + 1));
        if cycle % 8 == 7 {
            pgn.push('\n');
        }
    }
    pgn.push_str("1/2-1/2\n\n");
    pgn.push_str(&good_games(1, 1));
    let c = check(
        std::path::Path::new("-"),
        Some(pgn.as_bytes()),
        "100000 plies",
    );
    c.assert_good_games(2, "100000 plies");
    let shuffle = &c.records[1];
    assert_eq!(shuffle["plies"], 100_000, "{shuffle}");
    assert_eq!(shuffle["valid"], true, "{shuffle}");
    // The first automatic end decides: the start position occurs the fifth time at ply 16.
    assert_eq!(shuffle["outcome"], "fivefold_repetition", "{shuffle}");
    assert_eq!(shuffle["end_ply"], 16, "{shuffle}");
    // One warning for the moves after the automatic end, not one per move.
    assert!(c.diagnostics.len() <= 2, "{:?}", c.diagnostics);
}

#[test]
fn stdin_of_nothing_but_garbage() {
    let mut bytes = Bytes::new(42);
    let garbage = bytes.fill(1 << 20);
    // Random bytes with NULs early on, not starting like text: refused as a whole, once.
    let r = run(&["validate", "--format", "jsonl"], Input::Bytes(&garbage));
    r.assert_code(2, "garbage stdin");
    assert_eq!(r.stderr.lines().count(), 1, "{}", r.stderr);
    assert!(
        r.stderr.contains("<stdin>") && r.stderr.contains("not a PGN file: binary data"),
        "{}",
        r.stderr
    );
    // The same garbage after a tag pair is read as PGN, and nothing is lost. (After a bare move
    // number it is refused too: text with no tag pair and more unreadable words than moves.)
    let garbage = [b"[Event \"x\"]\n1. ".as_slice(), &garbage].concat();
    let r = run(&["validate", "--format", "jsonl"], Input::Bytes(&garbage));
    r.assert_clean("garbage stdin");
    let summary = crate::util::json_lines(&r.stdout).pop().unwrap();
    crate::util::assert_summary_adds_up(
        &summary,
        arbiter::pgn::Splitter::new(garbage.as_slice()).count() as u64,
        "garbage stdin",
    );
}

#[test]
fn a_tag_section_of_a_million_distinct_tags() {
    // The splitter remembers the tag names of a section (a repeated name starts the next
    // header-only game); it searched a list, which made this quadratic: hours for a 64 MB file.
    let mut pgn = good_games(0, 1);
    for i in 0..1_000_000 {
        pgn.push_str(&format!("[T{i} \"v\"]\n"));
    }
    pgn.push_str("\n1. e4 *\n\n");
    pgn.push_str(&good_games(1, 1));
    let c = check(
        std::path::Path::new("-"),
        Some(pgn.as_bytes()),
        "a million tags",
    );
    c.assert_good_games(2, "a million tags");
    assert_eq!(c.records.len(), 3);
    assert_eq!(c.records[1]["plies"], 1);
}

#[test]
fn a_game_with_a_million_problems_lists_ten_thousand() {
    // Each stray `)` is a problem; all of them were kept in memory (270 MB for this 2 MB game,
    // gigabytes for a 64 MB one). Now 10,000 are listed and the rest counted.
    let mut pgn = good_games(0, 1);
    pgn.push_str("[Event \"parens\"]\n\n1. e4 ");
    pgn.push_str(&") ".repeat(1_000_000));
    pgn.push_str("*\n\n");
    pgn.push_str(&good_games(1, 1));
    let c = check(
        std::path::Path::new("-"),
        Some(pgn.as_bytes()),
        "a million problems",
    );
    c.assert_good_games(2, "a million problems");
    assert_eq!(c.diagnostics.len(), 10_001);
    let note = c.diagnostics.last().unwrap();
    assert_eq!(note["code"], "problems_not_listed", "{note}");
    assert!(
        note["message"]
            .as_str()
            .unwrap()
            .starts_with("990000 more problems"),
        "{note}"
    );
    assert_eq!(
        (note["line"].as_u64(), note["column"].as_u64()),
        (Some(9), Some(20_007))
    );
    for run in [&c.export, &c.validate] {
        let peak = run.peak_kib.unwrap_or(0);
        assert!(peak < 128 << 10, "peak RSS {peak} KiB");
    }
}

#[test]
fn memory_stays_flat_as_the_input_grows() {
    // Short games, whose JSON records are three times their size: 16 MB of them and ten times as
    // many. Both runs stay within issue 5's bounds, 8 MB with one job and 16 MB with two: a run
    // keeps no more of a larger input (parts, results waiting their turn, buffers freed on other
    // threads). How many results wait their turn depends on scheduling (other tests run
    // alongside), so the two peaks are held to the bound, not to each other.
    let dir = scratch();
    let small = good_games(0, 1000).repeat(160);
    let large = small.repeat(10);
    let small = write(dir.path(), "small.pgn", small.as_bytes());
    let large = write(dir.path(), "large.pgn", large.as_bytes());
    for (jobs, bound) in [("1", 8 << 10), ("2", 16 << 10)] {
        let peak = |path: &std::path::Path| {
            let path = path.to_str().expect("UTF-8 path");
            let args = [
                "export",
                path,
                "--format",
                "jsonl",
                "--jobs",
                jobs,
                "-o",
                "/dev/null",
            ];
            let run = run(&args, Input::Null);
            run.assert_code(0, "flat memory");
            run.peak_kib.unwrap_or(0)
        };
        let (small, large) = (peak(&small), peak(&large));
        assert!(
            small < bound && large < bound,
            "--jobs {jobs}: peak RSS {small} KiB on 16 MB, {large} KiB on 160 MB"
        );
    }
}
