//! One move ahead: a side cannot mate when every legal move of the side to move leaves the game
//! over without its mate, or leaves it without mating material (as scalachess rules a flag
//! fall: the flagged side's every move wins, stalemates or leaves the opponent bare).

use crate::mate::statics::material_cannot_mate;
use crate::position::Position;
use crate::types::Color;

/// The most legal moves the look-ahead tries; with more, some move almost surely keeps mating
/// material, and the search answers.
pub(crate) const MAX_MOVES: usize = 8;

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
    after_any_move(pos, pos.count_legal_moves())[side.index()]
}

/// [`cannot_mate_after_any_move`] for White and Black (in [`Color::index`] order), `count`
/// being the number of legal moves of `pos`: each child is played and looked at once for both.
pub(crate) fn after_any_move(pos: &Position, count: u64) -> [bool; 2] {
    if count == 0 || count > MAX_MOVES as u64 {
        return [false; 2];
    }
    let mut proved = [true; 2];
    for &mv in pos.legal_moves().iter() {
        let mut child = pos.clone();
        child.play_unchecked(mv);
        let mut over = None;
        for side in Color::ALL {
            let i = side.index();
            if !proved[i] || material_cannot_mate(&child, side) {
                continue;
            }
            // Over: a stalemate, or a mate by the mover when the mover is not `side`.
            let over = *over.get_or_insert_with(|| !child.has_legal_moves());
            let mated_by_side = child.is_check() && child.turn() != side;
            proved[i] = over && !mated_by_side;
        }
        if proved == [false; 2] {
            break;
        }
    }
    proved
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

    /// The rule for one side alone, child by child, as it reads: the answers found for both
    /// sides at once must be its answers.
    fn one_side(pos: &Position, side: Color) -> bool {
        let moves = pos.legal_moves();
        if moves.is_empty() || moves.len() > MAX_MOVES {
            return false;
        }
        moves.iter().all(|&mv| {
            let mut child = pos.clone();
            child.play_unchecked(mv);
            let over = !child.has_legal_moves();
            material_cannot_mate(&child, side)
                || over && !(child.is_check() && child.turn() != side)
        })
    }

    #[test]
    fn both_sides_at_once_answer_as_each_alone() {
        let starts = [
            "k7/1R6/8/8/8/8/8/7K b - - 0 1",
            "k7/1R6/8/8/8/8/8/5BNK b - - 0 1",
            "7k/5Q2/6K1/8/8/8/8/8 w - - 0 1",
            "4k3/8/8/8/8/8/4p3/4K2R w K - 0 1",
            "8/8/8/8/8/2k5/1q6/K7 w - - 0 1",
            "8/8/4k3/8/8/8/3nK3/7b w - - 0 1",
        ];
        let (mut asked, mut proved) = (0, 0);
        crate::mate::along_random_games(&starts, 40, 60, 0x9e37_79b9, |pos, moves| {
            let both = after_any_move(pos, moves.len() as u64);
            for side in Color::ALL {
                let alone = one_side(pos, side);
                assert_eq!(both[side.index()], alone, "{side:?} {}", pos.to_fen());
                assert_eq!(cannot_mate_after_any_move(pos, side), alone);
                asked += 1;
                proved += usize::from(alone);
            }
        });
        assert!(proved > 20 && proved < asked, "{proved} of {asked}");
    }

    #[test]
    fn many_moves_are_not_tried() {
        let pos = Position::startpos();
        assert!(!cannot_mate_after_any_move(&pos, Color::White));
    }
}
