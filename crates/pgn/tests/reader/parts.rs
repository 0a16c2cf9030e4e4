//! Reading one input in parts, cut where [`last_game_start`] says a game surely starts, finds the
//! same games as reading it whole: tokens, `line:column`s, errors, raw bytes, end lines. This is
//! what lets `--jobs N` read one huge file on N cores, so it is checked on every real file, at
//! many part sizes, and on damaged copies of real games.

use std::fs;

use arbiter_pgn::{PartEnd, Reader, last_game_start, line_ends};
use arbiter_test_support::reader::{
    Game, Random, Recorder, assert_same_games, damage, games_to_damage, pgn_files, read_recording,
    testdata,
};

/// Reads `bytes` in parts of about `size` bytes (more where no game surely starts), as the game
/// pipeline cuts them; returns the games, numbered across the parts, and how many parts there were.
fn read_in_parts(bytes: &[u8], size: usize, recorder: &mut Recorder) -> (Vec<Game>, usize) {
    let (mut games, mut parts) = (Vec::new(), 0);
    let (mut start, mut line) = (0, 1);
    let mut end = start + size;
    loop {
        let (part_end, how) = if end >= bytes.len() {
            (bytes.len(), PartEnd::Last(None))
        } else {
            let searched = end.saturating_sub(size + 4096).max(start) - start;
            match last_game_start(&bytes[start..end], searched) {
                Some(b) => (start + b, PartEnd::MoreFollows),
                None => {
                    end += size;
                    continue;
                }
            }
        };
        let part = &bytes[start..part_end];
        let last = matches!(how, PartEnd::Last(_));
        let mut reader = Reader::part("test.pgn", part.to_vec(), start as u64, line, how);
        let before = games.len() as u64;
        while let Some(mut game) = reader.read_game(recorder).expect("in-memory read") {
            game.index += before;
            for error in &mut game.errors {
                error.game += before;
            }
            games.push(game);
        }
        parts += 1;
        if last {
            return (games, parts);
        }
        line += line_ends(part);
        start = part_end;
        end = start + size;
    }
}

/// Reads `bytes` whole and in parts of `size`, both ways (cut then parsed, and one pass), and
/// asserts that all agree; returns how many parts there were.
fn compare(bytes: &[u8], size: usize, what: &str) -> usize {
    let (whole, _) = read_recording(bytes, Recorder::default());
    let mut parts = 0;
    for mut recorder in [Recorder::default(), Recorder::default().one_pass()] {
        let (in_parts, n) = read_in_parts(bytes, size, &mut recorder);
        assert_same_games(&whole, &in_parts, &format!("{what}, in parts of {size}"));
        parts = n;
    }
    parts
}

#[test]
fn real_files_read_the_same_in_parts() {
    let Some(data) = testdata() else { return };
    let mut files = pgn_files(&data.join("corpora"));
    files.extend(pgn_files(&data.join("edge")));
    files.extend(pgn_files(
        &arbiter_test_support::workspace_root().join("testdata"),
    ));
    let mut parts = 0;
    for path in &files {
        let bytes = fs::read(path).expect("read test file");
        for size in [1 << 10, 64 << 10] {
            parts += compare(&bytes, size, &path.display().to_string());
        }
    }
    // The corpora hold about 23 MB in about 15,800 games: parts of 1 KiB (at least a game each)
    // must have been cut after nearly every game.
    assert!(parts > 15_000, "only {parts} parts");
}

#[test]
fn the_lichess_sample_is_cut_near_every_part_size() {
    let Some(data) = testdata() else { return };
    let bytes =
        fs::read(data.join("corpora/samples/lichess_db_1000k.pgn")).expect("lichess sample");
    let size = 16 << 10;
    let parts = compare(&bytes, size, "lichess");
    // No part grows much beyond its size: a game starts after nearly every result line.
    assert!(
        parts + 2 >= bytes.len() / size,
        "{parts} parts of {} bytes",
        bytes.len()
    );
}

#[test]
fn damaged_games_read_the_same_in_parts() {
    let Some(data) = testdata() else { return };
    let mut random = Random(0x51_7cc1_b727_220a);
    let sources = games_to_damage(&data);
    let (mut mutants, mut parts) = (0, 0);
    for source in &sources {
        for _ in 0..40 {
            let bytes = damage(source, &mut random);
            let size = 1 + random.below(3000);
            parts += compare(&bytes, size, &format!("mutant {mutants}"));
            mutants += 1;
        }
    }
    assert!(mutants > 1000, "only {mutants} mutants");
    assert!(parts > 20_000, "only {parts} parts");
}

#[test]
fn tags_over_lines_and_comments_that_quote_games_read_the_same_cut_anywhere() {
    // Parts of every size, so that a part's first read ends at every byte of the tag pair over
    // lines and of the comment (issue 30, points 1 and 2).
    let text = "[Event \"a\"]\n[Site\n\"Here\"]\n[Date \"x\"]\n\n1. e4 e5 1-0\n\n\
                [Event \"b\"]\n[Site \"Here\"\n]\n\n1. d4 {Compare the two classics:\n\
                [Event \"Game A\"]\n\n1. d4 *\n\n[Event \"Game B\"]\n} d5 *\n\n\
                [Event \"c\"]\n\n1. c4 { open\n[Event \"d\"]\n\n1. Nf3 *\n\n[Event \"e\"]\n\n\
                1. g3 { [%clk 0:03:00] } *\n";
    let bytes = text.as_bytes();
    let (whole, _) = read_recording(bytes, Recorder::default());
    assert_eq!(whole.len(), 5, "{whole:#?}");
    for size in 1..=bytes.len() {
        compare(bytes, size, "tags over lines and quoting comments");
    }
}
