//! One export record per game, as a row of [`crate::table`]: CSV, JSON (one streamed
//! array), JSON Lines or Parquet.
//!
//! The columns, in this order (`docs/export-fields.md` says what each means and its type):
//! `index, file, game, event, site, date, round, white, black, result, plies, outcome, winner,
//! result_consistent, final_fen, valid, error, end_ply`, then the typed columns read from tags
//! and clocks (`white_elo, black_elo, eco, opening, termination, time_control, base_seconds,
//! increment_seconds, speed, played_on, utc_time, white_clock, black_clock, white_title,
//! black_title, white_rating_diff, black_rating_diff, utc_timestamp, offset`), the final
//! position's rulings (`white_can_mate, black_can_mate`), then the opening the built-in table
//! names (`eco_computed, opening_computed`) and `movetext` when asked for, `position_ply` with
//! `--position`, then one column per tag asked for with `--tags`.
//!
//! With [`ColumnSet::Lichess`] the columns are instead those of the lichess games dataset, with
//! its names and types ([`LICHESS_COLUMNS`]: `Event` ... `TimeControl, movetext`), followed by
//! arbiter's verdict columns (the rulings last), so that the output unions with that dataset and
//! joins on `Site`.

use crate::columns::{Column, ColumnKind, column_names, table_columns};
use crate::date::CalendarDate;
use crate::moment::Moment;
use crate::movetext::write_movetext;
use crate::output::{Cell, GameFormatter, GameNumber, Output};
pub use crate::table::ExportFormat;
use arbiter_core::clocks::Millis;
use arbiter_core::outcome::{Outcome, Winner};
use arbiter_core::replay::GameReport;

use crate::table::{Table, is_plain};

/// The fixed export fields, in order, with their types and whether they may be null.
pub const COLUMNS: [(&str, ColumnKind, bool); 39] = {
    use ColumnKind::{Bool, Date, Float64, Int32, Int64, String, Time, Timestamp};
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
        ("outcome", String, true),
        ("winner", String, true),
        ("result_consistent", Bool, false),
        ("final_fen", String, false),
        ("valid", Bool, false),
        ("error", String, true),
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
        ("utc_time", Time, true),
        ("white_clock", Float64, true),
        ("black_clock", Float64, true),
        ("white_title", String, true),
        ("black_title", String, true),
        ("white_rating_diff", Int32, true),
        ("black_rating_diff", Int32, true),
        ("utc_timestamp", Timestamp, true),
        ("offset", Int64, false),
        ("white_can_mate", Bool, true),
        ("black_can_mate", Bool, true),
    ]
};

/// The columns `--eco` adds after the fixed ones: the opening the built-in table names by
/// position (its ECO code and name). `--where` may read them without `--eco`.
pub const OPENING_COLUMNS: [(&str, ColumnKind, bool); 2] = [
    ("eco_computed", ColumnKind::String, true),
    ("opening_computed", ColumnKind::String, true),
];

/// How many fields `--where` reads from a record: [`COLUMNS`] then [`OPENING_COLUMNS`].
pub const WHERE_FIELDS: usize = COLUMNS.len() + OPENING_COLUMNS.len();

/// The fixed export fields' names, in order.
pub const FIELDS: [&str; COLUMNS.len()] = column_names(&COLUMNS);

/// The optional column of the main line in SAN (`--movetext`), after the fixed ones.
pub const MOVETEXT: (&str, ColumnKind, bool) = ("movetext", ColumnKind::String, false);

/// The column `--position` adds after the fixed ones (and `movetext`): the first ply at which the
/// main line reaches one of the positions.
pub const POSITION_PLY: (&str, ColumnKind, bool) = ("position_ply", ColumnKind::Int32, true);

/// The columns of `--columns lichess`: the lichess games dataset's own, with its names and types
/// (16-bit ratings and rating differences, the day as a date, the time of day as a time), then
/// arbiter's verdict.
pub const LICHESS_COLUMNS: [(&str, ColumnKind, bool); 35] = {
    use ColumnKind::{Bool, Date, Float64, Int16, Int32, Int64, String, TimeMillisUtc};
    [
        ("Event", String, false),
        ("Site", String, false),
        ("White", String, false),
        ("Black", String, false),
        ("Result", String, false),
        ("WhiteTitle", String, true),
        ("BlackTitle", String, true),
        ("WhiteElo", Int16, true),
        ("BlackElo", Int16, true),
        ("WhiteRatingDiff", Int16, true),
        ("BlackRatingDiff", Int16, true),
        ("UTCDate", Date, true),
        ("UTCTime", TimeMillisUtc, true),
        ("ECO", String, true),
        ("Opening", String, true),
        ("Termination", String, true),
        ("TimeControl", String, true),
        ("movetext", String, false),
        ("index", Int64, false),
        ("file", String, false),
        ("game", Int64, false),
        ("plies", Int32, false),
        ("outcome", String, true),
        ("winner", String, true),
        ("result_consistent", Bool, false),
        ("final_fen", String, false),
        ("valid", Bool, false),
        ("error", String, true),
        ("end_ply", Int32, true),
        ("speed", String, true),
        ("white_clock", Float64, true),
        ("black_clock", Float64, true),
        ("offset", Int64, false),
        ("white_can_mate", Bool, true),
        ("black_can_mate", Bool, true),
    ]
};

/// The names of `LICHESS_COLUMNS`, in order.
pub const LICHESS_FIELDS: [&str; LICHESS_COLUMNS.len()] = column_names(&LICHESS_COLUMNS);

/// Which columns a game row has.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub enum ColumnSet {
    /// arbiter's own ([`COLUMNS`]), then [`OPENING_COLUMNS`] when `eco` is true and `movetext`
    /// when `movetext` is true.
    Arbiter {
        /// Add the opening columns.
        eco: bool,
        /// Add the `movetext` column.
        movetext: bool,
    },
    /// The lichess dataset's, then arbiter's verdict ([`LICHESS_COLUMNS`]).
    Lichess,
}

impl Default for ColumnSet {
    fn default() -> ColumnSet {
        ColumnSet::Arbiter {
            eco: false,
            movetext: false,
        }
    }
}

impl ColumnSet {
    /// Whether the rows need each game's main line (replay with
    /// [`ReplayOptions::plies`](arbiter_core::ReplayOptions::plies)).
    pub fn needs_moves(self) -> bool {
        matches!(
            self,
            ColumnSet::Arbiter { movetext: true, .. } | ColumnSet::Lichess
        )
    }

    /// Whether the rows have the opening columns (replay with
    /// [`ReplayOptions::eco`](arbiter_core::ReplayOptions::eco)).
    pub fn has_opening(self) -> bool {
        matches!(self, ColumnSet::Arbiter { eco: true, .. })
    }

    /// The columns of a row: the fixed ones, `position_ply` when `position`, then `extra_tags`.
    pub fn columns(self, position: bool, extra_tags: &[String]) -> Vec<Column> {
        let fixed: &[(&str, ColumnKind, bool)] = match self {
            ColumnSet::Arbiter { .. } => &COLUMNS,
            ColumnSet::Lichess => &LICHESS_COLUMNS,
        };
        let movetext = matches!(self, ColumnSet::Arbiter { movetext: true, .. });
        let opening: &[(&str, ColumnKind, bool)] = match self.has_opening() {
            true => &OPENING_COLUMNS,
            false => &[],
        };
        table_columns(
            fixed
                .iter()
                .chain(opening)
                .chain(movetext.then_some(&MOVETEXT))
                .chain(position.then_some(&POSITION_PLY)),
            extra_tags,
        )
    }
}

/// The record of one game, borrowed from wherever its fields live (for export, the replayer's
/// report): formatting copies each field once, straight into the output.
#[derive(Copy, Clone, Debug, Default, Eq, PartialEq)]
pub struct ExportRecord<'a> {
    /// The game's numbers: `index` across all inputs, `game` within its input.
    pub number: GameNumber,
    /// The input: the path as given, or `<stdin>`.
    pub file: &'a str,
    /// Where the game's first byte stands in its (decompressed) input, from 0.
    pub offset: u64,
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
    /// Whether White and Black can still mate in the final position (`None`: not decided).
    pub can_mate: [Option<bool>; 2],
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
    /// The `WhiteTitle` and `BlackTitle` tags.
    pub titles: [&'a str; 2],
    /// The `WhiteRatingDiff` and `BlackRatingDiff` tags as written.
    pub rating_diffs: [&'a str; 2],
    /// The opening the built-in table names: its ECO code and name.
    pub opening_computed: Option<(&'a str, &'a str)>,
    /// The main line in SAN (the `movetext` column, when it is written).
    pub movetext: &'a str,
    /// The first ply at which the main line reaches a position looked for.
    pub position_ply: Option<u32>,
    /// Values of the tags asked for with `--tags`, in that order (empty when absent).
    pub extra: &'a [String],
}

impl<'a> ExportRecord<'a> {
    /// The record of a replayed game of input `file`, numbered `number`: every field borrowed
    /// from the report (`movetext` left empty: [`write_movetext`] writes it from the report's
    /// ply log).
    pub fn from_report(
        file: &'a str,
        number: GameNumber,
        report: &'a GameReport,
    ) -> ExportRecord<'a> {
        let tags = &report.tags;
        ExportRecord {
            number,
            file,
            offset: report.offset,
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
            can_mate: report.can_mate,
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
            titles: [&tags.white_title, &tags.black_title],
            rating_diffs: [&tags.white_rating_diff, &tags.black_rating_diff],
            opening_computed: report.opening.map(|o| (o.eco, o.name)),
            movetext: "",
            position_ply: report.position_ply,
            extra: &tags.extra,
        }
    }

    /// The record's fields as cells, in the order of [`COLUMNS`] then [`OPENING_COLUMNS`]: what
    /// `--where` tests.
    pub fn cells(&self) -> [Cell<'a>; WHERE_FIELDS] {
        let mut cells = [Cell::Null; WHERE_FIELDS];
        let mut i = 0;
        self.each_cell(Cell::Str(self.file), |cell| {
            cells[i] = cell;
            i += 1;
        });
        let [eco, name] = self.opening_cells();
        cells[COLUMNS.len()] = eco;
        cells[COLUMNS.len() + 1] = name;
        cells
    }

    /// The cells of [`OPENING_COLUMNS`].
    pub fn opening_cells(&self) -> [Cell<'a>; 2] {
        match self.opening_computed {
            Some((eco, name)) => [Cell::Plain(eco), Cell::Str(name)],
            None => [Cell::Null; 2],
        }
    }

    /// Gives `cell` each of the record's fixed fields, in the order of [`COLUMNS`], with `file`
    /// as the `file` field: what export writes (one by one, straight into the row), and what
    /// [`cells`](Self::cells) collects.
    #[inline(always)]
    pub fn each_cell<'c>(&self, file: Cell<'c>, mut cell: impl FnMut(Cell<'c>))
    where
        'a: 'c,
    {
        let r = self;
        let utc_time = Moment::time_of_day(r.utc_time);
        cell(Cell::Run(r.number));
        cell(file);
        cell(Cell::Input(r.number));
        cell(Cell::Str(r.event));
        cell(Cell::Str(r.site));
        cell(Cell::Str(r.date));
        cell(Cell::Str(r.round));
        cell(Cell::Str(r.white));
        cell(Cell::Str(r.black));
        cell(Cell::Str(r.result));
        cell(Cell::Int(i64::from(r.plies)));
        cell(r.outcome.map_or(Cell::Null, |o| Cell::Plain(o.as_str())));
        cell(r.winner.map_or(Cell::Null, |w| Cell::Plain(w.as_str())));
        cell(Cell::Bool(r.result_consistent));
        cell(Cell::Plain(r.final_fen));
        cell(Cell::Bool(r.valid));
        cell(text(r.error));
        cell(
            r.end_ply
                .map_or(Cell::Null, |ply| Cell::Int(i64::from(ply))),
        );
        cell(rating(r.elo[0]));
        cell(rating(r.elo[1]));
        cell(known(r.eco));
        cell(text(r.opening));
        cell(text(r.termination));
        cell(text(r.time_control));
        cell(
            r.base_and_increment
                .map_or(Cell::Null, |(base, _)| Cell::Int(base.into())),
        );
        cell(
            r.base_and_increment
                .map_or(Cell::Null, |(_, inc)| Cell::Int(inc.into())),
        );
        cell(r.speed.map_or(Cell::Null, Cell::Plain));
        cell(
            CalendarDate::from_pgn(r.utc_date)
                .or_else(|| CalendarDate::from_pgn(r.date))
                .map_or(Cell::Null, Cell::Date),
        );
        cell(utc_time.map_or(Cell::Null, Cell::Moment));
        cell(r.final_clocks[0].map_or(Cell::Null, Cell::Seconds));
        cell(r.final_clocks[1].map_or(Cell::Null, Cell::Seconds));
        cell(known(r.titles[0]));
        cell(known(r.titles[1]));
        cell(rating_diff(r.rating_diffs[0], i32::MAX.into()));
        cell(rating_diff(r.rating_diffs[1], i32::MAX.into()));
        cell(utc_timestamp(r.utc_date, utc_time));
        cell(offset(r.offset));
        cell(r.can_mate[0].map_or(Cell::Null, Cell::Bool));
        cell(r.can_mate[1].map_or(Cell::Null, Cell::Bool));
    }
}

/// Formats records into a batch's output.
pub struct RecordFormatter {
    table: Table,
    set: ColumnSet,
    /// Whether the `position_ply` column is written.
    position: bool,
    /// The last input name seen, and whether it is plain text (every game of an input repeats
    /// it, and looking at it once is enough).
    file: (String, bool),
    /// Scratch for the `movetext` column.
    movetext: Vec<u8>,
}

impl RecordFormatter {
    /// A formatter for `format`, with the columns `set` and extra tag columns `extra_tags`.
    pub fn new(format: ExportFormat, set: ColumnSet, extra_tags: &[String]) -> RecordFormatter {
        RecordFormatter::with_position(format, set, false, extra_tags)
    }

    /// A formatter for `format`, with the columns `set`, `position_ply` when `position`, and
    /// extra tag columns `extra_tags`.
    pub fn with_position(
        format: ExportFormat,
        set: ColumnSet,
        position: bool,
        extra_tags: &[String],
    ) -> RecordFormatter {
        RecordFormatter {
            table: Table::new(format, set.columns(position, extra_tags)),
            set,
            position,
            file: (String::new(), true),
            movetext: Vec::new(),
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
        if self.set == ColumnSet::Lichess {
            return self.lichess_record(r, file, out);
        }
        let mut row = self.table.row(out);
        r.each_cell(file, |cell| {
            row.cell(cell);
        });
        if self.set.has_opening() {
            for cell in r.opening_cells() {
                row.cell(cell);
            }
        }
        if self.set.needs_moves() {
            row.cell(Cell::Plain(r.movetext));
        }
        if self.position {
            row.cell(position_ply(r.position_ply));
        }
        for value in r.extra {
            row.cell(Cell::Str(value));
        }
        row.end();
    }

    /// Appends one record in the columns of [`LICHESS_COLUMNS`].
    fn lichess_record(&mut self, r: &ExportRecord<'_>, file: Cell<'_>, out: &mut Output) {
        let mut row = self.table.row(out);
        row.cell(Cell::Str(r.event))
            .cell(Cell::Str(r.site))
            .cell(Cell::Str(r.white))
            .cell(Cell::Str(r.black))
            .cell(Cell::Str(r.result))
            .cell(known(r.titles[0]))
            .cell(known(r.titles[1]))
            .cell(in_range(rating(r.elo[0]), i16::MAX.into()))
            .cell(in_range(rating(r.elo[1]), i16::MAX.into()))
            .cell(rating_diff(r.rating_diffs[0], i16::MAX.into()))
            .cell(rating_diff(r.rating_diffs[1], i16::MAX.into()))
            .cell(CalendarDate::from_pgn(r.utc_date).map_or(Cell::Null, Cell::Date))
            .cell(Moment::time_of_day(r.utc_time).map_or(Cell::Null, Cell::Moment))
            .cell(known(r.eco))
            .cell(text(r.opening))
            .cell(text(r.termination))
            .cell(text(r.time_control))
            .cell(Cell::Plain(r.movetext))
            .cell(Cell::Run(r.number))
            .cell(file)
            .cell(Cell::Input(r.number))
            .cell(Cell::Int(i64::from(r.plies)))
            .cell(r.outcome.map_or(Cell::Null, |o| Cell::Plain(o.as_str())))
            .cell(r.winner.map_or(Cell::Null, |w| Cell::Plain(w.as_str())))
            .cell(Cell::Bool(r.result_consistent))
            .cell(Cell::Plain(r.final_fen))
            .cell(Cell::Bool(r.valid))
            .cell(text(r.error))
            .cell(
                r.end_ply
                    .map_or(Cell::Null, |ply| Cell::Int(i64::from(ply))),
            )
            .cell(r.speed.map_or(Cell::Null, Cell::Plain))
            .cell(r.final_clocks[0].map_or(Cell::Null, Cell::Seconds))
            .cell(r.final_clocks[1].map_or(Cell::Null, Cell::Seconds))
            .cell(offset(r.offset))
            .cell(r.can_mate[0].map_or(Cell::Null, Cell::Bool))
            .cell(r.can_mate[1].map_or(Cell::Null, Cell::Bool));
        if self.position {
            row.cell(position_ply(r.position_ply));
        }
        for value in r.extra {
            row.cell(Cell::Str(value));
        }
        row.end();
    }
}

impl GameFormatter for RecordFormatter {
    fn format(&mut self, source: &str, number: GameNumber, report: &GameReport, out: &mut Output) {
        let mut record = ExportRecord::from_report(source, number, report);
        if !self.set.needs_moves() {
            return self.record(&record, out);
        }
        let mut movetext = std::mem::take(&mut self.movetext);
        write_movetext(&report.ply_log, &mut movetext);
        // SAN, move numbers, `--` and spaces: nothing JSON escapes or CSV quotes.
        record.movetext = std::str::from_utf8(&movetext).unwrap_or_default();
        self.record(&record, out);
        self.movetext = movetext;
    }
}

/// The `position_ply` cell.
fn position_ply(ply: Option<u32>) -> Cell<'static> {
    ply.map_or(Cell::Null, |ply| Cell::Int(ply.into()))
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

/// A rating difference tag's value (`+5`, `-12`, `0`) as a number from `-max` to `max`, else
/// null.
fn rating_diff(value: &str, max: i64) -> Cell<'static> {
    let value = value.trim_ascii();
    let (negative, digits) = match value.as_bytes().first() {
        Some(b'-') => (true, &value[1..]),
        Some(b'+') => (false, &value[1..]),
        _ => (false, value),
    };
    match rating(digits) {
        Cell::Int(n) if !digits.starts_with([' ', '\t']) => {
            in_range(Cell::Int(if negative { -n } else { n }), max)
        }
        _ => Cell::Null,
    }
}

/// `cell`, or null when it is a number beyond ±`max` (a rating that 16 bits do not hold).
fn in_range(cell: Cell<'static>, max: i64) -> Cell<'static> {
    match cell {
        Cell::Int(n) if n.abs() > max => Cell::Null,
        cell => cell,
    }
}

/// The instant the game started, from its `UTCDate` tag and its `UTCTime` tag read as `time`,
/// when both are complete.
/// A game's `offset` (a stream offset past `i64::MAX` is not stored anywhere).
pub(crate) fn offset(offset: u64) -> Cell<'static> {
    Cell::Int(i64::try_from(offset).unwrap_or(i64::MAX))
}

fn utc_timestamp(utc_date: &str, time: Option<Moment>) -> Cell<'static> {
    match (time, CalendarDate::from_pgn(utc_date)) {
        (Some(time), Some(date)) => Cell::Moment(Moment::instant(date, time)),
        _ => Cell::Null,
    }
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
    // Most games have no title: said without trimming.
    if value.is_empty() {
        return Cell::Null;
    }
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
            offset: 5630,
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
            can_mate: [Some(true), Some(false)],
            titles: ["GM", "?"],
            rating_diffs: ["+5", "-5"],
            extra,
            ..ExportRecord::default()
        }
    }

    fn format(format: ExportFormat, records: &[ExportRecord<'_>]) -> String {
        let mut f = RecordFormatter::new(format, ColumnSet::default(), &["WhiteElo".to_string()]);
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
                   180,2,blitz,2025-05-01,,61.5,,GM,,5,-5,,5630,true,false,2400\n"
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
        assert_eq!(value["white_title"], "GM");
        assert_eq!(value["black_title"], serde_json::Value::Null);
        assert_eq!(value["black_rating_diff"], -5);
        assert_eq!(value["utc_timestamp"], serde_json::Value::Null);
        assert_eq!(value["error"], serde_json::Value::Null);
        assert_eq!(value["offset"], 5630);
        assert_eq!(value["white_can_mate"], true);
        assert_eq!(value["black_can_mate"], false);
    }

    #[test]
    fn unknown_verdicts_are_null_in_json_and_empty_in_csv() {
        let extra = ["2400".to_string()];
        let unjudged = ExportRecord {
            outcome: None,
            winner: None,
            ..record(&extra)
        };
        let line = format(ExportFormat::Jsonl, &[unjudged]);
        let value: serde_json::Value = line.trim_end().parse().unwrap();
        for field in ["outcome", "winner", "error"] {
            assert_eq!(value[field], serde_json::Value::Null, "{field}");
        }
        let csv = format(ExportFormat::Csv, &[unjudged]);
        assert!(csv.contains(",41,,,true,"), "{csv}");
    }

    #[test]
    fn a_utc_date_and_time_make_an_instant() {
        let extra = ["2400".to_string()];
        let timed = ExportRecord {
            utc_date: "2025.05.01",
            utc_time: "13:05:09",
            ..record(&extra)
        };
        let line = format(ExportFormat::Jsonl, &[timed]);
        let value: serde_json::Value = line.trim_end().parse().unwrap();
        assert_eq!(value["utc_time"], "13:05:09");
        assert_eq!(value["utc_timestamp"], "2025-05-01T13:05:09Z");
        let no_date = ExportRecord {
            utc_date: "2025.05.??",
            ..timed
        };
        let line = format(ExportFormat::Jsonl, &[no_date]);
        let value: serde_json::Value = line.trim_end().parse().unwrap();
        assert_eq!(value["utc_time"], "13:05:09");
        assert_eq!(value["utc_timestamp"], serde_json::Value::Null);
    }

    #[test]
    fn lichess_columns_carry_its_names_then_the_verdict() {
        let mut f = RecordFormatter::new(ExportFormat::Csv, ColumnSet::Lichess, &[]);
        let mut out = Vec::new();
        f.table().header(&mut out);
        let mut body = Output::default();
        let r = ExportRecord {
            utc_date: "2025.05.01",
            utc_time: "13:05:09",
            elo: ["2400", "40000"],
            movetext: "1. e4 e5",
            ..record(&[])
        };
        f.record(&r, &mut body);
        body.write_to(0, 0, &mut 0, &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        let mut lines = text.lines();
        assert_eq!(lines.next(), Some(LICHESS_FIELDS.join(",").as_str()));
        // 40000 does not fit the dataset's 16-bit ratings: null, not wrapped.
        assert_eq!(
            lines.next(),
            Some(
                "\"Rated \"\"Blitz\"\", game\",,Ann,Bob,1-0,GM,,2400,,5,-5,2025-05-01,13:05:09,C20,,,\
                 180+2,1. e4 e5,7,\"a, b.pgn\",7,41,checkmate,white,true,\
                 7k/6Q1/6K1/8/8/8/8/8 b - - 1 21,true,,,blitz,61.5,,5630,true,false"
            )
        );
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
    fn rating_differences_are_signed_numbers() {
        assert_eq!(rating_diff("+5", 99), Cell::Int(5));
        assert_eq!(rating_diff(" -12 ", 99), Cell::Int(-12));
        assert_eq!(rating_diff("0", 99), Cell::Int(0));
        assert_eq!(rating_diff("-100", 99), Cell::Null);
        for bad in ["", "+", "-", "?", "+ 5", "5.5", "--5", "+-5"] {
            assert_eq!(rating_diff(bad, 99), Cell::Null, "{bad}");
        }
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
