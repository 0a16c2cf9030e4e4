//! arbiter-report: arbiter's writers, over the judgment of arbiter-core and knowing nothing of
//! where files are. Export's game rows ([`record`]) and ply rows ([`plies`]), each described once
//! as a table of columns whose rows hold a column's name, type and cell, written as CSV, JSON,
//! JSON Lines ([`table`]) or Parquet (`parquet`, with the `parquet` feature, on by default), or
//! handed on as Arrow record batches (`arrow`, with the `arrow` feature); validate's diagnostics
//! ([`diagnostic`]) and summary ([`summary`]); and the PGN writer of `select` ([`pgn_writer`]).
//!
//! Every writer formats into a caller-owned [`Output`], so records can be
//! formatted on worker threads and written to the output in input order by one thread, game
//! numbers filled in then where they were not known.
//!
//! The files form a one-way stack, each using only those before it: `decimal` (digits without
//! `format!`), `date`, `moment` (times
//! of day and instants), `columns` (a table's schema), `columnar` (rows held column by column, for
//! the Parquet writer and the Arrow batches), `parquet` (the Parquet writer, with the `parquet`
//! feature), `output` (a batch's output, its cells and where it goes), `arrow` (rows as Arrow record
//! batches, with the `arrow` feature), `table` (a row's
//! cells in each format), `movetext` (a main line in SAN), then the writers: `record` (a row per
//! game), `plies` (a row per ply), `diagnostic` (a problem located), `summary` (what a run
//! counted), `pgn_writer` (a game as clean PGN); and `parts` (Parquet parts and their manifest,
//! with the `parquet` feature).
//!
//! # Examples
//!
//! A game's record as one line of JSON Lines:
//!
//! ```
//! use arbiter_core::{Games, ReplayOptions};
//! use arbiter_report::{ExportFormat, GameFormatter, GameNumber, Output, RecordFormatter};
//! use arbiter_report::record::ColumnSet;
//!
//! let pgn = "[Result \"1-0\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n";
//! let mut records = RecordFormatter::new(ExportFormat::Jsonl, ColumnSet::default(), &[]);
//! let mut out = Output::default();
//! for game in Games::from_reader("greco.pgn", pgn.as_bytes(), ReplayOptions::default()) {
//!     let number = GameNumber::Known { run: 1, input: 1 };
//!     records.format("greco.pgn", number, &game?, &mut out);
//! }
//! let line = std::str::from_utf8(out.bytes()).unwrap();
//! assert!(line.starts_with("{\"index\":1,\"file\":\"greco.pgn\",\"game\":1,"));
//! assert!(line.contains("\"outcome\":\"checkmate\",\"winner\":\"white\""));
//! # Ok::<(), arbiter_core::StreamError>(())
//! ```

#![warn(missing_docs)]
#![doc(test(attr(deny(warnings))))]

#[cfg(feature = "arrow")]
pub mod arrow;
#[cfg(feature = "parquet")]
mod columnar;
pub mod columns;
pub mod date;
mod decimal;
pub mod diagnostic;
pub mod moment;
mod movetext;
pub mod output;
#[cfg(feature = "parquet")]
pub mod parquet;
#[cfg(feature = "parquet")]
pub mod parts;
pub mod pgn_writer;
pub mod plies;
pub mod record;
pub mod summary;
pub mod table;

pub use output::{GameFormatter, GameNumber, Output};
pub use plies::PlyFormatter;
pub use record::RecordFormatter;
pub use summary::Totals;
pub use table::ExportFormat;

/// The README's examples, compiled and run as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeExamples;

#[cfg(test)]
mod tests {
    use std::path::Path;

    /// The modules, bottom up: each may use only those before it.
    const LAYERS: [&str; 16] = [
        "decimal",
        "date",
        "moment",
        "columns",
        "columnar",
        "parquet",
        "output",
        "arrow",
        "table",
        "movetext",
        "record",
        "plies",
        "diagnostic",
        "summary",
        "pgn_writer",
        "parts",
    ];

    #[test]
    fn modules_use_only_the_modules_under_them() {
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let found = arbiter_test_support::layers::violations(&src, &LAYERS);
        assert!(found.is_empty(), "{}", found.join("\n"));
    }
}
