//! The read buffer under the splitter: one buffer that holds the current game (and grows only as
//! far as the largest game), refilled from the source, with the line count of its bytes.
//!
//! Refills keep the current line's start (unless it is far back), so that the column of a game's
//! first byte is counted in characters whatever the read sizes. A read error is held back until
//! the games read before it have been handed out.

use std::io::{self, Read};

use super::lex::{BOM, LineEnd, Lines, is_blank, line_end};
use super::location::{Encoding, count_chars};

/// How much the buffer asks of the source at once.
const CHUNK: usize = 128 << 10;

/// How much of the current line a refill keeps before the current game, for its column.
const LINE_KEPT: usize = 4096;

/// The bytes read from a source and not yet handed out, with where they stand in it.
#[derive(Debug)]
pub(super) struct Buffer<R> {
    pub(super) reader: R,
    pub(super) buf: Vec<u8>,
    /// Start of the current game (or of the bytes not yet looked at) in `buf`.
    pub(super) start: usize,
    /// End of the valid bytes in `buf`.
    pub(super) end: usize,
    /// Stream offset of `buf[0]`.
    pub(super) base: u64,
    /// The source has ended (or failed) after `buf[..end]`.
    pub(super) eof: bool,
    /// A read error, held back until the games read before it have been handed out.
    pub(super) error: Option<io::Error>,
    pub(super) lines: Lines,
    /// Whether the input goes on after these bytes (they are a part of it that ends where a game
    /// starts: see [`super::Splitter::part`]), so that the last game does not end at the end of
    /// the input.
    pub(super) more_follows: bool,
}

impl<R: Read> Buffer<R> {
    /// A buffer over `reader`, using `buf`, at the start of the source.
    pub(super) fn new(reader: R, buf: Vec<u8>) -> Buffer<R> {
        Buffer {
            reader,
            buf,
            start: 0,
            end: 0,
            base: 0,
            eof: false,
            error: None,
            lines: Lines { line: 1, start: 0 },
            more_follows: false,
        }
    }

    /// An empty buffer of the default size.
    pub(super) fn default_buf() -> Vec<u8> {
        vec![0; 2 * CHUNK]
    }

    /// How many bytes have been read from the source so far.
    pub(super) fn bytes_read(&self) -> u64 {
        self.base + self.end as u64
    }

    /// How many bytes of the source lie before `start`.
    pub(super) fn bytes_done(&self) -> u64 {
        self.base + self.start as u64
    }

    /// Moves the unconsumed bytes to the front of the buffer (growing it if need be) and reads more.
    /// Returns by how much buffer indices moved down. A read error ends the input and is kept.
    pub(super) fn fill(&mut self) -> usize {
        // The current line's start stays (unless it is far back), so that columns on it are
        // counted in characters whatever the read sizes: see `column_of`.
        let shift = match self.lines.start.checked_sub(self.base) {
            Some(line)
                if (line as usize) <= self.start && self.start - line as usize <= LINE_KEPT =>
            {
                line as usize
            }
            _ => self.start,
        };
        if shift > 0 {
            self.buf.copy_within(shift..self.end, 0);
            self.end -= shift;
            self.start -= shift;
            self.base += shift as u64;
        }
        if self.buf.len() - self.end < CHUNK {
            self.buf.resize(self.end + CHUNK, 0);
        }
        loop {
            match self.reader.read(&mut self.buf[self.end..]) {
                Ok(0) => {
                    self.eof = true;
                    break;
                }
                Ok(n) => {
                    self.end += n;
                    break;
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => {
                    // Hand out the whole games before the failure first; see `cut`.
                    self.error = Some(e);
                    self.eof = true;
                    break;
                }
            }
        }
        shift
    }

    /// Hands the bytes from `start` to `end` (a large game) over in `into`, without copying them:
    /// `into` takes the read buffer, and reading goes on in `into`'s old buffer with the bytes after
    /// `end` (and, as [`Buffer::fill`] keeps it, the current line's start before them, for
    /// columns). The next game starts at `end`.
    pub(super) fn hand_over(&mut self, end: usize, into: &mut Vec<u8>) {
        let keep = match self.lines.start.checked_sub(self.base) {
            Some(line) if (line as usize) <= end && end - line as usize <= LINE_KEPT => {
                line as usize
            }
            _ => end,
        };
        let mut rest = std::mem::take(into);
        rest.clear();
        rest.extend_from_slice(&self.buf[keep..self.end]);
        let mut game = std::mem::replace(&mut self.buf, rest);
        game.truncate(end);
        game.drain(..self.start);
        *into = game;
        self.base += keep as u64;
        self.end -= keep;
        self.start = end - keep;
    }

    /// Skips whitespace and byte order marks up to the next game. Returns `false` at the end.
    pub(super) fn skip_between_games(&mut self) -> io::Result<bool> {
        loop {
            while self.start < self.end {
                let i = self.start;
                match self.buf[i] {
                    b if is_blank(b) => self.start += 1,
                    b'\n' | b'\r' => match line_end(&self.buf[..self.end], i) {
                        // The LF ends the line, on the next turn.
                        LineEnd::CrLf => self.start += 1,
                        LineEnd::CrAtEnd if !self.eof => break,
                        _ => self.newline(i + 1),
                    },
                    0xEF if self.buf[i..self.end].starts_with(BOM) => {
                        self.start += BOM.len();
                        if self.lines.start == self.base + i as u64 {
                            self.lines.start = self.base + self.start as u64;
                        }
                    }
                    0xEF if self.end - i < BOM.len() && !self.eof => break,
                    _ => return Ok(true),
                }
            }
            if self.eof && self.start == self.end {
                return match self.error.take() {
                    Some(error) => Err(error),
                    None => Ok(false),
                };
            }
            self.fill();
        }
    }

    /// Counts a line that ends just before buffer index `next` (used between games).
    pub(super) fn newline(&mut self, next: usize) {
        self.start = next;
        self.lines.newline(self.base + next as u64);
    }

    /// The column (from 1, in characters) of buffer index `i`: counted in bytes only when the line
    /// started more than [`LINE_KEPT`] bytes before a refill.
    pub(super) fn column_of(&self, i: usize) -> u64 {
        let at = self.base + i as u64;
        if self.lines.start >= self.base {
            let from = (self.lines.start - self.base) as usize;
            let prefix = &self.buf[from.min(i)..i];
            let encoding = match std::str::from_utf8(prefix) {
                Ok(_) => Encoding::Utf8,
                Err(_) => Encoding::Windows1252,
            };
            1 + count_chars(prefix, encoding)
        } else {
            1 + at - self.lines.start
        }
    }
}
