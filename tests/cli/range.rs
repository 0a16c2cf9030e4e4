//! `--range START:END` on the command line: the games whose first byte lies in [START, END) of
//! the input, the last read to its end past END, by file and by standard input, with one job and
//! two, at the places where a reader that starts mid-game could go wrong (inside a tag, inside a
//! comment that quotes a tag section); validate's diagnostics name games by the same offsets; a
//! bad range is a usage error. (The splits of every shared corpus are checked in-process, in
//! `crates/arbiter/tests/pipeline/range.rs`.)

use serde_json::Value;

use crate::util::{arbiter, arbiter_stdin, json_lines, stderr, stdout};

/// The records of `export --format jsonl` of `input` (with `extra` arguments), after checking the
/// run went well; `index` and `game` count from 1 in the run, in order.
fn records(input: &str, extra: &[&str], stdin: Option<&[u8]>) -> Vec<Value> {
    let mut args = vec!["export", input, "--format", "jsonl", "-q"];
    args.extend(extra);
    let output = match stdin {
        Some(bytes) => arbiter_stdin(&args, bytes),
        None => arbiter(&args),
    };
    assert!(
        matches!(output.status.code(), Some(0 | 1)),
        "{args:?}: {}",
        stderr(&output)
    );
    let records = json_lines(&stdout(&output));
    for (n, record) in records.iter().enumerate() {
        assert_eq!(
            record["index"],
            n as u64 + 1,
            "{args:?}: index counts in the run"
        );
        assert_eq!(
            record["game"],
            n as u64 + 1,
            "{args:?}: game counts in the run"
        );
    }
    records
}

/// Three games, the second with tags and a comment that quotes a whole tag section.
const QUOTING: &str = "[Event \"a\"]\n[Site \"x\"]\n\n1. e4 e5 1-0\n\n\
    [Event \"b\"]\n[Site \"y\"]\n\n1. d4 { the source read:\n[Event \"quoted\"]\n[Site \"z\"]\n\n\
    and so on } d5 1/2-1/2\n\n\
    [Event \"c\"]\n[Site \"w\"]\n\n1. c4 *\n";

/// The `event` of each record of `--range RANGE` on `text`, by file and by standard input, with
/// one job and two, which must agree.
fn events(text: &str, range: &str) -> Vec<(String, u64)> {
    let dir = tempfile::tempdir().expect("a scratch directory");
    let path = dir.path().join("games.pgn");
    std::fs::write(&path, text).expect("write the games");
    let mut seen = Vec::new();
    for (input, stdin) in [(path.to_str().unwrap(), None), ("-", Some(text.as_bytes()))] {
        for jobs in ["1", "2"] {
            let got: Vec<(String, u64)> =
                records(input, &["--range", range, "--jobs", jobs], stdin)
                    .iter()
                    .map(|r| {
                        let event = r["event"].as_str().expect("an event").to_owned();
                        (event, r["offset"].as_u64().expect("an offset"))
                    })
                    .collect();
            seen.push(got);
        }
    }
    assert!(seen.windows(2).all(|w| w[0] == w[1]), "{range}: {seen:?}");
    seen.swap_remove(0)
}

#[test]
fn a_range_holds_the_games_that_start_in_it_read_to_their_end() {
    let b = QUOTING.find("[Event \"b\"]").unwrap() as u64;
    let c = QUOTING.find("[Event \"c\"]").unwrap() as u64;
    let quoted = QUOTING.find("[Event \"quoted\"]").unwrap() as u64;
    let len = QUOTING.len() as u64;
    let all = vec![
        ("a".to_owned(), 0),
        ("b".to_owned(), b),
        ("c".to_owned(), c),
    ];
    assert_eq!(events(QUOTING, &format!("0:{len}")), all);
    assert_eq!(events(QUOTING, "0:1"), all[..1]);
    // Past the end of the file.
    assert_eq!(events(QUOTING, "0:1000000"), all);
    // Inside the first tag: the first game started before, and is not in the range.
    assert_eq!(events(QUOTING, &format!("3:{len}")), all[1..]);
    // Inside a comment that quotes a tag section: no game starts there; the one that holds it
    // started before.
    for start in [quoted, quoted + 1, quoted - 1] {
        assert_eq!(
            events(QUOTING, &format!("{start}:{len}")),
            all[2..],
            "{start}"
        );
    }
    // A game starting at END is the next range's; one starting just before is read whole.
    assert_eq!(events(QUOTING, &format!("1:{b}")), []);
    assert_eq!(events(QUOTING, &format!("1:{}", b + 1)), all[1..2]);
    assert_eq!(events(QUOTING, &format!("{b}:{c}")), all[1..2]);
    // Empty ranges, and ranges at or past the end.
    for range in [
        "0:0".to_owned(),
        format!("{b}:{b}"),
        format!("{len}:{len}"),
        format!("{len}:{}", len + 10),
        "5000:6000".to_owned(),
    ] {
        assert_eq!(events(QUOTING, &range), [], "{range}");
    }
}

#[test]
fn a_bad_range_is_a_usage_error() {
    let dir = tempfile::tempdir().expect("a scratch directory");
    let path = dir.path().join("games.pgn");
    std::fs::write(&path, QUOTING).expect("write the games");
    let path = path.to_str().unwrap();
    for (args, says) in [
        (
            vec!["export", path, "--range", "10:5"],
            "START (10) is past END (5)",
        ),
        (vec!["export", path, "--range", "10"], "expected START:END"),
        (
            vec!["validate", path, "--range", "a:5"],
            "START: \"a\" is not a whole number",
        ),
        (
            vec!["validate", path, "--range", "0:-1"],
            "END: -1 is negative",
        ),
        (
            vec!["export", path, path, "--range", "0:5"],
            "--range reads one input",
        ),
    ] {
        let output = arbiter(&args);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert!(
            stderr(&output).contains(says),
            "{args:?}: {}",
            stderr(&output)
        );
    }
}

#[test]
fn validate_reads_the_same_range_and_names_each_game_by_its_offset() {
    let dir = tempfile::tempdir().expect("a scratch directory");
    let path = dir.path().join("games.pgn");
    // Every game has an error, so that each has a diagnostic.
    let text = QUOTING.replace("1-0", "Ke3 1-0").replace(" *", " Qxf7 *");
    let text = text.replace("d5 1/2-1/2", "d5 Bb5 1/2-1/2");
    std::fs::write(&path, &text).expect("write the games");
    let path = path.to_str().unwrap();
    let offsets = |range: &[&str]| -> Vec<(u64, u64, u64)> {
        let mut args = vec!["validate", path, "--format", "jsonl", "-q"];
        args.extend(range);
        let output = arbiter(&args);
        assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
        json_lines(&stdout(&output))
            .iter()
            .filter(|d| d["type"] == "diagnostic")
            .map(|d| {
                let n = |key: &str| d[key].as_u64().expect(key);
                (n("offset"), n("game"), n("line"))
            })
            .collect()
    };
    let whole = offsets(&[]);
    assert_eq!(whole.len(), 3, "{whole:?}");
    let b = whole[1].0;
    assert_eq!(b as usize, text.find("[Event \"b\"]").unwrap());
    // The second game alone: numbered 1 in the run, at the same offset, its line counted from
    // the game's first line.
    let first_line = text[..b as usize].matches('\n').count() as u64 + 1;
    let range = format!("1:{}", b + 1);
    let in_game = whole[1].2 - first_line + 1;
    assert_eq!(offsets(&["--range", &range]), [(b, 1, in_game)]);
    // The whole file as a range: every game's lines counted so, the same in any split.
    let per_game: Vec<(u64, u64, u64)> = offsets(&["--range", "0:100000"]);
    assert_eq!(per_game[1], (b, 2, in_game));
    // The text form names the game by its offset, and the line in it.
    let output = arbiter(&["validate", path, "-q", "--range", &range]);
    let said = format!("{path}@{b}:{in_game}:");
    assert!(stdout(&output).starts_with(&said), "{}", stdout(&output));
    let output = arbiter(&["validate", path, "-q"]);
    let said = format!("{path}:{}:", whole[1].2);
    assert!(stdout(&output).contains(&said), "{}", stdout(&output));
}

/// Games without a comment, some of whose result lines hold a quote (no game surely starts after
/// those): so that no brace is in sight anywhere.
fn no_braces() -> String {
    (0..400)
        .map(|n| {
            let end = if n % 7 == 3 { "1-0 \"x\"" } else { "1-0" };
            format!("[Event \"{n}\"]\n[Site \"s\"]\n\n1. e4 e5 2. Nf3 Nc6 {end}\n\n")
        })
        .collect()
}

#[test]
fn the_ranges_of_a_split_hold_each_game_once_by_file_and_by_standard_input() {
    let text = no_braces();
    // A range start inside a comment quoting a tag section, after games without braces.
    let text = format!("{text}{QUOTING}{}", no_braces());
    let all: Vec<(String, u64)> = events(&text, "0:1000000");
    assert_eq!(all.len(), 803);
    let len = text.len() as u64;
    // Game 3 ends on a line with a quote, after which no game surely starts: a range that starts
    // at game 4 starts at game 5, and game 4 is the range's before.
    let at = |n: usize| text.find(&format!("[Event \"{n}\"]")).unwrap() as u64;
    let from_4 = events(&text, &format!("{}:{len}", at(4)));
    assert_eq!(from_4.first(), Some(&("5".to_owned(), at(5))));
    let to_4 = events(&text, &format!("0:{}", at(4)));
    assert_eq!(to_4.last(), Some(&("4".to_owned(), at(4))));
    let quoted = text.find("[Event \"quoted\"]").unwrap() as u64;
    for cuts in [
        vec![len / 3, len / 2],
        vec![1, quoted - 2, quoted + 3, len - 5],
        vec![len / 7, 2 * len / 7, 3 * len / 7, 4 * len / 7, len - 1],
    ] {
        let mut bounds = vec![0];
        bounds.extend(cuts);
        bounds.push(len + 1);
        let union: Vec<(String, u64)> = bounds
            .windows(2)
            .flat_map(|w| events(&text, &format!("{}:{}", w[0], w[1])))
            .collect();
        assert_eq!(union, all, "{bounds:?}");
    }
}
