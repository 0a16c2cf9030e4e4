//! Locating and reading the shared test data.

use std::path::PathBuf;

/// The shared test data directory: `ARBITER_TESTDATA`, else `../shared/testdata` next to the
/// crate. `None`, with a note, when it is absent and `ARBITER_TESTDATA` is unset; a missing
/// `ARBITER_TESTDATA` directory fails the test.
pub fn dir() -> Option<PathBuf> {
    arbiter_test_support::shared("")
}

/// The text of `relative` inside the data directory (which must exist once [`dir`] said so).
pub fn read(dir: &std::path::Path, relative: &str) -> String {
    let path = dir.join(relative);
    match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(err) => panic!("{}: {err}", path.display()),
    }
}

/// The positions (`epd` lines, with counters added when missing) of a `.perft` file.
pub fn perft_positions(text: &str) -> Vec<String> {
    text.lines()
        .filter_map(|line| line.strip_prefix("epd "))
        .map(|epd| {
            if epd.split_whitespace().count() == 4 {
                format!("{epd} 0 1")
            } else {
                epd.to_string()
            }
        })
        .collect()
}
