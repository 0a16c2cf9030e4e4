//! What can be wrong with a move: [`ParseSanError`] for text that is not a move at all,
//! [`SanError`] for a move that does not fit the position, in words a club player understands.

use std::fmt;

use super::{Leniency, San};
use crate::{Bitboard, CastlingSide, Color, Role, Square};

/// Text that is not a move in algebraic notation.
#[derive(Copy, Clone, Debug, Eq, PartialEq, Hash)]
pub enum ParseSanError {
    /// Nothing to read.
    Empty,
    /// Longer than any move could be.
    TooLong,
    /// A byte that no move contains.
    UnexpectedChar {
        /// The byte.
        byte: u8,
        /// Its position, from 0.
        at: u8,
    },
    /// The right characters, in an order that makes no move.
    Invalid,
}

impl fmt::Display for ParseSanError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            ParseSanError::Empty => f.write_str("empty move"),
            ParseSanError::TooLong => f.write_str("too long to be a move"),
            ParseSanError::UnexpectedChar { byte, at } if byte.is_ascii_graphic() => write!(
                f,
                "unexpected character '{}' at position {}",
                char::from(byte),
                u32::from(at) + 1
            ),
            ParseSanError::UnexpectedChar { byte, at } => write!(
                f,
                "unexpected byte 0x{byte:02x} at position {}",
                u32::from(at) + 1
            ),
            ParseSanError::Invalid => f.write_str("not a move in algebraic notation"),
        }
    }
}

impl std::error::Error for ParseSanError {}

/// Why castling is not possible.
#[derive(Copy, Clone, Debug, Eq, PartialEq, Hash)]
pub enum CastlingObstacle {
    /// No castling right on that side; `rook` is the rook's home square in standard chess.
    NoRight {
        /// h1/a1/h8/a8 in standard chess; `None` in Chess960.
        rook: Option<Square>,
    },
    /// The king is in check.
    InCheck,
    /// A square between king, rook and their destinations is occupied.
    Occupied(Square),
    /// The king would pass through or land on an attacked square.
    Attacked {
        /// The square.
        square: Square,
        /// The attacking piece and its square.
        by: (Role, Square),
    },
    /// Castling would leave the king in check in some other way (Chess960 rook pins).
    Illegal,
}

/// A move that does not fit the position, with what is wrong in plain words.
///
/// `Display` writes the move as read, then the reason, lowercase and without a final period:
/// `Nbd2: no knight on the b-file can reach d2`.
#[derive(Copy, Clone, Debug, Eq, PartialEq, Hash)]
pub enum SanError {
    /// A null move was resolved as if it were a move.
    NullMove {
        /// The move as read.
        san: San,
    },
    /// No piece of that kind (and origin) can reach the square.
    NoPiece {
        /// The move as read.
        san: San,
        /// The side to move.
        color: Color,
        /// The moving piece.
        role: Role,
        /// Whether the side to move has no such piece at all.
        none_at_all: bool,
    },
    /// A long algebraic move from an empty square: `g1f3` with nothing on g1.
    EmptyOrigin {
        /// The move as read.
        san: San,
        /// The empty square.
        square: Square,
    },
    /// Only the opponent's piece could make the move.
    WrongSide {
        /// The move as read.
        san: San,
        /// The side to move.
        color: Color,
        /// The opponent's piece.
        role: Role,
        /// Its square.
        from: Square,
    },
    /// Several pieces can make the move.
    Ambiguous {
        /// The move as read.
        san: San,
        /// Their kind.
        role: Role,
        /// Their squares.
        candidates: Bitboard,
    },
    /// The piece is pinned to its king.
    Pinned {
        /// The move as read.
        san: San,
        /// The pinned piece and its square.
        piece: (Role, Square),
        /// The king's square.
        king: Square,
        /// The pinning piece and its square.
        pinner: (Role, Square),
    },
    /// The king would move onto an attacked square.
    KingAttacked {
        /// The move as read.
        san: San,
        /// The square.
        to: Square,
        /// The attacking piece and its square.
        by: (Role, Square),
    },
    /// The king is in check and the move does not get it out.
    DoesNotAnswerCheck {
        /// The move as read.
        san: San,
        /// The checking piece and its square.
        checker: (Role, Square),
        /// The second checking piece of a double check.
        second: Option<(Role, Square)>,
    },
    /// The move would expose the king in another way (an en passant capture that empties a rank).
    ExposesKing {
        /// The move as read.
        san: San,
        /// The king's square.
        king: Square,
        /// The piece that would give check, and its square.
        by: (Role, Square),
    },
    /// A pawn reaching the last rank without a promotion piece.
    MustPromote {
        /// The move as read.
        san: San,
    },
    /// A promotion piece on a move that does not reach the last rank.
    PromotionNotOnLastRank {
        /// The move as read.
        san: San,
    },
    /// A promotion to a king or pawn.
    BadPromotion {
        /// The move as read.
        san: San,
        /// The role asked for.
        role: Role,
    },
    /// Castling that is not possible.
    Castling {
        /// The move as read.
        san: San,
        /// Why.
        obstacle: CastlingObstacle,
    },
    /// A legal move written in a non-standard form, refused in strict mode.
    NotStandard {
        /// The move as read.
        san: San,
        /// The first non-standard form found.
        form: Leniency,
    },
}

/// "the queen on h4".
struct On((Role, Square));

impl fmt::Display for On {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (role, sq) = self.0;
        write!(f, "the {} on {}", role.name(), sq)
    }
}

const RANK_NAMES: [&str; 8] = [
    "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth",
];

impl SanError {
    /// The move as read.
    pub const fn san(&self) -> San {
        match *self {
            SanError::NullMove { san }
            | SanError::NoPiece { san, .. }
            | SanError::EmptyOrigin { san, .. }
            | SanError::WrongSide { san, .. }
            | SanError::Ambiguous { san, .. }
            | SanError::Pinned { san, .. }
            | SanError::KingAttacked { san, .. }
            | SanError::DoesNotAnswerCheck { san, .. }
            | SanError::ExposesKing { san, .. }
            | SanError::MustPromote { san }
            | SanError::PromotionNotOnLastRank { san }
            | SanError::BadPromotion { san, .. }
            | SanError::Castling { san, .. }
            | SanError::NotStandard { san, .. } => san,
        }
    }
}

impl fmt::Display for SanError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            SanError::NullMove { san } => write!(f, "{san}: a null move is not a legal move"),
            SanError::NoPiece {
                san,
                color,
                role,
                none_at_all: true,
            } => write!(f, "{san}: {color} has no {}", role.name()),
            SanError::NoPiece { san, role, .. } => {
                write!(f, "{san}: no {}", role.name())?;
                match (san.from_file(), san.from_rank(), san.from_square()) {
                    (_, _, Some(sq)) => write!(f, " on {sq}")?,
                    (Some(file), _, None) => {
                        write!(f, " on the {}-file", char::from(b'a' + file))?;
                    }
                    (None, Some(rank), None) => {
                        write!(f, " on the {} rank", RANK_NAMES[usize::from(rank & 7)])?;
                    }
                    (None, None, None) => {}
                }
                write!(f, " can reach {}", san.to())
            }
            SanError::EmptyOrigin { san, square } => {
                write!(f, "{san}: there is no piece on {square}")
            }
            SanError::WrongSide {
                san,
                color,
                role,
                from,
            } => write!(
                f,
                "{san}: it is {color}'s move, and {} is {}'s",
                On((role, from)),
                !color
            ),
            SanError::Ambiguous {
                san,
                role,
                candidates,
            } => {
                write!(f, "{san} is ambiguous: the {}s on ", role.name())?;
                let n = candidates.count();
                for (i, sq) in candidates.iter().enumerate() {
                    let sep = match (i, n as usize - i) {
                        (0, _) => "",
                        (_, 1) => " and ",
                        _ => ", ",
                    };
                    write!(f, "{sep}{sq}")?;
                }
                let all = if n == 2 { "both" } else { "all" };
                write!(f, " can {all} reach {}", san.to())
            }
            SanError::Pinned {
                san,
                piece,
                king,
                pinner,
            } => write!(
                f,
                "{san} is illegal: {} is pinned to the king on {king} by {}",
                On(piece),
                On(pinner)
            ),
            SanError::KingAttacked { san, to, by } => {
                write!(f, "{san} is illegal: {to} is attacked by {}", On(by))
            }
            SanError::DoesNotAnswerCheck {
                san,
                checker,
                second: None,
            } => write!(f, "{san} does not answer the check from {}", On(checker)),
            SanError::DoesNotAnswerCheck {
                san,
                checker,
                second: Some(second),
            } => write!(
                f,
                "{san} does not answer the double check from {} and {}",
                On(checker),
                On(second)
            ),
            SanError::ExposesKing { san, king, by } => write!(
                f,
                "{san} is illegal: it would expose the king on {king} to {}",
                On(by)
            ),
            SanError::MustPromote { san } => {
                write!(f, "{san}: a pawn reaching the last rank must promote")
            }
            SanError::PromotionNotOnLastRank { san } => {
                write!(f, "{san}: a pawn can promote only on the last rank")
            }
            SanError::BadPromotion { san, role } => {
                write!(f, "{san}: a pawn cannot promote to a {}", role.name())
            }
            SanError::Castling { san, obstacle } => {
                write!(f, "{san} is illegal: ")?;
                match obstacle {
                    CastlingObstacle::NoRight { rook: Some(rook) } => write!(
                        f,
                        "the king has moved or the {rook} rook has lost its castling right"
                    ),
                    CastlingObstacle::NoRight { rook: None } => {
                        let side = match san.castling_side() {
                            Some(CastlingSide::QueenSide) => "queen-side",
                            _ => "king-side",
                        };
                        write!(
                            f,
                            "the king has moved or the {side} rook has lost its castling right"
                        )
                    }
                    CastlingObstacle::InCheck => f.write_str("the king is in check"),
                    CastlingObstacle::Occupied(sq) => write!(f, "{sq} is occupied"),
                    CastlingObstacle::Attacked { square, by } => {
                        write!(f, "{square} is attacked by {}", On(by))
                    }
                    CastlingObstacle::Illegal => f.write_str("it would leave the king in check"),
                }
            }
            SanError::NotStandard { san, form } => write!(f, "{san}: {}", form.describe()),
        }
    }
}

impl std::error::Error for SanError {}
