//! One export record per game, as a row of [`crate::table`]: CSV, JSON (one streamed
//! array), JSON Lines or Parquet.
//!
//! The columns, in this order (`docs/export-fields.md` says what each means and its type):
//! `index, file, game, event, site, date, round, white, black, result, plies, outcome, winner,
//! result_consistent, final_fen, valid, error, end_ply`, then the typed columns read from tags
//! and clocks (`white_elo, black_elo, eco, opening, termination, time_control, base_seconds,
//! increment_seconds, speed, played_on, year, month, utc_time, white_clock, black_clock, white_title,
//! black_title, white_rating_diff, black_rating_diff, utc_timestamp, offset`), the final
//! position's rulings (`white_can_mate, black_can_mate`), then the opening the built-in table
//! names (`eco_computed, opening_computed`) and `movetext` when asked for, `position_ply` with
//! `--position`, then one column per tag asked for with `--tags`.
//!
//! With [`ColumnSet::Lichess`] the columns are instead those of the lichess games dataset, with
//! its names and types (`LICHESS_COLUMNS`: `Event` ... `TimeControl, movetext`), followed by
//! arbiter's verdict columns (the rulings last), so that the output unions with that dataset and
//! joins on `Site`.

use std::cell::OnceCell;

use crate::columns::{Column, ColumnKind, table_columns};
use crate::date::{CalendarDate, YearMonth};
use crate::moment::Moment;
use crate::movetext::write_movetext;
use crate::output::{Cell, GameFormatter, GameNumber, Output};
pub use crate::table::ExportFormat;
use arbiter_core::clocks::Millis;
use arbiter_core::outcome::{Outcome, Winner};
use arbiter_core::replay::GameReport;

use crate::table::{Row, Table, is_plain};

/// One column of a game row: its name, the type of its values, whether it may be null, and how a
/// record gives its cell. Each table of game columns is a list of these, one line a column, so
/// that a column's name, type and value are written together, once.
#[derive(Copy, Clone)]
pub struct RecordColumn {
    /// The column's name.
    pub name: &'static str,
    /// The type of its values.
    pub kind: ColumnKind,
    /// Whether a value may be null.
    pub nullable: bool,
    /// Its cell in a record's row.
    cell: CellOf,
}

impl std::fmt::Debug for RecordColumn {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} ({:?}{})",
            self.name,
            self.kind,
            if self.nullable { ", null" } else { "" }
        )
    }
}

/// How a record gives a column's cell.
type CellOf = for<'r, 'a> fn(&'r Cells<'r, 'a>) -> Cell<'a>;

/// A record, with what its cells share, worked out at most once a row, when a cell first asks:
/// the `file` cell (plain text or not, as the formatter knows), the `UTCDate` tag read as a date
/// (`played_on`, `year`, `month` and `utc_timestamp` read it), the `UTCTime` tag read as a time
/// of day, and the year and month the game was played (`--where` asks for one or two cells, and
/// working out the dates for each cost select 3% of its instructions on master games).
struct Cells<'r, 'a> {
    r: &'r ExportRecord<'a>,
    file: Cell<'a>,
    utc_date: OnceCell<Option<CalendarDate>>,
    utc_time: OnceCell<Option<Moment>>,
    played_in: OnceCell<YearMonth>,
}

impl<'r, 'a> Cells<'r, 'a> {
    fn of(r: &'r ExportRecord<'a>, file: Cell<'a>) -> Cells<'r, 'a> {
        Cells {
            r,
            file,
            utc_date: OnceCell::new(),
            utc_time: OnceCell::new(),
            played_in: OnceCell::new(),
        }
    }

    /// The `UTCDate` tag read as a date.
    fn utc_date(&self) -> Option<CalendarDate> {
        *self
            .utc_date
            .get_or_init(|| CalendarDate::from_pgn(self.r.utc_date))
    }

    /// The `UTCTime` tag read as a time of day.
    fn utc_time(&self) -> Option<Moment> {
        *self
            .utc_time
            .get_or_init(|| Moment::time_of_day(self.r.utc_time))
    }

    /// The year and month the game was played: from the first of the tags `played_on` reads, in
    /// its order, that gives a year.
    fn played_in(&self) -> YearMonth {
        *self.played_in.get_or_init(|| {
            // A whole date is read once, for `played_on` too.
            if let Some(date) = self.utc_date() {
                return date.year_month();
            }
            let utc = YearMonth::from_pgn(self.r.utc_date);
            match utc.year {
                Some(_) => utc,
                None => YearMonth::from_pgn(self.r.date),
            }
        })
    }

    fn cell(&self, column: &RecordColumn) -> Cell<'a> {
        (column.cell)(self)
    }
}

/// A column of the tables below.
const fn column(
    name: &'static str,
    kind: ColumnKind,
    nullable: bool,
    cell: CellOf,
) -> RecordColumn {
    RecordColumn {
        name,
        kind,
        nullable,
        cell,
    }
}

/// The fixed export fields, in order.
pub const COLUMNS: [RecordColumn; 41] = {
    use ColumnKind::{Bool, Date, Float64, Int32, Int64, String, Time, Timestamp};
    [
        column("index", Int64, false, |c| Cell::Run(c.r.number)),
        column("file", String, false, |c| c.file),
        column("game", Int64, false, |c| Cell::Input(c.r.number)),
        column("event", String, false, |c| Cell::Str(c.r.event)),
        column("site", String, false, |c| Cell::Str(c.r.site)),
        column("date", String, false, |c| Cell::Str(c.r.date)),
        column("round", String, false, |c| Cell::Str(c.r.round)),
        column("white", String, false, |c| Cell::Str(c.r.white)),
        column("black", String, false, |c| Cell::Str(c.r.black)),
        column("result", String, false, |c| Cell::Str(c.r.result)),
        column("plies", Int32, false, |c| Cell::Int(c.r.plies.into())),
        column("outcome", String, true, |c| {
            c.r.outcome.map_or(Cell::Null, |o| Cell::Plain(o.as_str()))
        }),
        column("winner", String, true, |c| {
            c.r.winner.map_or(Cell::Null, |w| Cell::Plain(w.as_str()))
        }),
        column("result_consistent", Bool, false, |c| {
            Cell::Bool(c.r.result_consistent)
        }),
        column("final_fen", String, false, |c| Cell::Plain(c.r.final_fen)),
        column("valid", Bool, false, |c| Cell::Bool(c.r.valid)),
        column("error", String, true, |c| text(c.r.error)),
        column("end_ply", Int32, true, |c| {
            c.r.end_ply.map_or(Cell::Null, |ply| Cell::Int(ply.into()))
        }),
        column("white_elo", Int32, true, |c| rating(c.r.elo[0])),
        column("black_elo", Int32, true, |c| rating(c.r.elo[1])),
        column("eco", String, true, |c| known(c.r.eco)),
        column("opening", String, true, |c| text(c.r.opening)),
        column("termination", String, true, |c| text(c.r.termination)),
        column("time_control", String, true, |c| text(c.r.time_control)),
        column("base_seconds", Int32, true, |c| {
            c.r.base_and_increment
                .map_or(Cell::Null, |(base, _)| Cell::Int(base.into()))
        }),
        column("increment_seconds", Int32, true, |c| {
            c.r.base_and_increment
                .map_or(Cell::Null, |(_, inc)| Cell::Int(inc.into()))
        }),
        column("speed", String, true, |c| {
            c.r.speed.map_or(Cell::Null, Cell::Plain)
        }),
        column("played_on", Date, true, |c| {
            let date = c.utc_date().or_else(|| CalendarDate::from_pgn(c.r.date));
            date.map_or(Cell::Null, Cell::Date)
        }),
        column("year", Int32, true, |c| {
            c.played_in()
                .year
                .map_or(Cell::Null, |year| Cell::Int(year.into()))
        }),
        column("month", Int32, true, |c| {
            c.played_in()
                .month
                .map_or(Cell::Null, |month| Cell::Int(month.into()))
        }),
        column("utc_time", Time, true, |c| {
            c.utc_time().map_or(Cell::Null, Cell::Moment)
        }),
        column("white_clock", Float64, true, |c| {
            c.r.final_clocks[0].map_or(Cell::Null, Cell::Seconds)
        }),
        column("black_clock", Float64, true, |c| {
            c.r.final_clocks[1].map_or(Cell::Null, Cell::Seconds)
        }),
        column("white_title", String, true, |c| known(c.r.titles[0])),
        column("black_title", String, true, |c| known(c.r.titles[1])),
        column("white_rating_diff", Int32, true, |c| {
            rating_diff(c.r.rating_diffs[0], i32::MAX.into())
        }),
        column("black_rating_diff", Int32, true, |c| {
            rating_diff(c.r.rating_diffs[1], i32::MAX.into())
        }),
        column("utc_timestamp", Timestamp, true, |c| {
            match (c.utc_time(), c.utc_date()) {
                (Some(time), Some(date)) => Cell::Moment(Moment::instant(date, time)),
                _ => Cell::Null,
            }
        }),
        column("offset", Int64, false, |c| offset(c.r.offset)),
        column("white_can_mate", Bool, true, |c| {
            c.r.can_mate[0].map_or(Cell::Null, Cell::Bool)
        }),
        column("black_can_mate", Bool, true, |c| {
            c.r.can_mate[1].map_or(Cell::Null, Cell::Bool)
        }),
    ]
};

/// Writes the cells of [`COLUMNS`], in order, into `row`: each column's cell function called as
/// itself rather than through the table's pointer, so that it is inlined and its cell's kind
/// known where the row writes it (through the table, a row cost an indirect call and a match on
/// the cell's kind for each of its 41 columns). The columns stay described once, in the table.
fn arbiter_cells(cells: &Cells<'_, '_>, row: &mut Row<'_, '_>) {
    macro_rules! cells {
        ($($i:literal)*) => {
            $(row.cell((const { COLUMNS[$i].cell })(cells));)*
            const { assert!([$($i),*].len() == COLUMNS.len()) };
        };
    }
    cells!(
        0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33
        34 35 36 37 38 39 40
    );
}

/// The columns `--eco` adds after the fixed ones: the opening the built-in table names by
/// position (its ECO code and name). `--where` may read them without `--eco`.
pub const OPENING_COLUMNS: [RecordColumn; 2] = [
    column("eco_computed", ColumnKind::String, true, |c| {
        c.r.opening_computed
            .map_or(Cell::Null, |(eco, _)| Cell::Plain(eco))
    }),
    column("opening_computed", ColumnKind::String, true, |c| {
        c.r.opening_computed
            .map_or(Cell::Null, |(_, name)| Cell::Str(name))
    }),
];

/// How many fields `--where` reads from a record: [`COLUMNS`] then [`OPENING_COLUMNS`].
pub const WHERE_FIELDS: usize = COLUMNS.len() + OPENING_COLUMNS.len();

/// The fixed export fields' names, in order.
pub const FIELDS: [&str; COLUMNS.len()] = names(&COLUMNS);

/// The fixed export fields a game's tags decide alone, by name: their values are known once the
/// tags are read (the `TimeControl` tag read into the speed and the periods), whatever the
/// movetext holds. `result` is not one (a game without a `Result` tag takes its termination
/// marker's), nor are `file`, `index` and `game` (the run's, not the game's).
pub const TAG_FIELDS: [&str; 25] = [
    "event",
    "site",
    "date",
    "round",
    "white",
    "black",
    "white_elo",
    "black_elo",
    "eco",
    "opening",
    "termination",
    "time_control",
    "base_seconds",
    "increment_seconds",
    "speed",
    "played_on",
    "year",
    "month",
    "utc_time",
    "white_title",
    "black_title",
    "white_rating_diff",
    "black_rating_diff",
    "utc_timestamp",
    "offset",
];

/// The optional column of the main line in SAN (`--movetext`), after the fixed ones.
pub(crate) const MOVETEXT: RecordColumn = column("movetext", ColumnKind::String, false, |c| {
    Cell::Plain(c.r.movetext)
});

/// The column `--position` adds after the fixed ones (and `movetext`): the first ply at which the
/// main line reaches one of the positions.
pub const POSITION_PLY: RecordColumn = column("position_ply", ColumnKind::Int32, true, |c| {
    c.r.position_ply
        .map_or(Cell::Null, |ply| Cell::Int(ply.into()))
});

/// The columns of `--columns lichess`: the lichess games dataset's own, with its names and types
/// (16-bit ratings and rating differences, the day as a date, the time of day as a time), then
/// arbiter's verdict, the columns of [`COLUMNS`] by those names.
pub(crate) const LICHESS_COLUMNS: [RecordColumn; 35] = {
    use ColumnKind::{Date, Int16, String, TimeMillisUtc};
    [
        column("Event", String, false, |c| Cell::Str(c.r.event)),
        column("Site", String, false, |c| Cell::Str(c.r.site)),
        column("White", String, false, |c| Cell::Str(c.r.white)),
        column("Black", String, false, |c| Cell::Str(c.r.black)),
        column("Result", String, false, |c| Cell::Str(c.r.result)),
        column("WhiteTitle", String, true, |c| known(c.r.titles[0])),
        column("BlackTitle", String, true, |c| known(c.r.titles[1])),
        column("WhiteElo", Int16, true, |c| {
            in_range(rating(c.r.elo[0]), i16::MAX.into())
        }),
        column("BlackElo", Int16, true, |c| {
            in_range(rating(c.r.elo[1]), i16::MAX.into())
        }),
        column("WhiteRatingDiff", Int16, true, |c| {
            rating_diff(c.r.rating_diffs[0], i16::MAX.into())
        }),
        column("BlackRatingDiff", Int16, true, |c| {
            rating_diff(c.r.rating_diffs[1], i16::MAX.into())
        }),
        column("UTCDate", Date, true, |c| {
            c.utc_date().map_or(Cell::Null, Cell::Date)
        }),
        column("UTCTime", TimeMillisUtc, true, |c| {
            c.utc_time().map_or(Cell::Null, Cell::Moment)
        }),
        column("ECO", String, true, |c| known(c.r.eco)),
        column("Opening", String, true, |c| text(c.r.opening)),
        column("Termination", String, true, |c| text(c.r.termination)),
        column("TimeControl", String, true, |c| text(c.r.time_control)),
        MOVETEXT,
        arbiter_column("index"),
        arbiter_column("file"),
        arbiter_column("game"),
        arbiter_column("plies"),
        arbiter_column("outcome"),
        arbiter_column("winner"),
        arbiter_column("result_consistent"),
        arbiter_column("final_fen"),
        arbiter_column("valid"),
        arbiter_column("error"),
        arbiter_column("end_ply"),
        arbiter_column("speed"),
        arbiter_column("white_clock"),
        arbiter_column("black_clock"),
        arbiter_column("offset"),
        arbiter_column("white_can_mate"),
        arbiter_column("black_can_mate"),
    ]
};

/// The names of `LICHESS_COLUMNS`, in order.
pub const LICHESS_FIELDS: [&str; LICHESS_COLUMNS.len()] = names(&LICHESS_COLUMNS);

/// The column of [`COLUMNS`] named `name` (a build error when there is none).
const fn arbiter_column(name: &str) -> RecordColumn {
    let mut i = 0;
    while i < COLUMNS.len() {
        if same(COLUMNS[i].name, name) {
            return COLUMNS[i];
        }
        i += 1;
    }
    panic!("no such column")
}

/// Whether `a` and `b` are the same text (in a constant).
const fn same(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// The names of `columns`, in order.
const fn names<const N: usize>(columns: &[RecordColumn; N]) -> [&'static str; N] {
    let mut names = [""; N];
    let mut i = 0;
    while i < N {
        names[i] = columns[i].name;
        i += 1;
    }
    names
}

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
    /// The lichess dataset's, then arbiter's verdict (`LICHESS_COLUMNS`).
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

    /// The columns of a row, in order, before the extra tags: the fixed ones, then the opening
    /// columns (`eco`), `movetext`, and `position_ply` when `position`.
    pub fn fixed(self, position: bool) -> Vec<RecordColumn> {
        let fixed: &[RecordColumn] = match self {
            ColumnSet::Arbiter { .. } => &COLUMNS,
            ColumnSet::Lichess => &LICHESS_COLUMNS,
        };
        let movetext = matches!(self, ColumnSet::Arbiter { movetext: true, .. });
        let opening: &[RecordColumn] = match self.has_opening() {
            true => &OPENING_COLUMNS,
            false => &[],
        };
        (fixed.iter().chain(opening))
            .chain(movetext.then_some(&MOVETEXT))
            .chain(position.then_some(&POSITION_PLY))
            .copied()
            .collect()
    }

    /// The columns of a row: the fixed ones ([`ColumnSet::fixed`]), then `extra_tags`.
    pub fn columns(self, position: bool, extra_tags: &[String]) -> Vec<Column> {
        let fixed = self.fixed(position);
        table_columns(
            fixed.iter().map(|c| (c.name, c.kind, c.nullable)),
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
    /// from the report (`movetext` left empty: `write_movetext` writes it from the report's
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

    /// Field `field` of the record as a cell, in the order of [`COLUMNS`] then
    /// [`OPENING_COLUMNS`] (`None` past them): what `--where` tests, one field at a time.
    pub fn cell(&self, field: usize) -> Option<Cell<'a>> {
        let column = COLUMNS.get(field).or_else(|| {
            field
                .checked_sub(COLUMNS.len())
                .and_then(|i| OPENING_COLUMNS.get(i))
        })?;
        Some(Cells::of(self, Cell::Str(self.file)).cell(column))
    }
}

/// Formats records into a batch's output.
pub struct RecordFormatter {
    table: Table,
    set: ColumnSet,
    /// The columns before the extra tags.
    fixed: Vec<RecordColumn>,
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
            fixed: set.fixed(position),
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
        let cells = Cells::of(r, file);
        let mut row = self.table.row(out);
        // arbiter's columns start with the fixed ones.
        let rest = match self.set {
            ColumnSet::Arbiter { .. } => {
                arbiter_cells(&cells, &mut row);
                &self.fixed[COLUMNS.len()..]
            }
            ColumnSet::Lichess => &self.fixed[..],
        };
        for column in rest {
            row.cell(cells.cell(column));
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

/// A game's `offset` (a stream offset past `i64::MAX` is not stored anywhere).
pub(crate) fn offset(offset: u64) -> Cell<'static> {
    Cell::Int(i64::try_from(offset).unwrap_or(i64::MAX))
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
                   180,2,blitz,2025-05-01,2025,5,,61.5,,GM,,5,-5,,5630,true,false,2400\n"
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

    /// `r` written as the formatter writes it before its straight run of arbiter's columns: every
    /// column's cell through the table.
    fn through_the_table(f: &RecordFormatter, r: &ExportRecord<'_>, out: &mut Output) {
        let file = match is_plain(r.file) {
            true => Cell::Plain(r.file),
            false => Cell::Str(r.file),
        };
        let cells = Cells::of(r, file);
        let mut row = f.table.row(out);
        for column in &f.fixed {
            row.cell(cells.cell(column));
        }
        for value in r.extra {
            row.cell(Cell::Str(value));
        }
        row.end();
    }

    #[test]
    fn arbiters_columns_written_straight_are_written_as_through_the_table() {
        let extra = ["2400".to_string(), "a \"quoted\", tag".to_string()];
        let base = record(&extra);
        let records = [
            base,
            ExportRecord {
                number: GameNumber::Later { in_batch: 3 },
                utc_date: "2025.05.01",
                utc_time: "13:05:09",
                error: "move 3: \"Nf9\" is not a move",
                end_ply: Some(12),
                outcome: None,
                winner: None,
                final_clocks: [None, Some(0)],
                can_mate: [None, None],
                opening_computed: Some(("C20", "King's Pawn, \"Game\"")),
                position_ply: Some(4),
                movetext: "1. e4 e5",
                ..base
            },
            ExportRecord {
                file: "plain.pgn",
                date: "1990.05.??",
                utc_date: "2025.05.??",
                utc_time: "25:00:00",
                elo: ["", "40000"],
                titles: ["", ""],
                rating_diffs: ["", "+0"],
                base_and_increment: None,
                speed: None,
                opening: "Réti",
                termination: "Time forfeit",
                offset: u64::MAX,
                ..base
            },
            ExportRecord {
                date: "2024.02.29",
                utc_date: " 2025.13.01 ",
                utc_time: " 00:00:00 ",
                ..base
            },
            ExportRecord {
                utc_date: "2025.12.31",
                utc_time: "??:??:??",
                ..ExportRecord::default()
            },
        ];
        let mut formats = vec![ExportFormat::Csv, ExportFormat::Jsonl, ExportFormat::Json];
        #[cfg(feature = "parquet")]
        formats.push(ExportFormat::Parquet);
        let mut sets = vec![ColumnSet::Lichess];
        for (eco, movetext) in [(false, false), (true, false), (false, true), (true, true)] {
            sets.push(ColumnSet::Arbiter { eco, movetext });
        }
        for format in formats {
            for &set in &sets {
                for position in [false, true] {
                    for tags in [&[][..], &extra[..]] {
                        let mut f = RecordFormatter::with_position(format, set, position, tags);
                        let (mut straight, mut through) = (Output::default(), Output::default());
                        for r in &records {
                            let r = ExportRecord {
                                extra: &extra[..tags.len()],
                                ..*r
                            };
                            f.record(&r, &mut straight);
                            through_the_table(&f, &r, &mut through);
                        }
                        let text = |out: &Output| {
                            let mut bytes = Vec::new();
                            out.write_to(10, 20, &mut 0, &mut bytes).unwrap();
                            bytes
                        };
                        let what = format!("{format:?} {set:?} {position} {}", tags.len());
                        assert_eq!(text(&straight), text(&through), "{what}");
                        assert_eq!(format!("{straight:?}"), format!("{through:?}"), "{what}");
                        assert_eq!(straight.rows(), records.len() as u64);
                    }
                }
            }
        }
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
