//! `--strict`, `--deny CODE` and `--allow CODE` in `validate` and `export` alike: a denied warning
//! is an error that makes its game invalid in both (validate's status and summary, export's
//! `valid` and `error`), an allowed warning is not reported, and a mistake is a usage error.
//!
//! See: issue 43, point 4.

use std::collections::BTreeSet;

use serde_json::Value;

use crate::util::{arbiter, fixture, json_lines, stderr, stdout};

/// Validate's diagnostics and summary in JSON Lines, and its status.
fn validate(path: &str, more: &[&str]) -> (Vec<Value>, Value, Option<i32>) {
    let mut args = vec!["validate", path, "--format", "jsonl"];
    args.extend_from_slice(more);
    let output = arbiter(&args);
    let mut lines = json_lines(&stdout(&output));
    let summary = lines.pop().expect("a summary");
    (lines, summary, output.status.code())
}

/// Export's records in JSON Lines, and its status.
fn export(path: &str, more: &[&str]) -> (Vec<Value>, Option<i32>) {
    let mut args = vec!["export", path, "--format", "jsonl"];
    args.extend_from_slice(more);
    let output = arbiter(&args);
    (json_lines(&stdout(&output)), output.status.code())
}

/// The games validate reports an error for, and those export says are not valid.
fn invalid_games(diagnostics: &[Value], records: &[Value]) -> (BTreeSet<u64>, BTreeSet<u64>) {
    let validate = diagnostics
        .iter()
        .filter(|d| d["severity"] == "error")
        .map(|d| d["game"].as_u64().unwrap())
        .collect();
    let export = records
        .iter()
        .filter(|r| r["valid"] == false)
        .map(|r| r["game"].as_u64().unwrap())
        .collect();
    (validate, export)
}

#[test]
fn a_denied_warning_makes_the_game_invalid_in_validate_and_export_alike() {
    let path = fixture("outcomes/outcomes.pgn");
    let (plain, summary, code) = validate(&path, &[]);
    assert_eq!(code, Some(0));
    assert_eq!(summary["invalid"], 0);
    let contradicted: BTreeSet<u64> = plain
        .iter()
        .filter(|d| d["code"] == "result_contradicts_board")
        .map(|d| d["game"].as_u64().unwrap())
        .collect();
    assert!(contradicted.len() > 3, "{plain:?}");

    let deny = ["--deny", "result_contradicts_board"];
    let (diagnostics, summary, code) = validate(&path, &deny);
    assert_eq!(code, Some(1));
    assert_eq!(summary["invalid"], contradicted.len());
    for d in &diagnostics {
        let denied = d["code"] == "result_contradicts_board";
        assert_eq!(
            d["severity"],
            if denied { "error" } else { "warning" },
            "{d}"
        );
    }
    assert_eq!(
        summary["codes_by_severity"]["error"],
        serde_json::json!({"result_contradicts_board": contradicted.len()})
    );
    let (records, export_code) = export(&path, &deny);
    assert_eq!(export_code, Some(1));
    let (by_validate, by_export) = invalid_games(&diagnostics, &records);
    assert_eq!(by_validate, contradicted);
    assert_eq!(by_export, contradicted);
    // The record quotes the denied warning as its error, where validate places it.
    for record in records.iter().filter(|r| r["valid"] == false) {
        let d = diagnostics
            .iter()
            .find(|d| d["game"] == record["game"] && d["severity"] == "error")
            .unwrap();
        let error = record["error"].as_str().unwrap();
        assert!(
            error.starts_with(&format!("{}:{}: ", d["line"], d["column"])),
            "{error} / {d}"
        );
        assert!(error.ends_with(d["message"].as_str().unwrap()), "{error}");
        // The outcome is still the board's: the main line was replayed.
        assert_ne!(record["outcome"], "invalid");
    }
    // Without --deny, export calls every one of these games valid, as validate does.
    let (records, export_code) = export(&path, &[]);
    assert_eq!(export_code, Some(0));
    assert!(records.iter().all(|r| r["valid"] == true));
}

#[test]
fn denying_a_clock_code_checks_the_clocks_in_export_too() {
    // Export reads only each side's last clock unless a clock code is denied: then it checks
    // them as validate does, and the two agree.
    let path = fixture("clocks/clocks.pgn");
    let deny = ["--deny", "clock_rise,malformed_command"];
    let (diagnostics, summary, code) = validate(&path, &deny);
    assert_eq!(code, Some(1));
    assert_eq!(summary["invalid"], 2, "{summary}");
    let (records, export_code) = export(&path, &deny);
    assert_eq!(export_code, Some(1));
    let (by_validate, by_export) = invalid_games(&diagnostics, &records);
    assert_eq!(by_validate.len(), 2);
    assert_eq!(by_validate, by_export);
}

#[test]
fn an_allowed_warning_is_neither_shown_nor_counted() {
    let path = fixture("outcomes/outcomes.pgn");
    let allow = [
        "--allow",
        "result_contradicts_board",
        "--allow",
        "termination_contradicts_result",
    ];
    let (diagnostics, summary, code) = validate(&path, &allow);
    assert_eq!(code, Some(0));
    assert_eq!(diagnostics, Vec::<Value>::new());
    assert_eq!(summary["warnings"], 0);
    assert_eq!(summary["codes"], serde_json::json!({}));

    // With --strict, every other warning is an error.
    let warnings = fixture("warnings/warnings.pgn");
    let (lenient, _, _) = validate(&warnings, &[]);
    let (strict, _, code) = validate(&warnings, &["--strict", "--allow", "wrong_check_mark"]);
    assert_eq!(code, Some(1));
    assert!(strict.iter().all(|d| d["severity"] == "error"));
    assert!(strict.iter().all(|d| d["code"] != "wrong_check_mark"));
    let checks = lenient
        .iter()
        .filter(|d| d["code"] == "wrong_check_mark")
        .count();
    assert!(checks > 0);
    // The errors of the lenient run, and its warnings but the allowed ones.
    assert_eq!(strict.len(), lenient.len() - checks);
}

#[test]
fn mistakes_are_usage_errors_that_say_what_to_do() {
    let path = fixture("outcomes/outcomes.pgn");
    for (command, args, says) in [
        (
            "validate",
            vec!["--deny", "result_contradict"],
            "unknown code `result_contradict` (did you mean result_contradicts_board?); \
             `arbiter help codes` lists them",
        ),
        (
            "export",
            vec!["--allow", "illegal_move"],
            "illegal_move is an error, and only warnings can be allowed",
        ),
        (
            "validate",
            vec!["--deny", "not_utf8", "--allow", "not_utf8"],
            "--deny and --allow both name not_utf8",
        ),
        (
            "export",
            vec!["--deny", "problems_not_listed"],
            "problems_not_listed is a note",
        ),
    ] {
        let mut all = vec![command, path.as_str()];
        all.extend(args);
        let output = arbiter(&all);
        assert_eq!(output.status.code(), Some(2), "{all:?}");
        assert!(
            stderr(&output).contains(says),
            "{all:?}: {}",
            stderr(&output)
        );
        assert!(output.stdout.is_empty(), "{all:?}");
    }
}
