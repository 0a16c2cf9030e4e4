//! One-pass reading: most games are parsed straight from the splitter's read buffer, finding
//! their own end, so that their bytes are scanned once instead of twice (cut, then parse).
//!
//! A one-pass game is what real archives are made of: tag pairs one per line, then movetext of moves,
//! move numbers, NAGs, `{ }` comments and `( )` variations, and a result at the end of its line
//! followed by blank lines and the next game's `[`, or by the end of the input. For such a game
//! [`parse`] makes exactly the visitor calls [`super::parse_game`] makes for the bytes the
//! [`super::Splitter`] would cut, and says where the game ends, which is where the splitter would
//! end it.
//!
//! Lines may end with LF or CRLF. Anything else gives up ([`Attempt::Bail`]) before it could
//! matter: a defect of any kind, a lone CR, a `[` in the movetext or at the start of a comment line
//! (where the splitter may end a game), `;` comments and `%` lines, a repeated tag name, a result
//! inside a variation, text after the result, a game that is not UTF-8, or a missing result at the
//! end of the input. The caller then cuts the game with the splitter and parses it the general
//! way; the visitor is begun again, which is why only a [`Visitor::one_pass`] visitor is taken
//! this way. A game that runs past the end of the buffer asks for more input
//! ([`Attempt::NeedMore`]) and is begun again after the refill.
//!
//! Tokens are read with the same rules of [`super::grammar`] as the general parser, and white
//! space, line ends, comments and tag values with the same lexer ([`super::lex`]: its plain forms,
//! [`super::lex::skip_plain_space`], [`super::lex::plain_comment`], which say [`NeedMore`] where the
//! buffer ends first), on the rest of the buffer rather than on the game's bytes. A rule may look past its token (a move number looks
//! past blanks for more dots), but not past a one-pass game's last line, that of its result. Near the
//! end of an unfinished buffer (closer than [`GUARD`] bytes) no token is read; a token the buffer
//! cuts short runs to its end, and the next step asks for more input and drops the attempt.
//!
//! The commonest tokens (a short plain move, a move number, lichess's clock comment: see
//! [`quick_token`]) are read first from a window of [`WINDOW`] bytes that the buffer is known to
//! hold, without bounds checks, each with the one space after it; any other token, and every
//! token of the buffer's last [`WINDOW`] bytes, by the rules above.

use super::clock::LICHESS_CLOCK_LEN;
use super::grammar::{self, QUICK_SPAN};
use super::lex::{
    CLOCK_COMMENT_LEN, MAX_TAG_LINE, NeedMore, PlainComment, TOKEN_START, TokenStart,
    VARIATION_STOP, clock_comment, clock_comment_at, is_space, line_text_end, one_space_at,
    plain_comment, plain_line_end, skip_plain_space, skip_tag_blanks, unescape,
};
use super::location::{Encoding, GameInfo, Location};
use super::moves;
use super::movetext::{self, Defect, Step, Way};
use super::raw::RawGame;
use super::tag_names::{TagNames, hash_name, simple_tag_hashed};
use super::tags;
use super::variation::{SkipVariation, skip_variation};
use super::visitor::{Flow, Visitor};

/// How a one-pass attempt ended.
pub(super) enum Attempt<T> {
    /// The game is done and `end_game` has returned; it is this many bytes long.
    Done(usize, T),
    /// The buffer ends before the game does: refill and begin again.
    NeedMore,
    /// Not a one-pass game: cut it and parse it the general way.
    Bail,
}

/// No token is read closer than this to the end of an unfinished buffer. (A token that the buffer
/// cut short would be read wrongly, but it would also run to the end of the buffer, and the next
/// step would ask for more input and so drop the attempt; the margin makes that rare.)
const GUARD: usize = 256;

/// The most tag pairs of a one-pass game (they are held until the tag section is known to be UTF-8).
const MAX_TAGS: usize = 32;

/// Where one tag pair's parts lie in the game (a one-pass game's tag section is well under 4 GiB).
#[derive(Copy, Clone, Default)]
struct TagSpan {
    start: u32,
    name: (u32, u32),
    value: (u32, u32),
    backslash: bool,
}

/// Early exits of the parse.
macro_rules! need_more_or_bail {
    ($eof:expr) => {
        return if $eof {
            Attempt::Bail
        } else {
            Attempt::NeedMore
        }
    };
}

/// Parses the one-pass game at the start of `bytes` (the rest of the splitter's buffer; `eof` if the
/// input ends there, unless `more_follows`: see [`super::Splitter::part`]) into `visitor`. `game`
/// comes with its number and first line and column; on [`Attempt::Done`] it ends as the splitter
/// would have cut it (its bytes stay in the buffer: the visitor sees them through
/// [`GameInfo::bytes`]).
pub(super) fn parse<V: Visitor>(
    bytes: &[u8],
    eof: bool,
    more_follows: bool,
    max_game: usize,
    game: &mut RawGame,
    names: &mut TagNames,
    visitor: &mut V,
) -> Attempt<V::Output> {
    // Locations are 32-bit: a buffer larger than that (a game limit over 4 GiB) is read the
    // general way. (Knowing it, the compiler drops each token's test for a location too large.)
    if u32::try_from(bytes.len()).is_err() {
        return Attempt::Bail;
    }
    game.bytes.clear();
    game.too_large = None;
    game.at_eof = false;
    game.end_line = game.first_line;
    visitor.begin_game(&GameInfo::new(game, Encoding::Utf8));

    // The tag section: whole lines of one tag pair each, among blank lines.
    let mut tags = [TagSpan::default(); MAX_TAGS];
    let mut count = 0;
    let mut pos = 0;
    // The line ends passed (the game's lines less one).
    let mut lines = 0;
    names.clear();
    let movetext = loop {
        pos = skip_plain_space(bytes, pos, &mut lines);
        match bytes.get(pos) {
            Some(b'[') => {
                let (name, value, backslash, k, hash) = match simple_tag(bytes, pos) {
                    Some(tag) => tag,
                    None => match general_tag(bytes, pos) {
                        Ok(tag) => tag,
                        // Perhaps the buffer cut it short.
                        Err(()) if line_text_end(&bytes[pos..]) == bytes.len() - pos => {
                            need_more_or_bail!(eof)
                        }
                        Err(()) => return Attempt::Bail,
                    },
                };
                let k = skip_tag_blanks(bytes, k);
                let line_end = match plain_line_end(bytes, k) {
                    Ok(len) => len,
                    Err(NeedMore) => need_more_or_bail!(eof),
                };
                if line_end == 0
                    || k - pos > MAX_TAG_LINE
                    || count == MAX_TAGS
                    || k > u32::MAX as usize
                    || !names.insert(hash)
                {
                    return Attempt::Bail;
                }
                tags[count] = TagSpan {
                    start: pos as u32,
                    name: (name.0 as u32, name.1 as u32),
                    value: (value.0 as u32, value.1 as u32),
                    backslash,
                };
                count += 1;
                lines += 1;
                pos = k + line_end;
            }
            // A `;` comment, a `%` line, or white space other than plain lines.
            Some(&b) if b == b';' || b == b'%' || is_space(b) => return Attempt::Bail,
            Some(_) => break pos,
            None => need_more_or_bail!(eof),
        }
    };
    let Ok(section) = simdutf8::basic::from_utf8(&bytes[..movetext]) else {
        return Attempt::Bail;
    };
    for tag in &tags[..count] {
        let name = span_text(section, tag.name);
        let raw = span_text(section, tag.value);
        let unescaped;
        let value: &str = if tag.backslash {
            unescaped = unescape(raw);
            &unescaped
        } else {
            raw
        };
        visitor.tag(name, value, Location::at(tag.start as usize));
    }
    if visitor.end_tags() == Flow::Skip {
        return Attempt::Bail;
    }

    // The movetext, up to the result.
    // No token starts closer than `GUARD` bytes to the end of an unfinished buffer.
    let near_end = match eof {
        true => usize::MAX,
        false => (bytes.len() + 1).saturating_sub(GUARD),
    };
    let mut way = Buffered {
        eof,
        lines,
        depth: 0,
        wants_comments: visitor.wants_comments(),
    };
    // Tokens that start before `quick_end` have a window of `WINDOW` bytes in the buffer.
    let quick_end = near_end.min(bytes.len().saturating_sub(WINDOW));
    'tokens: loop {
        pos = skip_plain_space(bytes, pos, &mut way.lines);
        while pos < quick_end {
            // SAFETY: `pos < quick_end`, so `pos + WINDOW < bytes.len()`.
            let w = unsafe { window(bytes, pos) };
            match quick_token(w, pos, &way, visitor) {
                Quick::Next(len) => pos += len,
                Quick::Read(len) => {
                    pos += len;
                    continue 'tokens;
                }
                Quick::Not => break,
            }
        }
        if pos >= near_end {
            return Attempt::NeedMore;
        }
        if pos >= bytes.len() {
            // The input ends without a result.
            return Attempt::Bail;
        }
        match movetext::token(bytes, pos, &mut way, visitor) {
            Ok(Step::Next(next)) => pos = next,
            Ok(Step::Result(result, len)) => {
                if way.depth > 0 {
                    return Attempt::Bail;
                }
                visitor.result(result, Location::at(pos));
                pos += len;
                break;
            }
            Err(short) => return short.attempt(),
        }
    }
    lines = way.lines;

    // The rest of the result's line must be blank; then blank lines up to the next game's `[` or
    // the end of the input.
    pos = skip_tag_blanks(bytes, pos);
    match plain_line_end(bytes, pos) {
        Ok(0) => return Attempt::Bail,
        Ok(_) => {}
        Err(NeedMore) if eof && pos == bytes.len() => {}
        Err(NeedMore) => need_more_or_bail!(eof),
    }
    pos = skip_plain_space(bytes, pos, &mut lines);
    match bytes.get(pos) {
        Some(b'[') => {}
        Some(_) => return Attempt::Bail,
        None if eof => {}
        None => return Attempt::NeedMore,
    }
    let len = pos;
    if len > max_game || simdutf8::basic::from_utf8(&bytes[movetext..len]).is_err() {
        return Attempt::Bail;
    }

    let text = &bytes[..len];
    debug_assert!(memchr::memchr_iter(b'\r', text).all(|i| text.get(i + 1) == Some(&b'\n')));
    debug_assert_eq!(lines, memchr::memchr_iter(b'\n', text).count() as u64);
    game.end_line = game.first_line + lines;
    game.at_eof = eof && !more_follows && len == bytes.len();
    let output = visitor.end_game(&GameInfo::with_bytes(game, text, Encoding::Utf8));
    Attempt::Done(len, output)
}

/// The bytes a quick token may look at (see [`quick_token`]): a clock comment and the two bytes
/// after it, and no less than the grammar's quick rules need.
const WINDOW: usize = 32;
const _: () = assert!(WINDOW >= CLOCK_COMMENT_LEN + 2 && WINDOW >= QUICK_SPAN && WINDOW < GUARD);

/// The [`WINDOW`] bytes from `bytes[pos]`.
///
/// # Safety
///
/// `pos + WINDOW <= bytes.len()`.
#[inline(always)]
unsafe fn window(bytes: &[u8], pos: usize) -> &[u8; WINDOW] {
    debug_assert!(pos + WINDOW <= bytes.len());
    // SAFETY: the caller's promise: the window lies within `bytes`.
    unsafe { &*bytes.as_ptr().add(pos).cast::<[u8; WINDOW]>() }
}

/// What [`quick_token`] read.
enum Quick {
    /// A token, and the next one starts this many bytes on (after one space or none).
    Next(usize),
    /// A token this many bytes long, followed by something other than one space and a token.
    Read(usize),
    /// No quick token: the general rules read it.
    Not,
}

impl Quick {
    /// A token of `len` bytes at the start of `w`, and what follows it.
    #[inline(always)]
    fn after(w: &[u8; WINDOW], len: usize) -> Quick {
        match one_space_at(w, len) {
            true => Quick::Next(len + 1),
            false => Quick::Read(len),
        }
    }
}

/// The commonest tokens, read from the window `w` of the buffer at `start` (nearly every token of
/// a real archive): a plain move of up to seven bytes, a move number followed by the next token
/// or one space, and lichess's clock comment. Each is read and visited exactly as
/// [`movetext::token`] reads and visits it, with no bounds checks, and the one space after it is
/// taken with it; any other token is left to [`movetext::token`].
#[inline(always)]
fn quick_token<V: Visitor>(
    w: &[u8; WINDOW],
    start: usize,
    way: &Buffered,
    visitor: &mut V,
) -> Quick {
    let loc = Location::at(start);
    match TOKEN_START[usize::from(w[0])] {
        TokenStart::Move => {
            let Some(len) = grammar::short_plain_move(w) else {
                return Quick::Not;
            };
            // (Told before the visit, so that only its answer is kept across the call.)
            let after = Quick::after(w, len);
            visitor.san(moves::move_text(&w[..len]), loc);
            after
        }
        TokenStart::Number => {
            let Some((number, next, dots)) = grammar::quick_move_number(w) else {
                return Quick::Not;
            };
            visitor.move_number(number, dots, loc);
            Quick::Next(next)
        }
        TokenStart::Comment => {
            let (comment, _) = w
                .split_first_chunk::<CLOCK_COMMENT_LEN>()
                .expect("a window");
            let Some((text, clock)) = clock_comment(comment) else {
                return Quick::Not;
            };
            let after = Quick::after(w, CLOCK_COMMENT_LEN);
            way.clock_comment(text, clock, start, visitor);
            after
        }
        TokenStart::Other => Quick::Not,
    }
}

/// The text of a tag's name or raw value, at `span` of the tag section. (Not `&section[..]`,
/// which tests both ends for a character's boundary: every span is one already.)
#[inline(always)]
fn span_text(section: &str, (start, end): (u32, u32)) -> &str {
    let bytes = &section.as_bytes()[start as usize..end as usize];
    // SAFETY: the section is UTF-8, and a span starts after an ASCII byte (the `[` or a blank
    // before a name, the quote before a value) and ends before one (the blank or quote after a
    // name, the quote after a value) or holds only ASCII bytes (a name): so it starts and ends at
    // a character's boundary, and its bytes are UTF-8.
    unsafe { std::str::from_utf8_unchecked(bytes) }
}

/// A tag pair at `bytes[pos]` (a `[`): the ranges of its name and raw value, whether the value
/// holds a backslash, the index after its `]`, and the hash of its name.
type TagParts = ((usize, usize), (usize, usize), bool, usize, u64);

/// The common tag pair `[Name "value"]`, by [`simple_tag_hashed`]: what [`general_tag`]
/// gives for it, or `None` for any other form.
#[inline(always)]
fn simple_tag(bytes: &[u8], pos: usize) -> Option<TagParts> {
    let (name_end, value_end, hash) = simple_tag_hashed(&bytes[pos..])?;
    let (name_end, value_end) = (pos + name_end, pos + value_end);
    Some((
        (pos + 1, name_end),
        (name_end + 2, value_end),
        false,
        value_end + 2,
        hash,
    ))
}

/// A tag pair at `bytes[pos]` by the general rule. (It stops at a line end: the pair is on this
/// line, or it is no pair.)
fn general_tag(bytes: &[u8], pos: usize) -> Result<TagParts, ()> {
    let (after, ((name, value), backslash)) =
        tags::tag_pair_and_backslash(&bytes[pos..]).map_err(|_| ())?;
    let at = |part: &[u8]| {
        let at = part.as_ptr() as usize - bytes.as_ptr() as usize;
        (at, at + part.len())
    };
    let hash = hash_name(name);
    Ok((
        at(name),
        at(value),
        backslash,
        bytes.len() - after.len(),
        hash,
    ))
}

/// Why the one-pass reader stops reading a game: it is not one for it (then it is read the
/// general way), or the buffer ends too soon (then it is begun again after a refill).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Short {
    Bail,
    NeedMore,
}

impl Short {
    /// The buffer ends here: more input, unless the input has ended.
    fn at_end(eof: bool) -> Short {
        if eof { Short::Bail } else { Short::NeedMore }
    }

    /// The game's plain comment whose text starts at `body[0]` (see [`plain_comment`]): the
    /// length of its text, or why the reading stops.
    #[inline(always)]
    fn comment(body: &[u8], eof: bool, lines: &mut u64) -> Result<usize, Short> {
        match plain_comment(body, eof, lines) {
            Ok(PlainComment::Closed(len)) => Ok(len),
            Ok(PlainComment::Not) => Err(Short::Bail),
            Err(NeedMore) => Err(Short::NeedMore),
        }
    }

    fn attempt<T>(self) -> Attempt<T> {
        match self {
            Short::Bail => Attempt::Bail,
            Short::NeedMore => Attempt::NeedMore,
        }
    }
}

/// The one-pass reader's way through the movetext (see [`Way`]): it counts the lines it passes,
/// and gives the game up at any defect and at anything the splitter might cut differently.
struct Buffered {
    eof: bool,
    /// The line ends passed.
    lines: u64,
    /// How many variations are open.
    depth: u32,
    wants_comments: bool,
}

impl Buffered {
    /// Visits lichess's clock comment at `start`, whose text is `text` and reading `clock`.
    #[inline(always)]
    fn clock_comment<V: Visitor>(&self, text: &str, clock: u32, start: usize, visitor: &mut V) {
        let loc = Location::at(start);
        if self.wants_comments {
            visitor.clock_comment(clock, text, loc);
        } else {
            let body = start + 1;
            visitor.comment_skipped(loc, body..body + LICHESS_CLOCK_LEN);
        }
    }
}

impl Way for Buffered {
    type Stop = Short;

    #[inline(always)]
    fn comment<V: Visitor>(
        &mut self,
        bytes: &[u8],
        start: usize,
        visitor: &mut V,
    ) -> Result<usize, Short> {
        // Nearly every comment of a lichess archive: read at once, no search for its end.
        if let Some((text, clock)) = clock_comment_at(bytes, start) {
            self.clock_comment(text, clock, start, visitor);
            return Ok(start + CLOCK_COMMENT_LEN);
        }
        let len = Short::comment(&bytes[start + 1..], self.eof, &mut self.lines)?;
        if self.wants_comments {
            let Some(text) = comment_text(&bytes[start + 1..start + 1 + len]) else {
                return Err(Short::Bail);
            };
            visitor.comment(text, Location::at(start));
        } else {
            visitor.comment_skipped(Location::at(start), start + 1..start + 1 + len);
        }
        Ok(start + len + 2)
    }

    fn line<V: Visitor>(&mut self, _: &[u8], _: usize, _: &mut V) -> Result<Option<usize>, Short> {
        Err(Short::Bail)
    }

    #[inline]
    fn open_variation(&mut self, _: usize) {
        self.depth += 1;
    }

    #[inline]
    fn close_variation(&mut self) -> bool {
        if self.depth == 0 {
            return false;
        }
        self.depth -= 1;
        true
    }

    fn skip<V: Visitor>(&mut self, bytes: &[u8], open: usize, _: &mut V) -> Result<usize, Short> {
        let mut skip = Skip {
            eof: self.eof,
            lines: &mut self.lines,
        };
        skip_variation(bytes, open + 1, &mut skip)
    }

    fn defect<V: Visitor>(
        &mut self,
        _: &[u8],
        _: usize,
        _: Defect,
        _: &mut V,
    ) -> Result<usize, Short> {
        Err(Short::Bail)
    }
}

/// The one-pass reader's part in skipping a variation: it counts the line ends it passes, and
/// gives the game up at anything unusual (`[`, `;`, `%`, a lone CR, a comment it would give up).
struct Skip<'l> {
    eof: bool,
    lines: &'l mut u64,
}

impl SkipVariation<8> for Skip<'_> {
    type Stop = Short;

    const STOP: [u8; 8] = VARIATION_STOP;

    #[inline]
    fn comment(&mut self, bytes: &[u8], body: usize) -> Result<usize, Short> {
        let len = Short::comment(&bytes[body..], self.eof, self.lines)?;
        Ok(body + len + 1)
    }

    #[inline]
    fn other(&mut self, bytes: &[u8], at: usize) -> Result<usize, Short> {
        match bytes[at] {
            b'\n' => {
                *self.lines += 1;
                Ok(at + 1)
            }
            b'\r' => match plain_line_end(bytes, at) {
                Ok(2) => {
                    *self.lines += 1;
                    Ok(at + 2)
                }
                Ok(_) => Err(Short::Bail),
                Err(NeedMore) => Err(Short::at_end(self.eof)),
            },
            _ => Err(Short::Bail),
        }
    }

    fn end(&mut self) -> Short {
        Short::at_end(self.eof)
    }
}

/// Whether `bytes` is ASCII, for 8 to 32 bytes (a lichess clock comment is 16, an evaluation
/// and a clock about 30): two or four words that cover them, each tested at once, where
/// `is_ascii` is a call. `None` for other lengths.
#[inline]
fn short_ascii(bytes: &[u8]) -> Option<bool> {
    let n = bytes.len();
    let word = |at: usize| u64::from_le_bytes(bytes[at..at + 8].try_into().expect("eight bytes"));
    let high = match n {
        8..=16 => word(0) | word(n - 8),
        17..=32 => word(0) | word(8) | word(n - 16) | word(n - 8),
        _ => return None,
    };
    Some(high & 0x8080_8080_8080_8080 == 0)
}

/// A comment's text as a string, if it is UTF-8. Most comments are a few ASCII bytes
/// (`[%clk 0:03:00]`, `[%eval 0.17] [%clk 0:03:00]`), checked as such in a few instructions: `str::from_utf8` cost more than the
/// rest of a comment's reading.
#[inline]
fn comment_text(bytes: &[u8]) -> Option<&str> {
    if short_ascii(bytes).unwrap_or_else(|| bytes.is_ascii()) {
        // SAFETY: ASCII is UTF-8.
        Some(unsafe { std::str::from_utf8_unchecked(bytes) })
    } else {
        std::str::from_utf8(bytes).ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_short_ascii_test_agrees_with_is_ascii() {
        for len in 0..=40 {
            let plain = vec![b'a'; len];
            assert!(short_ascii(&plain).unwrap_or(true));
            assert_eq!(short_ascii(&plain).is_some(), (8..=32).contains(&len));
            for at in 0..len {
                for high in [0x80, 0xC3, 0xFF] {
                    let mut bytes = plain.clone();
                    bytes[at] = high;
                    if let Some(ascii) = short_ascii(&bytes) {
                        assert!(!ascii, "{bytes:?}");
                    }
                    assert_eq!(
                        comment_text(&bytes).is_some(),
                        std::str::from_utf8(&bytes).is_ok()
                    );
                }
            }
        }
        assert_eq!(comment_text(b" [%clk 0:03:00] "), Some(" [%clk 0:03:00] "));
        assert_eq!(
            comment_text("é [%clk 0:03:00]".as_bytes()),
            Some("é [%clk 0:03:00]")
        );
    }
}
