//! Perft: the number of leaf nodes of the legal move tree, the standard check of a move
//! generator. The last ply is counted in bulk (the moves are counted, not played).

use crate::moves::Move;
use crate::position::Position;

/// The number of legal move sequences of `depth` plies from `pos` (1 for depth 0).
pub fn perft(pos: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_legal_moves(),
        _ => pos
            .legal_moves()
            .iter()
            .map(|&mv| {
                let mut child = pos.clone();
                child.play_unchecked(mv);
                perft(&child, depth - 1)
            })
            .sum(),
    }
}

/// Each legal move with the perft of `depth - 1` after it (an empty list for depth 0).
pub fn divide(pos: &Position, depth: u32) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    pos.legal_moves()
        .iter()
        .map(|&mv| {
            let mut child = pos.clone();
            child.play_unchecked(mv);
            (mv, perft(&child, depth - 1))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn startpos() {
        let pos = Position::startpos();
        assert_eq!(perft(&pos, 0), 1);
        assert_eq!(perft(&pos, 1), 20);
        assert_eq!(perft(&pos, 3), 8902);
        let div = divide(&pos, 2);
        assert_eq!(div.len(), 20);
        assert_eq!(div.iter().map(|(_, n)| n).sum::<u64>(), 400);
    }
}
