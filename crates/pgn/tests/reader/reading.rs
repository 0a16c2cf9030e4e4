//! Reading well-formed (if unusual) PGN: tokens, locations, encodings, nesting, splitting.

use arbiter_pgn::{GameResult, PgnErrorKind};
use arbiter_test_support::reader::{Recorder, Token, read_all, read_one, read_with};

fn san(s: &str) -> Token {
    Token::San(s.into())
}

fn comment(s: &str) -> Token {
    Token::Comment(s.into())
}

#[test]
fn a_full_game_gives_every_token_in_order() {
    let game = read_one(concat!(
        "[Event \"Wch \\\"blitz\\\" [rapid]\"] [Site \"C:\\\\x\"]\n",
        "[White \"A\"]\n",
        "\n",
        "1.e4 e5 2. Nf3!? $14 {best} 2...Nc6 3 ... Bb5 ; Ruy\n",
        "(3. Bc4 (3. d4 exd4) Bc5) a6?! 4. O-O 0-0-0 exd6e.p. e8=Q+ e2e4 Ng1-f3 -- Z0 1/2-1/2\n",
    ));
    use Token::*;
    assert_eq!(
        game.bare(),
        vec![
            Tag("Event".into(), "Wch \"blitz\" [rapid]".into()),
            Tag("Site".into(), "C:\\x".into()),
            Tag("White".into(), "A".into()),
            MoveNumber(1, 1),
            san("e4"),
            san("e5"),
            MoveNumber(2, 1),
            san("Nf3"),
            Nag(5),
            Nag(14),
            comment("best"),
            MoveNumber(2, 3),
            san("Nc6"),
            MoveNumber(3, 3),
            san("Bb5"),
            comment(" Ruy"),
            Begin,
            MoveNumber(3, 1),
            san("Bc4"),
            Begin,
            MoveNumber(3, 1),
            san("d4"),
            san("exd4"),
            End,
            san("Bc5"),
            End,
            san("a6"),
            Nag(6),
            MoveNumber(4, 1),
            san("O-O"),
            san("0-0-0"),
            san("exd6e.p."),
            san("e8=Q+"),
            san("e2e4"),
            san("Ng1-f3"),
            Null("--".into()),
            Null("Z0".into()),
            Result(GameResult::Draw),
        ]
    );
    assert!(game.errors.is_empty(), "{:?}", game.errors);
    let at = |i: usize| game.tokens[i].1.as_str();
    assert_eq!((at(0), at(1), at(2)), ("1:1", "1:33", "2:1"));
    assert_eq!((at(3), at(4), at(5)), ("4:1", "4:3", "4:6"));
    assert_eq!(
        (at(7), at(8), at(9), at(10)),
        ("4:12", "4:15", "4:18", "4:22")
    );
    assert_eq!((at(15), at(16)), ("4:47", "5:1"));
    assert_eq!(game.tokens.last().map(|t| t.1.as_str()), Some("5:78"));
}

#[test]
fn lichess_commands_stay_in_their_comments() {
    let game = read_one("1. e4 { [%eval 0.17] [%clk 0:03:00] } 1... c5 { [%clk 0:02:58] } 0-1");
    assert_eq!(
        game.bare()[2..3],
        [comment(" [%eval 0.17] [%clk 0:03:00] ")]
    );
    assert_eq!(
        game.bare()[5],
        Token::Clock(178_000, " [%clk 0:02:58] ".into())
    );
}

#[test]
fn only_the_exact_lichess_clock_comment_comes_with_its_reading() {
    // Both ways: a game that is one pass (LF) and one read the general way (a `;` comment).
    for tail in ["", " ; general\n"] {
        let game = read_one(&format!(
            "1. e4 {{ [%clk 1:05:09] }} e5 {{ [%clk 0:03:00]  }} 2. Nf3 {{[%clk 0:03:00]}} \
             Nc6 {{ [%clk 0:60:00] }} 3. Bb5 {{ [%clk 0:03:00]\n}} a6 {{ [%clk 9:59:59] }}{tail} *"
        ));
        let comments: Vec<Token> = game
            .bare()
            .into_iter()
            .filter(|t| matches!(t, Token::Comment(_) | Token::Clock(..)))
            .collect();
        let mut expected = vec![
            Token::Clock(3_909_000, " [%clk 1:05:09] ".into()),
            comment(" [%clk 0:03:00]  "),
            comment("[%clk 0:03:00]"),
            comment(" [%clk 0:60:00] "),
            comment(" [%clk 0:03:00]\n"),
            Token::Clock(35_999_000, " [%clk 9:59:59] ".into()),
        ];
        if !tail.is_empty() {
            expected.push(comment(" general"));
        }
        assert_eq!(comments, expected, "{tail:?}");
    }
}

#[test]
fn escape_lines_in_column_one_are_ignored() {
    let games = read_all(b"%header escape [Event \"no\"]\n[Event \"a\"]\n%tags {\n1. e4\n%moves (\ne5 1-0\n%after\n[Event \"b\"] *");
    assert_eq!(games.len(), 2);
    assert_eq!(games[0].sans(), ["e4", "e5"]);
    assert!(games[0].errors.is_empty(), "{:?}", games[0].errors);
    assert_eq!(games[1].tag("Event"), Some("b"));
    // Not in column 1, `%` is stray text.
    let game = read_one("1. e4 %x e5 *");
    assert_eq!(game.kinds(), [PgnErrorKind::UnexpectedText]);
}

#[test]
fn tag_values_may_hold_brackets_and_results() {
    let games = read_all(b"[Event \"[x] 1-0 {\"]\n[Site \"]\"]\n\n1. e4 *\n");
    assert_eq!(games.len(), 1);
    assert_eq!(games[0].tag("Event"), Some("[x] 1-0 {"));
    assert_eq!(games[0].tag("Site"), Some("]"));
}

#[test]
fn comments_may_hold_brackets_blank_lines_and_results() {
    let games = read_all(b"[Event \"a\"]\n\n1. e4 { see [Event \"x\"] below\n\n1-0 (\n*\n} e5 0-1\n\n[Event \"b\"]\n*\n");
    assert_eq!(games.len(), 2);
    assert_eq!(games[0].sans(), ["e4", "e5"]);
    assert!(games[0].errors.is_empty());
}

#[test]
fn games_split_on_results_tags_and_repeated_headers() {
    // Tagless games one per line, no blank lines (sunfish).
    let games = read_all(b"1. e4 e5 1-0\n1. d4 d5 0-1\n1. c4 *\n");
    assert_eq!(games.len(), 3);
    assert_eq!(games[2].first_line, 3);
    // Header-only games (a lichess broadcast export).
    let games = read_all(b"[Event \"a\"]\n[Round \"1\"]\n\n[Event \"a\"]\n[Round \"2\"]\n");
    assert_eq!(games.len(), 2);
    assert_eq!(games[1].tag("Round"), Some("2"));
    assert_eq!(games[1].kinds(), [PgnErrorKind::NoResult]);
    // Two blank lines after the tags (the pgnmentor forfeits), a blank line among them (ChessBase).
    let games = read_all(b"[Event \"a\"]\n\n[Site \"b\"]\n\n\n1.d4  0-1\n");
    assert_eq!(games.len(), 1);
    assert_eq!(games[0].sans(), ["d4"]);
}

#[test]
fn comments_after_the_result_belong_to_the_game() {
    let games =
        read_all(b"1. e4 1-0 ; over\n; { Game Nr. 1\n; by adjudication }\n\n[Event \"b\"] *");
    assert_eq!(games.len(), 2);
    assert_eq!(
        games[0].bare()[3..],
        [
            comment(" over"),
            comment(" { Game Nr. 1"),
            comment(" by adjudication }")
        ]
    );
    assert!(games[0].errors.is_empty());
}

#[test]
fn empty_input_has_no_games_and_no_errors() {
    assert!(read_all(b"").is_empty());
    assert!(read_all(b"\n\r\n  \t\n").is_empty());
    assert!(read_all("\u{feff}".as_bytes()).is_empty());
}

#[test]
fn byte_order_mark_is_skipped() {
    let games = read_all("\u{feff}[Event \"é\"]\n1. e4 *\n".as_bytes());
    assert_eq!(games[0].tokens[0].1, "1:1");
    assert_eq!(games[0].tag("Event"), Some("é"));
}

#[test]
fn latin1_game_between_utf8_games() {
    let mut bytes = "[Event \"Réti\"]\n1. e4 {é} e5 *\n\n".as_bytes().to_vec();
    bytes.extend(b"[Event \"R\xe9ti\"]\n1. e4 {\xe9\xe9} e5 *\n\n");
    bytes.extend("[Event \"Réti\"]\n1. e4 *\n".as_bytes());
    let games = read_all(&bytes);
    assert_eq!(games.len(), 3);
    for game in &games {
        assert_eq!(game.tag("Event"), Some("Réti"));
    }
    assert!(games[0].errors.is_empty());
    assert_eq!(games[1].kinds(), [PgnErrorKind::NotUtf8]);
    assert_eq!(games[1].errors[0].at.to_string(), "4:1");
    assert_eq!(games[1].bare()[3], comment("éé"));
    // Columns count characters: `e5` is the 12th character of its line in both encodings.
    assert_eq!(games[0].tokens[4].1, "2:11");
    assert_eq!(games[1].tokens[4].1, "5:12");
}

#[test]
fn crlf_and_cr_only_line_ends() {
    for eol in ["\r\n", "\r", "\n"] {
        let text = [
            "[Event \"a\"]",
            "",
            "1. e4 {x",
            "y} e5",
            "2. Nf3 *",
            "",
            "[Event \"b\"]",
            "*",
            "",
        ]
        .join(eol);
        let games = read_all(text.as_bytes());
        assert_eq!(games.len(), 2, "{eol:?}");
        let e5 = games[0]
            .tokens
            .iter()
            .find(|t| t.0 == san("e5"))
            .map(|t| t.1.clone());
        assert_eq!(e5.as_deref(), Some("4:4"), "{eol:?}");
        assert_eq!(
            games[0].tokens.last().map(|t| t.1.as_str()),
            Some("5:8"),
            "{eol:?}"
        );
        assert_eq!(games[1].first_line, 7, "{eol:?}");
        assert_eq!(games[0].bare()[3], comment(&format!("x{eol}y")));
    }
}

fn nested(depth: usize) -> String {
    format!("1. e4 {} e5 {} *", "( d4 ".repeat(depth), ")".repeat(depth))
}

#[test]
fn deep_nesting_ten_thousand_levels() {
    let game = read_one(&nested(10_000));
    assert!(game.errors.is_empty());
    let begins = game.bare().iter().filter(|t| **t == Token::Begin).count();
    let ends = game.bare().iter().filter(|t| **t == Token::End).count();
    assert_eq!((begins, ends), (10_000, 10_000));
}

#[test]
fn deep_nesting_hundred_thousand_levels() {
    let text = nested(100_000);
    let game = read_one(&text);
    assert!(game.errors.is_empty());
    assert_eq!(game.sans().len(), 100_002);
    // Skipped variations, and variations never closed, at the same depth.
    let skipping = Recorder::skipping();
    let games = read_with(text.as_bytes(), skipping);
    assert_eq!(games[0].sans(), ["e4"]);
    let open = format!("1. e4 {}*", "(".repeat(100_000));
    let game = read_one(&open);
    assert_eq!(game.kinds(), [PgnErrorKind::UnclosedVariation]);
    assert_eq!(
        game.bare().iter().filter(|t| **t == Token::End).count(),
        100_000
    );
}

#[test]
fn skipped_variations_respect_comments() {
    let skipping = Recorder::skipping();
    let games = read_with(b"1. e4 ( d4 { ) } ; )\n) e5 *", skipping);
    assert_eq!(games[0].sans(), ["e4", "e5"]);
    assert!(games[0].errors.is_empty());
}

#[test]
fn game_numbers_count_from_one() {
    let games = read_all(b"*\n*\n*\n");
    let numbers: Vec<u64> = games.iter().map(|g| g.index).collect();
    assert_eq!(numbers, [1, 2, 3]);
}

#[test]
fn words_are_not_moves() {
    // pgn-extract's nested-comment.pgn: the first `}` closes the comment (braces do not nest).
    let game = read_one("e4 { a { nested } which should be } *");
    assert_eq!(game.sans(), ["e4"]);
    let stray: Vec<String> = game
        .hard_errors()
        .iter()
        .map(|e| e.at.to_string())
        .collect();
    assert_eq!(stray, ["1:19", "1:25", "1:32", "1:35"]);
}

/// Reads `text` with a visitor that skips comments' text, in one pass or not: each comment's
/// place and the bytes of its span.
fn skipped_comments(text: &str, one_pass: bool) -> Vec<(u32, String)> {
    use std::ops::Range;

    use arbiter_pgn::{GameInfo, Location, Reader, Visitor};

    struct Skipping {
        one_pass: bool,
        spans: Vec<(Location, Range<usize>)>,
    }
    impl Visitor for Skipping {
        type Output = Vec<(u32, String)>;
        fn wants_comments(&self) -> bool {
            false
        }
        fn one_pass(&self) -> bool {
            self.one_pass
        }
        fn begin_game(&mut self, _: &GameInfo<'_>) {
            self.spans.clear();
        }
        fn comment(&mut self, text: &str, _: Location) {
            panic!("comment text handed out: {text:?}");
        }
        fn comment_skipped(&mut self, location: Location, text: Range<usize>) {
            self.spans.push((location, text));
        }
        fn end_game(&mut self, game: &GameInfo<'_>) -> Self::Output {
            let bytes = game.bytes();
            self.spans
                .drain(..)
                .map(|(at, span)| (at.0, String::from_utf8_lossy(&bytes[span]).into_owned()))
                .collect()
        }
    }
    let mut reader = Reader::new("t.pgn", text.as_bytes());
    let mut visitor = Skipping {
        one_pass,
        spans: Vec::new(),
    };
    let mut all = Vec::new();
    while let Some(game) = reader.read_game(&mut visitor).expect("in memory") {
        all.extend(game);
    }
    all
}

#[test]
fn a_skipped_comment_comes_with_the_span_of_its_text() {
    let text = "[Event \"a\"]\n\n1. e4 { [%clk 0:03:00] } e5 {two\r\nlines} 2. Nf3 1-0\n\n\
                [Event \"b\"]\n\n1. d4 ; rest } of { the line\n{ x }\n*\n";
    let expected: Vec<(u32, String)> = vec![
        (19, " [%clk 0:03:00] ".into()),
        (41, "two\r\nlines".into()),
        (19, " rest } of { the line".into()),
        (42, " x ".into()),
    ];
    assert_eq!(skipped_comments(text, false), expected);
    // The first game in one pass; the second (a `;` comment) the general way.
    assert_eq!(skipped_comments(text, true), expected);
}

#[test]
fn a_tag_pair_may_span_lines() {
    // PGN 8.1: white space, line ends included, may separate a tag pair's four tokens; a string
    // holds no line end (PGN 7). Issue 30, point 1.
    for (pair, lines) in [
        ("[Site\n\"Here\"]", 1),
        ("[Site \"Here\"\r\n]", 1),
        ("[\nSite\n\n\"Here\"\r]", 4),
        ("[ Site\t\n \"He\\\"re\" \n ]", 2),
    ] {
        let text =
            format!("[Event \"a\"]\n{pair}\n[Date \"x\"]\n\n1. e4 e5 *\n\n[Event \"b\"]\n*\n");
        let games = read_all(text.as_bytes());
        assert_eq!(games.len(), 2, "{pair:?}: {games:#?}");
        let site = if pair.contains('\\') {
            "He\"re"
        } else {
            "Here"
        };
        assert_eq!(games[0].tag("Site"), Some(site), "{pair:?}");
        assert_eq!(games[0].tag("Date"), Some("x"), "{pair:?}");
        assert_eq!(games[0].tokens[1].1, "2:1", "{pair:?}");
        assert_eq!(games[0].tokens[2].1, format!("{}:1", 3 + lines), "{pair:?}");
        assert_eq!(games[0].sans(), ["e4", "e5"], "{pair:?}");
        assert!(
            games[0].errors.is_empty(),
            "{pair:?}: {:?}",
            games[0].errors
        );
        assert_eq!(games[1].first_line, 7 + lines, "{pair:?}");
    }
    // A string over lines is no string: the tag is broken, and the rest is movetext.
    let games = read_all(b"[Event \"a\"]\n[Site \"He\nre\"]\n\n1. e4 *\n");
    assert_eq!(games.len(), 1);
    assert_eq!(games[0].tag("Site"), None);
    assert_eq!(games[0].kinds()[0], PgnErrorKind::BrokenTag);
    assert_eq!(games[0].sans(), ["e4"]);
}

#[test]
fn a_comment_that_quotes_whole_games_ends_at_its_brace() {
    // Issue 30, point 2: the `}` is followed by movetext, so the comment closes there, whatever
    // tag sections and results it quotes.
    let text = "[Event \"x\"]\n\n1. e4 {Compare the two classics:\n[Event \"Game A\"]\n\n1. d4 *\n\n\
                [Event \"Game B\"]\n} e5 *\n\n[Event \"next\"]\n\n1. d4 d5 *\n";
    let games = read_all(text.as_bytes());
    assert_eq!(games.len(), 2, "{games:#?}");
    assert_eq!(games[0].sans(), ["e4", "e5"]);
    assert!(games[0].errors.is_empty(), "{:?}", games[0].errors);
    assert_eq!(
        games[0].bare()[3],
        comment("Compare the two classics:\n[Event \"Game A\"]\n\n1. d4 *\n\n[Event \"Game B\"]\n")
    );
    assert_eq!(
        (games[1].tag("Event"), games[1].first_line),
        (Some("next"), 11)
    );
    // Never closed: the next game's `{`, or the end of the input, gives it away, and the game
    // ends before the first tag line it holds.
    for tail in ["1. c4 { [%clk 0:03:00] } *\n", ""] {
        let open = format!("1. e4 {{ open\n[Event \"A\"]\n\n1. d4 *\n\n[Event \"B\"]\n\n{tail}");
        let games = read_all(open.as_bytes());
        assert_eq!(games.len(), 3, "{tail:?}: {games:#?}");
        assert_eq!(games[0].kinds()[0], PgnErrorKind::UnterminatedComment);
        assert_eq!(games[1].tag("Event"), Some("A"));
        assert_eq!(games[2].tag("Event"), Some("B"));
    }
}

#[test]
fn a_termination_marker_glued_to_the_token_before_it_is_read() {
    // Issue 43, point 1: `*` is a token of its own whatever touches it, and `!`, `?` and the `]`
    // of a tag pair end the token before a `1-0` (PGN standard, section 7). Each game is read
    // both ways (one pass and cut then parsed), and the next game stays a game of its own.
    let cases: [(&str, &[&str], GameResult); 9] = [
        ("1. e4 e5*", &["e4", "e5"], GameResult::Unknown),
        ("1. e4 $1*", &["e4"], GameResult::Unknown),
        ("1. e4 e5+*", &["e4", "e5+"], GameResult::Unknown),
        ("1. e4 Nc6!?1-0", &["e4", "Nc6"], GameResult::WhiteWins),
        ("1. e4 Nc6?*", &["e4", "Nc6"], GameResult::Unknown),
        ("1. O-O-O#!?0-1", &["O-O-O#"], GameResult::BlackWins),
        ("1. e4 e5!1/2-1/2", &["e4", "e5"], GameResult::Draw),
        ("[Result \"*\"]*", &[], GameResult::Unknown),
        ("[Result \"1-0\"]1-0", &[], GameResult::WhiteWins),
    ];
    for (movetext, sans, result) in cases {
        let text = format!("[Event \"glued\"]\n{movetext}\n\n[Event \"next\"]\n\n1. d4 *\n");
        let games = read_all(text.as_bytes());
        assert_eq!(games.len(), 2, "{movetext}: {games:#?}");
        assert!(
            games[0].errors.is_empty(),
            "{movetext}: {:?}",
            games[0].errors
        );
        assert_eq!(games[0].sans(), sans, "{movetext}");
        assert_eq!(
            games[0].bare().last(),
            Some(&Token::Result(result)),
            "{movetext}"
        );
        assert_eq!(games[1].tag("Event"), Some("next"), "{movetext}");
    }
    // Stray text ends at a `*`, which is then the result; a digit that continues a token is no
    // result (`e51-0` is one word, read as a move).
    let games = read_all(b"[Event \"x\"]\n\n1. e4 foo*\n");
    assert_eq!(games[0].kinds(), [PgnErrorKind::UnexpectedText]);
    assert_eq!(
        games[0].bare().last(),
        Some(&Token::Result(GameResult::Unknown))
    );
    let games = read_all(b"[Event \"x\"]\n\n1. e4 e51-0\n");
    assert!(
        !games[0]
            .bare()
            .iter()
            .any(|t| matches!(t, Token::Result(_)))
    );
}
