//! What `select` does with each game once it is replayed, on the worker that replayed it: test it
//! against `--where` and `--position`, name its opening, fix its result where the board decides,
//! write it as clean PGN (or as it was), and compute its dedup key; the verdict goes on as a
//! [`Frame`] for the [`Router`](super::route::Router) to act on in input order.
//!
//! `--where` tests the game's export record ([`RecordFields`]): the same fields, with the same
//! values, as `export` writes.

use super::dedup::{DedupMode, key};
use super::expr::{Fields, Filter, Schema, Type, Value};
use super::frame::{Frame, Warning};
use crate::outcome::{Outcome, Winner};
use crate::pgn::GameResult;
use crate::replay::GameReport;
use crate::report::columns::ColumnKind;
use crate::report::output::{Cell, GameFormatter, GameNumber, Output};
use crate::report::record::{COLUMNS, ExportRecord, OPENING_COLUMNS, POSITION_PLY, WHERE_FIELDS};
use crate::tree::{WriteOptions, write_game};

/// The schema `--where` reads: export's fixed columns and the opening columns, then
/// `position_ply` when positions are looked for.
pub fn record_schema(position: bool) -> Schema {
    let fixed = COLUMNS.iter().chain(&OPENING_COLUMNS);
    let position = position.then_some(&POSITION_PLY);
    Schema::new(fixed.chain(position).map(|&(name, kind, _)| {
        let kind = match kind {
            ColumnKind::Int64 | ColumnKind::Int32 | ColumnKind::Int16 | ColumnKind::UInt32 => {
                Type::Int
            }
            ColumnKind::Float64 => Type::Float,
            ColumnKind::Bool => Type::Bool,
            ColumnKind::String
            | ColumnKind::Date
            | ColumnKind::Time
            | ColumnKind::TimeMillisUtc
            | ColumnKind::Timestamp => Type::Text,
        };
        (name, kind)
    }))
}

/// Whether `filter` reads a field known only in input order (`index`, `game`): a game's numbers
/// are not known on a worker reading a part of an input, so such a filter runs on one job.
pub fn needs_numbers(filter: &Filter) -> bool {
    filter.reads(0) || filter.reads(2)
}

/// Whether `filter` reads the opening columns, which only a replay that names openings
/// ([`ReplayOptions::eco`](crate::ReplayOptions::eco)) fills.
pub fn reads_opening(filter: &Filter) -> bool {
    (COLUMNS.len()..WHERE_FIELDS).any(|field| filter.reads(field))
}

/// A game's export record as the fields of `--where`, and its tags.
pub struct RecordFields<'a> {
    cells: [Cell<'a>; WHERE_FIELDS],
    /// `Some` when `position_ply` is a field.
    position_ply: Option<Option<u32>>,
    tags: &'a dyn Fn(&str) -> Option<&'a str>,
}

impl<'a> RecordFields<'a> {
    /// The fields of `record` (with `position_ply` when `position`), its tags found by `tags`.
    pub fn new(
        record: &ExportRecord<'a>,
        position: bool,
        tags: &'a dyn Fn(&str) -> Option<&'a str>,
    ) -> RecordFields<'a> {
        RecordFields {
            cells: record.cells(),
            position_ply: position.then_some(record.position_ply),
            tags,
        }
    }
}

impl Fields for RecordFields<'_> {
    fn value(&self, field: usize) -> Value<'_> {
        let Some(cell) = self.cells.get(field) else {
            return match self.position_ply {
                Some(Some(ply)) => Value::Int(ply.into()),
                _ => Value::Null,
            };
        };
        match *cell {
            Cell::Null => Value::Null,
            Cell::Str(s) | Cell::Plain(s) => Value::Text(s),
            Cell::Int(n) => Value::Int(n),
            Cell::Seconds(ms) => Value::Float(f64::from(ms) / 1000.0),
            Cell::Bool(b) => Value::Bool(b),
            Cell::Date(ref date) => Value::Text(std::str::from_utf8(date.iso()).unwrap_or("")),
            Cell::Moment(ref moment) => {
                Value::Text(std::str::from_utf8(moment.text()).unwrap_or(""))
            }
            // A number not known on this worker is null: see `needs_numbers`.
            Cell::Run(GameNumber::Known { run, .. }) => Value::Int(run as i64),
            Cell::Input(GameNumber::Known { input, .. }) => Value::Int(input as i64),
            Cell::Run(_) | Cell::Input(_) => Value::Null,
        }
    }

    fn tag(&self, name: &str) -> Option<&str> {
        (self.tags)(name)
    }
}

/// What select was asked to do with each game.
#[derive(Debug, Default)]
pub struct SelectOptions {
    /// `--where`.
    pub filter: Option<Filter>,
    /// `--position` was given: a game must reach one of the positions.
    pub positions: bool,
    /// `--dedup`.
    pub dedup: Option<DedupMode>,
    /// `--eco`: write the ECO and Opening tags the table names.
    pub eco: bool,
    /// `--fix-result`.
    pub fix_result: bool,
    /// What the writer keeps.
    pub write: WriteOptions,
    /// A `--rejected` or `--duplicates` file wants the original text of games.
    pub keep_source: bool,
}

/// Makes each game's [`Frame`]; one per worker, reusing its buffers.
pub struct Chooser<'a> {
    options: &'a SelectOptions,
    key: Vec<u8>,
    place: String,
    message: String,
}

impl<'a> Chooser<'a> {
    /// A chooser doing what `options` ask.
    pub fn new(options: &'a SelectOptions) -> Chooser<'a> {
        Chooser {
            options,
            key: Vec::new(),
            place: String::new(),
            message: String::new(),
        }
    }
}

/// The result the board decides, when it decides one: mate, stalemate, insufficient material,
/// a dead position, fivefold repetition, the 75-move rule, and the draw of a flag fall against
/// a side that cannot mate (Law 6.9).
fn board_result(report: &GameReport) -> Option<GameResult> {
    let judged = report.classification?;
    let decided = matches!(
        judged.outcome,
        Outcome::Checkmate
            | Outcome::Stalemate
            | Outcome::InsufficientMaterial
            | Outcome::DeadPosition
            | Outcome::FivefoldRepetition
            | Outcome::SeventyfiveMoves
    ) || judged.unwinnable_flag_fall.is_some();
    match judged.winner {
        _ if !decided => None,
        Winner::White => Some(GameResult::WhiteWins),
        Winner::Black => Some(GameResult::BlackWins),
        Winner::Draw => Some(GameResult::Draw),
        Winner::Unknown => None,
    }
}

/// How the board's end is named in a warning.
fn named(outcome: Outcome) -> &'static str {
    match outcome {
        Outcome::Checkmate => "checkmate",
        Outcome::Stalemate => "stalemate",
        Outcome::InsufficientMaterial => "insufficient material",
        Outcome::DeadPosition => "a dead position",
        Outcome::FivefoldRepetition => "fivefold repetition",
        Outcome::SeventyfiveMoves => "the 75-move rule",
        Outcome::TimeForfeit => "a flag fall against a side that cannot mate (Law 6.9)",
        other => other.as_str(),
    }
}

/// Appends `bytes` and ends them with a blank line (a line end, then an empty line), unless
/// they end so already: a game written as it was is kept apart from the next.
pub fn with_blank_line(bytes: &[u8], out: &mut Vec<u8>) {
    out.extend_from_slice(bytes);
    if !out.ends_with(b"\n") {
        out.push(b'\n');
    }
    let body = &out[..out.len() - 1];
    let body = body.strip_suffix(b"\r").unwrap_or(body);
    if !body.is_empty() && !body.ends_with(b"\n") {
        out.push(b'\n');
    }
}

impl GameFormatter for Chooser<'_> {
    fn format(&mut self, source: &str, number: GameNumber, report: &GameReport, out: &mut Output) {
        let options = self.options;
        let tree = &report.tree;
        let invalid = report.errors > 0;
        let record = ExportRecord::from_report(source, number, report);
        let tags = |name: &str| tree.tag_value(name);
        let passes = options.filter.as_ref().is_none_or(|filter| {
            filter.matches(&RecordFields::new(&record, options.positions, &tags))
        }) && (!options.positions || report.position_ply.is_some());
        let original: &[u8] = if options.keep_source {
            &report.source
        } else {
            &[]
        };
        if !passes {
            let frame = Frame {
                rejected: true,
                invalid,
                source: original,
                ..Frame::default()
            };
            frame.write(out.bytes_mut());
            return;
        }
        let declared = tree.declared_result();
        let fixed = board_result(report)
            .filter(|&board| options.fix_result && !invalid && declared != Some(board));
        let Some(result) = fixed
            .or(declared)
            .filter(|_| !invalid && tree.is_complete())
        else {
            let frame = Frame {
                invalid,
                unchanged: true,
                ..Frame::default()
            };
            frame.write_with(out.bytes_mut(), |out| with_blank_line(&report.source, out));
            return;
        };
        let opening = options
            .eco
            .then_some(report.opening)
            .flatten()
            .map(|o| (o.eco, o.name));
        self.key.clear();
        if let Some(mode) = options.dedup {
            key(tree, mode, result.as_str(), &mut self.key);
        }
        let warning = match (fixed, report.classification) {
            (Some(fixed), Some(judged)) => {
                self.place = format!("{source}:{}", report.result_at);
                let old = tree.tag_value("Result").unwrap_or("");
                self.message = format!(
                    "Result \"{old}\" replaced by \"{}\": the board shows {}",
                    fixed.as_str(),
                    named(judged.outcome)
                );
                Some(Warning {
                    number,
                    place: &self.place,
                    message: &self.message,
                })
            }
            _ => None,
        };
        let frame = Frame {
            fixed: fixed.is_some(),
            source: if options.dedup.is_some() {
                original
            } else {
                &[]
            },
            key: options.dedup.map(|_| &self.key[..]),
            warning,
            ..Frame::default()
        };
        frame.write_with(out.bytes_mut(), |out| {
            write_game(tree, result, opening, &options.write, out)
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_written_as_it_was_ends_with_one_blank_line() {
        for (bytes, expected) in [
            (&b"1. e4 *"[..], &b"1. e4 *\n\n"[..]),
            (b"1. e4 *\n", b"1. e4 *\n\n"),
            (b"1. e4 *\n\n", b"1. e4 *\n\n"),
            (b"1. e4 *\n\n\n", b"1. e4 *\n\n\n"),
            (b"1. e4 *\r\n", b"1. e4 *\r\n\n"),
            (b"1. e4 *\r\n\r\n", b"1. e4 *\r\n\r\n"),
            (b"", b"\n"),
        ] {
            let mut out = Vec::new();
            with_blank_line(bytes, &mut out);
            assert_eq!(out, expected, "{:?}", String::from_utf8_lossy(bytes));
            // Twice is once.
            let mut again = Vec::new();
            with_blank_line(&out, &mut again);
            assert_eq!(again, out);
        }
    }

    #[test]
    fn the_schema_is_exports_columns_typed() {
        let schema = record_schema(false);
        assert_eq!(schema.find("white_elo"), Some((18, Type::Int)));
        assert_eq!(schema.find("valid").map(|f| f.1), Some(Type::Bool));
        assert_eq!(schema.find("played_on").map(|f| f.1), Some(Type::Text));
        assert_eq!(schema.find("white_clock").map(|f| f.1), Some(Type::Float));
        assert_eq!(schema.find("eco_computed").map(|f| f.1), Some(Type::Text));
        assert_eq!(schema.find("position_ply"), None);
        assert_eq!(
            record_schema(true).find("position_ply"),
            Some((WHERE_FIELDS, Type::Int))
        );
    }
}
