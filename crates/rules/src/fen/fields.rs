//! The fields of a FEN read one by one (nom parsers for their syntax), and the checks of what
//! they say together: material, castling rights against the pieces, the en passant square, and
//! impossible checks.

use nom::branch::alt;
use nom::character::complete::{char, digit1, one_of, satisfy};
use nom::combinator::{all_consuming, map, value};
use nom::multi::{many0, many1, separated_list1};
use nom::{IResult, Parser};

use crate::attacks;
use crate::bitboard::Bitboard;
use crate::position::Position;
use crate::types::{CastlingSide, Color, Piece, Role, Square};

use super::FenDefect;
use super::defect::color_of_letter;

/// One character of a placement rank.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub(super) enum Token {
    /// A digit: that many empty squares.
    Empty(u8),
    /// A piece letter.
    Piece(Piece),
    /// Anything else (but `/`).
    Bad(char),
}

/// `8`, `P`, `k` ... or any other character but `/`.
pub(super) fn token(input: &str) -> IResult<&str, Token> {
    alt((
        map(one_of("12345678"), |c| Token::Empty(c as u8 - b'0')),
        map(satisfy(|c| c != '/'), |c| {
            Piece::from_char(c).map_or(Token::Bad(c), Token::Piece)
        }),
    ))
    .parse(input)
}

/// `rnbqkbnr/pppppppp/8/...`: ranks of tokens separated by `/`, rank 8 first.
pub(super) fn placement(input: &str) -> IResult<&str, Vec<Vec<Token>>> {
    all_consuming(separated_list1(char('/'), many0(token))).parse(input)
}

/// `w` or `b`.
pub(super) fn turn(input: &str) -> IResult<&str, Color> {
    all_consuming(alt((
        value(Color::White, char('w')),
        value(Color::Black, char('b')),
    )))
    .parse(input)
}

/// `-` or letters such as `KQkq`, `HAha`, `Kq`.
pub(super) fn castling(input: &str) -> IResult<&str, Vec<char>> {
    all_consuming(alt((
        value(Vec::new(), char('-')),
        many1(one_of("KQkqABCDEFGHabcdefgh")),
    )))
    .parse(input)
}

/// `-` or a square such as `e3`.
pub(super) fn en_passant(input: &str) -> IResult<&str, Option<Square>> {
    all_consuming(alt((
        value(None, char('-')),
        map((one_of("abcdefgh"), one_of("12345678")), |(f, r)| {
            Square::from_coords(f as u8 - b'a', r as u8 - b'1')
        }),
    )))
    .parse(input)
}

/// A decimal number; `None` for a value beyond `u32`.
pub(super) fn clock(input: &str) -> IResult<&str, Option<u32>> {
    map(all_consuming(digit1), |digits: &str| {
        digits.bytes().try_fold(0u32, |n, d| {
            n.checked_mul(10)?.checked_add(u32::from(d - b'0'))
        })
    })
    .parse(input)
}

/// The material defects of one side (see the module documentation).
pub(super) fn check_material(pos: &Position, color: Color, defects: &mut Vec<FenDefect>) {
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
    // A side starts with one bishop of each square colour: a second bishop on one colour is a
    // promotion, whatever stands on the other.
    let bishops = pos.by_piece(Piece {
        color,
        role: Role::Bishop,
    });
    let light = (bishops & Bitboard::LIGHT_SQUARES).count();
    let dark = bishops.count() - light;
    let promoted = count(Role::Queen).saturating_sub(1)
        + count(Role::Rook).saturating_sub(2)
        + light.saturating_sub(1)
        + dark.saturating_sub(1)
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
pub(super) fn read_placement(field: &str, defects: &mut Vec<FenDefect>) -> Option<Position> {
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
pub(super) fn has_file_letters(letters: &[char]) -> bool {
    letters
        .iter()
        .any(|l| !matches!(l.to_ascii_uppercase(), 'K' | 'Q'))
}

/// Resolves the castling letters against the placement into rook squares. With `chess960` false,
/// `K`/`Q`/`k`/`q` need the king on the e-file and the rook in its corner.
pub(super) fn read_castling(
    pos: &Position,
    letters: &[char],
    chess960: bool,
    defects: &mut Vec<FenDefect>,
) -> Bitboard {
    let mut rights = Bitboard::EMPTY;
    // The standard letters come in the order KQkq (PGN standard 16.1.3.3); the file letters of
    // Shredder-FEN follow no one order among programs.
    let mut last_standard = None;
    for &letter in letters {
        if let Some(rank) = "KQkq".find(letter) {
            if last_standard.is_some_and(|last| last > rank) {
                defects.push(FenDefect::CastlingOutOfOrder { letter });
            }
            last_standard = Some(rank);
        }
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
pub(super) fn check_en_passant(
    pos: &Position,
    turn: Color,
    ep: Square,
    defects: &mut Vec<FenDefect>,
) {
    let (ep_rank, pawn_rank, from_rank) = match turn {
        Color::White => (5, 4, 6),
        Color::Black => (2, 3, 1),
    };
    if ep.rank() != ep_rank {
        defects.push(FenDefect::EnPassantRank { square: ep, turn });
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
pub(super) fn is_impossible_check(pos: &Position, ep: Option<Square>) -> bool {
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

#[cfg(test)]
mod tests {
    use super::*;

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
