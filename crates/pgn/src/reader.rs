//! The reader: reads the games of one named source through a [`Visitor`], one at a time, in one
//! loop over the [`Splitter`]'s buffer.
//!
//! For a [`Visitor::one_pass`] visitor it parses each one-pass game (nearly every game of a real
//! archive) straight from the read buffer, in one pass over its bytes that also finds where the
//! game ends (see [`super::one_pass`]); any other game is cut by the splitter and parsed the general
//! way ([`parse_game`]). It also recovers from a panic in the visitor: [`Reader::recover`] moves
//! past the game that was being read.

use std::io::{self, Read};
use std::ops::Range;

use super::error::ReadError;
use super::location::{LineCol, Location};
use super::one_pass::{self, Attempt};
use super::parse::parse_game;
use super::ranged::{RangeStop, Ranged};
use super::raw::RawGame;
use super::split::{PartEnd, Rest, Splitter};
use super::visitor::Visitor;

/// The one-pass reading refills the buffer before a game when fewer bytes than this are left.
const AHEAD: usize = 32 << 10;

/// Where [`Reader::read_game`] stands in a game, for [`Reader::recover`].
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Stage {
    /// Between games.
    Between,
    /// Parsing a game in one pass, before the splitter has moved past it.
    OnePass,
    /// Cutting a game.
    Cutting,
    /// Parsing a game already cut.
    Parsing,
}

/// Reads the games of one named source, one at a time: splits and parses in one loop (in one pass
/// over the bytes of most games, for a one-pass visitor).
#[derive(Debug)]
pub struct Reader<R> {
    name: String,
    splitter: Splitter<R>,
    game: RawGame,
    stage: Stage,
    /// The games read are those whose first byte lies in this range of the stream, and before
    /// `stop`.
    range: Range<u64>,
    stop: RangeStop,
    /// Lines are counted from each game's first line, line 1 (see [`Reader::lines_per_game`]).
    lines_per_game: bool,
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
            stage: Stage::Between,
            range: 0..u64::MAX,
            stop: RangeStop::default(),
            lines_per_game: false,
        }
    }
}

impl<R: Read> Reader<Ranged<R>> {
    /// A reader of the games of a range of the source `name` (see [`Ranged`]): those whose first
    /// byte lies from `S(START)` on and before `S(END)`, each the same as a reading of the whole
    /// source makes it, but with its lines counted from its first line
    /// ([`Reader::lines_per_game`]), which this reader cannot know. A failure of the stream
    /// before `S(START)` is an error.
    pub fn ranged(name: impl Into<String>, mut ranged: Ranged<R>) -> Result<Self, ReadError> {
        let name = name.into();
        match ranged.start() {
            Ok(start) => {
                let stop = ranged.stop();
                Ok(Reader::new(name, ranged)
                    .starting_at(start, 1)
                    .until(stop)
                    .lines_per_game())
            }
            Err(source) => Err(ReadError {
                offset: ranged.bytes_read(),
                name,
                source,
            }),
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
            stage: Stage::Between,
            range: 0..u64::MAX,
            stop: RangeStop::default(),
            lines_per_game: false,
        }
    }

    /// Takes the source as starting at offset `offset`, at the start of line `line` and of a game:
    /// for the rest of a source of which the first part was read elsewhere. (Game numbers still
    /// count from 1.)
    pub fn starting_at(mut self, offset: u64, line: u64) -> Reader<R> {
        self.splitter = self.splitter.starting_at(offset, line);
        self
    }

    /// Reads only the games whose first byte ([`RawGame::offset`]) lies in `range` of the stream:
    /// those before are cut as reading the whole stream cuts them, and dropped unread; reading
    /// ends before the first game at or after `range.end` (the last game read is read to its end,
    /// past `range.end`). So every game of the stream is read by exactly one of the ranges of any
    /// split, the same as reading the whole stream reads it; game numbers count from 1 in the range.
    pub fn range(mut self, range: Range<u64>) -> Reader<R> {
        self.range = range;
        self
    }

    /// Reads only the games before `stop` (see [`RangeStop`]), which may be found as the stream is
    /// read: for the bytes of a [`Ranged`] stream, or parts of them.
    pub fn until(mut self, stop: RangeStop) -> Reader<R> {
        self.stop = stop;
        self
    }

    /// Counts lines from each game's first line, line 1, rather than from the stream's start
    /// (columns stay those of the stream's lines): the places of a game are then the same
    /// wherever reading began, as a range of an input needs them.
    pub fn lines_per_game(mut self) -> Reader<R> {
        self.lines_per_game = true;
        self
    }

    /// Skips to the next game's first byte, cutting past the games before the range: whether a
    /// game of the range starts there.
    fn next_in_range(&mut self) -> io::Result<bool> {
        let splitter = &mut self.splitter;
        loop {
            if splitter.failed {
                return Ok(false);
            }
            let more = splitter.input.skip_between_games().inspect_err(|_| {
                splitter.failed = true;
            })?;
            let at = splitter.input.bytes_done();
            if !more || at >= self.range.end || at >= self.stop.get() {
                return Ok(false);
            }
            if at >= self.range.start {
                if self.lines_per_game {
                    splitter.input.lines.line = 1;
                }
                return Ok(true);
            }
            self.stage = Stage::Cutting;
            splitter.next_into(&mut self.game)?;
            self.stage = Stage::Between;
            // Counted in the range only.
            splitter.next_index -= 1;
        }
    }

    /// Sets the largest game read, in bytes (default [`super::DEFAULT_MAX_GAME_BYTES`]); a larger game is
    /// skipped with a [`super::PgnErrorKind::GameTooLarge`] error.
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
        if self.stage != Stage::Between {
            return Err(Box::new(self));
        }
        let Reader {
            name,
            splitter,
            game,
            stage,
            range,
            stop,
            lines_per_game,
        } = self;
        splitter.into_rest().map_err(|splitter| {
            Box::new(Reader {
                name,
                splitter: *splitter,
                game,
                stage,
                range,
                stop,
                lines_per_game,
            })
        })
    }

    /// Whether the game just read was cut short by a failure of the byte stream (see
    /// [`RawGame::cut_short`]): where the game's bytes end (within the game, and in the source),
    /// and the failure, which the next [`Reader::read_game`] returns. `None` for a game that ended.
    pub fn cut_short(&self) -> Option<(Location, LineCol, &io::Error)> {
        let input = &self.splitter.input;
        let error = input.error.as_ref().filter(|_| self.game.cut_short)?;
        let at = LineCol {
            line: input.lines.line,
            column: input.column_of(input.end),
        };
        Some((Location::at(self.game.bytes.len()), at, error))
    }

    /// After `read_game` panicked (in the visitor, say), moves past the game it was reading and
    /// returns it, so that the caller can report it and go on with the next; `None` if the reader
    /// itself failed, and the source is over.
    pub fn recover(&mut self) -> Option<&RawGame> {
        let stage = std::mem::replace(&mut self.stage, Stage::Between);
        let moved_past = match stage {
            Stage::OnePass => matches!(self.splitter.next_into(&mut self.game), Ok(true)),
            Stage::Parsing => true,
            Stage::Cutting | Stage::Between => {
                self.splitter.failed = true;
                false
            }
        };
        moved_past.then_some(&self.game)
    }

    /// Reads the next game through `visitor`; `Ok(None)` at the end of the input.
    ///
    /// A defect inside a game goes to [`Visitor::error`]; only a failure of the byte stream is an
    /// `Err`, after which the stream is over. The game the failure cut short comes first, with
    /// what was read of it (see [`Reader::cut_short`]).
    pub fn read_game<V: Visitor>(
        &mut self,
        visitor: &mut V,
    ) -> Result<Option<V::Output>, ReadError> {
        let read = if visitor.one_pass() {
            self.read_one_pass(visitor)
        } else {
            self.read_cut(visitor)
        };
        read.map_err(|source| self.read_error(source))
    }

    /// Reads the next game into `visitor` and returns what its `end_game` made of it, or `None` at
    /// the end of the input. A one-pass game is parsed straight from the buffer, in one pass (see
    /// [`super::one_pass`]); any other is cut and parsed the general way. The visitor must be
    /// [`Visitor::one_pass`]: a game may be begun more than once.
    ///
    /// After an I/O error every later call returns `Ok(None)`.
    fn read_one_pass<V: Visitor>(&mut self, visitor: &mut V) -> io::Result<Option<V::Output>> {
        if !self.next_in_range()? {
            return Ok(None);
        }
        let splitter = &mut self.splitter;
        let game = &mut self.game;
        let input = &mut splitter.input;
        game.index = splitter.next_index;
        game.offset = input.bytes_done();
        game.first_line = input.lines.line;
        game.first_column = input.column_of(input.start);
        // Room for a whole game, most of the time, so that few are begun twice.
        if !input.eof && input.end - input.start < AHEAD {
            input.fill();
        }
        self.stage = Stage::OnePass;
        // A game the buffer cuts short is begun once more after a refill; then it goes the
        // general way, whose cost is linear in any case.
        for attempt in 0..2 {
            let input = &mut splitter.input;
            if input.error.is_some() {
                // The game may run into the read failure: the general way reports it.
                break;
            }
            let rest = &input.buf[input.start..input.end];
            match one_pass::parse(
                rest,
                input.eof,
                input.more_follows,
                splitter.max_game,
                game,
                &mut splitter.tag_names,
                visitor,
            ) {
                Attempt::Done(len, output) => {
                    let text = &input.buf[input.start..input.start + len];
                    if let Some(last) = memchr::memrchr(b'\n', text) {
                        input.lines.line = game.end_line;
                        input.lines.start = input.base + (input.start + last + 1) as u64;
                    }
                    input.start += len;
                    splitter.next_index += 1;
                    self.stage = Stage::Between;
                    return Ok(Some(output));
                }
                Attempt::NeedMore if attempt == 0 && !input.eof => {
                    input.fill();
                }
                Attempt::NeedMore | Attempt::Bail => break,
            }
        }
        self.read_cut(visitor)
    }

    /// Reads the next game into `visitor` the general way: cuts it, then parses it.
    fn read_cut<V: Visitor>(&mut self, visitor: &mut V) -> io::Result<Option<V::Output>> {
        if !self.next_in_range()? {
            return Ok(None);
        }
        self.stage = Stage::Cutting;
        let more = self.splitter.next_into(&mut self.game);
        self.stage = Stage::Parsing;
        let output = more.map(|more| more.then(|| parse_game(&self.game, visitor)));
        self.stage = Stage::Between;
        output
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
