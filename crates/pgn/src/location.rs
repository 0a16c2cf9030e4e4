//! Source locations: a token carries only its byte offset within its game ([`Location`]); the
//! game ([`GameInfo`]) turns an offset into a 1-based `line:column` of the source file on demand.
//!
//! Offsets are cheap to carry on every token. Lines and columns cost a scan, so they are computed
//! only when something is reported: the first lookup builds a per-game index of line starts, and
//! every lookup after it is a binary search. Columns count characters, not bytes: UTF-8 sequences
//! count once, and in a game read as Windows-1252 every byte is one character.

use std::cell::{Cell, OnceCell};
use std::fmt;

use super::lex::{line_of, line_starts};
use super::raw::RawGame;

/// Where a token starts: a byte offset within its game's raw bytes.
///
/// Turn it into a line and column with [`GameInfo::locate`].
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Location(pub u32);

impl Location {
    /// The location of byte `offset` of a game (saturating for games over 4 GiB, which the splitter
    /// never hands out).
    pub fn at(offset: usize) -> Location {
        Location(u32::try_from(offset).unwrap_or(u32::MAX))
    }

    /// The byte offset within the game.
    pub fn offset(self) -> usize {
        self.0 as usize
    }
}

/// A 1-based line and column (in characters) in the source file.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct LineCol {
    /// The line, counted from 1. CRLF, LF and a lone CR each end a line.
    pub line: u64,
    /// The column, counted from 1 in characters.
    pub column: u64,
}

impl fmt::Display for LineCol {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.line, self.column)
    }
}

/// How a game's bytes were decoded.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Encoding {
    /// Valid UTF-8 (the common case).
    Utf8,
    /// Not valid UTF-8, so read as Windows-1252 (a superset of printable Latin-1).
    Windows1252,
}

/// One game as the visitor sees it: its number in the stream, where it starts, how it was decoded,
/// and the means to turn a [`Location`] into a [`LineCol`].
#[derive(Debug)]
pub struct GameInfo<'a> {
    raw: &'a RawGame,
    /// The game's bytes: `raw.bytes`, or the reader's buffer for a game read in one pass.
    bytes: &'a [u8],
    encoding: Encoding,
    line_starts: OnceCell<Vec<u32>>,
    /// The last lookup (line index, offset, column), so that lookups in source order along one
    /// long line cost a scan from the previous one, not from the line start.
    last: Cell<(usize, usize, u64)>,
}

impl<'a> GameInfo<'a> {
    /// Describes `raw`, whose encoding has been found to be `encoding`.
    pub(crate) fn new(raw: &'a RawGame, encoding: Encoding) -> GameInfo<'a> {
        GameInfo::with_bytes(raw, &raw.bytes, encoding)
    }

    /// Describes the game `raw` whose bytes are `bytes` (and not `raw.bytes`: a game read in one
    /// pass is not copied out of the reader's buffer).
    pub(crate) fn with_bytes(
        raw: &'a RawGame,
        bytes: &'a [u8],
        encoding: Encoding,
    ) -> GameInfo<'a> {
        GameInfo {
            raw,
            bytes,
            encoding,
            line_starts: OnceCell::new(),
            last: Cell::new((usize::MAX, 0, 0)),
        }
    }

    /// The game's number in its input stream, counted from 1.
    pub fn index(&self) -> u64 {
        self.raw.index
    }

    /// Where the game's first byte stands in the (decompressed) stream, from 0: the same for a
    /// game whether the whole stream or a range of it is read (see [`super::Reader::range`]).
    pub fn offset(&self) -> u64 {
        self.raw.offset
    }

    /// The game as the reader cut it. Its `bytes` are empty for a game read in one pass (they
    /// stay in the reader's buffer): [`GameInfo::bytes`] holds them in every case.
    pub(crate) fn raw(&self) -> &RawGame {
        self.raw
    }

    /// The line of the game's first byte, from 1.
    pub fn first_line(&self) -> u64 {
        self.raw.first_line
    }

    /// The column of the game's first byte, from 1.
    pub fn first_column(&self) -> u64 {
        self.raw.first_column
    }

    /// The game's last line (known at [`super::Visitor::end_game`]).
    pub fn end_line(&self) -> u64 {
        self.raw.end_line
    }

    /// Whether the game ends the input (known at [`super::Visitor::end_game`]).
    pub fn at_eof(&self) -> bool {
        self.raw.at_eof
    }

    /// The game's size in bytes, if it was larger than the reader's limit (then only its
    /// beginning was read).
    pub fn too_large(&self) -> Option<u64> {
        self.raw.too_large
    }

    /// Whether the game is read in one pass, straight from the reader's buffer, rather than cut
    /// out first and read the general way (see [`super::Visitor::one_pass`]).
    pub fn read_in_one_pass(&self) -> bool {
        self.raw.bytes.is_empty()
    }

    /// The game's bytes, from its first token to its end, as in the source.
    pub fn bytes(&self) -> &'a [u8] {
        self.bytes
    }

    /// How the game's bytes were decoded.
    pub fn encoding(&self) -> Encoding {
        self.encoding
    }

    /// The line and column of `location` in the source file.
    pub fn locate(&self, location: Location) -> LineCol {
        let bytes = self.bytes;
        let offset = location.offset().min(bytes.len());
        let starts = self.line_starts.get_or_init(|| line_starts(bytes));
        // `starts[0] == 0 <= offset`, so the partition point is at least 1.
        let idx = starts.partition_point(|&s| s as usize <= offset).max(1) - 1;
        let line_start = starts.get(idx).map_or(0, |&s| s as usize);
        let (last_idx, last_offset, last_column) = self.last.get();
        let (from, base) = if last_idx == idx && last_offset <= offset {
            (last_offset, last_column)
        } else if idx == 0 {
            (line_start, self.raw.first_column)
        } else {
            (line_start, 1)
        };
        let prefix = bytes.get(from..offset).unwrap_or_default();
        let column = base + count_chars(prefix, self.encoding);
        self.last.set((idx, offset, column));
        LineCol {
            line: self.raw.first_line + idx as u64,
            column,
        }
    }

    /// The line and column of `location`, as [`GameInfo::locate`] gives them, for a game that
    /// needs no other: the lines are counted up to `location` only, and no index is built (a
    /// game's first lookup builds one for the whole game, which cost select 4% of its
    /// instructions on lichess games for the place of the `Result` tag alone).
    pub fn locate_once(&self, location: Location) -> LineCol {
        if self.line_starts.get().is_some() {
            return self.locate(location);
        }
        let offset = location.offset().min(self.bytes.len());
        let (lines, start) = line_of(self.bytes, offset);
        let base = if lines == 0 { self.raw.first_column } else { 1 };
        LineCol {
            line: self.raw.first_line + lines as u64,
            column: base + count_chars(&self.bytes[start..offset], self.encoding),
        }
    }

    /// The location just past the game's last byte.
    pub fn end(&self) -> Location {
        Location::at(self.bytes.len())
    }
}

/// The number of characters in `bytes` decoded as `encoding`.
pub(crate) fn count_chars(bytes: &[u8], encoding: Encoding) -> u64 {
    match encoding {
        Encoding::Utf8 => bytes.iter().filter(|&&b| b & 0xC0 != 0x80).count() as u64,
        Encoding::Windows1252 => bytes.len() as u64,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(bytes: &[u8], first_line: u64, first_column: u64) -> RawGame {
        RawGame {
            first_line,
            first_column,
            ..RawGame::new(1, bytes.to_vec())
        }
    }

    #[test]
    fn locates_lines_and_columns() {
        let raw = game(b"ab\ncd\r\nef\rgh", 10, 3);
        let info = GameInfo::new(&raw, Encoding::Utf8);
        let at = |o| info.locate(Location(o)).to_string();
        assert_eq!(at(0), "10:3");
        assert_eq!(at(1), "10:4");
        assert_eq!(at(3), "11:1");
        assert_eq!(at(4), "11:2");
        assert_eq!(at(7), "12:1");
        assert_eq!(at(10), "13:1");
        assert_eq!(at(11), "13:2");
        assert_eq!(at(99), "13:3");
    }

    #[test]
    fn a_single_lookup_agrees_with_the_index() {
        let raw = game("ab\ncd\r\nef\rgh\r\r\n\u{e9}\u{fc}x".as_bytes(), 10, 3);
        for offset in 0..=raw.bytes.len() as u32 + 2 {
            let indexed = GameInfo::new(&raw, Encoding::Utf8).locate(Location(offset));
            let once = GameInfo::new(&raw, Encoding::Utf8).locate_once(Location(offset));
            assert_eq!(once, indexed, "offset {offset}");
        }
        let raw = game(b"\xe9\r\xfc\n x", 4, 7);
        for offset in 0..=raw.bytes.len() as u32 {
            let info = GameInfo::new(&raw, Encoding::Windows1252);
            let indexed = info.locate(Location(offset));
            assert_eq!(
                GameInfo::new(&raw, Encoding::Windows1252).locate_once(Location(offset)),
                indexed
            );
            assert_eq!(info.locate_once(Location(offset)), indexed);
        }
    }

    #[test]
    fn columns_count_characters() {
        let raw = game("é{ü} e4".as_bytes(), 1, 1);
        let info = GameInfo::new(&raw, Encoding::Utf8);
        assert_eq!(info.locate(Location(7)).column, 6);
        let raw = game(b"\xe9{\xfc} e4", 1, 1);
        let info = GameInfo::new(&raw, Encoding::Windows1252);
        assert_eq!(info.locate(Location(5)).column, 6);
    }
}
