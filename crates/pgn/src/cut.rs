//! Cutting: where one game ends and the next begins, found by a light scan of the read buffer that
//! knows just enough of the grammar: tag pairs and their quoted values, `{ }` comments (which may
//! hold `[`, blank lines and result-like text), `;` comments, `%` escape lines in column 1, and the
//! depth of `( )` variations. A game ends
//!
//! - after the line of its termination marker (`1-0`, `0-1`, `1/2-1/2`, `*`) outside any comment or
//!   variation — the rest of that line belongs to the game, so `1-0 ff` stays together, and so do
//!   the comments, `%` lines and blank lines that follow it, up to the next game's first token;
//! - where the next tag section starts: a `[Name "` outside comments once the movetext has begun,
//!   or a tag whose name already appeared in this game's tag section (header-only games in a row);
//! - inside a `{` comment, before its first line that is nothing but a tag pair, when the comment
//!   was never closed: no `}` follows before the end of the input or within the size limit, a `{`
//!   comes before the `}` (comments do not nest, so that `{` opens a comment of the next game), a
//!   second tag section starts after other text (the game after next), or what follows the `}` on
//!   its line cannot be movetext (control bytes, or no token's first byte). Otherwise the comment
//!   runs to its `}`, tag lines and all: annotators quote games in comments;
//! - at the end of the input.
//!
//! Blank lines separate nothing by themselves: a blank line inside the tag section, or two after
//! it, keeps one game. The grammar rules themselves live in [`super::grammar`]; the scan calls the
//! same rules for results and tag starts, so that it and the parser agree.

use std::io::{self, Read};

use super::buffer::{Buffer, Lines};
use super::grammar;
use super::raw::RawGame;
use super::scan::find_any;
use super::tag_names::{TagNames, hash_name, simple_tag_hashed};
use super::tags;
use super::token::{
    BRACE_STOP, LineEnd, MAX_TAG_LINE, MOVETEXT_STOP, SUSPECT_STOP, TAG_STOP, VALUE_STOP, is_blank,
    is_delim_before, line_end,
};

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

/// Which lexical context the scan is in.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Inner {
    /// Between tokens.
    Normal,
    /// Inside a `{ }` comment.
    Brace,
    /// Inside a `;` comment or a `%` line, up to the line end.
    Line,
    /// Inside the quoted value of a tag pair.
    Quote,
}

/// The scan's state, kept across buffer refills.
#[derive(Debug)]
struct Scan {
    section: Section,
    inner: Inner,
    /// Between a tag's `[` and its `]` (or the line end).
    in_tag: bool,
    /// At the start of a line inside a comment, to be checked for a tag pair.
    check_line: bool,
    /// The buffer index and line number of the first line of the current `{` comment that is a
    /// whole tag pair: the comment may quote a game, or never be closed (see [`scan`]).
    suspect: Option<(usize, u64)>,
    /// A line other than a tag pair came after the suspect line in the comment.
    suspect_movetext: bool,
    depth: u64,
    /// The buffer index of the next byte to look at.
    pos: usize,
    /// The stream offset of the game's first byte.
    start: u64,
}

impl Scan {
    /// Whether the game has ended where the scan stands, if the input ends there: after its
    /// result, and not inside a comment.
    fn ended(&self) -> bool {
        matches!(self.section, Section::AfterResult | Section::Trailer)
            && self.inner != Inner::Brace
    }

    /// Whether buffer index `at` (of a buffer whose first byte is at stream offset `base`) lies
    /// more than `max_game` bytes past the game's start.
    fn past_limit(&self, base: u64, at: usize, max_game: usize) -> bool {
        base + at as u64 - self.start > max_game as u64
    }
}

/// What a scan step found.
enum Step {
    /// The game ends before this buffer index.
    End(usize),
    /// More input is needed to go on.
    NeedMore,
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
    names.clear();
    let mut state = Scan {
        section: Section::Tags,
        inner: Inner::Normal,
        in_tag: false,
        check_line: false,
        suspect: None,
        suspect_movetext: false,
        depth: 0,
        pos: input.start,
        start: input.bytes_done(),
    };
    let mut skipped = 0u64;
    let end = loop {
        match scan(input, names, max_game, &mut state) {
            Step::End(end) => break end,
            Step::NeedMore => {
                if state.pos - input.start > max_game {
                    // Too large: keep a few bytes for the result check's look-behind.
                    let keep = state.pos.saturating_sub(8).max(input.start);
                    skipped += (keep - input.start) as u64;
                    input.start = keep;
                }
                let shift = input.fill();
                state.pos -= shift;
                if let Some((suspect, _)) = &mut state.suspect {
                    *suspect -= shift;
                }
            }
        }
    };
    game.cut_short = end == input.end && input.error.is_some() && !state.ended();
    game.first_line = first_line;
    game.first_column = first_column;
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

/// Scans the current game from `s.pos` on; see the module documentation.
///
/// A comment that holds a tag line and has no `}` within the size limit (counted from the game's
/// start, whatever the buffer holds) was never closed: the game ends before that line. Here, when
/// more input is needed past the limit; the `}` itself is checked where it is found. (So [`cut`]
/// never drops the bytes of a game too large while such a line is pending: the line's place
/// would go with them.)
fn scan<R>(input: &mut Buffer<R>, names: &mut TagNames, max_game: usize, s: &mut Scan) -> Step {
    match scan_on(input, names, max_game, s) {
        Step::NeedMore
            if let Some(suspect) = s.suspect
                && s.past_limit(input.base, s.pos, max_game) =>
        {
            Step::End(rewind(&mut input.lines, input.base, suspect))
        }
        step => step,
    }
}

/// [`scan`] up to the end of the game or of the buffer.
fn scan_on<R>(input: &mut Buffer<R>, names: &mut TagNames, max_game: usize, s: &mut Scan) -> Step {
    let buf = &input.buf[..input.end];
    let len = buf.len();
    let eof = input.eof;
    let base = input.base;
    let game_start = input.start;
    let lines = &mut input.lines;
    // The byte after `q`, if known; `Err` means more input is needed to tell.
    let next = |q: usize| -> Result<Option<u8>, ()> {
        match buf.get(q + 1) {
            Some(&b) => Ok(Some(b)),
            None if eof => Ok(None),
            None => Err(()),
        }
    };
    let newline = |lines: &mut Lines, at: usize| {
        lines.line += 1;
        lines.start = base + at as u64;
    };
    loop {
        let p = s.pos;
        if p >= len {
            // A comment that holds a tag line and is not closed by the end was never closed:
            // the game ends before that line. (Past the size limit, see `scan`.)
            if eof && let Some(suspect) = s.suspect {
                return Step::End(rewind(lines, base, suspect));
            }
            return if eof { Step::End(len) } else { Step::NeedMore };
        }
        match s.inner {
            Inner::Brace => {
                if s.check_line && (s.suspect.is_some() || buf[p] == b'[') {
                    let Some(line) = complete_line(buf, p, eof) else {
                        return Step::NeedMore;
                    };
                    let tag_line = line.first() == Some(&b'[') && tags::tag_line(line).is_ok();
                    match s.suspect {
                        None if tag_line => s.suspect = Some((p, lines.line)),
                        // A second tag section after text: the next game's, not a quote.
                        Some(suspect) if tag_line && s.suspect_movetext => {
                            return Step::End(rewind(lines, base, suspect));
                        }
                        Some(_) if !tag_line && !line.iter().all(|&b| is_blank(b)) => {
                            s.suspect_movetext = true;
                        }
                        _ => {}
                    }
                }
                s.check_line = false;
                // A comment runs to the first `}`. One that holds a tag line is taken as
                // never closed, and the game ends before that line, only where this reading
                // fails: a `{` comes first (comments do not nest: that is the next game's
                // comment), or no `}` comes within the size limit or before the end.
                let k = match s.suspect {
                    None => find_any(&buf[p..], BRACE_STOP),
                    Some(_) => find_any(&buf[p..], SUSPECT_STOP),
                };
                match (p + k < len).then_some(k) {
                    None => s.pos = len,
                    Some(k) => {
                        let q = p + k;
                        match buf[q] {
                            b'}' => {
                                if let Some(suspect) = s.suspect {
                                    if s.past_limit(base, q, max_game) {
                                        return Step::End(rewind(lines, base, suspect));
                                    }
                                    // What follows the `}` must read as movetext.
                                    match complete_line(buf, q + 1, eof) {
                                        None => {
                                            s.pos = q;
                                            return Step::NeedMore;
                                        }
                                        Some(rest) if !could_be_movetext(rest) => {
                                            return Step::End(rewind(lines, base, suspect));
                                        }
                                        Some(_) => {}
                                    }
                                }
                                s.pos = q + 1;
                                s.inner = Inner::Normal;
                                s.suspect = None;
                                s.suspect_movetext = false;
                            }
                            b'{' => match s.suspect {
                                Some(suspect) => {
                                    return Step::End(rewind(lines, base, suspect));
                                }
                                None => s.pos = q + 1,
                            },
                            b'\n' => {
                                newline(lines, q + 1);
                                s.pos = q + 1;
                                s.check_line = true;
                            }
                            _ => match line_end(buf, q) {
                                LineEnd::CrAtEnd if !eof => {
                                    s.pos = q;
                                    return Step::NeedMore;
                                }
                                // The LF ends the line, on the next turn.
                                LineEnd::CrLf => s.pos = q + 1,
                                _ => {
                                    newline(lines, q + 1);
                                    s.pos = q + 1;
                                    s.check_line = true;
                                }
                            },
                        }
                    }
                }
            }
            Inner::Line => {
                let k = memchr::memchr2(b'\n', b'\r', &buf[p..]).unwrap_or(len - p);
                s.pos = p + k;
                if s.pos < len {
                    s.inner = Inner::Normal;
                }
            }
            Inner::Quote => match buf[p] {
                // The common case first: plain text, skipped in a tight loop.
                b if !VALUE_STOP.contains(&b) => s.pos = p + find_any(&buf[p..], VALUE_STOP),
                b'"' => {
                    s.pos = p + 1;
                    s.inner = Inner::Normal;
                }
                b'\\' => match next(p) {
                    Err(()) => return Step::NeedMore,
                    Ok(Some(b'"' | b'\\')) => s.pos = p + 2,
                    Ok(_) => s.pos = p + 1,
                },
                b'\n' | b'\r' => s.inner = Inner::Normal,
                _ => s.pos = p + 1,
            },
            Inner::Normal => {
                let b = buf[p];
                // Line ends are the same in every section.
                if b == b'\n' || b == b'\r' {
                    let after = match line_end(buf, p) {
                        LineEnd::CrAtEnd if !eof => return Step::NeedMore,
                        LineEnd::CrLf => {
                            // The LF ends the line, on the next turn.
                            s.pos = p + 1;
                            continue;
                        }
                        _ => p + 1,
                    };
                    newline(lines, after);
                    s.pos = after;
                    s.in_tag = false;
                    if s.section == Section::AfterResult {
                        s.section = Section::Trailer;
                    }
                    continue;
                }
                let at_line_start = base + p as u64 == lines.start;
                match s.section {
                    Section::Tags => match b {
                        b' ' | b'\t' | 0x0b | 0x0c => s.pos = p + 1,
                        b'[' if !s.in_tag
                            && let Some(pair) = simple_tag_at(buf, p, names) =>
                        {
                            // The common `[Name "value"]`, taken as the steps below take it:
                            // a repeated name ends the game; else the pair and its LF pass.
                            let Some(after) = pair else {
                                return Step::End(p);
                            };
                            s.pos = after;
                            if buf.get(s.pos) == Some(&b'\n') {
                                s.pos += 1;
                                newline(lines, s.pos);
                            }
                        }
                        b'[' if !s.in_tag => {
                            let start = tag_start_at(buf, p, eof);
                            if start == Some(None) {
                                return Step::NeedMore;
                            }
                            s.in_tag = true;
                            s.pos = p + 1;
                            if let Some(Some((name, value))) = start {
                                let hash = hash_name(name);
                                if !names.insert(hash) {
                                    return Step::End(p);
                                }
                                // Straight into the quoted value. The common case, a value
                                // closed on this line within the buffer, and then `]`, is
                                // taken in one step here; `closing_quote` reads escapes as
                                // the `Quote` state does, and gives up (leaving it to that
                                // state) at a line end or at the end of the buffer.
                                match tags::closing_quote(&buf[value..]) {
                                    Some(k) => {
                                        s.pos = value + k + 1;
                                        if buf.get(s.pos) == Some(&b']') {
                                            s.in_tag = false;
                                            s.pos += 1;
                                            // And the LF that usually ends the line, as
                                            // the line-end step above would take it.
                                            if buf.get(s.pos) == Some(&b'\n') {
                                                s.pos += 1;
                                                newline(lines, s.pos);
                                            }
                                        }
                                    }
                                    None => {
                                        s.inner = Inner::Quote;
                                        s.pos = value;
                                    }
                                }
                            }
                        }
                        b'"' if s.in_tag => {
                            s.inner = Inner::Quote;
                            s.pos = p + 1;
                        }
                        b']' if s.in_tag => {
                            s.in_tag = false;
                            s.pos = p + 1;
                        }
                        _ if s.in_tag => {
                            // Inside the brackets, up to the quote or the `]`.
                            s.pos = p + find_any(&buf[p..], TAG_STOP);
                        }
                        b';' => s.inner = Inner::Line,
                        b'%' if at_line_start => s.inner = Inner::Line,
                        _ => s.section = Section::Movetext,
                    },
                    Section::Movetext => {
                        // Stay in this loop for the stops that change no state (a one-line
                        // comment, brackets, a dash that is no result, and an LF, counted as
                        // the line-end step would: in the movetext that is all it does): the
                        // common case.
                        let mut q = p;
                        loop {
                            q += find_any(&buf[q..], MOVETEXT_STOP);
                            match buf.get(q) {
                                Some(b'{') => {
                                    let close = q + 1 + find_any(&buf[q + 1..], BRACE_STOP);
                                    if buf.get(close) != Some(&b'}') {
                                        break;
                                    }
                                    q = close;
                                }
                                Some(b'\n') => newline(lines, q + 1),
                                Some(b'(') => s.depth += 1,
                                Some(b')') => s.depth = s.depth.saturating_sub(1),
                                Some(b'-' | b'*') if s.depth > 0 => {}
                                Some(b'-') if !(q > game_start && buf[q - 1].is_ascii_digit()) => {}
                                _ => break,
                            }
                            q += 1;
                        }
                        s.pos = q;
                        if q == len {
                            continue;
                        }
                        match buf[q] {
                            // Handled above, on the next turn.
                            b'\n' | b'\r' => {}
                            b'{' => {
                                s.inner = Inner::Brace;
                                s.pos = q + 1;
                            }
                            b';' => s.inner = Inner::Line,
                            b'%' if base + q as u64 == lines.start => s.inner = Inner::Line,
                            b'[' => match tag_start_at(buf, q, eof) {
                                Some(None) => return Step::NeedMore,
                                Some(Some(_)) => return Step::End(q),
                                None => s.pos = q + 1,
                            },
                            b'-' | b'*' => match result_around(buf, game_start, q, eof) {
                                Some(None) => return Step::NeedMore,
                                Some(Some(end)) => {
                                    s.section = Section::AfterResult;
                                    s.pos = end;
                                }
                                None => s.pos = q + 1,
                            },
                            _ => s.pos = q + 1,
                        }
                    }
                    Section::AfterResult => match b {
                        b'{' => {
                            s.inner = Inner::Brace;
                            s.pos = p + 1;
                        }
                        b'[' => match tag_start_at(buf, p, eof) {
                            Some(None) => return Step::NeedMore,
                            Some(Some(_)) => return Step::End(p),
                            None => s.pos = p + 1,
                        },
                        _ => s.pos = p + 1,
                    },
                    Section::Trailer => match b {
                        b' ' | b'\t' | 0x0b | 0x0c => s.pos = p + 1,
                        b'{' => {
                            s.inner = Inner::Brace;
                            s.pos = p + 1;
                        }
                        b';' => s.inner = Inner::Line,
                        b'%' if at_line_start => s.inner = Inner::Line,
                        _ => return Step::End(p),
                    },
                }
            }
        }
    }
}

/// Whether `rest`, the rest of a line after a `}`, could go on as movetext: no control bytes,
/// and blank or starting like a movetext token.
fn could_be_movetext(rest: &[u8]) -> bool {
    if rest.iter().any(|&b| (b < 0x20 && b != b'\t') || b == 0x7f) {
        return false;
    }
    match rest.iter().find(|&&b| !is_blank(b)) {
        None => true,
        Some(&b) => b.is_ascii_alphanumeric() || b"(){};$*!?.-%[".contains(&b),
    }
}

/// Takes the line count back to `(at, line)`, the start of a line the scan looked past, where
/// the game ends after all; returns `at`.
fn rewind(lines: &mut Lines, base: u64, (at, line): (usize, u64)) -> usize {
    lines.line = line;
    lines.start = base + at as u64;
    at
}

/// Whether a tag pair starts at `buf[p]` (a `[`): `None` if not, `Some(None)` if more input is
/// needed to tell, `Some(Some((name, value)))` if it does, with the index where its value starts.
/// A tag start never spans lines, so a line end (or the end of the input, or the look-ahead limit)
/// within reach decides.
fn tag_start_at(buf: &[u8], p: usize, eof: bool) -> Option<Option<(&[u8], usize)>> {
    let window = &buf[p..buf.len().min(p + MAX_TAG_LINE)];
    match tags::tag_start(window) {
        Ok((rest, name)) => Some(Some((name, p + window.len() - rest.len()))),
        Err(_)
            if !eof
                && window.len() < MAX_TAG_LINE
                && memchr::memchr2(b'\n', b'\r', window).is_none() =>
        {
            Some(None)
        }
        Err(_) => None,
    }
}

/// The common tag pair `[Name "value"]` at `buf[p]` (a `[`), by [`simple_tag_hashed`]:
/// `Some(Some(after))`, the index after its `]`, with its name noted in `names`; `Some(None)` if
/// the name is already there; `None` for any other form, or a name too long to be sure that
/// [`tag_start_at`]'s look-ahead would see all of it.
#[inline]
fn simple_tag_at(buf: &[u8], p: usize, names: &mut TagNames) -> Option<Option<usize>> {
    let (name_end, value_end, hash) = simple_tag_hashed(&buf[p..])?;
    if name_end > 256 {
        return None;
    }
    Some(names.insert(hash).then_some(p + value_end + 2))
}

/// The line starting at `buf[p]` up to (not including) its end, if it is complete in the buffer
/// (or the input has ended); long lines are cut at the look-ahead limit.
fn complete_line(buf: &[u8], p: usize, eof: bool) -> Option<&[u8]> {
    let window = &buf[p..buf.len().min(p + MAX_TAG_LINE)];
    match memchr::memchr2(b'\n', b'\r', window) {
        Some(k) => Some(&window[..k]),
        None if eof || window.len() == MAX_TAG_LINE => Some(window),
        None => None,
    }
}

/// Whether the `-` or `*` at `buf[q]` belongs to a result that starts after a delimiter: `None` if
/// not, `Some(None)` if more input is needed, `Some(Some(end))` with the index after the result.
fn result_around(buf: &[u8], game_start: usize, q: usize, eof: bool) -> Option<Option<usize>> {
    let starts: &[usize] = if buf[q] == b'*' { &[0] } else { &[1, 3] };
    for &back in starts {
        let Some(s) = q.checked_sub(back).filter(|&s| s >= game_start) else {
            continue;
        };
        if s > game_start && !is_delim_before(buf[s - 1]) {
            continue;
        }
        // A result is at most 7 bytes; one more tells whether a delimiter follows.
        if !eof && buf.len() - s < 8 {
            return Some(None);
        }
        if let Ok((rest, _)) = grammar::result(&buf[s..]) {
            return Some(Some(buf.len() - rest.len()));
        }
    }
    None
}
