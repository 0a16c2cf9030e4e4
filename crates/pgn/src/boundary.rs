//! Where a new game surely starts, told from the few lines around a place alone: this lets one
//! huge input be cut into parts that are read in parallel, each part's games exactly those the
//! whole input's reading finds there (see [`super::Reader::part`]).
//!
//! The splitter's state at a line start depends on everything before it, but only one of its
//! states keeps a tag line from starting a game: the tag section of a game (a tag line there is
//! one more tag pair, unless its name repeats). In the movetext, in a `{` comment (as a line that
//! is nothing but a tag pair) and after the result, a tag line starts the next game. So a line `B`
//! starts a game if it is one whole tag pair and the last non-blank line `L` before it cannot
//! leave a tag section open. `L` cannot when
//!
//! - it holds no `"` (so no tag pair, nor a quoted value, starts or runs in it), no `;` (no
//!   comment hides its end) and no carriage return but the one before its line feed (so it is one
//!   line, and its start is the only line start in it);
//! - it starts with none of `[`, `;`, `%` and `]` (so that a tag section open before it ends at
//!   its first byte: a line that starts with `]` may end a tag pair over lines, `[Site "x"`
//!   newline `]`, after which the tag section goes on; a pair over lines cannot end on a line
//!   with no `"` otherwise, nor run on past `L` to `B`, whose `[` no pair holds);
//! - after its last `[`, if any, comes a `]` and then some byte that is not blank: a game that
//!   starts at that `[` (after a result, say) holds it as a broken tag (`[%clk 0:03:00]`), and the
//!   byte after ends its tag section.
//!
//! Blank lines between `L` and `B` change nothing. A game that `B` starts is then the same whether
//! the input goes on before `B` or begins at it, and the game before ends at `B` whether `B` or
//! the end of the input follows.
//!
//! One more state hides a tag line: a `{` comment, which runs to its `}` whatever tag lines it
//! quotes (unless it was never closed: see [`super::Splitter`]). `B` is not in an open comment if
//! the last brace before it in the bytes is a `}` (it closes any comment open before it), or if
//! there is none (the bytes start where a game starts, out of any comment). After a `{`, `B` may be
//! inside that comment; it still starts a game if a `{` comes after it before any `}`: a comment
//! that holds a tag line and then a `{` was never closed, and its game ends at its first tag line,
//! so that `B` is read out of any comment.
//!
//! # Ranges (`--range`)
//!
//! Parts are cut from a game start the reader knows; a range of an input starts at any byte, and
//! its reader must find the same places whatever byte it began at. [`sure_start`] judges a line
//! start `B` by the rule above, told from the bytes of the input alone: `L` must start within
//! [`RANGE_LOOK_BEHIND`] bytes before `B` (at the start of the input, or after a line feed there),
//! the last brace is the last one in the whole input before `B`, and the `{` that keeps `B` out
//! of a comment must come within [`RANGE_LOOK_AHEAD`] bytes after it. The bounds make the rule
//! stricter, never wrong; and since they are counted from `B`, each place is judged the same by
//! any reader that holds those bytes around it.

use super::lex::{
    LINE_STATE_STOP, count_line_ends, first_brace, is_blank, last_brace, line_text_end, tag_window,
};
use super::scan::find_any;
use super::tags;

/// How many blank lines may stand between `L` and `B`.
const MAX_BLANK_LINES: usize = 16;

/// How far before a line start [`sure_start`] looks for the last non-blank line before it.
pub const RANGE_LOOK_BEHIND: usize = 64 << 10;
/// How far after a line start [`sure_start`] looks (for its tag line, and for a `{` before any
/// `}`): at least a whole tag line.
pub const RANGE_LOOK_AHEAD: usize = 64 << 10;

/// The first line start `B` in `bytes[from..until]` where a game surely starts, judged from the
/// input's bytes alone (see the module documentation), or `None`. `bytes` are the input's from
/// some offset on: `starts_input` if from its start, and `brace_before` is the last brace of the
/// input before them, if any. Each `B` judged must have [`RANGE_LOOK_BEHIND`] bytes before it in
/// `bytes` (unless they start the input), and [`RANGE_LOOK_AHEAD`] after it (unless
/// they end the input).
pub fn sure_start(
    bytes: &[u8],
    from: usize,
    until: usize,
    starts_input: bool,
    brace_before: Option<u8>,
) -> Option<usize> {
    // A line start follows a line feed: the line feeds in `bytes[from - 1..until - 1]`.
    let until = until.min(bytes.len());
    let first = from.max(1) - 1;
    let last = until.checked_sub(1)?;
    if first >= last {
        return None;
    }
    memchr::memchr_iter(b'\n', &bytes[first..last])
        .map(|newline| first + newline + 1)
        .find(|&start| {
            bytes.get(start) == Some(&b'[')
                && surely_starts_alone(bytes, start, starts_input, brace_before)
        })
}

/// The last line start in `bytes` at or after `from` where a game surely starts, whatever comes
/// before `bytes` (see the module documentation). `bytes[0]` must be a line start; `B`'s whole
/// line must be in `bytes`. `None` if there is no such place, or only at 0.
pub fn last_game_start(bytes: &[u8], from: usize) -> Option<usize> {
    let mut end = bytes.len();
    while let Some(newline) = memchr::memrchr(b'\n', &bytes[..end]) {
        let start = newline + 1;
        if start < from {
            return None;
        }
        if bytes.get(start) == Some(&b'[') && starts_game(bytes, start) {
            return Some(start);
        }
        end = newline;
    }
    None
}

/// The line ends in `bytes` as the reader counts lines: LF, CRLF and a lone CR (for the line on
/// which the part after `bytes` starts).
pub fn line_ends(bytes: &[u8]) -> u64 {
    count_line_ends(bytes)
}

/// Whether the line at `bytes[start]` (just after a line feed) surely starts a game.
fn starts_game(bytes: &[u8], start: usize) -> bool {
    if !whole_tag_line(bytes, start) {
        return false;
    }
    let after_tags = match last_non_blank_line(bytes, start - 1) {
        Some((_, line)) => cannot_leave_tags_open(line),
        None => false,
    };
    after_tags && out_of_comments(bytes, start)
}

/// Whether the line at `bytes[start]` (just after a line feed) surely starts a game, judged from
/// the input's bytes alone: see [`sure_start`].
fn surely_starts_alone(
    bytes: &[u8],
    start: usize,
    starts_input: bool,
    brace_before: Option<u8>,
) -> bool {
    if !whole_tag_line(bytes, start) {
        return false;
    }
    let behind = start.saturating_sub(RANGE_LOOK_BEHIND);
    let line = match last_non_blank_line(&bytes[behind..], start - 1 - behind) {
        // A line cut by the look-behind, not started by a line feed or the input's start.
        Some((0, _)) if behind > 0 || !starts_input => return false,
        Some((_, line)) => line,
        None => return false,
    };
    if !cannot_leave_tags_open(line) {
        return false;
    }
    match last_brace(&bytes[..start]).or(brace_before) {
        None | Some(b'}') => true,
        Some(_) => {
            let ahead = &bytes[start..bytes.len().min(start + RANGE_LOOK_AHEAD)];
            first_brace(ahead) == Some(b'{')
        }
    }
}

/// Whether the line at `bytes[start]` is one whole tag pair, its line end in sight.
fn whole_tag_line(bytes: &[u8], start: usize) -> bool {
    let window = tag_window(bytes, start);
    let len = line_text_end(window);
    if len == window.len() {
        return false;
    }
    let tag_line = &window[..len];
    tags::tag_line(tag_line).is_ok() && tags::tag_start(tag_line).is_ok()
}

/// Whether the line at `bytes[start]` is read out of any `{` comment (see the module
/// documentation).
fn out_of_comments(bytes: &[u8], start: usize) -> bool {
    match last_brace(&bytes[..start]) {
        None | Some(b'}') => true,
        Some(_) => first_brace(&bytes[start..]) == Some(b'{'),
    }
}

/// The last line before the line feed at `bytes[newline]` with something other than blanks on
/// it, without its line end, and where it starts in `bytes` (0 if no line feed comes before it
/// there); `None` if it is too far back or not in `bytes`.
fn last_non_blank_line(bytes: &[u8], mut newline: usize) -> Option<(usize, &[u8])> {
    for _ in 0..=MAX_BLANK_LINES {
        let start = memchr::memrchr(b'\n', &bytes[..newline]).map_or(0, |i| i + 1);
        let line = &bytes[start..newline];
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        if !line.iter().all(|&b| is_blank(b)) {
            return Some((start, line));
        }
        newline = start.checked_sub(1)?;
    }
    None
}

/// Whether the splitter, reading `line` in any state it can be in at its start, ends it out of a
/// tag section; see the module documentation.
fn cannot_leave_tags_open(line: &[u8]) -> bool {
    if find_any(line, LINE_STATE_STOP) < line.len() {
        return false;
    }
    match line.iter().find(|&&b| !is_blank(b)) {
        Some(b'[' | b'%' | b']') | None => return false,
        Some(_) => {}
    }
    match memchr::memrchr(b'[', line) {
        None => true,
        Some(open) => match memchr::memchr(b']', &line[open..]) {
            Some(close) => line[open + close + 1..].iter().any(|&b| !is_blank(b)),
            None => false,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn start(text: &str) -> Option<usize> {
        last_game_start(text.as_bytes(), 0)
    }

    #[test]
    fn finds_the_next_game_after_a_result_line() {
        let text = "[Event \"a\"]\n\n1. e4 e5 1-0\n\n[Event \"b\"]\n\n1. d4 *\n";
        assert_eq!(start(text), text.find("[Event \"b\"]"));
        let lichess = "1. e4 { [%clk 0:03:00] } 1-0\r\n\r\n[Event \"b\"]\r\n";
        assert_eq!(start(lichess), lichess.find("[Event"));
    }

    #[test]
    fn refuses_a_line_that_may_leave_a_tag_section_open() {
        for before in [
            "[Event \"a\"]",         // a tag pair: the section may go on
            "; a comment 1-0",       // a tag section's comment line
            "% an escape line",      // ditto
            "1. e4 \"a\" 1-0",       // a quote
            "1. e4 ; 1-0",           // a comment hides the end
            "1-0\r[Site \"x\"",      // a lone CR: two lines
            "{ c } [%clk 0:03:00]",  // a game may start at `[` and stay in its tags
            "1. e4 { [%clk 0:03:00", // a `[` not closed
            "[%clk 0:03:00] 1-0",    // starts with `[`
            "  ]",                   // may end a tag pair over lines
            "   ",                   // blank all the way up
        ] {
            let text = format!("{before}\n\n[Site \"b\"]\n");
            assert_eq!(start(&text), None, "{before:?}");
        }
    }

    #[test]
    fn needs_a_whole_tag_pair_line() {
        for after in ["[Site \"b\"] 1. e4", "[Site b]", "[Site \"b\"]"] {
            // The last has no line end yet: it may go on.
            let text = format!("1. e4 1-0\n\n{after}");
            assert_eq!(start(&text), None, "{after:?}");
        }
        assert_eq!(start("1. e4 1-0\n\n[Site \"b\"]   \n"), Some(11));
    }

    #[test]
    fn a_tag_line_that_may_be_quoted_in_a_comment_starts_no_game() {
        let quoted = "1. e4 { the game went:\nas follows\n\n[Site \"b\"]\n} e5 1-0\n";
        assert_eq!(start(quoted), None);
        let closed = "1. e4 { quoted } e5 1-0\n\n[Site \"b\"]\n";
        assert_eq!(start(closed), closed.find("[Site"));
        // Never closed: the next game's own comment comes first.
        let open = "1. e4 { open\nmore\n\n[Site \"b\"]\n\n1. d4 { [%clk 0:03:00] } *\n";
        assert_eq!(start(open), open.find("[Site"));
    }

    #[test]
    fn line_ends_count_lf_crlf_and_a_lone_cr_once_each() {
        assert_eq!(line_ends(b""), 0);
        assert_eq!(line_ends(b"a\nb\r\nc\rd\r"), 4);
        assert_eq!(line_ends(b"\r\r\n\n"), 3);
    }

    /// 300 KB of lines drawn at random from `kinds`, after `first`.
    fn random_lines(first: &str, kinds: &[&str]) -> String {
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let mut text = first.to_owned();
        while text.len() < 300_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            text.push_str(kinds[(x % kinds.len() as u64) as usize]);
            text.push_str(if x.is_multiple_of(5) { "\r\n" } else { "\n" });
        }
        text
    }

    /// How many line starts (every third) of `text` surely start a game, after checking each is
    /// judged the same from windows that start at or before its look-behind.
    fn sure_starts_from_any_window(text: &str) -> usize {
        let bytes = text.as_bytes();
        let mut sure = 0;
        for start in memchr::memchr_iter(b'\n', bytes).map(|n| n + 1).step_by(3) {
            let whole = sure_start(bytes, start, start + 1, true, None) == Some(start);
            for back in [RANGE_LOOK_BEHIND, RANGE_LOOK_BEHIND + 777] {
                let base = start.saturating_sub(back);
                let end = bytes.len().min(start + RANGE_LOOK_AHEAD + 5);
                let window = &bytes[base..end];
                let brace = last_brace(&bytes[..base]);
                let judged = sure_start(window, start - base, start - base + 1, base == 0, brace);
                assert_eq!(
                    judged == Some(start - base),
                    whole,
                    "at {start} from {base}"
                );
            }
            sure += usize::from(whole);
        }
        sure
    }

    #[test]
    fn a_sure_start_is_judged_the_same_from_any_window_that_holds_its_look_around() {
        // Lines of every kind a game start is judged by: tag pairs, results, quotes, braces open
        // and closed over lines, `;` and `%` lines, blank lines.
        let tags = ["[Event \"e\"]", "[Site \"s\"]", "", ""];
        let lines = [
            "1. e4 e5 1-0",
            "1-0 \"q\"",
            "; a line comment",
            "% escape",
            "  ]",
        ];
        let braces = ["1. d4 { a comment", "quoted } d5 0-1", "2. Nf3 {x} Nc6 *"];
        let every = [&tags[..], &lines, &braces].concat();
        assert!(sure_starts_from_any_window(&random_lines("", &every)) > 100);
        // No brace but an open one at the start, far behind the windows: nothing surely starts.
        let unclosed = random_lines("1. d4 { open\n", &[&tags[..], &lines].concat());
        assert_eq!(sure_starts_from_any_window(&unclosed), 0);
        let closed = random_lines("1. d4 { closed }\n", &[&tags[..], &lines].concat());
        assert!(sure_starts_from_any_window(&closed) > 100);
    }

    #[test]
    fn looks_only_from_the_given_place() {
        let text = "1. e4 1-0\n\n[Event \"b\"]\n\n1. d4\n";
        assert_eq!(last_game_start(text.as_bytes(), 11), Some(11));
        assert_eq!(last_game_start(text.as_bytes(), 12), None);
    }
}
