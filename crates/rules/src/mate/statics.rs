//! Material facts that settle "can this side still mate?" without looking at the board's shape.
//!
//! Each rule answers only "cannot mate" (a proof) or "don't know"; its argument is written
//! beside it. A mate needs a check, and a king never gives check, so everything below is about
//! which pieces can check and which flight squares can be covered.

use crate::bitboard::Bitboard;
use crate::position::Position;
use crate::types::{Color, Role};

/// Whether `side` can never mate, proved from the material on the board alone.
///
/// The rules, each a proof:
///
/// 1. **Lone king.** `side` has nothing but its king: a king never gives check, and a mate is
///    a check.
/// 2. **Lone knight against a bare king.** `side` has one knight and nothing else, the opponent
///    only its king. No checkmate position with this material exists at all (the unit test
///    `no_mate_position_with_knight_against_bare_king` enumerates every placement); material
///    never grows without pawns, so none is ever reached.
/// 3. **Bishops of one colour against bishops of that colour.** `side` has only bishops, all on
///    squares of one colour C, and the opponent has nothing but its king and bishops on C. The
///    only possible checker is a bishop, so the mated king stands on C; its orthogonal
///    neighbours are of the other colour, and no bishop of either side can ever stand on or
///    attack one, so each must be covered by `side`'s king. A king on any edge or corner square
///    still has two orthogonal neighbours that are opposite each other (d8: c8 and e8) or
///    diagonal to each other (a8: a7 and b8), and every square next to both is the mated king's
///    own square or next to it, where the other king cannot stand. Without pawns nothing
///    changes colour or is added, so this holds for ever.
pub fn material_cannot_mate(pos: &Position, side: Color) -> bool {
    let kings = pos.by_role(Role::King);
    let ours = pos.by_color(side) & !kings;
    let theirs = pos.by_color(!side) & !kings;
    if ours.is_empty() {
        return true;
    }
    let heavy = pos.by_role(Role::Pawn) | pos.by_role(Role::Rook) | pos.by_role(Role::Queen);
    if (ours & heavy).any() {
        return false;
    }
    let knights = ours & pos.by_role(Role::Knight);
    if knights.any() {
        return knights == ours && ours.count() == 1 && theirs.is_empty();
    }
    // Only bishops are left on our side.
    let bishops = pos.by_role(Role::Bishop);
    if (theirs & !bishops).any() {
        return false;
    }
    let all = ours | theirs;
    (all & Bitboard::LIGHT_SQUARES).is_empty() || (all & Bitboard::DARK_SQUARES).is_empty()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::{Piece, Square};

    fn fen(s: &str) -> Position {
        Position::from_fen_lenient(s).unwrap()
    }

    #[test]
    fn lone_king_never_mates() {
        let pos = fen("4k3/pppppppp/8/8/8/8/8/4K3 w - - 0 1");
        assert!(material_cannot_mate(&pos, Color::White));
        assert!(!material_cannot_mate(&pos, Color::Black));
    }

    #[test]
    fn lone_knight_needs_an_enemy_blocker() {
        assert!(material_cannot_mate(
            &fen("4k3/8/8/8/8/8/8/3NK3 w - - 0 1"),
            Color::White
        ));
        // A black pawn, a black bishop could block: not proved.
        assert!(!material_cannot_mate(
            &fen("4k3/p7/8/8/8/8/8/3NK3 w - - 0 1"),
            Color::White
        ));
        assert!(!material_cannot_mate(
            &fen("4kb2/8/8/8/8/8/8/3NK3 w - - 0 1"),
            Color::White
        ));
        // Two knights can mate with help.
        assert!(!material_cannot_mate(
            &fen("4k3/8/8/8/8/8/8/2NNK3 w - - 0 1"),
            Color::White
        ));
    }

    #[test]
    fn bishops_of_one_colour() {
        // Light bishops only: c4 and f1 for White, b5 for Black.
        let pos = fen("4k3/8/8/1b6/2B5/8/8/4KB2 w - - 0 1");
        assert!(material_cannot_mate(&pos, Color::White));
        assert!(material_cannot_mate(&pos, Color::Black));
        // A black dark-squared bishop can block: open.
        let pos = fen("4k3/8/8/2b5/2B5/8/8/4KB2 w - - 0 1");
        assert!(!material_cannot_mate(&pos, Color::White));
        // A black knight can block: open.
        let pos = fen("4k3/8/8/1n6/2B5/8/8/4KB2 w - - 0 1");
        assert!(!material_cannot_mate(&pos, Color::White));
    }

    /// Every placement of a white king and knight and a black king, black to move: none is a
    /// checkmate. This is the proof of rule 2.
    #[test]
    fn no_mate_position_with_knight_against_bare_king() {
        let piece = |color, role| Piece { color, role };
        for bk in Square::all() {
            for wk in Square::all() {
                if wk == bk || crate::attacks::king(wk).contains(bk) {
                    continue;
                }
                for n in Square::all() {
                    if n == wk || n == bk {
                        continue;
                    }
                    if !crate::attacks::knight(n).contains(bk) {
                        continue;
                    }
                    let mut pos = Position::empty();
                    pos.put(bk, piece(Color::Black, Role::King));
                    pos.put(wk, piece(Color::White, Role::King));
                    pos.put(n, piece(Color::White, Role::Knight));
                    pos.set_turn(Color::Black);
                    assert!(!pos.is_checkmate(), "{}", pos.to_fen());
                }
            }
        }
    }
}
