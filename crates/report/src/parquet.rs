//! A streaming Parquet writer: typed columns, rows appended one value at a time into column
//! buffers, a zstd-compressed row group written every [`ParquetOptions::row_group_rows`] rows (or
//! sooner when the buffered values pass [`ParquetOptions::row_group_bytes`]), so that memory stays
//! flat however many rows are written.
//!
//! The file is written front to back to any `Write + Send` (no seeking): the header, then each
//! row group as it fills, then the footer at [`ParquetWriter::finish`]. A writer dropped without
//! `finish` leaves a file without its footer, which no reader opens: write through the `-o FILE`
//! sink that removes half files.
//!
//! Column kinds map to Parquet types that DuckDB, pandas (pyarrow), Polars and Spark read as they
//! are: [`ColumnKind::String`] is `BYTE_ARRAY` (UTF-8 `STRING`), `Int64` is `INT64`, `Int32` is
//! `INT32`, `UInt32` is `INT32` annotated as unsigned 32-bit, `Float64` is `DOUBLE`, `Bool` is
//! `BOOLEAN`, `Date` is `INT32` annotated as `DATE` (days since 1970-01-01), `Int16` is `INT32`
//! annotated as signed 16-bit, `Time` is `INT64` annotated as `TIME` (microseconds, not adjusted
//! to UTC: Spark refuses any other `TIME`), `TimeMillisUtc` is `INT32` annotated as `TIME`
//! (milliseconds, adjusted to UTC, as the lichess dataset has it) and `Timestamp` is `INT64`
//! annotated as `TIMESTAMP` (milliseconds, UTC) and `Int32List` is a `LIST` of required
//! `INT32` (the standard three levels: the column a group annotated `LIST`, a repeated group
//! `list`, its field `element`). Any column may be nullable.
//!
//! Errors are [`ParquetError`]s. When writing to the output failed, the error is the output's
//! own, as `ParquetError::External` (Parquet turns some into text, `fail to get inner writer:
//! ...`, losing their kind: the writer keeps the output's first error and returns it instead);
//! [`io_error`] unwraps it, so that it reads as one clause (`cannot write FILE: ...`) and a closed
//! pipe is still told apart.
//!
//! Strings are copied once into one byte buffer per column; at each row group they are handed to
//! the Parquet encoder as slices of that buffer, so no value is allocated on its own.
//!
//! # Examples
//!
//! ```
//! use arbiter_report::columns::{Column, ColumnKind};
//! use arbiter_report::parquet::{ParquetOptions, ParquetWriter, Value};
//!
//! let columns = [
//!     Column::required("game", ColumnKind::Int64),
//!     Column::optional("clock_ms", ColumnKind::UInt32),
//!     Column::required("san", ColumnKind::String),
//! ];
//! let mut writer = ParquetWriter::new(Vec::new(), &columns, ParquetOptions::default()).unwrap();
//! writer.push(1i64);
//! writer.push(Some(180_000u32));
//! writer.push("e4");
//! writer.end_row().unwrap();
//! writer.push(1i64);
//! writer.push(Value::Null);
//! writer.push("e5");
//! writer.end_row().unwrap();
//! let bytes = writer.finish().unwrap();
//! assert_eq!(&bytes[..4], b"PAR1");
//! ```

use std::io::{self, Write};
use std::ops::Range;
use std::sync::{Arc, Mutex, PoisonError};

use ::parquet::basic::{
    Compression, LogicalType, Repetition, TimeUnit, Type as PhysicalType, ZstdLevel,
};
use ::parquet::data_type::{BoolType, ByteArray, ByteArrayType, DoubleType, Int32Type, Int64Type};
pub use ::parquet::errors::ParquetError;
use ::parquet::file::properties::{EnabledStatistics, WriterProperties};
use ::parquet::file::writer::SerializedFileWriter;
use ::parquet::schema::types::{ColumnPath, Type};
use bytes::Bytes;

pub use crate::columnar::Value;
use crate::columnar::{ColumnBuffers, Fill, Values};
use crate::columns::{Column, ColumnKind};

/// `err` as an I/O error: the output's own error when writing to the output failed (Parquet
/// wraps it as `External: ERROR`, and shows it once more as its source), else `err` itself.
pub fn io_error(err: ParquetError) -> io::Error {
    match err {
        ParquetError::External(inner) => match inner.downcast::<io::Error>() {
            Ok(io) => *io,
            Err(other) => io::Error::other(other),
        },
        other => io::Error::other(other),
    }
}

/// The output, keeping (a copy of) the first error writing to it.
struct Watched<W> {
    out: W,
    failed: Arc<Mutex<Option<io::Error>>>,
}

impl<W: Write> Watched<W> {
    fn watch<T>(&self, result: io::Result<T>) -> io::Result<T> {
        if let Err(err) = result.as_ref()
            && err.kind() != io::ErrorKind::Interrupted
        {
            let mut failed = self.failed.lock().unwrap_or_else(PoisonError::into_inner);
            failed.get_or_insert_with(|| io::Error::new(err.kind(), err.to_string()));
        }
        result
    }
}

impl<W: Write> Write for Watched<W> {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        let result = self.out.write(bytes);
        self.watch(result)
    }

    fn flush(&mut self) -> io::Result<()> {
        let result = self.out.flush();
        self.watch(result)
    }
}

/// The output's error kept by [`Watched`], as a [`ParquetError`].
fn take_error(failed: &Mutex<Option<io::Error>>) -> Option<ParquetError> {
    let kept = failed.lock().unwrap_or_else(PoisonError::into_inner).take();
    kept.map(|io| ParquetError::External(Box::new(io)))
}

/// Where rows go one value at a time: a [`ParquetWriter`], or a writer that hands them on to
/// files of its own (`export -o DIR --rows-per-file N` cuts them into parts).
pub trait RowSink {
    /// The columns every row has, in order.
    fn columns(&self) -> &[Column];
    /// Appends the value of the next column of the current row (see [`ParquetWriter::push`]).
    fn push_value(&mut self, value: Value<'_>);
    /// Ends the current row (see [`ParquetWriter::end_row`]).
    fn end_row(&mut self) -> Result<(), ParquetError>;
}

/// A [`RowSink`] that takes a batch's rows a column's run of values at a time (`Output`'s
/// cells, in `ColumnBuffers` as the sink's own buffers hold them).
pub(crate) trait ColumnSink: RowSink {
    /// How many more rows, and bytes as `ColumnBuffers::bytes` counts them, fill the sink's
    /// buffers: the row that reaches either is the last before they are written out.
    fn room(&self) -> (usize, usize);
    /// Appends rows `rows` of `from` (see `ColumnBuffers::append`), no more than
    /// [`ColumnSink::room`] allows, and writes the buffers out when they are full; returns the
    /// bytes added.
    fn append(
        &mut self,
        from: &ColumnBuffers,
        rows: Range<usize>,
        fills: &[Fill],
    ) -> Result<usize, ParquetError>;
}

impl<W: Write + Send> RowSink for ParquetWriter<W> {
    fn columns(&self) -> &[Column] {
        self.buffered.columns()
    }

    fn push_value(&mut self, value: Value<'_>) {
        self.push(value);
    }

    fn end_row(&mut self) -> Result<(), ParquetError> {
        ParquetWriter::end_row(self)
    }
}

impl<W: Write + Send> ColumnSink for ParquetWriter<W> {
    fn room(&self) -> (usize, usize) {
        (
            self.options
                .row_group_rows
                .saturating_sub(self.buffered.rows()),
            self.options
                .row_group_bytes
                .saturating_sub(self.buffered.bytes()),
        )
    }

    fn append(
        &mut self,
        from: &ColumnBuffers,
        rows: Range<usize>,
        fills: &[Fill],
    ) -> Result<usize, ParquetError> {
        let bytes = self.buffered.append(from, rows, fills);
        self.write_if_full()?;
        Ok(bytes)
    }
}

/// How row groups are cut and compressed.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub struct ParquetOptions {
    /// Rows per row group (default 65,536).
    pub row_group_rows: usize,
    /// Buffered bytes that end a row group early (default 64 MiB): strings count their length,
    /// other values 8 bytes.
    pub row_group_bytes: usize,
    /// The zstd level, 1 to 22 (default 1: level 3 made ply files 1% smaller and game files no
    /// smaller, and cost 2% of export's time).
    pub zstd_level: i32,
}

impl Default for ParquetOptions {
    fn default() -> ParquetOptions {
        ParquetOptions {
            row_group_rows: 65_536,
            row_group_bytes: 64 << 20,
            zstd_level: 1,
        }
    }
}

/// Writes rows of the given columns as a Parquet file; see the module documentation.
pub struct ParquetWriter<W: Write + Send> {
    writer: SerializedFileWriter<Watched<W>>,
    /// The first error of the output, kept by [`Watched`].
    failed: Arc<Mutex<Option<io::Error>>>,
    /// The rows of the next row group.
    buffered: ColumnBuffers,
    options: ParquetOptions,
    /// Rows written in earlier row groups.
    rows_written: u64,
    /// Scratch for string columns' values at each row group.
    arrays: Vec<ByteArray>,
    /// Scratch for list columns' definition and repetition levels at each row group.
    list_levels: (Vec<i16>, Vec<i16>),
}

impl<W: Write + Send> ParquetWriter<W> {
    /// Starts a file of `columns` on `out` (writes its 4-byte header). Two columns of one name
    /// are an error: DuckDB, pandas and Polars cannot tell them apart.
    pub fn new(
        out: W,
        columns: &[Column],
        options: ParquetOptions,
    ) -> Result<ParquetWriter<W>, ParquetError> {
        for (i, column) in columns.iter().enumerate() {
            if columns[..i]
                .iter()
                .any(|earlier| earlier.name == column.name)
            {
                return Err(ParquetError::General(format!(
                    "the column name {:?} appears twice",
                    column.name
                )));
            }
        }
        let fields = columns
            .iter()
            .map(|column| field(column).map(Arc::new))
            .collect::<Result<Vec<_>, _>>()?;
        let schema = Type::group_type_builder("schema")
            .with_fields(fields)
            .build()?;
        let properties = WriterProperties::builder()
            .set_compression(Compression::ZSTD(ZstdLevel::try_new(options.zstd_level)?))
            .set_created_by(concat!("arbiter ", env!("CARGO_PKG_VERSION")).to_string())
            // Min and max per column chunk (what DuckDB and Spark skip row groups by), not per
            // page: the page index stays in memory to the end, and on a gigabyte of plies it
            // was a quarter of the peak memory.
            .set_statistics_enabled(EnabledStatistics::Chunk);
        // None for strings: names, sites and FENs vary so within a row group that their min and
        // max skip nothing, and comparing them byte by byte cost 1.5% of export's time.
        let properties = columns
            .iter()
            .filter(|column| column.kind == ColumnKind::String)
            .fold(properties, |properties, column| {
                let path = ColumnPath::from(column.name.as_str());
                properties.set_column_statistics_enabled(path, EnabledStatistics::None)
            })
            .build();
        let failed = Arc::new(Mutex::new(None));
        let out = Watched {
            out,
            failed: Arc::clone(&failed),
        };
        let writer = SerializedFileWriter::new(out, Arc::new(schema), Arc::new(properties))?;
        Ok(ParquetWriter {
            writer,
            failed,
            buffered: ColumnBuffers::new(columns),
            options: ParquetOptions {
                row_group_rows: options.row_group_rows.max(1),
                ..options
            },
            rows_written: 0,
            arrays: Vec::new(),
            list_levels: (Vec::new(), Vec::new()),
        })
    }

    /// The columns, as given.
    pub fn columns(&self) -> &[Column] {
        self.buffered.columns()
    }

    /// Appends the value of the next column of the current row.
    ///
    /// # Panics
    ///
    /// When the row already has a value for every column, when the value's kind is not the
    /// column's, or when it is [`Value::Null`] for a required column: these are mistakes in the
    /// calling code, not in the data.
    pub fn push<'a>(&mut self, value: impl Into<Value<'a>>) {
        self.buffered.push(value.into());
    }

    /// Ends the current row; writes a row group when the buffers are full.
    ///
    /// # Panics
    ///
    /// When the row lacks a value for some column.
    pub fn end_row(&mut self) -> Result<(), ParquetError> {
        self.buffered.end_row();
        self.write_if_full()
    }

    /// Writes a row group when the buffers are full.
    fn write_if_full(&mut self) -> Result<(), ParquetError> {
        if self.buffered.rows() >= self.options.row_group_rows
            || self.buffered.bytes() >= self.options.row_group_bytes
        {
            let written = self.write_row_group();
            written.map_err(|e| self.output_error(e))?;
        }
        Ok(())
    }

    /// Rows ended so far, written or buffered.
    pub fn rows(&self) -> u64 {
        self.rows_written + self.buffered.rows() as u64
    }

    /// Row groups written so far.
    pub fn row_groups(&self) -> usize {
        self.writer.flushed_row_groups().len()
    }

    /// Writes the buffered rows, then the footer, and hands back the output (flushed).
    ///
    /// # Panics
    ///
    /// When a row was started and not ended.
    pub fn finish(mut self) -> Result<W, ParquetError> {
        assert!(!self.buffered.in_row(), "the last row was not ended");
        let written = self.write_row_group();
        written.map_err(|e| self.output_error(e))?;
        let failed = Arc::clone(&self.failed);
        let output_error = |err| take_error(&failed).unwrap_or(err);
        let mut out = self.writer.into_inner().map_err(output_error)?.out;
        out.flush()?;
        Ok(out)
    }

    /// `err`, or the output's own error when writing to it failed.
    fn output_error(&self, err: ParquetError) -> ParquetError {
        take_error(&self.failed).unwrap_or(err)
    }

    /// Writes the buffered rows as one row group, if there are any, and empties the buffers.
    fn write_row_group(&mut self) -> Result<(), ParquetError> {
        let rows = self.buffered.rows();
        if rows == 0 {
            return Ok(());
        }
        let mut group = self.writer.next_row_group()?;
        for (_, buffer) in self.buffered.buffers_mut() {
            let mut column = group
                .next_column()?
                .ok_or_else(|| ParquetError::General("fewer columns than buffers".into()))?;
            let levels = (!buffer.levels.is_empty()).then_some(&buffer.levels[..]);
            match &mut buffer.values {
                Values::Bytes { data, ends } => {
                    let capacity = data.capacity();
                    let all = Bytes::from(std::mem::replace(data, Vec::with_capacity(capacity)));
                    let mut start = 0;
                    self.arrays.extend(ends.iter().map(|&end| {
                        let value = ByteArray::from(all.slice(start..end));
                        start = end;
                        value
                    }));
                    column
                        .typed::<ByteArrayType>()
                        .write_batch(&self.arrays, levels, None)?;
                    self.arrays.clear();
                    ends.clear();
                }
                Values::I64(values) => {
                    column
                        .typed::<Int64Type>()
                        .write_batch(values, levels, None)?;
                    values.clear();
                }
                Values::I32(values) => {
                    column
                        .typed::<Int32Type>()
                        .write_batch(values, levels, None)?;
                    values.clear();
                }
                Values::F64(values) => {
                    column
                        .typed::<DoubleType>()
                        .write_batch(values, levels, None)?;
                    values.clear();
                }
                Values::Bool(values) => {
                    column
                        .typed::<BoolType>()
                        .write_batch(values, levels, None)?;
                    values.clear();
                }
                Values::Lists { items, ends } => {
                    let (definitions, repetitions) = &mut self.list_levels;
                    list_levels(levels, ends, definitions, repetitions);
                    column.typed::<Int32Type>().write_batch(
                        items,
                        Some(definitions),
                        Some(repetitions),
                    )?;
                    items.clear();
                    ends.clear();
                    definitions.clear();
                    repetitions.clear();
                }
            }
            buffer.levels.clear();
            column.close()?;
        }
        group.close()?;
        self.rows_written += rows as u64;
        self.buffered.taken();
        Ok(())
    }
}

/// The definition and repetition levels of a list column's numbers, from its rows' levels
/// (`None` for a required column) and where each non-null row's list ends: a null row is
/// defined to level 0, an empty list to the level below its numbers', and each number to the
/// top level (2 when the column is nullable, else 1), repeated (1) but for a list's first.
fn list_levels(
    rows: Option<&[i16]>,
    ends: &[usize],
    definitions: &mut Vec<i16>,
    repetitions: &mut Vec<i16>,
) {
    let top = if rows.is_some() { 2 } else { 1 };
    let mut lists = ends.iter();
    let mut start = 0;
    let mut list = |definitions: &mut Vec<i16>, repetitions: &mut Vec<i16>| {
        let end = lists.next().copied().unwrap_or(start);
        if end == start {
            definitions.push(top - 1);
            repetitions.push(0);
        }
        for i in start..end {
            definitions.push(top);
            repetitions.push(i16::from(i > start));
        }
        start = end;
    };
    match rows {
        None => (0..ends.len()).for_each(|_| list(definitions, repetitions)),
        Some(rows) => {
            for &row in rows {
                if row == 0 {
                    definitions.push(0);
                    repetitions.push(0);
                } else {
                    list(definitions, repetitions);
                }
            }
        }
    }
}

/// The Parquet schema field of a column.
fn field(column: &Column) -> Result<Type, ParquetError> {
    let repetition = if column.nullable {
        Repetition::OPTIONAL
    } else {
        Repetition::REQUIRED
    };
    let (physical, logical) = match column.kind {
        ColumnKind::Int32List => {
            let element = Type::primitive_type_builder("element", PhysicalType::INT32)
                .with_repetition(Repetition::REQUIRED)
                .build()?;
            let list = Type::group_type_builder("list")
                .with_repetition(Repetition::REPEATED)
                .with_fields(vec![Arc::new(element)])
                .build()?;
            return Type::group_type_builder(&column.name)
                .with_repetition(repetition)
                .with_logical_type(Some(LogicalType::List))
                .with_fields(vec![Arc::new(list)])
                .build();
        }
        ColumnKind::String => (PhysicalType::BYTE_ARRAY, Some(LogicalType::String)),
        ColumnKind::Int64 => (PhysicalType::INT64, None),
        ColumnKind::Int32 => (PhysicalType::INT32, None),
        ColumnKind::UInt32 => (PhysicalType::INT32, Some(LogicalType::integer(32, false))),
        ColumnKind::Float64 => (PhysicalType::DOUBLE, None),
        ColumnKind::Bool => (PhysicalType::BOOLEAN, None),
        ColumnKind::Date => (PhysicalType::INT32, Some(LogicalType::Date)),
        ColumnKind::Int16 => (PhysicalType::INT32, Some(LogicalType::integer(16, true))),
        ColumnKind::Time => (
            PhysicalType::INT64,
            Some(LogicalType::time(false, TimeUnit::MICROS)),
        ),
        ColumnKind::TimeMillisUtc => (
            PhysicalType::INT32,
            Some(LogicalType::time(true, TimeUnit::MILLIS)),
        ),
        ColumnKind::Timestamp => (
            PhysicalType::INT64,
            Some(LogicalType::timestamp(true, TimeUnit::MILLIS)),
        ),
    };
    Type::primitive_type_builder(&column.name, physical)
        .with_repetition(repetition)
        .with_logical_type(logical)
        .build()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all_kinds() -> Vec<Column> {
        vec![
            Column::required("game", ColumnKind::Int64),
            Column::required("san", ColumnKind::String),
            Column::optional("comment", ColumnKind::String),
        ]
    }

    #[test]
    #[should_panic(expected = "column \"game\" holds Int64 values, not Str(\"x\")")]
    fn a_value_of_the_wrong_kind_is_a_bug() {
        let mut writer =
            ParquetWriter::new(Vec::new(), &all_kinds(), ParquetOptions::default()).unwrap();
        writer.push("x");
    }

    #[test]
    #[should_panic(expected = "column \"san\" holds String values, not Null")]
    fn a_null_in_a_required_column_is_a_bug() {
        let mut writer =
            ParquetWriter::new(Vec::new(), &all_kinds(), ParquetOptions::default()).unwrap();
        writer.push(1i64);
        writer.push(Value::Null);
    }

    #[test]
    fn buffers_stay_the_size_of_one_row_group() {
        let options = ParquetOptions {
            row_group_rows: 1_000,
            ..ParquetOptions::default()
        };
        let mut writer = ParquetWriter::new(std::io::sink(), &all_kinds(), options).unwrap();
        let text = "a comment of 24 bytes...";
        for n in 0..50_000i64 {
            writer.push(n);
            writer.push(text);
            writer.push((n % 2 == 0).then_some(text));
            writer.end_row().unwrap();
        }
        assert_eq!(writer.row_groups(), 50);
        for (_, buffer) in writer.buffered.buffers_mut() {
            assert!(buffer.levels.capacity() <= 1_024);
            match &buffer.values {
                Values::Bytes { data, ends } => {
                    // One group of 24-byte strings, with room from doubling as it grew.
                    assert!(data.capacity() <= 2 * 1_000 * 24, "{}", data.capacity());
                    assert!(ends.capacity() <= 1_024);
                }
                Values::I64(values) => assert!(values.capacity() <= 1_024),
                other => panic!("{other:?}"),
            }
        }
        writer.finish().unwrap();
    }

    #[test]
    fn a_column_name_twice_is_an_error() {
        let columns = [
            Column::required("white", ColumnKind::String),
            Column::optional("white", ColumnKind::String),
        ];
        let error = ParquetWriter::new(Vec::new(), &columns, ParquetOptions::default())
            .err()
            .expect("an error");
        assert_eq!(
            error.to_string(),
            "Parquet error: the column name \"white\" appears twice"
        );
    }

    #[test]
    fn a_bad_zstd_level_is_an_error() {
        let options = ParquetOptions {
            zstd_level: 99,
            ..ParquetOptions::default()
        };
        assert!(ParquetWriter::new(Vec::new(), &all_kinds(), options).is_err());
    }

    #[test]
    fn an_output_error_reads_as_itself() {
        struct Full;
        impl Write for Full {
            fn write(&mut self, _: &[u8]) -> io::Result<usize> {
                Err(io::Error::new(
                    io::ErrorKind::StorageFull,
                    "cannot write out.parquet: no space left",
                ))
            }
            fn flush(&mut self) -> io::Result<()> {
                Ok(())
            }
        }
        let writer = ParquetWriter::new(Full, &all_kinds(), ParquetOptions::default()).unwrap();
        let error = writer.finish().err().expect("the file cannot be written");
        assert!(error.to_string().starts_with("External: "), "{error}");
        let error = io_error(error);
        assert_eq!(error.kind(), io::ErrorKind::StorageFull);
        assert_eq!(error.to_string(), "cannot write out.parquet: no space left");
        assert!(std::error::Error::source(&error).is_none());
        let general = io_error(ParquetError::General("bad".into()));
        assert_eq!(general.to_string(), "Parquet error: bad");
    }
}
