//! Moves, their UCI form, and [`MoveList`], the fixed-capacity list the generator fills.

use std::fmt;
use std::mem::MaybeUninit;
use std::ops::Deref;

use crate::types::{CastlingSide, Role, Square};

/// `special` value of a plain move (including promotions and captures).
const NORMAL: u8 = 64;
/// `special` value of an en passant capture.
const EN_PASSANT: u8 = 65;

/// A move of the side to move. Castling is stored as king square, king destination and rook
/// square, so it works for standard chess and Chess960 alike.
///
/// Aligned to eight bytes (six of data): the compiler then moves it as one 64-bit word between
/// the SAN resolver, the replay's undo record and the make-move, where a six-byte value was cut
/// into pieces and put together again (-0.7% / -0.9% of export's instructions on the lichess and
/// master corpora).
#[derive(Copy, Clone, Eq, PartialEq, Hash)]
#[repr(align(8))]
pub struct Move {
    from: Square,
    to: Square,
    role: Role,
    capture: Option<Role>,
    promotion: Option<Role>,
    /// [`NORMAL`], [`EN_PASSANT`], or the castling rook's square index (0–63).
    special: u8,
}

impl Move {
    /// A plain move: `role` from `from` to `to`, capturing `capture`, promoting to `promotion`.
    /// Nothing is checked; get legal moves from [`crate::Position::legal_moves`].
    #[inline]
    pub const fn normal(
        role: Role,
        from: Square,
        capture: Option<Role>,
        to: Square,
        promotion: Option<Role>,
    ) -> Move {
        Move {
            from,
            to,
            role,
            capture,
            promotion,
            special: NORMAL,
        }
    }

    /// An en passant capture from `from` to the ep square `to`.
    #[inline]
    pub const fn en_passant(from: Square, to: Square) -> Move {
        Move {
            from,
            to,
            role: Role::Pawn,
            capture: Some(Role::Pawn),
            promotion: None,
            special: EN_PASSANT,
        }
    }

    /// Castling of the king on `king` with the rook on `rook` (same rank).
    #[inline]
    pub const fn castle(king: Square, rook: Square) -> Move {
        let side = CastlingSide::of_rook(king, rook);
        let to = Square::from_index(king.rank() * 8 + side.king_to_file());
        Move {
            from: king,
            to,
            role: Role::King,
            capture: None,
            promotion: None,
            special: rook.index() as u8,
        }
    }

    /// The square the moving piece leaves (the king's square for castling).
    #[inline]
    pub const fn from(self) -> Square {
        self.from
    }

    /// The square the moving piece lands on; for castling, the king's destination (g1, c1, g8, c8).
    #[inline]
    pub const fn to(self) -> Square {
        self.to
    }

    /// The role of the moving piece (a pawn for promotions, the king for castling).
    #[inline]
    pub const fn role(self) -> Role {
        self.role
    }

    /// The role of the captured piece (a pawn for en passant).
    #[inline]
    pub const fn capture(self) -> Option<Role> {
        self.capture
    }

    /// The promotion role, if any.
    #[inline]
    pub const fn promotion(self) -> Option<Role> {
        self.promotion
    }

    /// Whether this is an en passant capture.
    #[inline]
    pub const fn is_en_passant(self) -> bool {
        self.special == EN_PASSANT
    }

    /// Whether this is castling.
    #[inline]
    pub const fn is_castle(self) -> bool {
        self.special < 64
    }

    /// Whether this moves a second piece: castling (the rook) or en passant (the pawn taken
    /// beside the destination). One compare, where asking both costs a few more on every move.
    #[inline]
    pub const fn moves_two_pieces(self) -> bool {
        self.special != NORMAL
    }

    /// The castling side, for castling moves.
    #[inline]
    pub const fn castling_side(self) -> Option<CastlingSide> {
        match self.castling_rook() {
            Some(rook) => Some(CastlingSide::of_rook(self.from, rook)),
            None => None,
        }
    }

    /// The castling rook's square, for castling moves.
    #[inline]
    pub const fn castling_rook(self) -> Option<Square> {
        if self.special < 64 {
            Some(Square::from_index(self.special))
        } else {
            None
        }
    }

    /// Whether the move captures (en passant included).
    #[inline]
    pub const fn is_capture(self) -> bool {
        self.capture.is_some()
    }

    /// Whether the move resets the halfmove clock: a pawn move or a capture.
    #[inline]
    pub const fn is_zeroing(self) -> bool {
        self.capture.is_some() || matches!(self.role, Role::Pawn)
    }

    /// The move in UCI notation. Castling is king-to-destination (`e1g1`) unless `chess960`,
    /// where it is king-to-rook (`e1h1`).
    #[inline]
    pub const fn to_uci(self, chess960: bool) -> UciMove {
        let to = match self.castling_rook() {
            Some(rook) if chess960 => rook,
            _ => self.to,
        };
        UciMove {
            from: self.from,
            to,
            promotion: self.promotion,
        }
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Move({} {}{}",
            self.role.upper_char(),
            self.from,
            self.to
        )?;
        if let Some(c) = self.capture {
            write!(f, " x{}", c.upper_char())?;
        }
        if let Some(p) = self.promotion {
            write!(f, " ={}", p.upper_char())?;
        }
        if self.is_en_passant() {
            f.write_str(" ep")?;
        }
        if let Some(rook) = self.castling_rook() {
            write!(f, " castle with {rook}")?;
        }
        f.write_str(")")
    }
}

/// A move in UCI notation, printed without allocating: `e2e4`, `e7e8q`.
#[derive(Copy, Clone, Debug, Eq, PartialEq, Hash)]
pub struct UciMove {
    /// Origin square.
    pub from: Square,
    /// Destination square (the rook's square for Chess960 castling).
    pub to: Square,
    /// Promotion role.
    pub promotion: Option<Role>,
}

impl UciMove {
    /// The move's text in a buffer, and its length (4, or 5 with a promotion): no formatting
    /// machinery, for writers of a row per move.
    #[inline]
    pub fn to_ascii(self) -> ([u8; 5], usize) {
        let mut text = [
            self.from.file_char() as u8,
            self.from.rank_char() as u8,
            self.to.file_char() as u8,
            self.to.rank_char() as u8,
            b' ',
        ];
        match self.promotion {
            Some(p) => {
                text[4] = p.char() as u8;
                (text, 5)
            }
            None => (text, 4),
        }
    }
}

impl fmt::Display for UciMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (text, len) = self.to_ascii();
        f.write_str(std::str::from_utf8(&text[..len]).unwrap_or_default())
    }
}

/// A list of moves with fixed capacity ([`MoveList::CAPACITY`]) that lives on the stack.
///
/// Legal chess positions have at most 218 moves; the capacity leaves room for the unreachable
/// positions FEN can describe (the "30 queens" test position has 270). Pushes beyond the
/// capacity are dropped rather than panicking.
pub struct MoveList {
    len: usize,
    moves: [MaybeUninit<Move>; MoveList::CAPACITY],
}

impl MoveList {
    /// How many moves fit.
    pub const CAPACITY: usize = 512;

    /// An empty list.
    #[inline]
    pub const fn new() -> MoveList {
        MoveList {
            len: 0,
            moves: [MaybeUninit::uninit(); MoveList::CAPACITY],
        }
    }

    /// Appends a move (dropped if the list is full).
    #[inline]
    pub fn push(&mut self, mv: Move) {
        if let Some(slot) = self.moves.get_mut(self.len) {
            slot.write(mv);
            self.len += 1;
        }
    }

    /// Removes every move.
    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Keeps only the moves `keep` accepts, in order.
    pub fn retain(&mut self, mut keep: impl FnMut(&Move) -> bool) {
        let mut kept = 0;
        for i in 0..self.len {
            let mv = self[i];
            if keep(&mv) {
                self.moves[kept].write(mv);
                kept += 1;
            }
        }
        self.len = kept;
    }
}

impl Default for MoveList {
    fn default() -> MoveList {
        MoveList::new()
    }
}

impl Clone for MoveList {
    fn clone(&self) -> MoveList {
        let mut list = MoveList::new();
        for &mv in self.iter() {
            list.push(mv);
        }
        list
    }
}

impl Deref for MoveList {
    type Target = [Move];

    #[inline]
    fn deref(&self) -> &[Move] {
        // SAFETY: the first `len` slots were initialised by `push` or `retain`, `len` never
        // exceeds the capacity, and `MaybeUninit<Move>` has the layout of `Move`.
        unsafe { std::slice::from_raw_parts(self.moves.as_ptr().cast::<Move>(), self.len) }
    }
}

impl fmt::Debug for MoveList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes() {
        assert!(std::mem::size_of::<Move>() <= 8);
        assert_eq!(
            std::mem::size_of::<Option<Move>>(),
            std::mem::size_of::<Move>()
        );
    }

    #[test]
    fn uci() {
        let castle = Move::castle(Square::E1, Square::H1);
        assert_eq!(castle.to(), Square::G1);
        assert_eq!(castle.to_uci(false).to_string(), "e1g1");
        assert_eq!(castle.to_uci(true).to_string(), "e1h1");
        assert_eq!(castle.castling_side(), Some(CastlingSide::KingSide));
        let promo = Move::normal(Role::Pawn, Square::E7, None, Square::E8, Some(Role::Queen));
        assert_eq!(promo.to_uci(false).to_string(), "e7e8q");
        assert!(promo.is_zeroing());
    }

    /// The one-compare test agrees with its two parts for every castling rook square (a1 and h8,
    /// the extremes of the rook's index, included), en passant and plain moves.
    #[test]
    fn moves_two_pieces_is_castling_or_en_passant() {
        let mut moves = vec![
            Move::en_passant(Square::E5, Square::D6),
            Move::normal(Role::Pawn, Square::E7, None, Square::E8, Some(Role::Queen)),
            Move::normal(Role::King, Square::E1, Some(Role::Rook), Square::F1, None),
        ];
        for king in [Square::E1, Square::B8] {
            for file in 0..8 {
                if let Some(rook) = Square::from_coords(file, king.rank())
                    && rook != king
                {
                    moves.push(Move::castle(king, rook));
                }
            }
        }
        for mv in moves {
            assert_eq!(
                mv.moves_two_pieces(),
                mv.is_castle() || mv.is_en_passant(),
                "{mv:?}"
            );
        }
        assert!(Move::castle(Square::E1, Square::A1).moves_two_pieces());
        assert!(Move::castle(Square::E8, Square::H8).moves_two_pieces());
    }

    #[test]
    fn list() {
        let mut list = MoveList::new();
        let mv = Move::en_passant(Square::E5, Square::D6);
        for _ in 0..MoveList::CAPACITY + 3 {
            list.push(mv);
        }
        assert_eq!(list.len(), MoveList::CAPACITY);
        list.retain(|_| false);
        assert!(list.is_empty());
    }
}
