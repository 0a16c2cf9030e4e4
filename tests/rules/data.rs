//! Finding the shared test data: `$ARBITER_TESTDATA`, else `$CARGO_MANIFEST_DIR/../shared/testdata`.
//!
//! With `ARBITER_TESTDATA` set, a missing file fails the test; without it, a missing default
//! directory skips the test with a note on stderr.

use std::path::PathBuf;

/// The contents of `relative` under the test data directory, or `None` to skip.
///
/// # Panics
///
/// When `ARBITER_TESTDATA` is set and the file cannot be read.
pub fn read(relative: &str) -> Option<String> {
    match std::env::var_os("ARBITER_TESTDATA") {
        Some(dir) => {
            let path = PathBuf::from(dir).join(relative);
            match std::fs::read_to_string(&path) {
                Ok(text) => Some(text),
                Err(err) => panic!(
                    "ARBITER_TESTDATA is set but {} is unreadable: {err}",
                    path.display()
                ),
            }
        }
        None => {
            let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/testdata");
            if !dir.is_dir() {
                eprintln!(
                    "skip: no test data at {} (set ARBITER_TESTDATA)",
                    dir.display()
                );
                return None;
            }
            let path = dir.join(relative);
            match std::fs::read_to_string(&path) {
                Ok(text) => Some(text),
                Err(err) => panic!("{} is unreadable: {err}", path.display()),
            }
        }
    }
}

/// The node budget per perft entry: generous in release builds, small in debug builds.
pub fn node_budget() -> u64 {
    if cfg!(debug_assertions) {
        20_000
    } else {
        1_000_000
    }
}
