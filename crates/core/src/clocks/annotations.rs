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

use arbiter_pgn::{LICHESS_CLOCK_LEN, lichess_clock};

use crate::clocks::commands::{Command, Eval, Malformed, Millis, eval, read_commands};

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
        if let Some((eval, depth, ms)) = lichess_eval_and_clock(comment.as_bytes()) {
            self.clock.get_or_insert(ms);
            if self.eval.is_none() {
                self.eval = Some(eval);
                self.eval_depth = depth;
            }
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

/// The evaluation and clock of a comment that is exactly lichess's
/// ` [%eval VALUE] [%clk H:MM:SS] ` (a lichess game with computer analysis), when the value
/// reads as one (`0.17`, `#-3`, `0.36,22`): what [`read_commands`] reads there, in a tenth of
/// its instructions. `None` for anything else, which `read_commands` then reads. Always inlined:
/// as a call, its result went through memory (20 instructions a comment).
#[inline(always)]
pub(crate) fn lichess_eval_and_clock(bytes: &[u8]) -> Option<(Eval, Option<u32>, Millis)> {
    let (head, clock) = bytes.split_last_chunk::<LICHESS_CLOCK_LEN>()?;
    let ms = lichess_clock(clock)?;
    let (open, rest) = head.split_first_chunk::<8>()?;
    if *open != *b" [%eval " {
        return None;
    }
    let value = rest.strip_suffix(b"]")?;
    // `lichess_eval` reads digits, `#`, `-` and `.` only; in any other value a `[` or `]` would
    // end the command elsewhere: the general reading decides.
    if let Some(eval) = lichess_eval(value) {
        return Some((eval, None, ms));
    }
    if value.iter().any(|&b| b == b'[' || b == b']') {
        return None;
    }
    let (eval, depth) = eval(value.trim_ascii()).ok()?;
    Some((eval, depth, ms))
}

/// A `[%eval]` value in the two forms lichess writes, pawns with two decimals or one (`0.17`,
/// `-1.25`, `2.5`) and mate in N (`#4`, `#-3`), read in one pass: what [`eval`] reads there, in a
/// fifth of its instructions. `None` for any other form (a sign `+`, a depth, other decimals,
/// spaces, long numbers), which `eval` then reads.
#[inline]
fn lichess_eval(value: &[u8]) -> Option<Eval> {
    let (mate, value) = match value {
        [b'#', rest @ ..] => (true, rest),
        _ => (false, value),
    };
    let (negative, value) = match value {
        [b'-', rest @ ..] => (true, rest),
        _ => (false, value),
    };
    // At most 6 digits: the value fits an `i32` with its two decimals.
    let number = |digits: &[u8]| {
        (!digits.is_empty() && digits.len() <= 6 && digits.iter().all(u8::is_ascii_digit))
            .then(|| digits.iter().fold(0, |n, &b| n * 10 + i32::from(b - b'0')))
    };
    let sign = |n: i32| if negative { -n } else { n };
    if mate {
        return number(value).map(|n| Eval::Mate(sign(n)));
    }
    // Two decimals, or one where the second is a zero lichess leaves out (`2.5`).
    let (whole, hundredths) = match value {
        [whole @ .., b'.', tens, units] => (whole, number(&[*tens, *units])?),
        [whole @ .., b'.', tens] => (whole, number(&[*tens])? * 10),
        _ => return None,
    };
    let pawns = number(whole)?;
    Some(Eval::Centipawns(sign(pawns * 100 + hundredths)))
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

    #[test]
    fn the_lichess_clock_shortcut_reads_every_digit_as_the_general_reading_does() {
        // Every value of each digit, and the bytes just past `0`-`9` (`:` to `?`), in turn.
        for at in [7, 9, 10, 12, 13] {
            for b in b'0'..=b'?' {
                let mut comment = *b" [%clk 1:23:45] ";
                comment[at] = b;
                let comment = std::str::from_utf8(&comment).unwrap();
                let mut general = Vec::new();
                read_commands(comment, |c| general.push(c));
                let expected = match general.as_slice() {
                    [Command::Clock(ms)] => Some(*ms),
                    _ => None,
                };
                assert_eq!(lichess_clock(comment.as_bytes()), expected, "{comment:?}");
            }
        }
    }

    #[test]
    fn the_lichess_eval_value_agrees_with_the_general_reading() {
        // Every value built from these pieces, the forms lichess writes and their near misses.
        let mut tried = 0;
        for mark in ["", "#", "+", "#+"] {
            for sign in ["", "-", "+", "--"] {
                for whole in ["", "0", "7", "12", "007", "999999", "1234567", "x"] {
                    for fraction in ["", ".", ".5", ".17", ".00", ".125", ".1x", ",22", " "] {
                        let value = format!("{mark}{sign}{whole}{fraction}");
                        if let Some(fast) = lichess_eval(value.as_bytes()) {
                            tried += 1;
                            assert_eq!(Ok((fast, None)), eval(value.as_bytes()), "{value:?}");
                        }
                    }
                }
            }
        }
        // Both forms, with and without a sign, were read by the shortcut.
        assert!(tried >= 20, "{tried}");
        assert_eq!(lichess_eval(b"-1.25"), Some(Eval::Centipawns(-125)));
        assert_eq!(lichess_eval(b"#-3"), Some(Eval::Mate(-3)));
        assert_eq!(lichess_eval(b"2.5"), Some(Eval::Centipawns(250)));
        assert_eq!(lichess_eval(b"-0.5"), Some(Eval::Centipawns(-50)));
        assert_eq!(lichess_eval(b"0.125"), None);
        assert_eq!(lichess_eval(b"+0.50"), None);
    }

    #[test]
    fn the_lichess_eval_shortcut_agrees_with_the_general_reading() {
        for comment in [
            " [%eval 0.17] [%clk 0:03:00] ",
            " [%eval -1.25] [%clk 0:02:59] ",
            " [%eval #-3] [%clk 1:05:09] ",
            " [%eval #4] [%clk 0:00:01] ",
            " [%eval 0.36,22] [%clk 0:03:00] ",
            " [%eval  +2 ] [%clk 0:03:00] ",
            " [%eval .5] [%clk 0:03:00] ",
            " [%eval abc] [%clk 0:03:00] ",
            " [%eval ] [%clk 0:03:00] ",
            " [%eval 0.1 [%clk 0:03:00] ",
            " [%eval 0.1 [x] [%clk 0:03:00] ",
            " [%eval 99999999999] [%clk 0:03:00] ",
            " [%eval 0.17] [%clk 0:03:0x] ",
            " [%eval 0.17] [%clk 0:03:00]  ",
            " [%eval 0.17][%clk 0:03:00] ",
            " [%evals 0.17] [%clk 0:03:00] ",
        ] {
            let mut general = MoveAnnotations::default();
            let mut bad = Vec::new();
            read_commands(comment, |command| match command {
                Command::Clock(ms) => {
                    general.clock.get_or_insert(ms);
                }
                Command::Emt(ms) => {
                    general.emt.get_or_insert(ms);
                }
                Command::Eval { eval, depth } => {
                    if general.eval.is_none() {
                        general.eval = Some(eval);
                        general.eval_depth = depth;
                    }
                }
                Command::Malformed(m) => bad.push(m.to_string()),
            });
            let mut notes = MoveAnnotations::default();
            let mut warnings = Vec::new();
            notes.read(comment, |m| warnings.push(m.to_string()));
            assert_eq!((notes, warnings), (general, bad), "{comment:?}");
            if let Some((eval, depth, ms)) = lichess_eval_and_clock(comment.as_bytes()) {
                assert_eq!(
                    (Some(eval), depth, Some(ms)),
                    (general.eval, general.eval_depth, general.clock)
                );
            }
        }
        assert_eq!(
            lichess_eval_and_clock(b" [%eval 0.36,22] [%clk 0:03:00] "),
            Some((Eval::Centipawns(36), Some(22), 180_000))
        );
        assert_eq!(
            lichess_eval_and_clock(b" [%eval abc] [%clk 0:03:00] "),
            None
        );
    }
}
