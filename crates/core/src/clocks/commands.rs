//! Commands embedded in a move's comment: `[%clk 1:05:09]`, `[%emt 0:00:12]`, `[%eval 0.36]`,
//! `[%eval #-3]`, read where they are, without allocating.
//!
//! Accepted leniently:
//! - any spacing inside the brackets (`[%clk  1:05:09 ]`, `[% eval 0.36]`) and command names in
//!   any case (`[%CLK 0:03:00]`);
//! - clock fractions of any length (`0:03:00.5`, `0:03:00.25`, `0:03:00.125`), rounded to the
//!   millisecond; one- or two-digit minutes and seconds (`1:5:9`);
//! - evaluations as pawns with any number of decimals (`0.36`, `-1.25`, `+2`, `.5`, `3.`), rounded
//!   to the centipawn (half away from zero), or as mate in N (`#4`, `#-3`, `#+2`), either with a
//!   search depth after a comma (`0.36,22`, lichess);
//! - unknown commands (`[%csl Ra1]`, `[%cal Ge2e4]`, anything else) and any text around the
//!   commands are skipped.
//!
//! A known command that cannot be read (`[%clk 1:7x]`, `[%eval abc]`, `[%clk 0:03:00` with no
//! `]`) is handed out as a [`Malformed`] value, with its byte offset in the comment and a message
//! in plain words; it never stops the reading of the comment or of the game. A command ends at
//! its `]`, or where the next command (`[%`) starts, or at the comment's end: in
//! `[%clk 0:00:05 [%emt 0:00:12]` the clock is unclosed and the time spent is read.
//!
//! A comment with no `[` costs one byte search (a loop under 32 bytes, [`memchr`] above); the
//! lichess forms `{ [%clk 0:03:00] }` and `{ [%eval 0.17] [%clk 0:03:00] }` are read in one pass
//! over their bytes, in 30 to 40 ns each (`benches/clocks.rs`).
//!
//! # Examples
//!
//! ```
//! use arbiter_core::clocks::{Command, Eval, read_commands};
//!
//! let mut seen = Vec::new();
//! read_commands(" [%eval #-3] [%csl Ra1] [%clk 0:03:00.5] ", |command| seen.push(command));
//! assert_eq!(seen, [Command::Eval { eval: Eval::Mate(-3), depth: None }, Command::Clock(180_500)]);
//! ```

use std::fmt;

/// A duration in milliseconds: a clock reading or the time spent on a move. `u32` holds up to
/// 1,193 hours (49 days), more than any clock in a PGN archive; a larger value is
/// [`CommandProblem::TooLarge`].
pub type Millis = u32;

/// An engine evaluation, from White's point of view.
#[derive(Copy, Clone, Debug, Eq, PartialEq, Hash)]
pub enum Eval {
    /// A score in centipawns (hundredths of a pawn): positive is better for White.
    Centipawns(i32),
    /// Mate in N moves: positive when White mates, negative when Black mates. `#0` (the side to
    /// move is mated, as some tools write it) is `Mate(0)`.
    Mate(i32),
}

/// One command found in a comment.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub enum Command<'a> {
    /// `[%clk H:MM:SS]`: the mover's clock after the move.
    Clock(Millis),
    /// `[%emt H:MM:SS]`: the time the mover spent on the move.
    Emt(Millis),
    /// `[%eval ...]`: the engine's evaluation of the position after the move, with the search
    /// depth when one is given (`[%eval 0.36,22]`).
    Eval {
        /// The score.
        eval: Eval,
        /// The depth after the comma, if any.
        depth: Option<u32>,
    },
    /// A `clk`, `emt` or `eval` command that cannot be read.
    Malformed(Malformed<'a>),
}

/// A known command that cannot be read. Its [`Display`](fmt::Display) is the warning's message,
/// for example ``"`[%clk 1:7x]`: the clock is not H:MM:SS"``.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub struct Malformed<'a> {
    /// Byte offset of the command's `[` within the comment text.
    pub offset: usize,
    /// The command as written, from `[` to `]` included (when there is no `]`, up to the next
    /// command or the end of the comment, trimmed).
    pub text: &'a str,
    /// What is wrong with it.
    pub problem: CommandProblem,
}

/// What is wrong with a malformed command.
#[derive(Copy, Clone, Debug, Eq, PartialEq, Hash)]
pub enum CommandProblem {
    /// A `clk` value that is not `H:MM:SS` with an optional fraction.
    Clock,
    /// An `emt` value that is not `H:MM:SS` with an optional fraction.
    Emt,
    /// A clock or time spent whose minutes or seconds are 60 or more.
    Sexagesimal,
    /// A value too large to hold (more than 1,193 hours, or a score beyond 21 million pawns).
    TooLarge,
    /// An `eval` value that is neither pawns nor `#N`, or whose depth is not a number.
    Eval,
    /// A known command without the `]` that closes it.
    Unclosed,
}

impl fmt::Display for CommandProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            CommandProblem::Clock => "the clock is not H:MM:SS",
            CommandProblem::Emt => "the time spent is not H:MM:SS",
            CommandProblem::Sexagesimal => "minutes and seconds must be below 60",
            CommandProblem::TooLarge => "the value is too large",
            CommandProblem::Eval => "the evaluation is neither pawns (0.36) nor mate in N (#-3)",
            CommandProblem::Unclosed => "the command has no closing `]`",
        })
    }
}

/// How much of a malformed command a message quotes, in bytes (then cut at a character boundary).
const QUOTED: usize = 40;

impl fmt::Display for Malformed<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.text.len() <= QUOTED {
            write!(f, "`{}`: {}", self.text, self.problem)
        } else {
            let mut end = QUOTED;
            while !self.text.is_char_boundary(end) {
                end -= 1;
            }
            write!(f, "`{}...`: {}", &self.text[..end], self.problem)
        }
    }
}

/// Calls `each` for every `clk`, `emt` and `eval` command in `comment` (the text between `{` and
/// `}`), in order, and for every one of them that cannot be read. Other commands and text are
/// skipped. Never allocates.
pub fn read_commands<'a>(comment: &'a str, mut each: impl FnMut(Command<'a>)) {
    let bytes = comment.as_bytes();
    let mut from = 0;
    while let Some(found) = find(b'[', &bytes[from..]) {
        let open = from + found;
        from = open + 1;
        if bytes.get(from) != Some(&b'%') {
            continue;
        }
        let name_start = skip_space(bytes, from + 1);
        let name_end = name_start
            + bytes[name_start..]
                .iter()
                .position(|&b| b == b']' || b == b'[' || b.is_ascii_whitespace())
                .unwrap_or(bytes.len() - name_start);
        let kind = kind(&bytes[name_start..name_end]);
        let close = find(b']', &bytes[name_end..]).map(|at| name_end + at);
        // A command ends at its `]`, or where the next one starts, or at the comment's end: an
        // unclosed command never swallows the next.
        if let Some(next) = next_command(bytes, name_end, close.unwrap_or(bytes.len())) {
            if kind != Kind::Other {
                each(Command::Malformed(Malformed {
                    offset: open,
                    text: comment[open..next].trim_end(),
                    problem: CommandProblem::Unclosed,
                }));
            }
            from = next;
            continue;
        }
        let Some(close) = close else {
            if kind != Kind::Other {
                each(Command::Malformed(Malformed {
                    offset: open,
                    text: comment[open..].trim_end(),
                    problem: CommandProblem::Unclosed,
                }));
            }
            return;
        };
        from = close + 1;
        let value = trim(&bytes[name_end..close]);
        let command = match kind {
            Kind::Other => continue,
            Kind::Clock => duration(value, CommandProblem::Clock).map(Command::Clock),
            Kind::Emt => duration(value, CommandProblem::Emt).map(Command::Emt),
            Kind::Eval => eval(value).map(|(eval, depth)| Command::Eval { eval, depth }),
        };
        each(command.unwrap_or_else(|problem| {
            Command::Malformed(Malformed {
                offset: open,
                text: &comment[open..=close],
                problem,
            })
        }));
    }
}

/// Where the next command (`[%`) starts in `bytes[from..to]`, if one does.
#[inline]
fn next_command(bytes: &[u8], mut from: usize, to: usize) -> Option<usize> {
    while let Some(at) = find(b'[', &bytes[from..to]) {
        let open = from + at;
        if bytes.get(open + 1) == Some(&b'%') {
            return Some(open);
        }
        from = open + 1;
    }
    None
}

/// The commands read; `Other` is skipped.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
enum Kind {
    Clock,
    Emt,
    Eval,
    Other,
}

/// The position of `byte` in `haystack`. Under 32 bytes (most lichess comments and what follows
/// a command's name) a plain loop beats [`memchr`]'s setup: with the H:MM:SS fast path, 343
/// instructions a lichess comment instead of 583 (callgrind). Longer text goes to `memchr`.
#[inline]
fn find(byte: u8, haystack: &[u8]) -> Option<usize> {
    if haystack.len() < 32 {
        haystack.iter().position(|&b| b == byte)
    } else {
        memchr::memchr(byte, haystack)
    }
}

/// The command a name (`clk`, `EMT`, `eval`...) stands for.
fn kind(name: &[u8]) -> Kind {
    match name.len() {
        3 if name.eq_ignore_ascii_case(b"clk") => Kind::Clock,
        3 if name.eq_ignore_ascii_case(b"emt") => Kind::Emt,
        4 if name.eq_ignore_ascii_case(b"eval") => Kind::Eval,
        _ => Kind::Other,
    }
}

/// The first index at or after `at` that is not ASCII whitespace.
fn skip_space(bytes: &[u8], mut at: usize) -> usize {
    while bytes.get(at).is_some_and(u8::is_ascii_whitespace) {
        at += 1;
    }
    at
}

/// `bytes` without ASCII whitespace at either end.
fn trim(bytes: &[u8]) -> &[u8] {
    bytes.trim_ascii()
}

/// Reads a run of ASCII digits at the start of `bytes` as a number: (value, digits read), or
/// `None` when the value overflows `u64`.
fn digits(bytes: &[u8]) -> Option<(u64, usize)> {
    let mut value: u64 = 0;
    let mut count = 0;
    for &b in bytes {
        if !b.is_ascii_digit() {
            break;
        }
        value = value.checked_mul(10)?.checked_add(u64::from(b - b'0'))?;
        count += 1;
    }
    Some((value, count))
}

/// A fraction's digits (after the `.`) in thousandths, rounded half up: `5` is 500, `125` is 125,
/// `1236` is 124. Every byte must be a digit.
fn thousandths(bytes: &[u8]) -> Option<u64> {
    if !bytes.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let mut value = 0;
    for i in 0..3 {
        value = value * 10 + bytes.get(i).map_or(0, |&b| u64::from(b - b'0'));
    }
    Some(value + u64::from(bytes.get(3).is_some_and(|&b| b >= b'5')))
}

/// One or two ASCII digits at the start of `bytes`: (value, digits read); (0, 0) when none.
#[inline]
fn one_or_two_digits(bytes: &[u8]) -> (u64, usize) {
    let digit = |i: usize| {
        bytes
            .get(i)
            .filter(|b| b.is_ascii_digit())
            .map(|&b| u64::from(b - b'0'))
    };
    match (digit(0), digit(1)) {
        (Some(tens), Some(units)) => (tens * 10 + units, 2),
        (Some(units), None) => (units, 1),
        _ => (0, 0),
    }
}

/// `H:MM:SS` with an optional `.fraction`, in milliseconds. `syntax` is the problem to report for
/// a value of the wrong shape.
fn duration(value: &[u8], syntax: CommandProblem) -> Result<Millis, CommandProblem> {
    // The form of nearly every clock in an archive, read in a few instructions.
    if let &[h, b':', m1, m2, b':', s1, s2] = value
        && [h, m1, m2, s1, s2].iter().all(u8::is_ascii_digit)
        && m1 < b'6'
        && s1 < b'6'
    {
        let n = |b: u8| Millis::from(b - b'0');
        return Ok(((n(h) * 60 + n(m1) * 10 + n(m2)) * 60 + n(s1) * 10 + n(s2)) * 1000);
    }
    let h = value.iter().take_while(|b| b.is_ascii_digit()).count();
    // Saturating: a value beyond u64 is as much too large as one beyond u32.
    let hours = value[..h].iter().fold(0u64, |n, &b| {
        n.saturating_mul(10).saturating_add(u64::from(b - b'0'))
    });
    let rest = &value[h..];
    if h == 0 || rest.first() != Some(&b':') {
        return Err(syntax);
    }
    let (minutes, m) = one_or_two_digits(&rest[1..]);
    let rest = &rest[1 + m..];
    if m == 0 || rest.first() != Some(&b':') {
        return Err(syntax);
    }
    let (seconds, s) = one_or_two_digits(&rest[1..]);
    let rest = &rest[1 + s..];
    if s == 0 {
        return Err(syntax);
    }
    let fraction = match rest {
        [] => 0,
        [b'.', fraction @ ..] => thousandths(fraction).ok_or(syntax)?,
        _ => return Err(syntax),
    };
    if minutes >= 60 || seconds >= 60 {
        return Err(CommandProblem::Sexagesimal);
    }
    let ms = hours
        .saturating_mul(3_600_000)
        .saturating_add((minutes * 60 + seconds) * 1000 + fraction);
    Millis::try_from(ms).map_err(|_| CommandProblem::TooLarge)
}

/// An evaluation, pawns or `#N`, with an optional `,depth`.
pub(crate) fn eval(value: &[u8]) -> Result<(Eval, Option<u32>), CommandProblem> {
    let (score, depth) = match memchr::memchr(b',', value) {
        Some(comma) => {
            let depth = trim(&value[comma + 1..]);
            let (n, count) = digits(depth).ok_or(CommandProblem::Eval)?;
            if count == 0 || count != depth.len() {
                return Err(CommandProblem::Eval);
            }
            let n = u32::try_from(n).map_err(|_| CommandProblem::TooLarge)?;
            (trim(&value[..comma]), Some(n))
        }
        None => (value, None),
    };
    let (mate, score) = match score {
        [b'#', rest @ ..] => (true, rest),
        _ => (false, score),
    };
    let (negative, score) = match score {
        [b'-', rest @ ..] => (true, rest),
        [b'+', rest @ ..] => (false, rest),
        _ => (false, score),
    };
    let (whole, w) = digits(score).ok_or(CommandProblem::TooLarge)?;
    let eval = if mate {
        if w == 0 || w != score.len() {
            return Err(CommandProblem::Eval);
        }
        Eval::Mate(signed(whole, negative)?)
    } else {
        let fraction = match &score[w..] {
            [] if w > 0 => 0,
            [b'.', fraction @ ..] if w > 0 || !fraction.is_empty() => {
                thousandths(fraction).ok_or(CommandProblem::Eval)?
            }
            _ => return Err(CommandProblem::Eval),
        };
        // Thousandths of a pawn to centipawns, half away from zero (the sign comes after).
        let cp = whole
            .checked_mul(100)
            .and_then(|cp| cp.checked_add((fraction + 5) / 10))
            .ok_or(CommandProblem::TooLarge)?;
        Eval::Centipawns(signed(cp, negative)?)
    };
    Ok((eval, depth))
}

/// `magnitude` with its sign, if it fits an `i32` (down to `i32::MIN`, whose magnitude does not
/// fit unsigned).
fn signed(magnitude: u64, negative: bool) -> Result<i32, CommandProblem> {
    let value = i64::try_from(magnitude).map_err(|_| CommandProblem::TooLarge)?;
    i32::try_from(if negative { -value } else { value }).map_err(|_| CommandProblem::TooLarge)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(comment: &str) -> Vec<Command<'_>> {
        let mut seen = Vec::new();
        read_commands(comment, |c| seen.push(c));
        seen
    }

    fn one(comment: &str) -> Command<'_> {
        let seen = all(comment);
        assert_eq!(seen.len(), 1, "{comment:?} gave {seen:?}");
        seen[0]
    }

    fn cp(value: i32) -> Command<'static> {
        Command::Eval {
            eval: Eval::Centipawns(value),
            depth: None,
        }
    }

    fn mate(value: i32) -> Command<'static> {
        Command::Eval {
            eval: Eval::Mate(value),
            depth: None,
        }
    }

    fn problem(comment: &str) -> (usize, String) {
        match one(comment) {
            Command::Malformed(bad) => (bad.offset, bad.to_string()),
            other => panic!("{comment:?} gave {other:?}"),
        }
    }

    #[test]
    fn sizes() {
        assert!(size_of::<Command<'_>>() <= 40);
        assert_eq!(size_of::<Eval>(), 8);
    }

    #[test]
    fn lichess_forms() {
        assert_eq!(all(" [%clk 0:03:00] "), [Command::Clock(180_000)]);
        assert_eq!(
            all(" [%eval 0.17] [%clk 0:03:00] "),
            [cp(17), Command::Clock(180_000)]
        );
        assert_eq!(
            all(" [%eval #-3] [%clk 1:05:09] "),
            [mate(-3), Command::Clock(3_909_000)]
        );
    }

    #[test]
    fn clock_fractions_and_spacing() {
        assert_eq!(one("[%clk 0:03:00.5]"), Command::Clock(180_500));
        assert_eq!(one("[%clk 0:03:00.25]"), Command::Clock(180_250));
        assert_eq!(one("[%clk 0:03:00.125]"), Command::Clock(180_125));
        assert_eq!(one("[%clk 0:00:00.1236]"), Command::Clock(124));
        assert_eq!(one("[%clk 0:00:01.]"), Command::Clock(1_000));
        assert_eq!(one("[%clk  1:05:09 ]"), Command::Clock(3_909_000));
        assert_eq!(one("[%CLK\t1:5:9]"), Command::Clock(3_909_000));
        assert_eq!(one("[% clk 0:00:09]"), Command::Clock(9_000));
        assert_eq!(one("[%clk 720:00:00]"), Command::Clock(2_592_000_000));
        // The H:MM:SS fast path and its edges.
        assert_eq!(one("[%clk 9:59:59]"), Command::Clock(35_999_000));
        assert_eq!(one("[%clk 0:00:00]"), Command::Clock(0));
        assert!(
            matches!(one("[%clk 0:60:00]"), Command::Malformed(m) if m.problem == CommandProblem::Sexagesimal)
        );
        assert!(
            matches!(one("[%clk 0:00:60]"), Command::Malformed(m) if m.problem == CommandProblem::Sexagesimal)
        );
        assert!(
            matches!(one("[%clk 0:5x:00]"), Command::Malformed(m) if m.problem == CommandProblem::Clock)
        );
        assert_eq!(one("[%emt 0:00:12]"), Command::Emt(12_000));
        assert_eq!(one("x[%Emt 0:01:02.3]y"), Command::Emt(62_300));
    }

    #[test]
    fn evals() {
        assert_eq!(one("[%eval 0.36]"), cp(36));
        assert_eq!(one("[%eval -1.25]"), cp(-125));
        assert_eq!(one("[%eval +2]"), cp(200));
        assert_eq!(one("[%eval 3.]"), cp(300));
        assert_eq!(one("[%eval .5]"), cp(50));
        assert_eq!(one("[%eval -0.005]"), cp(-1));
        assert_eq!(one("[%eval 0.004]"), cp(0));
        assert_eq!(one("[%eval 0.29]"), cp(29));
        assert_eq!(one("[%eval -12.3]"), cp(-1230));
        assert_eq!(one("[%eval #4]"), mate(4));
        assert_eq!(one("[%eval #+2]"), mate(2));
        assert_eq!(one("[%eval #-3]"), mate(-3));
        assert_eq!(one("[%eval #0]"), mate(0));
        assert_eq!(
            one("[%eval 0.36,22]"),
            Command::Eval {
                eval: Eval::Centipawns(36),
                depth: Some(22)
            }
        );
        assert_eq!(
            one("[%EVAL #-1 , 30 ]"),
            Command::Eval {
                eval: Eval::Mate(-1),
                depth: Some(30)
            }
        );
    }

    #[test]
    fn other_commands_and_text_are_skipped() {
        assert!(all("").is_empty());
        assert!(all(" just a comment, no commands ").is_empty());
        assert!(all("[a] [b] [%csl Ra1,Gb2] [%cal Ge2e4] [%clkx 1] [%]").is_empty());
        assert!(all("[%csl Ra1").is_empty());
        assert_eq!(
            all("Good move [%csl Ra1][%clk 0:00:05][%cal Ge2e4] [%emt 0:00:01]!"),
            [Command::Clock(5_000), Command::Emt(1_000)]
        );
    }

    #[test]
    fn malformed_commands_are_warnings_with_offsets() {
        assert_eq!(
            problem(" [%clk 1:7x]"),
            (1, "`[%clk 1:7x]`: the clock is not H:MM:SS".to_string())
        );
        assert_eq!(
            problem("ab [%eval abc]"),
            (
                3,
                "`[%eval abc]`: the evaluation is neither pawns (0.36) nor mate in N (#-3)"
                    .to_string()
            )
        );
        assert_eq!(
            problem("[%emt 12]").1,
            "`[%emt 12]`: the time spent is not H:MM:SS"
        );
        assert_eq!(
            problem("[%clk 0:61:00]").1,
            "`[%clk 0:61:00]`: minutes and seconds must be below 60"
        );
        assert_eq!(
            problem("[%clk 1200:00:00]").1,
            "`[%clk 1200:00:00]`: the value is too large"
        );
        assert_eq!(
            problem("[%clk 99999999999999999999:00:00]").1,
            "`[%clk 99999999999999999999:00:00]`: the value is too large"
        );
        assert_eq!(
            problem(" [%clk 0:03:00 "),
            (
                1,
                "`[%clk 0:03:00`: the command has no closing `]`".to_string()
            )
        );
        for bad in [
            "[%clk]",
            "[%clk 0:03]",
            "[%clk 0:03:00 x]",
            "[%clk 0:003:00]",
            "[%clk :03:00]",
            "[%clk 0:03:00.5x]",
            "[%clk -0:03:00]",
        ] {
            assert!(
                matches!(one(bad), Command::Malformed(m) if m.problem == CommandProblem::Clock)
            );
        }
        for bad in [
            "[%eval]",
            "[%eval #]",
            "[%eval -]",
            "[%eval .]",
            "[%eval 1.2.3]",
            "[%eval #1.5]",
            "[%eval 0.3,]",
            "[%eval 0.3,x]",
        ] {
            assert!(
                matches!(one(bad), Command::Malformed(m) if m.problem == CommandProblem::Eval),
                "{bad}"
            );
        }
        assert_eq!(one("[%eval 99999999999]"), {
            let text = "[%eval 99999999999]";
            Command::Malformed(Malformed {
                offset: 0,
                text,
                problem: CommandProblem::TooLarge,
            })
        });
    }

    #[test]
    fn an_unclosed_command_ends_where_the_next_one_starts() {
        let seen = all("[%clk 0:00:05 [%emt 0:00:12] [%eval 0.17]");
        assert_eq!(seen.len(), 3, "{seen:?}");
        assert_eq!(
            seen[0],
            Command::Malformed(Malformed {
                offset: 0,
                text: "[%clk 0:00:05",
                problem: CommandProblem::Unclosed,
            })
        );
        assert_eq!(seen[1..], [Command::Emt(12_000), cp(17)]);
        // The last command of the comment, unclosed, ends at the comment's end.
        let seen = all("[%eval 0.1] [%csl Ra1 [%clk 0:01:00] x [%emt 0:00:02");
        assert_eq!(seen.len(), 3, "{seen:?}");
        assert_eq!(seen[..2], [cp(10), Command::Clock(60_000)]);
        assert!(
            matches!(seen[2], Command::Malformed(m) if m.text == "[%emt 0:00:02" && m.offset == 39)
        );
        // A `[` that starts no command is part of the value.
        assert!(
            matches!(one("[%clk [0:00:05]"), Command::Malformed(m) if m.problem == CommandProblem::Clock)
        );
    }

    #[test]
    fn every_value_of_32_bits_fits_and_no_more() {
        assert_eq!(one("[%eval -21474836.48]"), cp(i32::MIN));
        assert_eq!(one("[%eval 21474836.47]"), cp(i32::MAX));
        assert_eq!(one("[%eval #-2147483648]"), mate(i32::MIN));
        assert_eq!(one("[%eval #2147483647]"), mate(i32::MAX));
        for bad in [
            "[%eval -21474836.49]",
            "[%eval 21474836.48]",
            "[%eval #-2147483649]",
            "[%eval #2147483648]",
            "[%eval #-99999999999999999999]",
        ] {
            assert!(
                matches!(one(bad), Command::Malformed(m) if m.problem == CommandProblem::TooLarge),
                "{bad}"
            );
        }
    }

    #[test]
    fn reading_goes_on_after_a_malformed_command() {
        let seen = all("[%clk x] [%eval 0.5] [%clk 0:00:01]");
        assert_eq!(seen.len(), 3);
        assert!(matches!(seen[0], Command::Malformed(_)));
        assert_eq!(seen[1..], [cp(50), Command::Clock(1_000)]);
    }

    #[test]
    fn long_malformed_text_is_cut_in_the_message() {
        let comment = "[%eval ééééééééééééééééééééééééééééééééé]";
        let (_, message) = problem(comment);
        assert!(message.starts_with("`[%eval éééé"), "{message}");
        assert!(message.contains("...`: the evaluation"), "{message}");
        assert!(message.len() < comment.len() + 60);
    }
}
