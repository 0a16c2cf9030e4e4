//! Generated games written out and read back give the same tokens.

use arbiter_pgn::GameResult;
use arbiter_test_support::reader::{Token, read_all};
use proptest::prelude::*;
use proptest::test_runner::FileFailurePersistence;

/// A movetext element, as generated.
#[derive(Clone, Debug)]
enum Element {
    Number(u32, bool),
    Move(String, Option<u8>),
    Nag(u8),
    Comment(String),
    LineComment(String),
    Null(&'static str),
    Variation(Vec<Element>),
}

/// A generated game.
#[derive(Clone, Debug)]
struct Game {
    tags: Vec<(String, String)>,
    moves: Vec<Element>,
    result: GameResult,
}

fn san() -> impl Strategy<Value = String> {
    prop_oneof![
        "[KQRBN][a-h]?[1-8]?x?[a-h][1-8][+#]?",
        "([a-h]x)?[a-h][1-8](=[QRBN])?[+#]?",
        Just("O-O".to_string()),
        Just("O-O-O+".to_string()),
        Just("0-0".to_string()),
        "[a-h][2-7][a-h][1-8]",
    ]
}

fn element() -> impl Strategy<Value = Element> {
    let leaf = prop_oneof![
        (1u32..300, any::<bool>()).prop_map(|(n, black)| Element::Number(n, black)),
        (san(), proptest::option::of(1u8..=6)).prop_map(|(s, g)| Element::Move(s, g)),
        any::<u8>().prop_map(Element::Nag),
        // Comment text may hold anything but `}`, except a tag pair at the start of a line.
        "[^}]{0,30}"
            .prop_filter("no line starting with [", |s| !s.contains("\n[")
                && !s.contains("\r["))
            .prop_map(Element::Comment),
        "[^\r\n]{0,20}".prop_map(Element::LineComment),
        prop_oneof![Just("--"), Just("Z0")].prop_map(Element::Null),
    ];
    leaf.prop_recursive(4, 40, 6, |inner| {
        prop::collection::vec(inner, 1..6).prop_map(Element::Variation)
    })
}

fn game() -> impl Strategy<Value = Game> {
    // At least one tag: comments after a result belong to that game, so a tagless game that starts
    // with a comment would read as part of the game before it.
    let tags = prop::collection::vec(("[A-Z][A-Za-z0-9_]{0,8}", "[ -~é€]{0,20}"), 1..6).prop_map(
        |mut tags| {
            // Tag names are unique within a game (a repeated one starts the next game).
            let mut seen = std::collections::HashSet::new();
            tags.retain(|(name, _)| seen.insert(name.clone()));
            tags
        },
    );
    let result = prop_oneof![
        Just(GameResult::WhiteWins),
        Just(GameResult::BlackWins),
        Just(GameResult::Draw),
        Just(GameResult::Unknown),
    ];
    (tags, prop::collection::vec(element(), 0..25), result).prop_map(|(tags, moves, result)| Game {
        tags,
        moves,
        result,
    })
}

fn escape(value: &str) -> String {
    value.replace('\\', "\\\\").replace('"', "\\\"")
}

/// Writes the elements, separated by `sep`, and records the tokens they must read back as.
fn write_elements(elements: &[Element], out: &mut String, tokens: &mut Vec<Token>, sep: &str) {
    for element in elements {
        match element {
            Element::Number(n, black) => {
                out.push_str(&format!("{n}{}", if *black { "..." } else { "." }));
                tokens.push(Token::MoveNumber(*n, if *black { 3 } else { 1 }));
            }
            Element::Move(san, glyph) => {
                let suffix = ["", "!", "?", "!!", "??", "!?", "?!"][glyph.unwrap_or(0) as usize];
                out.push_str(&format!("{san}{suffix}"));
                tokens.push(Token::San(san.clone()));
                tokens.extend(glyph.map(Token::Nag));
            }
            Element::Nag(n) => {
                out.push_str(&format!("${n}"));
                tokens.push(Token::Nag(*n));
            }
            Element::Comment(text) => {
                out.push_str(&format!("{{{text}}}"));
                tokens.push(Token::Comment(text.clone()));
            }
            Element::LineComment(text) => {
                out.push_str(&format!(";{text}\n"));
                tokens.push(Token::Comment(text.clone()));
            }
            Element::Null(text) => {
                out.push_str(text);
                tokens.push(Token::Null(text.to_string()));
            }
            Element::Variation(inner) => {
                out.push('(');
                tokens.push(Token::Begin);
                write_elements(inner, out, tokens, sep);
                out.push(')');
                tokens.push(Token::End);
            }
        }
        out.push_str(sep);
    }
}

fn write_game(game: &Game, out: &mut String, tokens: &mut Vec<Token>, sep: &str) {
    for (name, value) in &game.tags {
        out.push_str(&format!("[{name} \"{}\"]\n", escape(value)));
        tokens.push(Token::Tag(name.clone(), value.clone()));
    }
    out.push('\n');
    write_elements(&game.moves, out, tokens, sep);
    out.push_str(game.result.as_str());
    tokens.push(Token::Result(game.result));
    out.push_str("\n\n");
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 300,
        failure_persistence: Some(Box::new(FileFailurePersistence::Direct(
            "tests/reader/proptest-regressions.txt",
        ))),
        ..ProptestConfig::default()
    })]

    #[test]
    fn written_games_read_back_the_same(
        games in prop::collection::vec(game(), 1..4),
        sep in prop_oneof![Just(" "), Just("\n"), Just("\r\n"), Just("  \t")],
    ) {
        let mut text = String::new();
        let mut expected = Vec::new();
        for game in &games {
            let mut tokens = Vec::new();
            write_game(game, &mut text, &mut tokens, sep);
            expected.push(tokens);
        }
        let read = read_all(text.as_bytes());
        let got: Vec<Vec<Token>> = read.iter().map(|g| g.bare()).collect();
        prop_assert_eq!(got, expected, "text: {:?}", text);
        for game in &read {
            prop_assert!(game.errors.is_empty(), "{:?} in {:?}", game.errors, text);
        }
    }

    #[test]
    fn arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..400)) {
        let games = read_all(&bytes);
        for (i, game) in games.iter().enumerate() {
            prop_assert_eq!(game.index, i as u64 + 1);
        }
    }

    #[test]
    fn pgn_like_noise_never_panics(text in "[\\[\\]{}()\"\\\\;%$!?*.\\-/ \n\r01a-hKQNx=+#]{0,300}") {
        let games = read_all(text.as_bytes());
        // A game is never empty: each holds at least one byte of the input.
        prop_assert!(games.len() <= text.len());
    }
}
