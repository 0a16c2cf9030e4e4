//! The PGN reader: splits a byte stream into games and parses each game into tags and movetext
//! tokens with exact source locations. It never checks legality; `replay` joins it to the rules
//! core.
//!
//! Reading is two steps, so that the second can run on worker threads:
//!
//! 1. [`Splitter`] cuts the stream into [`RawGame`]s (owned bytes, game number, first line) in
//!    constant memory;
//! 2. [`parse_game`] walks one game with the nom grammar and calls a [`Visitor`] per token.
//!
//! [`Reader`] does both in one loop; for a [`Visitor::restartable`] visitor it goes further and
//! parses each plain game (nearly every game of a real archive) straight from its read buffer, in
//! one pass over the bytes that also finds where the game ends, exactly where the splitter would.
//! To read one large source on several threads, cut it into parts where [`last_game_start`] says
//! a game surely starts, and read each part with [`Reader::part`]: no thread has to cut the games
//! first.
//! Read leniently, report precisely:
//!
//! - the PGN import format: tag pairs with `\"` and `\\` escapes (several on a line, blank lines
//!   among them), move numbers `12.` `12...` `12 ...`, moves with `+ # ! ? !! ?? !? ?!`, NAGs `$n`,
//!   `{ }` and `;` comments, `( )` variations nested to any depth, `%` escape lines, results;
//! - what real files do: lichess `[%clk]`/`[%eval]` comments, `0-0`, `e.p.`, long algebraic moves,
//!   null moves `--` and `Z0`, CRLF and lone-CR line ends, a UTF-8 byte order mark, and
//!   Windows-1252 (Latin-1) games, decoded with a warning;
//! - every defect (an unterminated `{`, an unbalanced `(` or `)`, a broken tag, stray bytes) is a
//!   [`PgnError`] with its `line:column`, and reading goes on: no later game is lost.
//!
//! # Examples
//!
//! Count the moves of each game and print every problem:
//!
//! ```
//! use arbiter::pgn::{GameInfo, Location, PgnError, Reader, Visitor};
//!
//! #[derive(Default)]
//! struct Moves {
//!     count: usize,
//!     first: Option<Location>,
//!     problems: Vec<String>,
//! }
//!
//! impl Visitor for Moves {
//!     type Output = (u64, usize, String);
//!
//!     fn san(&mut self, _san: &str, location: Location) {
//!         self.count += 1;
//!         self.first.get_or_insert(location);
//!     }
//!
//!     fn error(&mut self, error: PgnError) {
//!         self.problems.push(error.report("games.pgn"));
//!     }
//!
//!     fn end_game(&mut self, game: &GameInfo<'_>) -> Self::Output {
//!         let first = self.first.take().map(|l| game.locate(l).to_string()).unwrap_or_default();
//!         (game.index(), std::mem::take(&mut self.count), first)
//!     }
//! }
//!
//! let pgn = "[Event \"A\"]\n\n1. e4 e5 2. Nf3 1-0\n\n[Event \"B\"]\n\n1. d4 { open *\n";
//! let mut reader = Reader::new("games.pgn", pgn.as_bytes());
//! let mut moves = Moves::default();
//! assert_eq!(reader.read_game(&mut moves)?, Some((1, 3, "3:4".to_string())));
//! assert_eq!(reader.read_game(&mut moves)?, Some((2, 1, "7:4".to_string())));
//! assert_eq!(reader.read_game(&mut moves)?, None);
//! assert_eq!(
//!     moves.problems[0],
//!     "games.pgn:7:7: game 2: error: unterminated comment: `{` at 7:7 is never closed; \
//!      skipped to the end of the input"
//! );
//! # Ok::<(), arbiter::pgn::ReadError>(())
//! ```
//!
//! Split on one thread and parse on others: a [`RawGame`] owns its bytes and knows its number and
//! first line, so the results can be put back in order.
//!
//! ```
//! use arbiter::pgn::{parse_game, GameInfo, Location, RawGame, Splitter, Visitor};
//!
//! struct Sans(Vec<String>);
//!
//! impl Visitor for Sans {
//!     type Output = Vec<String>;
//!     fn san(&mut self, san: &str, _: Location) {
//!         self.0.push(san.to_string());
//!     }
//!     fn end_game(&mut self, _: &GameInfo<'_>) -> Vec<String> {
//!         std::mem::take(&mut self.0)
//!     }
//! }
//!
//! let pgn = "1. e4 e5 1-0\n1. d4 d5 0-1\n";
//! let games: Vec<RawGame> = Splitter::new(pgn.as_bytes()).collect::<Result<_, _>>()?;
//! let workers: Vec<_> = games
//!     .into_iter()
//!     .map(|game| std::thread::spawn(move || (game.index, parse_game(&game, &mut Sans(Vec::new())))))
//!     .collect();
//! let parsed: Vec<_> = workers.into_iter().filter_map(|w| w.join().ok()).collect();
//! assert_eq!(parsed, [(1, vec!["e4".to_string(), "e5".into()]), (2, vec!["d4".into(), "d5".into()])]);
//! # Ok::<(), std::io::Error>(())
//! ```

mod boundary;
mod encoding;
mod error;
mod grammar;
mod location;
mod parse;
mod plain;
mod scan;
mod split;
mod visitor;

use std::io::Read;

pub use boundary::{last_game_start, line_ends};
pub use error::{PgnError, PgnErrorKind, ReadError};
pub use location::{Encoding, GameInfo, LineCol, Location};
pub use parse::parse_game;
pub use split::{DEFAULT_MAX_GAME_BYTES, PartEnd, RawGame, Rest, Splitter};
pub use visitor::{Flow, GameResult, Visitor};

/// Reads the games of one named source, one at a time: splits and parses in one loop (in one pass
/// over the bytes of plain games, for a restartable visitor).
#[derive(Debug)]
pub struct Reader<R> {
    name: String,
    splitter: Splitter<R>,
    game: RawGame,
}

impl Reader<std::io::Empty> {
    /// A reader of one part of the source `name`, all in `bytes`, as [`Splitter::part`] takes it:
    /// the part starts at stream offset `offset`, at the start of line `line` and of a game, and
    /// its games are exactly those that reading the whole source finds there, with the same lines
    /// and columns and the same errors (their numbers count from 1 in the part, though).
    pub fn part(
        name: impl Into<String>,
        bytes: Vec<u8>,
        offset: u64,
        line: u64,
        end: PartEnd,
    ) -> Reader<std::io::Empty> {
        Reader {
            name: name.into(),
            splitter: Splitter::part(bytes, offset, line, end),
            game: RawGame::default(),
        }
    }
}

impl<R: Read> Reader<R> {
    /// A reader of the games in `reader`, whose name (the path as given, or `<stdin>`) goes into
    /// read errors.
    pub fn new(name: impl Into<String>, reader: R) -> Reader<R> {
        Reader {
            name: name.into(),
            splitter: Splitter::new(reader),
            game: RawGame::default(),
        }
    }

    /// Takes the source as starting at offset `offset`, at the start of line `line` and of a game:
    /// for the rest of a source of which the first part was read elsewhere. (Game numbers still
    /// count from 1.)
    pub fn starting_at(mut self, offset: u64, line: u64) -> Reader<R> {
        self.splitter = self.splitter.starting_at(offset, line);
        self
    }

    /// Sets the largest game read, in bytes (default [`DEFAULT_MAX_GAME_BYTES`]); a larger game is
    /// skipped with a [`PgnErrorKind::GameTooLarge`] error.
    pub fn with_max_game_bytes(mut self, max: usize) -> Reader<R> {
        self.splitter = self.splitter.with_max_game_bytes(max);
        self
    }

    /// The source's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// How many (decompressed) bytes have been read from the source so far.
    pub fn bytes_read(&self) -> u64 {
        self.splitter.bytes_read()
    }

    /// How many bytes of the source the games read so far span.
    pub fn bytes_done(&self) -> u64 {
        self.splitter.bytes_done()
    }

    /// The reader's buffer, to be used again (for the next part, say).
    pub fn into_buffer(self) -> Vec<u8> {
        self.splitter.into_buffer()
    }

    /// The rest of the source after the games read so far, to read it some other way (in parts,
    /// say), if the next game starts at the start of a line and nothing went wrong; else the
    /// reader back.
    pub fn into_rest(self) -> Result<Rest<R>, Box<Reader<R>>> {
        let Reader {
            name,
            splitter,
            game,
        } = self;
        splitter.into_rest().map_err(|splitter| {
            Box::new(Reader {
                name,
                splitter: *splitter,
                game,
            })
        })
    }

    /// After `read_game` panicked (in the visitor, say), moves past the game it was reading and
    /// returns it, so that the caller can report it and go on with the next; `None` if the reader
    /// itself failed, and the source is over.
    pub fn recover(&mut self) -> Option<&RawGame> {
        self.splitter.recover(&mut self.game).then_some(&self.game)
    }

    /// Reads the next game through `visitor`; `Ok(None)` at the end of the input.
    ///
    /// A defect inside a game goes to [`Visitor::error`]; only a failure of the byte stream is an
    /// `Err`, after which the stream is over.
    pub fn read_game<V: Visitor>(
        &mut self,
        visitor: &mut V,
    ) -> Result<Option<V::Output>, ReadError> {
        let read = if visitor.restartable() {
            self.splitter.read_plain(&mut self.game, visitor)
        } else {
            self.splitter.read_cut(&mut self.game, visitor)
        };
        read.map_err(|source| self.read_error(source))
    }

    /// A failure of the byte stream, with where it happened.
    fn read_error(&self, source: std::io::Error) -> ReadError {
        ReadError {
            name: self.name.clone(),
            offset: self.splitter.bytes_read(),
            source,
        }
    }
}
