//! Parsing one game: walks a [`RawGame`]'s bytes with the rules of [`super::grammar`] and calls the
//! [`Visitor`] for every token, in order.
//!
//! The movetext is a flat loop, not a recursive descent: a `(` pushes its location on a stack and a
//! `)` pops it, so variations nest to any depth without touching the call stack, and a skipped
//! variation is a counting scan to its matching `)`.
//!
//! Recovery: every defect becomes a [`PgnError`] with its location and what was skipped, and parsing
//! goes on at the next place where that is safe — the next line after a broken tag, the next token
//! after stray text or a stray `)`, the end of the game after an unterminated `{` (the splitter has
//! already cut the game before the next tag section).

use std::convert::Infallible;

use super::encoding::Text;
use super::error::{PgnError, PgnErrorKind};
use super::lex::{
    GameResult, SKIP_STOP, clock_comment_at, comment_close, ends_stray_text, is_space,
    line_text_end, trim_space_end, unescape,
};
use super::location::{GameInfo, Location};
use super::movetext::{self, Defect, Step, Way};
use super::raw::RawGame;
use super::tags;
use super::variation::{SkipVariation, skip_variation};
use super::visitor::{Flow, Visitor};

/// Parses one game and returns what the visitor's `end_game` makes of it. Never panics, whatever
/// the bytes.
pub fn parse_game<V: Visitor>(raw: &RawGame, visitor: &mut V) -> V::Output {
    let text = Text::new(&raw.bytes);
    let info = GameInfo::new(raw, text.encoding());
    visitor.begin_game(&info);
    let mut parser = Parser {
        bytes: &raw.bytes,
        open: Vec::new(),
        text,
        info: &info,
        pos: 0,
    };
    if let Some(skipped) = raw.too_large {
        let message = format!(
            "game too large: {skipped} bytes from line {} to line {} were skipped unread",
            raw.first_line, raw.end_line
        );
        parser.report(visitor, PgnErrorKind::GameTooLarge, 0, message);
    } else {
        if let Text::Windows1252(_) = text {
            let message = "the game is not valid UTF-8; read as Windows-1252".to_string();
            parser.report(visitor, PgnErrorKind::NotUtf8, 0, message);
        }
        parser.tags(visitor);
        if visitor.end_tags() == Flow::Continue {
            parser.movetext(visitor);
        }
    }
    visitor.end_game(&info)
}

/// The state of parsing one game.
struct Parser<'a, 'g> {
    bytes: &'a [u8],
    /// Where the open `(`s are, innermost last.
    open: Vec<usize>,
    text: Text<'a>,
    info: &'g GameInfo<'a>,
    pos: usize,
}

/// At most this many characters of skipped text are quoted in a message.
const QUOTE_CHARS: usize = 24;

/// At most this many characters of the text after a game's result are quoted in its warning:
/// enough for the words a scoresheet adds (`(time)`, `White resigned after a long think`), which
/// the warning keeps.
const TRAILING_CHARS: usize = 200;

impl<'a> Parser<'a, '_> {
    /// Reports a defect found at byte `at`.
    fn report<V: Visitor>(&self, visitor: &mut V, kind: PgnErrorKind, at: usize, message: String) {
        let location = Location::at(at);
        visitor.error(PgnError {
            kind,
            game: self.info.index(),
            location,
            at: self.info.locate(location),
            message,
        });
    }

    /// `line:col` of byte `at`, for messages.
    fn lc(&self, at: usize) -> String {
        self.info.locate(Location::at(at)).to_string()
    }

    /// Where parsing resumes after skipping to the end of the game, in words.
    fn next_game_words(&self) -> String {
        if self.info.raw().at_eof {
            "skipped to the end of the input".to_string()
        } else {
            format!(
                "skipped to the next game at line {}",
                self.info.raw().end_line
            )
        }
    }

    /// A short quote of the text in `range`, for messages.
    fn quote(&self, range: std::ops::Range<usize>) -> String {
        self.quote_up_to(range, QUOTE_CHARS)
    }

    /// The text of `range`, up to `limit` characters, `…` marking a cut.
    fn quote_up_to(&self, range: std::ops::Range<usize>, limit: usize) -> String {
        let text = self.text.get(range);
        let mut quoted: String = text.chars().take(limit).collect();
        if text.chars().nth(limit).is_some() {
            quoted.push('…');
        }
        quoted
    }

    /// The bytes from the current position on.
    fn rest(&self) -> &'a [u8] {
        let bytes: &'a [u8] = self.bytes;
        bytes.get(self.pos..).unwrap_or_default()
    }

    /// Moves past a token that `rest` (a tail of the input) follows.
    fn advance_to(&mut self, rest: &[u8]) {
        self.pos = self.bytes.len() - rest.len();
    }

    #[inline]
    fn skip_spaces(&mut self) {
        while self.bytes.get(self.pos).is_some_and(|&b| is_space(b)) {
            self.pos += 1;
        }
    }

    /// Whether byte `at` is in column 1 of its line.
    fn at_line_start(&self, at: usize) -> bool {
        match at.checked_sub(1) {
            None => self.info.raw().first_column == 1,
            Some(prev) => matches!(self.bytes[prev], b'\n' | b'\r'),
        }
    }

    /// Skips to the end of the current line (the line end is left).
    fn skip_line(&mut self) {
        self.pos += line_text_end(self.rest());
    }

    /// The tag section: tag pairs (on one line, or over lines: see
    /// [`tags::tag_pair_over_lines`]), `;` comments and `%` lines, up to the first other token.
    fn tags<V: Visitor>(&mut self, visitor: &mut V) {
        loop {
            self.skip_spaces();
            let start = self.pos;
            match self.bytes.get(start) {
                Some(b'[')
                    if let Some((name_end, value_end)) =
                        tags::simple_tag_pair(self.rest(), |_| {}) =>
                {
                    // The common form, quickly; tag names are ASCII by the grammar.
                    let name = self.text.ascii(start + 1..start + name_end);
                    let value = self.text.get(start + name_end + 2..start + value_end);
                    visitor.tag(name, &value, Location::at(start));
                    self.pos = start + value_end + 2;
                }
                Some(b'[') => match tags::tag_pair_and_backslash(self.rest())
                    .or_else(|_| tags::tag_pair_over_lines(self.rest()))
                {
                    Ok((rest, ((name, raw), backslash))) => {
                        let name_at = name.as_ptr() as usize - self.bytes.as_ptr() as usize;
                        let value_at = raw.as_ptr() as usize - self.bytes.as_ptr() as usize;
                        // Tag names are ASCII by the grammar.
                        let name = self.text.ascii(name_at..name_at + name.len());
                        let value = self.text.get(value_at..value_at + raw.len());
                        // Only a value with a backslash can hold an escape to undo.
                        let unescaped;
                        let value: &str = if backslash {
                            unescaped = unescape(&value);
                            &unescaped
                        } else {
                            &value
                        };
                        visitor.tag(name, value, Location::at(start));
                        self.advance_to(rest);
                    }
                    Err(_) => {
                        self.skip_line();
                        let message = format!(
                            "broken tag pair: `{}` at {} is not of the form [Name \"value\"]; \
                             skipped to the end of the line",
                            self.quote(start..self.pos),
                            self.lc(start)
                        );
                        self.report(visitor, PgnErrorKind::BrokenTag, start, message);
                    }
                },
                Some(b';') => self.line_comment(visitor),
                Some(b'%') if self.at_line_start(start) => self.skip_line(),
                _ => return,
            }
        }
    }

    /// A `{ }` comment at `self.pos`.
    fn brace_comment<V: Visitor>(&mut self, visitor: &mut V) {
        let start = self.pos;
        let body = start + 1;
        match comment_close(&self.bytes[body..]) {
            Some(len) if !visitor.wants_comments() => {
                visitor.comment_skipped(Location::at(start), body..body + len);
                self.pos = body + len + 1;
            }
            Some(len) => {
                let text = self.text.get(body..body + len);
                match clock_comment_at(self.bytes, start) {
                    Some((_, clock)) => visitor.clock_comment(clock, &text, Location::at(start)),
                    None => visitor.comment(&text, Location::at(start)),
                }
                self.pos = body + len + 1;
            }
            None => {
                let message = format!(
                    "unterminated comment: `{{` at {} is never closed; {}",
                    self.lc(start),
                    self.next_game_words()
                );
                self.report(visitor, PgnErrorKind::UnterminatedComment, start, message);
                self.pos = self.bytes.len();
            }
        }
    }

    /// A `;` comment at `self.pos`, up to the end of its line.
    fn line_comment<V: Visitor>(&mut self, visitor: &mut V) {
        let start = self.pos;
        let body = start + 1;
        let end = body + line_text_end(&self.bytes[body..]);
        if visitor.wants_comments() {
            visitor.comment(&self.text.get(body..end), Location::at(start));
        } else {
            visitor.comment_skipped(Location::at(start), body..end);
        }
        self.pos = end;
    }

    /// The movetext, up to the end of the game.
    fn movetext<V: Visitor>(&mut self, visitor: &mut V) {
        let bytes = self.bytes;
        let mut result_seen = false;
        loop {
            self.skip_spaces();
            let start = self.pos;
            let Some(&b) = bytes.get(start) else {
                break;
            };
            if result_seen && !matches!(b, b'{' | b';') && !(b == b'%' && self.at_line_start(start))
            {
                let end = trim_space_end(bytes).len();
                let message = format!(
                    "text after the result at {} is not read as moves: `{}`",
                    self.lc(start),
                    self.quote_up_to(start..end, TRAILING_CHARS)
                );
                self.report(visitor, PgnErrorKind::TextAfterResult, start, message);
                // The words of a scoresheet's `1-0 (time)` are the game's: handed over too.
                visitor.text_after_result(&self.text.get(start..end), Location::at(start));
                break;
            }
            match movetext::token(bytes, start, self, visitor) {
                Ok(Step::Next(next)) => self.pos = next,
                Ok(Step::Result(result, len)) => {
                    let mut open = std::mem::take(&mut self.open);
                    result_seen = self.result(visitor, (result, len), &mut open);
                    self.open = open;
                }
                Err(never) => match never {},
            }
        }
        if !self.open.is_empty() {
            let mut open = std::mem::take(&mut self.open);
            self.close_open_variations(visitor, &mut open);
        }
        if !result_seen {
            let at = trim_space_end(self.bytes).len();
            let message = format!(
                "no result: the game ends at {} without 1-0, 0-1, 1/2-1/2 or *",
                self.lc(at)
            );
            self.report(visitor, PgnErrorKind::NoResult, at, message);
        }
    }

    /// Handles a result token; returns whether it ended the game.
    fn result<V: Visitor>(
        &mut self,
        visitor: &mut V,
        (result, len): (GameResult, usize),
        open: &mut Vec<usize>,
    ) -> bool {
        let start = self.pos;
        self.pos += len;
        let only_space_after = self.rest().iter().all(|&b| is_space(b));
        if !open.is_empty() && !only_space_after {
            let message = format!(
                "result {} at {} inside a variation is ignored",
                result.as_str(),
                self.lc(start)
            );
            self.report(visitor, PgnErrorKind::ResultInVariation, start, message);
            return false;
        }
        if !open.is_empty() {
            self.close_open_variations(visitor, open);
        }
        visitor.result(result, Location::at(start));
        true
    }

    /// Reports the `(`s never closed and closes them, innermost first, at the end of the game.
    fn close_open_variations<V: Visitor>(&mut self, visitor: &mut V, open: &mut Vec<usize>) {
        let outer = open.first().copied().unwrap_or_default();
        let end = trim_space_end(self.bytes).len().min(self.pos);
        let count = open.len();
        let message = if count == 1 {
            format!(
                "unbalanced `(`: `(` at {} is never closed; the variation ends at {}",
                self.lc(outer),
                self.lc(end)
            )
        } else {
            format!(
                "unbalanced `(`: {count} variations, the outermost opened at {}, are never \
                 closed; they end at {}",
                self.lc(outer),
                self.lc(end)
            )
        };
        self.report(visitor, PgnErrorKind::UnclosedVariation, outer, message);
        for _ in open.drain(..) {
            visitor.end_variation(Location::at(end));
        }
    }

    /// Skips a variation whose `(` is at `open`, up to its matching `)` (see [`skip_variation`]).
    fn skip_variation<V: Visitor>(&mut self, visitor: &mut V, open: usize) {
        let mut skip = Skip {
            parser: self,
            visitor,
            open,
        };
        match skip_variation(self.bytes, self.pos, &mut skip) {
            Ok(end) => self.pos = end,
            // Reported: the rest of the game is skipped.
            Err(()) => self.pos = self.bytes.len(),
        }
    }

    /// Stray text at `self.pos`: reported and skipped up to the next space or bracket.
    fn unexpected<V: Visitor>(&mut self, visitor: &mut V) {
        let start = self.pos;
        let len = self
            .rest()
            .get(1..)
            .unwrap_or_default()
            .iter()
            .position(|&b| ends_stray_text(b))
            .map_or(self.rest().len(), |k| k + 1);
        self.pos += len;
        let message = format!(
            "unexpected text `{}` at {}; skipped to the next token",
            self.quote(start..self.pos),
            self.lc(start)
        );
        self.report(visitor, PgnErrorKind::UnexpectedText, start, message);
    }
}

/// The general way's part in skipping a variation: `;` comments and `%` lines are skipped to their
/// line end, and a comment or the variation never closed is reported.
struct Skip<'s, 'a, 'g, V> {
    parser: &'s Parser<'a, 'g>,
    visitor: &'s mut V,
    /// Where the skipped variation's `(` is.
    open: usize,
}

impl<V: Visitor> SkipVariation<5> for Skip<'_, '_, '_, V> {
    type Stop = ();

    const STOP: [u8; 5] = SKIP_STOP;

    fn comment(&mut self, bytes: &[u8], body: usize) -> Result<usize, ()> {
        match comment_close(&bytes[body..]) {
            Some(close) => Ok(body + close + 1),
            None => {
                let at = body - 1;
                let message = format!(
                    "unterminated comment: `{{` at {} is never closed; {}",
                    self.parser.lc(at),
                    self.parser.next_game_words()
                );
                self.parser
                    .report(self.visitor, PgnErrorKind::UnterminatedComment, at, message);
                Err(())
            }
        }
    }

    fn other(&mut self, bytes: &[u8], at: usize) -> Result<usize, ()> {
        let line = bytes[at] == b';' || self.parser.at_line_start(at);
        if !line {
            // A `%` that is no escape line.
            return Ok(at + 1);
        }
        Ok(at + line_text_end(&bytes[at..]))
    }

    fn end(&mut self) {
        let parser = self.parser;
        let message = format!(
            "unbalanced `(`: `(` at {} is never closed; the variation ends at {}",
            parser.lc(self.open),
            parser.lc(trim_space_end(parser.bytes).len())
        );
        parser.report(
            self.visitor,
            PgnErrorKind::UnclosedVariation,
            self.open,
            message,
        );
    }
}

/// The general way through the movetext: every defect is reported, and reading goes on after it.
impl Way for Parser<'_, '_> {
    type Stop = Infallible;

    fn comment<V: Visitor>(
        &mut self,
        _: &[u8],
        start: usize,
        visitor: &mut V,
    ) -> Result<usize, Infallible> {
        self.pos = start;
        self.brace_comment(visitor);
        Ok(self.pos)
    }

    fn line<V: Visitor>(
        &mut self,
        bytes: &[u8],
        start: usize,
        visitor: &mut V,
    ) -> Result<Option<usize>, Infallible> {
        self.pos = start;
        if bytes[start] == b';' {
            self.line_comment(visitor);
        } else if self.at_line_start(start) {
            self.skip_line();
        } else {
            return Ok(None);
        }
        Ok(Some(self.pos))
    }

    fn open_variation(&mut self, start: usize) {
        self.open.push(start);
    }

    fn close_variation(&mut self) -> bool {
        self.open.pop().is_some()
    }

    fn skip<V: Visitor>(
        &mut self,
        _: &[u8],
        open: usize,
        visitor: &mut V,
    ) -> Result<usize, Infallible> {
        self.pos = open + 1;
        self.skip_variation(visitor, open);
        Ok(self.pos)
    }

    fn defect<V: Visitor>(
        &mut self,
        _: &[u8],
        at: usize,
        defect: Defect,
        visitor: &mut V,
    ) -> Result<usize, Infallible> {
        self.pos = at;
        let (kind, message) = match defect {
            Defect::Unexpected => {
                self.unexpected(visitor);
                return Ok(self.pos);
            }
            Defect::Unopened => {
                self.pos = at + 1;
                let message = format!(
                    "unbalanced `)` at {}: no variation is open; it is ignored",
                    self.lc(at)
                );
                (PgnErrorKind::UnopenedVariation, message)
            }
            Defect::NagWithoutNumber => {
                self.pos = at + 1;
                let message = format!(
                    "bad NAG: `$` at {} is not followed by a number; it is ignored",
                    self.lc(at)
                );
                (PgnErrorKind::BadNag, message)
            }
            Defect::NagTooLarge { end } => {
                self.pos = end;
                let message = format!(
                    "bad NAG: `{}` at {} is over 255; it is ignored",
                    self.quote(at..end),
                    self.lc(at)
                );
                (PgnErrorKind::BadNag, message)
            }
            Defect::MoveNumberTooLarge { digits, len } => {
                self.pos = at + len;
                let message = format!(
                    "bad move number: `{}` at {} is too large; it is ignored",
                    self.quote(at..at + digits),
                    self.lc(at)
                );
                (PgnErrorKind::BadMoveNumber, message)
            }
        };
        self.report(visitor, kind, at, message);
        Ok(self.pos)
    }
}
