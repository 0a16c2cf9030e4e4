//! The PGN writer: a [`GameTree`] written in the export format of the PGN standard (section 8),
//! so that every tool reads it and a second `select` of it writes the same bytes.
//!
//! - The Seven Tag Roster first, in its order (`Event`, `Site`, `Date`, `Round`, `White`,
//!   `Black`, `Result`; a missing one written `?`, `????.??.??` or `*`), then the other tags in
//!   input order; values escaped (`\"`, `\\`); a blank line after the tags and after the game.
//! - Every move in the canonical SAN the replay recorded; White's moves numbered `12.`, Black's
//!   `12...` at the start of the movetext or of a variation and after a comment, a NAG or a
//!   variation; NAGs as `$n`; variations in `( )`.
//! - Comments as `{ text }` with their whitespace folded into single spaces (the one change a
//!   comment undergoes, so that lines can be wrapped: reading what was written gives the same
//!   text, folded). A comment that holds a `}` (possible only in a `;` comment) is written as a
//!   `;` comment, which ends its line.
//! - Lines of at most `LINE_WIDTH` characters, broken between tokens; a comment is broken
//!   between words, never inside a `[%...]` command and never before a word that starts with
//!   `[` or `%` (a line starting so could be read as a tag or an escape line). Only a tag pair,
//!   a `;` comment or a single unbreakable piece longer than that makes a longer line.
//! - The termination marker is the Result tag's value.
//!
//! [`WriteOptions`] leave out comments (keeping only the `[%clk]`, `[%emt]` and `[%eval]`
//! commands when asked, as lichess exports do), variations or NAGs.
//!
//! # Examples
//!
//! ```
//! use arbiter_core::tree::GameTree;
//! use arbiter_pgn::GameResult;
//! use arbiter_report::pgn_writer::{WriteOptions, write_game};
//! use arbiter_rules::Position;
//!
//! let mut tree = GameTree::default();
//! tree.tag("White", "Morphy, Paul");
//! tree.tag("Annotator", "\"Anon\"");
//! tree.start(&Position::startpos());
//! tree.san("e4", 1);
//! tree.nag(1);
//! tree.san("e5", 2);
//! tree.comment(" [%clk 0:03:00]\n  solid ");
//! let mut out = Vec::new();
//! write_game(&tree, GameResult::Unknown, None, &WriteOptions::default(), &mut out);
//! assert_eq!(
//!     String::from_utf8(out).unwrap(),
//!     "[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n\
//!      [White \"Morphy, Paul\"]\n[Black \"?\"]\n[Result \"*\"]\n[Annotator \"\\\"Anon\\\"\"]\n\n\
//!      1. e4 $1 1... e5 { [%clk 0:03:00] solid } *\n\n"
//! );
//! ```

use std::ops::Range;

use arbiter_core::tree::{GameTree, Node};
use arbiter_pgn::GameResult;

/// The longest line written, in characters (but see the module documentation).
pub(crate) const LINE_WIDTH: usize = 80;

/// The Seven Tag Roster, in order, with what stands for a missing tag.
pub const ROSTER: [(&str, &str); 7] = [
    ("Event", "?"),
    ("Site", "?"),
    ("Date", "????.??.??"),
    ("Round", "?"),
    ("White", "?"),
    ("Black", "?"),
    ("Result", "*"),
];

/// What the writer keeps of the movetext.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct WriteOptions {
    /// Write comments (`--no-comments` clears it).
    pub comments: bool,
    /// Without comments, still write the `[%clk]`, `[%emt]` and `[%eval]` commands of each
    /// (`--keep-commands`).
    pub keep_commands: bool,
    /// Write variations (`--no-variations` clears it).
    pub variations: bool,
    /// Write NAGs (`--no-nags` clears it).
    pub nags: bool,
}

impl Default for WriteOptions {
    /// Everything kept.
    fn default() -> WriteOptions {
        WriteOptions {
            comments: true,
            keep_commands: false,
            variations: true,
            nags: true,
        }
    }
}

/// Appends `tree` as PGN to `out`, with `result` as its Result tag and termination marker, and,
/// when `opening` is given, its `ECO` and `Opening` tags replaced by those values (in place, or
/// added after the other tags).
pub fn write_game(
    tree: &GameTree,
    result: GameResult,
    opening: Option<(&str, &str)>,
    options: &WriteOptions,
    out: &mut Vec<u8>,
) {
    write_tags(tree, result, opening, out);
    out.push(b'\n');
    let mut lines = Lines { out, column: 0 };
    write_movetext(tree, options, &mut lines);
    let (marker, len) = result_word(result);
    lines.word(marker, len);
    out.extend_from_slice(b"\n\n");
}

/// The tag section: the roster, then the other tags in input order.
fn write_tags(
    tree: &GameTree,
    result: GameResult,
    opening: Option<(&str, &str)>,
    out: &mut Vec<u8>,
) {
    let text = tree.all_text();
    let tags = tree.tag_spans();
    // The tags' text is the start of the tree's text (a comment's may follow): one scan of it
    // tells whether a value may hold a `"` or a `\` to escape (nearly never).
    let tags_end = tags.last().map_or(0, |(_, value)| value.range().end);
    let may_escape =
        memchr::memchr2(b'"', b'\\', text.get(..tags_end).unwrap_or_default()).is_some();
    // Room for every tag at once, with the slack the copies of a fixed size write past a piece.
    out.reserve(tags_end + (tags.len() + ROSTER.len() + 2) * (PIECE_SLACK + 5));
    // Each roster tag's first value, and which of the first 64 tags are roster tags, found in
    // one pass over the tags.
    let mut roster: [Option<Piece<'_>>; ROSTER.len()] = [None; ROSTER.len()];
    let mut in_roster = 0u64;
    for (i, &(name, value)) in tags.iter().enumerate() {
        if let Some(r) = roster_index(piece(text, name.range()).bytes()) {
            roster[r].get_or_insert(piece(text, value.range()));
            in_roster |= 1u64.checked_shl(i as u32).unwrap_or(0);
        }
    }
    for (i, &(line_start, missing)) in ROSTER_LINES.iter().enumerate() {
        if i == RESULT_INDEX {
            push_result_line(result, out);
            continue;
        }
        push_padded(out, &line_start);
        match roster[i] {
            Some(value) => push_value(out, value, may_escape),
            None => push_value(out, Piece::whole(missing), true),
        }
        out.extend_from_slice(b"\"]\n");
    }
    let (mut eco_written, mut opening_written) = (false, false);
    for (i, &(name, value)) in tags.iter().enumerate() {
        let name = piece(text, name.range());
        let roster_tag = match 1u64.checked_shl(i as u32) {
            Some(bit) => in_roster & bit != 0,
            None => roster_index(name.bytes()).is_some(),
        };
        if roster_tag {
            continue;
        }
        match (name.bytes(), opening) {
            (b"ECO", Some((eco, _))) => {
                eco_written = true;
                tag(name, Piece::whole(eco), true, out);
            }
            (b"Opening", Some((_, title))) => {
                opening_written = true;
                tag(name, Piece::whole(title), true, out);
            }
            _ => tag(name, piece(text, value.range()), may_escape, out),
        }
    }
    if let Some((eco, title)) = opening {
        if !eco_written {
            tag(Piece::whole("ECO"), Piece::whole(eco), true, out);
        }
        if !opening_written {
            tag(Piece::whole("Opening"), Piece::whole(title), true, out);
        }
    }
}

/// Where the tag `name` stands in [`ROSTER`], if it is one of the seven.
#[inline(always)]
fn roster_index(name: &[u8]) -> Option<usize> {
    match name {
        b"Event" => Some(0),
        b"Site" => Some(1),
        b"Date" => Some(2),
        b"Round" => Some(3),
        b"White" => Some(4),
        b"Black" => Some(5),
        b"Result" => Some(RESULT_INDEX),
        _ => None,
    }
}

/// Where `Result` stands in [`ROSTER`].
const RESULT_INDEX: usize = 6;

/// Each roster tag's line up to its value (`[Event "`) padded to 16 bytes with its length, and
/// what stands for its value when the tag is missing.
const ROSTER_LINES: [(([u8; 16], usize), &str); ROSTER.len()] = {
    let mut lines = [(([0; 16], 0), ""); ROSTER.len()];
    let mut i = 0;
    while i < ROSTER.len() {
        let (name, missing) = ROSTER[i];
        let name = name.as_bytes();
        let mut line = [0; 16];
        line[0] = b'[';
        let mut k = 0;
        while k < name.len() {
            line[1 + k] = name[k];
            k += 1;
        }
        line[1 + k] = b' ';
        line[2 + k] = b'"';
        lines[i] = ((line, name.len() + 3), missing);
        i += 1;
    }
    lines
};

/// The Result tag's line, each a copy of a fixed size.
#[inline]
fn push_result_line(result: GameResult, out: &mut Vec<u8>) {
    match result {
        GameResult::WhiteWins => out.extend_from_slice(b"[Result \"1-0\"]\n"),
        GameResult::BlackWins => out.extend_from_slice(b"[Result \"0-1\"]\n"),
        GameResult::Draw => out.extend_from_slice(b"[Result \"1/2-1/2\"]\n"),
        GameResult::Unknown => out.extend_from_slice(b"[Result \"*\"]\n"),
    }
}

/// The termination marker as the low bytes of a word, and its length ([`Lines::word`]).
fn result_word(result: GameResult) -> (u128, usize) {
    let marker = result.as_str().as_bytes();
    let mut bytes = [0; 16];
    for (slot, &b) in bytes.iter_mut().zip(marker) {
        *slot = b;
    }
    (u128::from_le_bytes(bytes), marker.len())
}

/// One tag pair on its line, the value escaped when `may_escape` (else it has nothing to
/// escape).
#[inline(always)]
fn tag(name: Piece<'_>, value: Piece<'_>, may_escape: bool, out: &mut Vec<u8>) {
    out.reserve(name.len + value.len + 2 * PIECE_SLACK + 5);
    out.push(b'[');
    push_piece(out, name);
    out.extend_from_slice(b" \"");
    push_value(out, value, may_escape);
    out.extend_from_slice(b"\"]\n");
}

/// A tag value, its `"` and `\\` escaped when `may_escape` says it may hold one.
#[inline(always)]
fn push_value(out: &mut Vec<u8>, value: Piece<'_>, may_escape: bool) {
    if may_escape && needs_escapes(value.bytes()) {
        for &b in value.bytes() {
            if b == b'"' || b == b'\\' {
                out.push(b'\\');
            }
            out.push(b);
        }
    } else {
        push_piece(out, value);
    }
}

/// Whether `value` holds a `"` or a `\\`, which a tag value escapes. Eight bytes at a time: a
/// tag value is a few words, where a call to `memchr2` cost more than the scan.
fn needs_escapes(value: &[u8]) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    let mut chunks = value.chunks_exact(8);
    let any = |word: u64| {
        let quote = word ^ (ONES * u64::from(b'"'));
        let backslash = word ^ (ONES * u64::from(b'\\'));
        let zero = |w: u64| w.wrapping_sub(ONES) & !w & HIGH_BITS;
        zero(quote) | zero(backslash) != 0
    };
    for chunk in &mut chunks {
        if any(u64::from_le_bytes(chunk.try_into().expect("eight bytes"))) {
            return true;
        }
    }
    chunks.remainder().iter().any(|&b| b == b'"' || b == b'\\')
}

/// A piece of text to copy: its bytes first, then whatever follows them in the same buffer,
/// which a copy of a fixed size takes along and cuts off ([`push_piece`]).
#[derive(Copy, Clone, Debug)]
struct Piece<'a> {
    /// The piece's bytes, then the rest of its buffer.
    from: &'a [u8],
    /// The piece's length.
    len: usize,
}

impl<'a> Piece<'a> {
    /// A whole string (a copy of it calls `memcpy` once it is shorter than 16 bytes).
    fn whole(text: &'a str) -> Piece<'a> {
        Piece {
            from: text.as_bytes(),
            len: text.len(),
        }
    }

    /// The piece's bytes.
    fn bytes(self) -> &'a [u8] {
        &self.from[..self.len]
    }
}

/// The piece `range` of `text`.
#[inline]
fn piece(text: &[u8], range: Range<usize>) -> Piece<'_> {
    let from = text.get(range.start..).unwrap_or_default();
    Piece {
        len: range.len().min(from.len()),
        from,
    }
}

/// How many bytes past a piece [`push_piece`] may write (and cut off): room to reserve.
const PIECE_SLACK: usize = 16;

/// Appends `piece` in copies of 16 bytes, the last cut back; only its last bytes are copied by
/// length when its buffer ends less than 16 bytes after them.
#[inline(always)]
fn push_piece(out: &mut Vec<u8>, piece: Piece<'_>) {
    let end = out.len() + piece.len;
    let mut rest = piece.from;
    while out.len() < end {
        match rest.split_first_chunk::<16>() {
            Some((chunk, after)) => {
                out.extend_from_slice(chunk);
                rest = after;
            }
            None => {
                let left = end - out.len();
                out.extend_from_slice(&rest[..left]);
            }
        }
    }
    out.truncate(end);
}

/// Appends the first `len` bytes of a padded piece (`(bytes, len)`), in one copy of its size.
#[inline(always)]
fn push_padded<const N: usize>(out: &mut Vec<u8>, &(bytes, len): &([u8; N], usize)) {
    push_cut(out, &bytes, len);
}

/// The movetext's lines: pieces that must not be broken ("units") are placed one after the
/// other, a space between them, and a new line before one that would pass [`LINE_WIDTH`].
struct Lines<'a> {
    out: &'a mut Vec<u8>,
    /// Characters on the current line.
    column: usize,
}

impl Lines<'_> {
    /// Places a unit `width` characters wide, which `write` appends.
    #[inline]
    fn unit(&mut self, width: usize, write: impl FnOnce(&mut Vec<u8>)) {
        if self.column > 0 {
            if !self.fits(width) {
                self.out.push(b'\n');
                self.column = 0;
            } else {
                self.out.push(b' ');
                self.column += 1;
            }
        }
        write(self.out);
        self.column += width;
    }

    /// Whether a unit `width` characters wide goes on the current line.
    fn fits(&self, width: usize) -> bool {
        if self.column == 0 {
            width <= LINE_WIDTH
        } else {
            self.column + 1 + width <= LINE_WIDTH
        }
    }

    /// Places a unit of at most 15 ASCII bytes, given as the low bytes of `word` (little-endian)
    /// and its length: the separator before it (a space or a line end) and the unit go out as one
    /// store of 16 bytes, cut back.
    #[inline(always)]
    fn word(&mut self, word: u128, len: usize) {
        let (word, written) = if self.column == 0 {
            (word, len)
        } else if self.fits(len) {
            self.column += 1;
            ((word << 8) | u128::from(b' '), len + 1)
        } else {
            self.column = 0;
            ((word << 8) | u128::from(b'\n'), len + 1)
        };
        self.column += len;
        push_cut(self.out, &word.to_le_bytes(), written);
    }

    /// Places a clock comment ([`clock_comment`]), with the separator before it, as one copy of
    /// a fixed size.
    #[inline]
    fn clock(&mut self, comment: &[u8; 18]) {
        let mut unit = [b' '; 19];
        unit[1..].copy_from_slice(comment);
        if self.column == 0 {
            self.out.extend_from_slice(&unit[1..]);
        } else {
            if self.fits(comment.len()) {
                self.column += 1;
            } else {
                unit[0] = b'\n';
                self.column = 0;
            }
            self.out.extend_from_slice(&unit);
        }
        self.column += comment.len();
    }

    /// Places a unit of text.
    fn text(&mut self, text: &str) {
        self.unit(width(text), |out| out.extend_from_slice(text.as_bytes()));
    }

    /// Ends the line (after a `;` comment).
    fn end_line(&mut self) {
        self.out.push(b'\n');
        self.column = 0;
    }
}

/// The width of `text` in characters.
fn width(text: &str) -> usize {
    if text.is_ascii() {
        text.len()
    } else {
        text.bytes().filter(|&b| b & 0xC0 != 0x80).count()
    }
}

/// The movetext, without its termination marker.
fn write_movetext(tree: &GameTree, options: &WriteOptions, lines: &mut Lines<'_>) {
    // Whether the next move needs its number even if Black makes it.
    let mut numbered = true;
    // How deep inside a variation that is left out.
    let mut skipping = 0u32;
    let mut scratch = String::new();
    let all_text = tree.all_text();
    let nodes = tree.nodes();
    let mut next = 0;
    while let Some(node) = nodes.get(next) {
        next += 1;
        if skipping > 0 {
            match *node {
                Node::Open => skipping += 1,
                Node::Close => skipping -= 1,
                _ => {}
            }
            continue;
        }
        match *node {
            Node::Move { ref san, ply } => {
                let Some((word, len)) = move_word(tree, san.padded(), ply, numbered) else {
                    write_long_move(tree, san.padded(), ply, lines);
                    numbered = false;
                    continue;
                };
                lines.word(word, len);
                numbered = false;
                // The call only where a lichess clock comment may follow.
                if options.comments
                    && let Some(Node::Comment(span)) = nodes.get(next)
                    && span.range().len() == CLOCK_LEN
                {
                    (next, numbered) = write_clocked_plies(tree, nodes, next, lines);
                }
            }
            Node::Null { ply } => {
                let null = (b"--\0\0\0\0\0", 2);
                match move_word(tree, null, ply, numbered) {
                    Some((word, len)) => lines.word(word, len),
                    None => write_long_move(tree, null, ply, lines),
                }
                numbered = false;
            }
            Node::Nag(nag) if options.nags => {
                let (digits, len) = crate::decimal::digits(u64::from(nag));
                lines.unit(len + 1, |out| {
                    out.push(b'$');
                    out.extend_from_slice(&digits[..len]);
                });
                numbered = true;
            }
            Node::Nag(_) => {}
            Node::Comment(span) => {
                let range = span.range();
                if options.comments
                    && let Some(comment) = all_text.get(range.clone()).and_then(clock_comment)
                {
                    lines.clock(&comment);
                    numbered = true;
                    continue;
                }
                if options.comments
                    && let Some(bytes) = all_text.get(range.clone())
                    && is_eval_and_clock(bytes)
                {
                    let text = piece(all_text, range);
                    lines.unit(text.len + 2, |out| {
                        out.reserve(text.len + 2 + PIECE_SLACK);
                        out.push(b'{');
                        push_piece(out, text);
                        out.push(b'}');
                    });
                    numbered = true;
                    continue;
                }
                let text = tree.text(span);
                let written = if options.comments {
                    match folded(text) {
                        Some((trimmed, width)) if lines.fits(width + 4) && !trimmed.is_empty() => {
                            let at = range.start + trimmed.start;
                            let text = piece(all_text, at..at + trimmed.len());
                            lines.unit(width + 4, |out| {
                                out.reserve(width + 4 + PIECE_SLACK);
                                out.extend_from_slice(b"{ ");
                                push_piece(out, text);
                                out.extend_from_slice(b" }");
                            });
                        }
                        Some((trimmed, _)) => write_comment(&text[trimmed], lines),
                        None => {
                            fold(text, &mut scratch);
                            write_comment(&scratch, lines);
                        }
                    }
                    true
                } else if options.keep_commands {
                    commands(text, &mut scratch);
                    !scratch.is_empty() && {
                        write_comment(&scratch, lines);
                        true
                    }
                } else {
                    false
                };
                numbered |= written;
            }
            Node::Open if options.variations => {
                lines.text("(");
                numbered = true;
            }
            Node::Open => skipping = 1,
            Node::Close => {
                lines.text(")");
                numbered = true;
            }
        }
    }
}

/// The plies of a lichess game after a move, from `nodes[at]` on: a clock comment, then a
/// move and its clock comment, and so on, in a loop of their own (where the movetext's loop
/// goes round once for each node and keeps its state in memory). Returns where they stop, and
/// whether the last node written was a comment (so that a Black move after it takes its
/// number).
#[inline(never)]
fn write_clocked_plies(
    tree: &GameTree,
    nodes: &[Node],
    mut at: usize,
    lines: &mut Lines<'_>,
) -> (usize, bool) {
    let text = tree.all_text();
    let mut local = Lines {
        out: &mut *lines.out,
        column: lines.column,
    };
    let mut commented = false;
    while let Some(&Node::Comment(span)) = nodes.get(at)
        && let Some(comment) = text.get(span.range()).and_then(clock_comment)
    {
        local.clock(&comment);
        at += 1;
        commented = true;
        let Some(&Node::Move { ref san, ply }) = nodes.get(at) else {
            break;
        };
        let Some((word, len)) = move_word(tree, san.padded(), ply, true) else {
            break;
        };
        local.word(word, len);
        at += 1;
        commented = false;
    }
    lines.column = local.column;
    (at, commented)
}

/// A move (its SAN padded, and its length) with its number as one word ([`Lines::word`]):
/// `12. e4` for White, `12... e5` for Black when `numbered`, else `e5`; the number and dots
/// from a table, the SAN shifted in after them. `None` for a move numbered 100 or more, which
/// takes the number's digits ([`write_long_move`]).
#[inline(always)]
fn move_word(
    tree: &GameTree,
    (san, san_len): (&[u8; 7], usize),
    ply: u32,
    numbered: bool,
) -> Option<(u128, usize)> {
    let (number, black) = tree.move_number(ply);
    let mut padded = [0; 8];
    padded[..7].copy_from_slice(san);
    let san_word = u128::from(u64::from_le_bytes(padded));
    if black && !numbered {
        return Some((san_word, san_len));
    }
    let &(prefix, prefix_len) = MOVE_PREFIXES[usize::from(black)].get(number as usize)?;
    let prefix_len = usize::from(prefix_len);
    Some((
        u128::from(prefix) | san_word << (8 * prefix_len),
        prefix_len + san_len,
    ))
}

/// A move numbered 100 or more, with its number (which [`move_word`] leaves out): number,
/// dots and move appended as whole fixed-size arrays and cut back.
#[cold]
fn write_long_move(
    tree: &GameTree,
    (san, san_len): (&[u8; 7], usize),
    ply: u32,
    lines: &mut Lines<'_>,
) {
    let (number, black) = tree.move_number(ply);
    let (digits, len) = crate::decimal::digits(u64::from(number));
    let (dots, dots_len) = if black {
        (*b"... ", 4)
    } else {
        (*b". \0\0", 2)
    };
    lines.unit(len + dots_len + san_len, |out| {
        push_cut(out, &digits, len);
        push_cut(out, &dots, dots_len);
        push_cut(out, san, san_len);
    });
}

/// The numbers and dots before a move numbered below 100, as the low bytes of a word and their
/// length: `12. ` for White (`[0]`), `12... ` for Black (`[1]`).
const MOVE_PREFIXES: [[(u64, u8); 100]; 2] = {
    let mut prefixes = [[(0, 0); 100]; 2];
    let mut n = 0;
    while n < 100 {
        let mut side = 0;
        while side < 2 {
            let mut bytes = [0u8; 8];
            let mut len = 0;
            if n >= 10 {
                bytes[0] = b'0' + (n / 10) as u8;
                len = 1;
            }
            bytes[len] = b'0' + (n % 10) as u8;
            len += 1;
            let dots = if side == 0 { 1 } else { 3 };
            let mut d = 0;
            while d < dots {
                bytes[len] = b'.';
                len += 1;
                d += 1;
            }
            bytes[len] = b' ';
            len += 1;
            prefixes[side][n] = (u64::from_le_bytes(bytes), len as u8);
            side += 1;
        }
        n += 1;
    }
    prefixes
};

/// The comment `{ [%clk H:MM:SS] }` when `text` is lichess's ` [%clk H:MM:SS] ` (nearly every
/// comment of a lichess archive), each `H`, `M` and `S` a byte from `0` to `?`: a single unit
/// with nothing to fold, written as it is, where [`folded`] and the copy of a slice's length
/// cost select a fifth of what writing a lichess game costs.
#[inline(always)]
fn clock_comment(text: &[u8]) -> Option<[u8; 18]> {
    let bytes: &[u8; CLOCK_LEN] = text.try_into().ok()?;
    if !is_clock(bytes) {
        return None;
    }
    let mut comment = [b'}'; 18];
    comment[0] = b'{';
    comment[1..17].copy_from_slice(bytes);
    Some(comment)
}

/// The length of lichess's clock comment, ` [%clk H:MM:SS] `.
const CLOCK_LEN: usize = 16;

/// Whether `bytes` are ` [%clk H:MM:SS] `, each `H`, `M` and `S` a byte from `0` to `?`.
#[inline(always)]
fn is_clock(bytes: &[u8; 16]) -> bool {
    const SHAPE: u128 = u128::from_le_bytes(*b" [%clk 0:00:00] ");
    const MASK: u128 = u128::from_le_bytes([
        0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xF0, 0xFF, 0xF0, 0xF0, 0xFF, 0xF0, 0xF0, 0xFF,
        0xFF,
    ]);
    u128::from_le_bytes(*bytes) & MASK == SHAPE
}

/// Whether `text` is lichess's ` [%eval V] [%clk H:MM:SS] ` (the comments of a game lichess
/// analysed), `V` a score such as `0.17`, `-1.5` or `#-3` and the clock as [`is_clock`] has it:
/// a single unit (its two commands glued, as [`Units`] has them) with nothing to fold, written
/// as `{` `text` `}`.
#[inline]
fn is_eval_and_clock(text: &[u8]) -> bool {
    let Some((head, clock)) = text.split_last_chunk::<16>() else {
        return false;
    };
    let Some(score) = head
        .strip_prefix(b" [%eval ")
        .and_then(|rest| rest.strip_suffix(b"]"))
    else {
        return false;
    };
    is_clock(clock)
        && !score.is_empty()
        && score
            .iter()
            .all(|b| matches!(b, b'0'..=b'9' | b'.' | b'#' | b'+' | b'-'))
}

/// Where `text` lies trimmed, and its width, when that is all folding would do and it holds no
/// `}` (most comments). Eight bytes at a time: a word with no byte below `!`, no `}` and no byte
/// above ASCII is passed in a few instructions, and only the bytes it flags are looked at one
/// by one.
#[inline]
fn folded(text: &str) -> Option<(Range<usize>, usize)> {
    let trimmed = text.trim_ascii();
    let start = text.len() - text.trim_ascii_start().len();
    let bytes = trimmed.as_bytes();
    let mut ascii = true;
    let mut at = 0;
    while at < bytes.len() {
        // The next eight bytes, or the last ones padded with a letter (which flags nothing).
        let mut word = [b'a'; 8];
        let n = (bytes.len() - at).min(8);
        word[..n].copy_from_slice(&bytes[at..at + n]);
        let word = u64::from_le_bytes(word);
        ascii &= word & HIGH_BITS == 0;
        let mut flags = suspects(word);
        while flags != 0 {
            let i = at + (flags.trailing_zeros() / 8) as usize;
            flags &= flags - 1;
            let b = bytes[i];
            // Whitespace other than a lone space (the text is trimmed, so a space has a byte
            // before it), or a brace. (A `!` or a `~` may be flagged after a true hit: fine.)
            if b == b' ' && bytes[i - 1] == b' ' || b < b' ' || b == b'}' {
                return None;
            }
        }
        at += 8;
    }
    let width = if ascii { bytes.len() } else { width(trimmed) };
    Some((start..start + bytes.len(), width))
}

/// The high bit of each byte of a word.
const HIGH_BITS: u64 = 0x8080_8080_8080_8080;

/// The bytes of `word` (little-endian) that are below `!` (a space or a control byte) or are a
/// `}`, each flagged by its high bit; every such byte is flagged, and a byte right after a
/// flagged one may be flagged too when it is a `!` or a `~` (the borrow of the subtraction).
#[inline(always)]
fn suspects(word: u64) -> u64 {
    const ONES: u64 = 0x0101_0101_0101_0101;
    let low = word.wrapping_sub(ONES * 0x21) & !word;
    let brace = word ^ (ONES * u64::from(b'}'));
    (low | (brace.wrapping_sub(ONES) & !brace)) & HIGH_BITS
}

/// Appends the first `len` bytes of `bytes`, by appending them all and cutting back.
#[inline(always)]
fn push_cut<const N: usize>(out: &mut Vec<u8>, bytes: &[u8; N], len: usize) {
    let end = out.len() + len.min(N);
    out.extend_from_slice(bytes);
    out.truncate(end);
}

/// `text` with its whitespace folded: trimmed, every run of whitespace one space.
fn fold(text: &str, folded: &mut String) {
    folded.clear();
    for word in text.split_ascii_whitespace() {
        if !folded.is_empty() {
            folded.push(' ');
        }
        folded.push_str(word);
    }
}

/// The `[%clk]`, `[%emt]` and `[%eval]` commands of a comment, each folded, joined by a space.
fn commands(text: &str, kept: &mut String) {
    kept.clear();
    let mut rest = text;
    while let Some(open) = rest.find("[%") {
        let after = &rest[open + 2..];
        let name_end = after
            .find(|c: char| c == ']' || c.is_ascii_whitespace())
            .unwrap_or(after.len());
        let name = &after[..name_end];
        let Some(close) = after.find(']') else {
            break;
        };
        let known = ["clk", "emt", "eval"]
            .iter()
            .any(|k| name.eq_ignore_ascii_case(k));
        if known {
            if !kept.is_empty() {
                kept.push(' ');
            }
            let mut command = String::new();
            fold(&rest[open..open + 2 + close + 1], &mut command);
            kept.push_str(&command);
        }
        rest = &after[close + 1..];
    }
}

/// A folded comment, as `{ text }` broken between words (see the module documentation), or as
/// a `;` comment ending its line when it holds a `}`.
fn write_comment(folded: &str, lines: &mut Lines<'_>) {
    // The whole comment on the current line, when it fits: placing its pieces one by one would
    // put them all there too.
    let whole = width(folded) + 4;
    if !folded.is_empty() && lines.fits(whole) && !folded.as_bytes().contains(&b'}') {
        lines.unit(whole, |out| {
            out.extend_from_slice(b"{ ");
            out.extend_from_slice(folded.as_bytes());
            out.extend_from_slice(b" }");
        });
        return;
    }
    if folded.contains('}') {
        lines.unit(width(folded) + 2, |out| {
            out.extend_from_slice(b"; ");
            out.extend_from_slice(folded.as_bytes());
        });
        lines.end_line();
        return;
    }
    // Each unit is `start..end` of the folded text; the first gets `{ ` before it and the last
    // ` }` after it.
    let mut units = Units {
        text: folded.as_bytes(),
        at: 0,
    };
    let Some(mut unit) = units.next() else {
        lines.text("{ }");
        return;
    };
    let mut open = "{ ";
    loop {
        let next = units.next();
        let piece = &folded[unit.0..unit.1];
        let close = if next.is_none() { " }" } else { "" };
        lines.unit(open.len() + width(piece) + close.len(), |out| {
            out.extend_from_slice(open.as_bytes());
            out.extend_from_slice(piece.as_bytes());
            out.extend_from_slice(close.as_bytes());
        });
        open = "";
        match next {
            Some(next) => unit = next,
            None => return,
        }
    }
}

/// The units a folded comment (single spaces between words, none at its ends) is broken into,
/// as `start..end` of its text: its words, but a word that starts with `[` or `%`, and every
/// word of a `[%...]` command after its first, is glued to the word before it. One pass over
/// the bytes: a command runs from a word that starts with `[%` to a word that holds a `]`.
struct Units<'a> {
    text: &'a [u8],
    at: usize,
}

impl Iterator for Units<'_> {
    type Item = (usize, usize);

    fn next(&mut self) -> Option<(usize, usize)> {
        let bytes = self.text;
        let start = self.at;
        if start >= bytes.len() {
            return None;
        }
        // Whether the word being read is inside a command, as it stands after the word.
        let mut in_command = false;
        let mut word_start = start;
        let mut i = start;
        loop {
            if i == word_start && bytes[i..].starts_with(b"[%") {
                in_command = true;
            }
            match bytes.get(i) {
                None => break,
                Some(b']') => {
                    in_command = false;
                    i += 1;
                }
                Some(b' ') => {
                    // A break here, unless the next word is glued to this one.
                    match bytes.get(i + 1) {
                        Some(b'[' | b'%') => {}
                        _ if in_command => {}
                        _ => break,
                    }
                    i += 1;
                    word_start = i;
                }
                Some(_) => i += 1,
            }
        }
        self.at = i + 1;
        Some((start, i))
    }
}

#[cfg(test)]
mod tests {
    use arbiter_rules::Position;

    use super::*;

    fn written(tree: &GameTree, result: GameResult, options: &WriteOptions) -> String {
        let mut out = Vec::new();
        write_game(tree, result, None, options, &mut out);
        String::from_utf8(out).unwrap()
    }

    /// The movetext lines of `written`.
    fn movetext(text: &str) -> &str {
        text.split_once("\n\n").unwrap().1
    }

    fn tree_of(moves: &[&str]) -> GameTree {
        let mut tree = GameTree::default();
        tree.start(&Position::startpos());
        for (i, san) in moves.iter().enumerate() {
            tree.san(san, i as u32 + 1);
        }
        tree
    }

    /// Every string of up to `max` bytes from `alphabet`.
    fn strings(alphabet: &[&str], max: usize) -> Vec<String> {
        let mut all = vec![String::new()];
        let mut last = vec![String::new()];
        for _ in 0..max {
            last = last
                .iter()
                .flat_map(|s| alphabet.iter().map(move |a| format!("{s}{a}")))
                .collect();
            all.extend(last.iter().cloned());
        }
        all
    }

    /// [`folded`]'s answer as the text it names.
    fn trimmed(text: &str) -> Option<(&str, usize)> {
        folded(text).map(|(range, width)| (&text[range], width))
    }

    #[test]
    fn the_comment_scan_agrees_with_the_byte_by_byte_rule() {
        // The rule as it was written first: trimmed, no whitespace but lone spaces, no `}`.
        fn general(text: &str) -> Option<(&str, usize)> {
            let trimmed = text.trim_ascii();
            let mut last = 0;
            for &b in trimmed.as_bytes() {
                if b <= b' ' && (b != b' ' || last == b' ') || b == b'}' {
                    return None;
                }
                last = b;
            }
            Some((trimmed, width(trimmed)))
        }
        let alphabet = [
            " ",
            "a",
            "}",
            "!",
            "~",
            "|",
            "\t",
            "\n",
            "\u{b}",
            "é",
            "[%clk 0:03:00]",
        ];
        let mut checked = 0;
        for text in strings(&alphabet, 5) {
            assert_eq!(trimmed(&text), general(&text), "{text:?}");
            checked += 1;
        }
        // Long ones, over several words of eight bytes, with the odd byte at every place.
        for len in 0..40 {
            for at in 0..len {
                for odd in [" ", "  ", "}", "\t", "é", "!", "|"] {
                    let mut text = "x".repeat(len);
                    text.replace_range(at..at + 1, odd);
                    assert_eq!(trimmed(&text), general(&text), "{text:?}");
                    checked += 1;
                }
            }
        }
        assert!(checked > 100_000, "{checked}");
    }

    #[test]
    fn comments_break_into_the_units_of_the_first_rule() {
        // The rule as it was written first, collecting the units in a vector.
        fn general(folded: &str) -> Vec<(usize, usize)> {
            let bytes = folded.as_bytes();
            let mut units: Vec<(usize, usize)> = Vec::new();
            let mut at = 0;
            let mut in_command = false;
            while at < bytes.len() {
                let end = folded[at..].find(' ').map_or(bytes.len(), |i| at + i);
                let word = &folded[at..end];
                let glued = in_command || word.starts_with('[') || word.starts_with('%');
                if word.starts_with("[%") {
                    in_command = true;
                }
                if in_command && word.contains(']') {
                    in_command = false;
                }
                match units.last_mut() {
                    Some(unit) if glued => unit.1 = end,
                    _ => units.push((at, end)),
                }
                at = end + 1;
            }
            units
        }
        let words = [
            "a", "[%clk", "0:03:00]", "[x", "%y", "]", "[%eval", "b]c", "[%",
        ];
        for text in strings(&words, 4) {
            let mut folded = String::new();
            fold(&text.replace("]", "] ").replace("a", "a "), &mut folded);
            let units: Vec<(usize, usize)> = Units {
                text: folded.as_bytes(),
                at: 0,
            }
            .collect();
            assert_eq!(units, general(&folded), "{folded:?}");
        }
    }

    /// A value escaped byte by byte, as the writer did first.
    fn escaped(value: &[u8]) -> Vec<u8> {
        let mut out = Vec::new();
        for &b in value {
            if b == b'"' || b == b'\\' {
                out.push(b'\\');
            }
            out.push(b);
        }
        out
    }

    /// `value` written by [`push_value`] from a buffer that holds `after` behind it.
    fn pushed(value: &[u8], after: &[u8]) -> Vec<u8> {
        let buffer = [value, after].concat();
        let mut out = b"[X \"".to_vec();
        push_value(&mut out, piece(&buffer, 0..value.len()), true);
        out.split_off(4)
    }

    #[test]
    fn escapes_are_found_in_every_place_of_a_value() {
        // Every length over two words, the odd byte at every place, the buffer ending at the
        // value or running on (with quotes and backslashes behind it, which must not count).
        for len in 0..40 {
            for after in [
                &b""[..],
                b"\"\\\"\\\"\\\"\\\"\\\"\\\"\\\"\\\"\\",
                b"abcdefghijklmnopqrstuvwxyz",
            ] {
                let plain = vec![b'a'; len];
                assert_eq!(pushed(&plain, after), plain);
                for at in 0..len {
                    for special in [b'"', b'\\', b'#', b']', b'!', 0x80, 0] {
                        let mut value = vec![b'x'; len];
                        value[at] = special;
                        assert_eq!(pushed(&value, after), escaped(&value), "{value:?}");
                    }
                }
            }
        }
        // Bytes whose borrow could flag the next one: `#` after `"`, `]` after `\`.
        let odd = b"!!!!!!!!]]]]]]]]#$[]##";
        assert_eq!(pushed(odd, b""), odd);
        assert_eq!(pushed(b"\"#\\]", b""), b"\\\"#\\\\]");
        let accented = "éà\"ü".as_bytes();
        assert_eq!(pushed(accented, b"x"), escaped(accented));
    }

    #[test]
    fn every_tag_value_is_escaped_wherever_the_tags_lie() {
        // A quote or a backslash in any one tag (first, a roster one, the last at the very end
        // of the tree's text, or in a name), and one only in a comment after the tags.
        let tags = [
            ("Event", "a \"b\""),
            ("White", "c\\"),
            ("Annotator", "plain"),
            ("WhiteRatingDiff", "+5"),
            ("Last", "long value with \\ at its end \\"),
        ];
        for odd in 0..tags.len() {
            let mut tree = GameTree::default();
            let mut expected = Vec::new();
            for (i, (name, value)) in tags.iter().enumerate() {
                let value = if i == odd { *value } else { "x" };
                tree.tag(name, value);
                expected.push((name, value.replace('\\', "\\\\").replace('"', "\\\"")));
            }
            let text = written(&tree, GameResult::Unknown, &WriteOptions::default());
            for (name, value) in expected {
                assert!(text.contains(&format!("[{name} \"{value}\"]\n")), "{text}");
            }
        }
        let mut tree = tree_of(&["e4"]);
        tree.tag("Site", "x");
        tree.comment("a \"quote\" \\");
        let text = written(&tree, GameResult::Unknown, &WriteOptions::default());
        assert!(text.contains("[Site \"x\"]\n") && text.contains("{ a \"quote\" \\ }"));
    }

    #[test]
    fn the_roster_index_is_the_roster_order() {
        for (i, (name, _)) in ROSTER.iter().enumerate() {
            assert_eq!(roster_index(name.as_bytes()), Some(i));
        }
        for name in ["Annotator", "event", "WhiteElo", "", "Results"] {
            assert_eq!(roster_index(name.as_bytes()), None);
        }
    }

    #[test]
    fn the_roster_comes_first_then_the_other_tags_in_input_order() {
        let mut tree = GameTree::default();
        tree.tag("WhiteElo", "2500");
        tree.tag("Black", "B");
        tree.tag("Result", "0-1");
        tree.tag("ECO", "C20");
        tree.tag("Date", "2024.01.02");
        tree.tag("Annotator", r#"a "q" \ b"#);
        let text = written(&tree, GameResult::BlackWins, &WriteOptions::default());
        assert_eq!(
            text,
            "[Event \"?\"]\n[Site \"?\"]\n[Date \"2024.01.02\"]\n[Round \"?\"]\n[White \"?\"]\n\
             [Black \"B\"]\n[Result \"0-1\"]\n[WhiteElo \"2500\"]\n[ECO \"C20\"]\n\
             [Annotator \"a \\\"q\\\" \\\\ b\"]\n\n0-1\n\n"
        );
    }

    #[test]
    fn the_opening_replaces_the_tags_in_place_or_is_added() {
        let mut tree = GameTree::default();
        tree.tag("ECO", "A00");
        tree.tag("Site", "x");
        let mut out = Vec::new();
        let opening = Some(("B90", "Sicilian Defense: Najdorf Variation"));
        write_game(
            &tree,
            GameResult::Draw,
            opening,
            &WriteOptions::default(),
            &mut out,
        );
        let text = String::from_utf8(out).unwrap();
        assert!(
            text.contains(
                "[Result \"1/2-1/2\"]\n[ECO \"B90\"]\n\
                 [Opening \"Sicilian Defense: Najdorf Variation\"]\n\n"
            ),
            "{text}"
        );
        assert!(!text.contains("A00"));
    }

    #[test]
    fn black_moves_are_numbered_after_comments_nags_and_variations() {
        let mut tree = tree_of(&["e4"]);
        tree.nag(1);
        tree.san("e5", 2);
        tree.san("Nf3", 3);
        tree.comment("main");
        tree.san("Nc6", 4);
        tree.open_variation();
        tree.san("Nf6", 4);
        tree.san("Nc3", 5);
        tree.close_variation();
        tree.san("Bb5", 5);
        tree.san("a6", 6);
        let text = written(&tree, GameResult::Unknown, &WriteOptions::default());
        assert_eq!(
            movetext(&text),
            "1. e4 $1 1... e5 2. Nf3 { main } 2... Nc6 ( 2... Nf6 3. Nc3 ) 3. Bb5 a6 *\n\n"
        );
        let bare = WriteOptions {
            comments: false,
            variations: false,
            nags: false,
            ..WriteOptions::default()
        };
        assert_eq!(
            movetext(&written(&tree, GameResult::Unknown, &bare)),
            "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 *\n\n"
        );
    }

    #[test]
    fn a_game_from_a_fen_with_black_to_move_starts_with_dots() {
        let mut tree = GameTree::default();
        tree.start(&Position::from_fen("4k3/8/8/8/8/8/4P3/4K3 b - - 0 30").unwrap());
        tree.san("Kd7", 1);
        tree.san("e4", 2);
        tree.null_move(3);
        assert_eq!(
            movetext(&written(&tree, GameResult::Draw, &WriteOptions::default())),
            "30... Kd7 31. e4 -- 1/2-1/2\n\n"
        );
    }

    /// Every move number, below 100 (from the table) and above, for both sides, as `format!`
    /// writes it, numbered after a NAG, the lines broken where a token would pass the width.
    #[test]
    fn move_numbers_are_written_as_format_writes_them() {
        let sans = [
            "Kd2", "Kd7", "Ke2", "Ke7", "Kd1", "Ke8", "Kc2", "Kd8", "Kc1", "Kc8",
        ];
        for fullmove in [1, 2, 9, 10, 11, 49, 98, 99, 100, 101, 999, 1000, 99_999] {
            for black_first in [false, true] {
                let turn = if black_first { 'b' } else { 'w' };
                let fen = format!("4k3/8/8/8/8/8/8/4K3 {turn} - - 0 {fullmove}");
                let mut tree = GameTree::default();
                tree.start(&Position::from_fen(&fen).unwrap());
                let mut tokens = Vec::new();
                for (i, san) in sans.iter().enumerate() {
                    let ply = i as u32 + 1;
                    tree.san(san, ply);
                    let (number, black) = tree.move_number(ply);
                    // Black's move is numbered first and after the NAG.
                    tokens.push(match (black, i == 0 || i == 4) {
                        (true, true) => format!("{number}... {san}"),
                        (true, false) => san.to_string(),
                        (false, _) => format!("{number}. {san}"),
                    });
                    if i == 3 {
                        tree.nag(3);
                        tokens.push("$3".into());
                    }
                }
                tokens.push("*".into());
                let mut lines = vec![String::new()];
                for token in &tokens {
                    let line = lines.last_mut().unwrap();
                    if line.is_empty() {
                        line.push_str(token);
                    } else if line.len() + 1 + token.len() <= LINE_WIDTH {
                        line.push(' ');
                        line.push_str(token);
                    } else {
                        lines.push(token.clone());
                    }
                }
                let expected = lines.join("\n") + "\n\n";
                assert_eq!(
                    movetext(&written(
                        &tree,
                        GameResult::Unknown,
                        &WriteOptions::default()
                    )),
                    expected,
                    "{fen}"
                );
            }
        }
    }

    #[test]
    fn lines_stay_within_eighty_characters() {
        let moves: Vec<String> = (0..200)
            .map(|i| ["Nf3", "Nf6", "Ng1", "Ng8"][i % 4].to_string())
            .collect();
        let sans: Vec<&str> = moves.iter().map(String::as_str).collect();
        let mut tree = tree_of(&sans);
        tree.comment(&"word ".repeat(50));
        let text = written(&tree, GameResult::Draw, &WriteOptions::default());
        for line in text.lines() {
            assert!(line.chars().count() <= LINE_WIDTH, "{line:?}");
        }
        // Lines are filled: each but the last would not take the next unit.
        let body: Vec<&str> = movetext(&text).lines().collect();
        assert!(body.len() > 10);
        assert!(body[0].len() > 70, "{:?}", body[0]);
    }

    #[test]
    fn comments_are_folded_and_broken_between_words_only_where_safe() {
        let mut tree = tree_of(&["e4"]);
        let long = format!(
            "{} [%eval 0.25] [%clk 0:03:00] %escape [tag-like {}",
            "a ".repeat(35),
            "b ".repeat(5)
        );
        tree.comment(&long);
        let text = written(&tree, GameResult::Unknown, &WriteOptions::default());
        let body = movetext(&text);
        for line in body.lines() {
            assert!(line.chars().count() <= LINE_WIDTH, "{line:?}");
            assert!(!line.starts_with('[') && !line.starts_with('%'), "{line:?}");
        }
        assert!(!body.contains("[%eval\n") && !body.contains("[%clk\n"));
        // Reading the comment back and folding it gives the folded text.
        let inner = body
            .split_once("{ ")
            .unwrap()
            .1
            .rsplit_once(" }")
            .unwrap()
            .0;
        let mut folded = String::new();
        fold(&long, &mut folded);
        let mut again = String::new();
        fold(inner, &mut again);
        assert_eq!(again, folded);
    }

    #[test]
    fn a_lichess_clock_is_written_as_any_comment_is() {
        // The shortcuts of the clock comments, alone or after an eval, and of the plies that
        // hold one, against the general way, which a trailing space takes: the same bytes,
        // wherever the lines break, with plies without a comment, NAGs, evals the shortcut
        // does not take, and move numbers past 100.
        let moves = [
            "e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "O-O", "Be7",
        ];
        for clock in ["0:03:00", "1:59:59", "0:0?:<="] {
            let (mut fast, mut general) = (tree_of(&[]), tree_of(&[]));
            for round in 1..=25u32 {
                for (i, san) in moves.iter().enumerate() {
                    let ply = (round - 1) * 10 + i as u32 + 1;
                    let eval = match ply {
                        _ if ply.is_multiple_of(5) => "[%eval 0.17] ",
                        _ if ply.is_multiple_of(9) => "[%eval #-3] ",
                        _ if ply.is_multiple_of(11) => "[%eval -12.5] ",
                        _ if ply.is_multiple_of(17) => "[%eval x] ",
                        _ => "",
                    };
                    for (tree, space) in [(&mut fast, ""), (&mut general, " ")] {
                        tree.san(san, ply);
                        if !ply.is_multiple_of(13) {
                            tree.comment(&format!(" {eval}[%clk {clock}] {space}"));
                        }
                        if ply.is_multiple_of(7) {
                            tree.nag(1);
                        }
                    }
                }
            }
            assert!(clock_comment(format!(" [%clk {clock}] ").as_bytes()).is_some());
            assert!(clock_comment(format!(" [%clk {clock}]  ").as_bytes()).is_none());
            let eval = format!(" [%eval #-3] [%clk {clock}] ");
            assert!(is_eval_and_clock(eval.as_bytes()));
            for other in [
                &eval[1..],
                &eval[..eval.len() - 1],
                " [%eval ] [%clk 0:03:00] ",
            ] {
                assert!(!is_eval_and_clock(other.as_bytes()), "{other:?}");
            }
            let options = WriteOptions::default();
            let text = written(&fast, GameResult::Unknown, &options);
            assert_eq!(text, written(&general, GameResult::Unknown, &options));
            assert!(text.contains(&format!("{{ [%clk {clock}] }}")), "{text}");
            assert!(
                text.contains(&format!("{{ [%eval #-3] [%clk {clock}] }}")),
                "{text}"
            );
            assert!(text.contains("121. e4"), "{text}");
            let lines: Vec<&str> = movetext(&text).lines().collect();
            assert!(lines.len() > 20, "{text}");
            assert!(lines.iter().all(|line| line.len() <= LINE_WIDTH), "{text}");
        }
    }

    #[test]
    fn a_comment_with_a_closing_brace_is_a_line_comment() {
        let mut tree = tree_of(&["e4"]);
        tree.comment(" a } b ");
        tree.san("e5", 2);
        tree.comment("");
        assert_eq!(
            movetext(&written(
                &tree,
                GameResult::Unknown,
                &WriteOptions::default()
            )),
            "1. e4 ; a } b\n1... e5 { } *\n\n"
        );
    }

    #[test]
    fn without_comments_the_clock_and_eval_commands_can_stay() {
        let mut tree = tree_of(&["e4"]);
        tree.comment(" [%eval  0.17] a book move [%csl Ra1][%CLK 0:03:00] ");
        tree.san("e5", 2);
        tree.comment("no command");
        let options = WriteOptions {
            comments: false,
            keep_commands: true,
            ..WriteOptions::default()
        };
        assert_eq!(
            movetext(&written(&tree, GameResult::Unknown, &options)),
            "1. e4 { [%eval 0.17] [%CLK 0:03:00] } 1... e5 *\n\n"
        );
    }

    #[test]
    fn left_out_variations_take_their_nested_variations_along() {
        let mut tree = tree_of(&["e4"]);
        tree.open_variation();
        tree.san("d4", 1);
        tree.open_variation();
        tree.san("c4", 1);
        tree.close_variation();
        tree.comment("inside");
        tree.close_variation();
        tree.san("e5", 2);
        let options = WriteOptions {
            variations: false,
            ..WriteOptions::default()
        };
        assert_eq!(
            movetext(&written(&tree, GameResult::Unknown, &options)),
            "1. e4 e5 *\n\n"
        );
        assert_eq!(
            movetext(&written(
                &tree,
                GameResult::Unknown,
                &WriteOptions::default()
            )),
            "1. e4 ( 1. d4 ( 1. c4 ) { inside } ) 1... e5 *\n\n"
        );
    }
}
