//! A game's export record as the fields of a `--where` expression: the schema the expression is
//! checked against ([`record_schema`]: export's fixed columns and the opening columns, typed, then
//! `position_ply` when positions are looked for), and a record's values under it
//! ([`RecordFields`]), so that `--where` tests the same fields, with the same values, as `export`
//! writes.

use arbiter_report::columns::ColumnKind;
use arbiter_report::output::{Cell, GameNumber};
use arbiter_report::record::{COLUMNS, ExportRecord, OPENING_COLUMNS, POSITION_PLY, WHERE_FIELDS};

use super::expr::{Fields, Schema, Type, Value};

/// The schema `--where` reads: export's fixed columns and the opening columns, then
/// `position_ply` when positions are looked for.
pub fn record_schema(position: bool) -> Schema {
    let fixed = COLUMNS.iter().chain(&OPENING_COLUMNS);
    let position = position.then_some(&POSITION_PLY);
    Schema::new(fixed.chain(position).map(|column| {
        let kind = match column.kind {
            ColumnKind::Int64 | ColumnKind::Int32 | ColumnKind::Int16 | ColumnKind::UInt32 => {
                Type::Int
            }
            ColumnKind::Float64 => Type::Float,
            ColumnKind::Bool => Type::Bool,
            ColumnKind::String
            | ColumnKind::Date
            | ColumnKind::Time
            | ColumnKind::TimeMillisUtc
            | ColumnKind::Timestamp => Type::Text,
            // No game column is a list (a ply's NAGs are).
            ColumnKind::Int32List => Type::Text,
        };
        (column.name, kind)
    }))
}

/// A game's export record as the fields of `--where`, and its tags.
pub struct RecordFields<'a> {
    /// The fields the expression reads; the others are null.
    cells: [Cell<'a>; WHERE_FIELDS],
    /// `Some` when `position_ply` is a field.
    position_ply: Option<Option<u32>>,
    tags: &'a dyn Fn(&str) -> Option<&'a str>,
}

impl<'a> RecordFields<'a> {
    /// The fields `reads` of `record` (with `position_ply` when `position`), its tags found by
    /// `tags`. Only the fields read are worked out: an expression names one or two of them, and
    /// working out all of them cost select 3% of its instructions on lichess games.
    pub fn new(
        record: &ExportRecord<'a>,
        reads: &[usize],
        position: bool,
        tags: &'a dyn Fn(&str) -> Option<&'a str>,
    ) -> RecordFields<'a> {
        let mut cells = [const { Cell::Null }; WHERE_FIELDS];
        for &field in reads {
            if let (Some(cell), Some(value)) = (cells.get_mut(field), record.cell(field)) {
                *cell = value;
            }
        }
        RecordFields {
            cells,
            position_ply: position.then_some(record.position_ply),
            tags,
        }
    }
}

impl Fields for RecordFields<'_> {
    fn value(&self, field: usize) -> Value<'_> {
        let Some(cell) = self.cells.get(field) else {
            return match self.position_ply {
                Some(Some(ply)) => Value::Int(ply.into()),
                _ => Value::Null,
            };
        };
        match *cell {
            Cell::Null => Value::Null,
            Cell::Str(s) | Cell::Plain(s) => Value::Text(s),
            Cell::Int(n) => Value::Int(n),
            Cell::Seconds(ms) => Value::Float(f64::from(ms) / 1000.0),
            Cell::Bool(b) => Value::Bool(b),
            Cell::Date(ref date) => Value::Text(std::str::from_utf8(date.iso()).unwrap_or("")),
            Cell::Moment(ref moment) => {
                Value::Text(std::str::from_utf8(moment.text()).unwrap_or(""))
            }
            // A number not known on this worker is null: see [`Keep::jobs`](super::keep::Keep::jobs).
            Cell::Run(GameNumber::Known { run, .. }) => Value::Int(run as i64),
            Cell::Input(GameNumber::Known { input, .. }) => Value::Int(input as i64),
            Cell::Run(_) | Cell::Input(_) => Value::Null,
            // No game column is a list.
            Cell::List(_) => Value::Null,
        }
    }

    fn tag(&self, name: &str) -> Option<&str> {
        (self.tags)(name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_schema_is_exports_columns_typed() {
        let schema = record_schema(false);
        assert_eq!(schema.find("white_elo"), Some((18, Type::Int)));
        assert_eq!(schema.find("valid").map(|f| f.1), Some(Type::Bool));
        assert_eq!(schema.find("played_on").map(|f| f.1), Some(Type::Text));
        assert_eq!(schema.find("white_clock").map(|f| f.1), Some(Type::Float));
        assert_eq!(schema.find("eco_computed").map(|f| f.1), Some(Type::Text));
        assert_eq!(schema.find("position_ply"), None);
        assert_eq!(
            record_schema(true).find("position_ply"),
            Some((WHERE_FIELDS, Type::Int))
        );
    }
}
