//! Cutting: where one game ends and the next begins, found by a light scan of the read buffer that
//! knows just enough of the grammar: tag pairs and their quoted values, `{ }` comments (which may
//! hold `[`, blank lines and result-like text), `;` comments, `%` escape lines in column 1, and the
//! depth of `( )` variations. A game ends
//!
//! - after the line of its termination marker (`1-0`, `0-1`, `1/2-1/2`, `*`) outside any comment or
//!   variation — the rest of that line belongs to the game, so `1-0 ff` stays together, and so do
//!   the comments, `%` lines and blank lines that follow it, up to the next game's first token;
//! - where the next tag section starts: a `[Name "` or a whole tag pair over lines outside
//!   comments once the movetext has begun, or a tag whose name already appeared in this game's tag
//!   section (header-only games in a row);
//! - inside a `{` comment, before its first line that is nothing but a tag pair, when the comment
//!   was never closed: no `}` follows before the end of the input or within the size limit, a `{`
//!   comes before the `}` (comments do not nest, so that `{` opens a comment of the next game), or
//!   what follows the `}` on its line cannot be movetext (control bytes, or no token's first
//!   byte). Otherwise the comment runs to its `}`, as the PGN standard reads it, whatever it holds:
//!   annotators quote tag lines, and whole games with their tag sections and results, in comments;
//! - at the end of the input.
//!
//! So an unterminated comment is never read past the game size limit, and memory stays bounded by
//! one game: it ends at the next `{` (most archives have comments), at the end of the input, or at
//! the limit, and the games after its first tag line are read as they stand.
//!
//! A tag pair may span lines (the PGN standard's import format, section 8.1: white space, line
//! ends included, separates its four tokens; its string token stays on one line, section 7): the
//! scan takes a pair over lines whole, as the parser does, by the one rule of
//! [`tags::tag_pair_over_lines`], within the look-ahead of [`MAX_TAG_LINE`] bytes. A string cut by
//! a line end makes a broken tag, read as before: the tag section ends at the next line.
//!
//! Blank lines separate nothing by themselves: a blank line inside the tag section, or two after
//! it, keeps one game.
//!
//! The scan is a small section machine over the lexemes of [`super::lex::Lexer`], which owns the
//! lexical rules (line ends, comments, `;` and `%` lines, quoted values and their escapes) and
//! resumes where it stood after a refill. The grammar rules themselves live in [`super::grammar`]
//! and [`super::tags`]; the scan calls the same rules for results and tag starts, so that it and
//! the parser agree.

use std::io::{self, Read};

use super::buffer::Buffer;
use super::grammar;
use super::lex::{
    Context, Lexeme, Lexer, Lines, MAX_TAG_LINE, MOVETEXT_STOP, NeedMore, TAG_STOP, closing_quote,
    is_blank, is_control, may_start_result, may_start_token, tag_window, whole_line,
};
use super::raw::RawGame;
use super::scan::find_any;
use super::tag_names::{TagNames, hash_name, simple_tag_hashed};
use super::tags;

/// A game at least this large is handed over with the read buffer rather than copied out of it (see
/// [`Buffer::hand_over`]): a game near the size limit would otherwise be in memory twice.
const HAND_OVER: usize = 1 << 20;

/// Which part of a game the scan is in.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Section {
    /// Before the movetext: tag pairs, `;` comments, `%` lines.
    Tags,
    /// The movetext.
    Movetext,
    /// After the termination marker, up to the end of its line.
    AfterResult,
    /// The lines after that: comments, `%` lines and blank lines still belong to the game.
    Trailer,
}

/// The scan's state, kept across buffer refills.
#[derive(Debug)]
struct Scan {
    section: Section,
    lexer: Lexer,
    /// Between a tag's `[` and its `]` (or the line end).
    in_tag: bool,
    /// The buffer index and line number of the first line of the current `{` comment that is a
    /// whole tag pair: the comment may quote a game, or never be closed (see [`scan`]).
    suspect: Option<(usize, u64)>,
    depth: u64,
    /// The stream offset of the game's first byte.
    start: u64,
}

impl Scan {
    /// Whether the game has ended where the scan stands, if the input ends there: after its
    /// result, and not inside a comment.
    fn ended(&self) -> bool {
        matches!(self.section, Section::AfterResult | Section::Trailer)
            && self.lexer.context != Context::Brace
    }

    /// Whether buffer index `at` (of a buffer whose first byte is at stream offset `base`) lies
    /// more than `max_game` bytes past the game's start.
    fn past_limit(&self, base: u64, at: usize, max_game: usize) -> bool {
        base + at as u64 - self.start > max_game as u64
    }
}

/// Cuts the next game of `input` into `game` (all but its number), noting its tag names in
/// `names`; a game over `max_game` bytes is skipped (see [`RawGame::too_large`]). Returns `false`
/// at the end of the input.
///
/// A read failure is held back until the games before it are handed out, the last of them
/// included: one that runs into the failure is handed out with what was read of it, marked
/// [`RawGame::cut_short`] unless it had ended; the failure comes at the next call.
pub(super) fn cut<R: Read>(
    input: &mut Buffer<R>,
    names: &mut TagNames,
    max_game: usize,
    game: &mut RawGame,
) -> io::Result<bool> {
    if !input.skip_between_games()? {
        return Ok(false);
    }
    let first_line = input.lines.line;
    let first_column = input.column_of(input.start);
    let offset = input.bytes_done();
    names.clear();
    let mut state = Scan {
        section: Section::Tags,
        lexer: Lexer::new(input.start),
        in_tag: false,
        suspect: None,
        depth: 0,
        start: input.bytes_done(),
    };
    let mut skipped = 0u64;
    let end = loop {
        match scan(input, names, max_game, &mut state) {
            Ok(end) => break end,
            Err(NeedMore) => {
                let pos = state.lexer.pos;
                if pos - input.start > max_game {
                    // Too large: keep a few bytes for the result check's look-behind.
                    let keep = pos.saturating_sub(8).max(input.start);
                    skipped += (keep - input.start) as u64;
                    input.start = keep;
                }
                let shift = input.fill();
                state.lexer.pos -= shift;
                if let Some((suspect, _)) = &mut state.suspect {
                    *suspect -= shift;
                }
            }
        }
    };
    game.cut_short = end == input.end && input.error.is_some() && !state.ended();
    game.first_line = first_line;
    game.first_column = first_column;
    game.offset = offset;
    game.end_line = input.lines.line;
    game.at_eof = input.eof && end == input.end && !input.more_follows;
    game.bytes.clear();
    if skipped == 0 && end - input.start > max_game {
        skipped = (end - input.start) as u64;
        input.start = end;
    }
    if skipped > 0 {
        game.too_large = Some(skipped + (end - input.start) as u64);
        input.start = end;
    } else if end - input.start >= HAND_OVER {
        game.too_large = None;
        input.hand_over(end, &mut game.bytes);
    } else {
        game.too_large = None;
        game.bytes.extend_from_slice(&input.buf[input.start..end]);
        input.start = end;
    }
    Ok(true)
}

/// Scans the current game on from where the scan stands: the buffer index before which it ends,
/// or [`NeedMore`]; see the module documentation.
///
/// A comment that holds a tag line and has no `}` within the size limit (counted from the game's
/// start, whatever the buffer holds) was never closed: the game ends before that line. Here, when
/// more input is needed past the limit; the `}` itself is checked where it is found. (So [`cut`]
/// never drops the bytes of a game too large while such a line is pending: the line's place
/// would go with them.)
fn scan<R>(
    input: &mut Buffer<R>,
    names: &mut TagNames,
    max_game: usize,
    s: &mut Scan,
) -> Result<usize, NeedMore> {
    match scan_on(input, names, max_game, s) {
        Err(NeedMore)
            if let Some(suspect) = s.suspect
                && s.past_limit(input.base, s.lexer.pos, max_game) =>
        {
            Ok(rewind(&mut input.lines, input.base, suspect))
        }
        step => step,
    }
}

/// [`scan`] up to the end of the game or of the buffer: the section machine over the lexemes.
fn scan_on<R>(
    input: &mut Buffer<R>,
    names: &mut TagNames,
    max_game: usize,
    s: &mut Scan,
) -> Result<usize, NeedMore> {
    let buf = &input.buf[..input.end];
    let eof = input.eof;
    let base = input.base;
    let game_start = input.start;
    let lines = &mut input.lines;
    loop {
        let lexeme = s.lexer.next(buf, eof, lines, base, s.suspect.is_some())?;
        let p = s.lexer.pos;
        let b = match lexeme {
            Lexeme::Token(b) => b,
            Lexeme::LineEnd => {
                s.in_tag = false;
                if s.section == Section::AfterResult {
                    s.section = Section::Trailer;
                }
                continue;
            }
            Lexeme::End => {
                // A comment that holds a tag line and is not closed by the end was never
                // closed: the game ends before that line. (Past the size limit, see `scan`.)
                if let Some(suspect) = s.suspect
                    && s.lexer.context == Context::Brace
                {
                    return Ok(rewind(lines, base, suspect));
                }
                return Ok(p);
            }
            Lexeme::CommentLine => {
                // The comment's first line that is a whole tag pair: it may quote a game, or
                // never be closed.
                if s.suspect.is_none()
                    && buf[p] == b'['
                    && tags::tag_line(whole_line(buf, p, eof)?).is_ok()
                {
                    s.suspect = Some((p, lines.line));
                }
                s.lexer.line_seen();
                continue;
            }
            // A comment runs to the first `}`. One that holds a tag line is taken as never
            // closed, and the game ends before that line, only where this reading fails: a `{`
            // comes first (comments do not nest: that is the next game's comment), or no `}`
            // comes within the size limit or before the end.
            Lexeme::CommentOpen => match s.suspect {
                Some(suspect) => return Ok(rewind(lines, base, suspect)),
                None => continue,
            },
            Lexeme::CommentClose => {
                if let Some(suspect) = s.suspect {
                    if s.past_limit(base, p, max_game) {
                        return Ok(rewind(lines, base, suspect));
                    }
                    // What follows the `}` must read as movetext.
                    if !could_be_movetext(whole_line(buf, p + 1, eof)?) {
                        return Ok(rewind(lines, base, suspect));
                    }
                }
                s.lexer.close_comment();
                s.suspect = None;
                continue;
            }
        };
        let at_line_start = base + p as u64 == lines.start;
        let lexer = &mut s.lexer;
        match s.section {
            Section::Tags => match b {
                _ if is_blank(b) => lexer.pos = p + 1,
                b'[' if !s.in_tag
                    && let Some(pair) = simple_tag_at(buf, p, names) =>
                {
                    // The common `[Name "value"]`, taken as the steps below take it: a
                    // repeated name ends the game; else the pair passes.
                    let Some(after) = pair else {
                        return Ok(p);
                    };
                    lexer.pos = after;
                }
                // Any other pair, on one line or over lines, whole: its line ends counted.
                b'[' if !s.in_tag
                    && let Some((name, after)) = tag_pair_at(buf, p, eof)? =>
                {
                    if !names.insert(hash_name(name)) {
                        return Ok(p);
                    }
                    lines.pass(&buf[p..after], base + p as u64);
                    lexer.pos = after;
                }
                // No pair: a broken tag, or a pair too long to look ahead over, which the steps
                // below take as they come.
                b'[' if !s.in_tag => {
                    let start = tag_start_at(buf, p, eof)?;
                    s.in_tag = true;
                    lexer.pos = p + 1;
                    if let Some((name, value)) = start {
                        if !names.insert(hash_name(name)) {
                            return Ok(p);
                        }
                        // Straight into the quoted value. The common case, a value closed on
                        // this line within the buffer, and then `]`, is taken in one step
                        // here; `closing_quote` reads escapes as the quote context does, and
                        // gives up (leaving it to that context) at a line end or at the end of
                        // the buffer.
                        match closing_quote(&buf[value..]) {
                            Some((k, _)) => {
                                lexer.pos = value + k + 1;
                                if buf.get(lexer.pos) == Some(&b']') {
                                    s.in_tag = false;
                                    lexer.pos += 1;
                                }
                            }
                            None => lexer.enter(Context::Quote, value),
                        }
                    }
                }
                b'"' if s.in_tag => lexer.enter(Context::Quote, p + 1),
                b']' if s.in_tag => {
                    s.in_tag = false;
                    lexer.pos = p + 1;
                }
                // Inside the brackets, up to the quote or the `]`.
                _ if s.in_tag => lexer.pos = p + find_any(&buf[p..], TAG_STOP),
                b';' => lexer.enter(Context::Line, p + 1),
                b'%' if at_line_start => lexer.enter(Context::Line, p + 1),
                _ => s.section = Section::Movetext,
            },
            Section::Movetext => match b {
                b'{' => lexer.enter(Context::Brace, p + 1),
                b';' => lexer.enter(Context::Line, p + 1),
                b'%' if at_line_start => lexer.enter(Context::Line, p + 1),
                b'(' => {
                    s.depth += 1;
                    lexer.pos = p + 1;
                }
                b')' => {
                    s.depth = s.depth.saturating_sub(1);
                    lexer.pos = p + 1;
                }
                b'[' => match starts_tags(buf, p, eof)? {
                    true => return Ok(p),
                    false => lexer.pos = p + 1,
                },
                b'-' | b'*' if s.depth == 0 => match result_around(buf, game_start, p, eof)? {
                    Some(end) => {
                        s.section = Section::AfterResult;
                        lexer.pos = end;
                    }
                    None => lexer.pos = p + 1,
                },
                // Up to the next byte that may change something.
                _ => lexer.pos = p + 1 + find_any(&buf[p + 1..], MOVETEXT_STOP),
            },
            Section::AfterResult => match b {
                b'{' => lexer.enter(Context::Brace, p + 1),
                b'[' => match starts_tags(buf, p, eof)? {
                    true => return Ok(p),
                    false => lexer.pos = p + 1,
                },
                _ => lexer.pos = p + 1,
            },
            Section::Trailer => match b {
                _ if is_blank(b) => lexer.pos = p + 1,
                b'{' => lexer.enter(Context::Brace, p + 1),
                b';' => lexer.enter(Context::Line, p + 1),
                b'%' if at_line_start => lexer.enter(Context::Line, p + 1),
                _ => return Ok(p),
            },
        }
    }
}

/// Whether `rest`, the rest of a line after a `}`, could go on as movetext: no control bytes,
/// and blank or starting like a movetext token.
fn could_be_movetext(rest: &[u8]) -> bool {
    if rest.iter().any(|&b| is_control(b)) {
        return false;
    }
    match rest.iter().find(|&&b| !is_blank(b)) {
        None => true,
        Some(&b) => may_start_token(b),
    }
}

/// Takes the line count back to `(at, line)`, the start of a line the scan looked past, where
/// the game ends after all; returns `at`.
fn rewind(lines: &mut Lines, base: u64, (at, line): (usize, u64)) -> usize {
    lines.line = line;
    lines.start = base + at as u64;
    at
}

/// Whether a tag pair starts at `buf[p]` (a `[`): `None` if not, `Some((name, value))` if it
/// does, with the index where its value starts. A tag start never spans lines, so a line end (or
/// the end of the input, or the look-ahead limit) within reach decides; before it,
/// [`NeedMore`].
fn tag_start_at(buf: &[u8], p: usize, eof: bool) -> Result<Option<(&[u8], usize)>, NeedMore> {
    let window = tag_window(buf, p);
    match tags::tag_start(window) {
        Ok((rest, name)) => Ok(Some((name, p + window.len() - rest.len()))),
        Err(_) if whole_line(buf, p, eof).is_err() => Err(NeedMore),
        Err(_) => Ok(None),
    }
}

/// Whether a tag section starts at `buf[p]` (a `[`) and ends the game before it: a tag start
/// `[Name "` on the line, or a whole pair over lines ([`tag_pair_at`]).
fn starts_tags(buf: &[u8], p: usize, eof: bool) -> Result<bool, NeedMore> {
    Ok(tag_start_at(buf, p, eof)?.is_some() || tag_pair_at(buf, p, eof)?.is_some())
}

/// The whole tag pair at `buf[p]` (a `[`), on one line or over lines, as
/// [`tags::tag_pair_over_lines`] reads it within its look-ahead: `Some((name, after))`, with the
/// index after its `]`; `None` if there is none; [`NeedMore`] if the bytes end before that is
/// known.
fn tag_pair_at(buf: &[u8], p: usize, eof: bool) -> Result<Option<(&[u8], usize)>, NeedMore> {
    match tags::tag_pair_over_lines(&buf[p..]) {
        Ok((rest, ((name, _), _))) => Ok(Some((name, buf.len() - rest.len()))),
        Err(nom::Err::Incomplete(_)) if !eof => Err(NeedMore),
        Err(_) => Ok(None),
    }
}

/// The common tag pair `[Name "value"]` at `buf[p]` (a `[`), by [`simple_tag_hashed`]:
/// `Some(Some(after))`, the index after its `]`, with its name noted in `names`; `Some(None)` if
/// the name is already there; `None` for any other form, or a name too long for
/// [`tag_start_at`]'s look-ahead to see its quote (then that look-ahead decides).
#[inline]
fn simple_tag_at(buf: &[u8], p: usize, names: &mut TagNames) -> Option<Option<usize>> {
    let (name_end, value_end, hash) = simple_tag_hashed(&buf[p..])?;
    if name_end + 2 > MAX_TAG_LINE {
        return None;
    }
    Some(names.insert(hash).then_some(p + value_end + 2))
}

/// Whether the `-` or `*` at `buf[q]` belongs to a result that may start where it does (see
/// [`may_start_result`]): `None` if not, `Some(end)` with the index after the result;
/// [`NeedMore`] if more input is needed.
fn result_around(
    buf: &[u8],
    game_start: usize,
    q: usize,
    eof: bool,
) -> Result<Option<usize>, NeedMore> {
    if buf[q] == b'-' && !(q > game_start && buf[q - 1].is_ascii_digit()) {
        return Ok(None);
    }
    let starts: &[usize] = if buf[q] == b'*' { &[0] } else { &[1, 3] };
    for &back in starts {
        let Some(s) = q.checked_sub(back).filter(|&s| s >= game_start) else {
            continue;
        };
        if s > game_start && !may_start_result(buf[s - 1], buf[s]) {
            continue;
        }
        // A result is at most 7 bytes; one more tells whether a delimiter follows.
        if !eof && buf.len() - s < 8 {
            return Err(NeedMore);
        }
        if let Ok((rest, _)) = grammar::result(&buf[s..]) {
            return Ok(Some(buf.len() - rest.len()));
        }
    }
    Ok(None)
}
