//! The round trip select promises (issue 27 point 2), as a check: every valid game of a text,
//! written from its tree, reads back with no error as the same game (the same tags, the Seven
//! Tag Roster first with a missing one filled in; the same moves, comments with their whitespace
//! folded as written, NAGs, variations and marker; the same export record) and is written again
//! byte for byte. The property test (`round_trip.rs`) and the `select_roundtrip` fuzz
//! target run it.

use arbiter_core::replay::{ReplayOptions, Replayer};
use arbiter_core::tree::{GameTree, Node};
use arbiter_pgn::{GameResult, Reader};
use arbiter_report::output::GameNumber;
use arbiter_report::pgn_writer::{ROSTER, WriteOptions, write_game};
use arbiter_report::record::ExportRecord;

/// Reads every game of `text` (named `name`), writes each valid one from its tree, and checks
/// the round trip. Returns how many games were written from their trees, or what differed, with
/// the PGN written.
pub fn check_round_trip(name: &str, text: &[u8]) -> Result<usize, String> {
    let options = ReplayOptions {
        tree: true,
        ..ReplayOptions::default()
    };
    let mut first = Replayer::new(options.clone());
    let mut second = Replayer::new(options);
    let mut reader = Reader::new(name, text);
    let mut written = 0;
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
        let fail = |what: String| Err(format!("{what}, in the game written:\n{shown}"));
        let mut again = Reader::new(name, &pgn[..]);
        let read = |again: &mut Reader<&[u8]>, second: &mut Replayer| {
            again.read_game(second).expect("in-memory reads never fail")
        };
        if read(&mut again, &mut second).is_none() {
            return fail("no game read back".into());
        }
        let back = second.report();
        if back.errors != 0 {
            return fail(format!("{} errors read back", back.errors));
        }
        let tags: Vec<(String, String)> = back
            .tree
            .tags()
            .map(|(n, v)| (n.to_owned(), v.to_owned()))
            .collect();
        let expected = expected_tags(tree, result);
        if tags != expected {
            return fail(format!("tags {tags:?}, expected {expected:?}"));
        }
        let (got, expected) = (nodes(&back.tree), nodes(tree));
        if got != expected {
            return fail(format!("nodes {got:?}, expected {expected:?}"));
        }
        if back.tree.termination_marker() != Some(result) {
            return fail(format!("marker {:?}", back.tree.termination_marker()));
        }
        let before = ExportRecord::from_report(name, number, report);
        let after = normalized(
            ExportRecord::from_report(name, number, back),
            &before,
            result,
        );
        if after != before {
            return fail(format!("record {after:?}, expected {before:?}"));
        }
        let mut twice = Vec::new();
        write_game(
            &back.tree,
            result,
            None,
            &WriteOptions::default(),
            &mut twice,
        );
        if twice != pgn {
            let twice = String::from_utf8_lossy(&twice).into_owned();
            return fail(format!("written again otherwise:\n{twice}"));
        }
        if read(&mut again, &mut second).is_some() {
            return fail("more than one game read back".into());
        }
        written += 1;
    }
    Ok(written)
}

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

/// Each node of `tree`, comments with their whitespace folded (as the writer writes them), for
/// comparison.
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

/// The record of a game as read back, with the fields a missing roster tag changes (`?` and
/// `????.??.??` for nothing, the Result written) and its offset set as the first read has them.
fn normalized<'a>(
    written: ExportRecord<'a>,
    read: &ExportRecord<'a>,
    result: GameResult,
) -> ExportRecord<'a> {
    let mut record = written;
    for (field, original, missing) in [
        (&mut record.result, read.result, result.as_str()),
        (&mut record.event, read.event, "?"),
        (&mut record.site, read.site, "?"),
        (&mut record.date, read.date, "????.??.??"),
        (&mut record.round, read.round, "?"),
        (&mut record.white, read.white, "?"),
        (&mut record.black, read.black, "?"),
    ] {
        if original.is_empty() && *field == missing {
            *field = original;
        }
    }
    // Where the game stands in its text: the written text lays it out anew.
    record.offset = read.offset;
    record
}
