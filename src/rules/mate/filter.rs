//! The cheap filter run on every game's final position: `true` only when some side can
//! provably still mate, by an argument that needs no search.

use crate::rules::position::Position;
use crate::rules::types::{Color, Role};

/// Whether some side can certainly still mate in `pos` (so the position is not dead). Cheap
/// enough to run on every game (a few bitboard operations, and a legal-move check only in the
/// rare positions where a rule needs it); `false` means "don't know", and the full decision
/// ([`super::can_mate`], [`super::is_dead`]) must be asked.
///
/// The rules, each a proof:
///
/// 1. **Mate on the board.** The side to move is checkmated: the other side has mated.
/// 2. **Queen or rook against a bare king, no pawns.** One side has only its king, the other a
///    queen or a rook (and anything else but pawns), and the side to move has a legal move.
///    With no pawns nothing can ever be blocked for good; the bare king can walk to a corner
///    while the other side waits or clears the way (a queen or rook always has a waiting move
///    unless boxed by its own men, which can then move instead), and the classical corner mate
///    with king and rook (or queen) follows; extra pieces of the stronger side only add
///    waiting moves.
pub fn certainly_not_dead(pos: &Position) -> bool {
    let kings = pos.by_role(Role::King);
    // Rule 2, bitboards only.
    if pos.by_role(Role::Pawn).is_empty() {
        for side in [Color::White, Color::Black] {
            let bare = (pos.by_color(!side) & !kings).is_empty();
            let heavy = pos.by_color(side) & (pos.by_role(Role::Queen) | pos.by_role(Role::Rook));
            if bare && heavy.any() {
                return pos.has_legal_moves();
            }
        }
    }
    // Rule 1: only positions in check need the legal-move test.
    pos.is_check() && !pos.has_legal_moves()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::mate::{CanMate, MateLimits, can_mate};

    fn fen(s: &str) -> Position {
        Position::from_fen_lenient(s).unwrap()
    }

    #[test]
    fn a_mate_on_the_board() {
        let pos = fen("R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1");
        assert!(certainly_not_dead(&pos));
        assert!(!certainly_not_dead(&fen(
            "5k2/5ppp/8/8/8/8/8/R5K1 b - - 0 1"
        )));
    }

    #[test]
    fn rook_against_a_bare_king() {
        let pos = fen("8/8/8/4k3/8/8/8/R3K3 b - - 0 1");
        assert!(certainly_not_dead(&pos));
        assert!(matches!(
            can_mate(&pos, Color::White, &MateLimits::default()),
            CanMate::Yes(_)
        ));
        // Stalemate: dead.
        assert!(!certainly_not_dead(&fen("k7/2Q5/1K6/8/8/8/8/8 b - - 0 1")));
        // A pawn on the board: not this rule.
        assert!(!certainly_not_dead(&fen("8/8/8/4k3/8/8/P7/R3K3 b - - 0 1")));
    }
}
