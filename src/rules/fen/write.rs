//! FEN writing.

use crate::rules::bitboard::Bitboard;
use crate::rules::position::Position;
use crate::rules::types::{Color, Piece, Role, Square};

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
        // The placement goes to a byte buffer first, then into `fen` in one piece: the writer
        // runs once per exported game, and pushing char by char cost more than the rest of it.
        //
        // Each square is handled without a branch on what stands there (a piece or not, after
        // how many empty squares): each byte is written where it would go, and the length moves
        // past it only if it belongs in the FEN. The buffer has room for the bytes written past
        // the end that way. Which squares are empty differs from game to game, and branching on
        // it cost about twenty mispredicted branches per position. (The buffer is larger than
        // the 71 bytes needed, so that an index taken modulo its size needs no bounds check.)
        const LETTERS: [[u8; 7]; 2] = [*b"PNBRQK\0", *b"pnbrqk\0"];
        const SIZE: usize = 128;
        let mut placement = [b'/'; SIZE];
        let mut len = 0;
        let white = self.by_color(Color::White);
        for rank in (0..8u8).rev() {
            let mut empty = 0u8;
            for file in 0..8u8 {
                let sq = Square::from_index(rank * 8 + file);
                let role = self.role_at(sq).map_or(6, Role::index);
                let letter = LETTERS[usize::from(!white.contains(sq))][role];
                let piece = letter != 0;
                // The count of the empty squares before this piece, if any.
                placement[len % SIZE] = b'0' + empty;
                len += usize::from(piece & (empty > 0));
                placement[len % SIZE] = letter;
                len += usize::from(piece);
                empty = if piece { 0 } else { empty + 1 };
            }
            placement[len % SIZE] = b'0' + empty;
            len += usize::from(empty > 0);
            // The '/' that ends the rank (the last one is written past the end).
            placement[len % SIZE] = b'/';
            len += usize::from(rank > 0);
        }
        if let Ok(placement) = std::str::from_utf8(&placement[..len]) {
            fen.push_str(placement);
        }
        fen.push(' ');
        fen.push(self.turn().char());
        fen.push(' ');
        self.push_castling(fen);
        fen.push(' ');
        match self.legal_ep_square() {
            Some(sq) => {
                fen.push(sq.file_char());
                fen.push(sq.rank_char());
            }
            None => fen.push('-'),
        }
        fen.push(' ');
        push_number(fen, self.halfmoves);
        fen.push(' ');
        push_number(fen, self.fullmoves);
    }

    fn push_castling(&self, fen: &mut String) {
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
                    'q'
                } else if Some(rook) == rooks.last() && rook.file() > king.file() {
                    'k'
                } else {
                    rook.file_char()
                };
                fen.push(color.fold_wb(letter.to_ascii_uppercase(), letter));
                empty = false;
            }
        }
        if empty {
            fen.push('-');
        }
    }
}

/// Appends `n` in decimal.
fn push_number(out: &mut String, n: u32) {
    let mut digits = [0u8; 10];
    let mut start = digits.len();
    let mut n = n;
    loop {
        start -= 1;
        digits[start] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    out.extend(digits[start..].iter().map(|&d| d as char));
}
