//! arbiter-core: the judgment of a chess game, and no file format. Every game of a PGN stream is
//! replayed through arbiter's rules core ([`arbiter_rules`]) as the PGN reader ([`arbiter_pgn`])
//! reads it, into one [`GameReport`]: its tags, its final position, its [`Outcome`] judged by the
//! FIDE Laws, and its [`Problem`]s located in the source.
//!
//! - [`games`]: [`Games`], the games of one stream (any reader, or a file opened through
//!   [`arbiter_io`]), read, replayed and judged one at a time;
//! - [`replay`]: the [`Replayer`] (a PGN visitor), its [`ReplayOptions`] and its [`GameReport`];
//! - [`outcome`]: the outcome categories, the winner, and whether the Result agrees with the board;
//! - [`problem`]: the vocabulary of problems ([`Problem`], [`problem::Code`], [`problem::Severity`]);
//! - [`clocks`]: `[%clk]`, `[%emt]`, `[%eval]` and the `TimeControl` tag, and what clocks prove;
//! - [`position`]: a position's identity for repetitions and `--position`, its status, and the
//!   opening table;
//! - [`tree`]: a game as `select` writes it back;
//! - [`text`]: input echoed in a message, made safe to print.
//!
//! Compressed files are read when the feature of their codec is on (`gzip`, `zstd`, `bzip2`,
//! `xz`, passed on to arbiter-io; none by default): without it, [`Games::open`] names the feature a
//! file needs.
//!
//! # Examples
//!
//! Replay and judge every game of a PGN stream (any [`std::io::Read`]):
//!
//! ```
//! use arbiter_core::{Games, Outcome, ReplayOptions};
//!
//! let pgn = "[White \"Greco\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n";
//! for game in Games::from_reader("greco.pgn", pgn.as_bytes(), ReplayOptions::default()) {
//!     let game = game?;
//!     assert_eq!(game.tags.white, "Greco");
//!     assert_eq!(game.classification.map(|c| c.outcome), Some(Outcome::Checkmate));
//!     assert_eq!(game.final_fen, "r1bqkb1r/pppp1Qpp/2n2n2/4p3/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 0 4");
//! }
//! # Ok::<(), arbiter_core::StreamError>(())
//! ```

#![warn(missing_docs)]
#![doc(test(attr(deny(warnings))))]

pub mod clocks;
pub mod games;
pub mod outcome;
pub mod position;
pub mod problem;
pub mod replay;
pub mod text;
pub mod tree;

pub use games::{Games, StreamError};
pub use outcome::{Classification, Outcome, Winner};
pub use problem::Problem;
pub use replay::{GameReport, ReplayOptions, Replayer};

/// The README's examples, compiled and run as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeExamples;

#[cfg(test)]
mod tests {
    use std::path::Path;

    /// The modules, bottom up: each may use only those before it.
    const LAYERS: [&str; 8] = [
        "text", "problem", "clocks", "outcome", "position", "tree", "replay", "games",
    ];

    #[test]
    fn modules_use_only_the_modules_under_them() {
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let found = arbiter_test_support::layers::violations(&src, &LAYERS);
        assert!(found.is_empty(), "{}", found.join("\n"));
    }
}
