//! The diagnostic codes: one [`Code`] per kind of problem `validate` reports, each with its stable
//! name (`illegal_move`), its default [`Severity`] and one line saying what it means. `docs/diagnostics.md`
//! lists the same codes (a test keeps the two equal). [`Severities`] is what a run makes of them:
//! each code's own severity, or as `--strict`, `--deny` and `--allow` change it.

use arbiter_pgn::PgnErrorKind;
use serde::Serialize;

/// How bad a problem is.
#[derive(Copy, Clone, Debug, Eq, PartialEq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Severity {
    /// The game (or the variation) is invalid.
    Error,
    /// Accepted, but not what the standard asks for.
    Warning,
}

impl Severity {
    /// `error` or `warning`.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
        }
    }
}

/// Declares [`Code`] with its name, default severity and meaning, from one table: the codes of
/// the replay, then those of the reader's defects (declared beside each defect, in
/// [`PgnErrorKind`]), then those of the input and of our own failures.
macro_rules! codes {
    (
        $($(#[$doc:meta])* $variant:ident = $name:literal, $severity:ident, $meaning:literal;)*
        [reader]
        $($(#[$after_doc:meta])* $after:ident = $after_name:literal, $after_severity:ident,
            $after_meaning:literal;)*
    ) => {
        /// A kind of problem, with a stable machine-readable name.
        #[derive(Copy, Clone, Debug, Eq, PartialEq, Hash, PartialOrd, Ord)]
        pub enum Code {
            $($(#[$doc])* $variant,)*
            /// A defect the PGN reader found: its code and meaning are declared beside it.
            Reader(PgnErrorKind),
            $($(#[$after_doc])* $after,)*
        }

        impl Code {
            /// The codes before the reader's, in the order of the table.
            const BEFORE: [Code; [$(Code::$variant),*].len()] = [$(Code::$variant),*];
            /// The codes after the reader's.
            const AFTER: [Code; [$(Code::$after),*].len()] = [$(Code::$after),*];

            /// Every code, in the order of the table.
            pub const ALL: [Code; Code::BEFORE.len() + PgnErrorKind::ALL.len() + Code::AFTER.len()] = {
                let mut all = [Code::InternalError; Code::BEFORE.len() + PgnErrorKind::ALL.len() + Code::AFTER.len()];
                let mut i = 0;
                while i < Code::BEFORE.len() {
                    all[i] = Code::BEFORE[i];
                    i += 1;
                }
                let mut k = 0;
                while k < PgnErrorKind::ALL.len() {
                    all[i + k] = Code::Reader(PgnErrorKind::ALL[k]);
                    k += 1;
                }
                let mut j = 0;
                while j < Code::AFTER.len() {
                    all[i + k + j] = Code::AFTER[j];
                    j += 1;
                }
                all
            };

            /// The code's place in [`Code::ALL`] (for tables of counts).
            pub fn index(self) -> usize {
                let reader = Code::BEFORE.len();
                let after = reader + PgnErrorKind::ALL.len();
                match self {
                    Code::Reader(kind) => reader + kind as usize,
                    $(Code::$after => after + Code::AFTER.iter().position(|&c| c == self).unwrap_or(0),)*
                    _ => Code::BEFORE.iter().position(|&c| c == self).unwrap_or(0),
                }
            }

            /// The stable name, e.g. `illegal_move`.
            pub fn as_str(self) -> &'static str {
                match self {
                    $(Code::$variant => $name,)*
                    Code::Reader(kind) => kind.code(),
                    $(Code::$after => $after_name,)*
                }
            }

            /// Error or warning, before [`Severities`] (`--strict`, `--deny`, `--allow`) change it.
            pub fn severity(self) -> Severity {
                match self {
                    $(Code::$variant => Severity::$severity,)*
                    Code::Reader(kind) if kind.is_warning() => Severity::Warning,
                    Code::Reader(_) => Severity::Error,
                    $(Code::$after => Severity::$after_severity,)*
                }
            }

            /// The code named `name` (its [`Code::as_str`]), if there is one.
            pub fn from_name(name: &str) -> Option<Code> {
                Code::ALL.into_iter().find(|code| code.as_str() == name)
            }

            /// What the code means, in one line.
            pub fn meaning(self) -> &'static str {
                match self {
                    $(Code::$variant => $meaning,)*
                    Code::Reader(kind) => kind.meaning(),
                    $(Code::$after => $after_meaning,)*
                }
            }
        }
    };
}

/// The stable name, as a string.
impl Serialize for Code {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

codes! {
    /// Text in the place of a move that is no move at all.
    BadSan = "bad_san", Error, "a token in the movetext is not a move in any notation";
    /// A move that is not legal in its position.
    IllegalMove = "illegal_move", Error, "the move is not legal in its position (the rest of its line is skipped)";
    /// An `e.p.` mark after a capture that is not en passant.
    WrongEnPassantMark = "wrong_en_passant_mark", Error, "an e.p. mark follows a move that is not an en passant capture";
    /// A legal move written in a non-standard form.
    NonStandardSan = "non_standard_san", Warning, "a legal move written in a non-standard form (0-0, e2e4, Ngf3, e8Q, e.p. ...)";
    /// A `+` or `#` that does not match the position.
    WrongCheckMark = "wrong_check_mark", Warning, "the check or mate mark does not match the position after the move";
    /// A null move in the main line.
    NullMove = "null_move", Warning, "a null move (-- or Z0) in the main line passes the turn";
    /// A move played after the game had ended by itself.
    MoveAfterEnd = "move_after_end", Warning, "a move played after an automatic end (insufficient material, 75-move rule, fivefold repetition)";
    /// A move number that does not match the position.
    WrongMoveNumber = "wrong_move_number", Warning, "a move number that does not match the position";
    /// The termination marker and the Result tag differ.
    ResultMismatch = "result_mismatch", Warning, "the movetext's termination marker differs from the Result tag";
    /// The Result tag contradicts what the board shows.
    ResultContradictsBoard = "result_contradicts_board", Warning, "the Result contradicts the board (a mate, a draw by rule, a win on time without mating material)";
    /// The Termination tag names another result than the Result tag.
    TerminationContradictsResult = "termination_contradicts_result", Warning, "the Termination tag says another side won (or a draw) than the Result tag";
    /// A `[%clk]`, `[%emt]` or `[%eval]` command that cannot be read.
    MalformedCommand = "malformed_command", Warning, "a [%clk], [%emt] or [%eval] command in a main-line comment that cannot be read";
    /// A `TimeControl` tag that cannot be read.
    BadTimeControl = "bad_time_control", Warning, "the TimeControl tag is not of the PGN standard's forms (?, -, 300+3, 40/9000:300, *180)";
    /// A clock that rose more than the time control allows.
    ClockRise = "clock_rise", Warning, "a side's clock rose more than the time control's increments and periods allow";
    /// A clock above all the time the time control has given.
    ClockAboveTimeGiven = "clock_above_time_given", Warning, "a clock shows more time than the time control has given the side so far";
    /// A loss on time by a side whose clock shows time left.
    TimeLeftAtForfeit = "time_left_at_forfeit", Warning, "the Termination says lost on time, but the loser's stopped clock shows more than 5 seconds";
    /// More problems than are listed for one game.
    ProblemsNotListed = "problems_not_listed", Warning, "more problems in this game than are listed; they are counted";
    /// Variations nested too deep to replay.
    DeepVariation = "deep_variation", Warning, "variations nested too deep are read but not replayed";
    /// A `Variant` tag naming a game other than chess or Chess960.
    UnsupportedVariant = "unsupported_variant", Error, "the Variant tag names a game other than standard chess or Chess960";
    /// A `FEN` tag that is not a valid position.
    BadFen = "bad_fen", Error, "the FEN tag is not a valid position";
    [reader]
    /// A game the input's failure cut short.
    ReadError = "read_error", Error, "the input failed (a read error, corrupt or truncated compressed data) before the game ended; it is read up to there";
    /// A bug of ours, caught while reading one game.
    InternalError = "internal_error", Error, "an internal error while reading this game (please report it)";
}

/// The severity each code is reported with in a run: its own ([`Code::severity`]), unless the run
/// denies it (`--deny CODE`, or `--strict` for every warning: it is then an error, which makes
/// the game invalid, exactly as the code's own errors do) or allows it (`--allow CODE`: it is
/// then not reported at all, neither listed nor counted). Only a warning can be allowed: an error
/// code stays an error whatever is allowed, since an error means the game could not be read or
/// replayed as written. A code both denied and allowed is allowed.
#[derive(Copy, Clone, Debug, Default, Eq, PartialEq)]
pub struct Severities {
    /// The codes denied, one bit per [`Code::index`].
    denied: u64,
    /// The codes allowed, one bit per [`Code::index`].
    allowed: u64,
}

// One bit per code.
const _: () = assert!(Code::ALL.len() <= 64);

impl Severities {
    /// Every warning denied (`--strict`).
    pub fn strict() -> Severities {
        Severities {
            denied: u64::MAX,
            allowed: 0,
        }
    }

    /// Makes `code` an error.
    pub fn deny(&mut self, code: Code) {
        self.denied |= 1 << code.index();
    }

    /// Makes `code`, a warning, go unreported (an error code stays an error).
    pub fn allow(&mut self, code: Code) {
        self.allowed |= 1 << code.index();
    }

    /// The severity a problem of `code` is reported with, or `None` when it is not reported.
    pub fn of(&self, code: Code) -> Option<Severity> {
        let own = code.severity();
        if own == Severity::Error {
            Some(Severity::Error)
        } else if self.allowed & 1 << code.index() != 0 {
            None
        } else if self.denied & 1 << code.index() != 0 {
            Some(Severity::Error)
        } else {
            Some(Severity::Warning)
        }
    }

    /// Whether some code of `codes` is reported as an error though it is a warning of its own.
    pub fn denies_any(&self, codes: &[Code]) -> bool {
        codes.iter().any(|&code| {
            code.severity() == Severity::Warning && self.of(code) == Some(Severity::Error)
        })
    }
}

/// How many problems of each code, indexed by [`Code::index`], and how many of them were errors
/// (a warning's code may be counted as an error: see [`Severities`]).
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct CodeCounts {
    /// Problems per code.
    all: [u64; Code::ALL.len()],
    /// Of those, the errors.
    errors: [u64; Code::ALL.len()],
}

impl Default for CodeCounts {
    fn default() -> CodeCounts {
        CodeCounts {
            all: [0; Code::ALL.len()],
            errors: [0; Code::ALL.len()],
        }
    }
}

impl CodeCounts {
    /// Counts one problem of `code`, of `severity`.
    pub fn add(&mut self, code: Code, severity: Severity) {
        self.all[code.index()] += 1;
        if severity == Severity::Error {
            self.errors[code.index()] += 1;
        }
    }

    /// Adds every count of `other`.
    pub fn add_all(&mut self, other: &CodeCounts) {
        for (mine, theirs) in self.all.iter_mut().zip(other.all) {
            *mine += theirs;
        }
        for (mine, theirs) in self.errors.iter_mut().zip(other.errors) {
            *mine += theirs;
        }
    }

    /// The codes seen, with their counts, in the order of [`Code::ALL`].
    pub fn seen(&self) -> impl Iterator<Item = (Code, u64)> + '_ {
        Code::ALL
            .iter()
            .zip(self.all)
            .filter(|&(_, n)| n > 0)
            .map(|(&code, n)| (code, n))
    }

    /// The codes seen as `severity`, with their counts, in the order of [`Code::ALL`]: a code
    /// counted both ways (a warning, and an error where it was denied) is in both lists.
    pub fn seen_as(&self, severity: Severity) -> impl Iterator<Item = (Code, u64)> + '_ {
        Code::ALL
            .iter()
            .zip(self.all.iter().zip(self.errors))
            .map(move |(&code, (&all, errors))| match severity {
                Severity::Error => (code, errors),
                Severity::Warning => (code, all - errors),
            })
            .filter(|&(_, n)| n > 0)
    }
}

impl std::fmt::Display for Code {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_snake_case_and_serialise_as_themselves() {
        let mut names: Vec<&str> = Code::ALL.iter().map(|c| c.as_str()).collect();
        for name in &names {
            assert!(
                name.bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_'),
                "{name}"
            );
        }
        for code in Code::ALL {
            assert_eq!(
                serde_json::to_string(&code).unwrap_or_default(),
                format!("\"{code}\"")
            );
            assert!(!code.meaning().is_empty());
        }
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), Code::ALL.len());
        for (i, code) in Code::ALL.iter().enumerate() {
            assert_eq!(code.index(), i);
            assert_eq!(Code::from_name(code.as_str()), Some(*code));
        }
        assert_eq!(Code::from_name("Illegal_Move"), None);
    }

    #[test]
    fn a_denied_warning_is_an_error_and_an_allowed_one_goes_unreported() {
        let default = Severities::default();
        for code in Code::ALL {
            assert_eq!(default.of(code), Some(code.severity()), "{code}");
        }
        let mut run = Severities::default();
        run.deny(Code::ResultContradictsBoard);
        run.allow(Code::Reader(PgnErrorKind::NotUtf8));
        // Neither changes an error code.
        run.allow(Code::IllegalMove);
        run.deny(Code::BadSan);
        assert_eq!(run.of(Code::ResultContradictsBoard), Some(Severity::Error));
        assert_eq!(run.of(Code::Reader(PgnErrorKind::NotUtf8)), None);
        assert_eq!(run.of(Code::IllegalMove), Some(Severity::Error));
        assert_eq!(run.of(Code::BadSan), Some(Severity::Error));
        assert_eq!(run.of(Code::WrongCheckMark), Some(Severity::Warning));
        assert!(run.denies_any(&[Code::WrongCheckMark, Code::ResultContradictsBoard]));
        assert!(!run.denies_any(&[Code::WrongCheckMark, Code::BadSan]));

        let mut strict = Severities::strict();
        strict.allow(Code::WrongCheckMark);
        assert_eq!(strict.of(Code::WrongCheckMark), None);
        assert_eq!(strict.of(Code::WrongMoveNumber), Some(Severity::Error));
        assert!(strict.denies_any(&[Code::ClockRise]));
    }
}
