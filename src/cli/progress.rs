//! What a run of the game pipeline shows on stderr: the progress bar (bytes and games, rate and
//! time left for files, a spinner for stdin), the inputs that could not be read, and those that
//! held no game.
//!
//! The bar shows only when stderr is a terminal and `--quiet` is not given, so it never mixes with
//! data on stdout or with redirected diagnostics; the messages always show. While it shows, it
//! is the one bar [`suspended`] knows: every message on stderr ([`report`]) and every
//! batch of data for a terminal on stdout ([`Suspending`]) is written with the bar taken off the
//! screen and drawn again after, so that no stale bar line stays among diagnostics (indicatif
//! pads its line to the terminal's width and leaves the cursor at its end). The time left is
//! shown only once it means something ([`time_left`]).

use std::fmt::Display;
use std::io::IsTerminal;
use std::path::PathBuf;
use std::time::Duration;

use arbiter::Observer;
use arbiter::report::output::{Destination, Output};
use indicatif::{HumanDuration, ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};

use crate::cli::stderr::{report, report_error, shown, suspended};

/// The time left is shown from this much time on...
const SETTLE_TIME: Duration = Duration::from_secs(1);
/// ...and from this share of the bytes read on (1 in 50).
const SETTLE_SHARE: u64 = 50;

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
        Progress::drawn_on(ProgressDrawTarget::stderr(), total_size(paths))
    }

    /// A bar of `total` bytes (a spinner when unknown) drawn on `target`, and known to
    /// [`suspended`] until it is finished.
    fn drawn_on(target: ProgressDrawTarget, total: Option<u64>) -> Progress {
        let bar = match total {
            Some(total) => {
                let bar = ProgressBar::with_draw_target(Some(total), target);
                bar.set_style(
                    ProgressStyle::with_template(
                        "{bar:30} {bytes}/{total_bytes} {bytes_per_sec}{time_left} {msg}",
                    )
                    .unwrap_or_else(|_| ProgressStyle::default_bar())
                    .with_key("time_left", write_time_left),
                );
                bar
            }
            None => {
                let bar = ProgressBar::with_draw_target(None, target);
                bar.set_style(
                    ProgressStyle::with_template("{spinner} {bytes} {bytes_per_sec} {msg}")
                        .unwrap_or_else(|_| ProgressStyle::default_spinner()),
                );
                bar
            }
        };
        bar.enable_steady_tick(Duration::from_millis(200));
        *shown() = Some(bar.clone());
        Progress { bar: Some(bar) }
    }

    /// Whether a bar shows.
    pub(crate) fn shows(&self) -> bool {
        self.bar.is_some()
    }
}

/// Removes the bar from the terminal (and from [`suspended`]'s knowledge).
impl Drop for Progress {
    fn drop(&mut self) {
        if let Some(bar) = self.bar.take() {
            shown().take();
            bar.finish_and_clear();
        }
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
        report_error(format_args!("{error}"));
    }

    /// Removes the bar from the terminal.
    fn finish(&self) {
        if let Some(bar) = &self.bar {
            shown().take();
            bar.finish_and_clear();
        }
    }

    fn no_games(&self, name: &str) {
        report(format_args!("warning: {name}: no games found"));
    }
}

/// A destination whose batches go to the terminal the bar is on: each is written with the bar
/// [`suspended`] (the destination flushes each batch, so the whole batch is written then).
pub(crate) struct Suspending<'a> {
    /// Where the batches go.
    pub(crate) out: &'a mut (dyn Destination + Send),
}

impl Destination for Suspending<'_> {
    fn write(
        &mut self,
        output: &Output,
        run_before: u64,
        input_before: u64,
    ) -> std::io::Result<()> {
        suspended(|| self.out.write(output, run_before, input_before))
    }

    fn digests(&self) -> bool {
        self.out.digests()
    }
}

/// The time left for `done` of `total` bytes read in `elapsed`, at the mean rate so far, once it
/// means something: after [`SETTLE_TIME`] and a [`SETTLE_SHARE`]th of the bytes (the first
/// moments, while the workers start and the first batch is read, would give a rate far too low).
fn time_left(elapsed: Duration, done: u64, total: u64) -> Option<Duration> {
    if elapsed < SETTLE_TIME || done == 0 || done.saturating_mul(SETTLE_SHARE) < total {
        return None;
    }
    Some(elapsed.mul_f64(total.saturating_sub(done) as f64 / done as f64))
}

/// The bar's `{time_left}`: ` ETA 3s` (whole seconds, rounded up), or nothing while
/// [`time_left`] has no answer.
fn write_time_left(state: &ProgressState, out: &mut dyn std::fmt::Write) {
    if let Some(left) = time_left(state.elapsed(), state.pos(), state.len().unwrap_or(0)) {
        let seconds = Duration::from_secs(left.as_secs_f64().ceil() as u64);
        let _ = write!(out, " ETA {:#}", HumanDuration(seconds));
    }
}

/// The sum of the sizes of the given regular files, when every path is one (for the progress
/// bar's time left); `None` for stdin and directories.
fn total_size(paths: &[PathBuf]) -> Option<u64> {
    if paths.is_empty() {
        return None;
    }
    paths.iter().try_fold(0u64, |sum, path| {
        let meta = std::fs::metadata(path).ok()?;
        meta.is_file().then(|| sum + meta.len())
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::{Arc, Mutex};

    #[test]
    fn the_time_left_waits_for_a_second_and_a_fiftieth_of_the_bytes() {
        let second = Duration::from_secs(1);
        assert_eq!(time_left(second / 2, 500, 1000), None);
        assert_eq!(time_left(second, 19, 1000), None);
        assert_eq!(time_left(second, 0, 0), None);
        assert_eq!(time_left(second, 20, 1000), Some(second * 49));
        assert_eq!(time_left(second * 3, 750, 1000), Some(second));
        assert_eq!(time_left(second * 3, 1000, 1000), Some(Duration::ZERO));
    }

    /// A terminal that records what is done to it, and what the test writes.
    #[derive(Debug, Clone, Default)]
    struct Recorder(Arc<Mutex<Vec<String>>>);

    impl Recorder {
        fn log(&self, event: String) {
            self.0.lock().unwrap().push(event);
        }
        fn events(&self) -> Vec<String> {
            self.0.lock().unwrap().clone()
        }
    }

    impl indicatif::TermLike for Recorder {
        fn width(&self) -> u16 {
            80
        }
        fn move_cursor_up(&self, n: usize) -> std::io::Result<()> {
            if n > 0 {
                self.log(format!("up {n}"));
            }
            Ok(())
        }
        fn move_cursor_down(&self, _: usize) -> std::io::Result<()> {
            Ok(())
        }
        fn move_cursor_right(&self, _: usize) -> std::io::Result<()> {
            Ok(())
        }
        fn move_cursor_left(&self, _: usize) -> std::io::Result<()> {
            Ok(())
        }
        fn write_line(&self, s: &str) -> std::io::Result<()> {
            self.log(format!("line {s}"));
            Ok(())
        }
        fn write_str(&self, s: &str) -> std::io::Result<()> {
            if !s.trim().is_empty() {
                self.log(format!("bar {}", s.trim()));
            }
            Ok(())
        }
        fn clear_line(&self) -> std::io::Result<()> {
            self.log("clear".to_owned());
            Ok(())
        }
        fn flush(&self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn what_is_written_while_the_bar_shows_is_written_on_a_clean_line() {
        let terminal = Recorder::default();
        let target = ProgressDrawTarget::term_like(Box::new(terminal.clone()));
        let progress = Progress::drawn_on(target, Some(1000));
        let bar = progress.bar.clone().unwrap();
        bar.set_position(100);
        bar.force_draw();
        // A batch for standard output, and a message on stderr, as the run writes them.
        struct Batches(Recorder);
        impl Destination for Batches {
            fn write(&mut self, _: &Output, run_before: u64, _: u64) -> std::io::Result<()> {
                self.0.log(format!("data {run_before}"));
                Ok(())
            }
        }
        let mut batches = Batches(terminal.clone());
        Suspending { out: &mut batches }
            .write(&Output::default(), 7, 0)
            .unwrap();
        suspended(|| terminal.log("message".to_owned()));
        let events = terminal.events();
        for written in ["data 7", "message"] {
            let at = events.iter().position(|e| e == written).unwrap();
            assert_eq!(events[at - 1], "clear", "{events:?}");
            assert!(events[at + 1].starts_with("bar "), "{events:?}");
        }
        assert!(events[0].starts_with("bar "), "{events:?}");
        // No time left within the first second.
        assert!(!events.iter().any(|e| e.contains("ETA")), "{events:?}");
        drop(progress);
        assert!(shown().is_none());
        assert_eq!(terminal.events().last().map(String::as_str), Some("clear"));
    }
}
