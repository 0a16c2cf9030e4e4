//! The streaming Parquet writer (`arbiter_report::parquet`) read back with the parquet crate's
//! own reader: every kind of column, nulls, UTF-8, many row groups, row groups cut by bytes, and a
//! file with no rows.

use arbiter_report::columns::{Column, ColumnKind};
use arbiter_report::date::Date32;
use arbiter_report::parquet::{ParquetOptions, ParquetWriter, Value};
use bytes::Bytes;
use parquet::basic::{Compression, LogicalType, ZstdLevel};
use parquet::file::reader::{FileReader, SerializedFileReader};
use parquet::record::Field;

fn all_kinds() -> Vec<Column> {
    vec![
        Column::required("game", ColumnKind::Int64),
        Column::required("san", ColumnKind::String),
        Column::optional("comment", ColumnKind::String),
        Column::optional("clock_ms", ColumnKind::UInt32),
        Column::optional("eval_cp", ColumnKind::Int32),
        Column::optional("pawns", ColumnKind::Float64),
        Column::required("valid", ColumnKind::Bool),
        Column::optional("date", ColumnKind::Date),
        Column::optional("big", ColumnKind::Int64),
    ]
}

/// Reads a file back as rows of fields.
fn read(bytes: Vec<u8>) -> (Vec<Vec<Field>>, SerializedFileReader<Bytes>) {
    let reader = SerializedFileReader::new(Bytes::from(bytes)).unwrap();
    let rows = reader
        .get_row_iter(None)
        .unwrap()
        .map(|row| {
            row.unwrap()
                .get_column_iter()
                .map(|(_, field)| field.clone())
                .collect()
        })
        .collect();
    (rows, reader)
}

#[test]
fn values_and_nulls_read_back() {
    let mut writer =
        ParquetWriter::new(Vec::new(), &all_kinds(), ParquetOptions::default()).unwrap();
    writer.push(7i64);
    writer.push("Nf3");
    writer.push(Some("élan, 漢字 ♞"));
    writer.push(Some(u32::MAX));
    writer.push(Some(-125i32));
    writer.push(Some(0.5f64));
    writer.push(true);
    writer.push(Date32::from_pgn("2024.02.29"));
    writer.push(Some(i64::MIN));
    writer.end_row().unwrap();
    writer.push(8i64);
    writer.push("");
    for _ in 0..4 {
        writer.push(Value::Null);
    }
    writer.push(false);
    writer.push(Date32::from_pgn("2024.??.??"));
    writer.push(Option::<i64>::None);
    writer.end_row().unwrap();
    assert_eq!(writer.rows(), 2);
    let (rows, reader) = read(writer.finish().unwrap());
    assert_eq!(
        rows,
        [
            vec![
                Field::Long(7),
                Field::Str("Nf3".into()),
                Field::Str("élan, 漢字 ♞".into()),
                Field::UInt(u32::MAX),
                Field::Int(-125),
                Field::Double(0.5),
                Field::Bool(true),
                Field::Date(19_782),
                Field::Long(i64::MIN),
            ],
            vec![
                Field::Long(8),
                Field::Str(String::new()),
                Field::Null,
                Field::Null,
                Field::Null,
                Field::Null,
                Field::Bool(false),
                Field::Null,
                Field::Null,
            ],
        ]
    );
    let metadata = reader.metadata();
    assert_eq!(metadata.num_row_groups(), 1);
    let chunk = metadata.row_group(0).column(1);
    assert_eq!(chunk.compression(), Compression::ZSTD(ZstdLevel::default()));
    assert_eq!(
        metadata.file_metadata().created_by(),
        Some(concat!("arbiter ", env!("CARGO_PKG_VERSION")))
    );
    let schema = metadata.file_metadata().schema_descr();
    assert_eq!(
        schema.column(7).logical_type_ref(),
        Some(&LogicalType::Date)
    );
    assert_eq!(
        schema.column(1).logical_type_ref(),
        Some(&LogicalType::String)
    );
}

#[test]
fn many_row_groups_keep_every_row_in_order() {
    let columns = [
        Column::required("n", ColumnKind::UInt32),
        Column::optional("text", ColumnKind::String),
    ];
    let options = ParquetOptions {
        row_group_rows: 100,
        ..ParquetOptions::default()
    };
    let mut writer = ParquetWriter::new(Vec::new(), &columns, options).unwrap();
    for n in 0..1_050u32 {
        writer.push(n);
        let text = format!("row {n} {}", "x".repeat(n as usize % 7));
        writer.push((n % 3 != 0).then_some(text.as_str()));
        writer.end_row().unwrap();
    }
    assert_eq!(writer.row_groups(), 10);
    let (rows, reader) = read(writer.finish().unwrap());
    assert_eq!(reader.metadata().num_row_groups(), 11);
    assert_eq!(reader.metadata().row_group(10).num_rows(), 50);
    assert_eq!(rows.len(), 1_050);
    for (n, row) in rows.iter().enumerate() {
        let text = match n % 3 {
            0 => Field::Null,
            _ => Field::Str(format!("row {n} {}", "x".repeat(n % 7))),
        };
        assert_eq!(row, &vec![Field::UInt(n as u32), text]);
    }
}

#[test]
fn large_strings_end_a_row_group_early() {
    let columns = [Column::required("text", ColumnKind::String)];
    let options = ParquetOptions {
        row_group_bytes: 10_000,
        ..ParquetOptions::default()
    };
    let mut writer = ParquetWriter::new(Vec::new(), &columns, options).unwrap();
    let long = "y".repeat(3_000);
    for _ in 0..10 {
        writer.push(long.as_str());
        writer.end_row().unwrap();
    }
    let (rows, reader) = read(writer.finish().unwrap());
    assert_eq!(reader.metadata().num_row_groups(), 3);
    assert_eq!(rows.len(), 10);
    assert!(
        rows.iter()
            .all(|row| row == &vec![Field::Str(long.clone())])
    );
}

#[test]
fn a_file_with_no_rows_is_valid() {
    let writer = ParquetWriter::new(Vec::new(), &all_kinds(), ParquetOptions::default()).unwrap();
    let (rows, reader) = read(writer.finish().unwrap());
    assert!(rows.is_empty());
    assert_eq!(reader.metadata().file_metadata().num_rows(), 0);
    assert_eq!(
        reader
            .metadata()
            .file_metadata()
            .schema_descr()
            .num_columns(),
        9
    );
}

#[test]
fn lists_read_back_as_lists_of_int32() {
    let columns = [
        Column::optional("nags", ColumnKind::Int32List),
        Column::required("codes", ColumnKind::Int32List),
        Column::required("n", ColumnKind::Int64),
    ];
    let rows: [(Option<&[u8]>, &[u8]); 5] = [
        (Some(&[1, 14]), &[255]),
        (None, &[]),
        (Some(&[]), &[0, 1, 2]),
        (Some(&[3]), &[7]),
        (None, &[9, 9]),
    ];
    let options = ParquetOptions {
        row_group_rows: 3,
        ..ParquetOptions::default()
    };
    let mut writer = ParquetWriter::new(Vec::new(), &columns, options).unwrap();
    for (n, (nags, codes)) in (0i64..).zip(rows) {
        writer.push(nags.map_or(Value::Null, Value::List));
        writer.push(Value::List(codes));
        writer.push(n);
        writer.end_row().unwrap();
    }
    let (read_back, reader) = read(writer.finish().unwrap());
    assert_eq!(reader.metadata().num_row_groups(), 2);
    // A list as its numbers, a null as `None`.
    let numbers = |field: &Field| match field {
        Field::Null => None,
        Field::ListInternal(list) => Some(
            list.elements()
                .iter()
                .map(|item| match item {
                    Field::Int(n) => *n,
                    other => panic!("{other:?} in a list"),
                })
                .collect::<Vec<i32>>(),
        ),
        other => panic!("{other:?} for a list"),
    };
    let got: Vec<_> = read_back
        .iter()
        .map(|row| (numbers(&row[0]), numbers(&row[1]), row[2].clone()))
        .collect();
    let as_i32 = |items: &[u8]| items.iter().map(|&n| i32::from(n)).collect::<Vec<_>>();
    let expected: Vec<_> = (0i64..)
        .zip(rows)
        .map(|(n, (nags, codes))| (nags.map(as_i32), Some(as_i32(codes)), Field::Long(n)))
        .collect();
    assert_eq!(got, expected);
    let schema = reader.metadata().file_metadata().schema_descr();
    let nags = schema.column(0);
    assert_eq!(nags.path().string(), "nags.list.element");
    assert_eq!((nags.max_def_level(), nags.max_rep_level()), (2, 1));
    assert_eq!(
        schema.root_schema().get_fields()[0]
            .get_basic_info()
            .logical_type_ref(),
        Some(&LogicalType::List)
    );
    assert_eq!(schema.column(1).max_def_level(), 1);
}
