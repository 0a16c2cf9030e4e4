//! The move-like tokens of the movetext — a move with its suffix annotation, a null move, a move
//! number — read and visited the same way by both drivers (the general [`super::parse`] and the
//! one-pass reader), which differ only in what they do when no such token is there.

use super::grammar;
use super::location::Location;
use super::visitor::Visitor;

/// A move at the start of `rest` (at `start` in the game), with any suffix annotation: visits it
/// and returns its length, or `None` if no move starts there.
#[inline(always)]
pub(super) fn san<V: Visitor>(rest: &[u8], start: usize, visitor: &mut V) -> Option<usize> {
    let (after, (text, suffix)) = grammar::san(rest).ok()?;
    let len = rest.len() - after.len();
    if text == b"e.p." {
        // A separate `e.p.` after a capture.
        visitor.en_passant_mark(Location::at(start));
        return Some(len);
    }
    let san = move_text(text);
    visitor.san(san, Location::at(start));
    if let Some(nag) = suffix {
        visitor.nag(nag, Location::at(start + text.len()));
    }
    Some(len)
}

/// Why [`move_or_number`] visited nothing.
pub(super) enum NotVisited {
    /// No null move, move or move number starts there.
    Nothing,
    /// A move number too large for a `u32`: its digits run `digits` bytes, the whole token (with
    /// its dots) `len` bytes.
    TooLarge { digits: usize, len: usize },
}

/// A null move, a move or a move number at the start of `rest` (at `start` in the game): the rule
/// for the tokens the drivers' quick cases leave. Visits it and returns its length.
pub(super) fn move_or_number<V: Visitor>(
    rest: &[u8],
    start: usize,
    visitor: &mut V,
) -> Result<usize, NotVisited> {
    let loc = Location::at(start);
    let first = rest.first().copied().unwrap_or_default();
    if matches!(first, b'-' | b'Z')
        && let Ok((after, text)) = grammar::null_move(rest)
    {
        visitor.null_move(if text == b"--" { "--" } else { "Z0" }, loc);
        return Ok(rest.len() - after.len());
    }
    if first.is_ascii_alphabetic() || first == b'0' {
        if let Some(len) = san(rest, start, visitor) {
            return Ok(len);
        }
        // Not a move, so a move number, if anything: it starts with a digit.
        if first != b'0' {
            return Err(NotVisited::Nothing);
        }
    }
    let Ok((after, (digits, dots))) = grammar::move_number(rest) else {
        return Err(NotVisited::Nothing);
    };
    let len = rest.len() - after.len();
    let Some(number) = grammar::number::<u32>(digits) else {
        return Err(NotVisited::TooLarge {
            digits: digits.len(),
            len,
        });
    };
    visitor.move_number(number, dots, loc);
    Ok(len)
}

/// A move's text as the grammar reads it, as a string. (Not `str::from_utf8`, nor even a check
/// for ASCII: this runs for every move.)
#[inline(always)]
pub(super) fn move_text(text: &[u8]) -> &str {
    debug_assert!(text.is_ascii());
    // SAFETY: moves are ASCII by the grammar: their first byte is an ASCII letter or the `0` of
    // castling, and every later byte an ASCII byte of its move class (a grammar test holds it to
    // that); ASCII is valid UTF-8.
    unsafe { std::str::from_utf8_unchecked(text) }
}
