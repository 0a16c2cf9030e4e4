//! arbiter: validate PGN chess archives move by move, list the legal moves of a FEN position, and
//! export every game's outcome.
//!
//! The crate is split the way the data flows: [`rules`] is the chess rules core (it knows nothing of
//! PGN), [`pgn`] turns bytes into games with exact source locations (it knows nothing of the rules),
//! the replay joins them into one [`GameReport`] per game, its [`Outcome`] judged and its
//! [`Problem`]s located; [`Games`] reads the games of one stream that way, one at a time, and
//! [`run`] reads many inputs on every core with the output in input order, written by a
//! [`GameFormatter`]: export's records ([`RecordFormatter`]) and ply rows ([`PlyFormatter`]),
//! validate's diagnostics ([`DiagnosticFormatter`]) and summary ([`Totals`]), as CSV, JSON, JSON
//! Lines or Parquet, to a [`Sink`] that never leaves a half file. The `arbiter` command line is a
//! thin binary over this library.
//!
//! Everything is at the crate root but for three namespaces: the two crates below ([`rules`],
//! [`pgn`]) and [`sink`] (the `-o FILE` output and how it tells an output that is an input), with
//! [`parquet`] beside them when the `parquet` feature is on, and `arrow` (rows as Arrow record
//! batches) when the `arrow` feature is.
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
//!     assert_eq!(game.final_fen, "r1bqkb1r/pppp1Qpp/2n2n2/4p3/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 0 4");
//! }
//! # Ok::<(), arbiter::StreamError>(())
//! ```

#![warn(missing_docs)]
#![doc(test(attr(deny(warnings))))]

// The modules, bottom up (see `LAYERS` in the tests below, which hold each to using only those
// under it): text, problem (the vocabulary of problems), clocks, outcome, input, position
// (position keys and the opening table), tree (a game as select writes it, and the PGN writer),
// replay, games, report, parallel, pipeline, select, export; the rules core and the PGN reader under
// them all.
mod clocks;
mod export;
mod games;
mod input;
mod outcome;
mod parallel;
mod pipeline;
mod position;
mod problem;
mod replay;
mod report;
mod select;
mod text;
mod tree;

pub use arbiter_pgn as pgn;
pub use arbiter_rules as rules;

pub use clocks::{
    ClockEvidence, ClockWarning, Command, CommandProblem, Eval, Malformed, Millis, MoveAnnotations,
    Period, Speed, TimeControl, TimeControlError, read_commands,
};
pub use export::{
    ExportError, ExportFormatter, ExportOptions, ExportPlan, GameRows, game_tests, tag_columns,
};
pub use games::{Games, StreamError};
pub use input::{
    InputDigest, InputError, NotPgn, Source, Sources, StoredBytes, open_stream, sources,
};
pub use outcome::{Classification, GameResult, Outcome, Winner};
pub use pipeline::{Observer, run};
pub use position::{Classifier, Opening, OpeningTable, PositionKey, Status, Targets};
pub use problem::{Code, CodeCounts, MAX_PROBLEMS, Problem, Severities, Severity, Variation};
pub use replay::{
    DEFAULT_RULINGS_BUDGET, GameReport, PlyLog, PlyNote, ReplayOptions, Replayer, Tags,
};
#[cfg(feature = "arrow")]
pub use report::arrow;
pub use report::columns::{Column, ColumnKind};
pub use report::date::{CalendarDate, Date32};
pub use report::diagnostic::{Diagnostic, DiagnosticFormat, DiagnosticFormatter};
pub use report::moment::Moment;
pub use report::output::{Bytes, Cell, Destination, GameFormatter, GameNumber, Output};
#[cfg(feature = "parquet")]
pub use report::parquet;
#[cfg(feature = "parquet")]
pub use report::parquet::{ParquetError, ParquetOptions, ParquetWriter};
#[cfg(feature = "parquet")]
pub use report::parts;
pub use report::plies::{PLY_COLUMNS, PLY_FIELDS, PlyColumns, PlyFormatter};
pub use report::record::{
    ColumnSet, ExportFormat, ExportRecord, FIELDS, LICHESS_FIELDS, RecordFormatter,
};
pub use report::sink;
pub use report::sink::{Compression, Sink};
pub use report::summary::{InputTotals, Totals};
pub use report::table::Table;
pub use select::{
    Chooser, DedupMode, ExprError, Fields, Filter, KeptGames, RecordFields, Router, Schema,
    SelectCounts, SelectOptions, Type, Value, check_round_trip, needs_numbers, reads_opening,
    record_schema,
};
pub use text::{MAX_ECHO_CHARS, clip, counted, escape_controls, or_list, similar};
pub use tree::{GameTree, LINE_WIDTH, MoveText, Node, Span, WriteOptions, write_game};

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
    const LAYERS: [&str; 14] = [
        "text", "problem", "clocks", "outcome", "input", "position", "tree", "replay", "games",
        "report", "parallel", "pipeline", "select", "export",
    ];

    #[test]
    fn every_module_is_in_the_layers() {
        let declared: Vec<&str> = include_str!("lib.rs")
            .lines()
            .filter_map(|l| l.strip_prefix("mod ")?.strip_suffix(';'))
            .collect();
        assert_eq!(declared.len(), LAYERS.len());
        assert!(declared.iter().all(|m| LAYERS.contains(m)), "{declared:?}");
    }

    /// The code of a file: not its comments (doc links may point anywhere), not its unit tests.
    fn code(text: &str) -> String {
        let text = text
            .split("\n#[cfg(test)]\nmod ")
            .next()
            .unwrap_or_default();
        text.lines()
            .filter(|l| !l.trim_start().starts_with("//"))
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// Every `.rs` file of `path` (a file, or a directory and the one beside it named `NAME.rs`).
    fn files(path: &Path) -> Vec<std::path::PathBuf> {
        let mut found = Vec::new();
        if path.with_extension("rs").is_file() {
            found.push(path.with_extension("rs"));
        }
        if let Ok(entries) = std::fs::read_dir(path) {
            for entry in entries.flatten() {
                found.extend(files(&entry.path().with_extension("")));
            }
        }
        found.sort();
        found.dedup();
        found
    }

    /// The names that follow `prefix` in `code`: `prefix` then a name, or a group in braces
    /// (`prefix{a::X, b::{Y, Z}}`) whose first names count.
    fn used<'a>(code: &'a str, prefix: &str) -> Vec<&'a str> {
        let name = |rest: &'a str| {
            let rest = rest.trim_start();
            let end = rest
                .find(|c: char| !(c.is_ascii_lowercase() || c == '_'))
                .unwrap_or(rest.len());
            &rest[..end]
        };
        let mut names = Vec::new();
        for (i, _) in code.match_indices(prefix) {
            let rest = &code[i + prefix.len()..];
            let Some(group) = rest.strip_prefix('{') else {
                names.push(name(rest));
                continue;
            };
            let mut depth = 1;
            let mut start = 0;
            for (at, c) in group.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 1 => {
                        names.push(name(&group[start..]));
                        break;
                    }
                    '}' => depth -= 1,
                    ',' if depth == 1 => {
                        names.push(name(&group[start..]));
                        start = at + 1;
                    }
                    _ => {}
                }
            }
        }
        names.retain(|n| !n.is_empty());
        names
    }

    #[test]
    fn modules_use_only_the_modules_above_them() {
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let order = LAYERS;
        for (at, module) in order.iter().enumerate() {
            let found = files(&src.join(module));
            assert!(!found.is_empty(), "{module}");
            for file in found {
                let text = std::fs::read_to_string(&file).unwrap_or_default();
                for name in used(&code(&text), "crate::") {
                    let Some(below) = order.iter().position(|m| *m == name) else {
                        continue;
                    };
                    assert!(
                        below <= at,
                        "{} uses crate::{name}, which is not under {module}",
                        file.display()
                    );
                }
            }
        }
    }

    /// The files of `report` in their order: each uses only those before it.
    #[test]
    fn report_files_use_only_the_files_before_them() {
        let report = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/report");
        let order = [
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
            "sink",
            "parts",
        ];
        let declared = std::fs::read_to_string(report.join("mod.rs")).unwrap_or_default();
        assert_eq!(
            used(&code(&declared), "pub mod ").len(),
            order.len(),
            "every file of report is in the order"
        );
        for (at, name) in order.iter().enumerate() {
            for file in files(&report.join(name)) {
                let text = std::fs::read_to_string(&file).unwrap_or_default();
                for used in used(&code(&text), "crate::report::") {
                    let below = order.iter().position(|m| *m == used);
                    assert!(
                        below.is_some_and(|below| below < at || used == *name),
                        "{} uses report::{used}, which is not before {name}",
                        file.display()
                    );
                }
            }
        }
    }
}
