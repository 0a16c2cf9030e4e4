//! Export's rows as Arrow record batches (with the `arrow` feature): the same columns and cells
//! the Parquet writer takes ([`RowSink`]), held in the same column buffers
//! (`ColumnBuffers`: values without nulls, definition levels) and made at each batch into Arrow
//! arrays of the types that pyarrow, Polars and DuckDB give when they read export's Parquet file
//! (a required column's values are handed over without a copy; a nullable one's are spread over
//! its rows), cut into record batches of a fixed number of rows, so that a reader of the batches
//! holds one batch at a time however many rows there are.
//!
//! The schema comes from the one column table ([`Column`]s) as the Parquet schema does: a
//! [`ColumnKind`] maps to one Arrow type, as pyarrow reads the Parquet type of that kind:
//! `String` is `Utf8`, `Int64`/`Int32`/`Int16`/`UInt32`/`Float64`/`Bool` are themselves, `Date`
//! is `Date32`, `Time` is `Time64(µs)`, `TimeMillisUtc` is `Time32(ms)`, `Timestamp` is
//! `Timestamp(ms, "UTC")` and `Int32List` is a `List` of non-null `Int32` items named
//! `element` (the Parquet list's field). A required column is a non-nullable field.
//!
//! # Examples
//!
//! ```
//! use arbiter_report::arrow::BatchBuilder;
//! use arbiter_report::columns::{Column, ColumnKind};
//! use arbiter_report::parquet::{RowSink, Value};
//!
//! let columns = [
//!     Column::required("game", ColumnKind::Int64),
//!     Column::optional("clock_ms", ColumnKind::UInt32),
//! ];
//! let mut builder = BatchBuilder::new(&columns, 2);
//! for (game, clock) in [(1i64, Some(180_000u32)), (1, None), (2, Some(3))] {
//!     builder.push_value(Value::I64(game));
//!     builder.push_value(clock.into());
//!     builder.end_row().unwrap();
//! }
//! let first = builder.take_ready().next().unwrap();
//! assert_eq!(first.num_rows(), 2);
//! let last = builder.finish().unwrap().unwrap();
//! assert_eq!(last.num_rows(), 1);
//! assert_eq!(last.schema(), builder.schema());
//! ```

use std::collections::VecDeque;
use std::io;
use std::ops::Range;
use std::sync::Arc;

use arrow_array::types::{
    Date32Type, Float64Type, Int16Type, Int32Type, Int64Type, Time32MillisecondType,
    Time64MicrosecondType, TimestampMillisecondType, UInt32Type,
};
pub use arrow_array::{ArrayRef, RecordBatch};
use arrow_array::{ArrowPrimitiveType, BooleanArray, ListArray, PrimitiveArray, StringArray};
use arrow_buffer::{BooleanBuffer, Buffer, NullBuffer, OffsetBuffer, ScalarBuffer};
pub use arrow_schema::{ArrowError, DataType, Field, Schema, SchemaRef, TimeUnit};

use crate::columnar::{ColumnBuffer, ColumnBuffers, Fill, Value, Values};
use crate::columns::{Column, ColumnKind};
use crate::output::{Destination, Output};
use crate::parquet::{self, ColumnSink, ParquetError, RowSink};

/// The rows of a record batch unless asked otherwise (the Parquet writer's row group).
pub const BATCH_ROWS: usize = 65_536;

/// The string bytes that end a batch early, whatever its rows: an Arrow `Utf8` array counts its
/// bytes in 32 bits.
const BATCH_BYTES: usize = 256 << 20;

/// The Arrow type of a column kind: the one pyarrow gives for its Parquet type.
pub fn data_type(kind: ColumnKind) -> DataType {
    match kind {
        ColumnKind::String => DataType::Utf8,
        ColumnKind::Int64 => DataType::Int64,
        ColumnKind::Int32 => DataType::Int32,
        ColumnKind::Int16 => DataType::Int16,
        ColumnKind::UInt32 => DataType::UInt32,
        ColumnKind::Float64 => DataType::Float64,
        ColumnKind::Bool => DataType::Boolean,
        ColumnKind::Date => DataType::Date32,
        ColumnKind::Time => DataType::Time64(TimeUnit::Microsecond),
        ColumnKind::TimeMillisUtc => DataType::Time32(TimeUnit::Millisecond),
        ColumnKind::Timestamp => DataType::Timestamp(TimeUnit::Millisecond, Some("UTC".into())),
        ColumnKind::Int32List => DataType::List(list_item()),
    }
}

/// The item field of an `Int32List` column's lists.
fn list_item() -> Arc<Field> {
    Arc::new(Field::new("element", DataType::Int32, false))
}

/// The Arrow schema of `columns`.
pub fn schema(columns: &[Column]) -> Schema {
    Schema::new(
        columns
            .iter()
            .map(|column| Field::new(&column.name, data_type(column.kind), column.nullable))
            .collect::<Vec<_>>(),
    )
}

/// Where a nullable column's levels say null, or `None` for a required column.
fn nulls(levels: &[i16]) -> Option<NullBuffer> {
    (!levels.is_empty()).then(|| NullBuffer::new(levels.iter().map(|&l| l == 1).collect()))
}

/// The values of a column spread over its rows: a default value where a level says null.
fn spread<T: Copy + Default>(dense: Vec<T>, levels: &[i16]) -> Vec<T> {
    if levels.is_empty() {
        return dense;
    }
    let mut values = dense.into_iter();
    levels
        .iter()
        .map(|&level| match level {
            1 => values.next().unwrap_or_default(),
            _ => T::default(),
        })
        .collect()
}

/// A primitive array of `T` from a column's values, converted by `convert`.
fn primitive<T: ArrowPrimitiveType, V: Copy + Default>(
    dense: Vec<V>,
    levels: &[i16],
    convert: impl Fn(V) -> T::Native,
) -> PrimitiveArray<T> {
    let values: Vec<T::Native> = spread(dense, levels).into_iter().map(convert).collect();
    PrimitiveArray::new(ScalarBuffer::from(values), nulls(levels))
}

/// Where each row's string or list ends, from where each value ends (`ends`, which it empties):
/// a null row ends where the row before it did. `what` names the values, for an error: Arrow
/// counts them in 32 bits.
fn offsets(
    column: &Column,
    ends: &mut Vec<usize>,
    levels: &[i16],
    what: &str,
) -> Result<OffsetBuffer<i32>, ArrowError> {
    let offset = |end: usize| {
        i32::try_from(end).map_err(|_| {
            ArrowError::ComputeError(format!(
                "column {:?}: more than 2^31 {what} in one batch",
                column.name
            ))
        })
    };
    let mut offsets = Vec::with_capacity(levels.len().max(ends.len()) + 1);
    offsets.push(0);
    let mut found = ends.drain(..);
    if levels.is_empty() {
        for end in found {
            offsets.push(offset(end)?);
        }
    } else {
        let mut last = 0;
        for &level in levels {
            if level == 1 {
                last = offset(found.next().unwrap_or_default())?;
            }
            offsets.push(last);
        }
    }
    Ok(OffsetBuffer::new(ScalarBuffer::from(offsets)))
}

/// The array of a column's buffered values, which it takes (the buffer is left empty, with room
/// for as many values).
fn array(column: &Column, buffer: &mut ColumnBuffer) -> Result<ArrayRef, ArrowError> {
    let levels = std::mem::take(&mut buffer.levels);
    let array: ArrayRef = match (&mut buffer.values, column.kind) {
        (Values::Bytes { data, ends }, _) => {
            let data = std::mem::replace(data, Vec::with_capacity(data.capacity()));
            let offsets = offsets(column, ends, &levels, "bytes of text")?;
            Arc::new(StringArray::try_new(
                offsets,
                Buffer::from_vec(data),
                nulls(&levels),
            )?)
        }
        (Values::I64(values), kind) => {
            let dense = std::mem::replace(values, Vec::with_capacity(values.capacity()));
            match kind {
                ColumnKind::Time => {
                    Arc::new(primitive::<Time64MicrosecondType, _>(dense, &levels, |v| v))
                }
                ColumnKind::Timestamp => Arc::new(
                    primitive::<TimestampMillisecondType, _>(dense, &levels, |v| v)
                        .with_timezone("UTC"),
                ),
                _ => Arc::new(primitive::<Int64Type, _>(dense, &levels, |v| v)),
            }
        }
        (Values::I32(values), kind) => {
            let dense = std::mem::replace(values, Vec::with_capacity(values.capacity()));
            match kind {
                // Checked to fit when pushed.
                ColumnKind::Int16 => {
                    Arc::new(primitive::<Int16Type, _>(dense, &levels, |v| v as i16))
                }
                // Kept by their bits.
                ColumnKind::UInt32 => {
                    Arc::new(primitive::<UInt32Type, _>(dense, &levels, |v| v as u32))
                }
                ColumnKind::Date => Arc::new(primitive::<Date32Type, _>(dense, &levels, |v| v)),
                ColumnKind::TimeMillisUtc => {
                    Arc::new(primitive::<Time32MillisecondType, _>(dense, &levels, |v| v))
                }
                _ => Arc::new(primitive::<Int32Type, _>(dense, &levels, |v| v)),
            }
        }
        (Values::F64(values), _) => {
            let dense = std::mem::replace(values, Vec::with_capacity(values.capacity()));
            Arc::new(primitive::<Float64Type, _>(dense, &levels, |v| v))
        }
        (Values::Bool(values), _) => {
            let dense = std::mem::replace(values, Vec::with_capacity(values.capacity()));
            let values = BooleanBuffer::from(spread(dense, &levels));
            Arc::new(BooleanArray::new(values, nulls(&levels)))
        }
        (Values::Lists { items, ends }, _) => {
            let items = std::mem::replace(items, Vec::with_capacity(items.capacity()));
            let offsets = offsets(column, ends, &levels, "numbers")?;
            let items = PrimitiveArray::<Int32Type>::new(ScalarBuffer::from(items), None);
            Arc::new(ListArray::try_new(
                list_item(),
                offsets,
                Arc::new(items),
                nulls(&levels),
            )?)
        }
    };
    buffer.levels = Vec::with_capacity(levels.capacity());
    Ok(array)
}

/// Builds rows into record batches of `batch_rows` rows (the last one shorter, and one with
/// 256 MiB of text cut sooner); see the module documentation.
#[derive(Debug)]
pub struct BatchBuilder {
    schema: SchemaRef,
    buffered: ColumnBuffers,
    batch_rows: usize,
    /// Batches full and not yet taken.
    ready: VecDeque<RecordBatch>,
}

impl BatchBuilder {
    /// A builder of batches of `columns`, `batch_rows` rows each (at least 1).
    pub fn new(columns: &[Column], batch_rows: usize) -> BatchBuilder {
        BatchBuilder {
            schema: Arc::new(schema(columns)),
            buffered: ColumnBuffers::new(columns),
            batch_rows: batch_rows.max(1),
            ready: VecDeque::new(),
        }
    }

    /// The schema of every batch.
    pub fn schema(&self) -> SchemaRef {
        Arc::clone(&self.schema)
    }

    /// The batches filled so far, oldest first, taken out of the builder.
    pub fn take_ready(&mut self) -> impl Iterator<Item = RecordBatch> + '_ {
        self.ready.drain(..)
    }

    /// The rows of the batch being built, as a batch, or `None` when there are none (after the
    /// batches filled, which [`BatchBuilder::take_ready`] takes).
    ///
    /// # Panics
    ///
    /// When a row was started and not ended.
    pub fn finish(&mut self) -> Result<Option<RecordBatch>, ArrowError> {
        assert!(!self.buffered.in_row(), "the last row was not ended");
        if self.buffered.rows() == 0 {
            return Ok(None);
        }
        self.cut().map(Some)
    }

    /// The rows built so far as a batch.
    fn cut(&mut self) -> Result<RecordBatch, ArrowError> {
        let arrays = self
            .buffered
            .buffers_mut()
            .map(|(column, buffer)| array(column, buffer))
            .collect::<Result<Vec<_>, _>>()?;
        self.buffered.taken();
        RecordBatch::try_new(Arc::clone(&self.schema), arrays)
    }
}

impl RowSink for BatchBuilder {
    fn columns(&self) -> &[Column] {
        self.buffered.columns()
    }

    /// Appends the value of the next column.
    ///
    /// # Panics
    ///
    /// As [`ParquetWriter::push`](crate::parquet::ParquetWriter::push) does: a value too
    /// many, of the wrong kind, or a null in a required column.
    fn push_value(&mut self, value: Value<'_>) {
        self.buffered.push(value);
    }

    fn end_row(&mut self) -> Result<(), ParquetError> {
        self.buffered.end_row();
        self.cut_if_full()
    }
}

impl ColumnSink for BatchBuilder {
    fn room(&self) -> (usize, usize) {
        (
            self.batch_rows.saturating_sub(self.buffered.rows()),
            BATCH_BYTES.saturating_sub(self.buffered.bytes()),
        )
    }

    fn append(
        &mut self,
        from: &ColumnBuffers,
        rows: Range<usize>,
        fills: &[Fill],
    ) -> Result<usize, ParquetError> {
        let bytes = self.buffered.append(from, rows, fills);
        self.cut_if_full()?;
        Ok(bytes)
    }
}

impl BatchBuilder {
    /// Cuts a batch when the buffers are full.
    fn cut_if_full(&mut self) -> Result<(), ParquetError> {
        if self.buffered.rows() >= self.batch_rows || self.buffered.bytes() >= BATCH_BYTES {
            let batch = self
                .cut()
                .map_err(|err| ParquetError::General(err.to_string()))?;
            self.ready.push_back(batch);
        }
        Ok(())
    }
}

/// A run's output as record batches, each handed to `send` as it fills (and the last at
/// [`Batches::finish`]). An error of `send` stops the run (a reader that went away).
pub struct Batches<F> {
    builder: BatchBuilder,
    send: F,
}

impl<F: FnMut(RecordBatch) -> io::Result<()>> Batches<F> {
    /// Batches of `columns`, `batch_rows` rows each, handed to `send`.
    pub fn new(columns: &[Column], batch_rows: usize, send: F) -> Batches<F> {
        Batches {
            builder: BatchBuilder::new(columns, batch_rows),
            send,
        }
    }

    /// The schema of every batch.
    pub fn schema(&self) -> SchemaRef {
        self.builder.schema()
    }

    /// Hands on the last rows, if any.
    pub fn finish(mut self) -> io::Result<()> {
        match self.builder.finish().map_err(io::Error::other)? {
            Some(batch) => (self.send)(batch),
            None => Ok(()),
        }
    }
}

impl<F: FnMut(RecordBatch) -> io::Result<()>> Destination for Batches<F> {
    fn write(&mut self, output: &Output, run_before: u64, input_before: u64) -> io::Result<()> {
        output
            .write_cells(run_before, input_before, &mut self.builder)
            .map_err(parquet::io_error)?;
        for batch in self.builder.ready.drain(..) {
            (self.send)(batch)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::date::Date32;

    fn every_kind() -> Vec<Column> {
        [
            ColumnKind::String,
            ColumnKind::Int64,
            ColumnKind::Int32,
            ColumnKind::Int16,
            ColumnKind::UInt32,
            ColumnKind::Float64,
            ColumnKind::Bool,
            ColumnKind::Date,
            ColumnKind::Time,
            ColumnKind::TimeMillisUtc,
            ColumnKind::Timestamp,
            ColumnKind::Int32List,
        ]
        .into_iter()
        .map(|kind| Column::optional(format!("{kind:?}"), kind))
        .collect()
    }

    #[test]
    fn every_kind_is_built_with_its_type_and_nulls() {
        let columns = every_kind();
        let values = [
            Value::Str("é"),
            Value::I64(-5),
            Value::I32(7),
            Value::I32(-1200),
            Value::U32(u32::MAX),
            Value::F64(1.5),
            Value::Bool(true),
            Value::Date(Date32(19000)),
            Value::I64(3_600_000_000),
            Value::I32(1000),
            Value::I64(1_700_000_000_000),
            Value::List(&[1, 14]),
        ];
        let mut builder = BatchBuilder::new(&columns, 100);
        for value in values {
            builder.push_value(value);
        }
        builder.end_row().unwrap();
        for _ in &columns {
            builder.push_value(Value::Null);
        }
        builder.end_row().unwrap();
        let batch = builder.finish().unwrap().unwrap();
        assert_eq!(batch.num_rows(), 2);
        for (i, column) in columns.iter().enumerate() {
            let array = batch.column(i);
            assert_eq!(
                array.data_type(),
                &data_type(column.kind),
                "{}",
                column.name
            );
            assert_eq!(array.null_count(), 1, "{}", column.name);
        }
        let strings = batch
            .column(0)
            .as_any()
            .downcast_ref::<arrow_array::StringArray>();
        assert_eq!(strings.map(|a| a.value(0)), Some("é"));
        let unsigned = batch
            .column(4)
            .as_any()
            .downcast_ref::<arrow_array::UInt32Array>();
        assert_eq!(unsigned.map(|a| a.value(0)), Some(u32::MAX));
        let lists = batch.column(11).as_any().downcast_ref::<ListArray>();
        let first = lists.map(|a| a.value(0));
        let numbers = first.as_ref().and_then(|items| {
            let items = items.as_any().downcast_ref::<arrow_array::Int32Array>()?;
            Some(items.values().to_vec())
        });
        assert_eq!(numbers, Some(vec![1, 14]));
    }

    #[test]
    fn batches_hold_batch_rows_rows_each() {
        let columns = [Column::required("n", ColumnKind::Int64)];
        let mut builder = BatchBuilder::new(&columns, 3);
        for n in 0..7 {
            builder.push_value(Value::I64(n));
            builder.end_row().unwrap();
        }
        let sizes: Vec<usize> = builder.take_ready().map(|b| b.num_rows()).collect();
        assert_eq!(sizes, [3, 3]);
        assert_eq!(builder.finish().unwrap().map(|b| b.num_rows()), Some(1));
        assert!(builder.finish().unwrap().is_none());
    }

    #[test]
    fn a_batch_of_cells_makes_the_batches_rows_one_by_one_make() {
        use crate::output::{Cell, GameNumber};

        let columns: Arc<[Column]> = [
            Column::required("game", ColumnKind::Int64),
            Column::optional("name", ColumnKind::String),
            Column::optional("elo", ColumnKind::Int16),
            Column::optional("clock", ColumnKind::Float64),
            Column::optional("nags", ColumnKind::Int32List),
        ]
        .into();
        const NAGS: [u8; 3] = [1, 2, 3];
        let names = ["", "a", "a longer name"];
        let mut output = Output::default();
        let mut by_rows = BatchBuilder::new(&columns, 7);
        for in_batch in 0..40u64 {
            let i = in_batch as usize;
            let name = (i % 4 != 3).then(|| names[i % 3]);
            let elo = (!i.is_multiple_of(3)).then(|| 1500 + i as i64);
            let clock = (!i.is_multiple_of(5)).then_some(61_500 + i as u32);
            let nags = (i % 6 != 5).then(|| &NAGS[..i % 4]);
            output.cell(&columns, Cell::Run(GameNumber::Later { in_batch }));
            output.cell(&columns, Cell::from(name));
            output.cell(&columns, elo.map_or(Cell::Null, Cell::Int));
            output.cell(&columns, clock.map_or(Cell::Null, Cell::Seconds));
            output.cell(&columns, nags.map_or(Cell::Null, Cell::List));
            output.end_cells(&columns);
            output.count_row();
            by_rows.push_value(Value::I64(100 + in_batch as i64 + 1));
            by_rows.push_value(name.into());
            by_rows.push_value(elo.map_or(Value::Null, |n| Value::I32(n as i32)));
            by_rows.push_value(clock.map_or(Value::Null, |ms| Value::F64(f64::from(ms) / 1000.0)));
            by_rows.push_value(nags.map_or(Value::Null, Value::List));
            by_rows.end_row().unwrap();
        }
        let mut expected: Vec<RecordBatch> = by_rows.take_ready().collect();
        expected.extend(by_rows.finish().unwrap());
        let mut sent = Vec::new();
        let mut batches = Batches::new(&columns, 7, |batch| {
            sent.push(batch);
            Ok(())
        });
        // Written after 100 games: the numbers left open are filled in, across the cuts.
        batches.write(&output, 100, 0).unwrap();
        batches.finish().unwrap();
        assert_eq!(sent.len(), 6);
        assert_eq!(sent, expected);
    }

    #[test]
    #[should_panic(expected = "column \"n\" holds Int64 values, not Null")]
    fn a_null_in_a_required_column_is_a_bug() {
        let mut builder = BatchBuilder::new(&[Column::required("n", ColumnKind::Int64)], 3);
        builder.push_value(Value::Null);
    }

    #[test]
    fn the_schema_marks_required_columns_non_nullable() {
        let columns = [
            Column::required("a", ColumnKind::Timestamp),
            Column::optional("b", ColumnKind::String),
        ];
        let schema = schema(&columns);
        assert!(!schema.field(0).is_nullable());
        assert_eq!(
            schema.field(0).data_type(),
            &DataType::Timestamp(TimeUnit::Millisecond, Some("UTC".into()))
        );
        assert!(schema.field(1).is_nullable());
    }
}
