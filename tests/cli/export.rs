//! `arbiter export`: every outcome category on both sides of each boundary, every game gets a
//! record, the formats agree, and the output is the same whatever the number of jobs.
//!
//! The fixtures carry their expectation in an `Expect` tag, worked out by hand and checked
//! against python-chess when they were written: `OUTCOME WINNER CONSISTENT` for a valid game,
//! `invalid ply=P` for a game broken at ply P (0: before any move).

use arbiter::Outcome;
use serde_json::{Value, json};

use crate::util::{arbiter, arbiter_stdin, fixture, json_lines, shared, stderr, stdout};

fn export_jsonl(args: &[&str]) -> Vec<Value> {
    let output = arbiter(args);
    assert!(
        output.status.code() == Some(0) || output.status.code() == Some(1),
        "{}",
        stderr(&output)
    );
    json_lines(&stdout(&output))
}

#[test]
fn every_outcome_category_matches_its_expectation() {
    let records = export_jsonl(&[
        "export",
        &fixture("outcomes"),
        "--format",
        "jsonl",
        "--tags",
        "Expect",
    ]);
    assert_eq!(records.len(), 53);
    let mut categories = std::collections::BTreeSet::new();
    for record in &records {
        let expect: Vec<&str> = record["Expect"].as_str().unwrap().split(' ').collect();
        let got = [
            record["outcome"].as_str().unwrap(),
            record["winner"].as_str().unwrap(),
            if record["result_consistent"].as_bool().unwrap() {
                "true"
            } else {
                "false"
            },
        ];
        assert_eq!(got.as_slice(), expect.as_slice(), "{}", record["event"]);
        assert_eq!(record["valid"], true, "{}", record["event"]);
        assert_eq!(record["error"], serde_json::Value::Null);
        categories.insert(got[0].to_owned());
    }
    // Every outcome but a dead position beyond material (tested with the replay) and an invalid
    // game (tested below).
    let wanted = Outcome::ALL
        .into_iter()
        .filter(|o| !matches!(o, Outcome::DeadPosition | Outcome::Invalid));
    for category in wanted.map(Outcome::as_str) {
        assert!(categories.contains(category), "no fixture for {category}");
    }
}

#[test]
fn invalid_games_are_exported_with_their_error() {
    let records = export_jsonl(&[
        "export",
        &fixture("invalid"),
        "--format",
        "jsonl",
        "--tags",
        "Expect",
    ]);
    assert_eq!(records.len(), 16);
    for record in &records {
        let event = &record["event"];
        let expect = record["Expect"].as_str().unwrap();
        let ply: u32 = expect.trim_start_matches("invalid ply=").parse().unwrap();
        assert_eq!(record["valid"], false, "{event}");
        assert_eq!(record["outcome"], "invalid", "{event}");
        let error = record["error"].as_str().unwrap();
        if ply == 0 {
            assert!(!error.contains("ply"), "{event}: {error}");
            assert_eq!(record["plies"], 0, "{event}");
        } else {
            assert!(error.contains(&format!("ply {ply} ")), "{event}: {error}");
            assert_eq!(record["plies"], ply - 1, "{event}");
        }
        assert!(!record["final_fen"].as_str().unwrap().is_empty() || ply == 0);
    }
}

#[test]
fn fields_come_in_design_order() {
    let output = arbiter(&["export", &fixture("outcomes"), "--format", "csv"]);
    let text = stdout(&output);
    assert_eq!(
        text.lines().next().unwrap(),
        "index,file,game,event,site,date,round,white,black,result,plies,outcome,winner,\
         result_consistent,final_fen,valid,error,end_ply,white_elo,black_elo,eco,opening,\
         termination,time_control,base_seconds,increment_seconds,speed,played_on,year,month,utc_time,\
         white_clock,black_clock,white_title,black_title,white_rating_diff,black_rating_diff,\
         utc_timestamp,offset,white_can_mate,black_can_mate"
    );
    assert_eq!(
        text.lines().nth(1).unwrap(),
        format!(
            "1,{},1,fools mate,arbiter fixtures,2026.11.29,1,White,Black,0-1,4,checkmate,black,\
             true,rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3,true,,,,,,,,,,,,\
             2026-11-29,2026,11,,,,,,,,,0,false,true",
            fixture("outcomes/outcomes.pgn")
        )
    );
}

#[test]
fn csv_json_and_jsonl_agree() {
    let dir = fixture("");
    let jsonl = export_jsonl(&["export", &dir, "--format", "jsonl", "--tags", "Expect"]);
    let json: Value = serde_json::from_str(&stdout(&arbiter(&[
        "export", &dir, "--format", "json", "--tags", "Expect",
    ])))
    .unwrap();
    assert_eq!(json.as_array().unwrap(), &jsonl);

    let csv_text = stdout(&arbiter(&[
        "export", &dir, "--format", "csv", "--tags", "Expect",
    ]));
    let mut reader = csv::Reader::from_reader(csv_text.as_bytes());
    let headers = reader.headers().unwrap().clone();
    let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    assert_eq!(rows.len(), jsonl.len());
    for (row, record) in rows.iter().zip(&jsonl) {
        for (name, value) in headers.iter().zip(row.iter()) {
            let expected = match &record[name] {
                Value::String(s) => s.clone(),
                Value::Null => String::new(),
                other => other.to_string(),
            };
            assert_eq!(value, expected, "field {name} of game {}", record["index"]);
        }
    }
}

#[test]
fn output_file_is_written_whole_and_devices_in_place() {
    let dir = std::env::temp_dir().join(format!("arbiter-export-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let target = dir.join("out.csv");
    let output = arbiter(&[
        "export",
        &fixture("outcomes"),
        "--format",
        "csv",
        "-o",
        target.to_str().unwrap(),
    ]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(output.stdout.is_empty());
    assert_eq!(
        std::fs::read_to_string(&target).unwrap().lines().count(),
        54
    );
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1);
    std::fs::remove_dir_all(&dir).unwrap();

    let output = arbiter(&[
        "export",
        &fixture("outcomes"),
        "--format",
        "csv",
        "-o",
        "/dev/null",
    ]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
}

#[test]
fn a_closed_pipe_ends_quietly() {
    let game = std::fs::read(fixture("outcomes/outcomes.pgn")).unwrap();
    let input = game.repeat(400);
    let mut child = crate::util::command()
        .args(["export", "--format", "jsonl", "--jobs", "2"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        use std::io::Write;
        let _ = stdin.write_all(&input);
    });
    let mut stdout = child.stdout.take().unwrap();
    let mut first = [0u8; 100];
    std::io::Read::read_exact(&mut stdout, &mut first).unwrap();
    drop(stdout);
    let output = child.wait_with_output().unwrap();
    let _ = writer.join();
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(output.stderr.is_empty(), "{}", stderr(&output));
}

#[test]
fn stdin_is_read_without_a_path() {
    let game = b"[Event \"x\"]\n[Result \"1-0\"]\n\n1. e4 e5 1-0\n";
    let output = arbiter_stdin(&["export", "--format", "jsonl"], game);
    let records = json_lines(&stdout(&output));
    assert_eq!(records.len(), 1);
    assert_eq!(records[0]["outcome"], "resignation");
    assert_eq!(records[0]["plies"], 2);
}

#[test]
fn year_and_month_come_from_a_date_known_in_part() {
    // See: issue 43, point 8.
    let games: String = [
        ("1990.??.??", ""),
        ("1990.05.??", ""),
        ("????.??.??", ""),
        ("1991.07.12", ""),
        ("????.??.??", "2024.03.??"),
        ("1990.01.01", "2024.02.29"),
    ]
    .iter()
    .map(|(date, utc)| {
        let utc = if utc.is_empty() {
            String::new()
        } else {
            format!("[UTCDate \"{utc}\"]\n")
        };
        format!("[Date \"{date}\"]\n{utc}[Result \"*\"]\n\n1. e4 *\n\n")
    })
    .collect();
    let rows = json_lines(&stdout(&arbiter_stdin(
        &["export", "--format", "jsonl"],
        games.as_bytes(),
    )));
    let got: Vec<(Value, Value, Value)> = (rows.iter())
        .map(|r| {
            (
                r["year"].clone(),
                r["month"].clone(),
                r["played_on"].clone(),
            )
        })
        .collect();
    let null = Value::Null;
    assert_eq!(
        got,
        [
            (json!(1990), null.clone(), null.clone()),
            (json!(1990), json!(5), null.clone()),
            (null.clone(), null.clone(), null.clone()),
            (json!(1991), json!(7), json!("1991-07-12")),
            (json!(2024), json!(3), null.clone()),
            (json!(2024), json!(2), json!("2024-02-29")),
        ]
    );
    // Usable in --where, a missing year failing every comparison.
    let kept = |expr: &str| -> Vec<u64> {
        let out = arbiter_stdin(
            &["export", "--format", "jsonl", "--where", expr],
            games.as_bytes(),
        );
        assert_eq!(out.status.code(), Some(0), "{expr}: {}", stderr(&out));
        (json_lines(&stdout(&out)).iter())
            .map(|r| r["game"].as_u64().unwrap())
            .collect()
    };
    assert_eq!(kept("year < 2000"), [1, 2, 4]);
    assert_eq!(kept("year == 1990 and month == null"), [1]);
    assert_eq!(kept("month >= 5"), [2, 4]);
}

// See: issue 43, point 7.
#[test]
fn ply_rows_of_the_games_a_filter_keeps_with_the_games_columns() {
    let (outcomes, endings) = (fixture("outcomes"), fixture("endings"));
    let input = [outcomes.as_str(), endings.as_str()];
    let start = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq -";
    for (filter, jobs) in [
        (&["--where", "plies >= 6 and winner == \"white\""][..], "2"),
        (&["--position", start][..], "1"),
        (
            &["--where", "eco_computed ~ \"^C\"", "--position", start][..],
            "2",
        ),
    ] {
        let run = |options: &[&str]| {
            let args = [
                &["export"][..],
                &input,
                &["--format", "jsonl", "-j", jobs],
                options,
            ];
            export_jsonl(&args.concat())
        };
        let games = run(&[&["--eco"][..], filter].concat());
        let plies = run(&[&["--plies", "--eco"][..], filter].concat());
        let all = run(&["--plies"]);
        assert!(
            !games.is_empty() && games.len() < 60,
            "{filter:?}: {} games",
            games.len()
        );
        // Exactly the ply rows of the games kept, in order, with each game's columns.
        let kept: Vec<&Value> = (all.iter())
            .filter(|ply| games.iter().any(|g| g["index"] == ply["index"]))
            .collect();
        assert_eq!(plies.len(), kept.len(), "{filter:?}");
        for (ply, plain) in plies.iter().zip(kept) {
            let game = games.iter().find(|g| g["index"] == ply["index"]).unwrap();
            for field in ["index", "game", "ply", "san", "uci", "offset"] {
                assert_eq!(ply[field], plain[field], "{filter:?} {field}");
            }
            for field in ["eco_computed", "opening_computed", "position_ply"] {
                assert_eq!(ply.get(field), game.get(field), "{filter:?} {field}");
            }
        }
    }
    // The main line is a ply row's own: no movetext column.
    let out = arbiter(&["export", &outcomes, "--plies", "--movetext"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        "arbiter: error: --movetext applies to game rows: ply rows (plies) hold the main line \
         one move a row, in their san and uci columns\n"
    );
}

#[test]
fn exit_codes_follow_validity() {
    assert_eq!(
        arbiter(&["export", &fixture("outcomes"), "--format", "csv"])
            .status
            .code(),
        Some(0)
    );
    assert_eq!(
        arbiter(&["export", &fixture("invalid"), "--format", "csv"])
            .status
            .code(),
        Some(1)
    );
    let missing = arbiter(&["export", "/nonexistent/games.pgn", "--format", "csv"]);
    assert_eq!(missing.status.code(), Some(2));
    assert!(stderr(&missing).contains("/nonexistent/games.pgn"));
}

#[test]
fn jobs_do_not_change_the_output() {
    let Some(corpus) = shared("corpora/pgnmentor-players") else {
        return;
    };
    let corpus = corpus.to_str().unwrap();
    let one = arbiter(&["export", corpus, "--format", "jsonl", "--jobs", "1"]);
    let two = arbiter(&["export", corpus, "--format", "jsonl", "--jobs", "2"]);
    let three = arbiter(&["export", corpus, "--format", "csv", "--jobs", "3"]);
    assert_eq!(one.status.code(), Some(0), "{}", stderr(&one));
    assert!(
        one.stdout == two.stdout,
        "--jobs 2 output differs from --jobs 1"
    );
    assert_eq!(stdout(&one).lines().count(), 13_163);
    assert_eq!(stdout(&three).lines().count(), 13_164);
}

#[test]
fn jobs_do_not_change_the_output_of_annotated_crlf_and_damaged_files() {
    // With one job every input is read in order, with more in parts (one per small file): these
    // files hold CRLF lines, long comments, variations and every kind of damage.
    let dirs = ["corpora/samples", "corpora/annotated", "edge"];
    let Some(dirs) = dirs.iter().map(|d| shared(d)).collect::<Option<Vec<_>>>() else {
        return;
    };
    let mut args = vec!["export", "--format", "jsonl", "--jobs"];
    args.extend(dirs.iter().map(|d| d.to_str().unwrap()));
    args.insert(4, "1");
    let one = arbiter(&args);
    args[4] = "2";
    let two = arbiter(&args);
    assert!(!one.stdout.is_empty(), "{}", stderr(&one));
    assert!(
        one.stdout == two.stdout,
        "--jobs 2 output differs from --jobs 1"
    );
    assert_eq!(stderr(&one), stderr(&two));
}
