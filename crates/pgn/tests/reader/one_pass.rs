//! The one-pass reading against the general way (cut, then parse): the same games,
//! tokens, locations, errors and raw bytes, on every real file, at any read size, and on damaged
//! copies of real games. (Every test that reads through `reader::read_with` compares both ways too.)

use std::fs;
use std::io::{self, Read};

use arbiter_test_support::reader::{
    Random, Recorder, assert_same_games, damage, games_to_damage, pgn_files, read_limited,
    read_recording, testdata,
};

/// Reads `bytes` both ways (the one-pass way through `reader`) and asserts they agree; returns
/// how many games there were and how many went the one-pass way.
fn compare(bytes: &[u8], reader: impl Read, what: &str) -> (u64, u64) {
    let (general, _) = read_recording(bytes, Recorder::default());
    let (one_pass, recorder) = read_recording(reader, Recorder::default().one_pass());
    assert_same_games(&general, &one_pass, what);
    (general.len() as u64, recorder.one_pass_games)
}

/// A reader that hands out its bytes in pieces of random sizes, to cut games at every place.
struct Pieces<'a> {
    bytes: &'a [u8],
    random: Random,
    largest: usize,
}

impl Read for Pieces<'_> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        let n = (1 + self.random.below(self.largest))
            .min(out.len())
            .min(self.bytes.len());
        out[..n].copy_from_slice(&self.bytes[..n]);
        self.bytes = &self.bytes[n..];
        Ok(n)
    }
}

#[test]
fn real_files_read_the_same_in_one_pass_and_most_games_take_it() {
    let Some(data) = testdata() else { return };
    let mut files = pgn_files(&data.join("corpora"));
    let corpora = files.len();
    files.extend(pgn_files(&data.join("edge")));
    files.extend(pgn_files(
        &arbiter_test_support::workspace_root().join("testdata"),
    ));
    assert!(corpora >= 10 && files.len() > corpora + 50, "too few files");
    let (mut games, mut one_pass) = (0, 0);
    for (i, path) in files.iter().enumerate() {
        let bytes = fs::read(path).expect("read test file");
        let (n, p) = compare(&bytes, &bytes[..], &path.display().to_string());
        if i < corpora {
            games += n;
            one_pass += p;
        }
    }
    // The corpora are real archives, LF and CRLF: nearly every game is a one-pass game.
    assert!(games > 15_000, "only {games} corpus games");
    assert!(
        one_pass * 100 >= games * 99,
        "only {one_pass} of {games} corpus games were read in one pass"
    );
}

#[test]
fn read_sizes_do_not_matter() {
    let Some(data) = testdata() else { return };
    let mut random = Random(0x9e37_79b9_7f4a_7c15);
    let mut inputs = vec![
        fs::read(data.join("corpora/samples/lichess_db_1000k.pgn")).expect("lichess sample"),
        fs::read(data.join("corpora/pgnmentor-players/Carlsen.pgn")).expect("Carlsen"),
    ];
    inputs.extend(
        pgn_files(&data.join("edge"))
            .iter()
            .map(|p| fs::read(p).expect("edge file")),
    );
    for (i, bytes) in inputs.iter().enumerate() {
        for largest in [1, 7, 300, 5000, 200_000] {
            let pieces = Pieces {
                bytes,
                random: Random(random.below(usize::MAX) as u64 | 1),
                largest,
            };
            compare(
                bytes,
                pieces,
                &format!("input {i} read in pieces of 1..={largest}"),
            );
        }
    }
}

#[test]
fn damaged_games_read_the_same_in_one_pass() {
    let Some(data) = testdata() else { return };
    let mut random = Random(0x2545_f491_4f6c_dd1d);
    let sources = games_to_damage(&data);
    let mut mutants = 0;
    for source in &sources {
        for _ in 0..40 {
            let bytes = damage(source, &mut random);
            let pieces = Pieces {
                bytes: &bytes,
                random: Random(random.below(usize::MAX) as u64 | 1),
                largest: 1 + random.below(3000),
            };
            compare(&bytes, &bytes[..], &format!("mutant {mutants}"));
            compare(&bytes, pieces, &format!("mutant {mutants} in pieces"));
            mutants += 1;
        }
    }
    assert!(mutants > 1000, "only {mutants} mutants");
}

/// The one-pass reader's quick tokens (short moves, move numbers, lichess's clock comments, each
/// with the space after it) and the forms next to them that it leaves to the general rules, in
/// random games: read as the general way reads them, whole and in pieces, wherever they stand
/// against the end of the bytes.
#[test]
fn quick_tokens_and_their_neighbours_read_the_same_in_one_pass() {
    const TOKENS: [&str; 24] = [
        "e4",
        "Nf3",
        "Qh4xe1+",
        "Qh4xe1+#",
        "Nbxd2+!",
        "e4!?",
        "exd6e.p.",
        "O-O",
        "e8=Q+",
        "1.",
        "12.",
        "1...",
        "1....",
        "12345.",
        "1. ...",
        "9999.",
        "{ [%clk 0:03:00] }",
        "{ [%clk 0:03:00]  }",
        "{ [%clk 0:60:00] }",
        "{ [%eval 0.17] [%clk 0:03:00] }",
        "$1",
        "(",
        ")",
        "{x}",
    ];
    const SPACES: [&str; 8] = [" ", " ", " ", "", "  ", "\t", "\n", "\r\n"];
    let mut random = Random(0x51_7cc1_b727_220a);
    let (mut games, mut one_pass) = (0, 0);
    for game in 0..400 {
        let mut text = String::from("[Event \"quick\"]\n\n");
        let mut depth = 0;
        for _ in 0..random.below(60) {
            let token = TOKENS[random.below(TOKENS.len())];
            match token {
                "(" => depth += 1,
                ")" if depth == 0 => continue,
                ")" => depth -= 1,
                _ => {}
            }
            text.push_str(token);
            text.push_str(SPACES[random.below(SPACES.len())]);
        }
        text.push_str(&")".repeat(depth));
        text.push_str(" 1-0\n\n");
        let bytes = text.repeat(1 + random.below(3)).into_bytes();
        let pieces = Pieces {
            bytes: &bytes,
            random: Random(random.below(usize::MAX) as u64 | 1),
            largest: 1 + random.below(400),
        };
        let (n, p) = compare(&bytes, &bytes[..], &format!("game {game}: {text}"));
        compare(&bytes, pieces, &format!("game {game} in pieces: {text}"));
        games += n;
        one_pass += p;
    }
    // Most games are one-pass games (a lone `$1` or `e4!?` is not what stops one).
    assert!(
        one_pass * 2 > games,
        "{one_pass} of {games} games read in one pass"
    );
}

/// A visitor that panics at one move, and otherwise returns each game's number.
struct PanicAt {
    san: &'static str,
    one_pass: bool,
}

impl arbiter_pgn::Visitor for PanicAt {
    type Output = u64;

    fn san(&mut self, san: &str, _: arbiter_pgn::Location) {
        assert_ne!(san, self.san, "a bug in the visitor");
    }
    fn one_pass(&self) -> bool {
        self.one_pass
    }
    fn end_game(&mut self, game: &arbiter_pgn::GameInfo<'_>) -> u64 {
        game.index()
    }
}

#[test]
fn a_panic_in_the_visitor_loses_only_its_game() {
    use std::panic::{AssertUnwindSafe, catch_unwind};
    let pgn = "[A \"1\"]\n\n1. e4 1-0\n\n[A \"2\"]\n\n1. d4 Nf6 0-1\n\n[A \"3\"]\n\n1. c4 *\n";
    for one_pass in [true, false] {
        let mut visitor = PanicAt {
            san: "Nf6",
            one_pass,
        };
        let mut reader = arbiter_pgn::Reader::new("test.pgn", pgn.as_bytes());
        let mut seen = Vec::new();
        // Bounded: a reader that did not move past the game would panic on it forever.
        for _ in 0..10 {
            match catch_unwind(AssertUnwindSafe(|| reader.read_game(&mut visitor))) {
                Ok(Ok(Some(index))) => seen.push(index),
                Ok(Ok(None)) => break,
                Ok(Err(err)) => panic!("{err}"),
                Err(_) => {
                    let game = reader.recover().expect("the reader itself is fine");
                    assert_eq!((game.index, game.first_line), (2, 5));
                    seen.push(100 + game.index);
                }
            }
        }
        assert_eq!(seen, [1, 102, 3], "one_pass: {one_pass}");
    }
}

#[test]
fn the_size_limit_does_not_depend_on_read_sizes() {
    // A comment that quotes a tag line closes only if its `}` comes within the size limit: where
    // the `}` stands decides, not how much of the input a read had brought in.
    let limit = 120;
    let head = "[Event \"a\"]\n\n1. e4 { see\n[Event \"quoted\"]\n";
    let mut random = Random(0x1234_5678_9abc_def1);
    for filler in 40..110 {
        for tail in [
            "} e5 *\n",
            "}\n[Event \"next\"]\n\n1. d4 *\n",
            "",
            "{ 1-0\n",
        ] {
            let text = format!("{head}{}{tail}", "x".repeat(filler));
            let bytes = text.as_bytes();
            let general = read_limited(bytes, Recorder::default(), limit);
            for largest in [1, 7, 50, 1000] {
                for recorder in [Recorder::default(), Recorder::default().one_pass()] {
                    let pieces = Pieces {
                        bytes,
                        random: Random(random.below(usize::MAX) as u64 | 1),
                        largest,
                    };
                    let games = read_limited(pieces, recorder, limit);
                    let what = format!("{filler} bytes, then {tail:?}, pieces of 1..={largest}");
                    assert_same_games(&general, &games, &what);
                }
            }
        }
    }
}
