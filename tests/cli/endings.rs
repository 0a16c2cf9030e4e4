//! Where the Laws end a game, and what validate and export both say of it: the fixtures of
//! `testdata/endings/`, each with an `Expect` tag (`outcome winner consistent end_ply valid`, `-`
//! for an empty field) and a `Codes` tag (the codes validate reports for the game).

use serde_json::Value;

use crate::util::{arbiter, codes_and_expected, field, fixture, json_lines, stdout};

#[test]
fn each_ending_is_judged_alike_by_export_and_validate() {
    let path = fixture("endings");
    let records = json_lines(&stdout(&arbiter(&[
        "export",
        &path,
        "--format",
        "jsonl",
        "--tags",
        "Expect,Codes",
    ])));
    let diagnostics: Vec<Value> =
        json_lines(&stdout(&arbiter(&["validate", &path, "--format", "jsonl"])))
            .into_iter()
            .filter(|d| d["type"] == "diagnostic")
            .collect();
    assert_eq!(records.len(), 30);
    for record in &records {
        let event = record["event"].as_str().unwrap_or_default();
        let got = ["outcome", "winner", "result_consistent", "end_ply", "valid"]
            .map(|name| field(&record[name]))
            .join(" ");
        assert_eq!(
            got,
            record["Expect"].as_str().unwrap_or_default(),
            "{event}"
        );
        let (codes, want) = codes_and_expected(&diagnostics, record);
        assert_eq!(codes, want, "{event}");
        let errors = diagnostics
            .iter()
            .filter(|d| d["game"] == record["game"] && d["severity"] == "error")
            .count();
        assert_eq!(record["valid"], errors == 0, "{event}");
    }
}

#[test]
fn the_warnings_of_one_move_name_one_standard_form() {
    let out = stdout(&arbiter(&["validate", &fixture("endings")]));
    let ba8q: Vec<&str> = out.lines().filter(|l| l.contains("\"ba8Q\"")).collect();
    assert_eq!(ba8q.len(), 3, "{out}");
    assert!(
        ba8q.iter()
            .all(|l| l.ends_with("the standard form is bxa8=Q+")),
        "{ba8q:?}"
    );
}

#[test]
fn quoted_and_unclosed_comments_read_alike_in_parts_and_whole() {
    // The fixtures many times over (a few MB), so that `--jobs 2` reads them in parts: the part
    // cutter must not cut inside a comment that quotes tags, nor keep one never closed open.
    let once = std::fs::read(fixture("endings/endings.pgn")).expect("fixture");
    let mut bytes = Vec::new();
    while bytes.len() < 3 << 20 {
        bytes.extend_from_slice(&once);
        bytes.extend_from_slice(b"\n");
    }
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("endings.pgn");
    std::fs::write(&path, &bytes).expect("write");
    let path = path.to_str().expect("UTF-8 path");
    for command in ["export", "validate"] {
        let run = |jobs: &str| {
            let out = stdout(&arbiter(&[
                command, path, "--format", "jsonl", "-q", "-j", jobs,
            ]));
            out.lines()
                .filter(|l| !l.contains("\"type\":\"summary\""))
                .map(str::to_owned)
                .collect::<Vec<_>>()
        };
        let one = run("1");
        assert!(one.len() > 1000, "{command}: {} lines", one.len());
        assert!(one == run("2"), "{command}: --jobs 2 differs from --jobs 1");
    }
}
