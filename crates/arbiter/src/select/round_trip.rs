//! The round trip of select's PGN (issue 27 point 2), as a property: for generated games (tags
//! with quotes and backslashes, repeated and roster tags; moves in canonical SAN and in forms
//! the replay forgives; move numbers or none; comments with commands and line breaks, `;`
//! comments; NAGs; variations, nested), the PGN written from a valid game's tree reads back as
//! the same game (the same tags, roster first; the same moves, comments folded as written, NAGs,
//! variations and marker; the same export record) and is written again byte for byte.

use proptest::prelude::*;
use proptest::strategy::ValueTree;

use crate::pgn::{GameResult, Reader};
use crate::report::output::GameNumber;
use crate::report::record::ExportRecord;
use crate::rules::{Color, Position, san};
use crate::tree::{GameTree, Node, WriteOptions, write_game};
use crate::{ReplayOptions, Replayer};

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

/// What a game of the generator is made of: its tags, then each step's move choice, how the
/// move is written, what follows it, and the result.
#[derive(Clone, Debug)]
struct Recipe {
    tags: Vec<(String, String)>,
    steps: Vec<(u16, u8, u8, String)>,
    result: u8,
    result_tag: bool,
}

fn recipe() -> impl Strategy<Value = Recipe> {
    let name = prop_oneof![
        Just("Event".to_owned()),
        Just("White".to_owned()),
        Just("Date".to_owned()),
        Just("ECO".to_owned()),
        "[A-Z][A-Za-z0-9_]{0,8}",
    ];
    let value = "[ a-z0-9\"\\\\é.?%{}\\[\\]-]{0,12}";
    let comment = "[ a-z0-9\\n\\t{%\\[\\]:;.-]{0,30}";
    (
        prop::collection::vec((name, value), 0..6),
        prop::collection::vec((any::<u16>(), any::<u8>(), any::<u8>(), comment), 0..50),
        0u8..4,
        any::<bool>(),
    )
        .prop_map(|(tags, steps, result, result_tag)| Recipe {
            tags,
            steps,
            result,
            result_tag,
        })
}

/// `value` as a tag value is written: quotes and backslashes escaped.
fn escaped(value: &str) -> String {
    value.replace('\\', "\\\\").replace('"', "\\\"")
}

/// The PGN text of `recipe`: moves chosen among the legal ones, written as the step says.
fn game_text(recipe: &Recipe) -> String {
    let results = ["1-0", "0-1", "1/2-1/2", "*"];
    let result = results[usize::from(recipe.result)];
    let mut text = String::new();
    for (name, value) in &recipe.tags {
        text.push_str(&format!("[{name} \"{}\"]\n", escaped(value)));
    }
    if recipe.result_tag {
        text.push_str(&format!("[Result \"{result}\"]\n"));
    }
    text.push('\n');
    let mut pos = Position::startpos();
    let mut depth = 0;
    for (choice, form, after, comment) in &recipe.steps {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        let mv = moves[usize::from(*choice) % moves.len()];
        let number = pos.fullmoves();
        if pos.turn() == Color::White {
            text.push_str(&format!("{number}. "));
        } else if form & 8 != 0 {
            text.push_str(&format!("{number}... "));
        }
        let canonical = san::write(&pos, mv).to_string();
        // A forgiven form: the check mark left out, or the origin square written out.
        let written = match form & 3 {
            1 => canonical.trim_end_matches(['+', '#']).to_owned(),
            2 if !canonical.starts_with('O') && !canonical.contains('=') => {
                let piece = canonical
                    .chars()
                    .next()
                    .filter(char::is_ascii_uppercase)
                    .map(String::from)
                    .unwrap_or_default();
                format!("{piece}{}{}", mv.from(), mv.to())
            }
            _ => canonical,
        };
        text.push_str(&written);
        text.push(' ');
        match after % 8 {
            1 => text.push_str(&format!("${} ", after / 8)),
            2 => text.push_str(&format!("{{{comment}}} ")),
            3 => text.push_str(&format!(";{}\n", comment.replace('\n', " "))),
            4 if moves.len() > 1 => {
                // A variation replacing the move: another move, perhaps a reply, perhaps left
                // open to nest the next one.
                let alt = moves[(usize::from(*choice) + 1) % moves.len()];
                text.push_str(&format!("( {} ", san::write(&pos, alt)));
                if after & 16 != 0 && depth < 3 {
                    depth += 1;
                    let mut inner = pos.clone();
                    inner.play_unchecked(alt);
                    if let Some(&reply) = inner.legal_moves().first() {
                        text.push_str(&format!("{{{comment}}} {} ", san::write(&inner, reply)));
                    }
                    depth -= 1;
                }
                text.push_str(") ");
            }
            5 => text.push_str("! "),
            _ => {}
        }
        pos.play_unchecked(mv);
    }
    text.push_str(result);
    text.push_str("\n\n");
    text
}

/// `text` with its runs of whitespace folded into single spaces, and trimmed: a comment as the
/// writer writes it.
fn folded(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
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

/// Each node of `tree`, comments folded, for comparison.
fn nodes(tree: &GameTree) -> Vec<String> {
    tree.nodes()
        .iter()
        .map(|node| match *node {
            Node::Comment(span) => format!("{{{}}}", folded(tree.text(span))),
            other => format!("{other:?}"),
        })
        .collect()
}

/// The record of a game as read back, with the fields a missing roster tag changes (`?` and
/// `????.??.??` for nothing, the Result written) set as the first read has them.
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
    record
}

/// Reads every game of `text`, writes each valid one from its tree, and checks the round trip.
/// Returns how many games were written from their trees.
fn check_round_trip(text: &str) -> Result<usize, TestCaseError> {
    let options = ReplayOptions {
        tree: true,
        ..ReplayOptions::default()
    };
    let mut first = Replayer::new(options.clone());
    let mut second = Replayer::new(options);
    let mut reader = Reader::new("a.pgn", text.as_bytes());
    let mut written = 0;
    let number = GameNumber::Known { run: 1, input: 1 };
    while let Some(()) = reader.read_game(&mut first).unwrap() {
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
        let mut again = Reader::new("a.pgn", &pgn[..]);
        prop_assert!(again.read_game(&mut second).unwrap().is_some());
        let back = second.report();
        let shown = String::from_utf8_lossy(&pgn);
        prop_assert_eq!(back.errors, 0, "{}", shown);
        let got: Vec<(String, String)> = back
            .tree
            .tags()
            .map(|(n, v)| (n.to_owned(), v.to_owned()))
            .collect();
        prop_assert_eq!(got, expected_tags(tree, result), "{}", shown);
        prop_assert_eq!(nodes(&back.tree), nodes(tree), "{}", shown);
        prop_assert_eq!(back.tree.termination_marker(), Some(result));
        let before = ExportRecord::from_report("a.pgn", number, report);
        let after = ExportRecord::from_report("a.pgn", number, back);
        prop_assert_eq!(normalized(after, &before, result), before, "{}", shown);
        let mut twice = Vec::new();
        write_game(
            &back.tree,
            result,
            None,
            &WriteOptions::default(),
            &mut twice,
        );
        prop_assert_eq!(String::from_utf8_lossy(&twice), shown);
        prop_assert!(again.read_game(&mut second).unwrap().is_none());
        written += 1;
    }
    Ok(written)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn a_written_game_reads_back_the_same(recipe in recipe()) {
        let text = game_text(&recipe);
        check_round_trip(&text)?;
    }
}

#[test]
fn the_generator_makes_games_that_are_written() {
    // Most generated games are valid, so that the property checks what it says.
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let mut written = 0;
    for _ in 0..100 {
        let recipe = recipe().new_tree(&mut runner).unwrap().current();
        written += check_round_trip(&game_text(&recipe)).unwrap();
    }
    assert!(written >= 90, "{written} of 100");
}
