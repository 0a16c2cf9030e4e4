//! The exhaustive walk: every position reachable from the start, depth first, each visited
//! once, with the same proofs as the search to set aside the positions beyond which no mate
//! lies (material, the locked-position proof). It proves that no mate exists when it has walked
//! everything; it finds a mate, too, if it meets one on the way.
//!
//! It keeps what a proof needs and little more: the set of positions visited (by key, some 16
//! bytes each) and the current line, each move with what it takes to take it back and how many
//! of the position's moves were tried (some 50 bytes a move). The moves of a position are
//! generated again, in the same order, each time the walk comes back to it. The best-first search
//! keeps every position it expanded and every one it generated (about a kilobyte each): the walk
//! can go on far longer within the same memory, and positions walled in by pawns, where no mate
//! exists but many positions can be reached, are decided by it. Tried most promising move first
//! ([`Prior`]), it also finds the long helpmates of endings with few men.

use crate::mate::guide::Prior;
use crate::mate::keys::{KeySet, key_after};
use crate::mate::locked::{cannot_mate_locked, may_lock};
use crate::mate::search::Found;
use crate::mate::statics::material_cannot_mate;
use crate::moves::Move;
use crate::position::Position;
use crate::types::Color;
use crate::undo::Undo;

/// One position of the current line: how many of its moves were tried, and the move that led
/// to it with what takes it back.
struct Frame {
    tried: u16,
    came_by: Option<(Move, Undo)>,
}

/// The walk's working memory, kept from one walk to the next.
pub(crate) struct Exhauster {
    seen: KeySet,
    frames: Vec<Frame>,
    /// The moves of the line's last position, most promising first, each with the key of the
    /// position it leads to.
    moves: Vec<(i32, Move, u64)>,
}

impl Exhauster {
    /// Empty buffers.
    pub(crate) fn new() -> Exhauster {
        Exhauster {
            seen: KeySet::new(),
            frames: Vec::new(),
            moves: Vec::new(),
        }
    }

    /// Walks every position reachable from `pos` (which has legal moves) looking for a mate by
    /// `winner`, visiting at most `limit` positions: [`Found::None`] when every one was visited.
    pub(crate) fn walk(&mut self, pos: &Position, winner: Color, limit: u64) -> (Found, u64) {
        self.seen.clear();
        self.frames.clear();
        let found = self.walk_from(pos.clone(), winner, limit);
        if self.frames.capacity() > KEEP_FRAMES {
            self.frames = Vec::new();
        }
        found
    }

    fn walk_from(&mut self, mut pos: Position, winner: Color, limit: u64) -> (Found, u64) {
        self.seen.insert(pos.zobrist());
        self.order(&pos, winner, 0);
        self.frames.push(Frame {
            tried: 0,
            came_by: None,
        });
        let mut visited = 1;
        loop {
            let Some(top) = self.frames.last_mut() else {
                return (Found::None, visited);
            };
            let Some(&(_, mv, key)) = self.moves.get(usize::from(top.tried)) else {
                // Every move of the last position tried: back to the one before.
                if let Some((mv, undo)) = top.came_by {
                    pos.unplay(Some(mv), undo);
                }
                self.frames.pop();
                if let Some(parent) = self.frames.last() {
                    let tried = usize::from(parent.tried);
                    self.order(&pos, winner, tried);
                }
                continue;
            };
            top.tried += 1;
            if !self.seen.insert(key) {
                continue;
            }
            let undo = pos.undo();
            pos.play_unchecked(mv);
            if pos.turn() != winner && pos.is_checkmate() {
                let mut line: Vec<Move> = self
                    .frames
                    .iter()
                    .filter_map(|frame| frame.came_by.map(|(m, _)| m))
                    .collect();
                line.push(mv);
                return (Found::Mate(line), visited);
            }
            if material_cannot_mate(&pos, winner)
                || (may_lock(&pos, mv) && cannot_mate_locked(&pos, winner))
            {
                pos.unplay(Some(mv), undo);
                continue;
            }
            if visited >= limit {
                return (Found::Unknown, visited);
            }
            visited += 1;
            self.frames.push(Frame {
                tried: 0,
                came_by: Some((mv, undo)),
            });
            self.order(&pos, winner, 0);
        }
    }

    /// The moves of `pos`, most promising first (ties in the generator's order, so that the
    /// same position always gives the same order), each with the key of the position it leads
    /// to; the slots of the keys from the `untried`-th move on are fetched into the cache
    /// together (each is a cache miss in a large set, and the walk looks them up one by one).
    fn order(&mut self, pos: &Position, winner: Color, untried: usize) {
        self.moves.clear();
        let prior = Prior::new(pos, winner);
        self.moves.extend(pos.legal_moves().iter().map(|&mv| {
            let key = key_after(pos, mv).unwrap_or_else(|| {
                let mut child = pos.clone();
                child.play_unchecked(mv);
                child.zobrist()
            });
            (-prior.score(mv), mv, key)
        }));
        self.moves.sort_by_key(|&(score, _, _)| score);
        let untried = self.moves.get(untried..).unwrap_or_default();
        self.seen.prefetch(untried.iter().map(|m| m.2));
    }
}

/// Line positions whose room a walk keeps for the next one (some 50 bytes each); a longer
/// line's is given back.
const KEEP_FRAMES: usize = 1 << 14;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mate::replays_to_mate;

    fn fen(s: &str) -> Position {
        Position::from_fen_lenient(s).unwrap()
    }

    #[test]
    fn a_lone_knight_against_a_bare_king_is_walked_to_the_end() {
        // Every move keeps a knight against a bare king: nothing is left to walk.
        let pos = fen("k7/8/8/8/8/8/8/K5N1 w - - 0 1");
        let (found, visited) = Exhauster::new().walk(&pos, Color::White, 1_000);
        assert!(matches!(found, Found::None), "{found:?} after {visited}");
    }

    #[test]
    fn a_wall_the_kings_walk_behind_is_walked_to_the_end() {
        // The kings and the a-pawn move; the rest is locked. No mate for either side.
        let pos = fen("8/8/4k3/1p1p1p1p/1P1P1P1P/8/3K4/8 w - - 0 1");
        for side in Color::ALL {
            let (found, _) = Exhauster::new().walk(&pos, side, 200_000);
            assert!(matches!(found, Found::None), "{side}: {found:?}");
        }
    }

    #[test]
    fn a_mate_met_on_the_way_is_returned() {
        let pos = fen("8/8/3k4/8/8/8/8/R3K3 w - - 0 1");
        let (found, _) = Exhauster::new().walk(&pos, Color::White, 200_000);
        let Found::Mate(line) = found else {
            panic!("{found:?}");
        };
        assert!(replays_to_mate(&pos, Color::White, &line));
    }

    #[test]
    fn a_capture_of_a_piece_behind_a_wall_is_proved_at_once() {
        // Black, in check, must take the queen (with the king or the bishop); then the wall
        // stands for good, and the locked-position proof sets each line aside.
        let pos = fen("7b/3B2Q1/4Bk2/p1p1p1p1/P1P1P1P1/8/8/4K3 b - - 0 1");
        for side in Color::ALL {
            let (found, visited) = Exhauster::new().walk(&pos, side, 1_000);
            assert!(
                matches!(found, Found::None),
                "{side}: {found:?} after {visited}"
            );
        }
    }

    #[test]
    fn a_small_limit_is_unknown() {
        let (found, visited) = Exhauster::new().walk(&Position::startpos(), Color::White, 10);
        assert!(matches!(found, Found::Unknown));
        assert_eq!(visited, 10);
    }
}
