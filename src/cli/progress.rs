//! The progress bar on stderr: bytes and games, rate and ETA for files, a spinner for stdin.
//!
//! It shows only when stderr is a terminal and `--quiet` is not given, so it never mixes with data
//! on stdout or with redirected diagnostics.

use std::io::IsTerminal;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// A progress display that may be hidden.
pub struct Progress {
    bar: Option<ProgressBar>,
}

impl Progress {
    /// A bar over `total_bytes` of input, or a spinner when the size is unknown (stdin, or a
    /// compressed input whose expanded size is unknown).
    pub fn new(total_bytes: Option<u64>, quiet: bool) -> Progress {
        if quiet || !std::io::stderr().is_terminal() {
            return Progress { bar: None };
        }
        let bar = match total_bytes {
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

    /// Records that the input was read up to `bytes`.
    pub fn input(&self, bytes: u64) {
        if let Some(bar) = &self.bar {
            bar.set_position(bytes);
        }
    }

    /// Records that `games` games were done, `invalid` of them invalid, with `warnings` warnings.
    pub fn games(&self, games: u64, invalid: u64, warnings: u64) {
        if let Some(bar) = &self.bar {
            bar.set_message(format!(
                "{games} games, {invalid} invalid, {warnings} warnings"
            ));
        }
    }

    /// Removes the bar from the terminal.
    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}
