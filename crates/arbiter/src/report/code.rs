//! The diagnostic codes: one [`Code`] per kind of problem `validate` reports, each with its stable
//! name (`illegal_move`), its default [`Severity`] and one line saying what it means. `docs/diagnostics.md`
//! lists the same codes (a test keeps the two equal).

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

/// Declares [`Code`] with its name, default severity and meaning, from one table.
macro_rules! codes {
    ($($(#[$doc:meta])* $variant:ident = $name:literal, $severity:ident, $meaning:literal;)*) => {
        /// A kind of problem, with a stable machine-readable name.
        #[derive(Copy, Clone, Debug, Eq, PartialEq, Hash, PartialOrd, Ord, Serialize)]
        pub enum Code {
            $($(#[$doc])* #[serde(rename = $name)] $variant,)*
        }

        impl Code {
            /// Every code, in the order of the table.
            pub const ALL: &[Code] = &[$(Code::$variant),*];

            /// The code's place in [`Code::ALL`] (for tables of counts).
            pub fn index(self) -> usize {
                self as usize
            }

            /// The stable name, e.g. `illegal_move`.
            pub fn as_str(self) -> &'static str {
                match self {
                    $(Code::$variant => $name,)*
                }
            }

            /// Error or warning, before `--strict` turns every warning into an error.
            pub fn severity(self) -> Severity {
                match self {
                    $(Code::$variant => Severity::$severity,)*
                }
            }

            /// What the code means, in one line.
            pub fn meaning(self) -> &'static str {
                match self {
                    $(Code::$variant => $meaning,)*
                }
            }
        }
    };
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
    /// The game is not UTF-8 and was read as Windows-1252.
    NotUtf8 = "not_utf8", Warning, "the game is not valid UTF-8 and was read as Windows-1252";
    /// The movetext ends without a result.
    NoResult = "no_result", Warning, "the movetext ends without 1-0, 0-1, 1/2-1/2 or *";
    /// A tag pair that is not `[Name "value"]`.
    BrokenTag = "broken_tag", Error, "a tag pair not of the form [Name \"value\"]";
    /// A `{` comment never closed.
    UnterminatedComment = "unterminated_comment", Error, "a { comment is never closed";
    /// A `(` never closed.
    UnclosedVariation = "unclosed_variation", Error, "a ( variation is never closed";
    /// A `)` without its `(`.
    UnopenedVariation = "unopened_variation", Error, "a ) closes no variation";
    /// A result inside a variation.
    ResultInVariation = "result_in_variation", Error, "a result inside a variation";
    /// Text after the game's result.
    TextAfterResult = "text_after_result", Error, "text after the game's result";
    /// A `$` NAG that is no number from 0 to 255.
    BadNag = "bad_nag", Error, "a $ annotation that is not a number from 0 to 255";
    /// A move number too large to be real.
    BadMoveNumber = "bad_move_number", Error, "a move number too large to be real";
    /// Bytes that are no PGN token.
    UnexpectedText = "unexpected_text", Error, "text that is no PGN token (junk such as resigns or Q-)";
    /// A game over the reader's size limit.
    GameTooLarge = "game_too_large", Error, "a game larger than the reader's limit, skipped unread";
    /// A game the input's failure cut short.
    ReadError = "read_error", Error, "the input failed (a read error, corrupt or truncated compressed data) before the game ended; it is read up to there";
    /// A bug of ours, caught while reading one game.
    InternalError = "internal_error", Error, "an internal error while reading this game (please report it)";
}

/// How many problems of each code, indexed by [`Code::index`].
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct CodeCounts([u64; Code::ALL.len()]);

impl Default for CodeCounts {
    fn default() -> CodeCounts {
        CodeCounts([0; Code::ALL.len()])
    }
}

impl CodeCounts {
    /// Counts one problem of `code`.
    pub fn add(&mut self, code: Code) {
        self.0[code.index()] += 1;
    }

    /// Adds every count of `other`.
    pub fn add_all(&mut self, other: &CodeCounts) {
        for (mine, theirs) in self.0.iter_mut().zip(other.0) {
            *mine += theirs;
        }
    }

    /// The codes seen, with their counts, in the order of [`Code::ALL`].
    pub fn seen(&self) -> impl Iterator<Item = (Code, u64)> + '_ {
        Code::ALL
            .iter()
            .zip(self.0)
            .filter(|&(_, n)| n > 0)
            .map(|(&code, n)| (code, n))
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
                serde_json::to_string(code).unwrap_or_default(),
                format!("\"{code}\"")
            );
            assert!(!code.meaning().is_empty());
        }
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), Code::ALL.len());
        for (i, code) in Code::ALL.iter().enumerate() {
            assert_eq!(code.index(), i);
        }
    }
}
