//! arbiter: validate PGN chess archives move by move, export every game's outcome, and select
//! games and write them back as clean PGN, from Rust. The `arbiter` command line is a thin binary
//! over this crate, and the Python package another.
//!
//! This crate is the façade of arbiter's crates, each with one job, re-exported as namespaces
//! (ripgrep's `grep` and its `grep-searcher`, `grep-printer` show the shape):
//!
//! - [`rules`] (`arbiter-rules`): the chess rules core, which knows nothing of PGN;
//! - [`pgn`] (`arbiter-pgn`): the PGN reader, which knows nothing of the rules;
//! - [`io`] (`arbiter-io`): inputs (files, directories, patterns, standard input, decompressed
//!   in process) and the `-o` sink that never leaves a half file nor overwrites an input;
//! - [`core`] (`arbiter-core`): the replay that joins rules and reader, the outcome, the problems,
//!   the clocks: one judged [`GameReport`] per game, read one stream at a time by [`Games`];
//! - [`report`] (`arbiter-report`): export's rows as CSV, JSON, JSON Lines or Parquet, validate's
//!   diagnostics and summary, the PGN writer.
//!
//! Its own modules run the whole: [`pipeline`] reads many inputs on every core with the output in
//! input order ([`run`]); [`export`] checks export's options once ([`ExportPlan`]); [`select`]
//! keeps, deduplicates and routes games (its `--where` language is also export's).
//!
//! # Examples
//!
//! Replay and judge every game of a PGN stream (any [`std::io::Read`]; [`Games::open`] opens a
//! file, compressed or not):
//!
//! ```
//! use arbiter::{Games, Outcome, ReplayOptions};
//!
//! let pgn = "[White \"Greco\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n";
//! for game in Games::from_reader("greco.pgn", pgn.as_bytes(), ReplayOptions::default()) {
//!     let game = game?;
//!     assert_eq!(game.tags.white, "Greco");
//!     assert_eq!(game.classification.map(|c| c.outcome), Some(Outcome::Checkmate));
//! }
//! # Ok::<(), arbiter::core::StreamError>(())
//! ```
//!
//! Export the records of many inputs as CSV, on every core, in input order:
//!
//! ```no_run
//! use arbiter::report::output::Bytes;
//! use arbiter::{ExportFormat, ExportOptions, ExportPlan};
//!
//! let plan = ExportPlan::new(&ExportOptions::default(), ExportFormat::Csv)?;
//! let mut out = Bytes { out: std::io::stdout(), rows: 0 };
//! let inputs = ["games.pgn".into(), "archive/".into()];
//! let totals = arbiter::run(&inputs, None, plan.jobs(4), &plan.replay_options(), || plan.formatter(), &mut out, &())?;
//! eprintln!("{} games, {} invalid", totals.counts.games, totals.counts.invalid);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![warn(missing_docs)]
#![doc(test(attr(deny(warnings))))]

pub mod export;
mod parallel;
pub mod pipeline;
pub mod select;

pub use arbiter_core as core;
pub use arbiter_io as io;
pub use arbiter_pgn as pgn;
pub use arbiter_report as report;
pub use arbiter_rules as rules;

pub use arbiter_core::{GameReport, Games, Outcome, Problem, ReplayOptions};
pub use arbiter_report::{ExportFormat, Totals};
pub use export::{ExportOptions, ExportPlan};
pub use pipeline::{Observer, run};

/// The README's examples, compiled and run as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeExamples;

/// The Rust examples of the workspace's README (the command's, whose binary crate has no doc
/// tests), compiled and run as doc tests of the library they show.
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
struct WorkspaceReadmeExamples;

#[cfg(test)]
mod tests {
    use std::path::Path;

    /// The modules, bottom up: each may use only those before it.
    const LAYERS: [&str; 4] = ["parallel", "pipeline", "select", "export"];

    #[test]
    fn modules_use_only_the_modules_under_them() {
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let found = arbiter_test_support::layers::violations(&src, &LAYERS);
        assert!(found.is_empty(), "{}", found.join("\n"));
    }
}
