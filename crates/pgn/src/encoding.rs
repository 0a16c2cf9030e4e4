//! Text decoding: a game is read as UTF-8 when it is valid UTF-8 (the common case, checked once
//! per game), and as Windows-1252 otherwise — the encoding of old Latin-1 archives, of which it is
//! a superset for printable characters. Either way no byte is lost and nothing panics.
//!
//! The parser works on the raw bytes; only the text handed to the visitor (tag values, comments) is
//! decoded, and only a non-ASCII piece of a Windows-1252 game costs an allocation.

use std::borrow::Cow;
use std::ops::Range;

use encoding_rs::WINDOWS_1252;

use super::location::Encoding;

/// A game's bytes with their decoding.
#[derive(Copy, Clone, Debug)]
pub(crate) enum Text<'a> {
    /// The game is valid UTF-8.
    Utf8(&'a str),
    /// The game is not valid UTF-8: read as Windows-1252.
    Windows1252(&'a [u8]),
}

impl<'a> Text<'a> {
    /// Checks `bytes` once (with SIMD: this is a pass over every byte) and picks the decoding.
    pub(crate) fn new(bytes: &'a [u8]) -> Text<'a> {
        match simdutf8::basic::from_utf8(bytes) {
            Ok(text) => Text::Utf8(text),
            Err(_) => Text::Windows1252(bytes),
        }
    }

    /// Which decoding was picked.
    pub(crate) fn encoding(self) -> Encoding {
        match self {
            Text::Utf8(_) => Encoding::Utf8,
            Text::Windows1252(_) => Encoding::Windows1252,
        }
    }

    /// The text of `range`, which the grammar has found to be all ASCII (a move, a tag name): then
    /// it reads the same in either encoding and needs no decoding, only a view. Cheap and inlined,
    /// for the hottest tokens; should the range ever not be ASCII, the text is empty.
    #[inline]
    pub(crate) fn ascii(self, range: Range<usize>) -> &'a str {
        let piece = match self {
            // Slicing a `str` checks only the two ends for character boundaries.
            Text::Utf8(text) => return text.get(range).unwrap_or_default(),
            Text::Windows1252(bytes) => bytes.get(range).unwrap_or_default(),
        };
        std::str::from_utf8(piece).unwrap_or_default()
    }

    /// The text of `range`, decoded. Ranges from the grammar start and end at ASCII bytes, so for
    /// UTF-8 they fall on character boundaries; a range that does not is decoded lossily.
    #[inline]
    pub(crate) fn get(self, range: Range<usize>) -> Cow<'a, str> {
        match self {
            Text::Utf8(text) => match text.get(range.clone()) {
                Some(piece) => Cow::Borrowed(piece),
                None => String::from_utf8_lossy(text.as_bytes().get(range).unwrap_or_default()),
            },
            Text::Windows1252(bytes) => {
                let piece = bytes.get(range).unwrap_or_default();
                WINDOWS_1252.decode_without_bom_handling(piece).0
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf8_is_borrowed() {
        let text = Text::new("Réti {ü}".as_bytes());
        assert_eq!(text.encoding(), Encoding::Utf8);
        assert!(matches!(text.get(0..5), Cow::Borrowed("Réti")));
        assert_eq!(text.get(1..2), "\u{fffd}");
    }

    #[test]
    fn ascii_pieces_are_views_in_either_encoding() {
        let text = Text::new("Réti e4".as_bytes());
        assert_eq!(text.ascii(6..8), "e4");
        let text = Text::new(b"R\xe9ti e4");
        assert_eq!(text.ascii(5..7), "e4");
        assert_eq!(text.ascii(0..2), "");
        assert_eq!(text.ascii(5..99), "");
    }

    #[test]
    fn other_bytes_are_windows_1252() {
        let text = Text::new(b"R\xe9ti \x80 e4");
        assert_eq!(text.encoding(), Encoding::Windows1252);
        assert_eq!(text.get(0..6), "Réti €");
        assert!(matches!(text.get(7..9), Cow::Borrowed("e4")));
        assert_eq!(text.get(8..99), "");
    }
}
