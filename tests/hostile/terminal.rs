//! Control characters in the input never reach a terminal raw: validate's text diagnostics escape
//! them as its JSON Lines do (`\u001b`), so that a move token `\x1bc` cannot reset the terminal
//! and a tag cannot retitle its window.
//!
//! See: issue 25, point 10.

use crate::util::{Input, good_games, json_lines, run, scratch, write};

#[test]
fn text_diagnostics_escape_control_characters() {
    let dir = scratch();
    let pgn = format!(
        "{}[Event \"esc\"]\n[FEN \"\x1b]2;pwned\x07\"]\n\n1. e4 *\n\n\
         [Event \"token\"]\n\n1. e4 \x1bc e5 2. Nf3\u{9b}2J *\n\n{}",
        good_games(0, 1),
        good_games(1, 1)
    );
    let path = write(dir.path(), "esc\x1b[31m.pgn", pgn.as_bytes());
    let path = path.to_str().unwrap();
    let text = run(&["validate", path], Input::Null);
    text.assert_code(1, "control characters");
    let out = text.stdout();
    let raw: Vec<char> = out
        .chars()
        .filter(|&c| c.is_control() && c != '\n')
        .collect();
    assert!(raw.is_empty(), "raw control characters {raw:?} in:\n{out}");
    let diagnostics: Vec<&str> = out.lines().filter(|l| l.contains(": error[")).collect();
    assert_eq!(diagnostics.len(), 3, "{out}");
    // The bad FEN is reported at its tag, line 8 (the game starts on line 7).
    let escaped_path = path.replace('\x1b', "\\u001b");
    assert!(
        diagnostics[0].starts_with(&format!(
            "{escaped_path}:8:1: game 2: error[bad_fen]: bad FEN tag"
        )),
        "{}",
        diagnostics[0]
    );
    assert!(
        diagnostics[0].contains("\"\\u001b]2;pwned\\u0007\""),
        "{}",
        diagnostics[0]
    );
    assert!(
        diagnostics[1].ends_with(
            "error[unexpected_text]: unexpected text `\\u001bc` at 14:7; skipped to the next token"
        ),
        "{}",
        diagnostics[1]
    );
    assert!(
        diagnostics[2]
            .ends_with("error[unexpected_text]: unexpected text `\\u009b2J` at 14:19; skipped to the next token"),
        "{}",
        diagnostics[2]
    );

    // The same messages in JSON Lines, escaped by JSON and read back exactly.
    let jsonl = run(&["validate", path, "--format", "jsonl"], Input::Null);
    let messages: Vec<String> = json_lines(&jsonl.stdout)
        .iter()
        .filter(|d| d["severity"] == "error")
        .map(|d| d["message"].as_str().unwrap_or_default().to_owned())
        .collect();
    assert_eq!(messages.len(), 3);
    assert_eq!(
        messages[1],
        "unexpected text `\x1bc` at 14:7; skipped to the next token"
    );
}
