//! The checks of the side to move: whether one mates, and whether there is any. The helpmate
//! search asks it of every position it rates ([`super::guide`]), so it generates only the moves
//! that may give check (those landing where their piece attacks the king, those that may uncover
//! a line, promotions, castling, en passant) and plays only those.

use crate::attacks;
use crate::bitboard::Bitboard;
use crate::movegen::Sink;
use crate::moves::{Move, MoveList};
use crate::position::Position;
use crate::types::{Role, Square};

/// A move of the side to move that checkmates, if there is one, and whether it has any check.
pub(crate) fn threat(pos: &Position) -> (Option<Move>, bool) {
    let us = pos.turn();
    let king = pos.king_of(!us);
    let occupied = pos.occupied();
    let ours = pos.by_color(us);
    let sliders =
        ours & (pos.by_role(Role::Bishop) | pos.by_role(Role::Rook) | pos.by_role(Role::Queen));
    // Our men alone on a line between one of our sliders and their king: moving one may uncover
    // a check.
    let mut uncover = Bitboard::EMPTY;
    for slider in sliders & attacks::queen(king, Bitboard::EMPTY) {
        let between = attacks::between(king, slider) & occupied;
        if !between.more_than_one() {
            uncover |= between & ours;
        }
    }
    // The list stands apart from the sink: built inside it, the compiler zeroed its 3 KB at
    // every call.
    let mut list = MoveList::new();
    let mut sink = CheckSink {
        king,
        checks: [
            attacks::pawn(!us, king),
            attacks::knight(king),
            attacks::bishop(king, occupied),
            attacks::rook(king, occupied),
            attacks::queen(king, occupied),
            Bitboard::EMPTY,
        ],
        uncover,
        list: &mut list,
    };
    pos.generate::<true, _>(ALL_ROLES, Bitboard::FULL, &mut sink);
    let mut any = false;
    for &mv in list.iter() {
        let mut child = pos.clone();
        child.play_unchecked(mv);
        if !child.is_check() {
            continue;
        }
        if !child.has_legal_moves() {
            return (Some(mv), true);
        }
        any = true;
    }
    (None, any)
}

/// Every role, as the generator's bit set.
const ALL_ROLES: u8 = 0b11_1111;

/// Collects the moves that may give check to the king on `king`: `checks[role]` holds the
/// squares from which a `role` attacks it (pawn, knight, bishop, rook, queen, in
/// [`Role::index`] order); moves of the men on `uncover` may open a line. Never a move onto the
/// king's square (which a turned position could offer).
struct CheckSink<'a> {
    king: Square,
    checks: [Bitboard; 6],
    uncover: Bitboard,
    list: &'a mut MoveList,
}

impl CheckSink<'_> {
    #[inline]
    fn pawn(&mut self, pos: &Position, from: Square, to: Square) {
        let capture = pos.role_at(to);
        let uncovers = self.uncover.contains(from);
        if Bitboard::BACK_RANKS.contains(to) {
            // Promotions are few, and the pawn may have stood on the new piece's line: all of
            // them are tried.
            for role in Role::PROMOTIONS {
                self.list
                    .push(Move::normal(Role::Pawn, from, capture, to, Some(role)));
            }
        } else if uncovers || self.checks[Role::Pawn.index()].contains(to) {
            self.list
                .push(Move::normal(Role::Pawn, from, capture, to, None));
        }
    }
}

impl Sink for CheckSink<'_> {
    #[inline]
    fn piece(&mut self, pos: &Position, role: Role, from: Square, targets: Bitboard) {
        let targets = targets.without(self.king);
        if role == Role::Pawn {
            for to in targets {
                self.pawn(pos, from, to);
            }
            return;
        }
        let hits = if self.uncover.contains(from) {
            targets
        } else {
            targets & self.checks[role.index()]
        };
        for to in hits {
            self.list
                .push(Move::normal(role, from, pos.role_at(to), to, None));
        }
    }

    #[inline]
    fn pawns(&mut self, pos: &Position, targets: Bitboard, delta: i32) {
        for to in targets.without(self.king) {
            let from = Square::from_index((to.index() as i32 - delta) as u8);
            self.pawn(pos, from, to);
        }
    }

    #[inline]
    fn en_passant(&mut self, from: Square, to: Square) {
        self.list.push(Move::en_passant(from, to));
    }

    #[inline]
    fn castle(&mut self, king: Square, rook: Square) {
        self.list.push(Move::castle(king, rook));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::Color;

    fn fen(s: &str) -> Position {
        Position::from_fen_lenient(s).unwrap()
    }

    /// Along random games, the checks found are exactly the legal moves that give check: a mate
    /// is reported exactly when some legal move mates, and "a check" exactly when one checks.
    #[test]
    fn agrees_with_playing_every_move() {
        let starts = [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1",
            "k7/8/1K6/8/8/8/8/7R w - - 0 1",
        ];
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let (mut checked, mut mates) = (0, 0);
        for start in starts {
            for _ in 0..40 {
                let mut pos = fen(start);
                for _ in 0..40 {
                    let moves = pos.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    let (mut mate, mut any) = (false, false);
                    for &mv in moves.iter() {
                        let mut child = pos.clone();
                        child.play_unchecked(mv);
                        any |= child.is_check();
                        mate |= child.is_checkmate();
                    }
                    let (found, has) = threat(&pos);
                    assert_eq!((found.is_some(), has), (mate, any), "{}", pos.to_fen());
                    if let Some(mv) = found {
                        let mut child = pos.clone();
                        child.play_unchecked(mv);
                        assert!(child.is_checkmate() && child.turn() != pos.turn());
                        mates += 1;
                    }
                    checked += 1;
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    pos.play_unchecked(moves[(seed % moves.len() as u64) as usize]);
                }
            }
        }
        assert!(checked > 5_000 && mates > 0, "{checked} {mates}");
        let _ = Color::White;
    }
}
