//! What the tests and benchmarks of every crate of the arbiter workspace share: where the
//! repository's own fixtures are (`testdata/` at the workspace root), where the shared public
//! test data is (the directory `ARBITER_TESTDATA` names, else `shared/testdata` beside the
//! checkout), and how the tests of the command line run the `arbiter` binary ([`run`]).
//!
//! When `ARBITER_TESTDATA` is set, missing shared data fails the test that asks for it; when it
//! is not set and the default place holds nothing, the test is skipped with a note on stderr.

#![warn(missing_docs)]

pub mod run;

use std::path::{Path, PathBuf};

/// The workspace's root directory (where `Cargo.toml`, `testdata/` and `README.md` are).
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .expect("the workspace root exists")
}

/// `relative` under the repository's own fixtures, `testdata/` at the workspace root.
pub fn fixture(relative: &str) -> PathBuf {
    workspace_root().join("testdata").join(relative)
}

/// The shared test data directory, and whether the user asked for it (`ARBITER_TESTDATA` set).
fn shared_root() -> (PathBuf, bool) {
    match std::env::var_os("ARBITER_TESTDATA") {
        Some(dir) => (PathBuf::from(dir), true),
        None => (workspace_root().join("../shared/testdata"), false),
    }
}

/// `path` under the shared test data, or `None` (with a note on stderr) when it is not there and
/// `ARBITER_TESTDATA` is unset.
///
/// # Panics
///
/// When `ARBITER_TESTDATA` is set and `path` is missing under it.
pub fn shared(path: &str) -> Option<PathBuf> {
    let (root, required) = shared_root();
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

/// The text of `path` under the shared test data, or `None` as [`shared`] says.
///
/// # Panics
///
/// When the file is there but cannot be read as UTF-8 text, or as [`shared`] says.
pub fn shared_text(path: &str) -> Option<String> {
    let full = shared(path)?;
    match std::fs::read_to_string(&full) {
        Ok(text) => Some(text),
        Err(err) => panic!("{} is unreadable: {err}", full.display()),
    }
}
