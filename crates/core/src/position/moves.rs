//! A position's legal moves as `arbiter moves` lists them, each with its canonical SAN, in the
//! byte order of their SAN (piece moves `B…`, `K…`, `N…`, castling, `Q…`, `R…`, then pawn moves by
//! file: an order that does not depend on how the move generator works), and what each side can
//! still do. The command line and the Python package both list a position this way.

use arbiter_rules::mate::{MateLimits, Solver, Verdict};
use arbiter_rules::san::{self, SanString};
use arbiter_rules::{Color, Move, Position};

/// The legal moves of `pos`, each with its canonical SAN, in the byte order of the SAN.
pub fn sorted_moves(pos: &Position) -> Vec<(Move, SanString)> {
    let mut moves: Vec<(Move, SanString)> = pos
        .legal_moves()
        .iter()
        .map(|&mv| (mv, san::write(pos, mv)))
        .collect();
    moves.sort_by(|a, b| a.1.as_bytes().cmp(b.1.as_bytes()));
    moves
}

/// Whether White, then Black (in [`Color::index`] order), can still mate in `pos`, each searched
/// within `limits` by `solver` (kept from one position to the next, it keeps its memory), with
/// the stage that decided each.
pub fn can_mate_each(solver: &mut Solver, pos: &Position, limits: &MateLimits) -> [Verdict; 2] {
    Color::ALL.map(|color| solver.judge(pos, color, limits))
}

#[cfg(test)]
mod tests {
    use arbiter_rules::mate::CanMate;

    use super::*;

    #[test]
    fn moves_are_in_the_byte_order_of_their_san() {
        let pos = Position::from_fen("r3k2r/8/8/8/8/8/3P4/R3K2R w KQkq - 0 1").unwrap();
        let moves: Vec<String> = sorted_moves(&pos).iter().map(|m| m.1.to_string()).collect();
        let mut sorted = moves.clone();
        sorted.sort();
        assert_eq!(moves, sorted);
        assert_eq!(moves.len(), pos.legal_moves().len());
        assert!(moves.iter().any(|m| m == "O-O") && moves.iter().any(|m| m == "d4"));
        assert!(moves.iter().position(|m| m == "O-O") < moves.iter().position(|m| m == "Ra2"));
    }

    #[test]
    fn each_side_is_answered_in_color_order() {
        let limits = MateLimits { nodes: 1_000 };
        // White has a rook, Black a bare king.
        let pos = Position::from_fen("4k3/8/8/8/8/8/8/R3K3 w - - 0 1").unwrap();
        let [white, black] = can_mate_each(&mut Solver::new(), &pos, &limits);
        assert!(matches!(white.answer, CanMate::Yes(_)));
        assert_eq!(black.answer, CanMate::No);
    }
}
