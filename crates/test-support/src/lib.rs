//! What the tests and benchmarks of every crate of the arbiter workspace share: where the
//! repository's own fixtures are (`testdata/` at the workspace root), where the shared public
//! test data is (the directory `ARBITER_TESTDATA` names, else `shared/testdata` beside the
//! checkout), and how the tests of the command line run the `arbiter` binary ([`run`]).
//!
//! When `ARBITER_TESTDATA` names a directory, missing shared data fails the test that asks for
//! it. When it is not set, the data is looked for beside the checkout; if it is not there, the
//! tests that need it are skipped with a note on stderr, which the test runner hides, so one test
//! of this crate fails and says so: a clone without the data must not pass as if it had been
//! checked. `ARBITER_TESTDATA=skip` runs without the data on purpose (every test that needs it is
//! skipped, and that test passes).

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

/// The value of `ARBITER_TESTDATA` that runs the tests without the shared data on purpose.
pub const SKIP: &str = "skip";

/// Where the shared test data is looked for.
#[derive(Debug)]
enum Root {
    /// The directory `ARBITER_TESTDATA` names: the data must be there.
    Given(PathBuf),
    /// `shared/testdata` beside the checkout (`ARBITER_TESTDATA` unset).
    Beside(PathBuf),
    /// `ARBITER_TESTDATA=skip`: no shared data, on purpose.
    Skipped,
}

/// Where the shared test data is looked for, from `ARBITER_TESTDATA`.
fn shared_root() -> Root {
    match std::env::var_os("ARBITER_TESTDATA") {
        Some(value) if value == SKIP => Root::Skipped,
        Some(dir) => Root::Given(PathBuf::from(dir)),
        None => Root::Beside(workspace_root().join("../shared/testdata")),
    }
}

/// `path` under the shared test data, or `None` (with a note on stderr) when it is not there and
/// `ARBITER_TESTDATA` is unset, or when `ARBITER_TESTDATA=skip`.
///
/// # Panics
///
/// When `ARBITER_TESTDATA` names a directory and `path` is missing under it.
pub fn shared(path: &str) -> Option<PathBuf> {
    let (root, required) = match shared_root() {
        Root::Skipped => {
            eprintln!("skipped: {path} (ARBITER_TESTDATA={SKIP})");
            return None;
        }
        Root::Given(root) => (root, true),
        Root::Beside(root) => (root, false),
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

/// Why the tests would run without the shared data although nobody asked for that: its default
/// place, beside the checkout, holds nothing and `ARBITER_TESTDATA` is unset. `None` when the
/// data is where it is looked for, or skipped on purpose.
pub fn missing_unasked() -> Option<String> {
    match shared_root() {
        Root::Beside(dir) if !dir.is_dir() => Some(format!(
            "the shared test data (public PGN corpora, perft suites, FEN reference tables) is \
             not at {}, so the tests that read it would pass without checking anything. Put it \
             there, or set ARBITER_TESTDATA=DIR to where it is, or ARBITER_TESTDATA={SKIP} to run \
             without it on purpose (README.md, Tests, says where it comes from)",
            dir.display()
        )),
        _ => None,
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

#[cfg(test)]
mod tests {
    /// The one test that fails on a clone without the shared data, where every test that reads
    /// it is skipped: its note on stderr is hidden by the test runner.
    #[test]
    fn the_shared_test_data_is_there_or_skipped_on_purpose() {
        if let Some(why) = super::missing_unasked() {
            panic!("{why}");
        }
    }
}
