//! What arbiter says on stderr, one message a line prefixed `arbiter: `, each line's control
//! characters escaped: the messages of every subcommand go through here, and while a progress bar
//! shows (the one bar `progress` draws, registered here), each is written with the bar taken off
//! the screen ([`suspended`]).

use std::io::Write;
use std::sync::{Mutex, MutexGuard, PoisonError};

use indicatif::ProgressBar;

/// The bar on the terminal, if one shows.
static SHOWN: Mutex<Option<ProgressBar>> = Mutex::new(None);

/// Prints `arbiter: error: MESSAGE` on stderr. A stderr that cannot be written (`2>/dev/full`) is
/// ignored: `eprintln!` would panic there, and the exit code already tells the error.
pub(crate) fn report_error(message: std::fmt::Arguments<'_>) {
    report(format_args!("error: {message}"));
}

/// Prints `arbiter: MESSAGE` on stderr (a stderr that cannot be written is ignored), each line's
/// control characters escaped as standard output escapes them
/// ([`arbiter::core::text::escape_controls`]): a file name holding ESC or BEL cannot act on the
/// terminal. A progress bar on the terminal is taken off the screen while the message is written
/// ([`suspended`]).
pub(crate) fn report(message: std::fmt::Arguments<'_>) {
    let message = message.to_string();
    let lines: Vec<_> = message
        .split('\n')
        .map(arbiter::core::text::escape_controls)
        .collect();
    suspended(|| {
        let _ = writeln!(std::io::stderr().lock(), "arbiter: {}", lines.join("\n"));
    });
}

/// Runs `write`, which writes to the terminal, with the bar off the screen if one shows, and
/// draws the bar again after.
pub(crate) fn suspended<R>(write: impl FnOnce() -> R) -> R {
    // Cloned out of the lock: the bar has a lock of its own, which other threads take to move it.
    let bar = shown().clone();
    match bar {
        Some(bar) => bar.suspend(write),
        None => write(),
    }
}

/// The run is being ended by a signal: the bar is cleared from its line without waiting for its
/// lock (a thread may hold it while it writes to a stopped terminal), and forgotten, so that
/// `write` writes on a clean line.
pub(crate) fn interrupted(write: impl FnOnce()) {
    if shown().take().is_some() {
        let _ = std::io::stderr().lock().write_all(b"\r\x1b[2K");
    }
    write();
}

/// The bar that shows, if one does: `progress` registers its bar here and takes it off.
pub(crate) fn shown() -> MutexGuard<'static, Option<ProgressBar>> {
    SHOWN.lock().unwrap_or_else(PoisonError::into_inner)
}
