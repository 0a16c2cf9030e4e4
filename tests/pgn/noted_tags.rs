//! The tag pairs the splitter notes and hands to the parser: every game reads exactly as it does
//! when the parser reads its tag section itself (a game made with `RawGame::new` carries no noted
//! pairs), on tag sections plain and not, and on the shared corpora and edge files.

use std::path::Path;

use arbiter::pgn::{RawGame, Splitter, parse_game};

use crate::util::{Game, Recorder, testdata};

/// Every game of `bytes`, read as cut by the splitter and read again from its bare bytes.
fn read_both_ways(bytes: &[u8]) -> Vec<(Game, Game)> {
    let mut splitter = Splitter::new(bytes);
    let mut game = RawGame::default();
    let mut recorder = Recorder::default();
    let mut pairs = Vec::new();
    while splitter.next_into(&mut game).expect("in-memory read") {
        let noted = parse_game(&game, &mut recorder);
        let mut bare = RawGame::new(game.index, game.bytes.clone());
        bare.first_line = game.first_line;
        bare.first_column = game.first_column;
        bare.end_line = game.end_line;
        bare.at_eof = game.at_eof;
        bare.too_large = game.too_large;
        let unnoted = parse_game(&bare, &mut recorder);
        pairs.push((noted, unnoted));
    }
    pairs
}

fn assert_same(bytes: &[u8], what: &str) {
    for (noted, unnoted) in read_both_ways(bytes) {
        assert_eq!(
            noted, unnoted,
            "{what}: game {} reads differently with the noted tags",
            noted.index
        );
    }
}

#[test]
fn tag_sections_plain_and_not_read_the_same() {
    let many: String = (0..40).map(|i| format!("[Tag{i} \"{i}\"]\n")).collect();
    let cases = [
        "[Event \"a\"]\n[Site \"b\"]\n\n1. e4 e5 1-0\n",
        "[Event \"a\"][Site \"b\"] [Date \"c\"]\r\n[Round \"d\"]\t\n\n1. e4 *\n",
        "[Event \"a \\\"quoted\\\" and \\\\ back\"]\n[Site \"C:\\\\x\"]\n1. e4 *\n",
        "[Event \"a\" ]\n[Site \"b\"]\n1. e4 *\n",
        "[ Event  \"a\"]\n[Site\t\"b\"]\n1. e4 *\n",
        "[Event \"a\"]\n; a comment\n[Site \"b\"]\n1. e4 *\n",
        "[Event \"a\"]\n%escape line\n[Site \"b\"]\n1. e4 *\n",
        "[Event \"a\"]\n[Site broken]\n[Date \"c\"]\n1. e4 *\n",
        "[Event \"a\"]\n[Site \"unclosed\n[Date \"c\"]\n1. e4 *\n",
        "[Event \"a\"]\n[Event \"again\"]\n1. e4 *\n",
        "[Event \"a\"] x [Site \"b\"]\n1. e4 *\n",
        "[Event \"R\u{e9}ti\"]\n[White \"\u{1F600}\"]\n1. e4 *\n",
        "[Event \"a\"]\n\u{feff}[Site \"b\"]\n1. e4 *\n",
        "[Event \"a\"]\u{b}\u{c}[Site \"b\"]\n1. e4 *\n",
        "[Event \"\"]\n[Site \"]\"]\n1. e4 *\n",
        many.as_str(),
    ];
    for case in cases {
        assert_same(case.as_bytes(), case);
        let doubled = format!("{case}\n{case}");
        assert_same(doubled.as_bytes(), case);
    }
    // Windows-1252 values.
    assert_same(b"[Event \"R\xe9ti\"]\n[Site \"\x80\"]\n1. e4 *\n", "cp1252");
}

#[test]
fn the_shared_corpora_and_edge_files_read_the_same() {
    let Some(data) = testdata() else {
        return;
    };
    let mut files = 0;
    for dir in ["corpora", "edge"] {
        visit(&data.join(dir), &mut |path| {
            if path.extension().is_some_and(|e| e == "pgn") {
                let bytes = std::fs::read(path).expect("readable test file");
                assert_same(&bytes, &path.display().to_string());
                files += 1;
            }
        });
    }
    assert!(files > 20, "only {files} PGN files found");
}

fn visit(dir: &Path, f: &mut dyn FnMut(&Path)) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .expect("readable test directory")
        .map(|e| e.expect("directory entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            visit(&path, f);
        } else {
            f(&path);
        }
    }
}
