//! `export -o DIR --rows-per-file N`: Parquet parts that hold the rows of one export, a manifest
//! that says how they were made, and nothing of the user's overwritten.

use serde_json::Value;
use sha2::{Digest, Sha256};

use crate::clocks::parquet_rows;
use crate::util::{arbiter, fixture, shared, stderr};

#[test]
fn parts_hold_the_rows_of_one_export_and_a_manifest_says_how() {
    let sample = shared("corpora/samples/lichess_db_1000k.pgn")
        .map(|p| p.to_string_lossy().into_owned())
        .unwrap_or_else(|| fixture("clocks"));
    let scratch = tempfile::tempdir().unwrap();
    let one = scratch.path().join("one.parquet");
    let out = arbiter(&["export", &sample, "-o", one.to_str().unwrap()]);
    assert!(out.status.code().is_some_and(|c| c < 2), "{}", stderr(&out));
    let whole = parquet_rows(&one);
    let dir = scratch.path().join("parts");
    for jobs in ["1", "2"] {
        let _ = std::fs::remove_dir_all(&dir);
        let out = arbiter(&[
            "export",
            &sample,
            "-o",
            dir.to_str().unwrap(),
            "--rows-per-file",
            "7",
            "-j",
            jobs,
        ]);
        assert!(out.status.code().is_some_and(|c| c < 2), "{}", stderr(&out));
        let manifest: Value =
            serde_json::from_slice(&std::fs::read(dir.join("_manifest.json")).unwrap()).unwrap();
        let parts = manifest["parts"].as_array().unwrap();
        assert_eq!(parts.len(), whole.len().div_ceil(7), "--jobs {jobs}");
        let mut rows = Vec::new();
        for (i, part) in parts.iter().enumerate() {
            let name = format!("part-{i:05}.parquet");
            assert_eq!(part["file"], name.as_str());
            let part_rows = parquet_rows(&dir.join(&name));
            assert_eq!(part["rows"], part_rows.len());
            assert!(part_rows.len() == 7 || i + 1 == parts.len());
            rows.extend(part_rows);
        }
        assert!(
            rows == whole,
            "--jobs {jobs}: the parts differ from one export"
        );
        assert_eq!(manifest["rows"], whole.len());
        assert_eq!(manifest["games"], whole.len());
        assert_eq!(manifest["invalid_games"], 0);
        assert_eq!(manifest["arbiter"], env!("CARGO_PKG_VERSION"));
        assert!(manifest["command"][1] == "export" && manifest["command"][6] == "7");
        let bytes = std::fs::read(&sample).unwrap();
        let input = &manifest["inputs"][0];
        assert_eq!(input["file"], sample.as_str());
        assert_eq!(input["bytes"], bytes.len());
        let sha: String = Sha256::digest(&bytes)
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        assert_eq!(input["sha256"], sha.as_str());
        // Nothing else in the directory: no temporary file left behind.
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), parts.len() + 1);
    }
}

#[test]
fn nothing_is_overwritten_and_a_failed_run_leaves_nothing() {
    let scratch = tempfile::tempdir().unwrap();
    let dir = scratch.path().join("parts");
    std::fs::create_dir(&dir).unwrap();
    std::fs::write(dir.join("notes.txt"), "mine").unwrap();
    let outcomes = fixture("outcomes");
    let target = dir.to_str().unwrap();
    let out = arbiter(&["export", &outcomes, "-o", target, "--rows-per-file", "5"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("the directory is not empty"),
        "{}",
        stderr(&out)
    );
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1);
    assert_eq!(
        std::fs::read_to_string(dir.join("notes.txt")).unwrap(),
        "mine"
    );
    // A run that ends with status 2 (an input cannot be read) leaves no part, and no directory
    // it made.
    let fresh = scratch.path().join("fresh");
    let missing = scratch.path().join("missing.pgn");
    let out = arbiter(&[
        "export",
        &outcomes,
        missing.to_str().unwrap(),
        "-o",
        fresh.to_str().unwrap(),
        "--rows-per-file",
        "5",
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(!fresh.exists(), "{}", stderr(&out));
    assert!(stderr(&out).contains("not written"), "{}", stderr(&out));
    // Parts are Parquet; they need a directory.
    for args in [
        &["--rows-per-file", "5", "--format", "csv", "-o", target][..],
        &["--rows-per-file", "5"][..],
        &["--rows-per-file", "0", "-o", target][..],
    ] {
        let mut all = vec!["export", outcomes.as_str()];
        all.extend_from_slice(args);
        assert_eq!(arbiter(&all).status.code(), Some(2), "{args:?}");
    }
    // No games: one part, with the columns and no rows.
    let empty = scratch.path().join("empty.pgn");
    std::fs::write(&empty, "").unwrap();
    let none = scratch.path().join("none");
    let out = arbiter(&[
        "export",
        empty.to_str().unwrap(),
        "-o",
        none.to_str().unwrap(),
        "--rows-per-file",
        "5",
    ]);
    assert!(out.status.code().is_some_and(|c| c < 2), "{}", stderr(&out));
    assert!(parquet_rows(&none.join("part-00000.parquet")).is_empty());
}
