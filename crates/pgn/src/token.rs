//! The token layer: the byte classes, stop sets, limits and line-end rule of PGN, each written
//! once, and the result token. Every scanner of the reader (the splitter's cut, the one-pass
//! reader, the general parser, the part boundary) reads bytes through these, so that they agree
//! on where a token, a comment or a line ends.
//!
//! A stop set is the set of bytes at which a search through some context must stop and look
//! (see [`super::scan::find_any`]); the bytes between two stops mean nothing there.

// ---- Line ends -----------------------------------------------------------------------------

/// How a line ends at a given byte: the one rule of the reader is that LF, CRLF and a lone CR
/// each end one line (CRLF once, not twice).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum LineEnd {
    /// The byte is no line end.
    Not,
    /// `\n`: one byte.
    Lf,
    /// `\r\n`: two bytes.
    CrLf,
    /// A `\r` followed by something other than `\n`: one byte.
    LoneCr,
    /// A `\r` at the end of the bytes: more input tells whether a `\n` follows (at the end of
    /// the input, it is a lone CR).
    CrAtEnd,
}

/// The line end at `bytes[at]` (see [`LineEnd`]); [`LineEnd::Not`] past the end.
#[inline(always)]
pub(crate) fn line_end(bytes: &[u8], at: usize) -> LineEnd {
    match bytes.get(at) {
        Some(b'\n') => LineEnd::Lf,
        Some(b'\r') => match bytes.get(at + 1) {
            Some(b'\n') => LineEnd::CrLf,
            Some(_) => LineEnd::LoneCr,
            None => LineEnd::CrAtEnd,
        },
        _ => LineEnd::Not,
    }
}

/// Whether the `\r` at `bytes[i]` is a lone CR, which ends a line of its own (one at the end of
/// `bytes` counts as lone).
#[inline]
fn lone_cr(bytes: &[u8], i: usize) -> bool {
    bytes[i] == b'\r' && bytes.get(i + 1) != Some(&b'\n')
}

/// The number of line ends in `bytes` (see [`LineEnd`]).
pub(crate) fn count_line_ends(bytes: &[u8]) -> u64 {
    let lf = memchr::memchr_iter(b'\n', bytes).count();
    let lone_cr = match memchr::memchr(b'\r', bytes) {
        Some(first) => memchr::memchr_iter(b'\r', &bytes[first..])
            .filter(|&i| lone_cr(bytes, first + i))
            .count(),
        None => 0,
    };
    (lf + lone_cr) as u64
}

/// The byte offsets at which the lines of `bytes` start (the first is 0), by the same rule.
pub(crate) fn line_starts(bytes: &[u8]) -> Vec<u32> {
    let mut starts = vec![0];
    for i in memchr::memchr2_iter(b'\n', b'\r', bytes) {
        if bytes[i] == b'\n' || lone_cr(bytes, i) {
            starts.push(u32::try_from(i + 1).unwrap_or(u32::MAX));
        }
    }
    starts
}

// ---- Byte classes --------------------------------------------------------------------------

/// Whitespace bytes, as a table.
static SPACE: [bool; 256] = {
    let mut t = [false; 256];
    t[b' ' as usize] = true;
    t[b'\t' as usize] = true;
    t[b'\n' as usize] = true;
    t[b'\r' as usize] = true;
    t[0x0b] = true;
    t[0x0c] = true;
    t
};

/// Whitespace between tokens (a form feed and a vertical tab count too).
#[inline]
pub(crate) fn is_space(b: u8) -> bool {
    SPACE[b as usize]
}

/// A byte after which a result may start (or the start of the game).
pub(crate) fn is_delim_before(b: u8) -> bool {
    is_space(b) || matches!(b, b'(' | b')' | b'}' | b'.')
}

/// A byte at which a result may end (or the end of the game).
pub(crate) fn is_delim_after(b: u8) -> bool {
    is_space(b) || matches!(b, b'(' | b')' | b'{' | b'}' | b';' | b'[')
}

/// Bytes that may appear in a tag name: letters, digits, `_ + # = : -`.
static TAG_NAME_CHAR: [bool; 256] = {
    let mut t = [false; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        t[b] = c.is_ascii_alphanumeric() || matches!(c, b'_' | b'+' | b'#' | b'=' | b':' | b'-');
        b += 1;
    }
    t
};

/// A byte that may appear in a tag name.
#[inline]
pub(crate) fn is_tag_name_char(b: u8) -> bool {
    TAG_NAME_CHAR[b as usize]
}

/// A byte that may appear in a move after its first letter: letters, digits, `= + # : - @`.
pub(crate) fn is_san_char(b: u8) -> bool {
    SAN_CLASS[b as usize] != 0
}

/// Blanks within a line: a space, a tab, a vertical tab or a form feed (whitespace less the line
/// ends).
#[inline]
pub(crate) fn is_blank(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | 0x0b | 0x0c)
}

/// [`SAN_CLASS`] bit: the byte may appear in a move after its first letter.
pub(crate) const SAN_BYTE: u8 = 1;
/// [`SAN_CLASS`] bit: the byte is a digit (a move must name a rank).
pub(crate) const SAN_DIGIT: u8 = 2;

/// The bytes that may appear in a move after its first letter (see [`is_san_char`]), classified
/// for the move scan: one table lookup per byte tells both whether the move goes on and whether it
/// holds a digit.
pub(crate) static SAN_CLASS: [u8; 256] = {
    let mut t = [0; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        if c.is_ascii_alphanumeric() || matches!(c, b'=' | b'+' | b'#' | b':' | b'-' | b'@') {
            t[b] = SAN_BYTE;
        }
        if c.is_ascii_digit() {
            t[b] |= SAN_DIGIT;
        }
        b += 1;
    }
    t
};

/// The UTF-8 byte order mark, skipped between games.
pub(crate) const BOM: &[u8] = b"\xEF\xBB\xBF";

// ---- Stop sets -----------------------------------------------------------------------------

/// Bytes that stop the scan through a quoted tag value.
pub(crate) const VALUE_STOP: [u8; 4] = *b"\"\\\n\r";

/// Bytes that stop the scan through a `{ }` comment: its end, and the line ends (to count lines).
pub(crate) const BRACE_STOP: [u8; 3] = *b"}\n\r";

/// Bytes that stop the splitter's scan through a `{ }` comment that holds a tag line: as
/// [`BRACE_STOP`], and a `{` (comments do not nest: a `{` there opens the next game's comment).
pub(crate) const SUSPECT_STOP: [u8; 4] = *b"}{\n\r";

/// Bytes that stop the splitter's scan between a tag's `[` and its `]`.
pub(crate) const TAG_STOP: [u8; 4] = *b"\"]\n\r";

/// Bytes that stop the splitter's fast scan through movetext: line ends, comments, `%` lines,
/// brackets, a tag start, and the bytes a result holds (`-`, `*`).
pub(crate) const MOVETEXT_STOP: [u8; 10] = *b"\n\r{;%()[-*";

/// Bytes that stop the general way's scan through a skipped variation: brackets, and comments
/// (in which brackets do not count) and `%` lines.
pub(crate) const SKIP_STOP: [u8; 5] = *b"(){;%";

/// Bytes that stop the one-pass reader's scan through a skipped variation: as [`SKIP_STOP`], and
/// what makes a game not one for that reader (`[`, and line ends, which it counts).
pub(crate) const VARIATION_STOP: [u8; 8] = *b"(){[;%\n\r";

// ---- Limits --------------------------------------------------------------------------------

/// The longest tag line, in bytes, where the reader must find one by looking ahead of a line
/// start: the splitter's look for a tag start or a tag line inside a comment, the one-pass
/// reader's tag lines, and [`super::last_game_start`]'s look for a game start. (A longer tag pair
/// is still read, the general way.)
pub const MAX_TAG_LINE: usize = 4096;

// ---- The result token ----------------------------------------------------------------------

/// A game termination marker.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    /// `1-0`
    WhiteWins,
    /// `0-1`
    BlackWins,
    /// `1/2-1/2`
    Draw,
    /// `*`: unknown, unfinished or abandoned.
    Unknown,
}

impl GameResult {
    /// Reads a `Result` tag's value; anything but the three decisive or drawn markers (`*`, an
    /// empty or unusual value such as `½-½`) is [`GameResult::Unknown`].
    #[inline]
    pub fn from_tag(value: &str) -> GameResult {
        match value.trim() {
            "1-0" => GameResult::WhiteWins,
            "0-1" => GameResult::BlackWins,
            "1/2-1/2" => GameResult::Draw,
            _ => GameResult::Unknown,
        }
    }

    /// The marker as written in PGN.
    pub fn as_str(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
            GameResult::Unknown => "*",
        }
    }
}
