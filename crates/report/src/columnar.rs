//! A table's rows held column by column, one value at a time, until a writer takes them: the
//! Parquet writer (a row group) and the Arrow batch builder (a record batch) fill the same
//! buffers and differ only in how they hand them on. A batch's formatted rows (`Output`) are
//! kept in such buffers too, and go to a writer's a column's run of values at a time
//! ([`ColumnBuffers::append`]): one copy of each run, not one per value.
//!
//! Each column keeps its values without its nulls, in one vector of its kind (strings end to end
//! in one byte buffer, with where each ends; lists likewise, their numbers end to end), and, when
//! nullable, a definition level per row (1 for a value, 0 for null): the layout Parquet's column
//! writer takes as it is (a list's levels are worked out from it as its row group is written),
//! and from which an Arrow array is made by spreading the values over the rows where a level says
//! null.

use std::ops::Range;
use std::sync::Arc;

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
    /// The column's kind, and whether it may be null: kept here, so that a value pushed reads its
    /// buffer and nothing else.
    kind: ColumnKind,
    nullable: bool,
}

impl ColumnBuffer {
    /// Appends a value of this buffer's column; returns the bytes it counts for (strings their
    /// length, other values 8 bytes, a list 4 more a number, a null none), or `None` when the
    /// column does not hold such a value (then nothing is appended).
    #[inline(always)]
    fn push(&mut self, value: Value<'_>) -> Option<usize> {
        let mut bytes = 8;
        match (value, &mut self.values) {
            (Value::Null, _) if self.nullable => {
                self.levels.push(0);
                return Some(0);
            }
            (Value::Str(s), Values::Bytes { data, ends }) if self.kind == ColumnKind::String => {
                data.extend_from_slice(s.as_bytes());
                ends.push(data.len());
                bytes += s.len();
            }
            (Value::Utf8(s), Values::Bytes { data, ends }) if self.kind == ColumnKind::String => {
                data.extend_from_slice(s);
                ends.push(data.len());
                bytes += s.len();
            }
            (Value::I64(n), Values::I64(values)) => values.push(n),
            (Value::I32(n), Values::I32(values))
                if matches!(self.kind, ColumnKind::Int32 | ColumnKind::TimeMillisUtc)
                    || self.kind == ColumnKind::Int16 && i16::try_from(n).is_ok() =>
            {
                values.push(n)
            }
            // Unsigned 32-bit integers are kept in INT32 by their bits (as Parquet stores them).
            (Value::U32(n), Values::I32(values)) if self.kind == ColumnKind::UInt32 => {
                values.push(n as i32)
            }
            (Value::Date(d), Values::I32(values)) if self.kind == ColumnKind::Date => {
                values.push(d.0)
            }
            (Value::F64(x), Values::F64(values)) => values.push(x),
            (Value::Bool(b), Values::Bool(values)) => values.push(b),
            (Value::List(list), Values::Lists { items, ends }) => {
                items.extend(list.iter().map(|&n| i32::from(n)));
                ends.push(items.len());
                bytes += 4 * list.len();
            }
            _ => return None,
        }
        if self.nullable {
            self.levels.push(1);
        }
        Some(bytes)
    }
}

/// The panic of a value pushed to a column that does not hold it.
#[cold]
#[inline(never)]
fn mismatch(column: &Column, value: Value<'_>) -> ! {
    panic!(
        "column {:?} holds {:?} values{}, not {value:?}",
        column.name,
        column.kind,
        if column.nullable { " or nulls" } else { "" }
    )
}

impl ColumnBuffer {
    /// The values of rows `rows` (nulls hold none).
    fn value_range(&self, rows: Range<usize>) -> Range<usize> {
        if self.levels.is_empty() {
            return rows;
        }
        let defined = |levels: &[i16]| levels.iter().filter(|&&level| level != 0).count();
        let start = defined(&self.levels[..rows.start]);
        start..start + defined(&self.levels[rows])
    }
}

impl Values {
    /// How many values there are.
    fn len(&self) -> usize {
        match self {
            Values::Bytes { ends, .. } | Values::Lists { ends, .. } => ends.len(),
            Values::I64(values) => values.len(),
            Values::I32(values) => values.len(),
            Values::F64(values) => values.len(),
            Values::Bool(values) => values.len(),
        }
    }

    /// Empties the values, keeping their memory.
    fn clear(&mut self) {
        match self {
            Values::Bytes { data, ends } => {
                data.clear();
                ends.clear();
            }
            Values::Lists { items, ends } => {
                items.clear();
                ends.clear();
            }
            Values::I64(values) => values.clear(),
            Values::I32(values) => values.clear(),
            Values::F64(values) => values.clear(),
            Values::Bool(values) => values.clear(),
        }
    }

    /// Appends the values `range` of `from` (of the same kind); returns the bytes they count
    /// for, as [`ColumnBuffer::push`] counts them.
    fn extend_from(&mut self, from: &Values, range: Range<usize>) -> usize {
        let count = range.len();
        match (self, from) {
            (Values::Bytes { data, ends }, Values::Bytes { data: d, ends: e }) => {
                let (start, end) = ends_range(e, range.clone());
                let base = data.len();
                data.extend_from_slice(&d[start..end]);
                ends.extend(e[range].iter().map(|&e| e - start + base));
                end - start + 8 * count
            }
            (Values::Lists { items, ends }, Values::Lists { items: i, ends: e }) => {
                let (start, end) = ends_range(e, range.clone());
                let base = items.len();
                items.extend_from_slice(&i[start..end]);
                ends.extend(e[range].iter().map(|&e| e - start + base));
                4 * (end - start) + 8 * count
            }
            (Values::I64(values), Values::I64(v)) => {
                values.extend_from_slice(&v[range]);
                8 * count
            }
            (Values::I32(values), Values::I32(v)) => {
                values.extend_from_slice(&v[range]);
                8 * count
            }
            (Values::F64(values), Values::F64(v)) => {
                values.extend_from_slice(&v[range]);
                8 * count
            }
            (Values::Bool(values), Values::Bool(v)) => {
                values.extend_from_slice(&v[range]);
                8 * count
            }
            (to, from) => panic!("{from:?} appended to {to:?}"),
        }
    }

    /// Sets value `index`, a whole number, to `number` (its bits, in an `I32` column).
    ///
    /// # Panics
    ///
    /// When the values are not whole numbers.
    fn set_int(&mut self, index: usize, number: i64) {
        match self {
            Values::I64(values) => values[index] = number,
            Values::I32(values) => values[index] = number as i32,
            other => panic!("a whole number set in {other:?}"),
        }
    }
}

/// Where values `range` start and end in the items that `ends` cut.
fn ends_range(ends: &[usize], range: Range<usize>) -> (usize, usize) {
    let end_of = |i: usize| if i == 0 { 0 } else { ends[i - 1] };
    (end_of(range.start), end_of(range.end))
}

/// A whole number to set in a batch's buffers once it is known: a game's number, when the batch
/// was formatted before the games ahead of it were counted.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Fill {
    /// The column.
    pub column: usize,
    /// The value's index among the column's values (nulls left out).
    pub value: usize,
    /// The number, as the column keeps it (see [`Values::I32`]).
    pub number: i64,
}

/// The rows of a table, column by column, until a writer takes them.
#[derive(Debug)]
pub struct ColumnBuffers {
    columns: Arc<[Column]>,
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
        ColumnBuffers::with_capacity(columns.into(), 0)
    }

    /// Empty buffers for `columns` with room for `rows` rows (strings of 16 bytes), each
    /// vector allocated once rather than grown from nothing.
    pub fn with_capacity(columns: Arc<[Column]>, rows: usize) -> ColumnBuffers {
        let buffers = columns
            .iter()
            .map(|column| ColumnBuffer {
                values: match column.kind {
                    ColumnKind::String => Values::Bytes {
                        data: Vec::with_capacity(16 * rows),
                        ends: Vec::with_capacity(rows),
                    },
                    ColumnKind::Int64 | ColumnKind::Timestamp | ColumnKind::Time => {
                        Values::I64(Vec::with_capacity(rows))
                    }
                    ColumnKind::Int32
                    | ColumnKind::Int16
                    | ColumnKind::UInt32
                    | ColumnKind::Date
                    | ColumnKind::TimeMillisUtc => Values::I32(Vec::with_capacity(rows)),
                    ColumnKind::Float64 => Values::F64(Vec::with_capacity(rows)),
                    ColumnKind::Bool => Values::Bool(Vec::with_capacity(rows)),
                    ColumnKind::Int32List => Values::Lists {
                        items: Vec::new(),
                        ends: Vec::with_capacity(rows),
                    },
                },
                levels: match column.nullable {
                    true => Vec::with_capacity(rows),
                    false => Vec::new(),
                },
                kind: column.kind,
                nullable: column.nullable,
            })
            .collect();
        ColumnBuffers {
            columns,
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
    #[inline(always)]
    pub fn push(&mut self, value: Value<'_>) {
        let cursor = self.cursor;
        let Some(buffer) = self.buffers.get_mut(cursor) else {
            panic!(
                "a row has {} columns: one value too many",
                self.columns.len()
            );
        };
        let Some(bytes) = buffer.push(value) else {
            mismatch(&self.columns[cursor], value)
        };
        self.bytes += bytes;
        self.cursor = cursor + 1;
    }

    /// The column the next [`ColumnBuffers::push`] goes to.
    #[inline]
    pub fn cursor(&self) -> usize {
        self.cursor
    }

    /// The kind of the column the next [`ColumnBuffers::push`] goes to (`None` past the last).
    #[inline]
    pub fn next_kind(&self) -> Option<ColumnKind> {
        self.buffers.get(self.cursor).map(|buffer| buffer.kind)
    }

    /// The index the next value of column `column` will have among its values (nulls left
    /// out).
    pub fn next_value_index(&self, column: usize) -> usize {
        self.buffers[column].values.len()
    }

    /// Appends rows `rows` of `from`, whose columns are these, a column's values at a time (a
    /// copy of each column's run of values, not one per value), then sets the values `fills`
    /// name that fall in those rows; returns the bytes added (as [`ColumnBuffers::bytes`]
    /// counts them).
    ///
    /// # Panics
    ///
    /// When a row was started and not ended here, or `rows` is not within `from`'s rows.
    pub fn append(&mut self, from: &ColumnBuffers, rows: Range<usize>, fills: &[Fill]) -> usize {
        assert!(!self.in_row(), "rows appended inside a row");
        assert!(rows.end <= from.rows, "rows beyond the batch's");
        debug_assert_eq!(self.columns, from.columns, "buffers of other columns");
        let whole = rows.start == 0 && rows.end == from.rows;
        let mut bytes = 0;
        // Per column, the values taken and where they went.
        let mut taken = Vec::with_capacity(if fills.is_empty() {
            0
        } else {
            self.buffers.len()
        });
        for (to, from) in self.buffers.iter_mut().zip(&from.buffers) {
            let values = if whole {
                0..from.values.len()
            } else {
                from.value_range(rows.clone())
            };
            if !fills.is_empty() {
                taken.push((values.clone(), to.values.len()));
            }
            bytes += to.values.extend_from(&from.values, values);
            to.levels
                .extend_from_slice(from.levels.get(rows.clone()).unwrap_or(&[]));
        }
        for fill in fills {
            let (values, first) = &taken[fill.column];
            if values.contains(&fill.value) {
                let at = first + fill.value - values.start;
                self.buffers[fill.column].values.set_int(at, fill.number);
            }
        }
        self.rows += rows.len();
        self.bytes += bytes;
        bytes
    }

    /// Empties every buffer, keeping its memory.
    pub fn clear(&mut self) {
        for buffer in &mut self.buffers {
            buffer.values.clear();
            buffer.levels.clear();
        }
        self.cursor = 0;
        self.rows = 0;
        self.bytes = 0;
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
