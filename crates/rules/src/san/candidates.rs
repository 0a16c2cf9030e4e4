//! The legal moves of one kind of piece onto one square, found backwards from the square.
//!
//! Resolving SAN asks this question once per move. Looking from the destination (which pieces of
//! that kind attack it?) and testing each candidate's king safety with one attack query is
//! cheaper than running the move generator, which works out checkers and pins for the whole
//! board. En passant captures, rare and subtle, go to the generator.

use crate::{Bitboard, Color, Move, Piece, Position, Role, Square, attacks};

/// The legal moves of one kind of piece onto one square, as the set of squares they come from:
/// sixteen bytes, no list to fill.
#[derive(Copy, Clone, Debug)]
pub(super) struct Candidates {
    /// The origin squares.
    pub froms: Bitboard,
    role: Role,
    to: Square,
    capture: Option<Role>,
    en_passant: bool,
}

const PROMOTIONS: [Option<Role>; 4] = [
    Some(Role::Queen),
    Some(Role::Rook),
    Some(Role::Bishop),
    Some(Role::Knight),
];

impl Candidates {
    /// Whether these are pawn moves to the last rank, four promotions per origin square.
    #[inline]
    pub fn promotes(&self) -> bool {
        self.role == Role::Pawn && (self.to.rank() == 0 || self.to.rank() == 7)
    }

    /// The move from `from` (one of [`Candidates::froms`]) with `promotion`.
    #[inline]
    pub fn move_from(&self, from: Square, promotion: Option<Role>) -> Move {
        if self.en_passant {
            Move::en_passant(from, self.to)
        } else {
            Move::normal(self.role, from, self.capture, self.to, promotion)
        }
    }

    /// The moves, one per origin square (four for a promotion).
    pub fn moves(self) -> impl Iterator<Item = Move> + Clone {
        let promotions: &[Option<Role>] = if self.promotes() {
            &PROMOTIONS
        } else {
            &[None]
        };
        self.froms.into_iter().flat_map(move |from| {
            promotions
                .iter()
                .map(move |&promotion| self.move_from(from, promotion))
        })
    }
}

/// The legal moves of a `role` piece that land on `to`, as [`Position::legal_moves_to`] gives
/// them but for castling. `in_check`, when known, must be `pos.is_check()`: knowing the side to
/// move is not in check spares most of the king-safety query (see [`is_safe`]).
///
/// Each kind of piece finds its origins as a plain set; the set is built into [`Candidates`]
/// once, at the end (what stands on `to` is what a move there captures, but for en passant).
/// Always inlined, as is [`safe_origins`]: resolution asks once per move, and as calls the two
/// cost about 3% of the whole replay.
#[inline(always)]
pub(super) fn legal_moves_to(
    pos: &Position,
    role: Role,
    to: Square,
    in_check: Option<bool>,
) -> Candidates {
    let mut capture = pos.role_at(to);
    let mut en_passant = false;
    let froms = match role {
        Role::Knight | Role::Bishop | Role::Rook | Role::Queen => {
            safe_origins(pos, pieces(pos, role, to), to, in_check)
        }
        Role::Pawn => match en_passant_origins(pos, to) {
            froms if froms.any() => {
                en_passant = true;
                capture = Some(Role::Pawn);
                froms
            }
            _ => safe_origins(pos, pawns(pos, to), to, in_check),
        },
        Role::King => {
            // As the generator has it: onto a square not ours that no enemy piece attacks once
            // the king has left its own.
            let us = pos.turn();
            let king = pos.king_of(us);
            if attacks::king(to).contains(king)
                && !pos.by_color(us).contains(to)
                && pos
                    .attackers_to(to, !us, pos.occupied().without(king))
                    .is_empty()
            {
                Bitboard::from_square(king)
            } else {
                Bitboard::EMPTY
            }
        }
    };
    Candidates {
        froms,
        role,
        to,
        capture,
        en_passant,
    }
}

/// The origins of the legal en passant captures onto `to`, if `to` is the en passant square.
#[inline]
fn en_passant_origins(pos: &Position, to: Square) -> Bitboard {
    if pos.ep_square() == Some(to) {
        en_passant_from_generator(pos, to)
    } else {
        Bitboard::EMPTY
    }
}

/// See [`en_passant_origins`]: rare, and left to the generator.
#[cold]
#[inline(never)]
fn en_passant_from_generator(pos: &Position, to: Square) -> Bitboard {
    pos.legal_moves_to(Role::Pawn, to)
        .iter()
        .filter(|mv| mv.is_en_passant())
        .map(|mv| mv.from())
        .collect()
}

/// Those of `froms` (origins of moves onto `to`, not the king's) whose move leaves our king safe.
#[inline(always)]
fn safe_origins(pos: &Position, froms: Bitboard, to: Square, in_check: Option<bool>) -> Bitboard {
    if froms.is_empty() {
        return froms;
    }
    let king = pos.king_of(pos.turn());
    let mut safe = froms;
    for from in froms {
        if !is_safe(pos, king, from, to, in_check) {
            safe = safe.without(from);
        }
    }
    safe
}

/// Whether moving a piece other than the king from `from` to `to` leaves our king safe.
///
/// Out of check (`in_check` is `Some(false)`), only a slider behind `from` on the line through
/// the king can attack the king once the piece has gone: lifting a piece off every line through
/// the king uncovers nothing, so most candidates pass without a look. Of the others, most have
/// no enemy slider of the line's kind anywhere on that line, which one mask shows; only the rest
/// need the slider lookup from the king. In check, or when unknown, every attacker is asked about.
///
/// Always inlined into [`safe_origins`]'s loop: `#[inline]` alone left it a call, about 10% of
/// the samples of a replay of master games.
#[inline(always)]
pub(super) fn is_safe(
    pos: &Position,
    king: Square,
    from: Square,
    to: Square,
    in_check: Option<bool>,
) -> bool {
    let occupied = pos.occupied().without(from).with(to);
    let theirs = pos.by_color(!pos.turn()).without(to);
    if in_check == Some(false) {
        let line = attacks::ray(king, from);
        if line.is_empty() {
            return true;
        }
        let straight = king.rank() == from.rank() || king.file() == from.file();
        let kind = if straight { Role::Rook } else { Role::Bishop };
        let sliders = theirs & (pos.by_role(kind) | pos.by_role(Role::Queen));
        if (line & sliders).is_empty() {
            return true;
        }
        return !attacks::slider_sees(king, occupied, straight, sliders);
    }
    (pos.attackers_to(king, !pos.turn(), occupied) & theirs).is_empty()
}

/// The squares of our `role` pieces (knight, bishop, rook or queen) that reach `to`, not ours.
/// Always inlined, so that its tests on the role fold into the caller's (a call cost 1% of the
/// replay).
#[inline(always)]
pub(super) fn pieces(pos: &Position, role: Role, to: Square) -> Bitboard {
    let us = pos.turn();
    if pos.by_color(us).contains(to) {
        return Bitboard::EMPTY;
    }
    let occupied = pos.occupied();
    // Tests rather than a `match`: the jump table a `match` on the role became was mispredicted
    // about once in three piece moves, and cost more than plain branches on the piece's lines
    // (a queen's are both a bishop's and a rook's).
    let reach = if role == Role::Knight {
        attacks::knight(to)
    } else {
        let mut reach = Bitboard::EMPTY;
        if role != Role::Rook {
            reach |= attacks::bishop(to, occupied);
        }
        if role != Role::Bishop {
            reach |= attacks::rook(to, occupied);
        }
        reach
    };
    reach & pos.by_piece(Piece { color: us, role })
}

/// The squares of our pawns that push to the empty `to` or capture an enemy piece there.
#[inline(always)]
pub(super) fn pawns(pos: &Position, to: Square) -> Bitboard {
    let us = pos.turn();
    let them = !us;
    let pawns = pos.by_piece(Piece {
        color: us,
        role: Role::Pawn,
    });
    let occupied = pos.occupied();
    let (down, double_rank) = match us {
        Color::White => (-8, 3),
        Color::Black => (8, 4),
    };
    if !occupied.contains(to) {
        let one = Bitboard::from_square(to).shift(down);
        let froms = one & pawns;
        if froms.is_empty() && (one & occupied).is_empty() && to.rank() == double_rank {
            one.shift(down) & pawns
        } else {
            froms
        }
    } else if pos.by_color(them).contains(to) {
        attacks::pawn(them, to) & pawns
    } else {
        Bitboard::EMPTY
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sorted(list: &[Move]) -> Vec<String> {
        let mut moves: Vec<String> = list.iter().map(|m| format!("{m:?}")).collect();
        moves.sort();
        moves
    }

    #[test]
    fn same_as_the_generator() {
        let starts = [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        ];
        let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
        for fen in starts {
            let Ok(mut pos) = Position::from_fen(fen) else {
                panic!("{fen}");
            };
            for _ in 0..60 {
                for role in Role::ALL {
                    for to in Square::all() {
                        let mut core = pos.legal_moves_to(role, to);
                        core.retain(|mv| !mv.is_castle());
                        for hint in [None, Some(pos.is_check())] {
                            let ours: Vec<Move> =
                                legal_moves_to(&pos, role, to, hint).moves().collect();
                            assert_eq!(
                                sorted(&ours),
                                sorted(&core),
                                "{} {role:?} {to} {hint:?}",
                                pos.to_fen()
                            );
                        }
                    }
                }
                if !crate::san::play_random(&mut pos, &mut seed) {
                    break;
                }
            }
        }
    }
}
