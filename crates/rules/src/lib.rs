//! The chess rules core: squares, bitboards, attack tables, positions, legal move generation,
//! FEN and SAN. It knows nothing about PGN or the command line.
//!
//! Every type is at the crate root; two modules are namespaces of their own: [`san`] (reading
//! and writing Standard Algebraic Notation: [`san::write`], [`San::from_ascii`](san::San::from_ascii)...) and [`mate`]
//! (whether a side can still mate: [`can_mate`], [`is_dead`], and the proofs behind them).
//!
//! ```
//! use arbiter_rules::Position;
//!
//! let pos = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
//! assert_eq!(pos.legal_moves().len(), 26);
//! assert_eq!(arbiter_rules::perft(&pos, 2), 568);
//! ```

#![warn(missing_docs)]

mod attacks;
mod bitboard;
mod fen;
pub mod mate;
mod movegen;
mod moves;
mod perft;
mod position;
pub mod san;
mod types;
mod uci;
mod undo;
mod zobrist;

pub use bitboard::{Bitboard, Squares};
pub use fen::{
    FenDefect, FenError, FenField, MAX_FEN_BYTES, MAX_LISTED_DEFECTS, STARTING_FEN, epd_to_fen,
};
pub use mate::{CanMate, MateLimits, can_mate, is_dead};
pub use moves::{Move, MoveList, UciMove};
pub use perft::{divide, perft};
pub use position::{IllegalMove, Position};
pub use san::{
    CastlingObstacle, Glyph, Leniency, ParseSanError, Resolved, San, SanError, SanString, Suffix,
};
pub use types::{CastlingSide, Color, InvalidSquare, Piece, Role, Square};
pub use uci::{Uci, UciError};
pub use undo::Undo;

/// The README's examples, compiled and run as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeExamples;
