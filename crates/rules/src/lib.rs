//! The chess rules core: squares, bitboards, attack tables, positions, legal move generation,
//! FEN and SAN. It knows nothing about PGN or the command line.
//!
//! ```
//! use arbiter_rules::Position;
//!
//! let pos = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
//! assert_eq!(pos.legal_moves().len(), 26);
//! assert_eq!(arbiter_rules::perft(&pos, 2), 568);
//! ```

#![warn(missing_docs)]

pub mod attacks;
pub mod bitboard;
#[doc(hidden)]
pub mod decimal;
pub mod fen;
pub mod mate;
pub mod movegen;
pub mod moves;
pub mod perft;
pub mod position;
pub mod san;
pub mod types;
pub mod uci;
pub mod undo;
pub mod zobrist;

pub use bitboard::Bitboard;
pub use fen::{FenDefect, FenError, FenField};
pub use mate::{CanMate, MateLimits, can_mate, cannot_mate_quick, certainly_not_dead, is_dead};
pub use moves::{Move, MoveList, UciMove};
pub use perft::{divide, perft};
pub use position::Position;
pub use san::{Leniency, Resolved, San, SanError, SanString};
pub use types::{CastlingSide, Color, Piece, Role, Square};
pub use undo::Undo;

/// The README's examples, compiled and run as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeExamples;
