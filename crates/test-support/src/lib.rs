//! What the tests and benchmarks of every crate of the arbiter workspace share: where the
//! repository's own fixtures are (`testdata/` at the workspace root), where the shared public
//! test data is (the directory `ARBITER_TESTDATA` names, else `shared/testdata` beside the
//! checkout), how the tests of the command line run the `arbiter` binary ([`run`]), how the reader's
//! tests record what it reads ([`reader`]), and the layering every crate's modules keep ([`layers`]).
//!
//! When `ARBITER_TESTDATA` names a directory, missing shared data fails the test that asks for
//! it (CI sets it: there the data must be checked). When it is not set, the data is looked for
//! beside the checkout; if it is not there (a clone from a forge), the tests that need it skip
//! what they would read, and each test binary says so once on the terminal, past the test
//! runner's capture, so that the skipped part is visible: a clone without the data passes, but
//! never as if the data had been checked. `ARBITER_TESTDATA=skip` runs without the data on
//! purpose, the same way.

#![warn(missing_docs)]

pub mod layers;
pub mod reader;
pub mod run;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Once;

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

impl Root {
    /// Where the data is looked for, given the value of `ARBITER_TESTDATA` and the place beside
    /// the checkout.
    fn from(value: Option<std::ffi::OsString>, beside: PathBuf) -> Root {
        match value {
            Some(value) if value == SKIP => Root::Skipped,
            Some(dir) => Root::Given(PathBuf::from(dir)),
            None => Root::Beside(beside),
        }
    }

    /// Where the data is looked for in this run.
    fn of_this_run() -> Root {
        Root::from(
            std::env::var_os("ARBITER_TESTDATA"),
            workspace_root().join("../shared/testdata"),
        )
    }

    /// `path` under this root: found, skipped (and why), or missing where it must be.
    fn find(&self, path: &str) -> Found {
        match self {
            Root::Skipped => Found::Skipped(format!("ARBITER_TESTDATA={SKIP}")),
            Root::Given(root) | Root::Beside(root) => {
                let full = root.join(path);
                if full.exists() {
                    Found::Here(full)
                } else if matches!(self, Root::Given(_)) {
                    Found::Missing(format!(
                        "ARBITER_TESTDATA is set but {} is missing",
                        full.display()
                    ))
                } else {
                    Found::Skipped(format!("it is not at {}", root.display()))
                }
            }
        }
    }
}

/// What looking for a path of the shared data gave.
#[derive(Debug, PartialEq)]
enum Found {
    /// The path, which exists.
    Here(PathBuf),
    /// Not looked for, or not found where it need not be: why.
    Skipped(String),
    /// Not found where it must be: the message of the failure.
    Missing(String),
}

/// `path` under the shared test data, or `None` when the data is not there and
/// `ARBITER_TESTDATA` is unset, or when `ARBITER_TESTDATA=skip`; the first such `None` of a test
/// binary writes one note on the terminal (see `note_skipped`).
///
/// # Panics
///
/// When `ARBITER_TESTDATA` names a directory and `path` is missing under it.
pub fn shared(path: &str) -> Option<PathBuf> {
    match Root::of_this_run().find(path) {
        Found::Here(full) => Some(full),
        Found::Skipped(why) => {
            note_skipped(&why);
            None
        }
        Found::Missing(message) => panic!("{message}"),
    }
}

/// Says once per test binary, on standard error itself (the test runner captures only what
/// the print macros write, and shows it only for failing tests), that the tests reading the
/// shared data skip it, and why.
fn note_skipped(why: &str) {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let binary = std::env::args().next().unwrap_or_default();
        // `target/ci/deps/san-24b1f9913b600cc0`: the test binary's name without cargo's hash.
        let binary = Path::new(&binary)
            .file_name()
            .map(|name| name.to_string_lossy().into_owned())
            .unwrap_or_default();
        let binary = binary.rsplit_once('-').map_or(&*binary, |(name, _)| name);
        let note = format!(
            "\nnote: {binary}: the tests that read the shared test data (public PGN corpora, \
             perft suites, FEN reference tables) skip those checks: {why}; set \
             ARBITER_TESTDATA=DIR to where it is (README.md, Tests, says how to get it)\n"
        );
        // A note that cannot be written is no reason to fail a test.
        let _ = std::io::stderr().write_all(note.as_bytes());
    });
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

/// chasolver's lichess test set, `tests/lichess.txt` of the published crate `chasolver` 3.0.0
/// (MIT; 65,536 labelled positions, 3.4 MB, so not copied into the repository as its small hard
/// set is: see `testdata/chasolver/README.md`): in the directory `ARBITER_CHASOLVER` names
/// (`.ci/run` fetches the crate and sets it), else in cargo's registry where fetching or building
/// the yardstick (`bench/peer-chasolver` of the shared folder) unpacked it; `None`, with a note
/// on the terminal, when neither.
///
/// # Panics
///
/// When `ARBITER_CHASOLVER` names a directory without `lichess.txt`.
pub fn chasolver_lichess() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("ARBITER_CHASOLVER") {
        let path = PathBuf::from(dir).join("lichess.txt");
        assert!(
            path.is_file(),
            "ARBITER_CHASOLVER is set but {} is missing",
            path.display()
        );
        return Some(path);
    }
    let found = in_cargo_registry("chasolver-3.0.0/tests/lichess.txt");
    if found.is_none() {
        static ONCE: Once = Once::new();
        ONCE.call_once(|| {
            let _ = std::io::stderr().write_all(
                b"\nnote: the tests that read chasolver's lichess set skip it: it is not in \
                  cargo's registry; set ARBITER_CHASOLVER=DIR to its folder (README.md, Tests)\n",
            );
        });
    }
    found
}

/// `relative` under an unpacked crate of cargo's registry (`$CARGO_HOME/registry/src/*/`,
/// `CARGO_HOME` by default `~/.cargo`), if there.
fn in_cargo_registry(relative: &str) -> Option<PathBuf> {
    let home = std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|home| Path::new(&home).join(".cargo")))?;
    std::fs::read_dir(home.join("registry/src"))
        .ok()?
        .filter_map(|index| Some(index.ok()?.path().join(relative)))
        .find(|path| path.is_file())
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use super::{Found, Root};

    /// A clone without the data (nothing beside it, the variable unset) skips; it does not fail.
    #[test]
    fn a_clone_without_the_data_skips_it() {
        let nowhere = PathBuf::from("/nonexistent/shared/testdata");
        let found = Root::from(None, nowhere).find("corpora");
        assert!(
            matches!(&found, Found::Skipped(why) if why.contains("/nonexistent/shared/testdata")),
            "{found:?}"
        );
    }

    /// Where `ARBITER_TESTDATA` names a directory (as CI does), a missing file fails the test.
    #[test]
    fn a_named_directory_must_hold_the_data() {
        let found = Root::from(Some("/nonexistent/dir".into()), PathBuf::new()).find("corpora");
        assert_eq!(
            found,
            Found::Missing(
                "ARBITER_TESTDATA is set but /nonexistent/dir/corpora is missing".to_owned()
            )
        );
        let here = Root::from(Some(env!("CARGO_MANIFEST_DIR").into()), PathBuf::new());
        assert_eq!(
            here.find("src"),
            Found::Here(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src"))
        );
    }

    /// `ARBITER_TESTDATA=skip` skips whatever is beside the checkout.
    #[test]
    fn skip_is_on_purpose() {
        let found = Root::from(
            Some("skip".into()),
            PathBuf::from(env!("CARGO_MANIFEST_DIR")),
        );
        assert_eq!(
            found.find("src"),
            Found::Skipped("ARBITER_TESTDATA=skip".to_owned())
        );
    }
}
