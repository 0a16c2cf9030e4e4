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
    /// A signed 16-bit integer (the lichess dataset's ratings).
    Int16,
    /// An unsigned 32-bit integer (a clock in milliseconds, a ply count).
    UInt32,
    /// A 64-bit float.
    Float64,
    /// True or false.
    Bool,
    /// A calendar date ([`Date32`](crate::date::Date32)).
    Date,
    /// A time of day ([`Moment::time_of_day`](crate::moment::Moment::time_of_day)),
    /// stored in microseconds since midnight as a plain time of day, not marked as adjusted to
    /// UTC: the one `TIME` that Spark reads, as DuckDB, Polars and pyarrow do (`utc_time`).
    Time,
    /// A time of day stored as the lichess dataset stores `UTCTime`: milliseconds since
    /// midnight, marked as adjusted to UTC (`--columns lichess`).
    TimeMillisUtc,
    /// An instant in milliseconds since 1970-01-01 00:00 UTC
    /// ([`Moment::instant`](crate::moment::Moment::instant)).
    Timestamp,
    /// A list of small whole numbers, none of them null (a move's NAGs, each 0 to 255): a JSON
    /// array, a Parquet `LIST` of `INT32`, an Arrow list of `Int32`; in CSV the numbers
    /// separated by spaces.
    Int32List,
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

/// The names of a fixed list of columns given as (name, kind, nullable), in order.
pub(crate) const fn column_names<const N: usize>(
    columns: &[(&'static str, ColumnKind, bool); N],
) -> [&'static str; N] {
    let mut names = [""; N];
    let mut i = 0;
    while i < N {
        names[i] = columns[i].0;
        i += 1;
    }
    names
}

/// The columns of a table: `fixed` ones given as (name, kind, nullable), then one text column per
/// tag of `extra_tags` (export's `--tags`).
pub(crate) fn table_columns<'a>(
    fixed: impl IntoIterator<Item = (&'a str, ColumnKind, bool)>,
    extra_tags: &[String],
) -> Vec<Column> {
    fixed
        .into_iter()
        .map(|(name, kind, nullable)| Column {
            name: name.to_owned(),
            kind,
            nullable,
        })
        .chain(
            extra_tags
                .iter()
                .map(|tag| Column::required(tag.as_str(), ColumnKind::String)),
        )
        .collect()
}
