//! Formatted output whose game numbers may not be known yet. A part of an input read on another
//! core does not know how many games came before it, so its records leave holes where the numbers
//! go, and the holes are filled in when the output is written, in input order.
//!
//! Output is bytes (text formats) or typed [`Cell`]s (Parquet rows), and goes to a
//! [`Destination`]: a byte stream, or a Parquet writer (`report::parquet`, with the `parquet`
//! feature).

use std::io::{self, Write};

use arbiter_core::clocks::Millis;
use arbiter_core::replay::GameReport;

use crate::date::{CalendarDate, Date32};
use crate::decimal;
use crate::moment::Moment;

#[cfg(feature = "parquet")]
use crate::{
    columns::ColumnKind,
    parquet::{self, ParquetError, ParquetWriter, RowSink, Value},
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
    /// Parquet rows: their cells end to end.
    cells: Vec<StoredCell>,
    /// The bytes the cells count for in a writer's buffers ([`counted_bytes`]).
    cell_bytes: usize,
    /// Rows (records) in the output.
    rows: u64,
}

/// A [`Cell`] kept for a Parquet row: strings go to the output's bytes. Sixteen bytes (a game
/// number is kept as the one number its column shows): a batch holds some forty cells a game,
/// and at 32 bytes a cell, growing and copying them cost Parquet export 2% of its instructions.
#[derive(Copy, Clone, Debug, PartialEq)]
enum StoredCell {
    Null,
    /// A string at `bytes[start..end]`.
    Str(u32, u32),
    Int(i64),
    Seconds(Millis),
    Bool(bool),
    Date(Date32),
    /// The game's number across all inputs, known, or a hole: its place in its batch.
    Run(u64),
    RunLater(u64),
    /// The game's number in its input, known, or a hole: its place in its batch.
    Input(u64),
    InputLater(u64),
    /// A list of small numbers at `bytes[start..end]`, one byte each.
    List(u32, u32),
}

/// The cells an output makes room for at its first (256 KiB of them).
const CELLS_RESERVED: usize = (256 << 10) / size_of::<StoredCell>();

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
        self.bytes.len()
            + self.holes.len() * size_of::<Hole>()
            + self.cells.len() * size_of::<StoredCell>()
    }

    /// Whether nothing was written.
    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty() && self.holes.is_empty() && self.cells.is_empty()
    }

    /// Empties the output, keeping its memory.
    pub fn clear(&mut self) {
        self.bytes.clear();
        self.holes.clear();
        self.cells.clear();
        self.cell_bytes = 0;
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

    /// Appends a typed cell of a Parquet row (inlined: a caller gives one kind of cell, and
    /// the match on it goes away).
    #[inline(always)]
    pub fn cell(&mut self, cell: Cell<'_>) {
        let stored = match cell {
            Cell::Null => StoredCell::Null,
            Cell::Str(s) | Cell::Plain(s) => {
                let start = self.bytes.len() as u32;
                self.bytes.extend_from_slice(s.as_bytes());
                StoredCell::Str(start, self.bytes.len() as u32)
            }
            Cell::Int(n) => StoredCell::Int(n),
            Cell::Seconds(ms) => StoredCell::Seconds(ms),
            Cell::Bool(b) => StoredCell::Bool(b),
            Cell::Date(d) => StoredCell::Date(d.days()),
            Cell::Moment(m) => StoredCell::Int(m.millis()),
            Cell::Run(GameNumber::Known { run, .. }) => StoredCell::Run(run),
            Cell::Run(GameNumber::Later { in_batch }) => StoredCell::RunLater(in_batch),
            Cell::Input(GameNumber::Known { input, .. }) => StoredCell::Input(input),
            Cell::Input(GameNumber::Later { in_batch }) => StoredCell::InputLater(in_batch),
            Cell::List(items) => {
                let start = self.bytes.len() as u32;
                self.bytes.extend_from_slice(items);
                StoredCell::List(start, self.bytes.len() as u32)
            }
        };
        if self.cells.capacity() == 0 {
            // A batch's output is cut at some 256 KiB (the pipeline's): room for its cells at
            // once, rather than a dozen copies as the vector doubles.
            self.cells.reserve(CELLS_RESERVED);
        }
        self.cell_bytes += counted_bytes(stored);
        self.cells.push(stored);
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
    /// [`Output::write_to`] fills them. The rows go column by column, as many at a time as the
    /// writer's buffers take before they are full, so that they fill where row by row would.
    pub fn write_cells(
        &self,
        run_before: u64,
        input_before: u64,
        writer: &mut impl RowSink,
    ) -> Result<(), ParquetError> {
        let kinds: Vec<ColumnKind> = writer.columns().iter().map(|c| c.kind).collect();
        let width = kinds.len().max(1);
        debug_assert!(
            self.cells.len().is_multiple_of(width),
            "a row without all its cells"
        );
        let rows = self.cells.len() / width;
        let mut first = 0;
        let mut bytes_left = self.cell_bytes;
        while first < rows {
            let (room_rows, room_bytes) = writer.room();
            let mut take = room_rows.clamp(1, rows - first);
            if bytes_left >= room_bytes {
                // The buffers may fill by their bytes within these rows: at the row that does.
                let mut bytes = 0;
                let row_cells = self.cells[first * width..].chunks_exact(width);
                for (k, row) in row_cells.take(take).enumerate() {
                    bytes += row.iter().map(|&cell| counted_bytes(cell)).sum::<usize>();
                    if bytes >= room_bytes {
                        take = k + 1;
                        break;
                    }
                }
            }
            let cells = &self.cells[first * width..(first + take) * width];
            let added = writer.push_rows(take, |column| {
                let kind = kinds[column];
                cells[column..]
                    .iter()
                    .step_by(width)
                    .map(move |&cell| self.value(cell, kind, run_before, input_before))
            })?;
            debug_assert!(added <= bytes_left, "the cells' bytes miscounted");
            bytes_left -= added;
            first += take;
        }
        Ok(())
    }

    #[cfg(feature = "parquet")]
    /// A stored cell as a value of a column of `kind`, its game number filled in.
    #[inline]
    fn value(
        &self,
        cell: StoredCell,
        kind: ColumnKind,
        run_before: u64,
        input_before: u64,
    ) -> Value<'_> {
        match cell {
            StoredCell::Null => Value::Null,
            // Copied from a `str` by `Output::cell`.
            StoredCell::Str(start, end) => Value::Utf8(&self.bytes[start as usize..end as usize]),
            StoredCell::Int(n) => int_value(n, kind),
            StoredCell::Seconds(ms) => Value::F64(f64::from(ms) / 1000.0),
            StoredCell::Bool(b) => Value::Bool(b),
            StoredCell::Date(d) => Value::Date(d),
            StoredCell::Run(n) | StoredCell::Input(n) => int_value(n as i64, kind),
            StoredCell::RunLater(in_batch) => int_value((run_before + in_batch + 1) as i64, kind),
            StoredCell::InputLater(in_batch) => {
                int_value((input_before + in_batch + 1) as i64, kind)
            }
            StoredCell::List(start, end) => Value::List(&self.bytes[start as usize..end as usize]),
        }
    }
}

/// The bytes a stored cell counts for in a writer's column buffers, as
/// [`ColumnBuffers::bytes`](crate::columnar::ColumnBuffers::bytes) counts them: a string its
/// length and 8, a list 4 a number and 8, a null none, any other value 8.
fn counted_bytes(cell: StoredCell) -> usize {
    match cell {
        StoredCell::Null => 0,
        StoredCell::Str(start, end) => (end - start) as usize + 8,
        StoredCell::List(start, end) => 4 * (end - start) as usize + 8,
        _ => 8,
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
/// `memcpy` (a game row holds a dozen numbers).
#[inline]
pub(crate) fn push_decimal(out: &mut Vec<u8>, n: u64) {
    let (digits, len) = decimal::digits(n);
    let end = out.len() + len;
    out.extend_from_slice(&digits);
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
    fn a_stored_cell_is_sixteen_bytes() {
        assert_eq!(size_of::<StoredCell>(), 16);
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
        use crate::columns::Column;
        use crate::parquet::{ParquetOptions, ParquetWriter};

        let columns = [
            Column::required("game", ColumnKind::Int64),
            Column::optional("name", ColumnKind::String),
            Column::optional("nags", ColumnKind::Int32List),
        ];
        let names = ["", "a", "a longer name, of forty bytes or so....."];
        const NAGS: [u8; 5] = [1, 2, 3, 4, 5];
        let mut output = Output::default();
        let mut expected = Vec::new();
        for in_batch in 0..200u64 {
            let name = (in_batch % 4 != 3).then(|| names[in_batch as usize % 3]);
            let nags = (in_batch % 5 != 4).then(|| &NAGS[..in_batch as usize % 6]);
            output.cell(Cell::Run(GameNumber::Later { in_batch }));
            output.cell(Cell::from(name));
            output.cell(nags.map_or(Cell::Null, Cell::List));
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
        for n in [
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
        ] {
            let mut out = b"x".to_vec();
            push_decimal(&mut out, n);
            assert_eq!(out, format!("x{n}").as_bytes());
        }
    }
}
