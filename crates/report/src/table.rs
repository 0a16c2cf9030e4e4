//! Export's tables (a row per game, or a row per ply) written from one description of their
//! columns, so that CSV, JSON, JSON Lines and Parquet stay in step: a row is a series of typed
//! [`Cell`]s, one per [`Column`], which each format writes its own way.
//!
//! - **CSV**: a header row of the column names; a null is an empty field; strings are quoted
//!   exactly when the csv crate would quote them, so that it reads them back unchanged; a list is
//!   its numbers separated by spaces.
//! - **JSON Lines** and **JSON** (one array): an object per row, keys in column order, null as
//!   `null`, dates as `"YYYY-MM-DD"`, seconds as numbers with up to three decimals, lists as
//!   arrays of numbers.
//! - **Parquet**: the cells are kept typed in the batch's [`Output`] and written into row groups
//!   in input order (`parquet`).
//!
//! Game numbers may not be known while a row is formatted on a worker: [`Cell::Run`] and
//! [`Cell::Input`] leave holes that [`Output`] fills in when the output is written in order.

use std::cell::RefCell;
use std::io;
use std::path::Path;
use std::sync::Arc;

use arbiter_core::clocks::Millis;
use arbiter_io::compression::format_extension;

use crate::columns::Column;
use crate::date::CalendarDate;
use crate::moment::Moment;
use crate::output::{Cell, GameNumber, Output, push_decimal};

/// The output format of `export`.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub enum ExportFormat {
    /// Comma-separated values with a header row.
    Csv,
    /// One JSON array of objects.
    Json,
    /// One JSON object per line.
    Jsonl,
    /// An Apache Parquet file of typed, zstd-compressed columns (binary: not for a terminal;
    /// with the `parquet` feature).
    #[cfg(feature = "parquet")]
    Parquet,
}

impl ExportFormat {
    /// The format an output file's name asks for: its extension (before a compression suffix,
    /// [`format_extension`]) `.csv`, `.json`, `.jsonl` or `.ndjson`, or `.parquet`; CSV for a
    /// name without one. Any other extension (`.xlsx`, `.tsv`, `.txt`) names no format export
    /// writes: an error naming it, rather than CSV in a file named for something else.
    pub fn of_output(path: &Path) -> Result<ExportFormat, String> {
        match format_extension(path).as_deref() {
            None | Some("csv") => Ok(ExportFormat::Csv),
            Some("json") => Ok(ExportFormat::Json),
            Some("jsonl" | "ndjson") => Ok(ExportFormat::Jsonl),
            #[cfg(feature = "parquet")]
            Some("parquet") => Ok(ExportFormat::Parquet),
            Some(extension) => Err(format!(
                "{}: export writes CSV, JSON, JSON Lines or Parquet, and .{extension} names none \
                 of them; name the file .csv, .json, .jsonl, .ndjson or .parquet (before a .gz, \
                 .zst, .xz or .bz2 suffix), or give --format",
                path.display()
            )),
        }
    }
}

/// Columns and how to write them in one format.
pub struct Table {
    format: ExportFormat,
    /// Shared with each batch's Parquet rows.
    columns: Arc<[Column]>,
    /// Per column, what comes before its value in JSON: `{"name":` for the first, `,"name":`
    /// for the others.
    json_keys: Vec<Key>,
}

/// A JSON key as written before its value. Short ones (every fixed column's) are kept padded to
/// 32 bytes, so that writing one is two vector stores instead of a call to `memcpy`.
enum Key {
    Short([u8; 32], usize),
    Long(Box<[u8]>),
}

impl Key {
    fn new(bytes: Vec<u8>) -> Key {
        if bytes.len() <= 32 {
            let mut padded = [b' '; 32];
            padded[..bytes.len()].copy_from_slice(&bytes);
            Key::Short(padded, bytes.len())
        } else {
            Key::Long(bytes.into_boxed_slice())
        }
    }

    #[inline(always)]
    fn write(&self, out: &mut Vec<u8>) {
        match self {
            Key::Short(padded, len) => {
                let end = out.len() + len;
                out.extend_from_slice(padded);
                out.truncate(end);
            }
            Key::Long(bytes) => out.extend_from_slice(bytes),
        }
    }
}

impl Table {
    /// A table of `columns` written as `format`.
    pub fn new(format: ExportFormat, columns: Vec<Column>) -> Table {
        let json_keys = columns
            .iter()
            .enumerate()
            .map(|(i, column)| {
                let mut key = vec![if i == 0 { b'{' } else { b',' }];
                json_str(&column.name, &mut key);
                key.push(b':');
                Key::new(key)
            })
            .collect();
        Table {
            format,
            columns: columns.into(),
            json_keys,
        }
    }

    /// The columns.
    pub fn columns(&self) -> &[Column] {
        &self.columns
    }

    /// The format.
    pub fn format(&self) -> ExportFormat {
        self.format
    }

    /// The bytes that open the output: the CSV header row, or `[` for JSON.
    pub fn header(&self, out: &mut Vec<u8>) {
        match self.format {
            ExportFormat::Csv => {
                let mut csv = csv::WriterBuilder::new().from_writer(Pending(RefCell::new(out)));
                // Writing into memory cannot fail.
                let _ = csv.write_record(self.columns.iter().map(|c| c.name.as_str()));
                let _ = csv.flush();
            }
            ExportFormat::Json => out.push(b'['),
            ExportFormat::Jsonl => {}
            #[cfg(feature = "parquet")]
            ExportFormat::Parquet => {}
        }
    }

    /// The bytes that close the output: `]` for JSON (an empty array when there were no rows).
    pub fn footer(&self, any_row: bool, out: &mut Vec<u8>) {
        if self.format == ExportFormat::Json {
            out.extend_from_slice(if any_row { b"\n]\n" } else { b"]\n" });
        }
    }

    /// Starts a row in `out`; give it one cell per column, then [`Row::end`] it.
    #[inline]
    pub(crate) fn row<'t, 'o>(&'t self, out: &'o mut Output) -> Row<'t, 'o> {
        out.count_row();
        if self.format == ExportFormat::Json {
            out.row_comma();
            out.extend(b"\n");
        }
        Row {
            table: self,
            out,
            column: 0,
        }
    }
}

/// A row being written.
pub(crate) struct Row<'t, 'o> {
    table: &'t Table,
    out: &'o mut Output,
    column: usize,
}

impl Row<'_, '_> {
    /// The next column's value.
    ///
    /// Always inlined down to one call per kind of cell (`text`, `int`...), which is not: a game
    /// row is written once per game, after the game's moves have pushed its code out of the
    /// instruction cache, and one shared copy per kind misses the cache less often than a copy
    /// inlined for every column (valgrind's model: 208k against 300k misses per MB of lichess
    /// games, for 1% more instructions). At each call the cell's kind is usually known, so only
    /// the call remains.
    #[inline(always)]
    pub fn cell(&mut self, cell: Cell<'_>) -> &mut Self {
        match cell {
            Cell::Str(s) => self.text(s),
            Cell::Plain(s) => self.plain(s),
            Cell::Null => self.null(),
            Cell::Int(n) => self.int(n),
            Cell::Bool(b) => self.boolean(b),
            Cell::Seconds(ms) => self.seconds(ms),
            Cell::Date(date) => self.date(date),
            Cell::Moment(moment) => self.moment(moment),
            Cell::Run(number) => self.game_number(number, true),
            Cell::Input(number) => self.game_number(number, false),
            Cell::List(items) => self.list(items),
        }
        self
    }

    /// Starts the next cell (the comma before it in CSV, its key in JSON) and returns the format.
    #[inline(always)]
    fn start_cell(&mut self) -> ExportFormat {
        let column = self.column;
        self.column += 1;
        let format = self.table.format;
        match format {
            ExportFormat::Csv if column > 0 => self.out.extend(b","),
            ExportFormat::Json | ExportFormat::Jsonl => {
                self.table.json_keys[column].write(self.out.bytes_mut());
            }
            _ => {}
        }
        format
    }

    #[inline(never)]
    fn text(&mut self, s: &str) {
        match self.start_cell() {
            ExportFormat::Csv => csv_field(s, self.out.bytes_mut()),
            ExportFormat::Json | ExportFormat::Jsonl => json_str(s, self.out.bytes_mut()),
            #[cfg(feature = "parquet")]
            ExportFormat::Parquet => self.out.cell(&self.table.columns, Cell::Str(s)),
        }
    }

    #[inline(never)]
    fn plain(&mut self, s: &str) {
        debug_assert!(
            !s.bytes()
                .any(|b| b < 0x20 || matches!(b, b'"' | b'\\' | b','))
        );
        match self.start_cell() {
            ExportFormat::Csv => self.out.extend(s.as_bytes()),
            ExportFormat::Json | ExportFormat::Jsonl => {
                let bytes = self.out.bytes_mut();
                bytes.push(b'"');
                bytes.extend_from_slice(s.as_bytes());
                bytes.push(b'"');
            }
            #[cfg(feature = "parquet")]
            ExportFormat::Parquet => self.out.cell(&self.table.columns, Cell::Plain(s)),
        }
    }

    #[inline(never)]
    fn null(&mut self) {
        match self.start_cell() {
            ExportFormat::Csv => {}
            ExportFormat::Json | ExportFormat::Jsonl => self.out.extend(b"null"),
            #[cfg(feature = "parquet")]
            ExportFormat::Parquet => self.out.cell(&self.table.columns, Cell::Null),
        }
    }

    #[inline(never)]
    fn int(&mut self, n: i64) {
        match self.start_cell() {
            #[cfg(feature = "parquet")]
            ExportFormat::Parquet => self.out.cell(&self.table.columns, Cell::Int(n)),
            _ => {
                if n < 0 {
                    self.out.extend(b"-");
                }
                push_decimal(self.out.bytes_mut(), n.unsigned_abs());
            }
        }
    }

    #[inline(never)]
    fn boolean(&mut self, b: bool) {
        match self.start_cell() {
            #[cfg(feature = "parquet")]
            ExportFormat::Parquet => self.out.cell(&self.table.columns, Cell::Bool(b)),
            _ => self.out.extend(if b { b"true" } else { b"false" }),
        }
    }

    #[inline(never)]
    fn seconds(&mut self, ms: Millis) {
        match self.start_cell() {
            #[cfg(feature = "parquet")]
            ExportFormat::Parquet => self.out.cell(&self.table.columns, Cell::Seconds(ms)),
            _ => seconds(ms, self.out.bytes_mut()),
        }
    }

    #[inline(never)]
    fn date(&mut self, date: CalendarDate) {
        let iso = date.iso();
        match self.start_cell() {
            ExportFormat::Csv => self.out.extend(iso),
            ExportFormat::Json | ExportFormat::Jsonl => {
                let mut quoted = [b'"'; 12];
                quoted[1..11].copy_from_slice(iso);
                self.out.extend(&quoted);
            }
            #[cfg(feature = "parquet")]
            ExportFormat::Parquet => self.out.cell(&self.table.columns, Cell::Date(date)),
        }
    }

    #[inline(never)]
    fn moment(&mut self, moment: Moment) {
        match self.start_cell() {
            ExportFormat::Csv => self.out.extend(moment.text()),
            ExportFormat::Json | ExportFormat::Jsonl => {
                let bytes = self.out.bytes_mut();
                bytes.push(b'"');
                bytes.extend_from_slice(moment.text());
                bytes.push(b'"');
            }
            #[cfg(feature = "parquet")]
            ExportFormat::Parquet => self.out.cell(&self.table.columns, Cell::Moment(moment)),
        }
    }

    /// A list of numbers: `[1,14]` in JSON, `1 14` in CSV.
    #[inline(never)]
    fn list(&mut self, items: &[u8]) {
        let (open, separator, close): (&[u8], _, &[u8]) = match self.start_cell() {
            ExportFormat::Csv => (b"", b' ', b""),
            ExportFormat::Json | ExportFormat::Jsonl => (b"[", b',', b"]"),
            #[cfg(feature = "parquet")]
            ExportFormat::Parquet => return self.out.cell(&self.table.columns, Cell::List(items)),
        };
        let bytes = self.out.bytes_mut();
        bytes.extend_from_slice(open);
        for (i, &n) in items.iter().enumerate() {
            if i > 0 {
                bytes.push(separator);
            }
            push_decimal(bytes, n.into());
        }
        bytes.extend_from_slice(close);
    }

    /// A game's number across all inputs (`run`) or in its input, perhaps a hole filled in as
    /// the output is written.
    #[inline(never)]
    fn game_number(&mut self, number: GameNumber, run: bool) {
        match (self.start_cell(), run) {
            #[cfg(feature = "parquet")]
            (ExportFormat::Parquet, true) => self.out.cell(&self.table.columns, Cell::Run(number)),
            #[cfg(feature = "parquet")]
            (ExportFormat::Parquet, false) => {
                self.out.cell(&self.table.columns, Cell::Input(number))
            }
            (_, true) => self.out.run_number(number),
            (_, false) => self.out.input_number(number),
        }
    }

    /// Ends the row.
    ///
    /// # Panics
    ///
    /// In debug builds, when the row does not have one cell per column.
    #[inline]
    pub fn end(self) {
        debug_assert_eq!(self.column, self.table.columns.len(), "cells in a row");
        match self.table.format {
            ExportFormat::Csv | ExportFormat::Jsonl => {
                if self.table.format == ExportFormat::Jsonl {
                    self.out.extend(b"}");
                }
                self.out.extend(b"\n");
            }
            ExportFormat::Json => self.out.extend(b"}"),
            #[cfg(feature = "parquet")]
            ExportFormat::Parquet => self.out.end_cells(&self.table.columns),
        }
    }
}

/// Milliseconds as seconds: `180`, `12.5`, `0.125`.
pub(crate) fn seconds(ms: Millis, out: &mut Vec<u8>) {
    push_decimal(out, u64::from(ms / 1000));
    let fraction = ms % 1000;
    if fraction > 0 {
        let digits = [
            b'0' + (fraction / 100) as u8,
            b'0' + (fraction / 10 % 10) as u8,
            b'0' + (fraction % 10) as u8,
        ];
        let used = if fraction.is_multiple_of(100) {
            1
        } else if fraction.is_multiple_of(10) {
            2
        } else {
            3
        };
        out.push(b'.');
        out.extend_from_slice(&digits[..used]);
    }
}

/// The CSV writer's destination for the header row (the csv crate lends only a shared reference
/// to its destination).
struct Pending<'a>(RefCell<&'a mut Vec<u8>>);

impl io::Write for Pending<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.get_mut().extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// Whether `s` holds nothing that JSON escapes or CSV quotes, so that it may be written as
/// [`Cell::Plain`].
pub(crate) fn is_plain(s: &str) -> bool {
    !any_byte(
        s.as_bytes(),
        |x| below(x, 0x20) | has(x, b'"') | has(x, b'\\') | has(x, b','),
        |b| b < 0x20 || matches!(b, b'"' | b'\\' | b','),
    )
}

/// Appends `s` as a JSON string, exactly as serde_json writes it.
pub(crate) fn json_str(s: &str, out: &mut Vec<u8>) {
    let escapes = any_byte(
        s.as_bytes(),
        |x| below(x, 0x20) | has(x, b'"') | has(x, b'\\'),
        |b| b < 0x20 || b == b'"' || b == b'\\',
    );
    if !escapes {
        out.push(b'"');
        out.extend_from_slice(s.as_bytes());
        out.push(b'"');
    } else {
        // Writing a string into a Vec cannot fail.
        let _ = serde_json::to_writer(&mut *out, s);
    }
}

/// Appends `field` as a CSV field, quoted (with quotes doubled) when it holds a comma, a quote or
/// a line end, as the csv crate writes it.
pub(crate) fn csv_field(field: &str, out: &mut Vec<u8>) {
    let quote = any_byte(
        field.as_bytes(),
        |x| has(x, b',') | has(x, b'"') | has(x, b'\n') | has(x, b'\r'),
        |b| matches!(b, b',' | b'"' | b'\n' | b'\r'),
    );
    if !quote {
        out.extend_from_slice(field.as_bytes());
        return;
    }
    out.push(b'"');
    for b in field.bytes() {
        if b == b'"' {
            out.push(b'"');
        }
        out.push(b);
    }
    out.push(b'"');
}

/// Whether some byte of `bytes` is one `word` finds in eight bytes at a time (a non-zero mask)
/// or `byte` finds one at a time. Fields are mostly short names: eight bytes at a time, the last
/// eight overlapping, cost a third of a byte-by-byte look.
#[inline]
fn any_byte(bytes: &[u8], word: impl Fn(u64) -> u64, byte: impl Fn(u8) -> bool) -> bool {
    if bytes.len() < 8 {
        return bytes.iter().any(|&b| byte(b));
    }
    let load = |at: usize| {
        let mut eight = [0; 8];
        eight.copy_from_slice(&bytes[at..at + 8]);
        u64::from_le_bytes(eight)
    };
    let mut found = 0;
    let mut at = 0;
    while at + 8 <= bytes.len() {
        found |= word(load(at));
        at += 8;
    }
    if at < bytes.len() {
        found |= word(load(bytes.len() - 8));
    }
    found != 0
}

const ONES: u64 = 0x0101_0101_0101_0101;
const HIGHS: u64 = 0x8080_8080_8080_8080;

/// Non-zero when some byte of `x` equals `b`.
#[inline]
fn has(x: u64, b: u8) -> u64 {
    let y = x ^ (ONES * u64::from(b));
    y.wrapping_sub(ONES) & !y & HIGHS
}

/// Non-zero when some byte of `x` is below `n` (at most 128).
#[inline]
fn below(x: u64, n: u8) -> u64 {
    x.wrapping_sub(ONES * u64::from(n)) & !x & HIGHS
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::columns::ColumnKind;

    #[test]
    fn json_strings_are_written_as_serde_json_writes_them() {
        let tricky = [
            "",
            "Kasparov, G.",
            "Réti \"the\" \\ great",
            "tab\there\nnew\r\u{8}\u{c}\u{1}\u{1f}\u{7f}",
            "ü€😀",
        ];
        for s in tricky {
            let mut ours = Vec::new();
            json_str(s, &mut ours);
            assert_eq!(ours, serde_json::to_vec(s).unwrap_or_default(), "{s:?}");
        }
    }

    #[test]
    fn csv_fields_are_quoted_as_the_csv_crate_quotes_them() {
        let mut fields = vec![String::new(), "plain text of some length".into()];
        for special in [",", "\"", "\n", "\r", "\t", "é"] {
            for len in 0..20 {
                for at in 0..=len {
                    let mut text = "x".repeat(len);
                    text.insert_str(at, special);
                    fields.push(text);
                }
            }
        }
        for field in &fields {
            let mut ours = Vec::new();
            csv_field(field, &mut ours);
            ours.push(b'\n');
            let mut theirs = csv::Writer::from_writer(Vec::new());
            theirs.write_record([field]).unwrap();
            let theirs = theirs.into_inner().unwrap();
            // The csv crate quotes an empty lone field; within a row it writes it bare.
            if !field.is_empty() {
                assert_eq!(ours, theirs, "{field:?}");
            }
            let mut json = Vec::new();
            json_str(field, &mut json);
            assert_eq!(json, serde_json::to_vec(field).unwrap(), "{field:?}");
        }
    }

    #[test]
    fn seconds_keep_their_milliseconds() {
        for (ms, text) in [
            (0, "0"),
            (180_000, "180"),
            (12_500, "12.5"),
            (125, "0.125"),
            (1_050, "1.05"),
            (u32::MAX, "4294967.295"),
        ] {
            let mut out = Vec::new();
            seconds(ms, &mut out);
            assert_eq!(String::from_utf8(out).unwrap(), text);
        }
    }

    fn table(format: ExportFormat) -> Table {
        Table::new(
            format,
            vec![
                Column::required("index", ColumnKind::Int64),
                Column::required("name", ColumnKind::String),
                Column::optional("elo", ColumnKind::Int32),
                Column::optional("clock", ColumnKind::Float64),
                Column::optional("on", ColumnKind::Date),
                Column::required("ok", ColumnKind::Bool),
            ],
        )
    }

    fn written(format: ExportFormat) -> String {
        let table = table(format);
        let mut out = Vec::new();
        table.header(&mut out);
        let mut body = Output::default();
        for (i, (name, elo)) in [("Ann, \"A\"", Some(2400)), ("Bob", None)]
            .iter()
            .enumerate()
        {
            let number = GameNumber::Later { in_batch: i as u64 };
            let mut row = table.row(&mut body);
            row.cell(Cell::Run(number))
                .cell(Cell::Str(name))
                .cell(elo.map_or(Cell::Null, Cell::Int))
                .cell(Cell::Seconds(61_500))
                .cell(Cell::Date(CalendarDate::from_pgn("2025.05.01").unwrap()))
                .cell(Cell::Bool(i == 0));
            row.end();
        }
        body.write_to(4, 4, &mut 0, &mut out).unwrap();
        table.footer(true, &mut out);
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn one_row_three_ways() {
        assert_eq!(
            written(ExportFormat::Csv),
            "index,name,elo,clock,on,ok\n5,\"Ann, \"\"A\"\"\",2400,61.5,2025-05-01,true\n\
             6,Bob,,61.5,2025-05-01,false\n"
        );
        let jsonl = written(ExportFormat::Jsonl);
        let rows: Vec<serde_json::Value> = jsonl
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(
            rows[0],
            serde_json::json!({"index": 5, "name": "Ann, \"A\"", "elo": 2400, "clock": 61.5,
                "on": "2025-05-01", "ok": true})
        );
        assert_eq!(rows[1]["elo"], serde_json::Value::Null);
        let json: serde_json::Value = written(ExportFormat::Json).parse().unwrap();
        assert_eq!(json.as_array().map(|a| a.len()), Some(2));
        assert_eq!(json[1], rows[1]);
    }
}
