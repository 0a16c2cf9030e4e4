//! The clock, time spent and evaluation of one move, gathered from the commands of its comments
//! into one small `Copy` value that a streaming visitor keeps and reuses.
//!
//! # Examples
//!
//! ```
//! use arbiter_core::clocks::{Eval, MoveAnnotations};
//!
//! let mut notes = MoveAnnotations::default();
//! let mut warnings = Vec::new();
//! // The comments after one move, as the reader hands them out.
//! for comment in [" [%eval 0.17] [%clk 0:03:00] ", " [%clk x] "] {
//!     notes.read(comment, |bad| warnings.push(bad.to_string()));
//! }
//! assert_eq!((notes.clock, notes.eval), (Some(180_000), Some(Eval::Centipawns(17))));
//! assert_eq!(warnings, ["`[%clk x]`: the clock is not H:MM:SS"]);
//! notes.clear(); // before the next move
//! ```

use crate::clocks::commands::{Command, Eval, Malformed, Millis, read_commands};

/// The annotations of one move, gathered from its comments: fill with [`MoveAnnotations::read`]
/// for each comment after the move, take the values, then [`MoveAnnotations::clear`] before the
/// next move. `Copy`, 40 bytes: keep one per visitor, not one per move.
#[derive(Copy, Clone, Debug, Default, Eq, PartialEq)]
pub struct MoveAnnotations {
    /// The first `[%clk]`: the mover's clock after the move.
    pub clock: Option<Millis>,
    /// The first `[%emt]`: the time spent on the move.
    pub emt: Option<Millis>,
    /// The first `[%eval]`.
    pub eval: Option<Eval>,
    /// The depth of that `[%eval]`, when given.
    pub eval_depth: Option<u32>,
}

impl MoveAnnotations {
    /// Reads the commands of `comment` into the fields still empty (the first command of a kind
    /// wins, as python-chess reads it), and hands each malformed command to `malformed`.
    #[inline]
    pub fn read<'a>(&mut self, comment: &'a str, mut malformed: impl FnMut(Malformed<'a>)) {
        if self.clock.is_none()
            && let Some(ms) = lichess_clock(comment.as_bytes())
        {
            self.clock = Some(ms);
            return;
        }
        read_commands(comment, |command| match command {
            Command::Clock(ms) => {
                self.clock.get_or_insert(ms);
            }
            Command::Emt(ms) => {
                self.emt.get_or_insert(ms);
            }
            Command::Eval { eval, depth } => {
                if self.eval.is_none() {
                    self.eval = Some(eval);
                    self.eval_depth = depth;
                }
            }
            Command::Malformed(bad) => malformed(bad),
        });
    }

    /// Forgets every value, for the next move.
    pub fn clear(&mut self) {
        *self = MoveAnnotations::default();
    }
}

/// The clock of a comment that is exactly lichess's ` [%clk H:MM:SS] ` (nearly every comment of
/// a lichess archive), read in a few instructions; `None` for anything else, which
/// [`read_commands`] then reads (and reports, when malformed).
#[inline]
pub(crate) fn lichess_clock(bytes: &[u8]) -> Option<Millis> {
    let bytes: &[u8; 16] = bytes.try_into().ok()?;
    // One comparison for the fixed bytes and the digits' high nibble (`0` to `?`), then the
    // five digits' low nibbles.
    const SHAPE: u128 = u128::from_le_bytes(*b" [%clk 0:00:00] ");
    const MASK: u128 = u128::from_le_bytes([
        0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xF0, 0xFF, 0xF0, 0xF0, 0xFF, 0xF0, 0xF0, 0xFF,
        0xFF,
    ]);
    if u128::from_le_bytes(*bytes) & MASK != SHAPE {
        return None;
    }
    let digit = |at: usize, max: u8| {
        let d = bytes[at] & 0x0F;
        (d <= max).then_some(u32::from(d))
    };
    let hours = digit(7, 9)?;
    let minutes = digit(9, 5)? * 10 + digit(10, 9)?;
    let seconds = digit(12, 5)? * 10 + digit(13, 9)?;
    Some(((hours * 60 + minutes) * 60 + seconds) * 1000)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn size() {
        assert!(size_of::<MoveAnnotations>() <= 40);
    }

    #[test]
    fn annotations_keep_the_first_of_each_kind() {
        let mut notes = MoveAnnotations::default();
        assert_eq!(notes, MoveAnnotations::default());
        let mut warnings = Vec::new();
        notes.read(" [%eval 0.36,22] [%clk 0:03:00] ", |m| {
            warnings.push(m.offset)
        });
        notes.read(" [%clk 0:02:00] [%emt 0:00:04] [%eval x] ", |m| {
            warnings.push(m.offset)
        });
        assert_eq!(
            notes,
            MoveAnnotations {
                clock: Some(180_000),
                emt: Some(4_000),
                eval: Some(Eval::Centipawns(36)),
                eval_depth: Some(22),
            }
        );
        assert_eq!(warnings, [31]);
        notes.clear();
        assert_eq!(notes, MoveAnnotations::default());
    }

    #[test]
    fn the_lichess_clock_shortcut_agrees_with_the_general_reading() {
        for comment in [
            " [%clk 0:03:00] ",
            " [%clk 9:59:59] ",
            " [%clk 1:05:09] ",
            " [%clk 0:60:00] ",
            " [%clk 0:03:0x] ",
            " [%clk 0:03:00]  ",
            " [%CLK 0:03:00] ",
            " [%clk 0:0?:00] ",
            " [%clk 0:03:5:] ",
            " [%clk 0;03:00] ",
        ] {
            let mut general = Vec::new();
            read_commands(comment, |c| general.push(c));
            let mut notes = MoveAnnotations::default();
            let mut bad = Vec::new();
            notes.read(comment, |m| bad.push(Command::Malformed(m)));
            let expected = match general.as_slice() {
                [Command::Clock(ms)] => (Some(*ms), vec![]),
                other => (None, other.to_vec()),
            };
            assert_eq!((notes.clock, bad), expected, "{comment:?}");
        }
        assert_eq!(lichess_clock(b" [%clk 1:05:09] "), Some(3_909_000));
        assert_eq!(lichess_clock(b" [%clk 0:60:00] "), None);
    }
}
