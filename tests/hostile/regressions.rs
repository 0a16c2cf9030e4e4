//! Small inputs that found (or probe for) bugs, kept so that they stay fixed: each is replayed in
//! process through the reader and the replayer, and through the binary. See `fuzz/` and
//! docs/SECURITY.md for the fuzz targets and what they found (whose tests live beside the code
//! they fixed: `crates/pgn/tests/reader`, and the 65 MB case in `streams.rs`).

use arbiter::core::problem::Severities;
use arbiter::core::{ReplayOptions, Replayer};
use arbiter::pgn::Reader;

use crate::util::{check, good_games};

/// (name, PGN): each between two good games.
const CASES: &[(&str, &str)] = &[
    // The hostile suite's 50 MB line, in small: a garbage token became the whole diagnostic.
    ("long token", "[Event \"x\"]\n\n1. e4 LONGTOKEN 1-0\n\n"),
    // Clocks at their largest: the replay must saturate, not overflow.
    (
        "huge clocks",
        "[FEN \"8/8/8/8/8/8/8/K6k w - - 4294967295 4294967295\"]\n\n1. Ka2 Kh2 2. Ka3 *\n\n",
    ),
    (
        "huge fullmove, black to move",
        "[SetUp \"1\"]\n[FEN \"8/8/8/8/8/8/8/K6k b - - 0 4294967295\"]\n\n1... Kh2 2. Ka2 *\n\n",
    ),
    // Numbers past u32 and NAGs past u8.
    (
        "huge numbers",
        "1. e4 e5 99999999999999999999. Nf3 $999 $255 $256 *\n\n",
    ),
    // A FEN tag value far too long, and a broken one with every field wrong.
    (
        "broken FEN",
        "[FEN \"LONGTOKEN w KQkq - 0 1\"]\n\n1. e4 *\n\n",
    ),
    ("junk FEN", "[FEN \"9/9/9 x QQQQ z9 -1 0\"]\n\n1. e4 *\n\n"),
    // Variations opened before any move, closed too often, and nested in a dead line.
    (
        "odd variations",
        "( ( 1. e4 ) ) ) 1. e4 ( e5 ( d5 Qxd8 ( ( Nf3 ) ) ) ) e5 *\n\n",
    ),
    // Castling in Chess960 with rooks on both sides of the king, and a bogus variant.
    (
        "chess960",
        "[Variant \"Chess960\"]\n[FEN \"1r4kr/8/8/8/8/8/8/1R4KR w HBhb - 0 1\"]\n\n1. O-O O-O 2. O-O-O *\n\n",
    ),
    ("variant", "[Variant \"LONGTOKEN\"]\n\n1. e4 *\n\n"),
    // A lone CR inside a tag value, a BOM in mid-file, a % line, NULs in a comment.
    (
        "odd bytes",
        "[Event \"a\rb\"]\n\u{feff}%escaped\n1. e4 {\0\0} e5 ; ;\n*\n\n",
    ),
];

fn expand(pgn: &str) -> String {
    pgn.replace("LONGTOKEN", &"x".repeat(100_000))
}

#[test]
fn regression_inputs_stay_fixed() {
    for &(name, pgn) in CASES {
        let text = format!("{}{}{}", good_games(0, 1), expand(pgn), good_games(1, 1));
        for severities in [Severities::strict(), Severities::default()] {
            let mut replayer = Replayer::new(ReplayOptions {
                severities,
                ..ReplayOptions::default()
            });
            let mut reader = Reader::new("regression.pgn", text.as_bytes());
            let mut games = 0;
            while reader
                .read_game(&mut replayer)
                .expect("in memory")
                .is_some()
            {
                games += 1;
                for problem in &replayer.report().problems {
                    assert!(
                        problem.message.chars().count() <= 513,
                        "{name}: long message"
                    );
                    assert!(problem.san.as_ref().is_none_or(|s| s.chars().count() <= 33));
                }
            }
            assert!(games >= 3, "{name}: {games} games");
        }
        let c = check(std::path::Path::new("-"), Some(text.as_bytes()), name);
        let good: Vec<usize> = c.good().iter().map(|(n, _)| *n).collect();
        assert_eq!(good, [0, 1], "{name}");
        assert!(
            c.validate.stdout.len() < 16 << 10,
            "{name}: long diagnostics"
        );
    }
}

#[test]
fn header_only_games_with_many_tags_still_split_on_a_repeated_name() {
    // Past 32 tags the splitter keeps the names in a hash set: a repeat must still be seen.
    let section: String = (0..40).map(|i| format!("[T{i} \"v\"]\n")).collect();
    let text = format!("{section}{section}{section}");
    let games: Vec<_> = arbiter::pgn::Splitter::new(text.as_bytes())
        .map(Result::unwrap)
        .collect();
    assert_eq!(games.len(), 3);
    assert_eq!(games[1].first_line, 41);
    assert_eq!(games[2].bytes, section.as_bytes());
}
