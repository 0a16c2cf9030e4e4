//! One move ahead: a side cannot mate when every legal move of the side to move leaves the game
//! over without its mate, or leaves it without mating material (as scalachess rules a flag
//! fall: the flagged side's every move wins, stalemates or leaves the opponent bare).

use crate::mate::statics::material_cannot_mate;
use crate::position::Position;
use crate::types::Color;

/// The most legal moves the look-ahead tries; with more, some move almost surely keeps mating
/// material, and the search answers.
const MAX_MOVES: usize = 8;

/// Whether `side` provably cannot mate because every legal move from `pos` (which has some)
/// leads to a position where the game is over without `side` having mated (the mover mated or
/// stalemated its opponent), or where `side` lacks mating material for good
/// ([`material_cannot_mate`]). Every series of moves starts with one of them, so none ends in a
/// mate by `side`. `false` means "not proved".
///
/// ```
/// use arbiter_rules::{Color, Position};
/// use arbiter_rules::mate::cannot_mate_after_any_move;
///
/// // Black's only move takes the rook: White is left with a bare king.
/// let pos = Position::from_fen("k7/1R6/8/8/8/8/8/7K b - - 0 1").unwrap();
/// assert!(cannot_mate_after_any_move(&pos, Color::White));
/// ```
pub fn cannot_mate_after_any_move(pos: &Position, side: Color) -> bool {
    // Counting is cheaper than listing, and most positions have too many moves.
    let count = pos.count_legal_moves();
    if count == 0 || count > MAX_MOVES as u64 {
        return false;
    }
    let moves = pos.legal_moves();
    moves.iter().all(|&mv| {
        let mut child = pos.clone();
        child.play_unchecked(mv);
        if material_cannot_mate(&child, side) {
            return true;
        }
        // Over: a stalemate, or a mate by the mover when the mover is not `side`.
        let over = !child.has_legal_moves();
        let mated_by_side = child.is_check() && child.turn() != side;
        over && !mated_by_side
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fen(s: &str) -> Position {
        Position::from_fen_lenient(s).unwrap()
    }

    #[test]
    fn the_only_move_takes_the_last_piece() {
        let pos = fen("k7/1R6/8/8/8/8/8/7K b - - 0 1");
        assert!(cannot_mate_after_any_move(&pos, Color::White));
        // With a second white piece, taking the rook leaves a knight and a bishop.
        let pos = fen("k7/1R6/8/8/8/8/8/5BNK b - - 0 1");
        assert!(!cannot_mate_after_any_move(&pos, Color::White));
    }

    #[test]
    fn many_moves_are_not_tried() {
        let pos = Position::startpos();
        assert!(!cannot_mate_after_any_move(&pos, Color::White));
    }
}
