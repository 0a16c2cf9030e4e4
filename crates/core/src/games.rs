//! The games of one PGN stream, each read, replayed and judged in turn: the entry point for library
//! users, and the one way down that `validate` and `export` take too (the pipeline of the `arbiter` crate reads
//! every game the same way, through [`next_game`]).
//!
//! Reading streams: one game is in memory at a time (the read buffer grows only for a game larger
//! than it, up to the reader's cap), so memory stays flat however long the stream. A defect inside
//! a game is one of its [`Problem`]s, never an error of the stream; only a
//! failure of the stream itself ends it ([`StreamError`]).
//!
//! The last line of defence lives here: a panic while reading one game (a bug of ours) is caught,
//! the game is reported as invalid with an `internal_error` problem at its start, and reading
//! goes on with the next game on a fresh replay.
//!
//! A failure of the stream ends it after every game read before it, the last one included: a game
//! the failure cut short is replayed as far as it goes and reported as invalid, its first error a
//! `read_error` where its bytes end; the failure itself follows as the [`StreamError`].
//!
//! # Examples
//!
//! Judge the games of a string: the first ends in checkmate, the second breaks on an illegal move.
//!
//! ```
//! use arbiter_core::problem::Code;
//! use arbiter_core::{Games, Outcome, ReplayOptions};
//!
//! let pgn = "[Event \"Fool's mate\"]\n[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n\n\
//!            [Event \"Early king walk\"]\n[Result \"*\"]\n\n1. e4 e5 2. Ke3 *\n";
//! let mut games = Games::from_reader("games.pgn", pgn.as_bytes(), ReplayOptions::default());
//!
//! let mate = games.next().expect("a first game")?;
//! assert_eq!((mate.index, mate.tags.event.as_str(), mate.plies), (1, "Fool's mate", 4));
//! let judged = mate.classification.expect("judged");
//! assert_eq!(judged.outcome, Outcome::Checkmate);
//! assert!(mate.problems.is_empty());
//!
//! let broken = games.next().expect("a second game")?;
//! assert_eq!((broken.index, broken.errors, broken.plies), (2, 1, 2));
//! assert_eq!(broken.classification.expect("judged").outcome, Outcome::Invalid);
//! let problem = &broken.problems[0];
//! assert_eq!(problem.code, Code::IllegalMove);
//! assert_eq!((problem.at.line, problem.at.column, problem.ply), (9, 13, Some(3)));
//! assert_eq!(problem.san.as_deref(), Some("Ke3"));
//! assert_eq!(problem.to_string(), "9:13: ply 3 \"Ke3\": Ke3: no king can reach e3");
//! assert_eq!(broken.first_error, problem.to_string());
//!
//! assert!(games.next().is_none());
//! # Ok::<(), arbiter_core::StreamError>(())
//! ```
//!
//! Read a file (compressed or not) without an allocation per game: [`Games::next_game`] lends
//! each game's report until the next call.
//!
//! ```
//! use arbiter_core::{Games, ReplayOptions};
//!
//! # let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../testdata/outcomes/outcomes.pgn");
//! // let path = "games.pgn.zst";
//! let mut games = Games::open(path, ReplayOptions::default())?;
//! let (mut count, mut valid) = (0, 0);
//! while let Some(game) = games.next_game() {
//!     let game = game?;
//!     count += 1;
//!     valid += usize::from(game.errors == 0);
//! }
//! assert!(count > 10 && valid == count, "{valid} of {count} valid");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::fs::File;
use std::io::{self, Read};
use std::panic::{self, AssertUnwindSafe};
use std::path::Path;

use arbiter_io::input::{self, InputError};
use arbiter_pgn::{GameResult, LineCol, Location, RawGame, ReadError, Reader, Visitor};

use crate::outcome;
use crate::problem::{Code, CodeCounts, Problem, Severity};
use crate::replay::{GameReport, ReplayOptions, Replayer};

/// The games of one PGN stream, replayed and judged one at a time.
///
/// As an [`Iterator`] it yields each game's [`GameReport`] (its number, tags, plies, final
/// position, outcome and problems) as an owned value; [`Games::next_game`] lends the report
/// instead, without copying it. After a [`StreamError`] the stream is over.
pub struct Games<R> {
    reader: Reader<R>,
    replayer: Replayer,
    /// The report of a game whose replay panicked.
    internal: GameReport,
}

impl<R: Read> Games<R> {
    /// The games of `reader`, a PGN stream named `name` (the name goes into read errors), replayed
    /// with `options`. The bytes are read as they are: to decompress them, pass the stream
    /// through [`input::open_stream`] first, or use [`Games::open`].
    pub fn from_reader(name: impl Into<String>, reader: R, options: ReplayOptions) -> Games<R> {
        Games {
            reader: Reader::new(name, reader),
            replayer: Replayer::new(options),
            internal: GameReport::default(),
        }
    }

    /// The next game's report, lent until the next call; `None` at the end of the stream (and
    /// after an error).
    pub fn next_game(&mut self) -> Option<Result<&GameReport, StreamError>> {
        next_game(&mut self.reader, &mut self.replayer, &mut self.internal).transpose()
    }
}

impl Games<Box<dyn Read + Send>> {
    /// The games of the file at `path`, decompressed when its first bytes say it is gzip, zstd,
    /// bzip2 or xz; its name in errors is `path` as given. A file that is evidently not PGN is
    /// a [`StreamError`] at the first game.
    pub fn open(
        path: impl AsRef<Path>,
        options: ReplayOptions,
    ) -> Result<Games<Box<dyn Read + Send>>, InputError> {
        let path = path.as_ref();
        let name = path.display().to_string();
        let file = File::open(path).map_err(|source| InputError::Io {
            path: name.clone(),
            source,
        })?;
        let source = input::open_stream(name, file);
        Ok(Games::from_reader(source.name, source.reader, options))
    }
}

impl<R: Read> Iterator for Games<R> {
    type Item = Result<GameReport, StreamError>;

    fn next(&mut self) -> Option<Self::Item> {
        Some(self.next_game()?.cloned())
    }
}

/// Why a stream of games ended early.
#[derive(Debug, thiserror::Error)]
pub enum StreamError {
    /// The byte stream failed (an I/O error, a corrupt compressed stream).
    #[error(transparent)]
    Read(#[from] ReadError),
    /// Reading panicked (a bug of ours) where the reader could not tell where the game ends; the
    /// rest of the stream is skipped.
    #[error(
        "{name}: internal error while reading after byte {offset}; the rest of this input is \
         skipped; please report it"
    )]
    Internal {
        /// The stream's name.
        name: String,
        /// How many bytes were read before.
        offset: u64,
    },
}

/// What replays the games: the [`Replayer`], or in tests a stand-in that fails on purpose.
pub trait GameReplay: Visitor<Output = ()> {
    /// The report of the game just read.
    fn report(&self) -> &GameReport;
    /// Starts afresh, after a panic left the state half-way through a game.
    fn reset(&mut self);
}

impl GameReplay for Replayer {
    fn report(&self) -> &GameReport {
        Replayer::report(self)
    }

    fn reset(&mut self) {
        *self = Replayer::new(self.options().clone());
    }
}

/// Reads the next game of `reader` through `replay` and returns its report; `Ok(None)` at the end
/// of the stream. A panic while reading the game is caught: `replay` starts afresh, and the report
/// returned is `internal`, filled in with the game's internal error. The report of a game cut
/// short by a failure of the stream is `internal` too: the replay's, with the failure as its
/// first error.
pub fn next_game<'a, R: Read, V: GameReplay>(
    reader: &mut Reader<R>,
    replay: &'a mut V,
    internal: &'a mut GameReport,
) -> Result<Option<&'a GameReport>, StreamError> {
    match panic::catch_unwind(AssertUnwindSafe(|| reader.read_game(replay))) {
        Ok(Ok(Some(()))) => match reader.cut_short() {
            None => Ok(Some(replay.report())),
            Some((location, at, error)) => {
                internal.clone_from(replay.report());
                cut_short(internal, location, at, error);
                Ok(Some(internal))
            }
        },
        Ok(Ok(None)) => Ok(None),
        Ok(Err(err)) => Err(StreamError::Read(err)),
        Err(payload) => {
            replay.reset();
            let Some(game) = reader.recover() else {
                return Err(StreamError::Internal {
                    name: reader.name().to_owned(),
                    offset: reader.bytes_read(),
                });
            };
            *internal = internal_error_report(game, &*payload);
            Ok(Some(internal))
        }
    }
}

/// Makes `report` that of a game the stream's failure `error` cut short where its bytes end
/// (`location` in the game, `at` in the source): invalid, the failure its first error (it explains
/// whatever else went wrong at the game's end, such as a move cut in two).
fn cut_short(report: &mut GameReport, location: Location, at: LineCol, error: &io::Error) {
    let problem = Problem::of_game(
        location,
        at,
        Severity::Error,
        Code::ReadError,
        format!("the game is cut short by a read error: {error}"),
    );
    report.first_error = problem.to_string();
    report.problems.push(problem);
    report.errors += 1;
    report.codes.add(Code::ReadError, Severity::Error);
    report.main_line_valid = false;
    let declared = GameResult::from_tag(&report.tags.result);
    report.classification = Some(outcome::classify_invalid(declared));
}

/// The report of a game whose replay panicked: invalid, with an internal error at its start.
fn internal_error_report(game: &RawGame, payload: &(dyn std::any::Any + Send)) -> GameReport {
    let what = payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown panic".to_owned());
    let message = format!("internal error while replaying this game ({what}); please report it");
    let at = LineCol {
        line: game.first_line,
        column: game.first_column,
    };
    let problem = Problem::of_game(
        Location(0),
        at,
        Severity::Error,
        Code::InternalError,
        message,
    );
    let mut codes = CodeCounts::default();
    codes.add(Code::InternalError, Severity::Error);
    GameReport {
        index: game.index,
        offset: game.offset,
        main_line_valid: false,
        first_error: problem.to_string(),
        classification: Some(outcome::classify_invalid(GameResult::Unknown)),
        problems: vec![problem],
        errors: 1,
        codes,
        ..GameReport::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn owned_and_lent_games_are_the_same_and_the_stream_ends_once() {
        let pgn = "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n1. e4 Ke7 *\n";
        let owned: Vec<GameReport> = Games::from_reader("x", pgn.as_bytes(), Default::default())
            .collect::<Result<_, _>>()
            .unwrap();
        let mut lent = Games::from_reader("x", pgn.as_bytes(), ReplayOptions::default());
        for game in &owned {
            let next = lent.next_game().unwrap().unwrap();
            assert_eq!(
                (next.index, next.plies, &next.final_fen, &next.first_error),
                (game.index, game.plies, &game.final_fen, &game.first_error)
            );
        }
        assert!(lent.next_game().is_none());
        assert!(lent.next_game().is_none());
        assert_eq!(owned.len(), 2);
        assert_eq!(
            owned[1].first_error,
            "3:7: ply 2 \"Ke7\": Ke7: no king can reach e7"
        );
    }

    #[test]
    fn a_failing_stream_is_an_error_naming_it() {
        struct Failing;
        impl Read for Failing {
            fn read(&mut self, _: &mut [u8]) -> std::io::Result<usize> {
                Err(std::io::Error::other("disk on fire"))
            }
        }
        let mut games = Games::from_reader("burning.pgn", Failing, ReplayOptions::default());
        let err = games.next().unwrap().unwrap_err();
        assert_eq!(
            err.to_string(),
            "burning.pgn: read error after byte 0: disk on fire"
        );
        assert!(games.next().is_none());
    }

    /// `bytes`, then a failure.
    struct FailsAfter<'a>(&'a [u8]);

    impl Read for FailsAfter<'_> {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            if self.0.is_empty() {
                return Err(std::io::Error::other("disk on fire"));
            }
            let n = self.0.len().min(buf.len());
            buf[..n].copy_from_slice(&self.0[..n]);
            self.0 = &self.0[n..];
            Ok(n)
        }
    }

    #[test]
    fn a_game_the_stream_cuts_short_is_reported_with_the_failure() {
        let pgn = "[Event \"whole\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n\
                   [Event \"cut\"]\n[Result \"1-0\"]\n\n1. d4 d5 2. c4 e";
        let mut games = Games::from_reader(
            "cut.pgn",
            FailsAfter(pgn.as_bytes()),
            ReplayOptions::default(),
        );
        let whole = games.next().unwrap().unwrap();
        assert_eq!((whole.errors, whole.tags.event.as_str()), (0, "whole"));
        let cut = games.next().unwrap().unwrap();
        assert_eq!(
            (cut.index, cut.tags.event.as_str(), cut.plies),
            (2, "cut", 3)
        );
        assert_eq!(
            cut.first_error,
            "8:17: the game is cut short by a read error: disk on fire"
        );
        let problem = cut.problems.last().unwrap();
        assert_eq!(
            (problem.code, problem.severity),
            (Code::ReadError, Severity::Error)
        );
        assert!(!cut.main_line_valid);
        let judged = cut.classification.unwrap();
        assert_eq!(
            (judged.outcome, judged.winner),
            (outcome::Outcome::Invalid, outcome::Winner::White)
        );
        assert_eq!(
            cut.errors,
            1 + cut
                .problems
                .iter()
                .filter(|p| p.code != Code::ReadError && p.severity == Severity::Error)
                .count() as u32
        );
        let err = games.next().unwrap().unwrap_err();
        assert_eq!(
            err.to_string(),
            format!("cut.pgn: read error after byte {}: disk on fire", pgn.len())
        );
        assert!(games.next().is_none());
    }

    #[test]
    fn a_game_that_ended_before_the_failure_is_whole() {
        // After its result line, only its trailing comment, cut short, is not.
        for (tail, cut_short) in [
            ("", false),
            ("\n", false),
            (" {a note", true),
            (" {a note}", false),
        ] {
            let pgn = format!("1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0{tail}");
            let mut games = Games::from_reader(
                "x.pgn",
                FailsAfter(pgn.as_bytes()),
                ReplayOptions::default(),
            );
            let game = games.next().unwrap().unwrap();
            let read_error = game.problems.iter().any(|p| p.code == Code::ReadError);
            assert_eq!(read_error, cut_short, "{tail:?}: {:?}", game.problems);
            assert!(games.next().unwrap().is_err());
        }
    }

    #[test]
    fn open_names_a_missing_file() {
        let err = Games::open("/no/such/file.pgn", ReplayOptions::default())
            .err()
            .unwrap();
        assert!(err.to_string().starts_with("/no/such/file.pgn: "), "{err}");
    }
}
