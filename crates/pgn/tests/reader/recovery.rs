//! Recovery from damage: each case reports its location and the games after it are still read.

use arbiter_pgn::{PgnErrorKind, Reader};
use arbiter_test_support::reader::{Game, Recorder, Token, read_all, read_limited};

/// The single error proper of `game`, checked for kind and location.
fn the_error(game: &Game, kind: PgnErrorKind, at: &str) -> String {
    let errors = game.hard_errors();
    assert_eq!(errors.len(), 1, "{:#?}", game.errors);
    assert_eq!(errors[0].kind, kind);
    assert_eq!(errors[0].at.to_string(), at);
    errors[0].message.clone()
}

/// The game after the damaged one is read whole.
fn next_game_is_whole(games: &[Game], index: usize) {
    let game = &games[index];
    assert_eq!(game.tag("Event"), Some("next"), "{game:#?}");
    assert_eq!(game.sans(), ["d4", "d5"]);
    assert!(game.errors.is_empty(), "{:?}", game.errors);
}

const NEXT: &str = "[Event \"next\"]\n\n1. d4 d5 *\n";

#[test]
fn unterminated_comment() {
    let text = format!("[Event \"a\"]\n\n1. e4 {{ never closed\n\n2. Nf3 1-0\n\n{NEXT}");
    let games = read_all(text.as_bytes());
    assert_eq!(games.len(), 2);
    let message = the_error(&games[0], PgnErrorKind::UnterminatedComment, "3:7");
    assert_eq!(
        message,
        "unterminated comment: `{` at 3:7 is never closed; skipped to the next game at line 7"
    );
    assert_eq!(games[0].sans(), ["e4"]);
    next_game_is_whole(&games, 1);
    // At the end of the input.
    let games = read_all(b"1. e4 { open");
    assert!(
        games[0].errors[0]
            .message
            .ends_with("skipped to the end of the input")
    );
}

#[test]
fn unclosed_variation() {
    let text = format!("[Event \"a\"]\n1. e4 (1. d4 d5\n2. c4 *\n\n{NEXT}");
    let games = read_all(text.as_bytes());
    assert_eq!(games.len(), 2);
    the_error(&games[0], PgnErrorKind::UnclosedVariation, "2:7");
    let game = &games[0];
    let begins = game
        .bare()
        .iter()
        .filter(|t| **t == arbiter_test_support::reader::Token::Begin)
        .count();
    let ends = game
        .bare()
        .iter()
        .filter(|t| **t == arbiter_test_support::reader::Token::End)
        .count();
    assert_eq!((begins, ends), (1, 1));
    assert!(
        game.bare()
            .contains(&arbiter_test_support::reader::Token::Result(
                arbiter_pgn::GameResult::Unknown
            ))
    );
    next_game_is_whole(&games, 1);
    // Without a result, the next tag section ends it.
    let text = format!("1. e4 ((1. d4\n{NEXT}");
    let games = read_all(text.as_bytes());
    let message = the_error(&games[0], PgnErrorKind::UnclosedVariation, "1:7");
    assert!(message.contains("2 variations"), "{message}");
    next_game_is_whole(&games, 1);
}

#[test]
fn unopened_variation() {
    let text = format!("1. e4 ) e5 ) *\n{NEXT}");
    let games = read_all(text.as_bytes());
    let errors = games[0].hard_errors();
    assert_eq!(errors.len(), 2);
    assert_eq!(errors[0].kind, PgnErrorKind::UnopenedVariation);
    assert_eq!(errors[0].at.to_string(), "1:7");
    assert_eq!(errors[1].at.to_string(), "1:12");
    assert_eq!(games[0].sans(), ["e4", "e5"]);
    next_game_is_whole(&games, 1);
}

#[test]
fn broken_tags() {
    let text = format!("[Event \"a]\n[Site x] [Date \"?\"]\n[White \"W\"]\n1. e4 *\n{NEXT}");
    let games = read_all(text.as_bytes());
    assert_eq!(games.len(), 2);
    let errors = games[0].hard_errors();
    assert_eq!(errors.len(), 2);
    assert!(errors.iter().all(|e| e.kind == PgnErrorKind::BrokenTag));
    assert_eq!(errors[0].at.to_string(), "1:1");
    assert_eq!(errors[1].at.to_string(), "2:1");
    assert_eq!(
        errors[1].message,
        "broken tag pair: `[Site x] [Date \"?\"]` at 2:1 is not of the form [Name \"value\"]; \
         skipped to the end of the line"
    );
    assert_eq!(games[0].tag("White"), Some("W"));
    assert_eq!(games[0].sans(), ["e4"]);
    next_game_is_whole(&games, 1);
}

#[test]
fn stray_bytes() {
    let text = format!("1. e4 <br/> ±± e5 \u{1F600} 2. Nf3 *\n{NEXT}");
    let games = read_all(text.as_bytes());
    let errors = games[0].hard_errors();
    let found: Vec<(String, String)> = errors
        .iter()
        .map(|e| (e.at.to_string(), e.message.clone()))
        .collect();
    assert_eq!(
        found,
        [
            (
                "1:7".into(),
                "unexpected text `<br/>` at 1:7; skipped to the next token".into()
            ),
            (
                "1:13".into(),
                "unexpected text `±±` at 1:13; skipped to the next token".into()
            ),
            (
                "1:19".into(),
                "unexpected text `\u{1F600}` at 1:19; skipped to the next token".into()
            ),
        ]
    );
    assert_eq!(games[0].sans(), ["e4", "e5", "Nf3"]);
    next_game_is_whole(&games, 1);
}

// See: issue 43, point 6: a scoresheet's `1-0 (time)` is a warning that keeps the words.
#[test]
fn text_after_the_result_is_a_warning_that_quotes_it() {
    let long = "a long note ".repeat(20);
    let text = format!("1. e4 1-0 (time)\n{NEXT}1. d4 0-1 {long}\n{NEXT}");
    let games = read_all(text.as_bytes());
    assert_eq!(games.len(), 4);
    for (game, at, quoted) in [
        (&games[0], "1:11", "(time)".to_owned()),
        (&games[2], "5:11", format!("{}…", &long[..200])),
    ] {
        assert!(game.hard_errors().is_empty(), "{:#?}", game.errors);
        assert_eq!(game.errors.len(), 1, "{:#?}", game.errors);
        let warning = &game.errors[0];
        assert_eq!(warning.kind, PgnErrorKind::TextAfterResult);
        assert!(warning.is_warning());
        assert_eq!(warning.at.to_string(), at);
        assert_eq!(
            warning.message,
            format!("text after the result at {at} is not read as moves: `{quoted}`")
        );
    }
    // The words are handed over whole, after the result.
    assert_eq!(
        games[0].bare().last(),
        Some(&Token::AfterResult("(time)".into()))
    );
    assert_eq!(
        games[2].bare().last(),
        Some(&Token::AfterResult(long.trim_end().into()))
    );
    next_game_is_whole(&games, 1);
    next_game_is_whole(&games, 3);
}

#[test]
fn result_inside_a_variation() {
    let text = format!("1. e4 (1. d4 1-0) e5 *\n{NEXT}");
    let games = read_all(text.as_bytes());
    the_error(&games[0], PgnErrorKind::ResultInVariation, "1:14");
    assert_eq!(games[0].sans(), ["e4", "d4", "e5"]);
    next_game_is_whole(&games, 1);
}

#[test]
fn bad_nags_and_move_numbers() {
    let games = read_all(b"1. e4 $300 e5 $ 99999999999. Nf3 *");
    let kinds: Vec<_> = games[0].hard_errors().iter().map(|e| e.kind).collect();
    assert_eq!(
        kinds,
        [
            PgnErrorKind::BadNag,
            PgnErrorKind::BadNag,
            PgnErrorKind::BadMoveNumber
        ]
    );
    assert_eq!(games[0].sans(), ["e4", "e5", "Nf3"]);
}

#[test]
fn game_over_the_size_limit() {
    let big = format!(
        "[Event \"big\"]\n1. e4 {{{}}} *\n\n{NEXT}",
        "x\n".repeat(5000)
    );
    let mut reader = Reader::new("t.pgn", big.as_bytes()).with_max_game_bytes(1000);
    let mut recorder = Recorder::default();
    let first = reader
        .read_game(&mut recorder)
        .ok()
        .flatten()
        .expect("first game");
    let message = the_error(&first, PgnErrorKind::GameTooLarge, "1:1");
    assert_eq!(
        message,
        "game too large: 10026 bytes from line 1 to line 5004 were skipped unread"
    );
    let second = reader
        .read_game(&mut recorder)
        .ok()
        .flatten()
        .expect("second game");
    assert_eq!((second.index, second.first_line), (2, 5004));
    next_game_is_whole(&[second], 0);
}

#[test]
fn reports_name_path_line_column_and_game() {
    let games = read_all(b"*\n\n1. e4 { open");
    assert_eq!(
        games[1].errors[0].report("a/b.pgn"),
        "a/b.pgn:3:7: game 2: error: unterminated comment: `{` at 3:7 is never closed; skipped \
         to the end of the input"
    );
    assert_eq!(
        games[1].errors[1].report("a/b.pgn"),
        "a/b.pgn:3:13: game 2: warning: no result: the game ends at 3:13 without 1-0, 0-1, \
         1/2-1/2 or *"
    );
}

#[test]
fn comment_quoting_a_tag_line_past_the_size_limit() {
    // A comment holds a tag pair line, is never closed, and runs past the size limit, up to a
    // last line the first read ends in the middle of. The comment counts as never closed within
    // the limit: the game ends before the tag line, which starts the next game (itself too
    // large). (The cutter once moved the game's start past the tag line it kept, and the
    // index of that line went below zero.)
    let quoted = "[Event \"quoted\"]\n";
    let text = format!(
        "[Event \"a\"]\n\n1. e4 {{ see\n{quoted}{}no line end",
        "1. d4 d5 2. c4 e6\n".repeat(8)
    );
    for limit in [100, 120, 150] {
        for recorder in [Recorder::default(), Recorder::default().one_pass()] {
            let games = read_limited(text.as_bytes(), recorder, limit);
            assert_eq!(games.len(), 2, "limit {limit}: {games:#?}");
            assert_eq!(games[0].sans(), ["e4"], "limit {limit}");
            assert_eq!(
                games[0].hard_errors()[0].kind,
                PgnErrorKind::UnterminatedComment
            );
            assert_eq!(games[1].first_line, 4, "limit {limit}");
            the_error(&games[1], PgnErrorKind::GameTooLarge, "4:1");
        }
    }
}
