//! What every side's judgment reads of the position itself, found at most once for both sides
//! of a ruling: the side to move's legal moves, counted, and the one-move-ahead answers (both
//! sides' look at the same children).

use crate::mate::lookahead::after_any_move;
use crate::position::Position;
use crate::types::Color;

/// The facts of one position that [`Solver::judge`](crate::mate::Solver::judge)'s stages read
/// for either side: counted once on creation, or found on the first side's asking.
pub(crate) struct PositionFacts<'a> {
    pos: &'a Position,
    legal_moves: u64,
    after_any_move: Option<[bool; 2]>,
}

impl<'a> PositionFacts<'a> {
    /// The facts of `pos`, its legal moves counted.
    pub(crate) fn new(pos: &'a Position) -> PositionFacts<'a> {
        PositionFacts {
            pos,
            legal_moves: pos.count_legal_moves(),
            after_any_move: None,
        }
    }

    /// The position.
    pub(crate) fn pos(&self) -> &'a Position {
        self.pos
    }

    /// The number of legal moves of the side to move.
    pub(crate) fn legal_moves(&self) -> u64 {
        self.legal_moves
    }

    /// [`cannot_mate_after_any_move`](crate::mate::cannot_mate_after_any_move) for `side`, both
    /// sides' answers found on the first asking.
    pub(crate) fn cannot_mate_after_any_move(&mut self, side: Color) -> bool {
        let (pos, count) = (self.pos, self.legal_moves);
        self.after_any_move
            .get_or_insert_with(|| after_any_move(pos, count))[side.index()]
    }
}
