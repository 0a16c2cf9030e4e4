//! Input echoed in a message, made safe to print: cut to a length, so that a 50 MB line of
//! garbage does not become a 50 MB message, and with its control characters escaped, so that a
//! move written `\x1bc` cannot reset the terminal that shows a diagnostic.
//!
//! Control characters are escaped the way JSON escapes them (`\n`, `\t`, `\u001b`...), and so are
//! DEL and the C1 controls (`\u007f`, `\u009b`...), which JSON leaves alone but a terminal may
//! obey. Nothing else changes: a quote or a backslash stays as it is.

use std::borrow::Cow;
use std::fmt::Write as _;

/// At most this many characters of the input are echoed in a message or a record: the quote of a
/// move, a FEN or a line.
pub const MAX_ECHO_CHARS: usize = 512;

/// `text` cut to `max` characters, with `…` when something was cut.
pub fn clip(text: &str, max: usize) -> String {
    clip_owned(text.chars().take(max + 1).collect(), max)
}

/// Like [`clip`], in place.
pub(crate) fn clip_owned(mut text: String, max: usize) -> String {
    if let Some((end, _)) = text.char_indices().nth(max) {
        text.truncate(end);
        text.push('…');
    }
    text
}

/// `text` with every control character (C0, DEL, C1: what a terminal may act on rather than show)
/// escaped as the module documentation says; borrowed when there is none, as in nearly every
/// message.
pub fn escape_controls(text: &str) -> Cow<'_, str> {
    if !text.chars().any(char::is_control) {
        return Cow::Borrowed(text);
    }
    let mut escaped = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '\n' => escaped.push_str("\\n"),
            '\r' => escaped.push_str("\\r"),
            '\t' => escaped.push_str("\\t"),
            '\u{8}' => escaped.push_str("\\b"),
            '\u{c}' => escaped.push_str("\\f"),
            c if c.is_control() => {
                let _ = write!(escaped, "\\u{:04x}", u32::from(c));
            }
            c => escaped.push(c),
        }
    }
    Cow::Owned(escaped)
}

/// `1 game`, `2 games`: `n` and `word`, with an `s` unless `n` is 1.
pub fn counted(n: u64, word: &str) -> String {
    let s = if n == 1 { "" } else { "s" };
    format!("{n} {word}{s}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clip_counts_characters_and_marks_the_cut() {
        assert_eq!(clip("abcdef", 3), "abc…");
        assert_eq!(clip("abc", 3), "abc");
        assert_eq!(clip("éééé", 2), "éé…");
        assert_eq!(
            clip_owned("x".repeat(600), MAX_ECHO_CHARS).chars().count(),
            513
        );
    }

    #[test]
    fn controls_are_escaped_as_json_escapes_them() {
        assert!(matches!(escape_controls("e4 \"x\" \\ é"), Cow::Borrowed(_)));
        assert_eq!(escape_controls("\u{1b}c"), "\\u001bc");
        assert_eq!(escape_controls("a\tb\nc\rd"), "a\\tb\\nc\\rd");
        assert_eq!(
            escape_controls("\u{7f}\u{9b}\u{0}"),
            "\\u007f\\u009b\\u0000"
        );
        // What JSON writes for the C0 controls, byte for byte.
        for c in (0u8..0x20).map(char::from) {
            let json = serde_json::to_string(&c.to_string()).unwrap_or_default();
            assert_eq!(format!("\"{}\"", escape_controls(&c.to_string())), json);
        }
    }
}
