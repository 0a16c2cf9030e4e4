//! A test hook, never set in use: a file output whose name is the value of the environment
//! variable `ARBITER_TEST_ONLY_FULL_DISK` fails every write as a full disk does (ENOSPC), so that
//! the tests can show what a run does when its last output cannot be written, where no small
//! file system can be mounted. The variable is read once; its name says what it is for.

use std::ffi::OsString;
use std::io;
use std::path::Path;
use std::sync::OnceLock;

/// The variable.
const VARIABLE: &str = "ARBITER_TEST_ONLY_FULL_DISK";

/// Whether writes to the output at `path` are to fail as on a full disk.
pub(super) fn is_full(path: &Path) -> bool {
    static NAME: OnceLock<Option<OsString>> = OnceLock::new();
    NAME.get_or_init(|| std::env::var_os(VARIABLE))
        .as_deref()
        .is_some_and(|name| path.file_name() == Some(name))
}

/// `ENOSPC`, the same on Linux, the BSDs and macOS.
const ENOSPC: i32 = 28;

/// The error of a write to a full disk.
pub(super) fn error() -> io::Error {
    io::Error::from_raw_os_error(ENOSPC)
}
