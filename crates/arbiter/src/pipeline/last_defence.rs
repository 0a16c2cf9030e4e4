//! The last line of defence: a panic while replaying one game (a bug of ours) is caught, reported
//! as an internal error located at that game, and the run goes on with the next game. Driven
//! through the reading of a part of an input, as the workers of `--jobs N` read them, with a
//! replayer that fails on purpose (the crate's test hooks: [`GameReplay`], [`read_part`]).

use std::sync::Arc;

use arbiter_core::games::GameReplay;
use arbiter_core::replay::{GameReport, ReplayOptions, Replayer};
use arbiter_pgn::{Flow, GameInfo, GameResult, Location, PartEnd, PgnError, Splitter, Visitor};
use arbiter_report::output::{GameFormatter, GameNumber, Output};

use crate::pipeline::{BatchOutput, Part, read_part};

/// `count` short, valid games, each with its number in its Event tag (`good 0`, `good 1`...).
fn good_games(count: usize) -> String {
    (0..count)
        .map(|n| {
            format!(
                "[Event \"good {n}\"]\n[Site \"hostile\"]\n[Result \"1-0\"]\n\n\
                 1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1-0\n\n"
            )
        })
        .collect()
}

/// The replayer, failing on purpose after `after_sans` moves of game `game` (counted in its part).
struct Failing {
    inner: Replayer,
    game: u64,
    after_sans: usize,
    /// The game being read and the moves seen in it.
    current: u64,
    sans: usize,
    /// Whether the panic carries an owned message.
    owned: bool,
}

impl Failing {
    fn new(game: u64, after_sans: usize, owned: bool) -> Failing {
        Failing {
            inner: Replayer::new(ReplayOptions::default()),
            game,
            after_sans,
            current: 0,
            sans: 0,
            owned,
        }
    }
}

impl Visitor for Failing {
    type Output = ();

    fn begin_game(&mut self, game: &GameInfo<'_>) {
        (self.current, self.sans) = (game.index(), 0);
        self.inner.begin_game(game);
    }
    fn one_pass(&self) -> bool {
        self.inner.one_pass()
    }
    fn tag(&mut self, name: &str, value: &str, location: Location) {
        self.inner.tag(name, value, location);
    }
    fn end_tags(&mut self) -> Flow {
        self.inner.end_tags()
    }
    fn move_number(&mut self, number: u32, dots: u8, location: Location) {
        self.inner.move_number(number, dots, location);
    }
    fn san(&mut self, san: &str, location: Location) {
        if self.current == self.game && self.sans == self.after_sans {
            // Half-way through the game, as a bug in the rules core would.
            if self.owned {
                std::panic::panic_any(String::from("an owned message"));
            }
            panic!("injected failure in game {}", self.current);
        }
        self.sans += 1;
        self.inner.san(san, location);
    }
    fn null_move(&mut self, text: &str, location: Location) {
        self.inner.null_move(text, location);
    }
    fn nag(&mut self, nag: u8, location: Location) {
        self.inner.nag(nag, location);
    }
    fn comment(&mut self, text: &str, location: Location) {
        self.inner.comment(text, location);
    }
    fn wants_comments(&self) -> bool {
        self.inner.wants_comments()
    }
    fn begin_variation(&mut self, location: Location) -> Flow {
        self.inner.begin_variation(location)
    }
    fn end_variation(&mut self, location: Location) {
        self.inner.end_variation(location);
    }
    fn result(&mut self, result: GameResult, location: Location) {
        self.inner.result(result, location);
    }
    fn error(&mut self, error: PgnError) {
        self.inner.error(error);
    }
    fn end_game(&mut self, game: &GameInfo<'_>) {
        self.inner.end_game(game);
    }
}

impl GameReplay for Failing {
    fn report(&self) -> &GameReport {
        self.inner.report()
    }
    fn reset(&mut self) {
        self.inner.reset();
    }
}

/// Keeps what it was asked to format.
#[derive(Default)]
struct Seen(Vec<(GameNumber, u64, u32, String, String, String)>);

impl GameFormatter for Seen {
    fn format(&mut self, _source: &str, number: GameNumber, report: &GameReport, out: &mut Output) {
        let problem = report.problems.first();
        self.0.push((
            number,
            report.index,
            report.errors,
            problem
                .map(|p| format!("{} {}", p.code, p.at))
                .unwrap_or_default(),
            report.tags.event.clone(),
            report.first_error.clone(),
        ));
        out.extend(b"record ");
        out.run_number(number);
        out.extend(b"\n");
    }
}

/// Reads `text`, starting at line 20 of its input, with `replay`.
fn read(text: &str, replay: &mut Failing) -> (BatchOutput, Seen) {
    let part = Part {
        source: Arc::from("games.pgn"),
        input: 0,
        bytes: text.as_bytes().to_vec(),
        offset: 1000,
        line: 20,
        end: PartEnd::Last(None),
        until: u64::MAX,
        lines_per_game: false,
    };
    let mut seen = Seen::default();
    let output = read_part(replay, &mut seen, part, &(), &mut |_| true);
    (output, seen)
}

#[test]
fn a_panic_in_one_game_is_reported_there_and_the_run_goes_on() {
    let text = format!("\n\n{}", good_games(4));
    let third_line = 19
        + Splitter::new(text.as_bytes())
            .map(Result::unwrap)
            .nth(2)
            .expect("four games")
            .first_line;
    let mut replay = Failing::new(3, 2, false);
    let (output, seen) = read(&text, &mut replay);
    assert_eq!(
        (
            output.counts.counts.games,
            output.counts.counts.valid,
            output.counts.counts.invalid
        ),
        (4, 3, 1)
    );
    let mut written = Vec::new();
    output.output.write_to(10, 0, &mut 0, &mut written).unwrap();
    assert_eq!(
        String::from_utf8(written).unwrap(),
        "record 11\nrecord 12\nrecord 13\nrecord 14\n"
    );
    let seen = seen.0;
    assert_eq!(seen[2].0, GameNumber::Later { in_batch: 2 });
    assert_eq!(seen[2].1, 3, "the report names the game");
    assert_eq!(seen[2].2, 1);
    assert_eq!(seen[2].3, format!("internal_error {third_line}:1"));
    // The games after it are replayed afresh, with nothing left over from the failed one.
    assert_eq!(seen[3].2, 0);
    assert_eq!(seen[3].4, "good 3");
    assert_eq!(replay.report().plies, 7);
}

#[test]
fn the_internal_error_message_names_the_panic() {
    let mut replay = Failing::new(1, 0, true);
    let (_, seen) = read(&good_games(1), &mut replay);
    let message = &seen.0[0].5;
    assert!(message.starts_with("20:1: internal error"), "{message}");
    assert!(message.contains("an owned message"), "{message}");
}
