//! The lexer: the one owner of PGN's byte classes, stop sets, size limits and lexical rules — where
//! a line ends, where a `{ }` comment, a `;` comment or a `%` escape line ends, where a quoted tag
//! value ends and what its escapes mean — and the resumable [`Lexer`] that applies them to a read
//! buffer that may end anywhere.
//!
//! Everything above this file reads bytes through it: the cutter's section machine runs over the
//! [`Lexer`]'s lexemes (see [`super::cut`]); the one-pass reader, the general parser, a skipped
//! variation and the part boundary call its rules on the bytes in hand; the input sniffer of the
//! `arbiter` crate classifies bytes with [`is_space`] and [`may_start_token`]; replay gets the
//! byte span of every comment it defers from the reader, never looking for a comment's end itself.
//! A test of this crate (`tests/reader/lexer.rs`) holds every other file to that: no byte
//! table, stop set or line-end search of its own.
//!
//! "The bytes end before the token does" is said one way, [`NeedMore`]: a caller at the end of the
//! input (`eof`) never gets it, and one that gets it refills its buffer and asks again from where
//! it stood.
//!
//! A stop set is the set of bytes at which a search through some context must stop and look
//! (see [`super::scan::find_any`]); the bytes between two stops mean nothing there.

use super::clock::{LICHESS_CLOCK_LEN, lichess_clock_comment};

// ---- Need more input -----------------------------------------------------------------------

/// The bytes in hand end before the token (or line, or comment) does, and the input may go on:
/// more input tells. Never given at the end of the input.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct NeedMore;

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

/// The length of the line end at `bytes[at]` of a plain line (LF or CRLF): 1 or 2, and 0 for
/// anything else, a lone CR included; [`NeedMore`] if the bytes end first (at `at`, or after a
/// `\r`).
#[inline]
pub(crate) fn plain_line_end(bytes: &[u8], at: usize) -> Result<usize, NeedMore> {
    match line_end(bytes, at) {
        LineEnd::Lf => Ok(1),
        LineEnd::CrLf => Ok(2),
        LineEnd::LoneCr => Ok(0),
        LineEnd::Not if at < bytes.len() => Ok(0),
        LineEnd::CrAtEnd | LineEnd::Not => Err(NeedMore),
    }
}

/// Whether the `\r` at `bytes[i]` is a lone CR, which ends a line of its own (one at the end of
/// `bytes` counts as lone).
#[inline]
fn lone_cr(bytes: &[u8], i: usize) -> bool {
    bytes[i] == b'\r' && bytes.get(i + 1) != Some(&b'\n')
}

/// The index of the first line-end byte (`\n` or `\r`) in `bytes`, or its length: where the
/// text of a line stops. A `;` comment, a `%` escape line and a broken tag pair's skipped rest all
/// run to there.
#[inline]
pub(crate) fn line_text_end(bytes: &[u8]) -> usize {
    memchr::memchr2(b'\n', b'\r', bytes).unwrap_or(bytes.len())
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

/// The line that byte `offset` of `bytes` stands on, as [`line_starts`] counts lines: how many
/// line starts after the first come at or before `offset`, and where the last of them is (0 on
/// the first line). Scans only up to `offset`, building no index.
pub(crate) fn line_of(bytes: &[u8], offset: usize) -> (usize, usize) {
    let offset = offset.min(bytes.len());
    let (mut lines, mut start) = (0, 0);
    for i in memchr::memchr2_iter(b'\n', b'\r', &bytes[..offset]) {
        if bytes[i] == b'\n' || lone_cr(bytes, i) {
            lines += 1;
            start = i + 1;
        }
    }
    (lines, start)
}

/// The line starting at `buf[p]` up to (not including) its end, if it is complete in the buffer
/// (or the input has ended); a line longer than [`MAX_TAG_LINE`] is cut there: no look-ahead of
/// the reader needs more of it.
pub(crate) fn whole_line(buf: &[u8], p: usize, eof: bool) -> Result<&[u8], NeedMore> {
    let window = tag_window(buf, p);
    let k = line_text_end(window);
    if k < window.len() || eof || window.len() == MAX_TAG_LINE {
        Ok(&window[..k])
    } else {
        Err(NeedMore)
    }
}

/// The bytes from `buf[p]` that a look-ahead for a tag pair may see: at most [`MAX_TAG_LINE`].
#[inline]
pub(crate) fn tag_window(buf: &[u8], p: usize) -> &[u8] {
    &buf[p..buf.len().min(p + MAX_TAG_LINE)]
}

/// Line bookkeeping of a stream: the current line and where it starts.
#[derive(Debug, Default)]
pub(crate) struct Lines {
    /// The current line, from 1.
    pub(crate) line: u64,
    /// The stream offset at which the current line starts.
    pub(crate) start: u64,
}

impl Lines {
    /// A line ended; the next starts at stream offset `next`.
    #[inline]
    pub(crate) fn newline(&mut self, next: u64) {
        self.line += 1;
        self.start = next;
    }

    /// The lexer passed `bytes`, which start at stream offset `at` and end with no line end cut
    /// short (not with a `\r`), in one step (a tag pair over lines): counts their line ends.
    pub(crate) fn pass(&mut self, bytes: &[u8], at: u64) {
        if let Some(last) = memchr::memrchr2(b'\n', b'\r', bytes) {
            self.line += count_line_ends(bytes);
            self.start = at + last as u64 + 1;
        }
    }
}

/// Whether `bytes[at]` is one space followed by a byte above the space (the next token), the
/// white space that nearly every token is followed by: [`skip_plain_space`] takes it first, the
/// one-pass reader's quick tokens with their token.
#[inline(always)]
pub(crate) fn one_space_at(bytes: &[u8], at: usize) -> bool {
    bytes.get(at) == Some(&b' ') && bytes.get(at + 1).is_some_and(|&b| b > b' ')
}

/// The index of the first byte at or after `pos` that is not a space, a tab or the line end of a
/// plain line (LF or CRLF; a lone CR stops it, as does a CR at the end of the bytes), counting
/// the line ends in `lines`: the white space of a game that the one-pass reader takes.
#[inline(always)]
pub(crate) fn skip_plain_space(bytes: &[u8], mut pos: usize, lines: &mut u64) -> usize {
    if one_space_at(bytes, pos) {
        return pos + 1;
    }
    loop {
        match bytes.get(pos) {
            Some(b' ' | b'\t') => pos += 1,
            Some(b'\n') => {
                pos += 1;
                *lines += 1;
            }
            Some(b'\r') if bytes.get(pos + 1) == Some(&b'\n') => {
                pos += 2;
                *lines += 1;
            }
            _ => return pos,
        }
    }
}

/// The index of the first byte at or after `pos` that is not a space or a tab ([`is_tag_blank`]).
#[inline]
pub(crate) fn skip_tag_blanks(bytes: &[u8], mut pos: usize) -> usize {
    while bytes.get(pos).is_some_and(|&b| is_tag_blank(b)) {
        pos += 1;
    }
    pos
}

/// The index of the first byte at or after `pos` that is not a space, a tab or a line end byte
/// (`\n`, `\r`): the white space that may separate the tokens of a tag pair over lines (see
/// [`super::tags::tag_pair_over_lines`]).
#[inline]
pub(crate) fn skip_tag_space(bytes: &[u8], mut pos: usize) -> usize {
    while bytes
        .get(pos)
        .is_some_and(|&b| is_tag_blank(b) || b == b'\n' || b == b'\r')
    {
        pos += 1;
    }
    pos
}

/// Whether `bytes` hold a line end byte (`\n` or `\r`).
#[inline]
pub(crate) fn has_line_end(bytes: &[u8]) -> bool {
    memchr::memchr2(b'\n', b'\r', bytes).is_some()
}

/// `bytes` without the white space ([`is_space`]) at its end.
pub(crate) fn trim_space_end(bytes: &[u8]) -> &[u8] {
    let end = bytes
        .iter()
        .rposition(|&b| !is_space(b))
        .map_or(0, |i| i + 1);
    &bytes[..end]
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

/// Whitespace between tokens: a space, a tab, a line end, a vertical tab or a form feed.
#[inline]
pub fn is_space(b: u8) -> bool {
    SPACE[b as usize]
}

/// Blanks within a line: a space, a tab, a vertical tab or a form feed (whitespace less the line
/// ends).
#[inline]
pub(crate) fn is_blank(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | 0x0b | 0x0c)
}

/// Blanks inside a tag pair, around its name: a space or a tab.
#[inline]
pub(crate) fn is_tag_blank(b: u8) -> bool {
    matches!(b, b' ' | b'\t')
}

/// Whether a result whose first byte is `first` may start right after the byte `before` (one at
/// the start of a game always may). A `*` may follow anything: it is a token of its own whatever
/// touches it (PGN standard, section 7: `e5*`, `$1*`, `Nc6?*`). `1-0`, `0-1` and `1/2-1/2` start
/// with a digit, which may continue the token before them, so they follow only a byte that ends
/// that token: white space, `( ) } .`, the `]` of a tag pair, or the `!` or `?` of a suffix
/// annotation (`Nc6!?1-0`, `[Result "1-0"]1-0`), which are no symbol characters.
#[inline]
pub(crate) fn may_start_result(before: u8, first: u8) -> bool {
    first == b'*'
        || is_space(before)
        || matches!(before, b'(' | b')' | b'}' | b'.' | b']' | b'!' | b'?')
}

/// A byte at which a result may end (or the end of the game).
pub(crate) fn is_delim_after(b: u8) -> bool {
    is_space(b) || matches!(b, b'(' | b')' | b'{' | b'}' | b';' | b'[')
}

/// A byte that ends stray text (bytes that are no token): whitespace, or a byte that starts a
/// comment, a variation, a tag, a NAG or the result `*` (which may follow anything: see
/// [`may_start_result`]), or ends a comment or a variation.
pub(crate) fn ends_stray_text(b: u8) -> bool {
    is_space(b) || matches!(b, b'{' | b'}' | b'(' | b')' | b';' | b'[' | b'$' | b'*')
}

/// A byte that a PGN token may start with: a letter or a digit (a move, a move number, a result),
/// or one of `[ { ; % ( ) $ * ! ? . -` (a tag, a comment, an escape line, a variation, a NAG, a
/// result, a suffix annotation, dots, a null move).
#[inline]
pub fn may_start_token(b: u8) -> bool {
    b.is_ascii_alphanumeric()
        || matches!(
            b,
            b'[' | b'{' | b';' | b'%' | b'(' | b')' | b'$' | b'*' | b'!' | b'?' | b'.' | b'-'
        )
}

/// Whether a byte is a control byte other than a tab: none stands in movetext.
#[inline]
pub(crate) fn is_control(b: u8) -> bool {
    (b < 0x20 && b != b'\t') || b == 0x7f
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
    SAN_CLASS[b as usize] & SAN_BYTE != 0
}

/// [`SAN_CLASS`] bit: the byte may appear in a move after its first letter.
pub(crate) const SAN_BYTE: u8 = 1;
/// [`SAN_CLASS`] bit: the byte is a digit (a move must name a rank).
pub(crate) const SAN_DIGIT: u8 = 2;
/// [`SAN_CLASS`] bit: a byte that is no move byte but may still belong to the move's token
/// right after its text: the `.` of an attached `e.p.`, the `!` or `?` of a suffix annotation.
pub(crate) const SAN_ATTACHED: u8 = 4;

/// The bytes that may appear in a move after its first letter (see [`is_san_char`]), and those
/// that may be attached to its text ([`SAN_ATTACHED`]), classified for the move scan: one table
/// lookup per byte tells whether the move goes on, whether it holds a digit, and, where it
/// stops, whether its token may go on.
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
        if matches!(c, b'.' | b'!' | b'?') {
            t[b] = SAN_ATTACHED;
        }
        b += 1;
    }
    t
};

/// What the first byte of a movetext token says, for the drivers' first test (see
/// [`TOKEN_START`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum TokenStart {
    /// A letter but `Z` (which may start a null move `Z0`): a move, or stray text.
    Move,
    /// `{`: a comment.
    Comment,
    /// `1` to `9`: a move number, or a result.
    Number,
    /// Anything else.
    Other,
}

/// The commonest tokens by their first byte: one lookup and a test or two tell a move, a comment
/// and a move number apart, before the rest are told apart byte by byte.
pub(crate) static TOKEN_START: [TokenStart; 256] = {
    let mut t = [TokenStart::Other; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        t[b] = match c {
            b'a'..=b'z' | b'A'..=b'Y' => TokenStart::Move,
            b'{' => TokenStart::Comment,
            b'1'..=b'9' => TokenStart::Number,
            _ => TokenStart::Other,
        };
        b += 1;
    }
    t
};

/// The UTF-8 byte order mark, skipped between games.
pub const BOM: &[u8] = b"\xEF\xBB\xBF";

// ---- Stop sets -----------------------------------------------------------------------------

/// Bytes that stop the scan through a quoted tag value.
const VALUE_STOP: [u8; 4] = *b"\"\\\n\r";

/// Bytes that stop the scan through a `{ }` comment: its end, and the line ends (to count lines).
const BRACE_STOP: [u8; 3] = *b"}\n\r";

/// Bytes that stop the scan through a `{ }` comment that holds a tag line: as [`BRACE_STOP`], and
/// a `{` (comments do not nest: a `{` there opens the next game's comment).
const SUSPECT_STOP: [u8; 4] = *b"}{\n\r";

/// Bytes that stop the cutter's scan between a tag's `[` and its `]`.
pub(crate) const TAG_STOP: [u8; 4] = *b"\"]\n\r";

/// Bytes that stop the cutter's scan through movetext: line ends, comments, `%` lines, brackets,
/// a tag start, and the bytes a result holds (`-`, `*`).
pub(crate) const MOVETEXT_STOP: [u8; 10] = *b"\n\r{;%()[-*";

/// Bytes that stop the general way's scan through a skipped variation: brackets, and comments
/// (in which brackets do not count) and `%` lines.
pub(crate) const SKIP_STOP: [u8; 5] = *b"(){;%";

/// Bytes that stop the one-pass reader's scan through a skipped variation: as [`SKIP_STOP`], and
/// what makes a game not one for that reader (`[`, and line ends, which it counts).
pub(crate) const VARIATION_STOP: [u8; 8] = *b"(){[;%\n\r";

/// Bytes that keep a line's lexical state from being known from the line alone: a `"` (a quoted
/// value may start or run on), a `;` (a comment hides the rest of the line) and a `\r` (a lone CR
/// ends a line inside it).
pub(crate) const LINE_STATE_STOP: [u8; 3] = *b"\";\r";

// ---- Limits --------------------------------------------------------------------------------

/// The longest tag line, in bytes, where the reader must find one by looking ahead of a line
/// start: the cutter's look for a tag start or a tag line inside a comment, the one-pass
/// reader's tag lines, and [`super::last_game_start`]'s look for a game start; and the longest tag
/// pair over lines (`tags::tag_pair_over_lines`). (A longer tag pair on one line is still
/// read, the general way.)
pub const MAX_TAG_LINE: usize = 4096;

/// How far back of the end of some bytes a look for a game start must go again once more bytes
/// follow: a tag line of [`MAX_TAG_LINE`] bytes and its line end (CRLF), which the end may have
/// cut short.
pub const TAG_LINE_LOOK_BACK: usize = MAX_TAG_LINE + 2;

// ---- Comments ------------------------------------------------------------------------------

/// Where the `}` that closes a comment stands in `body` (the bytes after its `{`), if anywhere: a
/// comment runs to the first `}` (comments do not nest). Most comments are short
/// (`{ [%clk 0:03:00] }`), so an inlined search beats `memchr`'s call.
#[inline]
pub(crate) fn comment_close(body: &[u8]) -> Option<usize> {
    let k = super::scan::find_any(body, [b'}']);
    (k < body.len()).then_some(k)
}

/// The last brace (`{` or `}`) in `bytes`, if any: a `}` closes any comment open before it.
pub(crate) fn last_brace(bytes: &[u8]) -> Option<u8> {
    memchr::memrchr2(b'{', b'}', bytes).map(|i| bytes[i])
}

/// The first brace (`{` or `}`) in `bytes`, if any.
pub(crate) fn first_brace(bytes: &[u8]) -> Option<u8> {
    memchr::memchr2(b'{', b'}', bytes).map(|i| bytes[i])
}

/// How a plain comment ended (see [`plain_comment`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum PlainComment {
    /// Its `}` stands at this index of the body.
    Closed(usize),
    /// It is no plain comment: a line of it starts with `[` (a tag line that may start the next
    /// game: see [`super::cut`]) or ends with a lone CR, or the input ends in it.
    Not,
}

/// The `{ }` comment whose text starts at `body[0]`, read as a plain comment: its lines end with
/// LF or CRLF (counted in `lines`), and none of them starts with `[`.
#[inline(always)]
pub(crate) fn plain_comment(
    body: &[u8],
    eof: bool,
    lines: &mut u64,
) -> Result<PlainComment, NeedMore> {
    // Most comments are one line, `{ [%clk 0:03:00] }`: one search.
    let k = super::scan::find_any(body, BRACE_STOP);
    if body.get(k) == Some(&b'}') {
        return Ok(PlainComment::Closed(k));
    }
    plain_comment_lines(body, k, eof, lines)
}

/// The lichess clock comment `{ [%clk H:MM:SS] }` at `bytes[start]` (a `{`): its text, as a
/// string, and its reading; `None` when the comment at `start` is any other (or the bytes end
/// first). Its text holds no `}` and no line end, so the comment ends where [`plain_comment`] and
/// [`comment_close`] would end it.
#[inline(always)]
pub(crate) fn clock_comment_at(bytes: &[u8], start: usize) -> Option<(&str, u32)> {
    clock_comment(bytes.get(start..)?.first_chunk()?)
}

/// The bytes of a lichess clock comment, `{ [%clk H:MM:SS] }`.
pub(crate) const CLOCK_COMMENT_LEN: usize = LICHESS_CLOCK_LEN + 2;

/// [`clock_comment_at`] on the comment's bytes (the caller knows there are that many).
#[inline(always)]
pub(crate) fn clock_comment(comment: &[u8; CLOCK_COMMENT_LEN]) -> Option<(&str, u32)> {
    let ms = lichess_clock_comment(comment)?;
    let text = &comment[1..LICHESS_CLOCK_LEN + 1];
    // SAFETY: the shape test passed only ASCII bytes (fixed ones, and `0` to `?`).
    Some((unsafe { std::str::from_utf8_unchecked(text) }, ms))
}

/// [`plain_comment`] from `body[k]`, the first line end or the end of the bytes.
#[cold]
#[inline(never)]
fn plain_comment_lines(
    body: &[u8],
    mut k: usize,
    eof: bool,
    lines: &mut u64,
) -> Result<PlainComment, NeedMore> {
    let at_end = if eof {
        Ok(PlainComment::Not)
    } else {
        Err(NeedMore)
    };
    loop {
        k += super::scan::find_any(&body[k..], BRACE_STOP);
        match body.get(k) {
            Some(b'}') => return Ok(PlainComment::Closed(k)),
            Some(_) => match plain_line_end(body, k) {
                Ok(0) => return Ok(PlainComment::Not),
                Ok(len) => {
                    k += len;
                    *lines += 1;
                    match body.get(k) {
                        Some(b'[') => return Ok(PlainComment::Not),
                        Some(_) => {}
                        None => return at_end,
                    }
                }
                Err(NeedMore) => return at_end,
            },
            None => return at_end,
        }
    }
}

// ---- Quoted tag values ---------------------------------------------------------------------

/// The index of the quote that closes a tag value in `i` (the bytes after the opening quote),
/// skipping `\"` and `\\` escapes, and whether the value holds a backslash (only then can it
/// need [`unescape`]); `None` if the line or the bytes end first.
#[inline]
pub(crate) fn closing_quote(i: &[u8]) -> Option<(usize, bool)> {
    let mut k = 0;
    let mut backslash = false;
    loop {
        k += super::scan::find_any(&i[k..], VALUE_STOP);
        match i.get(k) {
            None | Some(b'\n' | b'\r') => return None,
            Some(b'"') => return Some((k, backslash)),
            Some(_) => {
                backslash = true;
                k += escape_len(i, k);
            }
        }
    }
}

/// The index in `i` of the first byte that stops a tag value with no escape in it: its closing
/// quote, a backslash, a line end, or the end of `i`.
#[inline(always)]
pub(crate) fn plain_value_end(i: &[u8]) -> usize {
    super::scan::find_any(i, VALUE_STOP)
}

/// The length of the escape at the backslash `i[k]` of a tag value: 2 for `\"` and `\\`, 1 for a
/// backslash before anything else (it stands for itself).
#[inline]
fn escape_len(i: &[u8], k: usize) -> usize {
    match i.get(k + 1) {
        Some(b'"' | b'\\') => 2,
        _ => 1,
    }
}

/// Undoes the `\"` and `\\` escapes of a raw tag value; other backslashes stay as they are.
#[inline]
pub(crate) fn unescape(raw: &str) -> std::borrow::Cow<'_, str> {
    if !raw.contains('\\') {
        return std::borrow::Cow::Borrowed(raw);
    }
    let mut out = String::with_capacity(raw.len());
    let mut chars = raw.chars().peekable();
    while let Some(c) = chars.next() {
        match (c, chars.peek()) {
            ('\\', Some(&next @ ('"' | '\\'))) => {
                out.push(next);
                chars.next();
            }
            _ => out.push(c),
        }
    }
    std::borrow::Cow::Owned(out)
}

// ---- The resumable lexer -------------------------------------------------------------------

/// The lexical context the [`Lexer`] stands in.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Context {
    /// Between tokens, or inside one.
    Normal,
    /// Inside a `{ }` comment.
    Brace,
    /// Inside a `;` comment or a `%` escape line, up to the line end.
    Line,
    /// Inside the quoted value of a tag pair.
    Quote,
}

/// What [`Lexer::next`] found.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Lexeme {
    /// A line end (LF, CRLF or a lone CR) out of any comment and quote, passed and counted; a `;`
    /// comment, a `%` line and a quoted value cut short all end at one.
    LineEnd,
    /// Out of any comment and quote, the first byte of a token at the lexer's position, not
    /// passed: the caller reads the token by the grammar's rules and moves the lexer past it, or
    /// enters the context it opens ([`Lexer::enter`]).
    Token(u8),
    /// Inside a `{ }` comment, a line of it starts at the lexer's position (the comment may quote
    /// a tag line): given until the caller calls [`Lexer::line_seen`].
    CommentLine,
    /// Inside a `{ }` comment, its closing `}` at the lexer's position, not passed: the caller
    /// calls [`Lexer::close_comment`], or ends the game before it.
    CommentClose,
    /// Inside a `{ }` comment, a `{`, passed (given only when asked for: comments do not nest, so
    /// such a `{` may open the next game's comment).
    CommentOpen,
    /// The input ends at the lexer's position.
    End,
}

/// The resumable lexer of a read buffer: its context and position are all its state, so that a
/// caller given [`NeedMore`] refills the buffer, moves [`Lexer::pos`] down by the refill's shift,
/// and asks again.
#[derive(Debug)]
pub(crate) struct Lexer {
    pub(crate) context: Context,
    /// The buffer index of the next byte to look at.
    pub(crate) pos: usize,
    /// A line of a `{ }` comment starts at `pos` and has not been looked at.
    comment_line: bool,
}

impl Lexer {
    /// A lexer at buffer index `pos`, between tokens.
    pub(crate) fn new(pos: usize) -> Lexer {
        Lexer {
            context: Context::Normal,
            pos,
            comment_line: false,
        }
    }

    /// Enters `context` at `pos` (after the `{`, `;`, `%` or `"` that opens it).
    pub(crate) fn enter(&mut self, context: Context, pos: usize) {
        self.context = context;
        self.pos = pos;
    }

    /// The caller has looked at the comment line that [`Lexeme::CommentLine`] gave.
    pub(crate) fn line_seen(&mut self) {
        self.comment_line = false;
    }

    /// Passes the `}` that [`Lexeme::CommentClose`] gave: out of the comment.
    pub(crate) fn close_comment(&mut self) {
        self.pos += 1;
        self.context = Context::Normal;
    }

    /// The next lexeme of `buf` (the buffer's valid bytes, from stream offset `base`; the input
    /// ends after them if `eof`), counting line ends in `lines`. In a comment, a `{` is a
    /// [`Lexeme::CommentOpen`] if `watch_open`, else part of the comment's text.
    pub(crate) fn next(
        &mut self,
        buf: &[u8],
        eof: bool,
        lines: &mut Lines,
        base: u64,
        watch_open: bool,
    ) -> Result<Lexeme, NeedMore> {
        let len = buf.len();
        loop {
            let p = self.pos;
            if p >= len {
                return if eof { Ok(Lexeme::End) } else { Err(NeedMore) };
            }
            match self.context {
                Context::Normal => {
                    let b = buf[p];
                    if b != b'\n' && b != b'\r' {
                        return Ok(Lexeme::Token(b));
                    }
                    match line_end(buf, p) {
                        LineEnd::CrAtEnd if !eof => return Err(NeedMore),
                        // The LF ends the line, on the next turn.
                        LineEnd::CrLf => self.pos = p + 1,
                        _ => {
                            self.pos = p + 1;
                            lines.newline(base + self.pos as u64);
                            return Ok(Lexeme::LineEnd);
                        }
                    }
                }
                Context::Line => {
                    self.pos = p + line_text_end(&buf[p..]);
                    if self.pos < len {
                        self.context = Context::Normal;
                    }
                }
                Context::Quote => match buf[p] {
                    // The common case first: plain text, skipped in a tight loop.
                    b if !VALUE_STOP.contains(&b) => self.pos = p + plain_value_end(&buf[p..]),
                    b'"' => {
                        self.pos = p + 1;
                        self.context = Context::Normal;
                    }
                    b'\\' if p + 1 == len && !eof => return Err(NeedMore),
                    b'\\' => self.pos = p + escape_len(buf, p),
                    // A line end, which ends the value cut short: read out of it.
                    _ => self.context = Context::Normal,
                },
                Context::Brace => {
                    if self.comment_line {
                        return Ok(Lexeme::CommentLine);
                    }
                    let k = match watch_open {
                        false => super::scan::find_any(&buf[p..], BRACE_STOP),
                        true => super::scan::find_any(&buf[p..], SUSPECT_STOP),
                    };
                    let q = p + k;
                    match buf.get(q) {
                        None => self.pos = len,
                        Some(b'}') => {
                            self.pos = q;
                            return Ok(Lexeme::CommentClose);
                        }
                        Some(b'{') => {
                            self.pos = q + 1;
                            return Ok(Lexeme::CommentOpen);
                        }
                        Some(_) => match line_end(buf, q) {
                            LineEnd::CrAtEnd if !eof => {
                                self.pos = q;
                                return Err(NeedMore);
                            }
                            // The LF ends the line, on the next turn.
                            LineEnd::CrLf => self.pos = q + 1,
                            _ => {
                                self.pos = q + 1;
                                lines.newline(base + self.pos as u64);
                                self.comment_line = true;
                            }
                        },
                    }
                }
            }
        }
    }
}

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

#[cfg(test)]
mod tests {
    use super::*;

    /// Every lexeme of `text` read through buffers that grow `step` bytes at a time, with the
    /// position each stands at; comments entered at `{`, lines at `;`, quotes at `"`.
    fn lexemes(text: &[u8], step: usize) -> Vec<(Lexeme, usize, u64)> {
        let mut lexer = Lexer::new(0);
        let mut lines = Lines { line: 1, start: 0 };
        let mut out = Vec::new();
        let mut end = step.min(text.len());
        loop {
            let eof = end == text.len();
            match lexer.next(&text[..end], eof, &mut lines, 0, false) {
                Err(NeedMore) => end = (end + step).min(text.len()),
                Ok(lexeme) => {
                    out.push((lexeme, lexer.pos, lines.line));
                    match lexeme {
                        Lexeme::End => return out,
                        Lexeme::Token(b'{') => lexer.enter(Context::Brace, lexer.pos + 1),
                        Lexeme::Token(b';') => lexer.enter(Context::Line, lexer.pos + 1),
                        Lexeme::Token(b'"') => lexer.enter(Context::Quote, lexer.pos + 1),
                        Lexeme::Token(_) => lexer.pos += 1,
                        Lexeme::CommentLine => lexer.line_seen(),
                        Lexeme::CommentClose => lexer.close_comment(),
                        Lexeme::LineEnd | Lexeme::CommentOpen => {}
                    }
                }
            }
        }
    }

    #[test]
    fn lexemes_do_not_depend_on_where_the_bytes_end() {
        let text = b"a{b\r\nc\r}\"x\\\"y\r\nz; q}\r\r\n{\n[A \"1\"]\n}\"\\";
        let whole = lexemes(text, text.len());
        for step in 1..text.len() {
            assert_eq!(lexemes(text, step), whole, "step {step}");
        }
        let kinds: Vec<Lexeme> = whole.iter().map(|l| l.0).collect();
        use Lexeme::*;
        assert_eq!(
            kinds,
            [
                Token(b'a'),
                Token(b'{'),
                CommentLine,
                CommentLine,
                CommentClose,
                Token(b'"'),
                LineEnd,
                Token(b'z'),
                Token(b';'),
                LineEnd,
                LineEnd,
                Token(b'{'),
                CommentLine,
                CommentLine,
                CommentClose,
                Token(b'"'),
                End
            ]
        );
        // Lines: CRLF, lone CR and LF once each, inside comments too.
        assert_eq!(whole.last().map(|l| l.2), Some(8));
    }

    #[test]
    fn line_ends_count_lf_crlf_and_a_lone_cr_once_each() {
        assert_eq!(count_line_ends(b""), 0);
        assert_eq!(count_line_ends(b"a\nb\r\nc\rd\r"), 4);
        assert_eq!(count_line_ends(b"\r\r\n\n"), 3);
        assert_eq!(line_starts(b"a\nb\r\nc\rd\r"), [0, 2, 5, 7, 9]);
    }

    #[test]
    fn plain_comments() {
        let mut lines = 0;
        assert_eq!(
            plain_comment(b" x } e4", false, &mut lines),
            Ok(PlainComment::Closed(3))
        );
        assert_eq!(
            plain_comment(b"a\r\nb\n}", false, &mut lines),
            Ok(PlainComment::Closed(5))
        );
        assert_eq!(lines, 2);
        assert_eq!(
            plain_comment(b"a\rb}", true, &mut lines),
            Ok(PlainComment::Not)
        );
        assert_eq!(
            plain_comment(b"a\n[b}", false, &mut lines),
            Ok(PlainComment::Not)
        );
        assert_eq!(plain_comment(b"a\r", false, &mut lines), Err(NeedMore));
        assert_eq!(
            plain_comment(b"a\r", true, &mut lines),
            Ok(PlainComment::Not)
        );
        assert_eq!(comment_close(b"ab}c}"), Some(2));
        assert_eq!(
            clock_comment_at(b"e4 { [%clk 0:03:00] } e5", 3),
            Some((" [%clk 0:03:00] ", 180_000))
        );
        // The comment must end right after the text, and all of it must be there.
        assert_eq!(clock_comment_at(b"{ [%clk 0:03:00]  }", 0), None);
        assert_eq!(clock_comment_at(b"{ [%clk 0:03:00] ", 0), None);
        assert_eq!(clock_comment_at(b"{ [%clk 0:03:00] x}", 0), None);
        assert_eq!(clock_comment_at(b"{ [%clk 0:03:0x] }", 0), None);
        assert_eq!(comment_close(b"ab"), None);
    }

    #[test]
    fn quoted_values_and_escapes() {
        assert_eq!(closing_quote(br#"a\"b" x"#), Some((4, true)));
        assert_eq!(closing_quote(br#"a\\" x"#), Some((3, true)));
        assert_eq!(closing_quote(br#"c:\x" x"#), Some((4, true)));
        assert_eq!(closing_quote(b"plain\" x"), Some((5, false)));
        assert_eq!(closing_quote(b"open\n\""), None);
        assert_eq!(unescape(r#"a \"b\" \\ \n"#), r#"a "b" \ \n"#);
        assert!(matches!(unescape("plain"), std::borrow::Cow::Borrowed(_)));
    }

    #[test]
    fn byte_classes() {
        // A vertical tab and a form feed are white space between tokens, as everywhere here.
        for b in [b' ', b'\t', b'\n', b'\r', 0x0b, 0x0c] {
            assert!(is_space(b) && !may_start_token(b));
        }
        assert!(!is_space(0) && !is_space(0xa0));
        for b in b"e4Nf3[{;%()$*!?.-" {
            assert!(may_start_token(*b), "{}", *b as char);
        }
        for b in b"}]\"<&\\" {
            assert!(!may_start_token(*b), "{}", *b as char);
        }
        assert!((0..=255u8).filter(|&b| is_blank(b)).all(is_space));
        assert!((0..=255u8).filter(|&b| is_tag_blank(b)).all(is_blank));
        // The first test of a token: every letter but `Z` may start a move (the grammar's first
        // byte), `{` a comment, a digit but `0` a move number; no white space starts anything.
        for b in 0..=255u8 {
            let expected = match b {
                b'Z' => TokenStart::Other,
                _ if b.is_ascii_alphabetic() => TokenStart::Move,
                b'{' => TokenStart::Comment,
                _ if b.is_ascii_digit() && b != b'0' => TokenStart::Number,
                _ => TokenStart::Other,
            };
            assert_eq!(TOKEN_START[usize::from(b)], expected, "{b}");
            assert!(!is_space(b) || expected == TokenStart::Other);
        }
    }

    #[test]
    fn whole_lines_need_their_end() {
        assert_eq!(whole_line(b"ab\ncd", 0, false), Ok(&b"ab"[..]));
        assert_eq!(whole_line(b"ab\ncd", 3, false), Err(NeedMore));
        assert_eq!(whole_line(b"ab\ncd", 3, true), Ok(&b"cd"[..]));
        let long = vec![b'x'; MAX_TAG_LINE + 1];
        assert_eq!(
            whole_line(&long, 0, false).map(<[u8]>::len),
            Ok(MAX_TAG_LINE)
        );
    }
}
