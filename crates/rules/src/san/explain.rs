//! Why a move does not fit a position: the slow path, run only after resolution failed.
//!
//! It looks at pseudo-legal moves (moves that ignore the safety of one's own king) and attack
//! queries to name the pinning piece, the attacker of a square, the piece giving check, or the
//! opponent's piece that could have made the move.

use super::San;
use super::error::{CastlingObstacle, SanError};
use crate::{Bitboard, CastlingSide, Move, Piece, Position, Role, Square, attacks};

/// The first piece of `squares`, with its role.
fn first_piece(pos: &Position, squares: Bitboard) -> Option<(Role, Square)> {
    let sq = squares.first()?;
    Some((pos.role_at(sq)?, sq))
}

/// Explains why no legal move of `role` fits `san` (a normal move).
pub(super) fn no_move(pos: &Position, san: San, role: Role) -> SanError {
    let us = pos.turn();
    if let (None, Some(from)) = (san.role(), san.from_square()) {
        match pos.piece_at(from) {
            None => return SanError::EmptyOrigin { san, square: from },
            Some(piece) if piece.color != us => {
                return SanError::WrongSide {
                    san,
                    color: us,
                    role: piece.role,
                    from,
                };
            }
            Some(_) => {}
        }
    }
    let pseudo = pos.pseudo_legal_moves();
    let mut reaching = pseudo.iter().filter(|mv| {
        mv.role() == role
            && mv.to() == san.to()
            && !mv.is_castle()
            && san
                .implied_from_file(role)
                .is_none_or(|f| f == mv.from().file())
            && san.from_rank().is_none_or(|r| r == mv.from().rank())
    });
    if let Some(first) = reaching.clone().find(|mv| san.fits(mv)) {
        return illegal(pos, san, *first);
    }
    if san.promotion().is_none() && reaching.any(|mv| mv.promotion().is_some()) {
        return SanError::MustPromote { san };
    }
    if let Some((role, from)) = opponent_could(pos, san, role) {
        return SanError::WrongSide {
            san,
            color: us,
            role,
            from,
        };
    }
    SanError::NoPiece {
        san,
        color: us,
        role,
        none_at_all: pos.by_piece(Piece { color: us, role }).is_empty(),
    }
}

/// An opponent's piece of `role` matching the origin given that attacks (or, for a pawn, could
/// step to) the destination: the player moved the wrong side's piece.
fn opponent_could(pos: &Position, san: San, role: Role) -> Option<(Role, Square)> {
    let them = !pos.turn();
    let to = san.to();
    let occupied = pos.occupied();
    if pos.by_color(them).contains(to) {
        return None;
    }
    pos.by_piece(Piece { color: them, role })
        .iter()
        .filter(|from| {
            san.implied_from_file(role).is_none_or(|f| f == from.file())
                && san.from_rank().is_none_or(|r| r == from.rank())
        })
        .find(|&from| {
            let reach = match role {
                Role::Pawn => {
                    let forward = if them.is_white() { 8 } else { -8 };
                    (Bitboard::from_square(from).shift(forward) & !occupied)
                        | (attacks::pawn(them, from) & occupied)
                }
                Role::Knight => attacks::knight(from),
                Role::Bishop => attacks::bishop(from, occupied),
                Role::Rook => attacks::rook(from, occupied),
                Role::Queen => attacks::queen(from, occupied),
                Role::King => attacks::king(from),
            };
            reach.contains(to)
        })
        .map(|from| (role, from))
}

/// Explains why the pseudo-legal `mv` is illegal: it leaves the king in check.
fn illegal(pos: &Position, san: San, mv: Move) -> SanError {
    let us = pos.turn();
    let them = !us;
    let king = pos.king_of(us);
    let occupied = pos.occupied();
    if mv.role() == Role::King {
        let attackers = pos.attackers_to(mv.to(), them, occupied.without(mv.from()));
        if let Some(by) = first_piece(pos, attackers) {
            return SanError::KingAttacked {
                san,
                to: mv.to(),
                by,
            };
        }
    }
    let from = mv.from();
    if pos.pinned().contains(from) && !attacks::aligned(king, from, mv.to()) {
        let snipers =
            pos.attackers_to(king, them, occupied.without(from)) & attacks::ray(king, from);
        if let Some(pinner) = first_piece(pos, snipers) {
            return SanError::Pinned {
                san,
                piece: (mv.role(), from),
                king,
                pinner,
            };
        }
    }
    let checkers = pos.checkers();
    if let Some(checker) = first_piece(pos, checkers) {
        return SanError::DoesNotAnswerCheck {
            san,
            checker,
            second: first_piece(pos, checkers.without(checker.1)),
        };
    }
    let mut after = pos.clone();
    after.play_unchecked(mv);
    let king = after.king_of(us);
    match first_piece(&after, after.attackers_to(king, them, after.occupied())) {
        Some(by) => SanError::ExposesKing { san, king, by },
        None => SanError::NoPiece {
            san,
            color: us,
            role: mv.role(),
            none_at_all: false,
        },
    }
}

/// Explains why castling to `side` is not possible.
pub(super) fn castling(pos: &Position, san: San, side: CastlingSide) -> SanError {
    let obstacle = castling_obstacle(pos, side);
    SanError::Castling { san, obstacle }
}

fn castling_obstacle(pos: &Position, side: CastlingSide) -> CastlingObstacle {
    let us = pos.turn();
    let them = !us;
    let king = pos.king_of(us);
    let back = Bitboard::rank(us.back_rank());
    let rook = (pos.castling_rooks() & pos.by_color(us) & back)
        .iter()
        .find(|&rook| back.contains(king) && CastlingSide::of_rook(king, rook) == side);
    let Some(rook) = rook else {
        let home = match side {
            CastlingSide::KingSide => 7,
            CastlingSide::QueenSide => 0,
        };
        let rook = if pos.is_chess960() {
            None
        } else {
            Square::from_coords(home, us.back_rank())
        };
        return CastlingObstacle::NoRight { rook };
    };
    if pos.is_check() {
        return CastlingObstacle::InCheck;
    }
    let king_to = side.king_to(us);
    let rook_to = side.rook_to(us);
    let must_be_empty = (attacks::between(king, king_to)
        | attacks::between(rook, rook_to)
        | Bitboard::from_square(king_to)
        | Bitboard::from_square(rook_to))
    .without(king)
    .without(rook);
    let blocked = pos.occupied() & must_be_empty;
    let nearest = |squares: Bitboard| match side {
        CastlingSide::KingSide => squares.first(),
        CastlingSide::QueenSide => squares.last(),
    };
    if let Some(sq) = nearest(blocked) {
        return CastlingObstacle::Occupied(sq);
    }
    let path = attacks::between(king, king_to) | Bitboard::from_square(king_to);
    let occupied = pos.occupied().without(king);
    let attacked: Bitboard = path
        .iter()
        .filter(|&sq| pos.attackers_to(sq, them, occupied).any())
        .collect();
    if let Some(square) = nearest(attacked)
        && let Some(by) = first_piece(pos, pos.attackers_to(square, them, occupied))
    {
        return CastlingObstacle::Attacked { square, by };
    }
    CastlingObstacle::Illegal
}
