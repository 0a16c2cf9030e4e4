//! Dead positions (Law 5.2.2) and sides that cannot mate (Law 6.9), judged on archive paths:
//! once per game, so the full decision of [`crate::rules::mate`] (a search of up to milliseconds)
//! is out of reach, and only its static proofs run, behind a filter of a few instructions. (The
//! search behind the same filter was tried: walled final positions are common enough in master
//! games that it made `export` five times slower on them.)
//!
//! Every answer here is sound: a position is called dead, or a side unable to mate, only with a
//! proof. The locked-position proof runs only where every pawn stands head-on against an enemy
//! pawn (a wall), so a dead position of another shape (rare in real games) is not recognised.

use crate::rules::mate::{cannot_mate_locked, material_cannot_mate};
use crate::rules::{Color, Move, Position, Role};

/// Whether pawns of both colours stand, each of them, head-on against an enemy pawn: the shape
/// of the locked walls that make dead positions in real games. A few instructions.
pub fn walled(pos: &Position) -> bool {
    let pawns = pos.by_role(Role::Pawn);
    let white = pawns & pos.by_color(Color::White);
    let black = pawns & pos.by_color(Color::Black);
    white.any() && white.shift(8) == black
}

/// Whether `side` provably cannot mate by any series of legal moves: by its material, or, behind
/// a pawn wall, by the locked-position proof.
pub fn cannot_mate(pos: &Position, side: Color) -> bool {
    material_cannot_mate(pos, side) || walled(pos) && cannot_mate_locked(pos, side)
}

/// Whether `pos` is provably dead beyond material: a pawn wall neither side can get past to mate.
/// Static proofs only, no search: `false` is no proof of life (unlike the rules core's
/// [`is_dead`](crate::rules::is_dead), which searches and says when it does not know).
pub fn dead_behind_wall(pos: &Position) -> bool {
    walled(pos) && Color::ALL.into_iter().all(|side| cannot_mate(pos, side))
}

/// The first ply of the line `moves` (`None` for a null move) from `start` at which the position
/// is provably dead, given that it is after the last move: deadness never goes away (a null move
/// only passes the turn), so a bisection finds it.
pub fn first_dead_ply(start: &Position, moves: &[Option<Move>]) -> u32 {
    let dead_after = |plies: usize| {
        let mut pos = start.clone();
        for &mv in &moves[..plies] {
            match mv {
                Some(mv) => pos.play_unchecked(mv),
                None => pos.play_null(),
            }
        }
        dead_behind_wall(&pos)
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
    use super::*;
    use crate::rules::san::San;

    fn pos(fen: &str) -> Position {
        Position::from_fen(fen).expect("a FEN")
    }

    #[test]
    fn a_pawn_wall_with_kings_apart_is_dead() {
        let wall = pos("8/8/4k3/p1p1p1p1/P1P1P1P1/8/3K4/8 w - - 0 1");
        assert!(walled(&wall));
        assert!(dead_behind_wall(&wall));
        assert!(cannot_mate(&wall, Color::White));
        // A wall with a gap a king walks through (the f-h files) is not dead.
        let open = pos("8/8/4k3/p1p1p3/P1P1P3/8/3K4/8 w - - 0 1");
        assert!(walled(&open));
        assert!(!dead_behind_wall(&open));
        // A pawn free to advance is no wall.
        assert!(!walled(&pos("8/8/4k3/p1p1p3/P1P1P1P1/8/3K4/8 w - - 0 1")));
        assert!(!dead_behind_wall(&Position::startpos()));
    }

    #[test]
    fn material_alone_is_enough_for_one_side() {
        let bare = pos("4k3/8/8/8/8/8/3PK3/8 b - - 0 1");
        assert!(cannot_mate(&bare, Color::Black));
        assert!(!cannot_mate(&bare, Color::White));
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
        assert!(dead_behind_wall(&position), "the wall is closed at the end");
        assert!(!dead_behind_wall(&start));
        let first = first_dead_ply(&start, &moves);
        let mut replay = start.clone();
        for &mv in moves[..first as usize].iter().flatten() {
            replay.play_unchecked(mv);
        }
        assert!(dead_behind_wall(&replay));
        let mut before = start.clone();
        for &mv in moves[..first as usize - 1].iter().flatten() {
            before.play_unchecked(mv);
        }
        assert!(!dead_behind_wall(&before), "ply {first} is the first");
        assert_eq!(first, 3);
    }
}
