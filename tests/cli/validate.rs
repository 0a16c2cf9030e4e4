//! `arbiter validate`: every invalid game is reported at its ply, every warning is given where it
//! belongs, `--strict` turns warnings into errors, the summary adds up, and the diagnostics are
//! the same whatever the number of jobs.
//!
//! The fixtures carry their expectation in an `Expect` tag: `invalid ply=P` for a game broken at
//! ply P, and `CODE@PLY ...` (or a bare `CODE` for a whole-game problem) for the warnings.

use std::collections::BTreeMap;

use serde_json::Value;

use crate::util::{arbiter, arbiter_stdin, fixture, json_lines, shared, stderr, stdout};

/// The `Expect` tag of each game, by game number.
fn expectations(path: &str) -> BTreeMap<u64, String> {
    let output = arbiter(&["export", path, "--format", "jsonl", "--tags", "Expect"]);
    json_lines(&stdout(&output))
        .into_iter()
        .map(|r| {
            (
                r["index"].as_u64().unwrap(),
                r["Expect"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

fn validate_jsonl(args: &[&str]) -> (Vec<Value>, Value, Option<i32>) {
    let output = arbiter(args);
    let mut lines = json_lines(&stdout(&output));
    let summary = lines.pop().expect("a summary");
    assert_eq!(summary["type"], "summary");
    assert!(lines.iter().all(|l| l["type"] == "diagnostic"));
    (lines, summary, output.status.code())
}

#[test]
fn each_invalid_game_is_reported_at_its_ply() {
    let path = fixture("invalid/invalid.pgn");
    let expected = expectations(&path);
    let (diagnostics, summary, code) = validate_jsonl(&["validate", &path, "--format", "jsonl"]);
    assert_eq!(code, Some(1));
    assert_eq!(summary["games"], 16);
    assert_eq!(summary["invalid"], 16);
    assert_eq!(summary["valid"], 0);
    for (game, expect) in &expected {
        let ply: u64 = expect.trim_start_matches("invalid ply=").parse().unwrap();
        let errors: Vec<&Value> = diagnostics
            .iter()
            .filter(|d| d["game"] == *game && d["severity"] == "error")
            .collect();
        assert_eq!(errors.len(), 1, "game {game}: {errors:?}");
        let error = errors[0];
        assert_eq!(error["file"], path.as_str());
        if ply == 0 {
            assert_eq!(error["ply"], Value::Null, "game {game}");
        } else {
            assert_eq!(error["ply"], ply, "game {game}");
            assert!(error["san"].is_string());
        }
        assert!(error["line"].as_u64().unwrap() > 0);
        assert!(error["column"].as_u64().unwrap() > 0);
    }
}

// See: issue 43, point 2: a bad FEN or Variant tag is reported at that tag, as a broken tag
// pair is, not at the game's first line.
#[test]
fn tag_errors_point_at_their_tag() {
    let path = fixture("invalid/invalid.pgn");
    let text = std::fs::read_to_string(&path).unwrap();
    let (diagnostics, _, _) = validate_jsonl(&["validate", &path, "--format", "jsonl"]);
    let mut seen = 0;
    for diagnostic in &diagnostics {
        let tag = match diagnostic["code"].as_str() {
            Some("bad_fen") => "[FEN ",
            Some("unsupported_variant") => "[Variant ",
            _ => continue,
        };
        let line = diagnostic["line"].as_u64().unwrap() as usize;
        let column = diagnostic["column"].as_u64().unwrap() as usize;
        let at = &text.lines().nth(line - 1).unwrap()[column - 1..];
        assert!(at.starts_with(tag), "{diagnostic}: points at {at:?}");
        seen += 1;
    }
    assert_eq!(seen, 3, "two bad FEN tags and one unsupported variant");
}

#[test]
fn error_messages_say_what_is_wrong() {
    let output = arbiter(&["validate", &fixture("invalid/invalid.pgn")]);
    let text = stdout(&output);
    let path = fixture("invalid/invalid.pgn");
    for expected in [
        format!(
            "{path}:10:24: game 1 (White - Black, round 1), ply 5 \"Bb6\": error[illegal_move]: Bb6: no bishop can reach b6"
        ),
        format!(
            "{path}:21:23: game 2 (White - Black, round 2), ply 5 \"Nd2\": error[illegal_move]: Nd2 is ambiguous: the knights on b1 \
             and f3 can both reach d2"
        ),
        format!(
            "{path}:32:34: game 3 (White - Black, round 3), ply 7 \"Nd5\": error[illegal_move]: Nd5 is illegal: the knight on c3 is \
             pinned to the king on e1 by the bishop on b4"
        ),
        "a6 does not answer the check from the queen on h5".to_owned(),
        "O-O is illegal: f1 is attacked by the bishop on c4".to_owned(),
        "a3: the game is already over: white is checkmated".to_owned(),
        "unsupported variant Atomic".to_owned(),
        "bad FEN tag".to_owned(),
    ] {
        assert!(text.contains(&expected), "missing {expected:?} in\n{text}");
    }
}

#[test]
fn warnings_are_given_where_they_belong() {
    let path = fixture("warnings/warnings.pgn");
    let expected = expectations(&path);
    let (diagnostics, summary, code) = validate_jsonl(&["validate", &path, "--format", "jsonl"]);
    // The illegal move inside a variation and the broken tag are the errors.
    assert_eq!(code, Some(1));
    assert_eq!(summary["invalid"], 2);
    for (game, expect) in &expected {
        let mut want: Vec<String> = expect.split_whitespace().map(str::to_owned).collect();
        let mut got: Vec<String> = diagnostics
            .iter()
            .filter(|d| d["game"] == *game)
            .map(|d| match d["ply"].as_u64() {
                Some(ply) if d["code"] != "result_mismatch" && d["code"] != "not_utf8" => {
                    format!("{}@{ply}", d["code"].as_str().unwrap())
                }
                _ => d["code"].as_str().unwrap().to_owned(),
            })
            .collect();
        want.sort();
        got.sort();
        assert_eq!(got, want, "game {game}");
    }
    // A game is valid in export exactly when validate reports no error for it; neither error
    // touches the main line, so both games keep their outcome.
    let export = json_lines(&stdout(&arbiter(&["export", &path, "--format", "jsonl"])));
    for record in &export {
        let errors = diagnostics
            .iter()
            .filter(|d| d["game"] == record["game"] && d["severity"] == "error")
            .count();
        assert_eq!(record["valid"], errors == 0, "game {}", record["game"]);
        assert_ne!(record["outcome"], "invalid", "game {}", record["game"]);
    }
    assert_eq!(export.iter().filter(|r| r["valid"] == false).count(), 2);
}

// See: issue 43, point 5.
#[test]
fn a_game_is_named_by_its_players_and_round() {
    let pgn = b"[White \"Carlsen, Magnus\"]\n[Black \"Caruana, Fabiano\"]\n[Round \"3\"]\n\n\
                1. e4 e5 2. Ke3 *\n\n[Round \"?\"]\n\n1. Nf6 *\n";
    let text = stdout(&arbiter_stdin(&["validate"], pgn));
    let lines: Vec<&str> = text.lines().take(2).collect();
    assert_eq!(
        lines,
        [
            "<stdin>:5:13: game 1 (Carlsen, Magnus - Caruana, Fabiano, round 3), ply 3 \"Ke3\": \
             error[illegal_move]: Ke3: no king can reach e3",
            "<stdin>:9:4: game 2, ply 1 \"Nf6\": error[illegal_move]: Nf6: it is white's move, \
             and the knight on g8 is black's",
        ]
    );
    let jsonl = stdout(&arbiter_stdin(&["validate", "--format", "jsonl"], pgn));
    let names: Vec<(Value, Value, Value)> = (json_lines(&jsonl).into_iter())
        .filter(|d| d["type"] == "diagnostic")
        .map(|d| (d["white"].clone(), d["black"].clone(), d["round"].clone()))
        .collect();
    assert_eq!(
        names,
        [
            (
                Value::from("Carlsen, Magnus"),
                Value::from("Caruana, Fabiano"),
                Value::from("3")
            ),
            (Value::Null, Value::Null, Value::Null),
        ]
    );
}

// See: issue 43, point 6.
#[test]
fn words_after_the_result_and_a_missing_result_are_the_games_warnings() {
    let pgn = b"[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 Nc6 1-0 (time)\n\n[Result \"*\"]\n\n";
    let out = arbiter_stdin(&["validate"], pgn);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().take(2).collect();
    assert_eq!(
        lines,
        [
            "<stdin>:3:25: game 1: warning[text_after_result]: text after the result at 3:25 \
             is not read as moves: `(time)`",
            "<stdin>:5:13: game 2: warning[no_result]: no result: the game ends at 5:13 \
             without 1-0, 0-1, 1/2-1/2 or *",
        ]
    );
    let out = arbiter_stdin(&["validate", "--format", "jsonl"], pgn);
    let plies: Vec<Value> = (json_lines(&stdout(&out)).into_iter())
        .filter(|d| d["type"] == "diagnostic")
        .map(|d| d["ply"].clone())
        .collect();
    assert_eq!(plies, [Value::Null, Value::Null]);
    // Export keeps the game valid, with its outcome.
    let rows = json_lines(&stdout(&arbiter_stdin(
        &["export", "--format", "jsonl"],
        pgn,
    )));
    assert_eq!(
        (&rows[0]["valid"], &rows[0]["outcome"]),
        (&Value::Bool(true), &Value::from("resignation"))
    );
    // The words are kept as a comment on the last move: select writes them.
    let clean = stdout(&arbiter_stdin(&["select"], pgn));
    assert!(
        clean.contains("\n1. e4 e5 2. Nf3 Nc6 { (time) } 1-0\n"),
        "{clean}"
    );
}

// See: issue 43, point 11.
#[test]
fn games_read_as_windows_1252_get_one_warning_per_input_with_their_count() {
    let dir = tempfile::tempdir().unwrap();
    // 3,000 games, several batches and parts: games 1000, 2500 and 2999 are Latin-1.
    let mut many = Vec::new();
    for game in 1..=3000 {
        let white: &[u8] = if [1000, 2500, 2999].contains(&game) {
            b"M\xfcller"
        } else {
            b"Muller"
        };
        many.extend_from_slice(b"[White \"");
        many.extend_from_slice(white);
        many.extend_from_slice(b"\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 1-0\n\n");
    }
    std::fs::write(dir.path().join("a.pgn"), &many).unwrap();
    std::fs::write(
        dir.path().join("b.pgn"),
        b"[White \"J\xe9r\xf4me\"]\n\n1. d4 *\n",
    )
    .unwrap();
    let a = dir.path().join("a.pgn").to_string_lossy().into_owned();
    let b = dir.path().join("b.pgn").to_string_lossy().into_owned();
    let line_of_game = |n: u64| (n - 1) * 5 + 1;
    let mut outputs = Vec::new();
    for jobs in ["1", "2"] {
        let out = arbiter(&["validate", &a, &b, "-j", jobs]);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        let text = stdout(&out);
        let warnings: Vec<&str> = text.lines().filter(|l| l.contains("not_utf8]")).collect();
        assert_eq!(
            warnings,
            [
                format!(
                    "{a}:{}:1: game 1000: warning[not_utf8]: 3 games of this input are not \
                     valid UTF-8 and were read as Windows-1252; this is the first",
                    line_of_game(1000)
                ),
                format!(
                    "{b}:1:1: game 1: warning[not_utf8]: the game is not valid UTF-8; read as \
                     Windows-1252 (the only such game of this input)"
                ),
            ],
            "-j {jobs}"
        );
        // The summary still counts each game's warning.
        assert!(text.contains("warnings by code: not_utf8 4\n"), "{text}");
        // Every line but the time the run took.
        let lines: Vec<String> = (text.lines())
            .filter(|line| !line.ends_with(" games/s)"))
            .map(str::to_owned)
            .collect();
        outputs.push(lines);
    }
    assert_eq!(outputs[0], outputs[1], "-j 1 and -j 2 differ");
    let (diagnostics, summary, _) = validate_jsonl(&["validate", &a, "--format", "jsonl"]);
    let notes: Vec<(&Value, &Value, &Value)> = (diagnostics.iter())
        .map(|d| (&d["game"], &d["ply"], &d["line"]))
        .collect();
    assert_eq!(
        notes,
        [(
            &Value::from(1000),
            &Value::Null,
            &Value::from(line_of_game(1000))
        )]
    );
    assert_eq!(summary["warnings"], 3);
}

#[test]
fn strict_turns_warnings_into_errors() {
    let path = fixture("warnings/warnings.pgn");
    let (_, lenient, _) = validate_jsonl(&["validate", &path, "--format", "jsonl"]);
    let (diagnostics, strict, code) =
        validate_jsonl(&["validate", &path, "--format", "jsonl", "--strict"]);
    assert_eq!(code, Some(1));
    assert!(diagnostics.iter().all(|d| d["severity"] == "error"));
    assert_eq!(strict["warnings"], 0);
    assert_eq!(
        strict["valid"], 1,
        "only the sound variation game has no problem"
    );
    assert_eq!(
        diagnostics.len() as u64,
        lenient["warnings"].as_u64().unwrap() + 2
    );
}

#[test]
fn valid_archives_exit_zero_with_a_summary() {
    let output = arbiter(&["validate", &fixture("outcomes")]);
    assert_eq!(output.status.code(), Some(0), "{}", stdout(&output));
    let text = stdout(&output);
    // The only warnings are the Results the board (or the Termination tag) contradicts.
    let warnings = text.lines().filter(|l| l.contains(": warning[")).count();
    assert_eq!(text.lines().count(), warnings + 2, "{text}");
    let summary: Vec<&str> = text.lines().skip(warnings).collect();
    assert!(
        // 169 plies, as python-chess counts them.
        summary[0].starts_with(&format!(
            "53 games, 169 plies: 53 valid, 0 invalid; 0 errors, {warnings} warnings in "
        )),
        "{text}"
    );
    // The summary counts the problems per code.
    let by_code = summary[1]
        .strip_prefix("warnings by code: ")
        .unwrap_or_default();
    let counted: usize = by_code
        .split(", ")
        .filter_map(|item| item.rsplit_once(' ')?.1.parse::<usize>().ok())
        .sum();
    assert_eq!(counted, warnings, "{text}");
    assert!(by_code.contains("result_contradicts_board "), "{text}");
    assert!(stderr(&output).is_empty());
}

#[test]
fn validate_warns_exactly_where_export_finds_the_result_inconsistent() {
    let path = fixture("outcomes");
    let (diagnostics, _, _) = validate_jsonl(&["validate", &path, "--format", "jsonl"]);
    let export = json_lines(&stdout(&arbiter(&["export", &path, "--format", "jsonl"])));
    for record in &export {
        let warned = diagnostics
            .iter()
            .any(|d| d["game"] == record["game"] && d["code"] == "result_contradicts_board");
        assert_eq!(
            warned,
            record["result_consistent"] == false,
            "{}",
            record["event"]
        );
    }
    assert!(export.iter().any(|r| r["result_consistent"] == false));
    let (_, summary, _) = validate_jsonl(&["validate", &path, "--format", "jsonl"]);
    let contradictions = export
        .iter()
        .filter(|r| r["result_consistent"] == false)
        .count() as u64;
    assert_eq!(summary["codes"]["result_contradicts_board"], contradictions);
    let (strict, _, code) = validate_jsonl(&["validate", &path, "--format", "jsonl", "--strict"]);
    assert_eq!(code, Some(1), "an error under --strict");
    assert!(
        strict
            .iter()
            .any(|d| d["code"] == "result_contradicts_board")
    );
}

#[test]
fn summary_counts_add_up_over_the_corpora() {
    let Some(corpora) = shared("corpora") else {
        return;
    };
    let (_, summary, code) = validate_jsonl(&[
        "validate",
        corpora.to_str().unwrap(),
        "--format",
        "jsonl",
        "--quiet",
    ]);
    assert_eq!(code, Some(0), "{summary}");
    let games = summary["games"].as_u64().unwrap();
    assert_eq!(
        games,
        summary["valid"].as_u64().unwrap() + summary["invalid"].as_u64().unwrap()
    );
    // 13,163 + 927 + 2,322 + 1,716 games, by their `[Event ` tags.
    assert_eq!(games, 18_128);
}

#[test]
fn a_game_from_stdin_is_located_on_stdin() {
    let output = arbiter_stdin(&["validate"], b"[Event \"x\"]\n\n1. e4 e5 2. Ke3 *\n");
    assert_eq!(output.status.code(), Some(1));
    assert!(
        stdout(&output).starts_with("<stdin>:3:13: game 1, ply 3 \"Ke3\": error[illegal_move]: "),
        "{}",
        stdout(&output)
    );
}

#[test]
fn deeply_nested_variations_are_read_but_not_all_replayed() {
    let depth = 10_000;
    let game = format!(
        "[Event \"deep\"]\n\n1. e4 {}{} e5 *\n",
        "( 1. d4 ".repeat(depth),
        ")".repeat(depth)
    );
    let output = arbiter_stdin(&["validate", "--format", "jsonl"], game.as_bytes());
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let lines = json_lines(&stdout(&output));
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert_eq!(lines[0]["code"], "deep_variation");
    assert_eq!(lines[1]["plies"], 2);
}

#[test]
fn problems_per_game_are_capped_but_counted() {
    let moves = "Nb1c3 Nb8c6 Nc3b1 Nc6b8 ".repeat(3000);
    let game = format!("[Event \"many\"]\n\n{moves}*\n");
    let output = arbiter_stdin(&["validate", "--format", "jsonl"], game.as_bytes());
    let lines = json_lines(&stdout(&output));
    let summary = lines.last().unwrap();
    // 12,000 long algebraic moves, and the moves after the fivefold repetition.
    assert_eq!(summary["warnings"], 12_001);
    assert_eq!(lines.len(), 10_000 + 1 + 1);
    assert_eq!(lines[10_000]["code"], "problems_not_listed");
}

#[test]
fn jobs_do_not_change_validate_diagnostics() {
    // The edge-case files of other projects: many small inputs, full of diagnostics.
    let Some(edge) = shared("edge") else {
        return;
    };
    let edge = edge.to_str().unwrap();
    let one = arbiter(&["validate", edge, "--format", "jsonl", "--jobs", "1"]);
    let two = arbiter(&["validate", edge, "--format", "jsonl", "--jobs", "2"]);
    assert_eq!(one.status.code(), two.status.code());
    // Every line but the summary's, which holds the elapsed time.
    let diagnostics = |out: &str| -> Vec<String> {
        out.lines()
            .filter(|line| !line.contains("\"type\":\"summary\""))
            .map(str::to_owned)
            .collect()
    };
    let (one, two) = (diagnostics(&stdout(&one)), diagnostics(&stdout(&two)));
    assert!(one.len() > 100);
    assert!(one == two, "validate --jobs 2 output differs from --jobs 1");
}

#[test]
fn an_input_without_games_says_so() {
    let dir = tempfile::tempdir().expect("temp dir");
    let empty = dir.path().join("empty.pgn");
    std::fs::write(&empty, "\n\n").expect("write");
    let empty = empty.to_str().expect("UTF-8 path");
    let output = arbiter(&["validate", empty, &fixture("outcomes/outcomes.pgn")]);
    assert_eq!(
        stderr(&output).trim(),
        format!("arbiter: warning: {empty}: no games found")
    );
    assert!(stdout(&output).contains("53 games"));
}

#[test]
fn a_null_move_while_in_check_is_an_illegal_move_on_any_line() {
    // Black passes while in check: the king could be taken. On the main line the game is
    // invalid there; in a variation the variation stops there and the main line's outcome
    // stands (an error all the same).
    let main = "[Event \"x\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Qxf7+ -- 4. Qxe8 *\n";
    let variation = "[Event \"x\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Qxf7+ Kxf7 (3... -- 4. Qxe8) *\n";
    for (game, outcome) in [(main, "invalid"), (variation, "unterminated")] {
        let output = arbiter_stdin(&["validate", "--format", "jsonl"], game.as_bytes());
        let lines = json_lines(&stdout(&output));
        let messages: Vec<(&str, &str)> = lines
            .iter()
            .filter_map(|line| Some((line["code"].as_str()?, line["message"].as_str()?)))
            .collect();
        assert_eq!(
            messages,
            [(
                "illegal_move",
                "--: a null move while in check would leave the king in check"
            )],
            "{game}"
        );
        let summary = lines.last().expect("a summary");
        assert_eq!(summary["invalid"], 1, "{game}");
        let output = arbiter_stdin(&["export", "--format", "jsonl"], game.as_bytes());
        let record = &json_lines(&stdout(&output))[0];
        assert_eq!(record["outcome"], outcome, "{game}");
        let fen = record["final_fen"].as_str().expect("a final FEN");
        assert!(fen.contains('k') && fen.contains('K'), "{fen}");
    }
}

// See: issue 31 point 1.
#[test]
fn the_summary_counts_errors_and_warnings_apart_and_each_input() {
    let (invalid, outcomes) = (
        fixture("invalid/invalid.pgn"),
        fixture("outcomes/outcomes.pgn"),
    );
    let output = arbiter(&["validate", &invalid, &outcomes]);
    let text = stdout(&output);
    let errors = text.lines().filter(|l| l.contains(": error[")).count();
    let warnings = text.lines().filter(|l| l.contains(": warning[")).count();
    let summary: Vec<&str> = text.lines().skip(errors + warnings).collect();
    assert_eq!(summary.len(), 5, "{text}");
    assert_eq!(
        summary[0],
        format!("{invalid}: 16 games, 28 plies: 0 valid, 16 invalid; {errors} errors, 0 warnings")
    );
    assert_eq!(
        summary[1],
        format!(
            "{outcomes}: 53 games, 169 plies: 53 valid, 0 invalid; 0 errors, {warnings} warnings"
        )
    );
    assert!(
        summary[2].starts_with(&format!(
            "69 games, 197 plies: 53 valid, 16 invalid; {errors} errors, {warnings} warnings in "
        )),
        "{text}"
    );
    assert!(summary[3].starts_with("errors by code: "), "{text}");
    assert!(!summary[3].contains("result_contradicts_board"), "{text}");
    assert!(
        summary[4].starts_with("warnings by code: result_contradicts_board"),
        "{text}"
    );
    // JSON Lines: the same counts, each input's among them.
    let (_, summary, _) = validate_jsonl(&["validate", &invalid, &outcomes, "--format", "jsonl"]);
    assert_eq!(summary["errors"], errors);
    assert_eq!(summary["warnings"], warnings);
    assert_eq!(summary["inputs"][0]["file"], invalid.as_str());
    assert_eq!(summary["inputs"][0]["invalid"], 16);
    assert_eq!(summary["inputs"][1]["warnings"], warnings);
    assert_eq!(
        summary["codes_by_severity"]["warning"]["result_contradicts_board"],
        summary["codes"]["result_contradicts_board"]
    );
}

// See: issue 31 point 3.
#[test]
fn an_error_in_a_variation_says_so_and_where_it_branches() {
    let game = b"[Event \"x\"]\n\n1. e4 e5 (1... Nf3) (1... c5 2. Nf3 (2. Nc3 Ke5)) 2. Nf3 Ke6 *\n";
    let text = stdout(&arbiter_stdin(&["validate"], game));
    let lines: Vec<&str> = text.lines().collect();
    assert!(
        lines[0].starts_with(
            "<stdin>:3:16: game 1, ply 2 (variation from ply 1) \"Nf3\": error[illegal_move]: "
        ),
        "{text}"
    );
    assert!(
        lines[1].starts_with(
            "<stdin>:3:45: game 1, ply 4 (variation from ply 2, 2 deep) \"Ke5\": error[illegal_move]: "
        ),
        "{text}"
    );
    // The main line's own error has no variation.
    assert!(
        lines[2].starts_with("<stdin>:3:58: game 1, ply 4 \"Ke6\": error[illegal_move]: "),
        "{text}"
    );
    let (diagnostics, _, _) = {
        let output = arbiter_stdin(&["validate", "--format", "jsonl"], game);
        let mut lines = json_lines(&stdout(&output));
        let summary = lines.pop();
        (lines, summary, output.status.code())
    };
    let variations: Vec<&Value> = diagnostics.iter().map(|d| &d["variation"]).collect();
    assert_eq!(
        variations,
        [
            &serde_json::json!({"depth": 1, "from_ply": 1}),
            &serde_json::json!({"depth": 2, "from_ply": 2}),
            &Value::Null
        ]
    );
    // Export quotes the first error the same way, and the game is invalid (exit status 1)
    // although its main line ends where it breaks, at ply 4.
    let export = arbiter_stdin(&["export", "--format", "jsonl"], game);
    assert_eq!(export.status.code(), Some(1));
    let record = &json_lines(&stdout(&export))[0];
    assert_eq!(record["valid"], false);
    assert!(
        record["error"]
            .as_str()
            .unwrap_or_default()
            .starts_with("3:16: ply 2 (variation from ply 1) \"Nf3\": "),
        "{record}"
    );
}
