//! Hostile text never panics: comments, `TimeControl` values and clock sequences made up of the
//! pieces the parsers look for, in any order, with any numbers.

use arbiter_core::clocks::{ClockEvidence, Command, MoveAnnotations, TimeControl, read_commands};
use arbiter_pgn::GameResult;
use arbiter_rules::Color;
use proptest::collection::vec;
use proptest::prelude::*;

/// Pieces of comment text, commands and their parts, to be strung together.
fn comment_piece() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("[%clk ".to_string()),
        Just("[%eval ".to_string()),
        Just("[%EMT".to_string()),
        Just("[%".to_string()),
        Just("[".to_string()),
        Just("]".to_string()),
        Just(":".to_string()),
        Just(".".to_string()),
        Just("#".to_string()),
        Just(",".to_string()),
        Just("-".to_string()),
        Just(" ".to_string()),
        Just("é".to_string()),
        "[0-9]{1,25}",
        "\\PC{0,3}",
    ]
}

proptest! {
    #[test]
    fn comments_never_panic(pieces in vec(comment_piece(), 0..24)) {
        let comment = pieces.concat();
        let mut count = 0;
        read_commands(&comment, |command| {
            count += 1;
            if let Command::Malformed(bad) = command {
                // The offset points at the command's `[`, and the message quotes it.
                assert_eq!(comment.as_bytes()[bad.offset], b'[');
                assert!(comment[bad.offset..].starts_with(bad.text));
                assert!(!bad.to_string().is_empty());
            }
        });
        prop_assert!(count <= comment.matches("[%").count());
        MoveAnnotations::default().read(&comment, |_| {});
    }

    #[test]
    fn time_controls_never_panic(pieces in vec(prop_oneof![
        Just("/".to_string()), Just("+".to_string()), Just(":".to_string()),
        Just("*".to_string()), Just("?".to_string()), Just("-".to_string()),
        Just(" ".to_string()), "[0-9]{1,12}",
    ], 0..12)) {
        let value = pieces.concat();
        match TimeControl::parse(&value) {
            Ok(tc) => {
                // What parses prints back to a value that parses to the same thing.
                prop_assert_eq!(TimeControl::parse(&tc.to_string()).unwrap(), tc.clone());
                let _ = (tc.base_seconds(), tc.increment_seconds(), tc.speed());
            }
            Err(error) => prop_assert!(error.to_string().starts_with("TimeControl \"")),
        }
    }

    #[test]
    fn clock_sequences_never_panic(
        time_control in "[0-9]{1,10}(/[0-9]{1,10})?(\\+[0-9]{1,10})?(:[0-9]{1,10}(\\+[0-9]{1,3})?)?",
        clocks in vec(proptest::option::of(any::<u32>()), 0..200),
        result in 0..4u8,
    ) {
        let tc = TimeControl::parse(&time_control).ok();
        let mut evidence = ClockEvidence::new();
        evidence.begin_game(tc.as_ref());
        for (i, clock) in clocks.iter().enumerate() {
            let mover = if i % 2 == 0 { Color::White } else { Color::Black };
            evidence.ply(i as u32 + 1, mover, *clock, |w| assert_eq!(w.ply(), i as u32 + 1));
        }
        let result = [GameResult::WhiteWins, GameResult::BlackWins, GameResult::Draw,
            GameResult::Unknown][usize::from(result)];
        evidence.end_game(Some("Time forfeit"), result, |w| assert!(!w.to_string().is_empty()));
    }
}
