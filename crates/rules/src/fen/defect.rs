//! What can be wrong with a FEN: the field a defect is about, each defect with its message, and
//! the error that lists them all.

use std::fmt;

use crate::bitboard::Bitboard;
use crate::types::{Color, Square};

/// The part of a FEN a defect is about.
#[derive(Copy, Clone, Debug, Eq, PartialEq, Hash)]
pub enum FenField {
    /// The FEN as a whole (its number of fields).
    Fen,
    /// The piece placement.
    Board,
    /// The side to move.
    Turn,
    /// The castling rights.
    Castling,
    /// The en passant square.
    EnPassant,
    /// The halfmove clock.
    Halfmoves,
    /// The fullmove number.
    Fullmoves,
}

impl fmt::Display for FenField {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            FenField::Fen => "fen",
            FenField::Board => "board",
            FenField::Turn => "side to move",
            FenField::Castling => "castling",
            FenField::EnPassant => "en passant",
            FenField::Halfmoves => "halfmove clock",
            FenField::Fullmoves => "fullmove number",
        })
    }
}

/// One problem of a FEN. `Display` starts with the field's name.
#[derive(Clone, Debug, Eq, PartialEq)]
pub enum FenDefect {
    /// A text longer than [`MAX_FEN_BYTES`] (without the white space around it): surely no FEN,
    /// and not read further.
    TooLong {
        /// How many bytes it has.
        bytes: usize,
    },
    /// Text that is not a FEN at all: not 4 to 6 fields, and no `/` between ranks in the first
    /// (`hello`). One defect, not one per letter.
    NotAFen {
        /// The text (at most [`MAX_FEN_BYTES`] bytes, white space around it left out).
        found: String,
    },
    /// Not 4 to 6 space-separated fields.
    FieldCount {
        /// How many fields there were.
        found: usize,
    },
    /// The placement does not have 8 ranks.
    RankCount {
        /// How many ranks there were.
        found: usize,
    },
    /// A rank does not describe 8 squares.
    RankLength {
        /// The rank, 1–8.
        rank: u8,
        /// How many squares it describes.
        squares: usize,
    },
    /// A character that is neither a piece letter nor a digit 1–8.
    BadPiece {
        /// The rank, 1–8 (counted from the top when the rank count is wrong).
        rank: u8,
        /// The character.
        found: char,
    },
    /// A side has no king or more than one.
    KingCount {
        /// Whose kings.
        color: Color,
        /// How many there are.
        count: u32,
    },
    /// Pawns on the first or the last rank.
    PawnsOnBackRank {
        /// Where.
        squares: Bitboard,
    },
    /// The side to move is not `w` or `b`.
    BadTurn {
        /// The field as given.
        found: String,
    },
    /// The castling field is not `-` or letters from `KQkqA-Ha-h`.
    CastlingSyntax {
        /// The field as given.
        found: String,
    },
    /// A castling right given twice, or two rights for one side of one king.
    CastlingDuplicate {
        /// The letter of the second right.
        letter: char,
    },
    /// A `K`/`Q`/`k`/`q` letter after one that the standard order `KQkq` puts after it (`qkQK`).
    CastlingOutOfOrder {
        /// The letter out of order.
        letter: char,
    },
    /// A castling right without exactly one king of its colour, on its first rank.
    CastlingWithoutKing {
        /// The letter.
        letter: char,
    },
    /// A castling right without a rook of the king's colour on the named square or side.
    CastlingWithoutRook {
        /// The letter.
        letter: char,
    },
    /// Standard chess: a `K`/`Q`/`k`/`q` right, but the king is not on e1 (e8).
    CastlingKingNotOnE {
        /// The letter.
        letter: char,
        /// Where the king stands.
        king: Square,
    },
    /// Standard chess: a `K`/`Q`/`k`/`q` right, but no rook of the king's colour in that corner.
    CastlingRookNotInCorner {
        /// The letter.
        letter: char,
        /// The corner (h1, a1, h8 or a8).
        corner: Square,
        /// The rook X-FEN would take for the letter (the outermost on that side), if any.
        rook: Option<Square>,
    },
    /// The en passant field is not `-` or a square name.
    EnPassantSyntax {
        /// The field as given.
        found: String,
    },
    /// The en passant square is not on the 6th rank (white to move) or the 3rd (black to move).
    EnPassantRank {
        /// The square.
        square: Square,
        /// The side to move.
        turn: Color,
    },
    /// No pawn that could just have made the double step past the en passant square.
    EnPassantWithoutPawn {
        /// The square.
        square: Square,
    },
    /// The halfmove clock is not a number.
    Halfmoves {
        /// The field as given.
        found: String,
    },
    /// The fullmove number is not a number.
    Fullmoves {
        /// The field as given.
        found: String,
    },
    /// The halfmove clock is larger than can be stored (a `u32`).
    HalfmovesTooLarge {
        /// The field as given.
        found: String,
    },
    /// The fullmove number is larger than can be stored (a `u32`).
    FullmovesTooLarge {
        /// The field as given.
        found: String,
    },
    /// A side has more than 8 pawns.
    TooManyPawns {
        /// Whose pawns.
        color: Color,
        /// How many.
        count: u32,
    },
    /// A side has more than 16 pieces (king and pawns included).
    TooManyPieces {
        /// Whose pieces.
        color: Color,
        /// How many.
        count: u32,
    },
    /// A side has more pieces beyond the initial set than its missing pawns could have become.
    TooManyPromoted {
        /// Whose pieces.
        color: Color,
        /// Pieces beyond the initial set (queens beyond 1, rooks and knights beyond 2, bishops
        /// beyond 1 on either square colour).
        promoted: u32,
        /// The side's pawns.
        pawns: u32,
    },
    /// The two kings stand next to each other.
    KingsAdjacent {
        /// The white king's square.
        white: Square,
        /// The black king's square.
        black: Square,
    },
    /// The side that is not to move is in check (by a piece other than the king).
    OppositeCheck {
        /// The side to move.
        turn: Color,
    },
    /// The side to move is in a check no legal move could have given.
    ImpossibleCheck {
        /// The checking pieces.
        checkers: Bitboard,
    },
}

impl FenDefect {
    /// The field the defect is in.
    pub fn field(&self) -> FenField {
        match self {
            FenDefect::TooLong { .. }
            | FenDefect::NotAFen { .. }
            | FenDefect::FieldCount { .. } => FenField::Fen,
            FenDefect::RankCount { .. }
            | FenDefect::RankLength { .. }
            | FenDefect::BadPiece { .. }
            | FenDefect::KingCount { .. }
            | FenDefect::PawnsOnBackRank { .. }
            | FenDefect::TooManyPawns { .. }
            | FenDefect::TooManyPieces { .. }
            | FenDefect::TooManyPromoted { .. }
            | FenDefect::KingsAdjacent { .. }
            | FenDefect::ImpossibleCheck { .. } => FenField::Board,
            FenDefect::BadTurn { .. } | FenDefect::OppositeCheck { .. } => FenField::Turn,
            FenDefect::CastlingSyntax { .. }
            | FenDefect::CastlingDuplicate { .. }
            | FenDefect::CastlingOutOfOrder { .. }
            | FenDefect::CastlingWithoutKing { .. }
            | FenDefect::CastlingWithoutRook { .. }
            | FenDefect::CastlingKingNotOnE { .. }
            | FenDefect::CastlingRookNotInCorner { .. } => FenField::Castling,
            FenDefect::EnPassantSyntax { .. }
            | FenDefect::EnPassantRank { .. }
            | FenDefect::EnPassantWithoutPawn { .. } => FenField::EnPassant,
            FenDefect::Halfmoves { .. } | FenDefect::HalfmovesTooLarge { .. } => {
                FenField::Halfmoves
            }
            FenDefect::Fullmoves { .. } | FenDefect::FullmovesTooLarge { .. } => {
                FenField::Fullmoves
            }
        }
    }
}

pub(super) fn color_of_letter(letter: char) -> Color {
    if letter.is_ascii_uppercase() {
        Color::White
    } else {
        Color::Black
    }
}

fn square_list(squares: Bitboard) -> String {
    squares
        .iter()
        .map(|sq| sq.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

impl fmt::Display for FenDefect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: ", self.field())?;
        match self {
            FenDefect::TooLong { bytes } => write!(
                f,
                "the text is {bytes} bytes long; a FEN has at most {LONGEST_FEN} characters, and \
                 a text over {MAX_FEN_BYTES} bytes is not read as one"
            ),
            FenDefect::NotAFen { found } => write!(
                f,
                "{found:?} is not a FEN at all: a FEN has 4 to 6 space-separated fields, the \
                 first the board's 8 ranks separated by '/' (as in {})",
                crate::fen::STARTING_FEN
            ),
            FenDefect::FieldCount { found } => write!(
                f,
                "expected 4 to 6 space-separated fields (placement, side to move, castling, \
                 en passant, halfmove clock, fullmove number), found {found}"
            ),
            FenDefect::RankCount { found } => write!(f, "expected 8 ranks, found {found}"),
            FenDefect::RankLength { rank, squares } => {
                write!(f, "rank {rank} describes {squares} squares instead of 8")
            }
            FenDefect::BadPiece { rank, found } => {
                write!(f, "invalid piece letter {found:?} in rank {rank}")
            }
            FenDefect::KingCount { color, count } => {
                write!(f, "{color} has {count} kings, expected exactly 1")
            }
            FenDefect::PawnsOnBackRank { squares } => write!(
                f,
                "pawns on the first or last rank: {}",
                square_list(*squares)
            ),
            FenDefect::BadTurn { found } => write!(f, "expected 'w' or 'b', found {found:?}"),
            FenDefect::CastlingSyntax { found } => write!(
                f,
                "expected '-' or letters from KQkq and A-H/a-h, found {found:?}"
            ),
            FenDefect::CastlingDuplicate { letter } => write!(
                f,
                "'{letter}' repeats a right: {} already has one on that side",
                color_of_letter(*letter)
            ),
            FenDefect::CastlingOutOfOrder { letter } => write!(
                f,
                "'{letter}' is out of order: the letters come in the order KQkq"
            ),
            FenDefect::CastlingWithoutKing { letter } => {
                let color = color_of_letter(*letter);
                write!(
                    f,
                    "'{letter}' but there is no single {color} king on rank {}",
                    color.back_rank() + 1
                )
            }
            FenDefect::CastlingWithoutRook { letter } => {
                let color = color_of_letter(*letter);
                match letter.to_ascii_uppercase() {
                    'K' => write!(
                        f,
                        "'{letter}' but no {color} rook on the king side of the king"
                    ),
                    'Q' => write!(
                        f,
                        "'{letter}' but no {color} rook on the queen side of the king"
                    ),
                    file => write!(
                        f,
                        "'{letter}' but no {color} rook on {}{} beside the king",
                        file.to_ascii_lowercase(),
                        color.back_rank() + 1
                    ),
                }
            }
            FenDefect::CastlingKingNotOnE { letter, king } => {
                let color = color_of_letter(*letter);
                write!(
                    f,
                    "'{letter}' needs the {color} king on e{} in standard chess, but it stands on \
                     {king} (a Chess960 right: use Shredder letters such as HAha, or --chess960)",
                    color.back_rank() + 1
                )
            }
            FenDefect::CastlingRookNotInCorner {
                letter,
                corner,
                rook,
            } => {
                let color = color_of_letter(*letter);
                match rook {
                    Some(rook) => write!(
                        f,
                        "'{letter}' needs a {color} rook on {corner} in standard chess, but the \
                         rook on that side stands on {rook} (a Chess960 right: use Shredder \
                         letters such as HAha, or --chess960)"
                    ),
                    None => write!(f, "'{letter}' but no {color} rook on {corner}"),
                }
            }
            FenDefect::EnPassantSyntax { found } => {
                write!(f, "expected '-' or a square such as e3, found {found:?}")
            }
            FenDefect::EnPassantRank { square, turn } => write!(
                f,
                "with {turn} to move the en passant square must be on the {} rank, not {square}",
                match turn {
                    Color::White => "6th",
                    Color::Black => "3rd",
                }
            ),
            FenDefect::EnPassantWithoutPawn { square } => write!(
                f,
                "{square} but no pawn can just have made a double step past it (pawn in front, \
                 empty squares behind)"
            ),
            FenDefect::Halfmoves { found } => write!(f, "expected a number, found {found:?}"),
            FenDefect::Fullmoves { found } => write!(f, "expected a number, found {found:?}"),
            FenDefect::HalfmovesTooLarge { found } | FenDefect::FullmovesTooLarge { found } => {
                write!(f, "{found} is too large (at most {})", u32::MAX)
            }
            FenDefect::TooManyPawns { color, count } => {
                write!(f, "{color} has {count} pawns, at most 8 are possible")
            }
            FenDefect::TooManyPieces { color, count } => write!(
                f,
                "{color} has {count} pieces (king and pawns included), at most 16 are possible"
            ),
            FenDefect::TooManyPromoted {
                color,
                promoted,
                pawns,
            } => {
                let missing = 8u32.saturating_sub(*pawns);
                let plural = |n: u32| if n == 1 { "" } else { "s" };
                write!(
                    f,
                    "{color} has {promoted} piece{} beyond the initial set but only {missing} \
                     missing pawn{} could have been promoted ({pawns} pawn{} left)",
                    plural(*promoted),
                    plural(missing),
                    plural(*pawns)
                )
            }
            FenDefect::KingsAdjacent { white, black } => write!(
                f,
                "the kings stand next to each other (white on {white}, black on {black})"
            ),
            FenDefect::OppositeCheck { turn } => write!(
                f,
                "{turn} to move but the {} king is in check",
                turn.other()
            ),
            FenDefect::ImpossibleCheck { checkers } => write!(
                f,
                "impossible check: no single move can give check from {}",
                square_list(*checkers)
            ),
        }
    }
}

/// The longest FEN, in characters: a placement of 64 pieces (71 characters), four castling
/// rights, an en passant square, clocks of ten digits (up to 4,294,967,295) and five spaces.
pub const LONGEST_FEN: usize = 103;

/// A text longer than this, in bytes (without the white space around it), is not read as a FEN:
/// it is one [`FenDefect::TooLong`], rather than a defect for each of its characters (a 60 MB
/// `FEN` tag of `x` would otherwise cost gigabytes). It leaves room for runs of spaces.
pub const MAX_FEN_BYTES: usize = 256;

/// At most this many defects are listed in a [`FenError`]; the others are counted.
pub const MAX_LISTED_DEFECTS: usize = 8;

/// Why a FEN was rejected: the defects found, in field order, the first
/// [`MAX_LISTED_DEFECTS`] listed and the rest counted.
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct FenError {
    defects: Vec<FenDefect>,
    unlisted: usize,
}

impl FenError {
    /// The error for `defects` (not empty), sorted by field, the first [`MAX_LISTED_DEFECTS`]
    /// kept.
    pub(super) fn new(mut defects: Vec<FenDefect>) -> FenError {
        defects.sort_by_key(|d| d.field() as u8);
        let unlisted = defects.len().saturating_sub(MAX_LISTED_DEFECTS);
        defects.truncate(MAX_LISTED_DEFECTS);
        FenError { defects, unlisted }
    }

    /// The defects listed (at most [`MAX_LISTED_DEFECTS`]), in field order.
    pub fn defects(&self) -> &[FenDefect] {
        &self.defects
    }

    /// How many more defects were found than are listed.
    pub fn unlisted(&self) -> usize {
        self.unlisted
    }
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("invalid fen: ")?;
        for (i, defect) in self.defects.iter().enumerate() {
            if i > 0 {
                f.write_str("; ")?;
            }
            write!(f, "{defect}")?;
        }
        match self.unlisted {
            0 => Ok(()),
            1 => f.write_str("; and 1 more defect"),
            n => write!(f, "; and {n} more defects"),
        }
    }
}

impl std::error::Error for FenError {}
