//! The canonical SAN of a legal move, written without touching the heap.
//!
//! Disambiguation is minimal and counts legal moves only: none if no other piece of the kind can
//! reach the square, else the origin file if that tells them apart, else the rank, else both.
//! Castling is `O-O`/`O-O-O` in Chess960 too; promotion is `=Q`; the suffix is `+` or `#`.

use std::fmt;
use std::ops::Deref;

use super::resolve::disambiguation;
use super::{Suffix, candidates};
use crate::{CastlingSide, Move, Position, Role};

/// A SAN string stored inline (the longest, such as `Qh4xe1#` or `exd8=Q#`, has 7 bytes).
#[derive(Copy, Clone, Eq, PartialEq, Hash, Default)]
pub struct SanString {
    len: u8,
    bytes: [u8; 7],
}

impl SanString {
    fn push(&mut self, byte: u8) {
        if let Some(slot) = self.bytes.get_mut(usize::from(self.len)) {
            *slot = byte;
            self.len += 1;
        }
    }

    fn push_str(&mut self, s: &str) {
        for &b in s.as_bytes() {
            self.push(b);
        }
    }

    /// The text.
    pub fn as_str(&self) -> &str {
        let bytes = self.bytes.get(..usize::from(self.len)).unwrap_or(&[]);
        std::str::from_utf8(bytes).unwrap_or("")
    }
}

impl Deref for SanString {
    type Target = str;

    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl fmt::Display for SanString {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Debug for SanString {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl PartialEq<str> for SanString {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for SanString {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

/// The canonical SAN of the legal move `mv` in `pos`, with its check or mate suffix:
/// `Nbd2`, `exd8=Q#`, `O-O+`.
pub fn write(pos: &Position, mv: Move) -> SanString {
    let mut san = write_without_suffix(pos, mv);
    let mut after = pos.clone();
    after.play_unchecked(mv);
    if let Some(suffix) = Suffix::of(&after) {
        san.push_str(suffix.as_str());
    }
    san
}

/// The canonical SAN of the legal move `mv` in `pos`, without a check or mate suffix.
pub fn write_without_suffix(pos: &Position, mv: Move) -> SanString {
    let mut san = SanString::default();
    match mv.castling_side() {
        Some(CastlingSide::KingSide) => san.push_str("O-O"),
        Some(CastlingSide::QueenSide) => san.push_str("O-O-O"),
        None => {
            let from = mv.from();
            let (file, rank) = if mv.role() == Role::Pawn {
                (mv.is_capture(), false)
            } else {
                san.push(mv.role().upper_char() as u8);
                disambiguation(
                    &mv,
                    candidates::legal_moves_to(pos, mv.role(), mv.to(), None).froms,
                )
            };
            if file {
                san.push(b'a' + from.file());
            }
            if rank {
                san.push(b'1' + from.rank());
            }
            if mv.is_capture() {
                san.push(b'x');
            }
            let to = mv.to();
            san.push(b'a' + to.file());
            san.push(b'1' + to.rank());
            if let Some(role) = mv.promotion() {
                san.push(b'=');
                san.push(role.upper_char() as u8);
            }
        }
    }
    san
}
