//! Zobrist keys: fixed pseudo-random numbers, made at compile time by a const xorshift, one per
//! piece on a square, per castling rook square, per en passant file and for black to move.
//!
//! [`crate::Position`] keeps the key of placement, castling rights and turn up to date
//! move by move; the en passant part is added on demand, and only when an en passant capture is
//! legal, so positions that differ only in a pointless ep square share a key.

use crate::bitboard::Bitboard;
use crate::types::{Piece, Square};

/// 12 pieces × 64 squares, then 64 castling squares, 8 ep files, 1 turn key.
const COUNT: usize = 12 * 64 + 64 + 8 + 1;

const fn make_keys() -> [u64; COUNT] {
    let mut keys = [0u64; COUNT];
    let mut x: u64 = 0x2545_f491_4f6c_dd1d;
    let mut i = 0;
    while i < COUNT {
        // xorshift64*
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        keys[i] = x.wrapping_mul(0x2545_f491_4f6c_dd1d);
        i += 1;
    }
    keys
}

static KEYS: [u64; COUNT] = make_keys();

/// The key of `piece` standing on `sq`.
#[inline]
pub fn piece(piece: Piece, sq: Square) -> u64 {
    KEYS[(piece.color.index() * 6 + piece.role.index()) * 64 + sq.index()]
}

/// The key of a castling right, named by its rook's square.
#[inline]
fn castling_square(sq: Square) -> u64 {
    KEYS[12 * 64 + sq.index()]
}

/// The combined key of a set of castling rights (rook squares).
#[inline]
pub fn castling(rights: Bitboard) -> u64 {
    rights.iter().fold(0, |k, sq| k ^ castling_square(sq))
}

/// The key of a legal en passant capture on the file of `sq`.
#[inline]
pub fn en_passant(sq: Square) -> u64 {
    KEYS[12 * 64 + 64 + usize::from(sq.file())]
}

/// The key toggled when black is to move.
#[inline]
pub fn black_to_move() -> u64 {
    KEYS[COUNT - 1]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_distinct() {
        let mut keys = KEYS.to_vec();
        keys.sort_unstable();
        keys.dedup();
        assert_eq!(keys.len(), COUNT);
    }
}
