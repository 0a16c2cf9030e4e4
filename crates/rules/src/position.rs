//! [`Position`]: placement, side to move, castling rights, en passant square, clocks and an
//! incrementally updated Zobrist key; make-move, check status and insufficient material.
//!
//! Castling rights are stored as the set of rook squares that may still castle, so standard
//! chess and Chess960 share one representation. Legal move generation lives in
//! [`crate::movegen`], FEN in [`crate::fen`].

use std::fmt;

use crate::attacks;
use crate::bitboard::Bitboard;
use crate::moves::{Move, MoveList, UciMove};
use crate::types::{CastlingSide, Color, Piece, Role, Square};
use crate::zobrist;

/// A chess position. It always has exactly one king per side (FEN parsing enforces it, and
/// legal moves keep it so).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position {
    pub(crate) by_color: [Bitboard; 2],
    pub(crate) by_role: [Bitboard; 6],
    pub(crate) board: [Option<Role>; 64],
    pub(crate) turn: Color,
    pub(crate) castling: Bitboard,
    pub(crate) ep: Option<Square>,
    pub(crate) halfmoves: u32,
    pub(crate) fullmoves: u32,
    /// Zobrist key of placement, castling rights and turn (the ep part is added on demand).
    pub(crate) key: u64,
    pub(crate) chess960: bool,
}

impl Default for Position {
    fn default() -> Position {
        Position::startpos()
    }
}

impl Position {
    /// An empty board, white to move, no rights, clocks 0 and 1.
    pub(crate) fn empty() -> Position {
        Position {
            by_color: [Bitboard::EMPTY; 2],
            by_role: [Bitboard::EMPTY; 6],
            board: [None; 64],
            turn: Color::White,
            castling: Bitboard::EMPTY,
            ep: None,
            halfmoves: 0,
            fullmoves: 1,
            key: 0,
            chess960: false,
        }
    }

    /// The standard starting position.
    pub fn startpos() -> Position {
        // Built once and copied: every game without a FEN tag starts here.
        static STARTPOS: std::sync::OnceLock<Position> = std::sync::OnceLock::new();
        STARTPOS.get_or_init(Position::build_startpos).clone()
    }

    fn build_startpos() -> Position {
        let mut pos = Position::empty();
        let back = [
            Role::Rook,
            Role::Knight,
            Role::Bishop,
            Role::Queen,
            Role::King,
            Role::Bishop,
            Role::Knight,
            Role::Rook,
        ];
        for (file, role) in (0u8..).zip(back) {
            for (color, rank, pawn_rank) in [(Color::White, 0, 1), (Color::Black, 7, 6)] {
                if let (Some(sq), Some(pawn_sq)) = (
                    Square::from_coords(file, rank),
                    Square::from_coords(file, pawn_rank),
                ) {
                    pos.put(sq, Piece { color, role });
                    pos.put(
                        pawn_sq,
                        Piece {
                            color,
                            role: Role::Pawn,
                        },
                    );
                }
            }
        }
        pos.set_castling(Bitboard(0x8100_0000_0000_0081));
        pos
    }

    /// Puts `piece` on the empty square `sq`.
    #[inline]
    pub(crate) fn put(&mut self, sq: Square, piece: Piece) {
        self.by_color[piece.color.index()] |= sq;
        self.by_role[piece.role.index()] |= sq;
        self.board[sq.index()] = Some(piece.role);
        self.key ^= zobrist::piece(piece, sq);
    }

    /// Removes `piece` from `sq`, where it stands.
    #[inline]
    pub(crate) fn take(&mut self, sq: Square, piece: Piece) {
        let keep = !Bitboard::from_square(sq);
        self.by_color[piece.color.index()] &= keep;
        self.by_role[piece.role.index()] &= keep;
        self.board[sq.index()] = None;
        self.key ^= zobrist::piece(piece, sq);
    }

    /// Replaces the castling rights, keeping the key up to date.
    #[inline]
    pub(crate) fn set_castling(&mut self, rights: Bitboard) {
        if rights != self.castling {
            self.key ^= zobrist::castling(self.castling ^ rights);
            self.castling = rights;
        }
    }

    /// Sets the side to move, keeping the key up to date.
    #[inline]
    pub(crate) fn set_turn(&mut self, turn: Color) {
        if turn != self.turn {
            self.key ^= zobrist::black_to_move();
            self.turn = turn;
        }
    }

    /// The side to move.
    #[inline]
    pub fn turn(&self) -> Color {
        self.turn
    }

    /// The role of the piece on `sq`, if any.
    #[inline]
    pub fn role_at(&self, sq: Square) -> Option<Role> {
        self.board[sq.index()]
    }

    /// The piece on `sq`, if any.
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.role_at(sq).map(|role| Piece {
            color: if self.by_color[0].contains(sq) {
                Color::White
            } else {
                Color::Black
            },
            role,
        })
    }

    /// The squares of `color`'s pieces.
    #[inline]
    pub fn by_color(&self, color: Color) -> Bitboard {
        self.by_color[color.index()]
    }

    /// The squares of pieces of `role`, both colours.
    #[inline]
    pub fn by_role(&self, role: Role) -> Bitboard {
        self.by_role[role.index()]
    }

    /// The squares of `piece`.
    #[inline]
    pub fn by_piece(&self, piece: Piece) -> Bitboard {
        self.by_color(piece.color) & self.by_role(piece.role)
    }

    /// Every occupied square.
    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.by_color[0] | self.by_color[1]
    }

    /// The square of `color`'s king (a1 in the impossible case of a position without one).
    #[inline]
    pub fn king_of(&self, color: Color) -> Square {
        (self.by_role(Role::King) & self.by_color(color))
            .first()
            .unwrap_or(Square::A1)
    }

    /// The rooks that may still castle, both colours.
    #[inline]
    pub fn castling_rooks(&self) -> Bitboard {
        self.castling
    }

    /// The en passant square as stored: from FEN as given (once validated); after a double
    /// pawn step, only when an enemy pawn stands ready to capture (legal or not).
    #[inline]
    pub fn ep_square(&self) -> Option<Square> {
        self.ep
    }

    /// The en passant square, only if an en passant capture is legal.
    ///
    /// Inlined down to the test for an en passant square, which repetition keys ask after every
    /// move and which nearly always finds none: as a call, saving and restoring registers for
    /// that answer cost 1% of a replay's instructions.
    #[inline]
    pub fn legal_ep_square(&self) -> Option<Square> {
        let ep = self.ep?;
        self.en_passant_is_legal(ep).then_some(ep)
    }

    /// Whether some pawn of the side to move may capture en passant onto `ep`.
    #[inline(never)]
    fn en_passant_is_legal(&self, ep: Square) -> bool {
        let pawns = self.by_piece(Piece {
            color: self.turn,
            role: Role::Pawn,
        });
        (attacks::pawn(!self.turn, ep) & pawns)
            .iter()
            .any(|from| self.is_safe_en_passant(from, ep))
    }

    /// Whether the en passant capture `from`×`to` leaves our king safe.
    #[inline]
    pub(crate) fn is_safe_en_passant(&self, from: Square, to: Square) -> bool {
        let king = self.king_of(self.turn);
        let captured = to.with_rank(from.rank());
        let occupied = (self.occupied() ^ from ^ captured) | to;
        (self.attackers_to(king, !self.turn, occupied) & !Bitboard::from_square(captured))
            .is_empty()
    }

    /// The number of plies since the last capture or pawn move.
    #[inline]
    pub fn halfmoves(&self) -> u32 {
        self.halfmoves
    }

    /// The move number, starting at 1 and incremented after black moves.
    #[inline]
    pub fn fullmoves(&self) -> u32 {
        self.fullmoves
    }

    /// Whether the position is a Chess960 one: some castling right has its king or rook off the
    /// standard squares. Decided when parsing FEN; see [`Position::set_chess960`].
    #[inline]
    pub fn is_chess960(&self) -> bool {
        self.chess960
    }

    /// Overrides the Chess960 flag (it only changes how castling is written in UCI).
    pub fn set_chess960(&mut self, chess960: bool) {
        self.chess960 = chess960;
    }

    /// The pieces of `by` that attack `sq`, given the occupied squares `occupied`.
    #[inline]
    pub fn attackers_to(&self, sq: Square, by: Color, occupied: Bitboard) -> Bitboard {
        let queens = self.by_role(Role::Queen);
        ((attacks::rook(sq, occupied) & (self.by_role(Role::Rook) | queens))
            | (attacks::bishop(sq, occupied) & (self.by_role(Role::Bishop) | queens))
            | (attacks::knight(sq) & self.by_role(Role::Knight))
            | (attacks::king(sq) & self.by_role(Role::King))
            | (attacks::pawn(!by, sq) & self.by_role(Role::Pawn)))
            & self.by_color(by)
    }

    /// The pieces giving check to the side to move.
    #[inline]
    pub fn checkers(&self) -> Bitboard {
        self.attackers_to(self.king_of(self.turn), !self.turn, self.occupied())
    }

    /// Whether the side to move is in check.
    #[inline]
    pub fn is_check(&self) -> bool {
        self.checkers().any()
    }

    /// Whether the side to move is in check, `mv` having just been played from a position in
    /// which the side now to move was not in check (any position reached by a legal move; not
    /// one after a null move made in check). Then only the moved piece, from where it landed,
    /// or a slider behind the square it left can give the check: most moves need no slider
    /// lookup. Castling and en passant, which move a second piece, ask [`Position::is_check`].
    #[inline]
    pub fn is_check_after(&self, mv: Move) -> bool {
        if mv.moves_two_pieces() {
            return self.is_check();
        }
        let king = self.king_of(self.turn);
        let mover = !self.turn;
        let (from, to) = (mv.from(), mv.to());
        let occupied = self.occupied();
        let landing = Piece {
            color: mover,
            role: mv.promotion().unwrap_or(mv.role()),
        };
        // Tables read by the king's square, which rarely changes, stay in the cache. (A knight's
        // or pawn's square is on no line with the king: nothing stands between.)
        if attacks::attacked_from(king, landing).contains(to)
            && (attacks::between(king, to) & occupied).is_empty()
        {
            return true;
        }
        // Most squares left are on no line through the king: nothing is uncovered.
        let line = attacks::ray(king, from);
        if line.is_empty() {
            return false;
        }
        let straight = king.rank() == from.rank() || king.file() == from.file();
        let kind = if straight { Role::Rook } else { Role::Bishop };
        let sliders = self.by_color(mover) & (self.by_role(kind) | self.by_role(Role::Queen));
        (line & sliders).any() && attacks::slider_sees(king, occupied, straight, sliders)
    }

    /// Whether the side to move is checkmated.
    pub fn is_checkmate(&self) -> bool {
        self.is_check() && !self.has_legal_moves()
    }

    /// Whether the side to move is stalemated.
    pub fn is_stalemate(&self) -> bool {
        !self.is_check() && !self.has_legal_moves()
    }

    /// Whether the position is dead by material (docs/outcomes.md): K v K, K+N v K, K+B(s) v K with all
    /// bishops on one colour, K+B(s) v K+B(s) with every bishop on one colour.
    pub fn is_insufficient_material(&self) -> bool {
        self.has_insufficient_material(Color::White) && self.has_insufficient_material(Color::Black)
    }

    /// Whether `color` cannot mate by any series of legal moves, with python-chess's rule: no
    /// pawns, rooks or queens; a lone knight only against a king (and queens, which cannot be
    /// forced to help); bishops only if every bishop on the board shares one square colour and
    /// there are no knights or pawns at all. Each rule's proof is in
    /// [`mate::material_cannot_mate`](crate::mate::material_cannot_mate).
    pub fn has_insufficient_material(&self, color: Color) -> bool {
        let ours = self.by_color(color);
        let heavy = self.by_role(Role::Pawn) | self.by_role(Role::Rook) | self.by_role(Role::Queen);
        if (ours & heavy).any() {
            return false;
        }
        if (ours & self.by_role(Role::Knight)).any() {
            let theirs = self.by_color(!color);
            return ours.count() <= 2
                && (theirs & !self.by_role(Role::King) & !self.by_role(Role::Queen)).is_empty();
        }
        let bishops = self.by_role(Role::Bishop);
        if (ours & bishops).any() {
            let same_colour = (bishops & Bitboard::DARK_SQUARES).is_empty()
                || (bishops & Bitboard::LIGHT_SQUARES).is_empty();
            return same_colour
                && self.by_role(Role::Knight).is_empty()
                && self.by_role(Role::Pawn).is_empty();
        }
        true
    }

    /// The Zobrist key for repetition: placement, turn, castling rights, and the en passant
    /// file only when an en passant capture is legal.
    #[inline]
    pub fn zobrist(&self) -> u64 {
        self.key ^ self.legal_ep_square().map_or(0, zobrist::en_passant)
    }

    /// The key computed from scratch (for checking the incremental one).
    #[cfg(test)]
    pub(crate) fn compute_key(&self) -> u64 {
        let mut key = zobrist::castling(self.castling);
        if self.turn == Color::Black {
            key ^= zobrist::black_to_move();
        }
        for sq in self.occupied() {
            if let Some(piece) = self.piece_at(sq) {
                key ^= zobrist::piece(piece, sq);
            }
        }
        key
    }

    /// Plays `mv`, which must be legal here (from [`Position::legal_moves`] or checked with
    /// [`Position::is_legal`]). An illegal move leaves a meaningless position but never panics.
    ///
    /// Always inlined, down to the common move (a piece leaves one square and lands on another,
    /// perhaps capturing, perhaps promoting): the replay plays one per ply, and as a call, with
    /// castling and en passant in it, saving and restoring registers cost it a fifth of the
    /// work. Castling and en passant are a call of their own.
    #[inline(always)]
    pub fn play_unchecked(&mut self, mv: Move) {
        if mv.moves_two_pieces() {
            self.play_special(mv);
            return;
        }
        let us = self.turn;
        let them = !us;
        let from = mv.from();
        let to = mv.to();
        self.ep = None;
        self.halfmoves = if mv.is_zeroing() {
            0
        } else {
            self.halfmoves.saturating_add(1)
        };
        if us == Color::Black {
            self.fullmoves = self.fullmoves.saturating_add(1);
        }
        // Done in place: the piece leaves `from` and lands on `to` (as its promotion piece, if
        // any), after whatever stood on `to` is taken off.
        if let Some(role) = self.role_at(to) {
            self.take(to, Piece { color: them, role });
        }
        let role = mv.role();
        let landing = mv.promotion().unwrap_or(role);
        self.by_color[us.index()] ^= Bitboard::from_square(from) | Bitboard::from_square(to);
        self.by_role[role.index()] ^= Bitboard::from_square(from);
        self.by_role[landing.index()] ^= Bitboard::from_square(to);
        self.board[from.index()] = None;
        self.board[to.index()] = Some(landing);
        self.key ^= zobrist::piece(Piece { color: us, role }, from)
            ^ zobrist::piece(
                Piece {
                    color: us,
                    role: landing,
                },
                to,
            );
        match role {
            Role::Pawn if from.index() ^ to.index() == 16 => {
                let ep = Square::from_index(((from.index() + to.index()) / 2) as u8);
                let their_pawns = self.by_piece(Piece {
                    color: them,
                    role: Role::Pawn,
                });
                if (attacks::pawn(us, ep) & their_pawns).any() {
                    self.ep = Some(ep);
                }
            }
            Role::King => self.set_castling(self.castling & !Bitboard::rank(us.back_rank())),
            _ => {}
        }
        // A move from or onto a rook's corner ends its right (most moves touch none).
        let touched = Bitboard::from_square(from) | Bitboard::from_square(to);
        if (self.castling & touched).any() {
            self.set_castling(self.castling & !touched);
        }
        // The turn always changes here.
        self.turn = them;
        self.key ^= zobrist::black_to_move();
    }

    /// [`Position::play_unchecked`] for castling and en passant, which move two pieces.
    #[inline(never)]
    fn play_special(&mut self, mv: Move) {
        let us = self.turn;
        let them = !us;
        let from = mv.from();
        let to = mv.to();
        self.ep = None;
        self.halfmoves = if mv.is_zeroing() {
            0
        } else {
            self.halfmoves.saturating_add(1)
        };
        if us == Color::Black {
            self.fullmoves = self.fullmoves.saturating_add(1);
        }
        if let Some(rook) = mv.castling_rook() {
            let side = CastlingSide::of_rook(from, rook);
            let king = Piece {
                color: us,
                role: Role::King,
            };
            let our_rook = Piece {
                color: us,
                role: Role::Rook,
            };
            self.take(from, king);
            self.take(rook, our_rook);
            self.put(side.king_to(us), king);
            self.put(side.rook_to(us), our_rook);
            self.set_castling(self.castling & !Bitboard::rank(us.back_rank()));
        } else {
            let captured = to.with_rank(from.rank());
            let pawn = Piece {
                color: us,
                role: Role::Pawn,
            };
            self.take(
                captured,
                Piece {
                    color: them,
                    role: Role::Pawn,
                },
            );
            self.take(from, pawn);
            self.put(to, pawn);
        }
        self.turn = them;
        self.key ^= zobrist::black_to_move();
    }

    /// Passes the turn (a PGN null move `--`): clears the en passant square and advances the
    /// clocks as a quiet move would.
    pub fn play_null(&mut self) {
        self.ep = None;
        self.halfmoves = self.halfmoves.saturating_add(1);
        if self.turn == Color::Black {
            self.fullmoves = self.fullmoves.saturating_add(1);
        }
        self.set_turn(!self.turn);
    }

    /// Whether `mv` is legal here. Moves compare whole, so a move built by hand must also get
    /// the captured role and the castling rook right.
    pub fn is_legal(&self, mv: Move) -> bool {
        let mut list = MoveList::new();
        self.push_legal_moves_to(mv.role(), mv.to(), &mut list);
        list.contains(&mv)
    }

    /// Plays `mv` if it is legal here ([`Position::is_legal`]); otherwise leaves the position as
    /// it was and says which move was refused. [`Position::play_unchecked`] skips the check.
    ///
    /// ```
    /// use arbiter_rules::{Position, Uci};
    ///
    /// let mut pos = Position::startpos();
    /// let e4 = "e2e4".parse::<Uci>().unwrap().to_move(&pos).unwrap();
    /// pos.play(e4).unwrap();
    /// assert_eq!(pos.play(e4).unwrap_err().to_string(), "e2e4 is not a legal move here");
    /// ```
    pub fn play(&mut self, mv: Move) -> Result<(), IllegalMove> {
        if !self.is_legal(mv) {
            return Err(IllegalMove(mv.to_uci(self.chess960)));
        }
        self.play_unchecked(mv);
        Ok(())
    }
}

/// A move refused by [`Position::play`]: not legal in the position, given in UCI.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IllegalMove(pub UciMove);

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} is not a legal move here", self.0)
    }
}

impl std::error::Error for IllegalMove {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn play_refuses_an_illegal_move_and_keeps_the_position() {
        let mut pos = Position::startpos();
        let legal = pos.legal_moves()[0];
        let before = pos.clone();
        pos.play(legal).unwrap();
        assert_ne!(pos, before);
        let after = pos.clone();
        // The same move again is a move of the side no longer to move.
        assert_eq!(pos.play(legal), Err(IllegalMove(legal.to_uci(false))));
        assert_eq!(pos, after);
    }

    #[test]
    fn startpos_basics() {
        let pos = Position::startpos();
        assert_eq!(pos.occupied().count(), 32);
        assert_eq!(pos.king_of(Color::Black), Square::E8);
        assert_eq!(
            pos.piece_at(Square::D1),
            Some(Piece {
                color: Color::White,
                role: Role::Queen
            })
        );
        assert_eq!(pos.key, pos.compute_key());
        assert!(!pos.is_check());
        assert!(!pos.is_insufficient_material());
    }
}
