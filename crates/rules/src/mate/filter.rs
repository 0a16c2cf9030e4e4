//! The cheap filter run on every game's final position: `true` only when some side can
//! provably still mate, by an argument that needs no search.

use crate::position::Position;

/// Whether some side can certainly still mate in `pos` (so the position is not dead). Cheap
/// enough to run on every game (one attack test, and a legal-move test only when in check);
/// `false` means "don't know", and the full decision ([`super::can_mate`], [`super::is_dead`])
/// must be asked.
///
/// The one rule, a proof: **mate on the board.** The side to move is checkmated, so the other
/// side has mated.
///
/// Rules that look safe are not: "a queen or rook against a bare king, no pawns" fails when the
/// bare king's only legal move takes the undefended rook (black Ka8, white Rb7, black to move),
/// and open-looking structures can hide forced sequences. A broader rule needs a proof first.
pub fn certainly_not_dead(pos: &Position) -> bool {
    pos.is_check() && !pos.has_legal_moves()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mate::{CanMate, MateLimits, can_mate};
    use crate::types::Color;

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
    fn a_rook_the_bare_king_must_take_is_no_mate() {
        // Black's only move takes the rook: a rook against a bare king without pawns is not
        // enough for the filter to say "not dead".
        let pos = fen("k7/1R6/8/8/8/8/8/7K b - - 0 1");
        assert!(!certainly_not_dead(&pos));
        assert_eq!(
            can_mate(&pos, Color::White, &MateLimits::default()),
            CanMate::No
        );
    }
}
