//! The set of positions a search has met, by Zobrist key: an open-addressing table of bare
//! 64-bit keys with linear probing.
//!
//! The searches insert every position they generate, millions on the hardest ones, into a
//! table far larger than the caches, so each insert is a cache miss. Here it is one miss: the
//! key sits in the slot the probe starts from (`std`'s map first reads a control byte, then the
//! key elsewhere). Zobrist keys are uniformly spread, so the key's low bits are its slot.
//! [`key_after`] gives the key of the position a move leads to without playing it.

use crate::bitboard::Bitboard;
use crate::moves::Move;
use crate::position::Position;
use crate::types::{Piece, Role};
use crate::zobrist;

/// The Zobrist key ([`Position::zobrist`]) of the position `mv` leads to from `pos`, without
/// playing it; `None` for castling, en passant and a pawn's double step, which need the position
/// itself (the last may give an en passant square). As [`Position::play_unchecked`]: the mover
/// leaves `from` and lands on `to` as its promotion piece if any, whatever stood on `to` is
/// taken off, castling rights on `from` and `to` (and the mover's own, for a king move) go, and
/// the turn changes.
#[inline]
pub(crate) fn key_after(pos: &Position, mv: Move) -> Option<u64> {
    let (from, to, role) = (mv.from(), mv.to(), mv.role());
    if mv.is_castle()
        || mv.is_en_passant()
        || (role == Role::Pawn && from.index() ^ to.index() == 16)
    {
        return None;
    }
    let us = pos.turn();
    let landing = mv.promotion().unwrap_or(role);
    let mut key = pos.key
        ^ zobrist::black_to_move()
        ^ zobrist::piece(Piece { color: us, role }, from)
        ^ zobrist::piece(
            Piece {
                color: us,
                role: landing,
            },
            to,
        );
    if let Some(taken) = pos.role_at(to) {
        key ^= zobrist::piece(
            Piece {
                color: !us,
                role: taken,
            },
            to,
        );
    }
    let mut rights = pos.castling_rooks().without(from).without(to);
    if role == Role::King {
        rights &= !Bitboard::rank(us.back_rank());
    }
    Some(key ^ zobrist::castling(pos.castling_rooks() ^ rights))
}

/// A set of 64-bit keys.
pub(crate) struct KeySet {
    /// The slots, a power of two of them; 0 marks an empty slot.
    slots: Vec<u64>,
    /// Keys stored in `slots`.
    len: usize,
    /// Whether the key 0 (which cannot sit in a slot) is in the set.
    zero: bool,
}

/// Slots of a new set.
const FIRST_SLOTS: usize = 1 << 10;

/// The largest table [`KeySet::clear`] keeps (32 KB).
const KEEP_SLOTS: usize = 1 << 12;

impl KeySet {
    /// An empty set (which allocates nothing until a key is added).
    pub(crate) fn new() -> KeySet {
        KeySet {
            slots: Vec::new(),
            len: 0,
            zero: false,
        }
    }

    /// Empties the set; a large table is given back (clearing it would cost more than a small
    /// search).
    pub(crate) fn clear(&mut self) {
        if self.slots.len() > KEEP_SLOTS {
            self.slots = Vec::new();
        } else if self.len > 0 {
            self.slots.fill(0);
        }
        self.len = 0;
        self.zero = false;
    }

    /// Adds `key`; `true` if it was not in the set yet.
    #[inline]
    pub(crate) fn insert(&mut self, key: u64) -> bool {
        if key == 0 {
            return !std::mem::replace(&mut self.zero, true);
        }
        // At most half full: probes stay short.
        if 2 * (self.len + 1) > self.slots.len() {
            self.grow();
        }
        if Self::place(&mut self.slots, key) {
            self.len += 1;
            true
        } else {
            false
        }
    }

    /// Makes room for `keys` and reads the slot where each would go, all before the first is
    /// needed: the reads are independent, so the processor fetches their cache lines together,
    /// and the inserts that follow find them in the cache.
    #[inline]
    pub(crate) fn prefetch(&mut self, keys: impl ExactSizeIterator<Item = u64>) {
        while 2 * (self.len + keys.len() + 1) > self.slots.len() {
            self.grow();
        }
        let mask = self.slots.len() - 1;
        let touched = keys.fold(0, |acc, key| acc ^ self.slots[key as usize & mask]);
        std::hint::black_box(touched);
    }

    /// Puts `key` (not 0) into `slots`; `false` if it was there already.
    #[inline]
    fn place(slots: &mut [u64], key: u64) -> bool {
        let mask = slots.len() - 1;
        let mut i = key as usize & mask;
        loop {
            let slot = slots[i];
            if slot == key {
                return false;
            }
            if slot == 0 {
                slots[i] = key;
                return true;
            }
            i = (i + 1) & mask;
        }
    }

    /// Doubles the table (or makes the first).
    #[cold]
    fn grow(&mut self) {
        let mut slots = vec![0; (2 * self.slots.len()).max(FIRST_SLOTS)];
        for &key in self.slots.iter().filter(|&&key| key != 0) {
            Self::place(&mut slots, key);
        }
        self.slots = slots;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mate::along_random_games;

    /// Along random games from positions with every kind of move (castling both ways,
    /// en passant, promotions with and without capture, rook captures that end a right), the
    /// key computed without playing is the key of the position played.
    #[test]
    fn keys_after_a_move_match_the_played_position() {
        let starts = [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        ];
        let mut checked = 0;
        along_random_games(&starts, 40, 60, 0x2545_f491_4f6c_dd1d, |pos, moves| {
            for &mv in moves.iter() {
                let mut child = pos.clone();
                child.play_unchecked(mv);
                if let Some(key) = key_after(pos, mv) {
                    assert_eq!(key, child.zobrist(), "{} {mv:?}", pos.to_fen());
                    checked += 1;
                }
            }
        });
        assert!(checked > 100_000, "{checked}");
    }

    #[test]
    fn inserts_once_each_across_growth() {
        let mut set = KeySet::new();
        // Keys that share low bits collide in their slot and must probe on.
        let keys: Vec<u64> = (1..5_000u64)
            .map(|i| i.wrapping_mul(0x9e37_79b9_7f4a_7c15) << 8)
            .chain([0, 1, 1 << 63, u64::MAX])
            .collect();
        for &key in &keys {
            assert!(set.insert(key), "{key:#x} new");
        }
        for &key in &keys {
            assert!(!set.insert(key), "{key:#x} seen");
        }
        assert_eq!(set.len, keys.len() - 1);
        assert!(set.slots.len() >= 2 * set.len);
    }
}
