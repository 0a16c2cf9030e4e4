//! The vocabulary of what goes wrong in a game, shared by the replay that finds problems and the
//! writers that report them: a [`Problem`] (where, which ply and move, what is wrong), its
//! [`Code`] (a stable name such as `illegal_move`, with its default [`Severity`] and meaning) and
//! the counts per code ([`CodeCounts`]).
//!
//! A [`Problem`] is the one type for what goes wrong in a game: `validate` writes it as a
//! diagnostic through a view that adds the path and game number (`report::diagnostic`), and its
//! [`Display`](fmt::Display) form, `LINE:COL: ply P "SAN": message`, is the only writer of that
//! text.

mod code;

pub use code::{Code, CodeCounts, Severities, Severity};

use std::fmt;

use arbiter_pgn::{LineCol, Location};
use serde::Serialize;

/// One located problem of a game, without the path (the caller knows the source).
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct Problem {
    /// Where, within the game's bytes.
    pub location: Location,
    /// Where, in the source (filled in when the game ends).
    pub at: LineCol,
    /// The ply of the move concerned (counted from the game's start along its line), if any.
    pub ply: Option<u32>,
    /// The move as written, if the problem belongs to a move.
    pub san: Option<String>,
    /// The variation the move stands in, for a move off the main line.
    pub variation: Option<Variation>,
    /// Error or warning.
    pub severity: Severity,
    /// A stable code, e.g. `illegal_move`.
    pub code: Code,
    /// What is wrong, in plain words.
    pub message: String,
}

impl Problem {
    /// A problem of the game as a whole (no ply, move or variation) at `location`, `at` in the
    /// source.
    pub fn of_game(
        location: Location,
        at: LineCol,
        severity: Severity,
        code: Code,
        message: String,
    ) -> Problem {
        Problem {
            location,
            at,
            ply: None,
            san: None,
            variation: None,
            severity,
            code,
            message,
        }
    }
}

/// Where a move off the main line stands: how deep its variation is nested (1 for a variation
/// of the main line) and the ply after which that variation branches off its parent line.
#[derive(Copy, Clone, Debug, Eq, PartialEq, Serialize)]
pub struct Variation {
    /// 1 for a variation of the main line, 2 for a variation inside it, and so on.
    pub depth: u32,
    /// The variation replaces its parent's move after this ply (0: the first move).
    pub from_ply: u32,
}

/// `(variation from ply B)`, with `, D deep` when nested inside another variation.
impl fmt::Display for Variation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "(variation from ply {}", self.from_ply)?;
        if self.depth > 1 {
            write!(f, ", {} deep", self.depth)?;
        }
        f.write_str(")")
    }
}

/// `LINE:COL: ply P [(variation from ply B)] "SAN": message`, the ply and the move left out when
/// the problem has none: the text export's `error` field quotes.
impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: ", self.at)?;
        if let Some(ply) = self.ply {
            write!(f, "ply {ply} ")?;
        }
        if let Some(variation) = self.variation {
            write!(f, "{variation} ")?;
        }
        if let Some(san) = &self.san {
            write!(f, "\"{san}\": ")?;
        }
        f.write_str(&self.message)
    }
}

#[cfg(test)]
impl Problem {
    /// An illegal move at line 12, column 5, ply 17: the problem the tests of its text and of
    /// the diagnostics built on it share.
    pub(crate) fn sample() -> Problem {
        Problem {
            location: Location(40),
            at: LineCol {
                line: 12,
                column: 5,
            },
            ply: Some(17),
            san: Some("Nbd2".into()),
            variation: None,
            severity: Severity::Error,
            code: Code::IllegalMove,
            message: "no knight on the b-file can reach d2".into(),
        }
    }
}

/// At most this many problems are listed per game; the rest are counted. A 64 MB game of stray
/// `)` would otherwise hold 30 million problems (gigabytes) in memory.
pub(crate) const MAX_PROBLEMS: usize = 10_000;
