//! The round trip of select's PGN (issue 27 point 2), as a property: for generated games (tags
//! with quotes and backslashes, repeated and roster tags; moves in canonical SAN and in forms
//! the replay forgives; move numbers or none; comments with commands and line breaks, `;`
//! comments; NAGs; variations, nested), the PGN written from a valid game's tree reads back as
//! the same game (the same tags, roster first; the same moves, comments folded as written, NAGs,
//! variations and marker; the same export record) and is written again byte for byte.

use arbiter_rules::{Color, Position, san};
use proptest::prelude::*;
use proptest::strategy::ValueTree;

use super::check::check_round_trip;

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

/// The round trip of every game of `text` ([`check_round_trip`]), as a property's result.
fn round_trip(text: &str) -> Result<usize, TestCaseError> {
    check_round_trip("a.pgn", text.as_bytes()).map_err(TestCaseError::fail)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn a_written_game_reads_back_the_same(recipe in recipe()) {
        let text = game_text(&recipe);
        round_trip(&text)?;
    }
}

#[test]
fn the_generator_makes_games_that_are_written() {
    // Most generated games are valid, so that the property checks what it says.
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let mut written = 0;
    for _ in 0..100 {
        let recipe = recipe().new_tree(&mut runner).unwrap().current();
        written += round_trip(&game_text(&recipe)).unwrap();
    }
    assert!(written >= 90, "{written} of 100");
}
