//! What a run of the game pipeline shows on stderr: the progress bar (bytes and games, rate and
//! ETA for files, a spinner for stdin), the inputs that could not be read, and those that held no
//! game.
//!
//! The bar shows only when stderr is a terminal and `--quiet` is not given, so it never mixes with
//! data on stdout or with redirected diagnostics; the messages always show.

use std::fmt::Display;
use std::io::IsTerminal;
use std::path::PathBuf;
use std::time::Duration;

use arbiter::Observer;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// A progress display that may be hidden.
pub(crate) struct Progress {
    bar: Option<ProgressBar>,
}

impl Progress {
    /// A bar over the inputs `paths`, or a spinner when their size is unknown (stdin, or a
    /// directory).
    pub(crate) fn new(paths: &[PathBuf], quiet: bool) -> Progress {
        if quiet || !std::io::stderr().is_terminal() {
            return Progress { bar: None };
        }
        let bar = match total_size(paths) {
            Some(total) => {
                let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
                bar.set_style(
                    ProgressStyle::with_template(
                        "{bar:30} {bytes}/{total_bytes} {bytes_per_sec} ETA {eta} {msg}",
                    )
                    .unwrap_or_else(|_| ProgressStyle::default_bar()),
                );
                bar
            }
            None => {
                let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
                bar.set_style(
                    ProgressStyle::with_template("{spinner} {bytes} {bytes_per_sec} {msg}")
                        .unwrap_or_else(|_| ProgressStyle::default_spinner()),
                );
                bar
            }
        };
        bar.enable_steady_tick(Duration::from_millis(200));
        Progress { bar: Some(bar) }
    }
}

impl Observer for Progress {
    fn input(&self, bytes: u64) {
        if let Some(bar) = &self.bar {
            bar.set_position(bytes);
        }
    }

    fn games(&self, games: u64, invalid: u64, warnings: u64) {
        if let Some(bar) = &self.bar {
            bar.set_message(format!(
                "{}, {invalid} invalid, {}",
                arbiter::core::text::counted(games, "game"),
                arbiter::core::text::counted(warnings, "warning")
            ));
        }
    }

    fn input_error(&self, error: &dyn Display) {
        crate::cli::stderr::report_error(format_args!("{error}"));
    }

    /// Removes the bar from the terminal.
    fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }

    fn no_games(&self, name: &str) {
        crate::cli::stderr::report(format_args!("warning: {name}: no games found"));
    }
}

/// The sum of the sizes of the given regular files, when every path is one (for the progress
/// bar's ETA); `None` for stdin and directories.
fn total_size(paths: &[PathBuf]) -> Option<u64> {
    if paths.is_empty() {
        return None;
    }
    paths.iter().try_fold(0u64, |sum, path| {
        let meta = std::fs::metadata(path).ok()?;
        meta.is_file().then(|| sum + meta.len())
    })
}
