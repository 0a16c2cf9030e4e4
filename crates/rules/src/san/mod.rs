//! Standard Algebraic Notation: a lenient reader, a resolver that names what is wrong in plain
//! words, and a canonical writer.
//!
//! The reader ([`San::from_ascii`]) accepts what real files contain, and records what it accepted:
//!
//! - standard SAN: `e4`, `exd5`, `Nbd2`, `R1e2`, `Qh4xe1`, `e8=Q`, `O-O`, `O-O-O`;
//! - castling with zeros: `0-0`, `0-0-0`;
//! - a missing or superfluous capture mark, over-disambiguation (`Ngf3`, `Ng1f3`);
//! - long algebraic: `e2e4`, `e2-e4`, `Ng1-f3`, `Ng1xf3`, and the UCI-like `g1f3` (the piece is the
//!   one on the origin square) and `e1g1` for castling;
//! - promotion written `e8Q`, `e8(Q)`, `e8/Q`, or with a lowercase letter (`e8=q`);
//! - a pawn letter (`Pe4`) and an en passant mark (`exd6 e.p.`, `exd6e.p.`);
//! - a check or mate suffix (`+`, `#`, `++`) and a move glyph (`!`, `?`, `!!`, `??`, `!?`, `?!`);
//! - null moves: `--`, `Z0`, `0000`, `@@@@`.
//!
//! [`San::resolve`] turns a parsed move into a legal [`Move`](crate::Move) of a position, with the set of
//! non-standard forms used ([`Leniency`]); [`write`](fn@write) gives the canonical SAN of a move.
//!
//! # Examples
//!
//! ```
//! use arbiter_rules::Position;
//! use arbiter_rules::san::{self, Leniency, San};
//!
//! let pos = Position::startpos();
//! let san: San = "Ng1f3".parse().unwrap();
//! let resolved = san.resolve(&pos).unwrap();
//! assert_eq!(resolved.leniency, Leniency::LONG_ALGEBRAIC);
//! assert_eq!(san::write(&pos, resolved.mv).as_str(), "Nf3");
//! ```

mod candidates;
mod direct;
mod error;
mod explain;
mod fast;
mod flags;
mod parse;
mod resolve;
mod write;

use std::fmt;
use std::str::FromStr;

use crate::{CastlingSide, Role, Square};

pub use error::{CastlingObstacle, ParseSanError, SanError};
pub use flags::{Leniency, Written};
pub use resolve::Resolved;
pub use write::{SanString, write, write_without_suffix};

/// "No file" or "no rank" in the packed disambiguation fields.
const NONE: u8 = 8;

/// What kind of move a [`San`] names.
#[derive(Copy, Clone, Debug, Eq, PartialEq, Hash)]
enum Shape {
    Normal,
    KingSide,
    QueenSide,
    Null,
}

/// The check or mate mark after a move.
#[derive(Copy, Clone, Debug, Eq, PartialEq, Hash)]
pub enum Suffix {
    /// `+` (also `++`, see [`Written::DOUBLE_PLUS`]).
    Check,
    /// `#`.
    Checkmate,
}

impl Suffix {
    /// `"+"` or `"#"`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Suffix::Check => "+",
            Suffix::Checkmate => "#",
        }
    }

    /// The suffix a move deserves that leads to `after`: `#` for mate, `+` for check, else none.
    pub fn of(after: &crate::Position) -> Option<Suffix> {
        Suffix::knowing_check(after, after.is_check())
    }

    /// Like [`Suffix::of`], for a caller that knows whether the side to move in `after` is in
    /// check (`in_check` must be `after.is_check()`): the check test is not made again.
    #[inline]
    pub fn knowing_check(after: &crate::Position, in_check: bool) -> Option<Suffix> {
        debug_assert_eq!(in_check, after.is_check());
        if !in_check {
            None
        } else if after.has_legal_moves() {
            Some(Suffix::Check)
        } else {
            Some(Suffix::Checkmate)
        }
    }
}

/// A move glyph (the PGN "suffix annotation").
#[derive(Copy, Clone, Debug, Eq, PartialEq, Hash)]
pub enum Glyph {
    /// `!`, a good move (NAG 1).
    Good,
    /// `?`, a mistake (NAG 2).
    Mistake,
    /// `!!`, a brilliant move (NAG 3).
    Brilliant,
    /// `??`, a blunder (NAG 4).
    Blunder,
    /// `!?`, an interesting move (NAG 5).
    Interesting,
    /// `?!`, a dubious move (NAG 6).
    Dubious,
}

impl Glyph {
    const ALL: [Glyph; 6] = [
        Glyph::Good,
        Glyph::Mistake,
        Glyph::Brilliant,
        Glyph::Blunder,
        Glyph::Interesting,
        Glyph::Dubious,
    ];

    /// The glyph as written: `"!"`, `"?"`, `"!!"`, `"??"`, `"!?"`, `"?!"`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Glyph::Good => "!",
            Glyph::Mistake => "?",
            Glyph::Brilliant => "!!",
            Glyph::Blunder => "??",
            Glyph::Interesting => "!?",
            Glyph::Dubious => "?!",
        }
    }
}

/// A move in algebraic notation as read from text, not yet checked against a position.
///
/// Eight bytes, `Copy`. It keeps the check suffix, the glyph and how the move was written
/// ([`Written`]), so that [`San::resolve`] can tell which non-standard forms were used.
#[derive(Copy, Clone, Eq, PartialEq, Hash)]
pub struct San {
    shape: Shape,
    /// The piece letter; `None` when there was none (a pawn, or the piece on the origin square of a
    /// long algebraic move such as `g1f3`).
    role: Option<Role>,
    from_file: u8,
    from_rank: u8,
    to: Square,
    promotion: Option<Role>,
    /// Bits 0–1: suffix (0 none, 1 check, 2 mate); bits 2–4: glyph (0 none, else index + 1).
    marks: u8,
    written: Written,
}

impl San {
    /// A normal (non-castling) move: the piece letter if any, the origin file and rank if given
    /// (0–7), the destination, and the promotion piece if any. Use [`San::with_written`] to record
    /// a capture mark.
    pub const fn normal(
        role: Option<Role>,
        from_file: Option<u8>,
        from_rank: Option<u8>,
        to: Square,
        promotion: Option<Role>,
    ) -> San {
        San {
            shape: Shape::Normal,
            role,
            from_file: match from_file {
                Some(f) if f < 8 => f,
                _ => NONE,
            },
            from_rank: match from_rank {
                Some(r) if r < 8 => r,
                _ => NONE,
            },
            to,
            promotion,
            marks: 0,
            written: Written::EMPTY,
        }
    }

    /// Castling to `side`: `O-O` or `O-O-O`.
    pub const fn castle(side: CastlingSide) -> San {
        let mut san = San::normal(Some(Role::King), None, None, Square::A1, None);
        san.shape = match side {
            CastlingSide::KingSide => Shape::KingSide,
            CastlingSide::QueenSide => Shape::QueenSide,
        };
        san
    }

    /// A null move, `--`.
    pub const fn null() -> San {
        let mut san = San::normal(None, None, None, Square::A1, None);
        san.shape = Shape::Null;
        san
    }

    /// This move with the check or mate suffix `suffix`.
    pub const fn with_suffix(mut self, suffix: Option<Suffix>) -> San {
        let bits = match suffix {
            None => 0,
            Some(Suffix::Check) => 1,
            Some(Suffix::Checkmate) => 2,
        };
        self.marks = (self.marks & !0b11) | bits;
        self
    }

    /// This move with the glyph `glyph`.
    pub const fn with_glyph(mut self, glyph: Option<Glyph>) -> San {
        let bits = match glyph {
            None => 0,
            Some(g) => g as u8 + 1,
        };
        self.marks = (self.marks & 0b11) | (bits << 2);
        self
    }

    /// This move with the writing details `written` (a capture mark, zeros for castling, …).
    pub const fn with_written(mut self, written: Written) -> San {
        self.written = written;
        self
    }

    /// Parses a move; see the [module documentation](self) for the accepted forms.
    #[inline]
    pub fn from_ascii(text: &[u8]) -> Result<San, ParseSanError> {
        parse::san(text)
    }

    /// The piece letter, if one was given (`Some(Role::Pawn)` only for an explicit `P`).
    pub const fn role(&self) -> Option<Role> {
        self.role
    }

    /// The origin file (0 for a … 7 for h), if given.
    pub const fn from_file(&self) -> Option<u8> {
        if self.from_file < 8 {
            Some(self.from_file)
        } else {
            None
        }
    }

    /// The origin file a `role` piece must come from: the one given, else, for a pawn written
    /// without a capture mark, the destination's file. `a3` is a pawn push and never `bxa3`:
    /// leniency forgives how a move is written, never a different origin.
    #[inline(always)]
    pub(super) fn implied_from_file(&self, role: Role) -> Option<u8> {
        match self.from_file() {
            None if role == Role::Pawn && !self.is_capture() => Some(self.to.file()),
            given => given,
        }
    }

    /// The origin rank (0 for the first … 7 for the eighth), if given.
    pub const fn from_rank(&self) -> Option<u8> {
        if self.from_rank < 8 {
            Some(self.from_rank)
        } else {
            None
        }
    }

    /// The origin square, if both its file and rank were given (long algebraic).
    pub const fn from_square(&self) -> Option<Square> {
        if self.from_file < 8 && self.from_rank < 8 {
            Square::from_coords(self.from_file, self.from_rank)
        } else {
            None
        }
    }

    /// The destination square of a normal move (meaningless for castling and null moves).
    pub const fn to(&self) -> Square {
        self.to
    }

    /// The promotion piece, if one was given.
    pub const fn promotion(&self) -> Option<Role> {
        self.promotion
    }

    /// Whether a capture mark (`x`) was written.
    pub const fn is_capture(&self) -> bool {
        self.written.contains(Written::CAPTURE_MARK)
    }

    /// The side of a castling move (`O-O`, `O-O-O`, `0-0`, `0-0-0`).
    pub const fn castling_side(&self) -> Option<CastlingSide> {
        match self.shape {
            Shape::KingSide => Some(CastlingSide::KingSide),
            Shape::QueenSide => Some(CastlingSide::QueenSide),
            Shape::Normal | Shape::Null => None,
        }
    }

    /// Whether this is a null move (`--`, `Z0`, `0000`, `@@@@`).
    #[inline]
    pub const fn is_null(&self) -> bool {
        matches!(self.shape, Shape::Null)
    }

    /// The check or mate suffix as written.
    #[inline]
    pub const fn suffix(&self) -> Option<Suffix> {
        match self.marks & 0b11 {
            1 => Some(Suffix::Check),
            2 => Some(Suffix::Checkmate),
            _ => None,
        }
    }

    /// The move glyph as written.
    pub const fn glyph(&self) -> Option<Glyph> {
        match self.marks >> 2 {
            0 => None,
            n => {
                let i = n as usize - 1;
                if i < Glyph::ALL.len() {
                    Some(Glyph::ALL[i])
                } else {
                    None
                }
            }
        }
    }

    /// How the move was written: the capture mark and every non-standard detail the reader saw.
    pub const fn written(&self) -> Written {
        self.written
    }
}

impl FromStr for San {
    type Err = ParseSanError;

    fn from_str(s: &str) -> Result<San, ParseSanError> {
        San::from_ascii(s.as_bytes())
    }
}

/// Writes the move back much as it was read (the standard form of each part, except for the
/// details recorded in [`Written`]).
impl fmt::Display for San {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let w = self.written;
        match self.shape {
            Shape::Null => f.write_str("--")?,
            Shape::KingSide | Shape::QueenSide => {
                let zero = if w.contains(Written::ZEROS) { "0" } else { "O" };
                write!(f, "{zero}-{zero}")?;
                if self.shape == Shape::QueenSide {
                    write!(f, "-{zero}")?;
                }
            }
            Shape::Normal => {
                if let Some(role) = self.role {
                    write!(f, "{}", role.upper_char())?;
                }
                if let Some(file) = self.from_file() {
                    write!(f, "{}", char::from(b'a' + file))?;
                }
                if let Some(rank) = self.from_rank() {
                    write!(f, "{}", char::from(b'1' + rank))?;
                }
                if w.contains(Written::HYPHEN) {
                    f.write_str("-")?;
                }
                if w.contains(Written::CAPTURE_MARK) {
                    f.write_str("x")?;
                }
                write!(f, "{}", self.to)?;
                if let Some(role) = self.promotion {
                    if !w.contains(Written::PROMOTION_WITHOUT_EQUALS) {
                        f.write_str("=")?;
                    }
                    let c = if w.contains(Written::LOWERCASE_PROMOTION) {
                        role.char()
                    } else {
                        role.upper_char()
                    };
                    write!(f, "{c}")?;
                }
                if w.contains(Written::EN_PASSANT_MARK) {
                    f.write_str(" e.p.")?;
                }
            }
        }
        match self.suffix() {
            Some(Suffix::Check) if w.contains(Written::DOUBLE_PLUS) => f.write_str("++")?,
            Some(suffix) => f.write_str(suffix.as_str())?,
            None => {}
        }
        if let Some(glyph) = self.glyph() {
            f.write_str(glyph.as_str())?;
        }
        Ok(())
    }
}

impl fmt::Debug for San {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("San")
            .field("text", &format_args!("{self}"))
            .field("role", &self.role)
            .field("from_file", &self.from_file())
            .field("from_rank", &self.from_rank())
            .field("to", &self.to)
            .field("promotion", &self.promotion)
            .field("suffix", &self.suffix())
            .field("glyph", &self.glyph())
            .field("written", &self.written)
            .finish()
    }
}

/// For tests: plays a random legal move of `pos` (a xorshift step on `seed`); `false` if it has
/// none.
#[cfg(test)]
pub(crate) fn play_random(pos: &mut crate::Position, seed: &mut u64) -> bool {
    let moves = pos.legal_moves();
    if moves.is_empty() {
        return false;
    }
    *seed ^= *seed << 13;
    *seed ^= *seed >> 7;
    *seed ^= *seed << 17;
    pos.play_unchecked(moves[(*seed % moves.len() as u64) as usize]);
    true
}
