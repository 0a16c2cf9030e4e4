//! select's round trip (issue 27 point 2) on arbitrary PGN: every game that select writes from
//! its tree (a valid game, every move replayed, a Result it can write) reads back with no error
//! as the same game: the same tags (the Seven Tag Roster first, a missing one filled in), the
//! same moves, comments (whitespace folded, as written), NAGs, variations and marker, the same
//! export record; and it is written again byte for byte. Nothing panics.

#![no_main]

use arbiter::pgn::{GameResult, Reader};
use arbiter::{
    ExportRecord, GameNumber, GameTree, Node, ReplayOptions, Replayer, WriteOptions, write_game,
};
use libfuzzer_sys::fuzz_target;

/// The roster as the writer fills it in: a missing tag's value.
const ROSTER: [(&str, &str); 7] = [
    ("Event", "?"),
    ("Site", "?"),
    ("Date", "????.??.??"),
    ("Round", "?"),
    ("White", "?"),
    ("Black", "?"),
    ("Result", "*"),
];

/// The tags `tree` is written with, `result` its Result: the roster first, then the others.
fn expected_tags(tree: &GameTree, result: GameResult) -> Vec<(String, String)> {
    let mut tags: Vec<(String, String)> = ROSTER
        .iter()
        .map(|&(name, missing)| {
            let value = match name {
                "Result" => result.as_str(),
                _ => tree.tag_value(name).unwrap_or(missing),
            };
            (name.to_owned(), value.to_owned())
        })
        .collect();
    tags.extend(
        tree.tags()
            .filter(|(name, _)| !ROSTER.iter().any(|&(roster, _)| roster == *name))
            .map(|(name, value)| (name.to_owned(), value.to_owned())),
    );
    tags
}

/// Each node of `tree`, comments folded, for comparison.
fn nodes(tree: &GameTree) -> Vec<String> {
    tree.nodes()
        .iter()
        .map(|node| match *node {
            Node::Comment(span) => {
                let words: Vec<&str> = tree.text(span).split_whitespace().collect();
                format!("{{{}}}", words.join(" "))
            }
            other => format!("{other:?}"),
        })
        .collect()
}

fuzz_target!(|data: &[u8]| {
    let options = ReplayOptions {
        tree: true,
        ..ReplayOptions::default()
    };
    let mut first = Replayer::new(options.clone());
    let mut second = Replayer::new(options);
    let mut reader = Reader::new("fuzz.pgn", data);
    let number = GameNumber::Known { run: 1, input: 1 };
    while let Some(()) = reader
        .read_game(&mut first)
        .expect("in-memory reads never fail")
    {
        let report = first.report();
        let tree = &report.tree;
        let Some(result) = tree
            .declared_result()
            .filter(|_| report.errors == 0 && tree.is_complete())
        else {
            continue;
        };
        let mut pgn = Vec::new();
        write_game(tree, result, None, &WriteOptions::default(), &mut pgn);
        let shown = String::from_utf8_lossy(&pgn);
        let mut again = Reader::new("fuzz.pgn", &pgn[..]);
        assert!(again.read_game(&mut second).unwrap().is_some(), "{shown}");
        let back = second.report();
        assert_eq!(back.errors, 0, "{shown}");
        let tags: Vec<(String, String)> = back
            .tree
            .tags()
            .map(|(n, v)| (n.to_owned(), v.to_owned()))
            .collect();
        assert_eq!(tags, expected_tags(tree, result), "{shown}");
        assert_eq!(nodes(&back.tree), nodes(tree), "{shown}");
        assert_eq!(back.tree.termination_marker(), Some(result), "{shown}");
        let before = ExportRecord::from_report("fuzz.pgn", number, report);
        let mut after = ExportRecord::from_report("fuzz.pgn", number, back);
        for (field, original, missing) in [
            (&mut after.result, before.result, result.as_str()),
            (&mut after.event, before.event, "?"),
            (&mut after.site, before.site, "?"),
            (&mut after.date, before.date, "????.??.??"),
            (&mut after.round, before.round, "?"),
            (&mut after.white, before.white, "?"),
            (&mut after.black, before.black, "?"),
        ] {
            if original.is_empty() && *field == missing {
                *field = original;
            }
        }
        assert_eq!(after, before, "{shown}");
        let mut twice = Vec::new();
        write_game(
            &back.tree,
            result,
            None,
            &WriteOptions::default(),
            &mut twice,
        );
        assert!(
            twice == pgn,
            "written again otherwise:\n{shown}\n{}",
            String::from_utf8_lossy(&twice)
        );
        assert!(again.read_game(&mut second).unwrap().is_none(), "{shown}");
    }
});
