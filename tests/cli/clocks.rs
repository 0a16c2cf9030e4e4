//! Clocks, evaluations, ply rows and Parquet through the binary: validate's clock warnings on the
//! fixtures of `testdata/clocks` (each game lists the codes it must get in a `Codes` tag), the
//! typed game columns, `export --plies` against python-chess on the lichess sample, and Parquet
//! files read back with the parquet crate, equal to the JSON Lines rows and to themselves with
//! `--jobs 1` and `--jobs 2`.

use std::collections::BTreeMap;
use std::fs::File;
use std::path::Path;

use parquet::file::reader::{FileReader, SerializedFileReader};
use parquet::record::Field;
use serde_json::{Value, json};

use crate::util::{arbiter, arbiter_stdin, fixture, json_lines, shared, stderr, stdout};

/// The JSON Lines rows of `arbiter export ARGS --format jsonl`.
fn export_rows(args: &[&str]) -> Vec<Value> {
    let mut all = vec!["export", "--format", "jsonl"];
    all.extend_from_slice(args);
    let out = arbiter(&all);
    // Exit status 1 says some game is invalid; its row is there all the same.
    assert!(
        out.status.code().is_some_and(|c| c < 2),
        "{args:?}: {}",
        stderr(&out)
    );
    json_lines(&stdout(&out))
}

#[test]
fn validate_finds_each_clock_problem_where_the_fixture_says() {
    let dir = fixture("clocks");
    let out = arbiter(&["validate", &dir, "--format", "jsonl"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let mut found: BTreeMap<u64, Vec<String>> = BTreeMap::new();
    let text = std::fs::read_to_string(fixture("clocks/clocks.pgn")).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    for line in json_lines(&stdout(&out)) {
        if line["type"] != "diagnostic" {
            continue;
        }
        assert_eq!(line["severity"], "warning", "{line}");
        let game = line["game"].as_u64().unwrap();
        let code = line["code"].as_str().unwrap().to_owned();
        // Each warning points at the comment or command it is about, or at the tag.
        let (l, c) = (
            line["line"].as_u64().unwrap(),
            line["column"].as_u64().unwrap(),
        );
        let at = lines[l as usize - 1].chars().nth(c as usize - 1);
        let expected = match code.as_str() {
            "malformed_command" => '[',
            "clock_rise" | "clock_above_time_given" => '{',
            _ => '[',
        };
        assert_eq!(at, Some(expected), "{line}");
        found.entry(game).or_default().push(code);
    }
    let codes = export_rows(&[&dir, "--tags", "Codes"]);
    assert_eq!(codes.len(), 9);
    for game in codes {
        let number = game["game"].as_u64().unwrap();
        let expected: Vec<&str> = game["Codes"].as_str().unwrap().split_whitespace().collect();
        let got = found.remove(&number).unwrap_or_default();
        assert_eq!(got, expected, "game {number}: {}", game["event"]);
    }
}

#[test]
fn strict_turns_clock_warnings_into_errors() {
    let out = arbiter(&["validate", "--strict", &fixture("clocks")]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stdout(&out).contains("error[clock_rise]: White's clock rose"),
        "{}",
        stdout(&out)
    );
}

#[test]
fn game_rows_have_typed_columns() {
    let rows = export_rows(&[&fixture("clocks")]);
    let clean = &rows[5];
    assert_eq!(clean["event"], "a clean blitz game");
    let typed: BTreeMap<&str, &Value> = [
        "white_elo",
        "black_elo",
        "eco",
        "opening",
        "termination",
        "time_control",
        "base_seconds",
        "increment_seconds",
        "speed",
        "played_on",
        "utc_time",
        "white_clock",
        "black_clock",
    ]
    .into_iter()
    .map(|k| (k, &clean[k]))
    .collect();
    let expected = json!({
        "white_elo": 1850, "black_elo": null, "eco": "C20", "opening": "King's Pawn Game",
        "termination": "Normal", "time_control": "300+3", "base_seconds": 300,
        "increment_seconds": 3, "speed": "blitz", "played_on": "2026-11-29",
        "utc_time": "23:59:58", "white_clock": 285, "black_clock": 281
    });
    assert_eq!(serde_json::to_value(typed).unwrap(), expected);
    // No TimeControl: nulls; a sandclock: its seconds and speed but no first-period split.
    assert_eq!(rows[3]["speed"], Value::Null);
    assert_eq!(rows[3]["played_on"], "2026-11-30");
    assert_eq!(rows[4]["time_control"], "5 min");
    assert_eq!(rows[4]["speed"], Value::Null);
    assert_eq!(rows[6]["base_seconds"], Value::Null);
    assert_eq!(rows[6]["speed"], "blitz");
    // Clocks of variations do not count.
    assert_eq!(
        (&rows[7]["white_clock"], &rows[7]["black_clock"]),
        (&json!(59), &json!(58))
    );
    // Black moves first in a game set up from a FEN.
    assert_eq!(
        (&rows[8]["white_clock"], &rows[8]["black_clock"]),
        (&json!(50), &json!(40))
    );
}

#[test]
fn ply_rows_carry_each_moves_annotations() {
    let rows = export_rows(&[&fixture("clocks"), "--plies", "--fen", "--comments"]);
    let clean: Vec<&Value> = rows.iter().filter(|r| r["game"] == 6).collect();
    assert_eq!(clean.len(), 7);
    let pick = |row: &Value| {
        json!([
            row["ply"],
            row["san"],
            row["uci"],
            row["clock"],
            row["emt"],
            row["eval_cp"],
            row["eval_mate"],
            row["nags"],
            row["comment"]
        ])
    };
    assert_eq!(
        pick(clean[1]),
        json!([
            2,
            "e5",
            "e7e5",
            302,
            1,
            null,
            null,
            null,
            "[%clk 0:05:02] [%emt 0:00:01]"
        ])
    );
    assert_eq!(
        pick(clean[2]),
        json!([
            3,
            "Qh5",
            "d1h5",
            295.5,
            null,
            -50,
            null,
            [5],
            "[%eval -0.5,20] [%clk 0:04:55.5]"
        ])
    );
    assert_eq!(
        pick(clean[5]),
        json!([
            6,
            "Nf6",
            "g8f6",
            281,
            null,
            null,
            2,
            [4],
            "[%eval #2] [%clk 0:04:41] a blunder"
        ])
    );
    assert_eq!(clean[6]["san"], "Qxf7#");
    assert_eq!(
        clean[6]["fen"],
        "r1bqkb1r/pppp1Qpp/2n2n2/4p3/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 0 4"
    );
    // NAGs are a list of numbers in JSON, the numbers separated by spaces in CSV, whether
    // written as `$n` or as a move suffix.
    let nags = arbiter_stdin(
        &["export", "--plies", "--format", "csv"],
        b"1. e4 $1 $14 e5 2. Nf3!? Nc6 *\n",
    );
    let csv = stdout(&nags);
    let column: Vec<&str> = (csv.lines())
        .map(|line| line.split(',').nth(13).unwrap())
        .collect();
    assert_eq!(column, ["nags", "1 14", "", "5", ""]);
    let nags = arbiter_stdin(
        &["export", "--plies", "--format", "jsonl"],
        b"1. e4 $1 $14 e5 2. Nf3!? Nc6 *\n",
    );
    let column: Vec<Value> = (json_lines(&stdout(&nags)).iter())
        .map(|row| row["nags"].clone())
        .collect();
    assert_eq!(
        column,
        [json!([1, 14]), Value::Null, json!([5]), Value::Null]
    );
    // Without --fen and --comments the columns are not there.
    let plain = export_rows(&[&fixture("clocks"), "--plies"]);
    assert_eq!(plain.len(), rows.len());
    assert!(plain[0].get("fen").is_none() && plain[0].get("comment").is_none());
    // Ply rows stop at an illegal move of the main line.
    let invalid = export_rows(&[&fixture("invalid"), "--plies"]);
    let games = export_rows(&[&fixture("invalid")]);
    let plies: u64 = games.iter().map(|g| g["plies"].as_u64().unwrap()).sum();
    assert_eq!(invalid.len() as u64, plies);
}

#[test]
fn each_sides_last_clock_is_its_last_ply_clock() {
    // Game rows read only the last comments, at the game's end; ply rows read every comment as
    // it comes. They must agree.
    let mut inputs = vec![fixture("clocks")];
    if let Some(sample) = shared("corpora/samples/lichess_db_1000k.pgn") {
        inputs.push(sample.to_string_lossy().into_owned());
    }
    for input in &inputs {
        let games = export_rows(&[input]);
        let plies = export_rows(&[input, "--plies", "--fen"]);
        let mut last: BTreeMap<(u64, u64), Value> = BTreeMap::new();
        for ply in &plies {
            // The mover is the side not to move after the move (0 for White).
            let side = u64::from(ply["fen"].as_str().unwrap().contains(" w "));
            if !ply["clock"].is_null() {
                last.insert((ply["index"].as_u64().unwrap(), side), ply["clock"].clone());
            }
        }
        for game in &games {
            let index = game["index"].as_u64().unwrap();
            for (side, key) in [(0, "white_clock"), (1, "black_clock")] {
                let expected = last.get(&(index, side)).cloned().unwrap_or(Value::Null);
                assert_eq!(game[key], expected, "{input} game {index} {key}");
            }
        }
    }
}

#[test]
fn plies_agree_with_python_chess_on_the_lichess_sample() {
    let (Some(sample), Some(expected)) = (
        shared("corpora/samples/lichess_db_1000k.pgn"),
        shared("expected/lichess_plies.jsonl"),
    ) else {
        return;
    };
    let ours = export_rows(&[sample.to_str().unwrap(), "--plies", "--fen"]);
    let theirs = json_lines(&std::fs::read_to_string(expected).unwrap());
    assert_eq!(ours.len(), 28_538);
    assert_eq!(theirs.len(), ours.len());
    for (o, t) in ours.iter().zip(&theirs) {
        for key in ["game", "ply", "san", "uci", "fen", "eval_cp", "eval_mate"] {
            assert_eq!(o[key], t[key], "{key}: {o} / {t}");
        }
        for key in ["clock", "emt"] {
            assert_eq!(o[key].as_f64(), t[key].as_f64(), "{key}: {o} / {t}");
        }
    }
}

/// The rows of a Parquet file as JSON values, typed columns as JSON Lines writes them.
pub fn parquet_rows(path: &Path) -> Vec<Value> {
    let reader = SerializedFileReader::new(File::open(path).unwrap()).expect("a Parquet file");
    let rows = reader.get_row_iter(None).expect("rows");
    rows.map(|row| {
        let row = row.expect("a row");
        let object = row
            .get_column_iter()
            .map(|(name, field)| (name.clone(), field_value(field)))
            .collect::<serde_json::Map<_, _>>();
        Value::Object(object)
    })
    .collect()
}

fn field_value(field: &Field) -> Value {
    match field {
        Field::Null => Value::Null,
        Field::Bool(b) => json!(b),
        Field::Short(n) => json!(n),
        Field::Int(n) => json!(n),
        Field::Long(n) => json!(n),
        Field::UInt(n) => json!(n),
        Field::Double(x) if x.fract() == 0.0 => json!(*x as i64),
        Field::Double(x) => json!(x),
        Field::Str(s) => json!(s),
        Field::Date(days) => {
            let (y, m, d) = arbiter::report::date::Date32(*days).to_ymd();
            json!(format!("{y:04}-{m:02}-{d:02}"))
        }
        Field::TimeMillis(ms) => json!(time_of_day(i64::from(*ms))),
        Field::TimeMicros(us) => json!(time_of_day(us / 1000)),
        Field::TimestampMillis(ms) => {
            let (y, m, d) =
                arbiter::report::date::Date32(ms.div_euclid(86_400_000) as i32).to_ymd();
            let time = time_of_day(ms.rem_euclid(86_400_000));
            json!(format!("{y:04}-{m:02}-{d:02}T{time}Z"))
        }
        Field::ListInternal(list) => list.elements().iter().map(field_value).collect(),
        other => panic!("unexpected field {other:?}"),
    }
}

/// `HH:MM:SS` of milliseconds since midnight (whole seconds, as PGN tags give them).
fn time_of_day(ms: i64) -> String {
    let s = ms / 1000;
    format!("{:02}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
}

#[test]
fn parquet_holds_the_json_lines_rows_whatever_the_jobs() {
    let dir = tempfile::tempdir().unwrap();
    let mut inputs = vec![fixture("")];
    if let Some(sample) = shared("corpora/samples/lichess_db_1000k.pgn") {
        inputs.push(sample.to_string_lossy().into_owned());
    }
    for input in &inputs {
        for plies in [
            &[][..],
            &["--plies", "--fen", "--comments"][..],
            &["--movetext"][..],
            &["--columns", "lichess"][..],
        ] {
            let jsonl = export_rows(&[&[input.as_str()][..], plies].concat());
            let mut files = Vec::new();
            for jobs in ["1", "2"] {
                let path = dir.path().join(format!("out-{jobs}.parquet"));
                let out = arbiter(
                    &[
                        &["export", input, "-o", path.to_str().unwrap(), "-j", jobs][..],
                        plies,
                    ]
                    .concat(),
                );
                assert!(out.status.code().is_some_and(|c| c < 2), "{}", stderr(&out));
                files.push(std::fs::read(&path).unwrap());
                if jobs == "1" {
                    let rows = parquet_rows(&path);
                    assert_eq!(rows.len(), jsonl.len(), "{input} {plies:?}");
                    for (p, j) in rows.iter().zip(&jsonl) {
                        assert_eq!(p, j, "{input} {plies:?}");
                    }
                }
            }
            assert!(files[0] == files[1], "{input} {plies:?}: --jobs 2 differs");
        }
    }
}

#[test]
fn parquet_goes_whole_to_a_pipe() {
    let out = arbiter(&["export", &fixture("clocks"), "--format", "parquet"]);
    // Standard output is a pipe here: the file comes out whole.
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(&out.stdout[..4], b"PAR1");
    assert_eq!(&out.stdout[out.stdout.len() - 4..], b"PAR1");
}

#[test]
fn time_spent_follows_the_clocks_on_the_lichess_sample() {
    let Some(sample) = shared("corpora/samples/lichess_db_1000k.pgn") else {
        return;
    };
    let sample = sample.to_string_lossy().into_owned();
    let games = export_rows(&[sample.as_str()]);
    let increments: BTreeMap<i64, Option<f64>> = games
        .iter()
        .map(|g| {
            let index = g["index"].as_i64().unwrap();
            (index, g["increment_seconds"].as_f64())
        })
        .collect();
    let plies = export_rows(&[sample.as_str(), "--plies"]);
    // Each ply's clock, by game and ply, to look two plies back.
    let clocks: BTreeMap<(i64, i64), f64> = plies
        .iter()
        .filter_map(|p| {
            let key = (p["index"].as_i64()?, p["ply"].as_i64()?);
            Some((key, p["clock"].as_f64()?))
        })
        .collect();
    let (mut known, mut checked) = (0, 0);
    for p in &plies {
        assert!(p["emt"].is_null(), "lichess writes no %emt");
        let (index, ply) = (p["index"].as_i64().unwrap(), p["ply"].as_i64().unwrap());
        let expected = match (
            clocks.get(&(index, ply - 2)),
            p["clock"].as_f64(),
            increments[&index],
        ) {
            (Some(before), Some(after), Some(increment)) => {
                Some(before + increment - after).filter(|spent| *spent >= 0.0)
            }
            _ => None,
        };
        assert_eq!(p["time_spent"].as_f64(), expected, "{p}");
        known += usize::from(expected.is_some());
        checked += 1;
    }
    // Every ply but each side's first and the few where a clock rose (time given).
    assert!(
        checked > 28_000 && known * 100 > checked * 95,
        "{known} of {checked}"
    );
}

#[test]
fn ply_rows_name_the_mover_and_the_move_number() {
    let pgn = "[FEN \"7k/8/8/8/8/8/8/K6R b - - 10 40\"]\n[TimeControl \"60+1\"]\n\n\
               40... Kg7 {[%clk 0:00:50]} 41. Rg1+ {[%emt 0:00:07] [%clk 0:00:40]} \
               41... Kf7 {[%clk 0:00:45]} 42. Rf1+ {[%clk 0:00:38]} *\n";
    let out = arbiter_stdin(
        &["export", "--plies", "--format", "jsonl", "-"],
        pgn.as_bytes(),
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let rows = json_lines(&stdout(&out));
    let got: Vec<(i64, &str, Option<f64>)> = rows
        .iter()
        .map(|r| {
            (
                r["move_number"].as_i64().unwrap(),
                r["color"].as_str().unwrap(),
                r["time_spent"].as_f64(),
            )
        })
        .collect();
    // Black's second move: 50 + 1 - 45 = 6 s; White's first has an %emt of its own; White's
    // second: 40 + 1 - 38 = 3 s.
    assert_eq!(
        got,
        [
            (40, "black", None),
            (41, "white", Some(7.0)),
            (41, "black", Some(6.0)),
            (42, "white", Some(3.0)),
        ]
    );
}

#[test]
fn lichess_columns_have_the_datasets_types() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("lichess.parquet");
    let out = arbiter(&[
        "export",
        &fixture("clocks"),
        "--columns",
        "lichess",
        "-o",
        path.to_str().unwrap(),
    ]);
    assert!(out.status.code().is_some_and(|c| c < 2), "{}", stderr(&out));
    let logical = |name: &str| logical_type(&path, name);
    assert_eq!(
        logical("WhiteElo"),
        "INT32 Some(Integer(IntType { bit_width: 16, is_signed: true }))"
    );
    assert_eq!(
        logical("BlackRatingDiff"),
        "INT32 Some(Integer(IntType { bit_width: 16, is_signed: true }))"
    );
    assert_eq!(logical("UTCDate"), "INT32 Some(Date)");
    assert_eq!(
        logical("UTCTime"),
        "INT32 Some(Time(TimestampType { is_adjusted_to_u_t_c: true, unit: MILLIS }))"
    );
    assert_eq!(logical("movetext"), "BYTE_ARRAY Some(String)");
}

/// The physical and logical type of the column `name` of a Parquet file, as the parquet crate
/// prints them.
fn logical_type(path: &Path, name: &str) -> String {
    let reader = SerializedFileReader::new(File::open(path).unwrap()).unwrap();
    let schema = reader.metadata().file_metadata().schema_descr_ptr();
    let column = schema
        .columns()
        .iter()
        .find(|c| c.name() == name)
        .unwrap_or_else(|| panic!("no column {name}"));
    format!(
        "{:?} {:?}",
        column.physical_type(),
        column.logical_type_ref()
    )
}

#[test]
fn utc_time_is_the_time_of_day_spark_reads() {
    // Spark reads only a TIME in microseconds not marked as adjusted to UTC (it refuses
    // TIME(MILLIS, true) with PARQUET_TYPE_ILLEGAL); DuckDB and Polars read it as TIME too.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("games.parquet");
    let out = arbiter(&["export", &fixture("clocks"), "-o", path.to_str().unwrap()]);
    assert!(out.status.code().is_some_and(|c| c < 2), "{}", stderr(&out));
    assert_eq!(
        logical_type(&path, "utc_time"),
        "INT64 Some(Time(TimestampType { is_adjusted_to_u_t_c: false, unit: MICROS }))"
    );
    let reader = SerializedFileReader::new(File::open(&path).unwrap()).unwrap();
    let micros: Vec<i64> = reader
        .get_row_iter(None)
        .unwrap()
        .filter_map(|row| {
            let row = row.unwrap();
            row.get_column_iter()
                .find(|(name, _)| name.as_str() == "utc_time")
                .and_then(|(_, field)| match field {
                    Field::TimeMicros(us) => Some(*us),
                    _ => None,
                })
        })
        .collect();
    let texts: Vec<String> = export_rows(&[&fixture("clocks")])
        .iter()
        .filter_map(|row| row["utc_time"].as_str().map(str::to_owned))
        .collect();
    assert!(!texts.is_empty(), "the fixture has UTCTime tags");
    let from_parquet: Vec<String> = micros.iter().map(|us| time_of_day(us / 1000)).collect();
    assert_eq!(from_parquet, texts);
    assert!(micros.iter().all(|us| us % 1_000_000 == 0), "{micros:?}");
}
