//! arbiter: validate PGN chess archives move by move, list the legal moves of a FEN position, and
//! export every game's outcome.
//!
//! The crate is split the way the data flows: [`rules`] is the chess rules core (it knows nothing of
//! PGN), [`pgn`] turns bytes into games with exact source locations (it knows nothing of the rules),
//! and the command-line front end in [`cli`] joins them.

#![warn(missing_docs)]

pub mod cli;
pub mod clocks;
pub mod input;
pub mod outcome;
pub mod parallel;
pub mod pgn;
pub mod replay;
pub mod report;
pub mod rules;
