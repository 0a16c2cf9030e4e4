//! arbiter: validate PGN chess archives move by move, list the legal moves of a FEN position, and
//! export every game's outcome.
//!
//! The crate is split the way the data flows: [`rules`] is the chess rules core (it knows nothing of
//! PGN), [`pgn`] turns bytes into games with exact source locations (it knows nothing of the rules),
//! [`replay`] joins them into one [`GameReport`] per game, judged by [`outcome`]; [`games`] reads
//! the games of one stream that way, one at a time, and [`pipeline`] runs many inputs on every
//! core with the output in input order, written by the writers of [`report`]. The `arbiter`
//! command line is a thin binary over this library.
//!
//! # Examples
//!
//! Replay and judge every game of a PGN stream (any [`std::io::Read`]; [`Games::open`] opens a
//! file, compressed or not):
//!
//! ```
//! use arbiter::outcome::Outcome;
//! use arbiter::{Games, ReplayOptions};
//!
//! let pgn = "[White \"Greco\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n";
//! for game in Games::from_reader("greco.pgn", pgn.as_bytes(), ReplayOptions::default()) {
//!     let game = game?;
//!     assert_eq!(game.tags.white, "Greco");
//!     assert_eq!(game.classification.map(|c| c.outcome), Some(Outcome::Checkmate));
//!     assert_eq!(game.final_fen, "r1bqkb1r/pppp1Qpp/2n2n2/4p3/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 0 4");
//! }
//! # Ok::<(), arbiter::games::StreamError>(())
//! ```

#![warn(missing_docs)]

pub mod clocks;
pub mod games;
pub mod input;
pub mod outcome;
mod parallel;
pub mod pipeline;
pub mod replay;
pub mod report;

pub use arbiter_pgn as pgn;
pub use arbiter_rules as rules;

pub use games::Games;
pub use replay::{GameReport, ReplayOptions};

/// The README's examples, compiled and run as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeExamples;
