//! Where the shared test data lives, for the test crates that read it (included with `#[path]`).

use std::path::PathBuf;

/// The shared test data (`ARBITER_TESTDATA`, else `../shared/testdata`), or `None` when it is not
/// there and the variable is unset. When the variable is set, missing data fails the test.
pub fn shared(path: &str) -> Option<PathBuf> {
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
