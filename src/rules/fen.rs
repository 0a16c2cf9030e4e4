//! FEN reading (with nom) and writing.
//!
//! Reading is strict about meaning and lenient about form:
//!
//! * surrounding whitespace and runs of spaces between fields are fine;
//! * the two clock fields may be left out (halfmove clock 0, fullmove number 1), or only the
//!   fullmove number; a fullmove number of 0 reads as 1;
//! * castling rights may be given in any order.
//!
//! Everything else is an error, and the error lists **every** defect found (one per problem,
//! each naming its field), not just the first: wrong field count, wrong rank count or rank
//! length, bad piece letters, bad side to move, castling syntax, castling rights without their
//! king and rook, duplicate rights, a bad or impossible en passant square, bad clocks, a king
//! count other than one per side, pawns on the first or last rank, impossible material (more
//! than 8 pawns or 16 pieces of a colour, or more promoted pieces than missing pawns allow:
//! queens beyond 1, rooks, bishops and knights beyond 2 each, counted against 8 minus the
//! pawns), clocks too large to store (beyond 4,294,967,295), the side not to move in
//! check, and impossible checks (shakmaty's rules: at most two checkers, two checkers may not
//! share a line through the king, at most one pawn/knight checker, and after a double pawn
//! step only that pawn or a single slider it uncovered may check).
//!
//! The lenient readers (for perft, whose suites hold unreachable positions on purpose) accept
//! impossible checks and impossible material; every other defect is still an error, so that the
//! move generator's invariants (one king each, the side not to move not in check, no pawn on a
//! back rank) hold.
//!
//! # Standard chess and Chess960
//!
//! Each reader comes in two kinds:
//!
//! | | standard chess (or Shredder letters) | Chess960 |
//! | --- | --- | --- |
//! | strict | [`Position::from_fen`] | [`Position::from_fen_chess960`] |
//! | lenient (perft) | [`Position::from_fen_lenient`] | [`Position::from_fen_lenient_chess960`] |
//!
//! In standard chess a castling right `K`/`Q`/`k`/`q` needs the king on e1 (e8) and the rook in
//! its corner: `K` the h-file rook, `Q` the a-file rook. A right that only makes sense in
//! Chess960 (the king on g1, the `Q` rook on c1, a letter naming an inner rook) is an invalid FEN
//! whose defect names the castling field and the square. The Chess960 readers take X-FEN (`K`/`Q`
//! name the outermost rook on that side of the king) and mark the position Chess960 (UCI castling
//! is king-to-rook). A castling field written with file letters (Shredder-FEN, `HAha`) is read
//! the Chess960 way by every reader, as such letters name the rooks exactly; the position is then
//! marked Chess960 only when some right is not a standard one.
//!
//! Writing gives the `KQkq` letters when the castling rooks are the outermost ones, else
//! Shredder file letters (X-FEN, as shakmaty and python-chess write it): the FEN of a standard
//! position reads back with [`Position::from_fen`], that of a Chess960 position
//! ([`Position::is_chess960`]) with [`Position::from_fen_chess960`]. It writes the en passant
//! square **only when an en passant capture is legal** (shakmaty's `EnPassantMode::Legal`).

use std::fmt;

use nom::branch::alt;
use nom::character::complete::{char, digit1, one_of, satisfy};
use nom::combinator::{all_consuming, map, value};
use nom::multi::{many0, many1, separated_list1};
use nom::{IResult, Parser};

use crate::rules::attacks;
use crate::rules::bitboard::Bitboard;
use crate::rules::position::Position;
use crate::rules::types::{CastlingSide, Color, Piece, Role, Square};

/// The FEN of the standard starting position.
pub const STARTING_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

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
        /// Pieces beyond the initial set (queens beyond 1, rooks, bishops, knights beyond 2).
        promoted: u32,
        /// The side's pawns.
        pawns: u32,
    },
    /// The side that is not to move is in check.
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
            FenDefect::FieldCount { .. } => FenField::Fen,
            FenDefect::RankCount { .. }
            | FenDefect::RankLength { .. }
            | FenDefect::BadPiece { .. }
            | FenDefect::KingCount { .. }
            | FenDefect::PawnsOnBackRank { .. }
            | FenDefect::TooManyPawns { .. }
            | FenDefect::TooManyPieces { .. }
            | FenDefect::TooManyPromoted { .. }
            | FenDefect::ImpossibleCheck { .. } => FenField::Board,
            FenDefect::BadTurn { .. } | FenDefect::OppositeCheck { .. } => FenField::Turn,
            FenDefect::CastlingSyntax { .. }
            | FenDefect::CastlingDuplicate { .. }
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

fn color_of_letter(letter: char) -> Color {
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
            FenDefect::EnPassantRank { square } => write!(
                f,
                "{square} is not on the 3rd or 6th rank behind a pawn of the side that just moved"
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
            } => write!(
                f,
                "{color} has {promoted} pieces beyond the initial set but only {} missing pawns \
                 could have been promoted ({pawns} pawns left)",
                8u32.saturating_sub(*pawns)
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

/// Why a FEN was rejected: every defect found.
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct FenError {
    defects: Vec<FenDefect>,
}

impl FenError {
    /// The defects, in field order.
    pub fn defects(&self) -> &[FenDefect] {
        &self.defects
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
        Ok(())
    }
}

impl std::error::Error for FenError {}

/// One character of a placement rank.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
enum Token {
    /// A digit: that many empty squares.
    Empty(u8),
    /// A piece letter.
    Piece(Piece),
    /// Anything else (but `/`).
    Bad(char),
}

/// `8`, `P`, `k` ... or any other character but `/`.
fn token(input: &str) -> IResult<&str, Token> {
    alt((
        map(one_of("12345678"), |c| Token::Empty(c as u8 - b'0')),
        map(satisfy(|c| c != '/'), |c| {
            Piece::from_char(c).map_or(Token::Bad(c), Token::Piece)
        }),
    ))
    .parse(input)
}

/// `rnbqkbnr/pppppppp/8/...`: ranks of tokens separated by `/`, rank 8 first.
fn placement(input: &str) -> IResult<&str, Vec<Vec<Token>>> {
    all_consuming(separated_list1(char('/'), many0(token))).parse(input)
}

/// `w` or `b`.
fn turn(input: &str) -> IResult<&str, Color> {
    all_consuming(alt((
        value(Color::White, char('w')),
        value(Color::Black, char('b')),
    )))
    .parse(input)
}

/// `-` or letters such as `KQkq`, `HAha`, `Kq`.
fn castling(input: &str) -> IResult<&str, Vec<char>> {
    all_consuming(alt((
        value(Vec::new(), char('-')),
        many1(one_of("KQkqABCDEFGHabcdefgh")),
    )))
    .parse(input)
}

/// `-` or a square such as `e3`.
fn en_passant(input: &str) -> IResult<&str, Option<Square>> {
    all_consuming(alt((
        value(None, char('-')),
        map((one_of("abcdefgh"), one_of("12345678")), |(f, r)| {
            Square::from_coords(f as u8 - b'a', r as u8 - b'1')
        }),
    )))
    .parse(input)
}

/// A decimal number; `None` for a value beyond `u32`.
fn clock(input: &str) -> IResult<&str, Option<u32>> {
    map(all_consuming(digit1), |digits: &str| {
        digits.bytes().try_fold(0u32, |n, d| {
            n.checked_mul(10)?.checked_add(u32::from(d - b'0'))
        })
    })
    .parse(input)
}

/// The material defects of one side (see the module documentation).
fn check_material(pos: &Position, color: Color, defects: &mut Vec<FenDefect>) {
    let count = |role| pos.by_piece(Piece { color, role }).count();
    let pawns = count(Role::Pawn);
    let pieces = pos.by_color(color).count();
    if pawns > 8 {
        defects.push(FenDefect::TooManyPawns {
            color,
            count: pawns,
        });
    }
    if pieces > 16 {
        defects.push(FenDefect::TooManyPieces {
            color,
            count: pieces,
        });
    }
    let promoted = count(Role::Queen).saturating_sub(1)
        + count(Role::Rook).saturating_sub(2)
        + count(Role::Bishop).saturating_sub(2)
        + count(Role::Knight).saturating_sub(2);
    if pawns <= 8 && promoted > 8 - pawns {
        defects.push(FenDefect::TooManyPromoted {
            color,
            promoted,
            pawns,
        });
    }
}

/// Reads the placement field into an otherwise empty position, or records its defects.
fn read_placement(field: &str, defects: &mut Vec<FenDefect>) -> Option<Position> {
    let ranks = match placement(field) {
        Ok((_, ranks)) => ranks,
        // The grammar accepts any string; keep a defect in case that ever changes.
        Err(_) => {
            defects.push(FenDefect::RankCount { found: 0 });
            return None;
        }
    };
    let before = defects.len();
    if ranks.len() != 8 {
        defects.push(FenDefect::RankCount { found: ranks.len() });
    }
    let mut pos = Position::empty();
    for (i, tokens) in ranks.iter().enumerate() {
        let rank = 8u8.saturating_sub(i as u8).max(1);
        let mut file = 0usize;
        for &tok in tokens {
            match tok {
                Token::Empty(n) => file += usize::from(n),
                Token::Piece(piece) => {
                    if let Some(sq) = u8::try_from(file)
                        .ok()
                        .and_then(|f| Square::from_coords(f, rank - 1))
                    {
                        pos.put(sq, piece);
                    }
                    file += 1;
                }
                Token::Bad(found) => {
                    defects.push(FenDefect::BadPiece { rank, found });
                    file += 1;
                }
            }
        }
        if ranks.len() == 8 && file != 8 {
            defects.push(FenDefect::RankLength {
                rank,
                squares: file,
            });
        }
    }
    (defects.len() == before).then_some(pos)
}

/// Whether a castling field uses file letters (Shredder-FEN), which name the rooks exactly.
fn has_file_letters(letters: &[char]) -> bool {
    letters
        .iter()
        .any(|l| !matches!(l.to_ascii_uppercase(), 'K' | 'Q'))
}

/// Resolves the castling letters against the placement into rook squares. With `chess960` false,
/// `K`/`Q`/`k`/`q` need the king on the e-file and the rook in its corner.
fn read_castling(
    pos: &Position,
    letters: &[char],
    chess960: bool,
    defects: &mut Vec<FenDefect>,
) -> Bitboard {
    let mut rights = Bitboard::EMPTY;
    for &letter in letters {
        let color = color_of_letter(letter);
        let back = Bitboard::rank(color.back_rank());
        let kings = pos.by_piece(Piece {
            color,
            role: Role::King,
        });
        let Some(king) = kings.single_square().filter(|k| back.contains(*k)) else {
            defects.push(FenDefect::CastlingWithoutKing { letter });
            continue;
        };
        let rooks = pos.by_piece(Piece {
            color,
            role: Role::Rook,
        }) & back;
        let outermost = match letter.to_ascii_uppercase() {
            'K' => rooks.iter().rfind(|r| r.file() > king.file()),
            _ => rooks.iter().find(|r| r.file() < king.file()),
        };
        if !chess960 {
            if king.file() != 4 {
                defects.push(FenDefect::CastlingKingNotOnE { letter, king });
                continue;
            }
            let corner_file = if letter.eq_ignore_ascii_case(&'K') {
                7
            } else {
                0
            };
            let corner = Square::from_index(color.back_rank() * 8 + corner_file);
            if !rooks.contains(corner) {
                defects.push(FenDefect::CastlingRookNotInCorner {
                    letter,
                    corner,
                    rook: outermost,
                });
                continue;
            }
        }
        let rook = match letter.to_ascii_uppercase() {
            'K' | 'Q' => outermost,
            file => Square::from_coords(file as u8 - b'A', color.back_rank())
                .filter(|sq| rooks.contains(*sq) && sq.file() != king.file()),
        };
        let Some(rook) = rook else {
            defects.push(FenDefect::CastlingWithoutRook { letter });
            continue;
        };
        let side = CastlingSide::of_rook(king, rook);
        let same_side = (rights & back)
            .iter()
            .any(|r| CastlingSide::of_rook(king, r) == side);
        if same_side {
            defects.push(FenDefect::CastlingDuplicate { letter });
            continue;
        }
        rights = rights.with(rook);
    }
    rights
}

/// Checks the en passant square against the placement: the right rank, a pawn of the side
/// that just moved in front of it, and the square and the one behind it empty.
fn check_en_passant(pos: &Position, turn: Color, ep: Square, defects: &mut Vec<FenDefect>) {
    let (ep_rank, pawn_rank, from_rank) = match turn {
        Color::White => (5, 4, 6),
        Color::Black => (2, 3, 1),
    };
    if ep.rank() != ep_rank {
        defects.push(FenDefect::EnPassantRank { square: ep });
        return;
    }
    let pawn = ep.with_rank(pawn_rank);
    let from = ep.with_rank(from_rank);
    let pushed = pos
        .by_piece(Piece {
            color: !turn,
            role: Role::Pawn,
        })
        .contains(pawn);
    if !pushed || pos.occupied().contains(ep) || pos.occupied().contains(from) {
        defects.push(FenDefect::EnPassantWithoutPawn { square: ep });
    }
}

/// Checks that could not have arisen from a legal move (see the module docs).
fn is_impossible_check(pos: &Position, ep: Option<Square>) -> bool {
    let turn = pos.turn();
    let king = pos.king_of(turn);
    let checkers = pos.checkers();
    let (Some(a), Some(b)) = (checkers.first(), checkers.last()) else {
        return false;
    };
    let steppers = pos.by_role(Role::Pawn) | pos.by_role(Role::Knight) | pos.by_role(Role::King);
    if (checkers & steppers).more_than_one() {
        return true;
    }
    match ep {
        Some(ep) => {
            let (to_rank, from_rank) = match turn {
                Color::White => (4, 6),
                Color::Black => (3, 1),
            };
            let pushed_to = ep.with_rank(to_rank);
            let pushed_from = ep.with_rank(from_rank);
            let before = pos.occupied().without(pushed_to).with(pushed_from);
            a != b || (a != pushed_to && pos.attackers_to(king, !turn, before).any())
        }
        None => a != b && (checkers.count() > 2 || attacks::aligned(a, king, b)),
    }
}

/// How a FEN is read: strict or lenient (perft), standard chess or Chess960.
#[derive(Copy, Clone, Debug)]
struct Mode {
    /// Reject impossible checks and impossible material.
    strict: bool,
    /// Read castling rights as X-FEN and mark the position Chess960.
    chess960: bool,
}

impl Mode {
    const STANDARD: Mode = Mode {
        strict: true,
        chess960: false,
    };
}

impl Position {
    /// Parses a FEN of standard chess, or of Chess960 when the castling field uses Shredder file
    /// letters (see the module documentation for what is accepted).
    ///
    /// # Errors
    ///
    /// A [`FenError`] listing every defect found.
    pub fn from_fen(fen: &str) -> Result<Position, FenError> {
        Position::parse_fen(fen, Mode::STANDARD)
    }

    /// Parses a Chess960 FEN: castling rights may be X-FEN (`K`/`Q` name the outermost rook on
    /// that side of the king) or Shredder-FEN (`HAha`), and the position is marked Chess960.
    ///
    /// # Errors
    ///
    /// A [`FenError`] listing every defect found.
    pub fn from_fen_chess960(fen: &str) -> Result<Position, FenError> {
        Position::parse_fen(
            fen,
            Mode {
                chess960: true,
                ..Mode::STANDARD
            },
        )
    }

    /// Like [`Position::from_fen`], but accepts impossible checks ([`FenDefect::ImpossibleCheck`])
    /// and impossible material ([`FenDefect::TooManyPawns`], [`FenDefect::TooManyPieces`],
    /// [`FenDefect::TooManyPromoted`]): positions no legal game reaches, yet found in perft
    /// suites. Every other defect is still an error, so the move generator's invariants (one
    /// king each, side not to move not in check) hold.
    ///
    /// # Errors
    ///
    /// A [`FenError`] listing every other defect found.
    pub fn from_fen_lenient(fen: &str) -> Result<Position, FenError> {
        Position::parse_fen(
            fen,
            Mode {
                strict: false,
                ..Mode::STANDARD
            },
        )
    }

    /// [`Position::from_fen_lenient`] for Chess960 (castling read as
    /// [`Position::from_fen_chess960`] reads it).
    ///
    /// # Errors
    ///
    /// A [`FenError`] listing every other defect found.
    pub fn from_fen_lenient_chess960(fen: &str) -> Result<Position, FenError> {
        Position::parse_fen(
            fen,
            Mode {
                strict: false,
                chess960: true,
            },
        )
    }

    fn parse_fen(fen: &str, mode: Mode) -> Result<Position, FenError> {
        let strict = mode.strict;
        let mut defects = Vec::new();
        let fields: Vec<&str> = fen.split_ascii_whitespace().collect();
        if !(4..=6).contains(&fields.len()) {
            defects.push(FenDefect::FieldCount {
                found: fields.len(),
            });
        }
        let field = |i: usize| fields.get(i).copied();

        let mut pos = field(0).and_then(|f| read_placement(f, &mut defects));
        let turn = field(1).and_then(|f| match turn(f) {
            Ok((_, color)) => Some(color),
            Err(_) => {
                defects.push(FenDefect::BadTurn {
                    found: f.to_string(),
                });
                None
            }
        });
        let castling_letters = field(2).and_then(|f| match castling(f) {
            Ok((_, letters)) => Some(letters),
            Err(_) => {
                defects.push(FenDefect::CastlingSyntax {
                    found: f.to_string(),
                });
                None
            }
        });
        let ep = field(3).and_then(|f| match en_passant(f) {
            Ok((_, ep)) => Some(ep),
            Err(_) => {
                defects.push(FenDefect::EnPassantSyntax {
                    found: f.to_string(),
                });
                None
            }
        });
        let halfmoves = field(4).map_or(Some(0), |f| match clock(f) {
            Ok((_, Some(n))) => Some(n),
            Ok((_, None)) => {
                defects.push(FenDefect::HalfmovesTooLarge {
                    found: f.to_string(),
                });
                None
            }
            Err(_) => {
                defects.push(FenDefect::Halfmoves {
                    found: f.to_string(),
                });
                None
            }
        });
        let fullmoves = field(5).map_or(Some(1), |f| match clock(f) {
            Ok((_, Some(n))) => Some(n.max(1)),
            Ok((_, None)) => {
                defects.push(FenDefect::FullmovesTooLarge {
                    found: f.to_string(),
                });
                None
            }
            Err(_) => {
                defects.push(FenDefect::Fullmoves {
                    found: f.to_string(),
                });
                None
            }
        });

        if let Some(pos) = pos.as_mut() {
            let mut kings_ok = true;
            for color in Color::ALL {
                let count = pos
                    .by_piece(Piece {
                        color,
                        role: Role::King,
                    })
                    .count();
                if count != 1 {
                    kings_ok = false;
                    defects.push(FenDefect::KingCount { color, count });
                }
            }
            if strict {
                for color in Color::ALL {
                    check_material(pos, color, &mut defects);
                }
            }
            let backrank_pawns = pos.by_role(Role::Pawn) & Bitboard::BACK_RANKS;
            if backrank_pawns.any() {
                defects.push(FenDefect::PawnsOnBackRank {
                    squares: backrank_pawns,
                });
            }
            if let Some(letters) = &castling_letters {
                let chess960 = mode.chess960 || has_file_letters(letters);
                let rights = read_castling(pos, letters, chess960, &mut defects);
                pos.set_castling(rights);
            }
            if let Some(turn) = turn {
                pos.set_turn(turn);
                let ep = ep.flatten();
                if let Some(ep) = ep {
                    check_en_passant(pos, turn, ep, &mut defects);
                }
                if kings_ok {
                    let their_king = pos.king_of(!turn);
                    if pos.attackers_to(their_king, turn, pos.occupied()).any() {
                        defects.push(FenDefect::OppositeCheck { turn });
                    }
                    if strict && is_impossible_check(pos, ep) {
                        defects.push(FenDefect::ImpossibleCheck {
                            checkers: pos.checkers(),
                        });
                    }
                }
            }
        }

        match (pos, ep, halfmoves, fullmoves) {
            (Some(mut pos), Some(ep), Some(halfmoves), Some(fullmoves)) if defects.is_empty() => {
                pos.ep = ep;
                pos.halfmoves = halfmoves;
                pos.fullmoves = fullmoves;
                pos.chess960 = mode.chess960 || is_chess960_setup(&pos);
                Ok(pos)
            }
            _ => {
                defects.sort_by_key(|d| d.field() as u8);
                Err(FenError { defects })
            }
        }
    }

    /// The FEN of the position (see the module documentation for the castling letters and the
    /// en passant square).
    pub fn to_fen(&self) -> String {
        let mut fen = String::with_capacity(90);
        self.write_fen(&mut fen);
        fen
    }

    /// Appends the FEN of the position to `fen` (as [`Position::to_fen`] gives it), so that a
    /// caller writing one FEN per game can reuse its buffer.
    pub fn write_fen(&self, fen: &mut String) {
        // The placement goes to a byte buffer first, then into `fen` in one piece: the writer
        // runs once per exported game, and pushing char by char cost more than the rest of it.
        //
        // Each square is handled without a branch on what stands there (a piece or not, after
        // how many empty squares): each byte is written where it would go, and the length moves
        // past it only if it belongs in the FEN. The buffer has room for the bytes written past
        // the end that way. Which squares are empty differs from game to game, and branching on
        // it cost about twenty mispredicted branches per position. (The buffer is larger than
        // the 71 bytes needed, so that an index taken modulo its size needs no bounds check.)
        const LETTERS: [[u8; 7]; 2] = [*b"PNBRQK\0", *b"pnbrqk\0"];
        const SIZE: usize = 128;
        let mut placement = [b'/'; SIZE];
        let mut len = 0;
        let white = self.by_color(Color::White);
        for rank in (0..8u8).rev() {
            let mut empty = 0u8;
            for file in 0..8u8 {
                let sq = Square::from_index(rank * 8 + file);
                let role = self.role_at(sq).map_or(6, Role::index);
                let letter = LETTERS[usize::from(!white.contains(sq))][role];
                let piece = letter != 0;
                // The count of the empty squares before this piece, if any.
                placement[len % SIZE] = b'0' + empty;
                len += usize::from(piece & (empty > 0));
                placement[len % SIZE] = letter;
                len += usize::from(piece);
                empty = if piece { 0 } else { empty + 1 };
            }
            placement[len % SIZE] = b'0' + empty;
            len += usize::from(empty > 0);
            // The '/' that ends the rank (the last one is written past the end).
            placement[len % SIZE] = b'/';
            len += usize::from(rank > 0);
        }
        if let Ok(placement) = std::str::from_utf8(&placement[..len]) {
            fen.push_str(placement);
        }
        fen.push(' ');
        fen.push(self.turn().char());
        fen.push(' ');
        self.push_castling(fen);
        fen.push(' ');
        match self.legal_ep_square() {
            Some(sq) => {
                fen.push(sq.file_char());
                fen.push(sq.rank_char());
            }
            None => fen.push('-'),
        }
        fen.push(' ');
        push_number(fen, self.halfmoves);
        fen.push(' ');
        push_number(fen, self.fullmoves);
    }

    fn push_castling(&self, fen: &mut String) {
        let mut empty = true;
        for color in Color::ALL {
            let back = Bitboard::rank(color.back_rank());
            let king = self.king_of(color);
            let rooks = self.by_piece(Piece {
                color,
                role: Role::Rook,
            }) & back;
            for rook in (self.castling & back).iter().rev() {
                let letter = if Some(rook) == rooks.first() && rook.file() < king.file() {
                    'q'
                } else if Some(rook) == rooks.last() && rook.file() > king.file() {
                    'k'
                } else {
                    rook.file_char()
                };
                fen.push(color.fold_wb(letter.to_ascii_uppercase(), letter));
                empty = false;
            }
        }
        if empty {
            fen.push('-');
        }
    }
}

/// Appends `n` in decimal.
fn push_number(out: &mut String, n: u32) {
    let mut digits = [0u8; 10];
    let mut start = digits.len();
    let mut n = n;
    loop {
        start -= 1;
        digits[start] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    out.extend(digits[start..].iter().map(|&d| d as char));
}

/// Whether some castling right has its king off the e-file or its rook off the a/h-files.
fn is_chess960_setup(pos: &Position) -> bool {
    pos.castling.iter().any(|rook| {
        let color = if rook.rank() == 0 {
            Color::White
        } else {
            Color::Black
        };
        pos.king_of(color).file() != 4 || !(rook.file() == 0 || rook.file() == 7)
    })
}

impl std::str::FromStr for Position {
    type Err = FenError;

    fn from_str(fen: &str) -> Result<Position, FenError> {
        Position::from_fen(fen)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn startpos_round_trip() {
        let pos = Position::from_fen(STARTING_FEN).expect("valid");
        assert_eq!(pos, Position::startpos());
        assert_eq!(pos.to_fen(), STARTING_FEN);
    }

    #[test]
    fn tokens() {
        assert_eq!(
            placement("8//8"),
            Ok((
                "",
                vec![vec![Token::Empty(8)], vec![], vec![Token::Empty(8)]]
            ))
        );
        assert_eq!(castling("KQkq").map(|(_, l)| l.len()), Ok(4));
        assert!(castling("KX").is_err());
        assert!(en_passant("e3x").is_err());
        assert_eq!(clock("4294967295"), Ok(("", Some(u32::MAX))));
        assert_eq!(clock("4294967296"), Ok(("", None)));
    }
}
