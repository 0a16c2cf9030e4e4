//! Text that is not PGN (a web page, an e-mail) is one input error, like an executable or a zip
//! archive; real PGN that begins oddly is still read; and within a game, unreadable text is listed
//! for its first three tokens and then summed up in one diagnostic.
//!
//! See: issue 25, point 13 (an ICC newsletter, an HTML e-mail, gave 1,643 "unexpected text"
//! diagnostics, one per word).

use crate::util::{Input, check, good_games, json_lines, run, scratch, write};

/// An HTML e-mail like the newsletters in the shared data: a MIME header, then markup and prose,
/// with a little chess in it (`1. c4 e5` in a sentence), about 20 KiB.
fn newsletter() -> String {
    let mut mail = String::from(
        "MIME-Version: 1.0\n\n<!DOCTYPE HTML PUBLIC \"-//W3C//DTD HTML 4.0//EN\">\n<HTML>\n\
         <HEAD><TITLE>Chess Newsletter</TITLE>\n<STYLE type=text/css>\n\
         .style1 {font-family: Verdana, Arial; font-size: 13px}\n</STYLE></HEAD>\n<BODY>\n",
    );
    for i in 0..150 {
        mail.push_str(&format!(
            "<TR><TD class=style14 colSpan=2 height=\"30\"><B>Book {i}</B> covers every line \
             from 1. c4 e5 onwards, with many games and clear words.</TD></TR>\n"
        ));
    }
    mail.push_str("</BODY>\n</HTML>\n");
    mail
}

#[test]
fn a_web_page_or_an_e_mail_is_one_error_and_the_other_inputs_are_read() {
    let dir = scratch();
    let mail = newsletter();
    assert!(mail.len() > 16 << 10);
    let page = mail
        .strip_prefix("MIME-Version: 1.0\n\n")
        .unwrap_or_default();
    let good = write(dir.path(), "good.pgn", good_games(0, 2).as_bytes());
    let good = good.to_str().unwrap();
    for (name, text, what) in [
        ("newsletter.pgn", mail.as_str(), "an e-mail message"),
        ("page.pgn", page, "a web page or other markup"),
    ] {
        let bad = write(dir.path(), name, text.as_bytes());
        let bad = bad.to_str().unwrap();
        for command in ["validate", "export"] {
            let r = run(&[command, bad, good, "--format", "jsonl"], Input::Null);
            r.assert_code(2, name);
            assert_eq!(
                r.stderr,
                format!(
                    "arbiter: error: {bad}: not a PGN file: {what} (no tag pair in its first \
                     16 KiB, and more unreadable words than moves); skipped\n"
                )
            );
            let lines = json_lines(&r.stdout);
            let games = match command {
                "validate" => lines.last().and_then(|s| s["games"].as_u64()),
                _ => Some(lines.len() as u64),
            };
            assert_eq!(games, Some(2), "{name} {command}: the good file is read");
        }
    }
    // On standard input too.
    let r = run(&["validate"], Input::Bytes(mail.as_bytes()));
    r.assert_code(2, "newsletter on stdin");
    assert_eq!(r.stderr.lines().count(), 1, "{}", r.stderr);
    assert!(
        r.stderr.contains("<stdin>") && r.stderr.contains("not a PGN file: an e-mail message"),
        "{}",
        r.stderr
    );
}

#[test]
fn pgn_that_begins_oddly_is_read() {
    let dir = scratch();
    let games = good_games(0, 3);
    let prose = "This collection holds the games of the club championship; notes by the editor. ";
    let cases: Vec<(&str, Vec<u8>)> = vec![
        // A comment of 20 KiB, then the games.
        (
            "long comment",
            format!("{{{}}}\n\n{games}", prose.repeat(256)).into_bytes(),
        ),
        // `%` escape lines and `;` comments, 20 KiB of them.
        (
            "escape lines",
            format!(
                "{}{games}",
                "% exported by a program\n; a note\n".repeat(600)
            )
            .into_bytes(),
        ),
        // Tagless movetext, one game after another.
        (
            "tagless movetext",
            "1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1-0\n\n"
                .repeat(2000)
                .into_bytes(),
        ),
        // A byte order mark, and Latin-1 in a comment.
        (
            "bom and latin-1",
            [b"\xef\xbb\xbf{Caf\xe9}\n".as_slice(), games.as_bytes()].concat(),
        ),
        // Prose that is no comment, but the games begin within the first 16 KiB.
        (
            "prose then games",
            format!("{}\n\n{games}", prose.repeat(150)).into_bytes(),
        ),
        // A few stray words and a broken tag, as in a small broken file.
        (
            "a few stray words",
            b"[kj90trkm\"sdfsdf\"yl]\ng(erg)\nr23 *\n".to_vec(),
        ),
    ];
    for (name, bytes) in cases {
        let path = write(dir.path(), "odd.pgn", &bytes);
        let c = check(&path, None, name);
        assert!(
            !c.validate.stderr.contains("not a PGN file"),
            "{name}: {}",
            c.validate.stderr
        );
        assert!(!c.records.is_empty(), "{name}: no game read");
    }
}

#[test]
fn unexpected_text_is_listed_three_times_then_summed_up() {
    let dir = scratch();
    // 1,000 unreadable words in the movetext of a game with tags, on lines 9 to 258.
    let junk = "<td> class=x &nbsp word!\n".repeat(250);
    let pgn = format!(
        "{}[Event \"junk\"]\n\n1. e4 {junk}e5 *\n\n{}",
        good_games(0, 1),
        good_games(1, 1)
    );
    let path = write(dir.path(), "junk.pgn", pgn.as_bytes());
    let c = check(&path, None, "junk");
    c.assert_good_games(2, "junk");
    let unexpected: Vec<&serde_json::Value> = c
        .diagnostics
        .iter()
        .filter(|d| d["code"] == "unexpected_text")
        .collect();
    assert_eq!(unexpected.len(), 4, "{unexpected:?}");
    assert_eq!(
        unexpected[0]["message"],
        "unexpected text `<td>` at 9:7; skipped to the next token"
    );
    let summary = unexpected[3];
    assert_eq!(
        (summary["line"].as_u64(), summary["column"].as_u64()),
        (Some(9), Some(26))
    );
    assert_eq!(
        summary["message"],
        "and 997 more unexpected tokens up to line 258, each skipped to the next token (only \
         the first 3 of a game are quoted)"
    );
    // The count by code holds every token, quoted or summed up.
    assert_eq!(c.summary["codes"]["unexpected_text"], 1000);
    // The text form says the same.
    let text = run(&["validate", path.to_str().unwrap()], Input::Null);
    let stdout = text.stdout();
    let lines: Vec<&str> = stdout.lines().filter(|l| l.contains(": error[")).collect();
    assert_eq!(lines.len(), 4, "{lines:?}");
    assert!(
        lines[3].ends_with(
            ":9:26: game 2: error[unexpected_text]: and 997 more unexpected tokens up to line 258, each \
             skipped to the next token (only the first 3 of a game are quoted)"
        ),
        "{}",
        lines[3]
    );
}

#[test]
fn a_damaged_tagless_file_keeps_the_games_before_the_damage() {
    use std::io::Write;

    // Tagless movetext is read on (up to 16 KiB) to be judged: a read error on the way still comes
    // after the games before it, as it would for any other damaged file.
    let dir = scratch();
    let text = "1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1-0\n\n".repeat(300);
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(text.as_bytes()).expect("gzip");
    let gz = gz.finish().expect("gzip");
    let path = write(dir.path(), "cut.pgn.gz", &gz[..gz.len() - 12]);
    let c = check(&path, None, "cut tagless gzip");
    assert!(
        c.records.len() > 100,
        "{} games before the damage",
        c.records.len()
    );
    // Every game before the damage is whole; the one it cuts short has its record, invalid,
    // with the read error.
    let (cut, whole) = c.records.split_last().expect("records");
    assert!(whole.iter().all(|r| r["outcome"] == "checkmate"));
    assert_eq!(cut["outcome"], "invalid", "{cut}");
    assert!(
        cut["error"]
            .as_str()
            .is_some_and(|e| e.contains("cut short by a read error")),
        "{cut}"
    );
    for r in [&c.export, &c.validate] {
        assert_eq!(r.code(), Some(2), "{}", r.stderr);
        assert!(
            r.stderr.contains("corrupt or truncated gzip data"),
            "{}",
            r.stderr
        );
    }
}
