//! The movetext driver: what each movetext token is, and how it is visited, written once for both
//! ways of reading a game — the general way ([`super::parse`]), which reports every defect and
//! recovers from it, and the one-pass reader ([`super::one_pass`]), which reads straight from the
//! read buffer and gives the game up (to the general way) at anything unusual. Where they differ,
//! the [`Way`] decides: comments (the one-pass reader counts their lines and watches for a tag
//! line), `;` and `%` lines, the open variations, skipped variations, and defects.
//!
//! Each driver keeps its own loop around [`token`]: the whitespace between tokens, the end of the
//! movetext and what a result does differ with where the game ends (the general way has the game's
//! bytes; the one-pass reader finds its end).

use super::grammar;
use super::lex::{GameResult, TOKEN_START, TokenStart};
use super::location::Location;
use super::moves::{self, NotVisited};
use super::visitor::{Flow, Visitor};

/// A defect in the movetext, where the two ways part.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) enum Defect {
    /// Bytes that are no token.
    Unexpected,
    /// A `)` when no variation is open.
    Unopened,
    /// A `$` with no number after it.
    NagWithoutNumber,
    /// A `$n` over 255, which ends at `end`.
    NagTooLarge { end: usize },
    /// A move number too large for a `u32`: its digits run `digits` bytes, the token `len` bytes.
    MoveNumberTooLarge { digits: usize, len: usize },
}

/// What [`token`] read.
pub(super) enum Step {
    /// A token, visited; the next one starts at or after this index.
    Next(usize),
    /// A result token, `len` bytes long, not visited: the driver decides what it does.
    Result(GameResult, usize),
}

/// What a way of reading does where the two ways differ.
pub(super) trait Way {
    /// Why the way stops reading the game before its end.
    type Stop;

    /// A `{ }` comment at `bytes[start]`: visits it (if the visitor wants comments) and returns
    /// the index after it.
    fn comment<V: Visitor>(
        &mut self,
        bytes: &[u8],
        start: usize,
        visitor: &mut V,
    ) -> Result<usize, Self::Stop>;

    /// A `;` or `%` at `bytes[start]`: the index after the comment or escape line it starts, or
    /// `None` if it starts none (a `%` that is not in column 1).
    fn line<V: Visitor>(
        &mut self,
        bytes: &[u8],
        start: usize,
        visitor: &mut V,
    ) -> Result<Option<usize>, Self::Stop>;

    /// The visitor walks the variation whose `(` is at `start`.
    fn open_variation(&mut self, start: usize);

    /// A `)`: closes the innermost open variation; `false` if none is open.
    fn close_variation(&mut self) -> bool;

    /// The visitor skips the variation whose `(` is at `open`: the index after its matching `)`.
    fn skip<V: Visitor>(
        &mut self,
        bytes: &[u8],
        open: usize,
        visitor: &mut V,
    ) -> Result<usize, Self::Stop>;

    /// A defect at `bytes[at]`: the index to go on from.
    fn defect<V: Visitor>(
        &mut self,
        bytes: &[u8],
        at: usize,
        defect: Defect,
        visitor: &mut V,
    ) -> Result<usize, Self::Stop>;
}

/// Reads the movetext token at `bytes[start]` (a byte that is not whitespace) and visits it.
#[inline(always)]
pub(super) fn token<W: Way, V: Visitor>(
    bytes: &[u8],
    start: usize,
    way: &mut W,
    visitor: &mut V,
) -> Result<Step, W::Stop> {
    let rest = &bytes[start..];
    let loc = Location::at(start);
    let next = match TOKEN_START[usize::from(rest[0])] {
        // Moves first: the most common token. (`Z` may start a null move `Z0`, and goes the
        // general way.) A word that is no move is stray text.
        TokenStart::Move => match grammar::plain_move(rest) {
            // Nearly every move: its plain form, without the general rule's look for more.
            Some(len) => {
                visitor.san(moves::move_text(&rest[..len]), loc);
                start + len
            }
            None => match moves::san(rest, start, visitor) {
                Some(len) => start + len,
                None => way.defect(bytes, start, Defect::Unexpected, visitor)?,
            },
        },
        TokenStart::Comment => way.comment(bytes, start, visitor)?,
        // The common move number `12.` (not a result: a dot follows the digits).
        TokenStart::Number if let Some((number, len, dots)) = grammar::common_move_number(rest) => {
            visitor.move_number(number, dots, loc);
            start + len
        }
        TokenStart::Number | TokenStart::Other => return other(bytes, start, way, visitor),
    };
    Ok(Step::Next(next))
}

/// The tokens of [`token`] that are no move, comment or common move number, told apart by their
/// first byte.
#[inline(always)]
fn other<W: Way, V: Visitor>(
    bytes: &[u8],
    start: usize,
    way: &mut W,
    visitor: &mut V,
) -> Result<Step, W::Stop> {
    let rest = &bytes[start..];
    let loc = Location::at(start);
    let after = |tail: &[u8]| bytes.len() - tail.len();
    let next = match rest[0] {
        b'(' => match visitor.begin_variation(loc) {
            Flow::Continue => {
                way.open_variation(start);
                start + 1
            }
            Flow::Skip => way.skip(bytes, start, visitor)?,
        },
        b')' => {
            if way.close_variation() {
                visitor.end_variation(loc);
                start + 1
            } else {
                way.defect(bytes, start, Defect::Unopened, visitor)?
            }
        }
        b'$' => match grammar::nag(rest) {
            Ok((tail, digits)) => match grammar::number::<u8>(digits) {
                Some(nag) => {
                    visitor.nag(nag, loc);
                    after(tail)
                }
                None => {
                    let defect = Defect::NagTooLarge { end: after(tail) };
                    way.defect(bytes, start, defect, visitor)?
                }
            },
            Err(_) => way.defect(bytes, start, Defect::NagWithoutNumber, visitor)?,
        },
        b'!' | b'?' => match grammar::glyph(rest) {
            Ok((tail, nag)) => {
                visitor.nag(nag, loc);
                after(tail)
            }
            Err(_) => way.defect(bytes, start, Defect::Unexpected, visitor)?,
        },
        // Stray dots, as in `{comment} ... e5`: part of a move number's notation.
        b'.' => match grammar::dots(rest) {
            Ok((tail, _)) => after(tail),
            Err(_) => way.defect(bytes, start, Defect::Unexpected, visitor)?,
        },
        b'0' | b'1' | b'*' if let Some((result, len)) = grammar::result_at(bytes, start) => {
            return Ok(Step::Result(result, len));
        }
        // (A `%` that starts no escape line is stray text, below.)
        b';' | b'%' if let Some(end) = way.line(bytes, start, visitor)? => end,
        _ => match moves::move_or_number(rest, start, visitor) {
            Ok(len) => start + len,
            Err(NotVisited::Nothing) => way.defect(bytes, start, Defect::Unexpected, visitor)?,
            Err(NotVisited::TooLarge { digits, len }) => {
                let defect = Defect::MoveNumberTooLarge { digits, len };
                way.defect(bytes, start, defect, visitor)?
            }
        },
    };
    Ok(Step::Next(next))
}
