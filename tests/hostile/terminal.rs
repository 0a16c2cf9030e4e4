//! Control characters in the input never reach a terminal raw: validate's text diagnostics escape
//! them as its JSON Lines do (`\u001b`), so that a move token `\x1bc` cannot reset the terminal
//! and a tag cannot retitle its window.
//!
//! See: issue 25, point 10.

use crate::util::{Input, good_games, json_lines, run, run_command, scratch, write};

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

/// Every message on standard error that names a file escapes its control characters: an I/O
/// error, a `--fix-result` warning, "no games found", "wrote N games to FILE" and the "left
/// unchanged" line. See: issue 38, point 7.
#[test]
fn stderr_messages_escape_control_characters_in_file_names() {
    let dir = scratch();
    let name = "bell\x07esc\x1b[31m";
    let games = write(
        dir.path(),
        &format!("{name}.pgn"),
        good_games(0, 2).as_bytes(),
    );
    let games = games.to_str().unwrap();
    let wrong = write(
        dir.path(),
        &format!("{name}-fix.pgn"),
        b"[Result \"1-0\"]\n\n1. f3 e5 2. g4 Qh4# 1-0\n\n",
    );
    let empty = write(dir.path(), &format!("{name}-empty.pgn"), b"\n");
    let missing = dir.path().join(format!("{name}-missing.pgn"));
    let out = dir.path().join(format!("{name}.csv"));
    let out = out.to_str().unwrap();
    let select_out = dir.path().join(format!("{name}-out.pgn"));
    let mut wrote = crate::util::command();
    wrote.args(["export", games, "-o", out]);
    let runs = [
        run_command(wrote, Input::Null, None),
        run(
            &["export", games, missing.to_str().unwrap(), "-o", out],
            Input::Null,
        ),
        run(&["validate", empty.to_str().unwrap()], Input::Null),
        run(
            &[
                "select",
                wrong.to_str().unwrap(),
                "--fix-result",
                "-o",
                select_out.to_str().unwrap(),
            ],
            Input::Null,
        ),
    ];
    let mut said = String::new();
    for run in &runs {
        let raw: Vec<char> = run
            .stderr
            .chars()
            .filter(|&c| c.is_control() && c != '\n')
            .collect();
        assert!(raw.is_empty(), "raw {raw:?} in:\n{}", run.stderr);
        said.push_str(&run.stderr);
    }
    let escaped = "bell\\u0007esc\\u001b[31m";
    for what in [
        format!("wrote 2 games to {}", out.replace(name, escaped)),
        format!(
            "error: {}-missing.pgn: ",
            dir.path().join(escaped).display()
        ),
        format!("{escaped}.csv left unchanged"),
        format!("{escaped}-empty.pgn: no games found"),
        format!("{escaped}-fix.pgn"),
    ] {
        assert!(said.contains(&what), "{what:?} not in:\n{said}");
    }
}
