//! Material facts that settle "can this side still mate?" without looking at the board's shape.
//!
//! Each rule answers only "cannot mate" (a proof) or "don't know"; its argument is written
//! beside it. A mate needs a check, and a king never gives check, so everything below is about
//! which pieces can check and which flight squares can be covered.

use crate::position::Position;
use crate::types::Color;

/// Whether `side` can never mate, proved from the material on the board alone: the per-side rule
/// of [`Position::has_insufficient_material`] (python-chess's), whose proofs are these.
///
/// The rules, each a proof:
///
/// 1. **Lone king.** `side` has nothing but its king: a king never gives check, and a mate is
///    a check.
/// 2. **Lone knight against a king and queens.** `side` has one knight and nothing else, the
///    opponent only its king and any number of queens. No checkmate position with this material
///    exists at all: the unit test `no_mate_position_with_knight_against_king_and_queens`
///    enumerates every placement of the kings and the checking knight, with queens on every
///    flight square the knight and king leave free (queens anywhere else only give the mated
///    side more moves, and a queen on a covered square changes nothing). Without pawns material
///    never grows, and whatever is captured leaves the same kind of material, so none is ever
///    reached.
/// 3. **Bishops of one colour.** `side` has only bishops, every bishop on the board stands on
///    squares of one colour C, and there are no knights or pawns. The only possible checker is
///    a bishop, so the mated king stands on C, and the check is single (a bishop that moves off
///    another's diagonal to the king cannot land on the king's other diagonal, and the king
///    discovers only one line). Let the check come through the king's diagonal neighbour D; the
///    king's two orthogonal neighbours beside D are on the board and of the other colour, where
///    no bishop of either side stands or attacks. An opponent's rook or queen on one of them
///    would capture or block on D (nothing pins it: only bishops attack, and it stands
///    orthogonally to its king), so each must be empty and covered by `side`'s king; but the
///    only squares next to both are the mated king's own and D, where the other king cannot
///    stand. Without pawns nothing changes colour or is added, so this holds for ever.
pub fn material_cannot_mate(pos: &Position, side: Color) -> bool {
    pos.has_insufficient_material(side)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bitboard::Bitboard;
    use crate::types::{Piece, Role, Square};

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
        // Queens cannot be made to block (rule 2); a rook or a second knight can.
        assert!(material_cannot_mate(
            &fen("3qkq2/8/8/8/8/8/8/3NK3 w - - 0 1"),
            Color::White
        ));
        assert!(!material_cannot_mate(
            &fen("3qkr2/8/8/8/8/8/8/3NK3 w - - 0 1"),
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
        // A black rook or queen cannot (rule 3): K+B v K+R and K+B v K+Q, but a pawn can.
        let pos = fen("4k3/8/8/8/2B5/8/8/r3K3 w - - 0 1");
        assert!(material_cannot_mate(&pos, Color::White));
        assert!(!material_cannot_mate(&pos, Color::Black));
        assert!(material_cannot_mate(
            &fen("3qk3/8/8/8/2B5/8/8/4K3 w - - 0 1"),
            Color::White
        ));
        assert!(!material_cannot_mate(
            &fen("4k3/7p/8/8/2B5/8/8/4K3 w - - 0 1"),
            Color::White
        ));
    }

    /// Every placement of a white king and a knight giving check to the black king, with black
    /// queens on each of the black king's neighbours that White leaves free, black to move: none
    /// is a checkmate. This is the proof of rule 2 (and, with no queen needed, of K+N v K).
    #[test]
    fn no_mate_position_with_knight_against_king_and_queens() {
        let piece = |color, role| Piece { color, role };
        let mut placements = 0;
        for bk in Square::all() {
            for n in crate::attacks::knight(bk) {
                for wk in Square::all() {
                    if wk == bk || wk == n || crate::attacks::king(wk).contains(bk) {
                        continue;
                    }
                    let covered = crate::attacks::king(wk) | crate::attacks::knight(n);
                    let free = crate::attacks::king(bk)
                        & !covered
                        & !Bitboard::from_square(wk)
                        & !Bitboard::from_square(n);
                    let mut pos = Position::empty();
                    pos.put(bk, piece(Color::Black, Role::King));
                    pos.put(wk, piece(Color::White, Role::King));
                    pos.put(n, piece(Color::White, Role::Knight));
                    for q in free {
                        pos.put(q, piece(Color::Black, Role::Queen));
                    }
                    pos.set_turn(Color::Black);
                    assert!(!pos.is_checkmate(), "{}", pos.to_fen());
                    assert!(material_cannot_mate(&pos, Color::White), "{}", pos.to_fen());
                    placements += 1;
                }
            }
        }
        assert!(placements > 10_000, "{placements}");
    }
}
