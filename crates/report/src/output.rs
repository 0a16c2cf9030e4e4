//! Formatted output whose game numbers may not be known yet. A part of an input read on another
//! core does not know how many games came before it, so its records leave holes where the numbers
//! go, and the holes are filled in when the output is written, in input order.
//!
//! Output is bytes (text formats) or typed [`Cell`]s (Parquet rows), and goes to a
//! [`Destination`]: a byte stream, or a Parquet writer (`report::parquet`, with the `parquet`
//! feature).

use std::io::{self, Write};
#[cfg(feature = "parquet")]
use std::sync::Arc;

use arbiter_core::clocks::Millis;
use arbiter_core::replay::GameReport;

use crate::date::CalendarDate;
use crate::decimal;
use crate::moment::Moment;

#[cfg(feature = "parquet")]
use crate::{
    columnar::{ColumnBuffers, Fill},
    columns::{Column, ColumnKind},
    parquet::{self, ColumnSink, ParquetError, ParquetWriter, Value},
};

/// A game's numbers, or where the game stands in its batch when they are not known yet.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum GameNumber {
    /// Its number across all inputs, and in its own input, both from 1.
    Known {
        /// Across all inputs (export's `index`).
        run: u64,
        /// In its input (validate's `game N`).
        input: u64,
    },
    /// The game is number `in_batch` (from 0) of a batch whose first game's numbers are known
    /// only when the batch is written.
    Later {
        /// The game's place in its batch.
        in_batch: u64,
    },
}

impl Default for GameNumber {
    /// The first game.
    fn default() -> GameNumber {
        GameNumber::Known { run: 1, input: 1 }
    }
}

/// One value of a row.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum Cell<'a> {
    /// No value.
    Null,
    /// Text.
    Str(&'a str),
    /// Text with nothing that JSON escapes or CSV quotes (a FEN, a move, a category name),
    /// written without looking.
    Plain(&'a str),
    /// A whole number.
    Int(i64),
    /// A duration, written in seconds.
    Seconds(Millis),
    /// True or false.
    Bool(bool),
    /// A calendar date.
    Date(CalendarDate),
    /// A time of day or an instant (the column's kind says which).
    Moment(Moment),
    /// The game's number across all inputs.
    Run(GameNumber),
    /// The game's number in its input.
    Input(GameNumber),
    /// A list of small whole numbers (a move's NAGs).
    List(&'a [u8]),
}

impl<'a> From<Option<&'a str>> for Cell<'a> {
    fn from(value: Option<&'a str>) -> Cell<'a> {
        value.map_or(Cell::Null, Cell::Str)
    }
}

/// Output bytes, with holes for game numbers, or typed cells.
#[derive(Debug, Default)]
pub struct Output {
    bytes: Vec<u8>,
    holes: Vec<Hole>,
    /// Parquet rows, column by column (made at their first cell), as a writer's buffers hold
    /// them: each value copied once, and handed to the writer a column's run at a time.
    #[cfg(feature = "parquet")]
    cells: Option<ColumnBuffers>,
    /// The bytes the cells count for in a writer's buffers ([`ColumnBuffers::bytes`]) at the end
    /// of each row, to find the row at which a writer's buffers fill.
    #[cfg(feature = "parquet")]
    row_bytes: Vec<usize>,
    /// The game numbers among the cells not known yet.
    #[cfg(feature = "parquet")]
    later: Vec<LaterNumber>,
    /// Rows (records) in the output.
    rows: u64,
}

/// A game number among a batch's cells known only when the batch is written: the value
/// `value` of column `column`, the game's number across all inputs (`run`) or in its input.
#[cfg(feature = "parquet")]
#[derive(Copy, Clone, Debug)]
struct LaterNumber {
    column: usize,
    value: usize,
    in_batch: u64,
    run: bool,
}

/// The memory a batch's Parquet rows are given room for at their first cell (the pipeline cuts
/// a batch's output at some 256 KiB), counting 16 bytes a value.
#[cfg(feature = "parquet")]
const CELLS_RESERVED: usize = 256 << 10;

/// A batch's buffers for rows of `columns`, with room for as many as fill [`CELLS_RESERVED`] at
/// 16 bytes a value, and room for as many rows' ends in `row_bytes` and two game numbers a row in
/// `later`: each vector allocated once, rather than a dozen times as it doubles.
#[cfg(feature = "parquet")]
fn cells_for(
    columns: &Arc<[Column]>,
    row_bytes: &mut Vec<usize>,
    later: &mut Vec<LaterNumber>,
) -> ColumnBuffers {
    let rows = CELLS_RESERVED / (16 * columns.len().max(1));
    row_bytes.reserve(rows);
    later.reserve(2 * rows);
    ColumnBuffers::with_capacity(Arc::clone(columns), rows)
}

/// A place in the output to fill in.
#[derive(Copy, Clone, Debug)]
struct Hole {
    /// The byte before which the filling goes.
    at: usize,
    /// The game's place in its batch.
    in_batch: u64,
    what: Filling,
}

#[derive(Copy, Clone, Debug)]
enum Filling {
    /// The game's number across all inputs.
    Run,
    /// The game's number in its input.
    Input,
    /// A comma unless no row was written before.
    RowComma,
}

impl Output {
    /// The bytes written so far, holes left out.
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// The byte buffer, to append to.
    pub fn bytes_mut(&mut self) -> &mut Vec<u8> {
        &mut self.bytes
    }

    /// How many bytes were written so far, holes left out.
    pub fn len(&self) -> usize {
        self.bytes.len()
    }

    /// The memory the output holds, in bytes: its bytes, its holes and its cells (what bounds a
    /// batch's output, whatever the format).
    pub fn footprint(&self) -> usize {
        let footprint = self.bytes.len() + self.holes.len() * size_of::<Hole>();
        #[cfg(feature = "parquet")]
        let footprint = footprint
            + self.cells.as_ref().map_or(0, ColumnBuffers::bytes)
            + self.row_bytes.len() * size_of::<usize>()
            + self.later.len() * size_of::<LaterNumber>();
        footprint
    }

    /// Whether nothing was written.
    pub fn is_empty(&self) -> bool {
        #[cfg(feature = "parquet")]
        if !self.row_bytes.is_empty() {
            return false;
        }
        self.bytes.is_empty() && self.holes.is_empty()
    }

    /// Empties the output, keeping its memory.
    pub fn clear(&mut self) {
        self.bytes.clear();
        self.holes.clear();
        #[cfg(feature = "parquet")]
        {
            if let Some(cells) = &mut self.cells {
                cells.clear();
            }
            self.row_bytes.clear();
            self.later.clear();
        }
        self.rows = 0;
    }

    /// Counts a row (record) written.
    pub fn count_row(&mut self) {
        self.rows += 1;
    }

    /// The rows (records) written.
    pub fn rows(&self) -> u64 {
        self.rows
    }

    /// Appends a typed cell of a Parquet row of `columns`, in the next column's kind
    /// (inlined: a caller gives one kind of cell, and the match on it goes away).
    #[cfg(feature = "parquet")]
    #[inline(always)]
    pub fn cell(&mut self, columns: &Arc<[Column]>, cell: Cell<'_>) {
        let cells = (self.cells)
            .get_or_insert_with(|| cells_for(columns, &mut self.row_bytes, &mut self.later));
        // Past the last column, the push below says so.
        let kind = |cells: &ColumnBuffers| cells.next_kind().unwrap_or(ColumnKind::Int64);
        let value = match cell {
            Cell::Null => Value::Null,
            // Text known to be UTF-8.
            Cell::Str(s) | Cell::Plain(s) => Value::Utf8(s.as_bytes()),
            Cell::Int(n) => int_value(n, kind(cells)),
            Cell::Seconds(ms) => Value::F64(f64::from(ms) / 1000.0),
            Cell::Bool(b) => Value::Bool(b),
            Cell::Date(d) => Value::Date(d.days()),
            Cell::Moment(m) => int_value(m.millis(), kind(cells)),
            Cell::Run(GameNumber::Known { run, .. }) => int_value(run as i64, kind(cells)),
            Cell::Input(GameNumber::Known { input, .. }) => int_value(input as i64, kind(cells)),
            Cell::Run(GameNumber::Later { in_batch })
            | Cell::Input(GameNumber::Later { in_batch }) => {
                let column = cells.cursor();
                self.later.push(LaterNumber {
                    column,
                    value: cells.next_value_index(column),
                    in_batch,
                    run: matches!(cell, Cell::Run(_)),
                });
                int_value(0, kind(cells))
            }
            Cell::List(items) => Value::List(items),
        };
        cells.push(value);
    }

    /// Ends a Parquet row of `columns`.
    #[cfg(feature = "parquet")]
    pub fn end_cells(&mut self, columns: &Arc<[Column]>) {
        let cells = (self.cells)
            .get_or_insert_with(|| cells_for(columns, &mut self.row_bytes, &mut self.later));
        cells.end_row();
        self.row_bytes.push(cells.bytes());
    }

    /// Appends bytes.
    pub fn extend(&mut self, bytes: &[u8]) {
        self.bytes.extend_from_slice(bytes);
    }

    /// Appends the game's number across all inputs.
    pub fn run_number(&mut self, number: GameNumber) {
        match number {
            GameNumber::Known { run, .. } => push_decimal(&mut self.bytes, run),
            GameNumber::Later { in_batch } => self.hole(in_batch, Filling::Run),
        }
    }

    /// Appends the game's number in its input.
    pub fn input_number(&mut self, number: GameNumber) {
        match number {
            GameNumber::Known { input, .. } => push_decimal(&mut self.bytes, input),
            GameNumber::Later { in_batch } => self.hole(in_batch, Filling::Input),
        }
    }

    /// Appends a comma unless this is the output's first row (for a JSON array).
    pub fn row_comma(&mut self) {
        self.hole(0, Filling::RowComma);
    }

    fn hole(&mut self, in_batch: u64, what: Filling) {
        self.holes.push(Hole {
            at: self.bytes.len(),
            in_batch,
            what,
        });
    }

    /// Writes the output's bytes to `out` with its holes filled in: the batch's first game is
    /// game `run_before + 1` of the run and `input_before + 1` of its input, and `rows` rows
    /// came before (the output's rows are added to it).
    pub fn write_to(
        &self,
        run_before: u64,
        input_before: u64,
        rows: &mut u64,
        out: &mut impl Write,
    ) -> io::Result<()> {
        let mut written = 0;
        let mut seen = *rows;
        *rows += self.rows;
        for hole in &self.holes {
            out.write_all(&self.bytes[written..hole.at])?;
            written = hole.at;
            match hole.what {
                Filling::Run => {
                    let (digits, len) = decimal::digits(run_before + hole.in_batch + 1);
                    out.write_all(&digits[..len])?;
                }
                Filling::Input => {
                    let (digits, len) = decimal::digits(input_before + hole.in_batch + 1);
                    out.write_all(&digits[..len])?;
                }
                Filling::RowComma => {
                    if seen > 0 {
                        out.write_all(b",")?;
                    }
                    seen += 1;
                }
            }
        }
        out.write_all(&self.bytes[written..])
    }

    #[cfg(feature = "parquet")]
    /// Writes the output's Parquet rows to `writer`, game numbers filled in as
    /// [`Output::write_to`] fills them. The rows go a column's run of values at a time, as many
    /// rows at a time as the writer's buffers take before they are full, so that they fill where
    /// row by row would.
    pub(crate) fn write_cells(
        &self,
        run_before: u64,
        input_before: u64,
        writer: &mut impl ColumnSink,
    ) -> Result<(), ParquetError> {
        let Some(cells) = &self.cells else {
            return Ok(());
        };
        let fills: Vec<Fill> = self
            .later
            .iter()
            .map(|later| {
                let before = if later.run { run_before } else { input_before };
                let number = (before + later.in_batch + 1) as i64;
                Fill {
                    column: later.column,
                    value: later.value,
                    number: match int_value(number, cells.columns()[later.column].kind) {
                        Value::I32(n) => n.into(),
                        Value::U32(n) => (n as i32).into(),
                        Value::I64(n) => n,
                        other => unreachable!("a game number as {other:?}"),
                    },
                }
            })
            .collect();
        let rows = cells.rows();
        let mut first = 0;
        while first < rows {
            let (room_rows, room_bytes) = writer.room();
            let mut take = room_rows.clamp(1, rows - first);
            let before = first.checked_sub(1).map_or(0, |row| self.row_bytes[row]);
            let ends = &self.row_bytes[first..first + take];
            if ends[take - 1] - before >= room_bytes {
                // The buffers fill by their bytes within these rows: at the row that does.
                take = ends.partition_point(|&end| end - before < room_bytes) + 1;
            }
            writer.append(cells, first..first + take, &fills)?;
            first += take;
        }
        Ok(())
    }
}

#[cfg(feature = "parquet")]
/// A whole number as a value of an integer column of `kind` (a time of day comes in
/// milliseconds: a [`ColumnKind::Time`] column stores microseconds).
fn int_value(n: i64, kind: ColumnKind) -> Value<'static> {
    match kind {
        ColumnKind::Int32 | ColumnKind::Int16 | ColumnKind::TimeMillisUtc => Value::I32(n as i32),
        ColumnKind::Time => Value::I64(n * 1000),
        ColumnKind::UInt32 => Value::U32(n as u32),
        _ => Value::I64(n),
    }
}

/// Formats one replayed game into a batch's output: export's records and ply rows, validate's
/// diagnostics. The pipeline calls it for every game, on whichever thread read the game.
pub trait GameFormatter {
    /// Appends the output for `report`, read from `source`, whose numbers are `number`.
    fn format(&mut self, source: &str, number: GameNumber, report: &GameReport, out: &mut Output);
}

/// Where ordered output goes: a byte stream, or a Parquet file.
pub trait Destination {
    /// Writes one batch's output; see [`Output::write_to`].
    fn write(&mut self, output: &Output, run_before: u64, input_before: u64) -> io::Result<()>;

    /// Whether the run is to hash each input as it reads it, for
    /// [`InputTotals::digest`](crate::summary::InputTotals::digest) (a manifest says
    /// what was read); no by default, since hashing costs time.
    fn digests(&self) -> bool {
        false
    }
}

/// A byte stream, flushed after each batch (so that problems show as their games finish), and
/// the rows written so far.
pub struct Bytes<W: Write> {
    /// The stream.
    pub out: W,
    /// Rows written so far (for the commas of a JSON array).
    pub rows: u64,
}

impl<W: Write> Destination for Bytes<W> {
    fn write(&mut self, output: &Output, run_before: u64, input_before: u64) -> io::Result<()> {
        output.write_to(run_before, input_before, &mut self.rows, &mut self.out)?;
        self.out.flush()
    }
}

#[cfg(feature = "parquet")]
impl<W: Write + Send> Destination for ParquetWriter<W> {
    fn write(&mut self, output: &Output, run_before: u64, input_before: u64) -> io::Result<()> {
        output
            .write_cells(run_before, input_before, self)
            .map_err(parquet::io_error)
    }
}

/// Appends `n` in decimal. The digits are appended as a whole fixed-size array and cut back: a
/// copy of known size is a few vector stores, where one of the digits' length is a call to
/// `memcpy` (a game row holds a dozen numbers, mostly of four digits or fewer: those by
/// [`decimal::up_to_four_digits`]).
#[inline]
pub(crate) fn push_decimal(out: &mut Vec<u8>, n: u64) {
    let end;
    if let Ok(small @ 0..10_000) = u16::try_from(n) {
        let (digits, len) = decimal::up_to_four_digits(small);
        end = out.len() + len;
        out.extend_from_slice(&digits);
    } else {
        let (digits, len) = decimal::digits(n);
        end = out.len() + len;
        out.extend_from_slice(&digits);
    }
    out.truncate(end);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Writes a record per game, `[,]N/M;`, for games `numbers`.
    fn records(numbers: impl Iterator<Item = GameNumber>) -> Output {
        let mut out = Output::default();
        for number in numbers {
            out.extend(b"[");
            out.row_comma();
            out.extend(b"]");
            out.run_number(number);
            out.extend(b"/");
            out.input_number(number);
            out.extend(b";");
        }
        out
    }

    /// The output written after `rows_before` rows, its first game numbered after
    /// `run_before` and `input_before`.
    fn written(out: &Output, rows_before: u64, run_before: u64, input_before: u64) -> String {
        let mut bytes = Vec::new();
        let mut rows = rows_before;
        out.write_to(run_before, input_before, &mut rows, &mut bytes)
            .unwrap();
        String::from_utf8(bytes).unwrap()
    }

    #[test]
    fn holes_are_filled_as_known_numbers_are_written() {
        for (run_before, input_before) in [(0, 0), (9, 2), (99, 99)] {
            let known = records((1..=3).map(|k| GameNumber::Known {
                run: run_before + k,
                input: input_before + k,
            }));
            let later = records((0..3).map(|in_batch| GameNumber::Later { in_batch }));
            assert_eq!(
                written(&later, run_before, run_before, input_before),
                written(&known, run_before, 0, 0)
            );
        }
        let later = records((0..2).map(|in_batch| GameNumber::Later { in_batch }));
        assert_eq!(written(&later, 0, 0, 0), "[]1/1;[,]2/2;");
        assert_eq!(written(&later, 9, 9, 1), "[,]10/2;[,]11/3;");
    }

    #[cfg(feature = "parquet")]
    #[test]
    fn rows_written_column_by_column_fill_row_groups_as_row_by_row() {
        use crate::parquet::{ParquetOptions, ParquetWriter};

        let columns: Arc<[Column]> = [
            Column::required("game", ColumnKind::Int64),
            Column::optional("name", ColumnKind::String),
            Column::optional("nags", ColumnKind::Int32List),
        ]
        .into();
        let names = ["", "a", "a longer name, of forty bytes or so....."];
        const NAGS: [u8; 5] = [1, 2, 3, 4, 5];
        let mut output = Output::default();
        let mut expected = Vec::new();
        for in_batch in 0..200u64 {
            let name = (in_batch % 4 != 3).then(|| names[in_batch as usize % 3]);
            let nags = (in_batch % 5 != 4).then(|| &NAGS[..in_batch as usize % 6]);
            output.cell(&columns, Cell::Run(GameNumber::Later { in_batch }));
            output.cell(&columns, Cell::from(name));
            output.cell(&columns, nags.map_or(Cell::Null, Cell::List));
            output.end_cells(&columns);
            output.count_row();
            expected.push((1000 + in_batch as i64 + 1, name, nags));
        }
        // Groups cut by their rows, by their bytes, and by neither within the batch.
        for (row_group_rows, row_group_bytes) in [(7, 1 << 20), (1000, 300), (13, 250), (1, 0)] {
            let options = ParquetOptions {
                row_group_rows,
                row_group_bytes,
                ..ParquetOptions::default()
            };
            let mut by_columns = ParquetWriter::new(Vec::new(), &columns, options).unwrap();
            output.write_cells(1000, 0, &mut by_columns).unwrap();
            let mut by_rows = ParquetWriter::new(Vec::new(), &columns, options).unwrap();
            for &(game, name, nags) in &expected {
                by_rows.push(game);
                by_rows.push(name);
                by_rows.push(nags.map_or(Value::Null, Value::List));
                by_rows.end_row().unwrap();
            }
            assert!(by_rows.row_groups() > 1);
            assert_eq!(by_columns.row_groups(), by_rows.row_groups());
            assert_eq!(by_columns.finish().unwrap(), by_rows.finish().unwrap());
        }
    }

    #[test]
    fn numbers_format_in_decimal() {
        for n in (0..20_000).chain([
            0,
            7,
            9,
            10,
            99,
            100,
            1234567890,
            10u64.pow(19) - 1,
            10u64.pow(19),
            u64::MAX,
        ]) {
            let mut out = b"x".to_vec();
            push_decimal(&mut out, n);
            assert_eq!(out, format!("x{n}").as_bytes());
        }
    }
}
