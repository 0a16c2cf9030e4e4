//! How games are cut and read, as the PGN standard reads them (issue 30, points 1 and 2): a tag
//! pair over lines is one tag (its value on one line), a comment that quotes whole games runs to
//! its `}`, a comment never closed still ends before the next game; and the output is the same
//! with any number of jobs, where a part's first read ends inside such a tag or comment.

use std::collections::BTreeMap;

use serde_json::Value;

use crate::util::{arbiter, fixture, json_lines, stderr, stdout};

/// Runs export to JSON Lines with the `Expect` tag, with `jobs` jobs.
fn export(path: &str, jobs: &str) -> Vec<Value> {
    let output = arbiter(&[
        "export", path, "--format", "jsonl", "--tags", "Expect", "--jobs", jobs, "-q",
    ]);
    assert!(
        matches!(output.status.code(), Some(0 | 1)),
        "{}",
        stderr(&output)
    );
    json_lines(&stdout(&output))
}

/// A game's `Expect` tag: `plies=N site=S valid=B`.
fn expectation(record: &Value) -> BTreeMap<String, String> {
    let expect = record["Expect"].as_str().unwrap_or_else(|| {
        panic!("game {} has no Expect tag: {record}", record["game"]);
    });
    expect
        .split(' ')
        .map(|pair| {
            let (key, value) = pair.split_once('=').expect("key=value");
            (key.to_owned(), value.to_owned())
        })
        .collect()
}

#[test]
fn each_game_of_the_reading_fixture_is_one_record_as_it_expects() {
    let path = fixture("reading/reading.pgn");
    let records = export(&path, "1");
    assert_eq!(records.len(), 10, "{records:#?}");
    for record in &records {
        let expect = expectation(record);
        let event = &record["event"];
        assert_eq!(record["plies"].to_string(), expect["plies"], "{event}");
        assert_eq!(record["site"], expect["site"].as_str(), "{event}");
        assert_eq!(record["valid"].to_string(), expect["valid"], "{event}");
    }
    // The value cut by a line end is a broken tag; the comment never closed is reported.
    let error = |game: usize| {
        records[game]["error"]
            .as_str()
            .unwrap_or_default()
            .to_owned()
    };
    assert!(
        error(4).contains("broken tag pair: `[Site \"He` at 59:1"),
        "{}",
        error(4)
    );
    assert!(error(7).contains("unterminated comment"), "{}", error(7));
    assert_eq!(export(&path, "2"), records);
}

/// A game whose `Site` tag is over lines, in the form `n` picks, with `pad` blank lines before its
/// name.
fn game_with_a_tag_over_lines(n: usize, pad: usize) -> String {
    let forms = [
        "[Site\n\"Here\"]",
        "[Site \"Here\"\n]",
        "[\nSite\n\n\"Here\"\n]",
        "[Site\r\n\"Here\"]",
    ];
    let form = forms[n % forms.len()].replacen("Site", &format!("{}Site", "\n".repeat(pad)), 1);
    format!("[Event \"g{n}\"]\n{form}\n[Round \"{n}\"]\n\n1. e4 e5 2. Nf3 Nc6 1/2-1/2\n\n")
}

/// Such games, `n` from `first` on, up to `total` bytes in all.
fn games_with_tags_over_lines(text: &mut String, first: usize, pad: usize, total: usize) -> usize {
    let mut n = first;
    while text.len() < total {
        text.push_str(&game_with_a_tag_over_lines(n, pad));
        n += 1;
    }
    n
}

#[test]
fn parts_cut_inside_a_tag_over_lines_or_a_quoting_comment_read_as_one_job() {
    // The first part's read ends at 64 KiB: there, inside the tag over lines of a game, padded
    // with blank lines so that the look-ahead of 4 KiB still sees all of it.
    let part = 64 << 10;
    let mut text = String::new();
    let n = games_with_tags_over_lines(&mut text, 0, 10, part - 3000);
    // Form 0, `[Site` newline `"Here"]`, with its padding right after the `[`.
    let number = n * 4;
    let pad_at = text.len() + format!("[Event \"g{number}\"]\n[").len();
    text.push_str(&game_with_a_tag_over_lines(number, part + 500 - pad_at));
    let tag = text[..part].rfind('[').expect("a tag");
    assert!(
        text[tag..part].starts_with("[\n\n") && text[part..].starts_with('\n'),
        "the first read ends in the tag over lines: {:?}",
        &text[tag..tag + 20]
    );
    let n = games_with_tags_over_lines(&mut text, n + 1, 10, part + 4000);
    // Then a comment that quotes whole games over more than a part, so that reads end in it.
    let mut quoted = String::new();
    for n in 0..3000 {
        quoted.push_str(&format!(
            "[Event \"quoted {n}\"]\n[Site \"There\"]\n\n1. d4 d5 2. c4 e6 1-0\n\n"
        ));
    }
    assert!(quoted.len() > 2 * part);
    text.push_str(&format!(
        "[Event \"quoting\"]\n[Site \"Here\"]\n\n1. e4 {{Games that went otherwise:\n{quoted}}} e5 \
         1/2-1/2\n\n"
    ));
    let total = text.len() + 300_000;
    games_with_tags_over_lines(&mut text, n, 200, total);
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("over-lines.pgn");
    std::fs::write(&path, &text).expect("write input");
    let path = path.to_str().expect("UTF-8 path");
    let games = text.matches("1/2-1/2").count();
    let one = export(path, "1");
    assert_eq!(one.len(), games, "one record per game");
    for record in &one {
        assert_eq!(record["site"], "Here", "{record}");
        assert_eq!(record["valid"], true, "{record}");
    }
    let quoting = one
        .iter()
        .find(|r| r["event"] == "quoting")
        .expect("the quoting game");
    assert_eq!(quoting["plies"], 2);
    for jobs in ["2", "3"] {
        assert!(
            export(path, jobs) == one,
            "--jobs {jobs} differs from --jobs 1"
        );
    }
}

#[test]
fn a_termination_marker_glued_to_the_token_before_it_ends_the_game() {
    // Issue 43, point 1: `e5*`, `$1*`, `Qxf7+*`, `Nc6!?1-0`, `Nc6?*`, `Qh4#!?0-1`, `d5!1/2-1/2`,
    // `[Result "*"]*` and `[Result "1-0"]1-0` are read as the PGN standard reads them: the
    // marker is a token of its own, the game valid, its outcome from the board and the tags.
    let path = fixture("reading/glued-results.pgn");
    let records = export(&path, "1");
    assert_eq!(records.len(), 10, "{records:#?}");
    for record in &records {
        let expect = expectation(record);
        let event = &record["event"];
        assert_eq!(record["plies"].to_string(), expect["plies"], "{event}");
        assert_eq!(record["result"], expect["result"].as_str(), "{event}");
        assert_eq!(record["outcome"], expect["outcome"].as_str(), "{event}");
        assert_eq!(record["valid"].to_string(), expect["valid"], "{event}");
        assert_eq!(record["error"], Value::Null, "{event}");
    }
    assert_eq!(export(&path, "2"), records);
}
