//! What every side's judgment reads of the position itself, found at most once for both sides
//! of a ruling: whether the side to move has a legal move and, where the look one move ahead
//! may answer, how many; and the one-move-ahead answers (both sides' look at the same
//! children).

use crate::attacks;
use crate::bitboard::Bitboard;
use crate::mate::lookahead::{MAX_MOVES, after_any_move};
use crate::position::Position;
use crate::types::{Color, Role};

/// The facts of one position that [`Solver::judge`](crate::mate::Solver::judge)'s stages read
/// for either side: found once on creation, or on the first side's asking.
pub(crate) struct PositionFacts<'a> {
    pos: &'a Position,
    /// The legal moves counted, or `None` when more than [`MAX_MOVES`] are sure without
    /// counting them ([`legal_moves_at_least`]).
    legal_moves: Option<u64>,
    /// Whether the side to move is in check.
    check: bool,
    after_any_move: Option<[bool; 2]>,
}

impl<'a> PositionFacts<'a> {
    /// The facts of `pos`: its legal moves counted, unless more than the look one move ahead
    /// tries are sure.
    pub(crate) fn new(pos: &'a Position) -> PositionFacts<'a> {
        let check = pos.is_check();
        let many = legal_moves_at_least(pos, check) > MAX_MOVES as u64;
        PositionFacts {
            pos,
            legal_moves: (!many).then(|| pos.count_legal_moves()),
            check,
            after_any_move: None,
        }
    }

    /// The position.
    pub(crate) fn pos(&self) -> &'a Position {
        self.pos
    }

    /// Whether the side to move has no legal move: the game is over on the board.
    pub(crate) fn stuck(&self) -> bool {
        self.legal_moves == Some(0)
    }

    /// Whether the side to move is in check.
    pub(crate) fn check(&self) -> bool {
        self.check
    }

    /// [`cannot_mate_after_any_move`](crate::mate::cannot_mate_after_any_move) for `side`, both
    /// sides' answers found on the first asking.
    pub(crate) fn cannot_mate_after_any_move(&mut self, side: Color) -> bool {
        let Some(count) = self.legal_moves else {
            return false;
        };
        let pos = self.pos;
        self.after_any_move
            .get_or_insert_with(|| after_any_move(pos, count))[side.index()]
    }
}

/// A lower bound of the number of legal moves of the side to move (in check if `check`),
/// dearer moves left out: none in check; else the moves of its knights, bishops, rooks and
/// queens that are not pinned (each of them legal: the king is not in check and no line to it
/// opens), counted until they are more than [`MAX_MOVES`].
fn legal_moves_at_least(pos: &Position, check: bool) -> u64 {
    if check {
        return 0;
    }
    let ours = pos.by_color(pos.turn());
    let occupied = pos.occupied();
    let pieces = ours & !pos.by_role(Role::Pawn) & !pos.by_role(Role::King) & !pos.pinned();
    let mut count = 0;
    for sq in pieces {
        let targets = match pos.role_at(sq) {
            Some(Role::Knight) => attacks::knight(sq),
            Some(Role::Bishop) => attacks::bishop(sq, occupied),
            Some(Role::Rook) => attacks::rook(sq, occupied),
            Some(Role::Queen) => attacks::queen(sq, occupied),
            _ => Bitboard::EMPTY,
        };
        count += u64::from((targets & !ours).count());
        if count > MAX_MOVES as u64 {
            break;
        }
    }
    count
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mate::cannot_mate_after_any_move;

    /// Along random games from full boards and endings: the lower bound is one, the facts say
    /// what the position's own tests say, and the bound spares the count for some positions
    /// and not for others.
    #[test]
    fn the_facts_are_the_positions_own() {
        let starts = [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/3P1N2/PPP2PPP/RNBQK2R w KQkq - 0 5",
            "k7/1R6/8/8/8/8/8/5BNK b - - 0 1",
            "8/8/4k3/8/8/8/3nK3/7b w - - 0 1",
            "4k3/8/8/8/8/8/4p3/4K2R w K - 0 1",
        ];
        let (mut spared, mut counted) = (0, 0);
        crate::mate::along_random_games(&starts, 20, 120, 0x51_7cc1_b727, |pos, moves| {
            let bound = legal_moves_at_least(pos, pos.is_check());
            assert!(bound <= moves.len() as u64, "{bound} {}", pos.to_fen());
            let mut facts = PositionFacts::new(pos);
            assert!(!facts.stuck());
            assert_eq!(facts.check(), pos.is_check());
            for side in Color::ALL {
                let alone = cannot_mate_after_any_move(pos, side);
                assert_eq!(
                    facts.cannot_mate_after_any_move(side),
                    alone,
                    "{}",
                    pos.to_fen()
                );
            }
            match facts.legal_moves {
                Some(count) => {
                    assert_eq!(count, moves.len() as u64);
                    counted += 1;
                }
                None => spared += 1,
            }
        });
        assert!(
            spared > 100 && counted > 100,
            "{spared} spared, {counted} counted"
        );
        for mated in [
            "R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1",
            "k7/P7/K7/8/8/8/8/8 b - - 0 1",
        ] {
            assert!(PositionFacts::new(&Position::from_fen(mated).unwrap()).stuck());
        }
    }
}
