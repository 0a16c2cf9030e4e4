//! The lichess sample's plies written as Parquet rows (several row groups) and read back with the
//! parquet crate's reader: every value and null comes back as written.

use std::fs::File;

use arbiter_core::clocks::Eval;
use arbiter_report::columns::{Column, ColumnKind};
use arbiter_report::parquet::{ParquetOptions, ParquetWriter};
use parquet::file::reader::{FileReader, SerializedFileReader};
use parquet::record::Field;

use crate::lichess::read_sample;

/// The per-ply columns the export will write (a subset: the FEN and UCI need the replay).
fn columns() -> Vec<Column> {
    vec![
        Column::required("game", ColumnKind::Int64),
        Column::required("ply", ColumnKind::UInt32),
        Column::required("san", ColumnKind::String),
        Column::optional("clock_ms", ColumnKind::UInt32),
        Column::optional("emt_ms", ColumnKind::UInt32),
        Column::optional("eval_cp", ColumnKind::Int32),
        Column::optional("eval_mate", ColumnKind::Int32),
    ]
}

#[test]
fn lichess_plies_round_trip_through_parquet() {
    let Some(collect) = read_sample() else {
        return;
    };
    let dir = tempfile::tempdir().expect("a temporary directory");
    let path = dir.path().join("plies.parquet");
    let options = ParquetOptions {
        row_group_rows: 5_000,
        ..ParquetOptions::default()
    };
    let file = File::create(&path).expect("create the file");
    let mut writer = ParquetWriter::new(file, &columns(), options).expect("start the file");
    for ply in &collect.plies {
        let (cp, mate) = match ply.notes.eval {
            Some(Eval::Centipawns(cp)) => (Some(cp), None),
            Some(Eval::Mate(n)) => (None, Some(n)),
            None => (None, None),
        };
        writer.push(ply.game as i64);
        writer.push(ply.ply);
        writer.push(ply.san.as_str());
        writer.push(ply.notes.clock);
        writer.push(ply.notes.emt);
        writer.push(cp);
        writer.push(mate);
        writer.end_row().expect("write a row");
    }
    assert_eq!(writer.rows(), 28_538);
    writer.finish().expect("write the footer");

    let reader = SerializedFileReader::new(File::open(&path).unwrap()).expect("open the file");
    assert_eq!(reader.metadata().num_row_groups(), 6);
    assert_eq!(reader.metadata().file_metadata().num_rows(), 28_538);
    let optional = |value: Option<Field>| value.unwrap_or(Field::Null);
    let rows = reader.get_row_iter(None).expect("iterate rows");
    let mut count = 0;
    for (row, ply) in rows.zip(&collect.plies) {
        let fields: Vec<Field> = row
            .expect("a row")
            .get_column_iter()
            .map(|(_, field)| field.clone())
            .collect();
        let (cp, mate) = match ply.notes.eval {
            Some(Eval::Centipawns(cp)) => (Some(Field::Int(cp)), None),
            Some(Eval::Mate(n)) => (None, Some(Field::Int(n))),
            None => (None, None),
        };
        let expected = vec![
            Field::Long(ply.game as i64),
            Field::UInt(ply.ply),
            Field::Str(ply.san.clone()),
            optional(ply.notes.clock.map(Field::UInt)),
            optional(ply.notes.emt.map(Field::UInt)),
            optional(cp),
            optional(mate),
        ];
        assert_eq!(fields, expected, "game {} ply {}", ply.game, ply.ply);
        count += 1;
    }
    assert_eq!(count, 28_538);
    // zstd and dictionaries: well under 8 bytes a row for these columns.
    let size = std::fs::metadata(&path).unwrap().len();
    assert!(size < 28_538 * 8, "{size} bytes");
}
