//! One export record per game, written as CSV, JSON (one streamed array) or JSON Lines.
//!
//! The fields, in this order (`docs/export-fields.md` says what each means): `index, file, game,
//! event, site, date, round, white, black, result, plies, outcome, winner, result_consistent,
//! final_fen, valid, error, end_ply`, then one column per tag asked for with `--tags`.
//!
//! CSV rows are written here rather than by the csv crate: the game numbers may be holes filled
//! in later, in the middle of a row. Fields are quoted exactly when the csv crate would quote
//! them (a comma, a quote or a line end inside), so the crate reads them back unchanged.

use std::cell::RefCell;
use std::io;

use crate::outcome::{Outcome, Winner};
use crate::report::output::{GameNumber, Output, itoa_buf};

/// The fixed export fields, in order.
pub const FIELDS: [&str; 18] = [
    "index",
    "file",
    "game",
    "event",
    "site",
    "date",
    "round",
    "white",
    "black",
    "result",
    "plies",
    "outcome",
    "winner",
    "result_consistent",
    "final_fen",
    "valid",
    "error",
    "end_ply",
];

/// The record of one game, borrowed from wherever its fields live (for export, the replayer's
/// report): formatting copies each field once, straight into the output.
#[derive(Copy, Clone, Debug, Default, Eq, PartialEq)]
pub struct ExportRecord<'a> {
    /// The game's numbers: `index` across all inputs, `game` within its input.
    pub number: GameNumber,
    /// The input: the path as given, or `<stdin>`.
    pub file: &'a str,
    /// The `Event` tag.
    pub event: &'a str,
    /// The `Site` tag.
    pub site: &'a str,
    /// The `Date` tag.
    pub date: &'a str,
    /// The `Round` tag.
    pub round: &'a str,
    /// The `White` tag.
    pub white: &'a str,
    /// The `Black` tag.
    pub black: &'a str,
    /// The `Result` tag as written.
    pub result: &'a str,
    /// Plies replayed on the main line (up to the first illegal move for an invalid game).
    pub plies: u32,
    /// The outcome category.
    pub outcome: Option<Outcome>,
    /// Who won.
    pub winner: Option<Winner>,
    /// False when the Result contradicts the board.
    pub result_consistent: bool,
    /// FEN of the last position reached on the main line.
    pub final_fen: &'a str,
    /// `validate` reports no error for the game (main line, variations and tags).
    pub valid: bool,
    /// The game's first error, with its location, for an invalid game.
    pub error: &'a str,
    /// The ply at which an automatic end ended the game, when moves follow it.
    pub end_ply: Option<u32>,
    /// Values of the tags asked for with `--tags`, in that order (empty when absent).
    pub extra: &'a [String],
}

/// The output format of `export`.
#[derive(Copy, Clone, Debug, Eq, PartialEq, clap::ValueEnum)]
pub enum ExportFormat {
    /// Comma-separated values with a header row.
    Csv,
    /// One JSON array of objects.
    Json,
    /// One JSON object per line.
    Jsonl,
}

/// Formats records into byte buffers. Holds the `--tags` names and the CSV writer's state.
pub struct RecordFormatter {
    format: ExportFormat,
    extra_tags: Vec<String>,
    csv: csv::Writer<Pending>,
}

/// The CSV writer's destination: bytes wait here until the formatter moves them to the caller's
/// buffer (the csv writer lends only a shared reference to its destination).
struct Pending(RefCell<Vec<u8>>);

impl io::Write for Pending {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.get_mut().extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

impl RecordFormatter {
    /// A formatter for `format` with extra tag columns `extra_tags`.
    pub fn new(format: ExportFormat, extra_tags: Vec<String>) -> RecordFormatter {
        RecordFormatter {
            format,
            extra_tags,
            csv: csv::WriterBuilder::new().from_writer(Pending(RefCell::new(Vec::new()))),
        }
    }

    /// The bytes that open the output: the CSV header row, or `[` for JSON.
    pub fn header(&mut self, out: &mut Vec<u8>) {
        match self.format {
            ExportFormat::Csv => {
                let names = FIELDS
                    .iter()
                    .copied()
                    .chain(self.extra_tags.iter().map(String::as_str));
                write_csv(&mut self.csv, names, out);
            }
            ExportFormat::Json => out.push(b'['),
            ExportFormat::Jsonl => {}
        }
    }

    /// Appends one record.
    pub fn record(&mut self, record: &ExportRecord<'_>, out: &mut Output) {
        match self.format {
            ExportFormat::Csv => {
                out.run_number(record.number);
                out.extend(b",");
                csv_field(record.file, out.bytes_mut());
                out.extend(b",");
                out.input_number(record.number);
                let plies = itoa_buf(u64::from(record.plies));
                let end_ply = record.end_ply.map(|ply| itoa_buf(u64::from(ply)));
                let fields = [
                    record.event,
                    record.site,
                    record.date,
                    record.round,
                    record.white,
                    record.black,
                    record.result,
                    plies.as_str(),
                    record.outcome.map_or("", Outcome::as_str),
                    record.winner.map_or("", Winner::as_str),
                    bool_str(record.result_consistent),
                    record.final_fen,
                    bool_str(record.valid),
                    record.error,
                    end_ply.as_ref().map_or("", |n| n.as_str()),
                ];
                let extra = record.extra.iter().map(String::as_str);
                let bytes = out.bytes_mut();
                for field in fields.into_iter().chain(extra) {
                    bytes.push(b',');
                    csv_field(field, bytes);
                }
                bytes.push(b'\n');
            }
            ExportFormat::Json => {
                out.comma_unless_first(record.number);
                out.extend(b"\n");
                self.write_json(record, out);
            }
            ExportFormat::Jsonl => {
                self.write_json(record, out);
                out.extend(b"\n");
            }
        }
    }

    /// The bytes that close the output: `]` for JSON (an empty array when there were no games).
    pub fn footer(&mut self, any_record: bool, out: &mut Vec<u8>) {
        if self.format == ExportFormat::Json {
            out.extend_from_slice(if any_record { b"\n]\n" } else { b"]\n" });
        }
    }

    fn write_json(&self, record: &ExportRecord<'_>, out: &mut Output) {
        // Written by hand, field by field in export order: serde_json's generic map path cost more
        // than the rest of the export formatting. Strings go through `json_str`, which copies the
        // common case (nothing to escape) and leaves the rest to serde_json, so the bytes are the
        // same as `serde_json::to_writer` gives.
        let r = record;
        out.extend(b"{\"index\":");
        out.run_number(r.number);
        out.extend(b",\"file\":");
        json_str(r.file, out.bytes_mut());
        out.extend(b",\"game\":");
        out.input_number(r.number);
        let out = out.bytes_mut();
        for (key, value) in [
            (&b",\"event\":"[..], r.event),
            (b",\"site\":", r.site),
            (b",\"date\":", r.date),
            (b",\"round\":", r.round),
            (b",\"white\":", r.white),
            (b",\"black\":", r.black),
            (b",\"result\":", r.result),
        ] {
            out.extend_from_slice(key);
            json_str(value, out);
        }
        out.extend_from_slice(b",\"plies\":");
        out.extend_from_slice(itoa_buf(u64::from(r.plies)).as_str().as_bytes());
        // The outcome and winner names, and a FEN, hold nothing to escape.
        out.extend_from_slice(b",\"outcome\":");
        plain_str(r.outcome.map_or("", Outcome::as_str), out);
        out.extend_from_slice(b",\"winner\":");
        plain_str(r.winner.map_or("", Winner::as_str), out);
        out.extend_from_slice(b",\"result_consistent\":");
        out.extend_from_slice(bool_str(r.result_consistent).as_bytes());
        out.extend_from_slice(b",\"final_fen\":");
        plain_str(r.final_fen, out);
        out.extend_from_slice(b",\"valid\":");
        out.extend_from_slice(bool_str(r.valid).as_bytes());
        out.extend_from_slice(b",\"error\":");
        json_str(r.error, out);
        out.extend_from_slice(b",\"end_ply\":");
        match r.end_ply {
            Some(ply) => out.extend_from_slice(itoa_buf(u64::from(ply)).as_str().as_bytes()),
            None => out.extend_from_slice(b"null"),
        }
        for (name, value) in self.extra_tags.iter().zip(r.extra) {
            out.push(b',');
            json_str(name, out);
            out.push(b':');
            json_str(value, out);
        }
        out.push(b'}');
    }
}

/// Appends `s`, which holds nothing JSON escapes (letters, digits, `_`, `/`, `-` and spaces), as
/// a JSON string.
#[inline]
fn plain_str(s: &str, out: &mut Vec<u8>) {
    debug_assert!(
        s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"_/- ".contains(&b)),
        "{s:?}"
    );
    out.push(b'"');
    out.extend_from_slice(s.as_bytes());
    out.push(b'"');
}

/// Appends `s` as a JSON string, exactly as serde_json writes it.
fn json_str(s: &str, out: &mut Vec<u8>) {
    // A fold without early exit, so that the check runs sixteen bytes at a time.
    let escapes = s.bytes().fold(false, |any, b| {
        any | (b < 0x20) | (b == b'"') | (b == b'\\')
    });
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
fn csv_field(field: &str, out: &mut Vec<u8>) {
    let quote = field.bytes().fold(false, |any, b| {
        any | matches!(b, b',' | b'"' | b'\n' | b'\r')
    });
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

fn write_csv<'a>(
    csv: &mut csv::Writer<Pending>,
    fields: impl Iterator<Item = &'a str>,
    out: &mut Vec<u8>,
) {
    // Writing into memory cannot fail.
    let _ = csv.write_record(fields);
    let _ = csv.flush();
    out.append(&mut csv.get_ref().0.borrow_mut());
}

fn bool_str(value: bool) -> &'static str {
    if value { "true" } else { "false" }
}

#[cfg(test)]
mod tests {
    use super::*;

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

    fn record(extra: &[String]) -> ExportRecord<'_> {
        ExportRecord {
            number: GameNumber::Known { run: 7, input: 7 },
            file: "a, b.pgn",
            event: "Rated \"Blitz\", game",
            white: "Ann",
            black: "Bob",
            result: "1-0",
            plies: 41,
            outcome: Some(Outcome::Checkmate),
            winner: Some(Winner::White),
            result_consistent: true,
            final_fen: "7k/6Q1/6K1/8/8/8/8/8 b - - 1 21",
            valid: true,
            extra,
            ..ExportRecord::default()
        }
    }

    fn format(format: ExportFormat, records: &[ExportRecord<'_>]) -> String {
        let mut f = RecordFormatter::new(format, vec!["WhiteElo".into()]);
        let mut out = Vec::new();
        f.header(&mut out);
        let mut body = Output::default();
        for (i, r) in records.iter().enumerate() {
            // Numbered from 1, or left for later: the same text either way.
            let number = match i % 2 {
                0 => GameNumber::Known {
                    run: i as u64 + 1,
                    input: i as u64 + 1,
                },
                _ => GameNumber::Later { in_batch: i as u64 },
            };
            f.record(&ExportRecord { number, ..*r }, &mut body);
        }
        body.write_to(0, 0, &mut out).unwrap();
        f.footer(!records.is_empty(), &mut out);
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn csv_has_a_header_and_quotes_where_needed() {
        assert_eq!(
            format(ExportFormat::Csv, &[record(&["2400".to_string()])]),
            "index,file,game,event,site,date,round,white,black,result,plies,outcome,winner,\
             result_consistent,final_fen,valid,error,end_ply,WhiteElo\n\
             1,\"a, b.pgn\",1,\"Rated \"\"Blitz\"\", game\",,,,Ann,Bob,1-0,41,checkmate,white,true,\
             7k/6Q1/6K1/8/8/8/8/8 b - - 1 21,true,,,2400\n"
        );
    }

    #[test]
    fn jsonl_keeps_field_order() {
        let line = format(ExportFormat::Jsonl, &[record(&["2400".to_string()])]);
        assert!(line.ends_with('\n'));
        let keys: Vec<String> = line
            .trim_end()
            .parse::<serde_json::Value>()
            .map(|v| {
                let serde_json::Value::Object(map) = v else {
                    panic!("not an object")
                };
                map.keys().cloned().collect()
            })
            .unwrap();
        let mut expected: Vec<String> = FIELDS.iter().map(|s| s.to_string()).collect();
        expected.push("WhiteElo".into());
        // serde_json's map is sorted unless preserve_order is on: compare as sets, then order
        // through the raw text.
        let mut sorted = expected.clone();
        sorted.sort();
        assert_eq!(keys, sorted);
        let positions: Vec<usize> = expected
            .iter()
            .map(|k| line.find(&format!("\"{k}\":")).unwrap())
            .collect();
        assert!(positions.windows(2).all(|w| w[0] < w[1]), "{line}");
    }

    #[test]
    fn json_is_one_array() {
        let extra = ["2400".to_string()];
        let text = format(ExportFormat::Json, &[record(&extra), record(&extra)]);
        let value: serde_json::Value = text.parse().unwrap();
        assert_eq!(value.as_array().map(Vec::len), Some(2));
        assert_eq!(value[1]["event"], "Rated \"Blitz\", game");
        assert_eq!(
            (&value[0]["index"], &value[1]["index"]),
            (&1.into(), &2.into())
        );
        assert_eq!(
            format(ExportFormat::Json, &[])
                .parse::<serde_json::Value>()
                .unwrap(),
            serde_json::json!([])
        );
    }
}
