//! The columns of a table (export's game rows and ply rows): each one's name, the type of its
//! values, and whether it may be null. Every output format writes the same columns: CSV and JSON
//! by name, Parquet with a type of its own for each kind (see `parquet`).

/// The type of a column's values.
#[derive(Copy, Clone, Debug, Eq, PartialEq, Hash)]
pub enum ColumnKind {
    /// UTF-8 text.
    String,
    /// A signed 64-bit integer.
    Int64,
    /// A signed 32-bit integer.
    Int32,
    /// An unsigned 32-bit integer (a clock in milliseconds, a ply count).
    UInt32,
    /// A 64-bit float.
    Float64,
    /// True or false.
    Bool,
    /// A calendar date ([`Date32`](crate::report::date::Date32)).
    Date,
}

/// One column of the schema: its name, kind, and whether it may hold nulls.
#[derive(Clone, Debug, Eq, PartialEq, Hash)]
pub struct Column {
    /// The column's name.
    pub name: String,
    /// The type of its values.
    pub kind: ColumnKind,
    /// Whether the column may hold nulls.
    pub nullable: bool,
}

impl Column {
    /// A column that always has a value.
    pub fn required(name: impl Into<String>, kind: ColumnKind) -> Column {
        Column {
            name: name.into(),
            kind,
            nullable: false,
        }
    }

    /// A column that may be null.
    pub fn optional(name: impl Into<String>, kind: ColumnKind) -> Column {
        Column {
            name: name.into(),
            kind,
            nullable: true,
        }
    }
}
