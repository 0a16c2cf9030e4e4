//! FEN reading (with nom) and writing.
//!
//! Reading is strict about meaning and lenient about form:
//!
//! * surrounding whitespace and runs of spaces between fields are fine;
//! * the two clock fields may be left out (halfmove clock 0, fullmove number 1), or only the
//!   fullmove number; a fullmove number of 0 reads as 1;
//! * castling rights written with file letters (Shredder-FEN) may come in any order; the
//!   letters `KQkq` must come in that order (a `qkQK` field is refused, naming the first letter
//!   out of order).
//!
//! Everything else is an error, and the error names **every** defect found (one per problem,
//! each naming its field; the first [`MAX_LISTED_DEFECTS`] listed, the others counted), not just
//! the first: a text too long to be a FEN (over [`MAX_FEN_BYTES`] bytes: that one defect alone,
//! the text not read further), wrong field count, wrong rank count or rank
//! length, bad piece letters, bad side to move, castling syntax, castling rights without their
//! king and rook, duplicate rights, a bad or impossible en passant square, bad clocks, a king
//! count other than one per side, pawns on the first or last rank, impossible material (more
//! than 8 pawns or 16 pieces of a colour, or more promoted pieces than missing pawns allow:
//! queens beyond 1, rooks and knights beyond 2 each, bishops beyond 1 on each square colour,
//! counted against 8 minus the pawns), clocks too large to store (beyond 4,294,967,295), the side not to move in
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

mod defect;
mod epd;
mod fields;
mod write;

pub use defect::{FenDefect, FenError, FenField, MAX_FEN_BYTES, MAX_LISTED_DEFECTS};
pub use epd::epd_to_fen;

use fields::{
    castling, check_en_passant, check_material, clock, en_passant, has_file_letters,
    is_impossible_check, read_castling, read_placement, turn,
};

use crate::bitboard::Bitboard;
use crate::position::Position;
use crate::types::{Color, Piece, Role};

/// The FEN of the standard starting position.
pub const STARTING_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

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
        let bytes = fen.trim_ascii().len();
        if bytes > MAX_FEN_BYTES {
            return Err(FenError::new(vec![FenDefect::TooLong { bytes }]));
        }
        let strict = mode.strict;
        let mut defects = Vec::new();
        let fields: Vec<&str> = fen.split_ascii_whitespace().collect();
        if !(4..=6).contains(&fields.len()) && !fields.first().is_some_and(|f| f.contains('/')) {
            // No field of a FEN in its place: one defect, rather than one per letter.
            let found = fen.trim_ascii().to_owned();
            return Err(FenError::new(vec![FenDefect::NotAFen { found }]));
        }
        if !(4..=6).contains(&fields.len()) {
            defects.push(FenDefect::FieldCount {
                found: fields.len(),
            });
        }
        let field = |i: usize| fields.get(i).copied();

        let mut pos = field(0).and_then(|f| read_placement(f, &mut defects));
        let d = &mut defects;
        let turn = field(1).and_then(|f| read(f, turn(f), |found| FenDefect::BadTurn { found }, d));
        let castling_letters = field(2).and_then(|f| {
            read(
                f,
                castling(f),
                |found| FenDefect::CastlingSyntax { found },
                d,
            )
        });
        let ep = field(3).and_then(|f| {
            read(
                f,
                en_passant(f),
                |found| FenDefect::EnPassantSyntax { found },
                d,
            )
        });
        let halfmoves = field(4).map_or(Some(0), |f| {
            let syntax = |found| FenDefect::Halfmoves { found };
            read_clock(f, syntax, |found| FenDefect::HalfmovesTooLarge { found }, d)
        });
        let fullmoves = field(5).map_or(Some(1), |f| {
            let syntax = |found| FenDefect::Fullmoves { found };
            let clock = read_clock(f, syntax, |found| FenDefect::FullmovesTooLarge { found }, d);
            clock.map(|n| n.max(1))
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
                    let our_king = pos.king_of(turn);
                    // Kings side by side are one defect of the board, not a check.
                    let adjacent = crate::attacks::king(our_king).contains(their_king);
                    if adjacent {
                        let [white, black] = Color::ALL.map(|color| pos.king_of(color));
                        defects.push(FenDefect::KingsAdjacent { white, black });
                    }
                    let checkers = pos.attackers_to(their_king, turn, pos.occupied());
                    if checkers.without(our_king).any() {
                        defects.push(FenDefect::OppositeCheck { turn });
                    }
                    if strict && !adjacent && is_impossible_check(pos, ep) {
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
            _ => Err(FenError::new(defects)),
        }
    }
}

/// The value of `field` as its rule `parsed` it, or `None` and the defect `bad` names (with the
/// field's text) added to `defects`.
fn read<T>(
    field: &str,
    parsed: nom::IResult<&str, T>,
    bad: fn(String) -> FenDefect,
    defects: &mut Vec<FenDefect>,
) -> Option<T> {
    match parsed {
        Ok((_, value)) => Some(value),
        Err(_) => {
            defects.push(bad(field.to_string()));
            None
        }
    }
}

/// A clock field's number, or `None` and a defect added to `defects` with the field's text:
/// `syntax`'s for a field that is no number, `large`'s for a number too large to store.
fn read_clock(
    field: &str,
    syntax: fn(String) -> FenDefect,
    large: fn(String) -> FenDefect,
    defects: &mut Vec<FenDefect>,
) -> Option<u32> {
    match clock(field) {
        Ok((_, Some(n))) => Some(n),
        Ok((_, None)) => {
            defects.push(large(field.to_string()));
            None
        }
        Err(_) => {
            defects.push(syntax(field.to_string()));
            None
        }
    }
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
    fn a_text_too_long_is_one_defect_and_a_handful_are_listed() {
        let err = Position::from_fen(&"x".repeat(60 << 20)).unwrap_err();
        assert_eq!(err.defects(), [FenDefect::TooLong { bytes: 60 << 20 }]);
        assert_eq!(err.unlisted(), 0);
        // White space around it does not count; within the limit it is read, defect by defect.
        let padded = format!("{}{STARTING_FEN}{}", " ".repeat(200), "\n".repeat(200));
        assert!(Position::from_fen(&padded).is_ok());
        let letters = MAX_FEN_BYTES - " w - - 0 1".len();
        let err = Position::from_fen(&format!("{} w - - 0 1", "x".repeat(letters))).unwrap_err();
        // One rank, 246 bad letters.
        assert_eq!(err.defects().len(), MAX_LISTED_DEFECTS);
        assert_eq!(err.unlisted(), 1 + letters - MAX_LISTED_DEFECTS);
        assert!(err.to_string().ends_with("; and 239 more defects"), "{err}");
        assert_eq!(err.defects()[0], FenDefect::RankCount { found: 1 });
        // Without the fields of a FEN, the text is one defect: no FEN at all.
        let err = Position::from_fen(&"x".repeat(MAX_FEN_BYTES)).unwrap_err();
        assert_eq!(
            err.defects(),
            [FenDefect::NotAFen {
                found: "x".repeat(MAX_FEN_BYTES)
            }]
        );
    }

    #[test]
    fn startpos_round_trip() {
        let pos = Position::from_fen(STARTING_FEN).expect("valid");
        assert_eq!(pos, Position::startpos());
        assert_eq!(pos.to_fen(), STARTING_FEN);
    }
}
