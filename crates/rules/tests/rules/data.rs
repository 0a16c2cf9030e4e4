//! Finding the shared test data (through `arbiter_test_support`).
//!
//! With `ARBITER_TESTDATA` set, a missing file fails the test; without it, a missing default
//! directory skips the test with a note on stderr.

/// The contents of `relative` under the test data directory, or `None` to skip.
///
/// # Panics
///
/// When `ARBITER_TESTDATA` is set and the file cannot be read.
pub fn read(relative: &str) -> Option<String> {
    arbiter_test_support::shared_text(relative)
}

/// The node budget per perft entry: generous in release builds, small in debug builds.
pub fn node_budget() -> u64 {
    if cfg!(debug_assertions) {
        20_000
    } else {
        1_000_000
    }
}
