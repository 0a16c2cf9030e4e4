//! The two draws a player may claim (Laws 9.2 and 9.3), judged on the final position of a game
//! with a drawn result: the claim may be made on the board as it stands, or by writing down the
//! move that would complete the repetition or the fifty moves (9.2.1.1, 9.3.1). Only looked at
//! once per drawn game, so plain and exact rather than fast.

use arbiter_rules::Position;

/// Whether a draw by the 50-move rule may be claimed in `pos`: 100 half-moves without a capture
/// or pawn move were played, or some legal move that is neither completes them (and leaves the
/// opponent a move: a mate ends the game first).
pub fn fifty(pos: &Position) -> bool {
    if pos.halfmoves() >= 100 {
        return true;
    }
    pos.halfmoves() == 99
        && pos.legal_moves().iter().any(|&mv| {
            if mv.is_zeroing() {
                return false;
            }
            let mut after = pos.clone();
            after.play_unchecked(mv);
            after.has_legal_moves()
        })
}

/// Whether a draw by threefold repetition may be claimed in `pos`, the last position of
/// `history` (the Zobrist keys of the main line since its last capture or pawn move): it occurred
/// three times, or some legal move makes a position occur the third time. (A capture or pawn move
/// leads to a position that never occurred before, so only the others are tried.)
pub fn threefold(pos: &Position, history: &[u64]) -> bool {
    let Some(&now) = history.last() else {
        return false;
    };
    let same_side = |key: u64, from_end: usize| {
        history
            .iter()
            .rev()
            .skip(from_end)
            .step_by(2)
            .filter(|&&k| k == key)
            .count()
    };
    if same_side(now, 0) >= 3 {
        return true;
    }
    // After a move the other side is to move: its positions stand at odd distances from the end.
    if history.len() < 4 {
        return false;
    }
    pos.legal_moves().iter().any(|&mv| {
        if mv.is_zeroing() {
            return false;
        }
        let mut after = pos.clone();
        after.play_unchecked(mv);
        same_side(after.zobrist(), 1) >= 2
    })
}

#[cfg(test)]
mod tests {
    use arbiter_rules::san::San;

    use super::*;

    /// Plays `moves` (SAN) from the start, returning the final position and the key history
    /// since the last zeroing move.
    fn play(moves: &str) -> (Position, Vec<u64>) {
        let mut pos = Position::startpos();
        let mut history = vec![pos.zobrist()];
        for text in moves.split_whitespace() {
            let mv = San::from_ascii(text.as_bytes())
                .ok()
                .and_then(|san| san.resolve(&pos).ok())
                .map(|r| r.mv)
                .unwrap_or_else(|| panic!("{text} is not legal"));
            if mv.is_zeroing() {
                history.clear();
            }
            pos.play_unchecked(mv);
            history.push(pos.zobrist());
        }
        (pos, history)
    }

    #[test]
    fn threefold_on_the_board_and_with_the_next_move() {
        let (pos, history) = play("Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8");
        assert!(threefold(&pos, &history), "the start position, three times");
        // One move short: Ng1 would bring the position after 1...Nf6's reply back a third time.
        let (pos, history) = play("Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1");
        assert!(
            threefold(&pos, &history),
            "...Ng8 repeats the start a third time"
        );
        let (pos, history) = play("Nf3 Nf6 Ng1 Ng8 Nf3 Nf6");
        assert!(!threefold(&pos, &history));
        let (pos, history) = play("e4 e5 Nf3 Nf6");
        assert!(!threefold(&pos, &history));
    }

    #[test]
    fn fifty_on_the_board_and_with_the_next_move() {
        let at = |clock: u32| {
            Position::from_fen(&format!("8/8/8/4k3/8/8/3R4/4K3 w - - {clock} 80")).unwrap()
        };
        assert!(fifty(&at(100)));
        assert!(
            fifty(&at(99)),
            "any rook or king move completes the fifty moves"
        );
        assert!(!fifty(&at(98)));
        // Only pawn moves are left (the knight guards g1): none completes the fifty moves.
        let pawn_only = Position::from_fen("7k/8/8/8/8/8/4n1PP/7K w - - 99 80").unwrap();
        assert!(!pawn_only.legal_moves().is_empty());
        assert!(!fifty(&pawn_only));
    }
}
