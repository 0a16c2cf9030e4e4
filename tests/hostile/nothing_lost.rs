//! Nothing lost: on every shared corpus and edge-case directory, export writes exactly one record
//! per game the reader finds, and the validate summary adds up. (Every hostile case in this suite
//! goes through the same check, [`crate::util::check`].)

use std::path::PathBuf;

use crate::shared_data::shared;
use crate::util::check;

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
