//! What can go wrong while reading PGN: [`PgnError`] for a defect inside one game (the reader
//! reports it, skips what it must and goes on), and [`ReadError`] for a failure of the byte stream
//! itself (an I/O error or a corrupt compressed file), after which the stream ends.

use std::fmt;
use std::io;

use super::location::{LineCol, Location};

/// Declares [`PgnErrorKind`] from one table: each kind beside its stable diagnostic code and the
/// one line that says what it means (what `validate` reports and docs/diagnostics.md lists), so
/// that a new defect is declared here once.
macro_rules! defects {
    ($($(#[$doc:meta])* $kind:ident = $code:literal, $meaning:literal;)*) => {
        /// The kinds of defect the reader reports. Each has one meaning; the message says the
        /// details.
        #[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum PgnErrorKind {
            $($(#[$doc])* $kind,)*
        }

        impl PgnErrorKind {
            /// Every kind, in the order of the declaration.
            pub const ALL: [PgnErrorKind; [$(PgnErrorKind::$kind),*].len()] =
                [$(PgnErrorKind::$kind),*];

            /// The stable diagnostic code, e.g. `unterminated_comment`.
            pub fn code(self) -> &'static str {
                match self {
                    $(PgnErrorKind::$kind => $code,)*
                }
            }

            /// What the defect means, in one line.
            pub fn meaning(self) -> &'static str {
                match self {
                    $(PgnErrorKind::$kind => $meaning,)*
                }
            }
        }
    };
}

defects! {
    /// Warning: the game is not valid UTF-8 and was read as Windows-1252.
    NotUtf8 = "not_utf8", "the game is not valid UTF-8 and was read as Windows-1252";
    /// Warning: the movetext ends without a result (`1-0`, `0-1`, `1/2-1/2` or `*`).
    NoResult = "no_result", "the movetext ends without 1-0, 0-1, 1/2-1/2 or *";
    /// A tag pair that does not follow `[Name "value"]`; the rest of its line is skipped.
    BrokenTag = "broken_tag", "a tag pair not of the form [Name \"value\"]";
    /// A `{` comment that is never closed; the rest of the game is skipped.
    UnterminatedComment = "unterminated_comment", "a { comment is never closed";
    /// A `(` that is never closed; the variation is closed at the end of the game.
    UnclosedVariation = "unclosed_variation", "a ( variation is never closed";
    /// A `)` without a matching `(`; it is ignored.
    UnopenedVariation = "unopened_variation", "a ) closes no variation";
    /// A result inside a variation; it is ignored.
    ResultInVariation = "result_in_variation", "a result inside a variation";
    /// Warning: text after the game's result (`1-0 (time)`); it is not read as moves, and the
    /// message quotes it.
    TextAfterResult = "text_after_result", "text after the game's result, quoted in the message";
    /// A `$` not followed by a number from 0 to 255; it is ignored.
    BadNag = "bad_nag", "a $ annotation that is not a number from 0 to 255";
    /// A move number too large to be real; it is ignored.
    BadMoveNumber = "bad_move_number", "a move number too large to be real";
    /// Bytes that are no PGN token; they are skipped up to the next token.
    UnexpectedText = "unexpected_text", "text that is no PGN token (junk such as resigns or Q-)";
    /// A game larger than the reader's limit; its bytes were skipped unread.
    GameTooLarge = "game_too_large", "a game larger than the reader's limit, skipped unread";
}

impl PgnErrorKind {
    /// Whether this is a warning (the game was read completely, if leniently) rather than an error.
    pub fn is_warning(self) -> bool {
        matches!(
            self,
            PgnErrorKind::NotUtf8 | PgnErrorKind::NoResult | PgnErrorKind::TextAfterResult
        )
    }
}

/// A defect in one game, with where it is and what was skipped, in plain words.
///
/// `Display` prints the message alone (lowercase, no final period); [`PgnError::report`] puts
/// the path, line, column and game number in front of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PgnError {
    /// What kind of defect this is.
    pub kind: PgnErrorKind,
    /// The game's number in its stream, counted from 1.
    pub game: u64,
    /// Where the defect starts, within the game.
    pub location: Location,
    /// Where the defect starts, in the source file.
    pub at: LineCol,
    /// The message, e.g. "unterminated comment: `{` at 12:5 is never closed; skipped to the next
    /// game at line 40".
    pub message: String,
}

impl PgnError {
    /// Whether this is only a warning; see [`PgnErrorKind::is_warning`].
    pub fn is_warning(&self) -> bool {
        self.kind.is_warning()
    }

    /// The diagnostic line `PATH:LINE:COL: game N: error: MESSAGE` (or `warning:`).
    pub fn report(&self, path: &str) -> String {
        let level = if self.is_warning() {
            "warning"
        } else {
            "error"
        };
        format!("{path}:{}: game {}: {level}: {self}", self.at, self.game)
    }
}

impl fmt::Display for PgnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for PgnError {}

/// The byte stream failed: an I/O error, or compressed data that is corrupt or truncated. The games
/// read before it stand; no game follows it from the same stream.
#[derive(Debug, thiserror::Error)]
#[error("{name}: read error after byte {offset}: {source}")]
pub struct ReadError {
    /// The source's name (the path as given, or `<stdin>`).
    pub name: String,
    /// How many (decompressed) bytes were read before the failure.
    pub offset: u64,
    /// The underlying error; decompressors name the compressed offset in it.
    #[source]
    pub source: io::Error,
}
