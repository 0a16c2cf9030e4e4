//! Taking a move back: what a move changes besides where the pieces stand, kept before it is
//! played, and the move played backwards.
//!
//! The replay keeps the position before each move for the rare variation or warning that needs
//! it. Copying the whole position before every move cost more than keeping these few fields and
//! rebuilding the earlier position on demand.

use crate::{Bitboard, CastlingSide, Color, Move, Piece, Position, Role, Square};

/// The state a move or a null move changes besides the placement: with the move, enough to take
/// it back ([`Position::unplay`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Undo {
    castling: Bitboard,
    key: u64,
    halfmoves: u32,
    fullmoves: u32,
    ep: Option<Square>,
    turn: Color,
}

impl Position {
    /// What [`Position::unplay`] needs to take back the next move (or null move) played here.
    #[inline]
    pub fn undo(&self) -> Undo {
        Undo {
            castling: self.castling,
            key: self.key,
            halfmoves: self.halfmoves,
            fullmoves: self.fullmoves,
            ep: self.ep,
            turn: self.turn,
        }
    }

    /// Takes back `mv`, or a null move (`None`), played in the position `undo` was taken of:
    /// afterwards the position equals that one.
    pub fn unplay(&mut self, mv: Option<Move>, undo: Undo) {
        if let Some(mv) = mv {
            let us = undo.turn;
            let piece = |role| Piece { color: us, role };
            let (from, to) = (mv.from(), mv.to());
            if let Some(rook) = mv.castling_rook() {
                // Both pieces leave before either lands: in Chess960 a square may be both.
                let side = CastlingSide::of_rook(from, rook);
                self.take(side.king_to(us), piece(Role::King));
                self.take(side.rook_to(us), piece(Role::Rook));
                self.put(from, piece(Role::King));
                self.put(rook, piece(Role::Rook));
            } else if mv.is_en_passant() {
                self.take(to, piece(Role::Pawn));
                self.put(from, piece(Role::Pawn));
                let captured = Piece {
                    color: !us,
                    role: Role::Pawn,
                };
                self.put(to.with_rank(from.rank()), captured);
            } else {
                self.take(to, piece(mv.promotion().unwrap_or(mv.role())));
                self.put(from, piece(mv.role()));
                if let Some(role) = mv.capture() {
                    self.put(to, Piece { color: !us, role });
                }
            }
        }
        self.castling = undo.castling;
        self.key = undo.key;
        self.halfmoves = undo.halfmoves;
        self.fullmoves = undo.fullmoves;
        self.ep = undo.ep;
        self.turn = undo.turn;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every legal move and the null move, taken back, give the position they were played in,
    /// whole (key and clocks included), along random games from positions rich in castling, en
    /// passant and promotions, in standard chess and Chess960.
    #[test]
    fn unplay_restores_the_position() {
        let mut seed = 0x51_7cc1_b727_220a_u64;
        let mut taken_back = 0;
        for (fen, chess960) in [
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                false,
            ),
            (
                "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
                false,
            ),
            (
                "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
                false,
            ),
            ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", false),
            // Castling on either side moves the king onto the rook's square or the rook onto
            // the king's.
            ("1r3kr1/pppppppp/8/8/8/8/PPPPPPPP/1R3KR1 w KQkq - 0 1", true),
        ] {
            let parsed = if chess960 {
                Position::from_fen_chess960(fen)
            } else {
                Position::from_fen(fen)
            };
            let Ok(mut pos) = parsed else {
                panic!("{fen}");
            };
            for _ in 0..60 {
                for &mv in pos.legal_moves().iter() {
                    let mut after = pos.clone();
                    let undo = after.undo();
                    after.play_unchecked(mv);
                    after.unplay(Some(mv), undo);
                    assert_eq!(after, pos, "{mv:?} in {}", pos.to_fen());
                    taken_back += 1;
                }
                let mut after = pos.clone();
                let undo = after.undo();
                after.play_null();
                after.unplay(None, undo);
                assert_eq!(after, pos, "null move in {}", pos.to_fen());
                if !crate::san::play_random(&mut pos, &mut seed) {
                    break;
                }
            }
        }
        assert!(taken_back > 5_000, "{taken_back}");
    }
}
