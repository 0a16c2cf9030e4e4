//! The streaming interface: the reader calls a [`Visitor`]'s methods for each token of a game, in
//! source order, with borrowed text and a [`Location`]. Nothing is allocated per token.
//!
//! Calls come in this order: `begin_game`, then `tag`s (and any comments before the movetext),
//! `end_tags`, then the movetext tokens (`move_number`, `san`, `null_move`, `nag`, `comment` or
//! `clock_comment`, `begin_variation` ... `end_variation`, `result`, and any comments after the result), then
//! `end_game`. `error` may come anywhere
//! between `begin_game` and `end_game`, at the point where the defect is found.

use std::ops::Range;

use super::error::PgnError;
use super::lex::GameResult;
use super::location::{GameInfo, Location};

/// Whether the reader should go into a part of the game or skip it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[must_use]
pub enum Flow {
    /// Report the tokens of this part.
    Continue,
    /// Skip this part cheaply; its tokens (and errors) are not reported.
    Skip,
}

/// Receives the tokens of each game. Every method but `end_game` does nothing by default.
///
/// Text is passed as it is in the source (tag values with their `\"` and `\\` escapes undone),
/// decoded from Windows-1252 for a game that is not UTF-8.
pub trait Visitor {
    /// What `end_game` returns for each game.
    type Output;

    /// A game starts. `game` tells its number and locates its tokens.
    fn begin_game(&mut self, game: &GameInfo<'_>) {
        let _ = game;
    }

    /// A tag pair `[name "value"]`, located at its `[`.
    fn tag(&mut self, name: &str, value: &str, location: Location) {
        let _ = (name, value, location);
    }

    /// The tag section is over. Return [`Flow::Skip`] to skip the movetext (the game then ends
    /// with `end_game` and nothing in between).
    fn end_tags(&mut self) -> Flow {
        Flow::Continue
    }

    /// A move number: `12.` (`dots` = 1), `12...` or `12. ...` (`dots` = 3), or a bare `12` (0).
    fn move_number(&mut self, number: u32, dots: u8, location: Location) {
        let _ = (number, dots, location);
    }

    /// A move, as written (`Nf3`, `exd6e.p.`, `e2e4`, `0-0`...), with any `+` or `#` but without
    /// `!`/`?` suffixes, which come as [`Visitor::nag`] calls right after it. Never checked here.
    fn san(&mut self, san: &str, location: Location) {
        let _ = (san, location);
    }

    /// An `e.p.` written as a token of its own after a move (`exd6 e.p.`).
    fn en_passant_mark(&mut self, location: Location) {
        let _ = location;
    }

    /// A null move, `--` or `Z0` (the text as written).
    fn null_move(&mut self, text: &str, location: Location) {
        let _ = (text, location);
    }

    /// A numeric annotation glyph `$n`, or a suffix `!` (1), `?` (2), `!!` (3), `??` (4), `!?` (5)
    /// or `?!` (6).
    fn nag(&mut self, nag: u8, location: Location) {
        let _ = (nag, location);
    }

    /// A comment: the text between `{` and `}` (untrimmed, lichess `[%clk ...]` commands
    /// included), or after `;` up to the end of the line. Located at its `{` or `;`.
    fn comment(&mut self, text: &str, location: Location) {
        let _ = (text, location);
    }

    /// A comment that is exactly lichess's clock, `{ [%clk H:MM:SS] }` (see
    /// [`super::lichess_clock`]): `clock` is its reading in milliseconds, `text` and `location`
    /// what [`Visitor::comment`] would be given. The reader recognises it where it finds the
    /// comment's end, so that a visitor that reads clocks need not read the text again. By
    /// default it goes to [`Visitor::comment`]. (Only when [`Visitor::wants_comments`].)
    fn clock_comment(&mut self, clock: u32, text: &str, location: Location) {
        let _ = clock;
        self.comment(text, location);
    }

    /// Whether the reader should hand out comments' text. A visitor that ignores it returns
    /// `false`: the reader then skips each comment with one search, never decodes its text, and
    /// calls [`Visitor::comment_skipped`] instead of [`Visitor::comment`].
    fn wants_comments(&self) -> bool {
        true
    }

    /// A comment was skipped, as [`Visitor::wants_comments`] asked: its place (its `{` or `;`),
    /// and where its text lies in the game's bytes ([`GameInfo::bytes`]), from after its `{` to
    /// its `}` or from after its `;` to the end of its line: a visitor may read it later from
    /// there, as the reader would have read it.
    fn comment_skipped(&mut self, location: Location, text: Range<usize>) {
        let _ = (location, text);
    }

    /// Words after the game's result that are neither a comment nor a result (a scoresheet's
    /// `1-0 (time)`): `text` up to the end of the game, trailing blanks left out, starting at
    /// `location`. The reader also reports them as a `text_after_result` error (a warning to
    /// the replay); a visitor that keeps the game's text keeps them here, as a comment on the
    /// last move would be kept.
    fn text_after_result(&mut self, text: &str, location: Location) {
        let _ = (text, location);
    }

    /// Whether [`super::Reader`] may read games through this visitor in one pass: parse each game
    /// straight from its read buffer, finding the game's end on the way, instead of cutting the
    /// game out first and then parsing it (twice the work). Return `true` only if `begin_game`
    /// forgets all of any game before it, so that only the calls after the last `begin_game`
    /// count: in the rare case the reader cannot finish a game in one pass (a defect, a lone CR,
    /// a `;` comment...), it begins the game again the general way.
    ///
    /// In one pass the [`GameInfo`] given to `begin_game` holds only the game's number and first
    /// line and column (and [`GameInfo::bytes`] is empty); the one given to `end_game` is
    /// complete, as always.
    fn one_pass(&self) -> bool {
        false
    }

    /// A `(` opens a variation. Return [`Flow::Skip`] to skip it, up to its matching `)`,
    /// cheaply; `end_variation` is then not called for it.
    fn begin_variation(&mut self, location: Location) -> Flow {
        let _ = location;
        Flow::Continue
    }

    /// A `)` closes the innermost open variation. For a `(` never closed it comes at the end of the
    /// game, located there, after an error.
    fn end_variation(&mut self, location: Location) {
        let _ = location;
    }

    /// The game's termination marker.
    fn result(&mut self, result: GameResult, location: Location) {
        let _ = (result, location);
    }

    /// A defect was found; the reader has recovered from it and goes on.
    fn error(&mut self, error: PgnError) {
        let _ = error;
    }

    /// The game is over.
    fn end_game(&mut self, game: &GameInfo<'_>) -> Self::Output;
}
