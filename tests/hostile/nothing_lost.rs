//! Nothing lost: on every shared corpus and edge-case directory, export writes exactly one record
//! per game the reader finds, and the validate summary adds up. (Every hostile case in this suite
//! goes through the same check, [`crate::util::check`].)

use std::path::PathBuf;

use crate::util::check;

/// The shared test data (`ARBITER_TESTDATA`, else `../shared/testdata`); `None` with a note when it
/// is absent and the variable unset. When the variable is set, missing data fails the test.
fn shared(path: &str) -> Option<PathBuf> {
    let (root, required) = match std::env::var_os("ARBITER_TESTDATA") {
        Some(dir) => (PathBuf::from(dir), true),
        None => (
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/testdata"),
            false,
        ),
    };
    let full = root.join(path);
    if full.exists() {
        Some(full)
    } else if required {
        panic!("ARBITER_TESTDATA is set but {} is missing", full.display());
    } else {
        eprintln!(
            "skipped: {} not found (set ARBITER_TESTDATA)",
            full.display()
        );
        None
    }
}

fn subdirectories(dir: &std::path::Path) -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    dirs
}

#[test]
fn one_record_per_game_on_every_corpus_and_edge_case() {
    let mut total = 0;
    for top in ["corpora", "edge"] {
        let Some(root) = shared(top) else {
            return;
        };
        let dirs = subdirectories(&root);
        assert!(!dirs.is_empty(), "{top} has no subdirectories");
        for dir in dirs {
            let what = dir.display().to_string();
            let c = check(&dir, None, &what);
            assert!(!c.records.is_empty(), "{what}: no games");
            // validate also judges variations, so it is at least as severe as export.
            assert!(c.validate.code() >= c.export.code(), "{what}");
            total += c.records.len();
        }
    }
    eprintln!("{total} games checked");
}
