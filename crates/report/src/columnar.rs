//! A table's rows held column by column, one value at a time, until a writer takes them: the
//! Parquet writer (a row group) and the Arrow batch builder (a record batch) fill the same
//! buffers and differ only in how they hand them on.
//!
//! Each column keeps its values without its nulls, in one vector of its kind (strings end to end
//! in one byte buffer, with where each ends; lists likewise, their numbers end to end), and, when
//! nullable, a definition level per row (1 for a value, 0 for null): the layout Parquet's column
//! writer takes as it is (a list's levels are worked out from it as its row group is written),
//! and from which an Arrow array is made by spreading the values over the rows where a level says
//! null.

use crate::columns::{Column, ColumnKind};
use crate::date::Date32;

/// One value of a row, in its column's kind, or null.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum Value<'a> {
    /// No value (nullable columns only).
    Null,
    /// For a [`ColumnKind::String`] column.
    Str(&'a str),
    /// For a [`ColumnKind::String`] column: text known to be UTF-8, as bytes (cut from a `str`),
    /// so that it is not checked again.
    Utf8(&'a [u8]),
    /// For a [`ColumnKind::Int64`] column, a [`ColumnKind::Timestamp`] one (milliseconds
    /// since 1970-01-01 00:00 UTC) and a [`ColumnKind::Time`] one (microseconds since midnight).
    I64(i64),
    /// For a [`ColumnKind::Int32`] column, an [`ColumnKind::Int16`] one (in its range) and a
    /// [`ColumnKind::TimeMillisUtc`] one (milliseconds since midnight).
    I32(i32),
    /// For a [`ColumnKind::UInt32`] column.
    U32(u32),
    /// For a [`ColumnKind::Float64`] column.
    F64(f64),
    /// For a [`ColumnKind::Bool`] column.
    Bool(bool),
    /// For a [`ColumnKind::Date`] column.
    Date(Date32),
    /// For a [`ColumnKind::Int32List`] column: the list's numbers.
    List(&'a [u8]),
}

macro_rules! value_from {
    ($($t:ty => $variant:ident),* $(,)?) => {$(
        impl<'a> From<$t> for Value<'a> {
            fn from(value: $t) -> Value<'a> {
                Value::$variant(value)
            }
        }
        impl<'a> From<Option<$t>> for Value<'a> {
            fn from(value: Option<$t>) -> Value<'a> {
                value.map_or(Value::Null, Value::$variant)
            }
        }
    )*};
}

value_from!(&'a str => Str, i64 => I64, i32 => I32, u32 => U32, f64 => F64, bool => Bool,
    Date32 => Date);

/// One column's values, nulls left out.
#[derive(Debug)]
pub enum Values {
    /// Strings end to end, and where each ends.
    Bytes {
        /// The strings' bytes.
        data: Vec<u8>,
        /// Where each string ends in `data`.
        ends: Vec<usize>,
    },
    /// `Int64`, `Timestamp` and `Time`.
    I64(Vec<i64>),
    /// `Int32`, `Int16`, `UInt32` (its bits), `Date` and `TimeMillisUtc`.
    I32(Vec<i32>),
    /// `Float64`.
    F64(Vec<f64>),
    /// `Bool`.
    Bool(Vec<bool>),
    /// `Int32List`: the lists' numbers end to end, and where each list ends.
    Lists {
        /// The numbers.
        items: Vec<i32>,
        /// Where each list ends in `items`.
        ends: Vec<usize>,
    },
}

/// A column's buffer: its values (nulls left out) and, when nullable, one definition level per
/// row (1 for a value, 0 for null).
#[derive(Debug)]
pub struct ColumnBuffer {
    /// The values.
    pub values: Values,
    /// The definition levels (empty for a required column).
    pub levels: Vec<i16>,
}

impl ColumnBuffer {
    /// Appends a value of `column` (this buffer's); returns the bytes it counts for (strings
    /// their length, other values 8 bytes, a list 4 more a number, a null none).
    ///
    /// # Panics
    ///
    /// As [`ColumnBuffers::push`] does.
    #[inline]
    fn push(&mut self, column: &Column, value: Value<'_>) -> usize {
        let mismatch = || -> ! {
            panic!(
                "column {:?} holds {:?} values{}, not {value:?}",
                column.name,
                column.kind,
                if column.nullable { " or nulls" } else { "" }
            )
        };
        let mut bytes = 8;
        match (value, &mut self.values) {
            (Value::Null, _) if column.nullable => {
                self.levels.push(0);
                return 0;
            }
            (Value::Str(s), Values::Bytes { data, ends }) if column.kind == ColumnKind::String => {
                data.extend_from_slice(s.as_bytes());
                ends.push(data.len());
                bytes += s.len();
            }
            (Value::Utf8(s), Values::Bytes { data, ends }) if column.kind == ColumnKind::String => {
                data.extend_from_slice(s);
                ends.push(data.len());
                bytes += s.len();
            }
            (Value::I64(n), Values::I64(values)) => values.push(n),
            (Value::I32(n), Values::I32(values))
                if matches!(column.kind, ColumnKind::Int32 | ColumnKind::TimeMillisUtc)
                    || column.kind == ColumnKind::Int16 && i16::try_from(n).is_ok() =>
            {
                values.push(n)
            }
            // Unsigned 32-bit integers are kept in INT32 by their bits (as Parquet stores them).
            (Value::U32(n), Values::I32(values)) if column.kind == ColumnKind::UInt32 => {
                values.push(n as i32)
            }
            (Value::Date(d), Values::I32(values)) if column.kind == ColumnKind::Date => {
                values.push(d.0)
            }
            (Value::F64(x), Values::F64(values)) => values.push(x),
            (Value::Bool(b), Values::Bool(values)) => values.push(b),
            (Value::List(list), Values::Lists { items, ends }) => {
                items.extend(list.iter().map(|&n| i32::from(n)));
                ends.push(items.len());
                bytes += 4 * list.len();
            }
            _ => mismatch(),
        }
        if column.nullable {
            self.levels.push(1);
        }
        bytes
    }
}

/// The rows of a table, column by column, until a writer takes them.
#[derive(Debug)]
pub struct ColumnBuffers {
    columns: Vec<Column>,
    buffers: Vec<ColumnBuffer>,
    /// The column the next [`ColumnBuffers::push`] goes to.
    cursor: usize,
    /// Rows in the buffers.
    rows: usize,
    /// Bytes in the buffers: strings count their length, other values 8 bytes (a list 4 more
    /// per number).
    bytes: usize,
}

impl ColumnBuffers {
    /// Empty buffers for `columns`.
    pub fn new(columns: &[Column]) -> ColumnBuffers {
        let buffers = columns
            .iter()
            .map(|column| ColumnBuffer {
                values: match column.kind {
                    ColumnKind::String => Values::Bytes {
                        data: Vec::new(),
                        ends: Vec::new(),
                    },
                    ColumnKind::Int64 | ColumnKind::Timestamp | ColumnKind::Time => {
                        Values::I64(Vec::new())
                    }
                    ColumnKind::Int32
                    | ColumnKind::Int16
                    | ColumnKind::UInt32
                    | ColumnKind::Date
                    | ColumnKind::TimeMillisUtc => Values::I32(Vec::new()),
                    ColumnKind::Float64 => Values::F64(Vec::new()),
                    ColumnKind::Bool => Values::Bool(Vec::new()),
                    ColumnKind::Int32List => Values::Lists {
                        items: Vec::new(),
                        ends: Vec::new(),
                    },
                },
                levels: Vec::new(),
            })
            .collect();
        ColumnBuffers {
            columns: columns.to_vec(),
            buffers,
            cursor: 0,
            rows: 0,
            bytes: 0,
        }
    }

    /// The columns, as given.
    pub fn columns(&self) -> &[Column] {
        &self.columns
    }

    /// Appends the value of the next column of the current row.
    ///
    /// # Panics
    ///
    /// When the row already has a value for every column, when the value's kind is not the
    /// column's, or when it is [`Value::Null`] for a required column: these are mistakes in the
    /// calling code, not in the data.
    #[inline]
    pub fn push(&mut self, value: Value<'_>) {
        let Some(column) = self.columns.get(self.cursor) else {
            panic!(
                "a row has {} columns: one value too many",
                self.columns.len()
            );
        };
        self.bytes += self.buffers[self.cursor].push(column, value);
        self.cursor += 1;
    }

    /// Appends `rows` whole rows column by column, a column's values at a time (`column(i)`
    /// gives column `i`'s, one a row), without a row's dispatch to its columns; returns the
    /// bytes added (as [`ColumnBuffers::bytes`] counts them).
    ///
    /// # Panics
    ///
    /// When a row was started and not ended, when a column is not given `rows` values, and as
    /// [`ColumnBuffers::push`] does.
    pub fn push_rows<'a, I>(&mut self, rows: usize, mut column: impl FnMut(usize) -> I) -> usize
    where
        I: Iterator<Item = Value<'a>>,
    {
        assert!(!self.in_row(), "rows pushed inside a row");
        let mut bytes = 0;
        for (i, (spec, buffer)) in self.columns.iter().zip(&mut self.buffers).enumerate() {
            let mut given = 0;
            for value in column(i) {
                bytes += buffer.push(spec, value);
                given += 1;
            }
            assert_eq!(
                given, rows,
                "column {:?} given {given} of {rows} rows",
                spec.name
            );
        }
        self.rows += rows;
        self.bytes += bytes;
        bytes
    }

    /// Ends the current row.
    ///
    /// # Panics
    ///
    /// When the row lacks a value for some column.
    pub fn end_row(&mut self) {
        assert_eq!(
            self.cursor,
            self.columns.len(),
            "a row has {} columns, {} were given",
            self.columns.len(),
            self.cursor
        );
        self.cursor = 0;
        self.rows += 1;
    }

    /// Whether a row was started and not ended.
    pub fn in_row(&self) -> bool {
        self.cursor != 0
    }

    /// The rows in the buffers.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// The bytes in the buffers: strings count their length, other values 8 bytes.
    pub fn bytes(&self) -> usize {
        self.bytes
    }

    /// The columns with their buffers, for a writer to take the rows from; it empties every
    /// buffer, then calls [`ColumnBuffers::taken`].
    pub fn buffers_mut(&mut self) -> impl Iterator<Item = (&Column, &mut ColumnBuffer)> {
        self.columns.iter().zip(&mut self.buffers)
    }

    /// The writer took the rows: the counts start again from 0.
    pub fn taken(&mut self) {
        debug_assert!(self.buffers.iter().all(|b| b.levels.is_empty()));
        self.rows = 0;
        self.bytes = 0;
    }
}
