//! Input echoed in a message, made safe to print: cut to a length, so that a 50 MB line of
//! garbage does not become a 50 MB message, and with its control characters escaped, so that a
//! move written `\x1bc` cannot reset the terminal that shows a diagnostic. And the names a
//! mistyped name most likely meant ([`similar`]), for the messages that suggest them.
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

/// The names among `names` that `typo` most likely meant, best first, at most 3, none when
/// nothing is close, ignoring case: those that contain it (`elo`: `white_elo`, `black_elo`,
/// shorter first), else those that begin as it does but for its last letter (`ply`: `plies`),
/// else the nearest by edit distance, within a quarter of the name's length (at least 2:
/// `whte_elo`: `white_elo`). Containing and beginning count from 3 letters on.
pub fn similar<'a>(typo: &str, names: impl IntoIterator<Item = &'a str>) -> Vec<&'a str> {
    let typo = typo.to_lowercase();
    let names: Vec<(&str, String)> = names.into_iter().map(|n| (n, n.to_lowercase())).collect();
    let letters = typo.chars().count();
    let mut found: Vec<&str> = Vec::new();
    if letters >= 3 {
        let mut containing: Vec<&str> = names
            .iter()
            .filter(|(_, lower)| lower.contains(&typo))
            .map(|&(name, _)| name)
            .collect();
        containing.sort_by_key(|name| name.len());
        found = containing;
    }
    if found.is_empty() && letters >= 3 {
        let stem: String = typo.chars().take(letters - 1).collect();
        found = names
            .iter()
            .filter(|(_, lower)| lower.starts_with(&stem))
            .map(|&(name, _)| name)
            .collect();
    }
    if found.is_empty() {
        let near = names
            .iter()
            .map(|(name, lower)| (distance(&typo, lower), *name))
            .filter(|&(d, name)| d <= 2.max(name.chars().count() / 4));
        let best = near.clone().map(|(d, _)| d).min();
        found = near
            .filter(|&(d, _)| Some(d) == best)
            .map(|(_, name)| name)
            .collect();
    }
    found.truncate(3);
    found
}

/// `a`, `a or b`, `a, b or c`: the names for a message.
pub fn or_list(names: &[&str]) -> String {
    match names {
        [] => String::new(),
        [one] => (*one).to_owned(),
        [most @ .., last] => format!("{} or {last}", most.join(", ")),
    }
}

/// The edit distance between two names (few and short).
fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let substitution = diagonal + usize::from(ca != cb);
            diagonal = row[j + 1];
            row[j + 1] = substitution.min(row[j] + 1).min(row[j + 1] + 1);
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn similar_names_prefer_those_that_contain_the_typo() {
        let fields = ["eco", "white_elo", "black_elo", "plies", "white", "result"];
        assert_eq!(similar("elo", fields), ["white_elo", "black_elo"]);
        assert_eq!(similar("ELO", fields), ["white_elo", "black_elo"]);
        assert_eq!(similar("ply", fields), ["plies"]);
        assert_eq!(similar("whte_elo", fields), ["white_elo"]);
        assert_eq!(similar("resutl", fields), ["result"]);
        assert_eq!(similar("frobnicate", fields), Vec::<&str>::new());
        // Two letters are too few to contain or begin with.
        assert_eq!(similar("wh", fields), Vec::<&str>::new());
        assert_eq!(similar("json", ["text", "jsonl"]), ["jsonl"]);
        assert_eq!(similar("json", ["jsonl", "json", "csv"]), ["json", "jsonl"]);
        assert_eq!(or_list(&["a"]), "a");
        assert_eq!(or_list(&["a", "b", "c"]), "a, b or c");
    }

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
