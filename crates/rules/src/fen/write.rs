//! FEN writing.

use crate::bitboard::Bitboard;
use crate::position::Position;
use crate::types::{Color, Piece, Role, Square};

impl Position {
    /// The FEN of the position (see the module documentation for the castling letters and the
    /// en passant square).
    pub fn to_fen(&self) -> String {
        let mut fen = String::with_capacity(90);
        self.write_fen(&mut fen);
        fen
    }

    /// Appends the FEN of the position to `fen` (as [`Position::to_fen`] gives it), so that a
    /// caller writing one FEN per game can reuse its buffer.
    pub fn write_fen(&self, fen: &mut String) {
        let mut out = Fen::default();
        self.write_placement(&mut out);
        out.push(b' ');
        out.push(self.turn().char() as u8);
        out.push(b' ');
        self.write_castling(&mut out);
        out.push(b' ');
        match self.legal_ep_square() {
            Some(sq) => {
                out.push(sq.file_char() as u8);
                out.push(sq.rank_char() as u8);
            }
            None => out.push(b'-'),
        }
        out.push(b' ');
        out.number(self.halfmoves);
        out.push(b' ');
        out.number(self.fullmoves);
        if let Ok(text) = std::str::from_utf8(out.bytes()) {
            fen.push_str(text);
        }
    }

    /// The placement field, rank by rank from the eighth, visiting only the occupied squares.
    ///
    /// The writer runs once per exported game. A piece's letter, and the count of the empty
    /// squares before it, are written without a branch on whether there are any: each byte is
    /// written where it would go, and the length moves past it only if it belongs in the FEN.
    /// (Looking at all 64 squares cost twice the instructions; branching on each square's
    /// contents, about twenty mispredicted branches per position.)
    fn write_placement(&self, out: &mut Fen) {
        const LETTERS: [[u8; 6]; 2] = [*b"PNBRQK", *b"pnbrqk"];
        let occupied = self.occupied().0;
        let white = self.by_color(Color::White);
        for rank in (0..8u8).rev() {
            let mut row = (occupied >> (rank * 8)) & 0xff;
            let mut file = 0u8;
            while row != 0 {
                let at = row.trailing_zeros() as u8;
                out.push_if(b'0' + (at - file), at > file);
                let sq = Square::from_index(rank * 8 + at);
                let role = self.role_at(sq).map_or(0, Role::index);
                out.push(LETTERS[usize::from(!white.contains(sq))][role]);
                file = at + 1;
                row &= row - 1;
            }
            out.push_if(b'0' + (8 - file), file < 8);
            out.push_if(b'/', rank > 0);
        }
    }

    fn write_castling(&self, out: &mut Fen) {
        let mut empty = true;
        for color in Color::ALL {
            let back = Bitboard::rank(color.back_rank());
            let king = self.king_of(color);
            let rooks = self.by_piece(Piece {
                color,
                role: Role::Rook,
            }) & back;
            for rook in (self.castling & back).iter().rev() {
                let letter = if Some(rook) == rooks.first() && rook.file() < king.file() {
                    b'q'
                } else if Some(rook) == rooks.last() && rook.file() > king.file() {
                    b'k'
                } else {
                    rook.file_char() as u8
                };
                out.push(color.fold_wb(letter.to_ascii_uppercase(), letter));
                empty = false;
            }
        }
        if empty {
            out.push(b'-');
        }
    }
}

/// A FEN being written, in a buffer longer than any FEN (placement 71 bytes, castling 4, clocks
/// 10 digits each: 103), so that an index taken modulo its size needs no bounds check.
struct Fen {
    bytes: [u8; Fen::SIZE],
    len: usize,
}

impl Default for Fen {
    fn default() -> Fen {
        Fen {
            bytes: [0; Fen::SIZE],
            len: 0,
        }
    }
}

impl Fen {
    const SIZE: usize = 128;

    #[inline]
    fn push(&mut self, byte: u8) {
        self.push_if(byte, true);
    }

    /// Writes `byte` at the end, which moves past it only if `keep`.
    #[inline]
    fn push_if(&mut self, byte: u8, keep: bool) {
        self.bytes[self.len % Fen::SIZE] = byte;
        self.len += usize::from(keep);
    }

    /// Appends `n` in decimal (a clock: one to three digits, as a rule).
    fn number(&mut self, n: u32) {
        let mut digits = [0u8; 10];
        let mut at = digits.len();
        let mut n = n;
        loop {
            at -= 1;
            digits[at] = b'0' + (n % 10) as u8;
            n /= 10;
            if n == 0 {
                break;
            }
        }
        for &digit in &digits[at..] {
            self.push(digit);
        }
    }

    fn bytes(&self) -> &[u8] {
        &self.bytes[..self.len.min(Fen::SIZE)]
    }
}
