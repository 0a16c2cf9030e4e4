//! `arbiter moves`: text and JSON output, the board diagram, bad FENs, and a sample of the
//! python-chess reference rows through the binary (the full table runs as a library test in
//! `tests/san`).

use std::path::PathBuf;

use crate::util::arbiter;

/// Runs `arbiter moves ARGS`, expects success and returns stdout.
fn moves(args: &[&str]) -> String {
    let mut all = vec!["moves"];
    all.extend_from_slice(args);
    let out = arbiter(&all);
    assert!(
        out.status.success(),
        "arbiter {all:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.stderr.is_empty());
    let text = String::from_utf8(out.stdout).expect("utf-8 output");
    // The lines saying which side can still mate are checked by their own tests.
    text.lines()
        .filter(|l| !is_mate_line(l))
        .map(|l| format!("{l}\n"))
        .collect()
}

/// A text line saying whether a side can still mate.
fn is_mate_line(line: &str) -> bool {
    ["white ", "black "].iter().any(|side| {
        line.strip_prefix(side).is_some_and(|rest| {
            rest.starts_with("can mate")
                || rest.starts_with("cannot mate (proved: ")
                || rest.starts_with("not decided")
        })
    }) || line.starts_with("white: not decided")
        || line.starts_with("black: not decided")
}

/// Compares whole outputs, printing both on failure.
fn assert_output(got: &str, want: &str) {
    assert!(got == want, "\nexpected:\n{want}\ngot:\n{got}\n");
}

const STARTPOS_TEXT: &str = "white to move, 20 legal moves
Na3
Nc3
Nf3
Nh3
a3
a4
b3
b4
c3
c4
d3
d4
e3
e4
f3
f4
g3
g4
h3
h4
";

#[test]
fn startpos_text() {
    assert_output(&moves(&["startpos"]), STARTPOS_TEXT);
    let fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    assert_output(&moves(&[fen]), STARTPOS_TEXT);
    let words: Vec<&str> = fen.split(' ').collect();
    assert_output(&moves(&words), STARTPOS_TEXT);
}

#[test]
fn startpos_json() {
    // With no search budget, neither side's answer is decided: `null`, never a guess.
    let got = moves(&["startpos", "--format", "json", "--limit", "0"]);
    let mut want = String::from(
        r#"{"fen":"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1","turn":"white","check":false,"status":"ongoing","can_mate":{"white":null,"black":null},"helpmate":{"white":null,"black":null},"proof":{"white":null,"black":null},"moves":["#,
    );
    let pairs = [
        ("Na3", "b1a3"),
        ("Nc3", "b1c3"),
        ("Nf3", "g1f3"),
        ("Nh3", "g1h3"),
    ];
    let mut items: Vec<String> = pairs
        .iter()
        .map(|(san, uci)| format!(r#"{{"san":"{san}","uci":"{uci}"}}"#))
        .collect();
    for file in 'a'..='h' {
        for (to, from) in [('3', '2'), ('4', '2')] {
            items.push(format!(
                r#"{{"san":"{file}{to}","uci":"{file}{from}{file}{to}"}}"#
            ));
        }
    }
    want.push_str(&items.join(","));
    want.push_str("]}\n");
    assert_output(&got, &want);
}

#[test]
fn checkmate() {
    let fen = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3";
    assert_output(&moves(&[fen]), "white to move: checkmate, black wins\n");
    assert_output(
        &moves(&[fen, "--format", "json"]),
        &format!(
            r#"{{"fen":"{fen}","turn":"white","check":true,"status":"checkmate","can_mate":{{"white":false,"black":true}},"helpmate":{{"white":null,"black":[]}},"proof":{{"white":"over","black":"over"}},"moves":[]}}
"#
        ),
    );
}

#[test]
fn stalemate_and_insufficient() {
    let fen = "k7/8/1K6/4B3/8/8/8/8 b - - 0 1";
    assert_output(
        &moves(&[fen]),
        "black to move: stalemate; insufficient material\n",
    );
    assert_output(
        &moves(&[fen, "--format", "json"]),
        &format!(
            r#"{{"fen":"{fen}","turn":"black","check":false,"status":"stalemate","can_mate":{{"white":false,"black":false}},"helpmate":{{"white":null,"black":null}},"proof":{{"white":"over","black":"over"}},"moves":[]}}
"#
        ),
    );
    let fen = "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1";
    assert_output(&moves(&[fen]), "black to move: stalemate\n");
}

#[test]
fn insufficient_with_moves() {
    let fen = "8/8/8/8/8/8/8/k6K w - - 0 1";
    assert_output(
        &moves(&[fen]),
        "white to move, 3 legal moves; insufficient material\nKg1\nKg2\nKh2\n",
    );
    assert_output(
        &moves(&[fen, "--format", "json"]),
        &format!(
            r#"{{"fen":"{fen}","turn":"white","check":false,"status":"insufficient_material","can_mate":{{"white":false,"black":false}},"helpmate":{{"white":null,"black":null}},"proof":{{"white":"material","black":"material"}},"moves":[{{"san":"Kg1","uci":"h1g1"}},{{"san":"Kg2","uci":"h1g2"}},{{"san":"Kh2","uci":"h1h2"}}]}}
"#
        ),
    );
}

#[test]
fn check_and_suffixes() {
    let fen = "4k3/8/8/8/8/8/3q4/4K3 w - - 0 1";
    assert_output(
        &moves(&[fen]),
        "white to move, check, 2 legal moves\nKf1\nKxd2\n",
    );
    let fen = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1";
    let out = moves(&[fen]);
    assert!(out.lines().any(|l| l == "Ra8#"), "{out}");
}

#[test]
fn chess960_castling() {
    // Shredder-FEN castling letters. O-O-O (king e1 to c1, the b1 rook to d1) is written
    // king-to-rook in UCI; O-O is illegal because the g8 rook attacks g1.
    let fen = "1r2k1r1/8/8/8/8/8/8/1R2K1R1 w GBgb - 0 1";
    let json = moves(&[fen, "--format", "json"]);
    assert!(json.contains(r#"{"san":"O-O-O","uci":"e1b1"}"#), "{json}");
    assert!(!json.contains(r#""san":"O-O""#), "{json}");
    let text = moves(&[fen]);
    assert!(
        text.starts_with("white to move, 25 legal moves\n"),
        "{text}"
    );
    let fen = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9";
    let text = moves(&[fen]);
    assert!(
        text.starts_with("white to move, 21 legal moves\n"),
        "{text}"
    );
}

#[test]
fn board_diagram() {
    let fen = "8/8/8/8/8/8/8/k6K w - - 0 1";
    let want_ascii = "\
8 . . . . . . . .
7 . . . . . . . .
6 . . . . . . . .
5 . . . . . . . .
4 . . . . . . . .
3 . . . . . . . .
2 . . . . . . . .
1 k . . . . . . K
  a b c d e f g h

white to move, 3 legal moves; insufficient material
Kg1
Kg2
Kh2
";
    assert_output(&moves(&[fen, "--board", "--ascii"]), want_ascii);
    let unicode = moves(&["--board", "startpos"]);
    assert!(unicode.starts_with("8 ♜ ♞ ♝ ♛ ♚ ♝ ♞ ♜\n7 ♟ ♟"), "{unicode}");
    assert!(unicode.contains("1 ♖ ♘ ♗ ♕ ♔ ♗ ♘ ♖\n  a b c d e f g h\n\n"));
}

#[test]
fn bad_fen() {
    for args in [
        &["moves", "8/8/8/8/8/8/8/k6K w - - 0 x"][..],
        &["moves", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR", "x"],
        &["moves", "hello"],
    ] {
        let out = arbiter(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty());
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.starts_with("arbiter: error: invalid fen: "), "{err}");
    }
    let out = arbiter(&["moves"]);
    assert_eq!(out.status.code(), Some(2));
    let out = arbiter(&["moves", "startpos", "--format", "yaml"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn help_has_an_example() {
    let out = arbiter(&["moves", "--help"]);
    let help = String::from_utf8_lossy(&out.stdout);
    assert!(help.contains("arbiter moves startpos"), "{help}");
    assert!(help.contains("--format <FORMAT>"), "{help}");
}

/// The shared test data directory, or `None` (with a note) when it is absent and
/// `ARBITER_TESTDATA` is unset.
fn testdata() -> Option<PathBuf> {
    crate::util::shared("")
}

#[test]
fn reference_sample_through_the_binary() {
    let Some(dir) = testdata() else { return };
    let path = dir.join("fen/_reference/sunfish__terminal_bench.epd.tsv");
    let text = std::fs::read_to_string(&path).expect("read reference tsv");
    let rows: Vec<Vec<&str>> = text
        .lines()
        .skip(1)
        .map(|l| l.split('\t').collect::<Vec<_>>())
        .filter(|cols| cols.len() >= 8 && cols[7] == "1")
        .collect();
    assert!(rows.len() >= 6);
    let step = rows.len() / 6;
    for cols in rows.iter().step_by(step.max(1)).take(6) {
        let json = moves(&[cols[1], "--format", "json"]);
        let value: serde_json::Value = serde_json::from_str(&json).expect("json");
        let count = value["moves"].as_array().map_or(0, Vec::len);
        assert_eq!(count.to_string(), cols[2], "{}", cols[1]);
        assert_eq!(value["check"], cols[3] == "1", "{}", cols[1]);
        let status = if cols[4] == "1" {
            "checkmate"
        } else if cols[5] == "1" {
            "stalemate"
        } else if cols[6] == "1" {
            "insufficient_material"
        } else {
            "ongoing"
        };
        assert_eq!(value["status"], status, "{}", cols[1]);
    }
}

/// Runs `arbiter moves ARGS` and returns (exit code, stdout, stderr).
fn moves_status(args: &[&str]) -> (Option<i32>, String, String) {
    let mut all = vec!["moves"];
    all.extend_from_slice(args);
    let out = arbiter(&all);
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn json_status(fen: &str) -> String {
    let json: serde_json::Value =
        serde_json::from_str(&moves(&[fen, "--format", "json"])).expect("json");
    json["status"].as_str().expect("status").to_owned()
}

// See: issue 12, `moves` status at the 75-move rule.
#[test]
fn seventyfive_moves_status() {
    assert_eq!(
        json_status("4k3/8/8/8/8/8/8/R3K3 w - - 150 100"),
        "seventyfive_moves"
    );
    assert_eq!(json_status("4k3/8/8/8/8/8/8/R3K3 w - - 149 100"), "ongoing");
    // Checkmate, stalemate and insufficient material come first.
    assert_eq!(
        json_status("R5k1/5ppp/8/8/8/8/8/6K1 b - - 150 100"),
        "checkmate"
    );
    assert_eq!(
        json_status("7k/5Q2/6K1/8/8/8/8/8 b - - 200 100"),
        "stalemate"
    );
    assert_eq!(
        json_status("4k3/8/8/8/8/8/8/4K3 w - - 150 100"),
        "insufficient_material"
    );
    let text = moves(&["4k3/8/8/8/8/8/8/R3K3 w - - 150 100"]);
    assert!(
        text.starts_with("white to move, 15 legal moves; seventy-five-move rule\n"),
        "{text}"
    );
}

#[test]
fn chess960_flag() {
    let xfen = "nrbqkbrn/pppppppp/8/8/8/8/PPPPPPPP/NRBQKBRN w KQkq - 0 1";
    let (code, out, err) = moves_status(&[xfen]);
    assert_eq!(code, Some(2), "{out}");
    assert!(
        err.contains(
            "castling: 'K' needs a white rook on h1 in standard chess, \
             but the rook on that side stands on g1"
        ),
        "{err}"
    );
    let text = moves(&["--chess960", xfen]);
    assert!(
        text.starts_with("white to move, 18 legal moves\n"),
        "{text}"
    );
    // Castling is king-to-rook in UCI with --chess960, king-to-destination without.
    let fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
    let both = moves(&[fen, "--notation", "both"]);
    assert!(both.lines().any(|l| l == "O-O e1g1"), "{both}");
    let both = moves(&["--chess960", fen, "--notation", "both"]);
    assert!(both.lines().any(|l| l == "O-O e1h1"), "{both}");
    assert!(both.lines().any(|l| l == "O-O-O e1a1"), "{both}");
    let json = moves(&["--chess960", fen, "--format", "json"]);
    assert!(json.contains(r#"{"san":"O-O","uci":"e1h1"}"#), "{json}");
    let start = moves(&["--chess960", "startpos", "--notation", "uci"]);
    assert!(start.lines().any(|l| l == "g1f3"), "{start}");
}

#[test]
fn notation() {
    let uci = moves(&["startpos", "--notation", "uci"]);
    assert!(
        uci.starts_with("white to move, 20 legal moves\nb1a3\nb1c3\ng1f3\n"),
        "{uci}"
    );
    let both = moves(&["startpos", "--notation", "both"]);
    assert!(
        both.starts_with("white to move, 20 legal moves\nNa3 b1a3\n"),
        "{both}"
    );
    assert!(both.ends_with("h4 h2h4\n"), "{both}");
    let (code, _, err) = moves_status(&["startpos", "--notation", "lan"]);
    assert_eq!(code, Some(2), "{err}");
}

/// Replays a UCI line from `fen` with arbiter's own rules and says whether it ends in mate.
fn replays_to_mate(fen: &str, line: &serde_json::Value) -> bool {
    let mut pos = if fen == "startpos" {
        arbiter::rules::Position::startpos()
    } else {
        arbiter::rules::Position::from_fen(fen).expect("a FEN")
    };
    for uci in line.as_array().expect("a line") {
        let uci = arbiter::rules::Uci::from_ascii(uci.as_str().unwrap_or("").as_bytes());
        let Some(mv) = uci.ok().and_then(|u| u.to_move(&pos).ok()) else {
            return false;
        };
        pos.play_unchecked(mv);
    }
    pos.is_checkmate()
}

// See: issue 14, `moves` says whether each side can still mate, with a helpmate as proof.
#[test]
fn can_mate_with_a_helpmate_as_proof() {
    let json: serde_json::Value =
        serde_json::from_str(&moves(&["startpos", "--format", "json"])).expect("json");
    let keys: Vec<&str> = json
        .as_object()
        .expect("object")
        .keys()
        .map(String::as_str)
        .collect();
    for key in ["can_mate", "helpmate", "proof"] {
        assert!(keys.contains(&key), "{keys:?}");
    }
    for side in ["white", "black"] {
        assert_eq!(json["can_mate"][side], true, "{side}");
        assert!(
            replays_to_mate("startpos", &json["helpmate"][side]),
            "{side}"
        );
    }
    // A locked pawn wall: neither side can ever mate, the position is dead.
    let dead = "8/8/4k3/p1p1p1p1/P1P1P1P1/8/3K4/8 w - - 0 1";
    let json: serde_json::Value =
        serde_json::from_str(&moves(&[dead, "--format", "json"])).expect("json");
    assert_eq!(json["status"], "dead_position");
    assert_eq!(json["can_mate"]["white"], false);
    assert_eq!(json["helpmate"]["white"], serde_json::Value::Null);
    assert_eq!(json["proof"]["white"], "blocked");
    // The text says it per side, with the proof.
    let (code, text, _) = moves_status(&[dead]);
    assert_eq!(code, Some(0));
    assert!(
        text.lines()
            .next()
            .unwrap_or("")
            .ends_with("; dead position: neither side can mate")
    );
    assert!(
        text.contains(
            "\nwhite cannot mate (proved: a blocked position)\n\
             black cannot mate (proved: a blocked position)\n"
        ),
        "{text}"
    );
    // A search limit too small to decide gives null, never a wrong answer.
    let (_, text, _) = moves_status(&["startpos", "--format", "json", "--limit", "1"]);
    let json: serde_json::Value = serde_json::from_str(&text).expect("json");
    for side in ["white", "black"] {
        let answer = &json["can_mate"][side];
        assert!(answer.is_null() || *answer == true, "{side}: {answer}");
    }
}

// See: issue 14, the batch form of `moves`.
#[test]
fn a_file_of_positions_gives_one_object_a_line() {
    let input = "startpos\n\n# a comment\nnot a fen\n8/8/8/8/8/8/8/K6k w - - bm Kb2; id \"x\";\n";
    let out = crate::util::arbiter_stdin(&["moves", "--file", "-"], input.as_bytes());
    assert_eq!(
        out.status.code(),
        Some(1),
        "a bad line makes the exit status 1"
    );
    let lines: Vec<serde_json::Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect();
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[0]["line"], 1);
    assert_eq!(lines[0]["status"], "ongoing");
    assert_eq!(lines[1]["line"], 4);
    assert_eq!(lines[1]["input"], "not a fen");
    assert!(lines[1]["error"].as_str().unwrap_or("").contains("fen"));
    assert_eq!(lines[2]["line"], 5);
    assert_eq!(lines[2]["status"], "insufficient_material");
    assert_eq!(lines[2]["can_mate"]["white"], false);
}

// See: issue 28, point 4 (`moves` reads like a tool, not a proof dump).
#[test]
fn text_gives_status_moves_then_a_line_per_side_and_the_proof_on_demand() {
    let (code, text, _) = moves_status(&["startpos"]);
    assert_eq!(code, Some(0));
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 1 + 20 + 2, "{text}");
    assert_eq!(lines[0], "white to move, 20 legal moves");
    assert_eq!(lines[1], "Na3");
    assert_eq!(&lines[21..], ["white can mate", "black can mate"]);
    // --proof adds the helpmate, which replays to a mate.
    let (_, text, _) = moves_status(&["startpos", "--proof"]);
    let white = text
        .lines()
        .find_map(|l| l.strip_prefix("white can mate: "))
        .expect("a helpmate line");
    let line: Vec<serde_json::Value> = white
        .trim_end_matches(" (a helpmate)")
        .split(' ')
        .map(|mv| serde_json::Value::from(mv.to_owned()))
        .collect();
    assert!(replays_to_mate("startpos", &serde_json::Value::from(line)));
    // --limit 0 is no search, said as such.
    let (_, text, _) = moves_status(&["startpos", "--limit", "0"]);
    assert!(
        text.ends_with(
            "white: not decided without a search (--limit 0)\n\
             black: not decided without a search (--limit 0)\n"
        ),
        "{text}"
    );
}

// See: issue 28, point 4 (`--format` means what it means in export), and issue 40, point 1
// (`--file` decides every position by default, as export does).
#[test]
fn a_file_is_written_in_the_format_asked_for() {
    let input = "startpos\nnot a fen\n8/8/4k3/p1p1p1p1/P1P1P1P1/8/3K4/8 w - - 0 1\n";
    let run = |args: &[&str]| {
        let mut all = vec!["moves", "--file", "-"];
        all.extend_from_slice(args);
        let out = crate::util::arbiter_stdin(&all, input.as_bytes());
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let jsonl = run(&[]);
    let lines: Vec<serde_json::Value> = jsonl
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect();
    assert_eq!(lines.len(), 3);
    // As export judges, every position decided: the start by a helpmate, the wall proved dead.
    assert_eq!(lines[0]["can_mate"]["white"], true);
    assert_eq!(lines[2]["status"], "dead_position");
    let array: serde_json::Value = serde_json::from_str(&run(&["--format", "json"])).unwrap();
    assert_eq!(array, serde_json::Value::from(lines.clone()));
    assert_eq!(run(&["--format", "jsonl"]), jsonl);
    // --limit 0: the static proofs only; the start is not decided.
    let unsearched = run(&["--limit", "0"]);
    let first: serde_json::Value =
        serde_json::from_str(unsearched.lines().next().unwrap()).unwrap();
    assert_eq!(first["can_mate"]["white"], serde_json::Value::Null);
    assert_eq!(first["proof"]["white"], serde_json::Value::Null);
    // Text: each position under its line number, a blank line between.
    let text = run(&["--format", "text"]);
    let blocks: Vec<&str> = text.split("\n\n").collect();
    assert_eq!(blocks.len(), 3, "{text}");
    assert!(blocks[0].starts_with(
        "line 1: rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\nwhite to move, 20 legal moves\nNa3\n"
    ));
    assert!(
        blocks[1].starts_with("line 2: not a fen\nerror: invalid fen"),
        "{text}"
    );
    assert!(blocks[2].ends_with(
        "white cannot mate (proved: a blocked position)\n\
         black cannot mate (proved: a blocked position)\n"
    ));
    let empty = crate::util::arbiter_stdin(&["moves", "--file", "-", "--format", "json"], b"");
    assert_eq!(String::from_utf8_lossy(&empty.stdout), "[]\n");
}

/// The JSON lines of `out`'s stdout.
fn records(out: &std::process::Output) -> Vec<serde_json::Value> {
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect()
}

// See: issue 25, point 9 (an invalid UTF-8 line stopped the run with exit 2).
#[test]
fn a_file_line_that_is_not_utf8_is_a_record_and_the_run_goes_on() {
    let input = b"startpos\n\xff\xfe bad\n8/8/8/8/8/8/8/K6k w - - bm Kb2; c0 \"M\xfcller\";\n\
                  8/8/8/8/8/8/8/K5qk w - - 0 1\n";
    let out = crate::util::arbiter_stdin(&["moves", "--file", "-", "--limit", "0"], input);
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let lines = records(&out);
    let numbers: Vec<u64> = lines.iter().filter_map(|l| l["line"].as_u64()).collect();
    assert_eq!(numbers, [1, 2, 3, 4], "every line is read");
    assert_eq!(
        lines[1],
        serde_json::json!({
            "line": 2,
            "input": "\u{fffd}\u{fffd} bad",
            "error": "invalid fen: byte 1 of the line (0xff) is not UTF-8; a FEN is ASCII",
        })
    );
    // Latin-1 in an EPD operation, which is not read, does not matter.
    assert_eq!(lines[2]["fen"], "8/8/8/8/8/8/8/K6k w - - 0 1");
    assert_eq!(lines[3]["check"], true);
}

// See: issue 25, point 9 (`moves --file F | head -1` printed `Broken pipe` and exited 2).
#[test]
fn a_file_of_positions_into_a_closed_pipe_ends_quietly() {
    use std::io::{BufRead, BufReader};
    use std::process::Stdio;

    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("many.fen");
    std::fs::write(&path, "startpos\n".repeat(5_000)).expect("write");
    let path = path.to_str().expect("UTF-8 path");
    let mut child = crate::util::command()
        .args(["moves", "--file", path, "--limit", "0"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run arbiter");
    // `| head -1`: one line read, then the pipe closed.
    let mut first = String::new();
    BufReader::new(child.stdout.take().expect("stdout"))
        .read_line(&mut first)
        .expect("read a line");
    assert!(first.starts_with("{\"line\":1,"), "{first}");
    let out = child.wait_with_output().expect("wait for arbiter");
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

// See: issue 30, points 10 and 11.
#[test]
fn a_file_skips_a_byte_order_mark_and_reads_the_clocks_of_an_epd() {
    let input = "\u{feff}4k3/8/8/8/8/8/8/4K2R w K - hmvc 150; fmvn 90; bm O-O; id \"a; b\"; \
                 c0 \"x\";\n4k3/8/8/8/8/8/8/4K2R w K - fmvn 7; ce 35;\n\u{feff}startpos\n";
    let out =
        crate::util::arbiter_stdin(&["moves", "--file", "-", "--limit", "0"], input.as_bytes());
    let lines = records(&out);
    assert_eq!(lines.len(), 3, "{lines:?}");
    assert_eq!(lines[0]["line"], 1);
    assert_eq!(lines[0]["fen"], "4k3/8/8/8/8/8/8/4K2R w K - 150 90");
    assert_eq!(lines[0]["status"], "seventyfive_moves");
    assert_eq!(lines[1]["fen"], "4k3/8/8/8/8/8/8/4K2R w K - 0 7");
    assert_eq!(lines[1]["status"], "ongoing");
    // A byte-order mark opens a file only: on a later line it is no FEN.
    assert!(lines[2]["error"].is_string(), "{}", lines[2]);
    assert_eq!(out.status.code(), Some(1));
}

// See: issue 40, point 2: every "cannot" says which proof gave it, in text and JSON, and every
// "can" carries its helpmate.
#[test]
fn every_answer_names_its_proof() {
    let json = |fen: &str| -> serde_json::Value {
        serde_json::from_str(&moves(&[fen, "--format", "json"])).expect("json")
    };
    let cases = [
        // A rook against a bare king: Black has too little material; White mates.
        (
            "4k3/8/8/8/8/8/8/R3K3 w - - 0 1",
            ["dive", "material"],
            "black cannot mate (proved: too little material)",
        ),
        // Black's only move takes the rook: one move ahead, White is left with a bare king.
        (
            "k7/1R6/8/8/8/8/8/7K b - - 0 1",
            ["look_ahead", "material"],
            "white cannot mate (proved: every legal move leaves too little material or ends the \
             game)",
        ),
        // Dead beyond the walls: only a walk of every reachable position proves it.
        (
            "Bb1k1b2/bKp1p1p1/1pP1P1P1/1P6/p5P1/P7/8/8 w - - 0 1",
            ["search", "search"],
            "white cannot mate (proved: no position it can reach is a mate)",
        ),
    ];
    for (fen, proofs, said) in cases {
        let got = json(fen);
        for (side, proof) in ["white", "black"].into_iter().zip(proofs) {
            assert_eq!(got["proof"][side], proof, "{fen} {side}");
            match got["can_mate"][side].as_bool() {
                Some(true) => assert!(replays_to_mate(fen, &got["helpmate"][side]), "{fen}"),
                Some(false) => assert_eq!(got["helpmate"][side], serde_json::Value::Null),
                None => panic!("{fen} {side} undecided"),
            }
        }
        let (code, text, _) = moves_status(&[fen]);
        assert_eq!(code, Some(0));
        assert!(text.lines().any(|line| line == said), "{fen}: {text}");
    }
}
