//! One export record per game, as a row of [`crate::report::table`]: CSV, JSON (one streamed
//! array), JSON Lines or Parquet.
//!
//! The columns, in this order (`docs/export-fields.md` says what each means and its type):
//! `index, file, game, event, site, date, round, white, black, result, plies, outcome, winner,
//! result_consistent, final_fen, valid, error, end_ply`, then the typed columns read from tags
//! and clocks (`white_elo, black_elo, eco, opening, termination, time_control, base_seconds,
//! increment_seconds, speed, played_on, utc_time, white_clock, black_clock`), then one column per
//! tag asked for with `--tags`.

use crate::clocks::Millis;
use crate::outcome::{Outcome, Winner};
use crate::replay::GameReport;
use crate::report::columns::{Column, ColumnKind};
use crate::report::date::CalendarDate;
use crate::report::output::{Cell, GameFormatter, GameNumber, Output};
pub use crate::report::table::ExportFormat;
use crate::report::table::{Table, is_plain};

/// The fixed export fields, in order, with their types.
pub const COLUMNS: [(&str, ColumnKind, bool); 33] = {
    use ColumnKind::{Bool, Date, Float64, Int32, Int64, String};
    [
        ("index", Int64, false),
        ("file", String, false),
        ("game", Int64, false),
        ("event", String, false),
        ("site", String, false),
        ("date", String, false),
        ("round", String, false),
        ("white", String, false),
        ("black", String, false),
        ("result", String, false),
        ("plies", Int32, false),
        ("outcome", String, false),
        ("winner", String, false),
        ("result_consistent", Bool, false),
        ("final_fen", String, false),
        ("valid", Bool, false),
        ("error", String, false),
        ("end_ply", Int32, true),
        ("white_elo", Int32, true),
        ("black_elo", Int32, true),
        ("eco", String, true),
        ("opening", String, true),
        ("termination", String, true),
        ("time_control", String, true),
        ("base_seconds", Int32, true),
        ("increment_seconds", Int32, true),
        ("speed", String, true),
        ("played_on", Date, true),
        ("utc_time", String, true),
        ("white_clock", Float64, true),
        ("black_clock", Float64, true),
        ("eco_computed", String, true),
        ("opening_computed", String, true),
    ]
};

/// The column `export --position` adds after the fixed ones: the first ply at which the main
/// line reaches one of the positions.
pub const POSITION_PLY: (&str, ColumnKind, bool) = ("position_ply", ColumnKind::Int32, true);

/// The fixed export fields' names, in order.
pub const FIELDS: [&str; COLUMNS.len()] = {
    let mut names = [""; COLUMNS.len()];
    let mut i = 0;
    while i < COLUMNS.len() {
        names[i] = COLUMNS[i].0;
        i += 1;
    }
    names
};

/// The record of one game, borrowed from wherever its fields live (for export, the replayer's
/// report): formatting copies each field once, straight into the output.
#[derive(Copy, Clone, Debug, Default, Eq, PartialEq)]
pub struct ExportRecord<'a> {
    /// The game's numbers: `index` across all inputs, `game` within its input.
    pub number: GameNumber,
    /// The input: the path as given, or `<stdin>`.
    pub file: &'a str,
    /// The `Event` tag.
    pub event: &'a str,
    /// The `Site` tag.
    pub site: &'a str,
    /// The `Date` tag.
    pub date: &'a str,
    /// The `Round` tag.
    pub round: &'a str,
    /// The `White` tag.
    pub white: &'a str,
    /// The `Black` tag.
    pub black: &'a str,
    /// The `Result` tag as written.
    pub result: &'a str,
    /// Plies replayed on the main line (up to the first illegal move for an invalid game).
    pub plies: u32,
    /// The outcome category.
    pub outcome: Option<Outcome>,
    /// Who won.
    pub winner: Option<Winner>,
    /// False when the Result contradicts the board.
    pub result_consistent: bool,
    /// FEN of the last position reached on the main line.
    pub final_fen: &'a str,
    /// `validate` reports no error for the game (main line, variations and tags).
    pub valid: bool,
    /// The game's first error, with its location, for an invalid game.
    pub error: &'a str,
    /// The ply at which an automatic end ended the game, when moves follow it.
    pub end_ply: Option<u32>,
    /// The `WhiteElo` and `BlackElo` tags as written.
    pub elo: [&'a str; 2],
    /// The `ECO` tag.
    pub eco: &'a str,
    /// The `Opening` tag.
    pub opening: &'a str,
    /// The `Termination` tag.
    pub termination: &'a str,
    /// The `TimeControl` tag.
    pub time_control: &'a str,
    /// The time control's first period, as (seconds, increment), when it is timed.
    pub base_and_increment: Option<(u32, u32)>,
    /// The time control's speed class (`blitz`...).
    pub speed: Option<&'a str>,
    /// The `UTCDate` and `Date` tags.
    pub utc_date: &'a str,
    /// The `UTCTime` tag.
    pub utc_time: &'a str,
    /// White's and Black's last `[%clk]`.
    pub final_clocks: [Option<Millis>; 2],
    /// The opening the table names: its ECO code and name.
    pub opening_computed: Option<(&'a str, &'a str)>,
    /// The first ply at which the main line reaches a position looked for.
    pub position_ply: Option<u32>,
    /// Values of the tags asked for with `--tags`, in that order (empty when absent).
    pub extra: &'a [String],
}

impl<'a> ExportRecord<'a> {
    /// The record of a replayed game of input `file`, numbered `number`: every field borrowed
    /// from the report.
    pub fn from_report(
        file: &'a str,
        number: GameNumber,
        report: &'a GameReport,
    ) -> ExportRecord<'a> {
        let tags = &report.tags;
        ExportRecord {
            number,
            file,
            event: &tags.event,
            site: &tags.site,
            date: &tags.date,
            round: &tags.round,
            white: &tags.white,
            black: &tags.black,
            result: &tags.result,
            plies: report.plies,
            outcome: report.classification.map(|c| c.outcome),
            winner: report.classification.map(|c| c.winner),
            result_consistent: report.classification.is_none_or(|c| c.result_consistent),
            final_fen: &report.final_fen,
            valid: report.errors == 0,
            error: &report.first_error,
            end_ply: report.end_ply,
            elo: [&tags.white_elo, &tags.black_elo],
            eco: &tags.eco,
            opening: &tags.opening,
            termination: &tags.termination,
            time_control: &tags.time_control,
            base_and_increment: report.base_and_increment,
            speed: report.speed.map(|speed| speed.as_str()),
            utc_date: &tags.utc_date,
            utc_time: &tags.utc_time,
            final_clocks: report.final_clocks,
            opening_computed: report.opening.map(|o| (o.eco, o.name)),
            position_ply: report.position_ply,
            extra: &tags.extra,
        }
    }

    /// The record's fixed fields as cells, in the order of [`COLUMNS`]: what export writes, and
    /// what `--where` tests.
    pub fn cells(&self) -> [Cell<'a>; COLUMNS.len()] {
        let r = self;
        [
            Cell::Run(r.number),
            Cell::Str(r.file),
            Cell::Input(r.number),
            Cell::Str(r.event),
            Cell::Str(r.site),
            Cell::Str(r.date),
            Cell::Str(r.round),
            Cell::Str(r.white),
            Cell::Str(r.black),
            Cell::Str(r.result),
            Cell::Int(i64::from(r.plies)),
            Cell::Plain(r.outcome.map_or("", Outcome::as_str)),
            Cell::Plain(r.winner.map_or("", Winner::as_str)),
            Cell::Bool(r.result_consistent),
            Cell::Plain(r.final_fen),
            Cell::Bool(r.valid),
            Cell::Str(r.error),
            r.end_ply
                .map_or(Cell::Null, |ply| Cell::Int(i64::from(ply))),
            rating(r.elo[0]),
            rating(r.elo[1]),
            known(r.eco),
            text(r.opening),
            text(r.termination),
            text(r.time_control),
            r.base_and_increment
                .map_or(Cell::Null, |(base, _)| Cell::Int(base.into())),
            r.base_and_increment
                .map_or(Cell::Null, |(_, inc)| Cell::Int(inc.into())),
            r.speed.map_or(Cell::Null, Cell::Plain),
            CalendarDate::from_pgn(r.utc_date)
                .or_else(|| CalendarDate::from_pgn(r.date))
                .map_or(Cell::Null, Cell::Date),
            known(r.utc_time),
            r.final_clocks[0].map_or(Cell::Null, Cell::Seconds),
            r.final_clocks[1].map_or(Cell::Null, Cell::Seconds),
            r.opening_computed
                .map_or(Cell::Null, |(eco, _)| Cell::Plain(eco)),
            r.opening_computed
                .map_or(Cell::Null, |(_, name)| Cell::Str(name)),
        ]
    }
}

/// Formats records into a batch's output.
pub struct RecordFormatter {
    table: Table,
    /// Whether the `position_ply` column is written.
    position: bool,
    /// The last input name seen, and whether it is plain text (every game of an input repeats
    /// it, and looking at it once is enough).
    file: (String, bool),
}

impl RecordFormatter {
    /// A formatter for `format` with extra tag columns `extra_tags`.
    pub fn new(format: ExportFormat, extra_tags: Vec<String>) -> RecordFormatter {
        RecordFormatter::with_position(format, extra_tags, false)
    }

    /// A formatter for `format` with the `position_ply` column when `position` is set, then
    /// extra tag columns `extra_tags`.
    pub fn with_position(
        format: ExportFormat,
        extra_tags: Vec<String>,
        position: bool,
    ) -> RecordFormatter {
        RecordFormatter {
            position,
            table: Table::new(format, columns_with(&extra_tags, position)),
            file: (String::new(), true),
        }
    }

    /// The table (for the header and footer).
    pub fn table(&self) -> &Table {
        &self.table
    }

    /// Appends one record.
    pub fn record(&mut self, r: &ExportRecord<'_>, out: &mut Output) {
        if self.file.0 != r.file {
            self.file = (r.file.to_owned(), is_plain(r.file));
        }
        let file = if self.file.1 {
            Cell::Plain(r.file)
        } else {
            Cell::Str(r.file)
        };
        let mut row = self.table.row(out);
        let mut cells = r.cells();
        cells[1] = file;
        for cell in cells {
            row.cell(cell);
        }
        if self.position {
            row.cell(
                r.position_ply
                    .map_or(Cell::Null, |ply| Cell::Int(ply.into())),
            );
        }
        for value in r.extra {
            row.cell(Cell::Str(value));
        }
        row.end();
    }
}

impl GameFormatter for RecordFormatter {
    fn format(&mut self, source: &str, number: GameNumber, report: &GameReport, out: &mut Output) {
        self.record(&ExportRecord::from_report(source, number, report), out);
    }
}

/// The columns of a game row: the fixed ones, `position_ply` when `position` is set, then
/// `extra_tags`.
pub fn columns_with(extra_tags: &[String], position: bool) -> Vec<Column> {
    COLUMNS
        .iter()
        .chain(position.then_some(&POSITION_PLY))
        .map(|&(name, kind, nullable)| Column {
            name: name.to_owned(),
            kind,
            nullable,
        })
        .chain(
            extra_tags
                .iter()
                .map(|tag| Column::required(tag.as_str(), ColumnKind::String)),
        )
        .collect()
}

/// An Elo tag's value as a number: digits only (spaces around allowed), else null (`?`, `-`, an
/// empty or unrated value).
fn rating(value: &str) -> Cell<'static> {
    let value = value.trim_ascii().as_bytes();
    if value.is_empty() || value.len() > 6 {
        return Cell::Null;
    }
    let mut n = 0;
    for &b in value {
        let digit = b.wrapping_sub(b'0');
        if digit > 9 {
            return Cell::Null;
        }
        n = n * 10 + i64::from(digit);
    }
    Cell::Int(n)
}

/// A tag's value, null when empty.
fn text(value: &str) -> Cell<'_> {
    if value.is_empty() {
        Cell::Null
    } else {
        Cell::Str(value)
    }
}

/// A tag's value, null when empty or unknown (`?`, `??:??:??`).
fn known(value: &str) -> Cell<'_> {
    let value = value.trim();
    if value.is_empty() || value.bytes().all(|b| matches!(b, b'?' | b':' | b'.')) {
        Cell::Null
    } else {
        Cell::Str(value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(extra: &[String]) -> ExportRecord<'_> {
        ExportRecord {
            number: GameNumber::Known { run: 7, input: 7 },
            file: "a, b.pgn",
            event: "Rated \"Blitz\", game",
            date: "2025.05.01",
            white: "Ann",
            black: "Bob",
            result: "1-0",
            plies: 41,
            outcome: Some(Outcome::Checkmate),
            winner: Some(Winner::White),
            result_consistent: true,
            final_fen: "7k/6Q1/6K1/8/8/8/8/8 b - - 1 21",
            valid: true,
            elo: ["2400", "?"],
            eco: "C20",
            time_control: "180+2",
            base_and_increment: Some((180, 2)),
            speed: Some("blitz"),
            utc_time: "??:??:??",
            final_clocks: [Some(61_500), None],
            extra,
            ..ExportRecord::default()
        }
    }

    fn format(format: ExportFormat, records: &[ExportRecord<'_>]) -> String {
        let mut f = RecordFormatter::new(format, vec!["WhiteElo".into()]);
        let mut out = Vec::new();
        f.table().header(&mut out);
        let mut body = Output::default();
        for (i, r) in records.iter().enumerate() {
            // Numbered from 1, or left for later: the same text either way.
            let number = match i % 2 {
                0 => GameNumber::Known {
                    run: i as u64 + 1,
                    input: i as u64 + 1,
                },
                _ => GameNumber::Later { in_batch: i as u64 },
            };
            f.record(&ExportRecord { number, ..*r }, &mut body);
        }
        body.write_to(0, 0, &mut 0, &mut out).unwrap();
        f.table().footer(!records.is_empty(), &mut out);
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn csv_has_a_header_and_quotes_where_needed() {
        let header = FIELDS.join(",") + ",WhiteElo\n";
        assert_eq!(
            format(ExportFormat::Csv, &[record(&["2400".to_string()])]),
            header
                + "1,\"a, b.pgn\",1,\"Rated \"\"Blitz\"\", game\",,2025.05.01,,Ann,Bob,1-0,41,\
                   checkmate,white,true,7k/6Q1/6K1/8/8/8/8/8 b - - 1 21,true,,,2400,,C20,,,180+2,\
                   180,2,blitz,2025-05-01,,61.5,,,,2400\n"
        );
    }

    #[test]
    fn jsonl_keeps_field_order_and_types() {
        let line = format(ExportFormat::Jsonl, &[record(&["2400".to_string()])]);
        assert!(line.ends_with('\n'));
        let value: serde_json::Value = line.trim_end().parse().unwrap();
        let mut expected: Vec<String> = FIELDS.iter().map(|s| s.to_string()).collect();
        expected.push("WhiteElo".into());
        // serde_json's map is sorted unless preserve_order is on: compare the order through the
        // raw text.
        let positions: Vec<usize> = expected
            .iter()
            .map(|k| line.find(&format!("\"{k}\":")).unwrap())
            .collect();
        assert!(positions.windows(2).all(|w| w[0] < w[1]), "{line}");
        assert_eq!(value["white_elo"], 2400);
        assert_eq!(value["black_elo"], serde_json::Value::Null);
        assert_eq!(value["played_on"], "2025-05-01");
        assert_eq!(value["white_clock"], 61.5);
        assert_eq!(value["utc_time"], serde_json::Value::Null);
        assert_eq!(value["end_ply"], serde_json::Value::Null);
        assert_eq!(value["WhiteElo"], "2400");
    }

    #[test]
    fn json_is_one_array() {
        let extra = ["2400".to_string()];
        let text = format(ExportFormat::Json, &[record(&extra), record(&extra)]);
        let value: serde_json::Value = text.parse().unwrap();
        assert_eq!(value.as_array().map(Vec::len), Some(2));
        assert_eq!(value[1]["event"], "Rated \"Blitz\", game");
        assert_eq!(
            (&value[0]["index"], &value[1]["index"]),
            (&1.into(), &2.into())
        );
        assert_eq!(
            format(ExportFormat::Json, &[])
                .parse::<serde_json::Value>()
                .unwrap(),
            serde_json::json!([])
        );
    }

    #[test]
    fn ratings_and_unknown_tags_are_null() {
        assert_eq!(rating(" 2400 "), Cell::Int(2400));
        for bad in ["", "?", "-", "2400?", "1234567", "-5"] {
            assert_eq!(rating(bad), Cell::Null, "{bad}");
        }
        assert_eq!(known("?"), Cell::Null);
        assert_eq!(known("??:??:??"), Cell::Null);
        assert_eq!(known("12:01:33"), Cell::Str("12:01:33"));
    }
}
