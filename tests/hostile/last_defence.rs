//! The last line of defence: a panic while replaying one game (a bug of ours) is caught, reported
//! as an internal error located at that game, and the run goes on with the next game.

use std::sync::Arc;

use arbiter::cli::games::{Batch, GameFormatter, replay_batch_with};
use arbiter::pgn::{RawGame, Splitter, parse_game};
use arbiter::replay::{GameReport, ReplayOptions, Replayer};

use crate::util::good_games;

/// Keeps what it was asked to format.
#[derive(Default)]
struct Seen(Vec<(u64, u64, u32, String, String)>);

impl GameFormatter for Seen {
    fn format(&mut self, _source: &str, index: u64, report: &GameReport, out: &mut Vec<u8>) {
        let problem = report.problems.first();
        self.0.push((
            index,
            report.index,
            report.errors,
            problem
                .map(|p| format!("{} {}", p.code, p.at))
                .unwrap_or_default(),
            report.tags.event.clone(),
        ));
        out.extend_from_slice(format!("record {index}\n").as_bytes());
    }
}

#[test]
fn a_panic_in_one_game_is_reported_there_and_the_run_goes_on() {
    let text = format!("\n\n{}", good_games(0, 4));
    let games: Vec<RawGame> = Splitter::new(text.as_bytes()).map(Result::unwrap).collect();
    assert_eq!(games.len(), 4);
    let third_line = games[2].first_line;
    let batch = Batch {
        source: Arc::from("games.pgn"),
        games,
        first_index: 11,
    };
    let mut replayer = Replayer::new(ReplayOptions::default());
    let mut seen = Seen::default();
    let output = replay_batch_with(&mut replayer, &mut seen, batch, |replayer, game| {
        if game.index == 3 {
            // Half-way through the game, as a bug in the rules core would.
            let mut half = game.clone();
            half.bytes.truncate(half.bytes.len() / 2);
            parse_game(&half, replayer);
            panic!("injected failure in game {}", game.index);
        }
        parse_game(game, replayer)
    });
    assert_eq!((output.games, output.valid, output.invalid), (4, 3, 1));
    assert_eq!(output.invalid_main_lines, 1);
    assert_eq!(
        String::from_utf8(output.bytes).unwrap(),
        "record 11\nrecord 12\nrecord 13\nrecord 14\n"
    );
    let seen = seen.0;
    assert_eq!(seen[2].0, 13);
    assert_eq!(seen[2].1, 3, "the report names the game");
    assert_eq!(seen[2].2, 1);
    assert_eq!(seen[2].3, format!("internal_error {third_line}:1"));
    // The games after it are replayed afresh, with nothing left over from the failed one.
    assert_eq!(seen[3].2, 0);
    assert_eq!(seen[3].4, "good 3");
    assert_eq!(replayer.report().plies, 7);
}

#[test]
fn the_internal_error_message_names_the_panic() {
    let games: Vec<RawGame> = Splitter::new(good_games(0, 1).as_bytes())
        .map(Result::unwrap)
        .collect();
    let batch = Batch {
        source: Arc::from("games.pgn"),
        games,
        first_index: 1,
    };
    struct Message(String);
    impl GameFormatter for Message {
        fn format(&mut self, _: &str, _: u64, report: &GameReport, _: &mut Vec<u8>) {
            self.0 = report.first_error.clone();
        }
    }
    let mut message = Message(String::new());
    let mut replayer = Replayer::new(ReplayOptions::default());
    replay_batch_with(&mut replayer, &mut message, batch, |_, _| {
        let owned = String::from("an owned message");
        std::panic::panic_any(owned)
    });
    assert!(
        message.0.starts_with("1:1: internal error"),
        "{}",
        message.0
    );
    assert!(message.0.contains("an owned message"), "{}", message.0);
}
