//! Shortening a helpmate line: a line found by a walk or a dive wanders (the exhaustive walk's
//! line is the path it took, often thousands of plies). Whenever a position of the line can
//! reach a later one of it in one legal move, the plies between are cut out. The result is
//! still a line of legal moves ending in the same mate.

use std::collections::HashMap;

use crate::moves::Move;
use crate::position::Position;

/// `line` (a series of legal moves from `pos`) with every detour cut out: from each position,
/// the move to the latest position of the line reachable in one move. Some microseconds a ply:
/// the solver shortens only the lines of its exhaustive walk (the dives' lines are short
/// enough, and deciding a position should not pay for its line's looks).
///
/// ```
/// use arbiter_rules::mate::{CanMate, MateLimits, can_mate, replays_to_mate, shortened};
/// use arbiter_rules::{Color, Position};
///
/// let pos = Position::from_fen("4k3/8/8/8/8/8/8/R3K3 w - - 0 1").unwrap();
/// let CanMate::Yes(line) = can_mate(&pos, Color::White, &MateLimits::default()) else {
///     panic!("a rook mates");
/// };
/// let short = shortened(&pos, line.clone());
/// assert!(short.len() <= line.len());
/// assert!(replays_to_mate(&pos, Color::White, &short));
/// ```
pub fn shortened(pos: &Position, line: Vec<Move>) -> Vec<Move> {
    // Where each position of the line stands in it (the latest, if one recurs).
    let mut at: HashMap<u64, usize> = HashMap::with_capacity(line.len() + 1);
    let mut p = pos.clone();
    at.insert(p.zobrist(), 0);
    for (i, &mv) in line.iter().enumerate() {
        p.play_unchecked(mv);
        at.insert(p.zobrist(), i + 1);
    }
    let mut short = Vec::new();
    let mut p = pos.clone();
    let mut i = 0;
    while i < line.len() {
        // The move to the latest position reachable, or the line's own next move.
        let mut best = (i + 1, line[i]);
        for &mv in p.legal_moves().iter() {
            let mut child = p.clone();
            child.play_unchecked(mv);
            if let Some(&j) = at.get(&child.zobrist())
                && j > best.0
            {
                best = (j, mv);
            }
        }
        p.play_unchecked(best.1);
        short.push(best.1);
        i = best.0;
    }
    short
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mate::replays_to_mate;
    use crate::types::Color;

    #[test]
    fn a_detour_is_cut_out() {
        // White: king g6, rook a1; Black: king h8. Ra8 mates at once; the line shuffles first.
        let pos = Position::from_fen("7k/8/6K1/8/8/8/8/R7 w - - 0 1").expect("a FEN");
        let mut line = Vec::new();
        let mut p = pos.clone();
        // Shuffle the rook a1-b1 and the king h8-g8 a dozen times, then mate with Ra8.
        for _ in 0..12 {
            for text in ["a1b1", "h8g8", "b1a1", "g8h8"] {
                let mv = *p
                    .legal_moves()
                    .iter()
                    .find(|mv| mv.to_uci(false).to_string() == text)
                    .expect(text);
                p.play_unchecked(mv);
                line.push(mv);
            }
        }
        let mate = *p
            .legal_moves()
            .iter()
            .find(|mv| mv.to_uci(false).to_string() == "a1a8")
            .expect("Ra8");
        line.push(mate);
        assert!(replays_to_mate(&pos, Color::White, &line));
        let short = shortened(&pos, line.clone());
        assert!(replays_to_mate(&pos, Color::White, &short));
        assert_eq!(short.len(), 1, "{short:?}");
    }
}
