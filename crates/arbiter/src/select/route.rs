//! Where each game goes, decided in input order: the [`Router`] reads the [`Frame`]s of each
//! batch as the pipeline writes batches in order, drops the duplicates of games kept before
//! (`--dedup`), and writes each game to the output, to the `--rejected` file or to the
//! `--duplicates` file (those two get the game's original text), counting as it goes.

use std::io::{self, Write};

use arbiter_report::output::{Destination, GameNumber, Output};

use super::dedup::KeptGames;
use super::frame::{Frame, frames};

/// What became of the games.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct SelectCounts {
    /// Games written to the output.
    pub written: u64,
    /// Of those, games written as they were (invalid, or not expressible as clean PGN).
    pub unchanged: u64,
    /// Of those, games whose result `--fix-result` replaced.
    pub fixed: u64,
    /// Games `--where` or `--position` turned down.
    pub rejected: u64,
    /// Games dropped as duplicates of a game kept before.
    pub duplicates: u64,
}

/// The outputs of a select run; see the module documentation.
pub struct Router<W: Write> {
    output: W,
    rejected: Option<W>,
    duplicates: Option<W>,
    kept: Option<KeptGames>,
    warn: Box<dyn FnMut(&str) + Send>,
    counts: SelectCounts,
}

impl<W: Write> Router<W> {
    /// A router writing the selected games to `output`, the rejected ones to `rejected` and the
    /// duplicates to `duplicates` when given, deduplicating when `dedup` holds the set to keep
    /// the keys in; `warn` shows each warning (a line without its end).
    pub fn new(
        output: W,
        rejected: Option<W>,
        duplicates: Option<W>,
        dedup: Option<KeptGames>,
        warn: Box<dyn FnMut(&str) + Send>,
    ) -> Router<W> {
        Router {
            output,
            rejected,
            duplicates,
            kept: dedup,
            warn,
            counts: SelectCounts::default(),
        }
    }

    /// What became of the games so far.
    pub fn counts(&self) -> SelectCounts {
        self.counts
    }

    /// The outputs, to be closed: the output, the rejected file and the duplicates file.
    pub fn into_outputs(self) -> (W, Option<W>, Option<W>) {
        (self.output, self.rejected, self.duplicates)
    }

    /// Sends one game where it goes.
    fn route(&mut self, frame: &Frame<'_>, input_before: u64) -> io::Result<()> {
        if frame.rejected {
            self.counts.rejected += 1;
            if let Some(out) = &mut self.rejected {
                out.write_all(frame.source)?;
            }
            return Ok(());
        }
        if let (Some(kept), Some(key)) = (&mut self.kept, frame.key)
            && !kept.insert(key)?
        {
            self.counts.duplicates += 1;
            if let Some(out) = &mut self.duplicates {
                out.write_all(frame.source)?;
            }
            return Ok(());
        }
        self.output.write_all(frame.pgn)?;
        self.counts.written += 1;
        self.counts.unchanged += u64::from(frame.unchanged);
        self.counts.fixed += u64::from(frame.fixed);
        if let Some(warning) = frame.warning {
            let number = match warning.number {
                GameNumber::Known { input, .. } => input,
                GameNumber::Later { in_batch } => input_before + in_batch + 1,
            };
            (self.warn)(&format!(
                "{}: game {number}: warning: {}",
                warning.place, warning.message
            ));
        }
        Ok(())
    }
}

impl<W: Write> Destination for Router<W> {
    fn write(&mut self, output: &Output, _run_before: u64, input_before: u64) -> io::Result<()> {
        for frame in frames(output.bytes()) {
            self.route(&frame, input_before)?;
        }
        self.output.flush()
    }
}

#[cfg(test)]
mod tests {
    use std::sync::{Arc, Mutex};

    use super::*;
    use crate::select::frame::Warning;

    fn batch(frames: &[Frame<'_>]) -> Output {
        let mut out = Output::default();
        for frame in frames {
            frame.write(out.bytes_mut());
        }
        out
    }

    #[test]
    fn games_go_to_the_output_the_rejected_or_the_duplicates() {
        let warnings = Arc::new(Mutex::new(Vec::new()));
        let seen = Arc::clone(&warnings);
        let mut router = Router::new(
            Vec::new(),
            Some(Vec::new()),
            Some(Vec::new()),
            Some(KeptGames::new().unwrap()),
            Box::new(move |w: &str| seen.lock().unwrap().push(w.to_owned())),
        );
        let fixed = Warning {
            number: GameNumber::Later { in_batch: 1 },
            place: "a.pgn:3:1",
            message: "fixed",
        };
        let first = batch(&[
            Frame {
                pgn: b"A",
                source: b"a",
                key: Some(b"1"),
                ..Frame::default()
            },
            Frame {
                pgn: b"B",
                source: b"b",
                key: Some(b"2"),
                fixed: true,
                warning: Some(fixed),
                ..Frame::default()
            },
            Frame {
                rejected: true,
                source: b"c",
                ..Frame::default()
            },
        ]);
        router.write(&first, 0, 0).unwrap();
        // The next batch: a duplicate of the first batch's first game, and an invalid game
        // written unchanged (no key: never a duplicate), whose warning is not shown for a
        // duplicate.
        let dropped_warning = Warning {
            number: GameNumber::Later { in_batch: 0 },
            place: "a.pgn:9:1",
            message: "not shown",
        };
        let second = batch(&[
            Frame {
                pgn: b"A2",
                source: b"a2",
                key: Some(b"1"),
                warning: Some(dropped_warning),
                ..Frame::default()
            },
            Frame {
                invalid: true,
                unchanged: true,
                pgn: b"D",
                source: b"d",
                ..Frame::default()
            },
        ]);
        router.write(&second, 3, 3).unwrap();
        assert_eq!(
            router.counts(),
            SelectCounts {
                written: 3,
                unchanged: 1,
                fixed: 1,
                rejected: 1,
                duplicates: 1,
            }
        );
        let (output, rejected, duplicates) = router.into_outputs();
        assert_eq!(output, b"ABD");
        assert_eq!(rejected.unwrap(), b"c");
        assert_eq!(duplicates.unwrap(), b"a2");
        assert_eq!(
            *warnings.lock().unwrap(),
            ["a.pgn:3:1: game 2: warning: fixed"]
        );
    }

    #[test]
    fn without_dedup_every_selected_game_is_written() {
        let mut router: Router<Vec<u8>> =
            Router::new(Vec::new(), None, None, None, Box::new(|_: &str| {}));
        let frame = Frame {
            pgn: b"A",
            key: Some(b"1"),
            ..Frame::default()
        };
        router.write(&batch(&[frame, frame]), 0, 0).unwrap();
        assert_eq!(router.counts().written, 2);
    }
}
