//! What a worker hands on for each game it selected or rejected, in the batch's output bytes:
//! a [`Frame`], read back in input order by the [`Router`](super::route::Router), which
//! alone can tell a duplicate (the games kept before it may be in another batch) and knows every
//! game's number.
//!
//! A frame is a byte of flags, then length-prefixed pieces: the PGN to write, the game's
//! original bytes (when a `--rejected` or `--duplicates` file may need them), the dedup key, and
//! a warning with its game number.

use arbiter_report::output::GameNumber;

/// Flag bits.
const REJECTED: u8 = 1;
const INVALID: u8 = 2;
const UNCHANGED: u8 = 4;
const KEY: u8 = 8;
const WARNING: u8 = 16;
const FIXED: u8 = 32;

/// A warning about one game, to be shown when its number is known: `{place}: game N: warning:
/// {message}`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Warning<'a> {
    /// The game's number.
    pub number: GameNumber,
    /// `FILE:LINE:COL`, or `FILE`.
    pub place: &'a str,
    /// What was done, in plain words.
    pub message: &'a str,
}

/// One game's verdict and output.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Frame<'a> {
    /// `--where` or `--position` turned it down.
    pub rejected: bool,
    /// The game has an error.
    pub invalid: bool,
    /// `pgn` is the game's original text (an invalid game, or one the writer cannot express).
    pub unchanged: bool,
    /// `--fix-result` replaced its result.
    pub fixed: bool,
    /// What goes to the output if it is kept (empty for a rejected game).
    pub pgn: &'a [u8],
    /// The original text, for a `--rejected` or `--duplicates` file (empty when neither wants
    /// it).
    pub source: &'a [u8],
    /// The dedup key, when deduplicating and the game can be compared.
    pub key: Option<&'a [u8]>,
    /// A warning to show.
    pub warning: Option<Warning<'a>>,
}

impl Frame<'_> {
    /// Appends the frame to `out`.
    pub fn write(&self, out: &mut Vec<u8>) {
        self.write_with(out, |out| out.extend_from_slice(self.pgn));
    }

    /// Appends the frame to `out`, its PGN written by `pgn` straight into `out` (in the place of
    /// `self.pgn`): the PGN of a game is not copied once more.
    pub fn write_with(&self, out: &mut Vec<u8>, pgn: impl FnOnce(&mut Vec<u8>)) {
        let flags = [
            (self.rejected, REJECTED),
            (self.invalid, INVALID),
            (self.unchanged, UNCHANGED),
            (self.fixed, FIXED),
            (self.key.is_some(), KEY),
            (self.warning.is_some(), WARNING),
        ]
        .iter()
        .filter(|(set, _)| *set)
        .fold(0, |flags, (_, bit)| flags | bit);
        out.push(flags);
        let at = out.len();
        out.extend_from_slice(&[0; 8]);
        pgn(out);
        let len = (out.len() - at - 8) as u64;
        out[at..at + 8].copy_from_slice(&len.to_le_bytes());
        piece(self.source, out);
        if let Some(key) = self.key {
            piece(key, out);
        }
        if let Some(warning) = self.warning {
            let (kind, a, b) = match warning.number {
                GameNumber::Known { run, input } => (0, run, input),
                GameNumber::Later { in_batch } => (1, in_batch, 0),
            };
            out.push(kind);
            out.extend_from_slice(&a.to_le_bytes());
            out.extend_from_slice(&b.to_le_bytes());
            piece(warning.place.as_bytes(), out);
            piece(warning.message.as_bytes(), out);
        }
    }
}

/// Appends `bytes` after its length.
fn piece(bytes: &[u8], out: &mut Vec<u8>) {
    out.extend_from_slice(&(bytes.len() as u64).to_le_bytes());
    out.extend_from_slice(bytes);
}

/// The frames of a batch's output bytes, in order. Stops at the first that is cut short (which
/// [`Frame::write`] never leaves).
pub fn frames(bytes: &[u8]) -> Frames<'_> {
    Frames { rest: bytes }
}

/// See [`frames`].
pub struct Frames<'a> {
    rest: &'a [u8],
}

impl<'a> Frames<'a> {
    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        if self.rest.len() < n {
            self.rest = &[];
            return None;
        }
        let (taken, rest) = self.rest.split_at(n);
        self.rest = rest;
        Some(taken)
    }

    fn number(&mut self) -> Option<u64> {
        Some(u64::from_le_bytes(self.take(8)?.try_into().ok()?))
    }

    fn piece(&mut self) -> Option<&'a [u8]> {
        let len = usize::try_from(self.number()?).ok()?;
        self.take(len)
    }
}

impl<'a> Iterator for Frames<'a> {
    type Item = Frame<'a>;

    fn next(&mut self) -> Option<Frame<'a>> {
        let flags = *self.take(1)?.first()?;
        let pgn = self.piece()?;
        let source = self.piece()?;
        let key = if flags & KEY != 0 {
            Some(self.piece()?)
        } else {
            None
        };
        let warning = if flags & WARNING != 0 {
            let kind = *self.take(1)?.first()?;
            let (a, b) = (self.number()?, self.number()?);
            let number = if kind == 0 {
                GameNumber::Known { run: a, input: b }
            } else {
                GameNumber::Later { in_batch: a }
            };
            let place = std::str::from_utf8(self.piece()?).ok()?;
            let message = std::str::from_utf8(self.piece()?).ok()?;
            Some(Warning {
                number,
                place,
                message,
            })
        } else {
            None
        };
        Some(Frame {
            rejected: flags & REJECTED != 0,
            invalid: flags & INVALID != 0,
            unchanged: flags & UNCHANGED != 0,
            fixed: flags & FIXED != 0,
            pgn,
            source,
            key,
            warning,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_read_back_as_written() {
        let written = [
            Frame {
                pgn: b"[Event \"a\"]\n\n*\n\n",
                key: Some(b"k"),
                ..Frame::default()
            },
            Frame {
                rejected: true,
                invalid: true,
                source: b"1. e4 junk",
                ..Frame::default()
            },
            Frame {
                unchanged: true,
                fixed: true,
                pgn: b"x",
                source: b"x",
                key: Some(b""),
                warning: Some(Warning {
                    number: GameNumber::Later { in_batch: 3 },
                    place: "a.pgn:4:1",
                    message: "Result \"1-0\" replaced by \"0-1\"",
                }),
                ..Frame::default()
            },
            Frame {
                warning: Some(Warning {
                    number: GameNumber::Known { run: 9, input: 2 },
                    place: "é.pgn",
                    message: "",
                }),
                ..Frame::default()
            },
        ];
        let mut bytes = Vec::new();
        for frame in &written {
            frame.write(&mut bytes);
        }
        assert_eq!(frames(&bytes).collect::<Vec<_>>(), written);
        // Cut short: the frames before the cut only.
        let mut one = Vec::new();
        written[0].write(&mut one);
        assert_eq!(frames(&bytes[..one.len() + 3]).count(), 1);
    }
}
