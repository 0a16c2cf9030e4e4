//! `arbiter select`: the round trip (what select writes reads back as the same games, and a
//! second select writes it byte for byte), `--where` and its errors, `--position`, `--dedup`,
//! `--eco` against lichess's own tags, `--fix-result`, the files of rejected games and
//! duplicates, the summary and the exit status; and `export --where`, `--position` and the
//! computed opening columns.
// See: issue 27.

use std::path::Path;

use serde_json::Value;

use crate::util::{arbiter, arbiter_stdin, fixture, json_lines, shared, stderr, stdout};

/// The fixtures every round trip is checked on.
const FIXTURES: [&str; 5] = ["outcomes", "invalid", "warnings", "endings", "clocks"];

/// Runs arbiter, expecting status `code`.
fn run(args: &[&str], code: i32) -> std::process::Output {
    let output = arbiter(args);
    assert_eq!(
        output.status.code(),
        Some(code),
        "arbiter {args:?}\n{}",
        stderr(&output)
    );
    output
}

/// The export records of `path` as JSON, without the fields a rewrite may change: `file`, the
/// `error`'s line and column, and the roster tags a game lacked (written `?`, `????.??.??`).
fn records(path: &str) -> Vec<Value> {
    let output = arbiter(&["export", path, "--format", "jsonl", "--jobs", "1", "-q"]);
    let mut records = json_lines(&stdout(&output));
    for record in &mut records {
        let object = record.as_object_mut().unwrap();
        object.remove("file");
        // Where each game stands: the rewritten games are laid out anew.
        object.remove("offset");
        // `LINE:COL: message`, which may quote other places: they move when the games before
        // are rewritten.
        let error = object["error"].as_str().unwrap_or_default();
        let message = without_places(error.splitn(3, ':').nth(2).unwrap_or_default());
        object.insert("error".into(), message.into());
        for (field, missing) in [
            ("event", "?"),
            ("site", "?"),
            ("date", "????.??.??"),
            ("round", "?"),
            ("white", "?"),
            ("black", "?"),
        ] {
            if object[field] == missing {
                object.insert(field.into(), "".into());
            }
        }
    }
    records
}

/// `text` with every `LINE:COL` written `L:C`.
fn without_places(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(at) = rest.find(|c: char| c.is_ascii_digit()) {
        out.push_str(&rest[..at]);
        let digits = rest[at..].find(|c: char| !c.is_ascii_digit() && c != ':');
        let end = at + digits.unwrap_or(rest.len() - at);
        let number = &rest[at..end];
        let place = number.contains(':') || out.ends_with("line ");
        out.push_str(if place { "L:C" } else { number });
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}

/// Checks the round trip of `input`: select's output has the same export records, and
/// selecting it again gives the same bytes. Returns the output.
fn round_trip(input: &str, dir: &Path) -> Vec<u8> {
    let first = dir.join("first.pgn");
    let second = dir.join("second.pgn");
    let first_name = first.to_str().unwrap();
    let output = arbiter(&["select", input, "-o", first_name, "-q"]);
    assert!(
        matches!(output.status.code(), Some(0 | 1)),
        "{input}: {}",
        stderr(&output)
    );
    let (before, after) = (records(input), records(first_name));
    assert_eq!(before.len(), after.len(), "{input}: games");
    for (i, (a, b)) in before.iter().zip(&after).enumerate() {
        assert_eq!(a, b, "{input}: game {}", i + 1);
    }
    run(
        &["select", first_name, "-o", second.to_str().unwrap(), "-q"],
        output.status.code().unwrap(),
    );
    let (a, b) = (
        std::fs::read(&first).unwrap(),
        std::fs::read(&second).unwrap(),
    );
    assert!(a == b, "{input}: a second select writes other bytes");
    a
}

#[test]
fn the_fixtures_round_trip() {
    let dir = tempfile::tempdir().unwrap();
    for name in FIXTURES {
        round_trip(&fixture(name), dir.path());
    }
}

#[test]
fn the_shared_corpora_round_trip() {
    let dir = tempfile::tempdir().unwrap();
    for corpus in [
        "corpora/samples",
        "corpora/annotated",
        "corpora/tcec",
        "corpora/pgnmentor-players",
        "edge",
    ] {
        let Some(path) = shared(corpus) else {
            return;
        };
        for entry in walk(&path) {
            round_trip(entry.to_str().unwrap(), dir.path());
        }
    }
}

/// The PGN files under `dir` that arbiter reads as PGN (not the e-mails of the edge files).
fn walk(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut files = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(at) = todo.pop() {
        for entry in std::fs::read_dir(&at).unwrap() {
            let path = entry.unwrap().path();
            let name = path.to_string_lossy().into_owned();
            if path.is_dir() {
                todo.push(path);
            } else if (name.ends_with(".pgn") || name.ends_with(".pgn.zst"))
                && arbiter(&["export", &name, "-q", "-o", "/dev/null"])
                    .status
                    .code()
                    != Some(2)
            {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

#[test]
fn the_pgn_written_is_clean() {
    let pgn = "[White \"A\"]\n[Black \"B\"]\n[Event \"E\"]\n[Annotator \"x\"]\n[Result \"1-0\"]\n\n\
               1. e2e4 {  the  king's\n pawn } e5 2. Ng1f3 $1 (2. Bc4 Nf6 3. d3) Nc6 3. Bb5 a6 \
               4. Bxc6 dxc6 5. 0-0 f6 6. d4 exd4 7. Nxd4 c5 8. Nb3 Qxd1 9. Rxd1 Bg4 10. f3 Be6 \
               11. Nc3 Bd6 12. Be3 b6 13. a4 O-O-O 14. a5 Kb7 15. axb6 cxb6 16. Nb5 Bc4 1-0\n";
    let output = arbiter_stdin(&["select", "-q"], pgn.as_bytes());
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(
        stdout(&output),
        "[Event \"E\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n[White \"A\"]\n\
         [Black \"B\"]\n[Result \"1-0\"]\n[Annotator \"x\"]\n\n\
         1. e4 { the king's pawn } 1... e5 2. Nf3 $1 ( 2. Bc4 Nf6 3. d3 ) 2... Nc6 3. Bb5\n\
         a6 4. Bxc6 dxc6 5. O-O f6 6. d4 exd4 7. Nxd4 c5 8. Nb3 Qxd1 9. Rxd1 Bg4 10. f3\n\
         Be6 11. Nc3 Bd6 12. Be3 b6 13. a4 O-O-O 14. a5 Kb7 15. axb6 cxb6 16. Nb5 Bc4 1-0\n\n"
    );
}

#[test]
fn where_keeps_the_games_that_pass_and_rejects_the_others_unchanged() {
    let dir = tempfile::tempdir().unwrap();
    let rejected = dir.path().join("rejected.pgn");
    let input = fixture("outcomes");
    let output = run(
        &[
            "select",
            &input,
            "--where",
            "outcome in [\"checkmate\", \"stalemate\"] and result_consistent",
            "--rejected",
            rejected.to_str().unwrap(),
        ],
        0,
    );
    let kept = stdout(&output);
    let expected: Vec<Value> = records(&input)
        .into_iter()
        .filter(|r| {
            ["checkmate", "stalemate"].contains(&r["outcome"].as_str().unwrap())
                && r["result_consistent"] == true
        })
        .collect();
    assert!(!expected.is_empty());
    assert_eq!(kept.matches("[Event ").count(), expected.len());
    let summary = stderr(&output);
    assert!(
        summary.starts_with(&format!(
            "arbiter: 53 games read, {} written, {} rejected, 0 duplicates, 0 invalid in ",
            expected.len(),
            53 - expected.len()
        )),
        "{summary}"
    );
    // The rejected games are the others, each as it was in the input.
    let rejected = std::fs::read_to_string(&rejected).unwrap();
    assert_eq!(rejected.matches("[Event ").count(), 53 - expected.len());
    let source = std::fs::read_to_string(Path::new(&input).join("outcomes.pgn")).unwrap();
    let first_rejected = rejected.split("\n\n[Event").next().unwrap();
    assert!(
        source.contains(first_rejected.trim_end()),
        "{first_rejected}"
    );
}

#[test]
fn a_where_mistake_is_a_usage_error_naming_its_column() {
    let output = run(
        &[
            "select",
            &fixture("outcomes"),
            "--where",
            "white_elo >= \"2500\"",
        ],
        2,
    );
    assert_eq!(
        stderr(&output),
        "arbiter: error: --where: column 14: white_elo is a number, but \"2500\" is text\n  \
         white_elo >= \"2500\"\n               ^\n"
    );
    assert!(output.stdout.is_empty());
    let output = run(&["export", &fixture("outcomes"), "--where", "plies >"], 2);
    assert!(stderr(&output).contains("column 8: expected a field or a value"));
}

#[test]
fn where_reads_the_last_clocks_as_export_writes_them() {
    // The clocks of a game whose comments select keeps (for the PGN it writes) are read as
    // export reads them: the last `[%clk]` of each side.
    let input = fixture("clocks");
    let records = records(&input);
    let mut clocks: Vec<f64> = records
        .iter()
        .filter_map(|r| r["white_clock"].as_f64())
        .collect();
    clocks.sort_by(f64::total_cmp);
    assert!(clocks.len() >= 2, "{clocks:?}");
    let middle = clocks[clocks.len() / 2];
    for (expr, wanted) in [
        (
            format!("white_clock >= {middle}"),
            records
                .iter()
                .filter(|r| r["white_clock"].as_f64().is_some_and(|c| c >= middle))
                .count(),
        ),
        (
            "black_clock == null".to_owned(),
            records
                .iter()
                .filter(|r| r["black_clock"].is_null())
                .count(),
        ),
    ] {
        let output = arbiter(&["select", &input, "--where", &expr, "-q"]);
        assert!(output.status.code() == Some(0) || output.status.code() == Some(1));
        let kept = stdout(&output).matches("[Event ").count();
        assert_eq!(kept, wanted, "{expr}");
    }
}

#[test]
fn where_reads_any_tag_and_numbers_in_input_order() {
    let input = fixture("outcomes");
    let output = run(
        &[
            "select",
            &input,
            "--where",
            "tag(\"Expect\") ~ \"^stalemate\" or index == 1",
            "--jobs",
            "2",
            "-q",
        ],
        0,
    );
    let text = stdout(&output);
    let wanted = records(&input)
        .iter()
        .filter(|r| r["outcome"] == "stalemate" || r["index"] == 1)
        .count();
    assert_eq!(text.matches("[Event ").count(), wanted);
    assert!(text.contains("[Event \"fools mate\"]"));
}

#[test]
fn dedup_keeps_the_first_game_of_each_main_line() {
    let game = |white: &str, moves: &str| {
        format!("[White \"{white}\"]\n[Black \"B\"]\n[Result \"*\"]\n\n{moves} *\n\n")
    };
    let input = [
        game("A", "1. e4 e5 2. Nf3"),
        game("A", "1. e4 {other comment} e5 (1... c5) 2. Ng1f3"),
        game("C", "1. e4 e5 2. Nf3"),
        game("A", "1. e4 e5"),
        "[White \"A\"]\n[FEN \"4k3/8/8/8/8/8/8/4K2R w K - 0 1\"]\n\n1. O-O *\n\n".to_owned(),
    ]
    .concat();
    let dir = tempfile::tempdir().unwrap();
    let dups = dir.path().join("dups.pgn");
    let output = arbiter_stdin(
        &[
            "select",
            "--dedup",
            "moves",
            "--duplicates",
            dups.to_str().unwrap(),
        ],
        input.as_bytes(),
    );
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(stdout(&output).matches("[Event ").count(), 3);
    assert!(stderr(&output).contains("3 written, 0 rejected, 2 duplicates"));
    let dups = std::fs::read_to_string(&dups).unwrap();
    assert_eq!(
        dups,
        [
            game("A", "1. e4 {other comment} e5 (1... c5) 2. Ng1f3"),
            game("C", "1. e4 e5 2. Nf3")
        ]
        .concat()
    );
    // By game, White counts too.
    let output = arbiter_stdin(&["select", "--dedup", "game", "-q"], input.as_bytes());
    assert_eq!(stdout(&output).matches("[Event ").count(), 4);
}

#[test]
fn eco_agrees_with_lichess_by_the_rule() {
    let Some(sample) = shared("corpora/samples/lichess_db_1000k.pgn") else {
        return;
    };
    let sample = sample.to_str().unwrap();
    let records = json_lines(&stdout(&run(
        &["export", sample, "--eco", "--format", "jsonl", "-q"],
        0,
    )));
    assert_eq!(records.len(), 438);
    // Where the table names no position, lichess writes `?`.
    let tag = |r: &Value, field: &str| r[field].as_str().unwrap_or("?").to_owned();
    let differ = |computed: &str, own: &str| -> Vec<u64> {
        records
            .iter()
            .filter(|r| tag(r, computed) != tag(r, own))
            .map(|r| r["index"].as_u64().unwrap())
            .collect()
    };
    // The games where python-chess with the same table and rule disagrees with lichess too:
    // names the table changed since the games were played.
    assert_eq!(differ("eco_computed", "eco"), [21, 198]);
    assert_eq!(
        differ("opening_computed", "opening"),
        [21, 38, 82, 86, 103, 107, 110, 198, 283, 287, 363]
    );
    // select --eco writes the same tags (a game the table names nothing of keeps its own, `?`).
    let selected = stdout(&run(&["select", sample, "--eco", "-q"], 0));
    let written: Vec<&str> = selected
        .lines()
        .filter_map(|l| l.strip_prefix("[ECO \""))
        .collect();
    let computed: Vec<String> = records
        .iter()
        .map(|r| format!("{}\"]", r["eco_computed"].as_str().unwrap_or("?")))
        .collect();
    assert_eq!(written, computed);
}

#[test]
fn position_finds_the_games_that_reach_it_by_any_move_order() {
    let pgn = "[Event \"a\"]\n\n1. e4 e5 2. Nf3 Nc6 *\n\n\
               [Event \"b\"]\n\n1. Nf3 Nc6 2. e4 e5 3. Bb5 *\n\n\
               [Event \"c\"]\n\n1. e4 e5 2. Nc3 *\n\n";
    let fen = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq -";
    let output = arbiter_stdin(&["select", "--position", fen, "-q"], pgn.as_bytes());
    let text = stdout(&output);
    assert!(text.contains("[Event \"a\"]") && text.contains("[Event \"b\"]"));
    assert!(!text.contains("[Event \"c\"]"));
    let output = arbiter_stdin(
        &["export", "--position", fen, "--format", "jsonl", "-q"],
        pgn.as_bytes(),
    );
    let rows = json_lines(&stdout(&output));
    let plies: Vec<(&str, u64)> = rows
        .iter()
        .map(|r| {
            (
                r["event"].as_str().unwrap(),
                r["position_ply"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(plies, [("a", 4), ("b", 4)]);
    // The start position is ply 0; a FEN that is no position is a usage error.
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let output = arbiter_stdin(&["select", "--position", start, "-q"], pgn.as_bytes());
    assert_eq!(stdout(&output).matches("[Event").count(), 3);
    let output = arbiter_stdin(&["select", "--position", "8/8/8 w - -"], pgn.as_bytes());
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("--position \"8/8/8 w - -\": invalid fen"));
}

#[test]
fn fix_result_sets_what_the_board_decides_and_nothing_else() {
    let pgn = "[Event \"mate\"]\n[Result \"1-0\"]\n\n1. f3 e5 2. g4 Qh4# 1-0\n\n\
               [Event \"resigned\"]\n[Result \"0-1\"]\n\n1. e4 e5 0-1\n\n\
               [Event \"unfinished mate\"]\n[Result \"*\"]\n\n1. f3 e5 2. g4 Qh4# *\n\n";
    let output = arbiter_stdin(&["select", "--fix-result"], pgn.as_bytes());
    assert_eq!(output.status.code(), Some(0));
    let text = stdout(&output);
    let games: Vec<&str> = text.split("\n\n[Event").collect();
    assert!(games[0].contains("[Result \"0-1\"]") && games[0].ends_with("Qh4# 0-1"));
    assert!(games[1].contains("[Result \"0-1\"]") && games[1].ends_with("1. e4 e5 0-1"));
    assert!(games[2].contains("[Result \"0-1\"]"), "{}", games[2]);
    let warnings = stderr(&output);
    assert!(
        warnings.contains(
            "arbiter: <stdin>:2:1: game 1: warning: Result \"1-0\" replaced by \"0-1\": the board \
             shows checkmate"
        ),
        "{warnings}"
    );
    assert!(warnings.contains("<stdin>:12:1: game 3: warning: Result \"*\" replaced by \"0-1\""));
    assert!(warnings.contains("(2 results fixed)"), "{warnings}");
    // Without --fix-result nothing changes.
    let output = arbiter_stdin(&["select", "-q"], pgn.as_bytes());
    assert!(stdout(&output).starts_with("[Event \"mate\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n[White \"?\"]\n[Black \"?\"]\n[Result \"1-0\"]"));
}

#[test]
fn invalid_games_are_written_unchanged_and_the_status_says_so() {
    let input = fixture("invalid");
    let source = std::fs::read_to_string(Path::new(&input).join("invalid.pgn")).unwrap();
    let output = run(&["select", &input], 1);
    let text = stdout(&output);
    for game in text.split("\n\n\n") {
        let game = game.trim();
        if !game.is_empty() {
            assert!(source.contains(game.lines().next().unwrap()));
        }
    }
    assert!(
        stderr(&output).contains("16 written (16 unchanged), 0 rejected, 0 duplicates, 16 invalid")
    );
    let output = run(&["select", &input, "--where", "valid", "-q"], 1);
    assert!(output.stdout.is_empty());
}

#[test]
fn comments_variations_and_nags_can_be_left_out() {
    let pgn = "[Event \"x\"]\n\n1. e4 { [%eval 0.2] [%clk 0:03:00] good } $1 (1. d4 {q}) 1... e5 \
               { [%clk 0:02:59] } *\n\n";
    let output = arbiter_stdin(
        &[
            "select",
            "--no-comments",
            "--keep-commands",
            "--no-variations",
            "--no-nags",
            "-q",
        ],
        pgn.as_bytes(),
    );
    let text = stdout(&output);
    assert!(
        text.ends_with("\n\n1. e4 { [%eval 0.2] [%clk 0:03:00] } 1... e5 { [%clk 0:02:59] } *\n\n"),
        "{text}"
    );
    let output = arbiter_stdin(&["select", "--no-comments", "-q"], pgn.as_bytes());
    assert!(stdout(&output).ends_with("\n\n1. e4 $1 ( 1. d4 ) 1... e5 *\n\n"));
    let output = arbiter(&["select", "--keep-commands"]);
    assert_eq!(output.status.code(), Some(2));
}

#[test]
fn outputs_may_be_no_input_and_none_another() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("games.pgn");
    std::fs::write(&input, "[Event \"x\"]\n\n1. e4 *\n").unwrap();
    let input = input.to_str().unwrap();
    let output = run(&["select", input, "-o", input], 2);
    assert!(
        stderr(&output).contains("is also an input"),
        "{}",
        stderr(&output)
    );
    let out = dir.path().join("out.pgn");
    let out = out.to_str().unwrap();
    let output = run(&["select", input, "-o", out, "--rejected", out], 2);
    assert!(stderr(&output).contains("-o and --rejected are the same file"));
    assert!(!Path::new(out).exists());
    let output = run(&["select", input, "--rejected", input], 2);
    assert!(stderr(&output).contains("is also an input"));
    assert_eq!(
        std::fs::read_to_string(input).unwrap(),
        "[Event \"x\"]\n\n1. e4 *\n"
    );
}

#[test]
fn one_job_and_two_write_the_same() {
    let Some(corpus) = shared("corpora/samples") else {
        return;
    };
    let corpus = corpus.to_str().unwrap();
    let args = |jobs| {
        vec![
            "select",
            corpus,
            "--where",
            "plies > 40",
            "--dedup",
            "game",
            "--eco",
            "--fix-result",
            "-q",
            "--jobs",
            jobs,
        ]
    };
    let one = arbiter(&args("1"));
    let two = arbiter(&args("2"));
    assert_eq!(one.status.code(), Some(0));
    assert!(one.stdout == two.stdout);
    assert!(!one.stdout.is_empty());
}

#[test]
fn export_where_keeps_the_numbers_of_the_games_that_pass() {
    let rows = json_lines(&stdout(&run(
        &[
            "export",
            &fixture("outcomes"),
            "--where",
            "outcome == \"stalemate\"",
            "--format",
            "jsonl",
        ],
        0,
    )));
    let all = records(&fixture("outcomes"));
    let indexes: Vec<&Value> = all
        .iter()
        .filter(|r| r["outcome"] == "stalemate")
        .map(|r| &r["index"])
        .collect();
    assert!(!indexes.is_empty());
    assert_eq!(
        rows.iter().map(|r| &r["index"]).collect::<Vec<_>>(),
        indexes
    );
}

#[test]
fn export_tests_keep_the_columns_asked_for() {
    // `--where` and `--position` pick the games; `--movetext` and `--columns lichess` still say
    // which columns their rows have, `position_ply` after `movetext`.
    let pgn = "[Event \"a\"]\n\n1. e4 e5 2. Nf3 Nc6 *\n\n\
               [Event \"b\"]\n\n1. Nf3 Nc6 2. e4 e5 3. Bb5 *\n\n\
               [Event \"c\"]\n\n1. e4 e5 2. Nc3 *\n\n";
    let fen = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq -";
    let test = ["--position", fen, "--where", "plies > 4"];
    let output = arbiter_stdin(
        &[&["export", "--eco", "--movetext", "-q"][..], &test].concat(),
        pgn.as_bytes(),
    );
    let text = stdout(&output);
    let header = text.lines().next().unwrap();
    assert!(
        header.ends_with(",black_can_mate,eco_computed,opening_computed,movetext,position_ply"),
        "{header}"
    );
    let output = arbiter_stdin(
        &[
            &["export", "--movetext", "--format", "jsonl", "-q"][..],
            &test,
        ]
        .concat(),
        pgn.as_bytes(),
    );
    let rows = json_lines(&stdout(&output));
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0]["event"], "b");
    assert_eq!(rows[0]["movetext"], "1. Nf3 Nc6 2. e4 e5 3. Bb5");
    assert_eq!(rows[0]["position_ply"], 4);
    let output = arbiter_stdin(
        &[
            &["export", "--columns", "lichess", "--format", "jsonl", "-q"][..],
            &test,
        ]
        .concat(),
        pgn.as_bytes(),
    );
    let rows = json_lines(&stdout(&output));
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0]["Event"], "b");
    assert_eq!(rows[0]["movetext"], "1. Nf3 Nc6 2. e4 e5 3. Bb5");
    assert_eq!(rows[0]["position_ply"], 4);
}

#[test]
fn export_names_openings_when_asked() {
    // Without --eco the rows have no opening columns, but --where may still read them.
    let header = |args: &[&str]| {
        let output = run(&[&["export", &fixture("outcomes")][..], args].concat(), 0);
        stdout(&output).lines().next().unwrap().to_owned()
    };
    assert!(header(&[]).ends_with(",offset,white_can_mate,black_can_mate"));
    assert!(header(&["--eco"]).ends_with(",black_can_mate,eco_computed,opening_computed"));
    let rows = json_lines(&stdout(&run(
        &[
            "export",
            &fixture("outcomes"),
            "--where",
            "eco_computed == \"A00\" and opening_computed ~ \"Fool's Mate\"",
            "--format",
            "jsonl",
        ],
        0,
    )));
    assert!(!rows.is_empty());
    assert!(rows.iter().all(|r| r.get("eco_computed").is_none()));
    assert!(rows.iter().any(|r| r["event"] == "fools mate"));
    let output = arbiter(&[
        "export",
        &fixture("outcomes"),
        "--eco",
        "--columns",
        "lichess",
    ]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("--eco adds arbiter's opening columns"));
}

/// A `--where` chain of 10,000 terms (100 KB of text) is read and tested on worker threads
/// (`--jobs 2`, an input of several parts): before, each `and` nested the tree a level deeper,
/// and testing it overflowed a worker's stack (abort, status 134). See: issue 38, point 6.
#[test]
fn a_long_where_chain_runs_on_every_job() {
    let dir = tempfile::tempdir().unwrap();
    let games = std::fs::read_to_string(fixture("outcomes/outcomes.pgn"))
        .unwrap()
        .repeat(60);
    let input = dir.path().join("games.pgn");
    std::fs::write(&input, &games).unwrap();
    let input = input.to_str().unwrap();
    let chain = vec!["valid"; 10_000].join(" and ");
    for command in ["select", "export"] {
        let output = run(&[command, input, "--where", &chain, "--jobs", "2", "-q"], 0);
        let records = stdout(&output);
        let found = match command {
            "select" => records.matches("[Event ").count(),
            _ => records.lines().count() - 1,
        };
        assert_eq!(found, 60 * 53, "{command}");
    }
}

// See: issue 40, point 5: a flag fall the winner cannot win is a draw, and --fix-result writes
// it; one the winner can still win stands.
#[test]
fn fix_result_draws_a_flag_fall_the_winner_cannot_win() {
    let game = |event: &str, fen: &str, moves: &str| {
        format!(
            "[Event \"{event}\"]\n[Result \"1-0\"]\n[SetUp \"1\"]\n[FEN \"{fen}\"]\n\
             [Termination \"Time forfeit\"]\n\n{moves} 1-0\n\n"
        )
    };
    let pgn = [
        // White's lone knight against a king and a queen: no mate is possible.
        game("knight", "4k3/8/8/8/3q4/8/8/3NK3 b - - 0 1", "1... Qd3"),
        // White's rook can still mate: the flag fall stands.
        game("rook", "4k3/8/8/8/3q4/8/8/3RK3 b - - 0 1", "1... Qd3"),
    ]
    .concat();
    let output = arbiter_stdin(&["select", "--fix-result"], pgn.as_bytes());
    assert_eq!(output.status.code(), Some(0));
    let text = stdout(&output);
    let games: Vec<&str> = text.split("\n\n[Event").collect();
    assert_eq!(games.len(), 2, "{text}");
    assert!(games[0].contains("[Result \"1/2-1/2\"]"), "{}", games[0]);
    assert!(games[0].ends_with("1... Qd3 1/2-1/2"), "{}", games[0]);
    assert!(games[1].contains("[Result \"1-0\"]"), "{}", games[1]);
    let warnings = stderr(&output);
    assert!(
        warnings.contains(
            "game 1: warning: Result \"1-0\" replaced by \"1/2-1/2\": the board shows a flag fall \
             against a side that cannot mate (Law 6.9)"
        ),
        "{warnings}"
    );
    assert!(warnings.contains("(1 result fixed)"), "{warnings}");
}
