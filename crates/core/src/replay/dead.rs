//! Dead positions (Law 5.2.2) and sides that cannot mate (Law 6.9), judged on archive paths:
//! the final position of every game is ruled on for both sides (or for the sides the verdict
//! reads) by the rules core's [`Solver::rule`] (the mate on the board, material, the locked-position proof, then the
//! helpmate search under the game's node budget, [`ReplayOptions::rulings_budget`]; the
//! replayer keeps one solver, so that the search's buffers serve game after game); a dead final
//! position is then bisected for the first dead ply.
//!
//! Every answer is sound: a position is called dead, or a side unable to mate, only with a
//! proof, and "can mate" only with a helpmate line replayed to mate. What the budget does not
//! decide stays undecided (`null` in export), and is never taken for either answer.
//!
//! [`ReplayOptions::rulings_budget`]: crate::ReplayOptions::rulings_budget

use arbiter_rules::mate::{Solver, Wanted};
use arbiter_rules::{Move, Position};

/// Whether `pos` is proved dead, within `budget` positions of search: neither side can mate
/// (Black is ruled only when White is proved unable, as [`Wanted::Verdict`] rules; the answer
/// is the both-sides ruling's).
pub fn proved_dead(solver: &mut Solver, pos: &Position, budget: u64) -> bool {
    let wanted = Wanted::Verdict { flag_winner: None };
    solver.rule_for(pos, budget, wanted).dead()
}

/// The first ply of the line `moves` (`None` for a null move) from `start` at which the position
/// is proved dead (each position judged within `budget` positions of search), given that it is
/// after the last move: deadness never goes away (a null move only passes the turn), so a
/// bisection finds it. (A position the budget leaves undecided counts as alive: the ply found
/// is then a proved dead one, perhaps not the first.)
pub fn first_dead_ply(
    solver: &mut Solver,
    start: &Position,
    moves: &[Option<Move>],
    budget: u64,
) -> u32 {
    let mut dead_after = |plies: usize| {
        let mut pos = start.clone();
        for &mv in &moves[..plies] {
            match mv {
                Some(mv) => pos.play_unchecked(mv),
                None => pos.play_null(),
            }
        }
        proved_dead(solver, &pos, budget)
    };
    // Dead after `hi` plies, not known dead after fewer than `lo`.
    let (mut lo, mut hi) = (0, moves.len());
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if dead_after(mid) {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    u32::try_from(hi).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use arbiter_rules::san::San;

    use super::*;

    /// A budget that decides every position below.
    const BUDGET: u64 = 20_000;

    fn pos(fen: &str) -> Position {
        Position::from_fen(fen).expect("a FEN")
    }

    #[test]
    fn a_pawn_wall_with_kings_apart_is_dead() {
        let wall = pos("8/8/4k3/p1p1p1p1/P1P1P1P1/8/3K4/8 w - - 0 1");
        assert!(proved_dead(&mut Solver::new(), &wall, 0));
        // A wall with a gap a king walks through (the f-h files) is not dead.
        let open = pos("8/8/4k3/p1p1p3/P1P1P3/8/3K4/8 w - - 0 1");
        assert!(!proved_dead(&mut Solver::new(), &open, BUDGET));
        assert!(!proved_dead(
            &mut Solver::new(),
            &Position::startpos(),
            BUDGET
        ));
    }

    #[test]
    fn dead_beyond_walls_needs_the_search() {
        // Labelled dead ("--") in the public unwinnability vector: no wall of head-on pawns
        // only, so the static proofs leave it open, and the search proves it by visiting every
        // reachable position.
        let dead = pos("Bb1k1b2/bKp1p1p1/1pP1P1P1/1P6/p5P1/P7/8/8 w - - 0 1");
        assert!(!proved_dead(&mut Solver::new(), &dead, 0));
        assert!(proved_dead(&mut Solver::new(), &dead, BUDGET));
    }

    #[test]
    fn bisection_finds_the_first_dead_ply() {
        // Black's last free pawn closes the wall at ply 3 (...g7-g5 meets the pawn on g4).
        let start = pos("8/6p1/4k3/p1p1p3/P1P1P1P1/8/3K4/8 b - - 0 1");
        let mut position = start.clone();
        let mut moves = Vec::new();
        for text in ["Kd7", "Kc2", "g5", "Kd2", "Ke6"] {
            let mv = San::from_ascii(text.as_bytes())
                .ok()
                .and_then(|san| san.resolve(&position).ok())
                .map(|r| r.mv)
                .unwrap_or_else(|| panic!("{text}"));
            position.play_unchecked(mv);
            moves.push(Some(mv));
        }
        assert!(
            proved_dead(&mut Solver::new(), &position, BUDGET),
            "the wall is closed at the end"
        );
        assert!(!proved_dead(&mut Solver::new(), &start, BUDGET));
        let first = first_dead_ply(&mut Solver::new(), &start, &moves, BUDGET);
        assert_eq!(first, 3);
    }
}
