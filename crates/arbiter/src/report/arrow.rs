//! Export's rows as Arrow record batches (with the `arrow` feature): the same columns and cells
//! the Parquet writer takes ([`RowSink`]), built into Arrow arrays of the types that pyarrow,
//! Polars and DuckDB give when they read export's Parquet file, and cut into record batches of a
//! fixed number of rows, so that a reader of the batches holds one batch at a time however many
//! rows there are.
//!
//! The schema comes from the one column table ([`Column`]s) as the Parquet schema does: a
//! [`ColumnKind`] maps to one Arrow type, as pyarrow reads the Parquet type of that kind:
//! `String` is `Utf8`, `Int64`/`Int32`/`Int16`/`UInt32`/`Float64`/`Bool` are themselves, `Date`
//! is `Date32`, `Time` is `Time64(µs)`, `TimeMillisUtc` is `Time32(ms)` and `Timestamp` is
//! `Timestamp(ms, "UTC")`. A required column is a non-nullable field.
//!
//! # Examples
//!
//! ```
//! use arbiter::{Column, ColumnKind};
//! use arbiter::arrow::BatchBuilder;
//! use arbiter::parquet::{RowSink, Value};
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
use std::sync::Arc;

use arrow_array::builder::{
    BooleanBuilder, Date32Builder, Float64Builder, Int16Builder, Int32Builder, Int64Builder,
    StringBuilder, Time32MillisecondBuilder, Time64MicrosecondBuilder, TimestampMillisecondBuilder,
    UInt32Builder,
};
pub use arrow_array::{ArrayRef, RecordBatch};
pub use arrow_schema::{ArrowError, DataType, Field, Schema, SchemaRef, TimeUnit};

use crate::report::columns::{Column, ColumnKind};
use crate::report::output::{Destination, Output};
use crate::report::parquet::{self, ParquetError, RowSink, Value};

/// The rows of a record batch unless asked otherwise (the Parquet writer's row group).
pub const BATCH_ROWS: usize = 65_536;

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
    }
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

/// One column's values of the batch being built.
#[derive(Debug)]
enum Values {
    Utf8(StringBuilder),
    Int64(Int64Builder),
    Int32(Int32Builder),
    Int16(Int16Builder),
    UInt32(UInt32Builder),
    Float64(Float64Builder),
    Bool(BooleanBuilder),
    Date(Date32Builder),
    Time(Time64MicrosecondBuilder),
    TimeMillis(Time32MillisecondBuilder),
    Timestamp(TimestampMillisecondBuilder),
}

impl Values {
    fn new(kind: ColumnKind) -> Values {
        match kind {
            ColumnKind::String => Values::Utf8(StringBuilder::new()),
            ColumnKind::Int64 => Values::Int64(Int64Builder::new()),
            ColumnKind::Int32 => Values::Int32(Int32Builder::new()),
            ColumnKind::Int16 => Values::Int16(Int16Builder::new()),
            ColumnKind::UInt32 => Values::UInt32(UInt32Builder::new()),
            ColumnKind::Float64 => Values::Float64(Float64Builder::new()),
            ColumnKind::Bool => Values::Bool(BooleanBuilder::new()),
            ColumnKind::Date => Values::Date(Date32Builder::new()),
            ColumnKind::Time => Values::Time(Time64MicrosecondBuilder::new()),
            ColumnKind::TimeMillisUtc => Values::TimeMillis(Time32MillisecondBuilder::new()),
            ColumnKind::Timestamp => {
                Values::Timestamp(TimestampMillisecondBuilder::new().with_timezone("UTC"))
            }
        }
    }

    /// Appends `value`; false when it is not of this column's kind.
    fn push(&mut self, value: Value<'_>) -> bool {
        match (self, value) {
            (Values::Utf8(b), Value::Str(s)) => b.append_value(s),
            // Cut from a `str` by `Output::cell`: always UTF-8.
            (Values::Utf8(b), Value::Utf8(bytes)) => match std::str::from_utf8(bytes) {
                Ok(s) => b.append_value(s),
                Err(_) => b.append_value(String::from_utf8_lossy(bytes)),
            },
            (Values::Int64(b), Value::I64(n)) => b.append_value(n),
            (Values::Time(b), Value::I64(n)) => b.append_value(n),
            (Values::Timestamp(b), Value::I64(n)) => b.append_value(n),
            (Values::Int32(b), Value::I32(n)) => b.append_value(n),
            (Values::TimeMillis(b), Value::I32(n)) => b.append_value(n),
            (Values::Int16(b), Value::I32(n)) => match i16::try_from(n) {
                Ok(n) => b.append_value(n),
                Err(_) => return false,
            },
            (Values::UInt32(b), Value::U32(n)) => b.append_value(n),
            (Values::Float64(b), Value::F64(x)) => b.append_value(x),
            (Values::Bool(b), Value::Bool(x)) => b.append_value(x),
            (Values::Date(b), Value::Date(d)) => b.append_value(d.0),
            (values, Value::Null) => values.push_null(),
            _ => return false,
        }
        true
    }

    fn push_null(&mut self) {
        match self {
            Values::Utf8(b) => b.append_null(),
            Values::Int64(b) => b.append_null(),
            Values::Int32(b) => b.append_null(),
            Values::Int16(b) => b.append_null(),
            Values::UInt32(b) => b.append_null(),
            Values::Float64(b) => b.append_null(),
            Values::Bool(b) => b.append_null(),
            Values::Date(b) => b.append_null(),
            Values::Time(b) => b.append_null(),
            Values::TimeMillis(b) => b.append_null(),
            Values::Timestamp(b) => b.append_null(),
        }
    }

    /// The values so far, as an array; the builder is left empty.
    fn finish(&mut self) -> ArrayRef {
        match self {
            Values::Utf8(b) => Arc::new(b.finish()),
            Values::Int64(b) => Arc::new(b.finish()),
            Values::Int32(b) => Arc::new(b.finish()),
            Values::Int16(b) => Arc::new(b.finish()),
            Values::UInt32(b) => Arc::new(b.finish()),
            Values::Float64(b) => Arc::new(b.finish()),
            Values::Bool(b) => Arc::new(b.finish()),
            Values::Date(b) => Arc::new(b.finish()),
            Values::Time(b) => Arc::new(b.finish()),
            Values::TimeMillis(b) => Arc::new(b.finish()),
            Values::Timestamp(b) => Arc::new(b.finish()),
        }
    }
}

/// Builds rows into record batches of `batch_rows` rows (the last one shorter); see the module
/// documentation.
#[derive(Debug)]
pub struct BatchBuilder {
    columns: Vec<Column>,
    schema: SchemaRef,
    values: Vec<Values>,
    batch_rows: usize,
    /// The column the next value goes to.
    cursor: usize,
    /// Rows in the batch being built.
    rows: usize,
    /// Batches full and not yet taken.
    ready: VecDeque<RecordBatch>,
}

impl BatchBuilder {
    /// A builder of batches of `columns`, `batch_rows` rows each (at least 1).
    pub fn new(columns: &[Column], batch_rows: usize) -> BatchBuilder {
        BatchBuilder {
            columns: columns.to_vec(),
            schema: Arc::new(schema(columns)),
            values: columns.iter().map(|c| Values::new(c.kind)).collect(),
            batch_rows: batch_rows.max(1),
            cursor: 0,
            rows: 0,
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
        assert_eq!(self.cursor, 0, "the last row was not ended");
        if self.rows == 0 {
            return Ok(None);
        }
        self.cut().map(Some)
    }

    /// The rows built so far as a batch.
    fn cut(&mut self) -> Result<RecordBatch, ArrowError> {
        self.rows = 0;
        let arrays = self.values.iter_mut().map(Values::finish).collect();
        RecordBatch::try_new(Arc::clone(&self.schema), arrays)
    }
}

impl RowSink for BatchBuilder {
    fn columns(&self) -> &[Column] {
        &self.columns
    }

    /// Appends the value of the next column.
    ///
    /// # Panics
    ///
    /// As [`ParquetWriter::push`](crate::report::parquet::ParquetWriter::push) does: a value too
    /// many, of the wrong kind, or a null in a required column.
    fn push_value(&mut self, value: Value<'_>) {
        let Some(column) = self.columns.get(self.cursor) else {
            panic!(
                "a row has {} columns: one value too many",
                self.columns.len()
            );
        };
        let fits =
            (column.nullable || value != Value::Null) && self.values[self.cursor].push(value);
        assert!(
            fits,
            "column {:?} holds {:?} values{}, not {value:?}",
            column.name,
            column.kind,
            if column.nullable { " or nulls" } else { "" }
        );
        self.cursor += 1;
    }

    fn end_row(&mut self) -> Result<(), ParquetError> {
        assert_eq!(
            self.cursor,
            self.columns.len(),
            "a row has {} columns, {} were given",
            self.columns.len(),
            self.cursor
        );
        self.cursor = 0;
        self.rows += 1;
        if self.rows >= self.batch_rows {
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
    use crate::report::date::Date32;

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
